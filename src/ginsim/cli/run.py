"""``ginsim run`` (seeded Gin hands or matches and their summary) and the lists of what a run can use:
``ginsim rules`` and ``ginsim strategies``.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(run, ["--hands", "200", "--workers", "1", "--seed", "3"])
>>> result.exit_code, result.output.splitlines()[0]
(0, '200 hands of simple (player 0) vs simple (player 1), seed 3')
>>> CliRunner().invoke(strategies_command).output.split()[0]
'random'
"""
from __future__ import annotations

import json
import textwrap
from typing import Any

import click
import pandas as pd

from gincore.errors import InputError
from ginsim.cli.options import json_option, players_option, rules_options, run_options
from ginsim.cli.output import echo_wrapped, hands_won_note, list_fields, report_run
from ginsim.core.execution import RunIdentity, RunOptions
from ginsim.games import shown_players
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.rules import PRESETS, Rules
from ginsim.gin.game.specs import SPECS
from ginsim.gin.studies.rating_list import milliseconds_text, rating_text, shipped
from ginsim.gin.studies.summary import GROUPS as GIN_GROUPS

__all__ = ["rules_command", "run", "strategies_command"]


@click.command()
@rules_options
@players_option
@click.option("--hands", type=click.IntRange(min=1), help="Play this many independent hands.")
@click.option("--matches", type=click.IntRange(min=1), help="Play this many games to the rules' target.")
@click.option("--teams", type=click.IntRange(min=1), help="With --matches: pairs per team match (team play).")
@click.option("--duplicate", is_flag=True, help="With --matches: play every match twice, the second time with the "
              "seats swapped on the same deals, and pair the two in the intervals.")
@click.option("--stream", is_flag=True, help="Keep counts only, not a row per hand (for huge runs).")
@click.option("--by", multiple=True, type=click.Choice(list(GIN_GROUPS)), metavar="COLUMN",
              help=f"Show the summary by this column (repeat for several): {', '.join(GIN_GROUPS)}  "
                   "[default: the whole run]")
@click.option("--until-halfwidth", type=click.FloatRange(0, 0.5, min_open=True, max_open=True), metavar="H",
              help="Play hands until every rate of every group of --by is known within H (its 95% interval "
                   "reaches at most H from it, e.g. 0.005), --hands at most.")
@run_options
def run(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int | None, matches: int | None,
        teams: int | None, duplicate: bool, stream: bool, by: tuple[str, ...], until_halfwidth: float | None, seed: int,
        common: RunOptions, report: dict[str, Any]) -> None:
    """Play seeded Gin hands (or matches) and print the run's summary.

    \b
    Examples:
      ginsim run --rules oklahoma --players simple,simple --hands 1000000 \\
        --out runs/okla
      ginsim run --knock-limit 5 --big-gin-bonus 31 --hands 100000 \\
        --by upcard_rank
      ginsim run --matches 10000 --players gin,simple --target 100
      ginsim run --matches 5000 --players gin,simple --duplicate
      ginsim run --rules oklahoma --until-halfwidth 0.005 --by upcard_rank \\
        --hands 100000000
    Classic Rummy: ginsim rummy run.
    """
    from ginsim.gin.studies.simulate import simulate, simulate_matches, simulate_until
    from ginsim.gin.studies.summary import Counts, summarize, summarize_matches

    if (hands is None) == (matches is None):
        raise InputError("give exactly one of --hands N or --matches N")
    for given, name in ((teams is not None, "--teams"), (duplicate, "--duplicate")):
        if given and matches is None:
            raise InputError(f"{name} goes with --matches")
    if matches is not None and (stream or by or until_halfwidth is not None):
        raise InputError("--stream, --by and --until-halfwidth go with --hands")
    groups = list(dict.fromkeys(by)) or None
    identity: RunIdentity | None
    if matches is not None:
        played = simulate_matches(rules, players, matches, seed, teams=teams, duplicate=duplicate, options=common)
        table, identity = summarize_matches(played), played.attrs["identity"]
        what = f"{matches} matches{', each played again with the seats swapped,' if duplicate else ''}"
    elif until_halfwidth is not None:
        if common.out is not None or common.chunk_size is not None:
            raise InputError("--until-halfwidth grows the run batch by batch: it takes no --out or --chunk-size")
        assert hands is not None
        counts = simulate_until(rules, players, until_halfwidth, groups, hands, seed, options=common)
        table = summarize(counts, by=groups)
        from ginsim.gin.studies.summary import widest_halfwidth

        short = widest_halfwidth(table) > until_halfwidth
        reached = (f" (the --hands bound; not every rate is within {until_halfwidth})" if short else
                   f" (every rate within {until_halfwidth}: target reached)")
        what = f"{counts.total} hands{reached}"
        identity = counts.identity
    else:
        assert hands is not None
        results = simulate(rules, players, hands, seed, stream=stream, options=common)
        table = summarize(results, by=groups)
        identity = results.identity if isinstance(results, Counts) else results.attrs["identity"]
        what = f"{hands} hands"
        assert identity is not None
        if isinstance(results, pd.DataFrame):  # who won: a streamed run keeps no points per hand
            report_run(what, identity, report, table, [hands_won_note(results, shown_players(identity.to_dict()))])
            return
    assert identity is not None
    report_run(what, identity, report, table)


