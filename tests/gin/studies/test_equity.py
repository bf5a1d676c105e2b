"""Match equity tables: the dynamic programme against a plain fixed-point iteration, the cells against
games simulated from their scores, monotony, symmetry, the edges, the shipped tables and bad input."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from gincore.errors import InputError
from ginsim import Rules
from ginsim.gin.studies.equity import (
    NEXT_DEALER,
    _solve,
    equity_at,
    equity_table,
    load_table,
    match_value_array,
    save_table,
    shipped_equity,
    simulated_equity,
)

FALSE_ALARMS = 1e-7
"""The chance that a seed fails a test that compares estimates of the same chances, whatever their number."""


def sigmas(comparisons: int) -> float:
    """How far apart, in standard errors, two estimates of one chance may be when a test makes
    ``comparisons`` of them: each at most ``FALSE_ALARMS / comparisons`` (normal, both sides), so the
    test at most ``FALSE_ALARMS`` however they are correlated. The 4.5 standard errors used before would
    fail about 1 seed in 2,000 over a table's 5,000 cells (extrapolated from 40 seeds: the largest gap of
    a table was 2 standard errors at the median, over 3 in 8 of them, 4.0 at most)."""
    return NormalDist().inv_cdf(1 - FALSE_ALARMS / (2 * comparisons))


def _cells(table: pd.DataFrame) -> pd.DataFrame:
    return table.set_index(["score", "opponent_score", "dealer"])


def _reference(chances: np.ndarray, target: int, next_dealer: str) -> np.ndarray:
    """The same equity by iterating E = f(E) over every state to a fixed point, cell by cell."""
    follow = NEXT_DEALER[next_dealer]
    equity = np.full((2, target, target), 0.5)
    for _ in range(10_000):
        change = 0.0
        for dealer in (0, 1):
            for mine in range(target - 1, -1, -1):
                for theirs in range(target - 1, -1, -1):
                    value = 0.0
                    for points in range(target + 1):
                        after_mine, after_theirs = follow[dealer]
                        won = 1.0 if mine + points >= target else equity[after_mine, mine + points, theirs]
                        lost = 0.0 if theirs + points >= target else equity[after_theirs, mine, theirs + points]
                        value += chances[dealer, 0, points] * won + chances[dealer, 1, points] * lost
                    change = max(change, abs(value - equity[dealer, mine, theirs]))
                    equity[dealer, mine, theirs] = value
        if change < 1e-14:
            return equity
    raise AssertionError("the reference iteration did not converge")


@pytest.mark.parametrize("next_dealer", sorted(NEXT_DEALER))
def test_the_programme_solves_the_recursion(next_dealer: str, rng: np.random.Generator) -> None:
    target = 9
    chances = rng.dirichlet(np.full(2 * (target + 1), 0.7), size=(3, 2)).reshape(3, 2, 2, target + 1)
    chances[0, :, :, 0] = 0.0  # one replicate without zero-point wins, the others with them
    chances[0] /= chances[0].sum(axis=(-2, -1), keepdims=True)
    solved = _solve(chances, target, next_dealer)
    for replicate in range(3):
        np.testing.assert_allclose(solved[replicate], _reference(chances[replicate], target, next_dealer),
                                   atol=1e-11)


@pytest.fixture(scope="module")
def even_table(test_seed: int) -> pd.DataFrame:
    return equity_table(Rules(), players="simple,simple", hands=200_000, seed=test_seed, workers=1,
                        replicates=100)


@pytest.mark.parametrize(("rules", "players"), [(Rules(), "greedy,simple"), (Rules.preset("eaai"), "gin,simple")],
                         ids=["standard-greedy", "eaai-gin"])
@pytest.mark.slow
def test_cells_agree_with_games_played_from_their_scores(rules: Rules, players: str, rng: np.random.Generator,
                                                         seed_for) -> None:
    seed = seed_for(f"equity-{rules.next_dealer}-{players}")
    table = _cells(equity_table(rules, players=players, hands=200_000, seed=seed, workers=1, replicates=100))
    cells = 4
    for _ in range(cells):
        score, opponent, dealer = int(rng.integers(100)), int(rng.integers(100)), bool(rng.integers(2))
        share, low, high = simulated_equity(rules, score, opponent, dealer, players=players, matches=1_500,
                                            seed=seed)
        cell = table.loc[(score, opponent, dealer)]
        error = np.hypot((cell["high"] - cell["low"]) / 2, (high - low) / 2) / 1.96
        assert abs(share - cell["equity"]) <= sigmas(cells) * error + 1e-9, (score, opponent, dealer, share, cell)


def test_equity_falls_as_the_opponent_scores(even_table: pd.DataFrame) -> None:
    values = even_table.sort_values(["dealer", "score", "opponent_score"])["equity"].to_numpy().reshape(2, 100, 100)
    assert (np.diff(values, axis=2) <= 1e-12).all()   # a higher opponent's score never helps
    assert (np.diff(values, axis=1) >= -1e-12).all()  # nor does a lower score of one's own
    assert (values[:, :, 0] - values[:, :, 99] > 0.05).all()


def test_one_player_in_both_seats_gives_complementary_equities(even_table: pd.DataFrame) -> None:
    values = _cells(even_table)["equity"]
    mirrored = values.copy()
    mirrored.index = pd.MultiIndex.from_arrays([values.index.get_level_values(1), values.index.get_level_values(0),
                                                ~values.index.get_level_values(2)], names=values.index.names)
    total = values + mirrored.reindex(values.index)
    np.testing.assert_allclose(total.to_numpy(), 1.0, atol=1e-9)


def test_swapped_players_give_complementary_equities_within_their_intervals(seed_for) -> None:
    first, second = (_cells(equity_table(Rules(target=50), players=players, hands=100_000, seed=seed_for(players),
                                         workers=1, replicates=100)) for players in ("greedy,simple", "simple,greedy"))
    second = second.loc[[(b, a, not d) for a, b, d in first.index]]  # the same cell seen from the other seat
    total = first["equity"].to_numpy() + second["equity"].to_numpy()
    error = np.hypot(*((table["high"].to_numpy() - table["low"].to_numpy()) / 2 for table in (first, second))) / 1.96
    assert (np.abs(total - 1) <= sigmas(len(total)) * error + 1e-9).all()
    assert error.max() > 0


def test_intervals_hold_the_equity(even_table: pd.DataFrame) -> None:
    assert ((even_table["low"] <= even_table["equity"]) & (even_table["equity"] <= even_table["high"])).all()
    assert even_table["low"].min() >= 0 and even_table["high"].max() <= 1
    assert 0 < (even_table["high"] - even_table["low"]).max() < 0.05


def test_the_edges_of_the_table(seed_for) -> None:
    table = equity_table(Rules(target=40), players="greedy,simple", hands=50_000, seed=seed_for("edges"), workers=1,
                         replicates=20)
    assert table["score"].max() == table["opponent_score"].max() == 39 and len(table) == 2 * 40 * 40
    counts = np.asarray(table.attrs["counts"])
    for dealer, seat in ((True, 0), (False, 1)):
        # one point from the target each: the next decided hand ends the game (no hand is won for 0 here)
        won, lost = counts[seat, 0].sum(), counts[seat, 1].sum()
        assert equity_at(table, 39, 39, dealer) == pytest.approx(won / (won + lost), abs=1e-12)
        assert equity_at(table, 39, 0, dealer) >= won / (won + lost) - 1e-12
    assert equity_at(table, 40, 39) == equity_at(table, 250, 0, dealer=True) == 1.0
    assert equity_at(table, 0, 40) == equity_at(table, 39, 1000, dealer=False) == 0.0
    assert equity_at(table, 5, 7) == pytest.approx((equity_at(table, 5, 7, True) + equity_at(table, 5, 7, False)) / 2)
    with pytest.raises(InputError, match="only one player can reach the target 40, got scores 40 and 41"):
        equity_at(table, 40, 41)


def test_reproducible_for_any_number_of_workers(test_seed: int) -> None:
    one = equity_table(Rules(target=25), hands=150_000, seed=test_seed, workers=1, replicates=10)
    two = equity_table(Rules(target=25), hands=150_000, seed=test_seed, workers=2, replicates=10)
    pd.testing.assert_frame_equal(one, two)
    assert one.attrs == two.attrs


def test_hollywood_is_the_table_of_its_first_game(test_seed: int) -> None:
    plain = equity_table(Rules(target=30), hands=20_000, seed=test_seed, workers=1, replicates=10)
    hollywood = equity_table(Rules(hollywood=True), target=30, hands=20_000, seed=test_seed, workers=1,
                             replicates=10)
    pd.testing.assert_frame_equal(plain, hollywood)
    assert hollywood.attrs["game"] == "the first of Hollywood's three games"


def test_save_and_load(tmp_path, test_seed: int) -> None:
    table = equity_table(Rules.preset("oklahoma"), target=20, hands=5_000, seed=test_seed, workers=1, replicates=10)
    again = load_table(save_table(table, tmp_path / "table.npz"))
    pd.testing.assert_frame_equal(again, table, atol=1e-6, check_exact=False)
    assert again.attrs == table.attrs


@pytest.mark.parametrize("target", [50, 100, 250])
@pytest.mark.parametrize("name", ["standard", "oklahoma"])
def test_the_shipped_tables(name: str, target: int) -> None:
    rules = Rules.preset(name).replace(target=target)
    table = shipped_equity(rules)
    assert table is not None and table.attrs["target"] == target and table.attrs["players"] == ["simple", "simple"]
    assert table.attrs["rules"] == rules.to_dict() and table.attrs["hands"] >= 10_000_000
    # the stored numbers are what the programme makes of the stored counts
    counts = np.asarray(table.attrs["counts"])
    pooled = np.stack([counts[0, 0] + counts[1, 1], counts[0, 1] + counts[1, 0]])
    chances = np.stack([pooled, pooled[::-1]]) / pooled.sum()
    solved = _solve(chances[None], target, rules.next_dealer)[0]
    values = table.sort_values(["dealer", "score", "opponent_score"])["equity"].to_numpy().reshape(2, target, target)
    np.testing.assert_allclose(values[::-1], solved, atol=1e-6)
    assert ((table["high"] - table["low"]) / 2).max() < 0.002
    # who wins, not by how much: the bonuses and Hollywood change nothing, another knock limit has no table
    for other in (rules.replace(box_bonus=10, game_bonus=0, shutout_doubles=False), rules.replace(hollywood=True)):
        pd.testing.assert_frame_equal(shipped_equity(other), table)
    assert shipped_equity(Rules.preset(name), target=target) is not None
    assert shipped_equity(rules, target=target + 10) is None
    array = match_value_array(rules)
    assert array is not None and array.shape == (target, target) and array.dtype == np.float64
    np.testing.assert_allclose(array, values.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(array + array.T, 1.0, atol=1e-6)


def test_no_shipped_table_for_other_rules() -> None:
    assert shipped_equity(Rules(knock_limit=5)) is None and match_value_array(Rules(next_dealer="winner")) is None
    assert match_value_array(Rules(target=None), target=100) is not None


@pytest.mark.parametrize(("call", "message"), [
    (lambda: equity_table(Rules(target=None)), "a match equity table needs a target"),
    (lambda: equity_table(Rules(), target=0), "target must be an integer from 1 to 10,000, got 0"),
    (lambda: equity_table(Rules(), hands=0), "hands must be a positive integer, got 0"),
    (lambda: equity_table(Rules(), hands=10, replicates=1), "replicates must be an integer from 2 to 4,000, got 1"),
    (lambda: equity_table(Rules(), players="simple,nobody", hands=10), "unknown strategy 'nobody'"),
    (lambda: equity_table(Rules(), players="greedy,simple", hands=1, workers=1),
     "no decided hand dealt by (greedy|simple) among 1 simulated: play more hands"),
    (lambda: equity_table(Rules(knock_limit=0, stock_floor=10), target=5, hands=1, workers=1),
     "no decided hand among 1 simulated: play more hands"),
    (lambda: simulated_equity(Rules(), 100, 0), "start score must be an integer from 0 to 99, got 100"),
    (lambda: simulated_equity(Rules(), 0, 0, dealer=1), "dealer must be True, False or None, got 1"),
    (lambda: equity_at(pd.DataFrame({"score": [0]}), 0, 0), "not an equity table: it has no opponent_score column"),
], ids=["no-target", "target-0", "hands", "replicates", "player", "undecided-seat", "undecided", "start", "dealer",
        "not-a-table"])
def test_bad_input_is_refused_in_one_line(call, message: str) -> None:
    with pytest.raises(InputError, match=message) as error:
        call()
    assert "\n" not in str(error.value)


def test_the_heatmap(even_table: pd.DataFrame, tmp_path) -> None:
    from ginsim.gin.studies.plot import plot_equity

    path = plot_equity(even_table, tmp_path / "equity.svg", "standard rules | simple vs simple")
    assert b"<svg" in path.read_bytes()[:400]
    with pytest.raises(InputError, match="cannot tell the figure format"):
        plot_equity(even_table, tmp_path / "equity.txt")


def _script(folder: str, name: str):
    path = Path(__file__).resolve().parents[3] / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scripts_that_make_and_check_the_shipped_tables(tmp_path, capsys) -> None:
    _script("tools", "make_equity_tables").main(["--rules", "oklahoma", "--target", "12", "--hands", "3000", "--out",
                                       str(tmp_path)])
    table = load_table(tmp_path / "equity_oklahoma_12.npz")
    assert table.attrs["command"].endswith("--hands 3000 --out " + str(tmp_path)) and table.attrs["hands"] == 3000
    assert "half-widths: largest" in capsys.readouterr().out
    _script("benchmarks", "validate_equity").main(["--rules", "standard", "--cells", "2", "--matches", "50"])
    assert "largest |z|" in capsys.readouterr().out
