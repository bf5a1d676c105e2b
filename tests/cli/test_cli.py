"""The command line: each command's output, and one-line errors with exit status 2."""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from ginsim import Rules, __version__, play_hand, simulate
from ginsim.gin.game.specs import SPECS
from ginsim.gin.studies.rating_list import milliseconds_text, rating_text, shipped
from tests.cli_runner import invoke, one_line_error, unwrapped


def test_version() -> None:
    assert invoke("--version")[1].strip() == f"ginsim, version {__version__}"


def test_hand_analysis() -> None:
    code, out, _ = invoke("hand", "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]", "--knock-limit", "5")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "deadwood: 15"
    assert "  1. [7H 8H 9H] [2S 3S 4S] [9C 9D 9S]  deadwood: 5D KD" in lines
    assert lines[lines.index("discards (knock limit 5):") + 1].split() == ["KD", "leaves", "5", "knock"]
    code, out, _ = invoke("hand", "AC 2C 3C 4C 5D 5H 5S 9S TS JS QS", "--json")
    report = json.loads(out)
    assert report["deadwood"] == 0 and any(d["ends_hand"] == "gin" for d in report["discards"])


def test_run_summary_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "okla"
    code, text, _ = invoke("run", "--rules", "oklahoma", "--hands", "3000", "--seed", "5", "--workers", "1",
                           "--out", str(out))
    assert code == 0, text
    assert text.startswith("3000 hands of simple (player 0) vs simple (player 1), seed 5")
    records = simulate(Rules.preset("oklahoma"), "simple,simple", 3000, 5, workers=1)
    assert pd.read_parquet(out).sort_values("hand").reset_index(drop=True)["points"].equals(records["points"])
    code, again, _ = invoke("run", "--rules", "oklahoma", "--hands", "3000", "--seed", "5", "--workers", "1",
                            "--out", str(out))
    assert code == 0 and again == text
    csv = tmp_path / "rates.csv"
    code, table, _ = invoke("summary", str(out), "--by", "upcard_rank", "--csv", str(csv))
    assert code == 0
    lines = table.splitlines()
    assert lines[0].endswith("| oklahoma rules | simple vs simple | 3,000 hands | seed 5")  # what made it
    assert lines[1].split()[:3] == ["upcard_rank", "hands", "knock"]
    assert len(lines[2:lines.index(next(line for line in lines if line.startswith("(knock counts")))]) == 13
    assert max(len(line) for line in lines) <= 80
    assert pd.read_csv(csv, comment="#")["hands"].sum() == 3000
    assert csv.read_text().startswith("# ginsim ")
    code, text, _ = invoke("summary", str(out), "--by", "none", "--json")
    shown = json.loads(text)
    assert shown["rows"][0]["hands"] == 3000 and shown["source"]["seed"] == 5 and shown["source"]["size"] == 3000
    assert shown["notes"][0].startswith("knock counts every hand ended by a knock, undercut or not")


def test_run_with_rule_fields_and_matches() -> None:
    code, text, _ = invoke("run", "--knock-limit", "5", "--big-gin-bonus", "31", "--hands", "500", "--workers", "1")
    assert code == 0 and "500 hands" in text
    code, text, _ = invoke("run", "--matches", "20", "--players", "greedy,simple", "--workers", "1",
                           "--hollywood", "true")
    text = unwrapped(text)
    assert code == 0 and "20 matches of greedy (player 0) vs simple (player 1)" in text
    assert text.splitlines()[1].endswith("standard rules with hollywood=True | greedy vs simple | 20 matches | seed 0")
    assert "win 0" in text.splitlines()[2]


