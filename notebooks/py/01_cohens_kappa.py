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
# - a little Python and numpy (arrays, sums, indexing); fractions and proportions;
# - the [start page](00_start_here.ipynb): how exercises and hidden answers work,
#   the notation and the glossary. About 45 minutes.

# %%
import numpy as np

from iaa_teach import Ratings, cohen_kappa, datasets, explain, fmt, interpret, pairwise_cohen, plots, ratings_table
from iaa_teach.course import landis_koch_table, recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data
#
# One row per sentence (an *item*), one column per annotator. $N$ is the
# number of items.

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %% [markdown]
# The labels are kept in the order G < N < P. Internally each label is a number:
# its position in that order (0 = G, 1 = N, 2 = P).

# %%
print(ratings.categories)
codes = ratings.codes  # items x annotators: the same table, as codes
matrix_table(codes[:3], ["1", "2", "3"], ratings.raters, totals=False, corner="item \\ annotator",
             caption="The codes of items 1-3 (0 = G, 1 = N, 2 = P)")

# %% [markdown]
# ## Step 1: the agreement table of A and B
#
# $n_{jk}$ counts the items that A labels $j$ and B labels $k$. Rows are A's
# label, columns B's; the diagonal ($j = k$) holds the items on which they agree.

# %%
a, b = codes[:, 0], codes[:, 1]
table = np.zeros((3, 3), dtype=int)
np.add.at(table, (a, b), 1)  # one count per item, at (A's label, B's label)
matrix_table(table, ratings.categories, corner="A \\ B",
             caption="Agreement table: rows A's label, columns B's label")

# %% [markdown]
# ### Exercise 1: observed agreement, from the table
#
# $P_o$ is the share of the $N$ items on which A and B agree. Read it off the
# table above and write it as a fraction (`"7/20"`) or a decimal with 3
# places, in place of `...`. Then run this cell and the check below it.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("01.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(cohen_kappa(ratings, "A", "B"))["Observed agreement"], "Show the worked answer")

# %% [markdown]
# ## Step 2: observed agreement $P_o$
#
# $$P_o = \frac{1}{N}\sum_j n_{jj} \tag{1}$$

# %%
n_items = table.sum()  # N
p_o = np.trace(table) / n_items
print(f"P_o = {np.trace(table)}/{n_items} = {fmt(p_o)}")

# %% [markdown]
# ## Step 3: each annotator's marginals
#
# $p_{j+}$ is the share of items A puts in category $j$ (row total over $N$),
# $p_{+j}$ the same for B (column total over $N$).

# %%
p_row = table.sum(axis=1) / n_items  # A
p_col = table.sum(axis=0) / n_items  # B
for label, pa, pb in zip(ratings.categories, p_row, p_col):
    print(f"{label}:  A {fmt(pa)}   B {fmt(pb)}")

# %% [markdown]
# A and B do not use the categories equally often: compare their shares of G.
# Cohen's kappa keeps each annotator's own proportions.
#
# ## Step 4: chance agreement $P_e$
#
# If A and B labelled at random, each with their own proportions, they would
# both choose category $j$ with probability $p_{j+}\,p_{+j}$ (two independent
# choices), and agree by chance with probability
#
# $$P_e = \sum_j p_{j+}\, p_{+j} \tag{2}$$

# %%
p_e = np.sum(p_row * p_col)
print(f"P_e = {fmt(p_e)}")

# %% [markdown]
# ## Step 5: kappa
#
# $$\kappa = \frac{P_o - P_e}{1 - P_e} \tag{3}$$
#
# The numerator is the agreement above chance; the denominator is the most
# there could be. $\kappa = 1$ is perfect agreement, $\kappa = 0$ no better
# than chance, and below 0 worse than chance.

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

# %% [markdown]
# ## Naming a kappa: the Landis and Koch bands
#
# Papers often put a kappa into words with the bands of
# [Landis and Koch (1977)](00_start_here.ipynb#Landis-and-Koch-1977). They are a convention for talking about numbers, not a law: the
# authors called their own divisions arbitrary (see the
# [glossary](00_start_here.ipynb#Glossary)).

# %%
landis_koch_table()

