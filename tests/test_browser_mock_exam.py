"""The mock exam in a real JupyterLab, driven by headless Chromium, to its score.

Open notebooks/10_exam_revision.ipynb, run all cells, find the mock exam,
press "start the exam", answer every numerical and multiple-choice part right
(computed here, in the test process, from the kind, seed and level the exam
shows: ``make_question(kind, seed, level=level)``), move on with "next
question", press "finish and mark" and read the total and the tables. The
countdown ticks in the browser; every control has an accessible name.

Skipped with the reason when Chromium or Playwright is missing, unless
IAA_REQUIRE_BROWSER=1 (then it fails); see tests/browser_support.py.
"""

from __future__ import annotations

import re

import pytest
from browser_support import aria_controls, open_notebook

from iaa_teach import fmt
from iaa_teach.exercises import question_for

NOTEBOOK = "10_exam_revision.ipynb"
TIMEOUT_MS = 30_000


def _answer(part) -> str:
    if part.form == "words":
        return "My answer in words."
    if part.form in ("choice", "select"):
        return ", ".join(part.key)
    return fmt(part.answer) if part.answer.denominator > 1 else str(part.answer)


@pytest.mark.browser
@pytest.mark.slow
def test_a_short_mock_exam_runs_to_its_score(lab_server):
    with open_notebook(NOTEBOOK, server=lab_server) as page:  # every cell has run, the kernel is idle
        assert page.get_by_text("Error displaying widget").count() == 0
        exam = page.locator(".iaa-mock").first
        exam.wait_for(timeout=TIMEOUT_MS)
        exam.scroll_into_view_if_needed()
        header = exam.locator(".widget-html-content", has_text="Mock exam").first.inner_text()
        n_questions = int(re.search(r"(\d+) questions?", header).group(1))
        level = int(re.search(r"level (\d)", header).group(1))
        timer = exam.locator(".iaa-countdown [role=timer]")
        before = timer.inner_text()

        exam.locator("button.iaa-mock-start").click()
        # the countdown ticks in the browser: its text changes (a timeout here is the failure)
        page.wait_for_function(
            "([el, before]) => el.innerText !== before",
            arg=[timer.element_handle(), before],
            timeout=TIMEOUT_MS,
        )

        unnamed = [role for role, name in aria_controls(exam) if not name]
        assert not unnamed, unnamed  # every box and button has an accessible name

        questions = []
        for i in range(n_questions):
            heading = exam.locator(".iaa-mock-question", has_text=f"Question {i + 1} of {n_questions}")
            heading.wait_for(timeout=TIMEOUT_MS)
            code = re.search(r"question (Q-[0-9A-Z]{4}-[0-9A-Z]{4})", heading.inner_text()).group(1)
            q = question_for(code)  # the same question, built outside the kernel from its code
            assert q.level == level
            questions.append(q)
            for part in q.parts:
                box = exam.locator(f".iaa-mock-answer-{part.label} textarea")
                box.fill(_answer(part))
                box.press("Tab")
            if i < n_questions - 1:
                exam.locator("button.iaa-mock-next").click()
        exam.locator("button.iaa-mock-finish").click()

        result = exam.locator(".iaa-mock-result")
        result.locator(".iaa-total").wait_for(timeout=TIMEOUT_MS)
        total = result.locator(".iaa-total").inner_text()
        got = sum(p.marks for q in questions for p in q.parts if p.form != "words")
        available = sum(q.total_marks for q in questions)
        assert total.startswith(f"Total: {got} / {available} marks"), total  # no marks from words
        words = [(i, p) for i, q in enumerate(questions) for p in q.parts if p.form == "words"]
        for i, p in words:  # self-marking: tick the first point of each written answer
            tick = exam.locator(
                f".iaa-mock-self-mark-{i + 1}.iaa-self-mark-{p.label} .iaa-self-mark-{p.label}-1 input"
            )
            tick.check()
        if words:
            want = f"Total: {got + len(words)} / {available} marks"
            result.locator(".iaa-total", has_text=want).wait_for(timeout=TIMEOUT_MS)
            assert f"{len(words)} self-marked" in result.locator(".iaa-total").inner_text()
        captions = result.locator("caption").all_inner_texts()
        assert captions == ["Marks by skill (weakest first)", "Marks per part"]
        skills = {p.skill for q in questions for p in q.parts}
        shown = result.locator("table").nth(0).inner_text()
        assert all(skill in shown for skill in skills), shown
        assert "Finished with" in exam.locator(".iaa-mock-status").inner_text()


def _started(page):
    """The notebook's mock exam, started: its locator and its number of questions."""
    exam = page.locator(".iaa-mock").first
    exam.wait_for(timeout=TIMEOUT_MS)
    exam.scroll_into_view_if_needed()
    header = exam.locator(".widget-html-content", has_text="Mock exam").first.inner_text()
    n_questions = int(re.search(r"(\d+) questions?", header).group(1))
    exam.locator("button.iaa-mock-start").click()
    return exam, n_questions


# Each answer box on show, its placeholder written into it (no input event: the kernel sees nothing), then
# emptied again: does the box show all of it (the text no taller and no wider than the box)?
_PLACEHOLDERS_JS = """(exam) => Array.from(exam.querySelectorAll('textarea')).filter(t => t.offsetParent !== null)
  .map(t => { const before = t.value; t.value = t.placeholder;
              const seen = {placeholder: t.placeholder, rows: t.rows, box: t.clientHeight, text: t.scrollHeight,
                            wide: t.scrollWidth > t.clientWidth + 1};
              t.value = before; return seen; })"""

