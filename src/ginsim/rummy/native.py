"""The bridge to the native classic Rummy engine (as ``ginsim.gin.game.native`` is Gin's), the only module of
ginsim that imports :mod:`gincore.rummy`: rules as native settings, seeds as stream keys, and the native names
the rest of ``ginsim.rummy`` uses (the hand sizes, the record's columns).

Hand ``i`` of a run with seed ``s`` draws from the ``rummy_hands`` stream family; hand ``j`` of game
``g`` from stream ``(g << 24) | j`` of the ``rummy_games`` family (see :mod:`ginsim.core.streams`).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

from gincore.rummy import GAME_COLUMNS, HAND_SIZES, RECORD_COLUMNS, STRATEGY_KINDS, RummyEngine
from ginsim.core.streams import stream_key
from ginsim.rummy.rules import Rules, check_rules
from ginsim.rummy.strategies import resolve_players

__all__ = ["GAME_COLUMNS", "HAND_SIZES", "RECORD_COLUMNS", "RummyEngine", "engine", "game_key", "run_key"]


def run_key(seed: int) -> tuple[int, int]:
    """The two 64-bit words keying every hand stream of a Rummy run with this seed.

    >>> from ginsim.gin.game import native
    >>> run_key(1) != native.run_key(1)
    True
    """
    return stream_key(seed, "rummy_hands")


def game_key(seed: int) -> tuple[int, int]:
    """The key of a run of Rummy games, apart from a run of hands with that seed.

    >>> game_key(1) != run_key(1)
    True
    """
    return stream_key(seed, "rummy_games")


@functools.lru_cache(maxsize=64)
def _engine(rules: Rules, players: tuple[str, ...]) -> RummyEngine:
    config = {"max_turnovers": rules.max_turnovers, "rummy_doubles": rules.rummy_doubles}
    return RummyEngine(config, [STRATEGY_KINDS[name] for name in players])


def engine(rules: Rules, players: Sequence[str] | str) -> RummyEngine:
    """The native engine for a rule set and a table of strategies (built once, then reused).

    >>> engine(Rules(), "greedy,random,greedy").players
    3
    """
    return _engine(check_rules(rules), resolve_players(players))
