"""Files in: a ratings file read into columns of cells, or a clear error naming the file, line and column.

This module knows files (paths, encodings, separators, quoting, spreadsheets)
and nothing about agreement: :meth:`iaa_teach.Ratings.from_csv` turns what it
returns into a table. CSV files are read with :func:`pandas.read_csv`, `.xlsx`
workbooks with :func:`pandas.read_excel` (openpyxl).

What a file's cells mean
------------------------
- A cell is stripped of surrounding spaces. Empty cells and pandas' own
  missing markers, :data:`MISSING_MARKERS` (``NA``, ``N/A``, ``n/a``, ``#N/A``,
  ``NULL``, ``null``, ``NaN``, ``nan``, ``None``, ``<NA>``...), are missing
  (``keep_labels`` keeps one as a label); everything else is a label. How many
  cells each marker made missing is counted for the report's first line.
- The labels are numbers when every label of the file (and every category
  declared with it) reads as a decimal number (``3``, ``-1.5``, ``2e3``,
  ``inf``); otherwise every label is text, exactly as written. ``TRUE`` and
  ``FALSE`` are text.

How a file is laid out (each guess noted, each oddity warned about: :class:`Reading`)
-------------------------------------------------------------------------------------
- Wide: one row per item, one column per rater. The first column holds the
  item IDs when it has no name or an ID's name (:func:`item_like`); ``item=``
  names another, ``item=False`` none.
- Long: one rating per row. A header of three columns named like an item, a
  rater and a label (:func:`looks_long`) is read as long without being told;
  ``rater=``/``label=``/``item=`` pick three columns of a wider export.
- Raters as rows (``raters_as_rows=True``): a form's export, one row per
  respondent; the raters named by an e-mail or name column, timestamps left out.
- ``drop`` leaves columns out, ``skip_rows`` skips a title above the header;
  empty unnamed columns are left out, and rows at the bottom whose item ID
  is "Total", "Sum", "Mean"... (:data:`TOTAL_ROWS`).
- Label Studio's JSON export (``.json``) and Prodigy's JSONL (``.jsonl``) are
  read as long files.
- Warnings: a rater column named like raters, holding e-mail addresses or
  timestamps, or with a different value in every row; labels differing only
  in letter case (``fold_case`` merges them); cells holding several labels.

Limits (each raised with a keyword argument and a command-line option):
the file's size (``max_bytes``, ``--max-bytes``) and the length of a cell
(``max_field``, ``--max-field``); see :data:`iaa_teach._validation.LIMITS`.
Only regular files are read: a FIFO, a device or a directory is refused
before it is opened, so nothing blocks or reads without end.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import dataclasses
import functools
import io
import itertools
import math
import os
import re
import stat
import warnings
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ._validation import (
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    AgreementError,
    check_bool,
    check_int,
    check_limit,
    check_max,
    check_option,
    check_text,
)

__all__ = [
    "MISSING_MARKERS",
    "SEPARATORS",
    "parse_categories",
    "ITEM_NAMES",
    "RATER_NAMES",
    "LABEL_NAMES",
    "FORMATS",
    "Cells",
    "read_cells",
    "check_path",
    "reads_as_number",
    "to_number",
    "file_text",
    "looks_long",
    "item_like",
    "rater_like",
    "label_like",
    "ID_WORDS",
    "RATER_WORDS",
    "LABEL_WORDS",
    "Reading",
]

#: Cells that mean "no rating", in files and in Python (after stripping spaces): pandas' own defaults
#: (``read_csv``'s ``keep_default_na``), so a file reads here as it reads in pandas.
MISSING_MARKERS = (
    "",
    "#N/A",
    "#N/A N/A",
    "#NA",
    "-1.#IND",
    "-1.#QNAN",
    "-NaN",
    "-nan",
    "1.#IND",
    "1.#QNAN",
    "<NA>",
    "N/A",
    "NA",
    "NULL",
    "NaN",
    "None",
    "n/a",
    "nan",
    "null",
)
#: Separators that are sniffed from the header line when none is given.
SEPARATORS = (",", ";", "\t")
#: Header names (any letter case) of an item column: first column of a wide file, or of a long one.
ITEM_NAMES = frozenset({"item", "items", "id", "item_id", "unit", "unit_id"})
RATER_NAMES = frozenset({"rater", "raters", "annotator", "coder", "judge", "rater_id", "annotator_id"})
LABEL_NAMES = frozenset({"label", "labels", "category", "rating", "code", "value", "annotation"})
#: Words of a column name that say "item IDs" (every word of the name one of these, or of a few
#: such as "id", "no", "#"): "Units", "Patient ID", "doc_id", "#". See :func:`item_like`.
ID_WORDS = frozenset(
    "item items unit units subject subjects patient patients case cases doc docs document documents "
    "text texts sentence sentences example examples index # id ids key row task review image uid token tokens "
    "word words".split()
)
#: Words of a column name that say "who rated" (:func:`rater_like`).
RATER_WORDS = frozenset(
    "rater raters annotator annotators coder coders judge judges user username respondent participant "
    "student worker observer assessor reviewer completed email mail name".split()
)
#: Words of a column name that say "the label" (:func:`label_like`).
LABEL_WORDS = frozenset(
    "label labels category categories class rating ratings score scores code codes value values "
    "annotation annotations answer answers choice choices response responses grade grades tag tags".split()
)
_NAME_EXTRA = frozenset("id ids no nr number num # by address e name".split())
FORMATS = ("wide", "long")

_MARKERS = frozenset(MISSING_MARKERS)
_MARKER_CHARS = max(map(len, _MARKERS))  # the longest marker
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?)", re.ASCII | re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
_EXCEL = (".xlsx", ".xlsm")
_NUL = (
    "the file contains a NUL byte, so it is not UTF-8 text (UTF-16 without a byte order mark, or a binary "
    "file named .csv?); save it as CSV UTF-8, or give its encoding with encoding= (--encoding on the "
    "command line)"
)
#: Annotation tools' exports, by suffix: what they are, and their reader (defined below).
_TOOLS: dict = {}
_NOT_SUPPORTED = {
    ".xls": "Excel 97-2003 (.xls)",
    ".ods": "OpenDocument (.ods)",
    ".numbers": "Numbers (.numbers)",
}


# ======================================================== cells as text
def file_text(value: Any, keep: frozenset = frozenset()) -> Any:
    """A cell as a file's reader sees it: stripped text, or None where it is a missing marker (not in
    ``keep``).

    >>> file_text("  P "), file_text("NA"), file_text(" "), file_text(None), file_text("NA", {"NA"})
    ('P', None, None, None, 'NA')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = value.strip() if isinstance(value, str) else str(value).strip()
    return None if text in _MARKERS and text not in keep else text


def reads_as_number(text: str) -> bool:
    """True if ``text`` is a decimal number (``3``, ``-1.5``, ``2e3``, ``inf``): no hex, no ``_``."""
    return _NUMBER.fullmatch(text) is not None


def to_number(text: str) -> int | float:
    """A number cell as an int (exactly, however many digits) or a float.

    >>> to_number("12"), to_number("-1.50"), to_number("1e400"), to_number("12345678901234567890")
    (12, -1.5, inf, 12345678901234567890)
    """
    return int(text) if _INTEGER.fullmatch(text) else float(text)


