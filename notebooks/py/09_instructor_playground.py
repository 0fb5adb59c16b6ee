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
# # Change the data, watch every coefficient respond: the instructor's playground
#
# Six explorers, one call each. Every control recomputes Cohen's kappa,
# Fleiss' kappa, Krippendorff's alpha and the other coefficients of the family
# with the `iaa_teach` helper and redraws the matching figure, fast enough to use
# live in a lecture.
#
# **What you'll do**
# - edit the sentiment example cell by cell and see each pair's kappa, every
#   item's $P_i$, Fleiss' kappa and alpha follow;
# - make one category dominate and watch kappa fall while agreement stays put
#   (the kappa paradox), while Gwet's AC1 and Brennan-Prediger S behave differently;
# - remove ratings and compare what alpha, Fleiss' kappa (under both chance rules)
#   and listwise deletion make of the gaps;
# - move who labelled what, and see why merging two annotators gives a wrong answer;
# - compare nominal, ordinal and interval alpha, and unweighted, linear and quadratic kappa;
# - add items to a simulated study and watch the 95 % interval narrow.
#
# **What you'll learn**
# - which parts of each formula react to which change in the data;
# - how much a single label, a skewed category or a missing rating can move a coefficient;
# - how many items it takes before a coefficient is worth quoting.
#
# **What you'll need**
# - notebooks 01-07 (the explorers use their formulas and figures);
# - a running kernel: the controls do nothing in a static copy of this page.
#
# **In class.** Run all cells, then zoom the browser (Ctrl and +) until the back
# row can read the numbers, and close the side panel with *Ctrl+B* (*View >
# Appearance > Show Left Sidebar*) for room. Each explorer keeps its controls in a
# column beside its figure. In a small window (a 1280 x 720 projector at 150 %, even
# with the side panel open) it fits the screen whole and shows one view at a time:
# its **show** control switches between its figures and its numbers. *View >
# Appearance > Simple Interface* shows one notebook at a time; it does not close the
# side panel.
# Every control works from the keyboard: Tab moves between controls, the arrow
# keys move a slider or change a dropdown, Space or Enter presses a button.

# %%
from iaa_teach import datasets, fleiss_kappa, fmt
from iaa_teach.widgets import (
    CoverageExplorer,
    IntervalExplorer,
    MissingDataExplorer,
    ParadoxExplorer,
    TableExplorer,
    WeightsExplorer,
)

# %% [markdown]
# ## 1. Edit the table
#
# The grid is the worked example: ten sentences, annotators A, B and C. Choose a
# different label in any cell, or "–" (missing) to remove it. The readout gives
# $P_o$, $P_e$ and $\kappa$ for every pair, Fleiss' $P_a$, $P_e$ and $\kappa$
# (with both chance rules once a rating is missing), and alpha at the level you
# choose, each with its Landis-Koch band. The $P_i$ column shows each item's
# agreement. "reset" brings back the worked example.

# %%
table = TableExplorer()
table

# %% [markdown]
# Things to try:
# - Give item 10 the same label from all three annotators. Which pair's kappa moves most, and why that one?
# - Make one annotator label every item **P**. Why is Cohen's kappa of that
#   annotator with anyone else now exactly zero? (Compare $P_o$ with $P_e$.)
# - Make two annotators label every item **P**: their kappa is undefined, and the readout says why.
# - Remove item 3's rating by B and item 8's by C (the missing-data example of notebook 04).
#
# The same can be done from code, which is handy to prepare a class. Here a second
# explorer, not shown, gets item 1 of annotator B changed from P to N:

# %%
demo = TableExplorer()
before = demo.values()
demo.set_cell(1, "B", "N")
after = demo.values()
for key in ("Cohen A-B kappa", "Cohen B-C kappa", "Fleiss pooled kappa", "alpha"):
    print(f"{key:20s} {before[key]} -> {after[key]}")

# %% [markdown]
# ## 2. Prevalence and the kappa paradox
#
# Simulated annotators who each give the true category with a fixed probability
# (the accuracy slider) and otherwise pick one of the other categories. Move the
# prevalence of category 1 to the right: the true categories become lopsided.
# The curve shows observed agreement $P_a$, Fleiss' kappa, alpha, Gwet's AC1 and
# Brennan-Prediger S (which began as Bennett, Alpert and Goldstein's S of 1954, for two
# annotators) over the whole range of prevalence; the dots are the current setting.
# The readout gives each coefficient's chance agreement $P_e$ (lesson 06).

# %%
paradox = ParadoxExplorer()
paradox

