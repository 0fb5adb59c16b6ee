"""One rounding rule for every number the package shows: half up, from the exact value.

A student rounds 9/16 = 0.5625 to 0.563. Python's float formatting rounds
half to even on the binary value and prints 0.562, so nothing here formats a
coefficient with ``f"{x:.3f}"``: every place that shows a number (``explain``,
the CLI report, plots' labels, widget readouts, the quiz and the exercises,
the notebooks) goes through :func:`fmt`, and result objects support the
format spec with the same rule (``f"{res:.3f}"``).

An exact value is a :class:`fractions.Fraction` (the ``.exact`` values of a
result) or an int; a float is taken at its exact binary value, and a result
object (anything with ``exact_value``) at its coefficient's exact value.
``None`` and NaN are undefined.

>>> from fractions import Fraction
>>> fmt(Fraction(9, 16)), f"{0.5625:.3f}"
('0.563', '0.562')
>>> fmt(Fraction(-1, 8), 2), fmt(None), fmt(float("nan"))
('-0.13', 'undefined', 'undefined')
>>> format_number(Fraction(9, 16), "+8.2%")
' +56.25%'
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any

from ._validation import AgreementError, check_int

__all__ = ["exact_value", "round_half_up", "fmt", "format_number", "_UNDEFINED"]

#: How an undefined value (None or NaN) reads wherever a number is shown.
_UNDEFINED = "undefined"

# the end of a format spec: [.precision][type]
_TAIL = re.compile(r"(?:\.(?P<precision>\d+))?(?P<type>[a-zA-Z%])?$")


def exact_value(x: Any) -> Fraction | None:
    """``x`` as an exact fraction; None where it is undefined (None or NaN).

    Floats (and numpy floats) are taken at their exact binary value; ints,
    Fractions, Decimals and numpy integers exactly.

    >>> exact_value(0.5), exact_value(None), exact_value(3)
    (Fraction(1, 2), None, Fraction(3, 1))
    """
    if x is None:
        return None
    if hasattr(x, "exact_value"):  # a result object: its coefficient
        return exact_value(x.exact_value)
    if isinstance(x, Rational):
        return Fraction(x)
    if isinstance(x, Decimal):
        if x.is_infinite():
            raise AgreementError(f"{x!r} is infinite and has no exact value")
        return None if x.is_nan() else Fraction(x)
    if isinstance(x, (str, bytes)):
        raise AgreementError(f"expected a number, got {x!r}")
    try:
        f = float(x)
    except (TypeError, ValueError, OverflowError):
        raise AgreementError(f"expected a number, got {x!r}") from None
    if math.isnan(f):
        return None
    if math.isinf(f):
        raise AgreementError(f"{x!r} is infinite and has no exact value")
    if hasattr(x, "dtype") and getattr(x.dtype, "kind", "f") in "iub":
        return Fraction(int(x))
    return Fraction(f)


def round_half_up(x: Any, places: int = 3) -> Fraction:
    """``x`` rounded to ``places`` decimals, halves away from zero (as by hand), exactly.

    >>> round_half_up(Fraction(1, 8), 2), round_half_up(Fraction(-1, 8), 2)
    (Fraction(13, 100), Fraction(-13, 100))
    """
    places = check_int("places", places, 0)
    q = exact_value(x)
    if q is None:
        raise AgreementError("an undefined value (None or NaN) cannot be rounded")
    return Fraction(_digits(q, places))


def _digits(q: Fraction, places: int) -> str:
    """q rounded half up to ``places`` decimals, as a decimal string (``-0.563``; ``-0.000`` keeps its sign)."""
    whole = math.floor(abs(q) * 10**places + Fraction(1, 2))
    digits = str(whole).rjust(places + 1, "0")
    return ("-" if q < 0 else "") + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)


def fmt(x: Any, places: int = 3, undefined: str = _UNDEFINED) -> str:
    """``x`` to ``places`` decimals, rounded half up from its exact value.

    ``undefined`` (default ``"undefined"``) stands for None or NaN. A value
    that rounds to zero is written without a minus sign.
    """
    places = check_int("places", places, 0, 100)
    q = exact_value(x)
    if q is None:
        return undefined
    body = _digits(q, places)
    return body if body.strip("-0.") else body.lstrip("-")


def format_number(x: Any, spec: str) -> str:
    """``format(x, spec)``, with the ``f``, ``F`` and ``%`` types rounded half up from the exact value.

    The value is rounded half up to the spec's precision first, then written
    by :class:`decimal.Decimal`'s own formatting (fill, alignment, sign,
    width, grouping), which then has nothing left to round. Other
    presentation types (``e``, ``g``, none) and undefined values format as
    ``float(x)`` would.
    """
    q = exact_value(x)
    tail = _TAIL.search(spec)
    if q is None or tail.group("type") not in ("f", "F", "%"):
        return format(float("nan") if q is None else float(x), spec)
    places = int(tail.group("precision") or 6)
    scale = 100 if tail.group("type") == "%" else 1
    digits = _digits(q * scale, places)
    try:
        return format(Decimal(digits).scaleb(-2 if scale == 100 else 0), spec)
    except ValueError:  # a spec Decimal does not take (e.g. "_" grouping): Python's float formatting
        return format(float(Decimal(digits)) / scale, spec)
