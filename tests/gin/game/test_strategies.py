"""Strategies: names and parameters, the Python protocol, what a view hides, and each native
strategy's documented behaviour over many hands."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import gincore
from ginsim import (
    Rules,
    Strategy,
    StrategyError,
    View,
    play_hand,
    simulate,
    simulate_matches,
    summarize_matches,
    tournament,
)
from ginsim.gin.game.players import resolve_players
from ginsim.gin.game.strategies import describe


@pytest.mark.parametrize("text, expected", [
    ("simple,greedy", ("simple", "greedy")),
    ("THRESHOLD:4,gin", ("threshold:4", "gin")),
    ("sampler,sampler:8", ("sampler:64:3:0", "sampler:8:3:0")),
    ("sampler:16:2:5,defensive", ("sampler:16:2:5", "defensive")),
])
def test_names_and_parameters(text: str, expected: tuple[str, str]) -> None:
    assert tuple(player.name for player in resolve_players(text)) == expected
    assert all(describe(name) for name in expected)


@pytest.mark.parametrize("text, message", [
    ("threshold:11,simple", "knock_at must be an integer from 0 to 10, got 11"),
    ("threshold,simple", "threshold:K"),
    ("sampler:0,simple", "sampler"),
    ("sampler:8:12,simple", "discards must be an integer from 1 to 11, got 12"),
    ("gin:3,simple", "gin takes no parameters"),
    ("defensiv,simple", "did you mean 'defensive'"),
])
def test_bad_names(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_players(text)


def test_threshold_and_gin_keep_to_their_limits(test_seed: int) -> None:
    for name, most in (("threshold:3", 3), ("gin", 0)):
        records = simulate(Rules(), f"{name},simple", 20_000, test_seed, workers=2)
        mine = records[(records["knocker"] == 0)]
        assert len(mine) > 0 and (mine["knocker_deadwood"] <= most).all()
        if most == 0:
            assert set(mine["outcome"]) <= {"gin"}


def test_oklahoma_limit_binds_every_strategy(test_seed: int) -> None:
    for name in ("greedy", "threshold:9", "defensive", "sampler:4:2"):
        hands = 300 if name.startswith("sampler") else 20_000
        records = simulate(Rules.preset("oklahoma"), f"{name},simple", hands, test_seed, workers=1)
        knocks = records[records["outcome"].isin(["knock", "undercut"])]
        assert (knocks["knocker_deadwood"] <= knocks["knock_limit"]).all()
        assert not records.loc[records["upcard_rank"] == "A", "outcome"].isin(["knock", "undercut"]).any()


def test_sampler_is_reproducible(test_seed: int) -> None:
    first = simulate(Rules(), "sampler:8:2,simple", 40, test_seed, workers=1)
    again = simulate(Rules(), "sampler:8:2,simple", 40, test_seed, workers=2, chunk_size=7)
    assert first.equals(again)


def test_gin_hunting_beats_simple(test_seed: int) -> None:
    # Measured at 68% over 4,000 matches; 400 matches keep the test quick and far from the edge.
    summary = summarize_matches(simulate_matches(Rules(), "gin,simple", 400, test_seed, workers=2))
    assert summary["win_rate_0_low"].iloc[0] > 0.5


class MeldKeeper(Strategy):
    """Discards its highest deadwood card; records every view it is shown."""

    name = "meld-keeper"

    def __init__(self) -> None:
        self.views: list[tuple[str, View]] = []

    def take_discard(self, view: View) -> bool:
        self.views.append(("take_discard", view))
        return super().take_discard(view)

    def discard(self, view: View) -> int:
        self.views.append(("discard", view))
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))

    def knock(self, view: View) -> bool:
        self.views.append(("knock", view))
        assert view.deadwood <= view.knock_limit
        return True


def test_python_strategy_plays_full_matches(test_seed: int) -> None:
    table = simulate_matches(Rules(), [MeldKeeper(), "simple"], 6, test_seed, workers=1)
    assert len(table) == 6 and (table[["total_0", "total_1"]].max(axis=1) >= 100).all()
    records = simulate(Rules.preset("oklahoma"), ["greedy", MeldKeeper()], 200, test_seed)
    assert len(records) == 200


def test_python_strategy_matches_its_native_twin(test_seed: int) -> None:
    """A Python strategy that copies ``simple``'s take rule and knocks at once plays legal hands
    that the engine scores by the rules."""
    for index in range(30):
        hand = play_hand(Rules(), [MeldKeeper(), "greedy"], test_seed, index)
        if hand.outcome in ("knock", "undercut") and hand.knocker == 0:
            assert hand.knocker_deadwood <= 10
        assert hand.players == ("meld-keeper", "greedy")


def test_a_view_shows_only_cards_its_player_has_seen(test_seed: int) -> None:
    """Every card in every view was in the player's hand or face up at some time: the opponent's
    hidden cards and the stock never appear. (A hand can end before player 0 decides anything: the
    non-dealer may take the upcard and knock at once.)"""
    hands_with_views = 0
    for index in range(20):
        keeper = MeldKeeper()
        hand = play_hand(Rules(), [keeper, "simple"], test_seed, index)
        seen = hand.dealt[0] | 1 << hand.upcard
        for event in hand.events:
            if event.kind in ("draw_stock", "take_upcard", "draw_discard") and event.player == 0:
                seen |= 1 << event.card
            if event.kind == "discard":
                seen |= 1 << event.card
        hands_with_views += bool(keeper.views)
        for _, view in keeper.views:
            shown = (view.hand | view.opponent_passed | view.opponent_took
                     | sum(1 << card for card in view.discard_pile))
            assert shown & ~seen == 0, gincore.format_cards(shown & ~seen)
            assert view.player == 0 and len(view.discarded_by) == len(view.discard_pile)
    assert hands_with_views >= 15
    assert {field.name for field in dataclasses.fields(View)} == {
        "player", "hand", "discard_pile", "discarded_by", "opponent_took", "opponent_passed",
        "stock_size", "knock_limit", "multiplier", "dealer", "upcard", "turns", "drawn_card",
        "drawn_from_pile", "hand_index", "scores"}


class Cheater(Strategy):
    name = "cheater"

    def discard(self, view: View) -> int:
        not_mine = gincore.FULL_DECK & ~view.hand
        return (not_mine & -not_mine).bit_length() - 1


class TakeBack(Strategy):
    name = "take-back"

    def take_discard(self, view: View) -> bool:
        return True

    def discard(self, view: View) -> int:
        return view.drawn_card


class Wordy(Strategy):
    name = "wordy"

    def discard(self, view: View) -> int:
        return "the queen"  # type: ignore[return-value]


class Broken(Strategy):
    name = "broken"

    def discard(self, view: View) -> int:
        raise KeyError("lost my cards")


@pytest.mark.parametrize("strategy, message", [
    (Cheater(), r"hand \d+: strategy 'cheater' \(player 0\) chose an illegal discard .*: the player does not hold it"),
    (TakeBack(),
     r"strategy 'take-back' \(player 0\) chose an illegal discard .*: it was just taken from the discard pile"),
    (Wordy(), r"hand \d+: strategy 'wordy' failed: InputError: unknown card 'the'"),
    (Broken(), r"hand \d+: strategy 'broken' failed: KeyError"),
])
def test_illegal_choices_name_strategy_hand_and_choice(strategy: Strategy, message: str) -> None:
    with pytest.raises(StrategyError, match=message):
        simulate(Rules(), [strategy, "simple"], 50, 3, workers=1)


def test_knock_answer_must_be_boolean() -> None:
    class Maybe(MeldKeeper):
        name = "maybe"

        def knock(self, view: View) -> bool:
            return "yes"  # type: ignore[return-value]

    with pytest.raises(StrategyError, match="knock must return True or False"):
        simulate(Rules(), [Maybe(), "simple"], 200, 3, workers=1)


def test_tournament_table_and_errors(test_seed: int) -> None:
    table = tournament(Rules(), ["simple", "greedy", "random"], 20, test_seed, workers=1)
    assert list(zip(table["player"], table["opponent"], strict=True)) == [
        ("simple", "greedy"), ("simple", "random"), ("greedy", "random")]
    assert (table["matches"] == 20).all()
    assert (table["win_rate_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["win_rate_high"]).all()
    assert table.loc[table["opponent"] == "random", "win_rate"].min() > 0.8
    with pytest.raises(ValueError, match="at least two players"):
        tournament(Rules(), ["simple"], 10, 1)
    with pytest.raises(ValueError, match="each player may enter once"):
        tournament(Rules(), ["simple", "simple"], 10, 1)


def test_strategies_speed_does_not_leak_into_results(test_seed: int) -> None:
    """Every native strategy plays legal, complete hands under every preset."""
    for preset in ("standard", "straight", "last-card", "reshuffle"):
        for name in ("threshold:5", "gin", "defensive"):
            records = simulate(Rules.preset(preset), f"{name},greedy", 3_000, test_seed, workers=1)
            assert records["outcome"].notna().all()
            assert (records["turns"] < 5000).all()
            knocks = records[records["outcome"].isin(["knock", "undercut"])]
            assert (knocks["knocker_deadwood"] <= knocks["knock_limit"]).all()
            assert np.all(records.loc[records["outcome"] == "draw", "points"] == 0)
