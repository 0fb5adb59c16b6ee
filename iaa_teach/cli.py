"""Command line: ``iaa-teach report FILE.csv`` prints every coefficient for a class's own data.

Wide CSV: a header of rater names (optionally an ``item`` column first), one
row per item, empty cells for missing ratings. Long CSV (``--format long``):
``item, rater, label`` rows. Every number is rounded half up from its exact
value (:func:`iaa_teach.fmt`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

from .metrics import LEVELS, WEIGHTS, fleiss_kappa, interpret, krippendorff_alpha, pairwise_cohen
from .ratings import AgreementError, Ratings
from .rounding import fmt

__all__ = ["main", "report"]


def _line(name: str, value: float, exact: Any, details: str, reason: str | None) -> str:
    """One coefficient: its name, its value (from ``exact``), its band, its working."""
    text = f"  {name:<32} {fmt(exact):>9}  ({interpret(value)})  {details}".rstrip()
    if reason:
        text += f"\n  {'':<32} why undefined: {reason}"
    return text


def report(ratings: Ratings, level: str = "nominal", weights: str | None = None) -> str:
    """The text that ``iaa-teach report`` prints for ``ratings``.

    >>> from iaa_teach import datasets
    >>> print(report(datasets.sentiment()).splitlines()[0])
    10 items x 3 raters (A, B, C); categories G, N, P; 30 ratings, 0 missing
    """
    n_missing = ratings.n_items * ratings.n_raters - ratings.n_ratings
    out = [
        f"{ratings.n_items} items x {ratings.n_raters} raters ({', '.join(map(str, ratings.raters))}); "
        f"categories {', '.join(map(str, ratings.categories))}; {ratings.n_ratings} ratings, {n_missing} missing",
        "",
        "Cohen's kappa, every pair of raters" + ("" if weights is None else f" ({weights} weights)")
        + ": P_o observed, P_e chance agreement",
    ]
    try:
        pairs = pairwise_cohen(ratings, weights=weights)
    except AgreementError as err:  # some pair never rated the same item
        out.append(f"  not computed: {err}")
    else:
        for res in pairs:
            ex = res.exact
            out.append(_line(f"{res.rater_a} vs {res.rater_b}", res.kappa, ex.kappa,
                             f"P_o = {fmt(ex.p_o)}, P_e = {fmt(ex.p_e)}, items = {res.n_items}", res.reason))
        undefined = [f"{res.rater_a} vs {res.rater_b}" for res in pairs if not res.defined]
        out.append(_line("mean over pairs (Light)", pairs.mean_kappa, pairs.exact.mean_kappa, "",
                         f"kappa is undefined for {', '.join(undefined)}" if undefined else None))
    out += ["", "Fleiss' kappa, per-item number of raters: P_a observed, P_e chance agreement"]
    for chance, label in (("pooled", "pooled proportions"), ("item_mean", "mean item proportions")):
        res = fleiss_kappa(ratings, chance=chance)
        ex = res.exact
        out.append(_line(f"chance = {label}", res.kappa, ex.kappa,
                         f"P_a = {fmt(ex.p_a)}, P_e = {fmt(ex.p_e)}, items used = {res.n_items_used}, "
                         f"ratings = {res.n_ratings}", res.reason))
    res = krippendorff_alpha(ratings, level=level)
    ex = res.exact
    out += ["", f"Krippendorff's alpha ({level}): D_o observed, D_e expected disagreement",
            _line("alpha", res.alpha, ex.alpha, f"D_o = {fmt(ex.d_o)}, D_e = {fmt(ex.d_e)}, pairable values n = {res.n}",
                  res.reason)]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iaa-teach", description="Inter-annotator agreement for your own data.")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="print every coefficient with its key intermediate values")
    rep.add_argument("file", help="CSV file of ratings")
    rep.add_argument("--format", choices=["wide", "long"], default="wide",
                     help="wide: one row per item, one column per rater; long: item,rater,label rows")
    rep.add_argument("--level", choices=LEVELS, default="nominal", help="level of measurement for alpha")
    rep.add_argument("--weights", choices=[w for w in WEIGHTS if w], default=None,
                     help="disagreement weights for Cohen's kappa (over the category order)")
    rep.add_argument("--categories", default=None,
                     help="comma-separated category order, e.g. 'low,mid,high' (default: sorted)")
    rep.add_argument("--html", metavar="OUT.html", help="also write the diagnostic report as one self-contained HTML page")
    rep.add_argument("--json", metavar="OUT.json", help="also write the diagnostic report's numbers as JSON")
    args = parser.parse_args(argv)
    categories = None
    try:
        if args.categories:
            categories = [c.strip() for c in args.categories.split(",")]
            if all(c.lstrip("-").isdigit() for c in categories):
                categories = [int(c) for c in categories]
        ratings = Ratings.from_csv(args.file, format=args.format, categories=categories)
        print(report(ratings, level=args.level, weights=args.weights))
        if args.html or args.json:  # the diagnostic report (iaa_teach.report_files), after the text
            from . import report_files
            report_files.write_files(ratings, args.level, html_path=args.html, json_path=args.json, source=args.file)
    except (AgreementError, OSError) as err:
        print(f"iaa-teach: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
