"""``ginsim rummy``: classic Rummy runs, replays, rules and strategies.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(rummy_group, ["run", "--players", "greedy,random", "--hands", "100",
...                                           "--workers", "1"])
>>> result.exit_code, result.output.splitlines()[0]
(0, '100 rummy hands of greedy (player 0) vs random (player 1), seed 0')
"""
from __future__ import annotations

from typing import Any

import click

from gincore.errors import InputError
from ginsim import rummy
from ginsim.cli.options import (
    hand_index_option,
    json_option,
    rummy_players_option,
    rummy_rules_options,
    run_options,
    seed_option,
    symbols_option,
)
from ginsim.cli.output import list_fields, list_strategies, report_run, show_hand
from ginsim.core.execution import RunOptions

__all__ = ["rummy_group"]


@click.group(name="rummy")
def rummy_group() -> None:
    """Classic Rummy for two to six players (docs/rules.md#classic-rummy): runs, replays, rules, strategies.

    \b
    Examples:
      ginsim rummy run --players greedy,greedy,random --hands 100000 \\
        --out runs/rummy3
      ginsim rummy run --players greedy,random --games 1000 --target 250
      ginsim summary runs/rummy3 --by seat
      ginsim rummy replay --players greedy,greedy,random --seed 0 --hand 7
    """


@rummy_group.command(name="run")
@rummy_rules_options
@rummy_players_option
@click.option("--hands", type=click.IntRange(min=1), help="Play this many independent hands.")
@click.option("--games", type=click.IntRange(min=1), help="Play this many games to the rules' target.")
@run_options
def rummy_run(rules: rummy.Rules, players: tuple[str, ...], hands: int | None, games: int | None, seed: int,
              common: RunOptions, report: dict[str, Any]) -> None:
    """Play seeded classic Rummy hands (or games) and print the run's summary.

    \b
    Examples:
      ginsim rummy run --players greedy,greedy,greedy,random --hands 100000
      ginsim rummy run --players greedy,random --games 1000 --max-turnovers 1
    """
    if (hands is None) == (games is None):
        raise InputError("give exactly one of --hands N or --games N")
    if games is not None:
        played = rummy.simulate_games(rules, players, games, seed, options=common)
        table, what = rummy.summarize_games(played), f"{games} rummy games"
    else:
        assert hands is not None
        played = rummy.simulate(rules, players, hands, seed, options=common)
        table, what = rummy.summarize(played, by=None), f"{hands} rummy hands"
    report_run(what, played.attrs["identity"], report, table)


@rummy_group.command(name="replay")
@rummy_rules_options
@rummy_players_option
@seed_option
@hand_index_option
@symbols_option
@json_option("the hand")
def rummy_replay(rules: rummy.Rules, players: tuple[str, ...], seed: int, index: int, symbols: bool | None,
                 as_json: bool) -> None:
    """Show hand I of a classic Rummy run with seed S, step by step (for a run directory:
    ginsim replay DIR --hand I).

    \b
    Example:
      ginsim rummy replay --players greedy,greedy,random --seed 0 --hand 7
    """
    show_hand(rummy.play_hand(rules, players, seed, index), symbols, as_json)


@rummy_group.command(name="rules")
@json_option("the fields")
def rummy_rules_command(as_json: bool) -> None:
    """List every classic Rummy rule field with its default and allowed values."""
    list_fields(rummy.Rules, as_json, "rummy run and rummy replay")


@rummy_group.command(name="strategies")
def rummy_strategies_command() -> None:
    """List the built-in classic Rummy strategies, one line each."""
    list_strategies(rummy.STRATEGIES)
