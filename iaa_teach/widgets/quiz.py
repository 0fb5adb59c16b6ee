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

from ..exercises import KINDS, Question, make_question
from ..markup import html_escape
from ..validation import AgreementError, check_int, check_option
from ._base import FONT_SIZE, WRAP_CSS, check_font_size, static_picture

__all__ = ["Quiz"]

#: Most parts a question has ((a) to (e)): the quiz keeps one answer row per possible part.
MAX_PARTS = 5

_CSS = """<style>
.iaa-quiz, .iaa-quiz .widget-label, .iaa-quiz button, .iaa-quiz input, .iaa-quiz textarea,
.iaa-quiz select, .iaa-quiz .widget-html-content {{ font-size: {size}; }}
.iaa-quiz table {{ border-collapse: collapse; margin: 0.4em 0; }}
.iaa-quiz table th, .iaa-quiz table td {{ border: 1px solid #bbb; padding: 0.1em 0.6em; text-align: center; }}
.iaa-quiz .iaa-correct {{ color: #1a7f37; font-weight: bold; }}
.iaa-quiz .iaa-mistake {{ color: #8a3b00; }}
.iaa-quiz .iaa-wrong, .iaa-quiz .iaa-unreadable {{ color: #b3261e; }}
.iaa-quiz .iaa-words {{ color: #333; }}
.iaa-quiz .widget-html-content {{ line-height: 1.4; }}
.iaa-quiz .iaa-quiz-solution, .iaa-quiz .iaa-quiz-solution p, .iaa-quiz .iaa-quiz-solution td,
.iaa-quiz .iaa-quiz-solution th {{ font-size: {size}; }}
{wrap}
</style>"""


