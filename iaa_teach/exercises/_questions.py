"""Questions: generation, the parts a student answers, checking, solutions."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from .._formulas import chance_corrected, one_minus_ratio
from .._markup import (
    SYMBOLS,
    Chain,
    Em,
    Equations,
    Math,
    Prose,
    Shown,
    approx,
    html_escape,
    number,
    prose,
    render,
    with_symbols,
)
from .._validation import check_bool, check_int, check_option, options
from ..metrics import cohen_kappa, fleiss_kappa, gwet_ac, interpret, krippendorff_alpha, scott_pi
from ..ratings import AgreementError, Ratings
from ..rounding import fmt, round_half_up
from ..worked import Explanation, Step, explain, ratings_table
from ._answers import decimals_that_match, parse_answer, show_value
from ._concepts import (
    LETTERS,
    Choice,
    Concept,
    KeyPoint,
    alpha_vs_fleiss,
    choose_coefficient,
    design,
    dropout,
    interpret_own,
    interpretation,
    load,
    merging,
    paradox,
    pooling_why,
    rule_comparison,
    rules_differ,
    single_value,
    undefined,
    weights_why,
)
from ._generate import KINDS, LEVELS, Draw, check_size, choose_size, draw
from ._mistakes import ROUTES, RULES, MistakeInfo, mistake_info, route_dropout, route_second_rule
from .lesson_exercises import PRACTICE

__all__ = [
    "asks_to_choose",
    "follow_through_value",
    "question_code",
    "question_for",
    "SLIPS",
    "Part",
    "KeyPoint",
    "Choice",
    "Mistake",
    "Marking",
    "MAX_PARTS",
    "OPTIONAL",
    "CHOOSABLE",
    "PARTIAL_RULES",
    "Feedback",
    "Question",
    "Solution",
    "make_question",
    "MAX_DRAWS",
    "PREFER_ROUNDING",
    "SKILLS",
]

#: What a part practises (:attr:`Part.skill`), in the order a mock exam lists them.
SKILLS = (
    "counting",
    "observed agreement",
    "chance agreement",
    "coefficient",
    "interpretation",
    "choice of coefficient",
    "concepts",
)

# ============================================================ question codes
# the scheme is registered with the lessons' exercise ids (lesson_exercises.json, "practice")
_CODE_ALPHABET = PRACTICE["alphabet"]  # Crockford's base 32: no I, L, O, U
_CODE_BITS = 40
_CODE_MULT = int(PRACTICE["multiplier"], 16) | 1  # odd, so multiplying is a bijection modulo 2^40
_CODE_XOR = int(PRACTICE["mask"], 16)
_CODE_KINDS = tuple(PRACTICE["kinds"])  # the registry's order, fixed: a new kind goes at the end
if sorted(_CODE_KINDS) != sorted(KINDS) or len(_CODE_ALPHABET) != 32:  # pragma: no cover - a broken registry
    raise RuntimeError("lesson_exercises.json's practice codes do not list every kind of question once")


def _check_digit(packed: int) -> int:
    return sum(int(d) * (i + 1) for i, d in enumerate(oct(packed)[2:])) % 8


def question_code(kind: str, seed: int, level: int) -> str:
    """The code of question ``kind``, ``seed``, ``level``: 8 letters and digits that name no kind.

    >>> question_for(question_code("fleiss", 12, 3)).id == question_code("fleiss", 12, 3)
    True
    """
    packed = (int(seed) * 8 + _CODE_KINDS.index(kind)) * 8 + int(level)
    packed |= _check_digit(packed) << 37  # 3 bits that a mistyped code seldom keeps right
    mask = (1 << _CODE_BITS) - 1
    x = ((packed * _CODE_MULT) & mask) ^ _CODE_XOR
    chars = "".join(_CODE_ALPHABET[(x >> (5 * i)) & 31] for i in reversed(range(_CODE_BITS // 5)))
    return f"{PRACTICE['prefix']}-{chars[:4]}-{chars[4:]}"


def question_for(code: str) -> "Question":
    """The question a code names (:attr:`Question.id`), to see its worked answer afterwards.

    The code scheme is registered with the lessons' exercise ids (``lesson_exercises.json``);
    :func:`iaa_teach.exercises.lesson_exercises.lookup` takes either kind of id.

    >>> q = make_question("alpha", seed=5, level=3)
    >>> question_for(q.id).ratings == q.ratings
    True
    """
    if not isinstance(code, str):
        raise AgreementError(f"a question code is a string such as 'Q-7KD3-M2XA', got {code!r}")
    chars = code.strip().upper().removeprefix(PRACTICE["prefix"]).replace("-", "").replace(" ", "")
    chars = chars.replace("O", "0").replace("I", "1").replace("L", "1")
    if len(chars) != _CODE_BITS // 5 or any(c not in _CODE_ALPHABET for c in chars):
        raise AgreementError(f"{code!r} is not a question code: it looks like 'Q-7KD3-M2XA'")
    x = 0
    for c in chars:
        x = x * 32 + _CODE_ALPHABET.index(c)
    mask = (1 << _CODE_BITS) - 1
    packed = ((x ^ _CODE_XOR) * pow(_CODE_MULT, -1, 1 << _CODE_BITS)) & mask
    if packed >> 37 != _check_digit(packed & ((1 << 37) - 1)):
        raise AgreementError(f"{code!r} is not the code of any question (mistyped?)")
    packed &= (1 << 37) - 1
    level, rest = packed % 8, packed // 8
    kind_index, seed = rest % 8, rest // 8
    if level not in LEVELS or kind_index >= len(_CODE_KINDS) or seed >= 2**31:
        raise AgreementError(f"{code!r} is not the code of any question (mistyped?)")
    return make_question(_CODE_KINDS[kind_index], seed, level=level)


#: Most parts a question has ((a) to (i), at level 4).
MAX_PARTS = 9
#: The parts' labels, in order.
PART_LABELS = "abcdefghi"
#: The marks of a level-4 (Tripos-shaped) question: its design part takes what the others leave (4 to 6).
TRIPOS_MARKS = 20
#: A level-4 question's annotator who stops this many items before the end (partial coverage).
DROPOUT_ITEMS = 4
#: How many candidate tables one seed may draw before giving up (never reached in the tests).
MAX_DRAWS = 400
#: After the first good table, how many more to draw looking for one where rounding the
#: intermediate values moves the third decimal of the coefficient (a good exercise on rounding);
#: a quarter of it at levels 1 and 3.
PREFER_ROUNDING = 12
#: Mistakes that are listed for a part only where they change its 3-decimal answer (where two
#: give the same answer, feedback names both); every other mistake must change every answer
#: it touches, distinguishably from the others, or the table is drawn again.
OPTIONAL = (
    "rounding",
    "missing_as_disagreement",
    "unshared_marginals",
    "subset_chance",
    "pairwise_mean",
    "pairs_over_m",
    "de_n_plus_1",
    "de_n_minus_1_squared",
    "alpha_as_fleiss",
    "single_in_p_a",
    "single_out_of_p_e",
    "kappa_chance",
    "no_q_minus_1",
    "early_rounding",
    "swapped",
    "percent_agreement",
    "n_squared_pairs",
    "single_as_agreement",
)
#: The coefficient must lie in this range (kappa near 0 or 1 makes a dull question).
COEFFICIENT_RANGE = (Fraction(1, 5), Fraction(9, 10))

_TOL3 = Fraction(1, 2000)

#: The symbol of each quantity a part asks for (see ``SYMBOLS``).
QUANTITIES = {
    "p_o": SYMBOLS["P_o"],
    "p_e": SYMBOLS["P_e"],
    "p_a": SYMBOLS["P_a"],
    "kappa": SYMBOLS["kappa"],
    "n_labels": SYMBOLS["sum_n_i"],
    "n": SYMBOLS["n"],
    "d_o": SYMBOLS["D_o"],
    "d_e": SYMBOLS["D_e"],
    "alpha": SYMBOLS["alpha"],
    "pi": Math(r"\pi", "π"),
    "ac1": Math(r"\mathrm{AC}_1", "AC1"),
    "p_e_mlrd": Math(r"P_e^{\mathrm{MLRD}}", "P_e (MLRD rule)"),
    "kappa_mlrd": Math(r"\kappa^{\mathrm{MLRD}}", "κ (MLRD rule)"),
    # a level-4 question's partial coverage (an annotator who stopped) and second chance rule
    "p_o_part": Math("P_o'", "P_o'"),
    "p_a_part": Math("P_a'", "P_a'"),
    "p_e_pi": Math(r"P_e^{\pi}", "P_e (Scott's pi)"),
    "p_e_kappa": Math(r"P_e^{\kappa}", "P_e (Cohen's kappa)"),
    "p_e_ac1": Math(r"P_e^{\mathrm{AC}_1}", "P_e (AC1)"),
    "d_e_repl": Math(r"D_e^{\mathrm{repl}}", "D_e (with replacement)"),
    "alpha_repl": Math(r"\alpha^{\mathrm{repl}}", "α (with replacement)"),
}
PROPORTIONS = ("p_o", "p_e", "p_a", "d_o", "d_e", "p_e_mlrd", "p_o_part", "p_a_part", "p_e_pi", "p_e_kappa")
PROPORTIONS += ("p_e_ac1", "d_e_repl")
#: The marks of a numerical part, by quantity (a step with more working is worth more).
MARKS = {
    "p_o": 2,
    "p_a": 3,
    "p_e": 3,
    "kappa": 2,
    "n": 2,
    "n_labels": 1,
    "d_o": 2,
    "d_e": 3,
    "alpha": 2,
    "pi": 2,
    "ac1": 2,
    "p_e_mlrd": 2,
    "kappa_mlrd": 1,
    "p_o_part": 2,
    "p_a_part": 2,
    "p_e_pi": 2,
    "p_e_kappa": 2,
    "p_e_ac1": 2,
    "d_e_repl": 2,
    "alpha_repl": 1,
}
#: The skill (:data:`SKILLS`) of a numerical part, by quantity.
SKILL_OF = {
    "p_o": "observed agreement",
    "p_a": "observed agreement",
    "d_o": "observed agreement",
    "p_e": "chance agreement",
    "d_e": "chance agreement",
    "kappa": "coefficient",
    "alpha": "coefficient",
    "n": "counting",
    "n_labels": "counting",
    "pi": "coefficient",
    "ac1": "coefficient",
    "p_e_mlrd": "chance agreement",
    "kappa_mlrd": "coefficient",
    "p_o_part": "observed agreement",
    "p_a_part": "observed agreement",
    "p_e_pi": "chance agreement",
    "p_e_kappa": "chance agreement",
    "p_e_ac1": "chance agreement",
    "d_e_repl": "chance agreement",
    "alpha_repl": "coefficient",
}
COUNTS = ("n", "n_labels")
#: What earns a numerical part's method marks, as the mark scheme prints it.
METHOD_OF = {
    "p_o": "agreeing items over all items; weighted: sum of w_ij n_ij over N",
    "p_a": "P_i of each item with two or more labels, over its own n_i (n_i - 1) pairs, then their mean",
    "p_e": "the chance rule the part names, from the table's proportions",
    "p_e_mlrd": "p_j as the mean over items of n_ij / n_i, then sum_j p_j^2",
    "kappa": "(P_o - P_e) / (1 - P_e) (P_a for Fleiss' kappa)",
    "kappa_mlrd": "(P_a - P_e) / (1 - P_e) with the second P_e",
    "pi": "(P_o - P_e) / (1 - P_e)",
    "ac1": "(P_o - P_e) / (1 - P_e)",
    "n": "the values in units with two or more values",
    "d_o": "off-diagonal coincidences over n",
    "d_e": "the row totals n_c, with chance pairs over n (n - 1)",
    "alpha": "1 - D_o / D_e",
    "alpha_repl": "1 - D_o / D_e with the second D_e",
}
#: The earlier quantities each part is computed from (for follow-through), by quantity: a coefficient
#: from its observed and chance terms; alpha's D_o and D_e from the count n; a partial question's
#: pooled P_e from the count of labels (its p_j divide by it).
INPUTS = {
    # a level-4 question's second chance rule first: its coefficient from P_o (P_a) and the second P_e
    "kappa": (("p_o", "p_e_kappa"), ("p_o", "p_e"), ("p_a", "p_e")),
    "pi": (("p_o", "p_e_pi"), ("p_o", "p_e")),
    "ac1": (("p_a", "p_e_ac1"), ("p_o", "p_e")),
    "alpha": (("d_o", "d_e"),),
    "alpha_repl": (("d_o", "d_e_repl"),),
    # a second chance rule that is a formula of the first: AC1's from Fleiss' P_e, Scott's from AC1's (with
    # the number of categories q), alpha's D_e with replacement from n and D_e
    "p_e_ac1": (("p_e",),),
    "p_e_pi": (("p_e",),),
    "d_e_repl": (("n", "d_e"),),
    "kappa_mlrd": (("p_a", "p_e_mlrd"),),
    "d_o": (("n",),),
    "d_e": (("n",),),
    "p_e": (("n_labels",),),
}


def follow_through_value(quantity: str, values: tuple, terms: tuple = ()) -> Fraction | None:
    """The value of a part computed the right way from the student's own earlier values (``values``,
    in the order of :attr:`Part.follows`) and the table's fixed ``terms`` (:attr:`Part.ft_terms`);
    None where the formula is undefined for them.

    - coefficients: (P - P_e) / (1 - P_e); alpha: 1 - D_o / D_e;
    - alpha's D_o from the student's n: the off-diagonal coincidences (``terms[0]``) over n;
    - alpha's D_e from n: (n^2 - sum_c n_c^2) / (n (n - 1)), ``terms[0]`` = sum_c n_c^2;
    - a partial question's pooled P_e from the count of labels N: sum_j n_j^2 / N^2, ``terms[0]`` = sum_j n_j^2;
    - level 4's second chance rule where it is a formula of the first: AC1's P_e from Fleiss' (1 - P_e) / (q - 1)
      and Scott's from AC1's 1 - (q - 1) P_e (``terms[0]`` = q); alpha's D_e with replacement D_e (n - 1) / n.

    >>> follow_through_value("kappa", (Fraction(3, 4), Fraction(1, 2)))
    Fraction(1, 2)
    >>> follow_through_value("p_e", (Fraction(10),), (Fraction(52),))
    Fraction(13, 25)
    """
    if quantity in ("alpha", "alpha_repl"):
        d_o, d_e = values
        return None if d_e <= 0 else 1 - d_o / d_e
    if quantity == "d_o":
        (n,) = values
        return None if n <= 0 else terms[0] / n
    if quantity == "d_e":
        (n,) = values
        return None if n <= 1 else (n * n - terms[0]) / (n * (n - 1))
    if quantity == "p_e":
        (n,) = values
        return None if n <= 0 else terms[0] / (n * n)
    if quantity == "p_e_ac1":  # Gwet's from Fleiss' P_e: sum p_j (1 - p_j) = 1 - sum p_j^2
        return (1 - values[0]) / (terms[0] - 1)
    if quantity == "p_e_pi":  # Scott's from AC1's P_e
        return 1 - (terms[0] - 1) * values[0]
    if quantity == "d_e_repl":  # with replacement: n (n - 1) pairs become n^2
        n, d_e = values
        return None if n <= 0 else d_e * (n - 1) / n
    p, p_e = values
    return None if p_e >= 1 or p > 1 else (p - p_e) / (1 - p_e)


# =================================================================== parts
@dataclass(frozen=True)
class Mistake:
    """A usual mistake as it shows in one part: the value it gives there.

    ``variant`` tells apart two versions of one mistake (which annotator's
    label a merge keeps); ``info`` is the catalogue entry.
    """

    id: str
    variant: str | None
    value: Fraction
    info: MistakeInfo

    @property
    def name(self) -> str:
        if self.id == "merged" and self.variant:
            return f"{self.info.name} (keeping {self.variant}'s label where both labelled an item)"
        return self.info.name


@dataclass(frozen=True)
class Part:
    """One part of a question: (a), (b), ...

    Attributes
    ----------
    label : str
        ``"a"``, ``"b"``, ...
    quantity : str or None
        What a numerical part asks for (``"p_o"``, ``"kappa"``, ``"n"``...);
        None for a part answered in words or by a choice.
    prompt : Prose
        The question, written once (``prompt.text()``, ``.markdown()``, ``.html()``).
    answer : Fraction or None
        The right answer of a numerical part, from the core metric's ``exact`` values.
    mistakes : tuple of Mistake
        The usual mistakes that give a different answer to this part.
    model_answer : Prose or None
        For a part answered in words or by a choice: a model answer that uses
        no other part's result (:meth:`Question.check` may show it).
    hint : str
        What to check when an answer is wrong and no usual mistake explains it.
    marks : int
        The marks the part is worth (shown as ``[2]`` after its prompt).
    skill : str
        What the part practises, one of :data:`SKILLS` (``"chance agreement"``...):
        a mock exam adds up the marks by skill.
    choices : tuple of Choice
        For a multiple-choice part: the options, lettered A, B, C...; ``key``
        is the letter of the right one.
    key_points : tuple of KeyPoint
        For a short answer: the mark scheme's points (a mark each, up to ``marks``); the
        student ticks those the answer makes (:meth:`Question.self_mark`).
    method : str
        What earns the method marks, as the mark scheme prints it (the working a marker
        looks for, with this table's intermediate values where one answer box holds them all).
    follows : tuple of str
        The labels of the earlier parts this part's value is computed from (the
        coefficient from P_o and P_e, alpha's D_o and D_e from n, a partial question's
        pooled P_e from the count of labels): marked with follow-through from the
        student's own answers to them (:meth:`Question.mark`).
    ft_terms : tuple of Fraction
        The table's fixed numbers that follow-through needs besides the earlier answers
        (:func:`follow_through_value`).
    ft_routes : tuple of (tuple of Fraction, Fraction)
        Follow-through from the student's own earlier counts: where the earlier answers are the
        values a usual wrong method gives (a coincidence matrix without the 1 / (m_u - 1) weights,
        a count of labels over every cell), the value this part takes, worked the right way from
        that method's own table (its row totals, its label counts).
    section : str
        The heading of the section the part is printed under (level 4); "" in a one-section question.
    select : bool
        Select all that apply: ``key`` holds every right letter (``"AC"``); a mark for each
        right letter chosen, less one for each wrong one, not below 0.
    worked : Prose or None
        The model answer with this table's numbers, for the worked solution only.
    others : tuple of Mistake
        Values of this part under another named rule, which is not a mistake
        (the course notes' chance rule where the question asks for the pooled
        one): :meth:`Question.check` says which rule gives them.
    """

    label: str
    quantity: str | None
    prompt: Prose
    answer: Fraction | None = None
    mistakes: tuple = ()
    model_answer: Prose | None = None
    hint: str = ""
    marks: int = 1
    skill: str = ""
    choices: tuple = ()
    key: str | None = None
    key_points: tuple = ()
    worked: Prose | None = None
    others: tuple = ()
    select: bool = False
    follows: tuple = ()
    method: str = ""
    ft_terms: tuple = ()
    ft_routes: tuple = ()
    section: str = ""

    @property
    def numeric(self) -> bool:
        return self.quantity is not None

    @property
    def form(self) -> str:
        """How the part is answered: ``"number"``, ``"choice"`` (a letter), ``"select"`` (all the letters
        that apply) or ``"words"`` (a short answer, self-marked)."""
        if self.numeric:
            return "number"
        return ("select" if self.select else "choice") if self.choices else "words"

    @property
    def accuracy_marks(self) -> int:
        """The A marks of a numerical part (for the right value, to the precision asked): 1."""
        return 1 if self.numeric else 0

    @property
    def method_marks(self) -> int:
        """The M marks of a numerical part (for the right method, kept after a slip): the rest."""
        return self.marks - self.accuracy_marks if self.numeric else 0

    @property
    def marks_split(self) -> str:
        """``"M2 A1"`` (``"B1"`` for a one-mark number; ``""`` for a part not answered by a number)."""
        if not self.numeric:
            return ""
        if not self.method_marks:
            return f"B{self.marks}"
        return f"M{self.method_marks} A{self.accuracy_marks}"

    @property
    def symbol(self) -> str:
        return QUANTITIES[self.quantity].txt if self.quantity else ""

    @property
    def mark_tag(self) -> str:
        """The part's marks as printed after its prompt: ``[2]``."""
        return f"[{self.marks}]"

    @property
    def placeholder(self) -> str:
        """What an answer box for this part suggests: ``"e.g. 0.492 or 29/59"``, ``"a letter, A-D"``..."""
        if self.choices:
            last = LETTERS[len(self.choices) - 1]
            return (
                f"all the letters that apply, e.g. A, C (of A-{last})"
                if self.select
                else f"a letter, A-{last}"
            )
        if not self.numeric:
            return "a sentence or two"
        return "a whole number" if self.quantity in COUNTS else "e.g. 0.492 or 29/59"

    def answer_line(self) -> Prose:
        """``(a) P_o = 7/10 = 0.700``; the right option; or the model answer of a part answered in words."""
        head = Em(f"({self.label})", strong=True)
        if self.numeric:
            return Prose(head, " ", QUANTITIES[self.quantity] + " = " + approx(self.answer))
        if self.choices:
            right = [self.choices[LETTERS.index(k)].text for k in self.key]
            said = right[0] if len(right) == 1 else Prose(*[Prose(t, "; ") for t in right[:-1]], right[-1])
            return Prose(
                head,
                " ",
                Em(", ".join(self.key), strong=True),
                ": ",
                said,
                ". ",
                self.worked or self.model_answer,
            )
        return Prose(head, " ", self.worked or self.model_answer)

    def key_line(self) -> Prose:
        """The part in a one-page answer key: ``(a) [2] P_o = 7/10 = 0.700``, ``(d) [1] B``, or the key points."""
        head = Prose(Em(f"({self.label})", strong=True), f" {self.mark_tag} ")
        if self.numeric:
            return head + Prose(
                QUANTITIES[self.quantity] + " = " + approx(self.answer), ". ", with_symbols(self.scheme)
            )
        if self.select:
            return head + Prose(Em(", ".join(self.key), strong=True), " (select all)")
        if self.choices:
            return head + Em(self.key, strong=True)
        points = head + with_symbols(
            "; ".join(f"({i}) {k.text}" for i, k in enumerate(self.key_points, start=1))
            + f". A mark each, up to {self.marks}, in any wording."
        )
        # where the answer depends on this table (the band of the value found), the marker gets it
        return points + Prose(" Here: ", self.worked) if self.worked else points

    @property
    def scheme(self) -> str:
        """How a marker splits a numerical part's marks: M (method) and A (accuracy), and follow-through."""
        if not self.numeric:
            return ""
        value = fmt(self.answer) if self.answer.denominator > 1 else str(self.answer)
        labels = " and ".join(f"({label})" for label in self.follows)
        if not self.method_marks:
            ft = f" ft from {labels}." if self.follows else ""
            return f"B{self.marks}: {value}.{ft}"
        method = self.method or METHOD_OF.get(self.quantity, "the formula")
        how = (
            f"{method}. A1: {value}."
            if method.startswith("M")
            else f"M{self.method_marks}: {method}. A1: {value}."
        )
        if self.follows:
            how += f" ft from {labels}" + (
                ", worked from the candidate's own "
                + (
                    "coincidence matrix."
                    if self.quantity in ("d_o", "d_e")
                    else "count of labels per category."
                )
                if self.ft_routes
                else "."
            )
        return how

    def choice_lines(self) -> list[Prose]:
        """The options of a multiple-choice part as the question shows them: ``A. ...``."""
        return [Prose(Em(f"{LETTERS[i]}.", strong=True), " ", c.text) for i, c in enumerate(self.choices)]


