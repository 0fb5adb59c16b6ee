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
# # Revise for the exam: fresh questions, worked solutions, your usual mistakes
#
# Exam questions on agreement give you a small table of labels and ask for the
# working: observed agreement, chance agreement, the coefficient, and a sentence
# or two of explanation. This notebook gives you as many such questions as you
# want. Each one is drawn from a seed, so you and a friend (or you and your
# supervisor) can work on the same question; each one comes with a full worked
# solution, and a checker that marks as an examiner does: method (M) and
# accuracy (A) marks, follow-through from your own earlier answers, and the
# usual mistakes named with the step where they happen.
#
# **What you'll do**
# - work one question by hand, check your answers, and read its worked solution;
# - see the numbers the usual mistakes produce, so you recognise them in your own working;
# - practise with a quiz: new question, your answers, "check", the solution step by step;
# - sit a short mock exam against the clock, marked part by part, with your marks by skill;
# - if you want, keep a log of your mistakes on your own computer, so the quiz brings back
#   what you got wrong.
#
# **What you'll need**
# - lessons 01-06 (Cohen's kappa, Fleiss' kappa and Scott's pi, Krippendorff's
#   alpha and weighted kappa, missing ratings, partial coverage, and the family
#   of coefficients: percent agreement, Gwet's AC1); paper and a calculator.

# %%
from pathlib import Path

from iaa_teach import fmt
from iaa_teach.exercises import KINDS, MistakeLog, make_question, worksheet
from iaa_teach.markup import Prose, Table
from iaa_teach.widgets import MockExam, Quiz
from iaa_teach.worked import Hidden

# %% [markdown]
# ## How to use it
#
# `make_question(kind, seed)` draws an exam-style table and its questions. The
# kinds are:

# %%
print(", ".join(KINDS))

# %% [markdown]
# - `cohen`: two annotators, Cohen's kappa (lesson 01);
# - `weighted`: two annotators on an ordered scale, linear or quadratic weighted kappa
#   (lesson 03);
# - `fleiss`: three to five annotators, Fleiss' kappa (lesson 02);
# - `alpha`: Krippendorff's alpha with missing ratings (lessons 03 and 04);
# - `partial`: Fleiss' kappa when annotators cover different items (per-item $n_i$,
#   single-rated items, and the chance rule the question names; lesson 05);
# - `pi` and `ac1`: Scott's pi (lesson 02) and Gwet's AC1 (lesson 06) for two annotators;
# - `percent`: two annotators' percent agreement $P_o$ by hand, and why it is not
#   corrected for chance (lesson 06; at level 4, Cohen's kappa beside it).
#
# The same kind and seed always give the same question. `level=1` gives a small
# table (4-6 items, 2 categories), `level=2` (the default) a medium one,
# `level=3` an exam-sized one, where some questions make you choose the
# coefficient yourself, and `level=4` a question shaped like a Tripos one, of
# 20 marks in three sections: the calculation; partial coverage (an annotator
# who stops early) and a second chance rule, both computed, with why the two
# values differ; and a part where you design a study. Every part shows its
# marks, like `[2]`. Work it on
# paper first; then `question.check(part, answer)` marks one answer (to 3
# decimals, as asked, or as a fraction such as `"29/59"`; a letter for a
# multiple-choice part, the letters of every statement that applies for a
# select-all part), and `question.solution()` shows the working.
#
# How the marks work. A number earns method marks (M) for the right method and
# an accuracy mark (A) for the value to 3 decimals: right only to 2 decimals,
# or a value rounded too early, loses the A mark and keeps the M marks. A
# coefficient is marked against *your own* earlier answers
# (`question.mark({...})`): a kappa computed correctly from a wrong $P_e$ earns
# its marks ("follow-through"); the wrong $P_e$ loses its own. A part answered
# in words is never marked by a machine: after you submit it you see the mark
# scheme's points and tick those your answer makes, and the score says
# "self-marked". `question.id` is a code that names no kind; `question_for(code)`
# brings the question back with its worked solution (the codes are registered
# with the lessons' exercise ids: `lesson_exercises.lookup("01.1")` and
# `lookup(code)` both work).
#
# ## One question, worked in full

