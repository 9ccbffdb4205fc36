"""Shared by the scoring core and the hongkong scorer: the readings of a hand (its melds and every
decomposition of its concealed tiles), the profile applied to item multiplicities (replacements,
reductions, the tie rule of RULES.md 3) and the dealer tai of a payment leg."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.analysis import MAX_DECOMPOSITIONS, decompositions, is_complete, is_win, win_wait_mask
from envs.rules import OPT_STREAK_CAP
from envs.scoring import codes as C
from envs.tiles import ANKONG, CHI, N_KINDS, PON

N_ITEMS = C.N_ITEMS
FLOWER_SET, SEAT_FLOWER = C.ITEM_INDEX["flower_set"], C.ITEM_INDEX["seat_flower"]


# ---------------------------------------------------------------------------------------------
# Readings
@njit(cache=True)
def popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@njit(cache=True)
def hand_kind(concealed, n_sets, win_by, shapes):
    """What the concealed tiles (with the winning tile) are: 1 a winning hand; 0 a flower win without
    a complete hand (only its flower items count); -1 no win at all."""
    total = 0
    for k in range(N_KINDS):
        total += concealed[k]
    flower_win = win_by == C.WIN_FLOWERS
    if total == 3 * n_sets + 2:
        if is_win(concealed, n_sets, shapes):
            return 1
        return 0 if flower_win else -1
    return 0 if flower_win and total == 3 * n_sets + 1 else -1


@njit(cache=True)
def all_tiles(concealed, meld_type, meld_kind, n_melds):
    """Tiles per kind of the whole hand: the concealed ones and the melds' (a kong counts 4)."""
    counts = concealed.astype(np.int8)
    for m in range(n_melds):
        k = meld_kind[m]
        if meld_type[m] == CHI:
            counts[k] += 1
            counts[k + 1] += 1
            counts[k + 2] += 1
        else:
            counts[k] += 3 if meld_type[m] <= PON else 4
    return counts


@njit(cache=True)
def waits_before_win(concealed, all_counts, win_tile, n_sets, shapes, waits):
    """The kinds the hand waited on before its winning tile (into ``waits``); returns how many, and the
    concealed tiles before that tile."""
    before = concealed.copy()
    before[win_tile] -= 1
    held = all_counts.copy()
    held[win_tile] -= 1
    return win_wait_mask(before, n_sets, held, shapes, waits), before


@njit(cache=True)
def readings(concealed, n_sets, meld_type, meld_kind, n_melds):
    """The set arrays of a reading (type, kind, concealed; 5 sets) with the ``n_melds`` melds filled
    in, and every decomposition of the concealed tiles into a pair and ``n_sets`` sets
    (``dec[d] = pair, type_1, kind_1, ...``); returns ``(st, sk, sc, dec, n_dec)``."""
    st = np.zeros(5, dtype=np.int8)
    sk = np.zeros(5, dtype=np.int8)
    sc = np.zeros(5, dtype=np.bool_)
    for m in range(n_melds):
        st[m] = meld_type[m]
        sk[m] = meld_kind[m]
        sc[m] = meld_type[m] == ANKONG
    dec = np.empty((MAX_DECOMPOSITIONS, 1 + 2 * n_sets), dtype=np.int8)
    n_dec = decompositions(concealed, n_sets, dec) if is_complete(concealed, n_sets) else 0
    return st, sk, sc, dec, n_dec


@njit(cache=True)
def use_decomposition(dec, d, n_melds, n_sets, st, sk, sc):
    """Fill the concealed sets of decomposition ``d`` after the melds; returns its pair."""
    for s in range(n_sets):
        st[n_melds + s] = dec[d, 1 + 2 * s]
        sk[n_melds + s] = dec[d, 2 + 2 * s]
        sc[n_melds + s] = True
    return dec[d, 0]


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
