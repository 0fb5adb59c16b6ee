"""The book's user guide and API reference pages (tools/book.py), without Sphinx.

Issue 20: every public name (tests/test_public_api.py counts them) is documented on the
API pages, which are generated from the public modules' ``__all__`` lists, one page a
topic; the guide (docs/*.md) is in the book as pages. The built pages are checked in
tests/test_browser_book.py.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from test_public_api import public_names

from tools import book

ROOT = Path(__file__).resolve().parents[1]
_DIRECTIVE = re.compile(r"^\.\. (?:autofunction|autoclass|py:data):: (iaa_teach[\w.]*)$", re.M)


def resolve(path: str):
    module, _, attr = path.rpartition(".")
    return getattr(importlib.import_module(module), attr)


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> tuple[list[str], Path]:
    target = tmp_path_factory.mktemp("book-src")
    return book.write_sources(ROOT / "notebooks", target), target


def documented(target: Path) -> dict[str, str]:
    """Each documented path -> the API page it is on."""
    found = {}
    for page in book.API_TOPICS:
        for path in _DIRECTIVE.findall((target / f"{page}.rst").read_text(encoding="utf-8")):
            assert path not in found, f"{path} documented twice"
            found[path] = page
    return found


def test_every_public_name_is_on_an_api_page(sources):
    _, target = sources
    on_pages = {(id(resolve(path)), path.rsplit(".", 1)[1]) for path in documented(target)}
    missing = [
        path
        for path in public_names().values()
        if (id(resolve(path)), path.rsplit(".", 1)[1]) not in on_pages
    ]
    assert missing == [], f"{len(missing)} public names on no API page: {missing[:20]}"


def test_each_topic_is_one_page_and_lists_only_public_names(sources):
    order, target = sources
    pages = documented(target)
    assert [p for p in order if p.startswith("api-")] == list(book.API_TOPICS)
    assert set(pages.values()) == set(book.API_TOPICS)  # no topic page is empty
    for path in pages:
        assert not any(part.startswith("_") for part in path.split(".")), path  # shown by a public path
    # a function of the coefficients' module is on the coefficients' page, a figure on words and pictures
    assert pages["iaa_teach.cohen_kappa"] == "api-coefficients"
    assert pages["iaa_teach.plots.family_chart"] == "api-words"
    assert pages["iaa_teach.Ratings"] == "api-data"


def test_a_name_from_a_module_no_topic_holds_fails_the_build(monkeypatch):
    topics = {
        k: (t, a, tuple(m for m in mods if m != "iaa_teach.plots"))
        for k, (t, a, mods) in book.API_TOPICS.items()
    }
    monkeypatch.setattr(book, "API_TOPICS", topics)
    with pytest.raises(ValueError, match=r"iaa_teach\.plots\.\w+ .*belongs to no page"):
        book.api_names()


def test_a_constant_is_described_by_its_own_comment_not_its_types_docstring(sources):
    _, target = sources
    text = (target / "api-coefficients.rst").read_text(encoding="utf-8")
    entry = re.search(r"^\.\. py:data:: iaa_teach\.BANDS\n\n((?:   .*\n|\n)+)", text, re.M)
    assert entry and "Landis" in entry[1] and "dict()" not in text


def test_the_user_guide_is_in_the_book_in_order(sources):
    order, target = sources
    guide = [p for p in order if p.startswith("guide-")]
    assert guide == [f"guide-{name}" for name in book.GUIDE]
    assert sorted(book.GUIDE) == sorted(p.stem for p in (ROOT / "docs").glob("*.md"))  # every guide page
    for name in book.GUIDE:
        assert (target / f"guide-{name}.md").read_text(encoding="utf-8") == book.guide_page(
            (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
        )
    assert book.guide_page("see [setup](setup.md#tests)") == "see [setup](guide-setup.md#tests)"


def test_every_constant_on_the_api_pages_says_what_it_is(sources):
    # a constant's entry is its ``#:`` comment: without one, the page showed the bare name (LEVELS,
    # SENTIMENT_CATEGORIES, SOLUTION_TAG had none)
    _, target = sources
    bare = []
    for page in book.API_TOPICS:
        text = (target / f"{page}.rst").read_text(encoding="utf-8")
        for entry in re.finditer(r"^\.\. py:data:: (\S+)\n\n((?:   .*\n)*)", text, re.M):
            if len(entry[2].strip()) < 15:
                bare.append(entry[1])
    assert bare == []
