"""``ginsim when-to-knock``: knocking now against playing on, from real positions, and the policy it implies.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(when_to_knock, ["--hands", "10", "--deals", "2", "--play", "0"])
>>> header = next(line for line in result.stdout.splitlines() if line.split()[:1] == ["turn"])
>>> result.exit_code, header.split()
(0, ['turn', 'deadwood', 'limit', 'positions', 'gain', 'knock', 'play_on', 'equity_pp'])
"""
from __future__ import annotations

import json
import re
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import click

from gincore.errors import InputError
from ginsim.cli.options import PlayersParam, csv_option, json_option, rules_options, seed_option
from ginsim.cli.play import StrategyParam
from ginsim.cli.report import WIDTH, write_table
from ginsim.gin.game.players import PlayerSpec, display_name
from ginsim.gin.game.rules import Rules

__all__ = ["ScoresParam", "when_to_knock"]


class ScoresParam(click.ParamType):
    """Two match scores as ``MOVER-OPPONENT`` (``90-50``)."""

    name = "MOVER-OPPONENT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        found = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", str(value))
        if found is None:
            self.fail(f"{value!r} is not two scores: write the mover's and the opponent's as A-B, e.g. 90-50",
                      param, ctx)
        return int(found[1]), int(found[2])


def _read_equity(path: Path) -> Any:
    """A match equity table from a file: ``.npz`` as :func:`~ginsim.gin.studies.equity.save_table` writes
    it, else CSV as ``ginsim equity --csv`` does."""
    import pandas as pd

    from ginsim.gin.studies.equity import load_table

    try:
        if path.suffix == ".npz":
            return load_table(path)
        return pd.read_csv(path, comment="#")
    except OSError as error:
        raise InputError(f"cannot read the match equity table {path}: {error.strerror or error}") from None
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        kind = "a table saved by save_table" if path.suffix == ".npz" else "CSV"
        raise InputError(f"cannot read the match equity table {path}: it is not {kind} ({type(error).__name__})") \
            from None


@click.command(name="when-to-knock")
@rules_options
@click.option("--players", type=PlayersParam(), default="simple,simple", show_default=True,
              help="The players whose hands give the positions (every discard at which the mover may knock).")
@click.option("--hands", type=click.IntRange(1, 10**6), default=1000, show_default=True,
              help="Hands to take the positions from.")
@click.option("--deals", type=click.IntRange(1, 10_000), default=16, show_default=True,
              help="Deals of the unseen cards each position is valued on.")
@click.option("--continuation", type=StrategyParam(), default="marjj", show_default=True,
              help="The strategy that plays on for the mover after it declines to knock.")
@click.option("--opponent", type=StrategyParam(), default="simple", show_default=True,
              help="The opponent, in the play-outs and when the implied policy is played.")
@click.option("--scores", type=ScoresParam(), default=None,
              help="The match scores, the mover's then the opponent's, at which the results are valued in "
                   "match equity  [default: 0-0]")
@click.option("--equity-table", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The match equity table to value the results by (CSV of ginsim equity --csv, or .npz)  "
                   "[default: the one shipped for the rules, else one of 10^6 hands of simple]")
