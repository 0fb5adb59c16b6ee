"""Data in: the :class:`Ratings` table (items x raters) and :class:`AgreementError`.

Every metric in :mod:`iaa_teach` reads its data through :class:`Ratings`, so
input validation lives here and nowhere else.

Missing-value convention
------------------------
A cell is missing when it holds ``None``, a float NaN or the empty string
``""``. In :attr:`Ratings.codes` each label is its position in
``ratings.categories`` and a missing cell is :data:`Ratings.MISSING` (``-1``).

Everything the metrics need is counted here, through public methods
(:meth:`Ratings.counts`, :meth:`Ratings.count_patterns`,
:meth:`Ratings.pair_tables`, :meth:`Ratings.rater_counts`); edited copies are
made with :meth:`Ratings.with_label`, :meth:`Ratings.with_missing` and
:meth:`Ratings.from_codes`. No other module sees how the table is stored.
"""

from __future__ import annotations

import csv
import math
import string
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .validation import AgreementError

__all__ = ["AgreementError", "CountPatterns", "Ratings", "as_ratings"]


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    if isinstance(value, (float, np.floating)):
        return math.isnan(value)
    return False


def _default_rater_names(n: int) -> tuple[str, ...]:
    letters = string.ascii_uppercase
    if n <= len(letters):
        return tuple(letters[:n])
    return tuple(f"R{i + 1}" for i in range(n))


