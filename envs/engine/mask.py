"""The legal action mask of the seat to decide (one game)."""

from __future__ import annotations

from envs.jit import njit

from envs.rules import (
    OPT_HK,
    OPT_DECLARE_READY,
    OPT_KONG_REPLACEMENT_SELF_DRAW,
    OPT_NO_KONG_AFTER_CLAIM,
    OPT_STRICT_PASS,
    OPT_SWAP_CALL,
)
import numpy as np

from envs.hand.analysis import win_shanten, win_wait_mask
from envs.scoring.core import winning_shape
from envs.scoring.profile import PO_SHAPES
from envs.engine.actions import CHI, DISCARD, KONG, PASS, PON, READY, SELF_KONG, WIN
from envs.engine.claims import kong_allowed, may_win
from envs.engine.state import (
    C_CHI_HIGH,
    C_CHI_LOW,
    C_CHI_MID,
    C_KONG,
    C_PON,
    C_READY,
    C_WIN,
    G_AFTER_CLAIM,
    G_CUR,
    G_DRAWSRC,
    G_LAST_DRAWN,
    G_PHASE,
    G_READY_PENDING,
    G_SWAP1,
    G_SWAP2,
    P_CLAIM,
    P_NDISC,
    P_NMELDS,
    P_PASS_SELF,
    P_READY,
    PH_CLAIM,
    PH_FLOWER,
    PH_LA_CUT,
    PH_READY0,
    PH_ROB,
    PH_TURN,
    SRC_EXPOSED_KONG,
)
from envs.scoring.codes import F_DECLARED_READY
from envs.tiles import ANKONG, PON as M_PON

# cfg[CFG_READY_MODE]: which ready declarations the profile scores.
CFG_READY_MODE = 0
READY_NONE = 0
READY_HEAVEN_EARTH = 1  # 天聽 (PH_READY0) and 地聽 (with the seat's first discard): strict16
READY_DECLARED = 2  # 宣告聽牌 at any turn while concealed: casual
READY_HK = 3  # 報聽 at any turn, concealed or not; then the drawn tile is discarded unless it wins (hongkong)
N_CFG = 1


# Helpers on one game's rows (hands = S.hands[b], melds = S.melds[b], g = S.g[b], p = S.p[b]); a
# compiled call with the whole state tuple costs far more than these bodies (views.py).
@njit(cache=True)
def held_all(h, ms, nm, k):
    """Tiles of kind ``k`` a seat holds, in hand ``h`` and in its ``nm`` melds ``ms``."""
    n = h[k]
    for i in range(nm):
        t = ms[i, 0]
        mk = ms[i, 1]
        if t == 0:
            if mk <= k <= mk + 2:
                n += 1
        elif mk == k:
            n += 3 if t == M_PON else 4
    return n


@njit(cache=True)
def is_ready_hand(h, ms, nm, p_opts):
    """Does the (16 - 3 nm)-tile hand ``h`` wait on some kind the seat does not hold all four of?"""
    held = np.zeros(34, np.int8)
    for k in range(34):
        held[k] = held_all(h, ms, nm, k)
    waits = np.zeros(34, np.bool_)
    return win_wait_mask(h, 5 - nm, held, p_opts[PO_SHAPES], waits) > 0


@njit(cache=True)
def ready_after_discard(h, ms, nm, d, p_opts):
    h[d] -= 1
    ok = is_ready_hand(h, ms, nm, p_opts)
    h[d] += 1
    return ok


@njit(cache=True)
def is_concealed(ms, nm):
    for i in range(nm):
        if ms[i, 0] != ANKONG:
            return False
    return True


