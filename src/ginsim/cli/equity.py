"""``ginsim equity``: the match equity table of a game to a target, as a grid of percentages, a
heatmap, CSV or JSON.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(equity_command, ["--target", "20", "--hands", "2000", "--workers", "1",
...                                              "--replicates", "20", "--step", "5"])
>>> result.exit_code, next(line.split() for line in result.output.splitlines() if line.startswith("score"))
(0, ['score', '0', '5', '10', '15'])
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import click

from gincore.errors import InputError
from ginsim.cli.options import (
    csv_option,
    figure_options,
    given,
    json_option,
    players_option,
    progress_option,
    rules_options,
    seed_option,
    workers_option,
)
from ginsim.cli.report import WIDTH, source_line, write_csv, write_table
from ginsim.gin.game.players import PlayerSpec, shown_name
from ginsim.gin.game.rules import Rules

__all__ = ["equity_command"]


@click.command(name="equity")
@rules_options
@players_option
@click.option("--hands", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Hands simulated to measure the hands' outcomes (at most 10^18).")
@seed_option
@workers_option()
@click.option("--replicates", type=click.IntRange(min=2), default=None,
              help="Bootstrap replicates of the hands' outcome counts behind the 95% intervals, at most "
                   "4*10^9 / target^3 (4,000 to 100, 4 to 1000)  [default: 400, or that most]")
@click.option("--shipped", is_flag=True, help="Show the table that ships with ginsim for these rules (simple "
              "against itself, 10^8 hands) instead of simulating.")
@click.option("--step", type=click.IntRange(min=1), help="Show every STEP-th score in the printed grid  "
              "[default: a tenth of the target]")
@csv_option("the whole table (every score pair and dealer)")
@json_option("the whole table", ": its source, rows and notes")
@progress_option()
@click.option("--plot", "figure", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the table as heatmaps in this file (png, svg, pdf, ...).")
@figure_options
def equity_command(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int, seed: int,
                   workers: int | None, replicates: int | None, shipped: bool, step: int | None, csv: Path | None,
                   as_json: bool, progress: bool | None, figure: Path | None, size: tuple[float, float] | None,
                   dpi: int | None) -> None:
    """The match equity table: the first player's chance to win a game to the rules' target (--target)
    from every pair of scores (and whoever deals next), with 95% intervals, by a dynamic programme over
    the outcomes of simulated hands. Prints the chance at every STEP-th score, averaged over who deals
    next.

    \b
    Examples:
      ginsim equity --rules oklahoma --target 250
      ginsim equity --players gin,simple --hands 2000000 --plot equity.png \\
        --csv equity.csv
      ginsim equity --rules oklahoma --shipped --step 5
    """
    from ginsim.gin.studies.equity import equity_grid, equity_table, shipped_equity
    from ginsim.gin.studies.plot import figure_format, plot_equity

    if figure is not None:
        figure_format(figure)  # refuse a bad file name before the table is made
    if shipped:
        simulated = given("players", "hands", "seed", "workers", "replicates")
        if simulated:
            raise InputError(f"--shipped shows a table made before: --{simulated[0]} does not go with it")
        table = shipped_equity(rules)
        if table is None:
            raise InputError(f"no table ships with ginsim for {rules.label()}; leave out --shipped to make one")
    else:
        table = equity_table(rules, None, players, hands, seed, replicates=replicates, workers=workers,
                             progress=progress)
    attributes = table.attrs
    half = (table["high"] - table["low"]) / 2
    edge = 100 * (table[table["dealer"]]["equity"].to_numpy() - table[~table["dealer"]]["equity"].to_numpy())
    notes = [f"95% intervals within ±{100 * half.max():.3f} percentage points (mean ±{100 * half.mean():.3f}), from "
             f"{attributes['replicates']} bootstrap replicates of the outcome counts of {attributes['hands']:,} "
             f"hands; dealing the next hand is worth {edge.min():+.2f} to {edge.max():+.2f} percentage points"]
    if "game" in attributes:
        notes.append(f"Hollywood: the table of {attributes['game']}, a plain game to the target")
    source = {"run": attributes["run"], **{name: attributes[name] for name in ("rules", "target", "players",
                                                                               "hands", "seed")}}
    if figure is not None:
        plot_equity(table, figure, source_line(source), size=size, dpi=dpi)
        click.echo(f"wrote {figure}: the chance to win from every score", err=True)  # stdout: the table
    if as_json:
        click.echo(write_table(table, source, csv=csv, as_json=True, notes=notes))
        return
    if csv is not None:  # the whole table to the file; the screen shows the grid below, not every row
        write_csv(table, source, csv, notes)
    grid = equity_grid(table, step or max(1, int(attributes["target"]) // 10))
    player, opponent = (shown_name(name) for name in attributes["players"])
    heading = (f"chance (%) that {player} wins from its score (rows) against {opponent}'s (columns), averaged over "
               "who deals next")
    lines = [*textwrap.wrap(source_line(source), WIDTH, subsequent_indent="  ", break_on_hyphens=False),
             *textwrap.wrap(heading, WIDTH),
             "score" + "".join(f"{column:>7}" for column in grid.columns)]
    lines += [f"{score:>5}" + "".join(f"{100 * value:7.1f}" for value in row) for score, row in grid.iterrows()]
    click.echo("\n".join(lines + [textwrap.fill(f"({note})", WIDTH) for note in notes]))
