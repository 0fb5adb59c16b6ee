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
