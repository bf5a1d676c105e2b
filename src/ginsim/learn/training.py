"""A training run in an output directory: imitation, then PPO, with checkpoints, a curve and the policy file.

The directory holds:

====================  ==================================================================================
``training.json``     the run's settings (:class:`~ginsim.learn.config.TrainConfig`); another run's
                      directory, or a directory that is not a training run's, is refused
``checkpoint.pt``     the last checkpoint: network, optimiser, random generator, the curve so far
``policy.npz``        the policy at the last checkpoint, as a policy file the ``learned`` strategy plays
``curve.csv``         the learning curve: one row per imitation epoch and per PPO update
``curve.json``        the same rows, with the settings
``curve.png``         the curve drawn: points per hand and hands won against each opponent
``snapshots/``        the league's earlier policies (when ``league`` is an opponent)
====================  ==================================================================================

Every file is written whole and renamed into place, so a run killed at any moment (Ctrl-C, ``kill
-9``) leaves the last checkpoint and the files that go with it. The same call again resumes from the
checkpoint, and the resumed run is the one that was not interrupted, bit for bit (on the same machine
and PyTorch build): the tables are dealt again from seeds of the run at each checkpoint, every random
draw comes from a generator saved with it, and PyTorch runs on one thread. The work since the last
checkpoint is done again.

>>> import tempfile
>>> config = TrainConfig(opponents=(("random", 1.0),), total_timesteps=256, n_envs=16, n_steps=16,
...                      hidden=(16,))
>>> result = train(config, tempfile.mkdtemp() + "/run", progress=False, command="an example")
>>> result.steps, sorted(path.name for path in result.out.iterdir() if not path.name.startswith("."))
(256, ['checkpoint.pt', 'curve.csv', 'curve.json', 'curve.png', 'policy.npz', 'training.json'])
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import torch
from tqdm import tqdm

from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.core.execution import interruptible
from ginsim.core.store import ClaimedDirectory, atomic_write
from ginsim.core.streams import derive
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.policy.file import load_policy
from ginsim.gin.game.policy.learned import network_of
from ginsim.gin.game.policy.network import PolicyNetwork, save_network
from ginsim.gin.game.policy.strategy import PolicyStrategy
from ginsim.learn.config import LEAGUE, TrainConfig
from ginsim.learn.curves import CURVE_CSV, CURVE_JSON, CURVE_PLOT, write_curve
from ginsim.learn.ppo import LossNotFinite, Tables, ppo_update

__all__ = ["CHECKPOINT", "CURVE_CSV", "CURVE_JSON", "CURVE_PLOT", "MANIFEST", "POLICY", "TrainingResult", "train"]

MANIFEST: Final = "training.json"
CHECKPOINT: Final = "checkpoint.pt"
POLICY: Final = "policy.npz"
SNAPSHOTS: Final = "snapshots"
LEAGUE_SIZE: Final = 5
"""How many of the latest snapshots the league's tables play (one drawn for each stretch between checkpoints)."""
PLOT_EVERY: Final = 60.0
"""The fewest seconds between two drawings of the curve during a run."""
_KIND: Final = "ginsim-training"


@dataclass(frozen=True)
class TrainingResult:
    """What a finished run left: the policy file, the curve's rows, its steps and seconds of training."""

    out: Path
    policy: Path
    curve: list[dict[str, Any]]
    steps: int
    seconds: float
    resumed: bool


@dataclass
class _State:
    """Everything a checkpoint holds besides the settings."""

    phase: str
    epoch: int
    update: int
    network: PolicyNetwork
    optimizer: torch.optim.Optimizer
    generator: torch.Generator
    curve: list[dict[str, Any]]
    seconds: float


def train(config: TrainConfig, out: str | os.PathLike[str], *, progress: bool | None = None,
          command: str | None = None) -> TrainingResult:
    """Train ``config``'s policy in the directory ``out`` (created, or resumed from its checkpoint).

    ``progress``: a progress bar on stderr (default: when stderr is a terminal). ``command``: how the
    run was started, kept in the policy file's ``meta`` (default: this process's command line).
    Ctrl-C or SIGTERM raise :class:`~ginsim.core.execution.RunInterrupted` saying what is kept; a NaN loss raises
    :class:`~ginsim.learn.ppo.LossNotFinite` keeping the last good checkpoint.
    """
    folder = Path(out)
    torch.set_num_threads(1)
    with TrainingDirectory.claimed(folder, {"config": config.to_dict()}):
        state, resumed = _load(folder, config)
        if resumed:
            done = "imitation" if state.phase == "imitate" else f"{state.update:,} of {config.updates():,} updates"
            print(f"resuming {folder} from its checkpoint ({done}); the work since is done again", file=sys.stderr)
        shown = sys.stderr.isatty() if progress is None else progress
        meta = {"command": command if command is not None else shlex.join(["ginsim", *sys.argv[1:]]),
                "seed": config.seed, "config": config.to_dict(), "ginsim": __version__, "torch": torch.__version__}
        if config.episode == "match":
            meta["sees_scores"] = True
        try:
            with interruptible(lambda: f"training stopped; {_kept(folder)}; the same command again resumes from it"):
                if state.phase == "imitate":
                    _imitate(folder, config, state, shown, meta)
                _reinforce(folder, config, state, shown, meta)
        except LossNotFinite as error:
            raise LossNotFinite(f"{error} at PPO update {state.update + 1}: training stopped; {_kept(folder)}; try "
                                "a smaller --lr or a larger --reward-scale") from None
    steps = state.update * config.n_envs * config.n_steps
    return TrainingResult(folder, folder / POLICY, state.curve, steps, state.seconds, resumed)


