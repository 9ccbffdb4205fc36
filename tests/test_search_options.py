"""The search agent's options of issue 26 (agents/search.py, native/src/resample.cpp):

- ``base=defensive``: Defensive's decision is the base candidate; with n = 1 (or a z nothing reaches,
  rollouts running) the agent plays exactly as Defensive, and the core's reading of Defensive's
  inputs from the state agrees with ``agents.features.decode`` of the seat's observation, state by state.
- ``rollout=defensive``: every seat of a rollout plays Defensive; deterministic, thread-independent.
- ``w``: the determinizations' importance weights (``envs._core.search_weights``) sum to 1, are
  deterministic by seed, uniform at w = 0, and w = 0 leaves the search bit for bit as before.
- ``ms``: the time budget per decision bounds the decision's time.
- bad options are refused with an error naming them.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.arena import play_duplicate
from agents.greedy import DEFENCE_DEFAULTS, READY_P, WIN_LOGIT, DefensiveAgent
from envs import _core
from envs.engine.api import Engine
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules

DEFENCE = (np.array(list(DEFENCE_DEFAULTS.values()), np.float64), WIN_LOGIT.astype(np.float64), READY_P)


def mid_game(batch=48, steps=40, seed=4):
    """An engine whose live games are mid-hand after seeded play: Greedy with one decision in 5 uniformly
    random, so that melds and rivers of all kinds occur."""
    eng = Engine(Rules(), batch)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    enc = PlanesV0()
    g = make_agent("greedy")
    for _ in range(steps):
        live = np.flatnonzero(~eng.terminated)
        if live.size == 0:
            break
        obs = enc.encode(eng, seats=eng.current_player)
        act = g.act(obs, eng.legal_action_mask)
        for b in range(batch):
            if rng.random() < 0.2:
                act[b] = rng.choice(np.flatnonzero(eng.legal_action_mask[b]))
        eng.step(act)
    return eng


def search(eng, games, k=2, n=3, policy=4, z=0.0, base_defensive=True, weight=0.0, ms=0.0, defence=DEFENCE, seed=0):
    out, vals = np.zeros(games.size, np.int64), np.zeros((games.size, n))
    seeds = np.arange(seed, seed + games.size, dtype=np.uint64)
    _core.search_batch(
        eng.s, games, seeds, k, n, policy, z, eng.native, out, vals, None, defence, base_defensive, weight, ms
    )
    return out, vals


def test_the_cores_defensive_decision_is_defensive_state_by_state():
    """n = 1 with base_defensive returns Defensive's decision read from the state: equal to DefensiveAgent
    on the seat's observation at every live decision of hands played to their end."""
    agent, enc = DefensiveAgent(), PlanesV0()
    compared = 0
    for seed in (4, 5):
        eng = Engine(Rules(), 32)
        eng.reset(seed)
        rng = np.random.default_rng(seed)
        while not eng.terminated.all():
            games = np.flatnonzero(~eng.terminated)
            out, _ = search(eng, games, k=1, n=1)
            act = agent.act(enc.encode(eng, seats=eng.current_player), eng.legal_action_mask)
            np.testing.assert_array_equal(out, act[games])
            compared += games.size
            for b in np.flatnonzero(rng.random(act.size) < 0.2):  # some random play: melds and folds of all kinds
                act[b] = rng.choice(np.flatnonzero(eng.legal_action_mask[b]))
            eng.step(act)
    assert compared > 3000


def test_defensive_rollouts_are_deterministic_and_thread_independent():
    eng = mid_game(batch=24, seed=8)
    games = np.flatnonzero(~eng.terminated)
    res = []
    for threads in (1, 2, 1):
        _core.set_num_threads(threads)
        res.append(search(eng, games, k=2, weight=0.1))
    _core.set_num_threads(0)
    for out, vals in res[1:]:
        np.testing.assert_array_equal(out, res[0][0])
        np.testing.assert_array_equal(vals, res[0][1])
    out, vals = res[0]
    assert eng.legal_action_mask[games, out].all()
    assert (~np.isnan(vals[:, 0])).sum() > games.size // 2


