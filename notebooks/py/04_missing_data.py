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
# # Handle missing ratings: what each coefficient does with a gap
#
# Real annotation tables have holes. Here two ratings of the sentiment example
# are removed, as in the [code walkthrough](00_start_here.ipynb#The-code-walkthrough): annotator B's label for item 3 and annotator C's label for item 8.
# How do alpha, Cohen's kappa and Fleiss' kappa cope?
#
# **What you'll learn**
# - why alpha handles gaps naturally (the $1/(n_i - 1)$ weight), and what goes wrong without it;
# - what Cohen's kappa does (drops items pair by pair);
# - what Fleiss' kappa does with a per-item number of raters, under each chance rule;
# - what dropping every incomplete item does.
#
# **What you'll need**
# - lessons 01-03. About 40 minutes. Symbols: see the
#   [notation table](00_start_here.ipynb#Notation).

# %%
from fractions import Fraction

import numpy as np

from iaa_teach import Ratings, datasets, fleiss_kappa, krippendorff_alpha, pairwise_cohen
from iaa_teach import explain, fmt, plots, ratings_table
from iaa_teach.course import recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data, with gaps
#
# `–` marks a missing rating.

# %%
complete = datasets.sentiment()
ratings = datasets.sentiment_missing()
ratings_table(ratings)

# %%
plots.coverage_chart(ratings)

# %% [markdown]
# ## Krippendorff's alpha with gaps
#
# Nothing changes in the method: items 3 and 8 now hold $n_i = 2$ values, so
# their pairs are weighted by $1/(2 - 1)$ instead of $1/(3 - 1)$, and every value
# still counts once.
#
# ### Exercise 1: pairable values with gaps
#
# How many pairable values $n$ does the table with gaps have? Write a whole number.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("04.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(krippendorff_alpha(ratings))["Pairable values"], "Show the worked answer")

# %% [markdown]
# **Predict first.** Both removed ratings were on unanimous items. Will alpha
# with the gaps be above or below alpha on the complete table (lesson 03)? Decide,
# then work it out: each item's $n_i$, the coincidence matrix with the gaps, $D_o$,
# $D_e$ and alpha.

# %%
counts = ratings.counts()
n_i = counts.sum(axis=1)
print(f"values per item n_i (items {ratings.items[0]}-{ratings.items[-1]}):", ", ".join(str(m) for m in n_i))
weighted = counts / (n_i - 1)[:, None]
o = weighted.T @ counts - np.diag(weighted.sum(axis=0))
n_c, n = o.sum(axis=1), o.sum()
matrix_table(o, ratings.categories, caption="Coincidence matrix o_ck with the gaps (row totals n_c, grand total n)")

# %%
d_o = (n - np.trace(o)) / n
d_e = (n**2 - np.sum(n_c**2)) / (n * (n - 1))
print(f"D_o = {fmt(d_o)}, D_e = {fmt(d_e)}, alpha = {fmt(1 - d_o / d_e)}")

# %% [markdown]
# Check with the helper, beside alpha on the complete table:

# %%
alpha = krippendorff_alpha(ratings)
alpha_complete = krippendorff_alpha(complete)
print(f"alpha with gaps {alpha:.3f} (exact {alpha.exact.alpha}),  "
      f"complete data {alpha_complete:.3f}")

# %%
explain(alpha)

# %% [markdown]
# ## The text's alpha for this table, and why it is wrong
#
# The [code walkthrough](00_start_here.ipynb#The-code-walkthrough) prints a different number for this table. Its function
# counts every ordered pair once, with no $1/(n_i - 1)$ weight, and takes
# $D_e = 1 - \sum_c p_c^2$. Reproduced:

# %%
def text_alpha(r):
    """The code walkthrough's 'alpha': unweighted pairs, D_e = 1 - sum of p_c^2."""
    pairs = krippendorff_alpha(r).pair_counts  # every ordered pair counted once
    p = pairs.sum(axis=1) / pairs.sum()
    return 1 - (1 - np.trace(pairs) / pairs.sum()) / (1 - np.sum(p**2))


# %%
alpha_text = text_alpha(ratings)
as_fraction = Fraction(alpha_text).limit_denominator(100)
print(f"the text's function: {fmt(alpha_text)} (= {as_fraction})")
print(f"Krippendorff's alpha: {alpha:.3f}")

# %% [markdown]
# Without the weight, an item's share of the pairs grows with the square of its
# size: an item with three values gives six ordered pairs, an item with two gives
# two. Per value, the full items count more than the gapped ones:

# %%
for size in sorted(set(n_i.tolist()), reverse=True):
    unweighted = size * (size - 1)
    weighted = unweighted / (size - 1)
    print(f"item with {size} values: "
          f"{unweighted} pairs unweighted ({fmt(unweighted / size, 0)} per value), "
          f"{fmt(weighted, 0)} weighted ({fmt(weighted / size, 0)} per value)")

# %% [markdown]
# The text also says alpha "remains stable" with the two ratings gone. Its own
# numbers do not show that; the right ones do:

# %%
print(f"the text:  complete {fmt(text_alpha(complete))} -> with gaps {fmt(alpha_text)}")
print(f"correct:   complete {alpha_complete:.3f} -> with gaps {alpha:.3f}")

