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

# Situational flags (CASES.md `flags`), one bit each.
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
)
F_KONG_REPLACEMENT = 1 << 0
F_FLOWER_REPLACEMENT = 1 << 1
F_LAST_TILE = 1 << 2
F_HEAVENLY = 1 << 3
F_EARTHLY = 1 << 4
F_HUMAN = 1 << 5
F_HEAVENLY_READY = 1 << 6
F_EARTHLY_READY = 1 << 7
F_DECLARED_READY = 1 << 8
F_SHOWN_READY = 1 << 9
F_READY_ANY = F_HEAVENLY_READY | F_EARTHLY_READY | F_DECLARED_READY | F_SHOWN_READY
# `replacement_chain` (EXTRAS.md 2.2): the number of consecutive replacement draws in the winner's turn
# that end with the winning tile, stored in the flag word from this bit up (0 = not given: 1 when a
# replacement flag is set). Read it with `(flags >> CHAIN_SHIFT) & CHAIN_MASK`.
CHAIN_SHIFT = 16
CHAIN_MASK = 0xFF
# hongkong context (HONGKONG.md 3.1, 3.8, 6), set by the engine only for that profile.
F_IPPATSU = 1 << 10  # 一發
F_ROB_KONG_CHAIN = 1 << 11  # the robbed kong was declared with a replacement tile
F_ROBBED_ANKONG = 1 << 12  # 十三么 robbing an ankong (with WIN_ROB_KONG)
CO_WINNERS_SHIFT = 24  # seats winning on the same discard or robbed kong, 1..3 (0: not given = 1)
CO_WINNERS_MASK = 0x3
DISCARDS_SHIFT = 26  # discards made in the hand up to the win, claimed and the winning one included
DISCARDS_MASK = 0xFF
FLOOR_SHIFT = 34  # discarded tiles lying in the pools at the win, the winning discard included
FLOOR_MASK = 0xFF

# (key, 中文). Every key a profile may give a value; one predicate each (envs/scoring/core.py,
# envs/scoring/extras.py). Append only: the index is the position.
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
    ("five_shifted_pungs", "four_shifted_pungs", "three_shifted_pungs", "double_two_shifted_pungs", "two_shifted_pungs"),
    ("three_suit_pungs", "double_two_suit_pungs", "two_suit_pungs"),
    ("three_suit_chows", "double_two_suit_chows", "two_suit_chows"),
    ("five_kongs", "four_kongs", "three_kongs"),
)

# Dealer items apply per payment leg (RULES.md 4), never as hand tai.
DEALER_ZH = {"dealer": "莊家", "dealer_streak": "連莊拉莊"}
