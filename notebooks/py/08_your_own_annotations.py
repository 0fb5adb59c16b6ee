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
# # Find the raters, items and categories behind the disagreement
#
# A coefficient says how much a group of annotators agrees. It does not say who
# is out of step with the rest, which items the class should discuss, or which
# labels get mixed up. This notebook answers those three questions for a
# simulated class exercise and for a published table, then for your own file:
# a lesson and a tool in one.
#
# **What you'll do**
# - diagnose a class annotation exercise: 30 students label 40 product reviews;
# - find the student out of step by leaving each student out in turn, the reviews
#   worth discussing, and the labels the class confuses;
# - read the same report for Fleiss' (1971) psychiatric diagnoses, and see where
#   it stops meaning anything;
# - hand the disputed reviews to an adjudicator as a file, and grade the students
#   against an answer key;
# - upload your own ratings (CSV, TSV or XLSX) and save the report as one HTML page.
#
# **What you'll learn**
# - what "alpha without rater X" means, and why a rise marks a rater out of step;
# - how an item's disagreement is measured: the share of its pairs of ratings
#   that disagree, $1 - P_i$;
# - what observed against expected coincidences, $o_{ck} / e_{ck}$, says about two categories;
# - why a student who copies a classmate is not flagged, and why a rater ranking
#   needs each column to be one person;
# - how sure a ranking is (a bootstrap interval on each rise), and when two
#   raters cannot be told apart;
# - how to hand the disputed items to an adjudicator (a CSV file), and how to
#   grade annotators against an answer key (accuracy, kappa with the key, a
#   confusion table).
#
# **What you'll need**
# - notebooks 02 (Fleiss' kappa: $P_i$) and 03 (Krippendorff's alpha: the
#   coincidences $o_{ck}$);
# - for the last part, your own ratings: one row per item, one column per rater.
#
# **Notation.** $n_i$ is the number of ratings of item $i$ (Krippendorff writes
# $m_u$), $n_{ij}$ how many of them are in category $j$; $n_c$ is the number of
# pairable values in category $c$ and $n$ all of them.

# %%
import numpy as np
from IPython.display import HTML

from iaa_teach import (
    Ratings,
    datasets,
    diagnose,
    explain,
    fleiss_kappa,
    fmt,
    krippendorff_alpha,
    plots,
    ratings_table,
)
from iaa_teach import report as report_words
from iaa_teach.diagnosis import compare_with_gold
from iaa_teach.markup import Table, prose
from iaa_teach.worked import Hidden

# figures stored at twice the pixels (sharp on high-density screens and in the book)
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The class exercise
#
# Thirty students (S01 ... S30) each label forty reviews (R01 ... R40) as
# positive, negative, neutral, mixed or off-topic. A few cells are empty: a
# student skipped a review. The data are simulated, and some behaviour was
# planted in them; you will find it before you are told what it was.

# %%
ratings = datasets.class_annotations()
print(f"{ratings.n_items} reviews x {ratings.n_raters} students, {ratings.n_ratings} labels")
corner = ratings.subset(items=range(6), raters=range(7))
ratings_table(corner, caption="The first 6 reviews, the first 7 students")

# %% [markdown]
# `diagnose` computes Krippendorff's alpha of the whole table and everything
# this notebook looks at. It computes each table when you first ask for it.

# %%
report = diagnose(ratings)
report

# %% [markdown]
# ## Which student is out of step?
#
# Leave one student's column out and compute alpha again on the other 29. For
# most students alpha hardly moves. If it *rises*, the others agree better
# without that student.
#
# **Predict.** A student who answers at random: does alpha rise or fall without
# them? A student who copies the best student's sheet: rise or fall?
#
# **Try** it for one student, S01:

# %%
others = [s for s in ratings.raters if s != "S01"]
alpha_all = krippendorff_alpha(ratings)
alpha_without = krippendorff_alpha(ratings.subset(raters=others))
rise = alpha_without.exact.alpha - alpha_all.exact.alpha
print(f"alpha = {alpha_all:.3f}, without S01 = {alpha_without:.3f}, rise = {fmt(rise)}")

# %% [markdown]
# **Check.** The report does this for every student and sorts them, least in
# step first. It does not recompute alpha thirty times: alpha's counts are sums
# over students, so it subtracts each student's own part. The fractions are the
# same as by hand:

# %%
j = ratings.raters.index("S01")
same = report.exact.alpha_without[j] == alpha_without.exact.alpha
print("S01 by hand and in the report, the same fraction:", same)
report.rater_ranking().head(6)

