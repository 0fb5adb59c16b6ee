"""iaa_teach: inter-annotator agreement, taught step by step.

Data in (:class:`Ratings`), numbers out (:func:`cohen_kappa`,
:func:`pairwise_cohen`, :func:`fleiss_kappa`, :func:`krippendorff_alpha`,
:func:`bootstrap_ci`, :func:`interpret`), the rest of the chance-corrected
family (:func:`percent_agreement`, :func:`brennan_prediger`,
:func:`scott_pi`, :func:`conger_kappa`, :func:`gwet_ac`), each with ``se``
and ``ci()``, and :func:`items_needed` for planning a study; words out
(:func:`explain`, :func:`ratings_table`, from :mod:`iaa_teach.worked`), every
number shown rounded half up from its exact value (:func:`fmt`); and where
the disagreement comes from (:func:`diagnose`).
"""

from . import datasets, worked
from .diagnosis import Diagnosis, ReportTable, diagnose
from .metrics import (
    BANDS,
    LEVELS,
    PLANNED,
    AlphaResult,
    BootstrapResult,
    BrennanPredigerResult,
    CohenResult,
    CongerResult,
    FleissResult,
    GwetResult,
    ItemsNeeded,
    PairwiseCohenResult,
    PercentAgreementResult,
    ScottResult,
    agreement_family,
    bootstrap_ci,
    brennan_prediger,
    cohen_kappa,
    conger_kappa,
    family_intervals,
    fleiss_kappa,
    gwet_ac,
    interpret,
    items_needed,
    krippendorff_alpha,
    pairwise_cohen,
    percent_agreement,
    scott_pi,
)
from .ratings import AgreementError, Ratings
from .rounding import fmt
from .worked import explain, ratings_table

__version__ = "0.1.0"


def __getattr__(name):
    # `iaa_teach.plots` (and `report`) on first use: importing iaa_teach must not import matplotlib.
    # the old module paths (iaa_teach/_moved.py), importable for one release
    if name in ("plots", "report", "words", "report_files", "formulas", "family", "validation", "reading"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AgreementError",
    "Ratings",
    "datasets",
    "worked",
    "explain",
    "ratings_table",
    "fmt",
    "cohen_kappa",
    "pairwise_cohen",
    "fleiss_kappa",
    "krippendorff_alpha",
    "interpret",
    "bootstrap_ci",
    "CohenResult",
    "PairwiseCohenResult",
    "FleissResult",
    "AlphaResult",
    "BootstrapResult",
    "BANDS",
    "LEVELS",
    "diagnose",
    "Diagnosis",
    "ReportTable",
    "percent_agreement",
    "brennan_prediger",
    "scott_pi",
    "conger_kappa",
    "gwet_ac",
    "items_needed",
    "PercentAgreementResult",
    "BrennanPredigerResult",
    "ScottResult",
    "CongerResult",
    "GwetResult",
    "ItemsNeeded",
    "PLANNED",
    "agreement_family",
    "family_intervals",
]
