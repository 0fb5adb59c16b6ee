"""The mock exam, headless: a fake clock, answers typed into the boxes, buttons pressed through their callbacks."""

from __future__ import annotations

import html
import math
import re
from fractions import Fraction

import pytest

from iaa_teach import AgreementError, fmt
from iaa_teach.exercises import KINDS, MistakeLog, make_question
from iaa_teach.exercises._questions import SLIPS
from iaa_teach.widgets import MockExam
from iaa_teach.widgets._controls import Countdown
from iaa_teach.widgets._mock_exam import MINUTES_PER_MARK


class Clock:
    """Seconds since the epoch, moved on by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _text(widget_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", widget_html))


def right_answer(part) -> str:
    return fmt(part.answer) if part.answer.denominator > 1 else str(part.answer)


def answer_all(exam, index, how=right_answer):
    """Type an answer to every numerical part of question ``index`` (shown first)."""
    exam.go(index)
    for part in exam.questions[index].parts:
        if part.numeric:
            exam.answers[part.label].value = how(part)


def test_the_same_arguments_give_the_same_exam():
    a, b = MockExam(3, seed=11, level=1), MockExam(3, seed=11, level=1)
    assert [(q.kind, q.seed) for q in a.questions] == [(q.kind, q.seed) for q in b.questions]
    assert [q.seed for q in a.questions] == [11, 12, 13]
    assert len(set(a.kinds)) == 3  # each kind once before any comes twice
    for q in a.questions:
        assert q.ratings == make_question(q.kind, q.seed, level=1).ratings


def test_before_the_start_only_the_rules_show_and_the_clock_waits():
    clock = Clock()
    exam = MockExam(2, seed=3, clock=clock)
    total = sum(q.total_marks for q in exam.questions)
    assert exam.total_marks == total and exam.minutes == math.ceil(round(total * MINUTES_PER_MARK, 9))
    assert MINUTES_PER_MARK == 1.8  # a Tripos paper's rate
    text = _text(exam.header.value)
    assert f"{total} marks" in text and "2 questions" in text
    assert exam.question_html.value == "" and exam.nav.layout.display == "none"
    clock.now += 3600
    assert exam.time_left() == exam.minutes * 60 and exam.state == "ready"
    assert exam.countdown.ends_at == 0 and exam.countdown.seconds_left == exam.minutes * 60
    exam.finish_button.click()  # nothing to finish before the start
    assert exam.state == "ready"


def test_start_shows_the_first_question_and_sets_the_deadline():
    clock = Clock()
    exam = MockExam(2, seed=3, minutes=10, clock=clock)
    exam.start_button.click()
    q = exam.questions[0]
    assert exam.state == "running" and exam.current == 0
    assert exam.countdown.ends_at == (clock.now + 600) * 1000
    assert q.html() in exam.question_html.value and "Question 1 of 2" in exam.question_html.value
    shown = [r for r in exam._rows.rows if r.layout.display != "none"]
    assert len(shown) == len(q.parts)
    for part in q.parts:
        assert exam.marks_html[part.label].value.startswith(f"[{part.marks} mark")
    assert exam.previous_button.disabled and not exam.next_button.disabled
    assert exam.start_button.layout.display == "none"
    assert all(
        b.layout.display != "none" for b in (exam.previous_button, exam.next_button, exam.finish_button)
    )


def test_answers_are_kept_while_moving_between_questions():
    exam = MockExam(2, seed=4, clock=Clock())
    exam.start_button.click()
    exam.answers["a"].value = "0.5"
    exam.next_button.click()
    assert exam.current == 1 and exam.answers["a"].value == ""
    exam.answers["a"].value = "7/10"
    exam.previous_button.click()
    assert exam.current == 0 and exam.answers["a"].value == "0.5"
    exam.next_button.click()
    assert exam.answers["a"].value == "7/10"
    assert "2 of" in _text(exam.status.value)  # two parts answered
    exam.answers["b"].value = "0.3"
    assert "3 of" in _text(exam.status.value)  # counted as they are typed


def test_all_right_gives_full_marks_on_the_numerical_parts_and_a_breakdown_by_skill():
    clock = Clock()
    exam = MockExam(2, seed=6, minutes=30, clock=clock)
    exam.start_button.click()
    for i in range(2):
        answer_all(exam, i)
    clock.now += 60 * 12
    exam.finish_button.click()
    assert exam.state == "marked" and not exam.timed_out
    numeric = sum(p.marks for q in exam.questions for p in q.parts if p.numeric)
    got, total = exam.score()
    assert got == numeric and total == exam.total_marks
    # the breakdown adds up, skill by skill, to the parts' own marks
    expected: dict[str, list[int]] = {}
    for q in exam.questions:
        for p in q.parts:
            tally = expected.setdefault(p.skill, [0, 0])
            tally[0] += p.marks if p.numeric else 0
            tally[1] += p.marks
    assert exam.by_skill() == {k: tuple(v) for k, v in expected.items()}
    shown = _text(exam.result_html.value)
    assert f"Total: {got} / {total} marks" in shown
    assert "Marks per part" in shown and "Marks by skill" in shown
    assert (
        "<caption>Marks by skill" in exam.result_html.value
        and '<th scope="col">skill</th>' in exam.result_html.value
    )
    assert "18:00 left" in _text(exam.status.value)
    assert exam.countdown.ends_at == 0 and exam.countdown.seconds_left == 18 * 60
    assert "Total:" in exam.text() and "Marks by skill" in exam.text()


def test_a_usual_mistake_loses_the_parts_marks_and_is_named():
    exam = MockExam(1, seed=2, kinds=["fleiss"], clock=Clock())
    exam.start_button.click()
    q = exam.questions[0]
    part = next(p for p in q.parts if p.numeric and any(m.id not in SLIPS for m in p.mistakes))
    mistake = next(m for m in part.mistakes if m.id not in SLIPS)
    exam.answers[part.label].value = fmt(mistake.value)
    exam.finish_button.click()
    row = next(r for r in exam.results[0] if r[0] is part)
    assert row[2] == 0 and row[1].status == "mistake"
    assert any(mistake.name in cell for r in exam.marks_table().rows for cell in r)  # text() wraps it
    assert exam.score()[0] == 0
    assert "(no answer)" in exam.marks_table().text() and "Not answered." in exam.marks_table().text()


def test_time_up_is_found_on_the_next_action_and_the_answers_are_marked_as_they_stand():
    clock = Clock()
    exam = MockExam(2, seed=8, minutes=5, clock=clock)
    exam.start_button.click()
    q = exam.questions[0]
    first = next(p for p in q.parts if p.numeric)
    exam.answers[first.label].value = right_answer(first)
    clock.now += 5 * 60 + 1
    assert exam.time_left() == 0
    exam.next_button.click()  # the deadline is checked: marked now, no second question
    assert exam.state == "marked" and exam.timed_out
    assert exam.score()[0] == first.marks
    assert "Time is up" in _text(exam.status.value)
    exam.answers[first.label].value = "changed"
    exam.finish_button.click()  # after marking, nothing changes
    assert exam.score()[0] == first.marks


def test_countdown_text_and_the_low_time_warning():
    c = Countdown(description="time left", seconds_left=125)
    assert c.text() == "time left 2:05"
    c.ends_at = 10_000_000.0
    assert c.text(now_ms=10_000_000.0 - 59_500) == "time left 1:00"
    assert c.text(now_ms=10_000_000.0 + 1) == "time left time is up"


def test_durations_read_as_words():
    from iaa_teach.widgets._mock_exam import duration

    assert [duration(m) for m in (30, 1, 12.5, 0.75)] == [
        "30 minutes",
        "1 minute",
        "12:30 minutes",
        "0:45 minutes",
    ]


def test_every_control_has_a_name():
    exam = MockExam(1, seed=1, clock=Clock())
    assert all(
        b.description for b in (exam.start_button, exam.previous_button, exam.next_button, exam.finish_button)
    )
    assert [exam.answers[x].description for x in "abcdef"] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)"]
    assert exam.countdown.description == "time left"


def test_the_log_records_the_marked_answers(tmp_path):
    log = MistakeLog.open(tmp_path / "log.json")
    exam = MockExam(2, seed=5, kinds=["cohen", "alpha"], log=log, clock=Clock())
    assert exam.kinds == [log.pick(["cohen", "alpha"], 5), log.pick(["cohen", "alpha"], 6)]
    exam.start_button.click()
    answer_all(exam, 0)
    exam.finish_button.click()
    saved = MistakeLog.open(log.path).answers
    q = exam.questions[0]
    assert [(a.kind, a.seed, a.part, a.correct) for a in saved] == [
        (q.kind, q.seed, p.label, True) for p in q.parts if p.numeric
    ]
    assert all(a.skill == p.skill for a, p in zip(saved, [p for p in q.parts if p.numeric]))
    assert "Mistake log" in _text(exam.status.value)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_questions": 0}, "n_questions"),
        ({"n_questions": 11}, "n_questions"),
        ({"level": 5}, "level"),
        ({"minutes": 0}, "minutes"),
        ({"kinds": []}, "kinds is empty"),
        ({"kinds": "cohen"}, "kinds must be a list"),
        ({"kinds": ["cohen", "kappa"]}, "kinds must be one of"),
        ({"log": "log.json"}, "log must be a MistakeLog"),
    ],
)
def test_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(AgreementError, match=match):
        MockExam(**kwargs)


def test_display_keeps_a_stable_plain_text():
    exam = MockExam(2, seed=0, minutes=20, level=1)
    bundle = exam._repr_mimebundle_()
    assert bundle["text/plain"] == f"Mock exam: 2 questions, {exam.total_marks} marks, 20 minutes (level 1)"
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_callbacks_are_fast():
    exam = MockExam(3, seed=2, level=3, clock=Clock())
    exam.start_button.click()
    times = [exam.last_update_ms]
    for _ in range(2):
        exam.next_button.click()
        times.append(exam.last_update_ms)
    exam.finish_button.click()
    times.append(exam.last_update_ms)
    assert max(times) < 500, times


def test_every_kind_can_be_in_an_exam():
    exam = MockExam(len(KINDS), seed=20, clock=Clock())
    assert sorted(exam.kinds) == sorted(KINDS)
    assert all(Fraction(q.total_marks) > 0 for q in exam.questions)


def test_the_marks_are_the_checkers_own_including_part_marks():
    """An answer right to 2 decimals earns what the checker gives it (fewer than full marks)."""
    exam = MockExam(2, seed=0, kinds=["cohen"], clock=Clock())
    exam.start_button.click()
    for i in range(2):
        answer_all(exam, i, how=lambda part: fmt(part.answer, 2))
    exam.finish_button.click()
    partial = 0
    for q, results in zip(exam.questions, exam.results):
        for part, fb, got in results:
            if part.numeric:
                expected = q.check(part.label, fmt(part.answer, 2))
                assert fb.status == expected.status and got == expected.marks <= part.marks
                partial += 0 < got < part.marks
            else:
                assert fb.status == "empty" and got == 0
    assert partial >= 1
    assert exam.score()[0] == sum(got for results in exam.results for _, _, got in results)


def test_a_short_answer_is_self_marked_after_the_exam(tmp_path):
    """Issue 23: a written answer earns no marks from its words; the student ticks the scheme's points."""
    exam = MockExam(1, seed=1, kinds=["cohen"], clock=Clock())
    exam.start_button.click()
    q = exam.questions[0]
    words = next(p for p in q.parts if p.form == "words")
    text = "Kappa removes the agreement expected by chance, so it is lower than the observed agreement."
    exam.answers[words.label].value = text
    exam.finish_button.click()
    part, fb, got = next(r for r in exam.results[0] if r[0] is words)
    assert got == 0 and fb.status == "self" and "to self-mark" in exam.result_html.value
    boxes = exam.ticks[(0, words.label)]
    assert len(boxes) == len(words.key_points)
    boxes[1].value = True
    part, fb, got = next(r for r in exam.results[0] if r[0] is words)
    assert got == 1 and fb.status == "self-marked" and "self-marked" in fb.message
    assert (
        exam.score()[0] == 1 and "1 self-marked" in exam.result_html.value and "1 self-marked" in exam.text()
    )