# %% [markdown]
# `mean_kappa` is the student's mean Cohen's kappa with each other student;
# `bias` how far the student's label mix is from the others' on the same
# reviews (0: the same mix, 1: nothing in common), `overused` the label they use
# most above the others, and by how much (`overuse`, a share).

# %%
plots.leave_one_out_bars(report)

# %% [markdown]
# Who agrees with whom: Cohen's kappa of every two students, ordered so that
# students who agree sit together (an average-linkage clustering). A pale row
# is a student who agrees with no one; one very dark cell off the diagonal is
# two students with identical sheets.

# %%
plots.rater_agreement_heatmap(report)

# %%
plan = datasets.class_annotations_planted()
Hidden(
    Table(
        ["what was planted", "student"],
        [
            ["answers at random", plan.random_rater],
            ["writes positive on half the reviews", plan.biased_rater],
            [f"copies {plan.copied}'s sheet", plan.copier],
        ],
    ),
    "Show what was planted",
)

# %% [markdown]
# The random student is first and the biased one second: the `overused` column
# names their label. The copier is nowhere near the top. Copying the most
# accurate student makes the copier agree with everyone as well as the original
# does: agreement is not independence, and a report like this one cannot see
# copying except as a kappa of 1 between two sheets.
#
# ## How sure is the ranking?
#
# The 40 reviews are a sample: forty other reviews would move every rise a
# little. The **bootstrap** measures how much. It draws 40 reviews *with
# replacement* from the 40 (some come twice, some not at all), computes every
# student's rise on that draw, and repeats this hundreds of times (the table's
# caption says how many). The middle 95 % of a student's rises over all the
# draws is their **95 % bootstrap interval**: an interval that
# holds 0 means the rise could be noise. Two students **cannot be told apart**
# when, over the same draws, the difference between their two "alpha without"
# values runs from below 0 to above 0: on some draws one is further out of
# step, on others the other.
#
# **Predict.** The first student of the ranking above: with all 40 reviews, is
# their rise clear of 0 and of the next student's? With only the first 15
# reviews?
#
# **Try** it with all 40 reviews (the draws are seeded, so the numbers repeat):

# %%
sure = report.rater_intervals(seed=0)
rise = dict(zip(report.rater_ranking()["rater"], report.rater_ranking()["rise"]))
Table(
    ["student", "rise", "95 % interval from", "to"],
    [[name, fmt(rise[name]), fmt(lo), fmt(hi)] for name, lo, hi in zip(sure.raters, sure.low, sure.high)][:5],
    caption=f"The 5 students least in step, with their 95 % bootstrap intervals ({sure.n_boot} draws)",
)

# %% [markdown]
# **Check.** The report says in words what the intervals allow:

# %%
HTML(report_words.raters_text(report, sure))

# %% [markdown]
# With only the first 15 reviews the intervals widen, and the report no longer
# names one student:

# %%
first_15 = diagnose(ratings.subset(items=range(15)))
HTML(report_words.raters_text(first_15, first_15.rater_intervals(seed=0)))

# %% [markdown]
# A ranking always has a first place; the intervals say whether it means
# anything. The same holds for the reviews below: a review ranked above another
# by a hair is no more disputed.
#
# ## Which reviews should the class discuss?
#
# An item's disagreement $D_i$ is the share of the ordered pairs of its ratings
# that disagree: with $n_i$ ratings, $n_{ij}$ of them in category $j$,
#
# $$D_i = \frac{n_i^2 - \sum_j n_{ij}^2}{n_i(n_i - 1)} = 1 - P_i$$
#
# where $P_i$ is Fleiss' agreement on the item (notebook 02, formula 1).
#
# **Predict.** Two reviews with 28 ratings each: one split 14 positive / 14
# negative, the other 10 / 10 / 8 over three labels. Which has the larger
# disagreement?

# %%
for split in ([14, 14], [10, 10, 8]):
    n_ij = np.array(split)
    n_i = n_ij.sum()
    print(split, "D_i =", fmt((n_i**2 - (n_ij**2).sum()) / (n_i * (n_i - 1))))

# %% [markdown]
# A three-way split disagrees more: more of its pairs are mixed. **Try** the
# same on the report's most disputed review:

# %%
top = report.item_ranking()[0]
n_ij = np.array([n for n in top["label_counts"].values() if n])
n_i = n_ij.sum()
print(top["item"], {c: n for c, n in top["label_counts"].items() if n})
d_i = (n_i**2 - (n_ij**2).sum()) / (n_i * (n_i - 1))
print(f"D_i = ({n_i}^2 - {(n_ij**2).sum()}) / ({n_i} x {n_i - 1}) = {fmt(d_i)}")

