# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,title,-all
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Combine annotators who labelled different items
#
# In real projects annotators cover different parts of the data. Here five
# annotators label eight items: A, B and C label all of them, E labels all of
# them too, and D labels only items 3-8. It is tempting to merge D and E into
# one "annotator" so that the table looks complete. This notebook shows, with
# numbers, why that is wrong, and computes Fleiss' kappa the right way: with a
# per-item number of raters.
#
# **What you'll learn**
# - to read a coverage chart and count the ratings per item (the per-item $k$);
# - what merging two annotators does to the answer, and why it is arbitrary;
# - Fleiss' kappa with per-item $k$: $P_a$ over items with at least two labels,
#   $P_e$ from all labels;
# - the item-mean chance rule and Krippendorff's alpha on the same data.
#
# **What you'll need**
# - notebooks 02 (Fleiss' kappa) and 04 (missing ratings).

# %%
import numpy as np

from iaa_teach import Ratings, datasets, explain, fleiss_kappa, fmt, krippendorff_alpha, plots, ratings_table

# %% [markdown]
# ## The data
#
# The partial-annotation text gives no labels, so these are made up for teaching
# (see `iaa_teach.datasets.partial_coverage`). `–` marks an item an annotator did not label.

# %%
ratings = datasets.partial_coverage()
ratings_table(ratings)

# %%
plots.coverage_chart(ratings)

# %% [markdown]
# ## Counting the labels
#
# Each item's number of labels is its $k$. The total is not
# (annotators $\times$ items): D skipped two items.

# %%
k_per_item = (~ratings.missing).sum(axis=1)
print("k per item:", dict(zip(ratings.items, k_per_item.tolist())))
per_rater = (~ratings.missing).sum(axis=0)
terms = " + ".join(f"{r} {c}" for r, c in zip(ratings.raters, per_rater))
print(f"{terms} = {per_rater.sum()} labels")
print(f"not {ratings.n_raters} x {ratings.n_items} = {ratings.n_raters * ratings.n_items}")

# %% [markdown]
# ## Why merging D and E is wrong
#
# Merging makes one pseudo-annotator "D+E" out of two people. Where both labelled
# an item, one label must go, and nothing says which. Try both choices:

# %%
def merge_d_and_e(r, keep):
    """A, B, C and one merged column: `keep`'s label where both labelled, else the other's."""
    d, e = r.raters.index("D"), r.raters.index("E")
    first, second = (d, e) if keep == "D" else (e, d)
    merged = [row[first] if row[first] is not None else row[second] for row in r.rows()]
    rows = [row[:3] + [label] for row, label in zip(r.rows(), merged)]
    return Ratings.from_rows(rows, raters=["A", "B", "C", "D+E"], categories=r.categories)


# %%
keep_d = merge_d_and_e(ratings, keep="D")
keep_e = merge_d_and_e(ratings, keep="E")
ratings_table(keep_d, caption="Merged, keeping D's label where both labelled")

# %% [markdown]
# The helper has the same merge as a method of `Ratings` (the widgets and the
# exam questions use it), so you need not write it again:

# %%
same = [ratings.merge_raters("D", "E", keep=k, name="D+E") for k in ("D", "E")]
print("helper gives the same tables:", same == [keep_d, keep_e])

# %% [markdown]
# The right answer, computed below, keeps all five annotators. Side by side
# (every Fleiss number with its chance rule):

# %%
right = fleiss_kappa(ratings, chance="pooled")
for name, r in [("merged, keep D's label", keep_d), ("merged, keep E's label", keep_e),
                ("all five kept (right)", ratings)]:
    print(f"{name:<24} Fleiss' kappa (pooled chance) = {fleiss_kappa(r):.3f}")

