"""The lessons' exercises: one registry, a folded worked answer each, and no answer shown before the attempt.

- every check cell of lessons 01-07 is ``check("NN.k", variable)``, right under
  its exercise cell, and the ids are those of the registry
  (``iaa_teach/exercises/lesson_exercises.json``), in order;
- right under each check cell comes a worked answer, tagged ``solution``,
  its code hidden and its output folded (``<details>``);
- in each executed notebook (stored outputs: what Run All shows), no output of
  a cell above an exercise's worked answer shows that exercise's answer, in
  any form the checker accepts (the exact fraction, the decimal to the places
  asked, the whole number);
- no listed mistake is accepted as right: its value, written to the places the
  checker asks for or as a fraction, gets "not yet".
"""

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from iaa_teach.course import EXERCISE_TAG, SOLUTION_TAG
from iaa_teach.exercises.lesson_exercises import EXERCISES, check, exercise
from iaa_teach.rounding import exact_value, fmt

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted({e.lesson for e in EXERCISES})
CHECK = re.compile(r"""^check\(["'](\d\d\.\d+)["'],\s*(\w+)\)\s*$""")
TEXT_TYPES = ("text/plain", "text/markdown", "text/html", "text/latex")


def _text(x) -> str:
    return "".join(x) if isinstance(x, list) else (x or "")


def _outputs_text(cell: dict) -> list[str]:
    """Each output of a code cell as text (streams and text mimetypes; figures and widget views have none)."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(_text(o.get("text")))
        data = o.get("data", {})
        if "application/vnd.jupyter.widget-view+json" in data:
            continue
        out.append("\n".join(_text(data[t]) for t in TEXT_TYPES if t in data))
    return out


def _forms(value, places: int) -> list[str]:
    """How a student (and the checker) writes one value: exact fraction, whole number, decimals to ``places``."""
    if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
        return [str(int(value))]
    exact = exact_value(value)
    forms = [fmt(exact, places)]
    if isinstance(value, Fraction):
        forms.append(f"{value.numerator}/{value.denominator}")
    return forms


def _pattern(form: str) -> re.Pattern:
    return re.compile(r"(?<![\d./])" + re.escape(form) + r"(?![\d/]|\.\d)")


_NOT_AN_OPERATOR = r"(?![\d.,/])(?!\s*(?:[×·+\-*/^(]|\\cdot|\\times))"


def _whole_patterns(form: str) -> list[re.Pattern]:
    """Where a whole number is a result, not a table entry or an item number: after '=' (and not followed by
    more arithmetic), before 'labels'/'pairs'/'values'/'items used', or last on a table's total line."""
    n = re.escape(form)
    return [
        re.compile(r"=\s*" + n + _NOT_AN_OPERATOR),
        re.compile(r"(?<![\d.,/])" + n + r"\s+(?:labels|pairs|pairable values|values|items used)\b"),
        re.compile(r"total[^\n]*[ |]" + n + r"\s*\|?\s*$", re.MULTILINE),
    ]


def shows(answer, places: int, text: str) -> bool:
    """Does ``text`` show ``answer`` (for a list: every entry of it)?"""
    values = answer if isinstance(answer, list) else [answer]

    def one(value) -> bool:
        forms = _forms(value, places)
        if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
            return any(p.search(text) for p in _whole_patterns(forms[0]))
        return any(_pattern(f).search(text) for f in forms)

    return all(one(v) for v in values)


def exercises_of(nb: dict) -> list[tuple[str, int]]:
    """(id, index of its check cell) for every check cell of a notebook."""
    found = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            m = CHECK.match(_text(cell["source"]).strip())
            if m:
                found.append((m.group(1), index))
    return found


def reveals(nb: dict) -> list[str]:
    """Every exercise whose answer an output above its worked answer shows: "id: cell N shows ..."."""
    problems = []
    for ex_id, index in exercises_of(nb):
        ex = exercise(ex_id)
        solution = next(
            i
            for i in range(index + 1, len(nb["cells"]))
            if SOLUTION_TAG in nb["cells"][i].get("metadata", {}).get("tags", [])
        )
        for i, cell in enumerate(nb["cells"][:solution]):
            for text in _outputs_text(cell) if cell["cell_type"] == "code" else []:
                if shows(ex.answer(), ex.places, text):
                    problems.append(f"{ex_id}: cell {i} shows its answer: {text[:120]!r}")
    return problems


def load(lesson: str) -> dict:
    (path,) = NOTEBOOKS.glob(f"{lesson}_*.ipynb")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_check_cells_use_the_registry_in_order(lesson):
    nb = load(lesson)
    ids = [ex_id for ex_id, _ in exercises_of(nb)]
    assert ids == [e.id for e in EXERCISES if e.lesson == lesson]
    assert [int(x.split(".")[1]) for x in ids] == list(range(1, len(ids) + 1))
    for ex_id, index in exercises_of(nb):
        above = nb["cells"][index - 1]
        assert EXERCISE_TAG in above["metadata"].get("tags", []), ex_id
        # the book (myst-nb) drops the stored "Not answered yet." of a check cell tagged remove-output
        assert "remove-output" in nb["cells"][index]["metadata"].get("tags", []), ex_id
        variable = CHECK.match(_text(nb["cells"][index]["source"]).strip()).group(2)
        assert variable == exercise(ex_id).variable, ex_id
        assert re.match(rf"{variable} = \.\.\.", _text(above["source"])), ex_id
    assert not any("check_number(" in _text(c["source"]) for c in nb["cells"])


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_exercise_has_a_folded_worked_answer_right_under_its_check(lesson):
    nb = load(lesson)
    for ex_id, index in exercises_of(nb):
        cell = nb["cells"][index + 1]
        assert SOLUTION_TAG in cell["metadata"].get("tags", []), ex_id
        assert cell["metadata"].get("jupyter", {}).get("source_hidden"), ex_id
        folded = [_text(o.get("data", {}).get("text/markdown", "")) for o in cell["outputs"]]
        assert folded and all(f.lstrip().startswith("<details>") for f in folded), ex_id


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_output_above_a_worked_answer_shows_its_answer(lesson):
    assert reveals(load(lesson)) == []


