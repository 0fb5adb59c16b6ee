"""Annotation tools' own exports (issue 21): Label Studio's JSON and Prodigy's JSONL, small files of our
own written in each tool's documented format, read by Ratings.from_file and the command line, the
first line of the report saying how; numbers checked against scikit-learn."""

from __future__ import annotations

import json

import pytest
from sklearn.metrics import cohen_kappa_score

from iaa_teach import AgreementError, Ratings, cohen_kappa
from iaa_teach.cli import main
from iaa_teach.report import summary_lines


def region(name, kind, value):
    return {"from_name": name, "to_name": "text", "type": kind, "value": {kind: value}}


def annotation(who, *results, cancelled=False):
    return {"id": 0, "completed_by": who, "was_cancelled": cancelled, "result": list(results)}


TASKS = [
    {
        "id": 1,
        "data": {"text": "great phone"},
        "annotations": [
            annotation(1, region("sentiment", "choices", ["Positive"]), region("stars", "rating", 5)),
            annotation(2, region("sentiment", "choices", ["Positive"]), region("stars", "rating", 4)),
        ],
        "predictions": [{"result": [region("sentiment", "choices", ["Negative"])]}],
    },
    {
        "id": 2,
        "data": {"text": "broke in a week"},
        "annotations": [
            annotation(1, region("sentiment", "choices", ["Negative"]), region("stars", "rating", 1)),
            annotation(2, region("sentiment", "choices", ["Neutral"]), region("stars", "rating", 2)),
            annotation(3, cancelled=True),
        ],
    },
    {
        "id": 3,
        "data": {"text": "it is a phone"},
        "annotations": [
            annotation({"id": 1, "email": "ann@example.org"}, region("sentiment", "choices", ["Neutral"])),
            annotation(2, region("sentiment", "choices", ["Neutral"]), region("stars", "rating", 3)),
        ],
    },
    {
        "id": 4,
        "data": {"text": "love it"},
        "annotations": [
            annotation(1, region("sentiment", "choices", ["Positive"])),
            annotation(2, region("sentiment", "choices", ["Negative"])),
        ],
    },
]


def test_label_studio_json(tmp_path, capsys):
    path = tmp_path / "project-7.json"
    path.write_text(json.dumps(TASKS))
    with pytest.raises(
        AgreementError, match=r'2 control tags \("sentiment", "stars"\).*label= \(--label-column\)'
    ):
        Ratings.from_file(path)
    r = Ratings.from_file(path, label="sentiment")
    assert r.items == ("1", "2", "3", "4") and r.raters == ("1", "2", "ann@example.org")
    # the e-mail names rater 1 on task 3 only: Label Studio exports it so when the user is expanded
    a = ["Positive", "Negative", None, "Positive"]
    b = ["Positive", "Neutral", "Neutral", "Negative"]
    assert [row[:2] for row in r.rows()] == [list(p) for p in zip(a, b)]
    both = [i for i, v in enumerate(a) if v is not None]
    assert cohen_kappa(r, "1", "2").kappa == pytest.approx(
        cohen_kappa_score([a[i] for i in both], [b[i] for i in both]), abs=1e-12
    )
    lines = summary_lines(r)
    assert lines[0].startswith(
        'Read project-7.json as a Label Studio JSON export: 4 items (IDs from column "task id")'
    )
    assert "(predictions left out); 1 cancelled annotation left out" in lines[1]
    stars = Ratings.from_file(path, label="stars")
    assert stars.categories == (1, 2, 3, 4, 5) and stars.rows()[0] == [5, 4]
    assert main(["report", str(path), "--label-column", "stars", "--level", "interval"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Read project-7.json as a Label Studio JSON export: 3 items")


def prodigy_line(item, who, answer, accept=None, label=None):
    rec = {
        "text": f"text {item}",
        "_input_hash": item,
        "_task_hash": item * 10 + (label == "PERSON"),
        "_annotator_id": f"ner-{who}",
        "_session_id": f"ner-{who}",
        "answer": answer,
    }
    if accept is not None:
        rec |= {"options": [{"id": "POS"}, {"id": "NEG"}], "accept": accept}
    if label is not None:
        rec["label"] = label
    return json.dumps(rec)


def test_prodigy_choice(tmp_path, capsys):
    lines = [
        prodigy_line(1, "ann", "accept", ["POS"]),
        prodigy_line(1, "bob", "accept", ["POS"]),
        prodigy_line(2, "ann", "accept", ["NEG"]),
        prodigy_line(2, "bob", "accept", ["POS"]),
        prodigy_line(3, "ann", "ignore", []),
        prodigy_line(3, "bob", "accept", ["NEG"]),
        prodigy_line(4, "ann", "accept", ["NEG"]),
        prodigy_line(4, "bob", "accept", ["NEG"]),
    ]
    path = tmp_path / "reviews.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = Ratings.from_file(path)
    assert r.raters == ("ner-ann", "ner-bob") and r.rows() == [
        ["POS", "POS"],
        ["NEG", "POS"],
        [None, "NEG"],
        ["NEG", "NEG"],
    ]
    assert summary_lines(r)[0].endswith("7 ratings, 1 missing (1 empty)")
    assert "1 ignored answer read as missing" in summary_lines(r)[1]
    assert main(["report", str(path)]) == 0
    assert capsys.readouterr().out.startswith("Read reviews.jsonl as a Prodigy JSONL file: 4 items")


def test_prodigy_binary(tmp_path):
    lines = [
        prodigy_line(1, "ann", "accept", label="ORG"),
        prodigy_line(1, "bob", "reject", label="ORG"),
        prodigy_line(2, "ann", "accept", label="ORG"),
        prodigy_line(2, "bob", "accept", label="ORG"),
    ]
    path = tmp_path / "binary.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = Ratings.from_file(path)
    assert r.categories == ("accept", "reject") and r.rows() == [["accept", "reject"], ["accept", "accept"]]


def test_broken_exports_are_named(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text(prodigy_line(1, "ann", "accept", ["POS"]) + "\n{not json\n")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("iaa-teach: error: ")
        and "bad.jsonl, line 2: not valid JSON" in err
        and err.count("\n") == 1
    )
    path = tmp_path / "other.json"
    path.write_text('{"a": 1}')
    assert main(["report", str(path)]) == 2
    assert "not a Label Studio JSON export" in capsys.readouterr().err
