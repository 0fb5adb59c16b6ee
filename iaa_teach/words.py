"""Words out: any result object as a worked solution, step by step.

:func:`explain` turns a :class:`~iaa_teach.CohenResult`,
:class:`~iaa_teach.PairwiseCohenResult`, :class:`~iaa_teach.FleissResult`,
:class:`~iaa_teach.AlphaResult` or :class:`~iaa_teach.BootstrapResult` into an
:class:`Explanation`: a list of :class:`Step` objects. Each step is built once
from the pieces of :mod:`iaa_teach.markup` (an intro, an optional table, chains
of equations with the formula, the numbers put in, the exact fraction and its
3-decimal value, and notes) and shown three ways: ``.text`` (plain),
``.markdown`` (Markdown with LaTeX) and ``.html`` (maths left for MathJax). In
a notebook a bare ``explain(result)`` displays the Markdown.

Nothing here computes a coefficient: every number comes from the result
object (``result.exact`` for the fractions). The arithmetic shown in between
(sums of the counts the result holds) is only the substitution a student
writes down. Decimals are rounded half up from the exact value
(:func:`iaa_teach.rounding.fmt`).

This module does not import matplotlib.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .markup import (
    Chain,
    Em,
    Equations,
    Math,
    Prose,
    Shown,
    Table,
    approx,
    html_escape,
    md_escape,
    number,
    prose,
    render,
    tex_text,
    with_symbols,
)
from .metrics import (
    AlphaResult,
    BootstrapResult,
    CohenResult,
    FleissResult,
    PairwiseCohenResult,
    interpret,
)
from .diagnosis import Diagnosis
from .ratings import AgreementError, as_ratings
from .rounding import fmt, format_number, round_half_up
from .validation import AgreementError, check_text, options

__all__ = [
    "CHANCE_RULE_NAMES", "STYLES", "Explanation", "Hidden", "Step", "Table",
    "chance_rule", "explain", "ratings_table", "matrix_table",
]

STYLES = ("full", "brief")

#: How each Fleiss chance rule is named wherever a Fleiss number is shown.
CHANCE_RULE_NAMES = {
    "pooled": "pooled proportions over all ratings",
    "item_mean": "mean of the per-item proportions",
}

_MAX_LISTED = 20  # list items one by one up to this many, group them beyond
_MAX_TERMS = 12   # write a sum out term by term up to this many terms
_MISSING = "–"
_KAPPA, _ALPHA = Math(r"\kappa", "κ"), Math(r"\alpha", "α")


# ========================================================== the objects
@dataclass(frozen=True)
class Step:
    """One step of a worked solution, built once and shown as text, Markdown or HTML.

    Attributes
    ----------
    heading : Prose
        The title, with its symbols as maths (``Observed agreement P_o``).
    body : tuple
        The working: an intro (:class:`~iaa_teach.markup.Prose`), a
        :class:`Table`, :class:`~iaa_teach.markup.Equations`, notes.
    symbol : str or None
        The quantity the step ends with (``"P_o"``, ``"kappa"``...), if any.
    value : float or None
        Its value (NaN when undefined).
    exact : fractions.Fraction or None
        Its exact value, where there is one.

    ``title``, ``text``, ``markdown`` and ``html`` are the heading and the
    working in each output.
    """

    heading: Prose
    body: tuple = ()
    symbol: str | None = None
    value: float | None = None
    exact: Fraction | None = None

    @property
    def title(self) -> str:
        return self.heading.text()

    @property
    def text(self) -> str:
        return render(self.body, "text")

    @property
    def markdown(self) -> str:
        return render(self.body, "markdown")

    @property
    def html(self) -> str:
        return render(self.body, "html")

    def numbered(self, i: int, form: str, math: str = "tex") -> str:
        """The step as step ``i`` of a solution: its heading, then its working."""
        heading, body = self.heading.render(form, math), render(self.body, form, math)
        if form == "text":
            return f"{i}. {heading}\n{_indent(body)}"
        if form == "markdown":
            return f"*{i}. {heading}*\n\n{body}"
        return f"<h4>{i}. {heading}</h4>{body}"

    def _repr_markdown_(self) -> str:
        return f"**{self.heading.markdown()}**\n\n{self.markdown}"

    def __repr__(self) -> str:
        return f"{self.title}\n{_indent(self.text)}"


class Explanation(Shown):
    """A worked solution: a title and a list of :class:`Step`.

    ``text()``, ``markdown()`` and ``html()`` give the whole solution; in a
    notebook the object displays as Markdown (``text/markdown``) with the
    plain text as its ``text/plain`` form. Index it by position or by the
    start of a step title.
    """

    def __init__(self, title: str, steps: Sequence[Step], result: Any = None):
        self.title = title
        self.steps = list(steps)
        self.result = result

    def render(self, form: str, math: str = "tex") -> str:
        """The whole solution in one output (``"text"``, ``"markdown"`` or ``"html"``)."""
        steps = [step.numbered(i, form, math) for i, step in enumerate(self.steps, start=1)]
        if form == "html":
            return (f'<div class="iaa-explanation"><p><b>{html_escape(self.title, math)}</b></p>'
                    + "".join(steps) + "</div>")
        title = self.title if form == "text" else f"**{md_escape(self.title)}**"
        return "\n\n".join([title, *steps]) + "\n"

    def hidden(self, summary: str = "Show the worked answer") -> "Hidden":
        """The same solution folded away behind a "click to show" line."""
        return Hidden(self, summary)

    def __getitem__(self, key: int | str) -> Step:
        if isinstance(key, str):
            for step in self.steps:
                if step.title.startswith(key):
                    return step
            raise KeyError(f"no step titled {key!r}; the steps are {[s.title for s in self.steps]}")
        return self.steps[key]

    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.text().rstrip("\n")


class Hidden:
    """Anything with ``markdown()``/``text()`` (or a :class:`Step`) shown folded (an HTML ``<details>``)."""

    def __init__(self, content: Any, summary: str = "Show the worked answer"):
        self.content = content
        self.summary = summary

    def _markdown(self) -> str:
        if isinstance(self.content, Step):
            return self.content._repr_markdown_()
        return self.content.markdown()

    def _text(self) -> str:
        return repr(self.content) if isinstance(self.content, Step) else self.content.text()

    def _repr_markdown_(self) -> str:
        return (f"<details><summary>{html_escape(self.summary)}</summary>\n\n"
                f"{self._markdown()}\n</details>\n")

    def __repr__(self) -> str:
        return f"{self.summary}:\n\n{self._text()}".rstrip("\n")


# ================================================== formulas, in both notations
def _indent(text: str, by: str = "   ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def _ratio(num: int, den: int) -> Math:
    """An unreduced fraction num/den of integers, as written before cancelling."""
    if den == 1:
        return number(num)
    return Math(f"\\frac{{{int(num)}}}{{{int(den)}}}", f"{int(num)}/{int(den)}")


def _big(m: Math) -> Math:
    """The fractions inside ``m`` at full size (for a fraction of fractions)."""
    return Math(m.tex.replace("\\frac", "\\dfrac"), m.txt, m.atom)


def _frac(num: Math, den: Math) -> Math:
    def side(x: Math) -> str:
        return x.txt if x.atom and "/" not in x.txt and " " not in x.txt else "(" + x.txt + ")"
    return Math(f"\\frac{{{num.tex}}}{{{den.tex}}}", f"{side(num)} / {side(den)}", atom=False)


def _scaled(scale: Math, inner: Math) -> Math:
    """``scale (inner)``, e.g. ``1/10 (1 + 1/3 + ...)``."""
    return Math(f"{scale.tex}{inner.paren().tex}", f"({scale.txt})({inner.txt})" if "/" in scale.txt
                else f"{scale.text_operand()}({inner.txt})", atom=False)


def _over(num: Fraction, den: int) -> Math:
    """num / den, written as one fraction when num is whole."""
    num = Fraction(num)
    return _ratio(num.numerator, int(den)) if num.denominator == 1 else _frac(number(num), number(den))


def _times(*factors: Math) -> Math:
    return Math(r" \cdot ".join(f.tex for f in factors), " × ".join(f.text_operand() for f in factors), atom=False)


def _sum(terms: Sequence[Math], signs: Sequence[int] | None = None) -> Math:
    """terms joined by + (or - where signs[i] < 0)."""
    if not terms:
        return number(0)
    signs = signs or [1] * len(terms)
    tex, txt = [], []
    for i, (t, s) in enumerate(zip(terms, signs)):
        op = ("-" if s < 0 else "") if i == 0 else (" - " if s < 0 else " + ")
        tex.append(op + t.tex)
        txt.append(op + t.txt)
    return Math("".join(tex), "".join(txt), atom=len(terms) == 1 and signs[0] > 0)


def _q_sum(values: Sequence[Fraction]) -> Math:
    """A sum of exact numbers, negatives written with a minus."""
    return _sum([number(abs(v)) for v in values], [(-1 if v < 0 else 1) for v in values])


def _grouped(values: Sequence[Fraction]) -> Math:
    """A sum of exact numbers grouped by value: ``6 · 1 + 4 · 1/3``."""
    counts = Counter(values)
    order = sorted(counts, reverse=True)
    terms = [number(abs(v)) if counts[v] == 1 else _times(number(counts[v]), number(abs(v))) for v in order]
    return _sum(terms, [-1 if v < 0 else 1 for v in order])


class _Labels:
    """Category names in subscripts: ``p_{G}``, ``n_{GN}`` (commas if any name is longer)."""

    def __init__(self, categories: Sequence[Any]):
        self.names = [str(c) for c in categories]
        self.short = all(len(n) == 1 for n in self.names)

    def one(self, j: int) -> tuple[str, str]:
        n = self.names[j]
        return tex_text(n), n if self.short else f"({n})"

    def two(self, i: int, j: int) -> tuple[str, str]:
        a, b = self.names[i], self.names[j]
        if self.short:
            return tex_text(a + b), a + b
        return f"{tex_text(a)},{tex_text(b)}", f"({a},{b})"

    def sym(self, symbol: str, *idx: int) -> Math:
        tex, txt = self.one(idx[0]) if len(idx) == 1 else self.two(*idx)
        return Math(f"{symbol}_{{{tex}}}", f"{symbol}_{txt}")


# =============================================================== steps
def _step(heading: Prose | str, *, intro: Prose | str | None = None, table: Table | None = None,
          chains: Sequence[Chain] = (), notes: Sequence[Prose | None] = (), brief: bool = False,
          symbol: str | None = None, value: float | None = None, exact: Fraction | None = None) -> Step:
    """A step from its parts; ``brief`` keeps only the equations' last values and the notes."""
    heading = prose(heading) if isinstance(heading, str) else heading
    intro = Prose(intro) if isinstance(intro, str) else intro
    body = ([] if brief else [intro, table]) + [Equations(chains, brief), *notes]
    return Step(heading, tuple(b for b in body if b is not None and b), symbol, value, exact)


