"""A kind of exam question: what every kind shares, and what a kind's module (``_kinds/<kind>.py``) says.

A kind is a subclass of :class:`Kind` in a module of its own, ``_kinds/<kind>.py``, with its words in
``_kinds/<kind>.toml`` (the module's ``KIND`` is registered by :mod:`._kinds`). It says how its table
is drawn (:meth:`Kind.gaps`), its core result and right values, its usual wrong methods' values
(:meth:`Kind.routes`) and its parts (:meth:`Kind.parts`); the rest (choosing the coefficient, the
extra conceptual part, level 4's partial coverage, second chance rule and design) is done here from
what the kind declares.
"""

from __future__ import annotations

import string
from fractions import Fraction
from pathlib import Path

import numpy as np

from .._formulas import chance_corrected
from .._markup import Math, Prose, prose
from ..metrics import cohen_kappa, scott_pi
from ..ratings import Ratings
from ..rounding import fmt, round_half_up
from ..worked import Explanation, Step, explain
from ._concepts import BANK, choose_coefficient, load, rule_comparison
from ._mistakes import renamed, route_pi
from ._parts import DROPOUT_ITEMS, INPUTS, METHOD_OF, QUANTITIES, Builder, Plan

__all__ = ["Kind", "TwoRaters", "WORDS", "names", "keep_steps", "both_labelled"]

#: The words every kind shares (``content/questions.toml``).
WORDS = load(Path(__file__).parent.parent / "content" / "questions.toml")
#: The chance rules a question can ask for, by level (a kind with ``rules`` draws one).
_RULES_BY_LEVEL = {
    1: ("pooled",),
    2: ("pooled", "item_mean"),
    3: ("pooled", "item_mean", "both"),
    4: ("both",),
}


def names(items, last: str = "and") -> str:
    """``A, B and C``."""
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def keep_steps(explanation: Explanation, symbols: tuple, headings: tuple, prefix: str) -> list[Step]:
    """The steps of an explanation that give ``symbols`` or whose heading starts with ``headings``, their
    headings after ``prefix``."""
    return [
        Step(Prose(prefix, s.heading), s.body, s.symbol, s.value, s.exact)
        for s in explanation.steps
        if s.symbol in symbols or s.heading.text().startswith(headings)
    ]


