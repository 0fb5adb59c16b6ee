"""What every explorer shares: layout and style, number formatting, figure rendering.

An explorer owns a small tree of ipywidgets (``explorer.widget``). Its
callbacks recompute with the :mod:`iaa_teach` metrics and then only set trait
values: the readout ``HTML.value`` and the figure ``Image.value`` (PNG bytes
drawn with the Agg canvas at a fixed dpi, no pyplot state). So an explorer
runs headless in pytest exactly as it runs in JupyterLab.

Text from the data (rater names, labels, item names, reasons) is escaped in
every readout: :func:`table` escapes each cell that is not already HTML made by
:func:`q`, :func:`heading` or :func:`note`.

Every number in a readout is a result's exact value rounded half up by
:func:`iaa_teach.fmt`, wrapped as ``<span data-q="KEY">0.492</span>``:
tests (and the browser test) find a value by its key, and
:meth:`Explorer.readout_text` gives the same numbers as plain text.
"""

from __future__ import annotations

import html
import io
import math
import re
import time
from typing import Any, Callable, Iterable, Sequence

import ipywidgets as w
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .. import plots
from ..metrics import interpret
from ..ratings import AgreementError, Ratings
from ..rounding import fmt  # noqa: F401  (the explorers format every number with it)
from ..validation import check_text