def test_each_box_invites_its_form_of_answer():
    exam = MockExam(1, seed=0, kinds=["ac1"], level=1, clock=Clock())
    exam.start_button.click()
    forms = {p.label: p.form for p in exam.questions[0].parts}
    assert "choice" in forms.values()
    for label, form in forms.items():
        box = exam.answers[label]
        assert {"number": "29/59", "choice": "a letter", "select": "all the letters", "words": "sentence"}[
            form
        ] in box.placeholder
        assert (box.rows == 3) == (form == "words")


def test_typing_after_the_deadline_marks_the_exam_and_does_not_count():
    clock = Clock()
    exam = MockExam(1, seed=9, kinds=["cohen"], minutes=3, clock=clock)
    exam.start_button.click()
    part = exam.questions[0].parts[0]
    exam.answers[part.label].value = "0.1"  # in time: kept
    assert exam.typed[0][part.label] == "0.1"
    clock.now += 3 * 60
    exam.answers[part.label].value = right_answer(part)  # too late: the exam is marked as it stood
    assert exam.state == "marked" and exam.timed_out
    assert exam.typed[0][part.label] == "0.1" and exam.score()[0] == 0
    assert "Time is up" in _text(exam.status.value)


_CLAUSES = {
    "number": "numerical answers",
    "choice": "a multiple-choice part with a letter",
    "select": "every letter that applies",
    "words": "a written part in a sentence or two",
}


