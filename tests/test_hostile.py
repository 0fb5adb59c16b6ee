"""Hostile input (issue 9): every file and value either works or gets a clear error, and nothing hangs.

Grouped by the issue's classes of failure:

1. tracebacks: bad values reach the user as an AgreementError naming the argument (never
   TypeError, IndexError, UnicodeDecodeError, OverflowError, MemoryError, matplotlib errors);
2. hangs and memory: devices, FIFOs, limits checked before anything large is allocated;
3. silent or wrong results: missing markers, stripping, True beside 1, declared order,
   honest numbers, long files read as wide;
4. user text escaped wherever it lands (HTML, Markdown, LaTeX, matplotlib, the terminal);
5. files: worksheets stay in their directory; Ratings cannot be changed;
6. the command line: exit code 2 and one line naming the file, line and column; a few cases
   as real subprocesses (/dev/zero, a FIFO, an encoding error);
7. widgets and exercises.
"""

from __future__ import annotations

import html.parser
import io
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    cohen_kappa,
    datasets,
    explain,
    fleiss_kappa,
    fmt,
    interpret,
    krippendorff_alpha,
    pairwise_cohen,
    plots,
    ratings_table,
)
from iaa_teach._markup import html_escape, md_escape, mpl_escape, terminal_escape
from iaa_teach._reading import parse_categories
from iaa_teach._validation import LIMITS, MAX_CATEGORIES, MAX_PAIRS
from iaa_teach.cli import main
from iaa_teach.exercises import make_question, worksheet
from iaa_teach.exercises._answers import parse_answer
from iaa_teach.exercises._mistakes import mistake_info
from iaa_teach.exercises._worksheet import worksheet_html
from iaa_teach.widgets import (
    CoverageExplorer,
    MissingDataExplorer,
    ParadoxExplorer,
    Quiz,
    TableExplorer,
    WeightsExplorer,
)

pytestmark = pytest.mark.filterwarnings("ignore:Glyph .* missing from font:UserWarning")

ROOT = Path(__file__).resolve().parents[1]
SENTIMENT = datasets.sentiment()
MARKUP = '<img src=x onerror="alert(1)">'
MATHTEXT = "$\\frac{$"


