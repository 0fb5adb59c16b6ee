"""The HTML report tells the whole story, with its uncertainty (issue 24).

- the whole table: every coefficient of the family with its SE and interval,
  the numbers irrCAC gives; no band on percent agreement; intervals kept in
  the coefficient's range and said so;
- pairs of raters: every pair's Cohen's kappa, P_o, P_e and SE as sklearn and
  statsmodels give them, the pairwise matrix in the JSON, and the directed
  cross-table of the least agreeing (or a chosen) pair as sklearn's
  confusion matrix;
- rankings: the rater ranking's bootstrap is the plain recomputation of
  each resample (against the krippendorff package); a 15-item table says
  which raters cannot be told apart instead of naming one; ties named;
- 2 raters: no empty chart, no claim about a rater holding others back;
- small print: a kappa from too few items gets no band, ordinal alpha shows
  its disagreements rather than "1 - D_o".
"""

from __future__ import annotations

import json
import re

import irrCAC.datasets as irr_data
import krippendorff
import numpy as np
import pytest
from irrCAC.raw import CAC
from rounding import d3
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from test_report import Page, check_self_contained, write_csv

from iaa_teach import Ratings, datasets, diagnose, family_intervals
from iaa_teach._report import MIN_ITEMS
from iaa_teach.cli import main
from iaa_teach.report import text_report, to_data, to_html


def gender() -> Ratings:
    """irrCAC's raw_gender: 15 items x 4 raters, categories a, b, c."""
    table = irr_data.raw_gender().reset_index(drop=True)
    return Ratings.from_dataframe(table)


def ben_gerry() -> Ratings:
    """irrCAC's raw_ben_gerry: 12 items x 2 raters, one rating missing."""
    return Ratings.from_dataframe(irr_data.raw_ben_gerry().reset_index(drop=True))


def words(page_text: str) -> str:
    return re.sub(r"\s+", " ", "".join(Page(page_text).text)).replace("\u00a0", " ")


def table_rows(page_text: str, caption: str) -> list[list[str]]:
    """The body rows of the table with ``caption`` (cell texts)."""
    start = page_text.index(f"<caption>{caption}")
    body = page_text[start : page_text.index("</table>", start)]
    rows = re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[1])
    return [
        [
            re.sub(r"<[^>]+>", "", cell).replace("\u00a0", " ")
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
        ]
        for row in rows
    ]


@pytest.fixture(scope="module")
def gender_page():
    report = diagnose(gender())
    return report, to_html(report, source="gender.csv", dpi=30)


# ====================================================== the whole table
def test_the_family_section_is_irrcacs_numbers(gender_page):
    report, page = gender_page
    check_self_contained(page)
    rows = {row[0]: row for row in table_rows(page, "The whole table: each coefficient")}
    cac = CAC(irr_data.raw_gender().reset_index(drop=True), digits=15)
    for name, est in (("Fleiss' kappa", cac.fleiss()["est"]), ("Gwet's AC1", cac.gwet()["est"])):
        low, high = est["confidence_interval"]
        assert rows[name][1:4] == [d3(est["coefficient_value"]), f"{d3(low)} to {d3(high)}", d3(est["se"])]
        assert rows[name][5:7] == [d3(est["pa"]), d3(est["pe"])]
    assert rows["percent agreement"][4] == "–"  # no Landis-Koch band on a raw share
    assert "slight" in rows["Fleiss' kappa"] and "fair" in rows["Gwet's AC1"]


def test_intervals_stay_in_range_and_say_so():
    r = ben_gerry()
    page = to_html(diagnose(r), dpi=30)
    rows = {row[0]: row for row in table_rows(page, "The whole table: each coefficient")}
    assert rows["Gwet's AC1"][2].endswith("to 1.000") and "cut to the range -1 to 1" in rows["Gwet's AC1"][-1]
    assert "cut" not in rows["Cohen's kappa"][-1]  # 0.340 to 0.972: inside
    # a tiny table whose analytic intervals run below -1 and 0
    tiny = Ratings.from_rows([["x", "y"], ["y", "x"], ["x", "x"], ["y", "x"], ["x", "y"], ["y", "y"]])
    data = to_data(diagnose(tiny), family=family_intervals(tiny))
    raw = {row.metric: row for row in family_intervals(tiny)}
    assert raw["cohen_kappa"].low < -1  # the analytic interval runs past the range...
    for rec in data["family"]:
        floor = 0 if rec["metric"] == "percent_agreement" else -1
        assert rec["low"] is None or floor <= rec["low"] <= rec["high"] <= 1  # ...the report's does not
    cohen = next(rec for rec in data["family"] if rec["metric"] == "cohen_kappa")
    assert cohen["low"] == -1 and cohen["interval_cut"]
    assert all(rec["low"] >= -1 for rec in data["pairwise"]["pairs"])
    text = text_report(tiny)
    assert "cut to the range -1 to 1" in text and "-1.0" not in text.replace("-1.000", "")


