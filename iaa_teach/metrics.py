"""Numbers out: the agreement coefficients, their standard errors and intervals, and study planning.

Cohen's kappa, Fleiss' kappa and Krippendorff's alpha; the rest of the
chance-corrected family (percent agreement, Brennan-Prediger's S, Scott's
pi, Conger's kappa, Gwet's AC1/AC2; their numbers come from
:mod:`iaa_teach._family`); every coefficient's ``se`` and ``ci()``;
:func:`bootstrap_ci` for any of them; :func:`items_needed` for planning.

Each metric accepts a :class:`~iaa_teach.Ratings` (or anything
``Ratings.from_rows`` accepts) and returns a small frozen result object:
``float(result)`` is the coefficient, every intermediate quantity is an
attribute, and ``result.exact`` holds the same quantities as
:class:`fractions.Fraction`. Where a coefficient is undefined (all ratings in
one category) the value is NaN and ``result.reason`` says why.

One path for each coefficient: :class:`~iaa_teach.Ratings` counts (integer
counting only, no float matrix products), this module sums the counts over
groups of items, and :mod:`iaa_teach._formulas` turns the sums into the
coefficient. The float value, ``result.exact`` and every
:func:`bootstrap_ci` replicate go through the same formula functions. No
Python loop runs over items or rater pairs.
"""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, partial
from itertools import combinations
from statistics import NormalDist
from typing import Any, Callable, NamedTuple

import numpy as np

from . import _family as FM
from . import _formulas as F
from ._formulas import CHANCE_RULES, INTERVAL_METHODS, LEVELS, WEIGHTS
from ._validation import (
    MAX_BOOT,
    MAX_PAIRS,
    check_int,
    check_limit,
    check_max,
    check_number,
    check_option,
    check_seed,
    options,
)
from .ratings import AgreementError, CountPatterns, Ratings, as_ratings
from .rounding import fmt, format_number

__all__ = [
    "BANDS",
    "LEVELS",
    "PLANNED",
    "CohenResult",
    "PairwiseCohenResult",
    "FleissResult",
    "AlphaResult",
    "BootstrapResult",
    "Exact",
    "PercentAgreementResult",
    "BrennanPredigerResult",
    "ScottResult",
    "CongerResult",
    "GwetResult",
    "ItemsNeeded",
    "cohen_kappa",
    "pairwise_cohen",
    "fleiss_kappa",
    "krippendorff_alpha",
    "interpret",
    "bootstrap_ci",
    "percent_agreement",
    "brennan_prediger",
    "scott_pi",
    "conger_kappa",
    "gwet_ac",
    "items_needed",
    "agreement_family",
    "FamilyInterval",
    "family_intervals",
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

#: How every result class is made: a frozen dataclass with its own repr, equal only to itself.
_result = partial(dataclass, frozen=True, repr=False, eq=False)

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


class Exact:
    """A read-only bag of exact values (``fractions.Fraction``, tuples of them).

    A value given as a function is computed on first use (a variance sums a
    fraction per count row: seconds on a large table).
    """

    def __init__(self, **values: Any):
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._values[name]
        except KeyError:
            raise AttributeError(name) from None
        if callable(value):
            value = self._values[name] = value()
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

    def _exact(self) -> Exact:
        return Exact()  # no exact values unless the result has some

    @property
    def exact_value(self) -> Fraction | float | None:
        """The coefficient as an exact fraction (None if undefined; the float where there is none)."""
        return getattr(self.exact, self._main) if self._main in dir(self.exact) else float(self)

    def __format__(self, spec: str) -> str:
        """Format spec on the coefficient, rounded half up from its exact value (``f"{res:.3f}"``)."""
        return format_number(self.exact_value, spec)

    def _show(self, names: tuple, details: str, head: str = "") -> str:
        """The repr ``Name(head name=value, ...details)``, values rounded half up to 4 places (NaN as nan).

        A float within rounding of a tie (0.83125 stored as 0.831249999...),
        or too large for a float to hold its 4th decimal, is rounded from its
        exact value, as every number shown is.
        """

        def shown(name: str) -> Any:
            x = float(getattr(self, name))
            scaled = abs(x) * 1e4
            tie = math.isfinite(x) and abs(scaled % 1 - 0.5) < 1e-6 + scaled * 1e-9
            return getattr(self.exact, name) if tie else x

        values = ", ".join(f"{name}={fmt(shown(name), 4, 'nan')}" for name in names)
        return f"{type(self).__name__}({head}{values}{details})"

    def _weights_note(self) -> str:
        """``, weights=...`` for a repr, or nothing when unweighted."""
        return "" if self.weights is None else f", weights={self.weights!r}"


def _root(variance: float) -> float:
    """sqrt(variance), NaN where undefined; a variance rounding put a hair below 0 (exactly 0) gives 0."""
    return math.nan if math.isnan(variance) else math.sqrt(max(variance, 0.0))


def _name_of(metric: Any) -> str:
    """A metric given as a function or by name: its name."""
    return metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))


# ============================================================ uncertainty
def _quantile(confidence: float, df: int | None) -> float:
    """The two-sided critical value: Student's t with ``df`` degrees of freedom, or the normal (df None).

    Where df >= 10,000, t's from the normal by its expansion in 1 / df (Abramowitz and Stegun
    26.7.5, four terms), with the standard library's normal: it agrees with scipy's ``stdtrit``
    to 1e-15 (tests/test_uncertainty.py). Speed special case (bench_read.py: importing
    scipy.special cost 0.15-0.25 s of the 1,000,000 x 10 report, whose intervals are all t's).
    """
    tail = 1 - (1 - confidence) / 2
    if df is None or df < 10_000:
        from scipy import special  # on first use: importing iaa_teach does not import scipy

        return float(special.ndtri(tail) if df is None else special.stdtrit(df, tail))
    z = NormalDist().inv_cdf(tail)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _check_population(population: Any, n: int) -> int | None:
    """The finite population size N (None: infinite), at least the n items rated."""
    if population is None:
        return None
    population = check_int("population", population, 1)
    if population < n:
        raise AgreementError(
            f"population must be at least the {n} items rated (it is the size of the "
            f"population they were drawn from), got {population}"
        )
    return population


def _sampled(n: Any, population: int | None, exact: bool) -> Any:
    """f = n / N, the share of the population rated (0 for an infinite one); n may be an array of floats."""
    if population is None:
        return 0
    return Fraction(int(n), population) if exact else np.asarray(n, dtype=float) / population


@_result
class _Uncertain(_Result):
    """A coefficient with a standard error and a confidence interval.

    ``variance`` is the estimated sampling variance (NaN where it is
    undefined: an undefined coefficient, or fewer than 2 items); ``df`` the
    degrees of freedom of the t distribution the interval uses (None: the
    normal); ``population`` the size of the finite population of items the
    rated ones were drawn from (None: infinite), for the finite-population
    correction 1 - n / N.
    """

    variance: float = field(default=math.nan, kw_only=True)
    df: int | None = field(default=None, kw_only=True)
    population: int | None = field(default=None, kw_only=True)

    @property
    def se(self) -> float:
        """The standard error, sqrt(variance) (NaN where undefined).

        A variance that rounding put a hair below 0 (its exact value is 0)
        gives 0.
        """
        return _root(self.variance)

    @property
    def se_reason(self) -> str | None:
        """Why the standard error is undefined (NaN), if it is."""
        if not self.defined:
            return self.reason
        if math.isnan(self.variance):
            return "fewer than 2 items: there is no spread between items to estimate the standard error from"
        return None

    def ci(self, confidence: float = 0.95) -> tuple[float, float]:
        """The confidence interval (low, high): value -/+ critical value x standard error.

        The critical value is Student's t with ``df`` degrees of freedom
        (n - 1, as Gwet's handbook and irrCAC use) or, where ``df`` is None,
        the normal (Cohen's kappa, as statsmodels uses). No coefficient can
        exceed 1, so the upper limit is capped at 1 (as irrCAC does); the
        lower limit is not clipped. (NaN, NaN) where the standard error is
        undefined.
        """
        confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
        value, se = float(self), self.se
        if math.isnan(value) or math.isnan(se):
            return math.nan, math.nan
        half = _quantile(confidence, self.df) * se
        return value - half, min(1.0, value + half)


