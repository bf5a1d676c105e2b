"""The analysis of recorded games: planted blunders are marked ``??``, random play errs far more than
strong play, the analysis of a decision sees only the player's information, and its tables add up."""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import gincore
from ginsim import InputError, Rules, play_hand
from ginsim.gin.game.actions import Action, MoveKind
from ginsim.gin.game.state import GameState
from ginsim.gin.review.analysis import analyze, evaluate_options, mark_of, summarize_analysis
from ginsim.gin.review.notation import choice_action
from ginsim.gin.review.replay import GameRecord, HandRecord

DEALS = 32


def position(rules: str, **fields: object) -> GameRecord:
    return GameRecord.from_json({"format": "ginsim-record", "version": 1, "rules": rules, "position": fields})


def only_row(record: GameRecord, seed: int) -> dict:
    table = analyze(record, deals=48, seed=seed)
    assert len(table) == 1
    return table.iloc[0].to_dict()


def test_breaking_a_made_meld_one_card_from_gin_is_a_blunder(seed_for) -> None:
    # Gin only: three melds and the 5D; the QS just drawn from the stock is useless.
    record = position("straight", player=0, dealer=1, hand="2C 3C 4C 7H 8H 9H KS KD KH 5D QS", drawn="QS",
                      pile="JC 8S 2D 6C", turns=4, choice="3C")
    row = only_row(record, seed_for("meld"))
    assert row["best"] in ("QS", "5D") and row["mark"] == "??"


def test_knocking_into_an_obvious_undercut_is_a_blunder(seed_for) -> None:
    # The opponent holds nine melded cards taken from the pile: its tenth card is worth 10 at most,
    # so knocking with 10 is undercut whatever it is.
    record = position("standard", player=0, dealer=1, hand="AC 2C 3C 5H 6H 7H 2D 3D 4D TS KC", drawn="KC",
                      pile="8C 7D 2S", opponent={"took": "4S 5S 6S 9C 9D 9H JD QD KD"}, turns=20,
                      choice="knock KC")
    row = only_row(record, seed_for("undercut"))
    assert not row["best"].startswith("knock") and row["mark"] == "??"


@pytest.mark.parametrize(("pile_size", "marks"), [(29, {"??"}), (5, {"?", "??"})])
def test_refusing_a_gin_is_a_blunder(pile_size: int, marks: set[str], seed_for) -> None:
    """With the stock's last card the hand is drawn instead (a blunder); mid-hand the gin most often
    comes a turn later, and the loss is the risk of that turn (a mistake at least)."""
    hand = gincore.parse_cards("2C 3C 4C 5C 7H 8H 9H KS KD KH QS")
    rest = [card for card in range(52) if not hand >> card & 1]
    record = position("standard", player=0, dealer=1, hand=gincore.format_cards(hand), drawn="QS",
                      pile=" ".join(gincore.card_text(card) for card in rest[:pile_size]), choice="QS")
    row = only_row(record, seed_for(f"gin {pile_size}"))
    assert row["best"] == "gin QS" and row["mark"] in marks


def hands_of(strategy: str, count: int, seed: int) -> GameRecord:
    rules = Rules()
    records = [GameRecord.of_hand(play_hand(rules, (strategy, "marjj"), seed, index)) for index in range(count)]
    return GameRecord(rules, records[0].players, tuple(record.hands[0] for record in records))


@pytest.mark.slow
def test_random_play_errs_far_more_than_strong_play(seed_for) -> None:
    # marjj's losses are rare and large, so its mean needs more hands than random's. Resampling 396
    # analysed hands of each (10 seeds) put fewer than 1 seed in 10,000 under the margin with these
    # counts, against 1 in 300 with 12 hands each.
    seed = seed_for("error rates") % 2**32
    rates = {strategy: analyze(hands_of(strategy, count, seed), player=0, deals=DEALS, seed=seed)["loss"].mean()
             for strategy, count in (("random", 12), ("marjj", 32))}
    assert rates["random"] > 1.5 * rates["marjj"], rates


def test_the_analysis_of_a_decision_sees_only_the_players_information(seed_for) -> None:
    """Two deals that differ only in cards player 0 has not seen by its decision ``step`` (one of the
    opponent's cards, still held, swapped with a card deep in the stock) give the same analysis of
    player 0's decisions up to it."""
    rules = Rules()
    seed = seed_for("boundary") % 2**32
    played = play_hand(rules, "marjj,greedy", seed, 0)
    hand = HandRecord.of_result(played)
    # player 0's last decision among the first 13: an opponent's knock (legal or not with the swapped
    # card) can only come after it, as a knock ends the hand
    step = max(index for index, (before, _) in enumerate(list(hand.replay(rules))[:13]) if before.player == 0)
    state = hand.start(rules)
    for decision in hand.decisions[:step + 1]:
        state.apply(decision.action)
    draws = 31 - len(state.stock)
    kept = hand.dealt[1] & state.hands[1]  # dealt to the opponent and still held after the step
    card = gincore.cards_of(kept)[0]
    deep = len(hand.stock) - 1
    assert deep >= draws + 2
    stock = list(hand.stock)
    swapped_card, stock[deep] = stock[deep], card
    dealt = (hand.dealt[0], hand.dealt[1] & ~(1 << card) | 1 << swapped_card)
    cut = dataclasses.replace(hand, decisions=hand.decisions[:step + 1], result=None)
    other = dataclasses.replace(cut, dealt=dealt, stock=tuple(stock))
    assert other.start(rules).view(0) == cut.start(rules).view(0)
    first = analyze(GameRecord(rules, hands=(cut,)), player=0, deals=12, seed=seed)
    second = analyze(GameRecord(rules, hands=(other,)), player=0, deals=12, seed=seed)
    assert len(first) > 0
    columns = ["step", "kind", "choice", "best", "loss", "loss_low", "mark", "value", "best_value", "luck"]
    assert first[columns].equals(second[columns])
    assert first["options"].tolist() == second["options"].tolist()
    assert first.attrs["hands"][0]["expected"] == second.attrs["hands"][0]["expected"]


