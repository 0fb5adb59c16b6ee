"""The data sets the notebooks and tests use.

Labels are ``"G"`` (negative), ``"N"`` (neutral) and ``"P"`` (positive), in
the order G < N < P (the order ordinal measures and tables use).
"""

from __future__ import annotations

from dataclasses import dataclass as _dataclass
from itertools import combinations as _combinations
from pathlib import Path as _Path
from types import MappingProxyType as _MappingProxyType
from typing import Mapping as _Mapping

import numpy as _np

from ._validation import MAX_CATEGORIES, check_int, check_option, check_seed, check_share
from .ratings import AgreementError, Ratings

__all__ = [
    "SENTIMENT_CATEGORIES",
    "sentiment",
    "sentiment_missing",
    "partial_coverage",
    "from_agreement_table",
    "FEINSTEIN_CICCHETTI",
    "feinstein_cicchetti",
    "simulate",
    "remove_ratings",
    "diagnoses",
    "ClassPlan",
    "class_annotations",
    "class_annotations_planted",
]

#: The sentiment example's categories, in the order its tables list them.
SENTIMENT_CATEGORIES = ("G", "N", "P")
_DATA = _Path(__file__).parent / "data"


def _table(name: str) -> tuple[list[str], list[list[str | None]]]:
    """A data file's header (the raters) and its rows, one an item (an empty cell: no rating)."""
    header, *lines = (_DATA / name).read_text(encoding="utf-8").splitlines()
    return header.split(","), [[cell or None for cell in line.split(",")] for line in lines]


def sentiment() -> Ratings:
    """The worked example: 10 sentences, annotators A, B, C, labels G < N < P.

    >>> r = sentiment()
    >>> r.shape, r.n_ratings
    ((10, 3), 30)
    """
    raters, rows = _table("sentiment.csv")  # items 1-10 (the worked example)
    return Ratings.from_rows(rows, raters=raters, categories=SENTIMENT_CATEGORIES)


def sentiment_missing() -> Ratings:
    """The worked example with item 3's rating by B and item 8's by C removed.

    >>> sentiment_missing().n_ratings
    28
    """
    raters, rows = _table("sentiment.csv")
    rows[2][1] = None  # item 3, rater B
    rows[7][2] = None  # item 8, rater C
    return Ratings.from_rows(rows, raters=raters, categories=SENTIMENT_CATEGORIES)


def partial_coverage() -> Ratings:
    """Five annotators covering different items (the partial-annotation text, with two single-label items).

    A, B and C label items 1-8, D labels items 3-8 and E labels eight items:
    1-6 and 9-10. That is the text's count, 3 x 8 + 6 + 8 = 38 labels, but
    where the text's E labels items 1-8, here E alone labels items 9 and 10,
    so that the text's rule for single-label items ("left out of P_a, counted
    in P_e") is seen at work. The labels are made up for teaching (the text
    gives none). D and E disagree on item 5 only, so merging them into one
    annotator gives an answer that depends on which label the merge keeps.

    >>> r = partial_coverage()
    >>> r.raters, r.n_items, r.n_ratings
    (('A', 'B', 'C', 'D', 'E'), 10, 38)
    >>> [int(k) for k in r.ratings_per_item()]
    [4, 4, 5, 5, 5, 5, 4, 4, 1, 1]
    """
    raters, rows = _table("partial_coverage.csv")  # items 1-10
    return Ratings.from_rows(rows, raters=raters, categories=SENTIMENT_CATEGORIES)


# --- simulated ratings (for the widgets: the kappa paradox, missing data) ---
#: Most ratings (n_items x n_raters) that :func:`simulate` draws (a few hundred MB of working arrays).
_MAX_SIMULATED = 10_000_000


