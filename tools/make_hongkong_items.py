"""The source of tests/data/hongkong_items.jsonl: `python tools/make_hongkong_items.py` rewrites it.

A positive (id token "pos:KEY") and a negative ("neg:KEY") case for every hongkong item, plus count
methods, the dual reading, legs and refusals. Every expectation below is written by hand from
HONGKONG.md (the `note` says why); nothing here computes a score. Seat S (own flowers f2 f6), prevailing
wind E, discarder W unless a case says otherwise.
"""

import json
import sys
from pathlib import Path

out = []


def case(
    cid,
    hand,
    melds=(),
    flowers="f2",
    win_tile=None,
    win_by="discard",
    discarder="W",
    seat="S",
    rnd="E",
    items=None,
    note="",
    deltas=None,
    error=False,
    **kw,
):
    c = {"id": cid, "profile": "hongkong", "hand": hand, "melds": list(melds), "flowers": flowers}
    if win_tile:
        c["win_tile"] = win_tile
    c["win_by"] = win_by
    if win_by in ("discard", "rob_kong") or (win_by == "flowers" and discarder and len(flowers.split()) == 7):
        c["discarder"] = discarder
    c.update({"seat": seat, "round": rnd})
    streak = kw.pop("streak", 0)
    c["streak"] = streak
    c["flags"] = kw.pop("flags", [])
    rules = kw.pop("rules", {})
    c.update(kw)
    c["rules"] = rules
    if error:
        c["expected"] = {"error": True}
    else:
        e = {"items": items, "hand_tai": sum(items.values())}
        if deltas:
            e["deltas"] = deltas
        c["expected"] = e
    c["note"] = note
    out.append(c)


B0 = dict(hand="67m NN", melds=["chi 123m", "chi 456p", "pon 777s", "chi 234s"], win_tile="8m")
C0 = dict(hand="123m 567m 234p 67p 999s NN", win_tile="8p")
SF = {"seat_flower": 2}


def d(**k):
    return k


# ---- 3.1 hand state and waits
case(
    "neg:self_draw neg:declared_ready neg:double_win neg:robbing_kong neg:big_chicken neg:dragon",
    **B0,
    items=SF,
    note="base hand B0: melded, two-sided 67m, honour eye NN, own flower f2 (S): seat_flower only, so not a chicken hand",
)
case("pos:self_draw", **B0, win_by="self_draw", items={"self_draw": 1, **SF}, note="B0 self-drawn, melded: no 門清")
case(
    "pos:concealed neg:no_flowers neg:concealed_self_draw neg:other_flower",
    **C0,
    items={"concealed": 3, **SF},
    note="C0: five sets in hand, won on a discard",
)
case(
    "pos:concealed_kong_meld",
    hand="123m 567m 234p 67p NN",
    melds=["kong 9999s"],
    win_tile="8p",
    items={"concealed": 3, "exposed_kong": 1, **SF},
    note="section 1: a kong claimed on a discard keeps the hand concealed",
)
case(
    "neg:concealed",
    hand="123m 567m 234p 67p NN",
    melds=["addkong 9999s"],
    win_tile="8p",
    items={"exposed_kong": 1, **SF},
    note="an addkong needs a pon: not concealed",
)
case(
    "pos:concealed_self_draw",
    **C0,
    win_by="self_draw",
    items={"concealed_self_draw": 5, **SF},
    note="replaces self_draw and concealed",
)
case(
    "pos:declared_ready neg:ippatsu",
    **B0,
    flags=["declared_ready"],
    items={"declared_ready": 5, **SF},
    note="聽牌, any hand",
)
case(
    "pos:ippatsu",
    **B0,
    flags=["declared_ready", "ippatsu"],
    items={"declared_ready": 5, "ippatsu": 5, **SF},
    note="一發",
)
case("err:ippatsu_alone", **B0, flags=["ippatsu"], error=True, note="ippatsu without declared_ready is refused")
W1 = dict(melds=["chi 456p", "pon 777s", "chi 234s", "chi 567m"])
case(
    "pos:single_wait neg:false_single",
    hand="12m NN",
    **W1,
    win_tile="3m",
    items={"single_wait": 2, **SF},
    note="edge 12m waits on 3m only: 獨獨; false_single needs two or more waits",
)
case(
    "neg:single_wait neg:false_single neg:two_pair_wait neg:pair_258",
    **B0,
    items=SF,
    note="B0 waits on 5m and 8m (not pairs), completes 678m two-sided",
)
case(
    "pos:false_single pos:pair_258",
    hand="5666p",
    melds=["chi 123m", "pon 777s", "chi 234s", "chi 678m"],
    win_tile="5p",
    items={"false_single": 1, "pair_258": 1, "no_honours": 1, **SF},
    note="seed: 5666p waits 4p 5p 7p; on 5p the eye 55p is completed: 假獨; 55p is a 2-5-8 eye",
)
T1 = dict(hand="55p NN", melds=["chi 123m", "chi 456s", "pon 777s", "chi 234p"])
case(
    "pos:two_pair_wait",
    **T1,
    win_tile="N",
    items={"two_pair_wait": 1, "pair_258": 1, "other_wind": 1, **SF},
    note="對碰 on 5p/N won on N: NNN (neither S nor E: 偏風), eye 55p",
)
case(
    "pos:two_pair_wait_other",
    **T1,
    win_tile="5p",
    items={"two_pair_wait": 1, **SF},
    note="the same wait won on 5p: 555p, eye NN",
)
case(
    "pos:half_beggar",
    hand="N",
    melds=["chi 123m", "chi 456p", "pon 777s", "chi 234s", "chi 678m"],
    win_tile="N",
    win_by="self_draw",
    items={"half_beggar": 10, "self_draw": 1, **SF},
    note="five melds, single wait, self-drawn; replaces single_wait",
)
case(
    "neg:half_beggar",
    hand="N",
    melds=["chi 123m", "chi 456p", "ankong 7777s", "chi 234s", "chi 678m"],
    win_tile="N",
    win_by="self_draw",
    items={"self_draw": 1, "single_wait": 2, "concealed_kong": 2, **SF},
    note="an ankong is not a meld for 半求人 (chi melds: not concealed)",
)
case(
    "pos:full_beggar neg:half_beggar_discard",
    hand="N",
    melds=["chi 123m", "chi 456p", "pon 777s", "chi 234s", "chi 678m"],
    win_tile="N",
    items={"full_beggar": 15, **SF},
    note="全求人 on a discard",
)
case(
    "neg:full_beggar",
    hand="N",
    melds=["chi 123m", "chi 456p", "pon 777s", "chi 234s", "chi 678m"],
    win_tile="N",
    win_by="self_draw",
    items={"half_beggar": 10, "self_draw": 1, **SF},
    note="self-drawn: half, not full",
)