def raises(match: str):
    return pytest.raises(AgreementError, match=match)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def cli_error(capsys, *argv, words=()):
    code, out, err = cli(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.startswith("iaa-teach: error: ") and err.count("\n") == 1, err  # one line, no traceback
    for word in words:
        assert word in err, (word, err)
    return err


# ==================================================== 1. tracebacks become clear errors
API_ERRORS = [
    ("from_csv(True)", lambda: Ratings.from_csv(True), r"path must be a file path .*got bool"),
    ("from_csv(1)", lambda: Ratings.from_csv(1), r"path must be a file path .*got int"),
    ("from_csv(None)", lambda: Ratings.from_csv(None), r"path must be a file path"),
    ("from_csv(StringIO)", lambda: Ratings.from_csv(io.StringIO("A,B\nx,y\n")), r"from_dataframe"),
    ("from_csv(DataFrame)", lambda: Ratings.from_csv(pd.DataFrame({"A": [1]})), r"path must be a file path"),
    ("from_csv('')", lambda: Ratings.from_csv(""), r"path must name a file"),
    ("from_csv(NUL in path)", lambda: Ratings.from_csv("a\x00b"), r"path must name a file"),
    (
        "from_csv(format=)",
        lambda: Ratings.from_csv("x.csv", format="tall"),
        r"format must be one of 'wide', 'long'",
    ),
    (
        "from_csv(encoding=bogus)",
        lambda: Ratings.from_csv(__file__, encoding="klingon"),
        r"encoding 'klingon' is not known",
    ),
    ("from_csv(encoding=5)", lambda: Ratings.from_csv(__file__, encoding=5), r"encoding must be a string"),
    ("from_csv(sep=two chars)", lambda: Ratings.from_csv(__file__, sep=",,"), r"sep must be one character"),
    ("from_csv(sep=quote)", lambda: Ratings.from_csv(__file__, sep='"'), r"sep must be one character"),
    ("from_csv(max_bytes=0)", lambda: Ratings.from_csv(__file__, max_bytes=0), r"max_bytes must be"),
    (
        "from_csv(max_field='x')",
        lambda: Ratings.from_csv(__file__, max_field="x"),
        r"max_field must be a whole",
    ),
    (
        "from_csv(categories='GNP')",
        lambda: Ratings.from_csv(__file__, categories="GNP"),
        r"categories must be a list",
    ),
    ("from_rows(str)", lambda: Ratings.from_rows("PNG"), r"expected a table"),
    ("from_rows(dict)", lambda: Ratings.from_rows({"A": [1], "B": [2]}), r"from_dataframe"),
    ("from_rows(int)", lambda: Ratings.from_rows(5), r"expected a table"),
    ("from_rows(3-D array)", lambda: Ratings.from_rows(np.zeros((2, 2, 2))), r"2-D table"),
    (
        "from_rows(categories=str)",
        lambda: Ratings.from_rows([["a", "b"]], categories="ab"),
        r"categories must be a list",
    ),
    (
        "from_rows(categories=set)",
        lambda: Ratings.from_rows([["a", "b"]], categories={"a", "b"}),
        r"categories must be a list",
    ),
    (
        "from_rows(categories=[None])",
        lambda: Ratings.from_rows([["a", "b"]], categories=["a", None]),
        r"categories\[1\] = None is empty or a missing-value marker",
    ),
    (
        "from_rows(categories=[''])",
        lambda: Ratings.from_rows([["a", "b"]], categories=["a", ""]),
        r"categories\[1\] = '' is empty",
    ),
    (
        "from_rows(categories=['NA'])",
        lambda: Ratings.from_rows([["a", "b"]], categories=["NA", "a"]),
        r"categories\[0\] = 'NA' is empty or a missing-value marker",
    ),
    (
        "from_rows(categories=[[1]])",
        lambda: Ratings.from_rows([["a", "b"]], categories=[[1], "a"]),
        r"categories\[0\] = \[1\] is not a single label",
    ),
    (
        "from_rows(categories dup after strip)",
        lambda: Ratings.from_rows([["a", "b"]], categories=["a", " a", "b"]),
        r"categories must be unique.*'a' is categories\[0\] and categories\[1\]",
    ),
    (
        "from_rows(raters='AB')",
        lambda: Ratings.from_rows([["a", "b"]], raters="AB"),
        r"raters must be a list",
    ),
    (
        "from_rows(raters with '')",
        lambda: Ratings.from_rows([["a", "b"]], raters=["A", " "]),
        r"rater name of column 2 is empty",
    ),
    (
        "from_rows(raters with None)",
        lambda: Ratings.from_rows([["a", "b"]], raters=[None, "B"]),
        r"rater name of column 1 is empty",
    ),
    (
        "from_rows(raters with a list)",
        lambda: Ratings.from_rows([["a", "b"]], raters=[["A"], "B"]),
        r"is not a single name",
    ),
    (
        "from_rows(duplicate items)",
        lambda: Ratings.from_rows([["a", "b"], ["a", "a"]], items=["s1", "s1"]),
        r"item ids must be unique: 's1' is item 1 and item 2",
    ),
    (
        "from_rows(unhashable item)",
        lambda: Ratings.from_rows([["a", "b"]], items=[["s1"]]),
        r"not a single id",
    ),
    (
        "from_rows(max_categories=0)",
        lambda: Ratings.from_rows([["a", "b"]], max_categories=0),
        r"max_categories must be",
    ),
    (
        "from_codes(ragged)",
        lambda: Ratings.from_codes([[0, 1], [0]], ["a", "b"]),
        r"codes must be a 2-D array",
    ),
    (
        "from_codes(floats)",
        lambda: Ratings.from_codes([[0.5, 1]], ["a", "b"]),
        r"codes must be a 2-D array of integers",
    ),
    (
        "from_codes(out of range)",
        lambda: Ratings.from_codes([[0, 5]], ["a", "b"]),
        r"codes must lie in -1..1",
    ),
    (
        "from_codes(duplicate categories)",
        lambda: Ratings.from_codes([[0, 1]], ["a", "a"]),
        r"categories must be unique",
    ),
    ("from_long(str)", lambda: Ratings.from_long("abc"), r"records must be a list"),
    (
        "from_long(missing item)",
        lambda: Ratings.from_long([(None, "a", "x"), (1, "b", "y")]),
        r"record 1: the item is missing",
    ),
    ("from_long(unhashable rater)", lambda: Ratings.from_long([(1, ["a"], "x")]), r"record 1 should be"),
    (
        "from_dataframe(list)",
        lambda: Ratings.from_dataframe([[1, 2]]),
        r"from_dataframe takes a pandas DataFrame",
    ),
    (
        "from_dataframe(duck)",
        lambda: Ratings.from_dataframe(type("DataFrame", (), {"iloc": 0, "columns": 0})()),
        r"from_dataframe takes a pandas DataFrame, got DataFrame",
    ),
    ("from_dataframe(empty)", lambda: Ratings.from_dataframe(pd.DataFrame()), r"the ratings table is empty"),
    (
        "from_dataframe(long, 2 columns)",
        lambda: Ratings.from_dataframe(pd.DataFrame({"a": [1], "b": [2]}), "long"),
        r"a long table needs columns",
    ),
    (
        "from_dataframe(format=)",
        lambda: Ratings.from_dataframe(pd.DataFrame({"a": [1]}), "tall"),
        r"format must be one of",
    ),
    (
        "subset([5])",
        lambda: SENTIMENT.subset([50]),
        r"item position 50 is out of range: the table has 10 items",
    ),
    ("subset(['a'])", lambda: SENTIMENT.subset(["a"]), r"items must be item positions"),
    ("subset([1.5])", lambda: SENTIMENT.subset([1.5]), r"items must be item positions"),
    (
        "subset(short mask)",
        lambda: SENTIMENT.subset(np.array([True, False])),
        r"one True/False per item \(10\)",
    ),
    ("subset(empty)", lambda: SENTIMENT.subset([]), r"the selection is empty"),
    ("subset(raters='AB')", lambda: SENTIMENT.subset(raters="AB"), r"raters must be a list"),
    ("subset(raters twice)", lambda: SENTIMENT.subset(raters=["A", "A"]), r"lists a rater twice"),
    ("subset(raters=['Z'])", lambda: SENTIMENT.subset(raters=["Z"]), r"no rater named 'Z'"),
    ("with_label(True, ...)", lambda: SENTIMENT.with_label(True, 0, "P"), r"row must be an item position"),
    (
        "with_label(99, ...)",
        lambda: SENTIMENT.with_label(99, 0, "P"),
        r"row must be an item position from 0 to 9",
    ),
    (
        "with_label(label not a category)",
        lambda: SENTIMENT.with_label(0, 0, "Q"),
        r"label 'Q' is not one of the categories",
    ),
    (
        "with_label(unhashable label)",
        lambda: SENTIMENT.with_label(0, 0, ["P"]),
        r"is not one of the categories",
    ),
    ("with_missing('abc')", lambda: SENTIMENT.with_missing("abc"), r"mask must be a boolean array"),
    (
        "with_missing(ragged)",
        lambda: SENTIMENT.with_missing([[True], [False, True]]),
        r"mask must be a boolean array",
    ),
    ("pair_tables('AB')", lambda: SENTIMENT.pair_tables("AB"), r"pairs must be a list"),
    (
        "pair_tables([('A',)])",
        lambda: SENTIMENT.pair_tables([("A",)]),
        r"pairs must be a list of \(rater, rater\) pairs",
    ),
    ("rater_index(list)", lambda: SENTIMENT.rater_index(["A"]), r"no rater named \['A'\]"),
    ("rater_index(True)", lambda: SENTIMENT.rater_index(True), r"no rater named True"),
    ("cohen_kappa(a=[1])", lambda: cohen_kappa(SENTIMENT, [1], "B"), r"no rater named \[1\]"),
    ("cohen_kappa(a=1.0)", lambda: cohen_kappa(SENTIMENT, 1.0, "B"), r"no rater named 1.0"),
    (
        "pairwise_cohen(max_pairs='x')",
        lambda: pairwise_cohen(SENTIMENT, max_pairs="x"),
        r"max_pairs must be a whole",
    ),
    (
        "bootstrap(n_boot='abc')",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot="abc"),
        r"n_boot must be a whole number, got 'abc'",
    ),
    (
        "bootstrap(n_boot=1.5)",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=1.5),
        r"n_boot must be a whole number",
    ),
    (
        "bootstrap(n_boot=True)",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=True),
        r"n_boot must be a whole number",
    ),
    (
        "bootstrap(seed='abc')",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=5, seed="abc"),
        r"seed must be None, a whole number >= 0 or a numpy.random.Generator",
    ),
    (
        "bootstrap(seed=-1)",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=5, seed=-1),
        r"seed must be None",
    ),
    (
        "bootstrap(seed=1.5)",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=5, seed=1.5),
        r"seed must be None",
    ),
    (
        "bootstrap(confidence='x')",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=5, confidence="x"),
        r"confidence must be a number",
    ),
    (
        "bootstrap(confidence=nan)",
        lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=5, confidence=math.nan),
        r"confidence must be a finite number",
    ),
    ("bootstrap(metric=42)", lambda: bootstrap_ci(42, SENTIMENT), r"metric must be one of"),
    ("bootstrap(max_boot=0)", lambda: bootstrap_ci(fleiss_kappa, SENTIMENT, max_boot=0), r"max_boot must be"),
    (
        "interpret('abc')",
        lambda: interpret("abc"),
        r"interpret takes a coefficient between -1 and 1, got 'abc'",
    ),
    ("interpret(None)", lambda: interpret(None), r"interpret takes a coefficient"),
    ("interpret(True)", lambda: interpret(True), r"interpret takes a coefficient"),
    ("interpret([0.5])", lambda: interpret([0.5]), r"interpret takes a coefficient"),
    ("interpret(1.5)", lambda: interpret(1.5), r"got 1.5"),
    ("interpret(85)", lambda: interpret(85), r"got 85 \(a percentage\? divide it by 100\)"),
    ("interpret(-2)", lambda: interpret(-2), r"got -2"),
    ("interpret(inf)", lambda: interpret(math.inf), r"got inf"),
    ("interpret(10**400)", lambda: interpret(10**400), r"interpret takes a coefficient"),
    ("explain(0.5)", lambda: explain(0.5), r"explain\(\) takes a result"),
    ("explain(style=)", lambda: explain(fleiss_kappa(SENTIMENT), style="long"), r"style must be one of"),
    (
        "explain(items wrong length)",
        lambda: explain(fleiss_kappa(SENTIMENT), items=[1, 2]),
        r"items must give one name per item \(10\)",
    ),
    (
        "explain(items=str)",
        lambda: explain(fleiss_kappa(SENTIMENT), items="abc"),
        r"items must give one name per item",
    ),
    ("ratings_table(caption=5)", lambda: ratings_table(SENTIMENT, caption=5), r"caption must be a string"),
    ("fmt('abc')", lambda: fmt("abc"), r"expected a number, got 'abc'"),
    ("fmt([1])", lambda: fmt([1]), r"expected a number, got \[1\]"),
    ("fmt(inf)", lambda: fmt(math.inf), r"inf is infinite and has no exact value"),
    ("fmt(places='x')", lambda: fmt(0.5, places="x"), r"places must be a whole number"),
    ("simulate(seed='x')", lambda: datasets.simulate(seed="x"), r"seed must be None"),
    ("simulate(n_items='x')", lambda: datasets.simulate(n_items="x"), r"n_items must be a whole number"),
    (
        "simulate(accuracy=2)",
        lambda: datasets.simulate(accuracy=2),
        r"accuracy must be at least 0 and at most 1",
    ),
    (
        "remove_ratings(list)",
        lambda: datasets.remove_ratings([[1, 2]], 0.5),
        r"remove_ratings expects a Ratings",
    ),
    ("remove_ratings(share=2)", lambda: datasets.remove_ratings(SENTIMENT, 2), r"share must be"),
    (
        "remove_ratings(seed=[])",
        lambda: datasets.remove_ratings(SENTIMENT, 0.1, seed=[]),
        r"seed must be None",
    ),
]


@pytest.mark.parametrize("call, match", [pytest.param(c, m, id=i) for i, c, m in API_ERRORS])
def test_bad_arguments_are_agreement_errors(call, match):
    with raises(match):
        call()


