"""The report's pieces (internal): :mod:`iaa_teach.report` lists the public ones.

What each public function does, and how the figures and pages are made, is said once, in
:mod:`iaa_teach.report`'s docstring.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ._formulas import INTERVAL_METHODS, KAPPA_WEIGHTS
from ._markup import Table, attr_escape, html_escape, margin_name, terminal_escape
from ._validation import (
    MAX_PAIRS,
    AgreementError,
    check_bool,
    check_int,
    check_option,
    check_text,
    check_type,
    options,
)
from .diagnosis import (
    Diagnosis,
    GoldComparison,
    RaterIntervals,
    ReportTable,
    check_diagnosis,
    diagnose,
    format_cell,
)
from .metrics import family_intervals, fleiss_kappa, interpret, krippendorff_alpha, pairwise_cohen
from .ratings import Ratings
from .rounding import fmt, format_number
from .worked import explain, kappa_label

__all__ = [
    "text_report",
    "summary_lines",
    "reading_html",
    "LIST_PAIRS",
    "N_BOOT",
    "SEED",
    "FORMAT",
    "FORMAT_VERSION",
    "FIGURE_DPI",
    "FIGURES",
    "READING",
    "figure_names",
    "draw",
    "figure_texts",
    "summary_html",
    "sections_html",
    "SECTIONS",
    "section_html",
    "to_html",
    "write_html",
    "to_data",
    "to_json",
    "write_json",
    "write_files",
    "family_data",
    "MIN_ITEMS",
    "family_html",
    "pairs_html",
    "cross_table",
    "least_agreeing_pair",
    "disputed_text",
    "raters_text",
    "pairwise_data",
    "rater_intervals_data",
    "adjudication_records",
    "adjudication_csv",
    "write_adjudication_csv",
    "adjudication_html",
    "gold_records",
    "gold_html",
    "gold_lines",
    "CHROMIUM_NAMES",
    "find_chromium",
    "html_to_pdf",
]

#: The report's words (paragraphs, captions, notes), its style sheet and cautions: content/report.toml.
_CONTENT = tomllib.loads((Path(__file__).parent / "content" / "report.toml").read_text("utf-8"))


def _words(key: str, **values: Any) -> str:
    """A line (or part of one) of the text report from content/report.toml, its ``{fields}`` filled in."""
    return _CONTENT["text"][key].format(**values)


def _say(key: str, **values: Any) -> str:
    """The words ``key`` of content/report.toml with their ``{fields}`` filled in (values already escaped)."""
    return _CONTENT["say"][key].format(**values)


#: Up to this many rater pairs the report lists each; beyond, a summary (``--all-pairs`` lists them all).
LIST_PAIRS = 15
_SHOW_NAMES = 12  # rater names and categories listed in the first line
#: Bootstrap replicates and seed of ``--ci bootstrap`` (``--n-boot``, ``--seed``): the same file, the
#: same interval.
N_BOOT = 1000
SEED = 0
#: A coefficient from fewer shared items than this is shown as "too few items" with the count.
MIN_ITEMS = 5


def _few(n_items: int) -> str | None:
    """ "too few items (n)" below :data:`MIN_ITEMS`, else None."""
    return f"too few items: {n_items}, at least {MIN_ITEMS} for a band" if n_items < MIN_ITEMS else None


def _floor_of(metric: str, value: float) -> float:
    """The lowest value a coefficient is read at: 0 for percent agreement (a share), -1 for the rest."""
    return 0.0 if metric == "percent_agreement" else min(-1.0, value)


def _clipped(metric: str, value: float, low: float, high: float, analytic: bool) -> tuple[float, float, bool]:
    """An interval kept within the coefficient's range, and whether it was cut there.

    An analytic interval is value -/+ a half-width (its upper end already
    capped at 1 by ``ci()``): cut where it runs past 1 or below the floor
    (:func:`_floor_of`). A percentile (bootstrap) interval lies within the
    values the coefficient took, so it is never cut.
    """
    if not analytic or math.isnan(low) or math.isnan(high):
        return low, high, False
    floor = _floor_of(metric, value)
    top_cut = value + (value - low) > 1.0 + 1e-12
    return max(low, floor), min(high, 1.0), top_cut or low < floor


def _items_used(result: Any) -> int | None:
    """How many items a coefficient was computed from (alpha: the items with 2 or more ratings)."""
    for name in ("n_items_used", "n_units_used", "n_items"):
        if hasattr(result, name):
            return int(getattr(result, name))
    return None


def _line(
    name: str,
    result: Any,
    exact: Any,
    details: str,
    reason: str | None,
    band: bool = True,
    items: int | None = None,
) -> list[str]:
    """One coefficient: its name, its value (from ``exact``), its band, its working (and why undefined).

    ``band=False``: no Landis and Koch band (percent agreement is not
    chance-corrected); from fewer than :data:`MIN_ITEMS` ``items``, no band
    either but "too few items" with the count.
    """
    few = None if items is None or exact is None else _few(items)
    if few or not band:
        words = few or "not chance-corrected: no band"
    else:  # exact: 3/5 is moderate
        words = interpret(result) if exact is None else interpret(max(float(exact), -1.0))
    lines = [f"  {name:<32} {fmt(exact):>9}  ({words})  {details}".rstrip()]
    if reason:
        lines.append(f"  {'':<32} why undefined: {reason}")
    return lines


def _joined(values: Sequence[Any]) -> str:
    """``values`` joined with ", ", a value holding a comma or a semicolon in quotes (decimal commas:
    ``"1,5", "2,0"``), so that the list reads back in a line that goes on after a "; "."""
    return ", ".join(f'"{v}"' if "," in str(v) or ";" in str(v) else str(v) for v in values)


def _listed(values: Sequence[Any]) -> str:
    more = [f"... ({len(values)} in all)"] if len(values) > _SHOW_NAMES else []
    return _joined([*values[:_SHOW_NAMES], *more])


def _pair(res: Any) -> str:
    return f"{res.rater_a} vs {res.rater_b}"


def _cohen_lines(res: Any, name: str | None = None) -> list[str]:
    ex = res.exact
    return _line(
        name or _pair(res),
        res,
        ex.kappa,
        f"P_o = {fmt(ex.p_o)}, P_e = {fmt(ex.p_e)}, items = {res.n_items}",
        res.reason,
        items=res.n_items,
    )


def _family_lines(rows: Sequence[Any], seed: int) -> list[str]:
    """The family section: each coefficient, its P_a and P_e, its standard error and interval (or why not)."""
    first = rows[0]
    share = format_number(first.confidence, ".0%")
    if first.method == "analytic":
        how = _words("family_analytic")
    else:
        how = _words("family_bootstrap", n=first.bootstrap.n_boot, seed=seed)
    weights = getattr(first.result, "weights", None)
    weighted = "" if weights is None else f", {weights} weights"
    out = ["", _words("family", weighted=weighted, share=share, how=how)]
    for row, shown in zip(rows, _family_rows(rows)):  # the HTML's and JSON's rows, in words
        res = row.result
        parts = shown["working"]
        if res.defined:
            floor = format_number(_floor_of(row.metric, float(res)), "g")
            cut = f" (cut to the range {floor} to 1)" if shown["cut"] else ""
            interval = f"[{fmt(shown['low'])}, {fmt(shown['high'])}]{cut}"
            parts.append(f"SE = {fmt(row.se)}, {share} CI {interval}")
            if row.bootstrap is not None and row.bootstrap.n_undefined:
                parts.append(f"{row.bootstrap.n_undefined} undefined replicates left out")
        reason = res.reason if not res.defined else (None if row.reason is None else f"SE: {row.reason}")
        band = row.metric != "percent_agreement"
        out += _line(
            row.name, res, res.exact_value, ", ".join(parts), reason, band=band, items=shown["items"]
        )
    return out


_LAYOUTS = {"wide": "wide", "long": "long (one rating per row)", "raters as rows": "one row per rater"}


def summary_lines(ratings: Ratings, source: str | None = None) -> list[str]:
    """What the table is: its first line, then, for a table read from a file, each note and warning.

    The first line of a table read by :meth:`iaa_teach.Ratings.from_csv`
    says how the file was read: its layout, which column holds the item IDs
    (or "rows numbered 1..n"), the raters, the categories in their order and
    the missing cells by what they held, e.g. ``Read scores.csv as wide: 30
    items (IDs from column "patient") x 6 raters (R1, ..., R6); categories 1,
    2, 3, 4, 5; 176 ratings, 4 missing (3 empty, 1 "n/a")``. The notes (what
    was guessed, and how to say otherwise) and warnings (what looks wrong,
    and the option that fixes it) follow, one a line. The command line's
    text report, the HTML and JSON report and notebook 08 show these lines.
    ``source``: the file's name to show (default: the name of the file read).

    >>> from iaa_teach import datasets
    >>> summary_lines(datasets.sentiment())
    ['10 items x 3 raters (A, B, C); categories G, N, P; 30 ratings, 0 missing']
    """
    r = ratings
    n_missing = r.n_items * r.n_raters - r.n_ratings
    shape = f"{r.n_items} items x {r.n_raters} raters ({_listed(r.raters)})"
    tail = f"categories {_listed(r.categories)}; {r.n_ratings} ratings, {n_missing} missing"
    read = r.reading
    if read is None:
        return [f"{shape}; {tail}"]
    if read.items_from is not None:
        items = (
            f'IDs from column "{read.items_from}"' if read.items_from else "IDs from the unnamed first column"
        )
    elif read.layout == "raters as rows":
        items = "the columns"
    elif read.layout not in ("wide", "raters as rows"):
        items = "from the first column"
    else:
        items = f"rows numbered 1..{r.n_items}"
    raters = _listed(r.raters)
    if read.raters_from is not None:
        raters = f'named in column "{read.raters_from}": {raters}'
    detail = _missing_detail(read, n_missing)
    first = (
        f"Read {os.path.basename(read.path) if source is None else source} as "
        f"{_LAYOUTS.get(read.layout, read.layout)}: {r.n_items} items ({items}) x "
        f"{r.n_raters} raters ({raters}); {tail}{detail}"
    )
    return [first, *(f"  note: {n}" for n in read.notes), *(f"  warning: {w}" for w in read.warnings)]


def _missing_detail(read: Any, n_missing: int) -> str:
    """The missing cells by what they held, e.g. `` (3 empty, 1 "n/a")``: only the kinds there are, adding
    up to ``n_missing`` (the rest: cells a one-rating-per-row file has no row for, or a wide one no cell).
    Empty when nothing is missing, or, in a wide file, when every missing cell is empty."""
    empty = dict(read.missing).get("", 0)
    markers = [(marker, n) for marker, n in read.missing if marker and n]
    rest = n_missing - empty - sum(n for _, n in markers)
    wide = read.layout in ("wide", "raters as rows")
    parts = [f"{empty} empty"] if empty else []
    parts += [f'{n} "{marker}"' for marker, n in markers]
    if rest:
        parts.append(f"{rest} with no {'cell' if wide else 'row'}")
    if not n_missing or (wide and parts == [f"{empty} empty"]):  # a wide file's gaps are its empty cells
        return ""
    return f" ({', '.join(parts)})"


def text_report(
    ratings: Ratings,
    level: str = "nominal",
    weights: str | None = None,
    all_pairs: bool = False,
    max_pairs: int | None = MAX_PAIRS,
    ci: str = "analytic",
    n_boot: int = N_BOOT,
    seed: int = SEED,
    family: Sequence[Any] | None = None,
    gold: GoldComparison | None = None,
) -> str:
    """The text that ``iaa-teach report`` prints for ``ratings``.

    With more than :data:`LIST_PAIRS` rater pairs, Cohen's kappa is
    summarised (the lowest and highest pair, their spread, the mean) unless
    ``all_pairs``; with more than ``max_pairs`` it is not computed, and the
    report says which limit to raise. Text from the data is escaped for a
    terminal.

    The last section is the chance-corrected family
    (:func:`iaa_teach.family_intervals`): each coefficient with its standard
    error and 95 % interval, ``ci="analytic"`` (the coefficients' own
    variances) or ``"bootstrap"`` (``n_boot`` resamples of the items,
    ``seed``). ``family``: those rows, if already computed. ``gold``: each
    annotator against the gold labels
    (:func:`iaa_teach.diagnosis.compare_with_gold`), a last section.

    The first lines are :func:`summary_lines`: what the table is, and, for
    a table read from a file, how the file was read.

    >>> from iaa_teach import datasets
    >>> print(text_report(datasets.sentiment()).splitlines()[0])
    10 items x 3 raters (A, B, C); categories G, N, P; 30 ratings, 0 missing
    """
    check_type("report", ratings, Ratings, "a Ratings table")
    check_bool("all_pairs", all_pairs)
    check_option("ci", ci, INTERVAL_METHODS)
    n_boot = check_int("n_boot", n_boot, 1)
    seed = check_int("seed", seed, 0)
    # first: a level that needs declared categories fails here
    alpha = krippendorff_alpha(ratings, level=level)
    own = KAPPA_WEIGHTS[level]  # the weights of the HTML and JSON reports' pair tables
    unweighted = " (unweighted)" if weights is None and own is not None else ""
    out = [
        *summary_lines(ratings if gold is None else gold.whole),
        *([] if gold is None else [_words("gold_note", gold=gold.gold, n=ratings.n_raters)]),
        "",
        _words(
            "cohen", kappa=kappa_label(weights, "Cohen's kappa, every pair of raters"), unweighted=unweighted
        ),
    ]
    if weights != own:
        out.append(
            _words("pair_tables", level=level, kappa=kappa_label(own) if own else "unweighted Cohen's kappa")
        )
    try:
        pairs = pairwise_cohen(ratings, weights=weights, max_pairs=max_pairs)
    except AgreementError as err:
        if err.limit is None:
            raise
        out.append(f"  not computed: {err}")
    else:
        results = list(pairs)
        undefined = [_pair(res) for res in results if not res.defined]
        mean_reason = f"kappa is undefined for {_listed(undefined)}" if undefined else None
        if all_pairs or len(results) <= LIST_PAIRS:
            for res in results:
                out += _cohen_lines(res)
        else:
            defined = [res for res in results if res.defined]
            out.append(_words("pairs_summary", n=len(results), raters=ratings.n_raters))
            if defined:
                low = min(defined, key=lambda res: res.exact.kappa)
                high = max(defined, key=lambda res: res.exact.kappa)
                out += _cohen_lines(low, f"lowest: {_pair(low)}")
                out += _cohen_lines(high, f"highest: {_pair(high)}")
                out.append(
                    f"  {'spread (highest - lowest)':<32} {fmt(high.exact.kappa - low.exact.kappa):>9}"
                )
            if undefined:
                out.append(f"  {'undefined':<32} {len(undefined)} pair(s): {_listed(undefined)}")
        fewest = min((res.n_items for res in results), default=None)
        out += _line("mean over pairs (Light)", pairs, pairs.exact.mean_kappa, "", mean_reason, items=fewest)
    out += ["", _words("fleiss")]
    for chance, label in (("pooled", "pooled proportions"), ("item_mean", "mean item proportions")):
        res = fleiss_kappa(ratings, chance=chance)
        ex = res.exact
        out += _line(
            f"chance = {label}",
            res,
            ex.kappa,
            f"P_a = {fmt(ex.p_a)}, P_e = {fmt(ex.p_e)}, items used = {res.n_items_used}, "
            f"ratings = {res.n_ratings}",
            res.reason,
            items=res.n_items_used,
        )
    ex = alpha.exact
    out += ["", _words("alpha", level=level)]
    out += _line(
        "alpha",
        alpha,
        ex.alpha,
        f"D_o = {fmt(ex.d_o)}, D_e = {fmt(ex.d_e)}, pairable values n = {alpha.n}",
        alpha.reason,
        items=_items_used(alpha),
    )
    if family is None:
        family = family_intervals(ratings, weights=weights, level=level, method=ci, n_boot=n_boot, seed=seed)
    out += _family_lines(family, seed)
    out = [terminal_escape(line) for line in out]
    if gold is not None:  # escaped there
        out += gold_lines(gold)
    return "\n".join(out)


#: What a JSON file written here says it is, and the version of its layout.
FORMAT = "iaa-teach diagnosis"
FORMAT_VERSION = 1
#: Resolution of the embedded figures: 1.5 pixels per CSS pixel, sharp on most high-density screens.
FIGURE_DPI = 150

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


# ================================================================ cells
def _text(value: Any) -> str:
    """A cell as a reader sees it.

    Numbers rounded half up to 3 decimals, NaN as "undefined", None as "–".
    """
    if value is None:
        return "–"
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return f"{int(value):,}"
    if isinstance(value, tuple):
        return " / ".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {n}" for key, n in value.items() if n)
    return format_cell(value)


def _table(
    table: ReportTable, columns: Mapping[str, str], caption: str, rows: int | None = None, kind: str = ""
) -> str:
    """Some columns of a report table as an HTML table (first column as row headers), escaped.

    The ``reason`` column is left out when no row has one.
    """
    shown = table if rows is None else table.head(rows)
    keep = {
        name: head
        for name, head in columns.items()
        if name != "reason" or any(v is not None for v in shown["reason"])
    }
    body = [[_text(row[name]) for name in keep] for row in shown]
    return _wrapped(list(keep.values()), body, caption, f"table-wrap {kind}")


#: A long name with underscores (``annotator_maria_01``), in the text between two tags.
_LONG_NAME = re.compile(r"(?<=[>\s])[^\s<>&]*_[^\s<>&]*(?=[<\s])")


def _wrapped(head: list, body: list, caption: str, css: str = "table-wrap last-note") -> str:
    """A table of the page (escaped; first column as row headers) in a box of class ``css``.

    The box scrolls sideways on a narrow screen. In its body a name of 12 characters or more may
    break after an underscore (``annotator_<wbr>maria_<wbr>01``): raters' names as a class writes
    them fit a projector's page; what is copied stays the name.
    """
    html = Table(head, body, caption).html(math="text")
    top, tbody, rest = html.partition("<tbody>")
    rest = _LONG_NAME.sub(lambda m: m[0].replace("_", "_<wbr>") if len(m[0]) >= 12 else m[0], rest)
    return f'<div class="{css}">' + top + tbody + rest + "</div>"


def _long_table(
    table: ReportTable,
    columns: Mapping[str, str],
    caption: str,
    first: int,
    most: int,
    what: str,
    kind: str = "",
) -> str:
    """The first ``first`` rows, then (folded) the first ``most`` rows, when there are more than ``first``."""
    if len(table) <= first:
        return _table(table, columns, caption, kind=kind)
    shown = min(len(table), most)
    every = f"all {shown}" if shown == len(table) else f"the first {shown} of {len(table):,}"
    return (
        _table(table, columns, f"{caption} (the first {first} of {len(table):,})", rows=first, kind=kind)
        + f"<details><summary>Show {every} {_esc(what)}</summary>"
        + _table(table, columns, caption, rows=shown, kind=kind)
        + "</details>"
    )


def _esc(value: Any) -> str:
    """Text for the page (``html_escape``; no maths: the page runs no MathJax)."""
    return html_escape(value, math="text")


# =============================================================== figures
def _figure(fig: Any, alt: str, caption: str, dpi: int) -> str:
    """A figure as an <img> with a data URI; ``alt`` is plain text, ``caption`` HTML.

    ``alt`` is an attribute, so its quotes are escaped too (``attr_escape``).
    """
    from . import _plots as plots  # matplotlib on first use: the text report does not need it

    width, height = (round(x * plots.DPI) for x in fig.get_size_inches())
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=dpi, metadata={"Software": None})
    return (
        f'<figure><img src="data:image/png;base64,{base64.b64encode(png.getvalue()).decode("ascii")}" '
        f'width="{width}" height="{height}" '
        f'alt="{attr_escape(alt)}"><figcaption>{caption}</figcaption></figure>'
    )


# ================================================================== HTML
#: The columns of the page's tables (name -> heading), from content/report.toml.
_RATER_COLUMNS, _ITEM_COLUMNS, _PAIR_COLUMNS, _CATEGORY_COLUMNS = (
    _CONTENT["columns"][key] for key in ("raters", "items", "pairs", "categories")
)


#: The report's figures: name -> the function of :mod:`iaa_teach.plots` that draws it.
FIGURES = {
    "leave_one_out": "leave_one_out_bars",
    "raters": "rater_agreement_heatmap",
    "items": "item_disagreement_chart",
    "confusion": "confusion_heatmap",
}


def figure_names(report: Diagnosis) -> tuple[str, ...]:
    """The :data:`FIGURES` a report has: all four; for 2 raters neither the rater heatmap (one number)
    nor the leave-one-out bars (one rater left has no one to agree with)."""
    check_diagnosis("figure_names", report)
    two = report.ratings.n_raters < 3
    return tuple(name for name in FIGURES if not (two and name in ("raters", "leave_one_out")))


@options(name=tuple(FIGURES))
def draw(report: Diagnosis, name: str, max_raters: int = 100, sure: RaterIntervals | None = None) -> Any:
    """One of the report's :data:`FIGURES` as a matplotlib Figure.

    ``sure`` (:meth:`Diagnosis.rater_intervals`): the rater heatmap highlights
    only a rater the bootstrap tells apart (none when it tells none apart).
    """
    check_diagnosis("draw", report)
    from . import _plots as plots  # matplotlib on first use: the text report does not need it

    if name == "raters" and sure is not None and sure.reason is None:
        return plots.rater_agreement_heatmap(report, marked=int(_stands_out(sure)))
    if name == "leave_one_out":
        return plots.leave_one_out_bars(report, max_raters=max_raters)
    if name == "items":
        return plots.item_disagreement_chart(report, top=min(10, report.ratings.n_items))
    return getattr(plots, FIGURES[name])(report)


def figure_texts(report: Diagnosis, sure: RaterIntervals | None = None) -> dict[str, tuple[str, str]]:
    """Each figure's text alternative (plain text: what it shows, with its main numbers) and caption (HTML).

    ``sure``: as for :func:`draw` (which raters the heatmap highlights)."""
    check_diagnosis("figure_texts", report)
    r = report.ratings
    raters, items, pairs = report.rater_ranking(), report.item_ranking(), report.confused_pairs()
    kappa_name = kappa_label(KAPPA_WEIGHTS[report.level])
    rises = ", ".join(f"{row['rater']} ({fmt(row['rise'])})" for row in raters.head(3))
    least = [str(row["rater"]) for row in raters.head(2) if row["rise"] > 0]  # NaN is not above 0
    if sure is not None and sure.reason is None:
        least = least[:1] if _stands_out(sure) else []
    disputed = ", ".join(f"{row['item']} ({fmt(row['disagreement'])})" for row in items.head(3))
    if len(pairs):
        top = pairs[0]
        confusion = _say(
            "alt_confusion",
            k=r.n_categories,
            first=top["first"],
            second=top["second"],
            ratio=fmt(top["ratio"]),
        )
    else:
        confusion = _say("alt_confusion_one")
    highlighted = f"; highlighted: {', '.join(least)}." if least else "."
    alt_raters = _say("alt_raters", kappa=kappa_name, n=r.n_raters, highlighted=highlighted)
    return {
        "leave_one_out": (_say("alt_leave_one_out", rises=rises), _say("caption_leave_one_out")),
        "raters": (alt_raters, _say("caption_raters", kappa=_esc(kappa_name))),
        "items": (_say("alt_items", n=r.n_items, disputed=disputed), _say("caption_items")),
        "confusion": (confusion, _say("caption_confusion")),
    }


def _tie_groups(table: ReportTable, column: str) -> list[list[dict]]:
    """Rows grouped by equal values of ``column`` (NaN rows left out), in ranking order."""
    groups: list[list[dict]] = []
    for row in table:
        value = row[column]
        if isinstance(value, float) and math.isnan(value):
            break  # NaN is ranked last
        if groups and groups[-1][0][column] == value:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _names(rows: Sequence[Mapping[str, Any]], key: str, most: int = 6) -> str:
    """Names in bold, "a, b and c"; beyond ``most``, "a, b, ... and 5 more"."""
    names = [f"<b>{_esc(row[key])}</b>" for row in rows[:most]]
    if len(rows) > most:
        return ", ".join(names) + f" and {len(rows) - most:,} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def disputed_text(report: Diagnosis, least: int = 3) -> str:
    """The most disputed items in words, ties named as ties: "5 items tied at 0.733: 2, 3, ..." (HTML)."""
    check_diagnosis("disputed_text", report)
    parts, shown = [], 0
    for group in _tie_groups(report.item_ranking(), "disagreement"):
        if shown >= least:
            break
        value = fmt(group[0]["disagreement"])
        if len(group) == 1:
            parts.append(f"<b>{_esc(group[0]['item'])}</b> ({value})")
        else:
            parts.append(f"{len(group):,} items tied at {value}: {_names(group, 'item')}")
        shown += len(group)
    return "; then ".join(parts)


def _stands_out(sure: RaterIntervals) -> bool:
    """Whether the first rater is told apart: from the next rater, and their rise from 0."""
    return sure.reason is None and len(sure.alike_first) == 1 and bool(sure.low[0] > 0)


def raters_text(report: Diagnosis, sure: RaterIntervals | None = None) -> str:
    """What the rater ranking can say, with its uncertainty (HTML): a rater named only when the
    bootstrap tells them apart from the next and their rise from 0."""
    check_diagnosis("raters_text", report)
    r, raters = report.ratings, report.rater_ranking()
    if r.n_raters == 2:
        return _say("raters_two")
    first = raters[0]
    if not first["rise"] > 0:  # NaN is not above 0
        return _say("raters_none")
    said = {"name": _esc(first["rater"]), "rise": fmt(first["rise"]), "without": fmt(first["alpha_without"])}
    if sure is None or sure.reason is not None:
        why = "" if sure is None else f" (no interval: {_esc(sure.reason)})"
        return _say("raters_least", why=why, **said)
    share = format_number(sure.confidence, ".0%")
    said.update(
        interval=f"{share} bootstrap interval {fmt(sure.low[0])} to {fmt(sure.high[0])}", n=f"{r.n_items:,}"
    )
    if _stands_out(sure):
        return _say("raters_apart", **said)
    alike = [{"rater": name} for name in sure.alike_first]
    if sure.low[0] > 0:  # a rise clear of 0, but others the bootstrap cannot tell from it
        return _say("raters_alike", names=_names(alike, "rater"), **said)
    if len(alike) > 1:
        who = _say("raters_alike_who", names=_names(alike, "rater"))
    else:
        who = _say("raters_zero_who", **said)
    return _say("raters_no_one", who=who, **said)


def _bias_text(report: Diagnosis) -> str | None:
    """The rater whose mix of labels differs most from the others' on the same items (HTML), if any."""
    raters = report.rater_ranking()
    bias = np.asarray(raters["bias"], dtype=float)
    if report.ratings.n_raters < 2 or not np.isfinite(bias).any():
        return None
    j = int(np.nanargmax(bias))
    row = raters[j]
    if row["overused"] is None:
        return None
    r = report.ratings
    own = int(r.rater_counts()[r.rater_index(row["rater"]), r.category_index(row["overused"])])
    others = "the other rater" if r.n_raters == 2 else "the other raters"
    said = {"name": _esc(row["rater"]), "label": _esc(row["overused"]), "own": f"{own:,}", "others": others}
    return _say("bias", of=f"{int(row['ratings']):,}", by=fmt(row["overuse"]), **said)


