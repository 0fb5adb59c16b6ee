"""The figures' code (internal): :mod:`iaa_teach.plots` lists the public charts.

What each chart shows and the rules every figure follows are said once, in
:mod:`iaa_teach.plots`'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LinearSegmentedColormap, to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from ._formulas import KAPPA_WEIGHTS
from ._markup import mpl_escape
from ._validation import AgreementError, check_int, check_number, check_text, check_type, options
from .diagnosis import check_diagnosis
from .metrics import (
    BANDS,
    AlphaResult,
    BrennanPredigerResult,
    CohenResult,
    CongerResult,
    FamilyInterval,
    FleissResult,
    GwetResult,
    PairwiseCohenResult,
    PercentAgreementResult,
    ScottResult,
    agreement_family,
    interpret,
)
from .ratings import as_ratings
from .rounding import fmt, format_number
from .worked import chance_rule, kappa_label

__all__ = [
    "DPI",
    "FIGSIZE",
    "OKABE_ITO",
    "CATEGORY_COLORS",
    "agreement_heatmap",
    "item_agreement_bars",
    "pairwise_bars",
    "coincidence_heatmap",
    "coefficients_with_bands",
    "coverage_chart",
    "MAX_BARS",
    "MAX_CELLS",
    "MAX_CELL_TEXT",
    "family_chart",
    "chance_chart",
    "alt_text",
    "PARADOX_STYLES",
    "paradox_curve",
    "distance_matrix",
    "coverage_map",
    "kappa_matrix",  # for the widgets
    "REPORT_FIGSIZE",
    "cluster_order",
    "rater_agreement_heatmap",
    "item_disagreement_chart",
    "confusion_heatmap",
    "leave_one_out_bars",  # of the diagnostic report
    "bands_floor",
    "set_bar_values",  # for the widgets' redraws
]

#: Most bars in one figure (items, pairs or coefficients).
MAX_BARS = 500
#: Most cells in a coverage chart (a patch each) and a coverage map (a pixel each).
MAX_CELLS = {"chart": 5_000, "map": 2_000_000}
#: Up to this many categories a heatmap writes each cell's value; beyond, only colours.
MAX_CELL_TEXT = 15

#: Size (inches) and resolution of every figure.
FIGSIZE = (6.4, 4.0)
DPI = 100

#: Okabe & Ito (2008), a palette that colour-blind readers can tell apart.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
    "grey": "#999999",
}
#: Colours for categories, in category order: a different one for each of the first 20. The first
#: seven are Okabe-Ito's; the other 13 come from Paul Tol's "muted" palette and matplotlib's "tab20",
#: each picked as far (CIELAB) as possible from those before it and from white (a missing label), so
#: any two of the 20, or one and white, are at least 26 Delta-E (CIE 1976) apart. Beyond seven, some
#: colour-blind readers confuse some of them; past 20 they repeat, and a figure says so (its legend,
#: its text alternative) or writes each label on its cell.
CATEGORY_COLORS = (
    *(
        OKABE_ITO[c]
        for c in ("vermillion", "yellow", "blue", "bluish green", "reddish purple", "sky blue", "orange")
    ),
    *("#332288", "#DBDB8D", "#2CA02C", "#8C564B", "#EE8866", "#882255", "#9467BD"),
    *("#D62728", "#C5B0D5", "#999933", "#98DF8A", "#C49C94", "#9EDAE5"),
)

_UNANIMOUS = OKABE_ITO["bluish green"]
_SPLIT = OKABE_ITO["orange"]
_BAR = OKABE_ITO["blue"]
_REFERENCE = OKABE_ITO["vermillion"]
# a one-hue sequential map (white to Okabe-Ito blue): readable in grey scale too
_HEAT = LinearSegmentedColormap.from_list("iaa_blue", ["#FFFFFF", OKABE_ITO["sky blue"], OKABE_ITO["blue"]])
# light, distinct shades behind the Landis-Koch bands (poor ... almost perfect)
_BAND_SHADES = ("#F4D6C6", "#FBEFD0", "#FBF8DA", "#E3F1F8", "#D5ECE4", "#CFE3F1")


class _DescribedFigure(Figure):
    """A figure whose plain-text form is what it shows (:func:`alt_text`), not ``<Figure size ...>``.

    A notebook stores it beside the PNG (``text/plain``), so the finding goes wherever the
    figure goes: a screen reader, the book's ``alt`` text (tools/book.py), a text-only view.
    """

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/plain": alt_text(self)}


def _figure(ax: Any = None, size: tuple[float, float] = FIGSIZE, **subplots: Any):
    """A new closed figure of ``size`` (with the axes of ``plt.subplots(**subplots)``), or the figure of
    ``ax``."""
    if ax is not None:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise AgreementError(f"ax must be a matplotlib Axes (or None), got {type(ax).__name__}")
        return ax.figure, ax
    fig, ax = plt.subplots(
        figsize=size, dpi=DPI, layout="constrained", FigureClass=_DescribedFigure, **subplots
    )
    plt.close(fig)  # the caller displays it (once) by returning it
    return fig, ax


def _named(name: Any, role: str = "") -> str:
    """A rater, item (``role``: "rater", "item") or label (no role: in quotes) as an alt text names it."""
    text = " ".join(str(name).split())
    return f"{role} {text}" if role else f'"{text}"'


def _count(n: int, word: str) -> str:
    """``3 items``, ``1 item``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _extremes(values: Any, names: list[str]) -> tuple[tuple[float, str], tuple[float, str]] | None:
    """The highest and the lowest defined value with its name, or None when none is defined."""
    found = [(float(v), n) for v, n in zip(values, names) if not np.isnan(float(v))]
    return (max(found, key=lambda x: x[0]), min(found, key=lambda x: x[0])) if found else None


def _too_many(what: str, n: int, limit: int, instead: str) -> None:
    if n > limit:
        raise AgreementError(f"{n:,} {what} are too many to draw (at most {limit:,}); {instead}")


def _texts(values: Any) -> list[str]:
    """Data as matplotlib text, escaped."""
    return [mpl_escape(v) for v in values]


def _category_colors(k: int) -> list[str]:
    """A colour for each of ``k`` categories: :data:`CATEGORY_COLORS`, all different up to 20, then round
    again (the figure says so: :func:`_colours_repeat`)."""
    return [CATEGORY_COLORS[j % len(CATEGORY_COLORS)] for j in range(k)]


def _colours_repeat(k: int) -> str:
    """What a figure of ``k`` categories says about its colours: nothing up to 20, else that they repeat."""
    n = len(CATEGORY_COLORS)
    return f"colours repeat after {n} labels" if k > n else ""


def _text_on(colour: str) -> str:
    """The colour of text written on ``colour``: white where white text reaches a contrast of 3:1 (WCAG's
    least for large text), else black."""
    rgb = np.array(to_rgb(colour))
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    luminance = float(linear @ (0.2126, 0.7152, 0.0722))
    return "white" if 1.05 / (luminance + 0.05) >= 3 else "black"


def _floor(values: Any, margin: float = 0.0) -> float:
    """The lower end of an axis for ``values``: 0, or ``margin`` below the lowest value when that is lower."""
    return min(0.0, float(np.nanmin(values)) - margin) if np.isfinite(values).any() else 0.0


def _undefined(ax: Any, x: float) -> None:
    """The word "undefined", upright, where a bar at ``x`` would be."""
    ax.text(x, 0.02, "undefined", ha="center", va="bottom", fontsize=9, rotation=90, color="#444444")


def _kappa_image(ax: Any, m: np.ndarray, cell: Any = None, fontsize: float = 10):
    """A raters x raters matrix of kappas as an image from min(0, lowest) to 1, NaN blank.

    ``cell(i, j, value)``: the text written in each cell off the diagonal (None: no text).
    """
    im = ax.imshow(np.ma.masked_invalid(m), cmap=_HEAT, vmin=_floor(m), vmax=1.0)
    if cell is not None:
        for (i, j), v in np.ndenumerate(m):
            if i != j:
                ax.text(
                    j,
                    i,
                    cell(i, j, v),
                    ha="center",
                    va="center",
                    fontsize=fontsize,
                    color="white" if v > 0.6 else "black",
                )
    ax.tick_params(length=0)
    return im


def _cell_label(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(value)  # "3", "1/2"
    v = float(value)
    return str(int(v)) if v.is_integer() else fmt(v, 2)


def _set_heat(im: Any, texts: list, matrix: np.ndarray, cells: list[list[str]]) -> None:
    """Show ``matrix`` in a :func:`_heatmap`'s image and ``cells`` in its texts (written row by row),
    white on the darkest cells, as it writes them."""
    top = matrix.max() if matrix.size and matrix.max() > 0 else 1.0
    im.set_data(matrix)
    im.set_clim(0, top)
    k = len(matrix)
    for n, text in enumerate(texts):
        i, j = divmod(n, k)
        text.set_text(cells[i][j])
        text.set_color("white" if matrix[i, j] > 0.6 * top else "black")


def _heatmap(
    ax, matrix: np.ndarray, labels: list[str], cells: list[list[str]], highlight_diagonal: bool = True
):
    m = np.asarray(matrix, dtype=float)
    top = m.max() if m.size and m.max() > 0 else 1.0
    im = ax.imshow(m, cmap=_HEAT, vmin=0, vmax=top)
    k = len(labels)
    if k <= 4 * MAX_CELL_TEXT:
        ax.set_xticks(range(k), labels)
        ax.set_yticks(range(k), labels)
    ax.tick_params(length=0)
    for i in range(k):
        for j in range(k if k <= MAX_CELL_TEXT else 0):
            ax.text(
                j,
                i,
                cells[i][j],
                ha="center",
                va="center",
                fontsize=13,
                color="white" if m[i, j] > 0.6 * top else "black",
                fontweight="bold" if i == j else "normal",
            )
        if highlight_diagonal and k <= 4 * MAX_CELL_TEXT:
            ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=OKABE_ITO["black"], lw=2))
    ax.set_xticks(np.arange(-0.5, k, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, k, 1), minor=True)
    ax.grid(which="minor", color="white", lw=1)
    ax.tick_params(which="minor", length=0)
    ax.spines[:].set_visible(False)
    return im


