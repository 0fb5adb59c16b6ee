"""bootstrap_ci: deterministic with a seed, and its vectorized replicates equal a plain loop.

The reference loop draws the same resampling indices as ``bootstrap_ci``
(``rng.integers(0, n, size=(b, n))`` per chunk of at most 4,000,000 // n
replicates), builds each resampled table with ``Ratings.subset`` and calls the
metric on it, one replicate at a time.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    cohen_kappa,
    datasets,
    fleiss_kappa,
    krippendorff_alpha,
)

CHUNK_BUDGET = 4_000_000  # cells of the (replicates x items) index array drawn at once


def draw_indices(rng: np.random.Generator, n_items: int, n_boot: int):
    """The resampling indices, drawn in the same chunks as bootstrap_ci draws them."""
    chunk = max(1, min(n_boot, CHUNK_BUDGET // n_items))
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        yield from rng.integers(0, n_items, size=(b, n_items))
        done += b


def one_replicate(metric, r: Ratings, items, **kwargs) -> float:
    try:
        return float(metric(r.subset(items=items), **kwargs))
    except AgreementError:  # e.g. no item with two ratings in this resample: undefined
        return math.nan


def naive_replicates(metric, r: Ratings, n_boot: int, seed, **kwargs) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([one_replicate(metric, r, idx, **kwargs) for idx in draw_indices(rng, r.n_items, n_boot)])


def random_table(seed: int, n_items: int, n_raters: int, k: int, p_missing: float) -> Ratings:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    codes = np.where(
        rng.random((n_items, n_raters)) < 0.6, truth[:, None], rng.integers(0, k, (n_items, n_raters))
    )
    values = np.where(rng.random(codes.shape) < p_missing, np.nan, codes + 1.0)
    return Ratings.from_rows(values, categories=list(range(1, k + 1)))


TABLES = {
    "sentiment": datasets.sentiment(),
    "sentiment_missing": datasets.sentiment_missing(),
    "partial_coverage": datasets.partial_coverage(),
    "random": random_table(7, n_items=25, n_raters=4, k=4, p_missing=0.3),
}

CASES = [
    (cohen_kappa, {"a": 0, "b": 1}),
    (cohen_kappa, {"a": "B", "b": "C", "weights": "linear"}),
    (cohen_kappa, {"a": 0, "b": 2, "weights": "quadratic"}),
    (fleiss_kappa, {}),
    (fleiss_kappa, {"chance": "item_mean"}),
    (krippendorff_alpha, {}),
    (krippendorff_alpha, {"level": "ordinal"}),
]


def case_id(case) -> str:
    metric, kwargs = case
    return metric.__name__ + "".join(f"-{v}" for v in kwargs.values())


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_vectorized_replicates_equal_a_plain_loop(table, case):
    metric, kwargs = case
    r = TABLES[table]
    ci = bootstrap_ci(metric, r, n_boot=150, seed=11, **kwargs)
    ref = naive_replicates(metric, r, 150, 11, **kwargs)
    assert ci.samples.shape == (150,)
    np.testing.assert_allclose(ci.samples, ref, rtol=0, atol=1e-9, equal_nan=True)
    assert ci.n_undefined == int(np.isnan(ref).sum())
    assert ci.estimate == float(metric(r, **kwargs))


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_vectorized_replicates_numeric_levels(level):
    r = TABLES["random"]
    ci = bootstrap_ci(krippendorff_alpha, r, n_boot=150, seed=3, level=level)
    ref = naive_replicates(krippendorff_alpha, r, 150, 3, level=level)
    np.testing.assert_allclose(ci.samples, ref, rtol=0, atol=1e-9, equal_nan=True)


def test_replicates_across_several_chunks():
    """20,000 items: replicates are drawn 200 at a time; spot-check each chunk against the loop."""
    r = random_table(5, n_items=20_000, n_raters=3, k=3, p_missing=0.2)
    n_boot = 450
    assert CHUNK_BUDGET // r.n_items == 200  # so three chunks: 200, 200, 50
    indices = list(draw_indices(np.random.default_rng(2), r.n_items, n_boot))
    for metric, kwargs in [
        (krippendorff_alpha, {}),
        (fleiss_kappa, {}),
        (cohen_kappa, {"weights": "linear"}),
    ]:
        ci = bootstrap_ci(metric, r, n_boot=n_boot, seed=2, **kwargs)
        for i in (0, 199, 200, 399, 400, 449):
            assert ci.samples[i] == pytest.approx(one_replicate(metric, r, indices[i], **kwargs), abs=1e-9), i


# ------------------------------------------------------------ determinism
def test_same_seed_same_interval():
    r = datasets.sentiment_missing()
    a = bootstrap_ci(krippendorff_alpha, r, n_boot=500, seed=42)
    b = bootstrap_ci(krippendorff_alpha, r, n_boot=500, seed=42)
    np.testing.assert_array_equal(a.samples, b.samples)
    assert (a.low, a.high) == (b.low, b.high)
    c = bootstrap_ci(krippendorff_alpha, r, n_boot=500, seed=43)
    assert not np.array_equal(a.samples, c.samples)


def test_generator_seed():
    r = datasets.sentiment()
    a = bootstrap_ci(fleiss_kappa, r, n_boot=200, seed=np.random.default_rng(9))
    b = bootstrap_ci(fleiss_kappa, r, n_boot=200, seed=9)
    np.testing.assert_array_equal(a.samples, b.samples)
    # a Generator is consumed: a second call with it draws new resamples
    rng = np.random.default_rng(9)
    first = bootstrap_ci(fleiss_kappa, r, n_boot=200, seed=rng)
    second = bootstrap_ci(fleiss_kappa, r, n_boot=200, seed=rng)
    assert not np.array_equal(first.samples, second.samples)


def test_metric_by_name_equals_metric_by_function():
    r = datasets.sentiment()
    by_name = bootstrap_ci("krippendorff_alpha", r, n_boot=100, seed=1, level="ordinal")
    by_fn = bootstrap_ci(krippendorff_alpha, r, n_boot=100, seed=1, level="ordinal")
    np.testing.assert_array_equal(by_name.samples, by_fn.samples)
    assert by_name.metric == by_fn.metric == "krippendorff_alpha"


# ------------------------------------------------------------- the interval
@pytest.mark.parametrize(
    "metric, kwargs",
    [
        (cohen_kappa, {"a": "A", "b": "B"}),
        (fleiss_kappa, {}),
        (krippendorff_alpha, {}),
        (krippendorff_alpha, {"level": "ordinal"}),
    ],
)
def test_interval_contains_the_estimate_on_the_sentiment_data(metric, kwargs):
    r = datasets.sentiment()
    ci = bootstrap_ci(metric, r, n_boot=2000, seed=2024, **kwargs)
    assert ci.estimate == float(metric(r, **kwargs))
    assert float(ci) == ci.estimate
    assert ci.low < ci.estimate < ci.high
    assert -1 <= ci.low and ci.high <= 1
    ok = ci.samples[~np.isnan(ci.samples)]
    assert ci.n_undefined == ci.samples.size - ok.size
    np.testing.assert_allclose([ci.low, ci.high], np.percentile(ok, [2.5, 97.5]))


def test_higher_confidence_gives_a_wider_interval():
    r = datasets.sentiment()
    narrow = bootstrap_ci(krippendorff_alpha, r, n_boot=1000, confidence=0.8, seed=0)
    wide = bootstrap_ci(krippendorff_alpha, r, n_boot=1000, confidence=0.99, seed=0)
    np.testing.assert_array_equal(narrow.samples, wide.samples)
    assert wide.low <= narrow.low < narrow.high <= wide.high
    assert wide.high - wide.low > narrow.high - narrow.low


def test_undefined_replicates_are_counted_and_left_out():
    """A table where many resamples put every rating in one category: NaN replicates, not 0."""
    r = Ratings.from_rows([["a", "a"], ["a", "a"], ["a", "a"], ["a", "b"]])
    ci = bootstrap_ci(fleiss_kappa, r, n_boot=400, seed=0)
    undefined = np.isnan(ci.samples)
    assert ci.n_undefined == undefined.sum() > 0
    assert not np.isnan([ci.low, ci.high]).any()
    np.testing.assert_allclose([ci.low, ci.high], np.percentile(ci.samples[~undefined], [2.5, 97.5]))


def test_repr_and_samples_are_read_only():
    ci = bootstrap_ci(krippendorff_alpha, datasets.sentiment(), n_boot=100, seed=0)
    assert "krippendorff_alpha" in repr(ci) and "95% CI" in repr(ci)
    with pytest.raises(ValueError):
        ci.samples[0] = 0.0


def test_one_category_replicates_are_undefined_as_the_coefficient():
    """One category: the chance-corrected coefficients are undefined, and so is every replicate (AC1 gave 1.0)."""
    r = Ratings.from_rows([["x", "x"], ["x", "x"], ["x", None]])
    for metric in ("gwet_ac", "brennan_prediger", "fleiss_kappa", "conger_kappa", "scott_pi"):
        ci = bootstrap_ci(metric, r, n_boot=50, seed=3)
        assert math.isnan(ci.estimate) and ci.n_undefined == 50, metric
