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
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
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
    return Math(
        f"{scale.tex}{inner.paren().tex}",
        f"({scale.txt})({inner.txt})" if "/" in scale.txt else f"{scale.text_operand()}({inner.txt})",
        atom=False,
    )


def _over(num: Fraction, den: int) -> Math:
    """num / den, written as one fraction when num is whole."""
    num = Fraction(num)
    return _ratio(num.numerator, int(den)) if num.denominator == 1 else _frac(number(num), number(den))


def _times(*factors: Math) -> Math:
    return Math(
        r" \cdot ".join(f.tex for f in factors), " × ".join(f.text_operand() for f in factors), atom=False
    )


def _sum(terms: Sequence[Math], signs: Sequence[int] | None = None) -> Math:
    """terms joined by + (or - where signs[i] < 0)."""
    if not terms:
        return number(0)
    signs = signs or [1] * len(terms)
    ops = [("-" if s < 0 else "") if i == 0 else (" - " if s < 0 else " + ") for i, s in enumerate(signs)]
    return Math(
        "".join(op + t.tex for op, t in zip(ops, terms)),
        "".join(op + t.txt for op, t in zip(ops, terms)),
        atom=len(terms) == 1 and signs[0] > 0,
    )


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
    *,
    intro: Prose | str | None = None,
    table: Table | None = None,
    chains: Sequence[Chain] = (),
    notes: Sequence[Prose | None] = (),
    brief: bool = False,
    symbol: str | None = None,
    value: float | None = None,
    exact: Fraction | None = None,
) -> Step:
    """A step from its parts; ``brief`` keeps only the equations' last values and the notes."""
    heading = prose(heading) if isinstance(heading, str) else heading
    intro = Prose(intro) if isinstance(intro, str) else intro
    body = ([] if brief else [intro, table]) + [Equations(chains, brief), *notes]
    return Step(heading, tuple(b for b in body if b is not None and b), symbol, value, exact)


def _undefined_step(
    heading: Prose | str,
    lhs: Math,
    *rhs: Math | None,
    reason: str | None,
    brief: bool,
    symbol: str,
    value: float,
    intro: Prose | str | None = None,
) -> Step:
    """A step whose value is undefined: its formula (if any), "undefined", and why."""
    return _step(
        heading,
        intro=intro,
        chains=[Chain(lhs, *rhs, approx(None))],
        notes=[_undefined_note(reason)],
        brief=brief,
        symbol=symbol,
        value=value,
    )


def _chance_step(res: Any, intro: Prose | str, chains: Sequence[Chain], brief: bool) -> Step:
    """The step that ends with the chance agreement P_e of ``res``."""
    return _step(
        "Chance agreement {P_e}",
        intro=intro,
        chains=chains,
        brief=brief,
        symbol="P_e",
        value=res.p_e,
        exact=res.exact.p_e,
    )


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
    """A labelled matrix of exact values; ``total`` names a column of row totals (and adds a row of totals)."""
    body = [[label, *map(_shown, row)] for label, row in zip(row_labels, values)]
    header = [corner, *col_labels]
    if total:
        header.append(total)
        for line, row in zip(body, values):
            line.append(_shown(sum(row, Fraction(0))))
        col_sums = [sum((row[j] for row in values), Fraction(0)) for j in range(len(col_labels))]
        body.append(["total", *map(_shown, col_sums), _shown(sum(col_sums, Fraction(0)))])
    return Table(header, body, caption)


def _band_note(exact: Fraction, sym: Math) -> Prose:
    return prose(
        "{sym} = {value} is {band} on the Landis and Koch scale.",
        sym=sym,
        value=fmt(exact),
        band=Em(interpret(max(float(exact), -1.0))),
    )  # Fleiss' kappa can fall below -1: poor


def _alpha_note(exact: Fraction) -> Prose:
    """Alpha's verdict from Krippendorff's own thresholds (0.800, 0.667), not the Landis-Koch bands of kappa."""
    return prose(
        "{sym} = {value}: Krippendorff's guidance ({guidance}) says {verdict}.",
        guidance=alpha_guidance(),
        sym=_ALPHA,
        value=fmt(exact),
        verdict=Em(alpha_verdict(exact)),
    )


def _rounding_note(exact: Fraction, rounded: Fraction | None, first: str, second: str) -> Prose | None:
    """Say so when rounding the intermediate values first moves the third decimal."""
    if rounded is None or fmt(rounded) == fmt(exact):
        return None
    return prose(
        "Round only at the end: with {first} and {second} rounded to 3 decimals first, "
        "the same formula gives {rounded} instead of {exact}.",
        first=Math(first),
        second=Math(second),
        rounded=fmt(rounded),
        exact=fmt(exact),
    )


def _undefined_note(reason: str | None) -> Prose | None:
    return with_symbols(f"Undefined: {reason}.") if reason else None


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
        return title, [
            _undefined_step(
                "Cohen's kappa", _KAPPA, reason=res.reason, brief=brief, symbol="kappa", value=res.kappa
            )
        ]
    steps = []

    extra = f" {res.n_dropped} item(s) without both ratings are left out." if res.n_dropped else ""
    intro = prose(
        "Rows: {a}'s label; columns: {b}'s label. The diagonal holds the items on which they agree.{extra}",
        a=a,
        b=b,
        extra=extra,
    )
    corner = f"{a} \\ {b}"
    steps.append(
        _step(
            "Agreement table",
            intro=intro,
            table=_grid(t.tolist(), lab.names, lab.names, corner, "total"),
            brief=brief,
        )
    )

    if weighted:
        top = int(np.asarray(res.weight_matrix).max())
        agree = ex.agreement_weights
        kind_tex, kind_txt = (
            (r"\lvert i - j \rvert", "|i - j|") if res.weights == "linear" else ("(i - j)^2", "(i - j)²")
        )
        intro = prose(
            "Cells count as partial agreement: {w} over the category order.",
            w=Math(f"w_{{jk}} = 1 - \\frac{{{kind_tex}}}{{{top}}}", f"w_jk = 1 - {kind_txt} / {top}"),
        )
        steps.append(
            _step(
                "Agreement weights",
                intro=intro,
                table=_grid(agree, lab.names, lab.names, corner),
                brief=brief,
            )
        )
        terms = [(agree[i][j], int(t[i, j])) for i in range(k) for j in range(k) if agree[i][j] and t[i, j]]
        num = sum((q * c for q, c in terms), Fraction(0))
        sub = (
            _frac(_sum([_weighted(q, c) for q, c in terms]), number(n)) if len(terms) <= _MAX_TERMS else None
        )
        p_o_chain = Chain(
            Math("P_o"),
            Math(r"\frac{1}{N}\sum_{j,k} w_{jk}\, n_{jk}", "Σ w_jk n_jk / N", False),
            sub,
            _over(num, n),
            approx(ex.p_o),
        )
    else:
        diag = [lab.sym("n", j, j) for j in range(k)]
        formula = (
            _frac(_sum(diag), Math("N"))
            if k <= 6
            else Math(r"\frac{1}{N}\sum_j n_{jj}", "Σ_j n_jj / N", False)
        )
        p_o_chain = Chain(
            Math("P_o"),
            formula,
            _frac(_sum([number(x) for x in np.diag(t)]), number(n)),
            _ratio(int(np.trace(t)), n) if k > 1 else None,
            approx(ex.p_o),
        )
    steps.append(
        _step(
            "Observed agreement {P_o}",
            chains=[p_o_chain],
            brief=brief,
            intro="The share of items on which the two agree" + (" (weighted)." if weighted else "."),
            symbol="P_o",
            value=res.p_o,
            exact=ex.p_o,
        )
    )

    marg = [
        Chain(lab.margin(j, first), _ratio(int(totals[j]), n), approx(shares[j]), inline=True)
        for first, totals, shares in ((True, rows, ex.row_marginals), (False, cols, ex.col_marginals))
        for j in range(k)
    ]
    intro = prose(
        "Each rater's own category proportions: {row} for {a} (row totals / N), {col} for {b} "
        "(column totals / N).",
        row=Math("p_{j+}", "p_j+"),
        col=Math("p_{+j}", "p_+j"),
        a=a,
        b=b,
    )
    steps.append(_step("Marginals", chains=marg, brief=brief, intro=intro))

    if weighted:
        terms = [
            (agree[i][j], int(rows[i]), int(cols[j]))
            for i in range(k)
            for j in range(k)
            if agree[i][j] and rows[i] and cols[j]
        ]
        num = sum((q * r * c for q, r, c in terms), Fraction(0))
        sub = (
            _frac(_sum([_weighted(q, r, c) for q, r, c in terms]), _squared(n))
            if len(terms) <= _MAX_TERMS
            else None
        )
        p_e_chain = Chain(
            Math("P_e"),
            Math(r"\frac{1}{N^2}\sum_{j,k} w_{jk}\, n_{j+}\, n_{+k}", "Σ w_jk n_j+ n_+k / N²", False),
            sub,
            _frac(number(num), number(n * n)),
            approx(ex.p_e),
        )
    else:
        prods = [_times(_ratio(int(rows[j]), n), _ratio(int(cols[j]), n)) for j in range(k)]
        formula = (
            _sum([lab.margin(j, True) + Math(r"\, ", " ") + lab.margin(j, False) for j in range(k)])
            if k <= 6
            else Math(r"\sum_j p_{j+}\, p_{+j}", "Σ_j p_j+ p_+j", False)
        )
        p_e_chain = Chain(
            Math("P_e"),
            formula,
            _sum(prods),
            _frac(_sum([number(rows[j] * cols[j]) for j in range(k)]), number(n * n)),
            _ratio(int((rows * cols).sum()), n * n),
            approx(ex.p_e),
        )
    steps.append(
        _chance_step(
            res,
            "The agreement expected if each rater labelled at random with their own proportions.",
            [p_e_chain],
            brief,
        )
    )
    steps.append(_coefficient_step(res, "Cohen's kappa", "P_o", ex.p_o, brief))
    return title, steps


