"""The leaf-evaluated search (agents/search.py ``leaf=zero|value``, tw16/resample.hpp search_leaves):

- each leaf is the determinized state after the candidate and the other seats' play (the rollout
  policy) up to the seat's next decision or the hand's end, replayed here step by step from the same
  determinization (``envs._core.search_determinization``): the same leaf state, the same chips;
- a discard that deals in under every determinization is valued at the exact settlement;
- ``leaf=value`` adds the network's value head on the seat's observation of each open leaf (chips:
  the value x per_tai / reward_scale);
- ``choose`` is the native search's z test; n = 1 or a z nothing reaches plays exactly as the base (tests/test_search.py, its parametrized test);
  a seed makes the play repeatable, whatever the thread count;
- bad options and arguments are refused with errors naming them.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from search_cases import pon_endgame
from test_search_options import DEFENCE, mid_game

from agents import make_agent
from agents.evaluation.arena import play_duplicate
from agents.greedy import DefensiveAgent
from agents.search import LEAF_OPEN, choose
from envs import _core
from envs.engine import state as st
from envs.engine.actions import WIN
from envs.engine.api import Engine
from envs.obs.planes_v0 import PlanesV0

POLICY_DEFENSIVE = 4
LEAF_SETTLED = 2


def leaves(eng, games, k=3, n=3, given=None, seed=0, weight=0.0):
    """search_leaves_batch over Defensive rollouts: (cands, chips, status, log_w, done, leaf state)."""
    G = games.size
    L = st.alloc(G * k * n, 0)
    cands, chips = np.empty((G, n), np.int64), np.empty((G, k, n))
    status, log_w, done = np.empty((G, k, n), np.int8), np.empty((G, k)), np.empty(G, np.int64)
    seeds = np.arange(seed, seed + G, dtype=np.uint64)
    _core.search_leaves_batch(
        eng.s,
        games,
        seeds,
        k,
        n,
        POLICY_DEFENSIVE,
        eng.native,
        L,
        cands,
        chips,
        status,
        log_w,
        done,
        given,
        DEFENCE,
        False,
        weight,
    )
    return cands, chips, status, log_w, done, L


def determinization(eng, b, seed, i):
    """A batch-1 engine holding determinization i of game b's search from seed (no scripted walls, as
    the search's own buffers)."""
    e = Engine(eng.rules, 1)
    e.s = st.alloc(1, 0)
    _core.search_determinization(eng.s, int(b), seed, i, eng.native, e.s, 0)
    return e


def replay_leaf(e, seat, action):
    """Play the candidate, then Defensive (read from the observation) at the other seats until the hand
    ends or the seat decides again (a win on offer taken): (settled, chips gained)."""
    agent, enc = DefensiveAgent(), PlanesV0()
    before, hands = int(e.s.scores[0, seat]), int(e.s.g[0, st.G_HANDS])
    a = action
    for _ in range(500):
        e.step(np.array([a]))
        chips = int(e.s.scores[0, seat]) - before
        if e.terminated[0] or int(e.s.g[0, st.G_HANDS]) != hands:
            return True, chips
        if int(e.current_player[0]) == seat:
            if not e.legal_action_mask[0, WIN]:
                return False, chips
            a = WIN
        else:
            a = int(agent.act(enc.encode(e, seats=e.current_player), e.legal_action_mask)[0])
    raise AssertionError("the leaf was not reached in 500 steps")


def same_game(e, L, slot):
    for name in st.State._fields:
        if name == "script":
            continue
        np.testing.assert_array_equal(getattr(e.s, name)[0], getattr(L, name)[slot], err_msg=name)


def test_each_leaf_is_the_replayed_determinization():
    eng = mid_game(batch=24, steps=45, seed=21)
    games = np.flatnonzero(~eng.terminated)
    k, n = 3, 3
    cands, chips, status, log_w, done, L = leaves(eng, games, k, n)
    np.testing.assert_array_equal(log_w, 0.0)  # beta 0
    seen = {1: 0, 2: 0}
    for i, b in enumerate(games):
        seat = int(eng.current_player[b])
        nc = int((cands[i] >= 0).sum())
        assert eng.legal_action_mask[b, cands[i, :nc]].all()
        if done[i] == 0:  # nothing to search: one candidate, or a win first
            assert nc == 1 or cands[i, 0] == WIN
            continue
        assert done[i] == k
        for d in range(k):
            for j in range(nc):
                e = determinization(eng, b, i, d)
                settled, got = replay_leaf(e, seat, int(cands[i, j]))
                assert status[i, d, j] == (LEAF_SETTLED if settled else LEAF_OPEN)
                assert chips[i, d, j] == got
                if not settled:
                    same_game(e, L, (i * k + d) * n + j)
                seen[int(status[i, d, j])] += 1
    assert seen[1] > 50 and seen[2] > 0  # both kinds of leaf met


