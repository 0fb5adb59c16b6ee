"""Gwet's AC1: two annotators, chance from sum p_j (1 - p_j) / (q - 1) (level 4: Scott's pi against it)."""

from __future__ import annotations

from fractions import Fraction

from ...metrics import gwet_ac
from .._kind import TwoRaters
from .._mistakes import route_ac1
from .pi import pooled_working


class AC1(TwoRaters):
    name = "ac1"
    coefficient = "ac1"
    concept_from = 1

    def result(self, r, weights, chance):
        return gwet_ac(r)

    def values(self, result, plan, r):
        ex = result.exact
        return {"p_o": ex.p_a, "p_e": ex.p_e, "ac1": ex.ac}

    def routes(self, r, result, weights, plan):
        return route_ac1(r, result.exact)

    def parts(self, b):
        for quantity in ("p_o", "p_e", "ac1"):
            b.ask(quantity)

    def working(self, q):
        return pooled_working(q)

    def ft_terms(self, result, plan):
        # Scott's P_e from AC1's: 1 - (q - 1) P_e, q the number of categories
        return {"p_e_pi": (Fraction(len(result.categories)),)} if plan.tripos else {}


KIND = AC1()
