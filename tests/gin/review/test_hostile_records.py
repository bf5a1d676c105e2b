"""Game records and their analysis as a careless or hostile user meets them: files that are no record
(missing, a directory, nested too deeply, too large), fields of the wrong kind, games under rules that
reshuffle the stock, and the arguments of ``analyze``. Every mistake is one ``InputError`` line, and one
line with exit status 2 from ``ginsim analyze``."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from gincore.errors import InputError
from ginsim import GameRecord, Rules, analyze, play_hand, summarize_analysis
from ginsim.gin.review.notation import MAX_RECORD_BYTES
from tests.cli_runner import invoke

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

RESHUFFLE = Rules.preset("reshuffle")


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return GameRecord.of_hand(play_hand(Rules(), "simple,greedy", seed=2, index=0))


def one_line_error(args: list[str], message: str) -> str:
    code, out, err = invoke(*args)
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    return err


# --- files that are no record (items 7, 16) -----------------------------------------------------------

@pytest.mark.parametrize("text", ["[" * 200_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_a_record_nested_too_deeply(tmp_path: Path, text: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(InputError, match="is nested too deeply to be a game record"):
        GameRecord.load(path)
    one_line_error(["analyze", str(path)], "is nested too deeply to be a game record")


def test_parsed_json_nested_too_deeply(record: GameRecord) -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for field in ("players", "rules", "hands"):  # refused in one short line, whichever field it is
        with pytest.raises(InputError) as refused:
            GameRecord.from_json({**record.to_json(), field: deep})
        assert "\n" not in str(refused.value) and len(str(refused.value)) < 300, str(refused.value)[:300]


def test_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing.json cannot be read: No such file or directory"):
        GameRecord.load(tmp_path / "missing.json")
    with pytest.raises(InputError, match="missing.json cannot be read"):
        analyze(tmp_path / "missing.json")
    with pytest.raises(InputError, match="cannot be read: Is a directory"):
        GameRecord.load(tmp_path)
    one_line_error(["analyze", str(tmp_path / "missing.json")], "cannot be read: No such file or directory")


def test_a_file_larger_than_any_record(tmp_path: Path) -> None:
    path = tmp_path / "large.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)
    with pytest.raises(InputError, match="is larger than a game record can be"):
        GameRecord.load(path)


# --- fields of the wrong kind (items 8, 15) -----------------------------------------------------------

@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_the_version_is_the_integer_1(record: GameRecord, version: object) -> None:
    with pytest.raises(InputError, match="version: this is version 1 of the record format"):
        GameRecord.from_json({**record.to_json(), "version": version})


def test_a_traced_hand_of_another_game_is_refused() -> None:
    traced = play_hand(Rules(), "simple,greedy", seed=2).to_json()
    assert GameRecord.from_json(traced).hands
    with pytest.raises(InputError, match="game: records are of Gin games, got 'rummy'"):
        GameRecord.from_json({**traced, "game": "rummy"})


@pytest.mark.parametrize("pile", ["", " ", []])
def test_a_position_with_an_empty_pile(tmp_path: Path, pile: object) -> None:
    data = {"format": "ginsim-record", "version": 1, "rules": "standard",
            "position": {"player": 0, "dealer": 1, "hand": "AC 2C 3C 4D 5D 6D 9H 9S 9C KD", "pile": pile}}
    with pytest.raises(InputError, match="pile: the pile holds at least one card"):
        GameRecord.from_json(data)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    one_line_error(["analyze", str(path)], "pile: the pile holds at least one card")


# --- analyze's arguments (items 13, 15) ---------------------------------------------------------------

@pytest.mark.parametrize("table", ["x", None, pd.DataFrame({"hand": [0]})])
def test_summarize_analysis_takes_an_analysis(table: object) -> None:
    with pytest.raises(InputError, match="summarize_analysis takes the table analyze"):
        summarize_analysis(table)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [0, 5000, 1.5, True])
def test_analyze_workers_are_bounded(record: GameRecord, workers: object) -> None:
    with pytest.raises(InputError, match="workers must be a positive integer"):
        analyze(record, deals=2, workers=workers)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [float("nan"), 5.0, -0.5, "half", None])
def test_an_equity_function_must_return_a_chance(record: GameRecord, value: object) -> None:
    with pytest.raises(InputError, match="a chance to win is a number from 0 to 1"):
        analyze(record, deals=2, workers=1, equity=lambda mine, theirs, deals_next: value)  # type: ignore[arg-type,return-value]


# --- games under rules that reshuffle the stock (item 5) ----------------------------------------------

def reshuffled_hand() -> GameRecord:
    """The first hand of seed 0 under the reshuffle rules whose stock is shuffled again."""
    for index in range(500):
        hand = play_hand(RESHUFFLE, "simple,simple", seed=0, index=index)
        if hand.reshuffles:
            return GameRecord.of_hand(hand)
    raise AssertionError("no hand reshuffled in 500")


def test_a_game_under_reshuffle_rules_is_analysed(tmp_path: Path) -> None:
    record = reshuffled_hand()
    table = analyze(record, player=0, deals=2, workers=1)
    assert len(table) > 0 and (table["loss"] >= 0).all()
    path = tmp_path / "reshuffled.json"
    record.save(path)
    code, out, err = invoke("analyze", str(path), "--deals", "2", "--workers", "1", "--player", "1")
    assert code == 0, err
    assert "Traceback" not in err


# --- records whose hands do not follow under their rules (issue 42, item 10) --------------------------------

def _spade_game() -> dict[str, Any]:
    """An Oklahoma game (as JSON) in which a hand before the last is won with a spade upcard, so that its
    points were doubled."""
    from ginsim.gin.review.replay import record_match

    for match in range(50):
        data = record_match(Rules.preset("oklahoma"), "simple,greedy", 3, match).to_json()
        if any(hand["upcard"].endswith("S") and hand["result"]["points"] > 0 for hand in data["hands"][:-1]):
            return data
    raise AssertionError("no game with a doubled hand before its last")


@pytest.mark.parametrize("rules", ["standard", "oklahoma", "hollywood", "reshuffle", "straight", "eaai"])
def test_played_games_follow_their_rules(rules: str) -> None:
    """No false alarm: every game played under its rules loads, scores, dealers and totals as they were."""
    from ginsim.gin.review.replay import record_match

    preset = Rules(hollywood=True) if rules == "hollywood" else Rules.preset(rules)
    for match in range(4):
        record = record_match(preset, "simple,greedy", 11, match)
        assert GameRecord.from_json(record.to_json()) == record
    record = record_match(preset.replace(next_dealer="winner"), "greedy,simple", 5, 0)
    assert GameRecord.from_json(record.to_json()) == record


def test_an_oklahoma_game_read_under_standard_rules(tmp_path: Path) -> None:
    data = _spade_game()
    as_standard = {**data, "rules": {**data["rules"], "oklahoma": False}}
    with pytest.raises(InputError, match=r"result: the record says .* the decisions give"):
        GameRecord.from_json(as_standard)
    for hand in as_standard["hands"]:  # without the results it states, its scores still tell
        del hand["result"]
    with pytest.raises(InputError, match=r"^hands\[\d+\]: scores: the record says \d+ to \d+ before this hand; "
                                         r"the hands before it give \d+ to \d+ under standard rules.*other rules\?$"):
        GameRecord.from_json(as_standard)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(as_standard))
    one_line_error(["analyze", str(path)], "scores: the record says")


def test_scores_dealers_and_totals_that_do_not_follow() -> None:
    data = _spade_game()
    edited = json.loads(json.dumps(data))
    edited["hands"][1]["scores"] = [edited["hands"][1]["scores"][0] + 1, edited["hands"][1]["scores"][1]]
    with pytest.raises(InputError, match=r"^hands\[1\]: scores: the record says"):
        GameRecord.from_json(edited)
    edited = {**data, "totals": [data["totals"][0] + 1, data["totals"][1]]}
    with pytest.raises(InputError, match=r"^totals: the record says .* its hands give .* with the bonuses$"):
        GameRecord.from_json(edited)
    edited = {**data, "hands": data["hands"][:-1]}  # the game ends before its totals
    with pytest.raises(InputError, match=r"^totals: the record gives the game's totals, .* short of the target 100$"):
        GameRecord.from_json(edited)
    edited = {**data, "hands": [*data["hands"], data["hands"][-1]]}  # a hand after the end
    with pytest.raises(InputError, match=r"the game was over before this hand"):
        GameRecord.from_json(edited)


def test_new_stocks_under_rules_that_end_the_hand_drawn() -> None:
    """A record that gives a new stock where no move shuffles the pile (a hand drawn when the stock ran
    down, under rules that end it so, written with a reshuffle) is refused, not silently read."""
    for index in range(400):
        hand = play_hand(Rules(), "simple,simple", seed=5, index=index)
        if hand.outcome == "draw":
            break
    data = GameRecord.of_hand(hand).to_json()
    GameRecord.from_json(data)
    data["hands"][0]["reshuffles"] = [data["hands"][0]["stock"]]
    with pytest.raises(InputError, match=r"^hands\[0\]: reshuffles: the record gives 1 new stock, but no move of the "
                                         r"hand shuffles the pile \(standard rules end a hand drawn when the stock "
                                         r"runs down\): was it played under other rules\?$"):
        GameRecord.from_json(data)
