"""How long a strategy takes to decide: hands played one by one and timed, their decisions counted.

Each hand is played alone (``Engine.play_record``) and timed; player 0's decisions in it (the upcard
offer, each draw and each discard) are counted from the same hand's trace, outside the timing. The time
is the thread's CPU time by default (``clock="cpu"``: what the hand costs, whatever else the machine
runs), or the wall clock (``"wall"``). The opponent's decisions are inside the timing, so a cheap
opponent (``simple``) is the one to time against.

>>> from ginsim import Rules
>>> seconds, decisions = hand_times(Rules(), "greedy", "simple", hands=5, seed=1)
>>> len(seconds), bool((decisions > 0).all())
(5, True)
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import PlayerSpec, engine
from ginsim.gin.game.rules import Rules

__all__ = ["CLOCKS", "DECISIONS", "hand_times", "median_ms"]

DECISIONS: Final = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin")
"""The trace events that are a decision of the player who made them."""
CLOCKS: Final[dict[str, Callable[[], float]]] = {"cpu": time.thread_time, "wall": time.perf_counter}


def hand_times(rules: Rules, strategy: PlayerSpec, opponent: PlayerSpec, hands: int, seed: int,
               clock: str = "cpu") -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per hand of ``strategy`` (player 0) against ``opponent``: the seconds it took, and the decisions
    ``strategy`` made in it."""
    if clock not in CLOCKS:
        raise InputError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
    now = CLOCKS[clock]
    hand_engine = engine(rules, (strategy, opponent))
    key = run_key(seed)
    seconds = np.zeros(hands)
    decisions = np.zeros(hands)
    for index in range(hands):
        start = now()
        hand_engine.play_record(key[0], key[1], index)
        seconds[index] = now() - start
        events = hand_engine.play_traced(key[0], key[1], index)["events"]
        decisions[index] = sum(1 for kind, player, _ in events if player == 0 and kind in DECISIONS)
    return seconds, decisions


def median_ms(seconds: npt.NDArray[np.float64], decisions: npt.NDArray[np.float64]) -> float:
    """Milliseconds per decision: the median over the hands of each hand's mean (a hand's mean is
    steadier than a single decision, and the median shrugs off the hand the machine was busy)."""
    return float(np.median(1000 * seconds / np.maximum(decisions, 1)))
