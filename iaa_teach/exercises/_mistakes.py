"""The usual mistakes, recomputed on purpose.

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
here, small and vectorized over the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from .._formulas import chance_corrected, one_minus_ratio
from .._validation import check_option
from ..metrics import cohen_kappa, fleiss_kappa, pairwise_cohen, scott_pi
from ..ratings import Ratings
from ..rounding import round_half_up
from ._concepts import load
from ._generate import KINDS

__all__ = [
    "MistakeInfo",
    "MISTAKES",
    "RULES",
    "KIND_MISTAKES",
    "ROUTES",
    "mistake_info",
    "route_dropout",
    "route_second_rule",
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
_KIND_DATA = {kind: load(Path(__file__).parent / "kinds" / f"{kind}.toml") for kind in KINDS}

#: The catalogue of recognised mistakes, by id (``content/mistakes.toml``). ``name`` reads after "this is
#: what you get if you ...": a number that matches a mistake is what the mistake gives, never proof that
#: the student made it.
MISTAKES: dict[str, MistakeInfo] = {
    mid: MistakeInfo(mid, **words) for mid, words in _WORDS.items() if mid != "rules"
}
#: Other chance rules: where a part asks for one rule, the other's value is told apart, never called a mistake.
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
def _kappa(p_o: Fraction, p_e: Fraction) -> Fraction | None:
    """(P_o - P_e) / (1 - P_e) of exact values (:func:`iaa_teach._formulas.chance_corrected`); None where P_e = 1."""
    return chance_corrected(p_o, p_e).item()


def _alpha(d_o: Fraction, d_e: Fraction) -> Fraction | None:
    """1 - D_o / D_e of exact values (:func:`iaa_teach._formulas.one_minus_ratio`); None where D_e = 0."""
    return one_minus_ratio(d_o, d_e).item()


def _r3(x: Fraction) -> Fraction:
    return round_half_up(x, 3)


def _final_steps(
    p_o: Fraction,
    p_e: Fraction,
    o_name: str,
    rounded_p_o: Fraction,
    rounded_p_e: Fraction,
    coefficient: str = "kappa",
):
    """The slips in the last step (the value of ``coefficient``): rounded intermediates (two ways), and percentages.

    ``rounding``: P_o and P_e rounded to 3 decimals before the last step.
    ``rounding:all``: every value on the way rounded as it is written down
    (marginals or P_i and p_j, then P_o and P_e), as worked-example.txt does
    to get 0.563 for 31/55.
    """
    r2 = lambda x: round_half_up(x, 2)  # noqa: E731
    return {
        "rounding": {coefficient: _kappa(_r3(p_o), _r3(p_e))},
        "early_rounding": {coefficient: _kappa(r2(p_o), r2(p_e))},
        "swapped": {coefficient: _kappa(p_e, p_o)},
        "percent_agreement": {coefficient: p_o},
        "rounding:all": {
            o_name: rounded_p_o,
            "p_e": rounded_p_e,
            coefficient: _kappa(rounded_p_o, rounded_p_e),
        },
        "percentages": {coefficient: _kappa(100 * p_o, 100 * p_e)},
    }


def _sum_over(numerators: np.ndarray, denominators: np.ndarray) -> Fraction:
    """sum_i numerators[i] / denominators[i], exactly.

    One step per distinct (numerator, denominator) pair, not per item.
    """
    pairs, times = np.unique(
        np.column_stack([numerators, denominators]).astype(np.int64), axis=0, return_counts=True
    )
    return sum((t * Fraction(num, den) for (num, den), t in zip(pairs.tolist(), times.tolist())), Fraction(0))


def _fleiss_rounded(exact) -> tuple[Fraction, Fraction]:
    """Fleiss' P_i (of the items with a pair of labels) and p_j rounded to 3 decimals, then P_a and P_e
    (each rounded) from them."""
    p_i = [_r3(x) for x in exact.p_i if x is not None]
    return _r3(sum(p_i, Fraction(0)) / len(p_i)), _r3(sum((_r3(p) ** 2 for p in exact.p_j), Fraction(0)))


def _pooled_chance(cohen) -> Fraction:
    """Scott's chance agreement of two raters from their Cohen's kappa's exact marginals: sum_j p_j^2, p_j pooled."""
    return sum((((a + b) / 2) ** 2 for a, b in zip(cohen.row_marginals, cohen.col_marginals)), Fraction(0))


