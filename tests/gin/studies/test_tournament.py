"""Tournaments and ratings: name-seeded pairings with paired intervals, stored and resumed pairings, and
Bradley–Terry ratings."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ginsim import InputError, Rules, simulate_matches, tournament
from ginsim.core.intervals import grouped_mean_interval, grouped_rate_interval, wilson
from ginsim.core.store import RUN_FILE, RunDirectoryError
from ginsim.gin.studies.ratings import ELO_SCALE, ratings
from ginsim.gin.studies.tournament import CHUNKS_PER_PAIRING, pairing_directory, pairing_seed


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


def test_any_player_may_anchor_at_any_level() -> None:
    results = {("simple", "gin"): (900, 300, 590), ("simple", "greedy"): (900, 470, 430),
               ("gin", "greedy"): (900, 610, 290)}
    plain = ratings(_table(results)).set_index("player")
    listed = ratings(_table(results), level=1500).set_index("player")
    assert (listed["rating"] - 1500).to_dict() == pytest.approx(plain["rating"].to_dict())
    assert listed.loc["simple", ["rating", "rating_low", "rating_high"]].tolist() == [1500] * 3
    assert (listed["rating_high"] - listed["rating_low"]).to_dict() == pytest.approx(
        (plain["rating_high"] - plain["rating_low"]).to_dict())
    by_gin = ratings(_table(results), "gin", 100).set_index("player")
    assert by_gin.loc["gin", ["rating", "rating_low", "rating_high"]].tolist() == [100] * 3
    assert by_gin.loc["simple", "rating"] == pytest.approx(100 - plain.loc["gin", "rating"])
    absent = ratings(_table(results), "marjj", 1500)
    assert absent["rating"].mean() == pytest.approx(1500)


def test_players_beyond_every_other_have_no_finite_rating() -> None:
    results = {("simple", "gin"): (100, 40, 60), ("simple", "random"): (100, 100, 0),
               ("gin", "random"): (100, 100, 0), ("oracle", "simple"): (100, 100, 0),
               ("oracle", "gin"): (100, 100, 0), ("oracle", "random"): (100, 100, 0)}
    rated = ratings(_table(results)).set_index("player")
    assert rated.loc["oracle", "rating"] == np.inf and rated.loc["random", "rating"] == -np.inf
    assert rated.loc[["oracle", "random"], ["rating_low", "rating_high"]].isna().all().all()
    assert rated.loc["gin", "rating"] == pytest.approx(ELO_SCALE * np.log(60 / 40))
    assert list(rated.index) == ["oracle", "gin", "simple", "random"]


PAIRED_NAMES = ["gin", "greedy", "simple"]  # simple (the last) is the anchor


def _pairs_and_their_fit(pairings: list[tuple[int, int, np.ndarray, np.ndarray]]) -> tuple[pd.DataFrame, Any]:
    """A duplicate table of ``PAIRED_NAMES`` from pair scores (first, second, the pairs' scores, which of the
    splits were two tied games), and statsmodels' own quasi-binomial fit of those pairs."""
    import statsmodels.api as sm

    rows, pairs, design = [], [], []
    for first, second, scores, ties in pairings:
        wins = int(2 * (scores == 1).sum() + (~ties & (scores == 0.5)).sum())
        losses = int(2 * (scores == 0).sum() + (~ties & (scores == 0.5)).sum())
        rows.append({"player": PAIRED_NAMES[first], "opponent": PAIRED_NAMES[second], "matches": 2 * len(scores),
                     "wins": wins, "losses": losses,
                     "pair_score_sd": scores.std(ddof=1) if len(scores) > 1 else np.nan})
        pairs.extend(scores)
        column = np.zeros((len(scores), 2))
        for player, sign in ((first, 1.0), (second, -1.0)):
            if player < 2:
                column[:, player] = sign
        design.append(column)
    return pd.DataFrame(rows), sm.GLM(np.array(pairs), np.vstack(design),
                                      family=sm.families.Binomial()).fit(scale="X2")


