"""Stream keys: where every random draw of every kind of run comes from.

Item ``i`` of a run with seed ``s`` (a hand, a match, a game) draws all its randomness from the native
xoshiro256** stream keyed by ``(k0, k1, i)``, where ``(k0, k1)`` are the first two 64-bit words of
``SeedSequence(s, spawn_key=FAMILIES[family])``. An item is therefore a pure function of (rules,
players, s, i), whatever the chunking or the backend; each family has streams of its own, so that
hand ``i`` of a Gin run and game ``i`` of a Rummy run with the same seed are unrelated.

>>> stream_key(1) == stream_key(1) != stream_key(1, "gin_matches")
True
"""
from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Final

import numpy as np

from ginsim.checks import check_seed

__all__ = ["FAMILIES", "LIMITS", "stream_key"]

FAMILIES: Final = MappingProxyType({"gin_hands": (), "gin_matches": (1,), "rummy_hands": (2,), "rummy_games": (3,),
                                    "gin_equity": (4,)})
"""The spawn key of each family of streams (a family is one kind of item that runs are made of; ``gin_equity``
seeds the bootstrap of an equity table)."""
LIMITS: Final = MappingProxyType({"gin_hands": 10**18, "gin_matches": 10**12, "rummy_hands": 10**18,
                                  "rummy_games": 10**12})
"""The most items a run of each family may have. Stream indices are 64-bit: a hand's is its index
(below 2**63); a match's or game's hand ``j`` of item ``m`` is ``(m << 24) | j``, so ``m`` stays below
2**40 (team matches count each pair as an item)."""


@functools.lru_cache(maxsize=64)
def stream_key(seed: int, family: str = "gin_hands") -> tuple[int, int]:
    """The two 64-bit words that key every stream of a run of this family with this seed.

    >>> stream_key(0, "rummy_games") != stream_key(0, "rummy_hands")
    True
    """
    words = np.random.SeedSequence(check_seed(seed), spawn_key=FAMILIES[family]).generate_state(2, np.uint64)
    return int(words[0]), int(words[1])