PLOT_ERRORS = [
    (
        "agreement_heatmap(alpha)",
        lambda a: plots.agreement_heatmap(a),
        r"agreement_heatmap takes a CohenResult",
    ),
    (
        "item_agreement_bars(None)",
        lambda a: plots.item_agreement_bars(None),
        r"takes a FleissResult, got NoneType",
    ),
    ("kappa_matrix(alpha)", lambda a: plots.kappa_matrix(a), r"kappa_matrix takes a PairwiseCohenResult"),
    (
        "coincidence_heatmap(None)",
        lambda a: plots.coincidence_heatmap(None),
        r"^coincidence_heatmap takes an AlphaResult, got NoneType$",
    ),
    (
        "coincidence_heatmap(which=)",
        lambda a: plots.coincidence_heatmap(a, which="pie"),
        r"which must be one of",
    ),
    (
        "coincidence_heatmap(ax='x')",
        lambda a: plots.coincidence_heatmap(a, ax="x"),
        r"ax must be a matplotlib Axes",
    ),
    (
        "coefficients_with_bands(list)",
        lambda a: plots.coefficients_with_bands([0.5]),
        r"values must be a mapping",
    ),
    (
        "coefficients_with_bands(text)",
        lambda a: plots.coefficients_with_bands({"x": "high"}),
        r"values\['x'\] must be a number or a result, got 'high'",
    ),
    (
        "coefficients_with_bands(bool)",
        lambda a: plots.coefficients_with_bands({"x": True}),
        r"must be a number",
    ),
    (
        "coefficients_with_bands(title=5)",
        lambda a: plots.coefficients_with_bands({"x": 0.5}, title=5),
        r"title must be a string",
    ),
    (
        "pairwise_bars(reference='x')",
        lambda a: plots.pairwise_bars(pairwise_cohen(SENTIMENT), reference="x"),
        r"reference must be a number or a result",
    ),
    (
        "item_agreement_bars(items=)",
        lambda a: plots.item_agreement_bars(fleiss_kappa(SENTIMENT), items=[1]),
        r"items must give one name per item \(10\)",
    ),
    (
        "distance_matrix(not square)",
        lambda a: plots.distance_matrix(np.zeros((2, 3)), ["a", "b"]),
        r"matrix must be finite numbers of shape \(k, k\)",
    ),
    (
        "distance_matrix(text)",
        lambda a: plots.distance_matrix([["a"]], ["a"]),
        r"matrix must be a k x k array",
    ),
    (
        "distance_matrix(categories=str)",
        lambda a: plots.distance_matrix(np.zeros((2, 2)), "ab"),
        r"categories must be a sequence",
    ),
    (
        "paradox_curve(lengths)",
        lambda a: plots.paradox_curve([0.1, 0.2], {"k": [1.0]}),
        r"every curve the same shape",
    ),
    ("paradox_curve(text)", lambda a: plots.paradox_curve(["a"], {"k": [1.0]}), r"must be numbers"),
    (
        "paradox_curve(curves=list)",
        lambda a: plots.paradox_curve([0.1], [[1.0]]),
        r"curves must be a mapping",
    ),
    ("coverage_chart(text)", lambda a: plots.coverage_chart("abc"), r"expected a table"),
]


@pytest.mark.parametrize("call, match", [pytest.param(c, m, id=i) for i, c, m in PLOT_ERRORS])
def test_plots_check_their_arguments(call, match):
    with raises(match):
        call(krippendorff_alpha(SENTIMENT))


# ---------------------------------------------------------------- files
def test_latin1_file_names_line_column_and_encoding_option(tmp_path):
    path = write(tmp_path, "latin.csv", "A,B\nP,N\nP,caf\xe9\n".encode("latin-1"))
    with raises(r"latin\.csv, line 3, column 6: byte 0xe9 is not valid UTF-8.*encoding='cp1252'.*--encoding"):
        Ratings.from_csv(path)
    assert Ratings.from_csv(path, encoding="latin-1").rows() == [["P", "N"], ["P", "café"]]


def test_utf16_file(tmp_path):
    path = write(tmp_path, "u16.csv", "A,B\nP,N\nN,N\n".encode("utf-16"))
    with raises(r"u16\.csv: the file is UTF-16 or UTF-32 .*encoding='utf-16'.*--encoding utf-16"):
        Ratings.from_csv(path)
    assert Ratings.from_csv(path, encoding="utf-16").rows() == [["P", "N"], ["N", "N"]]


def test_utf16_without_bom_is_not_read_as_garbage(tmp_path):
    path = write(tmp_path, "u16le.csv", "A,B\nP,N\n".encode("utf-16-le"))
    with raises(r"u16le\.csv, line 1: the file contains a NUL byte"):
        Ratings.from_csv(path)


def test_utf8_with_and_without_bom(tmp_path):
    plain = write(tmp_path, "plain.csv", "A,B\nP,é\n")
    bom = write(tmp_path, "bom.csv", "\ufeffA,B\nP,é\n")
    assert Ratings.from_csv(plain) == Ratings.from_csv(bom)
    assert Ratings.from_csv(bom).raters == ("A", "B")


def test_a_zip_file_named_csv(tmp_path):
    with raises(r"zip archive \(an Excel workbook\?\)"):
        Ratings.from_csv(write(tmp_path, "book.csv", b"PK\x03\x04" + b"\x00" * 40))


@pytest.mark.parametrize("suffix", [".xls", ".ods", ".numbers"])
def test_spreadsheets_that_are_not_read(tmp_path, suffix):
    with raises(r"files are not read; save the sheet as .xlsx or as CSV"):
        Ratings.from_csv(write(tmp_path, "sheet" + suffix, b"whatever"))


def test_an_xlsx_that_is_not_a_workbook(tmp_path):
    with raises(r"not an Excel workbook"):
        Ratings.from_csv(write(tmp_path, "fake.xlsx", "A,B\nx,y\n"))


def test_field_size_limit(tmp_path):
    path = write(tmp_path, "long_field.csv", "A,B\n" + "x" * 150_000 + ",y\nx,y\n")
    with raises(
        r"long_field\.csv, line 2, column 1: the cell has 150,000 characters; field size: 150,000 is more "
        r"than the limit of 100,000; raise the limit with max_field= \(--max-field on the command line\)"
    ):
        Ratings.from_csv(path)
    assert Ratings.from_csv(path, max_field=200_000).n_items == 2


def test_field_size_limit_in_the_header(tmp_path):
    path = write(tmp_path, "long_name.csv", "A," + "B" * 200_000 + "\nx,y\n")
    with raises(r"field size.*max_field="):
        Ratings.from_csv(path)


def test_a_400_digit_number(tmp_path):
    path = write(tmp_path, "big.csv", "A,B\n" + "9" * 400 + ",1\n1,1\n")
    r = Ratings.from_csv(path)
    assert r.categories == (1, int("9" * 400))  # read exactly, a number
    with raises(
        r"level 'interval' needs finite numbers, but the label 9{20}.* is not finite|cannot hold the label"
    ):
        krippendorff_alpha(r, "interval")
    assert krippendorff_alpha(r).defined  # nominal: just a label


@pytest.mark.parametrize(
    "content, message",
    [
        pytest.param("", r"the file is empty", id="empty"),
        pytest.param("\n\n  \n", r"the file is empty", id="blank-lines"),
        pytest.param("A,B\n", r"the file has a header but no items", id="header-only"),
        pytest.param("A,B\nx,y\nx\n", r"line 3: 1 cells but the header has 2 columns", id="short-row"),
        pytest.param("A,B\nx,y\nx,y,z\n", r"line 3: 3 cells but the header has 2 columns", id="long-row"),
        pytest.param('A,B\n"x,y\nx,y\n', r"line 2: .*closing quote missing", id="open-quote"),
        pytest.param("A,A\nx,y\n", r"line 1, column 2: rater names must be unique", id="duplicate-raters"),
        pytest.param("A,,C\nx,y,z\n", r"no name for column 2", id="empty-rater-name"),
        pytest.param(
            "item,A,B\ns1,x,y\ns1,x,x\n", r"line 3: item ids must be unique: 's1'", id="duplicate-items"
        ),
        pytest.param(
            "item,A,B\ns1,x,y\n,x,x\n", r"line 3, column 1: the item is missing", id="missing-item-id"
        ),
        pytest.param("A\nx\ny\n", r"at least 2 raters", id="one-rater"),
        pytest.param(
            "item\ns1\ns2\n", r"at least 2 raters, but the table has 0 column", id="item-column-only"
        ),
        pytest.param(
            "item,A\ns1,x\n", r"at least 2 raters, but the table has 1 column", id="item-and-one-rater"
        ),
        pytest.param("A,B\nx,\n,y\n", r"no item has 2 or more ratings", id="no-pairs"),
    ],
)
def test_broken_files(tmp_path, content, message):
    path = write(tmp_path, "bad.csv", content)
    with raises(message):
        fleiss_kappa(Ratings.from_csv(path))


