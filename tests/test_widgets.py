"""The explorers of iaa_teach.widgets, driven headless.

Each test sets a control's value (which fires the callbacks exactly as a click
in JupyterLab does), then checks that the readout shows the number the metrics
give on the changed data, built here independently from plain rows.
"""

from __future__ import annotations

import io
import itertools
import math
import re
from fractions import Fraction

import ipywidgets as w
import matplotlib.text
import numpy as np
import pytest
from figure_support import texts_outside
from rounding import d3

from iaa_teach import (
    AgreementError,
    Ratings,
    brennan_prediger,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    gwet_ac,
    interpret,
    items_needed,
    krippendorff_alpha,
    pairwise_cohen,
    percent_agreement,
)
from iaa_teach.course import alpha_verdict
from iaa_teach.widgets import (
    CoverageExplorer,
    IntervalExplorer,
    MissingDataExplorer,
    ParadoxExplorer,
    TableExplorer,
    WeightsExplorer,
)
from iaa_teach.widgets._controls import FloatSlider, IntSlider
from iaa_teach.widgets._interval import COEFFICIENTS, CURVE_ITEMS, STUDY_ITEMS
from iaa_teach.widgets._paradox import CURVES

CATS = datasets.SENTIMENT_CATEGORIES
PNG = b"\x89PNG\r\n\x1a\n"


def f3(exact) -> str:
    """An exact value as the readouts show it: 3 decimals, half up (independent of the package)."""
    return "undefined" if exact is None else d3(exact)


def sentiment_rows() -> list[list]:
    return datasets.sentiment().rows()


def table_of(rows, raters=("A", "B", "C")) -> Ratings:
    return Ratings.from_rows(rows, raters=list(raters), categories=CATS)


def code(ex: TableExplorer, label) -> int:
    return dict(ex.cells[0][0].options)["missing" if label is None else str(label)]


