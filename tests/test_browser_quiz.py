"""The revision quiz in a real JupyterLab, driven by headless Chromium.

Open notebooks/10_exam_revision.ipynb, run all cells, press "new question",
type the right answer to part (a) and to the kappa part, press "check" and
see "Correct". The right answers are computed here, in the test process,
from the seed the quiz shows (``make_question(kind, seed)``), independently
of the kernel.

Skipped with the reason when Chromium or Playwright is missing, unless
IAA_REQUIRE_BROWSER=1 (then it fails); see tests/browser_support.py.
"""

from __future__ import annotations

import pytest
from browser_support import aria_controls, open_notebook

from iaa_teach import fmt
from iaa_teach.exercises import make_question

NOTEBOOK = "10_exam_revision.ipynb"
TIMEOUT_MS = 30_000


@pytest.mark.browser
@pytest.mark.slow
def test_quiz_new_question_right_answer_is_correct(lab_server):
    with open_notebook(NOTEBOOK, server=lab_server) as page:  # every cell has run, the kernel is idle
        assert page.get_by_text("Error displaying widget").count() == 0
        quiz = page.locator(".iaa-quiz").first
        quiz.wait_for(timeout=TIMEOUT_MS)
        quiz.scroll_into_view_if_needed()
        controls = aria_controls(quiz)
        assert not [role for role, name in controls if not name], controls  # every control has a name
        assert ("textbox", "(a)") in controls
        seed_box = quiz.locator(".iaa-quiz-seed input")
        kind = quiz.locator("select").first.input_value()
        start = int(seed_box.input_value())

        quiz.locator("button.iaa-quiz-new").click()
        question = make_question(kind, start + 1)  # the same question, built outside the kernel
        status = quiz.locator(".widget-html-content", has_text=f"Question {question.id}")
        status.first.wait_for(timeout=TIMEOUT_MS)
        assert int(seed_box.input_value()) == start + 1

        # the question table in the browser is the one computed here; its code names no kind
        shown = quiz.locator(".iaa-quiz-question").inner_text(timeout=TIMEOUT_MS)
        assert question.id in shown and kind not in question.id
        assert all(str(label) in shown for row in question.ratings.rows() for label in row if label)

        answers = question.answers()
        coefficient = [p.label for p in question.parts if p.quantity in ("kappa", "alpha")][0]
        for label in ("a", coefficient):
            box = quiz.locator(f".iaa-quiz-answer-{label} input")
            box.fill(fmt(answers[label]))
            box.press("Tab")
        quiz.locator("button.iaa-quiz-check").click()
        for label in ("a", coefficient):
            feedback = quiz.locator(f".iaa-quiz-feedback-{label}")
            feedback.locator("[data-status]").wait_for(timeout=TIMEOUT_MS)
            text = feedback.inner_text()
            assert text.startswith("Correct"), (label, text)
            assert fmt(answers[label]) in text

        # a part in words is self-marked: after "check" its points are ticked in the page
        words = next((p for p in question.parts if p.form == "words"), None)
        if words is not None:
            box = quiz.locator(f".iaa-quiz-answer-{words.label} textarea")  # several lines, two a mark
            assert box.get_attribute("rows") == str(1 + 2 * words.marks)
            box.fill("Two annotators agree by chance too.\nThe table is small.")
            box.press("Tab")
            quiz.locator("button.iaa-quiz-check").click()
            tick = quiz.locator(f".iaa-self-mark-{words.label}-1 input")
            tick.wait_for(timeout=TIMEOUT_MS)
            tick.check()
            quiz.locator(".iaa-quiz-score", has_text="1 self-marked").wait_for(timeout=TIMEOUT_MS)
            feedback = quiz.locator(f".iaa-quiz-feedback-{words.label} [data-status=self-marked]")
            feedback.wait_for(timeout=TIMEOUT_MS)


@pytest.mark.browser
@pytest.mark.slow
def test_quiz_level_four_sections_and_follow_through_of_the_second_chance_rule(lab_server):
    """Level 4 in the browser (issue 23): the question in its three headed sections, a box for each of its
    parts, and the coefficient under the second chance rule marked with follow-through from a wrong second
    P_e typed in its box (the values computed here, outside the kernel)."""
    from fractions import Fraction

    from iaa_teach.exercises._questions import SECOND_RULE

    with open_notebook(NOTEBOOK, server=lab_server) as page:
        quiz = page.locator(".iaa-quiz").first
        quiz.wait_for(timeout=TIMEOUT_MS)
        quiz.scroll_into_view_if_needed()
        quiz.locator(".iaa-quiz-level select").select_option("4")
        quiz.locator(".iaa-quiz-question", has_text="level 4").wait_for(timeout=TIMEOUT_MS)
        kind = quiz.locator("select").first.input_value()
        seed = int(quiz.locator(".iaa-quiz-seed input").input_value())
        question = make_question(kind, seed, level=4)
        shown = quiz.locator(".iaa-quiz-question").inner_text(timeout=TIMEOUT_MS)
        assert question.id in shown and question.total_marks == 20
        for title, parts in question.sections():
            assert f"{title} [{sum(p.marks for p in parts)}]" in shown, title
        for p in question.parts:  # a box for every part, (a) to (i)
            kind_of_box = "textarea" if p.form == "words" else "input"
            assert quiz.locator(f".iaa-quiz-answer-{p.label} {kind_of_box}").count() == 1, p.label

        p_e, coefficient = (next(p for p in question.parts if p.quantity == q) for q in SECOND_RULE[kind])
        first = question.part(coefficient.follows[0])
        wrong = p_e.answer + Fraction(5, 100)
        ft = (
            1 - first.answer / wrong
            if coefficient.quantity == "alpha_repl"
            else (first.answer - wrong) / (1 - wrong)
        )
        for part, value in ((first, first.answer), (p_e, wrong), (coefficient, ft)):
            box = quiz.locator(f".iaa-quiz-answer-{part.label} input")
            box.fill(fmt(value) if Fraction(value).denominator > 1 else str(value))
            box.press("Tab")
        quiz.locator("button.iaa-quiz-check").click()
        feedback = quiz.locator(f".iaa-quiz-feedback-{coefficient.label}")
        feedback.locator("[data-status]").wait_for(timeout=TIMEOUT_MS)
        text = feedback.inner_text()
        assert text.startswith("Follow-through"), text
        wrong_feedback = quiz.locator(f".iaa-quiz-feedback-{p_e.label}").inner_text()
        assert not wrong_feedback.startswith(("Correct", "Follow-through")), wrong_feedback
