"""Questions: generation, the parts a student answers, checking, solutions."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..markup import SYMBOLS, Em, Math, Prose, Shown, approx, html_escape, prose, render
from ..metrics import cohen_kappa, fleiss_kappa, interpret, krippendorff_alpha
from ..ratings import AgreementError, Ratings
from ..rounding import fmt
from ..validation import check_int, options
from ..words import Explanation, Step, explain, ratings_table
from ._answers import decimals_that_match, parse_answer, show_value
from ._generate import KINDS, LEVELS, Draw, check_size, choose_size, draw
from ._mistakes import ROUTES, MistakeInfo, mistake_info

__all__ = ["Part", "Mistake", "Feedback", "Question", "Solution", "make_question", "MAX_DRAWS", "PREFER_ROUNDING",
           "SKILLS"]

#: What a part practises (:attr:`Part.skill`), in the order a mock exam lists them.
SKILLS = ("counting", "observed agreement", "chance agreement", "coefficient", "interpretation",
          "choice of coefficient", "concepts")

#: How many candidate tables one seed may draw before giving up (never reached in the tests).
MAX_DRAWS = 400
#: After the first good table, how many more to draw looking for one where rounding the
#: intermediate values moves the third decimal of the coefficient (a good exercise on rounding).
PREFER_ROUNDING = 12
#: Mistakes that are listed for a part only where they change its 3-decimal answer;
#: every other mistake must change every answer it touches, or the table is drawn again.
OPTIONAL = ("rounding",)
#: The coefficient must lie in this range (kappa near 0 or 1 makes a dull question).
COEFFICIENT_RANGE = (Fraction(1, 5), Fraction(9, 10))

_TOL3 = Fraction(1, 2000)

#: The symbol of each quantity a part asks for (see :data:`iaa_teach.markup.SYMBOLS`).
QUANTITIES = {"p_o": SYMBOLS["P_o"], "p_e": SYMBOLS["P_e"], "p_a": SYMBOLS["P_a"], "kappa": SYMBOLS["kappa"],
              "n_labels": SYMBOLS["sum_n_i"], "n": SYMBOLS["n"], "d_o": SYMBOLS["D_o"], "d_e": SYMBOLS["D_e"],
              "alpha": SYMBOLS["alpha"]}
PROPORTIONS = ("p_o", "p_e", "p_a", "d_o", "d_e")
#: The marks of a numerical part, by quantity (a step with more working is worth more).
MARKS = {"p_o": 2, "p_a": 3, "p_e": 3, "kappa": 2, "n": 2, "n_labels": 1, "d_o": 2, "d_e": 3, "alpha": 2}
#: The skill (:data:`SKILLS`) of a numerical part, by quantity.
SKILL_OF = {"p_o": "observed agreement", "p_a": "observed agreement", "d_o": "observed agreement",
            "p_e": "chance agreement", "d_e": "chance agreement", "kappa": "coefficient", "alpha": "coefficient",
            "n": "counting", "n_labels": "counting"}
COUNTS = ("n", "n_labels")


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
        None for a part answered in words.
    prompt : Prose
        The question, written once (``prompt.text()``, ``.markdown()``, ``.html()``).
    answer : Fraction or None
        The right answer, from the core metric's ``exact`` values.
    mistakes : tuple of Mistake
        The usual mistakes that give a different answer to this part.
    model_answer : Prose or None
        For a part answered in words: a model answer (``str()`` gives its plain text).
    hint : str
        What to check when an answer is wrong and no usual mistake explains it.
    marks : int
        The marks the part is worth (shown as ``[2]`` after its prompt).
    skill : str
        What the part practises, one of :data:`SKILLS` (``"chance agreement"``...):
        a mock exam adds up the marks by skill.
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

    @property
    def numeric(self) -> bool:
        return self.quantity is not None

    @property
    def symbol(self) -> str:
        return QUANTITIES[self.quantity].txt if self.quantity else ""

    def answer_line(self) -> Prose:
        """``(a) P_o = 7/10 = 0.700``, or ``(d)`` and the model answer for a part answered in words."""
        if not self.numeric:
            return Prose(Em(f"({self.label})", strong=True), " ", self.model_answer)
        return Prose(Em(f"({self.label})", strong=True), " ", QUANTITIES[self.quantity] + " = " + approx(self.answer))


@dataclass(frozen=True)
class Feedback:
    """What :meth:`Question.check` says about one answer.

    Attributes
    ----------
    part : str
    status : {"correct", "mistake", "wrong", "unreadable", "words"}
        ``"mistake"``: the answer is what a usual mistake gives (named in
        ``mistakes``); ``"wrong"``: no usual mistake explains it (``message``
        holds a hint); ``"words"``: a part answered in words, which is not
        marked automatically (``message`` holds the model answer).
    message : str
        One or two sentences for the student.
    mistakes : tuple of str
        Ids of the recognised mistakes (see :data:`MISTAKES`).
    step : str or None
        The step of the working where the recognised mistake happens.
    """

    part: str
    status: str
    message: str
    mistakes: tuple = ()
    step: str | None = None

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def __str__(self) -> str:
        return self.message

    def html(self) -> str:
        color = {"correct": "#1a7f37", "mistake": "#8a3b00", "wrong": "#b3261e"}.get(self.status, "#444")
        return (f'<div class="iaa-feedback iaa-{self.status}" style="color:{color}">'
                f"({html_escape(self.part)}) {html_escape(self.message)}</div>")

    def _repr_html_(self) -> str:
        return self.html()


# ================================================================ question
class Question(Shown):
    """An exam-style question on one ratings table, with its parts, answers and checker.

    Build one with :func:`make_question`. ``question.ratings`` is the table;
    ``text()``, ``markdown()`` and ``html()`` give the question as a student
    sees it; ``solution()`` the worked solution; ``check(part, answer)`` marks
    an answer and names the usual mistake behind a wrong one.
    """

    def __init__(self, kind: str, seed: int, drawn: Draw, result: Any, parts: tuple, routes: dict,
                 size: dict, level: int = 2):
        self.kind = kind
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
        if isinstance(label, (int, np.integer)) and not isinstance(label, bool):
            if 0 <= label < len(self.parts):
                return self.parts[int(label)]
        elif isinstance(label, str):
            key = label.strip().strip("()").lower()
            for p in self.parts:
                if p.label == key:
                    return p
        raise AgreementError(f"this question has parts {[p.label for p in self.parts]}, not {label!r}")

    @property
    def id(self) -> str:
        """``"fleiss-12"`` (level 2), ``"fleiss-12-L3"``: what :func:`make_question` needs to draw it again."""
        return f"{self.kind}-{self.seed}" + ("" if self.level == 2 else f"-L{self.level}")

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

    def answers(self) -> dict[str, Fraction]:
        """The right answer of every numerical part, exact: ``{"a": Fraction(7, 10), ...}``."""
        return {p.label: p.answer for p in self.parts if p.numeric}

    @property
    def title(self) -> str:
        return {"cohen": "Cohen's kappa", "weighted": f"Weighted kappa ({self.weights} weights)",
                "fleiss": "Fleiss' kappa",
                "alpha": "Krippendorff's alpha" + (" with missing ratings" if self.ratings.missing.any() else ""),
                "partial": "Fleiss' kappa with partial annotation"}[self.kind]

    # ------------------------------------------------------------ display
    def _blocks(self) -> list:
        """The question, written once: heading, setting, ratings table, parts, instructions."""
        r, t = self.ratings, self.topic
        cats = (" < ".join(t.categories) if self.kind == "weighted"
                else ", ".join(t.categories[:-1]) + " or " + t.categories[-1])
        who = "Two annotators" if r.n_raters == 2 else f"{_NUMBERS.get(r.n_raters, r.n_raters)} annotators"
        if self.kind == "weighted":
            first = f"{who}, {_names(r.raters)}, rated {r.n_items} {t.items} for {t.task} on the ordered scale {cats}."
        else:
            first = f"{who}, {_names(r.raters)}, labelled {r.n_items} {t.items} for {t.task} as {cats}."
        if self.kind == "alpha" and r.missing.any():
            first += " Some ratings are missing (shown as –)."
        elif self.kind == "partial":
            full = [x for x in r.raters if self.coverage.get(x, (1, r.n_items)) == (1, r.n_items)]
            spans = " and ".join(f"{x} only items {a}-{b}" for x, (a, b) in self.coverage.items()
                                 if (a, b) != (1, r.n_items))
            first += f" {_names(full)} labelled every item, {spans} (– marks an item an annotator did not label)."
        head = Prose(Em(self.title, strong=True), f" (question {self.id}, level {self.level})")
        parts = [Prose(Em(f"({p.label})", strong=True), " ", p.prompt, " ", _marks(p.marks)) for p in self.parts]
        total = Prose(Em(f"Total: {self.total_marks} marks.", strong=True), " ", Em(_INSTRUCTIONS))
        return [head, Prose(first), ratings_table(r), *parts, total]

    def render(self, form: str, math: str = "tex") -> str:
        """The question as a student sees it, in one output (``"text"``, ``"markdown"``, ``"html"``)."""
        body = render(self._blocks(), form, math, sep="\n\n" if form == "text" else None)
        return f'<div class="iaa-question">{body}</div>' if form == "html" else body + "\n"

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return (f"<Question {self.kind}-{self.seed} (level {self.level}, {self.total_marks} marks): "
                f"{self.ratings.n_items} items x {self.ratings.n_raters} raters>")

    # -------------------------------------------------------------- check
    def mistakes(self, part: Any) -> tuple[Mistake, ...]:
        """The usual mistakes that :meth:`check` recognises in ``part`` for this question."""
        return self.part(part).mistakes

    def check(self, part: Any, answer: Any) -> Feedback:
        """Mark ``answer`` to ``part``.

        A right answer is accepted written to 2 or 3 decimals (``"0.49"``,
        ``"0.492"``), as a fraction (``"29/59"``) or exactly (an int or
        Fraction). Otherwise the answer is compared with what each usual
        mistake gives in this part; the feedback names the mistake and the
        step where it happens, or gives a hint when no usual mistake explains
        the answer. It never gives the right answer away.

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
        if not p.numeric:
            return Feedback(p.label, "words", "This part is answered in words and not marked automatically. "
                            f"Model answer: {p.model_answer}")
        try:
            ans = parse_answer(answer)
        except AgreementError as exc:
            return Feedback(p.label, "unreadable", str(exc))
        sym = p.symbol
        if ans.matches(p.answer):
            return Feedback(p.label, "correct", f"Correct: {sym} = {show_value(p.answer)}.")
        found = [m for m in p.mistakes if ans.matches(m.value)]
        if found:
            ids = tuple(dict.fromkeys(m.id for m in found))
            steps = tuple(dict.fromkeys(m.info.step for m in found))
            which = "; or ".join(f"{m.name} (step: {m.info.step})" for m in found)
            advice = " ".join(dict.fromkeys(m.info.advice for m in found))
            lead = "a usual mistake" if len(found) == 1 else "one of these usual mistakes"
            return Feedback(p.label, "mistake",
                            f"Not yet: {ans.written} is what you get by {lead}: {which}. {advice}", ids, steps[0])
        return Feedback(p.label, "wrong", f"Not yet. {self._hint(p, ans)}")

    def _hint(self, p: Part, ans) -> str:
        v, x = p.answer, ans.value
        if ans.decimals is not None and ans.decimals < 2:
            scale = 10 ** ans.decimals
            if abs(x - v) <= Fraction(1, 2 * scale):
                return "Give the value to 2 or 3 decimals, or as a fraction."
        if p.quantity in PROPORTIONS and ans.decimals is not None and abs(x / 100 - v) <= Fraction(1, 200) \
                and x > 1:
            return f"That looks like a percentage: {p.symbol} is a proportion between 0 and 1."
        for other in self.parts:
            if other is not p and other.numeric and ans.matches(other.answer) and other.answer != v:
                return f"That is the value of {other.symbol}, part ({other.label}); this part asks for {p.symbol}."
        if p.quantity in PROPORTIONS and not 0 <= x <= 1:
            return f"{p.symbol} is a proportion: it lies between 0 and 1. {p.hint}"
        if p.quantity in ("kappa", "alpha") and x > 1:
            return f"{p.symbol} is at most 1. {p.hint}"
        if ans.decimals is not None and abs(x - v) <= 2 * ans.tolerance():
            return ("Close, but not right to the decimals you gave: keep the intermediate values exact "
                    "and round only the final answer (round, don't truncate).")
        return p.hint

    # ----------------------------------------------------------- solution
    def solution(self) -> "Solution":
        """The worked solution (through :func:`iaa_teach.explain.explain`) and the model answers."""
        return Solution(self)


