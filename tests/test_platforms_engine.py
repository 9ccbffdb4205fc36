"""The platform rule options in play (PLATFORMS.md 3), on scripted walls: seven_flower_win, the ready
windows, early_wins; and every platform profile played at random under the invariant checker.

Seats: E S W N = 0 1 2 3, E deals. ``JUNK`` can never chi, pon or win; ``T16`` waits on 6s only (獨聽)
and can chi most suit tiles, so the seat before it discards honours or 7s / 8s.
"""

from __future__ import annotations

import zlib

import pytest

from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.randplay import OUT_ERROR, OUT_HANDS, OUT_WINS, POLICY_GREEDY, POLICY_UNIFORM, random_play
from envs.engine.scripted import items, last_hand, legal_names, play, scripted_engine, tsumogiri
from envs.rules import Rules
from envs.scoring.codes import F_EARTHLY_READY, F_HEAVENLY_READY
from envs.scoring.profile import PLATFORMS

JUNK = "159m 159p 159s ESWNCFP"
T16 = "234m 678m 234p 678p 234s 6s"
WIND_PAIR = "EE 159m 159p 159s SWNCF"  # pons a discarded E
E, S, W, N = 0, 1, 2, 3


def new(hands, draws="", tail="", profile="standard", **opts):
    return scripted_engine(hands, draws, tail, profile=profile, **opts)


def ready(eng, seat):
    return int(eng.ready[0, seat])


# -- seven_flower_win (3.1) -----------------------------------------------------------------------
SEVEN = ["f1 f2 f3 f4 f5 f6 234m 678m 234p 6p", "159m 159p 159s ESWNCF f7", JUNK, JUNK]


@pytest.mark.parametrize("flower_win", ["auto", "offer"])
def test_no_seven_flowers_win_play_goes_on(flower_win):
    # E draws f8 while S holds f7: 七搶一 by default (tests/test_engine_scenarios.py), nothing under star31
    eng = new(
        SEVEN,
        draws="C 2m 3m F f8 5m",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        profile="star31",
        flowers=True,
        flower_win=flower_win,
    )
    tsumogiri(eng, 4)
    assert int(eng.flowers[0, E]) == 0xBF and int(eng.flowers[0, S]) == 1 << 6
    assert not eng.terminated[0] and eng.phase[0] == st.PH_TURN and eng.current_player[0] == E
    assert "win" not in legal_names(eng)
    tsumogiri(eng, 8)  # play goes on
    assert not eng.terminated[0] and int(eng.s.g[0, st.G_NRIVER]) >= 5
    control = new(
        SEVEN,
        draws="C 2m 3m F f8 5m",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        profile="zhaishenye",
        flowers=True,
        flower_win=flower_win,
    )
    tsumogiri(control, 4)
    if flower_win == "auto":
        assert control.terminated[0] and last_hand(control).win_by == "flowers"
        assert items(control, E).get("seven_rob_one") == 16
    else:
        assert control.phase[0] == st.PH_FLOWER


def test_eight_flowers_still_win_under_star31():
    eng = new(
        ["f1 f2 f3 f4 f5 f6 f7 234m 678m 234p", JUNK, JUNK, JUNK],
        draws="C 2m 3m F f8",
        tail="2s 3s 4s 6s 7s 8s 9s 9p",
        profile="star31",
        flowers=True,
    )
    tsumogiri(eng, 4)
    assert eng.terminated[0] and last_hand(eng).win_by == "flowers" and items(eng, E) == {"eight_flowers": 8}


# -- ready windows (3.2) --------------------------------------------------------------------------
def test_dealer_first_heavenly_ready():
    eng = new([T16, JUNK, JUNK, JUNK], draws="C 2m 3m 7s 6s", profile="star31")
    play(eng, "E: ready", "E: discard C")
    assert ready(eng, E) == F_HEAVENLY_READY
    play(eng, "S: discard 2m", "W: discard 3m", "N: discard 7s", "E: win")
    assert items(eng, E) == {"concealed_self_draw": 3, "single_wait": 1, "heavenly_ready": 8}
    strict = new([T16, JUNK, JUNK, JUNK], draws="C", profile="strict16")
    play(strict, "E: ready", "E: discard C")
    assert ready(strict, E) == F_EARTHLY_READY  # heavenly window "deal": the dealer's is 地聽


