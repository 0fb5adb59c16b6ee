"""The diagnostic report's words, pictures and files (issue 13, phase 2).

- ``explain(diagnose(...))``: the worked steps end on the report's own exact
  values, and those values match plain recomputations (alpha of the table
  without the rater, the item's pairs counted one by one, o_ck / e_ck);
  one check is shown to fail against a broken formula.
- ``_plots.cluster_order`` against average linkage written out here (ties as
  scipy settles them), shown to fail against a single-linkage order; the report's four
  figures: fixed size, planted behaviour visible, hostile names escaped.
- ``report``: a self-contained HTML page (no script, every image a data
  URI, tables with row and column headers, every name escaped); JSON with
  the same numbers, strict (no NaN), every null with a reason; the CLI's
  ``--html`` and ``--json``.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Mapping
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pytest
from figure_support import texts_outside, twelve_long_labels
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform
from test_diagnose import cases, pairable, plain_ordinal_delta

import iaa_teach
from iaa_teach import Ratings, _plots, _report, datasets, diagnose, explain, krippendorff_alpha, plots, report
from iaa_teach import _formulas as formulas
from iaa_teach.cli import main

EXAMPLES = 25
HOSTILE_RATERS = ["<script>alert(1)</script>", "$\\frac{$", "a_b^c & d", '"><img src=x onerror=alert(2)>']
HOSTILE_LABELS = ["$x$", "<b>bold</b>", "50% & more"]
HOSTILE_ITEMS = ["</td><script>alert(3)</script>", "$1$", "α & ω", "plain"]


@pytest.fixture(scope="module")
def class_report():
    return diagnose(datasets.class_annotations())


@pytest.fixture(scope="module")
def hostile_report():
    rows = [
        ["$x$", "$x$", "<b>bold</b>", "$x$"],
        ["<b>bold</b>", "<b>bold</b>", "50% & more", "<b>bold</b>"],
        ["50% & more", "$x$", "50% & more", "50% & more"],
        ["$x$", "$x$", "$x$", "<b>bold</b>"],
    ]
    r = Ratings.from_rows(rows, raters=HOSTILE_RATERS, categories=HOSTILE_LABELS, items=HOSTILE_ITEMS)
    return diagnose(r)


# =============================================================== explain
def steps_of(report):
    return {step.symbol: step for step in explain(report).steps}


def check_explanation(report) -> None:
    """Each step ends on the report's exact value, and that value is a plain recomputation."""
    r, steps = report.ratings, steps_of(report)
    assert steps["alpha"].exact == report.alpha.exact.alpha
    top = report.rater_ranking()[0]
    j = r.raters.index(top["rater"])
    others = [name for x, name in enumerate(r.raters) if x != j]
    if r.n_raters == 2:  # one rater left: no step for it (it was "Alpha without A: undefined")
        assert "alpha_without" not in steps
    elif sum((~r.subset(raters=others).missing).sum(axis=1) >= 2) == 0:
        assert steps["alpha_without"].exact is None
    else:
        plain = krippendorff_alpha(r.subset(raters=others), report.level).exact.alpha
        assert steps["alpha_without"].exact == plain == report.exact.alpha_without[j]
    item = report.item_ranking()[0]
    row = r.codes[list(r.items).index(item["item"])]
    values = [int(c) for c in row if c >= 0]
    delta = report.alpha.exact.delta
    if report.level == "ordinal":
        assert np.allclose(np.array(delta, dtype=float), plain_ordinal_delta(report.alpha.n_c))
    pairs = [(a, b) for x, a in enumerate(values) for y, b in enumerate(values) if x != y]
    plain_item = sum((Fraction(delta[a][b]) for a, b in pairs), Fraction(0)) / len(pairs)
    assert steps["D_i"].exact == plain_item == report.item_disagreement_exact(item["item"])
    assert float(plain_item) == pytest.approx(item["disagreement"], rel=1e-12, abs=1e-15)
    if len(report.confused_pairs()):
        pair = report.confused_pairs()[0]
        c, k = r.categories.index(pair["first"]), r.categories.index(pair["second"])
        counts = r.counts()
        m = counts.sum(axis=1)
        use = m >= 2  # o_ck by hand: each item's c-k pairs over (m - 1)
        o_ck = sum(
            (
                Fraction(int(a) * int(b), int(s) - 1)
                for a, b, s in zip(counts[use, c], counts[use, k], m[use])
            ),
            Fraction(0),
        )
        n_c, n = counts[use].sum(axis=0), int(m[use].sum())
        e_ck = Fraction(int(n_c[c]) * int(n_c[k]), n - 1)
        ratio = steps["ratio"].exact
        assert ratio == (None if e_ck == 0 else o_ck / e_ck)
        assert (ratio is None and math.isnan(pair["ratio"])) or float(ratio) == pytest.approx(
            pair["ratio"], rel=1e-12
        )


