"""Practice: endless exam-style questions, worked solutions, and feedback on the usual mistakes.

>>> from iaa_teach.exercises import make_question
>>> q = make_question("fleiss", seed=7)      # same kind and seed, same question
>>> q.ratings.n_raters >= 3
True
>>> q.check("c", q.answers()["c"]).correct   # a right answer: "0.564" (3 dp, as asked) or "31/55"
True

Marks, skills and levels
------------------------
Every part has ``marks`` (an int, printed as ``[2]`` after its prompt) and a
``skill`` (one of ``"counting"``, ``"observed agreement"``,
``"chance agreement"``, ``"coefficient"``, ``"interpretation"``, ``"choice of
coefficient"``, ``"concepts"``); ``question.total_marks`` is their sum (printed
after the last part, "Total: 11 marks.") and ``question.marks_by_skill()``
adds them up by skill.

``make_question(kind, seed, level=1 | 2 | 3 | 4)``: level 1 is 4-6 items, 2
categories (3 on an ordered scale), complete; level 2, the default, keeps the
sizes questions had before levels (8-12 items, 2-4 categories; a level-2 seed
of cohen, weighted and fleiss draws the same table as before); level 3 is exam
size, 10-15 items, 3-4 categories, with an extra conceptual part; level 4 is a
Tripos-shaped question of 20 marks (a Tripos paper's 1.8 minutes a mark,
:data:`MINUTES_PER_MARK`) on an exam-size table, in three sections: the calculation with
follow-through; partial coverage (an annotator who stops early, computed; alpha's and
``partial``'s own gaps) and the coefficient under a second chance rule, computed with M/A marks
and follow-through, with a select-all part on why the two differ; and a self-marked "design the
study" part that takes the marks left.
``alpha`` has missing ratings at levels 2-4, ``partial`` partial coverage
at every level, ``cohen`` and ``weighted`` one or two missing labels at levels 3 and 4
(unless the student chooses the coefficient); ``fleiss``, ``pi`` and ``ac1``
stay complete (their gaps are ``partial``'s subject). ``LEVEL_SIZES`` holds the ranges; ``question.id``
is a code such as ``"Q-7KD3-M2XA"`` that names no kind (a paper must not say which coefficient to
choose); :func:`question_for` draws the question again from its code, for its worked answer. The code
scheme (alphabet, scrambling, the fixed order of the kinds) is registered with the lessons' exercise ids
in ``lesson_exercises.json``, and ``lesson_exercises.lookup(id)`` takes either: ``"01.1"`` or
``"Q-7KD3-M2XA"``.

>>> q = make_question("cohen", seed=3, level=1)
>>> q.level, 4 <= q.ratings.n_items <= 6, q.total_marks == sum(p.marks for p in q.parts)
(1, True, True)

Parts and how they are answered
-------------------------------
``part.form`` is ``"number"`` (``part.quantity``, ``part.answer``),
``"choice"`` (``part.choices``, lettered A-D; ``part.key`` is the right
letter), ``"select"`` (select all that apply: ``part.key`` holds every right
letter, the wrong options are the usual misconceptions; a mark for each right
letter, less one for each wrong one, not below 0) or ``"words"`` (a short answer,
never marked by a machine: the student ticks the mark scheme's points,
``part.key_points``, that the answer makes, :meth:`Question.self_mark`, and the
score says "self-marked"). ``part.model_answer`` never holds another part's
result; ``part.worked`` (where set) is the model answer with this table's
numbers, shown in the solution only; ``part.note`` (where set) is the line the
answer key adds for this table (the band of the value found).

A numerical part's marks are method (M) and accuracy (A) marks, as an exam
board marks: ``part.marks_split`` (``"M2 A1"``; ``"B1"`` for a one-mark count)
and ``part.scheme`` (what earns them, as the mark scheme prints it).
``question.check(part, answer)`` returns a :class:`Feedback` with
``status``, ``message``, ``marks`` (earned) and ``out_of``:

- ``"correct"``: full marks (3 decimals, a fraction, the right letter(s));
- ``"follow-through"``: a coefficient right from the student's own wrong
  earlier answers (``question.mark`` passes them), or from right ones given
  to 2 dp (which lost their A marks there: an error is penalised once): full
  marks, said as such;
- ``"places"``: right to 2 dp only: "give 3 dp, as asked"; the A mark is lost,
  the M marks kept (never the whole part);
- ``"slip"``: the right method with values rounded too early, or 3 decimals
  off by at most 2 in the last place: the M marks, not the A mark;
- ``"mistake"``: "0.272 is what you get if you use each rater's own
  proportions ... (step: ...)" and advice, no marks; ``mistakes`` holds the ids.
  The feedback says what a method gives, never that the student used it;
- ``"other_rule"``: the value under another chance rule in use (the course
  notes' MLRD rule where the part asks for the pooled one, or back): named,
  never called a mistake;
- ``"partial"``: some of a select-all part's statements;
- ``"self"``: a short answer in words, not marked yet: the message lists the
  mark scheme's points to tick; ``"self-marked"`` after :meth:`Question.self_mark`;
- ``"wrong"`` (a hint, or why that option is not the best) and ``"unreadable"``.
  A wrong number is never said to be another part's value.

``question.answer_key()``: one line per part for a one-page key (``(a) [2] P_o = 7/10 =
0.700. M1 for ...; A1 ...``, ``(e) [1] B``, or a short answer's numbered points).

``question.mark({"a": "0.700", "b": ..., ...}, ticks={"d": [1, 2]})`` marks every
part at once, each coefficient with follow-through from the student's own
earlier answers: a :class:`Marking` with ``feedback`` per part (``"empty"`` for a
part left blank), ``marks``, ``out_of``, ``self_marked`` and ``by_skill()``
(``{skill: (earned, available)}``).

Kinds of question
-----------------
========== ============================================================ ==========================
kind       table (level 2)                                              parts
========== ============================================================ ==========================
cohen      2 raters, 8-12 items, 2-4 nominal categories                 P_o, P_e, kappa, band/why
weighted   2 raters on an ordered scale of 3-5, linear or quadratic     P_o, P_e, kappa_w, why weights
fleiss     3-5 raters, complete                                         P_a, P_e, kappa, why pool
alpha      3-4 raters, missing ratings (one unit with a single value)   n, D_o, D_e, alpha, single value
partial    full annotators who skip a single-rated item; a D-like       P_a, sum n_i, P_e (the rule
           (tail) and an E-like (head, or all) annotator                named), kappa, merging
pi         2 raters, Scott's pi (:func:`iaa_teach.metrics.scott_pi`)    P_o, P_e, pi, concept
ac1        2 raters, Gwet's AC1 (:func:`iaa_teach.metrics.gwet_ac`)     P_o, P_e, AC1, concept
========== ============================================================ ==========================

Partial-coverage questions ask for the chance rule they name
(``question.chance``): ``"pooled"`` (p_j over all the labels, the
partial-annotation text), ``"item_mean"`` (the mean of the items'
proportions, the course notes' MLRD rule) or, at level 3, ``"both"``: P_e and
kappa under each rule and why they differ. Single-rated items are left out of
P_a and counted in P_e.

``choose=True`` (drawn for half the level-3 seeds of cohen, weighted,
fleiss and alpha): the title does not name the coefficient; the student
chooses it (multiple choice), justifies the choice (key points), computes it
and interprets a value. Conceptual parts (``CONCEPTS``): the kappa
paradox, when a coefficient is undefined, a rater who drops out, reading a
value on the Landis-Koch scale and against Krippendorff's 0.667 / 0.800, why
alpha differs from Fleiss' kappa, what merging two annotators does, why the
two chance rules differ. Prompts come in several wordings, chosen by the seed.

Each kind is a module of its own, ``exercises/_kinds/<kind>.py``, with its words in
``_kinds/<kind>.toml``; the conceptual parts with their mark schemes, the mistakes' words and the
quantities' marks are in ``iaa_teach/content/`` (``concepts.toml``, ``mistakes.toml``,
``quantities.toml``, ``questions.toml``): a lecturer edits them there (CONTRIBUTING.md, "Adding a
question kind").

Right answers come from :mod:`iaa_teach.metrics` (``result.exact``);
:meth:`Question.solution` shows the working through :func:`iaa_teach.explain`;
prompts, model answers and solutions are written once with
:mod:`iaa_teach.markup` and shown as text, Markdown or HTML. Numbers are
rounded half up from the exact value (:func:`iaa_teach.fmt`; ``fmt3`` is the
same function under its former name).

Recognised mistakes (``MISTAKES``), by kind (``KIND_MISTAKES``)
-----------------------------------------------------------------------
- all kinds: ``rounding`` (intermediate values rounded to 3 decimals before
  the last step; listed only for questions where it moves the third decimal);
  ``percentages`` (kappa from P_o and P_e in percent) except alpha.
- cohen: ``pooled_marginals`` (Scott-style P_e), ``uniform_chance`` (P_e = 1/k).
- weighted: ``unweighted``, ``other_weights`` (linear for quadratic or back).
- cohen and weighted with a missing label (level 3): ``missing_as_disagreement``
  (P_o over all the items), ``unshared_marginals`` (marginals from every label given).
- fleiss: ``self_pairs`` (P_i without the "- n"), ``cohen_marginals``
  (each rater's own proportions), ``subset_chance`` (P_e from the first two
  raters' labels only), ``pairwise_mean`` (the mean of the pairwise kappas).
- partial: ``global_k``, ``global_total`` ("40 not 38"), ``self_pairs``,
  ``single_in_p_a`` (P_a over all items), ``single_out_of_p_e`` (the
  single-rated labels left out of p_j), ``subset_chance`` (the full
  annotators' labels only), ``merged`` (either partial annotator's label kept).
  The other chance rule is not a mistake (``RULES``).
- alpha: ``unweighted_pairs`` (no 1/(m_u - 1)), ``pairs_over_m`` (1/m_u),
  ``fleiss_de`` (n^2 pairs: D_e = 1 - sum p_c^2), ``de_n_plus_1`` (n (n + 1)),
  ``de_n_minus_1_squared`` ((n - 1)^2), ``alpha_as_fleiss`` (Fleiss' kappa
  given as alpha), ``text_route`` (the code text's 0.467),
  ``unpairable_values`` (single values counted), ``self_pairs``.
- pi: ``cohen_marginals`` (each rater's own proportions: Cohen's kappa),
  ``uniform_chance``. ac1: ``kappa_chance`` (sum p_k^2), ``no_q_minus_1``,
  ``uniform_chance``.

Every question is drawn so that each of its kind's mistakes changes the
3-decimal answer of every part it touches and differs from the other
mistakes, except those in ``OPTIONAL`` (and every mistake at level 1),
which are listed where they change a part's answer; two that then give the
same answer are both named.

Lesson exercises
----------------
:func:`iaa_teach.exercises.lesson_exercises.check` checks a number a student wrote in a lesson
(right, or not yet and which step to look at), without showing the answer.

Progress that lasts
-------------------
:class:`MistakeLog` (opt-in: ``MistakeLog.open()``) keeps the student's marked
answers and usual mistakes in a documented JSON file in the user's data
directory and brings back, by Leitner boxes, the kinds and mistakes that went
wrong more often; see :mod:`iaa_teach.exercises._progress` for the file.

Worksheets
----------
:func:`worksheet` writes a question paper (name line, time allowed,
instructions, marks per part, space to answer) and a mark scheme (an answer
key, one page for a question of every kind up to level 3, then the worked solutions), as HTML pages or, with
``format="pdf"``, as PDF printed by headless Chromium; the maths is typeset
(MathML).
"""