@dataclass(frozen=True)
class Feedback:
    """What :meth:`Question.check` says about one answer.

    Attributes
    ----------
    part : str
    status : str
        ``"correct"``: full marks. ``"places"``: right to fewer decimals than
        asked (3). ``"mistake"``: the number a usual mistake gives (named in
        ``mistakes``). ``"other_rule"``: the value of another named rule (not
        a mistake; the part asks for a different one). ``"wrong"``: no usual
        mistake explains it (``message`` holds a hint). ``"partial"``: a short
        answer that makes some of its key points. ``"unreadable"``: not an
        answer of the part's form. ``"empty"``: not answered (:meth:`Question.mark`).
    message : str
        One or two sentences for the student; never another part's result.
    mistakes : tuple of str
        Ids of the recognised mistakes (see :data:`MISTAKES`).
    step : str or None
        The step of the working where the recognised mistake happens.
    marks, out_of : int
        The marks the answer earns, and the part's marks.
    points : tuple of str
        For a short answer: the key points it makes.
    """

    part: str
    status: str
    message: str
    mistakes: tuple = ()
    step: str | None = None
    marks: int = 0
    out_of: int = 0
    points: tuple = ()

    @property
    def correct(self) -> bool:
        """Full marks by the marking (right, or right by follow-through); a self-marked part never counts."""
        return self.status in ("correct", "follow-through")

    def __str__(self) -> str:
        return self.message

    def html(self) -> str:
        color = {
            "correct": "#1a7f37",
            "mistake": "#8a3b00",
            "wrong": "#b3261e",
            "places": "#8a3b00",
            "partial": "#8a3b00",
            "other_rule": "#8a3b00",
            "follow-through": "#1a7f37",
            "slip": "#8a3b00",
            "self": "#444",
            "self-marked": "#1a7f37",
        }.get(self.status, "#444")
        return (
            f'<div class="iaa-feedback iaa-{self.status}" style="color:{color}">'
            f"({html_escape(self.part)}) {html_escape(self.message)}</div>"
        )

    def _repr_html_(self) -> str:
        return self.html()


@dataclass(frozen=True)
class Marking:
    """A whole question marked (:meth:`Question.mark`): the feedback on every part, and the totals."""

    question: Any
    feedback: dict

    @property
    def marks(self) -> int:
        """The marks earned."""
        return sum(f.marks for f in self.feedback.values())

    @property
    def out_of(self) -> int:
        return self.question.total_marks

    @property
    def self_marked(self) -> int:
        """The marks the student gave themselves (short answers in words, :meth:`Question.self_mark`)."""
        return sum(f.marks for f in self.feedback.values() if f.status == "self-marked")

    @property
    def score(self) -> str:
        """``"9 of 13 marks"``, ``"9 of 13 marks (2 self-marked)"``, or with the parts still to self-mark."""
        out = f"{self.marks} of {self.out_of} marks"
        notes = []
        if any(f.status == "self-marked" for f in self.feedback.values()):
            notes.append(f"{self.self_marked} self-marked")
        waiting = [f.part for f in self.feedback.values() if f.status == "self"]
        if waiting:
            notes.append("to self-mark: " + ", ".join(f"({x})" for x in waiting))
        return out + (f" ({'; '.join(notes)})" if notes else "")

    def by_skill(self) -> dict[str, tuple[int, int]]:
        """``{skill: (marks earned, marks available)}`` in the order of :data:`SKILLS`."""
        earned = dict.fromkeys(self.question.marks_by_skill(), 0)
        for p in self.question.parts:
            earned[p.skill] += self.feedback[p.label].marks
        return {s: (earned[s], available) for s, available in self.question.marks_by_skill().items()}


