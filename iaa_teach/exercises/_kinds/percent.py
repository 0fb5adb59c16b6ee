"""Percent agreement: two annotators' observed agreement P_o by hand, with no chance correction (level 4:
Cohen's kappa against it)."""

from __future__ import annotations

from fractions import Fraction

from ...metrics import cohen_kappa
from ...worked import Explanation, explain
from .._kind import TwoRaters, keep_steps
from .pi import Pi


class Percent(TwoRaters):
    name = "percent"
    coefficient = "p_o"
    missing_from = 3

    def result(self, r, weights, chance):
        return cohen_kappa(r, 0, 1)  # its P_o, on the items both labelled; its kappa is level 4's

    def values(self, result, plan, r):
        p_o, both = result.exact.p_o, Fraction(int((r.codes[:, :2] >= 0).all(axis=1).sum()))
        return {"n_both": both, "n_agree": p_o * both, "p_o": p_o}

    def routes(self, r, result, weights, plan):
        right = self.values(result, plan, r)
        p_o, both = right["p_o"], right["n_both"]
        routes = {
            "disagreements": {"n_agree": both - right["n_agree"], "p_o": 1 - p_o},
            "over_labels": {"p_o": p_o / 2},
        }
        if both < r.n_items:  # an item one annotator left blank, counted as a disagreement
            routes["missing_as_disagreement"] = {"n_both": Fraction(r.n_items), "p_o": p_o * both / r.n_items}
        return routes

    def rounded_coefficient(self, ex):
        return None  # P_o is one division: no intermediate value to round

    def parts(self, b):
        for quantity in ("n_both", "n_agree", "p_o"):
            b.ask(quantity)
        # why P_o is not chance-corrected: select all (levels 1-3), in words at level 4
        b.bank("chance_explained" if b.plan.tripos else "chance_correction")

    def working(self, q):
        steps = keep_steps(explain(q.result), ("P_o",), ("Agreement table",), "")
        return Explanation(self.data["title"], steps, q.result)

    # level 4's second chance rule is Cohen's kappa, as Scott's pi's is
    second_values = Pi.second_values
    second_steps = Pi.second_steps


KIND = Percent()
