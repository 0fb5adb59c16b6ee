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
# # Models of chance: one table, one $P_a$, five $P_e$'s
#
# Cohen's kappa, Fleiss' kappa and Krippendorff's alpha looked like three
# different formulas. They are one formula with three different ideas of what
# agreement by chance looks like. This lesson computes five such ideas on one
# table, by hand and then with the helper, and shows where the choice matters.
#
# **What you'll learn**
# - percent agreement, Brennan-Prediger S, Scott's pi (Fleiss' kappa), Conger's kappa,
#   Gwet's AC1 and Krippendorff's alpha as one formula with five chance models;
# - to compute each $P_e$ by hand from the category shares;
# - Feinstein and Cicchetti's two paradoxes of kappa, with numbers: high
#   agreement but low kappa when one category dominates, and kappa *rising*
#   when the raters disagree about how often to use a category;
# - how each coefficient behaves, and how to choose one for your data.
#
# **What you'll need**
# - lessons 01 to 03 (Cohen's kappa, Fleiss' kappa, Krippendorff's alpha);
#   about 70 minutes. Symbols: see the [notation table](00_start_here.ipynb#Notation).

# %%
from fractions import Fraction

import numpy as np

from iaa_teach import (
    agreement_family, brennan_prediger, cohen_kappa, conger_kappa, datasets, explain, fmt, gwet_ac, percent_agreement,
    plots, ratings_table, scott_pi,
)
from iaa_teach.course import recall_answers, recall_questions
from iaa_teach.exercises.lesson_exercises import check
from iaa_teach.markup import Math, Table, with_symbols
from iaa_teach.widgets import ParadoxExplorer
from iaa_teach.worked import Hidden, matrix_table

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## One formula
#
# The coefficients of this lesson form one **family of coefficients** (see the
# [glossary](00_start_here.ipynb#Glossary)):
#
# $$\text{coefficient} = \frac{P_a - P_e}{1 - P_e} \tag{1}$$
#
# Every member starts from the same observed agreement $P_a$ and corrects it for
# a chance agreement $P_e$. They differ only in their **model of chance**: how a
# rater who labels at random would pick a label. (This view of the coefficients
# is the one of [Artstein and Poesio (2008)](00_start_here.ipynb#Artstein-and-Poesio-2008);
# the formulas for the chance agreements are [Gwet's](00_start_here.ipynb#Gwet-2014).)
#
# ## The data
#
# The ten sentences and three annotators of lessons 01 to 03, labels G, N and P
# ($q = 3$ categories).

# %%
ratings = datasets.sentiment()
ratings_table(ratings, caption="The sentiment example: one label per item and annotator")

# %% [markdown]
# Two summaries of the table feed every model of chance: how often each
# annotator used each category (their own shares), and how often all of them
# together did (the pooled shares $p_j$).

# %%
own = ratings.rater_counts()  # raters x categories
matrix_table(own, ratings.raters, ratings.categories, corner="annotator",
             caption="Labels per annotator and category (each row: one annotator's 10 labels)")

# %%
q = ratings.n_categories
p_j = [Fraction(int(x), ratings.n_ratings) for x in own.sum(axis=0)]
print("pooled shares p_j:", ", ".join(f"{c} {p}" for c, p in zip(ratings.categories, p_j)))

# %% [markdown]
# ## One observed agreement
#
# $P_a$ is lesson 02's: the mean over items of $P_i$, the share of agreeing
# ordered pairs of ratings. With no correction for chance at all it is a
# coefficient of its own, **percent agreement** ($P_e = 0$).

# %%
p_a = percent_agreement(ratings).exact.p_a
print(f"P_a = {p_a} = {fmt(p_a)}")

# %% [markdown]
# ## Five models of chance
#
# Each model imagines a rater who labels some items at random, and asks how often
# two such ratings agree.

