"""Codes shared by the scorer, the engine and the case files: how a hand was won, situational flags,
and the registry of every scoring item any profile may name.

The item index is the position in ``ITEMS``: compiled code reads per-item arrays by this index.
Append new items at the end (profiles refer to them by key, so order here is not a table order).
"""

from __future__ import annotations

# How the winning tile came (CASES.md `win_by`).
WIN_DISCARD = 0
WIN_SELF_DRAW = 1
WIN_ROB_KONG = 2
WIN_FLOWERS = 3  # 八仙過海 / 七搶一
WIN_BY_NAMES = ("discard", "self_draw", "rob_kong", "flowers")

# Situational flags (CASES.md `flags`), one bit each: a flag's bit is 1 << its position here, and
# F_<NAME> (F_KONG_REPLACEMENT ...) is that bit, made from this table below (the names the engine,
# the case files and constants.hpp read). Append new flags at the end.
FLAG_NAMES = (
    "kong_replacement",
    "flower_replacement",
    "last_tile",
    "heavenly",
    "earthly",
    "human",
    "heavenly_ready",
    "earthly_ready",
    "declared_ready",
    "shown_ready",
    # hongkong (HONGKONG.md 6): 一發; the robbed kong was declared with a replacement tile (搶槓上槓);
    # the robbed kong was an ankong (only 十三么 may rob one).
    "ippatsu",
    "rob_kong_chain",
    "robbed_ankong",
)


def flag_bit(name: str) -> int:
    """The bit of the flag called name (one of FLAG_NAMES)."""
    return 1 << FLAG_NAMES.index(name)


globals().update({f"F_{name.upper()}": flag_bit(name) for name in FLAG_NAMES})
F_READY_ANY = sum(flag_bit(n) for n in ("heavenly_ready", "earthly_ready", "declared_ready", "shown_ready"))
# `replacement_chain` (EXTRAS.md 2.2): the number of consecutive replacement draws in the winner's turn
# that end with the winning tile, stored in the flag word from this bit up (0 = not given: 1 when a
# replacement flag is set). Read it with `(flags >> CHAIN_SHIFT) & CHAIN_MASK`.
CHAIN_SHIFT = 16
CHAIN_MASK = 0xFF
if len(FLAG_NAMES) > CHAIN_SHIFT:
    raise RuntimeError(f"envs.scoring.codes: {len(FLAG_NAMES)} flags do not fit below CHAIN_SHIFT = {CHAIN_SHIFT}")
# hongkong context (HONGKONG.md 6), more fields of the flag word, each read as (flags >> SHIFT) & MASK:
#   DISCARDS  discards made in the hand up to and including the winning discard, claimed ones included,
#             stored + 1 (0 = not given): human_win, earthly_win
#   FLOOR     discarded tiles lying in the pools at the win, the winning discard included, stored + 1
#             (0 = not given): ten_within, seven_within
#   CO_WIN    seats winning on the same discard or robbed kong (0 or 1 = one): double_win, triple_win
# Build the word with hk_context_flags(); the engine ORs it into the flags it passes to score_hand.
DISCARDS_SHIFT = 24
FLOOR_SHIFT = 32
COUNT_MASK = 0xFF  # DISCARDS and FLOOR hold 0..254 (+1)
CO_WIN_SHIFT = 40
CO_WIN_MASK = 0x3


def hk_context_flags(discards: int | None = None, floor: int | None = None, co_winners: int = 1) -> int:
    """The hongkong context bits of the flag word (CHAIN rides separately, at CHAIN_SHIFT)."""
    f = co_winners << CO_WIN_SHIFT
    if discards is not None:
        f |= (discards + 1) << DISCARDS_SHIFT
    if floor is not None:
        f |= (floor + 1) << FLOOR_SHIFT
    return f


