"""Conceptual parts: multiple choice, select-all-that-apply, and self-marked short answers.

Each builder returns the pieces of a :class:`~._questions.Part` answered
without a number: the prompt, the options or the mark-scheme points, and a
model answer that uses no other part's result (the check may show it before
the solution is opened). Options are shuffled by the question's own
generator, so a seed always gives the same order.

Nothing written in words is marked by a machine: a concept a machine can
mark is asked as multiple choice (one letter) or select-all-that-apply
(letters; the wrong statements are the usual misconceptions), and a short
answer in words is *self-marked*: after submitting, the student sees the
mark scheme's points and ticks those the answer makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._markup import Math, Prose, prose
from ..metrics import interpret
from ..rounding import fmt

__all__ = [
    "KeyPoint",
    "Choice",
    "Concept",
    "CONCEPTS",
    "multiple_choice",
    "select_all",
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
    "chance_rules",
    "rule_comparison",
    "design",
    "choose_coefficient",
    "LETTERS",
]

#: Krippendorff's guideline: alpha >= 0.800 for firm conclusions, >= 0.667 for tentative ones.
ALPHA_FIRM, ALPHA_TENTATIVE = Fraction(4, 5), Fraction(667, 1000)


@dataclass(frozen=True)
class KeyPoint:
    """One point of a self-marked short answer's mark scheme (a mark each, up to the part's marks).

    No machine looks for it in the answer: the student (or a marker) ticks the
    points the answer makes (:meth:`~._questions.Question.self_mark`).
    """

    text: str


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
    select: bool = False


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


def select_all(
    rng: np.random.Generator,
    prompt: Prose,
    right: list[str],
    wrong: list[tuple[str, str]],
    model: Prose,
    skill: str = "concepts",
) -> Concept:
    """Select all that apply: the true statements (a mark each) and the misconceptions (each with why
    it is wrong), shuffled. A mark for each true statement chosen, less one for each wrong one (not
    below 0), so choosing every option earns nothing."""
    options = [Choice(Prose(text)) for text in right] + [Choice(Prose(text), why) for text, why in wrong]
    order = rng.permutation(len(options))
    key = "".join(LETTERS[i] for i, j in enumerate(order) if j < len(right))
    return Concept(
        Prose(prompt, " Choose all that apply."),
        len(right),
        skill,
        model,
        choices=tuple(options[i] for i in order),
        key=key,
        select=True,
    )


def short_answer(
    prompt: Prose,
    points: list[str],
    model: Prose,
    marks: int | None = None,
    skill: str = "concepts",
) -> Concept:
    """A self-marked short answer: the mark scheme's points (a mark each, up to ``marks``)."""
    key_points = tuple(KeyPoint(point) for point in points)
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


def interpretation(
    rng: np.random.Generator, coefficient: str = "alpha", scale: str = "landis_koch"
) -> Concept:
    """Reading a reported value on the scale that belongs to the coefficient: the Landis-Koch bands
    for a kappa-like coefficient (``scale="landis_koch"``), Krippendorff's 0.667 / 0.800 for alpha
    (``scale="krippendorff"``). A kappa is never read against Krippendorff's thresholds, nor alpha
    on the Landis-Koch bands."""
    value = Fraction(str(rng.choice(["0.15", "0.35", "0.55", "0.72", "0.76", "0.85", "0.91"])))
    fmt_v = fmt(value, 2)
    if scale == "krippendorff":
        right_v = verdict(value)
        wrong = [
            (Prose(f"by Krippendorff's guideline, {v}"), "Look again at Krippendorff's two thresholds.")
            for v in _VERDICTS
            if v != right_v
        ]
        wrong.append(
            (
                Prose("reliable, since any value above 0.5 means more agreement than disagreement"),
                "Alpha is agreement beyond chance: 0.5 is half-way between chance and perfect, not a pass mark.",
            )
        )
        return multiple_choice(
            rng,
            Prose(f"A corpus paper reports {coefficient} = {fmt_v}. Which reading is right?"),
            Prose(f"by Krippendorff's guideline, {right_v}"),
            wrong,
            Prose(
                f"{fmt_v}: by Krippendorff's guideline {right_v}. Alpha needs at least 0.800 for firm "
                "conclusions and 0.667 for tentative ones; below 0.667 the data are too unreliable."
            ),
            marks=2,
            skill="interpretation",
        )
    band = interpret(float(value))
    bands = ["slight", "fair", "moderate", "substantial", "almost perfect"]
    i = bands.index(band)
    far = [b for j, b in enumerate(bands) if abs(j - i) > 1]
    dropped = far[int(rng.integers(len(far)))]  # the neighbouring bands are always offered
    others = [b for b in bands if b not in (band, dropped)]
    return multiple_choice(
        rng,
        Prose(f"A corpus paper reports {coefficient} = {fmt_v}. Where is it on the Landis-Koch scale?"),
        Prose(f"{band} agreement"),
        [
            (
                Prose(f"{b} agreement"),
                "Look again at the Landis-Koch bands: 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 "
                "substantial, above 0.80 almost perfect.",
            )
            for b in others
        ],
        Prose(
            f"{fmt_v} is {band} agreement on the Landis-Koch scale (slight to 0.20, fair to 0.40, moderate "
            "to 0.60, substantial to 0.80, almost perfect above). The bands are a convention, not a test: "
            "say what the value means for the task."
        ),
        marks=2,
        skill="interpretation",
    )


