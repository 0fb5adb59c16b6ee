"""What every explorer shares: layout and style, number formatting, figure rendering.

An explorer owns a small tree of ipywidgets (``explorer.widget``). Its
callbacks recompute with the :mod:`iaa_teach` metrics and then only set trait
values: the readout ``HTML.value`` and the figure ``Image.value`` (PNG bytes
drawn with the Agg canvas at a fixed dpi, no pyplot state). So an explorer
runs headless in pytest exactly as it runs in JupyterLab.

Figures are made for projectors and high-DPI screens: shown at their true
size (:data:`CSS_DPI` CSS pixels per inch) from a PNG with :data:`PIXEL_RATIO`
times as many pixels, with no text smaller than :data:`MIN_FONT_PT` points
(12 CSS px at 100 % zoom). Every figure carries a short text alternative
saying what it shows, as its ``alt`` text (:attr:`Explorer.figure_alt`); sliders
and figures are the accessible controls of :mod:`iaa_teach.widgets._controls`.

Text from the data (rater names, labels, item names, reasons) is escaped in
every readout: :func:`table` escapes each cell that is not already HTML made by
:func:`q`, :func:`heading` or :func:`note`.

Every number in a readout is a result's exact value rounded half up by
:func:`iaa_teach.fmt`, wrapped as ``<span data-q="KEY">0.492</span>``:
tests (and the browser test) find a value by its key, and
:meth:`Explorer.readout_text` gives the same numbers as plain text.
"""

from __future__ import annotations

import base64
import html
import math
import re
import struct
import textwrap
import time
import zlib
from typing import Any, Callable, Iterable, Sequence

import ipywidgets as w
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from .. import _plots as plots
from .._markup import attr_escape, with_symbols
from .._validation import check_number, check_text
from ..metrics import interpret
from ..ratings import AgreementError, Ratings
from ..rounding import fmt  # noqa: F401  (the explorers format every number with it)
from ._controls import FloatSlider, IntSlider, Picture  # noqa: F401  (the explorers' controls)

#: Font size of labels, controls and readouts: readable on a projector.
FONT_SIZE = "17px"
#: CSS pixels per figure inch: a figure is shown at its true size (1 in = 96 CSS px),
#: so a label of p points is p * 4/3 CSS px.
CSS_DPI = 96
#: Image pixels per CSS pixel: sharp on high-DPI screens and when zoomed to 200 %.
PIXEL_RATIO = 2
#: Resolution of the figure PNGs.
WIDGET_DPI = CSS_DPI * PIXEL_RATIO
#: Smallest text on a figure, in points: 9 pt = 12 CSS px at 100 % zoom.
MIN_FONT_PT = 9.0

_CSS = """<style>
.iaa-explorer, .iaa-explorer .widget-label, .iaa-explorer .widget-label-basic,
.iaa-explorer select, .iaa-explorer button, .iaa-explorer .widget-readout,
.iaa-explorer .widget-html-content, .iaa-explorer input {{ font-size: {size}; }}
.iaa-explorer .widget-dropdown select {{ height: auto; min-height: 1.8em; }}
.iaa-explorer .widget-label, .iaa-explorer .widget-inline-hbox .widget-label {{ line-height: 1.6em; }}
.iaa-explorer table.iaa-readout {{ border-collapse: collapse; margin: 0.2em 0 0.6em 0; }}
.iaa-explorer table.iaa-readout th, .iaa-explorer table.iaa-readout td {{
    padding: 0.15em 0.6em; border-bottom: 1px solid #ccc; text-align: right; }}
.iaa-explorer table.iaa-readout th:first-child, .iaa-explorer table.iaa-readout td:first-child {{
    text-align: left; }}
.iaa-explorer table.iaa-readout thead th {{ vertical-align: bottom; }}
.iaa-explorer table.iaa-readout tbody th {{ font-weight: normal; }}
.iaa-explorer table.iaa-readout.iaa-gaps tbody th {{ font-weight: bold; }}
.iaa-explorer table.iaa-readout sub {{ line-height: 0; }}
.iaa-explorer .iaa-note {{ color: #555; }}
.iaa-explorer .iaa-below .iaa-note, .iaa-explorer .iaa-below .iaa-why {{ max-width: 46em; }}
.iaa-explorer .iaa-why {{ color: #8a3b00; }}
.iaa-explorer table.iaa-readout tr.iaa-chosen > * {{ font-weight: bold; background: #eef4fb; }}
{projector}
{wrap}
</style>"""