def _coefficient_step(
    res: Any, title: str, obs: str, p_o: Fraction, brief: bool, sym: Math = _KAPPA, symbol: str = "kappa"
) -> Step:
    """(P_o - P_e) / (1 - P_e) of ``res``, shared by Cohen, Fleiss and the rest of the family (``sym``: its symbol)."""
    p_e, value_exact = res.exact.p_e, res.exact_value
    formula = _frac(Math(f"{obs} - P_e", atom=False), Math("1 - P_e", atom=False))
    if p_e is None:  # no chance agreement to put in
        return _undefined_step(
            title, sym, formula, reason=res.reason, brief=brief, symbol=symbol, value=float(res)
        )
    if value_exact is None:
        return _undefined_step(
            title,
            sym,
            formula,
            _put_in(p_o, p_e),
            _frac(number(p_o - p_e), number(0)),
            reason=res.reason,
            brief=brief,
            symbol=symbol,
            value=float(res),
        )
    chain = Chain(sym, formula, _put_in(p_o, p_e), _ratio_of(p_o - p_e, 1 - p_e), approx(value_exact))
    r_o, r_e = round_half_up(p_o), round_half_up(p_e)
    rounded = (r_o - r_e) / (1 - r_e) if r_e != 1 else None
    notes = [_band_note(value_exact, sym), _rounding_note(value_exact, rounded, obs, "P_e")]
    return _step(
        title, chains=[chain], notes=notes, brief=brief, symbol=symbol, value=float(res), exact=value_exact
    )


def _put_in(p_o: Fraction, p_e: Fraction) -> Math:
    """(P_o - P_e) / (1 - P_e) with the numbers put in."""
    return _frac(_big(number(p_o) + Math(" - ") + number(p_e)), _big(Math("1 - ") + number(p_e)))


def _root(var: Fraction | None, se: float) -> Math:
    """``√(8/675) ≈ 0.109``: the exact variance where it is a short fraction (else 5 decimals of it), then the SE."""
    if var is not None and Fraction(var).denominator < 10**6:
        inside = number(var)
    else:
        inside = Math(fmt(var if var is not None else se * se, 5))
    return Math(r"\sqrt{" + inside.tex + r"} \approx " + fmt(se), f"√({inside.txt}) ≈ {fmt(se)}", False)


def _uncertainty_step(res: Any, sym: Math, brief: bool, confidence: float = 0.95) -> Step | None:
    """The standard error (Gwet's linearized variance) and the confidence interval of a defined coefficient."""
    if not res.defined:
        return None  # the coefficient's own step says why
    share = format_number(confidence, ".0%")
    heading = f"Standard error and {share} interval"
    if math.isnan(res.se):
        return _undefined_step(heading, _SE, reason=res.se_reason, brief=brief, symbol="se", value=res.se)
    n = res.df + 1 if res.df is not None else None
    c_i = Math("{" + sym.tex + "}^*_i", sym.txt + "*_i")
    spread = Math(r"\sum_i (" + c_i.tex + " - " + sym.tex + ")^2", f"Σ_i ({c_i.txt} - {sym.txt})²", False)
    scale = _frac(Math("(1 - n/N_{pop})") if res.population else Math("1"), Math("n(n - 1)"))
    se_chain = Chain(
        _SE,
        Math(r"\sqrt{" + scale.tex + " " + spread.tex + "}", f"√({scale.txt} × {spread.txt})", False),
        _root(res.exact.variance, res.se),
    )
    low, high = res.ci(confidence)
    tail = format_number((1 + confidence) / 2, ".3f").rstrip("0")
    if res.df is None:
        crit_sym = Math(f"z_{{{tail}}}", f"z_{tail}")
        crit_words = prose("{z} is the normal quantile", z=crit_sym)
    else:
        crit_sym = Math(f"t_{{{tail};\\,{res.df}}}", f"t_{tail};{res.df}")
        crit_words = prose("{t} is Student's t with n - 1 = {df} degrees of freedom", t=crit_sym, df=res.df)
    crit = (float(res) - low) / res.se if res.se > 0 else None
    ci_chain = Chain(
        Math(share.replace("%", r"\%") + r"\ \text{CI}", f"{share} CI"),
        Math(f"{sym.tex} \\pm {crit_sym.tex} \\cdot {_SE.tex}", f"{sym.txt} ± {crit_sym.txt} × SE", False),
        Math(
            f"{fmt(res)} \\pm {fmt(crit)} \\cdot {fmt(res.se)}",
            f"{fmt(res)} ± {fmt(crit)} × {fmt(res.se)}",
            False,
        )
        if crit is not None
        else None,
        Math(f"[{fmt(low)},\\ {fmt(high)}]", f"[{fmt(low)}, {fmt(high)}]"),
    )
    intro = (
        prose(
            "Gwet's linearized variance, as irrCAC computes it: each of the n = {n} rated items gets its own "
            "value {c_i} (its agreement and its part of the chance term, linearized), and their spread "
            "around {sym} gives the variance.",
            n=n,
            c_i=c_i,
            sym=sym,
        )
        if res.df is not None
        else prose("The large-sample variance of Fleiss, Cohen and Everitt (1969).")
    )
    notes = [
        prose("{words}.", words=crit_words),
        prose(
            "Finite-population correction: the n = {n} items were drawn from {N} (1 - n / N).",
            n=n,
            N=res.population,
        )
        if res.population
        else None,
        Prose("The upper limit is capped at 1, as irrCAC does: no coefficient exceeds 1.")
        if float(res) + (crit or 0) * res.se > 1
        else None,
    ]
    return _step(
        heading, intro=intro, chains=[se_chain, ci_chain], notes=notes, brief=brief, symbol="se", value=res.se
    )


