"""The formulas, each written once, over counts.

Every function here takes numbers of one of two kinds and uses only ``+``,
``-``, ``*``, ``/`` and sums, so the same line gives all three uses:

- **floats**: numpy float arrays with a leading batch axis (one table, or
  many bootstrap replicates at once);
- **exact fractions**: numpy object arrays of :class:`fractions.Fraction`
  (what ``result.exact`` holds), from the same integer sums.

Where a coefficient is undefined (a chance term of 1, an expected
disagreement of 0) the float result is NaN and the exact result is None.

The counts come from :class:`~iaa_teach.Ratings` (``pair_tables``,
``count_patterns``); :mod:`iaa_teach.metrics` groups them and wraps the
results. Multi-rater formulas take **groups of items that share a number of
ratings** ``m`` (for the exact value, all items with the same ``m``; for the
bootstrap, each distinct count row on its own): their terms are sums over
items, so any grouping gives the same total.

>>> import numpy as np
>>> tables = as_numbers([[[4, 1], [2, 3]]], exact=True)      # one 2 x 2 agreement table
>>> p_o, p_e = cohen_agreement(tables, agreement_weights(disagreement_weights(2, None), exact=True))
>>> print(p_o[0], p_e[0], chance_corrected(p_o, p_e)[0])
7/10 1/2 2/5
"""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from ._validation import check_option

#: A chance term within this of 1 (or a D_e within it of 0) counts as exactly there (floats only).
EPS = 1e-12
WEIGHTS = (None, "linear", "quadratic")
#: Krippendorff's levels of measurement, each with its own distance between two values.
LEVELS = ("nominal", "ordinal", "interval", "ratio")
CHANCE_RULES = ("pooled", "item_mean")
#: How :func:`iaa_teach.family_intervals` and the report compute an interval.
INTERVAL_METHODS = ("analytic", "bootstrap")
#: Gwet's (2014) named agreement weights, as his irrCAC package computes them.
WEIGHT_SCHEMES = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
#: ``weights`` of the family's coefficients: unweighted, or one of Gwet's schemes (or a matrix).
FAMILY_WEIGHTS = (None,) + WEIGHT_SCHEMES
#: The weights of the Cohen's kappa column of the diagnosis' rater ranking, by level of
#: measurement: unweighted for nominal data, linear (Cohen 1968) for ordinal,
#: quadratic for interval and ratio (over the category order).
KAPPA_WEIGHTS = MappingProxyType(
    {"nominal": None, "ordinal": "linear", "interval": "quadratic", "ratio": "quadratic"}
)


# ================================================================ numbers
def as_numbers(values: Any, exact: bool) -> np.ndarray:
    """Integer (or exact) values as floats, or as an object array of Fractions."""
    a = np.asarray(values)
    if not exact:
        return a.astype(float)
    out = np.empty(a.shape, dtype=object)
    flat = out.reshape(-1)
    flat[:] = [v if isinstance(v, Fraction) else Fraction(int(v)) for v in a.reshape(-1).tolist()]
    return out


def reciprocal(d: Any, exact: bool) -> np.ndarray:
    """1 / d for positive integers d, 0 elsewhere, in the chosen kind of number."""
    d = np.asarray(d)
    if exact:
        return np.array(
            [Fraction(1, int(x)) if x > 0 else Fraction(0) for x in d.reshape(-1).tolist()], dtype=object
        ).reshape(d.shape)
    with np.errstate(divide="ignore"):
        return np.where(d > 0, 1.0 / np.maximum(d, 1), 0.0)


def identity(k: int, exact: bool) -> np.ndarray:
    """The k x k identity (unweighted agreement, [c = k]) in the chosen kind of number."""
    return as_numbers(np.eye(k, dtype=np.int64), exact)


def undefined(shape: tuple, exact: bool) -> np.ndarray:
    """An array of undefined values: NaN, or None for exact numbers."""
    return np.full(shape, None, dtype=object) if exact else np.full(shape, np.nan)


