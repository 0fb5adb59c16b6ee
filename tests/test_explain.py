"""iaa_teach.explain (module iaa_teach.worked): worked solutions for every result object.

The expected numbers come from the metrics (``result.exact``), never typed in,
except where ERRATA.md's answer key is the specification.
"""

import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rounding import d3  # noqa: E402

import iaa_teach
from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    interpret,
    krippendorff_alpha,
    pairwise_cohen,
)
from iaa_teach.worked import Explanation, Hidden, Step, chance_rule, explain, ratings_table

SENTIMENT = datasets.sentiment()
MISSING = datasets.sentiment_missing()
PARTIAL = datasets.partial_coverage()


def tex_frac(q):
    q = Fraction(q)
    sign = "-" if q < 0 else ""
    return f"{sign}\\frac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def all_results():
    return {
        "cohen": cohen_kappa(SENTIMENT, "A", "B"),
        "cohen_weighted": cohen_kappa(SENTIMENT, "A", "C", weights="linear"),
        "cohen_missing": cohen_kappa(MISSING, "B", "C"),
        "pairwise": pairwise_cohen(SENTIMENT),
        "fleiss": fleiss_kappa(SENTIMENT),
        "fleiss_missing_pooled": fleiss_kappa(MISSING, chance="pooled"),
        "fleiss_missing_item_mean": fleiss_kappa(MISSING, chance="item_mean"),
        "fleiss_partial": fleiss_kappa(PARTIAL),
        "alpha": krippendorff_alpha(SENTIMENT),
        "alpha_ordinal": krippendorff_alpha(SENTIMENT, "ordinal"),
        "alpha_missing": krippendorff_alpha(MISSING),
        "bootstrap": bootstrap_ci(krippendorff_alpha, SENTIMENT, n_boot=200, seed=3),
    }


RESULTS = all_results()


def braces_balance(tex):
    depth = 0
    i = 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\" and i + 1 < len(tex) and tex[i + 1] in "{}":
            i += 2
            continue
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
        i += 1
    return depth == 0


def math_blocks(markdown):
    return re.findall(r"\$\$(.*?)\$\$", markdown, flags=re.S)


def check_three_outputs(ex):
    """Every step in plain text (no LaTeX), Markdown (balanced maths) and HTML (no Markdown)."""
    assert isinstance(ex, Explanation)
    for step in ex.steps:
        assert isinstance(step, Step)
        assert step.title and step.markdown.strip() and step.text.strip() and step.html.strip()
        assert "$" not in step.text and "\\frac" not in step.text, "the plain text must not hold LaTeX"
        assert "**" not in step.html and "\n|" not in step.html, "the HTML must not hold Markdown"
    md = ex.markdown()
    for block in math_blocks(md):
        assert braces_balance(block), block
        assert block.count("\\begin{aligned}") == block.count("\\end{aligned}") == 1
    assert md.count("$$") % 2 == 0


@pytest.mark.parametrize("name", list(RESULTS))
def test_every_result_gives_steps_in_three_outputs(name):
    ex = explain(RESULTS[name])
    assert len(ex.steps) >= 2
    check_three_outputs(ex)
    md, txt = ex.markdown(), ex.text()
    assert "nan" not in txt.lower().replace("nan ", "")  # no raw float repr leaks
    assert "np.float64" not in md + txt


@pytest.mark.parametrize("name", list(RESULTS))
def test_display_is_markdown_plus_plain_text_and_deterministic(name):
    from IPython.core.formatters import DisplayFormatter

    fmt = DisplayFormatter()
    first, _ = fmt.format(explain(RESULTS[name]))
    again, _ = fmt.format(explain(all_results()[name]))
    assert set(first) == {"text/plain", "text/markdown"}
    assert first == again
    assert first["text/markdown"] == explain(RESULTS[name]).markdown()
    assert first["text/plain"] == explain(RESULTS[name]).text().rstrip("\n") == repr(explain(RESULTS[name]))


