"""The house's doors: modules use each other's public names only, and each formula is written once.

1. No module reaches into another module's underscored names: an attribute
   ``x._name`` where ``x`` is not ``self`` or ``cls`` is allowed only when
   ``_name`` is defined in the same module (a method reading another instance
   of its own class); ``from .mod import _name`` is never allowed (but
   ``from . import _module`` or ``from ..sub import _module``, an internal
   module of the package, is). Dunder
   names and IPython's display protocol (``_repr_*_``, ``_ipython_*_``) are
   public.
2. Only ``iaa_teach._markup`` calls ``html.escape``: every other module
   escapes through its ``html_escape`` (text) and ``attr_escape`` (attributes).
3. One formula path: patching one formula in :mod:`iaa_teach._formulas`
   changes the float value, ``.exact`` and the bootstrap together.
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import numpy as np
import pytest

import iaa_teach
from iaa_teach import _formulas as formulas
from iaa_teach import bootstrap_ci, cohen_kappa, datasets, fleiss_kappa, krippendorff_alpha

PACKAGE = Path(iaa_teach.__file__).parent
PUBLIC_PROTOCOL = re.compile(r"^(__\w+__|_repr_\w+_|_ipython_\w+_)$")


def _defined_private_names(tree: ast.AST) -> set[str]:
    """Underscored names a module defines: functions, classes, assignments, self._x, __slots__."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_"):
            names.add(node.value)  # __slots__ entries, dataclass fields by name
    return {n for n in names if n.startswith("_")}


def _package_of(path: Path, node: ast.ImportFrom) -> Path:
    """The folder a relative ``from ... import`` in ``path`` imports from."""
    folder = path.parent
    for _ in range(node.level - 1):
        folder = folder.parent
    return folder.joinpath(*node.module.split(".")) if node.module else folder


def windows(path: Path) -> list[str]:
    """Every place in ``path`` that uses another module's underscored name."""
    tree = ast.parse(path.read_text(), str(path))
    own = _defined_private_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                # `from . import _formulas`, `from ..exercises import _questions`: a module internal to
                # the package, not a name
                internal_module = node.level and (_package_of(path, node) / f"{alias.name}.py").exists()
                if (
                    alias.name.startswith("_")
                    and not PUBLIC_PROTOCOL.match(alias.name)
                    and not internal_module
                ):
                    found.append(
                        f"{path.name}:{node.lineno} from {'.' * node.level}{node.module or ''} "
                        f"import {alias.name}"
                    )
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if PUBLIC_PROTOCOL.match(node.attr):
                continue
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                continue
            if node.attr in own:
                continue
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_module_reaches_into_another_modules_underscored_names():
    found = [w for path in sorted(PACKAGE.rglob("*.py")) for w in windows(path)]
    assert found == []


def test_the_window_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from .ratings import _plain\n\ndef f(r):\n    return r._codes, self_like._x\n")
    found = windows_at(bad)
    assert len(found) == 3
    # an internal module of a sibling subpackage may be imported; a name from it may not
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "_mod.py").write_text("")
    (tmp_path / "w").mkdir()
    near = tmp_path / "w" / "near.py"
    near.write_text("from ..sub import _mod\nfrom ..sub import _nope\nfrom ..sub._mod import _name\n")
    assert [w.split(" ", 1)[1] for w in windows_at(near)] == [
        "from ..sub import _nope",
        "from ..sub._mod import _name",
    ]


def windows_at(path: Path) -> list[str]:
    global PACKAGE
    saved, PACKAGE = PACKAGE, path.parent
    try:
        return windows(path)
    finally:
        PACKAGE = saved


def own_escapes(source: str) -> list[int]:
    """Lines of ``source`` that call the standard library's ``html.escape`` (or import it) themselves."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and node.attr == "escape"
        and isinstance(node.value, ast.Name)
        and node.value.id == "html"
        or isinstance(node, ast.ImportFrom)
        and node.module == "html"
        and any(a.name == "escape" for a in node.names)
    )


def test_only_markup_escapes_html():
    """Text and attributes are escaped through markup (``html_escape``, ``attr_escape``), not by hand."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "_markup.py"
        for line in own_escapes(path.read_text())
    ]
    assert found == []
    assert own_escapes(
        "import html\nx = html.escape(s)\nfrom html import escape\ny = html.unescape(s)\n"
    ) == [2, 3]


# ================================================= each formula once
def _all_three(metric, ratings, name, **kwargs):
    res = metric(ratings, **kwargs)
    boot = bootstrap_ci(metric, ratings, n_boot=30, seed=0, **kwargs)
    return float(res), getattr(res.exact, name), boot.samples.copy()


@pytest.mark.parametrize(
    "metric, name, formula, broken",
    [
        # alpha's D_e from twice the expected coincidences
        (krippendorff_alpha, "alpha", "expected_coincidences", lambda real: lambda n_c, n: real(n_c, n) * 2),
        # Fleiss' chance term without the squares
        (
            fleiss_kappa,
            "kappa",
            "fleiss_agreement",
            lambda real: (
                lambda terms, chance, *weights: (lambda p_a, p_j, p_e: (p_a, p_j, p_e * p_e))(
                    *real(terms, chance, *weights)
                )
            ),
        ),
        # Cohen's observed agreement off by a factor
        (
            cohen_kappa,
            "kappa",
            "cohen_agreement",
            lambda real: (
                lambda tables, agreement: (lambda p_o, p_e: (p_o * 9 / 10, p_e))(*real(tables, agreement))
            ),
        ),
    ],
)
def test_one_patched_formula_changes_float_exact_and_bootstrap_together(
    monkeypatch, metric, name, formula, broken
):
    r = datasets.sentiment_missing()
    value, exact, samples = _all_three(metric, r, name)
    assert math.isclose(value, float(exact), abs_tol=1e-12)
    monkeypatch.setattr(formulas, formula, broken(getattr(formulas, formula)))
    new_value, new_exact, new_samples = _all_three(metric, r, name)
    assert not math.isclose(new_value, value, abs_tol=1e-6)
    assert new_exact != exact and math.isclose(new_value, float(new_exact), abs_tol=1e-12)
    changed = ~np.isclose(new_samples, samples, equal_nan=True)
    assert changed.mean() > 0.5


def test_leave_one_rater_out_alpha_is_the_one_alpha_rule(monkeypatch):
    """The diagnosis' alpha without each rater goes through formulas.alpha_coefficient, as the metric does:
    patching that one rule moves the float and the exact leave-one-out values with the metric's own."""
    from iaa_teach import diagnose

    r = datasets.sentiment_missing()
    report = diagnose(r)
    before = (report.alpha_without, report.exact.alpha_without)  # computed now, before the patch
    real = formulas.alpha_coefficient
    monkeypatch.setattr(
        formulas,
        "alpha_coefficient",
        lambda *args, **kwargs: (lambda alpha, *rest: (alpha * 0.5, *rest))(*real(*args, **kwargs)),
    )
    after = diagnose(r)
    for j, name in enumerate(r.raters):
        assert math.isclose(after.alpha_without[j], before[0][j] * 0.5, abs_tol=1e-12)
        assert after.exact.alpha_without[j] == before[1][j] * 0.5
        assert math.isclose(after.alpha_without[j], after.alpha_without_rater(name).alpha, abs_tol=1e-12)
