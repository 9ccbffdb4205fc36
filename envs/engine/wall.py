"""Walls, dealing, draws and flower replacement (RULES 2.1-2.4, 2.8, 2.9)."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.rules import OPT_FLOWERS, OPT_HK
from envs.engine.handend import check_flower_win, drawable, finish_drawn
from envs.engine.rng import randint
from envs.engine.side import flower_side, roll_dice
from envs.engine.state import (
    G_AFTER_CLAIM,
    G_ANY_MELD,
    G_CHAIN,
    G_CUR,
    G_DEALER,
    G_DEALT,
    G_DICE,
    G_DRAWSRC,
    G_HEAD,
    G_LAST_DRAWN,
    G_LIABLE,
    G_NKONG,
    G_OFFER,
    G_OFFER_DRAWN,
    G_PHASE,
    G_ROB_ANKONG,
    G_ROB_CHAIN,
    G_NRIVER,
    G_READY_PENDING,
    G_RIVER_LAST,
    G_SCRIPT_USED,
    G_SWAP1,
    G_SWAP2,
    G_TAIL,
    G_TILE,
    G_TURN,
    G_WALL_N,
    NP,
    P_FLOWERS,
    P_HELD_FLOWERS,
    P_ANSWER,
    P_NDRAWS,
    PH_FLOWER,
    SRC_FLOWER,
    SRC_FRONT,
)

FLOWER_ID0 = 136  # physical ids 136..143 are the flowers f1..f8


@njit(cache=True)
def fill_wall(S, b, opts):
    """This hand's wall: the next scripted one if any is left, else a fresh shuffle."""
    g = S.g[b]
    n = 144 if opts[OPT_FLOWERS] else 136
    g[G_WALL_N] = n
    k = g[G_SCRIPT_USED]
    if k < S.script.shape[1]:
        S.wall[b, :] = S.script[b, k]
        g[G_SCRIPT_USED] = k + 1
        return
    w = S.wall[b]
    for i in range(144):
        w[i] = i
    for i in range(n - 1, 0, -1):  # Fisher-Yates on the game's own stream
        j = randint(S.rng, b, i + 1)
        t = w[i]
        w[i] = w[j]
        w[j] = t


@njit(cache=True, inline="always")  # every turn draws: inlined like the rest of the turn (step.py)
def draw_tile(S, b, seat, from_tail, src, opts, prof):
    """Draw one playing tile into ``seat``'s hand, exposing flowers and replacing them from the tail
    (repeat). Returns True when the hand ended: no drawable tile (流局; a flower drawn last is exposed
    and a flower win still checked), or a flower win (checked after the replacement draw)."""
    g = S.g[b]
    got_flower = False
    while True:
        if drawable(S, b, opts) <= 0:
            return wall_out(S, b, got_flower, opts, prof)
        if from_tail:
            t = np.int64(S.wall[b, g[G_TAIL]])
            g[G_TAIL] -= 1
            g[G_CHAIN] += 1  # one more replacement draw in this turn's run
        else:
            t = np.int64(S.wall[b, g[G_HEAD]])
            g[G_HEAD] += 1
        if t >= FLOWER_ID0:
            S.p[b, seat, P_FLOWERS] |= 1 << (t - FLOWER_ID0)
            if opts[OPT_HK]:
                flower_side(S.p[b], seat, opts)
            got_flower = True
            from_tail = True
            if src == SRC_FRONT:  # a chain started by a kong stays a kong replacement
                src = SRC_FLOWER
            continue
        k = t >> 2
        S.hands[b, seat, k] += 1
        g[G_LAST_DRAWN] = k
        g[G_DRAWSRC] = src
        break
    if got_flower and check_flower_win(S, b, opts, prof):
        return True
    return False


