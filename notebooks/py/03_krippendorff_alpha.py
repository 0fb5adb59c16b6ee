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
# # Count coincidences and compute Krippendorff's alpha
#
# Krippendorff's alpha measures disagreement rather than agreement:
# $\alpha = 1 - D_o / D_e$, observed disagreement over the disagreement chance
# would give. It works for any number of annotators, for missing ratings, and for
# ordered categories. The worked example computes something it calls alpha, but
# it is Fleiss' kappa again; this notebook shows why and computes the real one.
#
# **What you'll learn**
# - to count ordered pairs of ratings within each item (as the worked example does);
# - why each item's pairs must be weighted by $1/(m_u - 1)$: the coincidence matrix;
# - $D_o$, $D_e$ and $\alpha$ by hand and with the helper;
# - how alpha and Fleiss' kappa are related, and what the ordinal version changes.
#
# **What you'll need**
# - notebook 02 (Fleiss' kappa);
# - a little numpy (matrix products).

# %%
from fractions import Fraction

import numpy as np

from iaa_teach import Ratings, cohen_kappa, datasets, fleiss_kappa, krippendorff_alpha, plots
from iaa_teach import explain, fmt, ratings_table
from iaa_teach.rounding import round_half_up

# %% [markdown]
# ## The data
#
# In Krippendorff's terms each item is a *unit* and each rating a *value*;
# $m_u$ is the number of values in unit $u$.

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %%
counts = ratings.counts()  # units x categories: how many values of each category
m = counts.sum(axis=1)  # m_u
print("categories:", ratings.categories, " values per unit:", m)

# %% [markdown]
# ## Step 1: ordered pairs, counted as the worked example counts them
#
# Within a unit, every ordered pair of two different annotators gives a pair of
# values $(c, k)$. A unit with counts $n_{uc}$ has $n_{uc}n_{uk}$ such pairs for
# $c \ne k$ and $n_{uc}(n_{uc} - 1)$ for $c = k$; summed over units, in one matrix product:

# %%
pairs = counts.T @ counts - np.diag(counts.sum(axis=0))
pairs  # rows and columns G, N, P

# %%
for (i, j) in [(2, 2), (1, 1), (0, 0), (2, 1), (2, 0), (1, 0)]:
    c, k = ratings.categories[i], ratings.categories[j]
    print(f"o_{c}{k} = {pairs[i, j]}")
print(f"total = {pairs.sum()} ordered pairs")

# %% [markdown]
# These are the worked example's counts. Its observed disagreement is the share
# of pairs off the diagonal:
#
# $$D_o = \frac{\sum_{c \ne k} o_{ck}}{\sum_{c,k} o_{ck}}$$

# %%
d_o = (pairs.sum() - np.trace(pairs)) / pairs.sum()
print(f"D_o = {pairs.sum() - np.trace(pairs)}/{pairs.sum()} = {fmt(d_o)}")

# %% [markdown]
# ## Step 2: the text's expected disagreement, and why its "alpha" is Fleiss' kappa
#
# The text takes $D_e = 1 - \sum_c p_c^2$ with $p_c$ the category proportions,
# then $1 - D_o/D_e$:

# %%
p = pairs.sum(axis=1) / pairs.sum()
d_e_text = 1 - np.sum(p**2)
alpha_text = 1 - d_o / d_e_text
print(f"D_e = {fmt(d_e_text)}, 1 - D_o/D_e = {fmt(alpha_text)}")
rounded = 1 - round_half_up(d_o, 3) / round_half_up(d_e_text, 3)
print(f"the text, from rounded values: 1 - {fmt(d_o)}/{fmt(d_e_text)} = {fmt(rounded)}")

# %% [markdown]
# Compare with Fleiss' kappa from notebook 02:

# %%
fleiss = fleiss_kappa(ratings, chance="pooled")
print(f"text's 'alpha' {fmt(alpha_text, 4)}   Fleiss' kappa (pooled) {fleiss:.4f}   "
      f"equal: {np.isclose(alpha_text, fleiss.kappa)}")

# %% [markdown]
# They are equal by construction: $1 - D_o$ is $P_a$ and $1 - D_e$ is $P_e$, so
# $1 - D_o/D_e = (P_a - P_e)/(1 - P_e)$. The text says the two "agree as theory
# predicts"; they agree because they are the same formula. Krippendorff's alpha
# is a different one.
#
# ## Step 3: the coincidence matrix, pairs weighted by $1/(m_u - 1)$
#
# Each value in a unit with $m_u$ values is paired with the $m_u - 1$ others.
# Krippendorff divides each unit's pairs by $m_u - 1$, so that every value counts
# exactly once, whatever the size of its unit:
#
# $$o_{ck} = \sum_u \frac{\text{number of } c\text{-}k \text{ pairs in unit } u}{m_u - 1}$$

# %%
weighted = counts / (m - 1)[:, None]
o = weighted.T @ counts - np.diag(weighted.sum(axis=0))
n_c = o.sum(axis=1)
n = n_c.sum()
print(o)
print(f"n_c = {n_c}, n = {fmt(n, 0)} pairable values")

