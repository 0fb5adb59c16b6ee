"""Progress that lasts: an opt-in log of the student's answers and mistakes, with Leitner boxes.

Nothing is written unless the student asks for it: :meth:`MistakeLog.open`
(or ``Quiz(log=True)``, ``MockExam(log=True)``) opens the log; without it the
quiz remembers nothing between sessions.

Where the log lives
-------------------
One JSON file, :func:`default_log_path`:

- the path in the environment variable ``IAA_TEACH_MISTAKE_LOG``, if set;
- otherwise ``mistake-log.json`` in the user's data directory for
  ``iaa-teach``, as :mod:`platformdirs` gives it: ``~/.local/share/iaa-teach``
  on Linux (or ``$XDG_DATA_HOME/iaa-teach``),
  ``~/Library/Application Support/iaa-teach`` on macOS,
  ``%LOCALAPPDATA%\\iaa-teach`` on Windows.

``MistakeLog.open(path)`` puts it anywhere else (the tests use a temporary
folder). ``log.clear()`` empties it; deleting the file does the same.

The file
--------
::

    {
      "format": "iaa-teach mistake log",
      "version": 1,
      "answers": [
        {"when": "2026-12-01T08:05:00Z", "kind": "fleiss", "seed": 48, "part": "c",
         "skill": "kappa", "correct": false, "mistakes": ["self_pairs"]},
        ...
      ]
    }

One entry per marked answer (the first answer to each part of a question;
"check" pressed again on the same question records nothing new): ``when`` (UTC,
ISO 8601), ``kind`` and ``seed`` of the question, ``part`` (its label),
``skill`` (what the part practises), ``correct``, and ``mistakes``: the ids
of the usual mistakes the answer matches (``MISTAKES`` in ``_mistakes``;
empty for a right answer or a wrong one no usual mistake explains). The
newest :data:`MAX_ANSWERS` answers are kept. The file is rewritten whole on
every answer, atomically (a temporary file in the same folder, then
:func:`os.replace`), so a crash or a full disk leaves the previous log intact.
Two notebooks writing to one log at the same time: the later write wins.

Bringing back what went wrong (Leitner boxes)
---------------------------------------------
Every (kind, skill) the student answered is a card in one of :data:`BOXES`
boxes, replayed from the answers in order: a right answer moves the card up
one box, a wrong one sends it back to box 1. A kind sits in the box of its
weakest skill (a kind never tried: box 1). :meth:`MistakeLog.pick` draws the
next kind with weight ``2 ** (BOXES - box)``, so box 1 comes back twice as
often as box 2, and so on; :meth:`MistakeLog.next_kind` takes the lowest
box. A usual mistake is a card too: made, it goes to box 1; each later right
answer to the same kind and skill moves it up; :meth:`MistakeLog.to_review`
lists the mistakes not yet out of the boxes, the most made first.

A log that is missing, unreadable or corrupted never stops the quiz:
:attr:`MistakeLog.status` says what happened (a corrupted file is set aside
as ``<name>.corrupt-<time>`` and a new log starts; a file that cannot be read
is left alone and the answers of this session are kept in memory only), and
:attr:`MistakeLog.problem` holds the message while something is wrong.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> log = MistakeLog.open(folder / "log.json")
>>> _ = log.record("fleiss", seed=48, part="c", skill="kappa", correct=False, mistakes=["self_pairs"])
>>> MistakeLog.open(folder / "log.json").boxes(["cohen", "fleiss"])
{'cohen': 1, 'fleiss': 1}
>>> [m.mistake for m in log.to_review()]
['self_pairs']
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import suppress
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .._markup import Em, Prose, Shown, Table, render
from .._validation import AgreementError, check_bool, check_int, check_text
from ._mistakes import MISTAKES, mistake_info

__all__ = [
    "MistakeLog",
    "LoggedAnswer",
    "MistakeCard",
    "LogSummary",
    "default_log_path",
    "LOG_ENV",
    "LOG_FORMAT",
    "LOG_VERSION",
    "BOXES",
    "MAX_ANSWERS",
]

#: Environment variable that puts the log somewhere else (a file path).
LOG_ENV = "IAA_TEACH_MISTAKE_LOG"
#: The file's ``format`` field and the ``version`` this code writes.
LOG_FORMAT = "iaa-teach mistake log"
LOG_VERSION = 1
#: Leitner boxes: 1 (comes back most often) to BOXES (learnt).
BOXES = 5
#: The newest answers kept in the file.
MAX_ANSWERS = 5000
_APP = "iaa-teach"
_FILE = "mistake-log.json"


def default_log_path() -> Path:
    """Where the log lives: ``$IAA_TEACH_MISTAKE_LOG``, else the user's data directory (see the module)."""
    where = os.environ.get(LOG_ENV, "").strip()
    if where:
        return Path(where).expanduser()
    import platformdirs  # the user data directory on Linux, macOS and Windows (XDG_DATA_HOME, %LOCALAPPDATA%)

    return Path(platformdirs.user_data_dir(_APP, appauthor=False)) / _FILE


