"""The answer key of ERRATA.md, asserted exactly (``result.exact`` holds Fractions).

The sentiment example: 10 items, annotators A, B, C, categories in the order
G (negative) < N (neutral) < P (positive). Every tuple below follows that
order, so the text's "P, N, G = 1/2, 1/3, 1/6" reads (1/6, 1/3, 1/2) here.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from iaa_teach import (
    cohen_kappa,
    datasets,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_cohen,
)

G, N, P = 0, 1, 2  # category positions in datasets.SENTIMENT_CATEGORIES


@pytest.fixture(scope="module")
def complete():
    return datasets.sentiment()


@pytest.fixture(scope="module")
def missing():
    return datasets.sentiment_missing()


def assert_floats_match_exact(result, names):
    """Every float attribute equals its exact Fraction to 1e-12."""
    for name in names:
        exact = getattr(result.exact, name)
        value = getattr(result, name)
        if isinstance(exact, tuple):
            got = [math.nan if e is None else float(e) for e in exact]
            np.testing.assert_allclose(np.asarray(value, dtype=float), got, rtol=0, atol=1e-12, err_msg=name)
        else:
            assert float(value) == pytest.approx(float(exact), rel=0, abs=1e-12), name


def test_categories_are_in_the_errata_order(complete):
    assert complete.categories == ("G", "N", "P") == datasets.SENTIMENT_CATEGORIES
    assert complete.raters == ("A", "B", "C")
    assert complete.n_ratings == 30


# ---------------------------------------------------------------- Cohen
@pytest.mark.parametrize("a, b, kappa", [("A", "B", F(29, 59)), ("A", "C", F(27, 32)), ("B", "C", F(11, 31))])
def test_cohen_kappa_pairs(complete, a, b, kappa):
    res = cohen_kappa(complete, a, b)
    assert res.exact.kappa == kappa
    assert res.n_items == 10 and res.n_dropped == 0
    assert_floats_match_exact(res, ["kappa", "p_o", "p_e", "row_marginals", "col_marginals"])


def test_cohen_a_vs_b_working(complete):
    """Cohen A vs B = 29/59.

    The agreement table (rows A, columns B, order G, N, P) has diagonal
    1 + 2 + 4 = 7 of 10 items, so P_o = 7/10. A's marginals are (2, 3, 5)/10
    and B's (1, 3, 6)/10, so P_e = (2*1 + 3*3 + 5*6)/100 = 41/100. Then
    kappa = (7/10 - 41/100) / (1 - 41/100) = (29/100) / (59/100) = 29/59.
    """
    res = cohen_kappa(complete, "A", "B")
    assert (res.exact.p_o, res.exact.p_e, res.exact.kappa) == (F(7, 10), F(41, 100), F(29, 59))
    assert (round(res.p_o, 3), round(res.p_e, 3), round(res.kappa, 3)) == (0.7, 0.41, 0.492)
    # rows: A's label, columns: B's label, order G, N, P
    np.testing.assert_array_equal(res.table, [[1, 0, 1], [0, 2, 1], [0, 1, 4]])
    assert res.exact.row_marginals == (F(1, 5), F(3, 10), F(1, 2))
    assert res.exact.col_marginals == (F(1, 10), F(3, 10), F(3, 5))
    # P_e is the sum of the products of the two raters' marginals
    assert res.exact.p_e == sum(x * y for x, y in zip(res.exact.row_marginals, res.exact.col_marginals))


def test_cohen_by_column_index_equals_by_name(complete):
    assert cohen_kappa(complete, 0, 2).exact.kappa == cohen_kappa(complete, "A", "C").exact.kappa == F(27, 32)
    # swapping the raters transposes the table and leaves kappa unchanged
    ab, ba = cohen_kappa(complete, "A", "B"), cohen_kappa(complete, "B", "A")
    np.testing.assert_array_equal(ab.table, ba.table.T)
    assert ab.exact.kappa == ba.exact.kappa


def test_pairwise_cohen(complete):
    res = pairwise_cohen(complete)
    assert res.pairs == (("A", "B"), ("A", "C"), ("B", "C"))
    assert res.exact.kappas == (F(29, 59), F(27, 32), F(11, 31))
    assert res.exact.mean_kappa == (F(29, 59) + F(27, 32) + F(11, 31)) / 3
    assert float(res) == pytest.approx(float(res.exact.mean_kappa), abs=1e-12)
    np.testing.assert_allclose(res.kappas, [float(k) for k in res.exact.kappas], atol=1e-12)
    assert res["C", "A"].exact.kappa == F(27, 32)
    m = res.matrix
    assert np.isnan(np.diag(m)).all()
    np.testing.assert_array_equal(m, m.T)
    assert m[0, 1] == res.kappas[0] and m[1, 2] == res.kappas[2]


# --------------------------------------------------------------- Fleiss
P_I_COMPLETE = (1, F(1, 3), 1, 1, F(1, 3), 1, F(1, 3), 1, 1, F(1, 3))


@pytest.mark.parametrize("chance", ["pooled", "item_mean"])
def test_fleiss_complete(complete, chance):
    """Fleiss' kappa = 31/55 (both chance rules agree on complete data).

    Six unanimous items have P_i = (3^2 - 3)/(3*2) = 1 and four 2-1 items
    P_i = (2^2 + 1^2 - 3)/(3*2) = 1/3, so P_a = (6 + 4/3)/10 = 11/15. The 30
    labels are 5 G, 10 N, 15 P: p_j = (1/6, 1/3, 1/2) and
    P_e = 1/36 + 1/9 + 1/4 = 7/18. Then kappa = (11/15 - 7/18)/(1 - 7/18)
    = (31/90)/(11/18) = 31/55.
    """
    res = fleiss_kappa(complete, chance=chance)
    ex = res.exact
    assert ex.p_i == P_I_COMPLETE
    assert ex.p_j == (F(1, 6), F(1, 3), F(1, 2))
    assert ex.p_a == F(11, 15)
    assert ex.p_e == F(7, 18)
    assert ex.kappa == F(31, 55)
    assert round(res.kappa, 3) == 0.564
    assert res.n_ratings == 30 and res.n_items_used == 10
    np.testing.assert_array_equal(res.raters_per_item, [3] * 10)
    np.testing.assert_array_equal(res.counts.sum(axis=0), [5, 10, 15])
    assert_floats_match_exact(res, ["kappa", "p_a", "p_e", "p_j", "p_i"])


def test_fleiss_text_rounding_slip(complete):
    """ERRATA 1: rounding the intermediates to 3 d.p. gives the text's 0.563; exactly it is 0.564."""
    ex = fleiss_kappa(complete).exact
    assert sum(ex.p_i) == F(22, 3)  # 7.333..., the text's "7.332" adds 0.333 four times
    assert round(float(sum(F(1) if p == 1 else F(333, 1000) for p in ex.p_i)), 3) == 7.332
    p_a, p_e = round(float(ex.p_a), 3), round(float(ex.p_e), 3)
    assert (p_a, p_e) == (0.733, 0.389)
    text = round((p_a - p_e) / round(1 - p_e, 3), 3)
    assert text == 0.563
    assert round(float(ex.kappa), 3) == 0.564 != text


