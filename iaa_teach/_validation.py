"""The error type and the option checks that every public function shares.

Options are declared once per public function with :func:`options` (as
scikit-learn's ``validate_params`` does); the body never checks them again.
Every failed check raises :class:`AgreementError` naming the argument, the
value given and the values allowed.

>>> @options(level=("nominal", "ordinal"))
... def f(level="nominal"):
...     return level
>>> f(level="cubic")
Traceback (most recent call last):
...
iaa_teach._validation.AgreementError: level must be one of 'nominal', 'ordinal'; got 'cubic'
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from typing import Any, Callable, Iterable

__all__ = [
    "AgreementError",
    "check_option",
    "check_int",
    "check_share",
    "check_number",
    "check_text",
    "check_bool",
    "check_seed",
    "check_limit",
    "check_max",
    "check_type",
    "options",
    "MAX_CATEGORIES",
    "MAX_PAIRS",
    "MAX_BOOT",
    "MAX_FILE_BYTES",
    "MAX_FIELD_CHARS",
    "LIMITS",
]

# ------------------------------------------------------------------ limits
#: Most distinct labels (categories) a table may have. Tables, weights and
#: coincidence matrices are k x k; beyond a few hundred labels the data are
#: almost surely not categorical ratings (free text, measurements to many decimals).
MAX_CATEGORIES = 200
#: Most rater pairs :func:`~iaa_teach.pairwise_cohen` computes (45 raters make 990).
MAX_PAIRS = 1000
#: Most bootstrap replicates :func:`~iaa_teach.bootstrap_ci` draws.
MAX_BOOT = 100_000
#: Largest ratings file read (bytes; for .xlsx, also the unpacked size).
MAX_FILE_BYTES = 100_000_000
#: Longest cell (label, item id or rater name) in a ratings file, in characters.
MAX_FIELD_CHARS = 100_000

#: Each limit: (default, keyword argument, command-line option).
LIMITS = {
    "categories": (MAX_CATEGORIES, "max_categories", "--max-categories"),
    "rater pairs": (MAX_PAIRS, "max_pairs", "--max-pairs"),
    "bootstrap replicates": (MAX_BOOT, "max_boot", None),
    "file size": (MAX_FILE_BYTES, "max_bytes", "--max-bytes"),
    "field size": (MAX_FIELD_CHARS, "max_field", "--max-field"),
}


class AgreementError(ValueError):
    """Input that no agreement coefficient can be computed from.

    The message names the problem and where it is (row, rater, label or argument).
    ``row`` and ``column`` (0-based, or None) locate a bad cell of a table, so
    that a file reader can name its line and column; ``limit`` names the
    keyword argument of a limit that was exceeded (``"max_pairs"``...).
    """

    def __init__(self, message: str = "", *, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.row = row
        self.column = column
        self.limit: str | None = None


def _same(value: Any, allowed: Any) -> bool:
    if value is allowed:
        return True
    try:
        return type(value) is type(allowed) and bool(value == allowed)
    except Exception:  # arrays, objects whose == does not give a bool
        return False


def check_option(name: str, value: Any, allowed: Iterable[Any]) -> Any:
    """``value`` if it is one of ``allowed``; otherwise an :class:`AgreementError`."""
    allowed = tuple(allowed)
    if any(_same(value, a) for a in allowed):
        return value
    raise AgreementError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")


def check_int(name: str, value: Any, lowest: int | None = None, highest: int | None = None) -> int:
    """``value`` as an int, if it is a whole number (not a bool) within the bounds."""
    if isinstance(value, bool) or not _is_integer(value):
        raise AgreementError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if lowest is not None and value < lowest or highest is not None and value > highest:
        bounds = (
            f"between {lowest} and {highest}"
            if lowest is not None and highest is not None
            else f"at least {lowest}"
            if lowest is not None
            else f"at most {highest}"
        )
        raise AgreementError(f"{name} must be {bounds}, got {value}")
    return value


def check_number(
    name: str,
    value: Any,
    lowest: float | None = None,
    highest: float | None = None,
    *,
    open_low: bool = False,
    open_high: bool = False,
) -> float:
    """``value`` as a finite float within the bounds (open bounds where asked)."""
    if isinstance(value, (bool, str, bytes)):
        raise AgreementError(f"{name} must be a number, got {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise AgreementError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(x):
        raise AgreementError(f"{name} must be a finite number, got {value!r}")
    low_bad = lowest is not None and (x <= lowest if open_low else x < lowest)
    high_bad = highest is not None and (x >= highest if open_high else x > highest)
    if low_bad or high_bad:
        lo = "" if lowest is None else f"{'above' if open_low else 'at least'} {lowest:g}"
        hi = "" if highest is None else f"{'below' if open_high else 'at most'} {highest:g}"
        raise AgreementError(f"{name} must be {' and '.join(p for p in (lo, hi) if p)}, got {value!r}")
    return x


def check_text(name: str, value: Any, none: bool = False) -> str | None:
    """``value`` if it is a string (or None when ``none``)."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        raise AgreementError(f"{name} must be a string{' or None' if none else ''}, got {value!r}")
    return value


