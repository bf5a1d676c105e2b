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
import itertools
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Unpack
from urllib.parse import quote

import numpy as np
import pandas as pd

from gincore.errors import InputError, StrategyError
from ginsim.core.checks import check_seed, count
from ginsim.core.comparison import compare, holm
from ginsim.core.execution import LOG, RunFields, RunOptions, one_pool
from ginsim.core.fields import Integer, shown, unknown_name
from ginsim.core.store import RUN_FILE, ClaimedDirectory, RunDirectoryError
from ginsim.gin.game.players import Player, PlayerSpec, player_name, resolve_players
from ginsim.gin.game.rules import PRESETS, Rules
from ginsim.gin.studies.groups import DEAL_GROUPS
from ginsim.gin.studies.simulate import simulate, simulate_matches
from ginsim.gin.studies.summary import HANDS, MATCHES, summarize, summarize_matches

__all__ = ["MOST_CELLS", "MOST_HANDS", "MOST_MATCHES", "SWEEP_FILE", "Cell", "cell_directory",
           "field_values", "plot_sweep", "sweep", "sweep_cells"]

SWEEP_FILE: Final = "_sweep.json"
"""The file of a sweep directory that says what the sweep plays (kind, seed and size)."""
MOST_CELLS: Final = 10_000
"""The most cells a sweep may have (each is a run, a directory and a row of the table)."""
MOST_HANDS: Final = 10**12
"""The most hands a sweep may play in all its cells (about a day of ``simple`` play on 16 cores)."""
MOST_MATCHES: Final = 10**10
"""The most matches a sweep may play in all its cells."""
PRESET_KEY: Final = "preset"
"""The grid key that sweeps whole presets; the fields swept with it change each of them."""
_RANGE: Final = re.compile(r"([+-]?\d+)\s*\.\.\s*([+-]?\d+)(?:\s*:\s*(\d+))?")
_LONGEST_NAME: Final = 120


@dataclass(frozen=True)
class Cell:
    """One cell of a sweep: the swept values (the preset under ``"preset"`` when presets are swept),
    the rules they make, and the two players."""

    values: Mapping[str, Any]
    rules: Rules
    players: tuple[PlayerSpec, PlayerSpec]

    @property
    def names(self) -> tuple[str, str]:
        """The players' names."""
        return player_name(self.players[0]), player_name(self.players[1])

    def label(self) -> str:
        """The cell in one line, e.g. ``knock_limit=5 | simple vs marjj``."""
        values = ", ".join(f"{name}={value}" for name, value in self.values.items())
        return f"{values + ' | ' if values else ''}{' vs '.join(self.names)}"


def field_values(name: str, values: str | Iterable[Any]) -> list[Any]:
    """The values of one swept rule field (or of ``"preset"``): a list of values, or text as typed on a
    command line, comma-separated values and integer ranges (``"0..10"``, both ends included;
    ``"0..100:25"`` every 25th), e.g. ``"0..3,10"``. Values are checked on their own; a value twice is
    refused.

    >>> field_values("knock_limit", "0..3,10"), field_values("undercut_bonus", "0..100:25")
    ([0, 1, 2, 3, 10], [0, 25, 50, 75, 100])
    >>> field_values("big_gin_bonus", "none,31"), field_values("oklahoma", [True, False])
    ([None, 31], [True, False])
    >>> field_values("knock_limit", "0..12")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: knock_limit must be an integer from 0 to 10, got 11
    """
    if name == PRESET_KEY:
        listed = _split(name, values)
        unknown = [value for value in listed if value not in PRESETS]
        if unknown:
            raise unknown_name("preset", unknown[:1], PRESETS)
        return _distinct(name, listed)
    kinds = {field.name: field.metadata["kind"] for field in dataclasses.fields(Rules)}
    if name not in kinds:
        raise unknown_name("field", [name], [PRESET_KEY, *kinds])
    kind = kinds[name]
    found: list[Any] = []
    for value in _split(name, values):
        if not isinstance(value, str):
            found.append(value)
            continue
        ranged = _RANGE.fullmatch(value.strip())
        if ranged is None:
            found.append(kind.parse(name, value.strip()))
            continue
        if not isinstance(kind, Integer):
            raise InputError(f"{name} takes no range ({value!r}): it is {kind.describe()}")
        low, high, step = int(ranged[1]), int(ranged[2]), int(ranged[3] or 1)
        if high < low or step < 1:
            raise InputError(f"the range {value!r} of {name} is empty: write LOW..HIGH with LOW <= HIGH, or "
                             "LOW..HIGH:STEP with a STEP of at least 1")
        if len(range(low, high + 1, step)) > MOST_CELLS:
            raise InputError(f"the range {value!r} of {name} has more than {MOST_CELLS:,} values, the most cells "
                             "a sweep may have")
        found.extend(range(low, high + 1, step))
    for value in found:
        if not kind.accepts(value):
            raise InputError(f"{name} must be {kind.describe()}, got {shown(value, kind.type_ok(value))}")
    return _distinct(name, [kind.normal(value) for value in found])