# ================================================================ question
class Question(Shown):
    """An exam-style question on one ratings table, with its parts, answers and checker.

    Build one with :func:`make_question`. ``question.ratings`` is the table;
    ``text()``, ``markdown()`` and ``html()`` give the question as a student
    sees it; ``solution()`` the worked solution; ``check(part, answer)`` marks
    an answer and names the usual mistake behind a wrong one.
    """

    def __init__(
        self,
        kind: str,
        seed: int,
        drawn: Draw,
        result: Any,
        parts: tuple,
        routes: dict,
        size: dict,
        level: int = 2,
        plan: "_Plan | None" = None,
    ):
        self.kind = kind
        self.plan = plan or _Plan()
        #: the chance rule a partial-coverage question asks for ("pooled", "item_mean" or "both")
        self.chance = self.plan.chance
        #: True when the student chooses the coefficient (the title does not name it)
        self.choose = self.plan.choose
        self.seed = seed
        self.level = level
        self.ratings: Ratings = drawn.ratings
        self.topic = drawn.topic
        self.weights = drawn.weights
        self.coverage = drawn.coverage
        self.result = result
        self.parts: tuple[Part, ...] = parts
        self.routes = routes
        self.size = size

    # ------------------------------------------------------------ access
    def part(self, label: Any) -> Part:
        """A part by its label (``"a"``, ``"(a)"``, ``"A"``) or position (0, 1, ...)."""
        if (
            isinstance(label, (int, np.integer))
            and not isinstance(label, bool)
            and 0 <= label < len(self.parts)
        ):
            return self.parts[int(label)]
        elif isinstance(label, str):
            key = label.strip().strip("()").lower()
            for p in self.parts:
                if p.label == key:
                    return p
        raise AgreementError(f"this question has parts {[p.label for p in self.parts]}, not {label!r}")

    @property
    def id(self) -> str:
        """The question's code, ``"Q-7KD3-M2XA"``: it names no kind (printed on a paper, it must not say
        which coefficient to choose); :func:`question_for` draws the question again from it."""
        return question_code(self.kind, self.seed, self.level)

    @property
    def total_marks(self) -> int:
        """The marks of all the parts together."""
        return sum(p.marks for p in self.parts)

    def marks_by_skill(self) -> dict[str, int]:
        """The marks of the parts by :attr:`Part.skill`, in the order of :data:`SKILLS`."""
        out = {s: 0 for s in SKILLS}
        for p in self.parts:
            out[p.skill] = out.get(p.skill, 0) + p.marks
        return {s: m for s, m in out.items() if m}

    def sections(self) -> list[tuple[str, tuple]]:
        """The question's parts in sections, as a Tripos question sets them out: at level 4 the
        calculation, then partial coverage and chance rules (a partial question: its second chance
        rule), then the design of a study, each with its parts (printed under a heading with the
        section's marks, 20 in all); one section at levels 1-3.

        >>> [(t, sum(p.marks for p in ps)) for t, ps in make_question("alpha", 2, level=4).sections()]
        [('Calculation', 9), ('Partial coverage and chance rules', 7), ('Designing a study', 4)]
        """
        out: list[tuple[str, tuple]] = []
        for p in self.parts:
            if out and out[-1][0] == p.section:
                out[-1] = (p.section, out[-1][1] + (p,))
            else:
                out.append((p.section, (p,)))
        return out

    def answer_key(self) -> list[Prose]:
        """One line per part for a one-page answer key (:meth:`Part.key_line`)."""
        return [p.key_line() for p in self.parts]

    def answers(self) -> dict[str, Fraction]:
        """The right answer of every numerical part, exact: ``{"a": Fraction(7, 10), ...}``."""
        return {p.label: p.answer for p in self.parts if p.numeric}

    @property
    def title(self) -> str:
        """The question's title; it names the coefficient unless the student is to choose it."""
        if self.choose:
            return "Agreement between annotators"
        return {
            "cohen": "Cohen's kappa",
            "weighted": f"Weighted kappa ({self.weights} weights)",
            "fleiss": "Fleiss' kappa",
            "alpha": "Krippendorff's alpha" + (" with missing ratings" if self.ratings.missing.any() else ""),
            "partial": "Fleiss' kappa with partial annotation",
            "pi": "Scott's pi",
            "ac1": "Gwet's AC1",
        }[self.kind]

    # ------------------------------------------------------------ display
    def _blocks(self) -> list:
        """The question, written once: heading, setting, ratings table, parts, instructions."""
        r, t = self.ratings, self.topic
        if self.kind == "weighted":
            done = f"rated {r.n_items} {t.items} for {t.task} on the ordered scale {' < '.join(t.categories)}"
        else:
            done = f"labelled {r.n_items} {t.items} for {t.task} as {_names(t.categories, 'or')}"
        first = f"{_NUMBERS.get(r.n_raters, r.n_raters)} annotators, {_names(r.raters)}, {done}."
        if self.kind in ("cohen", "weighted") and r.missing.any() and not self.choose:
            first += (
                " Some ratings are missing (shown as –): compare the two annotators on the items both "
                "labelled, leaving out an item either left blank."
            )
        elif self.kind in ("alpha", "cohen", "weighted") and r.missing.any():
            first += " Some ratings are missing (shown as –)."
        elif self.kind == "partial":
            first += f" {_coverage(r)} (– marks an item an annotator did not label)."
        head = Prose(Em(self.title, strong=True), f" (question {self.id}, level {self.level})")
        parts = []
        starts = {section[1][0].label: section for section in self.sections()}
        for p in self.parts:
            if p.label in starts and len(starts) > 1:
                title, members = starts[p.label]
                parts.append(Prose(Em(f"{title} [{sum(m.marks for m in members)}]", strong=True)))
            parts.append(Prose(Em(f"({p.label})", strong=True), " ", p.prompt, " ", p.mark_tag))
            parts += p.choice_lines()
        total = Prose(Em(f"Total: {self.total_marks} marks.", strong=True), " ", Em(_INSTRUCTIONS))
        return [head, Prose(first), ratings_table(r), *parts, total]

    def render(self, form: str, math: str = "tex") -> str:
        """The question as a student sees it, in one output (``"text"``, ``"markdown"``, ``"html"``)."""
        body = render(self._blocks(), form, math, sep="\n\n" if form == "text" else None)
        return f'<div class="iaa-question">{body}</div>' if form == "html" else body + "\n"

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return (
            f"<Question {self.kind}-{self.seed} (level {self.level}, {self.total_marks} marks): "
            f"{self.ratings.n_items} items x {self.ratings.n_raters} raters>"
        )

    # -------------------------------------------------------------- check
    def mistakes(self, part: Any) -> tuple[Mistake, ...]:
        """The usual mistakes that :meth:`check` recognises in ``part`` for this question."""
        return self.part(part).mistakes

    def check(self, part: Any, answer: Any, *, given: Mapping[str, Any] | None = None) -> Feedback:
        """Mark ``answer`` to ``part``: a :class:`Feedback` with the marks it earns.

        A numerical part takes 3 decimals (``"0.492"``), a fraction
        (``"29/59"``) or an exact number, and earns method (M) and accuracy (A)
        marks: right to 2 decimals only, "give 3 dp, as asked" (the A mark lost,
        the M marks kept); a right method with values rounded too early, or 3
        decimals off by at most 2 in the last place, keeps the M marks
        (``"slip"``). An answer that equals what a usual wrong method gives is
        told so ("this is what you get if you ..."), with the step to look at,
        and earns nothing; otherwise a hint. ``given`` (the student's answers
        to the other parts, as :meth:`mark` passes them) marks a coefficient
        with follow-through. A multiple-choice part takes a letter (``"B"``), a
        select-all part letters (``"A, C"``); a short answer in words is never
        marked here: it gets the mark scheme's points to tick
        (:meth:`self_mark`). Feedback never gives another part's result away,
        nor says which part a wrong number belongs to.

        Examples
        --------
        >>> from iaa_teach import fmt
        >>> from iaa_teach.exercises import make_question
        >>> q = make_question("fleiss", seed=1)
        >>> right = q.answers()["c"]
        >>> q.check("c", fmt(right)).correct, q.check("c", str(right)).correct
        (True, True)
        """
        p = self.part(part)
        if p.form in ("choice", "select"):
            return _check_choice(p, answer)
        if p.form == "words":
            return _check_words(p, answer)
        try:
            ans = parse_answer(answer)
        except AgreementError as exc:
            return Feedback(p.label, "unreadable", str(exc), out_of=p.marks)
        return self._check_number(p, ans, self._follow_through(p, given or {}))

    def _follow_through(self, p: Part, given: Mapping[str, Any]) -> tuple | None:
        """The ranges of values this part takes from the student's own answers to the parts it follows
        (``(ranges, labels)``, each range ``(low, high)``), or None: no such parts, one of them unanswered
        or unreadable, or all of them right (then the right value is the one to give). Where the earlier
        answers are what a usual wrong method gives (:attr:`Part.ft_routes`), the value worked from that
        method's own table is a range too."""
        if not p.follows:
            return None
        values = []
        for label in p.follows:
            raw = given.get(label)
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                return None
            try:
                values.append(parse_answer(raw))
            except AgreementError:
                return None
        if all(v.matches(self.part(label).answer) for v, label in zip(values, p.follows)):
            return None
        ranges = [
            (value, value)
            for earlier, value in p.ft_routes
            if all(v.matches(e) for v, e in zip(values, earlier))
        ]
        # every formula here is monotonic in each input: its range over the answers' tolerances
        # is reached at the corners
        corners = [()]
        for v in values:
            ends = dict.fromkeys((v.value - v.tolerance(), v.value + v.tolerance()))
            corners = [c + (e,) for c in corners for e in ends]
        found = [follow_through_value(p.quantity, c, p.ft_terms) for c in corners]
        if all(x is not None for x in found):
            ranges.append((min(found), max(found)))
        return (ranges, p.follows) if ranges else None

    def _check_number(self, p: Part, ans, ft: tuple | None) -> Feedback:
        m_marks = p.method_marks
        found = [m for m in p.mistakes if ans.matches(m.value)]
        rules = [m for m in p.others if ans.matches(m.value)]
        ids = tuple(dict.fromkeys(m.id for m in found))
        places = ans.decimals is None or ans.decimals >= _PLACES
        if ans.matches(p.answer):
            exact_short = ans.decimals is not None and round_half_up(p.answer, ans.decimals) == p.answer
            if places or exact_short:
                return Feedback(
                    p.label,
                    "correct",
                    f"Correct: {p.symbol} = {show_value(p.answer)}.",
                    marks=p.marks,
                    out_of=p.marks,
                )
            return Feedback(
                p.label,
                "places",
                f"{ans.written} is right to {ans.decimals} dp: give {_PLACES} dp, as asked ({_lost(p)}).",
                marks=m_marks,
                out_of=p.marks,
            )
        if ft is not None and any(
            lo - ans.tolerance() <= ans.value <= hi + ans.tolerance() for lo, hi in ft[0]
        ):
            from_ = " and ".join(f"({label})" for label in ft[1])
            if places:
                return Feedback(
                    p.label,
                    "follow-through",
                    f"Follow-through: {ans.written} is right from your own answers to {from_}, so this part "
                    f"earns its marks; look again at those parts.",
                    marks=p.marks,
                    out_of=p.marks,
                )
            return Feedback(
                p.label,
                "places",
                f"Follow-through: {ans.written} is right from your own answers to {from_}, to "
                f"{ans.decimals} dp: give {_PLACES} dp, as asked ({_lost(p)}).",
                marks=m_marks,
                out_of=p.marks,
            )
        if (found or rules) and any(
            o.numeric and o is not p and ans.matches(o.answer) and _distinguishable(o.answer, p.answer)
            for o in self.parts
        ):
            # the number is another part's answer: naming the method (or rule) that gives it would
            # confirm that part's value, so the feedback says no more than for any wrong number
            return Feedback(
                p.label,
                "wrong",
                f"Not yet. {self._hint(p, ans)}",
                ids,
                out_of=p.marks,
            )
        if found:
            which = "; or ".join(dict.fromkeys(f"{_if_you(m)} (step: {m.info.step})" for m in found))
            advice = " ".join(dict.fromkeys(m.info.advice for m in found))
            slip = all(m.id in SLIPS for m in found)
            earned = (
                f" The method earns its {m_marks} mark{'s' if m_marks != 1 else ''}; the accuracy mark is lost."
                if slip and m_marks
                else ""
            )
            return Feedback(
                p.label,
                "slip" if slip else "mistake",
                f"Not yet: {ans.written} is what you get {which}. {advice}{earned}",
                ids,
                found[0].info.step,
                marks=m_marks if slip else 0,
                out_of=p.marks,
            )
        if rules:
            return Feedback(
                p.label,
                "other_rule",
                f"Not yet: {ans.written} is what you get {_other_rule(rules[0])}.",
                out_of=p.marks,
            )
        targets = [p.answer] + ([x for pair in ft[0] for x in pair] if ft else [])
        if (
            m_marks
            and ans.decimals is not None
            and ans.decimals >= _PLACES
            and any(abs(ans.value - t) <= _SLIP for t in targets)
        ):
            return Feedback(
                p.label,
                "slip",
                f"Nearly: {ans.written} is off in the last decimal, as an arithmetic slip or a value rounded "
                f"too early would be. Keep the intermediate values exact and round only the final answer "
                f"(round, don't truncate). {_lost(p).capitalize()}.",
                marks=m_marks,
                out_of=p.marks,
            )
        return Feedback(p.label, "wrong", f"Not yet. {self._hint(p, ans)}", out_of=p.marks)

    def self_mark(self, part: Any, answer: Any, ticked: Any) -> Feedback:
        """Mark a short answer in words by the mark scheme's points the student ticks as made.

        ``ticked`` holds point numbers (1, 2, ...) or the points' texts. The score
        says it is self-marked: no machine read the answer.

        >>> q = make_question("partial", seed=2)
        >>> words = next(p for p in q.parts if p.form == "words")
        >>> fb = q.self_mark(words.label, "They are two people.", [1])
        >>> fb.status, fb.marks
        ('self-marked', 1)
        """
        p = self.part(part)
        if p.form != "words":
            raise AgreementError(
                f"part ({p.label}) is answered by {p.form}, not in words: it is not self-marked"
            )
        text = "" if answer is None else str(answer)
        if not text.strip():
            return Feedback(p.label, "empty", "Not answered.", out_of=p.marks)
        if isinstance(ticked, (str, bytes)) or not hasattr(ticked, "__iter__"):
            raise AgreementError(
                f"ticked must be a list of point numbers 1-{len(p.key_points)}, got {ticked!r}"
            )
        made = set()
        for t in ticked:
            if isinstance(t, str) and t in [k.text for k in p.key_points]:
                made.add([k.text for k in p.key_points].index(t))
                continue
            n = check_int("a ticked point", t, 1, len(p.key_points))
            made.add(n - 1)
        points = tuple(p.key_points[i].text for i in sorted(made))
        marks = min(len(made), p.marks)
        return Feedback(
            p.label,
            "self-marked",
            f"{marks} of {p.marks} marks (self-marked: {len(made)} of the mark scheme's "
            f"{len(p.key_points)} points ticked).",
            marks=marks,
            out_of=p.marks,
            points=points,
        )

    def mark(self, answers: Mapping[str, Any], ticks: Mapping[str, Any] | None = None) -> "Marking":
        """Mark every part at once: ``answers`` maps a part's label to what the student wrote.

        A part left out (or blank) earns nothing and gets the status ``"empty"``. A
        coefficient is marked with follow-through from the student's own earlier answers
        (a kappa right from a wrong P_e earns its marks). A part answered in words earns
        the marks of the points ``ticks[label]`` holds (:meth:`self_mark`), or none until
        it is self-marked.

        >>> q = make_question("cohen", seed=3)
        >>> m = q.mark({"a": q.answers()["a"], "b": "0.5"})
        >>> m.marks <= m.out_of == q.total_marks, m.feedback["d"].status
        (True, 'empty')
        """
        if not isinstance(answers, Mapping):
            raise AgreementError(f"answers must map part labels to answers, got {type(answers).__name__}")
        if ticks is not None and not isinstance(ticks, Mapping):
            raise AgreementError(f"ticks must map part labels to ticked points, got {type(ticks).__name__}")
        given = {self.part(label).label: value for label, value in answers.items()}
        ticked = {self.part(label).label: value for label, value in (ticks or {}).items()}
        out = {}
        for p in self.parts:
            value = given.get(p.label)
            if value is None or (isinstance(value, str) and not value.strip()):
                out[p.label] = Feedback(p.label, "empty", "Not answered.", out_of=p.marks)
            elif p.form == "words" and p.label in ticked:
                out[p.label] = self.self_mark(p.label, value, ticked[p.label])
            else:
                out[p.label] = self.check(p.label, value, given=given)
        return Marking(self, out)

    def _hint(self, p: Part, ans) -> str:
        v, x = p.answer, ans.value
        if ans.decimals is not None and ans.decimals < 2 and abs(x - v) <= Fraction(1, 2 * 10**ans.decimals):
            return "Give the value to 2 or 3 decimals, or as a fraction."
        if (
            p.quantity in PROPORTIONS
            and ans.decimals is not None
            and abs(x / 100 - v) <= Fraction(1, 200)
            and x > 1
        ):
            return f"That looks like a percentage: {p.symbol} is a proportion between 0 and 1."
        if p.quantity in PROPORTIONS and not 0 <= x <= 1:
            return f"{p.symbol} is a proportion: it lies between 0 and 1. {p.hint}"
        if p.quantity in ("kappa", "alpha", "pi", "ac1", "kappa_mlrd") and x > 1:
            return f"{p.symbol} is at most 1. {p.hint}"
        return p.hint

    # ----------------------------------------------------------- solution
    def solution(self) -> "Solution":
        """The worked solution (through :func:`iaa_teach.explain.explain`) and the model answers."""
        return Solution(self)


