"""The notebooks run from top to bottom without an error, at small sizes set through the environment.

Each notebook reads its sizes from ``GINSIM_NOTEBOOK_*`` variables (large by default, for a real
study); the kernel inherits the ones set here. The solver notebook also gets a results file written by
``benchmarks/peers.py`` at a tiny size, so its comparison branch runs too (with only gincore's rows when
the optional peers are not installed).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ("oklahoma_upcards", "strategies", "solver")
SMALL = {
    "GINSIM_NOTEBOOK_HANDS": "4000",
    "GINSIM_NOTEBOOK_MATCHES": "20",
    "GINSIM_NOTEBOOK_SAMPLER": "sampler:2:1:0",
    "GINSIM_NOTEBOOK_SAMPLER_MATCHES": "2",
    "GINSIM_NOTEBOOK_EXACT_CARDS": "7",
}
CELL_TIMEOUT = 300  # seconds; the whole notebook takes a few at these sizes


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
    if name == "solver":
        write_peers_results(tmp_path / "peers.json", monkeypatch)
    monkeypatch.setenv("GINSIM_PEERS_JSON", str(tmp_path / "peers.json"))
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    errors = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
              if output.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_without_outputs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)