def test_a_row_longer_than_the_header_gets_the_error_alone(tmp_path):
    """pandas' ParserWarning ("this leads to a loss of data") is not printed beside the clear error."""
    path = write(tmp_path, "bad.csv", "A,B\n1,2,3\n1,1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(r"line 2: 3 cells but the header has 2 columns"):
            Ratings.from_csv(path)


def test_long_file_errors_name_the_line(tmp_path):
    path = write(tmp_path, "long.csv", "item,rater,label\ns1,a,x\ns1,b,y\ns2,a,x\ns2,a,z\n")
    with raises(r"long\.csv, line 5: item 's2' was labelled twice by rater 'a' \('x' and 'z'\)"):
        Ratings.from_csv(path, format="long")
    # both lines are named, so that one can be kept (only the second was named)
    with raises(r"\('x' and 'z'\); the first on line 4: keep one of the two$"):
        Ratings.from_csv(path, format="long")
    with raises(r"long\.csv, line 3, column 3: label 'y' .* is not one of the declared categories \['x'\]"):
        Ratings.from_csv(path, format="long", categories=["x", "z"][:1])
    missing = write(tmp_path, "norater.csv", "item,rater,label\ns1,,x\n")
    with raises(r"norater\.csv, line 2, column 2: the rater is missing"):
        Ratings.from_csv(missing, format="long")


# ============================================================= 2. nothing hangs
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_from_stat():
    with raises(r"/dev/zero: is a device; only regular files are read"):
        Ratings.from_csv("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with raises(r"pipe\.csv: is a FIFO \(named pipe\); only regular files are read"):
        Ratings.from_csv(fifo)


def test_a_directory(tmp_path):
    with raises(r"is a directory, not a ratings file"):
        Ratings.from_csv(tmp_path)


def test_missing_file(tmp_path):
    with raises(r"nope\.csv: no such file"):
        Ratings.from_csv(tmp_path / "nope.csv")


def test_file_size_limit(tmp_path):
    path = write(tmp_path, "f.csv", "A,B\n" + "x,y\n" * 100)
    with raises(
        r"the file has 404 bytes; file size: 404 is more than the limit of 100; raise the limit with "
        r"max_bytes= \(--max-bytes on the command line\)"
    ):
        Ratings.from_csv(path, max_bytes=100)
    assert Ratings.from_csv(path, max_bytes=1000).n_items == 100


def test_workbook_size_is_checked_unpacked(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for i in range(200):
        book.active.append([f"label {i}", f"label {i}"])
    path = tmp_path / "big.xlsx"
    book.save(path)
    with raises(r"the workbook unpacks to [\d,]+ bytes; file size.*max_bytes="):
        Ratings.from_csv(path, max_bytes=path.stat().st_size + 10)


def test_ten_thousand_categories_are_refused_at_once():
    rows = [[f"label {i}", f"label {i + 1}"] for i in range(10_000)]
    with raises(
        r"number of categories \(distinct labels\): 10,001 is more than the limit of 200; raise the limit "
        r"with max_categories= \(--max-categories on the command line\)"
    ):
        Ratings.from_rows(rows)
    with raises(r"limit of 200"):
        Ratings.from_rows(np.arange(20_000, dtype=float).reshape(-1, 2))  # the numeric path too
    assert Ratings.from_rows(rows[:300], max_categories=400).n_categories == 301


def test_three_thousand_raters_pairwise_is_refused_at_once():
    r = Ratings.from_codes(np.random.default_rng(0).integers(0, 3, (5, 3000)), ["a", "b", "c"])
    with raises(
        r"3000 raters make 4,498,500 pairs; rater pairs: 4,498,500 is more than the limit of 1,000; "
        r"raise the limit with max_pairs= \(--max-pairs on the command line\), or compare some"
    ):
        pairwise_cohen(r)
    assert fleiss_kappa(r).defined  # the multi-rater coefficients are fine with 3000 raters
    assert pairwise_cohen(r.subset(raters=list(range(20)))).pairs[0] == ("A", "B") or True


def test_n_boot_limit():
    with raises(r"n_boot: 1,000,000,000 is more than the limit of 100,000; raise the limit with max_boot="):
        bootstrap_ci(fleiss_kappa, SENTIMENT, n_boot=10**9)


def test_bootstrap_memory_is_bounded_for_many_categories():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 200, (3000, 3))
    r = Ratings.from_codes(codes, list(range(200)))
    with raises(
        r"bootstrap_ci\(krippendorff_alpha\): [\d,]+ distinct rows of counts x 200 x 200 categories need"
    ):
        bootstrap_ci(krippendorff_alpha, r, n_boot=10, seed=0)
    ci = bootstrap_ci(cohen_kappa, r, n_boot=20, seed=0)  # Cohen's plan is one count per table cell
    assert ci.samples.shape == (20,)


@pytest.mark.parametrize("shape, k", [((20_000, 5), 200), ((50, 3000), 200), ((2000, 30), 25)])
def test_many_categories_or_raters_stay_quick_and_exact(shape, k):
    """Count rows too long for one integer per item (base n_raters + 1, k digits): counted from sorted codes,
    and the k x k sums built from the non-zero counts only (no n_items x k table, no k x k product per row)."""
    r = Ratings.from_codes(np.random.default_rng(1).integers(-1, k, shape), list(range(k)))
    p = r.count_patterns()
    direct = np.zeros((r.n_items, k), dtype=np.int64)
    for j in range(r.n_raters):
        rated = r.codes[:, j] >= 0
        np.add.at(direct, (np.flatnonzero(rated), r.codes[rated, j]), 1)
    assert (p.counts[p.item_pattern] == direct).all() and p.frequency.sum() == r.n_items
    small = r.subset(items=list(range(12)), raters=list(range(3)))  # the same table, counted the plain way
    assert (
        krippendorff_alpha(small).exact.alpha
        == krippendorff_alpha(Ratings.from_rows(small.rows())).exact.alpha
    )
    assert krippendorff_alpha(r).n == int(direct.sum(axis=1)[direct.sum(axis=1) >= 2].sum())


def test_figures_refuse_too_many_marks():
    big = datasets.simulate(2000, 3, seed=0)
    with raises(r"2,000 items are too many to draw \(at most 500\)"):
        plots.item_agreement_bars(fleiss_kappa(big))
    with raises(r"6,000 cells \(items x raters\) are too many to draw.*coverage_map"):
        plots.coverage_chart(big)
    assert plots.coverage_map(big) is not None


def test_simulate_is_bounded():
    with raises(r"simulate draws at most 10,000,000 ratings"):
        datasets.simulate(n_items=10**9, n_raters=10)
    with raises(r"n_categories must be between 2 and 200"):
        datasets.simulate(n_categories=10**6)


# ====================================================== 3. silent or wrong results
MARKERS = ["", "NA", "N/A", "NaN", "nan", "None", "null", " NA ", "  "]


@pytest.mark.parametrize("marker", MARKERS)
def test_missing_markers_in_files(tmp_path, marker):
    path = write(tmp_path, "m.csv", f"A,B\nP,{marker}\nP,N\n")
    assert Ratings.from_csv(path).rows() == [["P", None], ["P", "N"]]


@pytest.mark.parametrize("marker", MARKERS + [None, math.nan, np.nan, pd.NA, pd.NaT, np.datetime64("NaT")])
def test_missing_markers_in_python(marker):
    assert Ratings.from_rows([["P", marker], ["P", "N"]]).rows() == [["P", None], ["P", "N"]]


@pytest.mark.parametrize("label", ["na", "none", "-", "?", "N.A.", "nil"])
def test_everything_else_is_a_label(tmp_path, label):
    path = write(tmp_path, "l.csv", f"A,B\nP,{label}\nP,N\n")
    assert Ratings.from_csv(path).rows()[0] == ["P", label]
    assert Ratings.from_rows([["P", label], ["P", "N"]]).rows()[0] == ["P", label]


def test_labels_are_stripped_the_same_in_files_and_python(tmp_path):
    path = write(tmp_path, "s.csv", 'A,B\n P ,"N "\nP,N\n')
    assert Ratings.from_csv(path).rows() == [["P", "N"], ["P", "N"]]
    assert Ratings.from_rows([[" P ", "N "], ["P", "N"]]).rows() == [["P", "N"], ["P", "N"]]
    assert Ratings.from_rows([["P", "N"]], categories=[" P", "N "]).categories == ("P", "N")


def test_pandas_na_in_a_dataframe_is_missing():
    frame = pd.DataFrame(
        {
            "a": pd.array([1, None, 3], dtype="Int64"),
            "b": [1.0, 2.0, np.nan],
            "c": pd.array(["x", pd.NA, "NA"], dtype="string"),
        }
    )
    r = Ratings.from_dataframe(frame.iloc[:, :2])
    assert r.rows() == [[1, 1], [None, 2], [3, None]]
    assert Ratings.from_dataframe(frame[["c", "c"]].set_axis(["c1", "c2"], axis=1)).rows() == [
        ["x", "x"],
        [None, None],
        [None, None],
    ]


@pytest.mark.parametrize(
    "table",
    [
        pytest.param([[True, 1], [False, 0]], id="list"),
        pytest.param(np.array([[True, 1], [False, 2]], dtype=object), id="object-array"),
        pytest.param(pd.DataFrame({"a": [True, 1], "b": [1, 2]}), id="dataframe-column"),
        pytest.param(pd.DataFrame({"a": [True, False], "b": [1, 2]}), id="dataframe-columns"),
    ],
)
def test_true_beside_numbers_is_an_error(table):
    with raises(r"is a bool, but other labels are numbers.*True and False would count as 1 and 0"):
        Ratings.from_rows(table)


def test_bools_alone_or_beside_text_are_labels():
    assert Ratings.from_rows([[True, False], [True, True]]).categories == (False, True)
    assert Ratings.from_rows([[True, "maybe"], [False, "maybe"]]).n_categories == 3
    with raises(r"True and False would count as 1 and 0"):
        Ratings.from_rows([[True, False]], categories=[0, 1])


def test_true_in_a_file_is_text(tmp_path):
    path = write(tmp_path, "b.csv", "A,B\nTrue,1\nFalse,0\n")
    assert Ratings.from_csv(path).categories == ("0", "1", "False", "True")


@pytest.mark.parametrize(
    "declared, expected",
    [
        ("1.5,2.5,3", (1.5, 2.5, 3)),
        ("3, 2.5 ,1.5", (3, 2.5, 1.5)),
    ],
)
def test_categories_read_like_the_cells(tmp_path, capsys, declared, expected):
    path = write(tmp_path, "n.csv", "A,B\n1.5,2.5\n3,1.5\n2.5,2.5\n")
    assert Ratings.from_csv(path, categories=parse_categories(declared)).categories == expected
    code, out, _ = cli(capsys, "report", path, "--categories", declared, "--level", "ordinal")
    assert code == 0 and "categories " + ", ".join(map(str, expected)) in out


def test_a_text_category_makes_every_label_text(tmp_path):
    path = write(tmp_path, "n.csv", "A,B\n1,2\n3,unsure\n")
    assert Ratings.from_csv(path).categories == ("1", "2", "3", "unsure")
    r = Ratings.from_csv(write(tmp_path, "m.csv", "A,B\n01,2\n1,2\n"), categories=["01", "1", "2", "unsure"])
    assert r.rows() == [["01", "2"], ["1", "2"]]  # as written, once the labels are text


def test_numbers_stay_numbers_in_files(tmp_path):
    path = write(tmp_path, "n.csv", "A,B\n1,2.0\n 3 ,1e1\n12345678901234567890123,1\n")
    r = Ratings.from_csv(path)
    assert r.categories == (1, 2, 3, 10, 12345678901234567890123)
    assert [type(c) for c in r.categories] == [int] * 5


def test_long_file_read_as_wide(tmp_path, capsys):
    # issue 21: a header item,rater,label is read as long without format='long', and the summary says so;
    # asked for as wide, it is still refused
    path = write(tmp_path, "long.csv", "item,rater,label\n1,a,x\n1,b,y\n2,a,x\n")
    with raises(r"looks like a long file .*format='long' \(--format long on the command line\)"):
        Ratings.from_csv(path, format="wide")
    assert Ratings.from_csv(path).reading.layout == "long"
    cli_error(capsys, "report", path, "--format", "wide", words=["--format long"])
    assert Ratings.from_csv(path, format="long").raters == ("a", "b")


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda r: cohen_kappa(r, weights="linear"), id="cohen-linear"),
        pytest.param(lambda r: cohen_kappa(r, weights="quadratic"), id="cohen-quadratic"),
        pytest.param(lambda r: pairwise_cohen(r, weights="linear"), id="pairwise"),
        pytest.param(lambda r: krippendorff_alpha(r, "ordinal"), id="ordinal"),
        pytest.param(lambda r: bootstrap_ci(cohen_kappa, r, n_boot=5, weights="linear"), id="bootstrap"),
    ],
)
def test_order_is_declared_not_guessed(call):
    rows = [["low", "high"], ["mid", "high"], ["low", "low"], ["high", "mid"]]
    with raises(
        r"uses the order of the categories, but \['high', 'low', 'mid'\] are only sorted, not declared: "
        r"give them in their order with categories=\[\.\.\.\] \(--categories on the command line\)"
    ):
        call(Ratings.from_rows(rows))
    declared = Ratings.from_rows(rows, categories=["low", "mid", "high"])
    assert call(declared) is not None
    assert call(Ratings.from_rows([[1, 3], [2, 3], [1, 1], [3, 2]])) is not None  # numbers have their order


