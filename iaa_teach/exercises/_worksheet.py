"""Printable worksheets: a question paper and a mark scheme, as HTML or PDF (laid out as :func:`worksheet`
says).

Every formula is typeset as MathML (``math="mathml"`` of
:mod:`iaa_teach.markup`, converted in Python by latex2mathml), so a page needs
no script, font download or network: a browser shows it as it is, and
``format="pdf"`` prints it with headless Chromium
(:func:`iaa_teach.report.html_to_pdf`). A Content-Security-Policy in
each page forbids loading anything.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .._markup import Em, Prose, Table, html_escape
from .._report import html_to_pdf
from .._validation import AgreementError, check_bool, check_int, check_option, check_text
from ._concepts import load
from ._generate import KINDS
from ._questions import Question, make_question

__all__ = [
    "Worksheet",
    "worksheet",
    "worksheet_html",
    "worksheet_questions",
    "default_minutes",
    "FORMATS",
    "MINUTES_PER_MARK",
    "LINES_PER_MARK",
    "INSTRUCTIONS",
    "MARKING",
]

#: What :func:`worksheet` writes.
FORMATS = ("html", "pdf")
#: The default time allowed: this many minutes per mark, rounded up to a whole minute (a Tripos paper
#: allows about 1.8 minutes a mark: three 20-mark questions in 1 h 48 min). The mock exam uses it too.
MINUTES_PER_MARK = 1.8
#: How to mark, at the top of the answer key: the rules :meth:`Question.check` marks by.
MARKING = (
    Prose(
        Em("Numbers:", strong=True),
        " M marks for the method shown, A1 for the value to 3 dp (or exact). A slip or early rounding in a "
        "right method: M marks only. Right to 2 dp only: lose A1, never more. A wrong method earns nothing.",
    ),
    Prose(
        Em("Follow-through (ft):", strong=True),
        " mark a part built on earlier parts against the candidate's own earlier answers; "
        "penalise an error once.",
    ),
    Prose(
        Em("Letters:", strong=True),
        " the right letter; for select all, a mark per right letter less one per wrong letter, not below 0. ",
        Em("Short answers:", strong=True),
        " a mark per numbered point made, in any wording (students marking their own work tick the points).",
    ),
)
#: The instructions on the front of the question paper.
INSTRUCTIONS = (
    Prose("Answer ", Em("all", strong=True), " questions, in the space under each part."),
    Prose("The marks for each part are shown in brackets, like [2]."),
    Prose("Give numerical answers to 3 decimal places or as exact fractions."),
    Prose("Show your working: marks are given for the method as well as for the answer."),
    Prose("A calculator may be used."),
)
#: Squared paper (5 mm squares) this tall above the lines of a part that asks to draw a table.
GRID_MM = 50
_DRAW = re.compile(r"\b(draw|cross-tabulate|build the coincidence)", re.IGNORECASE)
#: Ruled answer lines per mark under each part (and 3 more), 8 mm apart.
LINES_PER_MARK = 3
_LINE_MM = 8
_CSP = "default-src 'none'; style-src 'unsafe-inline'"

_CSS = load(Path(__file__).parent.parent / "content" / "worksheet.toml")["css"].replace(
    "LINE_MM", str(_LINE_MM)
)


@dataclass(frozen=True)
class Worksheet:
    """Where :func:`worksheet` wrote the question paper and the mark scheme, and what is on them.

    ``questions_path`` is the question paper, ``answers_path`` the mark
    scheme (answer key and worked solutions); ``marks`` the paper's total and
    ``minutes`` the time allowed.
    """

    questions_path: Path
    answers_path: Path
    questions: tuple
    marks: int = 0
    minutes: int = 0


def worksheet_questions(
    n: int, seed: int = 0, kinds: Sequence[str] = KINDS, level: int = 2
) -> list[Question]:
    """The questions of a worksheet: question i is ``make_question(kinds[i % len(kinds)], seed + i,
    level=level)``.

    ``n`` is 1 to 100; ``kinds`` a kind or a non-empty sequence of kinds;
    ``level`` 1, 2, 3 or 4 (see :func:`make_question`).
    """
    n = check_int("n", n, 1, 100)
    seed = check_int("seed", seed, 0, 2**31 - 101)
    if not isinstance(kinds, str) and not hasattr(kinds, "__iter__"):
        raise AgreementError(f"kinds must be a kind or a list of kinds, got {kinds!r}")
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    check_int("len(kinds)", len(kinds), 1)
    for kind in kinds:
        check_option("kinds", kind, KINDS)
    return [make_question(kinds[i % len(kinds)], seed + i, level=level) for i in range(n)]


# ============================================================== the pages
def _page(title: str, body: str, css: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        f"<title>{title}</title>\n<style>{_CSS}{css}</style>\n</head>\n"
        f"<body>\n{_ranges_kept_whole(body)}\n</body>\n</html>\n"
    )


#: A tag, or a formula (MathML) whole: what a range is not looked for in.
_TAG_OR_MATH = re.compile(r"(<math\b.*?</math>|<[^>]*>)", re.S)
#: A range of numbers, "2-8" or "2–8" (not part of a longer word, code or decimal).
_RANGE = re.compile(r"(?<![\w.\-–])\d+(?:\.\d+)?[-–]\d+(?:\.\d+)?(?!\w|\.\d|[-–]\d)")


def _ranges_kept_whole(html: str) -> str:
    """``html`` with each range of numbers in its text ("only items 2-8") in a span that does not break:
    a browser breaks a line after a hyphen or dash, and the paper read "items 2-" / "8".

    >>> _ranges_kept_whole('<p title="2-8">A, only items 2-8; D, items 1–5. Q-AB12-34CD, -1-2</p>')
    '<p title="2-8">A, only items <span class="nowrap">2-8</span>; D, items <span class="nowrap">1–5</span>. Q-AB12-34CD, -1-2</p>'
    """
    pieces = _TAG_OR_MATH.split(html)
    return "".join(
        piece if i % 2 else _RANGE.sub(lambda m: f'<span class="nowrap">{m.group(0)}</span>', piece)
        for i, piece in enumerate(pieces)
    )


def _css_string(text: str) -> str:
    """``text`` as a quoted CSS string: anything but a letter, digit, space or plain punctuation as a
    hexadecimal escape, so a title cannot end the string or the style sheet."""
    safe = " .,:;!?()'-_"
    return (
        '"'
        + "".join(c if c.isascii() and (c.isalnum() or c in safe) else f"\\{ord(c):x} " for c in text)
        + '"'
    )


def _total(n: int) -> str:
    return f"{n} mark" + ("" if n == 1 else "s")


def default_minutes(marks: int) -> int:
    """The time allowed for ``marks``: :data:`MINUTES_PER_MARK` a mark, rounded up to a whole minute.

    >>> default_minutes(12), default_minutes(20)
    (22, 36)
    """
    return max(1, math.ceil(round(marks * MINUTES_PER_MARK, 9)))


def _ids(questions: Sequence[Question]) -> str:
    return ", ".join(q.id for q in questions)


def _stem(q: Question) -> str:
    """The question up to its first part: heading line, setting and ratings table, as the question shows them.

    The question is written once (:meth:`Question.html`); the paper sets each
    part apart with its marks and answer space, so it takes the question's
    own page up to part (a).
    """
    page = q.html(math="mathml").removeprefix('<div class="iaa-question">')
    title = q.sections()[0][0]  # a level-4 question's first section heading: the paper prints its own
    cut = page.find(f"<p><b>{title} [") if title else -1
    cut = cut if cut >= 0 else page.find(f"<p><b>({q.parts[0].label})</b>")
    if cut < 0:  # pragma: no cover - the tests check every kind
        raise AgreementError(f"question {q.id}: its first part was not found in its page")
    return page[:cut]


def _answer_space(p) -> str:
    """Where the answer goes: a box for a letter; else ruled lines, :data:`LINES_PER_MARK` a mark and 3 more
    (a table to draw needs room)."""
    if p.select:
        return '<p class="letter">Answer (every letter that applies): <span class="box wide"></span></p>'
    if _DRAW.search(p.prompt.text()):  # a table to draw: squared paper, then lines for the working
        return f'<div class="squares" style="height: {GRID_MM}mm"></div>' + (
            '<div class="lines">' + "<div></div>" * (LINES_PER_MARK * p.marks) + "</div>"
        )
    if p.choices:
        return '<p class="letter">Answer (one letter): <span class="box"></span></p>'
    return '<div class="lines">' + "<div></div>" * (3 + LINES_PER_MARK * p.marks) + "</div>"


def _part(p) -> str:
    options = "".join(f"<p>{c.html(math='mathml')}</p>" for c in p.choice_lines())
    options = f'<div class="choices">{options}</div>' if options else ""
    return (
        f'<div class="part"><p class="prompt"><span class="label">({p.label})</span>'
        f'<span class="words">{p.prompt.html(math="mathml")}</span><span class="mark">{p.mark_tag}</span>'
        f"</p>{options}{_answer_space(p)}</div>"
    )


def _section(title: str, parts) -> str:
    """A level-4 question's section heading with its marks (nothing for a question in one section)."""
    if not title:
        return ""
    marks = sum(p.marks for p in parts)
    return f'<h3 class="section">{html_escape(title)} <span class="mark">[{marks}]</span></h3>'