# ---- 3.2 flowers (S: f2 f6)
case("pos:no_flowers neg:seat_flower", **C0 | {"flowers": ""}, items={"concealed": 3, "no_flowers": 1}, note="無花")
case(
    "pos:other_flower neg:other_flower_own",
    **C0 | {"flowers": "f1"},
    items={"concealed": 3, "other_flower": 1},
    note="f1 is E's flower",
)
case("pos:other_flower_each", **C0 | {"flowers": "f1 f3 f5"}, items={"concealed": 3, "other_flower": 3}, note="1 each")
case(
    "pos:flower_set neg:eight_flowers",
    **C0 | {"flowers": "f1 f2 f3 f4 f6"},
    items={"concealed": 3, "flower_set": 10, "seat_flower": 2},
    note="春夏秋冬 complete: 一臺花 replaces the flower items of its set only; f6 is still 正花",
)
case(
    "neg:flower_set",
    **C0 | {"flowers": "f1 f2 f3 f5"},
    items={"concealed": 3, "seat_flower": 2, "other_flower": 3},
    note="no complete set",
)
case(
    "pos:eight_flowers",
    **C0 | {"flowers": "f1 f2 f3 f4 f5 f6 f7 f8"},
    items={"concealed": 3, "eight_flowers": 40},
    note="section 6: an ordinary win with all eight (the flower win was passed); replaces the other flower items",
)
case(
    "pos:eight_flowers_win neg:seven_rob_one",
    hand="123m 456m 789p 123s 4p 9p E N",
    flowers="f1 f2 f3 f4 f5 f6 f7 f8",
    win_by="flowers",
    seat="W",
    items={"eight_flowers": 40},
    deltas={"E": -430, "S": -430, "W": 1290, "N": -430},
    note="八仙 without a complete hand: paid by all three as a self-draw, no dealer tai on E's leg",
)

# ---- 3.3 honours
case(
    "pos:seat_or_round_wind",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon SSS", "chi 234s"],
    win_tile="8m",
    items={"seat_or_round_wind": 2, **SF},
    note="SSS is S's seat wind",
)
case(
    "pos:seat_or_round_wind_both neg:other_wind",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon SSS", "chi 234s"],
    win_tile="8m",
    rnd="S",
    items={"seat_or_round_wind": 2, **SF},
    note="seat and prevailing wind at once: 2, not 4",
)
case(
    "pos:other_wind neg:seat_or_round_wind",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon WWW", "chi 234s"],
    win_tile="8m",
    items={"other_wind": 1, **SF},
    note="WWW is neither S nor E: 偏風",
)
case(
    "pos:dragon neg:five_gates",
    hand="67m 99p",
    melds=["chi 123m", "chi 456p", "pon CCC", "chi 234s"],
    win_tile="8m",
    items={"dragon": 2, **SF},
    note="CCC; no wind anywhere, so not 五門齊",
)
case(
    "pos:small_three_winds neg:big_three_winds",
    hand="67m SS",
    melds=["chi 123m", "pon EEE", "pon WWW", "chi 234s"],
    win_tile="8m",
    items={"seat_or_round_wind": 2, "other_wind": 1, "small_three_winds": 15, "missing_suit": 5, **SF},
    note="EEE (prevailing) and WWW, eye SS; wind items still count; m and s only",
)
case(
    "neg:small_three_winds",
    hand="67m CC",
    melds=["chi 123m", "pon EEE", "pon WWW", "chi 234s"],
    win_tile="8m",
    items={"seat_or_round_wind": 2, "other_wind": 1, "missing_suit": 5, **SF},
    note="the eye is a dragon",
)
case(
    "pos:big_three_winds neg:small_winds",
    hand="67m CC",
    melds=["chi 234s", "pon EEE", "pon WWW", "pon NNN"],
    win_tile="8m",
    items={"seat_or_round_wind": 2, "other_wind": 2, "big_three_winds": 30, "missing_suit": 5, **SF},
    note="EEE WWW NNN: 大三風 (replaces 小三風); only m and s: 缺一門",
)
case(
    "pos:small_winds neg:big_winds",
    hand="67m SS",
    melds=["chi 234s", "pon EEE", "pon WWW", "pon NNN"],
    win_tile="8m",
    items={"seat_or_round_wind": 2, "other_wind": 2, "small_winds": 60, "missing_suit": 5, **SF},
    note="three wind pons and the eye of the fourth: 小四喜 replaces 小三風 and 大三風",
)
case(
    "pos:big_winds",
    hand="67m CC",
    melds=["pon EEE", "pon SSS", "pon WWW", "pon NNN"],
    win_tile="8m",
    items={"seat_or_round_wind": 4, "other_wind": 2, "big_winds": 80, "half_flush": 30, **SF},
    note="four wind pons; EEE prevailing and SSS seat 2 each; m plus honours: 混一色",
)
case(
    "pos:small_dragons neg:big_dragons",
    hand="67m PP",
    melds=["chi 234s", "pon CCC", "pon FFF", "chi 456p"],
    win_tile="8m",
    items={"dragon": 4, "small_dragons": 20, **SF},
    note="two dragon pons and the eye PP",
)
case(
    "pos:big_dragons neg:small_dragons",
    hand="67m NN",
    melds=["chi 234s", "pon CCC", "pon FFF", "pon PPP"],
    win_tile="8m",
    items={"dragon": 6, "big_dragons": 40, "missing_suit": 5, **SF},
    note="大三元 replaces 小三元 (section 8.3)",
)
case(
    "pos:all_honours",
    hand="SS NN",
    melds=["pon EEE", "pon WWW", "pon CCC", "pon FFF"],
    win_tile="N",
    items={
        "two_pair_wait": 1,
        "seat_or_round_wind": 2,
        "other_wind": 2,
        "dragon": 4,
        "small_winds": 60,
        "all_honours": 80,
        **SF,
    },
    note="字一色 (replaces 對對胡); EEE WWW NNN and eye SS: 小四喜; 對碰 on S/N won on N",
)
case("neg:all_honours neg:all_pungs", **B0, items=SF, note="B0 has suited tiles and chows")
PH = dict(hand="67m 88p", melds=["chi 234m", "chi 456p", "pon 777s", "pon 333s"], win_tile="8m")
case(
    "pos:no_honours pos:all_simples neg:no_honours_no_flowers",
    **PH,
    items={"all_simples": 5, "no_honours": 1, "pair_258": 1, **SF},
    note="no honour, a flower: 無字 only; no 1 or 9: 斷么九",
)
case(
    "pos:no_honours_no_flowers",
    **PH | {"flowers": ""},
    items={"all_simples": 5, "no_honours_no_flowers": 3, "pair_258": 1},
    note="無字花 replaces 無字 and 無花",
)
case("neg:no_honours neg:all_simples", **B0, items=SF, note="honour eye; 1m")