# %% [markdown]
# **Check** against the report, and against $1 - P_i$ from Fleiss' kappa:

# %%
p_i = dict(zip(ratings.items, fleiss_kappa(ratings).p_i))
print(f"report: {fmt(top['disagreement'])}, 1 - P_i: {fmt(1 - p_i[top['item']])}")
report.item_ranking().head(8)

# %%
plots.item_disagreement_chart(report)

# %%
ambiguous = ", ".join(sorted(plan.ambiguous))
Hidden(
    prose(
        "Planted as genuinely ambiguous (three readings, each taken by a third of the class): {items}.",
        items=ambiguous,
    ),
    "Show the ambiguous reviews",
)

# %% [markdown]
# The ambiguous reviews head the ranking, well above the rest. These are the
# reviews to discuss in class, or to send to an adjudicator. The next ones down
# are clear reviews that the class split between neutral and mixed (their
# `label_counts`), which leads to the last question.
#
# ## Which labels get confused?
#
# The coincidence matrix of notebook 03 counts, for every two labels $c$ and
# $k$, the pairs of ratings of the same review that are one $c$ and one $k$,
# each review's pairs weighted by $1/(n_i - 1)$: that is $o_{ck}$. If the
# ratings were paired at random, $c$ would meet $k$
# $e_{ck} = n_c n_k / (n - 1)$ times. A ratio $o_{ck}/e_{ck}$ well below 1
# means the class tells the two apart; near or above 1, it does not.
#
# **Predict.** Positive and negative, or neutral and mixed: which pair meets
# more often than chance?
#
# **Try** it for neutral and mixed:

# %%
alpha = report.alpha
c, k = ratings.categories.index("neutral"), ratings.categories.index("mixed")
o_ck = alpha.coincidences[c, k]
e_ck = alpha.n_c[c] * alpha.n_c[k] / (alpha.n - 1)
print(f"o_ck = {fmt(o_ck)}, e_ck = {fmt(e_ck)}, o_ck / e_ck = {fmt(o_ck / e_ck)}")

# %% [markdown]
# **Check:** the report ranks every pair.

# %%
report.confused_pairs().head(5)

# %%
plots.confusion_heatmap(report)

# %% [markdown]
# Neutral and mixed meet more often than chance would pair them (the first row,
# a ratio above 1), every other pair well below chance. (The simulation planted it: a student who reads
# a review as neutral writes mixed 15 % of the time, and the other way round.)
# Agreement on each label on its own tells the same story: the kappa of
# "mixed" against everything else is the lowest.

# %%
report.category_agreement()

# %% [markdown]
# ## The worked steps
#
# `explain` writes out the report's key steps with the numbers: alpha, alpha
# without the student least in step, the most disputed review's $D_i$ and the
# most confused pair's $o_{ck} / e_{ck}$.

# %%
explain(report)

# %% [markdown]
# ## Act on it: a file to adjudicate, an answer key to grade against
#
# An **adjudicator** settles a disputed item: they read its ratings and decide
# its label. The report lists every review whose ratings disagree, most
# disputed first, with how many times each label was given and why it needs a
# decision: a **tie** (two labels given equally often and more than any
# other), **no majority** (the most frequent label has half of the ratings or
# fewer) or a **majority** with dissent.

# %%
to_decide = report_words.adjudication_records(report)
Table(
    ["review", "D_i", "ratings", "labels given", "why it needs a decision"],
    [
        [
            row["item"],
            fmt(row["disagreement"]),
            row["ratings"],
            ", ".join(f"{label} {n}" for label, n in row["labels"].items()),
            row["why"],
        ]
        for row in to_decide[:4]
    ],
    caption=f"The first 4 of the {len(to_decide)} reviews to adjudicate",
    align="lrrll",
)

# %% [markdown]
# The whole list is a CSV file for a spreadsheet, with one more column per
# student (their label) so the adjudicator sees who said what. The link holds
# the file itself: click it to download.

# %%
HTML(report_words.adjudication_html(report, "class_reviews_to_adjudicate.csv"))

