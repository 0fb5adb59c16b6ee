"""Speed of the chance-corrected family, with standard errors, against irrCAC, as ratios.

100,000 items x 10 raters, 5 categories, 20 % of ratings missing (seeded).
End to end from the same raw float array (NaN = missing): ours builds the
``Ratings`` and returns the coefficient with its standard error; irrCAC
0.4 builds its DataFrame and ``CAC`` (the categories passed, as it needs
under pandas 3) and returns the same. Bar: at least 5x faster.

irrCAC has no percent agreement for raw ratings: its ``bp`` computes the
same P_a and standard error machinery, so it stands in. Scott's pi is
irrCAC's Fleiss' kappa on the two raters' columns.

BLAS threads are left as a user has them (numpy's default): the family
counts with integers and loops in C (``bincount``, ``einsum``), so its
speed does not depend on BLAS threading. ``--busy`` keeps one core busy
with another process while measuring, as a laptop running other work does.

Each timing is the median of 9 runs (irrCAC: 3) after a warm-up run.
Run: ``python benchmarks/bench_family.py [--busy]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import os
import warnings

import numpy as np
from bench_metrics import best_ms, busy  # the metrics' benchmark's timer and busy core

import iaa_teach as it

N_ITEMS, N_RATERS, N_CATS, MISSING = 100_000, 10, 5, 0.20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", action="store_true", help="keep one core busy with another process")
    args = parser.parse_args()
    with busy(args.busy):
        run(args.busy)


def run(busy: bool) -> None:
    import pandas as pd
    from irrCAC.raw import CAC
    from threadpoolctl import threadpool_info

    rng = np.random.default_rng(2026)
    raw = rng.integers(0, N_CATS, size=(N_ITEMS, N_RATERS)).astype(float)
    raw[rng.random(raw.shape) < MISSING] = np.nan
    pair = np.ascontiguousarray(raw[:, :2])
    categories = [float(c) for c in range(N_CATS)]

    def irrcac(method: str, data: np.ndarray = raw, weights: str = "identity"):
        def call():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return getattr(CAC(pd.DataFrame(data), weights=weights, categories=categories), method)()

        return call

    blas = ", ".join(f"{i['internal_api']} {i['num_threads']} threads" for i in threadpool_info()) or "none"
    print(
        f"{N_ITEMS:,} items x {N_RATERS} raters, {N_CATS} categories, {MISSING:.0%} missing; "
        f"BLAS: {blas}; busy core (--busy): {'yes' if busy else 'no'}; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs\n"
    )
    print("end to end from the raw array, coefficient and standard error, against irrCAC 0.4 (bar: >= 5x)")
    print(f"{'coefficient':<34}{'ours ms':>10}{'irrCAC ms':>11}{'ratio':>9}")
    cases = [
        ("percent_agreement (irrCAC: bp)", lambda: it.percent_agreement(raw).se, irrcac("bp")),
        ("brennan_prediger", lambda: it.brennan_prediger(raw).se, irrcac("bp")),
        ("scott_pi (A vs B)", lambda: it.scott_pi(raw, 0, 1).se, irrcac("fleiss", pair)),
        ("  same, from A, B columns", lambda: it.scott_pi(pair, 0, 1).se, irrcac("fleiss", pair)),
        ("conger_kappa", lambda: it.conger_kappa(raw).se, irrcac("conger")),
        ("gwet_ac (AC1)", lambda: it.gwet_ac(raw).se, irrcac("gwet")),
        (
            "gwet_ac quadratic (AC2)",
            lambda: it.gwet_ac(raw, weights="quadratic").se,
            irrcac("gwet", weights="quadratic"),
        ),
        (
            "fleiss_kappa item_mean quadratic",
            lambda: it.fleiss_kappa(raw, "item_mean", weights="quadratic").se,
            irrcac("fleiss", weights="quadratic"),
        ),
        ("krippendorff_alpha nominal", lambda: it.krippendorff_alpha(raw).se, irrcac("krippendorff")),
    ]
    ok = True
    for name, ours, reference in cases:
        t_ours, t_ref = best_ms(ours, 9), best_ms(reference, 3)
        ratio = t_ref / t_ours
        ok &= ratio >= 5
        print(f"{name:<34}{t_ours:>10.1f}{t_ref:>11.1f}{ratio:>8.1f}x")
    print("\nall bars met" if ok else "\nSOME BARS MISSED")


if __name__ == "__main__":
    main()
