"""The data sets the notebooks and tests use.

Labels are ``"G"`` (negative), ``"N"`` (neutral) and ``"P"`` (positive), in
the order G < N < P (the order ordinal measures and tables use).
"""

from __future__ import annotations

from .ratings import Ratings

__all__ = ["SENTIMENT_CATEGORIES", "sentiment", "sentiment_missing", "partial_coverage"]

SENTIMENT_CATEGORIES = ("G", "N", "P")

_SENTIMENT = [  # items 1-10, raters A, B, C (the worked example)
    ["P", "P", "P"],
    ["P", "P", "N"],
    ["N", "N", "N"],
    ["P", "P", "P"],
    ["N", "P", "N"],
    ["G", "G", "G"],
    ["P", "N", "P"],
    ["N", "N", "N"],
    ["P", "P", "P"],
    ["G", "P", "G"],
]


def sentiment() -> Ratings:
    """The worked example: 10 sentences, annotators A, B, C, labels G < N < P.

    >>> r = sentiment()
    >>> r.shape, r.n_ratings
    ((10, 3), 30)
    """
    return Ratings.from_rows(_SENTIMENT, raters=["A", "B", "C"], categories=SENTIMENT_CATEGORIES)


def sentiment_missing() -> Ratings:
    """The worked example with item 3's rating by B and item 8's by C removed.

    >>> sentiment_missing().n_ratings
    28
    """
    rows = [list(row) for row in _SENTIMENT]
    rows[2][1] = None  # item 3, rater B
    rows[7][2] = None  # item 8, rater C
    return Ratings.from_rows(rows, raters=["A", "B", "C"], categories=SENTIMENT_CATEGORIES)


_PARTIAL = [  # items 1-8, annotators A, B, C, D, E; D labels items 3-8 only
    ["P", "P", "P", None, "N"],
    ["N", "N", "P", None, "N"],
    ["P", "P", "P", "P", "N"],
    ["G", "G", "N", "G", "G"],
    ["N", "N", "N", "G", "N"],
    ["P", "N", "P", "P", "P"],
    ["G", "G", "G", "G", "N"],
    ["P", "P", "N", "P", "P"],
]


def partial_coverage() -> Ratings:
    """Five annotators covering different items (the partial-annotation text).

    A, B and C label items 1-8, D labels items 3-8 and E labels items 1-8:
    3 x 8 + 6 + 8 = 38 labels. The labels are made up for teaching (the text
    gives none). D and E disagree with the others on different items, so
    merging them into one annotator changes the answer, and which of the two
    labels the merge keeps changes it again.

    >>> r = partial_coverage()
    >>> r.raters, r.n_ratings
    (('A', 'B', 'C', 'D', 'E'), 38)
    """
    return Ratings.from_rows(_PARTIAL, raters=["A", "B", "C", "D", "E"], categories=SENTIMENT_CATEGORIES)


# --- simulated ratings (for the widgets: the kappa paradox, missing data) ---
import numpy as _np  # noqa: E402

from .ratings import AgreementError  # noqa: E402
from .validation import MAX_CATEGORIES, check_int, check_seed, check_share  # noqa: E402

#: Most ratings (n_items x n_raters) that :func:`simulate` draws (a few hundred MB of working arrays).
MAX_SIMULATED = 10_000_000

__all__ += ["simulate", "remove_ratings"]


def _generator(seed) -> "_np.random.Generator":
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, _np.random.Generator) else _np.random.default_rng(seed)


