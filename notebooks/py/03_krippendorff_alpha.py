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
# # Count coincidences and compute Krippendorff's alpha
#
# Krippendorff's alpha measures disagreement rather than agreement:
# $\alpha = 1 - D_o / D_e$, observed disagreement over the disagreement chance
# would give. It works for any number of annotators, for missing ratings, and for
# ordered categories. The [worked example](00_start_here.ipynb#The-worked-example) computes something it calls alpha, but
# it is Fleiss' kappa again; this lesson shows why and computes the real one.
#
# **What you'll learn**
# - to count ordered pairs of ratings within each item (as the worked example does);
# - why each item's pairs must be weighted by $1/(n_i - 1)$: the coincidence matrix;
# - $D_o$, $D_e$ and $\alpha$ by hand and with the helper;
# - how alpha and Fleiss' kappa are related, and what the ordinal version changes;
# - weighted kappa: partial credit for near misses in Cohen's kappa.
#
# **What you'll need**
# - lesson 02 (Fleiss' kappa);
# - a little numpy (sums, a matrix product, explained below). About 70 minutes.
#   Symbols: see the [notation table](00_start_here.ipynb#Notation).

# %%
from fractions import Fraction

import numpy as np

from iaa_teach import Ratings, cohen_kappa, datasets, explain, fleiss_kappa, fmt, krippendorff_alpha, plots
from iaa_teach import ratings_table
from iaa_teach.course import alpha_guidance, alpha_verdict, recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.rounding import round_half_up
from iaa_teach.markup import Table, prose
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data, in Krippendorff's words
#
# Krippendorff calls an item a **unit** and a rating a **value**. A value is
# **pairable** when its unit holds at least one other value, that is when
# $n_i \ge 2$ (Krippendorff writes $m_u$ for $n_i$; see the
# [glossary](00_start_here.ipynb#Glossary)).

# %%
ratings = datasets.sentiment()
ratings_table(ratings)

# %%
counts = ratings.counts()  # items x categories: n_ij
n_i = counts.sum(axis=1)
print("categories:", ", ".join(ratings.categories))
print(f"values per item n_i (items {ratings.items[0]}-{ratings.items[-1]}):", ", ".join(str(m) for m in n_i))

# %% [markdown]
# ## Step 1: ordered pairs of values within one item
#
# Within an item, every ordered pair of two different annotators gives a pair
# of values $(c, k)$. Take item 2, labelled P, P, N (counts: G 0, N 1, P 2).
# Pairing each of its three values with each of the *other* two gives six
# ordered pairs: P-P twice (each P with the other P), P-N twice, N-P twice,
# and no N-N pair (the N has no partner with its own label).
#
# As a product: category $c$ pairs with category $k$ in
# $n_{ic} \, n_{ik}$ ways, less the $n_{ic}$ "self-pairs" when $c = k$:

# %%
item_2 = counts[1]
pairs_item_2 = np.outer(item_2, item_2) - np.diag(item_2)
matrix_table(pairs_item_2, ratings.categories, corner="item 2",
             caption="Ordered pairs of values within item 2 (rows first value, columns second)")

# %% [markdown]
# ### Exercise 1: how many ordered pairs in all?
#
# Each item with $n_i$ values gives $n_i(n_i - 1)$ ordered pairs. How many
# ordered pairs do all ten items give together? Write a whole number.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("03.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(krippendorff_alpha(ratings))["Ordered pairs within items"], "Show the worked answer")

# %% [markdown]
# ## Step 2: all items, as the worked example counts them
#
# Summing that product over all items is one matrix product: entry $(c, k)$ of
# `counts.T @ counts` is $\sum_i n_{ic}\, n_{ik}$, and the self-pairs add up to
# each category's total:

# %%
pairs = counts.T @ counts - np.diag(counts.sum(axis=0))
matrix_table(pairs, ratings.categories, caption="Ordered pairs of values within items, all items")

# %% [markdown]
# These are the worked example's counts of P-P, N-N, P-N... pairs, before any
# weighting. (It names them with the letter $o$, as if they were coincidences;
# this course keeps $o_{ck}$ for the weighted coincidences of Step 3.) Its
# observed disagreement is the share of pairs off the diagonal:
#
# $$D_o = \frac{\text{pairs off the diagonal}}{\text{all pairs}}$$

# %%
d_o = (pairs.sum() - np.trace(pairs)) / pairs.sum()
print(f"D_o = {pairs.sum() - np.trace(pairs)}/{pairs.sum()} = {fmt(d_o)}")

