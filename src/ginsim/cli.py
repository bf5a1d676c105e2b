"""The ``ginsim`` command line.

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

import functools
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click
import pandas as pd

import gincore
from gincore.errors import InputError
from ginsim import rummy, text
from ginsim._version import __version__
from ginsim.fields import RuleSet
from ginsim.games import RUN_KINDS
from ginsim.gin.rules import PRESETS, Rules
from ginsim.gin.strategies import STRATEGIES, PlayerSpec, resolve_players
from ginsim.gin.summary import GROUPS as GIN_GROUPS
from ginsim.report import GIN_RATES_NOTE, comparison_text, source_line, write_table
from ginsim.runs import BACKENDS, LOG, RunInterrupted
from ginsim.store import RunDirectory

__all__ = ["main"]


class BadInput(click.ClickException):
    """A mistake in what the user asked for: one line, exit status 2."""

    exit_code = 2


class Interrupted(click.ClickException):
    """Ctrl-C during a run into a directory: what was kept, exit status 130 (as for SIGINT)."""

    exit_code = 130


class _Group(click.Group):
    """A click group whose every error is one line on stderr, with no usage block or traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as error:  # the library's one-line messages about bad input; bugs keep tracebacks
            raise BadInput(str(error)) from None
        except RunInterrupted as interrupted:  # before click turns every Ctrl-C into a bare "Aborted!"
            raise Interrupted(str(interrupted)) from None
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
            sys.exit(interrupted.exit_code)
        except click.ClickException as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


class CardsParam(click.ParamType):
    """Card text such as ``"7H 8H 9H KD"``."""

    name = "cards"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return gincore.parse_cards(str(value))
        except InputError as error:
            self.fail(str(error), param, ctx)


class HandParam(click.ParamType):
    """A hand as card text; one card in brackets (``... KD [5D]``) is the card just drawn. Gives
    ``(mask, drawn card index or None)``."""

    name = "cards"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[int, int | None]:
        if isinstance(value, tuple):
            return value
        text = str(value)
        marked = re.findall(r"\[([^\]]*)\]", text)
        try:
            if len(marked) > 1 or text.count("[") != len(marked):
                raise InputError(f"put one card, the one just drawn, in brackets, e.g. '... KD [5D]'; got {text!r}")
            drawn = gincore.parse_cards(marked[0]) if marked else None
            if drawn is not None and bin(drawn).count("1") != 1:
                raise InputError(f"the brackets hold the one card just drawn, got [{marked[0]}]")
            mask = gincore.parse_cards(text.replace("[", " ").replace("]", " "))
        except InputError as error:
            self.fail(str(error), param, ctx)
        return mask, None if drawn is None else drawn.bit_length() - 1


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


def _field_options(rules_class: type[RuleSet], command: Callable[..., Any]) -> Callable[..., Any]:
    """One ``--FIELD VALUE`` option per field of ``rules_class``, each defaulting to None (unchanged)."""
    for name, _, description in reversed(rules_class.fields_help()):
        command = click.option(f"--{name.replace('_', '-')}", name, default=None, metavar="VALUE",
                               help=f"{description[0].upper()}{description[1:]} [default: unchanged]")(command)
    return command


def _overrides(rules_class: type[RuleSet], options: dict[str, Any]) -> list[str]:
    """The ``field=value`` texts of the field options given, taken out of ``options``."""
    given = [(name, options.pop(name)) for name in rules_class.field_names()]
    return [f"{name}={value}" for name, value in given if value is not None]