def _cell(q: Fraction | int | float) -> str:
    if isinstance(q, float):
        q = Fraction(q).limit_denominator(10**6)
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _band_note(exact: Fraction, sym: Math) -> Prose:
    return prose("{sym} = {value} is {band} on the Landis and Koch scale.", sym=sym, value=fmt(exact),
                 band=Em(interpret(max(float(exact), -1.0))))  # Fleiss' kappa can fall below -1: poor


def _rounding_note(exact: Fraction, rounded: Fraction | None, first: str, second: str) -> Prose | None:
    """Say so when rounding the intermediate values first moves the third decimal."""
    if rounded is None or fmt(rounded) == fmt(exact):
        return None
    return prose("Round only at the end: with {first} and {second} rounded to 3 decimals first, "
                 "the same formula gives {rounded} instead of {exact}.",
                 first=Math(first), second=Math(second), rounded=fmt(rounded), exact=fmt(exact))


def _undefined_note(reason: str | None) -> Prose | None:
    return with_symbols(f"Undefined: {reason}.") if reason else None


def _r3(q: Fraction) -> Fraction:
    return round_half_up(q, 3)


def _int_list(xs: Sequence[Any]) -> str:
    return ", ".join(str(x) for x in xs)


# ================================================================= Cohen
def _cohen_steps(res: CohenResult, brief: bool) -> tuple[str, list[Step]]:
    ex = res.exact
    lab = _Labels(res.categories)
    t = np.asarray(res.table, dtype=np.int64)
    k = t.shape[0]
    n = int(t.sum())
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    a, b = str(res.rater_a), str(res.rater_b)
    weighted = res.weights is not None
    title = f"Cohen's kappa, {a} vs {b}" + (f", {res.weights} weights" if weighted else "")
    title += f" ({n} items" + (f"; {res.n_dropped} left out for a missing rating)" if res.n_dropped else ")")
    if n == 0:  # nothing to compare: one step that says why
        return title, [_step("Cohen's kappa", chains=[Chain(_KAPPA, approx(None))], notes=[_undefined_note(res.reason)],
                             brief=brief, symbol="kappa", value=res.kappa)]
    steps = []

    header = [f"{a} \\ {b}", *lab.names, "total"]
    body = [[lab.names[i], *map(str, t[i]), str(rows[i])] for i in range(k)]
    body.append(["total", *map(str, cols), str(n)])
    extra = f" {res.n_dropped} item(s) without both ratings are left out." if res.n_dropped else ""
    intro = prose("Rows: {a}'s label; columns: {b}'s label. The diagonal holds the items on which they agree.{extra}",
                  a=a, b=b, extra=extra)
    steps.append(_step("Agreement table", intro=intro, table=Table(header, body), brief=brief))

    if weighted:
        top = int(np.asarray(res.weight_matrix).max())
        agree = ex.agreement_weights
        kind_tex, kind_txt = ((r"\lvert i - j \rvert", "|i - j|") if res.weights == "linear"
                              else ("(i - j)^2", "(i - j)²"))
        intro = prose("Cells count as partial agreement: {w} over the category order.",
                      w=Math(f"w_{{jk}} = 1 - \\frac{{{kind_tex}}}{{{top}}}", f"w_jk = 1 - {kind_txt} / {top}"))
        wt = Table([f"{a} \\ {b}", *lab.names], [[lab.names[i], *(_cell(x) for x in agree[i])] for i in range(k)])
        steps.append(_step("Agreement weights", intro=intro, table=wt, brief=brief))
        terms = [(agree[i][j], int(t[i, j])) for i in range(k) for j in range(k) if agree[i][j] and t[i, j]]
        num = sum((q * c for q, c in terms), Fraction(0))
        sub = (_frac(_sum([_times(number(q), number(c)) if q != 1 else number(c) for q, c in terms]), number(n))
               if len(terms) <= _MAX_TERMS else None)
        p_o_chain = Chain(Math("P_o"), Math(r"\frac{1}{N}\sum_{j,k} w_{jk}\, n_{jk}", "Σ w_jk n_jk / N", False),
                           sub, _frac(number(num), number(n)) if num.denominator != 1 else _ratio(int(num), n),
                           approx(ex.p_o))
    else:
        diag = [lab.sym("n", j, j) for j in range(k)]
        formula = (_frac(_sum(diag), Math("N")) if k <= 6
                   else Math(r"\frac{1}{N}\sum_j n_{jj}", "Σ_j n_jj / N", False))
        p_o_chain = Chain(Math("P_o"), formula, _frac(_sum([number(x) for x in np.diag(t)]), number(n)),
                           _ratio(int(np.trace(t)), n) if k > 1 else None, approx(ex.p_o))
    steps.append(_step("Observed agreement {P_o}", chains=[p_o_chain], brief=brief,
                       intro="The share of items on which the two agree" + (" (weighted)." if weighted else "."),
                       symbol="P_o", value=res.p_o, exact=ex.p_o))

    marg = []
    for j in range(k):
        sym = Math(f"p_{{{lab.one(j)[0]}+}}", f"p_{lab.one(j)[1]}+")
        marg.append(Chain(sym, _ratio(int(rows[j]), n), approx(ex.row_marginals[j]),
                           inline=True))
    for j in range(k):
        sym = Math(f"p_{{+{lab.one(j)[0]}}}", f"p_+{lab.one(j)[1]}")
        marg.append(Chain(sym, _ratio(int(cols[j]), n), approx(ex.col_marginals[j]),
                           inline=True))
    intro = prose("Each rater's own category proportions: {row} for {a} (row totals / N), {col} for {b} "
                  "(column totals / N).", row=Math("p_{j+}", "p_j+"), col=Math("p_{+j}", "p_+j"), a=a, b=b)
    steps.append(_step("Marginals", chains=marg, brief=brief, intro=intro))

    if weighted:
        terms = [(agree[i][j], int(rows[i]), int(cols[j])) for i in range(k) for j in range(k)
                 if agree[i][j] and rows[i] and cols[j]]
        num = sum((q * r * c for q, r, c in terms), Fraction(0))
        sub = (_frac(_sum([_times(*([] if q == 1 else [number(q)]), number(r), number(c)) for q, r, c in terms]),
                     Math(f"{n}^2", f"{n}²")) if len(terms) <= _MAX_TERMS else None)
        p_e_chain = Chain(Math("P_e"), Math(r"\frac{1}{N^2}\sum_{j,k} w_{jk}\, n_{j+}\, n_{+k}",
                                         "Σ w_jk n_j+ n_+k / N²", False),
                           sub, _frac(number(num), number(n * n)), approx(ex.p_e))
    else:
        prods = [_times(_ratio(int(rows[j]), n), _ratio(int(cols[j]), n)) for j in range(k)]
        formula = _sum([Math(f"p_{{{lab.one(j)[0]}+}}\\, p_{{+{lab.one(j)[0]}}}",
                           f"p_{lab.one(j)[1]}+ p_+{lab.one(j)[1]}") for j in range(k)]) if k <= 6 \
            else Math(r"\sum_j p_{j+}\, p_{+j}", "Σ_j p_j+ p_+j", False)
        p_e_chain = Chain(Math("P_e"), formula, _sum(prods),
                           _frac(_sum([number(rows[j] * cols[j]) for j in range(k)]), number(n * n)),
                           _ratio(int((rows * cols).sum()), n * n), approx(ex.p_e))
    steps.append(_step("Chance agreement {P_e}", chains=[p_e_chain], brief=brief,
                       intro="The agreement expected if each rater labelled at random with their own proportions.",
                       symbol="P_e", value=res.p_e, exact=ex.p_e))
    steps.append(_coefficient_step("Cohen's kappa", "P_o", ex.p_o, ex.p_e, ex.kappa, res.kappa, res.reason, brief))
    return title, steps


