"""The ``reward`` option of the environments (``envs.tw16_v0``, ``envs.gym_env``): how the engine's
tai deltas are scaled into rewards."""

from __future__ import annotations

import numpy as np

from envs.rules import Rules

REWARDS = ("tai", "chips", "win_loss", "normalized")
NORMALIZED_TAI = 32.0


class _Scale:
    """The scaling as an object, not a closure, so an env holding one can be pickled and deep-copied."""

    def __init__(self, reward: str, per_tai: int):
        self.reward, self.per_tai = reward, per_tai

    def __call__(self, r):
        if self.reward == "tai":
            return r
        if self.reward == "chips":
            return r * self.per_tai
        if self.reward == "win_loss":
            return np.sign(r)
        return r / NORMALIZED_TAI


def reward_scale(rules: Rules, reward: str):
    """A function (tai deltas (..., 4)) -> rewards for the chosen ``reward`` option."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    return _Scale(reward, rules.stakes.per_tai)
