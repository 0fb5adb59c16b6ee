"""Printable worksheets: a question sheet and a separate answer sheet, as HTML.

The sheets use the questions' and solutions' own HTML renderer with
``math="text"``: formulas in plain text with subscripts, equations in
``<pre>`` blocks, so a page needs no script or maths renderer to print.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..markup import html_escape
from ..validation import check_int, check_option
from ._generate import KINDS
from ._questions import Question, make_question

__all__ = ["Worksheet", "worksheet", "worksheet_questions"]

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto; line-height: 1.4; }
h1 { font-size: 1.5em; } h3 { margin-bottom: 0.3em; } h3 small { font-weight: normal; color: #555; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #999; padding: 0.15em 0.7em; text-align: center; }
pre { font-size: 0.85em; background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; }
.iaa-question, .iaa-solution { page-break-inside: avoid; margin-bottom: 2em; }
@media print { .iaa-question, .iaa-solution { page-break-after: always; } pre { background: none; } }
"""


@dataclass(frozen=True)
class Worksheet:
    """Where :func:`worksheet` wrote the two sheets, and the questions on them."""

    questions_path: Path
    answers_path: Path
    questions: tuple


def worksheet_questions(n: int, seed: int = 0, kinds: Sequence[str] = KINDS) -> list[Question]:
    """The questions of a worksheet: question i is ``make_question(kinds[i % len(kinds)], seed + i)``.

    ``n`` is 1 to 100; ``kinds`` a kind or a non-empty sequence of kinds.
    """
    n = check_int("n", n, 1, 100)
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    check_int("len(kinds)", len(kinds), 1)
    for kind in kinds:
        check_option("kinds", kind, KINDS)
    return [make_question(kinds[i % len(kinds)], seed + i) for i in range(n)]


def _page(title: str, body: str) -> str:
    title = html_escape(title, math="text")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n'
            f"<style>{_CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>\n{body}\n</body>\n</html>\n")


def worksheet_html(questions: Sequence[Question], title: str = "Inter-annotator agreement: exam practice") -> tuple[str, str]:
    """The question sheet and the answer sheet of ``questions``, as two HTML documents."""
    sheet = "\n".join(f"<h2>Question {i}</h2>\n{q.html(math='text')}" for i, q in enumerate(questions, start=1))
    answers = "\n".join(f"<h2>Question {i}</h2>\n{q.solution().html(math='text')}"
                         for i, q in enumerate(questions, start=1))
    return _page(title, sheet), _page(title + ": answers", answers)


def worksheet(n: int, seed: int = 0, kinds: Sequence[str] = KINDS, directory: str | Path = ".",
              name: str = "worksheet") -> Worksheet:
    """Write a printable worksheet of ``n`` questions and its answer sheet.

    Two self-contained HTML files (no scripts, no network; print them from a
    browser): ``directory/name-questions.html`` and ``directory/name-answers.html``.
    Question i is ``make_question(kinds[i % len(kinds)], seed + i)``, and each
    sheet prints its id (``cohen-7``), so any question can be regenerated.

    Parameters
    ----------
    n : int
        Number of questions (1-100).
    seed : int
        Seed of the first question; the next ones use seed + 1, seed + 2, ...
    kinds : sequence of str
        Question kinds, taken in turn.
    directory : str or Path
        Where to write (created if missing).
    name : str
        File name stem.

    Returns
    -------
    Worksheet
        ``questions_path``, ``answers_path`` and the :class:`Question` objects.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     ws = worksheet(2, seed=5, kinds=["cohen"], directory=tmp)
    ...     [p.name for p in (ws.questions_path, ws.answers_path)]
    ['worksheet-questions.html', 'worksheet-answers.html']
    """
    questions = worksheet_questions(n, seed, kinds)
    sheet, answers = worksheet_html(questions)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    q_path, a_path = directory / f"{name}-questions.html", directory / f"{name}-answers.html"
    q_path.write_text(sheet, encoding="utf-8")
    a_path.write_text(answers, encoding="utf-8")
    return Worksheet(q_path, a_path, tuple(questions))