# ====================================================================== Cohen
@_result
class CohenResult(_Uncertain):
    """Cohen's kappa for one pair of raters, with its working and its standard error.

    Attributes
    ----------
    kappa, p_o, p_e : float
        The coefficient, observed and chance agreement (weighted agreement
        when ``weights`` is set: agreement weights ``w_jk = 1 - d_jk / max(d)``,
        :attr:`agreement_weights`).
    table : ndarray of int, shape (k, k)
        Rows: rater ``a``'s category; columns: rater ``b``'s.
    row_marginals, col_marginals : ndarray, shape (k,)
        Each rater's category proportions over the items used.
    weight_matrix : ndarray of int, shape (k, k)
        d_jk, the distance of categories j and k in their order (0 on the diagonal;
        1 elsewhere unweighted, else ``|j - k|`` or ``(j - k)**2``), from
        which the agreement weights are ``w_jk = 1 - d_jk / max(d)``.
    n_items, n_dropped : int
        Items rated by both raters (used) and items left out.
    reason : str or None
        Why kappa is undefined (NaN), if it is.
    variance, se : float
        The large-sample variance of Fleiss, Cohen and Everitt (1969) and its
        square root (statsmodels' ``var_kappa`` and ``std_kappa``), times
        1 - n / population when a finite ``population`` is given.
    variance_null, se_null : float
        The same under the hypothesis kappa = 0 (``var_kappa0``, ``std_kappa0``).
    ci(confidence=0.95)
        kappa -/+ z x se, the normal interval (as statsmodels), capped at 1.
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
    variance_null: float = field(default=math.nan, kw_only=True)
    _main = "kappa"

    @property
    def se_null(self) -> float:
        """The standard error under kappa = 0, sqrt(variance_null)."""
        return _root(self.variance_null)

    @property
    def agreement_weights(self) -> np.ndarray:
        """Agreement weights w_jk = 1 - d_jk / max(d) (1 on the diagonal; 0/1 when unweighted)."""
        return _frozen(F.agreement_weights(self.weight_matrix))

    def _exact(self) -> Exact:
        agree = F.agreement_weights(self.weight_matrix, exact=True)
        table = F.as_numbers(self.table[None], exact=True)
        kappa, p_o, p_e = _cohen(table, agree)  # None where no item is shared
        n = int(self.n_items)
        variance = variance_null = None
        if kappa[0] is not None and n >= 2:  # as the floats: no spread to estimate from a single item
            kept = 1 - _sampled(n, self.population, exact=True)  # the variances on first use, as the family's
            both = cache(lambda: [kept * v[0] for v in F.cohen_variance(table, agree)])
            variance, variance_null = (lambda: both()[0]), (lambda: both()[1])
        return Exact(  # the marginals and weights on first use: the report's pairs need kappa only
            kappa=_one(kappa),
            p_o=_one(p_o),
            p_e=_one(p_e),
            row_marginals=lambda: _exact_tuple(F.divide(table[0].sum(axis=1), n)),
            col_marginals=lambda: _exact_tuple(F.divide(table[0].sum(axis=0), n)),
            agreement_weights=lambda: _exact_tuple(agree),
            variance=variance,
            variance_null=variance_null,
        )

    def __repr__(self) -> str:
        return self._show(
            ("kappa", "p_o", "p_e"),
            f", n_items={self.n_items}{self._weights_note()}",
            f"{self.rater_a} vs {self.rater_b}: ",
        )


def _cohen(tables: np.ndarray, agreement: np.ndarray):
    """kappa, P_o, P_e of a batch of agreement tables: the one formula path (float, exact, bootstrap)."""
    p_o, p_e = F.cohen_agreement(tables, agreement)
    return F.chance_corrected(p_o, p_e), p_o, p_e


def _cohen_results(
    r: Ratings, pairs: list[tuple[int, int]], weights: str | None, population: int | None = None
) -> list[CohenResult]:
    w = _frozen(F.disagreement_weights(r.n_categories, weights))
    tables = r.pair_tables(pairs)
    agree = F.agreement_weights(w)
    kappa, p_o, p_e = _cohen(tables.astype(float), agree)
    n_used = tables.sum(axis=(1, 2))
    population = _check_population(population, int(n_used.max(initial=0)))
    kept = 1 - _sampled(n_used, population, exact=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance, variance_null = (
            np.where(n_used >= 2, v * kept, np.nan) for v in F.cohen_variance(tables.astype(float), agree)
        )
    rows, cols = F.divide(tables.sum(axis=2), n_used[:, None]), F.divide(tables.sum(axis=1), n_used[:, None])
    out = []
    for p, (ia, ib) in enumerate(pairs):
        n = int(n_used[p])
        a, b = r.raters[ia], r.raters[ib]
        reason = None
        if n == 0:
            reason = f"raters {a!r} and {b!r} never rated the same item, so there is nothing to compare"
        elif math.isnan(kappa[p]):
            reason = (
                f"chance agreement P_e = 1: both raters put every one of the {n} shared items "
                f"in the same single category, so kappa = 0/0 is undefined"
            )
        out.append(
            CohenResult(
                kappa=float(kappa[p]),
                p_o=float(p_o[p]),
                p_e=float(p_e[p]),
                table=_frozen(tables[p]),
                row_marginals=_frozen(rows[p]),
                col_marginals=_frozen(cols[p]),
                weight_matrix=w,
                rater_a=a,
                rater_b=b,
                categories=r.categories,
                weights=weights,
                n_items=n,
                n_dropped=r.n_items - n,
                reason=reason,
                variance=float(variance[p]),
                variance_null=float(variance_null[p]),
                population=population,
            )
        )
    return out


@options(weights=WEIGHTS)
def cohen_kappa(
    ratings: Any, a: Any = 0, b: Any = 1, weights: str | None = None, population: int | None = None
) -> CohenResult:
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
        Agreement weights w_jk over the category order (lesson 03): 1 on the
        diagonal, linear ``1 - |j - k| / (q - 1)`` or quadratic
        ``1 - (j - k)**2 / (q - 1)**2`` for categories j and k numbered 1 to
        q, the same kappa as ``sklearn.metrics.cohen_kappa_score`` gives.
        These are over the categories' positions; the family's Gwet weights
        (:func:`conger_kappa` and the others) use numeric categories' values.
    population : int, optional
        The number of items in the population the rated ones were drawn
        from, for the finite-population correction of the variance
        (default: infinite).

    Returns
    -------
    CohenResult
        With ``se`` and ``ci()`` from the large-sample variance of Fleiss,
        Cohen and Everitt (1969), as statsmodels' ``cohens_kappa`` computes
        it (NaN below 2 items).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> from iaa_teach.rounding import fmt
    >>> res = cohen_kappa(datasets.sentiment(), "A", "B")
    >>> print(f"{res:.3f}", res.exact.kappa, fmt(res.se))
    0.492 29/59 0.247
    """
    r = as_ratings(ratings)
    _check_order(r, weights is not None, f"weights={weights!r}")
    ia, ib = r.rater_index(a), r.rater_index(b)
    if ia == ib:
        raise AgreementError(f"Cohen's kappa compares two different raters, but both are {r.raters[ia]!r}")
    return _cohen_results(r, [(ia, ib)], weights, population)[0]


