"""Standard errors, intervals, the finite-population correction, planning, and the family's results.

The numbers themselves are checked against irrCAC and statsmodels in
test_family_oracles.py; here: what ``se`` and ``ci()`` mean (t with n - 1
degrees of freedom or the normal, capped at 1, NaN with a reason), that
``population`` scales the variance by 1 - n / N exactly, that ``.exact``
holds the same variance as the floats, that the bootstrap's vectorized
replicates equal a plain loop for the new coefficients, that bad weights
are refused with a clear message, and that :func:`items_needed` gives
intervals of the half-width it promises, by simulation.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from test_bootstrap import TABLES, naive_replicates
from test_oracles import tables, to_ratings

import iaa_teach
from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    datasets,
    fleiss_kappa,
    gwet_ac,
    items_needed,
    krippendorff_alpha,
    percent_agreement,
    scott_pi,
)
from iaa_teach import _formulas as formulas

NEW = [percent_agreement, brennan_prediger, scott_pi, conger_kappa, gwet_ac]
EVERY = NEW + [fleiss_kappa, krippendorff_alpha, cohen_kappa]
NAMES = {f: f.__name__ for f in EVERY}


# ---------------------------------------------------------- the interval
@pytest.mark.parametrize("metric", EVERY, ids=NAMES.get)
def test_interval_is_the_estimate_plus_minus_a_critical_value_times_se(metric):
    r = datasets.sentiment_missing()
    res = metric(r)
    critical = stats.norm.ppf(0.975) if res.df is None else stats.t.ppf(0.975, res.df)
    low, high = res.ci()
    assert math.isclose(low, float(res) - critical * res.se, rel_tol=1e-12)
    assert math.isclose(high, min(1.0, float(res) + critical * res.se), rel_tol=1e-12)
    wide, narrow = res.ci(0.99), res.ci(0.8)
    assert wide[0] < low < narrow[0] < float(res) < narrow[1] < high <= wide[1] <= 1
    if metric is cohen_kappa:
        assert res.df is None  # the normal, as statsmodels
    else:
        assert res.df == (r.codes >= 0).any(axis=1).sum() - 1


@pytest.mark.parametrize("df", [None, 1, 2, 5, 30, 9_999, 10_000, 10_001, 99_999, 999_999, 10**7, 10**9])
@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999])
def test_the_critical_value_is_scipys(df, confidence):
    """The critical values agree with scipy's quantiles, the t expansion (df >= 10,000, no scipy import) too."""
    from iaa_teach.metrics import _quantile

    tail = 1 - (1 - confidence) / 2
    reference = stats.norm.ppf(tail) if df is None else stats.t.ppf(tail, df)
    assert math.isclose(_quantile(confidence, df), reference, rel_tol=1e-14)


def test_the_upper_limit_is_capped_at_one():
    r = Ratings.from_rows([["a", "a", "a"]] * 6 + [["b", "b", "b"]] * 5 + [["a", "b", "b"]])
    for metric in EVERY:
        res = metric(r)
        low, high = res.ci()
        assert high == 1.0 and low < float(res) < 1, metric.__name__


@pytest.mark.parametrize("bad", [0, 1, 95, "0.95", None, float("nan")])
def test_bad_confidence(bad):
    with pytest.raises(AgreementError, match="confidence must be"):
        gwet_ac(datasets.sentiment()).ci(bad)


def test_undefined_coefficients_have_undefined_intervals_with_reasons():
    r = Ratings.from_rows([["a", "a"], ["a", "a"], ["a", None]], categories=["a", "b"])
    for metric in [scott_pi, conger_kappa, fleiss_kappa, krippendorff_alpha, cohen_kappa]:
        res = metric(r)
        assert math.isnan(float(res)) and math.isnan(res.se) and res.reason and res.se_reason == res.reason
        assert all(math.isnan(x) for x in res.ci())
        assert res.exact.variance is None
    # AC1, S and P_a are defined where kappa is not: agreement 1, chance below 1
    for metric in [gwet_ac, brennan_prediger, percent_agreement]:
        assert float(metric(r)) == 1 and metric(r).reason is None and metric(r).ci()[1] == 1
        unanimous = metric(Ratings.from_rows([["a", "a"], ["a", "a"], ["a", "a"]], categories=["a", "b"]))
        assert unanimous.se == 0 and unanimous.ci() == (1.0, 1.0) and unanimous.exact.variance == 0
    one = Ratings.from_rows([["a", "a"], ["a", "a"]])  # one category: q = 1
    for metric, words in [(brennan_prediger, "one category"), (gwet_ac, "at least 2 categories")]:
        res = metric(one)
        assert math.isnan(float(res)) and words in res.reason and res.exact.variance is None


