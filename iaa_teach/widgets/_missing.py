"""Explorer 3: remove ratings at random, compare what each method makes of it."""

from __future__ import annotations

from typing import Any

from .. import datasets
from .._markup import attr_escape
from .._validation import check_int, check_number, check_option
from ..metrics import LEVELS, fleiss_kappa, krippendorff_alpha
from ..ratings import Ratings
from ._base import (
    Explorer,
    FloatSlider,
    IntSlider,
    attempt,
    controls_row,
    fmt,
    heading,
    note,
    q,
    readout_row,
    slider_layout,
    table,
    with_ratings,
)

__all__ = ["MissingDataExplorer"]


def gaps_table(r: Ratings, max_items: int = 30) -> str:
    """The table with its gaps, items across and raters down (small tables only)."""
    if r.n_items > max_items:
        return note(f"({r.n_items} items: the table itself is not shown)")
    rows = r.rows()
    head = "".join(f'<th scope="col">{attr_escape(item)}</th>' for item in r.items)
    body = "".join(
        f'<tr><th scope="row">{attr_escape(rater)}</th>'
        + "".join(
            "<td style='background:#eee'>&ndash;</td>"
            if row[j] is None
            else f"<td>{attr_escape(row[j])}</td>"
            for row in rows
        )
        + "</tr>"
        for j, rater in enumerate(r.raters)
    )
    return (
        f'<table class="iaa-readout iaa-gaps"><thead><tr><th scope="col">item</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


class MissingDataExplorer(Explorer):
    """A slider removes a share of the ratings (seeded); four methods answer.

    Rows of the readout: the complete table; the table with ratings removed,
    where Krippendorff's alpha uses every pairable value and Fleiss' kappa
    uses a per-item number of raters under each chance rule (pooled
    proportions over all ratings; mean of per-item proportions); and
    listwise deletion (only the items every rater labelled). The readout
    shows the table with its gaps, the figure the coefficients over the bands.

    With the same seed, a larger share removes the same ratings and more
    (:func:`iaa_teach.datasets.remove_ratings`).

    Parameters
    ----------
    ratings : Ratings or table, optional
        The complete table (default: the sentiment example). Never modified.
    share : float
        Initial share of ratings removed.
    seed : int
    level : str
        Level of measurement for alpha.

    Examples
    --------
    >>> ex = MissingDataExplorer()
    >>> ex.values()["alpha complete"]
    '0.578'
    >>> ex.share.value = 0.2
    >>> ex.values()["removed"]
    '6 of 30'
    """

    title = "Missing data: what each method does with gaps"

    def __init__(
        self,
        ratings: Any = None,
        share: float = 0.0,
        seed: int = 0,
        level: str = "nominal",
        font_size: str | None = None,
    ):
        super().__init__(font_size)
        share = check_number("share", share, 0.0, 0.9)
        seed = check_int("seed", seed, 0, 99)
        self.complete = with_ratings(ratings, datasets.sentiment)
        self.level = check_option("level", level, LEVELS)
        self.share = FloatSlider(
            value=share,
            min=0.0,
            max=0.9,
            step=0.05,
            description="share of ratings removed",
            layout=slider_layout("30em"),
            readout=".0%",
        )
        self.seed = IntSlider(value=seed, min=0, max=99, description="seed", layout=slider_layout())
        alpha, fleiss, mean = self._coefficients(self.complete)
        self._complete_results = (
            alpha,
            fleiss,
            mean if fleiss is None else fleiss,
        )  # no gaps: one chance rule
        self._finish([controls_row(self.share, self.seed)], watch=(self.share, self.seed))

    def _coefficients(self, data: Ratings | None) -> tuple:
        """Alpha, Fleiss' kappa (pooled) and Fleiss' kappa (item mean) on ``data``, each None where undefined."""
        if data is None:
            return None, None, None
        return (
            attempt(krippendorff_alpha, data, level=self.level)[0],
            attempt(fleiss_kappa, data)[0],
            attempt(fleiss_kappa, data, chance="item_mean")[0],
        )

    def _compute(self) -> str:
        full = self.complete
        r = datasets.remove_ratings(full, self.share.value, seed=self.seed.value)
        self.ratings = r
        complete = ~r.missing.any(axis=1)
        self.listwise = full.subset(items=complete) if complete.any() else None
        self._rows, rows = {}, []
        for name, data, (alpha, fleiss, mean) in (
            ("complete", full, self._complete_results),
            ("with gaps", r, self._coefficients(r)),
            ("listwise", self.listwise, self._coefficients(self.listwise)),
        ):
            self._rows[name] = {
                "alpha": None if alpha is None else alpha.alpha,
                "Fleiss pooled": None if fleiss is None else fleiss.kappa,
                "Fleiss item mean": None if mean is None else mean.kappa,
            }
            n_items = "0" if data is None else str(int((data.ratings_per_item() >= 2).sum()))
            rows.append(
                readout_row(
                    name,
                    [f"{x} {name}" for x in ("alpha", "Fleiss pooled", "Fleiss item mean", "items used")],
                    [
                        fmt(None if alpha is None else alpha.exact.alpha),
                        fmt(None if fleiss is None else fleiss.exact.kappa),
                        fmt(None if mean is None else mean.exact.kappa),
                        n_items,
                    ],
                )
            )
        removed = full.n_ratings - r.n_ratings
        parts = [
            heading(f"{self.level} alpha and Fleiss' kappa"),
            table(["data", "alpha", "Fleiss (pooled)", "Fleiss (item mean)", "items used"], rows),
            f'<div class="iaa-note">ratings removed: {q("removed", f"{removed} of {full.n_ratings}")}</div>',
            note(
                "with gaps: alpha uses every item with 2 or more ratings; Fleiss uses a per-item number "
                "of raters, with chance from pooled proportions over all ratings or from the mean of "
                "per-item proportions. listwise: only items that every rater labelled."
            ),
        ]
        parts.append(gaps_table(r))
        if self.listwise is None:
            parts.append(note("listwise deletion leaves no item: every item lost a rating", "iaa-why"))
        return "".join(parts)

    def _redraw(self) -> None:
        values = {f"alpha\n{name}": cells["alpha"] for name, cells in self._rows.items()}
        gaps = self._rows["with gaps"]
        values["Fleiss\npooled"] = gaps["Fleiss pooled"]
        values["Fleiss\nitem mean"] = gaps["Fleiss item mean"]
        title = f"{self.level} alpha;\nFleiss' kappa on the data with gaps"
        self._show_bands(values, title, 3.1, 3.4, left=0.19, right=0.69, bottom=0.3, top=0.86)
