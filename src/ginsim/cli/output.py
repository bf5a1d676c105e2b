"""How the ``ginsim`` commands print what they made: summary tables with the line saying what produced
them, traced hands, rule fields and strategy lists.

>>> from click.testing import CliRunner
>>> import click
>>> from ginsim import rummy
>>> @click.command()
... def fields() -> None:
...     list_fields(rummy.Rules, False, "rummy run")
>>> print("\\n".join(CliRunner().invoke(fields).output.splitlines()[1:3]))
  target             100     points that end a game (allowed: an integer from 1
                             to 1000)
"""
from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd

from ginsim.cli.options import use_symbols
from ginsim.cli.report import GIN_RATES_NOTE, WIDTH, write_table
from ginsim.core.execution import RunIdentity
from ginsim.core.fields import RuleSet
from ginsim.core.intervals import mean_interval, wilson
from ginsim.games import shown_players

__all__ = ["columns", "echo_wrapped", "list_fields", "list_strategies", "match_notes", "report_run", "show_hand",
           "write_run_table"]


def echo_wrapped(head: str, text: str) -> None:
    """Print ``head`` then ``text``, the text's further lines indented under its first, within 80 columns.

    >>> from click.testing import CliRunner
    >>> @click.command()
    ... def demo() -> None:
    ...     echo_wrapped("  name  ", "word " * 20)
    >>> print(CliRunner().invoke(demo).output, end="")
      name  word word word word word word word word word word word word word word
            word word word word word word
    """
    click.echo(textwrap.fill(text, WIDTH, initial_indent=head, subsequent_indent=" " * len(head)))


def columns(text: str | None) -> str | list[str] | None:
    """The ``--columns`` text as :func:`ginsim.cli.report.write_table` takes it."""
    return None if text is None else "all" if text == "all" else [name.strip() for name in text.split(",")]


def _source(identity: Mapping[str, Any]) -> dict[str, Any]:
    """What produced a table: the run's description and its identity's main fields."""
    from ginsim.games import describe_run

    fields = {key: identity[key] for key in ("kind", "rules", "players", "seed", "size") if key in identity}
    return {"run": describe_run(identity), **fields}


def write_run_table(table: pd.DataFrame, identity: Mapping[str, Any], csv: Path | None, as_json: bool,
                    columns_text: str | None = None, more_notes: Sequence[str] = ()) -> None:
    """Print a summary of the run ``identity`` describes (and write it as CSV), saying what produced it;
    ``more_notes`` go under it after its own."""
    notes = [GIN_RATES_NOTE] if identity.get("kind") in ("hands", "counts") else \
        match_notes(table, shown_players(identity)) if identity.get("kind") == "matches" else []
    notes = [*notes, *more_notes]
    click.echo(write_table(table, _source(identity), csv=csv, as_json=as_json, columns=columns(columns_text),
                           notes=notes))


def match_notes(table: pd.DataFrame, players: Sequence[str]) -> list[str]:
    """Under a summary of matches: who won, whether the lead is real, and what ``width_ratio`` is.

    >>> table = pd.DataFrame({"matches": [400], "win_rate_0": [0.6], "win_rate_0_low": [0.55],
    ...                       "win_rate_0_high": [0.65], "win_rate_1": [0.4]})
    >>> match_notes(table, ["greedy", "simple"])[0]
    'greedy, player 0, won 60.0% of the matches [95%: 55.0%, 65.0%]: ahead of simple, the interval above 50%'
    """
    row = table.iloc[0]
    leader = 0 if row["win_rate_0"] >= row["win_rate_1"] else 1
    rate = float(row["win_rate_0"]) if leader == 0 else 1 - float(row["win_rate_0"])
    low, high = (float(row["win_rate_0_low"]), float(row["win_rate_0_high"])) if leader == 0 else \
        (1 - float(row["win_rate_0_high"]), 1 - float(row["win_rate_0_low"]))
    verdict = (f"ahead of {players[1 - leader]}, the interval above 50%" if low > 0.5 else
               f"not told apart from {players[1 - leader]}, the interval holding 50%")
    notes = [f"{players[leader]}, player {leader}, won {rate:.1%} of the matches [95%: {low:.1%}, {high:.1%}]: "
             f"{verdict}"]
    if "width_ratio" in table:
        notes.append("duplicate deals: intervals over the deal pairs; width_ratio is the paired win-rate "
                     "interval's width over the Wilson interval's on the same games one by one (below 1: "
                     "the pairing narrowed it by that factor)")
    return notes