@settings(max_examples=EXAMPLES)
@given(case=cases(missing=True))
def test_the_worked_steps_are_the_reports_numbers_recomputed(case):
    r, level = case
    assume(pairable(r))
    check_explanation(diagnose(r, level))


def scaled(real, factor: Fraction):
    """``real`` with its result multiplied by ``factor`` (as a Fraction on exact numbers)."""

    def broken(*args):
        out = real(*args)
        return out * factor if np.asarray(out).dtype == object else out * float(factor)

    return broken


@pytest.mark.parametrize("formula", ["disagreement", "expected_coincidences"])
def test_the_check_fails_when_a_formula_is_broken(monkeypatch, formula):
    """A broken D (caught by the item's pairs) or e_ck (caught by o_ck / e_ck) fails the check."""
    report = diagnose(datasets.sentiment_missing())
    check_explanation(report)
    monkeypatch.setattr(formulas, formula, scaled(getattr(formulas, formula), Fraction(9, 10)))
    with pytest.raises(AssertionError):
        check_explanation(diagnose(datasets.sentiment_missing()))


def test_the_class_report_explained(class_report):
    ex = explain(class_report)
    assert [s.title for s in ex.steps] == [
        "Alpha of the whole table",
        "Alpha without S27",
        "Disagreement on item R35",
        "Confusion of neutral and mixed",
    ]
    text = ex.text()
    assert "D_i = (n_i² - Σ_j n_ij²) / (n_i(n_i - 1))" in text
    assert "= (28² - (8² + 10² + 8² + 2²)) / (28 × 27)" in text and "= 46/63 ≈ 0.730" in text
    assert "e_ck = n_c n_k / (n - 1)" in text and "= (239 × 187) / 1165" in text
    assert "≈ 0.609" in text and "rise = α' - α" in text
    brief = explain(class_report, style="brief")
    assert len(brief.text()) < len(text) and "46/63 ≈ 0.730" in brief.text()
    assert "$D_i = " not in ex.markdown() and "D_i" in ex.markdown()


def test_the_worked_steps_escape_names(hostile_report):
    page = explain(hostile_report).html()
    for name in HOSTILE_RATERS + HOSTILE_LABELS + HOSTILE_ITEMS:
        if any(ch in name for ch in "<>&"):
            assert name not in page, name
    assert "&lt;script&gt;" in page
    assert "<span>$</span>" in page  # a $ in a name cannot open MathJax maths


def test_the_fleiss_report_explained():
    ex = explain(diagnose(datasets.diagnoses()))
    assert [s.title for s in ex.steps][1:] == [
        "Alpha without rater1",
        "Disagreement on item 8",
        "Confusion of personality disorder and neurosis",
    ]


def test_two_raters_explained_without_a_leave_one_out_step():
    ex = explain(diagnose(datasets.sentiment().subset(raters=["A", "B"])))
    assert [s.title for s in ex.steps] == [
        "Alpha of the whole table",
        "Disagreement on item 5",
        "Confusion of N and P",
    ]
    assert "without" not in ex.text().lower().replace("without replacement", "")