def test_dealer_first_moves_the_dealers_earthly_ready_to_its_second_discard():
    for profile, offered in (("zhonghua", True), ("strict16", False)):
        eng = new([T16, JUNK, JUNK, JUNK], draws="C 2m 3m 7s F", profile=profile)
        play(eng, "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 7s")
        assert ("ready" in legal_names(eng)) == offered, profile
    play_eng = new([T16, JUNK, JUNK, JUNK], draws="C 2m 3m 7s F", profile="zhonghua")
    play(play_eng, "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 7s", "E: ready", "E: discard F")
    assert ready(play_eng, E) == F_EARTHLY_READY


def test_migi_earthly_ready_at_the_deal_without_a_heavenly_row():
    eng = new([JUNK, T16, JUNK, JUNK], draws="C", profile="mj888")
    assert eng.phase[0] == st.PH_READY0 and legal_names(eng) == ["pass", "ready"]
    play(eng, "S: ready")
    assert ready(eng, S) == F_EARTHLY_READY
    # first_discard with no heavenly row: no question at the deal
    none = new([JUNK, T16, JUNK, JUNK], draws="C", profile="mj888", earthly_ready_window="first_discard")
    assert none.phase[0] == st.PH_TURN and none.current_player[0] == E


LONG = "C 2m 3m 4m F P 1p 9p 7s 7m"  # E S W N E S W N E S


@pytest.mark.parametrize("profile, flag", [("mj888", F_EARTHLY_READY), ("zhaishenye", F_HEAVENLY_READY)])
def test_migi_window_counts_eight_discards(profile, flag):
    eng = new([JUNK, T16, JUNK, JUNK], draws=LONG, profile=profile)
    play(eng, "S: pass", "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 4m", "E: discard F")
    assert "ready" in legal_names(eng)  # S's discard would be the 6th
    play(eng, "S: ready", "S: discard P")
    assert ready(eng, S) == flag
    late = new([JUNK, T16, JUNK, JUNK], draws=LONG, profile=profile)
    play(
        late,
        "S: pass",
        "E: discard C",
        "S: discard 2m",
        "W: discard 3m",
        "N: discard 4m",
        "E: discard F",
        "S: discard P",
        "W: discard 1p",
        "N: discard 9p",
        "E: discard 7s",
    )
    assert late.current_player[0] == S and "ready" not in legal_names(late)  # the 10th discard: closed
    strict = new([JUNK, T16, JUNK, JUNK], draws=LONG, profile="strict16")
    play(strict, "S: pass", "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 4m", "E: discard F")
    assert "ready" not in legal_names(strict)  # first_discard: S's second discard earns nothing


def test_migi_window_closed_by_a_pon():
    eng = new([JUNK, T16, WIND_PAIR, JUNK], draws="C 3m 4m 2m", profile="mj888")
    play(eng, "S: pass", "E: discard E", "W: pon", "W: discard F", "N: discard 3m", "E: discard 4m")
    assert eng.current_player[0] == S and "ready" not in legal_names(eng)
    open_ = new([JUNK, T16, WIND_PAIR, JUNK], draws="C 3m 4m 2m", profile="mj888")
    play(open_, "S: pass", "E: discard C", "S: discard 3m", "W: discard 4m", "N: discard 2m")
    assert open_.current_player[0] == E  # no pon: the window stays open (the 4 discards so far)


# -- early_wins (3.3) -----------------------------------------------------------------------------
def test_dealer_discard_earthly_win():
    eng = new([JUNK, T16, JUNK, JUNK], draws="6s", profile="wikibooks")
    play(eng, "S: pass", "E: discard 6s", "S: win")
    assert items(eng, S) == {"single_wait": 1, "earthly_win": 16}  # replaces 門清; no 人胡 in wikibooks
    std = new([JUNK, T16, JUNK, JUNK], draws="6s")
    play(std, "E: discard 6s", "S: win")
    assert "earthly_win" not in items(std, S) and items(std, S).get("human_win") == 8


def test_dealer_discard_self_draw_is_no_earthly_win():
    eng = new([JUNK, T16, JUNK, JUNK], draws="E 6s", profile="wikibooks")
    play(eng, "S: pass", "E: discard E", "S: win")
    assert items(eng, S) == {"concealed_self_draw": 3, "single_wait": 1}