def _utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class LoggedAnswer:
    """One marked answer in the log (see the module for the fields)."""

    when: str
    kind: str
    seed: int | None
    part: str
    skill: str
    correct: bool
    mistakes: tuple = ()

    def as_record(self) -> dict:
        return {**asdict(self), "mistakes": list(self.mistakes)}

    @classmethod
    def from_record(cls, rec: Any) -> "LoggedAnswer":
        """An answer from its JSON record; :class:`~iaa_teach.AgreementError` naming the field that is
        wrong."""
        if not isinstance(rec, dict):
            raise AgreementError("an answer is not a JSON object")
        for name in ("when", "kind", "part", "skill"):
            if not isinstance(rec.get(name), str) or not rec[name]:
                raise AgreementError(f"field {name!r} missing or not text")
        if not isinstance(rec.get("correct"), bool):
            raise AgreementError("field 'correct' missing or not true/false")
        seed = rec.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise AgreementError("field 'seed' not a whole number")
        mistakes = rec.get("mistakes", [])
        if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes):
            raise AgreementError("field 'mistakes' not a list of mistake ids")
        return cls(rec["when"], rec["kind"], seed, rec["part"], rec["skill"], rec["correct"], tuple(mistakes))


@dataclass(frozen=True)
class MistakeCard:
    """A usual mistake the student made: where, how often, when last, and its Leitner box."""

    kind: str
    mistake: str
    name: str
    skills: tuple
    times: int
    last: str
    box: int


class LogSummary(Shown):
    """The log as two labelled tables: each kind's box and score, then the mistakes to review."""

    def __init__(self, log: "MistakeLog", kinds: Sequence[str] | None = None):
        self.status = log.status
        kinds = list(kinds) if kinds is not None else list(dict.fromkeys(a.kind for a in log.answers))
        boxes = log.boxes(kinds)
        rows = []
        for kind in kinds:
            mine = [a for a in log.answers if a.kind == kind]
            right = sum(a.correct for a in mine)
            rows.append(
                [
                    kind,
                    str(len(mine)),
                    str(right),
                    str(len(mine) - right),
                    f"{boxes[kind]} of {BOXES}",
                    mine[-1].when[:10] if mine else "never",
                ]
            )
        self.kinds = Table(
            ["kind", "answers", "right", "wrong", "Leitner box", "last practised"],
            rows,
            caption="Your answers by kind of question (box 1 comes back most often)",
            align="lrrrrl",
        )
        cards = log.to_review()
        self.mistakes = Table(
            ["kind", "what you get if you ...", "times", "Leitner box", "last time"],
            [[c.kind, c.name, str(c.times), f"{c.box} of {BOXES}", c.last[:10]] for c in cards],
            caption="Usual mistakes your answers matched (the most frequent first)",
            align="llrrl",
        )
        self.empty_mistakes = not cards

    def render(self, form: str, math: str = "tex") -> str:
        blocks = [
            Prose(Em(self.status)),
            self.kinds,
            Prose("No usual mistake to review.") if self.empty_mistakes else self.mistakes,
        ]
        return render(blocks, form, math, sep="\n\n" if form == "text" else None)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.text()


