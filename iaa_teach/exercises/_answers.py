"""Reading a student's answer and comparing it with a value.

An answer is a number (int, float, :class:`fractions.Fraction`) or a string:
a decimal (``"0.492"``, ``".49"``, ``"0,492"``), a fraction (``"29/59"``) or a
percentage (``"49.2%"``, read as the decimal 0.492, with two more places than written:
``"81%"`` is 0.81). A decimal written to ``d`` places matches a value
when it is that value rounded to ``d`` places, that is within half a unit of
its last place; more than 3 places are held to the 3-place tolerance, so
``"0.4920"`` matches 0.49153 as ``"0.492"`` does. Fractions and integers match
only exactly. Everything is compared as exact fractions: no float round-off.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from numbers import Rational

from .._markup import approx
from ..ratings import AgreementError

__all__ = ["Answer", "parse_answer", "show_value", "decimals_that_match"]

_FRACTION = re.compile(r"^\s*([+-]?\d+)\s*/\s*(\d+)\s*$")
_DECIMAL = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$")


@dataclass(frozen=True)
class Answer:
    """A parsed answer: its exact value and how many decimals were written.

    ``decimals`` is None for an exact answer (a fraction or an integer).
    """

    value: Fraction
    decimals: int | None
    written: str

    def tolerance(self) -> Fraction:
        """Half a unit of the last place written (3 places at the finest); 0 (exact) below 2 places."""
        if self.decimals is None or self.decimals < 2:
            return Fraction(0)
        return Fraction(1, 2 * 10 ** min(self.decimals, 3))

    def matches(self, target: Fraction) -> bool:
        return abs(self.value - Fraction(target)) <= self.tolerance()


#: The longest answer read (in characters, and in digits before or after the point): an answer
#: of 100,000 digits is refused with a message, not converted (Python limits int() to 4,300 digits).
MAX_ANSWER_CHARS = 100


def parse_answer(answer: object) -> Answer:
    """An :class:`Answer` from what a student typed (or passed as a number).

    Raises
    ------
    AgreementError
        When the answer cannot be read as a number.

    Examples
    --------
    >>> parse_answer("29/59").value, parse_answer("0.49").decimals
    (Fraction(29, 59), 2)
    >>> parse_answer("70%").value, parse_answer("70%").decimals, parse_answer(0.492).decimals
    (Fraction(7, 10), 2, 3)
    """
    if isinstance(answer, bool):
        raise AgreementError(f"an answer must be a number, got {answer!r}")
    if isinstance(answer, Rational):  # int, Fraction
        return Answer(Fraction(answer), None, str(answer))
    if isinstance(answer, float) or (hasattr(answer, "dtype") and getattr(answer, "ndim", 1) == 0):
        x = float(answer)
        if not math.isfinite(x):
            raise AgreementError(f"an answer must be a finite number, got {answer!r}")
        parsed = _decimal(repr(x).replace("e", "E"), str(answer))
        # a float cannot keep trailing zeros (0.300 is 0.3): fewer than 2 places are read as 3
        places = parsed.decimals if parsed.decimals is not None and parsed.decimals >= 2 else 3
        return Answer(parsed.value, places, parsed.written)
    if not isinstance(answer, str):
        raise AgreementError(f"an answer must be a number or a string, got {type(answer).__name__}")
    text = answer.strip().replace("\u2212", "-").replace(" ", "")
    if not text:
        raise AgreementError("the answer is empty")
    if len(text) > MAX_ANSWER_CHARS:
        raise AgreementError(
            f"the answer has {len(text):,} characters; an answer is a number of at most {MAX_ANSWER_CHARS} "
            f"characters, such as 0.492 or 29/59"
        )
    percent = text.endswith("%")
    text = text.removesuffix("%")
    m = _FRACTION.match(text)
    if m:
        num, den = int(m.group(1)), int(m.group(2))
        if den == 0:
            raise AgreementError(f"{answer!r} divides by zero")
        value = Fraction(num, den)
        return Answer(value / 100 if percent else value, None, answer)
    if text.count(",") == 1 and "." not in text:  # a decimal comma: 0,492
        text = text.replace(",", ".")
    if not _DECIMAL.match(text):
        raise AgreementError(
            f"cannot read {answer!r} as a number: write a decimal such as 0.492 or a fraction such as 29/59"
        )
    parsed = _decimal(text, answer)
    if percent:  # a percentage has two more places than the proportion it writes: "81%" is 0.81, 2 places
        return Answer(parsed.value / 100, (parsed.decimals or 0) + 2, answer)
    return parsed


def _decimal(text: str, written: str) -> Answer:
    try:
        d = Decimal(text)
    except InvalidOperation:
        raise AgreementError(f"cannot read {written!r} as a number") from None
    if d.is_finite() and abs(d.adjusted()) > MAX_ANSWER_CHARS:
        raise AgreementError(
            f"{written!r} is a number with more than {MAX_ANSWER_CHARS} digits before or after the point; "
            f"an answer is a number such as 0.492 or 29/59"
        )
    places = max(0, -int(d.as_tuple().exponent))
    value = Fraction(d)
    if places == 0 and "." not in text and "E" not in text.upper():
        return Answer(value, None, written)  # "38": an integer is exact
    return Answer(value, places, written)


def show_value(x: Fraction | None) -> str:
    """``"29/59 ≈ 0.492"``; integers and exact decimals stay short (``"38"``, ``"7/10 = 0.700"``).

    >>> show_value(Fraction(9, 16)), show_value(Fraction(38))
    ('9/16 ≈ 0.563', '38')
    """
    return approx(x).txt


@functools.lru_cache(maxsize=8192)
def decimals_that_match(x: Fraction, places: int = 3) -> tuple[Fraction, ...]:
    """The ``places``-decimal numbers a student could write for ``x`` (1, or 2 at an exact half)."""
    scale = 10**places
    lo = Fraction(math.floor(x * scale), scale)
    tol = Fraction(1, 2 * scale)
    return tuple(c for c in (lo, lo + Fraction(1, scale)) if abs(c - x) <= tol)
