"""Weighted kappa: two annotators on an ordered scale, linear or quadratic agreement weights."""

from __future__ import annotations

from fractions import Fraction

from ..._markup import Math, Prose
from ...metrics import cohen_kappa, scott_pi
from ...rounding import fmt
from .._concepts import weights_why
from .._kind import both_labelled
from .._mistakes import final_steps, r3
from .cohen import Cohen


class Weighted(Cohen):
    """Cohen's kappa with agreement weights: its result, values and routes take the drawn weights."""

    name = "weighted"
    ordinal = True

    def parts(self, b):
        words = self.data["parts"]["p_o"]
        form = Math(*words[b.drawn.weights])
        b.ask("p_o", weights=b.drawn.weights, form=form, q=Math(f"q = {b.r.n_categories}"))
        b.ask("p_e")
        b.ask("kappa")
        b.concept(weights_why(b.style), worked=self.model_answer(b.drawn.weights, b.result, b.r))

    @staticmethod
    def model_answer(weights: str, result, r) -> Prose:
        """The weights part's worked answer, with this table's numbers (for the solution only)."""
        plain = cohen_kappa(r, 0, 1).exact.kappa
        other_name = "quadratic" if weights == "linear" else "linear"
        other = cohen_kappa(r, 0, 1, weights=other_name).exact.kappa
        k = len(result.categories)
        return Prose(
            f"The categories are ordered, so a disagreement between neighbouring categories is less serious "
            f"than one between the ends of the scale; weights give near misses partial credit. Here the "
            f"{weights}-weighted kappa is {fmt(result.exact.kappa)}, against {fmt(plain)} unweighted (every "
            f"disagreement counted in full) and {fmt(other)} with {other_name} weights. "
            "Quadratic weights give "
            f"a one-step miss more credit than linear ones ({fmt(1 - Fraction(1, (k - 1) ** 2))} against "
            f"{fmt(1 - Fraction(1, k - 1))} here) and both give none to a miss across the whole scale; "
            f"the choice of weights should be fixed before looking at the data."
        )

    def second_values(self, r, weights):
        """The weighted pi: pooled proportions, the same weights; its wrong routes are other weights, none,
        or each annotator's own proportions (the weighted kappa)."""
        table = both_labelled(r)
        ex = scott_pi(table, 0, 1, weights=weights).exact
        routes = {}
        other = "quadratic" if weights == "linear" else "linear"
        for mid, w in (("unweighted", None), ("other_weights", other)):
            wrong = scott_pi(table, 0, 1, weights=w).exact
            routes[mid] = {"p_e_pi": wrong.p_e, "pi": wrong.pi}
        own = cohen_kappa(table, 0, 1, weights=weights).exact
        routes["cohen_marginals"] = {"p_e_pi": own.p_e, "pi": own.kappa}
        final = final_steps(ex.p_a, ex.p_e, "p_o", r3(ex.p_a), r3(ex.p_e), "pi")
        del final["rounding:all"]
        return {"p_e_pi": ex.p_e, "pi": ex.pi}, {**routes, **final}


KIND = Weighted()