def test_cohen_steps_carry_the_answer_key():
    res = RESULTS["cohen"]
    ex = explain(res)
    assert [s.title for s in ex.steps] == [
        "Agreement table",
        "Observed agreement P_o",
        "Marginals",
        "Chance agreement P_e",
        "Cohen's kappa",
    ]
    assert ex["Observed"].exact == res.exact.p_o == Fraction(7, 10)
    assert ex["Chance"].exact == res.exact.p_e == Fraction(41, 100)
    assert ex["Cohen's kappa"].exact == res.exact.kappa == Fraction(29, 59)
    last = ex["Cohen's kappa"]
    assert tex_frac(res.exact.kappa) in last.markdown
    assert f"≈ {d3(res.exact.kappa)}" in last.text
    assert interpret(res.kappa) in last.text
    # the table's diagonal substituted into P_o
    diag = " + ".join(str(int(x)) for x in np.diag(res.table))
    assert f"({diag}) / {res.n_items}" in ex["Observed"].text
    # each marginal as count/N and its decimal
    for j, q in enumerate(res.exact.row_marginals):
        assert f"{int(res.table.sum(axis=1)[j])}/{res.n_items}" in ex["Marginals"].text
        assert d3(q) in ex["Marginals"].text


def test_weighted_cohen_shows_the_weights():
    res = RESULTS["cohen_weighted"]
    ex = explain(res)
    assert ex["Agreement weights"].text
    assert "linear" in ex.title
    assert ex["Cohen's kappa"].exact == res.exact.kappa
    assert d3(res.exact.kappa) in ex.text()


def test_cohen_with_missing_says_how_many_items_were_left_out():
    res = RESULTS["cohen_missing"]
    assert res.n_dropped > 0
    assert f"{res.n_dropped} left out" in explain(res).title


def test_pairwise_names_the_lowest_and_highest_pair():
    res = RESULTS["pairwise"]
    ex = explain(res)
    lo = res.pairs[int(np.argmin(res.kappas))]
    hi = res.pairs[int(np.argmax(res.kappas))]
    note = ex.steps[-1].text
    assert f"lowest: {lo[0]} vs {lo[1]} ({d3(res.exact.kappas[int(np.argmin(res.kappas))])})" in note
    assert f"Highest: {hi[0]} vs {hi[1]}" in note
    assert [s.title for s in ex.steps[:-1]] == [f"{a} vs {b}" for a, b in res.pairs]
    assert [s.exact for s in ex.steps[:-1]] == list(res.exact.kappas)


@pytest.mark.parametrize(
    "name", ["fleiss", "fleiss_missing_pooled", "fleiss_missing_item_mean", "fleiss_partial"]
)
def test_fleiss_names_its_chance_rule_and_reaches_the_exact_value(name):
    res = RESULTS[name]
    ex = explain(res)
    assert chance_rule(res) in ex.title
    assert chance_rule(res) in ex["Category proportions"].text
    assert ex["Fleiss' kappa"].exact == res.exact.kappa
    assert ex["Mean observed agreement"].exact == res.exact.p_a
    assert ex["Chance agreement"].exact == res.exact.p_e
    assert tex_frac(res.exact.kappa) in ex["Fleiss' kappa"].markdown
    # one P_i line per item with 2 or more ratings
    lines = [ln for ln in ex["Agreement on each item"].text.splitlines() if re.match(r"\s*P_\d+ =", ln)]
    assert len(lines) == int((res.raters_per_item >= 2).sum())


def test_fleiss_rounding_note_reproduces_the_texts_0_563():
    """ERRATA 1: rounding P_a and P_e first gives the text's 0.563 (computed here, not typed)."""
    res = RESULTS["fleiss"]
    pa, pe = Fraction(d3(res.exact.p_a)), Fraction(d3(res.exact.p_e))
    text_value = d3((pa - pe) / (1 - pe))
    assert text_value != d3(res.exact.kappa)
    assert f"gives {text_value} instead of {d3(res.exact.kappa)}" in explain(res).text()


def test_no_rounding_note_when_rounding_changes_nothing():
    res = RESULTS["cohen"]
    assert "Round only at the end" not in explain(res).text()


def test_partial_coverage_uses_per_item_k_and_all_labels():
    res = RESULTS["fleiss_partial"]
    ex = explain(res)
    assert "per-item n_i" in ex["Count table"].text
    assert f"all {PARTIAL.n_ratings} ratings" in ex.title
    assert f"{PARTIAL.n_ratings}²" in ex["Chance agreement"].text