@_result
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
def pairwise_cohen(
    ratings: Any,
    weights: str | None = None,
    population: int | None = None,
    *,
    max_pairs: int | None = MAX_PAIRS,
) -> PairwiseCohenResult:
    """Cohen's kappa for every pair of raters (all tables in one vectorized pass), each with its se.

    At most ``max_pairs`` pairs (:data:`iaa_teach._validation.MAX_PAIRS`,
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
    check_limit(
        f"{r.n_raters} raters make {r.n_raters * (r.n_raters - 1) // 2:,} pairs; rater pairs",
        r.n_raters * (r.n_raters - 1) // 2,
        max_pairs,
        "max_pairs",
        "--max-pairs",
        advice="compare some of the raters: Ratings.subset(raters=[...])",
    )
    pairs = list(combinations(range(r.n_raters), 2))
    results = _cohen_results(r, pairs, weights, population)
    kappas = np.array([res.kappa for res in results])
    matrix = np.full((r.n_raters, r.n_raters), np.nan)
    ia, ib = np.array(pairs).T
    matrix[ia, ib] = kappas
    matrix[ib, ia] = kappas
    return PairwiseCohenResult(
        results=tuple(results),
        pairs=tuple((r.raters[i], r.raters[j]) for i, j in pairs),
        kappas=_frozen(kappas),
        matrix=_frozen(matrix),
        raters=r.raters,
        mean_kappa=float(kappas.mean()),
    )


# ===================================================================== Fleiss
class _Counts:
    """What a multi-rater result is computed from, kept for its exact values: the table, its count
    rows (as groups) and, on first use, their sums by number of ratings. No item with 2 or more
    ratings is an error."""

    def __init__(self, r: Ratings):
        self.ratings, self.patterns = r, r.count_patterns()
        if not (self.patterns.ratings_per_item >= 2).any():
            raise AgreementError(_NO_PAIRS)
        self.groups = FM.pattern_groups(self.patterns)

    @cached_property
    def sums(self) -> FM.SizeSums:
        return FM.size_sums(self.groups)

    def items(self, least: int) -> int:
        """How many items have at least ``least`` ratings."""
        return int(self.groups.frequency[self.groups.size >= least].sum())


@_result
class _CountedResult(_Uncertain):
    """A multi-rater result: keeps the table's counts (:class:`_Counts`) for exact values on demand."""

    _counts: Any = field(default=None, repr=False, kw_only=True)

    @cached_property
    def counts(self) -> np.ndarray:
        """Items x categories: how many ratings of each category item i holds (on first use)."""
        patterns = self._counts.patterns
        return _frozen(patterns.counts[patterns.item_pattern])

    @cached_property
    def raters_per_item(self) -> np.ndarray:
        """n_i (m_u for alpha): how many ratings each item holds (on first use)."""
        patterns = self._counts.patterns
        return _frozen(patterns.ratings_per_item[patterns.item_pattern])


