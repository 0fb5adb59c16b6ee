"""Property tests: iaa_teach against independent implementations, on random tables.

Oracles: scikit-learn's ``cohen_kappa_score`` (unweighted, linear, quadratic),
statsmodels' ``fleiss_kappa`` (complete data), the ``krippendorff`` package
(all four levels, missing data). Hypothesis draws tables of 2-8 raters,
2-6 categories, with and without missing cells; the ``ci`` profile in
conftest.py makes the draws the same on every run. Where an oracle is
undefined the example is filtered out, and separate tests check that
iaa_teach says NaN with a reason there, never 0.

The comparison helpers (``check_*``) are also run against deliberately broken
versions of the metrics (see ``test_*_would_catch_*``), to show that these
tests can fail.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F
from itertools import combinations

import krippendorff
import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.extra import numpy as hnp
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import iaa_teach
from iaa_teach import (
    AgreementError,
    Ratings,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    interpret,
    krippendorff_alpha,
    pairwise_cohen,
)
from iaa_teach import _formulas as formulas

TOL = 1e-9
EXAMPLES = 300  # per property test; the whole file stays well under a minute on 2 cores


# ------------------------------------------------------------ strategies
@st.composite
def tables(draw, missing: bool = True, min_items: int = 2, max_items: int = 30):
    """(codes, k): an items x raters array of category codes in 0..k-1, -1 where missing.

    Each cell copies its item's "true" label with probability ``p_agree``
    (0 gives tables of pure noise), else takes a label of its own, so the
    tables range from chance agreement to near-perfect agreement.
    """
    n_raters = draw(st.integers(2, 8))
    k = draw(st.integers(2, 6))
    n_items = draw(st.integers(min_items, max_items))
    shape = (n_items, n_raters)
    labels = st.integers(0, k - 1)
    unit = st.floats(0, 1, exclude_max=True)
    truth = draw(hnp.arrays(np.int64, n_items, elements=labels, fill=st.nothing()))
    own = draw(hnp.arrays(np.int64, shape, elements=labels, fill=st.nothing()))
    p_agree = draw(st.sampled_from([0.0, 0.5, 0.8]))
    copy = draw(hnp.arrays(np.float64, shape, elements=unit, fill=st.nothing()))
    codes = np.where(copy < p_agree, truth[:, None], own)
    if missing:
        rate = draw(st.sampled_from([0.1, 0.25, 0.5]))
        u = draw(hnp.arrays(np.float64, shape, elements=unit, fill=st.nothing()))
        codes = np.where(u < rate, -1, codes)
    return codes, k


def numeric_values(k: int):
    """k distinct positive numbers for interval/ratio categories, increasing."""
    return st.lists(st.integers(1, 60), min_size=k, max_size=k, unique=True).map(sorted)


def to_ratings(codes: np.ndarray, categories, style: str = "float") -> Ratings:
    """Build a Ratings whose labels are ``categories[code]``, through different input paths."""
    cats = list(categories)
    if style == "float":  # numeric array, NaN = missing (the vectorized encoder)
        values = np.array([float(c) for c in cats])
        table = np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan)
    elif style == "list":  # list of lists of Python labels, None = missing
        table = [[None if c < 0 else cats[c] for c in row] for row in codes.tolist()]
    else:  # object array, "" = missing
        table = np.array([["" if c < 0 else cats[c] for c in row] for row in codes.tolist()], dtype=object)
    return Ratings.from_rows(table, categories=cats)


def quiet(fn, *args, **kwargs):
    """Call an oracle with its 0/0 warnings silenced (we check NaN ourselves)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def note(message: str) -> None:
    """A hypothesis event (how often a case came up), ignored outside a hypothesis test."""
    if currently_in_test_context():
        event(message)