def _rules_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules PRESET`` plus one ``--FIELD VALUE`` option per Gin rule field; passes ``rules``."""
    @functools.wraps(command)
    def wrapper(*args: Any, preset: str, **options: Any) -> Any:
        overrides = _overrides(Rules, options)
        return command(*args, rules=Rules.parse_overrides(preset, overrides), **options)

    wrapped = _field_options(Rules, wrapper)
    return click.option("--rules", "preset", type=click.Choice(list(PRESETS)), default="standard",
                        show_default=True, help="Rules preset; the options below change single rules.")(wrapped)


def _rummy_rules_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """One ``--FIELD VALUE`` option per classic Rummy rule field; passes ``rules``."""
    @functools.wraps(command)
    def wrapper(*args: Any, **options: Any) -> Any:
        overrides = _overrides(rummy.Rules, options)
        return command(*args, rules=rummy.Rules().with_overrides(overrides), **options)

    return _field_options(rummy.Rules, wrapper)


def _seed_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Seed of the run: hand i of seed s is always the same hand.")(command)


def _players_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--players", type=PlayersParam(), default="simple,simple", show_default=True,
                        help=f"Two strategies, comma-separated: {', '.join(STRATEGIES)}; or a Python strategy as "
                             "module:Class or file.py:Class.")(command)


def _symbols_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--symbols/--letters", default=None,
                        help="Suits as symbols (\u2663\u2666\u2665\u2660) or letters (C D H S)  "
                             "[default: symbols on a terminal that can show them]")(command)


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


def _figure_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option("--dpi", type=click.IntRange(10, 1200), help="Resolution of a bitmap figure "
                           "(png, jpg)  [default: 100]")(command)
    return click.option("--size", type=SizeParam(), help="Figure size in inches, e.g. 10x5  [default: fitted "
                        "to the figure]")(command)


def _use_symbols(symbols: bool | None) -> bool:
    return text.symbols_supported(sys.stdout) if symbols is None else symbols


class _NoticeHandler(logging.Handler):
    """Shows the library's notices (what a run reuses from its directory) as lines on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(record.getMessage(), err=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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
      ginsim exact --cards 10
      ginsim plot runs/okla --by upcard -o rates.png
      ginsim bench
      ginsim play --rules oklahoma --against greedy
      ginsim rummy run --players greedy,greedy,random --hands 100000
    """
    if not any(isinstance(handler, _NoticeHandler) for handler in LOG.handlers):
        LOG.addHandler(_NoticeHandler())
        LOG.setLevel(logging.INFO)


# --- hand ----------------------------------------------------------------------------------------------

def _analyse(hand: int, knock_limit: int, drawn: int | None, from_pile: bool) -> dict[str, Any]:
    arrangements = gincore.arrangements(hand)
    report: dict[str, Any] = {
        "cards": gincore.format_cards(hand),
        "deadwood": gincore.deadwood(hand),
        "arrangements": [
            {
                "melds": [gincore.format_cards(meld) for meld in melds],
                "deadwood_cards": gincore.format_cards(hand & ~sum(melds)),
            }
            for melds in arrangements
        ],
    }
    if drawn is not None:
        report["drawn"] = gincore.card_text(drawn)
        report["from_pile"] = from_pile
    if bin(hand).count("1") == 11:
        after = gincore.deadwood_after_discard(hand)
        if from_pile and drawn is not None:
            del after[drawn]  # RULES.md: a card taken from the pile may not be discarded in the same turn
        report["knock_limit"] = knock_limit
        report["discards"] = [
            {
                "card": gincore.card_text(card),
                "deadwood": left,
                "ends_hand": "gin" if left == 0 else "knock" if left <= knock_limit else None,
            }
            for card, left in sorted(after.items(), key=lambda item: (item[1], -item[0]))
        ]
    return report


def _showdown(knocker: int, defender: int, knock_limit: int) -> dict[str, Any]:
    """The knock of ``knocker`` (10 cards, or 11: it first discards its best card) against
    ``defender`` (10 cards): for each optimal arrangement it may show, the defender's best lay-off
    and the score under the standard bonuses."""
    rules = Rules()
    size = bin(knocker).count("1")
    if bin(defender).count("1") != 10 or size not in (10, 11):
        raise InputError("--defender needs a 10-card hand against a knocker of 10 or 11 cards")
    if knocker & defender:
        raise InputError(f"the hands share {gincore.format_cards(knocker & defender)}")
    report: dict[str, Any] = {"defender": gincore.format_cards(defender)}
    if size == 11:
        after = gincore.deadwood_after_discard(knocker)
        discard = min(after, key=lambda card: (after[card], -card))  # least deadwood, highest card
        report["knock_discard"] = gincore.card_text(discard)
        knocker &= ~(1 << discard)
    left = gincore.deadwood(knocker)
    report["knocker_deadwood"] = left
    if left > knock_limit:
        report["verdict"] = f"cannot knock: deadwood {left} is over the limit {knock_limit}"
        return report
    options = []
    for melds in gincore.arrangements(knocker):
        if left == 0:
            against, laid, outcome = gincore.deadwood(defender), 0, "gin"
            points = rules.gin_bonus + against
        else:
            against, laid = gincore.layoff(defender, melds)
            outcome = "undercut" if against <= left else "knock"
            points = left - against + rules.undercut_bonus if outcome == "undercut" else against - left
        options.append({"melds": [gincore.format_cards(meld) for meld in melds], "laid_off":
                        gincore.format_cards(laid), "defender_deadwood": against, "outcome": outcome,
                        "winner": "defender" if outcome == "undercut" else "knocker", "points": points})
    report["showdowns"] = options
    return report


@main.command()
@click.argument("held", metavar="CARDS", type=HandParam())
@click.option("--knock-limit", type=click.IntRange(0, 10), default=10, show_default=True,
              help="Deadwood allowed for a knock, used to mark the discards of an 11-card hand.")
@click.option("--from-pile", is_flag=True, help="The card in brackets was taken from the discard pile, so it may "
              "not be discarded this turn.")
@click.option("--any-size", is_flag=True, help="Analyse a hand of any number of cards, not only 10 or 11.")
@click.option("--defender", type=CardsParam(), help="The opponent's 10 cards: show the showdown of a knock.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def hand(held: tuple[int, int | None], knock_limit: int, from_pile: bool, any_size: bool, defender: int | None,
         as_json: bool) -> None:
    """Analyse a Gin hand of 10 cards, or 11 after drawing: its deadwood, every optimal arrangement,
    and for 11 cards every discard. Put the card just drawn in brackets ([5D]) to say which it is; with
    --from-pile it is left out of the discards, as the rules require. With --defender: the knock
    against those cards, the defender's best lay-off and the score.

    \b
    Examples:
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD"
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --knock-limit 5
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --from-pile
      ginsim hand "6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD" --defender "2H 3H 4H QC QD QH QS 9H 7S AC"
      ginsim hand "AS 2S 3S 5D" --any-size
    """
    cards, drawn = held
    size = bin(cards).count("1")
    if not any_size and size not in (10, 11):
        raise InputError(f"a Gin hand has 10 cards, or 11 after drawing; got {size} ({gincore.format_cards(cards)}); "
                         "--any-size analyses any number")
    if drawn is not None and size != 11:
        raise InputError(f"the card in brackets is the one just drawn: it goes with 11 cards, got {size}")
    if from_pile and drawn is None:
        raise InputError("--from-pile needs the card taken from the pile in brackets, e.g. '... KD [5D]'")
    report = _analyse(cards, knock_limit, drawn, from_pile)
    if defender is not None:
        report["showdown"] = _showdown(cards, defender, knock_limit)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    source = " from the pile" if from_pile else ""
    click.echo(f"hand: {report['cards']} ({size} cards" + (f"; drew {report['drawn']}{source})" if drawn is not None
                                                           else ")"))
    click.echo(f"deadwood: {report['deadwood']}")
    click.echo(f"optimal arrangements: {len(report['arrangements'])}")
    for number, arrangement in enumerate(report["arrangements"], 1):
        melds = " ".join(f"[{meld}]" for meld in arrangement["melds"]) or "(no melds)"
        click.echo(f"  {number}. {melds}  deadwood: {arrangement['deadwood_cards'] or '-'}")
    if "discards" in report:
        kept = f"; {report['drawn']} was taken from the pile and stays" if from_pile else ""
        click.echo(f"discards (knock limit {knock_limit}{kept}):")
        for option in report["discards"]:
            verdict = option["ends_hand"] or ""
            click.echo(f"  {option['card']:>2}  leaves {option['deadwood']:>3}  {verdict}".rstrip())
    if "showdown" in report:
        showdown = report["showdown"]
        discard = f", discarding {showdown['knock_discard']}" if "knock_discard" in showdown else ""
        click.echo(f"knock against {showdown['defender']}{discard}: knocker deadwood {showdown['knocker_deadwood']}")
        if "verdict" in showdown:
            click.echo(f"  {showdown['verdict']}")
        for option in showdown.get("showdowns", []):
            melds = " ".join(f"[{meld}]" for meld in option["melds"]) or "(no melds)"
            laid = f", lays off {option['laid_off']}" if option["laid_off"] else ""
            click.echo(f"  showing {melds}: defender deadwood {option['defender_deadwood']}{laid}; "
                       f"{option['outcome']}, the {option['winner']} scores {option['points']}")


# --- run and summary ----------------------------------------------------------------------------------

def _columns(text: str | None) -> str | list[str] | None:
    return None if text is None else "all" if text == "all" else [name.strip() for name in text.split(",")]


def _columns_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--columns", metavar="all|A,B,...", help="Columns of the printed table: all of them (with "
                        "intervals as [low, high]) or the named ones  [default: a compact set, rates ± their 95% "
                        "interval]")(command)


def _source(identity: Mapping[str, Any]) -> dict[str, Any]:
    """What produced a table: the run's description and its identity's main fields."""
    from ginsim.games import describe_run

    fields = {key: identity[key] for key in ("kind", "rules", "players", "seed", "size") if key in identity}
    return {"run": describe_run(identity), **fields}


def _write_table(table: pd.DataFrame, identity: Mapping[str, Any], csv: Path | None, as_json: bool,
                 columns: str | None = None) -> None:
    """Print a summary of the run ``identity`` describes (and write it as CSV), saying what produced it."""
    notes = [GIN_RATES_NOTE] if identity.get("kind") in ("hands", "counts") else []
    click.echo(write_table(table, _source(identity), csv=csv, as_json=as_json, columns=_columns(columns),
                           notes=notes))


def _run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Where and how a run is played and stored: --seed, --workers, --backend, --scheduler, --out,
    --chunk-size and --progress, passed on as ``seed`` and ``common`` (the keyword arguments every
    ``simulate`` function takes); how the summary is shown (--csv, --json) as ``report``."""
    @functools.wraps(command)
    def wrapper(*args: Any, workers: int | None, backend: str, scheduler: str | None, out: Path | None,
                chunk_size: int | None, progress: bool | None, csv: Path | None, as_json: bool, columns: str | None,
                **options: Any) -> Any:
        if backend == "dask" and scheduler is None and workers is None:
            workers = 2
        common = dict(workers=workers, backend=backend, out=out, chunk_size=chunk_size, scheduler=scheduler,
                      progress=progress)
        report = {"out": out, "csv": csv, "as_json": as_json, "columns": columns}
        return command(*args, common=common, report=report, **options)

    for option in reversed([
        click.option("--workers", type=click.IntRange(min=1), help="Worker processes  [default: every core]"),
        click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                     help="Local processes, or a Dask cluster."),
        click.option("--scheduler", metavar="ADDRESS", help="A running Dask scheduler (tcp://host:port)."),
        click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                     help="Directory for the Parquet records; running again resumes an unfinished run."),
        click.option("--chunk-size", type=click.IntRange(min=1),
                     help="Items (hands, matches, games) per chunk of work."),
        click.option("--progress/--no-progress", default=None, help="Progress bar  [default: on a terminal]"),
        click.option("--csv", type=click.Path(dir_okay=False, path_type=Path), help="Also write the summary as CSV."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON: its source, rows, notes."),
    ]):
        wrapper = option(wrapper)
    return _seed_option(_columns_option(wrapper))


