"""Game records and their analysis on the command line: ``replay --match``, ``play --save``/``--hints``
and ``analyze``."""
from __future__ import annotations

import json
import re
from pathlib import Path

from ginsim import Rules, simulate_matches
from ginsim.gin.analysis import analyze
from ginsim.gin.record import GameRecord, record_match
from tests.cli_runner import invoke


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


OPTION = (r"pass|take the upcard|take the top of the pile|draw from the stock|(?:discard|knock with|gin with) \w\w|"
          r"go big gin")
HINT = re.compile(rf"^Hint: (?:(?P<best>{OPTION}) \([-+]\d+\.\d points on average, (?P<margin>\d+\.\d) "
                  rf"\[.*\] more than (?P<runner>{OPTION})\)|a close call, (?P<close>{OPTION}) or (?P<other>{OPTION}) "
                  rf"\([-+]\d+\.\d points on average, (?P<apart>\d+\.\d) \[.*\] apart\))$")
WORDS = {"pass": "pass", "take the upcard": "take", "take the top of the pile": "pile", "draw from the stock": "stock",
         "go big gin": "big gin"}


def choice_of(words: str) -> str:
    return WORDS.get(words, words.replace("discard ", "").replace(" with ", " "))


def test_hints_and_the_analysis_give_the_same_verdicts(tmp_path: Path) -> None:
    """Each hint before a decision names the best option, its margin over the next best and whether it
    is a close call exactly as the analysis of the saved game does, decision by decision."""
    path = tmp_path / "game.json"
    code, out, err = invoke("play", "--seed", "8", "--target", "10", "--against", "greedy", "--hints", "--deals", "6",
                            "--save", str(path), "--letters", input="\n" * 2000)
    assert code == 0, err
    out = re.sub(r"\n {6}(?=\S)", " ", out)  # a hint's further lines
    before = [line for line in out.splitlines() if line.startswith("Hint: ") and
              not re.match(r"Hint: (knock|go gin|play on|a close call, (knock|go gin) or play on) \(", line)]
    assert before and "Analysis of the hand:" in out
    table = analyze(GameRecord.load(path), player=0, deals=6)
    assert len(before) == len(table)
    for line, row in zip(before, table.itertuples(), strict=True):
        hint = HINT.match(line)
        assert hint, line
        close = hint["close"] is not None
        best, runner, margin = (hint["close"], hint["other"], hint["apart"]) if close else \
            (hint["best"], hint["runner"], hint["margin"])
        assert (choice_of(best), choice_of(runner), close) == (row.best, row.options[1]["choice"], row.close), line
        assert abs(float(margin) - (row.best_value - row.options[1]["mean"])) <= 0.05 + 1e-9, line


def test_analyze_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "ginsim-record", "version": 1, "rules": "standard", "hands": [
        {"dealer": 0, "dealt": ["AC", "2C"], "upcard": "3C", "stock": ""}]}))
    code, _, err = invoke("analyze", str(bad))
    assert code == 2 and err.startswith("Error: hands[0]: ") and err.count("\n") == 1