# %% [markdown]
# The two merges disagree with each other and with the right answer. The choice
# of which label to throw away is arbitrary, and it moves the result. Merging
# also mixes two people's judgements (made under different conditions) into one
# "rater", and throws away real ratings: the agreement between D and E on the
# items both labelled is lost.
#
# ## The right way: Fleiss' kappa with per-item $k$
#
# Three rules from the partial-annotation text:
#
# 1. $P_i$ uses the item's own $k_i$:
#    $P_i = \dfrac{\sum_j n_{ij}^2 - k_i}{k_i(k_i - 1)}$;
# 2. $P_a$ is the mean of $P_i$ over the items with at least two labels;
# 3. $P_e = \sum_j p_j^2$ with $p_j$ from **all** labels, single-labelled items included.

# %%
counts = ratings.counts()  # items x categories
k_i = counts.sum(axis=1)
p_i = ((counts**2).sum(axis=1) - k_i) / (k_i * (k_i - 1))
for item, row, k, p in zip(ratings.items, counts, k_i, p_i):
    print(f"item {item}: counts {row}, k = {k}, P_i = {fmt(p)}")

# %%
pairable = k_i >= 2
p_a = p_i[pairable].mean()
p_j = counts.sum(axis=0) / counts.sum()
p_e = np.sum(p_j**2)
print(f"P_a = {fmt(p_a)} over {pairable.sum()} items")
shares = ", ".join(f"{c} {fmt(x)}" for c, x in zip(ratings.categories, p_j))
print(f"p_j = {shares} from {counts.sum()} labels")
print(f"P_e = {fmt(p_e)}, kappa = {fmt((p_a - p_e) / (1 - p_e))}")

# %% [markdown]
# ## The helper does the same
#
# `fleiss_kappa` always uses per-item $k$; with `chance="pooled"` it takes $p_j$
# from all labels, as above.

# %%
print(f"helper {right:.3f} (exact {right.exact.kappa}), "
      f"{right.n_ratings} labels, {right.n_items_used} items in P_a")
explain(right)

# %%
plots.item_agreement_bars(right)

# %% [markdown]
# ## Other rules on the same data
#
# The item-mean chance rule averages each item's own proportions, so an item
# with four labels weighs as much as one with five. Krippendorff's alpha weights
# each item's pairs by $1/(k_i - 1)$ and draws chance pairs without replacement.

# %%
item_mean = fleiss_kappa(ratings, chance="item_mean")
alpha = krippendorff_alpha(ratings)
print(f"Fleiss' kappa, pooled chance:    {right:.3f}")
print(f"Fleiss' kappa, item-mean chance: {item_mean:.3f}")
print(f"Krippendorff's alpha (nominal):  {alpha:.3f}")

# %%
plots.coefficients_with_bands({
    "Fleiss\npooled": right,
    "Fleiss\nitem mean": item_mean,
    "alpha\nnominal": alpha,
    "merged\nkeep D": fleiss_kappa(keep_d),
    "merged\nkeep E": fleiss_kappa(keep_e),
}, title="Partial coverage: the right methods against merging")

# %% [markdown]
# ## Recap
#
# - Keep every annotator as a separate column; leave the gaps as gaps.
# - Per-item $k$: each item's $P_i$ uses its own number of labels.
# - $P_a$ averages over items with at least two labels; $P_e$ counts every label.
# - Merging annotators gives an answer that depends on an arbitrary choice.
#
# ## Try it yourself
#
# Suppose D had labelled only items 5-8 (items 3 and 4 left blank as well).
# Count the labels, find each item's $k$, and compute $P_a$, $P_e$ (pooled over
# all labels) and Fleiss' kappa by hand. Then open the answer.

# %% tags=["solution"]
rows = ratings.rows()
rows[2][3] = rows[3][3] = None  # D drops items 3 and 4
exercise = Ratings.from_rows(rows, raters=ratings.raters, categories=ratings.categories)
explain(fleiss_kappa(exercise, chance="pooled")).hidden("Show the worked answer")


# %% [markdown]
# ## Explore it yourself
#
# Move the first item D labels and the last item E labels, and flip which label
# the merged annotator keeps. Setting D's first item to 5 checks the exercise
# above. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import CoverageExplorer

CoverageExplorer()
