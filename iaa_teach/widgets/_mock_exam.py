"""A mock exam: several seeded questions against the clock, marked at the end, part by part.

Like the quiz, the mock exam computes nothing itself: questions, marks and
feedback come from :mod:`iaa_teach.exercises` (``make_question``,
``Question.check``, ``Part.marks``, ``Part.skill``). Unlike the quiz it says
nothing while the student works: answers are marked when the student presses
**finish**, or when time is found to be up.

The time limit is shown by a countdown that ticks
in the browser; the kernel keeps the deadline and checks it on every answer
typed and every button pressed, so no thread runs in the background. The
first of these after the deadline marks the exam with the answers as they
stood; it is not counted itself.

Every control has an accessible name (the answer boxes are named by their
part, the buttons by their text); the results are labelled tables (marks per
part, then marks by skill) written with :class:`iaa_teach.markup.Table`.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Callable, Sequence

import ipywidgets as w
import numpy as np

from .._markup import Table, html_escape
from .._validation import check_int, check_number, check_option
from ..exercises import (
    KINDS,
    LEVELS,
    MINUTES_PER_MARK,
    Marking,
    MistakeLog,
    Question,
    default_minutes,
    make_question,
)
from ..exercises._questions import SKILLS
from ..rounding import fmt
from ._base import FONT_SIZE, check_font_size, static_picture, widget_bundle
from ._controls import Countdown, clock_text
from ._quiz import AnswerRows, check_kinds, exam_css, open_log, record_answer, tick_boxes

__all__ = ["MockExam", "MINUTES_PER_MARK"]

_STREAM = 0x6D6F636B  # "mock": seeds the choice of kinds
#: Most questions in one mock exam.
MAX_QUESTIONS = 10

#: The mock exam's own rules in the quiz's sheet (:data:`~iaa_teach.widgets._quiz.EXAM_CSS`): the results, the marks.
_OWN_CSS = {
    "tables": """{c} table caption {{ font-weight: bold; text-align: left; padding: 0.3em 0; }}
{c} .iaa-mock-result td, {c} .iaa-mock-result th {{ text-align: left; vertical-align: top; }}
{c} .iaa-mock-result tr > :first-child {{ white-space: nowrap; }}
{c} .iaa-mock-result .iaa-skills tr > :not(:first-child) {{ text-align: right; }}
{c} .iaa-mock-result > .widget-htmlmath-content {{ flex: 1 1 auto; min-width: 0; }}
{c} .iaa-per-part {{ container-type: inline-size; }}
{c} .iaa-per-part table {{ width: 100%; }}
{c} .iaa-per-part thead th:nth-child(4) {{ width: 14%; }}
{c} .iaa-per-part thead th:nth-child(5) {{ width: 52%; }}
{c} .iaa-per-part tbody th, {c} .iaa-per-part td:nth-child(6) {{ white-space: nowrap; }}
@container (max-width: 54em) {{
{c} .iaa-per-part thead {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }}
{c} .iaa-per-part table, {c} .iaa-per-part tbody, {c} .iaa-per-part caption {{ display: block; }}
{c} .iaa-per-part tbody tr {{ display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 0.6em;
    border-top: 1px solid #bbb; padding: 0.3em 0; }}
{c} .iaa-per-part tbody tr > * {{ border: none; padding: 0; }}
{c} .iaa-per-part tbody tr > :nth-child(6) {{ order: 1; margin-left: auto; }}
{c} .iaa-per-part tbody tr > :nth-child(4), {c} .iaa-per-part tbody tr > :nth-child(5) {{ order: 2;
    flex: 1 0 100%; }}
{c} .iaa-per-part tbody td:nth-child(4)::before {{ content: "your answer: "; font-style: italic; }}
}}
""",
    "labels": ", {c} .widget-textarea .widget-label",
    "boxes": """{c} .iaa-marks {{ color: #444; margin-left: 0.6em; }}
{c} .iaa-total {{ font-size: 1.2em; font-weight: bold; }}
""",
    "end": """{c} .iaa-question-table th, {c} .iaa-question-table td {{ text-align: center; }}
""",
}


#: The plain text's width (:meth:`MockExam.text`): the marks table wraps the answers and feedback to fit.
TEXT_WIDTH = 100
_ANSWER_WIDTH, _FEEDBACK_MIN = 16, 24


class MockExam:
    """A timed session of ``n_questions`` exam questions, marked at the end with a breakdown by skill.

    Parameters
    ----------
    n_questions : int
        How many questions (1 to 10).
    seed : int
        Question ``i`` (from 0) is ``make_question(kind_i, seed + i, level=level)``;
        the kinds are a seeded shuffle of ``kinds`` (or, with a log, drawn from
        its Leitner boxes), so the same arguments give the same exam.
    kinds : sequence of str
        The kinds of question to draw from.
    level : {1, 2, 3, 4}
        Difficulty (see :func:`iaa_teach.exercises.make_question`).
    minutes : float, optional
        The time allowed (default: :data:`MINUTES_PER_MARK` per mark, rounded up).
    log : MistakeLog or bool, optional
        The opt-in mistake log: the marked answers are recorded in it and the
        kinds are drawn from its boxes. ``True`` opens the default log.
    font_size : str
        CSS font size (large enough for a projector).
    clock : callable
        Seconds since the epoch (default :func:`time.time`; tests pass their own).

    Attributes
    ----------
    widget : ipywidgets.VBox
    questions : list of Question
    answers : dict
        Part label -> the answer box shown for the current question.
    start_button, previous_button, next_button, finish_button : ipywidgets.Button
    countdown : Countdown
    question_html, status, result_html : ipywidgets.HTMLMath / HTML
    state : {"ready", "running", "marked"}
    current : int
        The question on show (from 0).
    markings : list of Marking
        After marking, one per question (:meth:`Question.mark`: feedback, marks, by skill).
    results : list of list of (Part, Feedback, marks)
        The same, per question and part (an unanswered part: status ``"empty"``, no marks).

    Examples
    --------
    >>> exam = MockExam(2, seed=5, minutes=20, clock=lambda: 1000.0)
    >>> exam.start_button.click()
    >>> q = exam.questions[0]
    >>> exam.answers["a"].value = str(q.answers()["a"])
    >>> exam.finish_button.click()
    >>> exam.state, exam.score()[0] >= q.parts[0].marks
    ('marked', True)
    """

    def __init__(
        self,
        n_questions: int = 3,
        seed: int = 0,
        kinds: Sequence[str] = KINDS,
        level: int = 2,
        minutes: float | None = None,
        log: MistakeLog | bool | None = None,
        font_size: str = FONT_SIZE,
        clock: Callable[[], float] = time.time,
    ):
        n_questions = check_int("n_questions", n_questions, 1, MAX_QUESTIONS)
        seed = check_int("seed", seed, 0, 2**31 - 1 - MAX_QUESTIONS)
        kinds = check_kinds(kinds, "the mock exam")
        self.level = check_option("level", level, LEVELS)
        self.font_size = check_font_size(font_size)
        self.log = open_log(log)
        self.clock = clock
        self.seed = seed
        self.kinds = self._choose_kinds(kinds, n_questions, seed)
        self.questions: list[Question] = [
            make_question(k, seed + i, level=self.level) for i, k in enumerate(self.kinds)
        ]
        self.total_marks = sum(q.total_marks for q in self.questions)
        if minutes is None:
            minutes = default_minutes(self.total_marks)
        self.minutes = check_number("minutes", minutes, 0, 600, open_low=True)
        self.state = "ready"
        self.current = 0
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.timed_out = False
        self.markings: list[Marking] = []
        #: the answers typed so far, per question and part (kept while moving between questions)
        self.typed: list[dict[str, str]] = [{p.label: "" for p in q.parts} for q in self.questions]
        self.last_update_ms = float("nan")
        self._showing = False
        self._build()
        self._show_intro()

    # -------------------------------------------------------------- set-up
    def _choose_kinds(self, kinds: list[str], n: int, seed: int) -> list[str]:
        if self.log is not None:
            return [self.log.pick(kinds, seed + i) for i in range(n)]
        rng = np.random.default_rng([_STREAM, seed])  # a stream of its own, apart from the questions' draws
        out: list[str] = []
        while len(out) < n:  # each kind once before any comes twice
            out += [kinds[int(i)] for i in rng.permutation(len(kinds))]
        return out[:n]

    def _build(self) -> None:
        def wide() -> w.Layout:  # one Layout each: hiding the start button must not hide the others
            return w.Layout(width="auto", min_width="8em")

        self.start_button = w.Button(description="start the exam", button_style="primary", layout=wide())
        self.previous_button = w.Button(description="previous question", layout=wide())
        self.next_button = w.Button(description="next question", layout=wide())
        self.finish_button = w.Button(description="finish and mark", button_style="success", layout=wide())
        self.countdown = Countdown(description="time left", seconds_left=int(round(self.minutes * 60)))
        self.header = w.HTML()
        self.question_html = w.HTMLMath()
        self.status = w.HTML()
        self.result_html = w.HTMLMath()
        self.self_marking = w.VBox()
        self.self_marking.add_class("iaa-mock-self-marking")
        self.ticks: dict[tuple[int, str], list] = {}
        self._rows = AnswerRows(
            w.Textarea, ("20em", "44em"), "iaa-mock-answer-{label}", "iaa-marks", align="center", rows=1
        )
        self.answers, self.marks_html = self._rows.boxes, self._rows.sides
        for label, box in self._rows.every_box():
            box.observe(lambda change, label=label: self._on_typing(label, change["new"]), names="value")
        for name, button, action in (
            ("start", self.start_button, self.start),
            ("previous", self.previous_button, lambda: self.go(max(0, self.current - 1))),
            ("next", self.next_button, lambda: self.go(min(len(self.questions) - 1, self.current + 1))),
            ("finish", self.finish_button, self.finish),
        ):
            button.add_class(f"iaa-mock-{name}")
            button.on_click(lambda _button, action=action: self._timed(action))
        self.question_html.add_class("iaa-mock-question")
        self.status.add_class("iaa-mock-status")
        self.result_html.add_class("iaa-mock-result")
        top = w.HBox([self.start_button, self.countdown], layout=w.Layout(align_items="center"))
        self.nav = w.HBox([self.previous_button, self.next_button, self.finish_button])
        self.widget = w.VBox(
            [
                w.HTML(exam_css(".iaa-mock", self.font_size, **_OWN_CSS)),
                self.header,
                top,
                self.question_html,
                *self._rows.rows,
                self.nav,
                self.status,
                self.self_marking,
                self.result_html,
            ]
        )
        self.widget.add_class("iaa-mock")

    # --------------------------------------------------------------- time
    def time_left(self) -> float:
        """Seconds left (the whole time before the start, 0 once it is up or the exam is marked)."""
        if self.state == "ready":
            return self.minutes * 60
        if self.state == "marked":
            return 0.0
        return max(0.0, self.started_at + self.minutes * 60 - self.clock())

    def _time_is_up(self) -> bool:
        """Check the deadline (on every action); if it has passed, mark the exam as it stands."""
        if self.state == "running" and self.time_left() <= 0:
            self.timed_out = True
            self._mark()
            return True
        return False

    # ------------------------------------------------------------- actions
    def start(self) -> None:
        """Start the clock and show the first question."""
        if self.state != "ready":
            return
        self.state = "running"
        self.started_at = self.clock()
        self.countdown.ends_at = (self.started_at + self.minutes * 60) * 1000.0
        self.start_button.layout.display = "none"
        self._show(0)

    def go(self, index: int) -> None:
        """Show question ``index`` (from 0), keeping the answers typed so far."""
        index = check_int("index", index, 0, len(self.questions) - 1)
        if self.state != "running" or self._time_is_up():
            return
        self._show(index)

    def finish(self) -> None:
        """Mark every answer now (the student is done, or time is up)."""
        if self.state != "running":
            return
        self.timed_out = self.time_left() <= 0
        self._mark()

    def _on_typing(self, label: str, answer: str) -> None:
        """Every answer typed is kept at once, and the deadline checked (no background clock needed)."""
        if self.state != "running" or self._showing:
            return
        if self._time_is_up():  # typed after the deadline: not counted; the exam is marked as it stood
            return
        if label in self.typed[self.current]:
            self.typed[self.current][label] = answer
            self._show_progress()

    def _timed(self, action: Callable) -> None:
        """Run ``action`` (what a button does), timing it in :attr:`last_update_ms`."""
        start = time.perf_counter()
        action()
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    # ------------------------------------------------------------- display
    def _size(self) -> str:
        """``3 questions, 30 marks, 45 minutes (level 2)``."""
        n = len(self.questions)
        return (
            f"{n} question{'s' if n != 1 else ''}, {self.total_marks} marks, {duration(self.minutes)} "
            f"(level {self.level})"
        )

    def _show_intro(self) -> None:
        self.header.value = (
            f"<b>Mock exam</b>: {self._size()}. "
            f"Work on paper, type each answer in its box, move between the questions as you like, "
            f"and press <b>finish and mark</b> when you are done. Nothing is marked before that; "
            f"when the time is up your answers are marked as they stand."
        )
        self.question_html.value = ""
        self._rows.hide()
        self.nav.layout.display = "none"
        self.status.value = "<i>Press <b>start the exam</b> when you are ready: the clock starts then.</i>"

    def _show(self, index: int) -> None:
        self._showing = True  # setting the boxes to this question's answers is not typing
        try:
            self.current = index
            q = self.questions[index]
            self.nav.layout.display = ""
            self.question_html.value = (
                f"<p><b>Question {index + 1} of {len(self.questions)}</b> "
                f"[{q.total_marks} marks]</p>" + q.html()
            )
            for part, box in self._rows.show(q.parts):  # each box as tall as its placeholder or marks need
                box.value = self.typed[index][part.label]
                self.marks_html[part.label].value = f"[{part.marks} mark{'s' if part.marks != 1 else ''}]"
            self.previous_button.disabled = index == 0
            self.next_button.disabled = index == len(self.questions) - 1
            self._show_progress()
        finally:
            self._showing = False

    def _show_progress(self) -> None:
        answered = sum(1 for answers in self.typed for v in answers.values() if v.strip())
        parts = sum(len(q.parts) for q in self.questions)
        self.status.value = (
            f'<span role="status">Question {self.current + 1} of {len(self.questions)}; '
            f"{answered} of {parts} parts answered so far.</span>"
        )

    # ------------------------------------------------------------ marking
    def _mark(self) -> None:
        self.state = "marked"
        self.finished_at = self.clock()
        self.countdown.ends_at = 0.0
        self.countdown.seconds_left = int(
            round(max(0.0, self.started_at + self.minutes * 60 - self.finished_at))
        )
        self.markings = [q.mark(typed) for q, typed in zip(self.questions, self.typed)]
        for q, marking in zip(self.questions, self.markings):
            seen: set = set()  # a mistake carried into a later part is logged once
            for part in q.parts:
                record_answer(self.log, q, part, marking.feedback[part.label], seen)
        self._add_self_marking()
        self._rows.hide()
        self.nav.layout.display = "none"
        self.question_html.value = ""
        got, total = self.score()
        why = (
            "Time is up: your answers were marked as they stood."
            if self.timed_out
            else f"Finished with {clock_text(self.countdown.seconds_left)} left."
        )
        log = f" {html_escape(self.log.status)}" if self.log is not None else ""
        self.status.value = f'<span role="status">{why}{log}</span>'
        self._show_result()

    def _add_self_marking(self) -> None:
        """After marking: each short answer in words with the mark scheme's points to tick."""
        rows = []
        for i, q in enumerate(self.questions):
            for part in q.parts:
                if part.form != "words" or not self.typed[i][part.label].strip():
                    continue
                answer = w.HTML(
                    f"<p><b>Question {i + 1} ({html_escape(part.label)})</b> {part.prompt.html()}<br>"
                    f"<i>Your answer:</i> {html_escape(self.typed[i][part.label].strip())}</p>"
                )
                box, boxes = tick_boxes(part, lambda i=i: self._on_tick(i))
                box.add_class(f"iaa-mock-self-mark-{i + 1}")
                self.ticks[(i, part.label)] = boxes
                rows += [answer, box]
        self.self_marking.children = tuple(rows)

    def _on_tick(self, index: int) -> None:
        """A point ticked or unticked: question ``index`` marked again with the student's ticks."""
        q = self.questions[index]
        ticks = {
            label: [n + 1 for n, b in enumerate(boxes) if b.value]
            for (i, label), boxes in self.ticks.items()
            if i == index
        }
        self.markings[index] = q.mark(self.typed[index], ticks=ticks)
        self._show_result()

    def self_marked(self) -> int:
        """The marks the student gave themselves by ticking points of short answers."""
        return sum(m.self_marked for m in self.markings)

    def _show_result(self) -> None:
        got, total = self.score()
        waiting = sum(1 for m in self.markings for f in m.feedback.values() if f.status == "self")
        notes = []
        if self.self_marked() or any(
            f.status == "self-marked" for m in self.markings for f in m.feedback.values()
        ):
            notes.append(f"{self.self_marked()} self-marked")
        if waiting:
            notes.append(f"{waiting} written answer{'s' if waiting != 1 else ''} to self-mark above")
        note = f"; {'; '.join(notes)}" if notes else ""
        self.result_html.value = (
            f'<p class="iaa-total">Total: {got} / {total} marks '
            f"({percent(got, total)}{note})</p>"
            + f'<div class="iaa-skills">{self.skills_table().html()}</div>'
            + f'<div class="iaa-per-part">{self.marks_table().html()}</div>'
        )

    @property
    def results(self) -> list[list[tuple]]:
        """After marking, per question and part: ``(part, feedback, marks)``; empty before."""
        return [
            [(p, m.feedback[p.label], m.feedback[p.label].marks) for p in q.parts]
            for q, m in zip(self.questions, self.markings)
        ]

    def score(self) -> tuple[int, int]:
        """(marks gained, marks available); (0, total) before marking."""
        return sum(m.marks for m in self.markings), self.total_marks

    def marks_table(self) -> Table:
        """Marks per part: question, part, skill, your answer, what the checker says, marks (``"not marked /
        2"`` for a written answer still to self-mark)."""
        rows = [
            [
                f"{i + 1}: {q.id}",
                f"({part.label})",
                part.skill,
                self.typed[i][part.label].strip() or "(no answer)",
                fb.message,
                # a written answer not yet self-marked has no mark: a machine gave it none, not 0
                f"not marked / {part.marks}" if fb.status == "self" else f"{got} / {part.marks}",
            ]
            for i, (q, results) in enumerate(zip(self.questions, self.results))
            for part, fb, got in results
        ]
        header = ["question", "part", "skill", "your answer", "feedback", "marks"]
        fixed = sum(max(len(str(r[i])) for r in [header, *rows]) for i in (0, 1, 2, 5))
        feedback = max(_FEEDBACK_MIN, TEXT_WIDTH - fixed - _ANSWER_WIDTH - 2 * (len(header) - 1))
        return Table(
            header,
            rows,
            caption="Marks per part",
            align="llllll",
            wrap={3: _ANSWER_WIDTH, 4: feedback},  # plain text: the feedback goes on under its column
        )

    def by_skill(self) -> dict[str, tuple[int, int]]:
        """Marks gained and marked out of, for each skill over the whole exam, in the order of ``SKILLS``.

        Only marked parts count: a written answer not yet self-marked has no mark yet
        (:meth:`to_self_mark`), so a skill whose parts all wait shows ``(0, 0)``.
        """
        tally: dict[str, list[int]] = {}
        for results in self.results:
            for part, fb, got in results:
                counted = tally.setdefault(part.skill, [0, 0])
                if fb.status != "self":
                    counted[0] += got
                    counted[1] += part.marks
        return {s: (tally[s][0], tally[s][1]) for s in SKILLS if s in tally}

    def to_self_mark(self) -> dict[str, int]:
        """For each skill with written answers still to self-mark, those answers' marks."""
        waiting: dict[str, int] = {}
        for results in self.results:
            for part, fb, _ in results:
                if fb.status == "self":
                    waiting[part.skill] = waiting.get(part.skill, 0) + part.marks
        return waiting

    def skills_table(self) -> Table:
        """Marks by skill: gained, marked out of and the share, weakest first.

        A written answer counts once the student self-marks it; a skill with nothing marked yet says
        "not marked" and comes last (it is not the weakest: it has no mark).
        """
        waiting = self.to_self_mark()

        def share(skill: str, got: int, total: int) -> str:
            if not total:
                return "not marked"
            return percent(got, total) + (f" ({waiting[skill]} not marked)" if skill in waiting else "")

        skills = sorted(
            self.by_skill().items(), key=lambda kv: (kv[1][1] == 0, Fraction(kv[1][0], kv[1][1] or 1))
        )
        return Table(
            ["skill", "marks", "out of", "share"],
            [
                [skill, str(got) if total else "-", str(total) if total else "-", share(skill, got, total)]
                for skill, (got, total) in skills
            ],
            caption="Marks by skill (weakest first)",
            align="lrrr",
        )

    # -------------------------------------------------------------- display
    def text(self) -> str:
        """The exam as plain text: its size, or after marking the total and both tables."""
        if self.state != "marked":
            return f"Mock exam: {self._size()}"
        got, total = self.score()
        mine = f", {self.self_marked()} self-marked" if self.self_marked() else ""
        return "\n\n".join(
            [
                f"Total: {got} / {total} marks ({percent(got, total)}{mine})",
                self.skills_table().text(),
                self.marks_table().text(),
            ]
        )

    def static_picture(self) -> str:
        """A still picture of the exam as HTML (what it shows now: before the start, its size and time).

        For pages without a kernel, such as the static book.
        """
        return static_picture(self.widget, ["iaa-mock"])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict:
        return widget_bundle(self.widget, self.text(), **kwargs)

    def __repr__(self) -> str:
        return f"<MockExam: {', '.join(q.id for q in self.questions)}; {self.state}>"


def duration(minutes: float) -> str:
    """``30 minutes``, ``1 minute``, or ``12:30 minutes`` for a time that is not whole minutes."""
    if minutes == int(minutes):
        return f"{int(minutes)} minute{'s' if minutes != 1 else ''}"
    return f"{clock_text(minutes * 60)} minutes"


def percent(got: int, total: int) -> str:
    """``got`` of ``total`` as a whole percentage, rounded half up."""
    return f"{fmt(Fraction(100 * got, total), 0)} %" if total else "-"
