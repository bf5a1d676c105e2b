"""``ginsim tournament``: a round robin of Gin matches, the pairs' win rates and the players' ratings.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(tournament_command, ["--players", "simple,greedy", "--matches", "4",
...                                                  "--workers", "1"])
>>> result.exit_code, next(line.split()[:3] for line in result.output.splitlines() if line.startswith("player"))
(0, ['player', 'opponent', 'matches'])
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Final

import click

from gincore.errors import InputError
from ginsim.cli.options import (
    OutputPath,
    columns_option,
    csv_option,
    figure_options,
    json_option,
    placement_options,
    rules_options,
    seed_option,
)
from ginsim.cli.output import columns as chosen_columns
from ginsim.cli.report import source_line, write_csv, write_table
from ginsim.core.execution import RunOptions
from ginsim.gin.game.players import Player
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.specs import split_players

__all__ = ["AnchorParam", "tournament_command"]


class AnchorParam(click.ParamType):
    """The player whose rating is fixed, and at what: ``NAME=RATING``, e.g. ``simple=1500``."""

    name = "NAME=RATING"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, float]:
        if isinstance(value, tuple):
            return value
        name, equals, rating = str(value).rpartition("=")
        try:
            level = float(rating)
        except ValueError:
            level = math.nan
        if not equals or not name.strip() or not math.isfinite(level):
            self.fail(f"write the anchor as NAME=RATING, e.g. simple=1500; got {value!r}", param, ctx)
        return name.strip(), level


@click.command(name="tournament")
@rules_options
@click.option("--players", "names", required=True, metavar="A,B,C…",
              help="Strategies to play each other (two or more, comma-separated).")
@click.option("--matches", type=click.IntRange(min=2), default=1000, show_default=True,
              help="Games per pair (even with duplicate deals: each deal is played twice).")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play every deal sequence twice with the seats swapped, and pair the two games in the "
                   "intervals; without, half the games with each player in seat 0.")
@click.option("--anchor", type=AnchorParam(), default=None, metavar="NAME=RATING",
              help="Fix this player's rating (e.g. simple=1500, as the rating list of docs/strategies.md); "
                   "by default simple is 0, or without it the mean is 0.")
@seed_option
@placement_options
@csv_option("the pair table")
@csv_option("the ratings table", "--ratings-csv")
@json_option("the tables", ": the source, the pairs' rows and notes, the ratings")
@columns_option
@click.option("--plot", "figure", type=OutputPath(),
              help="Also draw the win rates as a heatmap in this file (png, svg, pdf, ...).")
@figure_options
def tournament_command(rules: Rules, names: str, matches: int, duplicate: bool, anchor: tuple[str, float] | None,
                       seed: int, common: RunOptions,
                       csv: Path | None, ratings_csv: Path | None, as_json: bool, columns: str | None,
                       figure: Path | None, size: tuple[float, float] | None, dpi: int | None) -> None:
    """Round robin of matches to the rules' target: win rates with 95% intervals for every pair, then
    Bradley–Terry ratings on the Elo scale.

    \b
    Examples:
      ginsim tournament --players simple,greedy,gin,defensive --matches 10000
      ginsim tournament --players simple,greedy,gin --matches 2000 --plot heat.png
      ginsim tournament --players simple,gin --matches 2000 --no-duplicate
      ginsim tournament --players simple,marjj,search --matches 20000 \\
        --out runs/rr

    With --out every pairing's games are stored in a directory of their own under it (runs/rr/marjj_5-vs-simple,
    ...): the same command again resumes a round robin that was stopped, and reads back the pairings played
    before, also when players are added.
    """
    from ginsim.gin.studies.plot import figure_format, plot_win_matrix
    from ginsim.gin.studies.ratings import ANCHOR, ratings
    from ginsim.gin.studies.tournament import DETAIL_COLUMNS, tournament, win_matrix

    if figure is not None:
        figure_format(figure)  # refuse a bad file name before the tournament is played
    players = [name for name in split_players(names) if name.strip()]
    anchored, level = anchor or (ANCHOR, 0.0)
    if anchor is not None:  # asked for by name: it must play (the library would fall back to the mean)
        anchored = Player.of(anchored).name
        if anchored not in {Player.of(player).name for player in players}:
            raise InputError(f"the anchor {anchor[0]} is not one of the players ({', '.join(players)})")
    table = tournament(rules, players, matches, seed, duplicate=duplicate, options=common)
    rated = ratings(table, anchored, level, duplicate=duplicate)  # with --matches 2 the table cannot tell
    # The text and the figure name a player as they show it (marjj for marjj:5, a long name cut) and say the
    # full name of one cut in a legend; the CSV and JSON rows keep the full names.
    seats = {seat.name: seat.display for seat in map(Player.of, players)}
    shown_names = short_names(list(dict.fromkeys(seats.values())))
    short = {name: shown_names[display] for name, display in seats.items()}
    legend = [f"{name} is {full}" for full, name in short.items() if name != seats[full]]
    deals = ", duplicate deals" if duplicate else ""
    shown_players = ", ".join(short[Player.of(name).name] for name in players)
    source = {"run": f"{rules.label()} | {shown_players} | {matches:,} matches per pair{deals} | seed {seed}",
              "rules": rules.to_dict(), "players": players, "seed": seed, "matches": matches, "duplicate": duplicate,
              "anchor": {"player": anchored, "rating": level}}
    if duplicate:
        sequences = f"{matches // 2:,} deal sequence" + ("s" if matches > 2 else "")
        notes = [f"every pair played {sequences} twice, the seats swapped; the intervals are "
                 "t-intervals over the deal pairs; width_ratio is the paired win-rate interval's width over the "
                 "Wilson interval's on the same games one by one"]
    else:
        notes = ["half the games with each player in seat 0; win rates with Wilson intervals"]
    fixed = f"{anchored} fixed at {level:g}" if anchored in set(rated["player"]) else f"mean {level:g}"
    rating_notes = [f"Bradley-Terry ratings on the Elo scale (400 points: odds of 10 to 1), {fixed}; score is "
                    "the share of points (a tie counts half); 95% intervals"
                    + (" from the deal pairs (quasi-binomial)" if duplicate else "")]
    if figure is not None:
        wins = win_matrix(table).rename(index=short, columns=short)
        plot_win_matrix(wins, figure, "\n".join([source_line(source), *legend]), size=size, dpi=dpi)
        click.echo(f"wrote {figure}: the match win rates of {len(wins)} players", err=True)  # stdout: the tables
    if as_json:
        shown = json.loads(write_table(table, source, csv=csv, as_json=True, columns=chosen_columns(columns),
                                       notes=notes, hidden=DETAIL_COLUMNS))
        rated_json = json.loads(write_table(rated, source, csv=ratings_csv, as_json=True, notes=rating_notes))
        shown["ratings"] = {"rows": rated_json["rows"], "notes": rated_json["notes"]}
        click.echo(json.dumps(shown, indent=2))
        return
    if csv is not None:
        write_csv(table, source, csv, notes)
    if ratings_csv is not None:
        write_csv(rated, source, ratings_csv, rating_notes)
    shown_table = table.assign(player=table["player"].map(short), opponent=table["opponent"].map(short))
    click.echo(write_table(shown_table, source, columns=chosen_columns(columns), notes=[*notes, *legend],
                           hidden=DETAIL_COLUMNS))
    click.echo("\n" + write_table(rated.assign(player=rated["player"].map(short)), source, notes=rating_notes))
    click.echo("\nmatch win rate of the row player against the column player:")
    matrix = win_matrix(table).rename(index=short, columns=short).to_string(
        float_format=lambda value: f"{100 * value:.1f}%", na_rep="-")
    click.echo("\n".join(line.rstrip() for line in matrix.splitlines()))


_LONGEST_SHOWN: Final = 20
"""The longest player name a table shows whole."""


def short_names(names: list[str]) -> dict[str, str]:
    """Each player's name as a table shows it: whole when short, else its strategy and the file a
    ``weights=`` parameter names (its stem), else its first characters; made unique with a number.

    >>> short_names(["simple", "learned(weights='/tmp/run/policy.npz')", "learned(weights='/x/y/policy.npz')"])
    {'simple': 'simple', "learned(weights='/tmp/run/policy.npz')": 'learned(policy)', \
"learned(weights='/x/y/policy.npz')": 'learned(policy)#2'}
    """
    shown: dict[str, str] = {}
    for name in names:
        short = name
        if len(name) > _LONGEST_SHOWN:
            weights = re.search(r"weights=['\"]?([^'\",)]+)", name)
            base = re.split(r"[(:]", name, maxsplit=1)[0]
            short = f"{base}({Path(weights[1]).stem})" if weights else f"{name[:_LONGEST_SHOWN - 1]}…"
        taken = set(shown.values())
        unique, number = short, 2
        while unique in taken:
            unique, number = f"{short}#{number}", number + 1
        shown[name] = unique
    return shown