def deal_in_case() -> Engine:
    """A late-game state built by hand: each opponent has five pons and one concealed tile (a single
    wait on it); the unseen tiles are three 32 (W), two 33 (N) and the flower f8, so that in every deal
    at least one opponent holds a 32. E (17 tiles: 15-19 three each, one 20, one 32) is to discard: the
    32 deals in under every determinization, the 20 (three in the river) never does."""
    own = [15] * 3 + [16] * 3 + [17] * 3 + [18] * 3 + [19] * 3 + [20, 32]
    return pon_endgame((32, 32, 33), own, [4 * 32 + 3, 4 * 33 + 3])


def test_a_discard_that_deals_in_everywhere_is_valued_at_the_settlement():
    eng = deal_in_case()
    k = 12
    given = np.array([[32, 20]], np.int64)  # (the discard actions are the kinds)
    assert eng.legal_action_mask[0, given[0]].all()
    cands, chips, status, log_w, done, _ = leaves(eng, np.array([0]), k=k, n=2, given=given, seed=3)
    np.testing.assert_array_equal(cands, given)
    assert done[0] == k
    assert (status[0, :, 0] == LEAF_SETTLED).all() and (chips[0, :, 0] < 0).all()
    for d in range(k):  # each the exact settlement of its deal
        settled, got = replay_leaf(determinization(eng, 0, 3, d), 0, 32)
        assert settled and chips[0, d, 0] == got
    # the dealt-in chips differ by who wins (seat flowers, dealer): the deals differ
    assert np.unique(chips[0, :, 0]).size > 1
    best, means = choose(chips[0], log_w[0], 2.0)
    assert best == 1 and means[1] > means[0]  # the search leaves the dealing-in base candidate
    with pytest.raises(ValueError, match="i = -1"):
        _core.search_determinization(eng.s, 0, 3, -1, eng.native, st.alloc(1, 0), 0)
    with pytest.raises(ValueError, match="c = 1"):
        _core.search_determinization(eng.s, 0, 3, 0, eng.native, st.alloc(1, 0), 1)
    with pytest.raises(ValueError, match="scripted walls"):
        _core.search_determinization(eng.s, 0, 3, 0, eng.native, st.alloc(1, 2), 0)


def test_value_leaves_add_the_value_head_on_the_replayed_leaf():
    """leaf=value's means are the weighted means of: settled chips, or chips + value head x per_tai /
    reward_scale on the seat's observation of the leaf, recomputed here from replayed leaves."""
    eng = mid_game(batch=16, steps=40, seed=22)
    games = np.flatnonzero(~eng.terminated)
    agent = make_agent("search:base=neural,leaf=value,rollout=defensive,k=2,n=2,z=0")
    seeds = np.arange(games.size, dtype=np.uint64) + 7
    out, means = agent.leaf_decisions(eng, games, seeds)
    scale = eng.rules.stakes.per_tai / 0.1  # ppo_v2.pt: trained at reward scale 0.1 (not recorded in it)
    assert agent.net.reward_scale == 0.1
    enc, checked = PlanesV0(derived=True), 0
    for i, b in enumerate(games):
        if np.isnan(means[i, 0]):
            assert out[i] == agent.net_candidates(eng, np.array([b]))[0, 0]
            continue
        cands = agent.net_candidates(eng, np.array([b]))[0]
        seat = int(eng.current_player[b])
        vals = np.zeros((2, 2))
        for d in range(2):
            for j in range(2):
                e = determinization(eng, b, int(seeds[i]), d)
                settled, chips = replay_leaf(e, seat, int(cands[j]))
                v = 0.0 if settled else scale * agent.net.values(enc.encode(e, seats=np.array([seat])))[0]
                vals[d, j] = chips + v
        np.testing.assert_allclose(means[i], vals.mean(0), rtol=1e-5, atol=1e-3)
        assert out[i] == cands[int(np.argmax(vals.mean(0)))] or np.ptp(vals.mean(0)) == 0
        checked += 1
    assert checked > 5
    with pytest.raises(ValueError, match="obs must be an array"):
        agent.net.values(np.zeros((2, 34), np.float32))


