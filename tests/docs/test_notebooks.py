"""The notebooks run from top to bottom without an error, at small sizes set through the environment.

Each notebook reads its sizes from ``GINSIM_NOTEBOOK_*`` variables (large by default, for a real
study); the kernel inherits the ones set here. The solver notebook also gets a results file written by
``benchmarks/peers.py`` at a tiny size, so its comparison branch runs too (with only gincore's rows when
the optional peers are not installed). The notebook for one's own runs runs on the sweep it makes itself
and on runs made by the command line. The documentation build runs them too (``docs/conf.py``): every
notebook has its page, and each page says at what sizes it was run.
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ("oklahoma_upcards", "strategies", "solver", "explore_runs")
SMALL = {
    "GINSIM_NOTEBOOK_HANDS": "4000",
    "GINSIM_NOTEBOOK_MATCHES": "20",
    "GINSIM_NOTEBOOK_SAMPLER": "sampler:2:1:0",
    "GINSIM_NOTEBOOK_SAMPLER_MATCHES": "2",
    "GINSIM_NOTEBOOK_EXACT_CARDS": "7",
}
CELL_TIMEOUT = 300  # seconds; the whole notebook takes a few at these sizes


def execute(name: str) -> nbformat.NotebookNode:
    """Run ``notebooks/NAME.ipynb`` in a kernel (which inherits this process's environment) and return it
    with its outputs, after checking that no cell failed."""
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    errors = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
              if output.output_type == "error"]
    assert not errors
    return notebook


def printed(notebook: nbformat.NotebookNode) -> str:
    """Everything the notebook's cells printed."""
    return "".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                   for output in cell.outputs if output.output_type == "stream")


def images(notebook: nbformat.NotebookNode) -> int:
    """How many figures the notebook's cells drew."""
    return sum("image/png" in output.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.outputs)


def write_peers_results(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``benchmarks/peers.py`` at a tiny size, writing its JSON to ``path``."""
    spec = importlib.util.spec_from_file_location("benchmark_peers", ROOT / "benchmarks" / "peers.py")
    assert spec is not None and spec.loader is not None
    peers = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, peers)  # its dataclasses look their module up by name
    spec.loader.exec_module(peers)
    assert peers.main(["--hands", "200", "--games", "2", "--ours-hands", "2000", "--json", str(path)]) == 0


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable, value in SMALL.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("GINSIM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where explore_runs makes its sweep
    if name == "solver":
        write_peers_results(tmp_path / "peers.json", monkeypatch)
    monkeypatch.setenv("GINSIM_PEERS_JSON", str(tmp_path / "peers.json"))
    for variable in ("GINSIM_NOTEBOOK_RUN", "GINSIM_NOTEBOOK_OTHER", "GINSIM_NOTEBOOK_HAND", "GINSIM_NOTEBOOK_BY"):
        monkeypatch.delenv(variable, raising=False)
    notebook = execute(name)
    assert images(notebook) >= 3


def test_explore_runs_reads_runs_of_the_command_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Given two runs made by ``ginsim run``, the notebook explores the first, compares it with the second
    and replays the hand it is asked for, as ``ginsim replay`` does."""
    from click.testing import CliRunner

    from ginsim.cli import main

    runner = CliRunner()
    for name, rules in (("standard", "standard"), ("okla", "oklahoma")):
        result = runner.invoke(main, ["run", "--rules", rules, "--hands", "3000", "--seed", "5", "--workers", "1",
                                      "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    replayed = runner.invoke(main, ["replay", str(tmp_path / "standard"), "--hand", "17"])
    assert replayed.exit_code == 0, replayed.output
    monkeypatch.setenv("GINSIM_NOTEBOOK_RUN", str(tmp_path / "standard"))
    monkeypatch.setenv("GINSIM_NOTEBOOK_OTHER", str(tmp_path / "okla"))
    monkeypatch.setenv("GINSIM_NOTEBOOK_HAND", "17")
    monkeypatch.setenv("GINSIM_NOTEBOOK_BY", "upcard_suit")
    text = printed(execute("explore_runs"))
    assert "standard rules | simple vs simple | 3,000 hands | seed 5" in text
    assert "oklahoma rules | simple vs simple | 3,000 hands | seed 5" in text
    assert "upcard_suit" in text and "b - a [95% interval]" in text
    hand_lines = replayed.output.strip().splitlines()[1:]  # the CLI's first line names the run
    assert all(line in text for line in hand_lines)
    assert "the stored record of hand 17:" in text


def test_explore_runs_refuses_a_directory_of_no_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GINSIM_NOTEBOOK_RUN", str(tmp_path))
    with pytest.raises(Exception, match="neither a run directory nor a sweep directory"):
        execute("explore_runs")


def _docs_conf() -> Any:
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


def test_every_notebook_has_a_docs_page() -> None:
    listed = (ROOT / "docs" / "notebooks.md").read_text()
    for name in NAMES:
        assert f"notebooks/{name}\n" in listed  # in the toctree
        page = ROOT / "docs" / "notebooks" / f"{name}.ipynb"
        assert page.resolve() == (NOTEBOOKS / f"{name}.ipynb").resolve()
    assert sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_docs_build_says_at_what_size_a_page_ran(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs build gives every notebook a note of the sizes it ran at, and a hidden first cell that
    sets exactly those (so the cache of outputs is keyed by them); the build's environment overrides."""
    conf = _docs_conf()
    monkeypatch.setenv("GINSIM_NOTEBOOK_HANDS", "12345")
    source = [(NOTEBOOKS / f"{name}.ipynb").read_text()]
    conf._notebook_sizes(None, f"notebooks/{name}", source)
    cells = json.loads(source[0])["cells"]
    note, hidden = cells[1], cells[2]
    code = "\n".join("".join(cell["source"]) for cell in cells[3:] if cell["cell_type"] == "code")
    variables = set(re.findall(r'os\.environ\.get\(\s*"(GINSIM_NOTEBOOK_\w+)"', code))
    assert variables and "GINSIM_NOTEBOOK_HANDS" in variables
    for variable in variables:
        assert f"`{variable}`" in note["source"]
        assert repr(variable) in hidden["source"]
    assert "| `GINSIM_NOTEBOOK_HANDS` | 12,345 |" in note["source"]
    assert "os.environ['GINSIM_NOTEBOOK_HANDS'] = '12345'" in hidden["source"]
    assert hidden["metadata"]["tags"] == ["remove-cell"]
    for variable, value in conf.NOTEBOOK_SIZES.get(name, {}).items():
        assert f"os.environ[{variable!r}] = {value!r}" in hidden["source"]


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_without_outputs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)
