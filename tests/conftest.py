"""Shared fixtures of the test suite: the one random seed, the size of the sweeps, the package.

Seed: every random test takes its seed from the ``test_seed`` fixture, directly or through ``rng`` (a
generator of its own per test) or ``seed_for`` (a seed of its own per named sweep); Hypothesis is
seeded with it too. It comes from ``--test-seed N`` or the ``GINSIM_TEST_SEED`` environment variable,
and is drawn at random without either. It is printed in the report header and beside every failing
test, so a failure replays with ``--test-seed N``. Under pytest-xdist the controller draws it once and
hands it to every worker.

Size: by default the sweeps are sized for the README's command (a few minutes on two cores) and lean on
the hands where mistakes hide; ``--full`` or ``GINSIM_FULL_TESTS=1`` runs them at full size (10^6 hands
against the brute-force oracle, every hand of every engine sweep replayed, 1,000 examples per
Hypothesis property). A test asks for the ``full`` fixture and picks its size with ``SIZE[full]``
from a ``(default, full)`` pair.

Rule sets: the named Gin rule sets that the engine, state and determinism sweeps play are defined once
here, in ``RULE_SETS`` (every preset, then the variants that reach the rarer paths); a sweep picks its
own with ``rule_sets(*names)``.
"""

from __future__ import annotations

import os
import secrets
import zlib
from collections.abc import Callable

import numpy as np
import pytest

from ginsim.gin.game.rules import Rules, preset_names

RULE_SETS: dict[str, Rules] = {name: Rules.preset(name) for name in preset_names()} | {
    "big-gin": Rules(big_gin_bonus=31),
    "straight-big-gin": Rules(knock_limit=0, big_gin_bonus=31),
    "oklahoma-only": Rules(oklahoma=True),
    "oklahoma-big-gin": Rules(oklahoma=True, big_gin_bonus=31),
    "floor-0": Rules(stock_floor=0),
    "reshuffle-2": Rules(exhaustion="reshuffle", max_reshuffles=2),
    "reshuffle-3-floor-0": Rules(exhaustion="reshuffle", max_reshuffles=3, stock_floor=0),
    "odd-bonuses-floor-5": Rules(knock_limit=7, gin_bonus=20, undercut_bonus=10, big_gin_bonus=50, stock_floor=5),
    "oklahoma-ace-1-single": Rules(oklahoma=True, oklahoma_ace_limit=1, spade_doubles=False),
}
"""Every named Gin rule set of the sweeps: the presets, then variants that reach the rarer paths (big gin,
reshuffles, a stock floor of 0 or 5, odd bonuses, Oklahoma without its preset's other fields)."""


def rule_sets(*names: str) -> dict[str, Rules]:
    """The named rule sets of ``RULE_SETS``, in the order given (a sweep's choice)."""
    return {name: RULE_SETS[name] for name in names}


PRESET_NAMES = preset_names()

SEED_ENV = "GINSIM_TEST_SEED"
FULL_ENV = "GINSIM_FULL_TESTS"
_SEED_KEY = "ginsim_test_seed"
HYPOTHESIS_EXAMPLES = (100, 1_000)  # per property, (default, --full)
_seed_stash = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ginsim")
    group.addoption("--test-seed", action="store", default=None, type=int, metavar="N",
                    help=f"seed of every random test (default: ${SEED_ENV}, else random)")
    group.addoption("--full", action="store_true", default=False,
                    help=f"run the sweeps at full size (also ${FULL_ENV}=1): 10^6 hands against the oracle")


def _full(config: pytest.Config) -> bool:
    return bool(config.getoption("--full")) or os.environ.get(FULL_ENV, "") not in ("", "0")


@pytest.hookimpl(tryfirst=True)  # before Hypothesis' own pytest_configure reads its seed option
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "oracle: the large sweeps against the brute-force oracle and the replayers "
        "(run by default at a smaller size, at full size with --full; deselect with -m 'not oracle')",
    )
    worker_input = getattr(config, "workerinput", None)
    if worker_input is not None and _SEED_KEY in worker_input:
        seed = int(worker_input[_SEED_KEY])
    elif config.getoption("--test-seed") is not None:
        seed = int(config.getoption("--test-seed"))
    elif os.environ.get(SEED_ENV):
        seed = int(os.environ[SEED_ENV])
    else:
        seed = secrets.randbits(32)
    config.stash[_seed_stash] = seed
    if getattr(config.option, "hypothesis_seed", "absent") is None:
        config.option.hypothesis_seed = str(seed)
    from hypothesis import settings

    settings.register_profile("ginsim", max_examples=HYPOTHESIS_EXAMPLES[_full(config)])
    settings.load_profile("ginsim")  # a --hypothesis-profile given on the command line still wins


@pytest.hookimpl(optionalhook=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``full_only`` tests run only at full size (``--full``)."""
    if _full(config):
        return
    skip = pytest.mark.skip(reason=f"full_only: a re-run of the docs' numbers (--full or {FULL_ENV}=1 runs it)")
    for item in items:
        if "full_only" in item.keywords:
            item.add_marker(skip)


def pytest_configure_node(node) -> None:
    """pytest-xdist: every worker runs with the controller's seed."""
    node.workerinput[_SEED_KEY] = node.config.stash[_seed_stash]


def _replay_hint(config: pytest.Config) -> str:
    seed = config.stash[_seed_stash]
    if _full(config):
        return f"--test-seed {seed} --full (or {SEED_ENV}={seed} {FULL_ENV}=1)"
    return f"--test-seed {seed} (or {SEED_ENV}={seed})"


def pytest_report_header(config: pytest.Config) -> list[str]:
    size = "full size" if _full(config) else f"default size (--full or {FULL_ENV}=1 for the full sweeps)"
    return [f"test seed: {config.stash[_seed_stash]}, replay with {_replay_hint(config)}", f"sweeps: {size}"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    outcome = yield
    report = outcome.get_result()
    seeded = "test_seed" in getattr(item, "fixturenames", ()) or item.get_closest_marker("hypothesis")
    if report.failed and seeded:
        report.sections.append(("ginsim test seed", _replay_hint(item.config)))


@pytest.fixture(scope="session")
def test_seed(request: pytest.FixtureRequest) -> int:
    """The run's seed (``--test-seed N`` or ``GINSIM_TEST_SEED``, else random)."""
    return request.config.stash[_seed_stash]


@pytest.fixture
def rng(request: pytest.FixtureRequest, test_seed: int) -> np.random.Generator:
    """A generator of its own for each test (and each parametrized chunk) under the run's seed."""
    test_key = zlib.crc32(request.node.nodeid.encode())
    return np.random.default_rng([test_seed, test_key])


@pytest.fixture(scope="session")
def seed_for(test_seed: int) -> Callable[[str], int]:
    """``seed_for(name)``: a seed of its own for each named sweep, derived from the run's seed."""

    def derive(name: str) -> int:
        return (test_seed + zlib.crc32(name.encode())) % 2**63

    return derive


@pytest.fixture(scope="session")
def full(request: pytest.FixtureRequest) -> bool:
    """Whether the sweeps run at full size (``--full`` or ``GINSIM_FULL_TESTS=1``)."""
    return _full(request.config)


@pytest.fixture(scope="session")
def gincore():
    """The package under test (imported here so the oracle's self-tests run without a build)."""
    import gincore as package

    return package


@pytest.fixture(scope="session")
def melds_module():
    from gincore import _melds

    return _melds
