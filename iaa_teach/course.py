"""The course as data: its lessons, notation and glossary.

One table each, read by the start page (``notebooks/00_start_here``), the
lessons, the README and a static book:

- :data:`LESSONS`: every lesson in course order, with its file, the time it
  takes, what it teaches and whether it is written yet (``ready``);
- :data:`GLOSSARY`: the terms the lessons use, each defined once;
- :data:`iaa_teach.markup.NOTATION`: one symbol per quantity.

:func:`lesson_table`, :func:`notation_table` and :func:`glossary_table` show them
as :class:`~iaa_teach.markup.Table` (Markdown in a notebook, text, HTML).

The cell tags :data:`EXERCISE_TAG` and :data:`SOLUTION_TAG` mark a lesson's
exercises and worked answers (``tools/student_copies.py`` empties the worked
answers for the student copies; ``tools/book.py`` folds them in the book).
"""

from __future__ import annotations

from dataclasses import dataclass

from .markup import NOTATION, Em, Link, Prose, Table, prose, with_symbols
from .metrics import BANDS
from .rounding import fmt

__all__ = [
    "Lesson",
    "LESSONS",
    "lesson",
    "lesson_table",
    "notation_table",
    "Term",
    "GLOSSARY",
    "glossary_table",
    "KRIPPENDORFF_GUIDANCE",
    "alpha_verdict",
    "alpha_guidance",
    "landis_koch_table",
    "RECALL",
    "recall_questions",
    "recall_answers",
    "SOLUTION_TAG",
    "EXERCISE_TAG",
]


# ================================================================= lessons
@dataclass(frozen=True)
class Lesson:
    """One lesson: ``number`` (``"01"``), file ``stem``, ``title``, ``minutes``, what you ``learn``.

    ``ready`` is False for a lesson that is planned but not written yet: the
    start page lists it as coming, without a link. Writing the lesson means
    adding ``notebooks/<stem>.ipynb`` and setting ``ready=True`` here (a test
    checks the two agree).
    """

    number: str
    stem: str
    title: str
    minutes: int
    learn: str
    ready: bool = True

    @property
    def file(self) -> str:
        return f"{self.stem}.ipynb"


#: The course, in order.
LESSONS: tuple[Lesson, ...] = (
    Lesson("00", "00_start_here", "Start here", 10, "how the course works; the notation; the glossary"),
    Lesson(
        "01",
        "01_cohens_kappa",
        "Cohen's kappa: two annotators",
        45,
        "agreement table, observed agreement P_o, chance agreement P_e, kappa; why pairs differ",
    ),
    Lesson(
        "02",
        "02_fleiss_kappa",
        "Fleiss' kappa: three or more annotators",
        45,
        "count table, per-item agreement P_i, pooled proportions, Scott's pi; round only at the end",
    ),
    Lesson(
        "03",
        "03_krippendorff_alpha",
        "Krippendorff's alpha: coincidences",
        60,
        "pairs within items, the coincidence matrix, D_o and D_e; why the text's 'alpha' is Fleiss' kappa; "
        "ordinal alpha",
    ),
    Lesson(
        "04",
        "04_missing_data",
        "Missing ratings",
        40,
        "what alpha, Cohen's and Fleiss' kappa do with gaps; listwise deletion",
    ),
    Lesson(
        "05",
        "05_partial_coverage",
        "Annotators who cover different items",
        40,
        "per-item n_i, items with a single label, why merging annotators is wrong",
    ),
    Lesson(
        "06",
        "06_chance_models",
        "Models of chance: the family of coefficients",
        70,
        "percent agreement, Brennan-Prediger S, Scott's pi, Conger's kappa, Gwet's AC1 side by side; the two paradoxes; "
        "which coefficient when",
    ),
    Lesson(
        "07",
        "07_how_sure",
        "How sure is the number?",
        50,
        "standard errors and confidence intervals by formula and bootstrap; what 10 items can tell; "
        "planning the number of items",
    ),
    Lesson(
        "08",
        "08_your_own_annotations",
        "Your own annotations",
        45,
        "which annotators, items and categories the disagreement comes from",
    ),
    Lesson(
        "09",
        "09_instructor_playground",
        "The instructor's playground",
        20,
        "six explorers: change the data, watch every coefficient respond; watch the interval narrow",
    ),
    Lesson(
        "10",
        "10_exam_revision",
        "Exam revision",
        60,
        "fresh exam questions, a checker that names your mistake, worked solutions",
    ),
)


