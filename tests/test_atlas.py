"""The atlas of the variants is rebuilt by one command: at a tiny size it writes a page with a row for
every preset and kind of play, the command that made it, and its figure."""
from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from ginsim import PRESETS

ATLAS = Path(__file__).resolve().parents[1] / "docs" / "atlas.py"


def test_the_atlas_is_rebuilt_by_one_command(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("atlas", ATLAS)
    assert spec is not None and spec.loader is not None
    atlas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atlas)
    page = tmp_path / "atlas.md"
    arguments = argparse.Namespace(hands=200, matches=2, knock_hands=3, deals=1, seed=5, workers=1, page=page)
    text = atlas.build(arguments, tmp_path / "cells")
    assert "python docs/atlas.py --hands 200 --matches 2 --knock-hands 3 --deals 1 --seed 5" in text
    for preset in PRESETS:
        assert text.count(f"| {preset} | simple,simple |") == 1 and text.count(f"| {preset} | marjj:5,marjj:5 |") == 1
    assert (tmp_path / "atlas_gin_by_turn.png").read_bytes()[:4] == b"\x89PNG"
    curves = atlas._hand_rows(atlas.sweep({"preset": ",".join(PRESETS)}, list(atlas.PAIRS), 200, 5, workers=1,
                                          out=tmp_path / "cells" / "hands"), tmp_path / "cells" / "hands")[1]
    assert {pair for _, pair in curves} == set(atlas.PAIRS)  # a curve for both kinds of play