# (key, 中文). Every key a profile may give a value; one predicate each (native/src/score.cpp,
# extras.cpp). Append only: the index is the position.
ITEMS: tuple[tuple[str, str], ...] = (
    ("self_draw", "自摸"),
    ("concealed", "門清"),
    ("concealed_self_draw", "門清自摸"),
    ("single_wait", "獨聽"),
    ("seat_wind", "門風"),
    ("round_wind", "圈風"),
    ("dragon", "三元牌"),
    ("seat_flower", "正花"),
    ("flower_set", "花槓"),
    ("eight_flowers", "八仙過海"),
    ("seven_rob_one", "七搶一"),
    ("kong_replacement_win", "槓上開花"),
    ("last_tile_draw", "海底撈月"),
    ("last_tile_discard", "河底撈魚"),
    ("robbing_kong", "搶槓"),
    ("half_beggar", "半求"),
    ("full_beggar", "全求"),
    ("all_chows", "平胡"),
    ("all_pungs", "碰碰胡"),
    ("three_concealed", "三暗刻"),
    ("four_concealed", "四暗刻"),
    ("five_concealed", "五暗刻"),
    ("half_flush", "混一色"),
    ("full_flush", "清一色"),
    ("all_honours", "字一色"),
    ("small_dragons", "小三元"),
    ("big_dragons", "大三元"),
    ("small_winds", "小四喜"),
    ("big_winds", "大四喜"),
    ("heavenly_win", "天胡"),
    ("earthly_win", "地胡"),
    ("human_win", "人胡"),
    # strict16 / casual
    ("no_help", "不求"),
    ("heavenly_ready", "天聽"),
    ("earthly_ready", "地聽"),
    ("eight_pairs", "嚦咕嚦咕"),
    ("declared_ready", "宣告聽牌"),
    ("shown_ready", "聽牌現牌"),
    # extras pack (EXTRAS.md section 2, in its row order; eight_pairs is above)
    ("pure_thirteen_orphans", "清十三么"),
    ("mixed_thirteen_orphans", "混十三么"),
    ("sixteen_unrelated", "十六不搭"),
    ("unrelated_dragon", "不搭龍"),
    ("sixteen_unrelated_pure", "正宗十六不搭"),
    ("unrelated_same", "不搭三相連"),
    ("pure_nine_gates", "清九蓮寶燈"),
    ("mixed_nine_gates", "混九蓮寶燈"),
    ("three_kongs", "三槓子"),
    ("four_kongs", "四槓子"),
    ("five_kongs", "五槓子"),
    ("kong_chain_2", "連槓開花 (二連)"),
    ("kong_chain_3", "連槓開花 (三連以上)"),
    ("all_terminals", "清老頭"),
    ("mixed_terminals", "混老頭"),
    ("outside_pure", "全帶么九"),
    ("outside_mixed", "混全帶么九"),
    ("all_green", "綠一色"),
    ("five_gates", "五門齊"),
    ("four_identical_chows", "一色四同順"),
    ("pure_triple_chow", "一色三同順"),
    ("double_identical", "雙龍抱"),
    ("identical_chows", "般高"),
    ("pure_five_step", "一色五步高"),
    ("pure_four_step", "一色四步高"),
    ("pure_four_step_concealed", "一色四步高 (暗)"),
    ("pure_three_step", "一色三步高"),
    ("pure_three_step_concealed", "一色三步高 (暗)"),
    ("pure_straight", "一條龍"),
    ("mixed_straight", "混龍"),
    ("three_suit_chows", "三色同順"),
    ("double_two_suit_chows", "雙兩相連"),
    ("two_suit_chows", "二色同順"),
    ("mixed_three_step", "三色步高"),
    ("mixed_three_step_concealed", "三色步高 (暗)"),
    ("five_shifted_pungs", "五連刻"),
    ("four_shifted_pungs", "四連刻"),
    ("three_shifted_pungs", "三連刻"),
    ("double_two_shifted_pungs", "雙二連刻"),
    ("two_shifted_pungs", "二連刻"),
    ("three_suit_pungs", "三色同刻"),
    ("double_two_suit_pungs", "雙二色同刻"),
    ("two_suit_pungs", "二色同刻"),
    ("mixed_shifted_pungs", "三色連刻"),
    ("mixed_shifted_pungs_concealed", "三色連刻 (暗)"),
    ("four_in_four", "四歸四"),
    ("four_in_three", "四歸三"),
    ("four_in_two", "四歸二"),
    # optional MCR detectors (EXTRAS.md section 4, the fans marked not covered): in no built-in profile;
    # a custom profile gives them a value (docs/profiles.md). Keys shared with the hongkong table
    # (HONGKONG.md) have its definition: all_simples, missing_suit, no_honours, big_three_winds,
    # two_concealed, exposed_kong, concealed_kong.
    ("seven_shifted_pairs", "連七對"),
    ("pure_terminal_chows", "一色雙龍會"),
    ("all_even_pungs", "全雙刻"),
    ("upper_tiles", "全大"),
    ("middle_tiles", "全中"),
    ("lower_tiles", "全小"),
    ("three_suit_terminal_chows", "三色雙龍會"),
    ("all_fives", "全帶五"),
    ("upper_four", "大於五"),
    ("lower_four", "小於五"),
    ("big_three_winds", "三風刻"),
    ("reversible_tiles", "推不倒"),
    ("two_concealed_kongs", "雙暗槓"),
    ("two_exposed_kongs", "雙明槓"),
    ("two_concealed", "雙暗刻"),
    ("concealed_kong", "暗槓"),
    ("all_simples", "斷么九"),
    ("short_straight", "連六"),
    ("two_terminal_chows", "老少副"),
    ("terminal_pung", "么九刻"),
    ("exposed_kong", "明槓"),
    ("missing_suit", "缺一門"),
    ("no_honours", "無字"),
    # hongkong (HONGKONG.md 3), keys not above; scored by native/src/hongkong.cpp, which also gives the
    # keys above that the hongkong table names their HONGKONG.md meaning.
    ("ippatsu", "一發"),
    ("false_single", "假獨"),
    ("two_pair_wait", "對碰"),
    ("pair_258", "將眼"),
    ("no_flowers", "無花"),
    ("other_flower", "爛花"),
    ("seat_or_round_wind", "正風 / 正圈"),
    ("other_wind", "偏風"),
    ("small_three_winds", "小三風"),
    ("no_honours_no_flowers", "無字花"),
    ("big_all_chows", "大平胡"),
    ("double_chow", "一般高"),
    ("two_double_chows", "雙般高"),
    ("triple_chow", "三般高"),
    ("quadruple_chow", "四般高"),
    ("mixed_shifted_chows", "三色步步高"),
    ("mixed_shifted_chows_concealed", "暗三色步步高"),
    ("pure_shifted_chows", "一色步步高"),
    ("pure_shifted_chows_concealed", "暗一色步步高"),
    ("mixed_straight_concealed", "暗彩龍"),
    ("pure_straight_concealed", "暗龍"),
    ("old_young", "老少"),
    ("all_concealed_pungs", "坎坎胡"),
    ("two_brothers", "二兄弟"),
    ("small_three_brothers", "小三兄弟"),
    ("three_brothers", "三兄弟"),
    ("two_sisters", "二姊妹"),
    ("small_three_sisters", "小三姊妹"),
    ("three_sisters", "三姊妹"),
    ("small_four_sisters", "小四姊妹"),
    ("four_sisters", "四姊妹"),
    ("small_five_sisters", "小五姊妹"),
    ("five_sisters", "五姊妹"),
    ("big_five_gates", "大五門齊"),
    ("seven_gates", "七門齊"),
    ("all_same_number", "滿庭芳"),
    ("pure_terminals", "清么九"),
    ("thirteen_orphans", "十三么"),
    ("thirteen_orphans_13", "十三么十三飛"),
    ("eight_pairs_8_wait", "嚦咕嚦咕八飛"),
    ("flower_replacement_win", "花上自摸"),
    ("replacement_chain_win", "連續尾牌胡牌"),
    ("robbing_kong_chain", "搶槓上槓胡牌"),
    ("double_win", "一炮雙響"),
    ("triple_win", "一炮三響"),
    ("ten_within", "十隻內"),
    ("seven_within", "七隻內"),
    ("big_chicken", "大雞胡"),
    ("duck", "鴨胡"),
    # platform tables (PLATFORMS.md 4): 宅神爺's 見風見台, 1 each per pon or kong of a wind
    ("wind_pung", "見風見台"),
)
ITEM_KEYS = tuple(k for k, _ in ITEMS)
ITEM_ZH = dict(ITEMS)
ITEM_INDEX = {k: i for i, k in enumerate(ITEM_KEYS)}
N_ITEMS = len(ITEMS)