# ============================================================= pairwise
def _pairwise_steps(res: PairwiseCohenResult, brief: bool) -> tuple[str, list[Step]]:
    title = f"Cohen's kappa for every pair of raters ({len(res.results)} pairs)"
    steps = []
    for (a, b), r in zip(res.pairs, res.results):
        ex = r.exact
        sym = Math(f"\\kappa_{{{tex_text(a)}{tex_text(b)}}}", f"κ_{a}{b}")
        chains = [
            Chain(Math("P_o"), approx(ex.p_o)),
            Chain(Math("P_e"), approx(ex.p_e)),
            Chain(sym, None if ex.kappa is None else _put_in(ex.p_o, ex.p_e), approx(ex.kappa)),
        ]
        dropped = f" ({r.n_items} items rated by both)" if r.n_dropped else ""
        intro = prose("{P_e} from {a}'s and {b}'s own marginals{dropped}.", a=a, b=b, dropped=dropped)
        steps.append(
            _step(
                prose("{a} vs {b}", a=a, b=b),
                intro=intro,
                chains=chains,
                brief=brief,
                symbol="kappa",
                value=r.kappa,
                exact=ex.kappa,
            )
        )
    kap = list(res.exact.kappas)
    defined = [(q, p) for q, p in zip(kap, res.pairs) if q is not None]
    mean = res.exact.mean_kappa
    chain = Chain(
        Math(r"\bar\kappa", "mean κ"),
        None if mean is None else _scaled(_ratio(1, len(kap)), _q_sum(kap)),
        approx(mean),
    )
    note = Prose(f"Undefined: {res.reason}.") if res.reason else None
    if not res.reason and len(defined) >= 2:
        hi, lo = max(defined, key=lambda kp: kp[0]), min(defined, key=lambda kp: kp[0])
        note = Prose(
            f"Highest: {hi[1][0]} vs {hi[1][1]} ({fmt(hi[0])}); "
            f"lowest: {lo[1][0]} vs {lo[1][1]} ({fmt(lo[0])})."
        )
    light = Prose(
        "Light's kappa (Light 1971) is this mean of the pairwise kappas: a summary of the pairs, not "
        "Fleiss' kappa, which pools all the raters' labels into one chance term."
    )
    steps.append(
        _step(
            "Mean over pairs (Light's kappa)",
            intro=light,
            chains=[chain],
            notes=[note],
            brief=brief,
            symbol="mean_kappa",
            value=res.mean_kappa,
            exact=mean,
        )
    )
    return title, steps


# ================================================================ Fleiss
def chance_rule(result: FleissResult) -> str:
    """The Fleiss chance rule of a result in words, e.g. "pooled proportions over all 30 ratings"."""
    if result.chance == "pooled":
        return f"pooled proportions over all {result.n_ratings} ratings"
    n_rated = int((np.asarray(result.raters_per_item) > 0).sum())
    return f"mean of the per-item proportions over {n_rated} items"


def kappa_label(weights: str | None, name: str = "Cohen's kappa") -> str:
    """``name`` with the kappa's ``weights`` (a name such as "linear", or None for none) in brackets.

    >>> kappa_label("quadratic"), kappa_label(None)
    ("Cohen's kappa (quadratic weights)", "Cohen's kappa")
    """
    return name + ("" if weights is None else f" ({weights} weights)")


def _count_table_step(
    counts: np.ndarray, m: np.ndarray, lab: _Labels, names: list[str], brief: bool, extra: Prose | None = None
) -> Step:
    """The items x categories count table n_ij with each item's n_i (only the totals for a long table)."""
    n_items = counts.shape[0]
    intro = prose(
        "{n_ij}: how many raters put item {i} in category {j}; {n_i}: the item's ratings{varies}{totals}",
        i=Math("i"),
        j=Math("j"),
        varies=prose(" (it varies from item to item: per-item {n_i}).") if len(set(m.tolist())) > 1 else ".",
        totals=f" ({n_items} items; the totals:)" if n_items > _MAX_LISTED else "",
    )
    if extra:
        intro = intro + " " + extra
    table = _grid(counts.tolist(), names, lab.names, "item", "n_i")  # each row's total is its n_i
    if n_items > _MAX_LISTED:
        table.rows = table.rows[-1:]
    return _step("Count table", intro=intro, table=table, brief=brief)


_W = SYMBOLS["w_jk"]


def _weights_step(agreement: Sequence[Sequence[Fraction]], weights: Any, lab: _Labels, brief: bool) -> Step:
    """The agreement weights w_jk of a weighted coefficient of the family, as a table."""
    if weights == "custom":
        intro = prose(
            "Cells count as partial agreement: {w}, the matrix given (1 on the diagonal, symmetric).", w=_W
        )
    else:
        intro = prose(
            "Cells count as partial agreement: {w} are Gwet's {scheme} weights, over the categories' "
            "values (over 1, ..., {q} if they are not numbers).",
            w=_W,
            scheme=Em(weights),
            q=Math(str(len(agreement))) if len(agreement) else Math("q"),
        )
    return _step(
        "Agreement weights {w_jk}", intro=intro, table=_grid(agreement, lab.names, lab.names), brief=brief
    )


def _agreed(row: Sequence[int], agreement: Sequence[Sequence[Fraction]] | None) -> Fraction:
    """sum_jk w_jk n_ij n_ik of one count row (sum_j n_ij^2 unweighted): the item's agreeing pairs, with itself."""
    if agreement is None:
        return Fraction(sum(c * c for c in row))
    return sum(
        (agreement[j][m] * a * b for j, a in enumerate(row) for m, b in enumerate(row) if a and b),
        Fraction(0),
    )


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