@pytest.mark.parametrize("name", ["alpha", "alpha_ordinal", "alpha_missing"])
def test_alpha_steps_reach_the_exact_values(name):
    res = RESULTS[name]
    ex = explain(res)
    assert res.level in ex.title
    assert ex["Pairable values"].exact == res.exact.n
    assert ex["Observed disagreement"].exact == res.exact.d_o
    assert ex["Expected disagreement"].exact == res.exact.d_e
    assert ex["Krippendorff's alpha"].exact == res.exact.alpha
    assert f"n = {int(res.exact.n)}" in ex["Coincidence matrix"].text
    assert str(int(res.pair_counts.sum())) in ex["Ordered pairs"].text
    assert ("Distances" in ex.text()) == (res.level != "nominal")


def test_alpha_answer_key():
    """ERRATA 2 and 3, the corrected values."""
    assert explain(RESULTS["alpha"])["Krippendorff"].exact == Fraction(159, 275)
    assert explain(RESULTS["alpha_missing"])["Krippendorff"].exact == Fraction(127, 235)
    assert "55/87" in explain(RESULTS["alpha"]).text()


def test_bootstrap_explanation_shows_the_interval():
    res = RESULTS["bootstrap"]
    text = explain(res).text()
    assert f"[{d3(Fraction(res.low))}, {d3(Fraction(res.high))}]" in text
    assert f"{res.n_boot} times" in text


@pytest.mark.parametrize(
    "metric", [lambda r: cohen_kappa(r, 0, 1), pairwise_cohen, fleiss_kappa, krippendorff_alpha]
)
def test_undefined_results_say_why(metric):
    same = Ratings.from_rows([["x", "x", "x"]] * 4)
    res = metric(same)
    ex = explain(res)
    assert "undefined" in ex.steps[-1].text
    reason = getattr(res, "reason", None)
    if reason:
        assert reason in ex.steps[-1].text
    assert ex.steps[-1].exact is None


def test_labels_with_latex_and_markdown_specials_are_escaped():
    r = Ratings.from_rows(
        [["a_b", "x&y", "50%"], ["a_b", "a_b", "x&y"], ["50%", "50%", "50%"], ["x&y", "a_b", "x&y"]],
        categories=["50%", "a_b", "x&y"],
    )
    for res in (
        cohen_kappa(r, 0, 1),
        fleiss_kappa(r),
        krippendorff_alpha(r),
        krippendorff_alpha(r, "ordinal"),
    ):
        md = explain(res).markdown()
        for block in math_blocks(md):
            assert braces_balance(block)
            assert "a_b" not in block and "x&y" not in block.replace("&=", "")
        assert "a\\_b" in md


def test_item_names_of_a_long_table_are_escaped_in_the_latex():
    """A long table lists P_i by count row, naming a few of its items inside \\text{}: escaped there too."""
    r = datasets.simulate(n_items=40, n_raters=3, n_categories=3, seed=9)
    names = [f"i_{j}$}}{{" for j in range(40)]
    for res in (fleiss_kappa(r), iaa_teach.gwet_ac(r)):
        md = explain(res, items=names).markdown()
        assert "items i\\_0\\$\\}\\{" in md
        for block in math_blocks(md):
            assert braces_balance(block)


def test_user_text_is_escaped_in_every_output():
    """Rater and category names are text.

    HTML-escaped in HTML, Markdown-escaped in Markdown, \\text{} in LaTeX.
    """
    r = Ratings.from_rows(
        [["<b>", "a_b"], ["<b>", "<b>"], ["$5", "a_b"], ["a_b", "$5"]], raters=["R&D", "x*y"]
    )
    ex = explain(cohen_kappa(r, 0, 1))
    html_out, md = ex.html(), ex.markdown()
    assert '<th scope="row">&lt;b&gt;</th>' in html_out and '<th scope="col">&lt;b&gt;</th>' in html_out
    assert "<b></th>" not in html_out and "R&amp;D" in html_out and "R&D" not in html_out
    assert "<span>$</span>5" in html_out, "a dollar in a label must not open maths for MathJax"
    assert "\\<b\\>" in md and "x\\*y" in md and "\\$5" in md and "R&D" in md
    for block in math_blocks(md):
        assert "\\text{\\$5}" in block or "$5" not in block
        assert braces_balance(block)
    assert "R&D vs x*y" in ex.text() and "<b>" in ex.text()