def test_importance_weights_are_normalised_and_deterministic_by_seed():
    eng = mid_game(steps=55, seed=9)
    games = np.flatnonzero(~eng.terminated)
    assert games.size > 5
    spread = []
    for b in games[:6]:
        w = np.empty(64)
        _core.search_weights(eng.s, int(b), 11, 64, 0.0, eng.native, w)
        np.testing.assert_array_equal(w, np.full(64, 1 / 64))  # beta 0: uniform
        ws = []
        for seed in (11, 11, 12):
            w = np.empty(64)
            _core.search_weights(eng.s, int(b), seed, 64, 0.3, eng.native, w)
            assert np.all(w >= 0) and abs(w.sum() - 1) < 1e-12
            ws.append(w)
        np.testing.assert_array_equal(ws[0], ws[1])
        spread.append(ws[0].max() * 64)
        assert not np.array_equal(ws[0], ws[2])
    assert max(spread) > 2  # the discards tell deals apart: some weigh far more than the mean


def test_unweighted_search_is_unchanged_bit_for_bit():
    """w = 0 (and no time budget) is the search as it was: the same values as the call without the new
    arguments; a weight changes the values, deterministically."""
    eng = mid_game(batch=24, seed=10)
    games = np.flatnonzero(~eng.terminated)
    out0, vals0 = np.zeros(games.size, np.int64), np.zeros((games.size, 3))
    seeds = np.arange(games.size, dtype=np.uint64)
    _core.search_batch(eng.s, games, seeds, 4, 3, 2, 0.0, eng.native, out0, vals0)
    out1, vals1 = search(eng, games, k=4, policy=2, base_defensive=False, defence=None)
    np.testing.assert_array_equal(out0, out1)
    np.testing.assert_array_equal(vals0, vals1)
    _, w1 = search(eng, games, k=4, policy=2, base_defensive=False, defence=None, weight=0.5)
    _, w2 = search(eng, games, k=4, policy=2, base_defensive=False, defence=None, weight=0.5)
    np.testing.assert_array_equal(w1, w2)
    assert not np.array_equal(np.nan_to_num(w1), np.nan_to_num(vals0))


def test_the_time_budget_bounds_each_decision():
    eng = mid_game(batch=8, seed=12)
    games = np.flatnonzero(~eng.terminated)
    _core.set_num_threads(1)
    try:
        t0 = time.perf_counter()
        out, vals = search(eng, games, k=1 << 20, ms=20.0)
        dt = time.perf_counter() - t0
    finally:
        _core.set_num_threads(0)
    # each game stops starting determinizations after 20 ms (one may finish past it: a rollout of a hand
    # is well under 100 ms); 2**20 of them would take hours
    assert dt < games.size * 0.12 + 1.0
    assert eng.legal_action_mask[games, out].all()
    a = make_agent("search:k=100000,ms=15,base=defensive,rollout=defensive")
    assert a.ms == 15.0 and "ms=15" in a.name
    play_duplicate([a, *(make_agent("defensive") for _ in range(3))], 1, seed=2)
    assert a.searched > 0 and a.seconds / a.searched < 0.2