def _item_agreement_step(
    counts: np.ndarray,
    m: np.ndarray,
    names: list[str],
    p_i: Sequence[Fraction | None],
    brief: bool,
    agreement: Sequence[Sequence[Fraction]] | None = None,
) -> Step:
    """P_i item by item (or count row by count row for a long table)."""
    n_items = len(m)
    if agreement is None:
        formula = Math(
            r"\frac{\sum_j n_{ij}^2 - n_i}{n_i (n_i - 1)}", "(Σ_j n_ij² - n_i) / (n_i (n_i - 1))", False
        )
    else:
        formula = Math(
            r"\frac{\sum_{j,k} w_{jk}\, n_{ij}\, n_{ik} - n_i}{n_i (n_i - 1)}",
            "(Σ_jk w_jk n_ij n_ik - n_i) / (n_i (n_i - 1))",
            False,
        )
    chains = [Chain(Math("P_i"), formula)]
    single = [names[i] for i in range(n_items) if m[i] < 2]
    groups: dict[Any, list[int]] = {}  # one per item; in a long table, one per count row
    for i in np.flatnonzero(m >= 2).tolist():
        row = counts[i].tolist()  # weighted: the order of the counts matters; unweighted: only their values
        key = (
            i
            if n_items <= _MAX_LISTED
            else tuple(row if agreement is not None else sorted(row, reverse=True))
        )
        groups.setdefault(key, []).append(i)
    for idx in groups.values():
        i = idx[0]
        if len(idx) == 1:
            sym = Math(f"P_{{{tex_text(names[i]) if not names[i].isdigit() else names[i]}}}", f"P_{names[i]}")
        else:
            shown = ", ".join(names[j] for j in idx[:3]) + (", …" if len(idx) > 3 else "")
            sym = Math(f"P_i\\;({tex_text('items ' + shown)})", f"P_i (items {shown})")
        row, n_i = counts[i].tolist(), int(m[i])
        agreed = _agreed(row, agreement)
        num = _sum([_squared(c) for c in row if c]) if agreement is None else number(agreed)
        chains.append(
            Chain(
                sym,
                _frac(num + Math(f" - {n_i}"), _pairs_of(n_i)),
                _over(agreed - n_i, n_i * (n_i - 1)),
                approx(p_i[i]),
                inline=True,
            )
        )
    note = (
        prose(
            "Item(s) {items} have fewer than 2 ratings: no pair to compare, so they are left out of {P_a}.",
            items=", ".join(single),
        )
        if single
        else None
    )
    intro = prose(
        "The share of agreeing ordered pairs of raters on the item"
        + ("." if agreement is None else ", a pair of labels j and k counting {w}."),
        w=_W,
    )
    return _step("Agreement on each item {P_i}", chains=chains, notes=[note], brief=brief, intro=intro)


def _mean_agreement_step(
    p_i: Sequence[Fraction | None],
    m: np.ndarray,
    p_a: Fraction,
    value: float,
    brief: bool,
    notes: Sequence[Prose | None] = (),
) -> Step:
    """P_a, the mean of P_i over the items with 2 or more ratings."""
    p_is = [p for p, size in zip(p_i, m) if size >= 2]
    n_used = len(p_is)
    chain = Chain(
        Math("P_a"),
        Math(r"\frac{1}{N_a}\sum_i P_i", "Σ P_i / N_a", False),
        _scaled(_ratio(1, n_used), _q_sum(p_is)) if n_used <= _MAX_TERMS else None,
        _scaled(_ratio(1, n_used), _grouped(p_is)),
        _over(sum(p_is, Fraction(0)), n_used),
        approx(p_a),
    )
    intro = prose(
        "The mean of {P_i} over the {N_a} items with at least 2 ratings ({N} = {n} items in all).",
        N_a=Math(f"N_a = {n_used}"),
        N=Math("N"),
        n=len(p_i),
    )
    return _step(
        "Mean observed agreement {P_a}",
        intro=intro,
        chains=[chain],
        notes=notes,
        brief=brief,
        symbol="P_a",
        value=value,
        exact=p_a,
    )


def _proportions_step(
    counts: np.ndarray,
    m: np.ndarray,
    p: Sequence[Fraction],
    chance: str,
    lab: _Labels,
    brief: bool,
    intro: Prose | str,
) -> Step:
    """The category proportions p_j: pooled over all ratings, or the mean of the per-item proportions."""
    k = counts.shape[1]
    if chance == "pooled":
        total = counts.sum(axis=0)
        T = int(m.sum())
        chains = [Chain(Math("p_j"), Math(r"\frac{\sum_i n_{ij}}{\sum_i n_i}", "Σ_i n_ij / Σ_i n_i", False))]
        chains += [
            Chain(lab.sym("p", j), _ratio(int(total[j]), T), approx(p[j]), inline=True) for j in range(k)
        ]
    else:
        rated = [i for i in range(len(m)) if m[i] > 0]
        n_rated = len(rated)
        chains = [
            Chain(Math("p_j"), Math(r"\frac{1}{N'}\sum_i \frac{n_{ij}}{n_i}", "Σ_i (n_ij / n_i) / N'", False))
        ]
        for j in range(k):
            parts = Counter((int(counts[i, j]), int(m[i])) for i in rated if counts[i, j])
            written = _sum(
                [
                    (_ratio(c, mi) if cnt == 1 else _times(number(cnt), _ratio(c, mi)))
                    for (c, mi), cnt in sorted(parts.items(), key=lambda x: (-x[0][0] / x[0][1], x[0]))
                ]
            )
            summed = sum((cnt * Fraction(c, mi) for (c, mi), cnt in parts.items()), Fraction(0))
            chains.append(
                Chain(
                    lab.sym("p", j),
                    _scaled(_ratio(1, n_rated), written),
                    _over(summed, n_rated),
                    approx(p[j]),
                    inline=True,
                )
            )
    return _step("Category proportions {p_j}", intro=intro, chains=chains, brief=brief)


def _shared_chance_step(
    res: Any,
    counts: np.ndarray,
    m: np.ndarray,
    p: Sequence[Fraction],
    chance: str,
    lab: _Labels,
    brief: bool,
    agreement: Sequence[Sequence[Fraction]] | None = None,
) -> Step:
    """P_e = sum_j p_j^2 (sum_jk w_jk p_j p_k weighted): two ratings drawn from one shared distribution agree."""
    k = len(p)
    if agreement is None:
        sq_terms = [
            Math(
                f"{number(x).tex if Fraction(x).denominator == 1 else number(x).paren().tex}^2",
                f"({number(x).txt})²",
            )
            for x in p
        ]
        rhs = [
            _sum([lab.sym("p", j) + Math("^2", "²") for j in range(k)])
            if k <= 6
            else Math(r"\sum_j p_j^2", "Σ_j p_j²", False),
            _sum(sq_terms),
        ]
        if chance == "pooled":
            total = counts.sum(axis=0)
            T = int(m.sum())
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
        rhs = [
            Math(r"\sum_{j,k} w_{jk}\, p_j\, p_k", "Σ_jk w_jk p_j p_k", False),
            _sum([_weighted(w, a, b) for w, a, b in terms]) if len(terms) <= _MAX_TERMS else None,
        ]
    rhs.append(approx(res.exact.p_e))
    return _chance_step(
        res,
        "The chance that two ratings drawn at random agree" + (", weighted." if agreement else "."),
        [Chain(Math("P_e"), *rhs)],
        brief,
    )


def _counted_steps(
    res: Any,
    items: Sequence[Any] | None,
    brief: bool,
    extra: Prose | None = None,
    notes: Sequence[Prose] = (),
) -> tuple[_Labels, np.ndarray, np.ndarray, Any, list[Step]]:
    """The first steps of a counted result (the count table, the weights, each P_i, P_a), and what the rest use:
    the labels, the counts, each item's n_i and the agreement weights (None unweighted)."""
    ex, lab = res.exact, _Labels(res.categories)
    counts = np.asarray(res.counts, dtype=np.int64)
    m = np.asarray(res.raters_per_item, dtype=np.int64)
    agreement = ex.agreement_weights if res.weights is not None else None
    names = [str(x) for x in (items if items is not None else range(1, counts.shape[0] + 1))]
    p_i = ex.p_i if isinstance(res, FleissResult) else _item_agreements(counts, agreement)
    steps = [
        _count_table_step(counts, m, lab, names, brief, extra),
        _weights_step(agreement, res.weights, lab, brief) if agreement is not None else None,
        _item_agreement_step(counts, m, names, p_i, brief, agreement),
        _mean_agreement_step(p_i, m, ex.p_a, res.p_a, brief, notes),
    ]
    return lab, counts, m, agreement, steps


