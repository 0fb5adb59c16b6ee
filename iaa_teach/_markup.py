"""The text model of worked solutions and exercises: written once, shown three ways.

Words are built from a few pieces:

- :class:`Math`: a formula in LaTeX and in plain text (``\\frac{7}{10}`` and ``7/10``);
- :class:`Prose`: a paragraph: plain text, formulas and :class:`Em` (emphasis),
  usually made by :func:`prose` from a template;
- :class:`Table`: a small table with a header row and, usually, a header column;
- :class:`Equations`: :class:`Chain` s ``lhs = rhs_1 = rhs_2 = ...`` aligned on ``=``.

Each renders as plain text (``"text"``), Markdown with LaTeX (``"markdown"``) and
HTML (``"html"``), where the maths is left as ``$...$`` / ``$$...$$`` for
MathJax (``HTMLMath``, JupyterLab); with ``math="mathml"`` typeset as MathML
(:func:`tex_mathml`), which a browser renders with no script or network, for a
printed page (there a symbol's name written in plain text, ``P_e``, and a
fraction alone in a table cell, ``16/3``, are typeset too); or, with ``math="text"``,
written in plain text with HTML subscripts. :func:`render` joins blocks of any of these kinds.

In a template, ``{P_o}`` names a symbol (:data:`SYMBOLS`) and ``{a}`` a value
given by keyword. Values are never read as templates: a rater name or a label
is text, escaped for each output (Markdown, HTML, ``\\text{}`` inside LaTeX);
:func:`attr_escape` escapes text for an HTML attribute.

>>> p = prose("{P_o} for {a}", a="x_1")
>>> p.text(), p.markdown(), p.html()
('P_o for x_1', '$P_o$ for x\\\\_1', '$P_o$ for x_1')
>>> p.html(math="text")
'P<sub>o</sub> for x_1'
>>> p.html(math="mathml")
'<math><msub><mi>P</mi><mi>o</mi></msub></math> for x_1'
"""

from __future__ import annotations

import html
import re
import string
import textwrap
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Sequence

from ._validation import check_option
from .rounding import fmt

__all__ = [
    "FORMS",
    "MATH_MODES",
    "NOTATION",
    "Notation",
    "SYMBOLS",
    "Shown",
    "Math",
    "Em",
    "Link",
    "Prose",
    "Table",
    "Chain",
    "Equations",
    "prose",
    "with_symbols",
    "render",
    "number",
    "approx",
    "md_escape",
    "html_escape",
    "attr_escape",
    "tex_text",
    "tex_mathml",
    "mpl_escape",
    "terminal_escape",
]

#: The three outputs, and how maths is written in HTML: LaTeX for MathJax, plain text, or MathML.
FORMS = ("text", "markdown", "html")
MATH_MODES = ("tex", "text", "mathml")

_SEPARATORS = {"text": "\n", "markdown": "\n\n", "html": ""}


# =============================================================== escaping
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def md_escape(s: Any) -> str:
    """Text for Markdown prose and table cells, its special characters escaped.

    Line breaks become spaces, so a label can neither end a table row nor
    start a new block.

    >>> md_escape("a|b\\n# c")
    'a\\\\|b \\\\# c'
    """
    return re.sub(r"([\\`*_\[\]<>|#$~])", r"\\\1", _LINE_BREAKS.sub(" ", str(s)))


def margin_name(labels: Iterable[Any]) -> str:
    """What a table's margins (its row and column of totals) are called: "total", unless one of its
    ``labels`` (a category, an item) is called so, letter case and spaces aside; then "sum", then "Σ":
    the totals are never taken for a category's row.

    >>> margin_name(["yes", "no"]), margin_name(["Total", "partial"]), margin_name(["total", "SUM"])
    ('total', 'sum', 'Σ')
    """
    taken = {" ".join(str(label).split()).casefold() for label in labels}
    names = ["total", "sum", *("Σ" + "'" * n for n in range(len(taken) + 1))]
    return next(name for name in names if name.casefold() not in taken)


