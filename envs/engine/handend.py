"""The end of a hand: wall accounting, flower wins, wins and drawn hands, scoring and settlement.

``finish_*`` record the result, settle chips through the scoring core and leave the game in
``PH_HAND_OVER``; the step driver then deals the next hand or ends the episode.
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.rules import (
    OPT_BASE,
    OPT_DEAD_WALL,
    OPT_DEAD_WALL_PER_KONG,
    OPT_EPISODE_GAME,
    OPT_FLOWER_OFFER,
    OPT_HK,
    OPT_LA_ASK,
    OPT_LA_CUT,
    OPT_LA_DRAW_SETTLE,
    OPT_PER_TAI,
    OPT_SETTLE_LA,
)
from envs.scoring.codes import (
    CHAIN_MASK,
    CHAIN_SHIFT,
    CO_WIN_SHIFT,
    COUNT_MASK,
    DISCARDS_SHIFT,
    F_IPPATSU,
    F_ROB_KONG_CHAIN,
    F_ROBBED_ANKONG,
    FLOOR_SHIFT,
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
from envs.scoring.core import dealer_tai, score_hand
from envs.scoring.hongkong import hk_legs
from envs.engine.ledger import la_close_all, la_hand
from envs.engine.state import (
    G_ANY_MELD,
    G_CHAIN,
    G_DEALER,
    G_DRAWSRC,
    G_HEAD,
    G_LA_ASK,
    G_LAST_DRAWN,
    G_LIABLE,
    G_NRIVER,
    G_OFFER,
    G_OFFER_PAYER,
    G_ROB_ANKONG,
    G_ROB_CHAIN,
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
    P_IPPATSU,
    P_NDISC,
    P_OFFER_PASSED,
    P_SIDE,
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


@njit(cache=True, inline="always")
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
def pay_hand(S, b, legs, drawn, opts):
    """The hand's chips: its legs (``legs[x, y]``: chips x owes y), paid in full or through the 拉
    ledger (settlement "la" in a game), plus the side payments made during the hand."""
    deltas = np.zeros(4, np.int64)
    if opts[OPT_SETTLE_LA] and opts[OPT_EPISODE_GAME]:
        if not drawn:
            S.g[b, G_LA_ASK] = la_hand(S.la[b], S.la_k[b], legs, opts[OPT_LA_CUT], opts[OPT_LA_ASK], deltas)
        elif opts[OPT_LA_DRAW_SETTLE]:
            la_close_all(S.la[b], S.la_k[b], deltas)
    else:
        for x in range(4):
            for y in range(4):
                deltas[x] -= legs[x, y]
                deltas[y] += legs[x, y]
    for s in range(4):
        deltas[s] += S.p[b, s, P_SIDE]
        S.p[b, s, P_SIDE] = 0
    _apply_deltas(S, b, deltas, opts)


@njit(cache=True)
def finish_drawn(S, b, opts):
    g = S.g[b]
    _clear_result(S, b)
    pay_hand(S, b, np.zeros((4, 4), np.int64), True, opts)
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
    if opts[OPT_HK]:
        fl |= hk_flags(S, b, w, win_by)
    return fl, no_tile


@njit(cache=True)
def hk_flags(S, b, w, win_by):
    """hongkong context (HONGKONG.md 6): 一發, robbed-kong kinds, co-winners, discards, floor."""
    g = S.g[b]
    fl = 0
    if S.p[b, w, P_IPPATSU]:
        fl |= F_IPPATSU
    rob = win_by == WIN_ROB_KONG
    if rob:
        fl |= (F_ROBBED_ANKONG if g[G_ROB_ANKONG] else 0) | (F_ROB_KONG_CHAIN if g[G_ROB_CHAIN] else 0)
    if win_by == WIN_DISCARD or rob:
        n = 0
        for s in range(4):
            n += (g[G_WINNERS] >> s) & 1
        fl |= n << CO_WIN_SHIFT
    floor = 1 if rob else 0  # the robbed tile counts as a discard
    for i in range(g[G_NRIVER]):
        floor += S.river[b, i, 2] < 0
    # counts are stored + 1 (0: not given)
    fl |= (min(g[G_NRIVER] + (1 if rob else 0), COUNT_MASK - 1) + 1) << DISCARDS_SHIFT
    fl |= (min(floor, COUNT_MASK - 1) + 1) << FLOOR_SHIFT
    return fl


@njit(cache=True)
def win_legs(tai, win_by, w, payer, liable, dealer, streak, opts, legs):
    """One winner's legs into ``legs[payer, w]`` (chips): base + per_tai x leg tai. hongkong: the
    scorer's hk_legs (dealer tai only when the dealer wins or pays as discarder; 全包 by ``liable``);
    otherwise RULES.md 4 (dealer tai on every leg the dealer pays or wins)."""
    if opts[OPT_HK]:
        leg_tai = np.empty(4, np.int64)
        leg_payer = np.empty(4, np.int64)
        hk_legs(tai, win_by, w, payer, liable, dealer, streak, opts, leg_tai, leg_payer)
        for p in range(4):
            if leg_tai[p] >= 0:
                legs[leg_payer[p], w] += opts[OPT_BASE] + opts[OPT_PER_TAI] * leg_tai[p]
        return
    dt = dealer_tai(streak, opts)
    for p in range(4):
        if p == w or (payer >= 0 and p != payer):
            continue
        legs[p, w] += opts[OPT_BASE] + opts[OPT_PER_TAI] * (tai + (dt if (p == dealer or w == dealer) else 0))


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
    legs = np.zeros((4, 4), np.int64)
    g[G_WINNERS] = winners  # (read by hk_flags)
    liable = -1
    if opts[OPT_HK] and win_by == WIN_SELF_DRAW and g[G_DRAWSRC] != SRC_FRONT:
        liable = g[G_LIABLE]  # 全包: the chain began with a kong claimed on that seat's discard
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
        win_legs(tai, win_by, w, payer, liable, dealer, streak, opts, legs)
    pay_hand(S, b, legs, False, opts)
    g[G_RESULT] = RES_WIN
    g[G_PAYER] = liable if liable >= 0 else payer
    g[G_WIN_BY] = win_by
    g[G_PHASE] = PH_HAND_OVER
    g[G_CUR] = -1


@njit(cache=True)
def check_flower_win(S, b, opts, prof):
    """八仙過海 / 七搶一 (RULES 2.9): settle and return True when a seat wins on flowers now. With
    flower_win "offer" the win is only recorded in G_OFFER (asked in PH_FLOWER) unless passed."""
    p = S.p[b]
    total = 0
    for s in range(4):
        total += popcount8(p[s, P_FLOWERS])
    if total < 8:
        return False
    for s in range(4):
        if popcount8(p[s, P_FLOWERS]) == 8:
            return flower_win(S, b, s, -1, opts, prof)
    for s in range(4):
        if popcount8(p[s, P_FLOWERS]) == 7:
            for o in range(4):
                if o != s and p[o, P_FLOWERS] != 0:
                    return flower_win(S, b, s, o, opts, prof)
    return False


@njit(cache=True)
def flower_win(S, b, s, payer, opts, prof):
    if not opts[OPT_FLOWER_OFFER]:
        finish_win(S, b, 1 << s, WIN_FLOWERS, payer, -1, opts, prof)
        return True
    g = S.g[b]
    if g[G_OFFER] < 0 and not S.p[b, s, P_OFFER_PASSED]:
        g[G_OFFER] = s
        g[G_OFFER_PAYER] = payer
    return False
