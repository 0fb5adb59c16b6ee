"""The course as a student meets it.

The lesson list, notation, glossary, exercises, student copies, first minutes.

Fast checks only; running the student copies is in test_student_copies.py,
the browser side in test_browser_course.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from iaa_teach import _markup as markup
from iaa_teach import datasets, fleiss_kappa, krippendorff_alpha
from iaa_teach.course import (
    _GLOSSARY as GLOSSARY,
)
from iaa_teach.course import (
    LESSONS,
    SOLUTION_TAG,
    glossary_table,
    lesson,
    lesson_table,
    notation_table,
)
from iaa_teach.exercises._check import check_number
from iaa_teach.lesson_copies import _REMOVED, student_notebook, write_lessons
from tools.lab_settings import LAB_OVERRIDES, lab_overrides_path, write_lab_overrides

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def cells(stem):
    with open(NOTEBOOKS / f"{stem}.ipynb", encoding="utf-8") as f:
        return json.load(f)["cells"]


def source(cell):
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


# ============================================================== lessons
def test_ready_lessons_have_notebooks_and_coming_ones_do_not():
    """Adding lesson 06 means adding its notebook AND flipping ready=True: this test says which is missing."""
    for les in LESSONS:
        exists = (NOTEBOOKS / les.file).exists()
        assert exists == les.ready, (
            f"{les.file}: ready={les.ready} but the notebook "
            f"{'exists' if exists else 'is missing'}; update iaa_teach.course.LESSONS"
        )
    assert [les.number for les in LESSONS] == [f"{i:02d}" for i in range(len(LESSONS))]
    assert all(les.stem.startswith(les.number + "_") for les in LESSONS)


def test_every_notebook_is_a_lesson():
    stems = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    assert stems == {les.stem for les in LESSONS if les.ready}


def test_lesson_table_links_ready_lessons_and_marks_the_others_coming():
    md = lesson_table().markdown()
    for les in LESSONS[1:]:
        if les.ready:
            assert f"]({les.file})" in md
        else:
            assert f"]({les.file})" not in md and "*(coming)*" in md
    assert "](00_start_here.ipynb)" not in md
    assert lesson("03").stem == "03_krippendorff_alpha" and lesson("03_krippendorff_alpha").number == "03"


def test_start_page_shows_the_generated_tables():
    text = "\n".join(
        "".join(o.get("data", {}).get("text/markdown", ""))
        for c in cells("00_start_here")
        for o in c.get("outputs", [])
    )
    assert lesson_table().markdown() in text
    assert notation_table().markdown() in text
    assert glossary_table().markdown() in text


# ============================================================== notation
def test_one_symbol_per_quantity():
    keys = [row.key for row in markup.NOTATION]
    symbols = [row.symbol.tex for row in markup.NOTATION]
    assert len(set(keys)) == len(keys) and len(set(symbols)) == len(symbols)
    n_i = next(row for row in markup.NOTATION if row.key == "n_i")
    assert (
        "m_u" in n_i.elsewhere and "k" in n_i.elsewhere
    )  # Krippendorff's and the partial text's names, said once
    assert all(markup.SYMBOLS[row.key] is row.symbol for row in markup.NOTATION)


LESSON_STEMS = [
    "01_cohens_kappa",
    "02_fleiss_kappa",
    "03_krippendorff_alpha",
    "04_missing_data",
    "05_partial_coverage",
    "06_chance_models",
    "07_how_sure",
]


#: The sources' names for n_i (the ratings of an item), retired in the course's own words.
SOURCES_N_I = r"m_u|k_i\b|(per-item|item's own) \$?k\$?(?!\w)"


def sources_names(text: str) -> list[str]:
    """The lines of ``text`` that write a source's name for n_i, except where they say what a source writes."""
    return [
        line.strip()
        for line in text.splitlines()
        if re.search(SOURCES_N_I, line) and not re.search(r"writes|calls", line)
    ]


@pytest.mark.parametrize("stem", [*LESSON_STEMS, "10_exam_revision"])
def test_lessons_use_the_notation_not_the_sources_other_names(stem):
    """n_i for the ratings of an item: never m_u or k_i, except where a lesson says what a source writes."""
    found = [
        f"cell {i}: {line}" for i, cell in enumerate(cells(stem)) for line in sources_names(source(cell))
    ]
    assert not found


