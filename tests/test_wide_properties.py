"""Every coefficient against its reference library on tables of every shape (issue 19).

The course's own tables have 3-5 categories and a handful of raters; a core
that is right there can still be wrong at 17 categories (as pair tables were,
issue 19) or at 257. Here seeded random tables range over

- 1-2,000 items, 2-40 raters, 1-300 categories (the category counts drawn
  across 15/16/17 and 255/256/257, where code storage types change),
- labels as small, large (around 10**12) and negative ints, floats and
  strings, passed as a float array with NaN, an object array with None, a
  list of lists or a pandas DataFrame, with the categories declared (some
  unused) or taken from the data, a third of them with a population size
  (the finite-population correction of the standard errors),
- 0-90 % of the cells missing, and agreement from pure noise to near-perfect,

and, beside them, explicit tables of 15, 16 (with a missing cell), 17, 255,
256, 257 and 300 categories run every time. Each coefficient is compared with

- scikit-learn's ``cohen_kappa_score``: Cohen's kappa unweighted, linear and
  quadratic, for every pair of :func:`pairwise_cohen`;
- statsmodels: ``cohens_kappa``'s standard errors, ``fleiss_kappa`` on
  complete tables (Fleiss' and Randolph's, which is Brennan-Prediger's S);
- the ``krippendorff`` package: alpha at every level;
- irrCAC 0.4: Gwet's AC1/AC2, Fleiss' kappa (item-mean chance), Brennan and
  Prediger, Conger, Scott's pi (irrCAC's Fleiss of the two raters) and their
  standard errors, alpha's standard error where Gwet's two versions agree;
- where no library covers a case (Fleiss' pooled chance rule with missing
  ratings and weights, percent agreement, Conger's kappa on many
  categories), a plain reference written below from the textbook formulas.

No reference value comes from iaa_teach: the tests build their own codes,
category lists, weight matrices (irrCAC's ``Weights``) and count tables.

irrCAC's quirks, handled in :func:`irrcac`: it divides by zero below 2 rated
items and at P_e = 1 in plain Python; with one category it sets P_e to
1 - 1e-15 (Gwet) or 1e-15 (Brennan-Prediger) instead of saying it is
undefined; it sorts numeric categories for its weights, so it is given them
sorted; a rater with no rating makes its Conger's kappa NaN; its Conger
variance loops over q^2 category pairs in pandas (minutes at 300
categories), so it is asked for Conger only up to 10 categories, and beyond
that Conger's kappa is compared with the plain reference and its standard
error left to tests/test_family_oracles.py.

Undefined: where iaa_teach says NaN, it gives a reason, and the oracle is
undefined too (NaN, an error, or, for irrCAC's one-category quirk, skipped
with that reason). Where no item has 2 ratings, iaa_teach raises an
``AgreementError`` naming the problem, and the references have no item to
use either.
"""

from __future__ import annotations

import functools
import math
import warnings
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from irrCAC.raw import CAC
from irrCAC.weights import Weights
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import iaa_teach as iaa
from iaa_teach import AgreementError, Ratings
from iaa_teach import _formulas as formulas

TOL, SE_TOL = 1e-9, 1e-6
SEED = 19
SCHEMES = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
LEVELS = ("nominal", "ordinal", "interval", "ratio")
KINDS = ("small", "large", "negative", "float", "str")
EDGES = (1, 2, 3, 5, 15, 16, 17, 255, 256, 257, 300)
CONGER_IRRCAC_MAX_Q = 10  # irrCAC's Conger variance loops over q^2 category pairs in pandas (0.1 s each)
IRRCAC_MAX_Q = 40  # irrCAC counts each category in its own pandas pass: beyond this, explicit cases only
KRIPPENDORFF_MAX_CELLS = 5 * 10**6  # the krippendorff package holds units x values x values floats


