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
# # Measure agreement among three or more annotators: Fleiss' kappa
#
# Cohen's kappa compares two annotators. Fleiss' kappa takes all of them at once:
# for each item it asks how many pairs of annotators agree, averages that over
# the items, and compares it with what chance would give.
#
# **What you'll learn**
# - the items $\times$ categories count table $n_{ij}$ and each item's number of ratings $n_i$;
# - agreement on one item, $P_i$, and its mean $P_a$;
# - the category proportions $p_j$, chance agreement $P_e$, and Fleiss' kappa;
# - Scott's pi, the two-annotator case, and why you round only at the end.
#
# **What you'll need**
# - lesson 01 (Cohen's kappa): $P_o$, $P_e$ and $\kappa = (P_o - P_e)/(1 - P_e)$;
# - a little numpy. About 45 minutes. Symbols: see the
#   [notation table](00_start_here.ipynb#Notation).

# %%
from fractions import Fraction

import numpy as np

from iaa_teach import Ratings, cohen_kappa, datasets, explain, fleiss_kappa, fmt, interpret, pairwise_cohen
from iaa_teach import plots, ratings_table
from iaa_teach.course import recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.rounding import round_half_up
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data
#
# The same ten sentences and three annotators as in lesson 01.

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %% [markdown]
# ## Step 1: the count table
#
# $n_{ij}$ is how many annotators put item $i$ in category $j$. Each row sums
# to $n_i$, the item's number of ratings (here the same for every item:
# [Fleiss (1971)](00_start_here.ipynb#Fleiss-1971) writes $n$). Who said what
# no longer matters, only how many.

# %%
codes = ratings.codes  # 0 = G, 1 = N, 2 = P
counts = (codes[:, :, None] == np.arange(3)).sum(axis=1)  # items x categories
matrix_table(counts, ratings.items, ratings.categories, corner="item",
             caption="Count table n_ij: rows items, columns categories; row totals n_i")

# %% [markdown]
# ## Step 2: agreement on one item, $P_i$
#
# Take item 2, labelled P, P, N. Its three annotators form $3 \times 2 = 6$
# *ordered* pairs (A-B and B-A count separately). Which agree? Only the two
# P's, once in each order: 2 of the 6 pairs. So $P_2 = 2/6$.
#
# In general a category chosen $n_{ij}$ times gives $n_{ij}(n_{ij} - 1)$
# agreeing ordered pairs, out of $n_i(n_i - 1)$:
#
# $$P_i = \frac{\sum_j n_{ij}(n_{ij} - 1)}{n_i(n_i - 1)} = \frac{\sum_j n_{ij}^2 - n_i}{n_i(n_i - 1)} \tag{1}$$
#
# (the second form is how the [worked example](00_start_here.ipynb#The-worked-example) writes it).
#
# ### Exercise 1: $P_i$ of item 10
#
# Item 10 is labelled G, P, G. Write its $P_i$ as a fraction, then check.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("02.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(fleiss_kappa(ratings), items=ratings.items)["Agreement on each item"], "Show the worked answer")

# %% [markdown]
# Now every item:

# %%
n_i = counts.sum(axis=1)
p_i = ((counts**2).sum(axis=1) - n_i) / (n_i * (n_i - 1))
for item, row, p in zip(ratings.items, counts, p_i):
    shown = ", ".join(f"{label} {n}" for label, n in zip(ratings.categories, row))
    print(f"item {item:>2}: {shown}   P_i = {fmt(p)}")

# %% [markdown]
# Only two values occur: one for the unanimous items, one for the 2-1 splits.
# A small slip in the worked example: for item 2 it writes the bracket
# $2^2 + 1^2 + 0 - 3$ as $3$, but it is

# %%
row = counts[1]  # item 2
print(f"sum of squares - n_i = {(row**2).sum()} - {n_i[1]} = {(row**2).sum() - n_i[1]}, "
      f"so P_2 = {(row**2).sum() - n_i[1]}/{n_i[1] * (n_i[1] - 1)} = {fmt(p_i[1])}")

# %% [markdown]
# Its final value for item 2 is right; only the middle fraction is wrong.
#
# ## Step 3: mean observed agreement $P_a$
#
# $$P_a = \frac{1}{N}\sum_i P_i \tag{2}$$
#
# (The worked example calls this $P_o$ too; here $P_o$ is kept for two annotators.)

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
# $p_j$ is the share of all ratings that fall in category $j$: a column total
# of the count table over the grand total. Two ratings drawn at random agree
# with probability
#
# $$P_e = \sum_j p_j^2 \tag{3}$$
#
# Unlike Cohen's $P_e$, this pools all annotators: one set of proportions for everyone.
#
# ### Exercise 2: the proportions, in one line of code
#
# Complete the line so that `p_j` holds the three proportions $p_G, p_N, p_P$,
# computed from `counts`. Then check.

# %% tags=["exercise"]
p_j = ...  # e.g. counts.sum(axis=...) / ...

# %% tags=["remove-output"]
check("02.2", p_j)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(res)["Category proportions"], "Show the worked answer")

# %%
p_j = counts.sum(axis=0) / counts.sum()
p_e = np.sum(p_j**2)
print("p_j:", ", ".join(f"{label} {fmt(p)}" for label, p in zip(ratings.categories, p_j)))
print(f"P_e = {fmt(p_e)}")

# %% [markdown]
# ## Step 5: Fleiss' kappa
#
# $$\kappa = \frac{P_a - P_e}{1 - P_e} \tag{4}$$

# %%
kappa = (p_a - p_e) / (1 - p_e)
print(f"kappa = ({fmt(p_a)} - {fmt(p_e)}) / (1 - {fmt(p_e)}) = {fmt(kappa)}")

