"""Explorer 6: your own annotations. Upload a file (or give a path) and get the whole diagnostic report."""

from __future__ import annotations

import os
import tempfile
import textwrap
import warnings
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .. import _plots as plots
from .. import _report as report_files  # `report` names a Diagnosis in this module
from .. import datasets
from .._markup import attr_escape, html_escape
from .._reading import parse_categories, reads_as_number, to_number
from .._validation import check_option
from ..diagnosis import Diagnosis, compare_with_gold, diagnose
from ..metrics import LEVELS, family_intervals
from ..ratings import AgreementError, Ratings
from ..worked import explain
from ._base import (
    MIN_FONT_PT,
    WIDGET_DPI,
    Explorer,
    controls_row,
    figure_css_width,
    fmt,
    heading,
    image_widget,
    label_style,
    legend_below,
    note,
    png_bytes,
    projector_ready,
    q,
    table,
)

__all__ = [
    "AnnotationsExplorer",
    "EXAMPLES",
    "FILE_TYPES",
    "LAYOUTS",
    "VIEWS",
    "narrow_figure",
    "read_ratings_file",
    "read_upload",
    "what_to_change",
]

#: The files the upload accepts (by suffix).
FILE_TYPES = (".csv", ".tsv", ".txt", ".xlsx", ".json", ".jsonl")

#: The examples the explorer offers: label -> (data set, a caution shown with its report or None).
EXAMPLES = {
    "class exercise (simulated)": (datasets.class_annotations, None),
    "Fleiss 1971: psychiatric diagnoses": (
        datasets.diagnoses,
        "Each patient was diagnosed by a different set of six psychiatrists: the columns are not the same "
        "people from patient to patient, so the rater ranking describes the layout of the table, not "
        "psychiatrists. The items and categories mean what they say.",
    ),
    "the worked example: 10 sentences": (datasets.sentiment, None),
}

#: The short names of the examples in their dropdown (the full names are its tooltip).
_SHORT = {
    "class exercise (simulated)": "class exercise",
    "Fleiss 1971: psychiatric diagnoses": "Fleiss 1971",
    "the worked example: 10 sentences": "10 sentences",
}

#: The report's views, one at a time (the "show" control), with what each shows.
VIEWS = {
    "summary": "how the file was read, the main numbers and the findings",
    "figure: leave one out": "how much alpha rises without each rater",
    "figure: who agrees": "Cohen's kappa of every pair of raters, ordered by clustering",
    "figure: disputed items": "every item's disagreement, and the label shares of the most disputed",
    "figure: confusions": "the coincidences of the categories, the most confused outlined",
    "raters": "each rater's rise with its bootstrap interval, mean kappa, bias; who cannot be told apart",
    "items": "the most disputed items, ties named as ties",
    "categories": "the most confused pairs of categories, and agreement on each category",
    "pairs of raters": "Cohen's kappa of every pair with its interval, and the least agreeing pair's "
    "cross-table",
    "whole table": "every coefficient of the family with its SE and 95 % interval, and two charts",
    "to adjudicate": "the items to adjudicate, as a CSV download",
    "gold": "each annotator against the gold column: accuracy, kappa, confusion table",
    "working": "how the numbers are computed, step by step, and how to read the report",
    "file and saving": "how the file is read (layout, columns, rows, gold column), and saving the page",
}
_FIGURE_VIEWS = dict(zip(report_files.FIGURES, list(VIEWS)[1:5]))
_TEXT_VIEWS = list(VIEWS)[5:-1]

_KEPT_VIEWS = 64  # views and figures kept, of the last few data sets and levels: switching back is at once

#: Draws the figures of a report shown in a notebook ahead, one at a time, while the summary is read (one
#: thread for every explorer; it only draws PNGs, the widgets are set on the kernel's own thread).
_AHEAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="iaa-figures-ahead")

#: A figure beside the controls: as narrow and as tall as the playground's (inches).
NARROW_FIGSIZE = (3.2, 3.4)
#: Its confusion heatmap: the names on its axes cut to this many characters; numbers in its cells and every
#: category named up to this many categories (a cell of 12 is smaller than 9 pt text).
_NARROW_NAME, _NARROW_CELL_TEXT = 10, 8

