"""Conceptual parts: multiple choice, select-all-that-apply, and self-marked short answers.

The words are data: ``iaa_teach/content/concepts.toml`` holds every conceptual part's prompt, options
(with why each wrong one is wrong), mark-scheme points and model answer, and a kind's own file
(``exercises/_kinds/<kind>.toml``, ``[choose]``) the options for choosing its coefficient. Each
builder here returns the pieces of a :class:`~._questions.Part` answered without a number; the model
answer uses no other part's result (the check may show it before the solution is opened). Options are
shuffled by the question's own generator, so a seed always gives the same order.

Nothing written in words is marked by a machine: a concept a machine can
mark is asked as multiple choice (one letter) or select-all-that-apply
(letters; the wrong statements are the usual misconceptions), and a short
answer in words is *self-marked*: after submitting, the student sees the
mark scheme's points and ticks those the answer makes.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from .._markup import Math, Prose, prose
from ..metrics import interpret
from ..rounding import fmt

__all__ = [
    "KeyPoint",
    "Choice",
    "Concept",
    "CONCEPTS",
    "BANK",
    "load",
    "from_bank",
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


def load(path: Path) -> dict:
    """A TOML data file (a lecturer edits the words there, not in Python)."""
    return tomllib.loads(path.read_text("utf-8"))


#: The conceptual parts' words, from ``content/concepts.toml``.
BANK = load(Path(__file__).parent.parent / "content" / "concepts.toml")


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


def from_bank(entry: dict, rng: np.random.Generator | None = None, **values) -> Concept:
    """The conceptual part an entry of the data files describes (the fields are listed at the top of
    ``content/concepts.toml``), its ``{names}`` filled from ``values``, its ``draw`` and its ``math``."""
    values = {k: str(v) for k, v in values.items()}
    for name, options in entry.get("draw", {}).items():
        values[name] = str(rng.choice(options))
    for name, tex in entry.get("math", {}).items():
        values[name] = Math(*tex) if isinstance(tex, list) else Math(tex)
    plain = {k: v for k, v in values.items() if isinstance(v, str)}

    def say(text: str) -> Prose:
        return prose(text, **values)

    skill = entry.get("skill", "concepts")
    if entry["form"] == "words":
        return short_answer(
            say(entry["prompt"]), entry["points"], say(entry["model"]), entry.get("marks"), skill
        )
    if entry["form"] == "select":
        right = [t.format(**plain) for t in entry["right"]]
        wrong = [(t.format(**plain), why.format(**plain)) for t, why in entry["wrong"]]
        return select_all(rng, say(entry["prompt"]), right, wrong, say(entry["model"]), skill)
    wrong = [(say(t), why.format(**plain)) for t, why in entry["wrong"]]
    return multiple_choice(
        rng,
        say(entry["prompt"]),
        say(entry["right"]),
        wrong,
        say(entry["model"]),
        entry.get("marks", 1),
        skill,
    )


def verdict(value: Fraction) -> str:
    """Krippendorff's reading of a value: firm conclusions, tentative ones, or none."""
    verdicts = BANK["interpretation"]["krippendorff"]["verdicts"]
    return verdicts[0 if value >= ALPHA_FIRM else 1 if value >= ALPHA_TENTATIVE else 2]


# ================================================================ the bank
def paradox(rng: np.random.Generator, coefficient: str = "Cohen's kappa") -> Concept:
    return from_bank(BANK["paradox"], rng, coefficient=coefficient)


def undefined(rng: np.random.Generator) -> Concept:
    return from_bank(BANK["undefined"], rng)


def dropout(rng: np.random.Generator, rater: str, half: int) -> Concept:
    return from_bank(BANK["dropout"], rng, rater=rater, half=half)


