"""How heavy the static book is and how long a reader waits for its maths on a slow phone connection.

Serves a built book (``python -m tools.book build/book`` first) over http on 127.0.0.1,
its text compressed with gzip as a static host (GitHub Pages) sends it, and opens each
lesson page cold (empty cache) in headless Debian Chromium at a 390 x 844 phone screen:

- the site's size on disk and its number of files;
- the page's bytes over the wire and its number of requests (every request is inside the
  site: the book loads nothing from the network);
- "maths done", what a reader waits for: every formula of the first screen typeset and no
  MathJax font still loading (its glyphs are blank until then), from navigation start, on
  Chrome DevTools' "Fast 3G" (562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up, set through
  the DevTools protocol, ``Network.emulateNetworkConditions``) and unthrottled. MathJax
  typesets lazily (book/conf.py), so the formulas further down are typeset as the reader
  scrolls: the benchmark also scrolls to the screen with the most formulas and times them.
  When MathJax's bundle arrived and when its start-up was done are printed too.

Run: ``python benchmarks/bench_book.py [BOOKDIR] [PAGE ...]`` (default build/book, every
lesson page). Wall-clock times vary with the machine's load: the byte and request counts do not.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.44e6 / 8,
    "uploadThroughput": 675e3 / 8,
}
#: what a static host compresses
TEXT = {".html", ".js", ".css", ".svg", ".json", ".txt", ".ipynb"}
#: Every formula of the first screen typeset and shown: what a reader waits for before reading (true at once
#: on a page whose first screen has no maths). A formula is a ``.math`` element of the article (myst's span or
#: div); it is typeset once MathJax's output (``mjx-math``) is inside it, and shown once no MathJax font
#: (``MJX...``) is still loading (until then its glyphs are blank).
FIRST_SCREEN_JS = """() => {
    const article = document.querySelector('.bd-article');
    if (!article) return false;
    const seen = Array.from(article.querySelectorAll('.math:not(.math .math)')).filter(e => {
        const r = e.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth &&
            r.width > 0 && e.checkVisibility();  // not in a closed answer
    });
    const fonts = Array.from(document.fonts).some(f => f.family.replace(/["']/g, '').startsWith('MJX') &&
                                                     f.status === 'loading');
    return !fonts && seen.every(e => e.querySelector('mjx-container mjx-math'));
}"""
#: How many formulas of the page are typeset, and how many there are.
TYPESET_JS = """() => [document.querySelectorAll('.bd-article .math mjx-container mjx-math').length,
    document.querySelectorAll('.bd-article .math').length]"""


def site_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


@contextlib.contextmanager
def serve(folder: Path, compress: bool = True):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def send_head(self):
            # text compressed with gzip, as a static host serves it (GitHub Pages does), when asked
            path = Path(self.translate_path(self.path))
            if not (self.compress and path.suffix in TEXT and path.is_file()):
                return super().send_head()
            if "gzip" not in self.headers.get("Accept-Encoding", ""):
                return super().send_head()
            body = gzip.compress(path.read_bytes(), compresslevel=6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    Quiet.compress = compress

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def load(base: str, page_name: str, throttle: dict | None, viewport=(390, 844)) -> dict:
    """A cold load of one page: bytes, requests, and when its maths was typeset (seconds from navigation)."""
    from browser_support import chromium_page

    with chromium_page(viewport=viewport) as page:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if throttle:
            cdp.send("Network.emulateNetworkConditions", throttle)
        sizes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        cdp.on("Network.loadingFailed", lambda e: sizes.__setitem__(e["requestId"], 0))
        page.goto(base + page_name + ".html", wait_until="commit", timeout=180_000)
        # the time (from navigation start, in the page's own clock) the first screen's formulas were all typeset
        first = page.wait_for_function(
            "() => document.readyState !== 'loading' && (" + FIRST_SCREEN_JS + ")() && performance.now()",
            timeout=180_000,
            polling=50,
        ).json_value()
        page.wait_for_load_state("load", timeout=180_000)
        has_mathjax = page.locator("script[src*='mathjax']").count() > 0
        if has_mathjax:
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("() => MathJax.startup.promise")
        done = page.evaluate("() => performance.now()")
        typeset, total = page.evaluate(TYPESET_JS)
        # when the MathJax bundle had arrived (navigation start = 0): the network's share of the wait
        arrived = page.evaluate(
            "() => { const e = performance.getEntriesByType('resource').find(r => r.name.includes('tex-chtml'));"
            " return e ? e.responseEnd : 0; }"
        )
        # a screen further down, the one with the most formulas: how long after scrolling to it they are typeset
        scrolled = None
        if has_mathjax and total:
            page.evaluate(
                """() => { const ys = Array.from(document.querySelectorAll('.bd-article .math'))
                    .map(e => e.getBoundingClientRect().top + window.scrollY);
                  let best = 0, most = 0;
                  for (const y of ys) { const n = ys.filter(z => z >= y && z < y + window.innerHeight).length;
                                        if (n > most) { most = n; best = y; } }
                  window.__scrolledAt = performance.now(); window.scrollTo(0, best); }"""
            )
            try:
                scrolled = page.wait_for_function(
                    "() => (" + FIRST_SCREEN_JS + ")() && performance.now() - window.__scrolledAt", polling=20
                ).json_value()
            except Exception:
                print(
                    page.evaluate(
                        """() => [window.scrollY, Array.from(document.fonts).map(f => f.family + ' ' + f.status).join(', '), Array.from(document.querySelectorAll('.bd-article .math')).filter(e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && r.width>0 && r.left < innerWidth;}).filter(e => !e.querySelector('mjx-container mjx-math')).map(e => [e.getBoundingClientRect().left, e.outerHTML.slice(0,300)])]"""
                    )
                )
                raise
        # every request the page made has finished (fonts come after the maths is laid out)
        deadline = time.perf_counter() + 180
        while set(urls) - set(sizes) and time.perf_counter() < deadline:
            page.wait_for_timeout(200)
        heavy = sorted(((sizes.get(r, 0), u.removeprefix(base)) for r, u in urls.items()), reverse=True)[:5]
    return {
        "bytes": sum(sizes.values()),
        "requests": len(urls),
        "first_s": first / 1000,
        "startup_s": done / 1000,
        "bundle_s": arrived / 1000,
        "typeset": typeset,
        "formulas": total,
        "scrolled_s": None if scrolled is None else scrolled / 1000,
        "heavy": heavy,
        "outside": [u for u in urls.values() if not u.startswith(base) and not u.startswith("data:")],
    }


def lesson_pages(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("[0-9][0-9]_*.html"))


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "build" / "book"
    pages = argv[1:] or lesson_pages(folder)
    size, files = site_size(folder)
    print(f"site {folder}: {size / 1e6:.2f} MB in {files} files")
    print("served compressed with gzip, as a static host serves it; a 390 x 844 phone screen")
    print(
        "page: cold bytes over the wire / requests; formulas; on Fast 3G: the first screen's maths typeset "
        "after (s), MathJax's bundle arrived after (s), MathJax's start-up done after (s) with how many "
        "formulas typeset by then; the screen with the most formulas typeset after scrolling to it (s); "
        "unthrottled: the first screen's maths (s)"
    )
    worst = 0.0
    with serve(folder, True) as base:
        for name in pages:
            fast = load(base, name, None)
            slow = load(base, name, FAST_3G)
            worst = max(worst, slow["first_s"])
            scroll = "-" if slow["scrolled_s"] is None else f"{slow['scrolled_s']:.2f}"
            print(
                f"{name}: {fast['bytes'] / 1e6:.2f} MB / {fast['requests']}; {slow['formulas']} formulas; "
                f"Fast 3G first screen {slow['first_s']:.1f} s (bundle {slow['bundle_s']:.1f} s, start-up "
                f"{slow['startup_s']:.1f} s with {slow['typeset']}/{slow['formulas']} typeset; scrolled screen "
                f"{scroll} s); unthrottled first screen {fast['first_s']:.1f} s"
            )
            for nbytes, url in fast["heavy"]:
                print(f"    {nbytes / 1e3:8.0f} kB  {url[:90]}")
            if fast["outside"]:
                print(f"    !! requests outside the site: {fast['outside']}")
    print(f"slowest first screen of maths on Fast 3G: {worst:.1f} s (issue 25's bar: 6 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