def summary_html(report: Diagnosis, sure: RaterIntervals | None = None) -> str:
    """The report's findings in a few sentences, as an HTML list (names escaped).

    ``sure``: :meth:`Diagnosis.rater_intervals`, so that the rater named is
    one the bootstrap tells apart (without it, the ranking's first rater).
    """
    check_diagnosis("summary_html", report)
    alpha, level = report.alpha, report.level
    items = report.item_ranking()
    pairs, categories = report.confused_pairs(), report.category_agreement()
    findings = []
    if alpha.defined:
        few = _few(_items_used(alpha))
        band = f"{_esc(few)}" if few else f"{_esc(interpret(alpha.alpha))} on the Landis and Koch scale"
        findings.append(_say("summary_alpha", level=_esc(level), value=fmt(alpha.exact.alpha), band=band))
    else:
        findings.append(_say("summary_undefined", level=_esc(level), reason=_esc(alpha.reason)))
    findings.append(raters_text(report, sure))
    bias = _bias_text(report)
    if bias:
        findings.append(bias)
    disputed = disputed_text(report) if len(items) else ""
    if disputed:
        findings.append(f"Most disputed items: {disputed}.")
    if len(pairs) and not math.isnan(pairs[0]["ratio"]):
        first = pairs[0]
        how = "more often than chance" if first["ratio"] > 1 else "the closest to chance of all pairs"
        names = {"first": _esc(first["first"]), "second": _esc(first["second"])}
        findings.append(_say("summary_confused", ratio=fmt(first["ratio"]), how=how, **names))
    kappas = np.asarray(categories["kappa"], dtype=float)
    if np.isfinite(kappas).any():
        worst = int(np.nanargmin(kappas))
        name, kappa = _esc(categories[worst]["category"]), fmt(categories[worst]["kappa"])
        findings.append(_say("summary_hardest", name=name, kappa=kappa))
    return '<ul class="findings">' + "".join(f"<li>{f}</li>" for f in findings) + "</ul>"


