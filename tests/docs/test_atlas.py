"""The atlas of the variants is rebuilt by one command: at a tiny size it writes a page with a row for
every preset and kind of play, the command that made it, and its figure."""
from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

import pytest

from ginsim import PRESETS

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters

ATLAS = Path(__file__).resolve().parents[2] / "docs" / "atlas.py"


def _atlas():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("atlas", ATLAS)
    assert spec is not None and spec.loader is not None
    atlas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atlas)
    return atlas


def test_the_atlas_is_rebuilt_by_one_command(tmp_path: Path) -> None:
    atlas = _atlas()
    page = tmp_path / "atlas.md"
    arguments = argparse.Namespace(hands=200, matches=2, knock_hands=10, deals=1, seed=5, workers=1, page=page,
                                   strong=atlas.STRONG)
    text = atlas.build(arguments, tmp_path / "cells")
    assert "python docs/atlas.py --hands 200 --matches 2 --knock-hands 10 --deals 1 --seed 5\n" in text
    for preset in PRESETS:
        assert text.count(f"| {preset} | simple,simple |") == 1 and text.count(f"| {preset} | marjj,marjj |") == 1
    assert (tmp_path / "atlas_gin_by_turn.png").read_bytes()[:4] == b"\x89PNG"
    kinds = atlas.pairs(arguments)
    curves = atlas._hand_rows(atlas.sweep({"preset": ",".join(PRESETS)}, list(kinds), 200, 5, workers=1,
                                          out=tmp_path / "cells" / "hands"), tmp_path / "cells" / "hands", kinds,
                              ",".join(PRESETS))[1]
    assert {pair for _, pair in curves} == set(kinds)  # a curve for both kinds of play
    standard = next(line for line in text.splitlines() if line.startswith("| standard | 10 |"))
    # Every threshold the study found comes with its bootstrap interval and agreement.
    assert re.search(r"\| \d+ \[\d+–\d+\] \d+% \|", standard), standard


def test_the_strong_pair_is_an_option(tmp_path: Path) -> None:
    atlas = _atlas()
    arguments = argparse.Namespace(hands=100, matches=2, knock_hands=4, deals=1, seed=5, workers=1,
                                   page=tmp_path / "atlas.md", strong="learned,learned")
    text = atlas.build(arguments, tmp_path / "cells")
    assert "--seed 5 --strong learned,learned" in text and "--players learned,learned" in text
    assert all(text.count(f"| {preset} | learned,learned |") == 1 for preset in ("standard", "eaai", "oklahoma"))
    assert "| knock5 |" not in text and "The presets straight, knock5, last-card, reshuffle are left out" in text
    assert "`learned`'s match win rate against `simple`" in text and "marjj" not in text


def test_the_atlas_help_is_whole() -> None:
    """``python docs/atlas.py --help`` gives the whole description and a help line for every option."""
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, str(ATLAS), "--help"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    words = " ".join(shown.stdout.split())
    assert "every number with its 95% interval." in words
    for option, default in (("--hands HANDS", "default 200000"), ("--matches MATCHES", "default 2000"),
                            ("--knock-hands KNOCK_HANDS", "default 1000"), ("--deals DEALS", "default 8"),
                            ("--seed SEED", "default 2026"), ("--workers WORKERS", "every core")):
        assert option in words and default in words
