"""hongkong side payments (HONGKONG.md 4): paid at once in 底 (the base stake), never part of 拉.

They accumulate per seat in ``p[:, P_SIDE]`` (chips, each payment rounded to a whole chip, halves
up) and are paid with the hand's other chips when it ends (drawn hands included).
"""

from __future__ import annotations

from envs.jit import njit

from envs.rules import OPT_BASE, OPT_DICE
from envs.engine.rng import randint
from envs.engine.state import FP_GRASS, FP_SET1, FP_SET2, G_DEALER, G_DICE, G_NRIVER, P_FLOWERS, P_FLOWER_PAID, P_SIDE


@njit(cache=True)
def base_chips(opts, halves):
    """``halves`` half-底 in chips, rounded half up."""
    return (opts[OPT_BASE] * halves + 1) // 2


@njit(cache=True)
def all_pay(p, seat, chips):
    """Each other seat pays ``seat``."""
    for s in range(4):
        if s != seat:
            p[s, P_SIDE] -= chips
            p[seat, P_SIDE] += chips


@njit(cache=True)
def flower_side(p, seat, opts):
    """一臺花 (1 底 each, per set, when it completes) and 一臺草 (½ 底 each, once, never after 一臺花),
    after ``seat``'s flowers changed."""
    f = p[seat, P_FLOWERS]
    done = p[seat, P_FLOWER_PAID]
    for lo, bit in ((0, FP_SET1), (4, FP_SET2)):
        if (f >> lo) & 15 == 15 and not done & bit:
            all_pay(p, seat, base_chips(opts, 2))
            done |= bit | FP_GRASS
    if not done & FP_GRASS and ((f | (f >> 4)) & 15) == 15:
        all_pay(p, seat, base_chips(opts, 1))
        done |= FP_GRASS
    p[seat, P_FLOWER_PAID] = done


@njit(cache=True)
def roll_dice(S, b, opts):
    """The dealer's three dice for the hand, from the game's own stream: 圍骰 (a triple), each other
    seat pays the dealer 1 底; 一二三, the dealer pays each other seat 1 底."""
    d1 = randint(S.rng, b, 6) + 1
    d2 = randint(S.rng, b, 6) + 1
    d3 = randint(S.rng, b, 6) + 1
    S.g[b, G_DICE] = d1 + 8 * d2 + 64 * d3
    if not opts[OPT_DICE]:
        return
    dealer = S.g[b, G_DEALER]
    one = base_chips(opts, 2)
    if d1 == d2 == d3:
        all_pay(S.p[b], dealer, one)
    elif d1 != d2 and d2 != d3 and d1 != d3 and d1 + d2 + d3 == 6:
        all_pay(S.p[b], dealer, -one)


@njit(cache=True)
def chase_side(S, b, opts):
    """追: the last four discards are one kind, one by each seat in turn order, none claimed: the
    first of the four pays each other seat 1 底 (honour) or 2 底 (suited)."""
    i = S.g[b, G_NRIVER] - 1
    if i < 3:
        return
    r = S.river[b]
    k = r[i, 0]
    for j in range(1, 4):
        if r[i - j, 0] != k or r[i - j, 2] >= 0 or r[i - j, 1] != (r[i, 1] - j) % 4:
            return
    first = r[i - 3, 1]
    all_pay(S.p[b], first, -base_chips(opts, 2 if k >= 27 else 4))
