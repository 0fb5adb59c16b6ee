"""iaa_teach.plots: every figure is a closed Figure of the fixed size, drawn from the result it is given."""

import io
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from figure_support import texts_outside  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from rounding import d3  # noqa: E402

import iaa_teach.metrics  # noqa: E402
from iaa_teach import (  # noqa: E402
    BANDS,
    AgreementError,
    Ratings,
    _plots,  # noqa: E402
    agreement_family,
    cohen_kappa,
    datasets,
    family_intervals,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    pairwise_cohen,
    percent_agreement,
    plots,  # noqa: E402
)
from iaa_teach.worked import chance_rule  # noqa: E402

SENTIMENT = datasets.sentiment()
MISSING = datasets.sentiment_missing()
PARTIAL = datasets.partial_coverage()
PALETTE = {c.lower() for c in _plots.OKABE_ITO.values()}


def texts(ax):
    """The texts shown on ``ax`` (a chart an explorer updates keeps hidden ones, to show later)."""
    return [t.get_text() for t in ax.texts if t.get_visible()]


def bar_patches(ax):
    return [
        p
        for p in ax.patches
        if type(p) is Rectangle and p.get_width() > 0 and p.get_height() != 0 and p.get_visible()
    ]


def figures():
    alpha = krippendorff_alpha(SENTIMENT)
    return {
        "agreement_heatmap": plots.agreement_heatmap(cohen_kappa(SENTIMENT, "A", "B")),
        "item_agreement_bars": plots.item_agreement_bars(fleiss_kappa(MISSING)),
        "pairwise_bars": plots.pairwise_bars(pairwise_cohen(SENTIMENT), reference=fleiss_kappa(SENTIMENT)),
        "coincidence_heatmap": plots.coincidence_heatmap(alpha),
        "pair_counts_heatmap": plots.coincidence_heatmap(alpha, which="pair_counts"),
        "coefficients_with_bands": plots.coefficients_with_bands({"a": 0.2, "b": alpha}),
        "coverage_chart": plots.coverage_chart(PARTIAL),
        "family_chart": plots.family_chart(SENTIMENT),
        "chance_chart": plots.chance_chart(MISSING),
    }


@pytest.fixture(scope="module")
def figs():
    return figures()


@pytest.mark.parametrize("name", list(figures()))
def test_fixed_size_titled_labelled_closed(figs, name):
    fig = figs[name]
    assert isinstance(fig, Figure)
    assert tuple(fig.get_size_inches()) == pytest.approx(_plots.FIGSIZE)
    assert fig.dpi == _plots.DPI
    ax = fig.axes[0]
    assert ax.get_title().strip()
    assert ax.get_xlabel().strip() and ax.get_ylabel().strip()
    assert plt.get_fignums() == [], "figures must be closed in pyplot (shown once, when returned)"
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", list(figures()))
def test_every_text_lies_inside_the_figure(figs, name):
    """Titles, axis and tick labels, numbers and legends: none runs past an edge of the figure's PNG."""
    assert texts_outside(figs[name]) == []


def test_agreement_heatmap_shows_the_table():
    res = cohen_kappa(SENTIMENT, "A", "B")
    ax = plots.agreement_heatmap(res).axes[0]
    assert texts(ax) == [str(int(x)) for x in np.asarray(res.table).ravel()]
    assert np.array_equal(ax.images[0].get_array(), res.table)
    assert d3(res.exact.kappa) in ax.get_title()
    assert ax.get_xlabel().startswith(res.rater_b) and ax.get_ylabel().startswith(res.rater_a)


def test_item_bars_colour_unanimous_and_split_items_and_draw_the_mean():
    res = fleiss_kappa(MISSING)
    ax = plots.item_agreement_bars(res).axes[0]
    bars = bar_patches(ax)
    heights = sorted(round(b.get_height(), 9) for b in bars)
    assert heights == sorted(round(x, 9) for x in res.p_i[~np.isnan(res.p_i)])
    colours = {round(b.get_height(), 9): to_hex(b.get_facecolor()) for b in bars}
    assert colours[1.0] != colours[round(1 / 3, 9)]
    assert {c.lower() for c in colours.values()} <= PALETTE
    ys = [line.get_ydata()[0] for line in ax.get_lines()]
    assert res.p_a in ys