# %% [markdown]
# (From code: `report.write_adjudication_csv(mine, "to_adjudicate.csv")`; from a
# terminal: `iaa-teach report my_ratings.csv --items-csv to_adjudicate.csv`.)
#
# Once the disputed items are settled, or when an expert has written an
# **answer key**, each annotator can be compared with it. The key's labels are
# called **gold** labels. Three numbers describe an annotator against the gold:
#
# - **accuracy**: the share of the items both labelled where the annotator
#   gave the gold label;
# - **Cohen's kappa with the gold** (notebook 01, with the key as one rater):
#   agreement beyond what the two label shares would give by chance;
# - the **confusion table**: rows the gold label, columns the annotator's
#   label, each cell a count of items; the diagonal is correct, the rest shows
#   which labels they mix up.
#
# The simulation knows the true label of every clear review; the ambiguous
# reviews have none. That is the answer key, added as a column `key`:

# %%
key = [plan.truth.get(review) for review in ratings.items]  # None: an ambiguous review
key_codes = [ratings.categories.index(label) if label else Ratings.MISSING for label in key]
graded = Ratings.from_codes(
    np.column_stack([ratings.codes, key_codes]), ratings.categories, [*ratings.raters, "key"], ratings.items
)
print(f"{sum(label is not None for label in key)} of {ratings.n_items} reviews have a key")

# %% [markdown]
# **Predict.** Which students are the least accurate? Is the copier as
# accurate as the student copied?
#
# **Try:** `compare_with_gold` leaves the `key` column out and compares every
# student with it, least accurate first.

# %%
gold = compare_with_gold(graded, "key")
graded_rows = report_words.gold_records(gold)
Table(
    ["student", "reviews with a key", "correct", "accuracy", "kappa with the key", "95 % interval"],
    [
        [
            row["annotator"],
            row["items"],
            row["correct"],
            fmt(row["accuracy"]),
            fmt(row["kappa"]),
            f"{fmt(row['low'])} to {fmt(row['high'])}",
        ]
        for row in graded_rows[:4]
    ],
    caption=f"The 4 least accurate of {len(graded_rows)} students against the key",
)


# %% [markdown]
# **Check** the first student's accuracy by hand, on the reviews that have a
# key and a label from them:

# %%
worst = graded_rows[0]["annotator"]
j = ratings.raters.index(worst)
both = [(k, row[j]) for k, row in zip(key, ratings.rows()) if k is not None and row[j] is not None]
right = sum(k == label for k, label in both)
print(f"{worst}: {right} of {len(both)} labels match the key, accuracy {fmt(right / len(both))}")

# %%
confusion = gold.confusion[worst]
Table(
    [f"key (rows) / {worst} (columns)", *ratings.categories],
    [[label, *counts] for label, counts in zip(ratings.categories, confusion.tolist())],
    caption=f"{worst}'s labels against the key: counts of reviews, the diagonal correct",
)

# %%
copier, copied = (gold.table[list(gold.table["annotator"]).index(s)] for s in (plan.copier, plan.copied))
Table(
    ["student", "accuracy", "kappa with the key"],
    [[row["annotator"], fmt(row["accuracy"]), fmt(row["kappa"])] for row in (copier, copied)],
    caption="The copier and the student copied",
)

# %% [markdown]
# The random student is the least accurate, with a kappa with the key near 0:
# their labels match the key about as often as chance would. Their confusion
# table spreads over every column. The copier scores exactly what the copied
# student scores: a key rewards a copy of a good sheet, and only the pairwise
# kappa of 1 between the two gives it away.
#
# ## A published table: Fleiss' psychiatric diagnoses
#
# Fleiss (1971) introduced his kappa on 30 patients, each diagnosed by six
# psychiatrists into one of five categories. The items and the categories of
# this table mean what they say:

# %%
fleiss = diagnose(datasets.diagnoses())
fleiss.item_ranking().head(5)

# %% [markdown]
# **Ties are ties.** Five patients share the largest disagreement; the table
# lists them in the file's order, which ranks nothing. The report's words name
# them together:

# %%
HTML(report_words.disputed_text(fleiss))

# %%
plots.confusion_heatmap(fleiss)

# %%
fleiss.category_agreement()

# %% [markdown]
# The `kappa` column is Fleiss' kappa for each diagnosis on its own, as he
# reported it: the psychiatrists agree least on depression and personality
# disorder, and personality disorder and neurosis are the one pair confused
# more often than chance.
#
# **Predict.** The report also ranks the six columns. Column `rater1` comes
# first: what does that say about a psychiatrist?

# %%
fleiss.rater_ranking().head(3)

