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
from typing import Any

import numpy as np

from .validation import check_option

__all__ = [
    "EPS", "WEIGHTS", "LEVELS", "CHANCE_RULES",
    "as_numbers", "reciprocal", "chance_corrected",
    "disagreement_weights", "agreement_weights", "cohen_agreement",
    "fleiss_terms", "fleiss_agreement",
    "coincidences", "expected_coincidences", "disagreement", "squared_distances", "alpha_disagreement", "one_minus_ratio",
]

#: A chance term within this of 1 (or a D_e within it of 0) counts as exactly there (floats only).
EPS = 1e-12
WEIGHTS = (None, "linear", "quadratic")
LEVELS = ("nominal", "ordinal", "interval", "ratio")
CHANCE_RULES = ("pooled", "item_mean")


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
        return np.array([Fraction(1, int(x)) if x > 0 else Fraction(0) for x in d.reshape(-1).tolist()],
                        dtype=object).reshape(d.shape)
    with np.errstate(divide="ignore"):
        return np.where(d > 0, 1.0 / np.maximum(d, 1), 0.0)


def _exact(*arrays: np.ndarray) -> bool:
    return any(np.asarray(a).dtype == object for a in arrays)


def chance_corrected(observed: Any, chance: Any) -> np.ndarray:
    """(P_o - P_e) / (1 - P_e): agreement beyond chance, as a share of the most possible beyond chance.

    Undefined (NaN, or None for exact numbers) where P_e = 1.
    """
    observed, chance = np.asarray(observed), np.asarray(chance)
    if _exact(observed, chance):
        out = np.empty(chance.shape, dtype=object)
        for i in np.ndindex(chance.shape):
            out[i] = None if chance[i] is None or chance[i] == 1 else (observed[i] - chance[i]) / (1 - chance[i])
        return out
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(1.0 - chance > EPS, (observed - chance) / (1.0 - chance), np.nan)


def one_minus_ratio(numerator: Any, denominator: Any, scale: Any = 1.0) -> np.ndarray:
    """1 - numerator / denominator (alpha = 1 - D_o / D_e), undefined where the denominator is 0.

    For floats, "0" means at most ``EPS * max(1, scale)``.
    """
    numerator, denominator = np.asarray(numerator), np.asarray(denominator)
    if _exact(numerator, denominator):
        out = np.empty(denominator.shape, dtype=object)
        for i in np.ndindex(denominator.shape):
            out[i] = None if denominator[i] == 0 else 1 - numerator[i] / denominator[i]
        return out
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > EPS * np.maximum(1.0, scale), 1.0 - numerator / denominator, np.nan)


# ================================================================= Cohen
def disagreement_weights(k: int, weights: str | None) -> np.ndarray:
    """k x k integer disagreement weights over the category order: 0/1, ``|i-j|`` or ``(i-j)**2``.

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
    """Agreement weights 1 - w_ij / max(w) from integer disagreement weights (all 1 if w is all 0)."""
    top = int(np.max(w, initial=0))
    if top == 0:
        return as_numbers(np.ones_like(w), exact)
    return as_numbers(top - np.asarray(w), exact) * reciprocal(top, exact)


def cohen_agreement(tables: np.ndarray, agreement: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Observed and chance agreement of agreement tables (B, k, k) under agreement weights (k, k).

    P_o = sum_ij w_ij n_ij / N and P_e = sum_ij w_ij n_i+ n_+j / N^2 (Cohen
    1960, 1968): chance from each rater's own marginals.
    """
    n = tables.sum(axis=(1, 2))
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = (tables * agreement).sum(axis=(1, 2)) / n
        p_e = (rows[:, :, None] * cols[:, None, :] * agreement).sum(axis=(1, 2)) / (n * n)
    return p_o, p_e


