"""Words out: any result object as a worked solution, step by step.

:func:`explain` turns a :class:`~iaa_teach.CohenResult`,
:class:`~iaa_teach.PairwiseCohenResult`, :class:`~iaa_teach.FleissResult`,
:class:`~iaa_teach.AlphaResult` or :class:`~iaa_teach.BootstrapResult` into an
:class:`Explanation`: a list of :class:`Step` objects, each a short title, the
working as Markdown with LaTeX aligned equations (the formula, the numbers put
in, the exact fraction and its 3-decimal value) and the same working as plain
text. In a notebook a bare ``explain(result)`` displays the Markdown.

Nothing here computes a coefficient: every number comes from the result
object (``result.exact`` for the fractions). The arithmetic shown in between
(sums of the counts the result holds) is only the substitution a student
writes down.

This module does not import matplotlib.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .metrics import (
    AlphaResult,
    BootstrapResult,
    CohenResult,
    FleissResult,
    PairwiseCohenResult,
    interpret,
)
from .ratings import as_ratings

__all__ = [
    "CHANCE_RULE_NAMES", "STYLES", "Explanation", "Hidden", "Step", "Table",
    "chance_rule", "explain", "ratings_table",
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


# ========================================================== the objects
@dataclass(frozen=True)
class Step:
    """One step of a worked solution.

    Attributes
    ----------
    title : str
        A short heading, e.g. ``"Observed agreement P_o"``.
    markdown : str
        The working as Markdown with LaTeX (``$$\\begin{aligned} ... $$``).
    text : str
        The same working as plain text.
    symbol : str or None
        The quantity the step ends with (``"P_o"``, ``"kappa"``...), if any.
    value : float or None
        Its value (NaN when undefined).
    exact : fractions.Fraction or None
        Its exact value, where there is one.
    """

    title: str
    markdown: str
    text: str
    symbol: str | None = None
    value: float | None = None
    exact: Fraction | None = None

    def _repr_markdown_(self) -> str:
        return f"**{_md_symbols(self.title)}**\n\n{self.markdown}"

    def __repr__(self) -> str:
        return f"{self.title}\n{_indent(self.text)}"


class Explanation:
    """A worked solution: a title and a list of :class:`Step`.

    ``markdown()`` and ``text()`` give the whole solution; in a notebook the
    object displays as Markdown (``text/markdown``) with the plain text as its
    ``text/plain`` form. Index it by position or by the start of a step title.
    """

    def __init__(self, title: str, steps: Sequence[Step], result: Any = None):
        self.title = title
        self.steps = list(steps)
        self.result = result

    def markdown(self) -> str:
        parts = [f"**{_md(self.title)}**"]
        for i, step in enumerate(self.steps, start=1):
            parts.append(f"*{i}. {_md_symbols(step.title)}*\n\n{step.markdown}")
        return "\n\n".join(parts) + "\n"

    def text(self) -> str:
        parts = [self.title]
        for i, step in enumerate(self.steps, start=1):
            parts.append(f"{i}. {step.title}\n{_indent(step.text)}")
        return "\n\n".join(parts) + "\n"

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
    """Anything with ``markdown()``/``text()`` shown folded (an HTML ``<details>``)."""

    def __init__(self, content: Any, summary: str = "Show the worked answer"):
        self.content = content
        self.summary = summary

    def _repr_markdown_(self) -> str:
        return (f"<details><summary>{_html(self.summary)}</summary>\n\n"
                f"{self.content.markdown()}\n</details>\n")

    def __repr__(self) -> str:
        return f"{self.summary}:\n\n{self.content.text()}".rstrip("\n")


class Table:
    """A small table that displays as Markdown and prints as aligned text."""

    def __init__(self, header: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None,
                 bold_first_column: bool = True):
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        self.caption = caption
        self.bold_first_column = bold_first_column

    def markdown(self) -> str:
        out = _md_table(self.header, self.rows, self.bold_first_column)
        return (f"{_md(self.caption)}\n\n{out}" if self.caption else out) + "\n"

    def text(self) -> str:
        out = _text_table(self.header, self.rows)
        return (f"{self.caption}\n{out}" if self.caption else out) + "\n"

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.text().rstrip("\n")


# ======================================================= small formatting
def _md(s: Any) -> str:
    """Escape text for Markdown prose and table cells."""
    out = str(s)
    for ch in "\\`*_[]<>|#":
        out = out.replace(ch, "\\" + ch)
    return out


_TITLE_SYMBOLS = re.compile(r"(?<![\w$])(P_o|P_e|P_i|P_a|p_j|o_ck|D_o|D_e|δ²|m_u|n)(?![\w$])")
_TITLE_TEX = {"δ²": r"\delta^2", "o_ck": "o_{ck}", "m_u": "m_u"}


def _md_symbols(title: str) -> str:
    """Text for Markdown, with the formula symbols in it (P_o, D_e, ...) as inline math."""
    parts = _TITLE_SYMBOLS.split(title)
    return "".join(f"${_TITLE_TEX.get(p, p)}$" if i % 2 else _md(p) for i, p in enumerate(parts))


def _html(s: str) -> str:
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _indent(text: str, by: str = "   ") -> str:
    return "\n".join(by + line if line else line for line in text.splitlines())


def _tex_text(s: Any) -> str:
    """A label inside \\text{...}, with LaTeX's special characters escaped."""
    out = []
    for ch in str(s):
        if ch in "\\":
            out.append(r"\textbackslash{}")
        elif ch in "{}_^#$%&":
            out.append("\\" + ch)
        elif ch == "~":
            out.append(r"\textasciitilde{}")
        else:
            out.append(ch)
    return r"\text{" + "".join(out) + "}"


