"""Data in: the Ratings constructors, category order, rater names, round trips."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from iaa_teach import AgreementError, Ratings, datasets, fleiss_kappa, krippendorff_alpha
from iaa_teach.ratings import _count_patterns  # the speed special case tested against the plain path

SENTIMENT_ROWS = [
    ["P", "P", "P"],
    ["P", "P", "N"],
    ["N", "N", "N"],
    ["P", "P", "P"],
    ["N", "P", "N"],
    ["G", "G", "G"],
    ["P", "N", "P"],
    ["N", "N", "N"],
    ["P", "P", "P"],
    ["G", "P", "G"],
]


# ------------------------------------------------------------- from_rows
def test_from_rows_list_defaults():
    r = Ratings.from_rows(SENTIMENT_ROWS)
    assert r.raters == ("A", "B", "C")
    assert r.categories == ("G", "N", "P")  # sorted when not given
    assert tuple(r.items) == tuple(range(1, 11))
    assert r.shape == (10, 3) and r.n_items == 10 and r.n_raters == 3 and r.n_categories == 3
    assert r.n_ratings == 30 and not r.missing.any()
    assert r.rows() == SENTIMENT_ROWS
    assert r == datasets.sentiment()


def test_missing_markers_none_nan_and_empty_string():
    r = Ratings.from_rows([["P", None, "N"], ["", "P", float("nan")], [np.nan, "  ", "N"]])
    assert r.rows() == [["P", None, "N"], [None, "P", None], [None, None, "N"]]
    np.testing.assert_array_equal(r.missing, [[0, 1, 0], [1, 0, 1], [1, 1, 0]])
    np.testing.assert_array_equal(r.codes, [[1, -1, 0], [-1, 1, -1], [-1, -1, 0]])
    assert r.n_ratings == 4
    assert r.categories == ("N", "P")


def test_numpy_float_with_nan():
    arr = np.array([[1.0, 2.0, np.nan], [3.0, 3.0, 1.0], [np.nan, np.nan, 2.0]])
    r = Ratings.from_rows(arr)
    assert r.categories == (1, 2, 3)  # integral floats read as ints
    assert all(type(c) is int for c in r.categories)
    assert r.rows() == [[1, 2, None], [3, 3, 1], [None, None, 2]]
    assert r.n_ratings == 6


def test_numpy_int_and_non_integral_floats():
    r = Ratings.from_rows(np.array([[5, 7], [7, 7], [5, 9]]))
    assert r.categories == (5, 7, 9)
    np.testing.assert_array_equal(r.codes, [[0, 1], [1, 1], [0, 2]])
    f = Ratings.from_rows(np.array([[0.5, 1.5], [np.nan, 0.5], [2.25, 1.5]]))
    assert f.categories == (0.5, 1.5, 2.25)
    assert f.rows() == [[0.5, 1.5], [None, 0.5], [2.25, 1.5]]


def test_numpy_wide_range_integers():
    r = Ratings.from_rows(np.array([[0, 10**12], [10**12, 10**12], [-3, 0]]))
    assert r.categories == (-3, 0, 10**12)
    assert r.rows() == [[0, 10**12], [10**12, 10**12], [-3, 0]]


def test_numpy_object_and_string_arrays():
    obj = np.array([["P", None], ["N", ""], [np.nan, "P"]], dtype=object)
    r = Ratings.from_rows(obj)
    assert r.rows() == [["P", None], ["N", None], [None, "P"]]
    s = Ratings.from_rows(np.array([["P", "N"], ["", "P"]]))  # a '<U1' array: "" is missing
    assert s.rows() == [["P", "N"], [None, "P"]]


def test_numpy_bool_array_keeps_booleans():
    r = Ratings.from_rows(np.array([[True, False], [True, True]]))
    assert r.categories == (False, True)
    assert r.rows() == [[True, False], [True, True]]


def test_mixed_label_types_sort_numbers_first():
    r = Ratings.from_rows([[2, "b"], ["a", 1], [1.5, "b"], [10, "unsure"]])
    assert r.categories == (1, 1.5, 2, 10, "a", "b", "unsure")  # 10 after 2: numeric, not text, order


def test_numpy_scalars_become_python_scalars():
    r = Ratings.from_rows([[np.int64(1), np.float64(2.0)], [np.str_("x"), None]])
    assert r.categories == (1, 2, "x")
    assert [type(c) for c in r.categories] == [int, int, str]


# ---------------------------------------------------------- categories
def test_categories_order_is_respected():
    r = Ratings.from_rows(SENTIMENT_ROWS, categories=["P", "N", "G"])
    assert r.categories == ("P", "N", "G")
    assert r.counts().sum(axis=0).tolist() == [15, 10, 5]
    assert r.rows() == SENTIMENT_ROWS
    # the order decides the ordinal distances, so ordinal alpha changes, nominal does not
    default = Ratings.from_rows(SENTIMENT_ROWS)
    assert krippendorff_alpha(r).exact.alpha == krippendorff_alpha(default).exact.alpha
    mixed = Ratings.from_rows(SENTIMENT_ROWS, categories=["N", "G", "P"])
    ordered = Ratings.from_rows(SENTIMENT_ROWS, categories=["G", "N", "P"])
    assert krippendorff_alpha(mixed, "ordinal").alpha != krippendorff_alpha(ordered, "ordinal").alpha
    assert not default.ordered and mixed.ordered and ordered.ordered


def test_unused_categories_are_kept():
    r = Ratings.from_rows([["a", "a"], ["b", "a"]], categories=["a", "b", "c"])
    assert r.categories == ("a", "b", "c")
    np.testing.assert_array_equal(r.counts(), [[2, 0, 0], [1, 1, 0]])
    n = Ratings.from_rows(np.array([[1, 1], [2, np.nan]]), categories=[0, 1, 2, 3])
    assert n.categories == (0, 1, 2, 3)
    np.testing.assert_array_equal(n.codes, [[1, 1], [2, -1]])


def test_numeric_categories_given_as_floats_match_int_labels():
    r = Ratings.from_rows(np.array([[1, 2], [2, 2]]), categories=[1.0, 2.0, 3.0])
    assert r.categories == (1, 2, 3)
    assert r.rows() == [[1, 2], [2, 2]]


# ------------------------------------------------------------ rater names
def test_default_rater_names():
    assert Ratings.from_rows([[1] * 5]).raters == ("A", "B", "C", "D", "E")
    assert Ratings.from_rows([list(range(26))]).raters[-1] == "Z"
    many = Ratings.from_rows(np.zeros((2, 30)))
    assert many.raters[:3] == ("R1", "R2", "R3") and many.raters[-1] == "R30"


def test_given_rater_and_item_names():
    r = Ratings.from_rows([["x", "y"], ["y", "y"]], raters=["ann", "bob"], items=["s1", "s2"])
    assert r.raters == ("ann", "bob") and tuple(r.items) == ("s1", "s2")
    assert r.rater_index("bob") == 1 and r.rater_index(0) == 0 and r.rater_index(-1) == 1


# -------------------------------------------------------------- from_long
def test_from_long_orders_by_first_appearance_and_fills_missing():
    records = [("s2", "bob", "N"), ("s1", "ann", "P"), ("s1", "bob", "P"), ("s2", "cy", "G")]
    r = Ratings.from_long(records)
    assert r.raters == ("bob", "ann", "cy")
    assert tuple(r.items) == ("s2", "s1")
    assert r.rows() == [["N", None, "G"], ["P", "P", None]]


def test_from_long_with_declared_orders_and_categories():
    records = [(2, "b", "x"), (1, "a", "y"), (1, "b", "x"), (2, "a", "x")]
    r = Ratings.from_long(records, categories=["y", "x"], raters=["a", "b"], items=[1, 2])
    assert r.raters == ("a", "b") and tuple(r.items) == (1, 2) and r.categories == ("y", "x")
    assert r.rows() == [["y", "x"], ["x", "x"]]
    with pytest.raises(AgreementError, match=r"record 1: rater 'c' is not among the declared raters"):
        Ratings.from_long([(1, "c", "x")], raters=["a", "b"])
    with pytest.raises(AgreementError, match=r"record 1: item 9 is not among the declared items"):
        Ratings.from_long([(9, "a", "x")], items=[1, 2])


def test_from_long_duplicates():
    # the same label twice is harmless; two different labels are an error naming record, item, rater
    same = Ratings.from_long([(1, "a", "x"), (1, "b", "y"), (1, "a", "x")])
    assert same.rows() == [["x", "y"]]
    with pytest.raises(
        AgreementError, match=r"record 3: item 1 was labelled twice by rater 'a' \('x' and 'z'\)"
    ):
        Ratings.from_long([(1, "a", "x"), (1, "b", "y"), (1, "a", "z")])
    # a missing label does not conflict with a real one
    filled = Ratings.from_long([(1, "a", None), (1, "b", "y"), (1, "a", "x")])
    assert filled.rows() == [["x", "y"]]


def test_from_long_equals_from_rows_on_the_sentiment_data():
    records = [
        (i + 1, rater, label) for i, row in enumerate(SENTIMENT_ROWS) for rater, label in zip("ABC", row)
    ]
    assert Ratings.from_long(records, categories=["G", "N", "P"]) == datasets.sentiment()


# --------------------------------------------------------------- from_csv
def test_from_csv_wide_with_item_column(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("item,ann,bob,cy\ns1,P,P,\ns2,N,,N\ns3,G,P,G\n")
    r = Ratings.from_csv(path)
    assert r.raters == ("ann", "bob", "cy")
    assert tuple(r.items) == ("s1", "s2", "s3")
    assert r.rows() == [["P", "P", None], ["N", None, "N"], ["G", "P", "G"]]


def test_from_csv_wide_without_item_column(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("A,B,C\n" + "\n".join(",".join(row) for row in SENTIMENT_ROWS) + "\n")
    r = Ratings.from_csv(path, categories=["G", "N", "P"])
    assert r == datasets.sentiment()
    assert fleiss_kappa(r).exact.kappa == fleiss_kappa(datasets.sentiment()).exact.kappa


def test_from_csv_long_with_and_without_header(tmp_path):
    body = "1,A,P\n1,B,N\n2,A,N\n2,B,N\n3,B,G\n"
    with_header = tmp_path / "long1.csv"
    with_header.write_text("item,rater,label\n" + body)
    without = tmp_path / "long2.csv"
    without.write_text(body)
    a = Ratings.from_csv(with_header, format="long")
    b = Ratings.from_csv(without, format="long")
    assert a == b
    assert a.raters == ("A", "B") and tuple(a.items) == ("1", "2", "3")
    assert a.rows() == [["P", "N"], ["N", "N"], [None, "G"]]


def test_from_csv_numeric_labels_become_numbers(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("r1,r2\n1,2\n3,\n10,10\n")
    r = Ratings.from_csv(path)
    assert r.categories == (1, 2, 3, 10)  # numeric order, not text order ("10" < "2")
    assert r.rows() == [[1, 2], [3, None], [10, 10]]
    assert krippendorff_alpha(r, "interval").defined
    floats = tmp_path / "floats.csv"
    floats.write_text("r1,r2\n0.5,1\n1,1\n")
    assert Ratings.from_csv(floats).categories == (0.5, 1)
    long = tmp_path / "long.csv"
    long.write_text("item,rater,label\n1,a,4\n1,b,5\n2,a,5\n2,b,5\n")
    assert Ratings.from_csv(long, format="long").categories == (4, 5)


def test_from_csv_skips_blank_lines_and_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeffA,B\n\nP,N\n,\nN,N\n".encode("utf-8"))
    r = Ratings.from_csv(path)
    assert r.raters == ("A", "B")
    assert r.rows() == [["P", "N"], ["N", "N"]]


# -------------------------------------------------------- table behaviour
def test_counts_and_codes():
    r = datasets.sentiment_missing()
    counts = r.counts()
    assert counts.shape == (10, 3)
    np.testing.assert_array_equal(counts.sum(axis=1), [3, 3, 2, 3, 3, 3, 3, 2, 3, 3])
    # counts agree with a direct tally of rows()
    rows = r.rows()
    for i, row in enumerate(rows):
        assert counts[i].tolist() == [row.count(c) for c in r.categories]
    assert (r.codes == -1).sum() == 2


def test_table_is_immutable_and_from_rows_passes_ratings_through():
    r = datasets.sentiment()
    assert Ratings.from_rows(r) is r
    with pytest.raises(ValueError):
        r._codes[0, 0] = 0
    r.codes[0, 0] = 0  # a copy
    assert r.rows()[0][0] == "P"


def test_subset():
    r = datasets.sentiment()
    s = r.subset(items=[0, 5, 9], raters=["C", "A"])
    assert s.raters == ("C", "A")
    assert s.rows() == [["P", "P"], ["G", "G"], ["G", "G"]]
    assert s.categories == r.categories
    m = r.subset(items=np.arange(10) < 2)
    assert m.rows() == SENTIMENT_ROWS[:2]


def test_repr_is_readable():
    text = repr(datasets.sentiment_missing())
    assert "10 items x 3 raters" in text and "28 ratings" in text and "2 missing" in text


# ---------------------------------------------------------- round trips
labels = st.one_of(st.integers(-5, 5), st.sampled_from(["P", "N", "G", "neutral", "x y"]))


@settings(max_examples=150)
@given(
    st.integers(2, 6).flatmap(
        lambda w: st.lists(
            st.lists(st.one_of(labels, st.none()), min_size=w, max_size=w), min_size=1, max_size=12
        )
    )
)
def test_rows_round_trip(table):
    r = Ratings.from_rows(table)
    assert r.rows() == table
    assert r.n_ratings == sum(v is not None for row in table for v in row)
    again = Ratings.from_rows(r.rows(), categories=r.categories)
    assert again == r


@settings(max_examples=200)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=10).filter(lambda s: s[1] >= 2),
        elements=st.one_of(
            st.integers(-3, 40).map(float), st.just(np.nan), st.sampled_from([0.25, 2.5, 1e6])
        ),
    ),
    st.sampled_from(["float", "int-if-possible"]),
)
def test_numeric_encoder_matches_the_object_path(arr, kind):
    """The whole-number encoder (a speed special case) and pandas.factorize give the table the list path gives."""
    if kind == "int-if-possible" and not np.isnan(arr).any() and (arr == np.round(arr)).all():
        arr = arr.astype(np.int64)
    as_list = [[None if isinstance(v, float) and math.isnan(v) else v for v in row] for row in arr.tolist()]
    fast = Ratings.from_rows(arr)
    slow = Ratings.from_rows(as_list)
    pairs = [(a, b) for a in range(arr.shape[1]) for b in range(arr.shape[1])]
    # counted from the raters' columns, each encoded on its own, before the whole table is
    np.testing.assert_array_equal(fast.pair_tables(pairs), slow.pair_tables(pairs))
    np.testing.assert_array_equal(fast.rater_counts(), slow.rater_counts())
    assert fast == slow
    assert fast.rows() == slow.rows()
    if fast.n_categories:
        declared = list(fast.categories)[::-1] + [99.5]
        assert Ratings.from_rows(arr, categories=declared) == Ratings.from_rows(as_list, categories=declared)


@settings(max_examples=150)
@given(
    st.integers(1, 12).flatmap(
        lambda k: st.tuples(
            st.just(k),
            hnp.arrays(
                np.intp,
                st.tuples(st.integers(1, 40), st.integers(2, 7)),
                elements=st.integers(-1, k - 1),
            ),
        )
    )
)
def test_count_patterns_special_case_matches_the_plain_path(case):
    """The one-integer-per-item count patterns (a speed special case) against the plain path and a tally."""
    k, codes = case
    fast, plain = _count_patterns(codes, k), _count_patterns(codes, k, plain=True)
    tally = np.array([[np.count_nonzero(row == c) for c in range(k)] for row in codes])
    for p in (fast, plain):
        np.testing.assert_array_equal(p.counts[p.item_pattern], tally)
        assert len(np.unique(p.counts, axis=0)) == len(p.counts)  # each row once
        np.testing.assert_array_equal(p.frequency, np.bincount(p.item_pattern, minlength=len(p.counts)))
    assert p.counts.dtype == p.frequency.dtype == np.int64
    assert len(fast.counts) == len(plain.counts)


# ==================================================== two raters from a table
def test_from_agreement_table_gives_back_the_table():
    from iaa_teach import cohen_kappa

    for name, table in datasets.FEINSTEIN_CICCHETTI.items():
        r = datasets.feinstein_cicchetti(name)
        assert r.shape == (100, 2) and r.raters == ("A", "B")
        assert cohen_kappa(r).table.tolist() == [list(row) for row in table]


@pytest.mark.parametrize(
    "table, categories",
    [
        ([[1, 2]], ["y", "n"]),
        ([[1, -1], [0, 2]], ["y", "n"]),
        ([[0, 0], [0, 0]], ["y", "n"]),
        ([[1.5, 0], [0, 1]], ["y", "n"]),
        ("ab", ["y", "n"]),
        ([[1, 0], [0, 1]], "yn"),
    ],
)
def test_from_agreement_table_rejects_what_is_no_table_of_counts(table, categories):
    with pytest.raises(AgreementError, match="table must be"):
        datasets.from_agreement_table(table, categories)


def test_feinstein_cicchetti_names_its_tables():
    with pytest.raises(AgreementError, match="name"):
        datasets.feinstein_cicchetti("e")
