"""Conceptual parts that are marked: multiple choice (a letter) and short answers (key points).

Each builder returns the pieces of a :class:`~._questions.Part` answered
without a number: the prompt, the options or the key points, and a model
answer that uses no other part's result (the check may show it before the
solution is opened). Options are shuffled by the question's own generator,
so a seed always gives the same order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..markup import Math, Prose, prose
from ..metrics import interpret
from ..rounding import fmt

__all__ = [
    "KeyPoint",
    "Choice",
    "Concept",
    "CONCEPTS",
    "multiple_choice",
    "short_answer",
    "verdict",
    "ALPHA_FIRM",
    "ALPHA_TENTATIVE",
    "paradox",
    "undefined",
    "dropout",
    "interpretation",
    "interpret_own",
    "weights_why",
    "pooling_why",
    "single_value",
    "alpha_vs_fleiss",
    "merging",
    "rules_differ",
    "choose_coefficient",
    "LETTERS",
]

#: Krippendorff's guideline: alpha >= 0.800 for firm conclusions, >= 0.667 for tentative ones.
ALPHA_FIRM, ALPHA_TENTATIVE = Fraction(4, 5), Fraction(667, 1000)


@dataclass(frozen=True)
class KeyPoint:
    """One point a short answer is marked on: what it says (``text``) and the words that show it.

    ``patterns`` are regular expressions (case-insensitive); the point is made
    when any of them occurs in the answer.
    """

    text: str
    patterns: tuple
    none_of: tuple = ()  # words that undo the point (naming every band is not naming the band)

    def made_in(self, answer: str) -> bool:
        if any(re.search(p, answer, re.IGNORECASE) for p in self.none_of):
            return False
        return any(re.search(p, answer, re.IGNORECASE) for p in self.patterns)


@dataclass(frozen=True)
class Choice:
    """One option of a multiple-choice part: its text and, for a wrong option, why it is wrong."""

    text: Prose
    why_not: str = ""


@dataclass(frozen=True)
class Concept:
    """A conceptual part, ready to become a Part: prompt, marks, skill, and its options or key points."""

    prompt: Prose
    marks: int
    skill: str
    model: Prose
    choices: tuple = ()
    key: str | None = None
    key_points: tuple = ()


#: The letters of a multiple-choice part's options (and, in lower case, of a question's parts).
LETTERS = "ABCDEF"


def multiple_choice(
    rng: np.random.Generator,
    prompt: Prose,
    right: Prose,
    wrong: list[tuple[Prose, str]],
    model: Prose,
    marks: int = 1,
    skill: str = "concepts",
) -> Concept:
    """A multiple-choice part: the right option and the wrong ones (each with why it is wrong), shuffled."""
    options = [Choice(right)] + [Choice(text, why) for text, why in wrong]
    order = rng.permutation(len(options))
    key = LETTERS[int(np.flatnonzero(order == 0)[0])]
    return Concept(prompt, marks, skill, model, choices=tuple(options[i] for i in order), key=key)


def short_answer(
    prompt: Prose,
    points: list[tuple[str, tuple]],
    model: Prose,
    marks: int | None = None,
    skill: str = "concepts",
) -> Concept:
    """A short answer marked by key points (one mark each, up to ``marks``; default: one per point)."""
    key_points = tuple(KeyPoint(*point) for point in points)
    return Concept(prompt, len(key_points) if marks is None else marks, skill, model, key_points=key_points)


_VERDICTS = (
    "reliable enough for firm conclusions (at least 0.800)",
    "good enough for tentative conclusions only (0.667 to 0.800)",
    "too unreliable to draw conclusions from (below 0.667)",
)


def verdict(value: Fraction) -> str:
    """Krippendorff's reading of a value: firm conclusions, tentative ones, or none."""
    return _VERDICTS[0 if value >= ALPHA_FIRM else 1 if value >= ALPHA_TENTATIVE else 2]


