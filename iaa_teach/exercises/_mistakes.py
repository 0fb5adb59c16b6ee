"""The usual mistakes: their words (``content/mistakes.toml``) and the wrong routes kinds share.

The right answers of every question come from :mod:`iaa_teach.metrics`
(``result.exact``). This module computes the *wrong* answers a student gets
by making one of the usual mistakes, so that :meth:`Question.check` can
recognise them and say which step went wrong. Each ``route_*`` function
returns ``{mistake id: {quantity: Fraction}}`` holding only the quantities
the mistake changes (a mistake in P_a changes P_a and kappa, not P_e).

Where a wrong route is a real coefficient applied to other data or another
option (merging two annotators, other weights, the item-mean chance rule)
it calls the core metric, and it reads the intermediate values the metric's
exact result holds (marginals, p_j, P_i); the deliberately wrong formulas
(self-pairs kept, global k, rounded intermediates, percentages) are written
here, small and vectorized over the table. A kind's own routes are in its module
(``_kinds/alpha.py``, ``route_alpha``); the two annotators' routes (Cohen's, Scott's, Gwet's), which
several kinds use for their second chance rule, are here with the helpers every kind shares.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from .._formulas import chance_corrected, one_minus_ratio
from .._validation import check_option
from ..metrics import cohen_kappa
from ..ratings import Ratings
from ..rounding import round_half_up
from ._concepts import load
from .lesson_exercises import PRACTICE

__all__ = [
    "MistakeInfo",
    "MISTAKES",
    "RULES",
    "KIND_MISTAKES",
    "mistake_info",
    "kappa_of",
    "alpha_of",
    "r3",
    "final_steps",
    "sum_over",
    "fleiss_rounded",
    "pooled_chance",
    "route_cohen",
    "route_pi",
    "route_ac1",
    "disagreement",
    "from_matrix",
    "renamed",
]


@dataclass(frozen=True)
class MistakeInfo:
    """One usual mistake: what it is, the step where it happens, how to avoid it."""

    id: str
    name: str
    step: str
    advice: str


_WORDS = load(Path(__file__).parent.parent / "content" / "mistakes.toml")
#: Each kind's own data file (``exercises/kinds/<kind>.toml``): its mistakes and their words.
_KIND_DATA = {
    kind: load(Path(__file__).parent / "_kinds" / f"{kind}.toml")
    # the order their mistakes were listed in before kinds were modules (an error message names them)
    for kind in dict.fromkeys(
        ("cohen", "weighted", "fleiss", "partial", "alpha", "pi", "ac1", *PRACTICE["kinds"])
    )
}

#: The catalogue of recognised mistakes, by id (``content/mistakes.toml``). ``name`` reads after "this is
#: what you get if you ...": a number that matches a mistake is what the mistake gives, never proof that
#: the student made it.
MISTAKES: dict[str, MistakeInfo] = {
    mid: MistakeInfo(mid, **words) for mid, words in _WORDS.items() if mid != "rules"
}
for _data in _KIND_DATA.values():  # a kind's own mistakes, in its data file's [own_mistakes]
    MISTAKES.update({mid: MistakeInfo(mid, **words) for mid, words in _data.get("own_mistakes", {}).items()})
#: Other chance rules: where a part asks for one rule, the other's value is told apart, never called a
#: mistake.
#: ``name`` reads after "what you get ..."; ``step`` names the rule the part asks for instead.
RULES: dict[str, MistakeInfo] = {mid: MistakeInfo(mid, **words) for mid, words in _WORDS["rules"].items()}
#: The mistakes each kind of question checks for (a mistake that makes no difference on a
#: table, such as counting single values where there are none, is left out there).
KIND_MISTAKES = {kind: tuple(data["mistakes"]) for kind, data in _KIND_DATA.items()}


def mistake_info(kind: str, id: str) -> MistakeInfo:
    """The catalogue entry of mistake ``id`` as it reads in a question of ``kind``."""
    check_option("kind", kind, KIND_MISTAKES)
    check_option("id", id, MISTAKES)
    own = _KIND_DATA[kind].get("mistakes_words", {}).get(id, {})
    return replace(MISTAKES[id], **own)


# ------------------------------------------------------------------ helpers
def kappa_of(p_o: Fraction, p_e: Fraction) -> Fraction | None:
    """(P_o - P_e) / (1 - P_e) of exact values (:func:`iaa_teach._formulas.chance_corrected`);
    None where P_e = 1."""
    return chance_corrected(p_o, p_e).item()


def alpha_of(d_o: Fraction, d_e: Fraction) -> Fraction | None:
    """1 - D_o / D_e of exact values (:func:`iaa_teach._formulas.one_minus_ratio`); None where D_e = 0."""
    return one_minus_ratio(d_o, d_e).item()


def r3(x: Fraction) -> Fraction:
    return round_half_up(x, 3)


def final_steps(
    p_o: Fraction,
    p_e: Fraction,
    o_name: str,
    rounded_p_o: Fraction,
    rounded_p_e: Fraction,
    coefficient: str = "kappa",
):
    """The slips in the last step (the value of ``coefficient``): rounded intermediates (two ways), and
    percentages.

    ``rounding``: P_o and P_e rounded to 3 decimals before the last step.
    ``rounding:all``: every value on the way rounded as it is written down
    (marginals or P_i and p_j, then P_o and P_e), as worked-example.txt does
    to get 0.563 for 31/55.
    """
    r2 = lambda x: round_half_up(x, 2)  # noqa: E731
    return {
        "rounding": {coefficient: kappa_of(r3(p_o), r3(p_e))},
        "early_rounding": {coefficient: kappa_of(r2(p_o), r2(p_e))},
        "swapped": {coefficient: kappa_of(p_e, p_o)},
        "percent_agreement": {coefficient: p_o},
        "rounding:all": {
            o_name: rounded_p_o,
            "p_e": rounded_p_e,
            coefficient: kappa_of(rounded_p_o, rounded_p_e),
        },
        "percentages": {coefficient: kappa_of(100 * p_o, 100 * p_e)},
    }


def sum_over(numerators: np.ndarray, denominators: np.ndarray) -> Fraction:
    """sum_i numerators[i] / denominators[i], exactly.

    One step per distinct (numerator, denominator) pair, not per item.
    """
    pairs, times = np.unique(
        np.column_stack([numerators, denominators]).astype(np.int64), axis=0, return_counts=True
    )
    return sum((t * Fraction(num, den) for (num, den), t in zip(pairs.tolist(), times.tolist())), Fraction(0))


def fleiss_rounded(exact) -> tuple[Fraction, Fraction]:
    """Fleiss' P_i (of the items with a pair of labels) and p_j rounded to 3 decimals, then P_a and P_e
    (each rounded) from them."""
    p_i = [r3(x) for x in exact.p_i if x is not None]
    return r3(sum(p_i, Fraction(0)) / len(p_i)), r3(sum((r3(p) ** 2 for p in exact.p_j), Fraction(0)))


def pooled_chance(cohen) -> Fraction:
    """Scott's chance agreement of two raters from their Cohen's kappa's exact marginals: sum_j p_j^2, p_j
    pooled."""
    return sum((((a + b) / 2) ** 2 for a, b in zip(cohen.row_marginals, cohen.col_marginals)), Fraction(0))


# ------------------------------------------------------------------- routes
def route_cohen(r: Ratings, exact, weights: str | None = None) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Cohen's kappa (unweighted or weighted) between the first two raters."""
    agree, rows, cols = exact.agreement_weights, exact.row_marginals, exact.col_marginals
    k = len(rows)

    def chance(p_a, p_b):  # from the two annotators' proportions: sum_ij w_ij p_a[i] p_b[j]
        return sum((agree[i][j] * p_a[i] * p_b[j] for i in range(k) for j in range(k)), Fraction(0))

    # rounding: marginals, P_o and P_e written to 3 decimals on the way
    p_e_3 = r3(chance([r3(x) for x in rows], [r3(x) for x in cols]))
    routes = final_steps(exact.p_o, exact.p_e, "p_o", r3(exact.p_o), p_e_3)
    both = (r.codes[:, 0] >= 0) & (r.codes[:, 1] >= 0)
    if not both.all():  # an item one annotator left blank
        # counted as a disagreement: P_o over all the items
        p_o = exact.p_o * int(both.sum()) / r.n_items
        routes["missing_as_disagreement"] = {"p_o": p_o, "kappa": kappa_of(p_o, exact.p_e)}
        # each annotator's marginals from all the labels they gave, the other's blanks included
        own = [np.bincount(r.codes[r.codes[:, j] >= 0, j], minlength=k) for j in (0, 1)]
        p_e = chance(*([Fraction(int(c), int(counts.sum())) for c in counts] for counts in own))
        routes["unshared_marginals"] = {"p_e": p_e, "kappa": kappa_of(exact.p_o, p_e)}
    if weights is None:
        p_e = pooled_chance(exact)
        routes["pooled_marginals"] = {"p_e": p_e, "kappa": kappa_of(exact.p_o, p_e)}
        routes["uniform_chance"] = {"p_e": Fraction(1, k), "kappa": kappa_of(exact.p_o, Fraction(1, k))}
    else:
        other = cohen_kappa(r, 0, 1, weights="linear" if weights == "quadratic" else "quadratic").exact
        for mid, ex in (("unweighted", cohen_kappa(r, 0, 1).exact), ("other_weights", other)):
            routes[mid] = {"p_o": ex.p_o, "p_e": ex.p_e, "kappa": ex.kappa}
    return routes


