"""The static book (``make book``) in a real browser (headless Debian Chromium through Playwright).

The book is built once per session from the committed notebooks into a temporary
folder and opened from files, as a student opens a downloaded copy. Following
the "next" links from the start page must visit every page in course order; on
every page:

- no request leaves the book's folder (each one is recorded; any other is aborted
  and fails the test: no CDN, no fonts or scripts from the network);
- every image loads and has alt text; no console error, no script error;
- after MathJax has run, no raw TeX (``$$``, ``\\frac``...) is visible outside
  rendered maths and code;
- every hidden answer is closed, and opens when its summary is clicked;
- no "widget could not be displayed" text: every explorer is a still picture;
- the previous / next links point at the neighbouring pages;
- at phone width (390 px) nothing makes the page scroll sideways.

The search page finds a lesson by a word in it. Skipped with the reason when
Chromium, Playwright or Sphinx is missing, unless IAA_REQUIRE_BROWSER=1 (then it
fails); see tests/browser_support.py.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from browser_support import chromium_page, require_browser

from iaa_teach.course import EXERCISE_TAG, LESSONS, SOLUTION_TAG
from tools import book

TIMEOUT_MS = 60_000
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PHONE = (390, 844)

# Text nodes that a reader sees, outside maths, code and scripts. checkVisibility()
# is false inside a closed <details>, so a folded answer's TeX is not "visible".
_VISIBLE_TEXT_JS = """() => {
    const skip = 'mjx-container, pre, code, script, style, .MathJax, mjx-assistive-mml';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
        if (node.textContent.trim()) out.push(node.textContent);
    }
    return out.join(' ');
}"""
_RAW_TEX = re.compile(
    r"\$\$|\\(frac|begin|end|sum|cdot|left|right|text|mathrm|approx|times|ne|le|ge)\b|"
    r"\$[^$\s][^$\n]{0,80}\$"
)

_IMAGES_JS = """() => Array.from(document.images).map(i => ({
    src: i.getAttribute('src').slice(0, 60), complete: i.complete, width: i.naturalWidth,
    alt: i.getAttribute('alt')}))"""

# Each folded element: open or not, and whether what it hides is visible.
_DETAILS_JS = """() => Array.from(document.querySelectorAll('details')).map(d => ({
    open: d.open, summary: (d.querySelector('summary') || {}).textContent || '',
    shown: Array.from(d.children).filter(c => c.tagName !== 'SUMMARY').some(c => c.checkVisibility())}))"""

_PREV_NEXT_JS = """() => ({
    prev: (document.querySelector('.prev-next-area a.left-prev') || {}).href || null,
    next: (document.querySelector('.prev-next-area a.right-next') || {}).href || null})"""


@pytest.fixture(scope="session")
def built_book(tmp_path_factory) -> Path:
    """The book, built once from the committed notebooks."""
    require_browser()
    pytest.importorskip("sphinx", reason="the book's packages are not installed (pip install -e '.[book]')")
    out = tmp_path_factory.mktemp("book") / "book"
    book.build(out)
    return out


def lesson_pages() -> list[str]:
    """The course's pages in order (the printed book): the start page, notation, glossary, every ready lesson."""
    return ["index", "notation", "glossary", *(les.stem for les in LESSONS[1:] if les.ready)]


def expected_pages() -> list[str]:
    """The book's pages in order: the course's, then the user guide and the API reference."""
    return [*lesson_pages(), *(f"guide-{name}" for name in book.GUIDE), *book.API_TOPICS]


class Visit:
    """A Chromium page that records every request and problem while it visits files of the book."""

    def __init__(self, page, folder: Path):
        self.page = page
        self.prefix = folder.resolve().as_uri() + "/"
        self.outside: list[str] = []
        self.problems: list[str] = []
        page.on(
            "console",
            lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", self.failed)
        page.route("**/*", self.route)

    def failed(self, request) -> None:
        # a file that is missing fails with ERR_FILE_NOT_FOUND; ERR_ABORTED is a load cut short by
        # the next page (a font still arriving), and requests routed away are recorded in `outside`
        if self.inside(request.url) and "ERR_ABORTED" not in (request.failure or ""):
            self.problems.append(f"request failed ({request.failure}): {request.url[:100]}")

    def inside(self, url: str) -> bool:
        return url.startswith(self.prefix) or url.startswith("data:") or url.startswith("blob:")

    def route(self, route) -> None:
        url = route.request.url
        if self.inside(url):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self, url: str, typeset_all: bool = True) -> None:
        self.page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        # MathJax 3 typesets after load (on the pages that have maths): wait until it has finished
        if self.page.locator("script[src*='mathjax']").count():
            self.page.wait_for_function(
                "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=TIMEOUT_MS
            )
            self.page.evaluate("() => MathJax.startup.promise")
            if (
                typeset_all
            ):  # formulas out of view wait to be scrolled to (lazy typesetting): typeset them all
                self.page.evaluate("() => MathJax.startup.document.lazyTypesetAll()")
        self.page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)


