"""How long one explorer update takes (recompute + redraw), driven headless.

Each scenario sets one control after another, as a user does in class, and
times the whole callback chain: trait change -> observers -> metrics ->
readout HTML -> figure PNG. Two data sizes: the 10 x 3 sentiment example
and a simulated 1,000 items x 10 raters (the interval explorer: its own
simulated study of 1,000 items x 3 raters). The budget: a median well under
100 ms on the example and the study, under 250 ms on the large table.

Two numbers per scenario:

- ``median``: as in use. An explorer keeps the PNGs of figures whose
  content did not change (e.g. the coverage chart when only the merge
  toggle moved, the Cohen weight matrix when only the alpha level moved),
  and redraws only the moving parts over a kept frame where it can (the
  bars of the table explorer's bands and of the missing-data explorer,
  the paradox and interval explorers' curves and markers).
- ``cold``: the figure cache emptied before every update, so every
  figure is drawn again (over its kept frame, where it has one): the
  worst case of a control moved to a value not seen before.

Timings are wall-clock (``time.perf_counter``) and CPU (``process_time``);
on a busy machine the wall time is the larger. Run: ``python benchmarks/bench_widgets.py``
(``--repeat N`` for more rounds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import numpy as np

from iaa_teach import datasets
from iaa_teach.widgets import (
    AnnotationsExplorer,
    CoverageExplorer,
    IntervalExplorer,
    MissingDataExplorer,
    ParadoxExplorer,
    TableExplorer,
    WeightsExplorer,
)

BUDGET_MS = {"10 x 3": 100.0, "1000 x 3": 100.0, "1000 x 10": 250.0}
ROUND = 16  # updates per scenario and phase


def _large():
    return datasets.simulate(1000, 10, accuracy=0.8, prevalence=0.5, n_categories=3, seed=0)


def _large_partial():
    """1000 x 10 where rater I labels items 301-1000 only and J labels every item."""
    big = _large()
    gone = np.zeros(big.shape, dtype=bool)
    gone[:300, 8] = True
    return big.with_missing(gone)


def _cells(ex: TableExplorer):
    """Edits that walk over the visible cells, moving each to the next category."""
    r = ex.initial
    k = r.n_categories
    rows = min(ex.page_size, r.n_items)

    def edit(t: int) -> None:
        i, j = divmod(t, r.n_raters)
        i %= rows
        current = ex.ratings.codes[i, j]
        ex.set_cell(r.items[i], r.raters[j], r.categories[(current + 1) % k if current >= 0 else 0])

    return edit


def _values(slider) -> list[int]:
    """Every value a slider offers, in order."""
    return list(range(slider.min, slider.max + 1, slider.step))


def _setter(control, values):
    def go(t: int) -> None:
        control.value = values[t % len(values)]

    return go


def scenarios():
    """(explorer name, data size, what moves, factory, step function maker)."""
    out = []
    for size, data in (("10 x 3", datasets.sentiment), ("1000 x 10", _large)):
        for figure in (
            "coefficients and bands",
            "per-item agreement P_i",
            "pairwise kappa",
            "coincidence matrix (alpha)",
        ):
            out.append(
                (
                    "TableExplorer",
                    size,
                    f"edit a cell; figure: {figure}",
                    lambda d=data, f=figure: _with(TableExplorer(d()), "figure", f),
                    _cells,
                )
            )
    for size, n_items, n_raters in (("10 x 3", 10, 3), ("1000 x 10", 1000, 10)):
        make = lambda n=n_items, m=n_raters: (  # noqa: E731
            ParadoxExplorer(n_items=n, n_raters=m, accuracy=0.85)
        )
        out.append(
            (
                "ParadoxExplorer",
                size,
                "prevalence slider (curve kept)",
                make,
                lambda ex: _setter(ex.prevalence, [round(0.5 + 0.02 * i, 2) for i in range(25)]),
            )
        )
        out.append(
            (
                "ParadoxExplorer",
                size,
                "seed slider (curve recomputed)",
                make,
                lambda ex: _setter(ex.seed, list(range(1, 26))),
            )
        )
        out.append(
            (
                "ParadoxExplorer",
                size,
                "accuracy slider (curve recomputed)",
                make,
                lambda ex: _setter(ex.accuracy, [round(0.6 + 0.015 * i, 3) for i in range(25)]),
            )
        )
    for size, data in (("10 x 3", datasets.sentiment), ("1000 x 10", _large)):
        out.append(
            (
                "MissingDataExplorer",
                size,
                "share slider",
                lambda d=data: MissingDataExplorer(d()),
                lambda ex: _setter(ex.share, [round(0.05 * i, 2) for i in range(1, 19)]),
            )
        )
        out.append(
            (
                "MissingDataExplorer",
                size,
                "seed slider",
                lambda d=data: _with(MissingDataExplorer(d()), "share", 0.3),
                lambda ex: _setter(ex.seed, list(range(1, 26))),
            )
        )
    out.append(
        (
            "CoverageExplorer",
            "10 x 3",
            "first item D labels (8 x 5 data)",
            CoverageExplorer,
            lambda ex: _setter(ex.d_first, _values(ex.d_first)[1:] + _values(ex.d_first)[-2::-1]),
        )
    )
    out.append(
        (
            "CoverageExplorer",
            "10 x 3",
            "merge toggle (8 x 5 data)",
            CoverageExplorer,
            lambda ex: _setter(ex.keep, [4, 3]),
        )
    )
    out.append(
        (
            "CoverageExplorer",
            "1000 x 10",
            "last item J labels",
            lambda: CoverageExplorer(_large_partial(), "I", "J"),
            lambda ex: _setter(ex.e_last, _values(ex.e_last)[::-37][1:26]),
        )
    )
    for size, data in (("10 x 3", datasets.sentiment), ("1000 x 10", _large)):
        out.append(
            (
                "WeightsExplorer",
                size,
                "alpha level",
                lambda d=data: WeightsExplorer(d()),
                lambda ex: _setter(ex.level, ["nominal", "ordinal", "interval"]),
            )
        )
        out.append(
            (
                "WeightsExplorer",
                size,
                "Cohen weights",
                lambda d=data: WeightsExplorer(d()),
                lambda ex: _setter(ex.weights, ["unweighted", "linear", "quadratic"]),
            )
        )
        out.append(
            (
                "WeightsExplorer",
                size,
                "rater 2",
                lambda d=data: WeightsExplorer(d()),
                lambda ex: _setter(ex.rater_b, list(ex.data.raters[1:]) + [ex.data.raters[1]]),
            )
        )
    # one simulated study of 1,000 items x 3 raters (the slider takes its first n items): budget 100 ms
    out.append(
        (
            "IntervalExplorer",
            "1000 x 3",
            "items slider, 20 to 260 items (curves kept)",
            lambda: IntervalExplorer(n_items=10),
            lambda ex: _setter(ex.n_items, [20 + 10 * i for i in range(25)]),
        )
    )
    out.append(
        (
            "IntervalExplorer",
            "1000 x 3",
            "items slider, 990 to 750 items (curves kept)",
            lambda: IntervalExplorer(n_items=1000),
            lambda ex: _setter(ex.n_items, [990 - 10 * i for i in range(25)]),
        )
    )
    out.append(
        (
            "IntervalExplorer",
            "1000 x 3",
            "accuracy slider (curves recomputed)",
            IntervalExplorer,
            lambda ex: _setter(ex.accuracy, [round(0.6 + 0.015 * i, 3) for i in range(25)]),
        )
    )
    out.append(
        (
            "IntervalExplorer",
            "1000 x 3",
            "coefficient (curves recomputed)",
            IntervalExplorer,
            lambda ex: _setter(
                ex.coefficient,
                ["krippendorff_alpha", "gwet_ac", "brennan_prediger", "percent_agreement", "fleiss_kappa"],
            ),
        )
    )
    return out


def _with(ex, control: str, value):
    getattr(ex, control).value = value
    return ex


def run(repeat: int = 1):
    """Yield one result dict per scenario."""
    for name, size, what, make, steps in scenarios():
        ex = make()
        step = steps(ex)
        n = ROUND * repeat
        walls, cpus, colds, cold_cpus = [], [], [], []
        for t in range(n):
            w0, c0 = time.perf_counter(), time.process_time()
            step(t)
            walls.append((time.perf_counter() - w0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
        for t in range(n):
            ex.clear_cache()
            w0, c0 = time.perf_counter(), time.process_time()
            step(t + 1)
            colds.append((time.perf_counter() - w0) * 1000)
            cold_cpus.append((time.process_time() - c0) * 1000)
        yield {
            "explorer": name,
            "size": size,
            "what": what,
            "median": statistics.median(walls),
            "cpu": statistics.median(cpus),
            "cold": statistics.median(colds),
            "cold_cpu": statistics.median(cold_cpus),
            "max": max(walls + colds),
            "budget": BUDGET_MS[size],
        }


def report_views():
    """Yield (example, view, CPU ms of its first showing, CPU ms drawn ahead) for each view of the annotations
    explorer (notebook 08) on each example: a figure drawn on the spot, or (shown in a notebook) drawn
    ahead on the explorer's other thread while the summary is read, then only sent; a text view computed
    (the bootstrap intervals of the raters, the pairs and the whole table)."""
    from iaa_teach.widgets._annotations import EXAMPLES

    for example, (data, _) in EXAMPLES.items():
        spot = AnnotationsExplorer(data())
        ahead = AnnotationsExplorer(data())
        ahead._repr_mimebundle_()
        for future in list(ahead._ahead.values()):
            future.result()
        for view in [v for v, _ in spot.show.options if v != "summary"]:
            times = []
            for ex in (spot, ahead):
                c0 = time.process_time()
                ex.show_view(view)
                times.append((time.process_time() - c0) * 1000)
            yield example, view, *times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help=f"rounds of {ROUND} updates per scenario")
    parser.add_argument("--views", action="store_true", help="only the annotations explorer's report views")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("annotations explorer: each report view's first showing, CPU ms (budget 250: well under)")
    print(f"{'example':<36} {'view':<24} {'on the spot':>11} {'drawn ahead':>11}")
    for example, view, spot, ahead in report_views():
        print(f"{example:<36} {view:<24} {spot:11.1f} {ahead:11.1f}", flush=True)
    if args.views:
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"explorer update times in ms (median of {ROUND * args.repeat} updates; load average {load:.2f}, "
        f"{os.cpu_count()} CPUs)"
    )
    print(
        f"{'explorer':<20} {'data':<10} {'what moves':<50} {'median':>7} {'cpu':>6} {'cold':>6} {'cpu':>6} "
        f"{'max':>6}  budget"
    )
    over = 0
    for row in run(args.repeat):
        ok = row["cold"] < row["budget"]
        over += not ok
        print(
            f"{row['explorer']:<20} {row['size']:<10} {row['what']:<50} {row['median']:7.1f} "
            f"{row['cpu']:6.1f} "
            f"{row['cold']:6.1f} {row['cold_cpu']:6.1f} {row['max']:6.1f}  "
            f"{'ok' if ok else 'OVER'} ({row['budget']:.0f})",
            flush=True,
        )
    print(
        "ok: the cold median (every update redraws) is within the budget"
        if not over
        else f"{over} scenario(s) over budget (cold median)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
