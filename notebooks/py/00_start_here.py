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
# # Start here: learn to measure how far annotators agree
#
# People who label data (sentences, images, medical scans) disagree. Before
# anyone trusts their labels, we ask: **how much do they agree, beyond what
# they would agree by luck?** This course teaches the three coefficients that
# answer it in most papers and exams (Cohen's kappa, Fleiss' kappa and
# Krippendorff's alpha), by hand first and then with a small helper package,
# `iaa_teach`.
#
# **What you'll do here**
# - see the lessons, their order and how long each takes;
# - learn how the lessons work: exercises, hidden answers, explorers;
# - meet the notation every lesson uses and the glossary of terms.
#
# **What you'll need**
# - basic probability (the chance of two independent events) and fractions;
# - a little Python and numpy: arrays, sums, indexing. Every step is shown.
#
# **How to run a lesson.** Open it (click its title below), then
# *Run > Run All Cells*. Work from top to bottom; each lesson takes the time
# given below, exercises included.

# %%
from iaa_teach.course import glossary_table, landis_koch_table, lesson_table, notation_table

# %% [markdown]
# ## The lessons
#
# In this order: each lesson uses the ones before it. Lessons marked
# *(coming)* are being written.

# %%
lesson_table()

# %% [markdown]
# ## How the lessons work
#
# - **Predict first.** Before a key result, a lesson asks you what you
#   expect ("what happens to kappa if ...?"). Decide, then run the next cell.
# - **Exercises.** Each lesson has a few. An exercise cell holds
#   `answer = ...`: replace the `...` with your number (a fraction such as
#   `7/10`, or a decimal to 3 places) or with a line of code
#   that computes it, and run the cell, then the check below it. The check
#   says *Right* or *Not yet* and which step to look at again; it never shows
#   the answer.
# - **Hidden answers.** A worked answer sits folded under
#   "Show the worked answer" after each exercise: click that line to open it,
#   once you have tried. (Its code is folded too: click the dots to see it.)
# - **Explorers.** Most lessons end with an explorer: sliders, dropdowns and
#   buttons that change the data while every number and figure follows. They
#   need a running kernel. Every control works from the keyboard (Tab moves
#   between controls, arrow keys change a value).
# - **Where the course texts go wrong**, a lesson shows the text's number, why
#   it comes out that way, and the right one.
#
# For a class on a projector: zoom the browser (Ctrl and +) and choose
# *View > Appearance > Simple Interface* to hide the side panels.
#
# ## Notation
#
# One symbol for each quantity, in every lesson and in every worked solution
# the helper writes. Where one of the source texts writes the same quantity
# differently, the third column says so. Letters: $i$ is an item, $j$ and $k$
# are categories ($c$ and $k$ in Krippendorff's formulas).

# %%
notation_table()

# %% [markdown]
# ## Glossary
#
# The terms the lessons use, each defined once, with the lesson that
# introduces it. The lessons link here when they first use a term.

# %%
glossary_table()

# %% [markdown]
# ### The Landis and Koch bands
#
# Lessons name a kappa's band ("moderate") from lesson 01 on. The bands and
# their cut-offs, a convention for talking about numbers rather than a law
# (for alpha, Krippendorff's own guidance is in the glossary above):

# %%
landis_koch_table()

# %% [markdown]
# ## Where to go next
#
# Open [lesson 01: Cohen's kappa](01_cohens_kappa.ipynb). Instructors: the
# [playground](09_instructor_playground.ipynb) puts all the explorers on one
# page, and `make student` (see the README) writes copies of the lessons
# without the worked answers.