def _plain(value: Any) -> Any:
    """numpy scalars -> Python scalars; integral floats -> int (for display)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _sorted_labels(labels: Iterable[Any]) -> list[Any]:
    labels = list(labels)
    try:
        return sorted(labels)
    except TypeError:  # mixed types: numbers first, in numeric order, then the rest by type and text
        return sorted(labels, key=lambda v: (0, v, "") if isinstance(v, (int, float)) else (1, type(v).__name__, str(v)))


class CountPatterns(NamedTuple):
    """The table counted per item, with equal count rows stored once.

    Two items with the same number of ratings in each category contribute the
    same to every agreement coefficient, so the metrics work on the distinct
    rows (a few hundred, however many items there are) with their frequencies.

    Attributes
    ----------
    counts : ndarray of int64, shape (n_patterns, n_categories)
        The distinct per-item category counts, ``counts[p, j]`` ratings in
        category ``j``; rows in increasing order of their encoding.
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

    Build one with :meth:`from_rows`, :meth:`from_long` or :meth:`from_csv`
    rather than calling the constructor.

    Attributes
    ----------
    categories : tuple
        The labels in their order (the order tables show and ordinal
        measures use).
    raters : tuple of str
        Rater names, one per column.
    items : tuple
        Item names, one per row (1, 2, ... by default).
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

    __slots__ = ("_codes", "categories", "raters", "items", "_patterns")

    #: The code of a missing cell in :attr:`codes` and :meth:`from_codes`.
    MISSING = -1

    def __init__(self, codes: np.ndarray, categories: Sequence, raters: Sequence, items: Sequence,
                 *, _trusted: bool = False):
        # ``codes``: category index per cell, ``len(categories)`` where missing;
        # stored in the smallest unsigned type that holds them (uint8 for up to 255 categories)
        dtype = _code_dtype(len(categories) + 1)
        if _trusted:
            codes = np.asarray(codes).astype(dtype, copy=False)
        else:
            codes = np.array(codes, dtype=np.intp, copy=True)
            if codes.size and (codes.min() < 0 or codes.max() > len(categories)):
                raise AgreementError(f"codes must lie in 0..{len(categories)} ({len(categories)} = missing)")
            codes = codes.astype(dtype)
        if codes.ndim != 2:
            raise AgreementError(f"expected a 2-D table of codes, got shape {codes.shape}")
        codes.setflags(write=False)
        self._codes = codes
        self._patterns = None
        self.categories = tuple(categories)
        self.raters = tuple(raters)
        self.items = items if isinstance(items, range) else tuple(items)
        n_items, n_raters = codes.shape
        if n_items == 0 or n_raters == 0:
            raise AgreementError("the ratings table is empty: no items or no raters")
        if len(self.raters) != n_raters:
            raise AgreementError(f"{len(self.raters)} rater names given for {n_raters} columns")
        if len(set(self.raters)) != n_raters:
            raise AgreementError(f"rater names must be unique, got {list(self.raters)}")
        if len(self.items) != n_items:
            raise AgreementError(f"{len(self.items)} item names given for {n_items} rows")
        if len(set(self.categories)) != len(self.categories):
            raise AgreementError(f"categories must be unique, got {list(self.categories)}")

    # ------------------------------------------------------------------ shape
    @property
    def n_items(self) -> int:
        return self._codes.shape[0]

    @property
    def n_raters(self) -> int:
        return self._codes.shape[1]

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def shape(self) -> tuple[int, int]:
        return self._codes.shape

    @property
    def missing(self) -> np.ndarray:
        """Boolean mask, shape (n_items, n_raters), True where a rating is missing."""
        return self._codes == self.n_categories

    @property
    def codes(self) -> np.ndarray:
        codes = self._codes.astype(np.intp)
        codes[self.missing] = -1
        return codes

    @property
    def n_ratings(self) -> int:
        """How many labels the table holds (missing cells not counted)."""
        return int(self._codes.size - np.count_nonzero(self.missing))

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
        counting only: each item's counts are encoded as one integer, base
        ``n_raters + 1``, and the codes are tallied with ``bincount``.
        """
        if self._patterns is None:
            self._patterns = _count_patterns(self)
        return self._patterns

    def pair_tables(self, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
        """Agreement tables of rater pairs: shape (n_pairs, k, k), int64.

        ``tables[p, i, j]`` counts the items that rater ``pairs[p][0]`` put in
        category ``i`` and rater ``pairs[p][1]`` in category ``j``; items that
        either left unrated are not counted. Raters by name or column index.

        >>> r = Ratings.from_rows([["x", "y"], ["x", "x"], [None, "y"]])
        >>> r.pair_tables([("A", "B")]).tolist()
        [[[1, 1], [0, 0]]]
        """
        k1 = self.n_categories + 1
        ia = np.array([self.rater_index(a) for a, _ in pairs], dtype=np.intp)
        ib = np.array([self.rater_index(b) for _, b in pairs], dtype=np.intp)
        offsets = np.arange(len(ia), dtype=np.intp) * (k1 * k1)
        tables = np.zeros((len(ia), k1, k1), dtype=np.int64)
        rows = max(1, (1 << 17) // max(1, len(ia)))
        for start in range(0, self.n_items, rows):  # blocks of items, one bincount each
            block = self._codes[start:start + rows]
            flat = block[:, ia].astype(np.intp) * k1 + block[:, ib] + offsets
            tables += np.bincount(flat.ravel(), minlength=len(ia) * k1 * k1).reshape(-1, k1, k1)
        return tables[:, :-1, :-1]

    def rater_counts(self) -> np.ndarray:
        """Raters x categories: how many items each rater put in each category.

        >>> Ratings.from_rows([["x", "y"], ["x", None]]).rater_counts().tolist()
        [[2, 0], [0, 1]]
        """
        k1 = self.n_categories + 1
        flat = self._codes.astype(np.intp) + np.arange(self.n_raters, dtype=np.intp) * k1
        return np.bincount(flat.ravel(), minlength=self.n_raters * k1).reshape(-1, k1)[:, :-1].astype(np.int64)

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
            raise AgreementError(f"groups must be {self.n_items} integers, one per item, "
                                 f"got {groups.dtype} of shape {groups.shape}")
        if groups.size and groups.min() < 0:
            raise AgreementError(f"groups must be 0 or more, got {int(groups.min())}")
        top = int(groups.max(initial=-1)) + 1
        n_groups = top if n_groups is None else int(n_groups)
        if n_groups < top:
            raise AgreementError(f"n_groups is {n_groups} but the groups go up to {top - 1}")
        k1 = self.n_categories + 1
        base = groups.astype(np.intp) * k1
        out = np.empty((self.n_raters, n_groups * k1), dtype=np.int64)
        for j in range(self.n_raters):  # one bincount per rater (a missing cell has code k)
            out[j] = np.bincount(base + self._codes[:, j], minlength=n_groups * k1)
        return out.reshape(self.n_raters, n_groups, k1)[:, :, :-1]

    def _count_blocks(self, cells: int = 1 << 17):
        """Yield ``(first item, counts)`` for blocks of items: counts is
        block x (categories + 1), the last column counting missing cells.

        One bincount per block; the block's temporaries stay in cache, so no
        full-size temporary is allocated. Metrics that only need sums over
        items accumulate them block by block.
        """
        k1 = self.n_categories + 1
        n_items, n_raters = self._codes.shape
        rows = max(1, cells // n_raters)
        offsets = (np.arange(min(rows, n_items), dtype=np.intp) * k1)[:, None]
        for start in range(0, n_items, rows):  # blocks of items, each one vectorized step
            block = self._codes[start:start + rows]
            flat = (block + offsets[:len(block)]).ravel()
            yield start, np.bincount(flat, minlength=len(block) * k1).reshape(-1, k1)

    def rater_index(self, rater: Any) -> int:
        """Column index of a rater given by name or by column index."""
        if rater in self.raters:
            return self.raters.index(rater)
        if isinstance(rater, (int, np.integer)) and not isinstance(rater, bool):
            if -self.n_raters <= rater < self.n_raters:
                return int(rater) % self.n_raters
            raise AgreementError(
                f"rater index {rater} is out of range: the table has {self.n_raters} raters "
                f"(columns 0-{self.n_raters - 1})"
            )
        raise AgreementError(f"there is no rater named {rater!r}; the raters are {list(self.raters)}")

    # ------------------------------------------------------- edited copies
    def with_label(self, row: int, rater: Any, label: Any) -> "Ratings":
        """A copy with one cell set to ``label`` (one of the categories), or cleared if it is missing.

        ``row`` is the item's position (0-based); ``rater`` a name or column
        index. The table itself is not changed.

        >>> r = Ratings.from_rows([["x", "y"], ["x", "x"]])
        >>> r.with_label(0, "B", "x").rows(), r.with_label(1, 0, None).rows()
        ([['x', 'x'], ['x', 'x']], [['x', 'y'], [None, 'x']])
        """
        if isinstance(row, bool) or not isinstance(row, (int, np.integer)) or not 0 <= row < self.n_items:
            raise AgreementError(f"row must be an item position from 0 to {self.n_items - 1}, got {row!r}")
        j = self.rater_index(rater)
        if _is_missing(label):
            code = self.n_categories
        else:
            label = _plain(label)
            if label not in self.categories:
                raise AgreementError(f"label {label!r} is not one of the categories {list(self.categories)}")
            code = self.categories.index(label)
        codes = self._codes.copy()
        codes[row, j] = code
        return Ratings(codes, self.categories, self.raters, self.items, _trusted=True)

    def with_missing(self, mask: Any) -> "Ratings":
        """A copy with the cells where ``mask`` is True made missing.

        >>> Ratings.from_rows([["x", "y"], ["x", "x"]]).with_missing([[False, True], [False, False]]).rows()
        [['x', None], ['x', 'x']]
        """
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != self.shape:
            raise AgreementError(f"mask must be a boolean array of shape {self.shape}, "
                                 f"got {mask.dtype} of shape {mask.shape}")
        codes = np.where(mask, self.n_categories, self._codes)
        return Ratings(codes, self.categories, self.raters, self.items, _trusted=True)

    @classmethod
    def from_codes(cls, codes: Any, categories: Sequence, raters: Sequence | None = None,
                   items: Sequence | None = None) -> "Ratings":
        """Build from category positions: ``codes[i, j]`` indexes ``categories``, ``-1`` is missing.

        >>> Ratings.from_codes([[0, 1], [-1, 1]], categories=["x", "y"]).rows()
        [['x', 'y'], [None, 'y']]
        """
        arr = np.asarray(codes)
        if arr.ndim != 2 or arr.dtype.kind not in "iu":
            raise AgreementError(f"codes must be a 2-D array of integers, got {arr.dtype} of shape {arr.shape}")
        _check_size(arr.shape)
        k = len(categories)
        if arr.size and (arr.min() < cls.MISSING or arr.max() >= k):
            raise AgreementError(f"codes must lie in -1..{k - 1} (-1 = missing) for {k} categories")
        internal = np.where(arr < 0, k, arr)
        raters = _default_rater_names(arr.shape[1]) if raters is None else tuple(raters)
        items = range(1, arr.shape[0] + 1) if items is None else tuple(items)
        return cls(internal, tuple(_plain(c) for c in categories), raters, items, _trusted=True)

    def rows(self) -> list[list[Any]]:
        """The table as lists of labels, one list per item, ``None`` where missing."""
        lookup = list(self.categories) + [None]
        return [[lookup[c] for c in row] for row in self._codes.tolist()]

    def subset(self, items: Any = None, raters: Sequence | None = None) -> "Ratings":
        """A new table with some items (index array or boolean mask) and/or raters."""
        codes = self._codes
        item_names = np.arange(self.n_items)
        if items is not None:
            codes = codes[items]
            item_names = item_names[items]
        cols = list(range(self.n_raters)) if raters is None else [self.rater_index(r) for r in raters]
        return Ratings(codes[:, cols], self.categories, [self.raters[c] for c in cols],
                       [self.items[i] for i in item_names], _trusted=True)

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
        codes = np.array(self._codes, dtype=np.intp)
        kept = codes[:, ik]
        codes[:, ia] = np.where(kept < self.n_categories, kept, codes[:, other])
        cols = [j for j in range(self.n_raters) if j != ib]
        names = list(self.raters)
        names[ia] = f"{self.raters[ia]}+{self.raters[ib]}" if name is None else name
        return Ratings(codes[:, cols], self.categories, [names[j] for j in cols], self.items, _trusted=True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ratings):
            return NotImplemented
        return (self.categories == other.categories and self.raters == other.raters
                and tuple(self.items) == tuple(other.items) and np.array_equal(self._codes, other._codes))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Ratings({self.n_items} items x {self.n_raters} raters {list(self.raters)}, "
                f"categories {list(self.categories)}, {self.n_ratings} ratings, "
                f"{int(np.count_nonzero(self.missing))} missing)")

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_rows(cls, rows: Any, raters: Sequence | None = None, categories: Sequence | None = None,
                  items: Sequence | None = None) -> "Ratings":
        """Build from a table with one row per item and one column per rater.

        Parameters
        ----------
        rows : list of lists or 2-D array, shape (n_items, n_raters)
            Any hashable labels. ``None``, NaN and ``""`` are missing.
        raters : sequence of str, optional
            Column names; default ``A, B, C, ...``.
        categories : sequence, optional
            All possible labels, in their order. Default: the labels seen, sorted.
        items : sequence, optional
            Row names; default ``1, 2, ..., n_items``.

        Raises
        ------
        AgreementError
            Empty or ragged tables, fewer than 2 raters, labels outside ``categories``.
        """
        if isinstance(rows, Ratings):
            return rows
        if isinstance(rows, np.ndarray) and rows.dtype.kind in "iuf":  # bools keep True/False via the object path
            arr = rows
            if arr.ndim != 2:
                raise AgreementError(f"expected a 2-D table (items x raters), got an array of shape {arr.shape}")
            _check_size(arr.shape)
            codes, cats = _encode_numeric(arr, categories, raters)
        else:
            table = _as_table(rows)
            _check_size((len(table), len(table[0]) if table else 0))
            codes, cats = _encode_objects(table, categories, raters)
        n_items, n_raters = codes.shape
        raters = _default_rater_names(n_raters) if raters is None else tuple(raters)
        items = range(1, n_items + 1) if items is None else tuple(items)
        return cls(codes, cats, raters, items, _trusted=True)

    @classmethod
    def from_long(cls, records: Iterable[Sequence], categories: Sequence | None = None,
                  raters: Sequence | None = None, items: Sequence | None = None) -> "Ratings":
        """Build from ``(item, rater, label)`` triples, one per rating.

        Items and raters appear in the order first seen unless ``items`` /
        ``raters`` give the order. A missing label (``None``, NaN, ``""``) is
        allowed and leaves the cell empty.

        >>> r = Ratings.from_long([(1, "ann", "yes"), (1, "bob", "no"), (2, "ann", "yes")])
        >>> r.rows(), r.raters
        ([['yes', 'no'], ['yes', None]], ('ann', 'bob'))
        """
        item_order: dict[Any, int] = {} if items is None else {it: i for i, it in enumerate(items)}
        rater_order: dict[Any, int] = {} if raters is None else {r: i for i, r in enumerate(raters)}
        cells: dict[tuple[int, int], Any] = {}
        for lineno, rec in enumerate(records, start=1):
            try:
                item, rater, label = rec
            except (TypeError, ValueError):
                raise AgreementError(f"record {lineno} should be (item, rater, label), got {rec!r}") from None
            if item not in item_order:
                if items is not None:
                    raise AgreementError(f"record {lineno}: item {item!r} is not among the declared items")
                item_order[item] = len(item_order)
            if rater not in rater_order:
                if raters is not None:
                    raise AgreementError(f"record {lineno}: rater {rater!r} is not among the declared raters")
                rater_order[rater] = len(rater_order)
            key = (item_order[item], rater_order[rater])
            if key in cells and not _is_missing(label) and not _is_missing(cells[key]) and cells[key] != label:
                raise AgreementError(
                    f"record {lineno}: item {item!r} was labelled twice by rater {rater!r} "
                    f"({cells[key]!r} and {label!r})")
            if key not in cells or _is_missing(cells[key]):
                cells[key] = label
        if not cells:
            raise AgreementError("no records: the ratings table is empty")
        table = [[None] * len(rater_order) for _ in range(len(item_order))]
        for (i, j), label in cells.items():
            table[i][j] = label
        return cls.from_rows(table, raters=list(rater_order), categories=categories, items=list(item_order))

    @classmethod
    def from_csv(cls, path: Any, format: str = "wide", categories: Sequence | None = None) -> "Ratings":
        """Read a CSV file.

        ``format="wide"``: a header row of rater names, then one row per item.
        If the first header cell is ``item`` (or ``id``/``unit``), that column
        holds item names. ``format="long"``: columns ``item, rater, label``
        (a header row with those names is optional). Labels that all read as
        numbers become numbers; empty cells are missing.
        """
        with open(path, newline="", encoding="utf-8-sig") as fh:
            lines = [row for row in csv.reader(fh) if any(cell.strip() for cell in row)]
        if not lines:
            raise AgreementError(f"{path}: the file is empty")
        if format == "long":
            head = [c.strip().lower() for c in lines[0]]
            if head[:3] == ["item", "rater", "label"]:
                lines = lines[1:]
            for n, row in enumerate(lines, start=2 if head[:3] == ["item", "rater", "label"] else 1):
                if len(row) != 3:
                    raise AgreementError(f"{path}, line {n}: expected 3 columns (item, rater, label), got {len(row)}")
            labels = _numbers_if_possible([r[2].strip() for r in lines])
            records = [(r[0].strip(), r[1].strip(), lab) for r, lab in zip(lines, labels)]
            return cls.from_long(records, categories=categories)
        if format != "wide":
            raise AgreementError(f"format must be 'wide' or 'long', got {format!r}")
        header = [c.strip() for c in lines[0]]
        body = lines[1:]
        if not body:
            raise AgreementError(f"{path}: the file has a header but no items")
        for n, row in enumerate(body, start=2):
            if len(row) != len(header):
                raise AgreementError(
                    f"{path}, line {n}: {len(row)} cells but the header has {len(header)} columns")
        item_names = None
        if header[0].lower() in {"item", "id", "unit", "items"}:
            item_names = [row[0].strip() for row in body]
            header, body = header[1:], [row[1:] for row in body]
        flat = _numbers_if_possible([c.strip() for row in body for c in row])
        width = len(header)
        table = [flat[i:i + width] for i in range(0, len(flat), width)]
        return cls.from_rows(table, raters=header, categories=categories, items=item_names)


def as_ratings(data: Any) -> Ratings:
    """``data`` as a :class:`Ratings` (returned unchanged if it already is one)."""
    return data if isinstance(data, Ratings) else Ratings.from_rows(data)


# ---------------------------------------------------------------- helpers
def _check_size(shape: tuple[int, int]) -> None:
    n_items, n_raters = shape
    if n_items == 0:
        raise AgreementError("the ratings table is empty: it has no items")
    if n_raters < 2:
        raise AgreementError(f"agreement needs at least 2 raters, but the table has {n_raters} column(s)")


def _as_table(rows: Any) -> list[list[Any]]:
    if isinstance(rows, np.ndarray):
        if rows.ndim != 2:
            raise AgreementError(f"expected a 2-D table (items x raters), got an array of shape {rows.shape}")
        return rows.tolist()
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise AgreementError(f"expected a table (a list of rows), got {type(rows).__name__}")
    table = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise AgreementError(f"row {i + 1} is not a list of labels: {row!r}")
        table.append(list(row))
    if not table:
        raise AgreementError("the ratings table is empty: it has no items")
    width = len(table[0])
    for i, row in enumerate(table):
        if len(row) != width:
            raise AgreementError(
                f"ragged table: row {i + 1} has {len(row)} label{'s' * (len(row) != 1)} but row 1 has {width}; "
                f"use None for a missing rating")
    return table


def _encode_objects(table: list[list[Any]], categories: Sequence | None, raters: Sequence | None):
    n_items, n_raters = len(table), len(table[0])
    names = _default_rater_names(n_raters) if raters is None else list(raters)
    flat = [None if _is_missing(v) else _plain(v) for row in table for v in row]
    if categories is None:
        try:
            seen = {v for v in flat if v is not None}
        except TypeError:  # an unhashable label (a list, a dict, ...)
            pos = next(p for p, v in enumerate(flat) if v is not None and not _hashable(v))
            i, j = divmod(pos, n_raters)
            raise AgreementError(
                f"label {flat[pos]!r} at row {i + 1}, rater {names[j] if j < len(names) else j} is not a "
                f"single label: use a string or a number") from None
        cats = _sorted_labels(seen)
    else:
        cats = [_plain(c) for c in categories]
    index = {c: i for i, c in enumerate(cats)}
    if len(index) != len(cats):
        raise AgreementError(f"categories must be unique, got {list(categories)}")
    k = len(cats)
    try:
        codes = [k if v is None else index[v] for v in flat]
    except (KeyError, TypeError):
        for pos, v in enumerate(flat):
            if v is not None and (not _hashable(v) or v not in index):
                i, j = divmod(pos, n_raters)
                rater = names[j] if j < len(names) else j
                raise AgreementError(
                    f"label {v!r} at row {i + 1}, rater {rater} is not one of the declared "
                    f"categories {cats}") from None
        raise
    return np.asarray(codes, dtype=np.intp).reshape(n_items, n_raters), cats


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _encode_numeric(arr: np.ndarray, categories: Sequence | None, raters: Sequence | None = None):
    """Vectorized encoding of a numeric array (NaN = missing).

    Small integer labels (the usual case) take a path with no sort and no
    masked assignment: NaN is replaced by ``hi + 1`` with ``np.fmin`` (which
    ignores NaN), so after shifting by ``lo`` a missing cell lands on the
    code after the last value.
    """
    cats = None if categories is None else [_plain(c) for c in categories]
    is_float = arr.dtype.kind == "f"
    lo, hi = (np.fmin.reduce(arr, axis=None), np.fmax.reduce(arr, axis=None)) if is_float else (arr.min(), arr.max())
    if is_float and math.isnan(lo):  # every cell missing
        cats = cats or []
        return np.full(arr.shape, len(cats), dtype=np.intp), cats
    flo, fhi = float(lo), float(hi)  # Python floats: no integer overflow in hi - lo
    small = (flo.is_integer() and fhi.is_integer() and max(-flo, fhi) < 2.0 ** 53
             and fhi - flo <= 4 * arr.size + 1024)
    if small:
        lo, hi = int(lo), int(hi)
        width = hi - lo + 1
        shifted, present = _shift_small_ints(arr, lo, hi, count=cats is None)
        small = shifted is not None
    if small:
        if cats is None:
            used = np.flatnonzero(present)
            cats = [int(v) + lo for v in used]
            if len(used) == width:  # every value in lo..hi used: codes are the shifted values
                return shifted, cats
            lookup = np.zeros(width + 1, dtype=np.intp)
            lookup[used] = np.arange(len(used))
        else:
            lookup = np.full(width + 1, -1, dtype=np.intp)
            for i, c in enumerate(cats):
                if isinstance(c, (int, float)) and float(c).is_integer() and lo <= c <= hi:
                    lookup[int(c) - lo] = i
        lookup[width] = len(cats)  # missing
        codes = lookup.take(shifted)
    else:  # general path: any real numbers, sort-based
        missing = np.isnan(arr) if is_float else np.zeros(arr.shape, dtype=bool)
        filled = np.where(missing, arr.flat[int(np.argmin(missing))], arr)
        if cats is None:
            cats = [_plain(v) for v in np.unique(filled)]
        known = np.asarray([float(c) if isinstance(c, (int, float)) else np.nan for c in cats])
        sorter = np.argsort(known, kind="stable")
        if cats:
            pos = np.clip(np.searchsorted(known[sorter], filled), 0, len(cats) - 1)
            codes = np.where(known[sorter][pos] == filled, sorter[pos], -1)
        else:
            codes = np.full(arr.shape, -1, dtype=np.intp)
        codes = np.where(missing, len(cats), codes)
    if (codes < 0).any():
        _raise_unknown(arr, codes < 0, cats, raters)
    return codes, cats


def _count_patterns(r: Ratings) -> CountPatterns:
    """Distinct per-item count rows: each item's counts as one integer, base n_raters + 1, then bincount."""
    k, base = r.n_categories, r.n_raters + 1
    if k and base ** k < 2 ** 62:
        dtype = np.int32 if base ** k < 2 ** 31 else np.int64
        weight = np.zeros(k + 1, dtype=dtype)  # a missing cell adds 0
        weight[:k] = base ** np.arange(k, dtype=np.int64)
        ids = np.empty(r.n_items, dtype=dtype)
        column = np.empty(min(r.n_items, 1 << 14), dtype=dtype)
        for start in range(0, r.n_items, 1 << 14):  # blocks of items that stay in cache, a rater at a time
            block = r._codes[start:start + (1 << 14)]
            acc, tmp = ids[start:start + len(block)], column[:len(block)]
            weight.take(block[:, 0], out=acc)
            for j in range(1, r.n_raters):
                acc += weight.take(block[:, j], out=tmp)
        top = int(ids.max()) + 1
        if top <= max(1 << 20, 4 * r.n_items):
            frequency = np.bincount(ids, minlength=top)
            used = np.flatnonzero(frequency)
            lookup = np.zeros(top, dtype=np.intp)
            lookup[used] = np.arange(len(used))
            item_pattern, frequency = lookup.take(ids), frequency[used]
        else:
            used, item_pattern, frequency = np.unique(ids, return_inverse=True, return_counts=True)
        counts = (used[:, None].astype(np.int64) // weight[None, :k]) % base
    else:  # too many categories for one integer per item: the count rows themselves
        full = np.empty((r.n_items, k + 1), dtype=np.int64)
        for start, block in r._count_blocks():
            full[start:start + len(block)] = block
        counts, item_pattern, frequency = np.unique(full[:, :k], axis=0, return_inverse=True, return_counts=True)
    return CountPatterns(np.ascontiguousarray(counts, dtype=np.int64), frequency.astype(np.int64),
                         np.asarray(item_pattern, dtype=np.intp).reshape(-1))


def _code_dtype(n_codes: int) -> type:
    """The smallest unsigned integer type for codes 0 .. n_codes - 1."""
    if n_codes <= 1 << 8:
        return np.uint8
    return np.uint16 if n_codes <= 1 << 16 else np.intp


_BLOCK = 1 << 16  # cells per block: the temporaries stay in cache and are reused


def _shift_small_ints(arr: np.ndarray, lo: int, hi: int, count: bool):
    """Cells as integers ``value - lo`` (missing: ``hi - lo + 1``), and which values occur.

    Works block by block over the cells so that no full-size temporary is
    allocated: one output array, a few cache-sized buffers. Returns
    ``(None, None)`` if some value is not an integer.
    """
    width = hi - lo + 1
    flat = arr.reshape(-1)
    out = np.empty(flat.size, dtype=_code_dtype(width + 1))
    # lo and hi occur (they are the min and max); a value in between is looked for
    # block by block until first seen, so after the first blocks this costs nothing
    per_block = count and width <= 64
    present = np.ones(width, dtype=bool) if per_block else None
    pending = list(range(1, width - 1)) if per_block else []
    is_float = arr.dtype.kind == "f"
    size = min(_BLOCK, flat.size)
    buf = np.empty(size, dtype=np.float64 if is_float else np.int64)
    same = np.empty(size, dtype=bool)
    for start in range(0, flat.size, _BLOCK):  # blocks of cells, not items
        block = flat[start:start + _BLOCK]
        dest = out[start:start + block.size]
        shifted = buf[:block.size]
        np.subtract(block, lo, out=shifted, casting="unsafe")
        if is_float:
            np.fmin(shifted, width, out=shifted)  # NaN -> width, the missing code (fmin ignores NaN)
            np.copyto(dest, shifted, casting="unsafe")
            if not np.equal(dest, shifted, out=same[:block.size]).all():  # a value that is not whole
                return None, None
        else:
            np.copyto(dest, shifted, casting="unsafe")
        if pending:
            pending = [v for v in pending if not (dest == v).any()]
    if per_block:
        present[pending] = False
    elif count:
        present = np.bincount(out, minlength=width + 1)[:width] > 0
    return out.reshape(arr.shape), present


def _raise_unknown(arr: np.ndarray, bad: np.ndarray, cats: list, raters: Sequence | None) -> None:
    i, j = np.argwhere(bad)[0]
    names = _default_rater_names(arr.shape[1]) if raters is None else list(raters)
    rater = names[j] if j < len(names) else j
    raise AgreementError(
        f"label {_plain(arr[i, j])!r} at row {i + 1}, rater {rater} is not one of the declared "
        f"categories {cats}")


def _numbers_if_possible(cells: list[str]) -> list[Any]:
    """CSV cells -> ints (or floats) if every non-empty cell is a number; '' -> None."""
    present = [c for c in cells if c != ""]
    for convert in (int, float):
        try:
            converted = {c: convert(c) for c in set(present)}
        except ValueError:
            continue
        return [None if c == "" else converted[c] for c in cells]
    return [None if c == "" else c for c in cells]