class Kind:
    """A kind of question. A subclass sets the class attributes and writes :meth:`result`,
    :meth:`values`, :meth:`routes` and :meth:`parts`; its words are in its data file."""

    #: The kind's name (``make_question(name, ...)``), which is also its module's and data file's.
    name = ""
    #: The quantity of the coefficient the question is about (``"kappa"``, ``"alpha"``...).
    coefficient = "kappa"
    #: Whether the student may be asked to choose the coefficient (level 3; ``[choose]`` in the data).
    choosable = False
    #: Two annotators (cohen, weighted, pi, ac1): at level 4 the second stops early.
    two_raters = False
    #: The categories are an ordered scale (the table is drawn with near misses; weights are drawn).
    ordinal = False
    #: The chance rules a question may ask for (partial coverage: pooled, item-mean or both).
    rules: tuple = ()
    #: The scale a value of the coefficient is read on.
    scale = "landis_koch"
    #: From which level a question has an extra conceptual part (from ``concepts`` in the data).
    concept_from = 3
    #: From which level an exam-size table has one or two missing labels (cohen, weighted; None: never).
    missing_from: int | None = None

    def __init__(self):
        #: The kind's words, from ``_kinds/<name>.toml``.
        self.data = load(Path(__file__).parent / "_kinds" / f"{self.name}.toml")

    # ---------------------------------------------------------- the table
    def sizes(self, level: int | None = None) -> tuple:
        """(items, raters, categories), each (low, high): the sizes drawn at ``level``, or the limits."""
        sizes = self.data["sizes"]["limits" if level is None else f"level{min(level, 3)}"]
        return tuple(tuple(s) for s in sizes)

    def gaps(self, rng: np.random.Generator, present: np.ndarray, level: int, missing: bool) -> dict:
        """Mark in ``present`` (items x raters) the ratings the table lacks; the coverage to print, if any."""
        return {}

    def fit(self, r: Ratings) -> bool:
        """A test the kind's table must pass beyond the common ones."""
        return True

    def title(self, q) -> str:
        """The question's title when it names the coefficient."""
        return self.data["title"].format(weights=q.weights)

    def setting(self, q) -> str:
        """What the question says about the table beyond who labelled what: the gaps."""
        return WORDS["setting"]["missing"] if q.ratings.missing.any() else ""

    # --------------------------------------------------------- the values
    def plan(self, level: int, style: np.random.Generator, choose: bool | None) -> Plan:
        """What the question asks, drawn from ``style``: the chance rule, choosing, the concept part."""
        rules = _RULES_BY_LEVEL[level] if self.rules else ("pooled",)
        chance = rules[int(style.integers(len(rules)))] if self.rules else "pooled"
        if choose is None:
            choose = level == 3 and self.choosable and bool(style.integers(2))
        bank = self.data["concepts"]
        concept = bank[int(style.integers(len(bank)))] if level >= self.concept_from else None
        return Plan(chance, bool(choose), concept, tripos=level == 4)

    def result(self, r: Ratings, weights: str | None, chance: str):
        """The core metric's result on the table."""
        raise NotImplementedError

    def values(self, result, plan: Plan, r: Ratings) -> dict[str, Fraction]:
        """The right value of every quantity the question asks for, from the result's ``exact``."""
        raise NotImplementedError

    def routes(self, r: Ratings, result, weights: str | None, plan: Plan) -> dict:
        """The usual wrong methods' values: ``{mistake id: {quantity: Fraction}}``."""
        raise NotImplementedError

    def rounded_coefficient(self, ex) -> Fraction | None:
        """The coefficient from its last step's inputs rounded to 3 decimals (a cheap look at rounding)."""
        p_o = ex.p_o if hasattr(ex, "p_o") else ex.p_a
        return chance_corrected(round_half_up(p_o, 3), round_half_up(ex.p_e, 3)).item()

    def ft_terms(self, result, plan: Plan) -> dict:
        """The table's fixed numbers for follow-through (:func:`._parts.follow_through_value`), by
        quantity."""
        return {}

    def complete_alpha(self, r: Ratings) -> bool:
        """Whether the table is one where some mistakes cannot happen or coincide (alpha, complete)."""
        return False

    # ---------------------------------------------------------- the parts
    def build(self, b: Builder) -> None:
        """Every part of the question, in order: the choice of coefficient (:meth:`choose`) or the
        calculation (:meth:`parts`), then the extra parts (:meth:`extra`)."""
        if b.plan.choose:
            self.choose(b)
            return
        self.parts(b)
        self.extra(b)

    def parts(self, b: Builder) -> None:
        """The question's calculation and its parts (:class:`Builder`), up to its extra concept part."""
        raise NotImplementedError

    def adjust(self, parts: tuple, plan: Plan) -> tuple:
        """The parts once built (a partial question's advice follows its chance rule)."""
        return parts

    def method(self, quantity: str, chance: str, r: Ratings) -> str:
        """What earns a numerical part's method marks, in words a marker reads (symbol names from
        ``SYMBOLS`` only: the key typesets them)."""
        if quantity in ("p_o_part", "p_a_part"):
            return self.dropout_method(r)
        second = self.data.get("second_rule", {})
        if quantity == second.get("p_e"):
            return self.second_method(r)
        words = self.data.get("parts", {}).get(quantity, {})
        if "method" in words:
            return words["method"].format(N=self.n_text(r))
        if quantity in ("kappa", "kappa_mlrd", "pi", "ac1"):
            first = "P_o" if self.two_raters else "P_a"
            again = " with the second P_e" if second.get("coefficient") == quantity else ""
            return f"({first} - P_e) / (1 - P_e){again}"
        return METHOD_OF.get(quantity, "")

    def n_text(self, r: Ratings) -> str:
        """Two annotators' parts say N, the items both labelled (an item either left blank is out)."""
        return ""

    def choose(self, b: Builder) -> None:
        """Level 3, the coefficient not named: which one, why, compute it (one box), then a concept."""
        for c in choose_coefficient(b.style, self.data["choose"]):  # which coefficient, and why
            b.concept(c)
        words = WORDS["choose"]
        weights = words["weights"].format(weights=b.drawn.weights) if self.ordinal else ""
        ex = b.result.exact
        template = self.data["choose"]["method"]
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
        method = template.format(**{k: str(ex.n) if k == "n" else fmt(getattr(ex, k)) for k in fields})
        hint = words["kappa_hint" if self.coefficient == "kappa" else "alpha_hint"]
        b.number(self.coefficient, b.say(*words["prompt"], weights=weights), hint, marks=6, method=method)
        self.extra(b) if b.plan.concept else b.interpretation("the coefficient")

    def extra(self, b: Builder) -> None:
        """The extra part after the calculation, by level: at levels 1 and 2 a conceptual part only for the
        kinds with ``concept_from = 1`` (pi, ac1); at level 3 a conceptual part for every kind; at level 4
        the sections after the calculation (:meth:`tripos`)."""
        if b.plan.tripos:
            self.tripos(b)
            return
        concept = b.plan.concept
        if concept == "paradox":
            b.bank("paradox", coefficient=self.data.get("paradox", "Cohen's kappa"))
        elif concept == "undefined":
            b.bank("undefined")
        elif concept == "dropout":
            r = b.r
            b.bank("dropout", rater=r.raters[min(2, r.n_raters - 1)], half=max(2, r.n_items // 2))
        elif concept == "interpretation":
            b.interpretation(self.data["name"])
        elif concept:  # a conceptual part of the kind's own data, or of content/concepts.toml
            b.bank(concept)

    # ------------------------------------------------------------ level 4
    def tripos(self, b: Builder) -> None:
        """Level 4 after the calculation: partial coverage and a second chance rule, then the design."""
        b.section = "Partial coverage and chance rules"
        self.dropout_part(b)
        words = self.data["second_rule"]
        p_e, coefficient = words["p_e"], words["coefficient"]
        prompt = b.say(words["prompt"], P=QUANTITIES[p_e], f=Math(*words["formula"]))
        b.number(p_e, prompt, words["hint"], marks=words.get("marks"))
        # the observed term comes from the calculation's part, not the part with an annotator stopping early:
        # the prompt names it ({whole}: "(a)")
        built = {p.quantity: p.label for p in b.out if p.numeric}
        observed = next((ins[0] for ins in INPUTS.get(coefficient, ()) if all(q in built for q in ins)), None)
        whole = f"({built[observed]})" if observed else "the calculation"
        prompt = b.say(words["coefficient_prompt"], C=QUANTITIES[coefficient], P=QUANTITIES[p_e], whole=whole)
        b.number(coefficient, prompt, words["coefficient_hint"], marks=words.get("coefficient_marks", 1))
        if words["comparison"] in BANK["rule_comparison"]:
            b.concept(rule_comparison(b.style, words["comparison"], words.get("pooled", "")))
        else:
            b.bank(words["comparison"])
        b.design()

    def dropped(self, r: Ratings) -> tuple[str, int, Ratings] | None:
        """A level-4 question's annotator who stops :data:`DROPOUT_ITEMS` items before the end: their name,
        the number of items they labelled, and the table without their later labels (the second annotator
        of two, the last of more); None where the table has partial coverage already."""
        j = 1 if self.two_raters else r.n_raters - 1
        last = r.n_items - DROPOUT_ITEMS
        mask = np.zeros((r.n_items, r.n_raters), dtype=bool)
        mask[last:, j] = True
        return str(r.raters[j]), last, r.with_missing(mask)

    def dropout_part(self, b: Builder) -> None:
        """Level 4: the agreement once an annotator stops, computed (two annotators: P_o'; more: P_a')."""
        who, last, _ = self.dropped(b.r)
        words = WORDS["dropout"]
        stop = words["stop"].format(who=who, item=b.r.items[last - 1])
        if self.two_raters:
            weighted = " weighted" if self.ordinal else ""
            prompt = prose(stop + words["two"], w=weighted, P=QUANTITIES["p_o_part"], a=b.a, b=b.b)
            b.number("p_o_part", prompt, words["two_hint"])
        else:
            b.number("p_a_part", prose(stop + words["more"], P=QUANTITIES["p_a_part"]), words["more_hint"])

    def dropout_method(self, r: Ratings) -> str:
        _, last, dropped = self.dropped(r)
        words = WORDS["dropout"]
        if not self.two_raters:
            return words["more_method"].format(first=r.items[last], last=r.items[-1])
        both = int((dropped.codes[:, :2] >= 0).all(axis=1).sum())
        counted = "each cell's agreement weight times its count, summed" if self.ordinal else "the diagonal"
        return words["two_method"].format(first=r.items[0], last=r.items[last - 1], N=both, counted=counted)

    def second_method(self, r: Ratings) -> str:
        """The method of the second chance rule's P_e (``{labels}``: the labels both annotators gave on the
        items both labelled)."""
        labels = 2 * int((r.codes[:, :2] >= 0).all(axis=1).sum())
        return self.data["second_rule"]["method"].format(labels=labels)

    def tripos_values(self, r: Ratings, result, weights: str | None) -> tuple[dict, dict]:
        """A level-4 question's further right values (partial coverage, the second chance rule) and the
        usual wrong methods' values for them."""
        raise NotImplementedError

    # ------------------------------------------------------------ working
    def working(self, q) -> Explanation:
        """The working of a question: :func:`iaa_teach.explain` of its result, with the steps it lacks."""
        return explain(q.result)

    def tripos_steps(self, q) -> list[Step]:
        """The working of a level-4 question's partial coverage and second chance rule, each step from
        :func:`~iaa_teach.explain` of the core metric where there is one."""
        return self.dropout_steps(q) + self.second_steps(q)

    def dropout_steps(self, q) -> list[Step]:
        return []

    def second_steps(self, q) -> list[Step]:
        return []


class TwoRaters(Kind):
    """Two annotators compared on the items both labelled (Cohen's kappa, weighted, Scott's pi, AC1): at
    level 4 the second stops early and the second chance rule pools or splits their proportions."""

    two_raters = True

    def n_text(self, r: Ratings) -> str:
        both = int((r.codes[:, :2] >= 0).all(axis=1).sum())
        return f" (N = {both}, the items both labelled)" if both < r.n_items else f" (N = {both})"

    def gaps(self, rng: np.random.Generator, present: np.ndarray, level: int, missing: bool) -> dict:
        if missing:  # one or two items lack one annotator's label
            gaps = rng.choice(present.shape[0], size=int(rng.integers(1, 3)), replace=False)
            present[gaps, rng.integers(0, 2, size=len(gaps))] = False
        return {}

    def setting(self, q) -> str:
        if q.ratings.missing.any() and not q.choose:
            return WORDS["setting"]["both_labelled"]
        return super().setting(q)

    def tripos(self, b: Builder) -> None:
        if self.data.get("interpret_at_level4"):
            b.interpretation(self.data["name"])
        super().tripos(b)

    def tripos_values(self, r: Ratings, result, weights: str | None) -> tuple[dict, dict]:
        _, last, dropped = self.dropped(r)
        w = weights if self.ordinal else None
        part = cohen_kappa(dropped, 0, 1, weights=w).exact
        both = (dropped.codes[:, :2] >= 0).all(axis=1)
        right = {"p_o_part": part.p_o}
        routes = {
            # an item the annotator no longer labelled counted as a disagreement: P_o over all the items
            "missing_as_disagreement": {"p_o_part": part.p_o * int(both.sum()) / r.n_items},
            "dropout_ignored": {"p_o_part": cohen_kappa(r, 0, 1, weights=w).exact.p_o},
        }
        more, wrong = self.second_values(r, weights)
        right.update(more)
        for key, values in wrong.items():
            routes.setdefault(key, {}).update(values)
        return right, routes

    def second_values(self, r: Ratings, weights: str | None) -> tuple[dict, dict]:
        """The second chance rule: Scott's pooled P_e and pi on the items both labelled (pi: Cohen's)."""
        table = both_labelled(r)
        ex = scott_pi(table, 0, 1, weights=weights if self.ordinal else None).exact
        routes = renamed(route_pi(table, ex), {"p_e": "p_e_pi", "pi": "pi"})
        return {"p_e_pi": ex.p_e, "pi": ex.pi}, routes

    def dropout_steps(self, q) -> list[Step]:
        who, last, dropped = self.dropped(q.ratings)
        prefix = f"Partial coverage, {who} stopping after item {q.ratings.items[last - 1]}: "
        weights = q.weights if self.ordinal else None
        done = explain(cohen_kappa(dropped, 0, 1, weights=weights))
        return keep_steps(done, ("P_o",), ("Agreement table",), prefix)

    def second_steps(self, q) -> list[Step]:
        other = explain(scott_pi(both_labelled(q.ratings), 0, 1, weights=q.weights if self.ordinal else None))
        return keep_steps(other, ("P_e", "pi"), ("Category",), "Second chance rule: ")


def both_labelled(r: Ratings) -> Ratings:
    """The first two annotators' table on the items both labelled."""
    return r.subset(
        items=np.flatnonzero((r.codes[:, :2] >= 0).all(axis=1)).tolist(), raters=list(r.raters[:2])
    )