def _exact(*arrays: np.ndarray) -> bool:
    return any(np.asarray(a).dtype == object for a in arrays)


def _each(rule: Any, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``rule(x, y)`` on each pair of entries of two exact arrays (broadcast), None where either is None."""
    left, right = np.broadcast_arrays(left, right)
    out = np.empty(left.shape, dtype=object)
    for i in np.ndindex(out.shape):
        x, y = left[i], right[i]
        out[i] = None if x is None or y is None else rule(x, y)
    return out


def chance_corrected(observed: Any, chance: Any) -> np.ndarray:
    """(P_o - P_e) / (1 - P_e): agreement beyond chance, as a share of the most possible beyond chance.

    Undefined (NaN, or None for exact numbers) where P_e = 1.
    """
    observed, chance = np.asarray(observed), np.asarray(chance)
    if _exact(observed, chance):
        return _each(lambda o, c: None if c == 1 else (o - c) / (1 - c), observed, chance)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(1.0 - chance > EPS, (observed - chance) / (1.0 - chance), np.nan)


def one_minus_ratio(numerator: Any, denominator: Any, scale: Any = 1.0) -> np.ndarray:
    """1 - numerator / denominator (alpha = 1 - D_o / D_e), undefined where the denominator is 0.

    For floats, "0" means at most ``EPS * max(1, scale)``.
    """
    numerator, denominator = np.asarray(numerator), np.asarray(denominator)
    if _exact(numerator, denominator):
        return _each(lambda top, bottom: None if bottom == 0 else 1 - top / bottom, numerator, denominator)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > EPS * np.maximum(1.0, scale), 1.0 - numerator / denominator, np.nan)


def divide(numerator: Any, denominator: Any) -> np.ndarray:
    """numerator / denominator, undefined (NaN, or None for exact numbers) where the denominator is 0."""
    numerator, denominator = np.asarray(numerator), np.asarray(denominator)
    if _exact(numerator, denominator):
        return _each(lambda top, bottom: None if bottom == 0 else top / bottom, numerator, denominator)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1), np.nan)


# ================================================================= Cohen
def disagreement_weights(k: int, weights: str | None) -> np.ndarray:
    """k x k integer disagreement weights d_jk over the category order: 0/1, ``|j - k|`` or ``(j - k)**2``.

    >>> disagreement_weights(3, "quadratic").tolist()
    [[0, 1, 4], [1, 0, 1], [4, 1, 0]]
    """
    check_option("weights", weights, WEIGHTS)
    i, j = np.indices((k, k))
    if weights is None:
        return (i != j).astype(np.int64)
    d = np.abs(i - j).astype(np.int64)
    return d if weights == "linear" else d * d


def agreement_weights(w: np.ndarray, exact: bool = False) -> np.ndarray:
    """Agreement weights w_jk = 1 - d_jk / max(d) from integer disagreement weights d (all 1 if d is all 0)."""
    top = int(np.max(w, initial=0))
    if top == 0:
        return as_numbers(np.ones_like(w), exact)
    return as_numbers(top - np.asarray(w), exact) * reciprocal(top, exact)


def cohen_agreement(tables: np.ndarray, agreement: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Observed and chance agreement of agreement tables (B, k, k) under agreement weights (k, k).

    P_o = sum_jk w_jk n_jk / N and P_e = sum_jk w_jk n_j+ n_+k / N^2 (Cohen
    1960, 1968): chance from each rater's own marginals. Undefined where N = 0.
    """
    n = tables.sum(axis=(1, 2))
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    p_o = divide((tables * agreement).sum(axis=(1, 2)), n)
    return p_o, divide((rows[:, :, None] * cols[:, None, :] * agreement).sum(axis=(1, 2)), n * n)


def cohen_variance(tables: np.ndarray, agreement: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Large-sample variances of Cohen's kappa (Fleiss, Cohen and Everitt 1969), per table (B, k, k).

    With cell shares p_jk, marginals p_j+ and p_+k, agreement weights w_jk
    and their weighted means w_j. = sum_k p_+k w_jk, w_.k = sum_j p_j+ w_jk:

    var = [sum_jk p_jk (w_jk - (w_j. + w_.k)(1 - kappa))^2 - (kappa - P_e (1 - kappa))^2] / (n (1 - P_e)^2)

    and, when kappa = 0 (the null hypothesis), var_0 = [sum_jk p_j+ p_+k
    (w_jk - (w_j. + w_.k))^2 - P_e^2] / (n (1 - P_e)^2): what statsmodels'
    ``cohens_kappa`` reports as ``var_kappa`` and ``var_kappa0``. The table
    must have a defined kappa (P_e < 1).
    """
    n = tables.sum(axis=(1, 2))
    p_o, p_e = cohen_agreement(tables, agreement)
    kappa = chance_corrected(p_o, p_e)
    cells = tables / n[:, None, None]
    rows, cols = cells.sum(axis=2), cells.sum(axis=1)
    spread = (agreement * cols[:, None, :]).sum(axis=2)[:, :, None] + (agreement * rows[:, :, None]).sum(
        axis=1
    )[:, None, :]
    scale = n * (1 - p_e) * (1 - p_e)
    deviation = agreement - spread * (1 - kappa)[:, None, None]
    centre = kappa - p_e * (1 - kappa)
    variance = ((cells * deviation * deviation).sum(axis=(1, 2)) - centre * centre) / scale
    null = agreement - spread
    variance_null = ((rows[:, :, None] * cols[:, None, :] * null * null).sum(axis=(1, 2)) - p_e * p_e) / scale
    return variance, variance_null


# ================================================================ Fleiss
def fleiss_terms(size: np.ndarray, items: np.ndarray, counts: np.ndarray, agreed: np.ndarray) -> dict:
    """The additive terms of Fleiss' kappa (and its family), per group of items with one number of ratings.

    Parameters
    ----------
    size : ndarray of int, shape (G,)
        m, the number of ratings of each item in the group.
    items : ndarray, shape (..., G)
        How many items the group holds.
    counts : ndarray, shape (..., G, k)
        sum_i n_ij over the group's items.
    agreed : ndarray, shape (..., G)
        sum_i sum_jl w_jl n_ij n_il over the group's items: the agreeing
        ordered pairs of ratings plus the m self-pairs, under agreement
        weights w (sum_i sum_j n_ij^2 when unweighted).

    Returns
    -------
    dict of ndarray
        ``agreement``: sum of P_i = (sum_jl w_jl n_ij n_il - m) / (m (m - 1))
        over the items (groups with m >= 2); ``pairable``: items with m >= 2;
        ``labels``: the category counts; ``shares``: sum of n_ij / m;
        ``rated``: items with m >= 1. Sum them over groups, then
        :func:`fleiss_agreement`.
    """
    exact = _exact(items, counts, agreed)
    size = np.asarray(size)
    pairs = reciprocal(np.where(size >= 2, size * (size - 1), 0), exact)
    return {
        "agreement": (agreed - items * size) * pairs,
        "pairable": items * (size >= 2).astype(np.int64),
        "labels": counts,
        "shares": counts * reciprocal(size, exact)[:, None],
        "rated": items * (size >= 1).astype(np.int64),
    }


def observed_agreement(terms: dict) -> np.ndarray:
    """P_a: the mean P_i over the items with 2 or more ratings, from summed :func:`fleiss_terms`."""
    return divide(terms["agreement"], terms["pairable"])


def category_shares(terms: dict, chance: str) -> np.ndarray:
    """p_j from summed :func:`fleiss_terms` (..., k).

    ``"pooled"``: category j's share of all ratings; ``"item_mean"``: the
    mean over rated items of n_ij / n_i (Gwet's rule).
    """
    check_option("chance", chance, CHANCE_RULES)
    if chance == "pooled":
        return divide(terms["labels"], terms["labels"].sum(axis=-1)[..., None])
    return divide(terms["shares"], terms["rated"][..., None])


def fleiss_chance(p: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """P_e = sum_jl w_jl p_j p_l: two ratings drawn from one shared distribution p (..., k) agree."""
    return (p[..., :, None] * agreement * p[..., None, :]).sum(axis=(-2, -1))


def fleiss_agreement(
    terms: dict, chance: str, agreement: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P_a, p_j and P_e from the summed terms of :func:`fleiss_terms` (leading batch axis).

    P_a is the mean P_i over items with 2 or more ratings
    (:func:`observed_agreement`), p_j follows the ``chance`` rule
    (:func:`category_shares`) and P_e = sum_jl w_jl p_j p_l
    (:func:`fleiss_chance`).
    """
    p_a = observed_agreement(terms)
    p_j = category_shares(terms, chance)
    return p_a, p_j, fleiss_chance(p_j, agreement)


# ============================================================ the family
def gwet_weights(scheme: str | None, values: np.ndarray) -> np.ndarray:
    """q x q agreement weights of one of Gwet's (2014) schemes over category values (1-D).

    ``values`` are the categories as numbers (floats, or Fractions for the
    exact weights), in the categories' order. For categories j and k (also
    their positions), with values x_j and x_k and span = max - min:

    - None: 1 on the diagonal, 0 elsewhere;
    - linear: 1 - |x_j - x_k| / span; quadratic: 1 - (x_j - x_k)^2 / span^2;
    - ordinal: 1 - m_jk / max m, with m_jk = (|j - k| + 1) |j - k| / 2
      (positions, not values);
    - radical: 1 - sqrt|x_j - x_k| / sqrt(span);
    - ratio: 1 - ((x_j - x_k) / (x_j + x_k))^2 / (span / (max + min))^2;
    - circular: 1 - d_jk / max d, d_jk = sin^2(pi (x_j - x_k) / (span + 1));
    - bipolar: 1 - d_jk / max d, d_jk = (x_j - x_k)^2 / ((x_j + x_k - 2 min)
      (2 max - x_j - x_k)) off the diagonal, 0 on it.

    Radical and circular weights are irrational: their exact values are the
    float weights' own binary values. One category: [[1]].

    >>> for row in gwet_weights("linear", as_numbers([1, 2, 3], exact=True)):
    ...     print(*row)
    1 1/2 0
    1/2 1 1/2
    0 1/2 1
    """
    check_option("weights", scheme, FAMILY_WEIGHTS)
    values = np.asarray(values)
    exact = _exact(values)
    q = len(values)
    if scheme is None or q < 2:
        return identity(q, exact)
    if scheme in ("radical", "circular") and exact:
        floats = gwet_weights(scheme, np.array([float(x) for x in values]))
        return np.array([Fraction(float(w)) for w in floats.reshape(-1)], dtype=object).reshape(q, q)
    low, high = values.min(), values.max()
    span = high - low
    diff = values[:, None] - values[None, :]
    total = values[:, None] + values[None, :]
    if scheme == "linear":
        return 1 - np.abs(diff) / span
    if scheme == "quadratic":
        return 1 - diff * diff / (span * span)
    if scheme == "radical":
        return 1 - np.sqrt(np.abs(diff)) / np.sqrt(span)
    if scheme == "ratio":
        ratio = diff / total
        top = span / (high + low)
        return 1 - ratio * ratio / (top * top)
    if scheme == "ordinal":
        steps = np.abs(np.subtract.outer(np.arange(q), np.arange(q)))
        distance = as_numbers((steps + 1) * steps // 2, exact)
    elif scheme == "circular":
        distance = np.sin(np.pi * diff / (span + 1)) ** 2
    else:  # bipolar
        off = ~np.eye(q, dtype=bool)
        below, above = np.where(off, total - 2 * low, 1), np.where(off, 2 * high - total, 1)
        distance = np.where(off, diff * diff / (below * above), 0 * diff)
    return 1 - distance / distance.max()


def uniform_chance(agreement: np.ndarray) -> Any:
    """Brennan and Prediger's (Bennett's S) P_e = sum_jk w_jk / q^2: each rating uniform over q categories."""
    q = agreement.shape[-1]
    return agreement.sum() / (q * q)


def gwet_chance(p: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """Gwet's P_e = (sum_jk w_jk) / (q (q - 1)) * sum_j p_j (1 - p_j), p (..., q).

    The chance that a rater rates at random (with a "hard" item) times the
    chance of agreeing then. Undefined with fewer than 2 categories.
    """
    q = p.shape[-1]
    if q < 2:
        return undefined(p.shape[:-1], _exact(p, agreement))
    return agreement.sum() / (q * (q - 1)) * (p * (1 - p)).sum(axis=-1)


def conger_parts(rater_counts: np.ndarray, agreement: np.ndarray):
    """Conger's chance term from each rater's category counts (..., r, q).

    Returns ``p`` (each rater's proportions; 0 for a rater with no
    ratings), ``towards`` (r, q): sum_j (sum of the other raters' p_j) w_jk,
    ``own`` (r,): each rater's p_r . towards_r, and ``pairs``: a (a - 1) for
    the a raters with ratings. P_e = sum_r own_r / pairs: the mean over
    ordered pairs of different raters r, s of sum_jk w_jk p_rj p_sk (Conger 1980).
    """
    exact = _exact(rater_counts, agreement)
    given = rater_counts.sum(axis=-1)
    active = (np.asarray(given) > 0).sum(axis=-1)
    p = divide(rater_counts, given[..., None])
    p = np.where(np.asarray(given)[..., None] > 0, p, as_numbers(0, exact))
    others = p.sum(axis=-2)[..., None, :] - p
    towards = (others[..., :, :, None] * agreement).sum(axis=-2)
    own = (towards * p).sum(axis=-1)
    return p, towards, own, active * (active - 1)


def conger_chance(rater_counts: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """Conger's P_e: the mean over pairs of different raters of their Cohen chance agreement.

    From :func:`conger_parts`.
    """
    _, _, own, pairs = conger_parts(rater_counts, agreement)
    return divide(own.sum(axis=-1), pairs)


# ----------------------------------------------------- Gwet's variances
def linearized_terms(
    p_a_item: np.ndarray,
    pairable: np.ndarray,
    p_e: Any,
    p_e_item: np.ndarray,
    coefficient: Any,
    n: Any,
    n_used: Any,
) -> np.ndarray:
    """Each item's linearized coefficient kappa*_i (Gwet 2008, 2014), per group of equal items.

    kappa*_i = [(n / n_used)(P_a,i - P_e [item pairable]) - 2 (1 - kappa)(P_e,i - P_e)] / (1 - P_e),

    where P_a,i is the item's agreement (0 below 2 ratings), P_e,i its term
    in the chance agreement (the ``*_item_chance`` functions), n the rated
    items and n_used those with 2 or more ratings. Their spread around kappa
    gives the variance (:func:`sum_of_squares`, :func:`linearized_variance`).
    """
    return ((n / n_used) * (p_a_item - p_e * pairable) - 2 * (1 - coefficient) * (p_e_item - p_e)) / (1 - p_e)


def sum_of_squares(frequency: np.ndarray, values: np.ndarray, centre: Any) -> Any:
    """sum_g f_g (v_g - centre)^2 over groups of equal items."""
    deviation = values - centre
    return (frequency * deviation * deviation).sum(axis=-1)


def linearized_variance(squares: Any, n: Any, sampled: Any = 0) -> Any:
    """Gwet's variance (1 - f) sum_i (kappa*_i - kappa)^2 / (n (n - 1)).

    ``sampled`` is f = n / N, the share of a finite population of N items
    that was rated (0 for an infinite population).
    """
    return (1 - sampled) * squares / (n * (n - 1))


def ratio_item_terms(values: np.ndarray, size: np.ndarray, ratio: Any, mean_size: Any) -> np.ndarray:
    """(v_i - R (m_i - m_bar)) / m_bar: item i's term in a ratio R = sum v / sum m, linearized.

    Its mean over items is R; used for chance proportions pooled over all
    ratings and for Krippendorff's alpha (Gwet 2014).
    """
    return (values - ratio * (size - mean_size)) / mean_size


def fleiss_item_chance(shares: np.ndarray, p: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """P_e,i = sum_j (n_ij / n_i) sum_k w_jk p_k: an item's term in Fleiss' P_e (shares (G, q), p (q,)).

    Given counts n_ij in place of the shares, sum_j n_ij (W p)_j: the term
    that pooled proportions linearize (:func:`ratio_item_terms`).
    """
    return (shares * (agreement * p[None, :]).sum(axis=-1)).sum(axis=-1)


def gwet_item_chance(shares: np.ndarray, p: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """P_e,i = (sum_jk w_jk) / (q (q - 1)) sum_j (n_ij / n_i)(1 - p_j): an item's term in Gwet's P_e."""
    q = p.shape[-1]
    return agreement.sum() / (q * (q - 1)) * (shares * (1 - p)).sum(axis=-1)


def conger_item_chance(
    rows: np.ndarray, rater_counts: np.ndarray, agreement: np.ndarray, n: Any
) -> np.ndarray:
    """P_e,i of Conger's kappa for items given by their code rows (G, r), -1 = missing.

    P_e,i = P_e + sum_g [rater g rated item i] (n / n_g)(towards_gl - own_g) / pairs,
    l the label rater g gave (Gwet 2014; names as in :func:`conger_parts`;
    n rated items, n_g the items rater g rated). The mean over items is P_e.
    """
    exact = _exact(rater_counts, agreement)
    _, towards, own, pairs = conger_parts(rater_counts, agreement)
    per_label = (towards - own[:, None]) * (n * reciprocal(rater_counts.sum(axis=-1), exact))[:, None]
    r, q = per_label.shape
    zero = as_numbers(np.zeros((r, 1), dtype=np.int64), exact)
    lookup = np.concatenate([per_label, zero], axis=1).reshape(-1)
    # rater g's label l is at g (q + 1) + l; a missing rating (-1) lands on the 0 that ends rater g - 1's
    # block (the last entry of all for g = 0)
    index = np.asarray(rows) + np.arange(r) * (q + 1)
    return (own.sum() + lookup.take(index).sum(axis=-1)) / pairs


# ========================================================== Krippendorff
def coincidences(size: np.ndarray, counts: np.ndarray, gram: np.ndarray) -> np.ndarray:
    """Krippendorff's coincidences o_ck, per group of units that share a number of values m.

    A unit with value counts c contributes (c c^T - diag(c)) / (m - 1): its
    m (m - 1) ordered pairs of values, each weighted 1 / (m - 1), so every
    pairable value counts once. ``counts`` (..., G, k) is sum c and ``gram``
    (..., G, k, k) is sum c c^T over the group's units; units with m < 2 give 0.
    Sum the result over groups.
    """
    size = np.asarray(size)
    weight = reciprocal(np.where(size >= 2, size - 1, 0), _exact(counts, gram))
    return ordered_pairs(counts, gram) * weight[:, None, None]


def ordered_pairs(counts: np.ndarray, gram: np.ndarray) -> np.ndarray:
    """sum (c c^T - diag(c)): the ordered pairs of values within units, from ``counts`` = sum c (..., k)
    and ``gram`` = sum c c^T (..., k, k); in their kind of number (integers stay integers)."""
    return gram - counts[..., :, None] * np.eye(counts.shape[-1], dtype=np.int64)


def squared_distances(level: str, n_c: np.ndarray, values: np.ndarray | None) -> np.ndarray:
    """delta^2 (B, k, k) between categories at a level of measurement; n_c (B, k) are the value counts.

    nominal: 0 on the diagonal, 1 elsewhere; ordinal: (sum_{g=c..k} n_g -
    (n_c + n_k) / 2)^2 over the category order; interval: (c - k)^2;
    ratio: ((c - k) / (c + k))^2. ``values`` are the categories as numbers
    (interval and ratio).
    """
    check_option("level", level, LEVELS)
    exact = _exact(n_c) or (values is not None and _exact(values))
    b, k = n_c.shape
    if level == "nominal":
        return np.broadcast_to(1 - identity(k, exact), (b, k, k))
    if level == "ordinal":
        zero = as_numbers(np.zeros((b, 1), dtype=np.int64), exact)
        cum = np.concatenate([zero, np.cumsum(n_c, axis=1)], axis=1)
        lo = np.minimum.outer(np.arange(k), np.arange(k))
        hi = np.maximum.outer(np.arange(k), np.arange(k))
        between = cum[:, hi + 1] - cum[:, lo]  # n_lo + ... + n_hi
        half = reciprocal(2, exact)
        d = between - (n_c[:, :, None] + n_c[:, None, :]) * half
        return d * d
    diff = values[:, None] - values[None, :]
    if level == "interval":
        return np.broadcast_to(diff * diff, (b, k, k))
    total = values[:, None] + values[None, :]
    zero = total == 0
    ratio = np.where(zero, 0, diff / np.where(zero, 1, total))
    return np.broadcast_to(ratio * ratio, (b, k, k))


def expected_coincidences(n_c: np.ndarray, n: np.ndarray) -> np.ndarray:
    """e_ck = n_c (n_k - [c = k]) / (n - 1): the coincidences of values paired at random (B, k, k)."""
    exact = _exact(n_c, n)
    k = n_c.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (n_c[:, :, None] * n_c[:, None, :] - n_c[:, :, None] * identity(k, exact)) / (n - 1)[
            :, None, None
        ]


def disagreement(o: np.ndarray, delta: np.ndarray, n: np.ndarray) -> np.ndarray:
    """sum_ck o_ck delta^2_ck / n: the mean distance within the pairs of a coincidence matrix (B, k, k)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (o * delta).sum(axis=(1, 2)) / n


def alpha_coefficient(o: np.ndarray, level: str, values: np.ndarray | None, delta: np.ndarray | None = None):
    """alpha = 1 - D_o / D_e from coincidences o (B, k, k): returns alpha, d_o, d_e, n_c, n, delta.

    D_o is the disagreement of the observed coincidences, D_e that of the
    expected ones (:func:`expected_coincidences`), with n_c the row sums of
    o and n their total (Krippendorff 2011). ``delta`` (B, k, k): distances
    already at hand (default: :func:`squared_distances` at ``level``).
    Undefined where D_e = 0; for floats, D_e counts as 0 only next to the
    largest distance (values 1e-9 apart are not "one category").
    """
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    if delta is None:
        delta = squared_distances(level, n_c, values)
    d_o = disagreement(o, delta, n)
    d_e = disagreement(expected_coincidences(n_c, n), delta, n)
    if _exact(delta):
        return one_minus_ratio(d_o, d_e), d_o, d_e, n_c, n, delta
    scale = np.max(delta, axis=(1, 2))
    scale = np.where(scale > 0, scale, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return one_minus_ratio(d_o / scale, d_e / scale), d_o, d_e, n_c, n, delta