# ===================================================================== Cohen
def agreement_heatmap(result: CohenResult, ax: Any = None) -> Figure:
    """The agreement table of two raters as a heatmap, diagonal outlined.

    Parameters
    ----------
    result : CohenResult
        From :func:`iaa_teach.cohen_kappa`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    check_type("agreement_heatmap", result, CohenResult)
    fig, ax = _figure(ax)
    table = np.asarray(result.table)
    im = _heatmap(ax, table, _texts(result.categories), [[str(int(x)) for x in row] for row in table])
    fig.colorbar(im, ax=ax, label="items", shrink=0.8).locator = MaxNLocator(integer=True)
    a, b = mpl_escape(result.rater_a), mpl_escape(result.rater_b)
    ax.set_xlabel(f"{b}'s label")
    ax.set_ylabel(f"{a}'s label")
    ax.set_title(kappa_label(result.weights, f"{a} vs {b}: agreement table, κ = {fmt(result)}"))
    cats, first, second = result.categories, _named(result.rater_a, "rater"), _named(result.rater_b, "rater")
    off = np.where(np.eye(len(table), dtype=bool), -1, table)
    i, j = np.unravel_index(np.argmax(off), off.shape) if off.size else (0, 0)
    worst = (
        f"; most often they differ as {first} {_named(cats[i])}, {second} {_named(cats[j])} "
        f"({_count(int(off[i, j]), 'item')})"
        if off.size and off[i, j] > 0
        else "; they never differ"
    )
    fig.iaa_alt = (
        f"Agreement table of {first} (rows) and {second} (columns): the same label on {int(np.trace(table))} "
        f"of {int(table.sum())} items (the diagonal){worst}; kappa {fmt(result)}."
    )
    return fig


def pairwise_bars(
    result: PairwiseCohenResult, reference: Any = None, reference_label: str | None = None, ax: Any = None
) -> Figure:
    """Cohen's kappa of every rater pair as bars, with an optional reference line.

    Parameters
    ----------
    result : PairwiseCohenResult
    reference : float or result object, optional
        Drawn as a horizontal line, e.g. Fleiss' kappa of the same data. A
        :class:`~iaa_teach.FleissResult` is labelled with its chance rule.
    reference_label : str, optional
        Legend text for the line (default: "Fleiss' kappa (<chance rule>)"
        for a FleissResult, else "reference").
    """
    check_type("pairwise_bars", result, PairwiseCohenResult)
    _too_many("pairs of raters", len(result.pairs), MAX_BARS, "draw kappa_matrix(result) instead")
    if (
        isinstance(reference, bool)
        or reference is not None
        and not isinstance(
            reference,
            (
                int,
                float,
                np.integer,
                np.floating,
                FleissResult,
                AlphaResult,
                CohenResult,
                PairwiseCohenResult,
            ),
        )
    ):
        raise AgreementError(f"reference must be a number or a result, got {reference!r}")
    check_text("reference_label", reference_label, none=True)
    fig, ax = _figure(ax)
    names = [f"{mpl_escape(a)} vs {mpl_escape(b)}" for a, b in result.pairs]
    bars = ax.bar(
        np.arange(len(names)),
        np.zeros(len(names)),
        color=_BAR,
        width=0.6,
        label="Cohen's kappa of the pair",
        tick_label=names,
    )
    texts = [
        ax.text(bar.get_x() + bar.get_width() / 2, 0.02, "", ha="center", va="bottom", fontsize=11)
        for bar in bars
    ]
    line = None
    if reference is not None:
        line = ax.axhline(0, color=_REFERENCE, ls="--", lw=2, label="reference")
    ax.set_ylim(pairwise_floor(result, reference), 1.1)
    ax.axhline(0, color=OKABE_ITO["black"], lw=0.8)
    ax.set_xlabel("pair of raters")
    ax.set_ylabel("Cohen's kappa")
    ax.set_title("Cohen's kappa for every pair of raters")
    ax.iaa_pairs = (list(bars), texts, line)
    set_pairwise_values(ax, result, reference, reference_label)
    ax.legend(loc="upper right", fontsize=9)
    return fig


def pairwise_floor(result: PairwiseCohenResult, reference: Any = None) -> float:
    """The bottom of :func:`pairwise_bars`' axis: 0.1 below the lowest kappa (or the reference), at most 0."""
    low = _floor(np.asarray(result.kappas, dtype=float), 0.1)
    return low if reference is None else min(low, float(reference) - 0.1)


def set_pairwise_values(
    ax: Any, result: PairwiseCohenResult, reference: Any = None, reference_label: str | None = None
) -> list:
    """Show ``result`` (the same pairs) and ``reference`` on the bars :func:`pairwise_bars` drew on ``ax``:
    the bars, their numbers, the reference line and its label (in the legend too, if there is one) and the
    figure's text alternative; return the artists that changed (an explorer redraws only these)."""
    bars, texts, line = ax.iaa_pairs
    kappas = np.asarray(result.kappas, dtype=float)
    for bar, text, value, res in zip(bars, texts, kappas, result.results, strict=True):
        bar.set_height(0.0 if np.isnan(value) else float(value))
        text.set_y(max(bar.get_height(), 0) + 0.02)
        text.set_text(fmt(res))
    moved = [*bars, *texts]
    if line is not None and reference is not None:
        if reference_label is None:
            reference_label = (
                f"Fleiss' kappa ({chance_rule(reference)})"
                if isinstance(reference, FleissResult)
                else "reference"
            )
        label = f"{mpl_escape(reference_label)} = {fmt(reference)}"
        line.set_ydata([float(reference)] * 2)
        line.set_label(label)
        moved.append(line)
        legend = ax.get_legend()
        if legend is not None:  # the line's entry (the bars' is a patch)
            for text, handle in zip(legend.get_texts(), legend.legend_handles):
                if isinstance(handle, Line2D):
                    text.set_text(label)
            moved.append(legend)
    ends = _extremes(kappas, [f"raters {a} and {b}" for a, b in result.pairs])
    alt = f"Cohen's kappa of {len(kappas)} pairs of raters: " + (
        f"highest {ends[0][1]} {fmt(ends[0][0])}, lowest {ends[1][1]} {fmt(ends[1][0])}"
        if ends
        else "none defined"
    )
    if line is not None and reference is not None:
        alt += f"; the dashed line: {reference_label} {fmt(reference)}"
    ax.figure.iaa_alt = alt + "."
    return moved


# ==================================================================== Fleiss
def item_agreement_bars(
    result: FleissResult, items: Any = None, ax: Any = None, *, kappa: bool = False
) -> Figure:
    """P_i of every item as bars: unanimous items and split items in two colours, P_a as a line.

    Items with fewer than 2 ratings (P_i undefined) are marked, not drawn. The title names the
    figure and no more, so that a lesson can draw it before the student has worked out kappa;
    ``kappa=True`` adds Fleiss' kappa and its chance rule to the title (and the text alternative).
    """
    check_type("item_agreement_bars", result, FleissResult)
    check_type("item_agreement_bars()", kappa, bool, "kappa=True or kappa=False")
    p_i = np.asarray(result.p_i, dtype=float)
    n = len(p_i)
    _too_many("items", n, MAX_BARS, "draw a subset: replace(result, p_i=result.p_i[:100]) with items=")
    if items is not None and (
        isinstance(items, (str, bytes)) or not hasattr(items, "__len__") or len(items) != n
    ):
        raise AgreementError(f"items must give one name per item ({n}), got {items!r}")
    fig, ax = _figure(ax)
    names = _texts(items if items is not None else range(1, n + 1))
    x = np.arange(n)
    bars = ax.bar(x, np.zeros(n), color=_UNANIMOUS)  # each bar's height and look: set_item_agreement
    notes = [
        ax.text(xi, 0.02, "< 2\nratings", ha="center", va="bottom", fontsize=8, color=OKABE_ITO["grey"])
        for xi in x
    ]
    mean = ax.axhline(0, color=OKABE_ITO["black"], ls="--", lw=1.5, label="mean $P_a$")
    handles = [
        mean,
        Patch(facecolor=_UNANIMOUS, label="all raters agree"),
        Patch(facecolor=_SPLIT, hatch="//", edgecolor="white", label="raters split"),
    ]
    ax.set_xticks(x, names, fontsize=9 if n <= 30 else 6)
    ax.set_ylim(0, 1.15)
    ax.set_xlabel("item")
    ax.set_ylabel("$P_i$ (share of agreeing rater pairs)")
    ax.legend(
        handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=3, fontsize=9, frameon=False
    )
    ax.iaa_items = (list(bars), notes, mean, names, kappa)
    set_item_agreement(ax, result)
    return fig


