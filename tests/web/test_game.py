"""A person's game one decision at a time: played again from its log it stands where it was, the record
it writes replays to its scores, and a hint depends only on what the person has seen."""
from __future__ import annotations

from typing import Any

import pytest

import gincore
from ginsim import GameState, Rules
from ginsim.web.game import BOT, HUMAN, GameSettings, PlayedGame
from ginsim.web.review import hint_of


def random_moves(game: PlayedGame, rng: Any, most: int) -> None:
    for _ in range(most):
        if game.over:
            return
        if game.hand is not None and game.hand.state.done:
            game.next_hand()
            continue
        legal = game.public()["legal"]
        game.act(legal[int(rng.integers(len(legal)))]["action"])


@pytest.mark.parametrize("settings", [GameSettings(opponent="marjj", target=50),
                                      GameSettings(preset="oklahoma", opponent="simple", hollywood=True),
                                      GameSettings(preset="reshuffle", opponent="gin", first_dealer="you")])
def test_a_game_played_again_from_its_log_stands_where_it_was(settings: GameSettings, rng: Any) -> None:
    game = PlayedGame(settings)
    random_moves(game, rng, int(rng.integers(1, 120)))
    again = PlayedGame(settings, game.seed, game.log())
    assert again.public() == game.public() and again.log() == game.log()
    assert again.record() == game.record()


def test_the_strategy_moves_at_once_and_the_person_only_on_their_turn(rng: Any) -> None:
    game = PlayedGame(GameSettings(opponent="simple", first_dealer="you"))  # the strategy is offered the upcard first
    assert game.hand is not None and game.hand.state.player == HUMAN
    assert game.public()["your_turn"] and all(move["player"] == BOT for move in game.public()["moves"])


def test_a_hint_depends_only_on_what_the_person_has_seen() -> None:
    rules = Rules()
    hands = ["2C 3C 4C 5D 6D 7D 8H 9H TH KS", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"]
    deck = gincore.FULL_DECK & ~gincore.parse_cards(" ".join(hands) + " QH")
    stock = gincore.format_cards(deck).split()
    state = GameState.from_cards(rules, hands, "QH", " ".join(stock), dealer=1, player=0)
    swapped_hands = [hands[0], hands[1].replace("AS", stock[0])]
    swapped_stock = ["AS", *stock[1:]]
    other = GameState.from_cards(rules, swapped_hands, "QH", " ".join(swapped_stock), dealer=1, player=0)
    assert state.view(0) == other.view(0)
    assert hint_of(state, 8) == hint_of(other, 8)