# The extras pack's items (EXTRAS.md 2, row order) and the MCR detectors (EXTRAS.md 4). Compiled code
# computes them only for a profile that names one (Profile.compiled() p_opts[PO_EXTRAS]).
EXTRAS_KEYS = ("eight_pairs",) + ITEM_KEYS[ITEM_INDEX["pure_thirteen_orphans"] : ITEM_INDEX["four_in_two"] + 1]
MCR_KEYS = ITEM_KEYS[ITEM_INDEX["seven_shifted_pairs"] : ITEM_INDEX["no_honours"] + 1]

# Families (EXTRAS.md 1.4): within one, a set serves at most one pattern, each item counts at most once
# and the assignment with the highest total is scored; so members never replace each other outside
# the assignment (Profile.compiled() drops replaces between members of one family).
FAMILIES: tuple[tuple[str, ...], ...] = (
    ("four_identical_chows", "pure_triple_chow", "double_identical", "identical_chows"),
    ("pure_five_step", "pure_four_step", "pure_four_step_concealed", "pure_three_step", "pure_three_step_concealed"),
    (
        "five_shifted_pungs",
        "four_shifted_pungs",
        "three_shifted_pungs",
        "double_two_shifted_pungs",
        "two_shifted_pungs",
    ),
    ("three_suit_pungs", "double_two_suit_pungs", "two_suit_pungs"),
    ("three_suit_chows", "double_two_suit_chows", "two_suit_chows"),
    ("five_kongs", "four_kongs", "three_kongs"),
)

