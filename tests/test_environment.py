"""The three descriptions of the environment must agree with each other.

pyproject.toml   names the packages with version ranges (the source of truth),
environment.yml  names the same packages for conda, with the same ranges,
constraints.txt  pins every package of the resolved, tested environment exactly.
"""

import re
import sys
from pathlib import Path

import pytest
import yaml  # PyYAML: installed with jupytext (the "notebooks" extra)
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info < (3, 11):
    pytest.skip("reading pyproject.toml needs tomllib (Python 3.11+)", allow_module_level=True)
import tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "iaa-teach"

# PyPI name -> conda-forge name, where they differ.
CONDA_NAMES = {"playwright": "playwright-python"}
# Present in environment.yml for conda's own sake, not in pyproject.toml.
#: conda packages pyproject.toml names another way: python and pip themselves, and Brotli's Python
#: binding, which pip installs as part of the extra ``fonttools[woff]``.
CONDA_ONLY = {"python", "pip", "brotli-python"}


def _diff(left_name, left, right_name, right):
    lines = []
    if left - right:
        lines.append(f"only in {left_name}: {', '.join(sorted(left - right))}")
    if right - left:
        lines.append(f"only in {right_name}: {', '.join(sorted(right - left))}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def pyproject():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


@pytest.fixture(scope="module")
def declared(pyproject):
    """Every requirement of pyproject.toml (runtime and all extras) by canonical name."""
    reqs = {}
    groups = [pyproject.get("dependencies", [])]
    groups += list(pyproject.get("optional-dependencies", {}).values())
    for group in groups:
        for line in group:
            req = Requirement(line)
            name = canonicalize_name(req.name)
            if name == PROJECT:  # self-reference such as iaa-teach[notebooks,test]
                continue
            assert name not in reqs, f"{name} is declared twice in pyproject.toml"
            reqs[name] = req
    return reqs


@pytest.fixture(scope="module")
def conda_env():
    with open(ROOT / "environment.yml", encoding="utf-8") as f:
        return yaml.safe_load(f)


@pytest.fixture(scope="module")
def conda_specs(conda_env):
    """Dependencies as {canonical name: spec string}: conda's, and the pip section's packages.

    A package conda-forge does not carry goes in the ``pip:`` section, with the
    same range; the section's other lines (``-e .``) are not packages.
    """
    specs = {}
    entries = []
    for entry in conda_env["dependencies"]:
        if isinstance(entry, dict):
            entries += [line for line in entry.get("pip", []) if not line.strip().startswith("-")]
        else:
            entries.append(entry)
    for entry in entries:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*?)\s*", entry)
        assert match, f"cannot parse conda dependency {entry!r}"
        name, spec = canonicalize_name(match[1]), match[2]
        assert name not in specs, f"{name} is listed twice in environment.yml"
        specs[name] = spec
    return specs


@pytest.fixture(scope="module")
def pins():
    """constraints.txt as {canonical name: version}."""
    result = {}
    for number, raw in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;=]+)", line)
        assert match, f"constraints.txt:{number}: {raw!r} is not an exact pin name==version"
        result[canonicalize_name(match[1])] = Version(match[2])
    return result


def test_environment_yml_names_the_same_packages_as_pyproject(declared, conda_specs):
    expected = {canonicalize_name(CONDA_NAMES.get(n, n)) for n in declared}
    listed = set(conda_specs) - CONDA_ONLY
    assert listed == expected, _diff("environment.yml", listed, "pyproject.toml", expected)


def test_environment_yml_uses_the_same_ranges_as_pyproject(declared, conda_specs):
    mismatches = []
    for name, req in sorted(declared.items()):
        conda_spec = conda_specs.get(canonicalize_name(CONDA_NAMES.get(name, name)))
        if conda_spec is None:
            continue  # reported by the test above
        if SpecifierSet(conda_spec) != req.specifier:
            mismatches.append(f"{name}: pyproject '{req.specifier}' vs environment.yml '{conda_spec}'")
    assert not mismatches, "\n".join(mismatches)


def test_environment_yml_python_satisfies_requires_python(pyproject, conda_specs):
    spec = conda_specs.get("python", "")
    match = re.fullmatch(r"=(\d+\.\d+)", spec)
    assert match, f"environment.yml should pin python as python=X.Y, found {spec!r}"
    assert Version(match[1]) in SpecifierSet(pyproject["requires-python"])


def test_environment_yml_installs_the_project_with_pip(conda_env):
    pip_sections = [e["pip"] for e in conda_env["dependencies"] if isinstance(e, dict) and "pip" in e]
    assert pip_sections, "environment.yml has no pip: section"
    assert any(line.strip() == "-e ." for section in pip_sections for line in section), pip_sections


def test_dev_extra_pulls_in_every_other_extra(pyproject):
    extras = pyproject["optional-dependencies"]
    pulled = set()
    for line in extras["dev"]:
        req = Requirement(line)
        assert canonicalize_name(req.name) == PROJECT, f"dev should only combine extras, found {line!r}"
        pulled |= req.extras
    assert pulled == set(extras) - {"dev"}, _diff("dev", pulled, "extras", set(extras) - {"dev"})


def test_constraints_pin_every_declared_package(declared, pins):
    missing = set(declared) - set(pins)
    assert not missing, f"not pinned in constraints.txt: {', '.join(sorted(missing))}"


def test_constraints_pins_are_inside_the_declared_ranges(declared, pins):
    outside = [
        f"{name}=={pins[name]} is outside '{req.specifier}'"
        for name, req in sorted(declared.items())
        if name in pins and not req.specifier.contains(pins[name], prereleases=True)
    ]
    assert not outside, "\n".join(outside)


def test_constraints_do_not_pin_the_project_itself(pins):
    assert PROJECT not in pins, "constraints.txt pins iaa-teach; use `pip freeze --exclude-editable`"
