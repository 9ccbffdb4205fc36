"""The end of a hand: wall accounting, flower wins, wins and drawn hands, scoring and settlement.

``finish_*`` record the result, settle chips through the scoring core and leave the game in
``PH_HAND_OVER``; the step driver then deals the next hand or ends the episode.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.rules import OPT_DEAD_WALL, OPT_DEAD_WALL_PER_KONG, OPT_PER_TAI
from envs.scoring.codes import (
    CHAIN_MASK,
    CHAIN_SHIFT,
    F_EARTHLY,
    F_FLOWER_REPLACEMENT,
    F_HEAVENLY,
    F_HUMAN,
    F_KONG_REPLACEMENT,
    F_LAST_TILE,
    N_ITEMS,
    WIN_DISCARD,
    WIN_FLOWERS,
    WIN_ROB_KONG,
    WIN_SELF_DRAW,
)
from envs.scoring.core import score_hand, settle
from envs.engine.state import (
    G_ANY_MELD,
    G_CHAIN,
    G_DEALER,
    G_DRAWSRC,
    G_HEAD,
    G_LAST_DRAWN,
    G_NKONG,
    G_PAYER,
    G_PHASE,
    G_RESULT,
    G_RIVER_LAST,
    G_ROT,
    G_SCORE_ERR,
    G_STREAK,
    G_TAIL,
    G_WIN_BY,
    G_WINNERS,
    G_CUR,
    P_FLOWERS,
    P_NDISC,
    P_NDRAWS,
    P_NMELDS,
    P_READY,
    RES_DRAWN,
    RES_WIN,
    SRC_EXPOSED_KONG,
    SRC_FLOWER,
    SRC_FRONT,
    SRC_KONG,
)

PH_HAND_OVER = 5  # transient: the hand just ended, the driver decides what comes next


@njit(cache=True)
def drawable(S, b, opts):
    """Tiles that may still be drawn (front or tail): the rest of the wall minus the dead wall."""
    g = S.g[b]
    dead = opts[OPT_DEAD_WALL]
    if opts[OPT_DEAD_WALL_PER_KONG]:
        dead += g[G_NKONG]
    return g[G_TAIL] - g[G_HEAD] + 1 - dead


@njit(cache=True)
def popcount8(x):
    n = 0
    for i in range(8):
        n += (x >> i) & 1
    return n


@njit(cache=True)
def _clear_result(S, b):
    S.res_tai[b, :] = -1
    S.res_items[b, :, :] = 0
    S.res_delta[b, :] = 0


@njit(cache=True)
def _apply_deltas(S, b, deltas, opts):
    per_tai = opts[OPT_PER_TAI]
    for s in range(4):
        S.res_delta[b, s] += deltas[s]
        S.scores[b, s] += deltas[s]
        S.rewards[b, s] += np.float32(deltas[s] / per_tai)


@njit(cache=True)
def finish_drawn(S, b):
    g = S.g[b]
    _clear_result(S, b)
    g[G_RESULT] = RES_DRAWN
    g[G_WINNERS] = 0
    g[G_PAYER] = -1
    g[G_WIN_BY] = -1
    g[G_PHASE] = PH_HAND_OVER
    g[G_CUR] = -1


@njit(cache=True)
def win_flags(S, b, w, win_by, opts):
    """Situational flags (codes.F_*) for seat ``w`` winning now, and whether the win has no tile
    (天胡: the whole 17-tile hand is scored with ``win_tile = -1``)."""
    g = S.g[b]
    p = S.p[b]
    dealer = g[G_DEALER]
    fl = p[w, P_READY]
    no_tile = False
    fresh = g[G_ANY_MELD] == 0 and p[w, P_NDISC] == 0
    if win_by == WIN_SELF_DRAW:
        src = g[G_DRAWSRC]
        if w == dealer and fresh:
            return fl | F_HEAVENLY, True
        if src == SRC_KONG or src == SRC_EXPOSED_KONG:
            fl |= F_KONG_REPLACEMENT
        elif src == SRC_FLOWER:
            fl |= F_FLOWER_REPLACEMENT
        if src != SRC_FRONT:  # replacement draws in a row ending with this tile (連槓開花, EXTRAS 2.2)
            fl |= min(max(g[G_CHAIN], 1), CHAIN_MASK) << CHAIN_SHIFT
        if drawable(S, b, opts) == 0:
            fl |= F_LAST_TILE
        if w != dealer and fresh and p[w, P_NDRAWS] == 1:
            fl |= F_EARTHLY
    elif win_by == WIN_DISCARD:
        if g[G_RIVER_LAST]:
            fl |= F_LAST_TILE
        if w != dealer and g[G_ANY_MELD] == 0 and p[w, P_NDRAWS] == 0:
            fl |= F_HUMAN
    return fl, no_tile


@njit(cache=True)
def finish_win(S, b, winners, win_by, payer, tile, opts, prof):
    """Score and settle every winner in the bitmask ``winners``.

    ``tile``: the claimed tile for discard / robbed-kong wins (added to a scratch copy of the
    winner's hand), otherwise ignored. ``payer``: discarder, konger, single-flower seat, or -1."""
    p_tai, p_repl, p_opts = prof
    g = S.g[b]
    _clear_result(S, b)
    dealer = g[G_DEALER]
    streak = g[G_STREAK]
    rw = (g[G_ROT] // 4) % 4
    conc = np.empty(34, np.int8)
    mt = np.zeros(8, np.int8)
    mk = np.zeros(8, np.int8)
    items = np.zeros(N_ITEMS, np.int32)
    deltas = np.zeros(4, np.int64)
    for w in range(4):
        if not (winners >> w) & 1:
            continue
        conc[:] = S.hands[b, w]
        nm = S.p[b, w, P_NMELDS]
        for i in range(nm):
            mt[i] = S.melds[b, w, i, 0]
            mk[i] = S.melds[b, w, i, 1]
        flags, no_tile = win_flags(S, b, w, win_by, opts)
        win_tile = -1
        if win_by == WIN_DISCARD or win_by == WIN_ROB_KONG:
            conc[tile] += 1
            win_tile = tile
        elif win_by == WIN_SELF_DRAW and not no_tile:
            win_tile = g[G_LAST_DRAWN]
        items[:] = 0
        tai = score_hand(conc, mt, mk, nm, S.p[b, w, P_FLOWERS], win_tile, win_by, (w - dealer) % 4, rw, flags,
                         p_tai, p_repl, p_opts, items)
        if tai < 0:  # the engine offered a win the scorer refuses: counted, checked by the invariants
            g[G_SCORE_ERR] += 1
            tai = 0
        S.res_tai[b, w] = tai
        S.res_items[b, w, :] = items
        deltas[:] = 0
        settle(tai, win_by, w, payer, dealer, streak, opts, deltas)
        _apply_deltas(S, b, deltas, opts)
    g[G_RESULT] = RES_WIN
    g[G_WINNERS] = winners
    g[G_PAYER] = payer
    g[G_WIN_BY] = win_by
    g[G_PHASE] = PH_HAND_OVER
    g[G_CUR] = -1


@njit(cache=True)
def check_flower_win(S, b, opts, prof):
    """八仙過海 / 七搶一 (RULES 2.9): settle and return True when a seat wins on flowers now."""
    p = S.p[b]
    total = 0
    for s in range(4):
        total += popcount8(p[s, P_FLOWERS])
    if total < 8:
        return False
    for s in range(4):
        if popcount8(p[s, P_FLOWERS]) == 8:
            finish_win(S, b, 1 << s, WIN_FLOWERS, -1, -1, opts, prof)
            return True
    for s in range(4):
        if popcount8(p[s, P_FLOWERS]) == 7:
            for o in range(4):
                if o != s and p[o, P_FLOWERS] != 0:
                    finish_win(S, b, 1 << s, WIN_FLOWERS, o, -1, opts, prof)
                    return True
    return False