def test_options_of_a_position_ignore_the_hidden_cards(seed_for) -> None:
    rules = Rules()
    seed = seed_for("hidden") % 2**32
    state = GameState.deal(rules, seed, 3)
    state.apply(105)
    state.apply(105)  # both pass: the non-dealer has drawn and discards
    me = state.player
    hidden = gincore.cards_of(state.hands[1 - me])[0]
    stock = list(state.stock)
    swapped, stock[-1] = stock[-1], hidden
    hands = [0, 0]
    hands[me], hands[1 - me] = state.hands[me], state.hands[1 - me] & ~(1 << hidden) | 1 << swapped
    view = state.view(me)
    before = GameState.from_cards(rules, [hands[0] & ~(1 << view.drawn_card) if me == 0 else hands[0],
                                          hands[1] & ~(1 << view.drawn_card) if me == 1 else hands[1]],
                                  list(state.pile), [view.drawn_card, *stock], state.dealer, player=state.dealer)
    before.apply(105)
    assert before.view(me) == dataclasses.replace(view, hand_index=0)
    assert [(option.choice, option.mean) for option in evaluate_options(state, deals=8, seed=seed)] == \
        [(option.choice, option.mean) for option in evaluate_options(before, deals=8, seed=seed)]


@pytest.mark.slow
def test_the_table_and_its_summary(seed_for, tmp_path: Path) -> None:
    rules = Rules()
    seed = seed_for("table") % 2**32
    record = GameRecord(rules, ("random", "greedy"), tuple(GameRecord.of_hand(play_hand(
        rules, "random,greedy", seed, index)).hands[0] for index in range(2)))
    table = analyze(record, deals=8, seed=seed, workers=2)
    assert table.equals(analyze(record, deals=8, seed=seed, workers=1))
    assert (table["loss"] >= 0).all() and (table["best_value"] >= table["value"] - 1e-9).all()
    assert all(len(options) >= 2 for options in table["options"])  # trivial decisions are left out
    assert set(table["mark"]) <= {"", "?!", "?", "??"}
    for row in table.itertuples():
        means = [option["mean"] for option in row.options]
        assert means == sorted(means, reverse=True) and row.best == row.options[0]["choice"]
        assert row.best_action == row.options[0]["action"] and (row.action != row.best_action or row.loss == 0)
        kind = {"offer": (MoveKind.TAKE, MoveKind.REFUSE), "draw": (MoveKind.TAKE, MoveKind.REFUSE)}.get(
            row.kind, (MoveKind.DISCARD, MoveKind.KNOCK, MoveKind.BIG_GIN))
        assert all(Action(option["action"]).kind in kind for option in row.options)
        assert choice_action(row.kind, row.choice) == row.action
    written = tmp_path / "analysis.parquet"
    table.to_parquet(written)  # plain columns: the table is written as it is
    assert pd.read_parquet(written)[["action", "best_action", "choice"]].equals(table[["action", "best_action",
                                                                                       "choice"]])
    luck = table[table["kind"] == "discard"]["luck"]
    assert luck.notna().any()
    summary = summarize_analysis(table)
    game = summary[summary["hand"] == "game"].set_index("player")
    for seat in (0, 1):
        mine = table[table["player"] == seat]
        assert game.loc[seat, "decisions"] == len(mine)
        assert math.isclose(game.loc[seat, "error_rate"], mine["loss"].mean())
        assert math.isclose(game.loc[seat, "rating"], 100 * mine["loss"].mean())
    results = summary[summary["hand"] != "game"].groupby("hand")["result"].sum()
    assert (results == 0).all()  # a hand's points are one player's gain and the other's loss
    only = analyze(record, player=1, deals=8, seed=seed)
    assert set(only["player"]) == {1}


def test_match_equity_values(seed_for) -> None:
    rules = Rules(target=50)
    seed = seed_for("equity") % 2**32
    record = GameRecord.of_hand(play_hand(rules, "greedy,simple", seed, 0))
    record = dataclasses.replace(record, hands=(dataclasses.replace(record.hands[0], scores=(30, 40)),))

    def equity(score: int, opponent_score: int, deals_next: bool | None) -> float:
        return 1 / (1 + math.exp((opponent_score - score) / 15))

    table = analyze(record, player=0, deals=8, seed=seed, equity=equity)
    values = [option["mean"] for options in table["options"] for option in options]
    assert all(0 <= value <= 1 for value in values)
    assert table.attrs["equity"] and (table["loss"] <= 1).all()
    with pytest.raises(InputError, match="target"):
        analyze(GameRecord.of_hand(play_hand(Rules(target=None), "greedy,simple", seed, 0)), deals=8,
                equity=equity)


def test_marks_need_a_real_loss() -> None:
    assert mark_of(20.0, 0.5) == "??" and mark_of(20.0, 0.0) == "" and mark_of(2.0, 1.0) == "?!"
    assert mark_of(np.float64(5.0), np.float64(1.0)) == "?"