# ------------------------------------------------------------------ tables
class Case:
    """A random table and everything a reference needs, built without iaa_teach.

    ``codes``: items x raters, index into ``categories`` (-1 missing);
    ``categories``: the reference's category list (declared ones, or the
    sorted labels seen); ``table``: the same ratings as the user brings them.
    """

    def __init__(self, name, codes, labels, kind, declared, style):
        self.name, self.kind, self.declared = name, kind, declared
        used = sorted({int(c) for c in codes[codes >= 0].tolist()})
        if declared:  # every label, used or not, in their order (numbers ascending, text as generated)
            order = list(range(len(labels)))
            if kind != "str":
                order.sort(key=lambda c: labels[c])
        else:
            order = sorted(used, key=lambda c: labels[c])
        position = np.full(len(labels) + 1, -1)
        position[order] = np.arange(len(order))
        self.categories = [labels[c] for c in order]
        self.codes = np.where(codes >= 0, position[np.maximum(codes, 0)], -1)
        self.numeric = kind != "str"
        self.ordered = declared or self.numeric
        cells = np.where(codes >= 0, codes, len(labels))
        if style == "array" and self.numeric:
            values = np.array([float(x) for x in labels] + [np.nan])
            table = values[cells]
        else:
            values = np.array(list(labels) + [None], dtype=object)
            table = values[cells]
            if style == "list":
                table = table.tolist()
            elif style == "frame":
                table = pd.DataFrame(table, columns=[f"r{j}" for j in range(codes.shape[1])])
        self.style = style
        self.table = table

    #: The size of the population the items were drawn from (finite-population correction), or None.
    population = None

    @property
    def q(self) -> int:
        return len(self.categories)

    @functools.cached_property
    def ratings(self) -> Ratings:
        categories = self.categories if self.declared else None
        return Ratings.from_rows(self.table, categories=categories, max_categories=300)

    @functools.cached_property
    def counts(self) -> np.ndarray:
        """Items x categories: n_ik."""
        return counts_of(self.codes, self.q)

    @property
    def values(self) -> list[float]:
        """The categories as numbers for Gwet's weights and irrCAC: values, or 1..q for text."""
        if self.numeric:
            return [float(c) for c in self.categories]
        return [float(i + 1) for i in range(self.q)]

    def __repr__(self) -> str:
        n, r = self.codes.shape
        share = float((self.codes < 0).mean())
        return f"{self.name}: {n} x {r}, q={self.q}, {self.kind} ({self.style}), {share:.0%} missing"


def labels_of(kind: str, k: int, rng: np.random.Generator) -> list:
    """k distinct labels of a kind (in no particular order for text)."""
    c = np.arange(k)
    if kind == "small":
        return [int(x) for x in c + int(rng.integers(0, 2))]
    if kind == "large":  # exact in a float, far from 0
        return [10**12 + 7919 * int(x) for x in c]
    if kind == "negative":
        return [-5 * int(x) - 1 for x in c]
    if kind == "float":
        return [float(x) / 4 - 30.3 for x in c]
    words = [f"tag{int(x):03d}" for x in rng.permutation(k)]  # text whose sorted order is not its codes'
    return words


def make_case(name, rng, n_items, n_raters, k, kind, missing, p_agree, declared, style, every=False) -> Case:
    truth = rng.integers(0, k, size=n_items)
    if every:  # every category occurs: rater 0 gives each one
        truth = rng.permutation(np.arange(n_items) % k)
    own = rng.integers(0, k, size=(n_items, n_raters))
    codes = np.where(rng.random((n_items, n_raters)) < p_agree, truth[:, None], own)
    if every:
        codes[:, 0] = truth
    if missing:
        holes = rng.random((n_items, n_raters)) < missing
        if every:
            holes[:, 0] = False
        codes = np.where(holes, -1, codes)
    return Case(name, codes, labels_of(kind, k, rng), kind, declared, style)