CONTENT = ROOT / "iaa_teach" / "content"


@pytest.mark.parametrize(
    "path",
    [*sorted(CONTENT.glob("*.toml")), *sorted((ROOT / "iaa_teach" / "exercises" / "_kinds").glob("*.toml"))],
    ids=lambda p: p.name,
)
def test_the_exam_words_use_the_notation_not_the_sources_other_names(path):
    """The words a lecturer edits (concept questions, mistakes' names and advice, a kind's prompts and
    mark scheme) write n_i as the lessons do: the alpha concept question and mistakes wrote m_u."""
    assert not sources_names(path.read_text("utf-8"))


def test_the_exam_alpha_question_reads_n_i_in_every_output():
    """The single-value concept question, its options, model answer and typeset maths, and the mistakes'
    advice a solution prints: n_i - 1, never m_u."""
    from iaa_teach.exercises import make_question

    seen = 0
    for seed in range(12):
        q = make_question("alpha", seed, level=3)
        concept = [p for p in q.parts if "single rating" in p.prompt.text()]
        if not concept:
            continue
        seen += 1
        shown = q.text() + q.markdown() + q.html() + q.solution().text() + q.solution().markdown()
        assert "m_u" not in shown and "n_i - 1" in shown
        assert "1 / (n_i - 1)" in concept[0].prompt.text() and "$1/(n_i - 1)$" in concept[0].prompt.markdown()
    assert seen


def test_explain_uses_the_notation():
    from iaa_teach import explain

    text = explain(krippendorff_alpha(datasets.sentiment_missing())).text()
    assert "m_u" not in text and "n_i" in text
    assert "per-item n_i" in explain(fleiss_kappa(datasets.partial_coverage())).text()


# ============================================================== glossary
GLOSSARY_TERMS = [
    "observed agreement",
    "chance agreement",
    "Landis-Koch",
    "Light's kappa",
    "Scott's pi",
    "unit, value, pairable value",
    "weights",
    "levels of measurement",
    "model of chance",
    "percent agreement",
    "Brennan-Prediger S",  # issue 22: one name for S (was "Bennett's S")
    "Conger's kappa",
    "Gwet's AC1",
    "rater bias",
    "standard error",
    "confidence interval",
    "bootstrap",
]


def test_glossary_has_the_terms_the_issue_lists():
    terms = [t.term for t in GLOSSARY]
    for wanted in GLOSSARY_TERMS:
        assert any(wanted in t for t in terms), wanted
    text = glossary_table().text()
    for lo, hi, name in __import__("iaa_teach").BANDS[1:]:
        assert name in text
    assert "0.667" in text and "0.800" in text and "convention" in text


@pytest.mark.parametrize(
    "term, stem",
    [
        ("Light's kappa", "01_cohens_kappa"),
        ("Scott's pi", "02_fleiss_kappa"),
        ("Landis and Koch", "01_cohens_kappa"),
        ("family of coefficients", "06_chance_models"),
        ("Brennan-Prediger S", "06_chance_models"),
        ("Conger's kappa", "06_chance_models"),
        ("Gwet's AC1", "06_chance_models"),
        ("Rater bias", "06_chance_models"),
        ("standard error", "07_how_sure"),
        ("bootstrap", "07_how_sure"),
    ],
)
def test_terms_are_introduced_before_use(term, stem):
    """The first markdown cell that names the term also explains it or links to the glossary."""
    first = next(
        source(c)
        for c in cells(stem)
        if c["cell_type"] == "markdown" and term in source(c) and "What you'll" not in source(c)
    )
    assert "00_start_here.ipynb#Glossary" in first or "**" + term in first


# ============================================================== exercises
@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_every_lesson_has_two_to_four_checked_exercises_with_folded_answers(stem):
    cs = cells(stem)
    exercises = [i for i, c in enumerate(cs) if "exercise" in tags(c)]
    assert 2 <= len(exercises) <= 4, f"{stem}: {len(exercises)} exercises"
    for i in exercises:
        assert source(cs[i]).lstrip().split("=", 1)[1].strip().startswith("..."), (
            "an exercise starts empty: ..."
        )
        check = cs[i + 1]
        # issue 22: the check names the exercise, it does not show the expression that computes the answer
        assert re.fullmatch(r'check\("\d\d\.\d+", \w+\)', source(check).strip())
        shown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for o in check["outputs"])
        assert "Not answered yet" in shown
    solutions = [c for c in cs if SOLUTION_TAG in tags(c)]
    assert solutions and all(c["metadata"].get("jupyter", {}).get("source_hidden") for c in solutions)
    assert any("Predict first" in source(c) for c in cs if c["cell_type"] == "markdown")


