# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,title,jupyter,-all
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
# In real projects annotators cover different parts of the data (**partial
# coverage**, see the [glossary](00_start_here.ipynb#Glossary)). Here five
# annotators label ten items: A, B and C label items 1-8, D labels items 3-8,
# and E labels items 1-6 and 9-10. Items 9 and 10 have a single label each. It
# is tempting to merge D and E into one "annotator" so that the table looks
# fuller. This lesson shows, with numbers, why that is wrong, and computes
# Fleiss' kappa the right way: with each item's own number of ratings $n_i$.
#
# **What you'll learn**
# - to read a coverage chart and count the ratings per item, $n_i$;
# - what merging two annotators does to the answer, and why it is arbitrary;
# - Fleiss' kappa with per-item $n_i$: $P_a$ over items with at least two labels,
#   $P_e$ from all labels, and what items with a single label do to each;
# - the item-mean chance rule and Krippendorff's alpha on the same data.
#
# **What you'll need**
# - lessons 02 (Fleiss' kappa) and 04 (missing ratings). About 40 minutes.
#   The [partial-annotation text](00_start_here.ipynb#The-partial-annotation-text)
#   writes $k$ for $n_i$ (per-item $k$); see the
#   [notation table](00_start_here.ipynb#Notation).

# %%
import numpy as np

from iaa_teach import Ratings, datasets, explain, fleiss_kappa, fmt, krippendorff_alpha, plots, ratings_table
from iaa_teach.course import recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.markup import Table
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data
#
# The partial-annotation text gives no labels, so these are made up for teaching
# (see `iaa_teach.datasets.partial_coverage`). Its count of labels is kept; where
# its E labels items 1-8, this E labels items 1-6 and two items nobody else
# labelled, so that its rule for single-label items can be seen at work.
# `–` marks an item an annotator did not label.

# %%
ratings = datasets.partial_coverage()
ratings_table(ratings)

# %%
plots.coverage_chart(ratings)

# %% [markdown]
# ## Counting the labels
#
# Each item's number of labels is its $n_i$.
#
# ### Exercise 1: how many labels in all?
#
# Count the labels in the table (the
# [partial-annotation text](00_start_here.ipynb#The-partial-annotation-text)'s
# sum: each annotator's number of
# labels). Write a whole number.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("05.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
per_rater = (~ratings.missing).sum(axis=0)
Hidden(Table(["annotator", "labels"], [[r, str(c)] for r, c in zip(ratings.raters, per_rater)]
             + [["all", f"{' + '.join(str(c) for c in per_rater)} = {per_rater.sum()}"]],
             caption="Labels per annotator, then their sum"), "Show the worked answer")

# %%
n_i = (~ratings.missing).sum(axis=1)
print(f"n_i per item (items {ratings.items[0]}-{ratings.items[-1]}):", ", ".join(str(m) for m in n_i))
print(f"{ratings.n_ratings} labels, not {ratings.n_raters} x {ratings.n_items} = {ratings.n_raters * ratings.n_items}")

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
# **Predict first.** D and E label items 3-6 the same, except item 5. Will the
# two merges give the same kappa? Will either give the right answer (all five
# annotators kept)? Every Fleiss number here uses the pooled chance rule.

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
# ## The right way: Fleiss' kappa with per-item $n_i$
#
# Three rules from the partial-annotation text:
#
# 1. $P_i$ uses the item's own $n_i$:
#    $P_i = \dfrac{\sum_j n_{ij}^2 - n_i}{n_i(n_i - 1)}$;
# 2. $P_a$ is the mean of $P_i$ over the items with **at least two** labels: an
#    item with one label has no pair to compare ($0/0$);
# 3. $P_e = \sum_j p_j^2$ with $p_j$ from **all** labels, single-labelled items included.

# %%
counts = ratings.counts()  # items x categories
matrix_table(counts, ratings.items, ratings.categories, corner="item",
             caption="Count table n_ij: rows items, columns categories; row totals n_i")

