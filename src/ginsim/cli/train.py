"""``ginsim train``: train a masked policy for any rules against a mix of opponents, into a directory.

>>> from click.testing import CliRunner
>>> from ginsim.cli import main
>>> result = CliRunner().invoke(main, ["train", "--out", "somewhere", "--lr", "5"])
>>> result.exit_code, result.output.strip()
(2, 'Error: learning_rate must be a number above 0 and at most 1, got 5.0')
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from gincore.errors import InputError
from ginsim.cli.options import given, progress_option, rules_options, seed_option
from ginsim.gin.game.policy.observations import LAYOUTS
from ginsim.gin.game.rules import Rules
from ginsim.learn.config import EPISODES, LEAGUE, REWARDS, TrainConfig, parse_opponents

__all__ = ["train_command"]

_DEFAULTS = TrainConfig()


def _widths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InputError(f"--hidden takes layer widths separated by commas, e.g. 256,256; got {text!r}") from None


@click.command(name="train")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory of the run: checkpoints, the policy file, the learning curve. The same command "
                   "again resumes the run from its last checkpoint.")
@rules_options
@click.option("--opponents", default="simple", show_default=True, metavar="NAME[=SHARE],...",
              help=f"Opponents and their shares of the tables: built-in or Python strategies, or {LEAGUE} "
                   "(the learner's own earlier snapshots).")
@click.option("--total-timesteps", "--steps", "total_timesteps", type=int, default=_DEFAULTS.total_timesteps,
              show_default=True,
              help="Learner decisions of PPO (rounded up to whole updates).")
@click.option("--imitate", metavar="STRATEGY",
              help="First clone this strategy's decisions (behaviour cloning), then PPO from there.")
@click.option("--imitate-against", default=_DEFAULTS.imitate_against, show_default=True, metavar="STRATEGY",
              help="The expert's opponent in the recorded hands.")
@click.option("--imitate-hands", type=int, default=_DEFAULTS.imitate_hands, show_default=True,
              help="Hands of the expert's decisions to clone.")
@click.option("--imitate-epochs", type=int, default=_DEFAULTS.imitate_epochs, show_default=True,
              help="Passes over the expert's decisions.")
@click.option("--imitate-lr", type=float, default=_DEFAULTS.imitate_lr, show_default=True,
              help="Adam's step size in cloning.")
@click.option("--imitate-lr-end", type=float, metavar="FLOAT",
              help="Lower the cloning's step size from --imitate-lr to this on a half cosine (default: constant).")
@click.option("--imitate-fresh", is_flag=True,
              help="Record new hands for each cloning pass instead of passing over the same ones again.")
@click.option("--decisions", "imitate_decisions", type=click.Path(file_okay=False), metavar="DIR",
              help="Clone the decisions recorded in DIR by ginsim record (its expert, every decision each pass) "
                   "instead of recording them here; --imitate, if given, must name its expert.")
@click.option("--start-from", metavar="POLICY",
              help="Start from this policy file's network instead of random weights (same --layout and "
                   "--hidden, trained for these rules' hands): go on from an earlier run.")
@click.option("--layout", type=click.Choice(LAYOUTS), default=_DEFAULTS.layout, show_default=True,
              help="The observation layout the network reads.")
@click.option("--hidden", default=",".join(map(str, _DEFAULTS.hidden)), show_default=True, metavar="W,W,...",
              help="Widths of the hidden layers.")
@click.option("--reward", type=click.Choice(REWARDS), default=_DEFAULTS.reward, show_default=True,
              help="What a hand pays: its points (divided by --reward-scale), +1/-1 for a win/loss, or (with "
                   "--episode match) shaped: the change in the chance to win the match, worth the target in points.")
@click.option("--reward-scale", type=float, default=_DEFAULTS.reward_scale, show_default=True,
              help="Points per unit of reward.")
@click.option("--episode", type=click.Choice(EPISODES), default=_DEFAULTS.episode, show_default=True,
              help="What the tables play: single hands at 0-0, or matches to the target whose scores the "
                   "network sees (learned then shows it the scores in play).")
@click.option("--n-envs", "--envs", "n_envs", type=int, default=_DEFAULTS.n_envs, show_default=True,
              help="Tables played at once, shared among the opponents.")
@click.option("--n-steps", "--rollout", "n_steps", type=int, default=_DEFAULTS.n_steps, show_default=True,
              help="Decisions per table per update.")
@click.option("--n-epochs", "--epochs", "n_epochs", type=int, default=_DEFAULTS.n_epochs, show_default=True,
              help="PPO passes per update.")
@click.option("--batch-size", "--minibatch", "batch_size", type=int, default=_DEFAULTS.batch_size, show_default=True,
              help="Decisions per gradient step.")
@click.option("--learning-rate", "--lr", "learning_rate", type=float, default=_DEFAULTS.learning_rate,
              show_default=True,
              help="Adam's step size in PPO.")
@click.option("--clip-range", "--clip", "clip_range", type=float, default=_DEFAULTS.clip_range, show_default=True,
              help="PPO's ratio clip.")
@click.option("--ent-coef", "--entropy", "ent_coef", type=float, default=_DEFAULTS.ent_coef, show_default=True,
              help="Weight of the entropy bonus.")
@click.option("--vf-coef", "--value-coef", "vf_coef", type=float, default=_DEFAULTS.vf_coef, show_default=True,
              help="Weight of the value loss.")
@click.option("--gamma", type=float, default=_DEFAULTS.gamma, show_default=True, help="Discount per decision.")
@click.option("--gae-lambda", "--lam", "gae_lambda", type=float, default=_DEFAULTS.gae_lambda, show_default=True,
              help="GAE's lambda.")
@click.option("--checkpoint-every", type=int, default=_DEFAULTS.checkpoint_every, show_default=True,
              help="Updates between checkpoints (the league draws a new snapshot at each).")
@seed_option
@progress_option()
def train_command(out: Path, rules: Rules, opponents: str, hidden: str, seed: int, progress: bool | None,
                  **settings: object) -> None:
    """Train a masked policy (behaviour cloning, then PPO) for any rules; write its policy file.

    \b
    Examples:
      ginsim train --out runs/ppo --opponents simple --steps 2000000
      ginsim train --out runs/eaai --imitate marjj --opponents simple,marjj=2
      ginsim train --out runs/clone --layout learner --decisions runs/rec
      ginsim train --out runs/okla --rules oklahoma --opponents marjj,league
      ginsim strategies                  # the opponents there are

    The directory gets training.json (the settings), checkpoint.pt, policy.npz (play it with the learned
    strategy), curve.csv, curve.json and curve.png. Ctrl-C or a kill keeps the last checkpoint: the same
    command again resumes from it, and ends as the uninterrupted run would have.
    """
    from ginsim.learn.training import train

    if settings["imitate_decisions"] is not None:
        ignored = given("imitate_against", "imitate_hands", "imitate_fresh")
        if ignored:
            raise InputError(f"--decisions clones a recording's hands: --{ignored[0].replace('_', '-')} does not "
                             "apply (the recording's own command chose them)")
    config = TrainConfig(rules=rules, opponents=parse_opponents(opponents), hidden=_widths(hidden), seed=seed,
                         **settings)  # type: ignore[arg-type]
    result = train(config, out, progress=progress, command=shlex.join(["ginsim", *sys.argv[1:]]))
    last = [row for row in result.curve if row["phase"] == "ppo"][-1:]
    cloned = [row for row in result.curve if row["phase"] == "imitate"][-1:]
    click.echo(f"policy: {result.policy} ({result.steps:,} PPO decisions, {result.seconds:,.0f} s of training)")
    if cloned:
        click.echo(f"imitation: {cloned[0]['accuracy']:.1%} of the expert's decisions matched in the last of "
                   f"{int(cloned[0]['epoch'])} passes")
    if last:
        rates = ", ".join(f"{key[len('win_rate['):-1]} {value:.1%}" for key, value in last[0].items()
                          if key.startswith("win_rate["))
        click.echo(f"last update: {last[0]['points_per_hand']:+.2f} points per hand; hands won against {rates}")
    click.echo(f"learning curve: {result.out / 'curve.csv'}, {result.out / 'curve.png'}")
