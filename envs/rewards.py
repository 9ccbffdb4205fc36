"""The ``reward`` option of the environments (``envs.tw16_v0``, ``envs.gym_env``): how the engine's
tai deltas are scaled into rewards."""

from __future__ import annotations

import numpy as np

from envs.rules import Rules

REWARDS = ("tai", "chips", "win_loss", "normalized")
NORMALIZED_TAI = 32.0


def reward_scale(rules: Rules, reward: str):
    """A function (tai deltas (..., 4)) -> rewards for the chosen ``reward`` option."""
    if reward == "tai":
        return lambda r: r
    if reward == "chips":
        return lambda r: r * rules.stakes.per_tai
    if reward == "win_loss":
        return np.sign
    if reward == "normalized":
        return lambda r: r / NORMALIZED_TAI
    raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
