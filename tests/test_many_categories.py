"""Two-rater coefficients on tables with many categories, against scikit-learn and statsmodels.

Regression for issue 19: ``Ratings.pair_tables`` combined two raters' codes
(stored as uint8 up to 255 categories) into one index in uint8, so from 17
categories (16 with a missing cell: the missing code is k) the index wrapped
around and Cohen's kappa came out wrong without a word. The course's own tables
have 3-5 categories; these have 15, 16, 17, 255, 256, 257 and 300, so the codes'
storage type changes (uint8 -> uint16) inside the examples, and a product
``code * (k + 1)`` passes 255 and 65,535.

No reference value comes from iaa_teach: Cohen's kappa from
``sklearn.metrics.cohen_kappa_score`` on the items both raters labelled, Scott's
pi of two raters on complete data from ``statsmodels``' Fleiss' kappa (they are
the same coefficient for two raters).
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from iaa_teach import Ratings, cohen_kappa, pairwise_cohen, scott_pi

TOL = 1e-9
# (number of categories, share of cells missing); 16 with a missing cell was the first wrong case
SHAPES = [(15, 0.0), (16, 0.1), (17, 0.0), (17, 0.2), (255, 0.0), (256, 0.1), (257, 0.0), (300, 0.3)]


def _table(k: int, missing: float, n_raters: int, seed: int) -> tuple[np.ndarray, list]:
    """Items x raters of category indices 0..k-1 (-1 missing), agreeing well above chance.

    Every category occurs (each appears as some item's true label), so the
    table has exactly k categories and no storage shortcut applies.
    """
    rng = np.random.default_rng(seed)
    n_items = 4 * k
    truth = rng.permutation(np.arange(n_items) % k)
    own = rng.integers(0, k, size=(n_items, n_raters))
    codes = np.where(rng.random((n_items, n_raters)) < 0.7, truth[:, None], own)
    codes[:, 0] = truth  # rater 0 uses every category
    if missing:
        holes = rng.random((n_items, n_raters)) < missing
        holes[:, 0] = False
        codes = np.where(holes, -1, codes)
    return codes, list(range(k))


def _as_labels(codes: np.ndarray, kind: str) -> list[list]:
    """The table as the user would bring it: int, float or text labels, None where missing."""

    def label(c: int):
        if c < 0:
            return None
        return {"int": 1000 + 7 * c, "float": c / 4 - 30.0, "str": f"tag{c:03d}"}[kind]

    return [[label(int(c)) for c in row] for row in codes]


def _sklearn_kappa(codes: np.ndarray, a: int, b: int, weights: str | None = None) -> float:
    """sklearn on the items both labelled, over every category of the table.

    ``labels`` matters for the weights: without it sklearn ranks only the labels the
    two raters used on their shared items, while the table's categories include
    labels given elsewhere (by another rater, or on an item the other left out).
    """
    both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
    labels = np.arange(codes.max() + 1)
    with np.errstate(all="ignore"):
        return cohen_kappa_score(codes[both, a], codes[both, b], labels=labels, weights=weights)


@pytest.mark.parametrize("kind", ["int", "float", "str"])
@pytest.mark.parametrize(("k", "missing"), SHAPES)
def test_cohen_kappa_many_categories_matches_sklearn(k, missing, kind):
    codes, _ = _table(k, missing, n_raters=2, seed=k)
    ratings = Ratings.from_rows(_as_labels(codes, kind), max_categories=300)
    assert ratings.n_categories == k
    got = cohen_kappa(ratings, 0, 1)
    assert math.isclose(float(got), _sklearn_kappa(codes, 0, 1), abs_tol=TOL)
    assert math.isclose(float(got.exact.kappa), _sklearn_kappa(codes, 0, 1), abs_tol=TOL)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
@pytest.mark.parametrize(("k", "missing"), SHAPES)
def test_weighted_cohen_kappa_many_categories_matches_sklearn(k, missing, weights):
    codes, _ = _table(k, missing, n_raters=2, seed=k + 1)
    # increasing numeric labels: sklearn's weights use the label's rank, as iaa_teach's do
    ratings = Ratings.from_rows(_as_labels(codes, "int"), max_categories=300)
    got = cohen_kappa(ratings, 0, 1, weights=weights)
    assert math.isclose(float(got), _sklearn_kappa(codes, 0, 1, weights), abs_tol=TOL)


@pytest.mark.parametrize(("k", "missing"), SHAPES)
def test_pairwise_cohen_many_categories_matches_sklearn(k, missing):
    codes, _ = _table(k, missing, n_raters=4, seed=k + 2)
    ratings = Ratings.from_rows(_as_labels(codes, "str"), max_categories=300)
    res = pairwise_cohen(ratings)
    for a, b in combinations(range(4), 2):
        want = _sklearn_kappa(codes, a, b)
        got = res[ratings.raters[a], ratings.raters[b]]
        assert math.isclose(float(got), want, abs_tol=TOL), (a, b)
    # the mean of the pairs, as the report and the heatmap show it
    wants = [_sklearn_kappa(codes, a, b) for a, b in combinations(range(4), 2)]
    assert math.isclose(
        float(np.mean([float(res[p]) for p in res.pairs])), float(np.mean(wants)), abs_tol=TOL
    )


@pytest.mark.parametrize("k", [15, 16, 17, 255, 256, 257, 300])
def test_scott_pi_two_raters_many_categories_matches_statsmodels(k):
    codes, _ = _table(k, 0.0, n_raters=2, seed=k + 3)
    ratings = Ratings.from_rows(_as_labels(codes, "int"), max_categories=300)
    counts, _ = aggregate_raters(codes, n_cat=k)
    want = sm_fleiss_kappa(counts, method="fleiss")
    assert math.isclose(float(scott_pi(ratings, 0, 1)), want, abs_tol=TOL)


def test_pair_tables_count_every_cell_with_300_categories():
    """The pair table itself: each item both rated lands in its (code a, code b) cell."""
    codes, _ = _table(300, 0.3, n_raters=2, seed=7)
    ratings = Ratings.from_rows(_as_labels(codes, "int"), max_categories=300)
    table = ratings.pair_tables([(0, 1)])[0]
    both = (codes[:, 0] >= 0) & (codes[:, 1] >= 0)
    want = np.zeros((300, 300), dtype=np.int64)
    np.add.at(want, (codes[both, 0], codes[both, 1]), 1)
    assert np.array_equal(table, want)