def interpretation(
    rng: np.random.Generator, coefficient: str = "alpha", scale: str = "landis_koch"
) -> Concept:
    """Reading a reported value on the scale that belongs to the coefficient: the Landis-Koch bands
    for a kappa-like coefficient (``scale="landis_koch"``), Krippendorff's 0.667 / 0.800 for alpha
    (``scale="krippendorff"``). A kappa is never read against Krippendorff's thresholds, nor alpha
    on the Landis-Koch bands."""
    entry = BANK["interpretation"]
    words = entry[scale]
    value = Fraction(str(rng.choice(entry["values"])))
    if scale == "krippendorff":
        right = verdict(value)
        wrong = [words["right"].replace("{verdict}", v) for v in words["verdicts"] if v != right]
        pairs = [[t, words["why_not"]] for t in wrong] + [words["also_wrong"]]
    else:
        band = interpret(float(value))
        bands = entry["bands"]
        i = bands.index(band)
        far = [b for j, b in enumerate(bands) if abs(j - i) > 1]
        dropped = far[int(rng.integers(len(far)))]  # the neighbouring bands are always offered
        right = band
        others = [b for b in bands if b not in (band, dropped)]
        pairs = [[words["right"].replace("{band}", b), words["why_not"]] for b in others]
    filled = {"verdict": right, "band": right, "value": fmt(value, 2)}
    return from_bank({**entry, **words, "wrong": pairs}, rng, coefficient=coefficient, **filled)


def interpret_own(band: str, coefficient: str = "kappa") -> Concept:
    return from_bank(BANK["interpret_own"], coefficient=coefficient)


def weights_why(rng: np.random.Generator) -> Concept:
    return from_bank(BANK["weights_why"], rng)


def pooling_why(rng: np.random.Generator) -> Concept:
    return from_bank(BANK["pooling_why"], rng)


def single_value(rng: np.random.Generator, items: str) -> Concept:
    return from_bank(BANK["single_value"], rng, items=items)


def alpha_vs_fleiss(rng: np.random.Generator) -> Concept:
    return from_bank(BANK["alpha_vs_fleiss"], rng)


def merging(a: str, b: str) -> Concept:
    return from_bank(BANK["merging"], a=a, b=b)


def rules_differ() -> Concept:
    return from_bank(BANK["rules_differ"])


def chance_rules(rng: np.random.Generator, kind: str) -> Concept:
    """Comparing chance rules (a select-all part): how the kind's P_e (or D_e) differs from the other
    rules'."""
    entry = BANK["chance_rules"]
    group = entry[kind if kind in ("fleiss", "alpha") else "two"]
    return from_bank({**entry, **group, "model": " ".join(t + "." for t in group["right"])}, rng)


def rule_comparison(rng: np.random.Generator, comparison: str, pooled: str = "Scott's pi") -> Concept:
    """Why a level-4 question's two chance rules give different values (a select-all part): ``comparison``
    is ``"own_vs_pooled"`` (Cohen against Scott), ``"own_vs_pooled_weighted"``, ``"squares_vs_ac1"``
    (``pooled``: Scott's pi or Fleiss' kappa against Gwet's AC1) or ``"replacement"`` (alpha's D_e
    without and with replacement)."""
    entry = BANK["rule_comparison"]
    words = entry[comparison]
    names = {"first": words["first"].format(pooled=pooled), "second": words["second"]}
    return from_bank({**entry, **words}, rng, pooled=pooled, **names)


def design(items: str, task: str, marks: int) -> Concept:
    """Designing an agreement study (a self-marked short answer): the points a marker looks for."""
    return from_bank({**BANK["design"], "marks": marks}, items=items, task=task)


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


def choose_coefficient(rng: np.random.Generator, words: dict) -> tuple[Concept, Concept]:
    """Two parts: which coefficient (multiple choice) and why (select all that apply); ``words`` is the
    ``[choose]`` table of the kind's own data file."""
    asks = BANK["choose_coefficient"]
    name = words["name"]
    pick = multiple_choice(
        rng,
        Prose(asks["prompt"]),
        Prose(name),
        [(Prose(text), why_not) for text, why_not in words["wrong"]],
        Prose(f"{name}: {words['why']}."),
        marks=1,
        skill="choice of coefficient",
    )
    right = words["reasons"]
    reasons = select_all(
        rng,
        Prose(asks["why_prompt"]),
        right,
        words["misreadings"],
        Prose(f"{name}: " + "; ".join(t[0].lower() + t[1:] for t in right) + "."),
        skill="choice of coefficient",
    )
    return pick, reasons
