"""Every explorer's readout fits its box in a real JupyterLab: no table scrolls sideways.

A readout (the explorer's numbers) used to sit beside the controls, under the figure, in a box of
46em (598 CSS px in JupyterLab): notebook 05's coverage table (824 px) and notebook 06's paradox table
(912 px) hid their last columns (P_e, kappa, the band) behind a scrollbar. Here each notebook with
explorers runs in JupyterLab in headless Chromium, at a laptop's 1280 x 800 with the file browser
open (the narrower notebook), and at a 1280 x 720 projector at 150 % (853 x 480 CSS px, the compact
layout, its "numbers" view chosen); every readout box must show all it holds:
``scrollWidth <= clientWidth``.

Skipped with the reason when Chromium or Playwright is missing, unless IAA_REQUIRE_BROWSER=1 (then it
fails); see tests/browser_support.py.
"""

from __future__ import annotations

import pytest
from browser_support import open_notebook

TIMEOUT_MS = 60_000

#: Notebook -> how many explorers it shows (09 has one of each kind with a readout of tables).
NOTEBOOKS = {
    "04_missing_data.ipynb": 1,
    "05_partial_coverage.ipynb": 1,
    "06_chance_models.ipynb": 1,
    "09_instructor_playground.ipynb": 6,
}
SCREENS = {
    "laptop 1280x800": {"viewport": (1280, 800), "zoom": 1.0},
    "projector 1280x720 at 150 %": {"viewport": (853, 480), "zoom": 1.5},
}

# Each explorer's readout boxes on show, with their widths: the box (what is seen) and what it holds.
_READOUTS_JS = """() => Array.from(document.querySelectorAll('.iaa-explorer')).map(ex => {
  const kind = Array.from(ex.classList).find(c => /^iaa-.+explorer$/.test(c));
  return Array.from(ex.querySelectorAll('.iaa-numbers, .iaa-numbers .widget-html-content'))
    .filter(e => e.offsetParent !== null)
    .map(e => ({kind, box: e.clientWidth, holds: e.scrollWidth,
                tables: Array.from(e.querySelectorAll('table')).map(t => Math.round(t.getBoundingClientRect().width))}));
}).flat()"""

# In the compact layout each explorer shows one view at a time: choose its numbers.
_SHOW_NUMBERS_JS = """() => { for (const s of document.querySelectorAll('.iaa-explorer .iaa-show select')) {
  if (s.offsetParent === null) continue;
  s.value = 'numbers'; s.dispatchEvent(new Event('change', {bubbles: true})); } }"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_readout_fits_its_box(lab_server, notebook, screen):
    from playwright.sync_api import expect

    with open_notebook(notebook, server=lab_server, **SCREENS[screen]) as page:
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
        page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed", timeout=TIMEOUT_MS)
        explorers = page.locator(".iaa-explorer")
        expect(explorers).to_have_count(NOTEBOOKS[notebook], timeout=TIMEOUT_MS)
        page.evaluate(_SHOW_NUMBERS_JS)
        for i in range(NOTEBOOKS[notebook]):  # each readout on show, its numbers written
            explorer = explorers.nth(i)
            explorer.scroll_into_view_if_needed()
            expect(explorer.locator(".iaa-numbers .iaa-q").first).to_be_visible(timeout=TIMEOUT_MS)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        boxes = page.evaluate(_READOUTS_JS)
        kinds = page.evaluate(
            "() => [...document.querySelectorAll('.iaa-explorer')]"
            ".map(e => [...e.classList].find(c => /^iaa-.+explorer$/.test(c)))"
        )
        assert {b["kind"] for b in boxes} == set(kinds), boxes  # every explorer's readout measured
        cut = [b for b in boxes if b["holds"] > b["box"]]
        assert cut == [], f"{notebook}, {screen}: readouts wider than their box: {cut}"