def _coefficient_step(title: str, obs: str, p_o: Fraction, p_e: Fraction, value_exact: Fraction | None,
                      value: float, reason: str | None, brief: bool) -> Step:
    """kappa = (P_o - P_e) / (1 - P_e), shared by Cohen and Fleiss."""
    formula = _frac(Math(f"{obs} - P_e", atom=False), Math("1 - P_e", atom=False))
    put_in = _frac(_big(number(p_o) + Math(" - ") + number(p_e)), _big(Math("1 - ") + number(p_e)))
    if value_exact is None:
        chain = Chain(_KAPPA, formula, put_in, _frac(number(p_o - p_e), number(0)), approx(None))
        return _step(title, chains=[chain], notes=[_undefined_note(reason)], brief=brief, symbol="kappa",
                     value=value)
    chain = Chain(_KAPPA, formula, put_in, _frac(_big(number(p_o - p_e)), _big(number(1 - p_e))), approx(value_exact))
    rounded = (_r3(p_o) - _r3(p_e)) / (1 - _r3(p_e)) if _r3(p_e) != 1 else None
    notes = [_band_note(value_exact, _KAPPA), _rounding_note(value_exact, rounded, obs, "P_e")]
    return _step(title, chains=[chain], notes=notes, brief=brief, symbol="kappa", value=value, exact=value_exact)


# ============================================================= pairwise
def _pairwise_steps(res: PairwiseCohenResult, brief: bool) -> tuple[str, list[Step]]:
    title = f"Cohen's kappa for every pair of raters ({len(res.results)} pairs)"
    steps = []
    for (a, b), r in zip(res.pairs, res.results):
        ex = r.exact
        sym = Math(f"\\kappa_{{{tex_text(a)}{tex_text(b)}}}", f"κ_{a}{b}")
        chains = [Chain(Math("P_o"), approx(ex.p_o)), Chain(Math("P_e"), approx(ex.p_e))]
        if ex.kappa is None:
            chains.append(Chain(sym, approx(None)))
        else:
            chains.append(Chain(sym, _frac(_big(number(ex.p_o) + Math(" - ") + number(ex.p_e)), _big(Math("1 - ") + number(ex.p_e))),
                                 approx(ex.kappa)))
        dropped = f" ({r.n_items} items rated by both)" if r.n_dropped else ""
        intro = prose("{P_e} from {a}'s and {b}'s own marginals{dropped}.", a=a, b=b, dropped=dropped)
        steps.append(_step(prose("{a} vs {b}", a=a, b=b), intro=intro, chains=chains, brief=brief,
                           symbol="kappa", value=r.kappa, exact=ex.kappa))
    kap = list(res.exact.kappas)
    defined = [(q, p) for q, p in zip(kap, res.pairs) if q is not None]
    mean_sym = Math(r"\bar\kappa", "mean κ")
    if res.exact.mean_kappa is None:
        chain = Chain(mean_sym, approx(None))
    else:
        chain = Chain(mean_sym, _scaled(_ratio(1, len(kap)), _q_sum(kap)),
                       approx(res.exact.mean_kappa))
    note = Prose(f"Undefined: {res.reason}.") if res.reason else None
    if not res.reason and len(defined) >= 2:
        hi = max(defined, key=lambda kp: kp[0])
        lo = min(defined, key=lambda kp: kp[0])
        note = Prose(f"Highest: {hi[1][0]} vs {hi[1][1]} ({fmt(hi[0])}); "
                     f"lowest: {lo[1][0]} vs {lo[1][1]} ({fmt(lo[0])}).")
    light = Prose("Light's kappa (Light 1971) is this mean of the pairwise kappas: a summary of the pairs, not "
                  "Fleiss' kappa, which pools all the raters' labels into one chance term.")
    steps.append(_step("Mean over pairs (Light's kappa)", intro=light, chains=[chain], notes=[note], brief=brief,
                       symbol="mean_kappa", value=res.mean_kappa, exact=res.exact.mean_kappa))
    return title, steps