def test_choose_is_the_z_test_of_the_paired_differences():
    base = np.array([0.0, 0.0, 0.0, 0.0])
    clear = np.column_stack([base, base + 10.0, base + 5.0])
    assert choose(clear, np.zeros(4), 3.0)[0] == 1  # +10 every time: clear
    noisy = np.column_stack([base, np.array([40.0, -30.0, 20.0, -20.0])])
    assert choose(noisy, np.zeros(4), 1.0)[0] == 0  # +2.5 on average, far within the noise
    assert choose(noisy, np.zeros(4), 0.0)[0] == 1  # z = 0: the best mean
    # a determinization of negligible weight does not count
    w = np.log(np.array([1.0, 1.0, 1.0, 1e-12]))
    skew = np.column_stack([base, np.array([1.0, 1.0, 1.0, -1000.0])])
    best, means = choose(skew, w, 0.0)
    assert best == 1 and abs(means[1] - 1.0) < 1e-6
    # a margin in chips on top of the z test: a small, consistent gain is not taken
    steady = np.column_stack([base, base + 4.0])
    assert choose(steady, np.zeros(4), 3.0)[0] == 1 and choose(steady, np.zeros(4), 3.0, 5.0)[0] == 0
    assert choose(steady, np.zeros(4), 3.0, 3.9)[0] == 1
    one = np.array([[0.0, 0.5]])
    assert choose(one, np.zeros(1), 0.0)[0] == 1 and choose(one, np.zeros(1), 1.0)[0] == 0  # (the 1 chip floor)


def test_leaf_search_is_deterministic_and_thread_independent():
    spec = "search:base=neural,leaf=value,rollout=defensive,k=3,n=3,z=0.5,w=0.05"
    field = [make_agent("defensive") for _ in range(3)]
    res = []
    for threads in (1, 2, 1):
        _core.set_num_threads(threads)
        try:
            a = make_agent(spec, seed=4)
            res.append((play_duplicate([a, *field], 2, seed=4)["per_wall"], a.searched))
        finally:
            _core.set_num_threads(0)
    for per_wall, searched in res[1:]:
        np.testing.assert_array_equal(per_wall, res[0][0])
        assert searched == res[0][1] > 0


def test_leaf_options_and_arguments_are_refused_when_bad():
    a = make_agent("search:base=neural,leaf=value,k=4")
    assert a.leaf == "value" and a.name.endswith(",base=neural,leaf=value")
    assert make_agent("search:base=neural,leaf=value,m=20").name.endswith(",leaf=value,m=20")
    assert make_agent("search").leaf == "rollout" and make_agent("search").name == "search"
    for spec, msg in (
        ("search:leaf=net", "leaf must be one of"),
        ("search:leaf=value", "leaf=value reads the base network"),
        ("search:base=defensive,leaf=value", "use base=neural"),
        ("search:leaf", "expected k=INT"),
        ("search:m=5", "m \\(a margin in chips\\) applies to the leaf modes"),
        ("search:leaf=zero,m=-1", "m must be a number"),
        ("search:leaf=zero,m=x", "m must be a number"),
        ("search:leaf=zero,k=30000,n=3", "leaves per decision"),
    ):
        with pytest.raises(ValueError, match=msg):
            make_agent(spec)
    eng = mid_game(batch=6, seed=23)
    games = np.flatnonzero(~eng.terminated)[:2]
    G, k, n = games.size, 2, 2
    good = dict(
        leaves=st.alloc(G * k * n, 0),
        cands=np.empty((G, n), np.int64),
        chips=np.empty((G, k, n)),
        status=np.empty((G, k, n), np.int8),
        log_w=np.empty((G, k)),
        done=np.empty(G, np.int64),
    )

    def call(**kw):
        a = {**good, **kw}
        _core.search_leaves_batch(
            eng.s,
            games,
            np.zeros(G, np.uint64),
            k,
            n,
            2,
            eng.native,
            a["leaves"],
            a["cands"],
            a["chips"],
            a["status"],
            a["log_w"],
            a["done"],
        )

    call()
    assert (good["done"] >= 0).all()
    for kw, err, msg in (
        ({"leaves": st.alloc(G * k * n - 1, 0)}, ValueError, "G \\* k \\* n"),
        ({"leaves": st.alloc(G * k * n, 1)}, ValueError, "scripted walls"),
        ({"chips": np.empty((G, k, n + 1))}, ValueError, "chips"),
        ({"status": np.empty((G, k, n), np.int64)}, TypeError, "status"),
        ({"log_w": np.empty((G, k + 1))}, ValueError, "log_w"),
        ({"done": np.empty(G + 1, np.int64)}, ValueError, "done"),
        ({"leaves": eng.s}, ValueError, "shares memory with state"),
    ):
        with pytest.raises(err, match=msg):
            call(**kw)
    # a river entry's seat indexes the discard model's per-seat arrays: out of range it is refused
    # (before, search_weights wrote past a stack array: the fuzz of tests/sanitize_driver.py crashed)
    b = int(games[0])
    assert eng.s.g[b, st.G_NRIVER] > 0
    eng.s.river[b, 0, st.RV_SEAT] = 35
    w = np.empty(4)
    for fn in (
        lambda: _core.search_weights(eng.s, b, 3, 4, 0.5, eng.native, w),
        lambda: _core.search_log_weight(eng.s, b, int(eng.current_player[b]), eng.native),
        lambda: call(),
    ):
        with pytest.raises(ValueError, match="river\\[0\\] = \\(kind .*, seat 35\\)"):
            fn()


