"""The revision quiz, headless: set values, click buttons, read HTML values.

Every callback only sets trait values, so these tests drive the quiz exactly
as a student does in JupyterLab, without a kernel or a browser.
"""

from __future__ import annotations

import html
import re

import ipywidgets as w
import pytest

from iaa_teach import AgreementError, fmt
from iaa_teach.exercises import KINDS, make_question
from iaa_teach.exercises._questions import SLIPS
from iaa_teach.widgets._quiz import MAX_PARTS, Quiz


def _text(widget_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget_html))


def _visible_rows(quiz):
    return [row for row in quiz._rows.rows if row.layout.display != "none"]


def test_first_question_is_the_seeded_one():
    quiz = Quiz("fleiss", seed=12)
    q = make_question("fleiss", 12)
    assert quiz.question.ratings == q.ratings
    assert quiz.question_html.value == q.html()
    assert len(_visible_rows(quiz)) == len(q.parts) <= MAX_PARTS
    assert (
        quiz.question.id in quiz.status.value
        and "fleiss" not in quiz.status.value
        and quiz.solution_html.value == ""
    )


def test_new_question_moves_the_seed_on_and_clears_everything():
    quiz = Quiz("cohen", seed=4)
    quiz.answers["a"].value = "0.5"
    quiz.check_button.click()
    quiz.step_button.click()
    assert quiz.feedback["a"].value and quiz.solution_html.value
    quiz.new_button.click()
    assert quiz.seed.value == 5 and quiz.question.seed == 5
    assert quiz.question.ratings == make_question("cohen", 5).ratings
    assert all(box.value == "" for box in quiz.answers.values())
    assert all(out.value == "" for out in quiz.feedback.values())
    assert quiz.solution_html.value == "" and quiz.revealed == 0


def test_typing_a_seed_or_choosing_a_kind_shows_that_question():
    quiz = Quiz("cohen", seed=0)
    quiz.seed.value = 77
    assert quiz.question.kind == "cohen" and quiz.question.seed == 77
    quiz.kind.value = "partial"
    assert quiz.question.kind == "partial" and quiz.question.seed == 77
    assert quiz.question.ratings == make_question("partial", 77).ratings
    assert len(_visible_rows(quiz)) == 5


@pytest.mark.parametrize("kind", KINDS)
def test_right_answers_are_marked_correct(kind):
    quiz = Quiz(kind, seed=3)
    answers = quiz.question.answers()
    for label, value in answers.items():
        quiz.answers[label].value = fmt(value) if value.denominator > 1 else str(value)
    quiz.check_button.click()
    for label in answers:
        assert 'data-status="correct"' in quiz.feedback[label].value
        assert _text(quiz.feedback[label].value).startswith("Correct")
    words = [p.label for p in quiz.question.parts if not p.numeric]
    assert all(quiz.feedback[label].value == "" for label in words), "an empty box gets no feedback"


@pytest.mark.parametrize("kind", KINDS)
def test_a_usual_mistake_is_named_in_the_feedback(kind):
    quiz = Quiz(kind, seed=8)
    part = next(p for p in quiz.question.parts if p.numeric and any(m.id not in SLIPS for m in p.mistakes))
    mistake = next(m for m in part.mistakes if m.id not in SLIPS)
    quiz.answers[part.label].value = fmt(mistake.value)
    quiz.check_button.click()
    shown = _text(quiz.feedback[part.label].value)
    assert 'data-status="mistake"' in quiz.feedback[part.label].value
    assert mistake.name in shown and mistake.info.step in shown
    assert fmt(part.answer) not in shown.replace(fmt(mistake.value), "")


def test_unreadable_and_wrong_answers_get_a_hint():
    quiz = Quiz("alpha", seed=2)
    quiz.answers["b"].value = "half"
    quiz.answers["d"].value = "7"
    quiz.check_button.click()
    assert 'data-status="unreadable"' in quiz.feedback["b"].value
    assert 'data-status="wrong"' in quiz.feedback["d"].value and "at most 1" in quiz.feedback["d"].value


def test_words_part_is_self_marked_by_ticking_the_mark_schemes_points():
    """No machine marks a written answer (issue 23): after "check" the student ticks the points it makes."""
    quiz = Quiz("partial", seed=1)
    part = quiz.question.parts[-1]
    assert part.form == "words"
    quiz.answers[part.label].value = "It is fine to merge them, there is no bias, we lose nothing."
    quiz.check_button.click()
    assert 'data-status="self"' in quiz.feedback[part.label].value  # no marks from its words
    assert "to self-mark" in quiz.score_html.value
    boxes = quiz.ticks[part.label]
    assert [b.description for b in boxes] == [f"({i}) {k.text}" for i, k in enumerate(part.key_points, 1)]
    boxes[0].value = True
    assert 'data-status="self-marked"' in quiz.feedback[part.label].value
    assert _text(quiz.feedback[part.label].value).startswith(f"1 of {part.marks} marks (self-marked")
    assert "(1 self-marked)" in quiz.score_html.value
    boxes[0].value = False
    assert _text(quiz.feedback[part.label].value).startswith(f"0 of {part.marks} marks (self-marked")
    quiz.check_button.click()  # checking again keeps one set of boxes
    assert len(quiz.self_marking.children) == 1