# -------------------------------------------------------- Krippendorff
def test_pair_counts_as_counted_by_hand(complete):
    res = krippendorff_alpha(complete)
    o = res.pair_counts
    assert o[P, P] == 22 and o[N, N] == 14 and o[G, G] == 8
    assert o[P, N] == o[N, P] == 6
    assert o[P, G] == o[G, P] == 2
    assert o[N, G] == o[G, N] == 0
    assert o.sum() == 60
    np.testing.assert_array_equal(o, o.T)


def test_alpha_complete(complete):
    """Krippendorff's alpha = 159/275.

    Every unit has m_u = 3 values, so each unit's 6 ordered pairs are
    weighted 1/(3 - 1): the coincidences are half the hand counts (sum 60/2
    = n = 30) and n_c = (5, 10, 15). D_o = (off-diagonal pairs 2*(6 + 2) = 16)
    / 2 / 30 = 4/15. D_e = (30^2 - (5^2 + 10^2 + 15^2)) / (30 * 29) = 550/870
    = 55/87. alpha = 1 - (4/15)/(55/87) = 1 - 116/275 = 159/275.
    """
    res = krippendorff_alpha(complete)
    ex = res.exact
    assert ex.d_o == F(4, 15)
    assert ex.d_e == F(55, 87)
    assert ex.alpha == F(159, 275)
    assert ex.n == 30 and res.n == 30
    assert ex.n_c == (5, 10, 15)
    assert round(res.alpha, 3) == 0.578
    # every unit has 3 values, so each coincidence is half the hand-counted pair count
    assert ex.coincidences == tuple(tuple(F(int(c), 2) for c in row) for row in res.pair_counts)
    # D_e over n(n - 1) value pairs, as ERRATA 2 writes it out
    assert ex.d_e == F(30**2 - (15**2 + 10**2 + 5**2), 30 * 29)
    assert_floats_match_exact(res, ["alpha", "d_o", "d_e", "n_c"])
    np.testing.assert_allclose(
        res.coincidences, [[float(x) for x in row] for row in ex.coincidences], atol=1e-12
    )


