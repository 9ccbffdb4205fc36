"""The 拉 ledger (HONGKONG.md 5.2, 5.3): open debts between players across the hands of a game.

``la[d, c]`` is the open debt R of player ``d`` to player ``c`` (0: none; at most one direction per
pair), ``la_k[d, c]`` its count k. Amounts are in any linear unit (the engine keeps chips); R stays
exact (a float64 holds R = 1.5 R + v exactly while the amounts stay below 2**53 halves). Every
payment is rounded on its own to a whole unit, halves up. ``paid`` (int64[4]) receives what is paid
now, zero-sum. The functions take one game's arrays, so a test can drive them row by row; they run
in the native core (native/src/ledger.cpp):

    pay_rounded(paid, d, c, amount)   d pays c the amount rounded to a whole unit, halves up
    la_close(la, la_k, d, c, paid)    the debtor pays the open debt d -> c in full (rule 3, a cut,
                                      the end of the game)
    la_close_all(la, la_k, paid)      every open debt paid in full
    la_pair(la, la_k, x, y, v, paid)  rules 1-4 for the pair x, y given this hand's net leg x -> y
                                      of v (negative: y -> x); True when rule 1 (拉) advanced k
    la_hand(la, la_k, legs, cut_every, ask, paid)   one hand with legs (legs[x, y]: amount x owes
                                      y); 三局斬拉: a debt whose k reached a multiple of cut_every
                                      (0: never) is paid at once, or, with ask, returned as bit
                                      4d + c of the result for the debtor to decide
"""

from __future__ import annotations

from envs._core import la_close, la_close_all, la_hand, la_pair, pay_rounded

__all__ = ["la_close", "la_close_all", "la_hand", "la_pair", "pay_rounded"]
