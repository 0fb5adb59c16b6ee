"""Rounding as a student does it, written independently of the package (for expected strings)."""

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


def d3(q) -> str:
    """Three decimals of an exact value, halves away from zero (how the texts and a student round)."""
    q = Fraction(q)
    return str(
        (Decimal(q.numerator) / Decimal(q.denominator)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    )
