"""Fleiss' kappa with partial annotation: annotators who cover different items, single-rated items, and
the chance rule the question names (pooled, the course notes' item-mean rule, or both)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from ..._markup import Prose, prose
from ...metrics import fleiss_kappa
from ...worked import Explanation, Step, explain
from .._concepts import merging, rules_differ
from .._kind import WORDS, Kind, names
from .._mistakes import final_steps, fleiss_rounded, kappa_of, sum_over


def chance_of(counts: np.ndarray, chance: str) -> Fraction:
    """P_e = sum_j p_j^2 of a count table (items x categories), p_j pooled over the labels or,
    with ``chance="item_mean"``, the mean over the rated items of n_ij / n_i (exact, no variance:
    the wrong routes need many of them)."""
    counts = counts[counts.sum(axis=1) > 0]
    if chance == "pooled":
        total = int(counts.sum())
        p = [Fraction(int(c), total) for c in counts.sum(axis=0)]
    else:
        p = [sum_over(counts[:, j], counts.sum(axis=1)) / len(counts) for j in range(counts.shape[1])]
    return sum((x * x for x in p), Fraction(0))


def route_partial(r, exact, chance: str = "pooled") -> dict[str, dict[str, Fraction]]:
    """Wrong routes for Fleiss' kappa with annotators covering different items, under the ``chance`` rule
    asked.

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
        return {"p_a": p_a, "kappa": kappa_of(p_a, exact.p_e)}

    def with_p_e(p_e, **more):
        return {**more, "p_e": p_e, "kappa": kappa_of(exact.p_a, p_e)}

    routes["global_k"] = with_p_a(Fraction(int((squares[used] - big_k).sum()), big_k * (big_k - 1)) / n_used)
    routes["self_pairs"] = with_p_a(sum_over(squares[used], m[used] * (m[used] - 1)) / n_used)
    routes["single_in_p_a"] = with_p_a(exact.p_a * n_used / n_items)
    routes["single_as_agreement"] = with_p_a((exact.p_a * n_used + (n_items - n_used)) / n_items)
    routes["n_squared_pairs"] = with_p_a(sum_over(squares[used], m[used] * m[used]) / n_used)
    cells = Fraction(n_items * big_k)
    if chance == "pooled":
        routes["global_total"] = with_p_e(int((label_counts * label_counts).sum()) / cells**2, n_labels=cells)
    else:
        routes["global_total"] = {"n_labels": cells}
    routes["single_out_of_p_e"] = with_p_e(chance_of(counts[used], chance))
    # chance from the annotators who were meant to label every item (all but the last two)
    full = r.subset(raters=list(r.raters[:-2])).counts().astype(np.int64)
    if (full.sum(axis=1) >= 2).any():
        routes["subset_chance"] = with_p_e(chance_of(full, chance))
    other = "item_mean" if chance == "pooled" else "pooled"
    routes[f"rule_{other}"] = with_p_e(chance_of(counts, other))
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
    routes.update(final_steps(exact.p_a, exact.p_e, "p_a", *fleiss_rounded(exact)))
    if chance != "pooled":
        del routes["rounding:all"]  # every value rounded on the way: checked under the pooled rule only
    return routes


def coverage(r) -> str:
    """Which items each annotator labelled: ``A labelled every item except item 2, D only items 4-10,
    ...``."""
    said = []
    for j, rater in enumerate(r.raters):
        rows = [i for i in range(r.n_items) if r.codes[i, j] >= 0]
        if len(rows) == r.n_items:
            said.append(f"{rater}, every item")
        elif rows == list(range(rows[0], rows[-1] + 1)) and (rows[0] > 0 or len(rows) < r.n_items - 2):
            said.append(f"{rater}, only items {r.items[rows[0]]}-{r.items[rows[-1]]}")
        else:
            skipped = [str(r.items[i]) for i in range(r.n_items) if i not in rows]
            said.append(f"{rater}, every item except item{'s' if len(skipped) > 1 else ''} {names(skipped)}")
    return "Not every annotator labelled every item. Items labelled: " + "; ".join(said)


