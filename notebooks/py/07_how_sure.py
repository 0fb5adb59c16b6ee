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
# # How sure is the number? Standard errors, intervals and how many items
#
# Ten sentences gave a Fleiss' kappa with three decimals. Had the same three
# annotators labelled ten *other* sentences of the same kind, the number would
# have come out different. How different is what this lesson measures: the
# **standard error** and the **confidence interval** (see the
# [glossary](00_start_here.ipynb#Glossary)), by formula and by resampling, and
# how many items a study needs before its coefficient is worth quoting.
#
# **What you'll learn**
# - the standard error $\mathrm{SE}$ of a coefficient, by formula (Gwet's
#   linearization) and by the bootstrap;
# - the 95 % interval, value ± t × SE, and what it says about 10 items;
# - that $\mathrm{SE}$ shrinks like $1/\sqrt{N}$: four times the items, half the width;
# - planning the number of items with `items_needed`, and checking the plan by simulation.
#
# **What you'll need**
# - lesson 06 (the family of coefficients); about 50 minutes.
#   Symbols: see the [notation table](00_start_here.ipynb#Notation).

# %%
import numpy as np

from iaa_teach import (
    BANDS, Ratings, agreement_family, bootstrap_ci, datasets, explain, family_intervals, fleiss_kappa, fmt,
    interpret, items_needed, percent_agreement, plots,
)
from iaa_teach.course import alpha_verdict, recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.markup import Table
from iaa_teach.widgets import IntervalExplorer
from iaa_teach.worked import Hidden

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The data
#
# The sentiment example again: ten items, three annotators, and every
# coefficient of lesson 06 on it.

# %%
ratings = datasets.sentiment()
family = agreement_family(ratings)

# %% [markdown]
# ## The standard error by formula
#
# The **standard error** $\mathrm{SE}$ of a coefficient is how much it would
# vary from one sample of items to the next (see the
# [glossary](00_start_here.ipynb#Glossary)). Start with the simplest member of
# the family, percent agreement. $P_a$ is a mean over the $N$ items of $P_i$,
# and the standard error of a mean is the spread of the values over $\sqrt{N}$:
#
# $$\mathrm{SE}(P_a) = \sqrt{\frac{\sum_i (P_i - P_a)^2}{N (N - 1)}}$$

# %%
p_i = fleiss_kappa(ratings).exact.p_i
print("P_i per item:", ", ".join(str(p) for p in p_i))

# %% [markdown]
# ### Exercise 1: the standard error of $P_a$
#
# **Predict first:** six items are unanimous, four are 2-1 splits. Is the
# standard error nearer a hundredth, a tenth or 1? Then compute it (3 decimals).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("07.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
pa = percent_agreement(ratings)
squares = sum((p - pa.exact.p_a) ** 2 for p in p_i)
n_items = len(p_i)
variance = squares / (n_items * (n_items - 1))
Hidden(Table(["quantity", "working", "value"], [
    ["P_a", "the mean of the P_i", str(pa.exact.p_a)],
    ["Σ (P_i - P_a)²", "6 unanimous items and 4 splits", str(squares)],
    ["variance", f"{squares} / ({n_items} · {n_items - 1})", str(variance)],
    ["SE", f"√({variance})", fmt(pa.se)],
], caption="The standard error of percent agreement by hand"), "Show the worked answer")

