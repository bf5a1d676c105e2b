"""``ginsim record``: a strategy's decisions recorded on the run layer into a directory, for ``ginsim train
--decisions``.

>>> import tempfile
>>> from click.testing import CliRunner
>>> out = tempfile.mkdtemp() + "/rec"
>>> result = CliRunner().invoke(record_command, ["--expert", "marjj", "--against", "simple", "--hands", "4",
...                                             "--workers", "1", "--out", out, "--no-progress"])
>>> result.exit_code, result.output.split(" decisions")[0].isdigit()
(0, True)
"""
from __future__ import annotations

import click

from gincore.errors import InputError
from ginsim.cli.options import placement_options, rules_options, seed_option
from ginsim.core.execution import RunOptions
from ginsim.gin.game.policy.observations import LAYOUTS
from ginsim.gin.game.rules import Rules

__all__ = ["record_command"]


@click.command("record")
@rules_options
@click.option("--expert", metavar="STRATEGY", required=True,
              help="The strategy whose decisions are recorded (in seat 0), e.g. reader.")
@click.option("--against", default="simple", show_default=True, metavar="A,B,...",
              help="Its opponents, in turn: hand i is played against the (i mod K)-th of the K, on hand i // K's "
                   "deal of the seed.")
@click.option("--hands", type=click.IntRange(min=1), required=True, help="Record this many hands.")
@click.option("--layout", type=click.Choice(LAYOUTS), default="learner", show_default=True,
              help="The observation layout (the network that clones them must read the same).")
@seed_option
@placement_options
def record_command(rules: Rules, expert: str, against: str, hands: int, layout: str, seed: int,
                   common: RunOptions) -> None:
    """Record a strategy's decisions (observation, legal actions, action, the hand's points) chunk by chunk
    into --out, on local worker processes or a Dask cluster; clone them with ginsim train --decisions.

    \b
    Examples:
      ginsim record --rules eaai --expert reader --against marjj,search \\
        --hands 40000 --out runs/reader-decisions
      ginsim train --out runs/clone --rules eaai --layout learner \\
        --decisions runs/reader-decisions

    Hand i's rows are the same for any --workers, --chunk-size or backend. A stopped recording resumes
    where it stopped when the same command runs again; a finished one is read, not recorded again.
    """
    from ginsim.gin.game.players import shown_name
    from ginsim.gin.studies.decisions import record_expert_decisions

    if common.out is None:
        raise InputError("ginsim record writes its decisions into a directory: give --out DIR")
    recorded = record_expert_decisions(rules, expert, against, hands, seed, layout, options=common)
    players = [shown_name(name) for name in recorded["players"]]
    click.echo(f"{recorded['decisions']:,} decisions of {players[0]} in {hands:,} hands against "
               f"{', '.join(players[1:])} (seed {seed}, {layout} layout) in {common.out}")