# short answers and select-all ----------------------------------------------
def interpret_own(band: str, coefficient: str = "kappa") -> Concept:
    return short_answer(
        prose(
            "Interpret your value of {c}: which Landis-Koch band is it in, and why is it lower than the "
            "observed agreement?",
            c=coefficient,
        ),
        [
            "names the Landis-Koch band the value falls in (follow-through: the band of the value found)",
            "says the coefficient removes the agreement expected by chance (P_e) and scales by what was "
            "possible beyond it",
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


def weights_why(rng: np.random.Generator) -> Concept:
    return select_all(
        rng,
        Prose("Which statements say why weights suit these categories, and what they change?"),
        [
            "The categories are ordered, so a miss between neighbouring categories is less serious than one "
            "across the scale",
            "Weights give a near miss partial credit, in the observed and the chance agreement alike",
        ],
        [
            (
                "Weights are needed because the categories are nominal and not ordered",
                "Nominal categories have no order: no miss is nearer than another, so weights mean nothing.",
            ),
            (
                "Weights correct for chance agreement, which unweighted kappa ignores",
                "Unweighted kappa corrects for chance too; weights only change how much a miss counts.",
            ),
            (
                "Weights count every disagreement in full",
                "That is unweighted kappa; weights give partial credit to near misses.",
            ),
        ],
        Prose(
            "The categories are ordered, so a disagreement between neighbouring categories is less serious than "
            "one between the ends of the scale; weights give near misses partial credit in both the observed "
            "and the chance agreement. The weights should be fixed before looking at the data."
        ),
    )


def pooling_why(rng: np.random.Generator) -> Concept:
    return select_all(
        rng,
        Prose(
            "Cohen's kappa takes chance agreement from each rater's own proportions. Which statements say why "
            "Fleiss' kappa pools all the labels instead?"
        ),
        [
            "The raters are treated as interchangeable: there is no single fixed pair whose own habits define "
            "chance",
            "Chance agreement is that of two labels drawn at random from all the labels pooled",
        ],
        [
            (
                "Pooling makes P_e smaller, so kappa comes out higher",
                "Pooling usually makes P_e a little larger, not smaller; and a higher value is no reason.",
            ),
            (
                "Each rater's own proportions cannot be computed when there are three or more raters",
                "They can; but there is no single pair whose proportions would define chance.",
            ),
            (
                "Fleiss' kappa draws its chance pairs without replacement",
                "It draws with replacement (sum of p_j squared); Krippendorff's alpha draws without.",
            ),
        ],
        Prose(
            "Fleiss' kappa treats the raters as interchangeable: it asks how likely two labels drawn at random "
            "from all the labels are to agree, so each category's chance share is its share of all labels. "
            "Cohen's chance term belongs to one fixed pair of raters with their own habits; with three or more "
            "raters (or different raters per item) there is no single pair."
        ),
    )


def single_value(rng: np.random.Generator, items: str) -> Concept:
    return select_all(
        rng,
        prose(
            "Item {items} has a single rating. Which statements are right about what it contributes, and why "
            "each unit's pairs are weighted by {w}?",
            items=items,
            w=Math("1/(m_u - 1)", "1 / (m_u - 1)"),
        ),
        [
            "A single value has no pair: it is not pairable, adds nothing to the coincidence matrix and is "
            "left out of n",
            "Dividing by m_u - 1 makes every pairable value count once, whatever the size of its unit",
        ],
        [
            (
                "A single value agrees with itself, so it adds one to the diagonal of the coincidence matrix",
                "A value is never paired with itself: only pairs of different raters' values count.",
            ),
            (
                "A single value counts as a disagreement, since no one agreed with it",
                "A missing rating is not a disagreement: with no pair there is nothing to compare.",
            ),
            (
                "Dividing by m_u - 1 gives units with more ratings more weight",
                "It does the opposite: each unit's m_u (m_u - 1) pairs are scaled so every value counts once.",
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


def alpha_vs_fleiss(rng: np.random.Generator) -> Concept:
    return select_all(
        rng,
        Prose(
            "This table is complete. Which statements are right about Fleiss' kappa and Krippendorff's alpha "
            "on it?"
        ),
        [
            "They differ: alpha draws its chance pairs without replacement, over n (n - 1) pairs of values; "
            "Fleiss' kappa with replacement",
            "Alpha comes out a little higher than Fleiss' kappa, and the two agree only as n grows",
        ],
        [
            (
                "They are equal: on a complete table alpha is Fleiss' kappa",
                "Close, but not equal: 1 - alpha = (1 - kappa)(n - 1)/n.",
            ),
            (
                "Fleiss' kappa is higher because it samples without replacement",
                "Fleiss' kappa samples with replacement, and comes out a little lower.",
            ),
            (
                "They differ because alpha gives items with more labels more weight",
                "On a complete table every item has the same number of labels: that is not the difference.",
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
            "they are different people: a merged annotator is not a real rater and mixes two people's habits "
            "(any wording: distinct annotators with their own tendencies, biases, instructions)",
            "where both labelled an item one label is thrown away, and which one is an arbitrary choice",
            "instead keep them apart and use each item's own number of labels n_i",
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
            "pooling counts every label once, so items with more labels weigh more",
            "the item-mean rule gives every item the same weight",
            "they agree when every item has the same number of labels (a complete table)",
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


_SAME_P_O = (
    "A different chance rule changes the observed agreement as well as the chance agreement",
    "The observed agreement is what the annotators did: every chance rule leaves it as it is and changes "
    "only the chance term.",
)
_CHANCE_RULES = {
    "two": (
        [
            "Scott's pi pools the two annotators' labels into one set of proportions for P_e; Cohen's kappa "
            "multiplies each annotator's own proportions",
            "Without weights, the pooled P_e is never below Cohen's P_e on the same table (equal only when the "
            "two annotators' proportions are equal), so Scott's pi is never above Cohen's kappa",
        ],
        [
            _SAME_P_O,
            (
                "Cohen's kappa takes P_e = 1/k, the same for every table with k categories",
                "1/k is the uniform rule of Brennan and Prediger; Cohen's P_e comes from the annotators' own "
                "proportions.",
            ),
            (
                "Gwet's AC1 has a higher chance agreement than Scott's pi when one category dominates",
                "It is the other way round: AC1's P_e, sum p_j (1 - p_j) / (q - 1), is small when one category "
                "dominates, which is why AC1 stays high where kappa falls.",
            ),
        ],
    ),
    "fleiss": (
        [
            "Fleiss' kappa pools every annotator's labels into one set of proportions p_j for P_e, as Scott's "
            "pi does for two annotators",
            "On a complete table, pooling the labels and averaging the items' proportions (the course notes' "
            "MLRD rule) give the same P_e",
        ],
        [
            _SAME_P_O,
            (
                "Fleiss' kappa is the mean of the pairwise Cohen's kappas",
                "The mean of the pairwise kappas (Light's kappa) uses each pair's own proportions: a different "
                "coefficient, with a different value.",
            ),
            (
                "With more annotators, P_e tends to 1/k whatever the labels",
                "P_e is the sum of the squared pooled proportions: it follows the labels given, not the number "
                "of annotators.",
            ),
        ],
    ),
    "alpha": (
        [
            "Krippendorff's D_e counts pairs of values without replacement, over n (n - 1); Fleiss' P_e "
            "squares the proportions, as if drawing with replacement",
            "Like Fleiss' kappa, alpha pools every annotator's values for its chance term, not each "
            "annotator's own proportions",
        ],
        [
            _SAME_P_O,
            (
                "Alpha's expected disagreement is 1 - 1/k, the same for every table with k categories",
                "D_e comes from the row totals n_c of the coincidence matrix: it follows the values given.",
            ),
            (
                "Alpha's D_e uses each annotator's own proportions, as Cohen's kappa does",
                "Alpha pools the values: its n_c are the totals of the coincidence matrix over all annotators.",
            ),
        ],
    ),
}


def chance_rules(rng: np.random.Generator, kind: str) -> Concept:
    """Comparing chance rules (a select-all part): how the kind's P_e (or D_e) differs from the other rules'."""
    group = "fleiss" if kind == "fleiss" else "alpha" if kind == "alpha" else "two"
    right, wrong = _CHANCE_RULES[group]
    return select_all(
        rng,
        Prose(
            "Chance rules. Which of these statements about the chance term of coefficients like this one are true?"
        ),
        right,
        wrong,
        Prose(" ".join(t + "." for t in right)),
        skill="chance agreement",
    )


_THE_SAME_P_O = (
    "The second rule changes the observed agreement (or disagreement) as well as the chance term",
    "The observed agreement is what the annotators did: a chance rule changes only the chance term.",
)
#: Per comparison (a level-4 question's second chance rule): the two true statements and the misconceptions.
_COMPARISONS = {
    "own_vs_pooled": (
        [
            "Scott's pi pools the two annotators' labels into one set of proportions; Cohen's kappa multiplies "
            "each annotator's own proportions",
            "The pooled P_e is never below Cohen's P_e (equal only when the two annotators' proportions are "
            "equal), so Scott's pi is never above Cohen's kappa",
        ],
        [
            _THE_SAME_P_O,
            (
                "Scott's pi is the higher because pooling cancels the two annotators' biases",
                "Pooling makes P_e at least as large, so pi is at most kappa; a difference in the annotators' "
                "proportions counts against pi.",
            ),
            (
                "The two rules differ most when the annotators use the categories in the same proportions",
                "With the same proportions the two P_e are equal: they differ as the proportions differ.",
            ),
        ],
    ),
    "own_vs_pooled_weighted": (
        [
            "The weights are the same in both: only whose proportions enter P_e changes, each annotator's own "
            "(kappa) or the two pooled (pi)",
            "With linear or quadratic weights the pooled P_e is never below the one from each annotator's own "
            "proportions, so the weighted pi is never above the weighted kappa",
        ],
        [
            _THE_SAME_P_O,
            (
                "Weights are what corrects for chance, so pooling makes no difference to a weighted coefficient",
                "The chance correction is P_e; weights only say how much a near miss counts.",
            ),
            (
                "Pooling the proportions makes the weights unnecessary",
                "Pooling changes the chance term; the weights still give near misses partial credit.",
            ),
        ],
    ),
    "squares_vs_ac1": (
        [
            "{pooled} and AC1 take the same pooled proportions p_j; {pooled} squares them, AC1 takes "
            "sum p_j (1 - p_j) / (q - 1)",
            "When one category dominates, AC1's chance agreement is small while {pooled}'s is large, so AC1 stays "
            "high where {pooled} falls (the kappa paradox)",
        ],
        [
            _THE_SAME_P_O,
            (
                "AC1's chance agreement is the higher of the two when one category dominates",
                "It is the other way round: sum p_j (1 - p_j) is small when one p_j is near 1.",
            ),
            (
                "AC1 takes each annotator's own proportions, as Cohen's kappa does",
                "AC1 pools the labels as {pooled} does; only the formula of P_e differs.",
            ),
        ],
    ),
    "replacement": (
        [
            "Alpha's D_e draws two different values from the n pairable values, n (n - 1) ordered pairs: "
            "without replacement",
            "Without replacement D_e is larger by the factor n / (n - 1), so alpha comes out a little higher; "
            "the difference vanishes as n grows",
        ],
        [
            _THE_SAME_P_O,
            (
                "The value with replacement is higher because it samples without replacement",
                "With replacement D_e is the smaller, so 1 - D_o / D_e comes out lower.",
            ),
            (
                "The two rules differ most on large tables",
                "The factor n / (n - 1) is near 1 for large n: they differ most on small tables.",
            ),
        ],
    ),
}


#: The model answer of each comparison (why the two values differ), in a marker's words.
_COMPARISON_MODELS = {
    "own_vs_pooled": "The observed agreement is the same in both; only the chance term differs. Cohen's P_e "
    "multiplies each annotator's own proportions, Scott's squares their mean: since ((a + b) / 2)^2 >= ab, the "
    "pooled P_e is at least Cohen's, so pi is at most kappa, equal only when the two annotators use the "
    "categories in the same proportions. The gap measures how differently the two annotators use them.",
    "own_vs_pooled_weighted": "The weights and the weighted observed agreement are the same in both; only whose "
    "proportions enter P_e differs. With linear or quadratic weights the pooled P_e is at least the one from "
    "each annotator's own proportions, so the weighted pi is at most the weighted kappa, equal only when the "
    "two annotators' proportions are equal.",
    "squares_vs_ac1": "The observed agreement and the pooled proportions are the same in both; the chance "
    "formula differs. {pooled} takes P_e = sum p_j^2, which grows as one category dominates; AC1 takes "
    "sum p_j (1 - p_j) / (q - 1) = (1 - sum p_j^2) / (q - 1), which shrinks then. So with skewed categories "
    "AC1 comes out higher than {pooled}: it was designed to escape the kappa paradox.",
    "replacement": "The observed disagreement and the row totals n_c are the same in both. Alpha draws its "
    "chance pairs of values without replacement, over n (n - 1) ordered pairs, so its D_e is the "
    "with-replacement D_e times n / (n - 1): larger, and alpha a little higher. The factor tends to 1 as n "
    "grows: on a small table like this one the difference shows.",
}


def rule_comparison(rng: np.random.Generator, comparison: str, pooled: str = "Scott's pi") -> Concept:
    """Why a level-4 question's two chance rules give different values (a select-all part): ``comparison``
    is ``"own_vs_pooled"`` (Cohen against Scott), ``"own_vs_pooled_weighted"``, ``"squares_vs_ac1"``
    (``pooled``: Scott's pi or Fleiss' kappa against Gwet's AC1) or ``"replacement"`` (alpha's D_e
    without and with replacement)."""
    first, second = {
        "own_vs_pooled": ("Cohen's kappa", "Scott's pi"),
        "own_vs_pooled_weighted": ("the weighted kappa", "the weighted pi"),
        "squares_vs_ac1": (pooled, "Gwet's AC1"),
        "replacement": ("alpha", "alpha with replacement"),
    }[comparison]
    right, wrong = _COMPARISONS[comparison]
    right = [t.format(pooled=pooled) for t in right]
    wrong = [(t.format(pooled=pooled), why.format(pooled=pooled)) for t, why in wrong]
    return select_all(
        rng,
        Prose(f"Which statements say why your two values, {first} and {second}, differ?"),
        right,
        wrong,
        Prose(_COMPARISON_MODELS[comparison].format(pooled=pooled)),
        skill="chance agreement",
    )


def design(items: str, task: str, marks: int) -> Concept:
    """Designing an agreement study (a self-marked short answer): the points a marker looks for."""
    return short_answer(
        Prose(
            f"You are to plan a new study in which annotators label {items} for {task}, with too many items "
            "for every annotator to label all of them. Describe how you would design it so that its "
            "agreement can be reported honestly."
        ),
        [
            "written guidelines and training, then a pilot round whose disagreements are used to revise the "
            "guidelines before the real labelling",
            "annotators label independently, without seeing each other's labels",
            "a planned overlap: every item (or a random sample of items) labelled by at least two annotators, "
            "assigned at random so that coverage does not follow the annotator or the kind of item",
            "the coefficient and its chance rule chosen before seeing the data, one that allows partial "
            "coverage (Krippendorff's alpha, or Fleiss' kappa with each item's own n_i), and said which",
            "enough overlapping items for a usefully narrow confidence interval, the number decided in advance",
            "report the coefficient with its confidence interval, the numbers of items and labels, and where "
            "the annotators disagree (which categories), not a single number",
            "look at each annotator's agreement with the others (and each category's) to find an annotator "
            "or a category that needs retraining or clearer guidelines",
            "adjudicate disagreements for the final labels only after agreement is measured on the "
            "independent labels",
        ],
        prose(
            "Write guidelines, train the annotators and run a pilot whose disagreements revise the guidelines; "
            "then let the annotators label independently. Plan the overlap: assign items at random so that every "
            "item, or a random sample, gets at least two labels, and coverage does not follow annotator or item "
            "type. Fix the coefficient and its chance rule in advance, one that handles partial coverage "
            "(Krippendorff's alpha, or Fleiss' kappa with each item's own {n_i}); decide how many overlapping items "
            "give a usefully narrow interval; report the value with its confidence interval, the numbers of items "
            "and labels, and which categories are confused."
        ),
        marks=marks,
        skill="concepts",
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
    "chance_rules",
    "rule_comparison",
    "design",
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

_TWO = "There are exactly two annotators"
_MORE = "There are more than two annotators"
_NOMINAL_WEIGHTS = (
    "Weights are needed because the categories are nominal",
    "Nominal categories have no order: no miss is nearer than another, so there is nothing to weight.",
)
#: Per kind: the true statements that justify the choice, and misconceptions (with why each is wrong).
_JUSTIFY = {
    "cohen": (
        [_TWO, "The categories are nominal (unordered), so no weights"],
        [
            _NOMINAL_WEIGHTS,
            (_MORE, "Count the columns of the table: two annotators."),
            ("Some ratings are missing", "Every item has both labels here."),
        ],
    ),
    "weighted": (
        [_TWO, "The categories are ordered, so a near miss deserves partial credit"],
        [
            ("The categories are nominal (unordered)", "Look at the scale: its categories have an order."),
            (_MORE, "Count the columns of the table: two annotators."),
            (
                "Weights correct for chance agreement, which Cohen's kappa does not",
                "Cohen's kappa corrects for chance too; weights only change how much a miss counts.",
            ),
        ],
    ),
    "fleiss": (
        [_MORE, "Every annotator labelled every item, and the categories are nominal"],
        [
            (_TWO, "Count the columns of the table: more than two annotators."),
            ("The categories are ordered", "These categories have no order."),
            ("Some ratings are missing", "The table is complete."),
        ],
    ),
    "alpha": (
        [
            "Some ratings are missing (an item may even have a single rating)",
            "The coefficient must handle any number of values per item",
        ],
        [
            ("Every annotator labelled every item", "Look for the dashes: some ratings are missing."),
            (_TWO, "Count the columns of the table: more than two annotators."),
            (
                "Its value is always the highest, so it is the safest to report",
                "A coefficient is chosen for the data and the task, never for a higher value.",
            ),
        ],
    ),
}


def choose_coefficient(rng: np.random.Generator, kind: str) -> tuple[Concept, Concept]:
    """Two parts: which coefficient (multiple choice) and why (select all that apply)."""
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
    right, misconceptions = _JUSTIFY[kind]
    reasons = select_all(
        rng,
        Prose("Which facts about the table and the task justify the choice?"),
        right,
        misconceptions,
        Prose(f"{name}: " + "; ".join(t[0].lower() + t[1:] for t in right) + "."),
        skill="choice of coefficient",
    )
    return pick, reasons
