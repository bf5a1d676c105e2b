"""Decisions of any strategies as a Minari dataset (the Farama Foundation's format for offline RL data).

:func:`write_dataset` records hands played natively (:func:`ginsim.gin.studies.decisions.record_decisions`) and
writes one episode per hand and recorded seat: the seat's observations (``{"observation", "action_mask"}``
as the environments give them, the last one what it saw once the hand was over), its actions, a reward
of 0 at each decision but the last, which pays the hand's points signed for the seat (as the
environments' ``"points"`` reward), and per step the infos ``hand``, ``seat``, ``points`` and, where the
rules have a target and a shipped match equity table, ``equity`` (the chance to win the game after the
hand from 0-0). ``minari.load_dataset(dataset_id)`` reads it back. Needs the ``data`` extra (minari with
its HDF5 storage).

>>> import tempfile
>>> from ginsim import Rules
>>> root = tempfile.mkdtemp()
>>> path = write_dataset("ginsim/marjj-v0", Rules(), "marjj,simple", hands=3, seed=1, root=root)
>>> dataset = open_dataset("ginsim/marjj-v0", root)   # minari.load_dataset, from that folder
>>> dataset.total_episodes, next(dataset.iterate_episodes()).observations["observation"].shape[1]
(6, 636)
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gincore.errors import InputError
from ginsim._version import install_command
from ginsim.env.spaces import observation_space
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.players import PlayerSpec, player_name, resolve_players
from ginsim.gin.game.policy.observations import observation_bounds
from ginsim.gin.game.rules import Rules
from ginsim.gin.studies.decisions import record_decisions

__all__ = ["DATASET_ID", "open_dataset", "write_dataset"]

DATASET_ID = re.compile(r"(?:[-\w][-\w/]*[-\w]+/)?[-\w]+-v\d+")
"""Minari's form of a dataset id: ``(namespace/)name-vN``, as Minari checks it (a namespace of two
characters or more; letters, digits, ``_`` and ``-``, no ``.``), so that an id is refused before the hands
are played, not after.

>>> [bool(DATASET_ID.fullmatch(name)) for name in ("ginsim/marjj-v0", "gg/a-b-v3", "g/reader-v0", "ns/a.b-v0")]
[True, True, False, False]
"""


def _minari() -> Any:
    try:
        import minari
    except ImportError:
        raise InputError(f"writing a Minari dataset needs minari: {install_command('data')}") from None
    return minari


@contextlib.contextmanager
def _datasets_root(root: Path) -> Iterator[None]:
    """Minari's datasets folder set to ``root`` (it reads it from the environment at each call)."""
    before = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = before


def _root(root: str | os.PathLike[str] | None) -> Path:
    if root is not None:
        return Path(root).expanduser().resolve()
    chosen = os.environ.get("MINARI_DATASETS_PATH")
    return Path(chosen).expanduser().resolve() if chosen else Path.home() / ".minari" / "datasets"


def open_dataset(dataset_id: str, root: str | os.PathLike[str] | None = None) -> Any:
    """``minari.load_dataset(dataset_id)`` from the datasets folder ``root`` (default: Minari's)."""
    minari = _minari()
    with _datasets_root(_root(root)):
        return minari.load_dataset(dataset_id)


def _episodes(rows: dict[str, np.ndarray]) -> Iterator[Any]:
    """One EpisodeBuffer per (hand, seat): its decisions in order, then its final observation."""
    from minari.data_collector import EpisodeBuffer

    order = np.lexsort((np.arange(len(rows["hand"])), rows["seat"], rows["hand"]))
    hands, seats = rows["hand"][order], rows["seat"][order]
    starts = np.flatnonzero(np.r_[True, (hands[1:] != hands[:-1]) | (seats[1:] != seats[:-1])])
    for number, (start, end) in enumerate(zip(starts, np.r_[starts[1:], len(order)], strict=True)):
        steps = order[start:end]  # the decisions, then the final row (action -1)
        decisions = steps[:-1]
        rewards = np.zeros(len(decisions), np.float64)
        rewards[-1] = rows["points"][steps[-1]]
        ended = np.zeros(len(decisions), bool)
        ended[-1] = True
        infos = {name: rows[name][steps] for name in ("hand", "seat", "points", "equity") if name in rows}
        yield EpisodeBuffer(id=number, observations={"observation": rows["observation"][steps],
                                                     "action_mask": rows["action_mask"][steps]},
                            actions=rows["action"][decisions].astype(np.int64), rewards=rewards,
                            terminations=ended, truncations=np.zeros(len(decisions), bool), infos=infos)


def write_dataset(dataset_id: str, rules: Rules, players: str | Sequence[PlayerSpec], hands: int, seed: int,
                  layout: str = "learner", seats: Sequence[int] = (0, 1), root: str | os.PathLike[str] | None = None,
                  description: str | None = None, progress: Callable[[int], None] | None = None) -> Path:
    """Record ``hands`` hands of ``players`` (seed ``seed``) and write the decisions of ``seats`` as the
    Minari dataset ``dataset_id`` in the datasets folder ``root`` (default: Minari's,
    ``$MINARI_DATASETS_PATH`` or ``~/.minari/datasets``); its folder. The dataset is written whole in a
    temporary folder beside it, then moved into place; an existing dataset of that id is refused."""
    minari = _minari()
    if not isinstance(dataset_id, str) or not DATASET_ID.fullmatch(dataset_id):
        raise InputError(f"dataset id {dataset_id!r} must be (namespace/)name-vN, e.g. ginsim/marjj-v0: letters, "
                         "digits, _ and -, a namespace of two characters or more")
    resolved = resolve_players(players)
    folder = _root(root)
    target = folder / dataset_id
    if target.exists():
        raise InputError(f"dataset {dataset_id} already exists in {folder}: choose another id or version")
    folder.mkdir(parents=True, exist_ok=True)  # a folder that cannot be made is refused before the hands are played
    rows = record_decisions(rules, resolved, hands, seed, layout, seats, finals=True, progress=progress)
    names = [player_name(player) for player in resolved]
    about = description or (f"{hands:,} hands of {names[0]} (seat 0) vs {names[1]} (seat 1), seed {seed}, "
                            f"seats {', '.join(map(str, seats))} recorded, {layout} observations "
                            f"(ginsim.gin.game.policy.observations), rules {rules.to_dict()}")
    low, high = observation_bounds(layout)
    import gymnasium

    scratch = Path(tempfile.mkdtemp(prefix=".ginsim-dataset-", dir=folder))
    try:
        # Minari warns of the metadata a generated dataset has no use for (an environment to evaluate
        # on, an e-mail address): not the user's concern
        with _datasets_root(scratch), warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module="minari")
            minari.create_dataset_from_buffers(
                dataset_id, list(_episodes(rows)), observation_space=observation_space(low, high),
                action_space=gymnasium.spaces.Discrete(NUM_ACTIONS), algorithm_name=",".join(names),
                author="ginsim", description=about,
                data_format="hdf5")
        namespace, _, _ = dataset_id.rpartition("/")
        if namespace and not (folder / namespace).exists():
            shutil.copytree(scratch / namespace, folder / namespace, ignore=lambda _, names: [
                name for name in names if (scratch / namespace / name).is_dir()])
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(scratch / dataset_id, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target
