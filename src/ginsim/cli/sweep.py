"""``ginsim sweep``: a grid of rule variants and player pairs, every cell played on the same deals.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(sweep_command, ["--knock-limit", "5,10", "--hands", "500", "--workers", "1"])
>>> header = next(line for line in result.stdout.splitlines() if line.startswith("knock_limit"))
>>> result.exit_code, header.split()[:4]
(0, ['knock_limit', 'players', 'hands', 'knock'])
>>> [line.split()[-1] for line in result.stdout.splitlines() if line.startswith("knock_limit")]  # three blocks
['points', 'gin_diff', 'turns_diff']
"""
from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import click
import pandas as pd

from gincore.errors import InputError
from ginsim.cli.options import (
    Command,
    OutputPath,
    columns_option,
    csv_option,
    figure_options,
    json_option,
    placement_options,
    seed_option,
)
from ginsim.cli.output import columns as chosen_columns
from ginsim.cli.report import GIN_RATES_NOTE, source_line, write_csv, write_table
from ginsim.core.execution import RunOptions
from ginsim.core.fields import Integer
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.grid import player_pairs
from ginsim.gin.studies.groups import GROUPS

__all__ = ["sweep_command"]


def _grid_options(command: Command) -> Command:
    """``--rules PRESETS`` and one ``--FIELD VALUES`` option per Gin rule field; passes ``grid``, the
    swept fields in their declared order (the presets under ``preset`` unless only the standard one)."""
    @functools.wraps(command)
    def wrapper(*args: Any, presets: str, **options: Any) -> Any:
        grid = {name: options.pop(name) for name in Rules.field_names()}
        swept = {name: values for name, values in grid.items() if values is not None}
        if presets.strip() != "standard":
            swept = {"preset": presets, **swept}
        return command(*args, grid=swept, **options)

    decorated: Command = wrapper
    for field in reversed(dataclasses.fields(Rules)):
        ranges = ", or a range such as 0..10 or 0..100:25" if isinstance(field.metadata["kind"], Integer) else ""
        decorated = click.option(f"--{field.name.replace('_', '-')}", field.name, metavar="VALUES",
                                 help=f"{field.metadata['description'][0].upper()}{field.metadata['description'][1:]}:"
                                      f" values separated by commas{ranges}  [default: the preset's]")(decorated)
    return click.option("--rules", "presets", default="standard", show_default=True, metavar="PRESET[,PRESET...]",
                        help="The rules preset, or several to sweep them; the options below change each.")(decorated)


@click.command(name="sweep")
@_grid_options
@click.option("--players", "pairs", multiple=True, metavar="A,B",
              help="A player pair (repeat for several)  [default: simple,simple]")
@click.option("--hands", type=click.IntRange(min=1), help="Hands per cell.")
@click.option("--matches", type=click.IntRange(min=1), help="Matches (games to the rules' target) per cell.")
@click.option("--by", multiple=True, type=click.Choice(list(GROUPS)), metavar="COLUMN",
              help=f"Summarise each cell by this column (repeat for several): {', '.join(GROUPS)}  "
                   "[default: the whole cell]")
@click.option("--reference", "references", multiple=True, metavar="FIELD=VALUE",
              help="The cell the others are compared with, by its value of a swept field or players=A,B (repeat "
                   "for several)  [default: the first cell]")
@seed_option
@placement_options
@csv_option("the table")
@click.option("--parquet", type=OutputPath(), help="Also write the table as Parquet.")
@json_option("the table", ": its source, rows and notes")
@columns_option
@click.option("--plot", "figure", type=OutputPath(),
              help="Also draw each rate against a swept field, a line per player pair, in this file (png, svg, ...).")
@click.option("--x", "x_field", metavar="FIELD", help="The swept field across the plot  [default: the one with the "
              "most values]")