def lesson(number_or_stem: str) -> Lesson:
    """The lesson with this number (``"03"``) or file stem."""
    for les in LESSONS:
        if number_or_stem in (les.number, les.stem):
            return les
    raise KeyError(f"no lesson {number_or_stem!r}; the lessons are {[x.stem for x in LESSONS]}")


def lesson_table(suffix: str = ".ipynb", start: int = 1) -> Table:
    """The lessons as a table: number, title (a link where written), minutes, what you learn.

    ``suffix`` is the file ending links point to (``".html"`` for a book);
    ``start`` the first lesson listed (1 leaves out the start page itself).
    """
    rows = [
        [
            les.number,
            Link(les.title, les.stem + suffix) if les.ready else Prose(les.title, " ", Em("(coming)")),
            str(les.minutes),
            with_symbols(les.learn),
        ]
        for les in LESSONS[start:]
    ]
    return Table(["lesson", "title", "minutes", "what you learn"], rows, align="llrl")


# ================================================================ notation
def notation_table() -> Table:
    """:data:`iaa_teach.markup.NOTATION` as a table: symbol, meaning, how the sources write it, first lesson.

    Only the symbols of the lessons that are ready: a symbol of a lesson still
    coming appears with its lesson.
    """
    ready = {les.number for les in LESSONS if les.ready}
    rows = [
        [
            row.symbol,
            with_symbols(row.meaning),
            with_symbols(row.elsewhere) if row.elsewhere else "–",
            row.lesson,
        ]
        for row in NOTATION
        if not row.lesson or row.lesson in ready
    ]
    return Table(
        ["symbol", "meaning", "sources that write it differently", "first in lesson"],
        rows,
        bold_first_column=False,
        align="lllr",
    )


# ================================================================ glossary
@dataclass(frozen=True)
class Term:
    """A glossary entry: the ``term``, its ``definition`` (a template, see
    :func:`iaa_teach.markup.prose`) and the lesson that introduces it."""

    term: str
    definition: str
    lesson: str


#: Krippendorff's guidance for alpha (2004, sec. 11.4): a convention, not a law.
KRIPPENDORFF_GUIDANCE = ((0.800, "rely on the data"), (0.667, "draw tentative conclusions at most"))
#: What the guidance says below its lower threshold.
KRIPPENDORFF_BELOW = "do not rely on the data"


def alpha_verdict(value: object) -> str:
    """What Krippendorff's guidance says of an alpha: the verdict for alpha, as Landis-Koch's bands are for kappa.

    >>> alpha_verdict(0.578), alpha_verdict(0.7), alpha_verdict(0.8), alpha_verdict(float("nan"))
    ('do not rely on the data', 'draw tentative conclusions at most', 'rely on the data', 'undefined')
    """
    v = float("nan") if value is None else float(value)  # type: ignore[arg-type]
    if v != v:
        return "undefined"
    return next((what for threshold, what in KRIPPENDORFF_GUIDANCE if v >= threshold), KRIPPENDORFF_BELOW)


def _bands_in_words() -> str:
    parts = [f"{name} {fmt(lo, 2)} to {fmt(hi, 2)}" for lo, hi, name in BANDS[1:]]
    return f"{BANDS[0][2]} below {fmt(BANDS[0][1], 2)}; " + "; ".join(parts)


def alpha_guidance() -> str:
    """Krippendorff's guidance for alpha in words, its thresholds from :data:`KRIPPENDORFF_GUIDANCE`."""
    (hi, what_hi), (lo, what_lo) = KRIPPENDORFF_GUIDANCE
    return (
        f"alpha ≥ {fmt(hi)}: {what_hi}; {fmt(lo)} ≤ alpha < {fmt(hi)}: {what_lo}; "
        f"below {fmt(lo)}: {KRIPPENDORFF_BELOW}"
    )