def from_agreement_table(table, categories, raters=("A", "B")) -> Ratings:
    """Two raters' ratings from their agreement table: cell (j, k) items labelled j by the first, k by the second.

    The items are listed cell by cell, row by row (the order does not change
    any coefficient).

    >>> r = from_agreement_table([[2, 1], [0, 3]], ["yes", "no"])
    >>> r.rows()
    [['yes', 'yes'], ['yes', 'yes'], ['yes', 'no'], ['no', 'no'], ['no', 'no'], ['no', 'no']]
    """
    try:
        t = _np.asarray(table)
        whole = t.size > 0 and _np.issubdtype(t.dtype, _np.number) and bool((t == _np.round(t)).all())
    except (TypeError, ValueError):
        whole = False
    cats = list(categories) if not isinstance(categories, (str, bytes)) else None
    if not whole or cats is None or t.shape != (len(cats), len(cats)) or (t < 0).any() or t.sum() == 0:
        raise AgreementError(
            f"table must be a q x q table of counts (whole numbers of at least 0, not all 0) "
            f"for the q = {len(cats) if cats else '?'} categories given; got {table!r}"
        )
    rows = [
        [cats[j], cats[k]] for j in range(len(cats)) for k in range(len(cats)) for _ in range(int(t[j, k]))
    ]
    return Ratings.from_rows(rows, raters=list(raters), categories=cats)


#: Feinstein and Cicchetti's (1990) two-rater tables (rows: the first rater, columns: the second;
#: "yes" then "no"). Paradox 1: (a) and (b) have the same observed agreement, (b) a skewed
#: prevalence and a much lower kappa. Paradox 2: (c) and (d) have the same observed agreement,
#: (d) raters who disagree in how often they say "yes" (bias) and a higher kappa.
FEINSTEIN_CICCHETTI = {
    "a": ((40, 9), (6, 45)),
    "b": ((80, 10), (5, 5)),
    "c": ((45, 15), (25, 15)),
    "d": ((25, 35), (5, 35)),
}


def feinstein_cicchetti(name: str) -> Ratings:
    """One of :data:`FEINSTEIN_CICCHETTI`'s tables ("a" to "d") as ratings of 100 items by raters A and B.

    >>> from iaa_teach import cohen_kappa
    >>> [f"{cohen_kappa(feinstein_cicchetti(t)):.2f}" for t in "abcd"]
    ['0.70', '0.32', '0.13', '0.26']
    """
    check_option("name", name, tuple(FEINSTEIN_CICCHETTI))
    return from_agreement_table(FEINSTEIN_CICCHETTI[name], ["yes", "no"])


def _generator(seed) -> "_np.random.Generator":
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, _np.random.Generator) else _np.random.default_rng(seed)