class Partial(Kind):
    name = "partial"
    rules = ("pooled", "item_mean", "both")

    def gaps(self, rng, present, level, missing):
        # the last two annotators cover item ranges: the first of them a tail (from item >= 3),
        # the second a head (possibly every item, as E in the partial-annotation text)
        n = present.shape[0]
        start = int(rng.integers(2, n // 2 + 1))  # 0-based first item of the tail
        end = n if rng.random() < 0.4 else int(rng.integers(n // 2 + 1, n))  # head ends before item `end`
        present[:start, -2] = False
        present[end:, -1] = False
        m = present.shape[1]
        raters = [chr(ord("A") + j) for j in range(m)]
        # single-rated items: some items before the tail that only the head annotator labelled
        n_single = 1 if level < 3 else int(rng.integers(1, 3))
        single = rng.choice(start, size=min(n_single, start - 1), replace=False)
        present[single, :-2] = False
        return {raters[-2]: (start + 1, n), raters[-1]: (1, end)}

    def fit(self, r):
        # the merge must matter: the two partial annotators disagree on a shared item
        codes = r.codes
        both = (codes[:, -2] >= 0) & (codes[:, -1] >= 0)
        return bool((codes[both, -2] != codes[both, -1]).any())

    def setting(self, q):
        return WORDS["setting"]["coverage"].format(coverage=coverage(q.ratings))

    def result(self, r, weights, chance):
        return fleiss_kappa(r, chance="item_mean" if chance == "item_mean" else "pooled")

    def values(self, result, plan, r):
        ex = result.exact
        if plan.chance == "both":
            other = fleiss_kappa(r, chance="item_mean").exact
            return {
                "p_a": ex.p_a,
                "p_e": ex.p_e,
                "kappa": ex.kappa,
                "p_e_mlrd": other.p_e,
                "kappa_mlrd": other.kappa,
            }
        return {"p_a": ex.p_a, "n_labels": Fraction(result.n_ratings), "p_e": ex.p_e, "kappa": ex.kappa}

    def routes(self, r, result, weights, plan):
        if plan.chance != "both":
            return route_partial(r, result.exact, plan.chance)
        routes = route_partial(r, result.exact, "pooled")
        mlrd = route_partial(r, fleiss_kappa(r, chance="item_mean").exact, "item_mean")
        for key, values in mlrd.items():
            routes.setdefault(key, {}).update(
                {f"{q}_mlrd": v for q, v in values.items() if q in ("p_e", "kappa")}
            )
        return routes

    def tripos_values(self, r, result, weights):
        return {}, {}

    def ft_terms(self, result, plan):
        if plan.chance != "pooled":
            return {}
        n = Fraction(result.n_ratings)
        return {"p_e": (result.exact.p_e * n * n,)}

    def method(self, quantity, chance, r):
        words = self.data["parts"]["p_e"]
        if quantity == "p_e":
            return words["item_mean_method" if chance == "item_mean" else "pooled_method"]
        return super().method(quantity, chance, r)

    def build(self, b):
        words, rules = self.data["parts"], self.data["rules"]
        b.ask("p_a")
        if b.plan.chance == "both":
            both = words["both"]
            b.number(
                "p_e", prose(both["p_e"].replace("{rule}", rules["pooled"])), words["p_e"]["pooled_hint"]
            )
            marks = 2 if b.plan.tripos else 1
            b.number("kappa", prose(both["kappa"]), words["kappa"]["hint"], marks=marks)
            if b.plan.tripos:
                b.section = "Chance rules"
            mlrd = prose(both["p_e_mlrd"].replace("{rule}", rules["item_mean"]))
            b.number("p_e_mlrd", mlrd, words["p_e"]["item_mean_hint"])
            b.number("kappa_mlrd", prose(both["kappa_mlrd"]), words["kappa"]["hint"], marks=1)
            b.concept(rules_differ())
            if b.plan.tripos:
                b.design()
            return
        b.ask("n_labels")
        rule = b.plan.chance
        prompts = [p.replace("{rule}", rules[rule]) for p in words["p_e"]["prompt"]]
        b.ask("p_e", {"prompt": prompts, "hint": words["p_e"][f"{rule}_hint"]})
        b.ask("kappa")
        if b.plan.concept == "dropout" and rule == "pooled":
            self.extra(b)
        else:
            b.concept(merging(b.r.raters[-2], b.r.raters[-1]))

    def adjust(self, parts, plan):
        """The mistakes' advice follows the chance rule a part asks for."""
        advice = self.data["item_mean_advice"]
        out = []
        for p in parts:
            mlrd = p.quantity in ("p_e_mlrd", "kappa_mlrd") or (
                plan.chance == "item_mean" and p.quantity in ("p_e", "kappa")
            )
            if mlrd and p.mistakes:
                mistakes = tuple(
                    replace(m, info=replace(m.info, advice=advice[m.id])) if m.id in advice else m
                    for m in p.mistakes
                )
                p = replace(p, mistakes=mistakes)
            out.append(p)
        return tuple(out)

    def working(self, q):
        if q.chance != "both":
            return explain(q.result)
        main = explain(q.result)
        other = explain(fleiss_kappa(q.ratings, chance="item_mean"))
        tail = [
            Step(Prose("Second rule: ", s.heading), s.body, s.symbol, s.value, s.exact)
            for s in other.steps[-3:]
        ]
        return Explanation(
            main.title + "; then the course notes' (MLRD) chance rule", [*main.steps, *tail], q.result
        )


KIND = Partial()