def test_duplicate_ratings_are_a_quasi_binomial_fit_of_the_pairs(rng: np.random.Generator) -> None:
    """Pair scores of three players drawn at random; the ratings' intervals are those of a quasi-binomial
    GLM fitted to the pairs themselves (each the mean score of its two games)."""
    names = PAIRED_NAMES
    table, fit = _pairs_and_their_fit([
        (first, second, rng.choice([1.0, 0.5, 0.0], size=300, p=chances),  # both won, split, both lost
         rng.random(300) < 0.05)  # a split is now and then two tied games
        for first, second, chances in ((0, 1, (0.5, 0.3, 0.2)), (0, 2, (0.45, 0.35, 0.2)), (1, 2, (0.2, 0.4, 0.4)))])
    rated = ratings(table).set_index("player")
    for number, name in enumerate(names[:2]):
        assert rated.loc[name, "rating"] == pytest.approx(ELO_SCALE * fit.params[number])
        assert rated.loc[name, "rating_high"] - rated.loc[name, "rating"] == pytest.approx(
            1.959964 * ELO_SCALE * fit.bse[number], rel=1e-5)


def test_a_pairing_of_one_deal_sequence_adds_no_spread_within(rng: np.random.Generator, test_seed: int) -> None:
    """A pairing that played one deal sequence has no standard deviation of its pair scores (NaN): it is
    still on duplicate deals, and its one pair counts in the quasi-binomial fit as any other pair."""
    played = pd.concat([tournament(Rules(), players, games, test_seed, workers=1)
                        for players, games in ((["gin", "simple"], 40), (["gin", "greedy"], 2),
                                               (["greedy", "simple"], 30))], ignore_index=True)
    assert played["pair_score_sd"].isna().tolist() == [False, True, False]
    assert ratings(played)["player"].tolist() != []  # once refused: "some pairings played duplicate deals, ..."
    # The same fit on pair scores drawn at random, against statsmodels' own quasi-binomial fit of the pairs.
    names = PAIRED_NAMES
    table, fit = _pairs_and_their_fit([
        (first, second, rng.choice([1.0, 0.5, 0.0], size=count, p=(0.4, 0.3, 0.3)), np.zeros(count, bool))
        for first, second, count in ((0, 1, 1), (0, 2, 40), (1, 2, 25))])
    rated = ratings(table).set_index("player")
    assert ratings(table, duplicate=True).equals(rated.reset_index())
    for number, name in enumerate(names[:2]):
        assert rated.loc[name, "rating"] == pytest.approx(ELO_SCALE * fit.params[number])
        assert rated.loc[name, "rating_high"] - rated.loc[name, "rating"] == pytest.approx(
            1.959964 * ELO_SCALE * fit.bse[number], rel=1e-5)


def test_a_table_of_single_deal_sequences_is_duplicate_when_said() -> None:
    """Every pairing of one deal sequence: the table cannot say whether its games were paired, the caller can."""
    rows = _table({("a", "b"): (2, 2, 0), ("b", "c"): (2, 2, 0), ("c", "a"): (2, 2, 0)}).assign(
        pair_score_sd=np.nan)  # a cycle: every strength the same, every pair a whole point from the fit
    games, pairs = ratings(rows, "c"), ratings(rows, "c", duplicate=True)
    assert games["rating"].tolist() == pairs["rating"].tolist() == pytest.approx([0, 0, 0], abs=1e-9)
    # Three pairs, two strengths: Pearson's χ² of the pair scores (each 1 or 0 about ½) is 3 on one degree of
    # freedom, and a pair is two games: the covariance is 2 × 3 times the binomial one of the games.
    ratio = (pairs["rating_high"] - pairs["rating"]) / (games["rating_high"] - games["rating"])
    assert ratio[pairs["player"] != "c"].tolist() == pytest.approx([np.sqrt(6)] * 2)


def test_ratings_refuse_other_tables() -> None:
    with pytest.raises(InputError, match="ratings need a tournament table; this one has no wins, losses column"):
        ratings(pd.DataFrame({"player": ["a"], "opponent": ["b"], "matches": [2]}))
    mixed = _table({("a", "b"): (10, 5, 5), ("a", "c"): (10, 6, 4)}).assign(pair_score_sd=[0.2, np.nan])
    with pytest.raises(InputError, match="some pairings played duplicate deals, some did not"):
        ratings(mixed)
    unpaired = _table({("a", "b"): (10, 5, 5)})
    with pytest.raises(InputError, match=r"some did not \(a vs b: 10 games with no pair_score_sd\)"):
        ratings(unpaired, duplicate=True)


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
    with pytest.raises(RunDirectoryError, match=r"greedy-vs-simple holds a larger run: size"):
        tournament(Rules(), ["simple", "greedy"], 2, test_seed, workers=1, out=out)  # (a larger one grows it)
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
