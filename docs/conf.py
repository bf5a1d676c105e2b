"""Sphinx configuration of the gincore / ginsim documentation.

Built by ``sphinx-build -W --keep-going -n -b html docs docs/_build/html`` (the ``docs`` extra installs
what it needs); the pages are Markdown (MyST), the API and CLI reference are generated from the code, and
the notebooks are run while the pages are built, at the sizes of :data:`NOTEBOOK_SIZES` (any
``GINSIM_NOTEBOOK_*`` variable set in the build's environment takes precedence), each page saying at what
size it ran. Their outputs are cached in ``docs/_build/.jupyter_cache``: a notebook runs again only when
its code, its sizes or the package's source changed.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
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
nb_execution_mode = "cache"  # run while building, unless the cache holds the same code run at the same sizes
nb_execution_timeout = 900  # seconds a cell may take (the longest, strategies' tournament, takes about a minute)
nb_execution_raise_on_error = True  # a notebook that fails fails the build, naming the cell
nb_execution_show_tb = True
nb_merge_streams = True

NOTEBOOK_SIZES: dict[str, dict[str, str]] = {
    # Each notebook's sizes for the built pages; a variable not named runs at the notebook's default.
    # The flat Monte-Carlo sampler is the slow part of the strategies notebook: fewer of its matches.
    "strategies": {"GINSIM_NOTEBOOK_SAMPLER_MATCHES": "40"},
}
"""What the documentation build runs each notebook (``notebooks/NAME.ipynb``) at, as the environment
variables it reads; the build's own environment overrides them, e.g. ``GINSIM_NOTEBOOK_HANDS=20000``."""

# --- API reference ----------------------------------------------------------------------------------
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# PyTorch, Gymnasium and PettingZoo come with the train and rl extras, not the docs one: the learning
# modules (ginsim.learn, and the environments it imports) are read with them mocked, so that the docs extra
# alone builds the pages, and builds them the same with those extras installed or not.
autodoc_mock_imports = ["torch", "gymnasium", "pettingzoo"]

# Types from other packages (no network, so no intersphinx): named in signatures, not linked.
nitpick_ignore_regex = [
    (r"py:.*", r"(pd|pandas|np|numpy|npt|click|os|pathlib|collections\.abc|typing|types|dataclasses|enum|"
               r"logging|importlib|distributed|matplotlib|concurrent\.futures|torch|tqdm)\..*"),
    # A dataclass field's generic annotation, which autodoc splits at its comma (ginsim.learn.ppo.Rollout,
    # ginsim.gin.game.specs.StrategySpec).
    (r"py:class", r"(dict\[str|tuple\[~[\w.]+)"),
    # The native modules' classes (the engines) are reached through the Python layer, not documented.
    (r"py:class", r"gincore\._\w+\.\w+"),
    # What a strategy is told of the match so far (GameState.deal's match=): a record of the native layer.
    (r"py:class", r"ginsim\.gin\.game\.hand\.MatchContext"),
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


_SIZE_VARIABLE = re.compile(r'os\.environ\.get\(\s*"(GINSIM_NOTEBOOK_\w+)"\s*(?:,\s*([^)]*?))?\s*\)')


def _source_digest() -> str:
    """A digest of the package's source (Python, Cython, shipped data): the notebooks' cached outputs are
    kept only while it is unchanged."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.parent.joinpath("src").rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd", ".pxi", ".npz") and path.is_file():
            digest.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _default_text(default: str | None) -> str:
    """A notebook's default value of a variable as a reader reads it (``1_000_000`` as 1,000,000)."""
    if default is None:
        return "unset"
    if re.fullmatch(r"\d[\d_]*", default):
        return f"{int(default):,}"
    return default.strip("\"'")


def _notebook_sizes(app: Any, docname: str, source: list[str]) -> None:
    """Before a notebook is run for its page: a hidden first cell sets every ``GINSIM_NOTEBOOK_*``
    variable it reads (:data:`NOTEBOOK_SIZES`, or the build's environment, or unset for the notebook's
    default) and names the package source it runs on, so that the cache holds the outputs of exactly
    that; and a note under its title says at what size the page was run."""
    if not docname.startswith("notebooks/"):
        return
    notebook = json.loads(source[0])
    code = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    sizes = NOTEBOOK_SIZES.get(docname.removeprefix("notebooks/"), {})
    settings: dict[str, str | None] = {}
    rows = []
    for variable, default in dict(_SIZE_VARIABLE.findall(code)).items():
        value = os.environ.get(variable, sizes.get(variable))
        settings[variable] = value
        default_text = _default_text(default or None)
        shown = f"{default_text} (its default)" if value is None else _default_text(value)
        rows.append(f"| `{variable}` | {shown} | {default_text} |")
    setting = [f"os.environ[{name!r}] = {value!r}" if value is not None else f"os.environ.pop({name!r}, None)"
               for name, value in settings.items()]
    hidden = {"cell_type": "code", "id": "docs-build-sizes", "execution_count": None, "outputs": [],
              "metadata": {"tags": ["remove-cell"]},
              "source": "\n".join([f"# Set by docs/conf.py for the docs build; package source {_source_digest()}",
                                   "import os", *setting])}
    note = ("The outputs on this page were computed when the documentation was built, with these sizes "
            "(the environment variables the notebook reads; run it yourself to change them, "
            "[](../notebooks.md#running-them)):\n\n"
            "| variable | this page | the notebook's default |\n| --- | --- | --- |\n" + "\n".join(rows))
    shown_note = {"cell_type": "markdown", "id": "docs-build-note", "metadata": {},
                  "source": f":::{{note}}\n{note}\n:::"}
    notebook["cells"][1:1] = [shown_note, hidden]
    source[0] = json.dumps(notebook)


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
    app.connect("source-read", _notebook_sizes)
    app.connect("sphinx-click-process-description", _keep_continuations)
    app.connect("sphinx-click-process-epilog", _keep_continuations)
    app.connect("build-finished", _check_commands)
    return {"parallel_read_safe": True}