#: The course's terms, each defined once, in the order the lessons introduce them.
GLOSSARY: tuple[Term, ...] = (
    Term(
        "item, annotator, label",
        "An item is what gets labelled (here a sentence); an annotator (rater, coder) "
        "gives each item a label (a category, here G, N or P). A rating is one annotator's label for one item.",
        "01",
    ),
    Term(
        "agreement table",
        "For two annotators: a square table, rows the first annotator's label, columns the "
        "second's; cell {n_jk} counts the items labelled j by the first and k by the second. The diagonal holds "
        "the agreements.",
        "01",
    ),
    Term(
        "observed agreement",
        "How often the annotators actually agree: {P_o} for two annotators (share of "
        "items on the diagonal), {P_a} for more (mean over items of {P_i}, the share of agreeing pairs).",
        "01",
    ),
    Term(
        "chance agreement",
        "{P_e}: how often two ratings would agree if the annotators labelled at random "
        "with given category proportions. Each coefficient has its own model of chance.",
        "01",
    ),
    Term(
        "Cohen's kappa",
        "{kappa} = ({P_o} - {P_e}) / (1 - {P_e}) for two annotators, with chance from each "
        "annotator's own proportions (the marginals). 1 is perfect agreement, 0 chance level, below 0 worse "
        "than chance.",
        "01",
    ),
    Term(
        "Landis-Koch bands",
        "Names for ranges of kappa proposed by Landis and Koch (1977): "
        + _bands_in_words()
        + ". A convention for talking about numbers, not a law: the authors themselves called the "
        "divisions arbitrary.",
        "01",
    ),
    Term(
        "Light's kappa",
        "The mean of Cohen's kappa over every pair of annotators (Light 1971). A different "
        "coefficient from Fleiss' kappa, though on the sentiment example the two happen to be close.",
        "01",
    ),
    Term(
        "count table",
        "For any number of annotators: one row per item, one column per category; {n_ij} "
        "annotators put item i in category j, and the row sums to {n_i}, the item's number of ratings.",
        "02",
    ),
    Term(
        "Fleiss' kappa",
        "({P_a} - {P_e}) / (1 - {P_e}) for any number of annotators: {P_a} the mean "
        "per-item agreement, {P_e} = Σ {p_j}² from one set of category proportions for everyone. Its chance "
        "rule (pooled over all ratings, or the mean of each item's proportions) must be named when ratings "
        "are missing.",
        "02",
    ),
    Term(
        "Scott's pi",
        "Fleiss' kappa for two annotators: like Cohen's kappa, but chance agreement uses the "
        "two annotators' pooled proportions instead of each one's own.",
        "02",
    ),
    Term(
        "unit, value, pairable value",
        "Krippendorff's words: a unit is an item, a value a rating. A value "
        "is pairable when its unit holds at least one other value ({n_i} ≥ 2); only pairable values enter "
        "alpha, and there are {n} of them.",
        "03",
    ),
    Term(
        "coincidence matrix",
        "{o_ck}: ordered pairs of values (c, k) within units, each unit's pairs divided "
        "by {n_i} - 1 so that every pairable value counts once. It sums to {n}; its row totals are {n_c}.",
        "03",
    ),
    Term(
        "Krippendorff's alpha",
        "{alpha} = 1 - {D_o} / {D_e}: observed disagreement over the disagreement "
        "expected when two values are drawn, without replacement, from all {n} pairable values. "
        "Krippendorff's guidance (2004): " + alpha_guidance() + ". A convention, like the bands.",
        "03",
    ),
    Term(
        "levels of measurement",
        "What the labels are: nominal (names, no order), ordinal (ordered, e.g. "
        "G < N < P), interval (numbers whose differences mean something), ratio (numbers with a true zero). "
        "The level sets the distance {delta2} between two labels in alpha.",
        "03",
    ),
    Term(
        "weights",
        "Partial credit for near misses between ordered labels. Weighted kappa gives cell (j, k) "
        "an agreement weight, linear (1 - |j - k| / (q - 1)) or quadratic (1 - (j - k)² / (q - 1)²) for q "
        "categories; alpha uses the distance {delta2} of its level.",
        "03",
    ),
    Term(
        "listwise deletion",
        "Dropping every item that lacks a rating, so that the table is complete. It "
        "throws away the other ratings of those items.",
        "04",
    ),
    Term(
        "partial coverage",
        "Annotators who each label only some of the items. Keep them apart, use each "
        "item's own {n_i}; items with a single label are left out of {P_a} (no pair to compare) but still "
        "count in {P_e}.",
        "05",
    ),
    Term(
        "prevalence, kappa paradox",
        "Prevalence is how common a category is. When one category dominates, "
        "{P_e} is large, and kappa can be low although the annotators agree on most items.",
        "02",
    ),
    Term(
        "family of coefficients, model of chance",
        "Every coefficient of the family is ({P_a} - {P_e}) / "
        "(1 - {P_e}): the same observed agreement, corrected for a different chance agreement. The model of chance "
        "says how a rater who labels at random would choose a label; it alone sets {P_e}.",
        "06",
    ),
    Term(
        "percent agreement",
        "The share of agreeing pairs, {P_a} (or {P_o} for two annotators), with no "
        "correction for chance ({P_e} = 0).",
        "06",
    ),
    Term(
        "Brennan-Prediger S",
        "Bennett, Alpert and Goldstein's S (1954), for more raters Brennan and Prediger's "
        "coefficient (1981): chance agreement {P_e} = 1/{q}, every category equally likely whatever the data.",
        "06",
    ),
    Term(
        "Conger's kappa",
        "Cohen's kappa for any number of raters (Conger 1980): each rater keeps their own "
        "category shares, and {P_e} is the mean over pairs of raters of Cohen's chance agreement.",
        "06",
    ),
    Term(
        "Gwet's AC1",
        "Gwet's first-order agreement coefficient (2008): a rater labels at random only some items, "
        "the hard ones, so {P_e} = Σ {p_j}(1 - {p_j}) / ({q} - 1), small when one category dominates. AC2 is "
        "its weighted form.",
        "06",
    ),
    Term(
        "rater bias",
        "Raters who differ in how often they use a category (their marginals differ). Cohen's "
        "and Conger's kappa take each rater's own shares for chance, so bias lowers their {P_e} and raises "
        "the coefficient (Feinstein and Cicchetti's second paradox).",
        "06",
    ),
    Term(
        "standard error",
        "{SE}: how much a coefficient would vary if the same raters labelled another sample of "
        "items of the same kind. It shrinks like 1 / √{N}: four times the items, half the error.",
        "07",
    ),
    Term(
        "confidence interval",
        "A range around the coefficient, here value ± t × {SE} (t about 2 for a 95 % "
        "interval): made this way from many samples, 95 % of the ranges would hold the true value. Its "
        "half-width says how sure the number is.",
        "07",
    ),
    Term(
        "bootstrap",
        "Estimating the spread of a coefficient by recomputing it on many resamples of the items, "
        "drawn with replacement; the middle 95 % of the values is a 95 % interval (percentile bootstrap).",
        "07",
    ),
)


