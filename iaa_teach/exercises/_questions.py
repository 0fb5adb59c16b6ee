"""Questions: generation, the parts a student answers, checking, solutions."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from .._markup import Em, Prose, Shown, html_escape, render
from .._validation import check_bool, check_int, check_option, options
from ..ratings import AgreementError, Ratings
from ..rounding import round_half_up
from ..worked import Explanation, Step, ratings_table
from ._answers import decimals_that_match, parse_answer, show_value
from ._concepts import LETTERS, Choice, KeyPoint
from ._generate import KINDS, LEVELS, Draw, check_size, choose_size, draw
from ._kind import WORDS, names
from ._kinds import REGISTRY
from ._mistakes import RULES, mistake_info
from ._parts import (
    MAX_PARTS,
    PROPORTIONS,
    SKILLS,
    Builder,
    Mistake,
    Part,
    Plan,
    follow_through_value,
    follows,
)
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
    "MAX_PARTS",
    "Marking",
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
        plan: "Plan | None" = None,
    ):
        self.kind = kind
        self.plan = plan or Plan()
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
        return REGISTRY[self.kind].title(self)

    # ------------------------------------------------------------ display
    @property
    def instructions(self) -> str:
        """How to answer this question's parts, one clause for each way they are answered (a number, a
        letter, every letter that applies, words): ``"Give numerical answers to 3 decimal places or as
        exact fractions; answer a multiple-choice part with a letter."``."""
        forms = {p.form for p in self.parts}
        text = "; ".join(clause for form, clause in _INSTRUCTIONS.items() if form in forms)
        return text[:1].upper() + text[1:] + "."

    def _blocks(self) -> list:
        """The question, written once: heading, setting, ratings table, parts, instructions."""
        r, t = self.ratings, self.topic
        words = WORDS["setting"]
        if REGISTRY[self.kind].ordinal:
            done = words["rated"].format(
                n=r.n_items, items=t.items, task=t.task, scale=" < ".join(t.categories)
            )
        else:
            done = words["labelled"].format(
                n=r.n_items, items=t.items, task=t.task, categories=names(t.categories, "or")
            )
        number = words["numbers"][r.n_raters - 2] if 2 <= r.n_raters <= 6 else r.n_raters
        first = words["first"].format(number=number, raters=names(r.raters), done=done)
        first += REGISTRY[self.kind].setting(self)
        head = Prose(Em(self.title, strong=True), f" (question {self.id}, level {self.level})")
        parts = []
        starts = {section[1][0].label: section for section in self.sections()}
        for p in self.parts:
            if p.label in starts and len(starts) > 1:
                title, members = starts[p.label]
                parts.append(Prose(Em(f"{title} [{sum(m.marks for m in members)}]", strong=True)))
            parts.append(Prose(Em(f"({p.label})", strong=True), " ", p.prompt, " ", p.mark_tag))
            parts += p.choice_lines()
        total = Prose(Em(f"Total: {self.total_marks} marks.", strong=True), " ", Em(self.instructions))
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
        or unreadable, or all of them right as asked (then the right value is the one to give). Right answers
        given to fewer places than asked lost their A marks where they were given: the values worked from
        them as written (each input as written or exact) are ranges too, so the error costs once. Where the earlier
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
        rights = [self.part(label).answer for label in p.follows]
        if all(v.matches(right) for v, right in zip(values, rights)):
            if all(v.decimals is None or v.decimals >= _PLACES for v in values):
                return None  # right as asked: the right value is the one to give
            # right, but some to fewer places than asked, which lost their A marks there: this part worked
            # from them as written (or from the exact value where the student kept it) is penalised no
            # more (an error is penalised once)
            corners = [()]
            for v, right in zip(values, rights):
                corners = [c + (e,) for c in corners for e in dict.fromkeys((v.value, right))]
            found = {follow_through_value(p.quantity, c, p.ft_terms) for c in corners} - {None}
            return ([(x, x) for x in sorted(found)], p.follows) if found else None
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
            which = "; or ".join(dict.fromkeys(f"{_if_you(m)} (step: {_step(m, p)})" for m in found))
            advice = " ".join(dict.fromkeys(m.info.advice for m in found))
            slip = all(m.id in SLIPS for m in found)
            earned = (
                f" The method earns its {m_marks} mark{'s' if m_marks != 1 else ''}; "
                "the accuracy mark is lost."
                if slip and m_marks
                else ""
            )
            return Feedback(
                p.label,
                "slip" if slip else "mistake",
                f"Not yet: {ans.written} is what you get {which}. {advice}{earned}",
                ids,
                _step(found[0], p),
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
        if p.quantity in _COEFFICIENTS and x > 1:
            return f"{p.symbol} is at most 1. {p.hint}"
        return p.hint

    # ----------------------------------------------------------- solution
    def solution(self) -> "Solution":
        """The worked solution (through :func:`iaa_teach.explain.explain`) and the model answers."""
        return Solution(self)


_INSTRUCTIONS = WORDS["instructions"]
_PLACES = 3
#: Mistakes that are slips in a right method (values rounded too early): the M marks are kept.
SLIPS = ("rounding", "early_rounding")
#: A 3-dp answer this close to the value (2 in the last place) reads as an arithmetic slip: M marks kept.
_SLIP = Fraction(2, 1000)


def _lost(p: "Part") -> str:
    """What a slip or too few decimals costs: the accuracy mark, never the method marks."""
    if p.method_marks:
        marks = f"{p.method_marks} method mark{'s' if p.method_marks != 1 else ''}"
        return f"the accuracy mark is lost, the {marks} kept"
    return "the mark needs the value to 3 dp"


def _if_you(m: "Mistake") -> str:
    """``if you pool the two raters' labels ...``: what gives a number, never an assertion of what was
    done."""
    return f"if you {m.name}"


#: The quantities that are a coefficient, computed in a question's last step.
_COEFFICIENTS = ("kappa", "alpha", "pi", "ac1", "kappa_mlrd", "alpha_repl")


def _step(m: "Mistake", p: Part) -> str:
    """The step where mistake ``m`` happens in part ``p``: the catalogue's, except that a slip the
    catalogue places in the last step (values rounded before it) happens, in a part asking for an
    intermediate value (P_e from rounded p_j), in that value's own working."""
    if m.info.step.startswith("the last step") and p.quantity not in _COEFFICIENTS:
        return f"the working of {p.symbol}"
    return m.info.step


def _other_rule(m: "Mistake") -> str:
    """``with the course notes' (MLRD) rule, ...; this part asks for ...``: another rule, not a mistake."""
    return f"{m.info.name}; this part asks for {m.info.step}"


def _letters(p: Part, answer: Any) -> list[str] | None:
    """The letters an answer names (``"B"``, ``"A, C"``, ``"ac"``), or None when it is not letters of the
    options."""
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
        f"Not marked: no machine can judge an answer in words. Self-mark it by the mark scheme: tick "
        f"the points your answer makes (a mark each, up to {p.marks}). {points}",
        out_of=p.marks,
        points=tuple(k.text for k in p.key_points),
    )


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
    """The working of a question (its kind's :meth:`~._kind.Kind.working`); at level 4 followed by the
    partial coverage and the second chance rule (:meth:`~._kind.Kind.tripos_steps`)."""
    kind = REGISTRY[q.kind]
    main = kind.working(q)
    more = kind.tripos_steps(q) if q.level == 4 else []
    if not more:
        return main
    return Explanation(
        main.title + "; then partial coverage and a second chance rule", [*main.steps, *more], q.result
    )


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
PARTIAL_RULES = REGISTRY["partial"].rules
#: The kinds whose question can make the student choose the coefficient (``choose=True``).
CHOOSABLE = ("cohen", "weighted", "fleiss", "alpha")  # in this order: the quiz draws from them in it
CHOOSABLE += tuple(name for name, kind in REGISTRY.items() if kind.choosable and name not in CHOOSABLE)
#: The quantity holding each kind's coefficient.
COEFFICIENT_OF = {name: kind.coefficient for name, kind in REGISTRY.items()}
#: A level-4 question's second chance rule, by kind: the quantities of its P_e (D_e) and its coefficient.
SECOND_RULE = {
    name: (kind.data["second_rule"]["p_e"], kind.data["second_rule"]["coefficient"])
    for name, kind in REGISTRY.items()
    if "second_rule" in kind.data
}
#: The coefficients whose rounding mistake, listed, makes a table the one to keep (:func:`make_question`).
_ROUNDING_SHOWN = ("kappa", "alpha", "pi", "ac1")