def test_check_number_says_right_or_not_yet_and_never_the_answer():
    right = Fraction(31, 55)  # 0.5636...
    for written in ("31/55", "0.564", 0.5636363, "56.4%"):
        assert check_number(written, right, name="kappa", step="Step 5").correct
    wrong = check_number("0.5", right, name="kappa", step="Step 5")
    assert not wrong.correct and "Step 5" in wrong.message
    close = check_number("0.56", right, name="kappa", step="Step 5")
    assert not close.correct and "3 decimals" in close.message
    mistake = check_number(
        "0.563", right, name="kappa", step="Step 5", mistakes={"you rounded early": Fraction(9, 16)}
    )
    assert check_number("0.56", right, name="kappa", step="Step 5").message.endswith("hide in the rounding.")
    assert "you rounded early" in mistake.message
    for check in (
        wrong,
        close,
        mistake,
        check_number(..., right, name="kappa", step="Step 5"),
        check_number("abc", right, name="kappa", step="Step 5"),
    ):
        shown = check._repr_markdown_() + repr(check)
        assert "31/55" not in shown and "0.564" not in shown
    assert check_number(..., right, name="kappa", step="x").status == "empty"
    assert check_number("abc", right, name="kappa", step="x").status == "unreadable"


def test_check_number_on_lists_names_the_entries_that_are_off():
    expected = [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]
    assert check_number([1 / 6, 1 / 3, 1 / 2], expected, name="p_j", step="Step 4").correct
    off = check_number(["1/6", "1/2", "1/3"], expected, name="p_j", step="Step 4", labels="GNP")
    assert not off.correct and "N, P" in off.message and "1/3" not in off.message
    assert "3 values" in check_number([1], expected, name="p_j", step="Step 4").message


def test_check_number_fails_against_a_broken_comparison(monkeypatch):
    """The checker's verdict comes from the comparison: break it and a right answer is refused."""
    from iaa_teach.exercises import _answers

    monkeypatch.setattr(_answers.Answer, "matches", lambda self, target: False)
    assert not check_number("29/59", Fraction(29, 59), name="kappa", step="Step 5").correct


# ============================================================== student copies
def solution_texts(stem):
    out = []
    for c in cells(stem):
        if SOLUTION_TAG in tags(c):
            out += [line.strip() for line in source(c).splitlines() if len(line.strip()) > 8]
            for o in c.get("outputs", []):
                md = "".join(o.get("data", {}).get("text/markdown", ""))
                out += [line.strip() for line in md.splitlines() if len(line.strip()) > 20]
    return out


def test_student_copies_keep_no_solution_content(tmp_path):
    written = write_lessons(tmp_path, student=True, source=NOTEBOOKS)
    assert {p.name for p in written} == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    for path in written:
        text = path.read_text(encoding="utf-8")
        nb = json.loads(text)
        leaked = [line for line in solution_texts(path.stem) if line in text]
        assert not leaked, f"{path.name} keeps solution content: {leaked[:3]}"
        assert "<details>" not in text
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None
            if SOLUTION_TAG in tags(cell):
                assert source(cell) == _REMOVED[cell["cell_type"]]
                assert "jupyter" not in cell["metadata"]
        exercises = [c for c in nb["cells"] if "exercise" in tags(c)]
        assert len(exercises) == len([c for c in cells(path.stem) if "exercise" in tags(c)])
    assert any(solution_texts(p.stem) for p in written)  # the test has something to find


def test_student_notebook_does_not_modify_its_input():
    nb = json.loads((NOTEBOOKS / "01_cohens_kappa.ipynb").read_text(encoding="utf-8"))
    before = json.dumps(nb, sort_keys=True)
    student_notebook(nb)
    assert json.dumps(nb, sort_keys=True) == before


def test_student_copies_are_git_ignored_and_documented():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "student/" in ignored and "notebooks/worksheets/" in ignored
    guide = (ROOT / "docs" / "setup.md").read_text(encoding="utf-8")
    assert "make student" in guide and '"solution"' in guide and '"exercise"' in guide


