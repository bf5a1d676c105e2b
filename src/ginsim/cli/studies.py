"""Studies of stored runs: ``ginsim summary``, ``compare``, ``replay`` and ``plot``.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(replay, ["--seed", "1", "--hand", "5", "--letters"])
>>> result.exit_code, result.output.splitlines()[0]
(0, 'Hand 5 of seed 1 under standard rules: player 0 simple, player 1 simple')
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gincore.errors import InputError
from ginsim.cli.options import (
    OutputPath,
    RunPath,
    by_option,
    columns_option,
    csv_option,
    figure_options,
    given,
    hand_or_match_options,
    json_option,
    players_option,
    rules_options,
    seed_option,
    symbols_option,
    use_symbols,
)
from ginsim.cli.output import show_hand, write_run_table
from ginsim.cli.report import WIDTH, comparison_text, source_line, write_table
from ginsim.core.store import RUN_FILE, RunDirectory
from ginsim.gin.game.rules import Rules

if TYPE_CHECKING:
    from ginsim.gin.review.replay import GameRecord

__all__ = ["compare", "plot_command", "replay", "summary"]


@click.command()
@click.argument("path", type=RunPath())
@by_option
@csv_option("the table")
@json_option("the table", ": its source, rows and notes")
@columns_option
def summary(path: Path, by: tuple[str, ...], csv: Path | None, as_json: bool, columns: str | None) -> None:
    """Summarise a run directory of any game: rates with 95% intervals by upcard (or another grouping).

    \b
    Examples:
      ginsim summary runs/okla --by upcard
      ginsim summary runs/okla --by upcard_rank --by dealer --csv rates.csv
      ginsim summary runs/okla --by turn --by knocker
      ginsim summary runs/rummy4 --by seat

    A sweep's directory (ginsim sweep --out DIR) lists its cells, each a run to summarise.
    """
    from ginsim.games import KIND_DEFAULT, summarize_run
    from ginsim.gin.studies.sweep import SWEEP_FILE

    if (path / SWEEP_FILE).is_file() and not (path / RUN_FILE).exists():
        _sweep_cells(path, bool(by or csv or columns), as_json)
        return
    groups = KIND_DEFAULT if not by else None if "none" in by else list(dict.fromkeys(by))
    write_run_table(summarize_run(path, groups), RunDirectory.read(path).identity, csv, as_json, columns)


def _sweep_cells(path: Path, options: bool, as_json: bool) -> None:
    """What ``ginsim summary`` says of a sweep's directory: that it is one, and its cells, in the order
    they were started (the reference cell first), each with its run in one line."""
    from ginsim.games import describe_run

    cells = sorted((folder for folder in path.iterdir() if (folder / RUN_FILE).is_file()),
                   key=lambda folder: ((folder / RUN_FILE).stat().st_mtime_ns, folder.name))
    if options:
        example = f"{path / cells[0].name}" if cells else f"{path}/CELL"
        raise InputError(f"{path} is a sweep of {len(cells)} cells: summarise one cell (ginsim summary {example} "
                         "...), or give the sweep's command again to see them side by side")
    rows = []
    for cell in cells:
        try:
            identity = json.loads((cell / RUN_FILE).read_text())
            described = describe_run(identity)
        except (OSError, ValueError, InputError) as error:
            described = f"damaged: {error}"
        rows.append({"cell": cell.name, "run": described})
    if as_json:
        click.echo(json.dumps({"sweep": str(path), "cells": rows}, indent=2))
        return
    click.echo(f"{path} is a sweep of {len(rows)} cell{'s' if len(rows) != 1 else ''}, each a run directory "
               f"(ginsim summary {path}/CELL):")
    for row in rows:
        click.echo(f"  {row['cell']}")
        click.echo(f"      {row['run']}")


@click.command()
@click.argument("first", type=RunPath())
@click.argument("second", type=RunPath())
@click.option("--by", multiple=True, help="Compare group by group (repeat for several): for Gin hands upcard, "
              "upcard_rank, upcard_suit, knock_limit, dealer, first, winner, knocker or turn (the last three, which "
              "the play decides, unpaired); for classic Rummy players.")
@click.option("--unpaired", is_flag=True, help="Compare as independent samples even when the runs share their "
              "seed and size (by default such runs are paired hand by hand).")
@csv_option("the table")
@json_option("the table", " records")
def compare(first: Path, second: Path, by: tuple[str, ...], unpaired: bool, csv: Path | None, as_json: bool) -> None:
    """Compare two stored runs of the same kind: each rate and mean of SECOND against FIRST, with the
    difference's 95% interval and a test, * where significant after Holm's correction.

    Runs with the same seed and size played the same deals, so they are compared hand by hand
    (paired), which needs far fewer hands to see a difference.

    \b
    Examples:
      ginsim compare runs/standard runs/okla
      ginsim compare runs/standard runs/okla --by upcard_rank --csv difference.csv
      ginsim compare runs/standard runs/okla --by turn
    """
    from ginsim.games import compare_runs, describe_run

    groups = list(dict.fromkeys(by))
    table = compare_runs(first, second, groups or None, paired=False if unpaired else None)
    described = {"a": describe_run(RunDirectory.read(first).identity),
                 "b": describe_run(RunDirectory.read(second).identity)}
    how = "paired hand by hand" if bool(table["paired"].iloc[0]) else "as independent samples"
    note = f"b - a, {how}; * significant at 5% after Holm's correction for {len(table)} comparisons"
    source = {"run": f"a: {described['a']}; b: {described['b']}", **described}
    if csv is not None or as_json:
        printed = write_table(table, source, csv=csv, as_json=as_json, notes=[note])
        if as_json:
            click.echo(printed)
            return
    click.echo(source_line({}))
    for name, path in (("a", first), ("b", second)):
        click.echo(textwrap.fill(f"{name}: {path}  ({described[name]})", WIDTH, subsequent_indent="   "))
    click.echo(textwrap.fill(note, WIDTH))
    click.echo(comparison_text(table, groups))


@click.command()
@click.argument("path", required=False, type=RunPath())
@rules_options
@players_option
@seed_option
@hand_or_match_options
@symbols_option
@json_option("the hand or the game", " (a game as a record that ginsim analyze reads)")
def replay(path: Path | None, rules: Rules, players: tuple[str, str], seed: int, index: int | None,
           match: int | None, symbols: bool | None, as_json: bool) -> None:
    """Show hand I (--hand) or match I (--match, every hand of a game to the target) of a run, turn by
    turn: of the run directory PATH (its rules, players and seed), or of a Gin run with the rules,
    players and seed given. With --json, a hand is its trace and a match its game record; both are
    files ``ginsim analyze`` reads. A match of a run with duplicate deals is its first game, the
    players in their order.

    \b
    Examples:
      ginsim replay runs/okla --hand 42
      ginsim replay --rules oklahoma --seed 0 --hand 42
      ginsim replay runs/rummy3 --hand 7 --json
      ginsim replay --players marjj,greedy --seed 3 --match 0 --json
    """
    if (index is None) == (match is None):
        raise InputError("give --hand I or --match I (one of them)")
    if path is not None:
        named = given("preset", "players", "seed", *Rules.field_names())
        if named:
            option = "rules" if named[0] == "preset" else named[0].replace("_", "-")
            raise InputError(f"the run directory sets the rules, players and seed: drop --{option} (or the directory)")
    if match is not None:
        from ginsim.gin.review.replay import record_match

        if path is not None:
            rules, players, seed = _match_run(path, match)
        record = record_match(rules, players, seed, match)
        click.echo(json.dumps(record.to_json(), indent=1) if as_json else _match_text(record, use_symbols(symbols)))
        return
    assert index is not None
    if path is None:
        from ginsim.gin.game.hand import play_hand

        show_hand(play_hand(rules, players, seed, index), symbols, as_json)
        return
    from ginsim.games import replay_hand

    show_hand(replay_hand(path, index), symbols, as_json)


def _match_run(path: Path, match: int) -> tuple[Rules, tuple[str, str], int]:
    """The rules, players and seed of a run of Gin matches that holds match ``match``."""
    identity = RunDirectory.read(path).identity
    if identity.get("kind") != "matches":
        raise InputError(f"{path} holds no run of Gin matches: --match replays a match of one (use --hand for "
                         "a run of hands)")
    if identity.get("teams"):
        raise InputError(f"{path} holds team matches: --match replays a match of two players")
    if not 0 <= match < int(identity["size"]):
        raise InputError(f"match {match} is not in the run: it has matches 0 to {int(identity['size']) - 1}")
    players = identity["players"]
    return Rules.from_dict(identity["rules"]), (players[0], players[1]), int(identity["seed"])


def _match_text(record: GameRecord, symbols: bool) -> str:
    from ginsim.gin.game.players import shown_name

    assert record.totals is not None
    first, second = (shown_name(name) for name in record.players)
    lines = [f"Match {record.match} of seed {record.seed} under {record.rules.label()}: player 0 "
             f"{first}, player 1 {second}; {len(record.hands)} hands, totals {record.totals[0]} to {record.totals[1]}"]
    for hand in record.hands:
        traced = hand.traced(record.rules, record.players)
        assert traced is not None and hand.scores is not None
        body = traced.to_text(symbols).split("\n", 1)[1]  # its first line names the rules and players again
        lines += ["", f"Hand {hand.hand}, at {hand.scores[0]} to {hand.scores[1]}:", body]
    return "\n".join(lines)


@click.command(name="plot")
@click.argument("path", type=RunPath())
@by_option
@click.option("-o", "--output", type=OutputPath(), required=True,
              help="The figure file; its extension picks the format (png, pdf, svg, ...).")
@click.option("--curves", is_flag=True, help="Draw when the hands end instead: the cumulative share of hands over "
              "by each draw, per outcome (a run with a record per hand).")
@figure_options
def plot_command(path: Path, by: tuple[str, ...], output: Path, curves: bool, size: tuple[float, float] | None,
                 dpi: int | None) -> None:
    """Draw a Gin run: the knock, undercut, gin and draw rates of a run of hands, or each player's
    match win rate of a run of matches, with their 95% intervals.

    The rates are those of ``ginsim summary PATH --by ...``; the title names the run's rules, players,
    size and seed. The figure is written whole or not at all.

    \b
    Examples:
      ginsim plot runs/okla --by upcard -o rates.png
      ginsim plot runs/okla --by upcard_rank --by dealer -o rates.svg --size 12x5
      ginsim plot runs/matches -o wins.png --dpi 200
      ginsim plot runs/okla --by turn -o by-turn.png
      ginsim plot runs/okla --curves -o when.png
    """
    from ginsim.games import describe_run, read_run, shown_players
    from ginsim.gin.studies.plot import figure_format, plot_match_rates, plot_rates
    from ginsim.gin.studies.summary import COUNTS, HANDS, MATCHES, summarize, summarize_matches

    figure_format(output)  # refuse a bad file name before reading the run
    kind, identity, results = read_run(path)
    if kind is MATCHES:
        if by:
            raise InputError("a run of matches is drawn whole: leave out --by")
        table = summarize_matches(results)
        plot_match_rates(table, shown_players(identity), output, source_line({"run": describe_run(identity)}),
                         size=size, dpi=dpi)
        click.echo(f"wrote {output}: {int(table['matches'].iloc[0]):,} matches")
        return
    if kind not in (HANDS, COUNTS):
        raise InputError(f"{path} holds a run of {kind.name.replace('_', ' ')}: plot draws a Gin run of hands "
                         "or of matches (ginsim run --hands N --out DIR)")
    if curves:
        from ginsim.gin.studies.curves import plot_turn_curves, turn_curves

        if by:
            raise InputError("--curves draws every hand by its draw: leave out --by")
        if kind is not HANDS:
            raise InputError(f"{path} is a streamed run, which keeps no draws per hand: --curves needs a run with "
                             "records (ginsim run --hands N --out DIR, without --stream)")
        table = turn_curves(results)
        plot_turn_curves(table, output, source_line({"run": describe_run(identity)}), size=size, dpi=dpi)
        click.echo(f"wrote {output}: {len(results):,} hands, {int(table['turn'].max())} draws at most")
        return
    groups = ["upcard"] if not by else [] if "none" in by else list(dict.fromkeys(by))
    table = summarize(results, by=groups or None)
    plot_rates(table, groups, output, source_line({"run": describe_run(identity)}), size=size, dpi=dpi)
    click.echo(f"wrote {output}: {len(table)} group{'s' if len(table) != 1 else ''}, "
               f"{int(table['hands'].sum()):,} hands")