class MistakeLog:
    """The student's own log of answers and mistakes, in a JSON file (see the module docstring).

    Parameters
    ----------
    path : str or Path, optional
        The file (default: :func:`default_log_path`). It need not exist yet.
    clock : callable, optional
        Returns the time of an answer as an ISO 8601 string (tests fix it).

    Attributes
    ----------
    path : Path
    answers : tuple of LoggedAnswer
        Oldest first.
    status : str
        One sentence for the student: where the log is and what it holds, or
        what went wrong reading or writing it.
    problem : str or None
        The message while something is wrong (None when the log reads and saves).
    saving : bool
        False when the file could not be read: then it is never written over,
        and the answers of this session are kept in memory only.
    """

    def __init__(self, path: str | os.PathLike | None = None, clock: Callable[[], str] | None = None):
        self.path = default_log_path() if path is None else Path(path).expanduser()
        self.clock = clock or _utc_now
        self.answers: tuple[LoggedAnswer, ...] = ()
        self.problem: str | None = None
        self.saving = True
        self.status = ""
        self._load()

    @classmethod
    def open(
        cls, path: str | os.PathLike | None = None, clock: Callable[[], str] | None = None
    ) -> "MistakeLog":
        """Turn the log on: read the file at ``path`` (default :func:`default_log_path`), or start one."""
        return cls(path, clock)

    # ------------------------------------------------------------ reading
    def _load(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self.status = f"Mistake log: {self.path} (new: it starts with your first checked answer)."
            return
        except OSError as exc:  # permission denied, a folder in its place, ...
            self._leave_alone(f"cannot be read ({_reason(exc)})")
            return
        try:
            data = json.loads(raw.decode("utf-8"))
            answers, skipped = self._parse(data)
        except _NewerFormat as exc:
            self._leave_alone(f"was written by a newer iaa-teach ({exc})")
            return
        except (ValueError, UnicodeDecodeError) as exc:
            self._set_aside(f"is damaged ({exc})")
            return
        self.answers = answers
        self.status = f"Mistake log: {self.path} ({_answers(len(answers))})."
        if skipped:
            self._trouble(
                f"{skipped} of the entries in the mistake log {self.path} could not be read and were "
                f"left out; the other {_answers(len(answers))} are kept."
            )

    @staticmethod
    def _parse(data: Any) -> tuple[tuple[LoggedAnswer, ...], int]:
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            raise AgreementError(f'not an iaa-teach mistake log: no "format": "{LOG_FORMAT}"')
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise AgreementError("no version number")
        if version > LOG_VERSION:
            raise _NewerFormat(f"version {version}; this one reads version {LOG_VERSION}")
        records = data.get("answers")
        if not isinstance(records, list):
            raise AgreementError("no list of answers")
        answers, skipped = [], 0
        for rec in records:
            try:
                answers.append(LoggedAnswer.from_record(rec))
            except AgreementError:
                skipped += 1
        return tuple(answers), skipped

    def _set_aside(self, why: str) -> None:
        """A damaged file: move it aside (never lose it), start a new log, say so."""
        stamp = self.clock().replace(":", "").replace("-", "")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            self._leave_alone(f"{why} and could not be set aside ({_reason(exc)})")
            return
        self._trouble(
            f"The mistake log {self.path} {why}. It was set aside as {aside.name} and a new log starts now."
        )

    def _leave_alone(self, what: str) -> None:
        """A file that must not be written over: say what is wrong; this session's answers stay in memory."""
        self.saving = False
        self._trouble(
            f"The mistake log {self.path} {what}. It is left as it is; your answers this session are "
            f"kept in memory only, not saved."
        )

    def _trouble(self, message: str) -> None:
        self.problem = message
        self.status = message

    # ------------------------------------------------------------ writing
    def record(
        self,
        kind: str,
        part: str,
        skill: str,
        correct: bool,
        mistakes: Iterable[str] = (),
        seed: int | None = None,
    ) -> LoggedAnswer:
        """Add one marked answer and save the log; returns the entry.

        Saving never raises: if the file cannot be written, :attr:`problem`
        says why and the answer is kept in memory.
        """
        for name, value in (("kind", kind), ("part", part), ("skill", skill)):
            if not check_text(name, value):  # the log is read back only with these named (from_record)
                raise AgreementError(f"{name} must not be empty, got ''")
        check_bool("correct", correct)
        seed = None if seed is None else check_int("seed", seed, 0)
        mistakes = tuple(check_text("mistakes", m) for m in mistakes)
        entry = LoggedAnswer(self.clock(), kind, seed, part, skill, correct, mistakes)
        self.answers = (*self.answers, entry)[-MAX_ANSWERS:]
        self.save()
        return entry

    def save(self) -> bool:
        """Write the log atomically (a temporary file, then :func:`os.replace`); True if it was written."""
        if not self.saving:
            return False
        data = {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "answers": [a.as_record() for a in self.answers],
        }
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            tmp = None
        except OSError as exc:
            self._trouble(
                f"The mistake log {self.path} could not be saved ({_reason(exc)}); your answers this "
                f"session are kept in memory only."
            )
            return False
        finally:
            if tmp is not None:
                with suppress(OSError):
                    os.unlink(tmp)
        if self.problem is None or "could not be saved" in self.problem:
            self.problem = None
            self.status = f"Mistake log: {self.path} ({_answers(len(self.answers))})."
        return True

    def clear(self) -> None:
        """Forget every answer: the file is emptied (a damaged or unreadable file is left alone)."""
        self.answers = ()
        self.save()
        if self.saving and self.problem is None:
            self.status = f"Mistake log: {self.path} (cleared: no answers)."

    # ----------------------------------------------------------- Leitner
    def _cards(self) -> tuple[dict, dict]:
        """Replay the answers: boxes of (kind, skill) and of (kind, mistake) cards."""
        skills: dict[tuple[str, str], int] = {}
        mistakes: dict[tuple[str, str], dict] = {}
        for a in self.answers:
            key = (a.kind, a.skill)
            skills[key] = min(skills.get(key, 1) + 1, BOXES) if a.correct else 1
            for card in mistakes.values():
                if a.correct and card["kind"] == a.kind and a.skill in card["skills"]:
                    card["box"] = min(card["box"] + 1, BOXES)
            for m in a.mistakes:
                card = mistakes.setdefault((a.kind, m), {"kind": a.kind, "skills": [], "times": 0})
                card["box"] = 1
                card["times"] += 1
                card["last"] = a.when
                if a.skill not in card["skills"]:
                    card["skills"].append(a.skill)
        return skills, mistakes

    def boxes(self, kinds: Sequence[str]) -> dict[str, int]:
        """Each kind's Leitner box: the box of its weakest skill; 1 for a kind never tried."""
        skills, _ = self._cards()
        return {kind: min((box for (k, _), box in skills.items() if k == kind), default=1) for kind in kinds}

    def pick(self, kinds: Sequence[str], seed: int) -> str:
        """Draw the next kind: box b has weight 2 ** (BOXES - b) (the same seed, the same draw)."""
        kinds = _kinds(kinds)
        seed = check_int("seed", seed, 0)
        boxes = self.boxes(kinds)
        weights = np.array([2.0 ** (BOXES - boxes[k]) for k in kinds])
        return kinds[int(np.random.default_rng(seed).choice(len(kinds), p=weights / weights.sum()))]

    def next_kind(self, kinds: Sequence[str]) -> str:
        """The kind in the lowest box; among equals the one answered least often, then the first."""
        kinds = _kinds(kinds)
        boxes = self.boxes(kinds)
        count = {k: sum(a.kind == k for a in self.answers) for k in kinds}
        return min(kinds, key=lambda k: (boxes[k], count[k], kinds.index(k)))

    def to_review(self, kind: str | None = None) -> tuple[MistakeCard, ...]:
        """The usual mistakes still in a box below :data:`BOXES`: the most made first, then the newest."""
        _, cards = self._cards()
        out = [
            MistakeCard(k, m, _mistake_name(k, m), tuple(c["skills"]), c["times"], c["last"], c["box"])
            for (k, m), c in cards.items()
            if c["box"] < BOXES and (kind is None or k == kind)
        ]
        out.sort(key=lambda c: c.last, reverse=True)
        out.sort(key=lambda c: (c.box, -c.times))
        return tuple(out)

    def summary(self, kinds: Sequence[str] | None = None) -> LogSummary:
        """The log as labelled tables (displays in a notebook; ``print`` gives text)."""
        return LogSummary(self, kinds)

    def __repr__(self) -> str:
        return f"<MistakeLog {self.path}: {_answers(len(self.answers))}>"


class _NewerFormat(Exception):
    pass


def _kinds(kinds: Sequence[str]) -> list[str]:
    if isinstance(kinds, str) or not hasattr(kinds, "__iter__"):
        raise AgreementError(f"kinds must be a list of question kinds, got {kinds!r}")
    kinds = [check_text("kinds", k) for k in kinds]
    if not kinds:
        raise AgreementError("kinds is empty: give at least one kind of question")
    return kinds


def _mistake_name(kind: str, mistake: str) -> str:
    """The mistake's name in the catalogue; its id if the catalogue no longer has it."""
    if mistake not in MISTAKES:
        return mistake
    try:
        return mistake_info(kind, mistake).name
    except AgreementError:
        return MISTAKES[mistake].name


def _answers(n: int) -> str:
    return f"{n} answer{'s' if n != 1 else ''}"


def _reason(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()