# %% [markdown]
# ### The chance-corrected coefficients: linearization
#
# Kappa is not a plain mean over items: its $P_e$ depends on all the items at
# once. [Gwet's](00_start_here.ipynb#Gwet-2014) formula gets round that by **linearization**: it replaces the
# coefficient by its straight-line approximation, how much it moves when one
# item changes a little. That gives each item its own *linearized* value (the
# item's agreement, corrected by its share of the chance agreement), and the
# coefficient is about the mean of those values. The standard error is then
# found exactly as for $P_a$: the spread of the items' values over $\sqrt{N}$.
#
# ## From the standard error to an interval
#
# A 95 % **confidence interval** (see the [glossary](00_start_here.ipynb#Glossary))
# is the value minus and plus a **critical value** times the standard error.
# The critical value says how many standard errors to go each side so that 95 %
# of such intervals hold the true value: for a bell-shaped (normal) spread it
# is a little under 2 (printed below).
#
# With few items the standard error is itself estimated from those few items,
# so it may be too small; **Student's t distribution** allows for that. It is a
# bell curve with wider tails, set by its **degrees of freedom**: how many
# independent pieces of information the spread was estimated from, here
# $N - 1$ (the $N$ items, less one used up by their mean). The fewer the degrees
# of freedom, the larger t; as $N$ grows, t comes down to the normal's value.
# Gwet (and irrCAC) take t with $N - 1$ degrees of freedom. No coefficient
# exceeds 1, so the upper end is capped there.

# %%
from scipy import stats  # noqa: E402  (only for the critical value shown here)

n_items = ratings.n_items
kappa = family["Fleiss' kappa"]
t = stats.t.ppf(0.975, n_items - 1)
print(f"t with {n_items - 1} degrees of freedom: {fmt(t)}; normal: {fmt(stats.norm.ppf(0.975))}")
print(f"Fleiss' kappa {fmt(kappa.exact.kappa)}, SE {fmt(kappa.se, 4)}")

# %% [markdown]
# ### Exercise 2: the lower end of kappa's interval
#
# From the kappa, its standard error and t printed above, compute the lower end
# of the 95 % interval (3 decimals).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("07.2", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
lower_end, upper_end = kappa.ci()
Hidden(Table(["quantity", "working", "value"], [
    ["half-width", f"t · SE = {fmt(t)} · {fmt(kappa.se, 4)}", fmt(t * kappa.se)],
    ["lower end", f"{fmt(kappa.kappa, 4)} - {fmt(t * kappa.se, 4)}", fmt(lower_end)],
    ["upper end", f"{fmt(kappa.kappa, 4)} + {fmt(t * kappa.se, 4)}, capped at 1", fmt(upper_end)],
], caption="Fleiss' kappa's 95 % interval by hand"), "Show the worked answer")

# %% [markdown]
# ## The family, each with its interval
#
# Every coefficient of lesson 06 with its standard error and its 95 % interval:


# %%
def family_table(results, caption):
    """Each coefficient with its standard error and 95 % interval, as a labelled table."""
    rows = []
    for name, res in results.items():
        low, high = res.ci()
        rows.append([name, fmt(res.exact_value), fmt(res.se), f"{fmt(low)} to {fmt(high)}", fmt(float(res) - low)])
    return Table(["coefficient", "value", "SE", "95 % interval", "half-width"], rows, caption=caption)


family_table(family, "The sentiment example (10 items, 3 annotators)")

# %%
plots.family_chart(family)

# %% [markdown]
# Every interval stretches over several Landis-Koch bands.
#
# `explain` shows the standard error's working for any member of the family
# (lesson 06 left it out with `se=False`); here Gwet's AC1, whose linearized
# per-item values $\mathrm{AC}_{1,i}^*$ play the part $P_i$ played for percent
# agreement:

# %%
explain(family["Gwet's AC1"])["Standard error and 95% interval"]

# %% [markdown]
# ## The standard error by the bootstrap
#
# The **bootstrap** needs no formula: draw 10 items *with replacement* from the 10
# items (some come twice, some not at all), compute kappa on the new table, and do
# it again, 2,000 times. The spread of those kappas stands in for the spread
# between studies; the middle 95 % of them is the percentile interval.

# %%
boot = bootstrap_ci(fleiss_kappa, ratings, n_boot=2000, seed=1)
low, high = kappa.ci()
print(f"formula:   {fmt(low)} to {fmt(high)}")
print(f"bootstrap: {fmt(boot.low)} to {fmt(boot.high)} (2,000 resamples, seed 1)")