def widgets_in(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widgets_in(child)


ALL = [
    TableExplorer,
    ParadoxExplorer,
    MissingDataExplorer,
    CoverageExplorer,
    WeightsExplorer,
    IntervalExplorer,
]


# ===================================================================== all
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_control_is_labelled_and_keyboard_usable(cls):
    ex = cls()
    controls = [
        x
        for x in widgets_in(ex.widget)
        if isinstance(x, (w.Dropdown, IntSlider, FloatSlider, w.ToggleButtons, w.Button))
    ]
    assert controls
    for control in controls:
        assert control.description.strip(), f"{type(control).__name__} without a description"
        assert not control.disabled
        assert getattr(control, "tabbable", None) is not False
    assert "iaa-explorer" in ex.widget._dom_classes
    assert "font-size: 17px" in ex.widget.children[0].value  # projector-size CSS, scoped to the explorer


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_slider_opens_with_its_value_and_readout(cls, monkeypatch):
    """The first state the browser receives already shows the number: a readout sent after the comm
    opened left a new slider blank until it came (a browser test read that blank under load)."""
    import ipywidgets.widgets.widget as widget_module

    opened = {}
    create = widget_module.comm.create_comm

    def record(**kwargs):
        made = create(**kwargs)
        opened[made.comm_id] = kwargs["data"]["state"]
        return made

    monkeypatch.setattr(widget_module.comm, "create_comm", record)
    sliders = [x for x in widgets_in(cls().widget) if isinstance(x, (IntSlider, FloatSlider))]
    assert sliders or cls in (TableExplorer, WeightsExplorer)  # the two without sliders
    for slider in sliders:
        state = opened[slider.model_id]
        assert state["readout"] == slider.text_of(state["value"]) != ""
        assert (state["value"], state["readout"]) == (slider.value, slider.readout)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_display_gives_a_widget_view_and_the_readout_as_text(cls):
    ex = cls()
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    assert bundle["text/plain"] == ex.readout_text()
    assert bundle["text/plain"].startswith(ex.title)
    assert "0x" not in bundle["text/plain"]  # nothing unstable such as an address
    assert cls().readout_text() == ex.readout_text()  # same inputs, same text


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_figures_are_png_from_agg_without_pyplot(cls):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    ex = cls()
    assert bytes(ex.image.value).startswith(PNG)
    assert plt.get_fignums() == before


# =================================================================== table
def test_table_starts_from_the_sentiment_example():
    ex = TableExplorer()
    v = ex.values()
    pw = pairwise_cohen(datasets.sentiment())
    for res in pw.results:
        pair = f"{res.rater_a}-{res.rater_b}"
        assert v[f"Cohen {pair} P_o"] == f3(res.exact.p_o)
        assert v[f"Cohen {pair} P_e"] == f3(res.exact.p_e)
        assert v[f"Cohen {pair} kappa"] == f3(res.exact.kappa)
        assert v[f"Cohen {pair} band"] == interpret(res.kappa)
    assert [v["Cohen A-B kappa"], v["Cohen A-C kappa"], v["Cohen B-C kappa"]] == ["0.492", "0.844", "0.355"]
    assert v["Fleiss pooled kappa"] == "0.564"
    assert v["alpha"] == "0.578"
    assert "Fleiss item mean kappa" not in v  # complete data: one chance rule is enough
    p_i = fleiss_kappa(datasets.sentiment()).exact.p_i
    assert [v[f"P_i item {i + 1}"] for i in range(10)] == [f3(x) for x in p_i]


def test_table_dropdown_change_updates_every_coefficient():
    ex = TableExplorer()
    before = bytes(ex.image.value)
    ex.cells[0][1].value = code(ex, "N")  # item 1, rater B: P -> N
    rows = sentiment_rows()
    rows[0][1] = "N"
    r = table_of(rows)
    v = ex.values()
    for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
        res = cohen_kappa(r, a, b)
        assert (v[f"Cohen {a}-{b} P_o"], v[f"Cohen {a}-{b} kappa"]) == (
            f3(res.exact.p_o),
            f3(res.exact.kappa),
        )
    fl = fleiss_kappa(r)
    assert (v["Fleiss pooled P_a"], v["Fleiss pooled P_e"], v["Fleiss pooled kappa"]) == (
        f3(fl.exact.p_a),
        f3(fl.exact.p_e),
        f3(fl.exact.kappa),
    )
    assert v["P_i item 1"] == f3(fl.exact.p_i[0])
    assert v["alpha"] == f3(krippendorff_alpha(r).exact.alpha)
    assert bytes(ex.image.value) != before and bytes(ex.image.value).startswith(PNG)
    assert ex.ratings == r


def test_table_missing_cell_shows_both_chance_rules_and_drops_the_item_for_cohen():
    ex = TableExplorer()
    ex.set_cell(3, "B", None)
    ex.set_cell(8, "C", "missing")
    r = datasets.sentiment_missing()
    v = ex.values()
    assert v["alpha"] == f3(krippendorff_alpha(r).exact.alpha) == "0.540"
    assert v["Fleiss pooled kappa"] == f3(fleiss_kappa(r, chance="pooled").exact.kappa) == "0.555"
    assert v["Fleiss item mean kappa"] == f3(fleiss_kappa(r, chance="item_mean").exact.kappa) == "0.564"
    assert v["Cohen A-B kappa"] == f3(cohen_kappa(r, "A", "B").exact.kappa)
    assert "28 ratings, 2 missing" in ex.readout.value


def test_table_alpha_level_dropdown():
    ex = TableExplorer()
    ex.level.value = "ordinal"
    res = krippendorff_alpha(datasets.sentiment(), level="ordinal")
    assert (ex.values()["alpha"], ex.values()["alpha D_o"]) == (f3(res.exact.alpha), f3(res.exact.d_o))
    assert "interval" not in ex.level.options  # G/N/P are not numbers


def test_table_undefined_values_are_named_with_the_reason():
    ex = TableExplorer(Ratings.from_rows([["P", "P"], ["P", "P"], ["P", "N"]]))
    ex.set_cell(3, "B", "P")
    v = ex.values()
    assert v["Cohen A-B kappa"] == "undefined" and v["Cohen A-B band"] == "undefined"
    assert v["Fleiss pooled kappa"] == "undefined"
    assert v["alpha"] == "undefined"
    assert "P_e = 1" in ex.readout.value and "D_e = 0" in ex.readout.value
    assert bytes(ex.image.value).startswith(PNG)


def test_table_pair_without_shared_items_is_reported_not_raised():
    ex = TableExplorer(Ratings.from_rows([["P", None, "N"], [None, "N", "N"], ["G", None, "G"]]))
    v = ex.values()
    assert v["Cohen A-B kappa"] == "undefined"
    assert "never rated the same item" in ex.readout.value
    assert v["Cohen A-C kappa"] == f3(cohen_kappa(ex.ratings, "A", "C").exact.kappa)


def test_table_reset_and_the_callers_data_is_untouched():
    r = datasets.sentiment()
    ex = TableExplorer(r)
    start = ex.readout.value
    ex.set_cell(2, "C", "G")
    ex.set_cell(5, "A", None)
    assert ex.readout.value != start
    assert r == datasets.sentiment()
    ex.reset_button.click()
    assert ex.readout.value == start
    assert [dd.value for dd in ex.cells[1]] == [code(ex, x) for x in r.rows()[1]]


def test_table_bad_edits_raise_agreement_errors():
    ex = TableExplorer()
    with pytest.raises(AgreementError, match="not one of the categories"):
        ex.set_cell(1, "A", "X")
    with pytest.raises(AgreementError, match="no item"):
        ex.set_cell(99, "A", "P")
    with pytest.raises(AgreementError, match="no rater"):
        ex.set_cell(1, "Z", "P")
    with pytest.raises(AgreementError, match="level"):
        TableExplorer(level="interval")
    with pytest.raises(AgreementError, match="figure"):
        TableExplorer(figure="pie chart")
    assert TableExplorer(figure="pairwise kappa").figure.value == "pairwise kappa"


def test_table_long_tables_scroll_and_edit_the_right_item():
    big = datasets.simulate(60, 4, accuracy=0.7, seed=3)
    ex = TableExplorer(big, page_size=8)
    assert len(ex.cells) == 8 and ex.first_item.max == 53
    ex.figure.value = "per-item agreement P_i"
    ex.set_cell(40, "C", 1)
    assert ex.first_item.value == 40 and ex.item_labels[0].value == "40"
    rows = big.rows()
    rows[39][2] = 1
    r = Ratings.from_rows(rows, categories=big.categories)
    v = ex.values()
    assert v["Fleiss pooled kappa"] == f3(fleiss_kappa(r).exact.kappa)
    assert v["P_i item 40"] == f3(fleiss_kappa(r).exact.p_i[39])
    assert v["Cohen A-C kappa"] == f3(cohen_kappa(r, "A", "C").exact.kappa)
    ex.first_item.value = 1
    assert [dd.value for dd in ex.cells[0]] == list(big.codes[0])
    assert "P_i item 1" in ex.values()


@pytest.mark.parametrize(
    "figure",
    ["coefficients and bands", "per-item agreement P_i", "pairwise kappa", "coincidence matrix (alpha)"],
)
def test_table_every_figure_draws_for_small_and_large_tables(figure):
    for data in (datasets.sentiment(), datasets.simulate(200, 10, seed=1)):
        ex = TableExplorer(data)
        ex.figure.value = figure
        assert bytes(ex.image.value).startswith(PNG)  # its time: benchmarks/bench_widgets.py


# ================================================================= paradox
def test_paradox_readouts_match_the_metrics_on_the_same_simulation():
    ex = ParadoxExplorer(n_items=300, n_raters=4, accuracy=0.8, n_categories=3, prevalence=0.5, seed=7)
    ex.prevalence.value = 0.9
    r = datasets.simulate(300, 4, accuracy=0.8, prevalence=0.9, n_categories=3, seed=7)
    fl, al = fleiss_kappa(r), krippendorff_alpha(r)
    v = ex.values()
    assert (v["P_a"], v["P_e"], v["kappa"], v["alpha"]) == (
        f3(fl.exact.p_a),
        f3(fl.exact.p_e),
        f3(fl.exact.kappa),
        f3(al.exact.alpha),
    )
    assert v["kappa band"] == interpret(fl.kappa)


def test_paradox_high_agreement_low_kappa_when_one_category_dominates():
    ex = ParadoxExplorer(n_items=1000, n_raters=3, accuracy=0.9, n_categories=2, prevalence=0.5)
    balanced = ex.values()
    ex.prevalence.value = 0.95
    skewed = ex.values()
    assert abs(float(skewed["P_a"]) - float(balanced["P_a"])) < 0.03
    assert float(skewed["kappa"]) < float(balanced["kappa"]) - 0.3
    curve = ex.curve_values()
    middle = int(np.argmin(abs(curve["prevalence"] - 0.5)))
    assert curve["kappa"][middle] > curve["kappa"][-1] and curve["kappa"][middle] > curve["kappa"][0]


def test_paradox_ac1_and_s_readouts_and_curves_are_the_public_metrics():
    ex = ParadoxExplorer(n_items=120, n_raters=3, accuracy=0.8, n_categories=3, prevalence=0.5, seed=3)
    ex.prevalence.value = 0.85
    r = datasets.simulate(120, 3, accuracy=0.8, prevalence=0.85, n_categories=3, seed=3)
    ac, s, al = gwet_ac(r), brennan_prediger(r), krippendorff_alpha(r)
    v = ex.values()
    assert (v["AC1"], v["AC1 P_e"], v["AC1 band"]) == (f3(ac.exact.ac), f3(ac.exact.p_e), interpret(ac.ac))
    assert (v["S"], v["S P_e"]) == (f3(s.exact.s), f3(s.exact.p_e))
    assert v["S P_e"] == "0.333"  # 1/q, whatever the data
    assert v["alpha 1 - D_e"] == f3(1 - al.exact.d_e)
    curve = ex.curve_values()
    for i in (0, 7, len(curve["prevalence"]) - 1):
        at = datasets.simulate(
            120, 3, accuracy=0.8, prevalence=float(curve["prevalence"][i]), n_categories=3, seed=3
        )
        assert curve["AC1"][i] == gwet_ac(at).ac
        assert curve["S"][i] == brennan_prediger(at).s
        assert curve["kappa"][i] == fleiss_kappa(at).kappa
        assert curve["alpha"][i] == krippendorff_alpha(at).alpha
        assert curve["P_a"][i] == fleiss_kappa(at).p_a


def test_paradox_ac1_holds_up_where_kappa_falls():
    ex = ParadoxExplorer(n_items=1000, n_raters=3, accuracy=0.9, n_categories=2, prevalence=0.95)
    v = ex.values()
    assert float(v["AC1"]) > float(v["kappa"]) + 0.3
    assert abs(float(v["S"]) - (2 * float(v["P_a"]) - 1)) < 0.002  # q = 2: S = (P_a - 1/2) / (1/2)


def test_paradox_five_curves_each_visible_and_the_legend_clear_of_them():
    ex = ParadoxExplorer()
    lines = ex.axes.get_lines()[:5]
    styles = {(line.get_color(), str(line.get_linestyle()), line.get_marker()) for line in lines}
    assert len(styles) == 5
    fig = ex.figure
    renderer = fig.canvas.get_renderer()
    legend = ex.axes.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [label for _, label in CURVES]
    box = legend.get_window_extent(renderer)
    assert box.y1 < ex.axes.get_window_extent().y0 and box.y0 >= 0  # below the axes, inside the figure
    assert box.x0 >= 0 and box.x1 <= fig.bbox.x1


def test_paradox_shows_only_the_coefficients_asked_for():
    """Lesson 02 has not met AC1 and S: it shows kappa and alpha beside P_a, nothing else."""
    ex = ParadoxExplorer(n_items=200, curves=("kappa", "alpha"))
    # alpha's verdict is Krippendorff's guidance, not a Landis-Koch band (issue 22: one verdict per number)
    assert set(ex.values()) == {
        "P_a",
        "P_e",
        "kappa",
        "kappa band",
        "alpha 1 - D_e",
        "alpha",
        "alpha verdict",
    }
    assert ex.values()["alpha verdict"] == alpha_verdict(krippendorff_alpha(ex.ratings).alpha)
    assert [t.get_text() for t in ex.axes.get_legend().get_texts()] == [
        "observed agreement P_a",
        "Fleiss' kappa",
        "Krippendorff's alpha",
    ]
    assert "AC1" not in ex.readout.value and "Brennan" not in ex.readout.value
    assert "AC1" not in ex.image.alt and "alpha 0." in ex.image.alt
    full = ParadoxExplorer(n_items=200)
    assert ex.values()["kappa"] == full.values()["kappa"]
    ex.prevalence.value = 0.9
    assert ex.values()["kappa"] == f3(fleiss_kappa(ex.ratings).exact.kappa)
    with pytest.raises(AgreementError, match="curves must be one of"):
        ParadoxExplorer(curves=("kappa", "AC2"))
    with pytest.raises(AgreementError, match="curves"):
        ParadoxExplorer(curves=())


def test_paradox_figure_is_built_once_and_the_curves_redrawn_over_it():
    """Speed: a slider move redraws markers (prevalence) or lines (the rest) over a kept picture."""
    ex = ParadoxExplorer(n_items=100)
    fig, png = ex.figure, bytes(ex.image.value)
    ex.prevalence.value = 0.7
    assert ex.figure is fig and bytes(ex.image.value) != png
    ex.seed.value = 4
    assert ex.figure is fig
    kappa_line = ex.axes.get_lines()[1]
    assert list(kappa_line.get_ydata()) == list(ex.curve_values()["kappa"])
    r = datasets.simulate(100, 3, accuracy=0.85, prevalence=0.7, n_categories=2, seed=4)
    assert ex.values()["kappa"] == f3(fleiss_kappa(r).exact.kappa)


@pytest.mark.parametrize("explorer", ALL, ids=lambda c: c.__name__)
def test_figures_are_projector_ready_and_described(explorer):
    """2x pixels for their true size (1.4x when shown at their widest, WIDE_SCALE times that), no text
    under 12 CSS px at the true size, and a text alternative."""
    from PIL import Image

    from iaa_teach.widgets._base import CSS_DPI, MIN_FONT_PT, PIXEL_RATIO, WIDE_SCALE

    ex = explorer()
    images = [getattr(ex, name, None) for name in ("image", "image_weights", "image_half")]
    for image in [img for img in images if img is not None]:
        css_width = float(image.width.removesuffix("px"))
        png = Image.open(io.BytesIO(bytes(image.value)))
        assert png.size[0] >= PIXEL_RATIO * css_width / WIDE_SCALE - 1
        assert png.size[0] >= 1.4 * css_width - 1
        alt = ex.figure_alt[image.model_id]
        assert alt.startswith("Figure:") and len(alt) > 30 and alt.split(":")[1].strip()
        assert re.search(r"\d", alt), alt  # what it shows, with its numbers (issue 25), not only the chart
        assert image.alt == alt  # the <img>'s own alt text
    assert MIN_FONT_PT * CSS_DPI / 72 >= 12


def test_the_alt_text_states_the_figures_finding():
    """The bars' values (highest and lowest, ties named together), the items one rater labelled, the
    largest distance: read off the explorer's own readout, and they follow a change."""
    ex = TableExplorer()
    vals = ex.values()
    alt = ex.figure_alt[ex.image.model_id]
    assert f"A-C {vals['Cohen A-C kappa']}" in alt and f"alpha {vals['alpha']}" in alt
    assert f"Highest: A-C ({vals['Cohen A-C kappa']}); lowest: B-C ({vals['Cohen B-C kappa']})" in alt
    ex.set_cell(1, "B", None)  # item 1: B's label removed
    assert ex.figure_alt[ex.image.model_id] != alt
    assert f"alpha {ex.values()['alpha']}" in ex.figure_alt[ex.image.model_id]
    missing = MissingDataExplorer()
    tied = missing.figure_alt[missing.image.model_id]
    assert "Highest: alpha complete, alpha with gaps and alpha listwise (0.578)" in tied
    coverage = CoverageExplorer()
    assert "left out of P_a: items 9 and 10." in coverage.figure_alt[coverage.image.model_id]
    weights = WeightsExplorer()
    assert "the largest, 400, between G and P" in weights.figure_alt[weights.image.model_id]


def test_projector_ready_raises_small_text():
    from iaa_teach.widgets._base import MIN_FONT_PT, new_figure, projector_ready

    fig, (ax,) = new_figure(4, 3)
    ax.set_title("tiny", fontsize=5)
    ax.set_xticks([0, 1], ["a", "b"], fontsize=6)
    projector_ready(fig)
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
    assert min(sizes) >= MIN_FONT_PT


def test_paradox_figure_spans_the_sliders_whole_range():
    """Below 1/k as well as above: no setting of the slider falls outside the drawn curves."""
    for k in (2, 3, 5):
        ex = ParadoxExplorer(n_items=100, n_categories=k, prevalence=0.05)
        grid = ex.curve_values()["prevalence"]
        assert grid[0] == ex.prevalence.min and grid[-1] == ex.prevalence.max
        left, right = ex.axes.get_xlim()
        assert left <= ex.prevalence.min and right >= ex.prevalence.max


def test_paradox_says_how_alpha_and_kappa_differ_and_draws_them_apart():
    ex = ParadoxExplorer(n_items=200, n_raters=3)
    assert "(n - 1)/n" in ex.readout.value and "n = 600 ratings" in ex.readout.value
    lines = ex.axes.get_lines()[:3]
    kappa, alpha = lines[1], lines[2]
    assert (kappa.get_linestyle(), kappa.get_marker()) != (alpha.get_linestyle(), alpha.get_marker())
    assert alpha.get_markerfacecolor() == "none"  # hollow circles: kappa's line shows through
    legend = ex.axes.get_legend()
    fig = ex.figure
    box = legend.get_window_extent(fig.canvas.get_renderer())
    assert box.y1 < ex.axes.get_window_extent().y0  # the legend sits below the axes, clear of the curves


def test_paradox_curve_is_kept_when_only_the_prevalence_moves():
    ex = ParadoxExplorer()
    curve = ex.curve_values()
    ex.prevalence.value = 0.8
    assert ex.curve_values() is curve
    ex.seed.value = 5
    assert ex.curve_values() is not curve
    ex.n_raters.value = 5
    r = datasets.simulate(
        ex.n_items.value,
        5,
        accuracy=ex.accuracy.value,
        prevalence=0.8,
        n_categories=ex.n_categories.value,
        seed=5,
    )
    assert ex.values()["kappa"] == f3(fleiss_kappa(r).exact.kappa)


def test_paradox_perfect_raters_and_one_category_is_undefined():
    ex = ParadoxExplorer(n_items=50, accuracy=1.0, prevalence=0.99, n_categories=2)
    ex.n_items.value = 10  # 10 items at prevalence 0.99: all in category 1 with this seed
    r = datasets.simulate(10, 3, accuracy=1.0, prevalence=0.99, n_categories=2, seed=0)
    assert ex.values()["kappa"] == f3(fleiss_kappa(r).exact.kappa)
    if math.isnan(fleiss_kappa(r).kappa):
        assert "undefined" in ex.readout.value and "P_e = 1" in ex.readout.value


# ================================================================ interval
def _study(accuracy=0.8, prevalence=0.5, raters=3, categories=3, seed=0):
    return datasets.simulate(
        STUDY_ITEMS, raters, accuracy=accuracy, prevalence=prevalence, n_categories=categories, seed=seed
    )


@pytest.mark.parametrize("name", list(COEFFICIENTS))
def test_interval_readout_is_the_public_metric_on_the_first_n_items(name):
    metric = {
        "fleiss_kappa": fleiss_kappa,
        "krippendorff_alpha": krippendorff_alpha,
        "gwet_ac": gwet_ac,
        "brennan_prediger": brennan_prediger,
        "percent_agreement": percent_agreement,
    }[name]
    ex = IntervalExplorer(coefficient=name, n_items=30, accuracy=0.75, prevalence=0.6, n_raters=4, seed=5)
    ex.n_items.value = 250
    r = _study(0.75, 0.6, 4, 3, 5).subset(items=list(range(250)))
    res = metric(r)
    low, high = res.ci(0.95)
    v = ex.values()
    assert v["items"] == "250"
    assert v["value"] == f3(res.exact_value)
    assert v["SE"] == d3(res.se) and v["interval"] == f"{d3(low)} to {d3(high)}"
    assert v["half-width"] == d3(float(res) - low)
    shares = r.counts().sum(axis=0) / r.n_ratings
    plan = items_needed(name, expected=float(res), raters=4, proportions=shares, half_width=0.1)
    assert v["items needed"] == str(plan.items)


def test_interval_curves_are_the_public_metric_at_each_number_of_items():
    ex = IntervalExplorer(coefficient="gwet_ac", accuracy=0.7, prevalence=0.8)
    c = ex.curve_values()
    assert list(c["items"]) == list(CURVE_ITEMS)
    study = _study(0.7, 0.8)
    for i in (0, 10, len(CURVE_ITEMS) - 1):
        res = gwet_ac(study.subset(items=list(range(int(CURVE_ITEMS[i])))))
        low, high = res.ci()
        assert (c["value"][i], c["low"][i], c["high"][i], c["half_width"][i]) == (
            res.ac,
            low,
            high,
            res.ac - low,
        )


def test_interval_narrows_like_one_over_root_n():
    ex = IntervalExplorer(n_items=40)
    wide = float(ex.values()["half-width"])
    ex.n_items.value = 160
    narrow = float(ex.values()["half-width"])
    assert 0.4 < narrow / wide < 0.6  # four times the items: about half the width
    half = ex.curve_values()["half_width"]
    assert half[0] > 3 * half[-1]


def test_interval_is_deterministic_and_the_items_slider_only_moves_markers():
    a, b = IntervalExplorer(n_items=100), IntervalExplorer(n_items=100)
    assert a.readout_text() == b.readout_text() and bytes(a.image.value) == bytes(b.image.value)
    fig, curve = a.figure, a.curve_values()
    a.n_items.value = 500
    assert a.figure is fig and a.curve_values() is curve and bytes(a.image.value) != bytes(b.image.value)
    a.coefficient.value = "krippendorff_alpha"
    assert a.figure is fig and a.curve_values() is not curve
    a.accuracy.value = 0.6
    r = _study(0.6).subset(items=list(range(500)))
    assert a.values()["value"] == f3(krippendorff_alpha(r).exact.alpha)


def test_interval_figure_describes_the_current_point():
    """Two figures (each legible beside the controls in a small window), each saying what it marks."""
    ex = IntervalExplorer(n_items=200)
    alt, alt_half = (ex.figure_alt[image.model_id] for image in (ex.image, ex.image_half))
    v = ex.values()
    assert "200 items" in alt and v["value"] in alt and v["interval"] in alt
    assert "200 items" in alt_half and v["half-width"] in alt_half
    for ax in (ex.axes[0], ex.half_axes):
        box = ax.get_legend().get_window_extent(ax.figure.canvas.get_renderer())
        assert box.y1 < ax.get_window_extent().y0 and box.y0 >= 0  # below the axes, inside the figure


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"coefficient": "cohen_kappa"}, "coefficient"),
        ({"n_items": 5}, "n_items"),
        ({"n_items": 1001}, "n_items"),
        ({"n_items": 45}, "multiple of 10"),
        ({"accuracy": 1.5}, "accuracy"),
        ({"prevalence": 1.0}, "prevalence"),
        ({"n_raters": 1}, "n_raters"),
        ({"n_categories": 6}, "n_categories"),
        ({"seed": -1}, "seed"),
        ({"n_items": "40"}, "n_items"),
        ({"font_size": "big"}, "font_size"),
    ],
)
def test_interval_bad_options_raise_agreement_errors(kwargs, match):
    with pytest.raises(AgreementError, match=match):
        IntervalExplorer(**kwargs)