# ================================================================ the bank
def paradox(rng: np.random.Generator, coefficient: str = "Cohen's kappa") -> Concept:
    agree = int(rng.choice([88, 90, 92, 94]))
    low = str(rng.choice(["0.21", "0.28", "0.32", "0.35"]))
    return multiple_choice(
        rng,
        Prose(
            f"Two annotators agree on {agree} of 100 items, yet their {coefficient} is only {low}. "
            "Which explains it best?"
        ),
        Prose("One category is far more frequent than the others, so the chance agreement P_e is high"),
        [
            (
                Prose("Kappa needs more than 100 items to be trusted"),
                "The number of items changes how precise kappa is, not how high it is.",
            ),
            (
                Prose("The annotators must have used the categories in very different proportions"),
                "Different proportions lower P_e and so raise kappa; the paradox comes from skewed, similar ones.",
            ),
            (
                Prose("The coefficient was computed from percentages instead of proportions"),
                "Percentages change the number wildly, not into a low kappa with high agreement.",
            ),
        ],
        prose(
            "The kappa paradox: with one category dominant both annotators use it most of the time, so "
            "{P_e} is close to {P_o} and little agreement is left beyond chance. Gwet's AC1 was designed "
            "to be less sensitive to such skewed prevalence."
        ),
    )


def undefined(rng: np.random.Generator) -> Concept:
    return multiple_choice(
        rng,
        Prose("Both annotators put every item in the same one category. Their Cohen's kappa is:"),
        Prose("undefined: P_e = 1, so (P_o - P_e) / (1 - P_e) is 0/0"),
        [
            (
                Prose("1, since they agree on every item"),
                "P_o = 1, but so is P_e: nothing is left beyond chance.",
            ),
            (
                Prose("0, since they agree no more than chance"),
                "0/0 is not 0: a library that returns 0 hides it.",
            ),
            (Prose("-1, since the table has a single category"), "-1 would need systematic disagreement."),
        ],
        prose(
            "With one category used by both, {P_o} = 1 and {P_e} = 1: kappa = 0/0 is undefined, not 0 or 1. "
            "Report it as undefined (NaN) and say why."
        ),
    )


def dropout(rng: np.random.Generator, rater: str, half: int) -> Concept:
    return multiple_choice(
        rng,
        Prose(
            f"Suppose annotator {rater} had stopped after item {half} and labelled no more. "
            "What is the right way to use the labels they did give?"
        ),
        Prose(
            "Keep them, and use each item's own number of labels n_i (Fleiss' kappa with per-item n_i, "
            "or Krippendorff's alpha)"
        ),
        [
            (
                Prose(f"Drop every item {rater} did not label"),
                "That throws away good labels of the other annotators.",
            ),
            (
                Prose(f"Count {rater}'s missing labels as disagreements"),
                "A missing label is not a disagreement: it lowers agreement for no reason.",
            ),
            (
                Prose(f"Fill {rater}'s gaps with {rater}'s most frequent label"),
                "Made-up labels are not data, and they inflate agreement on the common category.",
            ),
        ],
        prose(
            "A rater who drops out leaves items with fewer labels. Keep every label that was given: {P_i} uses "
            "each item's own {n_i}, items with a single label leave {P_a} but their labels still count in "
            "{p_j}; Krippendorff's alpha handles the same gaps with its coincidence matrix."
        ),
    )


def interpretation(rng: np.random.Generator, coefficient: str = "alpha") -> Concept:
    value = Fraction(str(rng.choice(["0.15", "0.35", "0.55", "0.72", "0.76", "0.85", "0.91"])))
    band = interpret(float(value))
    bands = ["slight", "fair", "moderate", "substantial", "almost perfect"]
    other_band = bands[(bands.index(band) + int(rng.integers(1, len(bands)))) % len(bands)]
    right_v = verdict(value)
    other_v = [v for v in _VERDICTS if v != right_v][int(rng.integers(2))]
    fmt_v = fmt(value, 2)
    return multiple_choice(
        rng,
        Prose(
            f"A corpus paper reports {coefficient} = {fmt_v}. Which reading is right on the Landis-Koch "
            "scale and against Krippendorff's guideline (0.667 and 0.800)?"
        ),
        Prose(f"{band} on the Landis-Koch scale; by Krippendorff's guideline {right_v}"),
        [
            (
                Prose(f"{band} on the Landis-Koch scale; by Krippendorff's guideline {other_v}"),
                "Look again at Krippendorff's two thresholds.",
            ),
            (
                Prose(f"{other_band} on the Landis-Koch scale; by Krippendorff's guideline {right_v}"),
                "Look again at the Landis-Koch bands: 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 substantial.",
            ),
            (
                Prose(f"{other_band} on the Landis-Koch scale; by Krippendorff's guideline {other_v}"),
                "Both readings are off: check the bands and the thresholds.",
            ),
        ],
        Prose(
            f"{fmt_v} is {band} on the Landis-Koch scale (slight to 0.20, fair to 0.40, moderate to 0.60, "
            f"substantial to 0.80, almost perfect above), and by Krippendorff's guideline {right_v}. "
            "Krippendorff's thresholds are stricter: 'substantial' agreement can still be too low for firm "
            "conclusions."
        ),
        marks=2,
        skill="interpretation",
    )


