"""Scott's pi: two annotators, chance from their pooled proportions (level 4: Cohen's kappa against it)."""

from __future__ import annotations

from ..._markup import prose
from ...metrics import cohen_kappa, scott_pi
from ...worked import Explanation, Step, explain
from .._kind import TwoRaters, keep_steps
from .._mistakes import renamed, route_cohen, route_pi


def pooled_working(q) -> Explanation:
    """Scott's pi and AC1: the agreement table and P_o as for Cohen's kappa, then the pooled proportions,
    the coefficient's own P_e and the coefficient."""
    cohen = explain(cohen_kappa(q.ratings, 0, 1))
    family = explain(q.result)
    own = [
        s for s in family.steps if s.symbol in ("P_e", "pi", "AC1") or s.heading.text().startswith("Category")
    ]
    note = Step(
        prose("Observed agreement of two annotators: {P_a} = {P_o}"),
        (
            prose(
                "With two annotators every item has one pair of labels: {P_i} is 1 where they agree and 0 "
                "where they do not, so the mean agreement {P_a} of the working below is {P_o}."
            ),
        ),
    )
    return Explanation(family.title, [*cohen.steps[:2], note, *own], q.result)


class Pi(TwoRaters):
    name = "pi"
    coefficient = "pi"
    concept_from = 1

    def result(self, r, weights, chance):
        return scott_pi(r, 0, 1)

    def values(self, result, plan, r):
        ex = result.exact
        return {"p_o": ex.p_a, "p_e": ex.p_e, "pi": ex.pi}

    def routes(self, r, result, weights, plan):
        return route_pi(r, result.exact)

    def parts(self, b):
        for quantity in ("p_o", "p_e", "pi"):
            b.ask(quantity)

    def working(self, q):
        return pooled_working(q)

    def second_values(self, r, weights):
        """Cohen's kappa: each annotator's own proportions."""
        ex = cohen_kappa(r, 0, 1).exact
        routes = renamed(route_cohen(r, ex), {"p_e": "p_e_kappa", "kappa": "kappa"})
        return {"p_e_kappa": ex.p_e, "kappa": ex.kappa}, routes

    def second_steps(self, q):
        other = explain(cohen_kappa(q.ratings, 0, 1))
        return keep_steps(other, ("P_e", "kappa"), ("Marginals",), "Second chance rule: ")


KIND = Pi()