def close(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return abs(ours - theirs) <= TOL


# ------------------------------------------------------------------ Cohen
def sklearn_kappa(codes: np.ndarray, k: int, a: int, b: int, weights):
    both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
    if not both.any():
        return None
    return float(
        quiet(cohen_kappa_score, codes[both, a], codes[both, b], labels=list(range(k)), weights=weights)
    )


def check_cohen(codes: np.ndarray, k: int, weights, style: str = "float") -> int:
    """Every rater pair against scikit-learn; returns how many pairs were compared."""
    labels = [f"c{i}" for i in range(k)] if style != "float" else list(range(k))
    r = to_ratings(codes, labels, style)
    compared = 0
    for a, b in combinations(range(codes.shape[1]), 2):
        ref = sklearn_kappa(codes, k, a, b, weights)
        if ref is None:
            res = cohen_kappa(r, a, b, weights=weights)
            assert math.isnan(res.kappa) and "never rated the same item" in res.reason
            continue
        res = cohen_kappa(r, a, b, weights=weights)
        assert close(res.kappa, ref), (a, b, weights, res.kappa, ref)
        both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
        assert res.n_items == both.sum() and res.n_dropped == len(codes) - both.sum()
        assert res.table.sum() == res.n_items
        if math.isnan(ref):
            assert res.reason
        note("cohen: undefined" if math.isnan(ref) else "cohen: defined")
        compared += 1
    return compared


@settings(max_examples=EXAMPLES)
@given(
    data=tables(missing=True),
    weights=st.sampled_from([None, "linear", "quadratic"]),
    style=st.sampled_from(["float", "list", "object"]),
)
def test_cohen_matches_sklearn(data, weights, style):
    codes, k = data
    assume(check_cohen(codes, k, weights, style) > 0)


@settings(max_examples=EXAMPLES // 3)
@given(data=tables(missing=False), weights=st.sampled_from([None, "linear", "quadratic"]))
def test_pairwise_cohen_matches_sklearn(data, weights):
    codes, k = data
    res = pairwise_cohen(codes.astype(float), weights=weights)
    # categories here are the labels seen, so compare with sklearn over those
    seen = sorted(set(codes.ravel().tolist()))
    remap = np.searchsorted(seen, codes)
    refs = [sklearn_kappa(remap, len(seen), a, b, weights) for a, b in combinations(range(codes.shape[1]), 2)]
    assert len(res) == len(refs)
    for got, ref in zip(res.kappas, refs):
        assert close(got, ref)
    defined = [x for x in refs if not math.isnan(x)]
    if len(defined) == len(refs):
        assert float(res) == pytest.approx(np.mean(refs), abs=TOL)


# ----------------------------------------------------------------- Fleiss
def statsmodels_fleiss(codes: np.ndarray) -> float:
    counts, _ = aggregate_raters(codes)
    return float(quiet(sm_fleiss_kappa, counts, method="fleiss"))


def check_fleiss(codes: np.ndarray, k: int) -> None:
    ref = statsmodels_fleiss(codes)
    r = to_ratings(codes, list(range(k)))
    for chance in ("pooled", "item_mean"):
        res = fleiss_kappa(r, chance=chance)
        assert close(res.kappa, ref), (chance, res.kappa, ref)
        if math.isnan(ref):
            assert res.reason
    note("fleiss: undefined" if math.isnan(ref) else "fleiss: defined")


@settings(max_examples=EXAMPLES)
@given(data=tables(missing=False))
def test_fleiss_matches_statsmodels_on_complete_data(data):
    codes, k = data
    check_fleiss(codes, k)


def naive_fleiss(codes: np.ndarray, k: int, chance: str):
    """Fleiss' kappa with per-item raters, straight from the formulas, item by item, in Fractions."""
    p_is, props, counts_all = [], [], [0] * k
    for row in codes.tolist():
        labels = [c for c in row if c >= 0]
        m = len(labels)
        n = [labels.count(j) for j in range(k)]
        for j in range(k):
            counts_all[j] += n[j]
        if m >= 1:
            props.append([F(x, m) for x in n])
        if m >= 2:
            p_is.append(F(sum(x * x for x in n) - m, m * (m - 1)))
    if not p_is:
        return None
    p_a = sum(p_is) / len(p_is)
    if chance == "pooled":
        p_j = [F(c, sum(counts_all)) for c in counts_all]
    else:
        p_j = [sum(col) / len(props) for col in zip(*props)]
    p_e = sum(p * p for p in p_j)
    return (p_a - p_e) / (1 - p_e) if p_e != 1 else None, p_a, p_e


@settings(max_examples=EXAMPLES)
@given(data=tables(missing=True), chance=st.sampled_from(["pooled", "item_mean"]))
def test_fleiss_with_missing_matches_item_by_item_formula(data, chance):
    """No library computes Fleiss' kappa with per-item raters, so the reference is the formula itself."""
    codes, k = data
    ref = naive_fleiss(codes, k, chance)
    r = to_ratings(codes, list(range(k)))
    if ref is None:
        with pytest.raises(AgreementError, match="2 or more ratings"):
            fleiss_kappa(r, chance=chance)
        return
    kappa, p_a, p_e = ref
    res = fleiss_kappa(r, chance=chance)
    assert (res.exact.kappa, res.exact.p_a, res.exact.p_e) == (kappa, p_a, p_e)
    assert res.p_a == pytest.approx(float(p_a), abs=TOL)
    assert res.p_e == pytest.approx(float(p_e), abs=TOL)
    assert close(res.kappa, math.nan if kappa is None else float(kappa))


# ----------------------------------------------------------- Krippendorff
def krippendorff_oracle(codes: np.ndarray, values, level: str) -> float | None:
    """The krippendorff package on raters x units data, NaN = missing; None where it refuses."""
    vals = np.asarray(values, dtype=float)
    data = np.where(codes >= 0, vals[np.maximum(codes, 0)], np.nan).T
    try:
        return float(
            quiet(
                krippendorff.alpha, reliability_data=data, level_of_measurement=level, value_domain=list(vals)
            )
        )
    except ValueError:  # no unit with two values
        return None


def check_alpha(codes: np.ndarray, values, level: str) -> bool:
    """Compare with the krippendorff package; False where it has nothing to compare."""
    ref = krippendorff_oracle(codes, values, level)
    r = to_ratings(codes, values)
    if ref is None:
        with pytest.raises(AgreementError, match="2 or more ratings"):
            krippendorff_alpha(r, level)
        return False
    res = krippendorff_alpha(r, level)
    assert close(res.alpha, ref), (level, res.alpha, ref)
    if math.isnan(ref):
        assert res.reason
    note("alpha: undefined" if math.isnan(ref) else "alpha: defined")
    note(f"alpha: {'some' if (codes < 0).any() else 'no'} missing cells")
    return True


@st.composite
def alpha_cases(draw, missing: bool = True):
    codes, k = draw(tables(missing=missing))
    level = draw(st.sampled_from(iaa_teach.LEVELS))
    values = draw(numeric_values(k)) if level in ("interval", "ratio") else list(range(k))
    return codes, values, level


@settings(max_examples=EXAMPLES)
@given(case=alpha_cases(missing=True))
def test_alpha_matches_krippendorff_with_missing(case):
    assume(check_alpha(*case))


@pytest.mark.parametrize("level", iaa_teach.LEVELS)
@settings(max_examples=EXAMPLES // 3)
@given(data=tables(missing=True), values=st.data())
def test_alpha_matches_krippendorff_each_level(level, data, values):
    codes, k = data
    vals = values.draw(numeric_values(k)) if level in ("interval", "ratio") else list(range(k))
    assume(check_alpha(codes, vals, level))


@settings(max_examples=EXAMPLES // 3)
@given(case=alpha_cases(missing=False))
def test_alpha_matches_krippendorff_complete(case):
    assert check_alpha(*case)


# ------------------------------------------------- the tests can fail
def test_alpha_check_would_catch_missing_unit_weight(monkeypatch):
    """Dropping the 1/(m_u - 1) weight (the texts' mistake) must fail the oracle comparison."""
    codes = datasets.sentiment_missing().codes
    assert check_alpha(codes, [0, 1, 2], "nominal")
    real = formulas.coincidences

    def unweighted(size, counts, gram):  # every pair counted once, whatever the unit's size
        return (
            real(size, counts, gram) * np.where(np.asarray(size) >= 2, np.asarray(size) - 1, 0)[:, None, None]
        )

    monkeypatch.setattr(formulas, "coincidences", unweighted)
    with pytest.raises(AssertionError):
        check_alpha(codes, [0, 1, 2], "nominal")
    # ... and on complete data too, where every unit has the same m_u
    with pytest.raises(AssertionError):
        check_alpha(datasets.sentiment().codes, [0, 1, 2], "nominal")


def test_cohen_check_would_catch_wrong_weights(monkeypatch):
    """Linear distances where quadratic ones are asked for must fail the weighted comparison."""
    codes = np.array([[0, 0], [1, 2], [2, 2], [1, 0], [2, 1], [0, 0], [2, 2], [0, 2]])
    assert check_cohen(codes, 3, "quadratic") == 1
    real = formulas.disagreement_weights
    monkeypatch.setattr(
        formulas,
        "disagreement_weights",
        lambda k, weights: real(k, "linear" if weights == "quadratic" else weights),
    )
    with pytest.raises(AssertionError):
        check_cohen(codes, 3, "quadratic")


def test_fleiss_check_would_catch_a_wrong_chance_term(monkeypatch):
    codes = datasets.sentiment().codes
    check_fleiss(codes, 3)
    real = formulas.fleiss_agreement

    def unsquared_chance(terms, chance, *weights):  # P_e = sum p_j / k instead of sum p_j^2
        p_a, p_j, p_e = real(terms, chance, *weights)
        return p_a, p_j, p_j.sum(axis=-1) / p_j.shape[-1]

    monkeypatch.setattr(formulas, "fleiss_agreement", unsquared_chance)
    with pytest.raises(AssertionError):
        check_fleiss(codes, 3)


# ------------------------------------------ undefined: NaN with a reason
@st.composite
def one_category_tables(draw):
    """Every rating in one category c (of k declared), some cells missing."""
    n_raters = draw(st.integers(2, 8))
    n_items = draw(st.integers(2, 20))
    k = draw(st.integers(2, 6))
    c = draw(st.integers(0, k - 1))
    u = draw(hnp.arrays(np.float64, (n_items, n_raters), elements=st.floats(0, 1), fill=st.nothing()))
    codes = np.where(u < 0.3, -1, c)
    codes[0, :2] = c  # at least one item with two ratings, and raters 0 and 1 share it
    return codes, k


@settings(max_examples=EXAMPLES // 3)
@given(data=one_category_tables(), level=st.sampled_from(iaa_teach.LEVELS))
def test_undefined_is_nan_with_reason_never_zero(data, level):
    codes, k = data
    values = list(range(1, k + 1))
    r = to_ratings(codes, values)
    results = [
        cohen_kappa(r, 0, 1),
        cohen_kappa(r, 0, 1, weights="quadratic"),
        fleiss_kappa(r, chance="pooled"),
        fleiss_kappa(r, chance="item_mean"),
        krippendorff_alpha(r, level),
    ]
    for res in results:
        assert math.isnan(float(res)), res
        assert float(res) != 0
        assert isinstance(res.reason, str) and len(res.reason) > 20
        assert not res.defined
        assert interpret(res) == "undefined"
    assert results[0].exact.kappa is None
    assert results[2].exact.kappa is None
    assert results[4].exact.alpha is None
    # the oracles agree that there is nothing to compute
    assert math.isnan(krippendorff_oracle(codes, values, level))
    assert math.isnan(sklearn_kappa(codes, k, 0, 1, None))


def test_defined_results_have_no_reason():
    r = datasets.sentiment()
    for res in (cohen_kappa(r, "A", "B"), fleiss_kappa(r), krippendorff_alpha(r)):
        assert res.reason is None and res.defined


def test_perfect_disagreement_is_defined_not_nan():
    """P_e = 0 is fine: two raters who never agree, each in one category, have kappa 0 (not NaN)."""
    res = cohen_kappa([["x", "y"], ["x", "y"]], 0, 1)
    assert res.kappa == 0 and res.reason is None
    assert res.exact.kappa == 0


# ------------------------------------------ exact agrees with floats
def exact_close(value, exact) -> bool:
    if exact is None:
        return math.isnan(value)
    return abs(value - float(exact)) <= TOL


@settings(max_examples=EXAMPLES)
@given(data=tables(missing=True, max_items=20), choice=st.data())
def test_exact_agrees_with_floats(data, choice):
    codes, k = data
    level = choice.draw(st.sampled_from(iaa_teach.LEVELS))
    values = choice.draw(numeric_values(k)) if level in ("interval", "ratio") else list(range(1, k + 1))
    r = to_ratings(codes, values)
    try:
        res = krippendorff_alpha(r, level)
    except AgreementError:
        assume(False)
    ex = res.exact
    for name in ("alpha", "d_o", "d_e"):
        assert exact_close(getattr(res, name), getattr(ex, name)), name
    assert ex.n == res.n
    np.testing.assert_allclose(res.n_c, [float(x) for x in ex.n_c], atol=TOL)
    np.testing.assert_allclose(
        res.coincidences, [[float(x) for x in row] for row in ex.coincidences], atol=TOL
    )
    np.testing.assert_allclose(res.delta, [[float(x) for x in row] for row in ex.delta], rtol=1e-12, atol=TOL)
    for chance in ("pooled", "item_mean"):
        fr = fleiss_kappa(r, chance=chance)
        for name in ("kappa", "p_a", "p_e"):
            assert exact_close(getattr(fr, name), getattr(fr.exact, name)), (chance, name)
        np.testing.assert_allclose(fr.p_j, [float(x) for x in fr.exact.p_j], atol=TOL)
    weights = choice.draw(st.sampled_from([None, "linear", "quadratic"]))
    try:
        cr = cohen_kappa(r, 0, 1, weights=weights)
    except AgreementError:
        return
    for name in ("kappa", "p_o", "p_e"):
        assert exact_close(getattr(cr, name), getattr(cr.exact, name)), (weights, name)


@settings(max_examples=EXAMPLES // 3)
@given(data=tables(missing=False, max_items=20))
def test_alpha_fleiss_relation_on_random_complete_tables(data):
    """On complete data (same m for every unit): 1 - alpha = (1 - kappa)(n - 1)/n, exactly."""
    codes, k = data
    r = to_ratings(codes, list(range(k)))
    alpha = krippendorff_alpha(r).exact
    kappa = fleiss_kappa(r).exact.kappa
    assume(kappa is not None)
    n = alpha.n
    assert n == codes.size
    assert 1 - alpha.alpha == (1 - kappa) * (n - 1) / n
