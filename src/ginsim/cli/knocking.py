"""``ginsim when-to-knock``: knocking now against playing on, from real positions, and the policy it implies.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(when_to_knock, ["--hands", "10", "--deals", "2", "--play", "0"])
>>> header = next(line for line in result.stdout.splitlines() if line.split()[:1] == ["turn"])
>>> result.exit_code, header.split()[:4]
(0, ['turn', 'deadwood', 'knock_limit', 'positions'])
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from ginsim.cli.options import PlayersParam, csv_option, json_option, rules_options, seed_option
from ginsim.cli.play import StrategyParam
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import PlayerSpec, player_name
from ginsim.report import write_table

__all__ = ["when_to_knock"]


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
@click.option("--play", "play_hands", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Deals on which the implied policy, knocking at once and marjj's rule play the opponent "
                   "(each in both seats; 0: none).")
@seed_option
@csv_option("the study's table")
@json_option("the tables", ": the study, the thresholds and the policies' results")
def when_to_knock(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int, deals: int,
                  continuation: PlayerSpec, opponent: PlayerSpec, play_hands: int, seed: int, csv: Path | None,
                  as_json: bool) -> None:
    """Value knocking now against playing on, in points per hand, at every position of real hands where
    the mover may knock: the unseen cards dealt again --deals times, both choices played on each deal
    (knocking with the best discard; or discarding it and playing on as --continuation against
    --opponent). By turn (draws, in bins of 5), deadwood and knock limit, with 95% intervals; then the
    thresholds it implies (knock iff deadwood <= t(turn, knock limit)) and, with --play, that policy
    against knocking at once and marjj's rule (one discard rule for all three) on the same deals.

    \b
    Examples:
      ginsim when-to-knock --hands 2000 --deals 16
      ginsim when-to-knock --rules oklahoma --hands 4000 --opponent marjj
      ginsim when-to-knock --continuation search --csv knock.csv
    """
    import pandas as pd

    from ginsim.gin.runs.knocking import compare_rules, implied_thresholds, knock_study

    study = knock_study(rules, players, hands, seed, deals=deals, continuation=continuation, opponent=opponent)
    thresholds = implied_thresholds(study)
    threshold_table = pd.DataFrame([{"turn": turn, "knock_limit": limit, "threshold": value}
                                    for (turn, limit), value in thresholds.items()])
    played = compare_rules(rules, thresholds, opponent, play_hands, seed) if play_hands else None
    source = {"run": f"{rules.label()} | positions of {' vs '.join(player_name(p) for p in players)} in {hands:,} "
                     f"hands | {deals} deals each | playing on as {player_name(continuation)} against "
                     f"{player_name(opponent)} | seed {seed}",
              "rules": rules.to_dict(), "seed": seed}
    notes = ["gain: the mover's points from knocking now less from playing on (the same deals of the unseen cards), "
             "per hand, with a 95% t-interval over the positions"]
    text = write_table(study, source, csv=csv, as_json=as_json, notes=notes)
    if as_json:
        shown = json.loads(text)
        shown["thresholds"] = json.loads(threshold_table.to_json(orient="records"))
        shown["policies"] = [] if played is None else json.loads(played.to_json(orient="records"))
        click.echo(json.dumps(shown, indent=2))
        return
    click.echo(text)
    click.echo("\nimplied policy: knock iff deadwood <= threshold")
    click.echo(threshold_table.to_string(index=False))
    if played is not None:
        click.echo(f"\nagainst {player_name(opponent)} on {play_hands:,} deals, each in both seats (points per hand; "
                   "gain over knocking at once, paired by deal):")
        click.echo(write_table(played, {}, columns=["points", "gain"]).split("\n", 1)[1])
