"""The driver of the environments: the batch engine plus stepping, dealing and encoding a subset of
the games (used by ``envs.gym_env`` and ``envs.tw16_v0``); ``ENCODINGS`` maps the envs' ``encoding`` option
to its driver and encoder."""

from __future__ import annotations

import numpy as np

from envs.engine.api import Engine
from envs.engine.rng import redeal_seed
from envs.obs import planes_v0 as pv
from envs.obs.planes_v1 import PlanesV1
from envs.obs.planes_v1 import encode_state_rows as encode_v1_rows
from envs.rules import Rules


class Driver:
    """The engine plus subset stepping, per-game seeds and encoding into given rows, through the
    Engine's fast path (``Engine.reset_some`` / ``step_some``; envs._core runs batches of
    PARALLEL_MIN_BATCH (256) games and more over threads, smaller ones on the calling thread)."""

    def __init__(self, rules: Rules, batch_size: int):
        self.engine = Engine(rules, batch_size=batch_size)
        self.B = batch_size
        self.seeds = np.zeros(batch_size, np.uint64)
        self.rewards = np.zeros((batch_size, 4), np.float32)

    @property
    def s(self):
        """The state arrays (the encoders' input)."""
        return self.engine.s

    @property
    def mask(self) -> np.ndarray:
        return self.engine.legal_action_mask

    @property
    def terminated(self) -> np.ndarray:
        return self.engine.step_terminated

    def deal(self, seeds, which) -> None:
        """Deal new games in rows ``which`` (bool (B,)) from ``seeds`` (uint64 (B,))."""
        self.seeds[which] = seeds[which]
        self.engine.reset_some(self.seeds, which)

    def redeal(self, which) -> None:
        """Deal the games in ``which`` again, each from a seed derived from its previous one."""
        for b in np.flatnonzero(which):
            self.seeds[b] = np.uint64(redeal_seed(self.seeds[b]))
        self.engine.reset_some(self.seeds, which)

    def step(self, actions, active) -> np.ndarray:
        """Step the games in ``active``; returns this step's (B, 4) tai rewards (0 elsewhere)."""
        self.engine.step_some(actions, active)
        np.multiply(self.engine.step_rewards, active[:, None], out=self.rewards)
        return self.rewards

    def encode(self, out, rows, seats, flags) -> None:
        pv.encode_state_rows(out, rows, seats, self.engine.s, self.engine.native, flags)

    @property
    def current(self) -> np.ndarray:
        return self.engine.current_player


class DriverV1(Driver):
    """The Driver that encodes planes_v1 (which also reads the 拉 ledger arrays)."""

    def encode(self, out, rows, seats, flags) -> None:
        encode_v1_rows(out, rows, seats, self.engine.s, self.engine.native, flags)


# encoding option -> (driver, encoder class)
ENCODINGS = {"planes_v0": (Driver, pv.PlanesV0), "planes_v1": (DriverV1, PlanesV1)}


def encoding_of(encoding):
    if not isinstance(encoding, str) or encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {list(ENCODINGS)}, got {encoding!r}")
    return ENCODINGS[encoding]
