"""The lessons as a student alone reads them: a prediction comes before what answers it, and what the
code prints reads as text, not as Python.

Found reading lessons 01-06 in JupyterLab (2026-12): lesson 02 asked "can rounding on the way move the
third decimal?" below a worked solution whose last line said it does (and a sentence above the question
said so too); lesson 04 asked whether alpha with the gaps is above or below alpha on the complete table
after printing alpha with the gaps; lesson 06's last "Try it yourself" asked which coefficient stays
nearest P_a below an introduction that said so. Lessons 02-05 printed numpy arrays ("counts [0 1 2]",
"n_i: [3 3 2 ...]"), a dict ("{1: 4, 2: 4, ...}") and "kappa = nan".
"""

import json
import re
from pathlib import Path

import pytest

from iaa_teach import datasets, fmt, krippendorff_alpha

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _cells(stem):
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        cell["text"] = " ".join("".join(cell["source"]).split())
        cell["shown"] = "".join(
            "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
            for o in cell.get("outputs", [])
        )
    return cells


def _first(cells, test, what):
    found = [i for i, cell in enumerate(cells) if test(cell)]
    assert found, f"no cell {what}"
    return found[0]


def _markdown_with(cells, words):
    return _first(cells, lambda c: c["cell_type"] == "markdown" and words in c["text"], f"says {words!r}")


def _output_with(cells, words):
    return _first(cells, lambda c: c["cell_type"] == "code" and words in c["shown"], f"shows {words!r}")


def test_lesson_02_asks_about_rounding_before_the_worked_solution_shows_it():
    cells = _cells("02_fleiss_kappa")
    question = _markdown_with(cells, "Can that move the third decimal")
    assert question < _output_with(cells, "Round only at the end")  # explain()'s note on early rounding
    before = cells[question]["text"].split("Predict first")[0]
    assert "different third decimal" not in before


def test_lesson_04_asks_for_the_prediction_before_printing_alpha_with_the_gaps():
    cells = _cells("04_missing_data")
    question = _markdown_with(cells, "Will alpha with the gaps be above or below")
    with_gaps = fmt(krippendorff_alpha(datasets.sentiment_missing()))
    assert question < _output_with(cells, f"alpha = {with_gaps}")


def test_lesson_06_asks_which_coefficient_holds_up_before_the_explorer_shows_it():
    cells = _cells("06_chance_models")
    explorer = _first(
        cells, lambda c: c["cell_type"] == "code" and "ParadoxExplorer(" in c["text"], "explorer"
    )
    question = _markdown_with(cells, "which coefficient stays nearest to $P_a$")
    assert question < explorer
    assert all("AC1 hold up" not in c["text"] for c in cells[:explorer])


PYTHON_LOOKS = {
    "a numpy array": r"\[\d+(?:\s+\d+)+\]",
    "a dict": r"\{\d+: \d+",
    "nan": r"\bnan\b",
}


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_printed_numbers_read_as_text_not_python(path):
    found = [
        (i, what, line)
        for i, cell in enumerate(_cells(path.stem))
        if cell["cell_type"] == "code"
        for line in cell["shown"].splitlines()
        for what, pattern in PYTHON_LOOKS.items()
        if re.search(pattern, line)
    ]
    assert not found, f"{path.name} prints Python where a student reads text: {found}"
