"""Hypothesis settings for the property tests.

The "ci" profile (the default) is deterministic: ``derandomize=True`` makes
every run draw the same examples, no example database is written into the
working tree, and there is no per-example deadline (a loaded 2-core machine
must not turn a slow example into a failure). Choose another profile with
``HYPOTHESIS_PROFILE=dev`` (random draws, for hunting new counterexamples).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def lab_server():
    """One JupyterLab for every browser test of the session (see browser_support.shared_lab)."""
    from browser_support import shared_lab

    with shared_lab() as server:
        yield server


def pytest_addoption(parser):
    parser.addoption(
        "--exam-seeds",
        type=int,
        default=None,
        help="seeds per kind and level for the exam-marking property tests (test_exercises; default "
        "$IAA_EXAM_SEEDS or 12; issue 23's bar is 200)",
    )