_INSTRUCTIONS = "Give numerical answers to 3 decimal places or as exact fractions."


def _marks(n: int) -> str:
    """A part's marks as printed after its prompt: ``[2]``."""
    return f"[{n}]"
_NUMBERS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}


def _names(raters) -> str:
    raters = [str(x) for x in raters]
    return raters[0] if len(raters) == 1 else ", ".join(raters[:-1]) + " and " + raters[-1]


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
        self.explanation: Explanation = explain(question.result)
        self.answers = question.answers()
        answers = Step(Prose("Answers"), tuple(p.answer_line() for p in question.parts))
        self.steps: list[Step] = [*self.explanation.steps, answers]
        title = f"Worked solution, question {question.kind}-{question.seed}: {self.explanation.title}"
        self._document = Explanation(title, self.steps, question.result)

    def render(self, form: str, math: str = "tex") -> str:
        """The worked solution in one output: the explanation's steps, then the answers."""
        out = self._document.render(form, math)
        return f'<div class="iaa-solution">{out}</div>' if form == "html" else out

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.text()


# =============================================================== building
def _distinguishable(a: Fraction, b: Fraction) -> bool:
    """No 3-decimal number a student could write for one is accepted for the other."""
    return (all(abs(x - b) > _TOL3 for x in decimals_that_match(a))
            and all(abs(x - a) > _TOL3 for x in decimals_that_match(b)))