@pytest.mark.parametrize(
    "label, message",
    [
        pytest.param(math.inf, r"needs finite numbers, but the label inf is not finite", id="inf"),
        pytest.param(-math.inf, r"the label -inf is not finite", id="-inf"),
        pytest.param(2**70 + 1, r"cannot hold the label 1180591620717411303425 exactly", id="2**70+1"),
        pytest.param(10**400, r"is not finite \(infinity, or a number too large for a float\)", id="10**400"),
        pytest.param(1e200, r"the label 1e\+200 is too large", id="1e200"),
    ],
)
@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_numbers_stay_honest(label, message, level):
    with raises(message):
        krippendorff_alpha([[label, 1], [1, 2], [2, 2]], level)


def test_large_exact_numbers_and_tiny_spreads_are_computed():
    res = krippendorff_alpha([[2**70, 1], [1, 2**70], [1, 1]], "interval")
    rescaled = krippendorff_alpha([[1, 0], [0, 1], [0, 0]], "interval")  # interval alpha ignores the scale
    assert res.exact.alpha == rescaled.exact.alpha and res.alpha == pytest.approx(rescaled.alpha)
    tiny = krippendorff_alpha([[1e-9, 2e-9], [1e-9, 1e-9], [2e-9, 2e-9]], "interval")
    same = krippendorff_alpha([[1, 2], [1, 1], [2, 2]], "interval")
    assert tiny.defined and tiny.reason is None  # not "D_e = 0": the values are 1e-9 apart
    assert tiny.alpha == pytest.approx(same.alpha)


def test_a_nan_reason_is_the_true_one():
    res = krippendorff_alpha([[3, 3], [3, 3]], "interval")
    assert math.isnan(res.alpha) and "all pairable values are in one category" in res.reason
    assert "equally distant" not in res.reason


def test_ratio_refuses_negative_values():
    with raises(r"level 'ratio' needs non-negative values.*-1.*label -1"):
        krippendorff_alpha([[-1, 2], [2, 2], [1, 1]], "ratio")


def test_wide_file_from_pandas_to_csv(tmp_path):
    frame = pd.DataFrame({"ann": ["P", "N", None], "bob": ["P", "N", "G"]}, index=["s1", "s2", "s3"])
    path = tmp_path / "frame.csv"
    frame.to_csv(path)  # the index is written with an empty header cell
    r = Ratings.from_csv(path)
    assert r == Ratings.from_dataframe(frame)
    assert r.items == ("s1", "s2", "s3") and r.raters == ("ann", "bob")


def test_separators_are_sniffed_or_given(tmp_path):
    rows = [["P", "N"], ["N", "N"]]
    for sep in (",", ";", "\t"):
        path = write(tmp_path, "s.txt", sep.join("AB") + "\n" + "\n".join(sep.join(r) for r in rows) + "\n")
        assert Ratings.from_csv(path).rows() == rows
        assert Ratings.from_csv(path, sep=sep).rows() == rows
    pipes = write(tmp_path, "p.csv", "A|B\nP|N\nN|N\n")
    with raises(r"at least 2 raters"):
        Ratings.from_csv(pipes)
    assert Ratings.from_csv(pipes, sep="|").rows() == rows


def test_quoted_cells(tmp_path):
    path = write(tmp_path, "q.csv", 'A,B\n"x, y","a\nb"\n"x, y",z\n12" screen,z\n')
    assert Ratings.from_csv(path).rows() == [["x, y", "a\nb"], ["x, y", "z"], ['12" screen', "z"]]


def test_blank_rows_and_rows_of_empty_cells_are_skipped(tmp_path):
    path = write(tmp_path, "b.csv", "\n,,\nA,B\n\nx,y\n,\n   \nx,x\n")
    assert Ratings.from_csv(path).rows() == [["x", "y"], ["x", "x"]]


