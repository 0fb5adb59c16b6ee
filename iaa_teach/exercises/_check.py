"""The lessons' exercise checker: right or not yet, and which step to look at, never the answer.

A lesson asks for a number (or a line of code that computes one), the
student writes it in place of ``...`` and runs the check::

    answer = 7/10                       # or "7/10", "0.700", 0.7
    check_number(answer, result.exact.p_o, name="P_o", step="Step 2")

The answer is read as the exam checker reads it
(``parse_answer``). The feedback shows the student's
own answer and never the expected one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .._markup import SYMBOLS, with_symbols
from ..ratings import AgreementError
from ..rounding import exact_value, fmt, round_half_up
from ._answers import Answer, parse_answer

__all__ = ["Check", "check_number"]

_PLACES = 3
_HEADS = {
    "right": "Right.",
    "not yet": "Not yet.",
    "empty": "Not answered yet.",
    "unreadable": "Cannot read that.",
}


@dataclass(frozen=True)
class Check:
    """What :func:`check_number` says: ``status`` is ``"right"``, ``"not yet"``, ``"empty"`` or
    ``"unreadable"``.

    ``message`` is the sentence shown; ``correct`` is True only for "right".
    Displays as Markdown in a notebook (``**Right.** ...``).
    """

    status: str
    message: str

    def __post_init__(self):
        object.__setattr__(self, "message", _sentence(self.message))

    @property
    def correct(self) -> bool:
        return self.status == "right"

    def __bool__(self) -> bool:
        return self.correct

    def _repr_markdown_(self) -> str:
        # symbols (P_o, n_i) as maths, the rest escaped: the student's own text cannot become markup
        return f"**{_HEADS[self.status]}** {with_symbols(self.message).markdown()}\n"

    def __repr__(self) -> str:
        return f"{_HEADS[self.status]} {self.message}"


_WRITTEN_SYMBOLS = frozenset(symbol.txt for symbol in SYMBOLS.values())


def _sentence(message: str) -> str:
    """``message`` as a sentence: a capital first letter, unless it starts with a symbol (``p_j``, ``n``) or
    a number, and a full stop at the end."""
    first = message.split(" ", 1)[0]
    if first[:1].islower() and first not in _WRITTEN_SYMBOLS and "_" not in first:
        message = message[0].upper() + message[1:]
    return message if message.endswith((".", "?", "!")) else message + "."


#: significant digits a computed number is shown to (at least the places the exercise asks for): enough
#: that a value the checker turns down never looks like the rounded answer
_DIGITS = 4


def _written(answer: Any, parsed: Answer, places: int) -> str:
    """The student's answer as the feedback shows it: as they wrote it, or, for a value their code
    computed (a float such as 0.014118832469357925), rounded half up (``fmt``) to ``places`` decimals or
    :data:`_DIGITS` significant digits, whichever shows more (0.01412)."""
    if isinstance(answer, str) or parsed.decimals is None:
        return parsed.written
    size, exponent = abs(parsed.value), 0  # size = m x 10^exponent with 1 <= m < 10
    if size >= 1:
        exponent = len(str(int(size))) - 1
    elif size:
        while size * 10 ** (1 - exponent) < 10 and exponent > -100:
            exponent -= 1
    shown = min(max(places, _DIGITS - 1 - exponent), 100)
    return parsed.written if parsed.decimals <= shown else fmt(parsed.value, shown)


def _one(answer: Any, expected: Any, places: int = _PLACES) -> tuple[str, Any]:
    """("right" | "not yet" | "few places" | "unreadable", parsed or message) for one number.

    A decimal is right when it is within half a unit of the ``places``-th
    decimal of the exact value (more places written are fine); fewer places
    that round the same are "few places"; a fraction must be exact.
    """
    try:
        parsed = parse_answer(answer)
    except AgreementError as exc:
        return "unreadable", str(exc)
    target = exact_value(expected)
    decimals = parsed.decimals
    if decimals is not None and decimals >= places > _PLACES:  # finer than Answer.matches goes
        close = abs(parsed.value - target) <= Fraction(1, 2 * 10**places)
    else:
        close = parsed.matches(target)  # half a unit of the last place written, 3 places at the finest
    rounded_differs = round_half_up(target, places) != target and parsed.value != target
    if close:
        few = decimals is not None and decimals < places and rounded_differs
        return ("few places" if few else "right"), parsed
    if (
        decimals is not None
        and 2 <= decimals < places
        and rounded_differs
        and abs(parsed.value - target) <= Fraction(1, 2 * 10**decimals)
    ):
        return "few places", parsed
    return "not yet", parsed


def check_number(
    answer: Any,
    expected: Any,
    *,
    name: str,
    step: str,
    mistakes: Mapping[str, Any] | None = None,
    labels: Sequence[Any] | None = None,
    places: int = _PLACES,
) -> Check:
    """Check a student's number (or list of numbers) against the expected value, without revealing it.

    Parameters
    ----------
    answer : number, str, sequence or ``...``
        What the student wrote: ``0.492``, ``"29/59"``, ``"49.2%"``, a value
        their code computed, or a list of such (one per item, category...).
        ``...`` (or None) means not answered yet.
    expected : number or sequence
        The right value(s), exact (:class:`fractions.Fraction`) where possible.
    name : str
        What is asked for, as the student reads it (``"P_o"``).
    step : str
        Where to look again when the answer is off (``"Step 2: observed agreement"``).
    mistakes : mapping of str to number, optional
        Known wrong values and what each one means ("you divided by the number
        of ratings, not of items"): an answer equal to one gets that sentence.
    labels : sequence, optional
        For a list: the name of each position (item numbers...), used to say
        which entries are off.
    places : int
        Decimals a decimal answer needs (3 unless a known mistake differs from
        the answer only in the fourth); an exact fraction is always accepted.

    Returns
    -------
    Check
        ``.correct``, ``.status``, ``.message``; displays as Markdown.

    Examples
    --------
    >>> from fractions import Fraction
    >>> check_number("7/10", Fraction(7, 10), name="P_o", step="Step 2")
    Right. P_o = 7/10.
    >>> check_number(0.65, Fraction(7, 10), name="P_o", step="Step 2")
    Not yet. 0.65 is not P_o. Look again at Step 2.
    >>> check_number(..., Fraction(7, 10), name="P_o", step="Step 2")
    Not answered yet. Replace ... with your value of P_o and run the cell again.
    """
    if answer is ... or answer is None:
        return Check("empty", f"Replace ... with your value of {name} and run the cell again.")
    if isinstance(expected, (list, tuple)) or (
        hasattr(expected, "shape") and getattr(expected, "ndim", 0) == 1
    ):
        return _check_list(answer, list(expected), name, step, labels, places)
    status, parsed = _one(answer, expected, places)
    if status == "unreadable":
        return Check("unreadable", parsed)
    written = _written(answer, parsed, places)
    if status == "right":
        return Check("right", f"{name} = {written}.")
    if status == "few places":
        return Check(
            "not yet",
            f"{written} is close: give {name} to {places} decimals, or as an exact "
            f"fraction, so that a wrong method cannot hide in the rounding.",
        )
    for meaning, value in (mistakes or {}).items():
        if (
            value is not None
            and _one(answer, value, places)[0] == "right"
            and exact_value(value) != exact_value(expected)
        ):
            return Check("not yet", f"{written} is what you get when {meaning}. Look again at {step}.")
    if _as_percent(answer, expected, places):
        return Check(
            "not yet",
            f"{written} looks like a percentage: add the % sign, or write {name} on the scale of 1, not 100.",
        )
    return Check("not yet", f"{written} is not {name}. Look again at {step}.")


def _as_percent(answer: Any, expected: Any, places: int) -> bool:
    """True when ``answer``, read as a percentage (a % sign added), is right: 70 for 7/10. Only for an
    expected value strictly between -1 and 1 that is not 0, and an answer written without a % sign."""
    target = exact_value(expected)
    if not 0 < abs(target) < 1 or (isinstance(answer, str) and answer.strip().endswith("%")):
        return False
    if isinstance(answer, float) or hasattr(answer, "dtype"):
        answer = repr(float(answer))
    if isinstance(answer, (int, Fraction)) and not isinstance(answer, bool):
        answer = str(answer)
    if not isinstance(answer, str) or "/" in answer:
        return False
    return _one(answer.strip() + "%", expected, places)[0] == "right"


def _check_list(
    answer: Any, expected: list, name: str, step: str, labels: Sequence[Any] | None, places: int = _PLACES
) -> Check:
    try:
        if isinstance(answer, (str, bytes)):  # "1/3" is one number, not the list ["1", "/", "3"]
            raise TypeError
        given = list(answer)
    except TypeError:
        return Check(
            "unreadable",
            f"{name} is a list of {len(expected)} numbers: write them in [ ], separated by commas.",
        )
    if len(given) != len(expected):
        return Check("not yet", f"{name} has {len(expected)} values; your list has {len(given)}.")
    names = [str(x) for x in (labels if labels is not None else range(1, len(expected) + 1))]
    statuses = [_one(a, e, places)[0] for a, e in zip(given, expected)]
    unreadable = [label for label, status in zip(names, statuses) if status == "unreadable"]
    off = [label for label, status in zip(names, statuses) if status not in ("right", "unreadable")]
    if unreadable:
        return Check("unreadable", f"cannot read the value(s) at {', '.join(unreadable)} as numbers.")
    if off:
        return Check(
            "not yet",
            f"{len(off)} of the {len(expected)} values of {name} are off "
            f"(at {', '.join(off)}). Look again at {step}.",
        )
    return Check("right", f"all {len(expected)} values of {name}.")