_INSTRUCTIONS = (
    "Give numerical answers to 3 decimal places or as exact fractions; answer a multiple-choice "
    "part with a letter."
)
_PLACES = 3
#: Mistakes that are slips in a right method (values rounded too early): the M marks are kept.
SLIPS = ("rounding", "early_rounding")
#: A 3-dp answer this close to the value (2 in the last place) reads as an arithmetic slip: M marks kept.
_SLIP = Fraction(2, 1000)


def _lost(p: "Part") -> str:
    """What a slip or too few decimals costs: the accuracy mark, never the method marks."""
    if p.method_marks:
        return f"the accuracy mark is lost, the {p.method_marks} method mark{'s' if p.method_marks != 1 else ''} kept"
    return "the mark needs the value to 3 dp"


def _if_you(m: "Mistake") -> str:
    """``if you pool the two raters' labels ...``: what gives a number, never an assertion of what was done."""
    return f"if you {m.name}"


def _other_rule(m: "Mistake") -> str:
    """``with the course notes' (MLRD) rule, ...; this part asks for ...``: another rule, not a mistake."""
    return f"{m.info.name}; this part asks for {m.info.step}"


def _letters(p: Part, answer: Any) -> list[str] | None:
    """The letters an answer names (``"B"``, ``"A, C"``, ``"ac"``), or None when it is not letters of the options."""
    text = "" if answer is None else str(answer).upper()
    for sep in ",;()./&":
        text = text.replace(sep, " ")
    text = " ".join(t for t in text.split() if t != "AND")
    found = [c for c in text if not c.isspace()]
    letters = LETTERS[: len(p.choices)]
    if not found or any(c not in letters for c in found):
        return None
    return list(dict.fromkeys(found))


def _check_choice(p: Part, answer: Any) -> Feedback:
    letters = LETTERS[: len(p.choices)]
    chosen = _letters(p, answer)
    if p.select:
        if chosen is None:
            return Feedback(
                p.label,
                "unreadable",
                f"Answer with the letters of every statement that applies (of {', '.join(letters)}), "
                "such as A, C.",
                out_of=p.marks,
            )
        right = [c for c in chosen if c in p.key]
        wrong = [c for c in chosen if c not in p.key]
        marks = max(0, min(p.marks, len(right) - len(wrong)))
        if marks == p.marks and not wrong:
            return Feedback(
                p.label,
                "correct",
                f"Correct: {', '.join(sorted(chosen))}. {p.model_answer}",
                marks=marks,
                out_of=p.marks,
            )
        why = " ".join(f"{c}: {p.choices[letters.index(c)].why_not}" for c in sorted(wrong))
        missed = len(p.key) - len(right)
        said = (
            f"{marks} of {p.marks} marks: {len(right)} right statement{'s' if len(right) != 1 else ''} chosen"
        )
        said += f", {len(wrong)} wrong" + (
            f", {missed} right one{'s' if missed != 1 else ''} left out." if missed else "."
        )
        return Feedback(
            p.label, "partial" if marks else "wrong", f"{said} {why}".rstrip(), marks=marks, out_of=p.marks
        )
    if chosen is None or len(chosen) != 1:
        return Feedback(
            p.label,
            "unreadable",
            f"Answer with one letter, {', '.join(letters[:-1])} or {letters[-1]}.",
            out_of=p.marks,
        )
    text = chosen[0]
    if text == p.key:
        return Feedback(
            p.label, "correct", f"Correct: {text}. {p.model_answer}", marks=p.marks, out_of=p.marks
        )
    why = p.choices[letters.index(text)].why_not
    return Feedback(
        p.label, "wrong", f"Not yet: {text} is not the best answer. {why}".rstrip(), out_of=p.marks
    )


def _check_words(p: Part, answer: Any) -> Feedback:
    """A short answer in words is never marked by a machine: the student self-marks it from the scheme."""
    text = "" if answer is None else str(answer)
    if not text.strip():
        return Feedback(p.label, "unreadable", "Write your answer in a sentence or two.", out_of=p.marks)
    points = " ".join(f"({i}) {k.text}." for i, k in enumerate(p.key_points, start=1))
    return Feedback(
        p.label,
        "self",
        f"To self-mark: tick the points your answer makes (a mark each, up to {p.marks}). {points}",
        out_of=p.marks,
        points=tuple(k.text for k in p.key_points),
    )


_NUMBERS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def _coverage(r: Ratings) -> str:
    """Which items each annotator labelled: ``A labelled every item except item 2, D only items 4-10, ...``."""
    said = []
    for j, rater in enumerate(r.raters):
        rows = [i for i in range(r.n_items) if r.codes[i, j] >= 0]
        if len(rows) == r.n_items:
            said.append(f"{rater}, every item")
        elif rows == list(range(rows[0], rows[-1] + 1)) and (rows[0] > 0 or len(rows) < r.n_items - 2):
            said.append(f"{rater}, only items {r.items[rows[0]]}-{r.items[rows[-1]]}")
        else:
            skipped = [str(r.items[i]) for i in range(r.n_items) if i not in rows]
            said.append(f"{rater}, every item except item{'s' if len(skipped) > 1 else ''} {_names(skipped)}")
    return "Not every annotator labelled every item. Items labelled: " + "; ".join(said)


def _names(names, last: str = "and") -> str:
    names = [str(x) for x in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]


# ================================================================ solution
class Solution(Shown):
    """A question's worked solution: the steps of :func:`~iaa_teach.explain`, then the answers.

    Attributes
    ----------
    question : Question
    explanation : Explanation
        ``explain(question.result)``: every step with the formula, the numbers
        put in, the exact fraction and its 3-decimal value.
    answers : dict
        The right answer of every numerical part (exact).
    steps : list of Step
        The explanation's steps followed by one step with the answers to
        every part (model answers for the parts answered in words); the quiz
        reveals them one by one.
    """

    def __init__(self, question: Question):
        self.question = question
        self.explanation: Explanation = _explanation(question)
        self.answers = question.answers()
        answers = Step(Prose("Answers"), tuple(p.answer_line() for p in question.parts))
        self.steps: list[Step] = [*self.explanation.steps, answers]
        title = f"Worked solution, question {question.id}: {self.explanation.title}"
        self._document = Explanation(title, self.steps, question.result)

    def render(self, form: str, math: str = "tex") -> str:
        """The worked solution in one output: the explanation's steps, then the answers."""
        out = self._document.render(form, math)
        return f'<div class="iaa-solution">{out}</div>' if form == "html" else out

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.text()


def _explanation(q: Question) -> Explanation:
    """The working of a question (:func:`_working`); at level 4 followed by the partial coverage and the
    second chance rule (:func:`_tripos_steps`)."""
    main = _working(q)
    more = _tripos_steps(q) if q.level == 4 else []
    if not more:
        return main
    return Explanation(
        main.title + "; then partial coverage and a second chance rule", [*main.steps, *more], q.result
    )