# %%
question = make_question("fleiss", seed=48)
question

# %% [markdown]
# Stop here and work parts (a) to (c) by hand. Then check your own answers,
# for example `question.check("c", answer)`, with your number for part (c) as `answer`.
# The cells below show what the checker says to three answers; each is folded
# away, because the answers give the question away: open them once you have
# tried.

# %%
right = question.answers()
Hidden(Prose(str(question.check("c", fmt(right["c"])))),
       "What the checker says to the right answer of part (c)")

# %% [markdown]
# A student who rounded $P_i$, $p_j$, $P_a$ and $P_e$ to three decimals on
# the way (the slip of the worked-example text, see lesson 02): the method is
# right, so the method mark stays and only the accuracy mark is lost.

# %%
rounded = next(m for m in question.mistakes("c") if m.id == "rounding")
Hidden(Prose(str(question.check("c", fmt(rounded.value)))), "What the checker says to the rounded answer")

# %% [markdown]
# An answer that no usual mistake explains gets a hint instead, and never the answer:

# %%
Hidden(Prose(str(question.check("c", "0.25"))), "What the checker says to an unexplained answer")

# %% [markdown]
# ### The usual mistakes, and what they give here
#
# The checker knows these mistakes because it works them out, deliberately, on
# the same table. If your answer is one of these numbers, the name tells you
# what to fix.

# %%
usual = Table(["part", "value", "mistake"], [[f"({part.label})", fmt(m.value), m.name]
                                             for part in question.parts for m in part.mistakes], align="lrl")
Hidden(usual, "Show the usual mistakes and their values")

# %% [markdown]
# ### The worked solution
#
# Every step with its formula, the numbers put in, the exact fraction and its
# 3-decimal value, then the answers to every part, including a model answer
# for the part in words. Open it once you have worked the question:

# %%
Hidden(question.solution(), "Show the worked solution")

# %% [markdown]
# ## Your mistake log (only if you turn it on)
#
# The quiz and the mock exam below can remember, from one session to the next,
# which answers you got right and which usual mistakes you made. The log is
# **off** unless you turn it on: set `KEEP_MY_LOG = True` in the next cell and
# run it again. It is a small JSON file on your own computer, in your user data
# folder (on Linux `~/.local/share/iaa-teach/mistake-log.json`; the environment
# variable `IAA_TEACH_MISTAKE_LOG` puts it elsewhere), and nothing is sent
# anywhere. It keeps, for each part you check, the kind of question, the part
# and the skill it practises, right or wrong, the usual mistake your answer
# matches, and the date.
#
# With the log on, **new question** brings back the kinds you got wrong more
# often (each kind moves up a *Leitner box* when you get it right and back to
# box 1 when you slip; box 1 comes back twice as often as box 2, and so on),
# and the quiz reminds you of your usual mistakes in that kind.
# `log.summary()` shows your log as two tables; `log.clear()` empties it.
# If the file is damaged or cannot be read, the quiz says so and carries on.

# %%
KEEP_MY_LOG = False  # True: keep your answers and mistakes between sessions, on this computer only
log = MistakeLog.open() if KEEP_MY_LOG else None
if log is None:
    print("The mistake log is off: nothing is kept after this session.")
else:
    print(log.status)

# %% [markdown]
# ## The quiz
#
# Choose a kind and a level (1: a small table with two categories; 2: the
# usual size; 3: exam size, with missing ratings or partial coverage; 4: a
# Tripos-shaped question of 20 marks). The kind **which coefficient?**
# gives exam-size questions that do not say which coefficient to use: you
# choose it (a kind's own entry never gives those, since its name would be
# the answer). Press
# **new question** (it moves the seed on by one; type a seed to go back to a
# question), type your answers, press **check**. When you are stuck, **show
# the next step** reveals the worked solution one step at a time; **show the
# full solution** shows all of it. **check** marks the coefficient with
# follow-through from your own answers above it. A part answered in words is
# self-marked: write it in its box (it has two lines a mark), and after
# **check** tick the mark scheme's points your answer makes; the marks line
# says how many marks you gave yourself.

