"""Command line: ``iaa-teach report FILE`` prints every coefficient for a class's own data.

Files: CSV or TSV (separator sniffed, or ``--sep``), UTF-8 (or ``--encoding``),
or the first sheet of an ``.xlsx`` workbook. Wide (default): a header of rater
names (optionally an ``item`` column first), one row per item, empty cells (or
``NA``, ``N/A``, ``NaN``, ``nan``, ``None``, ``null``) for missing ratings.
Long (``--format long``): ``item, rater, label`` rows. Every number is
rounded half up from its exact value (:func:`iaa_teach.fmt`).

Errors (a file that cannot be read, a label outside ``--categories``, a limit
exceeded...) print one line, ``iaa-teach: error: ...``, naming the file, line
and column where there is one, and exit with code 2; never a traceback. Text
from the file (rater names, labels) is printed with its control characters
escaped, so a file cannot move the cursor or colour the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any, Callable, Sequence

from .markup import terminal_escape
from .metrics import (
    INTERVAL_METHODS,
    LEVELS,
    WEIGHTS,
    family_intervals,
    fleiss_kappa,
    interpret,
    krippendorff_alpha,
    pairwise_cohen,
)
from .ratings import AgreementError, Ratings
from .reading import parse_categories
from .rounding import fmt, format_number
from .validation import LIMITS, MAX_PAIRS, check_bool, check_int, check_option, check_type
from .words import kappa_label

__all__ = ["main", "report", "LIST_PAIRS", "N_BOOT", "SEED"]

#: Up to this many rater pairs the report lists each; beyond, a summary (``--all-pairs`` lists them all).
LIST_PAIRS = 15
_SHOW_NAMES = 12  # rater names and categories listed in the first line
#: Bootstrap replicates and seed of ``--ci bootstrap`` (``--n-boot``, ``--seed``): the same file, the same interval.
N_BOOT = 1000
SEED = 0


def _line(name: str, result: Any, exact: Any, details: str, reason: str | None) -> list[str]:
    """One coefficient: its name, its value (from ``exact``), its band, its working (and why undefined)."""
    band = interpret(result) if exact is None else interpret(max(float(exact), -1.0))  # exact: 3/5 is moderate
    lines = [f"  {name:<32} {fmt(exact):>9}  ({band})  {details}".rstrip()]
    if reason:
        lines.append(f"  {'':<32} why undefined: {reason}")
    return lines


def _listed(values: Sequence[Any]) -> str:
    shown = ", ".join(map(str, values[:_SHOW_NAMES]))
    return shown + (f", ... ({len(values)} in all)" if len(values) > _SHOW_NAMES else "")


def _pair(res: Any) -> str:
    return f"{res.rater_a} vs {res.rater_b}"


def _cohen_lines(res: Any, name: str | None = None) -> list[str]:
    ex = res.exact
    return _line(name or _pair(res), res, ex.kappa, f"P_o = {fmt(ex.p_o)}, P_e = {fmt(ex.p_e)}, items = {res.n_items}",
                 res.reason)


def _family_lines(rows: Sequence[Any], seed: int) -> list[str]:
    """The family section: each coefficient, its P_a and P_e, its standard error and interval (or why not)."""
    first = rows[0]
    share = format_number(first.confidence, ".0%")
    if first.method == "analytic":
        how = "analytic: Gwet's variances, t with n - 1 degrees of freedom; Cohen's kappa: Fleiss, Cohen and Everitt"
    else:
        how = f"bootstrap: {first.bootstrap.n_boot} resamples of the items, seed {seed}, percentile interval"
    weights = getattr(first.result, "weights", None)
    weighted = "" if weights is None else f", {weights} weights"
    out = ["", f"The chance-corrected family, (P_a - P_e) / (1 - P_e){weighted}: SE and {share} interval ({how})"]
    for row in rows:
        res = row.result
        ex = res.exact
        if hasattr(res, "p_e"):
            parts = [f"P_a = {fmt(ex.p_a)}" if hasattr(ex, "p_a") else f"P_o = {fmt(ex.p_o)}", f"P_e = {fmt(ex.p_e)}"]
        else:  # Krippendorff's alpha: 1 - D_o / D_e
            parts = [f"1 - D_o = {fmt(None if ex.d_o is None else 1 - ex.d_o)}",
                     f"1 - D_e = {fmt(None if ex.d_e is None else 1 - ex.d_e)}"]
        if res.defined:
            parts.append(f"SE = {fmt(row.se)}, {share} CI [{fmt(row.low)}, {fmt(row.high)}]")
            if row.bootstrap is not None and row.bootstrap.n_undefined:
                parts.append(f"{row.bootstrap.n_undefined} undefined replicates left out")
        reason = res.reason if not res.defined else (None if row.reason is None else f"SE: {row.reason}")
        out += _line(row.name, res, res.exact_value, ", ".join(parts), reason)
    return out


def report(ratings: Ratings, level: str = "nominal", weights: str | None = None, all_pairs: bool = False,
           max_pairs: int | None = MAX_PAIRS, ci: str = "analytic", n_boot: int = N_BOOT, seed: int = SEED,
           family: Sequence[Any] | None = None) -> str:
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
    ``seed``). ``family``: those rows, if already computed.

    >>> from iaa_teach import datasets
    >>> print(report(datasets.sentiment()).splitlines()[0])
    10 items x 3 raters (A, B, C); categories G, N, P; 30 ratings, 0 missing
    """
    check_type("report", ratings, Ratings, "a Ratings table")
    check_bool("all_pairs", all_pairs)
    check_option("ci", ci, INTERVAL_METHODS)
    n_boot = check_int("n_boot", n_boot, 1)
    seed = check_int("seed", seed, 0)
    alpha = krippendorff_alpha(ratings, level=level)  # first: a level that needs declared categories fails here
    n_missing = ratings.n_items * ratings.n_raters - ratings.n_ratings
    out = [
        f"{ratings.n_items} items x {ratings.n_raters} raters ({_listed(ratings.raters)}); "
        f"categories {_listed(ratings.categories)}; {ratings.n_ratings} ratings, {n_missing} missing",
        "",
        kappa_label(weights, "Cohen's kappa, every pair of raters") + ": P_o observed, P_e chance agreement",
    ]
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
            out.append(f"  {len(results)} pairs of {ratings.n_raters} raters: the lowest and the highest "
                       f"(every pair with --all-pairs)")
            if defined:
                low = min(defined, key=lambda res: res.exact.kappa)
                high = max(defined, key=lambda res: res.exact.kappa)
                out += _cohen_lines(low, f"lowest: {_pair(low)}")
                out += _cohen_lines(high, f"highest: {_pair(high)}")
                out.append(f"  {'spread (highest - lowest)':<32} {fmt(high.exact.kappa - low.exact.kappa):>9}")
            if undefined:
                out.append(f"  {'undefined':<32} {len(undefined)} pair(s): {_listed(undefined)}")
        out += _line("mean over pairs (Light)", pairs, pairs.exact.mean_kappa, "", mean_reason)
    out += ["", "Fleiss' kappa, per-item number of raters: P_a observed, P_e chance agreement"]
    for chance, label in (("pooled", "pooled proportions"), ("item_mean", "mean item proportions")):
        res = fleiss_kappa(ratings, chance=chance)
        ex = res.exact
        out += _line(f"chance = {label}", res, ex.kappa,
                     f"P_a = {fmt(ex.p_a)}, P_e = {fmt(ex.p_e)}, items used = {res.n_items_used}, "
                     f"ratings = {res.n_ratings}", res.reason)
    ex = alpha.exact
    out += ["", f"Krippendorff's alpha ({level}): D_o observed, D_e expected disagreement"]
    out += _line("alpha", alpha, ex.alpha, f"D_o = {fmt(ex.d_o)}, D_e = {fmt(ex.d_e)}, pairable values n = {alpha.n}",
                 alpha.reason)
    if family is None:
        family = family_intervals(ratings, weights=weights, level=level, method=ci, n_boot=n_boot, seed=seed)
    out += _family_lines(family, seed)
    return "\n".join(terminal_escape(line) for line in out)


