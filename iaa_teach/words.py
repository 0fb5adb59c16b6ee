"""Deprecated module path: the worked solutions are now :mod:`iaa_teach.worked`.

``from iaa_teach.words import explain`` keeps working for one release, with a
:class:`DeprecationWarning`; write ``from iaa_teach.worked import ...`` (see CHANGELOG.md).
"""

import warnings

from .worked import *  # noqa: F403
from .worked import __all__  # noqa: F401

warnings.warn(
    "iaa_teach.words is now iaa_teach.worked; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