def html_escape(s: Any, math: str = "tex") -> str:
    """Text for HTML; with ``math="tex"`` a ``$`` or ``\\`` is kept from starting maths for MathJax.

    MathJax looks for ``$...$``, ``\\(...\\)`` and ``\\begin{...}`` in the
    page's text; a ``<span>`` around each ``$`` and ``\\`` of user text splits
    any such delimiter.

    >>> html_escape("<b>$x$</b>")
    '&lt;b&gt;<span>$</span>x<span>$</span>&lt;/b&gt;'
    """
    out = html.escape(str(s), quote=False)
    if math != "text":  # MathML pages too: they may be shown where MathJax runs
        out = out.replace("$", "<span>$</span>").replace("\\", "<span>\\</span>")
    return out


def attr_escape(s: Any) -> str:
    """Text for an HTML attribute's value: ``&``, ``<``, ``>`` and both quotes escaped (fine in text too).

    >>> attr_escape('"Tom & Jerry\\'s" <b>')
    '&quot;Tom &amp; Jerry&#x27;s&quot; &lt;b&gt;'
    """
    return html.escape(str(s), quote=True)


def tex_text(s: Any) -> str:
    """A label inside ``\\text{...}``, with LaTeX's special characters escaped (line breaks: spaces).

    ``<`` and ``>`` leave the text for MathJax's ``\\lt`` and ``\\gt``, so that
    no HTML tag can appear in a page's maths, however it is rendered.

    >>> tex_text("a_b<c>")
    '\\\\text{a\\\\_b}\\\\lt\\\\text{c}\\\\gt\\\\text{}'
    """
    specials = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "<": r"}\lt\text{", ">": r"}\gt\text{"}
    body = "".join(
        specials.get(ch, "\\" + ch if ch in "{}_^#$%&" else ch) for ch in _LINE_BREAKS.sub(" ", str(s))
    )
    return r"\text{" + body + "}"


def mpl_escape(s: Any) -> str:
    """Text for a matplotlib label: a ``$`` is written ``\\$``, so it never starts mathtext.

    >>> print(mpl_escape(r"$\\frac{$"))
    \\$\\frac{\\$
    """
    return str(s).replace("$", r"\$")


def terminal_escape(s: Any) -> str:
    """Text for a terminal: control characters (ANSI escapes, line breaks, bidirectional
    overrides...) written as ``\\x1b``-style escapes, so user text cannot move the cursor,
    colour the screen or break a line.

    >>> terminal_escape("A\\x1b[31mred\\nB")
    'A\\\\x1b[31mred\\\\nB'
    """
    out = str(s)
    if out.isprintable():
        return out
    return "".join(
        ch if ch.isprintable() else repr(ch)[1:-1] for ch in out
    )  # repr escapes what is not printable


_SUBSCRIPT = re.compile(
    r"_(\{[^}]*\}|[\w+']+)"
)  # in a formula's plain-text form, P_o is P<sub>o</sub> in HTML


# ================================================================ MathML
# \text{...} as tex_text writes it: its escapes, no nested braces.
_TEX_TEXT = re.compile(r"\\text\{((?:\\textbackslash\{\}|\\textasciitilde\{\}|\\[{}_^#$%&]|[^\\{}])*)\}")
_TEX_TEXT_ESCAPE = re.compile(r"\\textbackslash\{\}|\\textasciitilde\{\}|\\([{}_^#$%&])")
_MATHML_ROOT = re.compile(
    r'^<math xmlns="http://www.w3.org/1998/Math/MathML" display="(?:inline|block)">'
    r"(?:<mrow>)?(.*?)(?:</mrow>)?</math>$",
    re.S,
)


