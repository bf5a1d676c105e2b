"""Duplicate deals: every match played again with the seats swapped on the same deals, rows in the
players' terms, intervals paired by deal; the match scores the strategies see; name-seeded
tournaments with paired intervals; Bradley–Terry ratings."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ginsim import InputError, Rules, Strategy, View, compare_runs, simulate_matches, summarize_matches, tournament
from ginsim.core.intervals import grouped_mean_interval, grouped_rate_interval, mean_interval, wilson
from ginsim.core.store import RUN_FILE, RunDirectoryError
from ginsim.gin.game.hand import MatchContext
from ginsim.gin.game.native import match_key
from ginsim.gin.game.players import engine
from ginsim.gin.studies.matches import OWN_DEAL, play_match, swap_seats
from ginsim.gin.studies.ratings import ELO_SCALE, ratings
from ginsim.gin.studies.tournament import CHUNKS_PER_PAIRING, pairing_directory, pairing_seed

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


def _by_sorted_names(table: pd.DataFrame) -> dict[tuple[str, str], tuple[Any, ...]]:
    """Each pairing's results seen from the player whose name sorts first."""
    seen = {}
    for row in table.itertuples():
        if row.player < row.opponent:
            seen[(row.player, row.opponent)] = (row.wins, row.losses, row.mean_margin, row.mean_hands)
        else:
            seen[(row.opponent, row.player)] = (row.losses, row.wins, -row.mean_margin, row.mean_hands)
    return seen


@pytest.mark.parametrize("duplicate", [True, False])
def test_a_pairing_depends_on_the_names_not_on_the_list(duplicate: bool, test_seed: int) -> None:
    rules = Rules()
    three = tournament(rules, ["simple", "greedy", "gin"], 12, test_seed, workers=1, duplicate=duplicate)
    four = tournament(rules, ["gin", "random", "greedy", "simple"], 12, test_seed, workers=2, duplicate=duplicate)
    assert list(zip(four["player"], four["opponent"], strict=True))[:3] == [
        ("gin", "random"), ("gin", "greedy"), ("gin", "simple")]
    before, after = _by_sorted_names(three), _by_sorted_names(four)
    assert len(before) == 3 and len(after) == 6
    for pairing, results in before.items():
        assert after[pairing] == pytest.approx(results), pairing
    # The same rows, flipped where the list order flips a pairing: the table reads from the listed first.
    flipped = four.set_index(["player", "opponent"]).loc[("gin", "simple")]
    straight = three.set_index(["player", "opponent"]).loc[("simple", "gin")]
    assert flipped["win_rate"] == pytest.approx(straight["losses"] / 12)
    if duplicate:
        assert flipped["pair_score_sd"] == pytest.approx(straight["pair_score_sd"])


def test_the_tournament_pairs_its_intervals(test_seed: int) -> None:
    rules = Rules()
    table = tournament(rules, ["simple", "greedy"], 40, test_seed, workers=1).iloc[0]
    # Played as "greedy" (sorted first) against "simple", from the pairing's own seed, then read as simple's.
    games = simulate_matches(rules, "greedy,simple", 20, pairing_seed(test_seed, "greedy", "simple"), workers=1,
                             duplicate=True)
    won, margin = games["winner"] == 1, games["total_1"] - games["total_0"]
    assert (table["matches"], table["wins"], table["losses"]) == (40, won.sum(), (games["winner"] == 0).sum())
    assert (table["win_rate_low"], table["win_rate_high"]) == pytest.approx(grouped_rate_interval(won, games["match"]))
    assert (table["mean_margin_low"], table["mean_margin_high"]) == pytest.approx(
        grouped_mean_interval(margin, games["match"]))
    score = won.astype(float) + 0.5 * (games["winner"] < 0)
    assert table["pair_score_sd"] == pytest.approx(score.groupby(games["match"]).mean().std())
    low, high = wilson([won.sum()], [40])
    assert table["width_ratio"] == pytest.approx((table["win_rate_high"] - table["win_rate_low"]) / (high - low)[0])
    plain = tournament(rules, ["simple", "greedy"], 41, test_seed, workers=1, duplicate=False).iloc[0]
    assert plain["matches"] == 41 and np.isnan(plain["width_ratio"]) and np.isnan(plain["pair_score_sd"])
    assert (plain["win_rate_low"], plain["win_rate_high"]) == pytest.approx(
        tuple(bound[0] for bound in wilson([plain["wins"]], [41])))


def test_a_pairing_that_never_loses_keeps_an_interval(test_seed: int) -> None:
    row = tournament(Rules(), ["simple", "random"], 20, test_seed, workers=1).iloc[0]
    assert row["win_rate"] == 1 and np.isnan(row["width_ratio"])
    # No spread among the pairs: Wilson's interval of 10 deals out of 10, not a point.
    assert row["win_rate_low"] == pytest.approx(float(wilson([10], [10])[0][0])) and row["win_rate_low"] < 0.8


