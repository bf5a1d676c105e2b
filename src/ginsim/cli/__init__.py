"""The ``ginsim`` command line: the click group, its error handling, and the commands by family.

Every mistake in the input ends with one line naming the problem and exit status 2, never a traceback.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["hand", "AC 2C 3C KD", "--any-size"])
>>> result.exit_code, result.output.splitlines()[1]
(0, 'deadwood: 10')
>>> result = CliRunner().invoke(main, ["hand", "AC 1X"])
>>> result.exit_code, result.output.strip()
(2, "Error: Invalid value for 'CARDS': unknown card '1X': write rank (A 2-9 10 T J Q K) then suit (C D H S), e.g. 'TH'")
"""
from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.cli.analyze import analyze_command
from ginsim.cli.bench import bench_command, exact_command
from ginsim.cli.dataset import dataset_command
from ginsim.cli.equity import equity_command
from ginsim.cli.hand import hand
from ginsim.cli.knocking import when_to_knock
from ginsim.cli.play import play_command
from ginsim.cli.record import record_command
from ginsim.cli.rummy import rummy_group
from ginsim.cli.run import rules_command, run, strategies_command
from ginsim.cli.serve import serve_command
from ginsim.cli.studies import compare, plot_command, replay, summary
from ginsim.cli.sweep import sweep_command
from ginsim.cli.tournament import tournament_command
from ginsim.cli.train import train_command
from ginsim.core.execution import LOG, RunInterrupted

__all__ = ["BadInput", "Interrupted", "main"]


class BadInput(click.ClickException):
    """A mistake in what the user asked for: one line, exit status 2."""

    exit_code = 2


class Interrupted(click.ClickException):
    """Ctrl-C or SIGTERM during a run into a directory: what was kept, exit status 128 + the signal's number
    (130 for Ctrl-C, 143 for SIGTERM)."""

    exit_code = 130

    def __init__(self, message: str, signal_number: int) -> None:
        super().__init__(message)
        self.status = 128 + signal_number


class _Group(click.Group):
    """A click group whose every error is one line on stderr, with no usage block or traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as error:  # the library's one-line messages about bad input; bugs keep tracebacks
            raise BadInput(str(error)) from None
        except RunInterrupted as interrupted:  # before click turns every Ctrl-C into a bare "Aborted!"
            raise Interrupted(str(interrupted), interrupted.signal_number) from None
        except BrokenPipeError:  # the reader went away (``ginsim ... | head``): stop quietly
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout again at exit
            sys.exit(1)
        except OSError as error:
            raise BadInput(f"{error.strerror or error}: {error.filename}" if error.filename else str(error)) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except Interrupted as interrupted:
            click.echo(f"Interrupted: {interrupted.message}.", err=True)
            sys.exit(interrupted.status)
        except click.ClickException as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


class _Formatter(click.HelpFormatter):
    """Help text as a terminal shows it: the docstrings' reStructuredText literals (for the docs'
    command-line page) without their double backticks, within 80 columns."""

    def write(self, string: str) -> None:
        super().write(string.replace("``", ""))


class _Context(click.Context):
    formatter_class = _Formatter


def _plain_help(command: click.Command) -> None:
    """Give ``command`` and every command under it the plain help formatter."""
    command.context_class = _Context
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


class _NoticeHandler(logging.Handler):
    """Shows the library's notices (what a run reuses from its directory) as lines on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(record.getMessage(), err=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 80})
@click.version_option(__version__, prog_name="ginsim")
def main() -> None:
    """Exact, fast Gin Rummy analysis and simulation.

    \b
    Examples:
      ginsim run --rules oklahoma --hands 1000000 --out runs/okla
      ginsim summary runs/okla --by upcard
      ginsim replay --seed 0 --hand 42
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]"
      ginsim tournament --players simple,greedy,gin --matches 2000
      ginsim sweep --knock-limit 0..10 --players marjj,simple --hands 100000
      ginsim when-to-knock --rules oklahoma --hands 2000
      ginsim equity --rules oklahoma --target 100 --plot equity.png
      ginsim exact --cards 10
      ginsim plot runs/okla --by upcard -o rates.png
      ginsim bench
      ginsim play --rules oklahoma --against greedy --save game.json
      ginsim analyze game.json --player 0
      ginsim dataset --players marjj,marjj --hands 100000 --id ginsim/marjj-v0
      ginsim rummy run --players greedy,greedy,random --hands 100000
      ginsim record --expert reader --against marjj --hands 20000 --out runs/rec
      ginsim train --out runs/ppo --imitate marjj --opponents simple,marjj
      ginsim serve --open
    """
    if not any(isinstance(handler, _NoticeHandler) for handler in LOG.handlers):
        LOG.addHandler(_NoticeHandler())
        LOG.setLevel(logging.INFO)


for _command in (hand, run, summary, compare, replay, tournament_command, sweep_command, when_to_knock, equity_command,
                 rules_command,
                 strategies_command, exact_command, plot_command, bench_command, play_command, analyze_command,
                 dataset_command, record_command, rummy_group, train_command, serve_command):
    main.add_command(_command)
_plain_help(main)
