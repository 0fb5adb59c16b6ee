"""Explorer 1: edit the ratings table, watch every coefficient respond."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from typing import Any

import ipywidgets as w

from .. import _plots as plots
from .. import datasets
from .._validation import check_int, check_option
from ..course import alpha_verdict
from ..metrics import LEVELS, fleiss_kappa, krippendorff_alpha, pairwise_cohen
from ..ratings import AgreementError, Ratings, is_missing
from ._base import (
    Explorer,
    IntSlider,
    attempt,
    band,
    fmt,
    heading,
    label_style,
    legend_below,
    new_figure,
    note,
    numeric_categories,
    projector_ready,
    q,
    readout_row,
    slider_layout,
    table,
    values_in,
    with_ratings,
)

__all__ = ["TableExplorer", "COEFFICIENTS"]

#: What the readout can show: a lesson shows only what it has taught (lesson 01: ``("cohen",)``).
COEFFICIENTS = ("cohen", "fleiss", "alpha")
#: The coefficient each figure needs (a figure whose coefficient is not shown is not offered).
_FIGURE_NEEDS = {"items": "fleiss", "coincidences": "alpha"}


MISSING_LABEL = "missing"
#: How a missing rating shows in the grid: the dash the readouts use for "no value" (narrow enough for
#: the compact layout; each cell's tooltip says what it means).
MISSING_MARK = "–"
#: Beyond this many items (or pairs) the figure shows the grid's window (or a matrix).
MAX_BARS = 30
FIGURES = {
    "coefficients and bands": "bands",
    "per-item agreement P_i": "items",
    "pairwise kappa": "pairs",
    "coincidence matrix (alpha)": "coincidences",
}

#: The figures' names in the compact layout's "show" control.
_SHORT = {
    "coefficients and bands": "coefficients",
    "per-item agreement P_i": "P_i per item",
    "pairwise kappa": "pairwise kappa",
    "coincidence matrix (alpha)": "coincidences",
}
#: Characters a line of a title or legend entry holds in the narrow figure.
_WRAP = 34
#: The figure's size (inches): narrow and tall, to stand beside the grid in a small window.
FIGSIZE = (3.1, 3.4)
_MARGINS = {
    "bands": {"left": 0.19, "right": 0.69, "bottom": 0.22, "top": 0.9},
    "items": {"left": 0.22, "right": 0.96, "bottom": 0.42, "top": 0.74},
    "pairs": {"left": 0.22, "right": 0.96, "bottom": 0.45, "top": 0.86},
    "coincidences": {"left": 0.2, "right": 0.8, "bottom": 0.16, "top": 0.84},
}


def _section(title: str, header: list, rows: list, res: Any, why: str | None) -> str:
    """A heading, then the table of ``res`` and its reason (if any), or why ``res`` is undefined (None)."""
    if res is None:
        return heading(title) + note(f"undefined: {why}", "iaa-why")
    return heading(title) + table(header, rows) + (note(res.reason, "iaa-why") if res.reason else "")


class TableExplorer(Explorer):
    """Edit the ratings cell by cell; every coefficient and the figure follow.

    A grid of dropdowns, one per item and rater (a category or
    ``"missing"``). On every change: P_o, P_e and kappa for every pair of
    raters, Fleiss' kappa with P_i for every item (both chance rules when
    ratings are missing), Krippendorff's alpha at the chosen level, each with
    its Landis-Koch band, and the chosen figure. Undefined values are shown
    as ``undefined`` with the reason. "reset" restores the table it started
    from. Tables longer than ``page_size`` items show a window of rows and a
    "first item" slider to move it.

    Parameters
    ----------
    ratings : Ratings or table, optional
        The starting table (default: the sentiment example). Never modified.
    level : str
        Initial level of measurement for alpha.
    page_size : int
        Rows of dropdowns shown at once.
    figure : str
        The figure shown first, one of :data:`FIGURES`.
    font_size : str
        CSS font size of controls and readouts.
    coefficients : sequence of str
        Which of :data:`COEFFICIENTS` the readout, the figures and the grid's
        P_i column show (all by default; lesson 01, which has taught only
        Cohen's kappa, shows ``("cohen",)``).

    Examples
    --------
    >>> ex = TableExplorer()
    >>> ex.values()["Cohen A-B kappa"]
    '0.492'
    >>> ex.set_cell(1, "B", "N")          # item 1, rater B: P -> N
    >>> ex.values()["Cohen A-B kappa"]
    '0.344'
    """

    title = "Edit the table: every coefficient responds"

    def __init__(
        self,
        ratings: Any = None,
        level: str = "nominal",
        page_size: int = 10,
        figure: str = "coefficients and bands",
        font_size: str | None = None,
        coefficients: Any = COEFFICIENTS,
    ):
        super().__init__(font_size)
        coefficients = (coefficients,) if isinstance(coefficients, str) else tuple(coefficients)
        if not coefficients:
            raise AgreementError(f"coefficients: name at least one of {COEFFICIENTS}")
        self.shown = tuple(check_option("coefficients", c, COEFFICIENTS) for c in coefficients)
        figures = [
            name for name, kind in FIGURES.items() if _FIGURE_NEEDS.get(kind, self.shown[0]) in self.shown
        ]
        self.initial = with_ratings(ratings, datasets.sentiment)
        r = self.initial
        self._codes = r.codes  # a copy the grid edits: category positions, Ratings.MISSING where missing
        self.page_size = min(check_int("page_size", page_size, 1, 100), r.n_items)
        self._first = 0
        options = [(str(c), i) for i, c in enumerate(r.categories)] + [(MISSING_MARK, Ratings.MISSING)]

        levels = [lv for lv in LEVELS if lv in ("nominal", "ordinal") or numeric_categories(r.categories)]
        if level not in levels:
            raise AgreementError(f"level must be one of {levels} for these categories, got {level!r}")
        self.level = w.Dropdown(
            options=levels,
            value=level,
            description="alpha",
            style=label_style(),
            tooltip="level of measurement for Krippendorff's alpha",
        )
        self.figure = w.Dropdown(
            options=figures,
            value=check_option("figure", figure, figures),
            description="figure",
            style=label_style(),
        )
        self.reset_button = w.Button(
            description="reset",
            tooltip="restore the starting table",
            icon="undo",
            layout=w.Layout(width="auto"),
        )

        cell = w.Layout(width="3.4em")
        narrow = w.Layout(width="2.6em")
        head = [w.Label("item", layout=narrow), *(w.Label(str(text), layout=cell) for text in r.raters)]
        head.append(w.Label("P_i", layout=w.Layout(width="4em")))
        self.cells: list[list[w.Dropdown]] = []
        for row in range(self.page_size):
            dds = []
            for j, rater in enumerate(r.raters):
                dd = w.Dropdown(
                    options=options,
                    value=int(self._codes[row, j]),
                    description=str(rater),
                    style={"description_width": "0px"},
                    layout=cell,
                    tooltip=f"item {r.items[row]}, rater {rater} ({MISSING_MARK}: missing)",
                )
                dd.add_class(f"iaa-cell-{row}-{j}")  # grid row (of the window) and rater column
                dd.observe(self._cell_changed(row, j), names="value")
                dds.append(dd)
            self.cells.append(dds)
        self.item_labels = [w.Label(str(r.items[row]), layout=narrow) for row in range(self.page_size)]
        self.p_i_labels = [w.HTML(layout=w.Layout(width="4em")) for _ in range(self.page_size)]
        rows = [head] + [
            [item, *dds, p_i] for item, dds, p_i in zip(self.item_labels, self.cells, self.p_i_labels)
        ]
        if "fleiss" not in self.shown:  # P_i is Fleiss' per-item agreement
            for label in [head[-1], *self.p_i_labels]:
                label.layout = w.Layout(width="4em", display="none")
        if "alpha" not in self.shown:
            self.level.layout.display = "none"
        self.grid = w.VBox([w.HBox(row, layout=w.Layout(align_items="center")) for row in rows])
        self.grid.add_class("iaa-grid")
        self.figure.add_class("iaa-wide-only")  # the compact layout's "show" chooses the figure
        for label in [head[-1], *self.p_i_labels]:
            label.add_class("iaa-wide-only")  # the compact layout shows P_i in its figure and its numbers
        level_row = w.HBox([self.level, self.reset_button], layout=w.Layout(align_items="center"))
        controls = [self.grid, level_row, self.figure]
        self.first_item = None
        if r.n_items > self.page_size:
            self.first_item = IntSlider(
                value=1,
                min=1,
                max=r.n_items - self.page_size + 1,
                description="first item shown",
                layout=slider_layout(),
            )
            self.first_item.observe(self._page_changed, names="value")
            controls.insert(1, self.first_item)
        self.reset_button.on_click(lambda _button: self.reset())
        self._figures = figures
        self._finish(controls, watch=(self.level, self.figure), views=[_SHORT[f] for f in figures])
        self.figure.observe(self._figure_chosen, names="value")

    def _view_chosen(self, value: str) -> str:
        """The compact layout's "show" offers every figure and the numbers: a figure chosen there is
        the figure chosen; the one image shows it."""
        if value != "numbers":
            self.figure.value = self._figures[int(value)]
            return "0"
        return value

    def _figure_chosen(self, change: dict) -> None:
        if self.show.value != "numbers":
            self.show.value = str(self._figures.index(change["new"]))

    # -------------------------------------------------------------- data
    @property
    def ratings(self) -> Ratings:
        """The current (edited) table."""
        r = self.initial
        return Ratings.from_codes(self._codes, r.categories, r.raters, r.items)

    def set_cell(self, item: Any, rater: Any, label: Any) -> None:
        """Set one cell (item name, rater name or index, category or None for missing).

        The same as choosing in the grid; scrolls the grid to the item if needed.
        """
        r = self.initial
        try:
            known = item in r.items
        except TypeError:  # an unhashable item such as a list compares unequal to every item
            known = False
        if not known:
            raise AgreementError(f"there is no item {item!r}; the items are {list(r.items)[:10]}...")
        i = r.items.index(item)
        j = r.rater_index(rater)
        if isinstance(label, str) and label in (MISSING_LABEL, MISSING_MARK) or is_missing(label):
            code = Ratings.MISSING
        else:
            code = r.category_index(label)
        if not self._first <= i < self._first + self.page_size:
            self.first_item.value = min(i, r.n_items - self.page_size) + 1
        self.cells[i - self._first][j].value = code

    def reset(self) -> None:
        """Back to the starting table."""
        self._codes = self.initial.codes
        self._show_rows()
        self.update()

    def _cell_changed(self, row: int, j: int):
        def handler(change: dict) -> None:
            if self._busy:
                return
            self._codes[self._first + row, j] = change["new"]
            self.update()

        return handler

    def _page_changed(self, change: dict) -> None:
        self._first = int(change["new"]) - 1
        self._show_rows()
        if FIGURES[self.figure.value] == "items":
            self.update()  # the figure shows the window's items
        else:
            self._show_p_i()

    def _show_rows(self) -> None:
        """Put the current window of the table into the dropdowns (without recomputing)."""
        self._busy = True
        try:
            for row, dds in enumerate(self.cells):
                i = self._first + row
                self.item_labels[row].value = str(self.initial.items[i])
                for j, dd in enumerate(dds):
                    dd.value = int(self._codes[i, j])
                    item, rater = self.initial.items[i], self.initial.raters[j]
                    dd.tooltip = f"item {item}, rater {rater} ({MISSING_MARK}: missing)"
        finally:
            self._busy = False

    def _show_p_i(self) -> None:
        p_i = self._fleiss.exact.p_i if self._fleiss is not None else (None,) * self.initial.n_items
        for row, label in enumerate(self.p_i_labels):
            i = self._first + row
            label.value = q(f"P_i item {self.initial.items[i]}", fmt(p_i[i], undefined="–"))

    def values(self) -> dict[str, str]:
        """The readout's numbers by key, with P_i of the items shown in the grid."""
        out = super().values()
        for label in self.p_i_labels:
            out.update(values_in(label.value))
        return out

    # ----------------------------------------------------------- compute
    def _compute(self) -> str:
        r = self.ratings
        cohen = self._cohen_html(r)  # the pairs feed the figures even when the readout leaves them out
        parts = [cohen] if "cohen" in self.shown else []
        self._fleiss, why = attempt(fleiss_kappa, r, chance="pooled")
        self._fleiss_mean = None
        if r.missing.any() and self._fleiss is not None:
            self._fleiss_mean = fleiss_kappa(r, chance="item_mean")
        rows = [
            readout_row(
                f"chance: {name}",
                [f"Fleiss {name} {x}" for x in ("P_a", "P_e", "kappa", "band")],
                [fmt(res.exact.p_a), fmt(res.exact.p_e), fmt(res.exact.kappa), band(res.kappa)],
            )
            for name, res in (("pooled", self._fleiss), ("item mean", self._fleiss_mean))
            if res is not None
        ]
        if "fleiss" in self.shown:
            parts.append(
                _section(
                    "Fleiss' kappa (per-item number of raters)",
                    ["", "P_a", "P_e", "kappa", "band"],
                    rows,
                    self._fleiss,
                    why,
                )
            )
            self._show_p_i()
        else:
            self._fleiss = self._fleiss_mean = None

        level = self.level.value
        self._alpha, why = (
            attempt(krippendorff_alpha, r, level=level) if "alpha" in self.shown else (None, "")
        )
        a = self._alpha
        rows = (
            []
            if a is None
            else [
                readout_row(
                    f"n = {a.n} values",
                    ["alpha D_o", "alpha D_e", "alpha", "alpha verdict"],
                    [fmt(a.exact.d_o), fmt(a.exact.d_e), fmt(a.exact.alpha), alpha_verdict(a.alpha)],
                )
            ]
        )
        if "alpha" in self.shown:
            parts.append(
                _section(
                    f"Krippendorff's alpha ({level})",
                    ["", "D_o", "D_e", "alpha", "Krippendorff's guidance"],
                    rows,
                    a,
                    why,
                )
            )
        missing = int(r.missing.sum())
        parts.append(
            note(f"{r.n_items} items x {r.n_raters} raters, {r.n_ratings} ratings, {missing} missing")
        )
        return "".join(parts)

    def _cohen_html(self, r: Ratings) -> str:
        self._pairwise = pairwise_cohen(r)  # a pair that shares no item is NaN with its reason
        rows, reasons = [], []
        for res in self._pairwise.results:
            pair = f"{res.rater_a}-{res.rater_b}"
            rows.append(
                readout_row(
                    pair,
                    [f"Cohen {pair} {x}" for x in ("P_o", "P_e", "kappa", "band")],
                    [fmt(res.exact.p_o), fmt(res.exact.p_e), fmt(res.exact.kappa), band(res.kappa)],
                )
            )
            if res.reason:
                reasons.append(f"{pair}: {res.reason}")
        html = heading("Cohen's kappa, every pair") + table(["pair", "P_o", "P_e", "kappa", "band"], rows)
        return html + "".join(note(x, "iaa-why") for x in reasons)

    # -------------------------------------------------------------- draw
    def _redraw(self) -> None:
        """Each figure redraws only its moving parts (the bars and their numbers, the cells of the
        coincidence matrix) over a kept frame (:meth:`_show_bands`, :meth:`_live`); the kappa matrix
        of many raters is drawn anew, or taken from the figures kept by what they show (the table's
        labels, the alpha level, the grid's window)."""
        kind = FIGURES[self.figure.value]
        if kind == "bands":
            self._show_bands(*self._bands(), *FIGSIZE, **_MARGINS["bands"])
        elif kind == "items" and self._fleiss is not None:  # the bars move over a kept frame
            fleiss, items = self._window_p_i()
            self._live(
                kind,
                tuple(items),
                lambda ax: plots.item_agreement_bars(fleiss, items=items, ax=ax),
                lambda ax: plots.set_item_agreement(ax, fleiss),
            )
        elif kind == "pairs" and len(self._pairwise.pairs) <= MAX_BARS:  # the same: bars over a kept frame
            pairs, reference = self._pairwise, self._fleiss
            self._live(
                kind,
                (pairs.pairs, reference is None, plots.pairwise_floor(pairs, reference)),
                lambda ax: plots.pairwise_bars(pairs, reference=reference, ax=ax),
                lambda ax: plots.set_pairwise_values(ax, pairs, reference),
            )
        elif kind == "coincidences" and self._alpha is not None:  # the same: cells over a kept frame
            alpha = self._alpha
            self._live(
                kind,
                alpha.categories,
                lambda ax: plots.coincidence_heatmap(alpha, ax=ax),
                lambda ax: plots.set_coincidences(ax, alpha),
            )
        else:  # drawn anew, unless this table was shown before (a cell changed and changed back)
            key = (self.figure.value, self.level.value, self._first, self._codes.tobytes())
            self._show(self.image, key, self._draw)

    def _live(self, kind: str, frame: Any, draw, set_values) -> None:
        """Show the figure ``kind`` as a kept frame (axes, names, legend: ``draw(ax)``, once per ``frame``)
        with its moving parts set by ``set_values(ax)`` drawn over it (:meth:`Explorer._show_live`)."""

        def make():
            fig, (ax,) = new_figure(*FIGSIZE, **_MARGINS[kind])
            draw(ax)
            _narrow(ax)
            for artist in update(fig):
                artist.set_animated(True)
            return projector_ready(fig)

        def update(fig):
            ax = fig.axes[0]
            moved = set_values(ax)
            _wrap_title(ax)  # the title and the legend's texts that carry a value, as _narrow wraps them
            legend = ax.get_legend()
            for text in legend.get_texts() if legend is not None else ():
                text.set_text(textwrap.fill(" ".join(text.get_text().split()), _WRAP))
            return moved

        self._show_live((kind, frame), make, update, alt=None)

    def _window_p_i(self) -> tuple:
        """Fleiss' result with the P_i of the items in the grid's window (all items up to MAX_BARS), and
        their names."""
        fleiss, items = self._fleiss, self.initial.items
        if self.initial.n_items > MAX_BARS:  # the items in the grid's window, over the mean of all items
            window = slice(self._first, self._first + self.page_size)
            fleiss, items = replace(fleiss, p_i=fleiss.p_i[window]), items[window]
        return fleiss, items

    def _bands(self) -> tuple[dict, str]:
        """The bands figure's bars (name -> coefficient) and title."""
        pairs = self._pairwise  # set by _compute: every table has two raters or more, so at least one pair
        coefficients = (
            {f"{a}-{b}": k for (a, b), k in zip(pairs.pairs, pairs.kappas)}
            if len(pairs.pairs) <= 6
            else {f"Cohen, mean\nof {len(pairs.pairs)} pairs": pairs.mean_kappa}
        )
        if self._fleiss is not None:
            coefficients["Fleiss"] = self._fleiss.kappa
        if self._alpha is not None:
            coefficients["alpha"] = self._alpha.alpha
        if "cohen" not in self.shown:
            coefficients = {k: v for k, v in coefficients.items() if k in ("Fleiss", "alpha")}
        names = {"cohen": "Cohen (pairs)", "fleiss": "Fleiss", "alpha": "alpha"}
        return coefficients, ", ".join(names[c] for c in COEFFICIENTS if c in self.shown)

    def _draw(self):
        kind = FIGURES[self.figure.value]
        fig, (ax,) = new_figure(*FIGSIZE, **_MARGINS[kind])
        if kind == "items" and self._fleiss is not None:
            fleiss, items = self._window_p_i()
            plots.item_agreement_bars(fleiss, items=items, ax=ax)
        elif kind == "pairs":
            if len(self._pairwise.pairs) > MAX_BARS:
                plots.kappa_matrix(self._pairwise, ax=ax)
            else:
                plots.pairwise_bars(self._pairwise, reference=self._fleiss, ax=ax)
        elif kind == "coincidences" and self._alpha is not None:
            plots.coincidence_heatmap(self._alpha, ax=ax)
        else:  # the bands (as _redraw shows them) when the figure chosen has nothing to show
            coefficients, title = self._bands()
            plots.coefficients_with_bands(coefficients, title=title, ax=ax)
        _narrow(ax)
        return fig


def _wrap_title(ax) -> None:
    """The title wrapped to the narrow figure's width."""
    title = ax.get_title()
    if title:
        ax.set_title("\n".join(textwrap.fill(line, _WRAP) for line in title.split("\n")), fontsize=10)


def _narrow(ax) -> None:
    """Fit a figure drawn for a wider page into the narrow one here: the title wrapped to the
    figure's width, the legend under the axes in one column, its entries wrapped."""
    _wrap_title(ax)
    legend_below(ax, 0.42, -0.38, wrap=_WRAP, borderaxespad=0, handlelength=1.5)
