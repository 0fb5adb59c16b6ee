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
# # Measure how far two annotators agree beyond chance: Cohen's kappa
#
# Three annotators, A, B and C, read the same ten sentences and label each one
# Positive (**P**), Neutral (**N**) or Negative (**G**). How much do two of them
# agree, once we allow for the agreement they would reach by luck alone?
#
# **What you'll learn**
# - to build the agreement table of two annotators and read it;
# - observed agreement $P_o$, each annotator's marginals, chance agreement $P_e$;
# - Cohen's kappa, $\kappa = \dfrac{P_o - P_e}{1 - P_e}$, by hand and with the helper;
# - why the three pairs A-B, A-C and B-C give different kappas.
#
# **What you'll need**
# - a little Python and numpy (arrays, sums, indexing);
# - fractions and proportions. Nothing else: every step is shown.

# %%
import numpy as np

from iaa_teach import Ratings, cohen_kappa, datasets, fleiss_kappa, interpret, pairwise_cohen
from iaa_teach import explain, fmt, plots, ratings_table

# %% [markdown]
# ## The data
#
# One row per sentence (item), one column per annotator.

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %% [markdown]
# The labels are kept in the order G < N < P. Internally each label is a number:
# its position in that order.

# %%
print(ratings.categories)
codes = ratings.codes  # items x raters, 0 = G, 1 = N, 2 = P
codes[:3]

# %% [markdown]
# ## Step 1: the agreement table of A and B
#
# $n_{jk}$ counts the items that A labels $j$ and B labels $k$. The diagonal
# ($j = k$) holds the items on which they agree.

# %%
a, b = codes[:, 0], codes[:, 1]
table = np.zeros((3, 3), dtype=int)
np.add.at(table, (a, b), 1)  # one count per item, at (A's label, B's label)
table

# %% [markdown]
# ## Step 2: observed agreement $P_o$
#
# $$P_o = \frac{1}{N}\sum_j n_{jj}$$
#
# the share of the $N$ items on the diagonal.

# %%
n = table.sum()
p_o = np.trace(table) / n
print(f"P_o = {np.trace(table)}/{n} = {fmt(p_o)}")

# %% [markdown]
# ## Step 3: each annotator's marginals
#
# $p_{j+}$ is the share of items A puts in category $j$ (row totals over $N$),
# $p_{+j}$ the same for B (column totals over $N$).

# %%
p_row = table.sum(axis=1) / n  # A
p_col = table.sum(axis=0) / n  # B
for label, pa, pb in zip(ratings.categories, p_row, p_col):
    print(f"{label}:  A {fmt(pa)}   B {fmt(pb)}")

# %% [markdown]
# A and B do not use the categories equally often: compare their shares of G.
# Cohen's kappa keeps each annotator's own base rates.
#
# ## Step 4: chance agreement $P_e$
#
# If A and B labelled at random, each with their own proportions, they would
# agree on category $j$ with probability $p_{j+}\,p_{+j}$:
#
# $$P_e = \sum_j p_{j+}\, p_{+j}$$

# %%
p_e = np.sum(p_row * p_col)
print(f"P_e = {fmt(p_e)}")

# %% [markdown]
# ## Step 5: kappa
#
# $$\kappa = \frac{P_o - P_e}{1 - P_e}$$
#
# The numerator is the agreement above chance; the denominator is the most
# there could be. $\kappa = 1$ is perfect agreement, $\kappa = 0$ no better than chance.

# %%
kappa = (p_o - p_e) / (1 - p_e)
print(f"kappa = ({fmt(p_o)} - {fmt(p_e)}) / (1 - {fmt(p_e)}) = {fmt(kappa)}")

# %% [markdown]
# ## The helper does the same
#
# `cohen_kappa` returns a result object holding every intermediate value, and
# `.exact` holds them as fractions. `fmt(x)` and `f"{res:.3f}"` round to three
# decimals the way you do by hand: from the exact value, halves up.

# %%
res = cohen_kappa(ratings, "A", "B")
print(f"helper {res:.3f}, by hand {fmt(kappa)}, same: {np.isclose(res.kappa, kappa)}")
print(f"exact: P_o = {res.exact.p_o}, P_e = {res.exact.p_e}, kappa = {res.exact.kappa}")
print(f"Landis and Koch band: {interpret(res)}")

# %% [markdown]
# `explain` writes the whole calculation out the way you would on paper:
# formula, numbers put in, the exact fraction and its value to three decimals.