# ================================================================= missing
def test_missing_share_slider_against_the_metrics():
    ex = MissingDataExplorer(seed=4)
    ex.share.value = 0.25
    full = datasets.sentiment()
    r = datasets.remove_ratings(full, 0.25, seed=4)
    v = ex.values()
    assert v["removed"] == f"{30 - r.n_ratings} of 30"
    assert v["alpha complete"] == "0.578"
    assert v["alpha with gaps"] == f3(krippendorff_alpha(r).exact.alpha)
    assert v["Fleiss pooled with gaps"] == f3(fleiss_kappa(r, chance="pooled").exact.kappa)
    assert v["Fleiss item mean with gaps"] == f3(fleiss_kappa(r, chance="item_mean").exact.kappa)
    complete = [i for i, row in enumerate(r.rows()) if None not in row]
    listwise = Ratings.from_rows([full.rows()[i] for i in complete], raters=["A", "B", "C"], categories=CATS)
    assert v["alpha listwise"] == f3(krippendorff_alpha(listwise).exact.alpha)
    assert v["items used listwise"] == str(len(complete))
    assert "&ndash;" in ex.readout.value  # the gaps are shown in the table


def test_missing_seed_slider_and_nested_removal():
    ex = MissingDataExplorer(share=0.2)
    ex.seed.value = 9
    r = datasets.remove_ratings(datasets.sentiment(), 0.2, seed=9)
    assert ex.values()["alpha with gaps"] == f3(krippendorff_alpha(r).exact.alpha)