def test_one_rated_item_has_no_standard_error():
    r = Ratings.from_rows([["a", "b", "a"], [None, None, None]])
    for metric in [percent_agreement, gwet_ac, conger_kappa, brennan_prediger, fleiss_kappa]:
        res = metric(r)
        assert res.defined and math.isnan(res.se) and "fewer than 2 items" in res.se_reason
        assert all(math.isnan(x) for x in res.ci())
        assert res.exact.variance is None  # undefined as fractions too


def test_cohen_on_one_shared_item_has_no_variance_float_or_exact():
    res = cohen_kappa([["a", "b"], [None, "a"], ["b", None]])
    assert res.defined and res.n_items == 1 and math.isnan(res.variance) and math.isnan(res.variance_null)
    assert res.exact.variance is None and res.exact.variance_null is None


# --------------------------------------------- finite-population correction
@pytest.mark.parametrize("metric", EVERY, ids=NAMES.get)
def test_population_scales_the_variance_by_the_unsampled_share(metric):
    r = datasets.sentiment_missing()
    infinite = metric(r)
    n = infinite.n_items if hasattr(infinite, "n_items") else infinite.df + 1
    finite = metric(r, population=4 * n)
    assert finite.exact.variance == infinite.exact.variance * (1 - Fraction(n, 4 * n))
    assert math.isclose(finite.se, infinite.se * math.sqrt(0.75), rel_tol=1e-12)
    assert float(finite) == float(infinite) and finite.population == 4 * n
    everything = metric(r, population=n)  # every item of the population rated: no sampling error
    assert everything.se == 0 and everything.ci() == (float(infinite), float(infinite))
    with pytest.raises(AgreementError, match=f"population must be at least the {n} items rated"):
        metric(r, population=n - 1)
    with pytest.raises(AgreementError, match="population must be a whole number"):
        metric(r, population=2.5)


# ------------------------------------------------ exact equals the floats
@settings(max_examples=40)
@given(data=tables(missing=True, max_items=15), choice=st.data())
def test_exact_variance_agrees_with_the_float_variance(data, choice):
    codes, k = data
    r = to_ratings(codes, list(range(1, k + 1)))
    weights = choice.draw(st.sampled_from([None, "quadratic", "bipolar", "ordinal"]))
    for metric in [percent_agreement, brennan_prediger, scott_pi, conger_kappa, gwet_ac, fleiss_kappa]:
        try:
            res = metric(r, weights=weights)
        except AgreementError:
            continue
        exact = res.exact
        assert (exact.variance is None) == math.isnan(res.variance), metric.__name__
        if exact.variance is not None:
            assert abs(float(exact.variance) - res.variance) <= 1e-12
        assert abs(float(exact.p_e) - res.p_e) <= 1e-12 or math.isnan(res.p_e)


# ---------------------------------------------------------------- bootstrap
CASES = [
    (percent_agreement, {}),
    (brennan_prediger, {"weights": "linear"}),
    (scott_pi, {"a": "B", "b": "C"}),
    (conger_kappa, {}),
    (conger_kappa, {"weights": "quadratic"}),
    (gwet_ac, {}),
    (gwet_ac, {"weights": "ordinal"}),
    (fleiss_kappa, {"weights": "quadratic"}),
    (fleiss_kappa, {"chance": "item_mean", "weights": "linear"}),
]


@pytest.mark.parametrize("table", ["sentiment_missing", "random"])
@pytest.mark.parametrize(
    "case", CASES, ids=[f"{m.__name__}-{'-'.join(map(str, kw.values()))}" for m, kw in CASES]
)
def test_vectorized_replicates_equal_a_plain_loop(table, case):
    metric, kwargs = case
    r = TABLES[table]
    if "a" in kwargs and table == "random":
        kwargs = {"a": 0, "b": 2}
    ci = bootstrap_ci(metric, r, n_boot=60, seed=5, **kwargs)
    reference = naive_replicates(metric, r, 60, 5, **kwargs)
    np.testing.assert_allclose(ci.samples, reference, rtol=0, atol=1e-9, equal_nan=True)
    assert ci.estimate == float(metric(r, **kwargs))