def _report_run(what: str, identity: dict[str, Any], report: dict[str, Any], table: pd.DataFrame) -> None:
    if not report["as_json"]:
        seats = " vs ".join(f"{name} (player {seat})" for seat, name in enumerate(identity["players"]))
        written = f", written to {report['out']}" if report["out"] else ""
        click.echo(f"{what} of {seats}, seed {identity['seed']}{written}")
    _write_table(table, identity, report["csv"], report["as_json"], report["columns"])


@main.command()
@_rules_options
@_players_option
@click.option("--hands", type=click.IntRange(min=1), help="Play this many independent hands.")
@click.option("--matches", type=click.IntRange(min=1), help="Play this many games to the rules' target.")
@click.option("--teams", type=click.IntRange(min=1), help="With --matches: pairs per team match (team play).")
@click.option("--duplicate", is_flag=True, help="With --matches: play every match twice, the second time with the "
              "seats swapped on the same deals, and pair the two in the intervals.")
@click.option("--stream", is_flag=True, help="Keep counts only, not a row per hand (for huge runs).")
@click.option("--by", multiple=True, type=click.Choice(list(GIN_GROUPS)),
              help="Show the summary by this column (repeat for several)  [default: the whole run]")
@click.option("--until-halfwidth", type=click.FloatRange(0, 0.5, min_open=True, max_open=True), metavar="H",
              help="Play hands until every rate of every group of --by is known within H (its 95% interval "
                   "reaches at most H from it, e.g. 0.005), --hands at most.")