def test_missing_listwise_deletion_can_leave_nothing():
    ex = MissingDataExplorer()
    ex.share.value = 0.9
    v = ex.values()
    assert v["alpha listwise"] == "undefined" and v["items used listwise"] == "0"
    assert "listwise deletion leaves no item" in ex.readout.value


def test_missing_on_a_large_table():
    big = datasets.simulate(1000, 10, accuracy=0.8, seed=2)
    ex = MissingDataExplorer(big, seed=1)
    ex.share.value = 0.3
    r = datasets.remove_ratings(big, 0.3, seed=1)
    assert ex.values()["alpha with gaps"] == f3(krippendorff_alpha(r).exact.alpha)
    assert "the table itself is not shown" in ex.readout.value


# ================================================================ coverage
def partial_rows():
    return datasets.partial_coverage().rows()


def merged_by_hand(rows, keep):
    out = []
    for a, b, c, d, e in rows:
        label = (d if d is not None else e) if keep == "D" else (e if e is not None else d)
        out.append([a, b, c, label])
    return Ratings.from_rows(out, raters=["A", "B", "C", "D+E"], categories=CATS)


def test_coverage_defaults_right_against_merged():
    ex = CoverageExplorer()
    right = fleiss_kappa(datasets.partial_coverage())
    wrong = fleiss_kappa(merged_by_hand(partial_rows(), "D"))
    v = ex.values()
    assert v["labels right"] == "38" and v["labels merged"] == "34"
    assert v["items in P_a right"] == str(right.n_items_used) == "8"  # items 9 and 10 have a single label
    assert "left out of P_a" in ex.readout.value
    assert (v["P_a right"], v["P_e right"], v["kappa right"]) == (
        f3(right.exact.p_a),
        f3(right.exact.p_e),
        f3(right.exact.kappa),
    )
    assert (v["P_a merged"], v["P_e merged"], v["kappa merged"]) == (
        f3(wrong.exact.p_a),
        f3(wrong.exact.p_e),
        f3(wrong.exact.kappa),
    )
    assert [v[f"n_i right item {i}"] for i in range(1, 11)] == [
        "4",
        "4",
        "5",
        "5",
        "5",
        "5",
        "4",
        "4",
        "1",
        "1",
    ]
    assert [v[f"n_i merged item {i}"] for i in range(1, 11)] == ["4"] * 8 + ["1", "1"]