@njit(cache=True)
def wall_out(S, b, got_flower, opts, prof):
    """No drawable tile is left: the hand is drawn, after a flower win is checked (and, when offered,
    asked first: PH_FLOWER with G_OFFER_DRAWN). Returns True (the hand ended or waits for that answer)."""
    if got_flower and check_flower_win(S, b, opts, prof):
        return True
    g = S.g[b]
    if got_flower and g[G_OFFER] >= 0:
        g[G_OFFER_DRAWN] = 1
        g[G_PHASE] = PH_FLOWER
        g[G_CUR] = g[G_OFFER]
        return True
    finish_drawn(S, b, opts)
    return True


@njit(cache=True)
def _deal_one(S, b, seat, t):
    if t >= FLOWER_ID0:
        S.p[b, seat, P_HELD_FLOWERS] |= 1 << (t - FLOWER_ID0)
    else:
        S.hands[b, seat, t >> 2] += 1


@njit(cache=True)
def deal(S, b, opts, prof):
    """Wall, deal (16 each from the front, dealer first, then the dealer's 17th), initial flowers.
    Returns True if the hand already ended (a flower win, or no tile left for a replacement)."""
    g = S.g[b]
    S.hands[b, :, :] = 0
    S.melds[b, :, :, :] = 0
    S.river[b, :, :] = -1
    for s in range(4):
        for j in range(NP):
            S.p[b, s, j] = 0
    S.p[b, :, P_ANSWER] = -1
    fill_wall(S, b, opts)
    g[G_OFFER] = -1
    g[G_OFFER_DRAWN] = 0
    g[G_LIABLE] = -1
    g[G_ROB_ANKONG] = 0
    g[G_ROB_CHAIN] = 0
    g[G_DICE] = 0
    if opts[OPT_HK]:
        roll_dice(S, b, opts)
    dealer = g[G_DEALER]
    g[G_HEAD] = 0
    g[G_TAIL] = g[G_WALL_N] - 1
    g[G_NKONG] = 0
    g[G_NRIVER] = 0
    g[G_CHAIN] = 0
    g[G_ANY_MELD] = 0
    g[G_AFTER_CLAIM] = 0
    g[G_READY_PENDING] = 0
    g[G_SWAP1] = -1
    g[G_SWAP2] = -1
    g[G_TILE] = -1
    g[G_RIVER_LAST] = 0
    g[G_LAST_DRAWN] = -1
    g[G_DRAWSRC] = SRC_FRONT
    g[G_TURN] = dealer
    g[G_DEALT] = 1
    for i in range(4):
        seat = (dealer + i) % 4
        for j in range(16):
            _deal_one(S, b, seat, np.int64(S.wall[b, g[G_HEAD]]))
            g[G_HEAD] += 1
    t17 = np.int64(S.wall[b, g[G_HEAD]])
    _deal_one(S, b, dealer, t17)
    g[G_HEAD] += 1
    if t17 < FLOWER_ID0:
        g[G_LAST_DRAWN] = t17 >> 2
    S.p[b, dealer, P_NDRAWS] = 1
    # Initial flowers: rounds from the dealer counter-clockwise until no seat holds one.
    while True:
        any_held = False
        for i in range(4):
            seat = (dealer + i) % 4
            held = S.p[b, seat, P_HELD_FLOWERS]
            if held == 0:
                continue
            any_held = True
            S.p[b, seat, P_FLOWERS] |= held
            S.p[b, seat, P_HELD_FLOWERS] = 0
            if opts[OPT_HK]:
                flower_side(S.p[b], seat, opts)
            for f in range(8):
                if (held >> f) & 1:
                    if drawable(S, b, opts) <= 0:
                        return wall_out(S, b, True, opts, prof)
                    t = np.int64(S.wall[b, g[G_TAIL]])
                    g[G_TAIL] -= 1
                    _deal_one(S, b, seat, t)
            if check_flower_win(S, b, opts, prof):
                return True
        if not any_held:
            break
    g[G_CUR] = dealer
    return False