def _rater_table(report: Diagnosis, sure: RaterIntervals | None) -> tuple[ReportTable, dict[str, str]]:
    """The page's rater table and its columns (name -> heading); with ``sure``, the rise's interval."""
    raters = report.rater_ranking()
    if report.ratings.n_raters == 2:  # no one left to agree with: no alpha without a rater
        return raters, {
            k: v for k, v in _RATER_COLUMNS.items() if k not in ("alpha_without", "rise", "reason")
        }
    if sure is None or sure.reason is not None:
        return raters, dict(_RATER_COLUMNS)
    share = format_number(sure.confidence, ".0%")
    columns = {}
    for key, head in _RATER_COLUMNS.items():
        columns[key] = head
        if key == "rise":
            columns["rise_interval"] = f"{share} interval of rise"
    cells = ["–" if math.isnan(lo) else _span(lo, hi) for lo, hi in zip(sure.low, sure.high)]
    return ReportTable({**{c: raters[c] for c in raters.columns}, "rise_interval": cells}), columns


#: The report's three sections of :func:`sections_html`, in their order (:func:`section_html` makes one).
SECTIONS = ("raters", "items", "categories")


def sections_html(
    report: Diagnosis,
    figures: Mapping[str, str] | None = None,
    top: int = 20,
    max_raters: int = 100,
    sure: RaterIntervals | None = None,
) -> str:
    """The report's three sections (raters, items, categories): text, tables and, if given, figures.

    ``figures`` maps names of :data:`FIGURES` to the HTML to put in their
    place (the page embeds images; the notebook explorer shows its own);
    ``sure``: :meth:`Diagnosis.rater_intervals`, shown in the rater table.
    Each section says what it shows in plain words; the statistics behind
    each column are in a fold under its table. Each section on its own:
    :func:`section_html`.
    """
    check_diagnosis("sections_html", report)
    return "\n".join(section_html(report, name, figures, top, max_raters, sure) for name in SECTIONS)


