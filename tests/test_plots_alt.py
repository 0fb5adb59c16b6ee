"""What each figure's alt text says: its finding, with numbers checked against reference libraries.

A figure of iaa_teach.plots carries its text alternative (``_plots.alt_text``), which a notebook
stores as the figure's plain text and the book uses as the image's alt (issue 25): not the kind
of chart, but what it shows.
"""

import matplotlib

matplotlib.use("Agg")

import krippendorff  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.metrics import cohen_kappa_score, confusion_matrix  # noqa: E402

from iaa_teach import (  # noqa: E402
    Ratings,
    _plots,
    cohen_kappa,
    diagnose,
    fleiss_kappa,
    krippendorff_alpha,
    plots,
)


def d3(x: float) -> str:
    """Three decimals, rounded half up (as the package's fmt rounds), for the reference values."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(repr(float(x))).quantize(Decimal("0.001"), ROUND_HALF_UP))


# four raters on 12 items; C goes against the others on half of them
ROWS = [
    ["P", "P", "N", "P"],
    ["N", "N", "P", "N"],
    ["P", "P", "P", "P"],
    ["N", "N", "N", "N"],
    ["P", "P", "N", "P"],
    ["G", "G", "G", "G"],
    ["N", "N", "P", "N"],
    ["P", "P", "P", "P"],
    ["G", "G", "N", "G"],
    ["N", "P", "N", "N"],
    ["P", "P", "G", "P"],
    ["G", "G", "G", "N"],
]
RATERS = ["A", "B", "C", "D"]


@pytest.fixture(scope="module")
def ratings():
    return Ratings.from_rows(ROWS, raters=RATERS)


def alpha_of(rows, keep):
    codes = {"G": 0, "N": 1, "P": 2}
    data = np.array([[codes[row[j]] for row in rows] for j in keep], dtype=float)  # raters x items
    return krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")


def test_leave_one_out_says_who_agrees_least_and_how_far_alpha_rises(ratings):
    text = _plots.alt_text(plots.leave_one_out_bars(diagnose(ratings)))
    whole = alpha_of(ROWS, range(4))
    without = {r: alpha_of(ROWS, [j for j in range(4) if j != i]) for i, r in enumerate(RATERS)}
    worst = max(without, key=without.get)
    assert worst == "C"
    assert f"rater C agrees least: alpha rises from {d3(whole)} to {d3(without['C'])} without rater C" in text


def test_the_agreement_table_says_how_often_two_raters_agree_and_where_they_differ(ratings):
    text = _plots.alt_text(plots.agreement_heatmap(cohen_kappa(ratings, "A", "C")))
    a, c = [row[0] for row in ROWS], [row[2] for row in ROWS]
    table = confusion_matrix(a, c, labels=["G", "N", "P"])
    assert f"the same label on {np.trace(table)} of 12 items" in text
    off = np.where(np.eye(3, dtype=bool), -1, table)
    i, j = np.unravel_index(
        np.argmax(off), off.shape
    )  # the largest cell off the diagonal (the first of ties)
    labels = ["G", "N", "P"]
    assert (
        f'most often they differ as rater A "{labels[i]}", rater C "{labels[j]}" ({off[i, j]} items)' in text
    )
    assert f"kappa {d3(cohen_kappa_score(a, c))}" in text


def test_item_agreement_names_the_unanimous_items_and_the_lowest(ratings):
    text = _plots.alt_text(plots.item_agreement_bars(fleiss_kappa(ratings)))
    unanimous = sum(len(set(row)) == 1 for row in ROWS)
    assert f"all raters agree on {unanimous} (P_i = 1), split on {12 - unanimous}" in text
    p_i = [sum(row.count(c) * (row.count(c) - 1) for c in set(row)) / 12 for row in ROWS]  # n_i = 4: 12 pairs
    lowest = int(np.argmin(p_i))  # the first of the ties
    assert f"the lowest item {lowest + 1} at {d3(p_i[lowest])}" in text


def test_the_confusion_figure_names_the_pair_most_confused(ratings):
    report = diagnose(ratings)
    text = _plots.alt_text(plots.confusion_heatmap(report))
    first = report.confused_pairs()[0]
    assert f'"{first["first"]}" and "{first["second"]}"' in text and "times as often as chance" in text


def test_every_lesson_figure_has_its_own_finding_with_a_number(ratings):
    report = diagnose(ratings)
    res = krippendorff_alpha(ratings)
    figures = [
        plots.agreement_heatmap(cohen_kappa(ratings, "A", "B")),
        plots.item_agreement_bars(fleiss_kappa(ratings)),
        plots.coincidence_heatmap(res),
        plots.coefficients_with_bands({"alpha": res, "kappa": fleiss_kappa(ratings)}),
        plots.coverage_chart(ratings),
        plots.family_chart(ratings),
        plots.chance_chart(ratings),
        plots.rater_agreement_heatmap(report),
        plots.item_disagreement_chart(report),
        plots.confusion_heatmap(report),
        plots.leave_one_out_bars(report),
    ]
    texts = [_plots.alt_text(fig) for fig in figures]
    assert len(set(texts)) == len(texts)
    for text in texts:
        assert any(ch.isdigit() for ch in text) and not text.startswith("Figure: "), text
    # the notebook stores it as the figure's plain text, beside the PNG
    bundle = figures[0]._repr_mimebundle_()
    assert bundle == {"text/plain": texts[0]}