def tex_mathml(tex: str, display: bool = False) -> str:
    """A LaTeX formula as a MathML ``<math>`` element (MathML Core, which browsers typeset natively).

    The conversion is latex2mathml's, in Python: the page needs no script,
    font download or network to show the maths, so it prints offline.
    ``display=True`` sets fractions at full size (``displaystyle``). Text in
    ``\\text{}`` (as :func:`tex_text` writes it) is escaped for HTML.

    >>> tex_mathml(r"\\frac{7}{10}")
    '<math><mfrac><mrow><mn>7</mn></mrow><mrow><mn>10</mn></mrow></mfrac></math>'
    >>> tex_mathml(tex_text("a_b & <c"))
    '<math><mtext>a_b&#xa0;&amp;&#xa0;</mtext><mo>&#x0003C;</mo><mtext>c</mtext></math>'
    """
    from latex2mathml.converter import convert

    # latex2mathml keeps the escapes of \text{a\_b} and does not escape & in text, so each \text{} goes
    # through as a placeholder and its own text, unescaped from LaTeX and escaped for HTML, is put back after.
    texts: list[str] = []

    def hold(m: re.Match) -> str:
        plain = _TEX_TEXT_ESCAPE.sub(
            lambda e: e.group(1) or ("\\" if "backslash" in e.group(0) else "~"), m.group(1)
        )
        texts.append(html.escape(plain, quote=False).replace(" ", "&#xa0;"))  # MathML trims plain spaces
        return f"\\text{{IAATEXT{len(texts) - 1}Z}}"

    out = convert(_TEX_TEXT.sub(hold, tex))
    for i, text in enumerate(texts):
        out = out.replace(f"<mtext>IAATEXT{i}Z</mtext>", f"<mtext>{text}</mtext>")
    inner = _MATHML_ROOT.match(out)  # the content of latex2mathml's own <math> element
    style = ' displaystyle="true"' if display else ""
    return f"<math{style}>{inner.group(1) if inner else out}</math>"


# ================================================================= pieces
class Shown:
    """Mixin: ``text()``, ``markdown()`` and ``html(math=...)`` from one ``render(form, math)``."""

    def text(self) -> str:
        return self.render("text")

    def markdown(self) -> str:
        return self.render("markdown")

    def html(self, math: str = "tex") -> str:
        """HTML with the maths as ``$...$`` for MathJax, ``math="mathml"`` typeset, ``math="text"`` plain."""
        return self.render("html", math)


class Math:
    """A formula written twice: LaTeX (``tex``) and plain text (``txt``).

    ``atom`` says whether the text form can stand as a factor or operand
    without parentheses.
    """

    __slots__ = ("tex", "txt", "atom")

    def __init__(self, tex: str, txt: str | None = None, atom: bool = True):
        self.tex = tex
        self.txt = tex if txt is None else txt
        self.atom = atom

    def __add__(self, other: "Math | str") -> "Math":
        other = Math(other) if isinstance(other, str) else other
        return Math(self.tex + other.tex, self.txt + other.txt, atom=False)

    def paren(self) -> "Math":
        return Math(r"\left(" + self.tex + r"\right)", "(" + self.txt + ")")

    def text_operand(self) -> str:
        return self.txt if self.atom else "(" + self.txt + ")"

    def render(self, form: str, math: str = "tex") -> str:
        if form == "text":
            return self.txt
        if form == "html":
            if math == "mathml":
                return tex_mathml(self.tex)
            if math == "text":
                return _SUBSCRIPT.sub(
                    lambda m: f"<sub>{m.group(1).strip('{}')}</sub>", html.escape(self.txt, quote=False)
                )
            return "$" + html.escape(self.tex, quote=False) + "$"
        return "$" + _tex_without_pipes(self.tex) + "$"


class Em:
    """Emphasis: ``*x*`` in Markdown, ``<i>`` in HTML; ``strong=True``: ``**x**``, ``<b>``."""

    __slots__ = ("content", "strong")

    def __init__(self, content: Any, strong: bool = False):
        self.content = content
        self.strong = strong

    def render(self, form: str, math: str = "tex") -> str:
        inner = _piece(self.content, form, math)
        tag, mark = ("b", "**") if self.strong else ("i", "*")
        return {"text": inner, "html": f"<{tag}>{inner}</{tag}>"}.get(form, f"{mark}{inner}{mark}")