def simulate(
    n_items: int = 100,
    n_raters: int = 3,
    accuracy: float = 0.8,
    prevalence: float | None = None,
    n_categories: int = 3,
    seed=0,
    missing: float = 0.0,
) -> Ratings:
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
    ...     print(f"prevalence {fmt(prevalence, 2)}: P_a = {fmt(res.exact.p_a)}, kappa = {res:.3f}")
    prevalence 0.50: P_a = 0.814, kappa = 0.627
    prevalence 0.95: P_a = 0.814, kappa = 0.275
    """
    n_items = check_int("n_items", n_items, 1)
    n_raters = check_int("n_raters", n_raters, 2)
    k = check_int("n_categories", n_categories, 2, MAX_CATEGORIES)
    if n_items * n_raters > _MAX_SIMULATED:
        raise AgreementError(
            f"simulate draws at most {_MAX_SIMULATED:,} ratings (n_items x n_raters), got "
            f"{n_items:,} x {n_raters:,}"
        )
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


# --- real and simulated tables for the diagnostics (who, which items, which categories) ---
#: Fleiss' (1971) five diagnoses, in his order.
_DIAGNOSES_CATEGORIES = ("depression", "personality disorder", "schizophrenia", "neurosis", "other")


def diagnoses() -> Ratings:
    """Fleiss' (1971) psychiatric diagnoses: 30 patients, 6 diagnoses each, 5 categories.

    The table Fleiss used to introduce kappa for many raters (Fleiss, J. L.
    (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382), as the R package irr ships it
    (data set ``diagnoses``, irr 0.84.1; checked cell by cell against its
    ``data/diagnoses.rda``): items are patients ``1 .. 30``, columns
    ``rater1 .. rater6``, categories depression, personality disorder, schizophrenia, neurosis and other, in Fleiss'
    order.

    Read the columns with care: each patient was diagnosed by a *different*
    set of six psychiatrists, so ``rater1`` of one patient is not
    the same person as ``rater1`` of the next. Within each row the
    diagnoses are sorted. Item- and category-level results (Fleiss' kappa,
    alpha, the disputed patients, the confused diagnoses) are meaningful;
    anything that follows a column across patients (Cohen's kappa between
    columns, leaving a "rater" out) describes an artefact of the layout,
    not a psychiatrist.

    Examples
    --------
    Fleiss' published kappa:

    >>> from iaa_teach import fleiss_kappa
    >>> r = diagnoses()
    >>> r.shape, r.n_ratings
    ((30, 6), 180)
    >>> print(f"{fleiss_kappa(r):.3f}")
    0.430
    """
    raters, rows = _table("diagnoses.csv")  # patients 1-30; 1-5 index _DIAGNOSES_CATEGORIES
    return Ratings.from_codes(_np.array(rows, dtype=_np.int64) - 1, _DIAGNOSES_CATEGORIES, raters)


#: The labels of :func:`class_annotations`.
_CLASS_CATEGORIES = ("positive", "negative", "neutral", "mixed", "off-topic")

_TRUE_SHARES = (0.30, 0.25, 0.20, 0.15, 0.10)  # the share of the reviews that have each true label
_READINGS = 3  # an ambiguous review has three readings, which split the class evenly
_CONFUSABLE = ("neutral", "mixed")
_CONFUSION = 0.15  # a student who reads neutral (mixed) writes mixed (neutral) this often
_ACCURACY = (0.88, 0.96)  # each student's chance of no slip, drawn uniformly in this range
_SKIP = 0.03  # each student leaves each review unlabelled this often
_BIASED_TOWARDS = "positive"
_BIAS = 0.5  # the biased student writes "positive" this often, whatever the review


@_dataclass(frozen=True)
class ClassPlan:
    """What :func:`class_annotations` planted, for the same arguments.

    Attributes
    ----------
    seed : int
    truth : mapping of review -> label
        The true label of every clear review.
    ambiguous : mapping of review -> (label, label, label)
        The genuinely ambiguous reviews and their three readings.
    confusable : (str, str)
        The two categories that students confuse.
    confusion : float
        How often a student who reads one of them writes the other.
    random_rater : str
        The student who answers at random.
    biased_rater, biased_category : str
        The student who writes ``biased_category`` on half of the reviews,
        whatever they say.
    copier, copied : str
        ``copier`` hands in ``copied``'s labels, skips included.
    """

    seed: int
    truth: _Mapping
    ambiguous: _Mapping
    confusable: tuple
    confusion: float
    random_rater: str
    biased_rater: str
    biased_category: str
    copier: str
    copied: str


def _class_simulation(n_students: int, n_reviews: int, seed: int) -> tuple[Ratings, ClassPlan]:
    n_students = check_int("n_students", n_students, 4)
    n_reviews = check_int("n_reviews", n_reviews, 8)
    seed = check_int("seed", seed, 0)
    rng = _np.random.default_rng(seed)
    cats, k = _CLASS_CATEGORIES, len(_CLASS_CATEGORIES)
    students = [f"S{i:02d}" for i in range(1, n_students + 1)]
    reviews = [f"R{i:02d}" for i in range(1, n_reviews + 1)]
    # the reviews: true labels in fixed shares, shuffled; a few reviews are ambiguous instead
    per_category = _np.floor(_np.array(_TRUE_SHARES) * n_reviews + 0.5).astype(int)
    per_category[0] += n_reviews - per_category.sum()  # rounding left-overs go to "positive"
    truth = rng.permutation(_np.repeat(_np.arange(k), per_category))
    n_ambiguous = max(1, round(n_reviews / 8))
    ambiguous = _np.sort(rng.choice(n_reviews, size=n_ambiguous, replace=False))
    sets = _np.array(list(_combinations(range(4), _READINGS)))  # three of positive/negative/neutral/mixed
    readings = sets[rng.permutation(len(sets))][_np.arange(n_ambiguous) % len(sets)]
    random_rater, biased_rater, copier = rng.choice(n_students, size=3, replace=False)
    # every student: read the review (an ambiguous one: the class splits evenly over its readings) ...
    read = _np.broadcast_to(truth[:, None], (n_reviews, n_students)).copy()
    which = rng.permuted(_np.tile(_np.arange(n_students) % _READINGS, (n_ambiguous, 1)), axis=1)
    read[ambiguous] = _np.take_along_axis(readings, which, axis=1)
    # ... confuse neutral and mixed, slip now and then
    a, b = cats.index(_CONFUSABLE[0]), cats.index(_CONFUSABLE[1])
    swap = rng.random(read.shape) < _CONFUSION
    label = _np.where(swap & (read == a), b, _np.where(swap & (read == b), a, read))
    accuracy = rng.uniform(*_ACCURACY, size=n_students)
    slip = rng.random(read.shape) >= accuracy[None, :]
    label = _np.where(slip, (label + rng.integers(1, k, size=read.shape)) % k, label)  # one of the other four
    # the planted students
    label[:, random_rater] = rng.integers(k, size=n_reviews)
    biased = rng.random(n_reviews) < _BIAS
    label[biased, biased_rater] = cats.index(_BIASED_TOWARDS)
    label = _np.where(rng.random(read.shape) < _SKIP, Ratings.MISSING, label)
    ordinary = _np.setdiff1d(_np.arange(n_students), [random_rater, biased_rater, copier])
    copied = ordinary[_np.argmax(accuracy[ordinary])]
    label[:, copier] = label[:, copied]
    table = Ratings.from_codes(label, categories=cats, raters=students, items=reviews)
    clear = _np.setdiff1d(_np.arange(n_reviews), ambiguous)
    return table, ClassPlan(
        seed=seed,
        truth=_MappingProxyType({reviews[i]: cats[truth[i]] for i in clear}),
        ambiguous=_MappingProxyType(
            {reviews[i]: tuple(cats[x] for x in row) for i, row in zip(ambiguous, readings)}
        ),
        confusable=_CONFUSABLE,
        confusion=_CONFUSION,
        random_rater=students[random_rater],
        biased_rater=students[biased_rater],
        biased_category=_BIASED_TOWARDS,
        copier=students[copier],
        copied=students[copied],
    )


def class_annotations(n_students: int = 30, n_reviews: int = 40, seed: int = 0) -> Ratings:
    """A class annotation exercise, simulated with planted behaviour: students label product reviews.

    Students ``S01, S02, ...`` label reviews ``R01, R02, ...`` as
    ``positive``, ``negative``, ``neutral``, ``mixed`` or ``off-topic``. What is planted (and returned, for the same
    arguments, by :func:`class_annotations_planted`):

    - **True labels.** Of the reviews, 30 % are positive, 25 % negative,
      20 % neutral, 15 % mixed and 10 % off-topic (rounded to whole reviews),
      in random order.
    - **Genuinely ambiguous reviews.** ``round(n_reviews / 8)`` of them
      (5 of 40), drawn at random, have three readings instead of a true
      label: three of positive / negative / neutral / mixed, a different
      set for each review in turn. The class splits evenly: each reading
      is taken by a third of the students.
    - **Two confusable categories.** A student who reads a review as
      ``neutral`` writes ``mixed`` 15 % of the time, and the other way round.
    - **Slips.** Each student has an accuracy drawn uniformly between
      0.88 and 0.96; otherwise a slip replaces the label with one of the
      other four categories, at random.
    - **Skips.** Each student leaves each review unlabelled with
      probability 0.03 (a missing cell).
    - **A student answering at random**: any of the five labels, each with
      probability 1/5, whatever the review.
    - **A biased student**: writes ``positive`` on half of the reviews
      (drawn at random) whatever they say, and labels the others as
      everyone does.
    - **A copier**: hands in the labels of the most accurate other
      ordinary student (``copied``), skips included.

    The random, biased and copying students are three different students
    drawn at random. The same arguments give the same table.

    Parameters
    ----------
    n_students : int
        At least 4.
    n_reviews : int
        At least 8.
    seed : int
        0 or more.

    Returns
    -------
    Ratings
        Shape (n_reviews, n_students).

    Examples
    --------
    >>> r = class_annotations()
    >>> r.shape, r.raters[:3], r.items[:3]
    ((40, 30), ('S01', 'S02', 'S03'), ('R01', 'R02', 'R03'))
    """
    return _class_simulation(n_students, n_reviews, seed)[0]


def class_annotations_planted(n_students: int = 30, n_reviews: int = 40, seed: int = 0) -> ClassPlan:
    """What :func:`class_annotations` planted for the same arguments (see there).

    >>> plan = class_annotations_planted()
    >>> plan.random_rater, plan.biased_rater, plan.copier, plan.copied
    ('S27', 'S21', 'S14', 'S04')
    >>> sorted(plan.ambiguous), plan.confusable
    (['R06', 'R15', 'R25', 'R27', 'R35'], ('neutral', 'mixed'))
    """
    return _class_simulation(n_students, n_reviews, seed)[1]
