"""Who may claim the tile in question, and with what (RULES 2.5-2.8).

Claim options are computed once when the tile appears (a discard or an added kong) and kept per
seat in ``p[:, :, P_CLAIM]`` as C_* bits; the mask and the resolution both read them.
"""

from __future__ import annotations

from envs.jit import njit

from envs.rules import (
    OPT_HK,
    OPT_DEAD_WALL,
    OPT_DEAD_WALL_PER_KONG,
    OPT_NO_CALLS_LAST3,
    OPT_SWAP_CALL,
)
from envs.hand.analysis import SHAPE_SIXTEEN_UNRELATED, SHAPE_THIRTEEN, is_thirteen_orphans
from envs.scoring.codes import F_DECLARED_READY
from envs.scoring.core import winning_shape
from envs.scoring.profile import PO_SHAPES
from envs.engine.state import (
    C_CHI_HIGH,
    C_CHI_LOW,
    C_CHI_MID,
    C_KONG,
    C_PON,
    C_WIN,
    G_CUR,
    G_HEAD,
    G_NKONG,
    G_PHASE,
    G_TAIL,
    G_TURN,
    P_ANSWER,
    P_CLAIM,
    P_NMELDS,
    P_PASS_WIN,
    P_READY,
    PH_CLAIM,
    PH_ROB,
)


@njit(cache=True)
def may_win(h, t, shapes):
    """Cheap necessary condition for ``h`` (+ one ``t`` unless t < 0) to be a winning shape, valid
    for the standard shape and eight pairs; it skips most calls into the full check (the hot path
    of every discard). With 十三么 / 十六不搭 shapes enabled it never rejects."""
    if shapes & (SHAPE_THIRTEEN | SHAPE_SIXTEEN_UNRELATED):
        return True
    if t >= 0 and h[t] == 0:  # an isolated tile completes nothing
        if t >= 27:
            return False
        r = t % 9
        near = (r >= 1 and h[t - 1] > 0) or (r >= 2 and h[t - 2] > 0) or (r <= 7 and h[t + 1] > 0) or (r <= 6 and h[t + 2] > 0)
        if not near:
            return False
    if shapes != 0:
        return True
    pairs = 0  # standard shape: every suit 0 or 2 mod 3, honours 0, 2 or 3, exactly one pair group
    for k in range(27, 34):  # honours first: a lone honour rejects most hands in 7 reads
        c = h[k] + (1 if k == t else 0)
        if c == 1 or c == 4:
            return False
        if c == 2:
            pairs += 1
    for su in range(3):
        n = 0
        for k in range(9 * su, 9 * su + 9):
            n += h[k]
        if t >= 0 and t // 9 == su and t < 27:
            n += 1
        r = n % 3
        if r == 1:
            return False
        if r == 2:
            pairs += 1
    return pairs == 1


@njit(cache=True)
def wins_with(h, n_melds, t, p_opts):
    """Would the hand ``h`` (a seat's concealed counts) plus one ``t`` be a winning shape? (restored)"""
    if h[t] >= 4 or not may_win(h, t, p_opts[PO_SHAPES]):
        return False
    h[t] += 1
    ok = winning_shape(h, 5 - n_melds, p_opts)
    h[t] -= 1
    return ok


@njit(cache=True)
def tiles_left(g, opts):
    """``drawable`` on one game's scalar row ``g``."""
    dead = opts[OPT_DEAD_WALL]
    if opts[OPT_DEAD_WALL_PER_KONG]:
        dead += g[G_NKONG]
    return g[G_TAIL] - g[G_HEAD] + 1 - dead


@njit(cache=True)
def kong_allowed(g, opts):
    """A kong needs a drawable tile for its replacement (after the dead wall grows, if it does)."""
    extra = 1 if opts[OPT_DEAD_WALL_PER_KONG] else 0
    return tiles_left(g, opts) - extra >= 1


@njit(cache=True)
def chi_has_discard(h, t, lo, used1, used2, swap_ok):
    """After a chi using ``used1``/``used2``, is some discard left? With swap_call off the claimed
    kind and the other kind that completes a chow with the two used tiles are banned (食替)."""
    ban1 = t
    ban2 = -1
    if not swap_ok:
        if t == lo and t % 9 <= 5:  # claimed low: 45 + 3 -> 6 also banned
            ban2 = t + 3
        elif t == lo + 2 and t % 9 >= 3:  # claimed high: 45 + 6 -> 3 also banned
            ban2 = t - 3
    for k in range(34):
        n = h[k] - (1 if k == used1 else 0) - (1 if k == used2 else 0)
        if n > 0 and (swap_ok or (k != ban1 and k != ban2)):
            return True
    return False


