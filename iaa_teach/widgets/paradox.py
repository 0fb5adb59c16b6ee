"""Explorer 2: prevalence and the kappa paradox."""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from .. import datasets, plots
from ..validation import check_int, check_number
from ..metrics import fleiss_kappa, krippendorff_alpha
from ._base import (
    FloatSlider, IntSlider, WIDGET_DPI, Explorer, band, canvas_png, controls_row, figure_css_width, fmt, heading, label_style,
    new_figure, note, projector_ready, q, slider_layout, table,
)

__all__ = ["ParadoxExplorer"]

#: Prevalences at which the curve is drawn, evenly over the slider's whole range.
CURVE_POINTS = 34

_CURVE_NAMES = ("observed agreement P_a", "Fleiss' kappa", "Krippendorff's alpha")


class ParadoxExplorer(Explorer):
    """Simulated raters of fixed accuracy; move the prevalence, watch kappa fall.

    Sliders set the number of items and raters, the raters' accuracy (the
    chance of giving an item's true category; a wrong label is one of the
    other categories, uniformly), the number of categories, the prevalence
    of category 1 among the true categories, and the seed
    (:func:`iaa_teach.datasets.simulate`). The readout shows observed
    agreement P_a, chance agreement P_e, Fleiss' kappa and Krippendorff's
    alpha; the figure shows all three against prevalence, with the current
    setting marked: observed agreement stays put while kappa and alpha drop
    as one category comes to dominate (the kappa paradox).

    The curves span the prevalence slider's whole range. They are recomputed
    and drawn only when something other than the prevalence changes; moving
    the prevalence slider only moves the markers, drawn over a saved picture
    of the curves (blitting), so a move stays fast at 1,000 items.

    On complete data Krippendorff's alpha and Fleiss' kappa differ only by
    the factor (n - 1)/n: 1 - alpha = (1 - kappa)(n - 1)/n for n ratings, so
    their curves nearly coincide; alpha is drawn as hollow circles over
    kappa's line, and the readout says so.

    Examples
    --------
    >>> ex = ParadoxExplorer(n_items=1000, accuracy=0.9, prevalence=0.5)
    >>> ex.values()["P_a"], ex.values()["kappa"]
    ('0.826', '0.651')
    >>> ex.prevalence.value = 0.95
    >>> ex.values()["P_a"], ex.values()["kappa"]
    ('0.826', '0.253')
    """

    title = "Prevalence and the kappa paradox"

    def __init__(self, n_items: int = 200, n_raters: int = 3, accuracy: float = 0.85,
                 prevalence: float = 0.5, n_categories: int = 2, seed: int = 0,
                 font_size: str | None = None):
        super().__init__(**({} if font_size is None else {"font_size": font_size}))
        n_items = check_int("n_items", n_items, 10, 1000)
        n_raters = check_int("n_raters", n_raters, 2, 10)
        accuracy = check_number("accuracy", accuracy, 0.0, 1.0)
        prevalence = check_number("prevalence", prevalence, 0.0, 0.99)
        n_categories = check_int("n_categories", n_categories, 2, 5)
        seed = check_int("seed", seed, 0, 99)
        s, lay = label_style(), slider_layout()
        self.n_items = IntSlider(value=n_items, min=10, max=1000, step=10, description="items",
                                   style=s, layout=lay, continuous_update=False)
        self.n_raters = IntSlider(value=n_raters, min=2, max=10, description="raters", style=s, layout=lay,
                                    continuous_update=False)
        self.accuracy = FloatSlider(value=accuracy, min=0.0, max=1.0, step=0.01, description="rater accuracy",
                                      style=s, layout=lay, readout=".2f", continuous_update=False)
        self.n_categories = IntSlider(value=n_categories, min=2, max=5, description="categories", style=s,
                                        layout=lay, continuous_update=False)
        self.prevalence = FloatSlider(value=prevalence, min=0.0, max=0.99, step=0.01,
                                        description="prevalence of category 1", style=s, layout=lay,
                                        readout=".2f", continuous_update=False)
        self.seed = IntSlider(value=seed, min=0, max=99, description="seed", style=s, layout=lay,
                                continuous_update=False)
        self._curve_key = None
        self._curve = None
        self._canvas_key = None
        for control in (self.n_items, self.n_raters, self.accuracy, self.n_categories, self.prevalence, self.seed):
            control.observe(self.update, names="value")
        controls = [controls_row(self.n_items, self.n_raters, self.n_categories),
                    controls_row(self.accuracy, self.prevalence, self.seed)]
        self._finish(controls)

    def _simulate(self, prevalence: float):
        return datasets.simulate(self.n_items.value, self.n_raters.value, accuracy=self.accuracy.value,
                                 prevalence=prevalence, n_categories=self.n_categories.value, seed=self.seed.value)

    def curve_values(self) -> dict[str, np.ndarray]:
        """P_a, kappa and alpha over a grid of prevalences (cached per setting)."""
        key = (self.n_items.value, self.n_raters.value, self.accuracy.value, self.n_categories.value,
               self.seed.value)
        if key != self._curve_key:
            k = self.n_categories.value
            grid = np.linspace(self.prevalence.min, self.prevalence.max, CURVE_POINTS)
            p_a, kappa, alpha = [], [], []
            for prevalence in grid:
                r = self._simulate(float(prevalence))
                fl = fleiss_kappa(r)
                p_a.append(fl.p_a)
                kappa.append(fl.kappa)
                alpha.append(krippendorff_alpha(r).alpha)
            self._curve = {"prevalence": grid, "P_a": np.array(p_a), "kappa": np.array(kappa),
                           "alpha": np.array(alpha)}
            self._curve_key = key
        return self._curve

    def _compute(self) -> str:
        r = self._simulate(self.prevalence.value)
        self.ratings = r
        self._fleiss = fleiss_kappa(r)
        self._alpha = krippendorff_alpha(r)
        fl, al = self._fleiss, self._alpha
        props = ", ".join(f"{c}: {fmt(p, 2)}" for c, p in zip(r.categories, fl.exact.p_j))
        rows = [["observed agreement P_a", q("P_a", fmt(fl.exact.p_a)), ""],
                ["chance agreement P_e", q("P_e", fmt(fl.exact.p_e)), ""],
                ["Fleiss' kappa", q("kappa", fmt(fl.exact.kappa)), q("kappa band", band(fl.kappa))],
                ["Krippendorff's alpha", q("alpha", fmt(al.exact.alpha)), q("alpha band", band(al.alpha))]]
        parts = [heading(f"{r.n_items} items x {r.n_raters} raters, prevalence {fmt(self.prevalence.value, 2)}"),
                 table(["", "value", "band"], rows),
                 note(f"label proportions {props}")]
        for why in (fl.reason, al.reason):
            if why:
                parts.append(note(why, "iaa-why"))
        parts.append(note("Accuracy is fixed, so P_a hardly moves; P_e grows as one category dominates, "
                          "and kappa = (P_a - P_e) / (1 - P_e) falls."))
        n = int(al.n)
        parts.append(note(f"Alpha and kappa differ only by the factor (n - 1)/n: 1 - alpha = (1 - kappa)(n - 1)/n "
                          f"with n = {n} ratings, so their curves lie on top of each other "
                          f"(alpha: hollow circles on kappa's line)."))
        return "".join(parts)

    def _draw(self):
        """The curves alone (no current setting): the background the markers are drawn over."""
        c = self.curve_values()
        fig, (ax,) = new_figure(6.4, 4.6, left=0.12, right=0.97, bottom=0.3, top=0.9)
        plots.paradox_curve(c["prevalence"], dict(zip(_CURVE_NAMES, (c["P_a"], c["kappa"], c["alpha"]))), ax=ax)
        return projector_ready(fig)

    def _redraw(self) -> None:
        self.curve_values()
        if self._canvas_key != self._curve_key:  # new curves: draw them once, keep the picture
            fig = self._draw()
            fig.set_dpi(WIDGET_DPI)
            ax = fig.axes[0]
            colors = [line.get_color() for line in ax.get_lines()[:len(_CURVE_NAMES)]]
            self._vline = ax.axvline(0.0, color="#555555", lw=1.5, animated=True)
            self._dots = [ax.plot([], [], "o", color=color, ms=10, zorder=10, animated=True)[0] for color in colors]
            fig.canvas.draw()
            self._background = fig.canvas.copy_from_bbox(fig.bbox)
            self.figure, self.axes, self._canvas_key = fig, ax, self._curve_key
        x = self.prevalence.value
        values = (self._fleiss.p_a, self._fleiss.kappa, self._alpha.alpha)
        canvas = self.figure.canvas
        canvas.restore_region(self._background)
        self._vline.set_xdata([x, x])
        self.axes.draw_artist(self._vline)
        for dot, y in zip(self._dots, values):
            dot.set_data([x], [y])
            self.axes.draw_artist(dot)
        shown = ", ".join(f"{name} {fmt(v)}" for name, v in
                          zip(("P_a", "kappa", "alpha"), (self._fleiss.exact.p_a, self._fleiss.exact.kappa,
                                                          self._alpha.exact.alpha)))
        alt = (f"Figure: line chart of observed agreement P_a, Fleiss' kappa and Krippendorff's alpha (up) against "
               f"the prevalence of category 1 (across, {fmt(self.prevalence.min, 2)} to "
               f"{fmt(self.prevalence.max, 2)}); kappa and alpha fall as the prevalence moves away from balance "
               f"while P_a stays level. Marked: prevalence {fmt(x, 2)}, {shown}.")
        self._set_image(self.image, canvas_png(canvas), alt, figure_css_width(self.figure))
