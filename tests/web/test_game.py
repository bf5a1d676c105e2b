"""A person's game one decision at a time: played again from its log it stands where it was, the record
it writes replays to its scores, and a hint depends only on what the person has seen."""
from __future__ import annotations

from typing import Any

import pytest

import gincore
from ginsim import GameState, Rules
from ginsim.web.game import BOT, HUMAN, GameSettings, PlayedGame, _breakdown
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


def test_a_hands_points_are_the_sum_of_its_breakdown_for_every_outcome(test_seed: int) -> None:
    """Every way a hand ends (undercut, gin and big gin, a spade upcard's doubling included), over many
    seeded hands: the page writes the terms, and they must add up to the points the engine scored."""
    rules = Rules(oklahoma=True, big_gin_bonus=31, gin_bonus=20, undercut_bonus=15)
    seen = set()
    for hand in range(300):
        result = GameState.deal(rules, test_seed % 2**63, hand).play_out(
            ("simple,greedy", "gin,defensive", "greedy,simple")[hand % 3], seed=(test_seed + hand) % 2**63)
        terms = _breakdown(result, rules)
        assert sum(term["value"] for term in terms) == result.points
        doubled = [term for term in terms if term["term"] == "spade_upcard"]
        assert len(doubled) == (result.multiplier > 1 and result.points > 0)
        bonus = {"gin": "gin_bonus", "big_gin": "big_gin_bonus", "undercut": "undercut_bonus"}.get(result.outcome.value)
        assert [term["term"] for term in terms if term["term"].endswith("_bonus")] == ([bonus] if bonus else [])
        seen.add((result.outcome.value, result.multiplier))
    assert {("knock", 2), ("undercut", 1), ("undercut", 2), ("gin", 1), ("gin", 2), ("big_gin", 1)} <= seen


@pytest.mark.parametrize("settings", [GameSettings(opponent="simple", target=50),
                                      GameSettings(preset="oklahoma", opponent="greedy", target=100, hollywood=True)])
def test_the_end_of_a_hand_lays_the_cards_down_and_the_pad_adds_up(settings: GameSettings, rng: Any) -> None:
    game = PlayedGame(settings)
    for _ in range(5000):
        seen = game.public()
        if seen["phase"] == "draw" or seen["phase"] == "discard" or seen["phase"] == "offer":
            game.act(seen["legal"][int(rng.integers(len(seen["legal"])))]["action"])
            continue
        result = seen["result"]
        assert sum(term["value"] for term in result["breakdown"]) == result["points"]
        for seat, laid in enumerate(result["laid_down"]):  # every card of the hand, each once
            shown = [card for meld in laid["melds"] for card in meld["cards"]] + laid["deadwood"]
            if seat == result["knocker"]:
                assert not [card for meld in laid["melds"] for card in meld["laid_off"]] or result["outcome"] in (
                    "knock", "undercut")
            else:
                shown += [card for meld in result["laid_down"][1 - seat]["melds"] for card in meld["laid_off"]]
            assert sorted(shown) == sorted(result["hands"][seat])
            assert sum(gincore.deadwood(gincore.parse_cards(card)) for card in laid["deadwood"]) \
                == laid["deadwood_points"]
        if game.over:
            break
        game.next_hand()
    sheet = game.public()["score"]
    for index, games in enumerate(sheet["games"]):  # each game's column: its last running total is its score
        totals = [row["totals"][index] for row in sheet["rows"] if row["totals"][index] is not None]
        assert (totals[-1] if totals else [0, 0]) == games
    assert [row["points"] for row in sheet["rows"]] == [hand.result.points for hand in game.hands]  # type: ignore[union-attr]
    ended = game.public()["game"]
    assert sum(game_end["seats"][0]["total"] for game_end in sheet["game_totals"]) == ended["total_0"]
    assert sum(game_end["seats"][1]["total"] for game_end in sheet["game_totals"]) == ended["total_1"]
