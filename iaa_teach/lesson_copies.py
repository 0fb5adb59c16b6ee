"""The lessons as files: where they are, and copies of them (full, or for students).

``iaa-teach lessons DIR`` (and ``make student``) write them. A student copy
(:func:`student_notebook`) has every cell tagged ``solution`` emptied and every
output cleared. Notebooks are read and written as plain JSON: this needs
neither nbformat nor Jupyter.

The executed lessons are in the clone's ``notebooks/``; an installed wheel
carries the same files as ``iaa_teach/lessons/`` (``setup.py`` copies them in).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Iterable

from .course import LESSONS, SOLUTION_TAG
from .ratings import AgreementError

__all__ = ["_lessons_folder", "student_notebook", "write_lessons"]

#: What an emptied solution cell holds in a student copy.
_REMOVED = {
    "code": "# The worked answer is not part of the student copy.",
    "markdown": "*The worked answer is not part of the student copy.*",
}


def _lessons_folder() -> Path:
    """Where the executed lessons are: the wheel's ``iaa_teach/lessons``, else the clone's ``notebooks``."""
    here = Path(__file__).resolve().parent
    for folder in (here / "lessons", here.parent / "notebooks"):
        if (folder / f"{LESSONS[0].stem}.ipynb").is_file():
            return folder
    raise AgreementError(
        f"the lessons are not installed: neither {here / 'lessons'} "
        f"nor {here.parent / 'notebooks'} holds them"
    )


def student_notebook(notebook: dict) -> dict:
    """A student copy of a notebook (its JSON as a dict): solution cells emptied, outputs cleared.

    Every cell tagged ``solution`` keeps its place but holds only a line
    saying the answer is not there; its metadata loses ``jupyter`` (hidden
    input). Every code cell loses its outputs and execution count, so the
    copy shows nothing that was computed from a solution. The input is not
    modified.

    >>> nb = {"cells": [{"cell_type": "code", "source": "x = 1", "metadata": {"tags": ["solution"]},
    ...                  "outputs": [{"output_type": "stream", "name": "stdout", "text": "1"}],
    ...                  "execution_count": 1}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    >>> student_notebook(nb)["cells"][0]["source"], student_notebook(nb)["cells"][0]["outputs"]
    ('# The worked answer is not part of the student copy.', [])
    >>> nb["cells"][0]["source"]
    'x = 1'
    """
    out = copy.deepcopy(notebook)
    for cell in out["cells"]:
        if SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            cell["source"] = _REMOVED.get(cell["cell_type"], "")
            cell["metadata"].pop("jupyter", None)
            cell.pop("attachments", None)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    out.get("metadata", {}).pop("widgets", None)
    return out


def write_lessons(
    target: str | Path,
    *,
    student: bool = False,
    replace: bool = False,
    names: Iterable[str] | None = None,
    source: str | Path | None = None,
) -> list[Path]:
    """Write the lessons (``student=True``: their student copies) into ``target``; return the paths written.

    ``names``: only these files (``"01_cohens_kappa.ipynb"``...); ``source``: a
    folder to copy from instead of ``_lessons_folder``. ``target`` is created
    if missing. A file already there is a student's work: it is replaced only
    with ``replace=True``, else nothing is written and an :class:`AgreementError`
    names the files.
    """
    source = _lessons_folder() if source is None else Path(source)
    target = Path(target)
    paths = [source / n for n in names] if names is not None else sorted(source.glob("*.ipynb"))
    there = [str(target / p.name) for p in paths if (target / p.name).exists()]
    if there and not replace:
        raise AgreementError(
            f"{len(there)} lesson file(s) already there, e.g. {there[0]}: "
            "they may hold your own work; write to another folder, or replace them (--replace)"
        )
    target.mkdir(parents=True, exist_ok=True)
    for path in paths:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if student:
            notebook = student_notebook(notebook)
        (target / path.name).write_text(
            json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return [target / path.name for path in paths]
