"""Learning to play: train a masked policy for any rules against any mix of opponents, on CPU.

:class:`~ginsim.learn.config.TrainConfig` (settings, checked at once; no PyTorch needed) and
:func:`~ginsim.learn.training.train` (the ``train``
extra: PyTorch, imported only when a run starts) make a training run in an output directory: behaviour
cloning of a built-in strategy's decisions as a warm start, then PPO with action masks on the native
vector environments, checkpoints that resume exactly, the learning curve, and the policy as a policy
file (:mod:`ginsim.gin.game.policy.file`) that the native ``learned`` strategy plays.

========================  ===================================================================================
``TrainConfig``           a run's recipe (:mod:`ginsim.learn.config`)
``train``                 run it in a directory, resuming from its checkpoint (:mod:`ginsim.learn.training`)
``PolicyNetwork``         the masked actor-critic MLP (:mod:`ginsim.gin.game.policy.network`)
``evaluate``              the greedy policy's points and hands won against a strategy (:mod:`ginsim.learn.ppo`)
========================  ===================================================================================

>>> from ginsim.learn import TrainConfig, parse_opponents
>>> config = TrainConfig(opponents=parse_opponents("simple=3,marjj"), total_timesteps=2_000_000, seed=7)
>>> config.tables(), config.updates()
((('simple', 48), ('marjj:5', 16)), 489)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginsim._version import install_command
from ginsim.learn.config import LEAGUE, REWARDS, TrainConfig, parse_opponents

if TYPE_CHECKING:
    from ginsim.gin.game.policy.network import PolicyNetwork, save_network
    from ginsim.learn.ppo import LossNotFinite, evaluate
    from ginsim.learn.training import TrainingResult, train

__all__ = ["LEAGUE", "REWARDS", "LossNotFinite", "PolicyNetwork", "TrainConfig", "TrainingResult", "evaluate",
           "parse_opponents", "save_network", "train"]

_LAZY = {"PolicyNetwork": "ginsim.gin.game.policy.network", "save_network": "ginsim.gin.game.policy.network",
         "LossNotFinite": "ginsim.learn.ppo", "evaluate": "ginsim.learn.ppo",
         "TrainingResult": "ginsim.learn.training", "train": "ginsim.learn.training"}


def __getattr__(name: str) -> Any:
    """The parts that need PyTorch, imported when first asked for."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ginsim.learn' has no attribute {name!r}")
    import importlib
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise ImportError(f"ginsim.learn.{name} needs the train extra ({install_command('train')}): "
                          f"{error}") from error