from .._moved import forward_names
from ..rounding import fmt
from ._generate import KINDS, LEVELS
from ._progress import MistakeLog
from ._questions import Feedback, Marking, Part, Question, make_question, question_for
from ._worksheet import MINUTES_PER_MARK, default_minutes, worksheet

fmt3 = fmt  # the former name of iaa_teach.fmt, kept for notebooks written with it

__all__ = [
    "KINDS",
    "LEVELS",
    "MINUTES_PER_MARK",
    "make_question",
    "question_for",
    "worksheet",
    "default_minutes",
    "Question",
    "Part",
    "Marking",
    "Feedback",
    "MistakeLog",
    "fmt3",
]

#: Names that were public here before this release; they import for one release, with a warning.
__getattr__ = forward_names(
    __name__,
    {
        "Answer": "iaa_teach.exercises._answers",
        "parse_answer": "iaa_teach.exercises._answers",
        "show_value": "iaa_teach.exercises._answers",
        "Check": "iaa_teach.exercises._check",
        "CONCEPTS": "iaa_teach.exercises._concepts",
        "Choice": "iaa_teach.exercises._concepts",
        "KeyPoint": "iaa_teach.exercises._concepts",
        "LEVEL_SIZES": "iaa_teach.exercises._generate",
        "SIZE_LIMITS": "iaa_teach.exercises._generate",
        "KIND_MISTAKES": "iaa_teach.exercises._mistakes",
        "MISTAKES": "iaa_teach.exercises._mistakes",
        "RULES": "iaa_teach.exercises._mistakes",
        "MistakeInfo": "iaa_teach.exercises._mistakes",
        "mistake_info": "iaa_teach.exercises._mistakes",
        "BOXES": "iaa_teach.exercises._progress",
        "LOG_ENV": "iaa_teach.exercises._progress",
        "LoggedAnswer": "iaa_teach.exercises._progress",
        "LogSummary": "iaa_teach.exercises._progress",
        "MistakeCard": "iaa_teach.exercises._progress",
        "default_log_path": "iaa_teach.exercises._progress",
        "CHOOSABLE": "iaa_teach.exercises._questions",
        "MAX_PARTS": "iaa_teach.exercises._questions",
        "OPTIONAL": "iaa_teach.exercises._questions",
        "PARTIAL_RULES": "iaa_teach.exercises._questions",
        "Mistake": "iaa_teach.exercises._questions",
        "Solution": "iaa_teach.exercises._questions",
        "asks_to_choose": "iaa_teach.exercises._questions",
        "question_code": "iaa_teach.exercises._questions",
        "Worksheet": "iaa_teach.exercises._worksheet",
        "worksheet_questions": "iaa_teach.exercises._worksheet",
        "SKILLS": "iaa_teach.exercises._questions",
        "worksheet_html": "iaa_teach.exercises._worksheet",
        "check_number": "iaa_teach.exercises._check",
        "round_half_up": "iaa_teach.rounding",
    },
)