def _dec(x: float, decimals: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "undefined"
    s = f"{x:.{decimals}f}"
    return "0." + "0" * decimals if s == "-0." + "0" * decimals else s


def _dec_q(q: Fraction, decimals: int = 3) -> str:
    """An exact value to ``decimals`` places, halves rounded away from zero (as by hand)."""
    q = Fraction(q)
    scaled = abs(q) * 10**decimals
    whole = int(scaled + Fraction(1, 2))
    sign = "-" if q < 0 and whole else ""
    digits = str(whole).rjust(decimals + 1, "0")
    return f"{sign}{digits[:-decimals]}.{digits[-decimals:]}" if decimals else f"{sign}{digits}"


class _M:
    """A piece of a formula written twice: LaTeX (``tex``) and plain text (``txt``).

    ``atom`` says whether the text form can stand as a factor or operand
    without parentheses.
    """

    __slots__ = ("tex", "txt", "atom")

    def __init__(self, tex: str, txt: str | None = None, atom: bool = True):
        self.tex = tex
        self.txt = tex if txt is None else txt
        self.atom = atom

    def __add__(self, other: "_M | str") -> "_M":
        other = _M(other) if isinstance(other, str) else other
        return _M(self.tex + other.tex, self.txt + other.txt, atom=False)

    def paren(self) -> "_M":
        return _M(r"\left(" + self.tex + r"\right)", "(" + self.txt + ")")

    def text_operand(self) -> str:
        return self.txt if self.atom else "(" + self.txt + ")"


def _t(tex: str, txt: str | None = None, atom: bool = True) -> _M:
    return _M(tex, txt, atom)


def _int(n: int) -> _M:
    return _M(str(int(n)), atom=int(n) >= 0)


def _q(q: Fraction | int) -> _M:
    """An exact number: integer or fraction (not reduced further than it is)."""
    q = Fraction(q)
    if q.denominator == 1:
        return _int(q.numerator)
    sign = "-" if q < 0 else ""
    a, b = abs(q.numerator), q.denominator
    return _M(f"{sign}\\frac{{{a}}}{{{b}}}", f"{sign}{a}/{b}", atom=q >= 0)


def _ratio(num: int, den: int) -> _M:
    """An unreduced fraction num/den of integers, as written before cancelling."""
    if den == 1:
        return _int(num)
    return _M(f"\\frac{{{int(num)}}}{{{int(den)}}}", f"{int(num)}/{int(den)}")


def _big(m: _M) -> _M:
    """The fractions inside ``m`` at full size (for a fraction of fractions)."""
    return _M(m.tex.replace("\\frac", "\\dfrac"), m.txt, m.atom)


def _frac(num: _M, den: _M) -> _M:
    def side(x: _M) -> str:
        return x.txt if x.atom and "/" not in x.txt and " " not in x.txt else "(" + x.txt + ")"
    return _M(f"\\frac{{{num.tex}}}{{{den.tex}}}", f"{side(num)} / {side(den)}", atom=False)


def _scaled(scale: _M, inner: _M) -> _M:
    """``scale (inner)``, e.g. ``1/10 (1 + 1/3 + ...)``."""
    return _M(f"{scale.tex}{inner.paren().tex}", f"({scale.txt})({inner.txt})" if "/" in scale.txt
              else f"{scale.text_operand()}({inner.txt})", atom=False)


def _over(num: Fraction, den: int) -> _M:
    """num / den, written as one fraction when num is whole."""
    num = Fraction(num)
    return _ratio(num.numerator, int(den)) if num.denominator == 1 else _frac(_q(num), _int(den))


def _times(*factors: _M) -> _M:
    return _M(r" \cdot ".join(f.tex for f in factors), " × ".join(f.text_operand() for f in factors), atom=False)


def _sum(terms: Sequence[_M], signs: Sequence[int] | None = None) -> _M:
    """terms joined by + (or - where signs[i] < 0)."""
    if not terms:
        return _int(0)
    signs = signs or [1] * len(terms)
    tex, txt = [], []
    for i, (t, s) in enumerate(zip(terms, signs)):
        op = " - " if s < 0 else " + "
        if i == 0:
            tex.append(("-" if s < 0 else "") + t.tex)
            txt.append(("-" if s < 0 else "") + t.txt)
        else:
            tex.append(op + t.tex)
            txt.append(op + t.txt)
    return _M("".join(tex), "".join(txt), atom=len(terms) == 1 and signs[0] > 0)


def _q_sum(values: Sequence[Fraction]) -> _M:
    """A sum of exact numbers, negatives written with a minus."""
    return _sum([_q(abs(v)) for v in values], [(-1 if v < 0 else 1) for v in values])


def _grouped(values: Sequence[Fraction]) -> _M:
    """A sum of exact numbers grouped by value: ``6 · 1 + 4 · 1/3``."""
    counts = Counter(values)
    order = sorted(counts, reverse=True)
    terms, signs = [], []
    for v in order:
        term = _q(abs(v)) if counts[v] == 1 else _times(_int(counts[v]), _q(abs(v)))
        terms.append(term)
        signs.append(-1 if v < 0 else 1)
    return _sum(terms, signs)


def _value(exact: Fraction | None, x: float, decimals: int = 3) -> _M:
    """``exact ≈ 0.xxx`` (``=`` when the decimal is exact, just the integer if whole)."""
    if exact is None or (isinstance(x, float) and math.isnan(x)):
        return _t(r"\text{undefined}", "undefined")
    exact = Fraction(exact)
    if exact.denominator == 1:
        return _int(exact.numerator)
    shown = _dec_q(exact, decimals)
    eq = "=" if Fraction(shown) == exact else r"\approx"
    return _M(f"{_q(exact).tex} {eq} {shown}", f"{_q(exact).txt} {'=' if eq == '=' else '≈'} {shown}", atom=False)


def _sub(symbol: str, sub: str) -> _M:
    """symbol with a subscript in both notations (sub given as TeX and as text)."""
    return _M(f"{symbol}_{{{sub}}}", f"{symbol}_{sub}")


class _Labels:
    """Category names in subscripts: ``p_{G}``, ``n_{GN}`` (commas if any name is longer)."""

    def __init__(self, categories: Sequence[Any]):
        self.names = [str(c) for c in categories]
        self.short = all(len(n) == 1 for n in self.names)

    def one(self, j: int) -> tuple[str, str]:
        n = self.names[j]
        return _tex_text(n), n if self.short else f"({n})"

    def two(self, i: int, j: int) -> tuple[str, str]:
        a, b = self.names[i], self.names[j]
        if self.short:
            return _tex_text(a + b), a + b
        return f"{_tex_text(a)},{_tex_text(b)}", f"({a},{b})"

    def sym(self, symbol: str, *idx: int) -> _M:
        tex, txt = self.one(idx[0]) if len(idx) == 1 else self.two(*idx)
        return _M(f"{symbol}_{{{tex}}}", f"{symbol}_{txt}")


# ======================================================= chains and steps
class _Chain:
    """``lhs = rhs_1 = rhs_2 = ...``: one ``=`` per line, or all on one line if ``inline``.

    A right-hand side that the next one repeats (``7/10`` before
    ``7/10 = 0.700``) is dropped.
    """

    def __init__(self, lhs: _M, *rhs: _M, inline: bool = False):
        self.lhs = lhs
        rhs = [r for r in rhs if r is not None]
        self.rhs = [r for r, nxt in zip(rhs, rhs[1:] + [None])
                    if nxt is None or not (nxt.tex == r.tex or nxt.tex.startswith(r.tex + " "))]
        self.inline = inline


def _block(chains: Sequence[_Chain], brief: bool) -> tuple[str, str]:
    tex_rows, txt_rows = [], []
    for chain in chains:
        rhs = chain.rhs[-1:] if brief else chain.rhs
        if chain.inline and len(rhs) > 1:
            rhs = [_M(" = ".join(r.tex for r in rhs), " = ".join(r.txt for r in rhs))]
        for i, r in enumerate(rhs):
            lhs_tex = chain.lhs.tex if i == 0 else ""
            lhs_txt = chain.lhs.txt if i == 0 else " " * len(chain.lhs.txt)
            tex_rows.append(f"{lhs_tex} &= {r.tex}")
            txt_rows.append(f"{lhs_txt} = {r.txt}")
    tex = "$$\n\\begin{aligned}\n" + " \\\\\n".join(tex_rows) + "\n\\end{aligned}\n$$"
    return tex, "\n".join(txt_rows)


def _step(title: str, *, intro: str | tuple[str, str] | None = None, table: Table | None = None,
          chains: Sequence[_Chain] = (), note: str | tuple[str, str] | None = None, brief: bool = False,
          symbol: str | None = None, value: float | None = None, exact: Fraction | None = None) -> Step:
    md, txt = [], []
    intro = (_md_symbols(intro), intro) if isinstance(intro, str) else intro
    note = (_md_symbols(note), note) if isinstance(note, str) else note
    if intro and not brief:
        md.append(intro[0])
        txt.append(intro[1])
    if table is not None and not brief:
        md.append(table.markdown().rstrip("\n"))
        txt.append(table.text().rstrip("\n"))
    if chains:
        tex_block, txt_block = _block(chains, brief)
        md.append(tex_block)
        txt.append(txt_block)
    if note:
        md.append(note[0])
        txt.append(note[1])
    return Step(title, "\n\n".join(md), "\n".join(txt), symbol, value, exact)


def _nonempty(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.markdown]


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]], bold_first: bool = True) -> str:
    def cell(s: str, first: bool) -> str:
        s = _md(s) if s else " "
        return f"**{s}**" if first and bold_first and s.strip() else s
    lines = ["| " + " | ".join(cell(h, False) for h in header) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(c, i == 0) for i, c in enumerate(row)) + " |")
    return "\n".join(lines)


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def line(r: Sequence[str]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(header), *(line(r) for r in rows)])