def asks_to_choose(kind: str, seed: int, level: int) -> bool:
    """Whether question ``kind``, ``seed``, ``level`` (drawn as :func:`make_question` draws it by default)
    makes the student choose the coefficient: a cheap look, no table drawn. A widget that names the kind
    it shows (the quiz's dropdown) skips such seeds, and offers them under a name that says no kind.

    >>> asks_to_choose("pi", 3, 3), asks_to_choose("cohen", 3, 1)
    (False, False)
    """
    style = np.random.default_rng([KINDS.index(kind), int(seed), int(level), 12])
    return REGISTRY[kind].plan(int(level), style, None).choose


def _table_is_fit(kind: str, drawn: Draw, right: dict) -> bool:
    r = drawn.ratings
    if (r.counts().sum(axis=0) == 0).any():  # every category used somewhere in the table
        return False
    value = right[COEFFICIENT_OF[kind]]
    if value is None or not COEFFICIENT_RANGE[0] <= value <= COEFFICIENT_RANGE[1]:
        return False
    return REGISTRY[kind].fit(r)


#: What :func:`_candidate` returns for a fit table that cannot improve on the one already chosen.
_LOOKED = object()


def _rounding_can_matter(kind: str, result, right: dict) -> bool:
    """Whether rounding the last step's inputs to 3 decimals can change the coefficient's answer
    (a cheap look before the other mistakes are worked out)."""
    wrong = REGISTRY[kind].rounded_coefficient(result.exact)
    return wrong is not None and _distinguishable(wrong, right[COEFFICIENT_OF[kind]])