def set_item_agreement(ax: Any, result: FleissResult) -> list:
    """Show ``result``'s P_i on the bars :func:`item_agreement_bars` drew on ``ax`` (the same items): each
    bar's height and look, the items without P_i, the mean line, the title, the legend's P_a and the
    figure's text alternative (Fleiss' kappa in the title and the text only if the figure was drawn with
    ``kappa=True``); return the artists that changed (an explorer redraws only these over the rest, kept)."""
    bars, notes, mean, names, with_kappa = ax.iaa_items
    p_i = np.asarray(result.p_i, dtype=float)
    defined = ~np.isnan(p_i)
    unanimous = defined & (p_i == 1.0)
    split = defined & ~unanimous
    for bar, note, value, agree, apart in zip(bars, notes, p_i, unanimous, split, strict=True):
        bar.set_height(value if apart or agree else 0.0)
        bar.set_visible(bool(apart or agree))
        bar.set_facecolor(_SPLIT if apart else _UNANIMOUS)
        bar.set_edgecolor("white" if apart else "none")
        bar.set_hatch("//" if apart else None)
        note.set_visible(not (apart or agree))
    mean.set_ydata([result.p_a, result.p_a])
    label = f"mean $P_a$ = {fmt(result.exact.p_a)}"
    mean.set_label(label)
    title = "Agreement on each item, $P_i$"
    if with_kappa:
        title += f": Fleiss' kappa = {fmt(result)}\n(chance: {chance_rule(result)})"
    ax.set_title(title, fontsize=11)
    legend = ax.get_legend()
    if legend is not None:
        legend.get_texts()[0].set_text(label)
    ends = _extremes(p_i, [_named(name, "item") for name in names])
    lowest = f", the lowest {ends[1][1]} at {fmt(ends[1][0])}" if ends and ends[1][0] < 1 else ""
    ax.figure.iaa_alt = (
        f"P_i of {len(p_i)} items: all raters agree on {int(unanimous.sum())} (P_i = 1), split on "
        f"{int(split.sum())}{lowest}; mean P_a {fmt(result.exact.p_a)}"
        + (f", Fleiss' kappa {fmt(result)}." if with_kappa else ".")
    )
    return [*bars, *notes, mean, ax.title, *([legend] if legend is not None else [])]


# ============================================================== Krippendorff
_WHICH = {
    "coincidences": ("coincidences", "Coincidence matrix o_ck ({n} pairable values)"),
    "pair_counts": ("pair_counts", "Ordered pairs within units, unweighted ({n} pairs)"),
    "expected": ("expected", "Expected coincidences e_ck ({n} pairable values)"),
}


@options(which=tuple(_WHICH))
def coincidence_heatmap(result: AlphaResult, which: str = "coincidences", ax: Any = None) -> Figure:
    """The coincidence matrix of Krippendorff's alpha (or the raw pair counts, or the expected matrix).

    Parameters
    ----------
    result : AlphaResult
    which : {"coincidences", "pair_counts", "expected"}
        ``"coincidences"``: pairs weighted by 1/(m_u - 1) (sums to n);
        ``"pair_counts"``: every ordered pair counted once, as the worked
        example does by hand; ``"expected"``: e_ck under chance.

    Raises
    ------
    AgreementError
        For any other ``which``.
    """
    check_type("coincidence_heatmap", result, AlphaResult)
    fig, ax = _figure(ax)
    k = len(result.categories)
    im = _heatmap(ax, np.zeros((k, k)), _texts(result.categories), [[""] * k for _ in range(k)])
    bar = fig.colorbar(im, ax=ax, label="pairs" if which == "pair_counts" else "weighted pairs", shrink=0.8)
    if which == "pair_counts":
        bar.locator = MaxNLocator(integer=True)
    ax.set_xlabel("second value of the pair")
    ax.set_ylabel("first value of the pair")
    ax.iaa_heat = (im, list(ax.texts), bar, which)
    set_coincidences(ax, result)
    return fig


def set_coincidences(ax: Any, result: AlphaResult) -> list:
    """Show ``result`` (the same categories) on the heatmap :func:`coincidence_heatmap` drew on ``ax``:
    the cells, their numbers and colours, the colour scale, the title and the figure's text alternative;
    return the artists that changed (an explorer redraws only these)."""
    im, texts, bar, which = ax.iaa_heat
    attr, title = _WHICH[which]
    matrix = np.asarray(getattr(result, attr), dtype=float)
    if which == "expected":
        cells = [[fmt(v, 2) for v in row] for row in matrix]
    else:  # counts, exact (a coincidence is a count over m_u - 1)
        counts = result.exact.coincidences if which == "coincidences" else matrix
        cells = [[_cell_label(v) for v in row] for row in counts]
    _set_heat(im, texts, matrix, cells)
    total = int(matrix.sum()) if which == "pair_counts" else result.n
    ax.set_title(title.format(n=total).replace("o_ck", "$o_{ck}$").replace("e_ck", "$e_{ck}$"))
    cats = result.categories
    off = np.where(np.eye(len(matrix), dtype=bool), -np.inf, matrix)
    i, j = np.unravel_index(np.argmax(off), off.shape) if off.size else (0, 0)
    exact = result.exact.coincidences if which == "coincidences" else matrix
    same = _cell_label(sum(exact[c][c] for c in range(len(cats))))
    kind = {"coincidences": "Coincidence matrix", "pair_counts": "Unweighted pair counts"}.get(
        which, "Expected coincidences"
    )
    ax.figure.iaa_alt = (
        f"{kind} of {len(cats)} values: {same} of "
        f"{_cell_label(sum(sum(row) for row in exact))} on the diagonal (the same value twice)"
        + (
            f"; the largest cell off it: {_named(cats[i])} with {_named(cats[j])}, {cells[i][j]}"
            if off.size > 1
            else ""
        )
        + "."
    )
    # over the image, as a whole draw layers them: the diagonal's outlines, the grid (with the axes), the
    # cells
    return [im, *ax.patches, ax.xaxis, ax.yaxis, *texts, ax.title, bar.ax]


# ======================================================= several coefficients
def _draw_bands(ax: Any, low: float, top: float = 1.0) -> None:
    """The Landis and Koch bands (``metrics.BANDS``) from ``low`` to ``top``, shaded, each named at the right;
    a line at 0; the y axis labelled "coefficient"."""
    ax.axhline(0, color=OKABE_ITO["black"], lw=0.8, zorder=1)
    ax.set_ylabel("coefficient")
    for (lo, hi, band), shade in zip(BANDS, _BAND_SHADES):
        lo_v, hi_v = max(lo, low), min(hi, top)
        if hi_v <= lo_v:
            continue
        ax.axhspan(lo_v, hi_v, color=shade, zorder=0)
        ax.text(
            1.01,
            (lo_v + hi_v) / 2,
            band,
            transform=ax.get_yaxis_transform(),
            va="center",
            ha="left",
            fontsize=9,
            color="#444444",
        )


def bands_floor(values: Any) -> float:
    """The lower end of :func:`coefficients_with_bands`' y axis: 0, or 0.1 below the lowest value if lower."""
    return _floor(np.asarray(values, dtype=float), 0.1)


def set_bar_values(ax: Any, values: Any, texts: Any) -> list:
    """Move the bars of :func:`coefficients_with_bands` on ``ax`` to ``values`` (NaN: no bar) and write
    ``texts`` on them; return the bars and texts (an explorer redraws only these, see ``_blit``)."""
    bars, labels = ax.iaa_bars
    for bar, label, value, text in zip(bars, labels, values, texts, strict=True):
        height = 0.0 if np.isnan(value) else float(value)
        bar.set_height(height)
        label.set_y(max(height, 0) + 0.02)  # just above the bar (above 0 for a bar below 0)
        label.set_text(text)
    return [*bars, *labels]


def coefficients_with_bands(
    values: Mapping[str, Any], title: str = "Agreement coefficients", ax: Any = None
) -> Figure:
    """Coefficients as bars over the Landis and Koch bands (``metrics.BANDS``).

    Parameters
    ----------
    values : mapping of str to float or result object
        Bar label -> coefficient (``float(result)`` is used for a result).
    title : str
    """
    if not isinstance(values, Mapping):
        raise AgreementError(f"values must be a mapping of name -> coefficient, got {type(values).__name__}")
    check_text("title", title)
    _too_many("coefficients", len(values), MAX_BARS, "draw fewer")
    nums = []
    for key, v in values.items():
        try:
            if isinstance(v, (bool, str, bytes)):
                raise TypeError
            nums.append(float("nan") if v is None else float(v))
        except (TypeError, ValueError, OverflowError):
            raise AgreementError(f"values[{key!r}] must be a number or a result, got {v!r}") from None
    fig, ax = _figure(ax)
    names = _texts(values)
    nums = np.array(nums, dtype=float)
    low = bands_floor(nums)
    _draw_bands(ax, low)
    x = np.arange(len(names))
    colors = _category_colors(len(names) + 2)[2:]  # from the third colour on
    bars = ax.bar(x, np.zeros(len(x)), color=colors, width=0.55, zorder=2, edgecolor="black", lw=0.6)
    texts = [ax.text(i, 0, "", ha="center", va="bottom", fontsize=11) for i in x]
    ax.iaa_bars = (list(bars), texts)
    set_bar_values(ax, nums, [fmt(v, undefined="n/a") for v in values.values()])
    ax.set_xticks(x, names, fontsize=9)
    ax.set_ylim(low, 1.0)
    ax.set_xlabel("coefficient and data")
    ax.set_title(mpl_escape(title))
    fig.iaa_alt = (
        f'"{" ".join(title.split())}", bars over the Landis and Koch bands: '
        + "; ".join(
            f"{' '.join(str(name).split())} {fmt(v, undefined='undefined')}"
            + ("" if np.isnan(num) else f" ({interpret(num)})")
            for name, v, num in zip(values, values.values(), nums)
        )
        + "."
    )
    return fig


