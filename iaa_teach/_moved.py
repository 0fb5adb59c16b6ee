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


def forward_names(module: str, homes: dict[str, str]):
    """A module ``__getattr__`` for names that left ``module``'s public surface (``{name: new module}``).

    ``from iaa_teach.markup import html_escape`` still works for one release, with a warning; the
    name is no longer public (it is neither defined in ``module`` nor listed in its ``__all__``).
    """

    def __getattr__(name: str):
        if name not in homes:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is internal now ({homes[name]}.{name}); the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(homes[name]), name)

    return __getattr__
