"""Random play with the invariant checker after every step (in the native core), determinism across
batch sizes and thread counts, and the public API's contract."""

from __future__ import annotations

import numpy as np
import pytest
from game_check import check

from envs import _core
from envs._core import _testing
from envs.engine import state as st
from envs.engine.actions import ACTION_NAMES, N_ACTIONS, PASS, action_from_name, action_name
from envs.engine.api import Engine
from envs.engine.invariants import ERROR_NAMES
from envs.engine.randplay import POLICY_GREEDY, POLICY_UNIFORM, random_play
from envs.rules import DEFAULTS, Rules

# (profile, options, policy, games): over 20,000 hands in all; every rule option with two values or more
# (test_configs_play_every_option_both_ways checks it against envs.rules)
CONFIGS = [
    ("standard", {}, POLICY_UNIFORM, 3000),
    ("standard", {}, POLICY_GREEDY, 3000),
    ("standard", {"flowers": False, "dead_wall": 0}, POLICY_GREEDY, 2000),
    (
        "standard",
        {
            "multi_win": True,
            "strict_pass": True,
            "no_calls_last3": False,
            "no_kong_after_claim": False,
            "kong_replacement_self_draw": False,
            "swap_call": False,
            "dead_wall_per_kong": True,
            "streak_cap": 1,
            "stakes": "50/20",
        },
        POLICY_GREEDY,
        3000,
    ),
    ("standard", {"multi_win": True, "strict_pass": True, "swap_call": False}, POLICY_UNIFORM, 2000),
    ("standard", {"dead_wall": 60}, POLICY_UNIFORM, 2000),  # short walls: last tiles, last flowers
    ("strict16", {}, POLICY_GREEDY, 2000),
    ("casual", {}, POLICY_GREEDY, 2000),
    ("casual", {"flowers": False}, POLICY_UNIFORM, 1000),
    ("olympiad", {}, POLICY_GREEDY, 2000),  # no robbing a kong, no special shapes, win/lose settlement
    ("olympiad", {}, POLICY_UNIFORM, 1000),
    ("olympiad", {"extras": True}, POLICY_GREEDY, 1000),  # the pack's shapes stay off (special_wins)
]


def _rules(profile, opts):
    return Rules.make(profile, **opts)


@pytest.mark.parametrize("profile,opts,policy,games", CONFIGS)
def test_random_play_invariants(profile, opts, policy, games):
    eng = Engine(_rules(profile, opts), games)
    out = random_play(eng, seed=11, episodes=1, check=True, policy=policy)
    bad = np.flatnonzero(out[:, 4])
    assert bad.size == 0, [(int(b), ERROR_NAMES[out[b, 4]], int(out[b, 5])) for b in bad[:5]]
    assert out[:, 1].sum() == games  # one hand per episode
    if policy == POLICY_GREEDY:
        assert out[:, 3].sum() > games // 10  # many hands end in a win: scoring is exercised


def test_random_play_game_episodes():
    eng = Engine(Rules.make(episode="game"), 16)
    out = random_play(eng, seed=5, episodes=1, check=True, policy=POLICY_GREEDY)
    assert (out[:, 4] == 0).all()
    assert (eng.s.g[:, st.G_ROT] == 16).all() and (eng.s.scores.sum(1) == 0).all()
    assert (out[:, 1] >= 16).all()


# Options random play here leaves at one value, and where their other values are played instead.
PLAYED_ELSEWHERE = {
    "episode": "test_random_play_game_episodes",
    "extras": "tests/test_extras_engine.py",
    "unrelated_gap": "tests/test_extras_engine.py",
    "extras_off": "tests/test_extras.py (scoring)",
    "count_method": "tests/test_hongkong.py (scoring)",
    "dual_reading": "tests/test_hongkong.py (scoring)",
    "dealer_pays_on_self_draw": "tests/test_hk_engine_random.py",
    "dice_payments": "tests/test_hk_engine_random.py",
    "settlement": "tests/test_hk_engine_random.py",
    "la_cut": "tests/test_hk_engine_random.py",
    "la_cut_policy": "tests/test_hk_engine_random.py",
    "la_draw": "tests/test_hk_engine_random.py",
    "flower_win": "tests/test_hk_engine_random.py",
    "seven_flower_win": "tests/test_platforms_engine.py",
    "heavenly_ready_window": "tests/test_platforms_engine.py",
    "earthly_ready_window": "tests/test_platforms_engine.py",
    "early_wins": "tests/test_platforms_engine.py",
}


def test_configs_play_every_option_both_ways():
    """Over the CONFIGS (20,000 hands and more) every rule option of envs.rules, as the engine sees it
    (the profile's defaults applied), takes two values or more, unless PLAYED_ELSEWHERE says where."""
    values = {name: set() for name in DEFAULTS}
    for profile, opts, _, _ in CONFIGS:
        r = _rules(profile, opts)
        for name in values:
            values[name].add(repr(getattr(r, name)))
    once = sorted(n for n, vs in values.items() if len(vs) < 2 and n not in PLAYED_ELSEWHERE)
    assert not once, f"options played with one value only: {once} (add a config or say where in PLAYED_ELSEWHERE)"
    assert set(PLAYED_ELSEWHERE) <= set(DEFAULTS)
    assert sum(c[3] for c in CONFIGS) >= 20_000


