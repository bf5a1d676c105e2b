"""How far the analysis' values of knocking and of playing on are from the truth, on average.

Positions: every discard decision with a legal knock in hands of ``marjj`` against itself. At each,
knocking with the first card that allows it, and discarding that card without knocking, are valued
two ways: as the analysis does (``--deals`` deals of what the player has not seen, then ``marjj``
play-outs), and from the position itself (the real hidden cards, ``marjj`` play-outs; the stock's
order is random to the player, so these average to the true values over many positions). Printed:
the mean difference (analysis less truth) of each option and of knocking less playing on, with 95%
intervals over the positions, for the opponent hands of the opponent model alone
(``GameState.determinize``) and for the analysis' deals (the model's hands kept near the deadwood a
``marjj`` opponent has by then).

Usage: python benchmarks/analysis_bias.py [--hands 220] [--positions 500] [--deals 16] [--seed 11]
"""
from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np

from gincore._engine import NativeState
from ginsim import Rules, play_hand
from ginsim.gin.game.actions import KNOCK
from ginsim.gin.game.players import native_spec
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.review.analysis import POLICY, _Playouts

POLICY_SPECS = [native_spec(POLICY, Rules())] * 2


def signed(state: GameState, me: int) -> float:
    fields = state.record_fields()
    winner, points = fields["winner"], fields["points"]
    return float(points if winner == me else -points if winner >= 0 else 0)


def value(world: GameState, action: int, me: int, key: int) -> float:
    copy = world.clone()
    copy.apply(action)
    if not copy.done:
        NativeState.play_out(copy, POLICY_SPECS, key)
    return signed(copy, me)


def positions(hands: int, seed: int) -> list[tuple[GameState, int, int]]:
    """(position, player, card) of each discard decision with a legal knock."""
    found = []
    rules = Rules()
    for index in range(hands):
        played = play_hand(rules, (POLICY, POLICY), seed, index)
        state = GameState.deal(rules, seed, index)
        for action in played.actions:
            if state.phase is Phase.DISCARD:
                knocks = [option for option in state.legal_actions() if KNOCK <= option < KNOCK + 52]
                if knocks:
                    found.append((state.clone(), state.player, knocks[0] - KNOCK))
            state.apply(action)
    return found


def biases(found: list[tuple[GameState, int, int]], deals: int,
           world: Callable[[GameState, int, int], GameState]) -> str:
    differences = []
    for number, (state, me, card) in enumerate(found):
        row = []
        for action in (KNOCK + card, card):
            analysed = np.mean([value(world(state, me, 7919 * (number * deals + deal) + 1), action, me, deal)
                                for deal in range(deals)])
            truth = np.mean([value(state, action, me, 99 + deal) for deal in range(4)])
            row.append(analysed - truth)
        differences.append((*row, row[0] - row[1]))
    table = np.array(differences)
    half = 1.96 * table.std(axis=0, ddof=1) / np.sqrt(len(table))
    return ", ".join(f"{name} {mean:+.2f} ± {width:.2f}" for name, mean, width in
                     zip(("knock", "play on", "knock less play on"), table.mean(axis=0), half, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("hands", 220), ("positions", 500), ("deals", 16), ("seed", 11)):
        parser.add_argument(f"--{name}", type=int, default=default)
    options = parser.parse_args()
    found = positions(options.hands, options.seed)[:options.positions]
    playouts = _Playouts(Rules(), POLICY, None)
    print(f"{len(found)} positions with a legal knock in {options.hands} hands of {POLICY} against itself, "
          f"seed {options.seed}; {options.deals} deals each (analysis less truth, points)")
    print("the opponent model alone: " + biases(found, options.deals, lambda state, me, key: NativeState.determinize(
        state, me, key)))
    print("the analysis' deals:      " + biases(found, options.deals, playouts.world))


if __name__ == "__main__":
    main()
