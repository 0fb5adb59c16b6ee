"""Controls a screen reader and a keyboard can use: sliders and figures with accessible names.

ipywidgets 8.1 draws its sliders with noUiSlider, whose handles carry no
accessible name, and its ``Image`` with no ``alt`` text; neither can be given
from Python. These two small widgets, built with anywidget (the library made
for custom Jupyter widgets: plain ES modules, no build step, its JupyterLab
extension ships in its wheel), use the browser's own elements instead:

- :class:`IntSlider` / :class:`FloatSlider`: an ``<input type="range">`` with
  its ``<label>`` (the accessible name), an ``<output>`` readout and
  ``aria-valuetext``; arrow keys, Page Up/Down, Home and End work natively.
  The readout is written in Python (numbers rounded half up by
  :func:`iaa_teach.fmt`, or a label per value).
- :class:`Picture`: PNG bytes shown as an ``<img>`` with ``alt`` text.
- :class:`Countdown`: the time left, ticking in the browser once a second
  (``role="timer"``, with a label); Python keeps the deadline and checks it on
  every action, so nothing runs in the background on the kernel's side.

On the Python side they behave like the ipywidgets they replace (``value``,
``min``, ``max``, ``step``, ``description``, ``observe``), so explorers run
headless in pytest unchanged.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import anywidget
import traitlets

from .._validation import AgreementError
from ..rounding import fmt, format_number

__all__ = ["IntSlider", "FloatSlider", "Picture", "Countdown", "clock_text"]

_SLIDER_ESM = """
function render({ model, el }) {
  el.classList.add("iaa-slider");
  // the input inside its <label>: the description is its accessible name, with no id to keep unique
  const label = document.createElement("label");
  const text = document.createElement("span");
  const input = document.createElement("input");
  input.type = "range";
  // the arrow keys belong to the slider, not to JupyterLab's notebook shortcuts
  input.dataset.lmSuppressShortcuts = "true";
  input.addEventListener("keydown", (event) => event.stopPropagation());
  const out = document.createElement("output");
  out.setAttribute("aria-hidden", "true");
  label.append(text, input);
  el.append(label, out);
  const show = () => {
    text.textContent = model.get("description");
    input.min = model.get("min");
    input.max = model.get("max");
    input.step = model.get("step");
    input.value = model.get("value");
    input.disabled = model.get("disabled");
    out.textContent = model.get("readout");
    input.setAttribute("aria-valuetext", model.get("readout"));
  };
  show();
  const names = ["description", "min", "max", "step", "value", "disabled", "readout"];
  for (const name of names) model.on(`change:${name}`, show);
  const send = () => {
    model.set("value", Number(input.value));
    model.save_changes();
  };
  input.addEventListener("change", send);
  input.addEventListener("input", () => { if (model.get("continuous_update")) send(); });
  return () => { for (const name of names) model.off(`change:${name}`, show); };
}
export default { render };
"""

_SLIDER_CSS = """
.iaa-slider { display: flex; align-items: center; gap: 0.6em; flex-wrap: nowrap; margin: 0.15em 1em 0.15em 0; }
.iaa-slider label { white-space: nowrap; display: flex; align-items: center; gap: 0.6em; flex: 1 1 auto;
                    min-width: 0; }
