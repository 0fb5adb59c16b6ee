"""The lessons' exercises, one registry: ``check("01.1", answer)`` in a lesson's check cell.

Every exercise of lessons 01-07 has an id, ``"<lesson>.<number>"``. Its
wording (what is asked, the step to look at again, what each known mistake
means, the decimals needed) is data, in ``lesson_exercises.json`` beside this
module; its values (the answer and each listed mistake) are computed here from
:mod:`iaa_teach.datasets`, one small function per id, so a check cell shows
neither the answer nor the expression that computes it::

    answer = "7/10"
    check("01.1", answer)          # Right. P_o = 7/10.

:func:`answer` and :func:`mistakes` give the values (for tests, the exam
practice and an instructor), :data:`EXERCISES` every exercise in order.

>>> check("01.1", "7/10")
Right. P_o = 7/10.
>>> check("01.1", 0.3)  # doctest: +NORMALIZE_WHITESPACE
Not yet. 0.3 is what you get when you counted the items off the diagonal. Look again at the diagonal of the
agreement table, divided by N.
>>> [e.id for e in EXERCISES][:3]
['01.1', '01.2', '01.3']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import (
    Ratings,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    datasets,
    family_intervals,
    fleiss_kappa,
    gwet_ac,
    items_needed,
    krippendorff_alpha,
    pairwise_cohen,
    percent_agreement,
    scott_pi,
)
from ._check import Check, check_number

__all__ = [
    "Exercise",
    "EXERCISES",
    "PRACTICE",
    "exercise",
    "lookup",
    "check",
]

_DATA = Path(__file__).with_name("lesson_exercises.json")


# ============================================================ shared data
def _changed(ratings: Ratings, item: int, rater: int, label: str | None) -> Ratings:
    rows = ratings.rows()
    rows[item][rater] = label
    return Ratings.from_rows(rows, raters=ratings.raters, categories=ratings.categories)


def _text_alpha(r: Ratings) -> float:
    """The code walkthrough's 'alpha': every ordered pair counted once (no 1/(n_i - 1) weight),
    D_e = 1 - Σ p_c²."""
    pairs = krippendorff_alpha(r).pair_counts
    p = pairs.sum(axis=1) / pairs.sum()
    return float(1 - (1 - np.trace(pairs) / pairs.sum()) / (1 - np.sum(p**2)))


def _old_p_a(new: Any, old: Any) -> Fraction:
    """The coefficient with the new P_e but the old table's P_a."""
    p_e = new.exact.p_e
    return (old.exact.p_a - p_e) / (1 - p_e)


def _old_p_e(new: Any, old: Any) -> Fraction:
    """The coefficient with the new P_a but the old table's P_e."""
    p_e = old.exact.p_e
    return (new.exact.p_a - p_e) / (1 - p_e)


# =============================================== one function per exercise
_VALUES: dict[str, Callable[[], tuple[Any, dict[str, Any]]]] = {}


def _values(exercise_id: str):
    def register(fn):
        _VALUES[exercise_id] = fn
        return fn

    return register


@_values("01.1")
def _():
    ab = cohen_kappa(datasets.sentiment(), "A", "B").exact
    return ab.p_o, {"off_diagonal": 1 - ab.p_o}


@_values("01.2")
def _():
    ac = cohen_kappa(datasets.sentiment(), "A", "C").exact
    return ac.p_e, {"p_o": ac.p_o}


@_values("01.3")
def _():
    old = cohen_kappa(datasets.sentiment(), "A", "B")
    new = cohen_kappa(_changed(datasets.sentiment(), 9, 1, "G"), "A", "B")
    return new.exact.kappa, {
        "old_p_e": (new.exact.p_o - old.exact.p_e) / (1 - old.exact.p_e),
        "old_p_o": (old.exact.p_o - new.exact.p_e) / (1 - new.exact.p_e),
    }


@_values("02.1")
def _():
    item_10 = datasets.sentiment().counts()[9]
    return fleiss_kappa(datasets.sentiment()).exact.p_i[9], {
        "unordered": Fraction(1, 6),
        "self_pairs": Fraction(5, 6),
        "majority": Fraction(int(item_10.max()), int(item_10.sum())),
    }


@_values("02.2")
def _():
    return list(fleiss_kappa(datasets.sentiment()).exact.p_j), {}


@_values("02.3")
def _():
    old = fleiss_kappa(datasets.sentiment())
    new = fleiss_kappa(_changed(datasets.sentiment(), 9, 1, "G"))
    return new.exact.kappa, {"old_p_e": _old_p_e(new, old), "old_p_a": _old_p_a(new, old)}


