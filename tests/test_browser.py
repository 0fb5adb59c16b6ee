"""The instructor's playground in a real JupyterLab, driven by headless Chromium.

Opens notebooks/09_instructor_playground.ipynb, runs all cells, then works the
explorers the way an instructor does: chooses another label in the grid,
moves sliders with the keyboard (focus the handle, press ArrowRight), and
checks that the readouts show the numbers the metrics give on the changed
data, computed here in the test process.

This also checks that ipywidgets' widget manager renders the explorers in
this JupyterLab (the explorers' own CSS classes exist only in live views).

Skipped with the reason when Chromium or Playwright is missing, unless
IAA_REQUIRE_BROWSER=1 (then it fails); see tests/browser_support.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_support import move_slider, open_notebook, select_option, slider_named, slider_value

from iaa_teach import (
    Ratings,
    brennan_prediger,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    fmt,
    gwet_ac,
    krippendorff_alpha,
)

TIMEOUT_MS = 60_000


def f3(x) -> str:
    return fmt(x)  # as the readouts show it: half up from the exact value


def readout(explorer, key: str):
    return explorer.locator(f'[data-q="{key}"]')


@pytest.mark.browser
@pytest.mark.slow
def test_instructor_playground_responds_in_jupyterlab(lab_server):
    from playwright.sync_api import expect

    with open_notebook("09_instructor_playground.ipynb", server=lab_server) as page:
        expect(page.get_by_text("Error displaying widget")).to_have_count(0)

        # ---- explorer 1: choose another label in the grid
        table = page.locator(".iaa-tableexplorer").first
        table.wait_for(timeout=TIMEOUT_MS)
        table.scroll_into_view_if_needed()
        expect(readout(table, "Cohen A-B kappa")).to_have_text(
            f3(cohen_kappa(datasets.sentiment(), "A", "B").kappa)
        )
        image = table.locator("img").first
        before = image.get_attribute("src")

        select_option(page, table.locator(".iaa-cell-0-1"), "N")  # item 1 (first row), rater B
        rows = datasets.sentiment().rows()
        rows[0][1] = "N"
        changed = Ratings.from_rows(rows, raters=["A", "B", "C"], categories=datasets.SENTIMENT_CATEGORIES)
        for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
            res = cohen_kappa(changed, a, b)
            expect(readout(table, f"Cohen {a}-{b} kappa")).to_have_text(f3(res), timeout=TIMEOUT_MS)
            expect(readout(table, f"Cohen {a}-{b} P_o")).to_have_text(f3(res.exact.p_o))
        fleiss = fleiss_kappa(changed)
        expect(readout(table, "Fleiss pooled kappa")).to_have_text(f3(fleiss))
        expect(readout(table, "P_i item 1")).to_have_text(f3(fleiss.exact.p_i[0]))
        expect(readout(table, "alpha")).to_have_text(f3(krippendorff_alpha(changed)))
        expect(image).not_to_have_attribute("src", before or "", timeout=TIMEOUT_MS)  # the figure was redrawn

        # ---- explorer 3: remove ratings with the keyboard
        missing = page.locator(".iaa-missingdataexplorer").first
        missing.scroll_into_view_if_needed()
        share = slider_named(missing, "share of ratings removed")
        move_slider(page, share)
        expect(share.locator("output")).not_to_have_text("0%", timeout=TIMEOUT_MS)
        percent = int(re.fullmatch(r"(\d+)%", slider_value(share)).group(1))
        gappy = datasets.remove_ratings(datasets.sentiment(), percent / 100, seed=0)
        assert gappy.n_ratings < 30
        expect(readout(missing, "removed")).to_have_text(f"{30 - gappy.n_ratings} of 30", timeout=TIMEOUT_MS)
        expect(readout(missing, "alpha with gaps")).to_have_text(f3(krippendorff_alpha(gappy)))
        expect(readout(missing, "Fleiss pooled with gaps")).to_have_text(f3(fleiss_kappa(gappy)))
        expect(readout(missing, "Fleiss item mean with gaps")).to_have_text(
            f3(fleiss_kappa(gappy, chance="item_mean"))
        )

        # ---- explorer 2: one step of prevalence
        paradox = page.locator(".iaa-paradoxexplorer").first
        paradox.scroll_into_view_if_needed()
        sliders = paradox.locator(".iaa-slider")
        names = [(s.locator("label").first.text_content() or "").strip() for s in sliders.all()]
        prevalence = sliders.nth(names.index("prevalence of category 1"))
        start = slider_value(prevalence)
        move_slider(page, prevalence)
        expect(prevalence.locator("output")).not_to_have_text(start, timeout=TIMEOUT_MS)
        setting = {name: slider_value(s) for name, s in zip(names, sliders.all())}
        simulated = datasets.simulate(
            int(setting["items"]),
            int(setting["raters"]),
            accuracy=float(setting["rater accuracy"]),
            prevalence=float(setting["prevalence of category 1"]),
            n_categories=int(setting["categories"]),
            seed=int(setting["seed"]),
        )
        res = fleiss_kappa(simulated)
        expect(readout(paradox, "kappa")).to_have_text(f3(res), timeout=TIMEOUT_MS)
        expect(readout(paradox, "P_a")).to_have_text(f3(res.p_a))
        expect(readout(paradox, "alpha")).to_have_text(f3(krippendorff_alpha(simulated).alpha))
        expect(readout(paradox, "AC1")).to_have_text(f3(gwet_ac(simulated).ac))
        expect(readout(paradox, "S")).to_have_text(f3(brennan_prediger(simulated).s))

        # ---- explorer 6: add items to the study with the keyboard
        interval = page.locator(".iaa-intervalexplorer").first
        interval.scroll_into_view_if_needed()
        items = slider_named(interval, "items rated")
        start = slider_value(items)
        move_slider(page, items)
        expect(items.locator("output")).not_to_have_text(start, timeout=TIMEOUT_MS)
        n = int(slider_value(items))
        study = datasets.simulate(1000, 3, accuracy=0.8, prevalence=0.5, n_categories=3, seed=0)
        res = fleiss_kappa(study.subset(items=list(range(n))))
        low, _ = res.ci()
        expect(readout(interval, "value")).to_have_text(f3(res.exact.kappa), timeout=TIMEOUT_MS)
        expect(readout(interval, "half-width")).to_have_text(f3(res.kappa - low))
        expect(interval.locator("img").first).to_have_attribute("alt", re.compile(rf"Marked: {n} items"))

        # ---- the controls are large enough for a projector
        size = table.locator("select").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 16


# An explorer scrolled to the top of the notebook's visible area, as a class sees it: where it ends,
# where every control and figure on show is (what is inside a box that scrolls, the numbers or a report's
# view, is in view when its box is), which texts are wider than their box (cut) and which run
# onto a second line (wrapped; a readout's column headings may wrap between words), which controls
# something lies over (a click at their middle would not reach them), and how large a figure's smallest text
# (MIN_FONT_PT at its true size)
# is shown, in CSS px.
_WHOLE_JS = """(explorer, minPt) => {
  explorer.scrollIntoView({block: 'start'});
  const area = explorer.closest('.jp-WindowedPanel-outer, .jp-Notebook').getBoundingClientRect();
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                       && getComputedStyle(e).visibility !== 'hidden'; };
  const box = e => { const r = e.getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const name = e => (e.getAttribute('aria-label') || e.textContent || e.alt || e.tagName).trim().slice(0, 40);
  const parts = Array.from(explorer.querySelectorAll(
      'input, select, button, textarea, img.iaa-picture, h3, .widget-html-content table, .iaa-numbers'))
    .filter(shown).map(e => ({what: e.tagName + ' ' + name(e),
                              scrolled: !!(e.parentElement && e.parentElement.closest('.iaa-numbers')),
                              sideways: !!(e.parentElement && e.parentElement.closest('.iaa-report')),
                              ...box(e)}));
  // a report's view scrolls both ways in its own box: a table wider than it is not cut
  const cut = Array.from(explorer.querySelectorAll('.widget-html-content, button, .widget-label, output'))
    .filter(e => shown(e) && e.scrollWidth > e.clientWidth + 1 && !e.closest('.iaa-report')).map(name);
  // a line: a text box whose middle is in no line found before (a subscript, lower, is on its line)
  const lines = e => { const range = document.createRange(); range.selectNodeContents(e);
    const found = [];
    for (const r of Array.from(range.getClientRects()).filter(r => r.width > 0).sort((a, b) => a.top - b.top)) {
      const middle = (r.top + r.bottom) / 2;
      if (!found.some(line => line.top <= middle && middle <= line.bottom)) found.push(r); }
    return found.length; };
  const wrapped = Array.from(explorer.querySelectorAll(
      'h3, button, .widget-label, .iaa-slider label > span, .iaa-slider output, td'))
    .filter(e => shown(e) && lines(e) > 1).map(name);
  const text = Array.from(explorer.querySelectorAll('img.iaa-picture')).filter(shown)
    .map(i => i.getBoundingClientRect().width / (i.naturalWidth / 2) * minPt * 4 / 3);
  // what a click at a control's middle reaches: the control itself, not something lying over it
  const covered = Array.from(explorer.querySelectorAll('input, select, button, textarea')).filter(shown)
    .filter(e => { const r = e.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                   return !(hit && (hit === e || e.contains(hit))); })
    .map(e => name(e));
  const own = box(explorer);
  return {area: box({getBoundingClientRect: () => area}), explorer: own, parts, cut, wrapped, text, covered,
          width: explorer.scrollWidth - explorer.clientWidth};
}"""


def _whole_in_view(seen: dict) -> list[str]:
    """What of an explorer is not on screen, cut or wrapped (empty when it all is in view)."""
    area, problems = seen["area"], []
    for part in [{"what": "the explorer", "scrolled": False, **seen["explorer"]}, *seen["parts"]]:
        # the numbers (a readout longer than the window) scroll up and down in their own box, in view
        if not (
            (part["scrolled"] or area["top"] - 1 <= part["top"] and part["bottom"] <= area["bottom"] + 1)
            and (
                part.get("sideways")
                or area["left"] - 1 <= part["left"]
                and part["right"] <= area["right"] + 1
            )
        ):
            problems.append(f"{part['what']!r} outside the visible area ({part} not in {area})")
    problems += [f"cut: {what!r}" for what in seen["cut"]]
    problems += [f"wrapped: {what!r}" for what in seen["wrapped"]]
    problems += [f"covered (a click would not reach it): {what!r}" for what in seen["covered"]]
    if seen["width"] > 1:
        problems.append(f"{seen['width']} px wider than its box")
    return problems


# The colours of the selected toggle button and of one not selected.
_TOGGLE_COLOURS_JS = """(explorer) => {
  const style = e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; };
  const on = explorer.querySelector('.widget-toggle-button.mod-active');
  const off = explorer.querySelector('.widget-toggle-button:not(.mod-active)');
  return on === null ? null : {on: style(on), off: style(off)};
}"""


def _luminance(css: str) -> float:
    """WCAG relative luminance of a CSS rgb()/rgba() colour."""
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])

    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _check_views(explorer) -> tuple[list[str], int, int]:
    """Each view of ``explorer`` (each choice of its "show" control) on screen: what is not in view, cut or
    wrapped, and figure text under 9.75 CSS px; the views seen; 1 if its selected toggle stands out (0 if
    it has none)."""
    from playwright.sync_api import expect

    from iaa_teach.widgets._base import MIN_FONT_PT

    kind = explorer.evaluate("e => Array.from(e.classList).find(c => /^iaa-.+explorer$/.test(c))")
    show = explorer.locator(".iaa-show select")
    offered = [o.strip() for o in show.locator("option").all_text_contents()] if show.count() else [""]
    report = explorer.locator(".iaa-report").count() > 0  # the annotations explorer: figures and texts
    problems, views = [], 0
    for view in offered:
        current = show.evaluate("s => s.options[s.selectedIndex].text.trim()") if show.count() else ""
        shown = explorer.locator("img.iaa-picture:visible").evaluate_all("els => els.map(e => e.src)")
        shown = shown if view and view != current else []  # a new view: a picture not on screen now
        texts = explorer.evaluate(  # the text boxes on screen now (by position): a new view shows another
            "el => [...el.querySelectorAll('.iaa-numbers')].flatMap((n, k) => n.offsetParent ? [k] : [])"
        )
        texts = texts if view and view != current else []
        if view:
            show.select_option(label=view)
        views += 1
        if view in ("numbers", "summary"):
            expect(explorer.locator(".iaa-numbers table:visible").first).to_be_visible(timeout=TIMEOUT_MS)
        elif view and (view.startswith("figure") or not report):  # one figure at a time (drawn when shown)
            # the chosen view's own picture, not the last view's still on screen: a choice left at once may
            # never reach a busy kernel (ipywidgets sends only the last of the pending choices)
            explorer.page.wait_for_function(
                "([el, before]) => { const p = [...el.querySelectorAll('img.iaa-picture')]"
                ".filter(i => i.offsetParent !== null);"
                " return p.length === 1 && p[0].src !== '' && !before.includes(p[0].src); }",
                arg=[explorer.element_handle(), shown],
                timeout=TIMEOUT_MS,
            )
            picture = explorer.locator("img.iaa-picture:visible")
            picture.evaluate("i => i.decode()")
        elif view:  # a report's text view: computed when first shown
            # its own text, not the last view's still on screen (which a check for "some text" would pass on)
            explorer.page.wait_for_function(
                "([el, before]) => [...el.querySelectorAll('.iaa-numbers')].some((n, k) =>"
                " n.offsetParent !== null && n.textContent.trim() !== '' && !before.includes(k))",
                arg=[explorer.element_handle(), texts],
                timeout=TIMEOUT_MS,
            )
        seen = explorer.evaluate(_WHOLE_JS, MIN_FONT_PT)
        assert seen["parts"], seen
        problems += [f"{kind}, {view}: {p}" for p in _whole_in_view(seen)]
        problems += [f"{kind}, {view}: figure text {size:.1f} CSS px" for size in seen["text"] if size < 9.75]
    if show.count():
        show.select_option(index=0)
    colours = explorer.evaluate(_TOGGLE_COLOURS_JS)
    if colours is not None:
        assert _contrast(*colours["on"]) >= 4.5, colours
        assert _contrast(colours["on"][1], colours["off"][1]) >= 3, colours
    return problems, views, int(colours is not None)


def _projector(notebook: str, **where: Any):
    """``notebook`` open in JupyterLab at a 1280 x 720 projector with the browser at 150 % (853 x 480 CSS px
    at 1.5 device px each), the side panel (file browser) open: the narrowest case. ``where``: to
    :func:`open_notebook` (``notebooks_dir``)."""
    page_context = open_notebook(notebook, viewport=(853, 480), zoom=1.5, **where)
    page = page_context.__enter__()
    assert page.evaluate("() => window.devicePixelRatio") == 1.5
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed", timeout=TIMEOUT_MS)
    return page_context, page


@pytest.mark.browser
@pytest.mark.slow
def test_every_explorer_fits_a_projector_at_150_percent():
    """At a 1280 x 720 projector, 150 %, side panel open (the notebook's visible area about 520 x 360 CSS px),
    each explorer of the playground fits whole with every control and the figure in view at once, in each
    of its views (each figure, the numbers); no text is cut or runs onto a second line; a figure's smallest
    text is shown at 9.75 CSS px or more; and the selected toggle stands out (its text against its fill,
    and its fill against an unselected button's)."""
    context, page = _projector("09_instructor_playground.ipynb")
    try:
        explorers = page.locator(".iaa-explorer")
        explorers.first.wait_for(timeout=TIMEOUT_MS)
        assert explorers.count() == 6
        toggles, problems, views = 0, [], 0
        for i in range(6):
            explorer = explorers.nth(i)
            explorer.locator("img.iaa-picture").first.wait_for(timeout=TIMEOUT_MS)
            found, seen, toggle = _check_views(explorer)
            problems, views, toggles = problems + found, views + seen, toggles + toggle
        assert problems == [], "\n".join(problems)
        assert views >= 6 * 2 + 3  # every figure of every explorer, and its numbers
        assert toggles == 2  # the coverage and the weights explorers
    finally:
        context.__exit__(None, None, None)


@pytest.mark.browser
@pytest.mark.slow
def test_the_annotations_explorer_fits_a_projector_at_150_percent():
    """Notebook 08's explorer, the whole report, at the same projector: one view at a time (the summary,
    each figure, the raters with their intervals, items, categories, pairs, the whole table, the items
    to adjudicate, the working, the file's settings), each whole in the visible area, the controls beside
    a figure, nothing cut or wrapped; a long view scrolls in its own box."""
    context, page = _projector("08_your_own_annotations.ipynb")
    try:
        explorer = page.locator(".iaa-annotationsexplorer").first
        explorer.locator(".iaa-show select").wait_for(timeout=TIMEOUT_MS)
        problems, views, toggles = _check_views(explorer)
        assert problems == [], "\n".join(problems)
        assert views >= 13 and toggles == 1
    finally:
        context.__exit__(None, None, None)


def _one_cell_notebook(folder, name: str, source: str) -> str:
    """A notebook of one code cell, ``source``, written into ``folder`` as ``name``."""
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / name).write_text(json.dumps(notebook))
    return name


#: Two raters named as a class may name them, long, and five labels of two words each.
_LONG_NAMES_CELL = """from iaa_teach import Ratings
from iaa_teach.widgets import AnnotationsExplorer

labels = ["very positive", "mostly positive", "fairly neutral", "mostly negative", "very negative"]
rows = [[labels[i % 5], labels[(i + i // 5) % 5]] for i in range(40)]
AnnotationsExplorer(Ratings.from_rows(
    rows, raters=["annotator_with_long_name_1", "annotator_with_long_name_2"], categories=labels
))"""


@pytest.mark.browser
@pytest.mark.slow
def test_the_explorers_pairs_view_of_long_names_fits_a_projector_at_150_percent(tmp_path):
    """The pairs view of two raters with long names (``annotator_with_long_name_1``) fits its box at a
    1280 x 720 projector, 150 %, side panel open. The cross-table: its rows and columns are headed by the
    label alone, the corner names the raters (rows, columns) and may break after an underscore, and the
    labels of its rows wrap; measured at its narrowest (a copy at ``width: min-content``) it fits (it was
    1,344 px at its narrowest, in a 485 px box). The pairs' kappas above it: a rater's name may break
    after an underscore and an interval after "to" ("-0.105 to" / "0.230"), and the count of items both
    labelled is headed "items" (not "shared items"), so that the whole view scrolls not sideways (the
    kappas' table was about 499 px at its narrowest, in a 485 px box, and the view scrolled 13-18 px,
    the cross-table's "total" column cut)."""
    _one_cell_notebook(tmp_path, "long_names.ipynb", _LONG_NAMES_CELL)
    context, page = _projector("long_names.ipynb", notebooks_dir=tmp_path)
    try:
        explorer = page.locator(".iaa-annotationsexplorer").first
        explorer.locator(".iaa-show select").select_option(label="pairs of raters", timeout=TIMEOUT_MS)
        cross = explorer.locator(".iaa-report table:visible", has_text="(columns)")
        cross.wait_for(timeout=TIMEOUT_MS)
        seen = cross.evaluate(
            """t => { const copy = t.cloneNode(true); copy.style.width = 'min-content';
            t.parentElement.append(copy); const narrowest = copy.offsetWidth; copy.remove();
            return {narrowest, box: t.closest('.iaa-numbers').clientWidth,
                    corner: t.querySelector('thead th').textContent,
                    rows: [...t.querySelectorAll('tbody th')].map(th => th.textContent),
                    wrap: [...t.querySelectorAll('tbody th')].map(th => getComputedStyle(th).whiteSpace),
                    columns: [...t.querySelectorAll('thead th')].slice(1).map(th => th.textContent)}; }"""
        )
        labels = ["very positive", "mostly positive", "fairly neutral", "mostly negative", "very negative"]
        assert seen["rows"] == [*labels, "total"] and seen["columns"] == [*labels, "total"], seen
        assert seen["corner"] == "annotator_with_long_name_1 (rows) \\ annotator_with_long_name_2 (columns)"
        assert set(seen["wrap"]) == {"normal"}, seen
        assert 0 < seen["narrowest"] <= seen["box"], seen
        kappas = explorer.locator(".iaa-report table:visible", has_text="95% interval")
        view = kappas.evaluate(
            """t => { const box = t.closest('.iaa-numbers');
            const lines = e => { const out = []; let top = null;  // a cell's text, line by line as shown
              const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
              for (let n = walk.nextNode(); n; n = walk.nextNode()) for (let i = 0; i < n.length; i++) {
                const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
                const rect = [...r.getClientRects()].find(x => x.width > 0);
                if (rect && (top === null || rect.top > top + rect.height / 2)) { out.push(''); top = rect.top; }
                if (out.length) out[out.length - 1] += n.data[i]; }
              return out.map(line => line.trim()); };
            const cells = [...t.querySelectorAll('tbody tr')[0].children];
            return {scroll: box.scrollWidth, client: box.clientWidth, table: t.offsetWidth,
                    a: lines(cells[0]), b: lines(cells[1]), interval: lines(cells[3])}; }"""
        )
        # the whole view: no sideways scroll
        assert 0 < view["client"] and view["scroll"] <= view["client"], view
        number = r"-?\d\.\d{3}"  # an interval whole on one line, or broken after "to"
        assert re.fullmatch(
            rf"{number} to {number}|{number} to\n{number}", "\n".join(view["interval"]).replace("\u00a0", " ")
        ), view
        for name, shown in (
            ("annotator_with_long_name_1", view["a"]),
            ("annotator_with_long_name_2", view["b"]),
        ):
            assert "".join(shown) == name, view  # broken after underscores (if at all), nothing added
            assert all(line.endswith("_") for line in shown[:-1]), view
    finally:
        context.__exit__(None, None, None)


@pytest.mark.browser
@pytest.mark.slow
def test_a_file_not_read_is_said_once_and_the_controls_keep_their_width(tmp_path):
    """Uploading a CSV in Excel's encoding (cp1252) without naming it: the error shows once, in the
    summary beside the controls, and the controls keep their width, the status line wrapping within it
    (the status repeated the whole error, one line as wide as its text, and the upload button under it
    stretched from about 240 to 964 px)."""
    name = _one_cell_notebook(
        tmp_path, "upload.ipynb", "from iaa_teach.widgets import AnnotationsExplorer\nAnnotationsExplorer()"
    )
    excel = tmp_path / "excel.csv"
    excel.write_bytes("item,Hélène,José\n1,négatif,négatif\n2,très positif,positif\n".encode("cp1252"))
    with open_notebook(name, notebooks_dir=tmp_path, viewport=(1400, 900)) as page:
        explorer = page.locator(".iaa-annotationsexplorer").first
        button = explorer.locator(".widget-upload")
        button.wait_for(timeout=TIMEOUT_MS)
        before = button.bounding_box()["width"]
        with page.expect_file_chooser() as chooser:
            button.click()
        chooser.value.set_files(str(excel))
        explorer.locator(".iaa-numbers:visible", has_text="not valid UTF-8").wait_for(timeout=TIMEOUT_MS)
        shown = explorer.inner_text()  # the status was set before the summary
        assert shown.count("not valid UTF-8") == 1 and shown.count('the "encoding" box') == 1, shown
        status = explorer.locator(".iaa-status", has_text="excel.csv not read")
        after = button.bounding_box()["width"]
        assert 0 < after <= before + 1, (before, after)
        box = status.bounding_box()  # as wide as the controls, its text on several lines, none cut
        assert box["width"] <= before + 1 and box["height"] > 30, box
        assert status.evaluate("e => e.scrollWidth <= e.clientWidth")
        explorer.screenshot(path=str(tmp_path / "not_read.png"))
        print(f"screenshot: {tmp_path / 'not_read.png'}")


@pytest.mark.browser
@pytest.mark.slow
def test_a_file_read_again_from_the_settings_says_why_there(tmp_path):
    """A file read, then the "file and saving" view chosen and the encoding box changed to one that cannot
    read it: the settings stay on show and say why, once, above them (the error was only in the summary,
    hidden behind the settings: the user saw no reason)."""
    name = _one_cell_notebook(
        tmp_path, "reread.ipynb", "from iaa_teach.widgets import AnnotationsExplorer\nAnnotationsExplorer()"
    )
    ratings = tmp_path / "accents.csv"
    ratings.write_bytes("item,Hélène,José\n1,négatif,négatif\n2,très positif,positif\n".encode())
    with open_notebook(name, notebooks_dir=tmp_path, viewport=(1280, 720)) as page:
        explorer = page.locator(".iaa-annotationsexplorer").first
        button = explorer.locator(".widget-upload")
        button.wait_for(timeout=TIMEOUT_MS)
        with page.expect_file_chooser() as chooser:
            button.click()
        chooser.value.set_files(str(ratings))
        explorer.locator(".iaa-numbers:visible", has_text="accents.csv").first.wait_for(timeout=TIMEOUT_MS)
        explorer.locator(".iaa-show select").select_option(label="file and saving", timeout=TIMEOUT_MS)
        settings = explorer.locator(".iaa-settings")
        settings.wait_for(state="visible", timeout=TIMEOUT_MS)
        encoding = settings.get_by_role("textbox", name="encoding")
        encoding.fill("ascii")
        encoding.press("Enter")
        why = settings.locator(".iaa-why", has_text="is not valid ascii")
        why.wait_for(state="visible", timeout=TIMEOUT_MS)
        explorer.locator(".iaa-status", has_text="accents.csv not read").wait_for(timeout=TIMEOUT_MS)
        shown = explorer.inner_text()  # what is on show: the summary is hidden
        assert shown.count("is not valid ascii") == 1 and shown.count('the "encoding" box') == 1, shown
        assert settings.is_visible()
        why.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "reread.png"))


# ------------------------------------------------ without a browser: skip, or fail on CI
def test_missing_browser_skips_with_the_reason(monkeypatch):
    import browser_support

    monkeypatch.setattr(browser_support, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.delenv(browser_support.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium not found"):
        browser_support.require_browser()


def test_missing_browser_fails_when_required(monkeypatch):
    import browser_support

    monkeypatch.setattr(browser_support, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv(browser_support.REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="IAA_REQUIRE_BROWSER=1"):
        browser_support.require_browser()
