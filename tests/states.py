"""States of random play for the tests of the agents' input planes (test_efficiency,
test_defence_planes): claims, own turns, early and late in the wall."""

from __future__ import annotations

import numpy as np

from envs.engine.api import Engine
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules


def random_play(n_games: int = 24, steps: int = 120, seed: int = 3) -> list[tuple[np.ndarray, np.ndarray]]:
    """(planes_v0 observations with the derived planes, legal masks) of the live games, step by step,
    as a uniformly random policy plays ``n_games`` games from ``seed``."""
    eng = Engine(Rules(), n_games)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    enc = PlanesV0(derived=True)
    out = []
    for _ in range(steps):
        live = ~eng.terminated
        if not live.any():
            break
        out.append((enc.encode(eng)[live], eng.legal_action_mask[live].copy()))
        mask = eng.legal_action_mask
        eng.step((rng.random(mask.shape) + mask).argmax(1))
    return out
