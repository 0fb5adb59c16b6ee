"""Housekeeping of notebooks/: pairs, sync, stored outputs.

Each notebook lives twice: notebooks/py/NN_topic.py (py:percent, the file people
edit) and notebooks/NN_topic.ipynb (derived by jupytext, executed, outputs kept
for nbval). These tests check the two stay one notebook. They do not run the
notebooks: `make test` runs nbval on the .ipynb files for that.
"""

import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
IPYNBS = sorted(NOTEBOOKS.glob("*.ipynb"))
SCRIPTS = sorted((NOTEBOOKS / "py").glob("*.py"))

if not IPYNBS and not SCRIPTS:
    pytest.skip("notebooks/ holds no notebooks yet", allow_module_level=True)

SKIP_TAG = "nbval-skip"
SKIP_COMMENT = re.compile(r"^\s*#\s*NBVAL_SKIP\b", re.MULTILINE)


def _ids(paths):
    return [p.name for p in paths]


def _code_cells(path):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            source = cell["source"]
            yield index, cell, "".join(source) if isinstance(source, list) else source


def _skipped_by_nbval(cell, source):
    return SKIP_TAG in cell.get("metadata", {}).get("tags", []) or bool(SKIP_COMMENT.search(source))


def test_every_notebook_has_both_files():
    stems_py = {p.stem for p in SCRIPTS}
    stems_nb = {p.stem for p in IPYNBS}
    problems = [f"notebooks/py/{s}.py has no notebooks/{s}.ipynb" for s in sorted(stems_py - stems_nb)]
    problems += [f"notebooks/{s}.ipynb has no notebooks/py/{s}.py" for s in sorted(stems_nb - stems_py)]
    assert not problems, "\n".join(problems) + "\nrun `make sync` (or `jupytext --sync FILE`)"


@pytest.mark.parametrize("ipynb", IPYNBS, ids=_ids(IPYNBS))
def test_py_is_in_sync_with_ipynb(ipynb):
    """Same gate as `jupytext --to py:percent -o - nb.ipynb | diff -u nb.py -`."""
    script = NOTEBOOKS / "py" / f"{ipynb.stem}.py"
    if not script.exists():
        pytest.skip(f"{script.name} missing (reported by test_every_notebook_has_both_files)")
    result = subprocess.run(
        [sys.executable, "-m", "jupytext", "--to", "py:percent", "-o", "-", str(ipynb)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"jupytext failed on {ipynb.name}:\n{result.stderr}"
    expected = script.read_text(encoding="utf-8")
    if result.stdout != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                result.stdout.splitlines(keepends=True),
                fromfile=f"notebooks/py/{script.name}",
                tofile=f"from notebooks/{ipynb.name}",
            )
        )
        pytest.fail(f"{script.name} and {ipynb.name} differ; run `make sync`.\n{diff}")


@pytest.mark.parametrize("ipynb", IPYNBS, ids=_ids(IPYNBS))
def test_every_code_cell_was_executed(ipynb):
    """nbval runs a never-executed cell but compares nothing: make that visible."""
    unexecuted = [
        f"cell {index}: {source.strip().splitlines()[0][:60]!r}"
        for index, cell, source in _code_cells(ipynb)
        if source.strip() and cell.get("execution_count") is None and not _skipped_by_nbval(cell, source)
    ]
    assert not unexecuted, (
        f"{ipynb.name} has code cells without stored outputs (run `make sync`, "
        f"or tag a cell {SKIP_TAG!r}):\n" + "\n".join(unexecuted)
    )


@pytest.mark.parametrize("ipynb", IPYNBS, ids=_ids(IPYNBS))
def test_cells_were_executed_top_to_bottom(ipynb):
    """Stored outputs come from one "Run all", not from cells run out of order."""
    counts = [
        (index, cell["execution_count"])
        for index, cell, _ in _code_cells(ipynb)
        if cell.get("execution_count") is not None
    ]
    out_of_order = [
        f"cell {index} has execution_count {count} after {previous}"
        for (_, previous), (index, count) in zip(counts, counts[1:])
        if count <= previous
    ]
    assert not out_of_order, f"{ipynb.name}: re-run it top to bottom (`make sync`):\n" + "\n".join(
        out_of_order
    )


@pytest.mark.parametrize("path", IPYNBS, ids=lambda p: p.name)
def test_no_notebook_keeps_an_old_widget_snapshot(path):
    """No committed notebook stores widget state: ``make sync`` stores none, and removes what an older run
    left (lesson 10 kept the quiz as it was before the ratings table had row and column headers, a
    ``<table class="iaa-ratings">`` of plain rows; every table a student reads names its rows and columns)."""
    metadata = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    assert "widgets" not in metadata, f"{path.name}: stored widget state; run make sync NB={path.stem}"