# ---- 3.4 chows
AC = dict(hand="67m NN", melds=["chi 123m", "chi 456p", "chi 345s", "chi 234s"], win_tile="8m")
case("pos:all_chows neg:big_all_chows", **AC, items={"all_chows": 5, **SF}, note="five chows; honour eye")
case("neg:all_chows", **B0, items=SF, note="B0 has a pon")
case(
    "pos:big_all_chows",
    hand="67m 99p",
    melds=["chi 123m", "chi 456p", "chi 345s", "chi 234s"],
    win_tile="8m",
    flowers="",
    items={"big_all_chows": 10},
    note="five chows, no honour, no flower: replaces 平胡 and 無字花",
)
case(
    "neg:big_all_chows_flower",
    hand="67m 99p",
    melds=["chi 123m", "chi 456p", "chi 345s", "chi 234s"],
    win_tile="8m",
    items={"all_chows": 5, "no_honours": 1, **SF},
    note="a flower: 平胡 + 無字",
)
case(
    "pos:double_chow neg:two_double_chows neg:triple_chow",
    hand="23m NN",
    melds=["chi 123m", "chi 456p", "pon 777s", "chi 234s"],
    win_tile="1m",
    items={"double_chow": 5, **SF},
    note="123m twice (23m waits 1m/4m)",
)
case("neg:double_chow", **B0, items=SF, note="no two identical chows")
case(
    "pos:two_double_chows",
    hand="34s NN",
    melds=["chi 123m", "chi 123m", "chi 456p", "chi 456p"],
    win_tile="2s",
    items={"two_double_chows": 15, "all_chows": 5, **SF},
    note="123m x2 and 456p x2: 雙般高",
)
case(
    "pos:triple_chow neg:quadruple_chow",
    hand="34s NN",
    melds=["chi 123m", "chi 123m", "chi 123m", "pon 777p"],
    win_tile="2s",
    items={"triple_chow": 15, **SF},
    note="三般高",
)
case(
    "pos:quadruple_chow neg:four_in_four",
    hand="34s NN",
    melds=["chi 123m", "chi 123m", "chi 123m", "chi 123m"],
    win_tile="2s",
    items={"quadruple_chow": 30, "all_chows": 5, "missing_suit": 5, **SF},
    note="四般高; 1m 2m 3m each lie in four chows but 四歸四 is replaced on its sets",
)
case(
    "pos:two_suit_chows neg:three_suit_chows",
    hand="67m NN",
    melds=["chi 123m", "chi 123p", "pon 777s", "chi 456p"],
    win_tile="8m",
    items={"two_suit_chows": 3, **SF},
    note="123m + 123p",
)
case(
    "pos:two_suit_chows_each",
    hand="77s NN",
    melds=["chi 123m", "chi 123p", "chi 456m", "chi 456p"],
    win_tile="N",
    items={"two_suit_chows": 6, "two_pair_wait": 1, "other_wind": 1, **SF},
    note="two set-disjoint occurrences, 3 each",
)
case("neg:two_suit_chows", **B0, items=SF, note="no two chows of the same numbers")
case(
    "pos:three_suit_chows",
    hand="67m NN",
    melds=["chi 123m", "chi 123p", "chi 123s", "pon 777p"],
    win_tile="8m",
    items={"three_suit_chows": 10, **SF},
    note="三相逢 replaces 兩相逢",
)
case(
    "pos:mixed_shifted_chows neg:mixed_shifted_chows_concealed",
    hand="67m NN",
    melds=["chi 123p", "chi 234m", "chi 345s", "pon 777p"],
    win_tile="8m",
    items={"mixed_shifted_chows": 5, **SF},
    note="123p 234m 345s, chi'd: 明",
)
case("neg:mixed_shifted_chows", **B0, items=SF, note="starts 1 6 / 4 / 2: no n n+1 n+2")
case(
    "pos:mixed_shifted_chows_concealed",
    hand="123p 234m 345s 67m NN",
    melds=["pon 777p"],
    win_tile="8m",
    items={"mixed_shifted_chows_concealed": 10, **SF},
    note="the pattern's sets are in hand, the discard completes 678m",
)
case(
    "pos:mixed_shifted_chows_discard",
    hand="123p 234m 34s 678m NN",
    melds=["pon 777p"],
    win_tile="5s",
    items={"mixed_shifted_chows": 5, **SF},
    note="the discard 5s completes 345s, a set of the pattern: 明 (2.4)",
)
case(
    "pos:pure_shifted_chows neg:pure_shifted_chows_concealed",
    hand="78s NN",
    melds=["chi 345m", "chi 456m", "chi 567m", "pon 777p"],
    win_tile="9s",
    items={"pure_shifted_chows": 10, **SF},
    note="345m 456m 567m chi'd",
)
case(
    "neg:pure_shifted_chows",
    hand="67m NN",
    melds=["chi 123p", "chi 234m", "chi 345s", "pon 777p"],
    win_tile="8m",
    items={"mixed_shifted_chows": 5, **SF},
    note="steps across suits are not 一色",
)
case(
    "pos:pure_shifted_chows_concealed",
    hand="345m 456m 567m 78s NN",
    melds=["pon 777p"],
    win_tile="9s",
    items={"pure_shifted_chows_concealed": 20, **SF},
    note="in hand, won on 9s outside the pattern",
)
case(
    "pos:mixed_straight neg:mixed_straight_concealed",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "chi 789s", "pon 111p"],
    win_tile="8m",
    items={"mixed_straight": 8, **SF},
    note="123m 456p 789s chi'd",
)
case("neg:mixed_straight neg:pure_straight neg:old_young", **B0, items=SF, note="B0")
case(
    "pos:mixed_straight_concealed",
    hand="123m 456p 789s 67m NN",
    melds=["pon 111p"],
    win_tile="8m",
    items={"mixed_straight_concealed": 15, **SF},
    note="暗彩龍",
)
case(
    "pos:pure_straight neg:pure_straight_concealed",
    hand="67s NN",
    melds=["chi 123m", "chi 456m", "chi 789m", "pon 111p"],
    win_tile="8s",
    items={"pure_straight": 10, "old_young": 2, **SF},
    note="明龍; 123m + 789m also 老少 (different items share sets)",
)
case(
    "pos:pure_straight_concealed",
    hand="123456789m 67s NN",
    melds=["pon 111p"],
    win_tile="8s",
    items={"pure_straight_concealed": 20, "old_young": 2, **SF},
    note="暗龍",
)
case(
    "pos:old_young",
    hand="34s NN",
    melds=["chi 123m", "chi 789m", "chi 456p", "pon 555s"],
    win_tile="2s",
    items={"old_young": 2, **SF},
    note="老少上 123m + 789m",
)
case(
    "pos:old_young_pons",
    hand="78p NN",
    melds=["pon 111m", "pon 999m", "chi 456p", "chi 234s"],
    win_tile="9p",
    items={"old_young": 2, **SF},
    note="老少碰 111m + 999m",
)