@_run_options
def run(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int | None, matches: int | None,
        teams: int | None, duplicate: bool, stream: bool, by: tuple[str, ...], until_halfwidth: float | None, seed: int,
        common: dict[str, Any], report: dict[str, Any]) -> None:
    """Play seeded Gin hands (or matches) and print the run's summary.

    \b
    Examples:
      ginsim run --rules oklahoma --players simple,simple --hands 1000000 --out runs/okla
      ginsim run --knock-limit 5 --big-gin-bonus 31 --hands 100000 --by upcard_rank
      ginsim run --matches 10000 --players gin,simple --target 100
      ginsim run --matches 5000 --players gin,simple --duplicate
      ginsim run --rules oklahoma --until-halfwidth 0.005 --by upcard_rank --hands 100000000
    Classic Rummy: ginsim rummy run.
    """
    from ginsim.gin.simulate import simulate, simulate_matches, simulate_until
    from ginsim.gin.strategies import player_name
    from ginsim.gin.summary import summarize, summarize_matches

    if (hands is None) == (matches is None):
        raise InputError("give exactly one of --hands N or --matches N")
    for given, name in ((teams is not None, "--teams"), (duplicate, "--duplicate")):
        if given and matches is None:
            raise InputError(f"{name} goes with --matches")
    if matches is not None and (stream or by or until_halfwidth is not None):
        raise InputError("--stream, --by and --until-halfwidth go with --hands")
    groups = list(dict.fromkeys(by)) or None
    names = [player_name(player) for player in players]
    identity: dict[str, Any] = {"kind": "matches" if matches is not None else "counts" if stream else "hands",
                                "rules": rules.to_dict(), "players": names, "seed": seed, "size": hands or matches}
    if duplicate:
        identity["duplicate"] = True
    if matches is not None:
        table = summarize_matches(simulate_matches(rules, players, matches, seed, teams=teams, duplicate=duplicate,
                                                   **common))
        what = f"{matches} matches{', each played again with the seats swapped,' if duplicate else ''}"
    elif until_halfwidth is not None:
        if common["out"] is not None or common["chunk_size"] is not None:
            raise InputError("--until-halfwidth grows the run batch by batch: it takes no --out or --chunk-size")
        assert hands is not None
        counts = simulate_until(rules, players, until_halfwidth, groups, hands, seed, common["workers"],
                                common["backend"], scheduler=common["scheduler"], progress=common["progress"])
        table = summarize(counts, by=groups)
        from ginsim.gin.summary import widest_halfwidth

        short = widest_halfwidth(table) > until_halfwidth
        reached = f" (the --hands bound; not every rate is within {until_halfwidth})" if short else ""
        what = f"{counts.total} hands{reached}"
        identity.update(kind="counts", size=counts.total)
    else:
        assert hands is not None
        table = summarize(simulate(rules, players, hands, seed, stream=stream, **common), by=groups)
        what = f"{hands} hands"
    _report_run(what, identity, report, table)


