"""Printable worksheets: a question sheet and a separate answer sheet, as HTML.

The sheets use the questions' and solutions' own HTML renderer with
``math="text"``: formulas in plain text with subscripts, equations in
``<pre>`` blocks, so a page needs no script or maths renderer to print.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..markup import html_escape
from ..validation import AgreementError, check_bool, check_int, check_option, check_text
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
    seed = check_int("seed", seed, 0, 2**31 - 101)
    if not isinstance(kinds, str) and not hasattr(kinds, "__iter__"):
        raise AgreementError(f"kinds must be a kind or a list of kinds, got {kinds!r}")
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
    check_text("title", title)
    if isinstance(questions, (str, bytes)) or not hasattr(questions, "__iter__"):
        raise AgreementError(f"questions must be a list of Question objects, got {questions!r}")
    questions = list(questions)
    for q in questions:
        if not isinstance(q, Question):
            raise AgreementError(f"questions must be Question objects (from make_question), got {type(q).__name__}")
    sheet = "\n".join(f"<h2>Question {i}</h2>\n{q.html(math='text')}" for i, q in enumerate(questions, start=1))
    answers = "\n".join(f"<h2>Question {i}</h2>\n{q.solution().html(math='text')}"
                         for i, q in enumerate(questions, start=1))
    return _page(title, sheet), _page(title + ": answers", answers)


def _file_stem(name: Any) -> str:
    """A file name stem that stays in its directory: no separators, not '.' or '..', no control characters."""
    check_text("name", name)
    bad = [ch for ch in name if ch in "/\\:" or ord(ch) < 32 or ch == "\x7f"]
    if not name.strip() or name.strip(". ") == "" or bad or name.startswith("-"):
        raise AgreementError(f"name must be a plain file name (no '/', '\\', ':', control characters, '.' or "
                             f"'..'), got {name!r}")
    if len(name.encode("utf-8")) > 200:
        raise AgreementError(f"name is too long ({len(name)} characters; at most 200 bytes)")
    return name


def worksheet(n: int, seed: int = 0, kinds: Sequence[str] = KINDS, directory: str | Path = ".",
              name: str = "worksheet", overwrite: bool = False) -> Worksheet:
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
        File name stem: a plain name, so the files stay in ``directory``
        (no ``/``, ``\\``, ``..``).
    overwrite : bool
        Replace existing files of those names; by default an existing file
        is an error and nothing is written.

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
    name = _file_stem(name)
    check_bool("overwrite", overwrite)
    if isinstance(directory, bool) or not isinstance(directory, (str, os.PathLike)):
        raise AgreementError(f"directory must be a path (a str or pathlib.Path), got {directory!r}")
    directory = Path(directory)
    q_path, a_path = directory / f"{name}-questions.html", directory / f"{name}-answers.html"
    for path in (q_path, a_path):
        if path.resolve().parent != directory.resolve():  # pragma: no cover - the name check prevents it
            raise AgreementError(f"{path} would be written outside {directory}")
        if not overwrite and (path.exists() or path.is_symlink()):
            raise AgreementError(f"{path} exists already; choose another name, or pass overwrite=True")
    questions = worksheet_questions(n, seed, kinds)
    sheet, answers = worksheet_html(questions)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path, text in ((q_path, sheet), (a_path, answers)):
            with open(path, "w" if overwrite else "x", encoding="utf-8") as fh:
                fh.write(text)
    except FileExistsError:
        raise AgreementError(f"{path} exists already; choose another name, or pass overwrite=True") from None
    except OSError as err:
        raise AgreementError(f"cannot write the worksheet to {directory}: {err.strerror or err}") from None
    return Worksheet(q_path, a_path, tuple(questions))
