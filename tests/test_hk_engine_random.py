"""hongkong engine under random play with the invariant checker (every option on and off), whole
games through the 拉 ledger, determinism, and the PettingZoo API test."""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.invariants import ERROR_NAMES
from envs.engine.randplay import POLICY_GREEDY, POLICY_UNIFORM, random_play
from envs.rules import Rules

HK = "hongkong"
ALL_OFF = {
    "multi_win": False,
    "strict_pass": False,
    "swap_call": True,
    "declare_ready": False,
    "flower_win": "auto",
    "dice_payments": False,
    "settlement": "immediate",
    "la_cut": "none",
}
HANDS = [
    ({}, POLICY_GREEDY, 1500),
    ({}, POLICY_UNIFORM, 1000),
    (ALL_OFF, POLICY_GREEDY, 1000),
    ({"dead_wall": 60}, POLICY_UNIFORM, 1000),  # last tiles and last flowers under offers
    ({"dealer_pays_on_self_draw": True, "flowers": False}, POLICY_GREEDY, 500),
]
GAMES = [
    {"episode": "game"},
    {"episode": "game", "la_cut_policy": "ask"},
    {"episode": "game", "la_draw": "settle", "la_cut": "none"},
    {"episode": "game", **ALL_OFF},
]


def _check(out):
    bad = np.flatnonzero(out[:, 4])
    assert bad.size == 0, [(int(b), ERROR_NAMES[out[b, 4]], int(out[b, 5])) for b in bad[:5]]


@pytest.mark.parametrize("opts,policy,games", HANDS)
def test_random_hands_invariants(opts, policy, games):
    eng = Engine(Rules.make(HK, **opts), games)
    out = random_play(eng, seed=21, episodes=1, check=True, policy=policy)
    _check(out)
    assert out[:, 1].sum() == games
    if policy == POLICY_GREEDY:
        assert out[:, 3].sum() > games // 10


@pytest.mark.parametrize("opts", GAMES)
@pytest.mark.parametrize("policy", [POLICY_GREEDY, POLICY_UNIFORM])
def test_random_games_invariants(opts, policy):
    # uniform play seldom wins, so its games run long (~2,000 hands each): 8 of them are 6,000-30,000
    # checked hands with 80+ wins a configuration, where 16 took 5 s of CPU each
    eng = Engine(Rules.make(HK, **opts), 16 if policy == POLICY_GREEDY else 8)
    out = random_play(eng, seed=8, episodes=1, check=True, policy=policy)
    _check(out)
    assert (eng.s.g[:, st.G_ROT] == 16).all() and (eng.s.scores.sum(1) == 0).all()
    assert not eng.la_count.any()  # every open debt paid at the end of the game


def test_hongkong_same_trajectory_at_batch_1_and_8():
    """Game i of a batch plays as game i alone, and a rerun plays the same games. (Batches under
    _core.PARALLEL_MIN_BATCH run on one thread, so 8 games test what 64 did: 64 uniform whole games,
    twice, were 115,000 hands and half a minute of CPU; 16 games 25 CPU s; 8 about half that. Game 5,
    not the first, is the one rerun alone besides game 0.)"""
    rules = Rules.make(HK, episode="game", la_cut_policy="ask")
    big = Engine(rules, 8)
    out_big = random_play(big, seed=5, policy=POLICY_UNIFORM)
    for i in (0, 5):
        one = Engine(rules, 1)
        out_one = random_play(one, seed=5, policy=POLICY_UNIFORM, games=[i])
        np.testing.assert_array_equal(out_one[0], out_big[i])
        np.testing.assert_array_equal(one.s.scores[0], big.s.scores[i])
    again = random_play(Engine(rules, 8), seed=5, policy=POLICY_UNIFORM)
    np.testing.assert_array_equal(again, out_big)


@pytest.mark.parametrize("opts", [{}, {"episode": "game", "la_cut_policy": "ask"}])
def test_pettingzoo_api_with_hongkong(opts):
    from pettingzoo.test import api_test

    from envs import tw16_v0

    api_test(tw16_v0.env(profile=HK, **opts), num_cycles=300)