# ---- 3.5 pons and kongs
case(
    "pos:all_pungs",
    hand="33m NN",
    melds=["pon 222m", "pon 555p", "pon 888s", "pon WWW"],
    win_tile="N",
    items={"all_pungs": 30, "other_wind": 2, "two_pair_wait": 1, **SF},
    note="five pons",
)
case(
    "pos:exposed_kong neg:concealed_kong",
    hand="123m 567m 234p 67p NN",
    melds=["kong 9999s"],
    win_tile="8p",
    items={"concealed": 3, "exposed_kong": 1, **SF},
    note="明槓",
)
case("neg:exposed_kong", **C0, items={"concealed": 3, **SF}, note="no kong")
case(
    "pos:concealed_kong",
    hand="123m 567m 234p 67p NN",
    melds=["ankong 9999s"],
    win_tile="8p",
    items={"concealed": 3, "concealed_kong": 2, **SF},
    note="暗槓; one concealed pon only",
)
SIS = dict(melds=["chi 123p", "chi 456s"])
case(
    "pos:two_concealed neg:three_concealed",
    hand="222m 555p 67s NN",
    **SIS,
    win_tile="8s",
    items={"two_concealed": 5, **SF},
    note="222m 555p in hand",
)
case(
    "neg:two_concealed",
    hand="222m 55p 678s NN",
    **SIS,
    win_tile="5p",
    items={"two_pair_wait": 1, **SF},
    note="2.5: 555p is completed by the winning discard, so only one concealed pon",
)
case(
    "pos:two_concealed_self_drawn",
    hand="222m 55p 678s NN",
    **SIS,
    win_tile="5p",
    win_by="self_draw",
    items={"self_draw": 1, "two_pair_wait": 1, "two_concealed": 5, **SF},
    note="completed by a self-drawn tile: concealed",
)
case(
    "pos:three_concealed neg:four_concealed",
    hand="222m 555p 999s 67s NN",
    melds=["chi 123p"],
    win_tile="8s",
    items={"three_concealed": 10, **SF},
    note="三暗刻",
)
case(
    "pos:four_concealed neg:five_concealed",
    hand="222m 555p 999s EEE N",
    melds=["chi 345s"],
    win_tile="N",
    items={"four_concealed": 30, "seat_or_round_wind": 2, "single_wait": 2, **SF},
    note="四暗刻; single wait on N",
)
case(
    "pos:five_concealed neg:all_concealed_pungs",
    hand="222m 555p 999s 777m N",
    melds=["ankong EEEE"],
    win_tile="N",
    items={"concealed": 3, "single_wait": 2, "concealed_kong": 2, "seat_or_round_wind": 2, "five_concealed": 50, **SF},
    note="five concealed pons, one an ankong: 五暗刻 (replaces 對對胡)",
)
case(
    "neg:all_concealed_pungs_discard",
    hand="222m 555p 777m 999s EE NN",
    win_tile="E",
    items={"concealed": 3, "two_pair_wait": 1, "seat_or_round_wind": 2, "all_pungs": 30, "four_concealed": 30, **SF},
    note="EEE is completed by the discard: four concealed pons and 對對胡",
)
case(
    "pos:all_concealed_pungs",
    hand="222m 555p 777m 999s EE NN",
    win_tile="E",
    win_by="self_draw",
    items={"concealed_self_draw": 5, "two_pair_wait": 1, "seat_or_round_wind": 2, "all_concealed_pungs": 100, **SF},
    note="坎坎胡: five pons formed in hand, none a kong",
)
case(
    "pos:two_brothers neg:small_three_brothers",
    hand="78s NN",
    melds=["pon 222m", "pon 222p", "chi 456s", "chi 678m"],
    win_tile="9s",
    items={"two_brothers": 5, **SF},
    note="222m 222p",
)
case(
    "pos:two_brothers_each",
    hand="78s NN",
    melds=["pon 222m", "pon 222p", "pon 555m", "pon 555s"],
    win_tile="9s",
    items={"two_brothers": 10, **SF},
    note="222m 222p and 555m 555s: 5 each",
)
case("neg:two_brothers neg:two_sisters", **B0, items=SF, note="one pon")
case(
    "pos:small_three_brothers neg:three_brothers",
    hand="78s 22s",
    melds=["pon 222m", "pon 222p", "chi 456s", "chi 678m"],
    win_tile="9s",
    items={"small_three_brothers": 8, "no_honours": 1, "pair_258": 1, **SF},
    note="and the eye 22s",
)
case(
    "pos:three_brothers",
    hand="45p NN",
    melds=["pon 222m", "pon 222p", "pon 222s", "chi 678m"],
    win_tile="3p",
    items={"three_brothers": 15, **SF},
    note="三兄弟",
)
case(
    "pos:two_sisters neg:small_three_sisters",
    hand="78p NN",
    melds=["pon 222m", "pon 333m", "chi 456p", "chi 678s"],
    win_tile="9p",
    items={"two_sisters": 5, **SF},
    note="222m 333m",
)
case(
    "neg:two_sisters_suits",
    hand="78s NN",
    melds=["pon 222m", "pon 222p", "chi 456s", "chi 678m"],
    win_tile="9s",
    items={"two_brothers": 5, **SF},
    note="two suits: brothers, not sisters",
)
case(
    "pos:small_three_sisters neg:three_sisters",
    hand="78p 44m",
    melds=["pon 222m", "pon 333m", "chi 456p", "chi 678s"],
    win_tile="9p",
    items={"small_three_sisters": 8, "no_honours": 1, **SF},
    note="222m 333m and the eye 44m",
)
case(
    "pos:three_sisters neg:small_four_sisters",
    hand="78p NN",
    melds=["pon 222m", "pon 333m", "pon 444m", "chi 678s"],
    win_tile="9p",
    items={"three_sisters": 15, **SF},
    note="三姊妹",
)
case(
    "pos:small_four_sisters neg:four_sisters",
    hand="78p 55m",
    melds=["pon 222m", "pon 333m", "pon 444m", "chi 678s"],
    win_tile="9p",
    items={"small_four_sisters": 20, "no_honours": 1, "pair_258": 1, **SF},
    note="and the eye 55m",
)
case(
    "pos:four_sisters neg:small_five_sisters",
    hand="78p NN",
    melds=["pon 222m", "pon 333m", "pon 444m", "pon 555m"],
    win_tile="9p",
    items={"four_sisters": 40, "missing_suit": 5, **SF},
    note="四姊妹",
)
case(
    "pos:small_five_sisters neg:five_sisters",
    hand="78p 66m",
    melds=["pon 222m", "pon 333m", "pon 444m", "pon 555m"],
    win_tile="9p",
    items={"small_five_sisters": 60, "missing_suit": 5, "no_honours": 1, **SF},
    note="and the eye 66m",
)
case(
    "pos:five_sisters",
    hand="666m N",
    melds=["pon 222m", "pon 333m", "pon 444m", "pon 555m"],
    win_tile="N",
    items={"five_sisters": 80, "all_pungs": 30, "single_wait": 2, "half_flush": 30, **SF},
    note="五姊妹",
)

