"""Explorer 4: partial coverage, and why merging two annotators is wrong."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import numpy as np

from .. import _plots as plots
from .. import datasets
from .._markup import mpl_escape
from ..metrics import fleiss_kappa
from ..ratings import AgreementError, Ratings
from ._base import (
    Explorer,
    IntSlider,
    and_list,
    attempt,
    band,
    controls_row,
    coverage_figure,
    fmt,
    heading,
    label_style,
    legend_below,
    new_figure,
    note,
    projector_ready,
    readout_row,
    slider_layout,
    symbols,
    table,
    with_ratings,
)

__all__ = ["CoverageExplorer"]

#: Rows of the per-item table: beyond this many items the readout shows the first ones (a 1,000-row
#: table is nothing to read in class, and formatting it was most of an update's time at 1,000 x 10).
MAX_ITEM_ROWS = 30


class CoverageExplorer(Explorer):
    """Annotators who cover different items: the right way against merging them.

    Two sliders set the first item annotator D labels and the last item
    annotator E labels (within the items each of them labelled in the data;
    the sliders only remove labels). The right method keeps every annotator
    separate and uses Fleiss' kappa with a per-item number of raters n_i, P_a
    over items with at least two labels and P_e from all labels (pooled
    proportions). The wrong one merges D and E into one pseudo-annotator,
    keeping D's or E's label where both labelled an item (the toggle).

    Parameters
    ----------
    ratings : Ratings or table, optional
        Default: :func:`iaa_teach.datasets.partial_coverage`.
    first, second : str
        The two annotators with partial coverage (default ``"D"``, ``"E"``).

    Examples
    --------
    >>> ex = CoverageExplorer()
    >>> v = ex.values()
    >>> v["labels right"], v["labels merged"], v["items in P_a right"]
    ('38', '34', '8')
    """

    title = "Partial coverage: keep annotators apart, do not merge them"

    def __init__(
        self,
        ratings: Any = None,
        first: str = "D",
        second: str = "E",
        keep: str | None = None,
        font_size: str | None = None,
    ):
        super().__init__(font_size)
        self.data = with_ratings(ratings, datasets.partial_coverage)
        r = self.data
        self.d, self.e = r.rater_index(first), r.rater_index(second)
        if self.d == self.e:
            raise AgreementError(
                f"first and second must be two different annotators, got {first!r} and {second!r}"
            )
        if keep is not None and r.rater_index(keep) not in (self.d, self.e):
            raise AgreementError(f"keep must be {first!r} or {second!r}, got {keep!r}")
        d_items = np.flatnonzero(~r.missing[:, self.d])
        e_items = np.flatnonzero(~r.missing[:, self.e])
        if d_items.size == 0 or e_items.size == 0:
            raise AgreementError(f"annotators {first!r} and {second!r} must each label at least one item")
        self._d_last, self._e_first = int(d_items[-1]), int(e_items[0])
        s = label_style()
        items = list(r.items)
        d_span, e_span = (int(d_items[0]), self._d_last), (self._e_first, int(e_items[-1]))
        self.d_first = IntSlider(
            value=d_span[0],
            min=d_span[0],
            max=d_span[1],
            layout=slider_layout(),
            readout=[str(items[i]) for i in range(d_span[0], d_span[1] + 1)],
            description=f"first item {first} labels",
        )
        self.e_last = IntSlider(
            value=e_span[1],
            min=e_span[0],
            max=e_span[1],
            layout=slider_layout(),
            readout=[str(items[i]) for i in range(e_span[0], e_span[1] + 1)],
            description=f"last item {second} labels",
        )
        names = r.raters
        self.keep = w.ToggleButtons(
            options=[(f"keep {names[self.d]}'s label", self.d), (f"keep {names[self.e]}'s label", self.e)],
            value=self.d if keep is None else r.rater_index(keep),
            description=f"merge {names[self.d]} and {names[self.e]}:",
            style=s,
            tooltips=[
                f"where both labelled an item, the merged annotator keeps {names[x]}'s label"
                for x in (self.d, self.e)
            ],
        )
        self._finish(
            [controls_row(self.d_first, self.e_last), self.keep], watch=(self.d_first, self.e_last, self.keep)
        )

    def _window(self) -> Ratings:
        r = self.data
        rows = np.arange(r.n_items)
        outside = np.zeros(r.shape, dtype=bool)
        outside[:, self.d] = (rows < self.d_first.value) | (rows > self._d_last)
        outside[:, self.e] = (rows < self._e_first) | (rows > self.e_last.value)
        return r.with_missing(outside)

    def _compute(self) -> str:
        r = self._window()
        self.ratings = r
        self.merged = r.merge_raters(self.d, self.e, keep=self.keep.value)
        self._right, why_right = attempt(fleiss_kappa, r, chance="pooled")
        self._wrong, why_wrong = attempt(fleiss_kappa, self.merged, chance="pooled")
        names = r.raters
        merged_name = self.merged.raters[min(self.d, self.e)]
        k_right, k_wrong = r.ratings_per_item(), self.merged.ratings_per_item()
        p_right, p_wrong = (
            [None] * r.n_items if res is None else res.exact.p_i for res in (self._right, self._wrong)
        )
        columns = ("n_i right", "P_i right", "n_i merged", "P_i merged")
        per_item = [
            readout_row(
                str(item),
                [f"{x} item {item}" for x in columns],
                [
                    int(k_right[i]),
                    fmt(p_right[i], undefined="–"),
                    int(k_wrong[i]),
                    fmt(p_wrong[i], undefined="–"),
                ],
            )
            for i, item in enumerate(r.items[:MAX_ITEM_ROWS])
        ]
        summary = []
        single = [str(item) for item, k in zip(r.items, k_right) if k == 1]
        if len(single) > 10:
            single = single[:10] + [f"... ({len(single):,} items in all)"]
        for key, label, res, data in (
            ("right", f"{', '.join(names)} kept apart", self._right, r),
            ("merged", f"{merged_name} merged", self._wrong, self.merged),
        ):
            shown = (
                [data.n_ratings, "–"] + ["undefined"] * 4
                if res is None
                else [
                    res.n_ratings,
                    res.n_items_used,
                    fmt(res.exact.p_a),
                    fmt(res.exact.p_e),
                    fmt(res.exact.kappa),
                    band(res.kappa),
                ]
            )
            columns = ("labels", "items in P_a", "P_a", "P_e", "kappa", "band")
            summary.append(readout_row(label, [f"{x} {key}" for x in columns], shown))
        parts = [
            heading(symbols("Fleiss' kappa with per-item n_i (chance: pooled proportions over all labels)")),
            table(
                ["method", "labels (in P_e)", "items in P_a", "P_a", "P_e", "kappa", "band"],
                summary,
                chosen=lambda i: i == 0,
            ),
            heading(symbols("per item: its number of raters n_i and agreement P_i")),
            table(["item", "n_i", "P_i", "n_i merged", "P_i merged"], per_item),
        ]
        if r.n_items > MAX_ITEM_ROWS:
            parts.append(
                note(f"({r.n_items:,} items: the first {MAX_ITEM_ROWS} shown; every item counts above)")
            )
        if single:
            parts.append(
                note(
                    f"Item(s) {', '.join(single)} have a single label: no pair to compare, so they are "
                    f"left out of P_a, but their labels still count in P_e."
                )
            )
        parts += [note(f"undefined: {why}", "iaa-why") for why in (why_right, why_wrong) if why]
        parts.append(
            note(
                f"Merging throws away one label on every item both {names[self.d]} and "
                f"{names[self.e]} labelled, and which one it keeps changes the answer."
            )
        )
        return "".join(parts)

    def _draw(self):
        r = self.ratings
        fig, (ax,) = new_figure(3.2, 3.2, left=0.12, right=0.97, bottom=0.36, top=0.92)
        coverage_figure(ax, r)
        legend = ax.get_legend()
        if (
            legend is not None and r.n_items <= 20
        ):  # narrow: each item's n_i under its number, the legend below
            self._item_ticks(ax, r)
            ax.set_xlabel("item, and under it $n_i$ (its raters)")
            legend_below(ax, 0.5, -0.42, ncols=4, handlelength=1.2, columnspacing=0.8)
        return fig

    @staticmethod
    def _item_ticks(ax, r) -> None:
        per_item = r.ratings_per_item()
        ax.set_xticks(range(r.n_items), [f"{mpl_escape(item)}\n{n}" for item, n in zip(r.items, per_item)])

    def _redraw(self) -> None:
        r = self.ratings
        cells = r.n_items * r.n_raters
        if cells > 200:  # a coverage map, or too many cells: drawn anew (or taken from those kept)
            self._show(
                self.image,
                ("coverage", r.codes.tobytes(), r.shape, r.raters, r.items, r.categories),
                self._draw,
                alt=self._alt(r),
            )
            return
        # D's and E's cells change, and the n_i under the items: drawn over the rest, kept
        others = np.delete(r.codes, [self.d, self.e], axis=1)
        moving = (self.d, self.e)

        def make():
            fig = self._draw()
            for artist in plots.set_coverage(fig.axes[0], self.ratings, moving):
                artist.set_animated(True)
            return projector_ready(fig)

        def update(fig):
            ax = fig.axes[0]
            moved = plots.set_coverage(ax, self.ratings, moving)
            if self.ratings.n_items <= 20:
                self._item_ticks(ax, self.ratings)
            return moved

        frame = ("coverage", others.tobytes(), r.shape, r.raters, r.items, r.categories)
        self._show_live(frame, make, update, alt=self._alt(r))

    @staticmethod
    def _alt(r) -> str:
        """What the coverage chart shows: how many raters labelled each item, and the items only one did."""
        per_item = (r.codes >= 0).sum(axis=1)
        single = [str(item) for item, n in zip(r.items, per_item) if n < 2]
        text = (
            f"Figure: who labelled which of {r.n_items} items ({r.n_raters} raters): "
            f"n_i from {per_item.min()} to {per_item.max()} raters an item."
        )
        if single:
            more = [f"{len(single) - 10} more"] if len(single) > 10 else []
            items = "item " if len(single) == 1 else "items "
            text += " Labelled by fewer than two raters, so left out of P_a: "
            text += f"{items}{and_list(single[:10] + more)}."
        return text