#: The layout. On a wide screen: the controls in a column beside the figures, the readout under
#: the figures. In a narrow cell or a short window (the compact layout: the explorer narrower than
#: :data:`COMPACT_WIDTH`, or the window shorter than :data:`COMPACT_HEIGHT`, as at 1280 x 720 and
#: 150 % zoom with the side panel open, where a notebook cell has about 520 x 360 CSS px) the whole
#: explorer fits the window: a one-line title, the controls in a column of 14 px text (each slider's
#: name above its track), beside one view at a time, chosen with the "show" control: a figure (no
#: taller than the window less the title and JupyterLab's bars) or the numbers. The output's prompt
#: ("[3]:") is hidden there, to give the figure its 70 px, with the output's "collapse" overlay, which would
#: lie over the controls (the cell's collapser bar still folds the output).
COMPACT_WIDTH = 760
COMPACT_HEIGHT = 560
_COMPACT_RULES = """
  .iaa-explorer .iaa-top { flex-wrap: nowrap; gap: 0 0.7em; }
  .iaa-explorer .iaa-controls { flex: 0 0 auto; max-width: 46%; }
  .iaa-explorer .iaa-pane { flex: 1 1 0; }
  .iaa-views .iaa-show { display: flex; }
  .iaa-explorer .iaa-wide-only { display: none; }
  .iaa-explorer .iaa-grid .widget-dropdown, .iaa-explorer .iaa-grid .widget-label { height: 22px;
      margin-top: 1px; margin-bottom: 1px; line-height: 22px; }
  .iaa-explorer .iaa-grid select { height: 22px; min-height: 0; padding-top: 0; padding-bottom: 0; }
  .iaa-explorer .iaa-title h3 { font-size: 1em; margin: 0 0 0.25em 0; }
  .iaa-explorer, .iaa-explorer .widget-label, .iaa-explorer .widget-label-basic,
  .iaa-explorer select, .iaa-explorer button, .iaa-explorer .widget-readout,
  .iaa-explorer .widget-html-content, .iaa-explorer input { font-size: min({size}, 14px); }
  .iaa-explorer .iaa-picture { max-height: calc(100vh - 160px); }
  .iaa-views:not(.iaa-show-0) .iaa-pic-0, .iaa-views:not(.iaa-show-1) .iaa-pic-1,
  .iaa-views:not(.iaa-show-2) .iaa-pic-2, .iaa-views:not(.iaa-show-3) .iaa-pic-3,
  .iaa-views:not(.iaa-show-numbers) .iaa-numbers { display: none; }
  .iaa-views .iaa-numbers { max-height: calc(100vh - 195px); overflow-y: auto; }
  .iaa-explorer.iaa-show-numbers .iaa-top { flex-direction: column; }
  .iaa-explorer.iaa-show-numbers .iaa-controls { max-width: 100%; }
  .iaa-explorer.iaa-show-numbers .iaa-controls > :not(.iaa-show) { display: none; }
  .iaa-explorer.iaa-show-numbers .iaa-pane { flex: 0 0 auto; width: 100%; }
  .iaa-explorer table.iaa-readout thead th { white-space: normal; }
  .iaa-explorer table.iaa-readout { font-size: 0.9em; }
  .iaa-explorer table.iaa-readout th, .iaa-explorer table.iaa-readout td { padding: 0.1em 0.25em; }
  .iaa-explorer .iaa-slider input[type=range] { min-width: 8em; height: 16px; }
  .iaa-explorer .widget-dropdown select { min-height: 1.6em; }
  .iaa-explorer .widget-toggle-buttons .widget-toggle-button { height: 1.7em; line-height: 1.5em;
      padding: 0 0.5em; }
  .iaa-explorer .jupyter-button { height: 1.7em; line-height: 1.5em; }
"""
PROJECTOR_CSS = (
    """.iaa-explorer { container: iaa-explorer / inline-size; }
.iaa-explorer .iaa-top { flex-flow: row wrap; gap: 0.4em 1.5em; }
.iaa-explorer .iaa-controls { flex: 0 1 auto; min-width: 0; max-width: 100%; }
.iaa-explorer .iaa-controls .iaa-row { flex-flow: column nowrap !important; align-items: stretch !important; }
.iaa-explorer.iaa-stacked .iaa-top { flex-direction: column; flex-wrap: nowrap; }
.iaa-explorer.iaa-stacked .iaa-controls { max-width: 100%; }
.iaa-explorer.iaa-stacked .iaa-controls .iaa-row { flex-flow: row wrap !important;
    align-items: center !important; }
.iaa-explorer .iaa-controls .iaa-slider { width: auto !important; max-width: none !important;
    margin: 0 0 0.2em 0 !important; }
.iaa-explorer .iaa-controls .widget-toggle-buttons { flex-wrap: wrap; height: auto; }
.iaa-explorer .iaa-controls .widget-dropdown, .iaa-explorer .iaa-controls .widget-text { width: auto; }
.iaa-explorer .iaa-controls .widget-dropdown select { flex: 0 1 auto; width: auto; max-width: 100%; }
.iaa-explorer .iaa-controls .widget-hbox { gap: 0 0.5em; }
.iaa-explorer .iaa-controls .widget-dropdown.iaa-label-above { flex-direction: column; align-items: stretch;
    height: auto; }
.iaa-explorer .iaa-controls .iaa-label-above > .widget-label { text-align: left; width: auto; }
.iaa-explorer .widget-inline-hbox { margin-top: 1px; margin-bottom: 1px; }
.iaa-explorer .iaa-slider { align-items: flex-end; gap: 0.4em; }
.iaa-explorer .iaa-slider label { flex-direction: column; align-items: stretch; gap: 0; line-height: 1.25;
    flex: 1 1 auto; }
.iaa-explorer .iaa-slider input[type=range] { width: auto; min-width: 10em; flex: 0 0 auto; margin: 1px 0; }
.iaa-explorer .iaa-slider output { min-width: 2.6em; text-align: right; line-height: 1.5; }
.iaa-explorer .iaa-pane { flex: 1 1 24em; min-width: 0; max-width: 100%; }
.iaa-explorer .iaa-figures { min-width: 0; max-width: 100%; gap: 0.5em; }
.iaa-explorer .iaa-numbers { min-width: 0; max-width: 100%; margin: 0; }
.iaa-explorer .iaa-show { display: none; }
.iaa-explorer .iaa-picture { max-height: max(12em, calc(100vh - 170px)); width: auto; height: auto; }
.iaa-explorer .widget-toggle-buttons .widget-toggle-button { width: auto; min-width: 0;
    padding: 0 0.7em; margin: 0 2px 2px 0; overflow: visible; }
.iaa-explorer .widget-html-content { overflow-x: auto; }
.iaa-explorer .iaa-grid .widget-html-content { white-space: nowrap; }
.iaa-explorer table.iaa-readout th, .iaa-explorer table.iaa-readout td { white-space: nowrap;
    padding-left: 0.4em; padding-right: 0.4em; }
.iaa-explorer table.iaa-readout thead th { white-space: normal; }
.iaa-explorer .widget-toggle-button.mod-active, .iaa-explorer .jupyter-button.mod-active {
    background: #0072b2; color: #fff; font-weight: bold; box-shadow: inset 0 0 0 2px #003a5c; }
.iaa-explorer .widget-toggle-button, .iaa-explorer .jupyter-button { border: 1px solid #888; }
.iaa-explorer table.iaa-readout, .iaa-explorer .widget-html-content { line-height: 1.35; }
@container iaa-explorer (max-width: """
    + str(COMPACT_WIDTH)
    + "px) {"
    + _COMPACT_RULES
    + "}\n@media (max-height: "
    + str(COMPACT_HEIGHT)
    + "px) {"
    + _COMPACT_RULES
    + """}
@media (max-width: 1000px), (max-height: """
    + str(COMPACT_HEIGHT)
    + """px) {
  .jp-OutputArea-child:has(.iaa-explorer) > .jp-OutputPrompt { display: none; }
  .jp-OutputArea:has(.iaa-explorer) > .jp-OutputArea-promptOverlay { display: none; }
}"""
)