class Link:
    """A link: ``[text](target)`` in Markdown, ``<a href>`` in HTML, ``text (target)`` in plain text."""

    __slots__ = ("content", "target")

    def __init__(self, content: Any, target: str):
        self.content = content
        self.target = target

    def render(self, form: str, math: str = "tex") -> str:
        inner = _piece(self.content, form, math)
        if form == "text":
            return f"{inner} ({self.target})"
        if form == "html":
            return f'<a href="{attr_escape(self.target)}">{inner}</a>'
        return f"[{inner}]({self.target.replace(' ', '%20').replace(')', '%29')})"


def _piece(p: Any, form: str, math: str) -> str:
    if isinstance(p, (Math, Em, Prose, Link)):
        return p.render(form, math)
    if form == "text":
        return str(p)
    if (
        form == "html" and math == "mathml" and "_" in str(p)
    ):  # on a typeset page, symbol names (P_e) as maths
        return "".join(
            SYMBOLS[x].render("html", "mathml") if i % 2 else html_escape(x, "mathml")
            for i, x in enumerate(_NAMED.split(str(p)))
        )
    return md_escape(p) if form == "markdown" else html_escape(p, math)


class Prose(Shown):
    """A paragraph: text (escaped in every output), :class:`Math` and :class:`Em` pieces."""

    __slots__ = ("pieces",)

    def __init__(self, *pieces: Any):
        self.pieces = tuple(p for p in pieces if p is not None and p != "")

    def __add__(self, other: Any) -> "Prose":
        return Prose(*self.pieces, *(other.pieces if isinstance(other, Prose) else (other,)))

    def __bool__(self) -> bool:
        return bool(self.pieces)

    def render(self, form: str, math: str = "tex") -> str:
        return "".join(_piece(p, form, math) for p in self.pieces)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Prose({self.text()!r})"


# ============================================================== symbols
class Notation:
    """One row of the course's notation table: a symbol, what it means, and how sources write it.

    ``key`` is the name a template uses (``{n_i}``); ``symbol`` the :class:`Math`;
    ``meaning`` plain words; ``elsewhere`` how a source text writes the same
    quantity, said once (empty if every source agrees); ``lesson`` the lesson
    that introduces it.
    """

    __slots__ = ("key", "symbol", "meaning", "elsewhere", "lesson")

    def __init__(self, key: str, symbol: Math, meaning: str, elsewhere: str = "", lesson: str = ""):
        self.key, self.symbol, self.meaning, self.elsewhere, self.lesson = (
            key,
            symbol,
            meaning,
            elsewhere,
            lesson,
        )

    def __repr__(self) -> str:
        return f"Notation({self.key!r}: {self.symbol.txt} = {self.meaning})"


#: The course's notation: one symbol per quantity, used by every lesson and by
#: :func:`iaa_teach.explain`, read from ``content/notation.toml`` (a lecturer edits it there).
#: Where a source text writes the same quantity another way, ``elsewhere`` says so once.
#: Index letters: ``i`` an item, ``j`` and ``k`` categories (``c`` and ``k`` in Krippendorff's formulas).
NOTATION: tuple[Notation, ...] = tuple(
    Notation(
        row["key"], Math(row["tex"], row.get("text")), row["meaning"], row.get("elsewhere", ""), row["lesson"]
    )
    for row in tomllib.loads((Path(__file__).parent / "content" / "notation.toml").read_text("utf-8"))[
        "symbol"
    ]
)