# ============================================================ the family
_OBSERVED = OKABE_ITO["bluish green"]
_CHANCE = OKABE_ITO["orange"]


def alt_text(fig: Figure) -> str:
    """The text alternative of a figure: what it shows, with its numbers.

    Every figure a lesson or the report shows writes its finding when it is drawn (which
    rater agrees least, by how much alpha rises without them; the pair of labels most
    confused...); a notebook stores it as the figure's plain text. For any other figure,
    its titles and axis labels.
    """
    check_type("alt_text", fig, Figure)
    own = getattr(fig, "iaa_alt", None)
    if own:
        return own
    parts = []
    for ax in fig.axes:
        bits = [ax.get_title() or "chart"]
        bits += [
            f"{side}: {label}"
            for side, label in (("across", ax.get_xlabel()), ("up", ax.get_ylabel()))
            if label
        ]
        parts.append("; ".join(" ".join(b.split()) for b in bits))
    return "Figure: " + ". ".join(parts) + "."


def _family_of(family: Any, weights: Any, level: str, function: str) -> dict[str, Any]:
    """The results to draw: a mapping name -> result as given, or :func:`iaa_teach.agreement_family` of a
    table."""
    if isinstance(family, Mapping):
        if not family:
            raise AgreementError(f"{function} needs at least one coefficient, got an empty mapping")
        for key, res in family.items():
            if not callable(getattr(res, "ci", None)) or not hasattr(res, "exact_value"):
                raise AgreementError(
                    f"{function}: family[{key!r}] must be a result of a coefficient (with ci()), "
                    f"got {type(res).__name__}"
                )
        _too_many("coefficients", len(family), MAX_BARS, "draw fewer")
        return dict(family)
    return agreement_family(family, weights=weights, level=level)


def _wrapped(name: str, width: int = 10) -> str:
    """A name on lines of about ``width`` characters, broken at spaces and after hyphens."""
    words = name.replace("-", "- ").split(" ")
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + len(word) > width:
            lines.append("")
        lines[-1] += word if not lines[-1] or lines[-1].endswith("-") else " " + word
    return "\n".join(line.replace("- ", "-") for line in lines)


def family_chart(
    family: Any,
    weights: Any = None,
    level: str = "nominal",
    confidence: float = 0.95,
    title: str | None = None,
    ax: Any = None,
) -> Figure:
    """Every coefficient of the family on one chart, each with its confidence interval, over the bands.

    Parameters
    ----------
    family : Ratings, table, mapping of str to result, or list of FamilyInterval
        A table: its :func:`iaa_teach.agreement_family` (percent
        agreement, S, pi or Fleiss' kappa, Cohen's or Conger's kappa, AC1,
        alpha) is drawn. A mapping: name -> result of any coefficient with
        ``ci()`` (e.g. ``agreement_family(ratings)`` itself). The rows of
        :func:`iaa_teach.family_intervals`: their own intervals (analytic
        or bootstrap), and ``confidence`` is theirs.
    weights, level
        Passed to :func:`iaa_teach.agreement_family` for a table.
    confidence : float
        Coverage of each interval, ``result.ci(confidence)`` (Gwet's
        standard errors; Cohen's: Fleiss, Cohen and Everitt's).
    title : str, optional
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
        Each coefficient a bar with its interval as a capped line, its
        value written above (rounded half up from the exact value); an
        undefined coefficient has no bar and reads "undefined". The text
        alternative (:func:`alt_text`) lists every value and interval.
    """
    check_text("title", title, none=True)
    confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
    method = ""
    if (
        isinstance(family, (list, tuple))
        and family
        and all(isinstance(row, FamilyInterval) for row in family)
    ):
        _too_many("coefficients", len(family), MAX_BARS, "draw fewer")  # the rows of family_intervals
        results = {row.name: row.result for row in family}
        intervals = np.array([(row.low, row.high) for row in family], dtype=float).reshape(-1, 2)
        confidence = family[0].confidence
        method = f"{family[0].method} "
    else:
        results = _family_of(family, weights, level, "family_chart")
        intervals = np.array([res.ci(confidence) for res in results.values()], dtype=float).reshape(-1, 2)
    fig, ax = _figure(ax)
    values = np.array([float(res) for res in results.values()])
    floor = max(-1.0, _floor(np.concatenate([values, intervals[:, 0]]), 0.1))
    _draw_bands(ax, floor)
    x = np.arange(len(results))
    defined = ~np.isnan(values)
    ax.bar(
        x[defined], values[defined], color=_BAR, width=0.55, zorder=2, edgecolor="black", lw=0.6, alpha=0.85
    )
    has_ci = defined & np.isfinite(intervals).all(axis=1)
    if has_ci.any():
        v = values[has_ci]
        ax.errorbar(
            x[has_ci],
            v,
            yerr=np.vstack([v - intervals[has_ci, 0], intervals[has_ci, 1] - v]),
            fmt="none",
            ecolor="black",
            elinewidth=1.5,
            capsize=5,
            zorder=4,
        )
    share = format_number(confidence, ".0%")
    described = []
    for xi, (name, res), (lo, hi) in zip(x, results.items(), intervals):
        if np.isnan(float(res)):
            _undefined(ax, xi)
            described.append(f"{name} undefined")
            continue
        top = hi if np.isfinite(hi) else max(float(res), 0.0)
        ax.text(xi, top + 0.02, fmt(res), ha="center", va="bottom", fontsize=10, fontweight="bold", zorder=5)
        described.append(
            f"{name} {fmt(res)}"
            + (f" ({share} interval {fmt(lo)} to {fmt(hi)})" if np.isfinite(hi) else " (no interval)")
        )
    ax.set_xticks(x, [_wrapped(_mpl_text(n, None)) for n in results], fontsize=8)
    ax.set_ylim(floor, 1.06 + 0.06 * (1 - floor))
    ax.set_xlabel(f"coefficient, with its {share} {method}confidence interval")
    ax.set_title(
        _mpl_text(title, None) if title else r"One table, the whole family: $(P_a - P_e)\,/\,(1 - P_e)$",
        fontsize=11,
    )
    fig.iaa_alt = (
        f"Bar chart of {len(results)} agreement coefficients over the Landis and Koch bands, each with its "
        f"{share} {method}confidence interval: " + "; ".join(described) + "."
    )
    return fig


def _chance_of(res: Any) -> tuple[Any, str] | None:
    """A result's chance agreement (exact when it has one) and its model in a few words; None for P_a."""
    if isinstance(res, PercentAgreementResult):
        return None
    if isinstance(res, AlphaResult):
        d_e = res.exact.d_e
        return (None if d_e is None else 1 - d_e), "$1 - D_e$"
    if isinstance(res, BrennanPredigerResult):
        return res.exact.p_e, "$1/q$" if res.weights is None else "uniform"
    if isinstance(res, GwetResult):
        return res.exact.p_e, "$p_j (1 - p_j)$"
    if isinstance(res, (CohenResult, CongerResult)):
        return res.exact.p_e, "own $p_{rj}$\nper rater"
    if isinstance(res, FleissResult):
        return res.exact.p_e, "pooled $p_j$" if res.chance == "pooled" else "mean $p_j$"
    if isinstance(res, ScottResult):
        return res.exact.p_e, "shared $p_j$"
    raise AgreementError(f"chance_chart: no chance agreement for a {type(res).__name__}")