def _tripos_steps(q: Question) -> list[Step]:
    """The working of a level-4 question's partial coverage (the table once an annotator stops) and of its
    second chance rule, each step from :func:`~iaa_teach.explain` of the core metric where there is one."""
    r, kind, steps = q.ratings, q.kind, []
    weights = q.weights if kind == "weighted" else None

    def keep(explanation: Explanation, symbols: tuple, headings: tuple, prefix: str) -> list[Step]:
        return [
            Step(Prose(prefix, s.heading), s.body, s.symbol, s.value, s.exact)
            for s in explanation.steps
            if s.symbol in symbols or s.heading.text().startswith(headings)
        ]

    drop = _dropout(kind, r)
    if drop is not None:
        who, last, dropped = drop
        prefix = f"Partial coverage, {who} stopping after item {r.items[last - 1]}: "
        if kind in _TWO_RATERS:
            steps += keep(
                explain(cohen_kappa(dropped, 0, 1, weights=weights)), ("P_o",), ("Agreement table",), prefix
            )
        else:
            steps += keep(
                explain(fleiss_kappa(dropped)), ("P_a",), ("Count table", "Agreement on each"), prefix
            )
    prefix = "Second chance rule: "
    if kind in ("cohen", "weighted", "ac1"):
        other = explain(scott_pi(_both_labelled(r), 0, 1, weights=weights))
        steps += keep(other, ("P_e", "pi"), ("Category",), prefix)
    elif kind == "pi":
        steps += keep(explain(cohen_kappa(r, 0, 1)), ("P_e", "kappa"), ("Marginals",), prefix)
    elif kind == "fleiss":
        steps += keep(explain(gwet_ac(r)), ("P_e", "AC1"), ("Category",), prefix)
    elif kind == "alpha":
        ex = q.result.exact
        d_e = 1 - sum((c / ex.n) ** 2 for c in ex.n_c)
        alpha = 1 - ex.d_o / d_e
        n = number(ex.n)
        squares = " + ".join(rf"\left(\frac{{{number(c).tex}}}{{{n.tex}}}\right)^2" for c in ex.n_c)
        squares_txt = " + ".join(f"({number(c).txt}/{n.txt})²" for c in ex.n_c)
        d_e_sym, alpha_sym = QUANTITIES["d_e_repl"], QUANTITIES["alpha_repl"]
        steps.append(
            Step(
                prose(prefix + "expected disagreement with replacement {D}", D=d_e_sym),
                (
                    prose(
                        "Two values drawn with replacement, as Fleiss' kappa and Scott's pi draw them, from the "
                        "same row totals {n_c}; alpha's {D_e} draws without replacement and is larger by the "
                        "factor {f}.",
                        f=Math(r"n / (n - 1)", "n / (n - 1)"),
                    ),
                    Equations(
                        [
                            Chain(
                                d_e_sym,
                                Math(r"1 - \sum_c \left(\frac{n_c}{n}\right)^2", "1 - Σ_c (n_c / n)²"),
                                Math(rf"1 - \left({squares}\right)", f"1 - ({squares_txt})"),
                                approx(d_e),
                            )
                        ]
                    ),
                ),
                "D_e",
                float(d_e),
                d_e,
            )
        )
        steps.append(
            Step(
                prose(prefix + "alpha with it, {A}", A=alpha_sym),
                (
                    Equations(
                        [
                            Chain(
                                alpha_sym,
                                Math(rf"1 - \frac{{D_o}}{{{d_e_sym.tex}}}", f"1 - D_o / {d_e_sym.txt}"),
                                Math(
                                    rf"1 - \frac{{{number(ex.d_o).tex}}}{{{number(d_e).tex}}}",
                                    f"1 - ({number(ex.d_o).txt}) / ({number(d_e).txt})",
                                ),
                                approx(alpha),
                            )
                        ]
                    ),
                    prose("Lower than alpha: with replacement the expected disagreement is smaller."),
                ),
                "alpha",
                float(alpha),
                alpha,
            )
        )
    return steps


def _working(q: Question) -> Explanation:
    """The working of a question: :func:`iaa_teach.explain` of its result, with the steps it lacks.

    Scott's pi and AC1: the agreement table and P_o as for Cohen's kappa, then the
    pooled proportions, the coefficient's own P_e and the coefficient. A partial
    question asking for both chance rules: the pooled working, then the MLRD rule's
    proportions, P_e and kappa.
    """
    r = q.ratings
    if q.kind == "partial" and q.chance == "both":
        main = explain(q.result)
        other = explain(fleiss_kappa(r, chance="item_mean"))
        tail = [
            Step(Prose("Second rule: ", s.heading), s.body, s.symbol, s.value, s.exact)
            for s in other.steps[-3:]
        ]
        return Explanation(
            main.title + "; then the course notes' (MLRD) chance rule", [*main.steps, *tail], q.result
        )
    if q.kind not in ("pi", "ac1"):
        return explain(q.result)
    # the agreement table and P_o as for Cohen's kappa; then the coefficient's own p_j, P_e and value
    cohen = explain(cohen_kappa(r, 0, 1))
    family = explain(q.result)
    own = [
        s for s in family.steps if s.symbol in ("P_e", "pi", "AC1") or s.heading.text().startswith("Category")
    ]
    note = Step(
        prose("Observed agreement of two annotators: {P_a} = {P_o}"),
        (
            prose(
                "With two annotators every item has one pair of labels: {P_i} is 1 where they agree and 0 "
                "where they do not, so the mean agreement {P_a} of the working below is {P_o}."
            ),
        ),
    )
    return Explanation(family.title, [*cohen.steps[:2], note, *own], q.result)


# =============================================================== building
def _distinguishable(a: Fraction, b: Fraction) -> bool:
    """No 3-decimal number a student could write for one is accepted for the other."""
    return all(abs(x - b) > _TOL3 for x in decimals_that_match(a)) and all(
        abs(x - a) > _TOL3 for x in decimals_that_match(b)
    )


def _live_mistakes(
    kind: str, right: dict, routes: dict, complete_alpha: bool = False, small: bool = False
) -> tuple[dict, dict, bool]:
    """Per quantity, the mistakes to list and the other rules' values; and whether the table is good for them
    (by the rule that :data:`OPTIONAL` states).

    ``small``: a level-1 table (4-6 items, 2 categories), where values coincide
    often: every mistake is then listed where it changes a part's answer, and
    two that give the same answer are both named.

    ``complete_alpha``: an alpha question on a complete table, where some mistakes
    cannot happen (no single value to count) or coincide by construction (the code
    text's route is then Fleiss' D_e; unweighted pairs leave D_o as it is): a
    mistake is then left out where it gives the right value, and two that give the
    same value are both named.
    """
    listed: dict[str, list[Mistake]] = {q: [] for q in right}
    others: dict[str, list[Mistake]] = {q: [] for q in right}
    for key, values in routes.items():
        mid, _, variant = key.partition(":")
        optional = mid in OPTIONAL or small
        if mid in RULES:  # another rule in use, told apart from the one asked for
            for qty, value in values.items():
                if qty in right and value is not None and value != right[qty]:
                    if not _distinguishable(value, right[qty]):
                        return listed, others, False
                    others[qty].append(Mistake(mid, None, Fraction(value), RULES[mid]))
            continue
        if complete_alpha and all(values[q] == right[q] for q in values if q in right):
            continue  # the mistake makes no difference on this table (no single value to count)
        for qty, value in values.items():
            if qty not in right or (complete_alpha and value == right[qty]):
                continue  # not a part this mistake changes on this table
            if value is None or not _distinguishable(value, right[qty]):
                if value is not None and mid not in SLIPS:
                    return listed, others, False  # a wrong method would give the right answer: draw again
                if optional:
                    continue
                return listed, others, False
            same = [i for i, m in enumerate(listed[qty]) if m.id == mid and m.value == value]
            if same:  # two variants of one mistake agree here: list it once, without the variant
                listed[qty][same[0]] = Mistake(mid, None, Fraction(value), mistake_info(kind, mid))
                continue
            listed[qty].append(Mistake(mid, variant or None, Fraction(value), mistake_info(kind, mid)))
    for qty, ms in listed.items():
        required = [m for m in ms if m.id not in OPTIONAL and not small]
        for i, a in enumerate(required):
            for b in required[i + 1 :]:
                if not (complete_alpha and a.value == b.value) and not _distinguishable(a.value, b.value):
                    return listed, others, False
            if any(not _distinguishable(a.value, o.value) for o in others[qty]):
                return listed, others, False
        # an optional mistake that another rule's value hides is not listed (the rule is named instead)
        listed[qty] = required + [
            m
            for m in ms
            if m not in required and all(_distinguishable(m.value, o.value) for o in others[qty])
        ]
    return listed, others, True


#: The chance rules a partial-coverage question can ask for ("both": the two, and why they differ).
PARTIAL_RULES = ("pooled", "item_mean", "both")
#: The kinds whose question can make the student choose the coefficient (``choose=True``).
CHOOSABLE = ("cohen", "weighted", "fleiss", "alpha")
#: The quantity holding each kind's coefficient.
COEFFICIENT_OF = {
    "cohen": "kappa",
    "weighted": "kappa",
    "fleiss": "kappa",
    "partial": "kappa",
    "alpha": "alpha",
    "pi": "pi",
    "ac1": "ac1",
}


@dataclass(frozen=True)
class _Plan:
    """What a question asks, drawn from its own generator before any table: the chance rule
    (partial), whether the student chooses the coefficient, the extra conceptual part."""

    chance: str = "pooled"
    choose: bool = False
    concept: str | None = None
    tripos: bool = False


def _plan(kind: str, level: int, style: np.random.Generator, choose: bool | None) -> _Plan:
    rules = {1: ("pooled",), 2: ("pooled", "item_mean"), 3: PARTIAL_RULES, 4: ("both",)}[level]
    chance = rules[int(style.integers(len(rules)))] if kind == "partial" else "pooled"
    if choose is None:
        choose = level == 3 and kind in CHOOSABLE and bool(style.integers(2))
    bank = {
        "cohen": ("paradox", "undefined", "interpretation"),
        "weighted": ("interpretation", "undefined"),
        "fleiss": ("dropout", "interpretation"),
        "alpha": ("interpretation", "dropout"),
        "partial": ("dropout",),
        "pi": ("paradox", "undefined", "interpretation"),
        "ac1": ("paradox", "interpretation"),
    }[kind]
    concept = bank[int(style.integers(len(bank)))] if (level >= 3 or kind in ("pi", "ac1")) else None
    return _Plan(chance, bool(choose), concept, tripos=level == 4)


def asks_to_choose(kind: str, seed: int, level: int) -> bool:
    """Whether question ``kind``, ``seed``, ``level`` (drawn as :func:`make_question` draws it by default)
    makes the student choose the coefficient: a cheap look, no table drawn. A widget that names the kind
    it shows (the quiz's dropdown) skips such seeds, and offers them under a name that says no kind.

    >>> asks_to_choose("pi", 3, 3), asks_to_choose("cohen", 3, 1)
    (False, False)
    """
    style = np.random.default_rng([KINDS.index(kind), int(seed), int(level), 12])
    return _plan(kind, int(level), style, None).choose


def _core_result(kind: str, r: Ratings, weights: str | None, chance: str = "pooled"):
    if kind in ("cohen", "weighted"):
        return cohen_kappa(r, 0, 1, weights=weights)
    if kind == "pi":
        return scott_pi(r, 0, 1)
    if kind == "ac1":
        return gwet_ac(r)
    if kind in ("fleiss", "partial"):
        return fleiss_kappa(r, chance="item_mean" if chance == "item_mean" else "pooled")
    return krippendorff_alpha(r, "nominal")


def _right_values(kind: str, result, plan: _Plan, r: Ratings) -> dict[str, Fraction]:
    ex = result.exact
    if kind in ("cohen", "weighted"):
        out = {"p_o": ex.p_o, "p_e": ex.p_e, "kappa": ex.kappa}
    elif kind in ("pi", "ac1"):
        out = {"p_o": ex.p_a, "p_e": ex.p_e, kind: ex.pi if kind == "pi" else ex.ac}
    elif kind == "fleiss":
        out = {"p_a": ex.p_a, "p_e": ex.p_e, "kappa": ex.kappa}
    elif kind == "partial" and plan.chance == "both":
        other = fleiss_kappa(r, chance="item_mean").exact
        out = {
            "p_a": ex.p_a,
            "p_e": ex.p_e,
            "kappa": ex.kappa,
            "p_e_mlrd": other.p_e,
            "kappa_mlrd": other.kappa,
        }
    elif kind == "partial":
        out = {"p_a": ex.p_a, "n_labels": Fraction(result.n_ratings), "p_e": ex.p_e, "kappa": ex.kappa}
    else:
        out = {"n": Fraction(ex.n), "d_o": ex.d_o, "d_e": ex.d_e, "alpha": ex.alpha}
    if plan.choose:  # the student chooses the coefficient and computes it: one numerical part
        return {COEFFICIENT_OF[kind]: out[COEFFICIENT_OF[kind]]}
    return out


def _routes(kind: str, r: Ratings, result, weights, plan: _Plan) -> dict:
    if kind in ("cohen", "weighted"):
        return ROUTES[kind](r, result.exact, weights)
    if kind != "partial":
        return ROUTES[kind](r, result.exact)
    if plan.chance != "both":
        return ROUTES[kind](r, result.exact, plan.chance)
    routes = ROUTES[kind](r, result.exact, "pooled")
    mlrd = ROUTES[kind](r, fleiss_kappa(r, chance="item_mean").exact, "item_mean")
    for key, values in mlrd.items():
        routes.setdefault(key, {}).update(
            {f"{q}_mlrd": v for q, v in values.items() if q in ("p_e", "kappa")}
        )
    return routes


#: A level-4 question's second chance rule, by kind: the quantities of its P_e (D_e) and its coefficient.
SECOND_RULE = {
    "cohen": ("p_e_pi", "pi"),
    "weighted": ("p_e_pi", "pi"),
    "ac1": ("p_e_pi", "pi"),
    "pi": ("p_e_kappa", "kappa"),
    "fleiss": ("p_e_ac1", "ac1"),
    "alpha": ("d_e_repl", "alpha_repl"),
}
_TWO_RATERS = ("cohen", "weighted", "pi", "ac1")


def _dropout(kind: str, r: Ratings) -> tuple[str, int, Ratings] | None:
    """A level-4 question's annotator who stops :data:`DROPOUT_ITEMS` items before the end: their name, the
    number of items they labelled, and the table without their later labels (the second annotator of two,
    the last of more); None for alpha and partial, whose tables have partial coverage already."""
    if kind not in _TWO_RATERS and kind != "fleiss":
        return None
    j = 1 if kind in _TWO_RATERS else r.n_raters - 1
    last = r.n_items - DROPOUT_ITEMS
    mask = np.zeros((r.n_items, r.n_raters), dtype=bool)
    mask[last:, j] = True
    return str(r.raters[j]), last, r.with_missing(mask)


def _both_labelled(r: Ratings) -> Ratings:
    """The first two annotators' table on the items both labelled."""
    return r.subset(
        items=np.flatnonzero((r.codes[:, :2] >= 0).all(axis=1)).tolist(), raters=list(r.raters[:2])
    )