def _fleiss_steps(
    res: FleissResult, brief: bool, items: Sequence[Any] | None = None
) -> tuple[str, list[Step]]:
    ex, rule = res.exact, chance_rule(res)
    lab, counts, m, agreement, steps = _counted_steps(res, items, brief)
    weighted = agreement is not None
    title = f"Fleiss' kappa (chance: {rule}" + (f"; {res.weights} weights)" if weighted else ")")
    if res.chance == "pooled":
        intro = (
            f"Chance rule: {rule}. Each category's share of all the labels (single-rated items count too)."
        )
    else:
        intro = prose(
            "Chance rule: {rule} ({N}), so every item weighs the same, however many ratings it has.",
            rule=rule,
            N=Math("N'"),
        )
    steps.append(_proportions_step(counts, m, ex.p_j, res.chance, lab, brief, intro))
    steps.append(_shared_chance_step(res, counts, m, ex.p_j, res.chance, lab, brief, agreement))
    steps.append(_coefficient_step(res, "Fleiss' kappa", "P_a", ex.p_a, brief))
    if weighted:
        steps.append(_uncertainty_step(res, _KAPPA, brief))
    return title, steps


# ============================================================ the family
_FAMILY = (PercentAgreementResult, BrennanPredigerResult, ScottResult, CongerResult, GwetResult)
_FAMILY_SYMBOLS = ((BrennanPredigerResult, "S"), (ScottResult, "pi"), (PercentAgreementResult, "P_a"))
_MISSING_RULE = (
    "Missing ratings, as in Gwet's handbook and irrCAC: items with no rating are left out; {P_a} is the "
    "mean over the items with 2 or more ratings; the chance term uses every rating, single-rated "
    "items too."
)


def _family_symbol(res: Any) -> tuple[Math, str]:
    """The coefficient's symbol and its name in a Step."""
    if isinstance(res, GwetResult):  # AC1 or AC2
        return Math(r"\mathrm{AC}_" + res.name[-1], res.name), res.name
    symbol = next((s for kind, s in _FAMILY_SYMBOLS if isinstance(res, kind)), "kappa")
    return SYMBOLS[symbol], symbol


def _uniform_chance_step(
    res: BrennanPredigerResult, agreement: Sequence[Sequence[Fraction]] | None, brief: bool
) -> Step:
    ex = res.exact
    q = res.n_categories
    intro = prose(
        "Chance model: a rater picks each of the {q} categories of the table (used or not) with the same "
        "probability, whatever the data.",
        q=Math(f"q = {q}"),
    )
    if agreement is None:
        chain = Chain(Math("P_e"), Math(r"\frac{1}{q}", "1/q", False), _ratio(1, q), approx(ex.p_e))
    else:
        total = sum((w for row in agreement for w in row), Fraction(0))
        chain = Chain(
            Math("P_e"),
            Math(r"\frac{1}{q^2}\sum_{j,k} w_{jk}", "Σ_jk w_jk / q²", False),
            _frac(number(total), _squared(q)),
            approx(ex.p_e),
        )
    return _chance_step(res, intro, [chain], brief)


def _gwet_chance_step(res: GwetResult, agreement: Sequence[Sequence[Fraction]] | None, brief: bool) -> Step:
    ex = res.exact
    p = list(ex.p_k)
    q = len(p)
    intro = prose(
        "Chance model: only a rater who rates an item at random (a hard item) agrees by chance; how often "
        "that happens is read from how far the proportions are from one category, {s}.",
        s=Math(r"\sum_j p_j (1 - p_j)", "Σ_j p_j (1 - p_j)"),
    )
    if q < 2:
        return _undefined_step(
            "Chance agreement {P_e}",
            Math("P_e"),
            reason=res.reason,
            brief=brief,
            symbol="P_e",
            value=res.p_e,
            intro=intro,
        )
    spread = (
        _sum(
            [
                _times(number(x), Math(f"\\left(1 - {number(x).tex}\\right)", f"(1 - {number(x).txt})"))
                for x in p
                if x
            ]
        )
        if q <= 6
        else None
    )
    total = sum(((x * (1 - x)) for x in p), Fraction(0))
    if agreement is None:
        formula = Math(r"\frac{1}{q - 1}\sum_j p_j (1 - p_j)", "Σ_j p_j (1 - p_j) / (q - 1)", False)
        scale = _ratio(1, q - 1)
    else:
        formula = Math(
            r"\frac{\sum_{j,k} w_{jk}}{q (q - 1)}\sum_j p_j (1 - p_j)",
            "Σ_jk w_jk / (q (q - 1)) × Σ_j p_j (1 - p_j)",
            False,
        )
        scale = _frac(number(sum((w for row in agreement for w in row), Fraction(0))), _pairs_of(q))
    chain = Chain(
        Math("P_e"),
        formula,
        _scaled(scale, spread) if spread is not None else None,
        _scaled(scale, number(total)),
        approx(ex.p_e),
    )
    return _chance_step(res, intro, [chain], brief)


def _conger_steps(
    res: CongerResult, agreement: Sequence[Sequence[Fraction]] | None, lab: _Labels, brief: bool
) -> list[Step]:
    ex = res.exact
    props = [list(row) for row in ex.rater_proportions]
    raters = [str(x) for x in res.raters]
    k = len(lab.names)
    active = [g for g in range(len(raters)) if any(props[g])]
    idle = [raters[g] for g in range(len(raters)) if g not in active]
    table = _grid([props[g] for g in active], [raters[g] for g in active], lab.names, "rater")
    intro = prose(
        "{p_rj}: rater {r}'s share of their own ratings in category {j} (over the items they rated).",
        p_rj=Math("p_{rj}", "p_rj"),
        r=Math("r"),
        j=Math("j"),
    )
    notes = [prose("Left out, with no rating at all: {names}.", names=", ".join(idle))] if idle else []
    proportions = _step("Each rater's proportions {p_rj}", intro=intro, table=table, notes=notes, brief=brief)
    pairs = [(g, h) for x, g in enumerate(active) for h in active[x + 1 :]]

    def pair_value(g: int, h: int) -> Fraction:
        if agreement is None:
            return sum((props[g][j] * props[h][j] for j in range(k)), Fraction(0))
        return sum(
            (agreement[j][m] * props[g][j] * props[h][m] for j in range(k) for m in range(k)), Fraction(0)
        )

    each = (
        Math(r"\sum_j p_{rj}\, p_{sj}", "Σ_j p_rj p_sj")
        if agreement is None
        else Math(r"\sum_{j,k} w_{jk}\, p_{rj}\, p_{sk}", "Σ_jk w_jk p_rj p_sk")
    )
    chains = [Chain(Math("P_{e,rs}", "P_e,rs"), each)]
    values = [pair_value(g, h) for g, h in pairs]
    if len(pairs) <= _MAX_TERMS:
        for (g, h), v in zip(pairs, values):
            chains.append(
                Chain(
                    Math(
                        f"P_{{e,{tex_text(raters[g])}{tex_text(raters[h])}}}",
                        f"P_e,{raters[g]}{raters[h]}"
                        if lab.short and len(raters[g]) == 1 and len(raters[h]) == 1
                        else f"P_e,({raters[g]},{raters[h]})",
                    ),
                    approx(v),
                    inline=True,
                )
            )
    n_pairs = len(pairs)
    chains.append(
        Chain(
            Math("P_e"),
            Math(r"\frac{1}{\text{pairs}}\sum_{r < s} P_{e,rs}", "Σ_{r<s} P_e,rs / pairs", False),
            _scaled(_ratio(1, n_pairs), _q_sum(values)) if n_pairs <= _MAX_TERMS else None,
            approx(ex.p_e),
        )
    )
    intro = prose(
        "Chance model: each rater labels at random with their own proportions; {P_e} is the mean over the "
        "{n} pairs of different raters of their Cohen chance agreement.",
        n=n_pairs,
    )
    return [proportions, _chance_step(res, intro, chains, brief)]


