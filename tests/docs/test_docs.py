"""The examples in docstrings and in the README run and print what they show."""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import gincore
import ginsim

# Every module of both packages has examples, except these: no behaviour of their own, or (the native
# hand loop) used only through the module that wraps it, ginsim.gin.game.native.
WITHOUT_EXAMPLES = {"ginsim._version", "gincore.errors", "gincore._records", "gincore._engine"}
MODULES = sorted(
    module.name
    for package in (gincore, ginsim)
    for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    if module.name not in WITHOUT_EXAMPLES
) + ["gincore", "ginsim"]
README = Path(__file__).resolve().parents[2] / "README.md"


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