# ================================================================ Fleiss
def fleiss_terms(size: np.ndarray, items: np.ndarray, counts: np.ndarray, squares: np.ndarray) -> dict:
    """The additive terms of Fleiss' kappa, per group of items that share a number of ratings.

    Parameters
    ----------
    size : ndarray of int, shape (G,)
        m, the number of ratings of each item in the group.
    items : ndarray, shape (..., G)
        How many items the group holds.
    counts : ndarray, shape (..., G, k)
        sum_i n_ij over the group's items.
    squares : ndarray, shape (..., G)
        sum_i sum_j n_ij^2 over the group's items.

    Returns
    -------
    dict of ndarray
        ``agreement``: sum of P_i = (sum_j n_ij^2 - m) / (m (m - 1)) over
        the items (groups with m >= 2); ``pairable``: items with m >= 2;
        ``labels``: the category counts; ``shares``: sum of n_ij / m;
        ``rated``: items with m >= 1. Sum them over groups, then
        :func:`fleiss_agreement`.
    """
    exact = _exact(items, counts, squares)
    size = np.asarray(size)
    pairs = reciprocal(np.where(size >= 2, size * (size - 1), 0), exact)
    pairable = (size >= 2).astype(np.int64)
    rated = (size >= 1).astype(np.int64)
    return {"agreement": (squares - items * size) * pairs, "pairable": items * pairable,
            "labels": counts, "shares": counts * reciprocal(size, exact)[:, None], "rated": items * rated}


def fleiss_agreement(terms: dict, chance: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P_a, p_j and P_e from the summed terms of :func:`fleiss_terms` (leading batch axis).

    P_a is the mean P_i over items with 2 or more ratings. ``chance="pooled"``:
    p_j is category j's share of all ratings; ``"item_mean"``: the mean over
    rated items of n_ij / n_i. P_e = sum_j p_j^2.
    """
    check_option("chance", chance, CHANCE_RULES)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_a = terms["agreement"] / terms["pairable"]
        if chance == "pooled":
            p_j = terms["labels"] / terms["labels"].sum(axis=-1)[..., None]
        else:
            p_j = terms["shares"] / terms["rated"][..., None]
    p_e = (p_j * p_j).sum(axis=-1)
    return p_a, p_j, p_e


# ========================================================== Krippendorff
def coincidences(size: np.ndarray, counts: np.ndarray, gram: np.ndarray) -> np.ndarray:
    """Krippendorff's coincidences o_ck, per group of units that share a number of values m.

    A unit with value counts c contributes (c c^T - diag(c)) / (m - 1): its
    m (m - 1) ordered pairs of values, each weighted 1 / (m - 1), so every
    pairable value counts once. ``counts`` (..., G, k) is sum c and ``gram``
    (..., G, k, k) is sum c c^T over the group's units; units with m < 2 give 0.
    Sum the result over groups.
    """
    exact = _exact(counts, gram)
    size = np.asarray(size)
    weight = reciprocal(np.where(size >= 2, size - 1, 0), exact)
    k = counts.shape[-1]
    eye = as_numbers(np.eye(k, dtype=np.int64), exact)
    return (gram - counts[..., :, None] * eye) * weight[:, None, None]


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
        return np.broadcast_to(as_numbers(1 - np.eye(k, dtype=np.int64), exact), (b, k, k))
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
    eye = as_numbers(np.eye(k, dtype=np.int64), exact)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (n_c[:, :, None] * n_c[:, None, :] - n_c[:, :, None] * eye) / (n - 1)[:, None, None]


def disagreement(o: np.ndarray, delta: np.ndarray, n: np.ndarray) -> np.ndarray:
    """sum_ck o_ck delta^2_ck / n: the mean distance within the pairs of a coincidence matrix (B, k, k)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (o * delta).sum(axis=(1, 2)) / n


def alpha_disagreement(o: np.ndarray, level: str, values: np.ndarray | None):
    """D_o and D_e from coincidences o (B, k, k): returns d_o, d_e, n_c, n, delta.

    D_o is the disagreement of the observed coincidences, D_e that of the
    expected ones (:func:`expected_coincidences`), with n_c the row sums of
    o and n their total (Krippendorff 2011).
    """
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    delta = squared_distances(level, n_c, values)
    d_o = disagreement(o, delta, n)
    d_e = disagreement(expected_coincidences(n_c, n), delta, n)
    return d_o, d_e, n_c, n, delta
