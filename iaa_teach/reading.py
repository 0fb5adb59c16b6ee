"""Files in: a ratings file read into columns of cells, or a clear error naming the file, line and column.

This module knows files (paths, encodings, separators, quoting, spreadsheets)
and nothing about agreement: :meth:`iaa_teach.Ratings.from_csv` turns what it
returns into a table. CSV files are read with :func:`pandas.read_csv`, `.xlsx`
workbooks with :func:`pandas.read_excel` (openpyxl).

What a file's cells mean
------------------------
- A cell is stripped of surrounding spaces. Empty cells and the markers
  :data:`MISSING_MARKERS` (``NA``, ``N/A``, ``NaN``, ``nan``, ``None``, ``null``)
  are missing; everything else is a label.
- The labels are numbers when every label of the file (and every category
  declared with it) reads as a decimal number (``3``, ``-1.5``, ``2e3``,
  ``inf``); otherwise every label is text, exactly as written. ``TRUE`` and
  ``FALSE`` are text.

Limits (each raised with a keyword argument and a command-line option):
the file's size (``max_bytes``, ``--max-bytes``) and the length of a cell
(``max_field``, ``--max-field``); see :data:`iaa_teach.validation.LIMITS`.
Only regular files are read: a FIFO, a device or a directory is refused
before it is opened, so nothing blocks or reads without end.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
import stat
import warnings
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .validation import (
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    AgreementError,
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
]

#: Cells that mean "no rating", in files and in Python (after stripping spaces).
MISSING_MARKERS = ("", "NA", "N/A", "NaN", "nan", "None", "null")
#: Separators that are sniffed from the header line when none is given.
SEPARATORS = (",", ";", "\t")
#: Header names (any letter case) of an item column: first column of a wide file, or of a long one.
ITEM_NAMES = frozenset({"item", "items", "id", "item_id", "unit", "unit_id"})
RATER_NAMES = frozenset({"rater", "raters", "annotator", "coder", "judge", "rater_id", "annotator_id"})
LABEL_NAMES = frozenset({"label", "labels", "category", "rating", "code", "value", "annotation"})
FORMATS = ("wide", "long")

_MARKERS = frozenset(MISSING_MARKERS)
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?)", re.ASCII | re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
_CHUNK = 1 << 20
_EXCEL = (".xlsx", ".xlsm")
_NOT_SUPPORTED = {
    ".xls": "Excel 97-2003 (.xls)",
    ".ods": "OpenDocument (.ods)",
    ".numbers": "Numbers (.numbers)",
}


# ======================================================== cells as text
def file_text(value: Any) -> Any:
    """A cell as a file's reader sees it: stripped text, or None where it is a missing marker.

    >>> file_text("  P "), file_text("NA"), file_text(" "), file_text(None)
    ('P', None, None, None)
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = value.strip() if isinstance(value, str) else str(value).strip()
    return None if text in _MARKERS else text


def reads_as_number(text: str) -> bool:
    """True if ``text`` is a decimal number (``3``, ``-1.5``, ``2e3``, ``inf``): no hex, no ``_``."""
    return _NUMBER.fullmatch(text) is not None


def to_number(text: str) -> int | float:
    """A number cell as an int (exactly, however many digits) or a float.

    >>> to_number("12"), to_number("-1.50"), to_number("1e400"), to_number("12345678901234567890")
    (12, -1.5, inf, 12345678901234567890)
    """
    return int(text) if _INTEGER.fullmatch(text) else float(text)


def looks_long(header: Sequence[str]) -> bool:
    """True if the first three names of a header are an item, a rater and a label column.

    >>> looks_long(["Item", "rater", "label"]), looks_long(["item", "ann", "bob"])
    (True, False)
    """
    names = [str(h).strip().lower() for h in header[:3]]
    return len(names) == 3 and names[0] in ITEM_NAMES and names[1] in RATER_NAMES and names[2] in LABEL_NAMES


# ============================================================ the result
@dataclass
class Cells:
    """A ratings file read into columns.

    Attributes
    ----------
    path : str
    format : {"wide", "long"}
    names : list of str
        Wide: the rater names (the header without the item column). Long:
        ``["item", "rater", "label"]``.
    items : list of str or None
        Wide: the item column's ids (None if the file has none).
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
    """

    path: str
    format: str
    names: list
    items: list | None
    columns: list
    numeric: bool
    categories: list | None
    locate: Callable[[int | None, int | None], str]


