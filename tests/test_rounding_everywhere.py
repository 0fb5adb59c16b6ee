"""One rounding rule everywhere: half up, from the exact value.

The tie table (raters A and B over seven items) has Cohen's kappa exactly
9/16 = 0.5625. A student writes 0.563; Python's float formatting rounds half
to even on the binary value and prints 0.562. Every place that shows the
coefficient must show 0.563: explain (text, Markdown, HTML), the CLI report,
a plot's labels, a widget readout, the exercises and the quiz, and the
result's own format spec. The expected strings come from ``decimal`` with
ROUND_HALF_UP (tests/rounding.py), not from the package.
"""

from __future__ import annotations

import decimal
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from rounding import d3  # noqa: E402

from iaa_teach import Ratings, cohen_kappa, explain, fmt, pairwise_cohen, plots  # noqa: E402
from iaa_teach._validation import AgreementError  # noqa: E402
from iaa_teach.exercises import make_question  # noqa: E402
from iaa_teach.exercises._answers import show_value
from iaa_teach.report import text_report as report  # noqa: E402
from iaa_teach.rounding import format_number, round_half_up  # noqa: E402
from iaa_teach.widgets import Quiz, TableExplorer  # noqa: E402

TIE = Ratings.from_rows([[1, 2], [2, 2], [0, 0], [1, 1], [2, 2], [2, 0], [0, 0]], raters=["A", "B"])
NINE_16 = Fraction(9, 16)
HALF_UP = d3(NINE_16)
#: An exercise whose part (a) is exactly 9/16: Fleiss' P_a of question fleiss-10.
EXERCISE = ("fleiss", 10, "a")


def tie() -> object:
    return cohen_kappa(TIE, "A", "B")


def figure_texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text)]


def test_the_table_is_a_tie_that_float_formatting_gets_wrong():
    res = tie()
    assert res.exact.kappa == NINE_16 and HALF_UP == "0.563"
    assert f"{res.kappa:.3f}" == "0.562"  # the trap the package must avoid


def test_format_spec_of_a_result():
    res = tie()
    assert format(res, ".3f") == f"{res:.3f}" == HALF_UP
    assert fmt(res.exact.kappa) == HALF_UP and show_value(NINE_16) == f"9/16 ≈ {HALF_UP}"


@pytest.mark.parametrize(
    "form, shown",
    [
        ("text", f"9/16 ≈ {HALF_UP}"),
        ("markdown", rf"\frac{{9}}{{16}} \approx {HALF_UP}"),
        ("html", rf"\frac{{9}}{{16}} \approx {HALF_UP}"),
    ],
)
def test_explain_in_every_output(form, shown):
    ex = explain(tie())
    out = ex.render(form)
    assert shown in out
    assert f"= {HALF_UP} is" in out  # the Landis-Koch note
    assert out == {"text": ex.text(), "markdown": ex.markdown(), "html": ex.html()}[form]


def test_cli_report():
    line = next(ln for ln in report(TIE).splitlines() if ln.strip().startswith("A vs B"))
    assert line.split()[3] == HALF_UP
    light = next(ln for ln in report(TIE).splitlines() if "Light" in ln)
    assert HALF_UP in light.split()


def test_plot_labels():
    title = figure_texts(plots.agreement_heatmap(tie()))
    assert any(f"κ = {HALF_UP}" in t for t in title)
    bars = figure_texts(plots.pairwise_bars(pairwise_cohen(TIE)))
    assert HALF_UP in bars
    assert HALF_UP in figure_texts(plots.coefficients_with_bands({"kappa": tie(), "as a number": 0.5625}))
    assert figure_texts(plots.coefficients_with_bands({"kappa": tie()})).count(HALF_UP) == 1


def test_widget_readout():
    values = TableExplorer(TIE).values()
    assert values["Cohen A-B kappa"] == HALF_UP


def test_exercise_feedback_and_solution():
    kind, seed, label = EXERCISE
    q = make_question(kind, seed)
    assert q.answers()[label] == NINE_16
    assert f"9/16 ≈ {HALF_UP}" in q.check(label, "9/16").message
    assert q.check(label, HALF_UP).correct and not q.check(label, "0.561").correct
    sol = q.solution()
    assert f"({label}) P_a = 9/16 ≈ {HALF_UP}" in sol.text()
    assert rf"P_a = \frac{{9}}{{16}} \approx {HALF_UP}" in sol.markdown()
    assert f"P<sub>a</sub> = 9/16 ≈ {HALF_UP}" in sol.html(math="text")


def test_quiz_feedback_and_solution():
    kind, seed, label = EXERCISE
    quiz = Quiz(kind, seed=seed)
    quiz.answers[label].value = "9/16"
    quiz.check_button.click()
    assert f"9/16 ≈ {HALF_UP}" in quiz.feedback[label].value
    quiz.solution_button.click()
    assert rf"\frac{{9}}{{16}} \approx {HALF_UP}" in quiz.solution_html.value


# ================================================ the rule, on any fraction
def half_up(q: Fraction, places: int) -> str:
    """``q`` to ``places`` decimals by ``decimal``'s ROUND_HALF_UP; no minus sign on a zero."""
    with decimal.localcontext() as ctx:
        ctx.prec = 300
        d = (decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)).quantize(
            decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_UP
        )
    return str(abs(d) if d == 0 else d)


fractions = st.fractions(max_denominator=10**6).filter(lambda q: abs(q) < 10**9)
# (q, places) with q exactly halfway between two numbers of ``places`` decimals
ties = st.builds(
    lambda k, places: (Fraction(2 * k + 1, 2 * 10**places), places),
    st.integers(-(10**6), 10**6),
    st.integers(0, 5),
)


@given(st.tuples(fractions, st.integers(0, 6)) | ties)
def test_fmt_is_round_half_up_on_random_fractions(q_and_places):
    q, places = q_and_places
    assert fmt(q, places) == half_up(q, places)


@given(ties)
def test_ties_round_away_from_zero(tie_and_places):
    q, places = tie_and_places
    assert fmt(q, places) == half_up(q, places)
    assert fmt(-q, places) == half_up(-q, places) == ("" if q < 0 else "-") + half_up(abs(q), places)


# exactly representable binary fractions, never a decimal tie at the precision asked:
# there Python's own formatting is exact, so format_number must agree with it
binary = st.builds(lambda n, k: n / 2**k, st.integers(-(10**7), 10**7), st.integers(0, 12))
SPECS = [".3f", "+8.2f", "08.3f", ",.2f", "<10.1f", "^11.4f", " .0f", ".1%", "=+12.3F"]


def is_tie(x: float, spec: str) -> bool:
    places = int(spec.split(".")[1][:-1])
    scaled = Fraction(x) * (100 if spec.endswith("%") else 1) * 10**places
    return scaled - scaled.__floor__() == Fraction(1, 2)


@given(binary, st.sampled_from(SPECS))
def test_format_number_agrees_with_python_away_from_ties(x, spec):
    if is_tie(x, spec):
        return
    assert format_number(Fraction(x), spec) == format(x, spec)
    assert format_number(x, spec) == format(x, spec)


@pytest.mark.parametrize(
    "value, places, said",
    [
        (None, 3, "undefined"),
        (float("nan"), 3, "undefined"),
        (0.5, -1, "places must be at least 0"),
        (0.5, "2", "places must be a whole number"),
    ],
)
def test_round_half_up_refuses_what_it_cannot_round(value, places, said):
    with pytest.raises(AgreementError, match=said):
        round_half_up(value, places)
