"""Explorer 5: weights (Cohen) and levels of measurement (alpha) on the same data."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import numpy as np

from .. import _plots as plots
from .. import datasets
from .._validation import check_option
from ..course import alpha_verdict
from ..metrics import cohen_kappa, krippendorff_alpha
from ..ratings import Ratings
from ._base import (
    Explorer,
    attempt,
    band,
    controls_row,
    fmt,
    heading,
    image_widget,
    label_style,
    new_figure,
    note,
    numeric_categories,
    projector_ready,
    readout_row,
    table,
    with_ratings,
)

__all__ = ["WeightsExplorer", "scored"]

WEIGHT_NAMES = {"unweighted": None, "linear": "linear", "quadratic": "quadratic"}
ALPHA_LEVELS = ("nominal", "ordinal", "interval")


def scored(ratings: Ratings) -> Ratings:
    """``ratings`` with its categories replaced by their ranks 1, 2, ..., k.

    Interval alpha needs numbers; ordered labels (G < N < P) get the scores
    1, 2, 3 in their category order. Numeric categories are kept as they are.
    """
    if numeric_categories(ratings.categories):
        return ratings
    return Ratings.from_codes(
        ratings.codes, range(1, ratings.n_categories + 1), ratings.raters, ratings.items
    )


class WeightsExplorer(Explorer):
    """Nominal, ordinal and interval alpha; unweighted, linear and quadratic kappa.

    All six numbers on the current data, with the chosen level's squared
    distances delta^2 (alpha) and the chosen weights' agreement weights w_jk
    (Cohen; 1 on the diagonal, as lesson 03 writes them) drawn as matrices. Ordered labels are scored 1..k for the
    interval level (see :func:`scored`).

    Parameters
    ----------
    ratings : Ratings or table, optional
        Default: the sentiment example. Its category order is the order the
        ordinal level and the weights use.
    a, b : str
        The pair of raters for Cohen's kappa.
    levels, kappa_weights : sequence of str
        The alpha levels (of :data:`ALPHA_LEVELS`) and Cohen weights (of
        :data:`WEIGHT_NAMES`) offered, all by default; lesson 03, which teaches
        nominal and ordinal alpha and unweighted kappa, offers only those.

    Examples
    --------
    >>> ex = WeightsExplorer()
    >>> ex.values()["alpha nominal"], ex.values()["kappa unweighted"]
    ('0.578', '0.492')
    """

    title = "Weights and levels: how far apart are two labels?"

    def __init__(
        self,
        ratings: Any = None,
        a: Any = 0,
        b: Any = 1,
        level: str = "ordinal",
        weights: str = "linear",
        font_size: str | None = None,
        levels: Any = ALPHA_LEVELS,
        kappa_weights: Any = tuple(WEIGHT_NAMES),
    ):
        super().__init__(font_size)
        self.levels = tuple(check_option("levels", x, ALPHA_LEVELS) for x in levels)
        self.kappa_weights = tuple(check_option("kappa_weights", x, WEIGHT_NAMES) for x in kappa_weights)
        check_option("level", level, self.levels)
        # None and "unweighted" both mean unweighted kappa; only the weights offered are allowed
        offered = [WEIGHT_NAMES[k] for k in self.kappa_weights]
        check_option("weights", weights, offered + (["unweighted"] if None in offered else []))
        s = label_style()
        self.data = with_ratings(ratings, datasets.sentiment)
        r = self.data
        raters = list(r.raters)
        self.rater_a = w.Dropdown(
            options=raters, value=r.raters[r.rater_index(a)], description="rater 1", style=s
        )
        self.rater_b = w.Dropdown(
            options=raters, value=r.raters[r.rater_index(b)], description="rater 2", style=s
        )
        self.level = w.ToggleButtons(options=self.levels, value=level, description="alpha level", style=s)
        self.weights = w.ToggleButtons(
            options=list(self.kappa_weights),
            value="unweighted" if weights is None else weights,
            description="Cohen weights",
            style=s,
        )
        self.image_weights = image_widget()
        self._finish(
            [controls_row(self.rater_a, self.rater_b), self.level, self.weights],
            images=[self.image, self.image_weights],
            watch=(self.rater_a, self.rater_b, self.level, self.weights),
            views=("alpha distances", "Cohen weights"),
        )

    def set_ratings(self, ratings: Any) -> None:
        """Use another table (keeps the chosen raters if they exist there)."""
        self.data = with_ratings(ratings, datasets.sentiment)
        self._busy = True
        try:
            names = list(self.data.raters)
            a = self.rater_a.value if self.rater_a.value in names else names[0]
            b = self.rater_b.value if self.rater_b.value in names else names[1]
            self.rater_a.options, self.rater_b.options = names, names
            self.rater_a.value, self.rater_b.value = a, b
        finally:
            self._busy = False
        self.update()

    def _compute(self) -> str:
        r = self.data
        numbers = scored(r)
        self._alphas = {}
        rows = []
        for level in self.levels:
            res, why = attempt(krippendorff_alpha, numbers if level == "interval" else r, level=level)
            self._alphas[level] = res
            rows.append(
                readout_row(
                    level,
                    [f"{x} {level}" for x in ("alpha D_o", "alpha D_e", "alpha", "alpha verdict")],
                    None
                    if res is None
                    else [
                        fmt(res.exact.d_o),
                        fmt(res.exact.d_e),
                        fmt(res.exact.alpha),
                        alpha_verdict(res.alpha),
                    ],
                )
            )
        parts = [
            heading("Krippendorff's alpha, all raters"),
            table(
                ["level", "D_o", "D_e", "alpha", "Krippendorff's guidance"],
                rows,
                chosen=lambda i: self.levels[i] == self.level.value,
            ),
        ]
        if "interval" in self.levels and not numeric_categories(r.categories):
            scores = ", ".join(f"{c} = {i + 1}" for i, c in enumerate(r.categories))
            parts.append(note(f"interval level: labels scored {scores}"))

        a, b = self.rater_a.value, self.rater_b.value
        self._kappas = {}
        rows, whys = [], []
        if a == b:
            whys.append("choose two different raters for Cohen's kappa")
        for name, weights in WEIGHT_NAMES.items():
            if name not in self.kappa_weights:
                continue
            res, why = (None, None) if a == b else attempt(cohen_kappa, r, a, b, weights=weights)
            self._kappas[name] = res
            rows.append(
                readout_row(
                    name,
                    [f"{x} {name}" for x in ("P_o", "P_e", "kappa", "kappa band")],
                    None
                    if res is None
                    else [fmt(res.exact.p_o), fmt(res.exact.p_e), fmt(res.exact.kappa), band(res.kappa)],
                )
            )
            whys.append(why if res is None else res.reason)
        parts += [
            heading(f"Cohen's kappa, {a} vs {b}"),
            table(
                ["weights", "P_o", "P_e", "kappa", "Landis-Koch band"],
                rows,
                chosen=lambda i: self.kappa_weights[i] == self.weights.value,
            ),
        ]
        parts += [note(x, "iaa-why") for x in dict.fromkeys(whys) if x]
        if set(self.kappa_weights) - {"unweighted"}:
            parts.append(
                note(
                    "Weighted P_o and P_e give partial credit: agreement weights w_jk, "
                    "1 for the same label, 0 for the farthest two."
                )
            )
        return "".join(parts)

    def _redraw(self) -> None:
        categories = self.data.categories
        level, weights = self.level.value, self.weights.value
        alpha, kappa = self._alphas[level], self._kappas[weights]
        # on two lines: "Cohen, unweighted: agreement weight w_jk" on one would run past the figure's edge
        for image, name, result, title in (
            (self.image, "alpha", alpha, f"alpha, {level}:\nsquared distance"),
            (self.image_weights, "cohen", kappa, f"Cohen, {weights}:\nagreement weight w_jk"),
        ):
            if result is None:
                continue
            # alpha's distances; kappa's agreement weights as exact fractions (1/2, 3/4, as lesson 03's tables)
            m = result.delta if name == "alpha" else np.asarray(result.exact.agreement_weights, dtype=object)
            # a setting shown before: its picture, kept; else the cells and title over the kept frame
            self._show_kept_or_live(
                image,
                (name, title, np.asarray(m, dtype=float).tobytes(), categories),
                (name, categories),
                lambda m=m, title=title: self._matrix(m, title),
                lambda fig, m=m, title=title: plots.set_distance_matrix(fig.axes[0], m, title),
                alt=self._alt(m, title.replace("\n", " ")),
            )

    def _alt(self, matrix, title: str) -> str:
        """What a distance matrix (0 on the diagonal, its largest cell and where) or an agreement weight
        matrix (1 on the diagonal, its smallest cell and where) shows."""
        cats = [str(c) for c in self.data.categories]
        m = np.asarray(matrix, dtype=float)
        weights = bool(np.all(np.diag(m) == 1))
        i, j = np.unravel_index(int(np.argmin(m) if weights else np.argmax(m)), m.shape)
        if i > j:
            i, j = j, i
        return (
            f"Figure: {title}, a {len(cats)} x {len(cats)} matrix of the labels: "
            f"{'1' if weights else '0'} on the diagonal, the {'smallest' if weights else 'largest'}, "
            f"{int(m[i, j]) if m[i, j] == int(m[i, j]) else fmt(m[i, j])}, between {cats[i]} and {cats[j]}."
        )

    def _matrix(self, matrix, title: str):
        fig, (ax,) = new_figure(
            3.1, 3.1, left=0.19, right=0.97, bottom=0.16, top=0.84
        )  # a title of two lines
        plots.distance_matrix(matrix, self.data.categories, title=title, ax=ax)
        for artist in plots.set_distance_matrix(ax, matrix, title):
            artist.set_animated(True)  # drawn over the kept frame (:meth:`_show_live`)
        return projector_ready(fig)