def test_item_bars_title_does_not_give_away_kappa():
    """Lesson 02 draws the bars before Steps 4-5 and Exercise 2 ask for p_j, P_e and kappa: by default
    neither the title nor the text alternative names kappa, its value or its chance rule (which
    would say 'over all 30 ratings', the denominator of p_j); ``kappa=True`` adds them."""
    res = fleiss_kappa(SENTIMENT)
    kappa = d3(31 / 55)  # (11/15 - 7/18) / (1 - 7/18), by hand
    fig = plots.item_agreement_bars(res)
    shown = fig.axes[0].get_title() + "\n" + _plots.alt_text(fig)
    assert "$P_i$" in fig.axes[0].get_title()
    assert "kappa" not in shown and kappa not in shown and chance_rule(res) not in shown
    assert d3(11 / 15) in _plots.alt_text(fig)  # P_a, which the lesson has computed by then
    fig = plots.item_agreement_bars(res, kappa=True)
    title = fig.axes[0].get_title()
    assert f"Fleiss' kappa = {kappa}" in title and chance_rule(res) in title
    assert f"Fleiss' kappa {kappa}" in _plots.alt_text(fig)
    with pytest.raises(AgreementError, match="kappa=True or kappa=False"):
        plots.item_agreement_bars(res, kappa="yes")


def test_item_bars_mark_items_with_one_rating():
    r = datasets.partial_coverage().subset(raters=["A", "D"])  # items 1-2: only A
    res = fleiss_kappa(r)
    ax = plots.item_agreement_bars(res).axes[0]
    assert sum("< 2" in t for t in texts(ax)) == int(np.isnan(res.p_i).sum())


def test_pairwise_bars_heights_and_reference_line():
    res = pairwise_cohen(SENTIMENT)
    fleiss = fleiss_kappa(SENTIMENT)
    ax = plots.pairwise_bars(res, reference=fleiss).axes[0]
    heights = [b.get_height() for b in bar_patches(ax)]
    assert heights == pytest.approx(list(res.kappas))
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"{a} vs {b}" for a, b in res.pairs]
    assert fleiss.kappa in [line.get_ydata()[0] for line in ax.get_lines()]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(chance_rule(fleiss) in t and d3(fleiss.exact.kappa) in t for t in legend)
    ax2 = plots.pairwise_bars(res, reference=0.5, reference_label="target").axes[0]
    assert any(t.get_text().startswith("target") for t in ax2.get_legend().get_texts())


@pytest.mark.parametrize(
    "which,attr", [("coincidences", "coincidences"), ("pair_counts", "pair_counts"), ("expected", "expected")]
)
def test_coincidence_heatmap_draws_the_requested_matrix(which, attr):
    res = krippendorff_alpha(MISSING)
    ax = plots.coincidence_heatmap(res, which=which).axes[0]
    assert np.allclose(ax.images[0].get_array(), getattr(res, attr))
    if which == "coincidences":
        assert texts(ax) == [str(v) for row in res.exact.coincidences for v in row]
        assert f"{res.n} pairable values" in ax.get_title()
    if which == "pair_counts":
        assert f"{int(res.pair_counts.sum())} pairs" in ax.get_title()


def test_coincidence_heatmap_rejects_unknown_matrix():
    with pytest.raises(
        AgreementError, match="which must be one of 'coincidences', 'pair_counts', 'expected'; got 'diagonal'"
    ):
        plots.coincidence_heatmap(krippendorff_alpha(SENTIMENT), which="diagonal")


def test_coefficients_over_bands():
    alpha = krippendorff_alpha(SENTIMENT)
    values = {"Cohen": cohen_kappa(SENTIMENT, "A", "B"), "alpha": alpha, "negative": -0.25}
    ax = plots.coefficients_with_bands(values).axes[0]
    heights = [b.get_height() for b in bar_patches(ax) if b.get_zorder() == 2]
    assert heights == pytest.approx([float(v) for v in values.values()])
    shown = set(texts(ax))
    assert {name for _, _, name in BANDS} <= shown  # the bar below zero brings "poor" into view
    assert d3(alpha.exact.alpha) in shown


def test_coverage_chart_one_cell_per_label():
    ax = plots.coverage_chart(PARTIAL).axes[0]
    cells = [p for p in ax.patches if type(p) is Rectangle]
    gaps = [p for p in cells if p.get_hatch()]
    assert len(cells) - len(gaps) == PARTIAL.n_ratings
    assert len(gaps) == int(PARTIAL.missing.sum())
    per_item = (~PARTIAL.missing).sum(axis=1)
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        f"{i}\n$n_i$={k}" for i, k in zip(PARTIAL.items, per_item)
    ]
    # issue 22: n_i, not k (a category elsewhere); no count in the title (lesson 05 asks for it)
    assert str(PARTIAL.n_ratings) not in ax.get_title()


