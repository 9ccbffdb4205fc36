"""Rule scenarios on scripted walls (RULES.md section 2 and every option of section 5).

Seats: E S W N = 0 1 2 3, E deals. ``JUNK`` is a hand that can never chi, pon or win (one each
of 1/5/9 of every suit and every honour): seats not under test hold it.
"""

from __future__ import annotations

import numpy as np
import pytest
from game_check import check

from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.scripted import (
    deltas,
    finished_hands,
    items,
    last_hand,
    legal_names,
    play,
    run_out,
    scripted_engine,
    scripted_wall,
    tsumogiri,
)
from envs.rules import Rules
from envs.scoring.codes import F_EARTHLY_READY, F_HEAVENLY_READY
from envs.tiles import (
    MELD_ADDKONG,
    MELD_ANKONG,
    MELD_CHI,
    MELD_KONG,
    MELD_PON,
    format_counts,
    format_tiles,
    parse_tiles,
)

JUNK = "159m 159p 159s ESWNCFP"
T16 = "234m 678m 234p 678p 234s 6s"  # waits on 6s only (a pair wait)
E, S, W, N = 0, 1, 2, 3


def new(hands, draws="", tail="", walls=None, **opts):
    return scripted_engine(hands, draws, tail, walls, **opts)  # flowers: opt in


def g(eng, col):
    return int(eng.s.g[0, col])


def hand_str(eng, seat):
    return format_counts(eng.hands[0, seat])


def canon(text):
    return format_tiles(parse_tiles(text))


# -- dealing, flowers -----------------------------------------------------------------------------
def test_deal_sizes_and_dealer_acts_on_17():
    eng = new([T16, JUNK, JUNK, JUNK], draws="6s")
    assert [int(eng.hands[0, s].sum()) for s in range(4)] == [17, 16, 16, 16]
    assert hand_str(eng, E) == canon("234m 678m 234p 678p 234s 66s")
    assert eng.current_player[0] == E and eng.phase[0] == st.PH_TURN
    assert eng.wall_drawable[0] == 136 - 65 - 16


def test_heavenly_win():
    eng = new([T16, JUNK, JUNK, JUNK], draws="6s")
    play(eng, "E: win")
    assert eng.terminated[0] and last_hand(eng).win_by == "self_draw"
    it = items(eng, E)
    assert it.get("heavenly_win") == 24
    # dealer self-draw: each of three pays 30 + 10 * (24 + 1)
    assert deltas(eng) == [3 * 280, -280, -280, -280]
    np.testing.assert_allclose(eng.rewards[0], np.array(deltas(eng)) / 10)


def test_initial_flowers_rounds_from_dealer():
    # E holds f1, S holds f2 f3; E's replacement (first tail tile) is f4 -> a second round.
    eng = new(
        ["234m 678m 234p 678p 234s f1", "159m 159p 159s ESWNC f2 f3", JUNK, JUNK],
        draws="7s",
        tail="f4 3s 4s 2s",
        flowers=True,
    )
    assert [int(x) for x in eng.flowers[0]] == [0b1001, 0b0110, 0, 0]
    assert hand_str(eng, E) == canon("234m 678m 234p 678p 22347s")  # f1 -> f4 -> 2s (second round)
    assert hand_str(eng, S) == canon("159m 159p 13459s ESWNC")
    assert [int(eng.hands[0, s].sum()) for s in range(4)] == [17, 16, 16, 16]


def test_flower_drawn_in_play_is_replaced_repeatedly():
    eng = new([T16, JUNK, JUNK, JUNK], draws="E f1", tail="f2 7s", flowers=True)
    play(eng, "E: discard E")
    # S draws f1 -> replacement f2 -> replacement 7s
    assert int(eng.flowers[0, S]) == 0b11 and eng.hands[0, S, parse_tiles("7s")[0]] == 1
    assert g(eng, st.G_DRAWSRC) == st.SRC_FLOWER


