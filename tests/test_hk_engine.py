"""hongkong engine rules on scripted walls (HONGKONG.md 1, 3.8, 4, 5): 一炮多響, strict 過水, 食替,
robbing kongs (搶槓上槓), 明槓 全包, 報聽 and 一發, offered flower wins, dealer tai on legs, side payments, 拉 in play.

Seats: E S W N = 0 1 2 3, E deals. Payments are checked against the tai the scorer gave each win.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from envs._core._testing import hk_flags
from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.scripted import (
    deltas,
    finished_hands,
    items,
    last_hand,
    legal_names,
    play,
    scripted_engine,
    scripted_wall,
    tsumogiri,
)
from envs.rules import Rules, RulesError
from envs.scoring.codes import (
    CO_WIN_MASK,
    CO_WIN_SHIFT,
    F_IPPATSU,
    F_ROBBED_ANKONG,
    WIN_DISCARD,
    WIN_ROB_KONG,
)
from envs.tiles import MELD_ANKONG, parse_tiles

HK = str(Path(__file__).parent / "data" / "profiles" / "hk_engine.toml")
JUNK = "159m 159p 159s ESWNCFP"  # never chi, pon or win
T16 = "234m 678m 234p 678p 234s 6s"  # waits on 6s only
E, S, W, N = 0, 1, 2, 3
BASE, PER_TAI = 30, 10


def new(hands, draws="", tail="", walls=None, profile=HK, **opts):
    """A batch-1 engine on a scripted wall; flowers and dice payments are opted in per test."""
    if profile == HK:
        opts.setdefault("dice_payments", False)
    return scripted_engine(hands, draws, tail, walls, profile, **opts)


def g(eng, col):
    return int(eng.s.g[0, col])


def side(eng):
    return [int(x) for x in eng.side_chips[0]]


def leg(eng, w, dealer_tai=0):
    return BASE + PER_TAI * (last_hand(eng).tai[w] + dealer_tai)


def test_profile_defaults_and_bad_options():
    r = Rules.make(HK)
    assert (r.multi_win, r.strict_pass, r.swap_call, r.declare_ready) == (True, True, False, True)
    assert (r.settlement, r.la_cut, r.la_cut_policy, r.la_draw, r.flower_win, r.dice_payments) == (
        "la",
        3,
        "always",
        "keep",
        "offer",
        True,
    )
    assert Rules.make().settlement == "immediate" and Rules.make().flower_win == "auto"
    for bad in (
        {"settlement": "tab"},
        {"la_cut": 4},
        {"la_cut_policy": "sometimes"},
        {"la_draw": 1},
        {"flower_win": True},
        {"dice_payments": "yes"},
    ):
        with pytest.raises(RulesError, match=next(iter(bad))):
            Rules.make(HK, **bad)
    with pytest.raises(RulesError, match="is for the hongkong profile"):
        Rules.make("standard", dice_payments=True)
    assert Rules.from_dict(Rules.make(HK, la_cut="none").to_dict()).la_cut == "none"


# -- 一炮多響 ------------------------------------------------------------------------------------------
def test_multi_win_is_on_and_each_winner_counts_co_winners():
    eng = new([JUNK, T16, JUNK, T16], draws="6s")
    play(eng, "E: discard 6s", "S: win", "N: win")
    assert last_hand(eng).winners == (S, N) and last_hand(eng).win_by == "discard"
    for w in (S, N):
        fl = hk_flags(eng.s, 0, w, WIN_DISCARD)
        assert (fl >> CO_WIN_SHIFT) & CO_WIN_MASK == 2
    d = deltas(eng)
    assert d[S] == leg(eng, S, 1) and d[N] == leg(eng, N, 1) and d[E] == -(d[S] + d[N]) and d[W] == 0


# -- 過水 (strict, hongkong) -----------------------------------------------------------------------
def test_strict_pass_lasts_until_the_seats_next_discard():
    # N passes E's 6s; at its own draw of a 6s it may not self-draw (nor win on discards before then);
    # its discard ends the ban, and it wins on E's next 6s.
    eng = new([JUNK, JUNK, JUNK, T16], draws="6s C F 6s 6s")
    play(eng, "E: discard 6s", "N: pass", "S: discard C", "W: discard F")
    assert eng.current_player[0] == N and int(eng.pass_win[0, N]) == 1  # (standard: cleared by the draw)
    assert "win" not in legal_names(eng)
    play(eng, "N: discard 6s")
    assert int(eng.pass_win[0, N]) == 0
    play(eng, "E: discard 6s", "N: win")
    assert last_hand(eng).winners == (N,)


def test_strict_pass_ends_with_a_pon_and_its_discard():
    # N (waiting on 9m / 6s) passes E's 6s; W's 9m it may pon but not win on; the pon's discard
    # ends the ban, before N's next draw.
    no9m = "158m 159p 159s ESWNCFP"
    eng = new([no9m, no9m.replace("8m", "7m"), JUNK, "99m 234m 678m 234p 678p 66s"], draws="6s C F")
    play(eng, "E: discard 6s", "N: pass", "S: discard C", "W: discard 9m")
    assert eng.current_player[0] == N and "win" not in legal_names(eng) and "pon" in legal_names(eng)
    play(eng, "N: pon")
    assert int(eng.pass_win[0, N]) == 1
    play(eng, "N: discard 6s")
    assert int(eng.pass_win[0, N]) == 0


def test_standard_strict_pass_keeps_the_old_rule():
    eng = new([JUNK, JUNK, JUNK, T16], draws="6s C F 6s 6s", profile="standard", strict_pass=True)
    play(eng, "E: discard 6s", "N: pass", "S: discard C", "W: discard F")
    assert int(eng.pass_win[0, N]) == 0 and "win" not in legal_names(eng)


# -- 食替 -------------------------------------------------------------------------------------------
def test_swap_call_ban_is_the_default():
    eng = new([JUNK, "3456m 159p 159s ESWNCF", JUNK, JUNK], draws="3m")
    play(eng, "E: discard 3m", "S: chi low")
    names = legal_names(eng)
    assert "discard 3m" not in names and "discard 6m" not in names and "discard 1p" in names


# -- robbing kongs ------------------------------------------------------------------------------------
ORPHANS = "19m 19p 19s ESWNCFP 1m 45m"  # 十三么 with the eye 1m, waiting on 3m / 6m for its chow
KONGER = "3333m 2345p 2345s 678p 8s"


def test_thirteen_orphans_robs_an_ankong_and_no_ankong_payment():
    eng = new([JUNK, ORPHANS, KONGER, JUNK], draws="C F 7s")
    play(eng, "E: discard C", "S: discard F", "W: kong 3m")
    assert eng.phase[0] == st.PH_ROB and eng.current_player[0] == S and legal_names(eng) == ["win", "pass"]
    play(eng, "S: win")
    assert last_hand(eng).win_by == "rob_kong" and last_hand(eng).payer == W
    assert hk_flags(eng.s, 0, S, WIN_ROB_KONG) & F_ROBBED_ANKONG
    assert deltas(eng) == [0, leg(eng, S), -leg(eng, S), 0]  # no 暗槓 side payment
    k = parse_tiles("3m")[0]  # the robbed tile left W's hand for the river, won on (step.cpp resolve_rob)
    assert eng.hands[0, W, k] == 3 and int(eng.hands[0, W].sum()) == 16
    assert list(eng.river[0, g(eng, st.G_NRIVER) - 1]) == [k, W, -1, st.RV_WON_ON]


def test_only_thirteen_orphans_may_rob_an_ankong():
    eng = new([JUNK, JUNK, KONGER, "12m 678m 567p 678p 234s 66s"], draws="C F 7s", tail="2m")
    play(eng, "E: discard C", "S: discard F", "W: kong 3m")
    assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == W  # N (waiting on 3m) not asked
    assert side(eng) == [-BASE, -BASE, 3 * BASE, -BASE]  # 暗槓: 1 底 from each other seat


def test_rob_kong_off_no_thirteen_orphans_rob():
    """rob_kong = false (the olympiad rule, an option for every profile): not even 十三么 robs an ankong."""
    eng = new([JUNK, ORPHANS, KONGER, JUNK], draws="C F 7s", tail="2m", rob_kong=False)
    play(eng, "E: discard C", "S: discard F", "W: kong 3m")
    assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == W
    assert list(eng.melds[0, W, 0]) == [MELD_ANKONG, parse_tiles("3m")[0], W]


def test_any_hand_robs_an_addkong():
    r16 = "234m 678m 234p 678p 45s 99s"
    eng = new([JUNK, r16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s")
    play(eng, "E: discard 3s", "S: pass", "W: pon", "W: discard 1s", "N: discard C", "E: discard F")
    # S passed a win on 3s: the hongkong ban lasts until its discard, so it may not rob yet
    play(eng, "S: discard P", "W: kong 3s")
    assert eng.phase[0] == st.PH_ROB
    play(eng, "S: win")
    assert last_hand(eng).win_by == "rob_kong" and not hk_flags(eng.s, 0, S, WIN_ROB_KONG) & F_ROBBED_ANKONG


# -- 明槓 全包 ---------------------------------------------------------------------------------------
def test_self_draw_after_a_claimed_kong_is_paid_by_the_discarder():
    eng = new([JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="3s", tail="6s")
    play(eng, "E: discard 3s", "W: kong", "W: win")
    assert last_hand(eng).win_by == "self_draw" and last_hand(eng).payer == E
    L = leg(eng, W)  # a non-dealer self-draw: no dealer tai on any leg, all three paid by E
    assert deltas(eng) == [-3 * L, 0, 3 * L, 0]


def test_self_draw_after_an_ankong_is_not_liable():
    eng = new([JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="C F 3s", tail="6s")
    play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: win")
    L = leg(eng, W)
    assert deltas(eng) == [-L - BASE, -L - BASE, 3 * L + 3 * BASE, -L - BASE]  # + the 暗槓 side payment


# -- dealer tai on legs -------------------------------------------------------------------------------
@pytest.mark.parametrize("pays", [False, True])
def test_dealer_tai_on_a_non_dealer_self_draw(pays):
    eng = new([JUNK, T16, JUNK, JUNK], draws="E 7m 2m 3m F 6s", dealer_pays_on_self_draw=pays)
    play(eng, "E: discard E", "S: discard 7m", "W: discard 2m", "N: discard 3m", "E: discard F", "S: win")
    L = leg(eng, S)
    dl = leg(eng, S, 1) if pays else L
    assert deltas(eng) == [-dl, dl + 2 * L, -L, -L]


# -- 報聽 and 一發 -------------------------------------------------------------------------------------
READY_S = "88p 234m 678m 234p 67s 5p 22s"  # pons 8p, discards 5p: ready on 5s / 8s, melded


def test_ready_after_a_pon_and_ippatsu_on_a_discard():
    eng = new([JUNK, READY_S, JUNK, JUNK], draws="8p C F P 3s 8s")
    play(eng, "E: discard 8p", "S: pon", "S: discard 5p", "W: discard C", "N: discard F", "E: discard P")
    assert "ready" in legal_names(eng)  # not concealed, still allowed (hongkong)
    play(eng, "S: ready", "S: discard 3s", "W: discard 8s", "S: win")
    assert hk_flags(eng.s, 0, S, WIN_DISCARD) & F_IPPATSU
    assert last_hand(eng).winners == (S,)


def test_ready_seat_discards_what_it_draws_and_makes_no_claims():
    eng = new([JUNK, READY_S, JUNK, JUNK], draws="8p C F P 3s 2s 1m 7m 4s")
    play(
        eng,
        "E: discard 8p",
        "S: pon",
        "S: discard 5p",
        "W: discard C",
        "N: discard F",
        "E: discard P",
        "S: ready",
        "S: discard 3s",
        "W: discard 2s",
    )
    assert eng.current_player[0] == N  # S holds 22s but is not asked to pon
    play(eng, "N: discard 1m", "E: discard 7m")
    assert eng.current_player[0] == S and legal_names(eng) == ["discard 4s"]
    play(eng, "S: discard 4s")
    assert int(eng.s.p[0, S, st.P_IPPATSU]) == 0 and int(eng.ready[0, S]) != 0


# -- flower wins offered ---------------------------------------------------------------------------------
S7 = "159m 159p 159s ESWNCF f7"


@pytest.mark.parametrize("answer", ["win", "pass"])
def test_eight_flowers_are_offered(answer):
    eng = new(
        ["f1 f2 f3 f4 f5 f6 f7 234m 678m 234p", JUNK, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 9p",
        flowers=True,
    )
    tsumogiri(eng, 4)
    assert eng.phase[0] == st.PH_FLOWER and eng.current_player[0] == E
    assert legal_names(eng) == ["win", "pass"]
    play(eng, "E: " + answer)
    if answer == "win":
        assert last_hand(eng).win_by == "flowers" and last_hand(eng).payer is None
    else:
        assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == E and not eng.terminated[0]
        assert int(eng.s.p[0, E, st.P_OFFER_PASSED]) == 1 and "win" not in legal_names(eng)


def test_seven_rob_one_is_offered_to_the_seven_flower_seat():
    eng2 = new(
        ["f1 f2 f3 f4 f5 f6 234m 678m 234p 6p", S7, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        flowers=True,
    )
    tsumogiri(eng2, 4)
    assert eng2.phase[0] == st.PH_FLOWER and eng2.current_player[0] == E
    play(eng2, "E: win")
    assert last_hand(eng2).payer == S and last_hand(eng2).winners == (E,)


SEVEN_E = "f1 f2 f3 f4 f5 f6 f8 234m 678m 234p"  # E (the dealer) is dealt seven flowers; S7 holds f7
SEVEN_TAIL = "2s 3s 4s 6s 7s 8s 9s 3m"  # E's seven replacements (234m 678m 234p 234s 678s 9s, not complete), S's one


@pytest.mark.parametrize("answer", ["win", "pass"])
def test_seven_rob_one_offered_in_the_initial_deal(answer):
    # RULES 2.9 / HONGKONG 1: E exposes seven flowers in the deal while S holds the eighth; under
    # flower_win "offer" E is asked (not made) to win; 七搶一 is paid by S alone, as a discard.
    eng = new([SEVEN_E, S7, JUNK, JUNK], draws="C 2m 3m F", tail=SEVEN_TAIL, flowers=True)
    assert Rules.make(HK).flower_win == "offer" and not eng.terminated[0]
    assert eng.phase[0] == st.PH_FLOWER and eng.current_player[0] == E and g(eng, st.G_OFFER) == E
    assert g(eng, st.G_OFFER_PAYER) == S and legal_names(eng) == ["win", "pass"]
    assert int(eng.flowers[0, E]) == 0xBF and int(eng.flowers[0, S]) == 1 << 6
    sd = side(eng)  # 一臺花 春夏秋冬 for E, paid with the hand
    play(eng, "E: " + answer)
    if answer == "win":
        assert eng.terminated[0] and last_hand(eng).win_by == "flowers"
        assert last_hand(eng).winners == (E,) and last_hand(eng).payer == S
        assert items(eng, E) == {"seven_rob_one": 30}  # over eight_flowers and the flower items
        L = leg(eng, E, 1)  # the dealer wins: dealer tai 1 on its leg
        assert L == BASE + PER_TAI * 31
        assert [d - x for d, x in zip(deltas(eng), sd)] == [L, -L, 0, 0]
        return
    # passed: final for this hand; E plays its first turn and is never asked again
    assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == E and not eng.terminated[0]
    assert int(eng.s.p[0, E, st.P_OFFER_PASSED]) == 1 and g(eng, st.G_OFFER) == -1
    assert "win" not in legal_names(eng)
    for _ in range(8):  # two more rounds of discards: no offer comes back
        tsumogiri(eng)
        assert eng.phase[0] != st.PH_FLOWER and not eng.terminated[0]
    assert int(eng.flowers[0, E]) == 0xBF and int(eng.flowers[0, S]) == 1 << 6


def last_tile_flower_wall():
    """E holds f1-f7; f8 is the last drawable tile (index 120: 64 dealt, E's seven replacements from the
    tail, 16 dead), which E draws after every seat has discarded each drawn tile."""
    w = scripted_wall(["f1 f2 f3 f4 f5 f6 f7 234m 678m 234p", JUNK, JUNK, JUNK], tail="2s 3s 4s 6s 7s 8s 9s")
    i8 = int(np.flatnonzero(w == 143)[0])  # unnamed f8: just before the named tail, in the dead wall
    w[[120, i8]] = w[[i8, 120]]
    return w


@pytest.mark.parametrize("answer", ["win", "pass"])
def test_eight_flowers_offered_on_the_last_drawable_tile(answer):
    eng = new(None, walls=last_tile_flower_wall(), flowers=True)
    while eng.phase[0] != st.PH_FLOWER and not eng.terminated[0]:
        tsumogiri(eng)
    assert not eng.terminated[0] and eng.wall_head[0] == 121 and eng.wall_tail[0] == 136
    assert eng.phase[0] == st.PH_FLOWER and eng.current_player[0] == E  # asked before the draw ends it
    assert g(eng, st.G_OFFER_PAYER) == -1 and g(eng, st.G_OFFER_DRAWN) == 1 and int(eng.flowers[0, E]) == 0xFF
    assert legal_names(eng) == ["win", "pass"]
    sd = side(eng)  # 一臺花 twice for E (春夏秋冬 at the deal, 梅蘭菊竹 now), paid with the hand
    play(eng, "E: " + answer)
    assert eng.terminated[0]
    d = [a - x for a, x in zip(deltas(eng), sd)]
    if answer == "win":
        assert not last_hand(eng).drawn and last_hand(eng).win_by == "flowers"
        assert last_hand(eng).winners == (E,) and last_hand(eng).payer is None
        assert items(eng, E) == {"eight_flowers": 40}
        L = leg(eng, E, 1)  # paid by all three, each leg with the dealer's tai
        assert d == [3 * L, -L, -L, -L]
    else:
        assert last_hand(eng).drawn and last_hand(eng).win_by is None and last_hand(eng).winners == ()
        assert d == [0, 0, 0, 0] and last_hand(eng).tai == (-1,) * 4 and last_hand(eng).items == ((),) * 4  # no winner


# -- 搶槓上槓 (robbing_kong_chain) ---------------------------------------------------------------------
R16 = "456m 678m 234p 678p 45s 99s"  # waits on 3s / 6s
KONGER2 = "3333m 33s 159p 1s ESWN CF"


@pytest.mark.parametrize("chain", [True, False])
def test_robbing_an_addkong_declared_on_a_replacement(chain):
    # W pons E's 3s; on its next turn it either declares the ankong 3333m and adds 3s drawn as the
    # replacement (搶槓上槓 when S robs it), or adds 3s drawn from the front (plain 搶槓).
    draws, tail = ("3s C F P 7p", "3s") if chain else ("3s C F P 3s", "")
    eng = new([JUNK, R16, KONGER2, JUNK], draws=draws, tail=tail)
    play(
        eng, "E: discard 3s", "S: pass", "W: pon", "W: discard 1s", "N: discard C", "E: discard F", "S: discard P"
    )  # S passed a win on 3s: its discard ends the strict ban
    if chain:
        play(eng, "W: kong 3m")
        assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == W
        assert g(eng, st.G_LAST_DRAWN) == 20 and g(eng, st.G_CHAIN) == 1  # 3s, the kong's replacement
    play(eng, "W: kong 3s")
    assert eng.phase[0] == st.PH_ROB and eng.current_player[0] == S and g(eng, st.G_ROB_CHAIN) == int(chain)
    play(eng, "S: win")
    assert last_hand(eng).win_by == "rob_kong" and last_hand(eng).payer == W and last_hand(eng).winners == (S,)
    it = items(eng, S)
    if chain:
        assert it.get("robbing_kong_chain") == 10 and "robbing_kong" not in it
    else:
        assert it.get("robbing_kong") == 1 and "robbing_kong_chain" not in it
    L = leg(eng, S)  # the konger pays as discarder; no dealer involved
    ankong = [-BASE, -BASE, 3 * BASE, -BASE] if chain else [0, 0, 0, 0]  # the 暗槓 stood
    assert [d - a for d, a in zip(deltas(eng), ankong)] == [0, L, -L, 0]


# -- side payments ---------------------------------------------------------------------------------------
def test_flower_set_pays_one_base_each_and_no_grass_after_it():
    eng = new(["f1 f2 f3 f4 234m 678m 234p 678p", JUNK, JUNK, JUNK], draws="C", tail="2s 3s 4s 6s", flowers=True)
    assert side(eng) == [3 * BASE, -BASE, -BASE, -BASE]


def test_grass_pays_half_a_base_then_the_set_one_base():
    eng = new(
        ["f1 f2 f3 f8 234m 678m 234p 678p", JUNK, JUNK, JUNK], draws="C 2m 3m F f4", tail="2s 3s 4s 6s 7s", flowers=True
    )
    half = (BASE + 1) // 2
    assert side(eng) == [3 * half, -half, -half, -half]
    tsumogiri(eng, 4)  # E draws f4: 春夏秋冬 complete
    assert int(eng.flowers[0, E]) == 0x8F
    assert side(eng) == [3 * half + 3 * BASE, -half - BASE, -half - BASE, -half - BASE]


def test_flower_set_and_grass_at_once_pays_only_the_set():
    eng = new(["f1 f2 f3 f8 234m 678m 234p 678p", JUNK, JUNK, JUNK], draws="f4", tail="2s 3s 4s 6s 7s", flowers=True)
    assert side(eng) == [3 * BASE, -BASE, -BASE, -BASE]


@pytest.mark.parametrize("tile,units", [("E", 1), ("9m", 2)])
def test_chase_four_discards_of_one_kind(tile, units):
    eng = new([JUNK] * 4)
    play(eng, f"E: discard {tile}")
    for who in "SWN":
        while eng.phase[0] != st.PH_TURN:
            play(eng, "pass")
        play(eng, f"{who}: discard {tile}")
    assert side(eng) == [-3 * units * BASE, units * BASE, units * BASE, units * BASE]


def test_dice_payments_follow_the_dice():
    eng = Engine(Rules.make(HK, flowers=False), 256)
    eng.reset(7)
    dice = eng.dice
    seen = set()
    for b in range(256):
        d = sorted(dice[b].tolist())
        dealer = int(eng.dealer[b])
        want = np.zeros(4, int)
        if d[0] == d[2]:
            want[:] = -BASE
            want[dealer] = 3 * BASE
            seen.add("triple")
        elif d == [1, 2, 3]:
            want[:] = BASE
            want[dealer] = -3 * BASE
            seen.add("123")
        assert 1 <= d[0] and d[2] <= 6
        assert eng.side_chips[b].tolist() == want.tolist(), (b, d)
    assert seen == {"triple", "123"}
    off = Engine(Rules.make(HK, flowers=False, dice_payments=False), 4)
    off.reset(7)
    assert not off.side_chips.any() and (off.dice > 0).all()


def test_side_payments_are_paid_with_the_hand():
    eng = new([JUNK] * 4)
    play(eng, "E: discard E", "S: discard E", "W: discard E", "N: discard E")
    while not eng.terminated[0]:
        m = eng.legal_action_mask[0]
        a = g(eng, st.G_LAST_DRAWN) if eng.phase[0] == st.PH_TURN else 74
        eng.step(np.array([a if a >= 0 and m[a] else int(np.flatnonzero(m)[0])]))
    assert last_hand(eng).drawn and deltas(eng) == [-90, 30, 30, 30]
    np.testing.assert_allclose(eng.rewards[0], np.array(deltas(eng)) / PER_TAI)


# -- 拉 in play ------------------------------------------------------------------------------------------
def two_hands():
    h1 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", flowers=False)  # S wins on E's 6s
    h2 = scripted_wall([T16, JUNK, JUNK, JUNK], draws="6s", dealer=S, flowers=False)  # E wins on S's 6s
    return np.stack([h1, h2])


def test_la_ledger_in_a_game():
    eng = new(None, walls=two_hands(), episode="game")
    play(eng, "E: discard 6s", "S: win")
    L = leg(eng, S, 1)  # the dealer pays its dealer tai
    assert deltas(eng) == [0, 0, 0, 0] and eng.la_debt[0, E, S] == L and eng.la_count[0, E, S] == 1
    assert eng.dealer[0] == S and not eng.terminated[0]
    play(eng, "S: discard 6s", "E: win")  # 踢半: E wins on its creditor's discard
    half = int(np.floor(L / 2 + 0.5))
    assert deltas(eng) == [-half, half, 0, 0]
    assert eng.la_debt[0, S, E] == leg(eng, E, 1) and eng.la_debt[0, E, S] == 0


def run_out(eng):
    """Discard each drawn tile and pass every question until the hand ends (the result stays)."""
    hands = len(finished_hands(eng))
    while len(finished_hands(eng)) == hands and not eng.terminated[0]:
        m = eng.legal_action_mask[0]
        a = g(eng, st.G_LAST_DRAWN) if eng.phase[0] == st.PH_TURN else 74
        eng.step(np.array([a if a >= 0 and m[a] else int(np.flatnonzero(m)[0])]))


@pytest.mark.parametrize("la_draw", ["keep", "settle"])
def test_drawn_hand_keeps_or_settles_the_ledger(la_draw):
    h1 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", flowers=False)
    h2 = scripted_wall([JUNK] * 4, dealer=S, flowers=False)
    eng = new(None, walls=np.stack([h1, h2]), episode="game", la_draw=la_draw)
    play(eng, "E: discard 6s", "S: win")
    L = leg(eng, S, 1)
    run_out(eng)
    assert last_hand(eng).drawn
    if la_draw == "keep":
        assert deltas(eng) == [0, 0, 0, 0] and eng.la_debt[0, E, S] == L and eng.la_count[0, E, S] == 1
    else:
        assert deltas(eng) == [-L, L, 0, 0] and not eng.la_count.any()


def test_immediate_settlement_pays_legs_at_once():
    eng = new(None, walls=two_hands(), episode="game", settlement="immediate")
    play(eng, "E: discard 6s", "S: win")
    L = leg(eng, S, 1)
    assert deltas(eng) == [-L, L, 0, 0] and not eng.la_count.any()


def three_hands_to_s():
    """S wins on E's discard, then (dealing) two heavenly wins: E's debt to S reaches k = 3."""
    h1 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", flowers=False)
    h23 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", dealer=S, flowers=False)
    return np.stack([h1, h23, h23])


@pytest.mark.parametrize("policy,answer", [("ask", "win"), ("ask", "pass"), ("always", None)])
def test_la_cut_at_k3(policy, answer):
    eng = new(None, walls=three_hands_to_s(), episode="game", la_cut_policy=policy)
    play(eng, "E: discard 6s", "S: win", "S: win")
    assert eng.la_count[0, E, S] == 2
    r2 = float(eng.la_debt[0, E, S])
    play(eng, "S: win")
    v3 = leg(eng, S, 3)  # the dealer (streak 1) wins: dealer tai 1 + 2 on every leg
    R = 1.5 * r2 + v3
    pay = int(np.floor(R + 0.5))
    if policy == "always":
        assert deltas(eng)[E] == -pay and eng.la_count[0, E, S] == 0
        return
    assert eng.phase[0] == st.PH_LA_CUT and eng.current_player[0] == E
    assert legal_names(eng) == ["win", "pass"] and eng.la_debt[0, E, S] == R and eng.la_count[0, E, S] == 3
    assert deltas(eng)[E] == 0
    play(eng, "E: " + answer)
    assert eng.phase[0] != st.PH_LA_CUT  # the next hand is dealt
    if answer == "win":
        assert eng.rewards[0, E] == -pay / PER_TAI and eng.rewards[0, S] == pay / PER_TAI
        assert eng.la_count[0, E, S] == 0
    else:
        assert not eng.rewards[0].any() and eng.la_count[0, E, S] == 3