def _is_defined(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _family(
    c: _Counts, model: str, agreement: np.ndarray, population: int | None
) -> tuple[FM.Fit, Callable[[], Any], Callable[[], dict]]:
    """A coefficient of the family, its variance and the groups' terms, in the weights' kind of number.

    One path for the float value and ``.exact`` (floats or Fractions): the
    groups' terms summed (:func:`iaa_teach._family.family_totals`), then the
    formulas, on the counts the result keeps.
    The variance is Gwet's (NaN, or None when exact, for an undefined
    coefficient or fewer than 2 rated items) and the count rows' own terms
    (:func:`iaa_teach._family.family_terms`) come as functions that compute
    them once, when asked: in fractions they take a square per count row.
    """
    exact = agreement.dtype == object
    terms = cache(lambda: FM.family_terms(c.groups, agreement))
    rater_counts = F.as_numbers(c.ratings.rater_counts(), exact) if model == "conger" else None
    totals = FM.family_totals(c.groups, agreement, None if exact else terms(), c.sums if exact else None)
    fitted = FM.fit(model, totals, agreement, rater_counts)
    n = fitted.n[0]

    @cache
    def variance():
        if not (_is_defined(fitted.coefficient[0]) and n >= 2):
            return None if exact else math.nan
        rows = FM.row_groups(c.ratings, distinct=exact) if model == "conger" else c.groups
        squares = FM.variance_squares(model, rows, agreement, fitted, rater_counts, terms())
        return F.linearized_variance(squares, n, _sampled(n, population, exact))

    return fitted, variance, terms


def _fit_counted(
    r: Ratings, model: str, weights: Any, population: Any
) -> tuple[FM.Fit, Callable[[], dict], dict]:
    """A multi-rater coefficient on ``r``, from its count rows.

    Returns the fit, the groups' terms (a function, as :func:`_family` gives
    them) and the fields every multi-rater result shares (its P_a, P_e,
    counts of items and ratings, weights and variance).
    """
    _check_order(r, isinstance(weights, str), f"weights={weights!r}")  # a named scheme needs the order
    agreement = FM.agreement_matrix(weights, r.categories)
    c = _Counts(r)
    n_rated = c.items(1)
    population = _check_population(population, n_rated)
    fitted, variance, terms = _family(c, model, agreement, population)
    named = weights if weights is None or isinstance(weights, str) else "custom"
    shared = dict(
        p_a=float(fitted.p_a[0]),
        p_e=float(fitted.p_e[0]),
        categories=r.categories,
        n_items_used=c.items(2),
        n_ratings=int(c.groups.frequency @ c.groups.size),
        weights=named,
        agreement_weights=_frozen(agreement),
        variance=float(variance()),
        df=n_rated - 1,
        population=population,
        _counts=c,
    )
    return fitted, terms, shared


def _item_agreement(patterns: CountPatterns, terms: dict, exact: bool) -> np.ndarray:
    """P_i of every item (NaN, or None when exact, below 2 ratings), from the count rows' terms."""
    p_i = np.where(patterns.ratings_per_item >= 2, terms["agreement"], None if exact else np.nan)
    return p_i[patterns.item_pattern]


def _exact_weights(result: Any) -> np.ndarray:
    """The result's agreement weights as Fractions: from the scheme's name, or a matrix's decimal readings."""
    given = result.agreement_weights if result.weights == "custom" else result.weights
    return FM.agreement_matrix(given, result.categories, exact=True)


@_result
class FleissResult(_CountedResult):
    """Fleiss' kappa with a per-item number of raters, and its working.

    Attributes
    ----------
    kappa, p_a, p_e : float
        The coefficient, mean observed agreement and chance agreement.
    p_i : ndarray, shape (n_items,)
        Agreement on each item, (sum_jl w_jl n_ij n_il - n_i) / (n_i (n_i - 1))
        (sum_j n_ij^2 unweighted); NaN for an item with fewer than 2 ratings.
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
    weights : str or None
        The weighting (``"custom"`` for a matrix); ``agreement_weights`` is
        the q x q matrix w_jl.
    reason : str or None
        Why kappa is undefined (NaN), if it is.
    variance, se, ci(confidence=0.95)
        Gwet's variance (see :func:`fleiss_kappa`), t interval with n - 1
        degrees of freedom.
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
    weights: Any = None
    agreement_weights: np.ndarray | None = None
    _main = "kappa"

    def _exact(self) -> Exact:
        agreement = _exact_weights(self)
        fitted, variance, terms = _family(self._counts, self.chance, agreement, self.population)
        return Exact(
            kappa=fitted.coefficient[0],
            p_a=fitted.p_a[0],
            p_e=fitted.p_e[0],
            p_j=_exact_tuple(fitted.p[0]),
            p_i=lambda: _exact_tuple(_item_agreement(self._counts.patterns, terms(), True)),
            agreement_weights=_exact_tuple(agreement),
            variance=variance,
        )

    def __repr__(self) -> str:
        return self._show(
            ("kappa", "p_a", "p_e"),
            f", chance={self.chance!r}, items used={self.n_items_used}, "
            f"ratings={self.n_ratings}{self._weights_note()}",
        )


_MISSING_RULE = """Missing ratings are handled as in Gwet's handbook and irrCAC: items with
    no rating are left out; P_a is the mean agreement over the items with 2
    or more ratings; the chance term uses every rating."""

_PARAMETERS_DOC = """Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells (``None``/NaN/``""``) allowed.
    {weights}"""

_WEIGHTS_DOC = """weights : None, str or array, shape (q, q)
        None (unweighted), one of ``"linear"``, ``"quadratic"``,
        ``"ordinal"``, ``"radical"``, ``"ratio"``, ``"circular"``,
        ``"bipolar"`` (Gwet's weights over the categories' values when all
        are numbers, else over 1..q; :func:`iaa_teach._formulas.gwet_weights`),
        or a symmetric q x q matrix of agreement weights in [0, 1] with 1 on
        the diagonal (:func:`iaa_teach._family.agreement_matrix`).
    population : int, optional
        Size of the population of items the rated ones were drawn from, for
        the finite-population correction 1 - n / N (default: infinite)."""


def _document(func: Callable) -> Callable:
    doc = func.__doc__.replace("{parameters}", _PARAMETERS_DOC).replace("{missing}", _MISSING_RULE)
    func.__doc__ = doc.replace("{weights}", _WEIGHTS_DOC)
    return func


@options(chance=CHANCE_RULES)
@_document
def fleiss_kappa(
    ratings: Any, chance: str = "pooled", weights: Any = None, population: int | None = None
) -> FleissResult:
    """Fleiss' kappa, with the number of raters allowed to vary per item.

    P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)) for each item with n_i >= 2
    ratings; P_a is their mean; P_e = sum_j p_j^2; kappa = (P_a - P_e) / (1 - P_e).
    With weights w_jl: P_i = (sum_jl w_jl n_ij n_il - n_i) / (n_i (n_i - 1))
    and P_e = sum_jl w_jl p_j p_l (Gwet 2014).

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells allowed. Items with fewer than 2 ratings are left out
        of P_a (their P_i is NaN) but still count towards ``p_j``; items
        with no rating count nowhere.
    chance : {"pooled", "item_mean"}
        ``"pooled"``: p_j = share of all ratings in category j (the
        partial-annotation text's rule, "all available annotations").
        ``"item_mean"``: p_j = mean over rated items of n_ij / n_i (the
        Cambridge MLRD notes' and Gwet's rule, as irrCAC computes it). On
        complete data both equal the classic Fleiss (1971) kappa.
    {weights}

    Returns
    -------
    FleissResult
        ``se`` and ``ci()``: Gwet's (2014) variance, sum_i (kappa*_i -
        kappa)^2 (1 - n / N) / (n (n - 1)) over the n rated items, with
        each item's linearized kappa*_i (:func:`iaa_teach._formulas.linearized_terms`);
        under ``"pooled"`` an item's chance term is linearized as the ratio
        it is (:func:`iaa_teach._formulas.ratio_item_terms`), which equals
        Gwet's on complete data.

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> from iaa_teach.rounding import fmt
    >>> res = fleiss_kappa(datasets.sentiment())
    >>> print(f"{res:.3f}", res.exact.kappa, res.exact.p_e, fmt(res.se))
    0.564 31/55 7/18 0.185
    """
    fitted, terms, shared = _fit_counted(as_ratings(ratings), chance, weights, population)
    kappa = float(fitted.coefficient[0])
    reason = None
    if math.isnan(kappa):  # formulas.chance_corrected: P_e is 1 (within EPS)
        reason = "chance agreement P_e = 1: every rating is in one category, so kappa = 0/0 is undefined"
    p_i = _frozen(_item_agreement(shared["_counts"].patterns, terms(), False))
    return FleissResult(
        kappa=kappa, p_i=p_i, p_j=_frozen(fitted.p[0]), chance=chance, reason=reason, **shared
    )


# ============================================================ Krippendorff
def _alpha(c: _Counts, level: str, population: int | None, exact: bool) -> tuple:
    """alpha, D_o, D_e, o, n_c, n, delta (batches of one) and the variance (a function), floats or exact.

    The variance is Gwet's (:func:`iaa_teach._family.alpha_squares`), with
    the weights 1 - delta / max(delta); NaN (None) where alpha or alpha' is
    undefined or fewer than 2 units are pairable.
    """
    sums = c.sums
    o = F.coincidences(sums.size, F.as_numbers(sums.counts, exact), F.as_numbers(sums.gram, exact))
    o = o.sum(axis=0)[None]  # summed over the numbers of values: a batch of one
    values = _category_values_of(c.ratings.categories, level, exact)
    alpha, d_o, d_e, n_c, n, delta = F.alpha_coefficient(o, level, values)

    @cache
    def variance() -> Any:
        if not _is_defined(_one(alpha)):
            return None if exact else math.nan
        d = np.asarray(delta[0], dtype=object if exact else float)
        alpha_prime, squares, n_used = FM.alpha_squares(c.groups, 1 - d / d.max())
        if not _is_defined(alpha_prime) or n_used < 2:
            return None if exact else math.nan
        return F.linearized_variance(squares, n_used, _sampled(c.items(1), population, exact))

    return alpha, d_o, d_e, o, n_c, n, delta, variance


@_result
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
    variance, se, ci(confidence=0.95)
        Gwet's variance of alpha (see :func:`krippendorff_alpha`), t
        interval with n - 1 degrees of freedom (n rated units).
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
        sums = self._counts.sums
        return _frozen(F.ordered_pairs(sums.counts, sums.gram).sum(axis=0))

    def _exact(self) -> Exact:
        alpha, d_o, d_e, o, n_c, n, delta, variance = _alpha(self._counts, self.level, self.population, True)
        return Exact(
            alpha=_one(alpha),
            d_o=_one(d_o),
            d_e=_one(d_e),
            coincidences=_exact_tuple(o[0]),
            n_c=_exact_tuple(n_c[0]),
            n=_one(n),
            delta=_exact_tuple(delta[0]),
            variance=variance,
        )

    def __repr__(self) -> str:
        return self._show(("alpha", "d_o", "d_e"), f", level={self.level!r}, n={self.n}")


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
            comma = isinstance(c, str) and re.fullmatch(r"\s*[+-]?\d+,\d+\s*", c)
            raise AgreementError(
                f"level {level!r} needs numeric categories, but category {c!r} is not a number; "
                + (
                    "a decimal comma? write the numbers with a decimal point (2.5), as a spreadsheet saves "
                    "them in an English locale, or replace the commas in the file"
                    if comma
                    else "use level='ordinal' for ordered labels"
                )
            )
        try:
            x = float(c)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            raise AgreementError(
                f"level {level!r} needs finite numbers, but the label {c!r} is not finite "
                f"(infinity, or a number too large for a float)"
            )
        if isinstance(c, (int, np.integer)) and int(x) != int(c):
            raise AgreementError(
                f"level {level!r} computes with floats, which cannot hold the label {c!r} exactly "
                f"(it would read as {x!r}); rescale the values"
            )
        if abs(x) > 1e100:
            raise AgreementError(
                f"level {level!r}: the label {c!r} is too large (at most 1e100 in size, so that "
                f"squared distances stay finite); rescale the values"
            )
    if level == "ratio" and any(float(c) < 0 for c in categories):
        raise AgreementError(
            f"level 'ratio' needs non-negative values, but the categories include "
            f"{min(float(c) for c in categories):g} (label "
            f"{min(categories, key=float)!r})"
        )
    if exact:
        return np.array([FM.exact_number(c) for c in categories], dtype=object)
    return np.array([float(c) for c in categories])


def _check_order(r: Ratings, needed: bool, what: str) -> None:
    """Weights and the ordinal level use the category order: it must have been declared (or be numeric)."""
    if needed and not r.ordered:
        raise AgreementError(
            f"{what} uses the order of the categories, but {list(r.categories)} are only sorted, "
            f"not declared: "
            f"give them in their order with categories=[...] (--categories on the command line)"
        )


@options(level=LEVELS)
def krippendorff_alpha(ratings: Any, level: str = "nominal", population: int | None = None) -> AlphaResult:
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
    population : int, optional
        Size of the population of units the rated ones were drawn from, for
        the finite-population correction 1 - n / N (default: infinite).

    Returns
    -------
    AlphaResult
        ``se`` and ``ci()``: Gwet's (2014) variance of alpha, with the
        agreement weights 1 - delta / max(delta) (the nominal, interval and
        ratio levels give Gwet's identity, quadratic and ratio weights; the
        ordinal distances, which depend on the data, are taken as fixed), as
        Gwet's irrCAC for R computes it from version 1.0 (2021) (see
        :func:`iaa_teach._family.alpha_squares`), and t with n - 1 degrees of
        freedom, n the rated units.

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
    _category_values_of(r.categories, level)  # a level that needs numbers fails here, naming the label
    c = _Counts(r)
    rated = c.items(1)
    population = _check_population(population, rated)
    alpha, d_o, d_e, o, n_c, n, delta, variance = _alpha(c, level, population, False)
    reason = None
    if math.isnan(alpha[0]):
        reason = (
            "expected disagreement D_e = 0: all pairable values are in one category, "
            "so alpha = 0/0 is undefined"
        )
    return AlphaResult(
        alpha=float(alpha[0]),
        d_o=float(d_o[0]),
        d_e=float(d_e[0]),
        coincidences=_frozen(o[0]),
        expected=_frozen(F.expected_coincidences(n_c, n)[0]),
        n_c=_frozen(n_c[0]),
        n=int(round(n[0])),
        delta=_frozen(np.array(delta[0])),
        level=level,
        categories=r.categories,
        n_units_used=c.items(2),
        reason=reason,
        variance=float(variance()),
        df=rated - 1,
        population=population,
        _counts=c,
    )


# ============================================================= the family
@_result(kw_only=True)
class _FamilyResult(_CountedResult):
    """A coefficient of the family (P_a - P_e) / (1 - P_e), with its working and its standard error.

    Attributes
    ----------
    p_a, p_e : float
        Observed agreement (the mean over items with 2 or more ratings of
        P_i = (sum_jk w_jk n_ij n_ik - n_i) / (n_i (n_i - 1))) and the chance
        agreement of this coefficient's model of chance.
    agreement_weights : ndarray, shape (q, q)
        The weights w_jk (the identity when unweighted); ``weights`` names
        them (None, a scheme, or ``"custom"``).
    n_items : int
        Rated items (at least one rating): the n of the variance.
    n_items_used : int
        Items with 2 or more ratings (those averaged into ``p_a``).
    n_ratings : int
        All ratings.
    variance, se, ci(confidence=0.95)
        Gwet's variance (1 - n / N) sum_i (c*_i - c)^2 / (n (n - 1)) with each
        item's linearized coefficient c*_i, and the t interval with n - 1
        degrees of freedom, capped at 1 (Gwet 2014, irrCAC).
    reason : str or None
        Why the coefficient is undefined (NaN), if it is.
    """

    p_a: float
    p_e: float
    categories: tuple
    n_items: int
    n_items_used: int
    n_ratings: int
    weights: Any = None
    agreement_weights: np.ndarray | None = None
    reason: str | None = None
    _model = ""  # its chance model (iaa_teach._family.CHANCE_MODELS)
    _undefined = ""  # when P_e = 1
    _label = ""
    _built_from = None  # the attribute holding what P_e is built from (a name, or None)

    @property
    def name(self) -> str:
        """The coefficient's name."""
        return self._label

    @classmethod
    def _parts(cls, fitted: FM.Fit, exact: bool) -> dict:
        """The coefficient's own intermediate values: what its P_e is built from."""
        if cls._built_from is None:
            return {}
        p = fitted.p[0]
        return {cls._built_from: _exact_tuple(p) if exact else _frozen(np.asarray(p, dtype=float))}

    def _exact(self) -> Exact:
        agreement = _exact_weights(self)
        fitted, variance, _ = _family(self._counts, self._model, agreement, self.population)
        values = {"p_a": fitted.p_a[0], "p_e": fitted.p_e[0], self._main: fitted.coefficient[0]}
        values.update(self._parts(fitted, exact=True))
        return Exact(**values, agreement_weights=_exact_tuple(agreement), variance=variance)

    def __repr__(self) -> str:
        shown = tuple(dict.fromkeys((self._main, "p_a", "p_e")))  # percent agreement's own value is p_a
        return self._show(
            shown, f", items used={self.n_items_used}, ratings={self.n_ratings}{self._weights_note()}"
        )