# ================================================================= pairs
def test_every_pair_is_sklearn_and_statsmodels(gender_page):
    report, page = gender_page
    r = report.ratings
    labels = np.array(r.rows(), dtype=object)
    data = to_data(report)
    records = data["pairwise"]["pairs"]
    assert len(records) == 6 and [rec["kappa"] for rec in records] == sorted(rec["kappa"] for rec in records)
    shown = {(row[0], row[1]): row for row in table_rows(page, "Cohen's kappa of every pair of raters")}
    for rec in records:
        a, b = r.raters.index(rec["rater_a"]), r.raters.index(rec["rater_b"])
        kappa = cohen_kappa_score(labels[:, a], labels[:, b])
        table = confusion_matrix(labels[:, a], labels[:, b], labels=list(r.categories))
        sm = sm_cohens_kappa(table)
        assert rec["kappa"] == pytest.approx(kappa, abs=1e-12) == data["pairwise"]["matrix"][a][b]
        assert data["pairwise"]["matrix"][b][a] == rec["kappa"]
        assert rec["se"] == pytest.approx(sm.std_kappa, rel=1e-9)
        assert (rec["low"], rec["high"]) == pytest.approx((sm.kappa_low, sm.kappa_upp), rel=1e-9)
        row = shown[(rec["rater_a"], rec["rater_b"])]
        assert row[2:5] == [d3(kappa), f"{d3(sm.kappa_low)} to {d3(sm.kappa_upp)}", d3(sm.std_kappa)]
    assert data["pairwise"]["matrix"][0][0] is None


def test_the_cross_table_is_sklearns_confusion_matrix(gender_page):
    report, page = gender_page
    r = report.ratings
    labels = np.array(r.rows(), dtype=object)
    cross = to_data(report)["cross_table"]
    assert (cross["rater_a"], cross["rater_b"]) == ("Rater2", "Rater4")  # the lowest kappa, -0.025
    a, b = r.raters.index("Rater2"), r.raters.index("Rater4")
    expected = confusion_matrix(labels[:, a], labels[:, b], labels=["a", "b", "c"])
    assert cross["counts"] == expected.tolist() and cross["agree"] == 4
    rows = table_rows(page, "Rater2's labels against Rater4's")
    assert rows[0] == ["a", "2", "0", "8", "10"] and rows[-1] == ["total", "4", "2", "9", "15"]
    assert "Rater2 (rows) \\ Rater4 (columns)" in page
    chosen = to_data(report, pair=("Rater4", "Rater3"))["cross_table"]
    assert chosen["counts"] == confusion_matrix(labels[:, 3], labels[:, 2], labels=["a", "b", "c"]).tolist()
    with pytest.raises(Exception, match="no rater 'Rater9'"):
        to_html(report, pair=("Rater1", "Rater9"))


def test_missing_ratings_leave_the_item_out_of_the_pair():
    r = ben_gerry()
    cross = to_data(diagnose(r))["cross_table"]
    rows = [row for row in r.rows() if None not in row]
    expected = confusion_matrix([x for x, _ in rows], [y for _, y in rows], labels=list(r.categories))
    assert cross["counts"] == expected.tolist() and cross["items"] == 11


# ============================================================== rankings
def test_the_bootstrap_is_the_plain_recomputation_of_each_resample():
    r = gender()
    report = diagnose(r)
    n_boot, seed = 7, 3
    sure = report.rater_intervals(n_boot=n_boot, seed=seed)
    rng = np.random.default_rng(seed)
    codes = r.codes.astype(float)
    codes[codes < 0] = np.nan
    rises = []
    for _ in range(n_boot):
        take = codes[rng.integers(0, r.n_items, r.n_items)]
        whole = krippendorff.alpha(take.T, level_of_measurement="nominal")
        rises.append(
            [
                krippendorff.alpha(
                    np.delete(take, r.raters.index(name), axis=1).T, level_of_measurement="nominal"
                )
                - whole
                for name in sure.raters
            ]
        )
    rises = np.array(rises)
    assert sure.low == pytest.approx(np.percentile(rises, 2.5, axis=0), abs=1e-12)
    assert sure.high == pytest.approx(np.percentile(rises, 97.5, axis=0), abs=1e-12)
    assert sure.se == pytest.approx(rises.std(axis=0, ddof=1), abs=1e-12)


