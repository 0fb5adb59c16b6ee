"""Sphinx configuration of the static book (``make book``; the pages come from tools/book.py).

Everything the pages need is inside build/book/: MathJax from sphinx-mathjax-offline,
the theme's own fonts and scripts, the figures. Nothing is fetched from the network,
neither while building nor while reading.
"""

import re
from importlib.metadata import metadata

# the project's own metadata (pyproject.toml, as installed): the package's name, version and description
_INSTALLED = metadata("iaa-teach")
_META = {"name": _INSTALLED["Name"], "version": _INSTALLED["Version"], "description": _INSTALLED["Summary"]}

project = "Inter-annotator agreement: a course"
author = _META["name"]
version = release = _META["version"]
language = "en"
html_show_copyright = False  # the project states no copyright holder or licence: the footer claims none

extensions = [
    "myst_nb",  # notebooks as pages, from their stored outputs
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax (its module name has dashes)
    "sphinx.ext.githubpages",  # writes .nojekyll: GitHub Pages then serves _static/ and _images/ as they are
    "sphinx_copybutton",  # a copy button on each cell's code
    "sphinx.ext.autodoc",  # the API reference: each public name's docstring (tools/book.py writes the pages)
    "sphinx.ext.autosummary",  # ... under a table of the names of its topic
    "sphinx.ext.napoleon",  # the docstrings' "Parameters / Returns" sections (NumPy's layout)
]
autosummary_generate = False  # the summary tables link to the entries on the same page: no page per name
autodoc_typehints = (
    "none"  # the docstrings say the types (their Parameters); signatures short enough for a phone
)
autodoc_member_order = "bysource"
napoleon_google_docstring = False
napoleon_use_param = False  # "Parameters" as one list with the types as written (no links to numpy's docs)
napoleon_use_rtype = False
napoleon_use_ivar = True
# A docstring's reference to a name that is not on the API pages (an internal helper, numpy's ndarray, a type
# written in words: "array, shape (k, k)") is shown as code, not an error: the build's -n stays for the pages'
# own links (lessons, guide), and tests/test_book_api.py checks every public name is on the API pages.
nitpick_ignore_regex = [(r"py:.*", r".*")]
suppress_warnings = ["ref.python"]  # "more than one target for 'se'": a word in a docstring, shown as code
napoleon_custom_sections = [
    ("Columns", "params_style")
]  # the diagnosis tables' columns, listed as parameters  # "Attributes" as a list, not a second entry of each attribute :members: documents

root_doc = "index"
# _notebooks/: the lessons' notebooks, offered for download on their pages (tools/book.py), not pages themselves
exclude_patterns = ["**.ipynb_checkpoints", "_notebooks"]

# copy buttons on the code of a cell, not on what it printed; the ">>> " of a doctest is left out
copybutton_selector = "div.cell_input div.highlight pre, div.highlight-python div.highlight pre"
copybutton_prompt_text = ">>> "

# ---------------------------------------------------------------- notebooks
nb_execution_mode = "off"  # never re-run a lesson: the committed outputs are the book
nb_render_markdown_format = "myst"  # text/markdown outputs (tables, worked answers) with $maths$
nb_ipywidgets_js = {}  # no widget manager from a CDN: explorers are still pictures (tools/book.py)
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_dmath_double_inline = True
myst_heading_anchors = 3

# -------------------------------------------------------------------- maths
mathjax_path = "mathjax/tex-chtml.js"  # the bundled copy, relative to _static/
# MathJax sizes each formula by the em, not by measuring the ex-height of the text around every formula
# (one layout read per formula): on a slow phone the maths is done 1-2 s sooner (benchmarks/bench_book.py);
# myst-nb adds the classes MathJax processes to this.
# Lazy typesetting (MathJax's ui/lazy): the formulas in view (and 200 px around) are typeset first, the others
# as the reader scrolls to them (a screen in tens of ms; up to 2 s on Fast 3G when it needs a font or TeX
# extension not yet loaded). All 70-140 formulas of a lesson at once took 1.5-3 s of CPU before the first
# screen showed its maths (benchmarks/bench_book.py). Printing typesets them all (ui/lazy does, before print;
# the book's PDF loads MathJax without it, tools/book.py).
mathjax3_config = {"chtml": {"matchFontHeight": False}, "loader": {"load": ["ui/lazy"]}}