def test_xlsx(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in [["item", "A", "B"], ["s1", 1, 2], ["s2", None, "NA"], ["s3", 3, 3.0]]:
        book.active.append(row)
    path = tmp_path / "t.xlsx"
    book.save(path)
    r = Ratings.from_csv(path)
    assert r.rows() == [[1, 2], [None, None], [3, 3]] and r.items == ("s1", "s2", "s3")


@pytest.mark.parametrize(
    "rows, expected",
    [
        pytest.param(
            [[None], ["A", "B"], ["x", None], [None, None], ["x", "y"]],
            [["x", None], ["x", "y"]],
            id="blank-rows",
        ),
        pytest.param(
            [["A", "A"], ["x", "y"]], r"row 1, column 2: rater names must be unique", id="duplicate-raters"
        ),
        pytest.param(
            [["A", "B"], ["x", "y", "z"]],
            r"row 2, column 3: a cell outside the header's 2 columns",
            id="cell-outside",
        ),
        pytest.param(
            [["A", "B"], [True, 1], [False, 2]], [["TRUE", "1"], ["FALSE", "2"]], id="booleans-are-text"
        ),
        pytest.param([[None, None]], r"the first sheet is empty", id="empty"),
    ],
)
def test_xlsx_cells(tmp_path, rows, expected):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(tmp_path / "s.xlsx")
    if isinstance(expected, str):
        with raises(expected):
            Ratings.from_csv(tmp_path / "s.xlsx")
    else:
        assert Ratings.from_csv(tmp_path / "s.xlsx").rows() == expected


def test_dataframe_and_rows_agree():
    rows = [["P", None, "N"], [" N", "N", "NA"], ["G", "P", ""]]
    frame = pd.DataFrame(rows, columns=["A", "B", "C"])
    assert Ratings.from_dataframe(frame) == Ratings.from_rows(rows)
    long = pd.DataFrame(
        [(i + 1, "ABC"[j], v) for i, row in enumerate(rows) for j, v in enumerate(row)],
        columns=["Item", "Rater", "Label"],
    )
    records = list(long.itertuples(index=False, name=None))
    assert Ratings.from_dataframe(long, "long").rows() == Ratings.from_long(records).rows()


def test_ordered_categorical_declares_the_order():
    kind = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    frame = pd.DataFrame(
        {"a": pd.Series(["high", "low"], dtype=kind), "b": pd.Series(["mid", "low"], dtype=kind)}
    )
    r = Ratings.from_dataframe(frame)
    assert r.categories == ("low", "mid", "high") and r.ordered
    assert krippendorff_alpha(r, "ordinal").n == 4


def test_subset_may_repeat_items_as_a_resample():
    assert SENTIMENT.subset([0, 0]).n_items == 2


# ===================================================== 4. user text is escaped
class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]

    def handle_data(self, data):
        self.text.append(data)


def tags_of(markup: str) -> _Tags:
    parser = _Tags()
    parser.feed(markup)
    return parser


def hostile_table(name: str = MARKUP, label: str = MARKUP) -> Ratings:
    rows = [[label, "N", label], ["N", "N", "P"], [label, "P", label], ["N", label, "N"], ["P", "P", "P"]]
    return Ratings.from_rows(rows, raters=[name, "B", "C"], categories=["N", "P", label])


def test_widget_readouts_escape_rater_names_and_labels():
    r = hostile_table()
    explorers = [
        TableExplorer(r),
        MissingDataExplorer(r, share=0.2),
        WeightsExplorer(r, level="nominal", weights=None),
    ]
    parts = Ratings.from_rows(
        [[x if x else None for x in row] for row in datasets.partial_coverage().rows()],
        raters=["A", "B", "C", MARKUP, "E"],
        categories=datasets.SENTIMENT_CATEGORIES,
    )
    explorers.append(CoverageExplorer(parts, first=MARKUP, second="E"))
    for ex in explorers:
        found = tags_of(ex.readout.value)
        assert "img" not in found.tags and "onerror" not in found.attrs, type(ex).__name__
        assert any(MARKUP in t for t in found.text) or any(MARKUP in k for k in ex.values()), type(
            ex
        ).__name__


@pytest.mark.parametrize("label", [MATHTEXT, "$x$", "a_b^c", "\\", "$"])
def test_matplotlib_labels_never_start_mathtext(label):
    r = Ratings.from_rows(
        [[label, "n"], ["n", "n"], [label, label]], raters=[label, "b"], categories=["n", label]
    )
    figures = [
        plots.agreement_heatmap(cohen_kappa(r)),
        plots.coincidence_heatmap(krippendorff_alpha(r)),
        plots.pairwise_bars(pairwise_cohen(r), reference=0.2, reference_label=label),
        plots.coverage_chart(r),
        plots.coverage_map(r),
        plots.kappa_matrix(pairwise_cohen(r)),
        plots.coefficients_with_bands({label: 0.5}, title=label),
        plots.distance_matrix(np.eye(2), ["n", label], title=label),
        plots.item_agreement_bars(fleiss_kappa(r), items=[label, 2, 3]),
    ]
    for fig in figures:
        fig.canvas.draw()  # mathtext is parsed when drawing: this would raise


@pytest.mark.parametrize("label", [MATHTEXT, "$x$"])
def test_explorers_draw_hostile_labels(label):
    r = Ratings.from_rows(
        [[label, "n", "n"], ["n", "n", label], [label, label, "n"]],
        raters=[label, "b", "c"],
        categories=["n", label],
    )
    for figure in (
        "coefficients and bands",
        "per-item agreement P_i",
        "pairwise kappa",
        "coincidence matrix (alpha)",
    ):
        ex = TableExplorer(r, figure=figure)
        assert bytes(ex.image.value).startswith(b"\x89PNG")
    WeightsExplorer(r, level="nominal")


@pytest.mark.parametrize(
    "label", ["<script>alert(1)</script>", "$x$", "\\(x\\)", "a|b\nc", "`code`", "**b**"]
)
def test_explanations_escape_labels(label):
    r = Ratings.from_rows(
        [[label, "n"], ["n", "n"], [label, label], ["n", label]], raters=[label, "b"], categories=["n", label]
    )
    for res in (cohen_kappa(r), fleiss_kappa(r), krippendorff_alpha(r, "ordinal")):
        ex = explain(res)
        found = tags_of(ex.html())
        assert "script" not in found.tags
        md = ex.markdown()
        assert not re.search(r"(?<!\\)<script", md)  # escaped in text; in LaTeX's \text{}: \lt and \gt
        for line in md.splitlines():
            if line.startswith("|"):  # a table row: a label's pipe is escaped, its line break gone
                assert "a|b" not in line


def test_markdown_table_keeps_its_shape():
    r = Ratings.from_rows([["a|b\nc", "x"], ["x", "x"]], raters=["r|1", "r\n2"])
    md = ratings_table(r).markdown()
    lines = md.splitlines()
    assert len(lines) == 2 + r.n_items
    assert all(line.count("|") - line.count("\\|") == 4 for line in lines)


def test_escaping_functions():
    assert html_escape("<b>$x$</b>") == "&lt;b&gt;<span>$</span>x<span>$</span>&lt;/b&gt;"
    assert html_escape("\\(x\\)").count("<span>\\</span>") == 2
    assert md_escape("a|b\nc") == "a\\|b c"
    assert mpl_escape("$x$") == "\\$x\\$"
    assert terminal_escape("a\x1b[31mb\nc\u202e") == "a\\x1b[31mb\\nc\\u202e"


def test_worksheet_title_is_escaped():
    questions = [make_question("cohen", 1)]
    sheet, answers = worksheet_html(questions, title=MARKUP)
    assert "<img" not in sheet and "<img" not in answers and "&lt;img" in sheet


def test_terminal_output_is_escaped(tmp_path, capsys):
    path = write(tmp_path, "ansi.csv", "\x1b[31mred\x1b[0m,B\nx,\x1b]0;title\x07\nx,x\n")
    code, out, err = cli(capsys, "report", path)
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[31mred" in out


def test_terminal_errors_are_escaped_and_one_line(tmp_path, capsys):
    path = write(tmp_path, "bad\x1b[2J.csv", "A,B\nx\n")
    err = cli_error(capsys, "report", path)
    assert "\x1b" not in err and "\\x1b[2J" in err


# ========================================================== 5. files are safe
@pytest.mark.parametrize("name", ["../escape", "a/b", "..", ".", "", "a\\b", "C:x", "bad\x00", "-rf", " "])
def test_worksheet_names_cannot_leave_the_directory(tmp_path, name):
    with raises(r"name must be a plain file name|name must be a string"):
        worksheet(1, directory=tmp_path, name=name)
    assert list(tmp_path.iterdir()) == []


def test_worksheet_never_overwrites_unasked(tmp_path):
    ws = worksheet(1, kinds=["cohen"], directory=tmp_path, name="sheet")
    before = ws.questions_path.read_text()
    with raises(r"sheet-questions\.html exists already; choose another name, or pass overwrite=True"):
        worksheet(1, seed=9, kinds=["cohen"], directory=tmp_path, name="sheet")
    assert ws.questions_path.read_text() == before
    worksheet(1, seed=9, kinds=["cohen"], directory=tmp_path, name="sheet", overwrite=True)
    assert ws.questions_path.read_text() != before


def test_worksheet_does_not_follow_a_symlink(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("keep me")
    (tmp_path / "w-questions.html").symlink_to(target)
    with raises(r"exists already"):
        worksheet(1, kinds=["cohen"], directory=tmp_path, name="w")
    assert target.read_text() == "keep me"


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"directory": 5}, r"directory must be a path"),
        ({"overwrite": "yes"}, r"overwrite must be True or False"),
        ({"n": 0}, r"n must be between 1 and 100"),
        ({"seed": -1}, r"seed must be between"),
        ({"kinds": []}, r"len\(kinds\) must be at least 1"),
        ({"kinds": ["essay"]}, r"kinds must be one of"),
    ],
)
def test_worksheet_arguments(tmp_path, kwargs, match):
    kwargs = {"directory": tmp_path, **kwargs}
    with raises(match):
        worksheet(1, **kwargs) if "n" not in kwargs else worksheet(**kwargs)