def test_fifteen_items_say_which_raters_cannot_be_told_apart(gender_page):
    report, page = gender_page
    said = words(page)
    assert "Least in step" not in said
    assert (
        "No rater stands out: with 15 items, Rater2, Rater4, Rater1 and Rater3 cannot be told apart" in said
    )
    assert "4 items tied at 0.833: 2, 3, 11 and 12" in said  # not "3 items at 0.833"
    assert "Rater4 gave c 9 of their 15 labels" in said
    data = to_data(report)
    assert data["rater_intervals"]["cannot_be_told_from_first"] == ["Rater2", "Rater4", "Rater1", "Rater3"]
    first = data["raters"][0]
    assert first["rise_low"] < 0 < first["rise"] < first["rise_high"]


def test_a_rater_who_stands_out_is_still_named():
    report = diagnose(datasets.class_annotations())
    sure = report.rater_intervals()
    assert sure.alike_first == ("S27",) and sure.low[0] > 0
    said = words(to_html(report, dpi=20))
    assert "Least in step: S27" in said and "apart from the next rater" in said


# ============================================================== 2 raters
def test_two_raters_get_the_pair_and_no_empty_ranking():
    r = ben_gerry()
    page = to_html(diagnose(r), dpi=30)
    said = words(page)
    assert "no single rater holds the others back" not in said
    assert "With 2 raters there is no ranking of raters" in said
    assert "Where Ben and Gerry part ways (the only pair)" in said
    assert "Leave one rater out" not in page and "alpha without" not in said
    data = to_data(diagnose(r))
    assert data["pairwise"]["matrix"] == [
        [None, data["pairwise"]["pairs"][0]["kappa"]],
        [data["pairwise"]["pairs"][0]["kappa"], None],
    ]


# ============================================================ small print
def test_too_few_items_get_no_band():
    one = Ratings.from_rows([["x", "y"], ["x", None], [None, "y"]])  # one shared item: kappa 0
    text = text_report(one)
    line = next(line for line in text.splitlines() if line.strip().startswith("A vs B"))
    assert "too few items: 1" in line and "slight" not in line
    data = to_data(diagnose(one))
    assert data["pairwise"]["pairs"][0]["too_few_items"] and MIN_ITEMS > 1
    said = words(to_html(diagnose(one), dpi=20))
    assert "too few items: 1" in said


def test_percent_agreement_has_no_band_in_the_text():
    text = text_report(datasets.sentiment())
    line = next(line for line in text.splitlines() if line.strip().startswith("percent agreement"))
    assert "not chance-corrected: no band" in line and "moderate" not in line


def test_percent_agreement_has_no_chance_in_any_format():
    """Percent agreement is not chance-corrected: its chance is "–" in the text and the HTML, null in
    the JSON (not 0), and it has no band; the chance-corrected rows keep theirs."""
    r = datasets.diagnoses()
    family = family_intervals(r)
    line = next(x for x in text_report(r, family=family).splitlines() if x.strip().startswith("percent"))
    assert "P_a = 0.556, P_e = –," in line and "0.000" not in line and "no band" in line
    rows = {row[0]: row for row in table_rows(to_html(diagnose(r), family=family, dpi=20), "The whole table")}
    assert rows["percent agreement"][4:7] == ["–", "0.556", "–"]
    assert rows["Fleiss' kappa"][4:7] == ["moderate", "0.556", "0.220"]
    records = {rec["name"]: rec for rec in to_data(diagnose(r), family=family)["family"]}
    assert records["percent agreement"]["chance"] is None and records["percent agreement"]["band"] is None
    assert records["percent agreement"]["observed"] == pytest.approx(5 / 9, abs=1e-15)
    assert records["Fleiss' kappa"]["chance"] == pytest.approx(float(family[2].result.exact.p_e), abs=1e-15)
    json.dumps(records, allow_nan=False)