class TrainingDirectory(ClaimedDirectory):
    """A training directory: ``training.json`` holds the run's settings; another run's settings are refused,
    naming the differences (settings added since a directory was written take their defaults)."""

    MANIFEST = MANIFEST
    FORMAT = _KIND
    NOUN = "training run"
    DIRECTORY = "training"

    @classmethod
    def read_manifest(cls, folder: Path) -> dict[str, Any]:
        record = super().read_manifest(folder)
        with contextlib.suppress(InputError, KeyError, TypeError, ValueError):  # settings added since: defaults
            record = {**record, "config": TrainConfig.from_dict(record["config"]).to_dict()}
        return record


def _fresh(config: TrainConfig) -> _State:
    with torch.random.fork_rng():
        torch.manual_seed(config.seed)
        network = PolicyNetwork(config.layout, config.hidden)
    if config.start_from is not None:
        weights = load_policy(config.start_from)
        network = PolicyNetwork.from_weights(weights)
        if config.episode == "match" and not weights.sees_scores:
            network.blind_to_scores()
    generator = torch.Generator().manual_seed(config.seed)
    phase = "imitate" if config.imitate is not None else "ppo"
    learning_rate = config.imitate_lr if phase == "imitate" else config.learning_rate
    optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
    return _State(phase, 0, 0, network, optimizer, generator, [], 0.0)


def _load(folder: Path, config: TrainConfig) -> tuple[_State, bool]:
    """The state of the checkpoint in ``folder``, or a fresh one; ``InputError`` for a damaged checkpoint."""
    state = _fresh(config)
    path = folder / CHECKPOINT
    if not path.exists():
        return state, False
    try:
        stored = torch.load(path, weights_only=True)
        if not isinstance(stored, dict) or stored.get("format") != f"{_KIND}-checkpoint":
            raise ValueError("not a ginsim training checkpoint")
        state.phase, state.epoch, state.update = str(stored["phase"]), int(stored["epoch"]), int(stored["update"])
        if state.phase == "ppo":
            state.optimizer = torch.optim.Adam(state.network.parameters(), lr=config.learning_rate)
        state.network.load_state_dict(stored["network"])
        state.optimizer.load_state_dict(stored["optimizer"])
        state.generator.set_state(stored["generator"])
        state.curve = json.loads(stored["curve"])
        state.seconds = float(stored["seconds"])
    except Exception as error:  # any damage: a truncated zip, a missing key, a tensor of the wrong shape
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InputError(f"{path} is damaged ({reason[:160]}); delete it to train from the start") from None
    return state, True


def _save(folder: Path, config: TrainConfig, state: _State, meta: dict[str, Any], plot: bool = True) -> None:
    """Write the checkpoint, the policy file, the curve and (with ``plot``) its plot, each whole, then renamed."""
    buffer = io.BytesIO()
    torch.save({"format": f"{_KIND}-checkpoint", "phase": state.phase, "epoch": state.epoch, "update": state.update,
                "network": state.network.state_dict(), "optimizer": state.optimizer.state_dict(),
                "generator": state.generator.get_state(), "curve": json.dumps(state.curve),
                "seconds": state.seconds}, buffer)
    atomic_write(folder / CHECKPOINT, lambda handle: handle.write(buffer.getvalue()))
    steps = state.update * config.n_envs * config.n_steps
    save_network(state.network, folder / POLICY, config.rules,
                 {**meta, "steps": steps, "seconds": round(state.seconds, 1), "phase": state.phase,
                  "update": state.update, "epoch": state.epoch})
    write_curve(folder, config, state.curve, plot)


def _kept(folder: Path) -> str:
    path = folder / CHECKPOINT
    if not path.exists():
        return f"no checkpoint was written yet in {folder}"
    stored = torch.load(path, weights_only=True)
    where = "imitation" if stored["phase"] == "imitate" else f"PPO update {stored['update']:,}"
    return f"the checkpoint of {where} and its policy are kept in {folder}"


# --- phase 1: imitation ---------------------------------------------------------------------------------

