"""Command line: ``iaa-teach report FILE`` prints every coefficient for a class's own data;
``iaa-teach lessons DIR`` writes the lessons (``--student``: their student copies) into a folder.

Files: CSV or TSV (separator sniffed, or ``--sep``), UTF-8 (or ``--encoding``), or the
first sheet of an ``.xlsx`` workbook. Wide: a header of rater names (and a first column
of item IDs when it has no name or an ID's name), one row per item. Long: one rating per
row, in an item, a rater and a label column (recognised by a header such as
``item,rater,label``, or ``--format long``). Empty cells and pandas' missing markers
(``NA``, ``N/A``, ``n/a``, ``#N/A``, ``NULL``, ``null``, ``NaN``, ``None``...) are
missing ratings. The report's first line says how the file was read, then every guess
made (a note) and whatever looks wrong (a warning), each naming the option that says
otherwise: ``--item-column``/``--no-item-column``, ``--rater-column``,
``--label-column``, ``--raters-as-rows`` (a form's export), ``--drop-column``,
``--skip-rows``, ``--keep-label``, ``--fold-case``; ``--anonymise`` names the raters
R1..Rn. Every number is rounded half up from its exact value (:func:`iaa_teach.fmt`).
``--json -`` writes the JSON to standard output (and the text report to standard error).

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
import warnings
from typing import Any, Callable, Sequence

from ._formulas import WEIGHTS
from ._markup import terminal_escape
from ._reading import parse_categories
from ._report import LIST_PAIRS, N_BOOT, SEED, text_report, to_json, write_files
from ._validation import LIMITS
from .diagnosis import compare_with_gold
from .lesson_copies import write_lessons
from .metrics import INTERVAL_METHODS, LEVELS, family_intervals
from .ratings import AgreementError, Ratings

__all__ = ["main"]


# ================================================================ parsing
class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line ``iaa-teach: error: ...`` and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _whole(lowest: int, bound: str, grouped: bool = False) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``lowest`` (``bound`` in words).

    ``grouped``: written with separators too (1,000 or 1_000).
    """

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
    rep.add_argument(
        "file", help="ratings file: CSV/TSV (UTF-8), .xlsx, Label Studio .json or Prodigy .jsonl"
    )
    rep.add_argument(
        "--format",
        choices=["wide", "long"],
        default=None,
        help="wide: one row per item, one column per rater; long: one rating per row (item, rater, "
        "label); default: long if the header is item,rater,label (or like it), else wide",
    )
    what = rep.add_argument_group("what the file is (where the guesses would be wrong)")
    items = what.add_mutually_exclusive_group()
    items.add_argument(
        "--item-column",
        metavar="NAME",
        dest="item",
        default=None,
        help="the column of item IDs (default: the first column, if it has no name or an ID's name: "
        "item, id, unit, subject, patient, case, doc, text, #, index...)",
    )
    items.add_argument(
        "--no-item-column",
        dest="item",
        action="store_false",
        help="no column holds item IDs: every column is a rater, items are numbered 1..n",
    )
    what.add_argument(
        "--rater-column",
        metavar="NAME",
        help="a long file's rater column (or, with "
        "--raters-as-rows, the column that names the raters, such as the e-mail)",
    )
    what.add_argument("--label-column", metavar="NAME", help="a long file's label column")
    what.add_argument(
        "--raters-as-rows",
        action="store_true",
        help="one row per rater, one column per item (a form's export: one row per respondent); "
        "timestamp columns are left out",
    )
    what.add_argument(
        "--drop-column", metavar="NAME", action="append", default=[], help="leave a column out (repeatable)"
    )
    what.add_argument(
        "--skip-rows", metavar="N", type=_seed, default=0, help="lines (sheet rows) above the header to skip"
    )
    what.add_argument(
        "--keep-label",
        metavar="VALUE",
        action="append",
        default=[],
        help="read a missing marker (NA, N/A, None, null...) as a label (repeatable)",
    )
    what.add_argument(
        "--fold-case",
        action="store_true",
        help="merge labels that differ only in letter case (Yes, yes, YES)",
    )
    what.add_argument(
        "--anonymise",
        "--anonymize",
        action="store_true",
        help="name the raters R1..Rn everywhere (text, HTML, JSON, figures): for a report shown in class",
    )
    rep.add_argument(
        "--sep",
        type=lambda text: _SEPARATORS.get(text.lower(), text),
        default=None,
        help="separator: ',', ';', tab (written \\t or tab)...; default: sniffed from the header",
    )
    rep.add_argument(
        "--encoding",
        default="utf-8",
        help="the file's encoding if it is not UTF-8, e.g. cp1252, latin-1, utf-16",
    )
    rep.add_argument("--level", choices=LEVELS, default="nominal", help="level of measurement for alpha")
    rep.add_argument(
        "--weights",
        choices=[w for w in WEIGHTS if w],
        default=None,
        help="weighted Cohen's kappa with agreement weights w_jk (lesson 03): 1 for the same category, "
        "less for categories further apart in the declared order, linearly or quadratically",
    )
    rep.add_argument(
        "--categories",
        default=None,
        help="comma-separated categories in their order, e.g. 'low,mid,high' (needed for "
        "--weights and --level ordinal with text labels)",
    )
    rep.add_argument(
        "--html", metavar="OUT.html", help="also write the diagnostic report as one self-contained HTML page"
    )
    rep.add_argument(
        "--json",
        metavar="OUT.json",
        help="also write the diagnostic report's numbers as JSON ('-': to standard output, and the text "
        "report to standard error)",
    )
    rep.add_argument(
        "--items-csv",
        metavar="OUT.csv",
        help="also write the items to adjudicate (ratings that disagree) as CSV, most disputed first",
    )
    rep.add_argument(
        "--gold",
        metavar="COLUMN",
        help="the column of gold (adjudicated) labels: left out of the agreement, and each other "
        "column compared with it (accuracy, Cohen's kappa)",
    )
    rep.add_argument(
        "--ci",
        choices=INTERVAL_METHODS,
        default="analytic",
        help="how the family's standard errors and 95%% intervals are computed: analytic (Gwet's "
        "variances; default) or bootstrap (resampling the items)",
    )
    rep.add_argument(
        "--n-boot",
        type=_limit,
        default=N_BOOT,
        help=f"bootstrap replicates for --ci bootstrap (default {N_BOOT})",
    )
    rep.add_argument(
        "--seed",
        type=_seed,
        default=SEED,
        help=f"random seed for --ci bootstrap (default {SEED}): the same seed, the same interval",
    )
    rep.add_argument(
        "--all-pairs",
        action="store_true",
        help=f"list Cohen's kappa for every pair of raters (default: up to {LIST_PAIRS} pairs, "
        f"a summary beyond)",
    )
    for what, (default, keyword, option) in LIMITS.items():
        if option:
            rep.add_argument(
                option,
                dest=keyword,
                type=_limit,
                default=default,
                help=f"limit on the {what} (default {default:,})",
            )
    les = sub.add_parser("lessons", help="write the course's lessons (notebooks) into a folder")
    les.add_argument("folder", help="where to write them (created if missing), e.g. iaa-lessons")
    les.add_argument(
        "--student",
        action="store_true",
        help="student copies: worked answers emptied, outputs cleared (run them yourself)",
    )
    les.add_argument(
        "--replace",
        action="store_true",
        help="replace lesson files already in the folder (your edits are lost)",
    )
    return parser


