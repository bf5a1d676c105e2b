"""Shared fixtures of the test suite: the random seed, the ``oracle`` marker, the package.

The seed of the random sweeps comes from ``--solver-seed N`` or the ``GINCORE_TEST_SEED``
environment variable; without either it is drawn at random. It is printed in the report header
and beside every failing test, so a failure can be replayed with ``--solver-seed N``. Under
pytest-xdist the controller draws the seed once and hands it to every worker.
"""

from __future__ import annotations

import os
import secrets
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED_ENV = "GINCORE_TEST_SEED"
_SEED_KEY = "gincore_solver_seed"
_seed_stash = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--solver-seed",
        action="store",
        default=None,
        type=int,
        help=f"seed of the solver's random sweeps (default: ${SEED_ENV}, else random)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "oracle: the large brute-force comparison sweeps "
        "(run by default; deselect with -m 'not oracle')",
    )
    worker_input = getattr(config, "workerinput", None)
    if worker_input is not None and _SEED_KEY in worker_input:
        seed = int(worker_input[_SEED_KEY])
    elif config.getoption("--solver-seed") is not None:
        seed = int(config.getoption("--solver-seed"))
    elif os.environ.get(SEED_ENV):
        seed = int(os.environ[SEED_ENV])
    else:
        seed = secrets.randbits(32)
    config.stash[_seed_stash] = seed


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist: every worker runs with the controller's seed."""
    node.workerinput[_SEED_KEY] = node.config.stash[_seed_stash]


def pytest_report_header(config: pytest.Config) -> str:
    return f"test seed: {config.stash[_seed_stash]} (replay with --solver-seed or {SEED_ENV})"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and "solver_seed" in getattr(item, "fixturenames", ()):
        seed = item.config.stash[_seed_stash]
        report.sections.append(
            ("gincore solver seed", f"--solver-seed {seed}  (or {SEED_ENV}={seed})")
        )


@pytest.fixture(scope="session")
def solver_seed(request: pytest.FixtureRequest) -> int:
    return request.config.stash[_seed_stash]


@pytest.fixture
def rng(request: pytest.FixtureRequest, solver_seed: int) -> np.random.Generator:
    """A generator of its own for each test (and each parametrized chunk) under one seed."""
    test_key = zlib.crc32(request.node.nodeid.encode())
    return np.random.default_rng([solver_seed, test_key])


@pytest.fixture(scope="session")
def gincore():
    """The package under test (imported here so the oracle's self-tests run without a build)."""
    import gincore as package

    return package


@pytest.fixture(scope="session")
def melds_module():
    from gincore import _melds

    return _melds