def test_alpha_and_fleiss_relation_on_complete_data(complete):
    """1 - alpha = (1 - kappa)(n - 1)/n: they agree only as n grows (ERRATA 2)."""
    alpha = krippendorff_alpha(complete).exact
    kappa = fleiss_kappa(complete).exact.kappa
    n = alpha.n
    assert 1 - alpha.alpha == (1 - kappa) * (n - 1) / n
    assert alpha.alpha != kappa


def _text_alpha(pair_counts):
    """The texts' "alpha": disagreement from the unweighted ordered-pair counts, D_e = 1 - sum p^2."""
    o = [[F(int(x)) for x in row] for row in pair_counts]
    total = sum(map(sum, o))
    k = len(o)
    d_o = sum(o[i][j] for i in range(k) for j in range(k) if i != j) / total
    p = [sum(row) / total for row in o]
    d_e = 1 - sum(x * x for x in p)
    return 1 - d_o / d_e


def test_text_alpha_is_fleiss_kappa_not_alpha(complete):
    """ERRATA 2: the texts' unweighted calculation reproduces Fleiss' kappa (0.564), not alpha (0.578)."""
    res = krippendorff_alpha(complete)
    wrong = _text_alpha(res.pair_counts)
    assert wrong == F(31, 55) == fleiss_kappa(complete).exact.kappa
    assert round(float(wrong), 3) == 0.564
    assert wrong != res.exact.alpha


# --------------------------------------------------------- missing data
def test_missing_data_table(missing):
    assert missing.n_ratings == 28
    assert missing.rows()[2][1] is None and missing.rows()[7][2] is None
    assert missing.missing.sum() == 2


def test_alpha_missing(missing):
    """Krippendorff's alpha with item 3 rater B and item 8 rater C removed = 127/235.

    Eight units keep 3 values (pairs weighted 1/2) and items 3 and 8 keep 2
    agreeing values (pairs weighted 1/1), so n = 8*3 + 2*2 = 28 values. The
    disagreeing pairs are those of the four 2-1 items, 4 ordered pairs each
    at weight 1/2: D_o = 8/28 = 2/7. The value counts are n_c = (5, 8, 15)
    (G, N, P), so D_e = (28^2 - (5^2 + 8^2 + 15^2)) / (28 * 27) = 470/756
    = 235/378. alpha = 1 - (2/7)/(235/378) = 1 - 108/235 = 127/235.
    """
    res = krippendorff_alpha(missing)
    ex = res.exact
    assert ex.alpha == F(127, 235)
    assert ex.n == 28 and res.n == 28
    assert ex.d_o == F(2, 7)
    assert ex.d_e == F(235, 378)
    assert round(res.alpha, 3) == 0.540
    assert res.n_units_used == 10
    assert sum(ex.n_c) == 28
    assert_floats_match_exact(res, ["alpha", "d_o", "d_e", "n_c"])