def random_case(index: int) -> Case:
    rng = np.random.default_rng([SEED, index])
    size = index % 20
    if size == 0:  # big: few
        n_items, n_raters = [(2000, 40), (2000, 2), (1500, 25), (800, 3), (1200, 12)][index // 20 % 5]
    elif size < 4:
        n_items, n_raters = int(rng.integers(60, 400)), int(rng.integers(2, 16))
    else:  # small: many
        n_items, n_raters = int(rng.integers(1, 60)), int(rng.integers(2, 9))
    if (
        n_items > 100 and n_raters > 12
    ):  # irrCAC and 780 sklearn calls stay quick: few categories on the widest
        k = int(rng.choice([2, 5, 16, 17]))
    elif rng.random() < 0.6:
        k = int(rng.choice(EDGES))
    else:
        k = int(rng.integers(1, 301))
    kind = KINDS[index % len(KINDS)]
    missing = float(rng.choice([0.0, 0.0, 0.1, 0.3, 0.6, 0.9]))
    p_agree = float(rng.choice([0.0, 0.5, 0.9]))
    declared = bool(rng.random() < 0.4)
    style = str(rng.choice(["array", "list", "frame"]))
    case = make_case(f"random {index}", rng, n_items, n_raters, k, kind, missing, p_agree, declared, style)
    rated = int((case.codes >= 0).any(axis=1).sum())
    if (
        index % 3 == 1 and rated
    ):  # a third of the tables: items drawn from a population 1-4 times their number
        case.population = rated * int(rng.integers(1, 5))
    return case


N_RANDOM = 100
# (k, share missing): 16 with a missing cell was the first wrong case of issue 19
EXPLICIT = [(15, 0.0), (16, 0.05), (17, 0.0), (255, 0.0), (256, 0.1), (257, 0.0), (300, 0.2)]


@functools.lru_cache(maxsize=None)
def case_of(key: str) -> Case:
    kind, _, index = key.partition(" ")
    if kind == "random":
        return random_case(int(index))
    k, missing = EXPLICIT[int(index)]
    rng = np.random.default_rng([SEED, 1000 + k])
    n_items = 3 * k if k < 255 else k + 5
    case = make_case(
        f"explicit {k}",
        rng,
        n_items,
        4,
        k,
        KINDS[int(index) % len(KINDS)],
        missing,
        0.7,
        False,
        "array",
        True,
    )
    assert case.q == k and (missing == 0 or (case.codes < 0).any())
    return case


CASES = [f"explicit {i}" for i in range(len(EXPLICIT))] + [f"random {i}" for i in range(N_RANDOM)]


# ------------------------------------------------------------- comparisons
def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def same(ours: float, theirs: float, tol: float = TOL) -> bool:
    if not math.isfinite(theirs):
        return math.isnan(ours)
    return abs(ours - theirs) <= tol


def undefined_with_reason(res) -> None:
    assert math.isnan(float(res)), res
    assert isinstance(res.reason, str) and len(res.reason) > 20, res


def pairable(case: Case) -> bool:
    return bool(((case.codes >= 0).sum(axis=1) >= 2).any())


def no_pairable_unit(call) -> None:
    with pytest.raises(AgreementError, match="2 or more ratings"):
        call()


def weights_of(case: Case, scheme) -> np.ndarray:
    """Gwet's agreement weights from irrCAC's ``Weights`` (sorted numbers, or 1..q for text)."""
    if scheme is None or case.q < 2:
        return np.eye(case.q)
    return np.asarray(Weights(case.values)[scheme], dtype=float)


def valid_scheme(case: Case, scheme) -> bool:
    """Whether iaa_teach should accept the scheme; else it must say why (asserted by the caller)."""
    if scheme is not None and not case.ordered:
        return False
    if scheme == "ratio" and case.q > 1 and min(case.values) <= 0:
        return False
    return True


# ------------------------------------------------------------------ Cohen
def sklearn_kappa(codes: np.ndarray, q: int, a: int, b: int, weights) -> float | None:
    """sklearn on the items both rated, over every category; None where they share no item."""
    both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
    if not both.any():
        return None
    return float(
        quiet(cohen_kappa_score, codes[both, a], codes[both, b], labels=list(range(q)), weights=weights)
    )


def check_cohen_result(res, codes: np.ndarray, q: int, a: int, b: int, weights, se: bool = True) -> float:
    """One pair's kappa against sklearn (and its standard errors against statsmodels); sklearn's value."""
    ref = sklearn_kappa(codes, q, a, b, weights)
    if ref is None:
        undefined_with_reason(res)
        assert "never rated the same item" in res.reason
        return math.nan
    assert same(res.kappa, ref), (a, b, weights, res.kappa, ref)
    if math.isnan(ref):
        undefined_with_reason(res)
        return ref
    both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
    assert res.n_items == int(both.sum())
    if not se:
        return ref
    if res.n_items < 2:
        assert math.isnan(res.se) and res.se_reason
        return
    table = np.zeros((q, q))
    np.add.at(table, (codes[both, a], codes[both, b]), 1)
    theirs = quiet(sm_cohens_kappa, table, wt=weights)
    for ours, sm in ((res.se, theirs.std_kappa), (res.se_null, theirs.std_kappa0)):
        if math.isnan(sm):  # statsmodels' sqrt of a variance that rounding made a hair below 0
            assert ours <= SE_TOL
        else:
            assert abs(ours - sm) <= SE_TOL, (ours, sm)
    return ref


def check_cohen(case: Case, rng: np.random.Generator) -> int:
    """Cohen's kappa, unweighted, linear and quadratic, on raters (0, 1) and one random pair."""
    r, n_raters = case.ratings, case.codes.shape[1]
    pairs = {(0, 1), tuple(sorted(rng.choice(n_raters, 2, replace=False).tolist()))}
    for a, b in sorted(pairs):
        for weights in (None, "linear", "quadratic"):
            if weights and not case.ordered:
                with pytest.raises(AgreementError, match="order of the categories"):
                    iaa.cohen_kappa(r, a, b, weights=weights)
                continue
            check_cohen_result(iaa.cohen_kappa(r, a, b, weights=weights), case.codes, case.q, a, b, weights)
    return len(pairs)


def check_pairwise(case: Case, weights) -> int:
    r = case.ratings
    res = iaa.pairwise_cohen(r, weights=weights)
    pairs = list(combinations(range(case.codes.shape[1]), 2))
    assert res.pairs == tuple((r.raters[a], r.raters[b]) for a, b in pairs)
    refs = []
    for (a, b), got in zip(pairs, res.results):
        refs.append(check_cohen_result(got, case.codes, case.q, a, b, weights, se=False))
        assert same(res.matrix[a, b], refs[-1]) and same(res.matrix[b, a], refs[-1])
    assert same(res.mean_kappa, float(np.mean(refs)))
    if math.isnan(res.mean_kappa):
        assert res.reason
    return len(pairs)


# ----------------------------------------------------- the plain references
def counts_of(codes: np.ndarray, q: int) -> np.ndarray:
    """Items x categories: n_ik, from codes (-1 missing)."""
    out = np.zeros((len(codes), max(q, 1)), dtype=np.int64)
    i, j = np.nonzero(codes >= 0)
    np.add.at(out, (i, codes[i, j]), 1)
    return out


def plain_family(counts: np.ndarray, w: np.ndarray, model: str):
    """(coefficient, P_a, P_e), per-item raters, agreement weights w (Gwet 2014, ch. 2-4).

    P_a = mean over items with m_i >= 2 of (sum_kl w_kl n_ik n_il - m_i) / (m_i (m_i - 1));
    P_e: "pooled" sum w p_k p_l with p_k each category's share of all ratings;
    "item_mean" the same with p_k the mean over rated items of n_ik / m_i (Fleiss, Scott);
    "uniform" sum w / q^2 (Brennan-Prediger); "gwet" sum w / (q (q - 1)) sum p_k (1 - p_k)
    (AC1, AC2, p_k as item_mean); "none" 0 (percent agreement).
    """
    n = counts.astype(float)
    q = n.shape[1]
    m = n.sum(axis=1)
    two = m >= 2
    p_a = float(np.mean((((n @ w) * n).sum(axis=1)[two] - m[two]) / (m[two] * (m[two] - 1))))
    item_mean = (n[m >= 1] / m[m >= 1, None]).mean(axis=0)
    if model == "pooled":
        p_e = float((n.sum(axis=0) / n.sum()) @ w @ (n.sum(axis=0) / n.sum()))
    elif model == "item_mean":
        p_e = float(item_mean @ w @ item_mean)
    elif model == "uniform":
        p_e = float(w.sum() / q**2)
    elif model == "gwet":
        p_e = float(w.sum() / (q * (q - 1)) * np.sum(item_mean * (1 - item_mean))) if q > 1 else 1.0
    else:
        p_e = 0.0
    return ((p_a - p_e) / (1 - p_e) if 1 - p_e > 1e-12 else math.nan), p_a, p_e


def plain_conger(case: Case, w: np.ndarray) -> float:
    """Conger's kappa: Fleiss' P_a; P_e the mean over pairs of raters of sum w p_gk p_hl (own proportions)."""
    _, p_a, _ = plain_family(case.counts, w, "none")
    active = [j for j in range(case.codes.shape[1]) if (case.codes[:, j] >= 0).any()]
    props = []
    for j in active:
        col = case.codes[:, j]
        props.append(np.bincount(col[col >= 0], minlength=case.q) / (col >= 0).sum())
    terms = [props[g] @ w @ props[h] for g, h in combinations(range(len(props)), 2)]
    p_e = float(np.mean(terms)) if terms else math.nan
    return (p_a - p_e) / (1 - p_e) if 1 - p_e > 1e-12 else math.nan


def plain_percent_agreement_se(counts: np.ndarray, w: np.ndarray, population: int | None = None) -> float:
    """irrCAC for R's ``pa.coeff.raw`` standard error (Gwet 2014), over the rated items (N: population)."""
    n = counts.astype(float)
    m = n.sum(axis=1)
    n, m = n[m >= 1], m[m >= 1]
    agree = ((n @ w) * n).sum(axis=1) - m
    terms = np.where(m >= 2, agree / np.maximum(m * (m - 1), 1), 0.0)
    n_rated, n2 = len(m), int((m >= 2).sum())
    if n_rated < 2:
        return math.nan
    p_a = terms.sum() / n2
    fpc = 1 - n_rated / population if population else 1.0
    return math.sqrt(fpc * np.sum((n_rated / n2 * terms - p_a) ** 2) / (n_rated * (n_rated - 1)))


def plain_alpha(codes: np.ndarray, values: np.ndarray, level: str) -> float:
    """Krippendorff's alpha (2011) from its coincidence matrix, unit by unit (units with >= 2 values)."""
    n = counts_of(codes, len(values)).astype(float)
    m = n.sum(axis=1)
    n, m = n[m >= 2], m[m >= 2]
    o = (n / (m - 1)[:, None]).T @ n - np.diag((n / (m - 1)[:, None]).sum(axis=0))
    n_c = o.sum(axis=1)
    total = n_c.sum()
    e = (np.outer(n_c, n_c) - np.diag(n_c)) / (total - 1)
    v = np.asarray(values, dtype=float)
    if level == "nominal":
        delta = 1 - np.eye(len(v))
    elif level == "ordinal":
        cum = np.concatenate([[0], np.cumsum(n_c)])
        i, j = (
            np.minimum.outer(np.arange(len(v)), np.arange(len(v))),
            np.maximum.outer(np.arange(len(v)), np.arange(len(v))),
        )
        delta = (cum[j + 1] - cum[i] - (n_c[i] + n_c[j]) / 2) ** 2
    elif level == "interval":
        delta = np.subtract.outer(v, v) ** 2
    else:
        total_v = np.add.outer(v, v)
        delta = np.divide(
            np.subtract.outer(v, v) ** 2, total_v**2, out=np.zeros_like(total_v), where=total_v != 0
        )
    if (n_c > 0).sum() < 2:  # every pairable value in one category: D_e = 0
        return math.nan
    return 1 - float((o * delta).sum()) / float((e * delta).sum())


# ---------------------------------------------------------------- irrCAC
def irrcac(case: Case, scheme, method: str, codes: np.ndarray | None = None, fpc: bool = True) -> dict:
    """irrCAC's raw-ratings ``method``; {"skip": reason} where it cannot say, {"undefined": ...} at P_e = 1.

    With the case's population size (N, the finite-population correction) unless ``fpc`` is False.
    """
    population = case.population if fpc else None
    codes = case.codes if codes is None else codes
    if (codes >= 0).any(axis=1).sum() < 2:
        return {"too_few_items": True}
    if case.q < 2:
        return {"skip": "one category: irrCAC sets P_e to 1 - 1e-15 or 1e-15 instead of calling it undefined"}
    if case.q > IRRCAC_MAX_Q and not (case.name.startswith("explicit") and scheme is None):
        return {"skip": f"{case.q} categories: irrCAC takes seconds; the plain reference checks the value"}
    values = np.asarray(case.values)
    order = np.argsort(values, kind="stable")  # irrCAC sorts numeric categories for its weights
    table = pd.DataFrame(np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan))
    cac = CAC(
        table,
        weights="identity" if scheme is None else scheme,
        categories=values[order].tolist(),
        N=math.inf if population is None else population,
        digits=15,
    )
    try:
        return quiet(getattr(cac, method))["est"]
    except ZeroDivisionError:  # P_e = 1 in plain Python floats
        return {"undefined": True}