# ------------------------------------------------------------------ weights
@pytest.mark.parametrize(
    "weights, message",
    [
        ("cubic", r"weights must be one of None, 'linear', 'quadratic', 'ordinal'"),
        (np.eye(2), r"must be 3 x 3 \(one row and column per category\), got shape \(2, 2\)"),
        ([[1, 0.5, np.nan], [0.5, 1, 0], [np.nan, 0, 1]], "finite numbers"),
        ([[1, 1.5, 0], [1.5, 1, 0], [0, 0, 1]], r"between 0 and 1, but w\[0, 1\] = 1.5"),
        ([[0.9, 0, 0], [0, 1, 0], [0, 0, 1]], r"1 on the diagonal .* w\[0, 0\] = 0.9"),
        ([[1, 0.5, 0], [0.25, 1, 0], [0, 0, 1]], r"symmetric .* w\[0, 1\] = 0.5 and w\[1, 0\] = 0.25"),
        ([["a", "b", "c"]] * 3, "a 3 x 3 matrix of numbers"),
    ],
)
def test_bad_weights_are_refused(weights, message):
    for metric in [gwet_ac, conger_kappa, fleiss_kappa, brennan_prediger, percent_agreement]:
        with pytest.raises(AgreementError, match=message):
            metric(datasets.sentiment(), weights=weights)


def test_ratio_weights_need_positive_values():
    r = Ratings.from_rows([[0, 1], [2, 2], [1, 1]])
    with pytest.raises(AgreementError, match="'ratio' need positive category values"):
        gwet_ac(r, weights="ratio")


def test_named_weights_use_numeric_categories_values():
    """Gwet's weights over the values 1, 2, 5 (as irrCAC), not over the positions; labels use 1..q."""
    r = Ratings.from_rows([[1, 2], [2, 5], [5, 5], [1, 1]])
    assert gwet_ac(r, weights="linear").agreement_weights[0].tolist() == [1.0, 0.75, 0.0]
    labels = Ratings.from_rows([["lo", "mid"], ["mid", "hi"]], categories=["lo", "mid", "hi"])
    assert gwet_ac(labels, weights="linear").agreement_weights[0].tolist() == [1.0, 0.5, 0.0]


def test_a_custom_matrix_is_used_as_given_and_read_exactly():
    w = [[1, 0.1, 0], [0.1, 1, 0.5], [0, 0.5, 1]]
    res = gwet_ac(datasets.sentiment(), weights=w)
    assert res.weights == "custom" and res.name == "AC2"
    assert res.agreement_weights.tolist() == w
    assert res.exact.agreement_weights[0][1] == Fraction(1, 10)
    with pytest.raises(ValueError):
        res.agreement_weights[0, 0] = 0


def test_the_callers_data_is_not_modified():
    table = np.array([[1.0, 2.0, np.nan], [2.0, 2.0, 1.0], [1.0, 1.0, 1.0]])
    weights = np.array([[1.0, 0.5], [0.5, 1.0]])
    saved, saved_w = table.copy(), weights.copy()
    for metric in NEW:
        metric(table, weights=weights).exact
    np.testing.assert_array_equal(table, saved)
    np.testing.assert_array_equal(weights, saved_w)


# ------------------------------------------------------------------ results
def test_results_read_well_and_are_frozen():
    r = datasets.sentiment()
    names = {
        percent_agreement: "percent agreement",
        brennan_prediger: "Brennan-Prediger S",
        scott_pi: "Scott's pi",
        conger_kappa: "Conger's kappa",
        gwet_ac: "AC1",
    }
    for metric, name in names.items():
        res = metric(r)
        assert res.name == name and type(res).__name__ in repr(res)
        assert f"{res:.3f}" == iaa_teach.rounding.fmt(getattr(res.exact, res._main))
        with pytest.raises(AttributeError):
            res.p_a = 0
    assert gwet_ac(r, weights="quadratic").name == "AC2"


def test_scott_pi_refuses_the_same_rater_twice():
    with pytest.raises(AgreementError, match="two different raters, but both are 'A'"):
        scott_pi(datasets.sentiment(), "A", 0)


def test_conger_leaves_out_a_rater_with_no_ratings():
    base = datasets.sentiment()
    rows = [row + [None] for row in base.rows()]
    wider = Ratings.from_rows(rows, raters=list(base.raters) + ["D"])
    assert conger_kappa(wider).exact.kappa == conger_kappa(base).exact.kappa
    assert conger_kappa(wider).se == conger_kappa(base).se


