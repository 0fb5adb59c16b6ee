"""Explorer 6: your own annotations. Upload a file (or give a path) and get the whole diagnostic report."""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import ipywidgets as w

from .. import _plots as plots
from .. import _report as report_files  # `report` names a Diagnosis in this module
from .. import datasets
from .._markup import attr_escape
from .._reading import parse_categories, reads_as_number, to_number
from .._validation import check_option
from ..diagnosis import Diagnosis, diagnose
from ..metrics import LEVELS
from ..ratings import AgreementError, Ratings
from ..worked import explain
from ._base import Explorer, controls_row, fmt, heading, image_widget, label_style, note, png_bytes, q, table

__all__ = [
    "AnnotationsExplorer",
    "EXAMPLES",
    "FILE_TYPES",
    "LAYOUTS",
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

_KEPT_REPORTS = 4  # the figures of the last few data sets and levels are kept, to switch back at once

_STYLE = """<style>
.iaa-annotationsexplorer .iaa-report table { border-collapse: collapse; margin: 0.4em 0 0.8em; }
.iaa-annotationsexplorer .iaa-report th, .iaa-annotationsexplorer .iaa-report td {
    padding: 0.12em 0.55em; border-bottom: 1px solid #ccc; text-align: right; vertical-align: top; }
.iaa-annotationsexplorer .iaa-report thead th:first-child, .iaa-annotationsexplorer .iaa-report tbody th {
    text-align: left; }
.iaa-annotationsexplorer .iaa-report caption { text-align: left; font-weight: bold; white-space: nowrap; }
.iaa-annotationsexplorer .iaa-report .last-text td:nth-last-child(-n+2),
.iaa-annotationsexplorer .iaa-report .last-text th:nth-last-child(-n+2) { text-align: left; }
.iaa-annotationsexplorer .iaa-report h2 { font-size: 1.2em; margin: 1em 0 0.3em; }
.iaa-annotationsexplorer .iaa-report .note { color: #555; font-size: 0.9em; }
.iaa-annotationsexplorer .iaa-report pre { background: #f6f6f6; padding: 0.4em 0.7em; }
.iaa-annotationsexplorer .iaa-warning { background: #fff4e5; border-left: 4px solid #D55E00; padding: 0.3em 0.8em; }
.iaa-annotationsexplorer .iaa-reading p { margin: 0.2em 0; }
.iaa-annotationsexplorer .iaa-reading .warning {
    background: #fff4e5; border-left: 4px solid #D55E00; padding: 0.3em 0.8em; }
.iaa-annotationsexplorer .iaa-reading .note { color: #444; font-size: 0.95em; }
</style>"""


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
    """The file of a ``FileUpload`` value (one file: a dict with ``name`` and ``content``) as Ratings, and its name.

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


def what_to_change(message: str) -> str:
    """The explorer's controls that answer the options a message names (empty if it names none)."""
    found = [control for option, control in _CONTROLS.items() if option in message]
    return f" In this explorer: {'; '.join(found)}, then read the file again." if found else ""


class AnnotationsExplorer(Explorer):
    """Your own annotations: upload a ratings file, or give a path, and get the whole diagnostic report.

    Where the ratings come from: the upload button (CSV, TSV or XLSX), a
    path typed into the box ("read"), or one of :data:`EXAMPLES`. Then
    :func:`iaa_teach.diagnose` at the chosen level, and the report: the
    findings, the four figures (leave one rater out, who agrees with whom,
    the disputed items, the confused categories), the four tables and the
    worked steps. "save HTML" writes the same report as one self-contained
    page (:func:`iaa_teach.report.write_html`).

    How files are read: the layout ("guess", "wide", "long", "raters as
    rows"), the "item column" (``none``: no such column), the rater and
    label columns of a long file, the columns to "leave out", the "skip
    rows" above the header and "merge letter case" (the options of
    :meth:`iaa_teach.Ratings.from_csv`). Above the report: how the file was
    read, every guess and every warning (:func:`iaa_teach.report.summary_lines`).

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

    Examples
    --------
    >>> ex = AnnotationsExplorer()
    >>> v = ex.values()
    >>> v["least in step"], v["rise"], v["most disputed"], v["most confused"]
    ('S27', '0.040', 'R35', 'neutral / mixed')
    """

    title = "Your own annotations: where does the disagreement come from?"

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
            description="upload ratings",
            tooltip="a CSV, TSV or XLSX file: one row per item, one column per rater",
            layout=w.Layout(width="14em"),
        )
        self.path = w.Text(
            placeholder="or a path, e.g. my_ratings.csv",
            description="file",
            style=s,
            layout=w.Layout(width="26em"),
        )
        self.read_button = w.Button(
            description="read", tooltip="read the file named in the box", layout=w.Layout(width="6em")
        )
        self.example = w.Dropdown(
            options=["(none)", *EXAMPLES],
            value="(none)",
            description="or an example",
            style=s,
            layout=w.Layout(width="30em"),
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
            layout = w.Layout(width=width)
            return w.Text(
                description=description,
                placeholder=placeholder,
                style=s,
                layout=layout,
                continuous_update=False,
            )

        self.item_column = box("item column", "guess (none: no such column)")
        self.rater_column = box("rater column", "guess")
        self.label_column = box("label column", "guess")
        self.leave_out = box("leave out", "columns, comma-separated", "20em")
        self.keep_labels = box("keep as labels", "e.g. NA")
        self.skip_rows = w.BoundedIntText(
            value=0, min=0, max=1000, description="skip rows", style=s, layout=w.Layout(width="10em")
        )
        self.fold_case = w.Checkbox(value=False, description="merge letter case (Yes, yes)", indent=False)
        self.anonymise = w.Checkbox(value=False, description="raters as R1..Rn (anonymise)", indent=False)
        self.level = w.Dropdown(
            options=list(LEVELS), value=level, description="level", style=s, layout=w.Layout(width="14em")
        )
        self.save_path = w.Text(
            value="annotation_report.html", description="save as", style=s, layout=w.Layout(width="22em")
        )
        self.save_button = w.Button(
            description="save HTML", tooltip="write the report as one HTML page", layout=w.Layout(width="8em")
        )
        self.order = w.Text(
            value="",
            description="category order",
            style=s,
            layout=w.Layout(width="28em"),
            placeholder="e.g. negative, neutral, positive",
            tooltip="the categories in their order, for the ordinal and interval levels",
        )
        self.status = w.HTML(value="")
        self.details = w.HTML(value="", layout=w.Layout(max_width="62em"))
        self.figures = {name: image_widget() for name in report_files.FIGURES}
        for (
            image
        ) in self.figures.values():  # FIGURE_DPI pixels per inch, shown at plots.DPI: sharp when zoomed
            image.layout.width, image.layout.max_width = (
                "100%",
                f"{round(plots.REPORT_FIGSIZE[0] * plots.DPI)}px",
            )
        self.captions = {name: w.HTML(value="") for name in report_files.FIGURES}
        self.report: Diagnosis | None = None
        self.source = ""
        self.warning: str | None = None
        self.failure: str | None = None  # why the last file was not read
        self._again: Any = None  # reads the last file again (with the file controls as they are then)
        self._ratings: Ratings | None = None
        self._loaded = 0
        self._pngs: dict = {}

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
            self.anonymise,
        )
        for control in self.file_controls:
            control.observe(self._format_changed, names="value")
        self.save_button.on_click(lambda _button: self.save_html(self.save_path.value))

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
            self._busy = True  # choosing the example below loads it once, at _finish
            self.example.value = first
            self._busy = False
            self._set_ratings(EXAMPLES[first][0](), first, EXAMPLES[first][1], update=False)
        cells = []
        for name, image in self.figures.items():
            cell = w.VBox([image, self.captions[name]])
            cell.add_class(f"iaa-figure-{name}")
            cells.append(cell)
        grid = w.GridBox(
            cells,
            layout=w.Layout(
                grid_template_columns="repeat(auto-fill, minmax(30em, 44em))", grid_gap="0.5em", width="100%"
            ),
        )
        controls = [
            controls_row(self.upload, self.path, self.read_button),
            self.example,
            controls_row(self.format),
            controls_row(self.item_column, self.rater_column, self.label_column, self.leave_out),
            controls_row(self.skip_rows, self.keep_labels, self.fold_case, self.anonymise),
            controls_row(self.level, self.order),
            self.status,
        ]
        self._finish(controls, images=[w.VBox([])], watch=(self.level, self.order), views=None)
        style = w.HTML(value=_STYLE)
        self.widget.children = (
            *self.widget.children,
            grid,
            self.details,
            controls_row(self.save_path, self.save_button),
            style,
        )

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
        options["anonymise"] = self.anonymise.value
        return options

    def _load(self, read, source: str = "") -> None:
        """Read with ``read()`` -> (ratings, source); on failure clear the report and say why, and what to change."""
        self._again = (read, source)
        try:
            ratings, source = read()
        except AgreementError as err:
            self.status.value = note(f"Not read: {err}", "iaa-why")
            self.failure = f"Not read: {err}." + what_to_change(str(err))
            self._busy = True
            self.example.value = "(none)"
            self._busy = False
            self._set_ratings(None, source)
            return
        self.status.value = ""
        self.failure = None
        self._busy = True
        self.example.value = "(none)"
        self._busy = False
        self._set_ratings(ratings, source)

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
        self.status.value = ""
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
        outcome = f"{source} read again." if self.failure is None else f"{self.failure}"
        self.status.value = note(
            f"Files are now read {now}: {outcome}", "iaa-why" if self.failure else "iaa-note"
        )

    def save_html(self, path: Any) -> str | None:
        """Write the report shown as one HTML page at ``path``; returns the absolute path (None on failure)."""
        if self.report is None:
            self.status.value = note("Nothing to save yet.", "iaa-why")
            return None
        path = str(path).strip() or "annotation_report.html"
        try:
            report_files.write_html(self.report, path, source=self.source, warning=self.warning)
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
        if r is None:
            self.report = None
            self.details.value = ""
            if self.failure:
                return note(self.failure, "iaa-why")
            return note("Upload a ratings file, give its path, or choose an example.")
        how = report_files.reading_html(r, self.source)
        try:
            r = self.ordered(r)
            report = diagnose(r, self.level.value)
            report.rater_ranking()  # computed here, so that an error shows now
        except AgreementError as err:
            self.report = None
            self.details.value = ""
            return note(f"No report for {self.source}: {err}", "iaa-why")
        self.report = report
        raters, items, pairs = report.rater_ranking(), report.item_ranking(), report.confused_pairs()
        first = raters[0]
        rows = [
            ["ratings", q("source", self.source)],
            ["table", q("shape", f"{r.n_items:,} items x {r.n_raters} raters, {r.n_categories} categories")],
            [f"alpha ({self.level.value})", q("alpha", fmt(report.alpha.exact.alpha))],
            ["least in step", q("least in step", first["rater"])],
            ["alpha rises without them by", q("rise", fmt(first["rise"]))],
            ["most disputed item", q("most disputed", items[0]["item"])],
            ["its disagreement", q("disagreement", fmt(items[0]["disagreement"]))],
        ]
        if len(pairs):
            rows += [
                ["most confused", q("most confused", f"{pairs[0]['first']} / {pairs[0]['second']}")],
                ["observed / expected", q("ratio", fmt(pairs[0]["ratio"]))],
            ]
        self.details.value = (
            '<div class="iaa-report">'
            + heading("What the report finds")
            + report_files.summary_html(report)
            + report_files.sections_html(report, top=10, max_raters=30)
            + "<h2>How the numbers are computed</h2>"
            + explain(report).html(math="text")
            + "</div>"
        )
        warned = [w for w in (r.reading.warnings if r.reading is not None else ())]
        hints = "".join(note(what_to_change(w).strip(), "iaa-warning") for w in warned if what_to_change(w))
        return (
            (f'<div class="iaa-reading">{how}</div>{hints}' if how else "")
            + table(["", "value"], rows)
            + (note(self.warning, "iaa-warning") if self.warning else "")
        )

    def _redraw(self) -> None:
        report = self.report
        shown = report_files.figure_names(report) if report is not None else ()
        texts = report_files.figure_texts(report) if report is not None else {}
        for name, image in self.figures.items():
            caption = self.captions[name]
            if name not in shown:
                image.value = b""
                image.layout.display = caption.layout.display = "none"
                continue
            image.layout.display = caption.layout.display = None
            caption.value = (
                f'<div class="iaa-note" style="font-size: 0.85em">{attr_escape(texts[name][0])}</div>'
            )
            image.alt = texts[name][0]  # the figure's text alternative (its words are shown below it too)
            key = (self._loaded, self.level.value, name)
            if (
                key not in self._pngs
            ):  # drawn once per data and level, at FIGURE_DPI (the base class draws at 80)
                self._pngs[key] = png_bytes(
                    report_files.draw(report, name, max_raters=30), dpi=report_files.FIGURE_DPI
                )
            image.value = self._pngs[key]  # the same picture again sends nothing (traitlets compares)
        while len(self._pngs) > 4 * _KEPT_REPORTS:
            self._pngs.pop(next(iter(self._pngs)))