def check_family(res, est: dict, se: bool = True) -> None:
    """Coefficient, P_a, P_e and the standard error and interval against irrCAC's estimate."""
    if "skip" in est:
        return
    if est.get("too_few_items"):
        assert math.isnan(res.se) and res.se_reason
        return
    if est.get("undefined") or 1 - float(est["pe"]) <= 1e-12:
        undefined_with_reason(res)
        return
    assert same(float(res), float(est["coefficient_value"])), (float(res), est)
    assert same(res.p_a, float(est["pa"])), (res.p_a, est)
    assert same(res.p_e, float(est["pe"])), (res.p_e, est)
    if not se:
        return
    theirs = float(est["se"])
    if res.df >= 1 and math.isfinite(theirs):
        assert abs(res.se - (0.0 if theirs == 1e-15 else theirs)) <= SE_TOL, (res.se, est)
        low, high = res.ci()
        assert abs(low - float(est["confidence_interval"][0])) <= 10 * SE_TOL
        assert abs(high - float(est["confidence_interval"][1])) <= 10 * SE_TOL
    else:
        assert math.isnan(res.se) and res.se_reason


def family_call(function, case: Case, scheme, **kwargs):
    """Our coefficient; None where the scheme is refused or no item has 2 ratings (both asserted)."""
    if not valid_scheme(case, scheme):
        with pytest.raises(AgreementError, match="order of the categories|positive category values"):
            function(case.ratings, weights=scheme, population=case.population, **kwargs)
        return None
    if not pairable(case):
        no_pairable_unit(lambda: function(case.ratings, weights=scheme, population=case.population, **kwargs))
        return None
    return function(case.ratings, weights=scheme, population=case.population, **kwargs)


