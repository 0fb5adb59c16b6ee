"""Deprecated path: file reading is internal now, :mod:`iaa_teach._reading` (use Ratings.from_file) (CHANGELOG.md); this one goes in the next release."""

from ._moved import forward

forward(__name__, "iaa_teach._reading")
