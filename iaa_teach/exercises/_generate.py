"""Drawing exam-like tables: one seeded candidate at a time.

A candidate is drawn with a :class:`numpy.random.Generator`: a "true"
category per item, then each rater reports it with a rater-specific accuracy
or else another category (for ordinal scales, usually a neighbouring one).
A kind marks the ratings its table lacks
(:meth:`~._kind.Kind.gaps`). :mod:`._questions` keeps drawing from the same generator until a candidate
makes a good question, so one seed always gives one question.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int
from ..ratings import Ratings
from ._kinds import KINDS, REGISTRY

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

#: More two-category tasks, for level 1 (level 2's draws keep to NOMINAL_TOPICS, so its seeds keep their
#: tables).
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

#: Allowed sizes per kind: (items, raters, categories), each (low, high) inclusive (the kind's data file,
#: ``[sizes] limits``); the draws use the ranges of the question's level in LEVEL_SIZES.
SIZE_LIMITS = {name: kind.sizes() for name, kind in REGISTRY.items()}
#: The levels of difficulty: 1 small and complete, 2 in between (the sizes before levels
#: existed), 3 exam size, 4 a Tripos-shaped question of 20 marks on an exam-size table.
LEVELS = (1, 2, 3, 4)
#: Sizes drawn at each level, per kind: (items, raters, categories), each (low, high) inclusive (the
#: kind's data file). Level 1: 4-6 items, 2 categories (3 on an ordered scale, where 2 would make weights
#: pointless), complete tables (a partial-coverage table has gaps by definition: 6 items). Level 3: 10-15
#: items, 3-4 categories; alpha has missing ratings at levels 2-4, partial partial coverage at every level.
#: Level 4, a Tripos-shaped question of 20 marks, draws its table at exam size (level 3's).
LEVEL_SIZES = {level: {name: kind.sizes(level) for name, kind in REGISTRY.items()} for level in LEVELS}


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

    ``missing`` (cohen and weighted): one or two items lack one annotator's label; the kind marks its
    gaps (:meth:`~._kind.Kind.gaps`).
    """
    cats_range = LEVEL_SIZES[level][kind][2]
    n, m = choose_size(kind, rng, n_items, n_raters, level)
    ordinal = REGISTRY[kind].ordinal
    topic = _topic(rng, ordinal, n_categories, level)
    if n_categories is None and not cats_range[0] <= len(topic.categories) <= cats_range[1]:
        topic = _topic(rng, ordinal, _choose(rng, None, cats_range), level)
    codes = _labels(rng, n, m, len(topic.categories), ordinal)
    present = np.ones((n, m), dtype=bool)
    raters = [chr(ord("A") + j) for j in range(m)]
    out = Draw(ratings=None, topic=topic)  # type: ignore[arg-type]
    if ordinal:
        out.weights = weights if weights is not None else ("linear", "quadratic")[int(rng.integers(2))]
    out.coverage = REGISTRY[kind].gaps(rng, present, level, missing)
    out.ratings = Ratings.from_codes(
        np.where(present, codes, Ratings.MISSING), categories=topic.categories, raters=raters
    )
    return out
