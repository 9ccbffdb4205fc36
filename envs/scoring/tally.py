"""Shared by the scoring core and the hongkong scorer: the profile applied to item multiplicities
(replacements, reductions, the tie rule of RULES.md 3) and the dealer tai of a payment leg."""

from __future__ import annotations

from numba import njit

from envs.rules import OPT_STREAK_CAP
from envs.scoring import codes as C

N_ITEMS = C.N_ITEMS
FLOWER_SET, SEAT_FLOWER = C.ITEM_INDEX["flower_set"], C.ITEM_INDEX["seat_flower"]


# ---------------------------------------------------------------------------------------------
# The profile applied: exclusions, reductions, the tie rule
@njit(cache=True)
def apply_profile(v, p_tai, p_repl, out, kept):
    """Tai per item into ``out`` (and which items count into ``kept``) from multiplicities ``v``;
    returns the total. Only the profile's own items are visited (``p_tai[3]``, in table order), so a
    longer item registry does not slow a short table down; entries of other items are left as they
    are (callers pass zeroed arrays)."""
    total = 0
    for r_i in range(N_ITEMS):
        i = p_tai[3, r_i]
        if i < 0:
            break
        out[i] = 0
        kept[i] = False
        if v[i] <= 0:
            continue
        tai = p_tai[0, i]
        dropped = False
        for r_j in range(N_ITEMS):
            j = p_tai[3, r_j]
            if j < 0:
                break
            if j == i or v[j] <= 0:
                continue
            r = p_repl[j, i]
            if r == 1 and not (j == FLOWER_SET and i == SEAT_FLOWER):
                dropped = True
                break
            if r == 2:
                tai = p_tai[1, i]
        if not dropped:
            kept[i] = True
            out[i] = tai * v[i]
            total += out[i]
    return total


@njit(cache=True)
def _comes_first(kept_a, kept_b, p_tai):
    """Tie rule (RULES.md 3): does item list ``a`` come first in table order? Compared position by
    position by rank; a list that runs out first comes first.

    Walking the table in order: at the first item held by one list only, the list holding it comes
    first if the other list still has a later item (it is larger at that position), and otherwise the
    other list comes first (it ran out)."""
    first_a = -1  # which list holds the first differing item: 1 a, 0 b
    for r in range(N_ITEMS):
        i = p_tai[3, r]
        if i < 0:
            break
        if first_a < 0:
            if kept_a[i] != kept_b[i]:
                first_a = 1 if kept_a[i] else 0
        elif (first_a == 1 and kept_b[i]) or (first_a == 0 and kept_a[i]):
            return first_a == 1
    return first_a == 0


@njit(cache=True)
def _consider(v, p_tai, p_repl, tmp, tmp_kept, best, best_kept, best_total):
    """Score reading ``v``; if it beats the best so far, copy it over. Returns the new best total."""
    total = apply_profile(v, p_tai, p_repl, tmp, tmp_kept)
    if total > best_total or (total == best_total and _comes_first(tmp_kept, best_kept, p_tai)):
        for r in range(N_ITEMS):  # the profile's items; the others stay 0
            i = p_tai[3, r]
            if i < 0:
                break
            best[i] = tmp[i]
            best_kept[i] = tmp_kept[i]
        return total
    return best_total


# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def dealer_tai(streak, opts):
    """莊家 1 + 連莊拉莊 2N, N capped by ``streak_cap``."""
    cap = opts[OPT_STREAK_CAP]
    n = streak if cap < 0 else min(streak, cap)
    return 1 + 2 * n
