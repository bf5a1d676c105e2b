"""The web tests' games deal from the run's seed, not from a fresh secret one, so that a game that fails
a test plays again with ``--test-seed`` (a reshuffle or a rare ending is otherwise never seen twice)."""
from __future__ import annotations

import random
import zlib
from types import SimpleNamespace

import pytest

from ginsim.web import game


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest, test_seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's games take their seeds, in order, from a stream of the run's seed and the test's id."""
    stream = random.Random(test_seed * 2**32 + zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(game, "secrets", SimpleNamespace(randbits=stream.getrandbits))
