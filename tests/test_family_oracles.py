"""The chance-corrected family and its standard errors against independent implementations.

Oracles:

- irrCAC 0.4 (the Python port of Gwet's R package; a test-only dependency
  that ``make setup`` installs with ``--no-deps``): Gwet's AC1/AC2, Fleiss'
  kappa (Gwet's item-mean chance rule), Brennan-Prediger, Conger's kappa and
  Krippendorff's alpha, each with its standard error, on raw ratings with
  missing cells and every weighting (named schemes and custom matrices);
  its two-rater table functions for Scott's pi and percent agreement.
  Facts about it that the helpers below handle: it rounds to ``digits``
  (15 here); under pandas 3 it turns NaN into a category unless the
  categories are passed (they always are); a rater with no rating makes
  its Conger's kappa NaN (ours leaves the rater out, so the oracle gets the
  table without that rater); its alpha variance is Gwet's 2019 formula,
  which Gwet corrected in irrCAC for R 1.0 (2021) and which we follow, so
  the alpha standard error is compared where both agree (every pairable
  unit with the same number of values) and otherwise with Gwet's R code
  written out item by item (:func:`gwet_r_alpha`).
- statsmodels' ``cohens_kappa``: Cohen's kappa's variance (Fleiss, Cohen
  and Everitt 1969), under the alternative and under kappa = 0.

Coefficients agree to 1e-9, standard errors to 1e-6. Published values:
Gwet's worked example (``cac.raw4raters``: 12 items, 4 raters, 5
categories, missing ratings) as irrCAC's README and tests print it, and
Artstein and Poesio's (2008) Table 4. Identities: two raters and complete
data make Fleiss = Scott, Conger = Cohen, Brennan-Prediger = Bennett's S;
AC1 = S when the categories are used equally. Every new formula, patched,
makes one of these checks fail (``test_check_fails_when_*``).
"""

from __future__ import annotations

import math
import os
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from test_oracles import note, quiet, tables, to_ratings

from iaa_teach import (
    AgreementError,
    Ratings,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    percent_agreement,
    scott_pi,
)
from iaa_teach import _family as FM
from iaa_teach import _formulas as formulas

try:
    from irrCAC.raw import CAC
    from irrCAC.table import CAC as TableCAC
except ImportError as error:  # pragma: no cover - a broken set-up, not a test result
    raise ImportError(
        "irrCAC, the test oracle, is missing: `make setup` installs it "
        "(or run: pip install --no-deps irrCAC==0.4.4)"
    ) from error

TOL, SE_TOL = 1e-9, 1e-6
# Examples per property test: enough for `make test` to stay quick on 2 cores. For a thorough run
# (thousands of tables per coefficient): IAA_ORACLE_SCALE=20 pytest tests/test_family_oracles.py
EXAMPLES = 60 * int(os.environ.get("IAA_ORACLE_SCALE", "1"))
SCHEMES = (None,) + FM.WEIGHT_SCHEMES