def _tripos_values(kind: str, r: Ratings, result, weights: str | None) -> tuple[dict, dict]:
    """A level-4 question's further right values (partial coverage, the second chance rule), from the core
    metrics, and the usual wrong methods' values for them (routes by mistake id, as :data:`ROUTES` gives)."""
    right: dict = {}
    routes: dict = {}
    drop = _dropout(kind, r)
    if drop is not None:
        _, last, dropped = drop
        w = weights if kind == "weighted" else None
        if kind in _TWO_RATERS:
            right["p_o_part"] = cohen_kappa(dropped, 0, 1, weights=w).exact.p_o
        else:
            right["p_a_part"] = fleiss_kappa(dropped).exact.p_a
        routes = route_dropout(kind, r, dropped, last, w)
    if kind not in SECOND_RULE:
        return right, routes
    p_e, coefficient = SECOND_RULE[kind]
    if kind in ("cohen", "weighted", "ac1"):
        table = _both_labelled(r)
        ex = scott_pi(table, 0, 1, weights=weights if kind == "weighted" else None).exact
        right[p_e], right[coefficient] = ex.p_e, ex.pi
    elif kind == "pi":
        table, ex = r, cohen_kappa(r, 0, 1).exact
        right[p_e], right[coefficient] = ex.p_e, ex.kappa
    elif kind == "fleiss":
        table, ex = r, gwet_ac(r).exact
        right[p_e], right[coefficient] = ex.p_e, ex.ac
    else:
        table, ex = r, result.exact
        right[p_e] = 1 - sum((c / ex.n) ** 2 for c in ex.n_c)
        right[coefficient] = 1 - ex.d_o / right[p_e]
    for key, values in route_second_rule(kind, table, ex, weights).items():
        routes.setdefault(key, {}).update(values)
    return right, routes


def _table_is_fit(kind: str, drawn: Draw, right: dict) -> bool:
    r = drawn.ratings
    if (r.counts().sum(axis=0) == 0).any():  # every category used somewhere in the table
        return False
    value = right[COEFFICIENT_OF[kind]]
    if value is None or not COEFFICIENT_RANGE[0] <= value <= COEFFICIENT_RANGE[1]:
        return False
    # a partial question: the merge must matter (the two partial annotators disagree on a shared item)
    codes = r.codes
    both = (codes[:, -2] >= 0) & (codes[:, -1] >= 0)
    return kind != "partial" or bool((codes[both, -2] != codes[both, -1]).any())


#: What :func:`_candidate` returns for a fit table that cannot improve on the one already chosen.
_LOOKED = object()


def _rounding_can_matter(kind: str, result, right: dict) -> bool:
    """Whether rounding the last step's inputs to 3 decimals can change the coefficient's answer
    (a cheap look before the other mistakes are worked out)."""
    coefficient = COEFFICIENT_OF[kind]
    ex = result.exact
    if kind == "alpha":
        wrong = one_minus_ratio(round_half_up(ex.d_o, 3), round_half_up(ex.d_e, 3)).item()
    else:
        p_o = ex.p_o if kind in ("cohen", "weighted") else ex.p_a
        wrong = chance_corrected(round_half_up(p_o, 3), round_half_up(ex.p_e, 3)).item()
    return wrong is not None and _distinguishable(wrong, right[coefficient])


def _candidate(kind: str, rng: np.random.Generator, size: dict, plan: _Plan, rounding_only: bool = False):
    drawn = draw(kind, rng, **size)
    result = _core_result(kind, drawn.ratings, drawn.weights, plan.chance)
    value = float(result)  # a cheap look first: the exact values (with their variances) cost more
    if not (float(COEFFICIENT_RANGE[0]) - 1e-9 <= value <= float(COEFFICIENT_RANGE[1]) + 1e-9):
        return None
    right = _right_values(kind, result, plan, drawn.ratings)
    if not _table_is_fit(kind, drawn, right):
        return None
    if rounding_only and not _rounding_can_matter(kind, result, right):
        return _LOOKED  # only a table where rounding matters could replace the one already chosen
    routes = _routes(kind, drawn.ratings, result, drawn.weights, plan)
    if plan.tripos:
        more, wrong = _tripos_values(kind, drawn.ratings, result, drawn.weights)
        right.update(more)
        for key, values in wrong.items():
            routes.setdefault(key, {}).update(values)
    listed, others, ok = _live_mistakes(
        kind, right, routes, kind == "alpha" and not drawn.ratings.missing.any(), small=size["level"] == 1
    )
    return (drawn, result, right, routes, listed, others) if ok else None


