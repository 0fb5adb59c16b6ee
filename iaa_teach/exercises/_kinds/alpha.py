"""Krippendorff's alpha (nominal): missing ratings and a unit with a single value (levels 2-4); level 4
compares it with its expected disagreement drawn with replacement."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..._formulas import one_minus_ratio
from ..._markup import Chain, Equations, Math, approx, number, prose
from ...metrics import fleiss_kappa, krippendorff_alpha
from ...rounding import round_half_up
from ...worked import Step
from .._concepts import alpha_vs_fleiss, single_value
from .._kind import Kind, names
from .._mistakes import alpha_of, disagreement, from_matrix, r3, sum_over
from .._parts import QUANTITIES


def route_alpha(r, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Krippendorff's alpha (nominal) with missing ratings."""
    counts = r.counts().astype(np.int64)
    m = counts.sum(axis=1)
    used = m >= 2
    n, offdiag = exact.n, exact.n - sum(exact.coincidences[c][c] for c in range(len(exact.n_c)))

    def pairs(
        block,
    ):  # the units' ordered pairs of values (m_u (m_u - 1) each), unweighted, as exact fractions
        return Fraction(1) * (block.T @ block - np.diag(block.sum(axis=0)))

    unweighted_pairs = pairs(counts)
    unweighted = from_matrix(unweighted_pairs)
    routes = {"unweighted_pairs": unweighted}
    # D_e as 1 - sum p_c^2 (Fleiss' chance term)
    d_e = 1 - sum((c / n) ** 2 for c in exact.n_c)
    routes["fleiss_de"] = {"d_e": d_e, "alpha": alpha_of(exact.d_o, d_e)}
    # the code text: both of the above
    d_e = 1 - sum((c / unweighted["n"]) ** 2 for c in unweighted_pairs.sum(axis=1))
    routes["text_route"] = {"d_e": d_e, "alpha": alpha_of(unweighted["d_o"], d_e)}
    # single-rated units' values counted as pairable
    routes["unpairable_values"] = disagreement(offdiag, [Fraction(int(x)) for x in counts.sum(axis=0)])
    # self-pairs kept: each unit adds n_uc^2 / (m_u - 1) on the diagonal instead of n_uc (n_uc - 1) / (m_u -
    # 1)
    extra = [sum_over(counts[used, j], m[used] - 1) for j in range(counts.shape[1])]
    routes["self_pairs"] = disagreement(offdiag, [a + b for a, b in zip(exact.n_c, extra)])
    # the number of chance pairs off by one: n (n + 1) or (n - 1)^2 instead of n (n - 1)
    spread = n * n - sum((c * c for c in exact.n_c), Fraction(0))
    for mid, pairs_count in (("de_n_plus_1", n * (n + 1)), ("de_n_minus_1_squared", (n - 1) ** 2)):
        d_e = spread / pairs_count
        routes[mid] = {"d_e": d_e, "alpha": alpha_of(exact.d_o, d_e)}
    # each unit's pairs weighted by 1 / m_u: the matrix adds up to sum (m_u - 1)
    by_size = [pairs(counts[m == size]) / size for size in np.unique(m[used]).tolist()]
    routes["pairs_over_m"] = from_matrix(sum(by_size))
    routes["alpha_as_fleiss"] = {"alpha": fleiss_kappa(r).exact.kappa}
    routes["rounding"] = {"alpha": alpha_of(r3(exact.d_o), r3(exact.d_e))}
    routes["early_rounding"] = {"alpha": alpha_of(round_half_up(exact.d_o, 2), round_half_up(exact.d_e, 2))}
    routes["swapped"] = {"alpha": alpha_of(exact.d_e, exact.d_o)}
    routes["percent_agreement"] = {"alpha": 1 - exact.d_o}
    # the coincidences written to 3 decimals, then D_o and D_e
    rounded = from_matrix(np.array([[r3(x) for x in row] for row in exact.coincidences], dtype=object))
    d_o_3, d_e_3 = r3(rounded["d_o"]), r3(rounded["d_e"])
    routes["rounding:all"] = {"d_o": d_o_3, "d_e": d_e_3, "alpha": alpha_of(d_o_3, d_e_3)}
    return routes