def route_pi(r: Ratings, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Scott's pi of two raters on a complete table."""
    cohen = cohen_kappa(r, 0, 1).exact
    k = len(exact.p_k)
    routes = {
        "cohen_marginals": {"p_e": cohen.p_e, "pi": cohen.kappa},
        "uniform_chance": {"p_e": Fraction(1, k), "pi": kappa_of(exact.p_a, Fraction(1, k))},
    }
    p_e_3 = r3(sum((r3(p) ** 2 for p in exact.p_k), Fraction(0)))
    return {**routes, **final_steps(exact.p_a, exact.p_e, "p_o", r3(exact.p_a), p_e_3, "pi")}


def route_ac1(r: Ratings, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Gwet's AC1 of two raters on a complete table."""
    p, k = exact.p_k, len(exact.p_k)
    kappa_style = sum((x * x for x in p), Fraction(0))
    no_q = sum((x * (1 - x) for x in p), Fraction(0))
    routes = {
        "kappa_chance": {"p_e": kappa_style, "ac1": kappa_of(exact.p_a, kappa_style)},
        "no_q_minus_1": {"p_e": no_q, "ac1": kappa_of(exact.p_a, no_q)},
        "uniform_chance": {"p_e": Fraction(1, k), "ac1": kappa_of(exact.p_a, Fraction(1, k))},
    }
    if k == 2:  # with two categories 1 / (q - 1) = 1: leaving it out is the same formula, not a mistake
        del routes["no_q_minus_1"]
    p_3 = [r3(x) for x in p]
    p_e_3 = r3(sum((x * (1 - x) for x in p_3), Fraction(0)) / (k - 1))
    return {**routes, **final_steps(exact.p_a, exact.p_e, "p_o", r3(exact.p_a), p_e_3, "ac1")}


def disagreement(offdiag: Fraction, n_c) -> dict[str, Fraction]:
    """n, D_o, D_e and alpha (Krippendorff, nominal) from a coincidence matrix's off-diagonal total and row
    totals."""
    n = sum(n_c, Fraction(0))
    d_o = offdiag / n
    d_e = (n * n - sum((c * c for c in n_c), Fraction(0))) / (n * (n - 1))
    return {"n": n, "d_o": d_o, "d_e": d_e, "alpha": alpha_of(d_o, d_e)}


def from_matrix(o: np.ndarray) -> dict[str, Fraction]:
    """:func:`disagreement` of a coincidence matrix (exact values in an object array)."""
    return disagreement(o.sum() - np.trace(o), list(o.sum(axis=1)))


def renamed(routes: dict, names: dict) -> dict:
    """Routes with their quantities renamed (``names``: old -> new); a quantity not in ``names`` is left
    out."""
    out = {}
    for key, values in routes.items():
        kept = {names[q]: v for q, v in values.items() if q in names}
        if kept:
            out[key] = kept
    return out
