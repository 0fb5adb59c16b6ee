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
# # Measure agreement among three or more annotators: Fleiss' kappa
#
# Cohen's kappa compares two annotators. Fleiss' kappa takes all of them at once:
# for each item it asks how many pairs of annotators agree, averages that over
# the items, and compares it with what chance would give.
#
# **What you'll learn**
# - the items $\times$ categories count table $n_{ij}$;
# - agreement on one item, $P_i$, and its mean $P_a$;
# - the category proportions $p_j$, chance agreement $P_e$, and Fleiss' kappa;
# - why you round only at the end (the worked example's answer is off by one in the third decimal).
#
# **What you'll need**
# - notebook 01 (Cohen's kappa): $P_o$, $P_e$ and $\kappa = (P_o - P_e)/(1 - P_e)$;
# - a little numpy.

# %%
import numpy as np

from iaa_teach import Ratings, datasets, explain, fleiss_kappa, fmt, interpret, plots, ratings_table
from iaa_teach.rounding import round_half_up

# %% [markdown]
# ## The data
#
# The same ten sentences and three annotators as in notebook 01.

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %% [markdown]
# ## Step 1: the count table
#
# $n_{ij}$ is how many annotators put item $i$ in category $j$. Each row sums to
# the number of annotators, $n$. Who said what no longer matters, only how many.

# %%
codes = ratings.codes  # 0 = G, 1 = N, 2 = P
counts = (codes[:, :, None] == np.arange(3)).sum(axis=1)  # items x categories
n_raters = counts.sum(axis=1)[0]
print("categories:", ratings.categories, " annotators per item:", n_raters)
counts

# %% [markdown]
# ## Step 2: agreement on each item, $P_i$
#
# Of the $n(n - 1)$ ordered pairs of annotators on item $i$, the share that agree:
#
# $$P_i = \frac{1}{n(n - 1)}\left(\sum_j n_{ij}^2 - n\right)$$
#
# ($\sum_j n_{ij}(n_{ij} - 1)$ agreeing pairs, written the way the text writes it.)

# %%
p_i = ((counts**2).sum(axis=1) - n_raters) / (n_raters * (n_raters - 1))
for item, row, p in zip(ratings.items, counts, p_i):
    print(f"item {item:>2}: counts {row}  P_i = {fmt(p)}")

# %% [markdown]
# Only two values occur: one for the unanimous items, one for the 2-1 splits.
# A small slip in the worked example: for item 2 it writes the bracket
# $2^2 + 1^2 + 0 - 3$ as $3$, but it is

# %%
row = counts[1]  # item 2
print(f"sum of squares - n = {(row**2).sum()} - {n_raters} = {(row**2).sum() - n_raters}, "
      f"so P_2 = {(row**2).sum() - n_raters}/{n_raters * (n_raters - 1)} = {fmt(p_i[1])}")

# %% [markdown]
# Its final value for item 2 is right; only the middle fraction is wrong.
#
# ## Step 3: mean observed agreement $P_a$
#
# $$P_a = \frac{1}{N}\sum_i P_i$$

# %%
p_a = p_i.mean()
print(f"P_a = {fmt(p_i.sum(), 4)} / {len(p_i)} = {fmt(p_a)}")

# %% [markdown]
# The picture: unanimous items against split items, and their mean.

# %%
res = fleiss_kappa(ratings, chance="pooled")
plots.item_agreement_bars(res)

# %% [markdown]
# ## Step 4: category proportions and chance agreement $P_e$
#
# $p_j$ is the share of all ratings that fall in category $j$. Two ratings drawn
# at random agree with probability
#
# $$P_e = \sum_j p_j^2$$
#
# Unlike Cohen's $P_e$, this pools all annotators: one set of proportions for everyone.

# %%
p_j = counts.sum(axis=0) / counts.sum()
for label, p in zip(ratings.categories, p_j):
    print(f"p_{label} = {fmt(p)}")
p_e = np.sum(p_j**2)
print(f"P_e = {fmt(p_e)}")

# %% [markdown]
# ## Step 5: Fleiss' kappa
#
# $$\kappa = \frac{P_a - P_e}{1 - P_e}$$