# %%
samples = boot.samples[~np.isnan(boot.samples)]
rows = []
for lo, hi, name in BANDS:
    inside = (samples >= lo) & ((samples < hi) if hi < 1 else (samples <= hi))
    rows.append([name, f"{fmt(lo, 2)} to {fmt(hi, 2)}", fmt(inside.mean(), 3)])
Table(["band", "range", "share of the bootstrap kappas"], rows,
      caption="Where the 2,000 bootstrap kappas of the 10-item study fall")

# %% [markdown]
# ## What 10 items can and cannot tell you
#
# **Predict first:** from the intervals above, can you say which Landis-Koch band
# the annotators' agreement is in? Can you say it is better than chance?

# %%
rows = []
for name, res in family.items():
    if name in ("percent agreement", "Krippendorff's alpha"):
        continue  # not corrected for chance / alpha has a guidance of its own (lesson 03): below
    lo, hi = res.ci()
    rows.append([name, interpret(max(lo, -1.0)), interpret(hi),
                 "yes" if lo > 0 else "no", "yes" if hi >= 0.8 else "no"])
Table(["coefficient", "band of the lower end", "band of the upper end", "above chance (lower end > 0)?",
       "could it be 'almost perfect'?"], rows, caption="The sentiment example's 95 % intervals, read in bands")

# %% [markdown]
# Alpha is read with Krippendorff's own guidance (lesson 03), not with the bands:

# %%
low, high = family["Krippendorff's alpha"].ci()
Table(["end of the interval", "alpha", "Krippendorff's guidance"],
      [["lower end", fmt(low), alpha_verdict(low)], ["upper end", fmt(high), alpha_verdict(high)]],
      caption="Krippendorff's alpha's 95 % interval, read with its own guidance")

# %% [markdown]
# Ten items *can* tell you that the annotators agree more than chance would
# make them: every lower end is above 0. They *cannot* tell you how well they agree:
# the other coefficients' intervals run from "slight" or "fair" to "almost perfect", alpha's from
# "do not rely on the data" to "rely on the data", so a band, a threshold such as Krippendorff's guidance for
# alpha, or a ranking of two annotation schemes is out of reach. A single number with three decimals hides that.
#
# ## A larger study
#
# A simulated study (fixed seed): 400 items, three annotators of accuracy 0.8,
# one of three categories more common than the others. Formula and bootstrap
# agree closely, and the intervals are narrow (the chart shows the bootstrap ones).

# %%
study = datasets.simulate(400, 3, accuracy=0.8, prevalence=0.6, n_categories=3, seed=7)
by_formula = family_intervals(study)
by_bootstrap = family_intervals(study, method="bootstrap", n_boot=1000, seed=1)
rows = [[f.name, fmt(f.result.exact_value), fmt(f.se), f"{fmt(f.low)} to {fmt(f.high)}", fmt(b.se),
         f"{fmt(b.low)} to {fmt(b.high)}"] for f, b in zip(by_formula, by_bootstrap)]
Table(["coefficient", "value", "SE (formula)", "95 % interval (formula)", "SE (bootstrap)",
       "95 % interval (bootstrap)"], rows, caption="A simulated study: 400 items, 3 annotators (seed 7)")

# %%
plots.family_chart(by_bootstrap)