# ================================================================ Fleiss
def chance_rule(result: FleissResult) -> str:
    """The Fleiss chance rule of a result in words, e.g. "pooled proportions over all 30 ratings"."""
    if result.chance == "pooled":
        return f"pooled proportions over all {result.n_ratings} ratings"
    n_rated = int((np.asarray(result.raters_per_item) > 0).sum())
    return f"mean of the per-item proportions over {n_rated} items"


def _item_names(items: Sequence[Any] | None, n: int) -> list[str]:
    return [str(x) for x in (items if items is not None else range(1, n + 1))]


def _fleiss_steps(res: FleissResult, brief: bool, items: Sequence[Any] | None = None) -> tuple[str, list[Step]]:
    ex = res.exact
    lab = _Labels(res.categories)
    counts = np.asarray(res.counts, dtype=np.int64)
    m = np.asarray(res.raters_per_item, dtype=np.int64)
    n_items, k = counts.shape
    names = _item_names(items, n_items)
    rule = chance_rule(res)
    title = f"Fleiss' kappa (chance: {rule})"
    steps = []

    body = [[names[i], *map(str, counts[i]), str(m[i])] for i in range(n_items)]
    total = counts.sum(axis=0)
    body.append(["total", *map(str, total), str(int(m.sum()))])
    varying = len(set(m.tolist())) > 1
    intro = prose("{n_ij}: how many raters put item {i} in category {j}; {n_i}: the item's ratings{varies}{totals}",
                  i=Math("i"), j=Math("j"), varies=prose(" (it varies from item to item: per-item {n_i}).")
                  if varying else ".",
                  totals=f" ({n_items} items; the totals:)" if n_items > _MAX_LISTED else "")
    table = Table(["item", *lab.names, "n_i"], body if n_items <= _MAX_LISTED else body[-1:])
    steps.append(_step("Count table", intro=intro, table=table, brief=brief))

    # P_i, item by item (or pattern by pattern for long tables)
    formula = Chain(Math("P_i"), Math(r"\frac{\sum_j n_{ij}^2 - n_i}{n_i (n_i - 1)}", "(Σ_j n_ij² - n_i) / (n_i (n_i - 1))",
                                   False))
    chains = [formula]
    single = [names[i] for i in range(n_items) if m[i] < 2]
    if n_items <= _MAX_LISTED:
        groups = [([i], i) for i in range(n_items) if m[i] >= 2]
    else:
        seen: dict[tuple, list[int]] = {}
        for i in range(n_items):
            if m[i] >= 2:
                seen.setdefault(tuple(sorted(counts[i].tolist(), reverse=True)), []).append(i)
        groups = [(idx, idx[0]) for idx in seen.values()]
    for idx, i in groups:
        nz = [int(c) for c in counts[i] if c]
        sq = int((counts[i] ** 2).sum())
        if len(idx) == 1:
            sym = Math(f"P_{{{tex_text(names[i]) if not names[i].isdigit() else names[i]}}}", f"P_{names[i]}")
        else:
            shown = _int_list([names[j] for j in idx[:3]]) + (", …" if len(idx) > 3 else "")
            sym = Math(f"P_i\\;(\\text{{items {shown}}})", f"P_i (items {shown})")
        num = _sum([Math(f"{c}^2", f"{c}²") for c in nz]) + Math(f" - {m[i]}")
        chains.append(Chain(sym, _frac(num, Math(f"{m[i]} \\cdot {m[i] - 1}", f"{m[i]} × {m[i] - 1}")),
                             _ratio(sq - int(m[i]), int(m[i] * (m[i] - 1))), approx(ex.p_i[i]),
                             inline=True))
    note = prose("Item(s) {items} have fewer than 2 ratings: no pair to compare, so they are left out of {P_a}.",
                 items=_int_list(single)) if single else None
    steps.append(_step("Agreement on each item {P_i}", chains=chains, notes=[note], brief=brief,
                       intro="The share of agreeing ordered pairs of raters on the item."))

    used = [i for i in range(n_items) if m[i] >= 2]
    p_is = [ex.p_i[i] for i in used]
    n_used = len(used)
    sum_pi = sum(p_is, Fraction(0))
    rhs = [Math(r"\frac{1}{N}\sum_i P_i", "Σ P_i / N", False)]
    if n_used <= _MAX_TERMS:
        rhs.append(_scaled(_ratio(1, n_used), _q_sum(p_is)))
    rhs.append(_scaled(_ratio(1, n_used), _grouped(p_is)))
    rhs.append(_over(sum_pi, n_used))
    rhs.append(approx(ex.p_a))
    intro = prose("The mean of {P_i} over the {N} items with at least 2 ratings.", N=Math(f"N = {n_used}"))
    steps.append(_step("Mean observed agreement {P_a}", intro=intro, chains=[Chain(Math("P_a"), *rhs)],
                       brief=brief, symbol="P_a", value=res.p_a, exact=ex.p_a))

    chains = []
    if res.chance == "pooled":
        T = int(m.sum())
        chains.append(Chain(Math("p_j"), Math(r"\frac{\sum_i n_{ij}}{\sum_i n_i}", "Σ_i n_ij / Σ_i n_i", False)))
        for j in range(k):
            chains.append(Chain(lab.sym("p", j), _ratio(int(total[j]), T), approx(ex.p_j[j]),
                                 inline=True))
        intro = f"Chance rule: {rule}. Each category's share of all the labels (single-rated items count too)."
    else:
        rated = [i for i in range(n_items) if m[i] > 0]
        n_rated = len(rated)
        chains.append(Chain(Math("p_j"), Math(r"\frac{1}{N'}\sum_i \frac{n_{ij}}{n_i}", "Σ_i (n_ij / n_i) / N'", False)))
        for j in range(k):
            terms = [Fraction(int(counts[i, j]), int(m[i])) for i in rated if counts[i, j]]
            parts = Counter((int(counts[i, j]), int(m[i])) for i in rated if counts[i, j])
            written = _sum([(_ratio(c, mi) if cnt == 1 else _times(number(cnt), _ratio(c, mi)))
                            for (c, mi), cnt in sorted(parts.items(), key=lambda x: (-x[0][0] / x[0][1], x[0]))])
            chains.append(Chain(lab.sym("p", j), _scaled(_ratio(1, n_rated), written),
                                 _over(sum(terms, Fraction(0)), n_rated),
                                 approx(ex.p_j[j]), inline=True))
        intro = prose("Chance rule: {rule} ({N}), so every item weighs the same, however many ratings it has.",
                      rule=rule, N=Math("N'"))
    steps.append(_step("Category proportions {p_j}", intro=intro, chains=chains, brief=brief))

    sq_terms = [Math(f"{number(p).tex if Fraction(p).denominator == 1 else number(p).paren().tex}^2",
                   f"({number(p).txt})²") for p in ex.p_j]
    rhs = [_sum([lab.sym("p", j) + Math("^2", "²") for j in range(k)]) if k <= 6
           else Math(r"\sum_j p_j^2", "Σ_j p_j²", False),
           _sum(sq_terms)]
    if res.chance == "pooled":
        T = int(m.sum())
        rhs.append(_frac(_sum([Math(f"{int(c)}^2", f"{int(c)}²") for c in total]), Math(f"{T}^2", f"{T}²")))
        rhs.append(_ratio(int((total ** 2).sum()), T * T))
    else:
        rhs.append(_q_sum([p * p for p in ex.p_j]))
    rhs.append(approx(ex.p_e))
    steps.append(_step("Chance agreement {P_e}", chains=[Chain(Math("P_e"), *rhs)], brief=brief,
                       intro="The chance that two ratings drawn at random agree.",
                       symbol="P_e", value=res.p_e, exact=ex.p_e))
    steps.append(_coefficient_step("Fleiss' kappa", "P_a", ex.p_a, ex.p_e, ex.kappa, res.kappa, res.reason, brief))
    return title, steps