def _examiner_grid(questions: Sequence[Question], total: int) -> str:
    """The front page's grid for the marker: each question's marks, and an empty row for the marks given.

    Up to 12 questions (wider would not fit the page); the rubric gives the total in any case.
    """
    if len(questions) > 12:
        return ""
    table = Table(
        ["Question", *(str(i) for i in range(1, len(questions) + 1)), "Total"],
        [
            ["Out of", *(str(q.total_marks) for q in questions), str(total)],
            ["Marks given", *([""] * (len(questions) + 1))],
        ],
        caption="For the marker",
    )
    return f'<div class="grid">{table.html(math="mathml")}</div>'


def _paper(questions: Sequence[Question], title: str, minutes: int, total: int) -> str:
    rubric = "".join(f"<li>{x.html(math='mathml')}</li>" for x in INSTRUCTIONS)
    out = [
        f"<h1>{title}</h1>",
        f'<p class="paper-id">Question paper. Questions {html_escape(_ids(questions))}</p>',
        '<table class="candidate"><tr><td>Name</td><td class="write"></td><td>&#x2003;Student number</td>'
        '<td class="write"></td></tr></table>',
        f'<div class="rubric"><p class="time"><b>Time allowed: {minutes} minutes.</b> '
        f"<b>Total: {_total(total)}.</b> {len(questions)} question{'s' if len(questions) != 1 else ''}.</p>"
        f"<ul>{rubric}</ul></div>",
        _examiner_grid(questions, total),
    ]
    out += [
        f'<section class="question"><div class="stem"><h2 class="qhead"><span>Question {i}</span>'
        f"<span>[{_total(q.total_marks)}]</span></h2>{_stem(q)}</div>"
        + "".join(_section(title, ps) + "".join(_part(p) for p in ps) for title, ps in q.sections())
        + "</section>"
        for i, q in enumerate(questions, start=1)
    ]
    out.append(f'<p class="end">END OF QUESTION PAPER ({_total(total)})</p>')
    return _page(title, "\n".join(out))


