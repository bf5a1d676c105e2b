"""The spaces and small checks the environments share.

>>> observation_space(np.zeros(3, np.int8), np.ones(3, np.int8))["action_mask"].shape
(107,)
>>> integer_action(np.int32(104))
104
"""
from __future__ import annotations

import secrets
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.gin.game.actions import NUM_ACTIONS

__all__ = ["fresh_seed", "integer_action", "mask_space", "observation_space"]


def mask_space() -> gymnasium.spaces.Box:
    """1 for each legal action number."""
    return gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)


def observation_space(low: npt.NDArray[np.int8], high: npt.NDArray[np.int8]) -> gymnasium.spaces.Dict:
    """An observation with its mask: ``{"observation": Box(low, high), "action_mask": ...}``."""
    return gymnasium.spaces.Dict({"observation": gymnasium.spaces.Box(low, high, low.shape, np.int8),
                                  "action_mask": mask_space()})


def integer_action(action: Any) -> int:
    """``action`` as an ``int`` if it is an integer (Python or numpy, not a bool); else ``InputError``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            return int(action)
        raise InputError(f"an action is an integer from 0 to {NUM_ACTIONS - 1}, got {action!r}")
    return int(action)


def fresh_seed() -> int:
    """A seed for an environment reset without one before it was ever seeded."""
    return secrets.randbits(63)
