"""The open game state, one core: moves per second from Cython (``apply_many``) and from Python
(``apply``), and positions played out to the end per second (``clone`` + ``play_out``)."""
from __future__ import annotations

import pytest

from bench_inputs import rate
from gincore._engine import NativePlayers
from ginsim import GameState, Rules, play_hand
from ginsim.gin.game.players import native_spec

HANDS = 400       # recorded hands replayed, each from its deal
PLAY_OUTS = 20_000


def _recorded(count: int) -> list[tuple[GameState, list[int]]]:
    """Deals of simple-vs-simple hands with the moves they took."""
    rules = Rules()
    return [(GameState.deal(rules, seed=1, index=index), list(play_hand(rules, "simple,simple", 1, index).actions))
            for index in range(count)]


def test_apply_native(benchmark, scale: float) -> None:
    hands = _recorded(max(2, int(HANDS * scale)))
    moves = sum(len(actions) for _, actions in hands)

    def replay() -> None:
        for deal, actions in hands:
            deal.clone().apply_many(actions)

    benchmark.group = "game state (one core)"
    benchmark.pedantic(replay, rounds=5, warmup_rounds=1)
    rate(benchmark, moves)


def test_apply_python(benchmark, scale: float) -> None:
    hands = _recorded(max(2, int(HANDS * scale)))
    moves = sum(len(actions) for _, actions in hands)

    def replay() -> None:
        for deal, actions in hands:
            state = deal.clone()
            apply = state.apply
            for action in actions:
                apply(action)

    benchmark.group = "game state (one core)"
    benchmark.pedantic(replay, rounds=5, warmup_rounds=1)
    rate(benchmark, moves)


def test_clone_play_out(benchmark, scale: float) -> None:
    count = max(10, int(PLAY_OUTS * scale))
    start = GameState.deal(Rules(), seed=2, index=0)
    players = NativePlayers([native_spec("simple", Rules())] * 2)

    def play_outs() -> None:
        value = start.play_out_value
        for key in range(count):
            value(players, key, 0)

    benchmark.group = "game state (one core)"
    benchmark.pedantic(play_outs, rounds=5, warmup_rounds=1)
    rate(benchmark, count)


@pytest.mark.parametrize("players", ["simple,simple"])
def test_clone_play_out_python(benchmark, scale: float, players: str) -> None:
    count = max(10, int(PLAY_OUTS // 10 * scale))
    start = GameState.deal(Rules(), seed=2, index=0)

    def play_outs() -> None:
        for seed in range(count):
            start.clone().play_out(players, seed)

    benchmark.group = "game state (one core)"
    benchmark.pedantic(play_outs, rounds=3, warmup_rounds=1)
    rate(benchmark, count)