@options(name=SECTIONS)
def section_html(
    report: Diagnosis,
    name: str,
    figures: Mapping[str, str] | None = None,
    top: int = 20,
    max_raters: int = 100,
    sure: RaterIntervals | None = None,
) -> str:
    """One of :func:`sections_html`'s sections, ``name`` of :data:`SECTIONS` (its ``<section>``
    element, the same text); the other arguments as there (``sure`` is shown by the raters only)."""
    check_diagnosis("section_html", report)
    figures = figures or {}
    top, max_raters = check_int("top", top, 0), check_int("max_raters", max_raters, 1)
    if name == "raters":
        out = _raters_section(report, figures, max_raters, sure)
    elif name == "items":
        out = _items_section(report, figures, top)
    else:
        out = _categories_section(report, figures, top)
    return "\n".join(part for part in out if part)


def _raters_section(
    report: Diagnosis, figures: Mapping[str, str], max_raters: int, sure: RaterIntervals | None
) -> list[str]:
    two = report.ratings.n_raters == 2
    kappa_name = _esc(kappa_label(KAPPA_WEIGHTS[report.level]))
    return [
        '<section id="raters"><h2>Raters: who is out of step?</h2>',
        _say("raters_intro_two") if two else _say("raters_intro") + f"<p>{raters_text(report, sure)}</p>",
        "" if two else figures.get("leave_one_out", ""),
        _long_table(
            *_rater_table(report, sure),
            "The raters, least in step first" if not two else "The two raters",
            10,
            max_raters,
            "raters",
        ),
        _say("raters_note", rise="" if two else _say("raters_note_rise"), kappa=kappa_name),
        _say("raters_statistics", rise="" if two else _say("raters_statistics_rise")),
        figures.get("raters", ""),
        "</section>",
    ]


def _items_section(report: Diagnosis, figures: Mapping[str, str], top: int) -> list[str]:
    items = report.item_ranking()
    tied = _tie_groups(items, "disagreement")
    return [
        '<section id="items"><h2>Items: which should the class discuss?</h2>',
        _say("items_intro"),
        _say("tie_note", tied=disputed_text(report, least=1)) if tied and len(tied[0]) > 1 else "",
        figures.get("items", ""),
        _table(
            items,
            _ITEM_COLUMNS,
            f"The {min(top, len(items))} most disputed items (of {len(items):,})",
            rows=top,
            kind="last-text",
        ),
        _say("items_note"),
        "</section>",
    ]


def _categories_section(report: Diagnosis, figures: Mapping[str, str], top: int) -> list[str]:
    pairs, categories = report.confused_pairs(), report.category_agreement()
    caption = "Pairs of categories, most confused first"
    return [
        '<section id="categories"><h2>Categories: which are confused?</h2>',
        _say("categories_intro"),
        figures.get("confusion", ""),
        _table(pairs, _PAIR_COLUMNS, caption, rows=max(top, 10)) if len(pairs) else "",
        _table(categories, _CATEGORY_COLUMNS, "Agreement on each category"),
        _say("categories_note"),
        _say("categories_statistics"),
        "</section>",
    ]


# ======================================================== whole table, pairs
_FAMILY_HEAD = ["coefficient", "value", "95% interval", "SE", "band", "observed", "chance", "items", "note"]
_NBSP = "\u00a0"


def _span(low: Any, high: Any, breakable: bool = False) -> str:
    """An interval as one unbreakable cell, "-0.172 to 0.430"; ``breakable``: free to break after "to" only
    ("-0.172 to" / "0.430"), for a table beside long names (see :data:`_MAY_BREAK`)."""
    return f"{fmt(low)}{_NBSP}to{' ' if breakable else _NBSP}{fmt(high)}"


#: The class of a table whose cells may break where they allow it (a long name after an underscore, an
#: interval after "to") where a page keeps cells on one line (the annotations explorer): the pairs of
#: raters and the annotators against the gold labels, a row per name with its interval.
_MAY_BREAK = "may-break"


#: Alpha at an ordinal, interval or ratio level has disagreements (distances), not agreement shares:
#: its "observed" and "chance" cells are "–" (not applicable), not "undefined".
_NOT_SHARES = object()