#: The formula symbols a template can name: ``{P_o}``, ``{kappa}``, ``{sum_n_i}``...
#: (every symbol of :data:`NOTATION`, plus a few composites).
SYMBOLS: dict[str, Math] = {
    **{row.key: row.symbol for row in NOTATION},
    "p_+j": Math("p_{+j}", "p_+j"),
    "n_jj": Math("n_{jj}", "n_jj"),
    "p_Aj": Math("p_{Aj}", "p_Aj"),
    "p_Bj": Math("p_{Bj}", "p_Bj"),
    "P_a,i": Math("P_{a,i}", "P_a,i"),
    "n_uc": Math("n_{uc}", "n_uc"),
    "P_P": Math("P_P"),
    "P_N": Math("P_N"),
    "P_G": Math("P_G"),
    "sum_n_i": Math(r"\sum_i n_i", "Σ_i n_i"),
    # Krippendorff's own name for n_i, typeset where the notation table says what a source writes
    "m_u": Math("m_u"),
}


def prose(template: str, **values: Any) -> Prose:
    """A :class:`Prose` from a template: ``{name}`` is ``values[name]`` if given, else ``SYMBOLS[name]``.

    A value may be text (or a number), a :class:`Math`, an :class:`Em` or a
    :class:`Prose`; text is escaped for each output, never read as markup.
    """
    pieces: list[Any] = []
    for literal, field, _, _ in string.Formatter().parse(template):
        pieces.append(literal)
        if field is not None:
            pieces.append(values[field] if field in values else SYMBOLS[field])
    return Prose(*pieces)


_NAMED = re.compile(
    r"(?<![\w$])("
    + "|".join(
        re.escape(n) for n in sorted(SYMBOLS, key=len, reverse=True) if "_" in n and n == SYMBOLS[n].txt
    )
    + r")(?![\w$])"
)


def with_symbols(text: str) -> Prose:
    """A sentence the package wrote (a metric's ``reason``), its symbol names (``P_e``) as maths."""
    parts = _NAMED.split(text)
    return Prose(*(SYMBOLS[p] if i % 2 else p for i, p in enumerate(parts)))


# ================================================================ numbers
def number(q: Fraction | int) -> Math:
    """An exact number: an integer or a fraction (not reduced further than it is)."""
    q = Fraction(q)
    if q.denominator == 1:
        return Math(str(q.numerator), atom=q >= 0)
    sign = "-" if q < 0 else ""
    a, b = abs(q.numerator), q.denominator
    return Math(f"{sign}\\frac{{{a}}}{{{b}}}", f"{sign}{a}/{b}", atom=q >= 0)


def approx(exact: Fraction | int | None, places: int = 3) -> Math:
    """``29/59 ≈ 0.492`` (``=`` when the decimal is exact, the integer alone if whole; None: undefined)."""
    if exact is None:
        return Math(r"\text{undefined}", "undefined")
    exact = Fraction(exact)
    if exact.denominator == 1:
        return number(exact)
    shown = fmt(exact, places)
    tex_eq, txt_eq = ("=", "=") if Fraction(shown) == exact else (r"\approx", "≈")
    q = number(exact)
    return Math(f"{q.tex} {tex_eq} {shown}", f"{q.txt} {txt_eq} {shown}", atom=False)


