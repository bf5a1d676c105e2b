"""``ginsim play``: a game of Gin Rummy in the terminal against a strategy.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(play_command, ["--seed", "1", "--letters"], input="q\\n")
>>> result.exit_code, result.output.splitlines()[0]
(0, 'Gin Rummy, standard rules: you against greedy, a game to 100, seed 1.')
"""
from __future__ import annotations

from typing import Any

import click

from gincore.errors import InputError
from ginsim.cli.options import rules_options, symbols_option, use_symbols
from ginsim.gin.rules import Rules
from ginsim.gin.strategies import STRATEGIES, PlayerSpec

__all__ = ["StrategyParam", "play_command"]


class StrategyParam(click.ParamType):
    """One strategy: a built-in name (``greedy``, ``threshold:5``) or a Python one (``module:Class``,
    ``path/file.py:Class``)."""

    name = "strategy"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> PlayerSpec:
        from ginsim.gin.strategies import player_of

        if not isinstance(value, str):
            return value  # type: ignore[no-any-return]
        try:
            return player_of(value)
        except InputError as error:
            self.fail(str(error), param, ctx)


@click.command(name="play")
@rules_options
@click.option("--against", type=StrategyParam(), default="greedy", show_default=True,
              help=f"The strategy you play: {', '.join(STRATEGIES)}, or a Python one as module:Class or "
                   "file.py:Class.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals: a game with the same seed gets the same first deal  [default: random]")
@symbols_option
def play_command(rules: Rules, against: PlayerSpec, seed: int | None, symbols: bool | None) -> None:
    """Play a game of Gin Rummy in the terminal against a strategy.

    You sit in seat 0. Before each decision you see your hand arranged into melds and deadwood, its
    deadwood count, the hand's knock limit and multiplier, the discard pile and the stock; a knock is
    offered only when your discard leaves deadwood within the limit. After each hand both hands are
    shown with lay-offs and points; the game ends at the target with box, game and shutout bonuses.

    Type q to quit (exit status 0) or ? for help. If the input ends before the game does (end of
    file), the game is abandoned with a message and exit status 1.

    \b
    Examples:
      ginsim play
      ginsim play --rules oklahoma --against sampler --target 250 --seed 7
    """
    import secrets

    from ginsim.gin.interactive import Console, Stop, play_game, read_line

    seed = secrets.randbelow(1 << 32) if seed is None else seed
    console = Console(read_line, click.echo, use_symbols(symbols))
    game = play_game(rules, against, seed, console)
    if game.finished:
        return
    from ginsim.gin.strategies import player_name

    where = (f"in hand {game.hands + 1} (points so far: you {game.totals[0]}, {player_name(against)} "
             f"{game.totals[1]})")
    if game.stopped_by is Stop.QUIT:
        click.echo(f"\nYou quit the game {where}. The same deals again: --seed {seed}.")
        return
    click.echo(f"\nThe input ended {where}: the game is abandoned.", err=True)
    raise click.exceptions.Exit(1)
