"""Compiled predicates of the extras pack (EXTRAS.md section 2) and the optional MCR detectors (section 4).

``envs.scoring.core.score_hand`` calls these only when the profile names such an item
(``p_opts[PO_EXTRAS]``), so the base tables score at their old speed. Three entry points:

    hand_extras     items that do not depend on how the hand is read: kongs, 連槓開花, colours and
                    tile classes (綠一色, 五門齊, 清老頭, 混老頭, 九蓮寶燈, MCR tile detectors)
    reading_extras  items of one reading of the standard shape: five sets (melds first) and the eye
    special_extras  items of a special-shape reading (eight_pairs, 十三么, 十六不搭)

Families (EXTRAS.md 1.4, ``codes.FAMILIES``): every instance of a family's patterns in the reading is
listed with the sets it uses (a bit mask over the five sets); the scorer keeps the set-disjoint
choice of distinct items with the highest total of the profile's tai (two instances at most: each
uses two or more of the five sets). On equal totals the earlier-listed (larger) instance wins.
Concealed variants (``_concealed``) are instances whose sets are all concealed (in hand or ankong)
and not completed by the winning discard (``win_pos``).

Conventions as in ``core``: ``set_type`` CHI/PON/KONG/ADDKONG/ANKONG (decompositions give PON for a
concealed pon), ``set_kind`` the lowest kind, ``set_conc`` True for sets formed in hand and ankongs.
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.analysis import (
    SHAPE_EIGHT_PAIRS,
    SHAPE_SIXTEEN_UNRELATED,
    SHAPE_THIRTEEN_MIXED,
    SHAPE_THIRTEEN_PURE,
)
from envs.scoring import codes as C
from envs.scoring.profile import EX_MCR, PO_EXTRAS
from envs.tiles import ANKONG, CHI, DRAGON0, KONG, N_KINDS, WIND0

_I = C.ITEM_INDEX
EIGHT_PAIRS = _I["eight_pairs"]
PURE_13, MIXED_13 = _I["pure_thirteen_orphans"], _I["mixed_thirteen_orphans"]
SIXTEEN, UNREL_DRAGON, SIXTEEN_PURE, UNREL_SAME = (
    _I["sixteen_unrelated"], _I["unrelated_dragon"], _I["sixteen_unrelated_pure"], _I["unrelated_same"])  # fmt: skip
PURE_9G, MIXED_9G = _I["pure_nine_gates"], _I["mixed_nine_gates"]
KONGS3, KONGS4, KONGS5 = _I["three_kongs"], _I["four_kongs"], _I["five_kongs"]
CHAIN2, CHAIN3 = _I["kong_chain_2"], _I["kong_chain_3"]
ALL_TERM, MIXED_TERM, OUT_PURE, OUT_MIXED = _I["all_terminals"], _I["mixed_terminals"], _I["outside_pure"], _I["outside_mixed"]
ALL_GREEN, FIVE_GATES = _I["all_green"], _I["five_gates"]
FOUR_ID, TRIPLE_ID, DOUBLE_ID, IDENT = _I["four_identical_chows"], _I["pure_triple_chow"], _I["double_identical"], _I["identical_chows"]
STEP5, STEP4, STEP4C, STEP3, STEP3C = (
    _I["pure_five_step"], _I["pure_four_step"], _I["pure_four_step_concealed"], _I["pure_three_step"],
    _I["pure_three_step_concealed"])  # fmt: skip
PURE_STRAIGHT, MIXED_STRAIGHT = _I["pure_straight"], _I["mixed_straight"]
SUIT3_CHOWS, DOUBLE_SUIT2_CHOWS, SUIT2_CHOWS = _I["three_suit_chows"], _I["double_two_suit_chows"], _I["two_suit_chows"]
MIXED_STEP, MIXED_STEP_C = _I["mixed_three_step"], _I["mixed_three_step_concealed"]
SHIFT5, SHIFT4, SHIFT3, DOUBLE_SHIFT2, SHIFT2 = (
    _I["five_shifted_pungs"], _I["four_shifted_pungs"], _I["three_shifted_pungs"], _I["double_two_shifted_pungs"],
    _I["two_shifted_pungs"])  # fmt: skip
SUIT3_PUNGS, DOUBLE_SUIT2_PUNGS, SUIT2_PUNGS = _I["three_suit_pungs"], _I["double_two_suit_pungs"], _I["two_suit_pungs"]
MIXED_SHIFT, MIXED_SHIFT_C = _I["mixed_shifted_pungs"], _I["mixed_shifted_pungs_concealed"]
IN4, IN3, IN2 = _I["four_in_four"], _I["four_in_three"], _I["four_in_two"]
# MCR detectors
SEVEN_SHIFTED_PAIRS, PURE_TERM_CHOWS, ALL_EVEN_PUNGS = _I["seven_shifted_pairs"], _I["pure_terminal_chows"], _I["all_even_pungs"]
UPPER, MIDDLE, LOWER, UPPER4, LOWER4 = (
    _I["upper_tiles"], _I["middle_tiles"], _I["lower_tiles"], _I["upper_four"], _I["lower_four"])  # fmt: skip
SUIT3_TERM_CHOWS, ALL_FIVES, BIG3_WINDS = _I["three_suit_terminal_chows"], _I["all_fives"], _I["big_three_winds"]
REVERSIBLE, TWO_ANKONGS, TWO_KONGS_OPEN = _I["reversible_tiles"], _I["two_concealed_kongs"], _I["two_exposed_kongs"]
TWO_CONC, ANKONG_EACH, ALL_SIMPLES = _I["two_concealed"], _I["concealed_kong"], _I["all_simples"]
SHORT_STRAIGHT, TWO_TERM_CHOWS, TERM_PUNG = _I["short_straight"], _I["two_terminal_chows"], _I["terminal_pung"]
KONG_EACH, MISSING_SUIT, NO_HONOURS = _I["exposed_kong"], _I["missing_suit"], _I["no_honours"]
del _I

# Items set per reading: cleared before each reading so that nothing carries over between readings.
READING_ITEMS = np.array(
    [PURE_13, MIXED_13, SIXTEEN, UNREL_DRAGON, SIXTEEN_PURE, UNREL_SAME, OUT_PURE, OUT_MIXED,
     FOUR_ID, TRIPLE_ID, DOUBLE_ID, IDENT, STEP5, STEP4, STEP4C, STEP3, STEP3C, PURE_STRAIGHT, MIXED_STRAIGHT,
     SUIT3_CHOWS, DOUBLE_SUIT2_CHOWS, SUIT2_CHOWS, MIXED_STEP, MIXED_STEP_C,
     SHIFT5, SHIFT4, SHIFT3, DOUBLE_SHIFT2, SHIFT2, SUIT3_PUNGS, DOUBLE_SUIT2_PUNGS, SUIT2_PUNGS,
     MIXED_SHIFT, MIXED_SHIFT_C, IN4, IN3, IN2,
     SEVEN_SHIFTED_PAIRS, PURE_TERM_CHOWS, ALL_EVEN_PUNGS, SUIT3_TERM_CHOWS, ALL_FIVES, BIG3_WINDS, TWO_CONC,
     SHORT_STRAIGHT, TWO_TERM_CHOWS, TERM_PUNG],
    dtype=np.int64,
)  # fmt: skip

# Families as listed in the assignment (index into the instance arrays' family column).
F_SAME_CHOW, F_STEP, F_SHIFTED, F_SAME_PUNG, F_SAME_NUM_CHOW = 0, 1, 2, 3, 4
N_FAM = 5
MAX_INST = 128

GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s F
REVERSIBLE_KINDS = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33)  # 1234589p 245689s P
M147, M258, M369 = 0b001001001, 0b010010010, 0b100100100  # number masks (bit i = number i+1)


@njit(cache=True)
def _is_term(k):
    return k < WIND0 and (k % 9 == 0 or k % 9 == 8)


@njit(cache=True)
def _is_pon(t):
    return t != CHI


# ---------------------------------------------------------------------------------------------
# Items that do not depend on the reading


@njit(cache=True)
def _nine_gates(concealed, win_tile, meld_type, meld_kind, n_melds):
    """0, 1 (pure: the extra set is of the core's suit) or 2 (mixed): before the winning tile the hand
    holds 1112345678999 of one suit plus one complete set (in hand, or the one meld), and the winning
    tile is of that suit. Without a winning tile (heavenly), any tile of the suit may be read as it."""
    if n_melds > 1:
        return 0
    best = 0
    before = np.empty(N_KINDS, np.int64)
    for s in range(3):
        if concealed[9 * s] < 3 or concealed[9 * s + 8] < 3:
            continue  # no 111 / 999 of this suit
        for x in range(9 * s, 9 * s + 9):
            if win_tile >= 0 and x != win_tile:
                continue
            if concealed[x] == 0:
                continue
            ok = True
            n_rest = 0
            for k in range(N_KINDS):
                need = 0
                if 9 * s <= k < 9 * s + 9:
                    need = 3 if (k % 9 == 0 or k % 9 == 8) else 1
                before[k] = np.int64(concealed[k]) - (1 if k == x else 0) - need
                if before[k] < 0:
                    ok = False
                n_rest += before[k]
            if not ok:
                continue
            set_kind = -1
            if n_melds == 1:
                if n_rest != 0:
                    continue
                set_kind = meld_kind[0]
            else:
                if n_rest != 3:
                    continue
                for k in range(N_KINDS):
                    if before[k] == 3:
                        set_kind = k
                    elif before[k] == 1 and k < WIND0 and k % 9 <= 6 and before[k + 1] == 1 and before[k + 2] == 1:
                        set_kind = k
                    if before[k] > 0:
                        break
                if set_kind < 0:
                    continue
            code = 1 if (set_kind < WIND0 and set_kind // 9 == s) else 2
            if best == 0 or code < best:
                best = code
    return best


@njit(cache=True)
def hand_extras(v, concealed, all_counts, meld_type, meld_kind, n_melds, win_tile, win_by, flags, p_tai, p_opts):
    """The reading-independent extras items (and MCR tile detectors when the profile has any)."""
    # kongs: one item of the family, the best the profile values
    n_kongs = 0
    n_ankongs = 0
    for m in range(n_melds):
        if meld_type[m] >= KONG:
            n_kongs += 1
            n_ankongs += meld_type[m] == ANKONG
    best = -1
    pick = -1
    for it, need in ((KONGS5, 5), (KONGS4, 4), (KONGS3, 3)):
        if n_kongs >= need and p_tai[0, it] > best:
            best = p_tai[0, it]
            pick = it
    v[KONGS3] = pick == KONGS3
    v[KONGS4] = pick == KONGS4
    v[KONGS5] = pick == KONGS5
    # 連槓開花: consecutive replacement draws ending with the self-drawn winning tile
    repl = win_by == C.WIN_SELF_DRAW and (flags & (C.F_KONG_REPLACEMENT | C.F_FLOWER_REPLACEMENT)) != 0
    chain = (flags >> C.CHAIN_SHIFT) & C.CHAIN_MASK
    if repl and chain == 0:
        chain = 1
    v[CHAIN2] = repl and chain == 2
    v[CHAIN3] = repl and chain >= 3
    # tile classes
    n_suit = np.zeros(3, np.int64)  # tiles per suit
    n_tiles = 0
    n_hon = 0
    n_wind = 0
    n_drag = 0
    n_term = 0
    n_green = 0
    for k in range(N_KINDS):
        c = np.int64(all_counts[k])
        if c == 0:
            continue
        n_tiles += c
        if k < WIND0:
            n_suit[k // 9] += c
            if k % 9 == 0 or k % 9 == 8:
                n_term += c
        else:
            n_hon += c
            if k < DRAGON0:
                n_wind += c
            else:
                n_drag += c
        for g in GREEN:
            if k == g:
                n_green += c
    v[ALL_GREEN] = n_green == n_tiles
    v[FIVE_GATES] = n_suit[0] > 0 and n_suit[1] > 0 and n_suit[2] > 0 and n_wind > 0 and n_drag > 0
    v[ALL_TERM] = n_term == n_tiles
    v[MIXED_TERM] = n_term + n_hon == n_tiles and n_term > 0 and n_hon > 0
    ng = _nine_gates(concealed, win_tile, meld_type, meld_kind, n_melds)
    v[PURE_9G] = ng == 1
    v[MIXED_9G] = ng == 2
    if p_opts[PO_EXTRAS] & EX_MCR:
        _mcr_tile_items(v, all_counts, meld_type, n_melds, n_tiles, n_hon, n_term, n_suit, n_kongs, n_ankongs)


@njit(cache=True)
def _mcr_tile_items(v, all_counts, meld_type, n_melds, n_tiles, n_hon, n_term, n_suit, n_kongs, n_ankongs):
    lo = 9
    hi = -1
    for k in range(WIND0):
        if all_counts[k] > 0:
            lo = min(lo, k % 9)
            hi = max(hi, k % 9)
    suited_only = n_hon == 0 and n_tiles > 0
    v[UPPER] = suited_only and lo >= 6
    v[MIDDLE] = suited_only and lo >= 3 and hi <= 5
    v[LOWER] = suited_only and hi <= 2
    v[UPPER4] = suited_only and lo >= 5
    v[LOWER4] = suited_only and hi <= 3
    rev = 0
    for k in REVERSIBLE_KINDS:
        rev += all_counts[k]
    v[REVERSIBLE] = rev == n_tiles
    v[ALL_SIMPLES] = n_hon == 0 and n_term == 0
    v[NO_HONOURS] = n_hon == 0
    v[MISSING_SUIT] = (n_suit[0] > 0) + (n_suit[1] > 0) + (n_suit[2] > 0) == 2
    v[ANKONG_EACH] = n_ankongs
    v[KONG_EACH] = n_kongs - n_ankongs
    v[TWO_ANKONGS] = n_ankongs >= 2
    v[TWO_KONGS_OPEN] = n_kongs - n_ankongs >= 2


# ---------------------------------------------------------------------------------------------
# Families: instances and the best assignment


@njit(cache=True)
def _add(inst, n, fam, item, mask):
    if n < MAX_INST:
        inst[n, 0] = fam
        inst[n, 1] = item
        inst[n, 2] = mask
    return n + 1


@njit(cache=True)
def _assign(v, inst, n, p_tai):
    """For each family, the set-disjoint choice of at most two instances of distinct items with the
    highest total tai; the chosen items get v = 1."""
    for f in range(N_FAM):
        best = 0
        bi = -1
        bj = -1
        for i in range(n):
            if inst[i, 0] != f:
                continue
            ti = p_tai[0, inst[i, 1]]
            if ti < 0:
                continue
            if ti > best:
                best = ti
                bi = i
                bj = -1
            for j in range(i + 1, n):
                if inst[j, 0] != f or inst[j, 1] == inst[i, 1] or (inst[i, 2] & inst[j, 2]) != 0:
                    continue
                tj = p_tai[0, inst[j, 1]]
                if tj >= 0 and ti + tj > best:
                    best = ti + tj
                    bi = i
                    bj = j
        if bi >= 0:
            v[inst[bi, 1]] = 1
        if bj >= 0:
            v[inst[bj, 1]] = 1


@njit(cache=True)
def sort_small(a, n):
    """Insertion sort of ``a[:n]`` in place (n <= 5: the sets of one hand)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _pairing_ok(a, kind_pred):
    """Can the four sorted kinds ``a`` be split into two pairs that both satisfy ``kind_pred``
    (0 identical chows of two different chows, 1 same number in two suits, 2 same suit consecutive)?"""
    for p in range(3):
        if p == 0:
            x0, x1, y0, y1 = a[0], a[1], a[2], a[3]
        elif p == 1:
            x0, x1, y0, y1 = a[0], a[2], a[1], a[3]
        else:
            x0, x1, y0, y1 = a[0], a[3], a[1], a[2]
        if kind_pred == 0:
            ok = x0 == x1 and y0 == y1 and x0 != y0
        elif kind_pred == 1:
            ok = x0 % 9 == x1 % 9 and x0 // 9 != x1 // 9 and y0 % 9 == y1 % 9 and y0 // 9 != y1 // 9
        else:
            ok = x0 // 9 == x1 // 9 and abs(x1 - x0) == 1 and y0 // 9 == y1 // 9 and abs(y1 - y0) == 1
        if ok:
            return True
    return False


@njit(cache=True)
def _distinct_suits3(a):
    return a[0] // 9 != a[1] // 9 and a[0] // 9 != a[2] // 9 and a[1] // 9 != a[2] // 9


@njit(cache=True)
def _nums_sorted3(a):
    """The numbers (0-8) of the three kinds ``a[:3]``, ascending."""
    return sorted3(a[0] % 9, a[1] % 9, a[2] % 9)


@njit(cache=True)
def sorted3(x, y, z):
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
    if x > y:
        x, y = y, x
    return x, y, z


# ---------------------------------------------------------------------------------------------
# One reading of the standard shape


@njit(cache=True)
def reading_extras(v, set_type, set_kind, set_conc, pair, win_pos, seat_wind, round_wind, all_counts, p_tai, p_opts):
    """Extras items of one reading: five sets (melds first) and the eye ``pair``; ``win_pos`` is the
    set holding the winning discard (-1: the eye, or not a discard)."""
    for it in READING_ITEMS:
        v[it] = 0
    chow_mask = 0
    pon_mask = 0  # pons and kongs of suited tiles
    conc_mask = 0  # sets concealed in the sense of the _concealed variants
    for i in range(5):
        if set_type[i] == CHI:
            chow_mask |= 1 << i
        elif set_kind[i] < WIND0:
            pon_mask |= 1 << i
        if set_conc[i] and i != win_pos:
            conc_mask |= 1 << i
    inst = np.empty((MAX_INST, 3), np.int64)
    n = 0
    a = np.empty(5, np.int64)
    # chow patterns: every subset of the chows
    sub = chow_mask
    while sub:
        m = 0
        for i in range(5):
            if sub >> i & 1:
                a[m] = set_kind[i]
                m += 1
        sort_small(a, m)
        conc = (sub & conc_mask) == sub
        same_suit = a[0] // 9 == a[m - 1] // 9
        if m >= 2:
            ident = True
            for i in range(1, m):
                ident = ident and a[i] == a[0]
            if ident:
                it = IDENT if m == 2 else (TRIPLE_ID if m == 3 else (FOUR_ID if m == 4 else -1))
                if it >= 0:
                    n = _add(inst, n, F_SAME_CHOW, it, sub)
        if m >= 3 and same_suit:
            d = a[1] - a[0]
            step = d == 1 or (d == 2 and m <= 4)
            for i in range(2, m):
                step = step and a[i] - a[i - 1] == d
            if step:
                if m == 5:
                    n = _add(inst, n, F_STEP, STEP5, sub)
                elif m == 4:
                    if conc:
                        n = _add(inst, n, F_STEP, STEP4C, sub)
                    n = _add(inst, n, F_STEP, STEP4, sub)
                else:
                    if conc:
                        n = _add(inst, n, F_STEP, STEP3C, sub)
                    n = _add(inst, n, F_STEP, STEP3, sub)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            n = _add(inst, n, F_SAME_NUM_CHOW, SUIT2_CHOWS, sub)
        if m == 3:
            if _distinct_suits3(a):
                x0, x1, x2 = _nums_sorted3(a)
                if x0 == x1 and x1 == x2:
                    n = _add(inst, n, F_SAME_NUM_CHOW, SUIT3_CHOWS, sub)
                if x1 == x0 + 1 and x2 == x1 + 1:
                    v[MIXED_STEP] = 1
                    if conc:
                        v[MIXED_STEP_C] = 1
                if x0 == 0 and x1 == 3 and x2 == 6:
                    v[MIXED_STRAIGHT] = 1
            elif same_suit and a[0] % 9 == 0 and a[1] % 9 == 3 and a[2] % 9 == 6:
                v[PURE_STRAIGHT] = 1
        if m == 4:
            if _pairing_ok(a, 0):
                n = _add(inst, n, F_SAME_CHOW, DOUBLE_ID, sub)
            if _pairing_ok(a, 1):
                n = _add(inst, n, F_SAME_NUM_CHOW, DOUBLE_SUIT2_CHOWS, sub)
        sub = (sub - 1) & chow_mask
    # pon patterns: every subset of the suited pons and kongs
    sub = pon_mask
    while sub:
        m = 0
        for i in range(5):
            if sub >> i & 1:
                a[m] = set_kind[i]
                m += 1
        sort_small(a, m)
        conc = (sub & conc_mask) == sub
        if m >= 2 and a[0] // 9 == a[m - 1] // 9:
            shifted = True
            for i in range(1, m):
                shifted = shifted and a[i] - a[i - 1] == 1
            if shifted:
                it = SHIFT2 if m == 2 else (SHIFT3 if m == 3 else (SHIFT4 if m == 4 else SHIFT5))
                n = _add(inst, n, F_SHIFTED, it, sub)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            n = _add(inst, n, F_SAME_PUNG, SUIT2_PUNGS, sub)
        if m == 3 and _distinct_suits3(a):
            x0, x1, x2 = _nums_sorted3(a)
            if x0 == x1 and x1 == x2:
                n = _add(inst, n, F_SAME_PUNG, SUIT3_PUNGS, sub)
            if x1 == x0 + 1 and x2 == x1 + 1:
                v[MIXED_SHIFT] = 1
                if conc:
                    v[MIXED_SHIFT_C] = 1
        if m == 4:
            if _pairing_ok(a, 2):
                n = _add(inst, n, F_SHIFTED, DOUBLE_SHIFT2, sub)
            if _pairing_ok(a, 1):
                n = _add(inst, n, F_SAME_PUNG, DOUBLE_SUIT2_PUNGS, sub)
        sub = (sub - 1) & pon_mask
    _assign(v, inst, min(n, MAX_INST), p_tai)

    # 全帶么九 / 混全帶么九: every group (the five sets and the eye) holds a 1, 9 or honour
    all_out = True
    all_term = True
    for i in range(5):
        k = set_kind[i]
        if set_type[i] == CHI:
            t = k % 9 == 0 or k % 9 == 6
            all_out = all_out and t
            all_term = all_term and t
        else:
            all_out = all_out and (k >= WIND0 or _is_term(k))
            all_term = all_term and _is_term(k)
    all_out = all_out and (pair >= WIND0 or _is_term(pair))
    all_term = all_term and _is_term(pair)
    _outside(v, all_out, all_term, all_counts)

    # 四歸: a kind whose four tiles lie in two, three or four groups (never in a kong)
    for k in range(WIND0):
        if all_counts[k] != 4:
            continue
        groups = 1 if pair == k else 0
        in_kong = False
        for i in range(5):
            t = set_type[i]
            sk = set_kind[i]
            if t == CHI:
                groups += 1 if (sk <= k <= sk + 2 and sk // 9 == k // 9) else 0
            elif sk == k:
                groups += 1
                in_kong = in_kong or t >= KONG
        if in_kong:
            continue
        if groups == 4:
            v[IN4] += 1
        elif groups == 3:
            v[IN3] += 1
        elif groups == 2:
            v[IN2] += 1

    if p_opts[PO_EXTRAS] & EX_MCR:
        _mcr_reading(v, set_type, set_kind, set_conc, pair, win_pos, seat_wind, round_wind)


@njit(cache=True)
def _outside(v, all_out, all_term, all_counts):
    n_hon = 0
    n_suited = 0
    for k in range(N_KINDS):
        if k < WIND0:
            n_suited += all_counts[k]
        else:
            n_hon += all_counts[k]
    v[OUT_PURE] = all_term and n_hon == 0
    v[OUT_MIXED] = all_out and n_hon > 0 and n_suited > 0


@njit(cache=True)
def _mcr_reading(v, set_type, set_kind, set_conc, pair, win_pos, seat_wind, round_wind):
    n123 = np.zeros(3, np.int64)  # chows 123 / 789 per suit
    n789 = np.zeros(3, np.int64)
    chow_starts = np.zeros(3, np.int64)  # bit mask of chow start numbers per suit
    even = pair < WIND0 and (pair % 9) % 2 == 1  # numbers 2/4/6/8 are k % 9 = 1/3/5/7
    fives = pair < WIND0 and pair % 9 == 4
    winds = 0
    conc_pons = 0
    term_pungs = 0
    for i in range(5):
        k = set_kind[i]
        if set_type[i] == CHI:
            s = k // 9
            chow_starts[s] |= 1 << (k % 9)
            n123[s] += k % 9 == 0
            n789[s] += k % 9 == 6
            even = False
            fives = fives and 2 <= k % 9 <= 4
            continue
        if set_conc[i] and i != win_pos:
            conc_pons += 1
        if k >= WIND0:
            even = False
            fives = False
            if k < DRAGON0:
                winds += 1
                if k != WIND0 + seat_wind and k != WIND0 + round_wind:
                    term_pungs += 1
        else:
            even = even and (k % 9) % 2 == 1
            fives = fives and k % 9 == 4
            term_pungs += _is_term(k)
    v[ALL_EVEN_PUNGS] = even
    v[ALL_FIVES] = fives
    v[BIG3_WINDS] = winds >= 3
    v[TWO_CONC] = conc_pons >= 2
    v[TERM_PUNG] = term_pungs
    short = False
    old_young = False
    for s in range(3):
        for x in range(4):
            short = short or ((chow_starts[s] >> x) & 1 and (chow_starts[s] >> (x + 3)) & 1)
        old_young = old_young or (n123[s] > 0 and n789[s] > 0)
    v[SHORT_STRAIGHT] = short
    v[TWO_TERM_CHOWS] = old_young
    if pair < WIND0 and pair % 9 == 4:
        ps = pair // 9
        v[PURE_TERM_CHOWS] = n123[ps] >= 2 and n789[ps] >= 2
        both = 0
        for s in range(3):
            if s != ps and n123[s] >= 1 and n789[s] >= 1:
                both += 1
        v[SUIT3_TERM_CHOWS] = both == 2


# ---------------------------------------------------------------------------------------------
# Special shapes


@njit(cache=True)
def special_extras(v, shape, concealed, parts, suits, all_counts, seat_wind, round_wind, p_opts):
    """Extras items of a special-shape reading: ``shape`` is the SHAPE_* bit, ``parts`` the 十三么's
    (eye, set type, set kind) and ``suits`` the 十六不搭's number masks per suit. Groups are each pair,
    triplet and lone tile (and the 十三么's set)."""
    for it in READING_ITEMS:
        v[it] = 0
    if shape == SHAPE_THIRTEEN_PURE:
        v[PURE_13] = 1
    elif shape == SHAPE_THIRTEEN_MIXED:
        v[MIXED_13] = 1
    elif shape == SHAPE_SIXTEEN_UNRELATED:
        v[SIXTEEN] = 1
        a, b, c = suits[0], suits[1], suits[2]
        v[SIXTEEN_PURE] = a == M147 and b == M258 and c == M369
        v[UNREL_DRAGON] = (a | b | c) == M147 | M258 | M369 and (a == M147 or a == M258 or a == M369) and (
            b == M147 or b == M258 or b == M369
        )
        v[UNREL_SAME] = a == b and b == c
    # groups: every kind held is a group (pairs, the triplet, lone tiles); the 十三么's set is one more
    all_out = True
    all_term = True
    for k in range(N_KINDS):
        if concealed[k] > 0:
            all_out = all_out and (k >= WIND0 or _is_term(k))
            all_term = all_term and _is_term(k)
    if shape == SHAPE_THIRTEEN_PURE or shape == SHAPE_THIRTEEN_MIXED:
        sk = parts[2]
        held = (sk >= WIND0 or _is_term(sk)) if parts[1] != CHI else (sk % 9 == 0 or sk % 9 == 6)
        all_out = held
        all_term = False
    _outside(v, all_out, all_term, all_counts)
    # 四歸二: two pairs of eight_pairs, or the 十三么's lone orphan and its pon
    for k in range(N_KINDS):
        if concealed[k] == 4:
            v[IN2] += 1
    if p_opts[PO_EXTRAS] & EX_MCR:
        if shape == SHAPE_EIGHT_PAIRS:  # 連七對: the seven pairs are seven consecutive numbers of one suit
            lo = -1
            n2 = 0
            ok = True
            for k in range(N_KINDS):
                if concealed[k] == 2:
                    if lo < 0:
                        lo = k
                    ok = ok and k < WIND0 and k // 9 == lo // 9 and k == lo + n2
                    n2 += 1
            v[SEVEN_SHIFTED_PAIRS] = ok and n2 == 7
        pk = -1  # the eight_pairs triplet or the 十三么's pon
        if shape == SHAPE_EIGHT_PAIRS:
            for k in range(N_KINDS):
                if concealed[k] == 3:
                    pk = k
        elif (shape == SHAPE_THIRTEEN_PURE or shape == SHAPE_THIRTEEN_MIXED) and parts[1] != CHI:
            pk = parts[2]
        if pk >= 0 and (_is_term(pk) or (WIND0 <= pk < DRAGON0 and pk != WIND0 + seat_wind and pk != WIND0 + round_wind)):
            v[TERM_PUNG] = 1