@click.option("--play", "play_hands", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Deals on which the implied policies (in points, and in equity when the rules have a "
                   "target), knocking at once and marjj's rule play the opponent (each in both seats; 0: none).")
@seed_option
@csv_option("the study's table")
@json_option("the tables", ": the study, the thresholds and the policies' results")
def when_to_knock(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int, deals: int,
                  continuation: PlayerSpec, opponent: PlayerSpec, scores: tuple[int, int] | None,
                  equity_table: Path | None, play_hands: int, seed: int, csv: Path | None, as_json: bool) -> None:
    """Value knocking now against playing on, in points per hand and in match equity, at every position
    of real hands where the mover may knock: the unseen cards dealt again --deals times, both choices
    played on each deal (knocking with the best discard; or discarding it and playing on as
    --continuation against --opponent). By turn (draws, in bins of 5), deadwood and knock limit, with
    95% intervals; then the thresholds it implies (knock iff deadwood <= t(turn, knock limit)), in
    points and in equity at --scores, with bootstrap intervals, and, with --play, both policies against
    knocking at once and marjj's rule (one discard rule for all) on the same deals.

    \b
    Examples:
      ginsim when-to-knock --hands 2000 --deals 16
      ginsim when-to-knock --rules oklahoma --hands 4000 --opponent marjj
      ginsim when-to-knock --scores 80-40 --csv knock.csv
    """
    from ginsim.gin.studies.knocking import compare_rules, knock_values, study_table

    table = None if equity_table is None else _read_equity(equity_table)
    values = knock_values(rules, players, hands, seed, deals=deals, continuation=continuation, opponent=opponent,
                          scores=scores, equity=table)
    study = study_table(values)
    valued = values.attrs["equity"]
    thresholds = _thresholds(values, seed, valued is not None)
    by_equity = ({(row.turn, row.knock_limit): row.equity_threshold for row in thresholds.itertuples()}
                 if valued is not None else None)
    played = (compare_rules(rules, {(row.turn, row.knock_limit): row.threshold for row in thresholds.itertuples()},
                            opponent, play_hands, seed, equity_thresholds=by_equity) if play_hands else None)
    equity_note = ("no match equity: the rules have no target" if valued is None else
                   f"at {valued['scores'][0]}-{valued['scores'][1]} (mover-opponent) by the match equity table of "
                   f"{valued['table']}")
    source = {"run": f"{rules.label()} | positions of {' vs '.join(display_name(p) for p in players)} in {hands:,} "
                     f"hands | {deals} deals each | playing on as {display_name(continuation)} against "
                     f"{display_name(opponent)} | seed {seed}",
              "rules": rules.to_dict(), "seed": seed, "equity": valued}
    notes = ["gain: the mover's points from knocking now less from playing on (the same deals of the unseen "
             "cards), per hand, with a 95% interval over the positions clustered by hand; equity_pp: the same in "
             f"percentage points of the chance to win the game, {equity_note}"]
    text = write_table(study, source, csv=csv, as_json=as_json, notes=notes)
    if as_json:
        shown = json.loads(text)
        shown["thresholds"] = json.loads(thresholds.to_json(orient="records"))
        shown["policies"] = [] if played is None else json.loads(played.to_json(orient="records"))
        click.echo(json.dumps(shown, indent=2))
        return
    compact = study.drop(columns=["knock_equity", "play_on_equity"]).rename(
        columns=lambda name: name.replace("equity_gain", "equity_pp").replace("knock_limit", "limit"))
    for column in ("equity_pp", "equity_pp_low", "equity_pp_high"):
        compact[column] *= 100
    click.echo(write_table(compact, source, notes=notes))
    click.echo("\n" + textwrap.fill("implied policy: knock iff deadwood <= threshold (with its 95% bootstrap "
                                    "interval over the hands, and the share of replicates that find it)", WIDTH))
    click.echo(_threshold_text(thresholds))
    if valued is not None:
        differ = thresholds[thresholds["threshold"] != thresholds["equity_threshold"]]
        click.echo(textwrap.fill(f"(by equity {equity_note}: " + (
            "the same thresholds" if differ.empty else "other thresholds at turn/limit "
            + ", ".join(f"{row.turn}/{row.knock_limit}" for row in differ.itertuples())) + ")", WIDTH))
    if played is not None:
        policies = ("the points policy (thresholds)" if by_equity is None else
                    "the points policy (thresholds), the equity policy (equity-thresholds)")
        click.echo("\n" + textwrap.fill(f"{policies}, knocking at once and marjj's rule against "
                                        f"{display_name(opponent)} on {play_hands:,} deals, each in both seats "
                                        "(points per hand; gain over knocking at once, paired by deal):", WIDTH))
        click.echo(write_table(played, {}, columns=["points", "gain"]).split("\n", 1)[1])


def _thresholds(values: Any, seed: int, equity: bool) -> Any:
    """The thresholds in points and, with ``equity``, in equity (as ``equity_threshold`` ...)."""
    from ginsim.gin.studies.knocking import threshold_table

    table = threshold_table(values, "gain", seed=seed)
    if not equity:
        return table
    by_equity = threshold_table(values, "equity_gain", seed=seed).drop(columns=["turn", "knock_limit"])
    return table.join(by_equity.add_prefix("equity_"))


def _threshold_text(thresholds: Any) -> str:
    import pandas as pd

    shown = pd.DataFrame({"turn": thresholds["turn"], "limit": thresholds["knock_limit"]})
    for prefix, name in (("", "points"), ("equity_", "equity")):
        if f"{prefix}threshold" in thresholds:
            shown[name] = [f"{value} [{low}, {high}] {agreement:4.0%}" for value, low, high, agreement in zip(
                *(thresholds[f"{prefix}{column}"] for column in ("threshold", "threshold_low", "threshold_high",
                                                                  "agreement")), strict=True)]
    return shown.to_string(index=False)