# ------------------------------------------------------------------- routes
def route_cohen(r: Ratings, exact, weights: str | None = None) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Cohen's kappa (unweighted or weighted) between the first two raters."""
    agree, rows, cols = exact.agreement_weights, exact.row_marginals, exact.col_marginals
    k = len(rows)

    def chance(p_a, p_b):  # from the two annotators' proportions: sum_ij w_ij p_a[i] p_b[j]
        return sum((agree[i][j] * p_a[i] * p_b[j] for i in range(k) for j in range(k)), Fraction(0))

    # rounding: marginals, P_o and P_e written to 3 decimals on the way
    p_e_3 = _r3(chance([_r3(x) for x in rows], [_r3(x) for x in cols]))
    routes = _final_steps(exact.p_o, exact.p_e, "p_o", _r3(exact.p_o), p_e_3)
    both = (r.codes[:, 0] >= 0) & (r.codes[:, 1] >= 0)
    if not both.all():  # an item one annotator left blank
        # counted as a disagreement: P_o over all the items
        p_o = exact.p_o * int(both.sum()) / r.n_items
        routes["missing_as_disagreement"] = {"p_o": p_o, "kappa": _kappa(p_o, exact.p_e)}
        # each annotator's marginals from all the labels they gave, the other's blanks included
        own = [np.bincount(r.codes[r.codes[:, j] >= 0, j], minlength=k) for j in (0, 1)]
        p_e = chance(*([Fraction(int(c), int(counts.sum())) for c in counts] for counts in own))
        routes["unshared_marginals"] = {"p_e": p_e, "kappa": _kappa(exact.p_o, p_e)}
    if weights is None:
        p_e = _pooled_chance(exact)
        routes["pooled_marginals"] = {"p_e": p_e, "kappa": _kappa(exact.p_o, p_e)}
        routes["uniform_chance"] = {"p_e": Fraction(1, k), "kappa": _kappa(exact.p_o, Fraction(1, k))}
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
        "uniform_chance": {"p_e": Fraction(1, k), "pi": _kappa(exact.p_a, Fraction(1, k))},
    }
    p_e_3 = _r3(sum((_r3(p) ** 2 for p in exact.p_k), Fraction(0)))
    return {**routes, **_final_steps(exact.p_a, exact.p_e, "p_o", _r3(exact.p_a), p_e_3, "pi")}