def _family_result(cls: type, r: Ratings, weights: Any, population: Any, **extra: Any) -> Any:
    """Compute a coefficient of the family on ``r`` and wrap it in ``cls``."""
    fitted, _, shared = _fit_counted(r, cls._model, weights, population)
    value = float(fitted.coefficient[0])
    reason = None
    if math.isnan(shared["p_e"]):
        reason = f"chance agreement P_e is undefined: {cls._undefined}"
    elif math.isnan(value):
        reason = f"chance agreement P_e = 1: {cls._undefined}, so (P_a - P_e) / (1 - P_e) = 0/0 is undefined"
    fields = {cls._main: value, **cls._parts(fitted, exact=False), **extra, **shared}
    return cls(**fields, n_items=shared["df"] + 1, reason=reason)


@_result(kw_only=True)
class PercentAgreementResult(_FamilyResult):
    """Percent agreement P_a: the coefficient with no chance model (P_e = 0); ``float(res)`` is ``p_a``."""

    _main = "p_a"
    _model = "none"
    _label = "percent agreement"


@_result(kw_only=True)
class BrennanPredigerResult(_FamilyResult):
    """Brennan and Prediger's coefficient S (Bennett, Alpert and Goldstein's for two raters): chance P_e = sum w / q^2.

    ``s`` is the coefficient; ``n_categories`` the q it divides by (every
    category of the table, used or not).
    """

    s: float
    _main = "s"
    _model = "uniform"
    _undefined = "there is one category (q = 1), or the weights count every pair of categories as agreeing"
    _label = "Brennan-Prediger S"

    @property
    def n_categories(self) -> int:
        return len(self.categories)


@_result(kw_only=True)
class ScottResult(_FamilyResult):
    """Scott's pi for two raters: chance from one distribution p_k shared by both.

    ``pi`` is the coefficient; ``p_k`` the shared category proportions;
    ``table`` the two raters' agreement table over the items both rated.
    """

    pi: float
    p_k: np.ndarray
    rater_a: Any
    rater_b: Any
    table: np.ndarray
    _main = "pi"
    _model = "item_mean"
    _undefined = "every rating is in one category"
    _label = "Scott's pi"
    _built_from = "p_k"


@_result(kw_only=True)
class GwetResult(_FamilyResult):
    """Gwet's AC1 (unweighted) or AC2 (weighted): chance P_e = sum w / (q (q - 1)) sum_k p_k (1 - p_k).

    ``ac`` is the coefficient; ``p_k`` the category proportions (the mean
    over rated items of n_ik / n_i).
    """

    ac: float
    p_k: np.ndarray
    _main = "ac"
    _model = "gwet"
    _undefined = "AC1 and AC2 need at least 2 categories"
    _built_from = "p_k"

    @property
    def name(self) -> str:
        return "AC1" if self.weights is None else "AC2"


@_result(kw_only=True)
class CongerResult(_FamilyResult):
    """Conger's kappa: chance P_e = the mean over pairs of raters of their own Cohen chance agreement.

    ``kappa`` is the coefficient; ``rater_proportions`` (raters x q) each
    rater's category proportions p_gk over the items they rated (a row of
    0 for a rater with no ratings, who is left out); ``raters`` their names.
    """

    kappa: float
    rater_proportions: np.ndarray
    raters: tuple
    _main = "kappa"
    _model = "conger"
    _undefined = "every rater put every rating in the same one category"
    _label = "Conger's kappa"
    _built_from = "rater_proportions"


@_document
def percent_agreement(
    ratings: Any, weights: Any = None, population: int | None = None
) -> PercentAgreementResult:
    """Percent agreement P_a: the share of agreeing pairs of ratings, with no chance correction.

    P_i = (sum_jk w_jk n_ij n_ik - n_i) / (n_i (n_i - 1)) on each item with
    n_i >= 2 ratings (the share of its ordered pairs of ratings that agree),
    and P_a is their mean. For two raters, the share of items on which they
    agree.

    {missing}

    {parameters}

    Returns
    -------
    PercentAgreementResult
        With Gwet's standard error (irrCAC's ``pa.coeff.raw``).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> from iaa_teach.rounding import fmt
    >>> res = percent_agreement(datasets.sentiment())
    >>> print(f"{res:.3f}", res.exact.p_a, fmt(res.se))
    0.733 11/15 0.109
    """
    return _family_result(PercentAgreementResult, as_ratings(ratings), weights, population)


@_document
def brennan_prediger(
    ratings: Any, weights: Any = None, population: int | None = None
) -> BrennanPredigerResult:
    """Brennan and Prediger's S (Bennett, Alpert and Goldstein's S for two raters).

    S = (P_a - P_e) / (1 - P_e) with P_e = sum_jk w_jk / q^2 (1/q
    unweighted): chance as a rater choosing each of the q categories with
    equal probability. q counts every category of the table, used or not
    (declare unused ones with ``categories=``).

    {missing}

    {parameters}

    Returns
    -------
    BrennanPredigerResult
        With Gwet's standard error (irrCAC's ``bp``).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = brennan_prediger(datasets.sentiment())
    >>> print(f"{res:.3f}", res.exact.s, res.exact.p_e)
    0.600 3/5 1/3
    """
    return _family_result(BrennanPredigerResult, as_ratings(ratings), weights, population)