# ================================================================ ordering
def upgma_order(d: np.ndarray) -> list[int]:
    """Average linkage written out (the reference; well defined without ties): merge the two closest
    clusters, the merged one's distance to each other the mean of its members'; read the leaves left
    to right, the earlier-made (or single) cluster of each merge first."""
    n = len(d)
    d = np.array(d, dtype=float)
    np.fill_diagonal(d, np.inf)
    size, label, children = np.ones(n), list(range(n)), {}
    for step in range(n - 1):
        a, b = divmod(int(np.argmin(d)), n)
        merged = (size[a] * d[a] + size[b] * d[b]) / (size[a] + size[b])
        d[a, :], d[:, a] = merged, merged
        d[b, :], d[:, b] = np.inf, np.inf
        d[a, a] = np.inf
        children[n + step] = sorted((label[a], label[b]))
        label[a], size[a] = n + step, size[a] + size[b]
    order, stack = [], [2 * n - 2]
    while stack:
        node = stack.pop()
        if node < n:
            order.append(node)
        else:
            stack += children[node][::-1]
    return order


def random_distances(draw, n: int, offset: float = 0.0) -> np.ndarray:
    values = draw(
        st.lists(st.integers(1, 10**6), min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2, unique=True)
    )
    d = np.zeros((n, n))
    d[np.triu_indices(n, 1)] = np.array(values) / 1e4 + offset
    return d + d.T


@st.composite
def distances(draw):
    return random_distances(draw, draw(st.integers(3, 14)), draw(st.sampled_from([0.0, -150.0])))


def check_order(order_fn, d: np.ndarray) -> None:
    assert order_fn(d).tolist() == upgma_order(d)


@settings(max_examples=60)
@given(d=distances())
def test_cluster_order_is_average_linkage(d):
    check_order(_plots.cluster_order, d)  # negative distances too (scipy refuses them)


@settings(max_examples=30)
@given(d=distances(), seed=st.integers(0, 2**32 - 1))
def test_cluster_order_reads_a_lopsided_matrix_as_its_mean_with_its_transpose(d, seed):
    noise = np.random.default_rng(seed).normal(size=d.shape) * 1e-3
    lopsided = d + noise - noise.T + np.diag(np.abs(noise).sum(axis=1))  # a diagonal, which is ignored
    assert _plots.cluster_order(lopsided).tolist() == upgma_order((lopsided + lopsided.T) / 2)


def single_linkage_order(d: np.ndarray) -> np.ndarray:  # the check must catch another linkage
    return np.array(leaves_list(linkage(squareform(d, checks=False), method="single")))


def test_the_order_check_fails_for_another_linkage():
    d = np.array(
        [[0, 5, 7, 3, 8], [5, 0, 4, 6, 10], [7, 4, 0, 1, 9], [3, 6, 1, 0, 2], [8, 10, 9, 2, 0]], dtype=float
    )
    with pytest.raises(AssertionError):
        check_order(single_linkage_order, d)
    with pytest.raises(AssertionError):
        check_order(lambda x: np.arange(len(x)), d)
    check_order(_plots.cluster_order, d)


def test_equal_distances_are_settled_as_scipy_settles_them():
    # raters 0 and 1 share no item (kappa undefined: distance 2), every other pair has kappa 0 (distance 1):
    # five equal distances, settled by scipy's rule (a hand-written loop took the first pair in row order)
    d = np.ones((4, 4)) - np.eye(4)
    d[0, 1] = d[1, 0] = 2.0
    assert _plots.cluster_order(d).tolist() == leaves_list(linkage(squareform(d), method="average")).tolist()
    assert _plots.cluster_order(d).tolist() == [0, 2, 1, 3]


def test_cluster_order_small_and_bad():
    assert _plots.cluster_order(np.zeros((2, 2))).tolist() == [0, 1]
    assert _plots.cluster_order(np.zeros((1, 1))).tolist() == [0]
    for bad in ([[0, np.nan], [np.nan, 0]], "x", 3, [[0, 1], [1]], []):
        with pytest.raises(iaa_teach.AgreementError, match="distance must be a finite square matrix"):
            _plots.cluster_order(bad)


# ================================================================ figures
FIGURES = ("rater_agreement_heatmap", "item_disagreement_chart", "confusion_heatmap", "leave_one_out_bars")


def texts(fig) -> list[str]:
    out = []
    for ax in fig.axes:
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels() + ax.texts]
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
    for legend in fig.legends:
        out += [t.get_text() for t in legend.get_texts()]
    return out


