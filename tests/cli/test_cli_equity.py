"""``ginsim equity``: the printed grid, the whole table as CSV and JSON, the heatmap, the shipped tables,
and one line with exit status 2 for every mistake."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ginsim import Rules
from ginsim.gin.studies.equity import shipped_equity
from tests.cli_runner import invoke, unwrapped

SMALL = ("--target", "20", "--hands", "5000", "--workers", "1", "--replicates", "20")


def test_the_grid_of_a_table(test_seed: int) -> None:
    code, out, _ = invoke("equity", *SMALL, "--players", "greedy,simple", "--seed", str(test_seed), "--step", "5")
    lines = unwrapped(out).splitlines()  # the source line wraps at 80 columns
    assert code == 0
    assert lines[0].endswith(f"standard rules with target=20 | greedy vs simple | 5,000 hands | seed {test_seed}")
    assert lines[1].startswith("chance (%) that greedy wins from its score (rows) against simple's (columns)")
    header = next(line for line in lines if line.startswith("score"))
    assert header.split() == ["score", "0", "5", "10", "15"]
    rows = lines[lines.index(header) + 1: lines.index(header) + 5]
    assert [row.split()[0] for row in rows] == ["0", "5", "10", "15"]
    assert all(0 <= float(value) <= 100 for row in rows for value in row.split()[1:])
    assert "dealing the next hand is worth" in " ".join(out.split()) and max(len(line) for line in lines[1:]) <= 80


def test_the_whole_table_as_csv_and_json(tmp_path: Path) -> None:
    code, out, _ = invoke("equity", *SMALL, "--rules", "oklahoma", "--csv", str(tmp_path / "equity.csv"), "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["source"]["target"] == 20 and shown["source"]["players"] == ["simple", "simple"]
    assert len(shown["rows"]) == 2 * 20 * 20 and set(shown["rows"][0]) == {"score", "opponent_score", "dealer",
                                                                           "equity", "low", "high"}
    written = pd.read_csv(tmp_path / "equity.csv", comment="#")
    assert len(written) == 800 and list(written.columns) == ["score", "opponent_score", "dealer", "equity", "low",
                                                             "high"]
    assert (tmp_path / "equity.csv").read_text().startswith("# ginsim ")
    assert written["equity"].tolist() == pytest.approx([row["equity"] for row in shown["rows"]])


def test_the_heatmap(tmp_path: Path) -> None:
    code, _, err = invoke("equity", *SMALL, "--plot", str(tmp_path / "equity.png"), "--size", "9x4")
    assert code == 0 and (tmp_path / "equity.png").read_bytes()[:4] == b"\x89PNG"
    assert err.strip() == f"wrote {tmp_path / 'equity.png'}: the chance to win from every score"  # where it wrote


def test_the_shipped_table() -> None:
    code, out, _ = invoke("equity", "--rules", "oklahoma", "--shipped", "--step", "25")
    table = shipped_equity(Rules.preset("oklahoma"))
    assert code == 0 and table is not None
    assert unwrapped(out).splitlines()[0].endswith(table.attrs["run"])
    assert next(line for line in out.splitlines() if line.startswith("score")).split() == ["score", "0", "25", "50",
                                                                                           "75"]
    assert "100,000,000 hands" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "0"], "Invalid value for '--hands': 0 is not in the range x>=1"),
    (["--players", "simple,nobody"], "unknown strategy 'nobody'"),
    (["--target", "none"], "a match equity table needs a target"),
    (["--target", "0"], "target must be None (single-hand game) or an integer from 1 to 1000, got 0"),
    (["--step", "0"], "Invalid value for '--step'"),
    (["--target", "20", "--step", "21", "--hands", "100", "--workers", "1"], "step must be an integer from 1 to 20"),
    (["--plot", "equity.txt"], "cannot tell the figure format of 'equity.txt'"),
    (["--shipped", "--knock-limit", "7"], "no table ships with ginsim for standard rules with knock_limit=7"),
    (["--shipped", "--hands", "100"], "--shipped shows a table made before: --hands does not go with it"),
], ids=["hands", "players", "no-target", "target-0", "step", "step-too-large", "plot", "not-shipped",
        "shipped-and-hands"])
def test_mistakes_end_in_one_line_and_status_2(args: list[str], message: str) -> None:
    code, out, err = invoke("equity", *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