def _by_option(command: Callable[..., Any]) -> Callable[..., Any]:
    groups = dict.fromkeys(group for kind in RUN_KINDS.values() for group in kind.groups)
    return click.option("--by", multiple=True, type=click.Choice([*groups, "none"]),
                        help="Group by this column (repeat for several; none: the whole run). Gin hands: "
                             "upcard (default), upcard_rank, upcard_suit, knock_limit, dealer; classic Rummy "
                             "hands: players (default), seat or position.")(command)


@main.command()
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_by_option
@click.option("--csv", type=click.Path(dir_okay=False, path_type=Path), help="Also write the table as CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON: its source, rows and notes.")
@_columns_option
def summary(path: Path, by: tuple[str, ...], csv: Path | None, as_json: bool, columns: str | None) -> None:
    """Summarise a run directory of any game: rates with 95% intervals by upcard (or another grouping).

    \b
    Examples:
      ginsim summary runs/okla --by upcard
      ginsim summary runs/okla --by upcard_rank --by dealer --csv rates.csv
      ginsim summary runs/rummy4 --by seat
    """
    from ginsim.games import KIND_DEFAULT, summarize_run

    groups = KIND_DEFAULT if not by else None if "none" in by else list(dict.fromkeys(by))
    _write_table(summarize_run(path, groups), RunDirectory.read(path).identity, csv, as_json, columns)


def _show_hand(hand: Any, symbols: bool | None, as_json: bool) -> None:
    """A traced hand of either game, as text or JSON."""
    click.echo(json.dumps(hand.to_json(), indent=2) if as_json else hand.to_text(_use_symbols(symbols)))


def _json_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print the hand as JSON.")(command)


def _given(*names: str) -> list[str]:
    """The options among ``names`` given on the command line (not left at their defaults)."""
    context = click.get_current_context()
    return [name for name in names
            if context.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)]