@pytest.mark.parametrize("matches, duplicate, message", [
    (7, True, "matches must be even with duplicate deals"),
    (1, False, "matches must be an integer of at least 2"),
    (4, "yes", "duplicate must be True or False"),
])
def test_tournament_errors(matches: int, duplicate: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        tournament(Rules(), ["simple", "gin"], matches, 1, duplicate=duplicate)


def _table(results: dict[tuple[str, str], tuple[int, int, int]]) -> pd.DataFrame:
    return pd.DataFrame([{"player": player, "opponent": opponent, "matches": games, "wins": wins, "losses": losses}
                         for (player, opponent), (games, wins, losses) in results.items()])


def test_two_players_rate_their_log_odds() -> None:
    rated = ratings(_table({("simple", "gin"): (1000, 300, 700)})).set_index("player")
    expected = ELO_SCALE * np.log(700 / 300)
    assert rated.loc["gin", "rating"] == pytest.approx(expected)
    half = 1.959964 * ELO_SCALE / np.sqrt(1000 * 0.3 * 0.7)
    assert (rated.loc["gin", "rating_low"], rated.loc["gin", "rating_high"]) == pytest.approx(
        (expected - half, expected + half), rel=1e-5)
    assert rated.loc["simple", ["rating", "rating_low", "rating_high"]].tolist() == [0, 0, 0]
    assert rated.loc["gin", "score"] == 0.7 and rated.loc["gin", "games"] == 1000


def test_anchoring_moves_every_rating_alike() -> None:
    results = {("simple", "gin"): (900, 300, 590), ("simple", "greedy"): (900, 470, 430),
               ("gin", "greedy"): (900, 610, 290)}  # ties counted half to each side
    anchored = ratings(_table(results)).set_index("player")
    renamed = {(a.replace("simple", "baseline"), b.replace("simple", "baseline")): value
               for (a, b), value in results.items()}
    centred = ratings(_table(renamed)).set_index("player").rename(index={"baseline": "simple"})
    assert centred["rating"].sum() == pytest.approx(0, abs=1e-9)
    shift = centred.loc["simple", "rating"]
    assert (centred["rating"] - shift).to_dict() == pytest.approx(anchored["rating"].to_dict())
    assert list(anchored.index) == ["gin", "simple", "greedy"]  # best first
    assert anchored.loc["gin", "score"] == pytest.approx((590 + 5 + 610) / 1800)


def test_players_beyond_every_other_have_no_finite_rating() -> None:
    results = {("simple", "gin"): (100, 40, 60), ("simple", "random"): (100, 100, 0),
               ("gin", "random"): (100, 100, 0), ("oracle", "simple"): (100, 100, 0),
               ("oracle", "gin"): (100, 100, 0), ("oracle", "random"): (100, 100, 0)}
    rated = ratings(_table(results)).set_index("player")
    assert rated.loc["oracle", "rating"] == np.inf and rated.loc["random", "rating"] == -np.inf
    assert rated.loc[["oracle", "random"], ["rating_low", "rating_high"]].isna().all().all()
    assert rated.loc["gin", "rating"] == pytest.approx(ELO_SCALE * np.log(60 / 40))
    assert list(rated.index) == ["oracle", "gin", "simple", "random"]


def test_duplicate_ratings_are_a_quasi_binomial_fit_of_the_pairs(rng: np.random.Generator) -> None:
    """Pair scores of three players drawn at random; the ratings' intervals are those of a quasi-binomial
    GLM fitted to the pairs themselves (each the mean score of its two games)."""
    import statsmodels.api as sm

    names, rows, pairs, design = ["gin", "greedy", "simple"], [], [], []
    for first, second, chances in ((0, 1, (0.5, 0.3, 0.2)), (0, 2, (0.45, 0.35, 0.2)), (1, 2, (0.2, 0.4, 0.4))):
        scores = rng.choice([1.0, 0.5, 0.0], size=300, p=chances)  # both won, split, both lost
        ties = rng.random(300) < 0.05  # a split is now and then two tied games
        wins = int(2 * (scores == 1).sum() + (~ties & (scores == 0.5)).sum())
        losses = int(2 * (scores == 0).sum() + (~ties & (scores == 0.5)).sum())
        rows.append({"player": names[first], "opponent": names[second], "matches": 600, "wins": wins,
                     "losses": losses, "pair_score_sd": scores.std(ddof=1)})
        pairs.extend(scores)
        column = np.zeros((300, 2))
        for player, sign in ((first, 1.0), (second, -1.0)):
            if player < 2:  # simple (2) is the anchor
                column[:, player] = sign
        design.append(column)
    fit = sm.GLM(np.array(pairs), np.vstack(design), family=sm.families.Binomial()).fit(scale="X2")
    rated = ratings(pd.DataFrame(rows)).set_index("player")
    for number, name in enumerate(names[:2]):
        assert rated.loc[name, "rating"] == pytest.approx(ELO_SCALE * fit.params[number])
        assert rated.loc[name, "rating_high"] - rated.loc[name, "rating"] == pytest.approx(
            1.959964 * ELO_SCALE * fit.bse[number], rel=1e-5)


def test_ratings_refuse_other_tables() -> None:
    with pytest.raises(InputError, match="ratings need a tournament table; this one has no wins, losses column"):
        ratings(pd.DataFrame({"player": ["a"], "opponent": ["b"], "matches": [2]}))
    mixed = _table({("a", "b"): (10, 5, 5), ("a", "c"): (10, 6, 4)}).assign(pair_score_sd=[0.2, np.nan])
    with pytest.raises(InputError, match="some pairings played duplicate deals, some did not"):
        ratings(mixed)


@pytest.mark.parametrize("duplicate", [True, False])
def test_a_stored_tournament_resumes_and_reads_back_its_pairings(duplicate: bool, test_seed: int,
                                                                  tmp_path: Path) -> None:
    rules, out = Rules(), tmp_path / "rr"
    played = tournament(rules, ["simple", "greedy"], 12, test_seed, workers=1, duplicate=duplicate)
    stored = tournament(rules, ["simple", "greedy"], 12, test_seed, workers=2, duplicate=duplicate, out=out,
                        chunk_size=2)
    pd.testing.assert_frame_equal(stored, played)
    folder = pairing_directory(out, "simple", "greedy")
    assert folder == out / "greedy-vs-simple"
    runs = [folder] if duplicate else [folder / "seat-0", folder / "seat-1"]
    assert all((run / RUN_FILE).exists() for run in runs)
    # A round robin stopped part-way: a lost chunk is played again, and the table is the same.
    parts = sorted(runs[-1].glob("part-*"))
    assert len(parts) == 3
    parts[1].unlink()
    pd.testing.assert_frame_equal(tournament(rules, ["simple", "greedy"], 12, test_seed, workers=1,
                                             duplicate=duplicate, out=out, chunk_size=2), played)
    # A player added later: the pairing played before is read back, not played again.
    kept = {part: part.stat().st_mtime_ns for run in runs for part in run.glob("part-*")}
    grown = tournament(rules, ["gin", "simple", "greedy"], 12, test_seed, workers=1, duplicate=duplicate, out=out,
                       chunk_size=2)
    assert {part: part.stat().st_mtime_ns for part in kept} == kept
    assert grown.iloc[2].drop(["player", "opponent"]).equals(played.iloc[0].drop(["player", "opponent"]))
    assert sorted(entry.name for entry in out.iterdir()) == ["gin-vs-greedy", "gin-vs-simple", "greedy-vs-simple"]


def test_a_stored_tournament_is_not_mixed_with_another(test_seed: int, tmp_path: Path) -> None:
    out = tmp_path / "rr"
    tournament(Rules(), ["simple", "greedy"], 4, test_seed, workers=1, out=out)
    with pytest.raises(RunDirectoryError, match=r"greedy-vs-simple holds a different run: .*size"):
        tournament(Rules(), ["simple", "greedy"], 6, test_seed, workers=1, out=out)
    with pytest.raises(RunDirectoryError, match=r"greedy-vs-simple holds a different run: .*seed"):
        tournament(Rules(), ["simple", "greedy"], 4, test_seed + 1, workers=1, out=out)
    simulate_matches(Rules(), "simple,greedy", 2, test_seed, workers=1, out=tmp_path / "run")
    with pytest.raises(InputError, match=r"run holds a run; a tournament stores its pairings in a directory of their"):
        tournament(Rules(), ["simple", "greedy"], 4, test_seed, workers=1, out=tmp_path / "run")


def test_a_pairing_is_cut_into_chunks_enough_for_every_worker(test_seed: int, tmp_path: Path) -> None:
    out = tmp_path / "rr"
    tournament(Rules(), ["simple", "random"], 400, test_seed, workers=1, out=out)
    folder = pairing_directory(out, "simple", "random")
    # 200 deal sequences: chunks of ceil(200 / 64) = 4, whatever the worker count.
    assert json.loads((folder / RUN_FILE).read_text())["chunk_size"] == 4 == -(-200 // CHUNKS_PER_PAIRING)
    assert len(list(folder.glob("part-*"))) == 50
