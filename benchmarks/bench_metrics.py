"""Speed of the metrics on a large table, as ratios.

100,000 items x 10 raters, 5 categories, 20 % of ratings missing (seeded).

(a) End to end, from the same raw float array (NaN = missing), against the
    reference library: krippendorff for alpha (every level), statsmodels
    for Fleiss (complete data), scikit-learn for Cohen (one pair). Bar: at
    least 5x faster.
(b) On a prebuilt ``Ratings``, against one ``numpy.bincount`` pass over its
    public codes (``Ratings.codes``, intp). Bar: within 3x.
(c) ``bootstrap_ci`` with BLAS threads as they are, against the same call
    limited to one BLAS thread (threadpoolctl). Bar: at most 1.5x, i.e. the
    speed does not hang on BLAS threads (with ``--busy``, a threaded float
    product that waits for the busy core was 2x slower).

BLAS threads are left as a user has them (numpy's default): the metrics use
integer counting only, so their speed does not depend on BLAS threading.
``--busy`` keeps one core busy with another process while measuring (as a
laptop running other work does); ``--pin-blas`` sets one BLAS thread for the
references, for comparison with earlier runs.

Each timing is the median of 15 runs after a warm-up run.
Run: ``python benchmarks/bench_metrics.py [--busy]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time

if "--pin-blas" in sys.argv:  # must be set before numpy loads
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"

import numpy as np  # noqa: E402

import iaa_teach as it  # noqa: E402

N_ITEMS, N_RATERS, N_CATS, MISSING = 100_000, 10, 5, 0.20


def best_ms(fn, repeat: int = 15, setup=None) -> float:
    """Median of ``repeat`` runs after one warm-up run, in milliseconds.

    With ``setup``, each run calls ``fn(setup())`` and only ``fn`` is timed.
    """
    times = []
    for i in range(repeat + 1):
        arg = None if setup is None else setup()
        t0 = time.perf_counter()
        fn() if setup is None else fn(arg)
        if i:  # the first run warms up
            times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def busy_core() -> subprocess.Popen:
    """Another process that keeps one core busy until it is killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@contextlib.contextmanager
def busy(enabled: bool):
    """While the block runs, another process keeps one core busy (if ``enabled``)."""
    hog = busy_core() if enabled else None
    try:
        yield
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", action="store_true", help="keep one core busy with another process")
    parser.add_argument("--pin-blas", action="store_true", help="one BLAS thread (set before numpy loads)")
    args = parser.parse_args()
    with busy(args.busy):
        run()


def run() -> None:
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    rng = np.random.default_rng(2026)
    complete = rng.integers(0, N_CATS, size=(N_ITEMS, N_RATERS)).astype(float)
    raw = complete.copy()
    raw[rng.random(raw.shape) < MISSING] = np.nan
    domain = list(range(N_CATS))
    ratios_ok = True

    from threadpoolctl import threadpool_info

    blas = ", ".join(f"{i['internal_api']} {i['num_threads']} threads" for i in threadpool_info()) or "none"
    print(
        f"{N_ITEMS:,} items x {N_RATERS} raters, {N_CATS} categories, {MISSING:.0%} missing; "
        f"BLAS: {blas}; busy core (--busy): {'yes' if '--busy' in sys.argv else 'no'}; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs\n"
    )
    print("(a) end to end from the raw array, against the reference library (bar: >= 5x)")
    print(f"{'metric':<28}{'ours ms':>10}{'ref ms':>10}{'ratio':>9}")

    def cohen_ref():
        a, b = raw[:, 0], raw[:, 1]
        both = ~(np.isnan(a) | np.isnan(b))
        return cohen_kappa_score(a[both], b[both])

    pair = np.ascontiguousarray(raw[:, :2])
    cases = [
        ("cohen_kappa (A vs B)", lambda: it.cohen_kappa(raw, 0, 1), cohen_ref),
        ("  same, from A, B columns", lambda: it.cohen_kappa(pair, 0, 1), cohen_ref),
        (
            "fleiss_kappa (complete)",
            lambda: it.fleiss_kappa(complete),
            lambda: sm_fleiss(aggregate_raters(complete.astype(int))[0]),
        ),
    ]
    for level in it.LEVELS:
        data = raw + 1 if level == "ratio" else raw  # ratio: positive values
        dom = [v + 1 for v in domain] if level == "ratio" else domain
        cases.append(
            (
                f"krippendorff_alpha {level}",
                lambda d=data, lv=level: it.krippendorff_alpha(d, lv),
                lambda d=data, lv=level, dm=dom: krippendorff.alpha(
                    reliability_data=d.T, level_of_measurement=lv, value_domain=dm
                ),
            )
        )
    for name, ours, ref in cases:
        t_ours, t_ref = best_ms(ours), best_ms(ref)
        ratio = t_ref / t_ours
        ratios_ok &= ratio >= 5
        print(f"{name:<28}{t_ours:>10.2f}{t_ref:>10.2f}{ratio:>8.1f}x")

    print("\n(b) on a prebuilt Ratings, against one np.bincount pass over its codes (bar: <= 3x)")
    print(f"{'metric':<28}{'ours ms':>10}{'bincount':>10}{'ratio':>9}")
    prebuilt = it.Ratings.from_rows(raw)
    codes = (prebuilt.codes + 1).ravel()  # the public codes, missing (-1) shifted to 0
    t_bin = best_ms(lambda: np.bincount(codes, minlength=N_CATS + 1), 31)
    # a Ratings counts its table once and keeps the counts: each run gets a fresh copy (untimed)
    keep = np.zeros(prebuilt.shape, dtype=bool)
    cases_b = [
        ("cohen_kappa (A vs B)", lambda r: it.cohen_kappa(r, 0, 1)),
        ("fleiss_kappa pooled", lambda r: it.fleiss_kappa(r)),
        ("fleiss_kappa item_mean", lambda r: it.fleiss_kappa(r, "item_mean")),
    ]
    for level in ("nominal", "ordinal", "interval"):
        cases_b.append((f"krippendorff_alpha {level}", lambda r, lv=level: it.krippendorff_alpha(r, lv)))
    for name, ours in cases_b:
        t_ours = best_ms(ours, 31, setup=lambda: prebuilt.with_missing(keep))
        ratio = t_ours / t_bin
        ratios_ok &= ratio <= 3
        print(f"{name:<28}{t_ours:>10.2f}{t_bin:>10.2f}{ratio:>8.2f}x")

    print(
        "\n(c) bootstrap_ci, 200 replicates: BLAS threads as they are, against one BLAS thread "
        "(bar: at most 1.5x)"
    )
    print(f"{'metric':<28}{'as is ms':>10}{'1 thread':>10}{'ratio':>9}")
    from threadpoolctl import threadpool_limits

    for name in ("cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac"):

        def boot(name=name):
            return it.bootstrap_ci(name, prebuilt, n_boot=200, seed=0)

        t_free = best_ms(boot, 5)
        with threadpool_limits(1):
            t_one = best_ms(boot, 5)
        ratio = t_free / t_one
        ratios_ok &= ratio <= 1.5
        print(f"{name:<28}{t_free:>10.1f}{t_one:>10.1f}{ratio:>8.2f}x")
    print("\nall bars met" if ratios_ok else "\nSOME BARS MISSED")


if __name__ == "__main__":
    main()