def test_the_time_budget_bounds_leaf_decisions():
    """ms stops starting determinizations of the leaves: k = 5,000 (far past the budget) under 10 ms."""
    eng = mid_game(batch=8, seed=24)
    games = np.flatnonzero(~eng.terminated)
    agent = make_agent("search:leaf=zero,rollout=efficient,k=5000,n=3,ms=10,z=0")
    _core.set_num_threads(1)
    try:
        t0 = time.perf_counter()
        out = agent.act_engine(eng, games)
        dt = time.perf_counter() - t0
    finally:
        _core.set_num_threads(0)
    assert eng.legal_action_mask[games, out].all() and agent.searched > 0
    assert dt < games.size * 0.1 + 1.0


def _choose_reference(values, log_w, z, margin):
    """The rule written out over whole arrays (the weights normalised once), to check the native
    accumulator (PairedMeans: one determinization at a time, rescaled as larger weights arrive)."""
    k = values.shape[0]
    w = np.exp(log_w - log_w.max())
    W, W2 = w.sum(), (w * w).sum()
    means = (w[:, None] * values).sum(0) / W
    sq = (w[:, None] * (values - values[:, :1]) ** 2).sum(0)
    ess, denom = W * W / W2, W - W2 / W
    best = 0
    for j in range(1, values.shape[1]):
        d = means[j] - means[0]
        var = max(1.0, (sq[j] - W * d * d) / denom if k > 1 and denom > 0 else 0.0)
        if d > max(z * np.sqrt(var / ess), margin) and means[j] > means[best]:
            best = j
    return best, means


def test_choose_matches_the_rule_over_whole_arrays():
    rng = np.random.default_rng(5)
    for _ in range(300):
        k, nc = int(rng.integers(1, 12)), int(rng.integers(1, 6))
        values = rng.normal(0, 20, (k, nc)) + rng.normal(0, 5, nc)
        log_w = rng.normal(0, 3, k) if rng.random() < 0.5 else np.zeros(k)
        z, margin = float(rng.choice([0.0, 1.0, 2.0])), float(rng.choice([0.0, 3.0]))
        best, means = choose(values, log_w, z, margin)
        ref_best, ref_means = _choose_reference(values, log_w, z, margin)
        np.testing.assert_allclose(means, ref_means, rtol=1e-9, atol=1e-9)
        assert best == ref_best


def test_choose_refuses_bad_input():
    ok = np.zeros((3, 2))
    for args, match in (
        ((np.zeros((0, 2)), np.zeros(0), 1.0, 0.0, np.zeros(2)), "no determinization"),
        ((np.zeros((3, 77)), np.zeros(3), 1.0, 0.0, np.zeros(77)), "nc = 77"),
        ((ok, np.zeros(4), 1.0, 0.0, np.zeros(2)), "log_w"),
        ((ok, np.zeros(3), 1.0, 0.0, np.zeros(3)), "means"),
        ((ok, np.zeros(3), -1.0, 0.0, np.zeros(2)), "z = "),
        ((ok, np.zeros(3), 1.0, np.nan, np.zeros(2)), "margin = "),
        ((np.array([[0.0, np.nan]] * 3), np.zeros(3), 1.0, 0.0, np.zeros(2)), r"values\[0, 1\] is not finite"),
        ((ok, np.array([0.0, np.inf, 0.0]), 1.0, 0.0, np.zeros(2)), r"log_w\[1\] is not finite"),
    ):
        with pytest.raises(ValueError, match=match):
            _core.search_choose(*args)
