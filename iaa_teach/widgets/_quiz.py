"""Exam revision: a quiz on fresh seeded questions, checked part by part.

The quiz computes nothing itself: questions, answers, feedback and worked
solutions all come from :mod:`iaa_teach.exercises` (which takes its numbers
from :mod:`iaa_teach.metrics` and its working from :func:`iaa_teach.explain`),
shown with their own HTML renderer (maths left for MathJax in ``HTMLMath``).
Its callbacks only set trait values (``HTML.value``, ``Text.value``,
``layout.display``), so it runs headless in pytest exactly as in JupyterLab.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import ipywidgets as w
import numpy as np

from .._markup import html_escape
from .._validation import AgreementError, check_int, check_option
from ..exercises import KINDS, LEVELS, MistakeLog, Question, make_question
from ..exercises._questions import CHOOSABLE, MAX_PARTS, asks_to_choose
from ._base import FONT_SIZE, WRAP_CSS, check_font_size, static_picture, widget_bundle

__all__ = ["Quiz"]

#: The kind dropdown's entry for "choose the coefficient" questions: it names no kind (a question whose
#: student chooses the coefficient must not be shown under its kind's name). Its questions are level 3.
CHOOSE = "which coefficient?"
#: Seeds looked at, at most, for a question of the wanted sort (a kind's own or "choose the coefficient").
_SEED_LOOK = 64

#: The answer boxes' descriptions, "(a)", ...: wide enough, in bold (see EXAM_CSS).
ANSWER_STYLE = {"description_width": "2.5em"}
#: Characters of a placeholder a short answer box (16em for its text) shows on a line, at about 0.6em each:
#: "e.g. 0.492 or 29/59" fits one; "all the letters that apply, e.g. A, C (of A-F)" needs two.
SHORT_BOX_CHARS = 26
_LABELS = [chr(ord("a") + i) for i in range(MAX_PARTS)]  # the parts' labels, in order

#: The style sheet of the quiz and the mock exam (:func:`exam_css`): ``{c}`` is the widget's class, ``{size}``
#: its font size; the other slots hold each one's own rules and the selectors or declarations one adds.
EXAM_CSS = """<style>
{c}, {c} .widget-label, {c} button, {c} input, {c} textarea,
{fonts}{c} .widget-html-content, {c} .widget-htmlmath-content {{ font-size: {size}; }}
{c} .widget-htmlmath-content {{ line-height: 1.4; white-space: normal; }}
{inputs}{c} table {{ border-collapse: collapse; margin: 0.4em 0; }}
{c} table th, {c} table td {{ border: 1px solid #bbb; padding: 0.1em 0.6em;{cells} }}
{tables}{c} .widget-text .widget-label{labels} {{ font-weight: bold; }}
{boxes}{c} .widget-html-content {{ line-height: 1.4; }}
{end}{wrap}
</style>"""

#: The quiz's own rules: the answer box and dropdowns, the feedback's colours, the solution.
_OWN_CSS = {
    "fonts": "{c} select, ",
    "inputs": """{c} .widget-inline-hbox input, {c} .widget-inline-hbox select,
{c} .widget-dropdown select {{ font-size: {size}; height: auto; }}
""",
    "cells": " text-align: center;",
    "tables": """{c} .iaa-correct {{ color: #1a7f37; font-weight: bold; }}
{c} .iaa-mistake {{ color: #8a3b00; }}
{c} .iaa-wrong, {c} .iaa-unreadable {{ color: #b3261e; }}
{c} .iaa-follow-through, {c} .iaa-self-marked {{ color: #1a7f37; }}
{c} .iaa-slip, {c} .iaa-places, {c} .iaa-partial {{ color: #8a3b00; }}
{c} .iaa-words {{ color: #333; }}
""",
    "end": """{c} .iaa-quiz-solution, {c} .iaa-quiz-solution p, {c} .iaa-quiz-solution td,
{c} .iaa-quiz-solution th {{ font-size: {size}; }}
""",
}


class Quiz:
    """A revision quiz: "new question", an answer box per part, "check", the solution step by step.

    Parameters
    ----------
    kind : str
        The first question's kind (one of ``kinds``), or :data:`CHOOSE` (``"which coefficient?"``):
        level-3 questions that ask the student to choose the coefficient, of a kind the dropdown does
        not name. A kind's own entry never shows such a question (it would name the answer).
    seed : int
        The first question's seed. "new question" adds 1 to the seed box, so
        question number ``seed + k`` is always the same question; typing a
        seed, or choosing another kind, shows that question.
    kinds : sequence of str
        The kinds offered in the dropdown (each one of :data:`iaa_teach.exercises.KINDS`).
    font_size : str
        CSS font size of the whole quiz (large enough for a projector).
    level : {1, 2, 3, 4}
        Difficulty of the questions (:func:`iaa_teach.exercises.make_question`):
        1 small complete tables, 2 in between, 3 exam size, 4 a Tripos-shaped
        question of 20 marks. The quiz's
        ``level`` list changes it.
    log : MistakeLog or bool, optional
        The student's mistake log (opt-in; :class:`iaa_teach.exercises.MistakeLog`):
        ``True`` opens the default one. With a log, the first answer to each
        part of a question is recorded, the quiz names the usual mistakes to
        watch for in the kind on show, and "new question" draws the next kind
        from the Leitner boxes (the kinds gone wrong more often come back more
        often; choose a kind in the list to practise that one). A log that
        cannot be read or saved is reported in the status line; the quiz goes on.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The quiz; displaying the quiz displays it.
    question : Question
        The question on show.
    kind, seed, level : ipywidgets.Dropdown, ipywidgets.BoundedIntText, ipywidgets.Dropdown
    new_button, check_button, step_button, solution_button : ipywidgets.Button
    question_html : ipywidgets.HTMLMath
    answers, feedback : dict
        Part label -> ``Text`` (or ``Textarea`` for a part answered in words)
        and part label -> ``HTML`` with the feedback of the last "check".
    solution_html : ipywidgets.HTMLMath
        The worked solution revealed so far.
    log : MistakeLog or None
    progress_button : ipywidgets.Button
        Shows the log's summary in ``progress_html`` (only with a log).
    last_update_ms : float
        Time of the last callback, in milliseconds.

    Examples
    --------
    >>> quiz = Quiz("cohen", seed=3)
    >>> right = quiz.question.answers()["c"]
    >>> quiz.answers["c"].value = str(right)
    >>> quiz.check_button.click()
    >>> "Correct" in quiz.feedback["c"].value
    True
    """

    def __init__(
        self,
        kind: str = "cohen",
        seed: int = 0,
        kinds: Sequence[str] = KINDS,
        font_size: str = FONT_SIZE,
        level: int = 2,
        log: MistakeLog | bool | None = None,
    ):
        kinds = check_kinds(kinds, "the quiz")
        if kind != CHOOSE or not any(k in CHOOSABLE for k in kinds):
            check_option("kind", kind, kinds)
        seed = check_int("seed", seed, 0, 2**31 - 1)
        check_option("level", level, LEVELS)
        font_size = check_font_size(font_size)
        self.log = open_log(log)
        self._kinds = kinds
        self._choosable = [k for k in kinds if k in CHOOSABLE]
        options = kinds + ([CHOOSE] if self._choosable else [])
        self.kind = w.Dropdown(options=options, value=kind, description="kind")
        self.seed = w.BoundedIntText(
            value=int(seed), min=0, max=2**31 - 1, description="seed", layout=w.Layout(width="14em")
        )
        self.level = w.Dropdown(
            options=list(LEVELS), value=level, description="level", layout=w.Layout(width="10em")
        )
        wide = {"layout": w.Layout(width="auto", min_width="9em")}  # the whole label, never cut short
        self.new_button = w.Button(description="new question", button_style="primary", **wide)
        self.check_button = w.Button(description="check", button_style="success", **wide)
        self.step_button = w.Button(description="show the next step", **wide)
        self.solution_button = w.Button(description="show the full solution", **wide)
        self.progress_button = w.Button(description="show my mistake log", **wide)
        self.question_html = w.HTMLMath()
        self.solution_html = w.HTMLMath()
        self.status = w.HTML()
        self.progress_html = w.HTML()
        self.score_html = w.HTML()
        self.score_html.add_class("iaa-quiz-score")
        self.self_marking = w.VBox()
        self.ticks: dict[str, list] = {}
        self._rows = AnswerRows(
            w.Text,
            ("18.5em", "42.5em"),
            "iaa-quiz-answer-{label}",
            "iaa-quiz-feedback-{label}",
            placeholder="e.g. 0.492 or 29/59",
        )
        self.answers, self.feedback = self._rows.boxes, self._rows.sides

        self.new_button.on_click(self._on_new)
        self.check_button.on_click(self._on_check)
        self.step_button.on_click(lambda _button: self._reveal(self.revealed + 1))
        self.solution_button.on_click(lambda _button: self._reveal(len(self._steps())))
        self.progress_button.on_click(self._on_progress)
        for control in (self.kind, self.seed, self.level):
            control.observe(self._on_change, names="value")
        for name, widget in (
            ("new", self.new_button),
            ("check", self.check_button),
            ("step", self.step_button),
            ("solution", self.solution_button),
            ("progress", self.progress_button),
            ("seed", self.seed),
            ("level", self.level),
            ("question", self.question_html),
            ("solution", self.solution_html),
        ):
            widget.add_class(f"iaa-quiz-{name}")

        controls = w.HBox(
            [self.kind, self.seed, self.level, self.new_button], layout=w.Layout(flex_flow="row wrap")
        )
        actions = w.HBox(
            [self.check_button, self.step_button, self.solution_button]
            + ([self.progress_button] if self.log is not None else [])
        )
        self.widget = w.VBox(
            [
                w.HTML(exam_css(".iaa-quiz", font_size, **_OWN_CSS)),
                controls,
                self.question_html,
                *self._rows.rows,
                actions,
                self.self_marking,
                self.score_html,
                self.status,
                self.progress_html,
                self.solution_html,
            ]
        )
        self.widget.add_class("iaa-quiz")
        self.show(kind, int(seed))

    # ----------------------------------------------------------- callbacks
    def _pick(self, kind: str, seed: int) -> tuple[str, int, int]:
        """The question to show for the dropdown's ``kind`` and the typed ``seed``: (kind, seed, level).

        The dropdown names the kind it shows, so a kind's entry skips the seeds of level-3 questions
        that ask the student to choose the coefficient; :data:`CHOOSE` shows only those (level 3), of
        a kind drawn by the seed. Either way the question is the one its code names
        (:func:`iaa_teach.exercises.question_for`).
        """
        level = 3 if kind == CHOOSE else self.level.value
        for s in range(seed, min(seed + _SEED_LOOK, 2**31)):
            k = kind
            if kind == CHOOSE:
                k = self._choosable[int(np.random.default_rng([s, 0x63686F]).integers(len(self._choosable)))]
            if asks_to_choose(k, s, level) == (kind == CHOOSE):
                return k, s, level
        return (kind if kind != CHOOSE else self._choosable[0]), seed, level  # never reached in the tests

    def show(self, kind: str, seed: int) -> None:
        """Show question ``kind``-``seed``: new text, empty answer boxes, solution hidden."""
        start = time.perf_counter()
        kind, shown, level = self._pick(kind, seed)
        if shown != seed:  # the seed skipped to: the box shows the question's own seed
            self.seed.unobserve(self._on_change, names="value")
            self.seed.value = shown
            self.seed.observe(self._on_change, names="value")
        self.question = make_question(kind, shown, level=level)
        self.solution = None
        self.revealed = 0
        self._logged = set()
        self._logged_mistakes: set = set()
        self.ticks = {}
        self.self_marking.children = ()
        self.score_html.value = ""
        self.question_html.value = self.question.html()
        for out in self.feedback.values():
            out.value = ""
        for _, box in self._rows.show(self.question.parts):
            box.value = ""
        self.solution_html.value = ""
        self.progress_html.value = ""
        self.status.value = (
            f"<i>Question {html_escape(self.question.id)} (level {level}). Type your answers, press "
            f"<b>check</b>; reveal the worked solution step by step.</i>" + log_note(self.log, kind)
        )
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _on_change(self, change: Any = None) -> None:
        self.show(self.kind.value, int(self.seed.value))

    def _on_new(self, button: Any = None) -> None:
        seed = 0 if self.seed.value >= self.seed.max else self.seed.value + 1
        if self.log is not None:  # the Leitner boxes choose the kind; one question shown, not two
            kind = self.log.pick(self._kinds, seed)
            if kind != self.kind.value:
                self.kind.unobserve(self._on_change, names="value")
                self.kind.value = kind
                self.kind.observe(self._on_change, names="value")
        self.seed.value = seed  # the seed observer shows the question

    def _typed(self) -> dict[str, str]:
        return {part.label: self.answers[part.label].value.strip() for part in self.question.parts}

    def _ticked(self) -> dict[str, list[int]]:
        return {label: [i + 1 for i, b in enumerate(boxes) if b.value] for label, boxes in self.ticks.items()}

    def _on_check(self, button: Any = None) -> None:
        """Mark every answer, each coefficient with follow-through from the student's own earlier answers;
        a short answer in words gets the mark scheme's points to tick (self-marking)."""
        start = time.perf_counter()
        typed = self._typed()
        marking = self.question.mark(typed, ticks=self._ticked())
        for part in self.question.parts:
            fb = marking.feedback[part.label]
            if fb.status == "empty":
                self.feedback[part.label].value = ""
                continue
            if part.form == "words" and part.label not in self.ticks:
                self._add_ticks(part)
            self.feedback[part.label].value = feedback_html(fb)
            if part.label not in self._logged and record_answer(
                self.log, self.question, part, fb, self._logged_mistakes
            ):
                self._logged.add(part.label)
        self.score_html.value = f'<p role="status"><b>Marks:</b> {html_escape(marking.score)}</p>'
        if self.log is not None and self.log.problem:
            self.status.value = log_note(self.log, self.question.kind)
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _add_ticks(self, part: Any) -> None:
        box, boxes = tick_boxes(part, lambda: self._on_tick(part.label))
        self.ticks[part.label] = boxes
        self.self_marking.children = (*self.self_marking.children, box)

    def _on_tick(self, label: str) -> None:
        """A point ticked or unticked: the part's self-marked score, and the question's, again."""
        typed = self._typed()
        if not typed.get(label):
            return
        marking = self.question.mark(typed, ticks=self._ticked())
        self.feedback[label].value = feedback_html(marking.feedback[label])
        self.score_html.value = f'<p role="status"><b>Marks:</b> {html_escape(marking.score)}</p>'

    def _steps(self):
        if self.solution is None:
            self.solution = self.question.solution()
        return self.solution.steps

    def _reveal(self, n: int) -> None:
        """Show the solution's first ``n`` steps (all of them at most)."""
        start = time.perf_counter()
        steps = self._steps()
        self.revealed = min(n, len(steps))
        body = "".join(step.numbered(i, "html") for i, step in enumerate(steps[: self.revealed], start=1))
        more = (
            f"<p><i>Step {self.revealed} of {len(steps)}.</i></p>"
            if self.revealed < len(steps)
            else "<p><i>That is the whole solution.</i></p>"
        )
        self.solution_html.value = body + more
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _on_progress(self, button: Any = None) -> None:
        if self.log is not None:
            self.progress_html.value = self.log.summary(self._kinds).html()

    # -------------------------------------------------------------- display
    def text(self) -> str:
        """The question on show as plain text (what a notebook stores as the quiz's text/plain)."""
        return self.question.text()

    def static_picture(self) -> str:
        """A still picture of the quiz as HTML: the question and empty answer boxes, no solution.

        For pages without a kernel, such as the static book.
        """
        return static_picture(self.widget, ["iaa-quiz"])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict:
        q = self.question
        return widget_bundle(self.widget, f"Quiz: {q.title}, question {q.id}", **kwargs)

    def __repr__(self) -> str:
        return f"<Quiz: question {self.question.id}>"


def exam_css(c: str, size: str, **own: str) -> str:
    """:data:`EXAM_CSS` for the widget class ``c`` (``".iaa-quiz"``) at font size ``size``.

    ``own`` fills the sheet's slots (each empty by default); they are written
    like the sheet itself, with ``{c}`` and ``{size}``, their braces doubled.
    """
    slots = dict.fromkeys(("fonts", "inputs", "cells", "tables", "labels", "boxes", "end"), "")
    slots.update({slot: text.format(c=c, size=size) for slot, text in own.items()})
    return EXAM_CSS.format(c=c, size=size, wrap=WRAP_CSS, **slots)


class AnswerRows:
    """A row for each part, (a) to (e): an answer box and an HTML beside it (the feedback, the marks).

    Each box is a ``kind`` (``ipywidgets.Text``, ``Textarea``) made with
    ``options``, ``widths[0]`` wide (``widths[1]`` for a part answered in
    words, see :meth:`show`). The part's label is the box's description:
    shown before it, and its accessible name. ``box_class`` and ``side_class``
    are CSS classes added to the box and the HTML, ``{label}`` in them
    replaced by the part's label; ``align`` aligns each row's items.

    Attributes
    ----------
    rows : list of ipywidgets.HBox
    boxes, sides : dict
        Part label -> its box, and its HTML.
    """

    def __init__(
        self,
        kind: type,
        widths: tuple[str, str],
        box_class: str,
        side_class: str,
        align: str | None = None,
        **options: Any,
    ):
        self.widths = widths
        self.rows, self.boxes, self.sides = [], {}, {}
        self._short, self._long = {}, {}
        for label in _LABELS:
            box = kind(
                description=f"({label})", style=ANSWER_STYLE, layout=w.Layout(width=widths[0]), **options
            )
            area = w.Textarea(
                description=f"({label})",
                style=ANSWER_STYLE,
                layout=w.Layout(width=widths[1]),
                **{k: v for k, v in options.items() if k != "rows"},
            )
            for b in (box, area):
                b.add_class(box_class.format(label=label))
            side = w.HTML()
            side.add_class(side_class.format(label=label))
            self.rows.append(w.HBox([box, side], layout=w.Layout(align_items=align)))
            self.boxes[label], self.sides[label] = box, side
            self._short[label], self._long[label] = box, area

    def show(self, parts: Sequence[Any]) -> list[tuple[Any, w.Widget]]:
        """Show the rows of ``parts`` (the rest hidden), each box with its part's placeholder and width.

        A part answered in words gets a multi-line ``Textarea`` of :func:`lines_for` its marks
        (``boxes[label]`` is then that box); the others a one-line box. Returns each part with its box.
        """
        for i, row in enumerate(self.rows):
            row.layout.display = "" if i < len(parts) else "none"
        for part in parts:
            words = part.form == "words"
            box = (self._long if words else self._short)[part.label]
            lines = placeholder_lines(part.placeholder)
            if words:
                box.rows = lines_for(part.marks)
            elif isinstance(box, w.Textarea):  # as many lines as its placeholder needs, shown in full
                box.rows = lines
            box.placeholder = part.placeholder
            # a one-line box too short for its placeholder is as wide as a written answer's
            box.layout.width = self.widths[words or (lines > 1 and not isinstance(box, w.Textarea))]
            row = self.rows[_LABELS.index(part.label)]
            if row.children[0] is not box:
                row.children = (box, self.sides[part.label])
            self.boxes[part.label] = box
        return [(part, self.boxes[part.label]) for part in parts]

    def every_box(self) -> list[tuple[str, w.Widget]]:
        """Every box with its part's label: the one-line box and the written answer's box of each row."""
        return [(label, b) for label in _LABELS for b in (self._short[label], self._long[label])]

    def hide(self) -> None:
        """Hide every row."""
        self.show(())


def placeholder_lines(placeholder: str) -> int:
    """The lines a short answer box needs to show ``placeholder`` in full: :data:`SHORT_BOX_CHARS` a line."""
    return max(1, -(-len(placeholder) // SHORT_BOX_CHARS))


def lines_for(marks: int) -> int:
    """The lines of a written answer's box: two a mark and one more (3 for [1], 7 for [3]), at most 13."""
    return min(13, 1 + 2 * int(marks))


def check_kinds(kinds: Any, who: str) -> list[str]:
    """``kinds`` as a non-empty list of question kinds (each one of :data:`KINDS`); ``who`` needs them."""
    if isinstance(kinds, str) or not hasattr(kinds, "__iter__"):
        raise AgreementError(f"kinds must be a list of question kinds, got {kinds!r}")
    kinds = [check_option("kinds", k, KINDS) for k in kinds]
    if not kinds:
        raise AgreementError(f"kinds is empty: {who} needs at least one kind of question")
    return kinds


# ------------------------------------------------------------ the mistake log
#: Feedback that is not a mark (no answer, or one that cannot be read as the part's form): not recorded.
UNMARKED = ("unreadable", "words", "empty", "self", "self-marked")


def feedback_html(fb: Any) -> str:
    """A part's feedback as the quiz shows it: the message, coloured by its status."""
    return f'<span class="iaa-{fb.status}" data-status="{fb.status}">{html_escape(fb.message)}</span>'


def tick_boxes(part: Any, on_change: Any) -> tuple[w.VBox, list]:
    """Self-marking a short answer in words: the mark scheme's points, one checkbox each.

    ``on_change()`` is called when a box is ticked or unticked. The VBox has the
    class ``iaa-self-mark-{label}``, each box ``iaa-self-mark-{label}-{n}``.
    """
    head = w.HTML(
        f"<b>({html_escape(part.label)}) Self-mark your answer:</b> tick each point it makes, in any wording "
        f"(a mark each, up to {part.marks}). No machine marks written answers."
    )
    boxes = []
    for n, point in enumerate(part.key_points, start=1):
        box = w.Checkbox(
            value=False, description=f"({n}) {point.text}", indent=False, layout=w.Layout(width="auto")
        )
        box.add_class(f"iaa-self-mark-{part.label}-{n}")
        box.observe(lambda _change: on_change(), names="value")
        boxes.append(box)
    out = w.VBox([head, *boxes])
    out.add_class(f"iaa-self-mark-{part.label}")
    return out, boxes


def open_log(log: MistakeLog | bool | None) -> MistakeLog | None:
    """The log a widget was given: None or False (no log), True (the default one) or a :class:`MistakeLog`."""
    if log is None or log is False:
        return None
    if log is True:
        return MistakeLog.open()
    if not isinstance(log, MistakeLog):
        raise AgreementError(f"log must be a MistakeLog, True (the default log) or None, got {log!r}")
    return log


def record_answer(
    log: MistakeLog | None, question: Question, part: Any, feedback: Any, seen: set | None = None
) -> bool:
    """Record one marked answer in ``log`` (if any); True if it was recorded.

    ``seen``: the mistakes already recorded for this question; a mistake carried from one
    part into the next (a wrong P_e, then the kappa made from it) is recorded once.
    """
    if log is None or feedback.status in UNMARKED:
        return False
    mistakes = tuple(m for m in feedback.mistakes if seen is None or m not in seen)
    if seen is not None:
        seen.update(mistakes)
    log.record(
        question.kind,
        part=part.label,
        skill=part.skill,
        correct=feedback.correct,
        mistakes=mistakes,
        seed=question.seed,
    )
    return True


def log_note(log: MistakeLog | None, kind: str) -> str:
    """HTML for the status line: a problem with the log, or the mistakes to watch for in ``kind``."""
    if log is None:
        return ""
    if log.problem:
        return f'<div class="iaa-log-problem" role="status">{html_escape(log.problem)}</div>'
    cards = log.to_review(kind)[:3]
    if not cards:
        return ""
    times = {1: "once", 2: "twice"}
    names = "; or ".join(f"{c.name} ({times.get(c.times, f'{c.times} times')})" for c in cards)
    return (
        f'<div class="iaa-log-review">From your mistake log: in this kind of question your answers '
        f"have matched what you get if you {html_escape(names)}.</div>"
    )