# %%
kappa = (p_a - p_e) / (1 - p_e)
print(f"kappa = ({fmt(p_a)} - {fmt(p_e)}) / (1 - {fmt(p_e)}) = {fmt(kappa)}")

# %% [markdown]
# ## The helper does the same
#
# `fleiss_kappa` takes a chance rule. `"pooled"` (used above) takes the
# proportions over all ratings; `"item_mean"` averages each item's own
# proportions. With every item rated by every annotator they coincide; they part
# ways when ratings are missing (notebook 04).

# %%
pooled = fleiss_kappa(ratings, chance="pooled")
item_mean = fleiss_kappa(ratings, chance="item_mean")
print(f"by hand:               {fmt(kappa)}")
print(f"chance rule pooled:    {pooled:.3f}  exact {pooled.exact.kappa}")
print(f"chance rule item_mean: {item_mean:.3f}  exact {item_mean.exact.kappa}")
print(f"Landis and Koch band:  {interpret(pooled)}")

# %% [markdown]
# The whole calculation, the way to lay it out on paper:

# %%
explain(pooled)

# %% [markdown]
# ## Round at the end, not on the way
#
# The worked example gets a different third decimal. It rounds each $P_i$ to
# three decimals, then $P_a$ and $P_e$, and only then divides. Here is its
# calculation, rounding (half up, as by hand) where it rounds:

# %%
p_i_text = [round_half_up(p, 3) for p in p_i]  # each split item written as 0.333
print(f"sum of the rounded P_i: {fmt(sum(p_i_text))}")
p_a_text = round_half_up(sum(p_i_text) / len(p_i), 3)
p_e_text = round_half_up(sum(round_half_up(p, 3) ** 2 for p in p_j), 3)
print(f"P_a = {fmt(p_a_text)}, P_e = {fmt(p_e_text)}")

# %%
top, bottom = round_half_up(p_a_text - p_e_text, 3), round_half_up(1 - p_e_text, 3)
kappa_text = top / bottom
print(f"text:  {fmt(top)} / {fmt(bottom)} = {fmt(kappa_text)}")
print(f"exact: {pooled.exact.kappa} = {pooled:.3f}")

# %% [markdown]
# The exact sum of the $P_i$ is a fraction whose decimals never end; cutting
# each split item's value to three decimals loses a little four times over, and
# dividing by $1 - P_e$ stretches the loss. Keep fractions (or full precision) until the
# last step, then round once.
#
# ## When kappa is undefined
#
# If every rating is in one category, $P_e = 1$ and kappa is $0/0$. The code in
# the text returns 0 there, as if agreement were merely at chance level. It
# is not a number at all:

# %%
all_same = Ratings.from_rows([["P", "P", "P"]] * 4)
undefined = fleiss_kappa(all_same)
print(f"kappa = {undefined.kappa}")
print(undefined.reason)

# %% [markdown]
# ## Recap
#
# - Count, per item, how many annotators chose each category: $n_{ij}$.
# - $P_i$ is the share of agreeing pairs on item $i$; $P_a$ their mean.
# - $P_e = \sum_j p_j^2$ from the pooled category proportions; then
#   $\kappa = (P_a - P_e)/(1 - P_e)$, as for Cohen.
# - Name the chance rule when you report a Fleiss number, and round only at the end.
#
# ## Try it yourself
#
# Suppose annotator B had labelled item 10 **G**, so that all three agree on it.
# Work out the new $P_i$ of item 10, $P_a$, the category proportions, $P_e$ and
# $\kappa$ by hand, with exact fractions. Then open the answer.

# %% tags=["solution"]
changed = ratings.rows()
changed[9][1] = "G"  # item 10, annotator B
exercise = Ratings.from_rows(changed, raters=ratings.raters, categories=ratings.categories)
explain(fleiss_kappa(exercise, chance="pooled")).hidden("Show the worked answer")


# %% [markdown]
# ## Explore it yourself
#
# Chance agreement $P_e = \sum_j p_j^2$ depends only on how the labels spread over
# the categories. The explorer simulates annotators of fixed accuracy: move the
# prevalence of category 1 and watch $P_e$ grow and kappa fall while the observed
# agreement $P_a$ stays where it was. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import ParadoxExplorer

ParadoxExplorer()
