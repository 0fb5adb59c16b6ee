"""How long the quiz's buttons take: a new question, the worked solution, checking the answers.

The budget is 100 ms a click (the widget feels instant). Each of the three callbacks
is clicked 5 times on every question kind; the quiz measures its own callback
(``Quiz.last_update_ms``: from the click to the last trait set). Prints the median and the
largest time per kind and button, and the largest as a share of the budget.

Run: ``python benchmarks/bench_quiz.py``.
"""

from __future__ import annotations

import statistics

from iaa_teach.exercises import KINDS
from iaa_teach.widgets import Quiz

BUDGET_MS = 100.0
ROUNDS = 5


def main() -> None:
    print(f"Quiz callbacks, {ROUNDS} rounds per kind; budget {BUDGET_MS:.0f} ms a click")
    print(f"  {'kind':<10} {'button':<10} {'median ms':>10} {'max ms':>8} {'max/budget':>11}")
    for kind in KINDS:
        quiz = Quiz(kind, seed=0)
        times: dict[str, list[float]] = {"new": [], "solution": [], "check": []}
        for _ in range(ROUNDS):
            for name, button in (
                ("new", quiz.new_button),
                ("solution", quiz.solution_button),
                ("check", quiz.check_button),
            ):
                button.click()
                times[name].append(quiz.last_update_ms)
        for name, values in times.items():
            print(
                f"  {kind:<10} {name:<10} {statistics.median(values):10.1f} {max(values):8.1f} "
                f"{max(values) / BUDGET_MS:11.2f}"
            )


if __name__ == "__main__":
    main()
