"""The Gymnasium environment as the ecosystem uses it: sb3-contrib's MaskablePPO trains on it unchanged."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
sb3_contrib = pytest.importorskip("sb3_contrib")

import gymnasium  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402

import ginsim.env  # noqa: E402

pytestmark = pytest.mark.slow  # runs whole notebooks, scripts, trainings or clusters


def test_maskable_ppo_trains_on_gin_rummy_env_unchanged() -> None:
    """MaskablePPO reads the legal actions through ``action_masks()`` (its convention) and only ever plays
    them: a few thousand steps of training, then its masked predictions are legal."""
    env = gymnasium.make(ginsim.env.ENV_ID, opponent="random")
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=512, batch_size=128, n_epochs=1, seed=3,
                                    policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    vector = model.get_env()
    seen = vector.reset()
    for _ in range(50):
        masks = get_action_masks(vector)
        action, _ = model.predict(seen, action_masks=masks, deterministic=True)
        assert masks[0, int(action[0])]
        seen, _, _, _ = vector.step(action)
    assert np.array_equal(env.unwrapped.action_masks(), env.unwrapped._mask[0].astype(bool))