def test_text_alpha_missing_is_seven_fifteenths(missing):
    """ERRATA 3: without the 1/(m_u - 1) weight the text's code gets 0.467 = 7/15."""
    res = krippendorff_alpha(missing)
    # 8 units of 3 values give 6 pairs each, 2 units of 2 values give 2 each
    assert res.pair_counts.sum() == 8 * 6 + 2 * 2
    wrong = _text_alpha(res.pair_counts)
    assert wrong == F(7, 15)
    assert round(float(wrong), 3) == 0.467
    assert res.exact.alpha == F(127, 235) != wrong


def test_fleiss_missing_both_chance_rules(missing):
    """Fleiss with per-item k on the missing-data table: 1957/3525 pooled, 31/55 item-mean.

    Items 3 and 8 keep two agreeing labels, P_i = (2^2 - 2)/(2*1) = 1, so P_a
    stays 11/15. Pooled: the 28 labels are 5 G, 8 N, 15 P, so
    P_e = (25 + 64 + 225)/784 = 314/784 = 157/392 and
    kappa = (11/15 - 157/392)/(1 - 157/392) = (1957/5880)/(235/392) = 1957/3525.
    Item mean: items 3 and 8 still put all their weight on N, so the mean of
    the per-item shares is (1/6, 1/3, 1/2) as on complete data: P_e = 7/18
    and kappa = 31/55.
    """
    pooled = fleiss_kappa(missing, chance="pooled")
    item_mean = fleiss_kappa(missing, chance="item_mean")
    for res in (pooled, item_mean):
        assert res.exact.p_a == F(11, 15)
        assert res.n_ratings == 28 and res.n_items_used == 10
        np.testing.assert_array_equal(res.raters_per_item, [3, 3, 2, 3, 3, 3, 3, 2, 3, 3])
        assert_floats_match_exact(res, ["kappa", "p_a", "p_e", "p_j", "p_i"])
    assert pooled.exact.kappa == F(1957, 3525)
    assert item_mean.exact.kappa == F(31, 55)
    assert (round(pooled.kappa, 3), round(item_mean.kappa, 3)) == (0.555, 0.564)
    # pooled: shares of all 28 ratings; item_mean: mean of each item's shares
    assert pooled.exact.p_j == tuple(F(int(c), 28) for c in pooled.counts.sum(axis=0))
    per_item = [tuple(F(int(c), int(row.sum())) for c in row) for row in item_mean.counts]
    assert item_mean.exact.p_j == tuple(sum(col) / 10 for col in zip(*per_item))
    # the two removed ratings leave 2-rater items whose P_i is 1 (both left agree)
    assert pooled.exact.p_i[2] == 1 and pooled.exact.p_i[7] == 1


def test_cohen_missing_drops_items(missing):
    res = cohen_kappa(missing, "A", "B")
    assert res.n_items == 9 and res.n_dropped == 1
    assert res.table.sum() == 9
    assert_floats_match_exact(res, ["kappa", "p_o", "p_e"])


def test_float_equals_exact_on_partial_coverage():
    r = datasets.partial_coverage()
    assert r.n_ratings == 38
    for res, names in [
        (fleiss_kappa(r, chance="pooled"), ["kappa", "p_a", "p_e", "p_j", "p_i"]),
        (fleiss_kappa(r, chance="item_mean"), ["kappa", "p_a", "p_e", "p_j", "p_i"]),
        (krippendorff_alpha(r), ["alpha", "d_o", "d_e", "n_c"]),
        (krippendorff_alpha(r, "ordinal"), ["alpha", "d_o", "d_e", "n_c"]),
    ]:
        assert_floats_match_exact(res, names)
    pooled = fleiss_kappa(r)
    assert pooled.n_ratings == 38
    # the pooled rule takes P_e from all 38 labels ("38 not 40")
    assert sum(pooled.exact.p_j) == 1
    assert pooled.exact.p_j == tuple(F(int(c), 38) for c in pooled.counts.sum(axis=0))
