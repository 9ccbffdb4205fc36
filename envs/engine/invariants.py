"""Invariants of one game, checked after every step of random play (compiled, so it can run inside
the random-play loop). ``check_game`` returns 0 or the first failing ``E_*`` code."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.engine.handend import drawable
from envs.engine.state import (
    G_CUR,
    G_HEAD,
    G_NRIVER,
    G_PHASE,
    G_SCORE_ERR,
    G_TAIL,
    G_TURN,
    G_WALL_N,
    G_DEALER,
    G_LA_ASK,
    G_OFFER,
    G_OFFER_DRAWN,
    P_FLOWERS,
    P_HELD_FLOWERS,
    P_NMELDS,
    PH_CLAIM,
    PH_FLOWER,
    PH_LA_CUT,
    PH_READY0,
    PH_ROB,
    PH_TURN,
)

E_OK = 0
E_TILES = 1  # some kind is not exactly 4 (flowers: exactly 1) over wall + hands + melds + river
E_HAND_SIZE = 2  # a concealed hand has the wrong size for the phase
E_NO_ACTION = 3  # the seat to decide has no legal action
E_DONE_MASK = 4  # a finished game's mask is not all ones
E_ZERO_SUM = 5  # rewards or scores do not sum to zero
E_SCORER = 6  # the engine offered a win the scorer refused
E_WALL = 7  # negative drawable count or a bad wall pointer
E_SEAT = 8  # current player out of range / not the turn seat
E_COUNTS = 9  # a negative or >4 count
ERROR_NAMES = ("ok", "tiles", "hand_size", "no_action", "done_mask", "zero_sum", "scorer", "wall", "seat", "counts")


@njit(cache=True)
def check_game(S, b, opts):
    g = S.g[b]
    # Zero-sum.
    rs = 0.0
    ss = 0
    for s in range(4):
        rs += S.rewards[b, s]
        ss += S.scores[b, s]
    if abs(rs) > 1e-3 or ss != 0:
        return E_ZERO_SUM
    if g[G_SCORE_ERR] != 0:
        return E_SCORER
    if S.terminated[b]:
        for a in range(S.mask.shape[1]):
            if not S.mask[b, a]:
                return E_DONE_MASK
        return E_OK
    # Every tile accounted for.
    n = g[G_WALL_N]
    if g[G_HEAD] < 0 or g[G_TAIL] >= n or g[G_TAIL] < g[G_HEAD] - 1 or drawable(S, b, opts) < 0:
        return E_WALL
    cnt = np.zeros(42, np.int32)
    for i in range(g[G_HEAD], g[G_TAIL] + 1):
        t = np.int64(S.wall[b, i])
        cnt[34 + t - 136 if t >= 136 else t >> 2] += 1
    for s in range(4):
        for k in range(34):
            c = S.hands[b, s, k]
            if c < 0 or c > 4:
                return E_COUNTS
            cnt[k] += c
        fl = S.p[b, s, P_FLOWERS] | S.p[b, s, P_HELD_FLOWERS]
        for f in range(8):
            cnt[34 + f] += (fl >> f) & 1
        for i in range(S.p[b, s, P_NMELDS]):
            mt = S.melds[b, s, i, 0]
            mk = S.melds[b, s, i, 1]
            if mt == 0:
                cnt[mk] += 1
                cnt[mk + 1] += 1
                cnt[mk + 2] += 1
            else:
                cnt[mk] += 3 if mt == 1 else 4
    for i in range(g[G_NRIVER]):
        if S.river[b, i, 2] < 0:
            cnt[S.river[b, i, 0]] += 1
    for k in range(34):
        if cnt[k] != 4:
            return E_TILES
    for f in range(8):
        if cnt[34 + f] != (1 if n == 144 else 0):
            return E_TILES
    # Hand sizes: 16 - 3m, plus one for the seat on turn (or the konger while robbing, or the
    # dealer before its first action).
    ph = g[G_PHASE]
    cur = g[G_CUR]
    if cur < 0 or cur > 3:
        return E_SEAT
    plus = -1
    if ph == PH_TURN:
        plus = g[G_TURN]
        if cur != plus:
            return E_SEAT
    elif ph == PH_ROB:
        plus = g[G_TURN]
    elif ph == PH_READY0:
        plus = g[G_DEALER]
    elif ph == PH_FLOWER:
        if cur != g[G_OFFER]:
            return E_SEAT
        plus = -1 if g[G_OFFER_DRAWN] else g[G_TURN]
    elif ph == PH_LA_CUT:  # between hands: the last hand's tiles lie as it ended
        low = g[G_LA_ASK] & -g[G_LA_ASK]  # the debtor of the lowest pending debt answers
        return E_OK if low != 0 and (low >> (4 * cur)) & 15 != 0 else E_SEAT
    elif ph != PH_CLAIM:
        return E_SEAT
    for s in range(4):
        tot = 0
        for k in range(34):
            tot += S.hands[b, s, k]
        want = 16 - 3 * S.p[b, s, P_NMELDS] + (1 if s == plus else 0)
        if tot != want:
            return E_HAND_SIZE
    anyl = False
    for a in range(S.mask.shape[1]):
        anyl = anyl or S.mask[b, a]
    if not anyl:
        return E_NO_ACTION
    return E_OK


def check(engine) -> list[tuple[int, str]]:
    """Python entry: ``[(game, error name), ...]`` for every game of an ``Engine`` that fails."""
    bad = []
    for b in range(engine.batch_size):
        e = check_game(engine.s, b, engine.opts)
        if e:
            bad.append((b, ERROR_NAMES[e]))
    return bad