class Alpha(Kind):
    name = "alpha"
    coefficient = "alpha"
    choosable = True
    scale = "krippendorff"

    def gaps(self, rng, present, level, missing):
        if level > 1:  # most units complete; one with a single value; one to three with 2 .. m-1 values
            n, m = present.shape
            sizes = np.full(n, m)
            picks = rng.permutation(n)
            n_partial = int(rng.integers(1, 4))
            sizes[picks[0]] = 1
            sizes[picks[1 : 1 + n_partial]] = rng.integers(2, m, size=n_partial)
            order = rng.random((n, m)).argsort(axis=1).argsort(axis=1)
            present[:] = order < sizes[:, None]
        return {}

    def title(self, q):
        return self.data["title"] + (self.data["missing_title"] if q.ratings.missing.any() else "")

    def result(self, r, weights, chance):
        return krippendorff_alpha(r, "nominal")

    def values(self, result, plan, r):
        ex = result.exact
        return {"n": Fraction(ex.n), "d_o": ex.d_o, "d_e": ex.d_e, "alpha": ex.alpha}

    def routes(self, r, result, weights, plan):
        return route_alpha(r, result.exact)

    def rounded_coefficient(self, ex):
        return one_minus_ratio(round_half_up(ex.d_o, 3), round_half_up(ex.d_e, 3)).item()

    def complete_alpha(self, r):
        return not r.missing.any()

    def ft_terms(self, result, plan):
        ex = result.exact
        n = Fraction(ex.n)
        return {"d_o": (ex.d_o * n,), "d_e": (n * n - ex.d_e * n * (n - 1),)}

    def parts(self, b):
        weight = Math(*self.data["parts"]["n"]["weight"])
        b.ask("n", w=weight)
        for quantity in ("d_o", "d_e", "alpha"):
            b.ask(quantity)
        if not b.plan.tripos:  # level 4 asks it with partial coverage
            lonely = self.lonely(b.r)
            b.concept(single_value(b.style, names(lonely)) if lonely else alpha_vs_fleiss(b.style))

    @staticmethod
    def lonely(r) -> list[str]:
        """The units with a single value."""
        return [str(item) for item, mu in zip(r.items, r.ratings_per_item()) if mu == 1]

    def dropout_part(self, b):
        """Alpha's table has partial coverage already: level 4 asks about its single value instead."""
        lonely = self.lonely(b.r)
        if lonely:
            b.concept(single_value(b.style, names(lonely)))
        else:
            b.interpretation("alpha")

    def tripos_values(self, r, result, weights):
        """D_e with replacement, 1 - sum_c (n_c / n)^2, from the right matrix or a usual wrong one."""
        ex = result.exact
        n, d_o = ex.n, ex.d_o
        d_e = 1 - sum((c / n) ** 2 for c in ex.n_c)
        right = {"d_e_repl": d_e, "alpha_repl": 1 - d_o / d_e}
        wrong = route_alpha(r, ex)
        counts = r.counts().astype(np.int64).sum(axis=0)
        total = int(counts.sum())
        single = 1 - sum((Fraction(int(c), total)) ** 2 for c in counts)
        return right, {
            "unweighted_pairs": {
                "d_e_repl": wrong["text_route"]["d_e"],
                "alpha_repl": wrong["text_route"]["alpha"],
            },
            "unpairable_values": {
                "d_e_repl": single,
                "alpha_repl": alpha_of(wrong["unpairable_values"]["d_o"], single),
            },
            "rounding": {"alpha_repl": alpha_of(r3(d_o), r3(d_e))},
            "early_rounding": {"alpha_repl": alpha_of(round_half_up(d_o, 2), round_half_up(d_e, 2))},
            "swapped": {"alpha_repl": alpha_of(d_e, d_o)},
            "percent_agreement": {"alpha_repl": 1 - d_o},
        }

    def second_steps(self, q):
        prefix = "Second chance rule: "
        steps = []
        ex = q.result.exact
        d_e = 1 - sum((c / ex.n) ** 2 for c in ex.n_c)
        alpha = 1 - ex.d_o / d_e
        n = number(ex.n)
        squares = " + ".join(rf"\left(\frac{{{number(c).tex}}}{{{n.tex}}}\right)^2" for c in ex.n_c)
        squares_txt = " + ".join(f"({number(c).txt}/{n.txt})²" for c in ex.n_c)
        d_e_sym, alpha_sym = QUANTITIES["d_e_repl"], QUANTITIES["alpha_repl"]
        steps.append(
            Step(
                prose(prefix + "expected disagreement with replacement {D}", D=d_e_sym),
                (
                    prose(
                        "Two values drawn with replacement, as Fleiss' kappa and Scott's pi draw them, "
                        "from the same row totals {n_c}; alpha's {D_e} draws without replacement and is "
                        "larger by the factor {f}.",
                        f=Math(r"n / (n - 1)", "n / (n - 1)"),
                    ),
                    Equations(
                        [
                            Chain(
                                d_e_sym,
                                Math(r"1 - \sum_c \left(\frac{n_c}{n}\right)^2", "1 - Σ_c (n_c / n)²"),
                                Math(rf"1 - \left({squares}\right)", f"1 - ({squares_txt})"),
                                approx(d_e),
                            )
                        ]
                    ),
                ),
                "D_e",
                float(d_e),
                d_e,
            )
        )
        steps.append(
            Step(
                prose(prefix + "alpha with it, {A}", A=alpha_sym),
                (
                    Equations(
                        [
                            Chain(
                                alpha_sym,
                                Math(rf"1 - \frac{{D_o}}{{{d_e_sym.tex}}}", f"1 - D_o / {d_e_sym.txt}"),
                                Math(
                                    rf"1 - \frac{{{number(ex.d_o).tex}}}{{{number(d_e).tex}}}",
                                    f"1 - ({number(ex.d_o).txt}) / ({number(d_e).txt})",
                                ),
                                approx(alpha),
                            )
                        ]
                    ),
                    prose("Lower than alpha: with replacement the expected disagreement is smaller."),
                ),
                "alpha",
                float(alpha),
                alpha,
            )
        )
        return steps


KIND = Alpha()