def glossary_table() -> Table:
    """:data:`GLOSSARY` as a table: term, definition (its symbols as maths), first lesson."""
    rows = [[Em(t.term, strong=True), prose(t.definition), t.lesson] for t in GLOSSARY]
    return Table(["term", "meaning", "first in lesson"], rows, bold_first_column=False, align="llr")


def landis_koch_table() -> Table:
    """The Landis-Koch bands as a table: from, to, name (from :data:`iaa_teach.BANDS`)."""
    (_, first_top, first_name), *rest = BANDS
    rows = [[first_name, "–", f"below {fmt(first_top, 2)}"]]
    rows += [[name, fmt(lo, 2), fmt(hi, 2)] for lo, hi, name in rest]
    return Table(["band", "from", "to"], rows, align="lrr")


# ================================================================== recall
#: Questions to answer from memory at the end of each lesson, with their answers (shown folded).
RECALL: dict[str, tuple[tuple[str, str], ...]] = {
    "01": (
        (
            "What does the diagonal of two annotators' agreement table hold?",
            "The items on which they agree; {P_o} is its total over {N}.",
        ),
        (
            "Whose proportions does Cohen's chance agreement {P_e} use?",
            "Each annotator's own: the row shares of one times the column shares of the other, summed over the "
            "categories.",
        ),
        (
            "What do kappa = 1, kappa = 0 and kappa < 0 mean?",
            "Perfect agreement; agreement no better than chance; worse than chance.",
        ),
        (
            "Why do the pairs A-B, A-C and B-C get different kappas?",
            "Each pair has its own observed agreement and, through its two annotators' own proportions, its own "
            "chance agreement.",
        ),
        (
            "Why keep exact fractions until the last step?",
            "Rounding on the way can move the third decimal of the answer.",
        ),
    ),
    "02": (
        (
            "What is {P_i}, in words?",
            "The share of item i's ordered pairs of ratings that agree: agreeing pairs over {n_i}({n_i} - 1).",
        ),
        (
            "How does Fleiss' {P_e} differ from Cohen's?",
            "It pools every annotator's ratings into one set of proportions {p_j} and sums their squares; Cohen's "
            "keeps each annotator's own.",
        ),
        ("What is Scott's pi?", "Fleiss' kappa for two annotators: chance from their pooled proportions."),
        (
            "What should the helper do when every rating falls in one category, and why?",
            "Say that kappa is undefined: {P_e} = 1 makes it 0/0, which is not 0.",
        ),
    ),
    "03": (
        (
            "Why are each item's pairs divided by {n_i} - 1 in the coincidence matrix?",
            "So that every pairable value counts once, however many values share its item.",
        ),
        (
            "How does alpha's {D_e} draw two values, and how does that differ from the worked example's?",
            "Without replacement from the {n} pairable values, over {n}({n} - 1) pairs; the worked example draws "
            "with replacement (1 - Σ {p_j}²), which gives Fleiss' kappa again.",
        ),
        (
            "On complete data, which is larger, alpha or Fleiss' kappa, and why?",
            "Alpha, a little: 1 - alpha = (1 - kappa)({n} - 1)/{n}, so the gap shrinks as {n} grows.",
        ),
        (
            "What does ordinal alpha change?",
            "The distance {delta2} between two labels: far-apart labels cost more than neighbours.",
        ),
        (
            "How do you put alpha into words?",
            "With Krippendorff's own guidance (its thresholds are in the glossary), not with the Landis-Koch "
            "bands of kappa.",
        ),
    ),
    "04": (
        (
            "Why does alpha need no change for missing ratings?",
            "Its 1/({n_i} - 1) weight already makes every pairable value count once, whatever the item's size.",
        ),
        (
            "Which items does Cohen's kappa use for a pair when ratings are missing?",
            "Only the items both annotators rated: each pair has its own set of items.",
        ),
        (
            "What must you say when you report Fleiss' kappa on a table with gaps?",
            "The chance rule: pooled proportions over all ratings, or the mean of each item's proportions. With "
            "gaps they give different numbers.",
        ),
        (
            "What does listwise deletion throw away?",
            "Every other rating of each incomplete item, and the agreement or disagreement in them.",
        ),
    ),
    "05": (
        (
            "Why is merging two annotators into one column wrong?",
            "Where both labelled an item one label must be thrown away, and the choice is arbitrary and moves "
            "the result; it also mixes two people into one rater.",
        ),
        (
            "Which items enter {P_a}, and which enter {P_e}?",
            "{P_a}: only the items with at least two labels. {P_e}: every label, single ones included.",
        ),
        (
            "What does the partial-annotation text call {n_i}?",
            "Per-item k: the number of annotators who labelled that item.",
        ),
        (
            "Why does a single-label item have no {P_i}?",
            "It has no pair of labels to compare: {P_i} would be 0/0.",
        ),
    ),
    "06": (
        (
            "What do all the coefficients of the family share, and where do they differ?",
            "The formula ({P_a} - {P_e}) / (1 - {P_e}) and the observed agreement; they differ only in {P_e}, "
            "their model of chance.",
        ),
        (
            "Which chance model ignores the data entirely?",
            "Brennan-Prediger S: {P_e} = 1/{q}, every category equally likely.",
        ),
        (
            "What is Feinstein and Cicchetti's first paradox?",
            "High observed agreement but low kappa when one category dominates: {P_e} is large.",
        ),
        (
            "Which coefficient rises when raters differ in how often they use a category?",
            "Cohen's (and Conger's) kappa: each rater's own shares lower {P_e} (the second paradox).",
        ),
        (
            "What should you report beside any coefficient?",
            "{P_a} and the category shares, so that a reader can see whether a paradox is at work.",
        ),
    ),
    "07": (
        (
            "What does a standard error measure?",
            "How much the coefficient would vary from one sample of items to another of the same kind.",
        ),
        (
            "How does the standard error change with four times the items?",
            "It halves: it shrinks like 1 / √{N}.",
        ),
        (
            "Why Student's t rather than the normal's 1.96 for ten items?",
            "The standard error is itself estimated from the same few items; t with {N} - 1 degrees of freedom "
            "allows for that and is larger.",
        ),
        (
            "What can ten items tell you, and what not?",
            "That the annotators agree more than chance (the lower end is above 0), not which band their "
            "agreement is in.",
        ),
    ),
}


def recall_questions(number: str) -> Table:
    """A lesson's recall questions (:data:`RECALL`), numbered, to answer from memory."""
    rows = [[str(i), prose(question)] for i, (question, _) in enumerate(RECALL[number], 1)]
    return Table(["", "question"], rows, caption=f"Recall: lesson {number}", align="rl")


def recall_answers(number: str) -> Table:
    """The answers to a lesson's recall questions (shown folded, under the questions)."""
    rows = [[str(i), prose(answer)] for i, (_, answer) in enumerate(RECALL[number], 1)]
    return Table(["", "answer"], rows, caption=f"Recall: lesson {number}, answers", align="rl")


# =========================================================== student copies
#: Cell tags. ``exercise``: a cell the student fills in (kept). ``solution``:
#: a worked answer, emptied in student copies.
EXERCISE_TAG = "exercise"
SOLUTION_TAG = "solution"