def test_run_matches_on_duplicate_deals(tmp_path: Path) -> None:
    code, text, _ = invoke("run", "--matches", "20", "--players", "gin,simple", "--duplicate", "--workers", "1",
                           "--out", str(tmp_path / "run"))
    text = unwrapped(text)
    assert code == 0 and text.startswith("20 matches, each played again with the seats swapped, of gin (player 0)")
    lines = text.splitlines()
    assert lines[1].endswith("gin vs simple | 20 matches x 2 (duplicate deals) | seed 0")
    assert lines[2].split() == ["matches", "win", "0", "win", "1", "margin_0", "shutout", "hands", "width_ratio"]
    assert lines[3].split()[0] == "40"
    code, summary, _ = invoke("summary", str(tmp_path / "run"))
    assert code == 0 and unwrapped(summary).splitlines() == lines[1:]
    code, _, err = invoke("run", "--matches", "20", "--players", "gin,simple", "--workers", "1",
                          "--out", str(tmp_path / "run"))
    assert code == 2 and "holds a different run: duplicate True (not None)" in err


def test_tournament_prints_pairs_then_ratings(tmp_path: Path) -> None:
    args = ["tournament", "--players", "simple,gin,random", "--matches", "6", "--workers", "1"]
    code, text, _ = invoke(*args, "--csv", str(tmp_path / "pairs.csv"), "--ratings-csv", str(tmp_path / "ratings.csv"))
    text = unwrapped(text)
    assert code == 0
    source = "standard rules | simple, gin, random | 6 matches per pair, duplicate deals | seed 0"
    blocks = text.split("\n\n")
    assert blocks[0].splitlines()[0].endswith(source) and blocks[1].splitlines()[0].endswith(source)
    assert blocks[0].splitlines()[1].split() == ["player", "opponent", "matches", "win", "margin", "hands",
                                                 "width_ratio"]
    assert blocks[1].splitlines()[1].split() == ["player", "games", "score", "rating"]
    note = " ".join(blocks[1].split())
    assert "simple fixed at 0" in note and "from the deal pairs" in note
    assert blocks[2].startswith("match win rate of the row player")
    assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("ginsim "))
    pairs = pd.read_csv(tmp_path / "pairs.csv", comment="#")
    assert {"wins", "losses", "pair_score_sd", "width_ratio"} <= set(pairs.columns) and len(pairs) == 3
    rated = pd.read_csv(tmp_path / "ratings.csv", comment="#")
    assert rated.loc[rated["player"] == "simple", "rating"].item() == 0
    assert (tmp_path / "ratings.csv").read_text().startswith("# ginsim ")
    code, text, _ = invoke(*args, "--json", "--no-duplicate", "--matches", "5")
    shown = json.loads(text)
    assert code == 0 and shown["source"]["duplicate"] is False and len(shown["rows"]) == 3
    assert [row["player"] for row in shown["ratings"]["rows"]][-1] == "random"
    assert "Wilson" in shown["notes"][0] and "quasi" not in shown["ratings"]["notes"][0]


def test_a_tournament_of_one_deal_sequence_a_pair_rates_the_pairs(test_seed: int) -> None:
    """With --matches 2 the table cannot show that its games were paired; the ratings are still the pairs'."""
    from ginsim import tournament
    from ginsim.gin.studies.ratings import ratings

    players = ["simple", "greedy", "gin"]
    for seed in range(test_seed, test_seed + 200):  # the first whose pairs and games give other intervals
        table = tournament(Rules(), players, 2, seed, workers=1)
        paired = ratings(table, duplicate=True)
        if not paired.equals(ratings(table)):
            break
    else:
        pytest.fail("200 seeds and no table whose paired intervals differ")
    code, text, err = invoke("tournament", "--players", ",".join(players), "--matches", "2", "--workers", "1",
                             "--seed", str(seed), "--json")
    assert code == 0 and err == "", err  # no warning from the fit either
    shown = json.loads(text)
    assert "every pair played 1 deal sequence twice" in shown["notes"][0]
    assert "from the deal pairs" in shown["ratings"]["notes"][0]
    assert [row["player"] for row in shown["ratings"]["rows"]] == paired["player"].tolist()
    for row, expected in zip(shown["ratings"]["rows"], paired.itertuples(), strict=True):
        for key in ("rating", "rating_low", "rating_high"):  # a player beyond the rest has no finite rating
            value = getattr(expected, key)
            assert row[key] == pytest.approx(value) if math.isfinite(value) else not math.isfinite(row[key] or math.nan)


