"""Hands grouped by turn, knocker, winner and first: the counts add up to the run's, streamed runs agree
with records, comparisons by what the play decides are unpaired, and the turn curves end at the rates."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gincore.errors import InputError
from ginsim import Rules, compare_runs, simulate, summarize, sweep
from ginsim.gin.studies.curves import turn_curves
from ginsim.gin.studies.groups import TURN_BINS, knocker_of, turn_bins
from tests.cli_runner import invoke

HANDS = 3000


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, pd.DataFrame]:
    folder = tmp_path_factory.mktemp("groups")
    records = simulate(Rules(), "greedy,simple", HANDS, seed=4, workers=1, out=folder / "standard")
    simulate(Rules(knock_limit=5), "greedy,simple", HANDS, seed=4, workers=1, out=folder / "knock5")
    simulate(Rules(), "greedy,simple", HANDS, seed=4, workers=1, out=folder / "streamed", stream=True)
    return folder / "standard", folder / "knock5", folder / "streamed", records


def test_by_turn_counts_add_up_to_the_run(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    records = runs[3]
    table = summarize(records, by="turn")
    shown = [str(turn) for turn in table["turn"]]
    assert table["hands"].sum() == HANDS and shown == [turn for turn in TURN_BINS if turn in shown]
    expected = pd.Series(turn_bins(records["turns"])).value_counts()
    assert {str(turn): int(hands) for turn, hands in zip(table["turn"], table["hands"], strict=True)} == {
        str(turn): int(hands) for turn, hands in expected.items() if hands}
    whole = summarize(records, by=None)
    for rate in ("knock", "gin", "undercut", "draw"):
        counted = (table[f"{rate}_rate"] * table["hands"]).sum()
        assert counted == pytest.approx(whole[f"{rate}_rate"].iloc[0] * HANDS)
    by_turn_and_dealer = summarize(records, by=["turn", "dealer"])
    assert by_turn_and_dealer["hands"].sum() == HANDS


def test_the_knocker_is_the_records_knocker(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    records = runs[3]
    codes = pd.Categorical(records["outcome"], categories=["knock", "undercut", "gin", "big_gin", "draw"]).codes
    assert (knocker_of(np.asarray(codes), records["winner"].to_numpy()) == records["knocker"].to_numpy()).all()


@pytest.mark.parametrize("by", ["knocker", "winner", "first", ["first", "winner"], ["knocker", "upcard_rank"]])
def test_streamed_counts_group_as_records_do(runs: tuple[Path, Path, Path, pd.DataFrame], by: str | list[str]) -> None:
    streamed, records = runs[2], runs[3]
    pd.testing.assert_frame_equal(summarize(streamed, by=by), summarize(records, by=by))


def test_the_groups_mean_what_they_say(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    records = runs[3]
    by_winner = summarize(records, by="winner").set_index("winner")
    assert by_winner.loc[-1, "draw_rate"] == 1 and by_winner.loc[0, "win_rate_0"] == 1
    assert by_winner["hands"].to_dict() == records["winner"].value_counts().to_dict()
    by_first = summarize(records, by="first").set_index("first")
    assert by_first.loc[0, "hands"] == (records["dealer"] == 1).sum()
    by_knocker = summarize(records, by="knocker").set_index("knocker")
    assert by_knocker.loc[-1, "draw_rate"] == 1 and by_knocker.loc[0, "hands"] == (records["knocker"] == 0).sum()


def test_a_streamed_run_cannot_be_grouped_by_turn(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    with pytest.raises(InputError, match="grouping by turn needs a record per hand"):
        summarize(runs[2], by="turn")
    code, _, err = invoke("summary", str(runs[2]), "--by", "turn")
    assert code == 2 and "a streamed run keeps counts only" in err and len(err.strip().splitlines()) == 1
    code, _, err = invoke("plot", str(runs[2]), "--curves", "-o", str(runs[2].parent / "c.png"))
    assert code == 2 and "keeps no draws per hand" in err


def test_comparisons_by_what_the_play_decides_are_unpaired(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    standard, knock5 = runs[0], runs[1]
    by_turn = compare_runs(standard, knock5, by="turn")
    assert not by_turn["paired"].any() and set(by_turn["turn"].astype(str)) <= set(TURN_BINS)
    assert bool(compare_runs(standard, knock5, by="first")["paired"].all())
    with pytest.raises(InputError, match="runs grouped by knocker cannot be paired"):
        compare_runs(standard, knock5, by="knocker", paired=True)
    code, out, err = invoke("compare", str(standard), str(knock5), "--by", "winner")
    assert code == 0 and "as independent samples" in out, err


def test_the_turn_curves_end_at_the_rates(runs: tuple[Path, Path, Path, pd.DataFrame]) -> None:
    records = runs[3]
    curves = turn_curves(records)
    whole = summarize(records, by=None).iloc[0]
    for name, rate in (("all", None), ("knock", "knock_rate"), ("gin", "gin_rate"), ("undercut", "undercut_rate"),
                       ("draw", "draw_rate")):
        curve = curves[curves["outcome"] == name]
        assert (np.diff(curve["hands"]) >= 0).all() and curve["turn"].tolist() == list(range(len(curve)))
        assert curve["share"].iloc[-1] == pytest.approx(1.0 if rate is None else whole[rate])
        assert (curve["share_low"] <= curve["share"]).all() and (curve["share"] <= curve["share_high"]).all()
    assert curves[curves["outcome"] == "all"]["hands"].iloc[int(records["turns"].median())] >= HANDS // 2


def test_the_command_line_draws_and_summarises_by_turn(runs: tuple[Path, Path, Path, pd.DataFrame],
                                                       tmp_path: Path) -> None:
    standard = runs[0]
    code, out, err = invoke("summary", str(standard), "--by", "turn", "--by", "knocker")
    assert code == 0 and out.splitlines()[1].split()[:3] == ["turn", "knocker", "hands"], err
    for arguments in (["--by", "turn"], ["--curves"]):
        figure = tmp_path / f"{arguments[0]}.png"
        code, out, err = invoke("plot", str(standard), *arguments, "-o", str(figure))
        assert code == 0 and figure.read_bytes()[:4] == b"\x89PNG", err
    code, _, err = invoke("plot", str(standard), "--curves", "--by", "turn", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "leave out --by" in err


def test_a_sweep_by_turn_is_unpaired() -> None:
    table = sweep({"knock_limit": "5,10"}, "simple,simple", 600, seed=1, workers=1, by="turn")
    assert table.groupby("knock_limit")["hands"].sum().tolist() == [600, 600]
    assert table.loc[~table["reference"], "knock_rate_diff"].notna().all()
