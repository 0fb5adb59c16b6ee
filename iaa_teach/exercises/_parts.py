"""The parts of a question: what each asks for, its marks, its mark scheme, and how kinds build them.

A kind (``_kinds/<kind>.py``) builds its question's parts with a :class:`Builder`, from the words of its
data file (``_kinds/<kind>.toml``): ``builder.ask("p_o")`` is the part that asks for P_o in one of the
wordings listed under ``[parts.p_o]``, with its hint and the method its mark scheme prints.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from .._markup import SYMBOLS, Em, Math, Prose, approx, prose, with_symbols
from ..rounding import fmt
from ._concepts import BANK, LETTERS, Concept, design, from_bank, interpretation, load
from ._mistakes import MistakeInfo

__all__ = [
    "SKILLS",
    "MAX_PARTS",
    "PART_LABELS",
    "TRIPOS_MARKS",
    "DROPOUT_ITEMS",
    "QUANTITIES",
    "PROPORTIONS",
    "MARKS",
    "SKILL_OF",
    "COUNTS",
    "METHOD_OF",
    "INPUTS",
    "follow_through_value",
    "Mistake",
    "Part",
    "Plan",
    "Builder",
    "follows",
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

#: Most parts a question has ((a) to (i), at level 4).
MAX_PARTS = 9
#: The parts' labels, in order.
PART_LABELS = "abcdefghi"
#: The marks of a level-4 (Tripos-shaped) question: its design part takes what the others leave (4 to 6).
TRIPOS_MARKS = 20
#: A level-4 question's annotator who stops this many items before the end (partial coverage).
DROPOUT_ITEMS = 4

#: What a numerical part asks for, by quantity (``content/quantities.toml``: a lecturer changes a part's
#: marks there), and the quantities a kind asks for that no other does (``[own_quantities.<name>]`` of its
#: data file, ``_kinds/<kind>.toml``, with the same fields).
_QUANTITY_DATA = load(Path(__file__).parent.parent / "content" / "quantities.toml")
#: The parts a kind's data file says are one earlier count over another (``[parts.<quantity>]``,
#: ``over = [numerator, denominator]``: P_o from the agreements and the items): by quantity, the two.
_OVER: dict[str, tuple] = {}
for _path in sorted((Path(__file__).parent / "_kinds").glob("*.toml")):
    _data = load(_path)
    for _name, _fields in _data.get("own_quantities", {}).items():
        if _name in _QUANTITY_DATA:  # pragma: no cover - a kind's own quantity is nobody else's
            raise RuntimeError(f"{_path.name} declares the quantity {_name!r}, which is declared already")
        _QUANTITY_DATA[_name] = _fields
    for _name, _words in _data.get("parts", {}).items():
        if "over" in _words:
            _OVER[_name] = tuple(_words["over"])
#: The symbol of each quantity a part asks for (see ``SYMBOLS``).
QUANTITIES = {
    name: SYMBOLS[q["symbol"]] if isinstance(q["symbol"], str) else Math(*q["symbol"])
    for name, q in _QUANTITY_DATA.items()
}
#: The quantities that are proportions, between 0 and 1.
PROPORTIONS = tuple(name for name, q in _QUANTITY_DATA.items() if q.get("proportion"))
#: The marks of a numerical part, by quantity (a step with more working is worth more).
MARKS = {name: q["marks"] for name, q in _QUANTITY_DATA.items()}
#: The skill (:data:`SKILLS`) of a numerical part, by quantity.
SKILL_OF = {name: q["skill"] for name, q in _QUANTITY_DATA.items()}
#: The quantities that are counts, whole numbers.
COUNTS = tuple(name for name, q in _QUANTITY_DATA.items() if q.get("count"))
#: What earns a numerical part's method marks, as the mark scheme prints it (where the kind does not say).
METHOD_OF = {name: q["method"] for name, q in _QUANTITY_DATA.items() if "method" in q}
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
#: A part a kind computes as one earlier count over another follows them (where both are asked).
for _name, _inputs in _OVER.items():
    INPUTS[_name] = (_inputs, *INPUTS.get(_name, ()))


def follow_through_value(quantity: str, values: tuple, terms: tuple = ()) -> Fraction | None:
    """The value of a part computed the right way from the student's own earlier values (``values``,
    in the order of :attr:`Part.follows`) and the table's fixed ``terms`` (:attr:`Part.ft_terms`);
    None where the formula is undefined for them.

    - coefficients: (P - P_e) / (1 - P_e); alpha: 1 - D_o / D_e;
    - alpha's D_o from the student's n: the off-diagonal coincidences (``terms[0]``) over n;
    - alpha's D_e from n: (n^2 - sum_c n_c^2) / (n (n - 1)), ``terms[0]`` = sum_c n_c^2;
    - a partial question's pooled P_e from the count of labels N: sum_j n_j^2 / N^2, ``terms[0]`` = sum_j
    n_j^2;
    - level 4's second chance rule where it is a formula of the first: AC1's P_e from Fleiss' (1 - P_e) / (q
    - 1)
      and Scott's from AC1's 1 - (q - 1) P_e (``terms[0]`` = q); alpha's D_e with replacement D_e (n - 1) / n.
    - a part a kind's data says is one count over another (``over``: P_o from the agreements and the
      items both labelled): their ratio.

    >>> follow_through_value("kappa", (Fraction(3, 4), Fraction(1, 2)))
    Fraction(1, 2)
    >>> follow_through_value("p_e", (Fraction(10),), (Fraction(52),))
    Fraction(13, 25)
    """
    if quantity in _OVER:
        count, total = values
        return None if total <= 0 else count / total
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
    note : Prose or None
        For a part answered in words whose answer depends on this table: the marker's short line
        for the answer key, after the key points (``Here: κ = 0.571 is moderate agreement...``).
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
    note: Prose | None = None

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
        """The part in a one-page answer key: ``(a) [2] P_o = 7/10 = 0.700``, ``(d) [1] B``, or the key
        points."""
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
        return points + Prose(" Here: ", self.note) if self.note else points

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
class Plan:
    """What a question asks, drawn from its own generator before any table: the chance rule
    (partial), whether the student chooses the coefficient, the extra conceptual part."""

    chance: str = "pooled"
    choose: bool = False
    concept: str | None = None
    tripos: bool = False


def concept_part(
    label: str, c: Concept, worked: Prose | None = None, section: str = "", note: Prose | None = None
) -> Part:
    """A part answered by a choice or in words, from a :class:`Concept` (``worked``, ``note``: see
    :class:`Part`)."""
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
        section=section,
        note=note,
    )


class Builder:
    """A question's parts, built in order ((a), (b), ...) by its kind (:meth:`Kind.parts`).

    ``kind`` is the question's kind, ``drawn`` its table, ``right`` the right values by quantity,
    ``listed`` and ``others`` the usual mistakes and other rules' values by quantity, ``plan`` what it
    asks, ``style`` the generator that picks wordings and shuffles options.
    """

    def __init__(self, kind, drawn, result, right: dict, listed: dict, others: dict, plan: Plan, style):
        self.kind, self.drawn, self.result, self.right = kind, drawn, result, right
        self.listed, self.others, self.plan, self.style = listed, others, plan, style
        self.r = drawn.ratings
        self.a, self.b = self.r.raters[0], self.r.raters[1]
        self.out: list[Part] = []
        #: the heading the next parts are printed under (level 4)
        self.section = "Calculation" if plan.tripos else ""

    def say(self, *wordings: str, **values) -> Prose:
        """One of several wordings of a part (templates for :func:`prose`, ``{a}`` and ``{b}`` the first two
        annotators), chosen by the question's own generator."""
        return prose(wordings[int(self.style.integers(len(wordings)))], a=self.a, b=self.b, **values)

    def words(self, prompt: str | list, **values) -> Prose:
        """A prompt of the data files: a list of wordings (one drawn) or a single one (nothing drawn)."""
        if isinstance(prompt, list):
            return self.say(*prompt, **values)
        return prose(prompt, a=self.a, b=self.b, **values)

    def number(
        self, quantity: str, prompt: Prose, hint: str = "", marks: int | None = None, method: str = ""
    ):
        """A numerical part asking for ``quantity``."""
        self.out.append(
            Part(
                PART_LABELS[len(self.out)],
                quantity,
                prompt,
                self.right[quantity],
                tuple(self.listed[quantity]),
                hint=hint,
                marks=marks or MARKS[quantity],
                skill=SKILL_OF[quantity],
                others=tuple(self.others.get(quantity, ())),
                method=method or self.kind.method(quantity, self.plan.chance, self.r),
                section=self.section,
            )
        )

    def ask(self, quantity: str, words: dict | None = None, marks: int | None = None, **values):
        """The numerical part asking for ``quantity`` in the words of the kind's data file
        (``[parts.<quantity>]``: ``prompt``, one wording or several, and ``hint``)."""
        words = words or self.kind.data["parts"][quantity]
        hint = words.get("hint", "").format(a=self.a, b=self.b)
        self.number(quantity, self.words(words["prompt"], **values), hint, marks or words.get("marks"))

    def concept(self, c: Concept, worked: Prose | None = None, note: Prose | None = None):
        """A part answered by a choice or in words (``worked``, ``note``: see :class:`Part`)."""
        self.out.append(concept_part(PART_LABELS[len(self.out)], c, worked, self.section, note))

    def bank(self, name: str, **values):
        """The conceptual part ``name``: the kind's own (``[own_concepts.<name>]`` of its data file) or
        one of ``content/concepts.toml``."""
        entry = self.kind.data.get("own_concepts", {}).get(name) or BANK[name]
        self.concept(from_bank(entry, self.style, **values))

    def interpretation(self, name: str):
        """Reading a value on the scale that belongs to the kind's coefficient (Krippendorff's for alpha)."""
        self.concept(interpretation(self.style, name, self.kind.scale))

    def design(self):
        """The last section of a level-4 question: designing a study, with the marks the others leave."""
        self.section = "Designing a study"
        marks = TRIPOS_MARKS - sum(p.marks for p in self.out)
        if not 4 <= marks <= 6:  # pragma: no cover - the parts' marks are fixed per kind
            raise RuntimeError(
                f"a level-4 {self.kind.name} question's parts take {TRIPOS_MARKS - marks} marks"
            )
        self.concept(design(self.drawn.topic.items, self.drawn.topic.task, marks))


def follows(parts: tuple, terms: dict | None = None, routes: dict | None = None) -> tuple:
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
