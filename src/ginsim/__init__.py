"""ginsim: seeded Gin Rummy (and classic Rummy) simulations on the native gincore engine.

Gin Rummy's names are here (:mod:`ginsim.gin`); classic Rummy's, the same names for its game, are in
:mod:`ginsim.rummy`.

>>> from ginsim import Rules, play_hand
>>> play_hand(Rules.preset("oklahoma"), "simple,greedy", seed=3, index=0).knock_limit in range(11)
True
>>> from ginsim import rummy
>>> len(rummy.simulate(rummy.Rules(), "greedy,greedy,greedy", hands=10, seed=1, workers=1))
10
"""
from __future__ import annotations

from gincore.errors import InputError
from ginsim import gin, rummy
from ginsim._version import __version__
from ginsim.games import compare_runs, replay_hand, summarize_run
from ginsim.gin import (
    PRESETS,
    STRATEGIES,
    Action,
    Counts,
    Event,
    EventKind,
    GameRecord,
    GameState,
    HandResult,
    Outcome,
    Phase,
    Player,
    Rules,
    Strategy,
    StrategyError,
    View,
    analyse_hand,
    analyze,
    equity_table,
    knock_showdown,
    play_hand,
    preset_names,
    ratings,
    records_frame,
    simulate,
    simulate_matches,
    summarize,
    summarize_analysis,
    summarize_matches,
    sweep,
    tournament,
    win_matrix,
)

__all__ = [
    "Action",
    "Counts",
    "Event",
    "EventKind",
    "GameRecord",
    "GameState",
    "Phase",
    "HandResult",
    "InputError",
    "Outcome",
    "PRESETS",
    "Player",
    "Rules",
    "STRATEGIES",
    "Strategy",
    "StrategyError",
    "View",
    "__version__",
    "analyse_hand",
    "analyze",
    "compare_runs",
    "equity_table",
    "gin",
    "knock_showdown",
    "play_hand",
    "preset_names",
    "ratings",
    "records_frame",
    "replay_hand",
    "rummy",
    "simulate",
    "simulate_matches",
    "summarize",
    "summarize_analysis",
    "summarize_matches",
    "summarize_run",
    "sweep",
    "tournament",
    "win_matrix",
]