def test_html_has_real_tables_and_maths_for_mathjax():
    ex = explain(RESULTS["fleiss"])
    out = ex.html()
    assert out.startswith('<div class="iaa-explanation">') and out.endswith("</div>")
    assert out.count("<h4>") == len(ex.steps)
    table = ex["Count table"].html
    assert table.count('<th scope="col">') == len(RESULTS["fleiss"].categories) + 2
    assert table.count('<th scope="row">') == RESULTS["fleiss"].counts.shape[0] + 1
    assert "$$\n\\begin{aligned}" in out and "&amp;=" in out, "equations left for MathJax, & escaped"
    assert "$P_i$" in out  # the symbols in prose and headings as inline maths
    assert d3(RESULTS["fleiss"].exact.kappa) in out
    printable = ex.html(math="text")
    assert "$" not in printable and "<pre>" in printable and "P<sub>a</sub>" in printable


def test_top_level_explain_is_the_function():
    res = cohen_kappa(SENTIMENT, "A", "B")
    ex = iaa_teach.explain(res)
    assert isinstance(ex, Explanation) and ex.text() == explain(res).text()
    assert iaa_teach.ratings_table(SENTIMENT).text() == ratings_table(SENTIMENT).text()
    assert iaa_teach.worked.explain is iaa_teach.explain


def test_brief_style_keeps_only_result_lines():
    res = RESULTS["fleiss"]
    full, brief = explain(res), explain(res, style="brief")
    assert len(brief.text()) < len(full.text()) / 2
    assert f"{d3(res.exact.kappa)}" in brief.text()
    assert all(s.markdown for s in brief.steps)


def test_bad_arguments():
    with pytest.raises(AgreementError, match="style must be one of 'full', 'brief'; got 'long'"):
        explain(RESULTS["cohen"], style="long")
    with pytest.raises(AgreementError, match="cohen_kappa"):
        explain(0.5)
    with pytest.raises(KeyError, match="no step"):
        explain(RESULTS["cohen"])["Nothing like this"]


def test_hidden_folds_the_solution():
    ex = explain(RESULTS["cohen"])
    h = ex.hidden("Show it")
    assert isinstance(h, Hidden)
    md = h._repr_markdown_()
    assert md.startswith("<details><summary>Show it</summary>") and md.rstrip().endswith("</details>")
    assert ex.markdown() in md
    assert ex.text().rstrip() in repr(h)


def test_ratings_table_marks_gaps_and_leaves_the_data_alone():
    before = MISSING.rows()
    t = ratings_table(MISSING)
    assert MISSING.rows() == before
    n_missing = int(MISSING.missing.sum())
    body = t.markdown().splitlines()[2:]
    assert sum(line.count("–") for line in body) == n_missing
    assert len(body) == MISSING.n_items
    assert t.text().splitlines()[0].split() == ["item", *MISSING.raters]


def test_large_tables_stay_short():  # its speed: benchmarks/bench_explain.py
    rng = np.random.default_rng(0)
    big = Ratings.from_rows(rng.integers(0, 4, size=(2000, 6)))
    res = fleiss_kappa(big)
    ex = explain(res)
    assert len(ex.text()) < 20_000  # items are grouped by pattern, not listed one by one
    assert ex["Fleiss' kappa"].exact == res.exact.kappa


