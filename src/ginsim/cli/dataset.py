"""``ginsim dataset``: the decisions of any strategies, recorded natively, as a Minari dataset.

>>> import tempfile
>>> from click.testing import CliRunner
>>> root = tempfile.mkdtemp()
>>> result = CliRunner().invoke(dataset_command, ["--players", "marjj,simple", "--hands", "4", "--root", root,
...                                               "--id", "ginsim/demo-v0", "--no-progress"])
>>> result.exit_code, result.output.split(":")[0]
(0, 'ginsim/demo-v0')
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from gincore.errors import InputError
from ginsim.cli.options import players_option, progress_option, rules_options, seed_option
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.policy.observations import LAYOUTS
from ginsim.gin.game.rules import Rules

__all__ = ["dataset_command"]


def _seats(text: str) -> tuple[int, ...]:
    try:
        seats = tuple(int(part) for part in text.split(","))
    except ValueError:
        seats = ()
    if not seats or any(seat not in (0, 1) for seat in seats) or len(set(seats)) != len(seats):
        raise InputError(f"--seats must be 0, 1 or 0,1, got {text!r}")
    return seats


@click.command("dataset")
@rules_options
@players_option
@click.option("--hands", type=click.IntRange(min=1), required=True, help="Play and record this many hands.")
@seed_option
@click.option("--layout", type=click.Choice(LAYOUTS), default="learner", show_default=True,
              help="The observation layout (see the environments' documentation).")
@click.option("--seats", default="0,1", show_default=True, help="The seats whose decisions are recorded: 0, 1 or 0,1.")
@click.option("--id", "dataset_id", metavar="NAMESPACE/NAME-vN", required=True,
              help="The dataset's id, as minari.load_dataset takes it, e.g. ginsim/marjj-v0.")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="The datasets folder  [default: $MINARI_DATASETS_PATH, else ~/.minari/datasets]")
@progress_option()
def dataset_command(rules: Rules, players: tuple[PlayerSpec, PlayerSpec], hands: int, seed: int, layout: str,
                    seats: str, dataset_id: str, root: Path | None, progress: bool | None) -> None:
    """Record every decision of the chosen seats in seeded hands (observation, legal actions, action, the
    hand's points and, under a target, the game equity after it) and write them as a Minari dataset: one
    episode per hand and seat.

    \b
    Examples:
      ginsim dataset --players marjj,marjj --hands 100000 --id ginsim/marjj-v0
      ginsim dataset --players reader,gin --seats 0 --hands 500 --id gs/reader-v0
    """
    from ginsim.env.dataset import write_dataset

    chosen = _seats(seats)
    show = sys.stderr.isatty() if progress is None else progress
    with tqdm(total=hands, unit=" hands", unit_scale=True, disable=not show, file=sys.stderr) as bar:
        def advance(done: int) -> None:
            bar.update(done - bar.n)

        path = write_dataset(dataset_id, rules, players, hands, seed, layout, chosen, root, progress=advance)
    from ginsim.env.dataset import open_dataset

    dataset = open_dataset(dataset_id, path.parents[len(Path(dataset_id).parts) - 1])
    click.echo(f"{dataset_id}: {dataset.total_episodes:,} episodes, {dataset.total_steps:,} decisions, in {path}")