def _headings(html_text: str) -> list[str]:
    """The column headings and headings of a readout, as HTML."""
    return re.findall(r'<th scope="col">(.*?)</th>', html_text) + re.findall(r"<b>(.*?)</b>", html_text)


def test_coverage_readout_heads_its_columns_with_n_i():
    """The number of ratings of item i is n_i in the course's notation (notation.toml), not k."""
    ex = CoverageExplorer()
    per_item = re.findall(r"<table[^>]*>.*?</table>", ex.readout.value)[1]
    assert re.findall(r'<th scope="col">(.*?)</th>', per_item) == [
        "item",
        "n<sub>i</sub>",
        "P<sub>i</sub>",
        "n<sub>i</sub> merged",
        "P<sub>i</sub> merged",
    ]
    assert any("n<sub>i</sub>" in h for h in re.findall(r"<b>(.*?)</b>", ex.readout.value))


@pytest.mark.parametrize("explorer", ALL, ids=lambda c: c.__name__)
def test_readout_headings_write_the_course_notation(explorer):
    """Every symbol in a readout's headings is written as the course writes it (P_e as P with subscript e),
    and no heading is a letter the course uses for something else (k is a category)."""
    from iaa_teach.course import NOTATION

    names = [row.symbol.txt for row in NOTATION if "_" in row.symbol.txt]
    assert "n_i" in names and "P_e" in names
    headings = _headings(explorer().readout.value)
    assert headings
    for text in headings:
        plain = re.sub(r"<[^>]+>", "", text)
        assert not [name for name in names if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)], text
        assert not re.search(r"(?<!\w)k(?!\w)", plain), text


