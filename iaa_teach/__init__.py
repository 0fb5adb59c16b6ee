"""iaa_teach: inter-annotator agreement, taught step by step.

Data in (:class:`Ratings`), numbers out (:func:`cohen_kappa`,
:func:`pairwise_cohen`, :func:`fleiss_kappa`, :func:`krippendorff_alpha`,
:func:`bootstrap_ci`, :func:`interpret`), words out (:func:`explain`,
:func:`ratings_table`, from :mod:`iaa_teach.words`), every number shown
rounded half up from its exact value (:func:`fmt`),
and where the disagreement comes from (:func:`diagnose`).
"""

from . import datasets, words
from .diagnosis import Diagnosis, ReportTable, diagnose
from .metrics import (
    BANDS,
    CHANCE_RULES,
    LEVELS,
    WEIGHTS,
    AlphaResult,
    BootstrapResult,
    CohenResult,
    FleissResult,
    PairwiseCohenResult,
    bootstrap_ci,
    cohen_kappa,
    fleiss_kappa,
    interpret,
    krippendorff_alpha,
    pairwise_cohen,
)
from .ratings import AgreementError, Ratings
from .rounding import fmt
from .words import explain, ratings_table

__version__ = "0.1.0"


def __getattr__(name):
    # `iaa_teach.plots` (and `report_files`) on first use: importing iaa_teach must not import matplotlib.
    if name in ("plots", "report_files"):  # report_files draws with plots
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "AgreementError", "Ratings", "datasets", "words", "explain", "ratings_table", "fmt",
    "cohen_kappa", "pairwise_cohen", "fleiss_kappa", "krippendorff_alpha", "interpret", "bootstrap_ci",
    "CohenResult", "PairwiseCohenResult", "FleissResult", "AlphaResult", "BootstrapResult",
    "BANDS", "LEVELS", "WEIGHTS", "CHANCE_RULES",
    "diagnose", "Diagnosis", "ReportTable",
]