def report_run(what: str, identity: RunIdentity, report: dict[str, Any], table: pd.DataFrame,
               notes: Sequence[str] = ()) -> None:
    """The end of a run: what was played by whom (unless JSON is asked), then its summary ``table`` and
    the ``notes`` under it."""
    if not report["as_json"]:
        seats = " vs ".join(f"{name} (player {seat})" for seat, name in enumerate(shown_players(identity.to_dict())))
        written = f", written to {report['out']}" if report["out"] else ""
        click.echo(textwrap.fill(f"{what} of {seats}, seed {identity.seed}{written}", WIDTH,
                                 subsequent_indent="  "))
    write_run_table(table, identity.to_dict(), report["csv"], report["as_json"], report["columns"], notes)


def hands_won_note(records: pd.DataFrame, players: Sequence[str]) -> str:
    """Under a run of hands between two players: who won it, by the net points a hand (player 0's
    points less player 1's) with its 95% interval, and each player's share of the hands won.

    >>> records = pd.DataFrame({"winner": [0, 0, 1, -1], "points": [20, 10, 5, 0]})
    >>> print(hands_won_note(records, ["greedy", "simple"]))
    greedy, player 0, scored 6.25 points a hand more than simple [95%: -11.39, 23.89]: not told apart, the \
interval holding 0; hands won: greedy 50.0% [15.0%, 85.0%], simple 25.0% [4.6%, 69.9%], drawn 25.0%
    """
    winner = records["winner"].to_numpy()
    points = records["points"].to_numpy(float)
    net = np.where(winner == 0, points, np.where(winner == 1, -points, 0.0))
    mean = float(net.mean())
    low, high = mean_interval(net) if len(net) > 1 else (float("nan"), float("nan"))
    leader = 0 if mean >= 0 else 1
    sign = 1 if leader == 0 else -1
    bounds = sorted((sign * low, sign * high))
    verdict = ("ahead, the interval above 0" if bounds[0] > 0 else "not told apart, the interval holding 0")
    won = np.array([(winner == seat).sum() for seat in (0, 1)])
    won_low, won_high = wilson(won, np.full(2, len(records)))
    shares = ", ".join(f"{players[seat]} {won[seat] / len(records):.1%} [{won_low[seat]:.1%}, {won_high[seat]:.1%}]"
                       for seat in (0, 1))
    return (f"{players[leader]}, player {leader}, scored {sign * mean:.2f} points a hand more than "
            f"{players[1 - leader]} [95%: {bounds[0]:.2f}, {bounds[1]:.2f}]: {verdict}; hands won: {shares}, drawn "
            f"{(winner < 0).mean():.1%}")


def show_hand(hand: Any, symbols: bool | None, as_json: bool) -> None:
    """A traced hand of either game, as text or JSON."""
    click.echo(json.dumps(hand.to_json(), indent=2) if as_json else hand.to_text(use_symbols(symbols)))


def list_fields(rules_class: type[RuleSet], as_json: bool, commands: str) -> None:
    """Every rule field of ``rules_class`` with its default and allowed values; ``commands`` take them."""
    fields = rules_class.fields_help()
    if as_json:
        click.echo(json.dumps([{"name": name, "default": default, "description": description}
                               for name, default, description in fields], indent=2))
        return
    click.echo(f"fields (set one with --FIELD VALUE on {commands}):")
    for name, default, description in fields:
        echo_wrapped(f"  {name:<18} {str(default):<7} ", description)


def list_strategies(strategies: Mapping[str, str]) -> None:
    """One line per strategy: its name and what it does."""
    for name, description in strategies.items():
        echo_wrapped(f"{name:<14} ", description)