@pytest.mark.parametrize("kind", KINDS)
def test_the_instructions_speak_of_the_ways_its_parts_are_answered_and_only_those(kind):
    """Under a question, one clause for each form of its parts: "a letter" only with a multiple-choice
    part, "every letter that applies" with a select-all part (it said "a letter" over both)."""
    for seed in range(4):
        for level in (1, 3):
            q = make_question(kind, seed, level=level)
            forms = {p.form for p in q.parts}
            shown = html.unescape(re.sub(r"<[^>]+>", "", q.html())).split("Total:")[-1]
            for form, clause in _CLAUSES.items():
                assert (clause in shown) == (form in forms), (kind, seed, level, form, shown)


def test_a_select_all_box_has_lines_for_its_whole_placeholder():
    """The mock exam's select-all box is two lines high: its placeholder, "all the letters that apply, e.g.
    A, C (of A-F)", did not fit one (the browser test measures it)."""
    exam = MockExam(2, seed=30, level=1, clock=Clock())
    exam.start_button.click()
    part = next(p for p in exam.questions[0].parts if p.form == "select")
    assert exam.answers[part.label].rows == 2
    assert all(exam.answers[p.label].rows == 1 for p in exam.questions[0].parts if p.form == "number")


@pytest.mark.parametrize(
    "text", ["Almost perfect: kappa removes chance agreement.", "banana kappa Landis-Koch"]
)
def test_a_written_answer_not_yet_self_marked_says_no_machine_marked_it(text):
    """A machine never marks words: the feedback says it cannot and shows the mark scheme's points, and the
    marks column says "not marked", not "0 / 2" (which read as a mark the machine gave)."""
    exam = MockExam(1, seed=1, kinds=["cohen"], clock=Clock())
    exam.start_button.click()
    words = next(p for p in exam.questions[0].parts if p.form == "words")
    exam.answers[words.label].value = text
    exam.finish_button.click()
    _, fb, _ = next(r for r in exam.results[0] if r[0] is words)
    assert fb.status == "self" and fb.message.startswith(
        "Not marked: no machine can judge an answer in words"
    )
    assert all(k.text in fb.message for k in words.key_points)
    row = next(line for line in exam.marks_table().text().splitlines() if f"({words.label})" in line)
    assert row.rstrip().endswith(f"not marked / {words.marks}") and f"0 / {words.marks}" not in row
    exam.ticks[(0, words.label)][0].value = True  # ticked: now it has a mark, self-marked
    row = next(line for line in exam.marks_table().text().splitlines() if f"({words.label})" in line)
    assert row.rstrip().endswith(f"1 / {words.marks}")