def _family_steps(res: Any, brief: bool, items: Sequence[Any] | None = None) -> tuple[str, list[Step]]:
    """Any coefficient of the family: counts, P_i, P_a, its own chance model, the coefficient, its interval."""
    sym, symbol = _family_symbol(res)
    name = f"Gwet's {res.name}" if isinstance(res, GwetResult) else res.name[0].upper() + res.name[1:]
    title = name + (f", {res.weights} weights" if res.weights is not None else "")
    if isinstance(res, ScottResult):
        title += f", {res.rater_a} vs {res.rater_b}"
    title += f" ({res.n_items} rated items, {res.n_items_used} with 2 or more ratings)"
    extra = (
        prose("Only the ratings of {a} and {b}.", a=str(res.rater_a), b=str(res.rater_b))
        if isinstance(res, ScottResult)
        else None
    )
    missing = prose(
        _MISSING_RULE + " Here: {n} rated items, {used} with 2 or more ratings, {r} ratings.",
        n=res.n_items,
        used=res.n_items_used,
        r=res.n_ratings,
    )
    if isinstance(res, CongerResult):
        missing = missing + " " + prose("A rater with no rating at all is left out.")
    ex = res.exact
    lab, counts, m, agreement, steps = _counted_steps(res, items, brief, extra, [missing])
    if isinstance(res, PercentAgreementResult):  # sym is P_a
        steps.append(
            _step(
                "Percent agreement {P_a}",
                chains=[Chain(sym, approx(ex.p_a))],
                intro=prose(
                    "No model of chance: {P_e} = 0, so the coefficient is {P_a} itself, "
                    "however much of it luck alone would give."
                ),
                notes=[_band_note(ex.p_a, sym)],
                brief=brief,
                symbol=symbol,
                value=res.p_a,
                exact=ex.p_a,
            )
        )
        return title, [*steps, _uncertainty_step(res, sym, brief)]
    if isinstance(res, BrennanPredigerResult):
        steps.append(_uniform_chance_step(res, agreement, brief))
    elif isinstance(res, CongerResult):
        steps += _conger_steps(res, agreement, lab, brief)
    else:
        shared = isinstance(res, ScottResult)
        intro = prose(
            "{who}: {p_j} is the mean over the {N} rated items of {share}, so every item weighs the "
            "same, however many ratings it has.",
            p_j=Math("p_j"),
            who="Chance model: both raters draw from one distribution they share"
            if shared
            else "The category proportions, as Gwet computes them",
            N=Math(f"N' = {int((m > 0).sum())}"),
            share=Math(r"n_{ij} / n_i", "n_ij / n_i"),
        )
        steps.append(_proportions_step(counts, m, ex.p_k, "item_mean", lab, brief, intro))
        if shared:
            steps.append(_shared_chance_step(res, counts, m, ex.p_k, "item_mean", lab, brief, agreement))
        else:
            steps.append(_gwet_chance_step(res, agreement, brief))
    steps.append(_coefficient_step(res, name, "P_a", ex.p_a, brief, sym, symbol))
    steps.append(_uncertainty_step(res, sym, brief))
    return title, steps


# ========================================================== Krippendorff
#: How each level of measurement sets the squared distance of two categories.
_DISTANCES = {
    "ordinal": (
        Math(
            r"\delta^2_{ck} = \left(\sum_{g=c}^{k} n_g - \frac{n_c + n_k}{2}\right)^2",
            "δ²_ck = (Σ_{g=c..k} n_g - (n_c + n_k)/2)²",
        ),
        " over the category order.",
    ),
    "interval": (Math(r"\delta^2_{ck} = (c - k)^2", "δ²_ck = (c - k)²"), "."),
    "ratio": (
        Math(r"\delta^2_{ck} = \left(\frac{c - k}{c + k}\right)^2", "δ²_ck = ((c - k) / (c + k))²"),
        ".",
    ),
}