# ========================================================== Krippendorff
def _alpha_steps(res: AlphaResult, brief: bool) -> tuple[str, list[Step]]:
    ex = res.exact
    lab = _Labels(res.categories)
    k = len(res.categories)
    counts = np.asarray(res.counts, dtype=np.int64)
    m = counts.sum(axis=1)
    title = f"Krippendorff's alpha ({res.level})"
    steps = []

    sizes = Counter(int(x) for x in m if x >= 2)
    n_exact = Fraction(ex.n)
    parts = sorted(sizes.items(), reverse=True)
    count_txt = "; ".join(f"{c} item{'s' if c > 1 else ''} with {s} values" for s, c in parts)
    lonely = int(((m == 1)).sum())
    empty = int((m == 0).sum())
    extra = ""
    if lonely:
        extra += f" {lonely} item(s) with a single value are not pairable and are left out."
    if empty:
        extra += f" {empty} item(s) have no value."
    chain = Chain(Math("n"), _sum([_times(number(c), number(s)) if c > 1 else number(s) for s, c in parts]),
                   number(int(n_exact)), inline=True)
    steps.append(_step("Pairable values {n}", intro=count_txt + "." + extra,
                       chains=[chain], brief=brief, symbol="n", value=float(res.n), exact=n_exact))

    pc = np.asarray(res.pair_counts, dtype=np.int64)
    total_pairs = int(pc.sum())
    body = [[lab.names[i], *map(str, pc[i]), str(int(pc[i].sum()))] for i in range(k)]
    body.append(["total", *(str(int(x)) for x in pc.sum(axis=0)), str(total_pairs)])
    pair_formula = " + ".join(f"{c} × {s}·{s - 1}" if c > 1 else f"{s}·{s - 1}" for s, c in parts)
    intro = prose("Every item (unit) with {n_i} values gives {pairs} ordered pairs of values: {formula} = {total} "
                  "pairs, counted here without weights.", pairs=Math("n_i(n_i - 1)", "n_i (n_i - 1)"),
                  formula=pair_formula, total=total_pairs)
    steps.append(_step("Ordered pairs within items", intro=intro, table=Table(["", *lab.names, "total"], body),
                       brief=brief))

    o = ex.coincidences
    n_c = ex.n_c
    body = [[lab.names[i], *(_cell(o[i][j]) for j in range(k)), _cell(n_c[i])] for i in range(k)]
    body.append(["total", *(_cell(sum((o[i][j] for i in range(k)), Fraction(0))) for j in range(k)),
                 _cell(n_exact)])
    if len(sizes) == 1:
        (s, _), = parts
        how = Prose(f"Every item here has {s} values, so each pair count is divided by {s - 1}")
    else:
        how = prose("Each item's pair counts are divided by its own {n_i} - 1")
    o_ck = Math(r"o_{ck} = \sum_i \frac{\text{number of } c\text{-}k \text{ pairs in item } i}{n_i - 1}",
                "o_ck = Σ_i (number of c-k pairs in item i) / (n_i - 1)")
    intro = prose("{o_ck}: {how}. Every value then counts once: the matrix sums to {n}, and its row totals are {n_c}.",
                  o_ck=o_ck, how=how, n=Math(f"n = {int(n_exact)}"))
    steps.append(_step("Coincidence matrix {o_ck}", intro=intro,
                       table=Table(["", *lab.names, "n_c"], body), brief=brief))

    delta = ex.delta
    if res.level != "nominal":
        if res.level == "ordinal":
            how = Prose(Math(r"\delta^2_{ck} = \left(\sum_{g=c}^{k} n_g - \frac{n_c + n_k}{2}\right)^2",
                             "δ²_ck = (Σ_{g=c..k} n_g - (n_c + n_k)/2)²"), " over the category order.")
        elif res.level == "interval":
            how = Prose(Math(r"\delta^2_{ck} = (c - k)^2", "δ²_ck = (c - k)²"), ".")
        else:
            how = Prose(Math(r"\delta^2_{ck} = \left(\frac{c - k}{c + k}\right)^2", "δ²_ck = ((c - k) / (c + k))²"), ".")
        body = [[lab.names[i], *(_cell(delta[i][j]) for j in range(k))] for i in range(k)]
        steps.append(_step(prose("Distances {delta2} ({level})", level=res.level), intro=how,
                           table=Table(["", *lab.names], body),
                           brief=brief))

    # D_o
    off = [(i, j) for i in range(k) for j in range(k) if i != j and o[i][j] and delta[i][j]]
    nominal = res.level == "nominal"
    if nominal:
        formula = Math(r"\frac{1}{n}\sum_{c \ne k} o_{ck}", "Σ_{c≠k} o_ck / n", False)
        terms = [number(o[i][j]) for i, j in off]
    else:
        formula = Math(r"\frac{1}{n}\sum_{c, k} o_{ck}\,\delta^2_{ck}", "Σ o_ck δ²_ck / n", False)
        terms = [_times(number(o[i][j]), number(delta[i][j])) for i, j in off]
    num = sum((o[i][j] * delta[i][j] for i, j in off), Fraction(0))
    rhs = [formula]
    if len(terms) <= _MAX_TERMS:
        rhs.append(_frac(_sum(terms), number(int(n_exact))))
    rhs += [_over(num, int(n_exact)), approx(ex.d_o)]
    steps.append(_step("Observed disagreement {D_o}", chains=[Chain(Math("D_o"), *rhs)], brief=brief,
                       intro="The coincidences off the diagonal, weighted by their distance, per pairable value."
                              if not nominal else "The share of coincidences off the diagonal.",
                       symbol="D_o", value=res.d_o, exact=ex.d_o))

    # D_e
    nn = int(n_exact)
    den = Math(f"{nn} \\cdot {nn - 1}", f"{nn} × {nn - 1}")
    if nominal:
        rhs = [_frac(Math(r"n^2 - \sum_c n_c^2", "n² - Σ n_c²"), Math("n(n - 1)")),
               _frac(Math(f"{nn}^2 - ", f"{nn}² - ")
                     + _sum([Math(f"{number(c).tex}^2", f"{number(c).txt}²") for c in n_c]).paren(), den)]
        num = n_exact * n_exact - sum((c * c for c in n_c), Fraction(0))
    else:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if n_c[i] and n_c[j] and delta[i][j]]
        rhs = [Math(r"\frac{1}{n(n - 1)}\sum_{c, k} n_c\, n_k\, \delta^2_{ck}", "Σ n_c n_k δ²_ck / (n (n - 1))", False)]
        if len(pairs) <= _MAX_TERMS:
            rhs.append(_frac(_big(Math("2") + _sum([_times(number(n_c[i]), number(n_c[j]), number(delta[i][j]))
                                                     for i, j in pairs]).paren()), den))
        num = 2 * sum((n_c[i] * n_c[j] * delta[i][j] for i, j in pairs), Fraction(0))
    rhs += [_over(num, nn * (nn - 1)), approx(ex.d_e)]
    steps.append(_step("Expected disagreement {D_e}", chains=[Chain(Math("D_e"), *rhs)], brief=brief,
                       intro=prose("The disagreement expected between two values drawn without replacement "
                                   "from all {n} pairable values."),
                       symbol="D_e", value=res.d_e, exact=ex.d_e))

    # alpha
    formula = Math(r"1 - \frac{D_o}{D_e}", "1 - D_o / D_e", False)
    if ex.alpha is None:
        steps.append(_step("Krippendorff's alpha", chains=[Chain(_ALPHA, formula, approx(None))],
                           notes=[_undefined_note(res.reason)], brief=brief, symbol="alpha", value=res.alpha))
        return title, steps
    chain = Chain(_ALPHA, formula, Math("1 - ") + _frac(_big(number(ex.d_o)), _big(number(ex.d_e))),
                  Math("1 - ") + number(ex.d_o / ex.d_e), approx(ex.alpha))
    rounded = 1 - _r3(ex.d_o) / _r3(ex.d_e) if _r3(ex.d_e) else None
    notes = [_band_note(ex.alpha, _ALPHA), _rounding_note(ex.alpha, rounded, "D_o", "D_e")]
    steps.append(_step("Krippendorff's alpha", chains=[chain], notes=notes, brief=brief,
                       symbol="alpha", value=res.alpha, exact=ex.alpha))
    return title, steps


