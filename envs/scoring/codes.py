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

# (key, 中文). Every key a profile may give a value; one predicate each in `items.py`.
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
)
ITEM_KEYS = tuple(k for k, _ in ITEMS)
ITEM_ZH = dict(ITEMS)
ITEM_INDEX = {k: i for i, k in enumerate(ITEM_KEYS)}
N_ITEMS = len(ITEMS)

# Dealer items apply per payment leg (RULES.md 4), never as hand tai.
DEALER_ZH = {"dealer": "莊家", "dealer_streak": "連莊拉莊"}