@njit(cache=True, inline="always")  # three seats on every discard: inlined (step.py)
def claim_options(g, ps, h, s, d, t, opts, p_opts):
    """C_* bits for seat ``s`` (its scalars ``ps``, hand ``h``) on ``d``'s discard of kind ``t``."""
    bits = 0
    if ps[P_PASS_WIN] == 0 and wins_with(h, ps[P_NMELDS], t, p_opts):
        bits |= C_WIN
    if opts[OPT_NO_CALLS_LAST3] and tiles_left(g, opts) <= 3:
        return bits
    if opts[OPT_HK] and ps[P_READY] & F_DECLARED_READY:
        return bits  # hongkong 報聽: no chi, pon or exposed kong after the declaration
    if h[t] >= 2:
        bits |= C_PON
        if h[t] == 3 and kong_allowed(g, opts):
            bits |= C_KONG
    if s == (d + 1) % 4 and t < 27:
        r = t % 9
        swap_ok = opts[OPT_SWAP_CALL] != 0
        if r <= 6 and h[t + 1] > 0 and h[t + 2] > 0 and chi_has_discard(h, t, t, t + 1, t + 2, swap_ok):
            bits |= C_CHI_LOW
        if 1 <= r <= 7 and h[t - 1] > 0 and h[t + 1] > 0 and chi_has_discard(h, t, t - 1, t - 1, t + 1, swap_ok):
            bits |= C_CHI_MID
        if r >= 2 and h[t - 2] > 0 and h[t - 1] > 0 and chi_has_discard(h, t, t - 2, t - 2, t - 1, swap_ok):
            bits |= C_CHI_HIGH
    return bits


# The helpers below take one game's rows (g = S.g[b], p = S.p[b], hands = S.hands[b]), not the
# state tuple: a compiled call with the whole state costs far more than these bodies (views.py).
@njit(cache=True)
def next_asked(g, p, after):
    """The next seat counter-clockwise after ``after`` (towards the turn seat) still to answer."""
    turn = g[G_TURN]
    i = (after - turn) % 4 + 1
    while i <= 3:
        s = (turn + i) % 4
        if p[s, P_CLAIM] != 0 and p[s, P_ANSWER] < 0:
            return s
        i += 1
    return -1


@njit(cache=True, inline="always")
def open_claims(g, p, hands, t, opts, p_opts):
    """After the turn seat discards ``t``: compute every seat's options; True if someone is asked."""
    d = g[G_TURN]
    for i in range(1, 4):
        s = (d + i) % 4
        p[s, P_CLAIM] = claim_options(g, p[s], hands[s], s, d, t, opts, p_opts)
        p[s, P_ANSWER] = -1
    first = next_asked(g, p, d)
    if first < 0:
        return False
    g[G_PHASE] = PH_CLAIM
    g[G_CUR] = first
    return True


@njit(cache=True)
def robs_as_thirteen(h, n_melds, k, p_opts):
    """Does ``k`` complete the meld-less hand ``h`` as 十三么? (the only hand that robs an ankong)"""
    if n_melds != 0 or h[k] >= 4:
        return False
    h[k] += 1
    ok = is_thirteen_orphans(h, p_opts[PO_SHAPES])
    h[k] -= 1
    return ok


@njit(cache=True)
def open_rob(g, p, hands, k, ankong, p_opts):
    """The turn seat adds a kong of ``k``: who may rob it (win only). An ankong (hongkong only) may be
    robbed only by a hand that ``k`` completes as 十三么."""
    d = g[G_TURN]
    for i in range(1, 4):
        s = (d + i) % 4
        bits = 0
        if p[s, P_PASS_WIN] == 0 and wins_with(hands[s], p[s, P_NMELDS], k, p_opts):
            if not ankong or robs_as_thirteen(hands[s], p[s, P_NMELDS], k, p_opts):
                bits = C_WIN
        p[s, P_CLAIM] = bits
        p[s, P_ANSWER] = -1
    first = next_asked(g, p, d)
    if first < 0:
        return False
    g[G_PHASE] = PH_ROB
    g[G_CUR] = first
    return True


@njit(cache=True)
def clear_claims(p):
    for s in range(4):
        p[s, P_CLAIM] = 0
        p[s, P_ANSWER] = -1
