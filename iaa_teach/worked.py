"""Words out: any result object as a worked solution, step by step.

:func:`explain` turns a :class:`~iaa_teach.CohenResult`,
:class:`~iaa_teach.PairwiseCohenResult`, :class:`~iaa_teach.FleissResult`,
:class:`~iaa_teach.AlphaResult`, :class:`~iaa_teach.BootstrapResult` or a
result of the rest of the family (:class:`~iaa_teach.PercentAgreementResult`,
:class:`~iaa_teach.BrennanPredigerResult`, :class:`~iaa_teach.ScottResult`,
:class:`~iaa_teach.CongerResult`, :class:`~iaa_teach.GwetResult`) into an
:class:`Explanation`: a list of :class:`Step` objects. The family's
explanations (and weighted Fleiss') end with the standard error and the 95 %
interval. Each step is built once
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

import math
import tomllib
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ._markup import (
    SYMBOLS,
    Chain,
    Em,
    Equations,
    Math,
    Prose,
    Shown,
    Table,
    approx,
    html_escape,
    margin_name,
    md_escape,
    number,
    prose,
    render,
    tex_text,
    with_symbols,
)
from ._validation import AgreementError, check_text, check_type, options
from .course import alpha_guidance, alpha_verdict
from .diagnosis import Diagnosis
from .metrics import (
    AlphaResult,
    BootstrapResult,
    BrennanPredigerResult,
    CohenResult,
    CongerResult,
    FleissResult,
    GwetResult,
    PairwiseCohenResult,
    PercentAgreementResult,
    ScottResult,
    interpret,
)
from .ratings import as_ratings
from .rounding import fmt, format_number, round_half_up

__all__ = [
    "Explanation",
    "Hidden",
    "Step",
    "Table",
    "chance_rule",
    "kappa_label",
    "explain",
    "ratings_table",
    "matrix_table",
]

_STYLES = ("full", "brief")

#: How each Fleiss chance rule is named wherever a Fleiss number is shown.
_CHANCE_RULE_NAMES = {
    "pooled": "pooled proportions over all ratings",
    "item_mean": "mean of the per-item proportions",
}

_MAX_LISTED = 20  # list items one by one up to this many, group them beyond
_MAX_TERMS = 12  # write a sum out term by term up to this many terms
_MISSING = "–"
_KAPPA, _ALPHA, _SE = SYMBOLS["kappa"], SYMBOLS["alpha"], SYMBOLS["SE"]
#: the size of the population the items were drawn from (the finite-population correction's)
_N_POP = Math(r"N_{\text{pop}}", "N_pop")


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
        :class:`Table`, ``Equations``, notes.
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
            return (
                f'<div class="iaa-explanation"><p><b>{html_escape(self.title, math)}</b></p>'
                + "".join(steps)
                + "</div>"
            )
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

    def _repr_markdown_(self) -> str:
        shown = self.content._repr_markdown_() if isinstance(self.content, Step) else self.content.markdown()
        return f"<details><summary>{html_escape(self.summary)}</summary>\n\n{shown}\n</details>\n"

    def __repr__(self) -> str:
        shown = repr(self.content) if isinstance(self.content, Step) else self.content.text()
        return f"{self.summary}:\n\n{shown}".rstrip("\n")


# ================================================== formulas, in both notations
#: The words of the steps (headings, sentences, formulas), which a lecturer edits in content/worked.toml.
_CONTENT = tomllib.loads((Path(__file__).parent / "content" / "worked.toml").read_text("utf-8"))


def _say(key: str, **values: Any) -> Prose:
    """The sentence ``key`` of content/worked.toml, its ``{fields}`` filled in (a symbol unless given)."""
    return prose(_CONTENT["say"][key], **values)


def _title(key: str, **values: Any) -> str:
    """The title (or a part of one) ``key`` of content/worked.toml, its ``{fields}`` filled in."""
    return _CONTENT["title"][key].format(**values)


def _formula(key: str) -> Math:
    """A formula of content/worked.toml, written in brackets where it is an operand."""
    return Math(*_CONTENT["formula"][key], atom=False)


def _symbol(key: str) -> Math:
    """A name of content/worked.toml that stands alone as an operand."""
    return Math(*_CONTENT["symbol"][key])


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
    txt = f"({scale.txt})({inner.txt})" if "/" in scale.txt else f"{scale.text_operand()}({inner.txt})"
    return Math(f"{scale.tex}{inner.paren().tex}", txt, atom=False)


def _over(num: Fraction, den: int) -> Math:
    """num / den, written as one fraction when num is whole."""
    num = Fraction(num)
    return _ratio(num.numerator, int(den)) if num.denominator == 1 else _frac(number(num), number(den))


def _times(*factors: Math) -> Math:
    txt = " × ".join(f.text_operand() for f in factors)
    return Math(r" \cdot ".join(f.tex for f in factors), txt, atom=False)


def _sum(terms: Sequence[Math], signs: Sequence[int] | None = None) -> Math:
    """terms joined by + (or - where signs[i] < 0)."""
    if not terms:
        return number(0)
    signs = signs or [1] * len(terms)
    ops = [("-" if s < 0 else "") if i == 0 else (" - " if s < 0 else " + ") for i, s in enumerate(signs)]
    tex, txt = ("".join(op + getattr(t, side) for op, t in zip(ops, terms)) for side in ("tex", "txt"))
    return Math(tex, txt, atom=len(terms) == 1 and signs[0] > 0)


def _squared(x: Fraction | int) -> Math:
    """A whole number squared: ``12^2``."""
    return Math(f"{number(x).tex}^2", f"{number(x).txt}²")


def _pairs_of(n: int) -> Math:
    """``n · (n - 1)``: the ordered pairs of n things."""
    return _times(number(n), number(n - 1))


def _ratio_of(num: Fraction, den: Fraction) -> Math:
    """One exact number over another, their own fractions at full size."""
    return _frac(_big(number(num)), _big(number(den)))


def _weighted(weight: Fraction, *factors: Any) -> Math:
    """``w · a · b``, the weight left out where it is 1."""
    return _times(*([] if weight == 1 else [number(weight)]), *map(number, factors))


def _square_gap(n: int, values: Sequence[Any], den: Math) -> Math:
    """``(n^2 - (a^2 + b^2 + ...)) / den``."""
    return _frac(Math(f"{n}^2 - ", f"{n}² - ") + _sum([_squared(v) for v in values]).paren(), den)


def _twice(terms: Sequence[Math], den: Math) -> Math:
    """``2 (t_1 + t_2 + ...) / den``: a symmetric sum written once per unordered pair."""
    return _frac(_big(Math("2") + _sum(terms).paren()), den)


def _q_sum(values: Sequence[Fraction]) -> Math:
    """A sum of exact numbers, negatives written with a minus."""
    return _sum([number(abs(v)) for v in values], [(-1 if v < 0 else 1) for v in values])


def _grouped(values: Sequence[Fraction]) -> Math:
    """A sum of exact numbers grouped by value: ``6 · 1 + 4 · 1/3``."""
    counts = Counter(values)
    order = sorted(counts, reverse=True)
    terms = [number(abs(v)) if counts[v] == 1 else _times(number(counts[v]), number(abs(v))) for v in order]
    return _sum(terms, [-1 if v < 0 else 1 for v in order])


def _short(terms: Sequence[Any], write: Any) -> Math | None:
    """``write(terms)``, the sum written out term by term, if there are at most :data:`_MAX_TERMS` terms."""
    return write(terms) if len(terms) <= _MAX_TERMS else None


class _Labels:
    """Category names in subscripts: ``p_{G}``, ``n_{GN}`` (commas if any name is longer)."""

    def __init__(self, categories: Sequence[Any]):
        self.names = [str(c) for c in categories]
        self.short = all(len(n) == 1 for n in self.names)

    def sub(self, *idx: int) -> tuple[str, str]:
        """The subscript of one or two categories, in LaTeX and in text."""
        names = [self.names[i] for i in idx]
        if self.short:
            return tex_text("".join(names)), "".join(names)
        return ",".join(map(tex_text, names)), f"({','.join(names)})"

    def margin(self, j: int, first: bool) -> Math:
        """``p_{j+}``, the first rater's share of category j, or ``p_{+j}``, the second's."""
        tex, txt = self.sub(j)
        return Math(f"p_{{{tex}+}}", f"p_{txt}+") if first else Math(f"p_{{+{tex}}}", f"p_+{txt}")

    def sym(self, symbol: str, *idx: int) -> Math:
        tex, txt = self.sub(*idx)
        return Math(f"{symbol}_{{{tex}}}", f"{symbol}_{txt}")


# =============================================================== steps
def _step(
    heading: Prose | str,
    brief: bool,
    *chains: Chain,
    intro: Prose | None = None,
    table: Table | None = None,
    notes: Sequence[Prose | None] = (),
    symbol: str | None = None,
    value: float | None = None,
    exact: Fraction | None = None,
    **fields: Any,
) -> Step:
    """A step from its parts; ``brief`` keeps only the equations' last values and the notes.

    ``heading``: a heading of content/worked.toml (its ``{fields}`` from ``fields``) or the words themselves.
    """
    if isinstance(heading, str):
        heading = prose(_CONTENT["heading"].get(heading, heading), **fields)
    body = ([] if brief else [intro, table]) + [Equations(chains, brief), *notes]
    return Step(heading, tuple(b for b in body if b is not None and b), symbol, value, exact)


def _of(res: Any, symbol: str, attr: str | None = None) -> dict:
    """The ``symbol``, ``value`` and ``exact`` of a step ending with ``res``'s ``attr``.

    ``attr`` defaults to the symbol in lower case (``"P_o"``: ``res.p_o`` and ``res.exact.p_o``).
    """
    attr = attr or symbol.lower()
    return {"symbol": symbol, "value": getattr(res, attr), "exact": getattr(res.exact, attr)}


def _undefined_step(
    heading: Prose | str, brief: bool, lhs: Math, *rhs: Math | None, reason: str | None, **kw: Any
):
    """A step whose value is undefined: its formula (if any), "undefined", and why."""
    return _step(heading, brief, Chain(lhs, *rhs, approx(None)), notes=[_undefined_note(reason)], **kw)


def _shown(x: Fraction | float) -> str:
    """A table cell: an exact value as a whole number or a fraction (``3/2``), a float rounded half up."""
    return fmt(x) if isinstance(x, float) else str(Fraction(x))


def _grid(
    values: Sequence[Sequence[Any]],
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    corner: str = "",
    total: str | None = None,
    caption: str | None = None,
) -> Table:
    """A labelled matrix of exact values.

    ``total`` names a column of row totals (and adds a row of totals); ``"total"`` is a name for both
    margins, which :func:`margin_name` changes where a row or column is called so.
    """
    body = [[label, *map(_shown, row)] for label, row in zip(row_labels, values)]
    header = [corner, *col_labels]
    if total:
        margin = margin_name([*row_labels, *col_labels])
        header.append(margin if total == "total" else total)
        for line, row in zip(body, values):
            line.append(_shown(sum(row, Fraction(0))))
        col_sums = [sum((row[j] for row in values), Fraction(0)) for j in range(len(col_labels))]
        body.append([margin, *map(_shown, col_sums), _shown(sum(col_sums, Fraction(0)))])
    return Table(header, body, caption)


def _band_note(exact: Fraction, sym: Math) -> Prose:
    band = Em(interpret(max(float(exact), -1.0)))  # Fleiss' kappa can fall below -1: poor
    return _say("band", sym=sym, value=fmt(exact), band=band)


def _alpha_note(exact: Fraction) -> Prose:
    """Alpha's verdict from Krippendorff's own thresholds (0.800, 0.667).

    Not the Landis-Koch bands of kappa.
    """
    verdict = Em(alpha_verdict(exact))
    return _say("alpha_band", guidance=alpha_guidance(), sym=_ALPHA, value=fmt(exact), verdict=verdict)


def _rounding_note(exact: Fraction, rounded: Fraction | None, first: str, second: str) -> Prose | None:
    """Say so when rounding the intermediate values first moves the third decimal."""
    if rounded is None or fmt(rounded) == fmt(exact):
        return None
    words = {"first": Math(first), "second": Math(second), "rounded": fmt(rounded), "exact": fmt(exact)}
    return _say("rounding", **words)


def _undefined_note(reason: str | None) -> Prose | None:
    return with_symbols(f"Undefined: {reason}.") if reason else None


# ================================================================= Cohen
def _cohen_steps(res: CohenResult, brief: bool) -> tuple[str, list[Step]]:
    ex, lab = res.exact, _Labels(res.categories)
    t = np.asarray(res.table, dtype=np.int64)
    k, n = t.shape[0], int(t.sum())
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    a, b = str(res.rater_a), str(res.rater_b)
    weighted = res.weights is not None
    dropped = _title("dropped", n=res.n_dropped) if res.n_dropped else ""
    title = _title(
        "cohen", a=a, b=b, weights=_title("weights", w=res.weights) if weighted else "", n=n, dropped=dropped
    )
    if n == 0:  # nothing to compare: one step that says why
        return title, [_undefined_step("cohen", brief, _KAPPA, reason=res.reason, **_of(res, "kappa"))]
    extra = _say("cohen_dropped", n=res.n_dropped) if res.n_dropped else ""
    corner = f"{a} \\ {b}"
    table = _grid(t.tolist(), lab.names, lab.names, corner, "total")
    steps = [_step("table", brief, intro=_say("cohen_table", a=a, b=b, extra=extra), table=table)]
    if weighted:
        top = int(np.asarray(res.weight_matrix).max())
        agree = ex.agreement_weights
        kind_tex, kind_txt = (
            (r"\lvert j - k \rvert", "|j - k|") if res.weights == "linear" else ("(j - k)^2", "(j - k)²")
        )
        w = Math(f"w_{{jk}} = 1 - \\frac{{{kind_tex}}}{{{top}}}", f"w_jk = 1 - {kind_txt} / {top}")
        table = _grid(agree, lab.names, lab.names, corner)
        steps.append(_step("weights", brief, intro=_say("cohen_weights", w=w), table=table))
        terms = [(agree[i][j], int(t[i, j])) for i in range(k) for j in range(k) if agree[i][j] and t[i, j]]
        num = sum((q * c for q, c in terms), Fraction(0))
        sub = _short(terms, lambda ts: _frac(_sum([_weighted(q, c) for q, c in ts]), number(n)))
        p_o_chain = Chain(Math("P_o"), _formula("cohen_p_o_weighted"), sub, _over(num, n), approx(ex.p_o))
    else:
        diag = [lab.sym("n", j, j) for j in range(k)]
        formula = _frac(_sum(diag), Math("N")) if k <= 6 else _formula("cohen_p_o")
        p_o_chain = Chain(
            Math("P_o"),
            formula,
            _frac(_sum([number(x) for x in np.diag(t)]), number(n)),
            _ratio(int(np.trace(t)), n) if k > 1 else None,
            approx(ex.p_o),
        )
    intro = _say("cohen_p_o", how=" (weighted)." if weighted else ".")
    steps.append(_step("p_o", brief, p_o_chain, intro=intro, **_of(res, "P_o")))
    marg = [
        Chain(lab.margin(j, first), _ratio(int(totals[j]), n), approx(shares[j]), inline=True)
        for first, totals, shares in ((True, rows, ex.row_marginals), (False, cols, ex.col_marginals))
        for j in range(k)
    ]
    intro = _say("marginals", row=_symbol("p_row"), col=_symbol("p_col"), a=a, b=b)
    steps.append(_step("marginals", brief, *marg, intro=intro))
    if weighted:
        terms = [
            (agree[i][j], int(rows[i]), int(cols[j]))
            for i in range(k)
            for j in range(k)
            if agree[i][j] and rows[i] and cols[j]
        ]
        num = sum((q * r * c for q, r, c in terms), Fraction(0))
        sub = _short(terms, lambda ts: _frac(_sum([_weighted(q, r, c) for q, r, c in ts]), _squared(n)))
        formula = _formula("cohen_p_e_weighted")
        p_e_chain = Chain(Math("P_e"), formula, sub, _frac(number(num), number(n * n)), approx(ex.p_e))
    else:
        prods = [_times(_ratio(int(rows[j]), n), _ratio(int(cols[j]), n)) for j in range(k)]
        formula = (
            _sum([lab.margin(j, True) + Math(r"\, ", " ") + lab.margin(j, False) for j in range(k)])
            if k <= 6
            else _formula("cohen_p_e")
        )
        p_e_chain = Chain(
            Math("P_e"),
            formula,
            _sum(prods),
            _frac(_sum([number(rows[j] * cols[j]) for j in range(k)]), number(n * n)),
            _ratio(int((rows * cols).sum()), n * n),
            approx(ex.p_e),
        )
    steps.append(_step("p_e", brief, p_e_chain, intro=_say("cohen_p_e"), **_of(res, "P_e")))
    sym = SYMBOLS["kappa_w"] if weighted else _KAPPA  # the lesson's symbol for weighted kappa
    steps.append(_coefficient_step(res, "Cohen's kappa", "P_o", ex.p_o, brief, sym=sym))
    return title, steps


def _coefficient_step(
    res: Any, title: str, obs: str, p_o: Fraction, brief: bool, sym: Math = _KAPPA, symbol: str = "kappa"
) -> Step:
    """(P_o - P_e) / (1 - P_e) of ``res``, shared by Cohen, Fleiss and the rest of the family.

    ``sym``: the coefficient's symbol.
    """
    p_e, value_exact = res.exact.p_e, res.exact_value
    formula = _frac(Math(f"{obs} - P_e", atom=False), Math("1 - P_e", atom=False))
    said = {"symbol": symbol, "value": float(res)}
    if p_e is None:  # no chance agreement to put in
        return _undefined_step(title, brief, sym, formula, reason=res.reason, **said)
    if value_exact is None:
        put_in = _put_in(p_o, p_e), _frac(number(p_o - p_e), number(0))
        return _undefined_step(title, brief, sym, formula, *put_in, reason=res.reason, **said)
    chain = Chain(sym, formula, _put_in(p_o, p_e), _ratio_of(p_o - p_e, 1 - p_e), approx(value_exact))
    r_o, r_e = round_half_up(p_o), round_half_up(p_e)
    rounded = (r_o - r_e) / (1 - r_e) if r_e != 1 else None
    notes = [_band_note(value_exact, sym), _rounding_note(value_exact, rounded, obs, "P_e")]
    return _step(title, brief, chain, notes=notes, exact=value_exact, **said)


def _put_in(p_o: Fraction, p_e: Fraction) -> Math:
    """(P_o - P_e) / (1 - P_e) with the numbers put in."""
    return _frac(_big(number(p_o) + Math(" - ") + number(p_e)), _big(Math("1 - ") + number(p_e)))


def _root(var: Fraction | None, se: float) -> Math:
    """``√(8/675) ≈ 0.109``: the exact variance, then the SE.

    The variance is written as a fraction where it is a short one, else to 5 decimals.
    """
    if var is not None and Fraction(var).denominator < 10**6:
        inside = number(var)
    else:
        inside = Math(fmt(var if var is not None else se * se, 5))
    return Math(r"\sqrt{" + inside.tex + r"} \approx " + fmt(se), f"√({inside.txt}) ≈ {fmt(se)}", False)


def _linearized(sym: Math) -> Math:
    """Item i's linearized value of the coefficient ``sym``: ``\\kappa^*_i``; a symbol with a subscript of
    its own adds ``i`` to it, as ``P_{a,i}`` does (``\\mathrm{AC}_{1,i}^*``, not a subscript under one)."""
    base, _, sub = sym.tex.rpartition("_")
    if base and sub.strip("{}").isalnum():
        return Math(f"{base}_{{{sub.strip('{}')},i}}^*", sym.txt + "*_i")
    return Math(sym.tex + "^*_i", sym.txt + "*_i")


def _uncertainty_step(res: Any, sym: Math, brief: bool, confidence: float = 0.95) -> Step | None:
    """The standard error (Gwet's linearized variance) and the confidence interval.

    Only for a defined coefficient.
    """
    if not res.defined:
        return None  # the coefficient's own step says why
    share = format_number(confidence, ".0%")
    if math.isnan(res.se):
        return _undefined_step("se", brief, _SE, reason=res.se_reason, symbol="se", value=res.se, share=share)
    n = res.df + 1 if res.df is not None else None
    # the course's N (items); N' where items without a rating are left out (as the p_j step writes it)
    every = n is None or not hasattr(res, "counts") or n == len(res.counts)
    items = Math("N") if every else Math("N'")
    c_i = _linearized(sym)
    spread = Math(r"\sum_i (" + c_i.tex + " - " + sym.tex + ")^2", f"Σ_i ({c_i.txt} - {sym.txt})²", False)
    pairs = Math(f"{items.tex}({items.tex} - 1)", f"{items.txt}({items.txt} - 1)")
    fpc = Math(f"1 - {items.tex}/{_N_POP.tex}", f"1 - {items.txt}/{_N_POP.txt}", False)
    scale = _frac(fpc if res.population else Math("1"), pairs)
    root = Math(r"\sqrt{" + scale.tex + " " + spread.tex + "}", f"√({scale.txt} × {spread.txt})", False)
    se_chain = Chain(_SE, root, _root(res.exact.variance, res.se))
    low, high = res.ci(confidence)
    tail = format_number((1 + confidence) / 2, ".3f").rstrip("0")
    if res.df is None:
        crit_sym = Math(f"z_{{{tail}}}", f"z_{tail}")
        crit_words = _say("se_z", z=crit_sym)
    else:
        crit_sym = Math(f"t_{{{tail};\\,{res.df}}}", f"t_{tail};{res.df}")
        df = Math(f"{items.tex} - 1 = {res.df}", f"{items.txt} - 1 = {res.df}")
        crit_words = _say("se_t", t=crit_sym, df=df)
    crit = (float(res) - low) / res.se if res.se > 0 else None
    numbers = fmt(res), fmt(crit), fmt(res.se)
    put_in = "{} \\pm {} \\cdot {}".format(*numbers), "{} ± {} × {}".format(*numbers)
    ci_chain = Chain(
        Math(share.replace("%", r"\%") + r"\ \text{CI}", f"{share} CI"),
        Math(f"{sym.tex} \\pm {crit_sym.tex} \\cdot {_SE.tex}", f"{sym.txt} ± {crit_sym.txt} × SE", False),
        Math(*put_in, False) if crit is not None else None,
        Math(f"[{fmt(low)},\\ {fmt(high)}]", f"[{fmt(low)}, {fmt(high)}]"),
    )
    counted = Math(f"{items.tex} = {n}", f"{items.txt} = {n}")
    left_out = "" if every else _say("se_unrated", N=Math(f"N = {len(res.counts)}"))
    intro = (
        _say("se_gwet", N=counted, left_out=left_out, c_i=c_i, sym=sym)
        if res.df is not None
        else _say("se_fleiss")
    )
    population = Math(f"{_N_POP.tex} = {res.population}", f"{_N_POP.txt} = {res.population}")
    notes = [
        crit_words,
        _say("se_population", N=items, N_pop=population, fpc=fpc) if res.population else None,
        _say("se_capped") if float(res) + (crit or 0) * res.se > 1 else None,
    ]
    return _step(
        "se", brief, se_chain, ci_chain, intro=intro, notes=notes, symbol="se", value=res.se, share=share
    )


# ============================================================= pairwise
def _pairwise_steps(res: PairwiseCohenResult, brief: bool) -> tuple[str, list[Step]]:
    title = _title("pairwise", n=len(res.results))
    steps = []
    for (a, b), r in zip(res.pairs, res.results):
        ex = r.exact
        sym = Math(f"\\kappa_{{{tex_text(a)}{tex_text(b)}}}", f"κ_{a}{b}")
        chains = [
            Chain(Math("P_o"), approx(ex.p_o)),
            Chain(Math("P_e"), approx(ex.p_e)),
            Chain(sym, None if ex.kappa is None else _put_in(ex.p_o, ex.p_e), approx(ex.kappa)),
        ]
        dropped = _say("pair_dropped", n=r.n_items) if r.n_dropped else ""
        intro = _say("pair", a=a, b=b, dropped=dropped)
        steps.append(_step("pair", brief, *chains, intro=intro, a=a, b=b, **_of(r, "kappa")))
    kap = list(res.exact.kappas)
    defined = [(q, p) for q, p in zip(kap, res.pairs) if q is not None]
    mean = res.exact.mean_kappa
    kappa_bar = _symbol("kappa_bar")
    chain = Chain(
        kappa_bar, None if mean is None else _scaled(_ratio(1, len(kap)), _q_sum(kap)), approx(mean)
    )
    note = Prose(f"Undefined: {res.reason}.") if res.reason else None
    if not res.reason and len(defined) >= 2:
        (high, (a1, b1)), (low, (a2, b2)) = max(defined, key=_first), min(defined, key=_first)
        note = _say("pairs_range", a1=a1, b1=b1, high=fmt(high), a2=a2, b2=b2, low=fmt(low))
    return title, [
        *steps,
        _step("light", brief, chain, intro=_say("light"), notes=[note], **_of(res, "mean_kappa")),
    ]


def _first(pair: tuple) -> Any:
    return pair[0]


# ================================================================ Fleiss
def chance_rule(result: FleissResult) -> str:
    """The Fleiss chance rule of a result in words, e.g. "pooled proportions over all 30 ratings"."""
    if result.chance == "pooled":
        return _title("pooled", n=result.n_ratings)
    n_rated = int((np.asarray(result.raters_per_item) > 0).sum())
    return _title("item_mean", n=n_rated)


def kappa_label(weights: str | None, name: str = "Cohen's kappa") -> str:
    """``name`` with the kappa's ``weights`` (a name such as "linear", or None for none) in brackets.

    >>> kappa_label("quadratic"), kappa_label(None)
    ("Cohen's kappa (quadratic weights)", "Cohen's kappa")
    """
    return name + ("" if weights is None else f" ({weights} weights)")


_W = SYMBOLS["w_jk"]


def _agreed(row: Sequence[int], agreement: Sequence[Sequence[Fraction]] | None) -> Fraction:
    """sum_jk w_jk n_ij n_ik of one count row (sum_j n_ij^2 unweighted).

    The item's agreeing pairs, each rating paired with itself too.
    """
    if agreement is None:
        return Fraction(sum(c * c for c in row))
    pairs = (agreement[j][m] * a * b for j, a in enumerate(row) for m, b in enumerate(row) if a and b)
    return sum(pairs, Fraction(0))


def _item_agreements(
    counts: np.ndarray, agreement: Sequence[Sequence[Fraction]] | None
) -> list[Fraction | None]:
    """P_i of each item, substituted from its counts (None below 2 ratings); once per distinct count row."""
    rows = [tuple(row) for row in counts.tolist()]
    p_i = {
        row: (_agreed(row, agreement) - sum(row)) / (sum(row) * (sum(row) - 1))
        for row in set(rows)
        if sum(row) >= 2
    }
    return [p_i.get(row) for row in rows]


def _weights_total(agreement: Sequence[Sequence[Fraction]]) -> Fraction:
    return sum((w for row in agreement for w in row), Fraction(0))


class _Counted:
    """A counted result (Fleiss' kappa or a coefficient of the family) and what its steps share.

    ``counts`` (items x categories), ``m`` (each item's n_i), ``names`` (the
    items'), ``lab`` (the categories'), ``w`` (the agreement weights, None
    unweighted), ``p_i`` (each item's P_i), ``chance`` and ``p`` (how the
    category proportions are taken, and their values). Each method is one
    step, written the same way for every coefficient that has it.
    """

    def __init__(self, res: Any, brief: bool, items: Sequence[Any] | None):
        ex = res.exact
        self.res, self.brief, self.ex, self.lab = res, brief, ex, _Labels(res.categories)
        self.counts = np.asarray(res.counts, dtype=np.int64)
        self.m = np.asarray(res.raters_per_item, dtype=np.int64)
        self.w = ex.agreement_weights if res.weights is not None else None
        self.names = [str(x) for x in (items if items is not None else range(1, self.counts.shape[0] + 1))]
        fleiss = isinstance(res, FleissResult)
        self.p_i = ex.p_i if fleiss else _item_agreements(self.counts, self.w)
        self.chance = res.chance if fleiss else "item_mean"
        self.p = ex.p_j if fleiss else getattr(ex, "p_k", None)

    def first_steps(self, extra: Prose | None = None, notes: Sequence[Prose] = ()) -> list[Step | None]:
        """The count table, the weights, each P_i and P_a."""
        weights = self.weights() if self.w is not None else None
        return [self.count_table(extra), weights, self.item_agreement(), self.mean_agreement(notes)]

    def count_table(self, extra: Prose | None) -> Step:
        """The items x categories count table n_ij with each item's n_i (only the totals for a long table)."""
        n_items, m = self.counts.shape[0], self.m
        varies = _say("counts_vary") if len(set(m.tolist())) > 1 else "."
        totals = _say("counts_long", n=n_items) if n_items > _MAX_LISTED else ""
        intro = _say("counts", i=Math("i"), j=Math("j"), varies=varies, totals=totals)
        if extra:
            intro = intro + " " + extra
        table = _grid(self.counts.tolist(), self.names, self.lab.names, "item", "n_i")  # row totals: n_i
        if n_items > _MAX_LISTED:
            table.rows = table.rows[-1:]
        return _step("counts", self.brief, intro=intro, table=table)

    def weights(self) -> Step:
        """The agreement weights w_jk of a weighted coefficient, as a table."""
        if self.res.weights == "custom":
            intro = _say("weights_custom", w=_W)
        else:
            q = Math(str(len(self.w))) if len(self.w) else Math("q")
            intro = _say("weights_gwet", w=_W, scheme=Em(self.res.weights), q=q)
        table = _grid(self.w, self.lab.names, self.lab.names)
        return _step("weights_jk", self.brief, intro=intro, table=table)

    def item_agreement(self) -> Step:
        """P_i item by item (or count row by count row for a long table)."""
        counts, m, names, agreement = self.counts, self.m, self.names, self.w
        n_items, weighted = len(m), "" if agreement is None else "_weighted"
        chains = [Chain(Math("P_i"), _formula("p_i" + weighted))]
        single = [names[i] for i in range(n_items) if m[i] < 2]
        groups: dict[Any, list[int]] = {}  # one per item; in a long table, one per count row
        for i in np.flatnonzero(m >= 2).tolist():
            row = counts[
                i
            ].tolist()  # weighted: the order of the counts matters; unweighted: only their values
            key = i if n_items <= _MAX_LISTED else tuple(row if weighted else sorted(row, reverse=True))
            groups.setdefault(key, []).append(i)
        for idx in groups.values():
            i = idx[0]
            if len(idx) == 1:
                name = tex_text(names[i]) if not names[i].isdigit() else names[i]
                sym = Math(f"P_{{{name}}}", f"P_{names[i]}")
            else:
                shown = ", ".join(names[j] for j in idx[:3]) + (", …" if len(idx) > 3 else "")
                sym = Math(f"P_i\\;({tex_text('items ' + shown)})", f"P_i (items {shown})")
            row, n_i = counts[i].tolist(), int(m[i])
            agreed = _agreed(row, agreement)
            num = _sum([_squared(c) for c in row if c]) if agreement is None else number(agreed)
            put_in = _frac(num + Math(f" - {n_i}"), _pairs_of(n_i)), _over(agreed - n_i, n_i * (n_i - 1))
            chains.append(Chain(sym, *put_in, approx(self.p_i[i]), inline=True))
        note = _say("single", items=", ".join(single)) if single else None
        return _step("p_i", self.brief, *chains, notes=[note], intro=_say("p_i" + weighted, w=_W))

    def mean_agreement(self, notes: Sequence[Prose | None] = ()) -> Step:
        """P_a, the mean of P_i over the items with 2 or more ratings."""
        p_is = [p for p, size in zip(self.p_i, self.m) if size >= 2]
        n_used = len(p_is)
        chain = Chain(
            Math("P_a"),
            _formula("p_a"),
            _scaled(_ratio(1, n_used), _q_sum(p_is)) if n_used <= _MAX_TERMS else None,
            _scaled(_ratio(1, n_used), _grouped(p_is)),
            _over(sum(p_is, Fraction(0)), n_used),
            approx(self.ex.p_a),
        )
        intro = _say("p_a", N_a=Math(f"N_a = {n_used}"), N=Math("N"), n=len(self.p_i))
        return _step("p_a", self.brief, chain, intro=intro, notes=notes, **_of(self.res, "P_a"))

    def proportions(self, intro: Prose) -> Step:
        """The category proportions p_j: pooled over all ratings, or the mean of the per-item proportions."""
        counts, m, p, lab = self.counts, self.m, self.p, self.lab
        chains = [Chain(Math("p_j"), _formula("p_j_" + self.chance))]
        if self.chance == "pooled":
            total, T = counts.sum(axis=0), int(m.sum())
            chains += [
                Chain(lab.sym("p", j), _ratio(int(total[j]), T), approx(p[j]), inline=True)
                for j in range(counts.shape[1])
            ]
        else:
            rated = [i for i in range(len(m)) if m[i] > 0]
            n_rated = len(rated)
            for j in range(counts.shape[1]):
                parts = Counter((int(counts[i, j]), int(m[i])) for i in rated if counts[i, j])
                order = sorted(parts.items(), key=lambda x: (-x[0][0] / x[0][1], x[0]))
                written = _sum(
                    [
                        (_ratio(c, mi) if cnt == 1 else _times(number(cnt), _ratio(c, mi)))
                        for (c, mi), cnt in order
                    ]
                )
                summed = sum((cnt * Fraction(c, mi) for (c, mi), cnt in parts.items()), Fraction(0))
                put_in = _scaled(_ratio(1, n_rated), written), _over(summed, n_rated)
                chains.append(Chain(lab.sym("p", j), *put_in, approx(p[j]), inline=True))
        return _step("p_j", self.brief, *chains, intro=intro)

    def shared_chance(self) -> Step:
        """P_e = sum_j p_j^2 (sum_jk w_jk p_j p_k weighted).

        How often two ratings drawn from one shared distribution agree.
        """
        p, agreement, k = self.p, self.w, len(self.p)
        if agreement is None:
            sq_terms = [
                Math(
                    f"{number(x).tex if Fraction(x).denominator == 1 else number(x).paren().tex}^2",
                    f"({number(x).txt})²",
                )
                for x in p
            ]
            squares = [self.lab.sym("p", j) + Math("^2", "²") for j in range(k)]
            rhs = [_sum(squares) if k <= 6 else _formula("shared"), _sum(sq_terms)]
            if self.chance == "pooled":
                total, T = self.counts.sum(axis=0), int(self.m.sum())
                rhs += [
                    _frac(_sum([_squared(int(c)) for c in total]), _squared(T)),
                    _ratio(int((total**2).sum()), T * T),
                ]
            else:
                rhs.append(_q_sum([x * x for x in p]))
        else:
            terms = [
                (agreement[j][m], p[j], p[m])
                for j in range(k)
                for m in range(k)
                if agreement[j][m] and p[j] and p[m]
            ]
            rhs = [_formula("shared_weighted"), _short(terms, lambda ts: _sum([_weighted(*t) for t in ts]))]
        intro = _say("shared" if agreement is None else "shared_weighted")
        chain = Chain(Math("P_e"), *rhs, approx(self.ex.p_e))
        return _step("p_e", self.brief, chain, intro=intro, **_of(self.res, "P_e"))

    def uniform_chance(self) -> Step:
        """Brennan and Prediger's P_e: every category of the table equally likely."""
        q, ex = self.res.n_categories, self.ex
        if self.w is None:
            chain = Chain(Math("P_e"), _formula("uniform"), _ratio(1, q), approx(ex.p_e))
        else:
            put_in = _frac(number(_weights_total(self.w)), _squared(q))
            chain = Chain(Math("P_e"), _formula("uniform_weighted"), put_in, approx(ex.p_e))
        return _step(
            "p_e", self.brief, chain, intro=_say("uniform", q=Math(f"q = {q}")), **_of(self.res, "P_e")
        )

    def gwet_chance(self) -> Step:
        """Gwet's P_e: chance agreement from how far the proportions are from one category."""
        p, res = list(self.p), self.res
        q = len(p)
        intro = _say("gwet", s=_symbol("spread"))
        if q < 2:
            return _undefined_step(
                "p_e", self.brief, Math("P_e"), reason=res.reason, intro=intro, **_of(res, "P_e")
            )
        one_minus = [Math(f"\\left(1 - {number(x).tex}\\right)", f"(1 - {number(x).txt})") for x in p]
        spread = _sum([_times(number(x), y) for x, y in zip(p, one_minus) if x]) if q <= 6 else None
        total = sum(((x * (1 - x)) for x in p), Fraction(0))
        scale = _ratio(1, q - 1) if self.w is None else _frac(number(_weights_total(self.w)), _pairs_of(q))
        chain = Chain(
            Math("P_e"),
            _formula("gwet" if self.w is None else "gwet_weighted"),
            _scaled(scale, spread) if spread is not None else None,
            _scaled(scale, number(total)),
            approx(self.ex.p_e),
        )
        return _step("p_e", self.brief, chain, intro=intro, **_of(res, "P_e"))

    def conger_chance(self) -> list[Step]:
        """Conger's each rater's proportions, then P_e: the mean of the raters' pairwise Cohen P_e."""
        props = [list(row) for row in self.ex.rater_proportions]
        raters, lab, agreement = [str(x) for x in self.res.raters], self.lab, self.w
        k = len(lab.names)
        active = [g for g in range(len(raters)) if any(props[g])]
        idle = [raters[g] for g in range(len(raters)) if g not in active]
        table = _grid([props[g] for g in active], [raters[g] for g in active], lab.names, "rater")
        intro = _say("p_rj", p_rj=_symbol("p_rj"), r=Math("r"), j=Math("j"))
        notes = [_say("idle", names=", ".join(idle))] if idle else []
        proportions = _step("p_rj", self.brief, intro=intro, table=table, notes=notes)
        pairs = [(g, h) for x, g in enumerate(active) for h in active[x + 1 :]]

        def pair_value(g: int, h: int) -> Fraction:
            if agreement is None:
                return sum((props[g][j] * props[h][j] for j in range(k)), Fraction(0))
            terms = (agreement[j][m] * props[g][j] * props[h][m] for j in range(k) for m in range(k))
            return sum(terms, Fraction(0))

        each = _symbol("conger_pair" if agreement is None else "conger_pair_weighted")
        chains = [Chain(_symbol("p_ers"), each)]
        values = [pair_value(g, h) for g, h in pairs]
        if len(pairs) <= _MAX_TERMS:
            for (g, h), v in zip(pairs, values):
                one = lab.short and len(raters[g]) == 1 and len(raters[h]) == 1
                txt = f"P_e,{raters[g]}{raters[h]}" if one else f"P_e,({raters[g]},{raters[h]})"
                sym = Math(f"P_{{e,{tex_text(raters[g])}{tex_text(raters[h])}}}", txt)
                chains.append(Chain(sym, approx(v), inline=True))
        n_pairs = len(pairs)
        mean = _short(values, lambda vs: _scaled(_ratio(1, n_pairs), _q_sum(vs)))
        chains.append(Chain(Math("P_e"), _formula("conger"), mean, approx(self.ex.p_e)))
        intro = _say("conger", n=n_pairs)
        return [proportions, _step("p_e", self.brief, *chains, intro=intro, **_of(self.res, "P_e"))]


def _fleiss_steps(
    res: FleissResult, brief: bool, items: Sequence[Any] | None = None
) -> tuple[str, list[Step]]:
    rule, work = chance_rule(res), _Counted(res, brief, items)
    weighted = work.w is not None
    title = _title("fleiss", rule=rule, weights=f"; {res.weights} weights" if weighted else "")
    steps = work.first_steps()
    steps.append(work.proportions(_say("fleiss_" + res.chance, rule=rule, N=Math("N'"))))
    steps.append(work.shared_chance())
    steps.append(_coefficient_step(res, "Fleiss' kappa", "P_a", res.exact.p_a, brief))
    if weighted:
        steps.append(_uncertainty_step(res, _KAPPA, brief))
    return title, steps


# ============================================================ the family
_FAMILY = (PercentAgreementResult, BrennanPredigerResult, ScottResult, CongerResult, GwetResult)
_FAMILY_SYMBOLS = ((BrennanPredigerResult, "S"), (ScottResult, "pi"), (PercentAgreementResult, "P_a"))
#: Each coefficient's chance model: who its proportions step says takes them (None: no such step), and
#: the steps that end with its P_e.
_CHANCE_MODELS = {
    ScottResult: ("scott_who", lambda work: [work.shared_chance()]),
    GwetResult: ("gwet_who", lambda work: [work.gwet_chance()]),
    BrennanPredigerResult: (None, lambda work: [work.uniform_chance()]),
    CongerResult: (None, _Counted.conger_chance),
}


def _family_symbol(res: Any) -> tuple[Math, str]:
    """The coefficient's symbol and its name in a Step."""
    if isinstance(res, GwetResult):  # AC1 or AC2
        return Math(r"\mathrm{AC}_" + res.name[-1], res.name), res.name
    symbol = next((s for kind, s in _FAMILY_SYMBOLS if isinstance(res, kind)), "kappa")
    return SYMBOLS[symbol], symbol


def _family_steps(res: Any, brief: bool, items: Sequence[Any] | None = None) -> tuple[str, list[Step]]:
    """Any coefficient of the family.

    Counts, P_i, P_a, its own chance model, the coefficient, its interval.
    """
    sym, symbol = _family_symbol(res)
    name = f"Gwet's {res.name}" if isinstance(res, GwetResult) else res.name[0].upper() + res.name[1:]
    scott = isinstance(res, ScottResult)
    said = {"weights": "" if res.weights is None else _title("weights", w=res.weights), "n": res.n_items}
    pair = _title("pair", a=res.rater_a, b=res.rater_b) if scott else ""
    title = _title("family", name=name, pair=pair, used=res.n_items_used, **said)
    extra = _say("scott_raters", a=str(res.rater_a), b=str(res.rater_b)) if scott else None
    missing = _say("missing", n=res.n_items, used=res.n_items_used, r=res.n_ratings)
    if isinstance(res, CongerResult):
        missing = missing + " " + _say("conger_missing")
    ex, work = res.exact, _Counted(res, brief, items)
    steps = work.first_steps(extra, [missing])
    if isinstance(res, PercentAgreementResult):  # sym is P_a
        chain, note = Chain(sym, approx(ex.p_a)), _band_note(ex.p_a, sym)
        steps.append(_step("percent", brief, chain, intro=_say("percent"), notes=[note], **_of(res, "P_a")))
        return title, [*steps, _uncertainty_step(res, sym, brief)]
    who, chance_steps = next(model for kind, model in _CHANCE_MODELS.items() if isinstance(res, kind))
    if who is not None:
        N, share = Math(f"N' = {int((work.m > 0).sum())}"), Math(r"n_{ij} / n_i", "n_ij / n_i")
        steps.append(work.proportions(_say("item_mean", p_j=Math("p_j"), who=_say(who), N=N, share=share)))
    steps += chance_steps(work)
    steps.append(_coefficient_step(res, name, "P_a", ex.p_a, brief, sym, symbol))
    steps.append(_uncertainty_step(res, sym, brief))
    return title, steps


# ========================================================== Krippendorff
def _alpha_steps(res: AlphaResult, brief: bool) -> tuple[str, list[Step]]:
    ex, lab = res.exact, _Labels(res.categories)
    k = len(res.categories)
    counts = np.asarray(res.counts, dtype=np.int64)
    m = counts.sum(axis=1)
    n = int(ex.n)
    nominal = res.level == "nominal"
    title = _title("alpha", level=res.level)

    sizes = Counter(int(x) for x in m if x >= 2)
    parts = sorted(sizes.items(), reverse=True)
    count_txt = "; ".join(f"{c} item{'s' if c > 1 else ''} with {s} values" for s, c in parts)
    lonely, empty = int((m == 1).sum()), int((m == 0).sum())
    extra = (
        f" {lonely} item(s) with a single value are not pairable and are left out." if lonely else ""
    ) + (f" {empty} item(s) have no value." if empty else "")
    terms = _sum([_times(number(c), number(s)) if c > 1 else number(s) for s, c in parts])
    chain = Chain(Math("n"), terms, number(n), inline=True)
    intro = Prose(count_txt + "." + extra)
    steps = [_step("n", brief, chain, intro=intro, symbol="n", value=float(res.n), exact=Fraction(n))]

    pc = np.asarray(res.pair_counts, dtype=np.int64)
    pair_formula = " + ".join(f"{c} × {s}·{s - 1}" if c > 1 else f"{s}·{s - 1}" for s, c in parts)
    intro = _say("pairs", pairs=_symbol("n_pairs"), formula=pair_formula, total=int(pc.sum()))
    table = _grid(pc.tolist(), lab.names, lab.names, total="total")
    steps.append(_step("pairs", brief, intro=intro, table=table))

    o, n_c = ex.coincidences, ex.n_c
    if len(sizes) == 1:
        ((s, _),) = parts
        how = _say("all_same", s=s, s1=s - 1)
    else:
        how = _say("each_own")
    intro = _say("o_ck", o_ck=_symbol("o_ck"), how=how, n=Math(f"n = {n}"))
    table = _grid(o, lab.names, lab.names, total="n_c")  # its row totals are the n_c
    steps.append(_step("o_ck", brief, intro=intro, table=table))

    delta = ex.delta
    if not nominal:
        intro = _say(res.level, delta=_symbol(res.level))
        table = _grid(delta, lab.names, lab.names)
        steps.append(_step("delta", brief, intro=intro, table=table, level=res.level))

    # D_o
    off = [(i, j) for i in range(k) for j in range(k) if i != j and o[i][j] and delta[i][j]]
    if nominal:
        terms = [number(o[i][j]) for i, j in off]
    else:
        terms = [_times(number(o[i][j]), number(delta[i][j])) for i, j in off]
    num = sum((o[i][j] * delta[i][j] for i, j in off), Fraction(0))
    weighted = "" if nominal else "_weighted"
    sub = _short(terms, lambda ts: _frac(_sum(ts), number(n)))
    chain = Chain(Math("D_o"), _formula("d_o" + weighted), sub, _over(num, n), approx(ex.d_o))
    steps.append(_step("d_o", brief, chain, intro=_say("d_o" + weighted), **_of(res, "D_o")))

    # D_e
    den = _pairs_of(n)
    if nominal:
        rhs = [_frac(_symbol("squares_gap"), Math("n(n - 1)")), _square_gap(n, n_c, den)]
        num = n * n - sum((c * c for c in n_c), Fraction(0))
    else:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if n_c[i] and n_c[j] and delta[i][j]]
        terms = [_times(number(n_c[i]), number(n_c[j]), number(delta[i][j])) for i, j in pairs]
        rhs = [_formula("d_e_weighted"), _short(terms, lambda ts: _twice(ts, den))]
        num = 2 * sum((n_c[i] * n_c[j] * delta[i][j] for i, j in pairs), Fraction(0))
    chain = Chain(Math("D_e"), *rhs, _over(num, n * (n - 1)), approx(ex.d_e))
    steps.append(_step("d_e", brief, chain, intro=_say("d_e"), **_of(res, "D_e")))

    # alpha
    if ex.alpha is None:
        notes = [_undefined_note(res.reason)]
    else:
        rounded = 1 - round_half_up(ex.d_o) / round_half_up(ex.d_e) if round_half_up(ex.d_e) else None
        notes = [_alpha_note(ex.alpha), _rounding_note(ex.alpha, rounded, "D_o", "D_e")]
    chain = _alpha_chain(_ALPHA, ex, reduced=True)
    steps.append(_step("alpha", brief, chain, notes=notes, **_of(res, "alpha")))
    return title, steps


def _alpha_chain(lhs: Math, ex: Any, mark: str = "", reduced: bool = False) -> Chain:
    """``alpha = 1 - D_o / D_e`` with the exact values of ``ex`` put in (``mark``: a prime on D_o and D_e)."""
    formula = Math(f"1 - \\frac{{D_o{mark}}}{{D_e{mark}}}", f"1 - D_o{mark} / D_e{mark}", False)
    if ex.alpha is None:
        return Chain(lhs, formula, approx(None))
    reduced_form = Math("1 - ") + number(ex.d_o / ex.d_e) if reduced else None
    return Chain(lhs, formula, Math("1 - ") + _ratio_of(ex.d_o, ex.d_e), reduced_form, approx(ex.alpha))


# ============================================================= bootstrap
_METRIC_NAMES = {
    "cohen_kappa": "Cohen's kappa",
    "fleiss_kappa": "Fleiss' kappa",
    "krippendorff_alpha": "Krippendorff's alpha",
}


def _bootstrap_steps(res: BootstrapResult, brief: bool) -> tuple[str, list[Step]]:
    name = _METRIC_NAMES.get(res.metric, res.metric)
    confidence = format_number(res.confidence, ".0%")
    title = _title("bootstrap", name=name, confidence=confidence)
    used = res.n_boot - res.n_undefined
    intro = _say("resample", name=name, n=res.n_boot)
    undefined = _say("undefined_replicates", n=res.n_undefined, used=used) if res.n_undefined else None
    resample = _step("resample", brief, intro=intro, notes=[undefined or _say("all_defined", used=used)])
    tail = (1 - res.confidence) / 2 * 100
    ends = (("low", format_number(tail, "g"), res.low), ("high", format_number(100 - tail, "g"), res.high))
    chains = [Chain(Math(r"\text{estimate}", "estimate"), Math(fmt(res.estimate)))]
    for end, q, value in ends:
        what = Math(f"{q}\\text{{th percentile}}", f"{q}th percentile")
        chains.append(Chain(Math(f"\\text{{{end}}}", end), what, Math(fmt(value)), inline=True))
    words = {"low": fmt(res.low), "high": fmt(res.high), "estimate": fmt(res.estimate)}
    note = _say("interval_note", confidence=confidence, **words)
    interval = _step("percentile", brief, *chains, notes=[note], symbol="interval", value=res.estimate)
    return title, [resample, interval]


# ================================================================= entry
@options(style=_STYLES)
def explain(
    result: Any, style: str = "full", items: Sequence[Any] | None = None, se: bool = True
) -> Explanation:
    """The worked solution of a result object, step by step.

    Parameters
    ----------
    result : result object or Diagnosis
        What a metric function (or :func:`iaa_teach.diagnose`) returned:
        CohenResult, PairwiseCohenResult, FleissResult, AlphaResult,
        BootstrapResult, or a coefficient of the family
        (PercentAgreementResult, BrennanPredigerResult, ScottResult,
        CongerResult, GwetResult): counts, each item's P_i, P_a (how missing
        ratings count), the coefficient's own chance model P_e, the
        coefficient, then its standard error and 95 % interval. For a
        Diagnosis: alpha, alpha without the least-in-step rater, the most
        disputed item's disagreement and the most confused pair's o_ck / e_ck.
    style : {"full", "brief"}
        ``"full"``: each step with its table, formula, the numbers put in, the
        exact fraction and its 3-decimal value. ``"brief"``: only each step's
        result line.
    items : sequence, optional
        Item names for the count table of Fleiss' kappa and the family (default 1, 2, ...).
    se : bool
        Show the standard error and confidence interval step where the result
        has one (the family, weighted Fleiss' kappa). ``se=False`` leaves it
        out, for a lesson that has not taught standard errors yet (lesson 07 does).

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
        n = len(result.counts) if isinstance(result, (FleissResult, *_FAMILY)) else None
        if (
            isinstance(items, (str, bytes))
            or not hasattr(items, "__len__")
            or (n is not None and len(items) != n)
        ):
            raise AgreementError(
                f"items must give one name per item{f' ({n})' if n is not None else ''}, got {items!r}"
            )
    builders = {
        CohenResult: _cohen_steps,
        PairwiseCohenResult: _pairwise_steps,
        FleissResult: lambda res, brief: _fleiss_steps(res, brief, items),
        AlphaResult: _alpha_steps,
        BootstrapResult: _bootstrap_steps,
        Diagnosis: _diagnosis_steps,
    }
    builders.update({kind: (lambda res, brief: _family_steps(res, brief, items)) for kind in _FAMILY})
    check_type(
        "explain()",
        result,
        tuple(builders),
        "a result of cohen_kappa, pairwise_cohen, fleiss_kappa, "
        "krippendorff_alpha, percent_agreement, brennan_prediger, scott_pi, conger_kappa, gwet_ac "
        "or bootstrap_ci",
    )
    build = next(build for kind, build in builders.items() if isinstance(result, kind))
    title, steps = build(result, style == "brief")
    if not check_type("explain()", se, bool, "se=True or se=False"):
        steps = [step for step in steps if step is None or step.symbol != "se"]
    return Explanation(title, [step for step in steps if step is not None and step.body], result)


def ratings_table(ratings: Any, caption: str | None = None) -> Table:
    """The ratings as a table, one row per item, ``–`` where a rating is missing.

    >>> from iaa_teach import datasets
    >>> print(ratings_table(datasets.sentiment_missing()).text().splitlines()[3])
    3     N  –  N
    """
    check_text("caption", caption, none=True)
    r = as_ratings(ratings)
    rows = [
        [str(item), *(_MISSING if v is None else str(v) for v in row)] for item, row in zip(r.items, r.rows())
    ]
    return Table(["item", *map(str, r.raters)], rows, caption)


def matrix_table(
    matrix: Any,
    row_labels: Sequence[Any],
    col_labels: Sequence[Any] | None = None,
    *,
    totals: bool = True,
    caption: str | None = None,
    corner: str = "",
) -> Table:
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
        Add a "total" column and row (and the grand total); "sum" where a label is "total" (any
        letter case), so that the totals are not taken for that label's.
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
        raise AgreementError(
            f"matrix of shape {m.shape} does not fit {len(rows_l)} row and {len(cols_l)} column labels"
        )

    def exact(x: Any) -> Fraction | float:
        if isinstance(x, (float, np.floating)):
            q = Fraction(float(x)).limit_denominator(1000)
            return q if abs(float(q) - float(x)) < 1e-12 else float(x)
        return Fraction(x)

    values = [[exact(x) for x in row] for row in m]
    return _grid(values, rows_l, cols_l, corner, "total" if totals else None, caption)


# ============================================================= diagnosis
def _diagnosis_steps(report: Diagnosis, brief: bool) -> tuple[str, list[Step]]:
    """The report's key steps: alpha, alpha without the top rater (3+ raters), the top item, the top pair."""
    r, alpha = report.ratings, report.alpha
    title = _title("diagnosis", n=r.n_items, raters=r.n_raters, level=report.level)
    raters, pairs = report.rater_ranking(), report.confused_pairs()
    return title, [
        _whole_alpha_step(alpha, brief),
        # with two raters, taking one out leaves no pair to compare: no such step
        _without_rater_step(report, raters[0], brief) if len(raters) and r.n_raters > 2 else None,
        _item_step(report, report.item_ranking()[0], brief),
        _pair_step(report, pairs[0], brief) if len(pairs) else None,
    ]


def _whole_alpha_step(alpha: AlphaResult, brief: bool) -> Step:
    ex = alpha.exact
    chains = [
        Chain(Math("D_o"), approx(ex.d_o)),
        Chain(Math("D_e"), approx(ex.d_e)),
        _alpha_chain(_ALPHA, ex),
    ]
    intro = _say("whole", n=Math(f"n = {alpha.n}"))
    notes = [_undefined_note(alpha.reason), _say("whole_more", call=Em("explain(report.alpha)"))]
    return _step("whole", brief, *chains, intro=intro, notes=notes, **_of(alpha, "alpha"))


def _without_rater_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    name = row["rater"]
    whole, a_loo = report.alpha.exact.alpha, _symbol("alpha_without")
    said = {"symbol": "alpha_without", "name": name}
    try:
        without = report.alpha_without_rater(name)
    except AgreementError as err:  # nothing pairable is left
        return _undefined_step("without", brief, a_loo, reason=str(err), value=row["alpha_without"], **said)
    ex = without.exact
    chains = [
        Chain(Math("n'"), number(int(ex.n))),
        Chain(Math("D_o'"), approx(ex.d_o)),
        Chain(Math("D_e'"), approx(ex.d_e)),
        _alpha_chain(a_loo, ex, "'"),
    ]
    intro = _say("without", name=name, a=a_loo)
    notes = [_undefined_note(without.reason)]
    if ex.alpha is not None and whole is not None:
        chains.append(Chain(Math(r"\text{rise}", "rise"), _formula("rise"), approx(ex.alpha - whole)))
        notes.append(_say("rises" if ex.alpha > whole else "no_rise", name=name))
    if not math.isnan(row["mean_kappa"]):
        over = (
            _say("overuse", c=Em(row["overused"]), v=fmt(row["overuse"]))
            if row["overused"] is not None
            else ""
        )
        words = {"k": fmt(row["mean_kappa"]), "p": row["kappa_pairs"], "b": fmt(row["bias"]), "over": over}
        notes.append(_say("mean_kappa", name=name, **words))
    notes.append(_say("subtract"))
    return _step(
        "without", brief, *chains, intro=intro, notes=notes, value=without.alpha, exact=ex.alpha, **said
    )


def _item_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    item, counts = row["item"], row["label_counts"]
    exact = report.item_disagreement_exact(item)
    n_i = int(row["ratings"])
    used = [(c, int(v)) for c, v in counts.items() if v]
    caption = f"item {item}: {n_i} ratings"
    table = Table(["category", "n_ij"], [[str(c), str(v)] for c, v in used], caption=caption)
    d_i = Math("D_i")
    pairs = _pairs_of(n_i)
    said = {"item": item, "table": table, "symbol": "D_i", "value": row["disagreement"]}
    if exact is None:
        return _step("item", brief, Chain(d_i, approx(None)), notes=[_say("single_item")], **said)
    if report.level == "nominal":
        formula = _frac(_symbol("item_gap"), Math("n_i(n_i - 1)"))
        sub = _square_gap(n_i, [v for _, v in used], pairs)
        num = n_i * n_i - sum(v * v for _, v in used)
        p = Math(f"n_i(n_i - 1) = {n_i * (n_i - 1)}", f"n_i (n_i - 1) = {n_i * (n_i - 1)}")
        intro = _say("item_nominal", p=p, D_i=d_i, one=Math("1 - P_i"))
    else:
        cats = list(report.ratings.categories)
        delta = report.alpha.exact.delta
        idx = [(cats.index(c), v) for c, v in used]
        terms = [
            (v, w, delta[a][b]) for x, (a, v) in enumerate(idx) for (b, w) in idx[x + 1 :] if delta[a][b]
        ]
        formula = _frac(_symbol("item_distance"), Math("n_i(n_i - 1)"))
        sub = _short(
            terms, lambda ts: _twice([_times(number(v), number(w), number(q)) for v, w, q in ts], pairs)
        )
        num = 2 * sum((v * w * q for v, w, q in terms), Fraction(0))
        intro = _say("item_distance", level=report.level, p=n_i * (n_i - 1))
    chain = Chain(d_i, formula, sub, _over(Fraction(num), n_i * (n_i - 1)), approx(exact))
    notes = [_say("item_first", item=item, D_i=d_i, share=fmt(row["share_of_d_o"]))]
    return _step("item", brief, chain, intro=intro, notes=notes, exact=exact, **said)


def _pair_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    first, second = row["first"], row["second"]
    ex = report.alpha.exact
    cats = list(report.ratings.categories)
    c, k = cats.index(first), cats.index(second)
    pair = report.pair_exact(first, second)
    n_c, n_k, n = ex.n_c[c], ex.n_c[k], ex.n
    o_ck, e_ck = Math("o_{ck}", "o_ck"), Math("e_{ck}", "e_ck")
    chains = [
        Chain(o_ck, approx(pair.observed)),
        Chain(
            e_ck,
            _formula("e_ck"),
            _frac(_times(number(n_c), number(n_k)), number(n - 1)),
            approx(pair.expected),
        ),
        Chain(
            _formula("ratio"),
            None if pair.ratio is None else _ratio_of(pair.observed, pair.expected),
            approx(pair.ratio),
        ),
    ]
    words = {"o_ck": o_ck, "e_ck": e_ck, "w": Math(r"1/(n_i - 1)", "1/(n_i - 1)"), "pairs": int(row["pairs"])}
    counts = {"n_k": Math("n_k"), "nc": number(n_c), "nk": number(n_k), "n": Math(f"n = {number(n).txt}")}
    intro = _say("confusion", c=Math("c"), k=Math("k"), first=first, second=second, **words, **counts)
    how = None if pair.ratio is None else _say("above_chance" if pair.ratio > 1 else "below_chance")
    note = None if how is None else _say("confused", first=first, second=second, how=how)
    said = {"c": first, "k": second, "symbol": "ratio", "value": row["ratio"], "exact": pair.ratio}
    return _step("confusion", brief, *chains, intro=intro, notes=[note], **said)
