"""The options and parameter types that several ``ginsim`` commands share, each declared once.

An option decorator here is applied like ``click.option``; the few that take an argument (the noun their
help names, e.g. ``json_option("the hand")``) return one. Parameter types fail with one line naming the
bad value.

>>> import click
>>> from click.testing import CliRunner
>>> @click.command()
... @seed_option
... @json_option("the seed")
... def show(seed: int, as_json: bool) -> None:
...     click.echo(f"{seed} {as_json}")
>>> CliRunner().invoke(show, ["--seed", "7", "--json"]).output.strip()
'7 True'
>>> CliRunner().invoke(show, ["--help"]).output.splitlines()[-2].split()
['--json', 'Print', 'the', 'seed', 'as', 'JSON.']
"""
from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

import click

from gincore.errors import InputError
from ginsim import rummy
from ginsim.core import text
from ginsim.core.execution import BACKENDS, RunOptions
from ginsim.core.fields import RuleSet
from ginsim.games import RUN_KINDS
from ginsim.gin.game.players import PlayerSpec, resolve_players
from ginsim.gin.game.rules import PRESETS, Rules
from ginsim.gin.game.strategies import STRATEGIES

__all__ = [
    "Decorator",
    "OutputPath",
    "PlayersParam",
    "RummyPlayersParam",
    "RunPath",
    "SizeParam",
    "by_option",
    "columns_option",
    "csv_option",
    "figure_options",
    "given",
    "hand_index_option",
    "hand_or_match_options",
    "json_option",
    "placement_options",
    "players_option",
    "progress_option",
    "rules_options",
    "rummy_players_option",
    "rummy_rules_options",
    "run_options",
    "seed_option",
    "symbols_option",
    "use_symbols",
    "workers_option",
]

Command: TypeAlias = Callable[..., Any]
Decorator: TypeAlias = Callable[[Command], Command]


# --- parameter types ----------------------------------------------------------------------------------

class PlayersParam(click.ParamType):
    """Two strategy names separated by a comma, e.g. ``simple,greedy``."""

    name = "players"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[PlayerSpec, PlayerSpec]:
        if isinstance(value, tuple):
            return value
        try:
            return resolve_players(str(value))
        except InputError as error:
            self.fail(str(error), param, ctx)


class RummyPlayersParam(click.ParamType):
    """Two to six classic Rummy strategy names separated by commas, e.g. ``greedy,greedy,random``."""

    name = "players"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, ...]:
        if isinstance(value, tuple):
            return value
        try:
            return rummy.resolve_players(str(value))
        except InputError as error:
            self.fail(str(error), param, ctx)


class RunPath(click.ParamType):
    """An existing directory (a stored run); one that cannot be reached says why: it does not exist, it
    is not a directory, or a folder on the way may not be entered."""

    name = "directory"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        path = Path(value)
        try:
            path.stat()
        except FileNotFoundError:
            self.fail(f"{path} does not exist", param, ctx)
        except OSError as error:  # e.g. a folder on the way that may not be entered
            self.fail(f"{path} cannot be reached: {error.strerror or error}", param, ctx)
        if not path.is_dir():
            self.fail(f"{path} is a file, not a directory" if path.is_file() else f"{path} is not a directory",
                      param, ctx)
        return path