def simulate(n_items: int = 100, n_raters: int = 3, accuracy: float = 0.8, prevalence: float | None = None,
             n_categories: int = 3, seed=0, missing: float = 0.0) -> Ratings:
    """Seeded ratings from raters of known accuracy, with a chosen prevalence.

    Each item gets a true category: category 1 with probability
    ``prevalence``, each of the others with probability
    ``(1 - prevalence) / (n_categories - 1)``. Each rater, independently,
    gives the true category with probability ``accuracy`` and otherwise one
    of the other categories, chosen uniformly.

    The draws use common random numbers: with the same ``seed``, moving
    ``prevalence`` or ``accuracy`` changes only the labels that cross a
    threshold, so a curve over prevalence is smooth rather than noisy.

    Parameters
    ----------
    n_items, n_raters : int
        Table shape; at least 1 item and 2 raters.
    accuracy : float in [0, 1]
        Probability that a rater gives an item's true category.
    prevalence : float in [0, 1], optional
        Share of items whose true category is category 1 (the dominant one
        when above ``1 / n_categories``). Default: ``1 / n_categories``
        (balanced).
    n_categories : int
        At least 2. The categories are the integers ``1 .. n_categories``.
    seed : int or numpy.random.Generator
        Same seed, same table.
    missing : float in [0, 1]
        Share of the ratings then removed (see :func:`remove_ratings`).

    Returns
    -------
    Ratings
        Shape (n_items, n_raters), raters ``A, B, ...``.

    Examples
    --------
    The kappa paradox: the same raters, the same observed agreement, and a
    much lower kappa once one category dominates.

    >>> from iaa_teach import fleiss_kappa, fmt
    >>> for prevalence in (0.5, 0.95):
    ...     res = fleiss_kappa(simulate(2000, 3, accuracy=0.9, prevalence=prevalence, n_categories=2, seed=1))
    ...     print(f"prevalence {prevalence:.2f}: P_a = {fmt(res.exact.p_a)}, kappa = {res:.3f}")
    prevalence 0.50: P_a = 0.814, kappa = 0.627
    prevalence 0.95: P_a = 0.814, kappa = 0.275
    """
    n_items = check_int("n_items", n_items, 1)
    n_raters = check_int("n_raters", n_raters, 2)
    k = check_int("n_categories", n_categories, 2, MAX_CATEGORIES)
    if n_items * n_raters > MAX_SIMULATED:
        raise AgreementError(f"simulate draws at most {MAX_SIMULATED:,} ratings (n_items x n_raters), got "
                             f"{n_items:,} x {n_raters:,}")
    accuracy = check_share("accuracy", accuracy)
    prevalence = check_share("prevalence", 1.0 / k if prevalence is None else prevalence)
    missing = check_share("missing", missing)
    rng = _generator(seed)
    u_truth = rng.random(n_items)
    u_correct = rng.random((n_items, n_raters))
    u_other = rng.random((n_items, n_raters))
    p = _np.full(k, (1.0 - prevalence) / (k - 1))
    p[0] = prevalence
    cdf = _np.cumsum(p)
    truth = _np.minimum(_np.searchsorted(cdf, u_truth, side="right"), k - 1)
    shift = 1 + _np.minimum((u_other * (k - 1)).astype(_np.intp), k - 2)  # 1 .. k-1, uniform
    codes = _np.where(u_correct < accuracy, truth[:, None], (truth[:, None] + shift) % k)
    table = Ratings.from_codes(codes, categories=range(1, k + 1))
    return remove_ratings(table, missing, seed=rng) if missing > 0 else table


def remove_ratings(ratings: Ratings, share: float, seed=0) -> Ratings:
    """A copy of ``ratings`` with a seeded random share of its ratings removed.

    Cells are removed in a fixed random order (set by ``seed``), so with the
    same seed a larger ``share`` removes the same cells and then some more.
    Cells that are already missing count towards the share. The input is not
    modified.

    Parameters
    ----------
    ratings : Ratings
    share : float in [0, 1]
        Share of all cells (items x raters) to leave empty, rounded to a
        whole number of cells.
    seed : int or numpy.random.Generator

    Examples
    --------
    >>> r = remove_ratings(sentiment(), 0.2, seed=0)
    >>> r.n_ratings, sentiment().n_ratings
    (24, 30)
    """
    if not isinstance(ratings, Ratings):
        raise AgreementError(f"remove_ratings expects a Ratings table, got {type(ratings).__name__}")
    share = check_share("share", share)
    rng = _generator(seed)
    missing = ratings.missing
    order = _np.argsort(rng.random(missing.size), kind="stable")
    n_drop = int(round(share * missing.size))
    already = missing.ravel()
    # cells already missing are removed "first": the share counts them
    order = _np.concatenate([order[already[order]], order[~already[order]]])
    drop = _np.zeros(missing.size, dtype=bool)
    drop[order[:n_drop]] = True
    return ratings.with_missing(drop.reshape(missing.shape) | missing)
