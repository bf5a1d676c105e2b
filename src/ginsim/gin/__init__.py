"""Gin Rummy: rules and presets, strategies, traced hands, seeded runs of hands and matches, summaries,
tournaments and their ratings, match equity tables, exact enumeration, game records and their analysis,
and play in the terminal. The names are re-exported by :mod:`ginsim`.

>>> from ginsim import gin
>>> gin.play_hand(gin.Rules.preset("oklahoma"), "simple,greedy", seed=3, index=0).knock_limit in range(11)
True
"""
from __future__ import annotations

from gincore._engine import StrategyError
from ginsim.gin.analysis import analyze, summarize_analysis
from ginsim.gin.equity import equity_table
from ginsim.gin.hand import Event, EventKind, HandResult, Outcome, analyse_hand, knock_showdown, play_hand
from ginsim.gin.ratings import ratings
from ginsim.gin.record import GameRecord
from ginsim.gin.rules import PRESETS, Rules, preset_names
from ginsim.gin.simulate import records_frame, simulate, simulate_matches
from ginsim.gin.state import GameState, Phase
from ginsim.gin.strategies import STRATEGIES, Strategy, View, resolve_players
from ginsim.gin.summary import RUN_KINDS, Counts, summarize, summarize_matches
from ginsim.gin.sweep import sweep
from ginsim.gin.tournament import tournament, win_matrix

__all__ = [
    "Counts",
    "Event",
    "EventKind",
    "GameRecord",
    "GameState",
    "HandResult",
    "Outcome",
    "PRESETS",
    "Phase",
    "RUN_KINDS",
    "Rules",
    "STRATEGIES",
    "Strategy",
    "StrategyError",
    "View",
    "analyse_hand",
    "analyze",
    "equity_table",
    "knock_showdown",
    "play_hand",
    "preset_names",
    "ratings",
    "records_frame",
    "resolve_players",
    "simulate",
    "simulate_matches",
    "summarize",
    "summarize_analysis",
    "summarize_matches",
    "sweep",
    "tournament",
    "win_matrix",
]