@pytest.mark.parametrize("explorer", ALL, ids=lambda c: c.__name__)
def test_the_readout_spans_the_explorer_under_controls_and_figures(explorer):
    """The readout is under the controls and the figures, as wide as the explorer (not in the figures'
    column beside the controls, where a wide table scrolled sideways)."""
    ex = explorer()
    children = list(ex.widget.children)
    assert children[-1] is ex.readout
    top = next(c for c in children if "iaa-top" in c._dom_classes)
    assert ex.readout not in list(widgets_in(top))
    assert ex.readout.layout.max_width == "100%"


def test_coverage_merge_toggle_keeps_the_other_label():
    ex = CoverageExplorer()
    image = bytes(ex.image.value)
    ex.keep.value = ex.keep.options[1][1]
    wrong = fleiss_kappa(merged_by_hand(partial_rows(), "E"))
    assert ex.values()["kappa merged"] == f3(wrong.exact.kappa)
    assert ex.values()["kappa merged"] != f3(fleiss_kappa(merged_by_hand(partial_rows(), "D")).exact.kappa)
    assert bytes(ex.image.value) == image  # the coverage chart did not change


def test_coverage_sliders_remove_labels():
    ex = CoverageExplorer()
    ex.d_first.value = 4  # D now starts at item 5
    ex.e_last.value = 5  # E now stops at item 6
    rows = partial_rows()
    for i in (2, 3):
        rows[i][3] = None
    for i in (8, 9):  # E labelled items 1-6 and 9-10
        rows[i][4] = None
    r = Ratings.from_rows(rows, raters=list("ABCDE"), categories=CATS)
    v = ex.values()
    assert v["labels right"] == str(r.n_ratings) == "34"
    assert v["kappa right"] == f3(fleiss_kappa(r).exact.kappa)
    assert v["kappa merged"] == f3(fleiss_kappa(r.merge_raters("D", "E", keep="D")).exact.kappa)
    assert [v[f"n_i right item {i}"] for i in range(1, 11)] == [
        "4",
        "4",
        "4",
        "4",
        "5",
        "5",
        "4",
        "4",
        "0",
        "0",
    ]
    assert ex.d_first.description == "first item D labels" and ex.e_last.description == "last item E labels"


def test_merge_raters_checks_its_arguments():
    r = datasets.partial_coverage()
    with pytest.raises(AgreementError, match="two different raters"):
        r.merge_raters("D", "D", keep="D")
    with pytest.raises(AgreementError, match="keep must be"):
        r.merge_raters("D", "E", keep="A")
    assert r.merge_raters("D", "E", keep="E").raters == ("A", "B", "C", "D+E")
    assert r == datasets.partial_coverage()


# ================================================================= weights
def test_weights_all_levels_and_weights_against_the_metrics():
    ex = WeightsExplorer()
    r = datasets.sentiment()
    v = ex.values()
    for level in ("nominal", "ordinal"):
        assert v[f"alpha {level}"] == f3(krippendorff_alpha(r, level=level).exact.alpha)
    scores = Ratings.from_rows(
        [[{"G": 1, "N": 2, "P": 3}[x] for x in row] for row in r.rows()], categories=[1, 2, 3]
    )
    assert v["alpha interval"] == f3(krippendorff_alpha(scores, level="interval").exact.alpha)
    for name, weights in (("unweighted", None), ("linear", "linear"), ("quadratic", "quadratic")):
        res = cohen_kappa(r, "A", "B", weights=weights)
        assert (v[f"P_o {name}"], v[f"P_e {name}"], v[f"kappa {name}"]) == (
            f3(res.exact.p_o),
            f3(res.exact.p_e),
            f3(res.exact.kappa),
        )
    assert "G = 1, N = 2, P = 3" in ex.readout.value


def test_weights_controls_redraw_only_what_changed():
    ex = WeightsExplorer()
    alpha_png, cohen_png = bytes(ex.image.value), bytes(ex.image_weights.value)
    ex.rater_b.value = "C"
    assert ex.values()["kappa linear"] == f3(
        cohen_kappa(datasets.sentiment(), "A", "C", weights="linear").exact.kappa
    )
    # neither matrix depends on the pair: both figures stay
    assert (bytes(ex.image.value), bytes(ex.image_weights.value)) == (alpha_png, cohen_png)
    ex.level.value = "interval"
    assert bytes(ex.image.value) != alpha_png and bytes(ex.image_weights.value) == cohen_png
    ex.weights.value = "quadratic"
    assert bytes(ex.image_weights.value) != cohen_png
    assert '<tr class="iaa-chosen"><th scope="row">quadratic' in ex.readout.value


def test_weights_figures_keep_every_text_inside_for_every_choice():
    """Each matrix's title, labels and numbers lie inside its figure (of fixed size) for every level and
    weights, drawn first or over a frame kept from another choice ("Cohen, unweighted: disagreement weight"
    on one line ran 44 px past the right edge; its title now names the agreement weight w_jk)."""
    choices = list(
        itertools.product(("nominal", "ordinal", "interval"), ("unweighted", "linear", "quadratic"))
    )
    for level, weights in choices:
        ex = WeightsExplorer(level=level, weights=weights)
        for again_level, again_weights in [(level, weights), *choices]:
            ex.clear_cache()  # drawn, not a kept picture: the kept figure shows this choice
            ex.level.value, ex.weights.value = again_level, again_weights
            for image, title in ((ex.image, again_level), (ex.image_weights, again_weights)):
                fig = ex._blits[id(image)]["figure"]
                assert title in fig.axes[0].get_title()
                assert texts_outside(fig) == [], (level, weights, again_level, again_weights)
    assert (
        "Figure: Cohen, quadratic: agreement weight w_jk, a 3 x 3 matrix of the labels: 1 on the diagonal, "
        "the smallest, 0, between G and P." == ex.figure_alt[ex.image_weights.model_id]
    )


@pytest.mark.parametrize("weights", ["unweighted", "linear", "quadratic"])
def test_weights_explorer_draws_the_agreement_weights_lesson_03_teaches(weights):
    """Lesson 03 teaches agreement weights w_jk = 1 - |j - k| / (q - 1) (or squared), 1 on the diagonal;
    the explorer beside it drew disagreement weights (0 on the diagonal, 2 or 4 for G and P) and a note
    with a w of its own (1 - w / max(w)). Its matrix is now w_jk, written as the lesson's tables write it."""
    ex = WeightsExplorer(weights=weights)
    ex.clear_cache()
    ax = ex._blits[id(ex.image_weights)]["figure"].axes[0]
    q = 3
    power = {"unweighted": None, "linear": 1, "quadratic": 2}[weights]
    expected = [
        str(Fraction(int(j == k)) if power is None else 1 - Fraction(abs(j - k) ** power, (q - 1) ** power))
        for j in range(q)
        for k in range(q)
    ]
    assert [t.get_text() for t in ax.texts] == expected
    assert "agreement weight w_jk" in ax.get_title() and "disagreement" not in ax.get_title()
    assert "1 - w / max(w)" not in ex.readout.value


