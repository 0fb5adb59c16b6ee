"""Old module paths that still import for one release, each with a :class:`DeprecationWarning`.

Each old path is a three-line module that calls :func:`forward`; CHANGELOG.md
lists them and their new homes.
"""

import importlib
import sys
import warnings


def forward(old: str, new: str) -> None:
    """Make ``old`` (the module being imported) the module ``new`` itself, and warn."""
    warnings.warn(
        f"{old} is now {new}; the old name goes in the next release", DeprecationWarning, stacklevel=3
    )
    # the import system returns what sys.modules holds once the old module has run: the new module
    sys.modules[old] = importlib.import_module(new)