def _words(name: Any) -> list[str]:
    """A column name as lower-case words: ``"Patient ID"`` -> ``["patient", "id"]``, ``"itemId"`` ->
    ``["item", "id"]``."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name).strip())
    return [w for w in re.split(r"[\s_\-.:/()]+", text.lower()) if w]


def _named(name: Any, words: frozenset, extra: frozenset = frozenset()) -> bool:
    """Whether every word of ``name`` is one of ``words`` or ``extra``, and one at least of ``words``."""
    parts = _words(name)
    return bool(parts) and all(w in words or w in extra for w in parts) and any(w in words for w in parts)


def item_like(name: Any) -> bool:
    """A name that says "item IDs": item, id, unit(s), subject, patient, case, doc, text, sentence, #,
    index...

    >>> [item_like(n) for n in ("Units", "Patient ID", "#", "doc_id", "Wine", "R1")]
    [True, True, True, True, False, False]
    """
    return _named(name, ID_WORDS, _NAME_EXTRA)


def rater_like(name: Any) -> bool:
    """A name that says "who rated": rater, annotator, coder, judge, completed_by, Email Address...

    >>> [rater_like(n) for n in ("Judge", "annotator", "_annotator_id", "Email Address", "R1")]
    [True, True, True, True, False]
    """
    return _named(name, RATER_WORDS, _NAME_EXTRA)


def label_like(name: Any) -> bool:
    """A name that says "the label": label, category, rating, score(s), code, value, answer, choice...

    >>> [label_like(n) for n in ("Scores", "label", "category", "Wine", "annotation_id")]
    [True, True, True, False, False]
    """
    words = _words(name)
    return _named(name, LABEL_WORDS, _NAME_EXTRA) and words[-1] not in _NAME_EXTRA  # "annotation_id": an ID


def looks_long(header: Sequence[str]) -> bool:
    """True if a header of three names reads as a long file's: an item (any name), a rater and a label column.

    >>> looks_long(["Item", "rater", "label"]), looks_long(["Wine", "Judge", "Scores"])
    (True, True)
    >>> looks_long(["item", "ann", "bob"])
    False
    """
    return len(header) == 3 and rater_like(header[1]) and label_like(header[2])


_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_TIMESTAMP = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[ T]\d{1,2}:\d{2}.*|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4},? \d{1,2}:\d{2}.*"
)


def _looks(values: Any, pattern: re.Pattern) -> bool:
    """Whether the first (up to 20) values present are all text matching ``pattern``."""
    seen = 0
    for start in range(0, len(values), 1000):  # slices: iterating a Categorical lists all its values
        for v in values[start : start + 1000]:
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            if not isinstance(v, str) or not pattern.fullmatch(v.strip()):
                return False
            seen += 1
            if seen == 20:
                return True
    return seen > 0


# ============================================================ the result
@dataclass(frozen=True)
class Reading:
    """How a file was read: its layout, where the item IDs, raters and labels came from, and every guess.

    :func:`iaa_teach.report.summary_lines` shows it as the report's first
    lines (the command line, the HTML and JSON report, notebook 08).

    Attributes
    ----------
    path : str
    layout : {"wide", "long", "raters as rows"}
    items_from : str or None
        The column that holds the item IDs (``""``: a column with no name);
        None: the rows are numbered 1..n (wide) or the items are the
        columns (raters as rows).
    raters_from : str or None
        The column that names the raters (long, raters as rows).
    labels_from : str or None
        The column of the labels (long).
    notes : tuple of str
        What was guessed or left out, and how to say otherwise.
    warnings : tuple of str
        What looks wrong in the file, and the option that fixes it.
    missing : tuple of (str, int)
        How many cells were read as missing, by what they held (``""``:
        empty or blank).
    """

    path: str
    layout: str
    items_from: str | None = None
    raters_from: str | None = None
    labels_from: str | None = None
    notes: tuple = ()
    warnings: tuple = ()
    missing: tuple = ()


@dataclass
class Cells:
    """A ratings file read into columns.

    Attributes
    ----------
    path : str
    format : {"wide", "long"}
        How the columns are laid out (a file with raters as rows is turned into wide columns).
    names : list of str
        Wide: the rater names. Long: ``["item", "rater", "label"]``.
    items : list of str or None
        Wide: the item ids (None: rows numbered 1..n).
    columns : list of ndarray
        Wide: one per rater; long: item ids, rater names, labels. Label
        columns hold numbers (a numeric array, NaN where missing) when
        ``numeric``, else objects (text, None where missing).
    numeric : bool
        Whether the labels were read as numbers.
    categories : list or None
        The declared categories, read the same way as the labels.
    locate : callable
        ``locate(row, column)`` -> ``"file, line 3, column 2"`` for a data
        row and a column of ``columns`` (0-based).
    reading : Reading
        How the file was read.
    kept : frozenset
        Missing markers kept as labels (``keep_labels``).
    """

    path: str
    format: str
    names: list
    items: list | None
    columns: list
    numeric: bool
    categories: list | None
    locate: Callable[[int | None, int | None], str]
    reading: Reading | None = None
    kept: frozenset = frozenset()


def read_cells(
    path: Any,
    format: str | None = None,
    categories: Sequence | None = None,
    *,
    sep: str | None = None,
    encoding: str = "utf-8",
    max_bytes: int | None = MAX_FILE_BYTES,
    max_field: int | None = MAX_FIELD_CHARS,
    **layout: Any,
) -> Cells:
    """Read a ratings file (CSV, or .xlsx) into :class:`Cells`.

    ``layout``: what the file is, where the guesses would be wrong (``item``,
    ``rater``, ``label``, ``raters_as_rows``, ``drop``, ``skip_rows``,
    ``keep_labels``, ``fold_case``: see :meth:`iaa_teach.Ratings.from_csv`).
    Raises :class:`~iaa_teach.AgreementError` for anything that is not a
    readable ratings file, naming the file (and the line and column where
    there is one) and what to do.
    """
    if format is not None:
        check_option("format", format, FORMATS)
    sep = _check_sep(sep)
    encoding = _check_encoding(encoding)
    max_bytes = check_max("max_bytes", max_bytes)
    max_field = check_max("max_field", max_field)
    if categories is not None and (
        isinstance(categories, (str, bytes)) or not hasattr(categories, "__iter__")
    ):
        raise AgreementError(f"categories must be a list of labels in their order, got {categories!r}")
    categories = None if categories is None else list(categories)
    plan = _Plan(format, **layout)
    plan.path = path = check_path(path, max_bytes)[0]
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _NOT_SUPPORTED:
        raise AgreementError(
            f"{path}: {_NOT_SUPPORTED[suffix]} files are not read; save the sheet as .xlsx or as CSV (UTF-8)"
        )
    if suffix in _TOOLS:
        if plan.raters_as_rows or plan.format == "wide":
            raise AgreementError(
                f"{path}: {_TOOLS[suffix][0]} holds one answer per record: it is read as long"
            )
        plan.kind, plan.format = "long", "long"
        table = _TOOLS[suffix][1](path, plan)
        plan.label = None  # the control tag named, not a column
        cells = _interpret_long(table, plan, categories, max_field)
        cells.reading = dataclasses.replace(cells.reading, layout=_TOOLS[suffix][0])
        return cells
    if suffix in _EXCEL:
        table = _read_xlsx(path, max_bytes, plan.skip_rows, plan)
    else:
        table = _read_csv(path, sep, encoding, plan, max_field)
    return _interpret(table, plan, categories, max_field)


def check_path(path: Any, max_bytes: int | None = MAX_FILE_BYTES) -> tuple[str, int]:
    """``path`` as a string, and its size, once it is known to name a regular file within the size limit.

    Nothing is opened: a FIFO, a device (``/dev/zero``), a socket or a
    directory is refused from its ``stat``.
    """
    if isinstance(path, bool) or not isinstance(path, (str, bytes, os.PathLike)):
        raise AgreementError(
            f"path must be a file path (a str or pathlib.Path), got {type(path).__name__} "
            f"{path!r}; for a pandas DataFrame use Ratings.from_dataframe"
        )
    path = os.fsdecode(os.fspath(path))
    if not path or "\x00" in path:
        raise AgreementError(f"path must name a file, got {path!r}")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise AgreementError(f"{path}: no such file") from None
    except PermissionError:
        raise AgreementError(f"{path}: permission denied") from None
    except (OSError, ValueError) as err:
        raise AgreementError(f"{path}: cannot read it ({getattr(err, 'strerror', None) or err})") from None
    if stat.S_ISDIR(info.st_mode):
        raise AgreementError(f"{path}: is a directory, not a ratings file")
    if not stat.S_ISREG(info.st_mode):
        kinds = {stat.S_ISFIFO: "a FIFO (named pipe)", stat.S_ISCHR: "a device", stat.S_ISBLK: "a device"}
        kind = next((k for test, k in kinds.items() if test(info.st_mode)), "not a regular file")
        kind = "a socket" if stat.S_ISSOCK(info.st_mode) else kind
        raise AgreementError(
            f"{path}: is {kind}; only regular files are read (save the ratings to a file first)"
        )
    size = info.st_size
    check_limit(
        f"{path}: the file has {size:,} bytes; file size", size, max_bytes, "max_bytes", "--max-bytes"
    )
    if info.st_size == 0:
        raise AgreementError(f"{path}: the file is empty")
    return path, info.st_size


def _check_sep(sep: Any) -> str | None:
    if sep is None:
        return None
    if not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n\x00 ' or sep.isalnum() or ord(sep) > 127:
        raise AgreementError(
            f"sep must be one character such as ',', ';' or '\\t' (not a quote, space, letter "
            f"or digit), got {sep!r}"
        )
    return sep


def _check_encoding(encoding: Any) -> str:
    check_text("encoding", encoding)
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise AgreementError(
            f"encoding {encoding!r} is not known; use a name such as 'utf-8', 'cp1252', 'latin-1' or 'utf-16'"
        ) from None
    return "utf-8" if name in ("utf-8", "utf-8-sig") else name


# ============================================================== tables
@dataclass
class _Table:
    """A file's header and columns as read, before they are interpreted (a CSV file, a sheet or a tool's
    export).

    ``line(row)`` says where data row ``row`` (0-based; -1: the header) is
    in the file (``"line 3"``, ``"row 3"``, ``"task 2, annotation 1"``);
    ``positions`` are the columns' places in the file (None: no column
    numbers); ``reread(js)``, for a CSV file, reads columns ``js`` again as
    text as written (where pandas took them as numbers).
    """

    path: str
    header: list
    columns: list
    positions: list | None
    line: Callable[[int], str | None]
    reread: Callable[[list], list] | None = None

    @property
    def width(self) -> int:
        return len(self.header)

    def locate(self, row: int | None = None, column: int | None = None) -> str:
        """``file, line L, column C`` of a data row (-1: the header) and a column (0-based among those
        read)."""
        where = self.path
        if row is not None and self.line(row):
            where += f", {self.line(row)}"
        if column is not None and self.positions is not None:
            where += f", column {self.positions[column] + 1}"
        return where


# ================================================================= CSV
def _read_csv(path: str, sep: str | None, encoding: str, plan: _Plan, max_field: int | None) -> _Table:
    """A CSV file read with pandas: the header's columns that the plan keeps, labels as Categoricals."""
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    source: Any = path
    if encoding == "utf-8":
        _check_not_other_encoding(path, head)
    if encoding != "utf-8" or (b"\r" in head and b"\n" not in head):
        # decode in Python (files in other encodings are small), then read as UTF-8;
        # old Mac line ends (CR only) become LF, so every line keeps its number
        with open(path, "rb") as fh:
            raw = fh.read()
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            raise _decode_error(path, raw, encoding) from None
        source = (text if "\n" in text else text.replace("\r", "\n")).lstrip("\ufeff").encode("utf-8")
    names, skip, sep, above = _header(path, source, sep, plan.skip_rows)
    file = _Csv(path, source, sep, skip, len(names))
    if any("\0" in name for name in names):
        raise AgreementError(f"{path}, line {skip + 1}: {_NUL}")
    for j, name in enumerate(names):
        where = f"{path}, line {skip + 1}, column {j + 1}"
        check_limit(
            f"{where}: the name has {len(name):,} characters; field size",
            len(name),
            max_field,
            "max_field",
            "--max-field",
        )
    positions, text, file.long = plan(names)
    # every column is read (usecols would hide a row with too many cells); those left out as text
    as_text = {positions[j] for j in text} | (set(range(len(names))) - set(positions))
    frame = file.read(as_text)
    file.check_rows(frame, above)
    columns = [frame[p].values for p in positions]  # ndarrays (IDs), Categoricals (labels)
    keep = np.flatnonzero(~_empty_rows(columns, plan.keep, text)) if columns else np.arange(len(frame))
    if columns and len(keep) < len(columns[0]):  # rows with no cell
        columns = [c[keep] for c in columns]
    del frame

    def reread(js: list) -> list:
        again = file.read(as_text | {positions[j] for j in js})
        return [again[positions[j]].values[keep] for j in js]

    return _Table(
        path,
        [names[p] for p in positions],
        columns,
        positions,
        lambda row: f"line {file.line(row=keep[row] if row >= 0 else -1)[0]}",
        reread,
    )