# ------------------------------------------------------------- the oracle
def irrcac(codes: np.ndarray, values, weights, method: str) -> dict:
    """irrCAC's raw-ratings ``method`` on items x raters codes (-1 missing), categories = ``values``."""
    if (codes >= 0).any(axis=1).sum() < 2:  # irrCAC divides by n (n - 1) in plain Python: ZeroDivisionError
        return {"too_few_items": True}
    vals = np.asarray(values, dtype=float)
    table = pd.DataFrame(np.where(codes >= 0, vals[np.maximum(codes, 0)], np.nan))
    given = "identity" if weights is None else weights
    cac = CAC(table, weights=given, categories=[float(v) for v in vals], digits=15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return getattr(cac, method)()["est"]
        except ZeroDivisionError:  # P_e = 1 in plain Python floats: irrCAC raises where numpy gives NaN
            return {"coefficient_value": math.nan, "undefined": True}


def same(ours: float, theirs: float, tol: float) -> bool:
    if not math.isfinite(theirs):
        return math.isnan(ours)
    return abs(ours - theirs) <= tol


def check(result, est: dict, se: bool = True) -> None:
    """Coefficient, P_a, P_e (and the standard error) against irrCAC's estimate."""
    if est.get("too_few_items"):
        assert math.isnan(result.se) and result.se_reason
        return
    if (
        est.get("undefined") or 1 - float(est["pe"]) <= 1e-12
    ):  # P_e = 1 (irrCAC's floats may land a hair below)
        assert math.isnan(float(result)) and result.reason
        return
    assert same(float(result), float(est["coefficient_value"]), TOL), (float(result), est)
    assert same(result.p_a, float(est["pa"]), TOL), (result.p_a, est)
    if not math.isnan(float(result)):
        assert same(result.p_e, float(est["pe"]), TOL), (result.p_e, est)
    if se and not math.isnan(float(result)):
        theirs = float(est["se"])
        if result.df >= 1 and math.isfinite(theirs):
            assert abs(result.se - (0.0 if theirs == 1e-15 else theirs)) <= SE_TOL, (result.se, est)
            low, high = result.ci()
            assert abs(low - float(est["confidence_interval"][0])) <= SE_TOL * 10
            assert abs(high - float(est["confidence_interval"][1])) <= SE_TOL * 10
        else:
            assert math.isnan(result.se) and result.se_reason


# ------------------------------------------------------------- strategies
@st.composite
def symmetric_weights(draw, k: int) -> np.ndarray:
    """A random valid custom matrix: symmetric, 1 on the diagonal, entries in [0, 1]."""
    upper = draw(
        hnp.arrays(np.float64, (k, k), elements=st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 0.1, 0.3]))
    )
    w = np.triu(upper, 1)
    return w + w.T + np.eye(k)


@st.composite
def family_cases(draw, max_raters: int = 8, missing: bool = True):
    """(codes, values, weights): a random table, its category values, and a weighting."""
    codes, k = draw(tables(missing=missing))
    codes = codes[:, :max_raters]
    numeric = draw(st.booleans())
    values = (
        sorted(draw(st.lists(st.integers(1, 40), min_size=k, max_size=k, unique=True)))
        if numeric
        else list(range(1, k + 1))
    )
    choice = draw(st.sampled_from(SCHEMES + ("custom",)))
    weights = draw(symmetric_weights(k)) if choice == "custom" else choice
    return codes, values, weights


def ours_or_none(function, codes, values, weights, **kwargs):
    """Our coefficient, or None where there is no item with 2 ratings (irrCAC divides by zero there)."""
    r = to_ratings(codes, values)
    try:
        return function(r, weights=weights, **kwargs)
    except AgreementError as error:
        assert "2 or more ratings" in str(error)
        return None


def compare(function, method, codes, values, weights, se=True, **kwargs) -> bool:
    res = ours_or_none(function, codes, values, weights, **kwargs)
    if res is None:
        return False
    check(res, irrcac(codes, values, weights, method), se=se)
    note(f"{method}: {'undefined' if math.isnan(float(res)) else 'defined'}")
    return True


# ------------------------------------------------------- property tests
@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_gwet_ac_matches_irrcac(case):
    assume(compare(gwet_ac, "gwet", *case))


@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_weighted_fleiss_item_mean_matches_irrcac(case):
    assume(compare(fleiss_kappa, "fleiss", *case, chance="item_mean"))


@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_brennan_prediger_matches_irrcac(case):
    assume(compare(brennan_prediger, "bp", *case))