# ================================================================ parsing
class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line ``iaa-teach: error: ...`` and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _whole(lowest: int, bound: str, grouped: bool = False) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``lowest`` (``bound`` in words); ``grouped``: 1,000 too."""
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", "").replace(",", "") if grouped else text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value
    return parse


_limit = _whole(1, "at least 1", grouped=True)
_seed = _whole(0, "0 or more")
_SEPARATORS = {"\\t": "\t", "tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}


def _parser() -> _Parser:
    parser = _Parser(prog="iaa-teach", description="Inter-annotator agreement for your own data.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    rep = sub.add_parser("report", help="print every coefficient with its key intermediate values")
    rep.add_argument("file", help="ratings file: CSV/TSV (UTF-8) or .xlsx")
    rep.add_argument("--format", choices=["wide", "long"], default="wide",
                     help="wide: one row per item, one column per rater; long: item,rater,label rows")
    rep.add_argument("--sep", type=lambda text: _SEPARATORS.get(text.lower(), text), default=None,
                     help="separator: ',', ';', tab (written \\t or tab)...; default: sniffed from the header")
    rep.add_argument("--encoding", default="utf-8",
                     help="the file's encoding if it is not UTF-8, e.g. cp1252, latin-1, utf-16")
    rep.add_argument("--level", choices=LEVELS, default="nominal", help="level of measurement for alpha")
    rep.add_argument("--weights", choices=[w for w in WEIGHTS if w], default=None,
                     help="disagreement weights for Cohen's kappa (over the declared category order)")
    rep.add_argument("--categories", default=None,
                     help="comma-separated categories in their order, e.g. 'low,mid,high' (needed for "
                          "--weights and --level ordinal with text labels)")
    rep.add_argument("--html", metavar="OUT.html", help="also write the diagnostic report as one self-contained HTML page")
    rep.add_argument("--json", metavar="OUT.json", help="also write the diagnostic report's numbers as JSON")
    rep.add_argument("--ci", choices=INTERVAL_METHODS, default="analytic",
                     help="how the family's standard errors and 95%% intervals are computed: analytic (Gwet's "
                          "variances; default) or bootstrap (resampling the items)")
    rep.add_argument("--n-boot", type=_limit, default=N_BOOT,
                     help=f"bootstrap replicates for --ci bootstrap (default {N_BOOT})")
    rep.add_argument("--seed", type=_seed, default=SEED,
                     help=f"random seed for --ci bootstrap (default {SEED}): the same seed, the same interval")
    rep.add_argument("--all-pairs", action="store_true",
                     help=f"list Cohen's kappa for every pair of raters (default: up to {LIST_PAIRS} pairs, "
                          f"a summary beyond)")
    for what, (default, keyword, option) in LIMITS.items():
        if option:
            rep.add_argument(option, dest=keyword, type=_limit, default=default,
                             help=f"limit on the {what} (default {default:,})")
    return parser


def _error(message: Any) -> int:
    print(f"iaa-teach: error: {terminal_escape(message)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 done, 2 bad input, 1 an internal error)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):  # a stream that cannot, or refuses
            stream.reconfigure(errors="backslashreplace")  # a label the terminal cannot show
    try:
        args = _parser().parse_args(argv)
    except _UsageError as err:
        return _error(f"{err} (see iaa-teach report --help)")
    try:
        categories = None if args.categories is None else parse_categories(args.categories)
        ratings = Ratings.from_csv(args.file, format=args.format, categories=categories, sep=args.sep,
                                   encoding=args.encoding, max_bytes=args.max_bytes, max_field=args.max_field,
                                   max_categories=args.max_categories)
        family = family_intervals(ratings, weights=args.weights, level=args.level, method=args.ci,
                                  n_boot=args.n_boot, seed=args.seed)
        text = report(ratings, level=args.level, weights=args.weights, all_pairs=args.all_pairs,
                      max_pairs=args.max_pairs, ci=args.ci, n_boot=args.n_boot, seed=args.seed, family=family)
        if args.html or args.json:  # the diagnostic report (iaa_teach.report_files), beside the text
            from . import report_files
            report_files.write_files(ratings, args.level, html_path=args.html, json_path=args.json, source=args.file,
                                     family=family)
    except AgreementError as err:
        return _error(err)
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug: still one line, and a distinct exit code
        print(f"iaa-teach: internal error: {terminal_escape(type(err).__name__)}: {terminal_escape(err)} "
              f"(please report it)", file=sys.stderr)
        return 1
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `iaa-teach report big.csv | head`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
