"""Data in: the :class:`Ratings` table (items x raters) and :class:`AgreementError`.

Every metric in :mod:`iaa_teach` reads its data through :class:`Ratings`, so
input validation lives here and nowhere else.

Missing-value convention
------------------------
One set of missing markers, the same in Python and in files: ``None``, a
float NaN, ``pandas.NA``, ``pandas.NaT``, and the strings ``""``, ``"NA"``,
``"N/A"``, ``"NaN"``, ``"nan"``, ``"None"``, ``"null"``
(:data:`MISSING_MARKERS`, after stripping surrounding spaces). Everything else
is a label; string labels are stripped of surrounding spaces. ``True`` and
``False`` are labels, but not beside numbers (``True == 1`` in Python, so the
two would silently merge): that is an error. In :attr:`Ratings.codes` each
label is its position in ``ratings.categories`` and a missing cell is
:data:`Ratings.MISSING` (``-1``).

Everything the metrics need is counted here, through public methods
(:meth:`Ratings.counts`, :meth:`Ratings.count_patterns`,
:meth:`Ratings.pair_tables`, :meth:`Ratings.rater_counts`); edited copies are
made with :meth:`Ratings.with_label`, :meth:`Ratings.with_missing` and
:meth:`Ratings.from_codes`. No other module sees how the table is stored.
"""

from __future__ import annotations

import dataclasses
import decimal
import math
import numbers
import string
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Callable, NamedTuple

import numpy as np

from ._reading import FORMATS, MISSING_MARKERS, read_cells
from ._validation import (
    MAX_CATEGORIES,
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    AgreementError,
    check_bool,
    check_limit,
    check_max,
    check_option,
    check_type,
)

__all__ = [
    "AgreementError",
    "CountPatterns",
    "MISSING_MARKERS",
    "Ratings",
    "as_ratings",
    "is_missing",
    "_label_of",
]

_MARKERS = frozenset(MISSING_MARKERS)


def is_missing(value: Any) -> bool:
    """True for a missing cell: None, NaN, pandas.NA/NaT, or a missing marker string.

    >>> [is_missing(v) for v in (None, float("nan"), "", " NA ", "null", "P", 0)]
    [True, True, True, True, True, False, False]
    """
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() in _MARKERS
    if isinstance(value, (float, np.floating)):
        return math.isnan(value)
    if type(value).__name__ in ("NAType", "NaTType"):  # pandas.NA, pandas.NaT (pandas not imported)
        return True
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(value))
    if isinstance(value, decimal.Decimal):
        return value.is_nan()
    return False


def _label_of(value: Any) -> Any:
    """A cell as a label: None where missing, strings stripped, numpy scalars as Python ones,
    whole floats as ints (``2.0`` and ``2`` are one label).

    >>> _label_of("  P "), _label_of(" NA"), _label_of(np.float64(2.0)), _label_of(np.True_)
    ('P', None, 2, True)
    """
    if isinstance(value, str):
        text = value.strip()
        return None if text in _MARKERS else str(text)
    if is_missing(value):
        return None
    return _plain(value)


def _default_rater_names(n: int) -> tuple[str, ...]:
    letters = string.ascii_uppercase
    if n <= len(letters):
        return tuple(letters[:n])
    return tuple(f"R{i + 1}" for i in range(n))


