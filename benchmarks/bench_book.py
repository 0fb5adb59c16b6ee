"""How heavy the static book is and how long its maths takes on a slow phone connection.

Serves a built book (``python -m tools.book build/book`` first) over http on 127.0.0.1
and opens a lesson page cold (empty cache) in headless Debian Chromium:

- the site's size on disk and its number of files;
- the page's bytes over the wire and its number of requests (a cold load; every
  request is inside the site: the book loads nothing from the network);
- the time until MathJax has typeset every formula of the page, once without throttling
  and once on Chrome DevTools' "Fast 3G" (562.5 ms latency, 1.44 Mbit/s down,
  675 kbit/s up), set through the DevTools protocol (``Network.emulateNetworkConditions``).

Both with the files sent as they are (``python -m http.server``) and compressed with gzip,
as a static host (GitHub Pages) sends text. The time to maths is network plus typesetting: the
second is CPU work (about 3-6 s for 100-140 formulas on a busy 2-core machine), so the time the
MathJax bundle arrived is printed too.

Run: ``python benchmarks/bench_book.py [BOOKDIR] [PAGE ...]`` (default build/book,
03_krippendorff_alpha and 06_chance_models). Wall-clock times vary with the machine's load:
the byte and request counts do not.
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
#: resolved once every formula is typeset (or at once on a page without MathJax)
MATHS_DONE_JS = """() => !document.querySelector("script[src*='mathjax']") ||
    (window.MathJax && MathJax.startup && MathJax.startup.promise &&
     MathJax.startup.promise.then(() => true))"""


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
        start = time.perf_counter()
        page.goto(base + page_name + ".html", wait_until="load", timeout=180_000)
        page.wait_for_function(MATHS_DONE_JS, timeout=180_000)
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        maths = time.perf_counter() - start
        # when the MathJax bundle had arrived (navigation start = 0): the network's share of the wait
        arrived = page.evaluate(
            "() => { const e = performance.getEntriesByType('resource').find(r => r.name.includes('tex-chtml'));"
            " return e ? e.responseEnd / 1000 : 0; }"
        )
        # every request the page made has finished (fonts come after the maths is laid out)
        deadline = time.perf_counter() + 180
        while set(urls) - set(sizes) and time.perf_counter() < deadline:
            page.wait_for_timeout(200)
        formulas = page.locator("mjx-container").count()
        heavy = sorted(((sizes.get(r, 0), u.removeprefix(base)) for r, u in urls.items()), reverse=True)[:5]
    return {
        "bytes": sum(sizes.values()),
        "requests": len(urls),
        "maths_s": maths,
        "bundle_s": arrived,
        "formulas": formulas,
        "heavy": heavy,
        "outside": [u for u in urls.values() if not u.startswith(base) and not u.startswith("data:")],
    }


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "build" / "book"
    pages = argv[1:] or ["03_krippendorff_alpha", "06_chance_models"]
    size, files = site_size(folder)
    print(f"site {folder}: {size / 1e6:.1f} MB in {files} files")
    for compress in (False, True):
        how = "gzip, as a static host serves it" if compress else "uncompressed (python -m http.server)"
        print(f"-- served {how}")
        with serve(folder, compress) as base:
            for name in pages:
                fast = load(base, name, None)
                slow = load(base, name, FAST_3G)
                print(
                    f"{name}: cold {fast['bytes'] / 1e6:.2f} MB over the wire in {fast['requests']} requests, "
                    f"{fast['formulas']} formulas; maths typeset after {fast['maths_s']:.1f} s unthrottled, "
                    f"{slow['maths_s']:.1f} s on Fast 3G (its MathJax bundle arrived after {slow['bundle_s']:.1f} s; "
                    f"the rest is typesetting on this machine's CPU)"
                )
                for nbytes, url in fast["heavy"]:
                    print(f"    {nbytes / 1e3:8.0f} kB  {url[:90]}")
                if fast["outside"]:
                    print(f"    !! requests outside the site: {fast['outside']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