def route_ac1(r: Ratings, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Gwet's AC1 of two raters on a complete table."""
    p, k = exact.p_k, len(exact.p_k)
    kappa_style = sum((x * x for x in p), Fraction(0))
    no_q = sum((x * (1 - x) for x in p), Fraction(0))
    routes = {
        "kappa_chance": {"p_e": kappa_style, "ac1": _kappa(exact.p_a, kappa_style)},
        "no_q_minus_1": {"p_e": no_q, "ac1": _kappa(exact.p_a, no_q)},
        "uniform_chance": {"p_e": Fraction(1, k), "ac1": _kappa(exact.p_a, Fraction(1, k))},
    }
    if k == 2:  # with two categories 1 / (q - 1) = 1: leaving it out is the same formula, not a mistake
        del routes["no_q_minus_1"]
    p_3 = [_r3(x) for x in p]
    p_e_3 = _r3(sum((x * (1 - x) for x in p_3), Fraction(0)) / (k - 1))
    return {**routes, **_final_steps(exact.p_a, exact.p_e, "p_o", _r3(exact.p_a), p_e_3, "ac1")}


def route_fleiss(r: Ratings, exact) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Fleiss' kappa on a complete table."""
    counts = r.counts().astype(np.int64)
    m = r.n_raters
    p_a = Fraction(int((counts * counts).sum()), counts.shape[0] * m * (m - 1))
    routes = {"self_pairs": {"p_a": p_a, "kappa": _kappa(p_a, exact.p_e)}}
    p_a = Fraction(int((counts * counts).sum()), counts.shape[0] * m * m)
    routes["n_squared_pairs"] = {"p_a": p_a, "kappa": _kappa(p_a, exact.p_e)}
    pairs = pairwise_cohen(r).results
    # Cohen-style chance: each rater's own proportions, sum_j p_aj p_bj averaged over rater pairs
    p_e = sum((res.exact.p_e for res in pairs), Fraction(0)) / len(pairs)
    routes["cohen_marginals"] = {"p_e": p_e, "kappa": _kappa(exact.p_a, p_e)}
    # chance from the first two raters' labels only, pooled
    p_e = _pooled_chance(pairs[0].exact)
    routes["subset_chance"] = {"p_e": p_e, "kappa": _kappa(exact.p_a, p_e)}
    # the mean of the pairwise Cohen's kappas
    if all(res.defined for res in pairs):
        routes["pairwise_mean"] = {"kappa": sum((res.exact.kappa for res in pairs), Fraction(0)) / len(pairs)}
    routes.update(_final_steps(exact.p_a, exact.p_e, "p_a", *_fleiss_rounded(exact)))
    return routes


def _chance_of(counts: np.ndarray, chance: str) -> Fraction:
    """P_e = sum_j p_j^2 of a count table (items x categories), p_j pooled over the labels or,
    with ``chance="item_mean"``, the mean over the rated items of n_ij / n_i (exact, no variance:
    the wrong routes need many of them)."""
    counts = counts[counts.sum(axis=1) > 0]
    if chance == "pooled":
        total = int(counts.sum())
        p = [Fraction(int(c), total) for c in counts.sum(axis=0)]
    else:
        p = [_sum_over(counts[:, j], counts.sum(axis=1)) / len(counts) for j in range(counts.shape[1])]
    return sum((x * x for x in p), Fraction(0))


def route_partial(r: Ratings, exact, chance: str = "pooled") -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Fleiss' kappa with annotators covering different items, under the ``chance`` rule asked.

    The other chance rule's values come as ``rule_item_mean`` or ``rule_pooled``
    (a rule in use, not a mistake); the mistakes in P_e follow the rule asked.
    """
    counts = r.counts().astype(np.int64)
    n_items, big_k = counts.shape[0], r.n_raters
    m = counts.sum(axis=1)
    squares = (counts * counts).sum(axis=1)
    label_counts = counts.sum(axis=0)
    routes = {}
    used = m >= 2
    n_used = int(used.sum())

    def with_p_a(p_a):
        return {"p_a": p_a, "kappa": _kappa(p_a, exact.p_e)}

    def with_p_e(p_e, **more):
        return {**more, "p_e": p_e, "kappa": _kappa(exact.p_a, p_e)}

    routes["global_k"] = with_p_a(Fraction(int((squares[used] - big_k).sum()), big_k * (big_k - 1)) / n_used)
    routes["self_pairs"] = with_p_a(_sum_over(squares[used], m[used] * (m[used] - 1)) / n_used)
    routes["single_in_p_a"] = with_p_a(exact.p_a * n_used / n_items)
    routes["single_as_agreement"] = with_p_a((exact.p_a * n_used + (n_items - n_used)) / n_items)
    routes["n_squared_pairs"] = with_p_a(_sum_over(squares[used], m[used] * m[used]) / n_used)
    cells = Fraction(n_items * big_k)
    if chance == "pooled":
        routes["global_total"] = with_p_e(int((label_counts * label_counts).sum()) / cells**2, n_labels=cells)
    else:
        routes["global_total"] = {"n_labels": cells}
    routes["single_out_of_p_e"] = with_p_e(_chance_of(counts[used], chance))
    # chance from the annotators who were meant to label every item (all but the last two)
    full = r.subset(raters=list(r.raters[:-2])).counts().astype(np.int64)
    if (full.sum(axis=1) >= 2).any():
        routes["subset_chance"] = with_p_e(_chance_of(full, chance))
    other = "item_mean" if chance == "pooled" else "pooled"
    routes[f"rule_{other}"] = with_p_e(_chance_of(counts, other))
    # the last two annotators merged into one column, keeping either one's label where both labelled an item
    first, second = r.raters[-2], r.raters[-1]
    for keep in (first, second):
        merged = fleiss_kappa(r.merge_raters(first, second, keep=keep, name=first + second), chance=chance)
        routes[f"merged:{keep}"] = {
            "p_a": merged.exact.p_a,
            "n_labels": Fraction(merged.n_ratings),
            "p_e": merged.exact.p_e,
            "kappa": merged.exact.kappa,
        }
    routes.update(_final_steps(exact.p_a, exact.p_e, "p_a", *_fleiss_rounded(exact)))
    if chance != "pooled":
        del routes["rounding:all"]  # every value rounded on the way: checked under the pooled rule only
    return routes


def _disagreement(offdiag: Fraction, n_c) -> dict[str, Fraction]:
    """n, D_o, D_e and alpha (Krippendorff, nominal) from a coincidence matrix's off-diagonal total and row totals."""
    n = sum(n_c, Fraction(0))
    d_o = offdiag / n
    d_e = (n * n - sum((c * c for c in n_c), Fraction(0))) / (n * (n - 1))
    return {"n": n, "d_o": d_o, "d_e": d_e, "alpha": _alpha(d_o, d_e)}


def _from_matrix(o: np.ndarray) -> dict[str, Fraction]:
    """:func:`_disagreement` of a coincidence matrix (exact values in an object array)."""
    return _disagreement(o.sum() - np.trace(o), list(o.sum(axis=1)))


def route_alpha(r: Ratings, exact) -> dict[str, dict[str, Fraction]]:
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
    unweighted = _from_matrix(unweighted_pairs)
    routes = {"unweighted_pairs": unweighted}
    # D_e as 1 - sum p_c^2 (Fleiss' chance term)
    d_e = 1 - sum((c / n) ** 2 for c in exact.n_c)
    routes["fleiss_de"] = {"d_e": d_e, "alpha": _alpha(exact.d_o, d_e)}
    # the code text: both of the above
    d_e = 1 - sum((c / unweighted["n"]) ** 2 for c in unweighted_pairs.sum(axis=1))
    routes["text_route"] = {"d_e": d_e, "alpha": _alpha(unweighted["d_o"], d_e)}
    # single-rated units' values counted as pairable
    routes["unpairable_values"] = _disagreement(offdiag, [Fraction(int(x)) for x in counts.sum(axis=0)])
    # self-pairs kept: each unit adds n_uc^2 / (m_u - 1) on the diagonal instead of n_uc (n_uc - 1) / (m_u - 1)
    extra = [_sum_over(counts[used, j], m[used] - 1) for j in range(counts.shape[1])]
    routes["self_pairs"] = _disagreement(offdiag, [a + b for a, b in zip(exact.n_c, extra)])
    # the number of chance pairs off by one: n (n + 1) or (n - 1)^2 instead of n (n - 1)
    spread = n * n - sum((c * c for c in exact.n_c), Fraction(0))
    for mid, pairs_count in (("de_n_plus_1", n * (n + 1)), ("de_n_minus_1_squared", (n - 1) ** 2)):
        d_e = spread / pairs_count
        routes[mid] = {"d_e": d_e, "alpha": _alpha(exact.d_o, d_e)}
    # each unit's pairs weighted by 1 / m_u: the matrix adds up to sum (m_u - 1)
    by_size = [pairs(counts[m == size]) / size for size in np.unique(m[used]).tolist()]
    routes["pairs_over_m"] = _from_matrix(sum(by_size))
    routes["alpha_as_fleiss"] = {"alpha": fleiss_kappa(r).exact.kappa}
    routes["rounding"] = {"alpha": _alpha(_r3(exact.d_o), _r3(exact.d_e))}
    routes["early_rounding"] = {"alpha": _alpha(round_half_up(exact.d_o, 2), round_half_up(exact.d_e, 2))}
    routes["swapped"] = {"alpha": _alpha(exact.d_e, exact.d_o)}
    routes["percent_agreement"] = {"alpha": 1 - exact.d_o}
    # the coincidences written to 3 decimals, then D_o and D_e
    rounded = _from_matrix(np.array([[_r3(x) for x in row] for row in exact.coincidences], dtype=object))
    d_o_3, d_e_3 = _r3(rounded["d_o"]), _r3(rounded["d_e"])
    routes["rounding:all"] = {"d_o": d_o_3, "d_e": d_e_3, "alpha": _alpha(d_o_3, d_e_3)}
    return routes


def _renamed(routes: dict, names: dict) -> dict:
    """Routes with their quantities renamed (``names``: old -> new); a quantity not in ``names`` is left out."""
    out = {}
    for key, values in routes.items():
        kept = {names[q]: v for q, v in values.items() if q in names}
        if kept:
            out[key] = kept
    return out


def route_dropout(
    kind: str, r: Ratings, dropped: Ratings, last: int, weights: str | None = None
) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for a level-4 question's partial coverage: ``dropped`` is the table once an annotator
    stopped after the first ``last`` items. Two annotators: P_o' (``p_o_part``) on the items both then
    labelled; more: P_a' (``p_a_part``) with each item's own n_i."""
    if kind in ("cohen", "weighted", "pi", "ac1"):
        whole = cohen_kappa(r, 0, 1, weights=weights).exact.p_o
        routes = _renamed(
            {
                "missing_as_disagreement": route_cohen(
                    dropped, cohen_kappa(dropped, 0, 1, weights=weights).exact, weights
                )["missing_as_disagreement"]
            },
            {"p_o": "p_o_part"},
        )
        return {**routes, "dropout_ignored": {"p_o_part": whole}}
    exact = fleiss_kappa(dropped).exact
    routes = _renamed(
        {
            mid: v
            for mid, v in route_partial(dropped, exact).items()
            if mid in ("global_k", "self_pairs", "n_squared_pairs")
        },
        {"p_a": "p_a_part"},
    )
    routes["dropout_ignored"] = {"p_a_part": fleiss_kappa(r).exact.p_a}
    routes["dropout_items_dropped"] = {"p_a_part": fleiss_kappa(r.subset(items=list(range(last)))).exact.p_a}
    return routes


def route_second_rule(
    kind: str, r: Ratings, exact, weights: str | None = None
) -> dict[str, dict[str, Fraction]]:
    """Wrong routes for a level-4 question's second chance rule (``exact``: that rule's own exact result;
    for alpha, alpha's): Scott's pooled P_e (``p_e_pi``, ``pi``) for cohen, weighted and ac1; Cohen's own
    marginals (``p_e_kappa``, ``kappa``) for pi; Gwet's AC1 (``p_e_ac1``, ``ac1``) for fleiss; alpha's
    D_e with replacement (``d_e_repl``, ``alpha_repl``)."""
    if kind == "cohen" or kind == "ac1":
        return _renamed(route_pi(r, exact), {"p_e": "p_e_pi", "pi": "pi"})
    if kind == "pi":
        return _renamed(route_cohen(r, exact), {"p_e": "p_e_kappa", "kappa": "kappa"})
    if kind == "fleiss":
        return _renamed(route_ac1(r, exact), {"p_e": "p_e_ac1", "ac1": "ac1"})
    if kind == "weighted":
        routes = {}
        other = "quadratic" if weights == "linear" else "linear"
        for mid, w in (("unweighted", None), ("other_weights", other)):
            ex = scott_pi(r, 0, 1, weights=w).exact
            routes[mid] = {"p_e_pi": ex.p_e, "pi": ex.pi}
        own = cohen_kappa(r, 0, 1, weights=weights).exact
        routes["cohen_marginals"] = {"p_e_pi": own.p_e, "pi": own.kappa}
        final = _final_steps(exact.p_a, exact.p_e, "p_o", _r3(exact.p_a), _r3(exact.p_e), "pi")
        del final["rounding:all"]
        return {**routes, **final}
    # alpha: D_e with replacement, 1 - sum_c (n_c / n)^2, from the right matrix or a usual wrong one
    n, d_o = exact.n, exact.d_o
    d_e = 1 - sum((c / n) ** 2 for c in exact.n_c)
    wrong = route_alpha(r, exact)
    counts = r.counts().astype(np.int64).sum(axis=0)
    total = int(counts.sum())
    single = 1 - sum((Fraction(int(c), total)) ** 2 for c in counts)
    return {
        "unweighted_pairs": {
            "d_e_repl": wrong["text_route"]["d_e"],
            "alpha_repl": wrong["text_route"]["alpha"],
        },
        "unpairable_values": {
            "d_e_repl": single,
            "alpha_repl": _alpha(wrong["unpairable_values"]["d_o"], single),
        },
        "rounding": {"alpha_repl": _alpha(_r3(d_o), _r3(d_e))},
        "early_rounding": {"alpha_repl": _alpha(round_half_up(d_o, 2), round_half_up(d_e, 2))},
        "swapped": {"alpha_repl": _alpha(d_e, d_o)},
        "percent_agreement": {"alpha_repl": 1 - d_o},
    }


ROUTES = {
    "cohen": route_cohen,
    "weighted": route_cohen,
    "fleiss": route_fleiss,
    "partial": route_partial,
    "alpha": route_alpha,
    "pi": route_pi,
    "ac1": route_ac1,
}