#: Text in readouts and feedback wraps between words, never inside one.
WRAP_CSS = """.iaa-explorer .widget-html-content, .iaa-quiz .widget-html-content { white-space: normal; }
.iaa-explorer .widget-html-content, .iaa-quiz .widget-html-content,
.iaa-explorer .widget-html-content *, .iaa-quiz .widget-html-content * {
    word-break: normal; overflow-wrap: break-word; hyphens: manual; }"""

_PNG_CACHE_SIZE = 32  # figures kept per explorer, keyed by what they show

_Q_RE = re.compile(r'data-q="([^"]+)">([^<]*)<')


_FONT_SIZE = re.compile(r"\d{1,3}(\.\d{1,3})?(px|pt|em|rem|%)")


class Html(str):
    """A string that is already HTML (made here, its text escaped): :func:`table` leaves it as it is."""


def check_font_size(value: Any) -> str:
    """A CSS font size such as ``"17px"`` or ``"1.2em"`` (it goes into a style sheet, so nothing else)."""
    check_text("font_size", value)
    if not _FONT_SIZE.fullmatch(value):
        raise AgreementError(f"font_size must be a CSS size such as '17px', '14pt' or '1.2em', got {value!r}")
    return value


def band(value: Any) -> str:
    """Landis-Koch band of a coefficient (``undefined`` for NaN or None; below -1, as Fleiss' can be,
    poor)."""
    v = float("nan") if value is None else float(value)
    return interpret(v if math.isnan(v) else max(-1.0, v))


def q(key: str, text: Any) -> Html:
    """A readout value, findable by ``key`` in the HTML: ``<span data-q=key>text</span>``."""
    return Html(f'<span class="iaa-q" data-q="{attr_escape(key)}">{attr_escape(text)}</span>')


def values_in(html_text: str) -> dict[str, str]:
    """Every ``data-q`` key and its text in a readout's HTML."""
    return {html.unescape(key): html.unescape(text) for key, text in _Q_RE.findall(html_text)}


def cell(value: Any) -> str:
    """A readout cell: :class:`Html` as it is, anything else escaped as text."""
    return value if isinstance(value, Html) else attr_escape(value)


def symbols(text: str) -> Html:
    """Text the package wrote, its symbols' names (``P_e``, ``n_i``) written as the course's notation
    writes them (``P<sub>e</sub>``, :data:`iaa_teach.course.NOTATION`), the rest escaped."""
    return Html(with_symbols(text).html(math="text"))