def check_fleiss(case: Case, scheme) -> None:
    w = weights_of(case, scheme)
    for chance in ("pooled", "item_mean"):
        res = family_call(iaa.fleiss_kappa, case, scheme, chance=chance)
        if res is None:
            return
        kappa, p_a, p_e = plain_family(case.counts, w, chance)
        assert same(res.kappa, kappa) and same(res.p_a, p_a) and same(res.p_e, p_e), (chance, res, kappa)
        if math.isnan(kappa):
            undefined_with_reason(res)
        if chance == "item_mean":
            check_family(res, irrcac(case, scheme, "fleiss"))
        if scheme is None and not (case.codes < 0).any():  # statsmodels: the same raters on every item
            ref = float(quiet(sm_fleiss_kappa, case.counts, method="fleiss"))
            assert same(res.kappa, ref), (chance, res.kappa, ref)


def check_family_rest(case: Case, scheme) -> None:
    """Percent agreement, Brennan-Prediger, Gwet's AC1/AC2, Conger and Scott's pi."""
    w = weights_of(case, scheme)
    res = family_call(iaa.percent_agreement, case, scheme)
    if res is None:
        return
    r = case.ratings
    _, p_a, _ = plain_family(case.counts, w, "none")
    assert same(float(res), p_a) and res.p_e == 0
    assert same(res.se, plain_percent_agreement_se(case.counts, w, case.population), SE_TOL)
    for function, model, method in ((iaa.brennan_prediger, "uniform", "bp"), (iaa.gwet_ac, "gwet", "gwet")):
        got = function(r, weights=scheme, population=case.population)
        value, p_a, p_e = plain_family(case.counts, w, model)
        assert same(float(got), value) and same(got.p_a, p_a), (method, got, value)
        if math.isnan(value):  # one category: AC1's P_e is 0/0 (q (q - 1) = 0), and said so
            undefined_with_reason(got)
        else:
            assert same(got.p_e, p_e), (method, got, p_e)
        est = irrcac(case, scheme, method)
        check_family(got, est)
        if method == "bp" and "pa" in est:
            assert same(res.p_a, float(est["pa"]))
        if method == "bp" and scheme is None and case.q > 1 and not (case.codes < 0).any():
            ref = float(quiet(sm_fleiss_kappa, case.counts, method="randolph"))  # Randolph's = BP's S
            assert same(float(got), ref), (float(got), ref)
    conger = iaa.conger_kappa(r, weights=scheme, population=case.population)
    assert same(conger.kappa, plain_conger(case, w)), (conger.kappa, plain_conger(case, w))
    if case.q <= CONGER_IRRCAC_MAX_Q:
        active = (case.codes >= 0).any(axis=0)  # irrCAC gives NaN with a rater who rated nothing
        check_family(conger, irrcac(case, scheme, "conger", case.codes[:, active]))
    two = case.codes[:, :2]
    if not ((two >= 0).sum(axis=1) >= 2).any():
        no_pairable_unit(lambda: iaa.scott_pi(r, 0, 1, weights=scheme))
        return
    pi = iaa.scott_pi(r, 0, 1, weights=scheme)
    value, p_a, p_e = plain_family(counts_of(two, case.q), w, "item_mean")
    assert same(pi.pi, value) and same(pi.p_a, p_a) and same(pi.p_e, p_e), (pi, value)
    check_family(pi, irrcac(case, scheme, "fleiss", two, fpc=False))


