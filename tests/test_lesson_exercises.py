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
  checker asks for or as a fraction, gets "not yet";
- the usual wrong answers (wrong denominators, a neighbouring quantity, the old
  value kept), computed here from the data, each get the hint that describes
  that mistake; a percentage written without its sign is named.
"""

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from iaa_teach import Ratings, cohen_kappa, datasets, fleiss_kappa, items_needed, krippendorff_alpha
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


# ------------------------------------------------- the usual wrong answers, each with its own hint
def _sentiment_counts() -> tuple[list[str], list[list[int]]]:
    """The sentiment example from its rows, counted here: categories and, per item, the count of each."""
    ratings = datasets.sentiment()
    categories = list(ratings.categories)
    return categories, [[row.count(c) for c in categories] for row in ratings.rows()]


def _se_of_p_a_wrong() -> dict[str, float]:
    """07.1's sum of squared deviations of P_i from P_a, over the wrong denominators, from the rows."""
    _, counts = _sentiment_counts()
    p_i = [Fraction(sum(c * (c - 1) for c in row), sum(row) * (sum(row) - 1)) for row in counts]
    n = len(p_i)
    p_a = sum(p_i) / n
    squares = sum((p - p_a) ** 2 for p in p_i)
    return {
        "N²": float(squares / n**2) ** 0.5,
        "N": float(squares / n) ** 0.5,
        "N - 1": float(squares / (n - 1)) ** 0.5,
    }


def _alpha_parts() -> dict[str, Fraction]:
    """Lesson 03's D_o, D_e and alpha from the rows: every ordered pair of values within an item, weighted
    1/(n_i - 1); n_c the coincidences' row totals."""
    categories, counts = _sentiment_counts()
    q = len(categories)
    o = [[Fraction(0)] * q for _ in range(q)]
    for row in counts:
        m = sum(row)
        for c in range(q):
            for k in range(q):
                o[c][k] += Fraction(row[c] * (row[k] - (c == k)), m - 1)
    n_c = [sum(r) for r in o]
    n = sum(n_c)
    d_o = 1 - sum(o[c][c] for c in range(q)) / n
    d_e = (n**2 - sum(x * x for x in n_c)) / (n * (n - 1))
    one_way = sum(n_c[c] * n_c[k] for c in range(q) for k in range(c + 1, q)) / (n * (n - 1))
    return {"d_o": d_o, "d_e": d_e, "alpha": 1 - d_o / d_e, "one_way": one_way}


def _usual_wrong_answers() -> list[tuple[str, float, str]]:
    """(exercise, what the mistake gives, computed here, words its hint must use)."""
    from scipy import stats

    se = _se_of_p_a_wrong()
    a = _alpha_parts()
    s = datasets.sentiment()
    kappa = fleiss_kappa(s)
    t = stats.t.ppf(0.975, s.n_items - 1)
    item_10 = s.rows()[9]
    wide = items_needed("fleiss_kappa", expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2], half_width=0.1)

    def kappa_of(p_a, p_e):
        return (p_a - p_e) / (1 - p_e)

    ab_old = cohen_kappa(s, "A", "B").exact
    ab_new = cohen_kappa(s_10 := _with(s, 9, 1, "G"), "A", "B").exact
    fl_old, fl_new = fleiss_kappa(s).exact, fleiss_kappa(s_10).exact
    pc = datasets.partial_coverage()
    pc_old = fleiss_kappa(pc, chance="pooled").exact
    pc_new = fleiss_kappa(_with(_with(pc, 2, 3, None), 3, 3, None), chance="pooled").exact
    return [
        ("07.1", se["N²"], "divided by N² instead of N (N - 1)"),
        ("07.1", se["N"], "divided by N alone"),
        ("07.1", se["N - 1"], "divided by N - 1 alone"),
        ("03.3", 1 - a["d_e"], "1 - D_e, the chance agreement"),
        ("03.3", a["d_o"], "D_o, the observed disagreement"),
        ("03.3", 1 - a["d_o"], "1 - D_o, the observed agreement"),
        ("03.3", a["alpha"], "went on to alpha"),
        ("03.3", a["one_way"], "over c < k only"),
        ("07.4", 4 * wide.items, "items_needed plans a little fewer"),
        ("07.2", kappa.kappa + t * kappa.se, "upper end"),
        ("07.2", t * kappa.se, "half-width"),
        ("01.3", kappa_of(ab_old.p_o, ab_new.p_e), "old P_o"),
        ("02.1", max(item_10.count(c) for c in set(item_10)) / len(item_10), "most common category"),
        ("02.3", kappa_of(fl_old.p_a, fl_new.p_e), "old P_a"),
        ("03.4", krippendorff_alpha(s).alpha, "all three annotators"),
        ("04.2", datasets.sentiment_missing().n_items, "every item, the gaps included"),
        ("04.3", krippendorff_alpha(datasets.sentiment_missing()).alpha, "alpha before the change"),
        ("05.4", kappa_of(pc_old.p_a, pc_new.p_e), "old P_a"),
        ("06.1", kappa.kappa, "Fleiss' kappa"),
    ]