# %% [markdown]
# ### Exercise 3: four times the items
#
# The standard error shrinks like $1/\sqrt{N}$. Suppose the same annotators
# labelled 1,600 items of the same kind. What standard error do you expect for
# Fleiss' kappa (3 decimals)?

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("07.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
se_400 = next(f.se for f in by_formula if f.name == "Fleiss' kappa")
bigger = datasets.simulate(1600, 3, accuracy=0.8, prevalence=0.6, n_categories=3, seed=7)
Hidden(Table(["quantity", "working", "value"], [
    ["SE with 400 items", "from the table above", fmt(se_400)],
    ["SE with 1,600 items", f"{fmt(se_400, 4)} · √(400 / 1600) = {fmt(se_400, 4)} / 2", fmt(se_400 / 2)],
    ["check: a fresh simulated study of 1,600 items", "annotators of the same accuracy", fmt(fleiss_kappa(bigger).se)],
], caption="Four times the items, half the standard error"), "Show the worked answer")

# %% [markdown]
# ## Planning the number of items
#
# Before a study, turn the question around: how many items for an interval of a
# given half-width? `items_needed` answers it from the value you expect, the
# number of annotators and the category shares you expect (say, from a pilot). Its
# model: each item is either labelled the same by everyone, or labelled
# independently by each annotator, with the mix set so that the coefficient takes
# the expected value.

# %%
plan = items_needed("fleiss_kappa", expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2], half_width=0.1)
print(f"Fleiss' kappa around {fmt(plan.expected, 1)}, 3 annotators, shares 0.5 / 0.3 / 0.2: "
      f"{plan.items} items for a half-width of at most {fmt(plan.target, 2)} (expected {fmt(plan.half_width)})")

# %% [markdown]
# **A simulation check.** Draw 400 studies of that many items from the planning
# model, compute each one's interval, and look at the half-widths and at how often
# the interval holds the true value 0.6 (about 95 % of the time, if the plan and
# the intervals are right).

# %%
def planned_study(plan, n, rng):
    """One study of n items from items_needed's model: unanimous items, or independent labels."""
    p = np.array(plan.proportions)
    unanimous = rng.random(n) < plan.unanimous
    common = rng.choice(len(p), size=n, p=p)
    independent = rng.choice(len(p), size=(n, plan.raters), p=p)
    codes = np.where(unanimous[:, None], common[:, None], independent)
    return Ratings.from_codes(codes, categories=["x", "y", "z"])


rng = np.random.default_rng(2026)
halves, covered = [], []
for _ in range(400):
    res = fleiss_kappa(planned_study(plan, plan.items, rng))
    lo, hi = res.ci()
    halves.append(res.kappa - lo)
    covered.append(lo <= plan.expected <= hi)
Table(["", "value"], [
    ["items per study", str(plan.items)],
    ["planned half-width", fmt(plan.half_width)],
    ["median half-width of 400 simulated studies", fmt(float(np.median(halves)))],
    ["share of them whose interval holds 0.6", fmt(float(np.mean(covered)))],
], caption="items_needed checked by simulation (400 studies, seed 2026)")

# %% [markdown]
# ## Explore it yourself
#
# A simulated study of 1,000 items; the slider keeps the first $N$. Watch the band
# around the coefficient narrow and the half-width fall like $1/\sqrt{N}$, and
# compare coefficients: the readout also gives what `items_needed` plans for a
# half-width of 0.1. (The controls need a running kernel.)

# %%
IntervalExplorer()


# %% [markdown]
# ## Recap
#
# - A coefficient from a sample of items has a standard error: the spread between
#   items over $\sqrt{N}$ (Gwet's linearization for the family).
# - The 95 % interval is value ± t × SE with $N - 1$ degrees of freedom, capped at
#   1; the bootstrap gives a similar interval without a formula.
# - Ten items show agreement above chance, not which band it is in.
# - Four times the items halve the interval; `items_needed` plans the number, and a
#   simulation checks the plan.
#
# ## Try it yourself
#
# ### Exercise 4: a tighter plan
#
# The plan above asks for a half-width of 0.1. **Predict first:** how many items
# for half that width, same kappa, annotators and shares? Then ask
# `items_needed` with half the `half_width` and write its answer (a whole number).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("07.4", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
tighter = items_needed("fleiss_kappa", expected=0.6, raters=3, proportions=[0.5, 0.3, 0.2], half_width=0.05)
Hidden(Table(["half-width", "items", "ratio"], [
    [fmt(plan.target, 2), str(plan.items), ""],
    [fmt(tighter.target, 2), str(tighter.items), fmt(tighter.items / plan.items, 2)],
], caption="Half the width, about four times the items (a little fewer: with more items t is smaller)"),
       "Show the worked answer")

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("07")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("07"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 08: your own annotations](08_your_own_annotations.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
