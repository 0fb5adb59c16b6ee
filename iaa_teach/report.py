"""The report on a ratings table: as text for a terminal, one self-contained HTML page for people, JSON for machines.

:func:`text_report` is what ``iaa-teach report FILE`` prints: every
coefficient with its working, each pair of raters, and the chance-corrected
family with standard errors and intervals.

:func:`to_html` writes what :func:`iaa_teach.diagnose` found as one HTML page:
a summary, the four tables (raters, items, confused pairs, categories), the
four figures of :mod:`iaa_teach.plots` and the worked steps of
:func:`iaa_teach.explain`. The page needs nothing from anywhere: the figures
are PNG data URIs, the style sheet is inline, there is no script and no web
font, and a Content-Security-Policy forbids loading anything else, so it
opens offline and can be mailed or put on a course page as it is. Every text
from the data (rater, item and category names, the file name) is escaped;
every number is rounded half up from its value (:func:`iaa_teach.fmt`).

:func:`to_data` gives the same numbers as plain Python for :func:`to_json`:
every row of every table (all items, not only the top ones), NaN written as
``null`` next to a ``reason``, and the alphas also as exact fractions
(``"159/275"``). ``json.dumps(..., allow_nan=False)``: the file is strict
JSON that any parser reads.

The command line writes both: ``iaa-teach report FILE --html OUT.html --json OUT.json``.
"""

from . import _report
from ._moved import forward_names
from ._report import (
    adjudication_html,
    adjudication_records,
    disputed_text,
    draw,
    gold_records,
    raters_text,
    summary_lines,
    text_report,
    to_data,
    to_html,
    to_json,
    write_adjudication_csv,
    write_files,
    write_html,
    write_json,
)

__all__ = [
    "text_report",
    "summary_lines",
    "draw",
    "to_html",
    "write_html",
    "to_data",
    "to_json",
    "write_json",
    "write_files",
    "disputed_text",
    "raters_text",
    "adjudication_records",
    "write_adjudication_csv",
    "adjudication_html",
    "gold_records",
]

#: The internal module's other names were public here before this release: they import for one
#: release, with a warning.
__getattr__ = forward_names(__name__, dict.fromkeys(set(_report.__all__) - set(__all__), _report.__name__))