# -- determinism ---------------------------------------------------------------------------------
def test_same_trajectory_at_batch_1_and_1024():
    rules = Rules.make(multi_win=True)
    big = Engine(rules, 1024)
    out_big = random_play(big, seed=99, policy=POLICY_GREEDY)
    for i in (0, 17, 1023):
        one = Engine(rules, 1)
        out_one = random_play(one, seed=99, policy=POLICY_GREEDY, games=[i])
        np.testing.assert_array_equal(out_one[0], out_big[i])
        for a, b in zip(one.s, big.s):
            if a.shape[0] == 1:
                np.testing.assert_array_equal(a[0], b[i])


def test_same_trajectory_whatever_the_thread_count():
    rules = Rules()
    batch = _core.PARALLEL_MIN_BATCH  # big enough to be split over threads
    old = _core.num_threads()
    try:
        _core.set_num_threads(1)
        o1 = random_play(Engine(rules, batch), seed=4, policy=POLICY_GREEDY)
        _core.set_num_threads(3)  # more threads than cores: still the same games
        o3 = random_play(Engine(rules, batch), seed=4, policy=POLICY_GREEDY)
    finally:
        _core.set_num_threads(old)
    np.testing.assert_array_equal(o1, o3)


def test_two_engines_same_seeds_and_actions_agree():
    """Stepping through the Python API is deterministic: same seeds + actions = same states."""
    eng = Engine(Rules(), 8)
    eng.reset(np.arange(8, dtype=np.uint64) + 5)
    rng = np.random.default_rng(0)
    eng2 = Engine(Rules(), 8)
    eng2.reset(np.arange(8, dtype=np.uint64) + 5)
    for _ in range(300):
        m = eng.legal_action_mask
        a = np.array([rng.choice(np.flatnonzero(r)) for r in m])
        r1, t1 = eng.step(a)
        r2, t2 = eng2.step(a)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(eng.hands, eng2.hands)
    assert check(eng) == []


def test_api_serial_and_parallel_loops_agree():
    """Below PARALLEL_MIN_BATCH games a batch call runs on the calling thread, from it on several:
    game 0 of both, given the same actions, stays identical."""
    n = _core.PARALLEL_MIN_BATCH
    seeds = np.arange(n, dtype=np.uint64) + 3
    big = Engine(Rules(), n)
    one = Engine(Rules(), 1)
    big.reset(seeds)
    one.reset(seeds[:1])
    rng = np.random.default_rng(7)
    old = _core.num_threads()
    try:
        _core.set_num_threads(2)
        for _ in range(400):
            m = big.legal_action_mask
            acts = np.argmax(np.where(m, rng.random(m.shape), -1.0), axis=1)  # uniform over the legal ones
            big.step(acts)
            one.step(acts[:1])
            for a, b in zip(one.s, big.s):
                np.testing.assert_array_equal(a[0], b[0])
    finally:
        _core.set_num_threads(old)


# -- API contract --------------------------------------------------------------------------------
def test_reset_step_shapes_and_done_games():
    eng = Engine(Rules(), 4)
    eng.reset(7)
    assert eng.legal_action_mask.shape == (4, N_ACTIONS) and eng.legal_action_mask.dtype == np.bool_
    assert eng.current_player.shape == (4,)
    assert (eng.current_player == eng.dealer).all()
    rng = np.random.default_rng(1)
    for _ in range(5000):
        if eng.terminated.all():
            break
        a = np.array([rng.choice(np.flatnonzero(r)) for r in eng.legal_action_mask])
        r, t = eng.step(a)
        assert r.shape == (4, 4) and r.dtype == np.float32 and t.shape == (4,)
        assert abs(float(r.sum())) < 1e-4
    assert eng.terminated.all()
    assert eng.legal_action_mask.all() and (eng.current_player == -1).all()
    before = [x.copy() for x in eng.s]
    r, t = eng.step(np.zeros(4, np.int64))  # a no-op on finished games
    assert (r == 0).all() and t.all()
    for a, b in zip(before, eng.s):
        if a is not None and a.shape == b.shape and a.dtype != np.float32:
            np.testing.assert_array_equal(a, b)


def test_illegal_action_raises_and_views_are_read_only():
    eng = Engine(Rules(), 2)
    eng.reset(0)
    with pytest.raises(ValueError, match="illegal action"):
        eng.step(np.full(2, PASS))
    with pytest.raises(ValueError):
        eng.hands[0, 0, 0] = 1
    with pytest.raises(ValueError):
        eng.legal_action_mask[0, 0] = True


