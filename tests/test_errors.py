"""Bad input: an AgreementError (a ValueError) whose message names the problem and where.

Also: the caller's data is never modified, whatever the metric.
"""

from __future__ import annotations

import copy
import math
import re

import numpy as np
import pytest

import iaa_teach
from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_cohen,
)

METRICS = [
    pytest.param(lambda d: cohen_kappa(d, 0, 1), id="cohen_kappa"),
    pytest.param(pairwise_cohen, id="pairwise_cohen"),
    pytest.param(fleiss_kappa, id="fleiss_kappa"),
    pytest.param(krippendorff_alpha, id="krippendorff_alpha"),
]


def raises(match: str):
    """pytest.raises for AgreementError; the match is a regular expression searched in the message."""
    return pytest.raises(AgreementError, match=match)


def test_agreement_error_is_a_value_error():
    assert issubclass(AgreementError, ValueError)
    assert iaa_teach.AgreementError is AgreementError
    with pytest.raises(ValueError):
        fleiss_kappa([["a"], ["b"]])


# ------------------------------------------------------------ ragged rows
def test_ragged_rows_name_the_row():
    with raises(r"ragged.*row 3 has 1 labels? but row 1 has 3"):
        Ratings.from_rows([["a", "b", "a"], ["a", "b", "b"], ["a"]])


@pytest.mark.parametrize("metric", METRICS)
def test_ragged_rows_through_every_metric(metric):
    with raises(r"ragged.*row 2"):
        metric([["P", "N"], ["P", "N", "G"], ["G", "G"]])


