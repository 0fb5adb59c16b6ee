"""docs/own-data.md keeps in step with the command line, ``Ratings.from_csv`` and the annotations
explorer: every option of ``iaa-teach report``, every keyword of the reader and every file control of
the explorer is named on the page (``--raters-as-rows``, ``--skip-rows``, ``--fold-case`` and
``--drop-column`` were only in ``--help`` and lesson 08)."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

from iaa_teach import Ratings
from iaa_teach.cli import _parser

PAGE = Path(__file__).resolve().parents[1] / "docs" / "own-data.md"


def _report_options() -> list[str]:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return [name for action in sub.choices["report"]._actions for name in action.option_strings]


def test_every_report_option_is_named_in_the_own_data_guide():
    page = PAGE.read_text()
    options = [name for name in _report_options() if name.startswith("--")]
    assert {"--raters-as-rows", "--skip-rows", "--fold-case", "--drop-column"} <= set(options)
    assert [name for name in options if f"`{name}" not in page and f" {name}" not in page] == []


def test_every_keyword_of_the_reader_is_named_in_the_own_data_guide():
    page = PAGE.read_text()
    names = [name for name in inspect.signature(Ratings.from_csv).parameters if name != "path"]
    assert {"raters_as_rows", "skip_rows", "fold_case", "drop"} <= set(names)
    assert [name for name in names if f"{name}=" not in page] == []


def test_every_file_control_of_the_explorer_is_named_in_the_own_data_guide():
    from iaa_teach.widgets import AnnotationsExplorer

    page = PAGE.read_text()
    ex = AnnotationsExplorer()
    controls = [*ex.file_controls, ex.gold_column, ex.order]
    named = [c.description.split(" (")[0] for c in controls if c is not ex.format]
    assert "encoding" in named
    assert [name for name in named if f'"{name}' not in page] == []
    assert all(f'layout "{layout}"' in page for layout in ("raters as rows", "long"))