def _live_mistakes(kind: str, right: dict, routes: dict, complete_alpha: bool = False) -> tuple[dict, bool]:
    """Per quantity, the mistakes to list; and whether the table is good for them.

    Every non-optional mistake must be distinguishable from the right answer
    and from the other mistakes in every quantity it changes; an optional one
    is listed only where it is distinguishable from the right answer (where it
    happens to agree with another mistake, feedback names both).

    ``complete_alpha``: an alpha question on a complete table, where some mistakes
    cannot happen (no single value to count) or coincide by construction (the code
    text's route is then Fleiss' D_e; unweighted pairs leave D_o as it is): a
    mistake is then left out where it gives the right value, and two that give the
    same value are both named.
    """
    listed: dict[str, list[Mistake]] = {q: [] for q in right}
    for key, values in routes.items():
        mid, _, variant = key.partition(":")
        optional = mid in OPTIONAL
        if complete_alpha and all(values[q] == right[q] for q in values if q in right):
            continue  # the mistake makes no difference on this table (no single value to count)
        for qty, value in values.items():
            if qty not in right or (complete_alpha and value == right[qty]):
                continue  # not a part this mistake changes on this table
            if value is None:
                if optional:
                    continue
                return listed, False
            if not _distinguishable(value, right[qty]):
                if optional:
                    continue
                return listed, False
            same = [i for i, m in enumerate(listed[qty]) if m.id == mid and m.value == value]
            if same:  # two variants of one mistake agree here: list it once, without the variant
                listed[qty][same[0]] = Mistake(mid, None, Fraction(value), mistake_info(kind, mid))
                continue
            listed[qty].append(Mistake(mid, variant or None, Fraction(value), mistake_info(kind, mid)))
    for qty, ms in listed.items():
        required = [m for m in ms if m.id not in OPTIONAL]
        for i, a in enumerate(required):
            for b in required[i + 1:]:
                if not (complete_alpha and a.value == b.value) and not _distinguishable(a.value, b.value):
                    return listed, False
        listed[qty] = required + [m for m in ms if m.id in OPTIONAL]
    return listed, True


