"""Words for lessons: formulas, paragraphs and tables written once, shown as text, Markdown or HTML.

- :class:`Math`: a formula in LaTeX and in plain text (``\\frac{7}{10}`` and ``7/10``);
- :class:`Prose`: a paragraph of plain text and formulas, usually made by :func:`prose`
  from a template, where ``{P_o}`` names a symbol of the course's notation and ``{a}`` a
  value given by keyword (values are text, escaped for each output, never templates);
- :func:`with_symbols`: a template's symbols as LaTeX, for a Markdown cell;
- :class:`Table`: a small table with a header row and, usually, a header column.

>>> p = prose("{P_o} for {a}", a="x_1")
>>> p.text(), p.markdown(), p.html()
('P_o for x_1', '$P_o$ for x\\\\_1', '$P_o$ for x_1')

The pieces the package builds these from (escaping for each output, MathML, chains of
equations) are internal (``iaa_teach._markup``); the names that were public here before
still import for one release, with a warning (CHANGELOG.md).
"""

from . import _markup
from ._markup import Math, Prose, Table, prose, with_symbols
from ._moved import forward_names

__all__ = ["Math", "Prose", "Table", "prose", "with_symbols"]

__getattr__ = forward_names(__name__, dict.fromkeys(set(_markup.__all__) - set(__all__), _markup.__name__))