@_values("03.1")
def _():
    n_i = datasets.sentiment().counts().sum(axis=1)
    pairs = int((n_i * (n_i - 1)).sum())
    return pairs, {"unordered": pairs // 2, "self_pairs": int((n_i**2).sum())}


@_values("03.2")
def _():
    ratings = datasets.sentiment()
    return krippendorff_alpha(ratings).exact.n, {"pairs": int(krippendorff_alpha(ratings).pair_counts.sum())}


@_values("03.3")
def _():
    res = krippendorff_alpha(datasets.sentiment())
    pairs = res.pair_counts
    total = int(pairs.sum())
    d_o, d_e = res.exact.d_o, res.exact.d_e
    return d_e, {
        "with_replacement": 1 - sum(Fraction(int(x), total) ** 2 for x in pairs.sum(axis=1)),
        "p_e": 1 - d_e,
        "d_o": d_o,
        "p_a": 1 - d_o,
        "alpha": res.exact.alpha,
        "unordered": d_e / 2,  # the n_c n_k of c < k only: each pair of categories once, not both ways
    }


@_values("03.4")
def _():
    a_and_b = datasets.sentiment().subset(raters=["A", "B"])
    return krippendorff_alpha(a_and_b).exact.alpha, {
        "cohen": cohen_kappa(a_and_b, "A", "B").exact.kappa,
        "scott": fleiss_kappa(a_and_b).exact.kappa,
        "all_three": krippendorff_alpha(datasets.sentiment()).exact.alpha,
    }


@_values("04.1")
def _():
    ratings = datasets.sentiment_missing()
    return krippendorff_alpha(ratings).exact.n, {"cells": ratings.n_items * ratings.n_raters}


@_values("04.2")
def _():
    ratings = datasets.sentiment_missing()
    return pairwise_cohen(ratings)["B", "C"].n_items, {
        "one_gap": ratings.n_items - 1,
        "all_items": ratings.n_items,
    }


@_values("04.3")
def _():
    exercise = _changed(datasets.sentiment_missing(), 4, 0, None)
    return krippendorff_alpha(exercise).exact.alpha, {
        "text": _text_alpha(exercise),
        "unchanged": krippendorff_alpha(datasets.sentiment_missing()).exact.alpha,
    }


@_values("05.1")
def _():
    ratings = datasets.partial_coverage()
    return ratings.n_ratings, {
        "full_table": ratings.n_raters * ratings.n_items,
        "items_1_8": ratings.n_raters * 8,
    }


@_values("05.2")
def _():
    ratings = datasets.partial_coverage()
    right = fleiss_kappa(ratings, chance="pooled").exact
    sum_p_i = sum(p for p in right.p_i if p is not None)
    singles = int((ratings.counts().sum(axis=1) < 2).sum())
    return right.p_a, {
        "all_items": sum_p_i / ratings.n_items,
        "single_as_one": (sum_p_i + singles) / ratings.n_items,
    }


@_values("05.3")
def _():
    ratings = datasets.partial_coverage()
    pairable = ratings.counts().sum(axis=1) >= 2
    return fleiss_kappa(ratings, chance="pooled").exact.p_e, {
        "pairable_only": fleiss_kappa(ratings.subset(items=pairable)).exact.p_e
    }


@_values("05.4")
def _():
    ratings = datasets.partial_coverage()
    exercise = _changed(_changed(ratings, 2, 3, None), 3, 3, None)
    new, old = fleiss_kappa(exercise, chance="pooled"), fleiss_kappa(ratings, chance="pooled")
    return new.exact.kappa, {"old_p_e": _old_p_e(new, old), "old_p_a": _old_p_a(new, old)}


def _pooled_shares(ratings: Ratings) -> list[Fraction]:
    return [Fraction(int(x), ratings.n_ratings) for x in ratings.rater_counts().sum(axis=0)]


@_values("06.1")
def _():
    ratings = datasets.sentiment()
    p_a = percent_agreement(ratings).exact.p_a
    half = Fraction(1, 2)
    return brennan_prediger(ratings).exact.s, {
        "p_a": p_a,
        "two_categories": (p_a - half) / half,
        "fleiss": fleiss_kappa(ratings).exact.kappa,
    }


@_values("06.2")
def _():
    ratings = datasets.sentiment()
    return conger_kappa(ratings).exact.p_e, {"pooled": sum(p * p for p in _pooled_shares(ratings))}


@_values("06.3")
def _():
    ratings = datasets.sentiment()
    p_j = _pooled_shares(ratings)
    return gwet_ac(ratings).exact.p_e, {
        "no_division": sum(p * (1 - p) for p in p_j),
        "pooled": sum(p * p for p in p_j),
    }


@_values("06.4")
def _():
    table_b = datasets.feinstein_cicchetti("b")
    ac1 = gwet_ac(table_b)
    return ac1.exact.ac, {
        "cohen": cohen_kappa(table_b).exact.kappa,
        "scott": scott_pi(table_b).exact.pi,
        "p_o": ac1.exact.p_a,
    }


@_values("07.1")
def _():
    ratings = datasets.sentiment()
    pa = percent_agreement(ratings)
    p_i = fleiss_kappa(ratings).exact.p_i
    squares = sum((p - pa.exact.p_a) ** 2 for p in p_i)
    n = len(p_i)
    return pa.se, {
        "over_n_squared": float(squares / n**2) ** 0.5,
        "over_n": float(squares / n) ** 0.5,
        "spread_of_items": float(squares / (n - 1)) ** 0.5,
        "no_root": float(squares / (n * (n - 1))),
    }


@_values("07.2")
def _():
    from scipy import stats

    kappa = fleiss_kappa(datasets.sentiment())
    low, high = kappa.ci()
    t = stats.t.ppf(0.975, datasets.sentiment().n_items - 1)
    return low, {
        "normal": kappa.kappa - stats.norm.ppf(0.975) * kappa.se,
        "no_critical_value": kappa.kappa - kappa.se,
        "half_width": t * kappa.se,
        "upper": high,
    }


@_values("07.3")
def _():
    study = datasets.simulate(400, 3, accuracy=0.8, prevalence=0.6, n_categories=3, seed=7)
    se_400 = next(f.se for f in family_intervals(study) if f.name == "Fleiss' kappa")
    return se_400 / 2, {"over_four": se_400 / 4}


@_values("07.4")
def _():
    plan = dict(expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2])
    wide = items_needed("fleiss_kappa", half_width=0.1, **plan)
    tight = items_needed("fleiss_kappa", half_width=0.05, **plan)
    return tight.items, {"doubled": 2 * wide.items, "four_times": 4 * wide.items}


