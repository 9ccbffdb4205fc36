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
from numba import prange

from envs.jit import njit

from agents.features import decode
from envs.hand.analysis import shanten

EFFICIENCY_VERSION = "efficiency_v0"
N_EFFICIENCY = 9
E_UKEIRE, E_UKEIRE_REL, E_PON, E_KONG, E_CHI, E_SELF_KONG, E_UKEIRE_NOW = 0, 1, 2, 3, 4, 7, 8
_FAR = 99  # shanten of an impossible claim


@njit(cache=True)
def ukeire(hand, n_sets, s, unseen):
    """Unseen tiles that would lower the shanten of ``hand`` (3n+1 tiles) below ``s``."""
    total = 0
    for t in range(34):
        if unseen[t] > 0 and hand[t] < 4:
            hand[t] += 1
            if shanten(hand, n_sets) < s:
                total += unseen[t]
            hand[t] -= 1
    return total


@njit(cache=True)
def best_after_discard(hand, n_sets):
    """Lowest shanten reachable by one discard from a 3n+2 hand (_FAR for an empty hand)."""
    best = _FAR
    for d in range(34):
        if hand[d] > 0:
            hand[d] -= 1
            s = shanten(hand, n_sets)
            hand[d] += 1
            best = min(best, s)
    return best


@njit(cache=True)
def _own_turn(o, hand, n_sets, unseen):
    s_after = np.full(34, _FAR, np.int64)
    uk = np.zeros(34, np.int64)
    for d in range(34):
        if hand[d] > 0:
            hand[d] -= 1
            s_after[d] = shanten(hand, n_sets)
            uk[d] = ukeire(hand, n_sets, s_after[d], unseen) if s_after[d] >= 0 else 0
            hand[d] += 1
    best_s = s_after.min()
    best_u = 0
    for d in range(34):
        if s_after[d] == best_s:
            best_u = max(best_u, uk[d])
    for d in range(34):
        if hand[d] == 0:
            continue
        o[E_UKEIRE, d] = min(uk[d], 64) / 64.0
        if s_after[d] == best_s:
            o[E_UKEIRE_REL, d] = uk[d] / best_u if best_u > 0 else 1.0
    for k in range(34):
        if hand[k] == 4:
            hand[k] -= 4
            ok = shanten(hand, n_sets - 1) <= best_s
            hand[k] += 4
        elif hand[k] >= 1:  # maybe an added kong onto a pon meld: the concealed part loses one tile
            hand[k] -= 1
            ok = shanten(hand, n_sets) <= best_s
            hand[k] += 1
        else:
            ok = False
        o[E_SELF_KONG, k] = 1.0 if ok else 0.0


@njit(cache=True)
def _gain(now, after):
    return max(-1.0, min(1.0, (now - after) / 2.0)) if after < _FAR else 0.0


@njit(cache=True)
def _claims(o, hand, n_sets, t, unseen):
    now = shanten(hand, n_sets)
    o[E_UKEIRE_NOW, :] = min(ukeire(hand, n_sets, now, unseen), 64) / 64.0 if now >= 0 else 0.0
    if n_sets == 0:
        return
    if hand[t] >= 2:
        hand[t] -= 2
        o[E_PON, :] = _gain(now, best_after_discard(hand, n_sets - 1))
        hand[t] += 2
    if hand[t] >= 3:
        hand[t] -= 3
        o[E_KONG, :] = _gain(now, shanten(hand, n_sets - 1))
        hand[t] += 3
    if t >= 27:
        return
    r = t % 9
    for pos in range(3):
        lo = r - pos  # rank of the chow's lowest tile
        if lo < 0 or lo > 6:
            continue
        a, b = (t + 1, t + 2) if pos == 0 else ((t - 1, t + 1) if pos == 1 else (t - 2, t - 1))
        if hand[a] == 0 or hand[b] == 0:
            continue
        hand[a] -= 1
        hand[b] -= 1
        o[E_CHI + pos, :] = _gain(now, best_after_discard(hand, n_sets - 1))
        hand[a] += 1
        hand[b] += 1


@njit(cache=True, parallel=True)
def _kernel(hand, n_melds, unseen, claim_tile, out):
    for b in prange(hand.shape[0]):
        h = hand[b].copy()
        n_sets = 5 - n_melds[b]
        if claim_tile[b] >= 0:
            _claims(out[b], h, n_sets, claim_tile[b], unseen[b])
        elif h.sum() % 3 == 2:
            _own_turn(out[b], h, n_sets, unseen[b])


def efficiency_planes(obs: np.ndarray) -> np.ndarray:
    """(B, N_EFFICIENCY, 34) float32 for a batch of planes_v0 observations (B, C, 34)."""
    f = decode(obs)
    out = np.zeros((obs.shape[0], N_EFFICIENCY, 34), np.float32)
    if obs.shape[0]:
        _kernel(f.hand, f.n_melds.astype(np.int64), f.unseen, f.claim_tile, out)
    return out