def png(fig) -> bytes:
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_every_text_of_the_report_figures_lies_inside_them(level):
    """The report's full-size figures of 12 categories named by 30 characters keep every title, label,
    number and legend entry inside the figure (the disputed items' legend, 5 columns of names cut to 20
    characters, ran from x = -3 to 745 px of 720); the legend names every category, none cut to nothing."""
    report = diagnose(twelve_long_labels(), level)
    for name in _report.figure_names(report):
        fig = _report.draw(report, name)
        assert texts_outside(fig) == [], name
    legend = _report.draw(report, "items").legends[0]
    shown = [text.get_text() for text in legend.get_texts()]
    assert len(set(shown)) == len(shown) == 12 and all(len(label) >= 20 for label in shown)


def test_figures_show_the_planted_behaviour(class_report):
    plan = datasets.class_annotations_planted()
    heat = plots.rater_agreement_heatmap(class_report)
    ticks = [t.get_text() for t in heat.axes[0].get_yticklabels()]
    assert abs(ticks.index(plan.copier) - ticks.index(plan.copied)) == 1  # the copier sits by the copied
    red = [t.get_text() for t in heat.axes[0].get_yticklabels() if t.get_fontweight() == "bold"]
    assert plan.random_rater in red

    bars = plots.leave_one_out_bars(class_report)
    ax = bars.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == list(class_report.rater_ranking()["rater"])

    items = plots.item_disagreement_chart(class_report, top=5)
    names = [t.get_text() for t in items.axes[1].get_yticklabels()]
    assert names == list(class_report.item_ranking()["item"][:5]) and set(names) == set(plan.ambiguous)

    confusion = plots.confusion_heatmap(class_report)
    outlined = {
        (round(p.get_x() + 0.47), round(p.get_y() + 0.47))
        for p in confusion.axes[0].patches
        if p.get_edgecolor()[:3] != (0, 0, 0) and not p.get_fill()
    }
    cats = class_report.ratings.categories
    c, k = cats.index("neutral"), cats.index("mixed")
    assert outlined == {(c, k), (k, c)}  # only the pair above chance
    assert any("o/e = 1.40" in t for t in texts(confusion))


@pytest.mark.parametrize("name", FIGURES)
def test_figures_have_a_fixed_size_and_escape_names(name, hostile_report):
    fig = getattr(plots, name)(hostile_report)
    assert tuple(fig.get_size_inches()) == _plots.REPORT_FIGSIZE
    assert png(fig)[:8] == b"\x89PNG\r\n\x1a\n"  # drawn: mathtext would fail on an unescaped "$\frac{$"
    shown = " ".join(texts(fig))
    assert "$x$" not in shown.replace(r"\$x\$", "")
    if name in ("rater_agreement_heatmap", "leave_one_out_bars"):
        assert r"\$\frac{\$" in shown


def test_figures_refuse_other_objects():
    alpha = krippendorff_alpha(datasets.sentiment())
    for name in FIGURES:
        with pytest.raises(iaa_teach.AgreementError, match="takes the Diagnosis of iaa_teach.diagnose"):
            getattr(plots, name)(alpha)
    for function in (
        report.to_html,
        report.to_data,
        report.to_json,
        _report.summary_html,
        _report.sections_html,
        _report.figure_texts,
        _report.figure_names,
    ):
        with pytest.raises(iaa_teach.AgreementError, match="takes the Diagnosis"):
            function(alpha)
    with pytest.raises(iaa_teach.AgreementError, match="top must be between 1 and 30, got 0"):
        plots.item_disagreement_chart(diagnose(datasets.sentiment()), top=0)
    with pytest.raises(iaa_teach.AgreementError, match="top must be a whole number, got 2.5"):
        plots.item_disagreement_chart(diagnose(datasets.sentiment()), top=2.5)
    for name, option, value in (
        ("rater_agreement_heatmap", "marked", -1),
        ("confusion_heatmap", "marked", "x"),
        ("leave_one_out_bars", "max_raters", 0),
    ):
        with pytest.raises(iaa_teach.AgreementError, match=f"{option} must be"):
            getattr(plots, name)(diagnose(datasets.sentiment()), **{option: value})
    with pytest.raises(iaa_teach.AgreementError, match="name must be one of 'leave_one_out'"):
        report.draw(diagnose(datasets.sentiment()), "bogus")
    for option, value in (("top", "5"), ("max_raters", -2), ("dpi", 0), ("warning", 3)):
        with pytest.raises(iaa_teach.AgreementError, match=f"{option} must be"):
            report.to_html(diagnose(datasets.sentiment()), **{option: value})