.iaa-slider input[type=range] { width: 14em; flex: 1 1 14em; min-width: 5em; accent-color: #0072b2; }
.iaa-slider input[type=range]:focus-visible { outline: 3px solid #e69f00; outline-offset: 2px; }
.iaa-slider output { min-width: 3.5em; flex: none; font-variant-numeric: tabular-nums; }
"""


class _Slider(anywidget.AnyWidget):
    """A labelled range input (see the module docstring); subclasses set the number type."""

    _esm = _SLIDER_ESM
    _css = _SLIDER_CSS
    description = traitlets.Unicode("").tag(sync=True)
    readout = traitlets.Unicode("").tag(sync=True)
    continuous_update = traitlets.Bool(False).tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(
        self,
        value: Any = None,
        min: Any = 0,
        max: Any = 100,
        step: Any = 1,
        description: str = "",
        readout: Callable[[Any], str] | str | Sequence[str] | None = None,
        **kwargs: Any,
    ):
        """``readout``: a format for the value (``".0%"``), a function of it, or one label per value."""
        if isinstance(readout, (list, tuple)) and len(readout) != int(round((max - min) / step)) + 1:
            raise AgreementError(
                f"readout gives {len(readout)} labels for the values {min}..{max} in steps of {step}"
            )
        self._readout = readout
        for key in ("style", "layout_width"):
            kwargs.pop(key, None)
        # the value goes in with the rest, so the state the browser first receives carries its readout (a
        # readout set after the comm opened arrives later: until then a new slider showed no number)
        super().__init__(
            value=min if value is None else value,
            min=min,
            max=max,
            step=step,
            description=description,
            **kwargs,
        )
        self.observe(self._show_readout, names=["value", "min", "max"])

    @traitlets.validate("value")
    def _clip(self, proposal: dict) -> Any:
        return type(self.min)(min(max(proposal["value"], self.min), self.max))

    @traitlets.default("readout")
    def _first_readout(self) -> str:
        return self.text_of(self.value)

    def _show_readout(self, change: Any = None) -> None:
        self.readout = self.text_of(self.value)

    def text_of(self, value: Any) -> str:
        """The readout of ``value``: its label, its format, or the number (half up)."""
        how = self._readout
        if isinstance(how, (list, tuple)):
            return str(how[int(round((value - self.min) / self.step))])
        if callable(how):
            return str(how(value))
        if isinstance(how, str):
            return format_number(value, how)
        return str(value) if isinstance(value, int) else fmt(value, 2)


class IntSlider(_Slider):
    """A whole-number slider with an accessible name (its ``description``)."""

    value = traitlets.Int(0).tag(sync=True)
    min = traitlets.Int(0).tag(sync=True)
    max = traitlets.Int(100).tag(sync=True)
    step = traitlets.Int(1).tag(sync=True)


class FloatSlider(_Slider):
    """A slider over numbers with an accessible name (its ``description``)."""

    value = traitlets.Float(0.0).tag(sync=True)
    min = traitlets.Float(0.0).tag(sync=True)
    max = traitlets.Float(1.0).tag(sync=True)
    step = traitlets.Float(0.01).tag(sync=True)


_PICTURE_ESM = """
function render({ model, el }) {
  const img = document.createElement("img");
  img.className = "iaa-picture";
  el.append(img);
  let url = null;
  const show = () => {
    const data = model.get("value");
    if (url) URL.revokeObjectURL(url);
    url = data && data.byteLength ? URL.createObjectURL(new Blob([data], { type: "image/png" })) : null;
    if (url) img.src = url; else img.removeAttribute("src");
    img.alt = model.get("alt");
    // the figure's true size is its largest: it shrinks (keeping its shape) to the page's width and,
    // by the explorer's style, to about half the window's height
    img.style.maxWidth = model.get("width") ? `min(100%, ${model.get("width")})` : "100%";
  };
  show();
  const names = ["value", "alt", "width"];
  for (const name of names) model.on(`change:${name}`, show);
  return () => { for (const name of names) model.off(`change:${name}`, show); if (url) URL.revokeObjectURL(url); };
}
export default { render };
"""


class Picture(anywidget.AnyWidget):
    """A PNG figure with a text alternative: ``value`` (PNG bytes), ``alt``, ``width`` (CSS)."""

    _esm = _PICTURE_ESM
    _css = ".iaa-picture { max-width: 100%; width: auto; height: auto; display: block; }"
    value = traitlets.Bytes(b"").tag(sync=True)
    alt = traitlets.Unicode("").tag(sync=True)
    width = traitlets.Unicode("").tag(sync=True)


_COUNTDOWN_ESM = """
function render({ model, el }) {
  el.classList.add("iaa-countdown");
  const label = document.createElement("span");
  label.className = "iaa-countdown-label";
  const time = document.createElement("span");
  time.className = "iaa-countdown-time";
  time.setAttribute("role", "timer");
  el.append(label, time);
  const pad = (n) => String(n).padStart(2, "0");
  const show = () => {
    label.textContent = model.get("description") + " ";
    time.setAttribute("aria-label", model.get("description"));
    const ends = model.get("ends_at");
    let left = model.get("seconds_left");
    if (ends > 0) left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    time.textContent = left > 0 || ends === 0 ? `${Math.floor(left / 60)}:${pad(left % 60)}` : model.get("expired");
    el.classList.toggle("iaa-countdown-low", ends > 0 && left <= model.get("warn_at"));
    el.classList.toggle("iaa-countdown-over", ends > 0 && left === 0);
  };
  show();
  const tick = setInterval(show, 1000);
  const names = ["description", "ends_at", "seconds_left", "expired", "warn_at"];
  for (const name of names) model.on(`change:${name}`, show);
  return () => { clearInterval(tick); for (const name of names) model.off(`change:${name}`, show); };
}
export default { render };
"""


def clock_text(seconds: float) -> str:
    """Seconds as ``m:ss``, rounded up to the whole second (what the countdown shows)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


class Countdown(anywidget.AnyWidget):
    """The time left: ``description``, then ``m:ss`` ticking down in the browser.

    ``ends_at`` is the deadline in milliseconds since the epoch (0: not
    running; then ``seconds_left`` is shown, still). When it passes the readout
    says ``expired``. Python decides when time is up; the browser only shows it.
    """

    _esm = _COUNTDOWN_ESM
    _css = """
.iaa-countdown { font-variant-numeric: tabular-nums; margin: 0.2em 1em; padding: 0.1em 0.5em;
                 border: 1px solid #888; border-radius: 4px; display: inline-block; }
.iaa-countdown .iaa-countdown-time { font-weight: bold; }
.iaa-countdown-low { border-color: #8a3b00; color: #8a3b00; }
.iaa-countdown-over { border-color: #b3261e; color: #b3261e; }
"""
    description = traitlets.Unicode("time left").tag(sync=True)
    ends_at = traitlets.Float(0.0).tag(sync=True)
    seconds_left = traitlets.Int(0).tag(sync=True)
    expired = traitlets.Unicode("time is up").tag(sync=True)
    warn_at = traitlets.Int(300).tag(sync=True)

    def text(self, now_ms: float | None = None) -> str:
        """What the readout shows at ``now_ms`` (default: when it is not running)."""
        if self.ends_at <= 0 or now_ms is None:
            return f"{self.description} {clock_text(self.seconds_left)}"
        left = (self.ends_at - now_ms) / 1000
        return f"{self.description} {clock_text(left) if left > 0 else self.expired}"
