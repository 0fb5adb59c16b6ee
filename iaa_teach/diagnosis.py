"""Where the disagreement comes from: which raters, which items, which categories.

:func:`diagnose` takes a ratings table and returns a :class:`Diagnosis`, a
frozen report with four tables (:class:`ReportTable`), each ranked worst
first:

- :meth:`Diagnosis.rater_ranking`: the raters, least in step first, by how
  much Krippendorff's alpha rises when the rater is left out;
- :meth:`Diagnosis.item_ranking`: the items, most disputed first, by the
  observed disagreement among their own ratings;
- :meth:`Diagnosis.confused_pairs`: the pairs of categories, most confused
  first, by observed against expected coincidences;
- :meth:`Diagnosis.category_agreement`: agreement on each category on its
  own (category order).

Every number comes from the public metrics (:func:`~iaa_teach.krippendorff_alpha`,
:func:`~iaa_teach.pairwise_cohen`, :func:`~iaa_teach.fleiss_kappa`) or from
the formulas of :mod:`iaa_teach._formulas` applied to counts from
:class:`~iaa_teach.Ratings`; nothing here writes a coefficient a second time.
The one quantity of the report's own is a rater's label bias, a total
variation distance between label shares (see :meth:`Diagnosis.rater_ranking`).
Rankings compare exact values where floats are within rounding of each
other, so that equal fractions tie and the stated tie-break applies.

Leaving a rater out does not recount the table. Alpha needs, for each number
of ratings ``s`` an item has, the sums over those items of their count rows
``c`` and of ``c c^T`` (the coincidences weight an item's pairs by
``1 / (s - 1)``). Without rater ``r`` an item that ``r`` left unrated keeps
its row; an item of size ``s + 1`` that ``r`` put in category ``x`` becomes
``c - e_x`` of size ``s``, and
``sum (c - e_x)(c - e_x)^T = sum c c^T - X - X^T + diag(L)`` with
``X[x] = sum of the rows r put in x`` and ``L[x]`` how many items ``r``
put in ``x``. So every rater's sums are the whole table's sums changed by
that rater's own contribution, all integers, counted once per count row
(:meth:`Ratings.rater_counts_by`), and then go through the same formulas as
:func:`~iaa_teach.krippendorff_alpha`: as floats, or as exact fractions
(``Diagnosis.exact``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, NamedTuple

import numpy as np

from . import _formulas as F
from ._formulas import KAPPA_WEIGHTS, LEVELS
from ._validation import AgreementError, check_int, check_number, check_type, options
from .metrics import AlphaResult, Exact, PairwiseCohenResult, fleiss_kappa, krippendorff_alpha, pairwise_cohen
from .ratings import Ratings, as_ratings
from .rounding import fmt

__all__ = [
    "ReportTable",
    "format_cell",
    "Diagnosis",
    "diagnose",
    "check_diagnosis",
    "RaterIntervals",
    "GoldComparison",
    "compare_with_gold",
]


# ================================================================== tables
def _column(values: Any) -> np.ndarray:
    """A read-only 1-D column: numeric arrays as they are, anything else as an object array."""
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype != object:
        out = values.copy()
    else:
        values = list(values)
        out = np.empty(len(values), dtype=object)
        out[:] = values
    out.setflags(write=False)
    return out


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _plain(value: Any) -> Any:
    """A cell as plain Python for JSON: numpy scalars unwrapped, NaN -> None, tuples -> lists, mappings -> dicts."""
    value = _scalar(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {_plain(key): _plain(v) for key, v in value.items()}
    return value


def _plain_column(values: np.ndarray) -> list:
    """A column as plain Python values, as ``_plain`` makes each cell."""
    if values.dtype.kind == "f":
        return [None if x != x else x for x in values.tolist()]
    if values.dtype.kind in "iub":
        return values.tolist()
    return [_plain(v) for v in values]


def format_cell(value: Any) -> str:
    """A cell as text: numbers rounded half up to 3 decimals (``rounding.fmt``), labels as they are."""
    value = _scalar(value)
    if value is None:
        return ""
    if isinstance(value, (bool, str, int)):
        return str(value)
    if isinstance(value, float):
        return fmt(value)
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return " ".join(f"{key}:{n}" for key, n in value.items() if n)
    return str(value)


class ReportTable:
    """A small read-only table: named columns of equal length, rows in ranking order.

    ``table["rise"]`` is a column (a read-only numpy array), ``table[0]``
    the first row as a dict, ``len(table)`` the number of rows; iterating
    gives the rows as dicts. :meth:`as_records` gives the rows in plain
    Python (NaN as None), ready for ``json.dumps``. Printed, numbers are
    rounded half up to 3 decimals (``iaa_teach.rounding.fmt``).

    Examples
    --------
    >>> t = ReportTable({"rater": ["A", "B"], "rise": np.array([0.25, float("nan")])})
    >>> t.columns, len(t), t[0]
    (('rater', 'rise'), 2, {'rater': 'A', 'rise': 0.25})
    >>> t.as_records()
    [{'rater': 'A', 'rise': 0.25}, {'rater': 'B', 'rise': None}]
    >>> print(t)
    rater  rise
    A      0.250
    B      undefined
    """

    __slots__ = ("_data", "_rows")

    def __init__(self, columns: Mapping[str, Any]):
        data = {str(name): _column(values) for name, values in columns.items()}
        lengths = {len(v) for v in data.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: { {k: len(v) for k, v in data.items()} }")
        self._data = MappingProxyType(data)
        self._rows = lengths.pop() if lengths else 0

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self._data)

    def __len__(self) -> int:
        return self._rows

    def __getitem__(self, key: str | int) -> Any:
        if isinstance(key, str):
            if key not in self._data:
                raise KeyError(f"no column {key!r}; the columns are {list(self._data)}")
            return self._data[key]
        if isinstance(key, slice):
            return ReportTable({name: values[key] for name, values in self._data.items()})
        i = range(self._rows)[key]  # IndexError for a row out of range
        return {name: _scalar(values[i]) for name, values in self._data.items()}

    def __iter__(self):
        return (self[i] for i in range(self._rows))

    def head(self, n: int = 10) -> "ReportTable":
        """The first ``n`` rows, as a table."""
        return self[:n]

    def as_records(self) -> list[dict[str, Any]]:
        """The rows as dicts of plain Python values (NaN -> None, tuples -> lists), for JSON."""
        names = list(self._data)
        columns = [_plain_column(self._data[name]) for name in names]  # column by column: fast for many rows
        return (
            [dict(zip(names, row)) for row in zip(*columns)] if columns else [{} for _ in range(self._rows)]
        )

    def to_text(self, max_rows: int | None = 10) -> str:
        """The table as aligned text, numbers rounded half up to 3 decimals; at most ``max_rows`` rows."""
        shown = self._rows if max_rows is None else min(self._rows, max_rows)
        body = [[format_cell(values[i]) for values in self._data.values()] for i in range(shown)]
        widths = [max([len(name)] + [len(row[j]) for row in body]) for j, name in enumerate(self._data)]
        lines = ["  ".join(name.ljust(w) for name, w in zip(self._data, widths)).rstrip()]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in body]
        if shown < self._rows:
            lines.append(f"... ({self._rows - shown} more rows)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.to_text()


# ========================================================== leave one out
class _LeaveOneOutSums(NamedTuple):
    """Alpha's integer sums for the table without each rater in turn.

    ``counts[r, s]`` = sum of the count rows of the items that have ``s``
    ratings once rater ``r`` is left out; ``gram[r, s]`` = sum of their
    outer products ``c c^T``; ``size`` = 0, 1, ..., n_raters.
    """

    size: np.ndarray
    counts: np.ndarray
    gram: np.ndarray


def _leave_one_out_sums(ratings: Ratings) -> _LeaveOneOutSums:
    """``_LeaveOneOutSums`` of a table, from its count rows and each rater's labels on them.

    One integer product per number of ratings; no loop over items or raters.
    """
    patterns = ratings.count_patterns()
    by_rater = ratings.rater_counts_by(
        patterns.item_pattern, len(patterns.frequency)
    )  # (R, P, k): rater r's labels per count row
    return _sums_of(patterns.counts, patterns.frequency, by_rater)[0]


def _sums_of(c: np.ndarray, f: np.ndarray, by_rater: np.ndarray) -> tuple[_LeaveOneOutSums, _LeaveOneOutSums]:
    """The sums without each rater, and the whole table's (as one "rater" row), from count rows ``c``
    (P, k) taken ``f`` times each and each rater's labels on them, ``by_rater`` (R, P, k) (already
    taken ``f`` times): a bootstrap replicate is the same sums with items as rows and their
    multiplicities as ``f``."""
    m = c.sum(axis=1)
    k, n_raters = c.shape[1], by_rater.shape[0]
    rated = by_rater.sum(axis=2)  # (R, P): items of each count row that rater r labelled
    outer = (c[:, :, None] * c[:, None, :]).reshape(len(c), k * k)
    n_sizes = n_raters + 1
    full_counts = np.zeros((n_sizes, k), dtype=np.int64)
    full_gram = np.zeros((n_sizes, k * k), dtype=np.int64)
    # rater r's part of the items of each size (one size more than the last, all zero)
    own_counts = np.zeros((n_raters, n_sizes + 1, k), dtype=np.int64)
    own_gram = np.zeros((n_raters, n_sizes + 1, k * k), dtype=np.int64)
    cross = np.zeros((n_raters, n_sizes + 1, k, k), dtype=np.int64)  # X[x] = sum of the rows r put in x
    labels = np.zeros((n_raters, n_sizes + 1, k), dtype=np.int64)  # L[x] = items r put in x
    for s in range(n_sizes):  # one integer product per number of ratings (at most n_raters + 1)
        rows = np.flatnonzero(m == s)
        if len(rows) == 0:
            continue
        every = len(rows) == len(m)  # a complete table: one size, no copies
        c_s, outer_s = (c, outer) if every else (c[rows], outer[rows])
        rated_s, by_s = (rated, by_rater) if every else (rated[:, rows], by_rater[:, rows, :])
        full_counts[s] = f[rows] @ c_s
        full_gram[s] = f[rows] @ outer_s
        own_counts[:, s] = rated_s @ c_s
        own_gram[:, s] = rated_s @ outer_s
        cross[:, s] = by_s.transpose(0, 2, 1) @ c_s
        labels[:, s] = by_s.sum(axis=1)
    # without r: items r left unrated keep size s; items of size s + 1 that r labelled x become c - e_x
    eye = np.eye(k, dtype=np.int64)
    counts = full_counts[None] - own_counts[:, :-1] + own_counts[:, 1:] - labels[:, 1:]
    gram = (full_gram[None] - own_gram[:, :-1] + own_gram[:, 1:]).reshape(n_raters, n_sizes, k, k)
    gram = gram - cross[:, 1:] - cross[:, 1:].transpose(0, 1, 3, 2) + labels[:, 1:, :, None] * eye
    size = np.arange(n_sizes)
    whole = _LeaveOneOutSums(size, full_counts[None], full_gram.reshape(1, n_sizes, k, k))
    return _LeaveOneOutSums(size, counts, gram), whole


def _alphas(sums: _LeaveOneOutSums, full: AlphaResult, exact: bool) -> np.ndarray:
    """Alpha of each left-out table, through the formulas; NaN (None when exact) where nothing is pairable.

    Distances as in ``full`` (those of the whole table), except ordinal
    ones, which depend on the pooled counts and are recomputed.
    """
    pairable = sums.counts[:, 2:].sum(axis=(1, 2))
    out = F.undefined(len(pairable), exact)
    keep = np.flatnonzero(pairable > 0)
    if len(keep) == 0:
        return out
    used = np.flatnonzero(
        (sums.size >= 2) & sums.counts[keep].any(axis=(0, 2))
    )  # sizes that add coincidences
    counts = F.as_numbers(sums.counts[keep][:, used], exact)
    gram = F.as_numbers(sums.gram[keep][:, used], exact)
    o = F.coincidences(sums.size[used], counts, gram).sum(axis=1)
    delta = None
    if full.level != "ordinal":
        delta = np.broadcast_to(np.array(full.exact.delta, dtype=object) if exact else full.delta, o.shape)
    out[keep] = F.alpha_coefficient(o, full.level, None, delta)[0]
    return out


def _item_disagreement(counts: np.ndarray, alpha: AlphaResult, exact: bool) -> np.ndarray:
    """D_o of each count row as one item (the mean distance within its pairs); NaN/None below 2 ratings.

    The unit's own coincidences, and their disagreement with n = m_u, at the
    distances of the whole table (``alpha.delta``).
    """
    m = counts.sum(axis=1)
    gram = counts[:, :, None] * counts[:, None, :]
    o = F.coincidences(m, F.as_numbers(counts, exact), F.as_numbers(gram, exact))
    delta = np.array(alpha.exact.delta, dtype=object) if exact else alpha.delta
    pairable = m >= 2
    out = F.undefined(len(m), exact)
    if pairable.any():
        out[pairable] = F.disagreement(o[pairable], delta, F.as_numbers(m[pairable], exact))
    return out


# ================================================================ report
def _settle_ties(values: np.ndarray, exact_of: Callable[[np.ndarray], Any]) -> np.ndarray:
    """``values`` with exact ties made equal floats, for ranking.

    Two equal fractions computed by different float steps (4/5 as 24/30 and
    as 16/20) can differ in the last bit. Distinct floats that lie within
    1e-9 (relative) of another are replaced by the correctly rounded float
    of their exact value, ``exact_of(positions)``, so that values equal as
    fractions compare equal and the tie-break applies. Equal floats are
    taken as ties as they are.
    """
    out = np.array(values, dtype=float)
    distinct, first = np.unique(out, return_index=True)  # sorted; NaN last
    distinct, first = distinct[~np.isnan(distinct)], first[~np.isnan(distinct)]
    close = np.diff(distinct) <= 1e-9 * np.maximum(1.0, np.abs(distinct[1:]))
    near = np.zeros(len(distinct), dtype=bool)
    near[:-1] |= close
    near[1:] |= close
    if near.any():
        settled = np.array([np.nan if x is None else float(x) for x in exact_of(first[near])])
        lookup = dict(zip(distinct[near].tolist(), settled.tolist()))
        hit = np.isin(out, distinct[near])
        out[hit] = [lookup[x] for x in out[hit].tolist()]
    return out


def _order(primary: np.ndarray, *more: np.ndarray) -> np.ndarray:
    """Positions sorted by ``primary`` descending, then each of ``more`` descending, NaN last, then position."""
    keys = [np.where(np.isnan(k), -np.inf, k) for k in (primary, *more)]
    return np.lexsort([np.arange(len(primary))] + [-k for k in reversed(keys)])


#: Bootstrap replicates of :meth:`Diagnosis.rater_intervals`.
_N_BOOT_RANKING = 500
#: Tables with more cells (items x raters) than this are not resampled for the ranking's intervals.
_MAX_BOOT_CELLS = 400_000
#: Replicates x cells that :meth:`Diagnosis.rater_intervals` resamples at most (100 replicates at least).
_BOOT_BUDGET = 20_000_000


class RaterIntervals(NamedTuple):
    """:meth:`Diagnosis.rater_intervals`: each rater's rise with its bootstrap interval, in ranking order.

    ``low``, ``high``: the percentile interval of the rise; ``se``: the
    standard deviation of its defined replicates; ``n_undefined``:
    replicates where it was undefined (left out); ``alike_first``: the
    raters (first included) that cannot be told apart from the first;
    ``reason``: why there are no intervals, if there are none.
    """

    raters: tuple
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    n_undefined: np.ndarray
    alike_first: tuple
    confidence: float
    n_boot: int
    reason: str | None


@dataclass(frozen=True, repr=False, eq=False)
class Diagnosis:
    """Which raters, items and categories a table's disagreement comes from.

    Made by :func:`diagnose`. Each table is computed on first use and kept
    (the report is read-only).

    Attributes
    ----------
    ratings : Ratings
    level : {"nominal", "ordinal", "interval", "ratio"}
    alpha : AlphaResult
        Krippendorff's alpha of the whole table at ``level``.
    pairwise : PairwiseCohenResult
        Cohen's kappa of every pair of raters, weighted by
        ``KAPPA_WEIGHTS[level]``.
    exact : Exact
        ``alpha``, ``alpha_without`` and ``rise`` (per rater, in the
        table's rater order) as fractions; None where undefined.
    """

    ratings: Ratings
    level: str
    alpha: AlphaResult

    # --------------------------------------------------------- raters
    @cached_property
    def pairwise(self) -> PairwiseCohenResult:
        return pairwise_cohen(self.ratings, weights=KAPPA_WEIGHTS[self.level])

    @cached_property
    def _sums(self) -> _LeaveOneOutSums:
        return _leave_one_out_sums(self.ratings)

    @cached_property
    def alpha_without(self) -> np.ndarray:
        """Alpha of the table without each rater, in the table's rater order (NaN where undefined).

        Values within rounding of each other are the floats of their exact
        values, so raters whose alphas are equal as fractions get equal floats.
        """
        sums = self._sums

        def exact(raters: np.ndarray) -> np.ndarray:
            return _alphas(
                _LeaveOneOutSums(sums.size, sums.counts[raters], sums.gram[raters]), self.alpha, True
            )

        values = _settle_ties(_alphas(sums, self.alpha, exact=False).astype(float), exact)
        values.setflags(write=False)
        return values

    @cached_property
    def exact(self) -> Exact:
        """``alpha``, ``alpha_without`` and ``rise`` as exact fractions (None where undefined)."""
        whole = self.alpha.exact.alpha
        without = tuple(_alphas(self._sums, self.alpha, exact=True).tolist())
        rise = tuple(None if a is None or whole is None else a - whole for a in without)
        return Exact(alpha=whole, alpha_without=without, rise=rise)

    def _rater_reasons(self, kappa_pairs: np.ndarray) -> list[str | None]:
        r, reasons = self.ratings, []
        pairable = self._sums.counts[:, 2:].sum(axis=(1, 2))
        for j, name in enumerate(r.raters):
            why = []
            if pairable[j] == 0:
                why.append(f"without {name} no item has 2 or more ratings, so alpha is undefined")
            elif math.isnan(self.alpha_without[j]):
                why.append(
                    f"without {name} the expected disagreement D_e is 0 (all pairable values in one "
                    f"category, or equally distant at this level), so alpha is undefined"
                )
            if not self.alpha.defined:
                why.append(
                    f"the rise is undefined: alpha of the whole table is undefined ({self.alpha.reason})"
                )
            if kappa_pairs[j] == 0:
                why.append(f"Cohen's kappa of {name} with every other rater is undefined")
            reasons.append("; ".join(why) or None)
        return reasons

    @cached_property
    def _bias(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each rater's label shares p against the others' q on the same items (:meth:`rater_ranking`'s
        ``bias``, ``overused``, ``overuse``): (TVD = sum_j |p_j - q_j| / 2, overused category, excess)."""
        r = self.ratings
        patterns = r.count_patterns()
        c = patterns.counts
        m = c.sum(axis=1)
        shared = m >= 2
        by_rater = r.rater_counts_by(patterns.item_pattern, len(c))[:, shared, :]  # (R, P', k)
        per_other = 1.0 / (m[shared] - 1)  # each item counts once, its other ratings share it
        own = by_rater.sum(axis=1)  # (R, k)
        # sum over the rater's items of (c - e_x) / (m - 1): the others' ratings of each item, as shares
        others = np.einsum("rp,pk->rk", by_rater.sum(axis=2) * per_other, c[shared]) - np.einsum(
            "rpk,p->rk", by_rater, per_other
        )
        n = own.sum(axis=1)
        excess = F.divide(own - others, n[:, None])
        tvd = np.abs(excess).sum(axis=1) / 2
        top = np.argmax(np.where(np.isnan(excess), -np.inf, excess), axis=1)
        overused = [
            None if n[j] == 0 or excess[j, top[j]] <= 0 else r.categories[top[j]] for j in range(r.n_raters)
        ]
        most = np.where(n > 0, excess[np.arange(r.n_raters), top], np.nan)
        return tvd, _column(overused), most

    @cached_property
    def _rater_table(self) -> ReportTable:
        r = self.ratings
        matrix = self.pairwise.matrix
        defined = ~np.isnan(matrix)
        kappa_pairs = defined.sum(axis=1)
        mean_kappa = F.divide(np.where(defined, matrix, 0.0).sum(axis=1), kappa_pairs)
        rise = self.alpha_without - self.alpha.alpha
        tvd, overused, excess = self._bias
        order = _order(self.alpha_without, -mean_kappa)
        return ReportTable(
            {
                "rater": _column(r.raters)[order],
                "alpha_without": self.alpha_without[order],
                "rise": rise[order],
                "mean_kappa": mean_kappa[order],
                "kappa_pairs": kappa_pairs[order],
                "ratings": (~r.missing).sum(axis=0)[order],
                "bias": tvd[order],
                "overused": overused[order],
                "overuse": excess[order],
                "reason": _column(self._rater_reasons(kappa_pairs))[order],
            }
        )

    def rater_ranking(self) -> ReportTable:
        """The raters, least in step first.

        Ranked by ``rise``, how much alpha rises when the rater is left out
        (``alpha_without - alpha``; the same order as ``alpha_without``,
        which also ranks when the whole table's alpha is undefined); ties by
        mean kappa, lowest first; then table order.

        Columns
        -------
        rater, alpha_without, rise
            Alpha of the table without the rater, and its rise over the
            whole table's alpha. A rise above 0: the others agree better
            without this rater.
        mean_kappa, kappa_pairs
            Mean Cohen's kappa of the rater with each other rater
            (``KAPPA_WEIGHTS[level]``), over the ``kappa_pairs`` pairs where
            it is defined.
        ratings
            How many labels the rater gave.
        bias, overused, overuse
            How the rater's label shares differ from the other raters' on
            the same items: the total variation distance
            ``sum_j |p_j - q_j| / 2`` (0 = the same mix; 1 = no label in
            common), the category the rater uses most above the others
            and by how much (a share). ``q_j`` is the mean, over the items
            the rater labelled that have another rating, of the share of
            category j among those other ratings; on a complete table it is
            the pooled share of the other raters. Comparing on the same
            items keeps a rater who saw different items from looking
            biased. Total variation rather than chi-square: it measures
            the size of the difference on a fixed 0-1 scale and reads as
            "the share of this rater's labels that would have to change
            category to match the others' mix", while chi-square grows with
            the number of ratings and measures evidence, not size.
        reason
            Why a number in the row is undefined, if one is.
        """
        return self._rater_table

    def rater_intervals(
        self, n_boot: int = _N_BOOT_RANKING, seed: int = 0, confidence: float = 0.95
    ) -> RaterIntervals:
        """How sure the rater ranking is: a bootstrap over the items of each rater's rise.

        Each replicate draws ``n_items`` items with replacement (the same
        draws for every rater, ``seed``), recomputes alpha of the whole
        table and without each rater from the replicate's integer sums (as
        :meth:`rater_ranking` does), and keeps each rise. The interval is
        the percentile interval of the defined replicates. Two raters
        cannot be told apart when the percentile interval of the
        difference of their alphas without them (the same replicates)
        holds 0: :attr:`RaterIntervals.apart_from_first` lists, in ranking
        order, the raters that cannot be told apart from the first.

        Tables of more than ``_MAX_BOOT_CELLS`` cells (items x raters)
        are not resampled: the intervals are NaN and ``reason`` says why.
        Large tables get fewer replicates: at most ``_BOOT_BUDGET`` /
        cells, and at least 100 (their intervals are narrow anyway).

        Examples
        --------
        >>> from iaa_teach import datasets
        >>> sure = diagnose(datasets.sentiment()).rater_intervals()
        >>> sure.raters, sure.alike_first
        (('B', 'C', 'A'), ('B', 'C'))
        """
        n_boot = check_int("n_boot", n_boot, 2)
        seed = check_int("seed", seed, 0)
        confidence = check_number("confidence", confidence, 0.0, 1.0, open_low=True, open_high=True)
        r = self.ratings
        names = tuple(self.rater_ranking()["rater"])
        order = np.array([r.rater_index(name) for name in names], dtype=np.intp)
        n = len(order)
        nan = np.full(n, np.nan)
        cells = r.n_items * r.n_raters
        reason = None
        if cells > _MAX_BOOT_CELLS:
            reason = (
                f"the table has {cells:,} cells (items x raters), more than the {_MAX_BOOT_CELLS:,} that "
                f"are resampled; with this many items a bootstrap interval would be narrow"
            )
        elif r.n_items < 2:
            reason = "one item: nothing to resample"
        if reason is not None:
            return RaterIntervals(names, nan, nan, nan, np.zeros(n, int), (), confidence, 0, reason)
        n_boot = min(n_boot, max(100, _BOOT_BUDGET // cells))
        # floats for BLAS products: the sums are integers far below 2**53, so exact
        counts = r.counts().astype(float)
        by_item = r.rater_counts_by(np.arange(r.n_items), r.n_items).astype(float)  # (R, N, k)
        rng = np.random.default_rng(seed)
        rises = np.full((n_boot, r.n_raters), np.nan)
        without = np.full((n_boot, r.n_raters), np.nan)
        for b in range(n_boot):
            w = np.bincount(rng.integers(0, r.n_items, r.n_items), minlength=r.n_items).astype(float)
            loo, whole = _sums_of(counts, w, by_item * w[None, :, None])
            without[b] = _alphas(loo, self.alpha, exact=False).astype(float)
            rises[b] = without[b] - float(_alphas(whole, self.alpha, exact=False)[0])
        tail = (1 - confidence) / 2 * 100
        rises, without = rises[:, order], without[:, order]
        ok = ~np.isnan(rises)
        low, high, se = nan.copy(), nan.copy(), nan.copy()
        for j in range(n):
            if ok[:, j].sum() >= 2:
                low[j], high[j] = np.percentile(rises[ok[:, j], j], [tail, 100 - tail])
                se[j] = np.std(rises[ok[:, j], j], ddof=1)
        alike = [0]
        for j in range(1, n):
            diff = without[:, 0] - without[:, j]
            diff = diff[~np.isnan(diff)]
            if len(diff) < 2 or np.percentile(diff, tail) <= 0 <= np.percentile(diff, 100 - tail):
                alike.append(j)
        return RaterIntervals(
            names, low, high, se, (~ok).sum(axis=0), tuple(names[j] for j in alike), confidence, n_boot, None
        )

    # ---------------------------------------------------------- items
    @cached_property
    def _item_table(self) -> ReportTable:
        r, alpha = self.ratings, self.alpha
        patterns = r.count_patterns()
        c = patterns.counts
        m = c.sum(axis=1)
        d = _settle_ties(
            _item_disagreement(c, alpha, exact=False), lambda rows: _item_disagreement(c[rows], alpha, True)
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            share = m * d / (alpha.n * alpha.d_o)  # each item's part of D_o = sum_u m_u d_u / n
        cats = r.categories
        top = c.max(axis=1)
        plurality = _column(
            tuple(cats[j] for j in np.flatnonzero(row == t)) if t else () for row, t in zip(c, top)
        )
        label_counts = _column(MappingProxyType(dict(zip(cats, row.tolist()))) for row in c)
        item_d, item_m = d[patterns.item_pattern], m[patterns.item_pattern]
        order = _order(item_d, item_m.astype(float))
        rows = patterns.item_pattern[order]
        return ReportTable(
            {
                "item": _column(r.items)[order],
                "disagreement": d[rows],
                "share_of_d_o": share[rows],
                "ratings": m[rows],
                "plurality": plurality[rows],
                "label_counts": label_counts[rows],
            }
        )

    def item_ranking(self) -> ReportTable:
        """The items, most disputed first.

        Ranked by ``disagreement``; ties by number of ratings, most first;
        then table order.

        Columns
        -------
        item
        disagreement
            The observed disagreement D_o of the item on its own: the mean
            distance delta^2 (at ``level``) over the ordered pairs of its
            ratings. At the nominal level, the share of pairs that disagree,
            1 - P_i of Fleiss' kappa. NaN for an item with fewer than 2
            ratings (no pair), ranked last.
        share_of_d_o
            The item's part of the table's D_o, m_u d_u / (n D_o): items
            with more ratings weigh more. The column sums to 1.
        ratings
            m_u, the item's number of ratings.
        plurality
            The most frequent label(s): a tuple, more than one on a tie.
        label_counts
            Ratings per category (a read-only mapping).
        """
        return self._item_table

    # ----------------------------------------------------- categories
    @cached_property
    def _pair_table(self) -> ReportTable:
        alpha, cats = self.alpha, self.ratings.categories
        i, j = np.triu_indices(len(cats), 1)
        observed, expected = alpha.coincidences[i, j], alpha.expected[i, j]
        ratio = F.divide(observed, expected)

        def exact_ratio(pairs: np.ndarray) -> list:
            return [self.pair_exact(cats[i[p]], cats[j[p]]).ratio for p in pairs]

        order = _order(_settle_ties(ratio, exact_ratio), observed)
        return ReportTable(
            {
                "first": _column(cats[x] for x in i[order]),
                "second": _column(cats[x] for x in j[order]),
                "observed": observed[order],
                "expected": expected[order],
                "ratio": ratio[order],
                "pairs": alpha.pair_counts[i, j][order],
            }
        )

    @cached_property
    def _exact_expected(self) -> np.ndarray:
        """The expected coincidences e_ck as fractions (k x k)."""
        ex = self.alpha.exact
        return F.expected_coincidences(np.array([ex.n_c], dtype=object), np.array([ex.n], dtype=object))[0]

    def confused_pairs(self) -> ReportTable:
        """The pairs of categories, most confused first.

        Ranked by ``ratio``, observed over expected coincidences; ties by
        observed coincidences.

        Columns
        -------
        first, second
            The two categories (each pair once, in category order).
        observed
            o_ck, Krippendorff's coincidences: pairs of ratings of the same
            item that are c and k, each item's pairs weighted 1 / (m_u - 1).
        expected
            e_ck = n_c n_k / (n - 1): the same if the values were paired at
            random.
        ratio
            o_ck / e_ck: 1 = confused as often as chance would pair them;
            below 1 (the usual case): told apart; above 1: confused more
            often than chance. NaN where a category has no pairable value.
        pairs
            Unweighted ordered pairs of ratings of the same item that are c
            and k, as counted by hand.
        """
        return self._pair_table

    @cached_property
    def _category_table(self) -> ReportTable:
        r, alpha = self.ratings, self.alpha
        codes = r.codes
        kappas, alphas = [], []
        for x in range(len(r.categories)):  # one two-category table per category
            binary = Ratings.from_codes(
                np.where(codes == x, 1, np.where(codes < 0, -1, 0)), categories=(0, 1), raters=r.raters
            )
            kappas.append(fleiss_kappa(binary).kappa)
            alphas.append(krippendorff_alpha(binary))
        diagonal = np.arange(len(r.categories))
        agreement = F.divide(alpha.coincidences[diagonal, diagonal], alpha.n_c)
        expected = F.divide(alpha.expected[diagonal, diagonal], alpha.n_c)
        return ReportTable(
            {
                "category": _column(r.categories),
                "values": np.rint(alpha.n_c).astype(np.int64),
                "agreement": agreement,
                "expected": expected,
                "kappa": np.array(kappas),
                "alpha": np.array([a.alpha for a in alphas]),
                "reason": _column(
                    None if a.defined else f"{c!r} against the rest: {a.reason}"
                    for c, a in zip(r.categories, alphas)
                ),
            }
        )

    def category_agreement(self) -> ReportTable:
        """Agreement on each category on its own, in category order.

        Columns
        -------
        category, values
            The category and n_c, its pairable values.
        agreement
            o_cc / n_c: of the pairable values in c, the share whose
            partner (another rating of the same item) is c too. With equal
            numbers of ratings per item this is Fleiss' (1971) P_j, "the
            conditional probability that a second rating is c given that a
            first is". NaN for an unused category.
        expected
            e_cc / n_c = (n_c - 1) / (n - 1): the same if values were
            paired at random.
        kappa
            Fleiss' (1971) kappa for category c alone, (P_j - p_j) /
            (1 - p_j): Fleiss' kappa of the table recoded to "c" against
            "anything else" (computed that way, with
            :func:`~iaa_teach.fleiss_kappa`, pooled chance; the R package
            irr's ``kappam.fleiss(detail=TRUE)`` gives the same on complete
            tables).
        alpha
            Krippendorff's alpha of the same recoded table (nominal): the
            category-wise alpha. This recoding is the report's own
            definition, the same one kappa uses; on a complete table
            1 - alpha = (1 - kappa) (n - 1) / n, as for the whole table.
        reason
            Why kappa and alpha are undefined, if they are (a category no
            one used, or that every pairable value is in).
        """
        return self._category_table

    # ---------------------------------------------- one row, worked out
    def alpha_without_rater(self, rater: Any) -> AlphaResult:
        """Krippendorff's alpha recomputed from scratch on the table without ``rater``'s column.

        The definition of ``alpha_without`` for one rater, with every
        intermediate (``n``, ``D_o``, ``D_e``), for showing the working: the
        ranking gets the same values from the table's counts without
        recomputing. ``rater`` is a name or a column index.

        Raises
        ------
        AgreementError
            If no item would keep 2 or more ratings.

        Examples
        --------
        >>> from iaa_teach import datasets
        >>> report = diagnose(datasets.sentiment())
        >>> report.alpha_without_rater("B").exact.alpha == report.exact.alpha_without[1]
        True
        """
        r = self.ratings
        j = r.rater_index(rater)
        return krippendorff_alpha(
            r.subset(raters=[name for x, name in enumerate(r.raters) if x != j]), self.level
        )

    def item_disagreement_exact(self, item: Any) -> Fraction | None:
        """The disagreement of one item (by its id), as an exact fraction; None below 2 ratings.

        >>> from iaa_teach import datasets
        >>> print(diagnose(datasets.sentiment()).item_disagreement_exact(10))  # G, G, P: 4 of 6 pairs disagree
        2/3
        """
        r = self.ratings
        items = list(r.items)
        if item not in items:
            raise AgreementError(f"there is no item {item!r} in the table")
        patterns = r.count_patterns()
        row = patterns.counts[patterns.item_pattern[items.index(item)]][None]
        return _item_disagreement(row, self.alpha, exact=True)[0]

    def pair_exact(self, first: Any, second: Any) -> Exact:
        """Observed and expected coincidences of two different categories and their ratio, as fractions.

        ``observed`` = o_ck, ``expected`` = e_ck = n_c n_k / (n - 1),
        ``ratio`` = o_ck / e_ck (None where e_ck = 0).

        >>> from iaa_teach import datasets
        >>> pair = diagnose(datasets.sentiment()).pair_exact("N", "P")
        >>> print(pair.observed, pair.expected, pair.ratio)
        3 150/29 29/50
        """
        cats = list(self.ratings.categories)
        for name, value in (("first", first), ("second", second)):
            if value not in cats:
                raise AgreementError(f"{name} must be one of the categories {cats}, got {value!r}")
        c, k = cats.index(first), cats.index(second)
        if c == k:
            raise AgreementError(f"pair_exact needs two different categories, got {first!r} twice")
        expected, observed = self._exact_expected[c, k], self.alpha.exact.coincidences[c][k]
        return Exact(
            observed=observed, expected=expected, ratio=None if expected == 0 else observed / expected
        )

    def __repr__(self) -> str:
        r = self.ratings
        return (
            f"Diagnosis({r.n_items} items x {r.n_raters} raters, {r.n_categories} categories, "
            f"alpha = {fmt(self.alpha)} ({self.level}))"
        )


def check_diagnosis(function: str, report: Any) -> Diagnosis:
    """``report`` if it is a :class:`Diagnosis`; otherwise an :class:`AgreementError` naming ``function``.

    >>> check_diagnosis("draw", "report.html")
    Traceback (most recent call last):
    ...
    iaa_teach._validation.AgreementError: draw takes the Diagnosis of iaa_teach.diagnose(), got str
    """
    return check_type(function, report, Diagnosis, "the Diagnosis of iaa_teach.diagnose()")


@options(level=LEVELS)
def diagnose(ratings: Any, level: str = "nominal") -> Diagnosis:
    """Which raters, items and categories a table's disagreement comes from.

    Parameters
    ----------
    ratings : Ratings or table, shape (n_items, n_raters)
        Missing cells allowed (``None``, NaN, ``""``).
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement for alpha, its leave-one-out values and the
        items' disagreement.

    Returns
    -------
    Diagnosis
        With :meth:`~Diagnosis.rater_ranking`, :meth:`~Diagnosis.item_ranking`,
        :meth:`~Diagnosis.confused_pairs` and
        :meth:`~Diagnosis.category_agreement`.

    Raises
    ------
    AgreementError
        A table alpha cannot be computed for (no item with 2 ratings,
        non-numeric categories at the interval or ratio level).

    Examples
    --------
    The worked example: A and C disagree on one sentence of ten, so
    without B alpha rises from 159/275 = 0.578 to 1 - (1/10) / (127/190) =
    108/127 = 0.850.

    >>> from iaa_teach import datasets
    >>> from iaa_teach.rounding import fmt
    >>> report = diagnose(datasets.sentiment())
    >>> first = report.rater_ranking()[0]
    >>> print(first["rater"], fmt(first["alpha_without"]), fmt(first["rise"]), report.exact.alpha_without[1])
    B 0.850 0.272 108/127
    """
    r = as_ratings(ratings)
    return Diagnosis(ratings=r, level=level, alpha=krippendorff_alpha(r, level))


# ====================================================================== gold
class GoldComparison(NamedTuple):
    """:func:`compare_with_gold`: each annotator against a gold (adjudicated) label.

    ``table``: one row per annotator, least accurate first, with ``annotator``,
    ``items`` (labelled by both), ``correct``, ``accuracy``, ``kappa``
    (Cohen's, annotator against gold), ``se``, ``low``, ``high`` and
    ``reason``; ``confusion``: annotator name -> (k, k) counts, rows the
    gold label, columns the annotator's; ``gold``: the gold column's name;
    ``annotators``: the table without it (the one to diagnose); ``whole``:
    the table as given (with how it was read from its file).
    """

    gold: Any
    table: ReportTable
    confusion: Mapping
    categories: tuple
    annotators: Ratings
    whole: Ratings


def compare_with_gold(ratings: Any, gold: Any) -> GoldComparison:
    """Each annotator's accuracy and Cohen's kappa against the gold column ``gold`` (a rater name).

    The gold column is taken out of the table; every other column is
    compared with it on the items both labelled. Accuracy is the share of
    those items with the gold label; kappa is :func:`~iaa_teach.cohen_kappa`
    (gold as rater a, the annotator as b), with its standard error and 95 %
    interval. Ranked least accurate first, then lowest kappa.

    Examples
    --------
    >>> from iaa_teach import datasets
    >>> out = compare_with_gold(datasets.sentiment(), "A")
    >>> [(row["annotator"], row["correct"], row["items"]) for row in out.table]
    [('B', 7, 10), ('C', 9, 10)]
    """
    from .metrics import cohen_kappa

    r = as_ratings(ratings)
    if gold not in r.raters:
        raise AgreementError(f"gold: there is no column {gold!r}; the raters are {list(r.raters)}")
    if r.n_raters < 2:
        raise AgreementError("gold: the table needs the gold column and at least one annotator")
    names = [name for name in r.raters if name != gold]
    results = [cohen_kappa(r, gold, name) for name in names]
    tables = r.pair_tables([(gold, name) for name in names])
    items, correct = tables.sum(axis=(1, 2)), np.trace(tables, axis1=1, axis2=2)
    accuracy, kappa = F.divide(correct, items), np.array([float(res) for res in results])
    order = _order(-accuracy, -kappa)  # least accurate first, then lowest kappa; NaN last
    low, high = np.array([res.ci() for res in results], dtype=float).T
    data = {
        "annotator": _column(names),
        "items": items,
        "correct": correct,
        "accuracy": accuracy,
        "kappa": kappa,
        "se": np.array([res.se for res in results]),
        "low": low,
        "high": high,
        "reason": _column(None if res.defined else res.reason for res in results),
    }
    return GoldComparison(
        gold,
        ReportTable({c: values[order] for c, values in data.items()}),
        MappingProxyType({names[i]: tables[i] for i in order}),
        tuple(r.categories),
        r.subset(raters=names),
        r,
    )