def test_figures_of_a_larger_table():
    r = datasets.simulate(2_000, 6, accuracy=0.7, n_categories=4, seed=2, missing=0.2)  # > 200 items: a line
    report = diagnose(r)
    for name in FIGURES:
        assert png(getattr(plots, name)(report))


# ==================================================================== HTML
class Page(HTMLParser):
    """Tags and attributes of an HTML page, and its text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def all(self, tag: str) -> list[dict]:
        return [attrs for t, attrs in self.tags if t == tag]


def check_self_contained(page_text: str) -> Page:
    page = Page(page_text)
    assert not page.all("script") and not page.all("link") and not page.all("iframe")
    assert not re.search(r"@import|url\(|https?://", page_text.replace("http-equiv", ""))
    for img in page.all("img"):
        assert img["src"].startswith("data:image/png;base64,") and img["alt"].strip()
        assert base64.b64decode(img["src"].split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert any(
        m.get("http-equiv") == "Content-Security-Policy" and "default-src 'none'" in m["content"]
        for m in page.all("meta")
    )
    for event in ("onerror", "onload", "onclick"):
        assert not any(event in attrs for _, attrs in page.tags)
    return page


def test_the_html_report_is_self_contained(class_report):
    text = report.to_html(class_report, source="data/class.csv")
    page = check_self_contained(text)
    assert len(page.all("img")) == 6  # 4 of the diagnosis, 2 of the family
    assert page.all("th") and all(th.get("scope") in ("col", "row") for th in page.all("th"))
    assert {th["scope"] for th in page.all("th")} == {"col", "row"}
    words = re.sub(r"\s+", " ", "".join(page.text))
    assert "class.csv" in words and "data/" not in words
    assert "Least in step: S27" in words and "neutral and mixed" in words
    assert "46/63 ≈ 0.730" in words  # the worked steps
    assert "<h2>" in text and text.count("<table") >= 5


def test_the_html_report_escapes_every_name(hostile_report):
    text = report.to_html(
        hostile_report, source="<img src=x onerror=alert(9)>.csv", warning="<b>careful</b>", dpi=30
    )
    page = check_self_contained(text)
    assert len(page.all("img")) == 6
    words = "".join(page.text)
    for name in HOSTILE_RATERS + HOSTILE_LABELS + HOSTILE_ITEMS + ["<b>careful</b>"]:
        if any(ch in name for ch in "<>&"):
            assert name not in text, name  # never as markup
        assert name in words or name.startswith("$\\") or name in text, name  # shown as text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&lt;b&gt;careful&lt;/b&gt;" in text
    assert "<img src=x" not in text


def test_the_cross_table_is_headed_by_the_labels_and_names_the_raters_in_its_corner():
    """Rows and columns are headed by the label alone (a rater's name with each made the table far wider
    than a projector's page); the corner names the two raters once, which is rows and which columns,
    escaped, a long name free to break after each underscore."""
    rows = [["a", "a"], ["a", "b_c"], ["b_c", "b_c"], ["b_c", "a"], ["a", "a"]]
    r = Ratings.from_rows(rows, raters=["<b>x_y</b>", "annotator_maria_01"], categories=["a", "b_c"])
    html = _report.pairs_html(diagnose(r))
    table = html[html.index("<caption>&lt;b&gt;x_y&lt;/b&gt;'s labels against annotator_maria_01's") :]
    table = table[: table.index("</table>")]
    head = re.findall(r'<th scope="col">(.*?)</th>', table)
    assert head == [
        "&lt;b&gt;x_<wbr>y&lt;/b&gt; (rows) \\ annotator_<wbr>maria_<wbr>01 (columns)",
        "a",
        "b_c",
        "total",
    ]
    body = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]]
    assert body == [["a", "2", "1", "3"], ["b_c", "1", "1", "2"], ["total", "3", "2", "5"]]
    assert "<b>x" not in html


@pytest.mark.parametrize("name", ["total", "Total"])
def test_a_category_called_total_is_not_taken_for_the_totals(name):
    """The margins of every cross-table are called "total" unless a category is (any letter case): then
    "sum", in the report's HTML, the explorer's view, and explain's text, Markdown and HTML."""
    from iaa_teach.widgets import AnnotationsExplorer
    from iaa_teach.worked import matrix_table

    rows = [[name, name], [name, "part"], ["part", "part"], ["part", name], [name, name]]
    r = Ratings.from_rows(rows, raters=["A", "B"], categories=[name, "part"])
    shown = {
        "report": _report.pairs_html(diagnose(r)),
        "explorer": AnnotationsExplorer(ratings=r).view_html("pairs of raters"),
    }
    for where, html in shown.items():
        table = html[html.index("<caption>A's labels against B's") :]
        table = table[: table.index("</table>")]
        head = re.findall(r'<th scope="col">(.*?)</th>', table)[1:]
        body = [
            re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]
        ]
        assert head == [name, "part", "sum"], where
        assert body == [[name, "2", "1", "3"], ["part", "1", "1", "2"], ["sum", "3", "2", "5"]], where
    worked = explain(iaa_teach.cohen_kappa(r, "A", "B"))
    text, markdown, page = worked.text(), worked.markdown(), worked.html()
    assert re.search(rf"A \\ B +{name} +part +sum\n +{name} +2 +1 +3\n", text)
    assert re.search(r"\n +sum +3 +2 +5\n", text)
    assert re.search(r"\|\s*\*\*sum\*\*\s*\|\s*3\s*\|\s*2\s*\|\s*5\s*\|", markdown)
    assert page.count(f">{name}</th>") == page.count(">sum</th>") == 2  # a column and a row each
    assert matrix_table([[1, 2], [3, 4]], [name, "part"]).text().splitlines()[-1].split() == [
        "sum",
        "4",
        "6",
        "10",
    ]
    # and "total" where no category is called so (nor "sum", where one is "sum")
    assert matrix_table([[1]], ["sum"]).text().splitlines()[-1].split() == ["total", "1", "1"]


