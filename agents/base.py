"""One small protocol for every agent: act on a batch of (observation, mask) pairs, seeded.

    agent = GreedyAgent(seed=0)
    actions = agent.act(obs, mask)      # obs (B, C, 34) float32 planes_v0, mask (B, 76) bool/int8

An agent never sees the engine: only what the acting seat observes. ``act`` returns int64 (B,).
``reset(seed)`` restarts its random stream, so evaluations are reproducible.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from envs.policies import RandomLegal


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray: ...

    def reset(self, seed: int | None = None) -> None: ...


def check_batch(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate once at the boundary, so a wrong call names the problem (and compiled kernels only
    see what they index safely): obs (B, C, 34) finite numbers, mask (B, 76) of 0/1 with a legal
    action in every row; one unbatched observation and mask are taken as B = 1."""
    from envs.engine.actions import N_ACTIONS

    try:
        obs = np.asarray(obs)
        mask = np.asarray(mask)
    except (ValueError, TypeError) as e:
        raise ValueError(f"obs and mask must be arrays: {e}") from None
    if obs.dtype.kind not in "biuf" or mask.dtype.kind not in "biuf":
        raise TypeError(f"obs and mask must be numeric arrays, got dtypes {obs.dtype} and {mask.dtype}")
    if mask.ndim == 1:
        obs, mask = obs[None], mask[None]
    if (
        mask.ndim != 2
        or mask.shape[1] != N_ACTIONS
        or obs.ndim != 3
        or obs.shape[2] != 34
        or obs.shape[0] != mask.shape[0]
    ):
        raise ValueError(f"expected obs (B, C, 34) and mask (B, {N_ACTIONS}); got {obs.shape} and {mask.shape}")
    if obs.dtype.kind == "f" and not np.isfinite(obs).all():
        raise ValueError("obs holds NaN or infinite values")
    if obs.dtype.kind != "f":
        obs = obs.astype(np.float32)
    if mask.dtype.kind != "b":
        if ((mask != 0) & (mask != 1)).any():
            raise ValueError("mask must hold 0 or 1 (or booleans)")
        mask = mask.astype(bool)
    if not mask.any(axis=1).all():
        raise ValueError("a mask row has no legal action")
    return obs, mask


class RandomAgent(RandomLegal):
    """Uniform over the legal actions: ``envs.policies.RandomLegal`` (the one random policy) behind the
    agents' input checks."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        return super().act(obs, mask)
