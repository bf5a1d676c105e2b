"""Reinforcement learning on the native engine: PettingZoo and Gymnasium environments, a vector
environment stepped natively, observations from one player's view, and policies as strategies.

Needs the ``rl`` extra (``pip install 'gin-rummy-sim[rl]'``, in a clone ``pip install '.[rl]'``: gymnasium and
pettingzoo) for the environments; observations and :class:`PolicyStrategy` need nothing more than ginsim.
Importing this package registers ``ginsim/GinRummy-v0`` with Gymnasium.

=============================  ==================================================================================
:func:`aec_env`                two agents, PettingZoo's AEC API (:mod:`ginsim.env.aec`)
:class:`GinRummyEnv`           one agent against a strategy, Gymnasium (``ginsim/GinRummy-v0``,
                               :mod:`ginsim.env.single`)
:class:`VectorGinRummyEnv`     many tables stepped natively in one call, Gymnasium's ``VectorEnv``
                               (:mod:`ginsim.env.vector`)
:func:`observation`            what a player sees of a ``GameState`` (:mod:`ginsim.gin.game.policy.observations`)
:class:`PolicyStrategy`        a trained policy as a strategy (:mod:`ginsim.gin.game.policy.strategy`)
=============================  ==================================================================================

The action numbers are :mod:`ginsim.gin.game.actions`'; rewards and episodes are :mod:`ginsim.env.rewards`'.

>>> import gymnasium
>>> import ginsim.env
>>> env = gymnasium.make(ginsim.env.ENV_ID, opponent="greedy")
>>> seen, info = env.reset(seed=7)
>>> sorted(seen), seen["observation"].shape
(['action_mask', 'observation'], (480,))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginsim._version import install_command
from ginsim.env.rewards import EPISODES, REWARDS
from ginsim.gin.game.policy.observations import (
    LAYOUTS,
    action_mask,
    field_slots,
    layout_fields,
    observation,
    observation_size,
    observe,
    observe_view_of,
)
from ginsim.gin.game.policy.strategy import PolicyStrategy

if TYPE_CHECKING:
    from ginsim.env.aec import GinRummyAEC, aec_env
    from ginsim.env.single import GinRummyEnv
    from ginsim.env.vector import VectorGinRummyEnv

__all__ = ["ENV_ID", "EPISODES", "LAYOUTS", "REWARDS", "GinRummyAEC", "GinRummyEnv", "PolicyStrategy",
           "VectorGinRummyEnv", "action_mask", "aec_env", "field_slots", "layout_fields", "observation",
           "observation_size", "observe", "observe_view_of"]

ENV_ID = "ginsim/GinRummy-v0"
"""The Gymnasium id of :class:`GinRummyEnv`: ``gymnasium.make(ENV_ID, opponent="marjj")``."""

_LAZY = {"GinRummyAEC": "ginsim.env.aec", "aec_env": "ginsim.env.aec", "GinRummyEnv": "ginsim.env.single",
         "VectorGinRummyEnv": "ginsim.env.vector"}


def __getattr__(name: str) -> Any:
    """The environments, imported when first asked for (they need gymnasium and pettingzoo)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ginsim.env' has no attribute {name!r}")
    import importlib
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise ImportError(f"ginsim.env.{name} needs the rl extra ({install_command('rl')}): {error}") from error


def _register() -> None:
    try:
        import gymnasium
    except ImportError:
        return
    if ENV_ID not in gymnasium.registry:
        # nondeterministic: an opponent written in Python may draw from its own generator (see the docs
        # page: gymnasium's checker also steps an action drawn in one position after resetting to another)
        gymnasium.register(ENV_ID, entry_point="ginsim.env.single:GinRummyEnv", nondeterministic=True)


_register()