def name_of(url: str | None) -> str | None:
    return None if url is None else url.split("/")[-1].split("#")[0].removesuffix(".html")


@pytest.mark.browser
def test_every_page_of_the_book_reads_offline_in_order(built_book):
    wanted = expected_pages()
    visited, findings = [], []
    with chromium_page(viewport=(1280, 900)) as page:
        visit = Visit(page, built_book)
        url = (built_book / "index.html").resolve().as_uri()
        previous = None
        while url is not None and len(visited) <= len(wanted):
            visit.open(url)
            name = name_of(url)
            visited.append(name)
            links = page.evaluate(_PREV_NEXT_JS)
            if name_of(links["prev"]) != previous:
                findings.append(f"{name}: previous link goes to {links['prev']}, not {previous}")
            # figures load lazily (as the reader scrolls to them): load them all now, then check each
            page.evaluate(
                "() => document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })"
            )
            page.wait_for_function(
                "() => Array.from(document.images).every(i => i.complete)", timeout=TIMEOUT_MS
            )
            for image in page.evaluate(_IMAGES_JS):
                if not (image["complete"] and image["width"] > 0):
                    findings.append(f"{name}: image {image['src']} did not load")
                if not image["alt"] or re.search(r"\.(png|jpe?g|svg)$", image["alt"]):
                    findings.append(f"{name}: image {image['src']} has no alt text ({image['alt']!r})")
            text = page.evaluate(_VISIBLE_TEXT_JS)
            for match in _RAW_TEX.finditer(text):
                findings.append(
                    f"{name}: raw TeX visible: ...{text[max(0, match.start() - 40) : match.end() + 40]}..."
                )
            whole = page.evaluate("() => document.body.textContent")
            for bad in (
                "could not be displayed",
                "Error displaying widget",
                "Loading widget",
                "application/vnd.jupyter.widget-view+json",
                "<Figure size",
            ):
                if bad in whole:
                    findings.append(f"{name}: {bad!r} on the page")
            for folded in page.evaluate(_DETAILS_JS):
                if folded["open"] or folded["shown"]:
                    findings.append(f"{name}: hidden content open on arrival: {folded['summary']!r}")
            if re.search(r"\\[(\[]|\$", page.title()):
                findings.append(f"{name}: TeX in the window title {page.title()!r}")
            previous = name
            url = links["next"]
        problems, outside = visit.problems, visit.outside
    assert visited == wanted
    assert findings == []
    assert outside == []
    assert problems == []


@pytest.mark.browser
def test_answers_open_when_clicked_and_explorers_are_pictures(built_book):
    with chromium_page(viewport=(1280, 900)) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        answers = page.locator("details", has=page.locator("summary", has_text="Show the worked answer"))
        # one per worked answer of the lesson's exercises (a recall answer's summary differs)
        assert answers.count() >= 2
        first = answers.first
        body = first.locator(":scope > :not(summary)").first
        assert not body.is_visible()
        first.locator("summary").click()
        assert body.is_visible()
        assert len(first.inner_text()) > len("Show the worked answer") + 50  # the answer's text, shown
        lesson = json.loads((NOTEBOOKS / "03_krippendorff_alpha.ipynb").read_text(encoding="utf-8"))
        exercises = [c for c in lesson["cells"] if EXERCISE_TAG in c.get("metadata", {}).get("tags", [])]
        notes = page.get_by_text("Check your answer in JupyterLab")
        assert notes.count() == len(exercises) >= 3  # one per exercise cell of lesson 03
        picture = page.locator(".iaa-static.iaa-explorer")
        assert picture.count() == 1
        assert picture.locator("img").count() >= 1
        assert page.get_by_text("A picture of the explorer", exact=True).count() == 1
        visit.open((built_book / "10_exam_revision.html").resolve().as_uri())
        quiz = page.locator(".iaa-static.iaa-quiz")
        assert quiz.count() == 1 and re.search(r"Question Q-\w{4}-\w{4}", quiz.inner_text())
        assert visit.outside == [] and visit.problems == []


@pytest.mark.browser
def test_search_finds_a_lesson_offline(built_book):
    with chromium_page(viewport=(1280, 900)) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "search.html").resolve().as_uri() + "?q=coincidence")
        results = page.locator("#search-results ul.search li a")
        results.first.wait_for(timeout=TIMEOUT_MS)
        found = {name_of(results.nth(i).get_attribute("href")) for i in range(results.count())}
        assert "03_krippendorff_alpha" in found
        assert visit.outside == [] and visit.problems == []


@pytest.mark.browser
def test_no_page_scrolls_sideways_on_a_phone(built_book):
    wide = []
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        for name in expected_pages():
            visit.open((built_book / f"{name}.html").resolve().as_uri())
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > PHONE[0]:
                wide.append((name, width))
        assert visit.outside == [] and visit.problems == []
    assert wide == []