def _alpha_steps(res: AlphaResult, brief: bool) -> tuple[str, list[Step]]:
    ex = res.exact
    lab = _Labels(res.categories)
    k = len(res.categories)
    counts = np.asarray(res.counts, dtype=np.int64)
    m = counts.sum(axis=1)
    n = int(ex.n)
    nominal = res.level == "nominal"
    title = f"Krippendorff's alpha ({res.level})"
    steps = []

    sizes = Counter(int(x) for x in m if x >= 2)
    parts = sorted(sizes.items(), reverse=True)
    count_txt = "; ".join(f"{c} item{'s' if c > 1 else ''} with {s} values" for s, c in parts)
    lonely, empty = int((m == 1).sum()), int((m == 0).sum())
    extra = (
        f" {lonely} item(s) with a single value are not pairable and are left out." if lonely else ""
    ) + (f" {empty} item(s) have no value." if empty else "")
    chain = Chain(
        Math("n"),
        _sum([_times(number(c), number(s)) if c > 1 else number(s) for s, c in parts]),
        number(n),
        inline=True,
    )
    steps.append(
        _step(
            "Pairable values {n}",
            intro=count_txt + "." + extra,
            chains=[chain],
            brief=brief,
            symbol="n",
            value=float(res.n),
            exact=Fraction(n),
        )
    )

    pc = np.asarray(res.pair_counts, dtype=np.int64)
    pair_formula = " + ".join(f"{c} × {s}·{s - 1}" if c > 1 else f"{s}·{s - 1}" for s, c in parts)
    intro = prose(
        "Every item (unit) with {n_i} values gives {pairs} ordered pairs of values: {formula} = {total} "
        "pairs, counted here without weights.",
        pairs=Math("n_i(n_i - 1)", "n_i (n_i - 1)"),
        formula=pair_formula,
        total=int(pc.sum()),
    )
    steps.append(
        _step(
            "Ordered pairs within items",
            intro=intro,
            brief=brief,
            table=_grid(pc.tolist(), lab.names, lab.names, total="total"),
        )
    )

    o = ex.coincidences
    n_c = ex.n_c
    if len(sizes) == 1:
        ((s, _),) = parts
        how = Prose(f"Every item here has {s} values, so each pair count is divided by {s - 1}")
    else:
        how = prose("Each item's pair counts are divided by its own {n_i} - 1")
    o_ck = Math(
        r"o_{ck} = \sum_i \frac{\text{number of } c\text{-}k \text{ pairs in item } i}{n_i - 1}",
        "o_ck = Σ_i (number of c-k pairs in item i) / (n_i - 1)",
    )
    intro = prose(
        "{o_ck}: {how}. Every value then counts once: the matrix sums to {n}, and its row totals are {n_c}.",
        o_ck=o_ck,
        how=how,
        n=Math(f"n = {n}"),
    )
    steps.append(
        _step(
            "Coincidence matrix {o_ck}",
            intro=intro,
            brief=brief,
            table=_grid(o, lab.names, lab.names, total="n_c"),
        )
    )  # its row totals are the n_c

    delta = ex.delta
    if not nominal:
        steps.append(
            _step(
                prose("Distances {delta2} ({level})", level=res.level),
                intro=Prose(*_DISTANCES[res.level]),
                table=_grid(delta, lab.names, lab.names),
                brief=brief,
            )
        )

    # D_o
    off = [(i, j) for i in range(k) for j in range(k) if i != j and o[i][j] and delta[i][j]]
    if nominal:
        formula = Math(r"\frac{1}{n}\sum_{c \ne k} o_{ck}", "Σ_{c≠k} o_ck / n", False)
        terms = [number(o[i][j]) for i, j in off]
    else:
        formula = Math(r"\frac{1}{n}\sum_{c, k} o_{ck}\,\delta^2_{ck}", "Σ o_ck δ²_ck / n", False)
        terms = [_times(number(o[i][j]), number(delta[i][j])) for i, j in off]
    num = sum((o[i][j] * delta[i][j] for i, j in off), Fraction(0))
    chain = Chain(
        Math("D_o"),
        formula,
        _frac(_sum(terms), number(n)) if len(terms) <= _MAX_TERMS else None,
        _over(num, n),
        approx(ex.d_o),
    )
    steps.append(
        _step(
            "Observed disagreement {D_o}",
            chains=[chain],
            brief=brief,
            intro="The coincidences off the diagonal, weighted by their distance, per pairable value."
            if not nominal
            else "The share of coincidences off the diagonal.",
            symbol="D_o",
            value=res.d_o,
            exact=ex.d_o,
        )
    )

    # D_e
    den = _pairs_of(n)
    if nominal:
        rhs = [_frac(Math(r"n^2 - \sum_c n_c^2", "n² - Σ n_c²"), Math("n(n - 1)")), _square_gap(n, n_c, den)]
        num = n * n - sum((c * c for c in n_c), Fraction(0))
    else:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if n_c[i] and n_c[j] and delta[i][j]]
        terms = [_times(number(n_c[i]), number(n_c[j]), number(delta[i][j])) for i, j in pairs]
        rhs = [
            Math(
                r"\frac{1}{n(n - 1)}\sum_{c, k} n_c\, n_k\, \delta^2_{ck}",
                "Σ n_c n_k δ²_ck / (n (n - 1))",
                False,
            ),
            _twice(terms, den) if len(terms) <= _MAX_TERMS else None,
        ]
        num = 2 * sum((n_c[i] * n_c[j] * delta[i][j] for i, j in pairs), Fraction(0))
    rhs += [_over(num, n * (n - 1)), approx(ex.d_e)]
    steps.append(
        _step(
            "Expected disagreement {D_e}",
            chains=[Chain(Math("D_e"), *rhs)],
            brief=brief,
            intro=prose(
                "The disagreement expected between two values drawn without replacement "
                "from all {n} pairable values."
            ),
            symbol="D_e",
            value=res.d_e,
            exact=ex.d_e,
        )
    )

    # alpha
    if ex.alpha is None:
        notes = [_undefined_note(res.reason)]
    else:
        rounded = 1 - round_half_up(ex.d_o) / round_half_up(ex.d_e) if round_half_up(ex.d_e) else None
        notes = [_alpha_note(ex.alpha), _rounding_note(ex.alpha, rounded, "D_o", "D_e")]
    steps.append(
        _step(
            "Krippendorff's alpha",
            chains=[_alpha_chain(_ALPHA, ex, reduced=True)],
            notes=notes,
            brief=brief,
            symbol="alpha",
            value=res.alpha,
            exact=ex.alpha,
        )
    )
    return title, steps


def _alpha_chain(lhs: Math, ex: Any, mark: str = "", reduced: bool = False) -> Chain:
    """``alpha = 1 - D_o / D_e`` with the exact values of ``ex`` put in (``mark``: a prime on D_o and D_e)."""
    formula = Math(f"1 - \\frac{{D_o{mark}}}{{D_e{mark}}}", f"1 - D_o{mark} / D_e{mark}", False)
    if ex.alpha is None:
        return Chain(lhs, formula, approx(None))
    return Chain(
        lhs,
        formula,
        Math("1 - ") + _ratio_of(ex.d_o, ex.d_e),
        Math("1 - ") + number(ex.d_o / ex.d_e) if reduced else None,
        approx(ex.alpha),
    )


# ============================================================= bootstrap
_METRIC_NAMES = {
    "cohen_kappa": "Cohen's kappa",
    "fleiss_kappa": "Fleiss' kappa",
    "krippendorff_alpha": "Krippendorff's alpha",
}


def _bootstrap_steps(res: BootstrapResult, brief: bool) -> tuple[str, list[Step]]:
    name = _METRIC_NAMES.get(res.metric, res.metric)
    confidence = format_number(res.confidence, ".0%")
    title = f"Bootstrap interval for {name} ({confidence})"
    used = res.n_boot - res.n_undefined
    intro = (
        f"Draw the items with replacement, as many as the data has, and recompute {name}: {res.n_boot} times."
    )
    note = Prose(
        f"{res.n_undefined} replicate(s) were undefined (every rating in one category) and are left out; "
        f"{used} remain."
        if res.n_undefined
        else f"All {used} replicates are defined."
    )
    resample = _step("Resample the items", intro=intro, notes=[note], brief=brief)
    tail = (1 - res.confidence) / 2 * 100
    ends = (("low", format_number(tail, "g"), res.low), ("high", format_number(100 - tail, "g"), res.high))
    chains = [
        Chain(Math(r"\text{estimate}", "estimate"), Math(fmt(res.estimate))),
        *(
            Chain(
                Math(f"\\text{{{end}}}", end),
                Math(f"{q}\\text{{th percentile}}", f"{q}th percentile"),
                Math(fmt(value)),
                inline=True,
            )
            for end, q, value in ends
        ),
    ]
    note = Prose(f"{confidence} interval: [{fmt(res.low)}, {fmt(res.high)}] around {fmt(res.estimate)}.")
    return title, [
        resample,
        _step(
            "Percentile interval",
            chains=chains,
            notes=[note],
            brief=brief,
            symbol="interval",
            value=res.estimate,
        ),
    ]


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
        "krippendorff_alpha, percent_agreement, brennan_prediger, scott_pi, conger_kappa, gwet_ac or bootstrap_ci",
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
_ALPHA_LOO = Math(r"\alpha'", "α'")


def _diagnosis_steps(report: Diagnosis, brief: bool) -> tuple[str, list[Step]]:
    """The report's key steps: alpha, alpha without the top rater (3+ raters), the top item, the top pair."""
    r, alpha = report.ratings, report.alpha
    title = (
        f"Where the disagreement comes from: {r.n_items} items x {r.n_raters} raters, "
        f"Krippendorff's alpha ({report.level})"
    )
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
    intro = prose(
        "All the ratings together: {n} pairable values, observed disagreement {D_o} against the "
        "disagreement {D_e} of values paired at random.",
        n=Math(f"n = {alpha.n}"),
    )
    note = prose("Every step of it: {call}.", call=Em("explain(report.alpha)"))
    return _step(
        "Alpha of the whole table",
        intro=intro,
        chains=chains,
        brief=brief,
        notes=[_undefined_note(alpha.reason), note],
        symbol="alpha",
        value=alpha.alpha,
        exact=ex.alpha,
    )