@figure_options
def sweep_command(grid: dict[str, str], pairs: tuple[str, ...], hands: int | None, matches: int | None,
                  by: tuple[str, ...], references: tuple[str, ...], seed: int, common: RunOptions,
                  csv: Path | None, parquet: Path | None, as_json: bool, columns: str | None, figure: Path | None,
                  x_field: str | None, size: tuple[float, float] | None, dpi: int | None) -> None:
    """Play a grid of rule variants and player pairs, every cell on the same deals, and print each cell's
    rates with 95% intervals and its difference to the reference cell (paired hand by hand, Holm's
    correction over the table).

    A field given several values is swept: a list (10,25,50), a range (0..10, both ends included;
    0..100:25 every 25th) or both (0..3,10); --rules takes several presets. With --out every cell is a run
    directory under it (ginsim summary and compare read them); the same command again resumes, and a grown
    grid plays only its new cells.

    \b
    Examples:
      ginsim sweep --knock-limit 0..10 --players marjj,simple --plot kl.png
      ginsim sweep --undercut-bonus 10,25,50 --out runs/undercut --csv uc.csv
      ginsim sweep --rules standard,oklahoma,straight --matches 2000
      ginsim sweep --knock-limit 0..10 --reference knock_limit=10 --by dealer
    """
    from ginsim.core.store import atomic_write
    from ginsim.gin.studies.groups import DEAL_GROUPS
    from ginsim.gin.studies.plot import figure_format, plot_sweep
    from ginsim.gin.studies.sweep import sweep

    if figure is not None:
        figure_format(figure)  # refuse a bad file name before the sweep is played
        if by:
            raise InputError("--plot draws whole cells: leave out --by (or --plot)")
    elif x_field is not None:
        raise InputError("--x goes with --plot")
    reference: dict[str, str] = {}
    for item in references:
        name, separator, value = item.partition("=")
        if not separator or not name.strip():
            raise InputError(f"--reference takes FIELD=VALUE, e.g. knock_limit=10, got {item!r}")
        reference[name.strip().replace("-", "_")] = value.strip()
    players = list(pairs) or ["simple,simple"]
    table = sweep(grid, players, hands, seed, matches=matches, by=list(by) or None, reference=reference or None,
                  options=common)
    unit = "hands" if matches is None else "matches"
    per_cell = hands if matches is None else matches
    swept = ", ".join(f"{name} {values}" for name, values in grid.items()) or "players"
    # The text and the figure name each pair as the source line does, by its players' display names
    # (marjj for marjj:5); the CSV, Parquet and JSON rows keep the full names.
    shown = {",".join(seat.name for seat in pair): ",".join(seat.display for seat in pair)
             for pair in player_pairs(players)}
    source = {"run": f"sweep of {swept} | {'; '.join(shown.values())} | {per_cell:,} {unit} per cell | seed {seed}",
              "grid": grid, "players": players, "seed": seed, unit: per_cell}
    tests = int(table.filter(regex="_p_holm$").notna().to_numpy().sum())
    notes = ([GIN_RATES_NOTE] if matches is None else []) + [
        "each _diff is the cell's value minus the reference cell's, with its 95% interval; "
        + ("paired hand by hand (every cell plays the same deals)" if set(by) <= set(DEAL_GROUPS)
           else "between independent samples (the groups depend on the play or the rules)")
        + f"; _diff_p_holm is its p-value after Holm's correction for the {tests:,} comparisons in the table"]
    # The compact view: the rates and what changes between the cells (--columns all shows every mean,
    # difference and p-value), in blocks that fit 80 columns, each naming the cells; the reference cell
    # and the measures that are the same in every cell are said in notes.
    same = _the_same_in_every_cell(table)
    shown_means = tuple(mean for mean in ("mean_points", "mean_turns") if mean in table and mean not in same)
    hidden = [column for column in table.columns
              if column.endswith("_p_holm") or column == "reference"
              or column.startswith(("mean_points", "mean_turns")) and not column.startswith(shown_means)
              or column.startswith("win_rate_0_diff") and "knock_rate" in table
              or column.endswith("_diff") and column.removesuffix("_diff") in same]
    if same:
        notes.append("the same in every cell, their differences 0 and not shown: "
                      + ", ".join(name.removesuffix("_rate").removeprefix("mean_") for name in same))
    keys = [*table.columns[:list(table.columns).index("reference")], *by]
    displayed = table.assign(players=[shown.get(pair, pair) for pair in table["players"]])
    named = displayed.loc[table["reference"], keys[:len(keys) - len(by)]].iloc[0]
    notes.append("the reference cell: " + ", ".join(f"{name}={value}" for name, value in named.items()))
    if parquet is not None:
        atomic_write(parquet, lambda handle: table.to_parquet(handle, index=False))
    if figure is not None:
        plot_sweep(displayed, x_field, figure, source_line(source), size=size, dpi=dpi)
        cells = len(table.drop_duplicates(subset=keys[:len(keys) - len(by)]))
        click.echo(f"wrote {figure}: {cells:,} cells", err=True)  # stderr: the table (or its JSON) alone on stdout
    if csv is not None:
        write_csv(table, source, csv, notes)
    click.echo(write_table(table if as_json else displayed, source, as_json=as_json, columns=chosen_columns(columns),
                           notes=notes, hidden=hidden, keys=keys))


def _the_same_in_every_cell(table: pd.DataFrame) -> list[str]:
    """The measures whose difference to the reference cell is 0, with an interval of 0, in every row:
    what the swept values did not change (an undercut bonus changes the points, not the rates).

    >>> table = pd.DataFrame({"gin_rate_diff": [0.0, 0.0], "gin_rate_diff_low": [0.0, 0.0],
    ...                       "gin_rate_diff_high": [0.0, 0.0], "mean_points_diff": [0.0, 1.5],
    ...                       "mean_points_diff_low": [0.0, 1.0], "mean_points_diff_high": [0.0, 2.0]})
    >>> _the_same_in_every_cell(table)
    ['gin_rate']
    """
    same = []
    for column in table.columns:
        if column.endswith("_diff") and {f"{column}_low", f"{column}_high"} <= set(table.columns):
            values = table[[column, f"{column}_low", f"{column}_high"]].astype(float).fillna(0.0).to_numpy()
            if (values == 0).all():
                same.append(column.removesuffix("_diff"))
    return same