@dataclass
class _Csv:
    """A CSV file as pandas reads it, and where its records are (for error messages)."""

    path: str
    source: Any  # the path, or the file as UTF-8 bytes (another encoding, old Mac line ends)
    sep: str
    skip: int  # the lines above the header
    width: int  # the header's columns
    long: bool = False

    def open(self) -> Any:
        return io.BytesIO(self.source) if isinstance(self.source, bytes) else open(self.source, "rb")

    def frame(self, dtype: Any, engine: str = "c") -> Any:
        """The data rows as pandas reads them: blank lines left out, a missing cell NaN; pandas pads a row
        with fewer cells than the header with NaN (the C engine) or None (the python engine, where an
        empty cell is "")."""
        import pandas as pd

        na = {"keep_default_na": False, "na_values": [""] if engine == "c" else None}
        shape = {"header": 0, "names": list(range(self.width)), "skiprows": self.skip, "index_col": False}
        with self.open() as fh:
            return pd.read_csv(fh, sep=self.sep, dtype=dtype, encoding="utf-8", engine=engine, **shape, **na)

    def read(self, text: set) -> Any:
        """The data rows, columns ``text`` as text, the others as Categoricals (the parser gives each column's
        codes and its distinct cells, so each cell is hashed once, in C); an error names the line."""
        import pandas as pd

        try:
            with warnings.catch_warnings():
                # the first row longer than the header
                warnings.simplefilter("error", pd.errors.ParserWarning)
                frame = self.frame({j: object if j in text else "category" for j in range(self.width)})
        except pd.errors.ParserWarning:
            raise self.wrong_width(*self.line(row=0), first=True) from None
        except pd.errors.EmptyDataError:
            frame = ()
        except UnicodeDecodeError:
            with self.open() as fh:
                raise _decode_error(self.path, fh.read()) from None
        except (pd.errors.ParserError, UnicodeError, ValueError, OverflowError) as err:
            raise self.parser_error(str(err)) from None
        if not len(frame):
            raise AgreementError(f"{self.path}: the file has a header but no items")
        return frame

    def parser_error(self, message: str) -> AgreementError:
        """pandas' error as this package's: the line (pandas counts records) and what to change."""
        found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", message)
        if found:
            line, cells = self.line(record=int(found[2]) - 1)
            return self.wrong_width(line, cells)
        found = re.search(r"EOF inside string starting at row (\d+)", message)
        if found:
            return AgreementError(
                f"{self.path}, line {self.line(record=int(found[1]))[0]}: a quoted cell runs to the end of "
                f'the file: is a closing quote missing? (a " without its closing ")'
            )
        message = message.replace("Error tokenizing data. C error: ", "").strip()
        return AgreementError(f"{self.path}: cannot read the file: {message}")

    def wrong_width(self, line: int, cells: list, first: bool = False) -> AgreementError:
        n, title = len(cells), self.skip + 1  # title: the header's line
        return AgreementError(
            f"{self.path}, line {line}: "
            + (
                f"expected 3 columns (item, rater, label), got {n}"
                if self.long and self.width == 3
                else f"{n} cells but the header has {self.width} columns"
            )
            + (
                " (a quoted cell runs over several lines: is a closing quote missing?)"
                if any("\n" in cell for cell in cells)
                else f"; if line {title} is a title above the header, skip it with skip_rows={title} "
                f"(--skip-rows {title} on the command line)"
                if first and n > self.width
                else ""
            )
        )

    def check_rows(self, frame: Any, above: int) -> None:
        """pandas pads a row with fewer cells than the header with missing ones: an error here, naming the
        line."""
        if not frame[self.width - 1].isna().any():
            return  # a short row leaves the last column empty
        # speed: without quotes, every row has all its cells exactly when the separators add up; on
        # bench_read.py's files (empty cells in the last column) the python engine below takes 4-8x the C one
        separators, quotes, token = 0, False, self.sep.encode()
        with self.open() as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                separators += chunk.count(token)
                quotes = quotes or b'"' in chunk
        if not quotes and separators == above + (len(frame) + 1) * (self.width - 1):
            return
        cells = self.frame(object, engine="python")
        short = np.flatnonzero(cells[self.width - 1].isna().to_numpy())
        if short.size:
            raise self.wrong_width(*self.line(row=int(short[0])))

    def line(self, record: int | None = None, row: int | None = None) -> tuple[int, list]:
        """The line on which a record starts (0-based, every record counted), or data row ``row`` (0-based,
        as pandas counts them: blank lines left out; -1: the header), and its cells, as the csv module
        reads them."""
        if row == -1:
            return self.skip + 1, []
        start, data = 1, -1
        with io.TextIOWrapper(self.open(), encoding="utf-8-sig", newline="") as stream, _no_field_limit():
            reader = csv.reader(stream, delimiter=self.sep)
            try:
                for k, cells in enumerate(reader):
                    if k == record:
                        return start, cells
                    if k > self.skip and (len(cells) > 1 or "".join(cells).strip(" \t")):
                        data += 1
                        if data == row:
                            return start, cells
                    start = reader.line_num + 1
            except csv.Error:
                pass
        return start, []


@contextlib.contextmanager
def _no_field_limit():
    """The csv module's field size limit lifted (pandas has none; the cells' lengths are checked once
    read)."""
    limit = csv.field_size_limit(2**31 - 1)
    try:
        yield
    finally:
        csv.field_size_limit(limit)