#: Font size of labels, controls and readouts: readable on a projector.
FONT_SIZE = "17px"
#: Resolution of the figure images (with each figure's fixed size in inches).
WIDGET_DPI = 80

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
.iaa-explorer .iaa-note {{ color: #555; }}
.iaa-explorer .iaa-why {{ color: #8a3b00; }}
.iaa-explorer tr.iaa-chosen td {{ font-weight: bold; background: #eef4fb; }}
</style>"""

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
    """Landis-Koch band of a coefficient (``undefined`` for NaN or None; below -1, as Fleiss' can be, poor)."""
    v = float("nan") if value is None else float(value)
    return interpret(v if math.isnan(v) else max(-1.0, v))


def q(key: str, text: Any) -> Html:
    """A readout value, findable by ``key`` in the HTML: ``<span data-q=key>text</span>``."""
    return Html(f'<span class="iaa-q" data-q="{html.escape(key)}">{html.escape(str(text))}</span>')


def values_in(html_text: str) -> dict[str, str]:
    """Every ``data-q`` key and its text in a readout's HTML."""
    return {html.unescape(key): html.unescape(text) for key, text in _Q_RE.findall(html_text)}


def cell(value: Any) -> str:
    """A readout cell: :class:`Html` as it is, anything else escaped as text."""
    return value if isinstance(value, Html) else html.escape(str(value))


def table(header: Sequence[Any], rows: Iterable[Sequence[Any]], chosen: Callable[[int], bool] | None = None) -> Html:
    """An HTML readout table; text cells are escaped, :class:`Html` cells (from :func:`q`) kept."""
    head = "".join(f"<th>{cell(h)}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = ' class="iaa-chosen"' if chosen is not None and chosen(i) else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>")
    return Html(f'<table class="iaa-readout"><tr>{head}</tr>{"".join(body)}</table>')


def note(text: str, cls: str = "iaa-note") -> Html:
    return Html(f'<div class="{cls}">{html.escape(text)}</div>')


def heading(text: str) -> Html:
    return Html(f"<b>{html.escape(text)}</b>")


def new_figure(width: float, height: float, ncols: int = 1, widths: Sequence[float] | None = None,
               **margins: float) -> tuple[Figure, list]:
    """A matplotlib Figure on an Agg canvas (no pyplot), and its ``ncols`` axes side by side.

    Margins are fixed (``left``, ``right``, ``bottom``, ``top``, ``wspace`` as
    in ``Figure.subplots_adjust``) rather than found by a layout engine: the
    constrained layout measures every text twice and doubles the drawing time.
    """
    fig = Figure(figsize=(width, height), dpi=WIDGET_DPI)
    FigureCanvasAgg(fig)
    spec = {"left": 0.1, "right": 0.95, "bottom": 0.15, "top": 0.88, "wspace": 0.35}
    spec.update(margins)
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
        ax.text(0.5, 0.5, f"{ratings.n_items:,} items x {ratings.n_raters} raters: too many cells to draw",
                ha="center", va="center", transform=ax.transAxes)


def png_bytes(fig: Figure, dpi: int = WIDGET_DPI) -> bytes:
    """Render ``fig`` with the Agg canvas to PNG bytes at a fixed dpi."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    if fig.dpi != dpi:
        fig.set_dpi(dpi)
    fig.canvas.print_png(buf, metadata={"Software": None})  # one draw; savefig may draw twice
    return buf.getvalue()


def with_ratings(ratings: Any, default: Callable[[], Ratings]) -> Ratings:
    if ratings is None:
        return default()
    if isinstance(ratings, Ratings):
        return ratings
    return Ratings.from_rows(ratings)


def attempt(func: Callable, *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``(result, None)`` or ``(None, message)`` when the data admit no coefficient."""
    try:
        return func(*args, **kwargs), None
    except AgreementError as exc:
        return None, str(exc)


def numeric_categories(categories: Sequence) -> bool:
    """True if every category is a number (interval and ratio levels need that)."""
    return all(isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool) for c in categories)


def image_widget() -> w.Image:
    """An empty PNG image widget that keeps its aspect ratio and fits the page."""
    return w.Image(format="png", layout=w.Layout(max_width="100%", height="auto", flex="0 1 auto"))


def slider_layout(width: str = "26em") -> w.Layout:
    """Sliders wide enough for their description and a usable track."""
    return w.Layout(width=width, margin="0 1em 0 0")


def controls_row(*children) -> w.HBox:
    """Controls side by side, wrapping onto the next line on a narrow screen."""
    return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", align_items="center"))


def label_style() -> dict:
    return {"description_width": "initial"}


class Explorer:
    """Base class: a widget tree, an ``update`` that recomputes and redraws, readouts.

    Subclasses build their controls, call :meth:`_finish` with them, and
    implement :meth:`_compute` (recomputes with the metrics, returns the
    readout HTML) and :meth:`_draw` (returns a matplotlib Figure drawn into
    axes from :func:`new_figure`), or :meth:`_redraw` when they show more than
    one figure or can say what a figure depends on (then an unchanged figure
    is not drawn again).

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

    def __init__(self, font_size: str = FONT_SIZE):
        self.font_size = check_font_size(font_size)
        self.readout = w.HTML(value="", layout=w.Layout(min_width="22em", max_width="46em", flex="0 1 auto",
                                                        margin="0 1.5em 0 0"))
        self.image = image_widget()
        self.last_update_ms = float("nan")
        self._busy = False
        self._png_cache: dict = {}

    # ----------------------------------------------------------- structure
    def _finish(self, controls: list, images: list | None = None) -> None:
        style = w.HTML(value=_CSS.format(size=self.font_size))
        title = w.HTML(value=f"<h3 style='margin:0.2em 0'>{html.escape(self.title)}</h3>")
        images = [self.image] if images is None else images
        pictures = images[0] if len(images) == 1 else w.HBox(images)
        body = w.HBox([self.readout, pictures], layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.widget = w.VBox([style, title, *controls, body])
        self.widget.add_class("iaa-explorer")
        self.widget.add_class("iaa-" + type(self).__name__.lower())
        self.update()

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

    def _show(self, image: w.Image, key: Any, make: Callable[[], Figure]) -> None:
        """Put the figure ``make()`` draws into ``image``.

        ``key`` (hashable) must determine everything the figure shows: a
        figure drawn before under the same key is reused instead of redrawn.
        ``None``: always draw.
        """
        png = self._png_cache.pop(key, None) if key is not None else None
        if png is None:
            png = png_bytes(make())
        if key is not None:
            self._png_cache[key] = png
            while len(self._png_cache) > _PNG_CACHE_SIZE:
                self._png_cache.pop(next(iter(self._png_cache)))
        if image.value != png:
            image.value = png

    def clear_cache(self) -> None:
        """Forget the figures drawn so far (the next update redraws everything)."""
        self._png_cache.clear()

    # ------------------------------------------------------------ readouts
    def values(self) -> dict[str, str]:
        """The readout's numbers by key, as displayed (strings such as ``"0.492"``)."""
        return values_in(self.readout.value)

    def readout_text(self) -> str:
        """The readout as plain text: a title, then ``key: value`` lines."""
        lines = [self.title]
        lines += [f"  {key}: {value}" for key, value in self.values().items()]
        return "\n".join(lines)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict:
        data = self.widget._repr_mimebundle_(**kwargs)
        data["text/plain"] = self.readout_text()
        return data

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.title}>"
