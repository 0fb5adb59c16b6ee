"""Hostile input, at random (issue 9).

- random bytes and random CSV-ish text into ``Ratings.from_csv`` and ``iaa-teach report``:
  a table or an AgreementError / exit code 2 with one line, nothing else;
- random labels and rater names (unicode, markup, mathtext) through every HTML renderer: the
  page has the same tags as with a plain label, and no ``$`` of theirs can open maths;
- the same table from a DataFrame, from rows and from a file.
"""

from __future__ import annotations

import contextlib
import html.parser
import io
import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iaa_teach import (
    AgreementError,
    Ratings,
    cohen_kappa,
    datasets,
    explain,
    fleiss_kappa,
    krippendorff_alpha,
    pairwise_cohen,
    ratings_table,
)
from iaa_teach._reading import MISSING_MARKERS
from iaa_teach.cli import main
from iaa_teach.widgets import TableExplorer

pytestmark = pytest.mark.filterwarnings("ignore:Glyph .* missing from font:UserWarning")

QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CSV_ALPHABET = st.sampled_from(
    list(',;\t"\n\r ')
    + [
        "a",
        "b",
        "1",
        "2",
        "3.5",
        "NA",
        "",
        "é",
        "\x00",
        "item",
        "rater",
        "label",
        "-",
        "1e400",
        "True",
        "\ufeff",
    ]
)


def _read(data: bytes, **kwargs) -> Ratings | None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.csv"
        path.write_bytes(data)
        try:
            return Ratings.from_csv(path, **kwargs)
        except AgreementError:
            return None


def _cli(data: bytes, *options: str) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.csv"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["report", str(path), *options])
        return code, out.getvalue(), err.getvalue()


def _check_cli(code: int, out: str, err: str) -> None:
    assert code in (0, 2), (code, err)
    if code == 2:
        assert out == "" and err.startswith("iaa-teach: error: ") and err.count("\n") == 1, err
    else:
        assert err == "" and out.count("\n") >= 8


@QUICK
@given(st.binary(max_size=300))
def test_random_bytes(data):
    r = _read(data)
    assert r is None or r.n_raters >= 2
    _check_cli(*_cli(data))


@QUICK
@given(st.lists(CSV_ALPHABET, max_size=60).map("".join), st.sampled_from(["wide", "long"]))
def test_random_csv_text(text, format):
    data = text.encode("utf-8")
    r = _read(data, format=format)
    if r is not None:
        assert r.n_items >= 1 and r.n_raters >= 2 and len(set(r.raters)) == r.n_raters
        assert all(c is not None for c in r.categories)
    _check_cli(*_cli(data, "--format", format))


@QUICK
@given(
    st.lists(
        st.lists(
            st.sampled_from(["x", "y", "1", "2", "NA", "", " x ", '"a,b"', 'z"q']), min_size=2, max_size=4
        ),
        min_size=1,
        max_size=6,
    )
)
def test_random_rectangular_csv_reads_as_the_rows_say(rows):
    width = len(rows[0])
    rows = [row[:width] + [""] * (width - len(row)) for row in rows]
    text = ",".join(f"r{j}" for j in range(width)) + "\n" + "\n".join(",".join(row) for row in rows) + "\n"
    r = _read(text.encode())
    expected = [
        [
            None if c.strip() in MISSING_MARKERS else c.strip().strip('"') if c.startswith('"') else c.strip()
            for c in row
        ]
        for row in rows
    ]
    expected = [row for row in expected if any(v is not None for v in row)]
    if r is None:  # nothing to rate, or one label that is a number beside text that is not: still an error
        return
    shown = [[None if v is None else str(v) for v in row] for row in r.rows()]
    assert shown == [[v for v in row] for row in expected]


# ----------------------------------------------------------------- escaping
class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list = []
        self.text: list[str] = []
        self._bare = []

    def handle_starttag(self, tag, attrs):
        bare = tag == "span" and not attrs  # html_escape's span around a $ or a backslash
        self._bare.append(bare)
        if not bare:
            self.tags.append((tag, tuple(name for name, _ in attrs)))

    def handle_endtag(self, tag):
        if not (self._bare and self._bare.pop()):
            self.tags.append("/" + tag)

    def handle_data(self, data):
        self.text.append(data)


def _page(markup: str) -> _Page:
    page = _Page()
    page.feed(markup)
    page.close()
    return page


def _dollars(page: _Page) -> int:
    """``$`` that could open maths: in text, outside the spans that html_escape puts around a user's ``$``."""
    return sum(len(re.findall(r"(?<!\\)\$", t)) for t in page.text if t != "$")


