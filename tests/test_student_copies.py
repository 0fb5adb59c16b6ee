"""The student copies (`make student`) run: every cell up to and past each exercise, without an error.

Each lesson's student copy (worked answers removed, outputs cleared) is
executed in a fresh kernel in a temporary folder, as a student's "Run All"
would. Every check below an untouched exercise must say "Not answered yet"
(never raise), and a cell after an emptied worked answer must not depend on it.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from iaa_teach.course import EXERCISE_TAG
from iaa_teach.lesson_copies import write_lessons

ROOT = Path(__file__).resolve().parents[1]
LESSONS = [
    "01_cohens_kappa",
    "02_fleiss_kappa",
    "03_krippendorff_alpha",
    "04_missing_data",
    "05_partial_coverage",
    "06_chance_models",
    "07_how_sure",
]


def execute(path: str) -> dict:
    """Run one notebook in its folder; return it (errors stay in the outputs, allow_errors)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(Path(path).parent)}},
    ).execute()
    return json.loads(nbformat.writes(nb))


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    paths = write_lessons(folder, student=True, names=[f"{s}.ipynb" for s in LESSONS])
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(zip(LESSONS, pool.map(execute, [str(p) for p in paths])))


@pytest.mark.slow
@pytest.mark.parametrize("stem", LESSONS)
def test_student_copy_runs_up_to_each_exercise(executed, stem):
    cells = executed[stem]["cells"]
    exercises = [i for i, c in enumerate(cells) if EXERCISE_TAG in c["metadata"].get("tags", [])]
    assert exercises
    errors = [
        (i, o["ename"], o["evalue"])
        for i, c in enumerate(cells)
        if c["cell_type"] == "code"
        for o in c["outputs"]
        if o["output_type"] == "error"
    ]
    first_error = errors[0][0] if errors else len(cells)
    for i in exercises:
        assert i < first_error, f"{stem}: cell {errors[0]} fails before exercise cell {i}"
    assert not errors, f"{stem}: the student copy raises {errors}"
    for i in exercises:
        shown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for o in cells[i + 1]["outputs"])
        assert "Not answered yet" in shown, f"{stem}: the check below exercise cell {i} says {shown!r}"
