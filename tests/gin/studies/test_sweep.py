"""Sweeps: every cell is the run made alone, grown and resumed sweeps equal uninterrupted ones, the
differences are ``compare``'s, and bad grids, directories and players are refused in one line."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gincore.errors import InputError
from ginsim import Rules, compare_runs, play_hand, simulate, simulate_matches, sweep
from ginsim.core.comparison import holm
from ginsim.core.store import RunDirectory
from ginsim.gin.game.players import Player
from ginsim.gin.studies.grid import field_values, sweep_cells
from ginsim.gin.studies.sweep import SWEEP_FILE, cell_directory
from tests.cli_runner import invoke

HANDS = 400

FAILS_AT_KNOCK_LIMIT_5 = '''
from ginsim import Strategy


class Brittle(Strategy):
    name = "brittle"

    def discard(self, view):
        if view.knock_limit == 5:
            raise RuntimeError("cannot play with a knock limit of 5")
        return max(view.discard_options())
'''


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    out = tmp_path_factory.mktemp("sweep") / "kl"
    table = sweep({"knock_limit": "5,10"}, ["simple,simple", "greedy,simple"], HANDS, seed=3, workers=1, out=out,
                  chunk_size=150)
    return out, table


def test_every_cell_is_the_run_made_alone(stored: tuple[Path, pd.DataFrame]) -> None:
    out, table = stored
    for cell in sweep_cells({"knock_limit": "5,10"}, ["simple,simple", "greedy,simple"]):
        alone = simulate(cell.rules, cell.players, HANDS, seed=3, workers=1)
        kept = RunDirectory.read(cell_directory(out, cell)).read_frame()
        pd.testing.assert_frame_equal(kept, alone)
    assert table["hands"].tolist() == [HANDS] * 4
    assert table[["knock_limit", "players"]].values.tolist() == [
        [5, "simple,simple"], [5, "greedy,simple"], [10, "simple,simple"], [10, "greedy,simple"]]


@pytest.mark.parametrize("hand", [0, 7, 123])
def test_every_cell_plays_the_same_deals(hand: int) -> None:
    cells = sweep_cells({"preset": "standard,oklahoma", "exhaustion": "draw,reshuffle"},
                        ["simple,simple", "random,gin"])
    played = [play_hand(cell.rules, cell.players, 11, hand) for cell in cells]
    assert all((other.deck, other.dealer) == (played[0].deck, played[0].dealer) for other in played[1:])


def test_the_differences_are_the_paired_comparison_of_the_cells(stored: tuple[Path, pd.DataFrame]) -> None:
    out, table = stored
    cells = sweep_cells({"knock_limit": "5,10"}, ["simple,simple", "greedy,simple"])
    assert table["reference"].tolist() == [True, False, False, False]
    assert (table.loc[0, [c for c in table if c.endswith("_diff")]] == 0).all()
    assert table.loc[0, [c for c in table if c.endswith("_p_holm")]].isna().all()
    for row, cell in enumerate(cells[1:], start=1):
        direct = compare_runs(cell_directory(out, cells[0]), cell_directory(out, cell)).set_index("measure")
        assert bool(direct["paired"].all())
        for measure in ("knock_rate", "gin_rate", "mean_points"):
            assert table.loc[row, f"{measure}_diff"] == pytest.approx(direct.loc[measure, "difference"])
            assert table.loc[row, f"{measure}_diff_low"] == pytest.approx(direct.loc[measure, "low"])
            assert table.loc[row, f"{measure}_diff_p_holm"] >= direct.loc[measure, "p_value"]


def test_a_grown_grid_plays_only_its_new_cells(stored: tuple[Path, pd.DataFrame], tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    out, _ = stored
    grown = tmp_path / "grown"
    sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=3, workers=1, out=grown, chunk_size=150)
    with caplog.at_level(logging.INFO, logger="ginsim"):
        table = sweep({"knock_limit": "0,5,10"}, "simple,simple", HANDS, seed=3, workers=1, out=grown,
                      chunk_size=150)
    reused = [record.getMessage() for record in caplog.records if "played before" in record.getMessage()]
    assert len(reused) == 2
    fresh = sweep({"knock_limit": "0,5,10"}, "simple,simple", HANDS, seed=3, workers=1)
    pd.testing.assert_frame_equal(table, fresh)


def test_a_stopped_sweep_resumes_to_the_same_table(tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    whole = sweep({"undercut_bonus": "10,50"}, "simple,simple", HANDS, seed=5, workers=1, out=out,
                  chunk_size=150)
    cells = sweep_cells({"undercut_bonus": "10,50"})
    for part in sorted(cell_directory(out, cells[1]).glob("part-*"))[1:]:
        part.unlink()  # as if stopped after its first chunk
    assert sweep({"undercut_bonus": "10,50"}, "simple,simple", HANDS, seed=5, workers=1, out=out,
                 chunk_size=150).equals(whole)


def test_presets_matches_and_a_chosen_reference() -> None:
    table = sweep({"preset": "standard,oklahoma"}, "simple,simple", matches=6, seed=2, workers=1,
                  reference={"preset": "oklahoma"})
    assert table["preset"].tolist() == ["standard", "oklahoma"] and table["reference"].tolist() == [False, True]
    alone = simulate_matches(Rules.preset("standard"), "simple,simple", 6, seed=2, workers=1)
    assert table.loc[0, "win_rate_0"] == pytest.approx((alone["winner"] == 0).mean())
    assert "win_rate_0_diff" in table


def test_by_a_deal_group_pairs_and_by_the_knock_limit_does_not() -> None:
    by_dealer = sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=1, workers=1, by="dealer")
    assert by_dealer["dealer"].tolist() == [0, 1, 0, 1]
    assert by_dealer.groupby("knock_limit")["hands"].sum().tolist() == [HANDS, HANDS]
    by_limit = sweep({"preset": "standard,oklahoma"}, "simple,simple", HANDS, seed=1, workers=1, by="knock_limit")
    assert set(by_limit.loc[by_limit["preset"] == "oklahoma", "knock_limit"]) <= set(range(11))
    assert (by_limit.loc[by_limit["preset"] == "standard", "knock_rate_diff"] == 0).all()
    assert by_limit.loc[by_limit["preset"] == "oklahoma", "knock_rate_diff"].notna().any()


def test_the_values_of_a_field() -> None:
    assert field_values("next_dealer", "loser,winner") == ["loser", "winner"]
    assert field_values("target", "none,100") == [None, 100]
    assert field_values("preset", ["standard", "eaai"]) == ["standard", "eaai"]


@pytest.mark.parametrize("grid, message", [
    ({"knock_limit": ""}, "knock_limit has an empty value"),
    ({"knock_limit": []}, "the grid gives knock_limit no values"),
    ({"knock_limit": "10..8"}, "the range '10..8' of knock_limit is empty"),
    ({"knock_limit": "5,5"}, "knock_limit lists 5 twice"),
    ({"knok_limit": "5,6"}, "unknown rules field 'knok_limit' (did you mean 'knock_limit'?)"),
    ({"knock_limit": "9..11"}, "knock_limit must be an integer from 0 to 10, got 11"),
    ({"oklahoma": "true,false", "knock_limit": "5"}, "the cell oklahoma=True, knock_limit=5 is not a valid rule set"),
    ({"exhaustion": "0..2"}, "exhaustion takes no range"),
    ({"preset": "standard,oklahma"}, "unknown rules preset 'oklahma'"),
    ({"knock_limit": "10"}, "the grid has a single cell"),
    ({"knock_limit": "0..10", "gin_bonus": "0..1000"}, "the grid has 11,011 cells, more than the 10,000"),
])
def test_bad_grids_are_refused(grid: dict[str, str], message: str) -> None:
    with pytest.raises(InputError) as error:
        sweep(grid, "simple,simple", 10, workers=1)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_sweep_too_large_is_refused_before_any_play(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"too large to play: 2 cells x 600,000,000,000 hands is 1,200,000,000,000, "
                                         r"more than the 1,000,000,000,000"):
        sweep({"knock_limit": "5,10"}, "simple,simple", 6 * 10**11, out=tmp_path / "big")
    assert not (tmp_path / "big").exists()


def test_a_directory_of_another_sweep_or_a_run_is_refused(stored: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    out, _ = stored
    with pytest.raises(InputError, match="holds a different sweep: seed 3 \\(not 4\\)"):
        sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=4, workers=1, out=out, chunk_size=150)
    simulate(Rules(), "simple,simple", 10, seed=1, workers=1, out=tmp_path / "run")
    with pytest.raises(InputError, match="holds a run; a sweep stores each cell in a directory of its own"):
        sweep({"knock_limit": "5,10"}, "simple,simple", 10, workers=1, out=tmp_path / "run")
    assert json.loads((out / SWEEP_FILE).read_text())["seed"] == 3


def test_a_failing_player_is_named_and_the_other_cells_kept(tmp_path: Path) -> None:
    bot = tmp_path / "brittle.py"
    bot.write_text(FAILS_AT_KNOCK_LIMIT_5)
    pair = [Player.of(f"{bot}:Brittle"), "simple"]
    out = tmp_path / "failing"
    with pytest.raises(InputError) as error:
        sweep({"knock_limit": "5,10"}, [pair], 50, seed=1, out=out)
    message = str(error.value)
    assert message.startswith("the cell knock_limit=5 | brittle vs simple failed: ") and "\n" not in message
    assert "cannot play with a knock limit of 5" in message and "the other 1 cells are kept in" in message
    kept = sweep_cells({"knock_limit": "5,10"}, [pair])[1]
    assert len(RunDirectory.read(cell_directory(out, kept)).read_frame()) == 50


def test_one_pool_of_workers_plays_every_cell_as_it_is_played_alone(tmp_path: Path) -> None:
    grid, pairs = {"knock_limit": "0,5,10"}, ["simple,simple", "greedy,simple"]
    pooled = sweep(grid, pairs, 600, seed=7, workers=2, chunk_size=100, out=tmp_path / "two", progress=False)
    pd.testing.assert_frame_equal(pooled, sweep(grid, pairs, 600, seed=7, workers=1))
    for cell in sweep_cells(grid, pairs):
        kept = RunDirectory.read(cell_directory(tmp_path / "two", cell)).read_frame()
        pd.testing.assert_frame_equal(kept, simulate(cell.rules, cell.players, 600, seed=7, workers=1))


def test_a_player_failing_in_the_pool_leaves_the_other_cells_to_play(tmp_path: Path) -> None:
    bot = tmp_path / "brittle.py"
    bot.write_text(FAILS_AT_KNOCK_LIMIT_5)
    pair = [Player.of(f"{bot}:Brittle"), "simple"]
    out = tmp_path / "failing"
    with pytest.raises(InputError, match="the cell knock_limit=5 \\| brittle vs simple failed: .*the other 2 cells"):
        sweep({"knock_limit": "5,10,0"}, [pair], 60, seed=1, workers=2, chunk_size=10, out=out, progress=False)
    for cell in sweep_cells({"knock_limit": "5,10,0"}, [pair])[1:]:  # played after the pool was stopped
        assert len(RunDirectory.read(cell_directory(out, cell)).read_frame()) == 60


def test_a_damaged_cell_is_named_by_its_part(stored: tuple[Path, pd.DataFrame], tmp_path: Path) -> None:
    out = tmp_path / "damaged"
    sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=3, workers=1, out=out, chunk_size=150)
    cell = sweep_cells({"knock_limit": "5,10"})[1]
    part = sorted(cell_directory(out, cell).glob("part-*"))[0]
    part.write_bytes(b"not parquet")
    with pytest.raises(InputError, match=f"the cell knock_limit=10 \\| simple vs simple failed: .*{part.name}"):
        sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=3, workers=1, out=out, chunk_size=150)
    repaired = sweep({"knock_limit": "5,10"}, "simple,simple", HANDS, seed=3, workers=1, out=out, chunk_size=150,
                     repair=True)
    assert repaired["hands"].tolist() == [HANDS, HANDS]


def test_the_command_line(tmp_path: Path) -> None:
    code, out, err = invoke("sweep", "--knock-limit", "0..10:5", "--players", "simple,simple", "--players",
                            "greedy,simple", "--hands", "300", "--workers", "1", "--plot", str(tmp_path / "s.png"),
                            "--parquet", str(tmp_path / "s.parquet"), "--csv", str(tmp_path / "s.csv"),
                            "--reference", "knock_limit=10", "--reference", "players=greedy,simple")
    assert code == 0, err
    source = " ".join(" ".join(out.splitlines()[:2]).split())  # the source line, wrapped at 80 columns
    assert "sweep of knock_limit 0..10:5 | simple,simple; greedy,simple | 300 hands per cell | seed 0" in source
    table = pd.read_parquet(tmp_path / "s.parquet")
    assert len(table) == 6 and table["reference"].tolist() == [False] * 5 + [True]
    assert pd.read_csv(tmp_path / "s.csv", comment="#")["knock_rate"].tolist() == pytest.approx(
        table["knock_rate"].tolist())
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    assert f"wrote {tmp_path / 's.png'}: 6 cells" in err.splitlines()  # where it wrote, on stderr
    code, out, err = invoke("sweep", "--rules", "standard,straight", "--matches", "4", "--workers", "1", "--json")
    assert code == 0, err and [row["preset"] for row in json.loads(out)["rows"]] == ["standard", "straight"]


@pytest.mark.parametrize("arguments, message", [
    (["--knock-limit", "0..12", "--hands", "10"], "knock_limit must be an integer from 0 to 10, got 11"),
    (["--knock-limit", "5,10"], "give exactly one of hands= or matches="),
    (["--knock-limit", "5,10", "--hands", "10", "--reference", "knock_limit"], "--reference takes FIELD=VALUE"),
    (["--knock-limit", "5,10", "--hands", "10", "--reference", "gin_bonus=20"], "the reference names 'gin_bonus'"),
    (["--knock-limit", "5,10", "--hands", "10", "--reference", "knock_limit=7"], "knock_limit=7 is not a cell"),
    (["--knock-limit", "5,10", "--hands", "10", "--x", "knock_limit"], "--x goes with --plot"),
    (["--knock-limit", "5,10", "--hands", "10", "--plot", "a.txt"], "cannot tell the figure format"),
    (["--knock-limit", "5,10", "--matches", "2", "--by", "dealer"], "a sweep of matches is summarised whole"),
    (["--players", "simple,simple", "--players", "simple,simple", "--hands", "10"], "players lists"),
])
def test_the_command_line_refuses_bad_input(arguments: list[str], message: str) -> None:
    code, out, err = invoke("sweep", "--workers", "1", *arguments)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow
def test_holm_is_statsmodels_holm() -> None:
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(7)
    for size in (1, 2, 9, 40):
        p_values = rng.random(size) ** 3
        p_values[: size // 3] = p_values[0]  # ties
        assert holm(p_values) == pytest.approx(multipletests(p_values, method="holm")[1])


def test_the_text_shows_what_changes_between_cells() -> None:
    """An undercut bonus changes the points, not the play: the text shows the points and their
    differences by default, and names the measures that are the same in every cell instead of printing
    their zero differences."""
    code, out, err = invoke("sweep", "--undercut-bonus", "10,50", "--hands", "2000", "--workers", "1")
    assert code == 0, err
    words = " ".join(out.split())
    assert "points_diff" in out and "knock_diff" not in out and "gin_diff" not in out
    assert "(the same in every cell, their differences 0 and not shown: knock, undercut, gin, draw," in words
    code, out, err = invoke("sweep", "--knock-limit", "5,10", "--hands", "2000", "--workers", "1")
    assert code == 0, err
    assert "knock_diff" in out and "turns_diff" in out and "the same in every cell" not in out


def test_summary_of_a_sweep_lists_its_cells(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, _, err = invoke("sweep", "--knock-limit", "5,10", "--hands", "300", "--workers", "1", "--out", str(out))
    assert code == 0, err
    code, shown, err = invoke("summary", str(out))
    assert code == 0, err
    assert shown.splitlines() == [
        f"{out} is a sweep of 2 cells, each a run directory (ginsim summary {out}/CELL):",
        "  knock_limit=5__simple-vs-simple", "      knock5 rules | simple vs simple | 300 hands | seed 0",
        "  standard__simple-vs-simple", "      standard rules | simple vs simple | 300 hands | seed 0"]
    code, shown, _ = invoke("summary", str(out), "--json")
    assert [cell["cell"] for cell in json.loads(shown)["cells"]] == ["knock_limit=5__simple-vs-simple",
                                                                     "standard__simple-vs-simple"]
    code, _, err = invoke("summary", str(out), "--by", "upcard")
    assert code == 2 and err.count("\n") == 1 and f"{out} is a sweep of 2 cells: summarise one cell" in err
    code, shown, err = invoke("summary", str(out / "standard__simple-vs-simple"))
    assert code == 0 and "standard rules | simple vs simple | 300 hands | seed 0" in shown, err
