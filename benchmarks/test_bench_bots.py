"""Decisions per second of each strategy on one core, playing whole hands against simple.

A decision is one answer of the player: the upcard offer, each draw (face-up card or stock) and
each discard (with its knock). The count comes from the traced hands, outside the timing.
"""
from __future__ import annotations

import pytest

from bench_inputs import rate
from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

# Hands per round, sized so each round takes about a second.
HANDS = {"simple": 100_000, "greedy": 100_000, "gin": 50_000, "marjj": 20_000, "sampler": 200,
         "search": 300, "reader": 40}

DECISIONS = ("take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "knock", "gin")


def decisions_of(bot_engine, key: tuple[int, int], hands: int) -> int:
    """The decisions player 0 made in the first ``hands`` hands (both offers count for the player
    asked; a draw from the pile counts once, as the draw)."""
    total = 0
    for index in range(hands):
        events = bot_engine.play_traced(key[0], key[1], index)["events"]
        total += sum(1 for kind, player, _ in events if player == 0 and kind in DECISIONS)
    return total


@pytest.mark.parametrize("bot", list(HANDS))
def test_decisions_per_second(benchmark, scale: float, bot: str) -> None:
    count = max(2, int(HANDS[bot] * scale))
    bot_engine = engine(Rules(), (bot, "simple"))
    key = run_key(3)
    benchmark.group = "decisions per second (one core, against simple)"
    columns = benchmark.pedantic(bot_engine.play_hands, (key[0], key[1], 0, count), rounds=3,
                                 warmup_rounds=1 if HANDS[bot] > 1000 else 0)
    assert len(columns["points"]) == count
    rate(benchmark, decisions_of(bot_engine, key, count))