# %%
print(f"A and B: kappa = {res:.3f}, in the band '{interpret(res)}'")

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
# ## Exercise 2: chance agreement for A and C, in one line of code
#
# Here is the agreement table of A and C. Complete the line below so that it
# computes their $P_e$ from `table_ac` (hint: Steps 3 and 4), run it, then run
# the check.

# %%
table_ac = np.zeros((3, 3), dtype=int)
np.add.at(table_ac, (codes[:, 0], codes[:, 2]), 1)
matrix_table(table_ac, ratings.categories, corner="A \\ C",
             caption="Agreement table: rows A's label, columns C's label")

# %% tags=["exercise"]
p_e_ac = ...  # e.g. np.sum(...)

# %% tags=["remove-output"]
check("01.2", p_e_ac)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(cohen_kappa(ratings, "A", "C"))["Chance agreement"], "Show the worked answer")

# %% [markdown]
# ## All three pairs
#
# Cohen's kappa compares two annotators at a time. With three there are three pairs.
#
# **Predict first.** A and C disagree on one item, A and B on three, B and C on
# four. Which pair will have the lowest kappa? Is the order of the kappas always
# the order of the $P_o$'s? Decide, then run the next cell.

# %%
pairs = pairwise_cohen(ratings)
for (x, y), r in zip(pairs.pairs, pairs.results):
    print(f"{x} vs {y}: P_o = {fmt(r.exact.p_o)}, P_e = {fmt(r.exact.p_e)}, "
          f"kappa = {r:.3f}  ({interpret(r)})")

# %%
plots.pairwise_bars(pairs)

# %% [markdown]
# ## Why do the pairs differ?
#
# Each pair has its own observed agreement and, through each annotator's own
# marginals, its own chance agreement. Each annotator's proportions of G, N and P:

# %%
shares = np.stack([np.bincount(codes[:, j], minlength=3) / n_items for j in range(3)])
matrix_table(shares, ratings.raters, ratings.categories, totals=False, corner="annotator",
             caption="Share of each annotator's labels in each category")

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
# The full working for every pair follows. Its last step averages the three
# kappas: that mean is called **Light's kappa** (see the
# [glossary](00_start_here.ipynb#Glossary)). It summarises the pairs; it is not
# Fleiss' kappa, the many-annotator coefficient of lesson 02.

# %%
explain(pairs)

# %% [markdown]
# ## Where the text goes wrong
#
# The [code walkthrough](00_start_here.ipynb#The-code-walkthrough)'s caption for this bar chart says that A vs B shows the
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
# - The agreement table of two annotators has their agreements on its diagonal; $P_o$ is their share (formula 1).
# - $P_e$ multiplies **each annotator's own** proportions, category by category, and adds them up (formula 2).
# - $\kappa = (P_o - P_e)/(1 - P_e)$ (formula 3): agreement above chance, as a share of the most possible.
# - Different pairs have different proportions, so different kappas. Keep the exact
#   fractions to the end and round once.
#
# ## Try it yourself
#
# ### Exercise 3: one label changes
#
# Suppose B had labelled item 10 **G** instead of P. Work out by hand the new
# agreement table of A and B, $P_o$, both sets of marginals, $P_e$ and $\kappa$.
#
# **Predict first:** will kappa go up or down, and will $P_e$ change?
# Then write your kappa (fraction or 3 decimals) and check it.

# %%
changed = ratings.rows()
changed[9][1] = "G"  # item 10, annotator B
exercise = Ratings.from_rows(changed, raters=ratings.raters, categories=ratings.categories)

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("01.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
explain(cohen_kappa(exercise, "A", "B")).hidden("Show the worked answer")

# %% [markdown]
# ## Explore it yourself
#
# Change any label in the grid, or make it "–" (missing), and watch $P_o$, $P_e$ and
# $\kappa$ of every pair follow; the figure shows the three pairs. Check
# Exercise 3 by giving item 10 a **G** from B; "reset" brings the worked
# example back. (The controls need a running kernel.) It shows Cohen's kappa
# only; the [playground](09_instructor_playground.ipynb) adds the coefficients
# of the next lessons.

# %%
from iaa_teach.widgets import TableExplorer

TableExplorer(datasets.sentiment(), figure="pairwise kappa", coefficients=("cohen",))

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("01")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("01"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 02: Fleiss' kappa](02_fleiss_kappa.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