def test_tournament_anchors_the_ratings_where_asked(test_seed: int) -> None:
    args = ["tournament", "--players", "simple,gin,marjj", "--matches", "20", "--workers", "1", "--seed",
            str(test_seed), "--json"]
    code, text, err = invoke(*args)
    assert code == 0, err
    plain = {row["player"]: row["rating"] for row in json.loads(text)["ratings"]["rows"]}
    for anchor, player, level in (("simple=1500", "simple", 1500), ("marjj=-20.5", "marjj:5", -20.5),
                                  ("marjj:5=7", "marjj:5", 7)):
        code, text, err = invoke(*args, "--anchor", anchor)
        assert code == 0, err
        shown = json.loads(text)
        rows = {row["player"]: row for row in shown["ratings"]["rows"]}
        assert rows[player]["rating"] == rows[player]["rating_low"] == rows[player]["rating_high"] == level
        # The same fit moved as a whole (short tournaments may leave a player beyond the rest: no finite shift).
        moved = {name: rating + level - plain[player] for name, rating in plain.items() if math.isfinite(rating)}
        if math.isfinite(plain[player]):
            assert {name: rows[name]["rating"] for name in moved} == pytest.approx(moved)
        assert f"{player} fixed at {level:g}" in shown["ratings"]["notes"][0]
        assert shown["source"]["anchor"] == {"player": player, "rating": level}


@pytest.mark.parametrize(("anchor", "message"), [
    ("simple", "write the anchor as NAME=RATING, e.g. simple=1500; got 'simple'"),
    ("simple=high", "got 'simple=high'"), ("=1500", "got '=1500'"), ("simple=nan", "got 'simple=nan'"),
    ("marjj=1500", "the anchor marjj is not one of the players (simple, gin)"),
    ("nobody=1500", "unknown strategy 'nobody'")])
def test_tournament_refuses_a_bad_anchor_in_one_line(anchor: str, message: str) -> None:
    one_line_error(["tournament", "--players", "simple,gin", "--matches", "4", "--workers", "1", "--anchor", anchor],
                   message)


def test_a_stored_tournament_resumes_and_says_so(tmp_path: Path) -> None:
    args = ["tournament", "--players", "simple,gin,random", "--matches", "8", "--workers", "1", "--chunk-size", "2",
            "--out", str(tmp_path / "rr")]
    code, text, err = invoke(*args)
    assert code == 0 and err == ""
    assert sorted(entry.name for entry in (tmp_path / "rr").iterdir()) == [
        "gin-vs-random", "gin-vs-simple", "random-vs-simple"]
    next(iter(sorted((tmp_path / "rr" / "gin-vs-simple").glob("part-*")))).unlink()
    code, again, err = invoke(*args)
    assert code == 0 and again == text
    notices = err.splitlines()
    assert len(notices) == 3 and "gin-vs-simple: resuming: 1 of 2 chunks were played before" in notices[0]
    assert all("playing nothing" in notice for notice in notices[1:])
    code, _, err = invoke(*args[:-2], "--matches", "6", "--out", str(tmp_path / "rr"))
    assert code == 2 and "gin-vs-simple holds a larger run: size" in err and len(err.splitlines()) == 1


def test_replay_shows_the_hand_of_the_run() -> None:
    code, text, _ = invoke("replay", "--rules", "eaai", "--seed", "3", "--hand", "11")
    assert code == 0
    assert text.strip() == play_hand(Rules.preset("eaai"), "simple,simple", 3, 11).to_text()