#: A fraction of two numbers as MathML typesets it (stacked, its digits at about 70 %).
_FRACTION = re.compile(r"<mfrac><mrow>(<mn>[^<]*</mn>)</mrow><mrow>(<mn>[^<]*</mn>)</mrow></mfrac>")
#: A formula and the stop or comma after it (a line may break between them: a line of its own for ".").
_MATH_STOP = re.compile(r"(<math\b(?:(?!</math>).)*</math>[.,;:)]+)", re.S)
#: A mark and its value, "A1: 0.571" (the value is not to start the next line).
_MARK_VALUE = re.compile(r"\b([ABM]\d): ")


def _key_answer(p) -> str:
    """A part's answer in the key: :meth:`Part.key_line` without its label and marks (the table has
    columns for those): the exact answer and its 3 decimals, the right letter, or the key points.

    A fraction of two numbers is written 55/139, as the text key writes it: in a table of small type a
    stacked fraction's digits are smaller still, and its line is taller (the worked solutions stack them).
    """
    answer = Prose(*p.key_line().pieces[2:]).html(math="mathml")
    answer = _FRACTION.sub(r'<mrow>\1<mo lspace="0" rspace="0">/</mo>\2</mrow>', answer)
    return _MATH_STOP.sub(r'<span class="nowrap">\1</span>', _MARK_VALUE.sub("\\1:&#xa0;", answer))