_STYLE = """<style>
.iaa-annotationsexplorer .iaa-show { display: flex; }
:where(.iaa-annotationsexplorer) .iaa-numbers { max-height: max(18em, calc(100vh - 150px)); overflow-y: auto;
    max-width: 62em; }
.iaa-annotationsexplorer .iaa-report table { border-collapse: collapse; margin: 0.4em 0 0.8em;
    font-size: 0.9em; }
.iaa-annotationsexplorer .iaa-report th, .iaa-annotationsexplorer .iaa-report td {
    padding: 0.1em 0.3em; border-bottom: 1px solid #ccc; text-align: right; vertical-align: top;
    white-space: nowrap; }
.iaa-annotationsexplorer .iaa-numbers.iaa-report { overflow: auto; }
.iaa-annotationsexplorer .iaa-numbers.iaa-report > .widget-html-content { overflow: visible; }
.iaa-annotationsexplorer .iaa-report thead th { white-space: normal; vertical-align: bottom; }
.iaa-annotationsexplorer .iaa-report thead th:first-child, .iaa-annotationsexplorer .iaa-report tbody th {
    text-align: left; }
.iaa-annotationsexplorer .iaa-report .cross tbody th { white-space: normal; }
.iaa-annotationsexplorer .iaa-report .may-break td, .iaa-annotationsexplorer .iaa-report .may-break tbody th {
    white-space: normal; }
.iaa-annotationsexplorer .iaa-report caption { text-align: left; font-weight: bold; }
.iaa-annotationsexplorer .iaa-report .last-text td:nth-last-child(-n+2),
.iaa-annotationsexplorer .iaa-report .last-text th:nth-last-child(-n+2) { text-align: left; }
.iaa-annotationsexplorer .iaa-report h2 { font-size: 1.1em; margin: 0.3em 0 0.3em; }
.iaa-annotationsexplorer .iaa-report h3 { font-size: 1em; margin: 0.6em 0 0.3em; }
.iaa-annotationsexplorer .iaa-report .note { color: #555; font-size: 0.9em; }
.iaa-annotationsexplorer .iaa-report pre { background: #f6f6f6; padding: 0.4em 0.7em; white-space: pre-wrap; }
.iaa-annotationsexplorer .iaa-report img { max-width: 100%; height: auto; }
.iaa-annotationsexplorer .iaa-report ul { padding-left: 1.2em; margin: 0.2em 0; }
.iaa-annotationsexplorer .iaa-warning { background: #fff4e5; border-left: 4px solid #D55E00;
    padding: 0.3em 0.8em; }
.iaa-annotationsexplorer .iaa-reading p { margin: 0.2em 0; }
.iaa-annotationsexplorer .iaa-reading .warning {
    background: #fff4e5; border-left: 4px solid #D55E00; padding: 0.3em 0.8em; }
.iaa-annotationsexplorer .iaa-reading .note { color: #444; font-size: 0.95em; }
.iaa-annotationsexplorer .iaa-settings .widget-text input { min-width: 0; }
.iaa-annotationsexplorer .iaa-settings .widget-checkbox { width: auto; }
.iaa-annotationsexplorer .iaa-status { contain: inline-size; }
</style>"""


def _wrapped(text: str, width: int = 34) -> str:
    return textwrap.fill(" ".join(text.split()), width)


def narrow_figure(report: Diagnosis, name: str) -> Figure:
    """The report's figure ``name`` (of :data:`iaa_teach.report.FIGURES`) drawn narrow and tall, for the
    place beside the explorer's controls: :data:`NARROW_FIGSIZE`, short titles, at most 12 bars of the
    leave-one-out chart and 16 names on the heatmap's axes, no text under 9 pt (the tables list
    everything)."""
    fig = Figure(figsize=NARROW_FIGSIZE, dpi=WIDGET_DPI, layout="constrained")
    FigureCanvasAgg(fig)
    level = report.level
    if name == "leave_one_out":
        ax = fig.add_subplot()
        plots.leave_one_out_bars(report, max_raters=12, ax=ax)
        n = report.ratings.n_raters
        more = f"; the first {min(n, 12)} of {n}" if n > 12 else ""
        ax.set_title(
            _wrapped(f"Leave one rater out: alpha = {fmt(report.alpha)} ({level}{more})"), fontsize=10
        )
        ax.set_xlabel("rise of alpha without the rater")
        legend_below(ax, 0.4, -0.2, wrap=40)
    elif name == "raters":
        ax = fig.add_subplot()
        plots.rater_agreement_heatmap(report, ax=ax, names=16)
        flagged = "\n" in ax.get_title()
        ax.set_title(
            "Who agrees with whom" + ("\n(highlighted: least in step)" if flagged else ""), fontsize=10
        )
    elif name == "items":
        top, bottom = fig.subplots(2, 1, height_ratios=(1, 1.6))
        shown = min(6, report.ratings.n_items)
        plots.item_disagreement_chart(report, top=shown, axes=(top, bottom))
        fig.suptitle(f"Disagreement within each item ({level})", fontsize=10)
        top.set_title(f"All items (top {shown} in orange)", fontsize=9)
        top.set_ylabel("disagreement")
        top.set_xlabel("")
        bottom.set_title("")
        bottom.set_xlabel("label shares; disagreement")
        if fig.legends:  # in rows under the charts, within the figure's width
            handles, labels = bottom.get_legend_handles_labels()
            fig.legends.clear()
            plots.legend_in_rows(fig, handles, labels, fontsize=MIN_FONT_PT)
    else:
        ax = fig.add_subplot()
        plots.confusion_heatmap(report, ax=ax)
        k = len(report.ratings.categories)
        if k > 3:  # whole pairs (the categories' view gives them to a decimal); none in cells too small
            matrix = np.asarray(report.alpha.coincidences, dtype=float)
            for text in ax.texts:
                x, y = (int(round(v)) for v in text.get_position())
                if text.get_text():
                    text.set_text(fmt(matrix[y, x], 0) if k <= _NARROW_CELL_TEXT else "")
                    text.set_fontsize(9)
        step = -(
            -k // _NARROW_CELL_TEXT
        )  # every category named while a cell is as tall as 9 pt, else every step-th
        names = [plots.shortened(label.get_text(), _NARROW_NAME) for label in ax.get_yticklabels()][::step]
        ax.set_yticks(range(0, k, step), names)
        ax.set_xticks(range(0, k, step), names, rotation=90 if max(map(len, names)) > 3 else 0)
        ax.set_title("")  # above the colour bar too, where the square cells leave it room
        fig.suptitle(f"Confused categories:\ncoincidences of {int(report.alpha.n):,} values", fontsize=10)
        if (
            fig.legends
        ):  # the pairs outlined (the first of the ranking), their names cut to the figure's width
            drawn = fig.legends.pop()
            pairs = report.confused_pairs()
            shown = [pairs[x] for x in range(len(drawn.legend_handles))]
            plots.legend_in_rows(
                fig,
                drawn.legend_handles,
                lambda limit: [plots.pair_label(row, limit) for row in shown],
                max_cols=1,
                title=drawn.get_title().get_text(),
                fontsize=MIN_FONT_PT,
                title_fontsize=MIN_FONT_PT,
            )
        ax.set_xlabel("second value")
        ax.set_ylabel("first value")
    return projector_ready(fig)