# --------------------------------------------------------------------- HTML
html_theme = "sphinx_book_theme"
html_title = "Inter-annotator agreement"
html_static_path = ["_static"]
html_css_files = ["iaa-book.css"]
# the lesson-list and page-contents buttons made to open their drawers (a theme bug; see the script)
html_js_files = ["iaa-book.js"]
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_use_index = False  # no index entries in the book: no empty "Index" page
html_favicon = "_static/favicon.svg"
html_theme_options = {
    "home_page_in_toc": True,
    "show_prev_next": True,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "use_sidenotes": False,
    "show_toc_level": 2,
    "search_bar_text": "Search the course...",
    "navigation_with_keys": False,
    "footer_content_items": ["extra-footer"],
    "extra_footer": (
        f"<p>{project}: the book of the course, from the stored outputs of the notebooks of "
        f"<code>{_META['name']}</code> {_META['version']} ({_META['description'].split(' (')[0]}). "
        "Every page works offline; each lesson can be downloaded as a notebook from its top.</p>"
    ),
}
# Light unless the reader chooses otherwise (the figures are drawn on white); also stops the
# theme's console error "Got invalid theme mode" when no mode is stored yet.
html_context = {"default_mode": "light"}
# Search results without page summaries: a summary is fetched with fetch(), which browsers
# refuse for pages opened from files (file://); the result list itself works everywhere.
html_show_search_summary = False


# ------------------------------------------------------------- page titles
def _plain_title(app, pagename, templatename, context, doctree) -> None:
    """The window title (``<title>``) without TeX: ``\\(P_a\\)`` in a heading becomes ``P_a``."""
    if context.get("title"):
        context["title"] = re.sub(r"\\\((.*?)\\\)", r"\1", context["title"])


# ------------------------------------------------------ API summary tables
# Sphinx's autosummary table has no heading row, its names are plain cells, and its HTML writer joins a
# signature's arguments with no-break spaces, so on a phone a signature could only break inside a word
# ("popul/ation") or before its last ")". Here the table heads its columns ("name", "what it does"), its
# names are the rows' headers (a stub column: <th>; tools/book.py adds the scopes), and a signature may
# break after each comma, nowhere else (iaa-book.css).
from docutils import nodes  # noqa: E402
from sphinx.ext import autosummary as _autosummary  # noqa: E402

#: The headings of an API page's summary table.
SUMMARY_HEADINGS = ("name", "what it does")


class _HeadedAutosummary(_autosummary.Autosummary):
    """autosummary whose table has a heading row and the names as row headers."""

    def get_table(self, items):
        found = super().get_table(items)
        group = next(iter(found[-1].findall(nodes.tgroup)))
        group[0]["stub"] = 1  # the first colspec: the names' column
        heading = nodes.row("", *(nodes.entry("", nodes.paragraph(text=text)) for text in SUMMARY_HEADINGS))
        group.insert(group.index(next(iter(group.findall(nodes.tbody)))), nodes.thead("", heading))
        return found


def _summary_table_visit(self, node) -> None:
    """Sphinx's own visit, then each signature's argument separators breakable again (", ")."""
    _autosummary.autosummary_table_visit_html(self, node)
    for paragraph in node.findall(nodes.paragraph):
        for text in list(paragraph.findall(nodes.Text)):
            if ",\u00a0" in text and text.parent is paragraph:
                paragraph.replace(text, nodes.Text(text.astext().replace(",\u00a0", ", ")))


def setup(app):
    app.connect("html-page-context", _plain_title)
    app.add_directive("autosummary", _HeadedAutosummary, override=True)
    app.add_node(
        _autosummary.autosummary_table,
        override=True,
        html=(_summary_table_visit, _autosummary.autosummary_noop),
    )