# ------------------------------------------------------------------ alpha
def check_alpha(case: Case, level: str) -> None:
    r = case.ratings
    if level == "ordinal" and not case.ordered:
        with pytest.raises(AgreementError, match="order of the categories"):
            iaa.krippendorff_alpha(r, level)
        return
    if level in ("interval", "ratio") and not case.numeric:
        with pytest.raises(AgreementError, match="numeric categories"):
            iaa.krippendorff_alpha(r, level)
        return
    if level == "ratio" and min(case.values, default=0) < 0:
        with pytest.raises(AgreementError, match="non-negative"):
            iaa.krippendorff_alpha(r, level)
        return
    if not pairable(case):
        no_pairable_unit(lambda: iaa.krippendorff_alpha(r, level))
        return
    res = iaa.krippendorff_alpha(r, level, population=case.population)
    values = np.asarray(case.values) if level in ("interval", "ratio") else np.arange(case.q, dtype=float)
    plain = plain_alpha(case.codes, values, level)
    assert same(res.alpha, plain, TOL), (level, res.alpha, plain)
    units = int(((case.codes >= 0).sum(axis=1) >= 2).sum())
    many = (
        case.name in ("explicit 256", "explicit 300") and level == "nominal"
    )  # beyond the budget: once each
    if units * case.q**2 <= KRIPPENDORFF_MAX_CELLS or many:
        data = np.where(case.codes >= 0, values[np.maximum(case.codes, 0)], np.nan).T
        try:
            ref = float(
                quiet(
                    krippendorff.alpha, reliability_data=data, level_of_measurement=level, value_domain=values
                )
            )
        except ValueError as error:  # "There has to be more than one value in the domain."
            assert case.q == 1, error
            ref = math.nan
        assert same(res.alpha, ref), (level, res.alpha, ref)
    ref = plain
    if math.isnan(ref):
        undefined_with_reason(res)
        return
    # the standard error: irrCAC's (Gwet 2019) where every pairable unit has the same number of values,
    # the case in which it equals the corrected formula of irrCAC for R 1.0 (2021) that iaa_teach follows
    sizes = (case.codes >= 0).sum(axis=1)
    if level != "ordinal" and len(set(sizes[sizes >= 2].tolist())) == 1 and (sizes == 1).sum() == 0:
        scheme = {"nominal": None, "interval": "quadratic", "ratio": "ratio"}[level]
        if scheme == "ratio" and 0 in case.values:  # irrCAC refuses a 0 category for its ratio weights
            return
        est = irrcac(case, scheme, "krippendorff")
        if "coefficient_value" in est and math.isfinite(float(est["se"])) and res.df >= 1:
            assert same(res.alpha, float(est["coefficient_value"]))
            assert abs(res.se - (0.0 if est["se"] == 1e-15 else float(est["se"]))) <= SE_TOL, (res.se, est)


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("key", CASES)
def test_every_coefficient_matches_its_reference(key):
    case = case_of(key)
    rng = np.random.default_rng([SEED, 7, CASES.index(key)])
    r = case.ratings
    assert r.n_categories == case.q and r.shape == case.codes.shape
    assert np.array_equal(r.codes, case.codes), case
    check_cohen(case, rng)
    check_pairwise(case, rng.choice([None, "linear", "quadratic"]) if case.ordered else None)
    scheme = SCHEMES[int(rng.integers(len(SCHEMES)))]
    for weights in (None, scheme):
        check_fleiss(case, weights)
        check_family_rest(case, weights)
    for level in LEVELS:
        check_alpha(case, level)


