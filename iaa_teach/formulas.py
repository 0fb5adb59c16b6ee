"""Deprecated path: the formulas are internal now, :mod:`iaa_teach._formulas` (CHANGELOG.md); this one goes in the next release."""

from ._moved import forward

forward(__name__, "iaa_teach._formulas")
