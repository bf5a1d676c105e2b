"""Duplicate deals: every match played again with the seats swapped on the same deals, rows in the
players' terms, intervals paired by deal; the match scores the strategies see (tournaments and ratings:
``test_tournament.py``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ginsim import InputError, Rules, Strategy, View, compare_runs, simulate_matches, summarize_matches
from ginsim.core.intervals import mean_interval, wilson
from ginsim.core.store import RUN_FILE, RunDirectoryError
from ginsim.gin.game.hand import MatchContext
from ginsim.gin.game.native import match_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.matches import OWN_DEAL, play_match, swap_seats

SEATED = ("match", "winner", "total_0", "total_1", "margin", "hands", "hands_won_0", "hands_won_1", "games",
          "shutouts", "first_dealer")


class Recording:
    """A hand source that passes every hand to an engine and keeps the (index, dealer) asked for."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped
        self.asked: list[tuple[int, int]] = []

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchContext | None = None) -> tuple[Any, ...]:
        record = self.wrapped.play_record(key0, key1, index, dealer, match)
        self.asked.append((index, record.dealer))
        return record


def test_hand_zero_deals_each_player_the_others_cards(test_seed: int) -> None:
    rules = Rules()
    first, swapped = engine(rules, "greedy,simple"), engine(rules, "simple,greedy")
    key = match_key(test_seed)
    for match in range(40):
        index = match << 24
        one, two = first.play_traced(*key, index), swapped.play_traced(*key, index)
        # The same seat deals and holds the same cards: the players have changed seats, so greedy
        # (seat 0, then seat 1) holds in the second game what simple held in the first, and deals iff
        # simple dealt.
        assert two["record"]["dealer"] == one["record"]["dealer"]
        assert two["dealt"] == one["dealt"] and two["deck"] == one["deck"]
        greedy_first, simple_first = one["dealt"]
        simple_second, greedy_second = two["dealt"]
        assert greedy_second == simple_first and simple_second == greedy_first
        # play_match plays the same first hand (its dealer drawn from the hand's stream).
        log: list[tuple[int, int, int]] = []
        play_match(swapped, rules, key, match, log)
        assert log[0][0] == one["record"]["dealer"]


def test_a_later_hand_shares_the_deal_only_when_the_same_seat_deals(test_seed: int) -> None:
    rules = Rules()
    key = match_key(test_seed)
    shared = parted = 0
    for match in range(60):
        log: list[tuple[int, int, int]] = []
        play_match(engine(rules, "gin,simple"), rules, key, match, log)
        dealers = [dealer for dealer, _, _ in log]
        source = Recording(engine(rules, "simple,gin"))
        play_match(source, rules, key, match, mirror=dealers)
        for hand, (index, dealer) in enumerate(source.asked):
            same_seat = hand < len(dealers) and dealers[hand] == dealer
            assert index == (match << 24 | hand if hand == 0 or same_seat else match << 24 | OWN_DEAL | hand)
            shared += same_seat
            parted += not same_seat
    assert shared and parted  # both happen in 60 matches of different players