# ---- 3.6 tiles and suits
case(
    "pos:four_in_two neg:four_in_three",
    hand="67m NN",
    melds=["chi 234m", "chi 456p", "pon 777s", "chi 789s"],
    win_tile="8m",
    items={"four_in_two": 5, **SF},
    note="7s in the pon 777s and the chow 789s",
)
case(
    "neg:four_in_two",
    hand="123m 567m 234p 67p NN",
    melds=["kong 9999s"],
    win_tile="8p",
    items={"concealed": 3, "exposed_kong": 1, **SF},
    note="four 9s as a kong are not 四歸",
)
case(
    "pos:four_in_three neg:four_in_two_eye",
    hand="78p 22m",
    melds=["chi 123m", "chi 234m", "pon 777s", "chi 456p"],
    win_tile="9p",
    items={"four_in_three": 10, "no_honours": 1, "pair_258": 1, **SF},
    note="2m in the eye and two chows",
)
case(
    "pos:four_in_four",
    hand="78p NN",
    melds=["chi 123m", "chi 234m", "chi 345m", "chi 345m"],
    win_tile="9p",
    items={"four_in_four": 20, "pure_shifted_chows": 10, "double_chow": 5, "all_chows": 5, "missing_suit": 5, **SF},
    note="3m in four chows; 123m 234m 345m 一色步步高 (計法1: once); 345m twice 一般高",
)
case(
    "pos:missing_suit",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon 777p", "chi 234p"],
    win_tile="8m",
    items={"missing_suit": 5, **SF},
    note="m and p only",
)
case("neg:missing_suit", **B0, items=SF, note="three suits")
case(
    "pos:five_gates neg:big_five_gates neg:seven_gates",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon 777s", "pon CCC"],
    win_tile="8m",
    items={"five_gates": 10, "dragon": 2, **SF},
    note="m p s, wind N, dragon C",
)
case(
    "pos:big_five_gates",
    hand="78s 99p",
    melds=["pon EEE", "pon CCC", "chi 234m", "chi 456p"],
    win_tile="9s",
    items={"big_five_gates": 15, "seat_or_round_wind": 2, "dragon": 2, **SF},
    note="one set per category",
)
case(
    "pos:seven_gates",
    hand="67m NN",
    melds=["chi 123m", "chi 456p", "pon 777s", "pon CCC"],
    win_tile="8m",
    flowers="f2 f6",
    items={"seven_gates": 20, "dragon": 2, "seat_flower": 4},
    note="and a flower of each set",
)
case(
    "pos:all_same_number",
    hand="46m 55p",
    melds=["chi 345m", "chi 456p", "pon 555s", "chi 567s"],
    win_tile="5m",
    items={
        "single_wait": 2,
        "pair_258": 1,
        "no_honours": 1,
        "two_suit_chows": 3,
        "mixed_shifted_chows": 5,
        "four_in_two": 5,
        "all_same_number": 40,
        "all_simples": 5,
        **SF,
    },
    note="5 in every set and the eye; 456m+456p 兩相逢; 345m 456p 567s 三色步步高; 5s in 555s and 567s 四歸一; 46m waits on 5m only",
)
case("neg:all_same_number", **B0, items=SF, note="B0")
case(
    "pos:half_flush neg:full_flush",
    hand="34m NN",
    melds=["chi 123m", "pon 555m", "pon WWW", "chi 789m"],
    win_tile="2m",
    items={"half_flush": 30, "other_wind": 1, "old_young": 2, **SF},
    note="m and honours",
)
case("neg:half_flush", **B0, items=SF, note="three suits")
case(
    "pos:full_flush",
    hand="67m 99m",
    melds=["chi 123m", "pon 555m", "chi 789m", "chi 234m"],
    win_tile="8m",
    items={"full_flush": 80, "old_young": 2, "no_honours": 1, **SF},
    note="m only",
)
case(
    "pos:outside_mixed neg:outside_pure neg:mixed_terminals",
    hand="78s NN",
    melds=["chi 123m", "chi 789p", "pon 111s", "pon WWW"],
    win_tile="9s",
    items={"outside_mixed": 10, "other_wind": 1, "two_suit_chows": 3, **SF},
    note="every group holds a 1, 9 or honour; 789p + 789s 兩相逢",
)
case("neg:outside_mixed", **B0, items=SF, note="456p")
case(
    "pos:outside_pure",
    hand="12p 99m",
    melds=["chi 123m", "chi 789p", "pon 111s", "chi 789s"],
    win_tile="3p",
    items={"single_wait": 2, "no_honours": 1, "two_suit_chows": 6, "old_young": 2, "outside_pure": 15, **SF},
    note="全帶么; 123m+123p and 789p+789s 兩相逢 x2; 123p+789p 老少",
)
case(
    "pos:mixed_terminals neg:pure_terminals",
    hand="11s NN",
    melds=["pon 111m", "pon 999p", "pon WWW", "pon CCC"],
    win_tile="N",
    items={
        "two_pair_wait": 1,
        "other_wind": 2,
        "dragon": 2,
        "all_pungs": 30,
        "five_gates": 10,
        "mixed_terminals": 30,
        **SF,
    },
    note="混么九 replaces 全帶混么; 對對胡 still counts; m p s winds dragons: 五門齊",
)
case(
    "pos:pure_terminals",
    hand="11s 99m",
    melds=["pon 111m", "pon 999p", "pon 111p", "pon 999s"],
    win_tile="1s",
    items={
        "two_pair_wait": 1,
        "no_honours": 1,
        "old_young": 4,
        "all_pungs": 30,
        "three_brothers": 15,
        "small_three_brothers": 8,
        "pure_terminals": 50,
        **SF,
    },
    note="清么九; 111m 111p 111s 三兄弟, and 999p 999s with the eye 99m 小三兄弟 (other sets); 111p+999p and 111s+999s 老少碰",
)

