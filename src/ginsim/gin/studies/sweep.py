"""Sweeps: one study over a grid of rule variants and player pairs, every cell a seeded run on the same deals.

A grid names values for any rule fields (lists, or ranges such as ``"0..10"``), optionally several
presets, and one or more player pairs; every combination is a cell. Every cell is a run of
:func:`~ginsim.simulate` (or :func:`~ginsim.simulate_matches`) with the sweep's seed and size, so hand
``i`` is the same deal in every cell and cells are compared hand by hand (paired), which sees a
difference with far fewer hands than independent runs would.

With ``out`` every cell is a run directory of its own under it, named after the rules it changes from
the standard game and its players (``out/knock_limit=5__simple-vs-simple``; ``ginsim summary`` and
``ginsim compare`` read it): a stopped sweep resumes where it stopped, a grown grid plays only its new
cells, and a directory holding another sweep (another kind, seed or size) is refused.

The table has one row per cell (and group of ``by``): the cell's rule values and players, its summary
(rates with 95% Wilson intervals), and its difference to the reference cell for every rate and mean
(``knock_rate_diff`` with ``_low``, ``_high`` and ``_p_holm``: the 95% interval, and the p-value
adjusted by Holm's method for every comparison in the table; 0 and no p-value in the reference's rows).

>>> from ginsim import sweep
>>> table = sweep({"knock_limit": "5,10"}, "simple,simple", hands=2000, seed=1, workers=1)
>>> table[["knock_limit", "players", "hands", "reference"]].values.tolist()
[[5, 'simple,simple', 2000, True], [10, 'simple,simple', 2000, False]]
>>> bool(table["gin_rate_diff_high"].iloc[1] < 0)   # knocking on 10 leaves fewer hands to end in gin
True
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, Unpack
from urllib.parse import quote

import numpy as np
import pandas as pd

from gincore.errors import InputError, StrategyError
from ginsim.core.checks import check_seed, count
from ginsim.core.comparison import compare, holm
from ginsim.core.execution import LOG, RunFields, RunOptions, one_pool
from ginsim.core.fields import shown
from ginsim.core.store import RUN_FILE, ClaimedDirectory, RunDirectoryError
from ginsim.gin.game.players import PlayerSpec, player_name
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.grid import Cell, field_values, player_pairs, sweep_cells
from ginsim.gin.studies.groups import DEAL_GROUPS
from ginsim.gin.studies.simulate import simulate, simulate_matches
from ginsim.gin.studies.summary import HANDS, MATCHES, summarize, summarize_matches

__all__ = ["MOST_HANDS", "MOST_MATCHES", "SWEEP_FILE", "SweepDirectory", "cell_directory", "sweep"]

SWEEP_FILE: Final = "_sweep.json"
"""The file of a sweep directory that says what the sweep plays (kind, seed and size)."""
MOST_HANDS: Final = 10**12
"""The most hands a sweep may play in all its cells (about a day of ``simple`` play on 16 cores)."""
MOST_MATCHES: Final = 10**10
"""The most matches a sweep may play in all its cells."""
_LONGEST_NAME: Final = 120


def cell_directory(out: str | os.PathLike[str], cell: Cell) -> Path:
    """Where a sweep into ``out`` stores a cell's run: its rules' changes from the standard game and its
    players (characters that could not be in a file name escaped; a very long name shortened with a
    hash). Two grids that share a cell share its directory.

    >>> cells = sweep_cells({"preset": "standard,oklahoma"}, "marjj,simple")
    >>> [cell_directory("sweep", cell).as_posix() for cell in cells]
    ['sweep/standard__marjj_5-vs-simple', 'sweep/oklahoma=True__marjj_5-vs-simple']
    """
    changes = cell.rules.changes_from(Rules())
    name = f"{','.join(changes) or 'standard'}__{'-vs-'.join(cell.names)}"
    name = quote(name.replace(":", "_"), safe="=,.-_+")
    if len(name) > _LONGEST_NAME:  # file names end at 255 bytes; the identity inside tells cells apart anyway
        name = f"{name[:_LONGEST_NAME - 17]}-{hashlib.sha256(name.encode()).hexdigest()[:16]}"
    return Path(out) / name


class SweepDirectory(ClaimedDirectory):
    """A sweep directory: ``_sweep.json`` holds the sweep's kind, seed and size, and each cell is a run
    directory of its own inside it; another sweep's directory is refused, and so is a run's."""

    MANIFEST = SWEEP_FILE
    FORMAT = "ginsim-sweep"
    NOUN = "sweep"
    DIRECTORY = "sweep"
    ADVICE = "its cells would not play the same deals: choose another directory"
    GROWS = True  # a larger size grows each cell's run

    @classmethod
    def prepare(cls, path: str | os.PathLike[str]) -> Path:
        if (Path(path) / RUN_FILE).exists():
            raise InputError(f"{os.fspath(path)} holds a run; a sweep stores each cell in a directory of its own: "
                             "choose another directory")
        return super().prepare(path)


def _reference(cells: list[Cell], reference: Mapping[str, Any] | None) -> int:
    """The index of the reference cell: the first, or the one whose values (and ``players``) are given."""
    if reference is None:
        return 0
    if not isinstance(reference, Mapping):
        raise InputError(f"the reference is a mapping of swept fields to values, got {shown(reference)}")
    known = [*cells[0].values, "players"]
    unknown = [name for name in reference if name not in known]
    if unknown:
        raise InputError(f"the reference names {unknown[0]!r}, which the grid does not sweep; name one of "
                         f"{', '.join(known)}")
    wanted = {name: ",".join(player_name(player) for player in player_pairs([value])[0]) if name == "players"
              else field_values(name, [value])[0] for name, value in reference.items()}
    for number, cell in enumerate(cells):
        own = {**cell.values, "players": ",".join(cell.names)}
        if all(own[name] == value for name, value in wanted.items()):
            return number
    described = ", ".join(f"{name}={value}" for name, value in wanted.items())
    raise InputError(f"the reference {described} is not a cell of the grid")


def sweep(
    grid: Mapping[str, str | Iterable[Any]],
    players: str | Sequence[str | Sequence[PlayerSpec]] = "simple,simple",
    hands: int | None = None,
    seed: int = 0,
    *,
    matches: int | None = None,
    by: str | Sequence[str] | None = None,
    reference: Mapping[str, Any] | None = None,
    options: RunOptions | None = None,
    **run_options: Unpack[RunFields],
) -> pd.DataFrame:
    """Play every cell of the grid (see :func:`~ginsim.gin.studies.grid.sweep_cells`) for ``hands`` hands (or
    ``matches`` matches) with ``seed``, and return the table of the module docstring.

    ``grid`` maps rule fields (and ``"preset"``) to their values (see :func:`~ginsim.gin.studies.grid.field_values`);
    ``players`` is one pair (``"simple,simple"``) or a list of pairs. ``by`` groups a sweep of hands
    (the groups of :func:`~ginsim.summarize`); grouped by properties of the deal alone
    (:data:`~ginsim.gin.studies.groups.DEAL_GROUPS`), the differences are paired hand by hand; grouped by the
    knock limit (the rules decide it) or what the play decides, they are between independent samples. ``reference``
    picks the cell the others are compared with (``{"knock_limit": 10, "players": "simple,simple"}``;
    the values not named are the grid's first), by default the first cell.

    ``workers``, ``backend``, ``scheduler``, ``chunk_size``, ``progress`` and ``repair`` work as in
    :func:`~ginsim.simulate`, for each cell in turn (or all as one :class:`~ginsim.core.execution.RunOptions`,
    ``options=``); ``out`` stores the cells (see the module). A
    grid of more than :data:`~ginsim.gin.studies.grid.MOST_CELLS` cells or :data:`~ginsim.gin.studies.sweep.MOST_HANDS`
    hands (:data:`~ginsim.gin.studies.sweep.MOST_MATCHES` matches) in all is refused before any play. A cell
    whose player fails, or whose directory is damaged, is named in one error once every other cell is
    played (and, with ``out``, kept).
    """
    if (hands is None) == (matches is None):
        raise InputError("give exactly one of hands= or matches= (per cell)")
    cells = sweep_cells(grid, players)
    kind = HANDS if matches is None else MATCHES
    size = count(kind.unit, hands if matches is None else matches, MOST_HANDS if matches is None else MOST_MATCHES)
    most = MOST_HANDS if kind is HANDS else MOST_MATCHES
    if len(cells) * size > most:
        raise InputError(f"the sweep is too large to play: {len(cells):,} cells x {size:,} {kind.unit} is "
                         f"{len(cells) * size:,}, more than the {most:,} a sweep may play; play fewer {kind.unit} "
                         "or fewer cells")
    groups = [] if by is None else [by] if isinstance(by, str) else list(dict.fromkeys(by))
    if groups and kind is MATCHES:
        raise InputError("a sweep of matches is summarised whole: leave out by")
    unknown = [name for name in groups if name not in HANDS.groups]
    if unknown:
        raise InputError(f"cannot group a sweep by {unknown[0]!r}; choose from {', '.join(HANDS.groups)} (or none)")
    seed = check_seed(seed)
    first = _reference(cells, reference)
    run = RunOptions.of(options, **run_options)
    out = run.out
    if out is not None:
        with SweepDirectory.claimed(out, {"kind": kind.name, "seed": seed, "size": size}):
            pass  # each cell's run directory inside is claimed while it plays
    paired = set(groups) <= set(DEAL_GROUPS)
    order = [first, *(number for number in range(len(cells)) if number != first)]
    summaries: dict[int, pd.DataFrame] = {}
    differences: list[pd.DataFrame] = []
    failed: list[tuple[Cell, str]] = []
    base: list[Any] = []

    def summarize_cell(number: int, results: Any) -> None:
        """A played cell's summary and its difference to the reference cell (played first)."""
        summaries[number] = (summarize(results, by=groups or None) if kind is HANDS
                             else summarize_matches(results)).assign(_cell=number)
        assert kind.measures is not None
        measures = kind.measures(results)
        if number == first:
            base.append(measures)
        elif base:
            difference = compare(base[0].frame, measures.frame, groups, measures.rates, measures.means, paired)
            differences.append(difference.assign(_cell=number))

    # One pool of workers plays every cell, and a cell is summarised while the next one plays.
    with one_pool(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="ginsim-sweep") as summarizer:
        summarizing: Future[None] | None = None
        for step, number in enumerate(order):
            cell = cells[number]
            folder = None if out is None else cell_directory(out, cell)
            LOG.info("sweep: cell %d of %d: %s", step + 1, len(cells), cell.label())
            try:
                if kind is HANDS:
                    results: Any = simulate(cell.rules, cell.players, size, seed,
                                            options=dataclasses.replace(run, out=folder))
                else:
                    results = simulate_matches(cell.rules, cell.players, size, seed,
                                               options=dataclasses.replace(run, out=folder))
            except (StrategyError, RunDirectoryError) as error:
                failed.append((cell, str(error)))
                continue
            if summarizing is not None:
                summarizing.result()  # one cell's results waiting at most: memory does not grow with the grid
            summarizing = summarizer.submit(summarize_cell, number, results)
        if summarizing is not None:
            summarizing.result()
    if failed:
        _refuse_failed(failed, len(cells), out)
    return _table(cells, first, summaries, differences, groups)


def _refuse_failed(failed: list[tuple[Cell, str]], cells: int, out: str | os.PathLike[str] | None) -> None:
    cell, error = failed[0]
    more = f" (and {len(failed) - 1} more cell{'s' if len(failed) > 2 else ''})" if len(failed) > 1 else ""
    played = cells - len(failed)
    kept = (f"the other {played:,} cells are kept in {os.fspath(out)}: the same call again plays only what failed"
            if out is not None else f"the other {played:,} cells were played but not kept: give out= (--out) to "
            "keep them")
    raise InputError(f"the cell {cell.label()} failed{more}: {error}; {kept}")


def _table(cells: list[Cell], first: int, summaries: dict[int, pd.DataFrame], differences: list[pd.DataFrame],
           groups: list[str]) -> pd.DataFrame:
    """The sweep's table: each cell's values, players and summary, then its differences to the reference
    cell with Holm's correction over the whole table."""
    table = pd.concat([summaries[number] for number in sorted(summaries)], ignore_index=True)
    # A field swept over None and numbers (target=none,100) keeps None, not NaN.
    described = pd.DataFrame({name: pd.Series(values, dtype=object if None in values else None)
                              for name in cells[0].values
                              for values in [[cell.values[name] for cell in cells]]})
    described["players"] = [",".join(cell.names) for cell in cells]
    described["reference"] = [number == first for number in range(len(cells))]
    described["_cell"] = range(len(cells))
    table = described.merge(table, on="_cell")
    if differences:
        long = pd.concat(differences, ignore_index=True)
        tested = long["p_value"].notna().to_numpy()
        long["p_holm"] = np.nan
        if tested.any():
            long.loc[tested, "p_holm"] = holm(long.loc[tested, "p_value"].to_numpy())
        for measure, rows in long.groupby("measure", sort=False):
            renamed = rows[["_cell", *groups, "difference", "low", "high", "p_holm"]].rename(columns={
                "difference": f"{measure}_diff", "low": f"{measure}_diff_low", "high": f"{measure}_diff_high",
                "p_holm": f"{measure}_diff_p_holm"})
            table = table.merge(renamed, on=["_cell", *groups], how="left")
        # The reference against itself: no difference, and no test.
        for column in table.columns[table.columns.str.contains("_diff") & ~table.columns.str.endswith("_p_holm")]:
            table.loc[table["reference"], column] = 0.0
    return table.drop(columns="_cell")
