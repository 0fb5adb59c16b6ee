"""What of a matplotlib figure lies outside it: the texts a PNG of the figure would cut; data that crowds
a figure (12 categories with long names)."""

from __future__ import annotations

import numpy as np
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from iaa_teach import Ratings


def _undrawn_tick_labels(fig: Figure) -> set[int]:
    """The tick labels matplotlib keeps but does not draw: those of ticks outside their axis' view."""
    out = set()
    for axis in fig.findobj(Axis):
        low, high = sorted(axis.get_view_interval())
        slack = (high - low) * 1e-9
        for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
            if not low - slack <= tick.get_loc() <= high + slack:
                out.update((id(tick.label1), id(tick.label2)))
    return out


def texts_outside(fig: Figure, draw: bool = True) -> list[str]:
    """Each text drawn on ``fig`` (titles, labels, tick labels, numbers in cells, legends) that runs past
    an edge of the figure, with its extent and the figure's, in pixels (empty when all lie inside).
    ``draw``: draw the figure first (where the texts are laid out); without it, as last drawn."""
    if not hasattr(fig.canvas, "get_renderer"):  # a figure closed in pyplot: drawn as a PNG would be
        FigureCanvasAgg(fig)
    if draw:
        fig.canvas.draw()
    renderer, frame, undrawn = fig.canvas.get_renderer(), fig.bbox, _undrawn_tick_labels(fig)
    out = []
    for text in fig.findobj(Text):
        if not (text.get_visible() and text.get_text().strip()) or id(text) in undrawn:
            continue
        box = text.get_window_extent(renderer)
        if min(box.x0 - frame.x0, box.y0 - frame.y0, frame.x1 - box.x1, frame.y1 - box.y1) < -0.5:
            out.append(
                f"{text.get_text()!r}: x {box.x0:.0f} to {box.x1:.0f}, y {box.y0:.0f} to {box.y1:.0f} "
                f"of {frame.width:.0f} x {frame.height:.0f}"
            )
    return out


def twelve_long_labels() -> Ratings:
    """4 raters, 40 items, 12 categories named by 30 characters each, told apart by their first word."""
    words = "anger boredom calm disgust envy fear glee hope irony joy love malice".split()
    categories = [f"{word} as the review reads to me, in full"[:30] for word in words]
    rng = np.random.default_rng(7)
    rows = [[categories[x] for x in rng.integers(0, 12, size=4)] for _ in range(40)]
    return Ratings.from_rows(rows, categories=categories)
