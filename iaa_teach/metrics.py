"""Numbers out: Cohen's kappa, Fleiss' kappa, Krippendorff's alpha.

Each metric accepts a :class:`~iaa_teach.Ratings` (or anything
``Ratings.from_rows`` accepts) and returns a small frozen result object:
``float(result)`` is the coefficient, every intermediate quantity is an
attribute, and ``result.exact`` holds the same quantities as
:class:`fractions.Fraction`. Where a coefficient is undefined (all ratings in
one category) the value is NaN and ``result.reason`` says why.

One path for each coefficient: :class:`~iaa_teach.Ratings` counts (integer
counting only, no float matrix products), this module sums the counts over
groups of items, and :mod:`iaa_teach.formulas` turns the sums into the
coefficient. The float value, ``result.exact`` and every
:func:`bootstrap_ci` replicate go through the same formula functions. No
Python loop runs over items or rater pairs.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import Any, Callable, NamedTuple

import numpy as np

from . import formulas as F
from .formulas import CHANCE_RULES, LEVELS, WEIGHTS
from .ratings import AgreementError, CountPatterns, Ratings, as_ratings
from .rounding import fmt, format_number
from .validation import MAX_BOOT, MAX_PAIRS, check_int, check_limit, check_max, check_number, check_option, \
    check_seed, options

__all__ = [
    "BANDS", "LEVELS", "WEIGHTS", "CHANCE_RULES",
    "CohenResult", "PairwiseCohenResult", "FleissResult", "AlphaResult", "BootstrapResult", "Exact",
    "cohen_kappa", "pairwise_cohen", "fleiss_kappa", "krippendorff_alpha", "interpret", "bootstrap_ci",
]

#: Landis & Koch (1977) bands: (lower bound inclusive, upper bound, name).
BANDS = (
    (-1.0, 0.0, "poor"),
    (0.0, 0.20, "slight"),
    (0.20, 0.40, "fair"),
    (0.40, 0.60, "moderate"),
    (0.60, 0.80, "substantial"),
    (0.80, 1.0, "almost perfect"),
)

_NO_PAIRS = "no item has 2 or more ratings, so there is no pair of ratings to compare"


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def _one(values: np.ndarray) -> Any:
    """The single entry of a batch of one, as a Python number (a Fraction or None when exact)."""
    v = np.asarray(values).reshape(-1)[0]
    return v if isinstance(v, Fraction) or v is None else float(v)


def _exact_tuple(values: np.ndarray) -> Any:
    """An object array of Fractions as nested tuples."""
    a = np.asarray(values)
    if a.ndim == 1:
        return tuple(a.tolist())
    return tuple(_exact_tuple(x) for x in a) if a.ndim else a.item()


class _Later:
    """An exact value computed on first use (one per item can be a million fractions)."""

    def __init__(self, compute: Callable[[], Any]):
        self.compute = compute


class Exact:
    """A read-only bag of exact values (``fractions.Fraction``, tuples of them)."""

    def __init__(self, **values: Any):
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._values[name]
        except KeyError:
            raise AttributeError(name) from None
        if isinstance(value, _Later):
            value = self._values[name] = value.compute()
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("exact values are read-only")

    def __dir__(self):
        return list(self._values)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._values}

    def __repr__(self) -> str:
        def show(v: Any) -> str:
            if isinstance(v, tuple):
                return "(" + ", ".join(show(x) for x in v) + ")"
            return str(v)
        return "Exact(" + ", ".join(f"{k}={show(v)}" for k, v in self.as_dict().items()) + ")"


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

    @property
    def exact_value(self) -> Fraction | float | None:
        """The coefficient as an exact fraction (None if undefined; the float where there is none)."""
        return getattr(self.exact, self._main) if self._main in dir(self.exact) else float(self)

    def __format__(self, spec: str) -> str:
        """Format spec on the coefficient, rounded half up from its exact value (``f"{res:.3f}"``)."""
        return format_number(self.exact_value, spec)

    def _fmt(self, name: str) -> str:
        return f"{name}={fmt(getattr(self, name), 4, 'nan')}"


def _fraction(value: Any) -> Fraction:
    """A category value as an exact number: ints exactly, floats as their decimal reading (0.1 -> 1/10)."""
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    return Fraction(repr(float(value)))


# ================================================================= groups
class SizeSums(NamedTuple):
    """Integer sums over the items that share a number of ratings m, for each m that occurs (``size``).

    ``items[g]`` items have ``size[g]`` ratings; ``counts[g, j]`` = sum of
    n_ij over them; ``squares[g]`` = sum of sum_j n_ij^2; ``gram[g]`` = sum of
    the outer products n_i n_i^T (k x k). The exact values are computed from
    these integers; the floats from the same sums.
    """

    size: np.ndarray
    items: np.ndarray
    counts: np.ndarray
    squares: np.ndarray
    gram: np.ndarray


def _size_sums(patterns: CountPatterns) -> SizeSums:
    c, f = patterns.counts, patterns.frequency
    # only the numbers of ratings that occur: with 3000 raters and 200 categories, a k x k sum
    # for every possible number would take a gigabyte
    size, group = np.unique(patterns.ratings_per_item, return_inverse=True)
    group = group.reshape(-1)
    k = c.shape[1]
    n_sizes = len(size)

    def by_size(values: np.ndarray) -> np.ndarray:  # integer sums (exact in float64 below 2**53)
        return np.rint(np.bincount(group, weights=values, minlength=n_sizes)).astype(np.int64)

    items = by_size(f)
    squares = by_size((c * c).sum(axis=1) * f)
    flat = (group[:, None] * k + np.arange(k)).ravel()
    counts = np.rint(np.bincount(flat, weights=(c * f[:, None]).ravel(), minlength=n_sizes * k))
    counts = counts.astype(np.int64).reshape(n_sizes, k)
    return SizeSums(size, items, counts, squares, _gram(c, f, np.where(size[group] >= 2, group, -1), n_sizes))


def _gram(c: np.ndarray, f: np.ndarray, group: np.ndarray, n_sizes: int) -> np.ndarray:
    """sum_rows f c c^T per group (rows in group -1 left out), from the non-zero counts only.

    A count row has at most n_raters non-zero entries, so each row adds at
    most n_raters^2 products, counted with one weighted bincount per block of
    rows (never a k x k product per row, nor an integer matrix product).
    """
    k = c.shape[1]
    gram = np.zeros(n_sizes * k * k, dtype=np.float64)
    rows, cols = np.nonzero(c * (group >= 0)[:, None])
    if not len(rows):
        return gram.astype(np.int64).reshape(n_sizes, k, k)
    vals = c[rows, cols]
    nz = np.bincount(rows, minlength=len(c))
    first = np.concatenate(([0], np.cumsum(nz)[:-1]))
    per_block = max(1, (1 << 22) // int(nz.max()) ** 2)
    for start in range(0, len(c), per_block):  # blocks of count rows: at most 4 million products each
        lo, hi = first[start], (first[start + per_block] if start + per_block < len(c) else len(rows))
        if lo == hi:
            continue
        mine = np.arange(lo, hi)
        reps = nz[rows[mine]]
        left = np.repeat(mine, reps)
        right = first[rows[left]] + np.arange(len(left)) - np.repeat(np.cumsum(reps) - reps, reps)
        key = (group[rows[left]] * k + cols[left]) * k + cols[right]
        gram += np.bincount(key, weights=(f[rows[left]] * vals[left] * vals[right]).astype(np.float64),
                            minlength=n_sizes * k * k)
    return np.rint(gram).astype(np.int64).reshape(n_sizes, k, k)


def _pattern_sums(patterns: CountPatterns) -> SizeSums:
    """Each distinct count row as a group of one item (for the bootstrap and per-item values)."""
    c = patterns.counts
    return SizeSums(patterns.ratings_per_item, np.ones(len(c), dtype=np.int64), c, (c * c).sum(axis=1),
                    c[:, :, None] * c[:, None, :])


def _numbers(sums: SizeSums, exact: bool) -> SizeSums:
    return SizeSums(sums.size, *(F.as_numbers(x, exact) for x in sums[1:]))


# ====================================================================== Cohen
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

    @property
    def agreement_weights(self) -> np.ndarray:
        """Agreement weights 1 - w_ij / max(w) (1 on the diagonal; 0/1 when unweighted)."""
        return _frozen(F.agreement_weights(self.weight_matrix))

    def _exact(self) -> Exact:
        agree = F.agreement_weights(self.weight_matrix, exact=True)
        n = int(self.n_items)
        none = (None,) * len(self.categories)
        if n == 0:
            return Exact(kappa=None, p_o=None, p_e=None, row_marginals=none, col_marginals=none,
                         agreement_weights=_exact_tuple(agree))
        kappa, p_o, p_e = _cohen(F.as_numbers(self.table[None], exact=True), agree)
        t = self.table
        return Exact(kappa=_one(kappa), p_o=_one(p_o), p_e=_one(p_e),
                     row_marginals=tuple(Fraction(int(x), n) for x in t.sum(axis=1)),
                     col_marginals=tuple(Fraction(int(x), n) for x in t.sum(axis=0)),
                     agreement_weights=_exact_tuple(agree))

    def __repr__(self) -> str:
        w = "" if self.weights is None else f", weights={self.weights!r}"
        return (f"CohenResult({self.rater_a} vs {self.rater_b}: {self._fmt('kappa')}, {self._fmt('p_o')}, "
                f"{self._fmt('p_e')}, n_items={self.n_items}{w})")


def _cohen(tables: np.ndarray, agreement: np.ndarray):
    """kappa, P_o, P_e of a batch of agreement tables: the one formula path (float, exact, bootstrap)."""
    p_o, p_e = F.cohen_agreement(tables, agreement)
    return F.chance_corrected(p_o, p_e), p_o, p_e


def _cohen_results(r: Ratings, pairs: list[tuple[int, int]], weights: str | None) -> list[CohenResult]:
    w = _frozen(F.disagreement_weights(r.n_categories, weights))
    tables = r.pair_tables(pairs)
    kappa, p_o, p_e = _cohen(tables.astype(float), F.agreement_weights(w))
    n_used = tables.sum(axis=(1, 2))
    out = []
    with np.errstate(invalid="ignore", divide="ignore"):
        rows, cols = tables.sum(axis=2) / n_used[:, None], tables.sum(axis=1) / n_used[:, None]
    for p, (ia, ib) in enumerate(pairs):
        n = int(n_used[p])
        a, b = r.raters[ia], r.raters[ib]
        reason = None
        if n == 0:
            reason = f"raters {a!r} and {b!r} never rated the same item, so there is nothing to compare"
        elif math.isnan(kappa[p]):
            reason = (f"chance agreement P_e = 1: both raters put every one of the {n} shared items "
                      f"in the same single category, so kappa = 0/0 is undefined")
        out.append(CohenResult(
            kappa=float(kappa[p]), p_o=float(p_o[p]), p_e=float(p_e[p]), table=_frozen(tables[p]),
            row_marginals=_frozen(rows[p]), col_marginals=_frozen(cols[p]), weight_matrix=w, rater_a=a,
            rater_b=b, categories=r.categories, weights=weights, n_items=n, n_dropped=r.n_items - n,
            reason=reason))
    return out


@options(weights=WEIGHTS)
def cohen_kappa(ratings: Any, a: Any = 0, b: Any = 1, weights: str | None = None) -> CohenResult:
    """Cohen's kappa between raters ``a`` and ``b``.

    kappa = (P_o - P_e) / (1 - P_e), where P_o is the share of items on
    which the two agree and P_e = sum_j p_{j+} p_{+j} the agreement expected
    from each rater's own category proportions.

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells (``None``/NaN/``""``) allowed: items missing either
        rating are left out (``result.n_dropped`` counts them). If the two
        never rated the same item, kappa is NaN with the reason.
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
    >>> print(f"{res:.3f}", res.exact.kappa)
    0.492 29/59
    """
    r = as_ratings(ratings)
    _check_order(r, weights is not None, f"weights={weights!r}")
    ia, ib = r.rater_index(a), r.rater_index(b)
    if ia == ib:
        raise AgreementError(f"Cohen's kappa compares two different raters, but both are {r.raters[ia]!r}")
    return _cohen_results(r, [(ia, ib)], weights)[0]


@dataclass(frozen=True, repr=False, eq=False)
class PairwiseCohenResult(_Result):
    """Cohen's kappa for every pair of raters.

    ``float(result)`` is the mean over pairs (Light's kappa); ``results``
    holds one :class:`CohenResult` per pair; ``matrix`` is raters x raters
    (NaN on the diagonal). A pair whose kappa is undefined (no shared item,
    or one category only) is NaN with its reason, and so is the mean.
    """

    results: tuple
    pairs: tuple
    kappas: np.ndarray
    matrix: np.ndarray
    raters: tuple
    mean_kappa: float
    _main = "mean_kappa"

    @property
    def reason(self) -> str | None:
        """Why the mean over pairs is undefined, if it is."""
        bad = [f"{a} vs {b}" for (a, b), res in zip(self.pairs, self.results) if not res.defined]
        return f"kappa is undefined for {', '.join(bad)}" if bad else None

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
        body = ", ".join(f"{a}-{b}: {fmt(k, 4, 'nan')}" for (a, b), k in zip(self.pairs, self.kappas))
        return f"PairwiseCohenResult({body}; mean {fmt(self.mean_kappa, 4, 'nan')})"


@options(weights=WEIGHTS)
def pairwise_cohen(ratings: Any, weights: str | None = None, *, max_pairs: int | None = MAX_PAIRS
                   ) -> PairwiseCohenResult:
    """Cohen's kappa for every pair of raters (all tables in one vectorized pass).

    At most ``max_pairs`` pairs (:data:`iaa_teach.validation.MAX_PAIRS`,
    45 raters make 990): more is an error naming the limit, checked before
    anything is counted.

    >>> from iaa_teach import datasets
    >>> res = pairwise_cohen(datasets.sentiment())
    >>> [f"{a}-{b} {res[a, b]:.3f}" for a, b in res.pairs]
    ['A-B 0.492', 'A-C 0.844', 'B-C 0.355']
    """
    r = as_ratings(ratings)
    max_pairs = check_max("max_pairs", max_pairs)
    _check_order(r, weights is not None, f"weights={weights!r}")
    if r.n_raters < 2:
        raise AgreementError(f"pairwise kappa needs at least 2 raters, but the table has {r.n_raters}")
    check_limit(f"{r.n_raters} raters make {r.n_raters * (r.n_raters - 1) // 2:,} pairs; rater pairs",
                r.n_raters * (r.n_raters - 1) // 2, max_pairs, "max_pairs", "--max-pairs",
                advice="compare some of the raters: Ratings.subset(raters=[...])")
    pairs = list(combinations(range(r.n_raters), 2))
    results = _cohen_results(r, pairs, weights)
    kappas = np.array([res.kappa for res in results])
    matrix = np.full((r.n_raters, r.n_raters), np.nan)
    ia, ib = np.array(pairs).T
    matrix[ia, ib] = kappas
    matrix[ib, ia] = kappas
    return PairwiseCohenResult(
        results=tuple(results), pairs=tuple((r.raters[i], r.raters[j]) for i, j in pairs),
        kappas=_frozen(kappas), matrix=_frozen(matrix), raters=r.raters, mean_kappa=float(kappas.mean()))


# ===================================================================== Fleiss
@dataclass(frozen=True, repr=False, eq=False)
class _CountedResult(_Result):
    """A multi-rater result: keeps the table's count patterns and size sums (for exact values on demand)."""

    _patterns: Any = field(default=None, repr=False, kw_only=True)
    _sums: Any = field(default=None, repr=False, kw_only=True)

    @cached_property
    def counts(self) -> np.ndarray:
        """Items x categories: how many ratings of each category item i holds (on first use)."""
        return _frozen(self._patterns.counts[self._patterns.item_pattern])

    @cached_property
    def raters_per_item(self) -> np.ndarray:
        """n_i (m_u for alpha): how many ratings each item holds (on first use)."""
        return _frozen(self._patterns.ratings_per_item[self._patterns.item_pattern])


def _fleiss(sums: SizeSums, chance: str, exact: bool):
    """kappa, P_a, P_e, p_j from grouped sums; with exact=False and per-pattern sums, per-item terms too."""
    num = _numbers(sums, exact)
    terms = F.fleiss_terms(num.size, num.items, num.counts, num.squares)
    total = {key: np.asarray(value.sum(axis=0), dtype=value.dtype)[None] for key, value in terms.items()}
    p_a, p_j, p_e = F.fleiss_agreement(total, chance)
    return F.chance_corrected(p_a, p_e), p_a, p_e, p_j


def _item_agreement(patterns: CountPatterns, exact: bool) -> np.ndarray:
    """P_i of every item (NaN, or None when exact, below 2 ratings), from the same terms per count row."""
    c = patterns.counts  # no k x k products per count row: P_i needs only the counts and their squares
    size = patterns.ratings_per_item
    items, counts, squares = (F.as_numbers(x, exact) for x in (np.ones(len(c), dtype=np.int64), c, (c * c).sum(axis=1)))
    p_i = F.fleiss_terms(size, items, counts, squares)["agreement"]
    p_i = np.where(size >= 2, p_i, None if exact else np.nan)
    return p_i[patterns.item_pattern]


@dataclass(frozen=True, repr=False, eq=False)
class FleissResult(_CountedResult):
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
    n_ratings: int
    n_items_used: int
    chance: str
    categories: tuple
    reason: str | None = None
    _main = "kappa"

    def _exact(self) -> Exact:
        kappa, p_a, p_e, p_j = _fleiss(self._sums, self.chance, exact=True)
        return Exact(kappa=_one(kappa), p_a=_one(p_a), p_e=_one(p_e), p_j=_exact_tuple(p_j[0]),
                     p_i=_Later(lambda: _exact_tuple(_item_agreement(self._patterns, exact=True))))

    def __repr__(self) -> str:
        return (f"FleissResult({self._fmt('kappa')}, {self._fmt('p_a')}, {self._fmt('p_e')}, "
                f"chance={self.chance!r}, items used={self.n_items_used}, ratings={self.n_ratings})")


@options(chance=CHANCE_RULES)
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
    >>> print(f"{res:.3f}", res.exact.kappa, res.exact.p_e)
    0.564 31/55 7/18
    """
    r = as_ratings(ratings)
    patterns = r.count_patterns()
    sums = _size_sums(patterns)
    n_used = int(sums.items[sums.size >= 2].sum())
    if n_used == 0:
        raise AgreementError(_NO_PAIRS)
    kappa, p_a, p_e, p_j = _fleiss(sums, chance, exact=False)
    reason = None
    if math.isnan(kappa[0]):
        reason = "chance agreement P_e = 1: every rating is in one category, so kappa = 0/0 is undefined"
    return FleissResult(
        kappa=float(kappa[0]), p_a=float(p_a[0]), p_e=float(p_e[0]),
        p_i=_frozen(_item_agreement(patterns, exact=False).astype(float)), p_j=_frozen(p_j[0]),
        n_ratings=int(sums.counts.sum()), n_items_used=n_used, chance=chance, categories=r.categories,
        reason=reason, _patterns=patterns, _sums=sums)


# ============================================================ Krippendorff
def _alpha(o: np.ndarray, level: str, values: np.ndarray | None):
    """alpha, D_o, D_e, n_c, n, delta from coincidences (B, k, k): the one path (float, exact, bootstrap)."""
    d_o, d_e, n_c, n, delta = F.alpha_disagreement(o, level, values)
    if delta.dtype == object:
        return F.one_minus_ratio(d_o, d_e), d_o, d_e, n_c, n, delta
    # D_e counts as 0 only next to the largest distance (values 1e-9 apart are not "one category")
    scale = np.max(delta, axis=(1, 2))
    scale = np.where(scale > 0, scale, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return F.one_minus_ratio(d_o / scale, d_e / scale), d_o, d_e, n_c, n, delta


def _coincidences(sums: SizeSums, exact: bool) -> np.ndarray:
    num = _numbers(sums, exact)
    return F.coincidences(num.size, num.counts, num.gram).sum(axis=0)[None]


@dataclass(frozen=True, repr=False, eq=False)
class AlphaResult(_CountedResult):
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

    @cached_property
    def pair_counts(self) -> np.ndarray:
        """Unweighted ordered pairs of ratings within units (units with one value add none)."""
        s = self._sums
        return _frozen((s.gram - s.counts[:, :, None] * np.eye(len(self.categories), dtype=np.int64)).sum(axis=0))

    def _exact(self) -> Exact:
        o = _coincidences(self._sums, exact=True)
        values = _category_values_of(self.categories, self.level, exact=True)
        alpha, d_o, d_e, n_c, n, delta = _alpha(o, self.level, values)
        return Exact(alpha=_one(alpha), d_o=_one(d_o), d_e=_one(d_e), coincidences=_exact_tuple(o[0]),
                     n_c=_exact_tuple(n_c[0]), n=_one(n), delta=_exact_tuple(delta[0]))

    def __repr__(self) -> str:
        return (f"AlphaResult({self._fmt('alpha')}, {self._fmt('d_o')}, {self._fmt('d_e')}, "
                f"level={self.level!r}, n={self.n})")


def _category_values_of(categories: tuple, level: str, exact: bool = False) -> np.ndarray | None:
    """The categories as numbers, for the interval and ratio levels (None for the others).

    Each must be a finite number that a float holds exactly (an integer up to
    2**53 or so, a float) and at most 1e100 in size, so that squared
    distances and their sums stay exact enough and finite; ratio also
    refuses negative values.
    """
    if level in ("nominal", "ordinal"):
        return None
    for c in categories:
        if isinstance(c, bool) or not isinstance(c, (int, float, Fraction, np.integer, np.floating)):
            raise AgreementError(
                f"level {level!r} needs numeric categories, but category {c!r} is not a number; "
                f"use level='ordinal' for ordered labels")
        try:
            x = float(c)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            raise AgreementError(f"level {level!r} needs finite numbers, but the label {c!r} is not finite "
                                 f"(infinity, or a number too large for a float)")
        if isinstance(c, (int, np.integer)) and int(x) != int(c):
            raise AgreementError(f"level {level!r} computes with floats, which cannot hold the label {c!r} exactly "
                                 f"(it would read as {x!r}); rescale the values")
        if abs(x) > 1e100:
            raise AgreementError(f"level {level!r}: the label {c!r} is too large (at most 1e100 in size, so that "
                                 f"squared distances stay finite); rescale the values")
    if level == "ratio" and any(float(c) < 0 for c in categories):
        raise AgreementError(f"level 'ratio' needs non-negative values, but the categories include "
                             f"{min(float(c) for c in categories):g} (label "
                             f"{min(categories, key=float)!r})")
    if exact:
        return np.array([_fraction(c) for c in categories], dtype=object)
    return np.array([float(c) for c in categories])


def _check_order(r: Ratings, needed: bool, what: str) -> None:
    """Weights and the ordinal level use the category order: it must have been declared (or be numeric)."""
    if needed and not r.ordered:
        raise AgreementError(
            f"{what} uses the order of the categories, but {list(r.categories)} are only sorted, not declared: "
            f"give them in their order with categories=[...] (--categories on the command line)")


@options(level=LEVELS)
def krippendorff_alpha(ratings: Any, level: str = "nominal") -> AlphaResult:
    """Krippendorff's alpha, alpha = 1 - D_o / D_e (Krippendorff 2011).

    Each unit u with m_u >= 2 values contributes its m_u (m_u - 1) ordered
    pairs of values, each weighted 1 / (m_u - 1), to the coincidence matrix,
    so every pairable value counts once (n values in all). Then
    D_o = sum o_ck delta^2_ck / n and D_e = sum e_ck delta^2_ck / n, with the
    expected coincidences e_ck = n_c (n_k - [c = k]) / (n - 1).

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
    >>> print(f"{res:.3f}", res.exact.alpha, res.exact.d_o, res.exact.d_e)
    0.578 159/275 4/15 55/87
    >>> print(f"{krippendorff_alpha(datasets.sentiment_missing()):.3f}")
    0.540
    """
    r = as_ratings(ratings)
    _check_order(r, level == "ordinal", "level='ordinal'")
    values = _category_values_of(r.categories, level)
    patterns = r.count_patterns()
    sums = _size_sums(patterns)
    n_used = int(sums.items[sums.size >= 2].sum())
    if n_used == 0:
        raise AgreementError(_NO_PAIRS)
    o = _coincidences(sums, exact=False)
    alpha, d_o, d_e, n_c, n, delta = _alpha(o, level, values)
    reason = None
    if math.isnan(alpha[0]):
        reason = ("expected disagreement D_e = 0: all pairable values are in one category, "
                  "so alpha = 0/0 is undefined")
    return AlphaResult(
        alpha=float(alpha[0]), d_o=float(d_o[0]), d_e=float(d_e[0]), coincidences=_frozen(o[0]),
        expected=_frozen(F.expected_coincidences(n_c, n)[0]), n_c=_frozen(n_c[0]), n=int(round(n[0])),
        delta=_frozen(np.array(delta[0])), level=level, categories=r.categories, n_units_used=n_used,
        reason=reason, _patterns=patterns, _sums=sums)


# ================================================================ interpret
def interpret(value: Any) -> str:
    """The Landis & Koch (1977) band of a kappa-like coefficient.

    ``value`` is a number from -1 to 1 (NaN: "undefined"), or a result
    object. A result below -1 is "poor" (Fleiss' kappa with pooled chance can
    fall below -1 when many items have a single rating); a plain number
    outside [-1, 1] is an error (a percentage?).

    >>> interpret(0.492), interpret(0.844), interpret(-0.1), interpret(float("nan"))
    ('moderate', 'almost perfect', 'poor', 'undefined')
    """
    if isinstance(value, _Result):
        v = float(value)
    else:
        if isinstance(value, (bool, str, bytes)) or value is None:
            raise AgreementError(f"interpret takes a coefficient between -1 and 1, got {value!r}")
        try:
            v = float(value)
        except (TypeError, ValueError, OverflowError):
            raise AgreementError(f"interpret takes a coefficient between -1 and 1, got {value!r}") from None
        if not math.isnan(v) and not -1.0 <= v <= 1.0:
            raise AgreementError(f"interpret takes a coefficient between -1 and 1, got {value!r}"
                                 + (" (a percentage? divide it by 100)" if 1 < v <= 100 else ""))
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
        return (f"BootstrapResult({self.metric}: {fmt(self.estimate, 4, 'nan')}, {self.confidence:.0%} CI "
                f"[{fmt(self.low, 4, 'nan')}, {fmt(self.high, 4, 'nan')}], n_boot={self.n_boot})")


_METRICS: dict[str, Callable] = {"cohen_kappa": cohen_kappa, "fleiss_kappa": fleiss_kappa,
                                 "krippendorff_alpha": krippendorff_alpha}


#: Most numbers (distinct count rows x categories x categories) that a bootstrap plan may hold.
_BOOT_NUMBERS = 1 << 24


def _bootstrap_plan(name: str, r: Ratings, kwargs: dict) -> tuple[np.ndarray, np.ndarray | None, Callable]:
    """Each item's group, each group's additive terms (G, F), and the formula on summed terms (B, F).

    Items with the same group contribute the same, so a replicate is its
    group frequencies times the terms, then the metric's own formula.
    """
    k = r.n_categories
    if name == "cohen_kappa":
        pair = r.subset(raters=[kwargs.get("a", 0), kwargs.get("b", 1)]).codes
        both = (pair >= 0).all(axis=1)
        group = np.where(both, pair[:, 0] * k + pair[:, 1], k * k)  # the last group: not rated by both
        terms = None  # each group is one cell of the agreement table: its count is its term
        agree = F.agreement_weights(F.disagreement_weights(k, kwargs.get("weights")))
        return group, terms, lambda s: _cohen(s.reshape(-1, k, k), agree)[0]
    patterns = r.count_patterns()
    size = len(patterns.counts) * k * k
    if size > _BOOT_NUMBERS:
        raise AgreementError(f"bootstrap_ci({name}): {len(patterns.counts):,} distinct rows of counts x {k} x {k} "
                             f"categories need {size:,} numbers, more than the limit of {_BOOT_NUMBERS:,}; merge "
                             f"categories, or bootstrap fewer items")
    sums = _numbers(_pattern_sums(patterns), exact=False)
    if name == "fleiss_kappa":
        chance = kwargs.get("chance", "pooled")
        parts = F.fleiss_terms(sums.size, sums.items, sums.counts, sums.squares)
        keys = list(parts)
        widths = [1 if parts[key].ndim == 1 else parts[key].shape[1] for key in keys]
        terms = np.column_stack([parts[key] for key in keys])

        def formula(s: np.ndarray) -> np.ndarray:
            cut = np.cumsum([0] + widths)
            total = {key: (s[:, cut[i]] if widths[i] == 1 else s[:, cut[i]:cut[i + 1]]) for i, key in enumerate(keys)}
            p_a, _, p_e = F.fleiss_agreement(total, chance)
            return F.chance_corrected(p_a, p_e)
        return patterns.item_pattern, terms, formula
    level = kwargs.get("level", "nominal")
    values = _category_values_of(r.categories, level)
    terms = F.coincidences(sums.size, sums.counts, sums.gram).reshape(len(sums.size), k * k)
    return patterns.item_pattern, terms, lambda s: _alpha(s.reshape(-1, k, k), level, values)[0]


def bootstrap_ci(metric: Any, ratings: Any, n_boot: int = 1000, confidence: float = 0.95,
                 seed: Any = None, *, max_boot: int | None = MAX_BOOT, **kwargs: Any) -> BootstrapResult:
    """Percentile bootstrap confidence interval, resampling items.

    Items with the same count row (or, for Cohen, the same pair of labels)
    contribute the same terms, so a replicate needs only how often each was
    drawn; every replicate then goes through the metric's own formula, in
    one vectorized pass per chunk of replicates.

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
    max_boot : int or None
        Most replicates allowed (:data:`iaa_teach.validation.MAX_BOOT`);
        memory stays bounded whatever ``n_boot`` (replicates are drawn in
        chunks), time grows with ``n_boot`` x the number of items.
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
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))
    check_option("metric", name, tuple(_METRICS))
    n_boot = check_int("n_boot", n_boot, 1)
    check_limit("n_boot", n_boot, check_max("max_boot", max_boot), "max_boot")
    seed = check_seed("seed", seed)
    confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
    accepted = set(inspect.signature(_METRICS[name]).parameters) - {"ratings"}
    unknown = sorted(set(kwargs) - accepted)
    if unknown:
        raise AgreementError(f"{name} takes no argument(s) {unknown}; it takes {sorted(accepted)}")
    r = as_ratings(ratings)
    point = _METRICS[name](r, **kwargs)
    group, terms, formula = _bootstrap_plan(name, r, kwargs)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n, n_groups = r.n_items, (r.n_categories ** 2 + 1 if terms is None else len(terms))
    chunk = max(1, min(n_boot, 4_000_000 // max(n, n_groups, 1)))  # draws and group counts: 4 million a chunk
    samples = []
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        drawn = group[rng.integers(0, n, size=(b, n))] + (np.arange(b) * n_groups)[:, None]
        freq = np.bincount(drawn.ravel(), minlength=b * n_groups).reshape(b, n_groups).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            samples.append(formula(freq[:, :-1] if terms is None else freq @ terms))
        done += b
    samples = np.concatenate(samples)
    ok = samples[~np.isnan(samples)]
    tail = (1 - confidence) / 2 * 100
    low, high = (np.percentile(ok, [tail, 100 - tail]) if ok.size else (np.nan, np.nan))
    return BootstrapResult(estimate=float(point), low=float(low), high=float(high), confidence=confidence,
                           n_boot=n_boot, n_undefined=int(samples.size - ok.size),
                           samples=_frozen(samples), metric=name)
