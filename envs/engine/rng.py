"""splitmix64: a small per-game random stream (state in the batch array ``rng``), so that results do
not depend on the batch size or the thread count. Never np.random inside prange."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1


@njit(cache=True)
def next_u64(rng, b):
    z = rng[b] + np.uint64(_GOLDEN)
    rng[b] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def randint(rng, b, n):
    """Uniform in 0..n-1 (bias below 2**-31 for the small n used here)."""
    return np.int64(next_u64(rng, b) >> np.uint64(33)) % n


def mix64(x: int) -> int:
    """Python splitmix64 finaliser, for deriving per-game seeds from one integer."""
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def game_seeds(seed: int, batch_size: int) -> np.ndarray:
    """Per-game seeds derived from one integer: game i gets the same seed whatever the batch size."""
    return np.array([mix64((int(seed) * 0x100000001B3 + i) & _MASK) for i in range(batch_size)], dtype=np.uint64)
