"""The package's public surface, counted (issue 20).

A public name is one reachable by an import path with no underscored part:
``iaa_teach.metrics.cohen_kappa`` is public, ``iaa_teach.exercises._questions.Part``
is not. Counted here: every name a public module defines at its top level or
lists in ``__all__``, each object once however many modules re-export it; the
old module paths kept for one release (``words``, ``report_files``...) are not
counted, they only forward.

Issue 20's bar is at most 150 such names, each documented on the API page.
:data:`CEILING` is today's count, so the surface cannot grow unnoticed: a new
helper goes in an internal module (a leading underscore) or gets an underscored
name; a name meant for users raises the ceiling in the same commit, with why.

Names that left the surface in this release still import from their old public
module for one release, with a :class:`DeprecationWarning` (``iaa_teach/_moved.py``'s
``forward_names``; CHANGELOG.md lists them); they are not counted.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import warnings
from pathlib import Path

import pytest

import iaa_teach

#: The old module paths that only forward to their new homes (one release, a DeprecationWarning).
FORWARDING = {
    f"iaa_teach.{old}" for old in ("words", "report_files", "formulas", "family", "validation", "reading")
} | {
    f"iaa_teach.widgets.{old}"
    for old in (
        "annotations",
        "coverage",
        "interval",
        "missing",
        "mock_exam",
        "paradox",
        "quiz",
        "table",
        "weights",
    )
}
#: The last count (issue 20 asks for at most 150): 414, then 322 once formulas, family,
#: validation and reading became internal modules, 281 with the widgets' modules, 148 once
#: exercises, widgets, report, plots and markup listed only what lessons and lecturers use.
CEILING = 148


def public_modules() -> dict[str, object]:
    mods = {"iaa_teach": iaa_teach}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for info in pkgutil.walk_packages(iaa_teach.__path__, "iaa_teach."):
            if info.name in FORWARDING or any(part.startswith("_") for part in info.name.split(".")):
                continue
            mods[info.name] = importlib.import_module(info.name)
    return mods


def defined_names(module) -> set[str]:
    """The public names a module's source binds at its top level (defs, classes, assignments)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {n for n in names if not n.startswith("_")}


def public_names() -> dict[object, str]:
    """Each public object once -> the first public path that reaches it."""
    found: dict[object, str] = {}
    for name, module in sorted(public_modules().items()):
        exported = {n for n in getattr(module, "__all__", ()) if not n.startswith("_")}
        for attr in sorted(defined_names(module) | exported):
            obj = getattr(module, attr)
            if inspect.ismodule(obj):
                continue
            key = (
                (attr, repr(obj)) if isinstance(obj, (int, float, str, bytes, bool, type(None))) else id(obj)
            )
            found.setdefault(key, f"{name}.{attr}")
    return found


def test_the_public_surface_does_not_grow():
    names = public_names()
    by_module: dict[str, int] = {}
    for path in names.values():
        module = path.rsplit(".", 1)[0]
        by_module[module] = by_module.get(module, 0) + 1
    print(f"\n{len(names)} public names (issue 20's bar: 150)")
    for module, count in sorted(by_module.items(), key=lambda kv: -kv[1]):
        print(f"  {count:4d} {module}")
    assert len(names) <= CEILING, (
        f"{len(names)} public names, more than the {CEILING} of the last count: make the new helpers "
        "internal (a leading underscore, or an underscored module) or, for a name meant for users, "
        "raise CEILING in the same commit and say why"
    )


def test_the_count_sees_a_new_public_name(monkeypatch):
    """The counter is not blind: a name added to a public module is counted, an underscored one is not."""
    before = len(public_names())
    monkeypatch.setattr(
        iaa_teach.datasets, "__all__", [*iaa_teach.datasets.__all__, "brand_new"], raising=True
    )
    monkeypatch.setattr(iaa_teach.datasets, "brand_new", lambda: None, raising=False)
    assert len(public_names()) == before + 1
    monkeypatch.setattr(iaa_teach.datasets, "__all__", [*iaa_teach.datasets.__all__, "_hidden"], raising=True)
    monkeypatch.setattr(iaa_teach.datasets, "_hidden", lambda: None, raising=False)
    assert len(public_names()) == before + 1


@pytest.mark.parametrize(
    "module, name, home",
    [
        ("iaa_teach.markup", "html_escape", "iaa_teach._markup"),
        ("iaa_teach.report", "FIGURES", "iaa_teach._report"),
        ("iaa_teach.plots", "DPI", "iaa_teach._plots"),
        ("iaa_teach.exercises", "MISTAKES", "iaa_teach.exercises._mistakes"),
        ("iaa_teach.widgets", "IntSlider", "iaa_teach.widgets._controls"),
    ],
)
def test_a_name_that_left_the_surface_still_imports_for_one_release(module, name, home):
    public = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{name} is internal now \({home}\.{name}\)"):
        found = getattr(public, name)
    assert found is getattr(importlib.import_module(home), name)
    assert name not in public.__all__ and name not in defined_names(public)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        public.not_a_name  # noqa: B018


def test_the_package_itself_imports_no_forwarded_name():
    """A module of the package that imports a name through its old public path (``from ..markup import
    mpl_escape``) would warn every user on import: every module imports with DeprecationWarning an error."""
    import subprocess
    import sys

    modules = sorted(
        info.name
        for info in pkgutil.walk_packages(iaa_teach.__path__, "iaa_teach.")
        if info.name not in FORWARDING
    )
    code = "import importlib\nfor m in %r:\n    importlib.import_module(m)\n" % modules
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