def _mark_scheme(questions: Sequence[Question], title: str, total: int, plain_title: str) -> str:
    """The mark scheme: the answer key (one page for a question of every kind at levels 1-3; a longer key
    goes on with its heading at the top of each page it continues to), then each worked solution."""
    rows = []
    for i, q in enumerate(questions, start=1):
        first = (
            f'<td class="q" rowspan="{len(q.parts)}"><b>{i}</b><br>'
            f'<span class="muted">{_total(q.total_marks)}</span></td>'
        )
        body = "".join(
            f'<tr>{first if j == 0 else ""}<td class="p">({p.label})</td><td>{_key_answer(p)}</td>'
            f'<td class="marks">{p.marks}</td></tr>'
            for j, p in enumerate(q.parts)
        )
        rows.append(f"<tbody>{body}</tbody>")
    how = "".join(f"<li>{x.html(math='mathml')}</li>" for x in MARKING)
    key = (
        f'<section class="key"><h1>{title}: mark scheme</h1>'
        f'<p class="paper-id">Questions {html_escape(_ids(questions))}. Numbers are rounded half up from the '
        f'exact values.</p><h2>Answer key</h2><ul class="how">{how}</ul>'
        '<table><thead><tr><th class="q">Question</th><th class="p">Part</th><th>Answer</th>'
        '<th class="marks">Marks</th></tr></thead>'
        + "".join(rows)
        + f'<tbody><tr class="qtotal"><td colspan="3">Total</td><td class="marks">{total}</td></tr></tbody>'
        "</table></section>"
    )
    worked = [
        f'<section class="worked"><h2 class="qhead"><span>Question {i}: worked solution '
        f"<small>({html_escape(q.id)})</small></span><span>[{_total(q.total_marks)}]</span>"
        f"</h2>{q.solution().html(math='mathml')}</section>"
        for i, q in enumerate(questions, start=1)
    ]
    running = _css_string(f"{plain_title}: mark scheme. Answer key, continued")
    css = (
        f"@page key {{ @top-left {{ content: {running}; font: bold 9pt Georgia, serif; color: #444; }} }}"
        "@page key:first { @top-left { content: none; } }"
    )
    return _page(title + ": mark scheme", key + "\n" + "\n".join(worked), css)


def worksheet_html(
    questions: Sequence[Question],
    title: str = "Inter-annotator agreement: exam practice",
    minutes: int | None = None,
) -> tuple[str, str]:
    """The question paper and the mark scheme of ``questions``, as two HTML documents.

    ``minutes`` is the time allowed (default: :func:`default_minutes` of the total marks).
    """
    check_text("title", title)
    if isinstance(questions, (str, bytes)) or not hasattr(questions, "__iter__"):
        raise AgreementError(f"questions must be a list of Question objects, got {questions!r}")
    questions = list(questions)
    for q in questions:
        if not isinstance(q, Question):
            raise AgreementError(
                f"questions must be Question objects (from make_question), got {type(q).__name__}"
            )
    total = sum(q.total_marks for q in questions)
    minutes = default_minutes(total) if minutes is None else check_int("minutes", minutes, 1, 600)
    shown = html_escape(title, math="text")
    return _paper(questions, shown, minutes, total), _mark_scheme(questions, shown, total, title)


