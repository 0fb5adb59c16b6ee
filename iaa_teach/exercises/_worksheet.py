"""Printable worksheets: a question sheet and a separate answer sheet, as HTML."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..ratings import AgreementError
from ._generate import KINDS
from ._questions import Question, make_question

__all__ = ["Worksheet", "worksheet", "worksheet_questions"]

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto; line-height: 1.4; }
h1 { font-size: 1.5em; } h3 { margin-bottom: 0.3em; } h3 small { font-weight: normal; color: #555; }
table.iaa-ratings { border-collapse: collapse; margin: 0.6em 0; }
table.iaa-ratings th, table.iaa-ratings td { border: 1px solid #999; padding: 0.15em 0.7em; text-align: center; }
ol.iaa-parts li { margin: 0.4em 0; }
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
    """The questions of a worksheet: question i is ``make_question(kinds[i % len(kinds)], seed + i)``."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100:
        raise AgreementError(f"a worksheet holds 1 to 100 questions, got n={n!r}")
    if isinstance(kinds, str):
        kinds = (kinds,)
    kinds = tuple(kinds)
    bad = [k for k in kinds if k not in KINDS]
    if not kinds or bad:
        raise AgreementError(f"kinds must be a non-empty list drawn from {list(KINDS)}, got {list(kinds)}")
    return [make_question(kinds[i % len(kinds)], seed + i) for i in range(n)]


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
            f"<style>{_CSS}</style>\n</head>\n<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body>\n</html>\n")


def worksheet_html(questions: Sequence[Question], title: str = "Inter-annotator agreement: exam practice") -> tuple[str, str]:
    """The question sheet and the answer sheet of ``questions``, as two HTML documents."""
    sheet = "\n".join(f"<h2>Question {i}</h2>\n{q.html()}" for i, q in enumerate(questions, start=1))
    answers = "\n".join(f"<h2>Question {i}</h2>\n{q.solution().html()}" for i, q in enumerate(questions, start=1))
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
