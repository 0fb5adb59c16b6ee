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
# **How to run a lesson.** Open it (click its title below) and run its cells
# **one at a time**, from the top: click a cell, press *Shift+Enter*, read what
# it shows, then go on. Stop at each exercise and try it before you run on.
# *Run > Run All Cells* is safe too: no output above an exercise's worked answer
# gives its answer away (the answers sit below, folded). Each lesson takes the
# time given below, exercises included.

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
#   it comes out that way, and the right one. The texts, and every book and
#   paper the lessons cite, are listed under [Sources](00_start_here.ipynb#Sources) below.
# - **Recall.** Each lesson ends with a few questions to answer from memory
#   (answers folded) and a link to the next lesson.
#
# For a class on a projector: zoom the browser (Ctrl and +) and close the side panel
# with *Ctrl+B* (*View > Appearance > Show Left Sidebar*); *View > Appearance > Simple
# Interface* then shows one notebook at a time.
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
# Lessons name a kappa's band ("moderate") from lesson 01 on. The bands of
# [Landis and Koch (1977)](00_start_here.ipynb#Landis-and-Koch-1977) and their cut-offs, a convention for talking about numbers rather than a law
# (for alpha, Krippendorff's own guidance is in the glossary above):

# %%
landis_koch_table()

# %% [markdown]
# ## Sources
#
# The lessons teach from three short course texts, and correct them where they
# go wrong; they cite the books and papers below. Each lesson that corrects or
# cites one links here.
#
# ### The worked example
#
# *Inter-Annotator Agreement: Worked Example*, a section of the chapter
# "Inter-Annotator Agreement" of Michael Brenndoerfer's online *Language AI
# Handbook* (2026). Three annotators A, B, C label ten sentences Positive (P),
# Neutral (N) or Negative (G); it works Cohen's kappa for A and B, Fleiss' kappa
# item by item and a coincidence count by hand. Lessons 01-03 reproduce its
# numbers where they are right and show where it slips: its Fleiss' kappa
# (rounded on the way, lesson 02) and its "alpha", which is Fleiss' kappa again
# (lesson 03).
#
# ### The code walkthrough
#
# *Inter-Annotator Agreement: Code Implementation*, section 7 of the same
# chapter (Brenndoerfer, *Language AI Handbook*, 8 March 2026): the same example
# in numpy, its figures, and a missing-data case (item 3 of B and item 8 of C
# removed). Corrected in lesson 01 (the lowest pair), lesson 03 (its alpha),
# lesson 04 (its alpha with gaps, and "Fleiss' kappa cannot handle missing
# data") and lessons 02-03 (its code returns 0 where a coefficient is undefined).
#
# ### The partial-annotation text
#
# *Handling Partial Annotation*, a short text (no author given in the course's
# copy) on five annotators who cover different items, the setting of Cambridge's
# Computer Science Tripos, Part IA, 2023, Paper 3, Question 7 (an exam question
# of the MLRD course below). It argues against merging two annotators and adapts
# Fleiss' kappa with a per-item number of annotators (it writes $k$ where the
# course writes $n_i$), $P_a$ over items with two or more labels and $P_e$ from
# all labels. Lessons 04 and 05 follow it and name its chance rule ("pooled").
#
# ### The MLRD notes
#
# *Machine Learning and Real-world Data* (MLRD), University of Cambridge,
# Department of Computer Science and Technology, Computer Science Tripos Part
# IA; principal lecturer Simone Teufel. Course materials:
# <https://www.cl.cam.ac.uk/teaching/current/MLRD/>; the session "Uncertainty
# and human agreement" teaches kappa. Lesson 04 cites it for the item-mean chance
# rule.
#
# ### Gwet 2014
#
# Kilem Li Gwet, *Handbook of Inter-Rater Reliability: The Definitive Guide to
# Measuring the Extent of Agreement Among Raters*, 4th edition. Gaithersburg,
# MD: Advanced Analytics, LLC, 2014. ISBN 978-0970806284. Lessons 04 and 06 use
# its chance rules and coefficients (AC1, Brennan-Prediger S, Conger's kappa);
# lesson 07 its standard errors (linearization) and its t critical value.
#
# ### Krippendorff 2011
#
# Klaus Krippendorff, "Computing Krippendorff's Alpha-Reliability".
# Departmental Papers (ASC), Annenberg School for Communication, University of
# Pennsylvania, 2011. <https://repository.upenn.edu/asc_papers/43>. Lessons 03
# and 04 compute alpha as it does: coincidences weighted by $1/(n_i - 1)$.
#
# ### Fleiss 1971
#
# Joseph L. Fleiss, "Measuring nominal scale agreement among many raters".
# *Psychological Bulletin* 76(5), 378-382, 1971. doi:10.1037/h0031619. Lesson 02.
#
# ### Artstein and Poesio 2008
#
# Ron Artstein and Massimo Poesio, "Inter-Coder Agreement for Computational
# Linguistics". *Computational Linguistics* 34(4), 555-596, 2008. A survey of
# kappa, pi and alpha for corpus annotation, and the source of the view of
# lesson 06 that the coefficients differ only in their model of chance.
#
# ### Feinstein and Cicchetti 1990
#
# Alvan R. Feinstein and Domenic V. Cicchetti, "High agreement but low kappa:
# I. The problems of two paradoxes". *Journal of Clinical Epidemiology* 43(6),
# 543-549, 1990. doi:10.1016/0895-4356(90)90158-L. Lesson 06: its two
# paradoxes and tables.
#
# ### Landis and Koch 1977
#
# J. Richard Landis and Gary G. Koch, "The measurement of observer agreement
# for categorical data". *Biometrics* 33(1), 159-174, 1977. The bands that put a
# kappa into words, from lesson 01 on.
#
# ### Light 1971
#
# Richard J. Light, "Measures of response agreement for qualitative data: some
# generalizations and alternatives". *Psychological Bulletin* 76(5), 365-377,
# 1971. Light's kappa, the mean of Cohen's kappa over every pair of annotators:
# lesson 01.
#
# ### Cohen 1968
#
# Jacob Cohen, "Weighted kappa: nominal scale agreement with provision for
# scaled disagreement or partial credit". *Psychological Bulletin* 70(4),
# 213-220, 1968. Weighted kappa and its agreement weights: lesson 03.
#
# ### Krippendorff 2004
#
# Klaus Krippendorff, *Content Analysis: An Introduction to Its Methodology*,
# 2nd edition. Thousand Oaks, CA: Sage, 2004. Its guidance on which values of
# alpha to rely on (section 11.4) is the one in the glossary: lesson 03.
#
# ### Bennett, Alpert and Goldstein 1954
#
# E. M. Bennett, R. Alpert and A. C. Goldstein, "Communications through
# limited-response questioning". *Public Opinion Quarterly* 18(3), 303-308,
# 1954. The S coefficient for two raters, chance agreement $1/q$: lesson 06.
#
# ### Brennan and Prediger 1981
#
# Robert L. Brennan and Dale J. Prediger, "Coefficient kappa: some uses,
# misuses, and alternatives". *Educational and Psychological Measurement*
# 41(3), 687-699, 1981. doi:10.1177/001316448104100307. S for any number of
# raters (Brennan-Prediger S): lesson 06.
#
# ### Conger 1980
#
# Anthony J. Conger, "Integration and generalization of kappas for multiple
# raters". *Psychological Bulletin* 88(2), 322-328, 1980. Conger's kappa:
# lesson 06.
#
# ### Gwet 2008
#
# Kilem Li Gwet, "Computing inter-rater reliability and its variance in the
# presence of high agreement". *British Journal of Mathematical and Statistical
# Psychology* 61(1), 29-48, 2008. The AC1 coefficient: lesson 06.
#
# ## Where to go next
#
# Open [lesson 01: Cohen's kappa](01_cohens_kappa.ipynb). Instructors: the
# [playground](09_instructor_playground.ipynb) puts all the explorers on one
# page, and `make student` (see the README) writes copies of the lessons
# without the worked answers.