# %%
quiz = Quiz("cohen", seed=1, level=2, log=log)
quiz

# %% [markdown]
# ## A mock exam
#
# An exam gives you several questions, a fixed time and marks. The mock exam
# below has two small questions (level 1); press **start the exam** when you
# are ready: the clock starts then, and the time left counts down at the top.
# Work on paper, type your answers, move between the questions, and press
# **finish and mark**. Nothing is marked before that; when the time is up,
# your answers are marked as they stand. You then see your total, the marks
# of each part with the checker's feedback, and your marks by skill, weakest
# first: that is where to revise. Your written answers come back with the
# mark scheme's points to tick; the total then says how many marks are
# self-marked.
#
# For a full-size one, `MockExam(3, seed=..., level=4)`: three Tripos-shaped
# questions of 20 marks each, at 1.8 minutes a mark, as a Tripos paper
# allows (`MINUTES_PER_MARK`).

# %%
exam = MockExam(2, seed=30, level=1, log=log)
exam

# %% [markdown]
# After the exam, your log so far (with `KEEP_MY_LOG = True`): each kind's
# Leitner box and score, then the usual mistakes to watch for, most made first.

# %%
log.summary(KINDS) if log is not None else print("The mistake log is off (KEEP_MY_LOG = False).")

# %% [markdown]
# ## For instructors: a printable worksheet
#
# `worksheet(n, seed, kinds=..., level=...)` writes a question paper and its
# mark scheme. The paper has a cover (name line, time allowed, instructions,
# total marks and a grid for the marker), then each question on a new page
# with the marks of every part, like `[2]`, and ruled space to answer in. The
# mark scheme starts with the answer key, then the worked solutions. The key
# splits each number's marks into method (M) and accuracy (A) marks and says
# where to give follow-through (ft), so a marker can apply it to a script;
# written answers are marked by numbered points, in any wording.
# Question $i$ is `make_question(kinds[i % len(kinds)], seed + i, level=level)`
# and each question shows a code that names no kind (`question_for(code)`
# draws it again). The time allowed is 1.8 minutes a mark, and `level=4`
# gives Tripos-shaped questions of 20 marks each.
#
# The sheets go to the folder `worksheets/` next to this notebook (git
# ignores it): open them from JupyterLab's file browser, or from your
# browser, and print. With `format="pdf"` they are written as A4 PDF files
# instead (this needs Chromium: `apt-get install chromium`).

# %%
folder = Path("worksheets")
sheet = worksheet(4, seed=100, kinds=["cohen", "fleiss"], level=3, directory=folder, overwrite=True)
print(f"written: {sheet.questions_path.as_posix()} and {sheet.answers_path.as_posix()}")
print(f"(in the folder {folder.resolve().name}/ next to this notebook)")
print(f"{sheet.marks} marks, {sheet.minutes} minutes allowed")
print("questions:", ", ".join(q.id for q in sheet.questions))

# %% [markdown]
# ## Recap
#
# - Keep every intermediate value exact (fractions) and round only the final
#   answer: rounding $P_a$ and $P_e$ first can move the third decimal.
# - Cohen's kappa uses each rater's own marginals; Fleiss' kappa pools all labels.
# - $P_i$ subtracts the self-pairs: $\sum_j n_{ij}^2 - n_i$.
# - With partial coverage, use each item's own $n_i$ and all the labels actually given.
# - Krippendorff's alpha weights each item's pairs by $1/(n_i - 1)$, leaves out
#   single values, and draws chance pairs without replacement: $n(n-1)$.
#
# ## On your own
#
# Do one question of each kind without looking at the solution: `make_question("alpha", seed=...)`
# with a seed of your choice (your birthday works). Then time yourself on a
# level-4 question: at 1.8 minutes a mark,
# `iaa_teach.exercises.default_minutes(question.total_marks)`
# is the time an exam would give you for it.
