"""The knock study: its positions are real knock chances, its values are play-outs made again by hand,
the policy it implies knocks only where it says (and legally), and bad input is one line."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from gincore import deadwood
from gincore.errors import InputError
from ginsim import GameState, Rules, play_hand, simulate
from ginsim.gin.game.actions import DISCARD, KNOCK
from ginsim.gin.runs.groups import turn_bins
from ginsim.gin.runs.knocking import (
    KnockRule,
    compare_rules,
    implied_thresholds,
    knock_positions,
    knock_study,
    value_position,
)
from tests.cli_runner import invoke

RULES = Rules.preset("oklahoma")


@pytest.fixture(scope="module")
def positions() -> list:
    return knock_positions(RULES, "simple,greedy", 40, seed=2)


def test_positions_are_real_knock_chances(positions: list) -> None:
    assert positions and all(0 <= position.deadwood <= position.knock_limit for position in positions)
    for position in positions[:10]:
        state = GameState.deal(RULES, 2, position.hand)
        for action in play_hand(RULES, "simple,greedy", 2, position.hand).actions[:position.step]:
            state.apply(action)
        assert (state.player, state.turns, state.hands) == (position.player, position.turns, position.state.hands)
        assert any(KNOCK <= action < KNOCK + 52 for action in state.legal_actions())


def test_hands_with_a_reshuffle_give_their_positions_up_to_it() -> None:
    rules = Rules.preset("reshuffle")
    reshuffled = 333  # a hand whose replay on GameState went on past its reshuffle into an illegal knock
    assert play_hand(rules, "simple,simple", 2026, reshuffled).reshuffles
    found = knock_positions(rules, "simple,simple", reshuffled + 1, seed=2026)
    assert all(position.state.turns <= play_hand(rules, "simple,simple", 2026, position.hand).turns
               for position in found)


def test_values_are_the_play_outs_made_again(positions: list) -> None:
    from ginsim.gin.runs.knocking import _stream

    for position in positions[:4]:
        knock, play_on = value_position(position, "marjj", "simple", deals=3, seed=9)
        hand = position.state.hands[position.player]
        card = min((c for c in range(52) if hand >> c & 1 and position.state.is_legal(DISCARD + c)),
                   key=lambda c: (deadwood(hand & ~(1 << c)), -c))
        knocked, played = [], []
        for deal in range(3):
            guess = position.state.determinize(position.player, seed=_stream(9, position.hand, position.step, deal))
            assert guess.hands[position.player] == hand  # the mover's own cards are never dealt again
            now = guess.clone()
            now.apply(KNOCK + card)
            seats = ("marjj", "simple") if position.player == 0 else ("simple", "marjj")
            guess.apply(DISCARD + card)
            on = guess if guess.done else None
            result = on.result if on is not None else guess.play_out(
                seats, seed=_stream(9, position.hand, position.step, deal, "play on"))
            for branch, finished in ((knocked, now.result), (played, result)):
                assert finished is not None
                sign = 0 if finished.winner < 0 else 1 if finished.winner == position.player else -1
                branch.append(sign * finished.points)
        assert (knock, play_on) == (pytest.approx(np.mean(knocked)), pytest.approx(np.mean(played)))


def test_the_study_table_adds_up(positions: list) -> None:
    study = knock_study(RULES, deals=2, seed=1, positions=positions[:30])
    assert study["positions"].sum() == 30
    assert study["gain"].tolist() == pytest.approx((study["knock"] - study["play_on"]).tolist())
    assert set(study["knock_limit"]) <= set(range(11)) and (study["deadwood"] <= study["knock_limit"]).all()


def test_the_implied_policy_knocks_only_where_it_says() -> None:
    thresholds = {("0-4", 10): 10, ("5-9", 10): 4, ("10-14", 10): 0}
    player = KnockRule("thresholds", thresholds)
    records = simulate(Rules(), [player, "simple"], 300, seed=3, workers=1)
    knocks = records[(records["knocker"] == 0) & records["outcome"].isin(["knock", "undercut"])]
    assert len(knocks) and (knocks["knocker_deadwood"] <= knocks["knock_limit"]).all()
    for turn, left, limit in zip(turn_bins(knocks["turns"]), knocks["knocker_deadwood"], knocks["knock_limit"],
                                 strict=True):
        assert left <= thresholds.get((str(turn), limit), limit)


def test_implied_thresholds_and_the_comparison_of_rules() -> None:
    study = pd.DataFrame({"turn": ["0-4", "0-4", "5-9", "5-9"], "knock_limit": [10] * 4, "deadwood": [3, 8, 3, 8],
                          "positions": [5, 5, 5, 5], "gain": [2.0, 1.0, 1.0, -3.0]})
    assert implied_thresholds(study) == {("0-4", 10): 8, ("5-9", 10): 3}
    table = compare_rules(Rules(), implied_thresholds(study), "simple", 60, seed=1)
    assert table["rule"].tolist() == ["thresholds", "at-once", "marjj"] and (table["hands"] == 120).all()
    assert table.loc[1, "gain"] == 0 and (table["points_low"] <= table["points"]).all()


@pytest.mark.parametrize("arguments, message", [
    (["--deals", "0"], "0 is not in the range 1<=x<=10000"),
    (["--continuation", "nobody"], "unknown strategy 'nobody'"),
    (["--deals", "1", "--opponent", "ginsim.gin.game.strategies:Strategy"], "the opponent plays the positions out "
     "natively: give a built-in strategy, not python"),
])
def test_the_command_line(arguments: list[str], message: str | None) -> None:
    code, out, err = invoke("when-to-knock", "--hands", "5", "--play", "0", *arguments)
    assert code == 2 and len(err.strip().splitlines()) == 1, (out, err)
    assert message is None or message in err


def test_the_command_line_plays_the_policy() -> None:
    code, out, err = invoke("when-to-knock", "--rules", "oklahoma", "--hands", "10", "--deals", "2", "--play", "20",
                            "--json")
    assert code == 0, err
    import json

    shown = json.loads(out)
    assert [row["rule"] for row in shown["policies"]] == ["thresholds", "at-once", "marjj"] and shown["thresholds"]
    with pytest.raises(InputError, match="unknown knock rule"):
        KnockRule("never")