def _file_stem(name: Any) -> str:
    """A file name stem that stays in its directory: no separators, not '.' or '..', no control characters."""
    check_text("name", name)
    bad = [ch for ch in name if ch in "/\\:" or ord(ch) < 32 or ch == "\x7f"]
    if not name.strip() or name.strip(". ") == "" or bad or name.startswith("-"):
        raise AgreementError(
            f"name must be a plain file name (no '/', '\\', ':', control characters, '.' or "
            f"'..'), got {name!r}"
        )
    if len(name.encode("utf-8")) > 200:
        raise AgreementError(f"name is too long ({len(name)} characters; at most 200 bytes)")
    return name


def worksheet(
    n: int,
    seed: int = 0,
    kinds: Sequence[str] = KINDS,
    directory: str | Path = ".",
    name: str = "worksheet",
    overwrite: bool = False,
    format: str = "html",
    level: int = 2,
    minutes: int | None = None,
    title: str = "Inter-annotator agreement: exam practice",
) -> Worksheet:
    """Write a question paper of ``n`` questions and its mark scheme, as HTML or PDF.

    ``directory/name-questions.EXT`` is the question paper: a name line, the
    time allowed, the instructions and the total marks, then each question
    on its own page with the marks of every part (``[2]``) and ruled space to
    answer under it. ``directory/name-answers.EXT`` is the mark scheme: the
    answer key (each part's answer and marks, each question's total), on one
    page for up to one question of every kind at levels 1-3 (a longer key goes
    on under its heading, no row split), then the worked solutions. Maths is typeset (MathML); the pages load
    nothing from anywhere. Question i is ``make_question(kinds[i % len(kinds)],
    seed + i, level=level)`` and each sheet prints its code (``Q-7KD3-M2XA``, naming
    no kind), so any question can be drawn again (:func:`question_for`).

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
    format : {"html", "pdf"}
        ``"html"``: two self-contained pages to print from a browser.
        ``"pdf"``: two A4 PDF files, printed by headless Chromium
        (:func:`iaa_teach.report.html_to_pdf`; an
        :class:`AgreementError` says what to install if it is missing).
    level : {1, 2, 3, 4}
        Difficulty of the questions (:func:`make_question`): 1 small
        complete tables, 2 the default, 3 exam size, 4 Tripos-shaped
        questions of 20 marks.
    minutes : int, optional
        The time allowed printed on the paper (default: :data:`MINUTES_PER_MARK`
        a mark, rounded up to a whole minute).
    title : str
        The heading of both sheets.

    Returns
    -------
    Worksheet
        ``questions_path``, ``answers_path``, the :class:`Question` objects,
        the total ``marks`` and the ``minutes`` allowed.

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
    check_option("format", format, FORMATS)
    if not isinstance(directory, (str, os.PathLike)):
        raise AgreementError(f"directory must be a path (a str or pathlib.Path), got {directory!r}")
    directory = Path(directory)
    q_path, a_path = directory / f"{name}-questions.{format}", directory / f"{name}-answers.{format}"
    for path in (q_path, a_path):
        if path.resolve().parent != directory.resolve():  # pragma: no cover - the name check prevents it
            raise AgreementError(f"{path} would be written outside {directory}")
        if not overwrite and (path.exists() or path.is_symlink()):
            raise AgreementError(f"{path} exists already; choose another name, or pass overwrite=True")
    questions = worksheet_questions(n, seed, kinds, level)
    marks = sum(q.total_marks for q in questions)
    minutes = default_minutes(marks) if minutes is None else check_int("minutes", minutes, 1, 600)
    sheet, answers = worksheet_html(questions, title=title, minutes=minutes)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path, text in ((q_path, sheet), (a_path, answers)):
            if format == "pdf":
                if not overwrite and (path.exists() or path.is_symlink()):
                    raise FileExistsError(path)
                html_to_pdf(text, path)
                continue
            with open(path, "w" if overwrite else "x", encoding="utf-8") as fh:
                fh.write(text)
    except FileExistsError:
        raise AgreementError(f"{path} exists already; choose another name, or pass overwrite=True") from None
    except OSError as err:
        raise AgreementError(f"cannot write the worksheet to {directory}: {err.strerror or err}") from None
    return Worksheet(q_path, a_path, tuple(questions), marks, minutes)