def check_bool(name: str, value: Any) -> bool:
    """``value`` if it is True or False."""
    if not isinstance(value, bool):
        raise AgreementError(f"{name} must be True or False, got {value!r}")
    return value


def check_seed(name: str, value: Any) -> Any:
    """A seed for :func:`numpy.random.default_rng`: None, a whole number >= 0, or a Generator."""
    import numpy as np

    if value is None or isinstance(value, np.random.Generator):
        return value
    if isinstance(value, bool) or not _is_integer(value) or int(value) < 0:
        raise AgreementError(
            f"{name} must be None, a whole number >= 0 or a numpy.random.Generator, got {value!r}"
        )
    return int(value)


def check_max(name: str, value: Any) -> int | None:
    """A limit given as an argument: a whole number >= 1, or None for no limit."""
    return None if value is None else check_int(name, value, 1)


def check_limit(
    what: str, value: int, limit: int | None, keyword: str, option: str | None = None, advice: str = ""
) -> None:
    """An :class:`AgreementError` if ``value`` exceeds ``limit``, naming the limit and how to raise it."""
    if limit is None or value <= limit:
        return
    how = f"{keyword}=" + (f" ({option} on the command line)" if option else "")
    err = AgreementError(
        f"{what}: {value:,} is more than the limit of {limit:,}; raise the limit with {how}"
        + (f", or {advice}" if advice else "")
    )
    err.limit = keyword
    raise err


def check_type(function: str, value: Any, kind: type | tuple[type, ...], what: str | None = None) -> Any:
    """``value`` if it is a ``kind`` (a type or a tuple of types, as for :func:`isinstance`).

    Otherwise an :class:`AgreementError` saying what ``function`` takes:
    ``what``, or the type's name after "a" or "an".

    >>> class AlphaResult: pass
    >>> check_type("coincidence_heatmap", 0.5, AlphaResult)
    Traceback (most recent call last):
    ...
    iaa_teach._validation.AgreementError: coincidence_heatmap takes an AlphaResult, got float
    >>> check_type("report", [], (int, float), "a number")
    Traceback (most recent call last):
    ...
    iaa_teach._validation.AgreementError: report takes a number, got list
    """
    if isinstance(value, kind):
        return value
    if what is None:
        name = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        what = ("an " if name[0] in "AEIOUaeiou" else "a ") + name
    raise AgreementError(f"{function} takes {what}, got {type(value).__name__}")


def check_share(name: str, value: Any) -> float:
    """``value`` as a float between 0 and 1 inclusive."""
    return check_number(name, value, 0.0, 1.0)


def _is_integer(value: Any) -> bool:
    try:
        return isinstance(value, numbers.Integral) or (
            hasattr(value, "dtype") and value.dtype.kind in "iu" and getattr(value, "ndim", 1) == 0
        )
    except Exception:  # pragma: no cover
        return False


def options(**allowed: Iterable[Any]) -> Callable:
    """Decorator: check the named arguments of a function against their allowed values.

    ``@options(weights=WEIGHTS, level=LEVELS)`` checks those arguments on
    every call, before the body runs, with :func:`check_option`.
    """
    allowed = {name: tuple(values) for name, values in allowed.items()}

    def decorate(func: Callable) -> Callable:
        params = inspect.signature(func).parameters
        missing = set(allowed) - set(params)
        if missing:  # pragma: no cover - a programming error, caught at import
            raise TypeError(f"{func.__name__} has no argument(s) {sorted(missing)}")
        defaults = {n: params[n].default for n in allowed}

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            given = dict(zip(params, args), **kwargs)  # each argument as the call binds it
            for n, values in allowed.items():
                check_option(n, given.get(n, defaults[n]), values)
            return func(*args, **kwargs)

        wrapper.allowed_options = allowed  # type: ignore[attr-defined]
        return wrapper

    return decorate