def _family_rows(family: Sequence[Any]) -> list[dict]:
    """Each row of :func:`iaa_teach.family_intervals` as the cells a reader sees, and its numbers."""
    out = []
    for row in family:
        res = row.result
        ex = res.exact
        value = float(res)
        items = _items_used(res)
        few = None if items is None else _few(items)
        low, high, cut = _clipped(row.metric, value, row.low, row.high, row.method == "analytic")
        note = ""
        if hasattr(res, "p_e"):
            observed, chance = (ex.p_a if hasattr(ex, "p_a") else ex.p_o), ex.p_e
            if row.metric == "percent_agreement":  # not chance-corrected: no chance to show (its P_e is 0)
                chance = _NOT_SHARES
            shown = "–" if chance is _NOT_SHARES else fmt(chance)
            working = [f"{'P_a' if hasattr(ex, 'p_a') else 'P_o'} = {fmt(observed)}", f"P_e = {shown}"]
        elif res.level == "nominal":  # Krippendorff's alpha: 1 - D_o / D_e, shares of pairs
            observed = None if ex.d_o is None else 1 - ex.d_o
            chance = None if ex.d_e is None else 1 - ex.d_e
            working = [f"1 - D_o = {fmt(observed)}", f"1 - D_e = {fmt(chance)}"]
        else:  # disagreements in squared distances: no share of agreement to show (1 - D_o means nothing)
            observed = chance = _NOT_SHARES
            note = f"D_o = {fmt(ex.d_o)} and D_e = {fmt(ex.d_e)}: mean squared {res.level} distances"
            working = [f"D_o = {fmt(ex.d_o)}, D_e = {fmt(ex.d_e)} ({res.level} distances)"]
        if not res.defined:
            band, note = "undefined", f"undefined: {res.reason}"
        elif row.metric == "percent_agreement":
            band = "–"
            note = "a raw share, not chance-corrected: no band"
        elif few:
            band = few
        else:
            band = interpret(max(float(res.exact_value), -1.0))
        if res.defined and row.reason:
            note = "; ".join(x for x in (note, f"SE: {row.reason}") if x)
        if cut:
            floor = format_number(_floor_of(row.metric, value), "g")
            note = "; ".join(x for x in (note, f"interval cut to the range {floor} to 1") if x)
        out.append(
            {
                "cells": [
                    row.name,
                    fmt(res.exact_value),
                    "–" if math.isnan(low) else _span(low, high),
                    fmt(row.se),
                    band,
                    "–" if observed is _NOT_SHARES else fmt(observed),
                    "–" if chance is _NOT_SHARES else fmt(chance),
                    "–" if items is None else f"{items:,}",
                    note,
                ],
                "low": low,
                "high": high,
                "observed": observed,
                "chance": chance,
                "cut": cut,
                "band": band,
                "items": items,
                "working": working,  # the text report's words for observed and chance
            }
        )
    return out


def _without_empty_notes(head: list, body: list) -> tuple[list, list]:
    """Header and rows without the last ("note") column when no row has a note."""
    if any(row[-1] for row in body):
        return head, body
    return head[:-1], [row[:-1] for row in body]


def family_html(family: Sequence[Any], dpi: int = FIGURE_DPI) -> str:
    """The section on the whole table.

    Every coefficient of the family with its SE and interval, and two charts.
    """
    from . import _plots as plots

    first = family[0]
    share = format_number(first.confidence, ".0%")
    if first.method == "analytic":
        how = _say("family_analytic")
    else:
        how = _say("family_bootstrap", n=first.bootstrap.n_boot)
    head, body = _without_empty_notes(
        [h.replace("95%", share) for h in _FAMILY_HEAD], [row["cells"] for row in _family_rows(family)]
    )
    table = _wrapped(head, body, f"The whole table: each coefficient with its {share} interval")
    chart = plots.family_chart([row for row in family if row.metric != "percent_agreement"])
    shares = {  # alpha's 1 - D_e is a share of pairs only at the nominal level
        row.name: row.result
        for row in family
        if row.metric != "krippendorff_alpha" or row.result.level == "nominal"
    }
    chance = plots.chance_chart(shares)
    return "\n".join(
        [
            '<section id="agreement"><h2>The whole table: how much do the raters agree?</h2>',
            _say("family_intro", share=share, how=_esc(how)),
            table,
            _say("family_note", least=MIN_ITEMS),
            _figure(chart, plots.alt_text(chart), _say("caption_family"), dpi),
            _figure(chance, plots.alt_text(chance), _say("caption_chance"), dpi),
            "</section>",
        ]
    )


def _pairs_lowest_first(report: Diagnosis) -> list[Any]:
    """The pairs' Cohen results, lowest kappa first, undefined last (then table order)."""
    return sorted(report.pairwise, key=lambda res: (not res.defined, float(res) if res.defined else 0.0))


def _pair_record(res: Any) -> dict:
    """One pair's Cohen's kappa as plain Python: its working, SE and interval (cut to -1 to 1, and said)."""
    kappa = float(res)
    low, high = res.ci()
    low, high, cut = _clipped("cohen_kappa", kappa, low, high, True)
    ex = res.exact
    return {
        "rater_a": res.rater_a,
        "rater_b": res.rater_b,
        "items": res.n_items,
        "p_o": _number(float(res.p_o)),
        "p_e": _number(float(res.p_e)),
        "kappa": _number(kappa),
        "p_o_exact": _exact(ex.p_o),
        "p_e_exact": _exact(ex.p_e),
        "kappa_exact": _exact(ex.kappa),
        "se": _number(res.se),
        "low": _number(low),
        "high": _number(high),
        "interval_cut": cut,
        "too_few_items": res.n_items < MIN_ITEMS,
        "reason": res.reason,
    }


def _pair_records(report: Diagnosis) -> list[dict]:
    return [_pair_record(res) for res in _pairs_lowest_first(report)]


def _cut_note(record: Mapping[str, Any], undefined: str = "undefined: ") -> str:
    """The note of a pair's or an annotator's row: why undefined, too few items, an interval cut."""
    notes = []
    if record["reason"]:
        notes.append(undefined + record["reason"])
    elif record["too_few_items"]:
        notes.append(f"too few items: {record['items']}")
    if record["interval_cut"]:
        notes.append("interval cut to -1 to 1")
    return "; ".join(notes)


def least_agreeing_pair(report: Diagnosis) -> tuple[Any, Any] | None:
    """The pair of raters with the lowest defined Cohen's kappa, preferring pairs with at least
    :data:`MIN_ITEMS` shared items; None when no pair's kappa is defined."""
    check_diagnosis("least_agreeing_pair", report)
    records = [rec for rec in _pair_records(report) if rec["kappa"] is not None]
    enough = [rec for rec in records if not rec["too_few_items"]] or records
    return (enough[0]["rater_a"], enough[0]["rater_b"]) if enough else None


def _check_pair(report: Diagnosis, pair: Any) -> tuple[Any, Any] | None:
    if pair is None:
        return least_agreeing_pair(report)
    raters = list(report.ratings.raters)
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise AgreementError(
            f"pair must be two rater names, e.g. ({raters[0]!r}, {raters[-1]!r}), got {pair!r}"
        )
    for name in pair:
        if name not in raters:
            raise AgreementError(f"pair: there is no rater {name!r}; the raters are {_listed(raters)}")
    if pair[0] == pair[1]:
        raise AgreementError(f"pair must be two different raters, got {pair[0]!r} twice")
    return pair[0], pair[1]


def cross_table(report: Diagnosis, pair: Any = None) -> dict:
    """Rater A's labels against rater B's on the items both labelled: rows A's label, columns B's.

    ``pair``: (A, B) by name; default :func:`least_agreeing_pair`. Returns
    ``{"rater_a", "rater_b", "categories", "counts" (k x k lists), "items",
    "agree"}``, or an empty dict when no pair is defined.
    """
    check_diagnosis("cross_table", report)
    pair = _check_pair(report, pair)
    if pair is None:
        return {}
    a, b = pair
    table = report.ratings.pair_tables([(a, b)])[0]
    return {
        "rater_a": a,
        "rater_b": b,
        "categories": list(report.ratings.categories),
        "counts": table.tolist(),
        "items": int(table.sum()),
        "agree": int(np.trace(table)),
    }


def _breakable(name: Any) -> str:
    """``name`` escaped for the page, free to break after each underscore (``annotator_<wbr>maria_<wbr>01``)."""
    return _esc(name).replace("_", "_<wbr>")


def _cross_html(counts: np.ndarray, cats: Sequence[Any], a: Any, b: Any, caption: str) -> str:
    """A k x k table of counts, rows ``a``'s labels, columns ``b``'s, with totals (escaped; called "sum"
    where a label is "total", :func:`margin_name`).

    The rows and columns are headed by the label alone; the corner names the two raters once, rows and
    columns, a long name free to break after an underscore: with long names or many raters the table
    fits a projector's page.
    """
    margin = margin_name(cats)  # "sum" where a label is "total"
    body = [[c, *[f"{int(x):,}" for x in counts[i]], f"{int(counts[i].sum()):,}"] for i, c in enumerate(cats)]
    body.append([margin, *[f"{int(x):,}" for x in counts.sum(axis=0)], f"{int(counts.sum()):,}"])
    html = _wrapped(["", *cats, margin], body, caption, "table-wrap cross")
    top, corner, rest = html.partition('<th scope="col">')
    named = f"{_breakable(a)} (rows) \\ {_breakable(b)} (columns)"
    return top + corner + named + rest


