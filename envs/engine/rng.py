"""splitmix64: a small per-game random stream (state in the batch array ``rng``), so that results do
not depend on the batch size or the thread count. The stream is drawn in the native core
(native/include/tw16/rng.hpp: ``next_u64``, ``randint``); the helpers here derive the per-game seeds."""

from __future__ import annotations

import numpy as np

_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1


def mix64(x: int) -> int:
    """Python splitmix64 finaliser, for deriving per-game seeds from one integer."""
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def redeal_seed(seed: int) -> int:
    """The seed a game is dealt again from after ``seed``'s deal (an auto-reset game, a hand that
    ended in the deal): one rule for the Engine, the envs' driver and duplicate play."""
    return mix64(int(seed) ^ 0x5EED)


def game_seeds(seed: int, batch_size: int) -> np.ndarray:
    """Per-game seeds derived from one integer: game i gets the same seed whatever the batch size."""
    return np.array([mix64((int(seed) * 0x100000001B3 + i) & _MASK) for i in range(batch_size)], dtype=np.uint64)


def derive_seed(*keys: int) -> int:
    """A seed (63 bits, non-negative) for a part of a run keyed by ``keys`` (the run's seed, a batch,
    a worker, a copy of an agent): numpy's SeedSequence over the keys."""
    return int(np.random.SeedSequence([int(k) for k in keys]).generate_state(1, np.uint64)[0] >> 1)