@main.command()
@click.argument("first", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("second", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--by", multiple=True, help="Compare group by group (repeat for several): for Gin hands upcard, "
              "upcard_rank, upcard_suit, knock_limit or dealer; for classic Rummy players.")
@click.option("--unpaired", is_flag=True, help="Compare as independent samples even when the runs share their "
              "seed and size (by default such runs are paired hand by hand).")
@click.option("--csv", type=click.Path(dir_okay=False, path_type=Path), help="Also write the table as CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON records.")
def compare(first: Path, second: Path, by: tuple[str, ...], unpaired: bool, csv: Path | None, as_json: bool) -> None:
    """Compare two stored runs of the same kind: each rate and mean of SECOND against FIRST, with the
    difference's 95% interval and a test, * where significant after Holm's correction.

    Runs with the same seed and size played the same deals, so they are compared hand by hand
    (paired), which needs far fewer hands to see a difference.

    \b
    Examples:
      ginsim compare runs/standard runs/okla
      ginsim compare runs/standard runs/okla --by upcard_rank --csv difference.csv
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
    click.echo(f"a: {first}  ({described['a']})")
    click.echo(f"b: {second}  ({described['b']})")
    click.echo(note)
    click.echo(comparison_text(table, groups))


@main.command()
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@_rules_options
@_players_option
@_seed_option
@click.option("--hand", "index", type=click.IntRange(min=0), required=True, help="Index of the hand in the run.")
@_symbols_option
@_json_option
def replay(path: Path | None, rules: Rules, players: tuple[str, str], seed: int, index: int, symbols: bool | None,
           as_json: bool) -> None:
    """Show hand I of a run, turn by turn: of the run directory PATH (any game; its rules, players and
    seed), or of a Gin run with the rules, players and seed given.

    \b
    Examples:
      ginsim replay runs/okla --hand 42
      ginsim replay --rules oklahoma --seed 0 --hand 42
      ginsim replay runs/rummy3 --hand 7 --json
    """
    if path is None:
        from ginsim.gin.hand import play_hand

        _show_hand(play_hand(rules, players, seed, index), symbols, as_json)
        return
    given = _given("preset", "players", "seed", *Rules.field_names())
    if given:
        option = "rules" if given[0] == "preset" else given[0].replace("_", "-")
        raise InputError(f"the run directory sets the rules, players and seed: drop --{option} (or the directory)")
    from ginsim.games import replay_hand

    _show_hand(replay_hand(path, index), symbols, as_json)


@main.command(name="tournament")
@_rules_options
@click.option("--players", "names", required=True, metavar="A,B,C…",
              help="Strategies to play each other (two or more, comma-separated).")
@click.option("--matches", type=click.IntRange(min=2), default=1000, show_default=True,
              help="Games per pair (even with duplicate deals: each deal is played twice).")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play every deal sequence twice with the seats swapped, and pair the two games in the "
                   "intervals; without, half the games with each player in seat 0.")
@_seed_option
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes  [default: every core]")
@click.option("--csv", type=click.Path(dir_okay=False, path_type=Path), help="Also write the pair table as CSV.")
@click.option("--ratings-csv", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the ratings table as CSV.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the tables as JSON: the source, the pairs' rows and notes, the ratings.")
@_columns_option
@click.option("--progress/--no-progress", default=None, help="Progress bars  [default: on a terminal]")
@click.option("--plot", "figure", type=click.Path(dir_okay=False, path_type=Path),
              help="Also draw the win rates as a heatmap in this file (png, svg, pdf, ...).")
@_figure_options
def tournament_command(rules: Rules, names: str, matches: int, duplicate: bool, seed: int, workers: int | None,
                       csv: Path | None, ratings_csv: Path | None, as_json: bool, columns: str | None,
                       progress: bool | None, figure: Path | None, size: tuple[float, float] | None,
                       dpi: int | None) -> None:
    """Round robin of matches to the rules' target: win rates with 95% intervals for every pair, then
    Bradley–Terry ratings on the Elo scale.

    \b
    Examples:
      ginsim tournament --players simple,greedy,gin,defensive --matches 10000
      ginsim tournament --players simple,greedy,gin --matches 2000 --plot heat.png
      ginsim tournament --players simple,gin --matches 2000 --no-duplicate
    """
    from ginsim.gin.plot import figure_format, plot_win_matrix
    from ginsim.gin.ratings import ANCHOR, ratings
    from ginsim.gin.tournament import DETAIL_COLUMNS, tournament, win_matrix

    if figure is not None:
        figure_format(figure)  # refuse a bad file name before the tournament is played
    players = [name for name in names.split(",") if name.strip()]
    table = tournament(rules, players, matches, seed, workers, duplicate=duplicate, progress=progress)
    rated = ratings(table)
    deals = ", duplicate deals" if duplicate else ""
    source = {"run": f"{rules.label()} | {', '.join(players)} | {matches:,} matches per pair{deals} | seed {seed}",
              "rules": rules.to_dict(), "players": players, "seed": seed, "matches": matches, "duplicate": duplicate}
    if duplicate:
        notes = [f"every pair played {matches // 2:,} deal sequences twice, the seats swapped; the intervals are "
                 "t-intervals over the deal pairs; width_ratio is the paired win-rate interval's width over the "
                 "Wilson interval's on the same games one by one"]
    else:
        notes = ["half the games with each player in seat 0; win rates with Wilson intervals"]
    anchor = f"{ANCHOR} fixed at 0" if ANCHOR in set(rated["player"]) else "mean 0"
    rating_notes = [f"Bradley-Terry ratings on the Elo scale (400 points: odds of 10 to 1), {anchor}; score is "
                    "the share of points (a tie counts half); 95% intervals"
                    + (" from the deal pairs (quasi-binomial)" if duplicate else "")]
    if figure is not None:
        plot_win_matrix(win_matrix(table), figure, source_line(source), size=size, dpi=dpi)
    pairs_text = write_table(table, source, csv=csv, as_json=as_json, columns=_columns(columns), notes=notes,
                             hidden=DETAIL_COLUMNS)
    ratings_text = write_table(rated, source, csv=ratings_csv, as_json=as_json, notes=rating_notes)
    if as_json:
        shown = json.loads(pairs_text)
        rated_json = json.loads(ratings_text)
        shown["ratings"] = {"rows": rated_json["rows"], "notes": rated_json["notes"]}
        click.echo(json.dumps(shown, indent=2))
        return
    click.echo(pairs_text)
    click.echo("\n" + ratings_text)
    click.echo("\nmatch win rate of the row player against the column player:")
    matrix = win_matrix(table).to_string(float_format=lambda value: f"{100 * value:.1f}%", na_rep="-")
    click.echo("\n".join(line.rstrip() for line in matrix.splitlines()))


def _list_fields(rules_class: type[RuleSet], as_json: bool, commands: str) -> None:
    fields = rules_class.fields_help()
    if as_json:
        click.echo(json.dumps([{"name": name, "default": default, "description": description}
                               for name, default, description in fields], indent=2))
        return
    click.echo(f"fields (set one with --FIELD VALUE on {commands}):")
    for name, default, description in fields:
        click.echo(f"  {name:<18} {str(default):<7} {description}")


def _list_strategies(strategies: Mapping[str, str]) -> None:
    for name, description in strategies.items():
        click.echo(f"{name:<14} {description}")


@main.command(name="rules")
@click.option("--json", "as_json", is_flag=True, help="Print presets and fields as JSON.")
def rules_command(as_json: bool) -> None:
    """List the Gin rules presets and every rule field with its default and allowed values."""
    if as_json:
        click.echo(json.dumps({"presets": {name: preset.to_dict() for name, preset in PRESETS.items()},
                               "fields": [{"name": name, "default": default, "description": description}
                                          for name, default, description in Rules.fields_help()]}, indent=2))
        return
    click.echo("presets (what differs from standard):")
    for name, preset in PRESETS.items():
        click.echo(f"  {name:<10} {', '.join(preset.changes_from(Rules())) or 'the defaults'}")
    click.echo()
    _list_fields(Rules, False, "run, replay, tournament and play")


@main.command(name="strategies")
def strategies_command() -> None:
    """List the built-in Gin strategies, one line each."""
    _list_strategies(STRATEGIES)


@main.command(name="exact")
@click.option("--cards", type=click.IntRange(0, 13), default=10, show_default=True,
              help="Hand size: every hand of this many cards is classified.")
@click.option("--workers", type=click.IntRange(min=1), help="Threads  [default: every core]")
@click.option("--no-cache", is_flag=True, help="Recompute even when a cached result exists.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def exact_command(cards: int, workers: int | None, no_cache: bool, as_json: bool) -> None:
    """The exact deadwood distribution of every possible hand (suit symmetry cuts the work).

    \b
    Example:
      ginsim exact --cards 10     # all 15,820,024,220 ten-card hands, in seconds
    """
    from ginsim.gin.exact import exact_distribution

    result = exact_distribution(cards, workers=workers, cache=not no_cache)
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else result.to_text())


# --- plot ---------------------------------------------------------------------------------------------

@main.command(name="plot")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_by_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The figure file; its extension picks the format (png, pdf, svg, ...).")
@_figure_options
def plot_command(path: Path, by: tuple[str, ...], output: Path, size: tuple[float, float] | None,
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
    """
    from ginsim.games import describe_run, read_run
    from ginsim.gin.plot import figure_format, plot_match_rates, plot_rates
    from ginsim.gin.summary import COUNTS, HANDS, MATCHES, summarize, summarize_matches

    figure_format(output)  # refuse a bad file name before reading the run
    kind, identity, results = read_run(path)
    if kind is MATCHES:
        if by:
            raise InputError("a run of matches is drawn whole: leave out --by")
        table = summarize_matches(results)
        plot_match_rates(table, identity["players"], output, source_line({"run": describe_run(identity)}), size=size,
                         dpi=dpi)
        click.echo(f"wrote {output}: {int(table['matches'].iloc[0]):,} matches")
        return
    if kind not in (HANDS, COUNTS):
        raise InputError(f"{path} holds a run of {kind.name.replace('_', ' ')}: plot draws a Gin run of hands "
                         "or of matches (ginsim run --hands N --out DIR)")
    groups = ["upcard"] if not by else [] if "none" in by else list(dict.fromkeys(by))
    table = summarize(results, by=groups or None)
    plot_rates(table, groups, output, source_line({"run": describe_run(identity)}), size=size, dpi=dpi)
    click.echo(f"wrote {output}: {len(table)} group{'s' if len(table) != 1 else ''}, "
               f"{int(table['hands'].sum()):,} hands")


# --- bench --------------------------------------------------------------------------------------------

def _random_hands(count: int, size: int, rng: Any) -> Any:
    """``count`` random hands of ``size`` cards as uint64 masks (a pool of distinct deals, repeated)."""
    import numpy as np

    pool = min(count, 1 << 14)
    cards = rng.random((pool, 52)).argsort(axis=1)[:, :size].astype(np.uint64)
    masks = (np.uint64(1) << cards).sum(axis=1, dtype=np.uint64)
    return np.resize(masks, count)


def _per_second(prepare: Callable[[int], Callable[[], object]], seconds: float, repeats: int) -> float:
    """Items per second of ``prepare(n)()`` (which handles n items): the median over ``repeats`` timed
    calls of a batch sized to fill about ``seconds`` in all."""
    import statistics
    import time

    share = seconds / (2 * repeats)
    size = 256
    while True:  # grow the batch until one call takes its share of the time
        run = prepare(size)
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        if elapsed >= share or size >= 1 << 26:
            break
        size = int(size * min(64.0, max(2.0, 1.2 * share / max(elapsed, 1e-6))))
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(size / (time.perf_counter() - start))
    return statistics.median(rates)


@main.command(name="bench")
@click.option("--seconds", type=click.FloatRange(min=0.1, max=600), default=3.0, show_default=True,
              help="About how long the whole check takes.")
@click.option("--repeats", type=click.IntRange(min=1, max=101), default=5, show_default=True,
              help="Timed calls per measurement; the median is shown.")
def bench_command(seconds: float, repeats: int) -> None:
    """A quick speed check on this machine: the solver and the hand loop, in hands per second.

    Each figure is the median of a few timed calls on one thread. It is a sanity check, not a
    measurement: the benchmarks in benchmarks/ (pytest-benchmark) are.

    \b
    Example:
      ginsim bench --seconds 5
    """
    import numpy as np

    from ginsim.gin.engine import engine, run_key

    rng = np.random.default_rng(0)
    loop = engine(Rules(), ("simple", "simple"))
    key = run_key(0)

    def deadwoods(count: int) -> Callable[[], object]:
        hands = _random_hands(count, 10, rng)
        return lambda: gincore.deadwood_many(hands)

    def discards(count: int) -> Callable[[], object]:
        hands = _random_hands(count, 11, rng)
        return lambda: gincore.best_discards_many(hands)

    def hand_loop(count: int) -> Callable[[], object]:
        return lambda: loop.play_hands(key[0], key[1], 0, count)

    checks = [
        ("solver deadwood_many, random 10-card hands", deadwoods),
        ("solver best_discards_many, random 11-card hands", discards),
        ("hand loop play_hands, simple vs simple", hand_loop),
    ]
    click.echo(f"Speed check: median of {repeats} timed calls each, one thread, about {seconds:g} s in all.")
    for label, prepare in checks:
        rate = _per_second(prepare, seconds / len(checks), repeats)
        click.echo(f"  {label:<50} {rate:>14,.0f} hands/s")
    click.echo("A rough check only; the benchmarks are the real measurement (pytest-benchmark):\n"
               "  python -m pytest benchmarks -p no:xdist --benchmark-json=bench.json && "
               "python benchmarks/report.py bench.json")


# --- play ---------------------------------------------------------------------------------------------

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


@main.command(name="play")
@_rules_options
@click.option("--against", type=StrategyParam(), default="greedy", show_default=True,
              help=f"The strategy you play: {', '.join(STRATEGIES)}, or a Python one as module:Class or "
                   "file.py:Class.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals: a game with the same seed gets the same first deal  [default: random]")
@_symbols_option
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

    from ginsim.gin.interactive import Console, play_game, read_line

    seed = secrets.randbelow(1 << 32) if seed is None else seed
    console = Console(read_line, click.echo, _use_symbols(symbols))
    game = play_game(rules, against, seed, console)
    if game.finished:
        return
    from ginsim.gin.strategies import player_name

    where = (f"in hand {game.hands + 1} (points so far: you {game.totals[0]}, {player_name(against)} "
             f"{game.totals[1]})")
    if game.stopped_by == "quit":
        click.echo(f"\nYou quit the game {where}. The same deals again: --seed {seed}.")
        return
    click.echo(f"\nThe input ended {where}: the game is abandoned.", err=True)
    raise click.exceptions.Exit(1)


# --- classic Rummy ------------------------------------------------------------------------------------

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


def _rummy_players_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--players", type=RummyPlayersParam(), default="greedy,greedy", show_default=True,
                        help=f"Two to six strategies, comma-separated: {', '.join(rummy.STRATEGIES)}.")(command)


