"""hongkong items (HONGKONG.md 3): their indices for compiled code, the items that do not depend on
how the hand is read (hand state, flowers, tiles and suits, win events) and the chicken hands (3.9).
Used by envs.scoring.hongkong (see its docstring for the interface)."""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.scoring import codes as C
from envs.scoring.tally import popcount
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
    v[SEAT_FLOWER] = popcount(rest & own)
    v[OTHER_FLOWER] = popcount(rest & ~own)
    v[NO_FLOWERS] = flowers == 0
    nf = popcount(flowers)
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