# %%
Table(["coefficient", "a rater labelling at random...", with_symbols("chance agreement P_e")], [
    ["Brennan-Prediger S", "picks each of the q categories equally often", Math(r"1/q", "1/q")],
    ["Scott's pi (Fleiss' kappa)", "picks with the pooled shares, the same for every rater",
     Math(r"\sum_j p_j^2", "Σ p_j²")],
    ["Cohen's kappa (Conger's for more raters)", "picks with their own shares",
     Math(r"\operatorname{mean}_{r<s} \sum_j p_{rj}\, p_{sj}", "mean over pairs r, s of Σ p_rj p_sj")],
    ["Gwet's AC1", "does so only on the hard items",
     Math(r"\frac{1}{q - 1}\sum_j p_j (1 - p_j)", "Σ p_j (1 - p_j) / (q - 1)")],
    ["Krippendorff's alpha", "draws two of the n pairable values without replacement",
     Math(r"\frac{\sum_c n_c (n_c - 1)}{n (n - 1)} = 1 - D_e", "Σ n_c (n_c - 1) / (n (n - 1)) = 1 - D_e")],
], caption="Five models of chance, one formula: coefficient = (P_a - P_e) / (1 - P_e)", align="lll")

# %% [markdown]
# ### Brennan-Prediger S: every category equally likely
#
# **Brennan-Prediger S** (see the [glossary](00_start_here.ipynb#Glossary)) ignores
# the data: a random rater picks each of the $q$ categories with probability
# $1/q$, so two random ratings agree with probability $P_e = 1/q$.
#
# ### Exercise 1: S on the sentiment example
#
# **Predict first:** is S above or below Fleiss' kappa from lesson 02? Then
# compute S (a fraction, or 3 decimals).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("06.1", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
s_pe = Fraction(1, q)
Hidden(Table(["quantity", "working", "value"], [
    ["P_e", f"1/q = 1/{q}", str(s_pe)],
    ["S", f"({p_a} - {s_pe}) / (1 - {s_pe})", f"{(p_a - s_pe) / (1 - s_pe)} = {fmt((p_a - s_pe) / (1 - s_pe))}"],
], caption="Brennan-Prediger S by hand"), "Show the worked answer")

# %% [markdown]
# ### Scott's pi and Fleiss' kappa: one set of shares for everyone
#
# Lesson 02's chance model: every rater picks with the pooled shares $p_j$, so
# $P_e = \sum_j p_j^2$. For two raters this is **Scott's pi**, for more Fleiss'
# kappa.

# %%
pi_pe = sum(p * p for p in p_j)
print(f"P_e (pi) = {' + '.join(f'({p})²' for p in p_j)} = {pi_pe} = {fmt(pi_pe)}")

# %% [markdown]
# ### Cohen's and Conger's kappa: each rater their own shares
#
# Cohen's chance model keeps each rater's own shares: two raters $r$ and $s$
# agree by chance with probability $\sum_j p_{rj}\, p_{sj}$, $p_{rj}$ being the
# share of $r$'s labels in category $j$ (lesson 01 wrote A's shares $p_{j+}$ and
# B's $p_{+j}$). **Conger's kappa** (see the
# [glossary](00_start_here.ipynb#Glossary)) is Cohen's kappa for more raters:
# its $P_e$ is the mean of that over every pair of raters.
#
# ### Exercise 2: Conger's $P_e$
#
# From the table of labels per annotator, compute the chance agreement of the
# pairs A-B, A-C and B-C, then their mean (a fraction, or 3 decimals).
# **Predict first:** above or below the pooled $P_e$ just computed?

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("06.2", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
shares = {r: [Fraction(int(x), int(row.sum())) for x in row] for r, row in zip(ratings.raters, own)}
pairs = [(a, b) for i, a in enumerate(ratings.raters) for b in ratings.raters[i + 1:]]
pair_rows = []
for a, b in pairs:
    chance = sum(x * y for x, y in zip(shares[a], shares[b]))
    pair_rows.append([f"{a}-{b}", " + ".join(f"{x}·{y}" for x, y in zip(shares[a], shares[b])), str(chance)])
conger_pe = sum(Fraction(row[2]) for row in pair_rows) / len(pair_rows)
pair_rows.append(["mean", f"({' + '.join(row[2] for row in pair_rows)}) / {len(pairs)}", f"{conger_pe} = {fmt(conger_pe)}"])
Hidden(Table(["pair", "Σ p_rj p_sj (G, N, P)", "chance agreement"], pair_rows,
             caption="Conger's P_e: Cohen's chance agreement of each pair, then the mean"), "Show the worked answer")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(conger_kappa(ratings))["Chance agreement P_e"], "Show the helper's working")

