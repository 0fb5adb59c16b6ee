"""Before/after probe of the data-and-numbers layer: every public output on a set of tables.

Not a test: it prints, for the course's data sets and tables of odd shapes,
each :class:`~iaa_teach.Ratings`' public counts and every coefficient's
value, intermediates, ``.exact``, ``se``, ``ci()``, reason, repr and
``explain`` text, and the messages of bad input. Run it before and after a
change to the core and compare the outputs (``diff``): a refactoring keeps
them byte-identical.

Floats are printed twice: rounded to 12 significant digits (the comparison
that matters: what a reader could ever see) and as ``repr`` (with
``--repr``; a change of summation order may move the last bit).

Run: ``PYTHONPATH=. python benchmarks/probe_core.py [--repr] > probe.txt``
"""

from __future__ import annotations

import hashlib
import math
import sys
import tempfile
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

import iaa_teach as it
from iaa_teach import datasets

REPR = "--repr" in sys.argv
EXPLAIN = True  # off for the 100,000-item tables (their per-item tables are long)


def num(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if REPR or math.isnan(x) or math.isinf(x):
            return repr(x)
        return format(x, ".12g")
    return repr(x)


def show(x, limit: int = 400) -> str:
    """A value as text; big arrays as their shape and a hash of their 12-digit text."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "f":
            text = "[" + ",".join(num(v) for v in x.ravel().tolist()) + "]"
        else:
            text = repr(x.tolist())
        head = f"array{x.shape}:{x.dtype.kind}:"
        if len(text) > limit:
            return head + hashlib.sha1(text.encode()).hexdigest()[:16]
        return head + text
    if isinstance(x, (list, tuple)):
        text = "(" + ", ".join(show(v, 10**9) for v in x) + ")"
        return text if len(text) <= limit else f"seq{len(x)}:" + hashlib.sha1(text.encode()).hexdigest()[:16]
    if isinstance(x, (float, np.floating, bool, np.bool_)):
        return num(x)
    if isinstance(x, Fraction):
        return str(x)
    if x is None or isinstance(x, (int, str)):
        return repr(x)
    return repr(x)


TMP = ""  # the temporary directory of the files, printed as TMP so that two runs compare


def out(*parts) -> None:
    text = " ".join(str(p) for p in parts)
    print(text.replace(TMP, "TMP") if TMP else text, flush=True)


def attempt(label: str, fn) -> object:
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = fn()
        for w in caught:
            out(f"  {label} WARNING {w.category.__name__}: {w.message}")
        return value
    except Exception as err:  # noqa: BLE001 - the message is the output
        out(f"  {label} ERROR {type(err).__name__}: {err}")
        return None


def fields(res, deep: bool = True) -> None:
    names = [n for n in getattr(res, "__dataclass_fields__", {}) if not n.startswith("_")]
    extra = ["se", "se_reason", "value", "defined", "exact_value", "reason", "counts", "raters_per_item"]
    extra += ["agreement_weights", "pair_counts", "se_null", "name", "n_categories"]
    for name in names + [e for e in extra if e not in names]:
        if name == "results":
            continue
        if name not in names and not hasattr(type(res), name) or (name == "exact_value" and not deep):
            continue
        v = attempt(name, lambda n=name: getattr(res, n))
        out(f"  .{name} = {show(v)}")
    if hasattr(res, "ci"):
        for c in (0.95, 0.5):
            out(f"  .ci({c}) = {show(attempt('ci', lambda c=c: res.ci(c)))}")
    out(f"  repr = {attempt('repr', lambda: repr(res))}")
    if not deep:  # exact fractions over hundreds of categories take minutes
        return
    ex = attempt("exact", lambda: res.exact.as_dict())
    if ex is not None:
        for k, v in ex.items():
            out(f"  .exact.{k} = {show(v)}")
    out(f"  format = {attempt('format', lambda: format(res, '.3f'))}")
    for style in ("full", "brief") if EXPLAIN else ():
        text = attempt(
            f"explain {style}",
            lambda s=style: it.explain(res, style=s).text() + it.explain(res, style=s).markdown(),
        )
        if text is not None:
            digest = hashlib.sha1(text.encode()).hexdigest()[:16]
            out(f"  explain {style}: {len(text)} chars {digest}")
            if style == "brief":
                out("    " + text.replace("\n", "\n    "))


def probe_ratings(r: it.Ratings) -> None:
    out(f"  repr = {r!r}")
    out(f"  categories={show(r.categories)} raters={show(r.raters)} ordered={r.ordered} shape={r.shape}")
    out(f"  items = {show(list(r.items))}")
    out(f"  codes = {show(r.codes)} missing={show(r.missing)} n_ratings={r.n_ratings}")
    out(f"  counts = {show(r.counts())} per item = {show(r.ratings_per_item())}")
    p = r.count_patterns()
    out(f"  patterns: counts={show(p.counts)} freq={show(p.frequency)} item={show(p.item_pattern)}")
    out(f"  rater_counts = {show(r.rater_counts())}")
    out(f"  rater_counts_by = {show(r.rater_counts_by(np.arange(r.n_items) % 3))}")
    pairs = [(0, 1), (1, 0), (0, 0)] + ([(0, r.n_raters - 1)] if r.n_raters > 2 else [])
    out(f"  pair_tables = {show(r.pair_tables(pairs))}")
    out(f"  rows = {show(r.rows())}")
    sub = attempt("subset", lambda: r.subset(items=[0, 0], raters=[r.raters[-1], r.raters[0]]))
    if sub is not None:
        out(f"  subset rows = {show(sub.rows())} codes={show(sub.codes)}")
    w = attempt("with_label", lambda: r.with_label(0, 0, r.categories[-1]))
    if w is not None:
        out(f"  with_label = {show(w.codes)}")
    m = attempt("with_missing", lambda: r.with_missing(np.eye(*r.shape, dtype=bool)))
    if m is not None:
        out(f"  with_missing = {show(m.codes)}")
    if r.n_raters > 2:
        mr = attempt("merge", lambda: r.merge_raters(0, 1, keep=1))
        if mr is not None:
            out(f"  merge_raters = {show(mr.codes)} {mr.raters}")


def probe_metrics(name: str, r: it.Ratings, small: bool) -> None:
    deep = r.n_categories < 100
    calls = [
        ("cohen", lambda: it.cohen_kappa(r, 0, 1)),
        ("cohen linear", lambda: it.cohen_kappa(r, 0, 1, weights="linear")),
        ("cohen quadratic pop", lambda: it.cohen_kappa(r, 1, 0, weights="quadratic", population=10**6)),
        ("pairwise", lambda: it.pairwise_cohen(r)),
        ("fleiss", lambda: it.fleiss_kappa(r)),
        ("fleiss item_mean", lambda: it.fleiss_kappa(r, "item_mean")),
        ("fleiss quadratic", lambda: it.fleiss_kappa(r, weights="quadratic")),
        ("fleiss item_mean linear pop", lambda: it.fleiss_kappa(r, "item_mean", "linear", 10**5)),
    ]
    for level in it.LEVELS:
        calls.append((f"alpha {level}", lambda lv=level: it.krippendorff_alpha(r, lv)))
    calls.append(("alpha nominal pop", lambda: it.krippendorff_alpha(r, population=10**5)))
    for fn in (it.percent_agreement, it.brennan_prediger, it.conger_kappa, it.gwet_ac):
        for weights in (None, "quadratic", "ordinal"):
            calls.append((f"{fn.__name__} {weights}", lambda f=fn, w=weights: f(r, weights=w)))
    calls.append(("scott", lambda: it.scott_pi(r, 0, 1)))
    calls.append(("scott linear", lambda: it.scott_pi(r, 1, 0, weights="linear")))
    calls.append(("gwet custom", lambda: it.gwet_ac(r, weights=np.eye(r.n_categories) * 0.5 + 0.5)))
    for label, fn in calls:
        out(f" {name} :: {label}")
        res = attempt(label, fn)
        if res is not None:
            fields(res, deep)
            if label == "pairwise":
                for sub in res.results:
                    out(f"  pair {sub.rater_a}-{sub.rater_b}")
                    fields(sub, deep)
    if small:
        for metric in (
            "cohen_kappa",
            "fleiss_kappa",
            "krippendorff_alpha",
            "conger_kappa",
            "scott_pi",
            "gwet_ac",
        ):
            out(f" {name} :: bootstrap {metric}")
            res = attempt("boot", lambda m=metric: it.bootstrap_ci(m, r, n_boot=50, seed=3))
            if res is not None:
                fields(res)
        out(f" {name} :: family_intervals")
        rows = attempt("fi", lambda: it.family_intervals(r, level="ordinal"))
        for row in rows or []:
            out(
                f"  {row.name} {row.metric} se={num(row.se)} [{num(row.low)}, {num(row.high)}] {row.reason!r}"
            )
        rows = attempt("fi boot", lambda: it.family_intervals(r, method="bootstrap", n_boot=30, seed=1))
        for row in rows or []:
            out(f"  boot {row.name} se={num(row.se)} [{num(row.low)}, {num(row.high)}] {row.reason!r}")


def random_table(seed: int, n: int, raters: int, q: int, missing: float, kind: str = "int") -> np.ndarray:
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, q, size=(n, raters))
    if n > 3:
        codes[: n // 2, 1] = codes[: n // 2, 0]  # some agreement
    values = {
        "int": lambda c: c.astype(float),
        "neg": lambda c: (c * 7 - 1000).astype(float),
        "float": lambda c: c * 0.25 + 0.5,
    }
    if kind == "str":
        table = np.array([[f"L{v:03d}" for v in row] for row in codes], dtype=object)
        table[rng.random(table.shape) < missing] = None
        return table
    table = values[kind](codes)
    table[rng.random(table.shape) < missing] = np.nan
    return table


def tables():
    yield "sentiment", datasets.sentiment(), True
    yield "sentiment_missing", datasets.sentiment_missing(), True
    yield "partial_coverage", datasets.partial_coverage(), True
    yield "diagnoses", datasets.diagnoses(), True
    yield "class_annotations", datasets.class_annotations(), False
    for fc in ("a", "b"):
        yield f"feinstein {fc}", attempt("fc", lambda f=fc: datasets.feinstein_cicchetti(f)), True
    yield "simulate", datasets.simulate(n_items=60, n_raters=4, seed=5), True
    yield "table2x2", datasets.from_agreement_table([[20, 5], [10, 15]], ["yes", "no"]), True
    yield "one category", it.Ratings.from_rows([["x", "x"], ["x", None], ["x", "x"]]), True
    yield "one item", it.Ratings.from_rows([["a", "b", "a"]]), True
    yield "unrated items", it.Ratings.from_rows([["a", None], [None, None], ["b", "b"], ["a", "a"]]), True
    yield "no shared", it.Ratings.from_rows([["a", None], [None, "b"], ["b", None]]), True
    yield "declared unused", it.Ratings.from_rows([[1, 2], [2, 2], [1, 1]], categories=[3, 2, 1, 0]), True
    yield "bools", it.Ratings.from_rows([[True, False], [True, True], [None, False]]), True
    yield "mixed", it.Ratings.from_rows([["a", 1], [2.5, "a"], [1, 1.0]]), True
    yield "big ints", it.Ratings.from_rows([[2**60, 2**60 + 1], [2**60, 2**60]]), True
    long = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3, 3], "rater": list("ABABABC"), "label": list("xyxxyy") + [None]}
    )
    yield "long", it.Ratings.from_long(long), True
    frame = pd.DataFrame({"r1": pd.Categorical(["lo", "hi", "mid"], ["lo", "mid", "hi"], ordered=True)})
    frame["r2"] = pd.Categorical(["lo", "mid", None], ["lo", "mid", "hi"], ordered=True)
    yield "ordered categorical", it.Ratings.from_dataframe(frame), True
    yield "codes", it.Ratings.from_codes([[0, 1, -1], [2, 2, 2], [-1, -1, 0]], ["n", "m", "p"]), True
    for q, miss in ((2, 0.0), (5, 0.2), (15, 0.1), (16, 0.05), (17, 0.3), (255, 0.1), (256, 0.1), (300, 0.5)):
        for kind in ("int", "neg", "float", "str") if q < 100 else ("int", "str"):
            n = 40 if q < 100 else 400
            data = random_table(q * 7 + len(kind), n, 5 if q < 100 else 3, q, miss, kind)
            yield (
                f"random q={q} {kind} miss={miss}",
                attempt("build", lambda d=data: it.Ratings.from_rows(d, max_categories=300)),
                q <= 17,
            )
    big = random_table(11, 100_000, 10, 5, 0.2)
    yield "big 100k x 10", it.Ratings.from_rows(big), False
    big[:, 3] = np.nan
    yield (
        "big 100k x 10 str",
        it.Ratings.from_rows(np.where(np.isnan(big), None, big.astype(int).astype(str))),
        False,
    )


def csv_cases() -> None:
    out("== files")
    global TMP
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        files = {
            "wide.csv": "item,A,B,C\n1,x,y,x\n2,y,y,\n3,NA,x,x\n",
            "nums.csv": "A,B\n1,2\n2,2\n3,1.5\n",
            "ragged.csv": "A,B\n1,2,3\n2,2\n",
            "long.csv": "item,rater,label\n1,A,x\n1,B,y\n2,A,x\n2,B,x\n",
            "twice.csv": "item,rater,label\n1,A,x\n1,A,y\n2,B,x\n",
            "semi.csv": "A;B\nx;y\ny;y\n",
            "empty.csv": "",
        }
        for fname, text in files.items():
            path = Path(tmp) / fname
            path.write_text(text)
            out(f" {fname}")
            r = attempt("read", lambda p=path: it.Ratings.from_csv(p))
            if r is not None:
                out(f"  {r!r} codes={show(r.codes)} items={list(r.items)}")
                out(f"  reading = {r.reading!r}")


def errors() -> None:
    out("== errors")
    R = it.Ratings
    sent = datasets.sentiment()
    cases = [
        ("ragged", lambda: R.from_rows([["a", "b"], ["a"]])),
        ("one rater", lambda: R.from_rows([["a"], ["b"]])),
        ("empty", lambda: R.from_rows([])),
        ("bool and number", lambda: R.from_rows([[True, 1], [0, 1]])),
        ("unhashable", lambda: R.from_rows([[["a"], "b"]])),
        ("undeclared", lambda: R.from_rows([["a", "b"]], categories=["a"])),
        ("dup categories", lambda: R.from_rows([["a", "b"]], categories=["a", "b", "a"])),
        ("missing category", lambda: R.from_rows([["a", "b"]], categories=["a", "NA"])),
        ("too many", lambda: R.from_rows(np.arange(40).reshape(20, 2), max_categories=10)),
        ("too many floats", lambda: R.from_rows(np.arange(40).reshape(20, 2) * 0.1, max_categories=10)),
        ("dup raters", lambda: R.from_rows([["a", "b"]], raters=["A", "A"])),
        ("codes range", lambda: R.from_codes([[0, 5]], ["a", "b"])),
        ("codes float", lambda: R.from_codes([[0.5, 1]], ["a", "b"])),
        ("codes 1d", lambda: R.from_codes([0, 1], ["a", "b"])),
        ("cohen same", lambda: it.cohen_kappa(sent, "A", "A")),
        ("cohen weights unordered", lambda: it.cohen_kappa(R.from_rows([["x", "y"]]), weights="linear")),
        ("cohen bad weights", lambda: it.cohen_kappa(sent, weights="cubic")),
        ("no rater", lambda: it.cohen_kappa(sent, "Z", "A")),
        ("rater index", lambda: it.cohen_kappa(sent, 0, 7)),
        ("fleiss chance", lambda: it.fleiss_kappa(sent, "mean")),
        ("fleiss no pairs", lambda: it.fleiss_kappa(R.from_rows([["a", None], [None, "b"]]))),
        ("alpha level", lambda: it.krippendorff_alpha(sent, "cardinal")),
        ("alpha interval text", lambda: it.krippendorff_alpha(sent, "interval")),
        ("alpha ratio negative", lambda: it.krippendorff_alpha(R.from_rows([[-1, 2], [2, 2]]), "ratio")),
        ("alpha no pairs", lambda: it.krippendorff_alpha(R.from_rows([["a", None], [None, "b"]]))),
        ("weights matrix shape", lambda: it.gwet_ac(sent, weights=np.eye(2))),
        ("weights asym", lambda: it.gwet_ac(sent, weights=[[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])),
        ("weights diag", lambda: it.gwet_ac(sent, weights=np.zeros((3, 3)))),
        ("weights range", lambda: it.gwet_ac(sent, weights=np.full((3, 3), 2.0))),
        ("weights ratio", lambda: it.gwet_ac(R.from_rows([[0, 1], [1, 1]]), weights="ratio")),
        ("population", lambda: it.fleiss_kappa(sent, population=3)),
        ("population type", lambda: it.fleiss_kappa(sent, population=2.5)),
        ("boot metric", lambda: it.bootstrap_ci("kappa", sent)),
        ("boot kwargs", lambda: it.bootstrap_ci("fleiss_kappa", sent, level="nominal")),
        ("boot n", lambda: it.bootstrap_ci("fleiss_kappa", sent, n_boot=0)),
        ("pairs", lambda: sent.pair_tables("AB")),
        ("pairs elem", lambda: sent.pair_tables([("A",)])),
        ("groups", lambda: sent.rater_counts_by([0, 1])),
        ("groups neg", lambda: sent.rater_counts_by(np.full(sent.n_items, -1))),
        ("with_label", lambda: sent.with_label(99, 0, "P")),
        ("with_label label", lambda: sent.with_label(0, 0, "Q")),
        ("with_missing", lambda: sent.with_missing([True])),
        ("subset empty", lambda: sent.subset(items=[])),
        ("subset range", lambda: sent.subset(items=[99])),
        ("subset twice", lambda: sent.subset(raters=["A", "A"])),
        ("merge same", lambda: sent.merge_raters("A", "A", keep="A")),
        ("merge keep", lambda: sent.merge_raters("A", "B", keep="C")),
        ("max_pairs", lambda: it.pairwise_cohen(sent, max_pairs=2)),
        ("items_needed", lambda: it.items_needed("fleiss_kappa", 0.6, 3, [0.5, 0.5], 0.0)),
        ("interpret", lambda: it.interpret(5)),
        ("category_index", lambda: sent.category_index(None)),
    ]
    for label, fn in cases:
        out(f" {label}")
        attempt(label, fn)


def planning() -> None:
    out("== planning")
    for coef in it.PLANNED:
        res = attempt(coef, lambda c=coef: it.items_needed(c, 0.6, 3, [0.5, 0.3, 0.2], 0.1))
        if res is not None:
            out(f" {coef}")
            fields(res)
    res = attempt(
        "weighted", lambda: it.items_needed("gwet_ac", 0.7, 4, [0.2, 0.5, 0.3], 0.05, 0.9, "linear")
    )
    if res is not None:
        fields(res)
    for v in (0.492, -0.2, float("nan"), 1.0, 0.0):
        out(f" interpret {v} {it.interpret(v)}")


def main() -> None:
    for name, r, small in tables():
        out(f"== {name}")
        if r is None:
            continue
        global EXPLAIN
        EXPLAIN = r.n_items <= 2000
        probe_ratings(r)
        probe_metrics(name, r, small)
    csv_cases()
    errors()
    planning()


if __name__ == "__main__":
    main()