_CLAUSES = {
    "number": "numerical answers",
    "choice": "a multiple-choice part with a letter",
    "select": "every letter that applies",
    "words": "a written part in a sentence or two",
}


@pytest.mark.browser
@pytest.mark.slow
def test_every_answer_box_shows_its_placeholder_and_the_instructions_fit_the_parts(lab_server):
    """Each answer box is tall enough to show its placeholder in full (a select-all part's "all the letters
    that apply, e.g. A, C (of A-F)" was cut in a one-line box), and the instructions under a question speak
    of the ways its own parts are answered, and only those (they spoke of "a letter" above a select-all
    part)."""
    with open_notebook(NOTEBOOK, server=lab_server) as page:
        exam, n_questions = _started(page)
        forms_seen = set()
        for i in range(n_questions):
            heading = exam.locator(".iaa-mock-question", has_text=f"Question {i + 1} of {n_questions}")
            heading.wait_for(timeout=TIMEOUT_MS)
            q = question_for(
                re.search(r"question (Q-[0-9A-Z]{4}-[0-9A-Z]{4})", heading.inner_text()).group(1)
            )
            forms = {p.form for p in q.parts}
            forms_seen |= forms
            boxes = exam.locator("textarea:visible")
            expect_count = len(q.parts)
            page.wait_for_function(
                "([el, n, first]) => { const t = [...el.querySelectorAll('textarea')]"
                ".filter(t => t.offsetParent !== null); return t.length === n && t[0].placeholder === first; }",
                arg=[exam.element_handle(), expect_count, q.parts[0].placeholder],
                timeout=TIMEOUT_MS,
            )
            assert boxes.count() == expect_count
            seen = exam.evaluate(_PLACEHOLDERS_JS)
            cut = [s for s in seen if s["text"] > s["box"] + 1 or s["wide"]]
            assert cut == [], f"question {i + 1}: placeholders cut: {cut}"
            footer = heading.inner_text().split("Total:")[-1]
            for form, clause in _CLAUSES.items():
                assert (clause in footer) == (form in forms), (form, footer)
            if i < n_questions - 1:
                exam.locator("button.iaa-mock-next").click()
        assert "select" in forms_seen  # the notebook's exam has a select-all part, whose box was cut


#: The feedback column of "Marks per part", measured in the browser: the narrowest feedback cell's width in ems
#: of its font, whether it is the box's whole width, and whether the table stays in its box.
_FEEDBACK_JS = """([box, table]) => {
  const cells = [...table.querySelectorAll('tbody tr')].map(tr => tr.children[4]);
  const widths = cells.map(td => td.getBoundingClientRect().width);
  return {ems: Math.min(...widths) / parseFloat(getComputedStyle(cells[0]).fontSize),
          whole: Math.min(...widths) >= box.clientWidth - 1, rows: cells.length,
          overflow: table.scrollWidth - table.clientWidth,
          right: table.getBoundingClientRect().right - box.getBoundingClientRect().right}; }"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("viewport", [(1280, 720), (700, 720)], ids=["1280x720", "narrow"])
def test_the_feedback_is_readable_and_the_marks_table_stays_in_its_box(lab_server, viewport):
    """After marking, every feedback of "Marks per part" is at least 22 ems wide (about 40 characters a
    line; it was 17 at 1280 x 720, and 7, a word or two a line, in a narrow notebook), or the box's whole
    width where the box is narrower, at 1280 x 720 in JupyterLab and in a narrow notebook (700 px, the
    file browser open), and the table does not overflow its box (it did, the file browser closed): in a box narrower than
    54 ems each part is a block, its feedback under it, the whole width."""
    with open_notebook(NOTEBOOK, server=lab_server, viewport=viewport) as page:
        exam, n_questions = _started(page)
        heading = exam.locator(".iaa-mock-question", has_text=f"Question 1 of {n_questions}")
        heading.wait_for(timeout=TIMEOUT_MS)
        q = question_for(re.search(r"question (Q-[0-9A-Z]{4}-[0-9A-Z]{4})", heading.inner_text()).group(1))
        for part in q.parts:  # wrong answers: the longest feedback, the checker's hints
            box = exam.locator(f".iaa-mock-answer-{part.label} textarea")
            box.fill("0.5")
            box.press("Tab")
        exam.locator("button.iaa-mock-finish").click()
        result = exam.locator(".iaa-mock-result")
        parts = result.locator("table", has=page.locator("caption", has_text="Marks per part"))
        parts.wait_for(timeout=TIMEOUT_MS)
        page.wait_for_function(  # every part's row is there
            "([table, n]) => table.querySelectorAll('tbody tr').length >= n",
            arg=[parts.element_handle(), len(q.parts) + n_questions - 1],
            timeout=TIMEOUT_MS,
        )
        parts.scroll_into_view_if_needed()
        seen = page.evaluate(_FEEDBACK_JS, [result.element_handle(), parts.element_handle()])
        assert seen["ems"] >= 22 or seen["whole"], seen  # a box narrower than 22 ems: the whole width
        assert seen["overflow"] <= 1 and seen["right"] <= 1, seen
        assert "Not yet" in parts.inner_text()  # the checker's feedback on a wrong answer is on show