# ---- 3.7 special shapes
O13 = "19m 19p 19s ESWNCF N 456p"
case(
    "pos:thirteen_orphans neg:thirteen_orphans_13",
    hand=O13,
    win_tile="P",
    items={"concealed": 3, "single_wait": 2, "five_gates": 10, "thirteen_orphans": 80, **SF},
    note="eye NN, set 456p; before the win it waited on P only",
)
case(
    "pos:thirteen_orphans_13_pon neg:thirteen_orphans",
    hand="19m 19p 19s ESWNCFP 555s",
    win_tile="9m",
    win_by="self_draw",
    items={"concealed_self_draw": 5, "five_gates": 10, "thirteen_orphans_13": 100, **SF},
    note="the set may be a pon of any tiles (555s); 13 lone orphans and the set wait on all 13",
)
case(
    "pos:sixteen_unrelated neg:unrelated_dragon neg:unrelated_same",
    hand="148m 259p 369s ESWNCFP",
    win_tile="E",
    items={"concealed": 3, "five_gates": 10, "sixteen_unrelated": 40, **SF},
    note="148 259 369, eye EE",
)
case(
    "err:sixteen_unrelated_gap2",
    hand="147m 258p 368s ESWNCFP",
    win_tile="E",
    items={},
    error=True,
    note="6s and 8s are 2 apart: not 十六不搭, not a winning hand",
)
case(
    "pos:unrelated_dragon neg:sixteen_unrelated",
    hand="258m 147p 369s ESWNCFP",
    win_tile="5m",
    items={"concealed": 3, "pair_258": 1, "five_gates": 10, "unrelated_dragon": 60, **SF},
    note="147 258 369 in any suit order",
)
case(
    "pos:unrelated_same",
    hand="149m 149p 149s ESWNCFP",
    win_tile="4p",
    items={"concealed": 3, "five_gates": 10, "sixteen_unrelated": 40, "unrelated_same": 15, **SF},
    note="149 in every suit",
)
case(
    "pos:eight_pairs neg:eight_pairs_8_wait",
    hand="11m 22m 99p 55s 66s EE CCC F",
    win_tile="F",
    items={"concealed": 3, "single_wait": 2, "dragon": 2, "five_gates": 10, "eight_pairs": 40, **SF},
    note="the 16 tiles were not eight pairs (CCC F): waits on F only",
)
case(
    "pos:eight_pairs_four",
    hand="1111m 99p 55s 66s EE CCC F",
    win_tile="F",
    items={"concealed": 3, "single_wait": 2, "dragon": 2, "four_in_two": 5, "five_gates": 10, "eight_pairs": 40, **SF},
    note="1111m is two pairs: 四歸一",
)
case("neg:eight_pairs", **C0, items={"concealed": 3, **SF}, note="C0")
case("neg:thirteen_orphans neg:sixteen_unrelated", **C0, items={"concealed": 3, **SF}, note="C0")

