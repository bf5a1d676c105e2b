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
from ginsim.gin.studies.equity import equity_at, shipped_equity
from ginsim.gin.studies.groups import turn_bins
from ginsim.gin.studies.knocking import (
    KnockRule,
    compare_rules,
    implied_thresholds,
    knock_positions,
    knock_study,
    knock_values,
    play_outs,
    study_table,
    threshold_table,
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
    from ginsim.core.streams import derived_seed

    for position in positions[:4]:
        knock, play_on = value_position(position, "marjj", "simple", deals=3, seed=9)
        hand = position.state.hands[position.player]
        card = min((c for c in range(52) if hand >> c & 1 and position.state.is_legal(DISCARD + c)),
                   key=lambda c: (deadwood(hand & ~(1 << c)), -c))
        knocked, played = [], []
        for deal in range(3):
            labels = (position.hand, position.step, deal)
            guess = position.state.determinize(position.player, seed=derived_seed(9, "knock_deals", *labels))
            assert guess.hands[position.player] == hand  # the mover's own cards are never dealt again
            now = guess.clone()
            now.apply(KNOCK + card)
            seats = ("marjj", "simple") if position.player == 0 else ("simple", "marjj")
            guess.apply(DISCARD + card)
            on = guess if guess.done else None
            result = on.result if on is not None else guess.play_out(
                seats, seed=derived_seed(9, "knock_deals", *labels, "play on"))
            for branch, finished in ((knocked, now.result), (played, result)):
                assert finished is not None
                sign = 0 if finished.winner < 0 else 1 if finished.winner == position.player else -1
                branch.append(sign * finished.points)
        assert (knock, play_on) == (pytest.approx(np.mean(knocked)), pytest.approx(np.mean(played)))


def _equity_after(table: pd.DataFrame, position, winner: int, points: int) -> float:
    """The mover's chance to win after the hand, written out again: the mover at 40, the opponent at 70."""
    mover, other = position.player, 1 - position.player
    score = {mover: 40, other: 70}
    if winner >= 0:
        score[winner] += points
    if score[mover] >= 100 or score[other] >= 100:
        return float(score[mover] >= 100)
    dealer = position.state.dealer if winner < 0 else 1 - winner  # the loser deals the next hand
    return equity_at(table, score[mover], score[other], dealer=dealer == mover)


def test_equity_values_are_the_play_outs_read_by_the_table(positions: list) -> None:
    table = shipped_equity(RULES)
    assert table is not None and RULES.next_dealer == "loser" and RULES.target == 100
    for position in positions[:4]:
        row = knock_values(RULES, positions=[position], deals=3, seed=9, scores=(40, 70)).iloc[0]
        results = play_outs(position, "marjj", "simple", deals=3, seed=9)
        for branch, name in enumerate(("knock_equity", "play_on_equity")):
            expected = [_equity_after(table, position, *results[deal, branch]) for deal in range(3)]
            assert row[name] == pytest.approx(np.mean(expected))
        assert row["equity_gain"] == pytest.approx(row["knock_equity"] - row["play_on_equity"])


def test_at_99_all_a_knock_is_worth_is_the_hand(positions: list) -> None:
    # Whoever wins the hand wins the game, and a knock ends the hand with a winner: its equity is the
    # share of deals on which the knock wins, whatever the table says of other scores.
    values = knock_values(RULES, positions=positions[:6], deals=4, seed=3, scores=(99, 99))
    for position, row in zip(positions[:6], values.itertuples(), strict=True):
        won = play_outs(position, "marjj", "simple", deals=4, seed=3)[:, 0, 0] == position.player
        assert row.knock_equity == pytest.approx(won.mean())
        assert 0 <= row.play_on_equity <= 1


def test_the_equity_table_and_scores_are_checked(positions: list) -> None:
    with pytest.raises(InputError, match="match equity needs a game to a target"):
        knock_values(Rules(target=None), positions=positions[:1], deals=1, scores=(0, 0))
    with pytest.raises(InputError, match="the mover's score must be an integer from 0 to 99, got 100"):
        knock_values(RULES, positions=positions[:1], deals=1, scores=(100, 0))
    small = shipped_equity(RULES)
    assert small is not None
    small = small[(small["score"] < 50) & (small["opponent_score"] < 50)]
    with pytest.raises(InputError, match="the match equity table is of games to 50, the rules play to 100"):
        knock_values(RULES, positions=positions[:1], deals=1, equity=small)
    plain = knock_values(Rules(target=None), "simple,simple", 5, seed=1, deals=1)
    assert plain["equity_gain"].isna().all() and plain.attrs["equity"] is None


def test_thresholds_come_with_their_bootstrap(positions: list) -> None:
    values = knock_values(RULES, positions=positions, deals=2, seed=1)
    table = threshold_table(values, replicates=300, seed=4)
    implied = implied_thresholds(study_table(values))
    assert {(row.turn, row.knock_limit): row.threshold for row in table.itertuples()} == implied
    assert ((table["threshold_low"] <= table["threshold"]) & (table["threshold"] <= table["threshold_high"])).all()
    assert ((0 < table["agreement"]) & (table["agreement"] <= 1)).all()
    assert table.equals(threshold_table(values, replicates=300, seed=4))
    # Evidence split evenly between knocking with 4 and holding out: the bootstrap is unsure.
    split = pd.DataFrame({"hand": range(40), "turn": ["0-4"] * 40, "knock_limit": [10] * 40,
                          "deadwood": [4] * 40, "gain": [1.0, -1.0] * 20})
    shaky = threshold_table(split, replicates=400).iloc[0]
    assert (shaky["threshold_low"], shaky["threshold_high"]) == (0, 4) and 0.2 < shaky["agreement"] < 0.8
    with pytest.raises(InputError, match="a policy is implied by gain or equity_gain"):
        threshold_table(split, "points")


def test_the_study_table_adds_up(positions: list) -> None:
    study = knock_study(RULES, deals=2, seed=1, positions=positions[:30])
    assert study["positions"].sum() == 30
    assert study["gain"].tolist() == pytest.approx((study["knock"] - study["play_on"]).tolist())
    assert set(study["knock_limit"]) <= set(range(11)) and (study["deadwood"] <= study["knock_limit"]).all()


def test_a_hands_positions_are_one_cluster_in_the_intervals(positions: list, test_seed: int) -> None:
    """The positions of one hand share its cards: a cell's interval is over the hands. A study whose every
    hand's position is written three times has the same intervals as the study of one each (an interval
    over the positions taken one by one would be about sqrt(3) times narrower)."""
    values = knock_values(RULES, deals=2, seed=test_seed, positions=positions).drop_duplicates("hand")
    tripled = pd.concat([values] * 3).sort_values("hand", kind="stable").reset_index(drop=True)
    tripled.attrs = dict(values.attrs)
    once, thrice = study_table(values), study_table(tripled)
    assert (thrice["positions"] == 3 * once["positions"]).all()
    columns = ["gain", "gain_low", "gain_high", "equity_gain", "equity_gain_low", "equity_gain_high"]
    np.testing.assert_allclose(thrice[columns].to_numpy(float), once[columns].to_numpy(float), equal_nan=True)
    assert once["gain_low"].notna().any()


def test_no_negative_zero_in_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A gain of -0.001 printed as -0.00: every value that rounds to zero is printed unsigned."""
    from ginsim.gin.studies import knocking

    real = knocking.knock_values

    def nearly_even(*args: object, **kwargs: object) -> pd.DataFrame:
        values = real(*args, **kwargs)  # type: ignore[arg-type]
        values["knock"] = values["play_on"] - 0.001
        values["knock_equity"] = values["play_on_equity"] - 0.00001
        values["gain"], values["equity_gain"] = -0.001, -0.00001
        return values

    monkeypatch.setattr(knocking, "knock_values", nearly_even)
    code, out, err = invoke("when-to-knock", "--hands", "20", "--deals", "1", "--play", "4")
    assert code == 0, err
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0][:1].isdigit()]
    assert any(row[4] == "0.00" for row in rows if len(row) == 8)  # the gain column
    assert "-0.00" not in out and "-0.0 " not in out and "-0.0%" not in out


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
    (["--scores", "100-0"], "the mover's score must be an integer from 0 to 99, got 100"),
    (["--scores", "ninety"], "'ninety' is not two scores"),
    (["--target", "none", "--scores", "0-0"], "match equity needs a game to a target"),
])
def test_the_command_line(arguments: list[str], message: str | None) -> None:
    code, out, err = invoke("when-to-knock", "--hands", "5", "--play", "0", *arguments)
    assert code == 2 and len(err.strip().splitlines()) == 1, (out, err)
    assert message is None or message in err


def test_the_command_line_takes_an_equity_table(tmp_path) -> None:
    path = tmp_path / "equity.csv"
    code, _, err = invoke("equity", "--target", "20", "--hands", "3000", "--replicates", "2", "--workers", "1",
                          "--csv", str(path))
    assert code == 0, err
    code, _, err = invoke("when-to-knock", "--hands", "5", "--deals", "1", "--play", "0", "--equity-table", str(path))
    assert code == 2 and "the match equity table is of games to 20, the rules play to 100" in err
    code, out, err = invoke("when-to-knock", "--target", "20", "--hands", "5", "--deals", "1", "--play", "0",
                            "--equity-table", str(path), "--scores", "10-5", "--json")
    assert code == 0, err
    import json

    shown = json.loads(out)
    assert shown["source"]["equity"]["scores"] == [10, 5]
    assert all(0 <= row["knock_equity"] <= 1 for row in shown["rows"])
    assert {"threshold", "equity_threshold", "equity_agreement"} <= set(shown["thresholds"][0])
    for name, text, message in [
        ("broken.csv", "score,equity\n0,0.5\n", "not an equity table: it has no opponent_score column"),
        ("words.csv", "score,opponent_score,dealer,equity,low,high\na,0,False,0.5,0.4,0.6\n",
         "its score column holds 'a', not a score"),
        ("twice.csv", "score,opponent_score,dealer,equity,low,high\n0,0,False,0.5,0.4,0.6\n0,0,False,0.5,0.4,0.6\n",
         "it has a score pair and dealer twice"),
        ("odds.csv", "score,opponent_score,dealer,equity,low,high\n0,0,False,1.5,0.4,0.6\n0,0,True,0.5,0.4,0.6\n",
         "its equity column holds 1.5, not a chance from 0 to 1"),
        ("cut.npz", "PK\x03\x04 cut short", "it is not a table saved by save_table (BadZipFile)"),
        ("empty.csv", "", "it is not CSV"),
        ("header.csv", "score,opponent_score,dealer,equity,low,high\n", "not an equity table: it has no rows"),
    ]:
        (tmp_path / name).write_text(text)
        code, _, err = invoke("when-to-knock", "--hands", "5", "--play", "0", "--equity-table", str(tmp_path / name))
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (name, err)
    with pytest.raises(InputError, match="no positions to find thresholds in"):
        threshold_table(pd.DataFrame(columns=["hand", "turn", "knock_limit", "deadwood", "gain"]))


def test_the_command_line_plays_the_policy() -> None:
    code, out, err = invoke("when-to-knock", "--rules", "oklahoma", "--hands", "10", "--deals", "2", "--play", "20",
                            "--json")
    assert code == 0, err
    import json

    shown = json.loads(out)
    rules = ["thresholds", "equity-thresholds", "at-once", "marjj"]  # oklahoma has a target: a policy in equity too
    assert [row["rule"] for row in shown["policies"]] == rules and shown["thresholds"]
    with pytest.raises(InputError, match="unknown knock rule"):
        KnockRule("never")


def test_the_command_line_plays_the_equity_policy_it_prints(test_seed: int) -> None:
    """when-to-knock --play printed the policy implied in equity but played only the points policy: it plays
    both, the equity policy as the rule equity-thresholds, and its row is that policy played."""
    import json

    arguments = ["--hands", "30", "--deals", "2", "--play", "12", "--scores", "90-60", "--seed", str(test_seed)]
    code, out, err = invoke("when-to-knock", *arguments, "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert [row["rule"] for row in shown["policies"]] == ["thresholds", "equity-thresholds", "at-once", "marjj"]
    by_equity = {(row["turn"], row["knock_limit"]): row["equity_threshold"] for row in shown["thresholds"]}
    alone = compare_rules(Rules(), by_equity, "simple", 12, test_seed).iloc[0]
    equity_row = shown["policies"][1]
    assert (equity_row["points"], equity_row["gain"]) == pytest.approx((alone["points"], alone["gain"]))
    code, out, err = invoke("when-to-knock", *arguments)
    assert code == 0 and "the equity policy (equity-thresholds)" in out.replace("\n", " ")
    assert any(line.split()[:1] == ["equity-thresholds"] for line in out.splitlines())