def read_cells(
    path: Any,
    format: str = "wide",
    categories: Sequence | None = None,
    *,
    sep: str | None = None,
    encoding: str = "utf-8",
    max_bytes: int | None = MAX_FILE_BYTES,
    max_field: int | None = MAX_FIELD_CHARS,
) -> Cells:
    """Read a ratings file (CSV, or .xlsx) into :class:`Cells`.

    Raises :class:`~iaa_teach.AgreementError` for anything that is not a
    readable ratings file, naming the file (and the line and column where
    there is one) and what to do.
    """
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
    path = check_path(path, max_bytes)[0]
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _NOT_SUPPORTED:
        raise AgreementError(
            f"{path}: {_NOT_SUPPORTED[suffix]} files are not read; save the sheet as .xlsx or as CSV (UTF-8)"
        )
    if suffix in _EXCEL:
        table = _read_xlsx(path, max_bytes)
    else:
        table = _CsvTable(path, format, sep, encoding, max_field)
    return _interpret(table, format, categories, max_field)


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
        kind = (
            "a FIFO (named pipe)"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a socket"
            if stat.S_ISSOCK(info.st_mode)
            else "not a regular file"
        )
        raise AgreementError(
            f"{path}: is {kind}; only regular files are read (save the ratings to a file first)"
        )
    check_limit(
        f"{path}: the file has {info.st_size:,} bytes; file size",
        info.st_size,
        max_bytes,
        "max_bytes",
        "--max-bytes",
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


# ================================================================= CSV
class _CsvTable:
    """A CSV file checked and read with pandas: header, columns, and where each row came from."""

    def __init__(self, path: str, format: str, sep: str | None, encoding: str, max_field: int | None):
        self.path = path
        self.max_field = max_field
        if encoding == "utf-8":
            _check_not_other_encoding(path, _read_prefix(path, 1 << 16))
            self.source: Any = path
        else:  # decode in Python (files in other encodings are small), then read as UTF-8
            with open(path, "rb") as fh:
                raw = fh.read()
            try:
                text = raw.decode(encoding)
            except UnicodeDecodeError as err:
                raise _decode_error(path, raw, err.start, encoding) from None
            del raw
            self.source = io.BytesIO(text.lstrip("\ufeff").encode("utf-8"))
        self.header, self.skip, self.sep, before = _header(path, self.source, sep, max_field)
        self.width = len(self.header)
        self.long = format == "long"
        quotes, separators = _prescan(path, self.source, self.sep)
        self.text_columns = set(range(self.width)) if format == "long" else set()
        if format == "wide" and _has_item_column(self.header):
            self.text_columns.add(0)
        self.columns = self._read(self.text_columns)
        bools = {j for j, c in enumerate(self.columns) if c.dtype == bool}
        if bools:  # True/False in a file are text, as written ("TRUE", "yes"...), never numbers
            self.text_columns |= bools
            self.columns = self._read(self.text_columns)
        # pandas pads a short row with missing cells: make sure there is none. Without quotes or
        # blank rows, every row has all its fields exactly when the separators add up (a row with
        # too many fields is an error in pandas); otherwise count them line by line.
        if quotes or self.blank_rows or separators - before != (self.n_rows + 1) * (self.width - 1):
            _scan(path, self.source, self.sep, self.width, max_field, self.long)

    def _read(self, text_columns: set) -> list:
        try:
            frame = _pandas_csv(self.path, self.source, self.sep, self.skip, self.width, text_columns)
        except AgreementError:
            _scan(self.path, self.source, self.sep, self.width, self.max_field, self.long)
            raise
        if not len(frame):
            raise AgreementError(f"{self.path}: the file has a header but no items")
        self.n_rows = len(frame)
        columns = [frame[c].to_numpy() for c in range(self.width)]
        del frame
        empty = _empty_rows(columns)
        self.blank_rows = bool(empty.any())
        self.keep = np.flatnonzero(~empty) if self.blank_rows else np.arange(self.n_rows)
        return [c[self.keep] for c in columns] if self.blank_rows else columns

    def locate(self, row: int | None = None, column: int | None = None) -> str:
        """``file, line L, column C`` of a data row (-1: the header) and a column (0-based)."""
        where = self.path
        if row is not None:
            record = self.skip + (0 if row < 0 else 1 + int(self.keep[row]))
            where += f", line {_line_of_record(self.source, record)}"
        if column is not None:
            where += f", column {column + 1}"
        return where


def _empty_rows(columns: list) -> np.ndarray:
    """Rows in which every cell is missing or blank (a column of whole numbers has none)."""
    import pandas as pd

    if any(c.dtype.kind in "iu" for c in columns):
        return np.zeros(len(columns[0]), dtype=bool)
    if all(c.dtype.kind == "f" for c in columns):  # numbers: follow the rows missing so far, column by column
        rows = np.flatnonzero(np.isnan(columns[0]))
        for c in columns[1:]:
            rows = rows[np.isnan(c[rows])]
        empty = np.zeros(len(columns[0]), dtype=bool)
        empty[rows] = True
        return empty
    missing = [np.isnan(c) if c.dtype.kind == "f" else pd.isna(c) for c in columns]
    count = np.sum(missing, axis=0)
    empty = count == len(columns)
    for row in np.flatnonzero(count == len(columns) - 1):  # one cell left: blank text (a line of spaces)?
        cell = next(c[row] for c, m in zip(columns, missing) if not m[row])
        empty[row] = isinstance(cell, str) and not cell.strip()
    return empty


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


def _decode_error(path: str, data: bytes, start: int, encoding: str = "utf-8") -> AgreementError:
    line = data.count(b"\n", 0, start) + 1
    line_start = data.rfind(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode(encoding, errors="replace")) + 1
    if encoding == "utf-8":
        shown, advice = (
            "UTF-8",
            (
                "the file is in another encoding (Windows-1252 or Latin-1, as Excel saves CSV?): "
                "save it as CSV UTF-8, or give its encoding with encoding='cp1252' (--encoding "
                "cp1252 on the command line)"
            ),
        )
    else:
        shown, advice = (
            encoding,
            "give the file's own encoding with encoding= (--encoding on the command line)",
        )
    return AgreementError(
        f"{path}, line {line}, column {column}: byte 0x{data[start]:02x} is not valid {shown}; {advice}"
    )


def _read_prefix(source: Any, n: int) -> bytes:
    if isinstance(source, io.BytesIO):
        return source.getvalue()[:n]
    with open(source, "rb") as fh:
        return fh.read(n)


def _chunks(source: Any):
    if isinstance(source, io.BytesIO):
        data = source.getbuffer()
        for start in range(0, len(data), _CHUNK):
            yield bytes(data[start : start + _CHUNK])
        return
    with open(source, "rb") as fh:
        while True:
            chunk = fh.read(_CHUNK)
            if not chunk:
                return
            yield chunk


def _header(path: str, source: Any, sep: str | None, max_field: int | None) -> tuple[list[str], int, str]:
    """The header (first record that is not blank) as stripped names, the lines before it, the separator."""
    size = 1 << 16
    while True:
        data = _read_prefix(source, size)
        whole = len(data) < size
        try:
            text = codecs.getincrementaldecoder("utf-8")().decode(data, final=whole)
        except UnicodeDecodeError as err:
            raise _decode_error(path, data, err.start) from None
        text = text[1:] if text.startswith("\ufeff") else text
        lines = text.splitlines(keepends=True)
        skip = 0
        while skip < len(lines) and not lines[skip].strip(" \t\r\n,;"):
            skip += 1
        if skip == len(lines) and whole:
            raise AgreementError(f"{path}: the file is empty (only blank lines)")
        if skip < len(lines):
            use = sep or _sniff(lines[skip])
            reader = csv.reader(io.StringIO("".join(lines[skip:])), delimiter=use)
            limit = csv.field_size_limit()
            csv.field_size_limit(max(limit, (max_field or len(text)) + 1))
            try:
                header = next(reader)
                complete = whole or reader.line_num < len(lines) - skip
            except csv.Error as err:
                if "field larger" in str(err):
                    raise _too_long(f"{path}, line {skip + 1}", "a name", max_field) from None
                complete, header = whole, None
            finally:
                csv.field_size_limit(limit)
            if complete:
                break
        if size >= 4 * ((max_field or MAX_FIELD_CHARS) + (1 << 16)):
            raise AgreementError(
                f"{path}: the header line is longer than {size:,} bytes; a field is longer than the "
                f"field size limit: check the file, or raise the limit with max_field= "
                f"(--max-field on the command line)"
            )
        size *= 4
    if header is None:
        raise AgreementError(f"{path}, line {skip + 1}: cannot read the header line")
    names = [h.strip() for h in header]
    for j, name in enumerate(names):
        if max_field is not None and len(name) > max_field:
            check_limit(
                f"{path}, line {skip + 1}, column {j + 1}: the name has {len(name):,} characters; field size",
                len(name),
                max_field,
                "max_field",
                "--max-field",
            )
    return names, skip, use, sum(line.count(use) for line in lines[:skip])


def _too_long(where: str, what: str, max_field: int | None) -> AgreementError:
    """The error for a field that the csv module found longer than the field size limit."""
    return AgreementError(
        f"{where}: {what} is longer than the limit of {max_field:,} characters; field size: raise "
        f"the limit with max_field= (--max-field on the command line)"
    )


def _prescan(path: str, source: Any, sep: str) -> tuple[bool, int]:
    """Whether the file has quotes, and how many separators it has; a NUL byte is an error."""
    quotes, separators, offset = False, 0, 0
    token = sep.encode()
    for chunk in _chunks(source):
        if b"\0" in chunk:
            line = _read_prefix(source, offset + chunk.index(b"\0")).count(b"\n") + 1
            raise AgreementError(
                f"{path}, line {line}: the file contains a NUL byte, so it is not UTF-8 text "
                f"(UTF-16 without a byte order mark, or a binary file named .csv?); save it as "
                f"CSV UTF-8, or give its encoding with encoding= (--encoding on the command line)"
            )
        quotes = quotes or b'"' in chunk
        separators += chunk.count(token)
        offset += len(chunk)
    return quotes, separators


def _sniff(line: str) -> str:
    """The separator of a header line: the most frequent of comma, semicolon and tab outside quotes."""
    outside = re.sub(r'"[^"]*"', "", line)
    counts = [outside.count(s) for s in SEPARATORS]
    return SEPARATORS[counts.index(max(counts))] if max(counts) else ","


def _has_item_column(header: Sequence[str]) -> bool:
    """The first column holds item ids: named item (id, unit...) or unnamed (as pandas' to_csv writes the index)."""
    return len(header) > 0 and (header[0].lower() in ITEM_NAMES or header[0] == "")


def _scan(path: str, source: Any, sep: str, width: int, max_field: int | None, long: bool = False) -> None:
    """Check that every record has ``width`` fields (blank lines aside), naming the first that has not.

    One vectorized pass per megabyte: separators and line ends outside
    quotes (known from the parity of the quotes before them) counted per
    line. A count that does not match (or a stray quote that confuses the
    count) is looked at again exactly, with Python's csv module (which
    reads as pandas does), to name the line.
    """
    sep_byte = ord(sep)
    offset = parity = carry = 0
    content = False  # the unfinished line holds something other than spaces
    suspect = False
    newline = 10
    for chunk in _chunks(source):
        a = np.frombuffer(chunk, dtype=np.uint8)
        if offset == 0 and not (a == 10).any() and (a == 13).any():
            newline = 13  # old Mac line ends
        quotes = a == 34
        seps = a == sep_byte
        ends = a == newline
        if quotes.any():
            inside = ((np.cumsum(quotes, dtype=np.int64) + parity) & 1).astype(bool)
            seps &= ~inside
            ends &= ~inside
            parity = int(inside[-1])  # the parity of every quote so far
        elif parity:
            seps[:] = False
            ends[:] = False
        where = np.flatnonzero(ends)
        if where.size:
            counts = np.cumsum(seps, dtype=np.int64)
            per_line = np.diff(counts[where], prepend=0)
            per_line[0] += carry
            bad = per_line != width - 1
            if bad.any():
                starts = np.concatenate(([0], where[:-1] + 1))
                firsts = np.flatnonzero(bad)
                blank = [
                    not _has_content(a[starts[i] : where[i]])
                    and not (i == 0 and content)
                    and per_line[i] == 0
                    for i in firsts[:100]
                ]
                if not all(blank) or len(firsts) > 100:
                    suspect = True
                    break
            carry = int(counts[-1] - counts[where[-1]])
            content = _has_content(a[where[-1] + 1 :])
        else:
            carry += int(np.count_nonzero(seps))
            content = content or _has_content(a)
        offset += len(chunk)
    if not suspect and (carry or content) and carry != width - 1:
        suspect = True
    if suspect or parity:
        _exact_fields(path, source, sep, width, max_field, long)


def _has_content(piece: np.ndarray) -> bool:
    return bool(((piece != 32) & (piece != 9) & (piece != 13) & (piece != 10)).any())


def _exact_fields(
    path: str, source: Any, sep: str, width: int, max_field: int | None, long: bool = False
) -> None:
    """Name the first record with a wrong number of fields, read with the csv module (as pandas reads it)."""
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, (max_field or 0) + 1))
    raw = source if isinstance(source, io.BytesIO) else open(source, "rb")
    stream = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
    try:
        reader = csv.reader(stream, delimiter=sep)
        line, header_seen = 1, False
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                if "field larger" in str(err):
                    raise _too_long(f"{path}, line {line}", "a cell", max_field) from None
                raise AgreementError(f"{path}, line {line}: cannot read the line ({err})") from None
            start, line = line, reader.line_num + 1
            if not any(cell.strip(" \t\r\n,;") for cell in row):
                continue
            if not header_seen:
                header_seen = True
            elif len(row) != width:
                quote = any("\n" in cell for cell in row)
                raise AgreementError(
                    f"{path}, line {start}: "
                    + (
                        f"expected 3 columns (item, rater, label), got {len(row)}"
                        if long
                        else f"{len(row)} cells but the header has {width} columns"
                    )
                    + (
                        " (a quoted cell runs over several lines: is a closing quote missing?)"
                        if quote
                        else ""
                    )
                )
    finally:
        if isinstance(source, io.BytesIO):
            stream.detach()
            source.seek(0)
        else:
            stream.close()
        csv.field_size_limit(limit)