def test_first_round_human_win_of_the_dealer():
    eng = new([T16, JUNK, JUNK, JUNK], draws="C 6s", profile="masters")
    play(eng, "E: discard C", "S: discard 6s", "E: win")
    assert items(eng, E) == {"single_wait": 1, "human_win": 16}
    std = new([T16, JUNK, JUNK, JUNK], draws="C 6s")
    play(std, "E: discard C", "S: discard 6s", "E: win")
    assert "human_win" not in items(std, E)


@pytest.mark.parametrize("on_turn, human", [(4, True), (5, False)])
def test_first_round_is_four_discards(on_turn, human):
    # W (T16, it has drawn and discarded already) wins on the 4th discard, N's, or on the 5th, E's
    if on_turn == 4:
        draws, seq = "C 7s 8s 6s", ["N: discard 6s"]
    else:
        draws, seq = "C 7s 8s F 6s", ["N: discard F", "E: discard 6s"]
    eng = new([JUNK, JUNK, T16, JUNK], draws=draws, profile="masters")
    play(eng, "W: pass", "E: discard C", "S: discard 7s", "W: discard 8s", *seq, "W: win")
    assert ("human_win" in items(eng, W)) == human, items(eng, W)


def test_first_round_survives_a_concealed_kong():
    eng = new(["7777s 159p 159s ESWNCF", T16, JUNK, JUNK], draws="P", tail="6s", profile="masters")
    play(eng, "S: pass", "E: kong 7s", "E: discard 6s", "S: win")
    assert items(eng, S) == {"single_wait": 1, "human_win": 16}  # standard: the kong voids it


def test_first_round_ended_by_a_pon():
    eng = new([JUNK, T16, WIND_PAIR, JUNK], draws="C 3m 6s", profile="masters")
    play(eng, "S: pass", "E: discard E", "W: pon", "W: discard F", "N: discard 3m", "E: discard 6s", "S: win")
    assert "human_win" not in items(eng, S) and items(eng, S).get("concealed") == 1


def test_first_round_earthly_win_of_the_last_non_dealer():
    eng = new([JUNK, JUNK, JUNK, T16], draws="C 2m 7s 6s", profile="zhonghua")
    play(eng, "N: pass", "E: discard C", "S: discard 2m", "W: discard 7s", "N: win")
    assert items(eng, N) == {"single_wait": 1, "earthly_win": 16}
    std = new([JUNK, JUNK, JUNK, T16], draws="C 2m 7s 6s")
    play(std, "E: discard C", "S: discard 2m", "W: discard 7s", "N: win")
    assert items(std, N).get("earthly_win") == 16  # its first draw: standard too


def test_first_round_no_earthly_win_after_the_dealers_second_draw():
    eng = new([JUNK, T16, JUNK, JUNK], draws="C 2m 3m 4m F 6s", profile="zhonghua")
    play(eng, "S: pass", "E: discard C", "S: discard 2m", "W: discard 3m", "N: discard 4m", "E: discard F", "S: win")
    assert "earthly_win" not in items(eng, S)


# -- every platform played at random, the invariant checker on -------------------------------------
@pytest.mark.parametrize("profile", PLATFORMS)
def test_random_play_under_the_invariant_checker(profile):
    """Uniform and greedy play, hands and whole games (the flower offer asked), no invariant error.
    Uniform play seldom wins, so the dealer keeps the deal and a whole game runs to ~4,000 hands:
    8 such games (the first 8 of the 64 seeds, 26,000 to 37,000 hands and 160+ wins a profile) are
    plenty for the checker; 64 took a minute per profile."""
    for opts in ({}, {"episode": "game", "flower_win": "offer"}):
        rules = Rules.make(profile, **opts)
        for policy in (POLICY_UNIFORM, POLICY_GREEDY):
            out = random_play(
                Engine(rules, 8 if opts and policy == POLICY_UNIFORM else 64),
                seed=zlib.crc32(profile.encode()),
                episodes=2 if not opts else 1,
                check=True,
                policy=policy,
            )
            assert not out[:, OUT_ERROR].any(), (profile, opts, policy, out[out[:, OUT_ERROR] != 0][:3])
            assert out[:, OUT_HANDS].sum() >= 64
            assert policy == POLICY_UNIFORM or out[:, OUT_WINS].sum() > 0  # (uniform play seldom wins)
