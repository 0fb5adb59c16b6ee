"""Sphinx configuration of the static book (``make book``; the pages come from tools/book.py).

Everything the pages need is inside build/book/: MathJax from sphinx-mathjax-offline,
the theme's own fonts and scripts, the figures. Nothing is fetched from the network,
neither while building nor while reading.
"""

project = "Inter-annotator agreement: a course"
author = "iaa-teach"
copyright = "iaa-teach authors"
language = "en"

extensions = [
    "myst_nb",  # notebooks as pages, from their stored outputs
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax (its module name has dashes)
    "sphinx.ext.githubpages",  # writes .nojekyll: GitHub Pages then serves _static/ and _images/ as they are
]

root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

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
}
# Light unless the reader chooses otherwise (the figures are drawn on white); also stops the
# theme's console error "Got invalid theme mode" when no mode is stored yet.
html_context = {"default_mode": "light"}
# Search results without page summaries: a summary is fetched with fetch(), which browsers
# refuse for pages opened from files (file://); the result list itself works everywhere.
html_show_search_summary = False
