"""hongkong items of one reading (HONGKONG.md 2.3-2.6, 3): winds and dragons, 暗刻, families, 步步高 /
龍, 老少, waits seen in the reading, 四歸, 大五門齊, 滿庭芳, 全帶么, the dual reading and the special shapes."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.analysis import SHAPE_EIGHT_PAIRS, SHAPE_SIXTEEN_UNRELATED, SHAPE_THIRTEEN
from envs.scoring.extras import sorted3
from envs.scoring.hk_families import _families
from envs.scoring.hk_items import (
    ALL_CHOWS,
    ALL_HONOURS,
    ALL_PUNGS,
    BIG3W,
    BIG_ALL_CHOWS,
    BIG_DRAGONS,
    BIG_FIVE_GATES,
    BIG_WINDS,
    CONC2,
    CONC3,
    CONC4,
    CONC5,
    CONC_ALL,
    DRAGON,
    EIGHT_PAIRS,
    EIGHT_PAIRS_8,
    FALSE_SINGLE,
    H_ALL13,
    H_EP8,
    H_NOFL,
    H_NOHON,
    H_NW,
    H_TP,
    H_WA,
    H_WB,
    IN2,
    IN3,
    IN4,
    M147,
    M258,
    M369,
    OLD_YOUNG,
    OTHER_WIND,
    OUT_MIXED,
    OUT_PURE,
    PAIR_258,
    PATTERN_CONC,
    PATTERN_OPEN,
    READING_ITEMS,
    SAME_NUMBER,
    SIXTEEN,
    SMALL3W,
    SMALL_DRAGONS,
    SMALL_WINDS,
    SR_WIND,
    THIRTEEN,
    THIRTEEN_13,
    TWO_PAIR_WAIT,
    UNREL_DRAGON,
    UNREL_SAME,
)
from envs.scoring.profile import PO_COUNT_METHOD, PO_DUAL_READING
from envs.tiles import ANKONG, CHI, DRAGON0, KONG, N_KINDS, PON, WIND0


# ---------------------------------------------------------------------------------------------
# One reading
@njit(cache=True)
def _patterns(v, st, sk, conc, n, mode):
    """步步高 and 龍 (明 / 暗: 2.4) over every three chows; 老少."""
    occ = np.zeros(8, np.int64)  # open / concealed occurrences: mixed shifted, pure shifted, mixed, pure straight
    for i in range(n):
        if st[i] != CHI:
            continue
        for j in range(i + 1, n):
            if st[j] != CHI:
                continue
            for k in range(j + 1, n):
                if st[k] != CHI:
                    continue
                c = 1 if (conc[i] and conc[j] and conc[k]) else 0
                si, sj, sk_ = sk[i] // 9, sk[j] // 9, sk[k] // 9
                x, y, z = sorted3(sk[i] % 9, sk[j] % 9, sk[k] % 9)
                step = y == x + 1 and z == y + 1
                dragon = x == 0 and y == 3 and z == 6
                if si != sj and sj != sk_ and si != sk_:
                    occ[0 + c] += step
                    occ[4 + c] += dragon
                elif si == sj and sj == sk_:
                    occ[2 + c] += step
                    occ[6 + c] += dragon
    for p in range(4):
        open_item = PATTERN_OPEN[p]
        conc_item = PATTERN_CONC[p]
        o = occ[2 * p]
        c = occ[2 * p + 1]
        if mode == 1:  # one occurrence, the concealed one when there is one
            v[conc_item] = c > 0
            v[open_item] = c == 0 and o > 0
        else:
            v[conc_item] = c
            v[open_item] = o
    # 老少: 123 + 789 chows, or 111 + 999 pons, of one suit
    total = 0
    for s in range(3):
        c1 = 0
        c7 = 0
        p1 = 0
        p9 = 0
        for i in range(n):
            if sk[i] // 9 != s or sk[i] >= WIND0:
                continue
            if st[i] == CHI:
                c1 += sk[i] % 9 == 0
                c7 += sk[i] % 9 == 6
            else:
                p1 += sk[i] % 9 == 0
                p9 += sk[i] % 9 == 8
        total += (min(c1, c7) if mode == 1 else c1 * c7) + p1 * p9
    v[OLD_YOUNG] = total


@njit(cache=True)
def _reading(v, st, sk, sc, n, n_melds, pair, disc_pos, win_pos, win_tile, shape, seat_wind, round_wind,
             all_counts, hc, buf, p_tai, p_opts):  # fmt: skip
    """Items of one reading: ``n`` sets (melds first) and the eye ``pair`` (-1: none); ``disc_pos`` the
    set completed by a winning discard (-1 the eye, -2 none), ``win_pos`` the set (or eye, -1) the
    winning tile completes (-2: no placement); ``shape`` 0 for five sets and a pair, else SHAPE_*."""
    for it in READING_ITEMS:
        v[it] = 0
    mode = p_opts[PO_COUNT_METHOD]
    conc = np.zeros(5, np.bool_)
    winds = 0
    dragons = 0
    sr = 0
    pons = 0
    chis = 0
    for i in range(n):
        conc[i] = sc[i] and i != disc_pos
        k = sk[i]
        if st[i] == CHI:
            chis += 1
            continue
        pons += 1
        if k >= DRAGON0:
            dragons += 1
        elif k >= WIND0:
            winds += 1
            sr += k == WIND0 + seat_wind or k == WIND0 + round_wind
    v[SR_WIND] = sr
    v[OTHER_WIND] = winds - sr
    v[DRAGON] = dragons
    eye_wind = WIND0 <= pair < DRAGON0
    v[SMALL3W] = winds == 2 and eye_wind
    v[BIG3W] = winds >= 3
    v[SMALL_WINDS] = winds == 3 and eye_wind
    v[BIG_WINDS] = winds == 4
    v[SMALL_DRAGONS] = dragons == 2 and pair >= DRAGON0
    v[BIG_DRAGONS] = dragons == 3
    v[PAIR_258] = 0 <= pair < WIND0 and pair % 9 % 3 == 1

    # views of the dual reading (2.3): pons for 暗刻 / 姊妹, chows for 般高
    pv_pon = np.zeros(5, np.bool_)
    pv_kind = np.zeros(5, np.int64)
    pv_conc = np.zeros(5, np.bool_)
    cv_chow = np.zeros(5, np.bool_)
    cv_kind = np.zeros(5, np.int64)
    for i in range(n):
        pv_pon[i] = st[i] != CHI
        pv_kind[i] = sk[i]
        pv_conc[i] = conc[i]
        cv_chow[i] = st[i] == CHI
        cv_kind[i] = sk[i]
    if p_opts[PO_DUAL_READING] != 0 and shape == 0:
        _dual(st, sk, conc, n, n_melds, pv_pon, pv_kind, pv_conc, cv_chow, cv_kind)
    c = 0
    ank = 0
    for i in range(n):
        if pv_pon[i] and pv_conc[i]:
            c += 1
            ank += st[i] == ANKONG
    v[CONC2] = c == 2
    v[CONC3] = c == 3
    v[CONC4] = c == 4
    v[CONC5] = c == 5 and ank > 0
    v[CONC_ALL] = c == 5 and ank == 0
    a = np.zeros(5, np.int64)
    _families(v, st, sk, pv_pon, pv_kind, cv_chow, cv_kind, n, pair, buf, a, p_tai, mode)
    if shape != 0:
        return
    _patterns(v, st, sk, conc, n, mode)
    v[ALL_PUNGS] = pons == 5
    v[ALL_CHOWS] = chis == 5
    v[BIG_ALL_CHOWS] = chis == 5 and hc[H_NOHON] != 0 and hc[H_NOFL] != 0
    # waits seen in this reading (standard shape only)
    if win_pos >= -1 and hc[H_NW] >= 2:
        fs = win_pos == -1
        if win_pos >= 0 and st[win_pos] == CHI:
            k = sk[win_pos]
            fs = win_tile == k + 1 or (k % 9 == 0 and win_tile == k + 2) or (k % 9 == 6 and win_tile == k)
        v[FALSE_SINGLE] = fs
    if hc[H_TP] != 0 and win_pos >= 0 and st[win_pos] != CHI and sk[win_pos] == win_tile:
        v[TWO_PAIR_WAIT] = pair == hc[H_WA] + hc[H_WB] - win_tile
    # 四歸: where the four tiles of a kind lie (never in a kong)
    for k in range(N_KINDS):
        if all_counts[k] != 4:
            continue
        groups = 1 if pair == k else 0
        in_kong = False
        for i in range(n):
            s = sk[i]
            if st[i] == CHI:
                groups += s <= k <= s + 2 and s // 9 == k // 9
            elif s == k:
                groups += 1
                in_kong = in_kong or st[i] >= KONG
        if not in_kong:
            v[IN2] += groups == 2
            v[IN3] += groups == 3
            v[IN4] += groups == 4
    # 大五門齊, 滿庭芳, 全帶么
    suit_sets = 0
    for i in range(n):
        if sk[i] < WIND0:
            suit_sets |= 1 << (sk[i] // 9)
    v[BIG_FIVE_GATES] = winds == 1 and dragons == 1 and suit_sets == 7
    x = pair % 9 if 0 <= pair < WIND0 else -1
    same = x >= 0
    out = pair >= WIND0 or pair % 9 == 0 or pair % 9 == 8
    term = pair < WIND0 and (pair % 9 == 0 or pair % 9 == 8)
    for i in range(n):
        k = sk[i]
        if st[i] == CHI:
            same = same and k % 9 <= x <= k % 9 + 2
            out = out and (k % 9 == 0 or k % 9 == 6)
            term = term and (k % 9 == 0 or k % 9 == 6)
        else:
            same = same and k < WIND0 and k % 9 == x
            out = out and (k >= WIND0 or k % 9 == 0 or k % 9 == 8)
            term = term and k < WIND0 and (k % 9 == 0 or k % 9 == 8)
    v[SAME_NUMBER] = same
    v[OUT_MIXED] = out and hc[H_NOHON] == 0 and v[ALL_HONOURS] == 0
    v[OUT_PURE] = term


@njit(cache=True)
def _dual(st, sk, conc, n, n_melds, pv_pon, pv_kind, pv_conc, cv_chow, cv_kind):
    """Nine concealed tiles n n n (n+1)x3 (n+2)x3 of one suit, no meld, none the winning discard: read
    as three pons in the pon view and as three identical chows in the chow view (HONGKONG.md 2.3)."""
    for i in range(n_melds, n):
        if not conc[i] or sk[i] >= WIND0:
            continue
        k = sk[i]
        if st[i] == CHI:
            idx = np.full(3, -1, np.int64)
            m = 0
            for j in range(n_melds, n):
                if conc[j] and st[j] == CHI and sk[j] == k and m < 3:
                    idx[m] = j
                    m += 1
            if m == 3:
                for d in range(3):
                    pv_pon[idx[d]] = True
                    pv_kind[idx[d]] = k + d
                    pv_conc[idx[d]] = True
                return
        elif k % 9 <= 6:
            idx = np.full(3, -1, np.int64)
            for j in range(n_melds, n):
                if conc[j] and st[j] == PON:
                    for d in range(3):
                        if sk[j] == k + d:
                            idx[d] = j
            if idx[0] >= 0 and idx[1] >= 0 and idx[2] >= 0:
                for d in range(3):
                    cv_chow[idx[d]] = True
                    cv_kind[idx[d]] = k
                return


@njit(cache=True)
def _special(v, shape, concealed, all_counts, parts, suits, hc):
    """Items of a special-shape reading beyond what ``_reading`` gave its one pon (or none)."""
    if shape == SHAPE_EIGHT_PAIRS:
        v[EIGHT_PAIRS] = 1
        v[EIGHT_PAIRS_8] = hc[H_EP8]
    elif shape == SHAPE_SIXTEEN_UNRELATED:
        v[SIXTEEN] = 1
        a, b, c = suits[0], suits[1], suits[2]
        v[UNREL_DRAGON] = (a | b | c) == M147 | M258 | M369 and (a == M147 or a == M258 or a == M369) and (
            b == M147 or b == M258 or b == M369)  # fmt: skip
        v[UNREL_SAME] = a == b and b == c
    else:
        v[THIRTEEN] = 1
        v[THIRTEEN_13] = hc[H_ALL13]
    # groups: every kind held (pairs, the triplet, lone tiles, the eye), and 十三么's set
    out = True
    term = True
    for k in range(N_KINDS):
        if concealed[k] > 0:
            t = k < WIND0 and (k % 9 == 0 or k % 9 == 8)
            out = out and (t or k >= WIND0)
            term = term and t
    if shape & SHAPE_THIRTEEN:
        sk = parts[2]
        out = sk >= WIND0 or sk % 9 == 0 or sk % 9 == 8 if parts[1] != CHI else (sk % 9 == 0 or sk % 9 == 6)
        term = False
    v[OUT_MIXED] = out and hc[H_NOHON] == 0 and v[ALL_HONOURS] == 0
    v[OUT_PURE] = term
    for k in range(N_KINDS):  # 四歸一: two pairs of 嚦咕嚦咕, or 十三么's lone tile and its pon
        v[IN2] += concealed[k] == 4


