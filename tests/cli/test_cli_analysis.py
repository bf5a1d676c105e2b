"""Game records and their analysis on the command line: ``replay --match``, ``play --save``/``--hints``
and ``analyze``."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from ginsim import Rules, simulate_matches
from ginsim.gin.review.replay import GameRecord, record_match
from tests.cli_runner import invoke

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_replay_of_a_match_as_text_and_as_a_record(tmp_path: Path) -> None:
    code, out, err = invoke("replay", "--players", "greedy,simple", "--seed", "3", "--match", "1", "--target", "50",
                            "--json")
    assert code == 0, err
    record = GameRecord.from_json(json.loads(out))
    assert record == record_match(Rules(target=50), "greedy,simple", 3, 1)
    code, text, _ = invoke("replay", "--players", "greedy,simple", "--seed", "3", "--match", "1", "--target", "50",
                           "--letters")
    assert code == 0
    assert text.startswith(f"Match 1 of seed 3 under standard rules with target=50: player 0 greedy, player 1 simple; "
                           f"{len(record.hands)} hands")
    assert text.count("\nHand ") == len(record.hands)


def test_replay_of_a_match_of_a_run_directory(tmp_path: Path) -> None:
    out = tmp_path / "matches"
    table = simulate_matches(Rules(target=40), "greedy,simple", matches=4, seed=5, workers=1, out=out)
    code, shown, err = invoke("replay", str(out), "--match", "2", "--json")
    assert code == 0, err
    record = GameRecord.from_json(json.loads(shown))
    row = table[table["match"] == 2].iloc[0]
    assert record.totals == (row["total_0"], row["total_1"]) and len(record.hands) == row["hands"]
    for args, message in ((["--match", "9"], "match 9 is not in the run"), ([], "give --hand I or --match I"),
                          (["--match", "1", "--hand", "1"], "give --hand I or --match I"),
                          (["--match", "1", "--seed", "2"], "drop --seed")):
        code, _, err = invoke("replay", str(out), *args)
        assert code == 2 and message in err, err


def test_analyze_a_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, err = invoke("play", "--seed", "6", "--target", "15", "--against", "simple", "--save", str(path),
                            "--letters", input="\n" * 2000)
    assert code == 0, err
    assert f"is in {path}" in out
    record = GameRecord.load(path)
    assert record.players == ("you", "simple") and record.totals is not None and max(record.totals) >= 15
    code, text, err = invoke("analyze", str(path), "--player", "0", "--deals", "6", "--letters")
    assert code == 0, err
    count = len(record.hands)
    assert text.startswith(f"Analysis of a game of {count} hand{'s' if count > 1 else ''} under standard rules "
                           "with target=15")
    assert "Game:" in text and "simple " not in text.split("Game:")[1]
    code, shown, _ = invoke("analyze", str(path), "--deals", "6", "--json")
    data = json.loads(shown)
    assert {row["player"] for row in data["decisions"]} == {0, 1}
    assert [row["hand"] for row in data["summary"]][-2:] == ["game", "game"]


def test_analyze_a_position_written_by_hand(tmp_path: Path) -> None:
    """A position names no players: the header does not invent them ("player 0 player 0")."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"format": "ginsim-record", "version": 1, "rules": "standard", "position": {
        "player": 0, "dealer": 1, "hand": "AC 2C 3C 5H 6H 7H 2D 3D 4D TS KC", "drawn": "KC", "from_pile": False,
        "pile": "8C 7D 2S", "turns": 20, "opponent": {"took": "4S 5S 6S 9C 9D 9H JD QD KD", "passed": ""}}}))
    code, text, err = invoke("analyze", str(path), "--deals", "6", "--letters")
    assert code == 0, err
    assert text.splitlines()[0] == "Analysis of a position under standard rules"


@pytest.mark.slow
def test_hints_and_the_analysis_give_the_same_verdicts(tmp_path: Path) -> None:
    """Each hint before a decision names the best option, the next best, the margin between them and
    whether it is a close call exactly as the analysis of the saved game does, decision by decision
    (``benchmarks/hints_agreement.py`` measures the same over many games)."""
    spec = importlib.util.spec_from_file_location("hints_agreement", BENCHMARKS / "hints_agreement.py")
    assert spec is not None and spec.loader is not None
    agreement = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(agreement)
    decisions, wrong, _ = agreement.disagreements(8, 6, 10, "greedy", tmp_path)
    assert decisions > 0 and wrong == []


def test_analyze_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "ginsim-record", "version": 1, "rules": "standard", "hands": [
        {"dealer": 0, "dealt": ["AC", "2C"], "upcard": "3C", "stock": ""}]}))
    code, _, err = invoke("analyze", str(bad))
    assert code == 2 and err.startswith("Error: hands[0]: ") and err.count("\n") == 1


def test_enter_takes_the_hinted_move(tmp_path: Path) -> None:
    """With --hints, Enter takes the move the hint names and every question says so: a game answered with
    Enter alone makes, at each decision, the move that the analysis of the saved game (the hints' verdicts,
    from the same deals) calls best."""
    from ginsim.gin.review.analysis import analyze

    path = tmp_path / "game.json"
    code, out, err = invoke("play", "--seed", "5", "--target", "10", "--against", "greedy", "--hints", "--deals", "6",
                            "--save", str(path), "--letters", input="\n" * 5000)
    assert code == 0, err
    questions = re.findall(r"(?:Take the upcard|Draw from the stock|Discard which card|Knock with|Go gin|Go big gin)"
                           r"[^\n]*", out)
    assert questions and all("as hinted" in question for question in questions), questions
    table = analyze(GameRecord.load(path), player=0, deals=6)
    assert len(table) > 5
    assert (table["choice"] == table["best"]).all(), table.loc[table["choice"] != table["best"], ["choice", "best"]]


def test_the_analysis_shows_its_progress(capsys: pytest.CaptureFixture[str]) -> None:
    """A long analysis is not a silent wait: a bar of the positions valued on stderr (by default when it
    is a terminal), none when asked not to."""
    from ginsim.gin.review.analysis import analyze

    record = record_match(Rules(), "simple,greedy", 2, 0)
    quiet = analyze(record, player=0, deals=4, progress=False)
    assert capsys.readouterr().err == ""
    shown = analyze(record, player=0, deals=4, progress=True)
    err = capsys.readouterr().err
    assert " positions" in err and "100%" in err
    pd.testing.assert_frame_equal(quiet, shown)