@options(kind=KINDS, weights=(None, "linear", "quadratic"), level=LEVELS)
def make_question(
    kind: str,
    seed: int | None = None,
    *,
    level: int = 2,
    n_items: int | None = None,
    n_raters: int | None = None,
    n_categories: int | None = None,
    weights: str | None = None,
    choose: bool | None = None,
    chance: str | None = None,
) -> Question:
    """A fresh exam-style question; the same ``kind``, ``seed`` and ``level`` give the same question.

    Parameters
    ----------
    kind : {"cohen", "fleiss", "alpha", "partial", "weighted", "pi", "ac1"}
        ``"cohen"``: two raters, Cohen's kappa. ``"weighted"``: two raters on
        an ordered scale, weighted kappa (linear or quadratic). ``"fleiss"``:
        3-5 raters, complete table. ``"alpha"``: Krippendorff's alpha
        (nominal), with missing ratings and a unit with a single rating at
        levels 2 and 3. ``"partial"``: Fleiss' kappa where annotators cover
        different items (like D and E in the partial-annotation text) and
        some items have a single label, with per-item n_i and the chance
        rule the question names. ``"pi"``: Scott's pi, ``"ac1"``: Gwet's AC1,
        two raters.
    seed : int, optional
        Seed of the :class:`numpy.random.Generator` that draws the table. None
        draws a fresh seed (kept in ``question.seed``).
    level : {1, 2, 3, 4}
        Difficulty (sizes in ``LEVEL_SIZES``): 1 is 4-6 items, 2 categories,
        complete; 2 (the default, the sizes questions had before levels) is
        8-12 items, 2-4 categories; 3 is exam size, 10-15 items, 3-4
        categories, an extra conceptual part, and for some seeds a question
        whose title does not name the coefficient; 4 is a Tripos-shaped
        question of 20 marks on an exam-size table in three sections: the
        calculation; partial coverage (an annotator who stops 4 items
        before the end, computed; alpha's and partial's own tables) and a
        second chance rule, computed, with why the two values differ; a
        self-marked design part. ``alpha`` has missing ratings at levels
        2-4, ``partial`` partial coverage at every level.
    n_items, n_raters, n_categories : int, optional
        Fix the size (defaults: the level's ranges); limits in ``SIZE_LIMITS``.
    weights : {"linear", "quadratic"}, optional
        For ``kind="weighted"`` (default: drawn).
    choose : bool, optional
        Make the student choose the coefficient and justify the choice (the
        title does not name it), then compute it; for ``cohen``, ``weighted``,
        ``fleiss`` and ``alpha``. Default: drawn for half the level-3 seeds.
    chance : {"pooled", "item_mean", "both"}, optional
        For ``kind="partial"``: the chance rule asked for, pooled over all
        labels (the partial-annotation text) or the mean of the items'
        proportions (the course notes' MLRD rule), or both and why they
        differ. Default: drawn (pooled at level 1; "both" only at level 3).

    Returns
    -------
    Question

    Notes
    -----
    A table is drawn again until it makes a good question: every category is
    used, the coefficient lies between 0.2 and 0.9, and every usual mistake
    the kind is checked for changes the 3-decimal answer of every part it
    touches (so :meth:`Question.check` can recognise it) and differs from the
    other mistakes. The mistakes in :data:`OPTIONAL` are listed where they
    change a part's 3-decimal answer. Rounding the intermediate values changes
    the coefficient's third decimal only for some tables: after the first good
    table up to :data:`PREFER_ROUNDING` more are drawn looking for one where
    it does.

    Examples
    --------
    >>> q = make_question("cohen", seed=3)
    >>> q.ratings.n_raters, 8 <= q.ratings.n_items <= 12
    (2, True)
    >>> make_question("cohen", seed=3).ratings == q.ratings
    True
    """
    check_size(kind, n_items, n_raters, n_categories)
    if weights is not None and kind != "weighted":
        raise AgreementError(
            f"weights={weights!r}: only kind='weighted' takes weights, 'linear' or 'quadratic'"
        )
    if choose is not None:
        check_bool("choose", choose)
        if choose and kind not in CHOOSABLE:
            raise AgreementError(
                f"choose=True: only the kinds {', '.join(CHOOSABLE)} ask to choose the "
                f"coefficient, not {kind!r}"
            )
    if chance is not None:
        check_option("chance", chance, PARTIAL_RULES)
        if kind != "partial":
            raise AgreementError(f"chance={chance!r}: only kind='partial' asks for a chance rule")
    seed = secrets.randbelow(2**31) if seed is None else check_int("seed", seed, 0)
    size = {"n_items": n_items, "n_raters": n_raters, "n_categories": n_categories, "weights": weights}
    if kind != "weighted":
        size.pop("weights")
    # one stream per kind, seed and level (level 2 keeps the stream it had before levels)
    rng = np.random.default_rng([KINDS.index(kind), int(seed)] + ([] if level == 2 else [int(level)]))
    # what the question asks (rule, choice, wordings) comes from a stream of its own
    style = np.random.default_rng([KINDS.index(kind), int(seed), int(level), 12])
    plan = _plan(kind, level, style, choose)
    if chance is not None:
        plan = replace(plan, chance=chance)
    # the size is drawn once per seed; the tables are then drawn at that size
    size["n_items"], size["n_raters"] = choose_size(kind, rng, n_items, n_raters, level)
    size["level"] = level
    if level >= 3 and kind in ("cohen", "weighted") and not plan.choose:
        size["missing"] = True  # exam size: one or two labels missing
    chosen = None
    extra = 0
    for _ in range(MAX_DRAWS):
        found = _candidate(kind, rng, size, plan, rounding_only=chosen is not None)
        if found is None:
            continue
        if found is not _LOOKED:
            if chosen is None:
                chosen = found
            if any(m.id == "rounding" for qty in COEFFICIENT_OF.values() for m in found[4].get(qty, [])):
                chosen = found  # the rounding mistake is listed for the coefficient: the table to keep
                break
        extra += 1  # one more fit table looked at after the first good one
        if chosen is not None and extra > (PREFER_ROUNDING if level == 2 else PREFER_ROUNDING // 4):
            break
    if chosen is None:
        raise AgreementError(
            f"no good {kind!r} table found in {MAX_DRAWS} draws for seed {seed} and "
            f"size {size}: try another seed or size"
        )
    drawn, result, right, routes, listed, others = chosen
    parts = _parts(kind, drawn, result, right, listed, others, plan, style)
    parts = _follows(parts, _ft_terms(kind, result, plan), routes)
    if kind == "partial":
        parts = tuple(_advice_by_rule(p, plan.chance) for p in parts)
    return Question(kind, int(seed), drawn, result, parts, routes, size, level, plan)


# ================================================================== parts
def _follows(parts: tuple, terms: dict | None = None, routes: dict | None = None) -> tuple:
    """Each part with the labels of the earlier parts it is computed from (for follow-through), and the
    table's fixed numbers the follow-through needs (``terms``, by quantity; a part that needs terms and
    has none follows nothing: a partial question's P_e under the item-mean rule does not use the count).

    A part that follows a count (alpha's D_o and D_e from n, a partial question's P_e from the count of
    labels) also takes, from every usual wrong method in ``routes`` that changes the count, the count it
    gives and this part's value worked the right way from that method's own table
    (:attr:`Part.ft_routes`): follow-through from the student's own earlier counts."""
    terms = terms or {}
    routes = routes or {}
    by_quantity = {}
    out = []
    for p in parts:
        for inputs in INPUTS.get(p.quantity, ()):
            needs_terms = p.quantity in ("d_o", "d_e", "p_e", "p_e_ac1", "p_e_pi")
            if all(q in by_quantity for q in inputs) and (not needs_terms or p.quantity in terms):
                p = replace(
                    p, follows=tuple(by_quantity[q] for q in inputs), ft_terms=terms.get(p.quantity, ())
                )
                if all(q in COUNTS for q in inputs):
                    right = tuple(out[ord(by_quantity[q]) - ord("a")].answer for q in inputs)
                    found = {
                        (tuple(v[q] for q in inputs), v[p.quantity])
                        for v in routes.values()
                        if all(q in v for q in inputs)
                        and v.get(p.quantity) is not None
                        and tuple(v[q] for q in inputs) != right
                    }
                    p = replace(p, ft_routes=tuple(sorted(found)))
                break
        out.append(p)
        if p.numeric:
            by_quantity[p.quantity] = p.label
    return tuple(out)


def _ft_terms(kind: str, result, plan: "_Plan") -> dict:
    """The table's fixed numbers for follow-through (:func:`follow_through_value`), by quantity."""
    ex = result.exact
    if kind == "alpha":
        n = Fraction(ex.n)
        return {"d_o": (ex.d_o * n,), "d_e": (n * n - ex.d_e * n * (n - 1),)}
    if kind == "partial" and plan.chance == "pooled":
        n = Fraction(result.n_ratings)
        return {"p_e": (ex.p_e * n * n,)}
    if plan.tripos and kind in ("fleiss", "ac1"):
        return {"p_e_ac1" if kind == "fleiss" else "p_e_pi": (Fraction(len(result.categories)),)}
    return {}


#: The advice on the chance step where a partial-coverage part asks for the course notes' (MLRD) rule.
_ITEM_MEAN_ADVICE = {
    "subset_chance": "Under the course notes' (MLRD) rule p_j is the mean over the items of n_ij / n_i, every "
    "annotator's labels counted in each item's n_ij and n_i.",
    "global_total": "Under the course notes' (MLRD) rule each item's proportions n_ij / n_i divide by that "
    "item's own labels n_i, not by every cell of its row.",
    "single_out_of_p_e": "Under the course notes' (MLRD) rule every item counts in p_j, a single-rated one too: "
    "its proportion is 1 for its label.",
}


def _advice_by_rule(p: Part, chance: str) -> Part:
    """A part's mistakes with advice that follows the chance rule the part asks for."""
    mlrd = p.quantity in ("p_e_mlrd", "kappa_mlrd") or (
        chance == "item_mean" and p.quantity in ("p_e", "kappa")
    )
    if not mlrd or not p.mistakes:
        return p
    mistakes = tuple(
        replace(m, info=replace(m.info, advice=_ITEM_MEAN_ADVICE[m.id])) if m.id in _ITEM_MEAN_ADVICE else m
        for m in p.mistakes
    )
    return replace(p, mistakes=mistakes)


_KAPPA_HINT = (
    "Check the last step: kappa = (P_o - P_e) / (1 - P_e), with P_o and P_e as proportions "
    "and kept exact until the end."
)
_FLEISS_HINT = _KAPPA_HINT.replace("P_o", "P_a")
_POOLED_HINT = "p_j = (labels in category j) / (all labels); P_e = sum_j p_j^2."
_ITEM_MEAN_HINT = (
    "p_j = the mean over the items of n_ij / n_i (every item weighs the same); P_e = sum_j p_j^2."
)
#: The chance rules as a prompt names them (templates: {p_j}, {n_ij}, {n_i} are typeset).
_RULE_NAME = {
    "pooled": "pooling all the labels (the partial-annotation text's rule: {p_j} = labels in category j "
    "/ all labels)",
    "item_mean": "the course notes' (MLRD) rule: {p_j} is the mean over the items of each item's "
    "proportion {n_ij} / {n_i}",
}


#: A level-4 question's second chance rule, by kind: the prompts of its P_e ({P}) and of its coefficient
#: ({C}), and their hints.
_SECOND_RULE_PROMPTS = {
    "cohen": (
        "Scott's pi pools the two annotators' labels into one set of proportions {p_j}. On the same items, "
        "compute its chance agreement {f}.",
        "Hence give Scott's pi {C} for the two annotators.",
        "p_j = (labels in category j from both annotators) / (2N) on the items both labelled; P_e = sum_j p_j^2.",
        _KAPPA_HINT.replace("kappa =", "pi ="),
    ),
    "weighted": (
        "Pool the two annotators' labels into one set of proportions {p_j}, as Scott's pi does, and compute "
        "the weighted chance agreement {f} with the same weights.",
        "Hence give the weighted Scott's pi {C}, with your weighted observed agreement.",
        "p_j = (labels in category j from both annotators) / (2N); P_e = sum_ij w_ij p_i p_j.",
        _KAPPA_HINT.replace("kappa =", "pi ="),
    ),
    "ac1": (
        "Scott's pi takes chance from the same pooled proportions {p_j} as AC1, as {f}. Compute it.",
        "Hence give Scott's pi {C} for the two annotators.",
        "P_e = sum_j p_j^2 with the pooled p_j of AC1's own chance term.",
        _KAPPA_HINT.replace("kappa =", "pi ="),
    ),
    "pi": (
        "Cohen's kappa keeps each annotator's own proportions: compute its chance agreement {f}, with {a}'s "
        "and {b}'s own proportions of each category j.",
        "Hence give Cohen's kappa {C} for the two annotators.",
        "P_e = sum over categories of (first annotator's proportion) x (second annotator's proportion).",
        _KAPPA_HINT,
    ),
    "fleiss": (
        "Gwet's AC1 takes chance from the same pooled proportions {p_j} as Fleiss' kappa, as {f}, q the "
        "number of categories. Compute it.",
        "Hence give Gwet's coefficient {C} for the annotators, with your {P_a}.",
        "P_e = sum_j p_j (1 - p_j) / (q - 1), with the pooled p_j of Fleiss' kappa.",
        _FLEISS_HINT.replace("kappa =", "AC1 ="),
    ),
    "alpha": (
        "Fleiss' kappa and Scott's pi draw their chance pairs with replacement. From the same row totals "
        "{n_c}, compute the expected disagreement with replacement, {f}.",
        "Hence give alpha with this expected disagreement, {C} = 1 - D_o / {P}.",
        "D_e with replacement = 1 - sum_c (n_c / n)^2, with n_c the row totals of the coincidence matrix.",
        "alpha = 1 - D_o / D_e, with the D_e of the part before.",
    ),
}
#: The second rule's formula, as its prompt typesets it.
_SECOND_RULE_FORMULAS = {
    "cohen": Math(r"P_e^{\pi} = \sum_j p_j^2", "P_e (Scott's pi) = Σ_j p_j²"),
    "ac1": Math(r"P_e^{\pi} = \sum_j p_j^2", "P_e (Scott's pi) = Σ_j p_j²"),
    "weighted": Math(r"P_e^{\pi} = \sum_{i,j} w_{ij}\, p_i\, p_j", "P_e (Scott's pi) = Σ_ij w_ij p_i p_j"),
    "pi": Math(r"P_e^{\kappa} = \sum_j p_{Aj}\, p_{Bj}", "P_e (Cohen's kappa) = Σ_j p_Aj p_Bj"),
    "fleiss": Math(
        r"P_e^{\mathrm{AC}_1} = \frac{1}{q - 1} \sum_j p_j (1 - p_j)",
        "P_e (AC1) = Σ_j p_j (1 - p_j) / (q - 1)",
    ),
    "alpha": Math(
        r"D_e^{\mathrm{repl}} = 1 - \sum_c \left(\frac{n_c}{n}\right)^2",
        "D_e (with replacement) = 1 - Σ_c (n_c / n)²",
    ),
}
#: The select-all part on why a level-4 question's two chance rules differ (:func:`rule_comparison`).
_COMPARISON = {
    "cohen": ("own_vs_pooled", ""),
    "pi": ("own_vs_pooled", ""),
    "weighted": ("own_vs_pooled_weighted", ""),
    "ac1": ("squares_vs_ac1", "Scott's pi"),
    "fleiss": ("squares_vs_ac1", "Fleiss' kappa"),
    "alpha": ("replacement", ""),
}


_NAME = {
    "cohen": "Cohen's kappa",
    "weighted": "weighted kappa",
    "fleiss": "Fleiss' kappa",
    "partial": "Fleiss' kappa",
    "pi": "Scott's pi",
    "ac1": "Gwet's AC1",
}


def _method(kind: str, quantity: str, chance: str, r: Ratings | None = None) -> str:
    """What earns a numerical part's method marks, in words a marker reads (symbol names from
    ``SYMBOLS`` only: the key typesets them). Two annotators' parts say N, the
    items both labelled (an item either left blank is out)."""
    n = ""
    if r is not None and kind in ("cohen", "weighted", "pi", "ac1"):
        both = int((r.codes[:, :2] >= 0).all(axis=1).sum())
        n = f" (N = {both}, the items both labelled)" if both < r.n_items else f" (N = {both})"
    if quantity in ("p_o_part", "p_a_part"):
        _, last, dropped = _dropout(kind, r)
        if quantity == "p_a_part":
            return (
                f"P_i of each item over its own n_i (n_i - 1) pairs, items {r.items[last]}-{r.items[-1]} with "
                "one label fewer, then the mean over every item"
            )
        both = int((dropped.codes[:, :2] >= 0).all(axis=1).sum())
        weighted = (
            "each cell's agreement weight times its count, summed" if kind == "weighted" else "the diagonal"
        )
        return (
            f"the agreement table of items {r.items[0]}-{r.items[last - 1]}, those both labelled (N = {both}): "
            f"{weighted}, over N"
        )
    if quantity == "p_e_pi":
        labels = 2 * int((r.codes[:, :2] >= 0).all(axis=1).sum())
        weighted = (
            "the weights times p_i p_j, summed" if kind == "weighted" else "the sum of the squares of p_j"
        )
        also = " (for ft: 1 - (q - 1) times the AC1 P_e)" if kind == "ac1" else ""
        return f"p_j pooled over both annotators' {labels} labels on the items both labelled, then {weighted}{also}"
    if quantity == "p_e_kappa":
        return "the sum over categories of one annotator's share times the other's"
    if quantity == "p_e_ac1":
        return "the pooled p_j, then the sum of p_j (1 - p_j) over q - 1 (for ft: (1 - P_e) / (q - 1))"
    if quantity == "d_e_repl":
        return "the row totals n_c over n, then 1 minus the sum of their squares (for ft: D_e (n - 1) / n)"
    if quantity == "p_o":
        if kind == "weighted":
            return f"each cell's agreement weight times its count, summed, over N{n}"
        return f"the agreement table's diagonal over N{n}"
    if quantity == "p_e" and kind == "cohen":
        return f"the sum over categories of one annotator's share times the other's, shares over N{n}"
    if quantity == "p_e" and kind == "weighted":
        return "the weights times the products of the two annotators' shares, summed"
    if quantity == "p_e" and kind == "ac1":
        return "p_j of all the labels, then the sum of p_j (1 - p_j) over q - 1"
    if quantity == "p_e_mlrd" or (quantity == "p_e" and chance == "item_mean"):
        return "p_j as the mean over the items of each item's share of its n_i labels, then the sum of the squares of p_j"
    if quantity == "p_e":
        return "p_j pooled over all the labels, then the sum of the squares of p_j"
    if quantity in ("kappa", "kappa_mlrd", "pi", "ac1"):
        first = "P_a" if kind in ("fleiss", "partial") else "P_o"
        second = " with the second P_e" if SECOND_RULE.get(kind, ("", ""))[1] == quantity else ""
        return f"({first} - P_e) / (1 - P_e){second}"
    return METHOD_OF.get(quantity, "")


def _chosen_method(kind: str, result) -> str:
    """The method marks of "compute the coefficient you chose", one answer box for the whole working:
    the intermediate values a marker looks for on the script."""
    ex = result.exact
    if kind == "alpha":
        return (
            f"M2 coincidence matrix, each unit's pairs over m_u - 1, n = {ex.n}; "
            f"M1 D_o = {fmt(ex.d_o)}; M1 D_e = {fmt(ex.d_e)}; M1 1 - D_o / D_e"
        )
    if kind == "fleiss":
        return (
            f"M2 P_i of each item and P_a = {fmt(ex.p_a)}; M2 pooled p_j and P_e = {fmt(ex.p_e)}; "
            "M1 (P_a - P_e) / (1 - P_e)"
        )
    weighted = " (weighted)" if kind == "weighted" else ""
    return (
        f"M2 agreement table and P_o{weighted} = {fmt(ex.p_o)}; M2 each annotator's marginals and "
        f"P_e{weighted} = {fmt(ex.p_e)}; M1 (P_o - P_e) / (1 - P_e)"
    )


def _interpretation(style: np.random.Generator, kind: str, name: str) -> Concept:
    """Reading a value on the scale that belongs to the kind's coefficient (Krippendorff's for alpha)."""
    return interpretation(style, name, "krippendorff" if kind == "alpha" else "landis_koch")


def _parts(
    kind: str,
    drawn: Draw,
    result,
    right: dict,
    listed: dict,
    others: dict,
    plan: _Plan,
    style: np.random.Generator,
) -> tuple[Part, ...]:
    r = drawn.ratings
    a, b = r.raters[0], r.raters[1]
    out: list[Part] = []
    tripos = plan.tripos
    section = ["Calculation" if tripos else ""]  # the heading the next parts are printed under (level 4)

    def say(*wordings: str, **values) -> Prose:
        """One of several wordings of a part (templates for :func:`prose`, ``{a}`` and ``{b}`` the first two
        annotators), chosen by the question's own generator."""
        return prose(wordings[int(style.integers(len(wordings)))], a=a, b=b, **values)

    def number(quantity, prompt, hint="", marks=None, method=""):
        out.append(
            Part(
                PART_LABELS[len(out)],
                quantity,
                prompt,
                right[quantity],
                tuple(listed[quantity]),
                hint=hint,
                marks=marks or MARKS[quantity],
                skill=SKILL_OF[quantity],
                others=tuple(others.get(quantity, ())),
                method=method or _method(kind, quantity, plan.chance, r),
                section=section[0],
            )
        )

    def concept(c: Concept, worked: Prose | None = None):
        out.append(replace(_concept_part(PART_LABELS[len(out)], c, worked), section=section[0]))

    def design_part():
        """The last section of a level-4 question: designing a study, with the marks the others leave."""
        section[0] = "Designing a study"
        marks = TRIPOS_MARKS - sum(p.marks for p in out)
        if not 4 <= marks <= 6:  # pragma: no cover - the parts' marks are fixed per kind
            raise RuntimeError(f"a level-4 {kind} question's parts take {TRIPOS_MARKS - marks} marks")
        concept(design(drawn.topic.items, drawn.topic.task, marks))

    def partial_coverage_and_second_rule():
        """Level 4's middle section: an annotator who stops (a numerical part on partial coverage), the
        coefficient under a second chance rule, and why the two values differ."""
        section[0] = "Partial coverage and chance rules"
        drop = _dropout(kind, r)
        if drop is not None:
            who, last, _ = drop
            stop = f"Suppose {who} had stopped after item {r.items[last - 1]} and labelled no more."
            if kind in _TWO_RATERS:
                weighted = " weighted" if kind == "weighted" else ""
                number(
                    "p_o_part",
                    prose(
                        stop
                        + " Compute the{w} observed agreement {P} of {a} and {b} on the items both would "
                        "then have labelled.",
                        w=weighted,
                        P=QUANTITIES["p_o_part"],
                        a=a,
                        b=b,
                    ),
                    "Only the items both annotators labelled enter the table: the items after the stop leave it, "
                    "as does any item either left blank.",
                )
            else:
                number(
                    "p_a_part",
                    prose(
                        stop
                        + " Keeping every label the annotators gave, compute the mean observed agreement "
                        "{P} with each item's own number of labels {n_i}.",
                        P=QUANTITIES["p_a_part"],
                    ),
                    "The items after the stop have one label fewer: their P_i divide by their own "
                    "n_i (n_i - 1); every item with two or more labels stays in the mean.",
                )
        elif kind == "alpha":
            lonely = [str(item) for item, mu in zip(r.items, r.ratings_per_item()) if mu == 1]
            concept(single_value(style, _names(lonely)) if lonely else _interpretation(style, kind, "alpha"))
        p_e, coefficient = SECOND_RULE[kind]
        wording = _SECOND_RULE_PROMPTS[kind]
        formula = _SECOND_RULE_FORMULAS[kind]
        number(p_e, say(wording[0], P=QUANTITIES[p_e], f=formula), wording[2])
        number(
            coefficient, say(wording[1], C=QUANTITIES[coefficient], P=QUANTITIES[p_e]), wording[3], marks=1
        )
        comparison, pooled = _COMPARISON[kind]
        concept(rule_comparison(style, comparison, pooled))

    def extra():
        if tripos:  # level 4: one conceptual part in the calculation, then the sections of its own
            if kind in ("pi", "ac1"):
                concept(_interpretation(style, kind, _NAME[kind]))
            partial_coverage_and_second_rule()
            design_part()
            return
        if plan.concept == "paradox":
            concept(paradox(style, "Scott's pi" if kind == "pi" else "Cohen's kappa"))
        elif plan.concept == "undefined":
            concept(undefined(style))
        elif plan.concept == "dropout":
            concept(dropout(style, r.raters[min(2, r.n_raters - 1)], max(2, r.n_items // 2)))
        elif plan.concept == "interpretation":
            concept(_interpretation(style, kind, "Krippendorff's alpha" if kind == "alpha" else _NAME[kind]))

    if plan.choose:
        coefficient = COEFFICIENT_OF[kind]
        words = load(Path(__file__).parent / "kinds" / f"{kind}.toml")["choose"]
        for c in choose_coefficient(style, words):  # which coefficient, and why
            concept(c)
        weights = (
            f" (with {drawn.weights} weights, if your coefficient takes weights)"
            if kind == "weighted"
            else ""
        )
        number(
            coefficient,
            say(
                f"Compute the coefficient you chose{weights}, showing your working.",
                f"Compute your chosen coefficient{weights} step by step.",
            ),
            _KAPPA_HINT if coefficient == "kappa" else "alpha = 1 - D_o / D_e from the coincidence matrix.",
            marks=6,
            method=_chosen_method(kind, result),
        )
        extra() if plan.concept else concept(_interpretation(style, kind, "the coefficient"))
        return tuple(out)

    if kind == "partial":
        number(
            "p_a",
            say(
                "Compute the agreement {P_i} of each item, using the number of annotators {n_i} who "
                "labelled it, and their mean {P_a}.",
                "Using each item's own number of labels {n_i}, compute {P_i} for every item that has a "
                "pair of labels, and their mean {P_a}.",
            ),
            "P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)) with n_i the labels item i received; an item with "
            "one label has no pair and is left out of P_a.",
        )
        if plan.chance == "both":
            number(
                "p_e",
                prose("Compute the chance agreement {P_e} by " + _RULE_NAME["pooled"] + "."),
                _POOLED_HINT,
            )
            number(
                "kappa",
                prose("Compute Fleiss' kappa {kappa} with that {P_e}."),
                _FLEISS_HINT,
                marks=2 if tripos else 1,
            )
            if tripos:
                section[0] = "Chance rules"
            number(
                "p_e_mlrd", prose("Compute {P_e} again by " + _RULE_NAME["item_mean"] + "."), _ITEM_MEAN_HINT
            )
            number("kappa_mlrd", prose("Compute kappa with this second {P_e}."), _FLEISS_HINT, marks=1)
            concept(rules_differ())
            if tripos:
                design_part()
            return tuple(out)
        number(
            "n_labels",
            say(
                "How many labels does the table hold in all ({sum_n_i})?",
                "Count the labels actually given ({sum_n_i}).",
            ),
            "Count the labels actually given: every annotator's items, no missing cells.",
        )
        rule = _RULE_NAME[plan.chance]
        number(
            "p_e",
            say(
                "Compute the category proportions {p_j} and the chance agreement {P_e} by " + rule + ".",
                "Compute the chance agreement {P_e} by " + rule + ".",
            ),
            _POOLED_HINT if plan.chance == "pooled" else _ITEM_MEAN_HINT,
        )
        number("kappa", say("Compute Fleiss' kappa {kappa}.", "Hence give kappa {kappa}."), _FLEISS_HINT)
        if plan.concept == "dropout" and plan.chance == "pooled":
            extra()
        else:
            concept(merging(r.raters[-2], r.raters[-1]))
        return tuple(out)

    if kind in ("cohen", "pi", "ac1"):
        number(
            "p_o",
            say(
                "Draw the agreement table of {a} against {b} and compute the observed agreement {P_o}.",
                "Cross-tabulate {a}'s labels against {b}'s and give the observed agreement {P_o}.",
                "On what proportion of the items do {a} and {b} agree ({P_o})?",
            ),
            "P_o is the share of items on which the two annotators give the same label: the diagonal "
            "of the agreement table over the number of items.",
        )
        if kind == "cohen":
            number(
                "p_e",
                say(
                    "Compute each annotator's marginal proportions and the chance agreement {P_e}.",
                    "From {a}'s and {b}'s own label proportions, compute the chance agreement {P_e} of "
                    "Cohen's kappa.",
                ),
                f"P_e = sum over categories of ({a}'s proportion) x ({b}'s proportion): row total x column "
                f"total / N^2.",
            )
            number(
                "kappa",
                say("Compute Cohen's kappa {kappa}.", "Hence give Cohen's kappa {kappa} for {a} and {b}."),
                _KAPPA_HINT,
            )
            band = interpret(float(right["kappa"]))
            own = interpret_own(band, "kappa")
            concept(
                own,
                worked=prose(
                    "{kappa} = {v} is {band} agreement on the Landis-Koch scale. ",
                    v=fmt(right["kappa"]),
                    band=band,
                )
                + own.model,
            )
        elif kind == "pi":
            number(
                "p_e",
                say(
                    "Pool the two annotators' labels into one set of proportions {p_j} and compute "
                    "Scott's chance agreement {P_e}.",
                    "Compute the chance agreement {P_e} of Scott's pi from the pooled label proportions "
                    "{p_j}.",
                ),
                "p_j = (labels in category j from both annotators) / (2N); P_e = sum_j p_j^2.",
            )
        else:
            number(
                "p_e",
                say(
                    "Compute the category proportions {p_j} of all the labels and Gwet's chance "
                    "agreement {P_e} = (1 / (q - 1)) sum p_j (1 - p_j), q the number of categories.",
                    "Compute Gwet's AC1 chance agreement {P_e} = (1 / (q - 1)) sum p_j (1 - p_j) from the "
                    "pooled proportions {p_j}.",
                ),
                "p_j = (labels in j) / (2N); P_e = sum_j p_j (1 - p_j) / (q - 1).",
            )
        if kind != "cohen":  # Scott's pi or Gwet's AC1, from its P_e
            name, symbol = {"pi": ("Scott's pi", "pi"), "ac1": ("Gwet's AC1", "AC1")}[kind]
            number(
                kind,
                say(f"Compute {name}.", f"Hence give {name} for the two annotators."),
                _KAPPA_HINT.replace("kappa =", f"{symbol} ="),
            )
    elif kind == "weighted":
        form = (
            Math(r"w_{ij} = 1 - \frac{|i-j|}{k-1}", "w_ij = 1 - |i - j| / (k - 1)")
            if drawn.weights == "linear"
            else Math(r"w_{ij} = 1 - \frac{(i-j)^2}{(k-1)^2}", "w_ij = 1 - (i - j)^2 / (k - 1)^2")
        )
        number(
            "p_o",
            prose(
                "Using {weights} agreement weights {form} (here {k}), draw the agreement table of "
                "{a} against {b} and compute the weighted observed agreement {P_o}.",
                weights=drawn.weights,
                form=form,
                k=Math(f"k = {r.n_categories}"),
                a=a,
                b=b,
            ),
            "P_o = sum of w_ij x n_ij over all cells, divided by N: near misses count partly.",
        )
        number(
            "p_e",
            say(
                "Compute the weighted chance agreement {P_e} from {a}'s and {b}'s marginals.",
                "With the same weights, compute the chance agreement {P_e} from the two annotators' own "
                "marginal proportions.",
            ),
            "P_e = sum of w_ij x (row total i) x (column total j) over all cells, divided by N^2.",
        )
        number(
            "kappa",
            say("Compute the weighted kappa {kappa_w}.", "Hence give the weighted kappa {kappa_w}."),
            _KAPPA_HINT,
        )
        concept(weights_why(style), worked=_model_weighted(drawn.weights, result, r))
    elif kind == "fleiss":
        number(
            "p_a",
            say(
                "Compute the agreement {P_i} of each item and their mean {P_a}.",
                "For each item compute the share {P_i} of its pairs of ratings that agree; then give the "
                "mean observed agreement {P_a}.",
            ),
            "P_i = (sum_j n_ij^2 - n) / (n (n - 1)) with n raters per item; P_a is the mean over items.",
        )
        number(
            "p_e",
            say(
                "Compute the proportion {p_j} of all labels in each category, and the chance agreement "
                "{P_e}.",
                "Pool all the labels into category proportions {p_j} and compute the chance agreement {P_e}.",
            ),
            _POOLED_HINT,
        )
        number(
            "kappa", say("Compute Fleiss' kappa {kappa}.", "Hence give Fleiss' kappa {kappa}."), _FLEISS_HINT
        )
        if not tripos:  # level 4 compares chance rules by numbers instead
            concept(pooling_why(style))
    else:  # alpha
        lonely = [str(item) for item, mu in zip(r.items, r.ratings_per_item()) if mu == 1]
        weight = Math("1/(m_u - 1)", "1 / (m_u - 1)")
        number(
            "n",
            say(
                "Build the coincidence matrix, weighting each unit's ordered pairs of values by {w}. How "
                "many pairable values {n} does it hold?",
                "Draw up the coincidence matrix (each unit's ordered pairs of values weighted by {w}) and "
                "give its total, the number of pairable values {n}.",
                w=weight,
            ),
            "n counts the values in units with at least two values; it is also the total of the coincidence "
            "matrix.",
        )
        number(
            "d_o",
            say(
                "Compute the observed disagreement {D_o}.",
                "From the coincidence matrix, compute the observed disagreement {D_o}.",
            ),
            "D_o = (sum of the off-diagonal coincidences) / n.",
        )
        number(
            "d_e",
            say(
                "Compute the expected disagreement {D_e}.",
                "From the row totals {n_c}, compute the expected disagreement {D_e}.",
            ),
            "D_e = (n^2 - sum_c n_c^2) / (n (n - 1)), with n_c the row totals of the coincidence matrix.",
        )
        number(
            "alpha",
            say(
                "Compute Krippendorff's alpha {alpha} (nominal).",
                "Hence give Krippendorff's alpha {alpha} for nominal categories.",
            ),
            "alpha = 1 - D_o / D_e, with D_o and D_e kept exact until the end.",
        )
        if not tripos:  # level 4 asks it with partial coverage
            concept(single_value(style, _names(lonely)) if lonely else alpha_vs_fleiss(style))
    extra()
    return tuple(out)


def _concept_part(label: str, c: Concept, worked: Prose | None = None) -> Part:
    """A part answered by a choice or in words, from a :class:`Concept`."""
    return Part(
        label,
        None,
        c.prompt,
        model_answer=c.model,
        marks=c.marks,
        skill=c.skill,
        choices=c.choices,
        key=c.key,
        key_points=c.key_points,
        worked=worked,
        select=c.select,
    )


# ============================================================ model answers
def _model_weighted(weights: str, result, r: Ratings) -> Prose:
    """The weights part's worked answer, with this table's numbers (for the solution only)."""
    plain = cohen_kappa(r, 0, 1).exact.kappa
    other_name = "quadratic" if weights == "linear" else "linear"
    other = cohen_kappa(r, 0, 1, weights=other_name).exact.kappa
    k = len(result.categories)
    return Prose(
        f"The categories are ordered, so a disagreement between neighbouring categories is less serious "
        f"than one between the ends of the scale; weights give near misses partial credit. Here the "
        f"{weights}-weighted kappa is {fmt(result.exact.kappa)}, against {fmt(plain)} unweighted (every "
        f"disagreement counted in full) and {fmt(other)} with {other_name} weights. Quadratic weights give "
        f"a one-step miss more credit than linear ones ({fmt(1 - Fraction(1, (k - 1) ** 2))} against "
        f"{fmt(1 - Fraction(1, k - 1))} here) and both give none to a miss across the whole scale; "
        f"the choice of weights should be fixed before looking at the data."
    )