@_document
def scott_pi(
    ratings: Any, a: Any = 0, b: Any = 1, weights: Any = None, population: int | None = None
) -> ScottResult:
    """Scott's pi between raters ``a`` and ``b``: one category distribution shared by both.

    pi = (P_a - P_e) / (1 - P_e) with P_e = sum_jk w_jk p_j p_k, p_j the
    proportion of category j (Scott 1955). On complete data p_j is the mean
    of the two raters' proportions; with missing ratings it is the mean over
    the items either rated of n_ij / n_i, and P_a the agreement over the
    items both rated (Fleiss' kappa of the two raters, as Gwet's handbook
    and irrCAC compute it).

    {missing}

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
    a, b : str or int
        Rater names or column indices.
    {weights}

    Returns
    -------
    ScottResult
        With Gwet's standard error (irrCAC's Fleiss' kappa of the two raters).

    Examples
    --------
    Artstein and Poesio's (2008) Table 4: coder A's and coder B's labels for
    100 utterances (Stat, IReq, Chck), A_o = 0.88 and P_e = 0.4014.

    >>> import numpy as np
    >>> a = [0] * 46 + [1] * 44 + [2] * 10
    >>> b = [0] * 46 + [0] * 6 + [1] * 32 + [2] * 6 + [2] * 10
    >>> res = scott_pi(np.array([a, b]).T)
    >>> print(f"{res:.4f}", res.exact.p_a, res.exact.p_e)
    0.7995 22/25 2007/5000
    """
    r = as_ratings(ratings)
    ia, ib = r.rater_index(a), r.rater_index(b)
    if ia == ib:
        raise AgreementError(f"Scott's pi compares two different raters, but both are {r.raters[ia]!r}")
    table = _frozen(r.pair_tables([(ia, ib)])[0])
    _check_order(r, isinstance(weights, str), f"weights={weights!r}")  # the pair's categories are declared
    # Fleiss' kappa (item_mean) of the two raters' own table; from their codes, not Ratings.subset, which
    # copies the item names one by one (bench_family.py: scott_pi was 3.4x irrCAC's CPU time, its bar is 5x)
    raters = (r.raters[ia], r.raters[ib])
    pair = Ratings.from_codes(r.codes[:, [ia, ib]], r.categories, raters, max_categories=None)
    return _family_result(
        ScottResult, pair, weights, population, rater_a=r.raters[ia], rater_b=r.raters[ib], table=table
    )


@_document
def conger_kappa(ratings: Any, weights: Any = None, population: int | None = None) -> CongerResult:
    """Conger's kappa: Cohen's kappa generalised to many raters (Conger 1980).

    P_a as Fleiss'; P_e the mean over pairs of different raters r, s of
    sum_jk w_jk p_rj p_sk, each rater's own category proportions p_rj over
    the items they rated. Two raters, complete data: Cohen's kappa.

    {missing} A rater with no rating at all is left out.

    {parameters}

    Returns
    -------
    CongerResult
        With Gwet's standard error (irrCAC's ``conger``).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = conger_kappa(datasets.sentiment())
    >>> print(f"{res:.3f}", res.exact.kappa)
    0.568 21/37
    """
    r = as_ratings(ratings)
    return _family_result(CongerResult, r, weights, population, raters=r.raters)


@_document
def gwet_ac(ratings: Any, weights: Any = None, population: int | None = None) -> GwetResult:
    """Gwet's AC1 (unweighted) and AC2 (weighted) agreement coefficients (Gwet 2008, 2014).

    P_e = sum_jk w_jk / (q (q - 1)) sum_j p_j (1 - p_j), p_j the mean over
    rated items of n_ij / n_i: chance agreement only on the items a rater
    rates at random. Less sensitive than kappa to skewed prevalence; with
    the categories used equally often (p_j = 1/q) it equals
    Brennan-Prediger's S.

    {missing}

    {parameters}

    Returns
    -------
    GwetResult
        With Gwet's standard error (irrCAC's ``gwet``).

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> res = gwet_ac(datasets.sentiment())
    >>> print(res.name, f"{res:.3f}", res.exact.ac, res.exact.p_e)
    AC1 0.616 77/125 11/36
    """
    return _family_result(GwetResult, as_ratings(ratings), weights, population)


# ================================================================ planning
#: The coefficients :func:`items_needed` plans for, with the chance model each takes under the planning model.
PLANNED = {
    "percent_agreement": "none",
    "brennan_prediger": "uniform",
    "scott_pi": "item_mean",
    "cohen_kappa": "item_mean",
    "fleiss_kappa": "item_mean",
    "conger_kappa": "item_mean",
    "gwet_ac": "gwet",
    "krippendorff_alpha": "item_mean",
}


@_result
class ItemsNeeded(_Result):
    """How many items a study needs for a confidence interval of a given half-width.

    Attributes
    ----------
    items : int
        The fewest items whose expected interval has ``half_width`` at most
        ``target`` (``int(result)``).
    half_width, se : float
        The expected half-width and standard error with that many items.
    per_item_sd : float
        sigma, the spread of one item's linearized coefficient: se ~ sigma / sqrt(n).
    unanimous : float
        lambda, the share of unanimous items in the planning model that
        gives the ``expected`` coefficient (see :func:`items_needed`).
    p_a, p_e : float
        Observed and chance agreement expected under that model.
    """

    items: int
    half_width: float
    se: float
    per_item_sd: float
    target: float
    coefficient: str
    expected: float
    raters: int
    proportions: tuple
    confidence: float
    unanimous: float
    p_a: float
    p_e: float
    _main = "items"

    def __int__(self) -> int:
        return self.items

    def _exact(self) -> Exact:
        return Exact(items=self.items)

    def __repr__(self) -> str:
        return (
            f"ItemsNeeded({self.items} items for a {format_number(self.confidence, '.0%')} interval of "
            f"half-width {fmt(self.half_width, 4)} <= {format_number(self.target, 'g')} around "
            f"{self.coefficient} = {format_number(self.expected, 'g')}, {self.raters} raters)"
        )


def _planned_variance(
    name: str, groups: FM.Groups, agreement: np.ndarray, proportions: np.ndarray, unanimous: float
) -> tuple[float, float, float]:
    """P_a, P_e and sigma^2 = n x variance of the coefficient on the population (frequencies as items)."""
    if name == "cohen_kappa":  # the expected agreement table of the two raters
        table = unanimous * np.diag(proportions) + (1 - unanimous) * np.outer(proportions, proportions)
        p_o, p_e = F.cohen_agreement(table[None], agreement)
        return float(p_o[0]), float(p_e[0]), float(F.cohen_variance(table[None], agreement)[0][0])
    model = PLANNED[name]
    fitted = FM.fit(model, FM.family_totals(groups, agreement), agreement)
    if name == "krippendorff_alpha":
        squares = FM.alpha_squares(groups, agreement)[1]
    else:
        squares = FM.variance_squares(model, groups, agreement, fitted)
    return float(fitted.p_a[0]), float(fitted.p_e[0]), float(squares)


