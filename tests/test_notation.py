"""One notation across the course: retired symbols and names appear nowhere a student reads.

Scanned: the lessons' markdown and stored text outputs (00-09), ``explain``'s
text and Markdown for every result kind on the course's data sets, the text of
every figure the lessons draw (titles, axis and tick labels, legends) and every
explorer's readout, control labels and figure alt text; for the weights' retired forms, every
docstring of the package.

Retired (issue 22): ``p_aj``, ``p_bj``, ``p_gj`` for a rater's share (the course
writes ``p_rj``); ``o_PP`` for unweighted pair counts (``o_ck`` is the weighted
coincidences); "Bennett's S" (one name: Brennan-Prediger S); ``k`` for the
number of labels an item got (the course's ``n_i``; ``k`` is a category);
``N`` for the items P_a averages over when that is not all the items
(explain writes ``N_a``); ``n`` for the number of items in a standard error
or its degrees of freedom (the course's ``N``; ``n`` is Krippendorff's pairable values);
and ``|i - j|`` for the distance of two categories in weighted kappa (``i`` is an item;
the course writes ``|j - k|``).
"""

import json
import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from iaa_teach import (  # noqa: E402
    agreement_family,
    cohen_kappa,
    conger_kappa,
    datasets,
    explain,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_cohen,
    plots,
    widgets,  # noqa: E402
)

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = [f"{n:02d}" for n in range(10)]

RETIRED = {
    "a rater's share written p_aj, p_bj or p_gj": re.compile(r"p_\{?[abgh]j\}?"),
    "unweighted pair counts written o_PP": re.compile(r"o_\{?(PP|NN|GG|PN|NP|PG|GP|NG|GN)\}?"),
    "Bennett's S (the course's name is Brennan-Prediger S)": re.compile(r"Bennett's S"),
    "k for the labels an item got (the course writes n_i)": re.compile(
        r"(?<![\w$\\])k\s*=\s*(\d|how many)|per-item k\b(?![$)])|per-item \$k\$(?!\))|item's (own )?\$k\$"
    ),
    "N for the items P_a uses when it is not every item": re.compile(r"over the N = \d+ items"),
    "n for the number of items (the course writes N; n is the pairable values)": re.compile(
        r"(?<![\w'_\\])n - 1 = \d+\$? degrees|(?<![\w'_])n = \d+ (rated )?items|n\(n - 1\)\)? ×|n/N_"
    ),
    "i - j for two categories (i is an item; the course writes j - k)": re.compile(
        r"[(|]\s*i\s*-\s*j\s*[)|]"
    ),
    "w_ij for an agreement weight (the course writes w_jk)": re.compile(r"w_\{?ij\}?"),
    "k for the number of categories (the course writes q; k is a category)": re.compile(
        r"(?<!\w)(?<!_\{)k\s*-\s*1\b|1/k for k categories"
    ),
}


def _text(x) -> str:
    return "".join(x) if isinstance(x, list) else (x or "")


def retired_in(text: str) -> list[str]:
    return [f"{what}: {m.group(0)!r}" for what, pattern in RETIRED.items() for m in pattern.finditer(text)]


def lesson_texts(stem: str) -> list[tuple[str, str]]:
    (path,) = NOTEBOOKS.glob(f"{stem}_*.ipynb")
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            out.append((f"{path.name} cell {i} (markdown)", _text(cell["source"])))
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            for kind in ("text/plain", "text/markdown", "text/html"):
                if kind in data and "application/vnd.jupyter.widget-view+json" not in data:
                    out.append((f"{path.name} cell {i} ({kind})", _text(data[kind])))
            if o.get("output_type") == "stream":
                out.append((f"{path.name} cell {i} (stream)", _text(o.get("text"))))
    return out


@pytest.mark.parametrize("stem", LESSONS)
def test_lessons_use_no_retired_notation(stem):
    found = [f"{where}: {hit}" for where, text in lesson_texts(stem) for hit in retired_in(text)]
    assert not found, "\n".join(found)


def results():
    s, m, p = datasets.sentiment(), datasets.sentiment_missing(), datasets.partial_coverage()
    out = [
        cohen_kappa(s, "A", "B"),
        cohen_kappa(s, "A", "B", weights="linear"),
        cohen_kappa(s, "A", "B", weights="quadratic"),
        pairwise_cohen(m),
        fleiss_kappa(p),
        fleiss_kappa(p, chance="item_mean"),
        krippendorff_alpha(m, level="ordinal"),
        conger_kappa(p),
    ]
    out += list(agreement_family(p).values())
    out += list(agreement_family(datasets.feinstein_cicchetti("b")).values())  # two raters
    return out


