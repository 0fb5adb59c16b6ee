"""Pictures out: the figures of the notebooks, one function each.

Every function takes a result object (or a :class:`~iaa_teach.Ratings`) and
returns a :class:`matplotlib.figure.Figure` of size ``FIGSIZE`` at
``DPI``, titled, with labelled axes, in the colour-blind-safe Okabe-Ito
palette (categories: ``CATEGORY_COLORS``, a colour of its own for each of up to 20;
past 20 the colours repeat and the figure says so). No function computes a coefficient: the numbers drawn are the
result's own attributes, and the numbers written on a figure are rounded half
up from the result's exact values (:func:`iaa_teach.fmt`).

Text from the data (labels, rater names, item names) and the ``title`` and
legend texts given are escaped for matplotlib (``mpl_escape``):
a ``$`` never starts mathtext. Bad arguments raise
:class:`~iaa_teach.AgreementError`. Figures with one mark per item, pair or
cell have limits (``MAX_BARS``, ``MAX_CELLS``), and a heatmap writes
its cell values only up to ``MAX_CELL_TEXT`` categories, so that a large
table is refused at once instead of drawing for minutes.

The figures are closed in pyplot as soon as they are made, so a notebook cell
shows a figure once, when the figure is the cell's value (``image/png``),
and never by accident. Pass ``ax=`` to draw into an axes of your own.

Import it explicitly (``from iaa_teach import plots``): ``import iaa_teach``
alone does not import matplotlib.
"""

from . import _plots
from ._moved import forward_names
from ._plots import (
    agreement_heatmap,
    chance_chart,
    coefficients_with_bands,
    coincidence_heatmap,
    confusion_heatmap,
    coverage_chart,
    coverage_map,
    distance_matrix,
    family_chart,
    item_agreement_bars,
    item_disagreement_chart,
    kappa_matrix,
    leave_one_out_bars,
    pairwise_bars,
    paradox_curve,
    rater_agreement_heatmap,
)

__all__ = [
    "agreement_heatmap",
    "item_agreement_bars",
    "pairwise_bars",
    "coincidence_heatmap",
    "coefficients_with_bands",
    "coverage_chart",
    "coverage_map",
    "family_chart",
    "chance_chart",
    "paradox_curve",
    "distance_matrix",
    "kappa_matrix",
    "rater_agreement_heatmap",
    "item_disagreement_chart",
    "confusion_heatmap",
    "leave_one_out_bars",
]

#: The internal module's other names were public here before this release: they import for one
#: release, with a warning.
__getattr__ = forward_names(__name__, dict.fromkeys(set(_plots.__all__) - set(__all__), _plots.__name__))