def _imitate(folder: Path, config: TrainConfig, state: _State, shown: bool, meta: dict[str, Any]) -> None:
    from ginsim.learn.imitation import clone_epoch, record_expert

    assert config.imitate is not None
    decisions, recorded = record_expert(config, shown, state.epoch), state.epoch
    count = len(decisions["action"])  # each epoch's size, for the bar (fresh hands' counts differ a little)
    bar = tqdm(total=config.imitate_epochs * count, initial=state.epoch * count,
               unit="decision", unit_scale=True, disable=not shown, desc=f"imitating {config.imitate}",
               dynamic_ncols=True)
    with bar:
        while state.epoch < config.imitate_epochs:
            if config.imitate_fresh and recorded != state.epoch:
                decisions, recorded = record_expert(config, shown, state.epoch), state.epoch
            started = time.monotonic()
            row = clone_epoch(state.network, state.optimizer, decisions, config, state.generator, bar,
                              state.epoch)
            state.seconds += time.monotonic() - started
            state.epoch += 1
            state.curve.append({"phase": "imitate", "epoch": state.epoch, "update": 0, "steps": 0,
                                "seconds": round(state.seconds, 1), **row})
            bar.set_postfix_str(f"agrees {row['accuracy']:.1%}")
            _save(folder, config, state, meta, plot=False)
    state.phase = "ppo"
    state.optimizer = torch.optim.Adam(state.network.parameters(), lr=config.learning_rate)
    _save(folder, config, state, meta)


# --- phase 2: PPO --------------------------------------------------------------------------------------

def _segment_seeds(config: TrainConfig, segment: int, count: int) -> list[int]:
    """The seeds the opponents' tables are dealt from for one stretch between checkpoints."""
    sequence = derive(config.seed, "training_segments", segment)
    return [int(value) for value in sequence.generate_state(count, np.uint64) >> np.uint64(1)]


def _league_player(folder: Path, state: _State, config: TrainConfig, meta: dict[str, Any]) -> PlayerSpec:
    """One of the latest snapshots as a strategy (drawn with the run's generator); the first snapshot is
    the network as it starts."""
    snapshots = folder / SNAPSHOTS
    snapshots.mkdir(exist_ok=True)
    current = snapshots / f"update-{state.update:07d}.npz"
    if not current.exists():
        save_network(state.network, current, config.rules, {**meta, "update": state.update})
    kept = sorted(snapshots.glob("update-*.npz"))[-LEAGUE_SIZE:]
    drawn = int(torch.randint(len(kept), (1,), generator=state.generator))
    network = network_of(kept[drawn])  # played by the native forward pass, called once per decision
    return PolicyStrategy(lambda observation, mask: int(network.forward(observation, mask)[1][0]),
                          name=f"league-{kept[drawn].stem}", observation=config.layout,
                          scores=network.weights.sees_scores)


def _reinforce(folder: Path, config: TrainConfig, state: _State, shown: bool, meta: dict[str, Any]) -> None:
    per_update = config.n_envs * config.n_steps
    total = config.updates()
    tables = config.tables()
    bar = tqdm(total=total * per_update, initial=state.update * per_update, unit="step", unit_scale=True,
               disable=not shown, desc="PPO", dynamic_ncols=True)
    envs: Tables | None = None
    plotted = time.monotonic()
    with bar:
        while state.update < total:
            if envs is None or state.update % config.checkpoint_every == 0:
                players = [(name, _league_player(folder, state, config, meta) if name == LEAGUE else name, count)
                           for name, count in tables]
                if envs is None or any(name == LEAGUE for name, _ in tables):
                    envs = Tables(config.rules, players, config.layout, config.reward, config.episode)
                envs.deal(_segment_seeds(config, state.update // config.checkpoint_every, len(tables)))
            started = time.monotonic()
            rollout = envs.collect(state.network, config, state.generator)
            losses = ppo_update(state.network, state.optimizer, rollout, config, state.generator)
            state.seconds += time.monotonic() - started
            state.update += 1
            row = _ppo_row(state, per_update, rollout.stats, losses)
            state.curve.append(row)
            bar.update(per_update)
            bar.set_postfix_str(_postfix(row, [name for name, _ in tables]))
            if state.update % config.checkpoint_every == 0 or state.update == total:
                # the plot takes a second: drawn at the end, and at most once a minute on the way
                plot = state.update == total or time.monotonic() - plotted > PLOT_EVERY
                _save(folder, config, state, meta, plot)
                plotted = time.monotonic() if plot else plotted
    if envs is None:  # resumed after the last checkpoint: write its policy and curve again, in case a kill cut them
        _save(folder, config, state, meta)


def _ppo_row(state: _State, per_update: int, stats: dict[str, Any], losses: dict[str, float]) -> dict[str, Any]:
    hands = sum(item.hands for item in stats.values())
    row: dict[str, Any] = {"phase": "ppo", "epoch": state.epoch, "update": state.update,
                           "steps": state.update * per_update, "seconds": round(state.seconds, 1), "hands": hands,
                           "points_per_hand": sum(item.points for item in stats.values()) / max(hands, 1),
                           "win_rate": sum(item.wins for item in stats.values()) / max(hands, 1)}
    for name, item in stats.items():
        row[f"points[{name}]"] = item.points / max(item.hands, 1)
        row[f"win_rate[{name}]"] = item.wins / max(item.hands, 1)
    return {**row, **losses}


def _postfix(row: dict[str, Any], names: list[str]) -> str:
    rates = " ".join(f"{name} {row[f'win_rate[{name}]']:.0%}" for name in names)
    return f"{row['points_per_hand']:+.1f} pts/hand, hands won: {rates}"