def answer_everything(exam, words="Some words about it."):
    """Every numerical part right, every letter part right, and a written answer in every words box."""
    for i, q in enumerate(exam.questions):
        answer_all(exam, i)
        for part in q.parts:
            if part.form == "words":
                exam.answers[part.label].value = words
            elif part.choices:
                exam.answers[part.label].value = part.key


def skill_rows(exam) -> list[list[str]]:
    """The skills table's rows as text: skill (its words joined), marks, out of, share."""
    lines = exam.skills_table().text().splitlines()[2:]
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


def test_a_written_answer_not_yet_self_marked_is_not_the_weakest_skill():
    """Marks by skill counted a written answer not yet self-marked as 0 of its marks, so
    "interpretation 0 %" came first, the weakest; it has no mark yet: "not marked", ranked last.
    Once self-marked it counts."""
    exam = MockExam(2, seed=7, level=2, clock=Clock())
    exam.start_button.click()
    answer_everything(exam)
    exam.finish_button.click()
    (i, words), *_ = [(i, p) for i, q in enumerate(exam.questions) for p in q.parts if p.form == "words"]
    assert words.skill == "interpretation"
    assert all(
        fb.status in ("correct", "self") for results in exam.results for _, fb, _ in results
    )  # every other part is right: only the written one waits
    rows = skill_rows(exam)
    assert rows[-1] == ["interpretation", "-", "-", "not marked"]
    assert all(row[3] == "100 %" for row in rows[:-1])
    assert exam.by_skill()["interpretation"] == (0, 0) and exam.to_self_mark() == {"interpretation": 2}
    shown = _text(exam.result_html.value)
    assert "not marked" in shown and "interpretation 0" not in re.sub(r"\s+", " ", shown)
    exam.ticks[(i, words.label)][0].value = True  # self-marked: 1 of 2, now the weakest
    rows = skill_rows(exam)
    assert rows[0] == ["interpretation", "1", "2", "50 %"] and exam.to_self_mark() == {}