def _candidate(kind: str, rng: np.random.Generator, size: dict, plan: Plan, rounding_only: bool = False):
    k = REGISTRY[kind]
    drawn = draw(kind, rng, **size)
    result = k.result(drawn.ratings, drawn.weights, plan.chance)
    value = float(result)  # a cheap look first: the exact values (with their variances) cost more
    if not (float(COEFFICIENT_RANGE[0]) - 1e-9 <= value <= float(COEFFICIENT_RANGE[1]) + 1e-9):
        return None
    right = k.values(result, plan, drawn.ratings)
    if plan.choose:  # the student chooses the coefficient and computes it: one numerical part
        right = {k.coefficient: right[k.coefficient]}
    if not _table_is_fit(kind, drawn, right):
        return None
    if rounding_only and not _rounding_can_matter(kind, result, right):
        return _LOOKED  # only a table where rounding matters could replace the one already chosen
    routes = k.routes(drawn.ratings, result, drawn.weights, plan)
    if plan.tripos:
        more, wrong = k.tripos_values(drawn.ratings, result, drawn.weights)
        right.update(more)
        for key, values in wrong.items():
            routes.setdefault(key, {}).update(values)
    listed, others, ok = _live_mistakes(
        kind, right, routes, k.complete_alpha(drawn.ratings), small=size["level"] == 1
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
    kind : str
        One of ``KINDS``, the kinds registered in ``exercises/_kinds/`` (a
        new kind's module is found there; see CONTRIBUTING.md).
        ``"cohen"``: two raters, Cohen's kappa. ``"weighted"``: two raters on
        an ordered scale, weighted kappa (linear or quadratic). ``"fleiss"``:
        3-5 raters, complete table. ``"alpha"``: Krippendorff's alpha
        (nominal), with missing ratings and a unit with a single rating at
        levels 2-4. ``"partial"``: Fleiss' kappa where annotators cover
        different items (like D and E in the partial-annotation text) and
        some items have a single label, with per-item n_i and the chance
        rule the question names. ``"pi"``: Scott's pi, ``"ac1"``: Gwet's AC1,
        two raters. ``"percent"``: two raters, percent agreement by hand.
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
        differ. Default: drawn (pooled at level 1; "both" drawn at level 3, always
        at level 4).

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
    k = REGISTRY[kind]
    if weights is not None and not k.ordinal:
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
        if not k.rules:
            raise AgreementError(f"chance={chance!r}: only kind='partial' asks for a chance rule")
    seed = secrets.randbelow(2**31) if seed is None else check_int("seed", seed, 0)
    size = {"n_items": n_items, "n_raters": n_raters, "n_categories": n_categories, "weights": weights}
    if not k.ordinal:
        size.pop("weights")
    # one stream per kind, seed and level (level 2 keeps the stream it had before levels)
    rng = np.random.default_rng([KINDS.index(kind), int(seed)] + ([] if level == 2 else [int(level)]))
    # what the question asks (rule, choice, wordings) comes from a stream of its own
    style = np.random.default_rng([KINDS.index(kind), int(seed), int(level), 12])
    plan = k.plan(level, style, choose)
    if chance is not None:
        plan = replace(plan, chance=chance)
    # the size is drawn once per seed; the tables are then drawn at that size
    size["n_items"], size["n_raters"] = choose_size(kind, rng, n_items, n_raters, level)
    size["level"] = level
    if k.missing_from is not None and level >= k.missing_from and not plan.choose:
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
            if any(m.id == "rounding" for qty in _ROUNDING_SHOWN for m in found[4].get(qty, [])):
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
    b = Builder(k, drawn, result, right, listed, others, plan, style)
    k.build(b)
    parts = k.adjust(follows(tuple(b.out), k.ft_terms(result, plan), routes), plan)
    return Question(kind, int(seed), drawn, result, parts, routes, size, level, plan)