def pairs_html(report: Diagnosis, pair: Any = None, rows: int = 15) -> str:
    """The section on pairs of raters: every pair's Cohen's kappa with its working and interval, and the
    directed cross-table of one pair (``pair``, default the least agreeing)."""
    check_diagnosis("pairs_html", report)
    label = kappa_label(KAPPA_WEIGHTS[report.level])
    # "items": those both labelled (the intro says so); "shared items" made the table wider than a projector's
    # page where the labels fit
    head = ["rater A", "rater B", "kappa", "95% interval", "SE", "P_o", "P_e", "items", "note"]
    body = [
        [
            str(rec["rater_a"]),
            str(rec["rater_b"]),
            fmt(res.exact.kappa),
            "–" if rec["low"] is None else _span(rec["low"], rec["high"], breakable=True),
            fmt(rec["se"]),
            fmt(res.exact.p_o),
            fmt(res.exact.p_e),
            f"{rec['items']:,}",
            _cut_note(rec),
        ]
        for res, rec in ((res, _pair_record(res)) for res in _pairs_lowest_first(report))
    ]

    head, body = _without_empty_notes(head, body)

    def table(n: int | None, caption: str) -> str:
        return _wrapped(head, body if n is None else body[:n], caption, f"table-wrap last-note {_MAY_BREAK}")

    what = f"{_esc(label)} of every pair of raters, lowest first"
    parts = [
        '<section id="pairs"><h2>Pairs of raters: who agrees with whom?</h2>',
        _say("pairs_intro", kappa=_esc(label)),
    ]
    if len(body) <= rows:
        parts.append(table(None, what))
    else:
        parts += [
            table(rows, f"{what} (the first {rows} of {len(body):,})"),
            f"<details><summary>Show all {len(body):,} pairs</summary>{table(None, what)}</details>",
        ]
    cross = cross_table(report, pair)
    if cross:
        a, b, cats = cross["rater_a"], cross["rater_b"], cross["categories"]
        counts = np.array(cross["counts"])
        chosen = (
            "the only pair"
            if report.ratings.n_raters == 2
            else "the chosen pair"
            if pair is not None
            else "the least agreeing pair"
        )
        said = {"a": _esc(a), "b": _esc(b), "items": f"{cross['items']:,}", "agree": f"{cross['agree']:,}"}
        parts += [
            _say("cross_heading", chosen=chosen, **said),
            _say("cross_intro", **said),
            _cross_html(counts, cats, a, b, f"{a}'s labels against {b}'s"),
        ]
    parts.append("</section>")
    return "\n".join(parts)


# ============================================================ what to act on
_ADJUDICATE_FIXED = ("item", "disagreement", "ratings", "plurality", "labels", "why")
_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _why(counts: Mapping[Any, int]) -> str:
    """Why an item needs a decision, from its label counts: a tie, a split majority, or no majority."""
    used = sorted(((n, c) for c, n in counts.items() if n), key=lambda x: -x[0])
    m = sum(n for n, _ in used)
    top = used[0][0]
    leaders = [str(c) for n, c in used if n == top]
    rest = ", ".join(f"{c} {n}" for n, c in used if n != top)
    if len(leaders) > 1:
        tied = ", ".join(leaders[:-1]) + " and " + leaders[-1]
        return f"tie: {tied} have {top} each of {m} ratings" + (f"; {rest}" if rest else "")
    if 2 * top > m:
        return f"majority {leaders[0]} ({top} of {m}); the others: {rest}"
    return f"no majority: {leaders[0]} {top} of {m}; {rest}"


def adjudication_records(report: Diagnosis) -> list[dict]:
    """The items to adjudicate: every item whose ratings disagree, most disputed first.

    Each record: ``item``, ``disagreement``, ``ratings``, ``plurality``
    (the most frequent labels), ``labels`` (counts), ``why`` (a tie, a
    majority with dissent, or no majority) and ``by_rater`` (each rater's
    label in the table's rater order, None where missing). Items whose ratings all agree, and items
    with fewer than 2 ratings, are not listed.
    """
    check_diagnosis("adjudication_records", report)
    r = report.ratings
    position = {item: i for i, item in enumerate(r.items)}
    rows = r.rows()
    out = []
    for row in report.item_ranking():
        d = row["disagreement"]
        if math.isnan(d) or d == 0:
            continue
        out.append(
            {
                "item": row["item"],
                "disagreement": d,
                "ratings": int(row["ratings"]),
                "plurality": list(row["plurality"]),
                "labels": {str(c): int(n) for c, n in row["label_counts"].items() if n},
                "why": _why(row["label_counts"]),
                "by_rater": list(rows[position[row["item"]]]),
            }
        )
    return out


def _csv_cell(value: Any) -> str:
    """A cell for a spreadsheet: numbers as they are; text that a spreadsheet would run as a formula
    (starting with =, +, -, @) prefixed with ' so it stays text."""
    if value is None:
        return ""
    if isinstance(value, float):
        return fmt(value)
    text = str(value)
    if text.startswith(_CSV_FORMULA):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def adjudication_csv(report: Diagnosis) -> str:
    """:func:`adjudication_records` as CSV text: one row per item, a column per rater's label last."""
    import csv

    records = adjudication_records(report)
    raters = [str(name) for name in report.ratings.raters]
    heads = [f"rater {name}" if name in _ADJUDICATE_FIXED else name for name in raters]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([_csv_cell(h) for h in (*_ADJUDICATE_FIXED, *heads)])
    for rec in records:
        writer.writerow(
            [
                _csv_cell(rec["item"]),
                _csv_cell(rec["disagreement"]),
                rec["ratings"],
                _csv_cell(" / ".join(map(str, rec["plurality"]))),
                _csv_cell("; ".join(f"{c} {n}" for c, n in rec["labels"].items())),
                _csv_cell(rec["why"]),
                *[_csv_cell(v) for v in rec["by_rater"]],
            ]
        )
    return buffer.getvalue()


def write_adjudication_csv(report: Diagnosis, path: Any) -> str:
    """Write :func:`adjudication_csv` to ``path`` (UTF-8 with a byte-order mark, which spreadsheets
    need to read it as UTF-8); returns the path."""
    try:
        with open(path, "w", encoding="utf-8-sig", newline="") as fh:
            fh.write(adjudication_csv(report))
    except OSError as err:
        raise AgreementError(f"cannot write {path}: {err.strerror or err}") from None
    return os.fspath(path)


def adjudication_html(report: Diagnosis, name: str = "items_to_adjudicate.csv") -> str:
    """A section with the number of items to adjudicate and the CSV as a download (a data URI)."""
    check_diagnosis("adjudication_html", report)
    records = adjudication_records(report)
    if not records:
        return _say("adjudicate_none")
    data = base64.b64encode(("\ufeff" + adjudication_csv(report)).encode("utf-8")).decode("ascii")
    kinds = {
        "tie": "a tie between labels",
        "no majority": "no majority",
        "majority": "a majority and dissent",
    }
    counts = {kind: sum(rec["why"].startswith(kind) for rec in records) for kind in kinds}
    parts = [f"{n:,} with {kinds[kind]}" for kind, n in counts.items() if n]
    said = {"n": f"{len(records):,}", "of": f"{report.ratings.n_items:,}", "kinds": ", ".join(parts)}
    return _say("adjudicate", name=attr_escape(name), data=data, **said)


def gold_records(comparison: GoldComparison) -> list[dict]:
    """:func:`iaa_teach.diagnosis.compare_with_gold` as plain Python: one record per annotator, least
    accurate first, with its confusion table (rows the gold label, columns the annotator's)."""
    records = comparison.table.as_records()
    for rec in records:
        rec["confusion"] = comparison.confusion[rec["annotator"]].tolist()
        rec["too_few_items"] = rec["items"] < MIN_ITEMS
        rec["interval_cut"] = False
        if rec["low"] is not None:
            low, high, cut = _clipped("cohen_kappa", rec["kappa"], rec["low"], rec["high"], True)
            rec["low"], rec["high"], rec["interval_cut"] = low, high, cut
    return _reasons(
        records, lambda rec: f"{rec['annotator']} labelled no item that {comparison.gold} labelled"
    )


def gold_html(comparison: GoldComparison) -> str:
    """The section comparing each annotator with the gold labels: accuracy, Cohen's kappa with the gold,
    its interval, and the confusion table of the least accurate annotator."""
    gold = comparison.gold
    head = ["annotator", "accuracy", "correct", "items", "kappa with gold", "95% interval", "note"]
    body = []
    for rec in gold_records(comparison):
        body.append(
            [
                str(rec["annotator"]),
                fmt(rec["accuracy"]),
                f"{rec['correct']:,}",
                f"{rec['items']:,}",
                fmt(rec["kappa"]),
                "–" if rec["low"] is None else _span(rec["low"], rec["high"], breakable=True),
                _cut_note(rec, undefined=""),
            ]
        )
    head, body = _without_empty_notes(head, body)
    out = [
        '<section id="gold"><h2>Against the gold labels</h2>',
        _say("gold_intro", gold=_esc(gold)),
        _wrapped(head, body, f"Each annotator against {gold}", f"table-wrap last-note {_MAY_BREAK}"),
    ]
    first = next(iter(comparison.confusion), None)
    if first is not None:
        counts, cats = comparison.confusion[first], comparison.categories
        out += [
            _say("gold_heading", name=_esc(first)),
            _say("gold_cross", name=_esc(first)),
            _cross_html(counts, cats, gold, first, f"{first}'s labels against the gold"),
        ]
    out.append("</section>")
    return "\n".join(out)


def gold_lines(comparison: GoldComparison) -> list[str]:
    """The gold comparison as lines of the text report."""
    out = ["", f"Against the gold labels in column {comparison.gold} (least accurate first)"]
    for rec in gold_records(comparison):
        if rec["reason"]:
            out.append(f"  {rec['annotator']!s:<32} undefined: {rec['reason']}")
            continue
        few = f" ({_few(rec['items'])})" if rec["too_few_items"] else ""
        interval = "" if rec["low"] is None else f", 95% CI [{fmt(rec['low'])}, {fmt(rec['high'])}]"
        out.append(
            f"  {rec['annotator']!s:<32} accuracy {fmt(rec['accuracy'])} ({rec['correct']} of "
            f"{rec['items']}), kappa with gold {fmt(rec['kappa'])}{interval}{few}"
        )
    return [terminal_escape(line) for line in out]