def test_wrong_result_type_is_a_clear_error():
    alpha = krippendorff_alpha(SENTIMENT)
    for fn in (plots.agreement_heatmap, plots.item_agreement_bars, plots.pairwise_bars):
        with pytest.raises(AgreementError, match=fn.__name__):
            fn(alpha)
    with pytest.raises(AgreementError, match="coincidence_heatmap"):
        plots.coincidence_heatmap(fleiss_kappa(SENTIMENT))


def test_plots_never_compute_a_coefficient(monkeypatch):
    """Results computed first; then every metric is made to fail: the plots still draw."""
    results = (
        cohen_kappa(SENTIMENT, "A", "B"),
        fleiss_kappa(SENTIMENT),
        pairwise_cohen(SENTIMENT),
        krippendorff_alpha(SENTIMENT),
    )
    _ = [r.exact for r in results]  # exact values are part of the result, computed here

    def refuse(*args, **kwargs):
        raise AssertionError("a plot called a metric")

    for name in ("cohen_kappa", "fleiss_kappa", "pairwise_cohen", "krippendorff_alpha", "bootstrap_ci"):
        monkeypatch.setattr(iaa_teach.metrics, name, refuse)
        monkeypatch.setattr(plots, name, refuse, raising=False)
    cohen, fleiss, pairs, alpha = results
    plots.agreement_heatmap(cohen)
    plots.item_agreement_bars(fleiss)
    plots.pairwise_bars(pairs, reference=fleiss)
    plots.coincidence_heatmap(alpha)
    plots.coefficients_with_bands({"a": cohen, "b": fleiss})
    plots.coverage_chart(SENTIMENT)
    plots.family_chart({"Cohen": cohen, "Fleiss": fleiss, "alpha": alpha})
    plots.chance_chart({"Fleiss": fleiss, "Cohen": cohen, "alpha": alpha})


def test_axes_argument_draws_into_an_existing_figure():
    fig = Figure(figsize=(10, 4))
    ax1, ax2 = fig.subplots(1, 2)
    assert plots.agreement_heatmap(cohen_kappa(SENTIMENT, "A", "B"), ax=ax1) is fig
    assert plots.coverage_chart(SENTIMENT, ax=ax2) is fig


