"""How long ``explain`` takes to write the worked solution of a large table (2,000 items x 6 raters).

The tests check that the text stays short (items grouped by count row, not listed
one by one); this prints how long writing it takes, against a budget of 1 s, the
time a student waits for a cell without noticing. Exact values and the interval
are computed before the clock starts (``explain`` shows them; the coefficient's
own cost is measured by bench_metrics.py and bench_family.py).

Run: ``python benchmarks/bench_explain.py``. Prints the median of 5 runs per result.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from iaa_teach import Ratings, conger_kappa, explain, fleiss_kappa, gwet_ac, scott_pi

BUDGET_S = 1.0


def main() -> None:
    big = Ratings.from_rows(np.random.default_rng(0).integers(0, 4, size=(2000, 6)))
    results = {
        "Fleiss' kappa": fleiss_kappa(big),
        "Fleiss' kappa, linear weights": fleiss_kappa(big, weights="linear"),
        "Gwet's AC2, quadratic weights": gwet_ac(big, weights="quadratic"),
        "Conger's kappa": conger_kappa(big),
        "Scott's pi (multi-rater)": scott_pi(big),
    }
    print(f"explain() on 2,000 x 6; budget {BUDGET_S:.1f} s (median of 5)")
    for name, res in results.items():
        _ = res.exact, res.ci()
        times = []
        for _ in range(5):
            start = time.perf_counter()
            explain(res).text()
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"  {name:<32} {median * 1000:7.1f} ms  ({median / BUDGET_S:.2f} of the budget)")


if __name__ == "__main__":
    main()