def _line_of_record(source: Any, record: int) -> int:
    """The physical line (1-based) on which record ``record`` (0-based; blank lines are records) starts."""
    if record <= 0:
        return 1
    seen, lines, parity = 0, 1, 0
    for chunk in _chunks(source):
        a = np.frombuffer(chunk, dtype=np.uint8)
        ends = a == 10
        quotes = a == 34
        if quotes.any() or parity:
            inside = ((np.cumsum(quotes, dtype=np.int64) + parity) & 1).astype(bool)
            parity = int(inside[-1])
            record_ends = np.flatnonzero(ends & ~inside)
        else:
            record_ends = np.flatnonzero(ends)
        need = record - seen
        if need <= len(record_ends):
            return lines + int(np.count_nonzero(ends[: int(record_ends[need - 1]) + 1]))
        seen += len(record_ends)
        lines += int(np.count_nonzero(ends))
    return lines


def _pandas_csv(path: str, source: Any, sep: str, skip: int, width: int, text_columns: set):
    import pandas as pd

    if isinstance(source, io.BytesIO):
        source.seek(0)
    try:
        with (
            warnings.catch_warnings()
        ):  # a row longer than the header: the cells are counted and the error named later
            warnings.simplefilter("ignore", pd.errors.ParserWarning)
            return pd.read_csv(
                source,
                sep=sep,
                header=0,
                names=list(range(width)),
                skiprows=skip,
                dtype={c: object for c in text_columns} or None,
                keep_default_na=False,
                na_values=list(MISSING_MARKERS),
                skip_blank_lines=False,
                encoding="utf-8",
                engine="c",
                quotechar='"',
                doublequote=True,
                index_col=False,
            )
    except pd.errors.EmptyDataError:
        raise AgreementError(f"{path}: the file has a header but no items") from None
    except UnicodeDecodeError:
        data = b"".join(_chunks(source))
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _decode_error(path, data, err.start) from None
        raise AgreementError(f"{path}: the file is not valid UTF-8") from None
    except (pd.errors.ParserError, UnicodeError, ValueError, OverflowError) as err:
        message = str(err).replace("Error tokenizing data. C error: ", "").strip()
        if "EOF inside string" in message:
            message = 'a quoted field is never closed (a " without its closing ")'
        raise AgreementError(f"{path}: cannot read the file: {message}") from None


