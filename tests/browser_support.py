"""Drive a notebook in JupyterLab, in headless Debian Chromium, from a test.

The one call most tests need::

    import pytest
    from browser_support import open_notebook

    @pytest.mark.browser
    def test_something():
        with open_notebook("09_instructor_playground.ipynb") as page:
            ...  # every cell has run and the kernel is idle; use page (playwright)

:func:`open_notebook` copies the notebook into a temporary directory (the
committed file is never saved over), starts JupyterLab on 127.0.0.1 with a
random token on a free port, launches ``/usr/bin/chromium`` through Playwright,
opens the notebook, runs all cells, waits for the kernel to be idle and checks
no cell raised. On leaving the ``with`` block the browser closes and the server
(and its kernel) is shut down, also when the test fails; on failure a
screenshot is written to the temporary directory and its path is printed.

Without Chromium or Playwright the test is skipped with the reason, unless
``IAA_REQUIRE_BROWSER=1`` is set (``.ci/run`` sets it where Chromium is
installed): then it fails. The pieces (:func:`jupyter_lab`,
:func:`chromium_page`, :func:`run_all_cells`, :func:`wait_for_idle`,
:func:`move_slider`, :func:`select_option`) can be used on their own.

Playwright is imported lazily, so this module imports on any machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE_ENV = "IAA_REQUIRE_BROWSER"
SERVER_START_TIMEOUT = 90.0  # s, JupyterLab on a loaded 2-core machine
KERNEL_TIMEOUT = 90.0  # s, until the kernel is ready
RUN_TIMEOUT = 180.0  # s, for "run all cells"

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "NOTEBOOKS",
    "LabServer",
    "browser_missing_reason",
    "require_browser",
    "free_port",
    "jupyter_lab",
    "chromium_page",
    "open_notebook",
    "run_all_cells",
    "wait_for_idle",
    "cell_errors",
    "move_slider",
    "select_option",
    "shared_lab",
    "find_cells",
    "run_cell",
    "scroll_to_cell",
    "aria_controls",
]


# ------------------------------------------------------------ availability
def browser_missing_reason() -> str | None:
    """Why a browser test cannot run here, or None if it can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} not found: install Debian's chromium (`apt-get install -y chromium`)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (`pip install playwright`)"
    return None


def require_browser() -> None:
    """Skip the calling test when no browser can run, or fail if one is required.

    With ``IAA_REQUIRE_BROWSER=1`` in the environment a missing browser is a
    failure, so CI cannot pass by skipping the browser tests.
    """
    reason = browser_missing_reason()
    if reason is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"browser test required ({REQUIRE_ENV}=1) but {reason}", pytrace=False)
    pytest.skip(f"browser test skipped: {reason}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ server
@dataclass
class LabServer:
    """A running JupyterLab: ``url`` (no trailing slash), ``token``, ``root_dir``."""

    url: str
    token: str
    root_dir: Path
    process: subprocess.Popen
    log_path: Path

    def api(self, path: str, method: str = "GET", timeout: float = 5.0):
        """Call the server's REST API; returns the decoded JSON (or None)."""
        req = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def _lab_command(root_dir: Path, port: int, token: str) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root_dir}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd


def _stop_server(server: LabServer) -> None:
    """Shut the server down through its API (which stops its kernels), then make sure."""
    proc = server.process
    if proc.poll() is None:
        with contextlib.suppress(Exception):
            for kernel in server.api("/api/kernels") or []:
                server.api(f"/api/kernels/{kernel['id']}", method="DELETE", timeout=15)
        with contextlib.suppress(Exception):
            server.api("/api/shutdown", method="POST")
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@contextlib.contextmanager
def jupyter_lab(root_dir: Path | str, *, timeout: float = SERVER_START_TIMEOUT) -> Iterator[LabServer]:
    """Run JupyterLab on loopback with a fresh token while the block runs.

    Settings, workspaces and runtime files go to a temporary directory, so
    the user's own JupyterLab state is neither read nor changed. The kernel
    finds ``iaa_teach`` through PYTHONPATH (the repository root).
    """
    root_dir = Path(root_dir)
    state = Path(tempfile.mkdtemp(prefix="iaa-lab-state-"))
    token = secrets.token_hex(16)
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    for var, sub in (
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("JUPYTER_CONFIG_DIR", "config"),
        ("IPYTHONDIR", "ipython"),
    ):
        env[var] = str(state / sub)
    # No page_config tricks against the "would you like news?" toast: the environment's
    # own {sys.prefix}/share/jupyter/lab/settings/overrides.json (written by make setup /
    # make lab) must keep it away, with an empty user-settings folder, as here.
    log_path = state / "jupyterlab.log"
    last_error = "not started"
    try:
        for _attempt in range(3):  # a port taken between free_port() and bind: try another
            port = free_port()
            with open(log_path, "wb") as log:
                proc = subprocess.Popen(
                    _lab_command(root_dir, port, token),
                    cwd=root_dir,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            server = LabServer(f"http://127.0.0.1:{port}", token, root_dir, proc, log_path)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    server.api("/api/status", timeout=2)
                    break
                except (urllib.error.URLError, ConnectionError, OSError) as exc:
                    last_error = str(exc)
                    time.sleep(0.25)
            else:
                _stop_server(server)
                last_error = f"exit code {proc.returncode}; log:\n{server.log()[-3000:]}"
                continue
            try:
                yield server
            finally:
                _stop_server(server)
            return
        raise RuntimeError(f"JupyterLab did not start: {last_error}")
    finally:
        shutil.rmtree(state, ignore_errors=True)


# ----------------------------------------------------------------- browser
@contextlib.contextmanager
def chromium_page(*, viewport: tuple[int, int] = (1400, 1000), zoom: float = 1.0):
    """A fresh page in headless Debian Chromium (closed when the block ends).

    ``viewport`` is in CSS px; ``zoom`` is the browser's zoom (device pixels per CSS px): a
    1280 x 720 screen at 150 % is ``viewport=(853, 480), zoom=1.5``.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(
                viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=zoom
            )
            yield context.new_page()
        finally:
            browser.close()


# JupyterLab exposes itself as window.jupyterapp (--LabApp.expose_app_in_browser).
# The notebook panel is found by its path: shell.currentWidget can be null in a
# headless browser that has no focus.
_PANEL_JS = """(path) => Array.from(window.jupyterapp.shell.widgets('main'))
    .find(w => w.context && w.context.path === path && w.content && w.sessionContext)"""

_KERNEL_READY_JS = (
    """async (path) => {
    const app = window.jupyterapp;
    if (!app) return false;
    await app.restored;
    const panel = (%s)(path);
    if (!panel || !app.commands.hasCommand('notebook:run-all-cells')) return false;
    await panel.context.ready;
    await panel.sessionContext.ready;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return !!kernel && kernel.status === 'idle';
}"""
    % _PANEL_JS
)

_STATE_JS = (
    """(path) => {
    const panel = (%s)(path);
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = [];
    const model = panel.content.model;
    for (let i = 0; i < model.cells.length; i++) {
        const cell = model.cells.get(i);
        if (cell.type !== 'code') continue;
        const source = cell.sharedModel.getSource();
        const errors = [];
        for (let j = 0; j < cell.outputs.length; j++) {
            const out = cell.outputs.get(j).toJSON();
            if (out.output_type === 'error') errors.push(out.ename + ': ' + out.evalue);
        }
        cells.push({index: i, count: cell.executionCount, blank: source.trim() === '',
                    head: source.split('\\n')[0].slice(0, 80), errors: errors});
    }
    return {status: kernel ? kernel.status : 'none', cells: cells};
}"""
    % _PANEL_JS
)

_RUN_ALL_JS = (
    """async (path) => {
    const app = window.jupyterapp;
    const panel = (%s)(path);
    app.shell.activateById(panel.id);
    await app.commands.execute('notebook:clear-all-cell-outputs');
    await app.commands.execute('notebook:run-all-cells');
}"""
    % _PANEL_JS
)


def _path(page) -> str:
    """The notebook path this page was opened on (set by :func:`open_notebook`)."""
    path = getattr(page, "_iaa_notebook_path", None)
    if path is None:
        raise RuntimeError("open the notebook with open_notebook(), or set page._iaa_notebook_path")
    return path


def _wait_for_kernel(page, timeout: float) -> None:
    """Poll until JupyterLab is restored, the notebook is open and its kernel idle.

    (``page.wait_for_function`` does not await an async predicate, so poll from here.)
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(_KERNEL_READY_JS, _path(page)):
            return
        page.wait_for_timeout(250)
    raise TimeoutError(f"JupyterLab or the kernel of {_path(page)} not ready after {timeout:.0f} s")


def wait_for_idle(page, *, timeout: float = RUN_TIMEOUT, settle: float = 0.5) -> dict:
    """Wait until every non-blank code cell has run and the kernel stays idle for ``settle`` s."""
    deadline = time.monotonic() + timeout
    idle_since = None
    state = {}
    while time.monotonic() < deadline:
        state = page.evaluate(_STATE_JS, _path(page))
        done = all(c["count"] is not None or c["blank"] for c in state["cells"])
        if done and state["status"] == "idle":
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since >= settle:
                return state
        else:
            idle_since = None
        page.wait_for_timeout(100)
    pending = [c["head"] for c in state.get("cells", []) if c["count"] is None and not c["blank"]]
    raise TimeoutError(
        f"kernel not idle after {timeout:.0f} s (status {state.get('status')!r}); "
        f"cells not run: {pending[:5]}"
    )


def cell_errors(page) -> list[str]:
    """``"cell N (first line): EName: message"`` for every code cell that raised."""
    state = page.evaluate(_STATE_JS, _path(page))
    return [f"cell {c['index']} ({c['head']!r}): {e}" for c in state["cells"] for e in c["errors"]]


def run_all_cells(page, *, timeout: float = RUN_TIMEOUT) -> None:
    """Run all cells of the open notebook, wait for idle, fail if a cell raised."""
    page.evaluate(_RUN_ALL_JS, _path(page))
    wait_for_idle(page, timeout=timeout)
    errors = cell_errors(page)
    if errors:
        raise AssertionError("cells raised in the browser:\n" + "\n".join(errors))


@contextlib.contextmanager
def shared_lab(notebooks_dir: Path | str = NOTEBOOKS) -> Iterator[LabServer]:
    """One JupyterLab on a temporary copy of every notebook, for several tests in turn.

    The committed notebooks are never saved over. Pass the server to
    :func:`open_notebook` (``server=``); each test gets its own page, and its
    kernels are shut down when it ends.
    """
    require_browser()
    with tempfile.TemporaryDirectory(prefix="iaa-browser-") as tmp:
        for path in Path(notebooks_dir).glob("*.ipynb"):
            shutil.copy2(path, Path(tmp) / path.name)
        with jupyter_lab(tmp) as server:
            yield server


def _stop_kernels(server: LabServer) -> None:
    with contextlib.suppress(Exception):
        for session in server.api("/api/sessions") or []:
            server.api(f"/api/sessions/{session['id']}", method="DELETE", timeout=15)
    with contextlib.suppress(Exception):
        for kernel in server.api("/api/kernels") or []:
            server.api(f"/api/kernels/{kernel['id']}", method="DELETE", timeout=15)


@contextlib.contextmanager
def open_notebook(
    name: str,
    *,
    notebooks_dir: Path | str = NOTEBOOKS,
    run_all: bool = True,
    extra_files: tuple = (),
    viewport: tuple[int, int] = (1400, 1000),
    zoom: float = 1.0,
    server: LabServer | None = None,
):
    """Open ``notebooks_dir/name`` in JupyterLab in headless Chromium; yield the page.

    Skips (or fails, see :func:`require_browser`) without a browser. Without
    ``server`` the notebook (plus ``extra_files``, paths relative to
    ``notebooks_dir``) is copied to a temporary directory and a JupyterLab is
    started for this block; with ``server`` (see :func:`shared_lab`) the
    notebook is opened there. With ``run_all`` every cell has run, without
    errors, and the kernel is idle when the block starts.
    """
    require_browser()
    if server is None:
        notebooks_dir = Path(notebooks_dir)
        with tempfile.TemporaryDirectory(prefix="iaa-browser-") as tmp:
            work = Path(tmp)
            for rel in (name, *extra_files):
                target = work / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(notebooks_dir / rel, target)
            with (
                jupyter_lab(work) as own,
                open_notebook(name, run_all=run_all, viewport=viewport, zoom=zoom, server=own) as page,
            ):
                yield page
        return
    with chromium_page(viewport=viewport, zoom=zoom) as page:
        try:
            page._iaa_notebook_path = Path(name).as_posix()
            page.goto(server.notebook_url(name), wait_until="domcontentloaded")
            _wait_for_kernel(page, timeout=KERNEL_TIMEOUT)
            if run_all:
                run_all_cells(page)
            yield page
        except BaseException:
            shot = Path(tempfile.gettempdir()) / f"iaa-browser-failure-{Path(name).stem}.png"
            with contextlib.suppress(Exception):
                page.screenshot(path=str(shot), full_page=True)
                print(f"browser_support: screenshot of the failure in {shot}", file=sys.stderr)
            with contextlib.suppress(Exception):
                print(f"browser_support: JupyterLab log tail:\n{server.log()[-2000:]}", file=sys.stderr)
            raise
        finally:
            _stop_kernels(server)


# ------------------------------------------------------- cells of an open notebook
_CELL_JS = (
    """async ([path, index, source, run]) => {
    const app = window.jupyterapp;
    const panel = (%s)(path);
    const cell = panel.content.model.cells.get(index);
    if (source !== null) cell.sharedModel.setSource(source);
    if (run) {
        panel.content.activeCellIndex = index;
        await app.commands.execute('notebook:run-cell');
    }
    return null;
}"""
    % _PANEL_JS
)

_OUTPUT_JS = (
    """([path, index]) => {
    const panel = (%s)(path);
    const cell = panel.content.model.cells.get(index);
    const out = [];
    for (let j = 0; j < cell.outputs.length; j++) {
        const o = cell.outputs.get(j).toJSON();
        if (o.data) out.push(o.data['text/markdown'] || o.data['text/plain'] || '');
        if (o.text) out.push(o.text);
        if (o.ename) out.push(o.ename + ': ' + o.evalue);
    }
    return {count: cell.executionCount, text: out.map(x => Array.isArray(x) ? x.join('') : x).join('\\n')};
}"""
    % _PANEL_JS
)

_FIND_JS = (
    """([path, needle, tag]) => {
    const panel = (%s)(path);
    const cells = panel.content.model.cells;
    const hits = [];
    for (let i = 0; i < cells.length; i++) {
        const c = cells.get(i);
        const tags = c.getMetadata ? (c.getMetadata('tags') || []) : [];
        if ((needle === null || c.sharedModel.getSource().includes(needle)) && (tag === null || tags.includes(tag)))
            hits.push(i);
    }
    return hits;
}"""
    % _PANEL_JS
)


def find_cells(page, needle: str | None = None, tag: str | None = None) -> list[int]:
    """Indices of the cells whose source contains ``needle`` and that carry ``tag``."""
    return page.evaluate(_FIND_JS, [_path(page), needle, tag])


def run_cell(page, index: int, source: str | None = None, *, timeout: float = 60.0) -> str:
    """Optionally replace cell ``index``'s source, run it, wait for the kernel; return its outputs as text."""
    before = page.evaluate(_OUTPUT_JS, [_path(page), index])["count"]
    page.evaluate(_CELL_JS, [_path(page), index, source, True])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate(_OUTPUT_JS, [_path(page), index])
        if state["count"] is not None and state["count"] != before:
            wait_for_idle(page, timeout=timeout, settle=0.2)
            return page.evaluate(_OUTPUT_JS, [_path(page), index])["text"]
        page.wait_for_timeout(100)
    raise TimeoutError(f"cell {index} did not run within {timeout:.0f} s")


def scroll_to_cell(page, index: int) -> None:
    """Bring cell ``index`` into view (JupyterLab renders only the cells near the view)."""
    page.evaluate(
        """async ([path, index]) => {
        const panel = (%s)(path);
        panel.content.activeCellIndex = index;
        await panel.content.scrollToItem(index, 'start');
    }"""
        % _PANEL_JS,
        [_path(page), index],
    )
    # rendered and on screen: the cell's node is in the document and overlaps the viewport
    page.wait_for_function(
        """([path, index]) => {
        const panel = (%s)(path);
        const cell = panel && panel.content.widgets[index];
        if (!cell || !cell.node.isConnected) return false;
        const r = cell.node.getBoundingClientRect();
        return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
    }"""
        % _PANEL_JS,
        arg=[_path(page), index],
        timeout=30_000,
    )


def aria_controls(locator) -> list[tuple[str, str]]:
    """(role, accessible name) of every control and image in ``locator``'s subtree, from the
    browser's accessibility tree (Playwright's ARIA snapshot)."""
    import re

    roles = {
        "button",
        "slider",
        "combobox",
        "textbox",
        "spinbutton",
        "checkbox",
        "radio",
        "img",
        "listbox",
        "switch",
        "link",
    }
    found = []
    for line in locator.aria_snapshot().splitlines():
        # a line is "- role "name"", quoted as a whole in YAML ('...') when the name holds ": "
        m = re.match(r'\s*-\s*\'?(\w+)(?:\s+"((?:[^"\\]|\\.)*)")?', line)
        if m and m.group(1) in roles:
            found.append((m.group(1), m.group(2) or ""))
    return found


# ----------------------------------------------------------------- actions
def move_slider(page, slider, presses: int = 1, key: str = "ArrowRight") -> None:
    """Move an explorer's slider by keyboard: focus its ``<input type="range">``, press ``key``.

    ``slider`` is a locator of the slider (``.iaa-slider``) or of its input.
    """
    is_input = slider.evaluate("e => e.tagName") == "INPUT"
    handle = slider if is_input else slider.locator("input[type=range]")
    handle.first.focus()
    for _ in range(presses):
        handle.first.press(key)


def slider_value(slider) -> str:
    """The readout a slider (``.iaa-slider``) shows, e.g. ``"25%"``, once it shows one.

    Waits for the readout: a slider's view can be on the page a moment before its number.
    """
    from playwright.sync_api import expect

    output = slider.locator("output")
    expect(output).to_have_text(re.compile(r"\S"), timeout=60_000)
    return (
        output.text_content() or ""
    ).strip()  # textContent: innerText is "" while the cell is not laid out


def slider_named(explorer, name: str):
    """The slider whose label is ``name`` in an explorer's locator."""
    return explorer.locator(".iaa-slider").filter(has=explorer.page.get_by_text(name, exact=True)).first


def select_option(page, dropdown, label: str) -> None:
    """Choose ``label`` in an ipywidgets Dropdown (a locator of the widget or its <select>)."""
    select = dropdown if dropdown.evaluate("e => e.tagName") == "SELECT" else dropdown.locator("select")
    select.first.select_option(label=label)
