"""Matches to a target: the dealer rule, box/game/shutout bonuses, Hollywood and team totals,
recomputed here from the hands each match played."""
from __future__ import annotations

import pandas as pd
import pytest

from ginsim import Rules, simulate_matches, summarize_matches
from ginsim.gin.game.native import match_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.matches import play_match


def _expected_dealers(rules: Rules, log: list[tuple[int, int, int]]) -> list[int]:
    dealers = [log[0][0]]
    for dealer, winner, _ in log[:-1]:
        if winner < 0:
            dealers.append(dealer)
        elif rules.next_dealer == "loser":
            dealers.append(1 - winner)
        elif rules.next_dealer == "winner":
            dealers.append(winner)
        else:
            dealers.append(1 - dealer)
    return dealers


def _score_games(rules: Rules, log: list[tuple[int, int, int]]) -> tuple[list[int], int]:
    """Totals of both players and the shutouts, from the hands alone (docs/rules.md#games-to-a-target)."""
    games = 3 if rules.hollywood else 1
    entries: list[list[tuple[int, int]]] = [[] for _ in range(games)]  # (winner, points) per game
    wins = [0, 0]
    for _, winner, points in log:
        if winner < 0:
            continue
        wins[winner] += 1
        for game in range(min(wins[winner], games)):
            scores = [sum(p for w, p in entries[game] if w == player) for player in (0, 1)]
            if max(scores) < rules.target:
                entries[game].append((winner, points))
    totals, shutouts = [0, 0], 0
    for game in entries:
        scores = [sum(p for w, p in game if w == player) for player in (0, 1)]
        hands_won = [sum(1 for w, _ in game if w == player) for player in (0, 1)]
        assert max(scores) >= rules.target > min(scores)
        winner = scores.index(max(scores))
        loser = 1 - winner
        won = scores[winner] + rules.box_bonus * hands_won[winner] + rules.game_bonus
        if hands_won[loser] == 0:
            shutouts += 1
            won *= 2 if rules.shutout_doubles else 1
        totals[winner] += won
        totals[loser] += scores[loser] + rules.box_bonus * hands_won[loser]
    return totals, shutouts


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(next_dealer="winner", target=50),
    Rules.preset("eaai"),
    Rules(hollywood=True),
    Rules(shutout_doubles=False, box_bonus=10, game_bonus=50, target=250),
], ids=["standard", "winner-deals-50", "eaai", "hollywood", "custom-bonuses-250"])
def test_match_totals_recomputed_from_hands(rules: Rules, test_seed: int) -> None:
    hand_engine = engine(rules, "greedy,simple")
    key = match_key(test_seed)
    for match in range(150):
        log: list[tuple[int, int, int]] = []
        row = play_match(hand_engine, rules, key, match, log)
        assert [dealer for dealer, _, _ in log] == _expected_dealers(rules, log)
        assert row["hands"] == len(log)
        assert (row["hands_won_0"], row["hands_won_1"]) == tuple(
            sum(1 for _, w, _ in log if w == player) for player in (0, 1))
        totals, shutouts = _score_games(rules, log)
        assert [row["total_0"], row["total_1"]] == totals
        assert row["shutouts"] == shutouts
        assert row["games"] == (3 if rules.hollywood else 1)
        if not rules.hollywood:
            scores = [sum(p for _, w, p in log if w == player) for player in (0, 1)]
            assert row["winner"] == scores.index(max(scores))
            assert row["margin"] == totals[row["winner"]] - totals[1 - row["winner"]]


def test_single_hand_games(test_seed: int) -> None:
    rules = Rules(target=None)
    for match in range(100):
        log: list[tuple[int, int, int]] = []
        row = play_match(engine(rules, "simple,simple"), rules, match_key(test_seed), match, log)
        assert all(winner < 0 for _, winner, _ in log[:-1]) and log[-1][1] >= 0
        assert row["winner"] == log[-1][1]
        assert row[f"total_{row['winner']}"] == log[-1][2] and row[f"total_{1 - row['winner']}"] == 0