# Each table of the article (every worked answer opened): for each column with a heading, whether its heading is
# on screen, or else which body cells do not show it themselves (a phone's stacked table: ::before of data-label);
# and the row headers that are not on screen.
_TABLE_LABELS_JS = """() => {
    document.querySelectorAll('details').forEach(d => { d.open = true; });
    const shown = e => e.checkVisibility() && e.getBoundingClientRect().width > 0
        && e.getBoundingClientRect().height > 0;
    const out = [];
    for (const table of document.querySelectorAll('article.bd-article table')) {
        const what = table.textContent.trim().replace(/\\s+/g, ' ').slice(0, 50);
        const heads = [...table.querySelectorAll(':scope > thead > tr > th')];
        const rows = [...table.querySelectorAll(':scope > tbody > tr')];
        heads.forEach((head, column) => {
            const label = head.textContent.trim();
            if (!label || shown(head)) return;
            const unlabelled = rows.map(row => row.children[column]).filter(cell => !cell || !shown(cell)
                || !getComputedStyle(cell, '::before').content.includes(label));
            if (unlabelled.length) out.push(`${what}: column "${label}" hidden, ${unlabelled.length} cells without it`);
        });
        rows.forEach(row => {
            const header = row.querySelector(':scope > th[scope=row]');
            if (header && !shown(header)) out.push(`${what}: row header "${header.textContent.trim()}" hidden`);
        });
    }
    return out;
}"""


@pytest.mark.browser
def test_every_table_keeps_its_column_and_row_labels_on_a_phone(built_book):
    """At 390 px no table loses its labels: its heading row is on screen (a table that scrolls sideways keeps
    it), or, where a table is laid out one row under another (the notation, the glossary, the start page's
    lessons), every cell shows its column's name; the row headers stay on screen."""
    hidden = []
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        for name in expected_pages():
            visit.open((built_book / f"{name}.html").resolve().as_uri(), typeset_all=False)
            hidden += [f"{name}: {problem}" for problem in page.evaluate(_TABLE_LABELS_JS)]
        assert visit.outside == [] and visit.problems == []
    assert hidden == []


# The reader's buttons are sphinx-book-theme's, in the article header (the theme's own header
# buttons are hidden); below 992 px each opens a drawer (a <dialog>), above it the menu button
# collapses the sidebar. See book/_static/iaa-book.js for the theme bug this checks.
_MENU = ".bd-header-article .primary-toggle"
_CONTENTS = ".bd-header-article .secondary-toggle"


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 820])
def test_the_menu_and_contents_buttons_open_their_drawers_on_a_phone_and_a_tablet(built_book, width):
    with chromium_page(viewport=(width, 844)) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        menu = page.locator("#pst-primary-sidebar-modal")
        assert not menu.is_visible()
        page.locator(_MENU).click()
        menu.wait_for(state="visible", timeout=TIMEOUT_MS)
        lessons = menu.locator("a.reference", has_text="Krippendorff")
        lessons.first.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert menu.locator("a.reference").count() == len(expected_pages())  # every page of the book
        page.keyboard.press("Escape")
        menu.wait_for(state="hidden", timeout=TIMEOUT_MS)
        contents = page.locator("#pst-secondary-sidebar-modal")
        page.locator(_CONTENTS).click()
        contents.wait_for(state="visible", timeout=TIMEOUT_MS)
        contents.locator("nav.page-toc a", has_text="Step 2").first.wait_for(
            state="visible", timeout=TIMEOUT_MS
        )
        page.keyboard.press("Escape")
        contents.wait_for(state="hidden", timeout=TIMEOUT_MS)
        assert visit.outside == [] and visit.problems == []


@pytest.mark.browser
def test_the_menu_button_collapses_the_sidebar_on_a_desktop(built_book):
    with chromium_page(viewport=(1400, 900)) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        sidebar = page.locator("#pst-primary-sidebar")
        assert sidebar.is_visible()
        page.locator(_MENU).click()
        sidebar.wait_for(state="hidden", timeout=TIMEOUT_MS)
        assert not page.locator("#pst-primary-sidebar-modal").is_visible()  # collapsed, no drawer
        page.locator(_MENU).click()
        sidebar.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert visit.outside == [] and visit.problems == []


# ------------------------------------------------------------------ weight
#: Budgets of issue 25: a lesson page opened cold, and the whole site (the guide and API pages included).
PAGE_BUDGET = 1_500_000
SITE_BUDGET = 10_000_000
#: what a static host (GitHub Pages) sends compressed with gzip
_TEXT = {".html", ".js", ".css", ".svg", ".json", ".txt", ".ipynb"}


def wire_bytes(path: Path) -> int:
    """A file's size as a static host sends it: text compressed with gzip, the rest as it is."""
    data = path.read_bytes()
    return len(gzip.compress(data, compresslevel=6)) if path.suffix in _TEXT else len(data)