# ---- 3.8 win events
case(
    "pos:flower_replacement_win neg:kong_replacement_win",
    **C0,
    win_by="self_draw",
    flags=["flower_replacement"],
    items={"concealed_self_draw": 5, "flower_replacement_win": 1, **SF},
    note="花上自摸",
)
case(
    "neg:flower_replacement_win neg:replacement_chain_win",
    hand="789s 11s 45p",
    melds=["kong 3333p", "chi 567m", "pon CCC"],
    win_tile="6p",
    win_by="self_draw",
    flags=["kong_replacement"],
    items={"self_draw": 1, "single_wait": 2, "dragon": 2, "exposed_kong": 1, "kong_replacement_win": 1, **SF},
    note="HK10 without liable: 槓上自摸, all three pay",
)
case(
    "pos:replacement_chain_win neg:kong_replacement_win_chain",
    hand="123m 567m 234p 67p NN",
    melds=["kong 9999s"],
    win_tile="8p",
    win_by="self_draw",
    flags=["kong_replacement", "flower_replacement"],
    replacement_chain=2,
    items={"concealed": 3, "exposed_kong": 1, "replacement_chain_win": 10, **SF},
    note="槓上花: chain 2; no 自摸 (8.10), so 門前清 stays and no 門清一摸五",
)
case(
    "pos:last_tile_draw",
    **B0,
    win_by="self_draw",
    flags=["last_tile"],
    items={"self_draw": 1, "last_tile_draw": 10, **SF},
    note="海底撈月, self_draw still counts",
)
case("neg:last_tile_draw", **B0, flags=["last_tile"], items=SF, note="河底 on a discard is no hongkong item")
case("pos:robbing_kong neg:robbing_kong_chain", **B0, win_by="rob_kong", items={"robbing_kong": 1, **SF}, note="搶槓")
case(
    "pos:robbing_kong_chain",
    **B0,
    win_by="rob_kong",
    flags=["rob_kong_chain"],
    items={"robbing_kong_chain": 10, **SF},
    note="replaces robbing_kong",
)
case(
    "pos:robbed_ankong",
    hand=O13,
    win_tile="P",
    win_by="rob_kong",
    flags=["robbed_ankong"],
    items={"concealed": 3, "single_wait": 2, "five_gates": 10, "thirteen_orphans": 80, "robbing_kong": 1, **SF},
    note="only 十三么 may rob an ankong",
)
case("err:robbed_ankong", **B0, win_by="rob_kong", flags=["robbed_ankong"], error=True, note="not 十三么")
case("pos:double_win neg:triple_win", **B0, co_winners=2, items={"double_win": 5, **SF}, note="一炮雙響")
case("pos:triple_win neg:double_win", **B0, co_winners=3, items={"triple_win": 10, **SF}, note="一炮三響")
case(
    "pos:ten_within neg:seven_within",
    **C0,
    discards=12,
    floor=10,
    items={"concealed": 3, "ten_within": 10, **SF},
    note="10 in the pools",
)
case("neg:ten_within", **C0, discards=12, floor=11, items={"concealed": 3, **SF}, note="11")
case(
    "pos:seven_within",
    **C0,
    discards=9,
    floor=7,
    items={"concealed": 3, "seven_within": 20, **SF},
    note="replaces ten_within",
)
case(
    "pos:human_win neg:earthly_win",
    **C0,
    discards=4,
    items={"concealed": 3, "human_win": 80, **SF},
    note="four discards",
)
case("neg:human_win", **C0, discards=5, items={"concealed": 3, **SF}, note="five discards")
case(
    "neg:human_win_dealer",
    **C0,
    seat="E",
    discards=3,
    items={"concealed": 3, "other_flower": 1},
    deltas={"E": 80, "S": 0, "W": -80, "N": 0},
    note="the dealer is never 人胡; its leg: 4 + dealer 1",
)
case(
    "pos:earthly_win",
    **C0,
    discarder="E",
    discards=1,
    floor=1,
    items={"concealed": 3, "earthly_win": 100, **SF},
    deltas={"E": -1090, "S": 1090, "W": 0, "N": 0},
    note="on the dealer's first discard; replaces 人胡 and 七隻內; E pays dealer tai 1",
)
case(
    "neg:earthly_win",
    **C0,
    discarder="E",
    discards=2,
    items={"concealed": 3, "human_win": 80, **SF},
    deltas={"E": -890, "S": 890, "W": 0, "N": 0},
    note="second discard: 人胡",
)
case(
    "pos:heavenly_win",
    hand="123m 567m 234p 678p 999s NN",
    win_by="self_draw",
    seat="E",
    flags=["heavenly"],
    floor=0,
    items={"concealed_self_draw": 5, "other_flower": 1, "heavenly_win": 120},
    deltas={"E": 3900, "S": -1300, "W": -1300, "N": -1300},
    note="dealt complete; replaces 十隻內/七隻內; no wait; dealer tai 1 on each leg",
)
case(
    "neg:heavenly_win",
    **C0,
    win_by="self_draw",
    seat="E",
    items={"concealed_self_draw": 5, "other_flower": 1},
    note="no heavenly flag",
)

# ---- 3.9 chicken hands
case(
    "pos:big_chicken neg:duck", **B0 | {"flowers": ""}, items={"big_chicken": 30}, note="only 無花 on a discard: 大雞胡"
)
case("pos:duck", **B0 | {"flowers": ""}, win_by="self_draw", items={"duck": 15}, note="自摸 + 無花")
case(
    "neg:duck neg:big_chicken_concealed",
    **C0 | {"flowers": ""},
    win_by="self_draw",
    items={"concealed_self_draw": 5, "no_flowers": 1},
    note="concealed: not a chicken hand",
)

