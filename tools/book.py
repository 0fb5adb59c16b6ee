"""The course as a static book: ``make book`` writes ``build/book/`` (open ``index.html``).

Built with Sphinx, myst-nb and the sphinx-book-theme from the notebooks'
stored outputs: no lesson is executed again. :func:`write_sources` turns the
committed notebooks into the book's pages, changing nothing in ``notebooks/``:

- the start page ``00_start_here`` becomes three pages that open the book:
  the start page (``index``, with a note on what the book is), the notation and
  the glossary, their code hidden (:func:`reading_page`);
- the lessons follow in course order, each lesson of
  :data:`iaa_teach.course.LESSONS` that is ``ready`` and has its notebook
  (a lesson still being written comes in by itself once it is both);
- a cell tagged ``solution`` gets myst-nb's ``remove-input`` tag when its
  worked answer is already folded in a ``<details>`` element ("Show the worked
  answer", as in JupyterLab, where its code is hidden too), else ``hide-cell``
  (code and output folded under one toggle): every answer stays hidden until clicked;
- after every cell tagged ``exercise``, a note on how to check an answer;
- an explorer's (or the quiz's) widget output becomes a still picture made by the
  explorer itself (``static_picture()``: its settings, readout and figures, with
  their alt text) and one line on how to run it live;
- every stored figure gets alt text: what it shows, as the :mod:`iaa_teach.plots`
  function that drew it wrote it (the figure's stored plain text), else the first
  sentence of that function's docstring (:func:`figure_alt`);
- links between notebooks (``01_cohens_kappa.ipynb``,
  ``00_start_here.ipynb#Glossary``) point at the book's pages; a link to a lesson
  not in the book becomes its title with "(coming)".

- each page that comes from a notebook starts with a link to download that
  notebook (``.ipynb``), to run in JupyterLab; the start page's JupyterLab
  instructions are rewritten for a reader of the book (:data:`START_TEXT`).

:func:`build` then runs Sphinx with the configuration in ``book/conf.py``
(MathJax bundled by sphinx-mathjax-offline: the pages load nothing from the
network) and :func:`slim_site` removes what no page loads (most of MathJax,
FontAwesome's script, source maps); :func:`row_headers` makes the column that names a
table's rows (bold in Markdown) row headers. Run it as ``python -m tools.book [OUTDIR]``.

:func:`print_pdf` prints a built book as one PDF with headless Chromium, as the
worksheets are printed (no LaTeX): a cover, the contents with page numbers, then
every page in order (:func:`print_page`: each page's article as the site shows it,
worked answers open, code wrapped, maths typeset by the site's MathJax, A4 with page
numbers). ``python -m tools.book --pdf SITE PDF`` (``make book-pdf``).
"""

from __future__ import annotations

import ast
import copy
import html
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from iaa_teach.course import EXERCISE_TAG, LESSONS, SOLUTION_TAG, Lesson
from iaa_teach.rounding import format_number

__all__ = [
    "START_PAGES",
    "STACKED_TABLES",
    "WIDE_FIGURES",
    "BOOK_NOTE",
    "WIDGET_VIEW",
    "EXERCISE_NOTE",
    "LIVE_NOTE",
    "book_lessons",
    "split_start_page",
    "book_notebook",
    "reading_page",
    "rewrite_links",
    "figure_alt",
    "widget_picture",
    "write_sources",
    "START_TEXT",
    "for_readers",
    "MATHJAX_KEPT",
    "slim_site",
    "row_headers",
    "column_labels",
    "build",
    "PRINT_CSS",
    "print_titles",
    "print_page",
    "print_pdf",
    "main",
]

#: The pages the start notebook is split into: a level-2 heading -> the page it opens.
#: Every other section stays on the start page (``index``).
START_PAGES = {"Notation": "notation", "Glossary": "glossary"}
#: Tables too wide for a phone in columns (functions of :mod:`iaa_teach.course`): one row under another there.
STACKED_TABLES = ("notation_table", "glossary_table")
#: Figures of :mod:`iaa_teach.plots` that write one label per rater (lesson 08: thirty students): on a phone
#: each is shown at a legible width in a box that scrolls sideways, with the cue (tag ``book-wide-figure``).
WIDE_FIGURES = ("rater_agreement_heatmap", "leave_one_out_bars")
#: The start page's table of lessons: on a phone, one block per lesson (tag ``book-lessons``).
LESSON_TABLE = "lesson_table"
#: The start notebook's sentences written for JupyterLab, and what a reader of the book reads instead.
#: Each key must be in the start notebook (tests/test_book.py): a changed sentence fails the test
#: rather than leaving JupyterLab instructions on the book's first page.
START_TEXT = {
    "**How to run a lesson.**": (
        "**How to read a lesson.** Open it from the list below (or from the menu: the button at the "
        "top left, on a phone). Each page shows every cell's code and what it printed, in order. At "
        "each exercise, work out your answer first, then open *Show the worked answer* under it. To "
        "run the code and move the explorers yourself, download the lesson as a notebook (the link at "
        "the top of each lesson) and open it in JupyterLab with the course installed (its README). "
        "Each lesson takes the time given below, exercises included."
    ),
    "Lessons marked\n*(coming)* are being written.": "",
    "For a class on a projector:": (
        "For a class on a projector: zoom the browser (Ctrl and +); the book's pages reflow to fit."
    ),
}
#: The note at the top of the book's start page.
BOOK_NOTE = (
    "```{note}\nThis is the **book** of the course: every lesson as a page to read, with the "
    "outputs of its cells, on any computer, tablet or phone, with or without a network.\n```"
)
#: The output mimetype of a widget: replaced by a still picture in the book.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The note after every exercise cell (``{stem}``: the lesson's notebook file).
EXERCISE_NOTE = (
    "```{{admonition}} Check your answer in JupyterLab\n:class: tip\n"
    "This page is read-only. Run the lesson (`make lab`, open `{file}`), put your answer "
    "in place of `...`, then run this cell and the check below it.\n```"
)
#: The line under every still picture of an explorer.
LIVE_NOTE = (
    "```{{admonition}} A picture of the {what}\n:class: note\n"
    "To move its controls, run the lesson live: `make lab`, open `{file}`, *Run > Run All Cells*.\n```"
)

#: The line at the top of every page that comes from a notebook: that notebook, to run in JupyterLab.
DOWNLOAD_NOTE = (
    "```{{container}} iaa-download\n"
    "{{download}}`Download this {what} as a notebook ({file}) <{folder}/{file}>` to run it in JupyterLab\n```"
)
#: Where the lessons' notebooks go among the book's sources (Sphinx copies each into ``_downloads/``),
#: their outputs cleared (:func:`to_run`).
NOTEBOOK_FOLDER = "_notebooks"

_ROOT = Path(__file__).resolve().parent.parent
_MAGIC = re.compile(r"^[ \t]*[%!].*$", re.M)
_ANCHOR = re.compile(r"\]\(#(?P<anchor>[^)\s]+)\)")
_LINK = re.compile(r"\]\((?P<stem>\d\d_\w+)\.ipynb(?:#(?P<anchor>[^)\s]*))?\)")


# ================================================================== pages
def book_lessons(notebooks: str | Path) -> list[Lesson]:
    """The lessons in the book, in course order: ``ready`` ones (the start page excluded).

    A lesson marked ``ready`` whose notebook is missing is an error: the book
    would silently lose it.
    """
    folder = Path(notebooks)
    found = [les for les in LESSONS[1:] if les.ready]
    for les in found:
        if not (folder / les.file).exists():
            raise FileNotFoundError(f"lesson {les.number} is marked ready but {folder / les.file} is missing")
    return found