@pytest.mark.browser
def test_a_cold_lesson_page_and_the_whole_site_stay_light(built_book):
    files = [p for p in built_book.rglob("*") if p.is_file()]
    site = sum(p.stat().st_size for p in files)
    assert site <= SITE_BUDGET, f"the site is {site / 1e6:.1f} MB"
    assert not [p for p in files if p.suffix == ".map"]  # no source maps
    assert not (built_book / "genindex.html").exists()  # no empty Index page
    with chromium_page(viewport=PHONE) as page:  # a fresh browser: nothing cached
        visit = Visit(page, built_book)
        loaded: list[str] = []
        page.on("requestfinished", lambda r: loaded.append(r.url))
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        # the fonts MathJax asked for are fetched after the typesetting: wait until they are in (on a busy
        # machine the list was read while MathJax_Main-Regular.woff was still on its way)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.wait_for_load_state("networkidle")
        paths = {Path(unquote(urlparse(u).path)) for u in loaded if u.startswith("file:")}
        raw = sum(p.stat().st_size for p in paths)
        wire = sum(wire_bytes(p) for p in paths)
        names = sorted(p.name for p in paths)
        assert visit.outside == [] and visit.problems == []
        assert page.locator("link[rel='icon']").count() == 1
    assert "fontawesome.js" not in names
    assert "tex-chtml.js" in names and "MathJax_Main-Regular.woff" in names
    assert wire <= PAGE_BUDGET, (
        f"{wire / 1e6:.2f} MB as served ({raw / 1e6:.2f} MB on disk) in {len(paths)} files"
    )


_TYPESET_JS = """() => { const all = Array.from(document.querySelectorAll('.bd-article .math'))
    .filter(e => e.checkVisibility());
  const inView = e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; };
  const done = e => !!e.querySelector('mjx-container mjx-math');
  return {all: all.length, typeset: all.filter(done).length,
          inView: all.filter(inView).length, inViewTypeset: all.filter(e => inView(e) && done(e)).length}; }"""


@pytest.mark.browser
def test_formulas_are_typeset_as_they_come_into_view(built_book):
    # lazy typesetting (book/conf.py): the first screen's formulas at once, a later one when scrolled to
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri(), typeset_all=False)
        first = page.evaluate(_TYPESET_JS)
        # the page's last display formula outside a folded answer: not typeset until the reader scrolls to it
        last = "Array.from(document.querySelectorAll('.bd-article div.math')).filter(e => !e.closest('details')).pop()"
        assert page.evaluate(f"() => !({last}).querySelector('mjx-math')")
        page.evaluate(f"() => ({last}).scrollIntoView()")
        page.wait_for_function(f"() => !!({last}).querySelector('mjx-math')", timeout=TIMEOUT_MS)
        assert visit.outside == [] and visit.problems == []
    assert first["inView"] >= 1 and first["inViewTypeset"] == first["inView"]
    assert first["typeset"] < first["all"] / 2, first  # the rest waits to be scrolled to


@pytest.mark.browser
def test_the_api_pages_document_each_public_name_they_list(built_book):
    # every name of every topic has its entry (an element with the name's path as id) on that topic's page
    missing = []
    for page, names in book.api_names().items():
        html = (built_book / f"{page}.html").read_text(encoding="utf-8")
        missing += [f"{page}: {path}" for path, _ in names if f'id="{path}"' not in html]
    assert missing == []


# ------------------------------------------------------------------ tables
@pytest.mark.browser
def test_every_table_of_the_book_names_its_rows_and_columns_as_headers(built_book):
    """Every table a reader meets names its columns (<th scope="col">, in a <thead>) and its rows (its first
    column: <th scope="row">), for a screen reader as for the eye: the lessons' and the guide's Markdown
    tables (their bold first column, tools/book.py row_headers), the explorers' readouts, the notation's
    symbols, the API pages' summaries (which had no heading row: "name", "what it does")."""
    from bs4 import BeautifulSoup

    unnamed, seen, summaries = [], 0, []
    for path in sorted(built_book.glob("*.html")):
        article = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").select_one(".bd-article")
        for table in article.find_all("table") if article else []:
            if "iaa-equations" in table.get("class", []):  # a chain of equations laid out, not data
                continue
            seen += 1
            what = f"{path.stem}: {table.get_text(' ', strip=True)[:60]}"
            heads = table.select("thead > tr > *")
            if not heads or any(c.name != "th" or c.get("scope") != "col" for c in heads):
                unnamed.append(f"{what} (column headings)")
            for row in table.select("tbody > tr"):
                first = row.find(["th", "td"], recursive=False)
                if first is None or first.name == "td" and first.get_text(strip=True):
                    unnamed.append(f"{what} (row {row.get_text(' ', strip=True)[:30]})")
                    break
                if first.name == "th" and first.get("scope") != "row":
                    unnamed.append(f"{what} (row header without scope)")
                    break
            if "autosummary" in table.get("class", []):
                summaries.append([th.get_text(strip=True) for th in heads])
    assert unnamed == []
    assert seen >= 120
    assert summaries and all(s == ["name", "what it does"] for s in summaries), summaries