def test_solution_is_revealed_step_by_step_then_in_full():
    quiz = Quiz("fleiss", seed=5)
    steps = quiz.question.solution().steps
    quiz.step_button.click()
    first = quiz.solution_html.value
    assert f"<h4>1. {steps[0].heading.html()}</h4>" in first and f"Step 1 of {len(steps)}" in first
    assert "<h4>2. " not in first
    quiz.step_button.click()
    assert f"<h4>2. {steps[1].heading.html()}</h4>" in quiz.solution_html.value
    quiz.solution_button.click()
    full = quiz.solution_html.value
    assert all(s.heading.html() in full for s in steps) and "whole solution" in full
    kappa = quiz.question.answers()["c"]
    assert (
        f"\\frac{{{kappa.numerator}}}{{{kappa.denominator}}}" in full
    )  # the exact kappa, typeset by MathJax
    quiz.step_button.click()  # past the end: stays complete
    assert quiz.solution_html.value == full


def test_callbacks_record_their_time():  # the times themselves: benchmarks/bench_quiz.py
    quiz = Quiz("alpha", seed=0)
    for button in (quiz.new_button, quiz.solution_button, quiz.check_button):
        before = quiz.last_update_ms
        button.click()
        assert quiz.last_update_ms >= 0 and quiz.last_update_ms is not before


def test_display_keeps_a_stable_plain_text():
    quiz = Quiz("weighted", seed=9)
    bundle = quiz._repr_mimebundle_()
    assert bundle["text/plain"] == "Quiz: " + quiz.question.title + ", question " + quiz.question.id
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert quiz.question.id in repr(quiz)


def test_solution_uses_the_steps_html_renderer():
    """The quiz shows each step's own HTML: real tables, maths left as $$...$$ for HTMLMath."""
    quiz = Quiz("cohen", seed=6)
    quiz.solution_button.click()
    shown = quiz.solution_html.value
    steps = quiz.question.solution().steps
    assert isinstance(quiz.solution_html, w.HTMLMath) and isinstance(quiz.question_html, w.HTMLMath)
    assert all(step.html in shown for step in steps)
    table = steps[0].html
    assert '<th scope="col">' in table and '<th scope="row">' in table and "|" not in table
    assert '<div class="iaa-math">$$' in shown and "\\begin{aligned}" in shown and "&amp;=" in shown
    assert "**" not in shown and "| " not in shown  # no Markdown left in the HTML


def test_quiz_rejects_a_kind_it_does_not_know():
    with pytest.raises(AgreementError, match="kind must be one of 'cohen', 'fleiss'; got 'kappa'"):
        Quiz("kappa", kinds=["cohen", "fleiss"])
    with pytest.raises(AgreementError, match="kinds must be one of 'cohen', .*; got 'cubic'"):
        Quiz("cohen", kinds=["cohen", "cubic"])


# ------------------------------------------------------------ the mistake log
def _log(tmp_path):
    from iaa_teach.exercises import MistakeLog

    return MistakeLog.open(tmp_path / "log.json")


def test_without_a_log_nothing_is_recorded_and_no_log_button(tmp_path, monkeypatch):
    monkeypatch.setenv("IAA_TEACH_MISTAKE_LOG", str(tmp_path / "log.json"))
    quiz = Quiz("cohen", seed=3)
    quiz.answers["a"].value = "0.5"
    quiz.check_button.click()
    assert quiz.log is None and not (tmp_path / "log.json").exists()
    actions = next(c for c in quiz.widget.children if quiz.check_button in getattr(c, "children", ()))
    assert quiz.progress_button not in actions.children


def test_the_first_answer_to_each_part_is_logged_with_its_mistake(tmp_path):
    from iaa_teach.exercises import MistakeLog

    log = _log(tmp_path)
    quiz = Quiz("fleiss", seed=8, log=log)
    part = next(p for p in quiz.question.parts if p.numeric and any(m.id not in SLIPS for m in p.mistakes))
    mistake = next(m for m in part.mistakes if m.id not in SLIPS)
    quiz.answers[part.label].value = fmt(mistake.value)
    other = next(p.label for p in quiz.question.parts if p.numeric and p is not part)
    quiz.answers[other].value = "half"  # unreadable: not recorded
    quiz.check_button.click()
    quiz.answers[part.label].value = fmt(part.answer)
    quiz.check_button.click()  # a second try on the same question: not recorded again
    saved = MistakeLog.open(log.path).answers
    assert [(a.kind, a.seed, a.part, a.correct) for a in saved] == [("fleiss", 8, part.label, False)]
    assert mistake.id in saved[0].mistakes
    quiz.seed.value = 9
    assert f"what you get if you {mistake.info.name} (once)" in _text(quiz.status.value)
    quiz.progress_button.click()
    assert "Leitner box" in quiz.progress_html.value and "<table" in quiz.progress_html.value


