"""The bridge to the native engine: rules as native settings, seeds as stream keys.

Hand ``i`` of a run with seed ``s`` draws all its randomness from a xoshiro256** stream keyed by
``(k0, k1, i)``, where ``(k0, k1)`` are the first two 64-bit words of ``SeedSequence(s)`` (for runs of
matches, of ``SeedSequence(s, spawn_key=(1,))``). A hand is therefore a pure function of (rules,
players, s, i), whatever the chunking or backend.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from gincore._engine import Engine
from gincore.errors import InputError
from ginsim.checks import check_seed
from ginsim.rules import Rules
from ginsim.strategies import PlayerSpec, native_spec, resolve_players

__all__ = ["STREAM_FAMILIES", "engine", "match_key", "native_config", "run_key", "stream_key"]


# Each kind of run draws from its own family of streams, so that hand i of a Gin run and hand i of a
# run of matches (or of classic Rummy) with the same seed are unrelated.
STREAM_FAMILIES = {"hands": (), "matches": (1,), "rummy_hands": (2,), "rummy_games": (3,)}


@functools.lru_cache(maxsize=64)
def stream_key(seed: int, family: str = "hands") -> tuple[int, int]:
    """The two 64-bit words that key every stream of a run of this family with this seed: the first
    words of ``SeedSequence(seed, spawn_key=STREAM_FAMILIES[family])``.

    >>> stream_key(1) == run_key(1) != stream_key(1, "matches")
    True
    """
    words = np.random.SeedSequence(check_seed(seed), spawn_key=STREAM_FAMILIES[family]).generate_state(
        2, np.uint64)
    return int(words[0]), int(words[1])


def run_key(seed: int) -> tuple[int, int]:
    """The key of a run of Gin hands with this seed.

    >>> run_key(1) == run_key(1) != run_key(2)
    True
    """
    return stream_key(seed, "hands")


def match_key(seed: int) -> tuple[int, int]:
    """The key of a run of Gin matches with this seed.

    >>> match_key(1) != run_key(1)
    True
    """
    return stream_key(seed, "matches")


@functools.lru_cache(maxsize=64)
def native_config(rules: Rules) -> dict[str, Any]:
    """The settings the native hand loop reads, with the knock limit and multiplier by upcard.

    >>> native_config(Rules.preset("oklahoma"))["knock_limit"][:13]
    (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.Rules, got {type(rules).__name__}")
    return {
        "knock_limit": tuple(rules.knock_limit_for(upcard) for upcard in range(52)),
        "multiplier": tuple(rules.multiplier_for(upcard) for upcard in range(52)),
        "gin_bonus": rules.gin_bonus,
        "undercut_bonus": rules.undercut_bonus,
        "big_gin_bonus": -1 if rules.big_gin_bonus is None else rules.big_gin_bonus,
        "stock_floor": rules.stock_floor,
        "max_reshuffles": rules.max_reshuffles if rules.exhaustion == "reshuffle" else 0,
    }


@functools.lru_cache(maxsize=64)
def _engine(rules: Rules, players: tuple[PlayerSpec, PlayerSpec]) -> Engine:
    return Engine(native_config(rules), [native_spec(player) for player in players])


def engine(rules: Rules, players: tuple[PlayerSpec, PlayerSpec] | str) -> Engine:
    """The native engine for a rule set and two strategies (built once, then reused).

    >>> engine(Rules(), "simple,simple").play_record(1, 2, 0)[0]
    0
    """
    return _engine(rules, resolve_players(players))