# ---- count methods, dual reading
CM = dict(hand="123m 123m 456p 78s NN", melds=["pon WWW"], win_tile="9s")
case(
    "cm1:straight",
    **CM,
    items={"double_chow": 5, "mixed_straight": 8, "other_wind": 1, **SF},
    note="計法1: one mixed_straight (123m 456p 789s) and one double_chow; 789s completed by the discard, so 明",
)
case(
    "cm2:straight",
    **CM,
    rules={"count_method": 2},
    items={"double_chow": 5, "mixed_straight": 16, "other_wind": 1, **SF},
    note="計法2: the two 123m give two mixed_straight",
)
case(
    "cm2:quadruple",
    hand="34s NN",
    melds=["chi 123m", "chi 123m", "chi 123m", "chi 123m"],
    win_tile="2s",
    rules={"count_method": 2},
    items={"quadruple_chow": 30, "all_chows": 5, "missing_suit": 5, **SF},
    note="計法2: triples and doubles on 四般高's sets do not count",
)
case(
    "cm2:old_young",
    hand="78p NN",
    melds=["chi 123m", "chi 789m", "chi 789m", "pon 555s"],
    win_tile="9p",
    rules={"count_method": 2},
    items={"double_chow": 5, "old_young": 4, "two_suit_chows": 6, **SF},
    note="計法2: 123m with each 789m; 789p with each 789m",
)
case(
    "cm1:old_young",
    hand="78p NN",
    melds=["chi 123m", "chi 789m", "chi 789m", "pon 555s"],
    win_tile="9p",
    items={"double_chow": 5, "old_young": 2, "two_suit_chows": 3, **SF},
    note="計法1: 123m serves one 老少, 789p one 兩相逢",
)
FAM = dict(hand="45m NN", melds=["chi 123m", "chi 123m", "chi 123m", "chi 456m"], win_tile="6m")
case(
    "cm1:triple_and_double",
    **FAM,
    items={"all_chows": 5, "double_chow": 5, "triple_chow": 15, "half_flush": 30, **SF},
    note="計法1: 三般高 on the three 123m and 一般高 on the two 456m (set-disjoint: 20) beat one 雙般高 (15)",
)
case(
    "cm2:triple_and_double",
    **FAM,
    rules={"count_method": 2},
    items={"all_chows": 5, "two_double_chows": 45, "half_flush": 30, **SF},
    note="計法2: 雙般高 in three ways (each a different 123m pair with the 456m) shares sets; 一般高 456m lies on their sets",
)
case(
    "dual:off",
    hand="111222333p 78s 99s",
    melds=["pon 444m"],
    win_tile="6s",
    flowers="",
    seat="S",
    rules={"dual_reading": False},
    items={"no_honours_no_flowers": 3, "three_concealed": 10, "three_sisters": 15},
    note="HK08 without the dual reading: the pon reading (25) beats the chow reading (三般高 15)",
)

# ---- legs
case(
    "leg:dealer_discard",
    **C0,
    discarder="E",
    streak=2,
    items={"concealed": 3, **SF},
    deltas={"E": -130, "S": 130, "W": 0, "N": 0},
    note="E pays its own discard with dealer tai 1 + 2x2: 30 + 10 x (5 + 5)",
)
case(
    "leg:self_draw_dealer_free",
    **C0,
    win_by="self_draw",
    streak=1,
    items={"concealed_self_draw": 5, **SF},
    deltas={"E": -100, "S": 300, "W": -100, "N": -100},
    note="non-dealer self-draw: no dealer tai on E's leg",
)
case(
    "leg:dealer_pays_on_self_draw",
    **C0,
    win_by="self_draw",
    streak=1,
    rules={"dealer_pays_on_self_draw": True},
    items={"concealed_self_draw": 5, **SF},
    deltas={"E": -130, "S": 330, "W": -100, "N": -100},
    note="the option: E's leg + 3",
)
case(
    "leg:dealer_wins_liable",
    hand="123m 567m 234p 67p NN",
    melds=["kong 9999s"],
    win_tile="8p",
    win_by="self_draw",
    seat="E",
    flags=["kong_replacement"],
    liable="W",
    flowers="f1",
    items={"concealed_self_draw": 5, "exposed_kong": 1, "seat_flower": 2, "kong_replacement_win": 1},
    deltas={"E": 390, "S": 0, "W": -390, "N": 0},
    note="全包: W pays the three legs of the dealer's self-draw, each 9 + dealer 1",
)
case(
    "leg:liable_non_dealer",
    hand="789s 11s 45p",
    melds=["kong 3333p", "chi 567m", "pon CCC"],
    win_tile="6p",
    win_by="self_draw",
    flags=["kong_replacement"],
    liable="E",
    streak=1,
    items={"self_draw": 1, "single_wait": 2, "dragon": 2, "exposed_kong": 1, "kong_replacement_win": 1, **SF},
    deltas={"E": -360, "S": 360, "W": 0, "N": 0},
    note="全包 by the dealer: its own leg is a self-draw leg, no dealer tai",
)
case(
    "leg:double_win_discarder",
    **B0,
    co_winners=2,
    discarder="E",
    items={"double_win": 5, **SF},
    deltas={"E": -110, "S": 110, "W": 0, "N": 0},
    note="each winner has its own leg: this one 30 + 10 x (7 + 1)",
)

# ---- refusals
for cid, kw, why in [
    ("err:earthly", dict(flags=["earthly"]), "hongkong judges 地胡 from discards"),
    ("err:human", dict(flags=["human"]), "hongkong judges 人胡 from discards"),
    ("err:heavenly_ready", dict(flags=["heavenly_ready"]), "no 天聽 in hongkong"),
    ("err:shown_ready", dict(flags=["shown_ready"]), "no 聽牌現牌 in hongkong"),
    ("err:rob_kong_chain_discard", dict(flags=["rob_kong_chain"]), "rob_kong_chain on a discard win"),
    ("err:liable_discard", dict(liable="E"), "liable on a discard win"),
    ("err:co_winners_self", dict(win_by="self_draw", co_winners=2), "two winners of a self-draw"),
    ("err:co_winners_4", dict(co_winners=4), "at most 3"),
    ("err:discards_claims", dict(discards=3), "four claimed melds and the winning discard need 5"),
    ("err:floor_more", dict(discards=6, floor=7), "floor above discards"),
    ("err:first_discard_not_dealer", dict(discards=1), "the first discard is E's"),
]:
    case(cid, **(B0 | kw), error=True, note=why)
case(
    "err:liable_no_kong",
    hand="123m 567m 234p 67p NN",
    melds=["ankong 9999s"],
    win_tile="8p",
    win_by="self_draw",
    flags=["kong_replacement"],
    liable="W",
    error=True,
    note="全包 needs a kong claimed on a discard",
)
case("err:count_method", **C0, rules={"count_method": 3}, error=True, note="計法 1 or 2")
TEXT = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in out)

if __name__ == "__main__":
    target = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent.parent / "tests" / "data" / "hongkong_items.jsonl"
    )
    target.write_text(TEXT, encoding="utf-8")
    print(f"{len(out)} cases -> {target}")
