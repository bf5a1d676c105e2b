"""Every install line a person copies installs this project: from a clone (``pip install '.[web]'``) or by
the distribution's own name on the package index (``ginsim`` there is another project's), with extras the
project has; the import packages and the ``ginsim`` command keep their names."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ginsim._version import DISTRIBUTION, install_command

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = set(PROJECT["optional-dependencies"])
OTHERS = {"jupyterlab", "open-spiel", "rlcard"}
"""Other projects the docs tell to install, by their own names."""
PAGES = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md"])
SOURCES = sorted((ROOT / "src").rglob("*.py"))


def install_lines(text: str) -> list[str]:
    """The requirements of every ``pip install`` written in ``text`` (options, and a code's placeholders, left
    out)."""
    found = []
    for words in re.findall(r"pip install((?:[ \t]+(?:'[^'\n]+'|[\w.\-\[\],{}]+))+)", text):
        found += [word.strip("'") for word in words.split() if not word.startswith("-") and "{" not in word]
    return found


def test_the_distribution_has_a_name_of_its_own() -> None:
    assert PROJECT["name"] == DISTRIBUTION != "ginsim"
    assert PROJECT["scripts"] == {"ginsim": "ginsim.cli:main"}


@pytest.mark.parametrize("path", PAGES + SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_install_line_installs_this_project(path: Path) -> None:
    for requirement in install_lines(path.read_text()):
        name, _, extras = requirement.partition("[")
        assert name in (".", DISTRIBUTION) or name in OTHERS, f"{path.name}: pip install {requirement}"
        unknown = set(extras.rstrip("]").split(",")) - EXTRAS - {""}
        assert not unknown, f"{path.name}: pip install {requirement} names extras the project lacks: {unknown}"


def test_a_missing_extra_is_named_with_both_ways_to_install_it() -> None:
    assert install_command("web") == "pip install 'gin-rummy-sim[web]' (in a clone: pip install '.[web]')"
    assert install_lines(install_command("dask")) == ["gin-rummy-sim[dask]", ".[dask]"]
