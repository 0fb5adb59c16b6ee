"""Published examples from the literature, reconstructed and recomputed.

Each test states its source. The data are typed in from the source; the
published figures are asserted at the precision the source prints them, and
the full-precision value is checked against an independent library (the
oracle) as well, so a transcription slip in the data cannot pass silently.

Sources
-------
- Krippendorff, K. (2011). *Computing Krippendorff's Alpha-Reliability*.
  Annenberg School for Communication, University of Pennsylvania. Section C:
  4 observers x 12 units with missing values; alpha = 0.743 (nominal),
  0.815 (ordinal), 0.849 (interval), 0.797 (ratio). The ``krippendorff``
  package reproduces the same example in its docstring.
- Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
  *Psychological Bulletin* 76(5), 378-382: 30 patients, 6 psychiatrists per
  patient, 5 diagnoses; kappa = 0.430. The per-rater table is the ``diagnoses``
  data set of the R package irr (Gamer, Lemon, Fellows & Singh), also in
  statsmodels' test suite; iaa_teach ships it as ``datasets.diagnoses()``.
- Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters,
  5 categories; p_j = 0.143, 0.200, 0.279, 0.150, 0.229; P-bar = 0.378,
  P_e = 0.213, kappa = 0.210.
- Wikipedia, "Cohen's kappa", first example: 50 grant proposals, readers A and
  B; 20 yes/yes, 5 A-yes/B-no, 10 A-no/B-yes, 15 no/no; p_o = 0.7, p_e = 0.5,
  kappa = 0.4.
- R package irr, data set ``anxiety`` (20 subjects, 3 raters, ratings 1-6),
  ``kappa2(anxiety[, 2:3], weight)``: unweighted -0.006289308, "equal"
  (linear) 0.1459075, "squared" (quadratic) 0.2520325 (as printed in the irr
  documentation run and in statsmodels' test suite).
- SAS PROC FREQ agreement output for the 3 x 3 table
  [[0, 4, 1], [0, 8, 0], [0, 1, 5]]: simple kappa 0.4842, weighted kappa
  (Cicchetti-Allison, i.e. linear weights) 0.4701 (the SAS printout is
  reproduced in statsmodels' test suite).
"""

from __future__ import annotations

import warnings
from fractions import Fraction as F

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from iaa_teach import Ratings, cohen_kappa, datasets, fleiss_kappa, krippendorff_alpha

nan = np.nan

# Krippendorff (2011), section C: rows are observers A-D, columns units 1-12.
KRIPPENDORFF_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
)

# Fleiss (1971): 30 patients (rows) x 6 psychiatrists, diagnoses 1-5 (1 depression,
# 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other). The one copy of the
# table is iaa_teach.datasets.diagnoses(), checked against irr's diagnoses.rda.
FLEISS_1971 = datasets.diagnoses().codes + 1

# Wikipedia "Fleiss' kappa": how many of the 14 raters put subject i in category j.
WIKIPEDIA_FLEISS_COUNTS = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)
WIKIPEDIA_FLEISS_P_I = [1.000, 0.253, 0.308, 0.440, 0.330, 0.462, 0.242, 0.176, 0.286, 0.286]

# R irr `anxiety`: 20 subjects x raters 1-3.
ANXIETY = np.array(
    [
        [3, 3, 2],
        [3, 6, 1],
        [3, 4, 4],
        [4, 6, 4],
        [5, 2, 3],
        [5, 4, 2],
        [2, 2, 1],
        [3, 4, 6],
        [5, 3, 1],
        [2, 3, 1],
        [2, 2, 1],
        [6, 3, 2],
        [1, 3, 3],
        [5, 3, 3],
        [2, 2, 1],
        [2, 2, 1],
        [1, 1, 3],
        [2, 3, 3],
        [4, 3, 2],
        [3, 4, 2],
    ]
)