def test_rows_are_in_the_players_terms(test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    table = simulate_matches(rules, "greedy,simple", 25, test_seed, workers=1, duplicate=True)
    assert list(table.columns) == ["match", "swapped", *SEATED[1:]]
    assert table["match"].tolist() == [match for match in range(25) for _ in range(2)]
    assert table["swapped"].tolist() == [False, True] * 25
    plain = simulate_matches(rules, "greedy,simple", 25, test_seed, workers=1)
    pd.testing.assert_frame_equal(table[~table["swapped"]].drop(columns="swapped").reset_index(drop=True), plain)
    key = match_key(test_seed)
    for match, row in table[table["swapped"]].set_index("match").iterrows():
        log: list[tuple[int, int, int]] = []
        play_match(engine(rules, "greedy,simple"), rules, key, int(match), log)
        seated = play_match(engine(rules, "simple,greedy"), rules, key, int(match),
                            mirror=[dealer for dealer, _, _ in log])
        assert {name: row[name] for name in SEATED[1:]} == {name: value for name, value in swap_seats(seated).items()
                                                             if name != "match"}
        # The seat that dealt first in one game deals first in the other: the other player.
        assert row["first_dealer"] == 1 - plain.loc[match, "first_dealer"]


@pytest.mark.parametrize("preset", ["standard", "oklahoma", "eaai"])
def test_the_same_strategy_in_both_seats_mirrors_every_game(preset: str, test_seed: int) -> None:
    """greedy against greedy: both seats play by the same rules from the same streams, so the swapped
    game is the first one with the players' names exchanged, and every deal splits one game each."""
    table = simulate_matches(Rules.preset(preset), "greedy,greedy", 60, test_seed, workers=1, duplicate=True)
    first, second = (table[table["swapped"] == swapped].set_index("match") for swapped in (False, True))
    assert (first["winner"] + second["winner"] == 1).all()
    assert (first["total_0"] == second["total_1"]).all() and (first["total_1"] == second["total_0"]).all()
    assert (first["hands"] == second["hands"]).all() and (first["first_dealer"] != second["first_dealer"]).all()
    summary = summarize_matches(table).iloc[0]
    for name in ("win_rate_0", "win_rate_0_low", "win_rate_0_high", "win_rate_1_low", "win_rate_1_high"):
        assert summary[name] == 0.5
    assert summary["mean_margin_0_low"] == summary["mean_margin_0_high"] == summary["mean_margin_0"] == 0
    assert summary["width_ratio"] == 0


def test_identical_across_workers_chunks_and_teams(test_seed: int) -> None:
    rules = Rules()
    one = simulate_matches(rules, "gin,simple", 30, test_seed, workers=1, duplicate=True)
    for workers, chunk_size in ((2, 7), (2, 4), (1, 30)):
        again = simulate_matches(rules, "gin,simple", 30, test_seed, workers=workers, chunk_size=chunk_size,
                                 duplicate=True)
        pd.testing.assert_frame_equal(one, again)
    teams = simulate_matches(rules, "gin,simple", 10, test_seed, workers=2, chunk_size=3, teams=3, duplicate=True)
    assert len(teams) == 20
    for row in teams.itertuples():
        mine = one[(one["match"] // 3 == row.match) & (one["swapped"] == row.swapped)]
        assert (row.total_0, row.total_1, row.hands, row.games) == (
            mine["total_0"].sum(), mine["total_1"].sum(), mine["hands"].sum(), 3)
        assert row.winner == (0 if row.total_0 > row.total_1 else 1 if row.total_1 > row.total_0 else -1)


def test_duplicate_is_part_of_the_stored_run(tmp_path: Path, test_seed: int) -> None:
    rules = Rules()
    plain_dir, duplicate_dir = tmp_path / "plain", tmp_path / "duplicate"
    simulate_matches(rules, "greedy,simple", 12, test_seed, workers=1, out=plain_dir, chunk_size=5)
    assert "duplicate" not in (plain_dir / RUN_FILE).read_text()  # directories written before stay valid
    table = simulate_matches(rules, "greedy,simple", 12, test_seed, workers=2, out=duplicate_dir, chunk_size=5,
                             duplicate=True)
    with pytest.raises(RunDirectoryError, match="holds a different run: duplicate True"):
        simulate_matches(rules, "greedy,simple", 12, test_seed, workers=1, out=duplicate_dir, chunk_size=5)
    parts = sorted(duplicate_dir.glob("part-*"))
    assert len(parts) == 3
    parts[1].unlink()  # as if interrupted: the same call plays the missing chunk again
    resumed = simulate_matches(rules, "greedy,simple", 12, test_seed, workers=1, out=duplicate_dir, chunk_size=5,
                               duplicate=True)
    pd.testing.assert_frame_equal(table, resumed)
    pd.testing.assert_frame_equal(summarize_matches(duplicate_dir), summarize_matches(table))
    with pytest.raises(ValueError, match="duplicate must be True or False"):
        simulate_matches(rules, "greedy,simple", 2, test_seed, duplicate="yes")  # type: ignore[arg-type]


def test_duplicate_runs_of_one_seed_compare_game_by_game(tmp_path: Path, test_seed: int) -> None:
    for name, players, duplicate in (("a", "greedy,simple", True), ("b", "gin,simple", True),
                                     ("plain", "gin,simple", False)):
        simulate_matches(Rules(), players, 15, test_seed, workers=1, out=tmp_path / name, duplicate=duplicate)
    table = compare_runs(tmp_path / "a", tmp_path / "b")
    assert table["paired"].all() and list(table["measure"]) == ["win_rate_0", "mean_margin_0", "mean_hands"]
    assert not compare_runs(tmp_path / "a", tmp_path / "plain")["paired"].any()
    with pytest.raises(InputError, match="both with or both without duplicate deals"):
        compare_runs(tmp_path / "a", tmp_path / "plain", paired=True)


def test_the_summary_pairs_the_two_games_of_each_deal(test_seed: int) -> None:
    table = simulate_matches(Rules(), "gin,simple", 80, test_seed, workers=2, duplicate=True)
    summary = summarize_matches(table).iloc[0]
    assert summary["matches"] == 160
    for player in (0, 1):
        won = (table["winner"] == player).astype(float)
        assert summary[f"win_rate_{player}"] == pytest.approx(won.mean())
        low, high = mean_interval(won.groupby(table["match"]).mean())
        assert (summary[f"win_rate_{player}_low"], summary[f"win_rate_{player}_high"]) == pytest.approx(
            (max(low, 0.0), min(high, 1.0)))
    margin = table["total_0"] - table["total_1"]
    assert (summary["mean_margin_0_low"], summary["mean_margin_0_high"]) == pytest.approx(
        mean_interval(margin.groupby(table["match"]).mean()))
    wilson_low, wilson_high = wilson(np.array([(table["winner"] == 0).sum()]), np.array([160]))
    assert summary["width_ratio"] == pytest.approx(
        (summary["win_rate_0_high"] - summary["win_rate_0_low"]) / float(wilson_high[0] - wilson_low[0]))
    plain = summarize_matches(table[~table["swapped"]].drop(columns="swapped"))
    assert "width_ratio" not in plain  # without duplicate deals: as before, Wilson intervals


class ScoreWatcher(Strategy):
    """Discards to the least deadwood; keeps the match scores of every view it is shown."""

    name = "score-watcher"

    def __init__(self) -> None:
        self.seen: dict[int, set[tuple[int, int]]] = {}

    def _look(self, view: View) -> None:
        self.seen.setdefault(view.hand_index, set()).add(view.scores)

    def take_discard(self, view: View) -> bool:
        self._look(view)
        return super().take_discard(view)

    def discard(self, view: View) -> int:
        self._look(view)
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))


def _scores_before_each_hand(rules: Rules, log: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """The scores by seat of the first game still open, before each hand (docs/rules.md#games-to-a-target)."""
    games = 3 if rules.hollywood else 1
    score = [[0, 0] for _ in range(games)]
    open_games, wins, shown = [True] * games, [0, 0], []
    for _, winner, points in log:
        first_open = next(game for game in range(games) if open_games[game])
        shown.append((score[first_open][0], score[first_open][1]))
        if winner < 0:
            continue
        wins[winner] += 1
        for game in range(min(wins[winner], games)):
            if open_games[game]:
                score[game][winner] += points
                open_games[game] = score[game][winner] < rules.target
    return shown


@pytest.mark.parametrize("rules", [Rules(), Rules(hollywood=True, target=50)], ids=["standard", "hollywood-50"])
@pytest.mark.parametrize("seat", [0, 1])
def test_strategies_see_the_running_match_scores(rules: Rules, seat: int, test_seed: int) -> None:
    watcher = ScoreWatcher()
    players = [watcher, "simple"] if seat == 0 else ["simple", watcher]
    hand_engine, key = engine(rules, players), match_key(test_seed)
    later_scores = 0
    for match in range(4):
        log: list[tuple[int, int, int]] = []
        play_match(hand_engine, rules, key, match, log)
        for hand, expected in enumerate(_scores_before_each_hand(rules, log)):
            seen = watcher.seen.get(match << 24 | hand, set())
            assert seen <= {expected}, (match, hand)  # by seat, whichever seat the watcher has
            later_scores += bool(seen) and expected != (0, 0)
    assert later_scores > 0