def _cell(q: Fraction | int | float) -> str:
    if isinstance(q, float):
        q = Fraction(q).limit_denominator(10**6)
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _band_note(exact: Fraction, name: str) -> tuple[str, str]:
    band = interpret(float(exact))
    return (f"{_md(name)} = {_dec_q(exact)} is *{band}* on the Landis and Koch scale.",
            f"{name} = {_dec_q(exact)} is {band} on the Landis and Koch scale.")


def _rounding_note(exact_value: Fraction, rounded_value: Fraction | None, what: str) -> tuple[str, str] | None:
    """Say so when rounding the intermediate values first moves the third decimal."""
    if rounded_value is None or _dec_q(rounded_value) == _dec_q(exact_value):
        return None
    txt = (f"Round only at the end: with {what} rounded to 3 decimals first, "
           f"the same formula gives {_dec_q(rounded_value)} instead of {_dec_q(exact_value)}.")
    return (_md_symbols(txt), txt)


def _r3(q: Fraction) -> Fraction:
    """q rounded to 3 decimals by hand (halves away from zero), as an exact number."""
    return Fraction(_dec_q(q))


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
    steps = []

    header = [f"{a} \\ {b}", *lab.names, "total"]
    body = [[lab.names[i], *map(str, t[i]), str(rows[i])] for i in range(k)]
    body.append(["total", *map(str, cols), str(n)])
    intro_md = (f"Rows: {_md(a)}'s label; columns: {_md(b)}'s label. The diagonal holds the items "
                f"on which they agree.")
    intro_txt = f"Rows: {a}'s label; columns: {b}'s label. The diagonal holds the items on which they agree."
    if res.n_dropped:
        extra = f" {res.n_dropped} item(s) without both ratings are left out."
        intro_md += _md(extra)
        intro_txt += extra
    steps.append(_step("Agreement table", intro=(intro_md, intro_txt), table=Table(header, body), brief=brief))

    if weighted:
        w = np.asarray(res.weight_matrix, dtype=np.int64)
        top = int(w.max())
        agree = [[Fraction(1) - (Fraction(int(w[i, j]), top) if top else 0) for j in range(k)] for i in range(k)]
        kind_tex, kind_txt = ((r"\lvert i - j \rvert", "|i - j|") if res.weights == "linear"
                              else ("(i - j)^2", "(i - j)²"))
        intro = (f"Cells count as partial agreement: $w_{{ij}} = 1 - \\frac{{{kind_tex}}}{{{top}}}$ "
                 f"over the category order.",
                 f"Cells count as partial agreement: w_ij = 1 - {kind_txt} / {top} over the category order.")
        wt = Table([f"{a} \\ {b}", *lab.names], [[lab.names[i], *(_cell(x) for x in agree[i])] for i in range(k)])
        steps.append(_step("Agreement weights", intro=intro, table=wt, brief=brief))
        terms = [(agree[i][j], int(t[i, j])) for i in range(k) for j in range(k) if agree[i][j] and t[i, j]]
        num = sum((q * c for q, c in terms), Fraction(0))
        sub = (_frac(_sum([_times(_q(q), _int(c)) if q != 1 else _int(c) for q, c in terms]), _int(n))
               if len(terms) <= _MAX_TERMS else None)
        p_o_chain = _Chain(_t("P_o"), _t(r"\frac{1}{N}\sum_{i,j} w_{ij}\, n_{ij}", "Σ w_ij n_ij / N", False),
                           sub, _frac(_q(num), _int(n)) if num.denominator != 1 else _ratio(int(num), n),
                           _value(ex.p_o, res.p_o))
    else:
        diag = [lab.sym("n", j, j) for j in range(k)]
        formula = (_frac(_sum(diag), _t("N")) if k <= 6
                   else _t(r"\frac{1}{N}\sum_j n_{jj}", "Σ_j n_jj / N", False))
        p_o_chain = _Chain(_t("P_o"), formula, _frac(_sum([_int(x) for x in np.diag(t)]), _int(n)),
                           _ratio(int(np.trace(t)), n) if k > 1 else None, _value(ex.p_o, res.p_o))
    steps.append(_step("Observed agreement P_o", chains=[p_o_chain], brief=brief,
                       intro="The share of items on which the two agree" + (" (weighted)." if weighted else "."),
                       symbol="P_o", value=res.p_o, exact=ex.p_o))

    marg = []
    for j in range(k):
        sym = _M(f"p_{{{lab.one(j)[0]}+}}", f"p_{lab.one(j)[1]}+")
        marg.append(_Chain(sym, _ratio(int(rows[j]), n), _value(ex.row_marginals[j], float(res.row_marginals[j])),
                           inline=True))
    for j in range(k):
        sym = _M(f"p_{{+{lab.one(j)[0]}}}", f"p_+{lab.one(j)[1]}")
        marg.append(_Chain(sym, _ratio(int(cols[j]), n), _value(ex.col_marginals[j], float(res.col_marginals[j])),
                           inline=True))
    steps.append(_step("Marginals", chains=marg, brief=brief,
                       intro=(f"Each rater's own category proportions: $p_{{j+}}$ for {_md(a)} (row totals / N), "
                              f"$p_{{+j}}$ for {_md(b)} (column totals / N).",
                              f"Each rater's own category proportions: p_j+ for {a} (row totals / N), "
                              f"p_+j for {b} (column totals / N).")))

    if weighted:
        terms = [(agree[i][j], int(rows[i]), int(cols[j])) for i in range(k) for j in range(k)
                 if agree[i][j] and rows[i] and cols[j]]
        num = sum((q * r * c for q, r, c in terms), Fraction(0))
        sub = (_frac(_sum([_times(*([] if q == 1 else [_q(q)]), _int(r), _int(c)) for q, r, c in terms]),
                     _t(f"{n}^2", f"{n}²")) if len(terms) <= _MAX_TERMS else None)
        p_e_chain = _Chain(_t("P_e"), _t(r"\frac{1}{N^2}\sum_{i,j} w_{ij}\, n_{i+}\, n_{+j}",
                                         "Σ w_ij n_i+ n_+j / N²", False),
                           sub, _frac(_q(num), _int(n * n)), _value(ex.p_e, res.p_e))
    else:
        prods = [_times(_ratio(int(rows[j]), n), _ratio(int(cols[j]), n)) for j in range(k)]
        formula = _sum([_M(f"p_{{{lab.one(j)[0]}+}}\\, p_{{+{lab.one(j)[0]}}}",
                           f"p_{lab.one(j)[1]}+ p_+{lab.one(j)[1]}") for j in range(k)]) if k <= 6 \
            else _t(r"\sum_j p_{j+}\, p_{+j}", "Σ_j p_j+ p_+j", False)
        p_e_chain = _Chain(_t("P_e"), formula, _sum(prods),
                           _frac(_sum([_int(rows[j] * cols[j]) for j in range(k)]), _int(n * n)),
                           _ratio(int((rows * cols).sum()), n * n), _value(ex.p_e, res.p_e))
    steps.append(_step("Chance agreement P_e", chains=[p_e_chain], brief=brief,
                       intro="The agreement expected if each rater labelled at random with their own proportions.",
                       symbol="P_e", value=res.p_e, exact=ex.p_e))
    steps.append(_coefficient_step("Cohen's kappa", "P_o", ex.p_o, ex.p_e, ex.kappa, res.kappa, res.reason, brief))
    return title, steps