# %% [markdown]
# The annotators do not get worse: their accuracy is fixed, so the share of
# agreeing pairs stays where it was. What changes is chance agreement: with one
# category dominating, $P_e = \sum_j p_j^2$ grows, and
# $\kappa = (P_a - P_e)/(1 - P_e)$ shrinks. AC1's chance agreement shrinks
# instead, so AC1 stays close to $P_a$; S's chance agreement is $1/q$ whatever
# the data, so S moves with $P_a$ alone. The same numbers, without the widget:

# %%
for prevalence in (0.5, 0.7, 0.9, 0.95):
    simulated = datasets.simulate(1000, 3, accuracy=0.9, prevalence=prevalence, n_categories=2, seed=0)
    res = fleiss_kappa(simulated)
    print(f"prevalence {fmt(prevalence, 2)}: P_a = {fmt(res.exact.p_a)}, P_e = {fmt(res.exact.p_e)}, "
          f"kappa = {res:.3f}")

# %% [markdown]
# Things to try: set accuracy to 1 (perfect annotators) and the prevalence to its
# maximum with few items; lower the number of items and change the seed to see how
# much a small sample wobbles.
#
# ## 3. Missing data
#
# The slider removes a share of the 30 ratings, always in the same random order
# for a given seed (a larger share removes the same cells and more). Compare:
# alpha on the complete table; alpha and Fleiss' kappa (per-item number of raters,
# each chance rule) on the table with gaps; and listwise deletion, which keeps only
# the items every annotator labelled.

# %%
missing = MissingDataExplorer()
missing

# %% [markdown]
# Things to try: how far can you push the share before listwise deletion has no
# item left? Which of the four numbers stays closest to the complete-data alpha?
#
# ## 4. Partial coverage
#
# The five-annotator data of notebook 05. The sliders shrink the items D and E
# labelled; the toggle decides which label a merged "D+E" annotator keeps where
# both labelled an item. The right method keeps everyone apart and uses each
# item's own number of labels $n_i$; the chart shows who labelled what and each item's $n_i$.

# %%
coverage = CoverageExplorer()
coverage

# %% [markdown]
# Things to try: flip the toggle. The merged kappa changes although no one
# labelled anything differently. That arbitrariness is the argument against merging.
#
# ## 5. Weights and levels
#
# How far apart are two labels? For nominal data every disagreement counts the
# same; ordinal, interval, linear and quadratic give partial credit to near misses.
# The matrices show how each choice treats two labels: alpha's squared distances
# $\delta^2$ on the left (0 for the same label), Cohen's agreement weights $w_{jk}$ on the
# right (1 for the same label, as in lesson 03).

# %%
weights = WeightsExplorer()
weights

# %% [markdown]
# Things to try: compare ordinal with interval alpha, then look at the matrices.
# The ordinal distances depend on how many values fall in each category; the
# interval ones only on the scores G = 1, N = 2, P = 3.
#
# ## 6. How sure is the number?
#
# One simulated study of 1,000 items rated by three annotators (fixed seed). The
# items slider keeps the first $N$ of them, so moving it to the right adds items to
# the same study. The readout gives the coefficient, its standard error, its 95 %
# interval and the half-width, and how many items `items_needed` plans for a
# half-width of 0.1 (lesson 07). Two figures: the coefficient with its interval as a
# band, and the half-width against the number of items (side by side on a wide
# screen; in a small window **show** picks one).

# %%
interval = IntervalExplorer()
interval

# %% [markdown]
# Things to try: go from 40 to 160 items: the half-width roughly halves. How many
# items does it take to halve it again? Switch to Gwet's AC1 or percent agreement:
# which coefficient is the most precise with few items, and why is that no reason
# to prefer it?
#
# ## Your own data
#
# Every explorer takes any `Ratings` table, for example one read from a CSV file
# with `Ratings.from_csv("labels.csv")`: `TableExplorer(ratings)`,
# `MissingDataExplorer(ratings)`, `WeightsExplorer(ratings, "A", "B")`. Tables
# with more items than fit on the screen get a slider to scroll the grid.
#
# ## Recap
#
# - A single changed label moves every coefficient; the explorers show by how much.
# - Kappa depends on prevalence: the same annotators score lower when one category dominates.
# - With gaps, alpha and Fleiss' kappa with per-item $n_i$ use every rating; listwise deletion throws data away.
# - Merging annotators invents a rater and makes the answer depend on an arbitrary choice.
# - Weights and levels say how far apart two labels are; choose them from what the labels mean.
# - A coefficient from a few items is a wide interval, not a number: four times the items halve it.
#
# ## On your own
#
# In explorer 1, find a single change of one label that moves Fleiss' kappa into a
# different Landis-Koch band. Then predict, before trying, what the same change
# does to alpha.
