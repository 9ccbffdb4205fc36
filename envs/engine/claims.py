"""Who may claim the tile in question, and with what (RULES 2.5-2.8).

Claim options are computed once when the tile appears (a discard or an added kong) and kept per
seat in ``p[:, :, P_CLAIM]`` as C_* bits; the mask and the resolution both read them.

The functions run in the native core (native/src/claims.cpp). They take one game's rows
(``g = S.g[b]``, ``p = S.p[b]``, ``hands = S.hands[b]``) or one seat's counts ``h`` (34 int8):

    may_win(h, t, shapes)        cheap necessary condition for h (+ one t unless t < 0) to be a
                                 winning shape (standard shape, eight pairs; never rejects with
                                 十三么 / 十六不搭 enabled)
    wins_with(h, n_melds, t, p_opts)   would h plus one t be a winning shape?
    tiles_left(g, opts)          tiles that may still be drawn (the rest of the wall, less the dead wall)
    kong_allowed(g, opts)        a kong needs a drawable tile for its replacement
    chi_has_discard(h, t, lo, used1, used2, swap_ok)   after a chi using used1 / used2, is some
                                 discard left? (swap_call off: 食替 bans the claimed kind and the
                                 other end of the two used)
    claim_options(g, ps, h, s, d, t, opts, p_opts)     C_* bits of seat s on d's discard of t
    next_asked(g, p, after)      the next seat after ``after`` (towards the turn seat) to answer
    open_claims(g, p, hands, t, opts, p_opts)   every seat's options on the turn seat's discard;
                                 True if someone is asked (PH_CLAIM)
    open_rob(g, p, hands, k, ankong, p_opts)    who may rob a kong of k (win only; an ankong only
                                 as 十三么, hongkong); True if someone is asked (PH_ROB)
    clear_claims(p)              no seat is asked
"""

from __future__ import annotations

from envs._core import (
    chi_has_discard,
    claim_options,
    clear_claims,
    kong_allowed,
    may_win,
    next_asked,
    open_claims,
    open_rob,
    tiles_left,
    wins_with,
)

__all__ = [
    "chi_has_discard",
    "claim_options",
    "clear_claims",
    "kong_allowed",
    "may_win",
    "next_asked",
    "open_claims",
    "open_rob",
    "tiles_left",
    "wins_with",
]