# Where each line of an API summary's first cell (the name and its signature) ends: the text just before
# each line break and just after it, found from each character's box.
_SIGNATURE_BREAKS_JS = """() => {
    const out = [];
    for (const cell of document.querySelectorAll('.bd-article table.autosummary tbody tr > :first-child')) {
        const chars = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.textContent.length; i++) {
                const range = document.createRange();
                range.setStart(node, i); range.setEnd(node, i + 1);
                const box = Array.from(range.getClientRects()).find(r => r.width > 0);
                if (box && node.textContent[i].trim()) chars.push({c: node.textContent[i], top: box.top, h: box.height});
            }
        }
        for (let i = 1; i < chars.length; i++) {
            if (chars[i].top > chars[i - 1].top + chars[i - 1].h / 2) {
                out.push({cell: cell.textContent.trim().slice(0, 60),
                          before: chars.slice(Math.max(0, i - 8), i).map(x => x.c).join(''),
                          after: chars.slice(i, i + 8).map(x => x.c).join('')});
            }
        }
    }
    return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [(375, 740), (1280, 800)], ids=["phone", "desktop"])
def test_a_signature_in_an_api_summary_breaks_after_a_comma_only(built_book, viewport):
    """On a phone the summaries broke a signature inside a word ("cur/ves", "popul/ation"), inside "...",
    or before its last ")": its arguments were joined by no-break spaces. Now a line ends after a comma
    between two arguments (book/conf.py, iaa-book.css), or, for a name too long to share its line, before
    its signature or after a dot of its path (tools/book.py row_headers); never inside a word."""
    wrong, breaks = [], 0
    with chromium_page(viewport=viewport) as page:
        visit = Visit(page, built_book)
        for name in book.API_TOPICS:
            visit.open((built_book / f"{name}.html").resolve().as_uri())
            page.evaluate("() => document.fonts.ready.then(() => true)")
            for found in page.evaluate(_SIGNATURE_BREAKS_JS):
                breaks += 1
                # after a comma, between a long name and its signature, or after a dot between a dotted
                # name's parts (iaa_teach.exercises.lesson_exercises. / Exercise): not in "...", not in a word
                after_dot = found["before"].endswith(".") and re.match(r"[A-Za-z_]", found["after"])
                if not (found["before"].endswith(",") or found["after"].startswith("(") or after_dot):
                    wrong.append((name, found))
        assert visit.outside == [] and visit.problems == []
    assert wrong == []
    assert breaks >= (10 if viewport[0] < 600 else 1)  # long signatures do wrap


# ------------------------------------------------------------------ colours
# Every piece of text of an explorer's picture, a table or a note, against the background it is drawn on
# (the backgrounds of its boxes blended up to the page's): WCAG's contrast ratio, at least 4.5 (3 for large text).
_CONTRAST_JS = """(selector) => {
    const rgba = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
        const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
        return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
    const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a),
        g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1});
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
    const page = rgba(getComputedStyle(document.body).backgroundColor);
    const base = page && page.a > 0 ? page : rgba(getComputedStyle(document.documentElement).backgroundColor);
    const background = (e) => {
        const layers = [];
        for (let n = e; n && n !== document.body; n = n.parentElement) {
            const c = rgba(getComputedStyle(n).backgroundColor);
            if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
        }
        return layers.reverse().reduce((under, top) => over(top, under), base && base.a > 0 ? base : {r: 255, g: 255, b: 255, a: 1});
    };
    const out = [];
    for (const e of document.querySelectorAll(selector)) {
        if (e.closest('mjx-container, pre, .highlight') || !e.checkVisibility()) continue;
        const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own) continue;
        const style = getComputedStyle(e);
        const bg = background(e);
        const fg = over(rgba(style.color), bg);
        const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
        const ratio = (hi + 0.05) / (lo + 0.05);
        const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
        const large = size >= 24 || (bold && size >= 18.66);
        out.push({text: e.textContent.trim().slice(0, 40), ratio: Math.round(ratio * 100) / 100,
                  needed: large ? 3 : 4.5, color: style.color});
    }
    return out;
}"""
_COLOURED = (
    ".bd-article .iaa-static *, .bd-article table *, .bd-article .admonition *, .bd-article .iaa-download *"
)


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["dark", "light"])
def test_explorers_tables_and_notes_are_readable_in_dark_and_light_mode(built_book, mode):
    poor, seen = [], 0
    with chromium_page(viewport=(1280, 900)) as page:
        # the reader's choice of the theme's switch, kept by the theme in localStorage
        page.add_init_script(
            f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}');"
        )
        visit = Visit(page, built_book)
        for name in (
            "notation",
            "03_krippendorff_alpha",
            "06_chance_models",
            "09_instructor_playground",
            "10_exam_revision",
        ):
            visit.open((built_book / f"{name}.html").resolve().as_uri())
            assert page.evaluate("() => document.documentElement.dataset.theme") == mode
            page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
            for text in page.evaluate(_CONTRAST_JS, _COLOURED):
                seen += 1
                if text["ratio"] < text["needed"]:
                    poor.append((name, text))
        assert visit.outside == [] and visit.problems == []
    assert seen >= 200  # the explorers' readouts, the tables' cells, the notes
    assert poor == []


# ------------------------------------------------------------------ phone layout
_WIDE_JS = """() => Array.from(document.querySelectorAll(
        ".bd-article .pst-scrollable-table-container, .bd-article mjx-container[display='true']"))
    .filter(b => b.checkVisibility() && b.scrollWidth > b.clientWidth + 1 && !(b.parentElement.closest('.iaa-scrolls')))
    .map(b => {
        const anchor = b.parentElement.matches('div.math') ? b.parentElement : b;
        const hint = anchor.previousElementSibling;
        return {what: b.textContent.slice(0, 50), marked: b.classList.contains('iaa-scrolls'),
                hint: !!hint && hint.classList.contains('iaa-scroll-hint') && hint.checkVisibility()};
    })"""


@pytest.mark.browser
def test_what_is_wider_than_a_phone_scrolls_in_its_box_and_says_so(built_book):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    unsigned, seen = [], 0
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        for name in ("03_krippendorff_alpha", "06_chance_models", "07_how_sure"):
            visit.open((built_book / f"{name}.html").resolve().as_uri())
            # a formula is marked once typeset (its box resized: iaa-book.js re-checks it): wait for every one,
            # then look (a formula never marked fails below, after the wait)
            try:
                page.wait_for_function(
                    f"() => document.querySelector('.iaa-scroll-hint') && ({_WIDE_JS})().every(b => b.marked && b.hint)",
                    timeout=10_000,
                )
            except PlaywrightTimeout:  # the list below says which box is not marked
                pass
            for box in page.evaluate(_WIDE_JS):
                seen += 1
                if not (box["marked"] and box["hint"]):
                    unsigned.append((name, box))
        assert visit.outside == [] and visit.problems == []
    assert seen >= 3  # lesson 03's D_e, lesson 06's coefficient table...
    assert unsigned == []


_WIDE_FIGURES_JS = """() => Array.from(document.querySelectorAll('.tag_book-wide-figure .cell_output')).map(box => {
    const img = box.querySelector('img'), hint = box.previousElementSibling;
    return {shown: img.getBoundingClientRect().width, scrolls: box.scrollWidth > box.clientWidth + 1,
            marked: box.classList.contains('iaa-scrolls'),
            hint: !!hint && hint.classList.contains('iaa-scroll-hint') && hint.checkVisibility()};
})"""


@pytest.mark.browser
def test_lesson_08s_figures_with_a_label_per_rater_stay_legible_on_a_phone(built_book):
    # thirty raters' names: squeezed into 358 px their 8-point labels were 3-4 px high; at 640 px or more
    # (a figure drawn 720 px wide) they are 10 px or more, in a box that scrolls sideways and says so
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "08_your_own_annotations.html").resolve().as_uri())
        page.wait_for_function(
            "() => document.querySelector('.tag_book-wide-figure .iaa-scrolls, .iaa-scrolls')"
        )
        figures = page.evaluate(_WIDE_FIGURES_JS)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert visit.outside == [] and visit.problems == []
    assert len(figures) == len(book.WIDE_FIGURES)
    assert all(f["shown"] >= 640 and f["scrolls"] and f["marked"] and f["hint"] for f in figures), figures
    assert width <= PHONE[0]


@pytest.mark.browser
def test_previous_and_next_show_whole_titles_on_a_phone(built_book):
    with chromium_page(viewport=PHONE) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        for title in page.locator(".prev-next-area .prev-next-title").all():
            cut = title.evaluate(
                "t => t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1"
            )
            assert not cut, title.inner_text()


# ------------------------------------------------------------------ printing
@pytest.mark.browser
def test_printing_opens_every_folded_answer_and_wraps_code(built_book):
    with chromium_page(viewport=(1280, 900)) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "03_krippendorff_alpha.html").resolve().as_uri())
        page.emulate_media(media="print")
        folded = page.evaluate(_DETAILS_JS)
        assert folded and all(d["shown"] for d in folded), [d["summary"] for d in folded if not d["shown"]]
        wide = page.evaluate(
            "() => Array.from(document.querySelectorAll('.cell_input pre')).filter("
            "p => p.scrollWidth > p.clientWidth + 1).length"
        )
        assert wide == 0


# ------------------------------------------------------------------ the whole book as one PDF
_FOOTER = re.compile(r"^\s*\d+ / \d+\s*$", re.M)
_QUOTES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _flat(text: str) -> str:
    """Words as pdftotext gives them, in one line: quotes plain, runs of white space one space, and a
    compound broken at its hyphen at the end of a line ("single-" / "rated") whole again."""
    return re.sub(r"(?<=\w)- (?=\w)", "-", " ".join(text.translate(_QUOTES).split()))


def _plain_runs(markdown: str) -> list[str]:
    """The runs of plain words of a worked answer (no maths, code or markup; a table's cells), longest first."""
    text = re.sub(r"<summary>.*?</summary>|<[^>]+>", " ", markdown, flags=re.S)
    runs = re.split(
        r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\*+|\||\[|\]\([^)]*\)|\n\s*\n|^#+ |\\\w+", text, flags=re.S | re.M
    )
    return sorted((_flat(r) for r in runs if len(r.split()) >= 5), key=len, reverse=True)