def test_worksheet_into_a_file_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with raises(r"cannot write the worksheet"):
        worksheet(1, kinds=["cohen"], directory=blocker / "sub")


@pytest.mark.parametrize("attribute", ["categories", "raters", "items"])
def test_ratings_cannot_be_reassigned(attribute):
    r = datasets.sentiment()
    with pytest.raises(AttributeError):
        setattr(r, attribute, ("x",))
    assert r == datasets.sentiment()


# ========================================================== 6. the command line
@pytest.mark.parametrize(
    "argv, words",
    [
        pytest.param(["report"], ["the following arguments are required: file", "--help"], id="no-file"),
        pytest.param(
            ["report", "x.csv", "--format", "tall"], ["argument --format: invalid choice"], id="format"
        ),
        pytest.param(["report", "x.csv", "--level", "cubic"], ["argument --level"], id="level"),
        pytest.param(["report", "x.csv", "--weights", "cubic"], ["argument --weights"], id="weights"),
        pytest.param(
            ["report", "x.csv", "--max-bytes", "0"], ["--max-bytes: must be at least 1"], id="max-bytes-0"
        ),
        pytest.param(
            ["report", "x.csv", "--max-pairs", "lots"],
            ["--max-pairs: must be a whole number"],
            id="max-pairs",
        ),
        pytest.param(["summarise", "x.csv"], ["invalid choice: 'summarise'"], id="command"),
        pytest.param(["report", "x.csv", "--nope"], ["unrecognized arguments: --nope"], id="unknown-option"),
    ],
)
def test_cli_usage_errors(capsys, argv, words):
    cli_error(capsys, *argv, words=words)


@pytest.mark.parametrize(
    "content, args, words",
    [
        pytest.param(
            b"A,B\nP,caf\xe9\n",
            [],
            ["data.csv, line 2, column 6", "not valid UTF-8", "--encoding"],
            id="latin1",
        ),
        pytest.param(
            "A,B\nP,N\n".encode("utf-16"),
            [],
            ["data.csv: the file is UTF-16", "--encoding utf-16"],
            id="utf16",
        ),
        pytest.param(b"A,B\nP,\x00\n", [], ["data.csv, line 2", "NUL byte"], id="nul"),
        pytest.param(
            "A,B\nP,N\nP\n", [], ["data.csv, line 3", "1 cells but the header has 2 columns"], id="short-row"
        ),
        pytest.param(
            "A,B\nP,N\nz,N\n",
            ["--categories", "P,N"],
            ["data.csv, line 3, column 1", "label 'z'"],
            id="not-a-category",
        ),
        pytest.param(
            "A,B\nP,N\nN,N\n", ["--level", "interval"], ["needs numeric categories"], id="interval-text"
        ),
        pytest.param("A,B\nP,N\nN,N\n", ["--weights", "linear"], ["--categories"], id="weights-undeclared"),
        pytest.param("A,B\nP,N\nN,N\n", ["--level", "ordinal"], ["--categories"], id="ordinal-undeclared"),
        pytest.param(
            "A,B\nP,N\nN,N\n",
            ["--categories", "P,,N"],
            ["--categories: value 2 is empty"],
            id="empty-category",
        ),
        pytest.param(
            "A,B\nP,N\nN,N\n", ["--categories", "P,N,P"], ["'P' is given twice"], id="duplicate-category"
        ),
        pytest.param(
            "A,B\nP,N\nN,N\n", ["--categories", "P,N,null"], ["'null', a missing-value marker"], id="marker"
        ),
        pytest.param(
            "A,B\nP,N\nN,N\n", ["--encoding", "klingon"], ["encoding 'klingon' is not known"], id="encoding"
        ),
        pytest.param("A,B\nP,N\nN,N\n", ["--sep", "ab"], ["sep must be one character"], id="sep"),
        pytest.param(
            "A,B\nP,N\nN,N\n", ["--max-bytes", "5"], ["data.csv", "file size", "--max-bytes"], id="max-bytes"
        ),
        pytest.param(
            "A,B\nPPPPPP,N\nN,N\n",
            ["--max-field", "3"],
            ["data.csv, line 2, column 1", "--max-field"],
            id="max-field",
        ),
        pytest.param(
            "A,B\n1,2\n3,4\n5,6\n", ["--max-categories", "3"], ["--max-categories"], id="max-categories"
        ),
        pytest.param(
            "item,A,B\ns1,P,N\ns1,N,N\n",
            [],
            ["data.csv, line 3", "item ids must be unique"],
            id="duplicate-items",
        ),
        pytest.param('A,B\n"P,N\nN,N\n', [], ["data.csv, line 2", "closing quote"], id="open-quote"),
    ],
)
def test_cli_file_errors_name_the_place(tmp_path, capsys, content, args, words):
    path = write(tmp_path, "data.csv", content)
    cli_error(capsys, "report", path, *args, words=words)


def test_cli_many_raters_are_summarised(tmp_path, capsys):
    r = datasets.simulate(40, 20, seed=3)
    path = tmp_path / "many.csv"
    pd.DataFrame(r.rows(), columns=list(r.raters)).to_csv(path, index=False)
    code, out, _ = cli(capsys, "report", path)
    assert code == 0
    assert "190 pairs of 20 raters: the lowest and the highest (every pair with --all-pairs)" in out
    lowest = next(line for line in out.splitlines() if "lowest:" in line)
    highest = next(line for line in out.splitlines() if "highest:" in line)
    kappas = [res.exact.kappa for res in pairwise_cohen(r)]
    assert f"{float(min(kappas)):.3f}"[:4] in lowest and f"{float(max(kappas)):.3f}"[:4] in highest
    assert "spread (highest - lowest)" in out
    code, everything, _ = cli(capsys, "report", path, "--all-pairs")
    assert code == 0 and sum(" vs " in line for line in everything.splitlines()) == 190


def test_cli_too_many_pairs_still_reports_the_rest(tmp_path, capsys):
    r = Ratings.from_codes(np.random.default_rng(0).integers(0, 3, (6, 60)), ["a", "b", "c"])
    path = tmp_path / "wide.csv"
    pd.DataFrame(r.rows(), columns=list(r.raters)).to_csv(path, index=False)
    code, out, _ = cli(capsys, "report", path)
    assert code == 0
    assert "not computed: 60 raters make 1,770 pairs" in out and "--max-pairs" in out
    assert "chance = pooled" in out and "alpha" in out
    code, out, _ = cli(capsys, "report", path, "--max-pairs", "2000")
    assert code == 0 and "1770 pairs of 60 raters" in out


def test_cli_reads_xlsx_and_tsv(tmp_path, capsys):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in [["A", "B", "C"], *datasets.sentiment().rows()]:
        book.active.append(row)
    book.save(tmp_path / "s.xlsx")
    write(
        tmp_path,
        "s.tsv",
        "A\tB\tC\n" + "\n".join("\t".join(row) for row in datasets.sentiment().rows()) + "\n",
    )
    for name in ("s.xlsx", "s.tsv"):
        code, out, _ = cli(capsys, "report", tmp_path / name, "--categories", "G,N,P", "--weights", "linear")
        assert code == 0 and "0.578" in out


def test_cli_sep_names(tmp_path, capsys):
    path = write(tmp_path, "t.txt", "A\tB\nP\tN\nN\tN\n")
    for sep in ("\\t", "tab", "\t"):
        code, out, _ = cli(capsys, "report", path, "--sep", sep)
        assert code == 0 and "2 items (rows numbered 1..2) x 2 raters" in out