# %% [markdown]
# ## The text's expected disagreement, and why its "alpha" is Fleiss' kappa
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
# Compare with Fleiss' kappa from lesson 02:

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
# ## Step 3: the coincidence matrix, pairs weighted by $1/(n_i - 1)$
#
# Each value in an item with $n_i$ values is paired with the $n_i - 1$ others.
# [Krippendorff (2011)](00_start_here.ipynb#Krippendorff-2011) divides each item's pairs by $n_i - 1$, so that every value counts
# exactly once, whatever the size of its item:
#
# $$o_{ck} = \sum_i \frac{\text{number of } c\text{-}k \text{ pairs in item } i}{n_i - 1}$$
#
# ### Exercise 2: how many pairable values?
#
# After the weighting the matrix sums to $n$, the number of pairable values.
# **Predict first**, then write $n$ (a whole number).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("03.2", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(krippendorff_alpha(ratings))["Pairable values"], "Show the worked answer")

# %%
weighted = counts / (n_i - 1)[:, None]
o = weighted.T @ counts - np.diag(weighted.sum(axis=0))
n_c = o.sum(axis=1)
n = n_c.sum()
matrix_table(o, ratings.categories, caption="Coincidence matrix o_ck (row totals n_c, grand total n)")

# %% [markdown]
# ## Step 4: $D_o$, $D_e$ and alpha
#
# $$D_o = \frac{1}{n}\sum_{c \ne k} o_{ck} \tag{1}$$
#
# $$D_e = \frac{1}{n(n - 1)}\sum_{c \ne k} n_c\, n_k = \frac{n^2 - \sum_c n_c^2}{n(n - 1)} \tag{2}$$
#
# $$\alpha = 1 - \frac{D_o}{D_e} \tag{3}$$
#
# $D_e$ draws two values *without replacement* from the $n$ values: that is the
# $n(n - 1)$, where the text's $1 - \sum_c p_c^2$ draws with replacement.
#
# ### Exercise 3: expected disagreement
#
# From the row totals $n_c$ of the coincidence matrix, compute $D_e$ (a
# fraction, or 3 decimals). **Predict first:** is it larger or smaller than the
# text's $D_e$?

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("03.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(krippendorff_alpha(ratings))["Expected disagreement"], "Show the worked answer")

# %%
d_o = (n - np.trace(o)) / n
d_e = (n**2 - np.sum(n_c**2)) / (n * (n - 1))
alpha = 1 - d_o / d_e
print(f"D_o = {fmt(d_o)}, D_e = {fmt(d_e)}, alpha = {fmt(alpha)}")

# %% [markdown]
# $D_o$ is unchanged (every item here has the same $n_i$, so the weight cancels);
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
# With every item complete, the only difference is drawing with or without
# replacement, and
#
# $$1 - \alpha = (1 - \kappa)\,\frac{n - 1}{n} \tag{4}$$
#
# So alpha is a little larger, and the gap shrinks as $n$ grows: the two agree
# only in the limit. Checked with exact fractions:

# %%
n_values = Fraction(res.n)
left = 1 - res.exact.alpha
right = (1 - fleiss.exact.kappa) * (n_values - 1) / n_values
print(f"1 - alpha = {left},  (1 - kappa)(n - 1)/n = {right},  equal: {left == right}")

# %% [markdown]
# ## Levels of measurement: ordinal alpha
#
# The labels have a *level of measurement* (see the
# [glossary](00_start_here.ipynb#Glossary)): nominal labels are just names,
# ordinal ones are ordered, G < N < P. Nominal alpha counts every disagreement
# the same; ordinal alpha makes a G-P disagreement cost more than a G-N or N-P
# one. Its squared distance between labels $c$ and $k$ adds up the pairable
# values from $c$ to $k$ in the label order, counting the two ends half:
#
# $$\delta^2_{ck} = \Big(\sum_{g = c}^{k} n_g - \frac{n_c + n_k}{2}\Big)^2$$
#
# So two neighbouring labels are as far apart as half their values together,
# and G and P also have all the N values between them. From the row totals
# $n_c$ of the coincidence matrix:

# %%
for c, k in [(0, 1), (1, 2), (0, 2)]:
    between = n_c[c:k + 1].sum() - (n_c[c] + n_c[k]) / 2
    print(f"delta²({ratings.categories[c]}, {ratings.categories[k]}) = "
          f"({' + '.join(str(int(x)) for x in n_c[c:k + 1])} - ({int(n_c[c])} + {int(n_c[k])})/2)² = {Fraction(between**2)}")

# %% [markdown]
# The helper's distances, as a table (exact fractions):

# %%
ordinal = krippendorff_alpha(ratings, level="ordinal")
matrix_table(ordinal.exact.delta, ratings.categories, totals=False,
             caption="Ordinal distances delta² between two labels")

# %% [markdown]
# **Predict first.** The only disagreement between the far labels G and P is on
# item 10. Will ordinal alpha come out above or below nominal alpha?

# %%
print(f"nominal alpha {res:.3f}   ordinal alpha {ordinal:.3f}")

# %% [markdown]
# The one G-P disagreement (item 10) is the far kind, so ordinal alpha comes out
# below nominal alpha here. The full working:

# %%
explain(ordinal)

# %% [markdown]
# ## The three coefficients side by side
#
# Over the Landis and Koch bands (lesson 01), which name a kappa. Alpha has a
# verdict of its own, from Krippendorff's guidance (glossary); both are
# conventions, not laws.

# %%
plots.coefficients_with_bands({
    "Cohen A vs B": cohen_kappa(ratings, "A", "B"),
    "Fleiss\n(pooled chance)": fleiss,
    "alpha\n(nominal)": res,
    "alpha\n(ordinal)": ordinal,
}, title="The sentiment example: three coefficients")

# %%
print(f"Krippendorff's guidance: {alpha_guidance()}")
for name, a in [("nominal", res), ("ordinal", ordinal)]:
    print(f"alpha ({name}) {a:.3f}: {alpha_verdict(a.alpha)}")

# %% [markdown]
# ## When alpha is undefined
#
# If all values are in one category, $D_e = 0$ and alpha is $0/0$. The text's
# code returns 0 there; alpha is in fact undefined, and the helper says why:

# %%
undefined = krippendorff_alpha(Ratings.from_rows([["N", "N", "N"]] * 3))
print(f"alpha = {fmt(undefined)}")
print(undefined.reason)

# %% [markdown]
# ## Weighted kappa: partial credit in Cohen's kappa
#
# Ordinal alpha makes a far disagreement cost more than a near one. Cohen's
# kappa (lesson 01) can do the same for two annotators: **weighted kappa**
# $\kappa_w$ ([Cohen 1968](00_start_here.ipynb#Cohen-1968); see the
# [glossary](00_start_here.ipynb#Glossary), "weights") gives each cell $(j, k)$
# of the agreement table an **agreement weight** $w_{jk}$ between 0 and 1.
# Number the $q$ categories 1 to $q$ in their order (here three: G, N, P):
#
# $$w_{jk} = 1 - \frac{\lvert j - k \rvert}{q - 1} \ \text{(linear)}, \qquad
# w_{jk} = 1 - \frac{(j - k)^2}{(q - 1)^2} \ \text{(quadratic)}$$
#
# An agreement keeps weight 1 and the farthest pair (G with P) weight 0; a near
# miss (G with N, N with P) gets something between. Observed and chance
# agreement are both weighted, with the same $w_{jk}$:
#
# $$P_o = \frac{1}{N}\sum_{j,k} w_{jk}\, n_{jk}, \qquad
# P_e = \sum_{j,k} w_{jk}\, p_{j+}\, p_{+k}, \qquad
# \kappa_w = \frac{P_o - P_e}{1 - P_e}$$
#
# With $w_{jk} = 0$ everywhere off the diagonal, this is Cohen's kappa of lesson 01.
# A and B again, their agreement table and the two sets of weights:

# %%
cohen = cohen_kappa(ratings, "A", "B")
n_jk = cohen.table
matrix_table(n_jk, ratings.categories, corner="A \\ B",
             caption="Agreement table n_jk of A and B (rows A's label, columns B's)")

# %%
q = len(ratings.categories)
j, k = np.indices((q, q))  # category positions; only their differences count
w_linear = 1 - Fraction(1, q - 1) * abs(j - k)
w_quadratic = 1 - Fraction(1, (q - 1) ** 2) * (j - k) ** 2
matrix_table(w_linear, ratings.categories, totals=False, corner="A \\ B",
             caption="Linear agreement weights w_jk")

# %%
matrix_table(w_quadratic, ratings.categories, totals=False, corner="A \\ B",
             caption="Quadratic agreement weights w_jk")

# %% [markdown]
# **Predict first.** A and B disagree on three items: N-P, P-N and G-P. The
# weights give the two near misses partial credit, so the weighted $P_o$ goes
# up. Does weighted kappa go up too, above Cohen's kappa for A and B
# (lesson 01)? Decide, then run the next cell: linear weights, by hand.

# %%
w_jk = w_linear  # the weights used below
N = n_jk.sum()
p_row, p_col = n_jk.sum(axis=1) / N, n_jk.sum(axis=0) / N  # p_j+ (A's shares), p_+k (B's)
p_o_w = np.sum(w_jk * n_jk) / N
p_e_w = np.sum(w_jk * np.outer(p_row, p_col))
kappa_w = (p_o_w - p_e_w) / (1 - p_e_w)
print(f"weighted:   P_o = {fmt(p_o_w)}, P_e = {fmt(p_e_w)}, kappa_w = {fmt(kappa_w)}")
print(f"unweighted: P_o = {fmt(cohen.p_o)}, P_e = {fmt(cohen.p_e)}, kappa   = {fmt(cohen.kappa)}")

# %% [markdown]
# Both agreements rose, chance agreement the more: the weights also give
# partial credit to the near misses that chance alone would produce, and A and
# B label most items N or P, next to each other. So weighted kappa comes out
# *below* Cohen's kappa here. Weights do not always raise kappa; they change
# what counts as agreement, for the annotators and for chance alike.
#
# **Try it:** in the cell above, write `w_jk = w_quadratic` and run it
# again. **Predict first:** quadratic weights give a near miss more credit
# than linear ones (compare the two tables of weights); does weighted kappa move
# further from Cohen's kappa, or closer? Then
# check with the helper, `cohen_kappa(..., weights=...)`, which keeps every
# intermediate as an exact fraction:

# %%
rows = []
for weights in (None, "linear", "quadratic"):
    res_w = cohen_kappa(ratings, "A", "B", weights=weights)
    ex = res_w.exact
    rows.append([weights or "unweighted"] + [f"{x} ({fmt(x)})" for x in (ex.p_o, ex.p_e, ex.kappa)])
Table(["weights", prose("{P_o}"), prose("{P_e}"), prose("{kappa} or {kappa_w}")], rows,
      caption="Cohen's kappa of A and B, three ways: exact (3 decimals)")

# %% [markdown]
# And your by-hand cell against the helper, with the weights that cell used:

# %%
tables = {"linear": w_linear, "quadratic": w_quadratic}
your_weights = next((name for name, w in tables.items() if np.array_equal(w_jk, w)), None)
if your_weights is None:
    print("Your w_jk is neither table of weights: write w_jk = w_linear or w_jk = w_quadratic.")
else:
    helper = cohen_kappa(ratings, "A", "B", weights=your_weights)
    same = "the same" if np.isclose(helper.kappa, kappa_w) else "not the same: look at your cell again"
    print(f"Your by-hand cell, {your_weights} weights: kappa_w = {fmt(kappa_w)}; "
          f'the helper, weights="{your_weights}": {fmt(helper)}, {same}.')

# %% [markdown]
# The full working of the quadratic one, step by step, folded (click its line to open it):

# %%
explain(cohen_kappa(ratings, "A", "B", weights="quadratic")).hidden("Show the working for quadratic weights")

# %% [markdown]
# ## Recap
#
# - Count ordered pairs of values within each item; weight each item's pairs by
#   $1/(n_i - 1)$: the coincidence matrix, which sums to $n$, the pairable values.
# - $D_o$ is the share of coincidences off the diagonal (formula 1), $D_e$ the disagreement
#   of two values drawn without replacement (formula 2), $\alpha = 1 - D_o/D_e$ (formula 3).
# - Without the weight and with $D_e = 1 - \sum p_c^2$ you get Fleiss' kappa, not alpha.
# - $1 - \alpha = (1 - \kappa)(n - 1)/n$ on complete data (formula 4).
# - Weighted kappa $\kappa_w$ gives a near miss partial credit: agreement weights $w_{jk}$
#   (linear or quadratic over the $q$ ordered categories) in both $P_o$ and $P_e$.
#
# ## Try it yourself
#
# ### Exercise 4: alpha for two annotators
#
# Compute nominal alpha for annotators A and B alone (every item then has
# $n_i = 2$). Build the coincidence matrix, $n$, $D_o$, $D_e$ and $\alpha$ by
# hand. **Predict first:** above or below Cohen's kappa for A and B from lesson 01?
# Then check your alpha.

# %%
a_and_b = ratings.subset(raters=["A", "B"])

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("03.4", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
explain(krippendorff_alpha(a_and_b)).hidden("Show the worked answer")

# %% [markdown]
# ## Explore it yourself
#
# The same data at the two levels of measurement of this lesson, nominal and
# ordinal alpha, beside Cohen's kappa for a pair of annotators you choose,
# unweighted or weighted, with the distance alpha puts between two labels and
# the weights kappa gives them. The
# [playground](09_instructor_playground.ipynb) adds the interval level.
# (The controls need a running kernel.)

# %%
from iaa_teach.widgets import WeightsExplorer

WeightsExplorer(levels=("nominal", "ordinal"), weights="unweighted")

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("03")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("03"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 04: missing ratings](04_missing_data.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