def chance_chart(
    family: Any, weights: Any = None, level: str = "nominal", title: str | None = None, ax: Any = None
) -> Figure:
    """Observed agreement P_a beside each coefficient's chance agreement P_e: one table, different models of
    chance.

    Parameters
    ----------
    family : Ratings, table, or mapping of str to result
        As for :func:`family_chart`. P_a is the percent agreement result's
        (else the first result's ``p_a``, or ``p_o``); every other result
        gives its P_e (Krippendorff's alpha: 1 - D_e, its expected agreement).
    weights, level
        Passed to :func:`iaa_teach.agreement_family` for a table.
    title : str, optional
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
        Bars labelled with their values (rounded half up from the exact
        values), P_a also drawn as a dashed line across: the gap between it
        and a bar is that coefficient's numerator P_a - P_e. An undefined
        P_e has no bar and reads "undefined".
    """
    check_text("title", title, none=True)
    results = _family_of(family, weights, level, "chance_chart")
    observed = next((res for res in results.values() if isinstance(res, PercentAgreementResult)), None)
    if observed is not None:
        p_a = observed.exact.p_a
    else:
        first = next(iter(results.values()))
        p_a = next((getattr(first.exact, k) for k in ("p_a", "p_o") if hasattr(first, k)), None)
        if p_a is None:
            raise AgreementError(
                "chance_chart needs percent agreement (or a result with P_a) among the coefficients"
            )
    bars = [("$P_a$\nobserved", p_a, _OBSERVED, "observed agreement P_a")]
    for name, res in results.items():
        chance = _chance_of(res)
        if chance is not None:
            bars.append(
                (f"{_wrapped(_mpl_text(name, None))}\n{chance[1]}", chance[0], _CHANCE, f"P_e of {name}")
            )
    fig, ax = _figure(ax)
    x = np.arange(len(bars))
    described = []
    for xi, (label, value, color, words) in zip(x, bars):
        if value is None:
            _undefined(ax, xi)
        else:
            ax.bar(
                [xi],
                [float(value)],
                color=color,
                width=0.6,
                edgecolor="black",
                lw=0.6,
                zorder=2,
                hatch=None if color == _OBSERVED else "//",
            )
            ax.text(xi, float(value) + 0.02, fmt(value), ha="center", va="bottom", fontsize=10, zorder=3)
        described.append(f"{words} {fmt(value)}")
    ax.axhline(float(p_a), color=OKABE_ITO["black"], ls="--", lw=1.2, zorder=1)
    ax.text(
        1.0,
        float(p_a),
        f" $P_a$ = {fmt(p_a)}",
        transform=ax.get_yaxis_transform(),
        va="center",
        ha="left",
        fontsize=9,
    )
    ax.set_xticks(x, [label for label, *_ in bars], fontsize=8)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("agreement (share of pairs)")
    ax.set_xlabel("observed agreement, then each coefficient's chance agreement $P_e$")
    ax.set_title(
        _mpl_text(title, None) if title else "One observed agreement, a chance agreement for each model",
        fontsize=11,
    )
    fig.iaa_alt = (
        "Bar chart of the observed agreement beside each coefficient's chance agreement: "
        + "; ".join(described)
        + "."
    )
    return fig


# ================================================================= coverage
def _label_handles(r: Any, colors: list[str], **gap: Any) -> list[Patch]:
    """Legend entries: a patch for each category (up to :data:`MAX_CELL_TEXT`), then a white one (``gap``) for
    gaps."""
    return [
        Patch(facecolor=colors[j], label=mpl_escape(c)) for j, c in enumerate(r.categories[:MAX_CELL_TEXT])
    ] + [Patch(facecolor="white", edgecolor="#BBBBBB", **gap)]


def _labels_note(k: int) -> str:
    """What a legend of :func:`_label_handles` leaves out for ``k`` categories: nothing up to
    :data:`MAX_CELL_TEXT`; else how many it lists and, past 20, that the colours repeat."""
    if k <= MAX_CELL_TEXT:
        return ""
    return ", ".join(filter(None, [f"the first {MAX_CELL_TEXT} of {k}", _colours_repeat(k)]))


def coverage_chart(ratings: Any, ax: Any = None) -> Figure:
    """Who labelled which item: items across, raters down, each label coloured, gaps left blank.

    The x tick labels give each item's number of ratings, its n_i. The title
    states no count: a lesson asks the student to count the labels.
    """
    r = as_ratings(ratings)
    _too_many(
        "cells (items x raters)", r.n_items * r.n_raters, MAX_CELLS["chart"], "draw coverage_map(ratings)"
    )
    fig, ax = _figure(ax)
    n_items, n_raters = r.shape
    cells = {}  # (item, rater) -> its square and its label (set_coverage gives them their look)
    for i in range(n_items):
        for j in range(n_raters):
            square = ax.add_patch(Rectangle((i - 0.45, j - 0.45), 0.9, 0.9))
            cells[i, j] = (square, ax.text(i, j, "", ha="center", va="center", fontsize=10))
    ax.iaa_cells = cells
    set_coverage(ax, r)
    ax.set_xlim(-0.5, n_items - 0.5)
    ax.set_ylim(n_raters - 0.5, -0.5)
    ax.set_yticks(range(n_raters), _texts(r.raters))
    ax.tick_params(length=0)
    ax.set_aspect("equal" if n_items <= 20 else "auto")
    ax.spines[:].set_visible(False)
    ax.set_xlabel("item ($n_i$ = how many raters labelled it)")
    ax.set_ylabel("rater")
    ax.set_title("Who labelled which item")
    ax.legend(
        handles=_label_handles(r, _category_colors(r.n_categories), hatch="..", label="not labelled"),
        loc="center left",
        bbox_to_anchor=(1.01, 0.5),
        fontsize=9,
        frameon=False,
        title="label" + (f"\n({_labels_note(r.n_categories)})" if _labels_note(r.n_categories) else ""),
        title_fontsize=9,
    )
    return fig


def set_coverage(ax: Any, ratings: Any, raters: Any = None) -> list:
    """Show ``ratings`` (the table :func:`coverage_chart` drew on ``ax``, its cells changed) in the chart:
    the cells of ``raters`` (indices; default every rater), each item's n_i under it, the figure's text
    alternative; return the artists that changed (an explorer redraws only these)."""
    r = as_ratings(ratings)
    codes = r.codes  # -1 where missing
    n_items, n_raters = codes.shape
    colors = _category_colors(r.n_categories)
    moved = []
    for j in range(n_raters) if raters is None else raters:
        for i in range(n_items):
            square, label = ax.iaa_cells[i, j]
            c = codes[i, j]
            if c < 0:
                square.set(facecolor="white", edgecolor="#BBBBBB", hatch="..", lw=0.8)
                label.set_text("")
            else:
                square.set(facecolor=colors[c], edgecolor="none", hatch=None, lw=0.8)
                label.set_text(mpl_escape(r.categories[c]))
                label.set_color(_text_on(colors[c]))
            moved += [square, label]
    per_item = (codes >= 0).sum(axis=1)
    ax.set_xticks(
        range(n_items),
        [f"{mpl_escape(it)}\n$n_i$={m}" for it, m in zip(r.items, per_item)],
        fontsize=9 if n_items <= 20 else 6,
    )
    per_rater = (codes >= 0).sum(axis=0)
    few = int(np.argmin(per_rater))
    blank = int((codes < 0).sum())
    ax.figure.iaa_alt = f"Who labelled which item, {n_raters} raters by {n_items} items: " + (
        f"{blank} of {codes.size} cells blank (not labelled); items have {int(per_item.min())} to "
        f"{int(per_item.max())} labels; fewest by {_named(r.raters[few], 'rater')} ({int(per_rater[few])} of "
        f"{_count(n_items, 'item')})."
        if blank
        else "no cell blank, every rater labelled every item."
    )
    return [*moved, ax.xaxis]


# --- figures for the widgets ---
# The explorers in iaa_teach.widgets draw into axes of their own (``ax=``, no pyplot
# state) and render PNG bytes headless. Like everything here, these functions draw
# numbers computed elsewhere and never compute a coefficient.

#: Line styles of the paradox curves, in the order of the curves given: colour,
#: line style, width, marker. A curve that can lie on top of another (alpha on
#: kappa) is drawn as hollow markers over a thin line, so both stay visible.
PARADOX_STYLES = (
    (OKABE_ITO["black"], "-", 2.0, None),
    (OKABE_ITO["blue"], "-", 3.5, None),
    (OKABE_ITO["vermillion"], ":", 1.5, "o"),
    (OKABE_ITO["bluish green"], "-.", 2.0, "s"),
    (OKABE_ITO["reddish purple"], "--", 2.0, "^"),
    (OKABE_ITO["orange"], (0, (5, 1, 1, 1)), 2.0, "D"),
)


