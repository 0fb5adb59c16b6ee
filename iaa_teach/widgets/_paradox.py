"""Explorer 2: prevalence and the kappa paradox."""

from __future__ import annotations

import numpy as np

from .. import _plots as plots
from .. import datasets
from .._validation import AgreementError, check_int, check_option
from ..course import alpha_verdict
from ..metrics import brennan_prediger, fleiss_kappa, gwet_ac, krippendorff_alpha
from ._base import (
    Explorer,
    IntSlider,
    band,
    controls_row,
    fmt,
    heading,
    new_figure,
    note,
    projector_ready,
    q,
    rater_sliders,
    slider_layout,
    symbols,
    table,
)

__all__ = ["ParadoxExplorer", "CURVES"]

#: Prevalences at which the curve is drawn, evenly over the slider's whole range.
CURVE_POINTS = 34
#: Curves kept for settings seen lately: a slider moved back shows its curves at once (each set is
#: 34 simulated tables x 4 coefficients, 60-75 ms of CPU).
_KEPT_CURVES = 16
#: The legend's font size (points): up to five entries in one column.
MIN_LEGEND_PT = 9

#: The curves, in drawing order: (key in :meth:`ParadoxExplorer.curve_values`, legend label).
CURVES = (
    ("P_a", "observed agreement P_a"),
    ("kappa", "Fleiss' kappa"),
    ("alpha", "Krippendorff's alpha"),
    ("AC1", "Gwet's AC1"),
    ("S", "Brennan-Prediger S"),
)