@settings(max_examples=EXAMPLES // 2)
@given(case=family_cases(max_raters=6))
def test_conger_kappa_matches_irrcac(case):
    codes, values, weights = case
    res = ours_or_none(conger_kappa, codes, values, weights)
    assume(res is not None)
    active = (codes >= 0).any(axis=0)  # irrCAC gives NaN with a rater who rated nothing; ours leaves them out
    check(res, irrcac(codes[:, active], values, weights, "conger"))
    assert res.rater_proportions.shape == (codes.shape[1], len(values))
    assert (res.rater_proportions[~active] == 0).all()


@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_scott_pi_is_irrcac_fleiss_of_the_two_raters(case):
    codes, values, weights = case
    res = ours_or_none(scott_pi, codes, values, weights, a=0, b=1)
    assume(res is not None)
    check(res, irrcac(codes[:, :2], values, weights, "fleiss"))


@settings(max_examples=EXAMPLES // 2)
@given(case=family_cases(missing=False))
def test_scott_pi_on_complete_data_matches_irrcac_table(case):
    """Complete data: Scott's pi of the agreement table; the table variance has n where Gwet's raw one has n - 1."""
    codes, values, weights = case
    res = scott_pi(to_ratings(codes, values), weights=weights)
    with warnings.catch_warnings():  # irrCAC's table functions weigh positions 1..q: give them our matrix
        warnings.simplefilter("ignore")
        est = TableCAC(pd.DataFrame(res.table), weights=res.agreement_weights, digits=15).scott()["est"]
    assert same(res.pi, float(est["coefficient_value"]), TOL)
    n = res.n_items
    if res.defined and n >= 2 and math.isfinite(float(est["se"])):
        assert abs(res.se * math.sqrt((n - 1) / n) - float(est["se"])) <= SE_TOL


@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_percent_agreement_standard_error(case):
    """P_a's variance is Brennan-Prediger's times (1 - P_e)^2 when every rated item has 2 ratings; else Gwet's R."""
    codes, values, weights = case
    res = ours_or_none(percent_agreement, codes, values, weights)
    assume(res is not None)
    assert res.p_e == 0 and float(res) == res.p_a
    assert same(res.se, gwet_r_percent_agreement_se(codes, res.agreement_weights), SE_TOL)
    sizes = (codes >= 0).sum(axis=1)
    if (sizes[sizes > 0] >= 2).all() and res.n_items >= 2:
        est = irrcac(codes, values, weights, "bp")
        assert same(res.p_a, float(est["pa"]), TOL)
        if res.n_items >= 2:
            assert same(res.se, float(est["se"]) * (1 - float(est["pe"])), SE_TOL)


def gwet_r_percent_agreement_se(codes: np.ndarray, w: np.ndarray) -> float:
    """irrCAC for R's ``pa.coeff.raw`` standard error, item by item."""
    rows = [[c for c in row if c >= 0] for row in codes.tolist()]
    rows = [row for row in rows if row]
    n = len(rows)
    terms = []
    for row in rows:
        m = len(row)
        agree = sum(w[a, b] for i, a in enumerate(row) for j, b in enumerate(row) if i != j)
        terms.append(agree / (m * (m - 1)) if m >= 2 else 0.0)
    n2 = sum(len(row) >= 2 for row in rows)
    pa = sum(terms) / n2
    if n < 2:
        return math.nan
    return math.sqrt(sum((n / n2 * t - pa) ** 2 for t in terms) / (n * (n - 1)))


@settings(max_examples=EXAMPLES)
@given(
    values=st.lists(st.integers(1, 60), min_size=2, max_size=7, unique=True).map(sorted),
    scheme=st.sampled_from(FM.WEIGHT_SCHEMES),
    labels=st.booleans(),
)
def test_gwet_weights_match_irrcac(values, scheme, labels):
    """Every named scheme, over numeric categories' values or over 1..q for labels, as irrCAC's Weights."""
    from irrCAC.weights import Weights

    categories = tuple(f"c{v}" for v in values) if labels else tuple(values)
    ours = FM.agreement_matrix(scheme, categories)
    theirs = Weights([str(c) for c in categories] if labels else [float(v) for v in values])[scheme]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    exact = FM.agreement_matrix(scheme, categories, exact=True)
    np.testing.assert_allclose(np.array(exact, dtype=float), ours, rtol=0, atol=1e-15)


# ------------------------------------------------------------------ alpha
LEVEL_WEIGHTS = {"nominal": None, "interval": "quadratic", "ratio": "ratio"}


@settings(max_examples=EXAMPLES)
@given(case=family_cases(), level=st.sampled_from(list(LEVEL_WEIGHTS)))
def test_alpha_and_its_standard_error(case, level):
    """Alpha equals irrCAC's with Gwet's matching weights; its SE is Gwet's (R, 2021), irrCAC's where they agree."""
    codes, values, _ = case
    r = to_ratings(codes, values)
    try:
        res = krippendorff_alpha(r, level)
    except AgreementError:
        assume(False)
    est = irrcac(codes, values, LEVEL_WEIGHTS[level], "krippendorff")
    # fewer than 2 units (irrCAC divides by zero), or P_e = 1 (irrCAC's floats may land a hair below)
    if est.get("too_few_items") or est.get("undefined") or 1 - float(est["pe"]) <= 1e-12:
        assert math.isnan(res.se)
        return
    assert same(res.alpha, float(est["coefficient_value"]), TOL)
    agreement = 1 - res.delta / res.delta.max() if res.delta.max() > 0 else np.eye(len(values))
    reference, python_port = gwet_r_alpha(codes, agreement)
    if not res.defined or math.isnan(reference):
        assert math.isnan(res.se)
        return
    assert abs(res.se - reference) <= SE_TOL
    assert abs(python_port - float(est["se"])) <= SE_TOL  # the transcription reproduces irrCAC's own formula
    sizes = (codes >= 0).sum(axis=1)
    if len(set(sizes[sizes >= 2].tolist())) == 1:  # pa = pa' in the linearization: the two versions agree
        assert abs(res.se - float(est["se"])) <= SE_TOL
        note("alpha: se compared with irrCAC")


def gwet_r_alpha(codes: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Gwet's alpha standard error, unit by unit: (irrCAC for R >= 1.0, irrCAC 0.4 for Python).

    The two differ in one term: the R code (corrected in 2021) linearizes the
    per-unit agreement around P_a', the Python port around P_a.
    """
    rows = [[c for c in row if c >= 0] for row in codes.tolist()]
    rows = [row for row in rows if len(row) >= 2]
    n, q = len(rows), w.shape[0]
    if n < 2:
        return math.nan, math.nan
    counts = np.array([np.bincount(row, minlength=q) for row in rows], dtype=float)
    m = counts.sum(axis=1)
    m_bar = m.mean()
    epsilon = 1 / m.sum()
    sum_q = np.array([c @ w @ c - mi for c, mi in zip(counts, m)])
    pa_prime = np.sum(sum_q / (m_bar * (m - 1))) / n
    pa = (1 - epsilon) * pa_prime + epsilon
    p = counts.sum(axis=0) / m.sum()
    pe = p @ w @ p
    if 1 - pe <= 1e-12:
        return math.nan, math.nan
    alpha_prime = (pa_prime - pe) / (1 - pe)
    pe_i = counts @ (w @ p) / m_bar - pe * (m - m_bar) / m_bar
    out = []
    for centre in (pa_prime, pa):
        pa_i = sum_q / (m_bar * (m - 1)) - centre * (m - m_bar) / m_bar
        terms = (pa_i - pe) / (1 - pe) - 2 * (1 - alpha_prime) * (pe_i - pe) / (1 - pe)
        out.append(math.sqrt(np.sum((terms - alpha_prime) ** 2) / (n * (n - 1))))
    return out[0], out[1]


# ------------------------------------------------------------------ Cohen
def check_cohen_se(codes: np.ndarray, k: int, weights) -> bool:
    r = to_ratings(codes, list(range(k)))
    res = cohen_kappa(r, 0, 1, weights=weights)
    if res.n_items < 2 or not res.defined:
        assert math.isnan(res.se)
        return False
    ref = quiet(sm_cohens_kappa, res.table, wt=weights)
    assert abs(res.kappa - ref.kappa) <= TOL
    for ours, theirs, exact in [
        (res.se, ref.std_kappa, res.exact.variance),
        (res.se_null, ref.std_kappa0, res.exact.variance_null),
    ]:
        if math.isnan(theirs):  # statsmodels' sqrt of a variance that rounding made a hair below 0
            assert exact == 0 and ours <= SE_TOL
        else:
            assert abs(ours - theirs) <= SE_TOL, (ours, theirs)
    low, high = res.ci()
    if not math.isnan(ref.std_kappa):
        assert abs(low - ref.kappa_low) <= SE_TOL and abs(high - min(1.0, ref.kappa_upp)) <= SE_TOL
    assert abs(float(res.exact.variance) - res.variance) <= 1e-12
    return True


@settings(max_examples=EXAMPLES)
@given(data=tables(missing=True), weights=st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_standard_error_matches_statsmodels(data, weights):
    codes, k = data
    assume(check_cohen_se(codes, k, weights))


# ------------------------------------------------------ published values
NAN = math.nan
RAW_4RATERS = np.array(
    [  # Gwet (2014), irrCAC's cac.raw4raters: 12 items, 4 raters, categories 1-5
        [1, 1, NAN, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [NAN, 5, 5, 5],
        [NAN, NAN, 1, 1],
        [NAN, NAN, 3, NAN],
    ]
)


@pytest.mark.parametrize(
    "function, kwargs, value, p_e, se, low",
    [
        # irrCAC for R, README: coefficient, P_e, standard error, lower 95 % limit (all upper limits 1)
        (percent_agreement, {}, 0.8181818, 0, 0.12561, 0.542),
        (gwet_ac, {}, 0.77544, 0.1903212, 0.14295, 0.461),
        (fleiss_kappa, {"chance": "item_mean"}, 0.76117, 0.2387153, 0.15302, 0.424),
        (krippendorff_alpha, {}, 0.74342, None, 0.14548, 0.423),
        (conger_kappa, {}, 0.76282, 0.2334252, 0.14917, 0.435),
        (brennan_prediger, {}, 0.77273, 0.2, 0.14472, 0.454),
        # irrCAC (Python) docs and tests, weighted
        (gwet_ac, {"weights": "bipolar"}, 0.90037, 0.68244, 0.10582, 0.66747),
        (conger_kappa, {"weights": "quadratic"}, 0.858, 0.827, 0.144, 0.541),
        (conger_kappa, {"weights": "linear"}, 0.814, 0.675, 0.145, 0.494),
        (gwet_ac, {"weights": "ordinal"}, 0.899, 0.685, 0.107, 0.664),
        (gwet_ac, {"weights": "circular"}, 0.830, 0.426, 0.133, 0.538),
    ],
)
def test_gwets_worked_example(function, kwargs, value, p_e, se, low):
    res = function(Ratings.from_rows(RAW_4RATERS), **kwargs)
    places = len(str(value).split(".")[1])
    assert round(float(res), places) == value
    if p_e is not None:
        assert round(res.p_e, len(str(p_e).split(".")[-1])) == p_e
    assert round(res.se, len(str(se).split(".")[1])) == se
    lo, hi = res.ci()
    assert round(lo, len(str(low).split(".")[1])) == low and hi == 1
    assert res.df == 11  # t with 11 degrees of freedom: the 12 rated items


def test_gwets_worked_example_custom_weights():
    """irrCAC's custom-weights example is not symmetric: we refuse it, and its symmetric part gives its numbers."""
    w = np.array(
        [
            [1.00, 0.75, 0.50, 0.25, 0.00],
            [0.00, 1.00, 0.75, 0.50, 0.25],
            [0.25, 0.00, 1.00, 0.75, 0.50],
            [0.50, 0.25, 0.00, 1.00, 0.75],
            [0.75, 0.50, 0.25, 0.00, 1.00],
        ]
    )
    r = Ratings.from_rows(RAW_4RATERS)
    with pytest.raises(AgreementError, match=r"symmetric .* \(w \+ w.T\) / 2"):
        conger_kappa(r, weights=w)
    res = conger_kappa(r, weights=(w + w.T) / 2)
    assert (round(res.p_a, 3), round(res.p_e, 3), round(res.kappa, 3)) == (0.886, 0.521, 0.763)


ARTSTEIN_POESIO_TABLE_4 = np.array([[46, 6, 0], [0, 32, 0], [0, 6, 10]])  # coder A rows, coder B columns


def ratings_of_table(table: np.ndarray) -> Ratings:
    pairs = [(i, j) for i in range(len(table)) for j in range(len(table)) for _ in range(int(table[i, j]))]
    return Ratings.from_codes(np.array(pairs), categories=["Stat", "IReq", "Chck"], raters=["A", "B"])


def test_artstein_and_poesio_table_4():
    """A_o = 0.88; S = 0.82, pi = 0.7995 and kappa = 0.8013 (scikit-learn's own test uses this table for kappa)."""
    r = ratings_of_table(ARTSTEIN_POESIO_TABLE_4)
    pi = scott_pi(r, "A", "B")
    assert pi.exact.p_a == Fraction(22, 25) and pi.exact.p_e == Fraction(4014, 10000)
    assert f"{pi:.4f}" == "0.7995" and pi.exact.pi == Fraction(2393, 2993)
    assert dict(zip(r.categories, pi.p_k.tolist())) == {"Stat": 0.49, "IReq": 0.38, "Chck": 0.13}
    assert f"{brennan_prediger(r):.2f}" == "0.82" and brennan_prediger(r).exact.p_e == Fraction(1, 3)
    kappa = cohen_kappa(r, "A", "B")
    assert f"{kappa:.4f}" == "0.8013"
    assert conger_kappa(r).exact.kappa == kappa.exact.kappa
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = TableCAC(pd.DataFrame(ARTSTEIN_POESIO_TABLE_4.T), digits=15).scott()["est"]
    assert abs(pi.pi - est["coefficient_value"]) <= TOL


# ------------------------------------------------------------- identities
@settings(max_examples=EXAMPLES // 2)
@given(case=family_cases(missing=False))
def test_two_raters_complete_data_identities(case):
    codes, values, weights = case
    r = to_ratings(codes[:, :2], values)
    pi = scott_pi(r, weights=weights).exact.pi
    for chance in ("pooled", "item_mean"):
        assert fleiss_kappa(r, chance=chance, weights=weights).exact.kappa == pi
    if (
        weights is None
        or isinstance(weights, str)
        and weights in ("linear", "quadratic")
        and values == list(range(1, len(values) + 1))
    ):
        assert conger_kappa(r, weights=weights).exact.kappa == cohen_kappa(r, weights=weights).exact.kappa
    s = brennan_prediger(r).exact
    p_o = Fraction(int((codes[:, 0] == codes[:, 1]).sum()), len(codes))
    q = len(values)
    bennett = (p_o - Fraction(1, q)) / (1 - Fraction(1, q))
    assert s.s == bennett and s.p_a == p_o


@settings(max_examples=EXAMPLES // 2)
@given(case=family_cases())
def test_ac1_equals_s_when_the_categories_are_used_equally(case):
    """Each table with all its label-rotated copies uses every category equally: p_k = 1/q, so AC1 = S."""
    codes, values, _ = case
    q = len(values)
    rotated = np.concatenate([np.where(codes >= 0, (codes + s) % q, -1) for s in range(q)])
    r = to_ratings(rotated, values)
    try:
        ac1 = gwet_ac(r).exact
    except AgreementError:
        assume(False)
    assert all(p == Fraction(1, q) for p in ac1.p_k)
    assert ac1.ac == brennan_prediger(r).exact.s


# ----------------------------------------- chance terms are derivatives
def summed(terms: dict, frequency) -> dict:
    """Each group's terms times its frequency, summed (a batch of one); exact numbers stay exact."""
    exact = any(np.asarray(t).dtype == object for t in terms.values())
    frequency = np.asarray(frequency, dtype=object if exact else float)
    if exact:
        frequency = np.array([Fraction(int(f)) for f in frequency], dtype=object)
    return {key: np.asarray(frequency @ value)[None] for key, value in terms.items()}


def check_chance_derivative(codes: np.ndarray, values: list, weights, model: str) -> bool:
    """P_e,i - P_e = (n / 2) dP_e / df_i: each item's chance term is its influence on P_e.

    f_i is how often item i (or its group of equal items) counts; the
    derivative is a central difference, accurate to O(h^2). This checks the
    chance terms of the variance, including the pooled rule's, which no
    library computes. False where there is nothing to check.
    """
    r = to_ratings(codes, values)
    if (codes >= 0).any(axis=1).sum() < 2 or not ((codes >= 0).sum(axis=1) >= 2).any():
        return False
    w = FM.agreement_matrix(weights, r.categories)
    groups = FM.row_groups(r, distinct=True) if model == "conger" else FM.pattern_groups(r.count_patterns())
    terms = FM.family_terms(groups, w)

    def fitted(frequency):
        if model != "conger":
            return FM.fit(model, summed(terms, frequency), w)
        onehot = (groups.rows[:, :, None] == np.arange(len(values))).astype(float)
        return FM.fit(model, summed(terms, frequency), w, np.tensordot(frequency, onehot, axes=1)[None])

    frequency = np.asarray(groups.frequency, dtype=float)
    at = fitted(frequency)
    if math.isnan(at.p_e[0]):
        return False
    rater_counts = r.rater_counts() if model == "conger" else None
    chance = np.broadcast_to(FM.item_chance(model, groups, terms, at, w, rater_counts), frequency.shape)
    h = 1e-5
    for g in np.flatnonzero(np.asarray(groups.size) >= 1)[:5]:
        bump = np.zeros_like(frequency)
        bump[g] = h
        derivative = (fitted(frequency + bump).p_e[0] - fitted(frequency - bump).p_e[0]) / (2 * h)
        assert abs(chance[g] - at.p_e[0] - at.n[0] / 2 * derivative) <= 1e-6, (model, g)
    return True


@settings(max_examples=EXAMPLES // 2)
@given(case=family_cases(), model=st.sampled_from(["pooled", "item_mean", "gwet", "conger"]))
def test_each_items_chance_term_is_the_derivative_of_p_e(case, model):
    assume(check_chance_derivative(*case, model))


@settings(max_examples=EXAMPLES)
@given(case=family_cases())
def test_exact_totals_from_sums_by_number_of_ratings_are_the_groups_own_sums(case):
    """The exact totals come from integer sums over the items with each number of ratings (a few
    fractions); summing each group's own exact terms instead gives the same fractions."""
    codes, values, weights = case
    r = to_ratings(codes, values)
    w = FM.agreement_matrix(weights, r.categories, exact=True)
    for groups in (FM.pattern_groups(r.count_patterns()), FM.row_groups(r, distinct=True)):
        totals = FM.family_totals(groups, w)
        each = summed(FM.family_terms(groups, w), groups.frequency)
        assert {key: value.tolist() for key, value in totals.items()} == {
            key: value.tolist() for key, value in each.items()
        }


# ---------------------------------------------- the checks can fail
def raw4() -> np.ndarray:
    return np.where(np.isnan(RAW_4RATERS), -1, RAW_4RATERS - 1).astype(int)


FAMILY_CHECKS = {
    "gwet": lambda w: compare(gwet_ac, "gwet", raw4(), [1, 2, 3, 4, 5], w),
    "fleiss": lambda w: compare(fleiss_kappa, "fleiss", raw4(), [1, 2, 3, 4, 5], w, chance="item_mean"),
    "bp": lambda w: compare(brennan_prediger, "bp", raw4(), [1, 2, 3, 4, 5], w),
    "conger": lambda w: compare(conger_kappa, "conger", raw4(), [1, 2, 3, 4, 5], w),
}


def broken(real, change):
    return lambda *args, **kwargs: change(real(*args, **kwargs))


@pytest.mark.parametrize(
    "formula, change, checks",
    [
        ("gwet_chance", lambda p_e: p_e * 1.01, ["gwet"]),
        ("uniform_chance", lambda p_e: p_e * 1.01, ["bp"]),
        ("conger_chance", lambda p_e: p_e * 1.01, ["conger"]),
        ("fleiss_chance", lambda p_e: p_e * 1.01, ["fleiss"]),
        (
            "gwet_weights",
            lambda w: np.where(np.eye(len(w), dtype=bool), w, w * 0.9),
            ["gwet", "fleiss", "bp", "conger"],
        ),
        ("linearized_terms", lambda t: t * 1.01, ["gwet", "fleiss", "bp", "conger"]),
        ("sum_of_squares", lambda s: s * 1.01, ["gwet", "fleiss", "bp", "conger"]),
        ("linearized_variance", lambda v: v * 1.01, ["gwet", "fleiss", "bp", "conger"]),
        ("gwet_item_chance", lambda t: t * 1.01, ["gwet"]),
        ("fleiss_item_chance", lambda t: t * 1.01, ["fleiss"]),
        ("conger_item_chance", lambda t: t * 1.01, ["conger"]),
        ("conger_parts", lambda parts: (*parts[:2], parts[2] * 1.01, parts[3]), ["conger"]),
        ("observed_agreement", lambda p_a: p_a * 0.99, ["gwet", "fleiss", "bp", "conger"]),
        ("category_shares", lambda p: p * 0.99, ["gwet", "fleiss"]),
        ("divide", lambda x: x * 1.01, ["gwet", "fleiss", "bp", "conger"]),
    ],
)
@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_check_fails_when_a_family_formula_is_broken(monkeypatch, formula, change, checks, weights):
    for name in checks:
        assert FAMILY_CHECKS[name](weights)
    monkeypatch.setattr(formulas, formula, broken(getattr(formulas, formula), change))
    for name in checks:
        if formula == "gwet_weights" and weights is None:
            continue  # the identity has no off-diagonal weight to break
        with pytest.raises(AssertionError):
            FAMILY_CHECKS[name](weights)


@pytest.mark.parametrize("formula", ["ratio_item_terms", "fleiss_chance", "linearized_terms"])
def test_alpha_check_fails_when_its_formulas_are_broken(monkeypatch, formula):
    codes = raw4()
    r = to_ratings(codes, [1, 2, 3, 4, 5])
    reference, _ = gwet_r_alpha(codes, np.eye(5))
    assert abs(krippendorff_alpha(r).se - reference) <= SE_TOL
    monkeypatch.setattr(formulas, formula, broken(getattr(formulas, formula), lambda x: x * 1.01))
    assert abs(krippendorff_alpha(r).se - reference) > SE_TOL


def test_pooled_variance_check_fails_when_ratio_terms_are_broken(monkeypatch):
    """The pooled chance rule's item terms (no oracle) are checked by their derivative; that check can fail."""
    assert check_chance_derivative(raw4(), [1, 2, 3, 4, 5], None, "pooled")
    monkeypatch.setattr(formulas, "ratio_item_terms", broken(formulas.ratio_item_terms, lambda t: t * 1.01))
    with pytest.raises(AssertionError):
        check_chance_derivative(raw4(), [1, 2, 3, 4, 5], None, "pooled")


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_check_fails_when_its_variance_is_broken(monkeypatch, weights):
    codes = np.array([[0, 0], [1, 2], [2, 2], [1, 0], [2, 1], [0, 0], [2, 2], [0, 2], [1, 1], [0, 0]])
    assert check_cohen_se(codes, 3, weights)
    real = formulas.cohen_variance
    monkeypatch.setattr(formulas, "cohen_variance", lambda t, a: tuple(v * 1.01 for v in real(t, a)))
    with pytest.raises(AssertionError):
        check_cohen_se(codes, 3, weights)