def items_needed(
    coefficient: Any,
    expected: float,
    raters: int,
    proportions: Any,
    half_width: float,
    confidence: float = 0.95,
    weights: Any = None,
) -> ItemsNeeded:
    """How many items for a ``confidence`` interval of half-width at most ``half_width``?

    The planning model: every item is rated by all ``raters``; it is
    unanimous with probability lambda (all give the label k, drawn with
    probability p_k from ``proportions``), and otherwise each rater labels
    it independently with probabilities p. Each rating is then in category
    k with probability p_k, and lambda is set so that the coefficient's
    population value is ``expected``. The standard error follows from the
    same variance formulas as the coefficient's ``se``, on every possible
    count row weighted by its probability: se = sigma / sqrt(n). The answer
    is the smallest n with critical value x sigma / sqrt(n) <= half_width,
    the critical value being the one the coefficient's ``ci()`` uses (t with
    n - 1 degrees of freedom; the normal for Cohen's kappa). Under this
    model Conger's kappa plans as Fleiss' (the raters share p), and
    Krippendorff's alpha (nominal, or ``weights``) as its large-sample value.

    Parameters
    ----------
    coefficient : callable or str
        One of :data:`PLANNED` (the function or its name).
    expected : float
        The value you expect the coefficient to take.
    raters : int
        Raters per item (2 for Cohen's kappa and Scott's pi).
    proportions : sequence of float
        The expected share of each category (q >= 2 numbers summing to 1).
    half_width : float
        The largest acceptable half-width of the interval.
    confidence : float
        Coverage of the interval.
    weights : None or str or array
        Agreement weights over the categories 1..q, as the family takes them
        (Cohen's kappa: None, "linear" or "quadratic").

    Returns
    -------
    ItemsNeeded

    Examples
    --------
    >>> from iaa_teach.rounding import fmt
    >>> plan = items_needed("fleiss_kappa", 0.6, raters=3, proportions=[0.5, 0.3, 0.2], half_width=0.1)
    >>> print(plan.items, fmt(plan.half_width, 4))
    131 0.0999
    """
    name = check_option("coefficient", _name_of(coefficient), tuple(PLANNED))
    raters = check_int("raters", raters, 2)
    if name in ("cohen_kappa", "scott_pi") and raters != 2:
        raise AgreementError(f"{name} compares two raters, so raters must be 2, got {raters}")
    if name == "cohen_kappa":
        check_option("weights for cohen_kappa", weights, WEIGHTS)
    expected = check_number("expected", expected, highest=1.0)
    half_width = check_number("half_width", half_width, 0.0, open_low=True)
    confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
    try:
        p = np.array(proportions, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise AgreementError(f"proportions must be numbers, one per category; got {proportions!r}") from None
    if len(p) < 2 or not np.isfinite(p).all() or (p < 0).any() or abs(p.sum() - 1) > 1e-9:
        raise AgreementError(
            f"proportions must be 2 or more shares of at least 0 that sum to 1; got {proportions!r}"
        )
    agreement = FM.agreement_matrix(weights, tuple(range(1, len(p) + 1)))
    independent = float(F.fleiss_chance(p, agreement))
    _, p_e, _ = _planned_variance(name, FM.population_groups(raters, p, 0.0), agreement, p, 0.0)
    if independent >= 1 - F.EPS or p_e >= 1 - F.EPS:
        raise AgreementError(
            "with these proportions every rating is in one category: the coefficient is undefined"
        )
    lowest = float(F.chance_corrected(independent, p_e))  # the coefficient when raters label independently
    if not lowest - 1e-12 <= expected <= 1:
        raise AgreementError(
            f"expected {name} = {expected:g} is below what the planning model reaches with these "
            f"proportions: {fmt(lowest, 4)} (raters labelling independently) up to 1"
        )
    unanimous = min(1.0, max(0.0, (expected * (1 - p_e) + p_e - independent) / (1 - independent)))
    p_a, p_e, sigma2 = _planned_variance(
        name, FM.population_groups(raters, p, unanimous), agreement, p, unanimous
    )
    sigma = _root(sigma2)
    df = (lambda n: None) if name == "cohen_kappa" else (lambda n: n - 1)
    n = max(2, math.ceil((_quantile(confidence, None) * sigma / half_width) ** 2))
    while _quantile(confidence, df(n)) * sigma / math.sqrt(n) > half_width:
        n += 1
    return ItemsNeeded(
        items=n,
        half_width=_quantile(confidence, df(n)) * sigma / math.sqrt(n),
        se=sigma / math.sqrt(n),
        per_item_sd=sigma,
        target=half_width,
        coefficient=name,
        expected=expected,
        raters=raters,
        proportions=tuple(float(x) for x in p),
        confidence=confidence,
        unanimous=unanimous,
        p_a=p_a,
        p_e=p_e,
    )


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
        try:
            v = None if isinstance(value, (bool, str, bytes)) or value is None else float(value)
        except (TypeError, ValueError, OverflowError):
            v = None
        if v is None or not math.isnan(v) and not -1.0 <= v <= 1.0:
            hint = " (a percentage? divide it by 100)" if v is not None and 1 < v <= 100 else ""
            raise AgreementError(f"interpret takes a coefficient between -1 and 1, got {value!r}{hint}")
    if math.isnan(v):
        return "undefined"
    if v < 0:
        return "poor"
    return next((name for _, upper, name in BANDS[1:] if v <= upper), BANDS[-1][2])


# ================================================================ bootstrap
@_result
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

    def __repr__(self) -> str:
        return (
            f"BootstrapResult({self.metric}: {fmt(self.estimate, 4, 'nan')}, "
            f"{format_number(self.confidence, '.0%')} CI "
            f"[{fmt(self.low, 4, 'nan')}, {fmt(self.high, 4, 'nan')}], n_boot={self.n_boot})"
        )


_METRICS: dict[str, Callable] = {
    "cohen_kappa": cohen_kappa,
    "fleiss_kappa": fleiss_kappa,
    "krippendorff_alpha": krippendorff_alpha,
    "percent_agreement": percent_agreement,
    "brennan_prediger": brennan_prediger,
    "scott_pi": scott_pi,
    "conger_kappa": conger_kappa,
    "gwet_ac": gwet_ac,
}


def _family_plan(name: str, r: Ratings, kwargs: dict, point: Any) -> tuple[np.ndarray, np.ndarray, Callable]:
    """The bootstrap plan of a coefficient of the family: count rows as groups (code rows for Conger).

    The chance model and the agreement weights are those of ``point``, the coefficient on ``r``.
    """
    if name == "scott_pi":
        r = r.subset(raters=[kwargs.get("a", 0), kwargs.get("b", 1)])
    model = point.chance if name == "fleiss_kappa" else point._model
    agreement = point.agreement_weights
    k, raters = r.n_categories, r.n_raters
    if model == "conger":  # each distinct code row a group; its raters' labels as terms too
        rows, group = np.unique(r.codes, axis=0, return_inverse=True)
        labels = rows[:, :, None] == np.arange(k)
        counts = labels.sum(axis=1)
        groups = FM.Groups(counts.sum(axis=1), counts, np.ones(len(rows), dtype=np.int64))
        own = labels.reshape(len(rows), raters * k)
    else:
        patterns = r.count_patterns()
        groups, group, own = (
            FM.pattern_groups(patterns),
            patterns.item_pattern,
            np.zeros((len(patterns.counts), 0)),
        )
    terms = FM.family_terms(groups, agreement)  # side by side in the plan's columns, one or q each
    shapes = [np.shape(value)[1:] for value in terms.values()]
    cut = np.cumsum([0] + [int(np.prod(shape)) for shape in shapes])

    def formula(s: np.ndarray) -> np.ndarray:
        summed = {
            key: s[:, lo:hi].reshape((-1,) + shape) for key, shape, lo, hi in zip(terms, shapes, cut, cut[1:])
        }
        rater_counts = s[:, cut[-1] :].reshape(-1, raters, k) if model == "conger" else None
        return FM.fit(model, summed, agreement, rater_counts).coefficient

    stacked = [np.asarray(value, dtype=float) for value in terms.values()]
    return np.asarray(group).reshape(-1), np.column_stack(stacked + [own]), formula


#: Most numbers (distinct count rows x categories x categories) that a bootstrap plan may hold.
_BOOT_NUMBERS = 1 << 24


def _bootstrap_plan(
    name: str, r: Ratings, kwargs: dict, point: Any
) -> tuple[np.ndarray, np.ndarray | None, Callable]:
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
        agree = point.agreement_weights
        return group, terms, lambda s: _cohen(s.reshape(-1, k, k), agree)[0]
    if name != "krippendorff_alpha":
        return _family_plan(name, r, kwargs, point)
    patterns = r.count_patterns()
    size = len(patterns.counts) * k * k
    if size > _BOOT_NUMBERS:
        raise AgreementError(
            f"bootstrap_ci({name}): {len(patterns.counts):,} distinct rows of counts x {k} x {k} "
            f"categories need {size:,} numbers, more than the limit of {_BOOT_NUMBERS:,}; merge "
            f"categories, or bootstrap fewer items"
        )
    c = patterns.counts.astype(float)  # each distinct count row a group of one item
    level = kwargs.get("level", "nominal")
    values = _category_values_of(r.categories, level)
    terms = F.coincidences(patterns.ratings_per_item, c, c[:, :, None] * c[:, None, :]).reshape(len(c), k * k)
    return patterns.item_pattern, terms, lambda s: F.alpha_coefficient(s.reshape(-1, k, k), level, values)[0]


def bootstrap_ci(
    metric: Any,
    ratings: Any,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: Any = None,
    *,
    max_boot: int | None = MAX_BOOT,
    **kwargs: Any,
) -> BootstrapResult:
    """Percentile bootstrap confidence interval, resampling items.

    Items with the same count row (or, for Cohen, the same pair of labels)
    contribute the same terms, so a replicate needs only how often each was
    drawn; every replicate then goes through the metric's own formula, in
    one vectorized pass per chunk of replicates.

    Parameters
    ----------
    metric : callable or str
        Any coefficient of the package: :func:`cohen_kappa`,
        :func:`fleiss_kappa`, :func:`krippendorff_alpha`,
        :func:`percent_agreement`, :func:`brennan_prediger`,
        :func:`scott_pi`, :func:`conger_kappa` or :func:`gwet_ac` (or its name).
    ratings : Ratings or table
    n_boot : int
        Number of bootstrap replicates.
    confidence : float
        Coverage of the interval, e.g. 0.95.
    seed : int or numpy.random.Generator, optional
        Same seed, same interval.
    max_boot : int or None
        Most replicates allowed (:data:`iaa_teach._validation.MAX_BOOT`);
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
    name = check_option("metric", _name_of(metric), tuple(_METRICS))
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
    group, terms, formula = _bootstrap_plan(name, r, kwargs, point)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n, n_groups = r.n_items, (r.n_categories**2 + 1 if terms is None else len(terms))
    chunk = max(1, min(n_boot, 4_000_000 // max(n, n_groups, 1)))  # draws and group counts: 4 million a chunk
    samples = []
    for done in range(0, n_boot, chunk):
        b = min(chunk, n_boot - done)
        drawn = group[rng.integers(0, n, size=(b, n))] + (np.arange(b) * n_groups)[:, None]
        freq = np.bincount(drawn.ravel(), minlength=b * n_groups).reshape(b, n_groups).astype(float)
        # the summed terms by einsum's own loops, not a BLAS product: a threaded product waits for
        # busy cores (twice as slow with one core busy), and the speed would depend on BLAS threads
        summed = freq[:, :-1] if terms is None else np.einsum("bg,gf->bf", freq, terms)
        with np.errstate(invalid="ignore", divide="ignore"):
            samples.append(formula(summed))
    samples = np.concatenate(samples)
    ok = samples[~np.isnan(samples)]
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(ok, [tail, 100 - tail]) if ok.size else (np.nan, np.nan)
    return BootstrapResult(
        estimate=float(point),
        low=float(low),
        high=float(high),
        confidence=confidence,
        n_boot=n_boot,
        n_undefined=int(samples.size - ok.size),
        samples=_frozen(samples),
        metric=name,
    )


# ================================================================ the family at once
@options(level=LEVELS)
def _family_calls(ratings: Any, weights: Any = None, level: str = "nominal") -> list[tuple[str, str, dict]]:
    """Which coefficients :func:`agreement_family` computes for ``ratings``, and how: (name, metric, kwargs).

    Two raters: percent agreement, Brennan-Prediger S (for two raters
    Bennett, Alpert and Goldstein's S; one name in the course), Scott's pi,
    Cohen's kappa, Gwet's AC1 (AC2 weighted) and Krippendorff's alpha. Three
    or more: Fleiss' kappa (the many-rater pi) and Conger's kappa (the
    many-rater Cohen) in their places. With weights other than
    Cohen's own (None, ``"linear"``, ``"quadratic"``), two raters get
    Conger's kappa, which takes Gwet's weights. ``level`` is alpha's.
    A call's ``metric`` and ``kwargs`` can be passed to :func:`bootstrap_ci`.

    >>> from iaa_teach import datasets
    >>> print(", ".join(name for name, _, _ in _family_calls(datasets.sentiment())))
    percent agreement, Brennan-Prediger S, Fleiss' kappa, Conger's kappa, Gwet's AC1, Krippendorff's alpha
    """
    r = as_ratings(ratings)
    two = r.n_raters == 2
    w, pair = {"weights": weights}, {"a": 0, "b": 1, "weights": weights}
    cohen = two and (weights is None or (isinstance(weights, str) and weights in WEIGHTS))
    return [
        ("percent agreement", "percent_agreement", w),
        ("Brennan-Prediger S", "brennan_prediger", w),
        ("Scott's pi", "scott_pi", pair) if two else ("Fleiss' kappa", "fleiss_kappa", w),
        ("Cohen's kappa", "cohen_kappa", pair) if cohen else ("Conger's kappa", "conger_kappa", w),
        ("Gwet's AC1" if weights is None else "Gwet's AC2", "gwet_ac", w),
        ("Krippendorff's alpha", "krippendorff_alpha", {"level": level}),
    ]


def agreement_family(ratings: Any, weights: Any = None, level: str = "nominal") -> dict[str, Any]:
    """The chance-corrected family on one table: coefficient name -> result, in teaching order.

    Every result has ``se`` and ``ci()``; which coefficients, and with which
    arguments, :func:`_family_calls` says. Pass the dict to
    :func:`iaa_teach.plots.family_chart` or :func:`iaa_teach.plots.chance_chart`.

    >>> from iaa_teach import datasets
    >>> family = agreement_family(datasets.sentiment())
    >>> for name, res in family.items():
    ...     print(f"{name} {res:.3f}")
    percent agreement 0.733
    Brennan-Prediger S 0.600
    Fleiss' kappa 0.564
    Conger's kappa 0.568
    Gwet's AC1 0.616
    Krippendorff's alpha 0.578
    """
    r = as_ratings(ratings)
    return {name: _METRICS[metric](r, **kwargs) for name, metric, kwargs in _family_calls(r, weights, level)}


class FamilyInterval(NamedTuple):
    """One coefficient of the family with its standard error and confidence interval.

    ``method`` is ``"analytic"`` (``result.se`` and ``result.ci()``) or
    ``"bootstrap"`` (the standard deviation and percentiles of
    ``bootstrap.samples``); ``se``, ``low``, ``high`` are NaN where
    undefined, and ``reason`` then says why.
    """

    name: str
    metric: str
    result: Any
    se: float
    low: float
    high: float
    method: str
    confidence: float
    bootstrap: BootstrapResult | None = None

    @property
    def reason(self) -> str | None:
        """Why the coefficient, or its standard error, is undefined (None if both are defined)."""
        if not self.result.defined:
            return self.result.reason
        if math.isnan(self.se):
            if self.bootstrap is not None:
                return "fewer than 2 bootstrap replicates are defined"
            return self.result.se_reason
        return None


@options(method=INTERVAL_METHODS)
def family_intervals(
    ratings: Any,
    weights: Any = None,
    level: str = "nominal",
    method: str = "analytic",
    confidence: float = 0.95,
    n_boot: int = 1000,
    seed: Any = 0,
) -> list[FamilyInterval]:
    """Every coefficient of :func:`agreement_family` with its standard error and interval.

    ``method="analytic"``: each result's own ``se`` and ``ci(confidence)``
    (Gwet's variances; Cohen's kappa: Fleiss, Cohen and Everitt's).
    ``method="bootstrap"``: :func:`bootstrap_ci` with ``n_boot`` replicates
    and the same ``seed`` for every coefficient (so every coefficient sees
    the same resampled tables); the standard error is the standard
    deviation of the defined replicates.

    >>> from iaa_teach import datasets
    >>> from iaa_teach.rounding import fmt
    >>> row = family_intervals(datasets.sentiment())[1]
    >>> print(row.name, f"{row.result:.3f}", fmt(row.se), f"[{fmt(row.low)}, {fmt(row.high)}]")
    Brennan-Prediger S 0.600 0.163 [0.231, 0.969]
    """
    confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
    r = as_ratings(ratings)
    _category_values_of(r.categories, level)  # a level that needs finite numbers fails here, naming the label
    rows = []
    for name, metric, kwargs in _family_calls(r, weights, level):
        result = _METRICS[metric](r, **kwargs)
        if method == "analytic":
            low, high = result.ci(confidence)
            rows.append(FamilyInterval(name, metric, result, result.se, low, high, method, confidence))
            continue
        boot = bootstrap_ci(metric, r, n_boot=n_boot, confidence=confidence, seed=seed, **kwargs)
        ok = boot.samples[~np.isnan(boot.samples)]  # the standard deviation of the defined replicates
        se = float(np.std(ok, ddof=1)) if result.defined and ok.size >= 2 else math.nan
        low, high = (boot.low, boot.high) if result.defined else (math.nan, math.nan)
        rows.append(FamilyInterval(name, metric, result, se, low, high, method, confidence, boot))
    return rows