def test_the_html_report_for_two_raters_and_one_category():
    two = report.to_html(diagnose(datasets.sentiment().subset(raters=["A", "C"])), dpi=30)
    page = check_self_contained(two)
    assert len(page.all("img")) == 4  # the family's 2; no rater heatmap for one pair, no leave-one-out bars
    assert "With 2 raters there is no ranking of raters" in two
    one = Ratings.from_rows([["x", "x"], ["x", "x"], ["x", None]])
    page = check_self_contained(report.to_html(diagnose(one), dpi=30))
    assert "is undefined" in "".join(page.text)


def test_each_section_on_its_own_is_the_sections_part(hostile_report):
    """section_html(name) is the <section id=name> of sections_html, the same text: the notebook
    explorer shows one without cutting the page's HTML by its tags."""
    two = diagnose(datasets.sentiment().subset(raters=["A", "C"]))
    for rep in (hostile_report, two):
        sure = rep.rater_intervals(n_boot=50)
        every = _report.sections_html(rep, top=3, max_raters=2, sure=sure)
        parts = [_report.section_html(rep, name, top=3, max_raters=2, sure=sure) for name in _report.SECTIONS]
        assert "\n".join(parts) == every
        for name, part in zip(_report.SECTIONS, parts):
            assert part.startswith(f'<section id="{name}">') and part.endswith("</section>")
            assert part.count("<section") == 1
    with pytest.raises(iaa_teach.AgreementError, match="name must be one of 'raters', 'items', 'categories'"):
        _report.section_html(two, "pairs")
    with pytest.raises(iaa_teach.AgreementError, match="takes the Diagnosis"):
        _report.section_html(two.alpha, "items")