def paradox_curve(
    prevalence: Any,
    curves: Mapping[str, Any],
    current: float | None = None,
    current_values: Any = None,
    ax: Any = None,
) -> Figure:
    """Coefficients against prevalence, the current setting marked: the kappa paradox.

    Each curve has its own colour, line style and marker (:data:`PARADOX_STYLES`),
    so curves that coincide (Krippendorff's alpha and Fleiss' kappa on
    complete data differ by a factor (n - 1)/n only) stay apart to the eye.
    The legend sits below the axes, clear of the curves.

    Parameters
    ----------
    prevalence : array, shape (n,)
        Share of items whose true category is category 1, per point.
    curves : mapping of str to array, shape (n,)
        Legend label -> values at each prevalence (e.g. P_a, kappa, alpha).
    current : float, optional
        The prevalence chosen now, drawn as a vertical line.
    current_values : sequence of float, optional
        The values at ``current``, one per curve, drawn as dots.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not isinstance(curves, Mapping):
        raise AgreementError(f"curves must be a mapping of name -> values, got {type(curves).__name__}")
    try:
        x = np.asarray(prevalence, dtype=float)
        ys = {name: np.asarray(v, dtype=float) for name, v in curves.items()}
        None if current is None else float(current)  # only checked: the marker needs no number here
        dots = None if current_values is None else np.asarray(current_values, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError("prevalence, curves, current and current_values must be numbers") from None
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all() or any(y.shape != x.shape for y in ys.values()):
        raise AgreementError(
            f"prevalence must be finite numbers, shape (n,), and every curve the same shape; got "
            f"{x.shape} and {[y.shape for y in ys.values()]}"
        )
    if dots is not None and dots.shape != (len(ys),):
        raise AgreementError(
            f"current_values must give one value per curve ({len(ys)}), got shape {dots.shape}"
        )
    fig, ax = _figure(ax)
    for i, (name, values) in enumerate(curves.items()):
        color, style, width, marker = PARADOX_STYLES[i % len(PARADOX_STYLES)]
        ax.plot(
            x,
            values,
            linestyle=style,
            color=color,
            lw=width,
            label=mpl_escape(name),
            marker=marker,
            markevery=max(1, len(x) // 12),
            ms=7,
            mfc="none" if marker == "o" else color,
            mew=1.5,
            zorder=3 + i,
        )
        if current is not None and current_values is not None:
            ax.plot([current], [current_values[i]], "o", color=color, ms=9, zorder=10)
    if current is not None:
        ax.axvline(current, color=OKABE_ITO["grey"], lw=1)
    ax.axhline(0, color=OKABE_ITO["black"], lw=0.8)
    ax.set_xlim(float(np.min(x)), float(np.max(x)))
    ax.set_ylim(-0.25, 1.02)
    ax.set_xlabel("prevalence of category 1 (share of items)")
    ax.set_ylabel("agreement")
    ax.set_title("Same raters, one category dominating: kappa falls")
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        ncols=min(2, max(1, len(curves))),
        fontsize=10,
        frameon=False,
        handlelength=3,
    )
    return fig


def distance_matrix(
    matrix: Any, categories: Any, title: str = "distance between labels", ax: Any = None
) -> Figure:
    """A k x k matrix of distances or weights between categories, each cell labelled.

    Parameters
    ----------
    matrix : array, shape (k, k)
        E.g. ``AlphaResult.delta`` (squared distances for the level) or
        ``CohenResult.exact.agreement_weights`` (Fractions: written 1/2, 3/4).
    categories : sequence of length k
        Row and column labels, in category order.
    title : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    check_text("title", title)
    try:
        m = np.asarray(matrix, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError("matrix must be a k x k array of numbers") from None
    if isinstance(categories, (str, bytes)) or not hasattr(categories, "__len__"):
        raise AgreementError(f"categories must be a sequence of labels, got {categories!r}")
    if m.ndim != 2 or m.shape != (len(categories), len(categories)) or not np.isfinite(m).all():
        raise AgreementError(
            f"matrix must be finite numbers of shape (k, k) for the {len(categories)} categories, "
            f"got shape {m.shape}"
        )
    fig, ax = _figure(ax)
    k = len(categories)
    im = _heatmap(ax, np.zeros((k, k)), _texts(categories), [[""] * k] * k, highlight_diagonal=False)
    ax.set_xlabel("second label")
    ax.set_ylabel("first label")
    ax.iaa_matrix = (im, list(ax.texts))
    set_distance_matrix(ax, m, title)
    return fig


def set_distance_matrix(ax: Any, matrix: Any, title: str) -> list:
    """Show ``matrix`` (the same k) and ``title`` on the matrix :func:`distance_matrix` drew on ``ax``: its
    cells, their numbers and colours, the title; return the artists that changed (an explorer redraws
    only these)."""
    im, texts = ax.iaa_matrix
    m = np.asarray(matrix, dtype=float)
    exact = np.asarray(matrix, dtype=object).reshape(m.shape)  # Fractions kept: written 1/2, 3/4
    _set_heat(im, texts, m, [[_cell_label(v) for v in row] for row in exact])
    ax.set_title(mpl_escape(title), fontsize=11)
    return [im, ax.xaxis, ax.yaxis, *texts, ax.title]  # the grid (with the axes) over the image


def coverage_map(ratings: Any, ax: Any = None) -> Figure:
    """Who labelled what, as one image: fast for any size (the widgets' coverage chart).

    Raters down, items across, each cell coloured by its label and left
    white where missing. :func:`coverage_chart` draws the same with a
    patch and a text per cell, which reads better for a small table.
    """
    from matplotlib.colors import ListedColormap

    r = as_ratings(ratings)
    _too_many(
        "cells (items x raters)",
        r.n_items * r.n_raters,
        MAX_CELLS["map"],
        "draw a subset: ratings.subset(items=...)",
    )
    fig, ax = _figure(ax)
    k = r.n_categories
    colors = _category_colors(k) + ["#FFFFFF"]
    codes = np.where(r.missing, k, r.codes).T
    ax.imshow(
        codes, cmap=ListedColormap(colors), vmin=-0.5, vmax=k + 0.5, aspect="auto", interpolation="nearest"
    )
    if r.n_raters <= 60:
        ax.set_yticks(range(r.n_raters), _texts(r.raters))
    if r.n_items <= 20:
        ax.set_xticks(range(r.n_items), _texts(r.items))
    ax.set_xlabel("item")
    ax.set_ylabel("rater")
    ax.set_title(f"{r.n_ratings} labels, {int(r.missing.sum())} missing (white)", fontsize=11)
    handles = _label_handles(r, colors, label="missing")
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.18),
        ncols=min(len(handles), 6),  # in rows: one row of 16 is wider than the figure
        fontsize=9,
        frameon=False,
        title=_labels_note(k) or None,
        title_fontsize=9,
    )
    return fig


def kappa_matrix(result: PairwiseCohenResult, ax: Any = None) -> Figure:
    """Cohen's kappa of every pair of raters as a raters x raters heatmap.

    For many raters, where :func:`pairwise_bars` would need a bar per pair.
    Cells are labelled up to 6 raters; the diagonal is left blank.
    """
    check_type("kappa_matrix", result, PairwiseCohenResult)
    fig, ax = _figure(ax)
    m = np.asarray(result.matrix, dtype=float)
    names = _texts(result.raters)
    im = _kappa_image(
        ax, m, (lambda i, j, v: fmt(result[result.raters[i], result.raters[j]])) if len(names) <= 6 else None
    )
    if len(names) <= 60:
        ax.set_xticks(range(len(names)), names)
        ax.set_yticks(range(len(names)), names)
    fig.colorbar(im, ax=ax, label="Cohen's kappa", shrink=0.8)
    ax.set_title(f"Cohen's kappa for every pair of raters (mean {fmt(result)})", fontsize=11)
    return fig


# --- figures of the diagnostic report ---
# Each takes a Diagnosis (iaa_teach.diagnose) and draws its tables; nothing here
# ranks, counts or computes a coefficient. Text from the data (rater, item and
# category names) is escaped for matplotlib, so a "$" never starts mathtext.

#: Size (inches) of the report's figures (at :data:`DPI`).
REPORT_FIGSIZE = (7.2, 4.8)
_OUT_OF_STEP = OKABE_ITO["vermillion"]
_IN_STEP = OKABE_ITO["blue"]
_MAX_NAME = 22  # characters of a name shown on an axis
_MAX_CELL_TEXT = 12  # write each cell's value up to this many rows


def legend_in_rows(
    fig: Figure,
    handles: Sequence,
    labels: Sequence[str] | Callable[[int], Sequence[str]],
    max_rows: int = 4,
    max_cols: int | None = None,
    pad: float = 0.04,
    fontsize: float = 8,
    **style: Any,
) -> Any:
    """A legend under ``fig``'s charts that lies within its width, ``pad`` inches from each edge, at any
    number of entries and any length of label; the figure keeps its size (its constrained layout makes
    room for the rows). As many columns as the whole labels fit in (at most ``max_cols``), down to those
    of ``max_rows`` rows; beyond that, ``max_rows`` rows with the labels shortened, an ellipsis ending
    each (the longest shortening that fits and keeps them apart; one column when nothing else fits).
    ``labels``: the labels, or for labels made of names, a function of a number of characters giving
    them with each name cut to it (:func:`shortened`). ``fontsize`` in points (the explorers pass their
    projector minimum). Returns the legend."""
    cut = labels if callable(labels) else (lambda limit: [shortened(label, limit) for label in labels])
    whole = list(cut(10**6))
    if not hasattr(fig.canvas, "get_renderer"):  # a closed pyplot figure: measured as its PNG is drawn
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    room = fig.bbox.width - 2 * pad * fig.dpi
    n = len(handles)
    fewest = math.ceil(n / max_rows)  # the columns of max_rows rows
    longest = max(len(label) for label in whole)
    tries = [(ncols, whole) for ncols in range(min(n, max_cols or n), fewest - 1, -1)]
    shorter = [list(cut(limit)) for limit in range(longest - 1, 1, -1)]
    tries += [(fewest, names) for names in shorter if len(set(names)) == len(set(whole))]
    tries += [(fewest, names) for names in shorter] + [(1, shorter[-1] if shorter else whole)]

    def legend(ncols: int, names: Sequence[str]) -> Any:
        return fig.legend(
            handles,
            names,
            loc="outside lower center",
            ncols=ncols,
            frameon=False,
            fontsize=fontsize,
            handlelength=1.2,
            columnspacing=1.0,
            **style,
        )

    tried = set()
    for ncols, names in tries:
        if (ncols, tuple(names)) not in tried:
            tried.add((ncols, tuple(names)))
            drawn = legend(ncols, names)
            if drawn.get_window_extent(renderer).width <= room:
                return drawn
            drawn.remove()
    return legend(*tries[-1])  # (a figure too narrow for two characters a label)