def _split(name: str, values: str | Iterable[Any]) -> list[Any]:
    if isinstance(values, str):
        listed: list[Any] = [value.strip() for value in values.split(",")]
        if not all(listed):
            raise InputError(f"{name} has an empty value in {values!r}: write values separated by commas, e.g. 1,2,3")
    elif isinstance(values, Iterable):
        listed = list(values)
    else:
        raise InputError(f"the values of {name} must be a list or text such as '0..10' or '10,25,50', got "
                         f"{shown(values)}")
    if not listed:
        raise InputError(f"the grid gives {name} no values: give at least one")
    return listed


def _distinct(name: str, values: list[Any]) -> list[Any]:
    twice = [value for number, value in enumerate(values) if value in values[:number]]
    if twice:
        raise InputError(f"{name} lists {twice[0]!r} twice: each value makes a cell")
    return values


def _pairs(players: str | Sequence[str | Sequence[PlayerSpec]]) -> list[tuple[Player, Player]]:
    """The player pairs of a sweep: one pair as ``"a,b"`` or a list of pairs."""
    listed = [players] if isinstance(players, str) else list(players)
    if not listed:
        raise InputError("the grid has no player pair: give at least one, e.g. 'simple,simple'")
    pairs = []
    for pair in listed:
        pairs.append(resolve_players(pair))
    names = [",".join(player.name for player in pair) for pair in pairs]
    _distinct("players", names)
    return pairs


