"""``ginsim play``: a game of Gin Rummy in the terminal against a strategy.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(play_command, ["--seed", "1", "--letters"], input="q\\n")
>>> result.exit_code, result.output.splitlines()[0]
(0, 'Gin Rummy, standard rules: you against greedy, a game to 100, seed 1.')
"""
from __future__ import annotations

import os
import signal
import textwrap
from pathlib import Path
from typing import Any

import click

from gincore.errors import InputError
from ginsim.cli.options import rules_options, symbols_option, use_symbols
from ginsim.cli.report import WIDTH
from ginsim.core.store import writable_file
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import STRATEGIES
from ginsim.gin.review.analysis import DEFAULT_DEALS
from ginsim.gin.review.replay import GameRecord

__all__ = ["StrategyParam", "play_command"]


class StrategyParam(click.ParamType):
    """One strategy: a built-in name (``greedy``, ``threshold:5``) or a Python one (``module:Class``,
    ``path/file.py:Class``)."""

    name = "strategy"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> PlayerSpec:
        from ginsim.gin.game.players import Player

        if not isinstance(value, str):
            return value  # type: ignore[no-any-return]
        try:
            return Player.of(value)
        except InputError as error:
            self.fail(str(error), param, ctx)


@click.command(name="play")
@rules_options
@click.option("--against", type=StrategyParam(), default="greedy", show_default=True,
              help=f"The strategy you play: {', '.join(STRATEGIES)}, or a Python one as module:Class or "
                   "file.py:Class.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals: a game with the same seed gets the same first deal  [default: random]")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game's record (every hand played to its end) to this file, for ginsim analyze.")
@click.option("--hints", is_flag=True, help="Before each decision show the best option and its margin; after "
              "each hand, its analysis.")
@click.option("--deals", type=click.IntRange(2, 1 << 16), default=DEFAULT_DEALS, show_default=True,
              help="Play-outs per option behind the hints.")
@symbols_option
def play_command(rules: Rules, against: PlayerSpec, seed: int | None, save: Path | None, hints: bool, deals: int,
                 symbols: bool | None) -> None:
    """Play a game of Gin Rummy in the terminal against a strategy.

    You sit in seat 0. Before each decision you see your hand arranged into melds and deadwood, its
    deadwood count, the hand's knock limit and multiplier, the discard pile and the stock; a knock is
    offered only when your discard leaves deadwood within the limit. After each hand both hands are
    shown with lay-offs and points; the game ends at the target with box, game and shutout bonuses.

    Type q to quit (exit status 0) or ? for help. If the input ends before the game does (end of
    file), the game is abandoned with a message and exit status 1.

    --save FILE keeps the game's record for ``ginsim analyze FILE``; --hints shows, before each of
    your decisions, the best option by play-outs from what you have seen, and after each hand your
    decisions' analysis.

    \b
    Examples:
      ginsim play
      ginsim play --rules oklahoma --against sampler --target 250 --seed 7
      ginsim play --against marjj --hints --save game.json
    """
    import secrets

    from ginsim.gin.review.hints import Hints
    from ginsim.gin.review.interactive import Console, Stop, play_game, read_line

    if save is not None:
        writable_file(save)  # before the first deal: a game is not played for a record that cannot be kept
    seed = secrets.randbelow(1 << 32) if seed is None else seed
    console = Console(read_line, click.echo, use_symbols(symbols))
    stopping: list[int] = []

    def terminated(signum: int, frame: object) -> None:  # SIGTERM stops the game as Ctrl-C does: saved
        stopping.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        game = play_game(rules, against, seed, console,
                         Hints(rules, deals, symbols=console.symbols) if hints else None)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if save is not None and game.record is not None:
        if game.record.hands:
            _save(game.record, save)
        else:
            click.echo(f"No hand was played to its end: {save} is not written.")
    if game.finished:
        return
    from ginsim.gin.game.players import display_name

    where = (f"in hand {game.hands} (points so far: you {game.totals[0]}, {display_name(against)} "
             f"{game.totals[1]})")
    if game.stopped_by is Stop.QUIT:
        click.echo("\n" + textwrap.fill(f"You quit the game {where}. The same deals again: --seed {seed}.", WIDTH))
        return
    if game.stopped_by is Stop.INTERRUPT:
        from ginsim.cli import Interrupted  # the package imports this module

        raise Interrupted(f"the game stopped {where}; the same deals again: --seed {seed}",
                          stopping[0] if stopping else signal.SIGINT)
    click.echo("\n" + textwrap.fill(f"The input ended {where}: game abandoned.", WIDTH), err=True)
    raise click.exceptions.Exit(1)


def _save(record: GameRecord, path: Path) -> None:
    """Write the game's record to ``path``; if that fails now (the folder removed or made read-only
    during the game), to a new file in the system's temporary folder, and say where, exit status 2:
    a game played is never lost."""
    import tempfile

    try:
        record.save(path)
    except (InputError, OSError) as error:
        why = str(error) if isinstance(error, InputError) else f"cannot write {path}: {error.strerror or error}"
        handle, name = tempfile.mkstemp(prefix="ginsim-game-", suffix=".json")
        os.close(handle)
        kept = record.save(name)
        raise InputError(f"{why}; the game's record ({_hands(record)}) is kept in {kept} instead: "
                         f"ginsim analyze {kept}") from None
    click.echo(f"The game's record ({_hands(record)}) is in {path}: ginsim analyze {path}")


def _hands(record: GameRecord) -> str:
    count = len(record.hands)
    return f"{count} hand{'' if count == 1 else 's'}"