# %% [markdown]
# ## Cohen's kappa: item by item, pair by pair
#
# A pair of annotators can only be compared on items both of them rated. Each
# pair drops the items where either rating is missing, so different pairs use
# different items.
#
# ### Exercise 2: which items does a pair use?
#
# On how many items can Cohen's kappa compare B and C? Write a whole number.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("04.2", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(pairwise_cohen(ratings))["B vs C"], "Show the worked answer")

# %%
pairs_cohen = pairwise_cohen(ratings)
for (x, y), r in zip(pairs_cohen.pairs, pairs_cohen.results):
    print(f"{x} vs {y}: {r.n_items} items used, {r.n_dropped} dropped, kappa = {r:.3f}")

# %%
explain(pairs_cohen)

# %% [markdown]
# ## Fleiss' kappa with a per-item number of raters
#
# The [code walkthrough](00_start_here.ipynb#The-code-walkthrough) says Fleiss'
# kappa cannot handle missing data. It can: use each item's own number of
# ratings $n_i$ in
# $P_i = \left(\sum_j n_{ij}^2 - n_i\right) / \left(n_i(n_i - 1)\right)$, as the
# [partial-annotation text](00_start_here.ipynb#The-partial-annotation-text) does. $P_a$ is unchanged by the gaps here (items 3 and 8
# were unanimous and still are). The chance term depends on the rule:
#
# - **pooled**: $p_j$ = share of all ratings in category $j$ (the partial-annotation text's rule);
# - **item mean**: $p_j$ = mean over items of $n_{ij}/n_i$ (the rule in the Cambridge
#   [MLRD notes](00_start_here.ipynb#The-MLRD-notes) and in
#   [Gwet's handbook](00_start_here.ipynb#Gwet-2014)): every item weighs the same.

# %%
pooled = fleiss_kappa(ratings, chance="pooled")
item_mean = fleiss_kappa(ratings, chance="item_mean")
for res in (pooled, item_mean):
    print(f"chance rule {res.chance:>9}: P_a = {fmt(res.exact.p_a)}, P_e = {fmt(res.exact.p_e)}, "
          f"kappa = {res:.3f} (exact {res.exact.kappa})")
print(f"complete data (both rules): kappa = {fleiss_kappa(complete):.3f}")

# %%
explain(pooled)

# %% [markdown]
# With the item-mean rule, the two gapped items keep their full weight in the
# proportions, and kappa does not move from the complete-data value; with the
# pooled rule, the two missing ratings shift the proportions a little.
#
# ## Dropping every incomplete item
#
# The blunt alternative (**listwise deletion**, see the
# [glossary](00_start_here.ipynb#Glossary)): keep only items rated by everyone.
#
# **Predict first.** The two items it drops were unanimous. What happens to
# Fleiss' kappa and to alpha?

# %%
keep = ~ratings.missing.any(axis=1)
listwise = ratings.subset(items=keep)
print("items kept:", list(listwise.items))
print(f"Fleiss' kappa (pooled chance) {fleiss_kappa(listwise):.3f},  "
      f"alpha {krippendorff_alpha(listwise):.3f}")

# %% [markdown]
# Both items dropped were unanimous: throwing them away throws away agreement,
# and both coefficients fall.
#
# ## Everything side by side

# %%
plots.coefficients_with_bands({
    "alpha\ncomplete": alpha_complete,
    "alpha\nwith gaps": alpha,
    "Fleiss\npooled": pooled,
    "Fleiss\nitem mean": item_mean,
    "Fleiss\nlistwise": fleiss_kappa(listwise),
    "alpha\nlistwise": krippendorff_alpha(listwise),
}, title="Two ratings missing: what each method gives")

# %% [markdown]
# ## Recap
#
# - Alpha weights each item's pairs by $1/(n_i - 1)$, so every value counts once,
#   however many values share its item. Drop the weight and bigger items dominate.
# - Cohen's kappa compares a pair on the items both rated: each pair its own item set.
# - Fleiss' kappa works with per-item $n_i$; name the chance rule, because with
#   gaps the rules give different numbers.
# - Dropping incomplete items discards information, here agreement.
#
# ## Try it yourself
#
# ### Exercise 3: one more gap
#
# Remove one more rating: annotator A's label for item 5 (N, so item 5 keeps
# B's P and C's N). **Predict first:** does alpha go up or down? Then compute
# Krippendorff's alpha by hand (the $n_i$, the coincidence matrix, $n$, $D_o$,
# $D_e$) and check it.

# %%
rows = ratings.rows()
rows[4][0] = None  # item 5, annotator A
exercise = Ratings.from_rows(rows, raters=ratings.raters, categories=ratings.categories)

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("04.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
explain(krippendorff_alpha(exercise)).hidden("Show the worked answer")


# %% [markdown]
# ## Explore it yourself
#
# Remove more ratings at random (the seed fixes which ones) and compare alpha with
# the gaps, Fleiss' kappa under both chance rules and listwise deletion against the
# complete data. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import MissingDataExplorer

MissingDataExplorer()

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("04")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("04"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 05: partial coverage](05_partial_coverage.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
