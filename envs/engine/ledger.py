"""The 拉 ledger (HONGKONG.md 5.2, 5.3): open debts between players across the hands of a game.

``la[d, c]`` is the open debt R of player ``d`` to player ``c`` (0: none; at most one direction per
pair), ``la_k[d, c]`` its count k. Amounts are in any linear unit (the engine keeps chips); R stays
exact (a float64 holds R = 1.5 R + v exactly while the amounts stay below 2**53 halves). Every
payment is rounded on its own to a whole unit, halves up. ``paid`` (int64[4]) receives what is paid
now, zero-sum. The functions take one game's arrays, so a test can drive them row by row.
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit


@njit(cache=True)
def pay_rounded(paid, d, c, amount):
    """``d`` pays ``c`` the amount rounded to a whole unit, halves up."""
    a = np.int64(np.floor(amount + 0.5))
    paid[d] -= a
    paid[c] += a


@njit(cache=True)
def la_close(la, la_k, d, c, paid):
    """The debtor pays the open debt ``d -> c`` in full (rule 3, a cut, the end of the game)."""
    pay_rounded(paid, d, c, la[d, c])
    la[d, c] = 0.0
    la_k[d, c] = 0


@njit(cache=True)
def la_close_all(la, la_k, paid):
    for d in range(4):
        for c in range(4):
            if la_k[d, c] > 0:
                la_close(la, la_k, d, c, paid)


@njit(cache=True)
def la_pair(la, la_k, x, y, v, paid):
    """Rules 1-4 for the pair x, y given this hand's net leg x -> y of ``v`` (negative: y -> x).
    Returns True when rule 1 (拉) advanced the debt's k."""
    if v < 0:
        x, y, v = y, x, -v
    if la_k[x, y] > 0 and v > 0:  # 1. 拉: the debtor pays again on top
        la[x, y] = 1.5 * la[x, y] + v
        la_k[x, y] += 1
        return True
    if la_k[y, x] > 0:
        if v > 0:  # 2. 踢半: the creditor pays the debtor; half the debt is paid, a new debt opens
            pay_rounded(paid, y, x, la[y, x] / 2.0)
            la[y, x] = 0.0
            la_k[y, x] = 0
            la[x, y] = v
            la_k[x, y] = 1
        else:  # 3. no leg between them this hand: paid in full
            la_close(la, la_k, y, x, paid)
        return False
    if la_k[x, y] > 0:  # 3. (the debt runs x -> y, no leg this hand)
        la_close(la, la_k, x, y, paid)
    elif v > 0:  # 4. new debt
        la[x, y] = v
        la_k[x, y] = 1
    return False


@njit(cache=True)
def la_hand(la, la_k, legs, cut_every, ask, paid):
    """Apply one hand with legs (``legs[x, y]``: amount x owes y this hand, several legs of a pair
    summed). 三局斬拉: a debt whose k reached a multiple of ``cut_every`` (0: never) is paid at once,
    or, with ``ask``, returned as bit 4d + c of the result for the debtor to decide."""
    asks = 0
    for x in range(4):
        for y in range(x + 1, 4):
            if la_pair(la, la_k, x, y, legs[x, y] - legs[y, x], paid) and cut_every > 0:
                d, c = (x, y) if la_k[x, y] > 0 else (y, x)
                if la_k[d, c] % cut_every == 0:
                    if ask:
                        asks |= 1 << (4 * d + c)
                    else:
                        la_close(la, la_k, d, c, paid)
    return asks
