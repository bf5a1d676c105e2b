"""The numbers the documentation quotes come from the commands printed beside them: a sample of them
run again (``full_only``: minutes; ``pytest --full`` runs them), each compared with the page as printed.

docs/learning.md's headline table: ``ginsim tournament --rules eaai --players learned,OPPONENT
--matches N --seed 2027`` gives each row's games won with its 95% interval and the mean margin, and
``ginsim run --rules eaai --players learned,OPPONENT --hands 100000 --seed 2027`` its hands won.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli_runner import invoke

LEARNING = Path(__file__).resolve().parents[2] / "docs" / "learning.md"
ROW = re.compile(r"^\| `(?P<opponent>\w+)` \| (?P<games>[\d,]+) \| \**(?P<won>[\d.]+)% \[(?P<low>[\d.]+), "
                 r"(?P<high>[\d.]+)\]\** \| (?P<margin>[+−-][\d.]+) \| (?P<hands>[\d.]*)%? \|$")


def headline_rows() -> dict[str, re.Match[str]]:
    """The rows of docs/learning.md's table of the shipped policy, by opponent."""
    rows = {match["opponent"]: match for line in LEARNING.read_text().splitlines() if (match := ROW.match(line))}
    assert {"simple", "marjj"} <= set(rows)
    return rows


def test_the_headline_table_reads() -> None:
    rows = headline_rows()
    assert all(float(row["low"]) <= float(row["won"]) <= float(row["high"]) for row in rows.values())


@pytest.mark.slow
@pytest.mark.full_only
@pytest.mark.parametrize("opponent", ["simple", "marjj"])
def test_the_headline_table_reproduces(opponent: str) -> None:
    row = headline_rows()[opponent]
    games = int(row["games"].replace(",", ""))
    code, out, err = invoke("tournament", "--rules", "eaai", "--players", f"learned,{opponent}", "--matches",
                            str(games), "--seed", "2027", "--json")
    assert code == 0, err
    found = json.loads(out)["rows"][0]
    assert (f"{100 * found['win_rate']:.1f}", f"{100 * found['win_rate_low']:.1f}",
            f"{100 * found['win_rate_high']:.1f}") == (row["won"], row["low"], row["high"])
    assert f"{found['mean_margin']:+.1f}" == row["margin"].replace("−", "-")
    if row["hands"]:
        code, out, err = invoke("run", "--rules", "eaai", "--players", f"learned,{opponent}", "--hands", "100000",
                                "--seed", "2027", "--workers", "2")
        assert code == 0, err
        assert f"hands won: learned {row['hands']}% [" in " ".join(out.split())