def _lessons(args: argparse.Namespace) -> int:
    """``iaa-teach lessons DIR``: write the lessons, say where, and how to open them."""
    written = write_lessons(args.folder, student=args.student, replace=args.replace)
    kind = "student copies of the lessons" if args.student else "lessons"
    print(f"wrote {len(written)} {kind} to {terminal_escape(args.folder)}")
    print(f"open them with: jupyter lab {terminal_escape(args.folder)} (start with {written[0].name})")
    return 0


def _analysed(ratings: Ratings, args: argparse.Namespace) -> tuple[Ratings, Any, Any, str]:
    """The ratings (without a ``--gold`` column), the gold comparison, the family and the text report."""
    gold = None
    if args.gold is not None:
        gold = compare_with_gold(ratings, args.gold)
        ratings = gold.annotators
    same = {"weights": args.weights, "level": args.level, "n_boot": args.n_boot, "seed": args.seed}
    family = family_intervals(ratings, method=args.ci, **same)
    text = text_report(
        ratings,
        all_pairs=args.all_pairs,
        max_pairs=args.max_pairs,
        ci=args.ci,
        family=family,
        gold=gold,
        **same,
    )
    return ratings, gold, family, text


def _error(message: Any) -> int:
    print(f"iaa-teach: error: {terminal_escape(message)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 done, 2 bad input, 1 an internal error)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):  # a stream that cannot, or refuses
            stream.reconfigure(errors="backslashreplace")  # a label the terminal cannot show
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parser().parse_args(argv)
    except _UsageError as err:
        command = next((a for a in argv if a in ("report", "lessons")), "report")
        return _error(f"{err} (see iaa-teach {command} --help)")
    try:
        if args.command == "lessons":
            return _lessons(args)
        categories = None if args.categories is None else parse_categories(args.categories)
        with warnings.catch_warnings():  # the report's first lines show them
            warnings.simplefilter("ignore", UserWarning)
            ratings = Ratings.from_file(
                args.file,
                format=args.format,
                categories=categories,
                item=args.item,
                rater=args.rater_column,
                label=args.label_column,
                raters_as_rows=args.raters_as_rows,
                drop=args.drop_column,
                skip_rows=args.skip_rows,
                keep_labels=args.keep_label,
                fold_case=args.fold_case,
                anonymise=args.anonymise,
                sep=args.sep,
                encoding=args.encoding,
                max_bytes=args.max_bytes,
                max_field=args.max_field,
                max_categories=args.max_categories,
            )
        try:  # an error of the metrics (interval labels that are not numbers...) names no file: say which
            ratings, gold, family, text = _analysed(ratings, args)
        except AgreementError as err:
            raise AgreementError(f"{args.file}: {err}") from None
        to_stdout = args.json == "-"
        if args.html or args.json or args.items_csv:  # the diagnostic report as files, beside the text
            report = write_files(
                ratings,
                args.level,
                html_path=args.html,
                json_path=None if to_stdout else args.json,
                source=args.file,
                family=family,
                gold=gold,
                items_csv=args.items_csv,
            )
            json_text = to_json(report, family=family, gold=gold) if to_stdout else None
    except AgreementError as err:
        return _error(err)
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug: still one line, and a distinct exit code
        print(
            f"iaa-teach: internal error: {terminal_escape(type(err).__name__)}: {terminal_escape(err)} "
            f"(please report it)",
            file=sys.stderr,
        )
        return 1
    try:
        if to_stdout:  # standard output holds the JSON only
            print(text, file=sys.stderr)
            print(json_text)
        else:
            print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `iaa-teach report big.csv | head`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
