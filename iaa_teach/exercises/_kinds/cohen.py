"""Cohen's kappa: two annotators on nominal categories (levels 3-4: one or two labels missing)."""

from __future__ import annotations

from ..._markup import prose
from ...metrics import cohen_kappa, interpret
from ...rounding import fmt
from .._concepts import interpret_own
from .._kind import TwoRaters
from .._mistakes import route_cohen


class Cohen(TwoRaters):
    name = "cohen"
    choosable = True
    missing_from = 3

    def result(self, r, weights, chance):
        return cohen_kappa(r, 0, 1, weights=weights)

    def values(self, result, plan, r):
        ex = result.exact
        return {"p_o": ex.p_o, "p_e": ex.p_e, "kappa": ex.kappa}

    def routes(self, r, result, weights, plan):
        return route_cohen(r, result.exact, weights)

    def parts(self, b):
        for quantity in ("p_o", "p_e", "kappa"):
            b.ask(quantity)
        self.interpret(b)

    def interpret(self, b):
        """Interpreting the value found: its band (the marker's note says which), and why it is lower."""
        band = interpret(float(b.right["kappa"]))
        own = interpret_own(band, "kappa")
        note = prose(self.data["parts"]["band"]["note"], v=fmt(b.right["kappa"]), band=band)
        b.concept(own, worked=note + " " + own.model, note=note)


KIND = Cohen()
