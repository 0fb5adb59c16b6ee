"""Interaction: ready-made ipywidgets explorers for class and for revision.

Each explorer is one call; displaying it shows its controls, readouts and
figure. Callbacks recompute with the :mod:`iaa_teach` metrics and only set
trait values (HTML and PNG image widgets), so every explorer also runs
headless, e.g. in pytest: set a control's ``value``, read ``explorer.values()``.

- :class:`TableExplorer`: edit the ratings cell by cell; every coefficient follows.
- :class:`ParadoxExplorer`: prevalence and the kappa paradox, on simulated raters.
- :class:`MissingDataExplorer`: remove ratings; alpha, Fleiss under both chance
  rules, and listwise deletion.
- :class:`CoverageExplorer`: partial coverage; annotators kept apart against merged.
- :class:`WeightsExplorer`: nominal, ordinal and interval alpha; unweighted,
  linear and quadratic kappa; the distance matrices.
- :class:`IntervalExplorer`: a simulated study, item by item: the 95 % interval
  of a coefficient narrowing as items are added (half-width against items).
- :class:`Quiz` and :class:`MockExam`: exam revision, one question at a time with
  feedback, or a timed session of several questions marked at the end.
- :class:`AnnotationsExplorer`: upload your own ratings file (or give a path)
  and get the whole diagnostic report: raters, items, categories.

Their sliders and figures are the browser's own range inputs and images, so
every control has an accessible name and every figure a text alternative.
"""

from .._moved import forward_names
from ._annotations import AnnotationsExplorer
from ._coverage import CoverageExplorer
from ._interval import IntervalExplorer
from ._missing import MissingDataExplorer
from ._mock_exam import MockExam
from ._paradox import ParadoxExplorer
from ._quiz import Quiz
from ._table import TableExplorer
from ._weights import WeightsExplorer

__all__ = [
    "TableExplorer",
    "ParadoxExplorer",
    "MissingDataExplorer",
    "CoverageExplorer",
    "WeightsExplorer",
    "Quiz",
    "MockExam",
    "AnnotationsExplorer",
    "IntervalExplorer",
]

#: Names that were public here before this release; they import for one release, with a warning.
__getattr__ = forward_names(
    __name__,
    {
        "Explorer": "iaa_teach.widgets._base",
        "FONT_SIZE": "iaa_teach.widgets._base",
        "WIDGET_DPI": "iaa_teach.widgets._base",
        "CSS_DPI": "iaa_teach.widgets._base",
        "PIXEL_RATIO": "iaa_teach.widgets._base",
        "MIN_FONT_PT": "iaa_teach.widgets._base",
        "IntSlider": "iaa_teach.widgets._controls",
        "FloatSlider": "iaa_teach.widgets._controls",
        "Picture": "iaa_teach.widgets._controls",
        "Countdown": "iaa_teach.widgets._controls",
    },
)