# hongkong families (HONGKONG.md 2.2), each from its smallest member up; a member replaces the members
# before it on the same sets (般高: two_double_chows and triple_chow are peers, below quadruple_chow).
# Profile.compiled() drops replaces inside them for a hongkong profile (native/src/hk_families.cpp chooses).
HK_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("double_chow", "two_double_chows", "triple_chow", "quadruple_chow"),
    ("two_suit_chows", "three_suit_chows"),
    ("two_brothers", "small_three_brothers", "three_brothers"),
    (
        "two_sisters",
        "small_three_sisters",
        "three_sisters",
        "small_four_sisters",
        "four_sisters",
        "small_five_sisters",
        "five_sisters",
    ),
    ("two_concealed", "three_concealed", "four_concealed", "five_concealed", "all_concealed_pungs"),
    ("four_in_two", "four_in_three", "four_in_four"),
)

# The hongkong-only items (PLATFORMS.md 5): the block ippatsu .. duck, scored by the hongkong table only;
# a profile that does not extend hongkong may not name them.
HK_ONLY_KEYS = ITEM_KEYS[ITEM_INDEX["ippatsu"] : ITEM_INDEX["duck"] + 1]

# Dealer items apply per payment leg (RULES.md 4), never as hand tai.
DEALER_ZH = {"dealer": "莊家", "dealer_streak": "連莊拉莊"}