def table(
    header: Sequence[Any], rows: Iterable[Sequence[Any]], chosen: Callable[[int], bool] | None = None
) -> Html:
    """An HTML readout table; text cells are escaped, :class:`Html` cells (from :func:`q`) kept. The column
    headings are the package's own words: their symbols are written in the course's notation
    (:func:`symbols`).

    Every readout's first column names its rows (a pair, a level, a quantity): row headers
    (``<th scope="row">``), under column headings (``<th scope="col">`` in a ``<thead>``), so a screen
    reader reads each number with its row's and column's names."""
    head = "".join(f'<th scope="col">{h if isinstance(h, Html) else symbols(str(h))}</th>' for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = ' class="iaa-chosen"' if chosen is not None and chosen(i) else ""
        cells = "".join(
            f'<th scope="row">{cell(c)}</th>' if j == 0 else f"<td>{cell(c)}</td>" for j, c in enumerate(row)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return Html(
        f'<table class="iaa-readout"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    )


def readout_row(label: Any, keys: Sequence[str], values: Sequence[Any] | None) -> list:
    """A readout table row: ``label``, then each value findable by its key (every one ``undefined`` for
    None)."""
    return [label] + [q(key, value) for key, value in zip(keys, values or ["undefined"] * len(keys))]


def note(text: str, cls: str = "iaa-note") -> Html:
    return Html(f'<div class="{cls}">{attr_escape(text)}</div>')


def heading(text: str) -> Html:
    """A readout's heading: ``text`` escaped (:class:`Html`, as from :func:`symbols`, kept)."""
    return Html(f"<b>{cell(text)}</b>")


def new_figure(
    width: float, height: float, ncols: int = 1, widths: Sequence[float] | None = None, **margins: float
) -> tuple[Figure, list]:
    """A matplotlib Figure on an Agg canvas (no pyplot), and its ``ncols`` axes side by side.

    Margins are fixed (``left``, ``right``, ``bottom``, ``top``, ``wspace`` as
    in ``Figure.subplots_adjust``) rather than found by a layout engine: the
    constrained layout measures every text twice and doubles the drawing time.
    """
    fig = Figure(figsize=(width, height), dpi=WIDGET_DPI)
    FigureCanvasAgg(fig)
    spec = {"left": 0.1, "right": 0.95, "bottom": 0.15, "top": 0.88, "wspace": 0.35, **margins}
    grid = fig.add_gridspec(1, ncols, width_ratios=widths, **spec)
    axes = [fig.add_subplot(grid[0, i]) for i in range(ncols)]
    return fig, axes


def coverage_figure(ax, ratings: Ratings) -> None:
    """The coverage chart for a small table (a labelled cell each), a coverage map beyond."""
    cells = ratings.n_items * ratings.n_raters
    if cells <= 200:
        plots.coverage_chart(ratings, ax=ax)
    elif cells <= plots.MAX_CELLS["map"]:
        plots.coverage_map(ratings, ax=ax)
    else:
        ax.set_axis_off()
        ax.text(
            0.5,
            0.5,
            f"{ratings.n_items:,} items x {ratings.n_raters} raters: too many cells to draw",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )


def legend_below(ax, x: float, y: float, ncols: int = 1, wrap: int | None = None, **style: Any) -> None:
    """Move ``ax``'s legend under the axes (anchored at ``x``, ``y`` in axes fractions), in ``ncols``
    columns, each entry wrapped at ``wrap`` characters: a figure drawn for a wide page, made narrow."""
    legend = ax.get_legend()
    if legend is None:
        return
    labels = [t.get_text() for t in legend.get_texts()]
    handles = legend.legend_handles
    legend.remove()
    ax.legend(
        handles,
        [textwrap.fill(label, wrap) for label in labels] if wrap else labels,
        loc="upper center",
        bbox_to_anchor=(x, y),
        ncols=ncols,
        frameon=False,
        fontsize=MIN_FONT_PT,
        **style,
    )


def fit_inside(fig: Figure, pad: float = 0.04) -> None:
    """Move the fixed margins of ``fig``'s axes (those of a grid, :func:`new_figure`) so that every label
    and title lies within the figure's width, ``pad`` inches from its edges: a frame laid out for one
    axis (0 to 1) keeps its y label in view when the axis goes below 0 and its tick labels widen."""
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    width = fig.get_figwidth()
    left, right = max(0.0, pad - box.x0) / width, max(0.0, box.x1 - (width - pad)) / width
    if not (left or right):
        return
    grids = {id(g): g for ax in fig.axes if (g := ax.get_gridspec()) is not None}.values()
    for grid in grids:  # (GridSpec.update moves the axes of pyplot's figures only)
        if getattr(grid, "left", None) is not None and getattr(grid, "right", None) is not None:
            # the axes keep at least half their width: a label too long to fit (a rater's name of
            # a hundred characters) stays cut rather than squeezing the axes to nothing
            spare = (grid.right - grid.left) / 2
            scale = min(1.0, spare / (left + right))
            grid.update(left=grid.left + left * scale, right=grid.right - right * scale)
    for ax in fig.axes:
        if (spec := ax.get_subplotspec()) is not None:
            ax.set_position(spec.get_position(fig))


def projector_ready(fig: Figure) -> Figure:
    """Raise every text on ``fig`` smaller than :data:`MIN_FONT_PT` to that size (in place); return
    ``fig``."""
    for text in fig.findobj(Text):
        if text.get_text() and text.get_fontsize() < MIN_FONT_PT:
            text.set_fontsize(MIN_FONT_PT)
    return fig


def png_bytes(fig: Figure, dpi: int | None = None) -> bytes:
    """Render ``fig`` with the Agg canvas to PNG bytes at ``dpi`` (default :data:`WIDGET_DPI`)."""
    dpi = WIDGET_DPI if dpi is None else dpi
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    if fig.dpi != dpi:
        fig.set_dpi(dpi)
    fig.canvas.draw()  # one draw; savefig may draw twice
    return canvas_png(fig.canvas)  # a third of the time of matplotlib's PNG writer


def canvas_png(canvas: FigureCanvasAgg) -> bytes:
    """The PNG of what an Agg canvas holds now, without drawing again (for blitted updates).

    Written directly (RGB, no row filters, zlib level 3): about three times
    faster than a general PNG encoder on a 2x figure, for a file a little larger.
    """
    rgb = np.asarray(canvas.buffer_rgba())[..., :3]
    height, width, _ = rgb.shape
    raw = np.empty((height, width * 3 + 1), dtype=np.uint8)
    raw[:, 0] = 0  # filter type "none" on every row
    raw[:, 1:] = rgb.reshape(height, -1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 3))
        + chunk(b"IEND", b"")
    )


def describe_figure(fig: Figure) -> str:
    """A short text alternative: each chart's title and axes ("Chart: title; x: ...; y: ...")."""
    parts = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.has_data() and not ax.get_title():
            continue
        bits = [
            ax.get_title() or "chart",
            ax.get_xlabel() and f"across: {ax.get_xlabel()}",
            ax.get_ylabel() and f"up: {ax.get_ylabel()}",
        ]
        parts.append("; ".join(" ".join(b.split()) for b in bits if b))
    title = fig.get_suptitle() if hasattr(fig, "get_suptitle") else ""
    return "Figure: " + (title + ". " if title else "") + ". ".join(parts) + "."


def bands_alt(title: str, names: Sequence[str], values: Sequence[float]) -> str:
    """The finding of a bars-on-bands figure: each bar's value, then the highest and the lowest."""
    names = [" ".join(str(name).split()) for name in names]
    bars = [f"{name} {fmt(v, undefined='undefined')}" for name, v in zip(names, values)]
    text = f"Figure: {' '.join(title.split())}, bars over the Landis-Koch bands: {', '.join(bars)}."
    shown = {}  # each value as shown -> the bars that show it (ties named together)
    for name, v in sorted(zip(names, values), key=lambda nv: nv[1]):
        if not math.isnan(v):
            shown.setdefault(fmt(v), []).append(name)
    if len(shown) > 1:
        (low, lows), (high, highs) = next(iter(shown.items())), list(shown.items())[-1]
        text += f" Highest: {and_list(highs)} ({high}); lowest: {and_list(lows)} ({low})."
    return text


def and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


#: Where there is room (a wide screen), a figure is shown this much larger than its true size; in a
#: small window it shrinks to its place (the compact layout), never below 0.8 of its true size at 1280 x 720
#: and 150 % (checked in the browser test).
WIDE_SCALE = 1.4


def figure_css_width(fig: Figure) -> str:
    """The widest a figure is shown: :data:`WIDE_SCALE` times its true size (:data:`CSS_DPI` CSS px per
    inch)."""
    return f"{round(fig.get_figwidth() * CSS_DPI * WIDE_SCALE)}px"


def with_ratings(ratings: Any, default: Callable[[], Ratings]) -> Ratings:
    if ratings is None:
        return default()
    return ratings if isinstance(ratings, Ratings) else Ratings.from_rows(ratings)


def attempt(func: Callable, *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``(result, None)`` or ``(None, message)`` when the data admit no coefficient."""
    try:
        return func(*args, **kwargs), None
    except AgreementError as exc:
        return None, str(exc)


def numeric_categories(categories: Sequence) -> bool:
    """True if every category is a number (interval and ratio levels need that)."""
    return all(
        isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool) for c in categories
    )


def image_widget() -> Picture:
    """An empty figure: PNG bytes shown as an ``<img>`` with a text alternative (``alt``)."""
    return Picture(layout=w.Layout(max_width="100%", min_width="0", flex="0 1 auto"))


def slider_layout(width: str = "26em") -> w.Layout:
    """Sliders up to ``width`` wide, narrower on a narrow screen (the track shrinks, the readout stays
    on the slider's line)."""
    return w.Layout(width="auto", max_width=width, min_width="0", flex="0 1 auto", margin="0 1em 0 0")


def rater_sliders(accuracy: Any, prevalence: Any) -> tuple[FloatSlider, FloatSlider]:
    """Sliders for the simulated raters' accuracy (0 to 1) and the prevalence of category 1 (0 to 0.99)."""
    return (
        FloatSlider(
            value=check_number("accuracy", accuracy, 0.0, 1.0),
            min=0.0,
            max=1.0,
            step=0.01,
            description="rater accuracy",
            layout=slider_layout("30em"),
            readout=".2f",
        ),
        FloatSlider(
            value=check_number("prevalence", prevalence, 0.0, 0.99),
            min=0.0,
            max=0.99,
            step=0.01,
            description="prevalence of category 1",
            layout=slider_layout("34em"),
            readout=".2f",
        ),
    )


def controls_row(*children) -> w.HBox:
    """Controls side by side, wrapping onto the next line on a narrow screen; one under the other in the
    compact layout's column."""
    row = w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", align_items="center"))
    row.add_class("iaa-row")
    return row


def label_style() -> dict:
    return {"description_width": "initial"}


# ============================================================ still pictures
#: Style of a still picture (:func:`static_html`): settings as labelled values, figures no wider than the
#: page.
STATIC_CSS = """<style>
.iaa-static { border: 1px solid #ccc; border-radius: 6px; padding: 0.6em 0.8em; margin: 0.5em 0;
    max-width: 100%;
    overflow-x: auto; box-sizing: border-box; }
.iaa-static .iaa-static-row { display: flex; flex-flow: row wrap; align-items: flex-start; gap: 0.3em 1em; }
.iaa-static .iaa-static-grid { display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 30em), 1fr));
    gap: 0.6em; }
.iaa-static .iaa-static-setting { display: inline-block; margin: 0.15em 1em 0.15em 0; }
.iaa-static .iaa-static-setting b { font-weight: 600; }
.iaa-static .iaa-static-input { display: inline-block; min-width: 8em; border: 1px solid #999;
    border-radius: 3px;
    padding: 0.05em 0.4em; color: #555; }
.iaa-static .iaa-static-cell { display: inline-block; flex: none; }
.iaa-static .iaa-static-cell .iaa-static-setting { margin-right: 0; }
.iaa-static img.iaa-picture { max-width: 100%; height: auto; display: block; }
.iaa-static .widget-html-content { min-width: 0; max-width: 100%; overflow-x: auto; }
</style>"""

_DISPLAY_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)(?<!\\)\$")


def _setting(description: str, shown: str) -> str:
    """A setting: its name in bold (if it has one), then ``shown`` (HTML)."""
    name = attr_escape(str(description or "").strip())
    return f'<span class="iaa-static-setting">{f"<b>{name}:</b> " if name else ""}{shown}</span>'


def _sized(widget: w.Widget, inner: str) -> str:
    """``inner`` at the width the widget's layout gives it live (so a grid of cells stays a grid)."""
    width = getattr(widget.layout, "width", None)
    if not width:
        return inner
    return f'<span class="iaa-static-cell" style="width:{attr_escape(width)}">{inner}</span>'


def static_html(widget: w.Widget) -> str:
    """A still picture of a widget tree as HTML: what it shows now, with nothing to move.

    Figures become ``<img>`` with their ``alt`` text (the PNG inside the page),
    readouts stay as they are, each slider, dropdown or box becomes its label and
    current value; buttons, file uploads and anything hidden are left out. For a
    page without a kernel (the static book), where a widget cannot run.
    """
    if getattr(widget, "layout", None) is not None and widget.layout.display == "none":
        return ""
    if "iaa-show" in getattr(widget, "_dom_classes", ()):  # the compact layout's view chooser: live only
        return ""
    if isinstance(widget, w.Box):
        kind = (
            "iaa-static-grid"
            if isinstance(widget, w.GridBox)
            else "iaa-static-row"
            if isinstance(widget, w.HBox)
            else "iaa-static-column"
        )
        inner = "".join(static_html(child) for child in widget.children)
        return f'<div class="{kind}">{inner}</div>' if inner else ""
    if isinstance(widget, Picture):
        if not widget.value:
            return ""
        data = base64.b64encode(widget.value).decode("ascii")
        width = f' style="width:{attr_escape(widget.width)}"' if widget.width else ""
        return (
            f'<img class="iaa-picture" src="data:image/png;base64,{data}" '
            f'alt="{attr_escape(widget.alt)}"{width}>'
        )
    if isinstance(widget, (IntSlider, FloatSlider)):
        return _setting(widget.description, attr_escape(widget.readout))
    if isinstance(widget, (w.Dropdown, w.ToggleButtons, w.RadioButtons, w.Select)):
        # a description given no room (description_width 0px, the table explorer's cells) is not shown live
        # either
        hidden = getattr(getattr(widget, "style", None), "description_width", "") in ("0", "0px")
        return _sized(widget, _setting("" if hidden else widget.description, attr_escape(widget.label)))
    if isinstance(widget, (w.Checkbox, w.ToggleButton)):
        return _setting(widget.description, "on" if widget.value else "off")
    if isinstance(widget, (w.Text, w.Textarea, w.IntText, w.FloatText, w.BoundedIntText, w.BoundedFloatText)):
        value = str(widget.value)
        box = (
            f'<span class="iaa-static-input">{attr_escape(value)}</span>'
            if value
            else '<span class="iaa-static-input" aria-label="empty box">'
            f"{attr_escape(widget.placeholder)}</span>"
        )
        return _setting(widget.description, box)
    if isinstance(widget, w.HTMLMath):
        # JupyterLab typesets $...$ in an HTMLMath; a page's MathJax looks for \(...\) in elements marked for
        # it
        value = _DISPLAY_MATH.sub(r"\\[\1\\]", widget.value)
        value = _INLINE_MATH.sub(r"\\(\1\\)", value)
        return f'<div class="widget-html-content mathjax_process">{value}</div>' if value else ""
    if isinstance(widget, w.HTML):
        return (
            _sized(widget, f'<div class="widget-html-content">{widget.value}</div>') if widget.value else ""
        )
    if isinstance(widget, w.Label):
        return _sized(widget, f"<span>{attr_escape(widget.value)}</span>") if widget.value else ""
    return ""  # buttons, file uploads: nothing to show without a kernel


def widget_bundle(widget: w.Widget, text: str, **kwargs: Any) -> dict:
    """A widget's display data, with ``text`` as its text/plain (what a notebook stores, nothing unstable)."""
    data = widget._repr_mimebundle_(**kwargs)
    data["text/plain"] = text
    return data


def static_picture(widget: w.Widget, classes: Sequence[str] = ()) -> str:
    """:func:`static_html` of ``widget`` in a framed block with :data:`STATIC_CSS` (and ``classes``)."""
    names = " ".join(["iaa-static", *classes])
    return f'{STATIC_CSS}<div class="{names}">{static_html(widget)}</div>'


class Explorer:
    """Base class: a widget tree, an ``update`` that recomputes and redraws, readouts.

    Subclasses build their controls, call :meth:`_finish` with them, and
    implement :meth:`_compute` (recomputes with the metrics, returns the
    readout HTML) and :meth:`_draw` (returns a matplotlib Figure drawn into
    axes from :func:`new_figure`), or :meth:`_redraw` when they show more than
    one figure or can say what a figure depends on (then an unchanged figure
    is not drawn again), or redraw only a figure's moving parts (:meth:`_blit`).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole explorer; displaying the explorer displays it.
    readout : ipywidgets.HTML
        The numbers, as HTML tables.
    image : ipywidgets.Image
        The figure, as PNG bytes.
    last_update_ms : float
        Duration of the last recompute + redraw, in milliseconds.
    """

    title = "Explorer"

    def __init__(self, font_size: str | None = None):
        self.font_size = check_font_size(FONT_SIZE if font_size is None else font_size)
        self.readout = w.HTML(value="", layout=w.Layout(max_width="46em", flex="0 1 auto"))
        self.image = image_widget()
        self.last_update_ms = float("nan")
        self._busy = False
        self._png_cache: dict = {}
        #: The text alternative of each figure on show, by its Image widget's model id.
        self.figure_alt: dict[str, str] = {}
        # per image: the kept figure of a blitted figure and what it shows (:meth:`_blit`)
        self._blits: dict = {}

    # ----------------------------------------------------------- structure
    def _finish(
        self,
        controls: list,
        images: list | None = None,
        watch: Iterable[w.Widget] = (),
        views: Sequence[str] | None = ("figure",),
        readout_below: bool = True,
    ) -> None:
        """Lay out the title, ``controls`` (a column) beside ``images``, and the readout under both, as wide
        as the explorer (``readout_below=False``: under the images, one of the views); recompute on every
        change of ``watch``. ``views``: a name for each image, offered by the "show" control of the compact
        layout (with "numbers": the readout), which shows one of them at a time (None: no such control,
        everything shows, the controls in rows above the readout).

        The readout under both has the explorer's whole width for its tables: beside the controls it had
        what the figure left (a 46em box), and a table wider than that scrolled sideways, its last columns
        out of sight."""
        for control in watch:
            control.observe(self.update, names="value")
        style = w.HTML(
            value=_CSS.format(
                size=self.font_size, projector=PROJECTOR_CSS.replace("{size}", self.font_size), wrap=WRAP_CSS
            )
        )
        title = w.HTML(value=f"<h3 style='margin:0.2em 0'>{attr_escape(self.title)}</h3>")
        title.add_class("iaa-title")
        images = [self.image] if images is None else images
        for i, image in enumerate(images):
            image.add_class(f"iaa-pic-{i}")
        pictures = w.HBox(images, layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        pictures.add_class("iaa-figures")
        self.readout.add_class("iaa-numbers")
        self.show = w.Dropdown(
            options=[(name, str(i)) for i, name in enumerate(views or ("figure",))]
            + [("numbers", "numbers")],
            value="0",
            description="show",
            style=label_style(),
            tooltip="in a small window: which figure, or the numbers",
        )
        self.show.add_class("iaa-show")
        self.show.observe(self._show_view, names="value")
        panel = w.VBox([*controls, self.show])
        panel.add_class("iaa-controls")
        pane = w.VBox([pictures] if readout_below else [pictures, self.readout])
        pane.add_class("iaa-pane")
        top = w.HBox([panel, pane], layout=w.Layout(align_items="flex-start"))  # flex-flow: in the style
        top.add_class("iaa-top")
        self.widget = w.VBox([style, title, top] + ([self.readout] if readout_below else []))
        if readout_below:
            self.readout.layout.max_width = "100%"
            self.readout.add_class("iaa-below")
        self.widget.add_class("iaa-explorer")
        self.widget.add_class("iaa-" + type(self).__name__.lower())
        self.widget.add_class("iaa-show-0")
        if views is not None:
            self.widget.add_class("iaa-views")
        else:  # many controls and one readout: the controls in rows, above the readout (no "show")
            self.show.layout.display = "none"
            self.widget.add_class("iaa-stacked")
        self.update()

    def _show_view(self, change: dict) -> None:
        """The compact layout's "show" control: mark the explorer with the view chosen (its style shows
        it)."""
        for name in [name for name in self.widget._dom_classes if name.startswith("iaa-show-")]:
            self.widget.remove_class(name)
        self.widget.add_class(f"iaa-show-{self._view_chosen(change['new'])}")

    def _view_chosen(self, value: str) -> str:
        """The view ``value`` chosen in "show" (an image's index or "numbers"): which to show."""
        return value

    # -------------------------------------------------------------- update
    def update(self, change: Any = None) -> None:
        """Recompute every readout and redraw the figure (the callback of every control)."""
        if self._busy:
            return
        start = time.perf_counter()
        self.readout.value = self._compute()
        self._redraw()
        self.last_update_ms = (time.perf_counter() - start) * 1000.0

    def _compute(self) -> str:  # pragma: no cover - subclasses override
        raise NotImplementedError

    def _redraw(self) -> None:
        """Draw the figure(s); the default shows :meth:`_draw` in :attr:`image`."""
        self._show(self.image, None, self._draw)

    def _draw(self) -> Figure:  # pragma: no cover - subclasses override
        raise NotImplementedError

    def _show(self, image: Picture, key: Any, make: Callable[[], Figure], alt: str | None = None) -> None:
        """Put the figure ``make()`` draws into ``image``, with ``alt`` as its text alternative (None: its
        titles and axes, :func:`describe_figure`).

        ``key`` (hashable) must determine everything the figure shows: a
        figure drawn before under the same key is reused instead of redrawn.
        ``None``: always draw.
        """
        shown = self._png_cache.pop(key, None) if key is not None else None
        if shown is None:
            fig = projector_ready(make())
            shown = (png_bytes(fig), describe_figure(fig) if alt is None else alt, figure_css_width(fig))
        if key is not None:
            self._remember(key, shown)
        self._set_image(image, *shown)

    def _remember(self, key: Any, shown: tuple) -> None:
        """Keep ``shown`` (PNG, alt, width) as the picture of ``key``, the last of the kept pictures."""
        self._png_cache[key] = shown
        while len(self._png_cache) > _PNG_CACHE_SIZE:
            self._png_cache.pop(next(iter(self._png_cache)))

    def _show_kept_or_live(
        self,
        image: Picture,
        key: Any,
        frame: Any,
        make: Callable[[], Figure],
        update: Callable[[Figure], Iterable[Artist]],
        alt: str | None,
    ) -> None:
        """The picture kept for ``key`` (what it shows) if there is one, else :meth:`_show_live` (its
        moving parts drawn over a kept frame), then kept for ``key``."""
        shown = self._png_cache.pop(key, None)
        if shown is None:
            self._show_live(frame, make, update, alt, image=image)
            shown = (image.value, image.alt, image.width)
        self._remember(key, shown)
        self._set_image(image, *shown)

    def _blit(
        self,
        key: Any,
        curves: Callable[[], Iterable[Artist]],
        marks: Callable[[], Iterable[Artist]],
        alt: str | Callable[[Figure], str] | None = None,
        make: Callable[[], Figure] | None = None,
        image: Picture | None = None,
    ) -> None:
        """Show :meth:`_draw`'s figure in ``image`` (default :attr:`image`), drawing again only what changed
        (blitting).

        :meth:`_draw` is called once: its figure (kept as ``_blit_figure``) is drawn
        without its animated artists (axes, labels and legends alone) and kept
        as a picture. When ``key`` (what the curves show) changes, ``curves()``
        updates the animated artists that show it and returns them: they are
        drawn over that picture, and the result is kept in turn. On every call
        ``marks()`` updates the markers of the current setting and returns
        them, drawn over the kept curves. ``alt`` is the figure's text alternative (None: its
        titles and axes, :func:`describe_figure`; a function: of the figure, after the marks). ``make``: what draws the figure instead of
        :meth:`_draw`. Each image keeps its own figure, pictures and key.
        """
        image = self.image if image is None else image
        kept = self._blits.setdefault(id(image), {"key": None})
        if kept["key"] is None:  # axes, labels and legends: drawn once, kept as a picture
            fig = (make or self._draw)()
            fig.set_dpi(WIDGET_DPI)
            fit_inside(fig)
            fig.canvas.draw()
            kept["figure"], kept["static"] = fig, fig.canvas.copy_from_bbox(fig.bbox)
        figure = kept["figure"]
        canvas = figure.canvas
        if kept["key"] != key:  # new curves: drawn over the static picture, kept in turn
            canvas.restore_region(kept["static"])
            for artist in curves():
                artist.axes.draw_artist(artist)
            kept["background"] = canvas.copy_from_bbox(figure.bbox)
            kept["key"] = key
        canvas.restore_region(kept["background"])
        for artist in marks():
            artist.axes.draw_artist(artist)
        alt = describe_figure(figure) if alt is None else alt(figure) if callable(alt) else alt
        self._set_image(image, canvas_png(canvas), alt, figure_css_width(figure))

    @property
    def _blit_figure(self) -> Figure:
        """The kept figure of :attr:`image` (see :meth:`_blit`)."""
        return self._blits[id(self.image)]["figure"]

    @property
    def _blit_key(self) -> Any:
        return self._blits.get(id(self.image), {}).get("key")

    @_blit_key.setter
    def _blit_key(self, key: Any) -> None:
        """None: draw :attr:`image`'s figure anew at the next :meth:`_blit`."""
        self._blits.setdefault(id(self.image), {})["key"] = key

    def _show_bands(self, values: dict, title: str, width: float, height: float, **margins: float) -> None:
        """Show :func:`iaa_teach.plots.coefficients_with_bands` of ``values`` (name -> coefficient or
        None) in :attr:`image`: its frame (axes, bands, names, title) is drawn once for a set of names,
        a title and an axis floor, and only the bars and their numbers over it on every update
        (:meth:`_blit`), about a fifth of the time of a new figure."""
        nums = [float("nan") if v is None else float(v) for v in values.values()]
        texts = [fmt(v, undefined="n/a") for v in nums]
        frame = (tuple(values), title, plots.bands_floor(nums), width, height, tuple(sorted(margins.items())))

        def make() -> Figure:
            fig, (ax,) = new_figure(width, height, **margins)
            plots.coefficients_with_bands(dict(zip(values, nums)), title=title, ax=ax)
            ax.title.set_fontsize(10)
            ax.set_xlabel("")  # the bars' names say it
            # slanted, so that names wider than their bar do not overlap
            names = [label.get_text().replace("\n", " ") for label in ax.get_xticklabels()]  # escaped
            ax.set_xticks(range(len(names)), names, rotation=50, ha="right", rotation_mode="anchor")
            # a number 9 pt wide (about 0.3 in) is written upright over a bar narrower than that
            room = width * (margins.get("right", 0.95) - margins.get("left", 0.1)) / max(1, len(names))
            for text in ax.iaa_bars[1]:
                text.set_fontsize(MIN_FONT_PT)
                if room < 0.36:
                    text.set_rotation(90)
            if room < 0.36:  # room above the bands for an upright number over a bar near 1
                low = ax.get_ylim()[0]
                ax.set_ylim(low, 1.3)
                ax.set_yticks([t / 5 for t in range(-5, 6) if low <= t / 5])
            for artist in plots.set_bar_values(ax, nums, texts):
                artist.set_animated(True)  # drawn by _blit over the kept frame
            return projector_ready(fig)

        self._show_live(
            ("bands", frame),
            make,
            lambda fig: plots.set_bar_values(fig.axes[0], nums, texts),
            alt=bands_alt(title, list(values), nums),
        )

    def _show_live(
        self,
        frame: Any,
        make: Callable[[], Figure],
        update: Callable[[Figure], Iterable[Artist]],
        alt: str | None,
        image: Picture | None = None,
    ) -> None:
        """Show in ``image`` (default :attr:`image`) a figure kept while ``frame`` (hashable: its axes,
        names, titles' size...) stays the same: ``make()`` draws it once (its moving parts set animated),
        and each call only ``update(figure)`` changes its moving parts and returns them, drawn over the
        kept rest (:meth:`_blit`). ``alt``: the text alternative (None: the figure's ``iaa_alt`` after the
        update, else its titles)."""
        image = self.image if image is None else image
        kept = self._blits.setdefault(id(image), {"key": None})
        if kept.get("frame") != frame:  # new bars, names or axes: draw the frame again
            kept["frame"], kept["key"] = frame, None

        def finding(figure: Figure) -> str:  # once per update: a new alt text redraws the picture
            return getattr(figure, "iaa_alt", None) or describe_figure(figure)

        self._blit(
            frame,
            lambda: (),
            lambda: update(kept["figure"]),
            alt=finding if alt is None else alt,
            make=make,
            image=image,
        )

    def _set_image(self, image: Picture, png: bytes, alt: str, width: str) -> None:
        """Show ``png`` in ``image`` at ``width`` CSS px, with ``alt``, its text alternative."""
        # a trait given the value it has sends nothing to the browser (traitlets compares)
        image.width = image.layout.width = width  # as wide as that, or as its place allows
        image.alt = alt
        self.figure_alt[image.model_id] = alt
        image.value = png

    def clear_cache(self) -> None:
        """Forget the figures drawn so far: the next update draws every figure again, over the frame
        a blitted figure keeps (:meth:`_blit`; it is drawn again only when what it shows changes)."""
        self._png_cache.clear()

    # ------------------------------------------------------------ readouts
    def values(self) -> dict[str, str]:
        """The readout's numbers by key, as displayed (strings such as ``"0.492"``)."""
        return values_in(self.readout.value)

    def readout_text(self) -> str:
        """The readout as plain text: a title, then ``key: value`` lines."""
        return "\n".join([self.title] + [f"  {key}: {value}" for key, value in self.values().items()])

    def static_picture(self) -> str:
        """A still picture of the explorer as HTML (title, settings, readout, figures): :func:`static_html`.

        For pages without a kernel, such as the static book, where the live
        controls cannot run.
        """
        return static_picture(self.widget, ["iaa-explorer", "iaa-" + type(self).__name__.lower()])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict:
        return widget_bundle(self.widget, self.readout_text(), **kwargs)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.title}>"
