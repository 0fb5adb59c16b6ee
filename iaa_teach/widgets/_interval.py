"""Explorer 7: how sure is the number? The confidence interval narrowing as items are added."""

from __future__ import annotations

import ipywidgets as w
import numpy as np

from .. import datasets
from .._plots import OKABE_ITO
from .._validation import check_int, check_option
from ..course import alpha_verdict
from ..metrics import (
    brennan_prediger,
    fleiss_kappa,
    gwet_ac,
    items_needed,
    krippendorff_alpha,
    percent_agreement,
)
from ..ratings import AgreementError
from ._base import (
    MIN_FONT_PT,
    Explorer,
    IntSlider,
    attempt,
    band,
    controls_row,
    fmt,
    heading,
    image_widget,
    label_style,
    new_figure,
    note,
    projector_ready,
    q,
    rater_sliders,
    slider_layout,
    table,
)

__all__ = ["IntervalExplorer", "COEFFICIENTS"]

#: The coefficients the explorer offers: name -> (label, the public metric).
COEFFICIENTS = {
    "fleiss_kappa": ("Fleiss' kappa", fleiss_kappa),
    "krippendorff_alpha": ("Krippendorff's alpha", krippendorff_alpha),
    "gwet_ac": ("Gwet's AC1", gwet_ac),
    "brennan_prediger": ("Brennan-Prediger S", brennan_prediger),
    "percent_agreement": ("percent agreement P_a", percent_agreement),
}

#: The study: this many simulated items; the slider takes the first n of them.
STUDY_ITEMS = 1000
#: Fewest items the slider offers, and its step.
FIRST_ITEMS = 10
ITEM_STEP = 10
#: Numbers of items at which the curves are computed (every 20th, and the first).
CURVE_ITEMS = np.concatenate([[FIRST_ITEMS], np.arange(20, STUDY_ITEMS + 1, 20)])
#: The half-width the planning row asks for.
PLAN_HALF_WIDTH = 0.1
CONFIDENCE = 0.95
#: The coefficient axis (fixed, so that coefficients compare at a glance; beyond it a curve is cut).
LEFT_LIMITS = (-0.6, 1.02)
#: Each of the two figures (inches, margins): narrow and tall, to stand beside the controls in a small
#: window (where one shows at a time); side by side on a wide screen.
FIGSIZE = (3.1, 3.5)
_MARGINS = {"left": 0.23, "right": 0.93, "bottom": 0.36, "top": 0.87}