# ================================================================ xlsx
class _SheetTable:
    """The first sheet of a workbook: header, columns of cells, and the sheet row of each data row."""

    def __init__(self, path: str, header: list, columns: list, rows: list, top: int):
        self.path, self.header, self.columns, self.rows, self.top = path, header, columns, rows, top
        self.width = len(header)

    def locate(self, row: int | None = None, column: int | None = None) -> str:
        where = self.path
        if row is not None:
            where += f", row {(self.rows[row] if row >= 0 else self.top) + 1}"
        if column is not None:
            where += f", column {column + 1}"
        return where


def _read_xlsx(path: str, max_bytes: int | None) -> _SheetTable:
    import pandas as pd

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise AgreementError(
            f"{path}: not an Excel workbook (an .xlsx file is a zip archive): {err}"
        ) from None
    check_limit(
        f"{path}: the workbook unpacks to {unpacked:,} bytes; file size",
        unpacked,
        max_bytes,
        "max_bytes",
        "--max-bytes",
    )
    try:
        frame = pd.read_excel(
            path, sheet_name=0, header=None, dtype=object, engine="openpyxl", na_filter=False
        )
    except Exception as err:  # openpyxl raises many kinds of error for a damaged workbook
        raise AgreementError(f"{path}: cannot read the workbook ({type(err).__name__}: {err})") from None
    rows = [[_excel_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    del frame
    filled = [i for i, row in enumerate(rows) if any(c is not None for c in row)]
    if not filled:
        raise AgreementError(f"{path}: the first sheet is empty")
    top = filled[0]
    header = ["" if c is None else str(c).strip() for c in rows[top]]
    while header and header[-1] == "":
        header.pop()
    width = len(header)
    body = filled[1:]
    for i in body:
        extra = [j for j, c in enumerate(rows[i][width:], start=width) if c is not None]
        if extra:
            raise AgreementError(
                f"{path}, row {i + 1}, column {extra[0] + 1}: a cell outside the header's {width} columns"
            )
    columns = [np.array([rows[i][j] for i in body], dtype=object) for j in range(width)]
    return _SheetTable(path, header, columns, body, top)


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


# ======================================================== interpretation
def _interpret(table: Any, format: str, categories: list | None, max_field: int | None) -> Cells:
    """The cells of a file as ids and labels: the item column, the long file's header, numbers or text."""
    header, path, locate = table.header, table.path, table.locate
    if not table.columns or len(table.columns[0]) == 0:
        raise AgreementError(f"{path}: the file has a header but no items")
    if format == "wide" and looks_long(header):
        raise AgreementError(
            f"{path}: the header '{', '.join(header[:3])}' looks like a long file (one rating "
            f"per line: item, rater, label); read it with format='long' (--format long on the "
            f"command line)"
        )
    if format == "long":
        if table.width != 3:
            raise AgreementError(
                f"{path}: a long file has 3 columns (item, rater, label), but the header has {table.width}"
            )
        first = 0 if header[0].lower() in ITEM_NAMES else 1  # the header is stripped
        if first:  # no header: the first line is a rating too
            table.columns = [
                np.concatenate([np.array([header[j]], dtype=object), table.columns[j].astype(object)])
                for j in range(3)
            ]

        def where(row: int | None = None, column: int | None = None) -> str:
            return locate(None if row is None else row - first, column)

        ids = [
            _id_column(path, table.columns[j], where, j, max_field, what)
            for j, what in ((0, "item"), (1, "rater"))
        ]
        labels, numeric, cats = _labels(table, [2], categories, where, max_field)
        return Cells(path, "long", ["item", "rater", "label"], None, [*ids, *labels], numeric, cats, where)
    first = 1 if _has_item_column(header) else 0
    items = _id_column(path, table.columns[0], locate, 0, max_field, "item") if first else None
    names = header[first:]
    for j, name in enumerate(names, start=first):
        if name == "":
            raise AgreementError(
                f"{path}: the header has no name for column {j + 1}; every rater column needs a name"
            )
    labels, numeric, cats = _labels(table, list(range(first, table.width)), categories, locate, max_field)

    def where(row: int | None = None, column: int | None = None) -> str:
        return locate(row, None if column is None else column + first)

    return Cells(path, "wide", names, items, labels, numeric, cats, where)


def _id_column(
    path: str, column: np.ndarray, locate: Callable, j: int, max_field: int | None, what: str
) -> list:
    """Item or rater ids as stripped text, within the field size limit; none may be missing."""
    import pandas as pd

    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    texts = [file_text(_plain_number(v)) for v in uniques]
    _check_field_sizes(texts, codes, locate, j, max_field)
    ids = np.array(texts + [None], dtype=object)[codes]  # code -1 (missing): None
    missing = np.flatnonzero(pd.isna(ids))
    if missing.size:
        raise AgreementError(
            f"{locate(int(missing[0]), j)}: the {what} is missing; every row needs its {what}"
        )
    return ids.tolist()


def _check_field_sizes(
    texts: list, codes: np.ndarray, locate: Callable, j: int, max_field: int | None
) -> None:
    if max_field is None:
        return
    for u, text in enumerate(texts):
        if isinstance(text, str) and len(text) > max_field:  # a number has no length limit
            row = int(np.flatnonzero(codes == u)[0])
            check_limit(
                f"{locate(row, j)}: the cell has {len(text):,} characters; field size",
                len(text),
                max_field,
                "max_field",
                "--max-field",
            )


def _labels(table: Any, js: list, categories: list | None, locate: Callable, max_field: int | None):
    """Label columns ``js`` as numbers (when every label and category reads as one) or as text."""
    import pandas as pd

    def unique_cells(j: int):
        codes, uniques = pd.factorize(table.columns[j], use_na_sentinel=True)
        cells = [
            None
            if isinstance(v, float) and math.isnan(v)
            else (file_text(v) if isinstance(v, str) else _plain_number(v))
            for v in uniques
        ]
        _check_field_sizes(cells, codes, locate, j, max_field)
        return codes, cells

    numeric_columns = [table.columns[j].dtype.kind in "iuf" for j in js]
    factorized = {j: unique_cells(j) for j, num in zip(js, numeric_columns) if not num}
    numbers = all(
        not isinstance(c, str) or reads_as_number(c) for codes, cells in factorized.values() for c in cells
    )
    numbers = numbers and all(
        (
            reads_as_number(c.strip())
            if isinstance(c, str)
            else isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool)
        )
        for c in (categories or [])
        if not (isinstance(c, str) and c.strip() in _MARKERS)
    )
    if not numbers:  # text: read again as written the columns that pandas took as numbers
        again = [j for j, num in zip(js, numeric_columns) if num]
        again += [
            j
            for j, (codes, cells) in factorized.items()
            if any(not isinstance(c, (str, type(None))) for c in cells)
        ]
        if again and isinstance(table, _CsvTable):  # a sheet's cells are kept as the sheet holds them
            table.columns = table._read(table.text_columns | set(again))
            factorized = {j: unique_cells(j) for j in js}
        else:
            factorized.update({j: unique_cells(j) for j in js if j not in factorized})
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
    out = []
    for j in js:
        if j not in factorized:  # a numeric column, labels are numbers: as it is
            out.append(table.columns[j])
            continue
        codes, cells = factorized[j]
        if numbers:
            values = [None if c is None else to_number(c) if isinstance(c, str) else c for c in cells]
        else:
            values = [c if c is None or isinstance(c, str) else str(c) for c in cells]  # cells: plain numbers
        if numbers and all(v is None or isinstance(v, float) or abs(v) < 2**53 for v in values):
            out.append(np.array([np.nan if v is None else v for v in values] + [np.nan], dtype=float)[codes])
        else:
            out.append(np.array(values + [None], dtype=object)[codes])  # code -1 (missing): None
    return out, numbers, declared


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
