"""Each committed notebook's STORED outputs show that notebook's figures from the answer key.

The expected strings are computed from the metrics (ERRATA.md's answer key is
what the metrics' own tests pin down), never typed in. A second check: no
markdown cell types a number that the code computes.
"""

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from iaa_teach import (
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    datasets,
    fleiss_kappa,
    gwet_ac,
    items_needed,
    krippendorff_alpha,
    pairwise_cohen,
    percent_agreement,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

from rounding import d3  # noqa: E402

SENTIMENT = datasets.sentiment()
MISSING = datasets.sentiment_missing()
PARTIAL = datasets.partial_coverage()


def texts_rounded_fleiss():
    """The worked example's 0.563: P_i, P_a, P_e and the difference rounded to 3 decimals on the way."""
    res = fleiss_kappa(SENTIMENT)
    p_i = [Fraction(d3(p)) for p in res.exact.p_i]
    p_a = Fraction(d3(sum(p_i) / len(p_i)))
    p_e = Fraction(d3(sum(Fraction(d3(p)) ** 2 for p in res.exact.p_j)))
    return d3(Fraction(d3(p_a - p_e)) / Fraction(d3(1 - p_e)))


def texts_missing_alpha():
    """The code walkthrough's 0.467: unweighted pairs and D_e = 1 - sum p^2."""
    pairs = krippendorff_alpha(MISSING).pair_counts
    total = int(pairs.sum())
    d_o = Fraction(total - int(pairs.trace()), total)
    p = [Fraction(int(x), total) for x in pairs.sum(axis=1)]
    return d3(1 - d_o / (1 - sum(x * x for x in p)))


def partial_single_label_numbers():
    """05's P_a and P_e under the partial-annotation text's rules, and P_e without the single-label items.

    Computed here from the raw rows with exact fractions: P_i over items with at
    least two labels, p_j over all labels (then over the pairable items' labels only).
    """
    rows = [[x for x in row if x is not None] for row in PARTIAL.rows()]
    cats = PARTIAL.categories

    def p_e(rs):
        labels = [x for row in rs for x in row]
        return sum(Fraction(labels.count(c), len(labels)) ** 2 for c in cats)

    pairable = [row for row in rows if len(row) >= 2]
    p_i = [
        Fraction(sum(row.count(c) * (row.count(c) - 1) for c in cats), len(row) * (len(row) - 1))
        for row in pairable
    ]
    assert len(pairable) < len(rows), "the partial-coverage data should have single-label items"
    return [d3(sum(p_i) / len(p_i)), d3(p_e(rows)), d3(p_e(pairable))]


def expected():
    pairs = pairwise_cohen(SENTIMENT)
    return {
        "01_cohens_kappa": [d3(k) for k in pairs.exact.kappas]
        + [str(cohen_kappa(SENTIMENT, "A", "B").exact.kappa)],
        "02_fleiss_kappa": [
            d3(fleiss_kappa(SENTIMENT).exact.kappa),
            texts_rounded_fleiss(),
            str(fleiss_kappa(SENTIMENT).exact.kappa),
        ],
        "03_krippendorff_alpha": [
            d3(krippendorff_alpha(SENTIMENT).exact.alpha),
            str(krippendorff_alpha(SENTIMENT).exact.alpha),
            d3(krippendorff_alpha(SENTIMENT, "ordinal").exact.alpha),
        ],
        "04_missing_data": [
            d3(krippendorff_alpha(MISSING).exact.alpha),
            str(krippendorff_alpha(MISSING).exact.alpha),
            texts_missing_alpha(),
            d3(fleiss_kappa(MISSING, chance="pooled").exact.kappa),
            d3(fleiss_kappa(MISSING, chance="item_mean").exact.kappa),
        ],
        "05_partial_coverage": [
            str(PARTIAL.n_ratings),
            d3(fleiss_kappa(PARTIAL).exact.kappa),
            d3(fleiss_kappa(PARTIAL, chance="item_mean").exact.kappa),
            *partial_single_label_numbers(),
        ],
        "06_chance_models": [
            str(res.exact_value)
            for res in (brennan_prediger(SENTIMENT), gwet_ac(SENTIMENT), conger_kappa(SENTIMENT))
        ]
        + [
            str(conger_kappa(SENTIMENT).exact.p_e),
            str(gwet_ac(SENTIMENT).exact.p_e),
            d3(cohen_kappa(datasets.feinstein_cicchetti("a")).exact.kappa),
            d3(cohen_kappa(datasets.feinstein_cicchetti("b")).exact.kappa),
            d3(gwet_ac(datasets.feinstein_cicchetti("b")).exact.ac),
        ],
        "07_how_sure": [
            d3(percent_agreement(SENTIMENT).se),
            d3(fleiss_kappa(SENTIMENT).ci()[0]),
            d3(fleiss_kappa(SENTIMENT).ci()[1]),
            str(
                items_needed(
                    "fleiss_kappa", expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2], half_width=0.1
                ).items
            ),
        ],
    }


