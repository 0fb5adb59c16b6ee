"""One rounding rule for every number the package shows: half up, from the exact value.

A student rounds 9/16 = 0.5625 to 0.563. Python's float formatting rounds
half to even on the binary value and prints 0.562, so nothing here formats a
coefficient with ``f"{x:.3f}"``: every place that shows a number (``explain``,
the CLI report, plots' labels, widget readouts, the quiz and the exercises,
the notebooks) goes through :func:`fmt`, and result objects support the
format spec with the same rule (``f"{res:.3f}"``).

An exact value is a :class:`fractions.Fraction` (the ``.exact`` values of a
result) or an int; a float is taken at its exact binary value. ``None`` and
NaN are undefined.

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

__all__ = ["exact_value", "round_half_up", "fmt", "format_number", "UNDEFINED"]

#: How an undefined value (None or NaN) reads wherever a number is shown.
UNDEFINED = "undefined"

# [[fill]align][sign][z][#][0][width][grouping][.precision][type], as in the format mini-language
_SPEC = re.compile(r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?(?P<zero>0)?"
                   r"(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?(?P<type>[a-zA-Z%])?$", re.S)


def exact_value(x: Any) -> Fraction | None:
    """``x`` as an exact fraction; None where it is undefined (None or NaN).

    Floats (and numpy floats) are taken at their exact binary value; ints,
    Fractions, Decimals and numpy integers exactly.

    >>> exact_value(0.5), exact_value(None), exact_value(3)
    (Fraction(1, 2), None, Fraction(3, 1))
    """
    if x is None:
        return None
    if isinstance(x, Rational):
        return Fraction(x)
    if isinstance(x, Decimal):
        return None if x.is_nan() else Fraction(x)
    f = float(x)
    if math.isnan(f):
        return None
    if math.isinf(f):
        raise OverflowError(f"{x!r} is infinite and has no exact value")
    if hasattr(x, "dtype") and getattr(x.dtype, "kind", "f") in "iub":
        return Fraction(int(x))
    return Fraction(f)


def round_half_up(x: Any, places: int = 3) -> Fraction:
    """``x`` rounded to ``places`` decimals, halves away from zero (as by hand), exactly.

    >>> round_half_up(Fraction(1, 8), 2), round_half_up(Fraction(-1, 8), 2)
    (Fraction(13, 100), Fraction(-13, 100))
    """
    q = exact_value(x)
    if q is None:
        raise ValueError("an undefined value (None or NaN) cannot be rounded")
    scale = 10 ** places
    whole = math.floor(abs(q) * scale + Fraction(1, 2))
    return Fraction(-whole if q < 0 else whole, scale)


def _digits(q: Fraction, places: int) -> str:
    """|q| rounded half up to ``places`` decimals, as a digit string with a point."""
    whole = math.floor(abs(q) * 10 ** places + Fraction(1, 2))
    digits = str(whole).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}" if places else digits


def fmt(x: Any, places: int = 3, undefined: str = UNDEFINED) -> str:
    """``x`` to ``places`` decimals, rounded half up from its exact value.

    ``undefined`` (default ``"undefined"``) stands for None or NaN. A value
    that rounds to zero is written without a minus sign.
    """
    q = exact_value(x)
    if q is None:
        return undefined
    body = _digits(q, places)
    negative = q < 0 and body.strip("0.") != ""
    return ("-" if negative else "") + body


def format_number(x: Any, spec: str) -> str:
    """``format(x, spec)``, with the ``f``, ``F`` and ``%`` types rounded half up from the exact value.

    Fill, alignment, sign, zero padding, width and grouping work as for
    floats; other presentation types (``e``, ``g``, none) are passed to
    :func:`format` on ``float(x)``. Undefined values format as ``nan``.
    """
    m = _SPEC.match(spec)
    kind = m.group("type") if m else None
    if not m or kind not in ("f", "F", "%") or m.group("alt"):
        return format(float("nan") if exact_value(x) is None else float(x), spec)
    q = exact_value(x)
    places = 6 if m.group("precision") is None else int(m.group("precision"))
    if q is None:
        body, negative = ("NAN" if kind == "F" else "nan"), False
    else:
        body = _digits(q * 100 if kind == "%" else q, places)
        negative = q < 0 and (body.strip("0.") != "" or not m.group("z"))
        if m.group("grouping"):
            whole, _, frac = body.partition(".")
            whole = format(int(whole), m.group("grouping"))
            body = whole + ("." + frac if frac else "")
    if kind == "%":
        body += "%"
    sign = "-" if negative else {"+": "+", " ": " "}.get(m.group("sign") or "-", "")
    width = int(m.group("width") or 0)
    fill, align = m.group("fill") or " ", m.group("align")
    if m.group("zero") and not align:
        fill, align = "0", "="
    align = align or ">"
    pad = max(0, width - len(sign) - len(body))
    if align == "=":
        return sign + fill * pad + body
    text = sign + body
    if align == "<":
        return text + fill * pad
    if align == "^":
        return fill * (pad // 2) + text + fill * (pad - pad // 2)
    return fill * pad + text