@njit(cache=True)
def can_declare_ready(g, ps, h, ms, opts, cfg, p_opts):
    """READY on the seat's turn: 地聽 with its first discard (strict16), 宣告聽牌 (casual, concealed)
    or 報聽 (hongkong, any hand); never in the turn of a chi or pon."""
    mode = cfg[CFG_READY_MODE]
    if not opts[OPT_DECLARE_READY] or mode == 0 or ps[P_READY] != 0:
        return False
    nm = ps[P_NMELDS]
    if g[G_AFTER_CLAIM] or (mode != READY_HK and not is_concealed(ms, nm)):
        return False
    if mode == READY_HEAVEN_EARTH and ps[P_NDISC] != 0:
        return False
    if win_shanten(h, 5 - nm, p_opts[PO_SHAPES]) > 0:
        return False  # cheap filter: no discard can leave a ready hand
    for d in range(34):
        if h[d] > 0 and ready_after_discard(h, ms, nm, d, p_opts):
            return True
    return False


@njit(cache=True)
def turn_win_ok(g, ps, h, opts, p_opts):
    if g[G_AFTER_CLAIM]:
        return False
    if opts[OPT_STRICT_PASS] and ps[P_PASS_SELF]:
        return False
    if not opts[OPT_KONG_REPLACEMENT_SELF_DRAW] and g[G_DRAWSRC] == SRC_EXPOSED_KONG:
        return False
    return may_win(h, -1, p_opts[PO_SHAPES]) and winning_shape(h, 5 - ps[P_NMELDS], p_opts)


@njit(cache=True, inline="always")  # once per decision: inlined into step_game (step.py)
def mask_rows(m, g, p, hands, melds, done, opts, cfg, p_opts):
    """The legal actions of game ``b`` into ``m`` (= S.mask[b]), from its rows."""
    ph = g[G_PHASE]
    if done:
        m[:] = True
        return
    m[:] = False
    seat = g[G_CUR]
    h = hands[seat]
    ps = p[seat]
    ms = melds[seat]
    if ph == PH_TURN:
        if g[G_READY_PENDING]:
            for k in range(34):
                if h[k] > 0 and ready_after_discard(h, ms, ps[P_NMELDS], k, p_opts):
                    m[DISCARD + k] = True
            return
        swap_ban = g[G_AFTER_CLAIM] and not opts[OPT_SWAP_CALL]
        drawn = g[G_LAST_DRAWN]
        if opts[OPT_HK] and ps[P_READY] & F_DECLARED_READY and drawn >= 0:
            m[DISCARD + drawn] = True  # hongkong 報聽: the drawn tile goes, unless it wins or konged
        else:
            for k in range(34):  # branch-free (vectorised): a held kind may be discarded
                m[DISCARD + k] = h[k] > 0
            if swap_ban:  # 食替: not the claimed kind, nor the other end of the two used
                for k in (g[G_SWAP1], g[G_SWAP2]):
                    if k >= 0:
                        m[DISCARD + k] = False
        if turn_win_ok(g, ps, h, opts, p_opts):
            m[WIN] = True
        if not (g[G_AFTER_CLAIM] and opts[OPT_NO_KONG_AFTER_CLAIM]) and kong_allowed(g, opts):
            for k in range(34):
                if h[k] == 4:
                    m[SELF_KONG + k] = True
            for i in range(ps[P_NMELDS]):
                if ms[i, 0] == M_PON:
                    k = ms[i, 1]
                    if h[k] > 0:
                        m[SELF_KONG + k] = True
        if opts[OPT_DECLARE_READY] and can_declare_ready(g, ps, h, ms, opts, cfg, p_opts):
            m[READY] = True
    elif ph == PH_CLAIM or ph == PH_ROB or ph == PH_READY0:
        bits = ps[P_CLAIM]
        m[PASS] = True
        if bits & C_WIN:
            m[WIN] = True
        if bits & C_CHI_LOW:
            m[CHI] = True
        if bits & C_CHI_MID:
            m[CHI + 1] = True
        if bits & C_CHI_HIGH:
            m[CHI + 2] = True
        if bits & C_PON:
            m[PON] = True
        if bits & C_KONG:
            m[KONG] = True
        if bits & C_READY:
            m[READY] = True
    elif ph == PH_FLOWER or ph == PH_LA_CUT:
        m[WIN] = True  # take the flower win / cut the 拉 debt (pay it in full now)
        m[PASS] = True  # pass the flower win for this hand / keep the debt
    else:
        m[:] = True  # not a decision (should not happen for a live game)