# ============================================================= bootstrap
_METRIC_NAMES = {"cohen_kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss' kappa",
                 "krippendorff_alpha": "Krippendorff's alpha"}


def _bootstrap_steps(res: BootstrapResult, brief: bool) -> tuple[str, list[Step]]:
    name = _METRIC_NAMES.get(res.metric, res.metric)
    confidence = format_number(res.confidence, ".0%")
    title = f"Bootstrap interval for {name} ({confidence})"
    used = res.n_boot - res.n_undefined
    intro = f"Draw the items with replacement, as many as the data has, and recompute {name}: {res.n_boot} times."
    note = Prose(f"{res.n_undefined} replicate(s) were undefined (every rating in one category) and are left out; "
                 f"{used} remain." if res.n_undefined else f"All {used} replicates are defined.")
    steps = [_step("Resample the items", intro=intro, notes=[note], brief=brief)]
    tail = (1 - res.confidence) / 2 * 100
    lo_q, hi_q = f"{tail:g}", f"{100 - tail:g}"
    chains = [Chain(Math(r"\text{estimate}", "estimate"), Math(fmt(res.estimate))),
              Chain(Math(r"\text{low}", "low"), Math(f"{lo_q}\\text{{th percentile}}", f"{lo_q}th percentile"),
                     Math(fmt(res.low)), inline=True),
              Chain(Math(r"\text{high}", "high"), Math(f"{hi_q}\\text{{th percentile}}", f"{hi_q}th percentile"),
                     Math(fmt(res.high)), inline=True)]
    note = Prose(f"{confidence} interval: [{fmt(res.low)}, {fmt(res.high)}] around {fmt(res.estimate)}.")
    steps.append(_step("Percentile interval", chains=chains, notes=[note], brief=brief,
                       symbol="interval", value=res.estimate))
    return title, steps


# ================================================================= entry
@options(style=STYLES)
def explain(result: Any, style: str = "full", items: Sequence[Any] | None = None) -> Explanation:
    """The worked solution of a result object, step by step.

    Parameters
    ----------
    result : CohenResult, PairwiseCohenResult, FleissResult, AlphaResult, BootstrapResult or Diagnosis
        What a metric function (or :func:`iaa_teach.diagnose`) returned. For a
        Diagnosis: alpha, alpha without the least-in-step rater, the most
        disputed item's disagreement and the most confused pair's o_ck / e_ck.
    style : {"full", "brief"}
        ``"full"``: each step with its table, formula, the numbers put in, the
        exact fraction and its 3-decimal value. ``"brief"``: only each step's
        result line.
    items : sequence, optional
        Item names for the Fleiss table (default 1, 2, ...).

    Returns
    -------
    Explanation
        ``.steps`` (each a :class:`Step` with ``title``, ``text``,
        ``markdown``, ``html``), ``.text()``, ``.markdown()``, ``.html()``;
        displays as Markdown.

    Raises
    ------
    AgreementError
        For a ``style`` other than ``"full"`` or ``"brief"``.

    Examples
    --------
    >>> import iaa_teach
    >>> from iaa_teach import cohen_kappa, datasets
    >>> ex = iaa_teach.explain(cohen_kappa(datasets.sentiment(), "A", "B"))
    >>> [step.title for step in ex.steps]
    ['Agreement table', 'Observed agreement P_o', 'Marginals', 'Chance agreement P_e', "Cohen's kappa"]
    >>> step = ex["Cohen's kappa"]
    >>> print(step.exact, iaa_teach.fmt(step.exact))
    29/59 0.492
    >>> print(step.text.splitlines()[-2])
      = 29/59 ≈ 0.492
    """
    if items is not None:
        n = len(result.p_i) if isinstance(result, FleissResult) else None
        if isinstance(items, (str, bytes)) or not hasattr(items, "__len__") or (n is not None and len(items) != n):
            raise AgreementError(f"items must give one name per item{f' ({n})' if n is not None else ''}, "
                                 f"got {items!r}")
    builders = {CohenResult: _cohen_steps, PairwiseCohenResult: _pairwise_steps,
                FleissResult: lambda res, brief: _fleiss_steps(res, brief, items),
                AlphaResult: _alpha_steps, BootstrapResult: _bootstrap_steps,
                Diagnosis: _diagnosis_steps}
    for kind, build in builders.items():
        if isinstance(result, kind):
            title, steps = build(result, style == "brief")
            return Explanation(title, [step for step in steps if step.body], result)
    raise AgreementError(f"explain() takes a result of cohen_kappa, pairwise_cohen, fleiss_kappa, "
                         f"krippendorff_alpha or bootstrap_ci, got {type(result).__name__}")


