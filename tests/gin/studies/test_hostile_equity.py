"""Match equity tables as a careless or hostile user asks for them: sizes at and beyond their bounds
(hands, replicates, the largest targets) get one line and exit status 2 before any hand is played,
and the bootstrap's memory does not grow with its replicates."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ginsim.gin.studies.equity as equity_module
from gincore.errors import InputError
from ginsim import Rules, equity_table
from ginsim.gin.studies.equity import REPLICATES, SOLVE_BUDGET, most_replicates
from tests.cli_runner import invoke, one_line_error

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets


@pytest.mark.parametrize("args, message", [
    (["equity", "--hands", "1" + "0" * 19], "hands must be a positive integer of at most "
                                            "1,000,000,000,000,000,000, got 10**19"),
    (["equity", "--hands", "1" + "0" * 30], "got 10**30"),
    (["equity", "--target", "1000", "--replicates", "5"], "replicates must be an integer from 2 to 4, got 5"),
    (["equity", "--target", "500", "--replicates", "100000"], "replicates must be an integer from 2 to 32"),
    (["equity", "--replicates", "4001"], "replicates must be an integer from 2 to 4,000, got 4001"),
])
def test_sizes_beyond_their_bounds(args: list[str], message: str) -> None:
    one_line_error(args, message)


def test_the_replicates_fit_the_budget_at_every_target() -> None:
    for target in (1, 50, 100, 215, 216, 250, 500, 1000):
        most = most_replicates(target)
        assert most >= 2 and (most == 2 or most * target**3 <= SOLVE_BUDGET)
    assert most_replicates(215) >= REPLICATES > most_replicates(216)


def test_the_default_replicates_shrink_with_the_target() -> None:
    table = equity_table(Rules(), target=20, hands=2_000, seed=1, workers=1)
    assert table.attrs["replicates"] == REPLICATES
    with pytest.raises(InputError, match="replicates must be an integer from 2 to 4,000"):
        equity_table(Rules(), target=100, hands=10, replicates=4_001)


def _peak(replicates: int) -> int:
    tracemalloc.start()
    try:
        equity_table(Rules(), target=40, hands=4_000, seed=3, workers=1, replicates=replicates)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_bootstrap_memory_does_not_grow_with_its_replicates(monkeypatch: pytest.MonkeyPatch) -> None:
    """One replicate solved at a time (as at the largest targets): 16 times the replicates, not 16
    times the memory (the tables of all replicates were kept at once, 6 GiB at a target of 1,000)."""
    monkeypatch.setattr(equity_module, "CELLS_PER_BATCH", 1)
    few, many = _peak(4), _peak(64)
    assert many < 2 * few, (few, many)


def test_the_streamed_spread_is_numpy_s() -> None:
    """The standard deviation summed batch by batch equals numpy's over every replicate at once, a
    replicate without a value left out."""
    rng = np.random.default_rng(5)
    target = 12
    counts = rng.integers(0, 50, size=(32, 2, 3, target + 1))
    counts[0, :, :2] = 0  # a replicate without a decided hand: NaN everywhere
    chances = equity_module._chances(counts)
    centre = equity_module._solve(chances[1:2], target, "loser")[0]
    every = equity_module._solve(chances, target, "loser")
    expected = np.nanstd(every, axis=0, ddof=1)
    found = equity_module._spread(chances, target, "loser", centre)
    assert np.allclose(found, expected, rtol=1e-9, atol=1e-12)


def test_the_command_renders_the_grid_not_every_row(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two million rows at a target of 1,000: rendered as aligned text only to be dropped, they took
    2.3 GB; the command prints its grid and writes the CSV, and renders nothing else."""
    import ginsim.cli.report

    def refused(*args: object, **kwargs: object) -> str:
        raise AssertionError("the whole table was rendered as text")

    monkeypatch.setattr(ginsim.cli.report, "table_text", refused)
    csv = tmp_path / "table.csv"
    code, out, err = invoke("equity", "--target", "12", "--hands", "2000", "--workers", "1", "--replicates", "4",
                            "--csv", str(csv))
    assert code == 0, err
    assert next(line for line in out.splitlines() if line.startswith("score")).split()[0] == "score"
    assert len(pd.read_csv(csv, comment="#")) == 2 * 12 * 12