def _plain(value: Any) -> Any:
    """numpy scalars -> Python scalars; integral floats -> int (for display)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _key(value: Any) -> Any:
    """A label as a dict key that keeps True apart from 1."""
    return (True, value) if isinstance(value, bool) else value


def _sorted_labels(labels: list) -> list:
    try:
        return sorted(labels)
    except TypeError:  # mixed types: numbers first, in numeric order, then the rest by type and text
        return sorted(
            labels, key=lambda v: (0, v, "") if isinstance(v, (int, float)) else (1, type(v).__name__, str(v))
        )


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _category_list(categories: Any, max_categories: int | None = MAX_CATEGORIES) -> list:
    """Declared categories, checked: a sequence of distinct labels, none of them empty or missing."""
    if (
        isinstance(categories, (str, bytes, set, frozenset, Mapping))
        or not isinstance(categories, Iterable)
        or hasattr(categories, "shape")
        and getattr(categories, "ndim", 1) != 1
    ):
        raise AgreementError(
            f"categories must be a list of labels in their order (a list or tuple), got "
            f"{type(categories).__name__} {categories!r}"
        )
    given = list(categories)
    check_limit("number of categories", len(given), max_categories, "max_categories", "--max-categories")
    out = []
    for i, c in enumerate(given):
        if not _hashable(c):
            raise AgreementError(f"categories[{i}] = {c!r} is not a single label: use a string or a number")
        label = _label_of(c)
        if label is None:
            raise AgreementError(
                f"categories[{i}] = {c!r} is empty or a missing-value marker "
                f"({', '.join(repr(m) for m in MISSING_MARKERS)}, None, NaN); a category must "
                f"be a label"
            )
        out.append(label)
    first_bool = next((i for i, v in enumerate(out) if isinstance(v, (bool, np.bool_))), None)
    first_number = next((i for i, v in enumerate(out) if _is_number(v) and not isinstance(v, np.bool_)), None)
    if first_bool is not None and first_number is not None:  # True and False would merge with 1 and 0
        raise AgreementError(
            f"categories[{first_bool}] is the bool {out[first_bool]!r}, but other labels are numbers "
            f"({out[first_number]!r}); True and False would count as 1 and 0: use numbers only, or "
            f"text labels"
        )
    repeat = _first_repeat(out, _key)
    if repeat:
        i, j = repeat
        raise AgreementError(
            f"categories must be unique, got {given}: {out[j]!r} is categories[{i}] and categories[{j}]"
        )
    return out


def _first_repeat(values: Sequence, key: Callable[[Any], Any] = lambda v: v) -> tuple[int, int] | None:
    """(i, j), i < j: where the first value seen twice was seen first and again; None if all differ."""
    seen: dict = {}
    for j, v in enumerate(values):
        if key(v) in seen:
            return seen[key(v)], j
        seen[key(v)] = j
    return None


def _check_raters(raters: Sequence) -> tuple:
    raters = tuple(raters)
    for j, name in enumerate(raters):
        if not _hashable(name):
            raise AgreementError(
                f"rater name {name!r} (column {j + 1}) is not a single name: use a string", row=-1, column=j
            )
        if name is None or (isinstance(name, str) and not name.strip()):
            raise AgreementError(
                f"the rater name of column {j + 1} is empty; every rater needs a name", row=-1, column=j
            )
    repeat = _first_repeat(raters)
    if repeat:
        i, j = repeat
        raise AgreementError(
            f"rater names must be unique, got {list(raters)}: {raters[j]!r} names columns "
            f"{i + 1} and {j + 1}",
            row=-1,
            column=j,
        )
    return raters


def _check_items(items: Any) -> Any:
    if isinstance(items, range):
        return items
    items = tuple(items)
    try:
        unique = len(set(items)) == len(items)
    except TypeError:
        bad = next(i for i, it in enumerate(items) if not _hashable(it))
        raise AgreementError(
            f"item id {items[bad]!r} (item {bad + 1}) is not a single id: use a string or a number", row=bad
        ) from None
    if not unique:
        i, j = _first_repeat(items)
        raise AgreementError(f"item ids must be unique: {items[j]!r} is item {i + 1} and item {j + 1}", row=j)
    return items


class CountPatterns(NamedTuple):
    """The table counted per item, with equal count rows stored once.

    Two items with the same number of ratings in each category contribute the
    same to every agreement coefficient, so the metrics work on the distinct
    rows (a few hundred, however many items there are) with their frequencies.

    Attributes
    ----------
    counts : ndarray of int64, shape (n_patterns, n_categories)
        The distinct per-item category counts, ``counts[p, j]`` ratings in
        category ``j``; rows in a fixed order (by the last category's count,
        then the one before...; on tables with very many categories, by
        the items' sorted codes).
    frequency : ndarray of int64, shape (n_patterns,)
        How many items have each row of ``counts``.
    item_pattern : ndarray of intp, shape (n_items,)
        Which row of ``counts`` each item has.

    Examples
    --------
    >>> p = Ratings.from_rows([["x", "x"], ["y", None], ["x", "x"]]).count_patterns()
    >>> p.counts.tolist(), p.frequency.tolist(), p.item_pattern.tolist()
    ([[2, 0], [0, 1]], [2, 1], [0, 1, 0])
    """

    counts: np.ndarray
    frequency: np.ndarray
    item_pattern: np.ndarray

    @property
    def ratings_per_item(self) -> np.ndarray:
        """n_i of each pattern (row sums of ``counts``)."""
        return self.counts.sum(axis=1)


class Ratings:
    """An items x raters table of categorical labels, with missing values.

    Build one with :meth:`from_rows`, :meth:`from_long`, :meth:`from_csv`
    or :meth:`from_dataframe` rather than calling the constructor. The table
    is immutable: its codes are read-only and ``categories``, ``raters``
    and ``items`` cannot be reassigned.

    Attributes
    ----------
    categories : tuple
        The labels in their order (the order tables show and ordinal
        measures use).
    raters : tuple of str
        Rater names, one per column.
    items : tuple
        Item names, one per row (1, 2, ... by default).
    ordered : bool
        Whether the category order means something: the categories were
        declared (``categories=``) or are all numbers. Weighted kappa and
        ordinal, interval and ratio alpha need it.
    codes : ndarray of int, shape (n_items, n_raters)
        Category index of every cell, ``-1`` where missing (a new array on
        every access; the table itself is immutable).

    Examples
    --------
    >>> r = Ratings.from_rows([["P", "P"], ["N", None], ["G", "P"]])
    >>> r.categories, r.raters, r.n_ratings
    (('G', 'N', 'P'), ('A', 'B'), 5)
    >>> r.rows()
    [['P', 'P'], ['N', None], ['G', 'P']]
    """

    __slots__ = (
        "_table",
        "_columns",
        "_shape",
        "_categories",
        "_raters",
        "_items",
        "_patterns",
        "_rater_counts",
        "_ordered",
        "_reading",
    )

    #: The code of a missing cell in :attr:`codes` and :meth:`from_codes`.
    MISSING = -1

    def __init__(
        self,
        codes: np.ndarray,
        categories: Sequence,
        raters: Sequence,
        items: Sequence,
        *,
        _trusted: bool = False,
        _declared: bool = False,
        _checked: bool = False,
    ):
        # ``codes``: category index per cell, -1 where missing, stored rater by rater (each rater's
        # column contiguous: what every count reads) as one np.intp array, read-only (``_table``); or
        # the whole-number encoder's _Columns, each rater's column encoded on first use (``_column``)
        categories = tuple(categories)
        if isinstance(codes, _Columns):
            table, columns = None, codes
        else:
            codes = np.asarray(codes)
            if not _trusted:  # a caller's array: checked, then copied (it stays the caller's, writable)
                categories = tuple(_category_list(categories))
                _declared = True
                if codes.dtype.kind not in "iu":
                    raise AgreementError(f"codes must be whole numbers, got {codes.dtype}")
                if codes.size and (codes.min() < -1 or codes.max() >= len(categories)):
                    raise AgreementError(f"codes must lie in -1..{len(categories) - 1} (-1 = missing)")
                codes = np.array(codes, dtype=np.intp, order="F")
            table, columns = np.asfortranarray(codes, dtype=np.intp), None
            if table.ndim != 2:
                raise AgreementError(f"expected a 2-D table of codes, got shape {table.shape}")
            table.setflags(write=False)
        n_items, n_raters = self._shape = table.shape if columns is None else columns.shape
        if n_items == 0 or n_raters == 0:
            raise AgreementError("the ratings table is empty: no items or no raters")
        raters = tuple(raters) if _checked else _check_raters(raters)
        items = items if isinstance(items, range) or _checked else _check_items(items)
        if len(raters) != n_raters:
            raise AgreementError(f"{len(raters)} rater names given for {n_raters} columns")
        if len(items) != n_items:
            raise AgreementError(f"{len(items)} item names given for {n_items} rows")
        self._table, self._columns = table, columns
        self._patterns = self._rater_counts = self._reading = None
        self._categories = categories
        self._raters = raters
        self._items = items if isinstance(items, range) else tuple(items)
        self._ordered = bool(_declared) or all(_is_number(c) for c in categories)

    def _copy(
        self, codes: np.ndarray, raters: Sequence | None = None, items: Sequence | None = None
    ) -> "Ratings":
        """A table with new codes (same categories), its names already checked."""
        return Ratings(
            codes,
            self._categories,
            self._raters if raters is None else raters,
            self._items if items is None else items,
            _trusted=True,
            _declared=self._ordered,
            _checked=True,
        )

    # ------------------------------------------------------------------ names
    @property
    def reading(self) -> Any:
        """How the table was read from a file (:class:`iaa_teach._reading.Reading`): None if not from a file.

        Only the table that :meth:`from_csv` returns has it; an edited copy
        (a subset, a changed label) does not.
        """
        return self._reading

    @property
    def categories(self) -> tuple:
        """The labels in their order."""
        return self._categories

    @property
    def raters(self) -> tuple:
        """The rater names, one per column."""
        return self._raters

    @property
    def items(self) -> Any:
        """The item names, one per row."""
        return self._items

    @property
    def ordered(self) -> bool:
        """Whether the category order was declared (``categories=``) or is the order of numbers."""
        return self._ordered

    @property
    def _codes(self) -> np.ndarray:
        """The whole table of codes, read-only, Fortran order (each rater's column contiguous)."""
        if self._table is None:
            table = self._columns.table()
            table.setflags(write=False)
            self._table = table  # set before the columns are dropped: _column reads them in this order
            self._columns = None
        return self._table

    def _column(self, j: int) -> np.ndarray:
        """Rater ``j``'s codes, read-only: a column of the table, or encoded alone (_Columns)."""
        if self._table is None:  # not made yet: the columns are (_codes sets the table, then drops them)
            return self._columns.column(j)
        return self._table[:, j]

    # ------------------------------------------------------------------ shape
    @property
    def n_items(self) -> int:
        return self._shape[0]

    @property
    def n_raters(self) -> int:
        return self._shape[1]

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    @property
    def missing(self) -> np.ndarray:
        """Boolean mask, shape (n_items, n_raters), True where a rating is missing."""
        return np.less(self._codes, 0, order="C")

    @property
    def codes(self) -> np.ndarray:
        return self._codes.copy(order="C")

    @property
    def n_ratings(self) -> int:
        """How many labels the table holds (missing cells not counted)."""
        return int(np.count_nonzero(self._codes >= 0))

    def counts(self) -> np.ndarray:
        """Items x categories matrix: how many raters put item i in category j.

        >>> Ratings.from_rows([["x", "y"], ["x", None]]).counts().tolist()
        [[1, 1], [1, 0]]
        """
        p = self.count_patterns()
        return p.counts.take(p.item_pattern, axis=0)

    def ratings_per_item(self) -> np.ndarray:
        """n_i: how many ratings each item has (missing cells not counted)."""
        p = self.count_patterns()
        return p.ratings_per_item.take(p.item_pattern)

    def count_patterns(self) -> CountPatterns:
        """The per-item category counts, each distinct row once with its frequency.

        Computed once per table (the table is immutable) with integer
        counting only.
        """
        if self._patterns is None:
            self._patterns = _count_patterns(self._codes, self.n_categories)
        return self._patterns

    def pair_tables(self, pairs: Sequence[tuple[Any, Any]]) -> np.ndarray:
        """Agreement tables of rater pairs: shape (n_pairs, k, k), int64.

        ``tables[p, i, j]`` counts the items that rater ``pairs[p][0]`` put in
        category ``i`` and rater ``pairs[p][1]`` in category ``j``; items that
        either left unrated are not counted. Raters by name or column index.
        The result takes ``n_pairs * k * k`` integers: callers limit the pairs
        (:func:`iaa_teach.pairwise_cohen` takes ``max_pairs``).

        >>> r = Ratings.from_rows([["x", "y"], ["x", "x"], [None, "y"]])
        >>> r.pair_tables([("A", "B")]).tolist()
        [[[1, 1], [0, 0]]]
        """
        if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
            raise AgreementError(f"pairs must be a list of (rater, rater) pairs, got {pairs!r}")
        pairs = list(pairs)
        for p in pairs:
            if isinstance(p, (str, bytes)) or not isinstance(p, Sequence) or len(p) != 2:
                raise AgreementError(f"pairs must be a list of (rater, rater) pairs, got the element {p!r}")
        ia = [self.rater_index(a) for a, _ in pairs]
        ib = [self.rater_index(b) for _, b in pairs]
        k1 = self.n_categories + 1  # codes shifted by 1: missing (-1) is 0
        tables = np.empty((len(pairs), k1 * k1), dtype=np.int64)
        cells, first = np.empty(self.n_items, dtype=np.intp), None  # one buffer for every pair's cells
        for p, (a, b) in enumerate(zip(ia, ib)):
            if a != first:  # rater a's part of the cell index, once for its run of pairs (a, b1), (a, b2)...
                first, shifted = a, self._column(a) * k1 + (k1 + 1)
            tables[p] = np.bincount(np.add(shifted, self._column(b), out=cells), minlength=k1 * k1)
        return tables.reshape(-1, k1, k1)[:, 1:, 1:]

    def rater_counts(self) -> np.ndarray:
        """Raters x categories: how many items each rater put in each category.

        >>> Ratings.from_rows([["x", "y"], ["x", None]]).rater_counts().tolist()
        [[2, 0], [0, 1]]
        """
        if self._rater_counts is None:  # counted once per table: Conger's float and exact values both ask
            by_rater = self.rater_counts_by(np.zeros(self.n_items, dtype=np.intp), 1)
            self._rater_counts = np.ascontiguousarray(by_rater[:, 0])
        return self._rater_counts.copy()

    def rater_counts_by(self, groups: Any, n_groups: int | None = None) -> np.ndarray:
        """Raters x groups x categories: how many items of each group each rater put in each category.

        ``groups`` gives each item's group, an integer from 0 to
        ``n_groups - 1`` (default: its largest value + 1); for example
        ``count_patterns().item_pattern``, which groups the items that share
        a count row. Summed over groups this is :meth:`rater_counts`. One
        ``bincount`` per rater, no loop over items.

        >>> r = Ratings.from_rows([["x", "y"], ["x", None], ["y", "y"]])
        >>> r.rater_counts_by([0, 0, 1]).tolist()
        [[[2, 0], [0, 1]], [[0, 1], [0, 1]]]
        """
        groups = np.asarray(groups)
        if groups.shape != (self.n_items,) or groups.dtype.kind not in "iu":
            raise AgreementError(
                f"groups must be {self.n_items} integers, one per item, "
                f"got {groups.dtype} of shape {groups.shape}"
            )
        if groups.size and groups.min() < 0:
            raise AgreementError(f"groups must be 0 or more, got {int(groups.min())}")
        top = int(groups.max(initial=-1)) + 1
        n_groups = top if n_groups is None else int(n_groups)
        if n_groups < top:
            raise AgreementError(f"n_groups is {n_groups} but the groups go up to {top - 1}")
        k1 = self.n_categories + 1
        base = groups.astype(np.intp) * k1 + 1
        out = np.empty((self.n_raters, n_groups * k1), dtype=np.int64)
        for j in range(self.n_raters):  # one bincount per rater (a missing cell adds to 0)
            out[j] = np.bincount(base + self._column(j), minlength=n_groups * k1)
        return out.reshape(self.n_raters, n_groups, k1)[:, :, 1:]

    def rater_index(self, rater: Any) -> int:
        """Column index of a rater given by name or by column index."""
        if _hashable(rater) and rater in self.raters:
            return self.raters.index(rater)
        if isinstance(rater, (int, np.integer)) and not isinstance(rater, (bool, np.bool_)):
            if -self.n_raters <= rater < self.n_raters:
                return int(rater) % self.n_raters
            raise AgreementError(
                f"rater index {rater} is out of range: the table has {self.n_raters} raters "
                f"(columns 0-{self.n_raters - 1})"
            )
        raise AgreementError(f"there is no rater named {rater!r}; the raters are {list(self.raters)}")

    def category_index(self, label: Any) -> int:
        """Position of ``label`` in :attr:`categories` (True is never 1, nor 1 True).

        >>> Ratings.from_rows([["x", "y"]]).category_index(" y ")
        1
        """
        value = _label_of(label) if _hashable(label) else label
        for i, c in enumerate(self.categories):
            if isinstance(c, bool) == isinstance(value, bool) and c == value:
                return i
        raise AgreementError(f"label {label!r} is not one of the categories {list(self.categories)}")

    # ------------------------------------------------------- edited copies
    def with_label(self, row: int, rater: Any, label: Any) -> "Ratings":
        """A copy with one cell set to ``label`` (one of the categories), or cleared if it is missing.

        ``row`` is the item's position (0-based); ``rater`` a name or column
        index. The table itself is not changed.

        >>> r = Ratings.from_rows([["x", "y"], ["x", "x"]])
        >>> r.with_label(0, "B", "x").rows(), r.with_label(1, 0, None).rows()
        ([['x', 'x'], ['x', 'x']], [['x', 'y'], [None, 'x']])
        """
        if (
            isinstance(row, (bool, np.bool_))
            or not isinstance(row, (int, np.integer))
            or not 0 <= row < self.n_items
        ):
            raise AgreementError(f"row must be an item position from 0 to {self.n_items - 1}, got {row!r}")
        j = self.rater_index(rater)
        code = self.MISSING if _hashable(label) and is_missing(label) else self.category_index(label)
        codes = self._codes.copy()
        codes[row, j] = code
        return self._copy(codes)

    def with_missing(self, mask: Any) -> "Ratings":
        """A copy with the cells where ``mask`` is True made missing.

        >>> Ratings.from_rows([["x", "y"], ["x", "x"]]).with_missing([[False, True], [False, False]]).rows()
        [['x', None], ['x', 'x']]
        """
        try:
            mask = np.asarray(mask)
        except (ValueError, TypeError):
            raise AgreementError(
                f"mask must be a boolean array of shape {self.shape}, got {mask!r}"
            ) from None
        if mask.dtype != bool or mask.shape != self.shape:
            raise AgreementError(
                f"mask must be a boolean array of shape {self.shape}, got {mask.dtype} of shape {mask.shape}"
            )
        return self._copy(np.where(mask, self.MISSING, self._codes))

    @classmethod
    def from_codes(
        cls,
        codes: Any,
        categories: Sequence,
        raters: Sequence | None = None,
        items: Sequence | None = None,
        *,
        max_categories: int | None = MAX_CATEGORIES,
    ) -> "Ratings":
        """Build from category positions: ``codes[i, j]`` indexes ``categories``, ``-1`` is missing.

        The categories are declared: their order is the order ordinal measures use.

        >>> Ratings.from_codes([[0, 1], [-1, 1]], categories=["x", "y"]).rows()
        [['x', 'y'], [None, 'y']]
        """
        max_categories = check_max("max_categories", max_categories)
        cats = _category_list(categories, max_categories)
        try:
            arr = np.asarray(codes)
        except (ValueError, TypeError):
            raise AgreementError("codes must be a 2-D array of integers (a ragged list?)") from None
        if arr.ndim != 2 or arr.dtype.kind not in "iu":
            raise AgreementError(
                f"codes must be a 2-D array of integers, got {arr.dtype} of shape {arr.shape}"
            )
        _check_size(arr.shape)
        k = len(cats)
        if arr.size and (arr.min() < cls.MISSING or arr.max() >= k):
            raise AgreementError(f"codes must lie in -1..{k - 1} (-1 = missing) for {k} categories")
        raters = _default_rater_names(arr.shape[1]) if raters is None else _names(raters, "raters")
        items = range(1, arr.shape[0] + 1) if items is None else _names(items, "items")
        return cls(
            np.array(arr, dtype=np.intp, order="F"), cats, raters, items, _trusted=True, _declared=True
        )

    def rows(self) -> list[list[Any]]:
        """The table as lists of labels, one list per item, ``None`` where missing."""
        lookup = list(self.categories) + [None]
        return [[lookup[c] for c in row] for row in self._codes.tolist()]

    def subset(self, items: Any = None, raters: Sequence | None = None) -> "Ratings":
        """A new table with some items and/or raters.

        ``items``: positions (0-based) or a boolean mask of length
        ``n_items``; a position may repeat (a bootstrap resample), and the
        item then appears as often. ``raters``: names or column indices.

        >>> Ratings.from_rows([["x", "y", "x"], ["y", "y", "x"]]).subset(items=[1], raters=["C", "A"]).rows()
        [['x', 'y']]
        """
        codes, item_names = self._codes, self._items
        if items is not None:
            positions = _positions(items, self.n_items)
            codes = codes[positions]
            item_names = [self._items[i] for i in positions.tolist()]
        if raters is None:
            cols = list(range(self.n_raters))
        else:
            if isinstance(raters, (str, bytes)) or not isinstance(raters, Iterable):
                raise AgreementError(
                    f"raters must be a list of rater names or column indices, got {raters!r}"
                )
            cols = [self.rater_index(r) for r in raters]
            if len(set(cols)) != len(cols):
                raise AgreementError(f"raters lists a rater twice: {list(raters)}")
            if not cols:
                raise AgreementError("raters is empty: a table needs raters")
        # the names as a tuple: with all items, the table's own (copying 10**6 one by one took 130-200 ms)
        return self._copy(codes[:, cols], raters=[self.raters[c] for c in cols], items=tuple(item_names))

    def merge_raters(self, a: Any, b: Any, keep: Any, name: str | None = None) -> "Ratings":
        """The table with raters ``a`` and ``b`` merged into one column: the
        mistake that the partial-coverage lesson warns against.

        Where both labelled an item, the merged column keeps the label of
        rater ``keep`` (``a`` or ``b``) and throws the other away; where one
        did, it has that label. The merged column takes ``a``'s place and is
        named ``name`` (default ``"a+b"``).

        >>> r = Ratings.from_rows([["x", "x", None], ["y", "x", "y"]], raters=["A", "D", "E"])
        >>> r.merge_raters("D", "E", keep="E").rows()
        [['x', 'x'], ['y', 'y']]
        """
        ia, ib = self.rater_index(a), self.rater_index(b)
        if ia == ib:
            raise AgreementError(f"merging needs two different raters, got {self.raters[ia]!r} twice")
        ik = self.rater_index(keep)
        if ik not in (ia, ib):
            raise AgreementError(f"keep must be {self.raters[ia]!r} or {self.raters[ib]!r}, got {keep!r}")
        other = ib if ik == ia else ia
        codes = self._codes.copy()
        kept = codes[:, ik]
        codes[:, ia] = np.where(kept >= 0, kept, codes[:, other])
        cols = [j for j in range(self.n_raters) if j != ib]
        names = list(self.raters)
        names[ia] = f"{self.raters[ia]}+{self.raters[ib]}" if name is None else name
        return self._copy(codes[:, cols], raters=_check_raters([names[j] for j in cols]))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ratings):
            return NotImplemented
        return (
            self.categories == other.categories
            and self.raters == other.raters
            and tuple(self.items) == tuple(other.items)
            and np.array_equal(self._codes, other._codes)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Ratings({self.n_items} items x {self.n_raters} raters {list(self.raters)}, "
            f"categories {list(self.categories)}, {self.n_ratings} ratings, "
            f"{int(np.count_nonzero(self.missing))} missing)"
        )

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_rows(
        cls,
        rows: Any,
        raters: Sequence | None = None,
        categories: Sequence | None = None,
        items: Sequence | None = None,
        *,
        max_categories: int | None = MAX_CATEGORIES,
    ) -> "Ratings":
        """Build from a table with one row per item and one column per rater.

        Parameters
        ----------
        rows : list of lists, 2-D array or pandas DataFrame, shape (n_items, n_raters)
            Any hashable labels. Missing: ``None``, NaN, ``pandas.NA``/``NaT``
            and the markers :data:`MISSING_MARKERS` (``""``, ``"NA"``...);
            strings are stripped of surrounding spaces. A DataFrame is read
            by :meth:`from_dataframe`.
        raters : sequence of str, optional
            Column names; default ``A, B, C, ...``.
        categories : sequence, optional
            All possible labels, in their order (this declares the order that
            weighted kappa and ordinal alpha use). Default: the labels seen,
            sorted (numbers in numeric order).
        items : sequence, optional
            Row names, each once; default ``1, 2, ..., n_items``.
        max_categories : int or None
            Most distinct labels allowed (:data:`iaa_teach._validation.MAX_CATEGORIES`).

        Raises
        ------
        AgreementError
            Empty or ragged tables, fewer than 2 raters, labels outside
            ``categories``, True/False beside numbers, too many categories,
            duplicate names.
        """
        if isinstance(rows, Ratings):
            return rows
        if _is_frame(rows):
            return cls.from_dataframe(rows, "wide", categories, max_categories=max_categories)
        max_categories = check_max("max_categories", max_categories)
        cats = None if categories is None else _category_list(categories, max_categories)
        names = None if raters is None else _names(raters, "raters")
        if isinstance(rows, np.ndarray) and rows.ndim != 2:
            raise AgreementError(f"expected a 2-D table (items x raters), got an array of shape {rows.shape}")
        if isinstance(rows, np.ndarray) and rows.dtype.kind in "iuf":  # bools keep True/False as objects
            shape, cells = rows.shape, rows
            _check_size(shape)
        else:
            table = _as_table(rows)
            shape = (len(table), len(table[0]) if table else 0)
            _check_size(shape)
            cells = _row_labels(table, names)
        # a cell's (row, rater column): the cells read row after row
        row_major = lambda j, pos: divmod(pos, shape[1])  # noqa: E731
        codes, cats = _encode_columns([cells], cats, names, max_categories, locate=row_major)
        if isinstance(codes, np.ndarray):  # the list path: one column of cells, row after row
            codes = codes.reshape(shape)
        names = _default_rater_names(shape[1]) if names is None else names
        items = range(1, shape[0] + 1) if items is None else _names(items, "items")
        return cls(codes, cats, names, items, _trusted=True, _declared=categories is not None)

    @classmethod
    def from_dataframe(
        cls,
        frame: Any,
        format: str = "wide",
        categories: Sequence | None = None,
        *,
        max_categories: int | None = MAX_CATEGORIES,
    ) -> "Ratings":
        """Build from a pandas DataFrame.

        ``format="wide"``: one row per item (the index holds the item ids; a
        default 0, 1, 2... index gives items 1, 2, 3...), one column per
        rater (the column names). ``format="long"``: one rating per row, in
        columns named ``item``, ``rater`` and ``label`` (any letter case), or
        the only three columns in that order.

        The cells follow the same rules as :meth:`from_rows`: numbers stay
        numbers, strings are stripped, the missing markers are missing. A
        table whose columns all share one ordered ``Categorical`` type takes
        its categories (and their order) from it.

        >>> import pandas as pd
        >>> df = pd.DataFrame({"ann": ["P", "N", "NA"], "bob": ["P", " N", "P"]}, index=["s1", "s2", "s3"])
        >>> r = Ratings.from_dataframe(df)
        >>> r.raters, r.items, r.rows()
        (('ann', 'bob'), ('s1', 's2', 's3'), [['P', 'P'], ['N', 'N'], [None, 'P']])
        >>> Ratings.from_dataframe(pd.DataFrame({"item": [1, 1, 2], "rater": ["a", "b", "a"],
        ...                                      "label": [3, 4, 3]}), "long").rows()
        [[3, 4], [3, None]]
        """
        import pandas as pd

        check_option("format", format, FORMATS)
        check_type("from_dataframe", frame, pd.DataFrame, "a pandas DataFrame")
        max_categories = check_max("max_categories", max_categories)
        if frame.shape[0] == 0 or frame.shape[1] == 0:
            raise AgreementError(f"the ratings table is empty: the DataFrame has shape {frame.shape}")
        if format == "long":
            return _from_long_frame(cls, frame, categories, max_categories)
        if categories is None:
            categories = _ordered_categorical(frame)
        declared = categories is not None
        cats = None if categories is None else _category_list(categories, max_categories)
        _check_size(frame.shape)
        raters = _check_raters([_plain(c) for c in frame.columns.tolist()])
        columns = [_frame_column(frame.iloc[:, j]) for j in range(frame.shape[1])]
        codes, cats = _encode_columns(columns, cats, raters, max_categories)
        index = frame.index
        default = (
            type(index).__name__ == "RangeIndex"
            and index.start == 0
            and index.step == 1
            and index.name is None
        )
        items = range(1, frame.shape[0] + 1) if default else [_plain(v) for v in index.tolist()]
        return cls(codes, cats, raters, items, _trusted=True, _declared=declared)

    @classmethod
    def from_long(
        cls,
        records: Iterable[Sequence],
        categories: Sequence | None = None,
        raters: Sequence | None = None,
        items: Sequence | None = None,
        *,
        max_categories: int | None = MAX_CATEGORIES,
    ) -> "Ratings":
        """Build from ``(item, rater, label)`` triples, one per rating.

        Items and raters appear in the order first seen unless ``items`` /
        ``raters`` give the order. A missing label (``None``, NaN, ``""``,
        ``"NA"``...) is allowed and leaves the cell empty; the same label
        twice for one item and rater is fine, two different ones are an error.

        >>> r = Ratings.from_long([(1, "ann", "yes"), (1, "bob", "no"), (2, "ann", "yes")])
        >>> r.rows(), r.raters
        ([['yes', 'no'], ['yes', None]], ('ann', 'bob'))
        """
        max_categories = check_max("max_categories", max_categories)
        if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
            raise AgreementError(f"records must be a list of (item, rater, label) triples, got {records!r}")
        if _is_frame(records):
            return cls.from_dataframe(records, "long", categories, max_categories=max_categories)
        orders: tuple[dict, dict] = (  # item and rater ids -> positions, declared or in the order first seen
            {} if items is None else {it: i for i, it in enumerate(_names(items, "items"))},
            {} if raters is None else {r: i for i, r in enumerate(_check_raters(_names(raters, "raters")))},
        )
        positions: tuple[list, list] = ([], [])
        labels = []
        for n, rec in enumerate(records, start=1):
            try:
                item, rater, label = rec
                hash(item), hash(rater)
            except (TypeError, ValueError):
                raise AgreementError(
                    f"record {n} should be (item, rater, label) with an item id and a rater "
                    f"name, got {rec!r}",
                    row=n - 1,
                ) from None
            for what, value, order, declared, found in zip(
                ("item", "rater"), (item, rater), orders, (items, raters), positions
            ):
                if value not in order:
                    if declared is not None:
                        raise AgreementError(
                            f"record {n}: {what} {value!r} is not among the declared {what}s", row=n - 1
                        )
                    if is_missing(value):
                        raise AgreementError(f"record {n}: the {what} is missing", row=n - 1)
                    order[value] = len(order)
                found.append(order[value])
            labels.append(label)
        if not labels:
            raise AgreementError("no records: the ratings table is empty")
        return _assemble_long(
            cls,
            np.asarray(positions[0], dtype=np.intp),
            np.asarray(positions[1], dtype=np.intp),
            list(orders[0]),
            list(orders[1]),
            _objects(labels),
            categories,
            max_categories,
        )

    @classmethod
    def from_csv(
        cls,
        path: Any,
        format: str | None = None,
        categories: Sequence | None = None,
        *,
        item: str | bool | None = None,
        rater: str | None = None,
        label: str | None = None,
        raters_as_rows: bool = False,
        drop: Sequence[str] = (),
        skip_rows: int = 0,
        keep_labels: Sequence[str] = (),
        fold_case: bool = False,
        anonymise: bool = False,
        sep: str | None = None,
        encoding: str = "utf-8",
        max_bytes: int | None = MAX_FILE_BYTES,
        max_field: int | None = MAX_FIELD_CHARS,
        max_categories: int | None = MAX_CATEGORIES,
    ) -> "Ratings":
        """Read a ratings file: CSV (or TSV), or the first sheet of an ``.xlsx`` workbook.

        How the file was read (its layout, where the item IDs came from,
        every guess, the missing cells by marker) is in :attr:`reading`, and
        is the first line of the report; whatever looks wrong is also given
        as a :class:`UserWarning` naming the option that fixes it.

        Parameters
        ----------
        path : str or pathlib.Path
            A regular file (not a FIFO or a device), at most ``max_bytes`` long.
        format : {None, "wide", "long"}
            ``"wide"``: a header row of rater names, then one row per item.
            ``"long"``: one rating per line, in an item, a rater and a label
            column (a header row naming them is optional in a 3-column file;
            without one, it is recognised when its names do not fit the
            data). None (default): long if the header is three columns whose
            second and third are named like a rater and a label
            (``item, rater, label``; ``Wine, Judge, Scores``), else wide.
        categories : sequence, optional
            All labels in their order; strings are read as the file's cells are.
        item : str or False, optional
            The column of item IDs. By default, in a wide file, the first
            column is the item IDs when it has no name or an ID's name (item,
            id, unit(s), subject, patient, case, doc, text, sentence, example,
            #, index...: :func:`iaa_teach._reading.item_like`); False: no such
            column (items numbered 1..n).
        rater, label : str, optional
            A long file's rater and label columns, to pick three columns out
            of a wider export (Label Studio's CSV); ``rater`` also names the
            raters' column with ``raters_as_rows``.
        raters_as_rows : bool
            One row per rater and one column per item (a form's export: one
            row per respondent). The raters are named by ``rater``, or by a
            column named like e-mail, name, respondent... (or holding e-mail
            addresses); timestamp columns are left out.
        drop : list of str
            Columns to leave out, by name.
        skip_rows : int
            Lines (sheet rows) above the header to skip: a title row.
        keep_labels : list of str
            Missing markers to read as labels here (``["NA"]`` where NA means
            "not applicable", a category).
        fold_case : bool
            Merge labels that differ only in letter case (``Yes``, ``yes``,
            ``YES``) into the most frequent spelling (or the declared one).
        anonymise : bool
            Name the raters R1..Rn in the order of the file (for a report
            shown in class: e-mail addresses and names are never shown).
        sep : str, optional
            The separator; by default the most frequent of comma, semicolon and
            tab in the header line.
        encoding : str
            UTF-8 (with or without a byte order mark) by default; any other
            encoding must be named (``"cp1252"``, ``"latin-1"``, ``"utf-16"``).
        max_bytes, max_field, max_categories : int or None
            The limits on the file's size, a cell's length and the number of
            categories (:data:`iaa_teach._validation.LIMITS`).

        Cells are stripped; empty cells and pandas' missing markers
        (:data:`MISSING_MARKERS`: ``NA``, ``N/A``, ``n/a``, ``#N/A``,
        ``NULL``, ``null``, ``NaN``, ``nan``, ``None``, ``<NA>``...) are
        missing. The labels are numbers if every label (and every declared
        category) reads as a decimal number; otherwise all of them are text as
        written. Rows without any cell are skipped; unnamed empty columns at
        the right end are left out. Errors name the file, and the line and
        column where there is one.
        """
        max_categories = check_max("max_categories", max_categories)
        layout = {"item": item, "rater": rater, "label": label, "raters_as_rows": raters_as_rows}
        layout |= {"drop": drop, "skip_rows": skip_rows, "keep_labels": keep_labels, "fold_case": fold_case}
        cells = read_cells(
            path,
            format,
            categories,
            sep=sep,
            encoding=encoding,
            max_bytes=max_bytes,
            max_field=max_field,
            **layout,
        )
        try:
            if cells.format == "long":
                items, raters, labels = cells.columns
                item_idx, item_ids = _first_seen(items)
                rater_idx, rater_ids = _first_seen(raters)
                ratings = _assemble_long(
                    cls,
                    item_idx,
                    rater_idx,
                    item_ids,
                    rater_ids,
                    _kept(labels, cells.kept),
                    cells.categories,
                    max_categories,
                    records=False,
                )
            else:
                _check_size(
                    (len(cells.columns[0] if cells.columns else cells.items or ()), len(cells.columns))
                )
                raters = _check_raters(cells.names)
                codes, cats = _encode_columns(
                    [_kept(c, cells.kept) for c in cells.columns],
                    None if cells.categories is None else _category_list(cells.categories, max_categories),
                    raters,
                    max_categories,
                )
                if cells.items is None:
                    items = range(1, codes.shape[0] + 1)
                else:  # a column of IDs was checked as it was read; item names from a header are checked here
                    items = cells.items if cells.reading.items_from is not None else _check_items(cells.items)
                ratings = cls(
                    codes,
                    cats,
                    raters,
                    items,
                    _trusted=True,
                    _declared=cells.categories is not None,
                    _checked=True,
                )
        except AgreementError as err:  # locate(None, None) is the path
            first = getattr(err, "first_row", None)
            other = "" if first is None else cells.locate(first, None).removeprefix(cells.locate(None, None))
            also = f"; the first on {other.lstrip(', ')}: keep one of the two" if other else ""
            raise AgreementError(f"{cells.locate(err.row, err.column)}: {err}{also}") from None
        reading = cells.reading
        if check_bool("anonymise", anonymise):
            ratings = ratings._copy(
                ratings._codes, raters=tuple(f"R{j + 1}" for j in range(ratings.n_raters))
            )
            how = "anonymise, --anonymise"
            note = f"raters named R1..R{ratings.n_raters} in the order of the file ({how})"
            reading = dataclasses.replace(reading, notes=(*reading.notes, note))
        ratings._reading = reading
        for message in reading.warnings:
            warnings.warn(f"{cells.path}: {message}", UserWarning, stacklevel=2)
        return ratings

    @classmethod
    def from_file(cls, path: Any, *args: Any, **kwargs: Any) -> "Ratings":
        """Read any ratings file this package reads: what :meth:`from_csv` reads (CSV, TSV, ``.xlsx``), and
        annotation tools' exports, by suffix.

        - ``.json``: Label Studio's JSON export (tasks with ``annotations``;
          one table per control tag, named with ``label=`` when there are
          several; predictions and cancelled annotations left out);
        - ``.jsonl``: Prodigy's answers (``_annotator_id`` or
          ``_session_id`` for the rater; the options chosen, ``accept``, per
          ``_input_hash``; or the binary ``answer`` per ``_task_hash``;
          ``ignore`` is missing).

        The arguments are :meth:`from_csv`'s.
        """
        return cls.from_csv(path, *args, **kwargs)


def _kept(column: Any, kept: frozenset) -> Any:
    """A file's text column with missing markers kept as labels (``keep_labels``), as codes that keep them."""
    if not kept or column.dtype != object:
        return column
    import pandas as pd

    codes, uniques = pd.factorize(column, use_na_sentinel=True)  # the reader made the other markers None
    return _Column(codes.astype(np.intp, copy=False), list(uniques))


def as_ratings(data: Any) -> Ratings:
    """``data`` as a :class:`Ratings` (returned unchanged if it already is one)."""
    return data if isinstance(data, Ratings) else Ratings.from_rows(data)


# ---------------------------------------------------------------- helpers
def _is_frame(value: Any) -> bool:
    return type(value).__name__ == "DataFrame" and hasattr(value, "iloc") and hasattr(value, "columns")


def _names(values: Any, what: str) -> tuple:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise AgreementError(f"{what} must be a list of names, got {values!r}")
    return tuple(_plain(v) for v in values)


def _check_size(shape: tuple[int, int]) -> None:
    n_items, n_raters = shape
    if n_items == 0:
        raise AgreementError("the ratings table is empty: it has no items")
    if n_raters < 2:
        raise AgreementError(f"agreement needs at least 2 raters, but the table has {n_raters} column(s)")


def _positions(items: Any, n: int) -> np.ndarray:
    """Item positions from a boolean mask or from positions (each in range, each at most once)."""
    try:
        arr = np.asarray(items)
    except (ValueError, TypeError):
        arr = np.asarray([], dtype=object)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise AgreementError(
                f"items as a mask must have one True/False per item ({n}), got shape {arr.shape}"
            )
        positions = np.flatnonzero(arr)
    elif arr.ndim == 1 and (arr.dtype.kind in "iu" or arr.size == 0):
        positions = arr.astype(np.intp)
        bad = (positions < 0) | (positions >= n)
        if bad.any():
            raise AgreementError(
                f"item position {int(positions[bad][0])} is out of range: the table has {n} items "
                f"(positions 0-{n - 1})"
            )
    else:
        raise AgreementError(
            f"items must be item positions (whole numbers from 0 to {n - 1}) or a boolean mask, got {items!r}"
        )
    if positions.size == 0:
        raise AgreementError("the selection is empty: no items")
    return positions


def _as_table(rows: Any) -> list[list[Any]]:
    if isinstance(rows, np.ndarray):  # 2-D
        return rows.tolist()
    if isinstance(rows, Mapping):
        raise AgreementError(
            "expected a table (a list of rows), got a dict; for one column per rater use "
            "Ratings.from_dataframe(pandas.DataFrame(...))"
        )
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise AgreementError(f"expected a table (a list of rows), got {type(rows).__name__}")
    table = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Iterable):
            raise AgreementError(f"row {i + 1} is not a list of labels: {row!r}")
        table.append(list(row))
    width = len(table[0]) if table else 0  # no rows: from_rows' _check_size says the table is empty
    for i, row in enumerate(table):
        if len(row) != width:
            raise AgreementError(
                f"ragged table: row {i + 1} has {len(row)} label{'s' * (len(row) != 1)} "
                f"but row 1 has {width}; "
                f"use None for a missing rating",
                row=i,
            )
    return table


# ----------------------------------------------------- encoding labels
class _Column(NamedTuple):
    """One column of cells as local codes (-1 missing) into its distinct labels."""

    codes: np.ndarray
    labels: list


def _objects(values: list) -> _Column:
    """Python values as a column: each cell through :func:`_label_of`, one pass."""
    index: dict = {}
    labels: list = []
    codes = np.empty(len(values), dtype=np.intp)
    for pos, v in enumerate(values):
        try:
            label = _label_of(v)
            key = _key(label)
            code = index.get(key)
        except TypeError:  # an unhashable label (a list, a dict, ...)
            raise AgreementError(
                f"label {v!r} is not a single label: use a string or a number", row=pos
            ) from None
        if label is None:
            codes[pos] = -1
            continue
        if code is None:
            code = index[key] = len(labels)
            labels.append(label)
        codes[pos] = code
    return _Column(codes, labels)


def _frame_column(series: Any) -> np.ndarray:
    """A DataFrame column as a numpy array: numbers (NaN missing) where they can be, else objects."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
        return series.to_numpy()
    # Int64, Float64 (pd.NA)
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        values = series.to_numpy(dtype=object)
        if all(isinstance(v, float) or abs(v) < 2**53 for v in values.tolist() if not is_missing(v)):
            return series.to_numpy(dtype="float64", na_value=np.nan)
        return values
    return series.to_numpy(dtype=object)


def _ordered_categorical(frame: Any) -> list | None:
    """The categories of an ordered Categorical type that every column shares, if there is one."""
    dtypes = set(frame.dtypes.tolist())
    if len(dtypes) == 1:
        (dtype,) = dtypes
        if type(dtype).__name__ == "CategoricalDtype" and dtype.ordered:
            return list(dtype.categories)
    return None


def _column_labels(column: Any) -> _Column:
    """A column's cells as codes into its distinct labels (pandas.factorize where that is exact)."""
    if isinstance(column, _Column):
        return column
    import pandas as pd

    if isinstance(column, pd.Categorical):  # a file's text labels, each cell read once (_reading._labels)
        return _Column(column.codes.astype(np.intp), [_plain(v) for v in column.categories.tolist()])
    if column.dtype.kind in "iuf":
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
        return _Column(codes.astype(np.intp, copy=False), [_plain(u) for u in uniques.tolist()])
    kind = pd.api.types.infer_dtype(column, skipna=True)
    if kind not in ("string", "empty", "integer", "floating", "mixed-integer-float", "decimal", "boolean"):
        return _objects(column.tolist())  # mixed types: True must stay apart from 1
    try:
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
    except TypeError:
        return _objects(column.tolist())
    merged = _objects(uniques.tolist())  # stripping and markers can merge or drop distinct cells
    # code -1 (missing) takes the last entry
    return _Column(np.append(merged.codes, -1)[codes], merged.labels)


def _encode_columns(
    columns: list,
    categories: list | None,
    raters: Sequence | None,
    max_categories: int | None,
    locate: Callable | None = None,
) -> tuple[np.ndarray, list]:
    """Columns of cells (numeric arrays, objects or _Column) as a table of codes, -1 missing."""
    if categories is None and all(not isinstance(c, _Column) and c.dtype.kind in "iuf" for c in columns):
        whole = _whole_numbers(columns)
        if whole is not None:
            _check_distinct(len(whole[1]), max_categories)
            return whole
    parsed = []
    for j, column in enumerate(columns):
        try:
            parsed.append(_column_labels(column.reshape(-1) if isinstance(column, np.ndarray) else column))
        except AgreementError as err:
            raise AgreementError(
                f"{err} (row {err.row + 1}, rater {_rater_name(raters, j)})", row=err.row, column=j
            ) from None
    return _merge_columns(parsed, categories, raters, max_categories, locate)


def _rater_name(raters: Sequence | None, j: int) -> Any:
    return (_default_rater_names(j + 1) if raters is None or j >= len(raters) else raters)[j]


def _cell_error(
    label: Any,
    at: tuple[int, int],
    raters: Sequence | None,
    message: str,
    where: tuple[int, int] | None = None,
) -> AgreementError:
    """The error for a cell's label, named by row and rater; ``where``: the (row, column) it carries."""
    (row, column), (at_row, at_column) = at, where or at
    return AgreementError(
        f"label {label!r} at row {row + 1}, rater {_rater_name(raters, column)} {message}",
        row=at_row,
        column=at_column,
    )


def _merge_columns(
    columns: list[_Column],
    categories: list | None,
    raters: Sequence | None,
    max_categories: int | None,
    locate: Callable | None = None,
    where: Callable | None = None,
) -> tuple[np.ndarray, list]:
    """Columns with their own labels as one table of codes into the categories (declared, or all seen).

    ``locate(j, pos)`` gives the (row, rater column) that a message names for
    cell ``pos`` of column ``j``; ``where(j, pos)`` the (row, column) that the
    error carries (for a file's line and column). Both default to (pos, j).
    """
    locate = locate or (lambda j, pos: (pos, j))
    where = where or locate
    first: dict = {}  # label key -> (column, local code), the first place it occurs
    for j, col in enumerate(columns):
        for local, label in enumerate(col.labels):
            first.setdefault(_key(label), (j, local, label))

    def fail(message: str, j: int, local: int) -> AgreementError:
        pos = int(np.flatnonzero(columns[j].codes == local)[0])
        return _cell_error(columns[j].labels[local], locate(j, pos), raters, message, where(j, pos))

    labels = [label for _, _, label in first.values()]
    everything = labels + list(categories or [])
    bools = [v for v in everything if isinstance(v, bool)]
    numbers_ = [v for v in everything if _is_number(v)]
    if bools and numbers_:
        message = (
            f"is a bool, but other labels are numbers ({numbers_[0]!r}); True and False would count as "
            f"1 and 0: use numbers only, or text labels"
        )
        if _key(bools[0]) in first:
            j, local, _ = first[_key(bools[0])]
            raise fail(message, j, local)
        raise AgreementError(
            f"the categories {categories} and the labels mix True/False with numbers; True and "
            f"False would count as 1 and 0"
        )
    if categories is None:
        cats = _sorted_labels(labels)
        numeric = all(_is_number(v) for v in labels)
        _check_distinct(
            len(cats), max_categories, ("" if numeric else "free text or ") + "measurements to many decimals"
        )
    else:
        cats = list(categories)
    index = {_key(c): i for i, c in enumerate(cats)}
    out = np.empty((len(columns[0].codes), len(columns)), dtype=np.intp, order="F")
    for j, col in enumerate(columns):
        lookup = np.array([index.get(_key(label), -2) for label in col.labels] + [-1], dtype=np.intp)
        if (lookup == -2).any():
            raise fail(
                f"is not one of the declared categories {cats}", j, int(np.flatnonzero(lookup == -2)[0])
            )
        out[:, j] = lookup.take(col.codes)  # code -1 (missing) takes the last entry, -1
    return out, cats


def _row_labels(table: list[list[Any]], raters: Sequence | None) -> _Column:
    """A list of rows as one column of labels, row after row (every cell through :func:`_label_of`)."""
    flat = [v for row in table for v in row]
    try:
        return _objects(flat)
    except AgreementError as err:
        raise _cell_error(
            flat[err.row],
            divmod(err.row, len(table[0])),
            raters,
            "is not a single label: use a string or a number",
        ) from None


def _first_seen(ids: list) -> tuple[np.ndarray, list]:
    """Ids as positions in the order first seen, and the distinct ids."""
    order: dict = {}
    idx = np.fromiter((order.setdefault(v, len(order)) for v in ids), dtype=np.intp, count=len(ids))
    return idx, list(order)


def _from_long_frame(
    cls: type, frame: Any, categories: Sequence | None, max_categories: int | None
) -> Ratings:
    names = {str(c).strip().lower(): c for c in frame.columns}
    if all(n in names for n in ("item", "rater", "label")):
        cols = [frame[names[n]] for n in ("item", "rater", "label")]
    elif frame.shape[1] == 3:
        cols = [frame.iloc[:, j] for j in range(3)]
    else:
        raise AgreementError(
            f"a long table needs columns named item, rater and label (or exactly three columns), "
            f"got {list(frame.columns)}"
        )
    ids = []
    for col, what in zip(cols[:2], ("item", "rater")):
        values = [_plain(v) for v in col.tolist()]
        bad = next((i for i, v in enumerate(values) if not _hashable(v) or is_missing(v)), None)
        if bad is not None:
            raise AgreementError(
                f"record {bad + 1}: the {what} is missing or not a single id ({values[bad]!r})", row=bad
            )
        ids.append(_first_seen(values))
    return _assemble_long(
        cls,
        ids[0][0],
        ids[1][0],
        ids[0][1],
        ids[1][1],
        _frame_column(cols[2]),
        categories,
        max_categories,
    )


def _assemble_long(
    cls: type,
    item_idx: np.ndarray,
    rater_idx: np.ndarray,
    items: list,
    raters: list,
    labels: Any,
    categories: Sequence | None,
    max_categories: int | None,
    records: bool = True,
) -> Ratings:
    """A table from one rating per record: (item position, rater position, label).

    ``records``: messages name record ``r`` as ``record r + 1`` (False: the
    error's row, a record position, is left for the file reader to name as a line).
    """
    raters = _check_raters(raters)
    cats = None if categories is None else _category_list(categories, max_categories)
    column = _column_labels(labels)

    def prefix(r: int) -> str:
        return f"record {r + 1}: " if records else ""

    try:
        codes, cats = _merge_columns(
            [column],
            cats,
            raters,
            max_categories,
            locate=lambda j, pos: (int(item_idx[pos]), int(rater_idx[pos])),
            where=lambda j, pos: (pos, 2),
        )
    except AgreementError as err:
        if err.row is None:
            raise
        raise AgreementError(prefix(err.row) + str(err), row=err.row, column=err.column) from None
    codes = codes[:, 0]
    n_items, n_raters = len(items), len(raters)
    _check_size((n_items, n_raters))
    rated = np.flatnonzero(column.codes >= 0)
    keys = rater_idx[rated] * n_items + item_idx[rated]  # rater by rater, as the table is stored
    order = np.argsort(keys, kind="stable")
    clash = (keys[order][1:] == keys[order][:-1]) & (codes[rated][order][1:] != codes[rated][order][:-1])
    if clash.any():
        pairs = np.flatnonzero(clash)
        seconds = rated[order[pairs + 1]]
        pick = int(np.argmin(seconds))
        r, first = int(seconds[pick]), int(rated[order[pairs[pick]]])
        i, j = int(item_idx[r]), int(rater_idx[r])
        err = AgreementError(
            f"{prefix(r)}item {items[i]!r} was labelled twice by rater {raters[j]!r} "
            f"({cats[int(codes[first])]!r} and {cats[int(codes[r])]!r})",
            row=r,
        )
        err.first_row = first  # a file reader names its line too
        raise err
    table = np.full(n_items * n_raters, -1, dtype=np.intp)
    table[keys] = codes[rated]
    return cls(
        table.reshape(n_raters, n_items).T,
        cats,
        raters,
        _check_items(items),
        _trusted=True,
        _declared=categories is not None,
        _checked=True,
    )


def _count_patterns(codes: np.ndarray, k: int, plain: bool = False) -> CountPatterns:
    """Distinct per-item count rows, with how many items have each and which each item has.

    The plain path: items whose codes, sorted, are alike have the same counts
    (no n_items x k table). ``plain=True`` takes it on any table (the test of
    the special case below).
    """
    import pandas as pd

    n_raters = codes.shape[1]
    if not plain and (n_raters + 1) ** k < 2**63:
        # speed special case (bench_metrics.py: Fleiss' kappa and alpha at 5x their libraries; np.unique over
        # rows takes 300 ms on 100,000 x 10, this 5): an item's counts as one integer, in base n_raters + 1,
        # a rater at a time; a missing cell (-1 + 1 = 0) adds 0
        weight = np.append(0, (n_raters + 1) ** np.arange(k, dtype=np.int64))
        keys = sum(weight.take(codes[:, j] + 1) for j in range(n_raters))
        item_pattern, keys = pd.factorize(keys, sort=True)
        frequency = np.bincount(item_pattern, minlength=len(keys))
        counts = keys[:, None] // weight[1:] % (n_raters + 1)
    else:
        ordered = np.sort(np.where(codes < 0, k, codes), axis=1)  # missing as k, after every category
        rows, item_pattern, frequency = np.unique(ordered, axis=0, return_inverse=True, return_counts=True)
        flat = (rows + (np.arange(len(rows)) * (k + 1))[:, None]).ravel()
        counts = np.bincount(flat, minlength=len(rows) * (k + 1)).reshape(len(rows), k + 1)[:, :k]
    return CountPatterns(counts.astype(np.int64), frequency.astype(np.int64), item_pattern.reshape(-1))


def _whole_numbers(columns: list) -> tuple[_Columns, list] | None:
    """Speed special case of the label encoding (bench_metrics.py: Cohen's kappa from the full 100,000 x 10
    table at 5x scikit-learn; ``pandas.factorize`` takes 15 ms on its 1,000,000 cells, this 3): whole numbers
    less than 65,536 apart are their own codes, value - lowest, worked out in blocks of cells that stay in
    cache (full-size temporaries cost 3x). None if the labels are not such numbers; tests/test_ratings.py
    compares it with the plain path. ``columns``: numeric arrays of n cells, or (n, m) blocks of m raters.
    """
    parts = [c.reshape(len(c), -1) for c in columns]
    lo = min(float(np.fmin.reduce(p, axis=None)) for p in parts)
    hi = max(float(np.fmax.reduce(p, axis=None)) for p in parts)
    if not (lo.is_integer() and hi.is_integer() and max(-lo, hi) < 2.0**53 and hi - lo < 1 << 16):
        return None  # NaN bounds (every cell missing) are not whole either
    width = int(hi - lo) + 1
    small = np.min_scalar_type(-width - 1)  # the codes and code + 1: int8 up to 127 values
    blocks = [np.empty(p.shape, dtype=small) for p in parts]  # the codes, laid out as the cells are
    tally = np.zeros(width + 1, dtype=np.intp)  # tally[v + 1]: cells of value lo + v
    for part, block in zip(parts, blocks):
        step = max(1, (1 << 16) // part.shape[1])
        for start in range(0, len(part), step):
            shifted = np.subtract(part[start : start + step], lo)
            np.fmax(shifted, -1, out=shifted)  # a missing cell (NaN) -> -1
            codes = shifted.astype(small)
            if part.dtype.kind == "f" and not np.array_equal(codes, shifted):  # a value that is not whole
                return None
            if not tally[1:].all():  # some value from lo to hi not seen yet
                tally += np.bincount(codes.ravel() + 1, minlength=width + 1)
            block[start : start + step] = codes
    used = np.flatnonzero(tally[1:])
    lookup = None
    if len(used) < width:  # some value between lo and hi unused: codes are positions among the used ones
        lookup = np.full(width + 1, -1, dtype=np.intp)
        lookup[used + 1] = np.arange(len(used))
    return _Columns(blocks, lookup), [int(v) + int(lo) for v in used]


class _Columns:
    """The whole-number encoder's codes, each rater's column made an intp array on first use.

    Speed (bench_metrics.py: Cohen's kappa from the full 100,000 x 10 table at 5x scikit-learn): a
    coefficient of two raters makes their two columns only; writing all ten, column by column from
    cells stored row by row, took 3 of the 7 ms that the whole table took to encode.
    """

    def __init__(self, blocks: list, lookup: np.ndarray | None):
        self.shape = (len(blocks[0]), sum(b.shape[1] for b in blocks))
        self.where = [(b, i) for b in blocks for i in range(b.shape[1])]  # rater j: column i of a block
        self.lookup = lookup  # code + 1 -> the code among the values used (None: every value is used)
        self.made: dict = {}

    def column(self, j: int) -> np.ndarray:
        """Rater ``j``'s codes, read-only (-1 missing)."""
        column = self.made.get(j)
        if column is None:
            block, i = self.where[j]
            column = block[:, i].astype(np.intp) if self.lookup is None else self.lookup.take(block[:, i] + 1)
            column.setflags(write=False)
            self.made[j] = column
        return column

    def table(self) -> np.ndarray:
        """All raters' codes, in Fortran order."""
        out = np.empty(self.shape, dtype=np.intp, order="F")
        for j, (block, i) in enumerate(self.where):
            out[:, j] = block[:, i]
        if self.lookup is not None:
            self.lookup.take(out + 1, out=out)
        return out


def _check_distinct(
    n: int, max_categories: int | None, labels: str = "measurements to many decimals"
) -> None:
    """The limit on the distinct labels seen (the categories when none are declared)."""
    check_limit(
        "number of categories (distinct labels)",
        n,
        max_categories,
        "max_categories",
        "--max-categories",
        advice=f"check the labels: {labels} are not categories",
    )