def _with(ratings, item, rater, label):
    rows = ratings.rows()
    rows[item][rater] = label
    return Ratings.from_rows(rows, raters=ratings.raters, categories=ratings.categories)


@pytest.mark.parametrize(
    "ex_id, value, words", _usual_wrong_answers(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_a_usual_wrong_answer_gets_the_hint_that_describes_it(ex_id, value, words):
    """Each usual wrong answer, computed here from the data (as a student's code gives it and written to the
    places asked), gets the hint that names that mistake, not another one's."""
    ex = exercise(ex_id)
    for given in (float(value), fmt(value, ex.places) if isinstance(value, float) else value):
        feedback = check(ex_id, given)
        assert not feedback.correct and words in feedback.message, (ex_id, given, feedback.message)


def test_07_1_hints_name_the_denominator_that_gives_each_number():
    """The reviewer's case: N² (0.103) was explained as "the spread of the items", which is N - 1's."""
    se = _se_of_p_a_wrong()
    assert "spread of the items, not the SE" in check("07.1", fmt(se["N - 1"], 3)).message
    assert "divided by N²" in check("07.1", fmt(se["N²"], 3)).message
    assert "not of the mean" not in check("07.1", fmt(se["N²"], 3)).message


def test_07_4_the_naive_four_times_is_more_than_items_needed_plans():
    plan = dict(expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2])
    wide = items_needed("fleiss_kappa", half_width=0.1, **plan)
    tight = items_needed("fleiss_kappa", half_width=0.05, **plan)
    assert 2 * wide.items < tight.items < 4 * wide.items
    assert "t (N - 1 degrees of freedom) is also a little smaller" in check("07.4", 4 * wide.items).message


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_no_hint_value_is_within_the_tolerance_of_the_answer(ex):
    """A listed mistake's value is more than half a unit of the asked-for last decimal away from the answer
    (a whole-number answer: a different whole number), so its hint can never be shown for a right answer."""
    answer = ex.answer()
    if isinstance(answer, list):
        return
    for meaning, value in ex.mistakes().items():
        gap = abs(exact_value(value) - exact_value(answer))
        assert gap > Fraction(1, 2 * 10**ex.places), (ex.id, meaning)


def test_no_hint_types_a_decimal():
    """Hints are words: a number they need is the student's own (or printed by the lesson), never a typed
    decimal such as the normal's critical value."""
    data = json.loads(
        (ROOT / "iaa_teach" / "exercises" / "lesson_exercises.json").read_text(encoding="utf-8")
    )
    for entry in data["exercises"]:
        for meaning in entry.get("mistakes", {}).values():
            assert not re.search(r"\d\.\d", meaning), (entry["id"], meaning)


def test_a_percentage_written_without_its_sign_is_named():
    assert "looks like a percentage" in check("01.1", 70).message
    assert "looks like a percentage" in check("07.1", 100 * exercise("07.1").answer()).message
    assert check("01.1", "70%").correct
    assert "looks like a percentage" not in check("01.1", 7).message  # not a percentage of P_o
    assert "looks like a percentage" not in check("03.2", 100 * exercise("03.2").answer()).message  # a count