@pytest.mark.parametrize("args, message", [
    (["hand", "AC 1X"], "unknown card '1X'"),
    (["hand", "AC AC"], "duplicate card AC"),
    (["run", "--hands", "0"], "0 is not in the range x>=1"),
    (["run", "--hands", "5", "--rules", "oklahma"], "'oklahma' is not one of"),
    (["run", "--hands", "5", "--knock-limit", "11"], "knock_limit must be an integer from 0 to 10, got 11"),
    (["run", "--hands", "5", "--oklahoma", "maybe"], "oklahoma"),
    (["run", "--hands", "5", "--players", "simple,smiple"], "did you mean 'simple'"),
    (["run", "--hands", "5", "--players", "simple"], "exactly two players"),
    (["run"], "give exactly one of --hands N or --matches N"),
    (["run", "--hands", "5", "--teams", "2"], "--teams goes with --matches"),
    (["run", "--hands", "5", "--duplicate"], "--duplicate goes with --matches"),
    (["tournament", "--players", "simple,gin", "--matches", "5"], "matches must be even with duplicate deals"),
    (["tournament", "--players", "simple,gin", "--matches", "2", "--repair"], "--repair mends a run directory"),
    (["run", "--hands", "5", "--scheduler", "tcp://127.0.0.1:1"], "a scheduler address goes with backend='dask'"),
    (["run", "--hands", "5", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"],
     "cannot reach the Dask scheduler at tcp://127.0.0.1:1"),
    (["summary", "."], "is not a ginsim run directory"),
    (["summary", "missing-directory"], "does not exist"),
    (["replay", "--hand", "-1"], "-1 is not in the range x>=0"),
    (["rnu"], "No such command 'rnu'"),
])
def test_errors_are_one_line_with_status_2(args: list[str], message: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("Error: ") and message in err
    assert "Traceback" not in err


def test_run_into_another_runs_directory(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--hands", "100", "--workers", "1", "--out", str(out))[0] == 0
    code, _, err = invoke("run", "--hands", "100", "--seed", "9", "--workers", "1", "--out", str(out))
    assert code == 2 and "holds a different run: seed 0 (not 9)" in err
    (out / "part-000000000000000.parquet").write_bytes(b"garbage")
    code, _, err = invoke("summary", str(out))
    assert code == 2 and "is not a readable Parquet file" in err


def test_rummy_runs_and_summaries(tmp_path: Path) -> None:
    out = tmp_path / "rummy"
    code, text, _ = invoke("rummy", "run", "--players", "greedy,greedy,random", "--hands", "3000",
                           "--workers", "1", "--out", str(out))
    assert code == 0, text
    assert text.startswith("3000 rummy hands of greedy (player 0) vs greedy (player 1) vs random (player 2)")
    assert "win_rate_3" not in text  # seats the table did not have are left out
    code, table, _ = invoke("summary", str(out), "--by", "seat")
    assert code == 0 and len(unwrapped(table).splitlines()) == 1 + 4
    code, table, _ = invoke("summary", str(out))
    assert code == 0 and unwrapped(table).splitlines()[1].split()[0] == "players"  # a Rummy run's own default grouping
    code, text, _ = invoke("rummy", "run", "--players", "greedy,random", "--games", "30", "--target", "50",
                           "--workers", "1")
    assert code == 0 and "30 rummy games" in text
    code, text, _ = invoke("rummy", "replay", "--players", "greedy,random", "--hand", "4", "--letters")
    assert code == 0 and text.startswith("Rummy hand 4 of seed 0: seat 0 greedy, seat 1 random")
    code, text, _ = invoke("rummy", "rules")
    assert code == 0 and "max_turnovers" in text
    code, text, _ = invoke("rummy", "strategies")
    assert code == 0 and text.split()[0] == "random"


@pytest.mark.parametrize("args, message", [
    (["rummy", "run", "--players", "greedy", "--hands", "5"], "needs 2 to 6 players"),
    (["rummy", "run", "--players", "greedy,greedy", "--hands", "5", "--target", "0"], "target must be"),
    (["rummy", "run", "--players", "greedy,greedy"], "give exactly one of --hands N or --games N"),
    (["rummy", "run", "--players", "greedy,greedy", "--hands", "5", "--stream"], "No such option '--stream'"),
    (["run", "--players", "greedy,greedy", "--hands", "5", "--target", "0"], "target must be"),
    (["run", "--game", "rummy", "--hands", "5"], "No such option '--game'"),
    (["rummy", "play"], "No such command 'play'"),
])
def test_rummy_errors(args: list[str], message: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_hand_with_defender_shows_the_showdown() -> None:
    code, out, _ = invoke("hand", "6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD", "--defender",
                          "2H 3H 4H QC QD QH QS 9H 7S AC")
    assert code == 0
    assert "discarding KD: knocker deadwood 5" in out  # docs/rules.md#scoring-a-hand, the example
    assert "defender deadwood 8, lays off 9H; knock, the knocker scores 3" in " ".join(out.split())  # wrapped
    code, out, _ = invoke("hand", "AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "--defender", "KC KD KH 2S 3S 4S 5S 6S 7S 8S",
                          "--json")
    showdown = json.loads(out)["showdown"]["showdowns"][0]
    assert (showdown["outcome"], showdown["winner"], showdown["points"]) == ("undercut", "defender", 35)
    code, out, _ = invoke("hand", "AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "--knock-limit", "5", "--defender",
                          "KC KD KH 2S 3S 4S 5S 6S 7S 8S")
    assert "cannot knock: deadwood 10 is over the limit 5" in out
    code, _, err = invoke("hand", "AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "--defender", "AC 2D 3D 4D 5D 6H 7S 8S 9S TS")
    assert code == 2 and "the hands share AC" in err


# --- ginsim strategies: the rating list -------------------------------------------------------------------

def _blocks(text: str) -> dict[str, list[str]]:
    """The lines of ``ginsim strategies`` under each strategy's heading, by strategy; the rest under ''."""
    blocks: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            name = re.split(r"[(\s]", line, maxsplit=1)[0]
            current = name if name in SPECS else ""
            if current:
                continue
        blocks.setdefault(current, []).append(line)
    return blocks


def test_strategies_show_each_rating_and_decision_time_of_the_shipped_list() -> None:
    listed = shipped()
    assert listed is not None
    code, out, err = invoke("strategies")
    assert code == 0 and err == "" and max(len(line) for line in out.splitlines()) <= 80
    blocks = _blocks(out)
    for row in listed["players"]:
        named = f"{row['player']}: " if row["player"] != row["strategy"] else ""
        line = f"{named}rating {rating_text(row)}; {milliseconds_text(row['decision_ms'])} ms per decision"
        assert line in " ".join(" ".join(blocks[row["strategy"]]).split()), row
    assert " ".join(blocks[""]) == f"Rated ({listed['rules']} rules, 95% intervals) and timed by {listed['command']}"
    code, out, _ = invoke("strategies", "--json")
    ratings = {entry["name"]: entry["ratings"] for entry in json.loads(out)}
    assert code == 0 and sum(len(rows) for rows in ratings.values()) == len(listed["players"])
    assert ratings["simple"] == [{"player": "simple", "rating": 1500.0, "low": 1500.0, "high": 1500.0,
                                  "games": ratings["simple"][0]["games"],
                                  "decision_ms": ratings["simple"][0]["decision_ms"]}]


def test_strategies_outside_the_list_show_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    listed = shipped()
    assert listed is not None
    command = sys.modules["ginsim.cli.run"]
    only_simple = {**listed, "players": [row for row in listed["players"] if row["player"] == "simple"]}
    monkeypatch.setattr(command, "shipped", lambda: only_simple)
    code, out, _ = invoke("strategies")
    blocks = _blocks(out)
    assert code == 0 and "    rating 1500 (anchor); " in "\n".join(blocks["simple"])
    assert [name for name, lines in blocks.items() if "ms per decision" in "\n".join(lines)] == ["simple"]
    monkeypatch.setattr(command, "shipped", lambda: None)
    code, bare, _ = invoke("strategies")
    assert code == 0 and "ms per decision" not in bare and "Rated" not in bare and "" not in _blocks(bare)
    code, out, _ = invoke("strategies", "--json")
    assert code == 0 and all(entry["ratings"] == [] for entry in json.loads(out))