@pytest.fixture(scope="session")
def printed_book(built_book, tmp_path_factory):
    """The book printed as one PDF (``make book-pdf``), read back: the text of each sheet and the word boxes."""
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("needs poppler-utils' pdftotext (apt-get install poppler-utils)")
    pdf = tmp_path_factory.mktemp("pdf") / "book.pdf"
    done = book.print_pdf(built_book, pdf)
    layout = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    boxes = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    sheets = layout.stdout.split("\f")
    return {
        "pdf": pdf,
        "done": done,
        "sheets": sheets[:-1] if not sheets[-1].strip() else sheets,
        "bbox": boxes.stdout,
    }


@pytest.mark.browser
def test_the_pdf_has_a_contents_page_and_every_lesson_in_order(printed_book):
    sheets, found = printed_book["sheets"], printed_book["done"]["sheets"]
    names = lesson_pages()
    titles = book.print_titles(names)
    # the contents (sheet 2): every page of the book in order, each with the sheet it starts on
    contents = [_flat(line) for line in _FOOTER.sub("", sheets[1]).splitlines() if line.strip()]
    listed = [line for line in contents if re.search(r" \d+$", line)]
    assert [line.rsplit(" ", 1)[0] for line in listed] == [_flat(titles[n]) for n in names]
    assert [int(line.rsplit(" ", 1)[1]) for line in listed] == [found[n] for n in names]
    # each page starts its sheet with that line, the lessons 01-10 in course order, each with its title
    for name in names:
        assert _flat(sheets[found[name] - 1]).startswith(_flat(titles[name])), name
    lessons = [les for les in LESSONS[1:] if les.ready]
    assert [les.number for les in lessons] == [f"{n:02d}" for n in range(1, 11)]
    assert sorted(found[les.stem] for les in lessons) == [found[les.stem] for les in lessons]
    # page numbers at the foot of every sheet but the cover
    for number, sheet in enumerate(sheets[1:], start=2):
        assert re.search(rf"^\s*{number} / {len(sheets)}\s*$", sheet, re.M), (
            f"sheet {number} has no page number"
        )