def _without_rater_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    name = row["rater"]
    heading = prose("Alpha without {name}", name=name)
    whole = report.alpha.exact.alpha
    try:
        without = report.alpha_without_rater(name)
    except AgreementError as err:  # nothing pairable is left
        return _undefined_step(
            heading,
            _ALPHA_LOO,
            reason=str(err),
            brief=brief,
            symbol="alpha_without",
            value=row["alpha_without"],
        )
    ex = without.exact
    chains = [
        Chain(Math("n'"), number(int(ex.n))),
        Chain(Math("D_o'"), approx(ex.d_o)),
        Chain(Math("D_e'"), approx(ex.d_e)),
        _alpha_chain(_ALPHA_LOO, ex, "'"),
    ]
    intro = prose(
        "Take {name}'s column out and compute alpha again from the other raters' labels; write {a} for "
        "it. Every item {name} labelled has one value fewer, and an item left with a single value is "
        "no longer pairable.",
        name=name,
        a=_ALPHA_LOO,
    )
    notes = [_undefined_note(without.reason)]
    if ex.alpha is not None and whole is not None:
        chains.append(
            Chain(
                Math(r"\text{rise}", "rise"),
                Math(r"\alpha' - \alpha", "α' - α", False),
                approx(ex.alpha - whole),
            )
        )
        notes.append(
            prose(
                "The others agree better without {name}: {name} is the rater least in step with the "
                "rest, first in the rater ranking."
                if ex.alpha > whole
                else "Even without {name}, the rater whose absence helps most, alpha does not rise: no "
                "single rater holds the others back.",
                name=name,
            )
        )
    if not math.isnan(row["mean_kappa"]):
        overuse = (
            prose(
                ", most in {c} (their share of it is {v} above the others')",
                c=Em(row["overused"]),
                v=fmt(row["overuse"]),
            )
            if row["overused"] is not None
            else ""
        )
        notes.append(
            prose(
                "{name}'s mean Cohen's kappa with the others is {k} ({p} pairs); their labels differ "
                "from the others' mix on the same items by {b} (total variation){over}.",
                name=name,
                k=fmt(row["mean_kappa"]),
                p=row["kappa_pairs"],
                b=fmt(row["bias"]),
                over=overuse,
            )
        )
    notes.append(
        Prose(
            "The report does not recompute alpha for each rater: the table's counts are sums over "
            "raters, so it subtracts each rater's own part and gets the same fractions at once."
        )
    )
    return _step(
        heading,
        intro=intro,
        chains=chains,
        notes=notes,
        brief=brief,
        symbol="alpha_without",
        value=without.alpha,
        exact=ex.alpha,
    )


def _item_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    item, counts = row["item"], row["label_counts"]
    heading = prose("Disagreement on item {item}", item=item)
    exact = report.item_disagreement_exact(item)
    n_i = int(row["ratings"])
    used = [(c, int(v)) for c, v in counts.items() if v]
    table = Table(
        ["category", "n_ij"], [[str(c), str(v)] for c, v in used], caption=f"item {item}: {n_i} ratings"
    )
    d_i = Math("D_i")
    pairs = _pairs_of(n_i)
    if exact is None:
        return _step(
            heading,
            table=table,
            chains=[Chain(d_i, approx(None))],
            brief=brief,
            notes=[Prose("Fewer than 2 ratings: no pair to disagree.")],
            symbol="D_i",
            value=row["disagreement"],
        )
    if report.level == "nominal":
        formula = _frac(Math(r"n_i^2 - \sum_j n_{ij}^2", "n_i² - Σ_j n_ij²"), Math("n_i(n_i - 1)"))
        sub = _square_gap(n_i, [v for _, v in used], pairs)
        num = n_i * n_i - sum(v * v for _, v in used)
        intro = prose(
            "The item's {n_i} ratings (below, by category; categories no one chose left out) make {p} "
            "ordered pairs; {D_i} is the share of them that disagree, {one} of Fleiss' kappa.",
            p=Math(f"n_i(n_i - 1) = {n_i * (n_i - 1)}", f"n_i (n_i - 1) = {n_i * (n_i - 1)}"),
            D_i=d_i,
            one=Math("1 - P_i"),
        )
    else:
        cats = list(report.ratings.categories)
        delta = report.alpha.exact.delta
        idx = [(cats.index(c), v) for c, v in used]
        terms = [
            (v, w, delta[a][b]) for x, (a, v) in enumerate(idx) for (b, w) in idx[x + 1 :] if delta[a][b]
        ]
        formula = _frac(
            Math(r"\sum_{j \ne l} n_{ij}\, n_{il}\, \delta^2_{jl}", "Σ_{j≠l} n_ij n_il δ²_jl"),
            Math("n_i(n_i - 1)"),
        )
        sub = (
            _twice([_times(number(v), number(w), number(q)) for v, w, q in terms], pairs)
            if len(terms) <= _MAX_TERMS
            else None
        )
        num = 2 * sum((v * w * q for v, w, q in terms), Fraction(0))
        intro = prose(
            "The mean distance {delta2} ({level}) over the {p} ordered pairs of the item's ratings "
            "(below, by category; categories no one chose left out).",
            level=report.level,
            p=n_i * (n_i - 1),
        )
    chain = Chain(d_i, formula, sub, _over(Fraction(num), n_i * (n_i - 1)), approx(exact))
    notes = [
        prose(
            "Item {item} is first in the item ranking: the most disputed. Its share of the table's {D_o} is "
            "{share}: {D_o} is the mean of the items' {D_i} weighted by their {n_i}.",
            item=item,
            D_i=d_i,
            share=fmt(row["share_of_d_o"]),
        )
    ]
    return _step(
        heading,
        intro=intro,
        table=table,
        chains=[chain],
        notes=notes,
        brief=brief,
        symbol="D_i",
        value=row["disagreement"],
        exact=exact,
    )


def _pair_step(report: Diagnosis, row: dict, brief: bool) -> Step:
    first, second = row["first"], row["second"]
    heading = prose("Confusion of {c} and {k}", c=first, k=second)
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
            Math(r"\frac{n_c\, n_k}{n - 1}", "n_c n_k / (n - 1)", False),
            _frac(_times(number(n_c), number(n_k)), number(n - 1)),
            approx(pair.expected),
        ),
        Chain(
            Math(r"\frac{o_{ck}}{e_{ck}}", "o_ck / e_ck", False),
            None if pair.ratio is None else _ratio_of(pair.observed, pair.expected),
            approx(pair.ratio),
        ),
    ]
    intro = prose(
        "With {c} = {first} and {k} = {second}: {o_ck} counts the pairs of ratings of the same item "
        "that are one {first} and one {second}, each item's pairs weighted by {w} ({pairs} such pairs "
        "unweighted); {e_ck} is what values paired at random would give, from the {n_c} = {nc} and "
        "{n_k} = {nk} pairable values in each category, of {n} in all.",
        c=Math("c"),
        k=Math("k"),
        first=first,
        second=second,
        o_ck=o_ck,
        e_ck=e_ck,
        w=Math(r"1/(n_i - 1)", "1/(n_i - 1)"),
        pairs=int(row["pairs"]),
        n_k=Math("n_k"),
        nc=number(n_c),
        nk=number(n_k),
        n=Math(f"n = {number(n).txt}"),
    )
    note = (
        None
        if pair.ratio is None
        else prose(
            "The most confused pair is {first} and {second}: {how}.",
            first=first,
            second=second,
            how=(
                "the raters put them on the same item more often than chance would pair them"
                if pair.ratio > 1
                else "still below chance (a ratio under 1), but the closest of all pairs"
            ),
        )
    )
    return _step(
        heading,
        intro=intro,
        chains=chains,
        notes=[note],
        brief=brief,
        symbol="ratio",
        value=row["ratio"],
        exact=pair.ratio,
    )
