"""How the ``ginsim`` commands print what they made: summary tables with the line saying what produced
them, traced hands, rule fields and strategy lists.

>>> from click.testing import CliRunner
>>> import click
>>> from ginsim import rummy
>>> @click.command()
... def fields() -> None:
...     list_fields(rummy.Rules, False, "rummy run")
>>> print(CliRunner().invoke(fields).output.splitlines()[1])
  target             100     points that end a game (allowed: an integer >= 1)
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
import pandas as pd

from ginsim.cli.options import use_symbols
from ginsim.fields import RuleSet
from ginsim.report import GIN_RATES_NOTE, write_table

__all__ = ["columns", "list_fields", "list_strategies", "report_run", "show_hand", "write_run_table"]


def columns(text: str | None) -> str | list[str] | None:
    """The ``--columns`` text as :func:`ginsim.report.write_table` takes it."""
    return None if text is None else "all" if text == "all" else [name.strip() for name in text.split(",")]


def _source(identity: Mapping[str, Any]) -> dict[str, Any]:
    """What produced a table: the run's description and its identity's main fields."""
    from ginsim.games import describe_run

    fields = {key: identity[key] for key in ("kind", "rules", "players", "seed", "size") if key in identity}
    return {"run": describe_run(identity), **fields}


def write_run_table(table: pd.DataFrame, identity: Mapping[str, Any], csv: Path | None, as_json: bool,
                    columns_text: str | None = None) -> None:
    """Print a summary of the run ``identity`` describes (and write it as CSV), saying what produced it."""
    notes = [GIN_RATES_NOTE] if identity.get("kind") in ("hands", "counts") else []
    click.echo(write_table(table, _source(identity), csv=csv, as_json=as_json, columns=columns(columns_text),
                           notes=notes))


def report_run(what: str, identity: dict[str, Any], report: dict[str, Any], table: pd.DataFrame) -> None:
    """The end of a run: what was played by whom (unless JSON is asked), then its summary ``table``."""
    if not report["as_json"]:
        seats = " vs ".join(f"{name} (player {seat})" for seat, name in enumerate(identity["players"]))
        written = f", written to {report['out']}" if report["out"] else ""
        click.echo(f"{what} of {seats}, seed {identity['seed']}{written}")
    write_run_table(table, identity, report["csv"], report["as_json"], report["columns"])


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
        click.echo(f"  {name:<18} {str(default):<7} {description}")


def list_strategies(strategies: Mapping[str, str]) -> None:
    """One line per strategy: its name and what it does."""
    for name, description in strategies.items():
        click.echo(f"{name:<14} {description}")