@main.group(name="rummy", cls=_Group)
def rummy_group() -> None:
    """Classic Rummy for two to six players (RULES.md section 12): runs, replays, rules, strategies.

    \b
    Examples:
      ginsim rummy run --players greedy,greedy,random --hands 100000 --out runs/rummy3
      ginsim rummy run --players greedy,random --games 1000 --target 250
      ginsim summary runs/rummy3 --by seat
      ginsim rummy replay --players greedy,greedy,random --seed 0 --hand 7
    """


@rummy_group.command(name="run")
@_rummy_rules_options
@_rummy_players_option
@click.option("--hands", type=click.IntRange(min=1), help="Play this many independent hands.")
@click.option("--games", type=click.IntRange(min=1), help="Play this many games to the rules' target.")
@_run_options
def rummy_run(rules: rummy.Rules, players: tuple[str, ...], hands: int | None, games: int | None, seed: int,
              common: dict[str, Any], report: dict[str, Any]) -> None:
    """Play seeded classic Rummy hands (or games) and print the run's summary.

    \b
    Examples:
      ginsim rummy run --players greedy,greedy,greedy,random --hands 100000
      ginsim rummy run --players greedy,random --games 1000 --max-turnovers 1
    """
    if (hands is None) == (games is None):
        raise InputError("give exactly one of --hands N or --games N")
    if games is not None:
        table = rummy.summarize_games(rummy.simulate_games(rules, players, games, seed, **common))
        what = f"{games} rummy games"
    else:
        assert hands is not None
        table = rummy.summarize(rummy.simulate(rules, players, hands, seed, **common), by=None)
        what = f"{hands} rummy hands"
    identity = {"kind": "rummy_games" if games is not None else "rummy_hands", "rules": rules.to_dict(),
                "players": list(players), "seed": seed, "size": games or hands}
    _report_run(what, identity, report, table)


@rummy_group.command(name="replay")
@_rummy_rules_options
@_rummy_players_option
@_seed_option
@click.option("--hand", "index", type=click.IntRange(min=0), required=True, help="Index of the hand in the run.")
@_symbols_option
@_json_option
def rummy_replay(rules: rummy.Rules, players: tuple[str, ...], seed: int, index: int, symbols: bool | None,
                 as_json: bool) -> None:
    """Show hand I of a classic Rummy run with seed S, step by step (for a run directory:
    ginsim replay DIR --hand I).

    \b
    Example:
      ginsim rummy replay --players greedy,greedy,random --seed 0 --hand 7
    """
    _show_hand(rummy.play_hand(rules, players, seed, index), symbols, as_json)


@rummy_group.command(name="rules")
@click.option("--json", "as_json", is_flag=True, help="Print the fields as JSON.")
def rummy_rules_command(as_json: bool) -> None:
    """List every classic Rummy rule field with its default and allowed values."""
    _list_fields(rummy.Rules, as_json, "rummy run and rummy replay")


@rummy_group.command(name="strategies")
def rummy_strategies_command() -> None:
    """List the built-in classic Rummy strategies, one line each."""
    _list_strategies(rummy.STRATEGIES)