def _text(source: Any) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def _heading2(line: str) -> str | None:
    match = re.match(r"^##\s+(.+?)\s*#*\s*$", line)
    return match.group(1) if match and not line.startswith("###") else None


def split_start_page(notebook: dict) -> dict[str, dict]:
    """The start notebook as pages: ``index`` and one page per :data:`START_PAGES` section.

    Markdown cells are cut at their level-2 headings; a section runs to the
    next level-2 heading. On its own page a section's headings move up a level
    (``## Glossary`` becomes the page title ``# Glossary``).
    """
    pages: dict[str, list[dict]] = {"index": []}
    current = "index"
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            pages[current].append(cell)
            continue
        chunk: list[str] = []

        def flush() -> None:
            text = "\n".join(chunk).strip("\n")
            if text.strip():
                part = copy.deepcopy(cell)
                part["source"] = text
                part.pop("id", None)
                pages[current].append(part)
            chunk.clear()

        for line in _text(cell["source"]).split("\n"):
            title = _heading2(line)
            if title is not None:
                flush()
                current = START_PAGES.get(title, "index")
                pages.setdefault(current, [])
            chunk.append(line[1:] if current != "index" and line.startswith("##") else line)
        flush()
    rest = {k: v for k, v in notebook.items() if k != "cells"}
    return {name: {**copy.deepcopy(rest), "cells": cells} for name, cells in pages.items()}


def _slug(anchor: str) -> str:
    return re.sub(r"[^\w\- ]", "", anchor).strip().lower().replace(" ", "-")


def rewrite_links(text: str, in_book: set[str]) -> str:
    """Links to notebooks as links to the book's pages (see the module docstring)."""

    def one(match: re.Match) -> str:
        stem, anchor = match.group("stem"), match.group("anchor") or ""
        if stem == LESSONS[0].stem:
            page = START_PAGES.get(anchor, "index")
            rest = "" if anchor in START_PAGES or not anchor else "#" + _slug(anchor)
            return f"]({page}.ipynb{rest})"
        if stem not in in_book:
            return f"]({stem}.ipynb)"  # replaced below: a lesson not written yet has no page
        return f"]({stem}.ipynb{'#' + _slug(anchor) if anchor else ''})"

    text = _LINK.sub(one, text)
    # a link within the page, JupyterLab's way (#Sources): the book's anchor of that heading (#sources)
    text = _ANCHOR.sub(lambda m: f"](#{_slug(m.group('anchor'))})", text)
    for les in LESSONS[1:]:
        if les.stem not in in_book:
            text = re.sub(r"\[([^\]]*)\]\(" + re.escape(les.stem) + r"\.ipynb\)", r"\1 *(coming)*", text)
    return text


def _plots_call(source: str) -> ast.Call | None:
    """The call of an :mod:`iaa_teach.plots` function that is a cell's last expression, if any."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    call = tree.body[-1].value
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "plots"
    ):
        return call
    return None


def _plain(markdown: str) -> str:
    """A heading's text as plain words: no maths dollars, emphasis or code marks."""
    return re.sub(r"[$*`]", "", markdown).strip()


def figure_alt(source: str, heading: str | None = None) -> str:
    """Alt text for a figure a cell stored: what the :mod:`iaa_teach.plots` function it calls draws.

    The first sentence of the function's docstring, then the figure's own title when the
    call gives one (``title="..."``), then the section of the page it is in (``heading``:
    the nearest heading above the cell), so that two figures of one kind on a page differ.

    >>> figure_alt("plots.agreement_heatmap(res)", "Step 2: the table")
    'Figure: The agreement table of two raters as a heatmap, diagonal outlined. In the section "Step 2: the table".'
    >>> figure_alt("plots.coefficients_with_bands(x, title='Two ratings missing')")
    'Figure: Coefficients as bars over the Landis and Koch bands, titled "Two ratings missing".'
    >>> figure_alt("x = 1\\nshow(x)")
    'Figure: the output of show(x).'
    """
    from iaa_teach import plots

    call = _plots_call(source)
    name = call.func.attr if call is not None else None
    doc = inspect.getdoc(getattr(plots, name, None)) if name and name in plots.__all__ + dir(plots) else None
    if not doc:
        last = source.strip().split("\n")[-1].strip()
        return f"Figure: the output of {last}."
    first = doc.split("\n\n")[0].replace("\n", " ")
    first = re.sub(r"\s*\(``[^`]*``\)", "", first).replace("``", "")
    text = "Figure: " + first.split(". ")[0].rstrip(".:")
    title = next(
        (k.value.value for k in call.keywords if k.arg == "title" and isinstance(k.value, ast.Constant)), None
    )
    if isinstance(title, str) and title.strip():
        text += f', titled "{" ".join(title.split())}"'
    text += "."
    if heading:
        text += f' In the section "{_plain(heading)}".'
    return text


#: How many names a widget cell may take from cells the book does not run (each is None in the picture).
MAX_UNSET_NAMES = 3


def widget_picture(notebook: dict, index: int) -> tuple[str, str]:
    """A still picture of the widget cell ``index`` shows: ``(html, what)`` (what: "explorer" or "quiz").

    The cell's code is run with only the imports of the cells before it (no
    other cell is executed); its last expression must be an object with a
    ``static_picture()`` method (every explorer, the quiz and the mock exam have one). A name
    the cell uses that only a non-import cell defines is None in the picture
    (lesson 10's opt-in mistake ``log``: off), up to :data:`MAX_UNSET_NAMES`.
    """
    namespace: dict[str, Any] = {}
    for cell in notebook["cells"][:index]:
        if cell["cell_type"] != "code":
            continue
        try:  # an IPython line magic (the set-up cell's %config) is not Python: left out
            tree = ast.parse(_MAGIC.sub("", _text(cell["source"])))
        except SyntaxError:
            continue
        imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        if imports:
            exec(compile(ast.Module(body=imports, type_ignores=[]), "<imports>", "exec"), namespace)
    source = _text(notebook["cells"][index]["source"])
    tree = ast.parse(source)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError(f"cell {index} shows a widget but does not end with an expression:\n{source}")
    head = compile(ast.Module(body=tree.body[:-1], type_ignores=[]), "<widget cell>", "exec")
    last = compile(ast.Expression(tree.body[-1].value), "<widget cell>", "eval")
    for _ in range(MAX_UNSET_NAMES + 1):
        try:
            exec(head, namespace)
            shown = eval(last, namespace)
            break
        except (
            NameError
        ) as error:  # a name set by a cell the book does not run: None (lesson 10's opt-in log: off)
            if (
                error.name is None
                or error.name in namespace
                or len(namespace.get("__unset__", ())) >= MAX_UNSET_NAMES
            ):
                raise
            namespace.setdefault("__unset__", []).append(error.name)
            namespace[error.name] = None
    picture = getattr(shown, "static_picture", None)
    if picture is None:
        raise ValueError(
            f"cell {index} shows {type(shown).__name__}, which has no static_picture():\n{source}"
        )
    what = "quiz" if type(shown).__name__ in ("Quiz", "MockExam") else "explorer"
    return picture(), what


