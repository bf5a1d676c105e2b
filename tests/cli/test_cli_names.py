"""A player goes by one name wherever a person reads it: a built-in strategy without its trailing parameters
at their defaults (``marjj``, not ``marjj:5``), in every command's output as in tables and figures; a run
directory still stores the canonical name, which identifies the run."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_runner import invoke, unwrapped


@pytest.mark.parametrize("size", [["--hands", "30"], ["--matches", "3"]])
def test_run_names_its_players_as_the_tables_do(size: list[str], tmp_path: Path) -> None:
    code, out, err = invoke("run", "--players", "marjj,search:64", *size, "--seed", "2", "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = unwrapped(out)
    assert "marjj:5" not in text and "search:64" not in text, text
    assert "of marjj (player 0) vs search (player 1)" in text and "| marjj vs search |" in text
    assert "marjj, player 0," in text or "search, player 1," in text
    stored = json.loads((tmp_path / "r" / "_run.json").read_text())
    assert stored["players"] == ["marjj:5", "search:64:3:0"]  # what identifies the run is unchanged


def test_the_terminal_game_names_its_opponent_as_the_tables_do() -> None:
    code, out, err = invoke("play", "--against", "marjj", "--seed", "3", input="q\n")
    assert code == 0, err
    assert "you against marjj, a game to 100" in unwrapped(out) and "marjj:5" not in out


def test_a_replayed_match_and_the_knock_study_name_their_players_as_the_tables_do() -> None:
    code, out, err = invoke("replay", "--players", "greedy,marjj", "--seed", "3", "--match", "1")
    assert code == 0, err
    assert "player 0 greedy, player 1 marjj;" in out and "marjj:5" not in out
    code, out, err = invoke("when-to-knock", "--hands", "20", "--deals", "1", "--opponent", "marjj")
    assert code == 0, err
    assert "playing on as marjj against marjj" in unwrapped(out) and "marjj:5" not in out
