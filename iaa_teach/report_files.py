"""Deprecated path: the report files are made by :mod:`iaa_teach.report` (CHANGELOG.md); this one goes in the next release."""

from ._moved import forward

forward(__name__, "iaa_teach.report")