def _markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _add_tag(cell: dict, tag: str) -> None:
    tags = cell.setdefault("metadata", {}).setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def book_notebook(
    notebook: dict,
    file: str,
    in_book: set[str],
    picture: Callable[[dict, int], tuple[str, str]] = widget_picture,
) -> dict:
    """One page of the book from a notebook (its JSON as a dict); the input is not modified.

    ``file`` is the lesson's notebook file (named in the notes), ``in_book`` the
    stems of the lessons in the book, ``picture(notebook, index)`` makes the
    still picture of a widget cell (:func:`widget_picture`).
    """
    nb = copy.deepcopy(notebook)
    nb.get("metadata", {}).pop("widgets", None)  # no widget state: myst-nb would load its JS from a CDN
    cells = []
    heading = None  # the nearest heading above the cell: figure alt texts name their section
    for index, cell in enumerate(nb["cells"]):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "markdown":
            cell["source"] = rewrite_links(_text(cell["source"]), in_book)
            found = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", cell["source"], flags=re.M)
            heading = found[-1] if found else heading
        if cell["cell_type"] != "code":
            cells.append(cell)
            continue
        after = []
        outputs = []
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data:
                html, what = picture(notebook, index)
                outputs.append(
                    {
                        "output_type": "display_data",
                        "metadata": {},
                        "data": {"text/html": html, "text/plain": _text(data.get("text/plain", ""))},
                    }
                )
                after.append(_markdown_cell(LIVE_NOTE.format(what=what, file=file)))
                continue
            if "text/markdown" in data:
                data["text/markdown"] = rewrite_links(_text(data["text/markdown"]), in_book)
            if "image/png" in data:
                # what the figure shows, as its plots function wrote it (the output's plain text), else
                # what that function draws (not "<Figure size 1280x800 with 1 Axes>")
                plain = " ".join(_text(data.get("text/plain", "")).split())
                alt = (
                    plain
                    if plain and not plain.startswith("<")
                    else figure_alt(_text(cell["source"]), heading)
                )
                cell["metadata"].setdefault("mystnb", {}).setdefault("image", {})["alt"] = alt
                call = _plots_call(_text(cell["source"]))
                if call is not None and call.func.attr in WIDE_FIGURES:
                    _add_tag(cell, "book-wide-figure")
            outputs.append(out)
        cell["outputs"] = outputs
        if SOLUTION_TAG in tags:
            folded = (
                all(
                    _text(o.get("data", {}).get("text/markdown", "")).lstrip().startswith("<details")
                    for o in outputs
                )
                and outputs
            )
            _add_tag(cell, "remove-input" if folded else "hide-cell")
        if EXERCISE_TAG in tags:
            after.append(_markdown_cell(EXERCISE_NOTE.format(file=file)))
        cells.append(cell)
        cells.extend(after)
    nb["cells"] = cells
    return nb


def reading_page(notebook: dict) -> dict:
    """A page to read rather than run (the start page, notation, glossary): its code hidden, its tables shown.

    Code cells keep their outputs and lose their input (``remove-input``; a
    cell with no output goes: ``remove-cell``); the long tables of
    :data:`STACKED_TABLES` are tagged ``book-stack``, which lays their rows out
    one under another on a phone (``book/_static/iaa-book.css``).
    """
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        _add_tag(cell, "remove-input" if cell.get("outputs") else "remove-cell")
        if any(f"{name}(" in _text(cell["source"]) for name in STACKED_TABLES):
            _add_tag(cell, "book-stack")
        if f"{LESSON_TABLE}(" in _text(cell["source"]):
            _add_tag(cell, "book-lessons")
    return notebook


def for_readers(text: str, rules: dict[str, str] | None = None) -> str:
    """The start page's text written for JupyterLab, rewritten for a reader of the book (:data:`START_TEXT`).

    Each key of :data:`START_TEXT` found in ``text`` is replaced, with the rest of its
    paragraph (to the next blank line), by its value.

    >>> for_readers("Intro.\\n\\nFor a class on a projector: press\\nF11.\\n\\nEnd.")
    "Intro.\\n\\nFor a class on a projector: zoom the browser (Ctrl and +); the book's pages reflow to fit.\\n\\nEnd."
    """
    for key, new in (START_TEXT if rules is None else rules).items():
        text = re.sub(re.escape(key) + r"[^\n]*(?:\n(?!\n)[^\n]*)*", lambda _m, new=new: new, text)
    return re.sub(r"[ \t]+\n", "\n", text)