def _core_result(kind: str, r: Ratings, weights: str | None):
    if kind in ("cohen", "weighted"):
        return cohen_kappa(r, 0, 1, weights=weights)
    if kind in ("fleiss", "partial"):
        return fleiss_kappa(r, chance="pooled")
    return krippendorff_alpha(r, "nominal")


def _right_values(kind: str, result) -> dict[str, Fraction]:
    ex = result.exact
    if kind in ("cohen", "weighted"):
        return {"p_o": ex.p_o, "p_e": ex.p_e, "kappa": ex.kappa}
    if kind == "fleiss":
        return {"p_a": ex.p_a, "p_e": ex.p_e, "kappa": ex.kappa}
    if kind == "partial":
        return {"p_a": ex.p_a, "n_labels": Fraction(result.n_ratings), "p_e": ex.p_e, "kappa": ex.kappa}
    return {"n": Fraction(ex.n), "d_o": ex.d_o, "d_e": ex.d_e, "alpha": ex.alpha}


def _table_is_fit(kind: str, drawn: Draw, result) -> bool:
    r = drawn.ratings
    if (r.counts().sum(axis=0) == 0).any():  # every category used somewhere in the table
        return False
    value = result.exact.alpha if kind == "alpha" else result.exact.kappa
    if value is None or not COEFFICIENT_RANGE[0] <= value <= COEFFICIENT_RANGE[1]:
        return False
    if kind == "partial":  # the merge must matter: the two partial annotators disagree on a shared item
        codes = r.codes
        both = (codes[:, -2] >= 0) & (codes[:, -1] >= 0)
        if not (codes[both, -2] != codes[both, -1]).any():
            return False
    return True


