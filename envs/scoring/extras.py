"""Predicates of the extras pack (EXTRAS.md section 2) and the optional MCR detectors (section 4).

Native code (native/include/tw16/extras.hpp, native/src/extras.cpp); this module keeps their item
indices and tables as constants (the source of ``tw16::py::extras`` in constants.hpp). The scoring
core (``score_hand``) calls them only when the profile names such an item (``p_opts[PO_EXTRAS]``),
so the base tables score at their old speed. Three entry points:

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

Conventions as in ``core``: ``set_type`` MELD_CHI/MELD_PON/MELD_KONG/MELD_ADDKONG/MELD_ANKONG (decompositions give MELD_PON for a
concealed pon), ``set_kind`` the lowest kind, ``set_conc`` True for sets formed in hand and ankongs.
"""

from __future__ import annotations

import numpy as np

from envs.scoring import codes as C

_I = C.ITEM_INDEX
EIGHT_PAIRS = _I["eight_pairs"]
PURE_13, MIXED_13 = _I["pure_thirteen_orphans"], _I["mixed_thirteen_orphans"]
SIXTEEN, UNREL_DRAGON, SIXTEEN_PURE, UNREL_SAME = (
    _I["sixteen_unrelated"],
    _I["unrelated_dragon"],
    _I["sixteen_unrelated_pure"],
    _I["unrelated_same"],
)
PURE_9G, MIXED_9G = _I["pure_nine_gates"], _I["mixed_nine_gates"]
KONGS3, KONGS4, KONGS5 = _I["three_kongs"], _I["four_kongs"], _I["five_kongs"]
CHAIN2, CHAIN3 = _I["kong_chain_2"], _I["kong_chain_3"]
ALL_TERM, MIXED_TERM, OUT_PURE, OUT_MIXED = (
    _I["all_terminals"],
    _I["mixed_terminals"],
    _I["outside_pure"],
    _I["outside_mixed"],
)
ALL_GREEN, FIVE_GATES = _I["all_green"], _I["five_gates"]
FOUR_ID, TRIPLE_ID, DOUBLE_ID, IDENT = (
    _I["four_identical_chows"],
    _I["pure_triple_chow"],
    _I["double_identical"],
    _I["identical_chows"],
)
STEP5, STEP4, STEP4C, STEP3, STEP3C = (
    _I["pure_five_step"],
    _I["pure_four_step"],
    _I["pure_four_step_concealed"],
    _I["pure_three_step"],
    _I["pure_three_step_concealed"],
)
PURE_STRAIGHT, MIXED_STRAIGHT = _I["pure_straight"], _I["mixed_straight"]
SUIT3_CHOWS, DOUBLE_SUIT2_CHOWS, SUIT2_CHOWS = _I["three_suit_chows"], _I["double_two_suit_chows"], _I["two_suit_chows"]
MIXED_STEP, MIXED_STEP_C = _I["mixed_three_step"], _I["mixed_three_step_concealed"]
SHIFT5, SHIFT4, SHIFT3, DOUBLE_SHIFT2, SHIFT2 = (
    _I["five_shifted_pungs"],
    _I["four_shifted_pungs"],
    _I["three_shifted_pungs"],
    _I["double_two_shifted_pungs"],
    _I["two_shifted_pungs"],
)
SUIT3_PUNGS, DOUBLE_SUIT2_PUNGS, SUIT2_PUNGS = _I["three_suit_pungs"], _I["double_two_suit_pungs"], _I["two_suit_pungs"]
MIXED_SHIFT, MIXED_SHIFT_C = _I["mixed_shifted_pungs"], _I["mixed_shifted_pungs_concealed"]
IN4, IN3, IN2 = _I["four_in_four"], _I["four_in_three"], _I["four_in_two"]
# MCR detectors
SEVEN_SHIFTED_PAIRS, PURE_TERM_CHOWS, ALL_EVEN_PUNGS = (
    _I["seven_shifted_pairs"],
    _I["pure_terminal_chows"],
    _I["all_even_pungs"],
)
UPPER, MIDDLE, LOWER, UPPER4, LOWER4 = (
    _I["upper_tiles"],
    _I["middle_tiles"],
    _I["lower_tiles"],
    _I["upper_four"],
    _I["lower_four"],
)
SUIT3_TERM_CHOWS, ALL_FIVES, BIG3_WINDS = _I["three_suit_terminal_chows"], _I["all_fives"], _I["big_three_winds"]
REVERSIBLE, TWO_ANKONGS, TWO_KONGS_OPEN = _I["reversible_tiles"], _I["two_concealed_kongs"], _I["two_exposed_kongs"]
TWO_CONC, ANKONG_EACH, ALL_SIMPLES = _I["two_concealed"], _I["concealed_kong"], _I["all_simples"]
SHORT_STRAIGHT, TWO_TERM_CHOWS, TERM_PUNG = _I["short_straight"], _I["two_terminal_chows"], _I["terminal_pung"]
KONG_EACH, MISSING_SUIT, NO_HONOURS = _I["exposed_kong"], _I["missing_suit"], _I["no_honours"]
del _I

# Items set per reading: cleared before each reading so that nothing carries over between readings.
EX_READING_ITEMS = np.array(
    [
        PURE_13,
        MIXED_13,
        SIXTEEN,
        UNREL_DRAGON,
        SIXTEEN_PURE,
        UNREL_SAME,
        OUT_PURE,
        OUT_MIXED,
        FOUR_ID,
        TRIPLE_ID,
        DOUBLE_ID,
        IDENT,
        STEP5,
        STEP4,
        STEP4C,
        STEP3,
        STEP3C,
        PURE_STRAIGHT,
        MIXED_STRAIGHT,
        SUIT3_CHOWS,
        DOUBLE_SUIT2_CHOWS,
        SUIT2_CHOWS,
        MIXED_STEP,
        MIXED_STEP_C,
        SHIFT5,
        SHIFT4,
        SHIFT3,
        DOUBLE_SHIFT2,
        SHIFT2,
        SUIT3_PUNGS,
        DOUBLE_SUIT2_PUNGS,
        SUIT2_PUNGS,
        MIXED_SHIFT,
        MIXED_SHIFT_C,
        IN4,
        IN3,
        IN2,
        SEVEN_SHIFTED_PAIRS,
        PURE_TERM_CHOWS,
        ALL_EVEN_PUNGS,
        SUIT3_TERM_CHOWS,
        ALL_FIVES,
        BIG3_WINDS,
        TWO_CONC,
        SHORT_STRAIGHT,
        TWO_TERM_CHOWS,
        TERM_PUNG,
    ],
    dtype=np.int64,
)

# Families as listed in the assignment (index into the instance arrays' family column).
F_SAME_CHOW, F_STEP, F_SHIFTED, F_SAME_PUNG, F_SAME_NUM_CHOW = 0, 1, 2, 3, 4
N_FAM = 5
EX_MAX_INST = 128

GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s F
REVERSIBLE_KINDS = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33)  # 1234589p 245689s P
