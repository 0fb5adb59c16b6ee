"""The course as data: its lessons, notation and glossary.

One table each, read by the start page (``notebooks/00_start_here``), the
lessons, the README and a static book:

- :data:`LESSONS`: every lesson in course order, with its file, the time it
  takes, what it teaches and whether it is written yet (``ready``);
- :func:`glossary_table`: the terms the lessons use, each defined once;
- :func:`recall_questions` and :func:`recall_answers`: the questions to answer from memory at the
  end of each lesson;
- ``NOTATION``: one symbol per quantity.

The text of all four lives in data files a lecturer edits without reading Python:
``iaa_teach/content/lessons.toml``, ``glossary.toml``, ``recall.toml`` and ``notation.toml``.

:func:`lesson_table`, :func:`notation_table` and :func:`glossary_table` show them
as :class:`~iaa_teach.markup.Table` (Markdown in a notebook, text, HTML).

The cell tags :data:`EXERCISE_TAG` and :data:`SOLUTION_TAG` mark a lesson's
exercises and worked answers (:mod:`iaa_teach.lesson_copies` empties the worked
answers for the student copies; ``tools/book.py`` folds them in the book).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ._markup import NOTATION, Em, Link, Prose, Table, prose, with_symbols
from .metrics import BANDS
from .rounding import fmt

__all__ = [
    "Lesson",
    "LESSONS",
    "lesson",
    "lesson_table",
    "notation_table",
    "glossary_table",
    "alpha_verdict",
    "alpha_guidance",
    "landis_koch_table",
    "recall_questions",
    "recall_answers",
    "SOLUTION_TAG",
    "EXERCISE_TAG",
]


# ================================================================= lessons
@dataclass(frozen=True)
class Lesson:
    """One lesson: ``number`` (``"01"``), file ``stem``, ``title``, ``minutes``, what you ``learn``.

    ``ready`` is False for a lesson that is planned but not written yet: the
    start page lists it as coming, without a link. Writing the lesson means
    adding ``notebooks/<stem>.ipynb`` and setting ``ready=True`` here (a test
    checks the two agree).
    """

    number: str
    stem: str
    title: str
    minutes: int
    learn: str
    ready: bool = True

    @property
    def file(self) -> str:
        return f"{self.stem}.ipynb"


def _content(name: str) -> dict:
    """A data file of ``content/`` (TOML: a lecturer edits the course there, not here)."""
    return tomllib.loads((Path(__file__).parent / "content" / f"{name}.toml").read_text("utf-8"))


#: The course, in order (``content/lessons.toml``).
LESSONS: tuple[Lesson, ...] = tuple(Lesson(**row) for row in _content("lessons")["lesson"])


def lesson(number_or_stem: str) -> Lesson:
    """The lesson with this number (``"03"``) or file stem."""
    for les in LESSONS:
        if number_or_stem in (les.number, les.stem):
            return les
    raise KeyError(f"no lesson {number_or_stem!r}; the lessons are {[x.stem for x in LESSONS]}")


def lesson_table(suffix: str = ".ipynb", start: int = 1) -> Table:
    """The lessons as a table: number, title (a link where written), minutes, what you learn.

    ``suffix`` is the file ending links point to (``".html"`` for a book);
    ``start`` the first lesson listed (1 leaves out the start page itself).
    """
    rows = [
        [
            les.number,
            Link(les.title, les.stem + suffix) if les.ready else Prose(les.title, " ", Em("(coming)")),
            str(les.minutes),
            with_symbols(les.learn),
        ]
        for les in LESSONS[start:]
    ]
    return Table(["lesson", "title", "minutes", "what you learn"], rows, align="llrl")


# ================================================================ notation
def notation_table() -> Table:
    """``NOTATION`` as a table: symbol, meaning, how the sources write it, first lesson.

    Only the symbols of the lessons that are ready: a symbol of a lesson still
    coming appears with its lesson.
    """
    ready = {les.number for les in LESSONS if les.ready}
    rows = [
        [
            row.symbol,
            with_symbols(row.meaning),
            with_symbols(row.elsewhere) if row.elsewhere else "–",
            row.lesson,
        ]
        for row in NOTATION
        if not row.lesson or row.lesson in ready
    ]
    return Table(
        ["symbol", "meaning", "sources that write it differently", "first in lesson"],
        rows,
        align="lllr",
    )


# ================================================================ glossary
@dataclass(frozen=True)
class _Term:
    """A glossary entry: the ``term``, its ``definition`` (a template, see
    :func:`iaa_teach.markup.prose`) and the lesson that introduces it."""

    term: str
    definition: str
    lesson: str


#: Krippendorff's guidance for alpha (2004, sec. 11.4): a convention, not a law.
_KRIPPENDORFF_GUIDANCE = ((0.800, "rely on the data"), (0.667, "draw tentative conclusions at most"))
#: What the guidance says below its lower threshold.
_KRIPPENDORFF_BELOW = "do not rely on the data"


def alpha_verdict(value: object) -> str:
    """What Krippendorff's guidance says of an alpha: its verdict, as Landis-Koch's bands are for kappa.

    >>> alpha_verdict(0.578), alpha_verdict(0.7), alpha_verdict(0.8), alpha_verdict(float("nan"))
    ('do not rely on the data', 'draw tentative conclusions at most', 'rely on the data', 'undefined')
    """
    v = float("nan") if value is None else float(value)  # type: ignore[arg-type]
    if v != v:
        return "undefined"
    return next((what for threshold, what in _KRIPPENDORFF_GUIDANCE if v >= threshold), _KRIPPENDORFF_BELOW)


def _bands_in_words() -> str:
    parts = [f"{name} {fmt(lo, 2)} to {fmt(hi, 2)}" for lo, hi, name in BANDS[1:]]
    return f"{BANDS[0][2]} below {fmt(BANDS[0][1], 2)}; " + "; ".join(parts)


def alpha_guidance() -> str:
    """Krippendorff's guidance for alpha in words, its thresholds from ``_KRIPPENDORFF_GUIDANCE``."""
    (hi, what_hi), (lo, what_lo) = _KRIPPENDORFF_GUIDANCE
    return (
        f"alpha ≥ {fmt(hi)}: {what_hi}; {fmt(lo)} ≤ alpha < {fmt(hi)}: {what_lo}; "
        f"below {fmt(lo)}: {_KRIPPENDORFF_BELOW}"
    )


