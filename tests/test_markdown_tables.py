"""Every Markdown table the package writes has as many cells in each row as in its header.

A "|" in a cell's text ends the cell early unless it is escaped once (``\\|``): the glossary's
"weights" row wrote ``1 - \\\\|j - k\\\\|`` (escaped twice: a backslash, then a bare pipe) and
broke into extra columns on the start page. Rows are split here on the pipes a Markdown
(GFM) table splits on: those after an even number of backslashes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_notation import results as notation_results

from iaa_teach import explain
from iaa_teach._markup import Em, Link, Math, Prose, Table
from iaa_teach.course import (
    _RECALL,
    glossary_table,
    landis_koch_table,
    lesson_table,
    notation_table,
    recall_answers,
    recall_questions,
)

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
_CELL_END = re.compile(r"(?<!\\)(?:\\\\)*\|")


def row_cells(line: str) -> int:
    """The number of cells of a Markdown table row ``| a | b |``: its unescaped pipes less one."""
    return len(_CELL_END.findall(line)) - 1


def tables(markdown: str) -> list[list[str]]:
    """The Markdown tables in a text: runs of lines that start with "|"."""
    out, run = [], []
    for line in markdown.splitlines() + [""]:
        if line.lstrip().startswith("|"):
            run.append(line.strip())
        elif run:
            out.append(run)
            run = []
    return out


def ragged_rows(markdown: str) -> list[str]:
    bad = []
    for table in tables(markdown):
        width = row_cells(table[0])
        bad += [f"{row_cells(r)} cells, header {width}: {r}" for r in table[1:] if row_cells(r) != width]
    return bad


def test_the_count_sees_a_broken_row():
    assert row_cells(r"| a | b\|c | d |") == 3
    assert row_cells(r"| a | b\\|c | d |") == 4  # an escaped backslash, then a pipe that ends the cell
    assert ragged_rows("| a | b |\n|:--|--:|\n| x \\\\|y | z |")
    assert not ragged_rows("| a | b |\n|:--|--:|\n| x \\|y | z |")


def course_tables() -> dict[str, Table]:
    out = {
        "lessons": lesson_table(),
        "notation": notation_table(),
        "glossary": glossary_table(),
        "Landis-Koch": landis_koch_table(),
    }
    for number in sorted(_RECALL):
        out[f"recall {number}"] = recall_questions(number)
        out[f"recall answers {number}"] = recall_answers(number)
    return out


@pytest.mark.parametrize("name, table", list(course_tables().items()), ids=list(course_tables()))
def test_course_tables_have_even_rows(name, table):
    md = table.markdown()
    assert tables(md), name
    assert not ragged_rows(md), "\n".join(ragged_rows(md))


def test_glossary_weights_row_keeps_its_three_cells():
    """The row that broke: its |j - k| stays in the meaning column."""
    (row,) = [r for r in glossary_table().markdown().splitlines() if r.startswith("| **weights**")]
    assert row_cells(row) == 3 and row.endswith("| 03 |")


def test_pipes_in_every_kind_of_cell_stay_in_their_cell():
    """Text, maths (``|x|``, ``\\|x\\|``), emphasis, a link and prose with a pipe: one cell each."""
    cells = [
        "a|b",
        "a\\|b",
        "a\\\\|b",
        Math(r"\lvert j - k \rvert + |j - k| + \|x\|", "|j - k|"),
        Em("x|y", strong=True),
        Link("a|b", "page|1.html"),
        Prose("text | ", Math("|x|"), " more"),
    ]
    table = Table(["name", *[f"c{i}" for i in range(len(cells))]], [["row|1", *cells]])
    md = table.markdown()
    assert not ragged_rows(md), "\n".join(ragged_rows(md))
    assert row_cells(md.splitlines()[-1]) == len(cells) + 1
    assert r"\vert j - k\vert" in md and r"\Vert x\Vert" in md  # the same symbols in LaTeX


def test_explain_tables_have_even_rows():
    """explain's Markdown for every kind of result the notation scan covers (weighted kappa too)."""
    bad = [
        f"{type(r).__name__}: {row}" for r in notation_results() for row in ragged_rows(explain(r).markdown())
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_stored_notebook_tables_have_even_rows(path):
    """The tables a reader sees: Markdown cells and Markdown outputs of every notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = []
    for i, cell in enumerate(nb["cells"]):
        texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else []
        texts += ["".join(o.get("data", {}).get("text/markdown", "")) for o in cell.get("outputs", [])]
        bad += [f"cell {i}: {row}" for text in texts for row in ragged_rows(text)]
    assert not bad, "\n".join(bad)


# ------------------------------------------------------------------ row headers
# The course's tables name their rows in their first column (a lesson, a symbol, a term, a band, a
# question's number): in HTML those cells are row headers (<th scope="row">) under column headers
# (<th scope="col">), so a screen reader reads each cell with both; Markdown has no row headers, so
# there the column is bold in every row (the book makes such a column row headers, tools/book.py).
_ROW_CELLS = re.compile(r"<tr>(<t[hd][^>]*>)")


@pytest.mark.parametrize("name, table", list(course_tables().items()), ids=list(course_tables()))
def test_course_tables_name_their_rows_with_row_headers(name, table):
    html_rows = _ROW_CELLS.findall(table.html().split("<tbody>", 1)[1])
    assert html_rows == ['<th scope="row">'] * len(table.rows), name
    assert "<td scope" not in table.html()
    body = tables(table.markdown())[0][2:]
    firsts = [_CELL_END.split(line)[1].strip() for line in body]
    assert all(re.fullmatch(r"\*\*(?!\*).*(?<!\*)\*\*", cell) for cell in firsts if cell), (name, firsts)


def test_a_table_without_row_headers_has_plain_cells_only():
    table = Table(["value", "count"], [["0.5", "3"], ["0.7", "1"]], bold_first_column=False)
    html = table.html()
    assert "<td>0.5</td><td>3</td>" in html and 'scope="row"' not in html and "<td scope" not in html
    assert html.count('<th scope="col">') == 2
    assert "**" not in table.markdown()