# -- claims and priority -----------------------------------------------------------------------
def test_self_draw_win_all_pay():
    # S waits on 6s; E and S discard and draw; S's second draw is the 6s.
    eng = new([JUNK, T16, JUNK, JUNK], draws="E 7m 2m 3m F 6s")
    play(eng, "E: discard E", "S: discard 7m", "W: discard 2m", "N: discard 3m", "E: discard F")
    assert "win" in legal_names(eng)
    play(eng, "S: win")
    assert last_hand(eng).win_by == "self_draw" and "earthly_win" not in items(eng, S)
    tai = last_hand(eng).tai[S]
    assert items(eng, S).get("concealed_self_draw") == 3
    assert deltas(eng) == [
        -(30 + 10 * (tai + 1)),
        30 + 10 * (tai + 1) + 2 * (30 + 10 * tai),
        -(30 + 10 * tai),
        -(30 + 10 * tai),
    ]


def test_earthly_win():
    eng = new([JUNK, T16, JUNK, JUNK], draws="E 6s")
    play(eng, "E: discard E", "S: win")
    assert items(eng, S).get("earthly_win") == 16


def test_human_win_and_discarder_pays():
    eng = new([JUNK, T16, JUNK, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win")
    assert last_hand(eng).win_by == "discard" and items(eng, S).get("human_win") == 8
    tai = last_hand(eng).tai[S]
    assert deltas(eng) == [-(30 + 10 * (tai + 1)), 30 + 10 * (tai + 1), 0, 0]


# PROFILES.md: any kong declared before, a concealed one too, voids earthly_win and human_win.
KONGER = "7777s 159p 159s ESWNCF"  # the dealer: an ankong of 7s at once


def test_concealed_kong_before_voids_human_win():
    eng = new([KONGER, T16, JUNK, JUNK], draws="P", tail="6s")
    play(eng, "E: kong 7s")
    assert list(eng.melds[0, E, 0]) == [MELD_ANKONG, parse_tiles("7s")[0], E]
    play(eng, "E: discard 6s", "S: win")  # S has not drawn yet: human_win but for the kong
    assert last_hand(eng).win_by == "discard" and "human_win" not in items(eng, S)
    assert items(eng, S).get("concealed") == 1


def test_concealed_kong_before_voids_earthly_win():
    eng = new([KONGER, T16, JUNK, JUNK], draws="P 6s", tail="C")
    play(eng, "E: kong 7s", "E: discard C", "S: win")  # S's first draw: earthly_win but for the kong
    assert last_hand(eng).win_by == "self_draw" and "earthly_win" not in items(eng, S)
    assert items(eng, S).get("concealed_self_draw") == 3


def test_pon_beats_chi_and_both_are_asked():
    eng = new([JUNK, T16, "339m 159p 159s ESWNCFP", JUNK], draws="3m")
    play(eng, "E: discard 3m")
    assert eng.current_player[0] == S and legal_names(eng) == ["chi mid", "pass"]
    play(eng, "S: chi mid")
    assert eng.current_player[0] == W and legal_names(eng) == ["pon", "pass"]
    play(eng, "W: pon")
    assert eng.current_player[0] == W and eng.phase[0] == st.PH_TURN
    assert list(eng.melds[0, W, 0]) == [MELD_PON, parse_tiles("3m")[0], E]
    assert int(eng.n_melds[0, S]) == 0 and int(eng.hands[0, W].sum()) == 14
    assert "win" not in legal_names(eng)  # after a claim the seat must discard
    assert eng.river[0, 0, 2] == W


def test_chi_when_pon_passes():
    eng = new([JUNK, T16, "339m 159p 159s ESWNCFP", JUNK], draws="3m")
    play(eng, "E: discard 3m", "S: chi mid", "W: pass")
    assert eng.current_player[0] == S and list(eng.melds[0, S, 0]) == [MELD_CHI, parse_tiles("2m")[0], E]
    assert int(eng.hands[0, S].sum()) == 14


def test_win_beats_pon():
    eng = new([JUNK, T16, "66s 159m 159p 9s ESWNCFP", JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win", "W: pon")
    assert last_hand(eng).win_by == "discard" and last_hand(eng).winners == (S,)


def test_two_winners_nearest_wins_by_default():
    eng = new([JUNK, T16, T16, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win", "W: win")
    assert last_hand(eng).winners == (S,)
    assert deltas(eng)[W] == 0


def test_two_winners_with_multi_win():
    eng = new([JUNK, T16, T16, JUNK], draws="6s", multi_win=True)
    play(eng, "E: discard 6s", "S: win", "W: win")
    assert last_hand(eng).winners == (S, W)
    d = deltas(eng)
    assert d[S] > 0 and d[W] > 0 and d[E] == -(d[S] + d[W]) and d[N] == 0


def test_nearer_seat_passes_farther_wins():
    eng = new([JUNK, T16, T16, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: pass", "W: win")
    assert last_hand(eng).winners == (W,)


def test_pass_blocks_wins_on_discards_until_own_draw():
    # N passes E's 6s; S then discards another 6s: N may not win on it (過水) and is not asked.
    eng = new([JUNK, JUNK, JUNK, T16], draws="6s 6s C 6s")
    play(eng, "E: discard 6s")
    assert legal_names(eng) == ["win", "pass"]
    play(eng, "N: pass")
    assert int(eng.pass_win[0, N]) == 1
    play(eng, "S: discard 6s")
    assert eng.current_player[0] == W and eng.phase[0] == st.PH_TURN  # N was not asked
    play(eng, "W: discard C")
    # N's own draw clears 過水; a self-drawn win was never barred (strict_pass is off)
    assert int(eng.pass_win[0, N]) == 0 and "win" in legal_names(eng)


def test_strict_pass_blocks_self_draw_until_next_discard():
    eng = new([JUNK, T16, JUNK, JUNK], draws="6s 6s", strict_pass=True)
    play(eng, "E: discard 6s", "S: pass")
    assert eng.current_player[0] == S and "win" not in legal_names(eng)
    eng2 = new([JUNK, T16, JUNK, JUNK], draws="6s 6s")
    play(eng2, "E: discard 6s", "S: pass")
    assert "win" in legal_names(eng2)


# -- kongs -----------------------------------------------------------------------------------------
R16 = "234m 678m 234p 678p 45s 99s"  # waits on 3s / 6s without holding either


def test_robbing_an_added_kong():
    eng = new([JUNK, R16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s")
    play(eng, "E: discard 3s")
    assert legal_names(eng) == ["chi low", "win", "pass"]
    play(eng, "S: pass", "W: pon", "W: discard 1s", "N: discard C", "E: discard F", "S: discard P")
    assert int(eng.pass_win[0, S]) == 0
    play(eng, "W: kong 3s")
    assert eng.phase[0] == st.PH_ROB and legal_names(eng) == ["win", "pass"]
    play(eng, "S: win")
    assert last_hand(eng).win_by == "rob_kong" and last_hand(eng).payer == W
    assert items(eng, S).get("robbing_kong") == 1
    d = deltas(eng)
    assert d[S] > 0 and d[W] == -d[S] and d[E] == 0 and d[N] == 0


def test_robbed_tile_leaves_the_kongers_hand():
    """搶槓: the robbed 3s is the winner's (RULES 2.6, 3): it leaves W's hand and lies in the river as
    W's discard won on, so W holds 16 - 3 x melds and every tile is still counted once."""
    eng = new([JUNK, R16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s")
    play(
        eng,
        "E: discard 3s",
        "S: pass",
        "W: pon",
        "W: discard 1s",
        "N: discard C",
        "E: discard F",
        "S: discard P",
        "W: kong 3s",
    )
    k = parse_tiles("3s")[0]
    assert eng.hands[0, W, k] == 1 and int(eng.hands[0, W].sum()) == 14  # the konger holds it while robbable
    n_river = g(eng, st.G_NRIVER)
    play(eng, "S: win")
    assert eng.terminated[0] and last_hand(eng).win_by == "rob_kong"
    assert eng.hands[0, W, k] == 0 and int(eng.hands[0, W].sum()) == 16 - 3 * 1
    assert list(eng.melds[0, W, 0]) == [MELD_PON, k, E]  # the kong is cancelled: the pon stays
    assert g(eng, st.G_NRIVER) == n_river + 1
    assert list(eng.river[0, n_river]) == [k, W, -1, st.RV_WON_ON]
    assert int(eng.hands[0, S].sum()) == 16 and eng.hands[0, S, k] == 0  # scored with it, as on a discard
    assert check(eng) == []
    eng.s.hands[0, W, k] += 1  # the old state: the robbed tile still in the konger's hand
    eng.s.river[0, n_river] = -1
    eng.s.g[0, st.G_NRIVER] -= 1
    assert check(eng) == [(0, "hand_size")]


def test_robbed_tile_with_two_winners_lies_once_in_the_river():
    eng = new(
        [JUNK, R16, "33s 159m 159p ESWNCFP 1s", "234m 678m 234p 678p 45s 88s"], draws="3s C F P 3s", multi_win=True
    )
    play(
        eng,
        "E: discard 3s",
        "S: pass",
        "W: pon",
        "N: pass",
        "W: discard 1s",
        "N: discard C",
        "E: discard F",
        "S: discard P",
        "W: kong 3s",
        "N: win",
        "S: win",
    )
    k = parse_tiles("3s")[0]
    assert set(last_hand(eng).winners) == {S, N} and last_hand(eng).payer == W
    assert items(eng, S).get("robbing_kong") == 1 and items(eng, N).get("robbing_kong") == 1
    assert eng.hands[0, W, k] == 0 and list(eng.river[0, g(eng, st.G_NRIVER) - 1]) == [k, W, -1, st.RV_WON_ON]
    assert check(eng) == []


def test_added_kong_not_robbed_goes_ahead():
    eng = new([JUNK, R16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s", tail="2m")
    play(
        eng,
        "E: discard 3s",
        "S: pass",
        "W: pon",
        "W: discard 1s",
        "N: discard C",
        "E: discard F",
        "S: discard P",
        "W: kong 3s",
        "S: pass",
    )
    assert eng.current_player[0] == W and list(eng.melds[0, W, 0]) == [MELD_ADDKONG, parse_tiles("3s")[0], E]
    assert eng.hands[0, W, parse_tiles("2m")[0]] == 1 and int(eng.pass_win[0, S]) == 1


def test_concealed_kong_cannot_be_robbed():
    eng = new([JUNK, R16, "333s 159m 159p ESWNCFP", JUNK], draws="C F 3s", tail="2m")
    play(eng, "E: discard C", "S: discard F", "W: kong 3s")
    assert eng.current_player[0] == W and eng.phase[0] == st.PH_TURN
    assert list(eng.melds[0, W, 0]) == [MELD_ANKONG, parse_tiles("3s")[0], W]
    assert int(eng.hands[0, W].sum()) == 14 and eng.hands[0, W, parse_tiles("2m")[0]] == 1


def test_kong_replacement_win():
    eng = new([JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="C F 3s", tail="6s")
    play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: win")
    assert items(eng, W).get("kong_replacement_win") == 1


CHAIN_HAND = "333s 777p 234m 678m 234p 6s"  # two kongs to come, then waits on 6s
# the extras pack (連槓開花) without its special shapes, so that JUNK stays a hand that cannot win
CHAIN_RULES = dict(
    extras=True,
    extras_off=[
        "eight_pairs",
        "pure_thirteen_orphans",
        "mixed_thirteen_orphans",
        "sixteen_unrelated",
        "unrelated_dragon",
        "sixteen_unrelated_pure",
        "unrelated_same",
    ],
)


def test_kong_chain_two_kongs_in_a_row():
    """連槓開花: kong, replacement, kong again, self-drawn win on the second replacement (EXTRAS 2.2)."""
    eng = new([JUNK, JUNK, CHAIN_HAND, JUNK], draws="C F 3s", tail="7p 6s", **CHAIN_RULES)
    play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: kong 7p", "W: win")
    it = items(eng, W)
    assert it.get("kong_chain_2") == 8 and "kong_replacement_win" not in it and "kong_chain_3" not in it
    assert g(eng, st.G_CHAIN) == 2


def test_kong_chain_single_kong_is_plain_kong_replacement():
    eng = new([JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="C F 3s", tail="6s", **CHAIN_RULES)
    play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: win")
    it = items(eng, W)
    assert it.get("kong_replacement_win") == 1 and "kong_chain_2" not in it and "kong_chain_3" not in it


def test_kong_chain_counts_a_flower_link():
    """A flower drawn as the kong's replacement is a link too (「花牌可計」): chain 2."""
    eng = new(
        [JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="C F 3s", tail="f1 6s", flowers=True, **CHAIN_RULES
    )
    play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: win")
    assert items(eng, W).get("kong_chain_2") == 8


def test_kong_chain_ends_with_a_discard():
    # W kongs, discards its replacement; its next self-draw is an ordinary front draw (chain 0).
    eng = new([JUNK, JUNK, "333s 234m 678m 234p 678p 2s", JUNK], draws="C F 3s E S W 6s", tail="1s", **CHAIN_RULES)
    play(eng, "E: discard C", "S: discard F", "W: kong 3s")
    assert g(eng, st.G_CHAIN) == 1
    play(eng, "W: discard 1s", "N: discard E", "E: discard S", "S: discard W")
    assert g(eng, st.G_CHAIN) == 0


@pytest.mark.parametrize("allowed", [True, False])
def test_kong_replacement_self_draw_option(allowed):
    eng = new(
        [JUNK, JUNK, "333s 234m 678m 234p 678p 6s", JUNK], draws="3s", tail="6s", kong_replacement_self_draw=allowed
    )
    play(eng, "E: discard 3s", "W: kong")
    assert eng.current_player[0] == W and list(eng.melds[0, W, 0]) == [MELD_KONG, parse_tiles("3s")[0], E]
    assert ("win" in legal_names(eng)) == allowed


@pytest.mark.parametrize("no_kong", [True, False])
def test_no_kong_after_claim(no_kong):
    eng = new([JUNK, JUNK, "333s 2222m 159p ESWNCF", JUNK], draws="3s", no_kong_after_claim=no_kong)
    play(eng, "E: discard 3s", "W: pon")
    kongs = [n for n in legal_names(eng) if n.startswith("kong")]
    assert kongs == ([] if no_kong else ["kong 2m", "kong 3s"])


@pytest.mark.parametrize("swap", [True, False])
def test_swap_call(swap):
    eng = new([JUNK, "3456m 159p 159s ESWNCF", JUNK, JUNK], draws="3m", swap_call=swap)
    play(eng, "E: discard 3m", "S: chi low")
    names = legal_names(eng)
    assert ("discard 3m" in names) == swap and ("discard 6m" in names) == swap
    assert "discard 1p" in names


def test_chi_not_offered_when_it_leaves_no_legal_discard():
    from envs._core._testing import chi_has_discard

    h = np.zeros(34, np.int8)
    h[[2, 3, 4, 5]] = 1  # 3456m; chi 3m with 45m leaves 3m 6m, both banned
    assert not chi_has_discard(h, 2, 2, 3, 4, False)
    assert chi_has_discard(h, 2, 2, 3, 4, True)


# -- the end of the wall -------------------------------------------------------------------------
SHORT = dict(dead_wall=60)  # flowers off: 136 - 65 - 60 = 11 drawable after the deal
FODDER = "C 2p 2m 3m F 3p 4m 7m P 4p 8m"  # E's are honours (S cannot chi them), S discards its own


def test_drawn_hand_when_live_wall_ends():
    eng = new([JUNK, T16, JUNK, JUNK], draws=FODDER + " 2s", **SHORT)
    run_out(eng)
    assert last_hand(eng).drawn and deltas(eng) == [0, 0, 0, 0]
    assert eng.wall_drawable[0] == 0 and (eng.rewards[0] == 0).all()


def test_last_discard_is_offered_for_a_win():
    eng = new([JUNK, T16, JUNK, JUNK], draws=FODDER + " 6s", **SHORT)
    tsumogiri(eng, 11)
    assert eng.wall_drawable[0] == 0 and eng.current_player[0] == N
    play(eng, "N: discard 6s", "S: win")
    assert items(eng, S).get("last_tile_discard") == 1


def test_last_tile_self_draw():
    eng = new([JUNK, JUNK, JUNK, T16], draws="2m 2p C 2s 3m 3p F 3s 4m 4p P 6s", **SHORT)
    tsumogiri(eng, 11)
    assert eng.current_player[0] == N and eng.wall_drawable[0] == 0
    play(eng, "N: win")
    assert items(eng, N).get("last_tile_draw") == 1


@pytest.mark.parametrize("no_calls", [True, False])
def test_no_calls_last3(no_calls):
    eng = new([JUNK, T16, JUNK, JUNK], draws="C 2p 2m 3m F 3p 4m 7m 5m", no_calls_last3=no_calls, **SHORT)
    tsumogiri(eng, 8)
    assert eng.current_player[0] == E and eng.wall_drawable[0] == 3
    play(eng, "E: discard 5m")
    assert (eng.phase[0] == st.PH_CLAIM) == (not no_calls)


KONGW = [JUNK, JUNK, "777m 159p 159s ESWNCFP", "888m 159p 159s ESWNCFP"]
KONGDRAWS = "2m 3m 4m 6m 2p 3p 4p 6p 2s 3s 7m 8m"


def test_kong_with_one_tile_left_and_none_with_zero():
    eng = new(KONGW, draws=KONGDRAWS, **SHORT)
    tsumogiri(eng, 10)
    assert eng.current_player[0] == W and eng.wall_drawable[0] == 1
    assert "kong 7m" in legal_names(eng)
    play(eng, "W: discard 7m")
    assert eng.current_player[0] == N and eng.wall_drawable[0] == 0
    assert not any(n.startswith("kong") for n in legal_names(eng))
    play(eng, "N: discard 8m")
    assert eng.terminated[0] and last_hand(eng).drawn


def test_kong_takes_the_last_tile_as_replacement():
    eng = new(KONGW, draws=KONGDRAWS, tail="6s", **SHORT)
    tsumogiri(eng, 10)
    play(eng, "W: kong 7m")
    assert eng.current_player[0] == W and eng.wall_drawable[0] == 0
    assert eng.hands[0, W, parse_tiles("6s")[0]] == 1


def test_dead_wall_per_kong():
    eng = new(KONGW, draws=KONGDRAWS, dead_wall_per_kong=True, **SHORT)
    tsumogiri(eng, 10)
    assert eng.wall_drawable[0] == 1 and "kong 7m" not in legal_names(eng)


def test_last_drawable_tile_is_a_flower():
    rules_kw = dict(flowers=True, dead_wall=60)  # 144 - 65 - 60 = 19 drawable
    wall = scripted_wall([JUNK] * 4, flowers=True)
    i = int(np.flatnonzero(wall == 136)[0])
    wall[[i, 64 + 19]] = wall[[64 + 19, i]]
    eng = new(None, walls=wall, **rules_kw)
    run_out(eng)
    assert last_hand(eng).drawn
    assert sum(int(eng.flowers[0, s]) for s in range(4)) == 1


# -- flower wins ---------------------------------------------------------------------------------
FL = dict(flowers=True)
S7 = "159m 159p 159s ESWNCF f7"


def test_eight_flowers():
    eng = new(
        ["f1 f2 f3 f4 f5 f6 f7 234m 678m 234p", JUNK, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 9p",
        **FL,
    )
    assert int(eng.flowers[0, E]) == 0x7F
    tsumogiri(eng, 4)
    assert eng.terminated[0] and last_hand(eng).win_by == "flowers" and last_hand(eng).payer is None
    assert items(eng, E) == {"eight_flowers": 8}  # the hand is not complete: no kong_replacement_win
    assert all(x < 0 for x in deltas(eng)[1:])


def test_eight_flowers_replacement_completes_the_hand():
    """Seed 000 Ⅸ-29: the replacement for the eighth flower completes the hand (槓上開花): the hand's
    tai count, kong_replacement_win included (a flower win counts as self-drawn, CASES.md)."""
    eng = new(
        ["f1 f2 f3 f4 f5 f6 f7 234m 678m 234p", JUNK, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 6p 6p",
        **FL,
    )
    tsumogiri(eng, 4)  # E waits on 6p; the replacement for f8 is the second 6p
    assert last_hand(eng).win_by == "flowers" and last_hand(eng).payer is None
    assert items(eng, E) == {"concealed_self_draw": 3, "eight_flowers": 8, "kong_replacement_win": 1}


def test_eight_flowers_in_the_deal_has_no_replacement_win():
    # the dealer's complete 17 tiles after the initial flowers were not completed by a replacement in a turn
    eng = new(
        ["f1 f2 f3 f4 f5 f6 f7 f8 234m 678m 23p", JUNK, JUNK, JUNK], draws="4p", tail="2s 3s 4s 6s 7s 8s 6p 6p", **FL
    )
    assert last_hand(eng).win_by == "flowers" and "kong_replacement_win" not in items(eng, E)
    assert items(eng, E).get("eight_flowers") == 8


def test_seven_rob_one_replacement_completes_the_hand():
    """Seed 000 Ⅸ-30: 七搶一 whose replacement completes the hand: the hand's tai count too, and the
    seat holding the single flower still pays alone."""
    eng = new(
        ["f1 f2 f3 f4 f5 f6 234m 678m 234p 6p", S7, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 6p",
        **FL,
    )
    tsumogiri(eng, 4)
    assert last_hand(eng).winners == (E,) and last_hand(eng).payer == S
    assert items(eng, E) == {"concealed_self_draw": 3, "seven_rob_one": 8, "kong_replacement_win": 1}
    d = deltas(eng)
    assert d[S] < 0 and d[W] == 0 and d[N] == 0


def test_seven_rob_one_by_a_draw():
    eng = new(
        ["f1 f2 f3 f4 f5 f6 234m 678m 234p 6p", S7, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        **FL,
    )
    assert int(eng.flowers[0, S]) == 1 << 6
    tsumogiri(eng, 4)
    assert last_hand(eng).win_by == "flowers" and last_hand(eng).winners == (E,) and last_hand(eng).payer == S
    assert items(eng, E).get("seven_rob_one") == 8
    d = deltas(eng)
    assert d[S] < 0 and d[W] == 0 and d[N] == 0


def test_seven_rob_one_by_a_replacement():
    eng = new(
        ["f1 f2 f3 f4 f5 234m 678m 234p 67p", S7, JUNK, JUNK],
        draws="C 2m 3m F f6",
        tail="2s 3s 4s 6s 7s 8s f8 9s",
        **FL,
    )
    tsumogiri(eng, 4)
    assert last_hand(eng).winners == (E,) and last_hand(eng).payer == S
    assert int(eng.flowers[0, E]) == 0xBF


def test_seven_rob_one_in_the_initial_flowers():
    # E exposes 7 in the first round while S still holds the 8th: E wins when S exposes it.
    eng = new(["f1 f2 f3 f4 f5 f6 f8 234m 678m 234p", S7, JUNK, JUNK], draws="C", tail="2s 3s 4s 6s 7s 8s 9s 3m", **FL)
    assert eng.terminated[0] and last_hand(eng).winners == (E,) and last_hand(eng).payer == S


# -- ready declarations, 一路歸西 -------------------------------------------------------------------
def test_heavenly_ready_and_its_loss():
    eng = new([JUNK, T16, JUNK, JUNK], draws="C 2m", profile="strict16")
    assert eng.phase[0] == st.PH_READY0 and legal_names(eng) == ["pass", "ready"]
    play(eng, "S: ready")
    assert int(eng.ready[0, S]) == F_HEAVENLY_READY and eng.current_player[0] == E
    play(eng, "E: discard C", "S: discard 3m")  # the declared hand changes
    assert int(eng.ready[0, S]) == 0


def test_heavenly_ready_scored():
    eng = new([JUNK, T16, JUNK, JUNK], draws="C 2m 3m 4m F 6s", profile="strict16")
    play(eng, "S: ready", "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 4m", "E: discard F")
    assert int(eng.ready[0, S]) == F_HEAVENLY_READY
    play(eng, "S: win")
    assert items(eng, S).get("heavenly_ready") == 8


def test_earthly_ready_restricts_the_discard():
    eng = new([T16, JUNK, JUNK, JUNK], draws="C", profile="strict16")
    assert "ready" in legal_names(eng)
    play(eng, "E: ready")
    assert legal_names(eng) == ["discard 6s", "discard C"]  # C: a 6s wait; 6s: a C wait
    play(eng, "E: discard C")
    assert int(eng.ready[0, E]) == F_EARTHLY_READY


def test_no_ready_without_the_option():
    eng = new([T16, JUNK, JUNK, JUNK], draws="C")
    assert "ready" not in legal_names(eng)


@pytest.mark.parametrize("west", [True, False])
def test_west_draw(west):
    eng = new([JUNK] * 4, draws="2m 3m 4m 6m", profile="casual", west_draw=west)
    play(eng, "E: discard W", "S: discard W", "W: discard W", "N: discard W")
    assert bool(eng.terminated[0]) == west
    if west:
        assert last_hand(eng).drawn


# -- dealer, streaks, episodes -------------------------------------------------------------------
def _two_hands(**opts):
    w1 = scripted_wall([T16, JUNK, JUNK, JUNK], "6s", flowers=False)  # E: heavenly
    w2 = scripted_wall([JUNK, T16, JUNK, JUNK], "6s", flowers=False)  # S wins on E's 6s
    return new(None, walls=np.stack([w1, w2]), episode="game", **opts)


def test_dealer_wins_keeps_the_deal_then_passes_it():
    eng = _two_hands()
    play(eng, "E: win")
    assert not eng.terminated[0] and int(eng.dealer[0]) == E and int(eng.streak[0]) == 1
    assert eng.rewards[0, E] > 0 and abs(float(eng.rewards[0].sum())) < 1e-6
    play(eng, "E: discard 6s", "S: win")
    tai = last_hand(eng).tai[S]
    assert deltas(eng)[E] == -(30 + 10 * (tai + 1 + 2 * 1))  # dealer tai 1 + 2N on E's leg
    assert int(eng.dealer[0]) == S and int(eng.streak[0]) == 0 and g(eng, st.G_ROT) == 1
    assert int(eng.scores[0].sum()) == 0 and len(finished_hands(eng)) == 2


def test_streak_cap():
    eng = _two_hands(streak_cap=0)
    play(eng, "E: win", "E: discard 6s", "S: win")
    tai = last_hand(eng).tai[S]
    assert deltas(eng)[E] == -(30 + 10 * (tai + 1))


def test_drawn_hand_keeps_the_deal():
    eng = new([JUNK, T16, JUNK, JUNK], draws=FODDER + " 2s", episode="game", **SHORT)
    for _ in range(60):
        tsumogiri(eng)
        if len(finished_hands(eng)) == 1:
            break
    assert len(finished_hands(eng)) == 1 and int(eng.dealer[0]) == E and int(eng.streak[0]) == 1
    assert not eng.terminated[0]


def test_game_episode_plays_four_winds():
    from envs.engine.randplay import random_play

    eng = Engine(Rules.make(episode="game"), 8)
    out = random_play(eng, seed=3, episodes=1)
    assert (out[:, 4] == 0).all()
    assert eng.s.terminated.all() and (eng.s.g[:, st.G_ROT] == 16).all()
    assert (out[:, 1] >= 16).all() and (eng.s.scores.sum(1) == 0).all()
