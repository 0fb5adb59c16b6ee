"""The chance-corrected family, from counts: P_a, the chance models and Gwet's variances.

Every coefficient of the family is (P_a - P_e) / (1 - P_e); they share the
observed agreement P_a and differ in their model of chance P_e (Gwet 2014,
Artstein and Poesio 2008). This room sits between :mod:`iaa_teach._formulas`
(each formula once) and :mod:`iaa_teach.metrics` (the result objects): it
groups the counts of a :class:`~iaa_teach.Ratings` table, resolves the
agreement weights, and sends the group sums through the formulas, for one
table (floats or exact fractions) or a batch of bootstrap replicates.

Groups
------
Items with the same count row (the same number of ratings in each category)
contribute the same to P_a and to every chance model but Conger's, so the
numbers are sums over the distinct count rows (:func:`pattern_groups`), each
with its frequency. Conger's chance term depends on which rater gave which
label, so its variance sums over the items' code rows (:func:`row_groups`).
Exact P_a and P_e come from integer sums over the items with each number of
ratings (:func:`size_sums`, :func:`family_totals`): a few fractions per
number of ratings, not per count row.

Missing ratings, as in Gwet's handbook and his irrCAC package
-----------------------------------------------------------------
Items with no rating are left out. P_a is the mean agreement over the items
with 2 or more ratings; the chance terms use every rating (an item rated
once still counts towards the category proportions); n in the variance is
the number of rated items.

>>> from iaa_teach import Ratings
>>> r = Ratings.from_rows([["a", "a"], ["a", "b"], ["b", "b"], ["b", None]])
>>> w = agreement_matrix(None, r.categories, exact=True)
>>> groups = pattern_groups(r.count_patterns())
>>> res = fit("gwet", family_totals(groups, w), w)
>>> print(res.p_a[0], res.p_e[0], res.coefficient[0])
2/3 15/32 19/51
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

import numpy as np

from . import _formulas as F
from ._formulas import WEIGHT_SCHEMES
from .ratings import AgreementError, CountPatterns, Ratings

#: The chance models, by name: what P_e assumes about ratings given at random.
CHANCE_MODELS = {
    "none": "no chance correction: P_e = 0 (percent agreement)",
    "uniform": "every category equally likely: P_e = sum w / q^2 (Brennan-Prediger S)",
    "pooled": "one distribution for all raters, each rating's share: P_e = sum w p_k p_l",
    "item_mean": "one distribution for all raters, the mean over items of n_ik / n_i (Fleiss, Scott)",
    "gwet": "a rating is random only on hard items: P_e = sum w / (q (q - 1)) sum p_k (1 - p_k) (AC1, AC2)",
    "conger": "each rater their own distribution: the mean of the pairwise Cohen P_e (Conger)",
}


# ================================================================ weights
def exact_number(value: Any) -> Fraction:
    """A number as a Fraction: ints exactly, floats as their decimal reading (0.1 -> 1/10)."""
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    return Fraction(repr(float(value)))


def category_values(categories: tuple, exact: bool = False) -> np.ndarray:
    """The categories as numbers for Gwet's weights: their values if all are numbers, else 1, 2, ..., q.

    >>> category_values((1, 2, 5)).tolist(), category_values(("low", "mid", "high")).tolist()
    ([1.0, 2.0, 5.0], [1.0, 2.0, 3.0])
    """
    numbers = all(
        isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool) for c in categories
    )
    values = list(categories) if numbers else list(range(1, len(categories) + 1))
    if exact:
        return np.array([exact_number(v) for v in values], dtype=object)
    return np.array([float(v) for v in values])


def agreement_matrix(weights: Any, categories: tuple, exact: bool = False) -> np.ndarray:
    """The q x q agreement weights w_kl for ``weights`` over ``categories``.

    ``weights`` is None (1 on the diagonal, 0 elsewhere), one of
    :data:`WEIGHT_SCHEMES` (Gwet's definitions, :func:`iaa_teach._formulas.gwet_weights`,
    over the categories' values when all are numbers, else over 1..q), or a
    q x q matrix: finite, symmetric (an agreement between two labels cannot
    depend on which rater gave which), 1 on the diagonal and between 0 and 1.
    A matrix's exact values are its entries' decimal readings.

    >>> agreement_matrix("quadratic", ("G", "N", "P")).tolist()
    [[1.0, 0.75, 0.0], [0.75, 1.0, 0.75], [0.0, 0.75, 1.0]]
    """
    q = len(categories)
    if weights is None or isinstance(weights, str):  # an unknown scheme: gwet_weights' error
        values = category_values(categories, exact)
        if weights == "ratio" and q > 1 and any(v <= 0 for v in values):
            raise AgreementError(
                f"weights 'ratio' need positive category values, but the categories include "
                f"{min(values)}; use 'linear' or 'quadratic' for values that can be 0 or below"
            )
        return F.gwet_weights(weights, values)
    try:
        matrix = np.array(weights, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(
            f"weights must be None, one of {', '.join(map(repr, WEIGHT_SCHEMES))} or a "
            f"{q} x {q} matrix of numbers; got {weights!r}"
        ) from None
    if matrix.shape != (q, q):
        raise AgreementError(
            f"a weights matrix must be {q} x {q} (one row and column per category), got shape {matrix.shape}"
        )
    if not np.isfinite(matrix).all():
        raise AgreementError("weights must be finite numbers, but the matrix holds NaN or infinity")
    if (matrix < 0).any() or (matrix > 1).any():
        k, m = np.argwhere((matrix < 0) | (matrix > 1))[0]
        raise AgreementError(f"weights must lie between 0 and 1, but w[{k}, {m}] = {matrix[k, m]:g}")
    if (np.diag(matrix) != 1).any():
        k = int(np.flatnonzero(np.diag(matrix) != 1)[0])
        raise AgreementError(
            f"weights must be 1 on the diagonal (a label agrees fully with itself), "
            f"but w[{k}, {k}] = {matrix[k, k]:g}"
        )
    if (matrix != matrix.T).any():
        k, m = np.argwhere(matrix != matrix.T)[0]
        raise AgreementError(
            f"weights must be symmetric (w[k, l] = w[l, k]: two labels agree as much whichever "
            f"rater gave which), but w[{k}, {m}] = {matrix[k, m]:g} and w[{m}, {k}] = "
            f"{matrix[m, k]:g}; (w + w.T) / 2 is the symmetric matrix with the same coefficients"
        )
    if exact:
        return np.array([exact_number(x) for x in matrix.reshape(-1).tolist()], dtype=object).reshape(q, q)
    return matrix


# ================================================================= groups
class Groups(NamedTuple):
    """Items grouped so that the items of a group contribute the same.

    ``size`` (G,) ratings per item, ``counts`` (G, q) ratings per category,
    ``frequency`` (G,) items in the group (a share of items in
    :func:`population_groups`), ``rows`` (G, r) the category codes of the
    group's items (-1 = missing), for Conger's kappa only (else None), and
    ``pattern`` (G,) the count row of each (its row in
    :meth:`Ratings.count_patterns`), when the groups are code rows.
    """

    size: np.ndarray
    counts: np.ndarray
    frequency: np.ndarray
    rows: np.ndarray | None = None
    pattern: np.ndarray | None = None


def pattern_groups(patterns: CountPatterns) -> Groups:
    """Items grouped by their count row (:meth:`Ratings.count_patterns`)."""
    return Groups(patterns.ratings_per_item, patterns.counts, patterns.frequency)


def row_groups(ratings: Ratings, distinct: bool) -> Groups:
    """Items with their code rows: one group per item, or per distinct row (``distinct=True``).

    Items with no rating are left out.
    """
    codes = ratings.codes
    patterns = ratings.count_patterns()
    pattern = patterns.item_pattern
    rated = patterns.ratings_per_item[pattern] >= 1
    if not rated.all():
        codes, pattern = codes[rated], pattern[rated]
    if distinct:
        codes, first, frequency = np.unique(codes, axis=0, return_index=True, return_counts=True)
        pattern = pattern[first]
    else:
        frequency = np.ones(len(codes), dtype=np.int64)
    return Groups(
        patterns.ratings_per_item[pattern],
        patterns.counts[pattern],
        frequency.astype(np.int64),
        codes,
        pattern,
    )


class SizeSums(NamedTuple):
    """Integer sums over the items that share a number of ratings m, for each m that occurs (``size``).

    Over the items with ``size[g]`` ratings: ``items[g]`` how many there
    are, ``counts[g, j]`` = sum of n_ij, ``gram[g]`` = sum of the outer
    products n_i n_i^T (q x q; 0 for m < 2: no pairs). Exact values are
    computed from these integers: Krippendorff's alpha (its floats too) and
    the family's totals (:func:`family_totals`).
    """

    size: np.ndarray
    items: np.ndarray
    counts: np.ndarray
    gram: np.ndarray


def size_sums(groups: Groups) -> SizeSums:
    """The groups' items summed by their number of ratings (:class:`SizeSums`), with whole frequencies."""
    c, f = np.asarray(groups.counts), np.asarray(groups.frequency)
    # only the numbers of ratings that occur: with 3000 raters and 200 categories, a k x k sum
    # for every possible number would take a gigabyte
    size, group = np.unique(groups.size, return_inverse=True)
    group = group.reshape(-1)
    k = c.shape[1]
    n_sizes = len(size)
    items = np.rint(np.bincount(group, weights=f, minlength=n_sizes)).astype(np.int64)
    flat = (group[:, None] * k + np.arange(k)).ravel()
    counts = np.rint(np.bincount(flat, weights=(c * f[:, None]).ravel(), minlength=n_sizes * k))
    counts = counts.astype(np.int64).reshape(n_sizes, k)
    return SizeSums(size, items, counts, _gram(c, f, np.where(size[group] >= 2, group, -1), n_sizes))


def _gram(c: np.ndarray, f: np.ndarray, group: np.ndarray, n_sizes: int) -> np.ndarray:
    """sum_rows f c c^T per group (rows in group -1 left out), from the non-zero counts only.

    A count row has at most n_raters non-zero entries, so each row adds at
    most n_raters^2 products, counted with one weighted bincount per block of
    rows (never a k x k product per row, nor an integer matrix product). Kept, as a speed
    special case, rather than one scipy.sparse product (as fast, and shorter): importing
    scipy.sparse cost 0.33 s of the 1,000,000 x 10 report, whose bar is 2x pandas.read_csv
    (bench_read.py).
    """
    k = c.shape[1]
    gram = np.zeros(n_sizes * k * k, dtype=np.float64)
    rows, cols = np.nonzero(c * (group >= 0)[:, None])
    vals = c[rows, cols]
    nz = np.bincount(rows, minlength=len(c))
    first = np.concatenate(([0], np.cumsum(nz)[:-1]))
    per_block = max(1, (1 << 22) // int(nz.max(initial=1)) ** 2)  # initial: no non-zero count at all
    for start in range(0, len(c), per_block):  # blocks of count rows: at most 4 million products each
        lo, hi = first[start], (first[start + per_block] if start + per_block < len(c) else len(rows))
        if lo == hi:
            continue
        mine = np.arange(lo, hi)
        reps = nz[rows[mine]]
        left = np.repeat(mine, reps)
        right = first[rows[left]] + np.arange(len(left)) - np.repeat(np.cumsum(reps) - reps, reps)
        key = (group[rows[left]] * k + cols[left]) * k + cols[right]
        gram += np.bincount(
            key,
            weights=(f[rows[left]] * vals[left] * vals[right]).astype(np.float64),
            minlength=n_sizes * k * k,
        )
    return np.rint(gram).astype(np.int64).reshape(n_sizes, k, k)


def family_terms(groups: Groups, agreement: np.ndarray) -> dict:
    """Each group's terms of P_a and the chance proportions, for one item of it.

    :func:`iaa_teach._formulas.fleiss_terms` with one item per group.

    Numbers of the agreement weights' kind (floats, or Fractions when exact).
    """
    exact = agreement.dtype == object
    counts = F.as_numbers(groups.counts, exact)
    one = F.as_numbers(np.ones(len(groups.size), dtype=np.int64), exact)
    return F.fleiss_terms(groups.size, one, counts, _agreed(groups.counts, agreement))


def _agreed(counts: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """sum_kl w_kl n_k n_l of each integer count row (G, q), in the weights' kind of number."""
    if agreement.dtype == object:
        counts = np.asarray(counts)
        return _weighted_sums(counts[:, :, None] * counts[:, None, :], agreement)
    if np.array_equal(agreement, np.eye(len(agreement))):  # unweighted: sum_k n_k^2
        return np.einsum("gk,gk->g", counts, counts).astype(float)
    return np.einsum("gl,gl->g", np.einsum("gk,kl->gl", counts, agreement), counts)  # loops in C, no BLAS


def _weighted_sums(gram: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """sum_kl w_kl g_kl of integer matrices g (..., q, q) under exact weights, as Fractions.

    In whole numbers over the weights' common denominator, then one division each.
    """
    scale = math.lcm(*(w.denominator for w in agreement.reshape(-1)))
    whole = np.array([int(w * scale) for w in agreement.reshape(-1)], dtype=object).reshape(agreement.shape)
    sums = (np.asarray(gram).astype(object) * whole).sum(axis=(-2, -1))
    return np.array([Fraction(int(x), scale) for x in sums.reshape(-1)], dtype=object).reshape(sums.shape)


def family_totals(
    groups: Groups, agreement: np.ndarray, terms: dict | None = None, sums: SizeSums | None = None
) -> dict:
    """The groups' :func:`family_terms` summed over all their items, as :func:`fit` takes them (batch of 1).

    One formula, :func:`iaa_teach._formulas.fleiss_terms`, grouped two ways
    (it may group the items any way): floats sum each group's terms
    (``terms``, if already at hand: the variance takes them too) times its
    frequency; exact values take it once per number of ratings m, on the
    integer sums over the items with m ratings (``sums``, if already at
    hand, else :func:`size_sums`; sum_kl w_kl n_ik n_il from their
    ``gram``): a few fractions per m, not per count row.
    """
    if agreement.dtype != object:
        terms = family_terms(groups, agreement) if terms is None else terms
        return {key: np.asarray(groups.frequency, dtype=float)[None] @ value for key, value in terms.items()}
    sums = size_sums(groups) if sums is None else sums
    by_size = F.fleiss_terms(
        sums.size,
        F.as_numbers(sums.items, True),
        F.as_numbers(sums.counts, True),
        _weighted_sums(sums.gram, agreement),
    )
    return {key: np.asarray(value.sum(axis=0))[None] for key, value in by_size.items()}


# ==================================================================== fit
class Fit(NamedTuple):
    """A coefficient of the family and its working, each with a leading batch axis.

    ``p`` is what P_e is built from: the category proportions p_k (B, q), or
    each rater's proportions (B, r, q) for Conger; None for the models
    without one. ``n``: rated items; ``n_used``: items with 2 or more ratings.
    """

    coefficient: np.ndarray
    p_a: np.ndarray
    p_e: np.ndarray
    p: np.ndarray | None
    n: np.ndarray
    n_used: np.ndarray


def fit(model: str, totals: dict, agreement: np.ndarray, rater_counts: np.ndarray | None = None) -> Fit:
    """The coefficient under a chance ``model`` (one of :data:`CHANCE_MODELS`) from summed terms.

    ``rater_counts`` (B, r, q) or (r, q): each rater's category counts, for ``"conger"``.
    """
    F.check_option("model", model, tuple(CHANCE_MODELS))
    p_a = F.observed_agreement(totals)
    p = None
    if model == "none":
        p_e = p_a * 0
    elif model == "uniform":
        p_e = p_a * 0 + F.uniform_chance(agreement)
    elif model == "conger":
        p = F.conger_parts(np.asarray(rater_counts), agreement)[0]
        p_e = np.asarray(F.conger_chance(np.asarray(rater_counts), agreement)).reshape(p_a.shape)
        p = p.reshape(p_a.shape + p.shape[-2:])
    elif model == "gwet":
        p = F.category_shares(totals, "item_mean")
        p_e = F.gwet_chance(p, agreement)
    else:
        p_a, p, p_e = F.fleiss_agreement(totals, model, agreement)
    return Fit(F.chance_corrected(p_a, p_e), p_a, p_e, p, totals["rated"], totals["pairable"])


# =============================================================== variance
def _numbers_like(values: Any, agreement: np.ndarray) -> np.ndarray:
    """Integer counts (or float shares) in the weights' kind of number."""
    values = np.asarray(values)
    if agreement.dtype == object or values.dtype.kind in "iub":
        return F.as_numbers(values, agreement.dtype == object)
    return values.astype(float)


def item_chance(
    model: str,
    groups: Groups,
    terms: dict,
    fitted: Fit,
    agreement: np.ndarray,
    rater_counts: np.ndarray | None = None,
) -> Any:
    """Each group's term P_e,i in the chance agreement, for the linearized variance (one table)."""
    p_e = fitted.p_e[0]
    if model in ("none", "uniform"):
        return p_e
    # Conger: code rows in blocks, a block's raters' labels looked up in cache, not an item x rater array
    if model == "conger":
        counts = _numbers_like(rater_counts, agreement)
        blocks = np.array_split(groups.rows, max(1, len(groups.rows) >> 15))
        return np.concatenate([F.conger_item_chance(rows, counts, agreement, fitted.n[0]) for rows in blocks])
    p = fitted.p[0]
    if model == "gwet":
        return F.gwet_item_chance(terms["shares"], p, agreement)
    if model == "item_mean":
        return F.fleiss_item_chance(terms["shares"], p, agreement)
    size = _numbers_like(groups.size, agreement)
    mean_size = (_numbers_like(groups.frequency, agreement) * size).sum() / fitted.n[0]
    # chance proportions pooled over all ratings: sum_k n_ik (W p)_k, linearized as a ratio
    return F.ratio_item_terms(F.fleiss_item_chance(terms["labels"], p, agreement), size, p_e, mean_size)


def variance_squares(
    model: str,
    groups: Groups,
    agreement: np.ndarray,
    fitted: Fit,
    rater_counts: np.ndarray | None = None,
    terms: dict | None = None,
) -> Any:
    """sum_i (kappa*_i - kappa)^2 over the rated items (:func:`iaa_teach._formulas.linearized_terms`).

    ``groups`` are count rows (:func:`pattern_groups`), or code rows
    (:func:`row_groups`) for Conger; ``fitted`` the coefficient on the same
    table, in the same kind of number (a defined coefficient); ``terms``
    the groups' :func:`family_terms`, if already at hand (for code rows:
    the count rows' terms, looked up by ``groups.pattern``).
    """
    if terms is None:
        terms = family_terms(groups, agreement)
    elif groups.pattern is not None:
        # code rows, Conger's: its item chance takes no terms, P_a's from the count rows
        terms = {key: terms[key][groups.pattern] for key in ("agreement", "pairable")}
    p_e_item = item_chance(model, groups, terms, fitted, agreement, rater_counts)
    values = F.linearized_terms(
        terms["agreement"],
        terms["pairable"],
        fitted.p_e[0],
        p_e_item,
        fitted.coefficient[0],
        fitted.n[0],
        fitted.n_used[0],
    )
    weight = _numbers_like(groups.frequency, agreement) * (np.asarray(groups.size) >= 1)
    return F.sum_of_squares(weight, values, fitted.coefficient[0])


def alpha_squares(groups: Groups, agreement: np.ndarray) -> tuple[Any, Any, Any]:
    """Gwet's variance of Krippendorff's alpha: (alpha', sum of squares, units with 2 or more values).

    Over the units with m_i >= 2 values (n of them, m_bar values on
    average): P_a' = sum_i s_i / sum_i m_i with s_i = (sum_kl w_kl n_ik n_il
    - m_i) / (m_i - 1), p_k = sum_i n_ik / sum_i m_i, P_e = sum_kl w_kl p_k
    p_l and alpha' = (P_a' - P_e) / (1 - P_e). Each unit's P_a,i and P_e,i
    are its terms in these two ratios, linearized
    (:func:`iaa_teach._formulas.ratio_item_terms`), as in Gwet's irrCAC for R
    from version 1.0 (2021). With the weights 1 - delta / max(delta), alpha
    itself is (P_a - P_e) / (1 - P_e) with P_a = (1 - 1/N) P_a' + 1/N, N the
    pairable values.
    """
    exact = agreement.dtype == object
    keep = np.asarray(groups.size) >= 2
    size = np.asarray(groups.size)[keep]
    counts = F.as_numbers(np.asarray(groups.counts)[keep], exact)
    frequency = _numbers_like(np.asarray(groups.frequency)[keep], agreement)
    sizes = _numbers_like(size, agreement)
    n = frequency.sum()
    total = (frequency * sizes).sum()
    mean_size = total / n
    spread = (_agreed(np.asarray(groups.counts)[keep], agreement) - sizes) * F.reciprocal(size - 1, exact)
    p_a_prime = (frequency * spread).sum() / total
    p = (frequency[:, None] * counts).sum(axis=0) / total
    p_e = F.fleiss_chance(p, agreement)
    alpha_prime = F.chance_corrected(np.asarray([p_a_prime]), np.asarray([p_e]))[0]
    if alpha_prime is None or (not exact and np.isnan(alpha_prime)):
        return alpha_prime, alpha_prime, n
    p_a_item = F.ratio_item_terms(spread, sizes, p_a_prime, mean_size)
    p_e_item = F.ratio_item_terms(F.fleiss_item_chance(counts, p, agreement), sizes, p_e, mean_size)
    values = F.linearized_terms(p_a_item, 1, p_e, p_e_item, alpha_prime, n, n)
    return alpha_prime, F.sum_of_squares(frequency, values, alpha_prime), n


# =============================================================== planning
#: The most count rows :func:`population_groups` enumerates.
MAX_PATTERNS = 200_000


def population_groups(raters: int, proportions: np.ndarray, unanimous: float) -> Groups:
    """Every count row of ``raters`` ratings over q categories, with its probability.

    The model: each item is unanimous with probability ``unanimous``
    (every rater gives the label k, drawn with probability p_k), and
    otherwise each rater labels it independently with probabilities p.
    Then each rating is in category k with probability p_k, and two
    ratings of an item agree with probability lambda + (1 - lambda) sum_kl
    w_kl p_k p_l. ``frequency`` holds the probabilities.
    """
    p = np.asarray(proportions, dtype=float)
    q = len(p)
    n_rows = math.comb(raters + q - 1, q - 1)
    if n_rows > MAX_PATTERNS:
        raise AgreementError(
            f"{raters} raters over {q} categories make {n_rows} count rows to enumerate, "
            f"more than {MAX_PATTERNS}; plan with fewer raters or categories"
        )
    labels = np.array(list(combinations_with_replacement(range(q), raters)), dtype=np.intp).reshape(
        -1, raters
    )
    counts = np.zeros((len(labels), q), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(len(labels)), raters), labels.ravel()), 1)
    log_factorial = np.array([math.lgamma(k + 1) for k in range(raters + 1)])
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p = np.where(p > 0, np.log(np.where(p > 0, p, 1)), -np.inf)
        log_terms = np.where(counts > 0, counts * log_p, 0.0)
    independent = np.exp(log_factorial[raters] - log_factorial[counts].sum(axis=1) + log_terms.sum(axis=1))
    probability = (1 - unanimous) * independent
    single = counts.max(axis=1) == raters
    probability[single] += unanimous * p[counts[single].argmax(axis=1)]
    return Groups(np.full(len(counts), raters, dtype=np.int64), counts, probability)