def test_bad_options_are_refused():
    for spec, msg in (
        ("search:w=-1", "w must be"),
        ("search:w=x", "w must be a number"),
        ("search:ms=-5", "ms must be"),
        ("search:ms=1e9", "ms must be"),
        ("search:base=defensive,rollout=base", "rollout=base"),
        ("search:base=defence", "base must be"),
        ("search:rollout=fold", "rollout must be"),
    ):
        with pytest.raises(ValueError, match=msg):
            make_agent(spec)
    eng = mid_game(batch=4, seed=13)
    games = np.flatnonzero(~eng.terminated)[:2]
    for kw, msg in (
        ({"weight": -1.0}, "weight"),
        ({"weight": float("nan")}, "weight"),
        ({"ms": -1.0}, "ms = "),
        ({"defence": None}, "defence: Defensive"),
        ({"policy": 2, "base_defensive": False}, "defence: given"),
        ({"defence": DEFENCE[:2]}, "defence: expected a tuple"),
        ({"defence": list(DEFENCE)}, "defence: expected a tuple"),
        ({"defence": (DEFENCE[0][:7], DEFENCE[1], DEFENCE[2])}, "defence\\[0\\]"),
        ({"defence": (np.zeros(8), DEFENCE[1], DEFENCE[2])}, "risk"),
    ):
        with pytest.raises(ValueError, match=msg):
            search(eng, games, **kw)
    with pytest.raises(TypeError, match="defence\\[2\\]"):
        search(eng, games, defence=(DEFENCE[0], DEFENCE[1], READY_P.astype(np.float32)))
    out, vals = np.zeros(2, np.int64), np.zeros((2, 2))
    cand = np.stack([np.flatnonzero(eng.legal_action_mask[g])[:1].tolist() + [-1] for g in games])
    with pytest.raises(ValueError, match="base_defensive"):
        _core.search_batch(
            eng.s, games, np.zeros(2, np.uint64), 2, 2, 4, 0.0, eng.native, out, vals, cand, DEFENCE, True
        )
    w = np.empty(4)
    for args, msg in (((0, 0, 4, -1.0), "beta"), ((0, 0, 0, 1.0), "k = 0"), ((9, 0, 4, 1.0), "b = 9")):
        with pytest.raises(ValueError, match=msg):
            _core.search_weights(eng.s, *args, eng.native, w)
    with pytest.raises(ValueError, match="out"):
        _core.search_weights(eng.s, int(games[0]), 0, 5, 1.0, eng.native, w)


def reference_log_weight(s, b, seat):
    """The discard model of tw16/resample.hpp in Python: (the closeness of each opponent's hand to its
    discards, the distinct tiles another seat discarded since an opponent's newest discard that complete
    its hand (plain shapes: the standard profile's)); the log weight is -closeness - 100 x the second."""
    from envs.engine import state as st
    from envs.hand.api import is_complete_hand

    n = int(s.g[b, st.G_NRIVER])
    river = [(int(s.river[b, i, st.RV_SEAT]), int(s.river[b, i, st.RV_KIND])) for i in range(n)]
    lw, passed_wins = 0, 0
    for who, d in river:
        if who == seat:
            continue
        h = s.hands[b, who].astype(int)
        near = 2 * h[d]
        if d < 27:
            near += sum(h[d + o] * (2 if abs(o) == 1 else 1) for o in (-2, -1, 1, 2) if 0 <= d % 9 + o < 9)
        lw -= near
    for opp in set(range(4)) - {seat}:
        last = max([i for i, (who, _) in enumerate(river) if who == opp], default=-1)
        after = {d for who, d in river[last + 1 :] if who != opp}
        if s.p[b, opp, st.P_PASS_WIN]:
            continue
        for d in after:
            h = s.hands[b, opp].astype(np.int8).copy()
            h[d] += 1
            passed_wins += is_complete_hand(h, n_melds=int(s.p[b, opp, st.P_NMELDS]))
    return -lw, passed_wins


def test_the_discard_model_is_its_reference_on_resampled_deals():
    excluded = compared = 0
    for seed, steps in ((14, 35), (15, 50), (16, 60)):
        eng = mid_game(steps=steps, seed=seed)
        for b in np.flatnonzero(~eng.terminated):
            seat = int(eng.current_player[b])
            for r in range(8):
                e = eng.clone(int(b))
                e.resample_hidden(0, seat, 100 * r + seed)
                closeness, passed_wins = reference_log_weight(e.s, 0, seat)
                assert _core.search_log_weight(e.s, 0, seat, e.native) == -closeness - 100 * passed_wins
                excluded += passed_wins > 0
                compared += 1
    assert compared > 300 and excluded > 0  # the exclusion met
    with pytest.raises(ValueError, match="seat = 4"):
        _core.search_log_weight(eng.s, 0, 4, eng.native)