#: Cautions printed with every report.
READING = tuple(_CONTENT["reading"])


def to_html(
    report: Diagnosis,
    source: str | None = None,
    top: int = 20,
    max_raters: int = 100,
    dpi: int = FIGURE_DPI,
    warning: str | None = None,
    family: Sequence[Any] | None = None,
    pair: Any = None,
    sure: RaterIntervals | None = None,
    gold: GoldComparison | None = None,
) -> str:
    """The whole report as one self-contained HTML page.

    Parameters
    ----------
    report : Diagnosis
        From :func:`iaa_teach.diagnose`.
    source : str, optional
        Where the ratings came from (a file name), shown in the title.
    top : int
        Rows of the item table (all items are in the JSON).
    max_raters : int
        Rows of the rater table and bars of the leave-one-out chart.
    dpi : int
        Resolution of the embedded figures.
    warning : str, optional
        A caution shown above the findings (plain text), e.g. that the
        columns are not the same people from item to item.
    family : list of FamilyInterval, optional
        The rows of :func:`iaa_teach.family_intervals` (default: computed,
        analytic intervals, unweighted).
    pair : (rater, rater), optional
        The pair whose cross-table is shown (default: the least agreeing).
    sure : RaterIntervals, optional
        :meth:`Diagnosis.rater_intervals` (default: computed).
    gold : GoldComparison, optional
        :func:`iaa_teach.diagnosis.compare_with_gold`: each annotator against
        the gold labels, a section of its own.

    Returns
    -------
    str
        An HTML5 document: no script, no external style sheet, image or font.

    Examples
    --------
    >>> from iaa_teach import datasets, diagnose
    >>> page = to_html(diagnose(datasets.sentiment()), source="sentiment.csv")
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page, page.count('<img src="data:image/png;base64,')
    (True, False, 6)
    """
    check_diagnosis("to_html", report)
    dpi = check_int("dpi", dpi, 1)
    check_text("warning", warning, none=True)
    _check_pair(report, pair)
    r = report.ratings
    if family is None:
        family = family_intervals(r, level=report.level)
    if sure is None:
        sure = report.rater_intervals()
    base = None if source is None else os.path.basename(str(source))
    missing = r.n_items * r.n_raters - r.n_ratings
    shape = {"n": f"{r.n_items:,}", "raters": f"{r.n_raters:,}", "k": r.n_categories}
    shape.update(ratings=f"{r.n_ratings:,}", missing=f"{missing:,}")
    texts = figure_texts(report, sure)
    figures = {
        key: _figure(draw(report, key, max_raters=max_raters, sure=sure), *texts[key], dpi)
        for key in figure_names(report)
    }
    categories = _esc(_joined(r.categories))
    # one summary of the table: how the file was read (with the level), else what the table is
    read = reading_html(r if gold is None else gold.whole, base, level=report.level)
    gold_note = "" if gold is None else _words("gold_note", gold=gold.gold, n=r.n_raters).strip()
    body = [
        read or _say("meta", categories=categories, level=_esc(report.level), **shape),
        f'<p class="note">{_esc(gold_note)}</p>' if gold_note else "",
        f'<p class="warning">{_esc(warning)}</p>' if warning else "",
        f'<section class="summary" aria-label="Summary">{summary_html(report, sure)}</section>',
        _say("contents", gold="" if gold is None else _say("contents_gold")),
        family_html(family, dpi),
        pairs_html(report, pair),
        sections_html(report, figures, top=top, max_raters=max_raters, sure=sure),
        adjudication_html(report),
        "" if gold is None else gold_html(gold),
    ]
    reading = "".join(f"<li>{_esc(line)}</li>" for line in READING)
    working = explain(report).html(math="text")
    page = {
        "csp": _CSP,
        "css": _CONTENT["css"],
        "name": _esc("your ratings" if base is None else base),
        "footer": _say("footer"),
        "reading": reading,
    }
    return _say("page", body="\n".join(body), working=working, **page)


def reading_html(ratings: Ratings, source: str | None = None, level: str | None = None) -> str:
    """How the file was read (:func:`summary_lines`) as HTML.

    The first line (with ``level``, if given, as "Level of measurement:
    ..."), then notes and warnings (escaped).

    Empty for a table that was not read from a file.
    """
    if ratings.reading is None:
        return ""
    first, *rest = summary_lines(ratings, source)
    if level is not None:
        first += f". Level of measurement: {level}."
    out = [f'<p class="meta">{_esc(first)}</p>']
    for line in rest:
        kind, text = line.strip().split(": ", 1)
        out.append(f'<p class="{"warning" if kind == "warning" else "note"}">{_esc(kind)}: {_esc(text)}</p>')
    return "\n".join(out)