def test_importing_explain_does_not_import_matplotlib():
    code = (
        "import sys, iaa_teach; from iaa_teach.worked import explain; assert 'matplotlib' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


table_strategy = st.integers(2, 5).flatmap(
    lambda n_raters: st.lists(
        st.lists(
            st.one_of(st.none(), st.sampled_from(["G", "N", "P", "X"])), min_size=n_raters, max_size=n_raters
        ),
        min_size=2,
        max_size=14,
    )
)


@settings(max_examples=60, deadline=None)
@given(table_strategy)
def test_random_tables_end_on_the_exact_value(rows):
    try:
        r = Ratings.from_rows(rows)
    except Exception:
        return
    for metric, attr in ((fleiss_kappa, "kappa"), (krippendorff_alpha, "alpha")):
        try:
            res = metric(r)
        except ValueError:  # no pairable item
            continue
        ex = explain(res)
        exact = getattr(res.exact, attr)
        assert ex.steps[-1].exact == exact
        if exact is not None:
            assert d3(exact) in ex.steps[-1].text
        for block in math_blocks(ex.markdown()):
            assert braces_balance(block)
    if r.n_raters >= 2:
        try:
            res = cohen_kappa(r, 0, 1)
        except ValueError:
            return
        assert explain(res).steps[-1].exact == res.exact.kappa


# ================================================================ the family
from iaa_teach import (  # noqa: E402
    brennan_prediger,
    conger_kappa,
    gwet_ac,
    percent_agreement,
    scott_pi,
)


def family_results():
    return {
        "percent": percent_agreement(MISSING),
        "bp": brennan_prediger(SENTIMENT),
        "bp_quadratic": brennan_prediger(MISSING, weights="quadratic"),
        "scott": scott_pi(MISSING, "A", "B"),
        "scott_linear": scott_pi(SENTIMENT, "A", "C", weights="linear"),
        "conger": conger_kappa(MISSING),
        "conger_linear": conger_kappa(PARTIAL, weights="linear"),
        "ac1": gwet_ac(MISSING),
        "ac2": gwet_ac(SENTIMENT, weights="quadratic"),
        "ac2_custom": gwet_ac(MISSING, weights=[[1, 0.5, 0], [0.5, 1, 0.25], [0, 0.25, 1]]),
        "fleiss_quadratic": fleiss_kappa(MISSING, weights="quadratic"),
        "fleiss_linear_item_mean": fleiss_kappa(PARTIAL, chance="item_mean", weights="linear"),
    }


FAMILY = family_results()


@pytest.mark.parametrize("name", list(FAMILY))
def test_family_results_explain_in_three_outputs(name):
    ex = explain(FAMILY[name])
    assert len(ex.steps) >= 5
    check_three_outputs(ex)
    assert ex.text().rstrip() == repr(ex)


@pytest.mark.parametrize("name", list(FAMILY))
def test_family_steps_reach_the_exact_values(name):
    res = FAMILY[name]
    ex = explain(res)
    assert ex["Mean observed agreement"].exact == res.exact.p_a
    assert (
        f"{tex_frac(res.exact.p_a)} \\approx {d3(res.exact.p_a)}" in ex["Mean observed agreement"].markdown
        or res.exact.p_a.denominator == 1
        or Fraction(d3(res.exact.p_a)) == res.exact.p_a
    )
    last_value = [s for s in ex.steps if s.symbol not in ("se", None)][-1]
    assert last_value.exact == res.exact_value
    assert d3(res.exact_value) in last_value.text
    if not isinstance(res, iaa_teach.PercentAgreementResult):
        assert ex["Chance agreement"].exact == res.exact.p_e
        assert d3(res.exact.p_e) in ex["Chance agreement"].text
    # one P_i line per item with 2 or more ratings, each ending on the item's exact P_i
    lines = [ln for ln in ex["Agreement on each item"].text.splitlines() if re.match(r"\s*P_\d+ =", ln)]
    assert len(lines) == int((np.asarray(res.raters_per_item) >= 2).sum())
    shown = [Fraction(ln.rsplit("= ", 1)[1].split(" ≈")[0]) for ln in lines]  # each item's P_i, as written
    assert sum(shown, Fraction(0)) / len(shown) == res.exact.p_a


@pytest.mark.parametrize("name", list(FAMILY))
def test_family_explains_its_standard_error_and_interval(name):
    res = FAMILY[name]
    step = explain(res)["Standard error and 95% interval"]
    low, high = res.ci()
    assert f"[{d3(Fraction(low))}, {d3(Fraction(high))}]" in step.text
    assert f"≈ {d3(Fraction(res.se))}" in step.text
    assert f"N - 1 = {res.df} degrees of freedom" in step.text
    assert ("capped at 1" in step.text) == (high == 1.0)
    assert step.value == res.se


# the course's symbol for the number of items is N (content/notation.toml); lower-case n is
# Krippendorff's pairable values, never items
_ITEMS_AS_N = re.compile(r"(?<![\w'_])n(\(n| - 1|/N| = \d+ (rated )?items| items)")


@pytest.mark.parametrize("name", list(FAMILY))
def test_standard_error_counts_the_items_with_the_courses_n(name):
    res = FAMILY[name]
    step = explain(res)["Standard error and 95% interval"]
    items = res.df + 1  # Gwet's t has one degree of freedom fewer than the rated items
    assert len(res.counts) == items  # every item of these tables has a rating
    for shown in (step.text, step._repr_markdown_()):
        assert not _ITEMS_AS_N.search(shown), shown
    assert f"N = {items} rated items" in step.text and "N(N - 1)" in step.text
    assert f"N - 1 = {res.df} degrees of freedom" in step.text
    assert f"$N - 1 = {res.df}$ degrees of freedom" in step._repr_markdown_()


def test_standard_error_says_n_prime_when_an_item_has_no_rating():
    """As the p_j step does: N' counts the rated items, N all of them."""
    rows = [["P", "P", "N"], ["N", "N", "N"], [None, None, None], ["P", None, None], ["G", "G", "P"]]
    res = gwet_ac(Ratings.from_rows(rows))
    text = explain(res)["Standard error and 95% interval"].text
    assert res.df == 3  # 4 rated items
    assert "N' = 4 rated items (N = 5 in all" in text and "N'(N' - 1)" in text
    assert "N' - 1 = 3 degrees of freedom" in text and not _ITEMS_AS_N.search(text)


def test_finite_population_correction_is_written_in_the_courses_symbols():
    res = gwet_ac(SENTIMENT, population=50)
    step = explain(res)["Standard error and 95% interval"]
    assert "(1 - N/N_pop) / (N(N - 1))" in step.text
    assert "population of N_pop = 50 items" in step.text and "multiplied by 1 - N/N_pop." in step.text
    assert "{" not in step.text and "N_pop))" not in step.text  # no LaTeX, no doubled brackets in the text
    assert r"\frac{1 - N/N_{\text{pop}}}{N(N - 1)}" in step._repr_markdown_()
    assert not _ITEMS_AS_N.search(step.text)


def test_each_chance_model_shows_its_own_formula_and_numbers():
    s = explain(FAMILY["bp"])["Chance agreement"].text
    assert "P_e = 1/q" in s and "q = 3" in s and "1/3 ≈ 0.333" in s
    scott = FAMILY["scott"]
    text = explain(scott)["Category proportions"].text
    for j, cat in enumerate(scott.categories):
        assert f"p_{cat} = " in text and text.count(d3(scott.exact.p_k[j])) >= 1
    assert "shared" in explain(scott).text() or "share" in explain(scott)["Category proportions"].text
    conger = FAMILY["conger"]
    ex = explain(conger)
    props = ex["Each rater's proportions"].text
    for row in conger.exact.rater_proportions:
        for p in row:
            assert f"{p.numerator}/{p.denominator}" in props or str(p) in props
    assert "P_e,AB" in ex["Chance agreement"].text and "(1/3)(" in ex["Chance agreement"].text
    ac1 = explain(FAMILY["ac1"])["Chance agreement"].text
    assert "Σ_j p_j (1 - p_j) / (q - 1)" in ac1 and "(1/2)(" in ac1
    ac2 = explain(FAMILY["ac2"])["Chance agreement"].text
    assert "Σ_jk w_jk / (q (q - 1))" in ac2
    assert "Agreement weights" in explain(FAMILY["ac2"]).text()


def test_percent_agreement_has_no_chance_model():
    ex = explain(FAMILY["percent"])
    assert "P_e = 0" in ex["Percent agreement"].text
    assert ex.steps[-1].title.startswith("Standard error")
    assert not any(s.title.startswith("Chance agreement") for s in ex.steps)


def test_family_explains_missing_ratings():
    for res in (FAMILY["ac1"], FAMILY["scott"], FAMILY["conger"]):
        text = explain(res)["Mean observed agreement"].text
        assert "items with no rating are left out" in text and "the chance term uses every rating" in text
        assert f"{res.n_items_used} with 2 or more ratings" in text and f"{res.n_ratings} ratings" in text
    assert "A rater with no rating at all is left out" in explain(FAMILY["conger"]).text()
    scott = explain(FAMILY["scott"])
    assert "Item(s) 3 have fewer than 2 ratings" in scott["Agreement on each item"].text


def test_weighted_fleiss_uses_its_weights():
    res = FAMILY["fleiss_quadratic"]
    ex = explain(res)
    assert "quadratic weights" in ex.title
    assert ex["Agreement on each item"].exact is None and "w_jk" in ex["Agreement on each item"].text
    assert ex["Chance agreement"].exact == res.exact.p_e
    p_i_lines = [ln for ln in ex["Agreement on each item"].text.splitlines() if re.match(r"\s*P_\d+ =", ln)]
    for line, p in zip(p_i_lines, [p for p in res.exact.p_i if p is not None]):
        assert line.rstrip().endswith(d3(p)) or line.rstrip().endswith(f"= {p}")


@pytest.mark.parametrize(
    "metric",
    [
        brennan_prediger,
        lambda r: scott_pi(r, 0, 1),
        conger_kappa,
        gwet_ac,
        lambda r: fleiss_kappa(r, weights="linear"),
    ],
)
def test_undefined_family_results_say_why(metric):
    same = Ratings.from_rows([["x", "x", "x"]] * 4, categories=["x"])
    res = metric(same)
    ex = explain(res)
    last = [s for s in ex.steps if s.symbol not in ("se", "P_e", None)][-1]
    assert "undefined" in last.text and last.exact is None
    assert res.reason in last.text
    assert not any(s.title.startswith("Standard error") for s in ex.steps)


def test_family_labels_are_escaped_in_html_and_markdown():
    r = Ratings.from_rows(
        [["<b>", "a_b", "$5"], ["<b>", "<b>", "a_b"], ["$5", "a_b", "$5"], ["a_b", "$5", "<b>"]],
        raters=["R&D", "x*y", "z|w"],
        categories=["<b>", "a_b", "$5"],
    )
    for res in (conger_kappa(r), gwet_ac(r, weights="ordinal"), scott_pi(r, 0, 1), brennan_prediger(r)):
        ex = explain(res)
        html_out, md = ex.html(), ex.markdown()
        assert "&lt;b&gt;" in html_out and "<b></th>" not in html_out and "<span>$</span>5" in html_out
        assert "\\<b\\>" in md and "a\\_b" in md and "\\$5" in md
        for block in math_blocks(md):
            assert braces_balance(block) and "a_b" not in block
    md = explain(conger_kappa(r)).markdown()
    assert "R&D" in md and "x\\*y" in md and "z\\|w" in md


def test_large_family_tables_stay_short():  # their speed: benchmarks/bench_explain.py
    rng = np.random.default_rng(0)
    big = Ratings.from_rows(rng.integers(0, 4, size=(2000, 6)))
    for res in (
        gwet_ac(big, weights="quadratic"),
        conger_kappa(big),
        scott_pi(big),
        fleiss_kappa(big, weights="linear"),
    ):
        ex = explain(res)
        text = ex.text()
        assert len(text) < 20_000  # items grouped by count row, not listed one by one
        assert ex["Mean observed agreement"].exact == res.exact.p_a


@settings(max_examples=40, deadline=None)
@given(table_strategy, st.sampled_from([None, "linear", "quadratic", "ordinal"]))
def test_random_family_tables_end_on_the_exact_value(rows, weights):
    try:
        r = Ratings.from_rows(rows, categories=["G", "N", "P", "X"])
    except Exception:
        return
    for metric in (
        brennan_prediger,
        conger_kappa,
        gwet_ac,
        lambda t, weights: fleiss_kappa(t, weights=weights),
    ):
        try:
            res = metric(r, weights=weights)
        except AgreementError:
            continue
        ex = explain(res)
        assert ex["Mean observed agreement"].exact == res.exact.p_a
        value = [s for s in ex.steps if s.symbol not in ("se", "P_e", None)][-1]
        assert value.exact == res.exact_value
        if res.exact.p_e is not None:
            assert ex["Chance agreement"].exact == res.exact.p_e
        for block in math_blocks(ex.markdown()):
            assert braces_balance(block)


def test_the_linearized_terms_write_the_item_beside_a_subscript_of_their_own():
    """Gwet's standard error names each item's linearized value as the notation table does: AC1's is
    AC_{1,i}^* (it was {AC_1}^*_i, an i under the 1 under AC), kappa's kappa^*_i."""
    from iaa_teach._markup import SYMBOLS

    r = datasets.sentiment()
    ac1 = explain(iaa_teach.gwet_ac(r)).markdown()
    assert "own value $" + SYMBOLS["AC1*_i"].tex + "$" in ac1
    assert SYMBOLS["AC1*_i"].tex == r"\mathrm{AC}_{1,i}^*"
    assert "own value $\\kappa^*_i$" in explain(iaa_teach.conger_kappa(r)).markdown()
    for res in iaa_teach.agreement_family(r).values():
        assert not re.search(r"_\{?\w+\}?\}\^\*_i", explain(res).markdown()), res.name