@click.command(name="rules")
@json_option("presets and fields")
def rules_command(as_json: bool) -> None:
    """List the Gin rules presets and every rule field with its default and allowed values."""
    if as_json:
        click.echo(json.dumps({"presets": {name: preset.to_dict() for name, preset in PRESETS.items()},
                               "fields": [{"name": name, "default": default, "description": description}
                                          for name, default, description in Rules.fields_help()]}, indent=2))
        return
    click.echo("presets (what differs from standard):")
    for name, preset in PRESETS.items():
        echo_wrapped(f"  {name:<10} ", ", ".join(preset.changes_from(Rules())) or "the defaults")
    click.echo()
    list_fields(Rules, False, "run, replay, tournament and play")


@click.command(name="strategies")
@json_option("the strategies", " (name, shorthand, description, each parameter's kind, default and meaning, and "
                               "the rating list's rows)")
def strategies_command(as_json: bool) -> None:
    """List the built-in Gin strategies: what each does, its parameters, and its rating and decision time
    in the rating list (docs/strategies.md) where it has one.

    A strategy is written with its parameters as keywords, reader(deals=1024, hedge=30), or for short
    with their values in order after colons, reader:1024; omitted parameters take their defaults.
    """
    listed = shipped()
    rows: dict[str, list[dict[str, Any]]] = {}
    for row in listed["players"] if listed else []:
        rows.setdefault(row["strategy"], []).append(row)
    if as_json:
        click.echo(json.dumps([{"name": spec.name, "signature": spec.signature, "shorthand": spec.title,
                                "description": spec.description,
                                "parameters": [{"name": p.name, "letter": p.letter, "allowed": p.kind.describe(),
                                                "default": None if p.required else p.default, "meaning": p.meaning}
                                               for p in spec.parameters],
                                "ratings": [{key: row[key] for key in ("player", "rating", "low", "high", "games",
                                                                       "decision_ms")}
                                            for row in rows.get(spec.name, [])]}
                               for spec in SPECS.values()], indent=2))
        return
    for spec in SPECS.values():
        shorthand = f"(short: {spec.title})" if spec.parameters else ""
        gap = "  " if len(spec.signature) + 2 + len(shorthand) <= 80 else "\n    "  # the shorthand on its own line
        click.echo(f"{spec.signature}{gap if shorthand else ''}{shorthand}")
        click.echo(textwrap.fill(spec.description, 80, initial_indent="    ", subsequent_indent="    "))
        for parameter in spec.parameters:
            click.echo(textwrap.fill(parameter.help(), 80, initial_indent="    - ", subsequent_indent="      "))
        for row in rows.get(spec.name, []):
            # A parameterised strategy is rated at the values the list played (threshold:5), so those are named.
            played = f"{row['player']}: " if row["player"] != spec.name else ""
            echo_wrapped(f"    {played}", f"rating {rating_text(row)}; {milliseconds_text(row['decision_ms'])} ms "
                                           "per decision")
    if listed and rows:
        echo_wrapped("", f"Rated ({listed['rules']} rules, 95% intervals) and timed by {listed['command']}")