# %%
pairable = n_i >= 2
p_i = np.full(len(n_i), np.nan)  # no pair, no P_i
p_i[pairable] = ((counts[pairable] ** 2).sum(axis=1) - n_i[pairable]) / (n_i[pairable] * (n_i[pairable] - 1))
for item, k, p in zip(ratings.items, n_i, p_i):
    print(f"item {item:>2}: n_i = {k}, P_i = {fmt(p) if k >= 2 else 'none (a single label)'}")

# %% [markdown]
# ### Exercise 2: mean observed agreement
#
# Compute $P_a$ from the $P_i$ above (a fraction, or 3 decimals).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("05.2", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(right)["Mean observed agreement"], "Show the worked answer")

# %%
p_a = np.nanmean(p_i)
print(f"P_a = {fmt(p_a)}, the mean over {pairable.sum()} of the {len(n_i)} items")

# %% [markdown]
# ### Exercise 3: chance agreement from all the labels
#
# Compute $p_G$, $p_N$, $p_P$ from **all** the labels, then $P_e$.
# **Predict first:** items 9 and 10 add two G's. Does that make $P_e$ larger
# or smaller than $P_e$ from the pairable items alone?

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("05.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(right)["Chance agreement"], "Show the worked answer")

# %% [markdown]
# Now the effect of the rule for single-label items, with numbers: the right
# computation against leaving items 9 and 10 out of $P_e$ as well, and against
# (wrongly) averaging $P_a$ over all ten items:

# %%
p_j = counts.sum(axis=0) / counts.sum()
p_e = np.sum(p_j**2)
p_e_pairable = fleiss_kappa(ratings.subset(items=pairable)).p_e
p_a_all_items = np.nansum(p_i) / len(n_i)
print(f"p_j = {', '.join(f'{c} {fmt(x)}' for c, x in zip(ratings.categories, p_j))} from {counts.sum()} labels")
for name, pa, pe in [("right: P_a over pairable items, P_e from all labels", p_a, p_e),
                     ("single-label items left out of P_e too", p_a, p_e_pairable),
                     ("P_a averaged over all items (wrong)", p_a_all_items, p_e)]:
    print(f"{name:<52} P_a = {fmt(pa)}, P_e = {fmt(pe)}, kappa = {fmt((pa - pe) / (1 - pe))}")

# %% [markdown]
# ## The helper does the same
#
# `fleiss_kappa` always uses per-item $n_i$; with `chance="pooled"` it takes $p_j$
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
# with four labels weighs as much as one with five (and a single label as much
# as either). Krippendorff's alpha weights each item's pairs by $1/(n_i - 1)$,
# leaves single values out altogether (they are not pairable) and draws chance
# pairs without replacement.

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
# - Per-item $n_i$: each item's $P_i$ uses its own number of labels.
# - $P_a$ averages over items with at least two labels; $P_e$ counts every label,
#   single ones included.
# - Merging annotators gives an answer that depends on an arbitrary choice.
#
# ## Try it yourself
#
# ### Exercise 4: D labels fewer items
#
# Suppose D had labelled only items 5-8 (items 3 and 4 left blank as well).
# Count the labels, find each item's $n_i$, and compute $P_a$, $P_e$ (pooled over
# all labels) and Fleiss' kappa by hand. Then check your kappa, as a fraction
# or to **4 decimals**: here a wrong method lands within a thousandth of the
# right answer, so 3 decimals cannot tell them apart.

# %%
rows = ratings.rows()
rows[2][3] = rows[3][3] = None  # D drops items 3 and 4
exercise = Ratings.from_rows(rows, raters=ratings.raters, categories=ratings.categories)

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("05.4", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
explain(fleiss_kappa(exercise, chance="pooled")).hidden("Show the worked answer")

# %% [markdown]
# ## Explore it yourself
#
# Move the first item D labels and the last item E labels, and flip which label
# the merged annotator keeps. Setting D's first item to 5 checks Exercise 4;
# stopping E at item 6 removes the two single-label items. (The controls need a
# running kernel.)

# %%
from iaa_teach.widgets import CoverageExplorer

CoverageExplorer()

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("05")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("05"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 06: models of chance](06_chance_models.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