def test_ordinal_alpha_shows_its_disagreements():
    r = Ratings.from_rows([[1, 2], [3, 3], [5, 1], [2, 2], [4, 5], [1, 1]], categories=[1, 2, 3, 4, 5])
    text = text_report(r, level="ordinal")
    line = next(line for line in text.splitlines() if "Krippendorff's alpha" in line and "SE =" in line)
    assert "1 - D_o" not in line and "(ordinal distances)" in line
    alpha = diagnose(r, "ordinal").alpha
    assert f"D_o = {d3(alpha.d_o)}" in line


def test_ordinal_alpha_in_the_html_family_has_no_agreement_shares_not_undefined():
    """Alpha at the ordinal level is a ratio of disagreements in squared distances: its observed and
    chance cells are "–" (not applicable) with D_o and D_e in the note, never "undefined"."""
    r = Ratings.from_rows([[1, 2], [3, 3], [5, 1], [2, 2], [4, 5], [1, 1]], categories=[1, 2, 3, 4, 5])
    report = diagnose(r, "ordinal")
    page = to_html(report, family=family_intervals(r, level="ordinal"), dpi=30)
    row = {row[0]: row for row in table_rows(page, "The whole table: each coefficient")}[
        "Krippendorff's alpha"
    ]
    assert row[5:7] == ["–", "–"] and "undefined" not in row
    assert f"D_o = {d3(report.alpha.d_o)} and D_e = {d3(report.alpha.d_e)}" in row[-1]


def test_the_text_says_when_its_pair_table_is_weighted_otherwise_than_the_html():
    """At the ordinal level the HTML and JSON pair tables are linearly weighted (diagnose's
    KAPPA_WEIGHTS); the text's pairs follow --weights, so the text says which is which."""
    r = Ratings.from_rows([[1, 2], [3, 3], [5, 1], [2, 2], [4, 5], [1, 1]], categories=[1, 2, 3, 4, 5])
    lines = text_report(r, level="ordinal").splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Cohen's kappa"))
    assert "(unweighted)" in lines[head]
    assert "follow alpha's ordinal level: Cohen's kappa (linear weights)" in lines[head + 1]
    assert "note" not in text_report(r, level="ordinal", weights="linear").splitlines()[head + 1]
    nominal = text_report(r).splitlines()
    assert "(unweighted)" not in nominal[head] and "note" not in nominal[head + 1]


