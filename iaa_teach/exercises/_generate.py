"""Drawing exam-like tables: one seeded candidate at a time.

A candidate is drawn with a :class:`numpy.random.Generator`: a "true"
category per item, then each rater reports it with a rater-specific accuracy
or else another category (for ordinal scales, usually a neighbouring one).
:mod:`._questions` keeps drawing from the same generator until a candidate
makes a good question, so one seed always gives one question.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int
from ..ratings import Ratings

__all__ = [
    "KINDS",
    "LEVELS",
    "LEVEL_SIZES",
    "Topic",
    "Draw",
    "SIZE_LIMITS",
    "check_size",
    "choose_size",
    "draw",
]

KINDS = ("cohen", "fleiss", "alpha", "partial", "weighted", "pi", "ac1")

ROMAN = ("I", "II", "III", "IV", "V", "VI")


@dataclass(frozen=True)
class Topic:
    """What the annotators labelled: ``items`` (plural noun), the ``task`` and the category names."""

    items: str
    task: str
    categories: tuple


NOMINAL_TOPICS = (
    Topic("sentences", "sentiment", ("positive", "neutral", "negative")),
    Topic("news articles", "topic", ("sport", "politics", "science", "arts")),
    Topic("words", "part of speech", ("noun", "verb", "adjective")),
    Topic("utterances", "dialogue act", ("question", "statement", "request")),
    Topic("emails", "spam filtering", ("spam", "ham")),
    Topic("claim-evidence pairs", "stance", ("agree", "disagree", "unrelated")),
    Topic("documents", "document type", ROMAN[:3]),
    Topic("documents", "document type", ROMAN[:4]),
)

#: More two-category tasks, for level 1 (level 2's draws keep to NOMINAL_TOPICS, so its seeds keep their tables).
BINARY_TOPICS = (
    Topic("tweets", "sarcasm", ("sarcastic", "literal")),
    Topic("sentences", "grammaticality", ("grammatical", "ungrammatical")),
    Topic("search results", "relevance", ("relevant", "irrelevant")),
    Topic("comments", "toxicity", ("toxic", "fine")),
)

ORDINAL_TOPICS = (
    Topic("essays", "quality", ("poor", "fair", "good", "excellent")),
    Topic("reviews", "helpfulness", ("low", "medium", "high")),
    Topic("scans", "severity grade", ROMAN[:4]),
    Topic("scans", "severity grade", ROMAN[:5]),
    Topic("answers", "correctness", ("wrong", "partly right", "right")),
    Topic("symptom reports", "severity", ("mild", "moderate", "severe")),
)

#: Allowed sizes per kind: (items, raters, categories), each (low, high) inclusive;
#: the draws use the ranges of the question's level in LEVEL_SIZES.
SIZE_LIMITS = {
    "cohen": ((4, 20), (2, 2), (2, 6)),
    "weighted": ((4, 20), (2, 2), (3, 6)),
    "fleiss": ((4, 20), (3, 6), (2, 6)),
    "alpha": ((4, 20), (3, 5), (2, 6)),
    "partial": ((6, 20), (4, 6), (2, 6)),
}
#: The levels of difficulty: 1 small and complete, 2 in between (the sizes before levels
#: existed), 3 exam size, 4 a Tripos-shaped question of 20 marks on an exam-size table.
LEVELS = (1, 2, 3, 4)
#: Sizes drawn at each level, per kind: (items, raters, categories), each (low, high) inclusive.
#: Level 1: 4-6 items, 2 categories (3 on an ordered scale, where 2 would make weights
#: pointless), complete tables (a partial-coverage table has gaps by definition: 6 items).
#: Level 3: 10-15 items, 3-4 categories; alpha has missing ratings and partial has partial
#: coverage at levels 2 and 3.
LEVEL_SIZES = {
    1: {
        "cohen": ((5, 6), (2, 2), (2, 2)),
        "weighted": ((4, 6), (2, 2), (3, 3)),
        "fleiss": ((4, 6), (3, 3), (2, 2)),
        "alpha": ((4, 6), (3, 3), (2, 2)),
        "partial": ((6, 6), (4, 4), (2, 2)),
    },
    2: {
        "cohen": ((8, 12), (2, 2), (2, 4)),
        "weighted": ((8, 12), (2, 2), (3, 5)),
        "fleiss": ((8, 12), (3, 5), (2, 4)),
        "alpha": ((8, 12), (3, 4), (2, 4)),
        "partial": ((8, 12), (4, 5), (2, 4)),
    },
    3: {
        "cohen": ((10, 15), (2, 2), (3, 4)),
        "weighted": ((10, 15), (2, 2), (3, 4)),
        "fleiss": ((10, 15), (3, 5), (3, 4)),
        "alpha": ((10, 15), (3, 4), (3, 4)),
        "partial": ((10, 15), (4, 5), (3, 4)),
    },
}
#: Level 4, a Tripos-shaped question of 20 marks, draws its table at exam size (level 3's).
LEVEL_SIZES[4] = dict(LEVEL_SIZES[3])
for _sizes in (SIZE_LIMITS, *LEVEL_SIZES.values()):  # Scott's pi and Gwet's AC1: the sizes of Cohen's kappa
    _sizes["pi"] = _sizes["ac1"] = _sizes["cohen"]


@dataclass
class Draw:
    """One candidate table and what the question text needs to know about it."""

    ratings: Ratings
    topic: Topic
    weights: str | None = None
    coverage: dict = field(
        default_factory=dict
    )  # rater -> (first item, last item), 1-based, partial raters only


def check_size(kind: str, n_items, n_raters, n_categories) -> None:
    """Raise AgreementError for a size outside :data:`SIZE_LIMITS`."""
    for name, value, (lo, hi) in zip(
        ("n_items", "n_raters", "n_categories"), (n_items, n_raters, n_categories), SIZE_LIMITS[kind]
    ):
        if value is not None:
            check_int(f"{name} for a {kind!r} question", value, lo, hi)


def _choose(rng: np.random.Generator, given, default: tuple[int, int]) -> int:
    return int(given) if given is not None else int(rng.integers(default[0], default[1] + 1))


def choose_size(
    kind: str, rng: np.random.Generator, n_items=None, n_raters=None, level: int = 2
) -> tuple[int, int]:
    """The number of items and of raters: as given, or drawn from the level's ranges."""
    items_range, raters_range, _ = LEVEL_SIZES[level][kind]
    return _choose(rng, n_items, items_range), _choose(rng, n_raters, raters_range)