def test_weights_same_rater_twice_and_new_data():
    ex = WeightsExplorer()
    ex.rater_b.value = "A"
    assert ex.values()["kappa unweighted"] == "undefined"
    assert "two different raters" in ex.readout.value
    big = datasets.simulate(500, 5, seed=3)
    ex.set_ratings(big)
    assert ex.values()["alpha interval"] == f3(krippendorff_alpha(big, level="interval").exact.alpha)
    assert ex.rater_a.options == big.raters


# ========================================================== simulated data
def test_simulate_is_seeded_and_shaped():
    a = datasets.simulate(40, 5, accuracy=0.7, prevalence=0.6, n_categories=4, seed=11)
    assert a == datasets.simulate(40, 5, accuracy=0.7, prevalence=0.6, n_categories=4, seed=11)
    assert a != datasets.simulate(40, 5, accuracy=0.7, prevalence=0.6, n_categories=4, seed=12)
    assert a.shape == (40, 5) and a.categories == (1, 2, 3, 4) and a.raters == tuple("ABCDE")
    assert datasets.simulate(40, 5, seed=np.random.default_rng(3)) == datasets.simulate(40, 5, seed=3)


def test_simulate_accuracy_and_prevalence_mean_what_they_say():
    perfect = datasets.simulate(500, 3, accuracy=1.0, seed=1)
    assert (perfect.codes == perfect.codes[:, :1]).all()
    r = datasets.simulate(20000, 2, accuracy=0.75, prevalence=0.8, n_categories=3, seed=2)
    truth_share = np.mean(r.codes == 0)
    assert abs(truth_share - (0.8 * 0.75 + 0.2 * 0.25 / 2)) < 0.01
    assert abs(cohen_kappa(r).p_o - (0.75**2 + 0.25**2 / 2)) < 0.01
    wrong = datasets.simulate(300, 3, accuracy=0.0, n_categories=2, seed=1)
    assert (
        wrong.codes[:, 0] == wrong.codes[:, 1]
    ).all()  # both wrong, and with 2 categories wrong is one label


def test_simulate_common_random_numbers_give_a_smooth_curve():
    a = datasets.simulate(1000, 3, prevalence=0.60, n_categories=2, seed=5).codes
    b = datasets.simulate(1000, 3, prevalence=0.61, n_categories=2, seed=5).codes
    assert np.mean(a != b) < 0.05


def test_simulate_and_remove_ratings_reject_bad_arguments():
    for kwargs, match in (
        ({"n_raters": 1}, "n_raters"),
        ({"accuracy": 1.5}, "accuracy"),
        ({"prevalence": -0.1}, "prevalence"),
        ({"n_categories": 1}, "n_categories"),
        ({"n_items": 2.5}, "n_items"),
        ({"missing": 2}, "missing"),
    ):
        with pytest.raises(AgreementError, match=match):
            datasets.simulate(**kwargs)
    with pytest.raises(AgreementError, match="share"):
        datasets.remove_ratings(datasets.sentiment(), 1.2)
    with pytest.raises(AgreementError, match="Ratings"):
        datasets.remove_ratings([["P", "P"]], 0.1)


def test_remove_ratings_is_nested_and_leaves_the_input_alone():
    full = datasets.sentiment()
    shares = [0.1, 0.3, 0.5, 0.8]
    masks = [datasets.remove_ratings(full, s, seed=2).missing for s in shares]
    for small, large in zip(masks, masks[1:]):
        assert (large | ~small).all()  # what a small share removes, a larger one removes too
    assert [int(m.sum()) for m in masks] == [round(s * 30) for s in shares]
    assert full == datasets.sentiment()
    gappy = datasets.sentiment_missing()
    assert int(datasets.remove_ratings(gappy, 0.1, seed=0).missing.sum()) == 3  # the 2 gaps count
    assert datasets.simulate(100, 4, missing=0.25, seed=1).n_ratings == 300


def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def test_table_bands_figure_redraws_only_its_bars_and_shows_what_a_new_figure_shows():
    """Speed: a cell edit redraws the bars and their numbers over the kept frame (axes, bands, labels);
    the picture is the one a freshly made explorer draws for the same table, and a value that moves the
    axis (below 0.1: the axis then starts under 0) or a new set of bars draws the frame again."""
    ex = TableExplorer()
    frame = ex._blit_figure
    ex.set_cell(1, "B", "N")
    assert ex._blit_figure is frame  # the frame was kept
    fresh = TableExplorer(ex.ratings)
    assert ex.image.alt == fresh.image.alt
    kept, new = _pixels(ex.image.value), _pixels(fresh.image.value)
    assert kept.shape == new.shape
    assert (np.abs(kept - new).max(axis=2) > 60).mean() < 0.002  # antialiased edges may differ, nothing more
    before = bytes(ex.image.value)
    ex.set_cell(2, "C", "P" if ex.ratings.rows()[1][2] == "N" else "N")  # the numbers on the bars change
    assert bytes(ex.image.value) != before and ex._blit_figure is frame
    for item in range(1, 11):  # rater C against the others: kappas fall below 0.1, the axis moves down
        ex.set_cell(item, "C", "N" if ex.initial.rows()[item - 1][0] == "P" else "P")
    assert ex._blit_figure is not frame
    low = ex._blit_figure.axes[0].get_ylim()[0]
    assert low < 0
    assert (
        np.abs(_pixels(ex.image.value) - _pixels(TableExplorer(ex.ratings).image.value)).max(axis=2) > 60
    ).mean() < 0.002
    ex.level.value = "ordinal"
    ex.figure.value = "pairwise kappa"
    ex.figure.value = "coefficients and bands"  # back: the frame is drawn again, not an old one reused
    assert (
        np.abs(_pixels(ex.image.value) - _pixels(TableExplorer(ex.ratings, level="ordinal").image.value)).max(
            axis=2
        )
        > 60
    ).mean() < 0.002


def _inside(fig) -> bool:
    """Every label and title of ``fig`` lies within its width (nothing cut at the left or right edge)."""
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    return box.x0 >= 0 and box.x1 <= fig.get_figwidth()


def test_kept_frames_keep_their_labels_within_the_figure():
    """The bands frame laid out for 0 to 1 keeps "coefficient" in view when the axis goes below 0 (its
    tick labels "-0.4" are wider: the margin moves); the coverage chart's item label fits its width."""
    ex = TableExplorer()
    assert _inside(ex._blit_figure)
    for item in range(1, 11):  # rater A against the others: kappas below 0
        ex.set_cell(item, "A", "N" if ex.initial.rows()[item - 1][0] == "P" else "P")
    fig = ex._blit_figure
    assert fig.axes[0].get_ylim()[0] < 0 and fig.axes[0].get_ylabel() == "coefficient"
    assert _inside(fig)
    coverage = CoverageExplorer()
    fig = coverage._blit_figure if coverage._blit_key is not None else None
    if fig is None:  # drawn anew, not kept: draw it here
        fig = coverage._draw()
    fig.canvas.draw()
    assert _inside(fig), fig.axes[0].get_xlabel()