# %% [markdown]
# ### Gwet's AC1: chance only on the hard items
#
# **Gwet's AC1** (see the [glossary](00_start_here.ipynb#Glossary)) assumes a
# rater labels at random only when an item is hard, and then agrees with another
# random rating with a probability that is small when one category dominates:
#
# $$P_e = \frac{1}{q - 1}\sum_j p_j (1 - p_j)$$
#
# ### Exercise 3: AC1's $P_e$
#
# Compute it from the pooled shares (a fraction, or 3 decimals).

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("06.3", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
terms = [p * (1 - p) for p in p_j]
ac1_pe = sum(terms) / (q - 1)
Hidden(Table(["quantity", "working", "value"], [
    ["p_j (1 - p_j)", ", ".join(f"{c}: {p}·{1 - p}" for c, p in zip(ratings.categories, p_j)),
     ", ".join(str(t) for t in terms)],
    ["P_e", f"({' + '.join(str(t) for t in terms)}) / ({q} - 1)", f"{ac1_pe} = {fmt(ac1_pe)}"],
], caption="Gwet's AC1 chance agreement by hand"), "Show the worked answer")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
Hidden(explain(gwet_ac(ratings))["Chance agreement P_e"], "Show the helper's working")

# %% [markdown]
# ### Krippendorff's alpha: drawing without replacement
#
# Lesson 03 wrote alpha as $1 - D_o/D_e$. On a complete table $1 - D_o$ is $P_a$,
# and $1 - D_e$ is a chance agreement: two of the $n$ pairable values drawn
# without replacement agree with probability $\sum_c n_c(n_c - 1) / (n(n - 1))$.
# So alpha is in the family too.

# %%
n_c = own.sum(axis=0)
n = int(n_c.sum())
alpha_pe = Fraction(int((n_c * (n_c - 1)).sum()), n * (n - 1))
print(f"P_e (alpha) = ({' + '.join(f'{int(x)}·{int(x) - 1}' for x in n_c)}) / ({n}·{n - 1}) = {alpha_pe} = {fmt(alpha_pe)}")

# %% [markdown]
# ## Side by side, by hand and with the helper
#
# Five chance agreements, one formula: formula (1). The table puts the numbers worked out above
# beside the helper's: `agreement_family` computes every member at once.

# %%
family = agreement_family(ratings)
shares = [[Fraction(int(x), int(row.sum())) for x in row] for row in own]  # each annotator's own shares
pair_chance = [sum(x * y for x, y in zip(shares[a], shares[b])) for a in range(3) for b in range(a + 1, 3)]
by_hand = {"Brennan-Prediger S": Fraction(1, q), "Fleiss' kappa": pi_pe,
           "Conger's kappa": sum(pair_chance) / len(pair_chance),
           "Gwet's AC1": sum(p * (1 - p) for p in p_j) / (q - 1), "Krippendorff's alpha": alpha_pe}
rows = []
for name, chance in by_hand.items():
    res = family[name]
    helper_pe = 1 - res.exact.d_e if name == "Krippendorff's alpha" else res.exact.p_e
    by_hand_value = (p_a - chance) / (1 - chance)
    rows.append([name, str(chance), fmt(helper_pe), f"{by_hand_value} = {fmt(by_hand_value)}", fmt(res.exact_value)])
Table(["coefficient", "P_e by hand", "P_e helper", "(P_a - P_e) / (1 - P_e) by hand", "helper"], rows,
      caption=f"The sentiment example: P_a = {p_a} = {fmt(p_a)} for every coefficient")

# %% [markdown]
# `explain` lays out any member's whole calculation, the way to write it on
# paper; here Conger's kappa, with each rater's shares $p_{rj}$ (rater $r$'s share
# of category $j$):

# %%
explain(family["Conger's kappa"], se=False)  # se=False: the standard error is lesson 07's

# %% [markdown]
# The same, as a picture: observed agreement and each model's chance agreement.
# The gap between $P_a$ and a bar is that coefficient's numerator.

# %%
plots.chance_chart(family)

# %% [markdown]
# Here the models differ little: the three labels are used fairly evenly, and
# the three annotators use them in much the same proportions. The next two
# sections show tables where the choice of model decides the answer.
#
# ## Paradox 1: high agreement, low kappa
#
# [Feinstein and Cicchetti (1990)](00_start_here.ipynb#Feinstein-and-Cicchetti-1990) gave two tables of two raters saying "yes" or
# "no" about 100 items. **Predict first:** both tables have the same observed
# agreement. In table (b) most items are "yes". Will kappa be the same?

# %%
for name in "ab":
    display(matrix_table(np.array(datasets.FEINSTEIN_CICCHETTI[name]), ["yes", "no"], corner="A \\ B",
                         caption=f"Table ({name}): rows rater A, columns rater B"))

# %% [markdown]
# ### Exercise 4: AC1 on table (b)
#
# Before the answer, work one coefficient out yourself. Compute Gwet's AC1 for Feinstein and Cicchetti's table (b) by hand: the pooled
# share of "yes" is the mean of the two raters' shares. **Predict first:** will
# AC1 be above or below $P_o$ of table (b)? Write a fraction or 3 decimals.

# %% tags=["exercise"]
answer = ...

# %% tags=["remove-output"]
check("06.4", answer)

# %% jupyter={"source_hidden": true} tags=["solution"]
# The worked answer: open it below, once you have tried.
table_b = datasets.feinstein_cicchetti("b")
ac1_b = gwet_ac(table_b)
yes = Fraction(90 + 85, 200)
pe_b = 2 * yes * (1 - yes) / (2 - 1)
Hidden(Table(["quantity", "working", "value"], [
    ["p_yes", "(90 + 85) / 200", str(yes)],
    ["P_e", f"(p_yes (1 - p_yes) + p_no (1 - p_no)) / (2 - 1) = 2 · {yes} · {1 - yes}", str(pe_b)],
    ["AC1", f"({ac1_b.exact.p_a} - {pe_b}) / (1 - {pe_b})", f"{ac1_b.exact.ac} = {fmt(ac1_b.exact.ac)}"],
], caption="Gwet's AC1 on table (b) by hand"), "Show the worked answer")

# %%
def family_rows(names):
    """The family on each of Feinstein and Cicchetti's tables, one row per table."""
    out = []
    for name in names:
        results = agreement_family(datasets.feinstein_cicchetti(name))
        out.append([f"({name})"] + [fmt(res.exact_value) for res in results.values()])
    return Table(["table"] + list(results), out, caption="Each coefficient on Feinstein and Cicchetti's tables")


family_rows("ab")

# %% [markdown]
# Same observed agreement, kappa cut by more than half. In table (b) both raters
# say "yes" to most items, so two random ratings would agree most of the time:
# $P_e$ is large, and little room is left above it. Scott's pi and alpha fall with
# kappa (their chance models use the same shares). Brennan-Prediger S does not move: its
# $P_e = 1/q$ ignores the shares. Gwet's AC1 even rises: its $P_e$ *shrinks* when
# one category dominates. Which behaviour is right depends on whether you think
# the raters' agreement on the common "yes" is skill or luck.
#
# ## Paradox 2: kappa rising with rater bias
#
# **Rater bias** (see the [glossary](00_start_here.ipynb#Glossary)): raters who
# differ in how often they use a category. In table (c) both raters say "yes" to
# most items; in table (d) rater A says "yes" to 60 items and rater B to 30.
# **Predict first:** the observed agreement is again the same. Which table gets
# the higher Cohen's kappa?

# %%
for name in "cd":
    display(matrix_table(np.array(datasets.FEINSTEIN_CICCHETTI[name]), ["yes", "no"], corner="A \\ B",
                         caption=f"Table ({name}): rows rater A, columns rater B"))
family_rows("cd")

# %% [markdown]
# The raters of table (d) disagree more about how often "yes" is right, and
# Cohen's kappa rewards them for it: with each rater's own shares, chance agreement
# is lower when the shares differ. Scott's pi, taking one set of shares for both,
# gives no such reward, so the gap between Cohen's kappa and Scott's pi measures
# the bias:

# %%
for name in "cd":
    res = agreement_family(datasets.feinstein_cicchetti(name))
    kappa, pi = res["Cohen's kappa"], res["Scott's pi"]
    print(f"table ({name}): Cohen's P_e {fmt(kappa.exact.p_e)}, Scott's P_e {fmt(pi.exact.p_e)}; "
          f"kappa - pi = {fmt(kappa.exact.kappa - pi.exact.pi)}")

# %% [markdown]
# (Scott's pi rises a little from (c) to (d) too, for another reason: the pooled
# shares of "yes" and "no" are more even in (d). That is paradox 1 again.)
#
# ## Which coefficient behaves how

# %%
Table(["coefficient", "one category dominates (paradox 1)", "raters differ in their shares (paradox 2)",
       "also"], [[with_symbols(cell) for cell in row] for row in [
    ["percent agreement", "stays high: no chance correction", "no effect", "agreement by luck counts as agreement"],
    ["Brennan-Prediger S", "moves only with P_a", "no effect", "depends on q: an unused category raises it"],
    ["Scott's pi, Fleiss' kappa", "falls", "no reward for bias", "one set of shares for all raters"],
    ["Cohen's, Conger's kappa", "falls", "rises with bias", "each rater's own shares"],
    ["Gwet's AC1", "holds up, may rise", "no reward for bias", "low P_e when one category dominates"],
    ["Krippendorff's alpha", "falls, like pi", "no reward for bias",
     "missing ratings, any number of raters, levels of measurement"],
]], caption="How the models of chance behave", align="llll")

# %% [markdown]
# ## When to use which
#
# No coefficient is right for every study; the table gives reasons, not a verdict.
# Whatever you choose, report $P_a$ and the category shares beside it: the two
# paradoxes are invisible in a single number.

# %%
Table(["your situation", "consider", "why", "watch out"], [[with_symbols(cell) for cell in row] for row in [
    ["you compare with published studies", "the coefficient they report, plus P_a",
     "numbers from different chance models do not compare", "the paradoxes hit theirs too: ask for shares"],
    ["missing ratings, many raters, ordered labels", "Krippendorff's alpha",
     "one coefficient for all of these; a small-sample correction", "falls like kappa when a category dominates"],
    ["one category dominates (rare events)", "kappa or alpha beside AC1 (or S), and P_a",
     "shows whether a low kappa is paradox 1", "AC1 credits agreement on the common category as skill"],
    ["raters use the categories at different rates", "Scott's pi, Fleiss' kappa or alpha",
     "one set of shares: bias earns no reward (paradox 2)", "the bias is a finding: report each rater's shares"],
    ["two raters, and how they differ matters", "Cohen's kappa with its agreement table",
     "each rater's own shares, the table shows who says what", "rewards bias; not comparable with pi"],
    ["the q categories are equally likely by design", "Brennan-Prediger S", "its chance model is then true",
     "otherwise it depends on how many categories you offer"],
]], caption="Choosing a coefficient: situations, candidates and reasons", align="llll")

# %% [markdown]
# ## Explore it yourself
#
# The explorer simulates raters of fixed accuracy and moves the prevalence of
# category 1; the readout gives each coefficient's $P_e$. **Predict first:** when
# category 1 dominates (its prevalence at the right end of the slider), which
# coefficient stays nearest to $P_a$, and which falls furthest? Decide, then run
# the cell. (The controls need a running kernel.)

# %%
ParadoxExplorer(n_categories=2, accuracy=0.9)

# %% [markdown]
# ## Recap
#
# - Every coefficient here is $(P_a - P_e)/(1 - P_e)$ (formula 1); only the model of chance,
#   and so $P_e$, differs.
# - S: $1/q$. Scott's pi and Fleiss' kappa: pooled shares. Cohen's and Conger's
#   kappa: each rater's own shares. AC1: chance only on hard items. Alpha: pooled
#   values drawn without replacement.
# - Paradox 1: one category dominating raises $P_e$ and lowers kappa, pi and alpha
#   although $P_a$ stays high; AC1 does the opposite, S ignores it.
# - Paradox 2: raters who use the categories at different rates lower Cohen's
#   $P_e$ and raise Cohen's kappa.
# - Choose with reasons, and report $P_a$ and the shares beside any coefficient.
#
# ## Try it yourself
#
# With the explorer above, make one category dominate: move the prevalence of
# category 1 to the right end of its slider, and check your prediction. Then
# compare the readout's chance agreements $P_e$ and explain the order with the
# models of chance of this lesson.

# %% [markdown]
# ## Recall
#
# Answer these from memory, without scrolling up; then open the answers.

# %%
recall_questions("06")

# %% jupyter={"source_hidden": true} tags=["solution"]
# The answers: open them below, once you have answered.
Hidden(recall_answers("06"), "Show the answers")

# %% [markdown]
# ## Next
#
# Go on to [lesson 07: how sure is the number?](07_how_sure.ipynb). The [start page](00_start_here.ipynb) has the notation, the
# glossary and the sources.
