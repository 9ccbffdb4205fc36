"""hongkong scoring (HONGKONG.md sections 2, 3 and 5.1): the additive items, families, 計法 and legs.

``envs.scoring.core.score_hand`` hands a profile with ``p_opts[PO_HONGKONG]`` to :func:`hk_score`, with
its own arguments, so the engine and ``tw16 score`` call one function for every profile.

Interface for the engine (all compiled, ``envs.scoring.codes`` for the constants):

    flags  the int64 flag word of score_hand: F_* bits (F_DECLARED_READY, F_IPPATSU, F_ROB_KONG_CHAIN,
           F_ROBBED_ANKONG, F_HEAVENLY, F_LAST_TILE, F_KONG_REPLACEMENT, F_FLOWER_REPLACEMENT), the
           replacement chain at CHAIN_SHIFT, and (codes.hk_context_flags) the discards made in the hand
           (DISCARDS_SHIFT), the tiles in the pools (FLOOR_SHIFT), both stored + 1 with 0 = not known,
           and the number of seats winning on the same tile (CO_WIN_SHIFT).
    hk_score(...)  = score_hand(...) for a hongkong profile: hand tai (items into out_items) or -1.
    hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_leg_tai, out_leg_payer)
           the legs of one win (5.1), per seat p: out_leg_tai[p] the tai of p's leg (hand tai + the
           dealer tai on it) and out_leg_payer[p] the seat paying it (p, or ``liable`` under 全包); -1 in
           both for the winner and for a seat without a leg. Returns the number of legs.
    hk_settle(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_deltas)
           adds the legs paid in full to out_deltas (chips: base + per_tai x leg tai each).

``payer`` is the discarder, the konger robbed or the seat holding the eighth flower (七搶一), -1 when
all three pay (self-draw, eight_flowers); ``liable`` is -1 or the seat paying all three legs (全包).

Scoring: every decomposition and winning-tile placement is a reading, scored and the best kept (tie
rule of RULES.md 3); the special shapes are one more reading each; chicken hands (3.9) are judged on
the best reading. Inside a family (codes.HK_FAMILIES) the occurrences are chosen by :func:`_choose`:
計法1, set-disjoint and items not marked "each" once; 計法2, occurrences of one item may share sets,
and an occurrence lying on the sets of an occurrence of a larger member does not count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.hand.analysis import (
    MAX_DECOMPOSITIONS,
    SHAPE_EIGHT_PAIRS,
    SHAPE_SIXTEEN_UNRELATED,
    SHAPE_THIRTEEN,
    decompositions,
    is_complete,
    is_win,
    sixteen_unrelated_suits,
    special_shape,
    thirteen_orphans_parts,
    win_wait_mask,
)
from envs.rules import OPT_BASE, OPT_DEALER_PAYS_ON_SELF_DRAW, OPT_PER_TAI
from envs.scoring import codes as C
from envs.scoring.profile import PO_COUNT_METHOD, PO_DUAL_READING, PO_SHAPES
from envs.scoring.tally import _consider, apply_profile, dealer_tai
from envs.tiles import ADDKONG, ANKONG, CHI, DRAGON0, KONG, N_KINDS, PON, WIND0

N_ITEMS = C.N_ITEMS
_I = C.ITEM_INDEX
SELF_DRAW, CONCEALED, CONC_SELF_DRAW = _I["self_draw"], _I["concealed"], _I["concealed_self_draw"]
DECLARED_READY, IPPATSU, SINGLE_WAIT = _I["declared_ready"], _I["ippatsu"], _I["single_wait"]
FALSE_SINGLE, TWO_PAIR_WAIT, PAIR_258 = _I["false_single"], _I["two_pair_wait"], _I["pair_258"]
HALF_BEGGAR, FULL_BEGGAR = _I["half_beggar"], _I["full_beggar"]
NO_FLOWERS, SEAT_FLOWER, OTHER_FLOWER, FLOWER_SET = _I["no_flowers"], _I["seat_flower"], _I["other_flower"], _I["flower_set"]
EIGHT_FLOWERS, SEVEN_ROB_ONE = _I["eight_flowers"], _I["seven_rob_one"]
SR_WIND, OTHER_WIND, DRAGON = _I["seat_or_round_wind"], _I["other_wind"], _I["dragon"]
SMALL3W, BIG3W, SMALL_WINDS, BIG_WINDS = _I["small_three_winds"], _I["big_three_winds"], _I["small_winds"], _I["big_winds"]
SMALL_DRAGONS, BIG_DRAGONS, ALL_HONOURS = _I["small_dragons"], _I["big_dragons"], _I["all_honours"]
NO_HONOURS, NO_HON_NO_FL = _I["no_honours"], _I["no_honours_no_flowers"]
ALL_CHOWS, BIG_ALL_CHOWS = _I["all_chows"], _I["big_all_chows"]
DOUBLE, TWO_DOUBLE, TRIPLE, QUAD = _I["double_chow"], _I["two_double_chows"], _I["triple_chow"], _I["quadruple_chow"]
SUIT2, SUIT3 = _I["two_suit_chows"], _I["three_suit_chows"]
MSHIFT, MSHIFT_C, PSHIFT, PSHIFT_C = (
    _I["mixed_shifted_chows"], _I["mixed_shifted_chows_concealed"], _I["pure_shifted_chows"],
    _I["pure_shifted_chows_concealed"])  # fmt: skip
MSTRAIGHT, MSTRAIGHT_C, PSTRAIGHT, PSTRAIGHT_C = (
    _I["mixed_straight"], _I["mixed_straight_concealed"], _I["pure_straight"], _I["pure_straight_concealed"])  # fmt: skip
OLD_YOUNG, ALL_PUNGS, EXPOSED_KONG, CONC_KONG = _I["old_young"], _I["all_pungs"], _I["exposed_kong"], _I["concealed_kong"]
CONC2, CONC3, CONC4, CONC5, CONC_ALL = (
    _I["two_concealed"], _I["three_concealed"], _I["four_concealed"], _I["five_concealed"], _I["all_concealed_pungs"])  # fmt: skip
BRO2, BRO3S, BRO3 = _I["two_brothers"], _I["small_three_brothers"], _I["three_brothers"]
SIS2, SIS3S, SIS3, SIS4S, SIS4, SIS5S, SIS5 = (
    _I["two_sisters"], _I["small_three_sisters"], _I["three_sisters"], _I["small_four_sisters"], _I["four_sisters"],
    _I["small_five_sisters"], _I["five_sisters"])  # fmt: skip
IN2, IN3, IN4 = _I["four_in_two"], _I["four_in_three"], _I["four_in_four"]
MISSING_SUIT, FIVE_GATES, BIG_FIVE_GATES, SEVEN_GATES = (
    _I["missing_suit"], _I["five_gates"], _I["big_five_gates"], _I["seven_gates"])  # fmt: skip
SAME_NUMBER, HALF_FLUSH, FULL_FLUSH, ALL_SIMPLES = (
    _I["all_same_number"], _I["half_flush"], _I["full_flush"], _I["all_simples"])  # fmt: skip
OUT_MIXED, OUT_PURE, MIXED_TERM, PURE_TERM = (
    _I["outside_mixed"], _I["outside_pure"], _I["mixed_terminals"], _I["pure_terminals"])  # fmt: skip
THIRTEEN, THIRTEEN_13, SIXTEEN, UNREL_DRAGON, UNREL_SAME = (
    _I["thirteen_orphans"], _I["thirteen_orphans_13"], _I["sixteen_unrelated"], _I["unrelated_dragon"],
    _I["unrelated_same"])  # fmt: skip
EIGHT_PAIRS, EIGHT_PAIRS_8 = _I["eight_pairs"], _I["eight_pairs_8_wait"]
FLOWER_REPL, KONG_REPL, CHAIN_WIN = _I["flower_replacement_win"], _I["kong_replacement_win"], _I["replacement_chain_win"]
LAST_DRAW, ROB_KONG, ROB_KONG_CHAIN = _I["last_tile_draw"], _I["robbing_kong"], _I["robbing_kong_chain"]
DOUBLE_WIN, TRIPLE_WIN, TEN_WITHIN, SEVEN_WITHIN = (
    _I["double_win"], _I["triple_win"], _I["ten_within"], _I["seven_within"])  # fmt: skip
HUMAN, EARTHLY, HEAVENLY = _I["human_win"], _I["earthly_win"], _I["heavenly_win"]
BIG_CHICKEN, DUCK = _I["big_chicken"], _I["duck"]

# 步步高 / 龍 items, open and concealed (2.4), in the order _patterns counts them
PATTERN_OPEN = np.array([MSHIFT, PSHIFT, MSTRAIGHT, PSTRAIGHT], np.int64)
PATTERN_CONC = np.array([MSHIFT_C, PSHIFT_C, MSTRAIGHT_C, PSTRAIGHT_C], np.int64)
# Items that depend on the reading: cleared before each one.
READING_ITEMS = np.array(
    [FALSE_SINGLE, TWO_PAIR_WAIT, PAIR_258, SR_WIND, OTHER_WIND, DRAGON, SMALL3W, BIG3W, SMALL_WINDS, BIG_WINDS,
     SMALL_DRAGONS, BIG_DRAGONS, ALL_CHOWS, BIG_ALL_CHOWS, DOUBLE, TWO_DOUBLE, TRIPLE, QUAD, SUIT2, SUIT3,
     MSHIFT, MSHIFT_C, PSHIFT, PSHIFT_C, MSTRAIGHT, MSTRAIGHT_C, PSTRAIGHT, PSTRAIGHT_C, OLD_YOUNG, ALL_PUNGS,
     CONC2, CONC3, CONC4, CONC5, CONC_ALL, BRO2, BRO3S, BRO3, SIS2, SIS3S, SIS3, SIS4S, SIS4, SIS5S, SIS5,
     IN2, IN3, IN4, BIG_FIVE_GATES, SAME_NUMBER, OUT_MIXED, OUT_PURE, THIRTEEN, THIRTEEN_13, SIXTEEN,
     UNREL_DRAGON, UNREL_SAME, EIGHT_PAIRS, EIGHT_PAIRS_8],
    dtype=np.int64,
)  # fmt: skip

# Family order (codes.HK_FAMILIES): RANK[a] > RANK[b] in one family = a replaces b on the same sets.
RANK = np.zeros(N_ITEMS, np.int64)
for _fam in C.HK_FAMILIES:
    for _r, _k in enumerate(_fam):
        RANK[_I[_k]] = _r
RANK[TRIPLE] = RANK[TWO_DOUBLE]  # peers: neither replaces the other
RANK[QUAD] = RANK[TWO_DOUBLE] + 1
# Family items marked "each" (HONGKONG.md 3): every occurrence scores.
EACH = np.zeros(N_ITEMS, np.bool_)
for _k in ("two_suit_chows", "two_brothers", "two_sisters"):
    EACH[_I[_k]] = True
del _I

MAX_INST = 64  # occurrences of one family in one reading (five sets: at most 31 subsets)
EYE_BIT = 1 << 5  # the eye as a group in an occurrence's set mask
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
M147, M258, M369 = 0b001001001, 0b010010010, 0b100100100  # number masks of 十六不搭 suits
# hand-context slots (hc): waits before the winning tile (0: not judged), the two waits of 對碰 when
# each is held as a pair, no honour, no flower, 十三么 waited on all 13, the 16 tiles were eight pairs
H_NW, H_TP, H_WA, H_WB, H_NOHON, H_NOFL, H_ALL13, H_EP8 = 0, 1, 2, 3, 4, 5, 6, 7


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


# ---------------------------------------------------------------------------------------------
# Items that do not depend on the reading
@njit(cache=True)
def _flowers(v, flowers, seat_wind, win_by):
    own = (1 << seat_wind) | (1 << (seat_wind + 4))
    in_sets = 0
    n_sets = 0
    for s in range(2):
        block = 0xF << (4 * s)
        if flowers & block == block:
            n_sets += 1
            in_sets |= block
    rest = flowers & ~in_sets  # 一臺花 replaces the flower items of its own set only
    v[FLOWER_SET] = n_sets
    v[SEAT_FLOWER] = _popcount(rest & own)
    v[OTHER_FLOWER] = _popcount(rest & ~own)
    v[NO_FLOWERS] = flowers == 0
    nf = _popcount(flowers)
    v[EIGHT_FLOWERS] = nf == 8  # also a later win after passing the flower win (section 1)
    v[SEVEN_ROB_ONE] = win_by == C.WIN_FLOWERS and nf == 7


@njit(cache=True)
def _hand_items(v, all_counts, meld_type, n_melds, flowers, win_by, seat_wind, flags, n_waits):
    is_self = win_by == C.WIN_SELF_DRAW or win_by == C.WIN_FLOWERS
    is_discard = win_by == C.WIN_DISCARD or win_by == C.WIN_ROB_KONG
    repl = win_by == C.WIN_SELF_DRAW and (flags & (C.F_KONG_REPLACEMENT | C.F_FLOWER_REPLACEMENT)) != 0
    chain = (flags >> C.CHAIN_SHIFT) & C.CHAIN_MASK
    if repl and chain == 0:
        chain = 1
    chain_win = repl and chain >= 2
    closed = True  # section 1: a kong claimed on a discard and an ankong keep the hand concealed
    n_exposed = 0
    n_ankong = 0
    for m in range(n_melds):
        t = meld_type[m]
        closed = closed and not (t == CHI or t == PON or t == ADDKONG)
        n_exposed += t == KONG or t == ADDKONG
        n_ankong += t == ANKONG
    sd = is_self and not chain_win  # 連續尾牌胡牌 has no 自摸 (section 8.10)
    v[SELF_DRAW] = sd
    v[CONCEALED] = closed
    v[CONC_SELF_DRAW] = closed and sd
    v[DECLARED_READY] = (flags & C.F_DECLARED_READY) != 0
    v[IPPATSU] = (flags & C.F_IPPATSU) != 0
    single = n_waits == 1
    v[SINGLE_WAIT] = single
    beggar = n_melds == 5 and n_ankong == 0 and single
    v[HALF_BEGGAR] = beggar and is_self
    v[FULL_BEGGAR] = beggar and is_discard
    v[EXPOSED_KONG] = n_exposed
    v[CONC_KONG] = n_ankong
    # tile classes
    n_suit = np.zeros(3, np.int64)
    n_tiles = 0
    n_wind = 0
    n_drag = 0
    n_term = 0
    for k in range(N_KINDS):
        c = np.int64(all_counts[k])
        n_tiles += c
        if k < WIND0:
            n_suit[k // 9] += c
            if k % 9 == 0 or k % 9 == 8:
                n_term += c
        elif k < DRAGON0:
            n_wind += c
        else:
            n_drag += c
    n_hon = n_wind + n_drag
    suits = (n_suit[0] > 0) + (n_suit[1] > 0) + (n_suit[2] > 0)
    v[ALL_HONOURS] = suits == 0
    v[NO_HONOURS] = n_hon == 0
    v[NO_HON_NO_FL] = n_hon == 0 and flowers == 0
    v[MISSING_SUIT] = suits == 2
    five = suits == 3 and n_wind > 0 and n_drag > 0
    v[FIVE_GATES] = five
    v[SEVEN_GATES] = five and (flowers & 0xF) != 0 and (flowers & 0xF0) != 0
    v[HALF_FLUSH] = suits == 1 and n_hon > 0
    v[FULL_FLUSH] = suits == 1 and n_hon == 0
    v[ALL_SIMPLES] = n_hon == 0 and n_term == 0
    v[MIXED_TERM] = n_term + n_hon == n_tiles and n_term > 0 and n_hon > 0
    v[PURE_TERM] = n_term == n_tiles
    # win events and timing (3.8)
    v[FLOWER_REPL] = repl and chain == 1 and (flags & C.F_FLOWER_REPLACEMENT) != 0
    v[KONG_REPL] = repl and chain == 1 and (flags & C.F_KONG_REPLACEMENT) != 0
    v[CHAIN_WIN] = chain_win
    v[LAST_DRAW] = is_self and (flags & C.F_LAST_TILE) != 0
    v[ROB_KONG] = win_by == C.WIN_ROB_KONG
    v[ROB_KONG_CHAIN] = win_by == C.WIN_ROB_KONG and (flags & C.F_ROB_KONG_CHAIN) != 0
    co = (flags >> C.CO_WIN_SHIFT) & C.CO_WIN_MASK
    v[DOUBLE_WIN] = co == 2
    v[TRIPLE_WIN] = co == 3
    floor = ((flags >> C.FLOOR_SHIFT) & C.COUNT_MASK) - 1  # -1: not known
    v[TEN_WITHIN] = 0 <= floor <= 10
    v[SEVEN_WITHIN] = 0 <= floor <= 7
    discards = ((flags >> C.DISCARDS_SHIFT) & C.COUNT_MASK) - 1
    v[HUMAN] = seat_wind != 0 and 0 <= discards <= 4
    v[EARTHLY] = seat_wind != 0 and win_by == C.WIN_DISCARD and discards == 1
    v[HEAVENLY] = (flags & C.F_HEAVENLY) != 0


# ---------------------------------------------------------------------------------------------
# Families: occurrences and the best choice
@njit(cache=True)
def _add(buf, n, item, mask):
    if n < MAX_INST:
        buf[0, n] = item
        buf[1, n] = mask
        n += 1
    return n


@njit(cache=True)
def _fits(buf, j, depth, mode):
    item = buf[0, j]
    mask = buf[1, j]
    for d in range(depth):
        c = buf[4, d]
        same = buf[0, c] == item
        if mode == 1 and same and not EACH[item]:
            return False
        if (mode == 1 or not same) and (buf[1, c] & mask) != 0:
            return False
    return True


@njit(cache=True)
def _choose(v, buf, n, p_tai, mode):
    """Add to ``v`` the occurrences (``buf[0]`` item, ``buf[1]`` set mask, ``n`` of them, one family)
    chosen for the highest total (module docstring): a depth-first search over compatible choices."""
    for i in range(n):  # which occurrences can count (buf[2] = 1)
        item = buf[0, i]
        buf[2, i] = p_tai[0, item] > 0
        if buf[2, i] and mode == 2:
            for j in range(n):
                o = buf[0, j]
                if RANK[o] > RANK[item] and p_tai[0, o] >= 0 and (buf[1, i] & ~buf[1, j]) == 0:
                    buf[2, i] = 0
                    break
    m = 0
    for i in range(n):  # compacted to the front, buf[2] = their tai
        if buf[2, i]:
            buf[0, m] = buf[0, i]
            buf[1, m] = buf[1, i]
            buf[2, m] = p_tai[0, buf[0, i]]
            m += 1
    if m == 0:
        return
    buf[3, m] = 0  # suffix sums of tai: the bound
    for i in range(m - 1, -1, -1):
        buf[3, i] = buf[3, i + 1] + buf[2, i]
    best = 0
    best_n = 0
    depth = 0
    cur = 0
    nxt = 0
    while True:
        ext = -1
        if cur + buf[3, nxt] > best:
            for j in range(nxt, m):
                if _fits(buf, j, depth, mode):
                    ext = j
                    break
        if ext >= 0:
            buf[4, depth] = ext
            depth += 1
            cur += buf[2, ext]
            nxt = ext + 1
            if cur > best:
                best = cur
                best_n = depth
                for d in range(depth):
                    buf[5, d] = buf[4, d]
        else:
            if depth == 0:
                break
            depth -= 1
            cur -= buf[2, buf[4, depth]]
            nxt = buf[4, depth] + 1
    for d in range(best_n):
        v[buf[0, buf[5, d]]] += 1


@njit(cache=True)
def _gather(kinds, mask, a):
    """The kinds of the sets in ``mask`` into ``a``, ascending; returns how many."""
    m = 0
    for i in range(5):
        if mask >> i & 1:
            a[m] = kinds[i]
            m += 1
    for i in range(1, m):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
    return m


@njit(cache=True)
def _families(v, st, sk, pv_pon, pv_kind, cv_chow, cv_kind, n, pair, buf, a, p_tai, mode):
    """般高 over the chow view, 相逢 and 兄弟 over the reading, 姊妹 over the pon view (2.3)."""
    cmask = 0
    amask = 0  # chows of the reading
    bmask = 0  # suited pons of the reading
    smask = 0  # suited pons of the pon view
    for i in range(n):
        if cv_chow[i]:
            cmask |= 1 << i
        if st[i] == CHI:
            amask |= 1 << i
        elif sk[i] < WIND0:
            bmask |= 1 << i
        if pv_pon[i] and pv_kind[i] < WIND0:
            smask |= 1 << i
    # 般高: identical chows
    k = 0
    sub = cmask
    while sub:
        m = _gather(cv_kind, sub, a)
        if 2 <= m <= 4 and a[0] == a[m - 1]:
            k = _add(buf, k, DOUBLE if m == 2 else (TRIPLE if m == 3 else QUAD), sub)
        if m == 4 and a[0] == a[1] and a[2] == a[3] and a[1] != a[2]:
            k = _add(buf, k, TWO_DOUBLE, sub)
        sub = (sub - 1) & cmask
    _choose(v, buf, k, p_tai, mode)
    # 相逢: chows of the same numbers in different suits
    k = 0
    sub = amask
    while sub:
        m = _gather(sk, sub, a)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            k = _add(buf, k, SUIT2, sub)
        if m == 3 and a[0] % 9 == a[1] % 9 and a[1] % 9 == a[2] % 9 and a[0] // 9 != a[1] // 9 and a[1] // 9 != a[2] // 9:
            k = _add(buf, k, SUIT3, sub)
        sub = (sub - 1) & amask
    _choose(v, buf, k, p_tai, mode)
    # 兄弟: pons of the same number in different suits (with the eye of it in the third suit)
    k = 0
    sub = bmask
    while sub:
        m = _gather(sk, sub, a)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            k = _add(buf, k, BRO2, sub)
            if 0 <= pair < WIND0 and pair % 9 == a[0] % 9 and pair // 9 != a[0] // 9 and pair // 9 != a[1] // 9:
                k = _add(buf, k, BRO3S, sub | EYE_BIT)
        if m == 3 and a[0] % 9 == a[1] % 9 and a[1] % 9 == a[2] % 9 and a[0] // 9 != a[1] // 9 and a[1] // 9 != a[2] // 9:
            k = _add(buf, k, BRO3, sub)
        sub = (sub - 1) & bmask
    _choose(v, buf, k, p_tai, mode)
    # 姊妹: pons of consecutive numbers in one suit (with the eye next to them)
    k = 0
    sub = smask
    while sub:
        m = _gather(pv_kind, sub, a)
        run = m >= 2 and a[0] // 9 == a[m - 1] // 9
        for i in range(1, m):
            run = run and a[i] == a[i - 1] + 1
        if run:
            k = _add(buf, k, SIS2 if m == 2 else (SIS3 if m == 3 else (SIS4 if m == 4 else SIS5)), sub)
            if m <= 4 and 0 <= pair < WIND0 and pair // 9 == a[0] // 9 and (pair == a[0] - 1 or pair == a[m - 1] + 1):
                k = _add(buf, k, SIS3S if m == 2 else (SIS4S if m == 3 else SIS5S), sub | EYE_BIT)
        sub = (sub - 1) & smask
    _choose(v, buf, k, p_tai, mode)


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
                x, y, z = sk[i] % 9, sk[j] % 9, sk[k] % 9
                if x > y:
                    x, y = y, x
                if y > z:
                    y, z = z, y
                if x > y:
                    x, y = y, x
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


# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _chicken(v, out_items, kept, total, p_tai):
    """3.9, on the best reading: the items kept are exactly no_flowers or one other_flower (大雞胡),
    or that and self_draw (鴨胡); the chicken item then replaces them all. Returns the hand tai."""
    n_kept = 0
    flower = False
    self_draw = False
    other = False
    for r in range(N_ITEMS):
        i = p_tai[3, r]
        if i < 0:
            break
        if not kept[i]:
            continue
        n_kept += 1
        if i == NO_FLOWERS or (i == OTHER_FLOWER and v[OTHER_FLOWER] == 1):
            flower = True
        elif i == SELF_DRAW:
            self_draw = True
        else:
            other = True
    pick = -1
    if flower and not other:
        pick = BIG_CHICKEN if n_kept == 1 else (DUCK if self_draw else -1)
    if pick < 0 or p_tai[0, pick] < 0:
        return total
    for r in range(N_ITEMS):
        i = p_tai[3, r]
        if i < 0:
            break
        out_items[i] = 0
        kept[i] = False
    out_items[pick] = p_tai[0, pick]
    kept[pick] = True
    return p_tai[0, pick]


@njit(cache=True)
def hk_score(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind, flags,
             p_tai, p_repl, p_opts, out_items):  # fmt: skip
    """Hand tai of a hongkong win (items into ``out_items``), or -1 if the tiles are not a winning hand.
    Arguments as ``envs.scoring.core.score_hand``; the flag word as in the module docstring."""
    n_sets = 5 - n_melds
    shapes = p_opts[PO_SHAPES]
    total_tiles = 0
    for k in range(N_KINDS):
        total_tiles += concealed[k]
    out_items[:] = 0
    has_hand = total_tiles == 3 * n_sets + 2
    if not has_hand and not (win_by == C.WIN_FLOWERS and total_tiles == 3 * n_sets + 1):
        return -1
    if has_hand and not is_win(concealed, n_sets, shapes):
        if win_by != C.WIN_FLOWERS:
            return -1
        has_hand = False
    v = np.zeros(N_ITEMS, dtype=np.int32)
    tmp = np.zeros(N_ITEMS, dtype=np.int32)
    tmp_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    best_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    _flowers(v, flowers, seat_wind, win_by)
    if not has_hand:  # a flower win without a complete hand: its flower items only
        return apply_profile(v, p_tai, p_repl, out_items, best_kept)

    all_counts = concealed.astype(np.int8)
    for m in range(n_melds):
        k = meld_kind[m]
        if meld_type[m] == CHI:
            all_counts[k] += 1
            all_counts[k + 1] += 1
            all_counts[k + 2] += 1
        else:
            all_counts[k] += 3 if meld_type[m] <= PON else 4
    hc = np.zeros(8, np.int64)
    n_hon = 0
    for k in range(WIND0, N_KINDS):
        n_hon += all_counts[k]
    hc[H_NOHON] = n_hon == 0
    hc[H_NOFL] = flowers == 0
    judged = win_tile >= 0 and win_by != C.WIN_FLOWERS  # a flower win or heavenly hand has no wait
    if judged:
        before = concealed.copy()
        before[win_tile] -= 1
        held = all_counts.copy()
        held[win_tile] -= 1
        waits = np.zeros(N_KINDS, dtype=np.bool_)
        nw = win_wait_mask(before, n_sets, held, shapes, waits)
        hc[H_NW] = nw
        if nw == 2:
            wa = -1
            wb = -1
            for k in range(N_KINDS):
                if waits[k]:
                    if wa < 0:
                        wa = k
                    else:
                        wb = k
            hc[H_TP] = before[wa] >= 2 and before[wb] >= 2
            hc[H_WA] = wa
            hc[H_WB] = wb
        all13 = True
        for k in ORPHANS:
            all13 = all13 and waits[k]
        hc[H_ALL13] = all13
        even = n_melds == 0
        for k in range(N_KINDS):
            even = even and before[k] % 2 == 0
        hc[H_EP8] = even
    _hand_items(v, all_counts, meld_type, n_melds, flowers, win_by, seat_wind, flags, hc[H_NW])

    is_discard = win_by == C.WIN_DISCARD or win_by == C.WIN_ROB_KONG
    buf = np.zeros((6, MAX_INST + 1), np.int64)
    best_total = -1
    st = np.zeros(5, dtype=np.int8)
    sk = np.zeros(5, dtype=np.int8)
    sc = np.zeros(5, dtype=np.bool_)
    for m in range(n_melds):
        st[m] = meld_type[m]
        sk[m] = meld_kind[m]
        sc[m] = meld_type[m] == ANKONG
    dec = np.empty((MAX_DECOMPOSITIONS, 1 + 2 * n_sets), dtype=np.int8)
    n_dec = decompositions(concealed, n_sets, dec) if is_complete(concealed, n_sets) else 0
    for d in range(n_dec):
        pair = dec[d, 0]
        for s in range(n_sets):
            st[n_melds + s] = dec[d, 1 + 2 * s]
            sk[n_melds + s] = dec[d, 2 + 2 * s]
            sc[n_melds + s] = True
        # Where the winning tile sits (identical tiles are interchangeable: every place is a reading)
        for pos in range(-2, 5):
            if pos == -2:
                if judged:
                    continue
            elif not judged:
                continue
            elif pos == -1:
                if pair != win_tile:
                    continue
            else:
                if pos < n_melds:
                    continue
                k = sk[pos]
                if not (k == win_tile or (st[pos] == CHI and k < win_tile <= k + 2)):
                    continue
            disc_pos = pos if is_discard else -2
            _reading(v, st, sk, sc, 5, n_melds, pair, disc_pos, pos, win_tile, 0, seat_wind, round_wind, all_counts,
                     hc, buf, p_tai, p_opts)  # fmt: skip
            best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)

    shape = special_shape(concealed, shapes) if n_melds == 0 else 0
    if shape != 0:
        parts = np.zeros(3, dtype=np.int64)
        suits = np.zeros(3, dtype=np.int64)
        n_sp = 0
        pair = -1
        disc_pos = -2
        if shape == SHAPE_EIGHT_PAIRS:  # its triplet is a pon for the pon items (2.6)
            for k in range(N_KINDS):
                if concealed[k] == 3:
                    st[0] = PON
                    sk[0] = k
                    n_sp = 1
                    if is_discard and k == win_tile:
                        disc_pos = 0
        elif shape & SHAPE_THIRTEEN:
            thirteen_orphans_parts(concealed, parts)
            pair = parts[0]
            st[0] = parts[1]
            sk[0] = parts[2]
            n_sp = 1
        else:
            sixteen_unrelated_suits(concealed, shapes, suits)
            for k in range(N_KINDS):
                if concealed[k] == 2:
                    pair = k
        sc[0] = True
        _reading(v, st, sk, sc, n_sp, 0, pair, disc_pos, -2, win_tile, shape, seat_wind, round_wind, all_counts,
                 hc, buf, p_tai, p_opts)  # fmt: skip
        _special(v, shape, concealed, all_counts, parts, suits, hc)
        best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)
    if best_total < 0:
        return -1
    return _chicken(v, out_items, best_kept, best_total, p_tai)


# ---------------------------------------------------------------------------------------------
# Legs (HONGKONG.md 5.1)
@njit(cache=True)
def hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_leg_tai, out_leg_payer):
    """The legs of one win (module docstring). Dealer tai (1 + 2N) is on a leg when the dealer wins, or
    when the dealer pays it as discarder / konger / 七搶一 holder; on the dealer's leg of a self-draw
    (全包 included) only with the rule option ``dealer_pays_on_self_draw``."""
    dt = dealer_tai(streak, opts)
    n = 0
    self_legs = payer < 0 or liable >= 0
    for p in range(4):
        out_leg_tai[p] = -1
        out_leg_payer[p] = -1
        if p == winner or (not self_legs and p != payer):
            continue
        on = winner == dealer or (p == dealer and (not self_legs or opts[OPT_DEALER_PAYS_ON_SELF_DRAW] != 0))
        out_leg_tai[p] = hand_tai + (dt if on else 0)
        out_leg_payer[p] = liable if liable >= 0 else p
        n += 1
    return n


@njit(cache=True)
def hk_settle(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_deltas):
    """Add one win's legs, paid in full, to ``out_deltas`` (int64[4], chips); returns the legs' count."""
    leg_tai = np.empty(4, np.int64)
    leg_payer = np.empty(4, np.int64)
    n = hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, leg_tai, leg_payer)
    for p in range(4):
        if leg_tai[p] >= 0:
            amount = opts[OPT_BASE] + opts[OPT_PER_TAI] * leg_tai[p]
            out_deltas[leg_payer[p]] -= amount
            out_deltas[winner] += amount
    return n