def test_the_random_tables_cover_the_ranges():
    cases = [case_of(key) for key in CASES]
    shapes = [c.codes.shape for c in cases]
    assert min(n for n, _ in shapes) == 1 and max(n for n, _ in shapes) >= 1500
    assert min(r for _, r in shapes) == 2 and max(r for _, r in shapes) >= 30
    qs = {c.q for c in cases}
    assert {1, 15, 16, 17, 255, 256, 257, 300} <= qs
    assert {c.kind for c in cases} == set(KINDS) and {c.style for c in cases} >= {"array", "list", "frame"}
    shares = [float((c.codes < 0).mean()) for c in cases]
    assert min(shares) == 0 and max(shares) >= 0.85


# ------------------------------------------------- the checks can fail
def uint8_pair_tables(self, pairs):
    """Ratings.pair_tables as it was before issue 19's fix: code * (k + 1) computed in uint8."""
    k, k1 = self.n_categories, self.n_categories + 1
    codes = np.where(self.codes < 0, k, self.codes).astype(np.uint8 if k1 <= 256 else np.uint16)
    out = []
    for a, b in pairs:
        ia, ib = self.rater_index(a), self.rater_index(b)
        key = (
            np.multiply(codes[:, ia], k1, dtype=codes.dtype, casting="unsafe").astype(np.intp) + codes[:, ib]
        )
        out.append(np.bincount(key, minlength=k1 * k1)[: k1 * k1].reshape(k1, k1)[:-1, :-1])
    return np.array(out, dtype=np.int64)


def test_the_cohen_checks_catch_issue_19s_uint8_pair_tables(monkeypatch):
    """The old bug, put back: 17 categories wrap around in uint8, and sklearn disagrees."""
    case = case_of("explicit 2")
    assert case.q == 17
    rng = np.random.default_rng(0)
    check_cohen(case, rng)
    check_pairwise(case, None)
    monkeypatch.setattr(Ratings, "pair_tables", uint8_pair_tables)
    with pytest.raises(AssertionError):
        check_cohen(case, rng)
    with pytest.raises(AssertionError):
        check_pairwise(case, None)


def broken(real, change):
    return lambda *args, **kwargs: change(real(*args, **kwargs))