def _write(path: Any, text: str) -> str:
    """Write ``text`` to ``path`` (UTF-8, ``\\n`` line ends); returns the path."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return os.fspath(path)


def write_html(report: Diagnosis, path: Any, source: str | None = None, **options: Any) -> str:
    """Write :func:`to_html` to ``path`` (UTF-8); returns the path."""
    return _write(path, to_html(report, source=source, **options))


# =================================================================== PDF
#: Where :func:`find_chromium` looks, in order, after ``$IAA_CHROMIUM``: Debian's
#: package first (the one the browser tests and CI use).
CHROMIUM_NAMES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
# no profile, network, extension or crash-report traffic: the page is printed and nothing else
_CHROMIUM_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-extensions --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync --disable-default-apps "
    "--disable-quic --no-pdf-header-footer --print-to-pdf-no-header"
).split()


def find_chromium() -> str | None:
    """The Chromium that :func:`html_to_pdf` runs: ``$IAA_CHROMIUM``, else the first of
    :data:`CHROMIUM_NAMES` that is an executable; None if there is none."""
    own = os.environ.get("IAA_CHROMIUM")
    return next((found for found in map(shutil.which, (own,) if own else CHROMIUM_NAMES) if found), None)


def html_to_pdf(page: str, path: Any, timeout: float = 180) -> str:
    """Print an HTML page to a PDF file with headless Chromium; returns the path.

    Why Chromium: Debian's package is kept up to date with security fixes,
    it is what the browser tests already need (``.ci/run`` installs it), and
    it typesets MathML Core natively, follows CSS paged media (``@page``
    size, margins and margin boxes with page numbers, ``break-inside``) and
    prints with no script. The page must be self-contained (inline style,
    MathML, data URIs): it is loaded from a temporary file with networking
    off, so nothing is fetched while printing.

    Raises
    ------
    AgreementError
        Chromium is not installed (with what to install), or it failed.
    """
    chromium = find_chromium()
    if chromium is None:
        raise AgreementError(
            "printing a PDF needs headless Chromium, which was not found: install Debian's "
            "package (`apt-get install chromium`) or set IAA_CHROMIUM to a Chromium executable; "
            "or write HTML (format='html') and print it from a browser"
        )
    target = os.path.abspath(os.fspath(path))
    with tempfile.TemporaryDirectory(prefix="iaa-pdf-") as tmp:
        source = _write(os.path.join(tmp, "page.html"), page)
        printed = os.path.join(tmp, "page.pdf")
        cmd = [
            chromium,
            *_CHROMIUM_FLAGS,
            f"--user-data-dir={os.path.join(tmp, 'profile')}",
            f"--print-to-pdf={printed}",
            "file://" + source,
        ]
        try:
            done = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "HOME": tmp},
            )
        except subprocess.TimeoutExpired:
            raise AgreementError(f"Chromium did not print the page within {timeout:g} s") from None
        except OSError as err:
            raise AgreementError(f"cannot run {chromium}: {err.strerror or err}") from None
        if not os.path.isfile(printed) or os.path.getsize(printed) == 0:
            tail = (done.stderr or "").strip().splitlines()[-3:]
            raise AgreementError(
                f"Chromium ({chromium}) wrote no PDF (exit code {done.returncode}): " + " | ".join(tail)
            )
        shutil.move(printed, target)
    return target


# ================================================================== JSON
def _exact(q: Fraction | None) -> str | None:
    return None if q is None else str(q)


def _reasons(records: list[dict], why: Any) -> list[dict]:
    """Give every record with a null number a ``reason``: its own, or ``why(record)``."""
    for record in records:
        if record.get("reason") is None and any(
            v is None for k, v in record.items() if k not in ("reason", "overused")
        ):
            record["reason"] = why(record)
    return records


def _number(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _share(x: Any) -> float | None:
    """An observed or chance agreement of the family table for JSON: None where not applicable or undefined."""
    return None if x is None or x is _NOT_SHARES else float(x)


def family_data(rows: Any) -> list[dict]:
    """The rows of :func:`iaa_teach.family_intervals` as plain Python records (NaN as None, with a reason).

    ``observed`` and ``chance`` are the HTML table's columns: None where they do not apply (percent
    agreement's ``chance``: it is not chance-corrected; both for alpha at a level other than nominal,
    whose D_o and D_e are distances, not shares) or are undefined.

    >>> from iaa_teach import datasets, family_intervals
    >>> record = family_data(family_intervals(datasets.sentiment()))[2]
    >>> record["name"], record["exact"], record["interval"]
    ("Fleiss' kappa", '31/55', 'analytic')
    """
    out = []
    for row, shown in zip(rows, _family_rows(rows)):
        out.append(
            {
                "name": row.name,
                "metric": row.metric,
                "value": _number(float(row.result)),
                "exact": _exact(row.result.exact_value),
                "se": _number(row.se),
                "observed": _share(shown["observed"]),
                "chance": _share(shown["chance"]),
                "low": _number(shown["low"]),
                "high": _number(shown["high"]),
                "interval_cut": shown["cut"],
                "confidence": row.confidence,
                "interval": row.method,
                "n_boot": None if row.bootstrap is None else row.bootstrap.n_boot,
                "items": shown["items"],
                "band": None if row.metric == "percent_agreement" else shown["band"],  # a raw share: no band
                "reason": row.reason,
            }
        )
    return out


def pairwise_data(report: Diagnosis) -> dict:
    """Cohen's kappa of every pair as plain Python: the raters x raters ``matrix`` (None on the diagonal
    and where undefined) and one record per pair, lowest kappa first (:func:`pairs_html`'s rows)."""
    check_diagnosis("pairwise_data", report)
    m = np.asarray(report.pairwise.matrix, dtype=float)
    return {
        "raters": list(report.pairwise.raters),
        "weights": KAPPA_WEIGHTS[report.level],
        "matrix": [[_number(x) for x in row] for row in m.tolist()],
        "pairs": _pair_records(report),
    }


def rater_intervals_data(sure: RaterIntervals) -> dict:
    """:meth:`Diagnosis.rater_intervals` as plain Python."""
    return {
        "confidence": sure.confidence,
        "n_boot": sure.n_boot,
        "raters": [
            {"rater": name, "low": _number(lo), "high": _number(hi), "se": _number(se), "n_undefined": int(u)}
            for name, lo, hi, se, u in zip(sure.raters, sure.low, sure.high, sure.se, sure.n_undefined)
        ],
        "cannot_be_told_from_first": list(sure.alike_first),
        "reason": sure.reason,
    }


def to_data(
    report: Diagnosis,
    family: Any = None,
    sure: RaterIntervals | None = None,
    pair: Any = None,
    gold: GoldComparison | None = None,
) -> dict:
    """The report's numbers as plain Python: every row of every table, NaN as None with a reason.

    ``family``: the rows of :func:`iaa_teach.family_intervals`, added as
    ``"family"`` (:func:`family_data`) when given. Always: ``"pairwise"``
    (:func:`pairwise_data`), ``"cross_table"`` (:func:`cross_table` of
    ``pair``, default the least agreeing pair) and ``"rater_intervals"``
    (:meth:`Diagnosis.rater_intervals`, or ``sure``); each rater record
    also carries ``rise_low`` and ``rise_high``; ``"adjudicate"``
    (:func:`adjudication_records`). With ``gold``, ``"gold"``
    (:func:`gold_records`).

    Examples
    --------
    >>> from iaa_teach import datasets, diagnose
    >>> data = to_data(diagnose(datasets.sentiment()))
    >>> data["alpha"]["exact"], data["raters"][0]["rater"], data["raters"][0]["alpha_without_exact"]
    ('159/275', 'B', '108/127')
    """
    check_diagnosis("to_data", report)
    r, alpha = report.ratings, report.alpha
    whole = r if gold is None else gold.whole
    if sure is None:
        sure = report.rater_intervals()
    bounds = dict(zip(sure.raters, zip(sure.low.tolist(), sure.high.tolist())))
    raters = report.rater_ranking().as_records()
    for record in raters:
        j = r.raters.index(record["rater"])
        record["alpha_without_exact"] = _exact(report.exact.alpha_without[j])
        record["rise_exact"] = _exact(report.exact.rise[j])
        low, high = bounds[record["rater"]]
        record["rise_low"], record["rise_high"] = _number(low), _number(high)

    def rater_reason(rec: dict) -> str:
        if rec["rise_low"] is None and sure.reason:
            return f"no interval for the rise: {sure.reason}"
        if rec["rise_low"] is None and rec["rise"] is not None:
            return "no interval for the rise: it was undefined in all but one bootstrap resample or fewer"
        return f"{rec['rater']} labelled no item that another rater labelled"

    _reasons(raters, rater_reason)
    d_o_zero = alpha.d_o == 0
    items = _reasons(
        report.item_ranking().as_records(),
        lambda rec: (
            "fewer than 2 ratings: no pair of ratings to compare"
            if rec["disagreement"] is None
            else "the table's observed disagreement D_o is 0, so no item has a share of it"
            if d_o_zero
            else "undefined"
        ),
    )
    pairs = _reasons(
        report.confused_pairs().as_records(),
        lambda rec: f"no pairable value in {rec['first']!r} or {rec['second']!r}, so nothing is expected",
    )
    categories = _reasons(
        report.category_agreement().as_records(), lambda rec: f"no pairable value in {rec['category']!r}"
    )
    ex = alpha.exact
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "table": {
            "items": r.n_items,
            "raters": list(r.raters),
            "categories": list(r.categories),
            "ratings": r.n_ratings,
            "missing": r.n_items * r.n_raters - r.n_ratings,
        },
        **({} if whole.reading is None else {"reading": _reading_data(whole)}),
        "level": report.level,
        "kappa_weights": KAPPA_WEIGHTS[report.level],
        "alpha": {
            "value": _number(alpha.alpha),
            "exact": _exact(ex.alpha),
            "d_o": alpha.d_o,
            "d_e": alpha.d_e,
            "d_o_exact": _exact(ex.d_o),
            "d_e_exact": _exact(ex.d_e),
            "n": alpha.n,
            "reason": alpha.reason,
        },
        "raters": raters,
        "items": items,
        "confused_pairs": pairs,
        "categories": categories,
        "pairwise": pairwise_data(report),
        "cross_table": cross_table(report, pair),
        "rater_intervals": rater_intervals_data(sure),
        "adjudicate": adjudication_records(report),
        **({} if family is None else {"family": family_data(family)}),
        **({} if gold is None else {"gold": {"column": gold.gold, "annotators": gold_records(gold)}}),
    }


def _reading_data(ratings: Ratings) -> dict:
    """How the file was read, for the JSON file: the summary lines, and the same as fields."""
    read = ratings.reading
    return {
        "summary": summary_lines(ratings),
        "path": os.path.basename(read.path),
        "layout": read.layout,
        "items_from": read.items_from,
        "raters_from": read.raters_from,
        "labels_from": read.labels_from,
        "notes": list(read.notes),
        "warnings": list(read.warnings),
        "missing": {marker: n for marker, n in read.missing},
    }


def to_json(
    report: Diagnosis,
    indent: int | None = None,
    family: Any = None,
    sure: RaterIntervals | None = None,
    pair: Any = None,
    gold: GoldComparison | None = None,
) -> str:
    """:func:`to_data` as strict JSON (``allow_nan=False``: no NaN or Infinity, undefined is ``null``).

    Compact by default (a table of 100,000 items gives one record per item);
    ``indent=1`` for a file to read.
    """
    separators = (",", ":") if indent is None else None
    return json.dumps(
        to_data(report, family, sure, pair, gold),
        indent=indent,
        separators=separators,
        ensure_ascii=False,
        allow_nan=False,
    )


def write_json(
    report: Diagnosis, path: Any, indent: int | None = None, family: Any = None, **more: Any
) -> str:
    """Write :func:`to_json` to ``path`` (UTF-8), with the family's rows if given; returns the path.

    ``more``: ``sure``, ``pair`` and ``gold``, as for :func:`to_data`."""
    return _write(path, to_json(report, indent=indent, family=family, **more) + "\n")


def write_files(
    ratings: Any,
    level: str = "nominal",
    html_path: Any = None,
    json_path: Any = None,
    source: str | None = None,
    family: Any = None,
    gold: GoldComparison | None = None,
    items_csv: Any = None,
) -> Diagnosis:
    """Diagnose ``ratings`` once and write the HTML page, the JSON file and/or the items to adjudicate
    as CSV (what the command line does).

    ``family``: the rows of :func:`iaa_teach.family_intervals`, written into
    the page and the JSON file too; ``gold``: the annotators against the
    gold labels (:func:`iaa_teach.diagnosis.compare_with_gold`), likewise;
    ``items_csv``: where to write :func:`adjudication_csv`.

    Raises
    ------
    AgreementError
        For ratings that cannot be diagnosed, or a file that cannot be
        written (naming it and why).
    """
    report = diagnose(ratings, level)
    sure = report.rater_intervals() if html_path is not None or json_path is not None else None
    for path, write in (
        (html_path, lambda p: write_html(report, p, source=source, family=family, sure=sure, gold=gold)),
        (json_path, lambda p: write_json(report, p, family=family, sure=sure, gold=gold)),
        (items_csv, lambda p: write_adjudication_csv(report, p)),
    ):
        if path is None:
            continue
        try:
            write(path)
        except OSError as err:
            raise AgreementError(f"cannot write {path}: {err.strerror or err}") from None
    return report
