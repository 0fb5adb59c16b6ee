"""Speed of the diagnostic report on a large table, part by part, and leave-one-out as a ratio.

100,000 items x 10 raters (1,000,000 cells), 5 categories, 20 % of ratings
missing (seeded). Each part of ``diagnose`` is timed on a fresh report (the
parts are computed on first use and kept), on a fresh ``Ratings`` (whose
counts are also kept), so every figure includes the counting it needs:

- ``diagnose()``: Krippendorff's alpha of the whole table;
- ``rater_ranking()``: leave-one-out alpha of every rater, Cohen's kappa of
  every pair, each rater's label shares against the others';
- ``item_ranking()``, ``confused_pairs()``, ``category_agreement()``;
- ``exact``: the leave-one-out alphas as fractions;
- the whole report as people get it: the four tables, the four figures and
  the self-contained HTML page (``iaa_teach.report.to_html``: figures drawn and
  embedded as PNG, the worked steps of ``explain``), and the JSON of every
  row (``iaa_teach.report.to_json``). These two are the median of 3 runs.

Leave-one-out changes alpha's integer sums by each rater's own
contribution (see ``iaa_teach.diagnosis``); the naive way calls
``krippendorff_alpha(ratings.subset(raters=others))`` once per rater. The
ratio of the two is printed; the bar is the whole report in a few seconds.

Each timing is the median of 9 runs after a warm-up run.
Run: ``python benchmarks/bench_diagnose.py`` (or ``make bench``).
"""

from __future__ import annotations

import time

import numpy as np

import iaa_teach as it
from iaa_teach.diagnosis import _leave_one_out_sums
from iaa_teach.report import to_html, to_json

N_ITEMS, N_RATERS, N_CATS, MISSING = 100_000, 10, 5, 0.20
REPEAT = 9


def median_ms(fn, setup, repeat: int = REPEAT) -> float:
    """Median of ``repeat`` runs of ``fn(setup())`` after one warm-up run, in milliseconds (setup not timed)."""
    times = []
    for i in range(repeat + 1):
        arg = setup()
        t0 = time.perf_counter()
        fn(arg)
        if i:
            times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def main() -> None:
    table = it.datasets.simulate(
        N_ITEMS, N_RATERS, accuracy=0.7, n_categories=N_CATS, seed=1, missing=MISSING
    )
    codes, cats, raters = table.codes, table.categories, table.raters

    def fresh() -> it.Ratings:  # a new table: nothing counted yet
        return it.Ratings.from_codes(codes, categories=cats, raters=raters)

    def fresh_report() -> it.Diagnosis:
        return it.diagnose(fresh())

    print(
        f"{N_ITEMS:,} items x {N_RATERS} raters, {N_CATS} categories, {MISSING:.0%} missing "
        f"({table.n_ratings:,} ratings)"
    )
    parts = {
        "diagnose() (alpha)": (it.diagnose, fresh),
        "rater_ranking()": (lambda d: d.rater_ranking(), fresh_report),
        "item_ranking()": (lambda d: d.item_ranking(), fresh_report),
        "confused_pairs()": (lambda d: d.confused_pairs(), fresh_report),
        "category_agreement()": (lambda d: d.category_agreement(), fresh_report),
        "exact (leave-one-out as fractions)": (lambda d: d.exact, fresh_report),
    }
    total = 0.0
    for name, (fn, setup) in parts.items():
        ms = median_ms(fn, setup)
        total += ms
        print(f"  {name:<36} {ms:8.1f} ms")
    whole = median_ms(
        lambda d: (d.rater_ranking(), d.item_ranking(), d.confused_pairs(), d.category_agreement()),
        fresh_report,
    )
    print(f"  {'the four tables on one report':<36} {whole:8.1f} ms   (parts above: {total:.1f} ms)")

    # the whole report from a fresh table: tables + figures + HTML page, and the JSON
    pages = []

    def html_page(d: it.Diagnosis) -> None:
        pages.append(len(to_html(d, source="bench.csv")))

    page_ms = median_ms(html_page, fresh_report, repeat=3)
    json_ms = median_ms(to_json, fresh_report, repeat=3)
    print(
        f"  {'whole report: tables+figures+HTML':<36} {page_ms:8.1f} ms   (the page: {pages[-1] / 1e6:.1f} MB)"
    )
    print(f"  {'JSON of every row (to_json)':<36} {json_ms:8.1f} ms")

    # leave-one-out: the counts changed by each rater's part, against recomputing each table.
    # Both start from a table whose own counts are done (diagnose() has counted it).
    additive = median_ms(lambda d: d.alpha_without, fresh_report)
    sums = median_ms(_leave_one_out_sums, lambda: fresh_report().ratings)

    def naive(r: it.Ratings) -> list[float]:
        return [
            it.krippendorff_alpha(r.subset(raters=[x for x in range(r.n_raters) if x != j])).alpha
            for j in range(r.n_raters)
        ]

    plain = median_ms(naive, lambda: fresh_report().ratings)
    report = fresh_report()
    gap = np.max(np.abs(report.alpha_without - np.array(naive(report.ratings))))
    print(f"leave-one-out alpha of all {N_RATERS} raters:")
    print(
        f"  additive counts                      {additive:8.1f} ms   (the integer sums alone: {sums:.1f} ms)"
    )
    print(f"  naive (krippendorff_alpha x {N_RATERS})      {plain:8.1f} ms")
    print(
        f"  naive / additive                     {plain / additive:8.1f} x   (largest difference {gap:.1e})"
    )


if __name__ == "__main__":
    main()