# short answers ------------------------------------------------------------
_CHANCE = (r"chance", r"\bP_?e\b", r"expected", r"\brandom", r"\bluck")
_BAND = {
    name: (name.replace(" ", r"\s*"),)
    for name in ("slight", "fair", "moderate", "substantial", "almost perfect", "poor")
}


def interpret_own(band: str, coefficient: str = "kappa") -> Concept:
    return short_answer(
        prose(
            "Interpret your value of {c}: which Landis-Koch band is it in, and why is it lower than the "
            "observed agreement?",
            c=coefficient,
        ),
        [
            (
                "the Landis-Koch band your value falls in",
                _BAND[band],
                tuple(p for name, ps in _BAND.items() if name != band and name not in band for p in ps),
            ),
            (
                "the coefficient removes the agreement expected by chance (P_e) and scales by what was possible "
                "beyond it",
                _CHANCE,
            ),
        ],
        prose(
            "Name the Landis-Koch band of the value. The observed agreement counts every agreement, including "
            "those two annotators would reach by chance; the coefficient keeps only the agreement beyond chance, "
            "{beyond}, as a share of the most that was possible beyond chance, {most}.",
            beyond=Math("P_o - P_e"),
            most=Math("1 - P_e"),
        ),
        skill="interpretation",
    )


def weights_why() -> Concept:
    return short_answer(
        Prose("Why do weights suit these categories, and what do they change?"),
        [
            ("the categories are ordered", (r"order", r"ordinal", r"scale", r"rank")),
            (
                "a near miss (neighbouring categories) gets partial credit, a far miss little or none",
                (
                    r"partial",
                    r"near",
                    r"neighbo",
                    r"adjacent",
                    r"close",
                    r"less serious",
                    r"distance",
                    r"one step",
                ),
            ),
        ],
        Prose(
            "The categories are ordered, so a disagreement between neighbouring categories is less serious than "
            "one between the ends of the scale; weights give near misses partial credit in both the observed "
            "and the chance agreement. The weights should be fixed before looking at the data."
        ),
    )


def pooling_why() -> Concept:
    return short_answer(
        Prose(
            "Cohen's kappa takes chance agreement from each rater's own proportions. Why does Fleiss' kappa "
            "pool all the labels instead?"
        ),
        [
            (
                "the raters are interchangeable: there is no single fixed pair of raters",
                (
                    r"interchang",
                    r"no (single|one|fixed) pair",
                    r"different raters",
                    r"any (two|pair)",
                    r"not fixed",
                    r"many raters",
                    r"more than two",
                ),
            ),
            (
                "chance is two labels drawn at random from all the labels pooled",
                (
                    r"pool",
                    r"all (the )?labels",
                    r"overall",
                    r"drawn at random",
                    r"random(ly)? (drawn|chosen|picked)",
                ),
            ),
        ],
        Prose(
            "Fleiss' kappa treats the raters as interchangeable: it asks how likely two labels drawn at random "
            "from all the labels are to agree, so each category's chance share is its share of all labels. "
            "Cohen's chance term belongs to one fixed pair of raters with their own habits; with three or more "
            "raters (or different raters per item) there is no single pair."
        ),
    )


def single_value(items: str) -> Concept:
    return short_answer(
        prose(
            "Item {items} has a single rating. What does it contribute, and why are each unit's pairs weighted "
            "by {w}?",
            items=items,
            w=Math("1/(m_u - 1)", "1 / (m_u - 1)"),
        ),
        [
            (
                "a single value has no pair: it is not pairable and is left out of n",
                (
                    r"no pair",
                    r"not pairable",
                    r"unpairable",
                    r"left out",
                    r"nothing",
                    r"ignored",
                    r"excluded",
                    r"does ?n.?t (count|contribute)",
                    r"no contribution",
                ),
            ),
            (
                "dividing by m_u - 1 makes every pairable value count once, whatever its unit's size",
                (r"once", r"equal(ly)?", r"same weight", r"m_u ?- ?1", r"normali[sz]", r"each value"),
            ),
        ],
        prose(
            "A unit with a single value has no pair of values to compare, so it adds nothing to the coincidence "
            "matrix: its value is not pairable and counts neither in {n} nor in the {n_c}. A unit with {m_u} "
            "values has {pairs} ordered pairs, and each value takes part in {m_1} of them; dividing by {m_1} "
            "makes every pairable value count once, so units with more ratings do not weigh more.",
            pairs=Math("m_u (m_u - 1)"),
            m_1=Math("m_u - 1"),
        ),
    )