def _header(path: str, source: Any, sep: str | None, skip_rows: int) -> tuple[list[str], int, str, int]:
    """The header (the first line with a name, after ``skip_rows`` lines) as stripped names, the lines above
    it, the separator, and the separators above it."""
    above: list[str] = []
    raw = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")
    try:
        with io.TextIOWrapper(raw, encoding="utf-8-sig", newline="") as stream, _no_field_limit():
            for line in stream:
                if len(above) >= skip_rows and line.strip(" \t\r\n,;"):
                    break
                above.append(line)
            else:
                if skip_rows and skip_rows >= len(above):
                    raise AgreementError(
                        f"{path}: skip_rows={skip_rows} (--skip-rows) skips every line of the file "
                        f"({len(above)})"
                    )
                raise AgreementError(f"{path}: the file is empty (only blank lines)")
            use = sep or _sniff(line)
            header = next(csv.reader(itertools.chain([line], stream), delimiter=use))
    except UnicodeDecodeError:
        with open(path, "rb") as fh:
            raise _decode_error(path, fh.read()) from None
    except csv.Error as err:
        raise AgreementError(f"{path}, line {len(above) + 1}: cannot read the header line ({err})") from None
    return [h.strip() for h in header], len(above), use, sum(line.count(use) for line in above)


def _sniff(line: str) -> str:
    """The separator of a header line: the most frequent of comma, semicolon and tab outside quotes."""
    outside = re.sub(r'"[^"]*"', "", line)
    counts = [outside.count(s) for s in SEPARATORS]
    return SEPARATORS[counts.index(max(counts))] if max(counts) else ","


def _check_not_other_encoding(path: str, head: bytes) -> None:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise AgreementError(
            f"{path}: the file is UTF-16 or UTF-32 (it starts with a byte order mark), not UTF-8; "
            f"save it as UTF-8 CSV, or give its encoding with encoding='utf-16' "
            f"(--encoding utf-16 on the command line)"
        )
    if head.startswith(b"PK\x03\x04"):
        raise AgreementError(
            f"{path}: this is a zip archive (an Excel workbook?), not a CSV file; give it the "
            f".xlsx extension or export the sheet as CSV (UTF-8)"
        )


def _decode_error(path: str, data: bytes, encoding: str = "utf-8") -> AgreementError:
    """The first byte of ``data`` that is not valid ``encoding``, by its line and column, and what to do."""
    try:
        data.decode(encoding)
        return AgreementError(f"{path}: the file is not valid {encoding}")
    except UnicodeDecodeError as err:
        start = err.start
    line = data.count(b"\n", 0, start) + 1
    column = len(data[data.rfind(b"\n", 0, start) + 1 : start].decode(encoding, errors="replace")) + 1
    advice = (
        "the file is in another encoding (Windows-1252 or Latin-1, as Excel saves CSV?): save it as CSV "
        "UTF-8, or give its encoding with encoding='cp1252' (--encoding cp1252 on the command line)"
        if encoding == "utf-8"
        else "give the file's own encoding with encoding= (--encoding on the command line)"
    )
    shown = "UTF-8" if encoding == "utf-8" else encoding
    return AgreementError(
        f"{path}, line {line}, column {column}: byte 0x{data[start]:02x} is not valid {shown}; {advice}"
    )


def _empty_rows(columns: list, markers: frozenset = frozenset(), last: set = frozenset()) -> np.ndarray:
    """Rows in which every cell is missing, blank or a missing marker (the columns as the CSV reader gives
    them: Categoricals, or objects).

    Columns ``last`` (item IDs: a different value in every row) are looked at last, on the rows left.
    """
    n = len(columns[0])
    first, *rest = [columns[j] for j in sorted(range(len(columns)), key=lambda j: j in last)]
    rows = np.flatnonzero(_missing_cells(first, markers))
    for c in rest:
        if not rows.size:
            break
        rows = rows[_missing_cells(c[rows], markers)]
    empty = np.zeros(n, dtype=bool)
    empty[rows] = True
    return empty


def _missing_cells(values: np.ndarray, markers: frozenset = frozenset()) -> np.ndarray:
    """Which cells are missing: NaN, None, blank text or a missing marker (``markers``: those kept as
    labels). ``values``: a Categorical or objects."""
    import pandas as pd

    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    flags = [file_text(u, markers) is None for u in uniques.tolist()]
    return np.array(flags + [True], dtype=bool)[codes]


