"""The static book's pages (tools/book.py), without a browser or Sphinx.

What `make book` does to the committed notebooks: which pages there are and in
what order (from course.LESSONS), how answers are hidden, where the exercise and
explorer notes go, figure alt text, links between pages, and the explorers'
still pictures. The built site itself is checked in tests/test_browser_book.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from iaa_teach import course, widgets
from iaa_teach.widgets import ParadoxExplorer, Quiz
from iaa_teach.widgets._base import Explorer
from tools import book

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def load(stem: str) -> dict:
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))


def tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def text(source) -> str:
    return "".join(source) if isinstance(source, list) else source


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> tuple[list[str], Path]:
    target = tmp_path_factory.mktemp("book-src")
    return book.write_sources(NOTEBOOKS, target), target


def test_the_book_opens_with_start_notation_glossary_then_the_ready_lessons_in_order(pages):
    order, target = pages
    ready = [les.stem for les in course.LESSONS[1:] if les.ready]
    guide = [f"guide-{name}" for name in book.GUIDE]
    assert order == ["index", "notation", "glossary", *ready, *guide, *book.API_TOPICS]
    assert sorted(p.stem for p in target.glob("*.ipynb")) == sorted(order[: 3 + len(ready)])
    cells = json.loads((target / "index.ipynb").read_text())["cells"]
    listed = []
    for cell in cells[-3:]:  # the menu: lessons, the user guide, the API reference, each under its caption
        lines = text(cell["source"]).splitlines()
        assert lines[0] == "```{toctree}" and lines[3].startswith(":caption: ")
        listed += [line.split("<")[-1].rstrip(">") for line in lines[5:-1]]
    assert listed == order[1:]


def test_a_lesson_not_ready_stays_out_and_comes_in_when_ready(monkeypatch, tmp_path):
    not_ready = [les for les in course.LESSONS if not les.ready]
    written = course.lesson("01")
    assert all(les.stem not in {x.stem for x in book.book_lessons(NOTEBOOKS)} for les in not_ready)
    # lesson 01 marked not ready: left out; a ready lesson without its notebook: an error, not a silent gap
    lessons = tuple(replace(les, ready=False) if les is written else les for les in course.LESSONS)
    monkeypatch.setattr(book, "LESSONS", lessons)
    assert written.stem not in [les.stem for les in book.book_lessons(NOTEBOOKS)]
    (tmp_path / written.file).write_text((NOTEBOOKS / written.file).read_text())
    monkeypatch.setattr(book, "LESSONS", (course.LESSONS[0], written, course.lesson("02")))
    with pytest.raises(FileNotFoundError, match="lesson 02 is marked ready"):
        book.book_lessons(tmp_path)


def test_the_start_notebook_splits_at_its_notation_and_glossary_sections():
    start = load("00_start_here")
    parts = book.split_start_page(start)
    assert list(parts) == ["index", "notation", "glossary"]
    firsts = {name: text(nb["cells"][0]["source"]).splitlines()[0] for name, nb in parts.items()}
    assert firsts == {
        "index": text(start["cells"][0]["source"]).splitlines()[0],
        "notation": "# Notation",
        "glossary": "# Glossary",
    }
    assert "notation_table()" in "".join(text(c["source"]) for c in parts["notation"]["cells"])
    assert "glossary_table()" in "".join(text(c["source"]) for c in parts["glossary"]["cells"])
    index_text = "".join(text(c["source"]) for c in parts["index"]["cells"])
    assert "## Where to go next" in index_text and "lesson_table()" in index_text
    assert "notation_table()" not in index_text
    assert len(start["cells"]) == 11  # the input is not modified


def test_links_point_at_the_books_pages():
    in_book = {"01_cohens_kappa", "03_krippendorff_alpha"}
    got = book.rewrite_links(
        "see [the glossary](00_start_here.ipynb#Glossary), [notation](00_start_here.ipynb#Notation), "
        "[start](00_start_here.ipynb), [lesson 03](03_krippendorff_alpha.ipynb#Step-2), "
        "[lesson 06](06_chance_models.ipynb)",
        in_book,
    )
    assert got == (
        "see [the glossary](glossary.ipynb), [notation](notation.ipynb), [start](index.ipynb), "
        "[lesson 03](03_krippendorff_alpha.ipynb#step-2), lesson 06 *(coming)*"
    )


def test_answers_are_hidden_exercises_get_a_note_explorers_become_pictures():
    nb = load("03_krippendorff_alpha")
    calls = []

    def picture(notebook, index):
        calls.append(index)
        return "<div class='iaa-static'>picture</div>", "explorer"

    page = book.book_notebook(nb, "03_krippendorff_alpha.ipynb", {"03_krippendorff_alpha"}, picture=picture)
    cells = page["cells"]
    solutions = [c for c in cells if course.SOLUTION_TAG in tags(c)]
    # one worked answer per exercise and the recall answers (issue 22: every exercise has one)
    exercises = [c for c in nb["cells"] if course.EXERCISE_TAG in tags(c)]
    assert len(solutions) == len(exercises) + 1 and all("remove-input" in tags(c) for c in solutions)
    assert all(text(c["outputs"][0]["data"]["text/markdown"]).startswith("<details>") for c in solutions)
    for i, cell in enumerate(cells):
        if course.EXERCISE_TAG in tags(cell):
            assert "Check your answer in JupyterLab" in text(cells[i + 1]["source"])
            assert "03_krippendorff_alpha.ipynb" in text(cells[i + 1]["source"])
    widget_cells = [
        i
        for i, c in enumerate(nb["cells"])
        for o in c.get("outputs", [])
        if book.WIDGET_VIEW in o.get("data", {})
    ]
    assert calls == widget_cells and len(calls) == 1
    outputs = [o for c in cells if c["cell_type"] == "code" for o in c["outputs"]]
    assert not any(book.WIDGET_VIEW in o.get("data", {}) for o in outputs)
    shown = next(
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "code" and c["outputs"] and "text/html" in c["outputs"][0].get("data", {})
    )
    assert "A picture of the explorer" in text(cells[shown + 1]["source"])
    figures = [c for c in cells if any("image/png" in o.get("data", {}) for o in c.get("outputs", []))]
    alts = [c["metadata"]["mystnb"]["image"]["alt"] for c in figures]
    assert alts and all(alt and not alt.startswith("<Figure") for alt in alts)  # what each shows, in words
    assert "[glossary](glossary.ipynb)" in "".join(
        text(c["source"]) for c in cells if c["cell_type"] == "markdown"
    )
    assert nb == load("03_krippendorff_alpha")  # the input is not modified


def test_a_solution_whose_output_is_not_folded_is_folded_whole():
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {"tags": ["solution"]},
                "source": "x",
                "execution_count": 1,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": "42\n"}],
            }
        ],
        "metadata": {"widgets": {"state": {}}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    page = book.book_notebook(nb, "x.ipynb", set())
    assert tags(page["cells"][0]) == ["solution", "hide-cell"]
    assert (
        "widgets" not in page["metadata"]
    )  # no widget state: myst-nb would load a widget manager from a CDN


def test_figure_alt_text_says_what_the_plots_function_draws():
    assert (
        book.figure_alt("plots.coverage_chart(ratings)")
        == "Figure: Who labelled which item: items across, raters down, each label coloured, gaps left blank."
    )
    assert book.figure_alt("res = f(x)\nplots.item_agreement_bars(res)").startswith(
        "Figure: P_i of every item"
    )


def test_a_widget_cell_is_pictured_with_only_the_imports_before_it():
    nb = load("09_instructor_playground")
    index = next(
        i for i, c in enumerate(nb["cells"]) if text(c["source"]).startswith("paradox = ParadoxExplorer()")
    )
    html, what = book.widget_picture(nb, index)
    assert what == "explorer" and "Prevalence and the kappa paradox" in html
    quiz_nb = load("10_exam_revision")
    index = next(
        i for i, c in enumerate(quiz_nb["cells"]) if "Quiz(" in text(c["source"]) and c.get("outputs")
    )
    html, what = book.widget_picture(quiz_nb, index)
    # a question code that names no kind (issue 23): Q-XXXX-XXXX
    assert what == "quiz" and re.search(r"Question Q-\w{4}-\w{4}", html)


EXPLORERS = [
    name
    for name in widgets.__all__
    if isinstance(getattr(widgets, name), type) and issubclass(getattr(widgets, name), Explorer)
]


@pytest.mark.parametrize("name", EXPLORERS)
def test_every_explorer_has_a_still_picture_with_its_readout_and_figures(name):
    explorer = getattr(widgets, name)()  # every explorer of the package, with its defaults
    html = explorer.static_picture()
    assert html.startswith("<style>") and 'class="iaa-static iaa-explorer' in html
    assert explorer.title in html
    for key, value in explorer.values().items():
        assert f'data-q="{key}">{value}<' in html  # the readout, as shown live
    images = re.findall(r'<img class="iaa-picture" src="data:image/png;base64,([^"]+)" alt="([^"]*)"', html)
    assert len(EXPLORERS) >= 7
    assert images and all(
        len(alt) > 20 and not alt.endswith(".png") for _, alt in images
    )  # alt text says what it shows
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data, _ in images)
    for control in ("<input", "<button", "<select"):
        assert control not in html  # nothing that looks movable


def test_a_still_picture_shows_each_setting_and_follows_the_controls():
    explorer = ParadoxExplorer()
    assert "<b>rater accuracy:</b> 0.85" in explorer.static_picture()
    explorer.accuracy.value = 0.6
    assert "<b>rater accuracy:</b> 0.60" in explorer.static_picture()


def test_the_quizs_picture_has_its_question_empty_boxes_no_solution_and_typeset_maths():
    quiz = Quiz("cohen", seed=1)
    html = quiz.static_picture()
    assert "iaa-static iaa-quiz" in html and f"Question {quiz.question.id}" in html
    assert html.count('aria-label="empty box"') == len(quiz.question.parts) + 0  # the seed box is filled
    assert "\\(P_o\\)" in html and "$P_o$" not in html
    quiz.solution_button.click()
    assert "That is the whole solution" in quiz.static_picture()  # a picture shows what is on screen


def test_the_start_page_is_written_for_a_reader_of_the_book(pages):
    _, target = pages
    start = "".join(text(c["source"]) for c in load("00_start_here")["cells"] if c["cell_type"] == "markdown")
    for key in book.START_TEXT:  # every sentence to rewrite is still in the notebook: none is missed silently
        assert key in start, key
    index = "".join(
        text(c["source"])
        for c in json.loads((target / "index.ipynb").read_text())["cells"]
        if c["cell_type"] == "markdown"
    )
    for jupyterlab_only in (
        "Run All Cells",
        "Shift+Enter",
        "Simple Interface",
        "*(coming)* are being written",
    ):
        assert jupyterlab_only not in index
    assert "**How to read a lesson.**" in index


def test_every_page_from_a_notebook_offers_it_for_download(pages):
    order, target = pages
    files = {"index": course.LESSONS[0].file, **{les.stem: les.file for les in course.LESSONS[1:]}}
    for name in order:
        if name not in files:  # notation and glossary (parts of the start page), the guide and API pages
            continue
        cells = json.loads((target / f"{name}.ipynb").read_text())["cells"]
        note = text(cells[1]["source"])
        assert f"<{book.NOTEBOOK_FOLDER}/{files[name]}>" in note and "{download}" in note
        copied = json.loads((target / book.NOTEBOOK_FOLDER / files[name]).read_text(encoding="utf-8"))
        committed = json.loads((NOTEBOOKS / files[name]).read_text(encoding="utf-8"))
        # the lesson as committed, to run: its outputs cleared (the page shows them; its figures are not twice in the site)
        assert [c["source"] for c in copied["cells"]] == [c["source"] for c in committed["cells"]]
        assert [c["metadata"] for c in copied["cells"]] == [c["metadata"] for c in committed["cells"]]
        code = [c for c in copied["cells"] if c["cell_type"] == "code"]
        assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
        assert "widgets" not in copied["metadata"]


def test_every_figure_says_what_it_shows_with_its_numbers_and_no_two_on_a_page_alike(pages):
    # issue 25: the alt text is the figure's finding, written by the plots function that drew it and stored
    # by the notebook as the figure's plain text ("rater C agrees least: alpha rises from 0.61 to 0.74..."),
    # not the kind of chart
    order, target = pages
    seen = 0
    for name in (n for n in order if (target / f"{n}.ipynb").exists()):
        cells = json.loads((target / f"{name}.ipynb").read_text())["cells"]
        alts = [c["metadata"]["mystnb"]["image"]["alt"] for c in cells if "mystnb" in c.get("metadata", {})]
        assert len(alts) == len(set(alts)), (name, alts)
        for alt in alts:
            assert re.search(r"\d", alt) and not alt.startswith(("Figure: ", "<Figure")), (name, alt)
        seen += len(alts)
    assert seen >= 17  # every figure of lessons 01-08
    lesson08 = json.loads((target / "08_your_own_annotations.ipynb").read_text())["cells"]
    alts = [c["metadata"]["mystnb"]["image"]["alt"] for c in lesson08 if "mystnb" in c.get("metadata", {})]
    assert any(
        re.search(r"rater \S+ agrees least: alpha rises from \d\.\d{3} to \d\.\d{3} without", a) for a in alts
    )


def test_a_figure_without_a_finding_is_described_by_what_its_function_draws():
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "## Step 2"},
            {
                "cell_type": "code",
                "metadata": {},
                "source": "plots.agreement_heatmap(res)",
                "execution_count": 1,
                "outputs": [
                    {
                        "output_type": "display_data",
                        "metadata": {},
                        "data": {
                            "image/png": "iVBORw0KGgo=",
                            "text/plain": "<Figure size 1280x800 with 2 Axes>",
                        },
                    }
                ],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    page = book.book_notebook(nb, "x.ipynb", set())
    assert page["cells"][1]["metadata"]["mystnb"]["image"]["alt"] == book.figure_alt(
        "plots.agreement_heatmap(res)", "Step 2"
    )
    nb["cells"][1]["outputs"][0]["data"]["text/plain"] = "Agreement table of rater A and rater B: 7 of 10 ..."
    page = book.book_notebook(nb, "x.ipynb", set())
    assert (
        page["cells"][1]["metadata"]["mystnb"]["image"]["alt"]
        == "Agreement table of rater A and rater B: 7 of 10 ..."
    )


def test_slim_site_keeps_what_pages_load_and_drops_the_rest(tmp_path):
    static = tmp_path / "_static"
    files = {
        "mathjax/tex-chtml.js": "mathjax",
        "mathjax/ui/lazy.js": "lazy",
        "mathjax/ui/menu.js": "menu",
        "mathjax/input/tex/extensions/cancel.js": "x",
        "mathjax/input/tex/extensions/all-packages.js": "all",
        "mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff": "f",
        "mathjax/tex-svg.js": "svg" * 1000,
        "mathjax/sre/mathmaps/en.json": "sre",
        "scripts/fontawesome.js": "fa",
        "scripts/bootstrap.js": "code\n//# sourceMappingURL=bootstrap.js.map\n",
        "scripts/bootstrap.js.map": "{}",
        "styles/theme.css": "a{}\n/*# sourceMappingURL=theme.css.map*/\n",
        "locales/fr/LC_MESSAGES/x.mo": "fr",
    }
    for rel, body in files.items():
        (static / rel).parent.mkdir(parents=True, exist_ok=True)
        (static / rel).write_text(body)
    (tmp_path / "page.html").write_text(
        '<head>\n  <script defer src="_static/scripts/fontawesome.js?digest=1"></script>\n</head>'
        '<img alt="a" src="_images/f.png"><img src="data:image/png;base64,iVBORw0KGgo=" alt="b">'
    )
    maths = (
        '<head>\n<meta charset="utf-8" />\n<script defer="defer" src="_static/mathjax/tex-chtml.js"></script>'
    )
    (tmp_path / "maths.html").write_text(maths + "\n</head>")
    sizes = book.slim_site(tmp_path)
    book.slim_site(tmp_path)  # a second pass adds nothing
    # a page with maths asks for MathJax's bundle first, once
    head = (tmp_path / "maths.html").read_text()
    # (and its lazy typesetting), once
    assert head.count('rel="preload"') == 2 and head.rindex('rel="preload"') < head.index("<script")
    assert '<link rel="preload" href="_static/mathjax/tex-chtml.js" as="script" fetchpriority="high">' in head
    left = sorted(p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file())
    assert left == [
        "mathjax/input/tex/extensions/cancel.js",
        "mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff",
        "mathjax/tex-chtml.js",
        "mathjax/ui/lazy.js",
        "scripts/bootstrap.js",
        "styles/theme.css",
    ]
    assert (static / "scripts/bootstrap.js").read_text() == "code"
    assert (static / "styles/theme.css").read_text() == "a{}"
    page = (tmp_path / "page.html").read_text()
    assert "fontawesome" not in page
    assert '<img loading="lazy" alt="a" src="_images/f.png">' in page and "data:" not in page
    # an inline picture (an explorer's) becomes a file named by its bytes, loaded lazily too
    png = "_images/" + hashlib.sha256(base64.b64decode("iVBORw0KGgo=")).hexdigest() + ".png"
    assert f'<img loading="lazy" src="{png}" alt="b">' in page
    assert (tmp_path / png).read_bytes() == b"\x89PNG\r\n\x1a\n"
    assert sizes["after"] < sizes["before"]


def _page(body: str) -> str:
    return (
        '<html><head><link rel="stylesheet" href="_static/styles/theme.css?digest=1">'
        '<script>window.MathJax = {"options": {}}</script>'
        '<script defer="defer" src="_static/mathjax/tex-chtml.js"></script></head><body>'
        f'<div class="iaa-download">Download</div><article class="bd-article">{body}</article></body></html>'
    )


def test_the_printed_book_is_one_document_with_contents_open_answers_and_links_within_it(tmp_path):
    (tmp_path / "index.html").write_text(_page('<section id="start"><h1>Start</h1><p>Go on</p></section>'))
    (tmp_path / "notation.html").write_text(_page("<h1>Notation</h1>"))
    (tmp_path / "glossary.html").write_text(_page("<h1>Glossary</h1>"))
    (tmp_path / "03_krippendorff_alpha.html").write_text(
        _page(
            '<section id="step-2"><h1>Alpha<a class="headerlink" href="#step-2">#</a></h1>'
            '<p><a href="index.html#start">start</a> <a href="#step-2">here</a> <a href="https://x.org/">out</a></p>'
            '<img loading="lazy" src="_images/a.png" alt="A figure">'
            "<details><summary>Show the worked answer</summary><p>D_o is 1/3.</p></details></section>"
        )
    )
    names = ["index", "notation", "glossary", "03_krippendorff_alpha"]
    text = book.print_page(tmp_path, names, {"index": 3, "03_krippendorff_alpha": 9})
    # one section per page, in order, each opening with its line; the contents list them with their sheets
    order = re.findall(r'<section class="iaa-print-part" id="([^"]+)">', text)
    assert order == names
    assert "Lesson 03 \u00b7 Krippendorff's alpha: coincidences</p>" in text
    toc = re.search(r'<nav class="iaa-print-toc">.*?</nav>', text, re.S).group(0)
    assert re.findall(r'href="#([^"]+)"', toc) == names
    assert "<span>3</span>" in toc and "<span>9</span>" in toc
    # ids and links unique within the one document; links out of the book left alone
    assert 'id="03_krippendorff_alpha--step-2"' in text and 'href="#index--start"' in text
    assert 'href="#03_krippendorff_alpha--step-2"' in text and 'href="https://x.org/"' in text
    # the answer shown under a label (kept with its first line), the figure loaded at once, the page furniture gone
    assert (
        '<div class="iaa-answer"><div class="iaa-keep"><p class="iaa-answer-label">Worked answer</p>'
        "<p>D_o is 1/3.</p></div></div>" in text
    ) and "<details" not in text
    assert 'loading="lazy"' not in text and 'src="_images/a.png"' in text
    assert "headerlink" not in text and "Download" not in text
    # the site's style sheets and MathJax, and the paper's own layout
    assert '<link rel="stylesheet" href="_static/styles/theme.css?digest=1">' in text
    assert 'src="_static/mathjax/tex-chtml.js"' in text and "window.MathJax" in text
    assert "@page" in text and "counter(page)" in text


def test_figures_with_a_label_per_rater_are_marked_to_scroll_on_a_phone(pages):
    _, target = pages
    wide = {}
    for path in target.glob("*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if "book-wide-figure" in tags(cell):
                wide.setdefault(path.stem, []).append(
                    text(cell["source"]).split("(")[0].removeprefix("plots.")
                )
    assert {k: sorted(v) for k, v in wide.items()} == {"08_your_own_annotations": sorted(book.WIDE_FIGURES)}


def test_every_lesson_figure_is_stored_at_twice_its_shown_size():
    # the lessons set retina figures in their set-up cell: each PNG has twice the pixels of the size it is shown at
    seen = 0
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for out in cell.get("outputs", []):
                if "image/png" not in out.get("data", {}):
                    continue
                png = base64.b64decode(text(out["data"]["image/png"]))
                width = int.from_bytes(png[16:20], "big")  # the IHDR chunk's width
                shown = out.get("metadata", {}).get("image/png", {}).get("width")
                assert shown and width // 2 == shown, (
                    path.name,
                    width,
                    shown,
                )  # IPython halves it, rounding down
                seen += 1
    assert seen >= 15  # lessons 01-08's figures


_TAG = re.compile(r"\\tag\{(\d+)\}")
_FORMULA_REF = re.compile(r"(?:\(notebook (\d\d), )?formulas? \(?(\d+)\)?")


def test_formulas_a_lesson_refers_back_to_are_numbered_and_referred_to_by_number():
    # issue 25: a displayed formula a lesson reuses later carries a number (\tag{n}, shown as "(n)" by MathJax
    # in JupyterLab and in the book), and the later text says "formula n"
    tags = {}
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        cells = [text(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]
        numbers = [int(n) for cell in cells for n in _TAG.findall(cell)]
        assert numbers == list(range(1, len(numbers) + 1)), (path.name, numbers)  # 1, 2, 3... in order
        tags[path.stem[:2]] = (cells, numbers)
    numbered = {lesson for lesson, (_, numbers) in tags.items() if numbers}
    assert {"01", "02", "03", "06"} <= numbered
    for lesson, (cells, numbers) in tags.items():
        whole, referred = "\n".join(cells), set()
        for found in _FORMULA_REF.finditer(whole):
            other, number = found.group(1), int(found.group(2))
            assert number in tags[other or lesson][1], (lesson, found.group(0))
            if not other:  # it refers back: the formula is displayed above the words that name it
                assert -1 < whole.find(rf"\tag{{{number}}}") < found.start(), (lesson, found.group(0))
                referred.add(number)
        assert referred == set(numbers), (lesson, "numbered but never referred to", set(numbers) - referred)


# ------------------------------------------------------------------ row headers
# MyST's HTML for a Markdown table whose first column is bold (a lesson's table, a guide's).
_MYST_TABLE = """<table class="table">
<thead>
<tr class="row-odd"><th class="head text-left"><p>A \\ B</p></th>
<th class="head text-right"><p>G</p></th>
</tr>
</thead>
<tbody>
<tr class="row-even"><td class="text-left"><p><strong>G</strong></p></td>
<td class="text-right"><p>3</p></td>
</tr>
<tr class="row-odd"><td class="text-left"><p><strong>total <span class="math">\\(n\\)</span></strong></p></td>
<td class="text-right"><p>5</p></td>
</tr>
</tbody>
</table>"""


def test_a_bold_first_column_becomes_row_headers_under_scoped_column_headers():
    page = "<p>before</p>" + _MYST_TABLE + "<p>after</p>"
    marked = book.row_headers(page)
    assert '<td class="text-left"><p><strong>' not in marked
    assert '<th scope="row" class="text-left"><p>G</p></th>' in marked
    assert '<th scope="row" class="text-left"><p>total <span class="math">\\(n\\)</span></p></th>' in marked
    assert marked.count('<th scope="col" class="head') == 2
    assert marked.count('<td class="text-right"><p>') == 2  # the values stay cells
    assert marked.startswith("<p>before</p>") and marked.endswith("<p>after</p>")
    assert book.row_headers(marked) == marked  # once only


def test_a_table_whose_first_column_is_not_bold_in_every_row_stays_as_it_is():
    values = _MYST_TABLE.replace("<p><strong>G</strong></p>", "<p>0.5</p>")
    assert book.row_headers(values) == values
    part_bold = _MYST_TABLE.replace("<p><strong>G</strong></p>", "<p><strong>G</strong> and more</p>")
    assert book.row_headers(part_bold) == part_bold
    two_bold = _MYST_TABLE.replace("<strong>G</strong>", "<strong>G</strong> <strong>N</strong>")
    assert book.row_headers(two_bold) == two_bold
    # an empty first cell (a readout's corner) among bold ones stays an empty cell
    empty = book.row_headers(_MYST_TABLE.replace("<p><strong>G</strong></p>", ""))
    assert '<td class="text-left"></td>' in empty and empty.count('scope="row"') == 1


def test_a_stub_column_gets_its_scopes():
    summary = (
        '<table class="autosummary"><thead><tr><th class="head stub"><p>name</p></th>'
        '<th class="head"><p>what it does</p></th></tr></thead><tbody><tr><th class="stub"><p><a href="#m.f">'
        '<code class="xref"><span class="pre">m.f</span></code></a>(x)</p></th>'
        '<td><p>does <code><span class="pre">m.f</span></code></p></td></tr></tbody></table>'
    )
    marked = book.row_headers(summary)
    assert marked.count('scope="col"') == 2 and '<th scope="row" class="stub">' in marked
    # a long dotted name may break after a dot (the name only; what is copied stays the name)
    assert (
        '<span class="pre">m.<wbr>f</span></code></a>(x)' in marked
        and '<td><p>does <code><span class="pre">m.f<' in marked
    )
    assert book.row_headers(marked) == marked


def test_each_body_cell_names_its_column_for_a_phone():
    """column_labels: every body cell gets its column's heading as data-label (escaped), once; a table with
    merged cells or a heading that is not plain words (maths) is left as it is."""
    marked = book.column_labels(book.row_headers(_MYST_TABLE.replace("A \\ B", 'A &amp; "B"')))
    assert marked.count('data-label="A &amp; &quot;B&quot;"') == 2  # both row headers
    assert '<th scope="row" class="text-left" data-label="A &amp; &quot;B&quot;"><p>G</p></th>' in marked
    assert marked.count('<td class="text-right" data-label="G"><p>') == 2
    assert "data-label" not in marked.partition("<tbody>")[0]  # the heading row itself is left alone
    assert book.column_labels(marked) == marked  # once only
    for other in (
        _MYST_TABLE.replace('<td class="text-right">', '<td class="text-right" colspan="2">'),
        _MYST_TABLE.replace("<p>G</p></th>", '<p><span class="math">\\(G\\)</span></p></th>'),
    ):
        assert book.column_labels(other) == other