# ----------------------------------------------- one formula path (new coefficients)
@pytest.mark.parametrize(
    "metric, formula",
    [
        (gwet_ac, "gwet_chance"),
        (brennan_prediger, "uniform_chance"),
        (conger_kappa, "conger_chance"),
        (percent_agreement, "observed_agreement"),
        (scott_pi, "category_shares"),
    ],
)
def test_one_patched_formula_changes_float_exact_and_bootstrap_together(monkeypatch, metric, formula):
    r = datasets.sentiment_missing()

    def all_three():
        res = metric(r)
        return (
            float(res),
            getattr(res.exact, res._main),
            bootstrap_ci(metric, r, n_boot=30, seed=0).samples.copy(),
        )

    value, exact, samples = all_three()
    assert math.isclose(value, float(exact), abs_tol=1e-12)
    real = getattr(formulas, formula)
    monkeypatch.setattr(formulas, formula, lambda *args: real(*args) * 0.9)
    new_value, new_exact, new_samples = all_three()
    assert not math.isclose(new_value, value, abs_tol=1e-6)
    assert new_exact != exact and math.isclose(new_value, float(new_exact), abs_tol=1e-12)
    assert (~np.isclose(new_samples, samples, equal_nan=True)).mean() > 0.5


# ----------------------------------------------------------------- planning
def simulate(plan, studies: int, items: int, seed: int):
    """Half-widths (estimate - lower limit) and coverage of ``studies`` simulated studies of the plan's model."""
    rng = np.random.default_rng(seed)
    p = np.array(plan.proportions)
    metric = getattr(iaa_teach, plan.coefficient)
    halves, covered = [], 0
    for _ in range(studies):
        unanimous = rng.random(items) < plan.unanimous
        truth = rng.choice(len(p), size=items, p=p)
        own = rng.choice(len(p), size=(items, plan.raters), p=p)
        codes = np.where(unanimous[:, None], truth[:, None], own)
        res = metric(Ratings.from_codes(codes, categories=list(range(1, len(p) + 1))))
        low, high = res.ci(plan.confidence)
        halves.append(float(res) - low)
        covered += low <= plan.expected <= high
    return float(np.mean(halves)), covered / studies


@pytest.mark.parametrize("coefficient, raters", [("fleiss_kappa", 3), ("gwet_ac", 4), ("cohen_kappa", 2)])
def test_planned_items_give_the_promised_half_width(coefficient, raters):
    plan = items_needed(coefficient, expected=0.6, raters=raters, proportions=[0.5, 0.3, 0.2], half_width=0.1)
    assert plan.half_width <= 0.1 and int(plan) == plan.items
    half, coverage = simulate(plan, studies=200, items=plan.items, seed=1)
    assert abs(half - 0.1) <= 0.005, half
    assert 0.91 <= coverage <= 0.99, coverage
    fewer, _ = simulate(plan, studies=100, items=plan.items // 2, seed=2)
    assert fewer > 0.13  # half the items: an interval about sqrt(2) times as wide


def test_planning_model_gives_the_expected_value():
    for coefficient in iaa_teach.PLANNED:
        raters = 2 if coefficient in ("cohen_kappa", "scott_pi") else 4
        plan = items_needed(coefficient, 0.5, raters, [0.5, 0.3, 0.2], half_width=0.05)
        assert math.isclose((plan.p_a - plan.p_e) / (1 - plan.p_e), 0.5, abs_tol=1e-12), coefficient
        tighter = items_needed(coefficient, 0.5, raters, [0.5, 0.3, 0.2], half_width=0.025)
        assert 3.8 * plan.items <= tighter.items <= 4.2 * plan.items + 4


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"coefficient": "accuracy"}, "coefficient must be one of"),
        ({"coefficient": "cohen_kappa", "raters": 3}, "cohen_kappa compares two raters, so raters must be 2"),
        ({"proportions": [0.5, 0.4]}, "sum to 1"),
        ({"proportions": [1.0]}, "2 or more shares"),
        (
            {"expected": -0.9},
            r"below what the planning model reaches .*: 0\.0000 \(raters labelling independently\)",
        ),
        ({"half_width": 0}, "half_width must be above 0"),
        ({"raters": 1}, "raters must be at least 2"),
        (
            {"coefficient": "cohen_kappa", "raters": 2, "weights": "bipolar"},
            "weights for cohen_kappa must be one of",
        ),
        (
            {"coefficient": "cohen_kappa", "raters": 2, "weights": np.eye(3)},
            "weights for cohen_kappa must be one of",
        ),
    ],
)
def test_bad_planning_arguments(kwargs, message):
    given = {
        "coefficient": "fleiss_kappa",
        "expected": 0.6,
        "raters": 3,
        "proportions": [0.5, 0.3, 0.2],
        "half_width": 0.1,
    }
    given.update(kwargs)
    with pytest.raises(AgreementError, match=message):
        items_needed(**given)


