"""Fleiss' kappa: three or more annotators, every item labelled by all (level 4: Gwet's AC1 against it)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ...metrics import fleiss_kappa, gwet_ac, pairwise_cohen
from ...worked import explain
from .._concepts import pooling_why
from .._kind import Kind, keep_steps
from .._mistakes import final_steps, fleiss_rounded, kappa_of, pooled_chance, renamed, route_ac1
from .partial import route_partial


def route_fleiss(r, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Fleiss' kappa on a complete table."""
    counts = r.counts().astype(np.int64)
    m = r.n_raters
    p_a = Fraction(int((counts * counts).sum()), counts.shape[0] * m * (m - 1))
    routes = {"self_pairs": {"p_a": p_a, "kappa": kappa_of(p_a, exact.p_e)}}
    p_a = Fraction(int((counts * counts).sum()), counts.shape[0] * m * m)
    routes["n_squared_pairs"] = {"p_a": p_a, "kappa": kappa_of(p_a, exact.p_e)}
    pairs = pairwise_cohen(r).results
    # Cohen-style chance: each rater's own proportions, sum_j p_aj p_bj averaged over rater pairs
    p_e = sum((res.exact.p_e for res in pairs), Fraction(0)) / len(pairs)
    routes["cohen_marginals"] = {"p_e": p_e, "kappa": kappa_of(exact.p_a, p_e)}
    # chance from the first two raters' labels only, pooled
    p_e = pooled_chance(pairs[0].exact)
    routes["subset_chance"] = {"p_e": p_e, "kappa": kappa_of(exact.p_a, p_e)}
    # the mean of the pairwise Cohen's kappas
    if all(res.defined for res in pairs):
        routes["pairwise_mean"] = {"kappa": sum((res.exact.kappa for res in pairs), Fraction(0)) / len(pairs)}
    routes.update(final_steps(exact.p_a, exact.p_e, "p_a", *fleiss_rounded(exact)))
    return routes


class Fleiss(Kind):
    name = "fleiss"
    choosable = True

    def result(self, r, weights, chance):
        return fleiss_kappa(r, chance="pooled")

    def values(self, result, plan, r):
        ex = result.exact
        return {"p_a": ex.p_a, "p_e": ex.p_e, "kappa": ex.kappa}

    def routes(self, r, result, weights, plan):
        return route_fleiss(r, result.exact)

    def parts(self, b):
        for quantity in ("p_a", "p_e", "kappa"):
            b.ask(quantity)
        if not b.plan.tripos:  # level 4 compares chance rules by numbers instead
            b.concept(pooling_why(b.style))

    def ft_terms(self, result, plan):
        # AC1's P_e from Fleiss': (1 - P_e) / (q - 1), q the number of categories
        return {"p_e_ac1": (Fraction(len(result.categories)),)} if plan.tripos else {}

    def tripos_values(self, r, result, weights):
        _, last, dropped = self.dropped(r)
        right = {"p_a_part": fleiss_kappa(dropped).exact.p_a}
        kept = ("global_k", "self_pairs", "n_squared_pairs")
        wrong = route_partial(dropped, fleiss_kappa(dropped).exact).items()
        routes = renamed({mid: v for mid, v in wrong if mid in kept}, {"p_a": "p_a_part"})
        routes["dropout_ignored"] = {"p_a_part": fleiss_kappa(r).exact.p_a}
        first = r.subset(items=list(range(last)))
        routes["dropout_items_dropped"] = {"p_a_part": fleiss_kappa(first).exact.p_a}
        ex = gwet_ac(r).exact
        right["p_e_ac1"], right["ac1"] = ex.p_e, ex.ac
        for key, values in renamed(route_ac1(r, ex), {"p_e": "p_e_ac1", "ac1": "ac1"}).items():
            routes.setdefault(key, {}).update(values)
        return right, routes

    def dropout_steps(self, q):
        who, last, dropped = self.dropped(q.ratings)
        prefix = f"Partial coverage, {who} stopping after item {q.ratings.items[last - 1]}: "
        return keep_steps(
            explain(fleiss_kappa(dropped)), ("P_a",), ("Count table", "Agreement on each"), prefix
        )

    def second_steps(self, q):
        return keep_steps(explain(gwet_ac(q.ratings)), ("P_e", "AC1"), ("Category",), "Second chance rule: ")


KIND = Fleiss()