@pytest.mark.parametrize(
    "formula, check",
    [
        ("fleiss_chance", check_fleiss),
        ("gwet_chance", check_family_rest),
        ("uniform_chance", check_family_rest),
        ("conger_chance", check_family_rest),
        ("observed_agreement", check_family_rest),
        ("coincidences", lambda case, _: check_alpha(case, "nominal")),
    ],
)
def test_the_family_and_alpha_checks_catch_a_broken_formula(monkeypatch, formula, check):
    """Each formula, off by 1 %, fails its comparison on the 17-category table."""
    case = case_of("explicit 2")
    check(case, None)
    monkeypatch.setattr(formulas, formula, broken(getattr(formulas, formula), lambda x: x * 1.01))
    with pytest.raises(AssertionError):
        check(case, None)


# ---------------------------------- the 17-category class table, as a class sees it
POS_TAGS = (
    "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X"
).split()  # the 17 Universal Dependencies part-of-speech tags


def pos_class_table() -> tuple[list[list], list[str], np.ndarray]:
    """120 tokens tagged by 4 students (one left a token untagged): rows of tags, names, codes."""
    rng = np.random.default_rng([SEED, 17])
    n = 120
    truth = rng.permutation(np.arange(n) % 17)  # every tag occurs
    own = rng.integers(0, 17, size=(n, 4))
    codes = np.where(rng.random((n, 4)) < np.array([0.95, 0.8, 0.7, 0.55]), truth[:, None], own)
    codes[:, 0] = truth
    codes[5, 2] = -1  # a missing cell: 16 categories with the missing code was already wrong (issue 19)
    rows = [[POS_TAGS[c] if c >= 0 else None for c in row] for row in codes.tolist()]
    return rows, ["ana", "ben", "chloe", "dev"], codes


def half_up(x: float, places: int = 3) -> str:
    """A reference value rounded half up, as a student and the package's texts round it."""
    step = 10.0**-places
    assert abs(x / step - math.floor(x / step) - 0.5) > 1e-6, "a tie: choose another table"
    return str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def test_the_17_tag_class_table_shows_sklearns_kappas_everywhere():
    """The report, both pairwise heatmaps, the two-rater heatmap's title and explain show sklearn's kappas."""
    import matplotlib

    matplotlib.use("Agg")
    rows, names, codes = pos_class_table()
    r = Ratings.from_rows(rows, raters=names)
    assert r.categories == tuple(sorted(POS_TAGS))  # the codes below index POS_TAGS, which is sorted
    pairs = list(combinations(range(4), 2))
    want = {(names[a], names[b]): sklearn_kappa(codes, 17, a, b, None) for a, b in pairs}
    assert len({half_up(v) for v in want.values()}) == len(pairs)  # six different values to find
    mean = half_up(float(np.mean(list(want.values()))))

    text = iaa.report.text_report(r)
    for (a, b), kappa in want.items():
        line = next(line for line in text.splitlines() if line.startswith(f"  {a} vs {b} "))
        assert line.split()[3] == half_up(kappa), line
    light = next(line for line in text.splitlines() if "mean over pairs (Light)" in line)
    assert light.split()[4] == mean, light

    fig = iaa.plots.kappa_matrix(iaa.pairwise_cohen(r))  # cells row by row, the diagonal left blank
    shown = [t.get_text() for t in fig.axes[0].texts]
    assert shown == [
        half_up(want[tuple(sorted((names[i], names[j]), key=names.index))])
        for i in range(4)
        for j in range(4)
        if i != j
    ]
    assert f"(mean {mean})" in fig.axes[0].get_title()

    fig = iaa.plots.rater_agreement_heatmap(iaa.diagnose(r))  # clustered order, two decimals
    shown = sorted(t.get_text() for t in fig.axes[0].texts)
    assert shown == sorted(half_up(v, 2) for v in want.values() for _ in range(2))

    for (a, b), kappa in want.items():
        res = iaa.cohen_kappa(r, a, b)
        assert f"κ = {half_up(kappa)}" in iaa.plots.agreement_heatmap(res).axes[0].get_title()
        words = str(iaa.explain(res))
        assert f"≈ {half_up(kappa)}" in words and f"κ = {half_up(kappa)} " in words

    words = str(iaa.explain(iaa.pairwise_cohen(r)))
    for i, ((a, b), kappa) in enumerate(want.items(), start=1):
        section = words.split(f"{i}. {a} vs {b}\n")[1].split(f"\n\n{i + 1}. ")[0]
        assert section.rstrip().endswith(f"≈ {half_up(kappa)}"), section
    assert f"≈ {mean}\n" in words.split("Mean over pairs")[1]