def _candidate(kind: str, rng: np.random.Generator, size: dict):
    drawn = draw(kind, rng, **size)
    result = _core_result(kind, drawn.ratings, drawn.weights)
    if not _table_is_fit(kind, drawn, result):
        return None
    right = _right_values(kind, result)
    if kind in ("cohen", "weighted"):
        routes = ROUTES[kind](drawn.ratings, result.exact, drawn.weights)
    else:
        routes = ROUTES[kind](drawn.ratings, result.exact)
    listed, ok = _live_mistakes(kind, right, routes, kind == "alpha" and not drawn.ratings.missing.any())
    if not ok:
        return None
    return drawn, result, right, routes, listed


def _rounding_matters(listed: dict) -> bool:
    return any(m.id == "rounding" for m in listed.get("kappa", listed.get("alpha", [])))


@options(kind=KINDS, weights=(None, "linear", "quadratic"), level=LEVELS)
def make_question(kind: str, seed: int | None = None, *, level: int = 2, n_items: int | None = None,
                  n_raters: int | None = None, n_categories: int | None = None,
                  weights: str | None = None) -> Question:
    """A fresh exam-style question; the same ``kind`` and ``seed`` give the same question.

    Parameters
    ----------
    kind : {"cohen", "fleiss", "alpha", "partial", "weighted"}
        ``"cohen"``: two raters, Cohen's kappa. ``"weighted"``: two raters on
        an ordered scale, weighted kappa (linear or quadratic). ``"fleiss"``:
        3-5 raters, complete table. ``"alpha"``: Krippendorff's alpha
        (nominal) with missing ratings, including a unit with a single
        rating. ``"partial"``: Fleiss' kappa where the last two annotators
        cover different item ranges (like D and E in the partial-annotation
        text), with per-item k and P_e from all labels.
    seed : int, optional
        Seed of the :class:`numpy.random.Generator` that draws the table. None
        draws a fresh seed (kept in ``question.seed``).
    level : {1, 2, 3}
        Difficulty (sizes in ``LEVEL_SIZES``): 1 is 4-6 items, 2 categories,
        complete; 2 (the default, the sizes questions had before levels) is
        8-12 items, 2-4 categories; 3 is exam size, 10-15 items, 3-4
        categories. ``alpha`` has missing ratings and ``partial`` partial
        coverage at levels 2 and 3 (``partial`` at every level).
    n_items, n_raters, n_categories : int, optional
        Fix the size (defaults: the level's ranges); limits in ``SIZE_LIMITS``.
    weights : {"linear", "quadratic"}, optional
        For ``kind="weighted"`` (default: drawn).

    Returns
    -------
    Question

    Notes
    -----
    A table is drawn again until it makes a good question: every category is
    used, the coefficient lies between 0.2 and 0.9, and every usual mistake
    the kind is checked for changes the 3-decimal answer of every part it
    touches (so :meth:`Question.check` can recognise it) and differs from the
    other mistakes. Rounding the intermediate values changes the coefficient's
    third decimal only for some tables: after the first good table up to
    :data:`PREFER_ROUNDING` more are drawn looking for one where it does; if
    none does, the rounding mistake is not listed for that question (the
    rounded working then gives the right 3-decimal answer, and ``check``
    accepts it).

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
        raise AgreementError(f"weights={weights!r}: only kind='weighted' takes weights, 'linear' or 'quadratic'")
    if kind == "partial" and n_raters is not None and n_raters < 4:
        raise AgreementError("a 'partial' question needs at least 4 annotators (2 full, 2 partial)")
    seed = secrets.randbelow(2**31) if seed is None else check_int("seed", seed, 0)
    size = {"n_items": n_items, "n_raters": n_raters, "n_categories": n_categories, "weights": weights}
    if kind != "weighted":
        size.pop("weights")
    # one stream per kind, seed and level (level 2 keeps the stream it had before levels)
    rng = np.random.default_rng([KINDS.index(kind), int(seed)] + ([] if level == 2 else [int(level)]))
    # the size is drawn once per seed; the tables are then drawn at that size
    size["n_items"], size["n_raters"] = choose_size(kind, rng, n_items, n_raters, level)
    size["level"] = level
    chosen = None
    extra = 0
    for _ in range(MAX_DRAWS):
        found = _candidate(kind, rng, size)
        if found is None:
            continue
        if chosen is None:
            chosen = found
        if _rounding_matters(found[4]):
            chosen = found
            break
        extra += 1
        if extra > PREFER_ROUNDING:
            break
    if chosen is None:
        raise AgreementError(f"no good {kind!r} table found in {MAX_DRAWS} draws for seed {seed} and "
                             f"size {size}: try another seed or size")
    drawn, result, right, routes, listed = chosen
    parts = _parts(kind, drawn, result, right, listed, routes)
    return Question(kind, int(seed), drawn, result, parts, routes, size, level)


# ================================================================== parts
_KAPPA_HINT = ("Check the last step: kappa = (P_o - P_e) / (1 - P_e), with P_o and P_e as proportions "
               "and kept exact until the end.")


def _parts(kind: str, drawn: Draw, result, right: dict, listed: dict, routes: dict) -> tuple[Part, ...]:
    r = drawn.ratings
    a, b = r.raters[0], r.raters[1]

    def part(label, quantity, prompt, hint="", model=None, skill="concepts"):
        if quantity is None:
            return Part(label, None, prompt, model_answer=model, marks=2, skill=skill)
        return Part(label, quantity, prompt, right[quantity], tuple(listed[quantity]), hint=hint,
                    marks=MARKS[quantity], skill=SKILL_OF[quantity])

    def fleiss_kappa_part(label):
        return part(label, "kappa", prose("Compute Fleiss' kappa {kappa}."), _KAPPA_HINT.replace("P_o", "P_a"))

    pooled_hint = "p_j = (labels in category j) / (all labels); P_e = sum_j p_j^2."
    if kind == "cohen":
        return (
            part("a", "p_o", prose("Draw the agreement table of {a} against {b} and compute the observed agreement "
                                   "{P_o}.", a=a, b=b),
                 "P_o is the share of items on which the two annotators give the same label: the diagonal "
                 "of the agreement table over the number of items."),
            part("b", "p_e", prose("Compute each annotator's marginal proportions and the chance agreement {P_e}."),
                 f"P_e = sum over categories of ({a}'s proportion) x ({b}'s proportion): row total x column "
                 f"total / N^2."),
            part("c", "kappa", prose("Compute Cohen's kappa {kappa}."), _KAPPA_HINT),
            part("d", None, prose("Interpret the value. Why is {kappa} lower than {P_o}?"), model=_model_cohen(result),
                 skill="interpretation"),
        )
    if kind == "weighted":
        form = (Math(r"w_{ij} = 1 - \frac{|i-j|}{k-1}", "w_ij = 1 - |i - j| / (k - 1)") if drawn.weights == "linear"
                else Math(r"w_{ij} = 1 - \frac{(i-j)^2}{(k-1)^2}", "w_ij = 1 - (i - j)^2 / (k - 1)^2"))
        return (
            part("a", "p_o", prose("Using {weights} agreement weights {form} (here {k}), draw the agreement table of "
                                   "{a} against {b} and compute the weighted observed agreement {P_o}.",
                                   weights=drawn.weights, form=form, k=Math(f"k = {r.n_categories}"), a=a, b=b),
                 "P_o = sum of w_ij x n_ij over all cells, divided by N: near misses count partly."),
            part("b", "p_e", prose("Compute the weighted chance agreement {P_e} from {a}'s and {b}'s marginals.",
                                   a=a, b=b),
                 "P_e = sum of w_ij x (row total i) x (column total j) over all cells, divided by N^2."),
            part("c", "kappa", prose("Compute the weighted kappa {kappa_w}."), _KAPPA_HINT),
            part("d", None, Prose("Why do weights suit these categories, and what do they change here?"),
                 model=_model_weighted(drawn.weights, result, routes)),
        )
    if kind == "fleiss":
        return (
            part("a", "p_a", prose("Compute the agreement {P_i} of each item and their mean {P_a}."),
                 "P_i = (sum_j n_ij^2 - n) / (n (n - 1)) with n raters per item; P_a is the mean over items."),
            part("b", "p_e", prose("Compute the proportion {p_j} of all labels in each category, and the chance "
                                   "agreement {P_e}."), pooled_hint),
            fleiss_kappa_part("c"),
            part("d", None, Prose("Cohen's kappa takes chance agreement from each rater's own proportions. Why does "
                                  "Fleiss' kappa pool all the labels instead?"), model=_model_fleiss(r, result)),
        )
    if kind == "partial":
        return (
            part("a", "p_a", prose("Compute the agreement {P_i} of each item, using the number of annotators {n_i} "
                                   "who labelled it, and their mean {P_a}."),
                 "P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)) with n_i the labels item i received."),
            part("b", "n_labels", prose("How many labels does the table hold in all ({sum_n_i})?"),
                 "Count the labels actually given: every annotator's items, no missing cells."),
            part("c", "p_e", prose("Compute the category proportions {p_j} over all the labels, and the chance "
                                   "agreement {P_e}."), pooled_hint),
            fleiss_kappa_part("d"),
            part("e", None, prose("Why would it be wrong to merge {a} and {b} into a single annotator?",
                                  a=r.raters[-2], b=r.raters[-1]), model=_model_partial(r, result, routes)),
        )
    lonely = [str(item) for item, mu in zip(r.items, (~r.missing).sum(axis=1)) if mu == 1]
    weight = Math("1/(m_u - 1)", "1 / (m_u - 1)")
    return (
        part("a", "n", prose("Build the coincidence matrix, weighting each unit's ordered pairs of values by {w}. "
                             "How many pairable values {n} does it hold?", w=weight),
             "n counts the values in units with at least two values; it is also the total of the coincidence matrix."),
        part("b", "d_o", prose("Compute the observed disagreement {D_o}."),
             "D_o = (sum of the off-diagonal coincidences) / n."),
        part("c", "d_e", prose("Compute the expected disagreement {D_e}."),
             "D_e = (n^2 - sum_c n_c^2) / (n (n - 1)), with n_c the row totals of the coincidence matrix."),
        part("d", "alpha", prose("Compute Krippendorff's alpha {alpha} (nominal)."),
             "alpha = 1 - D_o / D_e, with D_o and D_e kept exact until the end."),
        part("e", None, prose("Item {items} has a single rating. What does it contribute, and why are each unit's "
                              "pairs weighted by {w}?", items=_names(lonely), w=weight), model=_model_alpha(r, result))
        if lonely else
        part("e", None, Prose("This table is complete. Would Fleiss' kappa on it give the same value as "
                              "Krippendorff's alpha? Why, or why not?"), model=_model_alpha_fleiss()),
    )


# ============================================================ model answers
def _model_cohen(result) -> Prose:
    ex = result.exact
    return prose("{kappa} = {kappa_v} is {band} agreement on the Landis and Koch scale. {P_o} = {p_o} counts every "
                 "agreement, including those two annotators would reach by chance if each labelled at random with "
                 "their own proportions ({P_e} = {p_e}). Kappa keeps only the agreement beyond chance, {beyond}, as a "
                 "share of the most that was possible beyond chance, {most}; so it is lower than {P_o} whenever "
                 "{p_e_pos} and {p_o_low}.", kappa_v=fmt(ex.kappa), band=interpret(float(ex.kappa)), p_o=fmt(ex.p_o),
                 p_e=fmt(ex.p_e), beyond=Math("P_o - P_e"), most=Math("1 - P_e"), p_e_pos=Math("P_e > 0"),
                 p_o_low=Math("P_o < 1"))


def _model_weighted(weights: str, result, routes: dict) -> Prose:
    plain = routes["unweighted"]["kappa"]
    other_name = "quadratic" if weights == "linear" else "linear"
    other = routes["other_weights"]["kappa"]
    k = len(result.categories)
    return Prose(f"The categories are ordered, so a disagreement between neighbouring categories is less serious "
                 f"than one between the ends of the scale; weights give near misses partial credit. Here the "
                 f"{weights}-weighted kappa is {fmt(result.exact.kappa)}, against {fmt(plain)} unweighted (every "
                 f"disagreement counted in full) and {fmt(other)} with {other_name} weights. Quadratic weights give "
                 f"a one-step miss more credit than linear ones ({fmt(1 - Fraction(1, (k - 1) ** 2))} against "
                 f"{fmt(1 - Fraction(1, k - 1))} here) and both give none to a miss across the whole scale; "
                 f"the choice of weights should be fixed before looking at the data.")


def _model_fleiss(r: Ratings, result) -> Prose:
    return prose("Fleiss' kappa treats the raters as interchangeable: it asks how likely two labels drawn at random "
                 "from all {labels} labels are to agree, so each category's chance share is its share of all labels "
                 "({P_e} = {p_e}). Cohen's chance term belongs to one fixed pair of raters with their own habits; "
                 "with {raters} raters (or different raters per item) there is no single pair, and averaging "
                 "pairwise Cohen-style terms measures a different thing.",
                 labels=result.n_ratings, p_e=fmt(result.exact.p_e), raters=r.n_raters)


def _model_partial(r: Ratings, result, routes: dict) -> Prose:
    pa, pb = r.raters[-2], r.raters[-1]
    return prose("{a} and {b} are two different people, who may have worked at different times and under different "
                 "instructions; a merged annotator is not a real rater. Where both labelled an item one label must "
                 "be thrown away, and which one is an arbitrary choice: keeping {a}'s gives {kappa} = {keep_a}, "
                 "keeping {b}'s gives {keep_b}, against {right} with both kept as separate annotators. The merged "
                 "column also mixes two people's habits in proportions set by how many items each covered. Instead "
                 "keep them apart and use the per-item number of labels {n_i} in {P_i} and all {labels} labels in "
                 "{p_j}.", a=pa, b=pb, keep_a=fmt(routes[f"merged:{pa}"]["kappa"]),
                 keep_b=fmt(routes[f"merged:{pb}"]["kappa"]), right=fmt(result.exact.kappa), labels=result.n_ratings)


def _model_alpha_fleiss() -> Prose:
    return prose("No, not quite. Both compare the observed agreement with chance agreement from the pooled "
                 "category proportions, but alpha draws its chance pairs without replacement, from {n} values "
                 "over {nn} ordered pairs, while Fleiss' kappa takes {P_e} as {sum_p2} (with replacement). "
                 "On a complete table {rel}: alpha is a little higher, and the two agree only as {n} grows.",
                 nn=Math("n (n - 1)"), sum_p2=Math(r"\sum_j p_j^2", "Σ_j p_j²"),
                 rel=Math(r"1 - \alpha = (1 - \kappa) \frac{n - 1}{n}", "1 - α = (1 - κ)(n - 1)/n"))


def _model_alpha(r: Ratings, result) -> Prose:
    return prose("A unit with a single value has no pair of values to compare, so it adds nothing to the "
                 "coincidence matrix: its value is not pairable and does not count in {n} or in the {n_c}. A unit "
                 "with {m_u} values has {pairs} ordered pairs, and each value takes part in {m_1} of them; dividing "
                 "by {m_1} makes every pairable value count once, whatever the size of its unit, so units with more "
                 "ratings do not weigh more and the matrix adds up to {N}.", n=Math(f"n = {int(result.n)}"),
                 pairs=Math("m_u (m_u - 1)"), m_1=Math("m_u - 1"), N=SYMBOLS["n"])
