"""ginsim: seeded Gin Rummy simulations on the native gincore engine.

>>> from ginsim import Rules, play_hand
>>> play_hand(Rules.preset("oklahoma"), "simple,greedy", seed=3, index=0).knock_limit in range(11)
True
"""
from __future__ import annotations

from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.hand import Event, HandResult, play_hand
from ginsim.rules import PRESETS, Rules, preset_names
from ginsim.simulate import records_frame, simulate, simulate_matches
from ginsim.strategies import STRATEGIES, Strategy, StrategyError, View
from ginsim.summary import Counts, summarize, summarize_matches
from ginsim.tournament import tournament, win_matrix

__all__ = [
    "Counts",
    "Event",
    "HandResult",
    "InputError",
    "PRESETS",
    "Rules",
    "STRATEGIES",
    "Strategy",
    "StrategyError",
    "View",
    "__version__",
    "play_hand",
    "preset_names",
    "records_frame",
    "simulate",
    "simulate_matches",
    "summarize",
    "summarize_matches",
    "tournament",
    "win_matrix",
]