# ================================================================= tables
class Table(Shown):
    """A small table: a header row, and the first column as row headers unless told otherwise.

    Row headers are the column that names each row (an item, a category, a quantity): in HTML
    ``<th scope="row">`` (the column headings are ``<th scope="col">``), so a screen reader
    announces them; in Markdown, which has no row headers, bold (the book, ``tools/book.py``,
    makes a first column that is bold in every row row headers). ``bold_first_column=False``
    for a table whose first column is a value like the others.

    Cells are text (labels, numbers), escaped for each output, or pieces
    (:class:`Prose`, :class:`Math`, :class:`Em`, :class:`Link`) rendered in
    each output. Prints as aligned text and displays as Markdown in a notebook.
    ``wrap`` (plain text only) maps a column's index to a width: a longer cell
    goes on over lines under its column, left-aligned, so a long sentence does
    not widen every line of the table.
    """

    def __init__(
        self,
        header: Sequence[Any],
        rows: Sequence[Sequence[Any]],
        caption: str | None = None,
        bold_first_column: bool = True,
        align: str | None = None,
        wrap: dict[int, int] | None = None,
    ):
        self.header = [_cell_value(h) for h in header]
        self.rows = [[_cell_value(c) for c in row] for row in rows]
        self.caption = caption
        self.bold_first_column = bold_first_column
        #: one letter per column, "l" or "r" (Markdown); default: first column left, the others right
        self.align = align or "l" + "r" * (len(self.header) - 1)
        #: plain text only: column index -> width; a longer cell goes on over lines under its column
        self.wrap = dict(wrap or {})

    def render(self, form: str, math: str = "tex") -> str:
        body = {"text": self._text, "markdown": self._markdown, "html": self._html}[form](math)
        if not self.caption or form == "html":
            return body
        return f"{self.caption}\n{body}" if form == "text" else f"{md_escape(self.caption)}\n\n{body}"

    def _text(self, math: str) -> str:
        cells = [
            [
                textwrap.wrap(text, self.wrap[i], break_on_hyphens=False) or [""]
                if i in self.wrap
                else [text]
                for i, text in enumerate(_piece(c, "text", math) for c in r)
            ]
            for r in [self.header, *self.rows]
        ]
        widths = [max(len(line) for r in cells for line in r[i]) for i in range(len(self.header))]

        def line(r: Sequence[str]) -> str:
            return "  ".join(
                c.ljust(w) if i == 0 or i in self.wrap else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths))
            ).rstrip()

        def lines(r: list[list[str]]) -> list[str]:  # a wrapped cell's lines under its column
            return [line([col[k] if k < len(col) else "" for col in r]) for k in range(max(map(len, r)))]

        return "\n".join(text for r in cells for text in lines(r))

    def _markdown(self, math: str) -> str:
        def cell(c: Any, first: bool) -> str:
            s = _bare_pipes_escaped(_piece(c, "markdown", math)) or " "
            return f"**{s}**" if first and self.bold_first_column and s.strip() else s

        lines = [
            "| " + " | ".join(cell(h, False) for h in self.header) + " |",
            "|" + "|".join(":---" if a == "l" else "---:" for a in self.align) + "|",
        ]
        lines += ["| " + " | ".join(cell(c, i == 0) for i, c in enumerate(row)) + " |" for row in self.rows]
        return "\n".join(lines)

    def _html(self, math: str) -> str:
        def cell(c: Any, head: bool, scope: str) -> str:
            tag = "th" if head else "td"
            if math == "mathml" and isinstance(c, str) and _FRACTION_CELL.fullmatch(c):  # typeset, as written
                a, b = c.split("/")
                c = Math(("-" if a.startswith("-") else "") + f"\\frac{{{a.lstrip('-')}}}{{{b}}}", c)
            return f"<{tag}{scope if head else ''}>{_piece(c, 'html', math)}</{tag}>"

        caption = f"<caption>{html_escape(self.caption, math)}</caption>" if self.caption else ""
        head = "".join(cell(h, True, ' scope="col"') for h in self.header)
        rows = "".join(
            "<tr>"
            + "".join(
                cell(c, i == 0 and self.bold_first_column, ' scope="row"' if i == 0 else "")
                for i, c in enumerate(row)
            )
            + "</tr>"
            for row in self.rows
        )
        return (
            f'<table class="iaa-table">{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        )

    def _repr_markdown_(self) -> str:
        return self.markdown() + "\n"

    def __repr__(self) -> str:
        return self.text()


_FRACTION_CELL = re.compile(r"-?\d+/\d+")
# a "|" after an even number of backslashes (none, or escaped backslashes): it would end a table cell
_BARE_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")
# in LaTeX: "|" or "\|" (after any escaped backslashes)
_TEX_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)(\\?)\|")


def _bare_pipes_escaped(md: str) -> str:
    r"""Markdown for a table cell: every "|" that would end the cell escaped, once (``\|`` stays).

    >>> print(_bare_pipes_escaped(r"a|b, a\|b, a\\|b"))
    a\|b, a\|b, a\\\|b
    """
    return _BARE_PIPE.sub(lambda m: m.group(1) + "\\|", md)