def test_the_html_report_says_once_how_the_table_was_read(tmp_path):
    """One summary of the table at the top: for a file, the "Read ... as ..." line (what was assumed,
    and how to say otherwise) with the level; for a table made in Python, what the table is."""
    from iaa_teach.diagnosis import compare_with_gold

    path = tmp_path / "t.csv"
    path.write_text("item,A,B,C\n" + "".join(f"{i},x,{'xy'[i % 2]},y\n" for i in range(1, 9)))
    r = Ratings.from_csv(path)
    page = report.to_html(diagnose(r), source="t.csv", dpi=30)
    top = page[page.index("<h1>") : page.index('<section class="summary"')]
    metas = re.findall(r'<p class="meta">(.*?)</p>', top)
    assert len(metas) == 1 and "&times;" not in top
    assert metas[0].startswith('Read t.csv as wide: 8 items (IDs from column "item") x 3 raters')
    assert metas[0].endswith("Level of measurement: nominal.")
    assert '<p class="note">note: the first column, "item", read as the item IDs' in top
    gold = compare_with_gold(r, "C")
    page = report.to_html(diagnose(gold.annotators), source="t.csv", dpi=30, gold=gold)
    top = page[page.index("<h1>") : page.index('<section class="summary"')]
    assert len(re.findall('<p class="meta">Read t.csv', top)) == 1 and top.count('class="meta"') == 1
    assert "column C holds the gold labels: it is left out, and the agreement below is among" in top
    made = report.to_html(diagnose(datasets.sentiment()), dpi=30)  # not read from a file
    top = made[made.index("<h1>") : made.index('<section class="summary"')]
    assert re.findall(r'<p class="meta">(.*?)</p>', top) == [
        "10 items &times; 3 raters; 3 categories (G, N, P); 30 ratings, 0 missing. Level of measurement: nominal."
    ]


# ==================================================================== JSON
def test_json_round_trip_has_the_same_numbers(class_report):
    text = report.to_json(class_report)
    data = json.loads(text)
    assert data == json.loads(json.dumps(report.to_data(class_report)))
    assert data["format"] == _report.FORMAT and data["version"] == _report.FORMAT_VERSION
    assert Fraction(data["alpha"]["exact"]) == class_report.alpha.exact.alpha
    assert data["alpha"]["value"] == class_report.alpha.alpha
    assert [row["rater"] for row in data["raters"]] == list(class_report.rater_ranking()["rater"])
    for row, record in zip(class_report.rater_ranking(), data["raters"]):
        assert record["rise"] == row["rise"] and record["mean_kappa"] == row["mean_kappa"]
        j = class_report.ratings.raters.index(row["rater"])
        assert Fraction(record["alpha_without_exact"]) == class_report.exact.alpha_without[j]
    assert len(data["items"]) == class_report.ratings.n_items
    for row, record in zip(class_report.item_ranking(), data["items"]):
        assert record["item"] == row["item"] and record["disagreement"] == row["disagreement"]
        assert record["label_counts"] == {str(k): v for k, v in row["label_counts"].items()}
    assert data["confused_pairs"][0]["first"] == "neutral" and data["categories"][0]["category"] == "positive"


def forbid(constant):
    raise AssertionError(f"{constant} in strict JSON")


def test_json_is_strict_and_every_null_has_a_reason():
    rows = [["x", "y", None], ["x", None, None], ["x", "x", "x"], [None, None, "x"]]
    r = Ratings.from_rows(
        rows, raters=["A", "B", "C"], categories=["x", "y", "z"]
    )  # z unused, C alone mostly
    data = json.loads(report.to_json(diagnose(r)), parse_constant=forbid)
    nulls = 0
    for table in ("raters", "items", "confused_pairs", "categories"):
        for record in data[table]:
            numbers = {k: v for k, v in record.items() if k not in ("reason", "overused")}
            if any(v is None for v in numbers.values()):
                nulls += 1
                assert record["reason"], (table, record)
    assert nulls >= 3
    single = [rec for rec in data["items"] if rec["disagreement"] is None]
    assert single and all("fewer than 2 ratings" in rec["reason"] for rec in single)
    with pytest.raises(ValueError):
        json.dumps({"x": math.nan}, allow_nan=False)  # what to_json relies on