def to_run(text: str) -> str:
    """A lesson's notebook (its JSON text) as the book offers it for download: its outputs cleared.

    The page shows every output already, and running the notebook in JupyterLab makes them
    again; kept, its figures would be in the site twice (2.7 MB of the 10 MB it may weigh).
    Everything else (cells, tags, metadata) is as committed.
    """
    notebook = json.loads(text)
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def write_sources(notebooks: str | Path, target: str | Path) -> list[str]:
    """Write the book's pages (``.ipynb``) into ``target`` (emptied first); return the page names in order."""
    notebooks, target = Path(notebooks), Path(target)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    lessons = book_lessons(notebooks)
    in_book = {les.stem for les in lessons}
    start = json.loads((notebooks / LESSONS[0].file).read_text(encoding="utf-8"))
    pages = {
        name: reading_page(book_notebook(nb, LESSONS[0].file, in_book))
        for name, nb in split_start_page(start).items()
    }
    pages["index"]["cells"][1:1] = [_markdown_cell(BOOK_NOTE)]
    # the sentence on lessons marked "(coming)" goes only when no lesson is (every one is in the book)
    rules = {k: v for k, v in START_TEXT.items() if "(coming)" not in k or len(lessons) == len(LESSONS) - 1}
    for cell in pages["index"]["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = for_readers(_text(cell["source"]), rules)
    for les in lessons:
        nb = json.loads((notebooks / les.file).read_text(encoding="utf-8"))
        pages[les.stem] = book_notebook(nb, les.file, in_book)
    guide = [f"guide-{name}" for name in GUIDE]
    api = api_names()
    order = ["index", *START_PAGES.values(), *(les.stem for les in lessons), *guide, *api]

    def toctree(caption: str, entries: list[str]) -> str:
        return "\n".join(
            ["```{toctree}", ":hidden:", ":maxdepth: 1", f":caption: {caption}", "", *entries, "```"]
        )

    lesson_entries = [*START_PAGES.values(), *(f"{les.number} {les.title} <{les.stem}>" for les in lessons)]
    pages["index"]["cells"].append(_markdown_cell(toctree("Lessons", lesson_entries)))
    pages["index"]["cells"].append(_markdown_cell(toctree("User guide", guide)))
    pages["index"]["cells"].append(
        _markdown_cell(toctree("API reference", [f"{API_TOPICS[page][0]} <{page}>" for page in api]))
    )
    docs = _ROOT / "docs"
    for name, page in zip(GUIDE, guide):
        (target / f"{page}.md").write_text(
            guide_page((docs / f"{name}.md").read_text(encoding="utf-8")), "utf-8"
        )
    for page, names in api.items():
        (target / f"{page}.rst").write_text(api_page(page, names), encoding="utf-8")
    (target / NOTEBOOK_FOLDER).mkdir()
    for name, les in [("index", LESSONS[0]), *((les.stem, les) for les in lessons)]:
        (target / NOTEBOOK_FOLDER / les.file).write_text(
            to_run((notebooks / les.file).read_text(encoding="utf-8")), encoding="utf-8"
        )
        note = DOWNLOAD_NOTE.format(
            what="page" if name == "index" else "lesson", file=les.file, folder=NOTEBOOK_FOLDER
        )
        pages[name]["cells"].insert(1, _markdown_cell(note))
    for name in order[: len(order) - len(guide) - len(api)]:
        for i, cell in enumerate(pages[name]["cells"]):
            cell.setdefault("id", f"book-{i}")
        (target / f"{name}.ipynb").write_text(
            json.dumps(pages[name], indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return order


# ================================================================== guide and API
#: The user guide: ``docs/<name>.md`` -> the book's page ``guide-<name>``, in this order.
GUIDE = ("setup", "own-data", "diagnostics", "widgets", "exam-revision", "book")
#: The API reference, one page a topic (page -> title, what it holds, the modules whose names it lists).
#: A public name goes on the page of the module that defines it (private modules included: ``_family``'s
#: coefficients are on "Coefficients"); a module listed nowhere fails the build (:func:`api_names`).
API_TOPICS = {
    "api-data": (
        "Data in: ratings and reading",
        "The ratings table every coefficient reads, reading your own files, and the course's data sets.",
        ("iaa_teach.ratings", "iaa_teach._reading", "iaa_teach._validation", "iaa_teach.datasets"),
    ),
    "api-coefficients": (
        "Coefficients",
        "Cohen's, Fleiss' and Conger's kappa, Krippendorff's alpha and the rest of the chance-corrected family, "
        "with their results, intervals and bands, and the rounding every shown number goes through.",
        ("iaa_teach.metrics", "iaa_teach._family", "iaa_teach._formulas", "iaa_teach.rounding"),
    ),
    "api-diagnosis": (
        "Diagnosis and reports",
        "Where the disagreement comes from (raters, items, labels) and the report as text, HTML, JSON or PDF.",
        ("iaa_teach.diagnosis", "iaa_teach.report", "iaa_teach.cli"),
    ),
    "api-words": (
        "Words and pictures",
        "Worked solutions in words, the tables and maths markup they are written in, and the figures.",
        ("iaa_teach.worked", "iaa_teach.markup", "iaa_teach.plots"),
    ),
    "api-widgets": (
        "Widgets",
        "The explorers, the quiz and the mock exam, to run in JupyterLab.",
        ("iaa_teach.widgets",),
    ),
    "api-practice": (
        "Practice and the course",
        "Exercises, their checks and worked answers, the exam's questions, the lesson list, glossary and "
        "notation, and the lessons' copies for students.",
        ("iaa_teach.exercises", "iaa_teach.course", "iaa_teach.lesson_copies"),
    ),
}


def api_modules() -> dict[str, Any]:
    """The package's public modules (no underscored part in the path), ``iaa_teach`` first.

    The old module paths kept for one release (they warn and forward) are left out.
    """
    import importlib
    import pkgutil
    import warnings

    import iaa_teach

    found = {"iaa_teach": iaa_teach}
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for info in pkgutil.walk_packages(iaa_teach.__path__, "iaa_teach."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            try:
                found[info.name] = importlib.import_module(info.name)
            except DeprecationWarning:  # an old path that forwards
                continue
    return found


def _home(attr: str, obj: Any, listed_in: str) -> str:
    """The module a public object belongs to: where a function or class is defined, where a constant is
    assigned (``BANDS = ...`` at the top level of its source), else where it is listed."""
    own = getattr(obj, "__module__", None) if callable(obj) else None
    if isinstance(own, str) and own.startswith("iaa_teach"):
        return own
    assigned = re.compile(rf"^{re.escape(attr)}\s*[:=]", re.M)
    for name, module in sorted(sys.modules.items()):
        if name.startswith("iaa_teach") and getattr(module, attr, None) is obj:
            source = getattr(module, "__file__", None)
            if source and assigned.search(Path(source).read_text(encoding="utf-8")):
                return name
    return listed_in


def api_names() -> dict[str, list[tuple[str, Any]]]:
    """Each public name once, on its topic's page: ``{page: [(path, object), ...]}``.

    The names are those of the ``__all__`` lists of :func:`api_modules` (modules themselves
    left out); a name ``iaa_teach`` exports is shown by that path (``iaa_teach.cohen_kappa``),
    another by its module's (``iaa_teach.plots.family_chart``).
    """
    pages: dict[str, list[tuple[str, Any]]] = {page: [] for page in API_TOPICS}
    topic = {module: page for page, (_, _, modules) in API_TOPICS.items() for module in modules}
    seen: set[int] = set()
    for name, module in api_modules().items():
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if inspect.ismodule(obj) or attr.startswith("_"):
                continue
            key = (id(obj), attr)
            if key in seen:
                continue
            seen.add(key)
            home = _home(attr, obj, name)
            # a private module's names go where its public twin's would (iaa_teach._plots -> iaa_teach.plots)
            public_twin = ".".join(part.lstrip("_") for part in home.split("."))
            candidates = (home, public_twin, home.rsplit(".", 1)[0], name)
            page = next((topic[m] for m in candidates if m in topic), None)
            if page is None:
                raise ValueError(
                    f"{name}.{attr} (from {home}) belongs to no page of API_TOPICS: add its module"
                )
            pages[page].append((f"{name}.{attr}", obj))
    return pages


def api_page(page: str, names: list[tuple[str, Any]]) -> str:
    """One topic of the API reference as reStructuredText: a summary table, then each name's docstring."""
    title, about, _ = API_TOPICS[page]
    lines = [title, "=" * len(title), "", about, ""]
    code = [path for path, obj in names if callable(obj)]
    if code:
        lines += [".. autosummary::", "", *(f"   {path}" for path in code), ""]
    constants = [(path, obj) for path, obj in names if not callable(obj)]
    if constants:  # a constant's docstring is its type's (dict's...): its own comment instead
        lines += ["Constants:", ""]
        for path, obj in constants:
            first = next(iter(_comment_of(path, obj)), "").split(". ")[0].rstrip(".")
            lines.append(f"- :py:data:`{path}`" + (f": {first}" if first else ""))
        lines.append("")
    for path, obj in names:
        if inspect.isclass(obj):
            members = "" if issubclass(obj, BaseException) else "\n   :members:"
            lines += [f".. autoclass:: {path}{members}", ""]
        elif callable(obj):
            lines += [f".. autofunction:: {path}", ""]
        else:  # a constant: its ``#:`` comment, from the module that assigns it
            lines += [f".. py:data:: {path}", "", *(f"   {line}" for line in _comment_of(path, obj)), ""]
    return "\n".join(lines)


def _comment_of(path: str, obj: Any) -> list[str]:
    """The ``#:`` comment above a constant's assignment in the module that defines it (Sphinx reads it)."""
    from sphinx.pycode import ModuleAnalyzer

    attr = path.rsplit(".", 1)[1]
    home = _home(attr, obj, path.rsplit(".", 1)[0])
    found = ModuleAnalyzer.for_module(home).find_attr_docs().get(("", attr))
    return [line for line in (found or []) if line.strip() or found]


def guide_page(text: str) -> str:
    """A guide page (``docs/*.md``) for the book: its links to other guide pages point at their pages."""
    for name in GUIDE:
        text = text.replace(f"]({name}.md", f"](guide-{name}.md")
    return text


# ================================================================== build
#: What the pages use of the MathJax distribution sphinx-mathjax-offline copies (24 MB, every
#: component): the TeX-to-CHTML bundle, the TeX extensions it loads on demand (autoload) and
#: its web fonts. The rest (SVG output, MathML and AsciiMath input, the speech rule engine,
#: other bundles) is never requested by a page.
MATHJAX_KEPT = ("tex-chtml.js", "ui/lazy.js", "input/tex/extensions/", "output/chtml/fonts/woff-v2/")
#: Kept by :data:`MATHJAX_KEPT` but never loaded: every TeX package in one file (215 kB), which the
#: bundle refuses to load (its ``require`` option sets ``"all-packages": false``).
MATHJAX_DROPPED = ("input/tex/extensions/all-packages.js",)
#: Files of the theme no page of the book loads: FontAwesome's script (1.5 MB: it swaps the icons
#: for inline SVG, but the theme's CSS already draws them from its solid web font), the other two
#: FontAwesome fonts (no icon uses them), the theme's translations (the book is in English), and
#: the templates the theme copies by mistake.
UNUSED_STATIC = (
    "scripts/fontawesome.js",
    "scripts/fontawesome.js.LICENSE.txt",
    "vendor/fontawesome/webfonts/fa-brands-400.woff2",
    "vendor/fontawesome/webfonts/fa-regular-400.woff2",
    "locales",
    "webpack-macros.html",
    "sbt-webpack-macros.html",
)
_FONTAWESOME_TAG = re.compile(
    r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?'
)
#: What a page with maths asks for first, before the theme's style sheets and scripts: MathJax's bundle
#: (a deferred script, else fetched at low priority behind them). On Fast 3G it then arrives 1.5 s
#: sooner (benchmarks/bench_book.py). Its fonts are not preloaded: a font preload is a CORS request,
#: which a page opened from a file may not make (Chromium logs an error for each).
MATHJAX_PRELOAD = (
    '<link rel="preload" href="{prefix}mathjax/tex-chtml.js" as="script" fetchpriority="high">',
    '<link rel="preload" href="{prefix}mathjax/ui/lazy.js" as="script" fetchpriority="high">',
)
_MATHJAX_SCRIPT = re.compile(
    r'<script defer="defer" src="(?P<prefix>[^"]*_static/)mathjax/tex-chtml\.js"></script>'
)
_LAZY_IMAGE = re.compile(r'<img (?![^>]*\bloading=)([^>]*\bsrc="_images/)')
_SOURCE_MAP = re.compile(r"\n?(//# sourceMappingURL=\S+|/\*# sourceMappingURL=[^*]+\*/)\s*$")


#: The theme's icon font (FontAwesome's solid icons, 115 kB, about 1,400 icons), cut by :func:`cut_icon_font`
#: to the few the book's pages show.
ICON_FONT = "vendor/fontawesome/webfonts/fa-solid-900.woff2"
_ICON_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_ICON_CLASS_ONLY = re.compile(r"(?:\.fa-[a-z0-9-]+(?:::?before)?\s*,?\s*)+")
_ICON_CODE = re.compile(r"\\([ef][0-9a-f]{3})|([\ue000-\uf8ff])")
_ICON_USED = re.compile(r"\bfa-[a-z0-9-]+")


def icons_used(out: str | Path) -> set[int]:
    """The code points of the icon font the book can show.

    An icon is drawn from a CSS rule with its code point: a rule of FontAwesome's own
    (``.fa-bars{--fa:"\\f0c9"}``) counts when a page or script of the book names its class
    (``fa-bars``); every other rule that holds a code point (the theme's admonition and
    link icons) counts always.
    """
    out = Path(out)
    static = out / "_static"
    named: set[str] = set()
    for path in [*out.glob("*.html"), *static.rglob("*.js")]:
        named.update(_ICON_USED.findall(path.read_text(encoding="utf-8")))
    used: set[int] = set()
    for css in static.rglob("*.css"):
        for selector, body in _ICON_RULE.findall(css.read_text(encoding="utf-8")):
            codes = {int(esc, 16) if esc else ord(char) for esc, char in _ICON_CODE.findall(body)}
            if not codes:
                continue
            selector = selector.strip()
            if _ICON_CLASS_ONLY.fullmatch(selector) and not named & set(_ICON_USED.findall(selector)):
                continue
            used |= codes
    return used


def cut_icon_font(out: str | Path) -> tuple[int, int] | None:
    """The icon font of a built book cut to :func:`icons_used` (in place); its ``(bytes before, after)``."""
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.WARNING)  # not a line per table it prunes
    path = Path(out) / "_static" / ICON_FONT
    if not path.exists():
        return None
    before = path.stat().st_size
    font = TTFont(path)
    if len(font.getGlyphOrder()) < 100:  # cut already (a second pass)
        return before, before
    options = subset.Options()
    options.flavor = "woff2"
    options.name_IDs = ["*"]  # the font keeps its names and licence text
    options.notdef_outline = True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=sorted(icons_used(out)))
    cutter.subset(font)
    font.flavor = "woff2"
    font.save(path)
    return before, path.stat().st_size


_INLINE_PNG = re.compile(r'(<img [^>]*?)src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def _image_file(out: Path, match: re.Match) -> str:
    """An inline PNG written to ``_images/`` (named by its bytes' hash: one file however many pages show it)."""
    import base64
    import hashlib

    data = base64.b64decode(match[2])
    name = f"_images/{hashlib.sha256(data).hexdigest()}.png"
    path = out / name
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
    return f'{match[1]}src="{name}"'


_TABLE = re.compile(r"<table\b[^>]*>.*?</table>", re.S)
_ROW = re.compile(r"(<tr\b[^>]*>\s*)<td\b([^>]*)>(.*?)</td>", re.S)
_BOLD_ONLY = re.compile(r"\s*(<p>)?\s*<strong>((?:(?!</?strong>).)*)</strong>\s*(</p>)?\s*", re.S)
_EMPTY_CELL = re.compile(r"\s*(<p>\s*</p>)?\s*")
_HEAD_CELL = re.compile(r"<th\b(?![^>]*\bscope=)([^>]*)>")
# a stub cell's dotted name (``iaa_teach.exercises.lesson_exercises.Exercise``), before any <wbr> is added
_STUB_NAME = re.compile(r'(<th class="stub"><p><a [^>]*><code [^>]*><span class="pre">)([^<]+)(</span>)')
_STUB_CELL = re.compile(r'<th\b(?![^>]*\bscope=)([^>]*\bclass="[^"]*\bstub\b[^"]*"[^>]*)>')


def row_headers(page: str) -> str:
    """A page's tables with their row headers marked as such, for screen readers as for the eye.

    Markdown has no row headers: a lesson's table (a Markdown cell, or a table the package displays
    as Markdown, :class:`iaa_teach.markup.Table`) writes the column that names its rows in bold, and
    MyST makes each of its cells ``<td><p><strong>G</strong></p></td>``. A table whose every body row
    starts with such a cell (or an empty one) gets that column as ``<th scope="row"><p>G</p></th>``;
    a table whose first column is a value like the others (not bold in every row) stays as it is.
    The headings of such a table, and of a table with a Sphinx stub column (the API pages' summaries,
    ``book/conf.py``), get ``scope="col"``, the stub cells ``scope="row"``; a stub cell's dotted name
    may break after each dot (``<wbr>``): on a phone the longest is wider than the screen, and broke
    inside a word.
    """

    def cell(m: re.Match) -> str:
        found = _BOLD_ONLY.fullmatch(m[3])
        if not found:  # an empty cell under the row headers
            return m[0]
        inner = f"<p>{found[2]}</p>" if found[1] else found[2]
        return f'{m[1]}<th scope="row"{m[2]}>{inner}</th>'

    def table(match: re.Match) -> str:
        head, tbody, body = match[0].partition("<tbody>")
        rows = _ROW.findall(body)
        labelled = (
            tbody
            and len(rows) == body.count("<tr")
            and any(_BOLD_ONLY.fullmatch(r[2]) for r in rows)
            and all(_BOLD_ONLY.fullmatch(r[2]) or _EMPTY_CELL.fullmatch(r[2]) for r in rows)
        )
        if labelled:
            body = _ROW.sub(cell, body)
        elif 'class="stub"' in body:  # a Sphinx stub column: an API page's summary
            body = _STUB_NAME.sub(lambda m: m[1] + m[2].replace(".", ".<wbr>") + m[3], body)
            body = _STUB_CELL.sub(r'<th scope="row"\1>', body)
        else:
            return match[0]
        return _HEAD_CELL.sub(r'<th scope="col"\1>', head) + tbody + body

    return _TABLE.sub(table, page)


_THEAD = re.compile(r"<thead>(.*?)</thead>", re.S)
_TR = re.compile(r"<tr\b[^>]*>.*?</tr>", re.S)
_HEADING = re.compile(r"<th\b[^>]*>(.*?)</th>", re.S)
_CELL_OPEN = re.compile(r"<(td|th)\b([^>]*)>")
_PLAIN_HEADING = re.compile(r"\s*(<p>)?([^<]*)(</p>)?\s*")


def column_labels(page: str) -> str:
    """A page's tables with each body cell naming its column (``data-label``), for a phone.

    On a phone the notation, the glossary and the start page's lessons are laid out one row
    under another (``book/_static/iaa-book.css``: tags ``book-stack``, ``book-lessons``) and their
    heading row is hidden; each cell then shows its column's name (``attr(data-label)``), so no
    value loses its label. A table with one heading row of plain words (no maths, no links) and
    no merged cells gets them; any other table stays as it is.

    >>> print(column_labels("<table><thead><tr><th><p>term</p></th><th>meaning</th></tr></thead>"
    ...                     "<tbody><tr><th>P_o</th><td>observed</td></tr></tbody></table>"))
    <table><thead><tr><th><p>term</p></th><th>meaning</th></tr></thead><tbody><tr><th data-label="term">P_o</th><td data-label="meaning">observed</td></tr></tbody></table>
    """

    def table(match: re.Match) -> str:
        whole = match[0]
        head = _THEAD.search(whole)
        if head is None or "data-label=" in whole or "colspan=" in whole or "rowspan=" in whole:
            return whole
        rows = _TR.findall(head[1])
        headings = (
            [_PLAIN_HEADING.fullmatch(cell) for cell in _HEADING.findall(rows[0])] if len(rows) == 1 else []
        )
        if not headings or not all(headings):
            return whole
        labels = [html.escape(html.unescape(h[2]).strip(), quote=True) for h in headings]
        before, tbody, body = whole.partition("<tbody>")

        def row(m: re.Match) -> str:
            if len(_CELL_OPEN.findall(m[0])) != len(labels):
                return m[0]
            names = iter(labels)
            return _CELL_OPEN.sub(
                lambda c: f'<{c[1]}{c[2]} data-label="{label}">' if (label := next(names)) else c[0], m[0]
            )

        return before + tbody + _TR.sub(row, body) if tbody else whole

    return _TABLE.sub(table, page)


def slim_site(out: str | Path) -> dict[str, int]:
    """Remove from a built book what no page loads; return ``{"before": bytes, "after": bytes}``.

    Only the MathJax files of :data:`MATHJAX_KEPT`; no source maps (and no comment
    pointing at one); no FontAwesome script (its ``<script>`` tag taken out of every
    page) nor the rest of :data:`UNUSED_STATIC`; the icon font cut to the icons shown
    (:func:`cut_icon_font`). The explorers' pictures, written into their pages as ``data:``
    URIs, become files of ``_images/`` (:func:`_image_file`), and every figure's ``<img>``
    loads lazily (``loading="lazy"``), so a slow connection brings the maths first. A page
    that still asked for a removed file would fail tests/test_browser_book.py (every
    request of every page must load).
    """
    out = Path(out)
    static = out / "_static"

    def size() -> int:
        return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())

    before = size()
    mathjax = static / "mathjax"
    for path in sorted(mathjax.rglob("*"), reverse=True):
        rel = path.relative_to(mathjax).as_posix() + ("/" if path.is_dir() else "")
        kept = any(rel.startswith(k) for k in MATHJAX_KEPT) or any(k.startswith(rel) for k in MATHJAX_KEPT)
        kept = kept and rel not in MATHJAX_DROPPED
        if path.is_file() and not kept:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    for name in UNUSED_STATIC:
        path = static / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for path in static.rglob("*.map"):
        path.unlink()
    for path in [*static.rglob("*.js"), *static.rglob("*.css")]:
        text = path.read_text(encoding="utf-8")
        slim = _SOURCE_MAP.sub("", text)
        if slim != text:
            path.write_text(slim, encoding="utf-8")
    cut_icon_font(out)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        # an explorer's pictures (inside its still picture as data: URIs, a third bigger than the PNG) as files
        slim = _INLINE_PNG.sub(lambda m: _image_file(out, m), _FONTAWESOME_TAG.sub("", text))
        # figures below the first screen load as the reader scrolls to them, not before the maths
        slim = _LAZY_IMAGE.sub(r'<img loading="lazy" \1', slim)
        found = _MATHJAX_SCRIPT.search(slim)
        head = re.search(r"<head>\s*(<meta charset=[^>]*>)?", slim)
        if found and head and 'rel="preload" href="' + found["prefix"] + "mathjax/" not in slim:
            links = "\n".join(link.format(prefix=found["prefix"]) for link in MATHJAX_PRELOAD)
            slim = slim[: head.end()] + "\n" + links + slim[head.end() :]
        if slim != text:
            page.write_text(slim, encoding="utf-8")
    return {"before": before, "after": size()}


def build(out: str | Path = "build/book", notebooks: str | Path | None = None, quiet: bool = True) -> float:
    """Write the pages (:func:`write_sources`) and build the HTML book into ``out``; return the seconds taken."""
    from sphinx.cmd.build import build_main

    start = time.perf_counter()
    notebooks = Path(notebooks) if notebooks is not None else _ROOT / "notebooks"
    out = Path(out)
    sources = out.parent / (out.name + "-src")
    doctrees = out.parent / (out.name + "-doctrees")
    write_sources(notebooks, sources)
    if out.exists():
        shutil.rmtree(out)
    args = [
        "-b",
        "html",
        "-c",
        str(_ROOT / "book"),
        "-d",
        str(doctrees),
        "-W",
        "--keep-going",
        "-n",
        str(sources),
        str(out),
    ]
    if quiet:
        args.insert(0, "-q")
    code = build_main(args)
    if code:
        raise RuntimeError(f"sphinx-build failed (exit {code}); see its messages above")
    slim_site(out)
    for page in out.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        marked = column_labels(row_headers(text))
        if marked != text:
            page.write_text(marked, encoding="utf-8")
    return time.perf_counter() - start


# ================================================================== PDF
#: The paper's own style, after the theme's: A4, page numbers at the foot, each page of the book
#: from a new sheet, every folded answer open under a label, code and tables wrapped to the width.
PRINT_CSS = """
@page { size: A4; margin: 15mm 15mm 17mm;
  @bottom-center { content: counter(page) " / " counter(pages); font: 9pt sans-serif; color: #444; } }
@page :first { @bottom-center { content: none; } }
html { font-size: 10pt; }
body { margin: 0; background: #fff; color: #1b1f24; }
.iaa-print-cover { text-align: center; padding-top: 30%; }
.iaa-print-cover h1 { font-size: 2.3rem; margin-bottom: 0.6em; }
.iaa-print-cover p { font-size: 1.1rem; }
.iaa-print-toc { break-before: page; }
.iaa-print-toc ol { list-style: none; padding: 0; font-size: 1.1rem; }
.iaa-print-toc li { display: flex; gap: 0.4em; margin: 0.35em 0; }
.iaa-print-toc li a { color: inherit; text-decoration: none; }
.iaa-print-toc li .iaa-print-dots { flex: 1; border-bottom: 1px dotted #888; margin-bottom: 0.3em; }
.iaa-print-part { break-before: page; }
.iaa-print-kicker { font-size: 0.95rem; color: #555; letter-spacing: 0.03em; margin: 0 0 0.3em 0;
  padding-bottom: 0.2em; border-bottom: 1px solid #ccc; }
.iaa-answer-label { font-weight: 700; color: #1b1f24; margin: 0.4em 0 0.2em; }
.iaa-answer { border-left: 3px solid #9aa5b1; padding-left: 0.8em; margin: 0.4em 0 0.8em; }
pre, .cell_input pre, .cell_output pre, div.highlight pre { white-space: pre-wrap !important;
  overflow-wrap: anywhere; word-break: normal; overflow: visible !important; font-size: 0.85rem; }
.cell_output, .output, .pst-scrollable-table-container, div.math, mjx-container[display="true"] {
  overflow: visible !important; max-width: 100%; }
table { max-width: 100%; font-size: 0.85rem; }
/* a word is broken only when it is wider than the whole table: a column is as wide as its longest word
   (with "anywhere" a squeezed column broke its heading letter by letter: "sym/bol", "first in less/on") */
th, td { overflow-wrap: break-word; }
img { max-width: 100% !important; height: auto; break-inside: avoid; }
/* a figure, table, formula or note is not split over two sheets; a long cell may be (else half-empty sheets) */
.cell_input, table, mjx-container[display="true"], .admonition, .iaa-static { break-inside: avoid; }
/* a cell's code stays on the sheet of what it drew or printed */
.cell_input { break-after: avoid; }
h1, h2, h3, h4 { break-after: avoid; }
/* a heading with what follows it, a table's caption with its table (:func:`_keep_together`) */
.iaa-keep { break-inside: avoid; }
/* a section around an explorer's picture ("Explore it yourself", :func:`_print_sections`): its heading, words,
   picture and note on one sheet. The picture's text (17 px, for a projector) at about the page's size (8.5 pt)
   and its figures smaller, two side by side, so that each such section fits on a sheet; one that does not
   (the playground's, with more words; the quiz's) starts a sheet and its heading and first words stay with the
   picture (a sheet broke between them: the words alone on a sheet) */
section.iaa-print-explorer { break-inside: avoid; }
section.iaa-print-explorer > .iaa-keep { break-after: avoid; }
.iaa-static { zoom: 0.66; }
.iaa-static table { font-size: 0.85em; }
/* a table longer than a sheet (the notation, the glossary) starts under its introduction and goes on over
   the next sheet between two rows, its heading row repeated; kept whole it began a sheet of its own and
   left the page's opening lines alone on a sheet (:data:`LONG_TABLE_ROWS`) */
table.iaa-long-table { break-inside: auto; }
table.iaa-long-table tr { break-inside: avoid; }
"""
#: A printed table with more body rows than this may go on over the next sheet (between two rows).
LONG_TABLE_ROWS = 15
#: Printing waits this long (Chromium's virtual time, ms) for MathJax to typeset every formula.
PRINT_BUDGET_MS = 20_000
_SUMMARY_WORDS = re.compile(r"^\s*Show\s+(the\s+)?", re.I)


def _keep_together(soup: Any, article: Any) -> None:
    """Each heading, answer's label or table's caption with the element after it, in one ``div.iaa-keep``.

    Chromium honours ``break-after: avoid`` on a heading only now and then: printed, "Step 5: kappa"
    was left at the foot of a sheet and its formula began the next, a caption left its table.
    A box that must not break (``break-inside: avoid``) keeps them together. A heading whose next
    element is a section of its own (a subsection) is left as it is.
    """
    pairs = [(h, h.find_next_sibling()) for h in article.find_all(["h1", "h2", "h3", "h4"])]
    pairs += [(label, label.find_next_sibling()) for label in article.select("p.iaa-answer-label")]
    pairs += [
        (table.find_previous_sibling(), table)
        for table in article.select("div.pst-scrollable-table-container")
        if table.find_previous_sibling() is not None
        and table.find_previous_sibling().name == "p"
        and table.select_one("table.iaa-long-table") is None  # may go on over the next sheet: not kept whole
    ]
    for first, second in pairs:
        if (
            second is None
            or second.name == "section"
            or first.parent is None
            or first.parent.name == "div"
            and ("iaa-keep" in (first.parent.get("class") or []))
        ):
            continue
        box = soup.new_tag("div", attrs={"class": "iaa-keep"})
        first.insert_before(box)
        box.append(first.extract())
        box.append(second.extract())


def _print_sections(site: Path, names: list[str], kickers: dict[str, str]):
    """Each page's article as a ``<section>`` with ids and links made unique within one document."""
    from bs4 import BeautifulSoup

    sections, heads = [], None
    for name in names:
        soup = BeautifulSoup((site / f"{name}.html").read_text(encoding="utf-8"), "html.parser")
        if heads is None:
            heads = soup
        article = soup.select_one("article.bd-article")
        if article is None:
            raise ValueError(f"{name}.html has no <article class='bd-article'>: not a page of the book")
        for node in article.select("a.headerlink, .iaa-download, .toctree-wrapper, script"):
            node.decompose()
        for node in article.find_all(id=True):
            node["id"] = f"{name}--{node['id']}"
        for link in article.find_all("a", href=True):
            page, _, anchor = link["href"].partition("#")
            target = page.removesuffix(".html") if page else name
            if target in names:
                link["href"] = f"#{target}--{anchor}" if anchor else f"#{target}"
        for image in article.find_all("img"):
            image.attrs.pop("loading", None)  # lazy figures might not load before the page is printed
        # a folded answer, open on paper: a box under its label ("Show the worked answer" -> "Worked answer"),
        # no longer a <details> (whose label would have to stay its first child: not kept with what follows)
        for folded in article.find_all("details"):
            folded.name, folded.attrs = "div", {"class": "iaa-answer"}
            summary = folded.find("summary")
            if summary is not None:
                words = _SUMMARY_WORDS.sub("", summary.get_text(" ", strip=True))
                summary.name, summary.attrs = "p", {"class": "iaa-answer-label"}
                summary.string = words[:1].upper() + words[1:]
        for table in article.find_all("table"):
            if len(table.select("tbody > tr") or table.find_all("tr")) > LONG_TABLE_ROWS:
                table["class"] = [*(table.get("class") or []), "iaa-long-table"]
        # a section around an explorer's picture ("Explore it yourself"): heading, words, picture and note on
        # one sheet (split, its heading and first lines were left at the foot of a sheet, the picture on the next)
        for picture in article.select(".iaa-static"):
            section = picture.find_parent("section")
            if section is not None and section.find("section") is None:
                section["class"] = [*(section.get("class") or []), "iaa-print-explorer"]
        _keep_together(soup, article)
        part = soup.new_tag("section", attrs={"class": "iaa-print-part", "id": name})
        if kickers.get(name):
            kicker = soup.new_tag("p", attrs={"class": "iaa-print-kicker"})
            kicker.string = kickers[name]
            part.append(kicker)
        for child in list(article.children):
            part.append(child.extract())
        sections.append(part)
    return sections, heads


def print_titles(names: list[str]) -> dict[str, str]:
    """The line that opens each page of the book on paper, and names it in the contents.

    >>> print_titles(["index", "glossary", "03_krippendorff_alpha"])["03_krippendorff_alpha"]
    "Lesson 03 \u00b7 Krippendorff's alpha: coincidences"
    """
    lessons = {les.stem: les for les in LESSONS[1:]}
    own = {"index": LESSONS[0].title, **{n: n.capitalize() for n in START_PAGES.values()}}
    return {
        n: f"Lesson {lessons[n].number} \u00b7 {lessons[n].title}" if n in lessons else own[n] for n in names
    }


def _eager(script: str) -> str:
    """The site's MathJax set-up without lazy typesetting: on paper every formula is typeset, in view or not.

    >>> _eager('<script>window.MathJax = {"loader": {"load": ["ui/lazy"]}, "chtml": {}}</script>')
    '<script>window.MathJax = {"loader": {"load": []}, "chtml": {}}</script>'
    """
    found = re.fullmatch(r"(<script>\s*window\.MathJax = )(\{.*\})(;?\s*</script>)", script, re.S)
    if not found:
        return script
    config = json.loads(found[2])
    load = config.get("loader", {}).get("load", [])
    if "ui/lazy" in load:
        load.remove("ui/lazy")
    return found[1] + json.dumps(config) + found[3]


def print_page(site: str | Path, names: list[str], page_numbers: dict[str, int] | None = None) -> str:
    """The whole book as one HTML document to print: a cover, the contents, then every page in order.

    ``site`` is a built book (:func:`build`), ``names`` its pages in order. Each page's
    article is taken as the site shows it (so the paper has the same words, figures and
    maths), ids are prefixed with the page's name so the contents and cross-references link
    within the one document; folded answers are shown in a box under a label ("Worked answer"). The
    theme's style sheets and MathJax come from the site (the document is written inside
    it); :data:`PRINT_CSS` lays it out on A4. ``page_numbers`` (page name -> sheet) fills in
    the contents' page numbers.
    """
    site = Path(site)
    titles = print_titles(names)
    sections, heads = _print_sections(site, names, titles)
    links = [
        f'<link rel="stylesheet" href="{link["href"]}">'
        for link in heads.find_all("link", href=True)
        if "stylesheet" in (link.get("rel") or []) and link["href"].split("?")[0].endswith(".css")
    ]
    mathjax = [
        _eager(str(s))
        for s in heads.find_all("script")
        if "mathjax" in (s.get("src") or "").lower() or "window.MathJax" in (s.string or "")
    ]
    numbers = page_numbers or {}
    toc = "\n".join(
        f'<li><a href="#{n}">{html.escape(titles.get(n, n))}</a><span class="iaa-print-dots"></span>'
        f"<span>{numbers.get(n, '')}</span></li>"
        for n in names
    )
    from importlib.metadata import version

    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en" data-theme="light" data-mode="light">',
            "<head>",
            '<meta charset="utf-8">',
            "<title>Inter-annotator agreement: a course</title>",
            *links,
            f"<style>{PRINT_CSS}</style>",
            *mathjax,
            "</head>",
            "<body>",
            '<section class="iaa-print-cover">',
            "<h1>Inter-annotator agreement: a course</h1>",
            "<p>Cohen's kappa, Fleiss' kappa, Krippendorff's alpha and the family of chance-corrected "
            "coefficients, lesson by lesson, with the worked answers.</p>",
            f"<p>The book of <code>iaa-teach</code> {html.escape(version('iaa-teach'))}</p>",
            "</section>",
            '<nav class="iaa-print-toc"><h1>Contents</h1>',
            f"<ol>{toc}</ol>",
            "</nav>",
            '<main class="bd-article">',
            *(str(s) for s in sections),
            "</main>",
            "</body>",
            "</html>",
        ]
    )