def test_the_reveal_walker_can_fail():
    """A cell printing the answer above the worked answer is found; below it, it is not."""

    def cell(kind, text, tags=()):
        c = {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": text}
        if kind == "code":
            c["outputs"] = [{"output_type": "stream", "name": "stdout", "text": text}]
        return c

    reveal = cell("code", "P_o = 7/10 = 0.700")
    exercise_cells = [cell("code", "answer = ...", [EXERCISE_TAG]), cell("code", 'check("01.1", answer)')]
    solution = cell("code", "<details>", [SOLUTION_TAG])
    assert reveals({"cells": [reveal, *exercise_cells, solution]})
    assert reveals({"cells": [*exercise_cells, reveal, solution]})
    assert not reveals({"cells": [*exercise_cells, solution, reveal]})
    assert shows(Fraction(7, 10), 3, "0.700") and not shows(Fraction(7, 10), 3, "0.7001 or 17/10")
    assert (
        shows(30, 3, "n = 30") and shows(38, 3, "A 8 + ... = 38 labels") and shows(60, 3, "total 10 20 30 60")
    )
    assert (
        not shows(30, 3, "item 30")
        and not shows(8, 3, "n = 8 × 3 + 2 × 2")
        and not shows(30, 3, "total 10 30 60")
    )


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_the_answer_is_right_and_no_listed_mistake_is(ex):
    answer = ex.answer()
    if isinstance(answer, list):
        assert check(ex.id, [str(a) for a in answer]).correct
        return
    for form in _forms(answer, ex.places):
        assert check(ex.id, form).correct, form
    assert ex.mistakes(), f"{ex.id} lists no mistake"
    for meaning, value in ex.mistakes().items():
        for form in _forms(value, ex.places):
            feedback = check(ex.id, form)
            assert not feedback.correct, (ex.id, meaning, form)
            assert meaning in feedback.message, (ex.id, meaning, form)


def test_05_4_rejects_the_old_chance_agreement():
    """Issue 22: 0.466 was accepted, and is also what keeping the old P_e gives (0.46575 vs 0.46635)."""
    ex = exercise("05.4")
    old = next(v for m, v in ex.mistakes().items() if "old P_e" in m)
    assert fmt(old, 3) == fmt(ex.answer(), 3)  # the trap: equal at 3 decimals
    assert not check("05.4", fmt(ex.answer(), 3)).correct
    assert "4 decimals" in check("05.4", fmt(ex.answer(), 3)).message
    assert check("05.4", fmt(ex.answer(), 4)).correct and check("05.4", str(ex.answer())).correct
    assert "old P_e" in check("05.4", fmt(old, 4)).message


def _half_up(x: float, places: int) -> str:
    """``x`` to ``places`` decimals, halves up, from its exact value (independent of the package's fmt)."""
    q = Fraction(x)
    exact = Decimal(q.numerator) / Decimal(q.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def test_feedback_shows_a_computed_value_rounded_not_all_its_digits():
    """A student's code gives 0.014118832469357925: the feedback shows it rounded half up, to 4 significant
    digits (3 decimals at least), so that a value turned down never looks like the rounded answer."""
    answer = float(exercise("07.3").answer())  # about 0.0141: 4 significant digits are 5 decimals
    assert 0.01 < answer < 0.1
    right = check("07.3", answer)
    assert right.correct and repr(answer) not in right.message
    assert right.message.endswith(f" = {_half_up(answer, 5)}.")
    off = answer * 1.3
    feedback = check("07.3", off)
    assert not feedback.correct and repr(off) not in feedback.message
    assert feedback.message.startswith(f"{_half_up(off, 5)} is not the SE")
    big = float(exercise("02.3").answer()) + 0.1  # about 0.76: 4 significant digits are 4 decimals
    assert check("02.3", big).message.startswith(f"{_half_up(big, 4)} is not ")
    # what the student typed is shown as typed; a short float as Python writes it
    assert check("07.3", "0.0250000").message.startswith("0.0250000 is ")
    assert check("07.3", 0.65).message.startswith("0.65 is ")


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_every_feedback_is_a_sentence(ex):
    """Each message starts with a capital (or a symbol such as p_j or n, or a number) and ends with a full
    stop: right, a listed mistake, not yet, not answered, unreadable."""
    answer = ex.answer()
    given = [answer, ..., "abc", "1/0"]
    given += [[1, 2], ["x"] * len(answer), "1/3"] if isinstance(answer, list) else [answer + 1]
    given += list(ex.mistakes().values())
    for value in given:
        message = check(ex.id, value).message
        first = message.split(" ", 1)[0]
        opens = (
            first[0].isupper() or first[0] in "0123456789'" or first in ("p_j", "n")
        )  # '1/0' is the student's
        assert opens, (ex.id, value, message)
        assert message.endswith("."), (ex.id, value, message)
    if isinstance(answer, list):  # a string is one value, not a list of characters
        assert "is a list of" in check(ex.id, "1/3").message