# %% [markdown]
# ## The helper does the same
#
# `fleiss_kappa` takes a *chance rule*. `"pooled"` (used above) takes the
# proportions over all ratings; `"item_mean"` averages each item's own
# proportions. With every item rated by every annotator they coincide; they part
# ways when ratings are missing (lesson 04).

# %%
item_mean = fleiss_kappa(ratings, chance="item_mean")
print(f"by hand:               {fmt(kappa)}")
print(f"chance rule pooled:    {res:.3f}  exact {res.exact.kappa}")
print(f"chance rule item_mean: {item_mean:.3f}  exact {item_mean.exact.kappa}")
print(f"Landis and Koch band:  {interpret(res)}")

# %% [markdown]
# ## Two annotators: Scott's pi
#
# Fleiss' kappa for just two annotators is a coefficient of its own,
# **Scott's pi** (see the [glossary](00_start_here.ipynb#Glossary)). It differs
# from Cohen's kappa only in chance agreement: one pooled set of proportions
# instead of each annotator's own.
#
# **Predict first.** A uses G twice, B once. Pooling their proportions makes
# chance agreement larger or smaller than Cohen's? So is Scott's pi above or
# below Cohen's kappa for A and B?

# %%
a_and_b = ratings.subset(raters=["A", "B"])
scott = fleiss_kappa(a_and_b)
cohen = cohen_kappa(ratings, "A", "B")
print(f"Scott's pi (A, B): P_e = {fmt(scott.exact.p_e)}, π = {scott:.3f}")
print(f"Cohen's kappa:     P_e = {fmt(cohen.exact.p_e)}, kappa = {cohen:.3f}")

# %% [markdown]
# ## Round at the end, not on the way
#
# The worked example computes Fleiss' kappa of this table too, and rounds on the way.
#
# **Predict first.** It rounds each $P_i$ to three decimals, then $P_a$ and
# $P_e$, and only then divides. Can that move the third decimal of the answer?
#
# Here is its calculation, rounding (half up, as by hand) where it rounds:

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
print(f"exact: {res.exact.kappa} = {res:.3f}")

# %% [markdown]
# The exact sum of the $P_i$ is a fraction whose decimals never end; cutting
# each split item's value to three decimals loses a little four times over, and
# dividing by $1 - P_e$ stretches the loss. Keep fractions (or full precision) until the
# last step, then round once.
#
# Do not confuse the text's number with lesson 01's **Light's kappa**, the mean
# of the three pairwise Cohen's kappas. On this data it happens to round to the
# same three decimals; it is a different coefficient:

# %%
pairs = pairwise_cohen(ratings)
print(f"Light's kappa (mean of the pairs' Cohen's kappas): {fmt(pairs.exact.mean_kappa)}")
print(f"the text's rounded Fleiss' kappa:                  {fmt(kappa_text)}")
print(f"Fleiss' kappa:                                     {res:.3f}")

# %% [markdown]
# The whole calculation, the way to lay it out on paper (its last line is the rounding
# you have just seen):

# %%
explain(res)

# %% [markdown]
# ## When kappa is undefined
#
# If every rating is in one category, $P_e = 1$ and kappa is $0/0$. The code in
# the [code walkthrough](00_start_here.ipynb#The-code-walkthrough) returns 0 there, as if agreement were merely at chance level. It
# is not a number at all:

# %%
all_same = Ratings.from_rows([["P", "P", "P"]] * 4)
undefined = fleiss_kappa(all_same)
print(f"kappa = {fmt(undefined)}")
print(undefined.reason)

# %% [markdown]
# ## Recap
#
# - Count, per item, how many annotators chose each category: $n_{ij}$; the row total is $n_i$.
# - $P_i$ is the share of agreeing ordered pairs on item $i$ (formula 1); $P_a$ their mean (formula 2).
# - $P_e = \sum_j p_j^2$ from the pooled category proportions (formula 3); then
#   $\kappa = (P_a - P_e)/(1 - P_e)$ (formula 4), as for Cohen. With two annotators this is Scott's pi.
# - Name the chance rule when you report a Fleiss number, and round only at the end.
#
# ## Try it yourself
#
# ### Exercise 3: a unanimous item 10
#
# Suppose annotator B had labelled item 10 **G**, so that all three agree on it.
# **Predict first:** which of $P_a$ and $P_e$ changes, and in which direction?
# Then work out the new $P_i$ of item 10, $P_a$, the proportions, $P_e$ and
# $\kappa$ by hand, with exact fractions, and check your kappa.

# %%
changed = ratings.rows()
changed[9][1] = "G"  # item 10, annotator B
exercise = Ratings.from_rows(changed, raters=ratings.raters, categories=ratings.categories)

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("02.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
explain(fleiss_kappa(exercise, chance="pooled")).hidden("Show the worked answer")

# %% [markdown]
# ## Explore it yourself: prevalence and the kappa paradox
#
# Chance agreement $P_e = \sum_j p_j^2$ depends only on how the labels spread over
# the categories. The explorer leaves the sentiment example for simulated data:
# annotators of fixed accuracy label items whose categories are simply numbered
# 1, 2, ... (two by default). Move the prevalence of category 1 (how common it
# is) and watch $P_e$ grow and kappa fall while the observed agreement $P_a$
# stays where it was: the **kappa paradox** (see the
# [glossary](00_start_here.ipynb#Glossary)). Lesson 06 comes back to this
# explorer with more coefficients. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import ParadoxExplorer

ParadoxExplorer(curves=("kappa",))

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("02")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("02"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 03: Krippendorff's alpha](03_krippendorff_alpha.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