def shortened(label: str, limit: int) -> str:
    """``label`` cut to ``limit`` characters, the last an ellipsis (never ending in half of an escaped
    ``\\$``)."""
    return label if len(label) <= limit else label[: limit - 1].rstrip(" \\") + "…"


def _mpl_text(value: Any, limit: int | None = _MAX_NAME) -> str:
    """Data as matplotlib text: one line, cut to ``limit`` characters, ``$`` escaped (:func:`mpl_escape`)."""
    text = " ".join(str(value).split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return mpl_escape(text)


def pair_label(row: Any, limit: int = 20) -> str:
    """A confused pair of :meth:`Diagnosis.confused_pairs` in a legend: its names, each cut to ``limit``
    characters, and its ratio."""
    return (
        f"{_mpl_text(row['first'], limit)} / {_mpl_text(row['second'], limit)}: o/e = {fmt(row['ratio'], 2)}"
    )


def cluster_order(distance: Any) -> np.ndarray:
    """Leaf order of an average-linkage (UPGMA) clustering: similar rows end up next to each other.

    The usual ordering of a heatmap's rows (Sokal and Michener 1958):
    ``scipy.cluster.hierarchy.leaves_list(linkage(d, "average"))``. Every
    row starts as a cluster of its own; the two closest clusters merge, the
    merged cluster's distance to each other cluster is the mean of its
    members' distances; the leaves of the tree are read left to right, the
    earlier-made (or single) cluster of each merge first. Equal distances
    are settled by scipy's own rule.

    Parameters
    ----------
    distance : array, shape (n, n)
        Symmetric, finite distances (the diagonal is ignored).

    Returns
    -------
    ndarray of int, shape (n,)
        The rows in leaf order.

    Examples
    --------
    >>> d = [[0, 9, 1, 8], [9, 0, 7, 2], [1, 7, 0, 9], [8, 2, 9, 0]]
    >>> cluster_order(d).tolist()  # 0 with 2, 1 with 3
    [0, 2, 1, 3]
    """
    try:
        d = np.array(distance, dtype=float)
    except (TypeError, ValueError):
        raise AgreementError(
            f"distance must be a finite square matrix of numbers, got {type(distance).__name__}"
        ) from None
    n = len(d) if d.ndim else 0
    if d.shape != (n, n) or not np.isfinite(d).all():
        raise AgreementError(f"distance must be a finite square matrix, got shape {d.shape}")
    if n <= 2:
        return np.arange(n)
    # on first use: only the heatmap needs scipy (the report's import time stays pandas' and numpy's)
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import squareform

    y = squareform((d + d.T) / 2, checks=False)
    # scipy refuses negative distances; adding one number to every distance changes no merge
    return leaves_list(linkage(y - min(y.min(), 0.0), "average")).astype(np.intp)


def rater_agreement_heatmap(report: Any, marked: int = 2, ax: Any = None, names: int = 40) -> Figure:
    """Cohen's kappa of every pair of raters, rows and columns ordered by a clustering of the raters.

    Raters who agree with each other sit next to each other
    (:func:`cluster_order` on 1 - kappa; an undefined kappa counts as the
    largest distance, 2). The first ``marked`` raters of the rater ranking
    with a rise above 0 are highlighted (bold, vermillion). Cells are
    written up to 12 raters; above 15 raters the figure is square, and above
    ``names`` raters every n-th name is written so that ``names`` at most are
    (the report's pair table names every pair).

    Parameters
    ----------
    report : Diagnosis
    marked : int
        How many of the least-in-step raters to highlight.
    ax : matplotlib Axes, optional
    names : int
        At most this many rater names on each axis (a narrow figure writes fewer).
    """
    check_diagnosis("rater_agreement_heatmap", report)
    marked, most = check_int("marked", marked, 0), check_int("names", names, 1)
    n = report.ratings.n_raters
    # more than 15 raters: a square figure (a name every 15 px or more up to 40 raters, at 100 %)
    fig, ax = _figure(ax, REPORT_FIGSIZE if n <= 15 else (REPORT_FIGSIZE[0], REPORT_FIGSIZE[0]))
    pairwise = report.pairwise
    m = np.asarray(pairwise.matrix, dtype=float)
    distance = np.where(np.isnan(m), 2.0, 1.0 - m)
    np.fill_diagonal(distance, 0.0)
    order = cluster_order(distance)
    m = m[np.ix_(order, order)]
    names = [_mpl_text(pairwise.raters[j]) for j in order]
    im = _kappa_image(
        ax,
        m,
        (lambda i, j, v: "–" if np.isnan(v) else fmt(v, 2)) if n <= _MAX_CELL_TEXT else None,
        fontsize=9,
    )
    size = 9 if n <= 15 else 8 if n <= 40 else 7
    step = max(1, -(-n // most))  # beyond `names` raters, every step-th name (the table lists them all)
    shown = range(0, n, step)
    ax.set_xticks(shown, [names[i] for i in shown], rotation=90, fontsize=size)
    ax.set_yticks(shown, [names[i] for i in shown], fontsize=size)
    flagged = {
        row["rater"] for row in report.rater_ranking().head(marked) if row["rise"] > 0
    }  # NaN: not above 0
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        for tick, j in zip(labels, order[::step]):
            if pairwise.raters[j] in flagged:
                tick.set_color(_OUT_OF_STEP)
                tick.set_fontweight("bold")
    fig.colorbar(im, ax=ax, label=kappa_label(KAPPA_WEIGHTS[report.level]), shrink=0.85)
    ax.set_title(
        "Who agrees with whom: raters ordered by clustering"
        + (f"\n(highlighted: the {len(flagged)} least in step)" if flagged else ""),
        fontsize=11,
    )
    upper = np.triu_indices(n, 1)
    raw = np.asarray(pairwise.matrix, dtype=float)
    ends = _extremes(
        raw[upper], [f"raters {pairwise.raters[a]} and {pairwise.raters[b]}" for a, b in zip(*upper)]
    )
    fig.iaa_alt = (
        f"Cohen's kappa of every pair of {n} raters, raters who agree placed together: "
        + (
            f"highest {ends[0][1]} {fmt(ends[0][0])}, lowest {ends[1][1]} {fmt(ends[1][0])}"
            if ends
            else "none defined"
        )
        + (
            "; least in step (highlighted): "
            + ", ".join(_named(x, "rater") for x in sorted(flagged, key=str))
            if flagged
            else ""
        )
        + "."
    )
    return fig


def item_disagreement_chart(report: Any, top: int = 10, axes: Any = None) -> Figure:
    """Every item's disagreement, most disputed first, and the top items named with their labels.

    Left: the disagreement of all items in ranking order (a bar each up to
    200 items, a line beyond), the table's ``D_o`` dashed. Right: the
    ``top`` most disputed items, each a bar of its label shares coloured
    by category, with its disagreement written at the end.

    Parameters
    ----------
    report : Diagnosis
    top : int
        How many items to name (at most 30).
    axes : (Axes, Axes), optional
        Where to draw the two charts (one figure's; a narrow figure puts one above the other).
    """
    check_diagnosis("item_disagreement_chart", report)
    top = check_int("top", top, 1, 30)
    if axes is None:
        fig, (left, right) = _figure(None, REPORT_FIGSIZE, ncols=2, width_ratios=(1, 1.5))
    else:
        left, right = (_figure(ax)[1] for ax in axes)
        fig = left.figure
    table = report.item_ranking()
    d = np.asarray(table["disagreement"], dtype=float)
    n = len(d)
    shown = min(top, n)
    rank = np.arange(1, n + 1)
    if n <= 200:
        left.bar(rank, np.nan_to_num(d), width=1.0, color=OKABE_ITO["grey"], edgecolor="white", lw=0.3)
        left.bar(rank[:shown], np.nan_to_num(d[:shown]), width=1.0, color=_SPLIT, edgecolor="white", lw=0.3)
    else:
        left.fill_between(rank, np.nan_to_num(d), step="mid", color=OKABE_ITO["grey"], lw=0)
        left.fill_between(rank[:shown], np.nan_to_num(d[:shown]), step="mid", color=_SPLIT, lw=0)
    alpha = report.alpha
    left.axhline(
        alpha.d_o,
        color=OKABE_ITO["black"],
        ls="--",
        lw=1.2,
        label=f"the table's $D_o$ = {fmt(alpha.exact.d_o)}",
    )
    left.set_xlim(0.5, n + 0.5)
    left.set_ylim(0, max(1e-9, float(np.nanmax(d)) if np.isfinite(d).any() else 1.0) * 1.12)
    left.set_xlabel(f"items, most disputed first ({n:,})")
    left.set_ylabel("disagreement within the item")
    left.legend(loc="upper right", fontsize=8, frameon=False)
    left.set_title(f"All items (top {shown} in orange)", fontsize=10)

    cats = report.ratings.categories
    colors = _category_colors(len(cats))
    counts = np.array([[row["label_counts"][c] for c in cats] for row in table.head(shown)], dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = counts / counts.sum(axis=1, keepdims=True)
    shares = np.nan_to_num(shares)
    y = np.arange(shown)
    start = np.zeros(shown)
    for j, category in enumerate(cats):
        if shares[:, j].any():
            right.barh(
                y,
                shares[:, j],
                left=start,
                color=colors[j],
                edgecolor="white",
                lw=0.5,
                label=_mpl_text(category, None),
            )
        start += shares[:, j]
    for i in range(shown):
        right.text(1.02, i, fmt(table["disagreement"][i], 3), va="center", ha="left", fontsize=8)
    right.set_yticks(
        y, [_mpl_text(item, 16) for item in table["item"][:shown]], fontsize=8 if shown <= 15 else 6
    )
    right.set_ylim(shown - 0.5, -0.5)
    right.set_xlim(0, 1.16)
    right.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    right.set_xlabel("share of the item's ratings in each category")
    right.set_title(f"The {shown} most disputed: label shares, disagreement", fontsize=10)
    right.tick_params(axis="y", length=0)
    drawn = [category for j, category in enumerate(cats) if shares[:, j].any()]
    if len(drawn) <= len(CATEGORY_COLORS):  # each its own colour: in rows under the charts, within the
        handles, _ = right.get_legend_handles_labels()  # figure's width (names cut to fit)
        legend_in_rows(fig, handles, lambda limit: [_mpl_text(c, limit) for c in drawn], max_cols=5)
    else:  # colours repeat: no legend could tell the labels apart
        right.set_xlabel(
            f"share of the item's ratings in each category\n({len(drawn)} labels: "
            f"{_colours_repeat(len(drawn))}; item_ranking() gives the counts)"
        )
    fig.suptitle(
        f"Disagreement within each item ({report.level}: mean distance between its ratings)", fontsize=11
    )
    named = [
        f"{_named(item, 'item')} {fmt(table['disagreement'][i], 3)} ("
        + ", ".join(f"{_named(c)} {int(x)}" for c, x in zip(cats, counts[i]) if x)
        + ")"
        for i, item in enumerate(table["item"][: min(shown, 3)])
    ]
    fig.iaa_alt = (
        f"Disagreement within each of {n} items, most disputed first: {'; '.join(named)}; "
        f"{int((d == 0).sum())} items without disagreement; the table's D_o {fmt(alpha.exact.d_o)}."
    )
    return fig


def confusion_heatmap(report: Any, marked: int = 2, ax: Any = None) -> Figure:
    """The coincidence matrix o_ck, the most confused pairs of categories outlined.

    Of the first ``marked`` pairs of :meth:`~iaa_teach.Diagnosis.confused_pairs`
    (observed over expected coincidences, highest first), those confused
    more often than chance (ratio above 1) are outlined in both of their
    cells, the first with a solid line, their ratios in the legend; if no
    pair is above 1, the first pair, the closest to chance, is outlined.

    Parameters
    ----------
    report : Diagnosis
    marked : int
        How many pairs to outline.
    ax : matplotlib Axes, optional
    """
    check_diagnosis("confusion_heatmap", report)
    marked = check_int("marked", marked, 0)
    fig, ax = _figure(ax, REPORT_FIGSIZE)
    alpha = report.alpha
    cats = list(report.ratings.categories)
    labels = [_mpl_text(c, 20) for c in cats]
    k = len(cats)
    matrix = np.asarray(alpha.coincidences, dtype=float)
    cells = (
        [[fmt(v, 1) for v in row] for row in matrix] if k <= _MAX_CELL_TEXT else [[""] * k for _ in range(k)]
    )
    im = _heatmap(ax, matrix, labels, cells, highlight_diagonal=False)
    for text in ax.texts:
        text.set_fontsize(11 if k <= 6 else 8)
    if max(len(x) for x in labels) > 3:  # upright beyond 8 columns: slanted, 20 part-of-speech tags overlap
        slant = 30 if k <= 8 else 90
        ax.set_xticks(range(k), labels, rotation=slant, ha="right", va="top" if k <= 8 else "center")
        for tick in ax.get_xticklabels():
            tick.set_rotation_mode("anchor")
    pairs = report.confused_pairs()
    ratios = np.asarray(pairs["ratio"], dtype=float)
    chosen = [x for x in range(min(marked, len(pairs))) if ratios[x] > 1]
    if not chosen and len(pairs) and not np.isnan(ratios[0]):
        chosen = [0]  # none above chance: the closest to it
    handles = []
    for x in chosen:
        row = pairs[x]
        c, j = cats.index(row["first"]), cats.index(row["second"])
        outline = {
            "fill": False,
            "edgecolor": _OUT_OF_STEP,
            "lw": 3 if x == 0 else 2,
            "ls": "-" if x == 0 else "--",
        }
        for a, b in ((c, j), (j, c)):
            ax.add_patch(Rectangle((b - 0.47, a - 0.47), 0.94, 0.94, **outline))
        handles.append(
            Patch(
                **outline,
                label=pair_label(row),
            )
        )
    fig.colorbar(im, ax=ax, label="weighted pairs", shrink=0.85)
    ax.set_xlabel("second value of the pair")
    ax.set_ylabel("first value of the pair")
    ax.set_title(
        f"Which categories are confused:\ncoincidences $o_{{ck}}$ of {int(alpha.n):,} pairable values",
        fontsize=11,
    )
    if handles:
        above = ratios[chosen[0]] > 1
        fig.legend(
            handles=handles,
            loc="outside lower center",
            fontsize=9,
            frameon=False,
            title="confused more often than chance" if above else "no pair above chance; the closest",
            title_fontsize=9,
            ncols=1,
        )
    first = pairs[0] if len(pairs) and not np.isnan(ratios[0]) else None
    if first is None:
        finding = "no pair of labels to compare"
    else:
        which_pair = (
            f"{_named(first['first'])} and {_named(first['second'])}, paired {fmt(first['ratio'], 2)} times "
            "as often "
            f"as chance would pair them ({fmt(first['observed'], 1)} against {fmt(first['expected'], 1)})"
        )
        finding = (
            f"most confused: {which_pair}"
            if ratios[0] > 1
            else f"no pair is confused more often than chance; the closest: {which_pair}"
        )
    fig.iaa_alt = f"Coincidences of {k} labels over {int(alpha.n):,} pairable values: {finding}."
    return fig


def leave_one_out_bars(report: Any, max_raters: int = 40, ax: Any = None) -> Figure:
    """How much alpha rises when each rater is left out, in the order of the rater ranking.

    A bar per rater (the first ``max_raters`` of the ranking), red where
    alpha rises without the rater (the others agree better without them),
    blue where it falls; "undefined" where alpha without the rater is.

    Parameters
    ----------
    report : Diagnosis
    max_raters : int
        At most this many bars (the least in step first).
    ax : matplotlib Axes, optional
    """
    check_diagnosis("leave_one_out_bars", report)
    max_raters = check_int("max_raters", max_raters, 1)
    fig, ax = _figure(ax, REPORT_FIGSIZE)
    table = report.rater_ranking()
    n = len(table)
    shown = min(n, max_raters)
    rise = np.asarray(table["rise"][:shown], dtype=float)
    y = np.arange(shown)
    defined = ~np.isnan(rise)
    colors = np.where(rise > 0, _OUT_OF_STEP, _IN_STEP)
    ax.barh(y[defined], rise[defined], color=colors[defined], height=0.7)
    span = float(np.nanmax(np.abs(rise), initial=0.0)) or 1.0
    size = 9 if shown <= 15 else 7 if shown <= 30 else 6
    for i in range(shown):
        if defined[i]:
            ax.text(
                rise[i] + (0.015 if rise[i] >= 0 else -0.015) * span,
                i,
                fmt(table["rise"][i]),
                va="center",
                ha="left" if rise[i] >= 0 else "right",
                fontsize=size,
            )
        else:
            ax.text(0, i, " undefined", va="center", ha="left", fontsize=size, color=OKABE_ITO["grey"])
    ax.axvline(0, color=OKABE_ITO["black"], lw=0.8)
    ax.set_xlim(_floor(rise) - 0.18 * span, float(np.nanmax(rise, initial=0.0)) + 0.18 * span)
    ax.set_yticks(y, [_mpl_text(name) for name in table["rater"][:shown]], fontsize=size)
    ax.set_ylim(shown - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel("rise of alpha when the rater is left out (alpha without the rater - alpha)")
    more = f", the first {shown} of {n}" if shown < n else ""
    ax.set_title(
        f"Leave one rater out: alpha of the whole table = {fmt(report.alpha)} ({report.level}{more})",
        fontsize=11,
    )
    ax.legend(
        handles=[
            Patch(color=_OUT_OF_STEP, label="others agree better without the rater"),
            Patch(color=_IN_STEP, label="others agree worse without the rater"),
        ],
        loc="lower right",
        fontsize=8,
        frameon=False,
    )
    top = table[0] if n else None
    fig.iaa_alt = (
        f"Leave one rater out, {n} raters: "
        + (
            f"{_named(top['rater'], 'rater')} agrees least: alpha rises from {fmt(report.alpha)} to "
            f"{fmt(top['alpha_without'])} without {_named(top['rater'], 'rater')}"
            if top is not None and top["rise"] > 0
            else f"no rater's absence raises alpha ({fmt(report.alpha)})"
        )
        + f"; alpha rises without {int((rise > 0).sum())} of the {shown} shown."
    )
    return fig