def sweep_cells(grid: Mapping[str, str | Iterable[Any]],
                players: str | Sequence[str | Sequence[PlayerSpec]] = "simple,simple") -> list[Cell]:
    """The cells of a grid, in order: every preset (``grid["preset"]``, default the standard rules) with
    every combination of the fields' values, each with every player pair (the pairs vary fastest).
    Every cell's rules are checked before any is played; a cell that is not a valid rule set is named.

    >>> [cell.label() for cell in sweep_cells({"knock_limit": "9..10"}, ["simple,simple", "greedy,simple"])]
    ['knock_limit=9 | simple vs simple', 'knock_limit=9 | greedy vs simple', 'knock_limit=10 | simple vs simple', \
'knock_limit=10 | greedy vs simple']
    >>> sweep_cells({"preset": "standard,oklahoma", "knock_limit": "5"})
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: the cell preset=oklahoma, knock_limit=5 is not a valid rule set: oklahoma=True \
requires knock_limit=10 because Oklahoma sets the knock limit from the upcard, got knock_limit=5
    """
    if not isinstance(grid, Mapping):
        raise InputError(f"a grid is a mapping of rule fields to their values, got {shown(grid)}")
    values = {name: field_values(name, given) for name, given in grid.items()}
    pairs = _pairs(players)
    size = len(pairs) * int(np.prod([len(listed) for listed in values.values()], dtype=object))
    if size > MOST_CELLS:
        raise InputError(f"the grid has {size:,} cells, more than the {MOST_CELLS:,} a sweep may have: sweep fewer "
                         "values")
    if size == 1:
        raise InputError("the grid has a single cell: give a field two or more values, or two player pairs "
                         "(ginsim run plays a single run)")
    presets = values.pop(PRESET_KEY, ["standard"])
    cells: list[Cell] = []
    for preset, *chosen in itertools.product(presets, *values.values()):
        settings = dict(zip(values, chosen, strict=True))
        shown_values = {PRESET_KEY: preset, **settings} if PRESET_KEY in grid else settings
        try:
            rules = Rules.preset(preset).replace(**settings)
        except InputError as error:
            described = ", ".join(f"{name}={value}" for name, value in shown_values.items())
            raise InputError(f"the cell {described} is not a valid rule set: {error}") from None
        cells.extend(Cell(shown_values, rules, pair) for pair in pairs)
    return cells


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
    wanted = {name: ",".join(player_name(player) for player in _pairs([value])[0]) if name == "players"
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
    """Play every cell of the grid (see :func:`~ginsim.gin.studies.sweep.sweep_cells`) for ``hands`` hands (or
    ``matches`` matches) with ``seed``, and return the table of the module docstring.

    ``grid`` maps rule fields (and ``"preset"``) to their values (see :func:`~ginsim.gin.studies.sweep.field_values`);
    ``players`` is one pair (``"simple,simple"``) or a list of pairs. ``by`` groups a sweep of hands
    (the groups of :func:`~ginsim.summarize`); grouped by properties of the deal alone
    (:data:`~ginsim.gin.studies.groups.DEAL_GROUPS`), the differences are paired hand by hand; grouped by the
    knock limit (the rules decide it) or what the play decides, they are between independent samples. ``reference``
    picks the cell the others are compared with (``{"knock_limit": 10, "players": "simple,simple"}``;
    the values not named are the grid's first), by default the first cell.

    ``workers``, ``backend``, ``scheduler``, ``chunk_size``, ``progress`` and ``repair`` work as in
    :func:`~ginsim.simulate`, for each cell in turn (or all as one :class:`~ginsim.core.execution.RunOptions`,
    ``options=``); ``out`` stores the cells (see the module). A
    grid of more than :data:`~ginsim.gin.studies.sweep.MOST_CELLS` cells or :data:`~ginsim.gin.studies.sweep.MOST_HANDS`
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


def plot_sweep(table: pd.DataFrame, x: str | None, path: str | os.PathLike[str], subtitle: str = "", *,
               size: tuple[float, float] | None = None, dpi: int | None = None) -> Path:
    """Draw each rate of a :func:`~ginsim.sweep` table (of hands: knock, undercut, gin and draw; of matches:
    player 0's win rate) against the swept field ``x`` (default: the one with most values), one line
    per player pair (and value of the other swept fields), the 95% intervals as bands.

    >>> import tempfile, pathlib
    >>> table = sweep({"knock_limit": "0..10:5"}, ["simple,simple", "greedy,simple"], hands=300, workers=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "sweep.png"
    >>> plot_sweep(table, "knock_limit", path, "standard rules") == path
    True
    """
    from ginsim.gin.studies.plot import RATES, _figure, _write

    path = Path(path)
    if "players" not in table or "reference" not in table:
        raise InputError("plot_sweep draws the table of sweep()")
    swept = list(table.columns[:list(table.columns).index("players")])
    if "hands" in table and table.columns[list(table.columns).index("reference") + 1] != "hands":
        raise InputError("a sweep grouped by something is drawn whole: sweep without by to draw it")
    if x is None:
        x = max(swept, key=lambda name: table[name].nunique()) if swept else "players"
    if x not in [*swept, "players"]:
        raise InputError(f"cannot draw the sweep against {x!r}: it sweeps {', '.join([*swept, 'players'])}")
    rates = list(RATES) if "knock_rate" in table else [("win_rate_0", "player 0 wins the match")]
    lines = [name for name in [*swept, "players"] if name != x]
    order = list(dict.fromkeys(table[x]))
    numeric = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in order)
    figure = _figure(path, size or (4.2 * min(len(rates), 2) + 2.5, 3.4 * -(-len(rates) // 2)))
    panels = figure.subplots(-(-len(rates) // 2), min(len(rates), 2), squeeze=False).ravel()
    for axes, (rate, label) in zip(panels, rates, strict=False):
        for key, rows in table.groupby(lines, sort=False, dropna=False) if lines else [((), table)]:
            positions = (rows[x].to_numpy(float) if numeric else
                         np.array([order.index(value) for value in rows[x]], float))
            values = [100 * rows[column].to_numpy(float) for column in (rate, f"{rate}_low", f"{rate}_high")]
            named = ", ".join(f"{value}" if name == "players" else f"{name}={value}"
                              for name, value in zip(lines, key if isinstance(key, tuple) else (key,), strict=True))
            drawn = axes.plot(positions, values[0], "o-", markersize=3, linewidth=1.2, label=named or None)
            axes.fill_between(positions, values[1], values[2], alpha=0.2, color=drawn[0].get_color(), linewidth=0)
        if not numeric:
            axes.set_xticks(range(len(order)), [str(value) for value in order])
        axes.set_xlabel(x)
        axes.set_ylabel("share (%)")
        axes.set_title(label, fontsize="medium")
        axes.grid(alpha=0.3)
    for axes in panels[len(rates):]:
        axes.set_visible(False)
    if lines:
        panels[0].legend(fontsize="x-small")
    figure.suptitle(f"Rates against {x}", fontweight="bold")
    note = "bands: 95% intervals"
    figure.supxlabel(f"{subtitle}\n{note}" if subtitle else note, fontsize="small")
    return _write(figure, path, dpi)