# ================================================================ registry
@dataclass(frozen=True)
class Exercise:
    """One lesson exercise: ``id`` ("01.1"), ``lesson`` ("01"), ``number`` (1), ``title``, what is asked
    (``name``), where to look again (``step``), decimals needed (``places``), the cell's ``variable``
    and ``meanings`` (mistake key -> what that value means)."""

    id: str
    title: str
    name: str
    step: str
    places: int = 3
    variable: str = "answer"
    meanings: dict[str, str] = field(default_factory=dict)

    @property
    def lesson(self) -> str:
        return self.id.split(".")[0]

    @property
    def number(self) -> int:
        return int(self.id.split(".")[1])

    def labels(self) -> list[str] | None:
        """The name of each position when the answer is a list (the categories of ``p_j``)."""
        return list(datasets.sentiment().categories) if isinstance(self.answer(), list) else None

    def answer(self) -> Any:
        """The right value, exact (a Fraction or int) where it can be."""
        return _computed(self.id)[0]

    def mistakes(self) -> dict[str, Any]:
        """What each listed mistake gives: meaning -> value."""
        values = _computed(self.id)[1]
        return {self.meanings[key]: value for key, value in values.items()}

    def check(self, given: Any) -> Check:
        return check_number(
            given,
            self.answer(),
            name=self.name,
            step=self.step,
            mistakes=self.mistakes(),
            labels=self.labels(),
            places=self.places,
        )


@cache
def _computed(exercise_id: str) -> tuple[Any, dict[str, Any]]:
    return _VALUES[exercise_id]()


def _load() -> tuple[Exercise, ...]:
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    out = []
    for entry in data["exercises"]:
        entry = dict(entry)
        entry["meanings"] = entry.pop("mistakes", {})
        out.append(Exercise(**entry))
    ids = [e.id for e in out]
    if sorted(ids) != sorted(_VALUES) or len(set(ids)) != len(ids):
        raise RuntimeError(
            f"{_DATA.name} and lesson_exercises.py disagree on the exercise ids: {ids} vs {sorted(_VALUES)}"
        )
    return tuple(out)


#: Every lesson exercise, in course order.
EXERCISES: tuple[Exercise, ...] = _load()
#: The exam-practice questions' code scheme (:func:`question_code`), from the same
#: registry file: ``prefix``, ``alphabet``, ``multiplier``, ``mask`` and the fixed order of ``kinds``.
PRACTICE: dict[str, Any] = json.loads(_DATA.read_text(encoding="utf-8"))["practice"]


def lookup(exercise_id: str) -> Any:
    """Any exercise by its id, one registry for the course: a lesson exercise (``"01.1"``, an
    :class:`Exercise`) or an exam-practice question (``"Q-7KD3-M2XA"``, drawn again as a
    :class:`~iaa_teach.exercises.Question`, to see its worked answer afterwards).

    >>> lookup("01.1").name
    'P_o'
    >>> from iaa_teach.exercises import make_question
    >>> q = make_question("alpha", 5, level=3)
    >>> lookup(q.id).ratings == q.ratings
    True
    """
    if isinstance(exercise_id, str) and exercise_id.strip().upper().startswith(PRACTICE["prefix"]):
        from ._questions import question_for  # the practice questions sit above this registry

        return question_for(exercise_id)
    return exercise(exercise_id)


def exercise(exercise_id: str) -> Exercise:
    """The exercise with this id ("01.1")."""
    for ex in EXERCISES:
        if ex.id == exercise_id:
            return ex
    raise KeyError(f"no lesson exercise {exercise_id!r}; the ids are {[e.id for e in EXERCISES]}")


def check(exercise_id: str, given: Any) -> Check:
    """Check a student's answer to a lesson exercise: right or not yet, never the answer.

    ``given`` is what the student wrote (``"7/10"``, ``0.7``, a list for a list
    answer, or ``...`` for not answered yet); the feedback names the step to look
    at again and, for a known mistake, what that value means.
    """
    return exercise(exercise_id).check(given)
