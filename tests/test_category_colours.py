"""Each category its own colour in the figures, up to 20; past 20 the figure says the colours repeat.

On main the palette had 7 colours and went round again: with 8 or more categories two labels
shared a colour in the coverage chart, the coverage map and the disputed items' bars, and a
student could not tell them apart. The distances are computed here (CIELAB, CIE 1976 Delta-E),
from the sRGB definitions, not taken from the package.
"""

import itertools

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from figure_support import texts_outside  # noqa: E402
from matplotlib.colors import to_hex, to_rgb  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from iaa_teach import Ratings, _plots, plots  # noqa: E402
from iaa_teach.diagnosis import diagnose  # noqa: E402

# Two colours closer than this are hard to tell apart side by side (about 2.3 is "just noticeable";
# the Okabe-Ito colours the course started with are at least 26 apart).
LEAST_DELTA_E = 20


def _linear(colour):
    rgb = np.array(to_rgb(colour))
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _lab(colour):
    """CIELAB (D65) of an sRGB colour."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ _linear(
        colour
    )
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _delta_e(a, b):
    return float(np.linalg.norm(_lab(a) - _lab(b)))


def _ratings(k, n_items=None, seed=0):
    """4 raters, ``2k`` items, every one of ``k`` labels used, a few cells missing."""
    rng = np.random.default_rng(seed)
    n_items = n_items or 2 * k
    truth = np.arange(n_items) % k
    codes = np.where(rng.random((n_items, 4)) < 0.5, truth[:, None], rng.integers(0, k, (n_items, 4)))
    codes[:, 0] = truth
    rows = [
        [f"tag{c:02d}" if j == 0 or rng.random() > 0.05 else None for j, c in enumerate(row)] for row in codes
    ]
    return Ratings.from_rows(rows, categories=[f"tag{c:02d}" for c in range(k)])


@pytest.mark.parametrize("k", [8, 12, 20])
def test_every_category_has_a_colour_of_its_own_up_to_20(k):
    colours = [to_hex(c) for c in _plots._category_colors(k)]
    assert len(set(colours)) == k, f"{k} categories, {len(set(colours))} colours: {colours}"
    closest = min(
        (_delta_e(a, b), a, b) for a, b in itertools.combinations([*colours, "#ffffff"], 2)
    )  # white: a missing label
    assert closest[0] >= LEAST_DELTA_E, f"{closest[1]} and {closest[2]} are only {closest[0]:.1f} apart"


def test_text_on_each_category_colour_is_readable():
    """The label written on a coverage chart's cell: at least 3:1 contrast on every category colour."""
    for colour in _plots._category_colors(20):
        text = _plots._text_on(colour)
        lighter, darker = sorted(
            (_linear(colour) @ (0.2126, 0.7152, 0.0722), _linear(text) @ (0.2126, 0.7152, 0.0722))
        )
        assert (darker + 0.05) / (lighter + 0.05) >= 3, (colour, text)


@pytest.mark.parametrize("k", [12, 20])
def test_coverage_chart_tells_every_label_apart(k):
    fig = plots.coverage_chart(_ratings(k))
    ax = fig.axes[0]
    legend = [to_hex(p.get_facecolor()) for p in ax.get_legend().get_patches()][
        : min(k, _plots.MAX_CELL_TEXT)
    ]
    assert len(set(legend)) == len(legend)
    cells = {}  # label written on a cell -> the cell's colour
    for square, text in ax.iaa_cells.values():
        if text.get_text():
            cells.setdefault(text.get_text(), set()).add(to_hex(square.get_facecolor()))
    assert all(len(c) == 1 for c in cells.values())
    assert len({c for colours in cells.values() for c in colours}) == k


@pytest.mark.parametrize("k", [12, 20])
def test_coverage_map_tells_every_label_apart_and_its_legend_is_in_the_figure(k):
    r = _ratings(k)
    fig = plots.coverage_map(r)
    ax = fig.axes[0]
    image = ax.get_images()[0]
    shown = {to_hex(image.cmap(image.norm(c))) for c in range(k)}
    assert len(shown) == k
    assert texts_outside(fig) == []  # a legend one row wide ran off the figure
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[: min(k, _plots.MAX_CELL_TEXT)] == list(r.categories[: _plots.MAX_CELL_TEXT])


def test_past_20_labels_the_figures_say_the_colours_repeat():
    r = _ratings(25)
    chart = plots.coverage_chart(r).axes[0].get_legend().get_title().get_text()
    assert "15 of 25" in chart and "colours repeat after 20" in chart
    legend = plots.coverage_map(r).axes[0].get_legend().get_title().get_text()
    assert "15 of 25" in legend and "colours repeat after 20" in legend
    for k in (12, 20):  # nothing to say: every label listed, each its own colour
        chart = plots.coverage_chart(_ratings(k)).axes[0].get_legend().get_title().get_text()
        assert chart == ("label" if k <= _plots.MAX_CELL_TEXT else "label\n(the first 15 of 20)")


def _drawn(ax):
    """The distinct colours of the stacked bars of an item_disagreement_chart's right-hand chart."""
    return {to_hex(p.get_facecolor()) for p in ax.patches if type(p) is Rectangle and p.get_width() > 0}


def test_disputed_items_chart_names_every_colour_up_to_20_labels():
    report = diagnose(_ratings(20, seed=3))
    fig = plots.item_disagreement_chart(report, top=10)
    right = fig.axes[1]
    colours = _drawn(right)
    assert len(colours) > 12  # more than main drew a legend for
    assert fig.legends, "no legend: the colours name nothing"
    assert len(fig.legends[0].get_texts()) == len(colours)
    assert texts_outside(fig) == []


def test_disputed_items_chart_past_20_labels_says_the_colours_repeat():
    report = diagnose(_ratings(30, n_items=30, seed=5))
    fig = plots.item_disagreement_chart(report, top=30)
    right = fig.axes[1]
    assert not fig.legends
    assert "colours repeat after 20" in right.get_xlabel()
