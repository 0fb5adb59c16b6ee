"""Deprecated path: this widget module is internal now, :mod:`iaa_teach.widgets._mock_exam` (CHANGELOG.md)."""

from .._moved import forward

forward(__name__, "iaa_teach.widgets._mock_exam")
