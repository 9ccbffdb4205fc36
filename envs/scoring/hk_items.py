"""hongkong items (HONGKONG.md 3): their indices, the families' order and the hand-context slots.

Native code (native/include/tw16/hk_items.hpp, native/src/hk_items.cpp) computes the items that do
not depend on how the hand is read (hand state, flowers, tiles and suits, win events) and the
chicken hands (3.9); these constants are the source of ``tw16::py::hk_items`` in constants.hpp. See
native/include/tw16/hongkong.hpp for the interface.
"""

from __future__ import annotations

import numpy as np

from envs.scoring import codes as C

_I = C.ITEM_INDEX
SELF_DRAW, CONCEALED, CONC_SELF_DRAW = _I["self_draw"], _I["concealed"], _I["concealed_self_draw"]
DECLARED_READY, IPPATSU, SINGLE_WAIT = _I["declared_ready"], _I["ippatsu"], _I["single_wait"]
FALSE_SINGLE, TWO_PAIR_WAIT, PAIR_258 = _I["false_single"], _I["two_pair_wait"], _I["pair_258"]
HALF_BEGGAR, FULL_BEGGAR = _I["half_beggar"], _I["full_beggar"]
NO_FLOWERS, SEAT_FLOWER, OTHER_FLOWER, FLOWER_SET = (
    _I["no_flowers"],
    _I["seat_flower"],
    _I["other_flower"],
    _I["flower_set"],
)
EIGHT_FLOWERS, SEVEN_ROB_ONE = _I["eight_flowers"], _I["seven_rob_one"]
SR_WIND, OTHER_WIND, DRAGON = _I["seat_or_round_wind"], _I["other_wind"], _I["dragon"]
SMALL3W, BIG3W, SMALL_WINDS, BIG_WINDS = (
    _I["small_three_winds"],
    _I["big_three_winds"],
    _I["small_winds"],
    _I["big_winds"],
)
SMALL_DRAGONS, BIG_DRAGONS, ALL_HONOURS = _I["small_dragons"], _I["big_dragons"], _I["all_honours"]
NO_HONOURS, NO_HON_NO_FL = _I["no_honours"], _I["no_honours_no_flowers"]
ALL_CHOWS, BIG_ALL_CHOWS = _I["all_chows"], _I["big_all_chows"]
DOUBLE, TWO_DOUBLE, TRIPLE, QUAD = _I["double_chow"], _I["two_double_chows"], _I["triple_chow"], _I["quadruple_chow"]
SUIT2, SUIT3 = _I["two_suit_chows"], _I["three_suit_chows"]
MSHIFT, MSHIFT_C, PSHIFT, PSHIFT_C = (
    _I["mixed_shifted_chows"],
    _I["mixed_shifted_chows_concealed"],
    _I["pure_shifted_chows"],
    _I["pure_shifted_chows_concealed"],
)
MSTRAIGHT, MSTRAIGHT_C, PSTRAIGHT, PSTRAIGHT_C = (
    _I["mixed_straight"],
    _I["mixed_straight_concealed"],
    _I["pure_straight"],
    _I["pure_straight_concealed"],
)
OLD_YOUNG, ALL_PUNGS, EXPOSED_KONG, CONC_KONG = (
    _I["old_young"],
    _I["all_pungs"],
    _I["exposed_kong"],
    _I["concealed_kong"],
)
CONC2, CONC3, CONC4, CONC5, CONC_ALL = (
    _I["two_concealed"],
    _I["three_concealed"],
    _I["four_concealed"],
    _I["five_concealed"],
    _I["all_concealed_pungs"],
)
BRO2, BRO3S, BRO3 = _I["two_brothers"], _I["small_three_brothers"], _I["three_brothers"]
SIS2, SIS3S, SIS3, SIS4S, SIS4, SIS5S, SIS5 = (
    _I["two_sisters"],
    _I["small_three_sisters"],
    _I["three_sisters"],
    _I["small_four_sisters"],
    _I["four_sisters"],
    _I["small_five_sisters"],
    _I["five_sisters"],
)
IN2, IN3, IN4 = _I["four_in_two"], _I["four_in_three"], _I["four_in_four"]
MISSING_SUIT, FIVE_GATES, BIG_FIVE_GATES, SEVEN_GATES = (
    _I["missing_suit"],
    _I["five_gates"],
    _I["big_five_gates"],
    _I["seven_gates"],
)
SAME_NUMBER, HALF_FLUSH, FULL_FLUSH, ALL_SIMPLES = (
    _I["all_same_number"],
    _I["half_flush"],
    _I["full_flush"],
    _I["all_simples"],
)
OUT_MIXED, OUT_PURE, MIXED_TERM, PURE_TERM = (
    _I["outside_mixed"],
    _I["outside_pure"],
    _I["mixed_terminals"],
    _I["pure_terminals"],
)
THIRTEEN, THIRTEEN_13, SIXTEEN, UNREL_DRAGON, UNREL_SAME = (
    _I["thirteen_orphans"],
    _I["thirteen_orphans_13"],
    _I["sixteen_unrelated"],
    _I["unrelated_dragon"],
    _I["unrelated_same"],
)
EIGHT_PAIRS, EIGHT_PAIRS_8 = _I["eight_pairs"], _I["eight_pairs_8_wait"]
FLOWER_REPL, KONG_REPL, CHAIN_WIN = (
    _I["flower_replacement_win"],
    _I["kong_replacement_win"],
    _I["replacement_chain_win"],
)
LAST_DRAW, ROB_KONG, ROB_KONG_CHAIN = _I["last_tile_draw"], _I["robbing_kong"], _I["robbing_kong_chain"]
DOUBLE_WIN, TRIPLE_WIN, TEN_WITHIN, SEVEN_WITHIN = (
    _I["double_win"],
    _I["triple_win"],
    _I["ten_within"],
    _I["seven_within"],
)
HUMAN, EARTHLY, HEAVENLY = _I["human_win"], _I["earthly_win"], _I["heavenly_win"]
BIG_CHICKEN, DUCK = _I["big_chicken"], _I["duck"]