def _coefficient_step(title: str, obs: str, p_o: Fraction, p_e: Fraction, value_exact: Fraction | None,
                      value: float, reason: str | None, brief: bool) -> Step:
    """kappa = (P_o - P_e) / (1 - P_e), shared by Cohen and Fleiss."""
    formula = _frac(_t(f"{obs} - P_e", atom=False), _t("1 - P_e", atom=False))
    put_in = _frac(_big(_q(p_o) + _t(" - ") + _q(p_e)), _big(_t("1 - ") + _q(p_e)))
    if value_exact is None:
        chain = _Chain(_t(r"\kappa", "κ"), formula, put_in,
                       _frac(_q(p_o - p_e), _int(0)), _t(r"\text{undefined}", "undefined"))
        note = (_md_symbols(f"Undefined: {reason}."), f"Undefined: {reason}.") if reason else None
        return _step(title, chains=[chain], note=note, brief=brief, symbol="kappa", value=value)
    chain = _Chain(_t(r"\kappa", "κ"), formula, put_in, _frac(_big(_q(p_o - p_e)), _big(_q(1 - p_e))),
                   _value(value_exact, value))
    band = _band_note(value_exact, "κ")
    band = (band[0].replace("κ", "$\\kappa$"), band[1])
    rounded = (_r3(p_o) - _r3(p_e)) / (1 - _r3(p_e)) if _r3(p_e) != 1 else None
    rnote = _rounding_note(value_exact, rounded, f"{obs} and P_e")
    notes = [band] + ([rnote] if rnote else [])
    note = ("\n\n".join(n[0] for n in notes if n[0]), "\n".join(n[1] for n in notes if n[1]))
    return _step(title, chains=[chain], note=note, brief=brief, symbol="kappa", value=value, exact=value_exact)


