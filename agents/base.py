"""One small protocol for every agent: act on a batch of (observation, mask) pairs, seeded.

    agent = GreedyAgent(seed=0)
    actions = agent.act(obs, mask)      # obs (B, C, 34) float32 planes_v0, mask (B, 76) bool/int8

An agent never sees the engine: only what the acting seat observes. ``act`` returns int64 (B,).
``reset(seed)`` restarts its random stream, so evaluations are reproducible.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray: ...

    def reset(self, seed: int | None = None) -> None: ...


def check_batch(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate shapes once at the boundary, so a wrong call names the problem."""
    obs = np.asarray(obs)
    mask = np.asarray(mask)
    if mask.ndim == 1:
        obs, mask = obs[None], mask[None]
    if mask.ndim != 2 or obs.shape[0] != mask.shape[0]:
        raise ValueError(f"expected obs (B, C, 34) and mask (B, A); got {obs.shape} and {mask.shape}")
    if not mask.any(axis=1).all():
        raise ValueError("a mask row has no legal action")
    return obs, mask.astype(bool, copy=False)


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = 0):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        scores = self.rng.random(mask.shape) + mask  # legal actions score in [1, 2), illegal in [0, 1)
        return scores.argmax(axis=1).astype(np.int64)
