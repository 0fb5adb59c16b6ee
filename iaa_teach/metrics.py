"""Numbers out: Cohen's kappa, Fleiss' kappa, Krippendorff's alpha.

Each metric accepts a :class:`~iaa_teach.Ratings` (or anything
``Ratings.from_rows`` accepts) and returns a small frozen result object:
``float(result)`` is the coefficient, every intermediate quantity is an
attribute, and ``result.exact`` holds the same quantities as
:class:`fractions.Fraction`. Where a coefficient is undefined (all ratings in
one category) the value is NaN and ``result.reason`` says why.

The formulas are written once, vectorized over a leading "batch" axis, so the
point estimate and :func:`bootstrap_ci` share them. No Python loop runs over
items or rater pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import Any, Callable

import numpy as np

from .ratings import AgreementError, Ratings, as_ratings
from .rounding import format_number

__all__ = [
    "BANDS", "LEVELS", "WEIGHTS", "CHANCE_RULES",
    "CohenResult", "PairwiseCohenResult", "FleissResult", "AlphaResult", "BootstrapResult", "Exact",
    "cohen_kappa", "pairwise_cohen", "fleiss_kappa", "krippendorff_alpha", "interpret", "bootstrap_ci",
]

LEVELS = ("nominal", "ordinal", "interval", "ratio")
WEIGHTS = (None, "linear", "quadratic")
CHANCE_RULES = ("pooled", "item_mean")

#: Landis & Koch (1977) bands: (lower bound inclusive, upper bound, name).
BANDS = (
    (-1.0, 0.0, "poor"),
    (0.0, 0.20, "slight"),
    (0.20, 0.40, "fair"),
    (0.40, 0.60, "moderate"),
    (0.60, 0.80, "substantial"),
    (0.80, 1.0, "almost perfect"),
)

_EPS = 1e-12  # a chance term within this of 1 (or a D_e within it of 0) is treated as exactly there


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    a.setflags(write=False)
    return a


class Exact:
    """A read-only bag of exact values (``fractions.Fraction``, tuples of them)."""

    def __init__(self, **values: Any):
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("exact values are read-only")

    def __dir__(self):
        return list(self._values)

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def __repr__(self) -> str:
        def show(v: Any) -> str:
            if isinstance(v, tuple):
                return "(" + ", ".join(show(x) for x in v) + ")"
            return str(v)
        return "Exact(" + ", ".join(f"{k}={show(v)}" for k, v in self._values.items()) + ")"


class _Result:
    """Shared behaviour: float(), exact, readable repr."""

    _main = ""

    def __float__(self) -> float:
        return float(getattr(self, self._main))

    @property
    def value(self) -> float:
        return float(self)

    @property
    def defined(self) -> bool:
        return not math.isnan(float(self))

    @cached_property
    def exact(self) -> Exact:
        """The same quantities as exact fractions (computed on first use)."""
        return self._exact()

    def _exact(self) -> Exact:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def __format__(self, spec: str) -> str:
        """Format spec on the coefficient, rounded half up from its exact value (``f"{res:.3f}"``)."""
        exact = getattr(self.exact, self._main, None) if self._main in dir(self.exact) else float(self)
        return format_number(exact, spec)

    def _fmt(self, name: str) -> str:
        v = getattr(self, name)
        return f"{name}={v:.4f}" if not math.isnan(v) else f"{name}=nan"


def _fraction(value: Any) -> Fraction:
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    return Fraction(repr(float(value)))


def _ratio_or_none(num: Fraction, den: Fraction) -> Fraction | None:
    return None if den == 0 else num / den


# ====================================================================== Cohen
def _disagreement_weights(k: int, weights: str | None) -> np.ndarray:
    """k x k integer disagreement weights over the category order."""
    if weights not in WEIGHTS:
        raise AgreementError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    i, j = np.indices((k, k))
    if weights is None:
        return (i != j).astype(np.int64)
    d = np.abs(i - j).astype(np.int64)
    return d if weights == "linear" else d * d


def _agreement_weights(w: np.ndarray) -> np.ndarray:
    top = w.max()
    return 1.0 - w / top if top > 0 else np.ones_like(w, dtype=float)


def _cohen_from_tables(tables: np.ndarray, w: np.ndarray):
    """Batch formula. tables (B, k, k) counts -> kappa, p_o, p_e (each (B,))."""
    tables = tables.astype(float)
    agree = _agreement_weights(w)
    n = tables.sum(axis=(1, 2))
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = np.einsum("bij,ij->b", tables, agree) / n
        p_e = np.einsum("bi,bj,ij->b", rows, cols, agree) / (n * n)
        kappa = np.where(1.0 - p_e > _EPS, (p_o - p_e) / (1.0 - p_e), np.nan)
    return kappa, p_o, p_e


def _pair_tables(codes: np.ndarray, k: int, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """Agreement tables (P, k, k) for the rater pairs (ia[p], ib[p]); missing cells left out."""
    k1 = k + 1
    n_pairs = len(ia)
    flat = codes[:, ia].astype(np.intp) * k1 + codes[:, ib] + (np.arange(n_pairs, dtype=np.intp) * k1 * k1)
    tables = np.bincount(flat.ravel(), minlength=n_pairs * k1 * k1).reshape(n_pairs, k1, k1)
    return tables[:, :k, :k]


@dataclass(frozen=True, repr=False, eq=False)
class CohenResult(_Result):
    """Cohen's kappa for one pair of raters, with its working.

    Attributes
    ----------
    kappa, p_o, p_e : float
        The coefficient, observed and chance agreement (weighted agreement
        when ``weights`` is set: cell weights ``1 - w_ij / max(w)``).
    table : ndarray of int, shape (k, k)
        Rows: rater ``a``'s category; columns: rater ``b``'s.
    row_marginals, col_marginals : ndarray, shape (k,)
        Each rater's category proportions over the items used.
    weight_matrix : ndarray of int, shape (k, k)
        Disagreement weights (0/1, ``|i-j|`` or ``(i-j)**2``).
    n_items, n_dropped : int
        Items rated by both raters (used) and items left out.
    reason : str or None
        Why kappa is undefined (NaN), if it is.
    """

    kappa: float
    p_o: float
    p_e: float
    table: np.ndarray
    row_marginals: np.ndarray
    col_marginals: np.ndarray
    weight_matrix: np.ndarray
    rater_a: Any
    rater_b: Any
    categories: tuple
    weights: str | None
    n_items: int
    n_dropped: int
    reason: str | None = None
    _main = "kappa"

    def _exact(self) -> Exact:
        t = [[int(x) for x in row] for row in self.table]
        k = len(t)
        n = sum(map(sum, t))
        rows = [sum(r) for r in t]
        cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
        w = self.weight_matrix
        top = int(w.max())
        agree = [[Fraction(1) - (Fraction(int(w[i, j]), top) if top else 0) for j in range(k)] for i in range(k)]
        p_o = sum((agree[i][j] * t[i][j] for i in range(k) for j in range(k)), Fraction(0)) / n
        p_e = sum((agree[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k)), Fraction(0)) / (n * n)
        kappa = _ratio_or_none(p_o - p_e, 1 - p_e)
        return Exact(kappa=kappa, p_o=p_o, p_e=p_e,
                     row_marginals=tuple(Fraction(r, n) for r in rows),
                     col_marginals=tuple(Fraction(c, n) for c in cols),
                     agreement_weights=tuple(map(tuple, agree)))

    @property
    def agreement_weights(self) -> np.ndarray:
        """Agreement weights 1 - w_ij / max(w) (1 on the diagonal; 0/1 when unweighted)."""
        return _frozen(_agreement_weights(self.weight_matrix))

    def __repr__(self) -> str:
        w = "" if self.weights is None else f", weights={self.weights!r}"
        return (f"CohenResult({self.rater_a} vs {self.rater_b}: {self._fmt('kappa')}, {self._fmt('p_o')}, "
                f"{self._fmt('p_e')}, n_items={self.n_items}{w})")


def _cohen_results(r: Ratings, ia: list[int], ib: list[int], weights: str | None) -> list[CohenResult]:
    k = r.n_categories
    w = _disagreement_weights(k, weights)
    tables = _pair_tables(r._codes, k, np.asarray(ia, dtype=np.intp), np.asarray(ib, dtype=np.intp))
    n_used = tables.sum(axis=(1, 2))
    for p, n in enumerate(n_used):
        if n == 0:
            raise AgreementError(
                f"raters {r.raters[ia[p]]!r} and {r.raters[ib[p]]!r} never rated the same item, "
                f"so Cohen's kappa cannot compare them")
    kappa, p_o, p_e = _cohen_from_tables(tables, w)
    w = _frozen(w)
    out = []
    for p in range(len(ia)):
        table = _frozen(tables[p].copy())
        n = int(n_used[p])
        reason = None
        if math.isnan(kappa[p]):
            reason = (f"chance agreement P_e = 1: both raters put every one of the {n} shared items "
                      f"in the same single category, so kappa = 0/0 is undefined")
        out.append(CohenResult(
            kappa=float(kappa[p]), p_o=float(p_o[p]), p_e=float(p_e[p]), table=table,
            row_marginals=_frozen(table.sum(axis=1) / n), col_marginals=_frozen(table.sum(axis=0) / n),
            weight_matrix=w, rater_a=r.raters[ia[p]], rater_b=r.raters[ib[p]], categories=r.categories,
            weights=weights, n_items=n, n_dropped=r.n_items - n, reason=reason))
    return out


def cohen_kappa(ratings: Any, a: Any = 0, b: Any = 1, weights: str | None = None) -> CohenResult:
    """Cohen's kappa between raters ``a`` and ``b``.

    kappa = (P_o - P_e) / (1 - P_e), where P_o is the share of items on
    which the two agree and P_e = sum_j p_{j+} p_{+j} the agreement expected
    from each rater's own category proportions.

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells (``None``/NaN/``""``) allowed: items missing either
        rating are left out (``result.n_dropped`` counts them).
    a, b : str or int
        Rater names or column indices.
    weights : {None, "linear", "quadratic"}
        Disagreement weights over the category order (``|i-j|`` or
        ``(i-j)**2``), as ``sklearn.metrics.cohen_kappa_score`` uses them.

    Returns
    -------
    CohenResult

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = cohen_kappa(datasets.sentiment(), "A", "B")
    >>> print(round(res.kappa, 3), res.exact.kappa)
    0.492 29/59
    """
    r = as_ratings(ratings)
    ia, ib = r.rater_index(a), r.rater_index(b)
    if ia == ib:
        raise AgreementError(f"Cohen's kappa compares two different raters, but both are {r.raters[ia]!r}")
    return _cohen_results(r, [ia], [ib], weights)[0]


@dataclass(frozen=True, repr=False, eq=False)
class PairwiseCohenResult(_Result):
    """Cohen's kappa for every pair of raters.

    ``float(result)`` is the mean over pairs (Light's kappa); ``results``
    holds one :class:`CohenResult` per pair; ``matrix`` is raters x raters
    (NaN on the diagonal).
    """

    results: tuple
    pairs: tuple
    kappas: np.ndarray
    matrix: np.ndarray
    raters: tuple
    mean_kappa: float
    _main = "mean_kappa"

    def __getitem__(self, pair: tuple) -> CohenResult:
        a, b = pair
        for (x, y), res in zip(self.pairs, self.results):
            if (x, y) == (a, b) or (y, x) == (a, b):
                return res
        raise KeyError(pair)

    def __iter__(self):
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def _exact(self) -> Exact:
        ks = tuple(res.exact.kappa for res in self.results)
        mean = None if any(k is None for k in ks) else sum(ks, Fraction(0)) / len(ks)
        return Exact(kappas=ks, mean_kappa=mean)

    def __repr__(self) -> str:
        body = ", ".join(f"{a}-{b}: {k:.4f}" for (a, b), k in zip(self.pairs, self.kappas))
        return f"PairwiseCohenResult({body}; mean {self.mean_kappa:.4f})"


def pairwise_cohen(ratings: Any, weights: str | None = None) -> PairwiseCohenResult:
    """Cohen's kappa for every pair of raters (all tables in one vectorized pass).

    >>> from iaa_teach import datasets
    >>> res = pairwise_cohen(datasets.sentiment())
    >>> [f"{a}-{b} {k:.3f}" for (a, b), k in zip(res.pairs, res.kappas)]
    ['A-B 0.492', 'A-C 0.844', 'B-C 0.355']
    """
    r = as_ratings(ratings)
    pairs = list(combinations(range(r.n_raters), 2))
    results = _cohen_results(r, [p[0] for p in pairs], [p[1] for p in pairs], weights)
    kappas = np.array([res.kappa for res in results])
    matrix = np.full((r.n_raters, r.n_raters), np.nan)
    ia, ib = np.array(pairs).T
    matrix[ia, ib] = kappas
    matrix[ib, ia] = kappas
    return PairwiseCohenResult(
        results=tuple(results), pairs=tuple((r.raters[i], r.raters[j]) for i, j in pairs),
        kappas=_frozen(kappas), matrix=_frozen(matrix), raters=r.raters, mean_kappa=float(kappas.mean()))


# ===================================================================== Fleiss
def _by_count(m: np.ndarray, formula: Callable[[np.ndarray], np.ndarray], least: int) -> np.ndarray:
    """``formula(m)`` for every item, 0 where m < least: a table over the few
    possible counts 0..max(m), then one lookup (no per-item division)."""
    ms = np.arange(int(m.max(initial=0)) + 1, dtype=float)
    table = np.zeros_like(ms)
    table[least:] = formula(ms[least:])
    return table[m]


def _fleiss_item_parts(cf: np.ndarray, m: np.ndarray):
    """Per-item P_i (0 where undefined), pairable mask, 1/m_i (0 for unrated items)."""
    sq = (cf * cf) @ np.ones(cf.shape[1])
    p_i = (sq - m) * _by_count(m, lambda x: 1.0 / (x * (x - 1.0)), 2)
    return p_i, m >= 2, _by_count(m, lambda x: 1.0 / x, 1)


def _fleiss_item_features(counts: np.ndarray) -> np.ndarray:
    """Per-item quantities that Fleiss' kappa sums over: (n_items, 2k + 3).

    Columns: counts (k), P_i where defined else 0, 1 if P_i is defined,
    per-item proportions n_ij / n_i (k), 1 if the item has any rating.
    Summing the rows gives what :func:`_fleiss_from_sums` takes.
    """
    cf = counts.astype(float)
    m = counts.sum(axis=1).astype(np.intp)
    p_i, pairable, inv_m = _fleiss_item_parts(cf, m)
    return np.column_stack([cf, p_i, pairable, cf * inv_m[:, None], m > 0]).astype(float)


def _fleiss_from_sums(sums: np.ndarray, k: int, chance: str):
    """Batch formula on summed item features (B, 2k+3) -> kappa, p_a, p_e, p_j."""
    counts, sum_pi, n_pairable = sums[:, :k], sums[:, k], sums[:, k + 1]
    props, n_rated = sums[:, k + 2:2 * k + 2], sums[:, 2 * k + 2]
    with np.errstate(invalid="ignore", divide="ignore"):
        p_a = sum_pi / n_pairable
        if chance == "pooled":
            p_j = counts / counts.sum(axis=1, keepdims=True)
        else:
            p_j = props / n_rated[:, None]
        p_e = (p_j * p_j).sum(axis=1)
        kappa = np.where(1.0 - p_e > _EPS, (p_a - p_e) / (1.0 - p_e), np.nan)
    return kappa, p_a, p_e, p_j


@dataclass(frozen=True, repr=False, eq=False)
class FleissResult(_Result):
    """Fleiss' kappa with a per-item number of raters, and its working.

    Attributes
    ----------
    kappa, p_a, p_e : float
        The coefficient, mean observed agreement and chance agreement.
    p_i : ndarray, shape (n_items,)
        Agreement on each item, (sum_j n_ij^2 - n_i) / (n_i (n_i - 1));
        NaN for an item with fewer than 2 ratings.
    p_j : ndarray, shape (k,)
        Category proportions under the ``chance`` rule.
    counts : ndarray of int, shape (n_items, k)
        How many raters put item i in category j.
    raters_per_item : ndarray of int, shape (n_items,)
        n_i, the per-item k of the partial-annotation text.
    n_ratings : int
        All labels (single-rated items included).
    n_items_used : int
        Items with 2 or more ratings (those averaged into ``p_a``).
    chance : {"pooled", "item_mean"}
    reason : str or None
        Why kappa is undefined (NaN), if it is.
    """

    kappa: float
    p_a: float
    p_e: float
    p_i: np.ndarray
    p_j: np.ndarray
    counts: np.ndarray
    raters_per_item: np.ndarray
    n_ratings: int
    n_items_used: int
    chance: str
    categories: tuple
    reason: str | None = None
    _main = "kappa"

    def _exact(self) -> Exact:
        counts = self.counts.astype(np.int64)
        m = self.raters_per_item.astype(np.int64)
        sq = (counts * counts).sum(axis=1)
        p_i = tuple(Fraction(int(s - mi), int(mi * (mi - 1))) if mi >= 2 else None for s, mi in zip(sq, m))
        p_a = Fraction(0)
        n_used = 0
        props = [Fraction(0)] * counts.shape[1]
        n_rated = 0
        for size in np.unique(m):  # one step per distinct number of raters, not per item
            group = m == size
            size = int(size)
            if size >= 2:
                p_a += Fraction(int((sq[group] - size).sum()), size * (size - 1))
                n_used += int(group.sum())
            if size >= 1:
                col = counts[group].sum(axis=0)
                props = [p + Fraction(int(c), size) for p, c in zip(props, col)]
                n_rated += int(group.sum())
        p_a /= n_used
        if self.chance == "pooled":
            total = int(counts.sum())
            p_j = tuple(Fraction(int(c), total) for c in counts.sum(axis=0))
        else:
            p_j = tuple(p / n_rated for p in props)
        p_e = sum((p * p for p in p_j), Fraction(0))
        return Exact(kappa=_ratio_or_none(p_a - p_e, 1 - p_e), p_a=p_a, p_e=p_e, p_j=p_j, p_i=p_i)

    def __repr__(self) -> str:
        return (f"FleissResult({self._fmt('kappa')}, {self._fmt('p_a')}, {self._fmt('p_e')}, "
                f"chance={self.chance!r}, items used={self.n_items_used}, ratings={self.n_ratings})")


def fleiss_kappa(ratings: Any, chance: str = "pooled") -> FleissResult:
    """Fleiss' kappa, with the number of raters allowed to vary per item.

    P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)) for each item with n_i >= 2
    ratings; P_a is their mean; P_e = sum_j p_j^2; kappa = (P_a - P_e) / (1 - P_e).

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells allowed. Items with fewer than 2 ratings are left out
        of P_a (their P_i is NaN) but still count towards ``p_j`` under the
        pooled rule.
    chance : {"pooled", "item_mean"}
        ``"pooled"``: p_j = share of all ratings in category j (the
        partial-annotation text's rule, "all available annotations").
        ``"item_mean"``: p_j = mean over rated items of n_ij / n_i (the
        Cambridge MLRD notes' and Gwet's rule). On complete data both equal
        the classic Fleiss (1971) kappa.

    Returns
    -------
    FleissResult

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = fleiss_kappa(datasets.sentiment())
    >>> print(round(res.kappa, 3), res.exact.kappa, res.exact.p_e)
    0.564 31/55 7/18
    """
    if chance not in CHANCE_RULES:
        raise AgreementError(f"chance must be 'pooled' or 'item_mean', got {chance!r}")
    r = as_ratings(ratings)
    k = r.n_categories
    full = r._counts_with_missing()
    counts = full[:, :k]
    m = r.n_raters - full[:, k]
    cf = counts.astype(float)
    p_i, pairable, inv_m = _fleiss_item_parts(cf, m)
    n_pairable = np.count_nonzero(pairable)
    if n_pairable == 0:
        raise AgreementError(_NO_PAIRS)
    # the column sums of _fleiss_item_features, without building it
    sums = np.concatenate([np.ones(len(cf)) @ cf, [p_i.sum(), n_pairable], inv_m @ cf, [np.count_nonzero(m)]])
    kappa, p_a, p_e, p_j = _fleiss_from_sums(sums[None], k, chance)
    p_i = np.where(pairable, p_i, np.nan)
    reason = None
    if math.isnan(kappa[0]):
        reason = "chance agreement P_e = 1: every rating is in one category, so kappa = 0/0 is undefined"
    return FleissResult(
        kappa=float(kappa[0]), p_a=float(p_a[0]), p_e=float(p_e[0]), p_i=_frozen(p_i), p_j=_frozen(p_j[0]),
        counts=_frozen(counts), raters_per_item=_frozen(m), n_ratings=int(m.sum()),
        n_items_used=int((m >= 2).sum()), chance=chance, categories=r.categories, reason=reason)


_NO_PAIRS = "no item has 2 or more ratings, so there is no pair of ratings to compare"


# ============================================================ Krippendorff
def _category_values(r: Ratings, level: str) -> np.ndarray | None:
    if level not in LEVELS:
        raise AgreementError(f"level must be one of {list(LEVELS)}, got {level!r}")
    if level in ("nominal", "ordinal"):
        return None
    for c in r.categories:
        if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)):
            raise AgreementError(
                f"level {level!r} needs numeric categories, but category {c!r} is not a number; "
                f"use level='ordinal' for ordered labels")
    values = np.array([float(c) for c in r.categories])
    if level == "ratio" and (values < 0).any():
        raise AgreementError(f"level 'ratio' needs non-negative values, but the categories include {values.min():g}")
    return values


def _squared_distances(level: str, n_c: np.ndarray, values: np.ndarray | None) -> np.ndarray:
    """Batch delta^2 matrices (B, k, k) for the level; n_c is (B, k) value counts."""
    b, k = n_c.shape
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(k), (b, k, k))
    if level == "ordinal":
        cum = np.concatenate([np.zeros((b, 1)), np.cumsum(n_c, axis=1)], axis=1)
        lo = np.minimum.outer(np.arange(k), np.arange(k))
        hi = np.maximum.outer(np.arange(k), np.arange(k))
        between = cum[:, hi + 1] - cum[:, lo]  # n_lo + ... + n_hi
        return (between - (n_c[:, :, None] + n_c[:, None, :]) / 2.0) ** 2
    diff = np.subtract.outer(values, values)
    if level == "interval":
        return np.broadcast_to(diff * diff, (b, k, k))
    total = np.add.outer(values, values)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(total != 0, diff / total, 0.0)
    return np.broadcast_to(ratio * ratio, (b, k, k))


def _alpha_from_coincidences(o: np.ndarray, level: str, values: np.ndarray | None):
    """Batch formula. o (B, k, k) coincidences -> alpha, d_o, d_e, n_c, n, delta."""
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    delta = _squared_distances(level, n_c, values)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = (o * delta).sum(axis=(1, 2)) / n
        d_e = np.einsum("bi,bj,bij->b", n_c, n_c, delta) / (n * (n - 1.0))
        alpha = np.where(d_e > _EPS * np.maximum(1.0, delta.max(axis=(1, 2))), 1.0 - d_o / d_e, np.nan)
    return alpha, d_o, d_e, n_c, n, delta


def _unit_weights(m: np.ndarray) -> np.ndarray:
    """1 / (m_u - 1) for pairable units, 0 otherwise."""
    return _by_count(m, lambda x: 1.0 / (x - 1.0), 2)


@dataclass(frozen=True, repr=False, eq=False)
class AlphaResult(_Result):
    """Krippendorff's alpha (Krippendorff 2011) and its working.

    Attributes
    ----------
    alpha, d_o, d_e : float
        The coefficient, observed and expected disagreement.
    coincidences : ndarray, shape (k, k)
        o_ck = sum_u (number of c-k pairs in unit u) / (m_u - 1), over units
        with m_u >= 2 values; it sums to ``n``.
    expected : ndarray, shape (k, k)
        Expected coincidences e_ck = n_c (n_k - [c = k]) / (n - 1).
    n_c : ndarray, shape (k,)
        Pairable values per category (row sums of ``coincidences``).
    n : int
        All pairable values.
    counts : ndarray of int, shape (n_units, k)
        Values of each category in each unit (computed on first use).
    pair_counts : ndarray of int, shape (k, k)
        Unweighted ordered pairs of ratings within units, as counted by hand
        (each unit with m_u values gives m_u (m_u - 1) pairs).
    delta : ndarray, shape (k, k)
        Squared distances delta^2_ck for the level.
    level : {"nominal", "ordinal", "interval", "ratio"}
    reason : str or None
        Why alpha is undefined (NaN), if it is.
    """

    alpha: float
    d_o: float
    d_e: float
    coincidences: np.ndarray
    expected: np.ndarray
    n_c: np.ndarray
    n: int
    delta: np.ndarray
    level: str
    categories: tuple
    n_units_used: int
    reason: str | None = None
    _main = "alpha"
    _ratings: Any = field(default=None, repr=False)  # for the exact values and pair counts, on demand

    @cached_property
    def counts(self) -> np.ndarray:
        """Units x categories: how many values of each category unit u holds (on first use)."""
        return _frozen(self._ratings.counts())

    @cached_property
    def pair_counts(self) -> np.ndarray:
        """Unweighted ordered pairs of ratings within units (computed on first use)."""
        c = self.counts.astype(np.int64)
        return _frozen(c.T @ c - np.diag(c.sum(axis=0)))  # m_u = 1 units add 1*1 - 1 = 0

    def _exact(self) -> Exact:
        counts = self.counts.astype(np.int64)
        m = counts.sum(axis=1)
        k = counts.shape[1]
        o = [[Fraction(0)] * k for _ in range(k)]
        for size in np.unique(m[m >= 2]):  # one step per distinct unit size, not per unit
            g = counts[m == size]
            pairs = g.T @ g - np.diag(g.sum(axis=0))
            for i in range(k):
                for j in range(k):
                    o[i][j] += Fraction(int(pairs[i, j]), int(size) - 1)
        n_c = [sum(row, Fraction(0)) for row in o]
        n = sum(n_c, Fraction(0))
        delta = _exact_delta(self.level, n_c, self.categories)
        d_o = sum((o[i][j] * delta[i][j] for i in range(k) for j in range(k)), Fraction(0)) / n
        d_e = sum((n_c[i] * n_c[j] * delta[i][j] for i in range(k) for j in range(k)), Fraction(0)) / (n * (n - 1))
        alpha = None if d_e == 0 else 1 - d_o / d_e
        return Exact(alpha=alpha, d_o=d_o, d_e=d_e, coincidences=tuple(map(tuple, o)), n_c=tuple(n_c), n=n,
                     delta=tuple(map(tuple, delta)))

    def __repr__(self) -> str:
        return (f"AlphaResult({self._fmt('alpha')}, {self._fmt('d_o')}, {self._fmt('d_e')}, "
                f"level={self.level!r}, n={self.n})")


def _exact_delta(level: str, n_c: list[Fraction], categories: tuple) -> list[list[Fraction]]:
    k = len(n_c)
    if level == "nominal":
        return [[Fraction(int(i != j)) for j in range(k)] for i in range(k)]
    if level == "ordinal":
        out = [[Fraction(0)] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                lo, hi = min(i, j), max(i, j)
                between = sum(n_c[lo:hi + 1], Fraction(0))
                out[i][j] = (between - (n_c[lo] + n_c[hi]) / 2) ** 2
        return out
    v = [_fraction(c) for c in categories]
    if level == "interval":
        return [[(v[i] - v[j]) ** 2 for j in range(k)] for i in range(k)]
    return [[((v[i] - v[j]) / (v[i] + v[j])) ** 2 if v[i] + v[j] != 0 else Fraction(0)
             for j in range(k)] for i in range(k)]


def krippendorff_alpha(ratings: Any, level: str = "nominal") -> AlphaResult:
    """Krippendorff's alpha, alpha = 1 - D_o / D_e (Krippendorff 2011).

    Each unit u with m_u >= 2 values contributes its m_u (m_u - 1) ordered
    pairs of values, each weighted 1 / (m_u - 1), to the coincidence matrix,
    so every pairable value counts once (n values in all). Then
    D_o = sum o_ck delta^2_ck / n and
    D_e = sum n_c n_k delta^2_ck / (n (n - 1)).

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells allowed; units with fewer than 2 values are not pairable
        and are left out.
    level : {"nominal", "ordinal", "interval", "ratio"}
        The distance delta between values. Ordinal uses the category order;
        interval and ratio need numeric categories.

    Returns
    -------
    AlphaResult

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = krippendorff_alpha(datasets.sentiment())
    >>> print(round(res.alpha, 3), res.exact.alpha, res.exact.d_o, res.exact.d_e)
    0.578 159/275 4/15 55/87
    >>> print(round(float(krippendorff_alpha(datasets.sentiment_missing())), 3))
    0.54
    """
    r = as_ratings(ratings)
    values = _category_values(r, level)
    k = r.n_categories
    # weight 1 / (m_u - 1) looked up by the number of values m_u = raters - missing
    weight_by_missing = _unit_weights(r.n_raters - np.arange(r.n_raters + 1))
    gram = np.zeros((k + 1, k + 1))  # the last row and column (missing) are dropped below
    diagonal = np.zeros(k + 1)
    n_used = 0
    for _, block in r._count_blocks():  # sums over items, accumulated block by block
        counts = block.astype(float)
        weighted = counts * weight_by_missing[block[:, k]][:, None]
        gram += weighted.T @ counts
        diagonal += np.ones(len(counts)) @ weighted  # column sums (a BLAS gemv is fastest)
        n_used += int(np.count_nonzero(block[:, k] <= r.n_raters - 2))
    o = gram[:k, :k] - np.diag(diagonal[:k])
    if n_used == 0:
        raise AgreementError(_NO_PAIRS)
    alpha, d_o, d_e, n_c, n, delta = _alpha_from_coincidences(o[None], level, values)
    n_c, n = n_c[0], n[0]
    expected = (np.outer(n_c, n_c) - np.diag(n_c)) / (n - 1.0)
    reason = None
    if math.isnan(alpha[0]):
        reason = ("expected disagreement D_e = 0: all pairable values are in one category "
                  "(or equally distant from each other at this level), so alpha = 0/0 is undefined")
    return AlphaResult(
        alpha=float(alpha[0]), d_o=float(d_o[0]), d_e=float(d_e[0]), coincidences=_frozen(o),
        expected=_frozen(expected), n_c=_frozen(n_c), n=int(round(n)),
        delta=_frozen(np.array(delta[0])), level=level, categories=r.categories,
        n_units_used=n_used, reason=reason, _ratings=r)


# ================================================================ interpret
def interpret(value: Any) -> str:
    """The Landis & Koch (1977) band of a kappa-like coefficient.

    >>> interpret(0.492), interpret(0.844), interpret(-0.1), interpret(float("nan"))
    ('moderate', 'almost perfect', 'poor', 'undefined')
    """
    v = float(value)
    if math.isnan(v):
        return "undefined"
    if v < 0:
        return "poor"
    for lower, upper, name in BANDS[1:]:
        if v <= upper:
            return name
    return BANDS[-1][2]


# ================================================================ bootstrap
@dataclass(frozen=True, repr=False, eq=False)
class BootstrapResult(_Result):
    """Percentile bootstrap interval (items resampled with replacement)."""

    estimate: float
    low: float
    high: float
    confidence: float
    n_boot: int
    n_undefined: int
    samples: np.ndarray
    metric: str
    _main = "estimate"

    def _exact(self) -> Exact:
        return Exact()

    def __repr__(self) -> str:
        return (f"BootstrapResult({self.metric}: {self.estimate:.4f}, {self.confidence:.0%} CI "
                f"[{self.low:.4f}, {self.high:.4f}], n_boot={self.n_boot})")


def _bootstrap_plan(metric: Any, r: Ratings, kwargs: dict) -> tuple[str, np.ndarray, Callable]:
    """Per-item features X and a batch function f(sums of X) -> coefficient."""
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))
    k = r.n_categories
    if name == "cohen_kappa":
        a, b = kwargs.get("a", 0), kwargs.get("b", 1)
        ia, ib = r.rater_index(a), r.rater_index(b)
        w = _disagreement_weights(k, kwargs.get("weights"))
        codes = r._codes
        both = (codes[:, ia] < k) & (codes[:, ib] < k)
        x = np.zeros((r.n_items, k * k))
        x[np.flatnonzero(both), (codes[both, ia].astype(np.intp) * k + codes[both, ib])] = 1.0
        return name, x, lambda s: _cohen_from_tables(s.reshape(-1, k, k), w)[0]
    if name == "fleiss_kappa":
        chance = kwargs.get("chance", "pooled")
        if chance not in CHANCE_RULES:
            raise AgreementError(f"chance must be 'pooled' or 'item_mean', got {chance!r}")
        x = _fleiss_item_features(r.counts())
        return name, x, lambda s: _fleiss_from_sums(s, k, chance)[0]
    if name == "krippendorff_alpha":
        level = kwargs.get("level", "nominal")
        values = _category_values(r, level)
        item_counts = r.counts()
        counts = item_counts.astype(float)
        wu = _unit_weights(item_counts.sum(axis=1))
        x = (counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(k)) * wu[:, None, None]
        return name, x.reshape(r.n_items, k * k), \
            lambda s: _alpha_from_coincidences(s.reshape(-1, k, k), level, values)[0]
    raise AgreementError(
        f"bootstrap_ci supports cohen_kappa, fleiss_kappa and krippendorff_alpha, got {name!r}")


def bootstrap_ci(metric: Any, ratings: Any, n_boot: int = 1000, confidence: float = 0.95,
                 seed: Any = None, **kwargs: Any) -> BootstrapResult:
    """Percentile bootstrap confidence interval, resampling items.

    Every replicate is a weighted sum of per-item quantities, so all
    replicates are computed with matrix products (in chunks), without a
    Python loop over replicates' items.

    Parameters
    ----------
    metric : callable or str
        :func:`cohen_kappa`, :func:`fleiss_kappa` or :func:`krippendorff_alpha`
        (or its name).
    ratings : Ratings or table
    n_boot : int
        Number of bootstrap replicates.
    confidence : float
        Coverage of the interval, e.g. 0.95.
    seed : int or numpy.random.Generator, optional
        Same seed, same interval.
    **kwargs
        Passed on as the metric takes them (``a``, ``b``, ``weights``,
        ``chance``, ``level``).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> ci = bootstrap_ci(krippendorff_alpha, datasets.sentiment(), n_boot=2000, seed=1)
    >>> ci.low < ci.estimate < ci.high
    True
    """
    if not 0 < confidence < 1:
        raise AgreementError(f"confidence must be between 0 and 1, got {confidence}")
    if int(n_boot) < 1:
        raise AgreementError(f"n_boot must be at least 1, got {n_boot}")
    r = as_ratings(ratings)
    name, x, batch = _bootstrap_plan(metric, r, kwargs)
    point = {"cohen_kappa": cohen_kappa, "fleiss_kappa": fleiss_kappa,
             "krippendorff_alpha": krippendorff_alpha}[name](r, **kwargs)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = r.n_items
    chunk = max(1, min(int(n_boot), 4_000_000 // max(n, 1)))
    samples = []
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        idx = rng.integers(0, n, size=(b, n)) + (np.arange(b) * n)[:, None]
        w = np.bincount(idx.ravel(), minlength=b * n).reshape(b, n).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            samples.append(batch(w @ x))
        done += b
    samples = np.concatenate(samples)
    ok = samples[~np.isnan(samples)]
    tail = (1 - confidence) / 2 * 100
    low, high = (np.percentile(ok, [tail, 100 - tail]) if ok.size else (np.nan, np.nan))
    return BootstrapResult(estimate=float(point), low=float(low), high=float(high), confidence=confidence,
                           n_boot=int(n_boot), n_undefined=int(samples.size - ok.size),
                           samples=_frozen(samples), metric=name)
