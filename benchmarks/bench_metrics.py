"""Speed of the metrics on a large table, as ratios.

100,000 items x 10 raters, 5 categories, 20 % of ratings missing (seeded).

(a) End to end, from the same raw float array (NaN = missing), against the
    reference library: krippendorff for alpha (every level), statsmodels
    for Fleiss (complete data), scikit-learn for Cohen (one pair). Bar: at
    least 5x faster.
(b) On a prebuilt ``Ratings``, against one ``numpy.bincount`` pass over the
    same codes (as stored, uint8). Bar: within 3x. The last column is the
    stricter ratio against the codes already cast to bincount's intp.

Each timing is the median of 15 runs after a warm-up run.
Run: ``python benchmarks/bench_metrics.py`` (or ``make bench``).
"""

from __future__ import annotations

import os
import time

# One BLAS thread for both sides. On this 2-core machine a threaded BLAS that
# waits for a busy core dominates the timing of the small (n x k)^T (n x k)
# products, for ours and for the references alike; set before numpy loads.
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import numpy as np  # noqa: E402

import iaa_teach as it  # noqa: E402

N_ITEMS, N_RATERS, N_CATS, MISSING = 100_000, 10, 5, 0.20


def best_ms(fn, repeat: int = 15) -> float:
    """Median of ``repeat`` runs after one warm-up run, in milliseconds."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3


def main() -> None:
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

    print(f"{N_ITEMS:,} items x {N_RATERS} raters, {N_CATS} categories, {MISSING:.0%} missing\n")
    print("(a) end to end from the raw array, against the reference library (bar: >= 5x)")
    print(f"{'metric':<28}{'ours ms':>10}{'ref ms':>10}{'ratio':>9}")

    def cohen_ref():
        a, b = raw[:, 0], raw[:, 1]
        both = ~(np.isnan(a) | np.isnan(b))
        return cohen_kappa_score(a[both], b[both])

    pair = np.ascontiguousarray(raw[:, :2])
    cases = [("cohen_kappa (A vs B)", lambda: it.cohen_kappa(raw, 0, 1), cohen_ref),
             ("  same, from A, B columns", lambda: it.cohen_kappa(pair, 0, 1), cohen_ref),
             ("fleiss_kappa (complete)", lambda: it.fleiss_kappa(complete),
              lambda: sm_fleiss(aggregate_raters(complete.astype(int))[0]))]
    for level in it.LEVELS:
        data = raw + 1 if level == "ratio" else raw  # ratio: positive values
        dom = [v + 1 for v in domain] if level == "ratio" else domain
        cases.append((f"krippendorff_alpha {level}",
                      lambda d=data, lv=level: it.krippendorff_alpha(d, lv),
                      lambda d=data, lv=level, dm=dom: krippendorff.alpha(
                          reliability_data=d.T, level_of_measurement=lv, value_domain=dm)))
    for name, ours, ref in cases:
        t_ours, t_ref = best_ms(ours), best_ms(ref)
        ratio = t_ref / t_ours
        ratios_ok &= ratio >= 5
        print(f"{name:<28}{t_ours:>10.2f}{t_ref:>10.2f}{ratio:>8.1f}x")

    print("\n(b) on a prebuilt Ratings, against one np.bincount pass over its codes (bar: <= 3x)")
    print(f"{'metric':<28}{'ours ms':>10}{'bincount':>10}{'ratio':>9}{'vs intp':>9}")
    prebuilt = it.Ratings.from_rows(raw)
    codes = prebuilt._codes  # the codes as the Ratings stores them (uint8)
    t_bin = best_ms(lambda: np.bincount(codes.ravel(), minlength=N_CATS + 1), 31)
    codes_intp = codes.astype(np.intp)  # stricter: the same codes already cast to bincount's own type
    t_bin_intp = best_ms(lambda: np.bincount(codes_intp.ravel(), minlength=N_CATS + 1), 31)
    cases_b = [("cohen_kappa (A vs B)", lambda: it.cohen_kappa(prebuilt, 0, 1)),
               ("fleiss_kappa pooled", lambda: it.fleiss_kappa(prebuilt)),
               ("fleiss_kappa item_mean", lambda: it.fleiss_kappa(prebuilt, "item_mean"))]
    for level in ("nominal", "ordinal", "interval"):
        cases_b.append((f"krippendorff_alpha {level}", lambda lv=level: it.krippendorff_alpha(prebuilt, lv)))
    for name, ours in cases_b:
        t_ours = best_ms(ours, 31)
        ratio = t_ours / t_bin
        ratios_ok &= ratio <= 3
        print(f"{name:<28}{t_ours:>10.2f}{t_bin:>10.2f}{ratio:>8.2f}x{t_ours / t_bin_intp:>8.2f}x")
    print("\nall bars met" if ratios_ok else "\nSOME BARS MISSED")


if __name__ == "__main__":
    main()