# %% [markdown]
# Nothing. Each patient was seen by a *different* set of six psychiatrists, so
# `rater1` is not one person, and in this table each row's diagnoses are
# sorted, so column 1 holds the first diagnosis in Fleiss' order (depression)
# whenever anyone gave it, and column 6 the last (other): that is their
# "overuse". A rater
# ranking needs each column to be the same person on every item. The items and
# categories above do not depend on who sat in which column.
#
# ## Your own annotations
#
# Upload a file with the button, type its path and press "read", or pick an
# example. The file: a header row with the raters' names, then one row per
# item, an empty cell (or `NA`, `n/a`, `#N/A`...) where a rater gave no label;
# comma- or tab-separated (CSV, TSV) or an Excel sheet (XLSX). A first column
# with no name or an ID's name (`item`, `id`, `patient`, `subject`, `#`...)
# holds the item IDs. A file with one rating per line (`item, rater, label`)
# is recognised as "long".
#
# **Check how it was read first.** Above the report, one line says what the
# file was taken to be: the layout, which column holds the item IDs, the
# raters, the categories in their order and the missing cells. Every guess
# follows as a note, and anything that looks wrong (a "rater" whose values are
# all different, e-mail addresses or timestamps as labels, `Yes` beside `yes`)
# as a warning naming the control that fixes it: the layout ("raters as rows"
# for a form's export, one row per respondent), the item, rater and label
# columns, the columns to leave out, the title rows to skip, "merge letter
# case", and the "encoding" box beside the path (`cp1252` for a CSV that
# Excel saved with accented letters, which is otherwise not read). Changing
# one reads the file again. A file that cannot be read clears the report and says why,
# and what to change. Before you project the report
# in class, tick "raters as R1..Rn": names and e-mail addresses disappear
# from the tables, the figures and the saved page. Label Studio's JSON export
# and Prodigy's JSONL are read too.
#
# The report shows one view at a time, chosen with **show**, so that each fits
# a projector: the summary (how the file was read, the main numbers, the
# findings), the four figures beside the controls, the raters with the
# bootstrap interval of each rise, the items, the categories, every pair of
# raters, every coefficient of the whole table with its interval, the items to
# adjudicate (a CSV download), each annotator against a "gold column" if you
# name one, and the worked steps. The file's reading options and "save HTML"
# are under "file and saving": the whole report as one page that opens
# anywhere, offline. (The controls need a running kernel.)

# %%
from iaa_teach.widgets import AnnotationsExplorer

AnnotationsExplorer()

# %% [markdown]
# The same from code, for a file you name and a report you keep:
#
# ```python
# from iaa_teach import Ratings, diagnose, report
#
# ratings = Ratings.from_csv("my_ratings.csv")  # item=, raters_as_rows=, drop=... if a guess is wrong
# print(ratings.reading)  # how it was read; report.summary_lines(ratings) says it in words
# mine = diagnose(ratings, level="nominal")
# mine.rater_ranking(), mine.item_ranking(), mine.confused_pairs()
# report.write_html(mine, "my_report.html", source="my_ratings.csv")
# report.write_json(mine, "my_report.json")  # the same numbers, for a program
# ```
#
# or from a terminal: `iaa-teach report my_ratings.csv --html my_report.html --json my_report.json`.
#
# ## Recap
#
# - Leave each rater out and recompute alpha: a rise means the others agree
#   better without them. The counts are sums over raters, so all the
#   leave-one-out values come at once.
# - An item's disagreement $D_i = 1 - P_i$ is the share of its pairs of ratings
#   that disagree; the top of the ranking is what to discuss or adjudicate.
# - $o_{ck} / e_{ck}$ compares how often two labels meet on the same item with
#   chance: near or above 1, the raters cannot tell them apart.
# - A copier is not out of step, and a rater ranking means nothing unless each
#   column is one person.
# - A ranking always has a first place: a bootstrap interval on each rise says
#   whether it means anything, and raters whose intervals overlap are named
#   together; items tied are named as ties.
# - The items to adjudicate go out as a CSV file; against an answer key (gold
#   labels), each annotator has an accuracy, a kappa with the key and a
#   confusion table.
#
# ## On your own
#
# Leave out both the random student and the biased one. Does alpha rise by the
# sum of their two rises, by more, or by less? Predict, compute, then open the
# answer.

# %% tags=["solution"]
both = [s for s in ratings.raters if s not in (plan.random_rater, plan.biased_rater)]
rises = {row["rater"]: row["rise"] for row in report.rater_ranking()}
together = krippendorff_alpha(ratings.subset(raters=both)).alpha - alpha_all.alpha
Hidden(
    prose(
        "Together: {t}; the sum of the two rises: {s}.",
        t=fmt(together),
        s=fmt(rises[plan.random_rater] + rises[plan.biased_rater]),
    ),
    "Show the answer",
)