def alpha_vs_fleiss() -> Concept:
    return short_answer(
        Prose(
            "This table is complete. Would Fleiss' kappa on it give the same value as Krippendorff's alpha? "
            "Why, or why not?"
        ),
        [
            (
                "alpha draws chance pairs without replacement, over n (n - 1) pairs; Fleiss' kappa with replacement",
                (
                    r"without replacement",
                    r"with replacement",
                    r"n ?\(n ?- ?1\)",
                    r"n\s*\*\s*\(n\s*-\s*1\)",
                    r"small[- ]sample",
                    r"n-1",
                    r"n - 1",
                ),
            ),
            (
                "so they differ a little (alpha is higher) and agree only as n grows",
                (
                    r"as n grows",
                    r"large n",
                    r"converge",
                    r"approach",
                    r"asymptot",
                    r"n grows",
                    r"more (values|items)",
                    r"slightly",
                    r"a little",
                    r"higher",
                ),
            ),
        ],
        prose(
            "No, not quite. Both compare the observed agreement with chance from the pooled category proportions, "
            "but alpha draws its chance pairs without replacement, over {nn} ordered pairs of the {n} values, "
            "while Fleiss' kappa takes {P_e} as {sum_p2} (with replacement). On a complete table {rel}: alpha is "
            "a little higher, and the two agree only as {n} grows.",
            nn=Math("n (n - 1)"),
            sum_p2=Math(r"\sum_j p_j^2", "Σ_j p_j²"),
            rel=Math(r"1 - \alpha = (1 - \kappa) \frac{n - 1}{n}", "1 - α = (1 - κ)(n - 1)/n"),
        ),
    )


def merging(a: str, b: str) -> Concept:
    return short_answer(
        prose("Why would it be wrong to merge {a} and {b} into a single annotator?", a=a, b=b),
        [
            (
                "they are different people: a merged annotator is not a real rater and mixes two people's habits",
                (
                    r"different (people|annotators|persons|raters|individuals)",
                    r"not (a )?(real|single|one|same)",
                    r"habit",
                    r"bias",
                    r"two people",
                    r"mix",
                ),
            ),
            (
                "where both labelled an item one label is thrown away, and which one is an arbitrary choice",
                (r"throw", r"discard", r"lose", r"lost", r"drop", r"arbitrar", r"which (label|one)"),
            ),
            (
                "instead keep them apart and use each item's own number of labels n_i",
                (
                    r"per[- ]item",
                    r"n_i",
                    r"each item",
                    r"number of (labels|annotators)",
                    r"separate",
                    r"apart",
                ),
            ),
        ],
        prose(
            "{a} and {b} are two different people, who may have worked at different times and under different "
            "instructions; a merged annotator is not a real rater, and mixes two people's habits in proportions "
            "set by how many items each covered. Where both labelled an item one label must be thrown away, and "
            "which one is an arbitrary choice that changes the result. Instead keep them apart and use the "
            "per-item number of labels {n_i} in {P_i} and all the labels in {p_j}.",
            a=a,
            b=b,
        ),
        marks=3,
    )


def rules_differ() -> Concept:
    return short_answer(
        Prose(
            "Why do the two chance rules give different values of P_e on this table, and when would they agree?"
        ),
        [
            (
                "pooling counts every label once, so items with more labels weigh more",
                (
                    r"label.{0,40}(equal|same weight|once)",
                    r"more labels.{0,40}(count|weigh|more)",
                    r"weigh.{0,30}label",
                    r"each label",
                    r"every label",
                ),
            ),
            (
                "the item-mean rule gives every item the same weight",
                (
                    r"(each|every) item.{0,40}(equal|same)",
                    r"items? equally",
                    r"per item",
                    r"item.{0,20}weigh",
                ),
            ),
            (
                "they agree when every item has the same number of labels",
                (
                    r"same number of (labels|annotators|ratings)",
                    r"complete",
                    r"equal n_i",
                    r"every item .{0,30}all",
                ),
            ),
        ],
        prose(
            "Pooling divides each category's labels by all the labels, so an item with more labels weighs more; "
            "the course notes' (MLRD) rule averages each item's proportions {n_ij} / {n_i}, so every item weighs "
            "the same. With the same number of labels on every item (a complete table) the two coincide; with "
            "partial coverage and single-rated items they differ. Neither is a mistake: say which one you use.",
            n_ij=Math("n_{ij}", "n_ij"),
        ),
        marks=3,
    )