# ================================================================ xlsx
def _read_xlsx(path: str, max_bytes: int | None, skip_rows: int, plan: _Plan) -> _Table:
    """The first sheet of a workbook: its header, and its cells as the sheet holds them."""
    import pandas as pd

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise AgreementError(
            f"{path}: not an Excel workbook (an .xlsx file is a zip archive): {err}"
        ) from None
    what = f"{path}: the workbook unpacks to {unpacked:,} bytes; file size"
    check_limit(what, unpacked, max_bytes, "max_bytes", "--max-bytes")
    try:
        frame = pd.read_excel(
            path, sheet_name=0, header=None, dtype=object, engine="openpyxl", na_filter=False
        )
    except Exception as err:  # openpyxl raises many kinds of error for a damaged workbook
        raise AgreementError(f"{path}: cannot read the workbook ({type(err).__name__}: {err})") from None
    rows = [[_excel_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    del frame
    filled = [i for i, row in enumerate(rows) if i >= skip_rows and any(c is not None for c in row)]
    if not filled:
        raise AgreementError(
            f"{path}: the first sheet is empty"
            + (f" below the {skip_rows} rows skipped (skip_rows, --skip-rows)" if skip_rows else "")
        )
    top = filled[0]
    header = ["" if c is None else str(c).strip() for c in rows[top]]
    while header and header[-1] == "":
        header.pop()
    width = len(header)
    body = filled[1:]
    for i in body:
        extra = [j for j, c in enumerate(rows[i][width:], start=width) if c is not None]
        if extra:
            title = (
                f"; if row {top + 1} is a title above the header, skip it with skip_rows={top + 1} "
                f"(--skip-rows {top + 1} on the command line)"
                if i == body[0]
                else ""
            )
            raise AgreementError(
                f"{path}, row {i + 1}, column {extra[0] + 1}: a cell outside the header's {width} "
                f"columns{title}"
            )
    positions = plan(header)[0]
    columns = [np.array([rows[i][j] for i in body], dtype=object) for j in positions]
    line = lambda row: f"row {(body[row] if row >= 0 else top) + 1}"  # noqa: E731
    return _Table(path, [header[j] for j in positions], columns, positions, line)


def _excel_cell(value: Any) -> Any:
    """A spreadsheet cell as a file cell: numbers stay numbers; TRUE/FALSE and dates are text."""
    if value is None or isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    text = str(value)
    return text if text.strip() else None  # an empty cell (pandas gives "" when it does not filter NA)


# ==================================================== annotation tools' exports
def _load_json(path: str, lines: bool) -> list:
    import json

    with open(path, encoding="utf-8-sig") as fh:
        text = fh.read()
    records, line = [], 1  # line: where a JSON file's error is (err.lineno), or the JSONL line read
    try:
        if not lines:
            return [json.loads(text)]
        for line, row in enumerate(text.splitlines(), 1):
            records.append(json.loads(row) if row.strip() else None)
    except json.JSONDecodeError as err:
        raise AgreementError(
            f"{path}, line {err.lineno if not lines else line}: not valid JSON ({err.msg})"
        ) from None
    return records


def _one_label(values: Any) -> Any:
    """A tool's answer as one label: a list of one is its element, several are joined with ", " (and
    warned about)."""
    if isinstance(values, list):
        values = [v for v in values if v is not None]
        if not values:
            return None
        return values[0] if len(values) == 1 else ", ".join(map(str, values))
    return values


def _read_label_studio(path: str, plan: _Plan) -> _Table:
    """Label Studio's JSON export: tasks (``id``, ``data``) with ``annotations`` (``completed_by``,
    ``result``)."""
    (tasks,) = _load_json(path, lines=False)
    if not isinstance(tasks, list) or not all(isinstance(t, dict) and "annotations" in t for t in tasks):
        raise AgreementError(
            f"{path}: not a Label Studio JSON export (a list of tasks, each with its annotations); "
            f"export the project as JSON, or save the ratings as CSV"
        )
    controls: dict = {}
    for task in tasks:
        for ann in task.get("annotations") or []:
            for region in ann.get("result") or []:
                if isinstance(region, dict) and "from_name" in region:
                    controls.setdefault(region["from_name"], region.get("type"))
    if not controls:
        raise AgreementError(f"{path}: the tasks have no annotation results (no choices, labels or ratings)")
    name = plan.label
    if name is None:
        if len(controls) > 1:
            raise AgreementError(
                f"{path}: the project has {len(controls)} control tags ({_quoted(controls)}): one table per "
                f"tag; name one with label= (--label-column)"
            )
        name = next(iter(controls))
    elif name not in controls:
        raise AgreementError(
            f"{path}: label={name!r} (--label-column) is no control tag; the tags: {_quoted(controls)}"
        )
    rows, where, cancelled = [], [], 0
    for t, task in enumerate(tasks):
        for a, ann in enumerate(task.get("annotations") or []):
            if ann.get("was_cancelled"):
                cancelled += 1
                continue
            who = ann.get("completed_by")
            if isinstance(who, dict):
                who = who.get("email") or who.get("id")
            for region in ann.get("result") or []:
                if region.get("from_name") == name:
                    value = region.get("value") or {}
                    label = _one_label(value.get(region.get("type"), next(iter(value.values()), None)))
                    rows.append([task.get("id", t + 1), who, label])
                    where.append(f"task {t + 1}, annotation {a + 1}")
    plan.notes.append(
        f'a Label Studio JSON export: {len(tasks)} tasks, the control "{name}" ({controls[name]}); the '
        f"annotators' answers only (predictions left out)"
        + (f"; {cancelled} cancelled annotation{'s' if cancelled > 1 else ''} left out" if cancelled else "")
    )
    if not rows:
        raise AgreementError(f'{path}: no annotation answers the control "{name}"')
    return _records(path, ["task id", "annotator", name], rows, where)


def _read_prodigy(path: str, plan: _Plan) -> _Table:
    """Prodigy's JSONL: one answer a line; ``_annotator_id`` (or ``_session_id``), ``answer``, and the
    chosen options (``accept``) or a binary ``label``."""
    records = _load_json(path, lines=True)
    rows, where, ignored, choice = [], [], 0, False
    for n, rec in enumerate(records, 1):
        if rec is None:
            continue
        if not isinstance(rec, dict) or "answer" not in rec:
            raise AgreementError(f'{path}, line {n}: not a Prodigy answer (a JSON object with an "answer")')
        who = rec.get("_annotator_id") or rec.get("_session_id")
        if who is None:
            raise AgreementError(f"{path}, line {n}: no _annotator_id or _session_id names who answered")
        if "accept" in rec and "options" in rec:  # the choice interface: the options chosen
            choice = True
            label = None if rec["answer"] != "accept" else _one_label(rec["accept"])
            item = rec.get("_input_hash")
        else:  # binary: the answer to "is this <label>?"
            label = None if rec["answer"] == "ignore" else rec["answer"]
            item = rec.get("_task_hash", rec.get("_input_hash"))
        if rec["answer"] == "ignore":
            ignored += 1
        if item is None:
            raise AgreementError(f"{path}, line {n}: no _input_hash or _task_hash names the item")
        rows.append([item, who, label])
        where.append(f"line {n}")
    if not rows:
        raise AgreementError(f"{path}: the file has no answers")
    plan.notes.append(
        "a Prodigy JSONL file: "
        + (
            "the options chosen (accept) per _input_hash"
            if choice
            else "accept / reject per _task_hash (binary)"
        )
        + (f"; {ignored} ignored answer{'s' if ignored > 1 else ''} read as missing" if ignored else "")
    )
    return _records(path, ["input" if choice else "task", "annotator", "answer"], rows, where)


def _records(path: str, header: list, rows: list, where: list) -> _Table:
    """Ratings gathered from an annotation tool's export (item, rater and label per record) as a table."""
    columns = [np.array([row[j] for row in rows], dtype=object) for j in range(3)]
    return _Table(path, header, columns, None, lambda row: where[row] if row >= 0 else None)


_TOOLS.update(
    {
        ".json": ("a Label Studio JSON export", _read_label_studio),
        ".jsonl": ("a Prodigy JSONL file", _read_prodigy),
    }
)


# ======================================================== interpretation
def _quoted(names: Sequence[Any]) -> str:
    shown = ", ".join(f'"{n}"' for n in list(names)[:12])
    return shown + (f", ... ({len(names)} in all)" if len(names) > 12 else "")


def _name_list(values: Any, what: str) -> tuple:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    if not hasattr(values, "__iter__") or any(not isinstance(v, str) for v in values):
        raise AgreementError(f"{what} must be a list of strings, got {values!r}")
    return tuple(v.strip() for v in values)


class _Plan:
    """What the caller said about a file, checked; once the header is read, which columns to read, and how.

    Called with the header (stripped names): returns the positions of the
    columns kept, those (0-based among them) to read as text, and whether
    the file is long. ``notes`` and ``warnings`` collect what the summary says.
    """

    def __init__(
        self,
        format: str | None,
        item: Any = None,
        rater: Any = None,
        label: Any = None,
        raters_as_rows: Any = False,
        drop: Any = (),
        skip_rows: Any = 0,
        keep_labels: Any = (),
        fold_case: Any = False,
    ):
        if item is not None and item is not False and not isinstance(item, str):
            raise AgreementError(
                f"item must be the name of the column of item IDs, or False (no such column: rows are "
                f"numbered 1..n), got {item!r}"
            )
        for name, value in (("item", item), ("rater", rater), ("label", label)):
            if value is not None and value is not False and (not isinstance(value, str) or not value.strip()):
                raise AgreementError(f"{name} must be a column name, got {value!r}")
        self.format, self.item = format, item.strip() if isinstance(item, str) else item
        self.rater = rater.strip() if isinstance(rater, str) else None
        self.label = label.strip() if isinstance(label, str) else None
        self.raters_as_rows = check_bool("raters_as_rows", raters_as_rows)
        self.fold_case = check_bool("fold_case", fold_case)
        self.drop = _name_list(drop, "drop")
        self.skip_rows = check_int("skip_rows", skip_rows, 0)
        keep = _name_list(keep_labels, "keep_labels")
        for value in keep:
            if value not in _MARKERS or not value:
                raise AgreementError(
                    f"keep_labels: {value!r} is not a missing marker (an empty cell cannot be kept); "
                    f"the markers are {', '.join(repr(m) for m in MISSING_MARKERS if m)}"
                )
        self.keep = frozenset(keep)
        if self.raters_as_rows and isinstance(self.item, str):
            raise AgreementError(
                "raters_as_rows (--raters-as-rows): every column other than the rater's is an item, so there "
                "is no item column to name; leave a column out with drop= (--drop-column)"
            )
        if self.raters_as_rows and (format == "long" or self.label):
            raise AgreementError(
                "raters_as_rows (--raters-as-rows) reads one row per rater and one column per item; it "
                "takes no format='long' and no label column"
            )
        self.path, self.kind, self.names = "", "wide", []
        self.item_j: int | None = None
        self.rater_j: int | None = None
        self.missing: dict[str, int] = {}
        self.notes: list[str] = []
        self.warnings: list[str] = []

    def column(self, name: str, what: str, option: str, names: Sequence[str] | None = None) -> int:
        """The position of the column called ``name`` (given as ``what=``), or an error listing the header."""
        names = self.names if names is None else names
        if name in names:
            return list(names).index(name)
        folded = [j for j, n in enumerate(names) if n.casefold() == name.casefold()]
        if len(folded) == 1:
            return folded[0]
        raise AgreementError(
            f"{self.path}: {what}={name!r} ({option}) names no column of the header, which has "
            f"{_quoted(names)}"
        )

    def __call__(self, header: list) -> tuple[list, set, bool]:
        positions = list(range(len(header)))
        if self.drop:
            gone = {self.column(name, "drop", "--drop-column", header) for name in self.drop}
            positions = [p for p in positions if p not in gone]
            self.notes.append(f"left out as asked (drop, --drop-column): {_quoted(self.drop)}")
        names = self.names = [header[p] for p in positions]
        if self.raters_as_rows:
            self.kind = "raters as rows"
        elif self.format is not None:
            self.kind = self.format
            if self.format == "wide" and looks_long(names):
                raise AgreementError(
                    f"{self.path}: the header '{', '.join(names)}' looks like a long file (one rating per "
                    f"line: item, rater, label); read it with format='long' (--format long on the "
                    f"command line)"
                )
        elif self.rater or self.label:
            self.kind = "long"
        elif looks_long(names):
            self.kind = "long"
            self.notes.append(
                f'read as long (one rating per row) because the header "{", ".join(names)}" names an item, '
                f"a rater and a label column; format='wide' (--format wide) would refuse it"
            )
        else:
            self.kind = "wide"
        if self.kind == "long":
            return positions, set(range(len(names))), True
        if self.kind == "raters as rows":
            if self.rater:
                self.rater_j = self.column(self.rater, "rater", "--rater-column")
            else:
                found = [j for j, n in enumerate(names) if rater_like(n)]
                mail = [j for j in found if {"email", "mail"} & set(_words(names[j]))]
                self.rater_j = (mail or found or [None])[0]
            return positions, set() if self.rater_j is None else {self.rater_j}, False
        if isinstance(self.item, str):
            self.item_j = self.column(self.item, "item", "--item-column")
        elif self.item is None and names and (names[0] == "" or item_like(names[0])):
            self.item_j = 0
        return positions, set() if self.item_j is None else {self.item_j}, False


def _interpret(table: Any, plan: _Plan, categories: list | None, max_field: int | None) -> Cells:
    """The cells of a file as ids and labels, as the plan says; every guess noted, every oddity warned
    about."""
    path, notes = table.path, plan.notes
    if not table.columns or len(table.columns[0]) == 0:
        raise AgreementError(f"{path}: the file has a header but no items")
    _drop_empty_tail(table, plan)
    if plan.kind == "long":
        return _interpret_long(table, plan, categories, max_field)
    if plan.kind == "raters as rows":
        return _interpret_rows(table, plan, categories, max_field)
    header, locate = table.header, table.locate
    j_item = plan.item_j
    if j_item is not None:
        _drop_total_rows(table, plan, j_item)
    items = (
        _id_column(
            table.columns[j_item],
            locate,
            j_item,
            max_field,
            "item",
            lambda i, k, name: (
                f"{locate(k)}: item ids must be unique: {name!r} is item {i + 1} and item {k + 1}; "
                f"one rating per row? read the file with format='long' (--format long); if the column "
                f'"{header[j_item]}" is a rater, give item=False (--no-item-column)'
            ),
        )
        if j_item is not None
        else None
    )
    if j_item is not None and plan.item is None:
        name = header[j_item]
        notes.append(
            (
                "the first column has no name: read as the item IDs (as pandas' to_csv writes the index)"
                if name == ""
                else f'the first column, "{name}", read as the item IDs (its name says so)'
            )
            + "; item=False (--no-item-column) reads it as a rater"
        )
    js = [j for j in range(table.width) if j != j_item]
    names = [header[j] for j in js]
    for j, name in zip(js, names):
        if name == "":
            raise AgreementError(
                f"{locate(-1)}: the header has no name for column {table.positions[j] + 1}, which holds "
                f"ratings; every rater column needs a name: type one into the header"
            )
    labels, numeric, cats = _labels(table, js, categories, locate, max_field, plan)
    _warn_columns(plan, names, labels, items is None and plan.item is None and bool(js) and js[0] == 0)

    def where(row: int | None = None, column: int | None = None) -> str:
        return locate(row, None if column is None else js[column])

    reading = _reading(plan, path, "wide", items_from=None if j_item is None else header[j_item])
    return Cells(path, "wide", names, items, labels, numeric, cats, where, reading, plan.keep)


def _reading(plan: _Plan, path: str, layout: str, **where: Any) -> Reading:
    return Reading(
        path,
        layout,
        notes=tuple(plan.notes),
        warnings=tuple(plan.warnings),
        missing=tuple(sorted(plan.missing.items(), key=lambda kv: (kv[0] != "", -kv[1], kv[0]))),
        **where,
    )


def _drop_empty_tail(table: Any, plan: _Plan) -> None:
    """Leave out the unnamed columns that hold nothing: at the right end (``a,b,,`` as spreadsheets save)
    and between named ones (a gap left in a sheet); never the item or rater column the plan chose."""
    n = table.width
    while n > 1 and table.header[n - 1] == "" and _missing_cells(table.columns[n - 1], plan.keep).all():
        n -= 1
    if n < table.width:
        dropped = table.width - n
        plan.notes.append(
            f"{dropped} empty column{'s' if dropped > 1 else ''} with no name at the right end left out"
        )
        table.header, table.columns = table.header[:n], table.columns[:n]
        table.positions = table.positions and table.positions[:n]
    chosen = {plan.item_j, plan.rater_j}
    gaps = [
        j
        for j in range(1, table.width)
        if j not in chosen and table.header[j] == "" and _missing_cells(table.columns[j], plan.keep).all()
    ]
    if gaps and len(gaps) < table.width - 1:
        where = ", ".join(str(table.positions[j] + 1) for j in gaps) if table.positions else ""
        plan.notes.append(
            f"{len(gaps)} empty column{'s' if len(gaps) > 1 else ''} with no name left out"
            + (f" (column{'s' if len(gaps) > 1 else ''} {where} of the file)" if where else "")
        )
        kept = [j for j in range(table.width) if j not in gaps]
        table.header, table.columns = [table.header[j] for j in kept], [table.columns[j] for j in kept]
        table.positions = table.positions and [table.positions[j] for j in kept]
        if table.reread:  # it reads the file's columns by their places before the gaps were left out
            table.reread = functools.partial(lambda again, js: again([kept[j] for j in js]), table.reread)
        plan.item_j = None if plan.item_j is None else kept.index(plan.item_j)
        plan.rater_j = None if plan.rater_j is None else kept.index(plan.rater_j)


def _first_rows(column: Any, n: int) -> Any:
    """The first ``n`` cells of a column (a Categorical keeps only the labels left in them)."""
    import pandas as pd

    return column[:n].remove_unused_categories() if isinstance(column, pd.Categorical) else column[:n]


#: Item IDs of a row of sums under the items (a spreadsheet's "Total" row), compared in lower case.
TOTAL_ROWS = frozenset(
    {"total", "totals", "sum", "sums", "grand total", "count", "mean", "average", "overall"}
)


def _drop_total_rows(table: Any, plan: _Plan, j_item: int) -> None:
    """Leave out the rows at the bottom whose item ID is "Total", "Sum", "Mean"... (a spreadsheet's
    totals under the items): their cells are sums, not ratings, and read as labels they would add an
    item on which every rater "agrees"."""
    column = table.columns[j_item]
    n = len(column)
    while n > 1 and isinstance(column[n - 1], str) and column[n - 1].strip().casefold() in TOTAL_ROWS:
        n -= 1
    if n < len(column):
        rows = [
            f'{table.line(i) or f"row {i + 1}"} ("{str(column[i]).strip()}")' for i in range(n, len(column))
        ]
        plan.notes.append(f"left out as totals, not items: {', '.join(rows)}; rename the item to keep it")
        table.columns = [_first_rows(c, n) for c in table.columns]
        if table.reread:
            table.reread = functools.partial(
                lambda again, js: [_first_rows(c, n) for c in again(js)], table.reread
            )


def _all_distinct(values: np.ndarray) -> int:
    """The number of values if every value present differs from the others (5 at least), else 0.

    The first 2,000 cells are looked at first, so a rater's column (with
    repeats among its first cells) costs nothing.
    """
    import pandas as pd

    head = values[:2000][~pd.isna(values[:2000])]
    if len(head) < 5 or len(pd.unique(head)) < len(head):
        return 0
    whole = values[~pd.isna(values)]
    return len(whole) if len(pd.unique(whole)) == len(whole) else 0


def _warn_columns(plan: _Plan, names: list, labels: list, first_is_rater: bool) -> None:
    """A warning for each rater column that does not look like one: named like raters, e-mails,
    timestamps, or a different value in every row (item IDs?)."""
    import pandas as pd

    distinct = {j: _all_distinct(c) for j, c in enumerate(labels)}
    for j, (name, column) in enumerate(zip(names, labels)):
        drop = f'drop=["{name}"] (--drop-column "{name}")'
        if plan.format is None and rater_like(name) and not _looks(column, _EMAIL):
            plan.warnings.append(
                f'column "{name}" is named like a column of rater names: if the file has one rating per row, '
                f"read it with format='long' and name its columns with item=, rater=, label= (--format long "
                f"--item-column ... --rater-column ... --label-column ...)"
            )
        elif _looks(column, _EMAIL) or _looks(column, _TIMESTAMP):
            what = "e-mail addresses" if _looks(column, _EMAIL) else "timestamps"
            plan.warnings.append(
                f'column "{name}" holds {what}, not labels: a form\'s export (one row per respondent)? read '
                f"it with raters_as_rows=True (--raters-as-rows); or leave the column out with {drop}"
            )
        elif distinct[j]:
            # more values than the other columns' labels together: IDs, not a scale that each rater
            # uses once (5 items scored 1..5) nor measurements that all differ in every column
            others = set().union(
                *(pd.unique(c[~pd.isna(c)]).tolist() for k, c in enumerate(labels) if k != j)
            )
            if len(labels) > 1 and len(others) < distinct[j] and not all(distinct.values()):
                first = " (the first column)" if first_is_rater and j == 0 else ""
                plan.warnings.append(
                    f'column "{name}"{first} has a different value in each of its {distinct[j]} rows, unlike '
                    f'a rater\'s labels: if it holds the item IDs, read it with item="{name}" '
                    f'(--item-column "{name}"); to leave it out, {drop}'
                )


def _interpret_long(table: Any, plan: _Plan, categories: list | None, max_field: int | None) -> Cells:
    """A long file: the item, rater and label columns (picked, guessed by name, or the only three)."""
    path, header, locate, notes = table.path, table.header, table.locate, plan.notes
    given = {
        "item": plan.item if isinstance(plan.item, str) else None,
        "rater": plan.rater,
        "label": plan.label,
    }
    options = {"item": "--item-column", "rater": "--rater-column", "label": "--label-column"}
    if table.width == 3 and not any(given.values()):
        picks = {"item": 0, "rater": 1, "label": 2}
        first = 0 if _long_header(header, table.columns) else 1
        if first:  # no header: the first line is a rating too
            table.columns = [
                np.concatenate([np.array([header[j]], dtype=object), table.columns[j].astype(object)])
                for j in range(3)
            ]
            notes.append(
                f'no header: the first line ("{", ".join(header)}") is read as a rating (its names are no '
                f"item, rater or label names and fit the data); name the columns item, rater, label to "
                f"make it a header"
            )
    else:
        first = 0
        picks = {what: plan.column(name, what, options[what]) for what, name in given.items() if name}
        for what, test in (("item", item_like), ("rater", rater_like), ("label", label_like)):
            if what in picks:
                continue
            found = [j for j, n in enumerate(header) if test(n) and j not in picks.values()]
            if len(found) > 1:  # "id" and "text": the plainest name wins
                found = [j for j in found if header[j].lower() in ITEM_NAMES | RATER_NAMES | LABEL_NAMES]
            if len(found) == 1:
                picks[what] = found[0]
        missing = [what for what in ("item", "rater", "label") if what not in picks]
        if missing:
            raise AgreementError(
                f"{path}: a long file has an item, a rater and a label column; among the header's "
                f"{table.width} columns ({_quoted(header)}) no single one is named as the "
                f"{' or the '.join(missing)} column: name "
                + ("it" if len(missing) == 1 else "them")
                + " with "
                + ", ".join(f"{w}= ({options[w]})" for w in missing)
            )
        rest = [n for j, n in enumerate(header) if j not in picks.values()]
        notes.append(
            f'item IDs from column "{header[picks["item"]]}", raters from "{header[picks["rater"]]}", labels '
            f'from "{header[picks["label"]]}"' + (f"; left out: {_quoted(rest)}" if rest else "")
        )
    order = [picks["item"], picks["rater"], picks["label"]]

    def at(row: int | None = None, j: int | None = None) -> str:  # j: a column of the table
        return locate(None if row is None else row - first, j)

    def where(row: int | None = None, column: int | None = None) -> str:  # column: item, rater, label
        return at(row, None if column is None else order[column])

    ids = [
        _id_column(table.columns[order[k]], at, order[k], max_field, what)
        for k, what in enumerate(["item", "rater"])
    ]
    labels, numeric, cats = _labels(table, [order[2]], categories, at, max_field, plan)
    named = [header[j] if first == 0 else None for j in order]  # the header's names (none without a header)
    reading = _reading(plan, path, "long", **dict(zip(["items_from", "raters_from", "labels_from"], named)))
    return Cells(
        path,
        "long",
        ["item", "rater", "label"],
        None,
        [*ids, *labels],
        numeric,
        cats,
        where,
        reading,
        plan.keep,
    )


def _long_header(names: list, columns: list) -> bool:
    """Whether the first line of a 3-column long file is a header: by its names, or by not fitting the
    data."""
    if item_like(names[0]) or rater_like(names[1]) or label_like(names[2]):
        return True
    labels = [file_text(v) for v in columns[2][:2000]]
    labels = [v for v in labels if v is not None]
    if labels and all(reads_as_number(v) for v in labels) and not reads_as_number(names[2]):
        return True  # numbers below a name
    raters = {file_text(v) for v in columns[1]}
    return len(raters) < len(columns[1]) and names[1] not in raters and names[2] not in set(labels)


def _interpret_rows(table: Any, plan: _Plan, categories: list | None, max_field: int | None) -> Cells:
    """One row per rater (a form's export): a column naming the rater, timestamps left out, items as
    columns."""
    path, header, locate, notes = table.path, table.header, table.locate, plan.notes
    j_rater = plan.rater_j
    if j_rater is None:
        mails = [j for j, c in enumerate(table.columns) if c.dtype == object and _looks(c, _EMAIL)]
        j_rater = mails[0] if mails else None
    times = [
        j
        for j, (n, c) in enumerate(zip(header, table.columns))
        if j != j_rater
        and ({"timestamp", "time", "date", "submitted"} & set(_words(n)) or _looks(c, _TIMESTAMP))
    ]
    if times:
        notes.append(f"left out, as times of the answers: {_quoted([header[j] for j in times])}")
    js = [j for j in range(table.width) if j != j_rater and j not in times]
    if not js:
        raise AgreementError(
            f"{path}: no column is left for the items (every column names the rater or a time)"
        )
    for j in js:
        if header[j] == "":
            raise AgreementError(
                f"{path}: the header has no name for column {table.positions[j] + 1}; with raters as rows "
                f"every column is an item and needs its name"
            )
    n_rows = len(table.columns[0])
    if j_rater is None:
        raters = [f"R{i + 1}" for i in range(n_rows)]
        notes.append(
            f"no column names the raters: named R1..R{n_rows} in row order; name the column with rater= "
            f"(--rater-column)"
        )
    else:
        raters = _id_column(
            table.columns[j_rater],
            locate,
            j_rater,
            max_field,
            "rater",
            lambda i, k, name: (
                f"{locate(k, j_rater)}: rater {name!r} has two rows (rows {i + 1} and {k + 1} of "
                f"the data): one row per rater; remove the extra answer from the file"
            ),
        )
        if plan.rater is None:
            notes.append(
                f'the raters named by column "{header[j_rater]}"; rater= (--rater-column) names another'
            )
    labels, numeric, cats = _labels(table, js, categories, locate, max_field, plan)
    matrix = np.column_stack(  # raters x items; text as objects, None where missing
        [np.array([*c.categories, None], dtype=object)[c.codes] if not numeric else c for c in labels]
    )
    columns = [matrix[i].copy() for i in range(n_rows)]

    def where(row: int | None = None, column: int | None = None) -> str:  # row: an item, column: a rater
        return locate(column, None if row is None else js[row])

    reading = _reading(plan, path, "raters as rows", raters_from=None if j_rater is None else header[j_rater])
    items = [header[j] for j in js]
    return Cells(path, "wide", raters, items, columns, numeric, cats, where, reading, plan.keep)


def _id_column(
    column: np.ndarray,
    locate: Callable,
    j: int,
    max_field: int | None,
    what: str,
    repeated: Callable[[int, int], str] | None = None,
) -> list:
    """Item or rater ids as stripped text, within the field size limit; none may be missing.

    ``repeated``: the ids must be unique, and ``repeated(i, k, id)`` is the
    error for id ``k`` repeating id ``i``.
    """
    import pandas as pd

    codes, texts, raw = _distinct(column, locate, j, max_field, ids=True)
    if None in texts or (codes < 0).any():
        gone = np.array([t is None for t in texts] + [True])[codes]  # code -1 (missing): True
        raise AgreementError(
            f"{locate(int(np.flatnonzero(gone)[0]), j)}: the {what} is missing; every row needs its {what}"
        )
    ids = np.array(texts, dtype=object)[codes]
    # a repeat, as read or once stripped
    if repeated is not None and (len(texts) < len(codes) or texts != raw):
        merged = pd.factorize(ids)[0]
        repeats = np.flatnonzero(pd.Series(merged).duplicated().to_numpy())
        if repeats.size:
            k = int(repeats[0])
            raise AgreementError(repeated(int(np.flatnonzero(merged == merged[k])[0]), k, ids[k]))
    return ids.tolist()


def _distinct(
    column: Any,
    locate: Callable,
    j: int,
    max_field: int | None,
    keep: frozenset = frozenset(),
    ids: bool = False,
) -> tuple[np.ndarray, list, list]:
    """A column's cells as codes (-1: missing) into its distinct cells as read (``raw``) and as labels:
    stripped text, None for a missing marker (not in ``keep``), numbers as Python numbers (as text for
    ``ids``). Each cell's length is checked, and a NUL byte refused."""
    import pandas as pd

    if isinstance(column, pd.Categorical):  # speed: a label column as pandas read it (bench_read.py)
        codes, uniques = column.codes, column.categories
    else:
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
    raw = uniques.tolist()
    if pd.api.types.infer_dtype(uniques, skipna=False) == "string":  # speed: 10**6 item IDs (bench_read.py)
        cells, texts = list(map(str.strip, raw)), raw
        lengths = np.fromiter(map(len, cells), dtype=np.intp, count=len(cells))
        markers = _MARKERS - keep
        for u in np.flatnonzero(lengths <= _MARKER_CHARS).tolist():  # speed: longer cells are no marker
            if cells[u] in markers:
                cells[u], lengths[u] = None, 0
    else:
        # the distinct cells hold no missing value (factorize leaves None and NaN out, a Categorical has none)
        cells = [file_text(v, keep) if isinstance(v, str) or ids else v for v in map(_plain_number, raw)]
        texts = [v for v in raw if isinstance(v, str)]
        try:
            lengths = np.fromiter(map(len, cells), dtype=np.intp, count=len(cells))
        except TypeError:  # a number (no length limit) or a missing cell among them
            lengths = np.array([len(v) if isinstance(v, str) else 0 for v in cells], dtype=np.intp)
    if "\0" in "".join(texts):
        u = next(u for u, v in enumerate(raw) if isinstance(v, str) and "\0" in v)
        raise AgreementError(f"{locate(int(np.flatnonzero(codes == u)[0]), j)}: {_NUL}")
    if max_field is not None:
        for u in np.flatnonzero(lengths > max_field)[:1]:
            where = locate(int(np.flatnonzero(codes == u)[0]), j)
            text = f"{where}: the cell has {lengths[u]:,} characters; field size"
            check_limit(text, int(lengths[u]), max_field, "max_field", "--max-field")
    return codes, cells, raw


def _labels(
    table: _Table, js: list, categories: list | None, locate: Callable, max_field: int | None, plan: _Plan
):
    """Label columns ``js`` as numbers (when every label and category reads as one) or as text.

    Counts the missing cells by what they held (into ``plan.missing``);
    warns about labels that differ only in letter case (or merges them, with
    ``plan.fold_case``) and about cells that look like several labels.
    """
    import pandas as pd

    def number(c: Any) -> bool:
        return reads_as_number(c) if isinstance(c, str) else not isinstance(c, bool)

    factorized = {j: _distinct(table.columns[j], locate, j, max_field, plan.keep) for j in js}
    numbers = all(c is None or number(c) for _, cells, _ in factorized.values() for c in cells)
    numbers = numbers and all(
        number(c.strip() if isinstance(c, str) else c)
        for c in (categories or [])
        if not (isinstance(c, str) and c.strip() in _MARKERS)
    )
    if not numbers:  # text: read again as written the columns that pandas took as numbers
        again = [
            j
            for j, (_, cells, _) in factorized.items()
            if any(not isinstance(c, (str, type(None))) for c in cells)
        ]
        if again and table.reread:  # a sheet's cells are kept as the sheet holds them
            for j, column in zip(again, table.reread(again)):
                table.columns[j] = column
                factorized[j] = _distinct(column, locate, j, max_field, plan.keep)
    _count_missing(factorized, plan.missing)
    declared = None
    if categories is not None:
        declared = [
            c.strip()
            if isinstance(c, str) and (not numbers or not reads_as_number(c.strip()))
            else to_number(c.strip())
            if isinstance(c, str)
            else (
                str(_plain_number(c))
                if not numbers
                and isinstance(c, (int, float, np.integer, np.floating))
                and not isinstance(c, bool)
                else c
            )
            for c in categories
        ]
    if not numbers:
        _text_hygiene(js, factorized, declared, plan)
    out = []
    for j in js:
        codes, cells, _ = factorized[j]
        if numbers:
            values = [
                c if c is None else _plain_number(to_number(c) if isinstance(c, str) else c) for c in cells
            ]
        else:
            values = [c if c is None or isinstance(c, str) else str(c) for c in cells]  # cells: plain numbers
        # the codes as they are, into the distinct labels (each cell read once; 2 and 2.0 are one label)
        merged, distinct = pd.factorize(np.array(values + [None], dtype=object), use_na_sentinel=True)
        out.append(pd.Categorical.from_codes(merged.take(codes), categories=distinct))  # -1: None
    return out, numbers, declared


def _count_missing(factorized: dict, counts: dict) -> None:
    """Add the missing cells of the factorized columns to ``counts``, by what they held ("" empty or
    blank)."""
    for codes, cells, raw in factorized.values():
        counts[""] = counts.get("", 0) + int(np.count_nonzero(codes == -1))
        marks = [u for u, (c, v) in enumerate(zip(cells, raw)) if c is None and isinstance(v, str)]
        if marks:
            per = np.bincount(codes[codes >= 0], minlength=len(cells))
            for u in marks:
                text = raw[u].strip()
                counts[text] = counts.get(text, 0) + int(per[u])
    for text in [t for t, n in counts.items() if n == 0 and t]:
        del counts[text]


_SEPARATED = re.compile(r"\s*[,;|]\s*")


def _text_hygiene(js: list, factorized: dict, declared: list | None, plan: _Plan) -> None:
    """Labels that differ only in letter case (warned about, or merged with fold_case); cells that hold
    several labels."""
    totals: dict = {}
    for j in js:
        codes, cells, _ = factorized[j]
        per = np.bincount(codes[codes >= 0], minlength=len(cells))
        for c, n in zip(cells, per):
            if isinstance(c, str):
                totals[c] = totals.get(c, 0) + int(n)
    groups: dict = {}
    for label in totals:
        groups.setdefault(label.casefold(), []).append(label)
    clashes = [sorted(g, key=lambda v: (-totals[v], v)) for g in groups.values() if len(g) > 1]
    if clashes and plan.fold_case:
        named = {c.casefold(): c for c in declared or [] if isinstance(c, str)}
        mapping = {}
        for group in clashes:
            target = named.get(group[0].casefold(), group[0])
            mapping.update({v: target for v in group if v != target})
        for j in js:
            codes, cells, raw = factorized[j]
            factorized[j] = (codes, [mapping.get(c, c) for c in cells], raw)
        merged = [[v for v in g if mapping.get(v)] for g in clashes]
        shown = "; ".join(f'{_quoted(vs)} into "{mapping[vs[0]]}"' for vs in merged)
        plan.notes.append(f"labels that differ only in letter case merged (fold_case): {shown}")
    elif clashes:
        shown = "; ".join(", ".join(f'"{v}" ({totals[v]} cells)' for v in g) for g in clashes[:5])
        plan.warnings.append(
            f"labels that differ only in letter case are read as different categories: {shown}"
            + (f"; and {len(clashes) - 5} more groups" if len(clashes) > 5 else "")
            + "; merge them with fold_case=True (--fold-case)"
        )
    multi = []
    for label in totals:
        parts = [p for p in _SEPARATED.split(label) if p]
        if len(parts) >= 2 and all(p in totals for p in parts):
            multi.append(label)
    if multi:
        n = sum(totals[v] for v in multi)
        plan.warnings.append(
            f"{n} cell{'s' if n > 1 else ''} look like several labels in one ({_quoted(multi[:5])}: each "
            f"part is a label of other cells); each such cell is read as a category of its own: agreement "
            f"needs one label per cell (split the table by label, or keep one label per cell)"
        )


def _plain_number(value: Any) -> Any:
    """A number cell (a spreadsheet's, or one pandas parsed): as a Python number."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def parse_categories(text: str, source: str = "--categories") -> list[str]:
    """Categories typed as text (``--categories``, a widget's box): comma-separated values, stripped.

    Quote a value that holds a comma, as in a CSV line. The values are read
    the way the file's cells are: all numbers if every label and every
    category reads as a number, else text. ``source`` names the input in errors.

    >>> parse_categories('low, mid ,"high, very"')
    ['low', 'mid', 'high, very']
    """
    try:
        rows = list(csv.reader(io.StringIO(text), skipinitialspace=True))
    except csv.Error as err:
        raise AgreementError(f"{source}: cannot read {text!r} ({err})") from None
    if len(rows) != 1:
        raise AgreementError(f"{source} must be one line of comma-separated values, got {text!r}")
    values = [v.strip() for v in rows[0]]
    seen: dict[str, int] = {}
    for i, value in enumerate(values, start=1):
        if value in MISSING_MARKERS:
            what = "empty" if value == "" else f"{value!r}, a missing-value marker"
            raise AgreementError(f"{source}: value {i} is {what}; every category must be a label")
        if value in seen:
            raise AgreementError(f"{source}: {value!r} is given twice (values {seen[value]} and {i})")
        seen[value] = i
    return values
