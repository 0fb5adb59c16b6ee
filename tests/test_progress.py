"""The opt-in mistake log: round trip, atomic writes, damaged and unreadable files, clearing, Leitner boxes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import count
from pathlib import Path

import pytest

from iaa_teach import AgreementError
from iaa_teach.exercises import MistakeLog
from iaa_teach.exercises._mistakes import MISTAKES
from iaa_teach.exercises._progress import (
    BOXES,
    LOG_ENV,
    LOG_FORMAT,
    LOG_VERSION,
    MAX_ANSWERS,
    default_log_path,
)

ROOT = Path(__file__).resolve().parents[1]


def clock():
    """A fixed, increasing clock: one minute per answer."""
    ticks = count()
    return lambda: f"2026-12-01T08:{next(ticks) % 60:02d}:00Z"


def fresh(tmp_path, name="log.json"):
    return MistakeLog.open(tmp_path / name, clock=clock())


# ------------------------------------------------------------------ where
def test_the_env_var_puts_the_log_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG_ENV, str(tmp_path / "mine.json"))
    assert default_log_path() == tmp_path / "mine.json"
    assert MistakeLog.open().path == tmp_path / "mine.json"


def test_default_path_is_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(LOG_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    path = default_log_path()
    assert path.name == "mistake-log.json" and path.parent.name == "iaa-teach"
    if sys.platform.startswith("linux"):
        assert path.parent.parent == tmp_path / "xdg"


def test_nothing_is_written_until_an_answer_is_recorded(tmp_path):
    log = fresh(tmp_path)
    assert not log.path.exists() and log.problem is None
    assert "new" in log.status and str(log.path) in log.status


# ------------------------------------------------------------- round trip
def test_round_trip_keeps_every_field(tmp_path):
    log = fresh(tmp_path)
    a = log.record("fleiss", part="c", skill="kappa", correct=False, mistakes=["self_pairs"], seed=48)
    b = log.record("cohen", part="a", skill="p_o", correct=True, seed=3)
    again = MistakeLog.open(log.path)
    assert again.answers == (a, b)
    assert again.problem is None and "2 answers" in again.status
    data = json.loads(log.path.read_text(encoding="utf-8"))
    assert data["format"] == LOG_FORMAT and data["version"] == LOG_VERSION
    assert data["answers"][0] == {
        "when": "2026-12-01T08:00:00Z",
        "kind": "fleiss",
        "seed": 48,
        "part": "c",
        "skill": "kappa",
        "correct": False,
        "mistakes": ["self_pairs"],
    }


def test_bad_arguments_are_refused(tmp_path):
    log = fresh(tmp_path)
    with pytest.raises(AgreementError, match="correct"):
        log.record("cohen", part="a", skill="p_o", correct="yes")
    with pytest.raises(AgreementError, match="seed"):
        log.record("cohen", part="a", skill="p_o", correct=True, seed=-1)
    assert log.answers == () and not log.path.exists()


@pytest.mark.parametrize("field", ["kind", "part", "skill"])
def test_an_empty_field_is_refused_not_saved_and_lost_on_reading(tmp_path, field):
    log = fresh(tmp_path)
    answer = {"kind": "cohen", "part": "a", "skill": "p_o"}
    with pytest.raises(AgreementError, match=f"{field} must not be empty"):
        log.record(**{**answer, field: ""}, correct=True)
    assert log.answers == () and not log.path.exists()
    log.record(**answer, correct=True)
    assert len(MistakeLog.open(log.path).answers) == 1


def test_only_the_newest_answers_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr("iaa_teach.exercises._progress.MAX_ANSWERS", 3)
    log = fresh(tmp_path)
    for i in range(5):
        log.record("cohen", part="a", skill="p_o", correct=True, seed=i)
    assert [a.seed for a in MistakeLog.open(log.path).answers] == [2, 3, 4]
    assert MAX_ANSWERS >= 1000


# ---------------------------------------------------------------- atomic
def test_a_failed_replace_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    log = fresh(tmp_path)
    log.record("cohen", part="a", skill="p_o", correct=True)
    before = log.path.read_bytes()

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    log.record("cohen", part="c", skill="kappa", correct=False)  # never raises
    assert log.path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.json"]
    assert "could not be saved" in log.problem and "no space left" in log.problem
    assert len(log.answers) == 2  # kept in memory
    monkeypatch.undo()
    log.record("cohen", part="d", skill="kappa", correct=True)  # the next save works again
    assert log.problem is None and len(MistakeLog.open(log.path).answers) == 3


def test_a_crash_in_the_middle_of_a_write_leaves_the_old_log(tmp_path):
    """A real process killed after writing half the temporary file, before the replace."""
    log = fresh(tmp_path)
    log.record("alpha", part="d", skill="alpha", correct=False, mistakes=["fleiss_de"])
    before = log.path.read_bytes()
    script = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
from iaa_teach.exercises import MistakeLog
def crash(fd):  # the data is in the temporary file but not flushed to its place: die here
    os._exit(9)
os.fsync = crash
log = MistakeLog.open({str(log.path)!r})
log.record("cohen", part="a", skill="p_o", correct=True)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    assert log.path.read_bytes() == before
    leftovers = [p for p in tmp_path.iterdir() if p.name != "log.json"]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".log.json.")  # the crash's temporary file
    again = MistakeLog.open(log.path)
    assert again.problem is None and again.answers == log.answers


# ------------------------------------------------------ damaged, unreadable
@pytest.mark.parametrize(
    "content, why",
    [
        (b'{"format": "iaa-teach mistake log", "version": 1, "answers": [', "damaged"),
        (b"\xff\xfe not text", "damaged"),
        (b'{"answers": []}', "not an iaa-teach mistake log"),
        (b"[1, 2, 3]", "not an iaa-teach mistake log"),
        (b'{"format": "iaa-teach mistake log", "version": "one", "answers": []}', "no version"),
        (b'{"format": "iaa-teach mistake log", "version": 1, "answers": {}}', "no list of answers"),
        (b"", "damaged"),
    ],
)
def test_a_damaged_log_is_set_aside_reported_and_replaced(tmp_path, content, why):
    path = tmp_path / "log.json"
    path.write_bytes(content)
    log = fresh(tmp_path)
    assert why in log.problem and "set aside" in log.problem and log.answers == ()
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("log.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content  # nothing lost
    assert aside[0].name in log.status
    log.record("cohen", part="a", skill="p_o", correct=True)
    assert len(MistakeLog.open(path).answers) == 1


def test_bad_entries_are_left_out_and_reported(tmp_path):
    path = tmp_path / "log.json"
    good = {
        "when": "2026-12-01T08:00:00Z",
        "kind": "cohen",
        "seed": 1,
        "part": "a",
        "skill": "p_o",
        "correct": True,
        "mistakes": [],
    }
    bad = [
        dict(good, correct="yes"),
        dict(good, seed=True),
        dict(good, mistakes="rounding"),
        "text",
        {k: v for k, v in good.items() if k != "kind"},
    ]
    path.write_text(json.dumps({"format": LOG_FORMAT, "version": 1, "answers": [good, *bad]}))
    log = MistakeLog.open(path)
    assert len(log.answers) == 1 and log.problem.startswith("5 of the entries")


def test_a_newer_format_is_left_alone(tmp_path):
    path = tmp_path / "log.json"
    content = json.dumps({"format": LOG_FORMAT, "version": LOG_VERSION + 1, "answers": []})
    path.write_text(content)
    log = MistakeLog.open(path)
    assert "newer" in log.problem and not log.saving
    log.record("cohen", part="a", skill="p_o", correct=True)
    assert path.read_text() == content and len(log.answers) == 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file; needs POSIX modes")
def test_permission_denied_is_reported_and_the_file_never_written_over(tmp_path):
    log = fresh(tmp_path)
    log.record("cohen", part="a", skill="p_o", correct=True)
    before = log.path.read_bytes()
    log.path.chmod(0)
    try:
        locked = MistakeLog.open(log.path)
        assert "cannot be read" in locked.problem and "permission denied" in locked.problem
        locked.record("cohen", part="b", skill="p_e", correct=False)
        assert len(locked.answers) == 1 and not locked.saving
    finally:
        log.path.chmod(0o600)
    assert log.path.read_bytes() == before


def test_permission_denied_simulated(tmp_path, monkeypatch):
    """The same, where the tests run as root (which reads any file): the read raises as it would."""
    log = fresh(tmp_path)
    log.record("cohen", part="a", skill="p_o", correct=True)
    before = log.path.read_bytes()

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    locked = MistakeLog.open(log.path)
    monkeypatch.undo()
    assert "cannot be read (permission denied)" in locked.problem and "memory only" in locked.problem
    locked.record("cohen", part="b", skill="p_e", correct=False)
    locked.clear()
    assert log.path.read_bytes() == before


def test_a_path_under_a_file_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    log = MistakeLog.open(blocker / "log.json")  # its parent is a file: nothing can be read or created there
    log.record("cohen", part="a", skill="p_o", correct=True)
    assert "cannot be read (not a directory)" in log.problem and len(log.answers) == 1
    assert blocker.read_text() == "x"


def test_a_folder_that_cannot_be_written_is_reported(tmp_path, monkeypatch):
    def denied(**kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", denied)
    log = fresh(tmp_path)
    log.record("cohen", part="a", skill="p_o", correct=True)
    assert "could not be saved (permission denied)" in log.problem and len(log.answers) == 1
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------- clearing
def test_clear_forgets_every_answer(tmp_path):
    log = fresh(tmp_path)
    log.record("fleiss", part="c", skill="kappa", correct=False, mistakes=["self_pairs"])
    log.clear()
    assert log.answers == () and log.to_review() == () and "cleared" in log.status
    assert MistakeLog.open(log.path).answers == ()


# ------------------------------------------------------------------ Leitner
def test_boxes_move_up_on_right_answers_and_back_to_one_on_a_wrong_one(tmp_path):
    log = fresh(tmp_path)
    kinds = ["cohen", "fleiss"]
    assert log.boxes(kinds) == {"cohen": 1, "fleiss": 1}
    for _ in range(3):
        log.record("cohen", part="c", skill="kappa", correct=True)
    assert log.boxes(kinds)["cohen"] == 4  # a new card starts in box 1
    for _ in range(BOXES + 2):
        log.record("cohen", part="c", skill="kappa", correct=True)
    assert log.boxes(kinds)["cohen"] == BOXES  # the top box holds
    log.record("cohen", part="a", skill="p_o", correct=True)
    assert log.boxes(kinds)["cohen"] == 2  # a kind is as strong as its weakest skill
    log.record("cohen", part="a", skill="p_o", correct=True)
    log.record("cohen", part="c", skill="kappa", correct=False)
    assert log.boxes(kinds)["cohen"] == 1


def test_next_kind_brings_back_the_weakest(tmp_path):
    log = fresh(tmp_path)
    kinds = ["cohen", "fleiss", "alpha"]
    assert log.next_kind(kinds) == "cohen"  # all in box 1, none tried: the first
    log.record("cohen", part="c", skill="kappa", correct=True)
    assert log.next_kind(kinds) == "fleiss"
    log.record("fleiss", part="c", skill="kappa", correct=True)
    log.record("alpha", part="d", skill="alpha", correct=False)
    assert log.next_kind(kinds) == "alpha"
    log.record("alpha", part="d", skill="alpha", correct=True)
    log.record("alpha", part="d", skill="alpha", correct=True)
    assert log.boxes(kinds) == {"cohen": 2, "fleiss": 2, "alpha": 3}
    assert log.next_kind(kinds) == "cohen"  # box 2 with fleiss, one answer each: the first
    log.record("cohen", part="c", skill="kappa", correct=True)
    assert log.next_kind(kinds) == "fleiss"


def test_pick_draws_low_boxes_more_often_and_is_seeded(tmp_path):
    log = fresh(tmp_path)
    for _ in range(BOXES - 1):
        log.record("cohen", part="c", skill="kappa", correct=True)  # box 5
    log.record("fleiss", part="c", skill="kappa", correct=False)  # box 1
    kinds = ["cohen", "fleiss"]
    draws = [log.pick(kinds, seed) for seed in range(400)]
    assert [log.pick(kinds, s) for s in range(400)] == draws
    share = draws.count("fleiss") / len(draws)
    assert abs(share - 16 / 17) < 0.05, share  # weights 2**4 against 2**0
    assert set(draws) == set(kinds)  # a learnt kind still comes back, rarely
    with pytest.raises(AgreementError, match="kinds"):
        log.pick([], 0)


def test_mistakes_come_back_most_made_first_and_leave_when_learnt(tmp_path):
    log = fresh(tmp_path)
    log.record("fleiss", part="c", skill="kappa", correct=False, mistakes=["self_pairs"])
    log.record("fleiss", part="b", skill="p_e", correct=False, mistakes=["cohen_marginals"])
    log.record("fleiss", part="c", skill="kappa", correct=False, mistakes=["self_pairs"])
    cards = log.to_review()
    assert [c.mistake for c in cards] == ["self_pairs", "cohen_marginals"]
    assert cards[0].times == 2 and cards[0].box == 1 and cards[0].name == MISTAKES["self_pairs"].name
    assert log.to_review("cohen") == ()
    for _ in range(BOXES - 1):
        log.record("fleiss", part="c", skill="kappa", correct=True)
    assert [c.mistake for c in log.to_review()] == ["cohen_marginals"]  # right answers to its skill retire it


def test_summary_is_a_labelled_table(tmp_path):
    log = fresh(tmp_path)
    log.record("fleiss", part="c", skill="kappa", correct=False, mistakes=["self_pairs"])
    log.record("cohen", part="a", skill="p_o", correct=True)
    text = log.summary(["cohen", "fleiss", "alpha"]).text()
    assert "Your answers by kind of question" in text and "Leitner box" in text
    assert "alpha" in text and "never" in text
    assert MISTAKES["self_pairs"].name in text and "what you get if you" in text
    md = log.summary().markdown()
    assert "| kind | answers | right | wrong | Leitner box | last practised |" in md
    assert "No usual mistake" in fresh(tmp_path, "other.json").summary().text()
