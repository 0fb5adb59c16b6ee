"""Deprecated path: the worked solutions are now :mod:`iaa_teach.worked` (CHANGELOG.md); this one goes in the next release."""

from ._moved import forward

forward(__name__, "iaa_teach.worked")