def _sheet_of_each(pdf: Path, titles: dict[str, str]) -> dict[str, int]:
    """On which sheet of a printed book each page starts (read back with pdftotext), or {} without it.

    Each page of the book starts a sheet with its line of :func:`print_page` (``titles``).
    """
    if shutil.which("pdftotext") is None:
        return {}
    done = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
    firsts = [
        next((" ".join(line.split()) for line in s.splitlines() if line.strip()), "")
        for s in done.stdout.split("\f")
    ]
    found, at = {}, 2  # the cover and the contents come first
    for name, title in titles.items():
        line = " ".join(title.split())
        for number in range(at, len(firsts)):
            if firsts[number] == line:
                found[name] = at = number + 1
                break
    return found


def _chromium_print(chromium: str, source: Path, pdf: Path, timeout: float) -> None:
    with tempfile.TemporaryDirectory(prefix="iaa-book-pdf-") as tmp:
        done = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-pdf-header-footer",
                f"--virtual-time-budget={PRINT_BUDGET_MS}",
                f"--user-data-dir={Path(tmp) / 'profile'}",
                f"--print-to-pdf={pdf}",
                source.resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "HOME": tmp},
        )
    if not pdf.is_file() or pdf.stat().st_size == 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"Chromium ({chromium}) wrote no PDF (exit {done.returncode}): {tail}")


