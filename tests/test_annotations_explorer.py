"""The "your own annotations" explorer, headless: upload, path, examples, level, saving, bad files.

Uploads are made the way the browser makes them: ``FileUpload.value`` set to a
tuple with one dict (name, type, size, content as a memoryview,
last_modified). Every callback only sets traits, so the readout, the status
line, the report tables and the figures are read back as trait values.
"""

from __future__ import annotations

import datetime
import html
import io
import re

import pytest
from figure_support import texts_outside, twelve_long_labels
from test_report import check_self_contained, write_csv

from iaa_teach import AgreementError, Ratings, datasets, diagnose, fmt
from iaa_teach._report import figure_names
from iaa_teach.metrics import LEVELS
from iaa_teach.widgets import AnnotationsExplorer
from iaa_teach.widgets._annotations import EXAMPLES, NARROW_FIGSIZE, narrow_figure

PNG = b"\x89PNG\r\n\x1a\n"


def upload(explorer: AnnotationsExplorer, name: str, content: bytes) -> None:
    explorer.upload.value = (
        {
            "name": name,
            "type": "text/csv",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc),
        },
    )


def csv_bytes(ratings: Ratings, sep: str = ",") -> bytes:
    lines = [sep.join(["item", *map(str, ratings.raters)])]
    lines += [
        sep.join([str(item), *("" if v is None else str(v) for v in row)])
        for item, row in zip(ratings.items, ratings.rows())
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def expected_values(ratings: Ratings, level: str = "nominal") -> dict:
    report = diagnose(ratings, level)
    top, item, pair = report.rater_ranking()[0], report.item_ranking()[0], report.confused_pairs()[0]
    return {
        "alpha": fmt(report.alpha.exact.alpha),
        "least in step": str(top["rater"]),
        "rise": fmt(top["rise"]),
        "most disputed": str(item["item"]),
        "disagreement": fmt(item["disagreement"]),
        "most confused": f"{pair['first']} / {pair['second']}",
        "ratio": fmt(pair["ratio"]),
    }


def offered(explorer: AnnotationsExplorer) -> list[str]:
    """The views the "show" control offers."""
    return [label for label, _ in explorer.show.options]


def assert_shows(explorer: AnnotationsExplorer, ratings: Ratings, level: str = "nominal") -> None:
    """The summary's numbers, then every view: each figure drawn (a PNG, its words), each text view."""
    values = explorer.values()
    for key, value in expected_values(ratings, level).items():
        assert values[key] == value, key
    figures = [name for name in offered(explorer) if name.startswith("figure")]
    assert len(figures) == (4 if ratings.n_raters >= 3 else 2)
    for name in figures:
        explorer.show_view(name)
        shown = [i for i, cell in enumerate(explorer.views) if cell.layout.display != "none"]
        assert len(shown) == 1 and explorer.readout.layout.display == "none"
        image, caption = explorer.views[shown[0]].children
        assert image.value[:8] == PNG and image.alt and caption.value
    explorer.show_view("summary")
    assert explorer.readout.layout.display is None
    assert all(cell.layout.display == "none" for cell in explorer.views)
    assert "Raters: who is out of step?" in explorer.view_html("raters")
    assert "How the numbers are computed" in explorer.view_html("working")
    assert "Pairs of raters" in explorer.view_html("pairs of raters")


def test_an_instructors_session(tmp_path):
    """One explorer through a session: examples, uploads (CSV, TSV, long), bad files, a path, the level,
    saving.

    (One explorer for the whole session: each load draws four figures.)
    """
    ex = AnnotationsExplorer(ratings=datasets.sentiment())
    assert_shows(ex, datasets.sentiment())
    assert ex.values()["source"] == "your ratings" and ex.readout_text().splitlines()[0] == ex.title

    fleiss = next(label for label in EXAMPLES if label.startswith("Fleiss"))
    ex.example.value = fleiss
    assert_shows(ex, datasets.diagnoses())
    assert "different set of six psychiatrists" in ex.readout.value  # the caution comes with the example

    r = datasets.class_annotations(n_students=6, n_reviews=12, seed=3)
    upload(ex, "my class.csv", csv_bytes(r))
    read = Ratings.from_csv(write_csv(tmp_path / "r.csv", r))
    assert ex.status.value == "" and ex.values()["source"] == "my class.csv" and ex.example.value == "(none)"
    assert "psychiatrists" not in ex.readout.value
    assert_shows(ex, read)

    upload(ex, "tabs.tsv", csv_bytes(datasets.sentiment_missing(), sep="\t"))
    assert ex.values()["source"] == "tabs.tsv"
    assert_shows(ex, datasets.sentiment_missing())

    assert (
        html.unescape(ex.readout.value).count('Read tabs.tsv as wide: 10 items (IDs from column "item")') == 1
    )

    # bad files (issue 21): the report of the file before is cleared, the readout says why and what to change
    upload(ex, "ragged.csv", b"A,B,C\nx,y\nx,y,z\n")
    assert "ragged.csv not read" in ex.status.value and "line 2" not in ex.status.value  # said once, below
    assert "iaa-upload" not in ex.readout.value  # the temporary copy is not named
    assert ex.report is None and "Not read: ragged.csv, line 2" in ex.readout.value
    assert offered(ex) == ["summary", "file and saving"] and ex.show.value == "numbers"
    upload(ex, "notes.pdf", b"%PDF")
    assert "notes.pdf not read" in ex.status.value and "upload a .csv" in ex.readout.value
    ex.read_path("")
    assert "Type the path" in ex.status.value
    ex.path.value = str(tmp_path / "nothing.csv")
    ex.read_button.click()
    assert "nothing.csv not read" in ex.status.value and "nothing.csv" in ex.readout.value
    studio = (
        "annotation_id,annotator,id,sentiment\n1,ann,1,pos\n2,bob,1,pos\n3,ann,2,neg\n4,bob,2,pos\n"
        "5,ann,3,neg\n6,bob,3,neg\n"
    ).encode()
    upload(ex, "project.csv", studio)  # guessed wide: read, with warnings that name the controls
    shown = html.unescape(ex.readout.value)
    assert 'warning: column "annotator" is named like a column of rater names' in shown
    assert 'In this explorer: the layout ("wide" / "long")' in shown
    ex.format.value = "long"
    upload(ex, "project.csv", studio)
    assert ex.report is None and 'the "label column" box' in html.unescape(ex.readout.value)
    ex.label_column.value = "sentiment"  # the file is read again with it
    assert "read with the new 'label column': project.csv read again." in html.unescape(ex.status.value)
    assert ex.report is not None and ex.ratings.raters == ("ann", "bob")
    assert "Read project.csv as long (one rating per row): 3 items" in html.unescape(ex.readout.value)
    ex.label_column.value, ex.format.value = "", "guess"

    ex.format.value = "long"
    assert "read as long" in ex.status.value
    long = "item,rater,label\n" + "\n".join(
        f"{i},{rater},{v}"
        for i, row in zip(r.items, r.rows())
        for rater, v in zip(r.raters, row)
        if v is not None
    )
    upload(ex, "long.csv", long.encode())
    assert ex.values()["source"] == "long.csv" and ex.values()["alpha"] == expected_values(read)["alpha"]
    ex.format.value = "guess"

    path = write_csv(tmp_path / "sentiment.csv", datasets.sentiment())
    ex.read_path(path)
    assert ex.values()["source"] == "sentiment.csv"
    ex.level.value = "ordinal"  # text labels from a file: their order must be declared
    assert "only sorted, not declared" in ex.readout.value and "No report" in ex.readout.value
    ex.order.value = "G, N, P"
    assert_shows(ex, datasets.sentiment(), "ordinal")
    ex.order.value = "G, N"  # a label left out is named
    assert "label 'P'" in html.unescape(ex.readout.value)
    ex.order.value = "G, N, P"
    saved = ex.save_html(tmp_path / "report.html")
    assert saved and "Saved the report as" in ex.status.value
    page = open(saved, encoding="utf-8").read()
    check_self_contained(page)
    assert "sentiment.csv" in page and "Level of measurement: ordinal" in page
    assert ex.save_html(tmp_path / "no such folder" / "r.html") is None and "Not saved" in ex.status.value

    ex.order.value, ex.level.value = "", "nominal"  # the declared order stays for the next file until cleared
    upload(ex, "one.csv", b"A,B\nx,\n,y\n")  # read, but nothing to pair: no report
    assert "No report" in ex.readout.value and "2 or more ratings" in ex.readout.value
    assert ex.report is None and offered(ex) == ["summary", "file and saving"]
    assert ex.save_html(tmp_path / "r.html") is None and "Nothing to save" in ex.status.value


def test_names_are_escaped_in_the_explorer():
    rows = [["<b>x</b>", "<b>x</b>", "y"], ["y", "y", "y"], ["<b>x</b>", "y", "<b>x</b>"]]
    r = Ratings.from_rows(rows, raters=["<script>a</script>", "B", "$C$"], items=["<i>1</i>", "2", "3"])
    ex = AnnotationsExplorer(ratings=r)
    texts = [
        ex.view_html(name)
        for name in offered(ex)
        if not name.startswith("figure") and name != "file and saving"
    ]
    for html_text in texts:
        assert "<script>a</script>" not in html_text and "<i>1</i>" not in html_text
        assert "<b>x</b>" not in html_text


def test_xlsx():
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    r = datasets.sentiment()
    sheet.append(["item", *r.raters])
    for item, row in zip(r.items, r.rows()):
        sheet.append([item, *row])
    buf = io.BytesIO()
    book.save(buf)
    ex = AnnotationsExplorer(ratings=datasets.sentiment_missing())
    upload(ex, "sheet.xlsx", buf.getvalue())
    assert ex.values()["source"] == "sheet.xlsx"
    assert_shows(ex, r)


def test_bad_arguments():
    from iaa_teach import AgreementError

    with pytest.raises(AgreementError, match="level"):
        AnnotationsExplorer(level="cubic")
    with pytest.raises(AgreementError, match="format"):
        AnnotationsExplorer(format="tall")


def test_a_gold_column():
    """A gold column named: the report is on the other raters, a view compares each with the gold."""
    r = datasets.sentiment()
    ex = AnnotationsExplorer(ratings=r)
    assert "gold" not in offered(ex)
    ex.gold_column.value = "A"
    assert "gold" in offered(ex) and ex.report.ratings.raters == ("B", "C")
    gold = html.unescape(ex.view_html("gold"))
    rows = r.rows()
    for j, name in ((1, "B"), (2, "C")):  # each annotator's accuracy, counted here
        correct = sum(row[0] == row[j] for row in rows)
        assert f"{correct / len(rows):.3f}" in gold, name
    ex.show_view("gold")
    assert ex.texts["gold"].value == ex.view_html("gold")
    ex.gold_column.value = "Z"
    assert ex.report is None and "no column 'Z'" in html.unescape(ex.readout.value)
    ex.gold_column.value = ""
    assert ex.report is not None and "gold" not in offered(ex) and ex.show.value == "numbers"


def test_the_still_picture_shows_the_summary_the_figures_and_the_quick_views():
    """The static book has no kernel: its picture of the explorer shows the report one part after another."""
    ex = AnnotationsExplorer(ratings=datasets.sentiment())
    page = ex.static_picture()
    assert page.count('<img class="iaa-picture"') == 4 and "What the report finds" in page
    for heading in ("Items: which should the class discuss?", "Categories: which are confused?"):
        assert heading in page
    assert "How the numbers are computed" in page
    assert ex.show.value == "numbers" and all(view.layout.display == "none" for view in ex.views)


def test_figures_are_drawn_ahead_once_the_explorer_is_shown():
    """Shown in a notebook (its bundle asked for), the explorer draws the report's figures on another
    thread while the summary is read: a figure chosen then is the same picture drawn on the spot, and a
    new report drops the figures of the last one not yet begun."""
    plain = AnnotationsExplorer(ratings=datasets.diagnoses())
    assert not plain._ahead  # not shown: nothing drawn ahead (headless use pays nothing)
    ex = AnnotationsExplorer(ratings=datasets.diagnoses())
    ex._repr_mimebundle_()
    assert len(ex._ahead) == 4
    for future in list(ex._ahead.values()):
        future.result()
    for name in [v for v in offered(ex) if v.startswith("figure")]:
        ex.show_view(name)
        plain.show_view(name)
        index = int(ex.show.value)
        mine, theirs = ex.views[index].children, plain.views[index].children
        assert bytes(mine[0].value) == bytes(theirs[0].value) and mine[0].value[:8] == PNG
        assert mine[0].alt == theirs[0].alt and mine[1].value == theirs[1].value
    assert not ex._ahead
    ex.example.value = next(iter(EXAMPLES))  # a new report: its figures are drawn ahead in turn (the one
    # shown, here and now)
    keys = [ex._key(f"figure {name}") for name in ("leave_one_out", "raters", "items", "confusion")]
    assert len(ex._ahead) == 3 and all((key in ex._ahead) != (key in ex._kept) for key in keys)
    ex.level.value = "ordinal"
    old = [key for key in ex._ahead if key[1] != "ordinal"]
    assert len(old) <= 1 and all(ex._ahead[key].running() or ex._ahead[key].done() for key in old)  # begun
    keys = [ex._key(f"figure {name}") for name in ("leave_one_out", "raters", "items", "confusion")]
    assert all((key in ex._ahead) != (key in ex._kept) for key in keys)


def test_the_pairs_and_gold_tables_may_break_a_long_name_and_an_interval_after_to():
    """In the pairs of raters and each annotator against the gold, a long name may break after an
    underscore and an interval after "to" only, where the explorer keeps its other tables' cells on one
    line; the pairs' count of items both labelled is headed "items": two raters with long names then fit a
    projector's page (the browser test measures it)."""
    labels = ["very positive", "fairly neutral"]
    rows = [[labels[i % 2], labels[(i // 3) % 2], labels[(i // 2) % 2]] for i in range(30)]
    names = ["annotator_with_long_name_1", "annotator_with_long_name_2", "gold_labels"]
    ex = AnnotationsExplorer(ratings=Ratings.from_rows(rows, raters=names, categories=labels))
    style = " ".join(
        "".join(c.value for c in ex.widget.children if "<style>" in getattr(c, "value", "")).split()
    )
    assert (
        ".iaa-annotationsexplorer .iaa-report .may-break td, .iaa-annotationsexplorer .iaa-report .may-break "
        "tbody th { white-space: normal; }"
    ) in style
    ex.gold_column.value = "gold_labels"
    for view in ("pairs of raters", "gold"):
        page = ex.view_html(view)
        table = page[page.index('<div class="table-wrap last-note may-break">') :]
        table = table[: table.index("</table>")]
        intervals = re.findall(r"<td>([^<]*to[^<]*)</td>", table)
        assert intervals and all(re.fullmatch(r"-?\d\.\d{3}\u00a0to -?\d\.\d{3}", x) for x in intervals), view
        assert "annotator_<wbr>with_<wbr>long_<wbr>name_<wbr>1" in table, view
    ex.gold_column.value = ""
    head = re.findall(r'<th scope="col">(.*?)</th>', ex.view_html("pairs of raters"))
    assert head[:8] == ["rater A", "rater B", "kappa", "95% interval", "SE", "P_o", "P_e", "items"]


NARROW_DATA = {
    "sentiment": datasets.sentiment,
    "sentiment_missing": datasets.sentiment_missing,
    "partial_coverage": datasets.partial_coverage,
    **{f"feinstein_cicchetti {x}": (lambda x=x: datasets.feinstein_cicchetti(x)) for x in "abcd"},
    "diagnoses": datasets.diagnoses,
    "class_annotations": datasets.class_annotations,
    "simulate": datasets.simulate,
    "12 categories of 30 characters": twelve_long_labels,
}


@pytest.mark.parametrize("data", list(NARROW_DATA))
def test_every_text_of_the_narrow_figures_lies_inside_them(data):
    """Every figure beside the explorer's controls, of every built-in data set and of 12 categories with
    30-character names, keeps its titles, labels, numbers and legend inside its fixed size (Fleiss 1971's
    legend of diagnoses in 3 columns ran from x = -40 to 708 px of 614)."""
    ratings = NARROW_DATA[data]()
    for level in LEVELS:
        try:
            report = diagnose(ratings, level)
        except AgreementError:  # (a level the labels do not allow)
            continue
        for name in figure_names(report):
            fig = narrow_figure(report, name)
            assert tuple(fig.get_size_inches()) == pytest.approx(NARROW_FIGSIZE)
            assert texts_outside(fig) == [], (level, name)
            if name == "items" and data.startswith("12"):  # shortened, each still its own
                shown = [text.get_text() for text in fig.legends[0].get_texts()]
                assert all(len(label) < 30 and label.endswith("…") for label in shown)
                assert len(set(shown)) == len(shown) >= 6


def test_a_file_in_excels_encoding_is_read_with_the_encoding_box():
    """A CSV file saved by Excel (Windows-1252, accented names and labels): the error names the explorer's
    "encoding" box, and typing cp1252 there reads the uploaded file again (the explorer had no such box,
    while its error said to give encoding='cp1252')."""
    ex = AnnotationsExplorer()
    text = "item,Hélène,José\n1,négatif,négatif\n2,très positif,positif\n3,négatif,très positif\n"
    upload(ex, "excel.csv", text.encode("cp1252"))
    assert ex.report is None
    assert 'In this explorer: the "encoding" box, then read the file again.' in html.unescape(
        ex.readout.value
    )
    ex.encoding.value = "cp1252"
    assert "excel.csv read again." in html.unescape(ex.status.value)
    assert ex.ratings.raters == ("Hélène", "José")
    assert ex.ratings.categories == ("négatif", "positif", "très positif")


def test_a_read_error_is_shown_once_and_the_status_wraps_within_the_controls():
    """A file that cannot be read: the error and what to change are in the summary, once; the status
    line beside the controls only says that the file was not read (it repeated the whole error, and as
    wide as its text it stretched the controls' column: an upload button 964 px wide). The status is
    contained in its inline size, so that it wraps within the controls' width."""
    ex = AnnotationsExplorer()
    text = "item,Hélène,José\n1,négatif,négatif\n2,très positif,positif\n"
    upload(ex, "excel.csv", text.encode("cp1252"))
    shown = html.unescape(ex.status.value + ex.readout.value)
    assert shown.count("is not valid UTF-8") == 1 and shown.count('the "encoding" box') == 1
    assert "is not valid UTF-8" in html.unescape(ex.readout.value)
    assert "excel.csv not read" in ex.status.value
    ex.encoding.value = "ascii"  # a file control changed, the file read again, and not read again: once
    shown = html.unescape(ex.status.value + ex.readout.value)
    assert shown.count("ascii") == 1 and "'encoding': excel.csv not read" in shown, shown
    assert "iaa-status" in ex.status._dom_classes
    styles = [c.value for c in ex.widget.children if "<style>" in getattr(c, "value", "")]
    assert any(re.search(r"\.iaa-status \{ contain: inline-size; \}", style) for style in styles)


def test_each_warning_names_its_own_control_beside_it():
    """A form's export read as wide: each warning about the file says, inside it, which control answers
    it; the hints were a separate block after all the warnings, the same hint twice."""
    ex = AnnotationsExplorer()
    form = (
        "Timestamp,Email address,Q1,Q2,Q3\n"
        "2026/11/10 10:00:00 AM GMT+1,ann@uni.edu,yes,no,Yes\n"
        "2026/11/11 10:01:00 AM GMT+1,bo@uni.edu,yes,no,no\n"
        "2026/11/12 10:02:00 AM GMT+1,cy@uni.edu,no,no,yes\n"
    )
    upload(ex, "form.csv", form.encode())
    warnings = re.findall(r'<p class="warning">(.*?)</p>', ex.readout.value, re.S)
    assert len(warnings) == 3, ex.readout.value
    expected = ['the "merge letter case" box', 'the layout "raters as rows"', 'the layout "raters as rows"']
    for found, control in zip(warnings, expected):
        assert f"<br>In this explorer: {control}" in html.unescape(found), found
    assert html.unescape(ex.readout.value).count("In this explorer") == 3
    upload(ex, "cased.csv", b"item,A,B\n1,yes,Yes\n2,no,no\n3,yes,yes\n4,no,yes\n5,Yes,yes\n")
    ex.order.value = "no, yes, Yes"  # the ratings are made again in that order: the hint stays
    assert ex.report is not None and ex.report.ratings.categories == ("no", "yes", "Yes")
    assert 'yes" (5 cells), "Yes" (2 cells); merge them' in html.unescape(ex.readout.value)
    assert '<br>In this explorer: the "merge letter case" box' in html.unescape(ex.readout.value)


def test_two_raters_name_no_one_least_in_step():
    """Two raters: the findings say there is no ranking of raters; the table beside them named the first
    rater "least in step", with a rise "undefined"."""
    ex = AnnotationsExplorer()
    upload(ex, "two.csv", b"item,Helene,Jose\n1,a,a\n2,a,b\n3,b,b\n4,c,b\n5,c,c\n6,a,c\n")
    assert ex.values()["least in step"] == "none: 2 raters"
    assert "With 2 raters there is no ranking of raters" in html.unescape(ex.readout.value)


def test_a_file_read_again_from_the_settings_says_why_it_failed_there():
    """A file read well, then read again from the file's settings view (the encoding box changed) and not
    read: the settings view stays on show and says why, and what to change, once, escaped; the status line
    beside the controls says only that the file was not read, and where to look. (The error was only in
    the summary, hidden behind the settings, or the view jumped to the summary.) Read well again: gone."""
    ex = AnnotationsExplorer()
    name = "excel <i>2026.csv"
    upload(ex, name, "item,Hélène,José\n1,négatif,négatif\n2,très positif,positif\n".encode())
    assert ex.report is not None
    ex.show_view("file and saving")
    settings = ex.show.value
    ex.encoding.value = "ascii"
    assert ex.report is None and ex.show.value == settings  # the user is still at the settings
    assert ex.settings_why in ex.views[-1].children and ex.views[-1].layout.display != "none"
    seen = ex.status.value + ex.settings_why.value  # what is on show: the summary is hidden
    assert ex.readout.layout.display == "none"
    assert "<i>" not in seen and html.unescape(seen).count(name) == 2  # the status names it, the error too
    assert html.unescape(ex.settings_why.value).count("is not valid ascii") == 1
    assert "is not valid ascii" not in html.unescape(ex.status.value)
    assert "not read" in ex.status.value and "settings" in ex.status.value
    ex.encoding.value = "utf-8"
    assert ex.report is not None and ex.settings_why.value == "" and ex.show.value == settings