def oracle(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(fn(*args, **kwargs))


def rows_from_table(table) -> list[list[int]]:
    """Two raters' items rebuilt from a k x k agreement table (rows rater 1, columns rater 2)."""
    return [[i, j] for i, row in enumerate(table) for j, n in enumerate(row) for _ in range(n)]


def ratings_from_counts(counts) -> Ratings:
    """Items x raters labels rebuilt from an items x categories count table (equal raters per item)."""
    rows = [np.repeat(np.arange(1, counts.shape[1] + 1), row).tolist() for row in counts]
    return Ratings.from_rows(rows, categories=list(range(1, counts.shape[1] + 1)))


# ---------------------------------------------------- Krippendorff 2011
@pytest.mark.parametrize(
    "level, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)]
)
def test_krippendorff_2011_reliability_data(level, published):
    """Krippendorff (2011), section C: 4 observers x 12 units, missing values."""
    r = Ratings.from_rows(KRIPPENDORFF_2011.T, raters=["A", "B", "C", "D"])
    res = krippendorff_alpha(r, level)
    assert round(res.alpha, 3) == published
    ref = oracle(krippendorff.alpha, reliability_data=KRIPPENDORFF_2011, level_of_measurement=level)
    assert res.alpha == pytest.approx(ref, abs=1e-12)
    # the paper's counts: unit 12 has a single value, so 11 units and n = 40 pairable values
    assert res.n == 40 and res.n_units_used == 11
    np.testing.assert_allclose(res.n_c, [9, 13, 10, 5, 3], atol=1e-12)
    assert res.exact.n_c == (9, 13, 10, 5, 3)
    assert float(res.exact.alpha) == pytest.approx(res.alpha, abs=1e-12)


def test_krippendorff_2011_nominal_coincidences():
    """The paper's nominal coincidence matrix and its exact alpha."""
    res = krippendorff_alpha(KRIPPENDORFF_2011.T, "nominal")
    o = res.exact.coincidences
    # diagonal o_11 .. o_55 and the off-diagonal cells (ordered) of the paper's matrix
    assert [o[i][i] for i in range(5)] == [7, 10, 8, 4, 3]
    assert o[0][1] == o[1][0] == F(4, 3)
    assert o[0][2] == o[0][3] == F(1, 3)
    assert o[1][2] == F(4, 3) and o[1][3] == F(1, 3)
    assert o[2][3] == F(1, 3) and o[4][0] == o[4][1] == o[4][2] == o[4][3] == 0
    # alpha = 1 - (n - 1) * sum_{c != k} o_ck / sum_{c != k} n_c n_k
    n_c = res.exact.n_c
    off = sum(o[i][j] for i in range(5) for j in range(5) if i != j)
    chance = sum(n_c[i] * n_c[j] for i in range(5) for j in range(5) if i != j)
    assert res.exact.alpha == 1 - (40 - 1) * off / chance


# ------------------------------------------------------------ Fleiss 1971
def test_fleiss_1971_diagnoses():
    """Fleiss (1971): 30 patients, 6 psychiatrists each, 5 diagnoses; kappa = 0.430."""
    res = fleiss_kappa(FLEISS_1971)
    assert round(res.kappa, 3) == 0.430
    ref = oracle(sm_fleiss_kappa, aggregate_raters(FLEISS_1971)[0])
    assert res.kappa == pytest.approx(ref, abs=1e-12)
    assert fleiss_kappa(FLEISS_1971, chance="item_mean").kappa == pytest.approx(ref, abs=1e-12)
    assert res.n_ratings == 180
    assert float(res.exact.kappa) == pytest.approx(res.kappa, abs=1e-12)


def test_wikipedia_fleiss_example():
    """Wikipedia "Fleiss' kappa": 10 subjects, 14 raters, 5 categories; kappa = 0.210."""
    r = ratings_from_counts(WIKIPEDIA_FLEISS_COUNTS)
    assert r.shape == (10, 14)
    res = fleiss_kappa(r)
    np.testing.assert_array_equal(res.counts, WIKIPEDIA_FLEISS_COUNTS)
    assert np.round(res.p_j, 3).tolist() == [0.143, 0.200, 0.279, 0.150, 0.229]
    assert np.round(res.p_i, 3).tolist() == WIKIPEDIA_FLEISS_P_I
    assert (round(res.p_a, 3), round(res.p_e, 3), round(res.kappa, 3)) == (0.378, 0.213, 0.210)
    assert res.exact.p_j == (F(20, 140), F(28, 140), F(39, 140), F(21, 140), F(32, 140))
    ref = oracle(sm_fleiss_kappa, WIKIPEDIA_FLEISS_COUNTS)
    assert res.kappa == pytest.approx(ref, abs=1e-12)


# ------------------------------------------------------------------ Cohen
def test_wikipedia_cohen_example():
    """Wikipedia "Cohen's kappa": 50 proposals, 20/5/10/15; p_o = 0.7, p_e = 0.5, kappa = 0.4."""
    rows = rows_from_table([[20, 5], [10, 15]])  # code 0 = yes, 1 = no
    labelled = [["yes" if a == 0 else "no", "yes" if b == 0 else "no"] for a, b in rows]
    res = cohen_kappa(Ratings.from_rows(labelled, categories=["yes", "no"]), "A", "B")
    assert (res.exact.p_o, res.exact.p_e, res.exact.kappa) == (F(7, 10), F(1, 2), F(2, 5))
    np.testing.assert_array_equal(res.table, [[20, 5], [10, 15]])
    y = np.array(rows)
    assert res.kappa == pytest.approx(oracle(cohen_kappa_score, y[:, 0], y[:, 1]), abs=1e-12)


@pytest.mark.parametrize(
    "weights, published", [(None, -0.006289308), ("linear", 0.1459075), ("quadratic", 0.2520325)]
)
def test_irr_anxiety_weighted_kappa(weights, published):
    """R irr ``kappa2(anxiety[, 2:3])``: unweighted, "equal" (linear), "squared" (quadratic).

    irr weights by the position of a rating among the levels present (1, 2, 3,
    4, 6: rater 2 and 3 never give 5), which is our category order.
    """
    two = ANXIETY[:, 1:3]
    res = cohen_kappa(two, 0, 1, weights=weights)
    assert res.categories == (1, 2, 3, 4, 6)
    assert res.kappa == pytest.approx(published, abs=5e-8)
    ref = oracle(cohen_kappa_score, two[:, 0], two[:, 1], weights=weights)
    assert res.kappa == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("weights, published", [(None, 0.4842), ("linear", 0.4701)])
def test_sas_agreement_table(weights, published):
    """SAS PROC FREQ agreement output for [[0, 4, 1], [0, 8, 0], [0, 1, 5]]."""
    table = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
    rows = rows_from_table(table)
    res = cohen_kappa(Ratings.from_rows(rows, categories=[0, 1, 2]), 0, 1, weights=weights)
    np.testing.assert_array_equal(res.table, table)
    assert round(res.kappa, 4) == published
    y = np.array(rows)
    ref = oracle(cohen_kappa_score, y[:, 0], y[:, 1], labels=[0, 1, 2], weights=weights)
    assert res.kappa == pytest.approx(ref, abs=1e-12)