def test_metrics_and_package_import_without_matplotlib():
    code = (
        "import sys, iaa_teach, iaa_teach.metrics, iaa_teach.worked; "
        "assert 'matplotlib' not in sys.modules; "
        "from iaa_teach import plots; assert 'matplotlib' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ================================================================ the family
def interval_segments(ax):
    """(x, low, high) of every vertical error bar drawn."""
    out = []
    for coll in ax.collections:
        for seg in coll.get_segments():
            (x0, y0), (x1, y1) = seg[0], seg[-1]
            if x0 == x1:
                out.append((x0, min(y0, y1), max(y0, y1)))
    return sorted(out)


def test_family_chart_draws_every_coefficient_with_its_interval():
    family = agreement_family(SENTIMENT)
    fig = plots.family_chart(SENTIMENT)
    ax = fig.axes[0]
    bars = [b for b in bar_patches(ax) if b.get_zorder() == 2]
    assert [b.get_height() for b in bars] == pytest.approx([float(res) for res in family.values()])
    shown = texts(ax)
    for res in family.values():
        assert d3(res.exact_value) in shown
    drawn = interval_segments(ax)
    assert [x for x, _, _ in drawn] == list(range(len(family)))
    assert [y for _, low, high in drawn for y in (low, high)] == pytest.approx(
        [y for res in family.values() for y in res.ci()]
    )
    assert {name for _, _, name in BANDS[1:]} <= set(shown)
    ticks = [t.get_text().replace("\n", " ").replace("- ", "-") for t in ax.get_xticklabels()]
    assert ticks == list(family)
    alt = _plots.alt_text(fig)
    for name, res in family.items():
        low, high = res.ci()
        assert f"{name} {d3(res.exact_value)} (95% interval {d3(low)} to {d3(high)})" in alt


def test_family_chart_interval_follows_the_confidence():
    res = {"AC1": gwet_ac(SENTIMENT)}
    wide = interval_segments(plots.family_chart(res, confidence=0.99).axes[0])[0]
    assert list(wide[1:]) == pytest.approx(list(res["AC1"].ci(0.99)))
    assert wide[2] - wide[1] > np.subtract(*res["AC1"].ci(0.95)[::-1])


def test_family_chart_draws_bootstrap_intervals_from_family_intervals():
    rows = family_intervals(SENTIMENT, method="bootstrap", n_boot=200, seed=1)
    fig = plots.family_chart(rows)
    ax = fig.axes[0]
    drawn = interval_segments(ax)
    assert [y for _, low, high in drawn for y in (low, high)] == pytest.approx(
        [y for row in rows for y in (row.low, row.high)]
    )
    assert "bootstrap" in ax.get_xlabel() and "bootstrap confidence interval" in _plots.alt_text(fig)
    assert [d3(row.result.exact_value) for row in rows] == [
        t for t in texts(ax) if t[:1] in "-0123456789" and "." in t
    ]


def test_undefined_coefficient_is_shown_as_undefined_with_no_bar_not_zero():
    r = Ratings.from_rows([["a", "a"], ["a", "a"], ["a", "a"]], categories=["a", "b"])
    family = agreement_family(r)
    undefined = [name for name, res in family.items() if not res.defined]
    assert undefined  # every rating in one category: the kappas are 0/0
    ax = plots.family_chart(family).axes[0]
    bars = [
        p for p in ax.patches if type(p) is Rectangle and p.get_zorder() == 2
    ]  # a bar of height 0 counts too
    assert len(bars) == len(family) - len(undefined)
    assert "0.000" not in texts(ax)
    assert texts(ax).count("undefined") == len(undefined)
    assert len(interval_segments(ax)) == len(family) - len(undefined)


def test_chance_chart_shows_p_a_and_every_chance_agreement():
    family = agreement_family(MISSING)
    fig = plots.chance_chart(family)
    ax = fig.axes[0]
    expected = [family["percent agreement"].exact.p_a]
    for name, res in family.items():
        if name == "Krippendorff's alpha":
            expected.append(1 - res.exact.d_e)
        elif name != "percent agreement":
            expected.append(res.exact.p_e)
    heights = [b.get_height() for b in bar_patches(ax)]
    assert heights == pytest.approx([float(v) for v in expected])
    shown = texts(ax)
    assert [t for t in shown if not t.startswith(" ")] == [d3(v) for v in expected]
    assert float(expected[0]) in [line.get_ydata()[0] for line in ax.get_lines()]
    fleiss = family["Fleiss' kappa"]
    assert f"P_e of Fleiss' kappa {d3(fleiss.exact.p_e)}" in _plots.alt_text(fig)


def test_family_pictures_escape_labels_and_refuse_bad_input():
    mine = {"P_a": percent_agreement(SENTIMENT), "$x$ rater": gwet_ac(SENTIMENT)}
    for draw in (plots.family_chart, plots.chance_chart):
        labels = " ".join(t.get_text() for t in draw(mine).axes[0].get_xticklabels())
        assert "\\$x\\$" in labels
    with pytest.raises(AgreementError, match="family_chart"):
        plots.family_chart({"a": 0.5})
    with pytest.raises(AgreementError, match="empty"):
        plots.chance_chart({})
    with pytest.raises(AgreementError, match="confidence"):
        plots.family_chart(SENTIMENT, confidence=95)


def test_the_confusion_heatmaps_category_names_do_not_overlap_with_twenty_tags():
    """20 part-of-speech tags from 2 taggers: the names under the columns were slanted at 30 degrees and ran
    into each other (ADJ, ADP, ADV, AUX... one smudge)."""
    from iaa_teach import Ratings, diagnose
    from iaa_teach.plots import confusion_heatmap

    tags = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART"]
    tags += ["PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X", "NOUN2", "VERB2", "OTHER"]
    rows = [[tags[i % 20], tags[(i * 7) % 20] if i % 3 else tags[i % 20]] for i in range(200)]
    fig = confusion_heatmap(diagnose(Ratings.from_rows(rows, raters=["tagger1", "tagger2"])))
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert len(boxes) == 20
    overlapping = [(a, b) for a, b in zip(boxes, boxes[1:]) if a.x1 > b.x0 + 0.5 and a.overlaps(b)]
    assert overlapping == []
