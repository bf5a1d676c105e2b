"""Gin Rummy: rules and presets, strategies, traced hands, seeded runs of hands and matches, summaries,
tournaments and their ratings, match equity tables, exact enumeration, game records and their analysis,
and play in the terminal. The names are re-exported by :mod:`ginsim`.

>>> from ginsim import gin
>>> gin.play_hand(gin.Rules.preset("oklahoma"), "simple,greedy", seed=3, index=0).knock_limit in range(11)
True
"""
from __future__ import annotations

from ginsim.gin.game.actions import Action
from ginsim.gin.game.hand import Event, EventKind, HandResult, Outcome, analyse_hand, knock_showdown, play_hand
from ginsim.gin.game.native import StrategyError
from ginsim.gin.game.players import Player, resolve_players
from ginsim.gin.game.policy.learned import learned_player
from ginsim.gin.game.rules import PRESETS, Rules, preset_names
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.game.strategies import STRATEGIES, Strategy, View
from ginsim.gin.review.analysis import analyze, decide, summarize_analysis
from ginsim.gin.review.hints import Hints
from ginsim.gin.review.replay import GameRecord, HandRecord
from ginsim.gin.studies.equity import equity_table
from ginsim.gin.studies.matches import MatchScore
from ginsim.gin.studies.ratings import ratings
from ginsim.gin.studies.simulate import records_frame, simulate, simulate_matches
from ginsim.gin.studies.summary import RUN_KINDS, Counts, summarize, summarize_matches
from ginsim.gin.studies.sweep import sweep
from ginsim.gin.studies.tournament import tournament, win_matrix

__all__ = [
    "Action",
    "Counts",
    "Event",
    "EventKind",
    "GameRecord",
    "GameState",
    "HandRecord",
    "HandResult",
    "Hints",
    "MatchScore",
    "Outcome",
    "PRESETS",
    "Phase",
    "Player",
    "RUN_KINDS",
    "Rules",
    "STRATEGIES",
    "Strategy",
    "StrategyError",
    "View",
    "analyse_hand",
    "analyze",
    "decide",
    "equity_table",
    "knock_showdown",
    "learned_player",
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