class Quiz:
    """A revision quiz: "new question", an answer box per part, "check", the solution step by step.

    Parameters
    ----------
    kind : str
        The first question's kind (one of ``kinds``).
    seed : int
        The first question's seed. "new question" adds 1 to the seed box, so
        question number ``seed + k`` is always the same question; typing a
        seed, or choosing another kind, shows that question.
    kinds : sequence of str
        The kinds offered in the dropdown (each one of :data:`iaa_teach.exercises.KINDS`).
    font_size : str
        CSS font size of the whole quiz (large enough for a projector).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The quiz; displaying the quiz displays it.
    question : Question
        The question on show.
    kind, seed : ipywidgets.Dropdown, ipywidgets.BoundedIntText
    new_button, check_button, step_button, solution_button : ipywidgets.Button
    question_html : ipywidgets.HTMLMath
    answers, feedback : dict
        Part label -> ``Text`` (or ``Textarea`` for a part answered in words)
        and part label -> ``HTML`` with the feedback of the last "check".
    solution_html : ipywidgets.HTMLMath
        The worked solution revealed so far.
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

    def __init__(self, kind: str = "cohen", seed: int = 0, kinds: Sequence[str] = KINDS,
                 font_size: str = FONT_SIZE):
        if isinstance(kinds, str) or not hasattr(kinds, "__iter__"):
            raise AgreementError(f"kinds must be a list of question kinds, got {kinds!r}")
        kinds = [check_option("kinds", k, KINDS) for k in kinds]
        if not kinds:
            raise AgreementError("kinds is empty: the quiz needs at least one kind of question")
        check_option("kind", kind, kinds)
        seed = check_int("seed", seed, 0, 2**31 - 1)
        font_size = check_font_size(font_size)
        self.kind = w.Dropdown(options=list(kinds), value=kind, description="kind")
        self.seed = w.BoundedIntText(value=int(seed), min=0, max=2**31 - 1, description="seed",
                                     layout=w.Layout(width="14em"))
        wide = {"layout": w.Layout(width="auto", min_width="9em")}  # the whole label, never cut short
        self.new_button = w.Button(description="new question", button_style="primary", **wide)
        self.check_button = w.Button(description="check", button_style="success", **wide)
        self.step_button = w.Button(description="show the next step", **wide)
        self.solution_button = w.Button(description="show the full solution", **wide)
        self.question_html = w.HTMLMath()
        self.solution_html = w.HTMLMath()
        self.status = w.HTML()
        self.answers: dict[str, w.Widget] = {}
        self.feedback: dict[str, w.HTML] = {}
        self._rows = []
        self._labels = []
        for i in range(MAX_PARTS):
            label = chr(ord("a") + i)
            box = w.Text(placeholder="e.g. 0.492 or 29/59", layout=w.Layout(width="16em"))
            box.add_class(f"iaa-quiz-answer-{label}")
            tag = w.HTML(f"<b>({label})</b>")
            out = w.HTML()
            out.add_class(f"iaa-quiz-feedback-{label}")
            self._labels.append(tag)
            self._rows.append(w.HBox([tag, box, out]))
            self.answers[label] = box
            self.feedback[label] = out
        self.question: Question | None = None
        self.solution = None
        self.revealed = 0
        self.last_update_ms = float("nan")

        self.new_button.on_click(self._on_new)
        self.check_button.on_click(self._on_check)
        self.step_button.on_click(self._on_step)
        self.solution_button.on_click(self._on_full)
        self.kind.observe(self._on_change, names="value")
        self.seed.observe(self._on_change, names="value")
        for name, widget in (("new", self.new_button), ("check", self.check_button),
                             ("step", self.step_button), ("solution", self.solution_button)):
            widget.add_class(f"iaa-quiz-{name}")
        self.seed.add_class("iaa-quiz-seed")
        self.question_html.add_class("iaa-quiz-question")
        self.solution_html.add_class("iaa-quiz-solution")

        controls = w.HBox([self.kind, self.seed, self.new_button])
        actions = w.HBox([self.check_button, self.step_button, self.solution_button])
        self.widget = w.VBox([w.HTML(_CSS.format(size=font_size, wrap=WRAP_CSS)), controls, self.question_html,
                              *self._rows, actions, self.status, self.solution_html])
        self.widget.add_class("iaa-quiz")
        self.show(kind, int(seed))

    # ----------------------------------------------------------- callbacks
    def show(self, kind: str, seed: int) -> None:
        """Show question ``kind``-``seed``: new text, empty answer boxes, solution hidden."""
        start = time.perf_counter()
        self.question = make_question(kind, seed)
        self.solution = None
        self.revealed = 0
        self.question_html.value = self.question.html()
        for i, row in enumerate(self._rows):
            label = chr(ord("a") + i)
            self.feedback[label].value = ""
            if i < len(self.question.parts):
                part = self.question.parts[i]
                row.layout.display = ""
                box = self.answers[label]
                box.value = ""
                box.placeholder = ("e.g. 0.492 or 29/59" if part.quantity not in ("n", "n_labels")
                                   else "a whole number") if part.numeric else "your explanation, in words"
                box.layout.width = "16em" if part.numeric else "40em"
            else:
                row.layout.display = "none"
        self.solution_html.value = ""
        self.status.value = (f"<i>Question {html_escape(kind)}-{seed}. Type your answers, press "
                             f"<b>check</b>; reveal the worked solution step by step.</i>")
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _on_change(self, change: Any = None) -> None:
        self.show(self.kind.value, int(self.seed.value))

    def _on_new(self, button: Any = None) -> None:
        if self.seed.value >= self.seed.max:
            self.seed.value = 0
        else:
            self.seed.value += 1  # the seed observer shows the question

    def _on_check(self, button: Any = None) -> None:
        start = time.perf_counter()
        for part in self.question.parts:
            answer = self.answers[part.label].value.strip()
            if not answer:
                self.feedback[part.label].value = ""
                continue
            fb = self.question.check(part.label, answer)
            self.feedback[part.label].value = (f'<span class="iaa-{fb.status}" data-status="{fb.status}">'
                                               f"{html_escape(fb.message)}</span>")
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _steps(self):
        if self.solution is None:
            self.solution = self.question.solution()
        return self.solution.steps

    def _render(self) -> None:
        steps = self._steps()
        shown = steps[:self.revealed]
        body = "".join(step.numbered(i, "html") for i, step in enumerate(shown, start=1))
        more = (f"<p><i>Step {self.revealed} of {len(steps)}.</i></p>" if self.revealed < len(steps)
                else "<p><i>That is the whole solution.</i></p>")
        self.solution_html.value = body + more

    def _on_step(self, button: Any = None) -> None:
        start = time.perf_counter()
        self.revealed = min(self.revealed + 1, len(self._steps()))
        self._render()
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _on_full(self, button: Any = None) -> None:
        start = time.perf_counter()
        self.revealed = len(self._steps())
        self._render()
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

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
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = f"Quiz: {self.question.title}, question {self.question.kind}-{self.question.seed}"
        return data

    def __repr__(self) -> str:
        return f"<Quiz: question {self.question.kind}-{self.question.seed}>"