LABELS = (
    st.one_of(
        st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10),
        st.sampled_from(
            [
                "<img src=x onerror=alert(1)>",
                "$\\frac{$",
                "$x$",
                "\\(x\\)",
                "</td></tr>",
                "&amp;",
                "a|b",
                "**",
                "<!--",
                "]]>",
                "\\begin{align}",
                "{}",
                "'\"",
                "\u202e",
                "x\ny",
            ]
        ),
    )
    .map(str.strip)
    .filter(lambda s: s not in MISSING_MARKERS and s not in ("G", "N", "P", "A", "B", "C"))
)


def _tables(label: str, name: str):
    rows = [[label if v == "P" else v for v in row] for row in datasets.sentiment().rows()]
    return Ratings.from_rows(rows, raters=[name, "B", "C"], categories=["G", "N", label])


def _renderings(r: Ratings) -> dict[str, str]:
    a = r.raters[0]
    results = {
        "cohen": cohen_kappa(r, a, "B", weights="linear"),
        "pairwise": pairwise_cohen(r),
        "fleiss": fleiss_kappa(r, chance="item_mean"),
        "alpha": krippendorff_alpha(r, "ordinal"),
    }
    out = {}
    for key, res in results.items():
        ex = explain(res)
        out[key] = ex.html()
        out[key + " text-math"] = ex.html(math="text")
        out[key + " markdown"] = ex.markdown()
    out["table"] = ratings_table(r, caption="data").html()
    out["table markdown"] = ratings_table(r).markdown()
    return out


NEUTRAL = _renderings(_tables("Q", "Z"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LABELS, LABELS)
def test_every_html_renderer_escapes_labels_and_names(label, name):
    if label == name or name in ("B", "C"):
        return
    shown = _renderings(_tables(label, name))
    for key, markup in shown.items():
        if key.endswith("markdown"):
            lines, neutral = markup.splitlines(), NEUTRAL[key].splitlines()
            assert len(lines) == len(neutral), key  # no label starts a line, a row or a block
            for line, plain in zip(lines, neutral):
                if plain.startswith("|"):  # a table row: the same cells
                    assert len(re.findall(r"(?<!\\)\|", line)) == len(re.findall(r"(?<!\\)\|", plain)), (
                        key,
                        line,
                    )
            assert not re.search(r"(?<!\\)<[A-Za-z!/]", markup.replace(NEUTRAL[key], "")), key
            continue
        page, plain = _page(markup), _page(NEUTRAL[key])
        assert page.tags == plain.tags, key  # the same elements and attributes: no tag came from a label
        if "text-math" not in key:
            assert _dollars(page) == _dollars(plain), key  # no label's $ can open MathJax maths


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LABELS, LABELS)
def test_widget_readouts_escape_labels_and_names(label, name):
    if label == name or name in ("B", "C"):
        return
    explorer = TableExplorer(_tables(label, name))
    neutral = TableExplorer(_tables("Q", "Z"))
    assert _page(explorer.readout.value).tags == _page(neutral.readout.value).tags
    assert set(explorer.values()) == {
        key.replace("Z", name) for key in neutral.values()
    }  # names read back whole


# ------------------------------------------------------------- one table, three ways
CELLS = st.one_of(
    st.none(), st.sampled_from(["x", " y", "z ", "NA", "", "null", "maybe"]), st.integers(-3, 3)
)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda w: st.lists(st.lists(CELLS, min_size=w, max_size=w), min_size=1, max_size=8)
    )
)
def test_dataframe_rows_and_long_records_agree(rows):
    try:
        expected = Ratings.from_rows(rows)
    except AgreementError:
        with pytest.raises(AgreementError):
            Ratings.from_dataframe(pd.DataFrame(rows, columns=[f"r{j}" for j in range(len(rows[0]))]))
        return
    frame = pd.DataFrame(rows, columns=list(expected.raters), dtype=object)
    assert Ratings.from_dataframe(frame) == expected
    records = [(i, rater, v) for i, row in enumerate(rows, start=1) for rater, v in zip(expected.raters, row)]
    long = Ratings.from_long(records, raters=list(expected.raters), items=list(range(1, len(rows) + 1)))
    assert long.rows() == expected.rows()
    assert Ratings.from_dataframe(
        pd.DataFrame(records, columns=["item", "rater", "label"]), "long"
    ).rows() == [row for row in expected.rows()]