def test_planning_accepts_the_function_itself():
    assert (
        items_needed(gwet_ac, 0.7, 3, [0.5, 0.5], 0.1).items
        == items_needed("gwet_ac", 0.7, 3, [0.5, 0.5], 0.1).items
    )


def test_the_user_guide_example_says_what_items_needed_says():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "docs" / "own-data.md").read_text()
    plan = items_needed("gwet_ac", expected=0.7, raters=3, proportions=[0.6, 0.3, 0.1], half_width=0.1)
    assert f"# {plan.items} items for a 95 % interval of +/- 0.1" in readme


def test_reprs_round_the_confidence_half_up():
    """92.5 % shows as 93 % (half up from the exact value), not as Python's float formatting rounds it."""
    plan = items_needed("fleiss_kappa", 0.6, 3, [0.5, 0.5], 0.1, confidence=0.925)
    assert " a 93% interval of half-width " in repr(plan)
    boot = bootstrap_ci(
        "fleiss_kappa", [[1, 2, 2], [1, 1, 1], [2, 2, 1], [1, 2, 1]], n_boot=20, seed=1, confidence=0.925
    )
    assert ", 93% CI [" in repr(boot)


@pytest.mark.parametrize("metric", [iaa_teach.fleiss_kappa, iaa_teach.gwet_ac, iaa_teach.conger_kappa])
def test_the_exact_variance_is_summed_only_when_asked_for(monkeypatch, metric):
    """In fractions Gwet's variance sums a square per count row (seconds on a large table, most of
    ``iaa-teach report``'s time): ``.exact``'s P_a and P_e do not wait for it."""
    from iaa_teach import _family as family

    calls = []
    real = family.variance_squares
    monkeypatch.setattr(family, "variance_squares", lambda *a, **k: calls.append(1) or real(*a, **k))
    res = metric(datasets.sentiment_missing())
    assert len(calls) == 1  # the float variance, for res.se
    assert res.exact.p_a == Fraction(res.exact.p_a) and res.exact.p_e is not None and len(calls) == 1
    assert math.isclose(float(res.exact.variance), res.variance, rel_tol=1e-12) and len(calls) == 2
    assert res.exact.variance is res.exact.variance and len(calls) == 2  # computed once


def test_the_exact_alpha_variance_is_summed_only_when_asked_for(monkeypatch):
    """Alpha's exact variance, like the family's, sums a square per count row: ``.exact.alpha`` does not wait for it."""
    from iaa_teach import _family as family

    calls = []
    real = family.alpha_squares
    monkeypatch.setattr(family, "alpha_squares", lambda *a, **k: calls.append(1) or real(*a, **k))
    res = iaa_teach.krippendorff_alpha(datasets.sentiment_missing())
    assert len(calls) == 1  # the float variance, for res.se
    assert res.exact.alpha == Fraction(res.exact.alpha) and res.exact.d_e is not None and len(calls) == 1
    assert math.isclose(float(res.exact.variance), res.variance, rel_tol=1e-12) and len(calls) == 2
    assert res.exact.variance is res.exact.variance and len(calls) == 2  # computed once


def test_the_exact_cohen_variances_are_computed_only_when_asked_for(monkeypatch):
    """``iaa-teach report`` compares every pair's exact kappa: the exact variances wait until asked, then come
    together from one computation."""
    from iaa_teach import _formulas as formulas

    calls = []
    real = formulas.cohen_variance
    monkeypatch.setattr(formulas, "cohen_variance", lambda *a, **k: calls.append(1) or real(*a, **k))
    res = iaa_teach.cohen_kappa(datasets.sentiment_missing(), weights="linear")
    assert len(calls) == 1  # the float variances, for res.se and res.se_null
    assert res.exact.kappa == Fraction(res.exact.kappa) and res.exact.p_e is not None and len(calls) == 1
    assert math.isclose(float(res.exact.variance), res.variance, rel_tol=1e-12) and len(calls) == 2
    assert math.isclose(float(res.exact.variance_null), res.variance_null, rel_tol=1e-12) and len(calls) == 2
