"""Practice: endless exam-style questions, worked solutions, and feedback on the usual mistakes.

>>> from iaa_teach.exercises import make_question
>>> q = make_question("fleiss", seed=7)      # same kind and seed, same question
>>> q.ratings.n_raters >= 3
True
>>> q.check("c", q.answers()["c"]).correct   # any right answer: "0.56", "0.564", "31/55"
True

Marks, skills and levels
------------------------
Every part has ``marks`` (an int, printed as ``[2]`` after its prompt) and a
``skill`` (one of :data:`SKILLS`: ``"counting"``, ``"observed agreement"``,
``"chance agreement"``, ``"coefficient"``, ``"interpretation"``, ``"choice of
coefficient"``, ``"concepts"``); ``question.total_marks`` is their sum (printed
after the last part) and ``question.marks_by_skill()`` adds them up by skill.

``make_question(kind, seed, level=1 | 2 | 3)``: level 1 is 4-6 items, 2
categories (3 on an ordered scale), complete; level 2, the default, keeps the
sizes questions had before levels (8-12 items, 2-4 categories; a level-2 seed
draws the same table as before); level 3 is exam size, 10-15 items, 3-4
categories. ``alpha`` has missing ratings at levels 2 and 3, ``partial``
partial coverage at every level. :data:`LEVEL_SIZES` holds the ranges;
``question.id`` (``"fleiss-12"``, ``"fleiss-12-L3"``) names the kind, seed and level.

>>> q = make_question("cohen", seed=3, level=1)
>>> q.level, 4 <= q.ratings.n_items <= 6, q.total_marks == sum(p.marks for p in q.parts)
(1, True, True)

Kinds of question
-----------------
========== ============================================================ ==========================
kind       table                                                        parts
========== ============================================================ ==========================
cohen      2 raters, 8-12 items, 2-4 nominal categories                 P_o, P_e, kappa, words
weighted   2 raters on an ordered scale of 3-5, linear or quadratic     P_o, P_e, kappa_w, words
fleiss     3-5 raters, complete                                         P_a, P_e, kappa, words
alpha      3-4 raters, missing ratings (one unit with a single value)   n, D_o, D_e, alpha, words
partial    2-4 raters on every item; D-like (a tail of the items) and   P_a, sum n_i, P_e, kappa,
           E-like (a head, or all items) as in the partial text         words
========== ============================================================ ==========================

Right answers come from :mod:`iaa_teach.metrics` (``result.exact``);
:meth:`Question.solution` shows the working through :func:`iaa_teach.explain`;
prompts, model answers and solutions are written once with
:mod:`iaa_teach.markup` and shown as text, Markdown or HTML. Numbers are
rounded half up from the exact value (:func:`iaa_teach.fmt`; ``fmt3`` is the
same function under its former name).

Recognised mistakes (:data:`MISTAKES`), by kind
-----------------------------------------------
- all kinds: ``rounding`` (intermediate values rounded to 3 decimals before
  the last step; listed only for questions where it moves the third decimal).
- cohen, weighted, fleiss, partial: ``percentages`` (kappa from P_o and P_e
  in percent: (70 - 41) / (1 - 41)).
- cohen: ``pooled_marginals`` (Scott/Fleiss-style P_e), ``uniform_chance``
  (P_e = 1/k).
- weighted: ``unweighted``, ``other_weights`` (linear for quadratic or back).
- fleiss: ``self_pairs`` (P_i without the "- n"), ``cohen_marginals``
  (each rater's own proportions, averaged over rater pairs).
- partial: ``global_k`` (P_i with the number of all annotators), ``global_total``
  (p_j over n_items x n_raters cells, "40 not 38"), ``self_pairs``,
  ``pe_over_items`` (p_j as the mean of per-item proportions), ``merged``
  (the two partial annotators merged into one, keeping either's label).
- alpha: ``unweighted_pairs`` (no 1/(m_u - 1)), ``fleiss_de``
  (D_e = 1 - sum p_c^2), ``text_route`` (both: the code text's 0.467),
  ``unpairable_values`` (single values counted), ``self_pairs``.
  ``percentages`` does not apply: 1 - D_o/D_e is the same in percent.

Every question is drawn so that each of its kind's mistakes (``rounding``
aside) changes the 3-decimal answer of every part it touches and differs
from the other mistakes; :meth:`Question.check` then names it.

Lesson exercises
----------------
:func:`check_number` checks a number a student wrote in a lesson (right, or
not yet and which step to look at), without showing the answer.

Worksheets
----------
:func:`worksheet` writes a question paper (name line, time allowed,
instructions, marks per part, space to answer) and a mark scheme (a one-page
answer key, then the worked solutions), as HTML pages or, with
``format="pdf"``, as PDF printed by headless Chromium; the maths is typeset
(MathML). :func:`worksheet_html` returns the two pages as strings instead.
"""

from ..rounding import fmt, round_half_up
from ._answers import Answer, parse_answer, show_value
from ._check import Check, check_number
from ._generate import KINDS, LEVEL_SIZES, LEVELS, SIZE_LIMITS
from ._mistakes import KIND_MISTAKES, MISTAKES, MistakeInfo, mistake_info
from ._questions import SKILLS, Feedback, Mistake, Part, Question, Solution, make_question
from ._worksheet import Worksheet, worksheet, worksheet_html, worksheet_questions

fmt3 = fmt  # the former name of iaa_teach.fmt, kept for notebooks written with it

__all__ = [
    "KINDS", "LEVELS", "LEVEL_SIZES", "SKILLS", "MISTAKES", "KIND_MISTAKES", "SIZE_LIMITS", "mistake_info",
    "make_question", "worksheet", "worksheet_html", "worksheet_questions",
    "Question", "Part", "Mistake", "MistakeInfo", "Feedback", "Solution", "Worksheet",
    "Answer", "parse_answer", "round_half_up", "fmt", "fmt3", "show_value",
    "Check", "check_number",
]