def test_explain_uses_no_retired_notation():
    found = []
    for res in results():
        ex = explain(res)
        found += [f"{type(res).__name__}: {hit}" for hit in retired_in(ex.text() + ex.markdown())]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_is_worked_in_the_lessons_symbols(weights):
    """Lesson 03 writes weighted kappa kappa_w, P_e = sum w_jk p_j+ p_+k: its worked answer writes the
    same (it wrote kappa for the weighted coefficient, and n_j+, n_+k, symbols no lesson defines)."""
    ex = explain(cohen_kappa(datasets.sentiment(), "A", "B", weights=weights))
    text, markdown = ex.text(), ex.markdown()
    assert "κ_w = (P_o - P_e) / (1 - P_e)" in text and "κ_w = 0." in text
    assert "P_e = Σ w_jk p_j+ p_+k" in text and r"\kappa_w &=" in markdown
    assert not re.search(r"n_\{?[jk]\+\}?|n_\{?\+[jk]\}?", text + markdown)
    unweighted = explain(cohen_kappa(datasets.sentiment(), "A", "B")).text()
    assert "κ_w" not in unweighted and "κ = (P_o - P_e) / (1 - P_e)" in unweighted


def test_explain_names_the_items_p_a_uses_n_a():
    text = explain(fleiss_kappa(datasets.partial_coverage())).text()
    assert "N_a = 8" in text and "N = 10 items in all" in text


def figure_texts(fig) -> str:
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    return "\n".join(texts)


def test_figures_use_no_retired_notation():
    s, m, p = datasets.sentiment(), datasets.sentiment_missing(), datasets.partial_coverage()
    figures = [
        plots.coverage_chart(p),
        plots.coverage_chart(m),
        plots.agreement_heatmap(cohen_kappa(s, "A", "B")),
        plots.pairwise_bars(pairwise_cohen(s)),
        plots.item_agreement_bars(fleiss_kappa(p)),
        plots.coincidence_heatmap(krippendorff_alpha(s)),
        plots.chance_chart(agreement_family(s)),
        plots.family_chart(agreement_family(s)),
        plots.coefficients_with_bands({"alpha": krippendorff_alpha(s), "Fleiss": fleiss_kappa(s)}),
    ]
    found = [hit for fig in figures for hit in retired_in(figure_texts(fig))]
    assert not found, "\n".join(found)
    ticks = [t.get_text() for t in plots.coverage_chart(p).axes[0].get_xticklabels()]
    assert all("$n_i$=" in t for t in ticks)


@pytest.mark.parametrize(
    "make",
    [
        lambda: widgets.TableExplorer(),
        lambda: widgets.ParadoxExplorer(n_items=100),
        lambda: widgets.MissingDataExplorer(),
        lambda: widgets.CoverageExplorer(),
        lambda: widgets.WeightsExplorer(),
        lambda: widgets.IntervalExplorer(),
    ],
    ids=["table", "paradox", "missing", "coverage", "weights", "interval"],
)
def test_explorers_use_no_retired_notation(make):
    ex = make()
    parts = [ex.readout.value, getattr(ex.image, "alt", "") or ""]
    parts += [str(c.description) for c in ex.widget.children if hasattr(c, "description")]
    found = retired_in("\n".join(parts))
    assert not found, "\n".join(found)


def test_the_scan_can_fail():
    """Each retired form is caught; the course's own forms are not."""
    retired = ("p_aj", "p_{gj}", "o_{PP}", "Bennett's S", "1\nk=3", "item (k = how many raters)")
    retired += ("uses a per-item $k$;", "each item's $k$.", "each item's own $k$")
    retired += ("each of the n = 10 rated items", "with n - 1 = 9 degrees", "with $n - 1 = 9$ degrees")
    retired += ("√(1 / (n(n - 1)) × Σ_i", "(1 - n/N_{pop})")
    retired += ("|i - j|", "(i-j)²", "w_ij", "(k - 1)", "{k-1}")
    for text in retired:
        assert retired_in(text), text
    own = ("p_rj", "p_{rj}", "o_{ck}", "Brennan-Prediger S", "n_i=3", "N_a = 8", "|j - k|")
    own += ("writes $k$ for $n_i$ (per-item $k$)", "each item's $n_i$", "n = 30 pairable values")
    own += ("each of the N = 10 rated items", "with N - 1 = 9 degrees", "with $N' - 1 = 4$ degrees")
    own += ("√(1 / (N(N - 1)) × Σ_i", "D_e = (n² - Σ n_c²) / (n(n - 1))\n", "n_c n_k / (n - 1)")
    for text in own:
        assert not retired_in(text), text


