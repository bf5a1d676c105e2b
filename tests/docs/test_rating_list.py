"""docs/strategies.md's rating list is the shipped file's (``ginsim/gin/data/ratings.json``), both made by
the command printed beside the table; ``tools/make_rating_list.py`` makes them, and resumes."""
from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

import pytest

from ginsim.gin.studies import rating_list
from ginsim.gin.studies.rating_list import milliseconds_text, rating_text, shipped

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "strategies.md"
BLOCK = re.compile(r"<!-- generated: rating-list -->\n(?P<body>.*?)<!-- end: rating-list -->", re.DOTALL)
ROW = re.compile(r"^\| `(?P<player>[\w:]+)` \| (?P<rating>[^|]+) \| (?P<games>[\d,]+) \| (?P<score>[\d.]+) \| "
                 r"(?P<ms>[\d.e-]+) \|$")


def test_the_pages_table_is_the_shipped_list() -> None:
    data = shipped()
    assert data is not None
    found = BLOCK.search(PAGE.read_text())
    assert found is not None
    body = found["body"]
    assert body.startswith(f"`{data['command']}` (`{data['rules']}` rules, duplicate deals, seed {data['seed']}; "
                           f"commit `{data['commit']}`, {data['date']}; ")
    rows = [match.groupdict() for line in body.splitlines() if (match := ROW.match(line))]
    assert rows == [{"player": row["player"], "rating": rating_text(row), "games": f"{row['games']:,}",
                     "score": f"{row['score']:.3f}", "ms": milliseconds_text(row["decision_ms"])}
                    for row in data["players"]], "run python docs/rules_tables.py (or tools/make_rating_list.py)"


def test_the_tool_makes_the_list_and_resumes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(rating_list, "ENTRANTS", ("random", "simple", "gin"))
    monkeypatch.setattr(rating_list, "GAMES", 4)
    tool = runpy.run_path(str(ROOT / "tools" / "make_rating_list.py"), run_name="tool")
    page = tmp_path / "strategies.md"
    page.write_text("before\n<!-- generated: rating-list -->\nold\n<!-- end: rating-list -->\nafter\n")
    monkeypatch.setitem(tool["main"].__globals__, "DATA", tmp_path / "ratings.json")
    monkeypatch.setitem(tool["main"].__globals__, "PAGE", page)
    out = tmp_path / "rr"
    tool["main"](["--out", str(out)])
    first = json.loads((tmp_path / "ratings.json").read_text())
    printed = capsys.readouterr().out
    assert "[1/3] random vs simple: 4 games, random won 0.0%" in printed
    assert first["command"] == f"python tools/make_rating_list.py --out {out}" and first["invocations"] == 1
    assert [row["player"] for row in first["players"]][-1] == "random"
    text = page.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert rating_list.markdown_block(first) in text and "Every pairing played 4 games (2 deal sequences" in text
    tool["main"](["--out", str(out)])  # again: every pairing read back, the time added up
    second = json.loads((tmp_path / "ratings.json").read_text())
    assert second["invocations"] == 2 and second["seconds"] >= first["seconds"]
    assert [{key: row[key] for key in ("player", "rating", "low", "high", "games", "score")}
            for row in second["players"]] == [{key: row[key] for key in ("player", "rating", "low", "high", "games",
                                                                          "score")} for row in first["players"]]
