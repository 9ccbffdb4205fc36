"""Defence planes for the neural agent: Defensive's estimate of the chance that each discard deals in,
computed from a ``planes_v0`` observation.

A network cloned from Greedy, which never folds, has no reason to have learned where danger lies, and
PPO's few million decisions rarely teach it from the raw discard planes: a deal-in is one event in five
hands. These planes hand it the estimate the Defensive agent acts on (agents/greedy.py documents it:
how ready each opponent looks by its melds and the wall, and how many ways a hidden hand could wait on
each kind given what that opponent discarded and let pass); the network decides how to weigh it, as it
does the efficiency planes (agents/efficiency.py).

    channel  meaning (columns = tile kinds; constant planes repeat one value)
    0  D_DEAL        the chance a discard of the kind deals in, 1 - prod_o (1 - P(o ready) P(o wins on it
                     | ready)), / DANGER_CAP
    1  D_NEXT        P(ready) P(wins on it | ready) of the next seat, / DANGER_CAP
    2  D_OPPOSITE    the same of the opposite seat
    3  D_PREVIOUS    the same of the previous seat
    4  D_THREAT      1 - prod_o (1 - P(o ready)): how likely someone is ready, constant plane

Only the observation is read (``agents.features.decode``). The per-kind danger is the native kernel's
(``envs._core.tile_danger``, which Defensive's decisions use): tests/test_defence_planes.py checks this
vectorised copy against it. Version ``defence_v0``: a checkpoint records it and loading checks it.
"""

from __future__ import annotations

import numpy as np

from agents.features import decode
from agents.greedy import DEFENCE_DEFAULTS, READY_P

DEFENCE_VERSION = "defence_v0"
D_DEAL, D_NEXT, D_OPPOSITE, D_PREVIOUS, D_THREAT = range(5)
N_DEFENCE = 5
DANGER_SLOPE = DEFENCE_DEFAULTS["danger_slope"]
DANGER_CAP = DEFENCE_DEFAULTS["danger_cap"]
SAFE_WAYS = 4  # at or below this many ways a hidden hand could wait on a kind, it counts as safe (the kernel's)


def _shifted(unseen: np.ndarray, off: int) -> np.ndarray:
    """unseen[..., d + off] where d + off is in d's suit (numbers only), else 0."""
    out = np.zeros_like(unseen)
    for s in range(3):
        lo, hi = 9 * s, 9 * s + 9
        src = unseen[..., lo:hi]
        if off > 0:
            out[..., lo : hi - off] = src[..., off:]
        else:
            out[..., lo - off : hi] = src[..., : 9 + off]
    return out


def hidden_wait_ways(unseen: np.ndarray, passed: np.ndarray, disc: np.ndarray) -> np.ndarray:
    """(B, 3, 34) int64: how many ways a hidden hand of each opponent could wait on each kind (the native
    ``tile_danger`` of every kind): pairs and singles, two-sided, edge and closed waits from the unseen
    copies; halved for a kind the opponent discarded itself, 0 for one it let pass since its hand last
    changed (it always wins when it can)."""
    u = unseen.astype(np.int64)[:, None, :]  # (B, 1, 34)
    m2, m1, p1, p2 = (_shifted(u, k) for k in (-2, -1, 1, 2))
    v = u * (u - 1) + u + 1 + 4 * (m2 * m1 + p1 * p2) + 2 * m1 * p1
    v = np.where(disc > 0, v // 2, v)
    return np.where(passed > 0, 0, v)


def defence_planes(obs: np.ndarray) -> np.ndarray:
    """(B, N_DEFENCE, 34) float32 defence planes of planes_v0 observations (B, C, 34)."""
    f = decode(np.asarray(obs))
    ready = READY_P[np.minimum(f.opp_melds, 4), np.minimum(f.tiles_left // 16, 3)[:, None]]  # (B, 3)
    ways = hidden_wait_ways(f.unseen, f.opp_passed, f.opp_disc)
    hit = np.where(ways <= SAFE_WAYS, 0.0, np.minimum(ways * DANGER_SLOPE, DANGER_CAP))  # P(wins on d | ready)
    per = ready[:, :, None] * hit  # (B, 3, 34)
    out = np.empty((len(ready), N_DEFENCE, 34), np.float32)
    out[:, D_DEAL] = (1.0 - np.prod(1.0 - per, axis=1)) / DANGER_CAP
    out[:, D_NEXT : D_PREVIOUS + 1] = per / DANGER_CAP
    out[:, D_THREAT] = (1.0 - np.prod(1.0 - ready, axis=1))[:, None]
    return out