def test_matches_identical_across_workers_and_chunks(test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    one = simulate_matches(rules, "greedy,simple", 60, test_seed, workers=1)
    two = simulate_matches(rules, "greedy,simple", 60, test_seed, workers=2, chunk_size=7)
    pd.testing.assert_frame_equal(one, two)


def test_team_play_sums_its_pairs(test_seed: int) -> None:
    rules = Rules()
    teams = simulate_matches(rules, "greedy,simple", 10, test_seed, workers=1, teams=3)
    pairs = simulate_matches(rules, "greedy,simple", 30, test_seed, workers=1)
    for row in teams.itertuples():
        mine = pairs.iloc[row.match * 3: row.match * 3 + 3]
        assert row.total_0 == mine["total_0"].sum() and row.total_1 == mine["total_1"].sum()
        assert row.games == 3 and row.hands == mine["hands"].sum()
        assert row.winner == (0 if row.total_0 > row.total_1 else 1 if row.total_1 > row.total_0 else -1)


def test_matches_summary(test_seed: int) -> None:
    table = simulate_matches(Rules(), "simple,random", 40, test_seed, workers=1)
    summary = summarize_matches(table)
    assert summary["matches"].iloc[0] == 40
    assert summary["win_rate_0"].iloc[0] == pytest.approx((table["winner"] == 0).mean())
    assert summary["win_rate_0"].iloc[0] > 0.9  # the EAAI baseline beats random play
    assert summary["win_rate_0_low"].iloc[0] <= summary["win_rate_0"].iloc[0] <= summary["win_rate_0_high"].iloc[0]
    assert summary["mean_margin_0"].iloc[0] == pytest.approx((table["total_0"] - table["total_1"]).mean())


@pytest.mark.parametrize("rules", [Rules(), Rules(next_dealer="alternate", target=50)],
                         ids=["standard", "alternate-50"])
def test_a_game_started_from_scores_and_a_dealer(rules: Rules, rng) -> None:
    hand_engine = engine(rules, "greedy,simple")
    key = match_key(int(rng.integers(2**32)))
    for match in range(60):
        start = (int(rng.integers(rules.target)), int(rng.integers(rules.target)))
        first_dealer = int(rng.integers(2))
        log: list[tuple[int, int, int]] = []
        row = play_match(hand_engine, rules, key, match, log, start=start, first_dealer=first_dealer)
        assert log[0][0] == row["first_dealer"] == first_dealer
        assert [dealer for dealer, _, _ in log] == _expected_dealers(rules, log)
        scores = [start[player] + sum(p for _, w, p in log if w == player) for player in (0, 1)]
        winner = row["winner"]
        assert scores[winner] >= rules.target > scores[1 - winner]
        assert scores[winner] - log[-1][2] < rules.target and log[-1][1] == winner  # the last hand decided it
        wins = [sum(1 for _, w, _ in log if w == player) for player in (0, 1)]
        shutout = wins[1 - winner] == 0 and start[1 - winner] == 0
        won = (scores[winner] + rules.box_bonus * wins[winner] + rules.game_bonus) * (2 if shutout else 1)
        assert (row[f"total_{winner}"], row[f"total_{1 - winner}"]) == (
            won, scores[1 - winner] + rules.box_bonus * wins[1 - winner])
        assert row["shutouts"] == int(shutout)


def test_a_drawn_first_dealer_and_a_zero_start_play_the_plain_game(test_seed: int) -> None:
    rules = Rules()
    hand_engine, key = engine(rules, "greedy,simple"), match_key(test_seed)
    for match in range(20):
        assert play_match(hand_engine, rules, key, match, start=(0, 0)) == play_match(hand_engine, rules, key, match)


@pytest.mark.parametrize(("rules", "start", "first_dealer", "message"), [
    (Rules(), (100, 0), None, "start score must be an integer from 0 to 99, got 100"),
    (Rules(), (5, -1), None, "start score must be an integer from 0 to 99, got -1"),
    (Rules(), 5, None, "start must be a pair of scores, got 5"),
    (Rules(), (0, 0), 2, "first_dealer must be an integer from 0 to 1, got 2"),
    (Rules(hollywood=True), (10, 0), None, "without Hollywood scoring"),
    (Rules(target=None), (10, 0), None, "only with a target"),
], ids=["at-target", "negative", "not-a-pair", "dealer", "hollywood", "no-target"])
def test_a_bad_start_is_refused_in_one_line(rules: Rules, start, first_dealer, message: str) -> None:
    from gincore.errors import InputError

    with pytest.raises(InputError, match=message) as error:
        play_match(engine(rules, "simple,simple"), rules, match_key(1), 0, start=start, first_dealer=first_dealer)
    assert "\n" not in str(error.value)