def test_ragged_csv_names_the_line(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("A,B,C\nP,N,P\nP,N\n")
    with raises(r"ragged\.csv, line 3: 2 cells but the header has 3 columns"):
        Ratings.from_csv(path)


def test_long_csv_with_wrong_columns_names_the_line(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("item,rater,label\n1,A,P\n1,B\n")
    with raises(r"long\.csv, line 3: expected 3 columns"):
        Ratings.from_csv(path, format="long")


# ------------------------------------------------------- too few raters
@pytest.mark.parametrize(
    "data",
    [
        pytest.param([["a"], ["b"]], id="list"),
        pytest.param(np.array([[1.0], [2.0]]), id="numpy"),
        pytest.param(np.array([["a"], ["b"]], dtype=object), id="object"),
    ],
)
def test_fewer_than_two_raters(data):
    with raises(r"at least 2 raters.*1 column"):
        Ratings.from_rows(data)
    with raises(r"at least 2 raters"):
        krippendorff_alpha(data)


def test_one_rater_in_long_records():
    with raises(r"at least 2 raters"):
        Ratings.from_long([(1, "ann", "x"), (2, "ann", "y")])


# --------------------------------------------- no item with two ratings
@pytest.mark.parametrize("metric", [fleiss_kappa, krippendorff_alpha])
@pytest.mark.parametrize(
    "data",
    [
        pytest.param([["a", None], [None, "b"]], id="list"),
        pytest.param(np.array([[1.0, np.nan], [np.nan, 2.0]]), id="numpy"),
        pytest.param([[None, None], ["", None]], id="all-missing"),
    ],
)
def test_no_item_with_two_ratings(metric, data):
    with raises(r"no item has 2 or more ratings"):
        metric(data)


def test_no_item_with_two_ratings_in_bootstrap():
    with raises(r"no item has 2 or more ratings"):
        bootstrap_ci(krippendorff_alpha, [["a", None], [None, "b"]], n_boot=10, seed=0)


# ----------------------------------------------- labels outside categories
def test_label_outside_categories_names_label_row_and_rater():
    with raises(r"label 'z' at row 2, rater bob is not one of the declared categories \['a', 'b'\]"):
        Ratings.from_rows([["a", "b"], ["a", "z"]], raters=["ann", "bob"], categories=["a", "b"])


@pytest.mark.parametrize(
    "arr, label",
    [
        pytest.param(np.array([[1, 2], [1, 7]]), "7", id="int"),
        pytest.param(np.array([[1.0, 2.0], [np.nan, 7.5]]), "7.5", id="float"),
        pytest.param(np.array([[1, 2], [1, 10**9]]), str(10**9), id="wide-range"),
    ],
)
def test_label_outside_categories_numpy(arr, label):
    with raises(
        rf"label {re.escape(label)} at row 2, rater bob is not one of the declared categories \[1, 2\]"
    ):
        Ratings.from_rows(arr, raters=["ann", "bob"], categories=[1, 2])
    with raises(rf"label {re.escape(label)} at row 2, rater B "):  # default rater names
        Ratings.from_rows(arr, categories=[1, 2])


def test_label_outside_categories_in_long_records_and_csv(tmp_path):
    with raises(r"label 'z' at row 2, rater bob"):
        Ratings.from_long(
            [(1, "ann", "a"), (1, "bob", "b"), (2, "ann", "a"), (2, "bob", "z")], categories=["a", "b"]
        )
    path = tmp_path / "wide.csv"
    path.write_text("ann,bob\na,b\na,z\n")
    with raises(r"label 'z' at row 2, rater bob"):
        Ratings.from_csv(path, categories=["a", "b"])


def test_unhashable_label_names_where():
    with raises(r"label \['x'\] at row 2, rater A"):
        Ratings.from_rows([["a", "b"], [["x"], "b"]])
    with raises(r"label \['x'\] at row 2, rater A is not a single label"):
        Ratings.from_rows([["a", "b"], [["x"], "b"]], categories=["a", "b"])


# ----------------------------------------------------- raters that don't exist
@pytest.mark.parametrize("bad", ["Z", "a", 3, -4])
def test_rater_that_does_not_exist(bad):
    r = datasets.sentiment()
    pattern = (
        r"no rater named 'Z'.*\['A', 'B', 'C'\]"
        if bad == "Z"
        else (r"no rater named 'a'" if bad == "a" else rf"rater index {bad} is out of range.*3 raters")
    )
    with raises(pattern):
        cohen_kappa(r, "A", bad)
    with raises(pattern):
        bootstrap_ci(cohen_kappa, r, n_boot=5, a=bad, b="A")
    with raises(pattern):
        r.subset(raters=["A", bad])


def test_negative_index_counts_from_the_end():
    r = datasets.sentiment()
    assert cohen_kappa(r, -1, 0).exact.kappa == cohen_kappa(r, "C", "A").exact.kappa


# ------------------------------------------- same rater twice, never co-rated
@pytest.mark.parametrize("a, b", [("A", "A"), (0, 0), ("B", 1), (-1, "C")])
def test_same_rater_twice(a, b):
    r = datasets.sentiment()
    with raises(r"two different raters, but both are '[ABC]'"):
        cohen_kappa(r, a, b)


def test_raters_who_never_rated_the_same_item():
    """Undefined, not bad input: NaN with the reason, and pairwise_cohen keeps going."""
    data = [["P", None, "P"], ["N", None, "N"], [None, "P", "P"], [None, "N", "G"]]
    res = cohen_kappa(data, "A", "B")
    assert math.isnan(res.kappa) and math.isnan(res.p_o) and res.n_items == 0 and res.n_dropped == 4
    assert "raters 'A' and 'B' never rated the same item" in res.reason
    assert res.exact.kappa is None and res.exact.p_o is None
    pairs = pairwise_cohen(data)
    assert math.isnan(pairs["A", "B"].kappa) and "never rated the same item" in pairs["A", "B"].reason
    assert pairs["A", "C"].defined and pairs["B", "C"].defined
    assert math.isnan(pairs.mean_kappa) and pairs.reason == "kappa is undefined for A vs B"
    # the other pairs are fine
    assert cohen_kappa(data, "A", "C").n_items == 2
    assert cohen_kappa(data, "B", "C").n_items == 2


# --------------------------------------------------- interval / ratio levels
@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_non_numeric_categories_at_interval_or_ratio(level):
    with raises(rf"level '{level}' needs numeric categories, but category 'G' is not a number"):
        krippendorff_alpha(datasets.sentiment(), level)
    with raises(rf"level '{level}' needs numeric categories"):
        bootstrap_ci(krippendorff_alpha, datasets.sentiment(), n_boot=5, level=level)
    # ordinal and nominal are fine on the same labels
    assert krippendorff_alpha(datasets.sentiment(), "ordinal").defined


def test_numeric_strings_are_not_numbers_and_bools_are_not_either():
    with raises(r"category '1' is not a number"):
        krippendorff_alpha([["1", "2"], ["2", "2"]], "interval")
    with raises(r"category False is not a number"):
        krippendorff_alpha(np.array([[True, False], [True, True]]), "interval")


def test_decimal_commas_at_the_interval_level_are_named():
    """A semicolon-separated file from a European spreadsheet holds 1,5 and 2,0: the error said to use the
    ordinal level (which would sort the text "10,0" before "2,0"); it names the decimal comma."""
    with raises(r"category '1,5' is not a number; a decimal comma\? write the numbers with a decimal point"):
        krippendorff_alpha([["1,5", "2,0"], ["2,0", "2,0"], ["3,5", "1,5"]], "interval")
    with raises(r"category 'G' is not a number; use level='ordinal' for ordered labels"):
        krippendorff_alpha(datasets.sentiment(), "interval")


def test_ratio_needs_non_negative_values():
    with raises(r"level 'ratio' needs non-negative values.*-1"):
        krippendorff_alpha([[-1, 2], [2, 2], [1, 1]], "ratio")
    assert krippendorff_alpha([[-1, 2], [2, 2], [1, 1]], "interval").defined


# ------------------------------------------------------------------- empty
@pytest.mark.parametrize(
    "data",
    [
        pytest.param([], id="list"),
        pytest.param(np.empty((0, 3)), id="numpy"),
        pytest.param(np.empty((0, 3), dtype=object), id="object"),
    ],
)
def test_empty_data(data):
    with raises(r"empty"):
        Ratings.from_rows(data)
    with raises(r"empty"):
        fleiss_kappa(data)


def test_empty_long_records_and_csv(tmp_path):
    with raises(r"no records: the ratings table is empty"):
        Ratings.from_long([])
    empty = tmp_path / "empty.csv"
    empty.write_text("\n\n")
    with raises(r"empty\.csv: the file is empty"):
        Ratings.from_csv(empty)
    header_only = tmp_path / "header.csv"
    header_only.write_text("A,B\n")
    with raises(r"header\.csv: the file has a header but no items"):
        Ratings.from_csv(header_only)


def test_not_a_table():
    with raises(r"expected a table"):
        Ratings.from_rows("PNG")
    with raises(r"expected a 2-D table.*shape \(3,\)"):
        Ratings.from_rows(np.array([1, 2, 3]))
    with raises(r"row 2 is not a list of labels"):
        Ratings.from_rows([["a", "b"], 5])


# ------------------------------------------------- bad options and names
@pytest.mark.parametrize("weights", ["cubic", "Linear", 2, True])
def test_bad_weights(weights):
    r = datasets.sentiment()
    pattern = rf"weights must be one of None, 'linear', 'quadratic'; got {re.escape(repr(weights))}$"
    with raises(pattern):
        cohen_kappa(r, "A", "B", weights=weights)
    with raises(pattern):
        pairwise_cohen(r, weights=weights)
    with raises(pattern):
        bootstrap_ci(cohen_kappa, r, n_boot=5, weights=weights)


@pytest.mark.parametrize("level", ["nominl", "Nominal", None, "quadratic"])
def test_bad_level(level):
    with raises(
        rf"level must be one of 'nominal', 'ordinal', 'interval', 'ratio'; got {re.escape(repr(level))}$"
    ):
        krippendorff_alpha(datasets.sentiment(), level)
    with raises(r"level must be one of"):
        bootstrap_ci(krippendorff_alpha, datasets.sentiment(), n_boot=5, level=level)


@pytest.mark.parametrize("chance", ["pool", "fleiss", None])
def test_bad_chance(chance):
    with raises(rf"chance must be one of 'pooled', 'item_mean'; got {re.escape(repr(chance))}$"):
        fleiss_kappa(datasets.sentiment(), chance=chance)
    with raises(r"chance must be one of 'pooled', 'item_mean'; got"):
        bootstrap_ci(fleiss_kappa, datasets.sentiment(), n_boot=5, chance=chance)


def test_bad_bootstrap_options():
    r = datasets.sentiment()
    with raises(r"confidence must be above 0 and below 1, got 95"):
        bootstrap_ci(fleiss_kappa, r, confidence=95)
    with raises(r"n_boot must be at least 1, got 0"):
        bootstrap_ci(fleiss_kappa, r, n_boot=0)
    with raises(r"n_boot must be a whole number, got 'abc'"):
        bootstrap_ci(fleiss_kappa, r, n_boot="abc")
    with raises(
        r"metric must be one of 'cohen_kappa', 'fleiss_kappa', 'krippendorff_alpha', .*'gwet_ac'; "
        r"got 'pairwise_cohen'"
    ):
        bootstrap_ci(pairwise_cohen, r)
    with raises(r"metric must be one of .*; got 'accuracy'"):
        bootstrap_ci("accuracy", r)
    with raises(
        r"fleiss_kappa takes no argument\(s\) \['level'\]; it takes \['chance', 'population', 'weights'\]"
    ):
        bootstrap_ci(fleiss_kappa, r, level="ordinal")


def test_bad_names_and_duplicates():
    with raises(r"rater names must be unique, got \['a', 'a'\]"):
        Ratings.from_rows([[1, 2]], raters=["a", "a"])
    with raises(r"3 rater names given for 2 columns"):
        Ratings.from_rows([[1, 2]], raters=["a", "b", "c"])
    with raises(r"categories must be unique, got \[1, 2, 2\]"):
        Ratings.from_rows([[1, 2]], categories=[1, 2, 2])
    with raises(r"record 2: item 1 was labelled twice by rater 'a' \('x' and 'y'\)"):
        Ratings.from_long([(1, "a", "x"), (1, "a", "y"), (1, "b", "x")])
    with raises(r"record 2 should be \(item, rater, label\)"):
        Ratings.from_long([(1, "a", "x"), (1, "a")])
    with raises(r"format must be one of 'wide', 'long'; got 'tall'"):
        Ratings.from_csv(__file__, format="tall")


# -------------------------------------------------- inputs are never modified
def _declared(data):
    """Text labels need their order declared for weights and the ordinal level (numbers have one)."""
    if isinstance(data, np.ndarray) and data.dtype.kind in "iuf":
        return data
    return Ratings.from_rows(data, categories=["G", "N", "P"])


def _inputs():
    rows = [["P", "P", None], ["N", "", "N"], ["G", "G", "G"], [float("nan"), "P", "N"], ["P", "N", "P"]]
    floats = np.array([[1.0, 1.0, np.nan], [2.0, 2.0, 2.0], [3.0, np.nan, 1.0], [1.0, 3.0, 1.0]])
    ints = np.array([[0, 1, 1], [1, 1, 1], [2, 0, 2], [0, 0, 1]], dtype=np.intp)
    objects = np.array([["P", None, "N"], ["N", "N", "N"], ["G", "P", ""], ["P", "P", "P"]], dtype=object)
    wide_ints = np.array([[10**9, 1, 1], [1, 1, 10**9], [10**9, 10**9, 1]])
    return {"list": rows, "floats": floats, "ints": ints, "objects": objects, "wide-ints": wide_ints}


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return (
            isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and a.flags.writeable
            and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        )
    return repr(a) == repr(b)  # nested lists; repr sees nan, None and "" apart


@pytest.mark.parametrize("name", list(_inputs()))
def test_inputs_are_never_modified(name):
    data = _inputs()[name]
    before = copy.deepcopy(data)
    calls = [
        lambda: Ratings.from_rows(data),
        lambda: Ratings.from_rows(data).rows(),
        lambda: cohen_kappa(data, 0, 1),
        lambda: cohen_kappa(_declared(data), 0, 2, weights="quadratic"),
        lambda: pairwise_cohen(_declared(data), weights="linear"),
        lambda: fleiss_kappa(data),
        lambda: fleiss_kappa(data, chance="item_mean"),
        lambda: krippendorff_alpha(data),
        lambda: krippendorff_alpha(_declared(data), "ordinal"),
        lambda: bootstrap_ci(krippendorff_alpha, data, n_boot=20, seed=0),
        lambda: bootstrap_ci(cohen_kappa, _declared(data), n_boot=20, seed=0, weights="linear"),
        lambda: bootstrap_ci(fleiss_kappa, data, n_boot=20, seed=0, chance="item_mean"),
    ]
    if name in ("floats", "ints", "wide-ints"):
        calls += [lambda: krippendorff_alpha(data, "interval"), lambda: krippendorff_alpha(data, "ratio")]
    for i, call in enumerate(calls):
        call()
        assert _same(data, before), f"call {i} modified the {name} input"


def test_long_records_and_categories_are_never_modified():
    records = [
        (1, "ann", "x"),
        (1, "bob", None),
        (2, "ann", "y"),
        (2, "bob", "y"),
        (3, "ann", "x"),
        (3, "bob", "x"),
    ]
    categories = ["y", "x"]
    before = copy.deepcopy((records, categories))
    r = Ratings.from_long(records, categories=categories)
    fleiss_kappa(r)
    krippendorff_alpha(r, "ordinal")
    assert (records, categories) == before


def test_results_are_read_only():
    res = krippendorff_alpha(datasets.sentiment())
    with pytest.raises(ValueError):
        res.coincidences[0, 0] = 99
    with pytest.raises(AttributeError):
        res.alpha = 1.0
    with pytest.raises(AttributeError):
        res.exact.alpha = 1
    r = datasets.sentiment()
    codes = r.codes
    codes[0, 0] = 0  # a fresh array each time: the table itself is unchanged
    assert r.rows()[0][0] == "P" and r.codes[0, 0] == r.categories.index("P") == 2


@pytest.mark.parametrize(
    "metric", ["fleiss_kappa", "gwet_ac", "brennan_prediger", "conger_kappa", "scott_pi"]
)
def test_named_family_weights_need_a_declared_order(metric):
    """Weights over the category order: text labels must come with categories=[...] in their order."""
    rows = [["lo", "hi"], ["mid", "hi"], ["lo", "lo"]]
    fn = getattr(iaa_teach, metric)
    with raises(
        r"weights='linear' uses the order of the categories, but \['hi', 'lo', 'mid'\] are only sorted"
    ):
        fn(Ratings.from_rows(rows), weights="linear")
    declared = Ratings.from_rows(rows, categories=["lo", "mid", "hi"])
    assert math.isfinite(float(fn(declared, weights="linear")))
    with raises(r"uses the order of the categories"):
        bootstrap_ci(fn, Ratings.from_rows(rows), n_boot=5, weights="linear")