# 步步高 / 龍 items, open and concealed (2.4), in the order _patterns counts them
PATTERN_OPEN = np.array([MSHIFT, PSHIFT, MSTRAIGHT, PSTRAIGHT], np.int64)
PATTERN_CONC = np.array([MSHIFT_C, PSHIFT_C, MSTRAIGHT_C, PSTRAIGHT_C], np.int64)
# Items that depend on the reading: cleared before each one.
HK_READING_ITEMS = np.array(
    [
        FALSE_SINGLE,
        TWO_PAIR_WAIT,
        PAIR_258,
        SR_WIND,
        OTHER_WIND,
        DRAGON,
        SMALL3W,
        BIG3W,
        SMALL_WINDS,
        BIG_WINDS,
        SMALL_DRAGONS,
        BIG_DRAGONS,
        ALL_CHOWS,
        BIG_ALL_CHOWS,
        DOUBLE,
        TWO_DOUBLE,
        TRIPLE,
        QUAD,
        SUIT2,
        SUIT3,
        MSHIFT,
        MSHIFT_C,
        PSHIFT,
        PSHIFT_C,
        MSTRAIGHT,
        MSTRAIGHT_C,
        PSTRAIGHT,
        PSTRAIGHT_C,
        OLD_YOUNG,
        ALL_PUNGS,
        CONC2,
        CONC3,
        CONC4,
        CONC5,
        CONC_ALL,
        BRO2,
        BRO3S,
        BRO3,
        SIS2,
        SIS3S,
        SIS3,
        SIS4S,
        SIS4,
        SIS5S,
        SIS5,
        IN2,
        IN3,
        IN4,
        BIG_FIVE_GATES,
        SAME_NUMBER,
        OUT_MIXED,
        OUT_PURE,
        THIRTEEN,
        THIRTEEN_13,
        SIXTEEN,
        UNREL_DRAGON,
        UNREL_SAME,
        EIGHT_PAIRS,
        EIGHT_PAIRS_8,
    ],
    dtype=np.int64,
)

# Family order (codes.HK_FAMILIES): RANK[a] > RANK[b] in one family = a replaces b on the same sets.
RANK = np.zeros(C.N_ITEMS, np.int64)
for _fam in C.HK_FAMILIES:
    for _r, _k in enumerate(_fam):
        RANK[_I[_k]] = _r
RANK[TRIPLE] = RANK[TWO_DOUBLE]  # peers: neither replaces the other
RANK[QUAD] = RANK[TWO_DOUBLE] + 1
# Family items marked "each" (HONGKONG.md 3): every occurrence scores.
EACH = np.zeros(C.N_ITEMS, np.bool_)
for _k in ("two_suit_chows", "two_brothers", "two_sisters"):
    EACH[_I[_k]] = True
del _I

HK_MAX_INST = 64  # occurrences of one family in one reading (five sets: at most 31 subsets)
EYE_BIT = 1 << 5  # the eye as a group in an occurrence's set mask
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
# hand-context slots (hc): waits before the winning tile (0: not judged), the two waits of 對碰 when
# each is held as a pair, no honour, no flower, 十三么 waited on all 13, the 16 tiles were eight pairs
H_NW, H_TP, H_WA, H_WB, H_NOHON, H_NOFL, H_ALL13, H_EP8 = 0, 1, 2, 3, 4, 5, 6, 7