def test_new_question_draws_the_kind_from_the_leitner_boxes(tmp_path):
    log = _log(tmp_path)
    for _ in range(4):
        log.record("cohen", part="c", skill="kappa", correct=True)
    quiz = Quiz("cohen", seed=0, kinds=["cohen", "alpha"], log=log)
    kinds = []
    for _ in range(20):
        quiz.new_button.click()
        kinds.append(quiz.question.kind)
        assert quiz.question.kind == quiz.kind.value and quiz.question.seed == quiz.seed.value
        assert kinds[-1] == log.pick(["cohen", "alpha"], quiz.seed.value)
    assert kinds.count("alpha") > kinds.count("cohen")


def test_a_damaged_log_is_reported_and_the_quiz_goes_on(tmp_path):
    (tmp_path / "log.json").write_text("{not json")
    quiz = Quiz("cohen", seed=3, log=_log(tmp_path))
    assert "set aside" in quiz.status.value and 'role="status"' in quiz.status.value
    quiz.answers["c"].value = fmt(quiz.question.answers()["c"])
    quiz.check_button.click()
    assert 'data-status="correct"' in quiz.feedback["c"].value
    assert len(quiz.log.answers) == 1


def test_quiz_refuses_a_log_that_is_not_one():
    with pytest.raises(AgreementError, match="log must be a MistakeLog"):
        Quiz("cohen", log="my-log.json")


def test_answer_boxes_are_named_by_their_part():
    quiz = Quiz("alpha", seed=1)
    assert [quiz.answers[label].description for label in "abcdef"] == [
        "(a)",
        "(b)",
        "(c)",
        "(d)",
        "(e)",
        "(f)",
    ]


def test_the_level_list_changes_the_question():
    quiz = Quiz("fleiss", seed=4, level=1)
    assert quiz.question.ratings == make_question("fleiss", 4, level=1).ratings
    assert quiz.question.ratings.n_items <= 6 and "level 1" in quiz.status.value
    quiz.level.value = (
        3  # fleiss seed 4 at level 3 asks to choose the coefficient: the quiz goes on to seed 6
    )
    assert quiz.seed.value == 6 and quiz.question.ratings == make_question("fleiss", 6, level=3).ratings
    assert quiz.question.ratings.n_items >= 10
    with pytest.raises(AgreementError, match="level"):
        Quiz("cohen", level=0)


def test_the_kind_list_never_names_the_kind_of_a_choose_the_coefficient_question():
    """Issue 23's leak: a kind's entry in the dropdown never shows a question that asks to choose the
    coefficient; "which coefficient?" shows only those, and nothing on show names their kind."""
    from iaa_teach.exercises import question_for
    from iaa_teach.widgets._quiz import CHOOSE

    quiz = Quiz("cohen", seed=0, level=3)
    assert CHOOSE in quiz.kind.options
    kinds_seen = set()
    for kind in ("cohen", "weighted", "fleiss", "alpha"):
        quiz.kind.value = kind
        for _ in range(8):
            assert not quiz.question.choose and quiz.question.kind == kind
            quiz.new_button.click()
    quiz.kind.value = CHOOSE
    for _ in range(12):
        q = quiz.question
        assert q.choose and quiz.kind.value == CHOOSE and q.level == 3
        assert question_for(q.id).ratings == q.ratings  # the code still names the question shown
        kinds_seen.add(q.kind)
        # the options name every coefficient; the heading, the code, the status and the dropdown none
        assert q.kind not in quiz.status.value.lower() and q.title == "Agreement between annotators"
        assert q.kind not in quiz.question_html.value.lower().split("</b>")[0]
        quiz.new_button.click()
    assert len(kinds_seen) >= 3, kinds_seen


def test_a_written_answer_gets_a_box_of_several_lines_sized_by_its_marks():
    import ipywidgets as w

    quiz = Quiz("partial", seed=2, level=2)
    for part in quiz.question.parts:
        box = quiz.answers[part.label]
        if part.form == "words":
            assert isinstance(box, w.Textarea) and box.rows == 1 + 2 * part.marks, (part.label, box.rows)
            assert box in quiz._rows.rows[quiz.question.parts.index(part)].children
        else:
            assert isinstance(box, w.Text)
    words = next(p for p in quiz.question.parts if p.form == "words")
    quiz.answers[words.label].value = "They are two people.\nMerging throws labels away."
    quiz.check_button.click()
    assert "self-mark" in quiz.feedback[words.label].value.lower()