def test_auto_reset():
    eng = Engine(Rules(), 3, auto_reset=True)
    eng.reset(2)
    rng = np.random.default_rng(2)
    ends = 0
    for _ in range(3000):
        a = np.array([rng.choice(np.flatnonzero(r)) for r in eng.legal_action_mask])
        r, t = eng.step(a)
        ends += int(t.sum())
        assert not eng.s.terminated.any()  # finished games are already dealt again
        assert abs(float(r.sum())) < 1e-4
    assert ends > 0 and check(eng) == []


def test_seeds_per_game_independent_of_batch():
    a = Engine(Rules(), 3)
    a.reset(np.array([5, 6, 7], np.uint64))
    b = Engine(Rules(), 1)
    b.reset(np.array([6], np.uint64))
    np.testing.assert_array_equal(a.hands[1], b.hands[0])


def test_action_names_round_trip():
    assert len(ACTION_NAMES) == N_ACTIONS
    for a in range(N_ACTIONS):
        assert action_from_name(action_name(a)) == a
    assert action_name(0) == "discard 1m" and action_name(34) == "chi low" and action_name(73) == "win"
    assert action_from_name("kong 5m") == 39 + 4 and action_from_name("kong") == 38


def test_memory_per_game_is_small():
    # 4 KiB, with res_items as int16 (158 items x 4 seats) and the 拉 ledger
    assert Engine(Rules(), 8).state_bytes_per_game() < 4096


def test_may_win_never_rejects_a_win():
    """The engine's cheap pre-check agrees with the full winning-shape check on random hands."""
    from envs._core._testing import may_win
    from envs.hand.analysis import SHAPE_EIGHT_PAIRS

    rng = np.random.default_rng(1)
    n = 4000
    for shapes in (0, SHAPE_EIGHT_PAIRS):
        hands = np.zeros((n, 34), np.int8)
        sizes = 16 - 3 * rng.integers(0, 6, n)
        for h, size in zip(hands, sizes):
            m = k = 0
            while m < size:  # biased towards pairs and runs so that wins occur
                k = int(rng.integers(34)) if m % 3 == 0 else min(33, k + int(rng.integers(2)))
                if h[k] < 4:
                    h[k] += 1
                    m += 1
                else:
                    k = int(rng.integers(34))
        # every hand plus each kind it holds fewer than four of: the full check, batched
        rows, kinds = np.nonzero(hands < 4)
        plus = hands[rows].copy()
        plus[np.arange(rows.size), kinds] += 1
        full = _testing.is_win_batch(plus, (5 - (16 - sizes[rows]) // 3).astype(np.int64), shapes)
        wins = np.flatnonzero(full)
        assert wins.size > 50
        for i in wins:
            h, t = hands[rows[i]], int(kinds[i])
            assert may_win(h, t, shapes), (h, t, shapes)
            assert may_win(plus[i], -1, shapes), (plus[i], shapes)  # the same hand judged on turn


def test_read_only_and_broadcast_walls_are_used_as_they_are():
    from envs.engine.scripted import scripted_wall

    junk = "159m 159p 159s ESWNCFP"
    wall = scripted_wall([junk] * 4, draws="2p 3p", flowers=False)
    ref = Engine(Rules.make(flowers=False), 2)
    ref.reset(0, walls=np.stack([wall, wall])[:, None].copy())
    ro = np.stack([wall, wall])[:, None]
    ro.setflags(write=False)
    for walls in (ro, wall, wall[None]):  # read-only (B, K, 144); (144,) and (K, 144) broadcast to B games
        eng = Engine(Rules.make(flowers=False), 2)
        eng.reset(0, walls=walls)
        assert np.shares_memory(eng.s.script, walls)  # not copied
        np.testing.assert_array_equal(eng.hands, ref.hands)
        np.testing.assert_array_equal(eng.s.wall, ref.s.wall)
    bad = wall.copy()
    bad[0] = bad[1]  # not a permutation
    with pytest.raises(ValueError, match="permutation"):
        Engine(Rules.make(flowers=False), 1).reset(0, walls=bad)
    with pytest.raises(ValueError, match="walls must have shape"):
        Engine(Rules(), 2).reset(0, walls=np.zeros((2, 1, 1, 144), np.uint8))


def test_bench_engine_smoke():
    from tw16.bench.engine import bench_engine

    old = _core.num_threads()
    _core.set_num_threads(0)  # "all cores", what threads=None asks for
    all_cores = _core.num_threads()
    _core.set_num_threads(old)
    r = bench_engine(batch_sizes=(1, _core.PARALLEL_MIN_BATCH), threads=(1, None), seconds=0.05)
    assert _core.num_threads() == old  # the bench restores the thread count
    assert r["import_seconds"] > 0 and r["state_bytes_per_game"] < 4096
    assert [(x["threads_used"], x["batch"]) for x in r["runs"][:2]] == [(1, 1), (1, _core.PARALLEL_MIN_BATCH)]
    assert r["runs"][3]["threads_used"] == min(all_cores, _core.PARALLEL_MIN_BATCH)
    assert all(x["hands_per_s"] > 0 and x["decisions_per_hand"] > 10 for x in r["runs"])
