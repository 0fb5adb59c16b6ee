"""Lesson 03, weighted kappa: the check under "Try it" names the weights of the student's by-hand cell.

On main the cell read ``used = "linear" if ... else "quadratic"`` and printed ``quadratic weights:
... same: False`` for any w_jk that was not the linear table (a student's own weights were called
quadratic), and a bare ``the same weights: True``. The lesson's own cells are run here, as a
student would after editing the by-hand cell, and what they print is read as the student reads it.
"""

import contextlib
import io
import re
from pathlib import Path

import jupytext
import matplotlib
import pytest
from IPython.core.interactiveshell import InteractiveShell

matplotlib.use("Agg")

LESSON = Path(__file__).resolve().parents[1] / "notebooks" / "py" / "03_krippendorff_alpha.py"
BY_HAND = "w_jk = w_linear"


def _printed_by_the_check(by_hand_weights: str) -> str:
    """Run lesson 03's code cells up to the first after the by-hand cell that compares with the helper,
    the by-hand cell's first line set to ``w_jk = <by_hand_weights>``; what that cell prints."""
    cells = [c.source for c in jupytext.read(LESSON, fmt="py:percent").cells if c.cell_type == "code"]
    start = next(i for i, src in enumerate(cells) if src.lstrip().startswith(BY_HAND))
    check = next(i for i in range(start + 1, len(cells)) if "kappa_w" in cells[i] and "w_jk" in cells[i])
    cells[start] = cells[start].replace(BY_HAND, f"w_jk = {by_hand_weights}", 1)
    shell = InteractiveShell.instance()  # the lesson's %config lines too
    for src in cells[:check]:
        with contextlib.redirect_stdout(io.StringIO()):
            shell.run_cell(src, silent=True).raise_error()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        shell.run_cell(cells[check], silent=True).raise_error()
    return out.getvalue()


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_the_check_names_the_by_hand_cells_weights_and_agrees(weights):
    shown = _printed_by_the_check(f"w_{weights}")
    assert f"{weights} weights" in shown and "by-hand" in shown
    assert "the same" in shown and "not the same" not in shown
    assert not re.search(r"\b(True|False|used)\b", shown), shown  # words, not Python


def test_weights_of_the_students_own_are_not_called_quadratic():
    shown = _printed_by_the_check("np.eye(len(ratings.categories), dtype=int)")  # unweighted, by hand
    assert "quadratic weights" not in shown and "linear weights" not in shown
    assert "neither" in shown