# ============================================================== first minutes
def test_lab_overrides_switch_the_news_prompt_off(tmp_path):
    path = write_lab_overrides(tmp_path)
    assert path == lab_overrides_path(tmp_path)
    assert json.loads(path.read_text())["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    path.write_text(json.dumps({"other:plugin": {"x": 1}}))
    merged = json.loads(write_lab_overrides(tmp_path).read_text())
    assert merged["other:plugin"] == {"x": 1} and "@jupyterlab/apputils-extension:notification" in merged


def test_this_environment_has_the_overrides_and_they_fit_the_schema():
    """make setup / make lab wrote them; each value is one the pinned JupyterLab's schema allows."""
    written = json.loads(lab_overrides_path().read_text())
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
    for plugin, values in LAB_OVERRIDES.items():
        assert written[plugin] == {**written[plugin], **values}
        package, name = plugin.split(":")
        schema = json.loads((schemas / package / f"{name}.json").read_text())
        for key, value in values.items():
            prop = schema["properties"][key]
            allowed = [c["const"] for c in prop.get("oneOf", [])] or [True, False]
            assert value in allowed


def test_menu_path_for_simple_interface_matches_the_pinned_jupyterlab():
    """Simple Interface is under View > Appearance in JupyterLab 4.6, and the texts say so."""
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas" / "@jupyterlab"
    commands = json.loads((schemas / "application-extension" / "commands.json").read_text())

    def find(items, trail):
        for item in items:
            if item.get("command") == "application:toggle-mode":
                return trail
            sub = item.get("submenu") or {}
            hit = find(sub.get("items", []), trail + [sub.get("label", sub.get("id"))])
            if hit:
                return hit
        return None

    views = [m for m in commands["jupyter.lab.menus"]["main"] if m["id"] == "jp-mainmenu-view"]
    ids = [item.get("submenu", {}).get("id") for m in views for item in m["items"]]
    assert "jp-mainmenu-view-appearance" in ids and find(views[0]["items"], []) is not None
    texts = [(ROOT / "README.md").read_text()] + [p.read_text() for p in (NOTEBOOKS / "py").glob("*.py")]
    assert any("View > Appearance > Simple Interface" in t for t in texts)
    assert not any(re.search(r"View > Simple Interface", t) for t in texts)


def test_make_lab_installs_only_the_lessons_packages():
    makefile = (ROOT / "Makefile").read_text()
    lab_rule = makefile.split("$(LAB_STAMP): ")[1].split("\n\n")[0]
    assert '".[notebooks]"' in lab_rule and "dev" not in lab_rule and "--quiet" in makefile
    assert re.search(r"^lab: \$\(LAB_STAMP\)", makefile, re.M) and re.search(
        r"^test: \$\(STAMP\)", makefile, re.M
    )
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    lesson_needs = " ".join(extras["notebooks"])
    for tool in ("pytest", "hypothesis", "nbval", "playwright"):
        assert tool not in lesson_needs


# ======================================================= iaa-teach lessons DIR
def test_cli_lessons_writes_every_lesson_as_it_is(tmp_path, capsys):
    from iaa_teach.cli import main

    assert main(["lessons", str(tmp_path / "course")]) == 0
    written = sorted((tmp_path / "course").glob("*.ipynb"))
    assert [p.name for p in written] == [f"{les.stem}.ipynb" for les in LESSONS]
    for path in written:  # the executed lesson, outputs and worked answers kept
        assert json.loads(path.read_text(encoding="utf-8")) == json.loads(
            (NOTEBOOKS / path.name).read_text(encoding="utf-8")
        )
    out = capsys.readouterr().out
    assert f"wrote {len(LESSONS)} lessons to" in out and "00_start_here.ipynb" in out


def test_cli_lessons_student_copies_and_never_overwrites_work(tmp_path, capsys):
    from iaa_teach.cli import main

    folder = tmp_path / "mine"
    assert main(["lessons", str(folder), "--student"]) == 0
    first = folder / "01_cohens_kappa.ipynb"
    assert (
        first.read_text(encoding="utf-8")
        == json.dumps(
            student_notebook(json.loads((NOTEBOOKS / first.name).read_text(encoding="utf-8"))),
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
    first.write_text("my own work", encoding="utf-8")
    capsys.readouterr()
    assert main(["lessons", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("iaa-teach: error: ") and "already there" in err and "--replace" in err
    assert first.read_text(encoding="utf-8") == "my own work"  # nothing written
    assert main(["lessons", str(folder), "--replace"]) == 0
    assert first.read_text(encoding="utf-8") != "my own work"


def test_the_wheel_carries_the_lessons_and_the_course_data(tmp_path):
    """setup.py's build step copies notebooks/*.ipynb into the package; package data ships content/*.toml."""
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    assert sorted(p.name for p in (tmp_path / "iaa_teach" / "lessons").glob("*.ipynb")) == sorted(
        p.name for p in NOTEBOOKS.glob("*.ipynb")
    )
    shipped = {p.name for p in (tmp_path / "iaa_teach" / "content").glob("*.toml")}
    # every content file of the source tree (other sessions add theirs), the course's four among them
    assert shipped == {p.name for p in (ROOT / "iaa_teach" / "content").glob("*.toml")}
    assert {"lessons.toml", "glossary.toml", "notation.toml", "recall.toml", "worked.toml"} <= shipped


# ================================================================ sources
_YEAR = re.compile(r"(?<![\d/{.])(?:19|20)\d\d(?![\d/])")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?")


def _sources_headings() -> list[str]:
    """The headings of the start page's Sources section (one per work: "Gwet 2014")."""
    text = next(source(c) for c in cells("00_start_here") if source(c).startswith("## Sources"))
    return [line[4:] for line in text.splitlines() if line.startswith("### ")]


def _reader_texts(stem):
    """What a reader of a notebook sees: its Markdown cells and the text of its outputs."""
    for i, cell in enumerate(cells(stem)):
        if cell["cell_type"] == "markdown":
            if not source(cell).startswith("## Sources"):  # the list itself
                yield i, source(cell)
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            for kind in ("text/markdown", "text/plain"):
                if kind in data:
                    yield i, "".join(data[kind])
            if o.get("output_type") == "stream":
                yield i, "".join(o["text"])


def citations(text: str):
    """Author-year citations in a text: each year with the names written just before it.

    "Gwet's first-order agreement coefficient (2008)", "(Conger 1980)", "Landis and Koch (1977)":
    a year (not a seed, not part of a number or fraction) after a capitalised name in the same
    sentence, at most 60 characters before it.
    """
    for m in _YEAR.finditer(text):
        before = re.split(r"[.;:\n]\s", text[max(0, m.start() - 60) : m.start()])[-1]
        if re.search(r"seed\s*$", before):
            continue
        names = [n for n in _NAME.findall(before) if n not in {"The", "A", "An", "In", "Its"}]
        if names:
            yield names, m.group(0)


def test_citations_can_be_found():
    found = list(citations("Gwet's first-order agreement coefficient (2008), as Landis and Koch (1977) say"))
    assert (["Gwet"], "2008") in found and (["Landis", "Koch"], "1977") in found
    assert not list(citations("simulation (400 studies, seed 2026); 1957/5880; \\frac{1957}{2}"))


@pytest.mark.parametrize("stem", [les.stem for les in LESSONS if les.ready])
def test_every_citation_is_in_the_start_pages_sources(stem):
    """Every author-year a notebook cites (text or output) has its own entry under Sources on the
    start page: a heading with one of the names and the year ("### Conger 1980")."""
    headings = _sources_headings()
    missing = {
        f"cell {i}: {' '.join(names)} {year}"
        for i, text in _reader_texts(stem)
        for names, year in citations(text)
        if not any(year in h and any(n in h for n in names) for h in headings)
    }
    assert not missing, "\n".join(sorted(missing))


# ================================================================ minutes
@pytest.mark.parametrize("les", [les for les in LESSONS if les.ready], ids=lambda les: les.stem)
def test_lesson_header_says_the_minutes_of_lessons_toml(les):
    """The start page's lesson table (lessons.toml) and the lesson's own header give one time.

    Lessons 01-07 say "About N minutes" under "What you'll need"; a notebook whose header says
    no time (the start page, 08-10) is not checked, but one that does must agree."""
    header = next(source(c) for c in cells(les.stem) if c["cell_type"] == "markdown")
    said = [int(m) for m in re.findall(r"(?i)about (\d+) minutes", header)]
    if les.number in {f"{n:02d}" for n in range(1, 8)}:
        assert said, f"{les.stem}: its header says no time"
    assert all(m == les.minutes for m in said), f"{les.stem}: header {said}, lessons.toml {les.minutes}"


# ============================================================ exam revision
#: Each question kind of lesson 10, by the glossary term of what it examines (the glossary says
#: which lesson teaches it).
KIND_TERMS = {
    "cohen": "Cohen's kappa",
    "weighted": "weights",
    "fleiss": "Fleiss' kappa",
    "alpha": "Krippendorff's alpha",
    "partial": "partial coverage",
    "pi": "Scott's pi",
    "ac1": "Gwet's AC1",
    "percent": "percent agreement",
}


def test_exam_revision_needs_the_lessons_that_teach_its_kinds():
    """Lesson 10's "What you'll need" names the lessons up to the last one that teaches a kind
    it examines (pi, ac1 and percent: lesson 06), and its list of kinds says each one's lesson."""
    from iaa_teach.exercises import KINDS

    assert set(KIND_TERMS) == set(KINDS), "a new question kind: add the glossary term it examines"
    first_in = {t.term: t.lesson for t in GLOSSARY}
    taught = {kind: first_in[term] for kind, term in KIND_TERMS.items()}
    header = next(source(c) for c in cells("10_exam_revision") if c["cell_type"] == "markdown")
    (last,) = re.findall(r"lessons 01-(\d\d)", header)
    assert last == max(taught.values())
    kinds_text = next(source(c) for c in cells("10_exam_revision") if source(c).startswith("- `cohen`"))
    for kind, lesson_number in taught.items():
        (line,) = [x for x in re.split(r"\n(?=- )", kinds_text) if f"`{kind}`" in x]
        assert re.search(rf"lessons? {lesson_number}\b", line), (kind, lesson_number, line)


def test_the_lesson_the_glossary_names_for_weights_teaches_weighted_kappa():
    """The glossary's "weights" row says weighted kappa is first in its lesson: that lesson defines
    the agreement weights w_jk, weighted P_o and P_e and kappa_w, and computes them on its data."""
    (weights,) = [t for t in GLOSSARY if t.term == "weights"]
    stem = lesson(weights.lesson).stem
    prose_ = "\n".join(source(c) for c in cells(stem) if c["cell_type"] == "markdown")
    code = "\n".join(source(c) for c in cells(stem) if c["cell_type"] == "code")
    assert "**weighted kappa**" in prose_ and "**agreement weight**" in prose_
    for formula in (
        r"w_{jk} = 1 - \frac{\lvert j - k \rvert}{q - 1}",
        r"\kappa_w = \frac{P_o - P_e}{1 - P_e}",
    ):
        assert formula in prose_, formula
    assert 'weights="linear"' in code or "weights=weights" in code
    outputs = "\n".join(
        "".join(o.get("data", {}).get("text/markdown", "")) for c in cells(stem) for o in c.get("outputs", [])
    )
    assert "| **linear** |" in outputs and "| **quadratic** |" in outputs


def test_glossary_and_notation_are_in_the_order_the_lessons_introduce_them():
    """Both tables say "first in lesson": read top to bottom, they follow the course."""
    for name, lessons in (
        ("glossary", [t.lesson for t in GLOSSARY]),
        ("notation", [r.lesson for r in markup.NOTATION]),
    ):
        assert lessons == sorted(lessons), f"{name}: {lessons}"


def test_lesson_03_recall_asks_about_weighted_kappa():
    """Lesson 03's last section teaches weighted kappa; its recall questions asked only about alpha."""
    from iaa_teach.course import recall_answers, recall_questions

    questions = recall_questions("03").markdown()
    answers = recall_answers("03").markdown()
    assert "w_{jk}" in questions and r"\kappa_w" in questions
    assert r"\kappa_w" in answers and "below" in answers


def test_recall_types_no_decimal():
    """Every number a reader sees is computed: the recall questions and answers (a file of text, not
    code) type none with decimals (lesson 07's asked about "the normal's 1.96")."""
    import tomllib

    recall = tomllib.loads((Path(markup.__file__).parent / "content" / "recall.toml").read_text("utf-8"))
    typed = [
        f"lesson {q['lesson']}: {m.group(0)}"
        for q in recall["question"]
        for m in re.finditer(r"\d+\.\d+", q["question"] + " " + q["answer"])
    ]
    assert not typed, typed