def test_every_notation_symbol_is_used_in_the_lesson_it_names():
    """The notation table's "first in lesson" is a lesson that writes the symbol (issue 22: w_jk was not)."""
    from iaa_teach._markup import NOTATION

    for row in NOTATION:
        text = "\n".join(t for _, t in lesson_texts(row.lesson))
        assert row.symbol.tex in text or row.symbol.txt in text, (row.key, row.lesson)


#: Symbols a lesson may write although the notation table has no row or mention of them:
#: a sum of a table symbol, explained where it is used.
COMPOSED = {"sum_n_i": "n_i"}


def test_every_symbol_a_lesson_uses_is_in_the_notation_table():
    """A symbol of the templates (SYMBOLS) that a lesson's text or output writes has a row in the
    notation table, or is named in a row's meaning or sources column (p_+j beside p_j+, m_u beside
    n_i). Issue: the worked answers of 02, 04, 05, 06 and 10 wrote N_a, which the table lacked."""
    from iaa_teach._markup import NOTATION, SYMBOLS

    explained = "\n".join(f"{row.meaning}\n{row.elsewhere}" for row in NOTATION)
    rows = {row.key for row in NOTATION}
    missing = []
    for stem in sorted(p.name[:2] for p in NOTEBOOKS.glob("*.ipynb")):
        text = "\n".join(t for _, t in lesson_texts(stem))
        for key, symbol in SYMBOLS.items():
            if key in rows or COMPOSED.get(key) in rows:
                continue
            forms = {symbol.tex, symbol.txt}
            used = any(re.search(r"(?<![\w\\])" + re.escape(f) + r"(?![\w{])", text) for f in forms)
            if used and not any(f in explained for f in forms):
                missing.append(f"lesson {stem} writes {symbol.txt}")
    assert not missing, "\n".join(missing)


def test_n_a_is_in_the_notation_table():
    from iaa_teach._markup import NOTATION

    (row,) = [row for row in NOTATION if row.key == "N_a"]
    assert "n_i ≥ 2" in row.meaning and row.lesson == "02"


@pytest.mark.parametrize("kind", ["weighted", "percent", "pi", "ac1"])
def test_exam_questions_use_no_retired_notation(kind):
    """Lesson 10's questions and worked solutions write the weights as lesson 03 teaches them."""
    from iaa_teach.exercises import make_question

    found = []
    for seed in range(3):
        q = make_question(kind, seed=seed, level=4)
        text = q.text() + q.markdown() + q.solution().text()
        found += [f"seed {seed}: {hit}" for hit in retired_in(text)]
    assert not found, "\n".join(found)


def test_content_files_use_no_retired_notation():
    """Every text a lecturer edits (the glossary, notation, mistakes' advice, concept questions...)
    is in the course's notation: the exam's advice on the uniform-chance mistake said "Bennett's S"."""
    content = Path(__file__).resolve().parents[1] / "iaa_teach" / "content"
    found = [
        f"{path.name}: {hit}"
        for path in sorted(content.glob("*.toml"))
        for hit in retired_in(path.read_text())
    ]
    assert not found, "\n".join(found)


def test_the_family_names_s_once_for_any_number_of_raters():
    """Two raters' S is Brennan-Prediger S, as with more raters (the family called it Bennett's S)."""
    assert "Brennan-Prediger S" in agreement_family(datasets.sentiment().subset(raters=["A", "B"]))


#: The retired forms of two categories' weights, looked for in docstrings too.
WEIGHT_FORMS = [
    "i - j for two categories (i is an item; the course writes j - k)",
    "w_ij for an agreement weight (the course writes w_jk)",
]


def docstrings_with_retired_weights(source: str, where: str) -> list[str]:
    """Each docstring (module, class, function, method) in ``source`` that writes two categories'
    weights in a retired form."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node) or ""
            for what in WEIGHT_FORMS:
                found += [
                    f"{where} {getattr(node, 'name', '')}: {m.group(0)!r}"
                    for m in RETIRED[what].finditer(doc)
                ]
    return found


def test_docstrings_write_the_weights_as_the_course_does():
    """help() on a coefficient writes w_jk and |j - k| as lesson 03 does (metrics.py and _formulas.py wrote
    |i-j|, (i-j)**2 and w_ij, with i an item everywhere else); every module of the package, internal ones
    too, and the scan finds a planted docstring."""
    package = Path(__file__).resolve().parents[1] / "iaa_teach"
    found = [
        hit
        for path in sorted(package.rglob("*.py"))
        for hit in docstrings_with_retired_weights(path.read_text("utf-8"), path.name)
    ]
    assert not found, "\n".join(found)
    planted = 'def f():\n    """Weights ``|i-j|`` or ``(i - j)**2``; 1 - w_ij / max(w)."""\n'
    assert len(docstrings_with_retired_weights(planted, "planted")) == 3
    assert not docstrings_with_retired_weights('"""Weights |j - k|, w_jk."""', "own")