def _figure_view(report: Diagnosis, name: str) -> tuple[bytes, str, str, str]:
    """The figure ``name`` of ``report`` beside the controls: its PNG, alt text, CSS width and caption."""
    texts = report_files.figure_texts(report)
    fig = narrow_figure(report, name)
    return png_bytes(fig), texts[name][0], figure_css_width(fig), texts[name][1]


#: The explorer's layouts, and the ``format`` / ``raters_as_rows`` each stands for.
LAYOUTS = {
    "guess": {},
    "wide": {"format": "wide"},
    "long": {"format": "long"},
    "raters as rows": {"raters_as_rows": True},
}

#: What to change in the explorer for each option an error or a warning names.
_CONTROLS = {
    "format=": 'the layout ("wide" / "long")',
    "raters_as_rows": 'the layout "raters as rows"',
    "item=": 'the "item column" box (type "none" for no item column)',
    "rater=": 'the "rater column" box',
    "label=": 'the "label column" box',
    "drop=": 'the "leave out" box',
    "skip_rows": 'the "skip rows" box',
    "fold_case": 'the "merge letter case" box',
    "keep_labels": 'the "keep as labels" box',
    "anonymise": 'the "raters as R1..Rn" box',
    "encoding=": 'the "encoding" box',
}


def read_ratings_file(path: Any, format: str | None = None, **options: Any) -> Ratings:
    """A ratings file as :class:`~iaa_teach.Ratings`: CSV, TSV (tab-separated) or an Excel ``.xlsx`` sheet.

    ``format``: None (guess), ``"wide"`` (a header row of rater names, one
    row per item) or ``"long"`` (one rating per row: item, rater, label);
    ``options``: the other keyword arguments of
    :meth:`~iaa_teach.Ratings.from_csv` (``item``, ``raters_as_rows``,
    ``drop``, ``skip_rows``, ``fold_case``...). Warnings about the file are
    in ``ratings.reading`` (not raised as Python warnings here).

    Raises
    ------
    AgreementError
        Naming the file and what is wrong with it.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return Ratings.from_file(os.fspath(path), format=format, **options)


def read_upload(upload: Any, format: str | None = None, **options: Any) -> tuple[Ratings, str]:
    """The file of a ``FileUpload`` value (one file: a dict with ``name`` and ``content``) as Ratings, and its
    name.

    The bytes go to a temporary file with the upload's suffix, which is
    read by :func:`read_ratings_file` (with ``format`` and ``options``) and
    removed; error messages name the uploaded file.
    """
    files = list(upload)
    if len(files) != 1:
        raise AgreementError(f"upload one file at a time (got {len(files)})")
    entry = files[0]
    name = os.path.basename(str(entry.get("name", "upload.csv"))) or "upload.csv"
    suffix = Path(name).suffix.lower()
    if suffix not in FILE_TYPES:
        raise AgreementError(f"{name}: upload a {', '.join(FILE_TYPES)} file")
    handle, path = tempfile.mkstemp(suffix=suffix, prefix="iaa-upload-")
    try:
        with os.fdopen(handle, "wb") as fh:
            fh.write(bytes(entry["content"]))
        try:
            return read_ratings_file(path, format=format, **options), name
        except AgreementError as err:
            raise AgreementError(str(err).replace(path, name)) from None
    finally:
        os.unlink(path)


def _not_read(source: str, where: str = "in the summary") -> str:
    """The status line when a file was not read: the error itself, and what to change, are ``where`` (once,
    in the view on show: the summary, or the file's settings)."""
    return f"{source or 'The file'} not read: why, and what to change, is {where}."


def what_to_change(message: str) -> str:
    """The explorer's controls that answer the options a message names (empty if it names none)."""
    found = [control for option, control in _CONTROLS.items() if option in message]
    return f" In this explorer: {'; '.join(found)}, then read the file again." if found else ""


def _with_hints(how: str, warned: Any) -> str:
    """The reading's HTML with, inside each warning, the explorer's controls that answer it (the warnings
    are its ``<p class="warning">`` lines, in the order of ``warned``)."""
    lines, hints = how.split("\n"), iter(warned)
    for i, line in enumerate(lines):
        if line.startswith('<p class="warning">') and line.endswith("</p>"):
            hint = what_to_change(next(hints, "")).strip()
            if hint:
                lines[i] = f"{line[: -len('</p>')]}<br>{html_escape(hint)}</p>"
    return "\n".join(lines)


class AnnotationsExplorer(Explorer):
    """Your own annotations: upload a ratings file, or give a path, and get the whole diagnostic report.

    Where the ratings come from: the upload button (CSV, TSV or XLSX), a
    path typed into the box ("read"), or one of :data:`EXAMPLES`. Then
    :func:`iaa_teach.diagnose` at the chosen level, and the report, one view
    at a time (the "show" control, :data:`VIEWS`): the summary (how the file
    was read, the main numbers and the findings), the four figures (leave one
    rater out, who agrees with whom, the disputed items, the confused
    categories), the raters with bootstrap intervals on their rise, the
    items, the categories, every pair of raters with Cohen's kappa and its
    interval, every coefficient of the whole table with its SE and interval,
    the items to adjudicate (a CSV download), each annotator against a gold
    column (if one is named), the worked steps, and the file's reading
    options. A view is computed when it is first shown, once per data set and
    level. "save HTML" writes the whole report as one self-contained page
    (:func:`iaa_teach.report.write_html`).

    How files are read: the layout ("guess", "wide", "long", "raters as
    rows"), the "item column" (``none``: no such column), the rater and
    label columns of a long file, the columns to "leave out", the "skip
    rows" above the header, the file's "encoding" (a CSV file not in UTF-8,
    such as Excel's cp1252) and "merge letter case" (the options of
    :meth:`iaa_teach.Ratings.from_csv`). The summary starts with how the file
    was read, every guess and every warning (:func:`iaa_teach.report.summary_lines`).

    Every callback only sets traits (``HTML.value``, ``Image.value``). A
    file that cannot be read clears the report shown and says why, and
    which control to change; ratings that cannot be diagnosed say why.

    Parameters
    ----------
    ratings : Ratings or table, optional
        Ratings to start with (default: the first of :data:`EXAMPLES`).
    path : str or path, optional
        A ratings file to start with (instead of ``ratings``).
    level : str
        Level of measurement.
    format : {"guess", "wide", "long", "raters as rows"}
        How files are laid out (:data:`LAYOUTS`).

    Attributes
    ----------
    report : Diagnosis or None
        The report shown.
    source : str
        Where its ratings came from.
    gold : GoldComparison or None
        Each annotator against the "gold column" (when one is named).

    Examples
    --------
    >>> ex = AnnotationsExplorer()
    >>> v = ex.values()
    >>> v["least in step"], v["rise"], v["most disputed"], v["most confused"]
    ('S27', '0.040', 'R35', 'neutral / mixed')
    >>> ex.show_view("raters")
    >>> "interval of rise" in ex.view_html("raters")
    True
    """

    title = "Your annotations: where does disagreement come from?"

    def __init__(
        self,
        ratings: Any = None,
        path: Any = None,
        level: str = "nominal",
        format: str = "guess",
        font_size: str | None = None,
    ):
        super().__init__(font_size)
        check_option("level", level, LEVELS)
        check_option("format", format, tuple(LAYOUTS))
        s = label_style()
        self.upload = w.FileUpload(
            accept=",".join(FILE_TYPES),
            multiple=False,
            description="upload",
            tooltip="a CSV, TSV or XLSX file: one row per item, one column per rater",
            layout=w.Layout(width="auto"),
        )
        self.path = w.Text(
            placeholder="or a path, e.g. my_ratings.csv",
            description="file",
            style=s,
            layout=w.Layout(width="17em"),
        )
        self.read_button = w.Button(
            description="read", tooltip="read the file named in the box", layout=w.Layout(width="4.5em")
        )
        self.example = w.Dropdown(
            options=[("(none)", "(none)"), *((_SHORT.get(name, name), name) for name in EXAMPLES)],
            value="(none)",
            description="example",
            style=s,
            tooltip="; ".join(EXAMPLES),
            layout=w.Layout(width="auto"),
        )
        self.format = w.ToggleButtons(
            options=list(LAYOUTS),
            value=format,
            description="layout",
            style=s,
            tooltips=[
                "wide or long, from the header (the report says which)",
                "one row per item, one column per rater",
                "one row per rating: item, rater, label",
                "one row per rater (a form's export), one column per item",
            ],
        )

        def box(description: str, placeholder: str, width: str = "15em") -> w.Text:
            """A file control's text box: it reads the file again on Enter, not at every key."""
            return w.Text(
                description=description,
                placeholder=placeholder,
                style=s,
                layout=w.Layout(width=width),
                continuous_update=False,
            )

        self.item_column = box("item column", "guess, or none")
        self.rater_column = box("rater column", "guess")
        self.label_column = box("label column", "guess")
        self.leave_out = box("leave out", "columns, comma-separated")
        self.keep_labels = box("keep as labels", "e.g. NA")
        self.encoding = box("encoding", "UTF-8", width="10em")
        self.encoding.tooltip = (
            "the file's encoding if it is not UTF-8: cp1252 for Excel's CSV, latin-1, utf-16"
        )
        self.skip_rows = w.BoundedIntText(
            value=0, min=0, max=1000, description="skip rows", style=s, layout=w.Layout(width="15em")
        )
        self.fold_case = w.Checkbox(value=False, description="merge letter case (Yes, yes)", indent=False)
        self.anonymise = w.Checkbox(value=False, description="raters as R1..Rn (anonymise)", indent=False)
        self.gold_column = box("gold column", "none; a rater's column")
        self.gold_column.tooltip = "the column of gold (adjudicated) labels: each other rater against it"
        self.level = w.Dropdown(
            options=list(LEVELS), value=level, description="level", style=s, layout=w.Layout(width="auto")
        )
        self.save_path = w.Text(
            value="annotation_report.html", description="save as", style=s, layout=w.Layout(width="17em")
        )
        self.save_button = w.Button(
            description="save HTML", tooltip="write the report as one HTML page", layout=w.Layout(width="7em")
        )
        self.order = w.Text(
            value="",
            description="category order",
            style=s,
            layout=w.Layout(width="15em"),
            placeholder="e.g. neg, neutral, pos",
            tooltip="the categories in their order, for the ordinal and interval levels",
        )
        self.status = w.HTML(value="")
        #: A file not read, in the file's settings view: why, and what to change (the summary is hidden there)
        self.settings_why = w.HTML(value="")
        self.status.add_class("iaa-status")  # wraps within the controls' width, never widens them
        self.figures = {name: image_widget() for name in report_files.FIGURES}
        self.captions = {name: w.HTML(value="") for name in report_files.FIGURES}
        self.texts = {name: w.HTML(value="") for name in _TEXT_VIEWS}
        self.report: Diagnosis | None = None
        self.gold: Any = None
        self.source = ""
        self.warning: str | None = None
        self.failure: str | None = None  # why the last file was not read
        self._again: Any = None  # reads the last file again (with the file controls as they are then)
        self._ratings: Ratings | None = None
        self._loaded = 0
        self._kept: dict = {}  # what each view shows, by (data loaded, level, order, gold, view)
        self._ahead: dict[tuple, Future] = {}  # the figures being drawn ahead, by their key in _kept
        self._draw_ahead = False  # on once the explorer is shown in a notebook

        self.upload.observe(self._uploaded, names="value")
        self.read_button.on_click(lambda _button: self.read_path(self.path.value))
        self.example.observe(self._example_chosen, names="value")
        self.file_controls = (
            self.format,
            self.item_column,
            self.rater_column,
            self.label_column,
            self.leave_out,
            self.skip_rows,
            self.fold_case,
            self.keep_labels,
            self.encoding,
            self.anonymise,
        )
        for control in self.file_controls:
            control.observe(self._format_changed, names="value")
        self.save_button.on_click(lambda _button: self.save_html(self.save_path.value))

        self._busy = True  # the first data are shown at _finish
        if path is not None:
            self._load(
                lambda: (read_ratings_file(path, **self.read_options()), os.path.basename(os.fspath(path))),
                os.path.basename(os.fspath(path)),
            )
        elif ratings is not None:
            self._set_ratings(
                ratings if isinstance(ratings, Ratings) else Ratings.from_rows(ratings), "your ratings"
            )
        else:
            first = next(iter(EXAMPLES))
            self.example.value = first
            self._set_ratings(EXAMPLES[first][0](), first, EXAMPLES[first][1], update=False)
        self._busy = False
        # one view at a time, on any screen (the report is many screens long): the four figures, each
        # text view, and the file's settings; the summary is the readout ("numbers")
        cells = []
        for name, image in self.figures.items():
            self.captions[name].add_class("iaa-wide-only")  # in a small window: the figure's alt text
            cells.append(w.VBox([image, self.captions[name]], layout=w.Layout(min_width="0")))
        for view in self.texts.values():
            view.add_class("iaa-numbers")  # scrolls in its own box, as the readout does
            view.add_class("iaa-report")
        settings = w.VBox(
            [
                self.settings_why,
                controls_row(self.path, self.read_button, self.encoding),
                controls_row(self.format),
                w.GridBox(
                    [
                        self.item_column,
                        self.rater_column,
                        self.label_column,
                        self.leave_out,
                        self.skip_rows,
                        self.keep_labels,
                        self.order,
                        self.gold_column,
                        self.fold_case,
                        self.anonymise,
                    ],
                    layout=w.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))", grid_gap="0 0.6em"),
                ),
                controls_row(self.save_path, self.save_button),
            ],
            layout=w.Layout(width="100%", max_width="36em"),
        )
        for control in settings.children[3].children:
            control.layout.width = "auto"  # half the box each
        settings.add_class("iaa-settings")
        settings.add_class("iaa-numbers")  # in a small window: scrolls in its own box, as the report does
        self.views = [*cells, *self.texts.values(), settings]
        self.readout.add_class("iaa-report")
        controls = [self.example, self.upload, self.level, self.status]
        self._finish(
            controls,
            images=self.views,
            watch=(self.level, self.order, self.gold_column),
            views=(),
            readout_below=False,  # the summary is one of the views, beside the controls
        )
        self.widget.children = (*self.widget.children, w.HTML(value=_STYLE))

    def update(self, change: Any = None) -> None:
        if getattr(self, "widget", None) is None:  # before _finish, which shows the first data
            return
        super().update(change)

    # ------------------------------------------------------------- views
    def _view_values(self) -> dict[str, str]:
        """Each view on offer (its name in :data:`VIEWS`) -> its value in the "show" control."""
        values = {"summary": "numbers"}
        figures = report_files.figure_names(self.report) if self.report is not None else ()
        for i, name in enumerate(report_files.FIGURES):
            if name in figures:
                values[_FIGURE_VIEWS[name]] = str(i)
        for i, name in enumerate(_TEXT_VIEWS, start=len(report_files.FIGURES)):
            if self.report is not None and (name != "gold" or self.gold is not None):
                values[name] = str(i)
        values["file and saving"] = str(len(self.views) - 1)
        return values

    def _view_names(self) -> None:
        """Offer the views the report has (no rater figures for 2 raters, gold only with a gold column)."""
        values = self._view_values()
        options = [(name, value) for name, value in values.items()]
        if list(self.show.options) != options:
            settings = self.show.value == values["file and saving"]  # changing them: they stay on show
            kept = (self._kept or settings) and self.show.value in values.values()  # else the summary first
            chosen = self.show.value if kept else "numbers"
            self._busy = True  # new options: ipywidgets chooses the first, then the one chosen before
            self.show.options = options
            self.show.value = chosen
            self._busy = False
        self._show_view({"new": self.show.value})

    def show_view(self, name: str) -> None:
        """Show the view ``name`` (one of :data:`VIEWS`), as choosing it in "show" does."""
        values = self._view_values()
        if name not in values:
            raise AgreementError(f"view must be one of {list(values)}, got {name!r}")
        self.show.value = values[name]

    def _view_chosen(self, value: str) -> str:
        # a figure: that picture beside the controls; any text (and the settings): the whole width
        return value if value.isdigit() and int(value) < len(report_files.FIGURES) else "numbers"

    def _show_view(self, change: dict) -> None:
        super()._show_view(change)
        value = change["new"]
        self.readout.layout.display = None if value == "numbers" else "none"
        for i, view in enumerate(self.views):
            view.layout.display = None if value == str(i) else "none"
        if not self._busy:
            self._fill(value)

    def view_html(self, name: str) -> str:
        """The HTML of the text view ``name`` (computed if not yet: one of :data:`VIEWS` past the figures)."""
        if name == "summary":
            return self.readout.value
        if name not in _TEXT_VIEWS:
            raise AgreementError(
                f"name must be a text view, one of {['summary', *_TEXT_VIEWS]}, got {name!r}"
            )
        key = self._key(name)
        if key not in self._kept:
            self._kept[key] = self._text(name) if self.report is not None else ""
        return self._kept[key]

    def _key(self, name: str) -> tuple:
        return (self._loaded, self.level.value, self.order.value, self.gold_column.value, name)

    def _fill(self, value: str) -> None:
        """Compute (once) and show what the view ``value`` of "show" shows."""
        i = int(value) if value.isdigit() else -1
        names = list(report_files.FIGURES)
        if 0 <= i < len(names):
            self._picture(names[i])
        elif len(names) <= i < len(names) + len(_TEXT_VIEWS):
            name = _TEXT_VIEWS[i - len(names)]
            self.texts[name].value = self.view_html(name)

    def _picture(self, name: str) -> None:
        """Draw (once per data and level) the report's figure ``name``, narrow, for the place beside the
        controls."""
        image, caption = self.figures[name], self.captions[name]
        report = self.report
        if report is None or name not in report_files.figure_names(report):
            image.value, caption.value = b"", ""
            return
        key = self._key(f"figure {name}")
        if key not in self._kept:
            ahead = self._ahead.pop(key, None)
            try:  # drawn ahead, or being drawn: its picture (not yet begun: drawn here)
                drawn = ahead.result() if ahead is not None and not ahead.cancel() else None
            except CancelledError:
                drawn = None
            self._kept[key] = drawn or _figure_view(report, name)
        png, alt, width, words = self._kept[key]
        caption.value = f'<div class="iaa-note" style="font-size: 0.85em">{words}</div>'
        self._set_image(image, png, alt, width)

    def _figures_ahead(self) -> None:
        """Draw the report's figures not drawn yet on :data:`_AHEAD`'s thread (those of an earlier report
        not begun yet are dropped): a figure chosen in "show" is then only sent, not drawn."""
        for key, future in list(self._ahead.items()):
            if future.cancel() or future.done():
                self._ahead.pop(key)
        report = self.report
        if not self._draw_ahead or report is None:
            return
        for name in report_files.figure_names(report):
            key = self._key(f"figure {name}")
            if key not in self._kept and key not in self._ahead:
                self._ahead[key] = _AHEAD.submit(_figure_view, report, name)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict:
        self._draw_ahead = True  # shown in a notebook: the figures are drawn while the summary is read
        self._figures_ahead()
        return super()._repr_mimebundle_(include, exclude, **kwargs)

    def _text(self, name: str) -> str:
        """The HTML of a text view of :attr:`report` (see :data:`VIEWS`)."""
        report = self.report
        if name in ("raters", "items", "categories"):
            sure = self._sure() if name == "raters" else None
            return report_files.section_html(report, name, top=20, max_raters=100, sure=sure)
        if name == "pairs of raters":
            return report_files.pairs_html(report)
        if name == "whole table":
            return report_files.family_html(self._family(), dpi=plots.DPI)
        if name == "to adjudicate":
            return report_files.adjudication_html(report)
        if name == "gold":
            return report_files.gold_html(self.gold) if self.gold is not None else ""
        return (
            '<section id="working"><h2>How the numbers are computed</h2>'
            + explain(report).html(math="text")
            + "</section><section><h2>How to read this report</h2><ul>"
            + "".join(f"<li>{attr_escape(line)}</li>" for line in report_files.READING)
            + "</ul></section>"
        )

    def _sure(self) -> Any:
        """The bootstrap intervals on each rater's rise (computed once per data and level)."""
        key = self._key("_sure")
        if key not in self._kept:
            self._kept[key] = self.report.rater_intervals()
        return self._kept[key]

    def _family(self) -> Any:
        """Every coefficient of the whole table with its SE and interval (once per data and level)."""
        key = self._key("_family")
        if key not in self._kept:
            self._kept[key] = family_intervals(self.report.ratings, level=self.report.level)
        return self._kept[key]

    def static_picture(self) -> str:
        """A still picture of the report for a page without a kernel (the static book): the summary, the four
        figures and the views quick to compute (items, categories, the items to adjudicate, the working), one
        after the other; the others (intervals, pairs, the whole table) need the bootstrap, in the live
        view."""
        quick = ("items", "categories", "to adjudicate", "working")
        shown = {
            "numbers",
            *(v for k, v in self._view_values().items() if k.startswith("figure") or k in quick),
        }
        before = [(view, view.layout.display) for view in (self.readout, *self.views)]
        try:
            for i, view in enumerate(self.views):
                if str(i) in shown:
                    self._fill(str(i))
                view.layout.display = None if str(i) in shown else "none"
            self.readout.layout.display = None
            return super().static_picture()
        finally:
            for view, display in before:
                view.layout.display = display

    # ------------------------------------------------------------- input
    @property
    def ratings(self) -> Ratings | None:
        """The ratings of the report shown."""
        return self._ratings

    def _set_ratings(
        self, ratings: Ratings | None, source: str, warning: str | None = None, update: bool = True
    ) -> None:
        self._ratings, self.source, self.warning = ratings, source, warning
        self._loaded += 1
        if update:
            self.update()

    def read_options(self) -> dict:
        """The keyword arguments of :meth:`~iaa_teach.Ratings.from_csv` that the file controls set."""
        options: dict = dict(LAYOUTS[self.format.value])
        item = self.item_column.value.strip()
        if item:
            options["item"] = False if item.lower() == "none" else item
        for key, box in (("rater", self.rater_column), ("label", self.label_column)):
            if box.value.strip():
                options[key] = box.value.strip()
        for key, box in (("drop", self.leave_out), ("keep_labels", self.keep_labels)):
            if box.value.strip():
                options[key] = parse_categories(box.value, f'"{box.description}"')
        options["skip_rows"], options["fold_case"] = self.skip_rows.value, self.fold_case.value
        if self.encoding.value.strip():
            options["encoding"] = self.encoding.value.strip()
        options["anonymise"] = self.anonymise.value
        return options

    def _load(self, read, source: str = "") -> None:
        """Read with ``read()`` -> (ratings, source); on failure clear the report and say why, and what to
        change."""
        self._again = (read, source)
        try:
            ratings, source = read()
        except AgreementError as err:  # said once, in the view on show; here only that it failed
            self.failure = f"Not read: {err}." + what_to_change(str(err))
            self.settings_why.value = note(self.failure, "iaa-why")
            self._busy = True
            self.example.value = "(none)"
            self._busy = False
            self._set_ratings(None, source)
            self.status.value = note(self._not_read(source), "iaa-why")
            return
        self.status.value = self.settings_why.value = ""
        self.failure = None
        self._busy = True
        self.example.value = "(none)"
        self._busy = False
        self._set_ratings(ratings, source)

    def _not_read(self, source: str) -> str:
        """:func:`_not_read`, pointing to the view on show: the file's settings, or the summary."""
        settings = self.show.value == self._view_values()["file and saving"]
        return _not_read(source, "above the file's settings" if settings else "in the summary")

    def _uploaded(self, change: dict) -> None:
        if change["new"]:
            name = os.path.basename(str(list(change["new"])[0].get("name", ""))) if len(change["new"]) else ""
            self._load(lambda: read_upload(change["new"], **self.read_options()), name)

    def read_path(self, path: Any) -> None:
        """Read the ratings file at ``path`` (what the "read" button does)."""
        path = str(path).strip()
        if not path:
            self.status.value = note("Type the path of a ratings file first.", "iaa-why")
            return
        self._load(
            lambda: (read_ratings_file(path, **self.read_options()), os.path.basename(path)),
            os.path.basename(path),
        )

    def _example_chosen(self, change: dict) -> None:
        if self._busy or change["new"] not in EXAMPLES:
            return
        data, warning = EXAMPLES[change["new"]]
        self.status.value = self.settings_why.value = ""
        self.failure = self._again = None
        self._set_ratings(data(), change["new"], warning)

    def _format_changed(self, change: dict) -> None:
        """A file control changed: the last file is read again with it (an example stays as it is)."""
        what = change["owner"].description
        now = f"as {change['new']}" if change["owner"] is self.format else f"with the new {what!r}"
        if self._again is None or self.example.value != "(none)":
            self.status.value = note(f"Files are now read {now}: upload or read a file.")
            return
        self._load(*self._again)
        source = self._again[1]
        outcome = f"{source} read again." if self.failure is None else self._not_read(source)
        self.status.value = note(
            f"Files are now read {now}: {outcome}", "iaa-why" if self.failure else "iaa-note"
        )

    def save_html(self, path: Any) -> str | None:
        """Write the report shown as one HTML page at ``path``; returns the absolute path (None on
        failure)."""
        if self.report is None:
            self.status.value = note("Nothing to save yet.", "iaa-why")
            return None
        path = str(path).strip() or "annotation_report.html"
        kept = {
            key: self._kept.get(self._key(f"_{key}")) for key in ("family", "sure")
        }  # computed for a view already: not again
        try:
            report_files.write_html(
                self.report,
                path,
                source=self.source,
                warning=self.warning,
                gold=self.gold,
                **{key: value for key, value in kept.items() if value is not None},
            )
        except OSError as err:
            self.status.value = note(f"Not saved: cannot write {path} ({err.strerror or err})", "iaa-why")
            return None
        full = os.path.abspath(path)
        self.status.value = note(f"Saved the report as {full}")
        return full

    # ----------------------------------------------------------- report
    def ordered(self, ratings: Ratings) -> Ratings:
        """``ratings`` with the categories in the order typed in the "category order" box (if any)."""
        text = self.order.value.strip()
        if not text:
            return ratings
        order = parse_categories(text, "category order")
        if all(reads_as_number(v) for v in order) and all(
            isinstance(c, (int, float)) for c in ratings.categories
        ):
            order = [to_number(v) for v in order]
        return Ratings.from_rows(ratings.rows(), raters=ratings.raters, items=ratings.items, categories=order)

    def _compute(self) -> str:
        r = self._ratings
        self.report = self.gold = None
        if r is None:
            if self.failure:
                return note(self.failure, "iaa-why")
            return note("Upload a ratings file, give its path, or choose an example.")
        how = report_files.reading_html(r, self.source)
        try:
            r = self.ordered(r)
            gold = self.gold_column.value.strip()
            if gold:
                self.gold = compare_with_gold(r, gold)
                r = self.gold.annotators
            report = diagnose(r, self.level.value)
            report.rater_ranking()  # computed here, so that an error shows now
        except AgreementError as err:
            self.report = self.gold = None
            return note(f"No report for {self.source}: {err}", "iaa-why")
        self.report = report
        raters, items, pairs = report.rater_ranking(), report.item_ranking(), report.confused_pairs()
        first = raters[0]
        rows = [
            ["ratings", q("source", self.source)],
            ["table", q("shape", f"{r.n_items:,} items x {r.n_raters} raters, {r.n_categories} categories")],
            [f"alpha ({self.level.value})", q("alpha", fmt(report.alpha.exact.alpha))],
            # two raters: leaving one out leaves no pair, so no one is least in step (the rise is undefined)
            ["least in step", q("least in step", first["rater"] if r.n_raters > 2 else "none: 2 raters")],
            ["alpha rises without them by", q("rise", fmt(first["rise"]))],
            ["most disputed item", q("most disputed", items[0]["item"])],
            ["its disagreement", q("disagreement", fmt(items[0]["disagreement"]))],
        ]
        if len(pairs):
            rows += [
                ["most confused", q("most confused", f"{pairs[0]['first']} / {pairs[0]['second']}")],
                ["observed / expected", q("ratio", fmt(pairs[0]["ratio"]))],
            ]
        return (
            (
                f'<div class="iaa-reading">{_with_hints(how, self._ratings.reading.warnings)}</div>'
                if how
                else ""
            )
            + (note(self.warning, "iaa-warning") if self.warning else "")
            + heading("What the report finds")
            + report_files.summary_html(report)
            + table(["", "value"], rows)
            + note(
                'Each finding in full, with its figure, table and interval: choose it in "show". A rise, a '
                "ranking or a tie between raters is as sure as its interval in the raters' view."
            )
        )

    def _redraw(self) -> None:
        self._view_names()
        while len(self._kept) > _KEPT_VIEWS:
            self._kept.pop(next(iter(self._kept)))
        self._figures_ahead()
