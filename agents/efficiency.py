"""Tile-efficiency planes for the neural agent, computed from a ``planes_v0`` observation.

The raw planes say which tiles are held; turning that into "which discard keeps the most tiles that
improve the hand" takes a search the small network cannot learn from a few million decisions. These
planes hand it the numbers the rule-based agents compute (Mortal and Suphx feed shanten and wait
features the same way); the network still decides how to weigh them against everything else.

    channel  meaning (columns = tile kinds; constant planes repeat one value)
    0  E_UKEIRE       own turn, per held kind: unseen tiles that lower the shanten after discarding
                      it, / 64
    1  E_UKEIRE_REL   the same divided by the best of the discards that keep the lowest shanten
                      (1 = an efficiency-best discard; 0 for a discard that raises the shanten)
    2  E_PON          answering a discard: (shanten now - best shanten after pon and a discard) / 2,
                      clipped to [-1, 1], constant plane; 0 when pon is impossible
    3  E_KONG         the same for an exposed kong (no discard follows)
    4  E_CHI          3 planes, chi with the claimed tile low / middle / high
    7  E_SELF_KONG    own turn, per kind: 1 if a concealed or added kong there keeps the shanten
    8  E_UKEIRE_NOW   unseen tiles that lower the shanten of a 3n+1 hand (answering a claim), / 64,
                      constant plane

Only the observation is read (``agents.features.decode``), so the planes are the same behind every
front end. Version ``efficiency_v0``: a checkpoint records it and loading checks it.
"""

from __future__ import annotations

import numpy as np

from agents.features import decode

# the plane layout is the kernel's (native/include/tw16/agents.hpp), read from the core
from envs._core import (
    E_CHI,
    E_KONG,
    E_PON,
    E_SELF_KONG,
    E_UKEIRE,
    E_UKEIRE_NOW,
    E_UKEIRE_REL,
    N_EFFICIENCY,
    efficiency_kernel,
)

EFFICIENCY_VERSION = "efficiency_v0"
__all__ = [
    "E_CHI",
    "E_KONG",
    "E_PON",
    "E_SELF_KONG",
    "E_UKEIRE",
    "E_UKEIRE_NOW",
    "E_UKEIRE_REL",
    "EFFICIENCY_VERSION",
    "N_EFFICIENCY",
    "efficiency_planes",
]


def efficiency_planes(obs: np.ndarray) -> np.ndarray:
    """(B, N_EFFICIENCY, 34) float32 for a batch of planes_v0 observations (B, C, 34)."""
    f = decode(obs)
    out = np.zeros((obs.shape[0], N_EFFICIENCY, 34), np.float32)
    if obs.shape[0]:
        efficiency_kernel(f.hand, f.n_melds.astype(np.int64), f.unseen, f.claim_tile, out)
    return out