# ===================================================================== CLI
def write_csv(path, ratings: Ratings) -> str:
    lines = [",".join(["item", *map(str, ratings.raters)])]
    lines += [
        ",".join([str(item), *("" if v is None else str(v) for v in row)])
        for item, row in zip(ratings.items, ratings.rows())
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_cli_writes_html_and_json_and_prints_the_same_text(tmp_path, capsys):
    path = write_csv(tmp_path / "class.csv", datasets.class_annotations(n_students=5, n_reviews=12))
    assert main(["report", path]) == 0
    plain = capsys.readouterr().out
    out_html, out_json = tmp_path / "out.html", tmp_path / "out.json"
    assert main(["report", path, "--html", str(out_html), "--json", str(out_json)]) == 0
    captured = capsys.readouterr()
    assert captured.out == plain and captured.err == ""
    check_self_contained(out_html.read_text(encoding="utf-8"))
    data = json.loads(out_json.read_text(encoding="utf-8"))
    report = diagnose(Ratings.from_csv(path))
    assert Fraction(data["alpha"]["exact"]) == report.alpha.exact.alpha
    assert "class.csv" in out_html.read_text(encoding="utf-8")


def test_cli_report_level_and_errors(tmp_path, capsys):
    path = write_csv(tmp_path / "s.csv", datasets.sentiment())
    out_json = tmp_path / "o.json"
    assert (
        main(["report", path, "--level", "ordinal", "--categories", "G,N,P", "--json", str(out_json)]) == 0
    )  # no figures
    assert json.loads(out_json.read_text())["level"] == "ordinal"
    capsys.readouterr()
    assert main(["report", path, "--html", str(tmp_path / "missing" / "x.html")]) == 2
    assert "cannot write" in capsys.readouterr().err
    one = tmp_path / "one.csv"
    one.write_text("A,B\nx,\n,y\n")
    assert main(["report", str(one), "--json", str(out_json)]) == 2
    assert "2 or more ratings" in capsys.readouterr().err


def test_the_report_module_is_public():
    from iaa_teach import _report

    assert "write_files" in iaa_teach.report.__all__
    assert iaa_teach.report.write_files is _report.write_files


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("words", "worked"),
        ("report_files", "report"),
        ("formulas", "_formulas"),
        ("family", "_family"),
        ("validation", "_validation"),
        ("reading", "_reading"),
        ("widgets.quiz", "widgets._quiz"),
        ("widgets.table", "widgets._table"),
    ],
)
def test_old_module_paths_still_import_with_a_deprecation_warning(old, new):
    """Lecturers' adapted notebooks import the old paths: they work for one release, with a warning."""
    import importlib
    import sys

    sys.modules.pop(f"iaa_teach.{old}", None)
    with pytest.warns(DeprecationWarning, match=f"iaa_teach.{old} is now iaa_teach.{new}"):
        module = importlib.import_module(f"iaa_teach.{old}")
    assert module is importlib.import_module(f"iaa_teach.{new}")  # every name, not only __all__


def row_by_row(table) -> list[dict]:
    """ReportTable.as_records written the slow, obvious way."""

    def plain(v):
        if isinstance(v, np.generic):
            v = v.item()
        if isinstance(v, float) and math.isnan(v):
            return None
        if isinstance(v, tuple):
            return [plain(x) for x in v]
        if isinstance(v, Mapping):
            return {plain(k): plain(x) for k, x in v.items()}
        return v

    return [{name: plain(value) for name, value in row.items()} for row in table]


def test_records_column_by_column_are_the_rows():
    rows = [["x", "y", None], ["x", None, None], ["x", "x", "x"], [None, None, "x"]]
    report = diagnose(Ratings.from_rows(rows, raters=["A", "B", "C"], categories=["x", "y", "z"]))
    for table in (
        report.rater_ranking(),
        report.item_ranking(),
        report.confused_pairs(),
        report.category_agreement(),
        report.item_ranking()[:0],
    ):
        assert table.as_records() == row_by_row(table)
    assert any(None in record.values() for record in report.item_ranking().as_records())
