"""Files as instructors really have them (issue 21): each shape read right, with the first line of the
report saying how, or refused with one line naming the option that fixes it.

Every file here is a small one of our own, written the way the real export is laid out (irrCAC's
``Units`` column, a Google Forms CSV, Excel's trailing separators and title rows, Label Studio's
CSV, pingouin's long ``Wine, Judge, Scores``). Numbers are checked against statsmodels and
scikit-learn, never against iaa_teach itself.
"""

from __future__ import annotations

import html
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss
from test_annotations_explorer import upload

from iaa_teach import AgreementError, Ratings, datasets, fleiss_kappa
from iaa_teach._report import reading_html
from iaa_teach.cli import main
from iaa_teach.report import summary_lines, text_report
from iaa_teach.widgets import AnnotationsExplorer


def write(tmp_path, name, text, newline="\n"):
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def read(path, **options):
    """Ratings.from_csv, and the warnings it gave (as text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = Ratings.from_csv(path, **options)
    return r, [str(w.message) for w in caught]


def cli(capsys, *argv):
    code = main(["report", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv, words=()):
    """The command line's refusal: exit 2, one line on standard error, naming ``words``."""
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("iaa-teach: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)
    return err


def first_line(capsys, *argv):
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    return out.split("\n\n", 1)[0].splitlines()


def fleiss_by_statsmodels(rows):
    table, _ = aggregate_raters(np.array(rows, dtype=object).astype(str))
    return sm_fleiss(table)


# ================================================= the item column
def diagnoses_csv(tmp_path, name="fleiss.csv", id_name="patient"):
    r = datasets.diagnoses()
    lines = [",".join([id_name, *r.raters])]
    lines += [",".join([f"p{i}", *map(str, row)]) for i, row in zip(r.items, r.rows())]
    return write(tmp_path, name, "\n".join(lines) + "\n"), r


@pytest.mark.parametrize("id_name", ["patient", "Units", "Subject", "#", "Patient ID", "doc_id", "index", ""])
def test_an_id_column_is_the_items_and_the_summary_says_so(tmp_path, id_name):
    # before issue 21 "patient", "Units", "Subject", "#"... were read as a rater: Fleiss' 0.430 became 0.280
    path, r = diagnoses_csv(tmp_path, id_name=id_name)
    got, caught = read(path)
    assert got.raters == r.raters and got.items == tuple(f"p{i}" for i in r.items) and not caught
    assert round(fleiss_kappa(got).kappa, 3) == 0.430
    assert fleiss_kappa(got).kappa == pytest.approx(fleiss_by_statsmodels(r.rows()), abs=1e-12)
    lines = summary_lines(got)
    column = f'IDs from column "{id_name}"' if id_name else "IDs from the unnamed first column"
    assert lines[0] == (
        f"Read fleiss.csv as wide: 30 items ({column}) x 6 raters (rater1, rater2, rater3, rater4, rater5, "
        f"rater6); categories {', '.join(sorted(r.categories))}; 180 ratings, 0 missing"
    )
    assert "item=False (--no-item-column)" in lines[1]


def test_no_item_column_reads_the_first_column_as_a_rater(tmp_path, capsys):
    path = write(tmp_path, "s.csv", "Case,B\nx,x\ny,y\nx,y\n")
    with pytest.raises(AgreementError, match=r"line 4: item ids must be unique.*--no-item-column"):
        read(path)
    r, _ = read(path, item=False)
    assert r.raters == ("Case", "B") and r.items == range(1, 4)
    assert "(rows numbered 1..3)" in summary_lines(r)[0]
    assert "rows numbered 1..3" in first_line(capsys, path, "--no-item-column")[0]


def test_a_first_column_of_ids_without_an_id_name_is_warned_about(tmp_path, capsys):
    rows = [
        f"w{i},{a},{b},{c}"
        for i, (a, b, c) in enumerate(
            [(1, 2, 1), (3, 3, 3), (2, 2, 1), (4, 4, 4), (1, 1, 2), (5, 5, 5), (2, 3, 3)]
        )
    ]
    path = write(tmp_path, "wine.csv", "Wine,J1,J2,J3\n" + "\n".join(rows) + "\n")
    r, caught = read(path)
    assert r.raters[0] == "Wine"  # what was asked for by default: but never silently
    assert len(caught) == 1 and 'item="Wine" (--item-column "Wine")' in caught[0]
    lines = first_line(capsys, path)
    assert lines[0].startswith("Read wine.csv as wide: 7 items (rows numbered 1..7) x 4 raters (Wine, J1")
    assert any(
        line.startswith('  warning: column "Wine" (the first column) has a different value') for line in lines
    )
    r, caught = read(path, item="Wine")
    assert r.raters == ("J1", "J2", "J3") and not caught
    assert first_line(capsys, path, "--item-column", "Wine")[0].startswith(
        'Read wine.csv as wide: 7 items (IDs from column "Wine") x 3 raters (J1, J2, J3)'
    )
    refused(capsys, path, "--item-column", "Vintage", words=["--item-column", '"Wine"'])


def test_repeated_ids_in_an_id_column_are_refused_naming_the_options(tmp_path, capsys):
    path = write(tmp_path, "r.csv", "subject,A,B\ns1,x,y\ns1,x,x\n")
    refused(capsys, path, words=["line 3", "--format long", "--no-item-column"])


# ================================================= forms: one row per respondent
FORM = """Timestamp,Email Address,Is review 1 positive?,Is review 2 positive?,Is review 3 positive?,Is review 4 positive?
2024/03/05 10:15:32 AM GMT+1,ann@example.org,Yes,No,Yes,Yes
2024/03/05 10:17:01 AM GMT+1,bob@example.org,Yes,No,No,Yes
2024/03/05 10:20:45 AM GMT+1,cy@example.org,Yes,Yes,No,Yes
2024/03/05 11:02:13 AM GMT+1,dee@example.org,No,No,No,Yes
2024/03/05 11:40:09 AM GMT+1,eve@example.org,Yes,No,No,Yes
"""


def test_a_form_read_as_items_by_raters_is_warned_about(tmp_path, capsys):
    path = write(tmp_path, "form.csv", FORM)
    _, caught = read(path)
    assert any('column "Timestamp" holds timestamps' in w and "--raters-as-rows" in w for w in caught)
    assert any('column "Email Address"' in w for w in caught)


def test_a_form_with_raters_as_rows(tmp_path, capsys):
    path = write(tmp_path, "form.csv", FORM)
    r, caught = read(path, raters_as_rows=True)
    assert not caught
    assert r.raters == (
        "ann@example.org",
        "bob@example.org",
        "cy@example.org",
        "dee@example.org",
        "eve@example.org",
    )
    assert r.items == tuple(f"Is review {i} positive?" for i in range(1, 5))
    assert r.rows()[1] == ["No", "No", "Yes", "No", "No"]
    answers = np.array([line.split(",")[2:] for line in FORM.strip().splitlines()[1:]])  # respondents x items
    assert fleiss_kappa(r).kappa == pytest.approx(fleiss_by_statsmodels(answers.T.tolist()), abs=1e-12)
    lines = summary_lines(r)
    assert lines[0].startswith(
        'Read form.csv as one row per rater: 4 items (the columns) x 5 raters (named in column "Email Address": '
        "ann@example.org, "
    )
    assert '  note: left out, as times of the answers: "Timestamp"' in lines
    assert first_line(capsys, path, "--raters-as-rows") == lines


def test_a_form_without_e_mails_numbers_its_raters(tmp_path):
    text = "\n".join(",".join(line.split(",")[:1] + line.split(",")[2:]) for line in FORM.splitlines()) + "\n"
    r, _ = read(write(tmp_path, "anon.csv", text), raters_as_rows=True)
    assert r.raters == ("R1", "R2", "R3", "R4", "R5")
    assert any("no column names the raters" in line and "--rater-column" in line for line in summary_lines(r))


def test_a_form_answered_twice_is_refused(tmp_path, capsys):
    lines = FORM.splitlines()
    path = write(tmp_path, "twice.csv", "\n".join([*lines, lines[1]]) + "\n")
    refused(capsys, path, "--raters-as-rows", words=["line 7", "ann@example.org", "two rows"])


def test_drop_column(tmp_path, capsys):
    path = write(tmp_path, "d.csv", "item,A,B,comment\n1,x,y,hm\n2,y,y,ok\n3,x,x,\n")
    r, _ = read(path, drop=["comment"])
    assert r.raters == ("A", "B")
    assert '  note: left out as asked (drop, --drop-column): "comment"' in first_line(
        capsys, path, "--drop-column", "comment"
    )
    refused(capsys, path, "--drop-column", "notes", words=["--drop-column", '"comment"'])


# ================================================= spreadsheets
def test_a_title_row_above_the_header(tmp_path, capsys):
    text = "Ratings of the pilot study\nitem,A,B,C\n1,x,y,x\n2,y,y,y\n3,x,x,y\n"
    path = write(tmp_path, "title.csv", text)
    refused(capsys, path, words=["line 2: 4 cells but the header has 1 columns", "--skip-rows 1"])
    r, _ = read(path, skip_rows=1)
    assert r.raters == ("A", "B", "C") and r.items == ("1", "2", "3")
    frame = pd.DataFrame(
        [
            ["Ratings of the pilot study", None, None, None],
            ["item", "A", "B", "C"],
            [1, "x", "y", "x"],
            [2, "y", "y", "y"],
            [3, "x", "x", "y"],
        ]
    )
    xlsx = tmp_path / "title.xlsx"
    frame.to_excel(xlsx, header=False, index=False)
    refused(capsys, xlsx, words=["row 2, column 2: a cell outside", "--skip-rows 1"])
    assert read(xlsx, skip_rows=1)[0].rows() == r.rows()


def test_trailing_empty_columns_are_dropped_with_a_note(tmp_path, capsys):
    path = write(tmp_path, "excel.csv", "A;B;C;;\nx;y;x;;\ny;y;y;;\n", newline="\r\n")
    r, _ = read(path)
    assert r.raters == ("A", "B", "C")
    assert "  note: 2 empty columns with no name at the right end left out" in first_line(capsys, path)


def test_old_mac_line_ends(tmp_path):
    path = write(tmp_path, "mac.csv", "A,B\nx,y\ny,y\n", newline="\r")
    assert read(path)[0].rows() == [["x", "y"], ["y", "y"]]


# ================================================= long files
def test_item_rater_label_is_recognised(tmp_path, capsys):
    path = write(tmp_path, "long.csv", "item,rater,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n")
    lines = first_line(capsys, path)
    assert lines[0].startswith(
        'Read long.csv as long (one rating per row): 2 items (IDs from column "item") x 2 '
        'raters (named in column "rater": a, b)'
    )
    assert lines[1].startswith(
        '  note: read as long (one rating per row) because the header "item, rater, label"'
    )


def test_wine_judge_scores(tmp_path, capsys):
    # pingouin's wine data, long: the header was read as a rating with --format long
    rows = [
        (w, j, s)
        for w, scores in enumerate([(5, 6, 5), (3, 4, 4), (7, 7, 6), (2, 3, 2)], 1)
        for j, s in zip("ABC", scores)
    ]
    path = write(tmp_path, "wine.csv", "Wine,Judge,Scores\n" + "".join(f"{w},{j},{s}\n" for w, j, s in rows))
    for argv in ([], ["--format", "long"]):
        lines = first_line(capsys, path, *argv)
        assert lines[0].startswith(
            'Read wine.csv as long (one rating per row): 4 items (IDs from column "Wine") '
            'x 3 raters (named in column "Judge": A, B, C); categories 2, 3, 4, 5, 6, 7'
        )
    r, _ = read(path)
    assert r.rows() == [[5, 6, 5], [3, 4, 4], [7, 7, 6], [2, 3, 2]]


def test_a_long_header_recognised_by_not_fitting_the_data(tmp_path, capsys):
    path = write(tmp_path, "l.csv", "w,j,s\n1,A,3\n1,B,4\n2,A,5\n2,B,5\n")
    r, _ = read(path, format="long")
    assert r.raters == ("A", "B") and r.rows() == [[3, 4], [5, 5]]
    path = write(tmp_path, "n.csv", "1,A,3\n1,B,4\n2,A,5\n2,B,5\n")
    r, _ = read(path, format="long")
    assert r.rows() == [[3, 4], [5, 5]]
    assert any("no header: the first line" in line for line in summary_lines(r))


LABEL_STUDIO = """annotation_id,annotator,created_at,id,lead_time,sentiment,text,updated_at
11,1,2024-03-01T10:00:00.000Z,1,3.2,Positive,great phone,2024-03-01T10:00:00.000Z
12,2,2024-03-01T10:05:00.000Z,1,4.0,Positive,great phone,2024-03-01T10:05:00.000Z
13,1,2024-03-01T10:01:00.000Z,2,2.1,Negative,"broke, in a week",2024-03-01T10:01:00.000Z
14,2,2024-03-01T10:06:00.000Z,2,5.5,Neutral,"broke, in a week",2024-03-01T10:06:00.000Z
15,1,2024-03-01T10:02:00.000Z,3,1.9,Neutral,it is a phone,2024-03-01T10:02:00.000Z
16,2,2024-03-01T10:07:00.000Z,3,2.2,Neutral,it is a phone,2024-03-01T10:07:00.000Z
"""


def test_label_studio_csv_picks_three_columns(tmp_path, capsys):
    path = write(tmp_path, "project-1.csv", LABEL_STUDIO)
    err = refused(capsys, path, "--format", "long", words=["--label-column", '"sentiment"'])
    assert "--rater-column" not in err  # "annotator" and "id" were recognised by their names
    r, _ = read(path, format="long", label="sentiment")
    assert r.raters == ("1", "2") and r.items == ("1", "2", "3")
    assert r.rows() == [["Positive", "Positive"], ["Negative", "Neutral"], ["Neutral", "Neutral"]]
    a, b = np.array(r.rows()).T
    from iaa_teach import cohen_kappa

    assert cohen_kappa(r).kappa == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    lines = first_line(capsys, path, "--label-column", "sentiment")
    assert lines[1] == (
        '  note: item IDs from column "id", raters from "annotator", labels from "sentiment"; left '
        'out: "annotation_id", "created_at", "lead_time", "text", "updated_at"'
    )


# ================================================= labels
def test_markers_as_pandas_and_counted(tmp_path, capsys):
    path = write(tmp_path, "m.csv", "A,B,C\nx,n/a,x\ny,#N/A,NULL\nx,,y\ny,y,NA\nx,x,x\n")
    r, _ = read(path)
    frame = pd.read_csv(path)  # pandas' defaults: the same cells missing
    assert np.array_equal(np.array([[v is None for v in row] for row in r.rows()]), frame.isna().to_numpy())
    assert summary_lines(r)[0].endswith(
        '10 ratings, 5 missing (1 empty, 1 "#N/A", 1 "NA", 1 "NULL", 1 "n/a")'
    )
    r, _ = read(path, keep_labels=["NA"])
    assert r.categories == ("NA", "x", "y") and r.rows()[3] == ["y", "y", "NA"]
    assert "categories NA, x, y" in first_line(capsys, path, "--keep-label", "NA")[0]
    refused(capsys, path, "--keep-label", "maybe", words=["keep_labels", "'maybe' is not a missing marker"])


def _missing_said(line):
    """``(n_missing, [(count, what), ...])`` from a first line's "..., 4 missing (3 empty, 1 "n/a")"."""
    m = re.search(r"(\d+) missing(?: \((.*)\))?", line)
    parts = [p.split(" ", 1) for p in m.group(2).split(", ")] if m.group(2) else []
    return int(m.group(1)), [(int(n), what) for n, what in parts]


@pytest.mark.parametrize(
    ("name", "text", "want"),
    [  # a wide file with no empty cell; a long one with a marker and an item a rater has no row for
        ("wide.csv", "item,A,B\n1,x,NA\n2,x,x\n3,y,n/a\n", [(1, '"NA"'), (1, '"n/a"')]),
        (
            "long.csv",
            "item,rater,label\n1,A,x\n1,B,x\n2,A,y\n2,B,NA\n3,A,x\n3,B,y\n4,A,x\n",
            [(1, '"NA"'), (1, "with no row")],
        ),
    ],
)
def test_the_missing_cells_are_counted_by_kind_leaving_out_kinds_with_none(
    tmp_path, capsys, name, text, want
):
    """The first line of a reading counts the missing cells by what they held: a kind with none is left out
    (a wide file with no empty cell said "0 empty"), and the counts add up to the missing count. The same
    line in the text report, the HTML report and the annotations explorer."""
    path = write(tmp_path, name, text)
    r, _ = read(path)
    shown = {
        "text report": first_line(capsys, path)[0],
        "HTML report": html.unescape(re.sub(r"<[^>]+>", "", reading_html(r))),
    }
    ex = AnnotationsExplorer()
    upload(ex, name, text.encode())
    shown["explorer"] = html.unescape(re.sub(r"<[^>]+>", "", ex.readout.value))
    for where, line in shown.items():
        n_missing, parts = _missing_said(line)
        assert parts == want, (where, line)
        assert all(n > 0 for n, _ in parts) and sum(n for n, _ in parts) == n_missing, (where, line)


def test_letter_case_is_warned_about_and_folded(tmp_path, capsys):
    path = write(tmp_path, "yn.csv", "A,B\nYes,yes\nNo,YES \nYes,Yes\nNo,No\n")
    r, caught = read(path)
    assert r.categories == ("No", "YES", "Yes", "yes")
    assert len(caught) == 1 and '"Yes" (3 cells), "YES" (1 cells), "yes" (1 cells)' in caught[0]
    assert "--fold-case" in caught[0]
    r, caught = read(path, fold_case=True)
    assert r.categories == ("No", "Yes") and r.rows() == [
        ["Yes", "Yes"],
        ["No", "Yes"],
        ["Yes", "Yes"],
        ["No", "No"],
    ]
    assert not caught
    assert any("merged (fold_case)" in line for line in first_line(capsys, path, "--fold-case"))


def test_multi_label_cells_are_warned_about(tmp_path):
    path = write(tmp_path, "ml.csv", 'A,B\npos,"pos, neg"\nneg,neg\npos,pos\n"neg;pos",neg\n')
    _, caught = read(path)
    assert len(caught) == 1 and caught[0].count("several labels") == 1 and '"pos, neg"' in caught[0]


# ================================================= the small list
def test_a_huge_number_at_level_interval_is_a_clear_error(tmp_path, capsys):
    path = write(tmp_path, "big.csv", "A,B\n1,2\n3," + "9" * 400 + "\n2,2\n")
    refused(capsys, path, "--level", "interval", words=["level 'interval' needs finite numbers"])


def test_json_to_standard_output(tmp_path, capsys):
    path = write(tmp_path, "s.csv", "A,B,C\nx,y,x\ny,y,y\nx,x,y\n")
    code, out, err = cli(capsys, path, "--json", "-")
    assert code == 0 and not (tmp_path / "-").exists()
    data = json.loads(out)
    assert data["format"] == "iaa-teach diagnosis" and data["reading"]["summary"][0].startswith(
        "Read s.csv as wide"
    )
    assert err.startswith("Read s.csv as wide: 3 items")


def test_the_summary_is_in_the_html_and_json(tmp_path, capsys):
    path = write(tmp_path, "h.csv", "Wine,J1,J2\n1,a,b\n2,b,b\n3,a,a\n4,b,a\n5,a,a\n6,b,b\n")
    html, js = tmp_path / "r.html", tmp_path / "r.json"
    code, out, _ = cli(capsys, path, "--html", html, "--json", js)
    assert code == 0
    data = json.loads(js.read_text())
    assert data["reading"]["summary"] == out.split("\n\n", 1)[0].splitlines()
    page = html.read_text()
    assert "Read h.csv as wide: 6 items (rows numbered 1..6)" in page
    assert '<p class="warning">warning: column "Wine" (the first column) has a different value' in page


def test_text_report_of_a_file_starts_with_its_summary(tmp_path):
    path, _ = diagnoses_csv(tmp_path)
    r, _ = read(path)
    assert text_report(r).splitlines()[: len(summary_lines(r))] == summary_lines(r)
    assert r.subset(items=range(3)).reading is None  # an edited copy is no longer the file


def test_options_are_checked():
    for kwargs, message in [
        ({"item": 3}, "item must be the name"),
        ({"skip_rows": -1}, "skip_rows"),
        ({"raters_as_rows": True, "format": "long"}, "raters_as_rows"),
        ({"fold_case": "yes"}, "fold_case must be True or False"),
        ({"raters_as_rows": True, "item": "Q1"}, "no item column to name"),
    ]:
        with pytest.raises(AgreementError, match=message):
            Ratings.from_csv(__file__, **kwargs)


def test_the_checker_refuses_absurdly_long_answers():
    from iaa_teach.exercises._answers import parse_answer

    with pytest.raises(
        AgreementError, match=r"the answer has 100,002 characters; an answer is a number of at most"
    ):
        parse_answer("1/" + "9" * 100_000)  # was Python's ValueError on int() of more than 4,300 digits
    with pytest.raises(AgreementError, match="more than 100 digits"):
        parse_answer(1e300)
    assert parse_answer("29/59").value == pytest.approx(29 / 59)


def test_anonymise_hides_the_raters_everywhere(tmp_path, capsys):
    path = write(tmp_path, "form.csv", FORM)
    r, _ = read(path, raters_as_rows=True, anonymise=True)
    assert r.raters == ("R1", "R2", "R3", "R4", "R5")
    html, js = tmp_path / "r.html", tmp_path / "r.json"
    code, out, err = cli(capsys, path, "--raters-as-rows", "--anonymise", "--html", html, "--json", js)
    assert code == 0 and "R1, R2, R3, R4, R5" in out.splitlines()[0]
    for text in (out, err, html.read_text(), js.read_text()):
        assert "example.org" not in text and "ann@" not in text


def test_anonymise_in_the_explorer(tmp_path):
    from iaa_teach.widgets import AnnotationsExplorer

    path = write(tmp_path, "form.csv", FORM)
    ex = AnnotationsExplorer(path=path, format="raters as rows")

    def shown():  # the summary and the raters' view (the rest of the report is one view at a time)
        return ex.readout.value + ex.view_html("raters")

    assert "ann@example.org" in shown()
    ex.anonymise.value = True  # the file is read again
    assert ex.ratings.raters[0] == "R1"
    assert "example.org" not in shown()


def test_a_scale_each_rater_uses_once_is_not_taken_for_ids(tmp_path):
    # 5 items scored 1..5: r1 and r2 use each score once, but so does the scale: no warning
    path = write(tmp_path, "scores.csv", "r1,r2,r3\n1,2,1\n3,3,\n4,4,5\n2,1,2\n5,5,5\n")
    r, caught = read(path)
    assert r.raters == ("r1", "r2", "r3") and caught == [] and summary_lines(r)[1:] == []


# ================================================= a spreadsheet's extras: a totals row, an empty gap column
def _sheet_with_extras(tmp_path, suffix):
    """Diagnoses of 6 patients by 3 clinicians, with a totals row at the bottom (15 under each rater,
    as a spreadsheet's =COUNTA would give) and an empty unnamed column between two raters."""
    rows = [
        ["x", "y", "x"],
        ["y", "y", "y"],
        ["x", "x", "y"],
        ["z", "z", "z"],
        ["x", "y", "y"],
        ["z", "x", "z"],
    ]
    header = ["patient", "Ames", "Baker", "", "Chen"]
    body = [[f"P{i + 1}", a, b, None, c] for i, (a, b, c) in enumerate(rows)]
    body.append(["Total", 6, 6, None, 6])
    if suffix == ".xlsx":
        path = tmp_path / "clinic.xlsx"
        pd.DataFrame([header, *body]).to_excel(path, header=False, index=False)
    else:
        text = "\n".join(",".join("" if c is None else str(c) for c in row) for row in [header, *body])
        path = write(tmp_path, "clinic.csv", text + "\n")
    return path, rows


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_totals_row_is_left_out_with_a_note(tmp_path, capsys, suffix):
    """A "Total" row under the items is not an item: read as one, its 6, 6, 6 was a seventh item on which
    every rater agreed (Fleiss' kappa 0.478 instead of 0.327 here)."""
    path, rows = _sheet_with_extras(tmp_path, suffix)
    got, _ = read(path)
    assert got.n_items == 6 and got.items[-1] == "P6" and got.categories == ("x", "y", "z")
    assert float(fleiss_kappa(got)) == pytest.approx(fleiss_by_statsmodels(rows), abs=1e-12)
    lines = first_line(capsys, path)
    assert lines[0].startswith(f"Read clinic{suffix} as wide: 6 items")
    where = "row 8" if suffix == ".xlsx" else "line 8"
    assert f'  note: left out as totals, not items: {where} ("Total"); rename the item to keep it' in lines


def test_a_totals_row_under_numeric_labels_read_again_as_text(tmp_path):
    """Labels 1, 2 in one column and text in another: the numeric column is read again as text, and the
    totals row stays out of it too."""
    path = write(tmp_path, "mixed.csv", "doc_id,A,B\nd1,1,x\nd2,2,y\nd3,1,x\nSum,3,3\n")
    got, _ = read(path)
    assert got.items == ("d1", "d2", "d3") and got.rows() == [["1", "x"], ["2", "y"], ["1", "x"]]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_an_empty_unnamed_column_between_raters_is_left_out_with_a_note(tmp_path, capsys, suffix):
    """It was an error ("the header has no name for column 4") that named no way round it."""
    path, rows = _sheet_with_extras(tmp_path, suffix)
    assert read(path)[0].raters == ("Ames", "Baker", "Chen")
    assert "  note: 1 empty column with no name left out (column 4 of the file)" in first_line(capsys, path)


def test_an_unnamed_column_with_ratings_is_an_error_naming_the_header_line(tmp_path, capsys):
    path = write(tmp_path, "gap.csv", "title line\nitem,A,,C\n1,x,y,x\n2,y,y,y\n")
    refused(capsys, path, "--skip-rows", "1", words=["gap.csv, line 2: the header has no name for column 3"])


@pytest.mark.parametrize("name", ["token", "word", "Token ID"])
def test_a_token_column_is_the_items(tmp_path, name):
    """A part-of-speech file (token, tagger1, tagger2): the token column was read as a third rater, 220
    "categories", refused by the limit on categories with advice about free text."""
    tags = [f"TAG{k}" for k in range(20)]
    lines = [f"{name},tagger1,tagger2"] + [f"t{i},{tags[i % 20]},{tags[(i * 7) % 20]}" for i in range(200)]
    got, _ = read(write(tmp_path, "pos.csv", "\n".join(lines) + "\n"))
    assert got.raters == ("tagger1", "tagger2") and got.n_categories == 20 and got.n_items == 200