def print_pdf(site: str | Path, pdf: str | Path, timeout: float = 900) -> dict[str, Any]:
    """Print a built book (:func:`build`) as one PDF with headless Chromium; no LaTeX.

    :func:`print_page` is written into the site (its style sheets and MathJax load from
    there), printed, read back with ``pdftotext`` to find the sheet each page starts on,
    and printed again with those numbers in the contents (one print when ``pdftotext``
    is missing: the contents then link but show no numbers). Returns
    ``{"sheets": {page: sheet}, "seconds": s, "bytes": n}``.
    """
    from iaa_teach._report import find_chromium

    start = time.perf_counter()
    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(
            "the book's PDF is printed by headless Chromium, which was not found (apt-get install chromium)"
        )
    site, pdf = Path(site), Path(pdf).resolve()
    names = [
        "index",
        *START_PAGES.values(),
        *(les.stem for les in LESSONS[1:] if (site / f"{les.stem}.html").exists()),
    ]
    source = site / "_book-print.html"
    try:
        text = print_page(site, names)
        source.write_text(text, encoding="utf-8")
        _chromium_print(chromium, source, pdf, timeout)
        sheets = _sheet_of_each(pdf, print_titles(names))
        if sheets:
            source.write_text(print_page(site, names, sheets), encoding="utf-8")
            _chromium_print(chromium, source, pdf, timeout)
    finally:
        source.unlink(missing_ok=True)
    return {"sheets": sheets, "seconds": time.perf_counter() - start, "bytes": pdf.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.book [OUTDIR]``: build the book (default ``build/book``).

    ``python -m tools.book --pdf SITE PDF``: print the built book ``SITE`` as one PDF (``make book-pdf``).
    """
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--pdf"]:
        site = argv[1] if len(argv) > 1 else "build/book"
        pdf = argv[2] if len(argv) > 2 else "build/book.pdf"
        done = print_pdf(site, pdf)
        pages = max(done["sheets"].values(), default=0)
        print(
            f"PDF written to {pdf} ({format_number(done['bytes'] / 1e6, '.1f')} MB, last part from sheet {pages}) "
            f"in {format_number(done['seconds'], '.0f')} s"
        )
        return 0
    out = argv[0] if argv else "build/book"
    seconds = build(out)
    print(f"book written to {Path(out) / 'index.html'} in {format_number(seconds, '.0f')} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
