"""``ginsim play`` as a careless or hostile user meets it: a ``--save`` path that cannot be written is
refused before the first deal; one that fails by the end of the game gets the record written somewhere
else, said in one line; a read-only file is not replaced and a symbolic link stays a link; hints under
rules that reshuffle the stock. Through the real entry point."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

from gincore.errors import InputError
from ginsim import GameRecord
from ginsim.core.store import writable_file
from tests.cli_runner import invoke

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

GAME = ["play", "--seed", "6", "--target", "15", "--against", "simple", "--letters"]
ENTER_ONLY = "\n" * 4000


def refused_before_the_deal(save: Path, message: str) -> None:
    code, out, err = invoke(*GAME, "--save", str(save), input=ENTER_ONLY)
    assert code == 2, (code, out[-500:], err)
    assert out == "", "no card is dealt"
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and message in err, err


# --- checked before the first deal (item 1) ------------------------------------------------------------

def test_a_missing_folder(tmp_path: Path) -> None:
    refused_before_the_deal(tmp_path / "nowhere" / "game.json", "no directory")


def test_a_file_as_the_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    refused_before_the_deal(tmp_path / "file" / "game.json", "is not a directory")


def test_a_directory_as_the_file(tmp_path: Path) -> None:
    refused_before_the_deal(tmp_path, "is a directory")


def test_a_folder_that_takes_no_new_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only folder (made so by refusing to create files in it: the tests may run as root, whom
    a folder's mode does not stop)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).startswith(str(folder)) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    refused_before_the_deal(folder / "game.json", "cannot write")


def test_a_read_only_file_is_not_replaced(tmp_path: Path) -> None:
    kept = tmp_path / "kept.json"
    kept.write_text("mine")
    kept.chmod(stat.S_IRUSR | stat.S_IRGRP)
    refused_before_the_deal(kept, "is read-only: it is not replaced")
    assert kept.read_text() == "mine"
    with pytest.raises(InputError, match="is read-only"):
        writable_file(kept)


# --- kept somewhere when the path fails at the end anyway (item 1) --------------------------------------

def test_a_folder_removed_during_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ginsim.gin.review.interactive as interactive

    folder = tmp_path / "games"
    folder.mkdir()
    play_game = interactive.play_game

    def then_remove(*args: Any, **kwargs: Any) -> Any:
        result = play_game(*args, **kwargs)
        folder.rmdir()  # the folder goes while the game is played
        return result

    monkeypatch.setattr(interactive, "play_game", then_remove)
    code, out, err = invoke(*GAME, "--save", str(folder / "game.json"), input=ENTER_ONLY)
    assert code == 2, (code, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    found = re.search(r"is kept in (\S+) instead: ginsim analyze (\S+)", err)
    assert found and found[1] == found[2], err
    kept = Path(found[1])
    try:
        record = GameRecord.load(kept)
        assert record.hands and record.seed == 6
    finally:
        kept.unlink()


# --- links and hints (items 5, 16) ----------------------------------------------------------------------

def test_a_symbolic_link_stays_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, out, err = invoke(*GAME, "--save", str(link), input=ENTER_ONLY)
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert GameRecord.load(target).hands


def test_hints_under_reshuffle_rules(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, err = invoke("play", "--rules", "reshuffle", "--hints", "--deals", "2", "--seed", "3", "--target",
                            "10", "--against", "simple", "--letters", "--save", str(save), input=ENTER_ONLY)
    assert code == 0, (err, out[-1500:])
    assert "Hint: " in out and "Traceback" not in err
    assert GameRecord.load(save).hands