# ============================================================= pairwise
def _pairwise_steps(res: PairwiseCohenResult, brief: bool) -> tuple[str, list[Step]]:
    title = f"Cohen's kappa for every pair of raters ({len(res.results)} pairs)"
    steps = []
    for (a, b), r in zip(res.pairs, res.results):
        ex = r.exact
        sym = _M(f"\\kappa_{{{_tex_text(a)}{_tex_text(b)}}}", f"κ_{a}{b}")
        chains = [_Chain(_t("P_o"), _value(ex.p_o, r.p_o)), _Chain(_t("P_e"), _value(ex.p_e, r.p_e))]
        if ex.kappa is None:
            chains.append(_Chain(sym, _t(r"\text{undefined}", "undefined")))
        else:
            chains.append(_Chain(sym, _frac(_big(_q(ex.p_o) + _t(" - ") + _q(ex.p_e)), _big(_t("1 - ") + _q(ex.p_e))),
                                 _value(ex.kappa, r.kappa)))
        dropped = f" ({r.n_items} items rated by both)" if r.n_dropped else ""
        intro = (f"$P_e$ from {_md(a)}'s and {_md(b)}'s own marginals{dropped}.",
                 f"P_e from {a}'s and {b}'s own marginals{dropped}.")
        steps.append(_step(f"{a} vs {b}", intro=intro, chains=chains, brief=brief,
                           symbol="kappa", value=r.kappa, exact=ex.kappa))
    kap = list(res.exact.kappas)
    defined = [(q, p) for q, p in zip(kap, res.pairs) if q is not None]
    mean_sym = _t(r"\bar\kappa", "mean κ")
    if res.exact.mean_kappa is None:
        chain = _Chain(mean_sym, _t(r"\text{undefined (a pair's kappa is undefined)}",
                                    "undefined (a pair's kappa is undefined)"))
    else:
        chain = _Chain(mean_sym, _scaled(_ratio(1, len(kap)), _q_sum(kap)),
                       _value(res.exact.mean_kappa, res.mean_kappa))
    note = None
    if len(defined) >= 2:
        hi = max(defined, key=lambda kp: kp[0])
        lo = min(defined, key=lambda kp: kp[0])
        txt = (f"Highest: {hi[1][0]} vs {hi[1][1]} ({_dec_q(hi[0])}); "
               f"lowest: {lo[1][0]} vs {lo[1][1]} ({_dec_q(lo[0])}).")
        note = (_md(txt), txt)
    steps.append(_step("Mean over pairs (Light's kappa)", chains=[chain], note=note, brief=brief,
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
    intro = ("$n_{ij}$: how many raters put item $i$ in category $j$; $n_i$: the item's ratings"
             + (" (it varies: per-item $k$)." if varying else "."),
             "n_ij: how many raters put item i in category j; n_i: the item's ratings"
             + (" (it varies: per-item k)." if varying else "."))
    table = Table(["item", *lab.names, "n_i"], body)
    if n_items > _MAX_LISTED:
        table = Table(["item", *lab.names, "n_i"], body[-1:])
        intro = (intro[0] + f" ({n_items} items; the totals:)", intro[1] + f" ({n_items} items; the totals:)")
    steps.append(_step("Count table", intro=intro, table=table, brief=brief))

    # P_i, item by item (or pattern by pattern for long tables)
    formula = _Chain(_t("P_i"), _t(r"\frac{\sum_j n_{ij}^2 - n_i}{n_i (n_i - 1)}", "(Σ_j n_ij² - n_i) / (n_i (n_i - 1))",
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
            sym = _M(f"P_{{{_tex_text(names[i]) if not names[i].isdigit() else names[i]}}}", f"P_{names[i]}")
        else:
            shown = _int_list([names[j] for j in idx[:3]]) + (", …" if len(idx) > 3 else "")
            sym = _M(f"P_i\\;(\\text{{items {shown}}})", f"P_i (items {shown})")
        num = _sum([_t(f"{c}^2", f"{c}²") for c in nz]) + _t(f" - {m[i]}")
        chains.append(_Chain(sym, _frac(num, _t(f"{m[i]} \\cdot {m[i] - 1}", f"{m[i]} × {m[i] - 1}")),
                             _ratio(sq - int(m[i]), int(m[i] * (m[i] - 1))), _value(ex.p_i[i], float(res.p_i[i])),
                             inline=True))
    note = None
    if single:
        txt = f"Item(s) {_int_list(single)} have fewer than 2 ratings: no pair to compare, so they are left out of P_a."
        note = (_md(txt), txt)
    steps.append(_step("Agreement on each item P_i", chains=chains, note=note, brief=brief,
                       intro="The share of agreeing ordered pairs of raters on the item."))

    used = [i for i in range(n_items) if m[i] >= 2]
    p_is = [ex.p_i[i] for i in used]
    n_used = len(used)
    sum_pi = sum(p_is, Fraction(0))
    rhs = [_t(r"\frac{1}{N}\sum_i P_i", "Σ P_i / N", False)]
    if n_used <= _MAX_TERMS:
        rhs.append(_scaled(_ratio(1, n_used), _q_sum(p_is)))
    rhs.append(_scaled(_ratio(1, n_used), _grouped(p_is)))
    rhs.append(_over(sum_pi, n_used))
    rhs.append(_value(ex.p_a, res.p_a))
    intro = (f"The mean of $P_i$ over the $N = {n_used}$ items with at least 2 ratings.",
             f"The mean of P_i over the N = {n_used} items with at least 2 ratings.")
    steps.append(_step("Mean observed agreement P_a", intro=intro, chains=[_Chain(_t("P_a"), *rhs)],
                       brief=brief, symbol="P_a", value=res.p_a, exact=ex.p_a))

    chains = []
    if res.chance == "pooled":
        T = int(m.sum())
        chains.append(_Chain(_t("p_j"), _t(r"\frac{\sum_i n_{ij}}{\sum_i n_i}", "Σ_i n_ij / Σ_i n_i", False)))
        for j in range(k):
            chains.append(_Chain(lab.sym("p", j), _ratio(int(total[j]), T), _value(ex.p_j[j], float(res.p_j[j])),
                                 inline=True))
        intro = f"Chance rule: {rule}. Each category's share of all the labels (single-rated items count too)."
    else:
        rated = [i for i in range(n_items) if m[i] > 0]
        n_rated = len(rated)
        chains.append(_Chain(_t("p_j"), _t(r"\frac{1}{N'}\sum_i \frac{n_{ij}}{n_i}", "Σ_i (n_ij / n_i) / N'", False)))
        for j in range(k):
            terms = [Fraction(int(counts[i, j]), int(m[i])) for i in rated if counts[i, j]]
            parts = Counter((int(counts[i, j]), int(m[i])) for i in rated if counts[i, j])
            written = _sum([(_ratio(c, mi) if cnt == 1 else _times(_int(cnt), _ratio(c, mi)))
                            for (c, mi), cnt in sorted(parts.items(), key=lambda x: (-x[0][0] / x[0][1], x[0]))])
            chains.append(_Chain(lab.sym("p", j), _scaled(_ratio(1, n_rated), written),
                                 _over(sum(terms, Fraction(0)), n_rated),
                                 _value(ex.p_j[j], float(res.p_j[j])), inline=True))
        intro = (f"Chance rule: {_md(rule)} ($N'$), so every item weighs the same, however many ratings it has.",
                 f"Chance rule: {rule} (N'), so every item weighs the same, however many ratings it has.")
    steps.append(_step("Category proportions p_j", intro=intro, chains=chains, brief=brief))

    sq_terms = [_t(f"{_q(p).tex if Fraction(p).denominator == 1 else _q(p).paren().tex}^2",
                   f"({_q(p).txt})²") for p in ex.p_j]
    rhs = [_sum([lab.sym("p", j) + _t("^2", "²") for j in range(k)]) if k <= 6
           else _t(r"\sum_j p_j^2", "Σ_j p_j²", False),
           _sum(sq_terms)]
    if res.chance == "pooled":
        T = int(m.sum())
        rhs.append(_frac(_sum([_t(f"{int(c)}^2", f"{int(c)}²") for c in total]), _t(f"{T}^2", f"{T}²")))
        rhs.append(_ratio(int((total ** 2).sum()), T * T))
    else:
        rhs.append(_q_sum([p * p for p in ex.p_j]))
    rhs.append(_value(ex.p_e, res.p_e))
    steps.append(_step("Chance agreement P_e", chains=[_Chain(_t("P_e"), *rhs)], brief=brief,
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
    count_txt = "; ".join(f"{c} unit{'s' if c > 1 else ''} with {s} values" for s, c in parts)
    lonely = int(((m == 1)).sum())
    empty = int((m == 0).sum())
    extra = ""
    if lonely:
        extra += f" {lonely} unit(s) with a single value are not pairable and are left out."
    if empty:
        extra += f" {empty} unit(s) have no value."
    chain = _Chain(_t("n"), _sum([_times(_int(c), _int(s)) if c > 1 else _int(s) for s, c in parts]),
                   _int(int(n_exact)), inline=True)
    steps.append(_step("Pairable values n", intro=(_md(count_txt + "." + extra), count_txt + "." + extra),
                       chains=[chain], brief=brief, symbol="n", value=float(res.n), exact=n_exact))

    pc = np.asarray(res.pair_counts, dtype=np.int64)
    total_pairs = int(pc.sum())
    body = [[lab.names[i], *map(str, pc[i]), str(int(pc[i].sum()))] for i in range(k)]
    body.append(["total", *(str(int(x)) for x in pc.sum(axis=0)), str(total_pairs)])
    pair_formula = " + ".join(f"{c} × {s}·{s - 1}" if c > 1 else f"{s}·{s - 1}" for s, c in parts)
    intro = (f"Every unit with $m_u$ values gives $m_u(m_u - 1)$ ordered pairs of values: "
             f"{_md(pair_formula)} = {total_pairs} pairs, counted here without weights.",
             f"Every unit with m_u values gives m_u (m_u - 1) ordered pairs of values: "
             f"{pair_formula} = {total_pairs} pairs, counted here without weights.")
    steps.append(_step("Ordered pairs within units", intro=intro, table=Table(["", *lab.names, "total"], body),
                       brief=brief))

    o = ex.coincidences
    n_c = ex.n_c
    body = [[lab.names[i], *(_cell(o[i][j]) for j in range(k)), _cell(n_c[i])] for i in range(k)]
    body.append(["total", *(_cell(sum((o[i][j] for i in range(k)), Fraction(0))) for j in range(k)),
                 _cell(n_exact)])
    if len(sizes) == 1:
        (s, _), = parts
        how = f"Every unit here has {s} values, so each pair count is divided by {s - 1}"
    else:
        how = "Each unit's pair counts are divided by its own m_u - 1"
    intro = (r"$o_{ck} = \sum_u \frac{\text{number of } c\text{-}k \text{ pairs in unit } u}{m_u - 1}$: "
             f"{_md_symbols(how)}. Every value then counts once: the matrix sums to $n = {int(n_exact)}$, "
             "and its row totals are $n_c$.",
             f"o_ck = Σ_u (number of c-k pairs in unit u) / (m_u - 1). {how}. Every value then counts once: "
             f"the matrix sums to n = {int(n_exact)}, and its row totals are n_c.")
    steps.append(_step("Coincidence matrix o_ck", intro=intro,
                       table=Table(["", *lab.names, "n_c"], body), brief=brief))

    delta = ex.delta
    if res.level != "nominal":
        if res.level == "ordinal":
            how = (r"$\delta^2_{ck} = \left(\sum_{g=c}^{k} n_g - \frac{n_c + n_k}{2}\right)^2$ over the category order.",
                   "δ²_ck = (Σ_{g=c..k} n_g - (n_c + n_k)/2)² over the category order.")
        elif res.level == "interval":
            how = (r"$\delta^2_{ck} = (c - k)^2$.", "δ²_ck = (c - k)².")
        else:
            how = (r"$\delta^2_{ck} = \left(\frac{c - k}{c + k}\right)^2$.", "δ²_ck = ((c - k) / (c + k))².")
        body = [[lab.names[i], *(_cell(delta[i][j]) for j in range(k))] for i in range(k)]
        steps.append(_step(f"Distances δ² ({res.level})", intro=how, table=Table(["", *lab.names], body),
                           brief=brief))

    # D_o
    off = [(i, j) for i in range(k) for j in range(k) if i != j and o[i][j] and delta[i][j]]
    nominal = res.level == "nominal"
    if nominal:
        formula = _t(r"\frac{1}{n}\sum_{c \ne k} o_{ck}", "Σ_{c≠k} o_ck / n", False)
        terms = [_q(o[i][j]) for i, j in off]
    else:
        formula = _t(r"\frac{1}{n}\sum_{c, k} o_{ck}\,\delta^2_{ck}", "Σ o_ck δ²_ck / n", False)
        terms = [_times(_q(o[i][j]), _q(delta[i][j])) for i, j in off]
    num = sum((o[i][j] * delta[i][j] for i, j in off), Fraction(0))
    rhs = [formula]
    if len(terms) <= _MAX_TERMS:
        rhs.append(_frac(_sum(terms), _int(int(n_exact))))
    rhs += [_over(num, int(n_exact)), _value(ex.d_o, res.d_o)]
    steps.append(_step("Observed disagreement D_o", chains=[_Chain(_t("D_o"), *rhs)], brief=brief,
                       intro="The coincidences off the diagonal, weighted by their distance, per pairable value."
                              if not nominal else "The share of coincidences off the diagonal.",
                       symbol="D_o", value=res.d_o, exact=ex.d_o))

    # D_e
    nn = int(n_exact)
    den = _t(f"{nn} \\cdot {nn - 1}", f"{nn} × {nn - 1}")
    if nominal:
        rhs = [_frac(_t(r"n^2 - \sum_c n_c^2", "n² - Σ n_c²"), _t("n(n - 1)")),
               _frac(_t(f"{nn}^2 - ", f"{nn}² - ")
                     + _sum([_t(f"{_q(c).tex}^2", f"{_q(c).txt}²") for c in n_c]).paren(), den)]
        num = n_exact * n_exact - sum((c * c for c in n_c), Fraction(0))
    else:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if n_c[i] and n_c[j] and delta[i][j]]
        rhs = [_t(r"\frac{1}{n(n - 1)}\sum_{c, k} n_c\, n_k\, \delta^2_{ck}", "Σ n_c n_k δ²_ck / (n (n - 1))", False)]
        if len(pairs) <= _MAX_TERMS:
            rhs.append(_frac(_big(_t("2") + _sum([_times(_q(n_c[i]), _q(n_c[j]), _q(delta[i][j]))
                                                     for i, j in pairs]).paren()), den))
        num = 2 * sum((n_c[i] * n_c[j] * delta[i][j] for i, j in pairs), Fraction(0))
    rhs += [_over(num, nn * (nn - 1)), _value(ex.d_e, res.d_e)]
    steps.append(_step("Expected disagreement D_e", chains=[_Chain(_t("D_e"), *rhs)], brief=brief,
                       intro="The disagreement expected between two values drawn without replacement "
                             "from all n pairable values.",
                       symbol="D_e", value=res.d_e, exact=ex.d_e))

    # alpha
    sym = _t(r"\alpha", "α")
    formula = _t(r"1 - \frac{D_o}{D_e}", "1 - D_o / D_e", False)
    if ex.alpha is None:
        chain = _Chain(sym, formula, _t(r"\text{undefined}", "undefined"))
        note = (_md_symbols(f"Undefined: {res.reason}."), f"Undefined: {res.reason}.") if res.reason else None
        steps.append(_step("Krippendorff's alpha", chains=[chain], note=note, brief=brief,
                           symbol="alpha", value=res.alpha))
        return title, steps
    chain = _Chain(sym, formula, _t("1 - ") + _frac(_big(_q(ex.d_o)), _big(_q(ex.d_e))), _t("1 - ") + _q(ex.d_o / ex.d_e),
                   _value(ex.alpha, res.alpha))
    band = _band_note(ex.alpha, "α")
    band = (band[0].replace("α", r"$\alpha$"), band[1])
    rounded = 1 - _r3(ex.d_o) / _r3(ex.d_e) if _r3(ex.d_e) else None
    rnote = _rounding_note(ex.alpha, rounded, "D_o and D_e")
    notes = [band] + ([rnote] if rnote else [])
    note = ("\n\n".join(x[0] for x in notes if x[0]), "\n".join(x[1] for x in notes if x[1]))
    steps.append(_step("Krippendorff's alpha", chains=[chain], note=note, brief=brief,
                       symbol="alpha", value=res.alpha, exact=ex.alpha))
    return title, steps


# ============================================================= bootstrap
_METRIC_NAMES = {"cohen_kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss' kappa",
                 "krippendorff_alpha": "Krippendorff's alpha"}


def _bootstrap_steps(res: BootstrapResult, brief: bool) -> tuple[str, list[Step]]:
    name = _METRIC_NAMES.get(res.metric, res.metric)
    title = f"Bootstrap interval for {name} ({res.confidence:.0%})"
    used = res.n_boot - res.n_undefined
    intro = (f"Draw the items with replacement, as many as the data has, and recompute {name}: "
             f"{res.n_boot} times.",
             f"Draw the items with replacement, as many as the data has, and recompute {name}: {res.n_boot} times.")
    note_txt = (f"{res.n_undefined} replicate(s) were undefined (every rating in one category) and are left out; "
                f"{used} remain." if res.n_undefined else f"All {used} replicates are defined.")
    steps = [_step("Resample the items", intro=intro, note=(_md(note_txt), note_txt), brief=brief)]
    tail = (1 - res.confidence) / 2 * 100
    lo_q, hi_q = f"{tail:g}", f"{100 - tail:g}"
    chains = [_Chain(_t(r"\text{estimate}", "estimate"), _t(_dec(res.estimate))),
              _Chain(_t(r"\text{low}", "low"), _t(f"{lo_q}\\text{{th percentile}}", f"{lo_q}th percentile"),
                     _t(_dec(res.low)), inline=True),
              _Chain(_t(r"\text{high}", "high"), _t(f"{hi_q}\\text{{th percentile}}", f"{hi_q}th percentile"),
                     _t(_dec(res.high)), inline=True)]
    txt = f"{res.confidence:.0%} interval: [{_dec(res.low)}, {_dec(res.high)}] around {_dec(res.estimate)}."
    steps.append(_step("Percentile interval", chains=chains, note=(_md(txt), txt), brief=brief,
                       symbol="interval", value=res.estimate))
    return title, steps


# ================================================================= entry
def explain(result: Any, style: str = "full", items: Sequence[Any] | None = None) -> Explanation:
    """The worked solution of a result object, step by step.

    Parameters
    ----------
    result : CohenResult, PairwiseCohenResult, FleissResult, AlphaResult or BootstrapResult
        What a metric function returned.
    style : {"full", "brief"}
        ``"full"``: each step with its table, formula, the numbers put in, the
        exact fraction and its 3-decimal value. ``"brief"``: only each step's
        result line.
    items : sequence, optional
        Item names for the Fleiss table (default 1, 2, ...).

    Returns
    -------
    Explanation
        ``.steps`` (each a :class:`Step` with ``title``, ``markdown``,
        ``text``), ``.markdown()``, ``.text()``; displays as Markdown.

    Examples
    --------
    >>> import iaa_teach
    >>> from iaa_teach import cohen_kappa, datasets
    >>> ex = iaa_teach.explain(cohen_kappa(datasets.sentiment(), "A", "B"))
    >>> [step.title for step in ex.steps]
    ['Agreement table', 'Observed agreement P_o', 'Marginals', 'Chance agreement P_e', "Cohen's kappa"]
    >>> step = ex["Cohen's kappa"]
    >>> print(step.exact, round(step.value, 3))
    29/59 0.492
    >>> print(step.text.splitlines()[-2])
      = 29/59 ≈ 0.492
    """
    if style not in STYLES:
        raise ValueError(f"style must be one of {list(STYLES)}, got {style!r}")
    brief = style == "brief"
    if isinstance(result, CohenResult):
        title, steps = _cohen_steps(result, brief)
    elif isinstance(result, PairwiseCohenResult):
        title, steps = _pairwise_steps(result, brief)
    elif isinstance(result, FleissResult):
        title, steps = _fleiss_steps(result, brief, items)
    elif isinstance(result, AlphaResult):
        title, steps = _alpha_steps(result, brief)
    elif isinstance(result, BootstrapResult):
        title, steps = _bootstrap_steps(result, brief)
    else:
        raise TypeError(
            f"explain() takes a result of cohen_kappa, pairwise_cohen, fleiss_kappa, krippendorff_alpha "
            f"or bootstrap_ci, got {type(result).__name__}")
    return Explanation(title, _nonempty(steps) if brief else steps, result)


def ratings_table(ratings: Any, caption: str | None = None) -> Table:
    """The ratings as a table, one row per item, ``–`` where a rating is missing.

    >>> from iaa_teach import datasets
    >>> print(ratings_table(datasets.sentiment_missing()).text().splitlines()[3])
    3     N  –  N
    """
    r = as_ratings(ratings)
    rows = [[str(item), *(_MISSING if v is None else str(v) for v in row)]
            for item, row in zip(r.items, r.rows())]
    return Table(["item", *map(str, r.raters)], rows, caption)
