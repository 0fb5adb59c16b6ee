"""Student copies of the lessons: every worked answer emptied, every output cleared (``make student``).

:func:`student_notebook` empties the cells tagged ``solution`` of a notebook
(its JSON as a dict) and clears every output; :func:`write_student_copies`
does that for a folder. Notebooks are read and written as plain JSON: this
needs neither nbformat nor Jupyter.

Usage: ``python -m tools.student_copies SOURCE_DIR TARGET_DIR`` (from the clone).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Iterable

from iaa_teach.course import SOLUTION_TAG

#: What an emptied solution cell holds in a student copy.
REMOVED = {
    "code": "# The worked answer is not part of the student copy.",
    "markdown": "*The worked answer is not part of the student copy.*",
}


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
            cell["source"] = REMOVED.get(cell["cell_type"], "")
            cell["metadata"].pop("jupyter", None)
            cell.pop("attachments", None)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    out.get("metadata", {}).pop("widgets", None)
    return out


def write_student_copies(
    source: str | Path, target: str | Path, names: Iterable[str] | None = None
) -> list[Path]:
    """Write the student copy of every ``source/*.ipynb`` (or of ``names``) into ``target``.

    Returns the paths written. ``target`` is created if missing; files of the
    same name there are replaced.
    """
    source, target = Path(source), Path(target)
    target.mkdir(parents=True, exist_ok=True)
    paths = [source / n for n in names] if names is not None else sorted(source.glob("*.ipynb"))
    for path in paths:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        (target / path.name).write_text(
            json.dumps(student_notebook(notebook), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return [target / path.name for path in paths]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m tools.student_copies SOURCE_DIR TARGET_DIR")
    for p in write_student_copies(sys.argv[1], sys.argv[2]):
        print(f"student copy: {p}")