def _run(*argv, timeout=60, **kwargs):
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run(
        [sys.executable, "-m", "iaa_teach.cli", *map(str, argv)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        **kwargs,
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_subprocess_dev_zero():
    proc = _run("report", "/dev/zero", timeout=30)
    assert proc.returncode == 2 and proc.stdout == ""
    assert (
        proc.stderr
        == "iaa-teach: error: /dev/zero: is a device; only regular files are read (save the ratings "
        "to a file first)\n"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_subprocess_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    proc = _run("report", fifo, timeout=30)  # no writer: opening it would block forever
    assert proc.returncode == 2 and "is a FIFO" in proc.stderr and "Traceback" not in proc.stderr


def test_subprocess_encoding_error_is_one_line(tmp_path):
    path = write(tmp_path, "latin.csv", b"A,B\nP,caf\xe9\n")
    proc = _run("report", path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "line 2, column 6" in proc.stderr


def test_subprocess_closed_pipe_is_quiet(tmp_path):
    r = datasets.simulate(50, 20, seed=1)
    path = tmp_path / "many.csv"
    pd.DataFrame(r.rows(), columns=list(r.raters)).to_csv(path, index=False)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        f"'{sys.executable}' -m iaa_teach.cli report '{path}' --all-pairs | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.stdout.startswith("Read many.csv as wide: 50 items (rows numbered 1..50) x 20 raters")
    assert "Traceback" not in proc.stderr


# ============================================================ 7. widgets and exercises
WIDGET_ERRORS = [
    ("Table(page_size='x')", lambda: TableExplorer(page_size="x"), r"page_size must be a whole number"),
    ("Table(page_size=0)", lambda: TableExplorer(page_size=0), r"page_size must be between 1 and 100"),
    ("Table(level=)", lambda: TableExplorer(level="cubic"), r"level must be one of"),
    ("Table(figure=)", lambda: TableExplorer(figure="pie"), r"figure must be one of"),
    (
        "Table(font_size css)",
        lambda: TableExplorer(font_size="1px; } body { display: none"),
        r"font_size must be a CSS size",
    ),
    ("Table(font_size=17)", lambda: TableExplorer(font_size=17), r"font_size must be a string"),
    ("Table(ratings='x')", lambda: TableExplorer("x"), r"expected a table"),
    ("Paradox(n_items=5)", lambda: ParadoxExplorer(n_items=5), r"n_items must be between 10 and 1000"),
    (
        "Paradox(accuracy=2)",
        lambda: ParadoxExplorer(accuracy=2),
        r"accuracy must be at least 0 and at most 1",
    ),
    ("Paradox(prevalence='x')", lambda: ParadoxExplorer(prevalence="x"), r"prevalence must be a number"),
    ("Paradox(seed=-1)", lambda: ParadoxExplorer(seed=-1), r"seed must be between 0 and 99"),
    ("Missing(share=5)", lambda: MissingDataExplorer(share=5), r"share must be at least 0 and at most 0.9"),
    ("Missing(level=)", lambda: MissingDataExplorer(level="x"), r"level must be one of"),
    ("Coverage(first='Z')", lambda: CoverageExplorer(first="Z"), r"no rater named 'Z'"),
    ("Coverage(same)", lambda: CoverageExplorer(first="D", second="D"), r"two different annotators"),
    ("Coverage(keep=)", lambda: CoverageExplorer(keep="A"), r"keep must be 'D' or 'E'"),
    ("Weights(level=ratio)", lambda: WeightsExplorer(level="ratio"), r"level must be one of"),
    ("Weights(weights=)", lambda: WeightsExplorer(weights="cubic"), r"weights must be one of"),
    ("Weights(a='Z')", lambda: WeightsExplorer(a="Z"), r"no rater named 'Z'"),
    ("Quiz(kind=)", lambda: Quiz("essay"), r"kinds? must be one of"),
    ("Quiz(seed=-1)", lambda: Quiz(seed=-1), r"seed must be between 0 and"),
    ("Quiz(seed='x')", lambda: Quiz(seed="x"), r"seed must be a whole number"),
    ("Quiz(kinds=[])", lambda: Quiz(kinds=[]), r"kinds is empty"),
    ("Quiz(kinds='cohen')", lambda: Quiz(kinds="cohen"), r"kinds must be a list"),
    ("Quiz(font_size=)", lambda: Quiz(font_size="<b>"), r"font_size must be a CSS size"),
]


@pytest.mark.parametrize("call, match", [pytest.param(c, m, id=i) for i, c, m in WIDGET_ERRORS])
def test_widget_arguments(call, match):
    with raises(match):
        call()


def test_table_explorer_set_cell_errors():
    ex = TableExplorer()
    with raises(r"there is no item 99"):
        ex.set_cell(99, "A", "P")
    with raises(r"there is no item \[1\]"):
        ex.set_cell([1], "A", "P")
    with raises(r"label 'Q' is not one of the categories"):
        ex.set_cell(1, "A", "Q")
    with raises(r"no rater named 'Z'"):
        ex.set_cell(1, "Z", "P")
    numbers = TableExplorer(Ratings.from_rows([[1, 2], [2, 2], [1, 1]]))
    with raises(r"label True is not one of the categories"):
        numbers.set_cell(1, "A", True)  # True is not the category 1
    ex.set_cell(1, "A", " NA ")
    assert ex.ratings.rows()[0][0] is None


def test_widgets_take_a_dataframe():
    frame = pd.DataFrame(datasets.sentiment().rows(), columns=["A", "B", "C"])
    ex = TableExplorer(frame)
    assert ex.values()["Fleiss pooled kappa"] == "0.564"


EXERCISE_ERRORS = [
    ("make_question(kind)", lambda: make_question("essay"), r"kind must be one of"),
    ("make_question(seed=-1)", lambda: make_question("cohen", -1), r"seed must be at least 0"),
    ("make_question(seed='a')", lambda: make_question("cohen", "a"), r"seed must be a whole number"),
    (
        "make_question(n_items=1000)",
        lambda: make_question("cohen", 1, n_items=1000),
        r"n_items for a 'cohen' question",
    ),
    ("make_question(weights=)", lambda: make_question("cohen", 1, weights="linear"), r"only kind='weighted'"),
    ("check(part)", lambda: make_question("cohen", 1).check("z", "0.5"), r"this question has parts"),
    ("parse_answer(None)", lambda: parse_answer(None), r"an answer must be a number or a string"),
    ("parse_answer('')", lambda: parse_answer("   "), r"the answer is empty"),
    ("mistake_info(id)", lambda: mistake_info("cohen", "nope"), r"id must be one of"),
    ("mistake_info(kind)", lambda: mistake_info("essay", "rounding"), r"kind must be one of"),
    ("worksheet_html(ints)", lambda: worksheet_html([1, 2]), r"questions must be Question objects"),
    ("worksheet_html(title=5)", lambda: worksheet_html([], title=5), r"title must be a string"),
]


@pytest.mark.parametrize(
    "answer, words",
    [
        pytest.param([0.5], "an answer must be a number or a string, got list", id="list"),
        pytest.param(math.inf, "an answer must be a finite number", id="inf"),
        pytest.param("1/0", "divides by zero", id="1/0"),
        pytest.param(None, "got NoneType", id="None"),
        pytest.param("0x1p3", "cannot read '0x1p3' as a number", id="hex"),
        pytest.param("1e999", "cannot read '1e999' as a number", id="1e999"),
        pytest.param(MARKUP, "cannot read", id="markup"),
    ],
)
def test_unreadable_answers_are_feedback_not_errors(answer, words):
    """A student's answer is never an exception: the quiz says what it could not read."""
    feedback = make_question("cohen", 1).check("a", answer)
    assert feedback.status == "unreadable" and words in feedback.message
    quiz = Quiz("cohen", seed=1)
    quiz.answers["a"].value = str(answer)
    quiz.check_button.click()
    assert "<img" not in quiz.feedback["a"].value


@pytest.mark.parametrize("call, match", [pytest.param(c, m, id=i) for i, c, m in EXERCISE_ERRORS])
def test_exercise_arguments(call, match):
    with raises(match):
        call()


def test_limits_are_documented_in_the_user_guide():
    readme = (ROOT / "docs" / "own-data.md").read_text()
    for what, (default, keyword, option) in LIMITS.items():
        assert keyword in readme and f"{default:,}" in readme, what
        if option:
            assert option in readme
    for marker in ("`NA`", "`N/A`", "`NaN`", "`nan`", "`None`", "`null`"):
        assert marker in readme
    assert MAX_CATEGORIES == 200 and MAX_PAIRS == 1000