@pytest.mark.browser
def test_the_pdf_prints_every_worked_answer_after_its_exercise(printed_book):
    sheets, found = printed_book["sheets"], printed_book["done"]["sheets"]
    missing, checked = [], 0
    for les in LESSONS[1:]:
        first = found[les.stem] - 1
        later = [found[n] - 1 for n in found if found[n] - 1 > first]
        text = _flat(_FOOTER.sub("", "\n".join(sheets[first : min(later, default=len(sheets))])))
        notebook = json.loads((NOTEBOOKS / les.file).read_text(encoding="utf-8"))
        at = 0
        for index, cell in enumerate(notebook["cells"]):
            if SOLUTION_TAG not in _tags(cell):
                continue
            answer = "".join(
                "".join(o.get("data", {}).get("text/markdown", "")) for o in cell.get("outputs", [])
            )
            runs = _plain_runs(answer)
            if not runs:
                missing.append(f"{les.stem} cell {index}: no plain sentence to look for")
                continue
            # in order, each answer after the one before it; pdftotext -layout sets a formula's subscripts
            # and superscripts on a line of their own, so a few one- or two-letter words may come between.
            # A tall inline formula (a fraction) can put its own lines inside a sentence that wraps beside
            # it, so the answer's longest run of plain words is looked for first, then the next longest.
            where = None
            for run in runs:
                words = r"\s+(?:\S{1,2}\s+){0,6}?".join(map(re.escape, run.split()))
                where = re.compile(words).search(text, at)
                if where is not None:
                    break
            if where is None:
                missing.append(f"{les.stem} cell {index}: {runs[0][:80]!r}")
            else:
                at, checked = where.start(), checked + 1
    assert missing == []
    assert checked >= 30  # every lesson's worked answers (issue 22: one per exercise)