#: The conceptual parts by name (for the tests and the docs).
CONCEPTS = (
    "paradox",
    "undefined",
    "dropout",
    "interpretation",
    "interpret_own",
    "weights_why",
    "pooling_why",
    "single_value",
    "alpha_vs_fleiss",
    "merging",
    "rules_differ",
    "choose_coefficient",
)


# ========================================================= choosing a coefficient
_COEFFICIENTS = {
    "cohen": (
        "Cohen's kappa",
        "two annotators on nominal categories, chance from each one's own proportions",
    ),
    "weighted": (
        "weighted kappa (Cohen's, with agreement weights)",
        "two annotators on an ordered scale: near misses earn partial credit",
    ),
    "fleiss": ("Fleiss' kappa", "more than two interchangeable annotators, every item labelled by all"),
    "alpha": (
        "Krippendorff's alpha",
        "any number of annotators with missing ratings: every pairable value counts",
    ),
}
_PERCENT = ("percent agreement", "Percent agreement makes no correction for chance.")
_ONLY_TWO = ("Cohen's kappa", "It compares exactly two annotators, and this table has more.")
_WRONG = {
    "cohen": [
        ("weighted kappa (linear weights)", "The categories have no order: no miss is nearer than another."),
        (
            "Fleiss' kappa, the two annotators' pooled labels",
            "With two fixed annotators each has their own "
            "proportions: pooling is Scott's pi, not the usual choice for a fixed pair.",
        ),
        _PERCENT,
    ],
    "weighted": [
        (
            "Cohen's kappa (unweighted)",
            "It counts a one-step miss on the ordered scale as a full disagreement.",
        ),
        ("Fleiss' kappa", "Two annotators on an ordered scale: it ignores the order."),
        _PERCENT,
    ],
    "fleiss": [
        _ONLY_TWO,
        (
            "the mean of the pairwise weighted kappas",
            "The categories have no order, and the mean of "
            "pairwise coefficients is another (less usual) coefficient.",
        ),
        _PERCENT,
    ],
    "alpha": [
        _ONLY_TWO,
        (
            "Fleiss' kappa on the complete items only",
            "Dropping every item with a missing rating throws good labels away.",
        ),
        _PERCENT,
    ],
}

_TWO_ANNOTATORS = ("two annotators", (r"two (annotators|raters|coders)", r"2 (annotators|raters)", r"pair"))
_JUSTIFY = {
    "cohen": [
        _TWO_ANNOTATORS,
        (
            "nominal (unordered) categories, so no weights",
            (r"nominal", r"unordered", r"no order", r"categor(y|ies) (are|have) no", r"not ordered"),
        ),
    ],
    "weighted": [
        _TWO_ANNOTATORS,
        (
            "ordered categories: near misses deserve partial credit",
            (r"order", r"ordinal", r"scale", r"partial", r"near", r"neighbo", r"adjacent"),
        ),
    ],
    "fleiss": [
        (
            "more than two annotators",
            (r"more than (two|2)", r"three|four|five|3|4|5", r"many (annotators|raters)", r"multiple"),
        ),
        (
            "every item labelled by every annotator (complete), nominal categories",
            (r"complete", r"every (item|annotator)", r"all (items|annotators)", r"no missing", r"nominal"),
        ),
    ],
    "alpha": [
        (
            "some ratings are missing (and one item has a single rating)",
            (r"missing", r"incomplete", r"gap", r"single", r"not every", r"unequal"),
        ),
        (
            "alpha handles any number of values per unit (and more than two annotators)",
            (r"any number", r"per (unit|item)", r"pairable", r"coincidence", r"more than (two|2)", r"flexib"),
        ),
    ],
}


def choose_coefficient(rng: np.random.Generator, kind: str) -> tuple[Concept, Concept]:
    """Two parts: which coefficient (multiple choice) and why (key points)."""
    name, why = _COEFFICIENTS[kind]
    wrong = [(Prose(text), why_not) for text, why_not in _WRONG[kind]]
    pick = multiple_choice(
        rng,
        Prose("Which coefficient suits this table and task best?"),
        Prose(name),
        wrong,
        Prose(f"{name}: {why}."),
        marks=1,
        skill="choice of coefficient",
    )
    reasons = short_answer(
        Prose("Justify your choice from the table and the task."),
        _JUSTIFY[kind],
        Prose(f"{name}: " + "; ".join(t for t, _ in _JUSTIFY[kind]) + "."),
        skill="choice of coefficient",
    )
    return pick, reasons