# %% [markdown]
# ## Step 4: $D_o$, $D_e$ and alpha
#
# $$D_o = \frac{1}{n}\sum_{c \ne k} o_{ck} \qquad
# D_e = \frac{1}{n(n - 1)}\sum_{c \ne k} n_c\, n_k = \frac{n^2 - \sum_c n_c^2}{n(n - 1)} \qquad
# \alpha = 1 - \frac{D_o}{D_e}$$
#
# $D_e$ draws two values *without replacement* from the $n$ values: that is the
# $n(n - 1)$, where the text's $1 - \sum_c p_c^2$ draws with replacement.

# %%
d_o = (n - np.trace(o)) / n
d_e = (n**2 - np.sum(n_c**2)) / (n * (n - 1))
alpha = 1 - d_o / d_e
print(f"D_o = {fmt(d_o)}, D_e = {fmt(d_e)}, alpha = {fmt(alpha)}")

# %% [markdown]
# $D_o$ is unchanged (every unit here has the same $m_u$, so the weight cancels);
# $D_e$ grows, and alpha with it.
#
# ## The helper does the same

# %%
res = krippendorff_alpha(ratings, level="nominal")
print(f"helper {res:.3f}, by hand {fmt(alpha)}, same: {np.isclose(res.alpha, alpha)}")
print(f"exact: D_o = {res.exact.d_o}, D_e = {res.exact.d_e}, alpha = {res.exact.alpha}")

# %%
explain(res)

# %%
plots.coincidence_heatmap(res)

# %% [markdown]
# ## How alpha and Fleiss' kappa are related
#
# With every unit complete, the only difference is drawing with or without
# replacement, and
#
# $$1 - \alpha = (1 - \kappa)\,\frac{n - 1}{n}$$
#
# So alpha is a little larger, and the gap shrinks as $n$ grows: the two agree
# only in the limit. Checked with exact fractions:

# %%
n_values = Fraction(res.n)
left = 1 - res.exact.alpha
right = (1 - fleiss.exact.kappa) * (n_values - 1) / n_values
print(f"1 - alpha = {left},  (1 - kappa)(n - 1)/n = {right},  equal: {left == right}")

# %% [markdown]
# ## Ordered categories: ordinal alpha
#
# G < N < P. Nominal alpha counts every disagreement the same; ordinal alpha
# makes a G-P disagreement cost more than a G-N or N-P one. Its distance
# $\delta^2_{ck}$ depends on how many values lie between $c$ and $k$:

# %%
ordinal = krippendorff_alpha(ratings, level="ordinal")
print("delta^2 (ordinal)", "".join(f"{c:>8}" for c in ratings.categories))
for label, row in zip(ratings.categories, ordinal.exact.delta):
    print(f"{label:>17}", "".join(f"{str(x):>8}" for x in row))
print(f"nominal alpha {res:.3f}   ordinal alpha {ordinal:.3f}")

# %% [markdown]
# The one G-P disagreement (item 10) is the far kind, so ordinal alpha comes out
# below nominal alpha here. The full working:

# %%
explain(ordinal)

# %% [markdown]
# ## The three coefficients side by side
#
# Over the Landis and Koch bands. Fleiss' kappa is labelled with its chance rule.

# %%
plots.coefficients_with_bands({
    "Cohen A vs B": cohen_kappa(ratings, "A", "B"),
    "Fleiss\n(pooled chance)": fleiss,
    "alpha\n(nominal)": res,
    "alpha\n(ordinal)": ordinal,
}, title="The sentiment example: three coefficients")

# %% [markdown]
# ## When alpha is undefined
#
# If all values are in one category, $D_e = 0$ and alpha is $0/0$. The text's
# code returns 0 there; alpha is in fact undefined, and the helper says why:

# %%
undefined = krippendorff_alpha(Ratings.from_rows([["N", "N", "N"]] * 3))
print(f"alpha = {undefined.alpha}")
print(undefined.reason)

# %% [markdown]
# ## Recap
#
# - Count ordered pairs of values within each unit; weight each unit's pairs by
#   $1/(m_u - 1)$: the coincidence matrix, which sums to $n$, the pairable values.
# - $D_o$ is the share of coincidences off the diagonal, $D_e$ the disagreement
#   of two values drawn without replacement, $\alpha = 1 - D_o/D_e$.
# - Without the weight and with $D_e = 1 - \sum p_c^2$ you get Fleiss' kappa, not alpha.
# - $1 - \alpha = (1 - \kappa)(n - 1)/n$ on complete data.
#
# ## Try it yourself
#
# Compute nominal alpha for annotators A and B alone (every unit then has
# $m_u = 2$). Build the coincidence matrix, $n$, $D_o$, $D_e$ and $\alpha$ by
# hand, and compare with Cohen's kappa for A and B from notebook 01. Then open
# the answer.

# %% tags=["solution"]
a_and_b = ratings.subset(raters=["A", "B"])
explain(krippendorff_alpha(a_and_b)).hidden("Show the worked answer")


# %% [markdown]
# ## Explore it yourself
#
# The same data at three levels of measurement: nominal, ordinal and interval
# alpha (and Cohen's kappa unweighted, linear and quadratic), with the distance
# each one puts between two labels. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import WeightsExplorer

WeightsExplorer()