def test_a_skill_partly_self_marked_shares_only_its_marked_parts():
    """A skill with a marked part and a written answer still waiting: its share is of the marked part,
    and it says how many of its marks are not marked yet."""
    exam = MockExam(2, seed=1, level=2, clock=Clock())
    exam.start_button.click()
    answer_everything(exam)
    exam.finish_button.click()
    waiting = sum(
        p.marks for q in exam.questions for p in q.parts if p.skill == "concepts" and p.form == "words"
    )
    marked = sum(
        p.marks for q in exam.questions for p in q.parts if p.skill == "concepts" and p.form != "words"
    )
    assert exam.by_skill()["concepts"] == (marked, marked)
    row = next(row for row in skill_rows(exam) if row[0] == "concepts")
    assert row == ["concepts", str(marked), str(marked), f"100 % ({waiting} not marked)"]


def test_the_plain_text_marks_table_wraps_its_feedback_to_about_100_characters():
    """MockExam.text() padded every line of the marks table to its longest feedback (about 400
    characters); the answers and the feedback now wrap under their columns, every word kept."""
    exam = MockExam(3, seed=7, level=4, clock=Clock())
    exam.start_button.click()
    long_answer = "Kappa removes the agreement expected by chance, so it is lower. " * 5
    for i, q in enumerate(exam.questions):
        exam.go(i)
        for part in q.parts:
            exam.answers[part.label].value = long_answer if part.form == "words" else "0.123"
    exam.finish_button.click()
    results = [(i, *r) for i, results in enumerate(exam.results) for r in results]
    assert max(len(fb.message) for _, _, fb, _ in results) > 300  # a long feedback to wrap
    assert max(len(line) for line in exam.text().splitlines()) <= 100
    head, *lines = exam.marks_table().text().splitlines()[1:]
    answer, feedback = head.index("your answer"), head.index("feedback")
    rows = []  # each part's lines: a row starts where the question column is written
    for line in lines:
        if line[:answer].strip():
            rows.append([line])
        else:
            assert line[:answer] == " " * answer  # a continuation line: only under its columns
            rows[-1].append(line)
    assert len(rows) == len(results)
    for (i, part, fb, got), row in zip(results, rows):
        marks = f"not marked / {part.marks}" if fb.status == "self" else f"{got} / {part.marks}"
        assert row[0].endswith(marks)
        row[0] = row[0].removesuffix(marks)
        said = " ".join(" ".join(line[feedback:].split()) for line in row)
        typed = " ".join(" ".join(line[answer:feedback].split()) for line in row)
        assert said.strip() == " ".join(fb.message.split())
        assert typed.strip() == " ".join(exam.typed[i][part.label].split())
