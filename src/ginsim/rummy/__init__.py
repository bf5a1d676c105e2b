"""Classic Rummy (docs/rules.md#classic-rummy) for two to six players on the native engine: the same names as
:mod:`ginsim.gin` for its own game — rules, strategies, a traced hand, seeded runs of hands and of games
to a target, and their summaries.

>>> from ginsim import rummy
>>> records = rummy.simulate(rummy.Rules(), "greedy,greedy,random", hands=1000, seed=1, workers=1)
>>> table = rummy.summarize(records, by="seat")
>>> table[["players", "seat", "hands"]].values.tolist()
[[3, 0, 1000], [3, 1, 1000], [3, 2, 1000]]
"""
from __future__ import annotations

from ginsim.rummy.hand import Event, EventKind, HandResult, Outcome, play_hand
from ginsim.rummy.native import engine, game_key, run_key
from ginsim.rummy.rules import Rules
from ginsim.rummy.simulate import games_frame, records_frame, simulate, simulate_games
from ginsim.rummy.strategies import MAX_PLAYERS, MIN_PLAYERS, STRATEGIES, resolve_players
from ginsim.rummy.summary import GROUPS, OUTCOMES, RUN_KINDS, summarize, summarize_games

__all__ = [
    "Event",
    "EventKind",
    "GROUPS",
    "HandResult",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OUTCOMES",
    "Outcome",
    "RUN_KINDS",
    "Rules",
    "STRATEGIES",
    "engine",
    "game_key",
    "games_frame",
    "play_hand",
    "records_frame",
    "resolve_players",
    "run_key",
    "simulate",
    "simulate_games",
    "summarize",
    "summarize_games",
]