def ratings_table(ratings: Any, caption: str | None = None) -> Table:
    """The ratings as a table, one row per item, ``–`` where a rating is missing.

    >>> from iaa_teach import datasets
    >>> print(ratings_table(datasets.sentiment_missing()).text().splitlines()[3])
    3     N  –  N
    """
    check_text("caption", caption, none=True)
    r = as_ratings(ratings)
    rows = [[str(item), *(_MISSING if v is None else str(v) for v in row)]
            for item, row in zip(r.items, r.rows())]
    return Table(["item", *map(str, r.raters)], rows, caption)


def matrix_table(matrix: Any, row_labels: Sequence[Any], col_labels: Sequence[Any] | None = None, *,
                 totals: bool = True, caption: str | None = None, corner: str = "") -> Table:
    r"""A matrix a student reads (agreement table, counts, pairs, coincidences, distances) with its labels.

    Parameters
    ----------
    matrix : array-like, shape (r, c)
        Integers, floats or :class:`fractions.Fraction`. Whole numbers show as
        integers, other exact values as fractions (``3/2``), floats that are
        no simple fraction rounded half up to 3 decimals.
    row_labels, col_labels : sequence
        Names of the rows and columns (``col_labels`` defaults to ``row_labels``).
    totals : bool
        Add a "total" column and row (and the grand total).
    caption : str, optional
        A line above the table (what the rows and columns are).
    corner : str
        The top-left cell, e.g. ``"A \\ B"`` (rows: A's label, columns: B's).

    Returns
    -------
    Table
        Displays as Markdown in a notebook; ``.text()``, ``.html()``.

    Examples
    --------
    >>> print(matrix_table([[4, 1], [0, 5]], ["yes", "no"], corner="A \\ B").text())
    A \ B  yes  no  total
    yes      4   1      5
    no       0   5      5
    total    4   6     10
    """
    m = np.asarray(matrix, dtype=object)
    if m.ndim != 2:
        raise AgreementError(f"matrix_table needs a 2-d matrix, got shape {m.shape}")
    rows_l = [str(x) for x in row_labels]
    cols_l = [str(x) for x in (row_labels if col_labels is None else col_labels)]
    if m.shape != (len(rows_l), len(cols_l)):
        raise AgreementError(f"matrix of shape {m.shape} does not fit {len(rows_l)} row and {len(cols_l)} column labels")

    def exact(x: Any) -> Fraction | float:
        if isinstance(x, (float, np.floating)):
            q = Fraction(float(x)).limit_denominator(1000)
            return q if abs(float(q) - float(x)) < 1e-12 else float(x)
        return Fraction(x)

    values = [[exact(x) for x in row] for row in m]

    def shown(x: Fraction | float) -> str:
        return fmt(x) if isinstance(x, float) else _cell(x)

    body = [[rows_l[i], *(shown(x) for x in row)] for i, row in enumerate(values)]
    header = [corner, *cols_l]
    if totals:
        header.append("total")
        for line, row in zip(body, values):
            line.append(shown(sum(row, Fraction(0))))
        col_sums = [sum((values[i][j] for i in range(len(values))), Fraction(0)) for j in range(len(cols_l))]
        body.append(["total", *(shown(x) for x in col_sums), shown(sum(col_sums, Fraction(0)))])
    return Table(header, body, caption)


# ============================================================= diagnosis
_ALPHA_LOO = Math(r"\alpha'", "α'")


def _diagnosis_steps(report: Diagnosis, brief: bool) -> tuple[str, list[Step]]:
    """The report's key steps: alpha, alpha without the top rater, the top item, the top pair."""
    r, alpha = report.ratings, report.alpha
    title = (f"Where the disagreement comes from: {r.n_items} items x {r.n_raters} raters, "
             f"Krippendorff's alpha ({report.level})")
    steps = [_whole_alpha_step(alpha, brief)]
    raters = report.rater_ranking()
    if len(raters):
        steps.append(_without_rater_step(report, raters[0], brief))
    steps.append(_item_step(report, report.item_ranking()[0], brief))
    pairs = report.confused_pairs()
    if len(pairs):
        steps.append(_pair_step(report, pairs[0], brief))
    return title, steps


def _whole_alpha_step(alpha: AlphaResult, brief: bool) -> Step:
    ex = alpha.exact
    formula = Math(r"1 - \frac{D_o}{D_e}", "1 - D_o / D_e", False)
    chains = [Chain(Math("D_o"), approx(ex.d_o)), Chain(Math("D_e"), approx(ex.d_e))]
    if ex.alpha is None:
        chains.append(Chain(_ALPHA, formula, approx(None)))
    else:
        chains.append(Chain(_ALPHA, formula, Math("1 - ") + _frac(_big(number(ex.d_o)), _big(number(ex.d_e))),
                            approx(ex.alpha)))
    intro = prose("All the ratings together: {n} pairable values, observed disagreement {D_o} against the "
                  "disagreement {D_e} of values paired at random.", n=Math(f"n = {alpha.n}"))
    note = prose("Every step of it: {call}.", call=Em("explain(report.alpha)"))
    return _step("Alpha of the whole table", intro=intro, chains=chains, brief=brief,
                 notes=[_undefined_note(alpha.reason), note], symbol="alpha", value=alpha.alpha, exact=ex.alpha)