# %%
explain(res)

# %% [markdown]
# ## The picture
#
# The agreement table as a heatmap; the diagonal (agreement) is outlined.

# %%
plots.agreement_heatmap(res)

# %% [markdown]
# ## All three pairs
#
# Cohen's kappa compares two annotators at a time. With three there are three pairs.

# %%
pairs = pairwise_cohen(ratings)
for (x, y), r in zip(pairs.pairs, pairs.results):
    print(f"{x} vs {y}: kappa = {r:.3f}  ({interpret(r)})")

# %% [markdown]
# Here they are beside Fleiss' kappa for all three annotators at once (the next
# notebook). The legend names the chance rule Fleiss' kappa uses.

# %%
fleiss = fleiss_kappa(ratings, chance="pooled")
plots.pairwise_bars(pairs, reference=fleiss)

# %% [markdown]
# ## Why do the pairs differ?
#
# Each pair has its own observed agreement and, through each annotator's own
# marginals, its own chance agreement.

# %%
for (x, y), r in zip(pairs.pairs, pairs.results):
    print(f"{x} vs {y}: P_o = {fmt(r.exact.p_o)}, P_e = {fmt(r.exact.p_e)}, kappa = {r:.3f}")

# %% [markdown]
# Each annotator's own proportions of G, N and P, which set $P_e$:

# %%
shares = np.stack([np.bincount(codes[:, j], minlength=3) / n for j in range(3)])
for rater, row in zip(ratings.raters, shares):
    print(rater, "  ".join(f"{c} {fmt(p)}" for c, p in zip(ratings.categories, row)))

# %% [markdown]
# On which items is each annotator the odd one out (the other two agree, they don't)?

# %%
for j, rater in enumerate(ratings.raters):
    others = np.delete(codes, j, axis=1)
    odd = (others[:, 0] == others[:, 1]) & (codes[:, j] != others[:, 0])
    items = [str(ratings.items[i]) for i in np.flatnonzero(odd)]
    print(f"{rater} is the odd one out on: {', '.join(items) or 'no item'}")

# %% [markdown]
# A and C label almost alike, so their kappa is high. B is the odd one out most
# often, so both pairs with B score lower.
#
# The full working for every pair:

# %%
explain(pairs)

# %% [markdown]
# ## Where the text goes wrong
#
# The code walkthrough's caption for this bar chart says that A vs B shows the
# lowest agreement of the three pairs. The numbers say otherwise:

# %%
lowest = int(np.argmin(pairs.kappas))
x, y = pairs.pairs[lowest]
print(f"lowest pair: {x} vs {y}, kappa = {pairs.results[lowest]:.3f}")
print(f"A vs B:      kappa = {pairs['A', 'B']:.3f}")

# %% [markdown]
# B vs C is the lowest. The walkthrough's code also calls `cohen_kappa_score`
# (from scikit-learn) without importing it, so it does not run as printed; the
# helper here needs no import beyond `iaa_teach`.
#
# ## Recap
#
# - The agreement table of two annotators has their agreements on its diagonal; $P_o$ is their share.
# - $P_e$ multiplies **each annotator's own** proportions, category by category, and adds them up.
# - $\kappa = (P_o - P_e)/(1 - P_e)$: agreement above chance, as a share of the most possible.
# - Different pairs have different base rates, so different kappas. Keep the exact
#   fractions to the end and round once.
#
# ## Try it yourself
#
# Suppose B had labelled item 10 **G** instead of P. Work out by hand the new
# agreement table of A and B, $P_o$, both sets of marginals, $P_e$ and $\kappa$.
# Then run the cell below and open the worked answer.

# %% tags=["solution"]
changed = ratings.rows()
changed[9][1] = "G"  # item 10, annotator B
exercise = Ratings.from_rows(changed, raters=ratings.raters, categories=ratings.categories)
explain(cohen_kappa(exercise, "A", "B")).hidden("Show the worked answer")


# %% [markdown]
# ## Explore it yourself
#
# Change any label in the grid, or make it "missing", and watch $P_o$, $P_e$ and
# $\kappa$ of every pair follow; the figure shows the three pairs beside Fleiss'
# kappa. Check the exercise above by giving item 10 a **G** from B; "reset" brings
# the worked example back. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import TableExplorer

TableExplorer(datasets.sentiment(), figure="pairwise kappa")