class IntervalExplorer(Explorer):
    """A simulated study rated item by item: watch the 95 % interval narrow.

    One study of :data:`STUDY_ITEMS` items is simulated once with a fixed
    seed (:func:`iaa_teach.datasets.simulate`: raters of a given accuracy,
    category 1 with a given prevalence). The items slider keeps its first n
    items, so moving it to the right adds items to the same study. The
    readout shows the chosen coefficient on those items, its standard error
    (``result.se``, Gwet's formula), its 95 % interval (``result.ci()``) and
    the half-width t x SE, and how many items :func:`iaa_teach.items_needed`
    plans for a half-width of 0.1 around the current value. Two figures
    show, against the number of items, the coefficient with its interval
    (:attr:`image`) and the half-width (:attr:`image_half`) with the curve
    1/sqrt(n) would give from the whole study: four times the items for half
    the width. Side by side on a wide screen; in a small window the "show"
    control chooses one.

    The curves are recomputed (with the public metrics, at every 20th
    number of items) only when the coefficient, the accuracy or the
    prevalence changes; moving the items slider only moves the markers.

    Parameters
    ----------
    coefficient : str
        One of :data:`COEFFICIENTS` (default ``"fleiss_kappa"``).
    n_items : int
        Items used, 10 to 1000 in steps of 10.
    accuracy, prevalence : float
        The simulated raters' accuracy (0 to 1) and the share of items whose
        true category is category 1 (0 to 0.99).
    n_raters, n_categories, seed : int
        2 to 10 raters, 2 to 5 categories, seed 0 to 99.

    Examples
    --------
    >>> ex = IntervalExplorer(n_items=40)
    >>> v = ex.values()
    >>> v["items"], v["value"], v["half-width"]
    ('40', '0.419', '0.173')
    >>> ex.n_items.value = 160  # four times the items: about half the width
    >>> ex.values()["half-width"]
    '0.084'
    """

    title = "How sure is the number? The interval as items are added"

    def __init__(
        self,
        coefficient: str = "fleiss_kappa",
        n_items: int = 40,
        accuracy: float = 0.8,
        prevalence: float = 0.5,
        n_raters: int = 3,
        n_categories: int = 3,
        seed: int = 0,
        font_size: str | None = None,
    ):
        super().__init__(font_size)
        check_option("coefficient", coefficient, tuple(COEFFICIENTS))
        n_items = check_int("n_items", n_items, FIRST_ITEMS, STUDY_ITEMS)
        if n_items % ITEM_STEP:
            raise AgreementError(
                f"n_items must be a multiple of {ITEM_STEP} (the slider's step), got {n_items}"
            )
        self.accuracy, self.prevalence = rater_sliders(accuracy, prevalence)
        self._raters = check_int("n_raters", n_raters, 2, 10)
        self._categories = check_int("n_categories", n_categories, 2, 5)
        self._seed = check_int("seed", seed, 0, 99)
        self.coefficient = w.Dropdown(
            options=[(label, name) for name, (label, _) in COEFFICIENTS.items()],
            value=coefficient,
            description="coefficient",
            style=label_style(),
            layout=w.Layout(margin="0 1.5em 0 0"),
        )
        self.coefficient.add_class("iaa-label-above")  # the longest name whole in a narrow column
        self.n_items = IntSlider(
            value=n_items,
            min=FIRST_ITEMS,
            max=STUDY_ITEMS,
            step=ITEM_STEP,
            description="items rated",
            layout=slider_layout(),
        )
        self._study_key = None
        self._curve_key = None
        self.image_half = image_widget()
        self._finish(
            [controls_row(self.coefficient, self.n_items), controls_row(self.accuracy, self.prevalence)],
            images=[self.image, self.image_half],
            watch=(self.coefficient, self.n_items, self.accuracy, self.prevalence),
            views=("interval", "half-width"),
        )

    # ------------------------------------------------------------ the data
    def study(self):
        """The whole simulated study (:data:`STUDY_ITEMS` items), simulated once per setting."""
        key = (self.accuracy.value, self.prevalence.value)
        if key != self._study_key:
            self._study = datasets.simulate(
                STUDY_ITEMS,
                self._raters,
                accuracy=self.accuracy.value,
                prevalence=self.prevalence.value,
                n_categories=self._categories,
                seed=self._seed,
            )
            self._study_key = key
        return self._study

    def first(self, n: int):
        """The study's first ``n`` items."""
        return self.study().subset(items=np.arange(n))

    def curve_values(self) -> dict[str, np.ndarray]:
        """At each of :data:`CURVE_ITEMS`: the coefficient, its interval and half-width (cached per setting)."""
        key = (self.coefficient.value, self.accuracy.value, self.prevalence.value)
        if key != self._curve_key:
            metric = COEFFICIENTS[self.coefficient.value][1]
            results = [metric(self.first(int(n))) for n in CURVE_ITEMS]
            value = np.array([float(res) for res in results])
            low, high = (np.array(col) for col in zip(*(res.ci(CONFIDENCE) for res in results)))
            self._curve = {
                "items": CURVE_ITEMS.astype(float),
                "value": value,
                "low": low,
                "high": high,
                "half_width": value - low,
            }
            self._curve_key = key
        return self._curve

    # ------------------------------------------------------------ readouts
    def _compute(self) -> str:
        n = self.n_items.value
        r = self.first(n)
        self.ratings = r
        label, metric = COEFFICIENTS[self.coefficient.value]
        res = metric(r)
        self.result = res
        low, high = res.ci(CONFIDENCE)
        self._now = (n, float(res), low, high, float(res) - low)
        rows = [
            ["items rated", q("items", n)],
            [label, q("value", fmt(res.exact_value))],
            [
                "Krippendorff's guidance"
                if self.coefficient.value == "krippendorff_alpha"
                else "Landis-Koch band",
                q(
                    "band",
                    "–"
                    if self.coefficient.value == "percent_agreement"
                    else alpha_verdict(float(res))
                    if self.coefficient.value == "krippendorff_alpha"
                    else band(float(res)),
                ),
            ],
            ["standard error SE", q("SE", fmt(res.se))],
            ["95 % interval", q("interval", f"{fmt(low)} to {fmt(high)}")],
            ["half-width t x SE", q("half-width", fmt(float(res) - low))],
        ]
        shares = r.counts().sum(axis=0) / r.n_ratings
        plan, why = attempt(
            items_needed,
            self.coefficient.value,
            expected=float(res),
            raters=self._raters,
            proportions=shares / shares.sum(),
            half_width=PLAN_HALF_WIDTH,
        )
        rows.append(
            [
                f"items for a half-width of {fmt(PLAN_HALF_WIDTH, 1)} (items_needed)",
                q("items needed", plan.items if plan is not None else "–"),
            ]
        )
        parts = [
            heading(
                f"the first {n} of {STUDY_ITEMS} simulated items, {self._raters} raters, "
                f"{self._categories} categories (seed {self._seed})"
            ),
            table(["", "value"], rows),
        ]
        if res.reason or res.se_reason:
            parts.append(note(res.se_reason or res.reason, "iaa-why"))
        if why:
            parts.append(note(f"items_needed: {why}", "iaa-why"))
        if high == 1.0 and float(res) + (float(res) - low) > 1:
            parts.append(note("No coefficient exceeds 1, so the interval's upper end is capped at 1."))
        parts.append(
            note(
                "The half-width shrinks like 1/sqrt(n): four times the items for half the width. "
                "The first items buy the most certainty."
            )
        )
        return "".join(parts)

    # -------------------------------------------------------------- figure
    @property
    def figure(self):
        """The matplotlib figure of the coefficient and its interval, kept between updates (see :meth:`_blit`)."""
        return self._blit_figure

    def _draw(self):
        """The coefficient with its 95 % interval against the items: axes, labels and legend (fixed limits,
        the same for every coefficient); the curve, the band and the markers are animated artists: left out
        of a full draw, drawn over the kept picture of the rest (see :meth:`_blit`)."""
        fig, (left,) = new_figure(*FIGSIZE, **_MARGINS)
        blue, red = OKABE_ITO["blue"], OKABE_ITO["vermillion"]
        self._value_line = left.plot([], [], color=blue, lw=2, label="coefficient", animated=True, zorder=4)[
            0
        ]
        self._fill = None
        band_key = left.fill_between(
            [0, 1], [0, 0], [0, 0], color=blue, alpha=0.25, lw=0, label="95 % interval"
        )
        left.set_xlim(0, STUDY_ITEMS)
        left.set_ylim(*LEFT_LIMITS)
        left.axhline(0, color=OKABE_ITO["black"], lw=0.8)
        left.set_xlabel("items rated")
        left.set_ylabel("coefficient")
        left.set_title("the coefficient and\nits 95 % interval", fontsize=10)
        left.legend(
            handles=[self._value_line, band_key],
            loc="upper center",
            bbox_to_anchor=(0.45, -0.2),
            ncols=1,
            frameon=False,
            fontsize=MIN_FONT_PT,
        )
        band_key.remove()  # only its legend entry stays
        self._marks = [left.axvline(0.0, color="#555555", lw=1.2, animated=True)]
        self._bar = left.plot([], [], color=red, lw=3, animated=True, zorder=10)[0]
        self._dot = left.plot([], [], "o", color=red, ms=9, animated=True, zorder=11)[0]
        self.axes = (left,)
        return projector_ready(fig)

    def _draw_half(self):
        """The half-width against the items, with the curve 1/sqrt(n) would give (see :meth:`_draw`)."""
        fig, (right,) = new_figure(*FIGSIZE, **_MARGINS)
        orange, red = OKABE_ITO["orange"], OKABE_ITO["vermillion"]
        self._half_line = right.plot(
            [], [], color=orange, lw=2.5, label="half-width t x SE", animated=True, zorder=4
        )[0]
        self._root_line = right.plot(
            [],
            [],
            color=OKABE_ITO["black"],
            lw=1.5,
            ls="--",
            label="1/sqrt(n), from the\nwhole study",
            animated=True,
            zorder=5,
        )[0]
        right.set_xlim(0, STUDY_ITEMS)
        right.set_ylim(0, 0.8 if self._raters == 2 else 0.6)
        right.set_xlabel("items rated")
        right.set_ylabel("half-width of the interval")
        right.set_title("half-width against items", fontsize=10)
        right.legend(
            loc="upper center", bbox_to_anchor=(0.45, -0.2), ncols=1, frameon=False, fontsize=MIN_FONT_PT
        )
        self._half_mark = right.axvline(0.0, color="#555555", lw=1.2, animated=True)
        self._half = right.plot([], [], "o", color=red, ms=9, animated=True, zorder=11)[0]
        self.half_axes = right
        return projector_ready(fig)

    def _redraw(self) -> None:
        c = self.curve_values()
        n, value, low, high, half = self._now

        def curves():
            if self._fill is not None:
                self._fill.remove()
            self._fill = self.axes[0].fill_between(
                c["items"],
                c["low"],
                c["high"],
                color=OKABE_ITO["blue"],
                alpha=0.25,
                lw=0,
                animated=True,
                zorder=2,
            )
            self._value_line.set_data(c["items"], c["value"])
            return [self._fill, self._value_line]

        def half_curves():
            self._half_line.set_data(c["items"], c["half_width"])
            self._root_line.set_data(c["items"], c["half_width"][-1] * np.sqrt(STUDY_ITEMS / c["items"]))
            return [self._half_line, self._root_line]

        def marks():
            self._marks[0].set_xdata([n, n])
            self._bar.set_data([n, n], [low, high])
            self._dot.set_data([n], [value])
            return [*self._marks, self._bar, self._dot]

        def half_marks():
            self._half_mark.set_xdata([n, n])
            self._half.set_data([n], [half])
            return [self._half_mark, self._half]

        label = COEFFICIENTS[self.coefficient.value][0]
        across = f"against the number of items rated (across, {FIRST_ITEMS} to {STUDY_ITEMS})"
        alt = (
            f"Figure: line chart of {label} with its 95 % interval as a band that narrows as items are "
            f"added, {across}. Marked: {n} items, {label} {fmt(value)}, interval {fmt(low)} to {fmt(high)}."
        )
        alt_half = (
            f"Figure: line chart of the interval's half-width, falling like 1/sqrt(n), {across}. "
            f"Marked: {n} items, half-width {fmt(half)}."
        )
        self._blit(self._curve_key, curves, marks, alt)
        self._blit(
            self._curve_key, half_curves, half_marks, alt_half, make=self._draw_half, image=self.image_half
        )
