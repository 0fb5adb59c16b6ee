"""Deprecated module path: the report files are now written by :mod:`iaa_teach.report`.

``from iaa_teach import report_files`` keeps working for one release, with a
:class:`DeprecationWarning`; write ``from iaa_teach import report`` (see CHANGELOG.md).
"""

import warnings

from .report import *  # noqa: F403
from .report import __all__  # noqa: F401

warnings.warn(
    "iaa_teach.report_files is now iaa_teach.report; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