#: The course's terms, each defined once, in the order the lessons introduce them
#: (``content/glossary.toml``; its ``{landis_koch_bands}`` and ``{alpha_guidance}`` are
#: filled in from :data:`iaa_teach.BANDS` and ``_KRIPPENDORFF_GUIDANCE``).
_GLOSSARY: tuple[_Term, ...] = tuple(
    _Term(
        row["term"],
        row["definition"]
        .replace("{landis_koch_bands}", _bands_in_words())
        .replace("{alpha_guidance}", alpha_guidance()),
        row["lesson"],
    )
    for row in _content("glossary")["term"]
)


def glossary_table() -> Table:
    """The glossary as a table: term, definition (its symbols as maths), first lesson."""
    rows = [[t.term, prose(t.definition), t.lesson] for t in _GLOSSARY]
    return Table(["term", "meaning", "first in lesson"], rows, align="llr")


def landis_koch_table() -> Table:
    """The Landis-Koch bands as a table: from, to, name (from :data:`iaa_teach.BANDS`)."""
    (_, first_top, first_name), *rest = BANDS
    rows = [[first_name, "–", f"below {fmt(first_top, 2)}"]]
    rows += [[name, fmt(lo, 2), fmt(hi, 2)] for lo, hi, name in rest]
    return Table(["band", "from", "to"], rows, align="lrr")


# ================================================================== recall
#: Questions to answer from memory at the end of each lesson, with their answers (shown folded):
#: lesson number -> ((question, answer), ...), from ``content/recall.toml``.
_RECALL: dict[str, tuple[tuple[str, str], ...]] = {}
for _row in _content("recall")["question"]:
    _RECALL[_row["lesson"]] = _RECALL.get(_row["lesson"], ()) + ((_row["question"], _row["answer"]),)
del _row


def recall_questions(number: str) -> Table:
    """A lesson's recall questions (``_RECALL``), numbered, to answer from memory."""
    rows = [[str(i), prose(question)] for i, (question, _) in enumerate(_RECALL[number], 1)]
    return Table(["", "question"], rows, caption=f"Recall: lesson {number}", align="rl")


def recall_answers(number: str) -> Table:
    """The answers to a lesson's recall questions (shown folded, under the questions)."""
    rows = [[str(i), prose(answer)] for i, (_, answer) in enumerate(_RECALL[number], 1)]
    return Table(["", "answer"], rows, caption=f"Recall: lesson {number}, answers", align="rl")


# =========================================================== student copies
#: Cell tag of a cell the student fills in (kept in student copies).
EXERCISE_TAG = "exercise"
#: Cell tag of a worked answer (emptied in student copies).
SOLUTION_TAG = "solution"