def test_the_cli_json_has_the_pairwise_matrix(tmp_path):
    path = write_csv(tmp_path / "g.csv", gender())
    out = tmp_path / "g.json"
    assert main(["report", path, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["pairwise"]["matrix"]) == 4 and data["cross_table"]["rater_a"] == "Rater2"
    assert data["family"][0]["name"] == "percent agreement" and data["family"][0]["band"] is None


# ======================================================= something to act on
def test_gold_comparison_is_sklearns(tmp_path, capsys):
    from sklearn.metrics import accuracy_score

    from iaa_teach.diagnosis import compare_with_gold

    r = gender()
    labels = np.array(r.rows(), dtype=object)
    out = compare_with_gold(r, "Rater1")
    assert out.annotators.raters == ("Rater2", "Rater3", "Rater4")
    gold = labels[:, 0]
    for row in out.table:
        j = r.raters.index(row["annotator"])
        assert row["accuracy"] == pytest.approx(accuracy_score(gold, labels[:, j]), abs=1e-15)
        assert row["kappa"] == pytest.approx(cohen_kappa_score(gold, labels[:, j]), abs=1e-12)
        expected = confusion_matrix(gold, labels[:, j], labels=["a", "b", "c"])
        assert out.confusion[row["annotator"]].tolist() == expected.tolist()
    assert list(out.table["accuracy"]) == sorted(out.table["accuracy"])  # least accurate first
    # the command line: the gold column leaves the agreement and gets its own section everywhere
    path = write_csv(tmp_path / "g.csv", r)
    html, js = tmp_path / "g.html", tmp_path / "g.json"
    assert main(["report", path, "--gold", "Rater1", "--html", str(html), "--json", str(js)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Read g.csv as wide: 15 items") and "x 4 raters" in text.splitlines()[0]
    assert (
        "column Rater1 holds the gold labels" in text and "Rater4      " in text.split("gold labels in")[-1]
    )
    data = json.loads(js.read_text())
    assert data["reading"]["summary"][0] == text.splitlines()[0]
    assert data["table"]["raters"] == ["Rater2", "Rater3", "Rater4"]
    worst = data["gold"]["annotators"][0]
    assert worst["annotator"] == "Rater4" and worst["correct"] == 5 and worst["items"] == 15
    page = html.read_text()
    rows = table_rows(page, "Each annotator against Rater1")
    assert rows[0][:4] == ["Rater4", d3(accuracy_score(gold, labels[:, 3])), "5", "15"]
    assert "Where Rater4 departs from the gold" in words(page)
    assert main(["report", path, "--gold", "Rater9"]) == 2


def test_messy_gold_column_with_missing_labels():
    from iaa_teach.diagnosis import compare_with_gold

    r = Ratings.from_rows(
        [
            ["x", "x", None],
            ["y", None, "y"],
            [None, "x", "y"],
            ["x", "y", "y"],
            ["y", "y", "x"],
            ["x", "x", "x"],
        ],
        raters=["gold", "P1", "P2"],
    )
    out = compare_with_gold(r, "gold")
    by = {row["annotator"]: row for row in out.table}
    shared = [(g, a) for g, a, _ in r.rows() if g is not None and a is not None]
    assert by["P1"]["items"] == len(shared) == 4
    assert by["P1"]["kappa"] == pytest.approx(cohen_kappa_score(*zip(*shared)), abs=1e-12)


def test_items_to_adjudicate_as_csv(tmp_path):
    import csv

    r = gender()
    report = diagnose(r)
    path = write_csv(tmp_path / "g.csv", r)
    out = tmp_path / "adjudicate.csv"
    assert main(["report", path, "--items-csv", str(out)]) == 0
    with open(out, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    counts = r.counts()
    disputed = [str(item) for item, row in zip(r.items, counts) if (row > 0).sum() > 1]
    assert sorted(row["item"] for row in rows) == sorted(disputed) and len(rows) == 13
    assert [row["item"] for row in rows[:4]] == ["2", "3", "11", "12"]
    first = rows[0]
    assert first["why"] == "no majority: a 2 of 4; b 1, c 1" and first["labels"] == "a 2; b 1; c 1"
    assert [first[name] for name in r.raters] == list(r.rows()[r.items.index(2)])
    tie = next(row for row in rows if row["item"] == "4")
    assert tie["why"] == "tie: a and c have 2 each of 4 ratings"
    page = to_html(report, dpi=20)
    assert 'download="items_to_adjudicate.csv"' in page and "13 of 15 items" in words(page)


def test_the_csv_keeps_hostile_text_as_text():
    import csv
    import io

    from iaa_teach._report import adjudication_csv

    r = Ratings.from_rows(
        [["=cmd|' /C calc'!A0", "-1"], ["@SUM(A1)", "+x"], ["-1", "-1"]],
        raters=["=A", "B"],
        items=["=HYPERLINK(1)", "i2", "i3"],
    )
    rows = list(csv.reader(io.StringIO(adjudication_csv(diagnose(r)))))
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    assert "'=cmd|' /C calc'!A0" in cells and "'=HYPERLINK(1)" in cells and "-1" in cells


# ======================================================== 40 raters' heatmap
@pytest.mark.parametrize("n_raters, shown", [(40, 40), (45, 23)])  # 45: the pair limit (990 of 1,000)
def test_the_heatmap_names_stay_readable(n_raters, shown):
    from iaa_teach import plots

    report = diagnose(datasets.simulate(n_items=60, n_raters=n_raters, seed=2))
    fig = plots.rater_agreement_heatmap(report)
    ax = fig.axes[0]
    labels = [t for t in ax.get_yticklabels() if t.get_text()]
    assert len(labels) == shown and min(t.get_fontsize() for t in labels) >= 7
    width, height = fig.get_size_inches()
    assert width == height  # square: every name at least 15 px apart at 100 %
    assert height * 100 * 0.75 / shown >= 13


def test_the_heatmap_highlights_only_a_rater_told_apart(gender_page):
    from iaa_teach.report import draw

    report, _ = gender_page
    fig = draw(report, "raters", sure=report.rater_intervals())
    assert not any(t.get_fontweight() == "bold" for t in fig.axes[0].get_yticklabels())
    assert "highlighted" not in fig.axes[0].get_title()


def test_a_clear_rise_shared_by_two_raters_names_both():
    report = diagnose(datasets.diagnoses())  # Fleiss 1971: rater1's rise is clear of 0, rater6's close
    sure = report.rater_intervals()
    assert sure.low[0] > 0 and len(sure.alike_first) > 1
    said = words(to_html(report, dpi=20, sure=sure))
    assert "Least in step, and not to be told apart with 30 items: rater1 and rater6" in said
    assert "which holds 0" not in said and "No rater stands out" not in said