def _topic(rng: np.random.Generator, ordinal: bool, k: int | None, level: int = 2) -> Topic:
    topics = ORDINAL_TOPICS if ordinal else NOMINAL_TOPICS + (BINARY_TOPICS if level == 1 else ())
    if k is not None:
        topics = tuple(t for t in topics if len(t.categories) == k)
        if not topics:
            return Topic(
                "scans" if ordinal else "documents", "grade" if ordinal else "document type", ROMAN[:k]
            )
    return topics[int(rng.integers(len(topics)))]


def _labels(rng: np.random.Generator, n_items: int, n_raters: int, k: int, ordinal: bool) -> np.ndarray:
    """Category codes, shape (n_items, n_raters): a true category per item, noisy raters."""
    prior = rng.dirichlet(np.full(k, 3.0))
    truth = rng.choice(k, size=n_items, p=prior)
    accuracy = rng.uniform(0.5, 0.9, size=n_raters)
    right = rng.random((n_items, n_raters)) < accuracy
    if ordinal:
        step = rng.choice(np.array([-2, -1, 1, 2]), size=(n_items, n_raters), p=[0.1, 0.4, 0.4, 0.1])
        noise = truth[:, None] + step
        noise = np.where((noise < 0) | (noise >= k), truth[:, None] - step, noise)
        noise = np.clip(noise, 0, k - 1)
    else:
        noise = (
            (truth[:, None] + rng.integers(1, k, size=(n_items, n_raters))) % k if k > 1 else truth[:, None]
        )
    return np.where(right, truth[:, None], noise)


def draw(
    kind: str,
    rng: np.random.Generator,
    n_items=None,
    n_raters=None,
    n_categories=None,
    weights=None,
    level: int = 2,
    missing: bool = False,
) -> Draw:
    """One candidate table for a question of ``kind`` at ``level`` (not yet checked for quality).

    ``missing`` (cohen and weighted): one or two items lack one annotator's label.
    """
    cats_range = LEVEL_SIZES[level][kind][2]
    n, m = choose_size(kind, rng, n_items, n_raters, level)
    ordinal = kind == "weighted"
    topic = _topic(rng, ordinal, n_categories, level)
    if n_categories is None and not cats_range[0] <= len(topic.categories) <= cats_range[1]:
        topic = _topic(rng, ordinal, _choose(rng, None, cats_range), level)
    codes = _labels(rng, n, m, len(topic.categories), ordinal)
    present = np.ones((n, m), dtype=bool)
    raters = [chr(ord("A") + j) for j in range(m)]
    out = Draw(ratings=None, topic=topic)  # type: ignore[arg-type]
    if kind == "weighted":
        out.weights = weights if weights is not None else ("linear", "quadratic")[int(rng.integers(2))]
    if missing and kind in ("cohen", "weighted"):
        gaps = rng.choice(n, size=int(rng.integers(1, 3)), replace=False)
        present[gaps, rng.integers(0, 2, size=len(gaps))] = False
    elif kind == "alpha" and level > 1:
        # most units complete; one with a single value; one to three with 2 .. m-1 values
        sizes = np.full(n, m)
        picks = rng.permutation(n)
        n_partial = int(rng.integers(1, 4))
        sizes[picks[0]] = 1
        sizes[picks[1 : 1 + n_partial]] = rng.integers(2, m, size=n_partial)
        order = rng.random((n, m)).argsort(axis=1).argsort(axis=1)
        present = order < sizes[:, None]
    elif kind == "partial":
        # the last two annotators cover item ranges: the first of them a tail (from item >= 3),
        # the second a head (possibly every item, as E in the partial-annotation text)
        start = int(rng.integers(2, n // 2 + 1))  # 0-based first item of the tail
        end = n if rng.random() < 0.4 else int(rng.integers(n // 2 + 1, n))  # head ends before item `end`
        present[:start, -2] = False
        present[end:, -1] = False
        out.coverage = {raters[-2]: (start + 1, n), raters[-1]: (1, end)}
        # single-rated items: some items before the tail that only the head annotator labelled
        n_single = 1 if level < 3 else int(rng.integers(1, 3))
        single = rng.choice(start, size=min(n_single, start - 1), replace=False)
        present[single, :-2] = False
    out.ratings = Ratings.from_codes(
        np.where(present, codes, Ratings.MISSING), categories=topic.categories, raters=raters
    )
    return out