class OutputPath(click.ParamType):
    """A file to write (a table, a figure): checked before any work is done, so that a long run is not
    lost to a folder that does not exist."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        path = Path(value)
        if path.is_dir():
            self.fail(f"{path} is a directory, not a file", param, ctx)
        if not path.absolute().parent.is_dir():
            self.fail(f"cannot write {path}: no directory {path.parent}", param, ctx)
        return path


class SizeParam(click.ParamType):
    """A figure size in inches as ``WIDTHxHEIGHT``, e.g. ``10x5``."""

    name = "WxH"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        width, _, height = str(value).lower().partition("x")
        try:
            size = (float(width), float(height))
        except ValueError:
            self.fail(f"write the size in inches as WIDTHxHEIGHT, e.g. 10x5; got {value!r}", param, ctx)
        return size


# --- rules --------------------------------------------------------------------------------------------

def _field_options(rules_class: type[RuleSet], command: Command) -> Command:
    """One ``--FIELD VALUE`` option per field of ``rules_class``, each defaulting to None (unchanged)."""
    for name, _, description in reversed(rules_class.fields_help()):
        command = click.option(f"--{name.replace('_', '-')}", name, default=None, metavar="VALUE",
                               help=f"{description[0].upper()}{description[1:]} [default: unchanged]")(command)
    return command


def _overrides(rules_class: type[RuleSet], options: dict[str, Any]) -> list[str]:
    """The ``field=value`` texts of the field options given, taken out of ``options``."""
    given = [(name, options.pop(name)) for name in rules_class.field_names()]
    return [f"{name}={value}" for name, value in given if value is not None]


def rules_options(command: Command) -> Command:
    """``--rules PRESET`` plus one ``--FIELD VALUE`` option per Gin rule field; passes ``rules``."""
    @functools.wraps(command)
    def wrapper(*args: Any, preset: str, **options: Any) -> Any:
        overrides = _overrides(Rules, options)
        return command(*args, rules=Rules.parse_overrides(preset, overrides), **options)

    wrapped = _field_options(Rules, wrapper)
    return click.option("--rules", "preset", type=click.Choice(list(PRESETS)), default="standard",
                        show_default=True, help="Rules preset; the options below change single rules.")(wrapped)


def rummy_rules_options(command: Command) -> Command:
    """One ``--FIELD VALUE`` option per classic Rummy rule field; passes ``rules``."""
    @functools.wraps(command)
    def wrapper(*args: Any, **options: Any) -> Any:
        overrides = _overrides(rummy.Rules, options)
        return command(*args, rules=rummy.Rules().with_overrides(overrides), **options)

    return _field_options(rummy.Rules, wrapper)


# --- single options -----------------------------------------------------------------------------------

def seed_option(command: Command) -> Command:
    """``--seed S`` (default 0)."""
    return click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Seed of the run: hand i of seed s is always the same hand.")(command)


def players_option(command: Command) -> Command:
    """``--players A,B``: the two Gin strategies, built-in or Python."""
    return click.option("--players", type=PlayersParam(), default="simple,simple", show_default=True,
                        help=f"Two strategies, comma-separated: {', '.join(STRATEGIES)}; or a Python strategy as "
                             "module:Class or file.py:Class.")(command)


def rummy_players_option(command: Command) -> Command:
    """``--players A,B,...``: two to six classic Rummy strategies."""
    return click.option("--players", type=RummyPlayersParam(), default="greedy,greedy", show_default=True,
                        help=f"Two to six strategies, comma-separated: {', '.join(rummy.STRATEGIES)}.")(command)


def hand_index_option(command: Command) -> Command:
    """``--hand I``, required, passed as ``index``."""
    return click.option("--hand", "index", type=click.IntRange(min=0), required=True,
                        help="Index of the hand in the run.")(command)


def hand_or_match_options(command: Command) -> Command:
    """``--hand I`` or ``--match I`` (passed as ``index`` and ``match``; the command checks that one is given)."""
    command = click.option("--match", type=click.IntRange(min=0),
                           help="Index of the match (a game to the target) in a run of matches.")(command)
    return click.option("--hand", "index", type=click.IntRange(min=0), help="Index of the hand in the run.")(command)


def symbols_option(command: Command) -> Command:
    """``--symbols/--letters``; None (the default) lets :func:`use_symbols` ask the terminal."""
    return click.option("--symbols/--letters", default=None,
                        help="Suits as symbols (\u2663\u2666\u2665\u2660) or letters (C D H S)  "
                             "[default: symbols on a terminal that can show them]")(command)


def use_symbols(symbols: bool | None) -> bool:
    """The ``--symbols/--letters`` choice, or whether standard output can show the suit symbols."""
    return text.symbols_supported(sys.stdout) if symbols is None else symbols


def json_option(what: str, detail: str = "") -> Decorator:
    """``--json`` (passed as ``as_json``): print ``what`` as JSON, ``detail`` saying what it holds."""
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as JSON{detail}.")


def csv_option(what: str, flag: str = "--csv") -> Decorator:
    """``--csv FILE`` (or another ``flag``): also write ``what`` as CSV."""
    return click.option(flag, type=OutputPath(), help=f"Also write {what} as CSV.")


def columns_option(command: Command) -> Command:
    """``--columns all|A,B,...``: which columns a printed table shows."""
    return click.option("--columns", metavar="all|A,B,...", help="Columns of the printed table: all of them (with "
                        "intervals as [low, high]) or the named ones  [default: a compact set, rates ± their 95% "
                        "interval]")(command)


def workers_option(what: str = "Worker processes") -> Decorator:
    """``--workers N`` (default None: every core) of processes or threads."""
    return click.option("--workers", type=click.IntRange(min=1), help=f"{what}  [default: every core]")


def progress_option(what: str = "Progress bar") -> Decorator:
    """``--progress/--no-progress`` (default None: on a terminal)."""
    return click.option("--progress/--no-progress", default=None, help=f"{what}  [default: on a terminal]")


def by_option(command: Command) -> Command:
    """``--by COLUMN`` (repeatable) among the groups of every kind of run, or ``none``."""
    groups = dict.fromkeys(group for kind in RUN_KINDS.values() for group in kind.groups)
    return click.option("--by", multiple=True, type=click.Choice([*groups, "none"]), metavar="COLUMN",
                        help="Group by this column (repeat for several; none: the whole run). Gin hands: "
                             "upcard (default), upcard_rank, upcard_suit, knock_limit, dealer, first (offered the "
                             "upcard first), winner, knocker, turn (the draw the hand ended on, in bins of 5); classic "
                             "Rummy hands: players (default), seat or position.")(command)


def figure_options(command: Command) -> Command:
    """``--size WxH`` and ``--dpi N`` of a figure."""
    command = click.option("--dpi", type=click.IntRange(10, 1200), help="Resolution of a bitmap figure "
                           "(png, jpg)  [default: 100]")(command)
    return click.option("--size", type=SizeParam(), help="Figure size in inches, e.g. 10x5  [default: fitted "
                        "to the figure]")(command)


def placement_options(command: Command) -> Command:
    """Where and how a run is played and stored: --workers, --backend, --scheduler, --out, --repair,
    --chunk-size and --progress, passed on as ``common``, the one :class:`~ginsim.core.execution.RunOptions` every
    run function of both games takes as ``options``."""
    @functools.wraps(command)
    def wrapper(*args: Any, workers: int | None, backend: str, scheduler: str | None, out: Path | None,
                repair: bool, chunk_size: int | None, progress: bool | None, **options: Any) -> Any:
        if backend == "dask" and scheduler is None and workers is None:
            workers = 2
        if repair and out is None:
            raise InputError("--repair mends a run directory: it goes with --out")
        common = RunOptions(workers=workers, backend=backend, out=out, chunk_size=chunk_size, scheduler=scheduler,
                            progress=progress, repair=repair)
        return command(*args, common=common, **options)

    options: list[Decorator] = [
        workers_option(),
        click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                     help="Local processes, or a Dask cluster."),
        click.option("--scheduler", metavar="ADDRESS", help="A running Dask scheduler (tcp://host:port)."),
        click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                     help="Directory for the Parquet records; running again resumes an unfinished run."),
        click.option("--repair", is_flag=True, help="With --out: move damaged or foreign parts of the directory "
                     "aside (hidden, as .part-...damaged) and play their chunks again."),
        click.option("--chunk-size", type=click.IntRange(min=1),
                     help="Items (hands, matches, games) per chunk of work."),
        progress_option(),
    ]
    decorated: Command = wrapper
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


def run_options(command: Command) -> Command:
    """The options of a run: --seed, :func:`placement_options` (passed on as ``common``), and how the
    summary is shown (--columns, --csv, --json) as ``report``."""
    @functools.wraps(command)
    def wrapper(*args: Any, common: RunOptions, csv: Path | None, as_json: bool, columns: str | None,
                **options: Any) -> Any:
        report = {"out": common.out, "csv": csv, "as_json": as_json, "columns": columns}
        return command(*args, common=common, report=report, **options)

    shown: Command = csv_option("the summary")(json_option("the summary", ": its source, rows, notes")(wrapper))
    return seed_option(columns_option(placement_options(shown)))


def given(*names: str) -> list[str]:
    """The options among ``names`` given on the command line (not left at their defaults)."""
    context = click.get_current_context()
    return [name for name in names
            if context.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)]