class ParadoxExplorer(Explorer):
    """Simulated raters of fixed accuracy; move the prevalence, watch kappa fall.

    Sliders set the number of items and raters, the raters' accuracy (the
    chance of giving an item's true category; a wrong label is one of the
    other categories, uniformly), the number of categories, the prevalence
    of category 1 among the true categories, and the seed
    (:func:`iaa_teach.datasets.simulate`). The readout shows observed
    agreement P_a and, for each coefficient, its chance agreement and its
    value: Fleiss' kappa, Krippendorff's alpha, Gwet's AC1 and Brennan-Prediger S
    (:func:`iaa_teach.brennan_prediger`); the figure shows all five against
    prevalence, with the current setting marked: observed agreement stays
    put while kappa and alpha drop as one category comes to dominate (the
    kappa paradox); AC1 holds up (its chance agreement falls as the
    categories become lopsided) and S, whose chance is 1/q whatever the
    data, follows P_a. Every value is the public metric's, on the same
    simulated table.

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

    ``curves`` chooses the coefficients shown beside P_a (all of
    :data:`CURVES` by default): a lesson that has not met AC1 and S yet
    shows ``curves=("kappa", "alpha")``.

    >>> sorted(ParadoxExplorer(curves=("kappa",)).values())
    ['P_a', 'P_e', 'kappa', 'kappa band']
    """

    title = "Prevalence and the kappa paradox"

    def __init__(
        self,
        n_items: int = 200,
        n_raters: int = 3,
        accuracy: float = 0.85,
        prevalence: float = 0.5,
        n_categories: int = 2,
        seed: int = 0,
        curves: tuple[str, ...] = ("kappa", "alpha", "AC1", "S"),
        font_size: str | None = None,
    ):
        super().__init__(font_size)
        n_items = check_int("n_items", n_items, 10, 1000)
        n_raters = check_int("n_raters", n_raters, 2, 10)
        self.accuracy, self.prevalence = rater_sliders(accuracy, prevalence)
        n_categories = check_int("n_categories", n_categories, 2, 5)
        seed = check_int("seed", seed, 0, 99)
        choices = tuple(key for key, _ in CURVES[1:])
        curves = (curves,) if isinstance(curves, str) else tuple(curves)
        for name in curves:
            check_option("curves", name, choices)
        if not curves:
            raise AgreementError(f"curves: name at least one of {choices}")
        self._shown = tuple((key, label) for key, label in CURVES if key == "P_a" or key in curves)
        lay = slider_layout()  # the sliders update on release (continuous_update is False)
        self.n_items = IntSlider(value=n_items, min=10, max=1000, step=10, description="items", layout=lay)
        self.n_raters = IntSlider(value=n_raters, min=2, max=10, description="raters", layout=lay)
        self.n_categories = IntSlider(value=n_categories, min=2, max=5, description="categories", layout=lay)
        self.seed = IntSlider(value=seed, min=0, max=99, description="seed", layout=lay)
        self._curve_key = None
        self._curves: dict = {}  # the curves of the last few settings, by setting
        self._finish(
            [
                controls_row(self.n_items, self.n_raters, self.n_categories),
                controls_row(self.accuracy, self.prevalence, self.seed),
            ],
            watch=(self.n_items, self.n_raters, self.accuracy, self.n_categories, self.prevalence, self.seed),
        )

    def clear_cache(self) -> None:
        """Forget the figures and the kept curves: the next update with new curves computes them again."""
        super().clear_cache()
        self._curves.clear()

    def _simulate(self, prevalence: float):
        return datasets.simulate(
            self.n_items.value,
            self.n_raters.value,
            accuracy=self.accuracy.value,
            prevalence=prevalence,
            n_categories=self.n_categories.value,
            seed=self.seed.value,
        )

    def curve_values(self) -> dict[str, np.ndarray]:
        """P_a, kappa, alpha, AC1 and S over a grid of prevalences (cached per setting).

        Each point is the public metrics (:func:`~iaa_teach.fleiss_kappa`,
        :func:`~iaa_teach.krippendorff_alpha`, :func:`~iaa_teach.gwet_ac`,
        :func:`~iaa_teach.brennan_prediger`) on the table simulated at that
        prevalence.
        """
        key = (
            self.n_items.value,
            self.n_raters.value,
            self.accuracy.value,
            self.n_categories.value,
            self.seed.value,
        )
        if key != self._curve_key:
            curve = self._curves.pop(key, None)  # a setting seen lately (a slider moved back): kept
            if curve is None:
                grid = np.linspace(self.prevalence.min, self.prevalence.max, CURVE_POINTS)
                points = [self._coefficients(self._simulate(float(prevalence))) for prevalence in grid]
                curve = {"prevalence": grid}
                curve.update({name: np.array([float(res[name]) for res in points]) for name, _ in CURVES})
            self._curves[key] = self._curve = curve
            while len(self._curves) > _KEPT_CURVES:
                self._curves.pop(next(iter(self._curves)))
            self._curve_key = key
        return self._curve

    @staticmethod
    def _coefficients(r) -> dict:
        """Each curve's result on ``r``: P_a is Fleiss' (the same for every coefficient of the family)."""
        fl = fleiss_kappa(r)
        return {
            "P_a": fl.p_a,
            "kappa": fl,
            "alpha": krippendorff_alpha(r),
            "AC1": gwet_ac(r),
            "S": brennan_prediger(r),
        }

    def _compute(self) -> str:
        r = self._simulate(self.prevalence.value)
        self.ratings = r
        self._results = self._coefficients(r)
        fl, al, ac, s = (self._results[k] for k in ("kappa", "alpha", "AC1", "S"))
        props = ", ".join(f"{c}: {fmt(p, 2)}" for c, p in zip(r.categories, fl.exact.p_j))
        shown = {key for key, _ in self._shown}
        rows = [[symbols("observed agreement P_a"), "", q("P_a", fmt(fl.exact.p_a)), ""]]
        rows += [
            row
            for key, row in (
                (
                    "kappa",
                    [
                        "Fleiss' kappa",
                        q("P_e", fmt(fl.exact.p_e)),
                        q("kappa", fmt(fl.exact.kappa)),
                        q("kappa band", band(fl.kappa)),
                    ],
                ),
                (
                    "alpha",
                    [
                        "Krippendorff's alpha",
                        q("alpha 1 - D_e", fmt(1 - al.exact.d_e)),
                        q("alpha", fmt(al.exact.alpha)),
                        q("alpha verdict", alpha_verdict(al.alpha)),
                    ],
                ),
                (
                    "AC1",
                    [
                        "Gwet's AC1",
                        q("AC1 P_e", fmt(ac.exact.p_e)),
                        q("AC1", fmt(ac.exact.ac)),
                        q("AC1 band", band(ac.ac)),
                    ],
                ),
                (
                    "S",
                    [
                        "Brennan-Prediger S",
                        q("S P_e", fmt(s.exact.p_e)),
                        q("S", fmt(s.exact.s)),
                        q("S band", band(s.s)),
                    ],
                ),
            )
            if key in shown
        ]
        parts = [
            heading(f"{r.n_items} items x {r.n_raters} raters, prevalence {fmt(self.prevalence.value, 2)}"),
            table(
                [
                    "",
                    "chance P_e",
                    "value",
                    "band" + (" (alpha: Krippendorff's guidance)" if "alpha" in shown else ""),
                ],
                rows,
            ),
            note(f"label proportions {props}"),
        ]
        parts += [
            note(self._results[key].reason, "iaa-why")
            for key, _ in self._shown[1:]
            if self._results[key].reason
        ]
        parts.append(
            note(
                "Accuracy is fixed, so P_a hardly moves. "
                + ("Kappa's and alpha's" if "alpha" in shown else "Kappa's")
                + " chance agreement grows as one category dominates, so (P_a - P_e) / (1 - P_e) falls"
                + ("; AC1's chance agreement shrinks instead" if "AC1" in shown else "")
                + (", and S's is 1/q whatever the data, so S moves with P_a alone" if "S" in shown else "")
                + "."
            )
        )
        n = int(al.n)
        if {"kappa", "alpha"} <= shown:
            parts.append(
                note(
                    f"Alpha and kappa differ only by the factor (n - 1)/n: 1 - alpha = (1 - kappa)(n - 1)/n "
                    f"with n = {n} ratings, so their curves lie on top of each other "
                    f"(alpha: hollow circles on kappa's line). For alpha the chance column shows 1 - D_e."
                )
            )
        return "".join(parts)

    @property
    def figure(self):
        """The matplotlib figure on show, kept between updates (see :meth:`_blit`)."""
        return self._blit_figure

    def _draw(self):
        """The figure: axes, labels and legend, and the curves and markers as animated artists (see :meth:`_blit`)."""
        c = self.curve_values()
        # narrow and tall, to stand beside the controls in a small window
        fig, (ax,) = new_figure(3.1, 3.6, left=0.18, right=0.96, bottom=0.42, top=0.88)
        plots.paradox_curve(c["prevalence"], {label: c[key] for key, label in self._shown}, ax=ax)
        ax.set_title("Same raters, one category\ndominating: kappa falls", fontsize=10)
        ax.set_xlabel("prevalence of category 1")
        # up to five curves: the legend in one column below the axes, clear of the curves and the axis label
        ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.45, -0.2),
            ncols=1,
            fontsize=MIN_LEGEND_PT,
            frameon=False,
            handlelength=3,
            labelspacing=0.25,
        )
        self._lines = ax.get_lines()[: len(self._shown)]
        for line in self._lines:
            line.set_animated(True)  # left out of the static picture: drawn over it when the curves change
        self._vline = ax.axvline(0.0, color="#555555", lw=1.5, animated=True)
        self._dots = [
            ax.plot([], [], "o", color=line.get_color(), ms=10, zorder=10, animated=True)[0]
            for line in self._lines
        ]
        self.axes = ax
        return projector_ready(fig)

    def _redraw(self) -> None:
        c = self.curve_values()
        x = self.prevalence.value
        values = [float(self._results[key]) for key, _ in self._shown]

        def curves():
            for line, (key, _) in zip(self._lines, self._shown):
                line.set_data(c["prevalence"], c[key])
            return self._lines

        def marks():
            self._vline.set_xdata([x, x])
            for dot, y in zip(self._dots, values):
                dot.set_data([x], [y])
            return [self._vline, *self._dots]

        shown = ", ".join(f"{key} {fmt(v)}" for (key, _), v in zip(self._shown, values))
        names = [label for _, label in self._shown]
        keys = {key for key, _ in self._shown}
        falls = " and ".join(k for k in ("kappa", "alpha") if k in keys)
        behaviour = (
            [
                f"{falls} fall{'s' if ' and ' not in falls else ''} as the prevalence moves away from balance "
                f"while P_a stays level"
            ]
            if falls
            else ["P_a stays level"]
        )
        behaviour += ["AC1 stays near P_a"] * ("AC1" in keys) + ["S follows P_a"] * ("S" in keys)
        alt = (
            f"Figure: line chart of {', '.join(names[:-1])} and {names[-1]} (up) against the prevalence of "
            f"category 1 (across, {fmt(self.prevalence.min, 2)} to {fmt(self.prevalence.max, 2)}); "
            f"{', '.join(behaviour)}. Marked: prevalence {fmt(x, 2)}, {shown}."
        )
        self._blit(self._curve_key, curves, marks, alt)
