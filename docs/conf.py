"""Sphinx configuration of the gincore / ginsim documentation.

Built by ``sphinx-build -W --keep-going -n -b html docs docs/_build/html`` (the ``docs`` extra installs
what it needs); the pages are Markdown (MyST), the API and CLI reference are generated from the code, and
the notebooks are rendered from the outputs committed with them, never executed.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from ginsim import __version__

project = "gincore / ginsim"
author = "the gincore / ginsim authors"
copyright = "the gincore / ginsim authors"  # noqa: A001 - Sphinx reads this name
version = release = __version__

extensions = [
    "myst_nb",  # Markdown pages (it brings myst-parser) and notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
    "sphinx_design",  # the cards of the front page
]

exclude_patterns = ["_build", "README.md"]
# No curly quotes or en dashes in place of "--": every command on every page must work when copied.
smartquotes = False
suppress_warnings: list[str] = []

# --- Markdown and notebooks -------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # every heading down to ### is a link target: docs/rules.md#oklahoma
nb_execution_mode = "off"  # the notebooks are shown as committed, never run while building
nb_merge_streams = True

# --- API reference ----------------------------------------------------------------------------------
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# Types from other packages (no network, so no intersphinx): named in signatures, not linked.
nitpick_ignore_regex = [
    (r"py:.*", r"(pd|pandas|np|numpy|npt|click|os|pathlib|collections\.abc|typing|types|dataclasses|enum|"
               r"logging|distributed|matplotlib|concurrent\.futures|torch|tqdm)\..*"),
    # A dataclass field's generic annotation, which autodoc splits at its comma (ginsim.learn.ppo.Rollout,
    # ginsim.gin.game.specs.StrategySpec).
    (r"py:class", r"(dict\[str|tuple\[~[\w.]+)"),
    # The native modules' classes (the engines) are reached through the Python layer, not documented.
    (r"py:class", r"gincore\._\w+\.\w+"),
    # Private names (type variables, helpers) are not part of the documented API.
    (r"py:class", r"[\w.]*\._\w+"),
    (r"py:.*", r"(Path|PathLike|Sequence|Mapping|Iterable|Iterator|Callable|Any|Final|Self|TypeAlias|"
               r"DataFrame|Series|ndarray|Figure|Axes|Client|Context|Parameter|Fraction|Tensor|Module|Optimizer|"
               r"Generator|tqdm|Unpack)"),
]

# --- HTML -------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"gincore / ginsim {__version__}"
html_static_path: list[str] = []


def _notebook_links(app: Any, docname: str, source: list[str]) -> None:
    """A notebook links to the docs as ``../docs/rules.md#...`` from ``notebooks/``, where GitHub and
    Jupyter show it; in the built docs it sits in ``docs/notebooks/``, one folder further down."""
    if docname.startswith("notebooks/"):
        source[0] = re.sub(r"\]\(\.\./docs/", "](../", source[0])


def _keep_continuations(app: Any, ctx: Any, lines: list[str]) -> None:
    """A command's help is reStructuredText to sphinx-click, where a backslash ending a line escapes the
    line's end and vanishes: doubled, it stays, so that an example continued on the next line
    (``... \\`` then ``--out runs/okla``) copies from the page as one command."""
    lines[:] = [re.sub(r"(?<!\\)\\$", r"\\\\", line) for line in lines]


def _check_commands(app: Any, exception: Exception | None) -> None:
    """Every ``ginsim`` command of every built page parses against the real options, as a reader
    copies it from the page (``page_commands.py``): a warning for each that does not."""
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    spec = importlib.util.spec_from_file_location("page_commands", Path(__file__).with_name("page_commands.py"))
    assert spec is not None and spec.loader is not None
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    log = logging.getLogger(__name__)
    for page in sorted(Path(app.outdir).rglob("*.html")):
        for found in checker.html_problems(page.read_text(encoding="utf-8")):
            log.warning("%s: a command that does not work as copied: %s", page.relative_to(app.outdir), found)


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _notebook_links)
    app.connect("sphinx-click-process-description", _keep_continuations)
    app.connect("sphinx-click-process-epilog", _keep_continuations)
    app.connect("build-finished", _check_commands)
    return {"parallel_read_safe": True}