def _tex_without_pipes(tex: str) -> str:
    r"""LaTeX with ``|`` written ``\vert`` and ``\|`` written ``\Vert``: the same symbols, and no
    pipe that a Markdown table would take for the end of a cell.

    >>> print(_tex_without_pipes(r"1 - |j - k| / \|x\|."))
    1 - \vert j - k\vert  / \Vert x\Vert .
    """
    return _TEX_PIPE.sub(lambda m: m.group(1) + ("\\Vert " if m.group(2) else "\\vert "), tex)


def _cell_value(c: Any) -> Any:
    """A table cell: a piece stays a piece, anything else becomes its text."""
    return c if isinstance(c, (Math, Em, Prose, Link)) else str(c)


# ============================================================== equations
class Chain:
    """``lhs = rhs_1 = rhs_2 = ...``: one ``=`` per line, or all on one line if ``inline``.

    A right-hand side that the next one repeats (``7/10`` before
    ``7/10 = 0.700``) is dropped; None entries are skipped.
    """

    def __init__(self, lhs: Math, *rhs: Math | None, inline: bool = False):
        self.lhs = lhs
        rhs = [r for r in rhs if r is not None]
        self.rhs = [
            r
            for r, nxt in zip(rhs, rhs[1:] + [None])
            if nxt is None or not (nxt.tex == r.tex or nxt.tex.startswith(r.tex + " "))
        ]
        self.inline = inline


class Equations:
    """Chains of equations aligned on their ``=``; ``brief`` keeps only each chain's last value."""

    def __init__(self, chains: Iterable[Chain], brief: bool = False):
        self.chains = list(chains)
        self.brief = brief

    def __bool__(self) -> bool:
        return bool(self.chains)

    def render(self, form: str, math: str = "tex") -> str:
        rows = []  # (lhs, one right-hand side, whether it is the chain's first line)
        for chain in self.chains:
            rhs = chain.rhs[-1:] if self.brief else chain.rhs
            if chain.inline and len(rhs) > 1:
                rhs = [Math(" = ".join(r.tex for r in rhs), " = ".join(r.txt for r in rhs))]
            rows += [(chain.lhs, r, i == 0) for i, r in enumerate(rhs)]
        if form == "text" or (form == "html" and math == "text"):
            text = "\n".join(
                f"{lhs.txt if first else ' ' * len(lhs.txt)} = {r.txt}" for lhs, r, first in rows
            )
            return text if form == "text" else f"<pre>{html.escape(text, quote=False)}</pre>"
        if form == "html" and math == "mathml":  # one row per "=", aligned on it, fractions full size
            trs = "".join(
                f'<tr><td class="iaa-lhs">{tex_mathml(lhs.tex, True) if first else ""}</td>'
                f'<td class="iaa-rhs">{tex_mathml("= " + r.tex, True)}</td></tr>'
                for lhs, r, first in rows
            )
            return f'<table class="iaa-equations">{trs}</table>'
        tex = " \\\\\n".join(f"{lhs.tex if first else ''} &= {r.tex}" for lhs, r, first in rows)
        tex = "$$\n\\begin{aligned}\n" + tex + "\n\\end{aligned}\n$$"
        return tex if form == "markdown" else f'<div class="iaa-math">{html.escape(tex, quote=False)}</div>'


# ================================================================= blocks
def render(blocks: Iterable[Any], form: str, math: str = "tex", sep: str | None = None) -> str:
    """Blocks (:class:`Prose` paragraphs, :class:`Table`, :class:`Equations`) in one output.

    Empty blocks are left out. Text joins them line by line, Markdown with a
    blank line between, HTML one after the other (each paragraph a ``<p>``).
    """
    check_option("form", form, FORMS)
    check_option("math", math, MATH_MODES)
    out = [
        f"<p>{block.render(form, math)}</p>"
        if form == "html" and isinstance(block, Prose)
        else block.render(form, math)
        for block in blocks
        if block
    ]
    return (_SEPARATORS[form] if sep is None else sep).join(out)
