"""The examples in docstrings and in the README run and print what they show."""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "gincore", "gincore.cards", "gincore._melds", "ginsim", "ginsim.cli", "ginsim.hand", "ginsim.matches",
    "ginsim.rules", "ginsim.simulate", "ginsim.store", "ginsim.strategies", "ginsim.summary", "ginsim._native",
    "ginsim.tournament", "ginsim.exact", "gincore._exact", "ginsim.rummy", "ginsim.interactive", "ginsim.plot",
]
README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