def test_missing_data_bands_redraw_only_their_bars_and_show_what_a_new_explorer_shows():
    """Speed: the share and seed sliders redraw the five bars over the kept frame; the picture is the
    one a new explorer with the same settings draws."""
    ex = MissingDataExplorer()
    frame = ex._blit_figure
    for share, seed in ((0.3, 0), (0.3, 5), (0.6, 5)):
        ex.share.value, ex.seed.value = share, seed
        fresh = MissingDataExplorer(share=share, seed=seed)
        kept, new = _pixels(ex.image.value), _pixels(fresh.image.value)
        assert kept.shape == new.shape and (np.abs(kept - new).max(axis=2) > 60).mean() < 0.002
        assert ex.image.alt == fresh.image.alt
    assert ex._blit_figure is frame or ex._blit_figure.axes[0].get_ylim()[0] < 0  # a new frame: a new floor


def test_table_figures_come_back_when_a_cell_changes_back():
    """A cell changed and changed back shows the figure drawn for that table before, the same PNG."""
    ex = TableExplorer(figure="coincidence matrix (alpha)")
    first = bytes(ex.image.value)
    ex.set_cell(1, "B", "N")
    assert bytes(ex.image.value) != first
    ex.set_cell(1, "B", "P")
    assert bytes(ex.image.value) == first
    ex.level.value = "ordinal"  # the coincidences do not change with the level, the figure's title does
    ex.set_cell(1, "B", "N")
    ex.set_cell(1, "B", "P")
    assert bytes(ex.image.value) == bytes(
        TableExplorer(figure="coincidence matrix (alpha)", level="ordinal").image.value
    )


def test_coverage_readout_lists_the_first_items_of_a_long_table():
    """The per-item table stops at MAX_ITEM_ROWS rows and says so; the summary counts every item."""
    from iaa_teach.widgets._coverage import MAX_ITEM_ROWS

    r = datasets.simulate(100, 4, accuracy=0.8, prevalence=0.5, n_categories=3, seed=1)
    ex = CoverageExplorer(r, "A", "B")
    v = ex.values()
    assert (
        f"n_i right item {r.items[MAX_ITEM_ROWS - 1]}" in v
        and f"n_i right item {r.items[MAX_ITEM_ROWS]}" not in v
    )
    assert f"(100 items: the first {MAX_ITEM_ROWS} shown" in ex.readout.value
    assert v["kappa right"] == f3(fleiss_kappa(r).exact.kappa)  # every item, not the rows shown
    assert "items: the first" not in CoverageExplorer().readout.value  # 10 items: every row


def test_paradox_curves_of_a_setting_seen_lately_are_kept():
    """A slider moved back shows the same curves, without simulating them again."""
    ex = ParadoxExplorer(n_items=100)
    first = ex.curve_values()
    ex.seed.value = 5
    assert ex.curve_values() is not first
    ex.seed.value = 0
    assert ex.curve_values() is first  # kept, not computed again
    r = datasets.simulate(100, 3, accuracy=0.85, prevalence=0.5, n_categories=2, seed=0)
    assert ex.values()["kappa"] == f3(fleiss_kappa(r).exact.kappa)


def test_paradox_clear_cache_forgets_the_kept_curves():
    ex = ParadoxExplorer(n_items=100)
    first = ex.curve_values()
    ex.seed.value = 5
    ex.clear_cache()
    ex.seed.value = 0
    assert ex.curve_values() is not first
    assert all((ex.curve_values()[k] == first[k]).all() for k in first)  # the same numbers, computed again


@pytest.mark.parametrize("tick, fits", [("-1.0", True), ("r" * 400, False)])
def test_fit_inside_brings_labels_in_but_never_squeezes_the_axes_away(tick, fits):
    from iaa_teach.widgets._base import fit_inside, new_figure

    fig, (ax,) = new_figure(4.0, 2.5, left=0.02, right=0.98)
    ax.set_yticks([0.0], [tick])
    ax.set_ylabel("coefficient")
    width = ax.get_position().width
    fit_inside(fig)  # a rater's name of 400 characters once raised "left cannot be >= right"
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    assert (box.x0 >= 0 and box.x1 <= fig.get_figwidth()) == fits
    assert ax.get_position().width >= width / 2 - 1e-9


def test_a_quiz_box_too_short_for_its_placeholder_is_as_wide_as_a_written_answer():
    """A select-all part's placeholder ("all the letters that apply, e.g. A, C (of A-F)") does not fit the
    quiz's one-line 18.5em box: that box takes the written answer's width; the number boxes stay short."""
    from iaa_teach.widgets import Quiz

    quiz = Quiz("fleiss", seed=0, level=1)
    forms = {p.label: p.form for p in quiz.question.parts}
    assert "select" in forms.values()
    widths = {label: quiz.answers[label].layout.width for label in forms}
    assert widths == {label: "42.5em" if form == "select" else "18.5em" for label, form in forms.items()}


# ------------------------------------------------------------------ readout tables
def _explorers() -> list[str]:
    from iaa_teach import widgets
    from iaa_teach.widgets._base import Explorer

    return [
        name
        for name in widgets.__all__
        if isinstance(getattr(widgets, name), type) and issubclass(getattr(widgets, name), Explorer)
    ]


@pytest.mark.parametrize("name", _explorers())
def test_every_readout_table_has_column_and_row_headers(name):
    """Each readout table names its columns (<th scope="col"> in a <thead>) and its rows (its first
    column, <th scope="row">), so a screen reader reads a number with both; before, the first column was
    plain cells and the headings sat in the body. The missing-data explorer's table with its gaps too."""
    from bs4 import BeautifulSoup

    from iaa_teach import widgets

    soup = BeautifulSoup(getattr(widgets, name)().static_picture(), "html.parser")
    readouts = soup.select("table.iaa-readout")
    assert readouts and (name != "MissingDataExplorer" or soup.select("table.iaa-gaps")), name
    for table in readouts:
        heads = table.select("thead > tr > *")
        assert heads and all(c.name == "th" and c.get("scope") == "col" for c in heads), table
        rows = table.select("tbody > tr")
        assert rows and len(rows) == len(table.find_all("tr")) - 1, table
        for row in rows:
            cells = row.find_all(["th", "td"], recursive=False)
            assert cells[0].name == "th" and cells[0].get("scope") == "row", row
            assert all(c.name == "td" for c in cells[1:]), row