def _without_rater_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    name = row["rater"]
    heading = prose("Alpha without {name}", name=name)
    whole = report.alpha.exact.alpha
    try:
        without = report.alpha_without_rater(name)
    except AgreementError as err:  # nothing pairable is left
        return _step(heading, chains=[Chain(_ALPHA_LOO, approx(None))], notes=[_undefined_note(str(err))],
                     brief=brief, symbol="alpha_without", value=row["alpha_without"])
    ex = without.exact
    d_o, d_e = Math("D_o'"), Math("D_e'")
    chains = [Chain(Math("n'"), number(int(ex.n))), Chain(d_o, approx(ex.d_o)), Chain(d_e, approx(ex.d_e))]
    formula = Math(r"1 - \frac{D_o'}{D_e'}", "1 - D_o' / D_e'", False)
    if ex.alpha is None:
        chains.append(Chain(_ALPHA_LOO, formula, approx(None)))
    else:
        chains.append(Chain(_ALPHA_LOO, formula, Math("1 - ") + _frac(_big(number(ex.d_o)), _big(number(ex.d_e))),
                            approx(ex.alpha)))
    rise = Math(r"\alpha' - \alpha", "α' - α", False)
    if ex.alpha is not None and whole is not None:
        chains.append(Chain(Math(r"\text{rise}", "rise"), rise, approx(ex.alpha - whole)))
    intro = prose("Take {name}'s column out and compute alpha again from the other raters' labels; write {a} for "
                  "it. Every item {name} labelled has one value fewer, and an item left with a single value is "
                  "no longer pairable.", name=name, a=_ALPHA_LOO)
    notes = [_undefined_note(without.reason)]
    if ex.alpha is not None and whole is not None:
        if ex.alpha > whole:
            notes.append(prose("The others agree better without {name}: {name} is the rater least in step with "
                               "the rest, first in the rater ranking.", name=name))
        else:
            notes.append(prose("Even without {name}, the rater whose absence helps most, alpha does not rise: "
                               "no single rater holds the others back.", name=name))
    if not _is_nan(row["mean_kappa"]):
        overuse = (prose(", most in {c} (their share of it is {v} above the others')", c=Em(row["overused"]),
                         v=fmt(row["overuse"])) if row["overused"] is not None else "")
        notes.append(prose("{name}'s mean Cohen's kappa with the others is {k} ({p} pairs); their labels differ "
                           "from the others' mix on the same items by {b} (total variation){over}.", name=name,
                           k=fmt(row["mean_kappa"]), p=row["kappa_pairs"], b=fmt(row["bias"]), over=overuse))
    notes.append(Prose("The report does not recompute alpha for each rater: the table's counts are sums over "
                       "raters, so it subtracts each rater's own part and gets the same fractions at once."))
    return _step(heading, intro=intro, chains=chains, notes=notes, brief=brief, symbol="alpha_without",
                 value=without.alpha, exact=ex.alpha)


def _item_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    item, counts = row["item"], row["label_counts"]
    heading = prose("Disagreement on item {item}", item=item)
    exact = report.item_disagreement_exact(item)
    n_i = int(row["ratings"])
    used = [(c, int(v)) for c, v in counts.items() if v]
    table = Table(["category", "n_ij"], [[str(c), str(v)] for c, v in used], caption=f"item {item}: {n_i} ratings")
    d_i = Math("D_i")
    pairs = Math(f"{n_i} \\cdot {n_i - 1}", f"{n_i} × {n_i - 1}")
    if exact is None:
        return _step(heading, table=table, chains=[Chain(d_i, approx(None))], brief=brief,
                     notes=[Prose("Fewer than 2 ratings: no pair to disagree.")], symbol="D_i", value=row["disagreement"])
    if report.level == "nominal":
        formula = _frac(Math(r"n_i^2 - \sum_j n_{ij}^2", "n_i² - Σ_j n_ij²"), Math("n_i(n_i - 1)"))
        sub = _frac(Math(f"{n_i}^2 - ", f"{n_i}² - ")
                    + _sum([Math(f"{v}^2", f"{v}²") for _, v in used]).paren(), pairs)
        num = n_i * n_i - sum(v * v for _, v in used)
        intro = prose("The item's {n_i} ratings (below, by category; categories no one chose left out) make {p} "
                      "ordered pairs; {D_i} is the share of them that disagree, {one} of Fleiss' kappa.", p=Math(f"n_i(n_i - 1) = {n_i * (n_i - 1)}", f"n_i (n_i - 1) = "
                                                         f"{n_i * (n_i - 1)}"),
                      D_i=d_i, one=Math("1 - P_i"))
    else:
        cats = list(report.ratings.categories)
        delta = report.alpha.exact.delta
        idx = [(cats.index(c), v) for c, v in used]
        terms = [(v, w, delta[a][b]) for x, (a, v) in enumerate(idx) for (b, w) in idx[x + 1:] if delta[a][b]]
        formula = _frac(Math(r"\sum_{j \ne l} n_{ij}\, n_{il}\, \delta^2_{jl}", "Σ_{j≠l} n_ij n_il δ²_jl"),
                        Math("n_i(n_i - 1)"))
        sub = (_frac(_big(Math("2") + _sum([_times(number(v), number(w), number(q)) for v, w, q in terms]).paren()),
                     pairs) if len(terms) <= _MAX_TERMS else None)
        num = 2 * sum((v * w * q for v, w, q in terms), Fraction(0))
        intro = prose("The mean distance {delta2} ({level}) over the {p} ordered pairs of the item's ratings "
                      "(below, by category; categories no one chose left out).",
                      level=report.level, p=n_i * (n_i - 1))
    chain = Chain(d_i, formula, sub, _over(Fraction(num), n_i * (n_i - 1)), approx(exact))
    notes = [prose("Item {item} is first in the item ranking: the most disputed. Its share of the table's {D_o} is "
                   "{share}: {D_o} is the mean of the items' {D_i} weighted by their {n_i}.", item=item, D_i=d_i,
                   share=fmt(row["share_of_d_o"]))]
    return _step(heading, intro=intro, table=table, chains=[chain], notes=notes, brief=brief, symbol="D_i",
                 value=row["disagreement"], exact=exact)


def _pair_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    first, second = row["first"], row["second"]
    heading = prose("Confusion of {c} and {k}", c=first, k=second)
    ex = report.alpha.exact
    cats = list(report.ratings.categories)
    c, k = cats.index(first), cats.index(second)
    pair = report.pair_exact(first, second)
    n_c, n_k, n = ex.n_c[c], ex.n_c[k], ex.n
    o_ck, e_ck = Math("o_{ck}", "o_ck"), Math("e_{ck}", "e_ck")
    chains = [Chain(o_ck, approx(pair.observed)),
              Chain(e_ck, Math(r"\frac{n_c\, n_k}{n - 1}", "n_c n_k / (n - 1)", False),
                    _frac(_times(number(n_c), number(n_k)), number(n - 1)), approx(pair.expected))]
    ratio = Math(r"\frac{o_{ck}}{e_{ck}}", "o_ck / e_ck", False)
    if pair.ratio is None:
        chains.append(Chain(ratio, approx(None)))
    else:
        chains.append(Chain(ratio, _frac(_big(number(pair.observed)), _big(number(pair.expected))),
                            approx(pair.ratio)))
    intro = prose("With {c} = {first} and {k} = {second}: {o_ck} counts the pairs of ratings of the same item "
                  "that are one {first} and one {second}, each item's pairs weighted by {w} ({pairs} such pairs "
                  "unweighted); {e_ck} is what values paired at random would give, from the {n_c} = {nc} and "
                  "{n_k} = {nk} pairable values in each category, of {n} in all.",
                  c=Math("c"), k=Math("k"), first=first, second=second, o_ck=o_ck, e_ck=e_ck,
                  w=Math(r"1/(n_i - 1)", "1/(n_i - 1)"), pairs=int(row["pairs"]), n_k=Math("n_k"),
                  nc=number(n_c), nk=number(n_k), n=Math(f"n = {number(n).txt}"))
    notes = []
    if pair.ratio is not None:
        more = pair.ratio > 1
        notes.append(prose("The most confused pair is {first} and {second}: {how}.", first=first, second=second,
                           how=("the raters put them on the same item more often than chance would pair them"
                                if more else "still below chance (a ratio under 1), but the closest of all pairs")))
    return _step(heading, intro=intro, chains=chains, notes=notes, brief=brief, symbol="ratio",
                 value=row["ratio"], exact=pair.ratio)


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and value != value