EXPECTED = expected()


def load(stem):
    path = NOTEBOOKS / f"{stem}.ipynb"
    if not path.exists():
        pytest.fail(f"notebooks/{stem}.ipynb is missing")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def joined(value):
    return "".join(value) if isinstance(value, list) else value


def stored_output_text(nb):
    parts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(joined(out["text"]))
            for mime in ("text/plain", "text/markdown", "text/html"):
                if mime in out.get("data", {}):
                    parts.append(joined(out["data"][mime]))
    return "\n".join(parts)


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_stored_outputs_show_the_answer_key(stem):
    text = stored_output_text(load(stem))
    missing = [
        value for value in EXPECTED[stem] if not re.search(rf"(?<![\d.]){re.escape(value)}(?![\d/])", text)
    ]
    assert not missing, f"{stem}.ipynb's stored outputs do not show {missing}; run `make sync`"


def test_the_texts_wrong_numbers_are_the_ones_errata_lists():
    """The reproductions of the texts' numbers differ from the right answers (else there is no erratum)."""
    assert texts_rounded_fleiss() != d3(fleiss_kappa(SENTIMENT).exact.kappa)
    assert texts_missing_alpha() != d3(krippendorff_alpha(MISSING).exact.alpha)


DECIMAL = re.compile(r"(?<![\w.])\d*\.\d{2,}")
#: Addresses and DOIs (the Sources page) hold digits and dots that are not numbers a student reads.
ADDRESS = re.compile(r"https?://\S+|doi:\S+")
MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_no_computed_number_is_typed_into_markdown(stem):
    nb = load(stem)
    found = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        source = joined(cell["source"])
        for number in DECIMAL.findall(source):
            found.append(f"cell {index}: {number}")
        for value in EXPECTED[stem]:
            if "/" in value and value in MATH.sub("", source):
                found.append(f"cell {index}: {value}")
    assert not found, f"{stem}: numbers typed into markdown (print them from code instead): {found}"


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_every_notebook_opens_and_closes_as_the_style_asks(stem):
    nb = load(stem)
    markdown = [joined(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert markdown[0].startswith("# "), "the first cell is the title"
    head = markdown[0]
    assert "What you'll learn" in head and "What you'll need" in head
    body = "\n".join(markdown)
    assert "## Recap" in body and "## Try it yourself" in body
    solutions = [c for c in nb["cells"] if "solution" in c.get("metadata", {}).get("tags", [])]
    assert solutions, "the exercise's answer is a cell tagged 'solution'"
    for cell in solutions:
        shown = [
            out["data"]["text/markdown"] for out in cell["outputs"] if "text/markdown" in out.get("data", {})
        ]
        assert shown and all(joined(s).startswith("<details>") for s in shown), "the answer stays folded"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_no_decimal_is_typed_into_the_markdown_of_any_notebook(path):
    """Every notebook, the playground and the exam revision included: decimals come from code."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    found = [
        f"cell {i}: {number}"
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "markdown"
        for number in DECIMAL.findall(ADDRESS.sub("", joined(cell["source"])))
    ]
    assert not found, f"{path.name}: decimals typed into markdown (print them from code instead): {found}"


def test_lesson_07_reads_alpha_with_its_own_guidance_not_the_bands():
    """Lesson 03 teaches that alpha is put into words with Krippendorff's guidance, not the Landis-Koch
    bands of kappa; lesson 07's table of intervals "read in bands" gave alpha a band ("slight" to "almost
    perfect"). Alpha's interval is now read with its guidance, from its own computed ends."""
    from iaa_teach import agreement_family
    from iaa_teach.course import alpha_verdict

    nb = load("07_how_sure")
    banded = [
        joined(out["data"]["text/plain"])
        for cell in nb["cells"]
        for out in cell.get("outputs", [])
        if "read in bands" in joined(out.get("data", {}).get("text/plain", ""))
    ]
    assert banded and not any("Krippendorff" in text for text in banded)
    low, high = agreement_family(SENTIMENT)["Krippendorff's alpha"].ci()
    text = stored_output_text(nb)
    assert re.search(rf"lower end\s+{re.escape(d3(low))}\s+{re.escape(alpha_verdict(low))}", text)
    assert re.search(rf"upper end\s+{re.escape(d3(high))}\s+{re.escape(alpha_verdict(high))}", text)