@pytest.mark.browser
def test_the_pdf_cuts_no_line_at_the_margin_and_shows_no_raw_tex(printed_book):
    text = _FOOTER.sub("", "\n".join(printed_book["sheets"]))
    bare = re.sub(r"\s+", "", text.translate(_QUOTES))
    cut = []
    for les in LESSONS[1:]:
        notebook = json.loads((NOTEBOOKS / les.file).read_text(encoding="utf-8"))
        for index, cell in enumerate(notebook["cells"]):
            if cell["cell_type"] != "code" or {"remove-input", "remove-cell", SOLUTION_TAG} & set(
                _tags(cell)
            ):
                continue
            printed = "".join(cell["source"]).splitlines()
            printed += [
                line
                for out in cell.get("outputs", [])
                if out.get("output_type") == "stream"
                for line in "".join(out.get("text", "")).splitlines()
            ]
            for line in printed:
                # every line of code and of what it printed is there whole (wrapped, not cut off)
                if line.strip() and re.sub(r"\s+", "", line) not in bare:
                    cut.append(f"{les.stem} cell {index}: {line[:90]!r}")
    assert cut == []
    # nothing printed beyond the page's margins (15 mm each side, as PRINT_CSS sets): no wide table or formula
    margin = 15 / 25.4 * 72
    outside = []
    for number, (width, body) in enumerate(
        re.findall(r'<page width="([\d.]+)"[^>]*>(.*?)</page>', printed_book["bbox"], re.S), 1
    ):
        for xmin, xmax, word in re.findall(
            r'<word xMin="([\d.-]+)" yMin="[\d.-]+" xMax="([\d.-]+)" yMax="[\d.-]+">(.*?)</word>', body
        ):
            if float(xmin) < margin - 2 or float(xmax) > float(width) - margin + 2:  # 2 pt: a glyph's side
                outside.append((number, word))
    assert outside == []
    # every formula typeset: none of MathJax's delimiters left (code holds TeX in strings, so not \\frac...)
    assert not re.search(r"\\\(|\\\)|\\\[|\\\]|\$\$", text)
    assert "\u2211" in text and "\u03ba" in text  # a typeset sum sign and kappa


# ------------------------------------------------------------------ search box
# The theme places the magnifying glass over the search field (position: absolute) but leaves the field's
# text where it was: the first letters of what the reader typed were under the icon, on the search page and
# in the search dialog (Ctrl+K, or the magnifier button on a phone).
_ICON_CLEAR_JS = """() => Array.from(document.querySelectorAll('form.bd-search')).filter(f => f.checkVisibility())
    .map(f => { const icon = f.querySelector('.fa-magnifying-glass').getBoundingClientRect();
                const input = f.querySelector('input'), box = input.getBoundingClientRect();
                const text = box.left + parseFloat(getComputedStyle(input).paddingLeft);
                return {iconRight: icon.right, textLeft: text}; })"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [(375, 740), (1280, 800)])
def test_the_search_icon_leaves_the_typed_words_clear(built_book, viewport):
    with chromium_page(viewport=viewport) as page:
        visit = Visit(page, built_book)
        visit.open((built_book / "search.html").resolve().as_uri() + "?q=kappa")
        page.locator("#search-results ul.search li a").first.wait_for(timeout=TIMEOUT_MS)
        on_page = page.evaluate(_ICON_CLEAR_JS)
        visit.open((built_book / "index.html").resolve().as_uri())
        page.locator("button.search-button, button.search-button-field").filter(visible=True).first.click()
        page.locator("#pst-search-dialog form.bd-search input").wait_for(state="visible", timeout=TIMEOUT_MS)
        in_dialog = page.evaluate(_ICON_CLEAR_JS)
        assert visit.outside == [] and visit.problems == []
    assert len(on_page) == 1 and len(in_dialog) == 1
    assert all(box["iconRight"] <= box["textLeft"] for box in on_page + in_dialog), (on_page, in_dialog)


@pytest.mark.browser
@pytest.mark.parametrize("name", ["notation", "glossary"])
def test_a_table_longer_than_a_sheet_starts_under_its_introduction_with_whole_words(
    printed_book, built_book, name
):
    # kept whole, the notation's and the glossary's tables began a sheet of their own (the page's title and
    # opening lines alone on the sheet before), and their squeezed columns broke headings letter by letter
    from bs4 import BeautifulSoup

    sheets, found = printed_book["sheets"], printed_book["done"]["sheets"]
    table = BeautifulSoup(
        (built_book / f"{name}.html").read_text(encoding="utf-8"), "html.parser"
    ).select_one(".bd-article table")
    heading = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    first_row = table.select_one("tbody tr").find_all(["th", "td"])[1].get_text(" ", strip=True)
    first_sheet = _flat(_FOOTER.sub("", sheets[found[name] - 1]))
    words = set(re.findall(r"[\w']+", first_sheet))
    assert all(word in words for cell in heading for word in re.findall(r"[\w']+", cell)), (
        heading,
        first_sheet,
    )
    assert _flat(" ".join(first_row.split()[:4])) in first_sheet


@pytest.mark.browser
def test_the_pdf_keeps_each_explore_it_yourself_section_on_one_sheet(printed_book):
    """An explorer's section (a still picture with a note, a PDF cannot run it): its heading, its words, the
    picture and the note on one sheet; on main the heading and first lines were left at the foot of a sheet."""
    sheets = [_FOOTER.sub("", sheet) for sheet in printed_book["sheets"]]
    headed = [i for i, sheet in enumerate(sheets) if "Explore it yourself" in sheet]
    lessons = [
        les
        for les in LESSONS[1:]
        if les.ready and "Explore it yourself" in (NOTEBOOKS / les.file).read_text()
    ]
    assert len(headed) == len(lessons) >= 7
    split = [i + 1 for i in headed if "A picture of the explorer" not in sheets[i]]
    assert split == [], f"sheets whose 'Explore it yourself' section goes on over the next: {split}"
