"""The native batch engine (envs._core: reset_batch, reset_some, step_batch, step_some, random_play,
check_game) against the Numba engine (envs.engine.step / randplay / invariants), decision by decision.

Both engines run on the same seeds and take the same actions, chosen by a seeded policy over the
legal mask (uniform, taking most wins so scoring runs, and discarding towards the lowest shanten most
of the time so that many hands are won); after every reset and every step, all 17 state arrays must
be equal (the mask, the rewards and terminated flags, res_tai / res_items / res_delta included).
Every profile (standard, strict16, casual, hongkong; the extras pack) and every rule option that
changes the engine are covered, with hand and game episodes, auto-reset through reset_some, step_some
on random subsets, scripted walls, batch 1 and a batch big enough for threads, 1 and 2 threads. Then
random_play's tables and final states, the invariant checker on valid and corrupted states, and the
bindings' checks of bad input.

Default size well under a minute; TW16_DIFF_N=k multiplies the number of decisions by k.
"""

from __future__ import annotations

import os

import numba
import numpy as np
import pytest

from envs import _core
from envs.engine import state as st
from envs.engine.actions import N_ACTIONS, PASS, WIN
from envs.engine.api import Engine
from envs.engine.invariants import check_game as nb_check_game
from envs.engine.randplay import POLICY_GREEDY, POLICY_UNIFORM, random_play
from envs.engine.rng import game_seeds, mix64
from envs.engine.step import (
    batch_fn,
    reset_batch,
    reset_batch_serial,
    reset_some,
    step_batch,
    step_batch_serial,
    step_some_par,
    step_some_serial,
)
from envs.hand.analysis import discard_shanten
from envs.rules import Rules

SCALE = int(os.environ.get("TW16_DIFF_N", "1"))
FIELDS = st.State._fields
TOTALS = {"hands": 0, "decisions": 0, "steps": 0, "differences": 0, "random_play_hands": 0, "random_play_decisions": 0,
          "check_states": 0}

HK_OFF = {"multi_win": False, "strict_pass": False, "swap_call": True, "declare_ready": False, "flower_win": "auto",
          "dice_payments": False, "settlement": "immediate", "la_cut": "none"}
STD_ALL = {"multi_win": True, "strict_pass": True, "no_calls_last3": False, "no_kong_after_claim": False,
           "kong_replacement_self_draw": False, "swap_call": False, "dead_wall_per_kong": True, "streak_cap": 1}

# (id, profile, options): every option that changes the engine, on and off.
CONFIGS = [
    ("standard", "standard", {}),
    ("standard-all-on", "standard", STD_ALL),
    ("standard-noflowers", "standard", {"flowers": False, "dead_wall": 0}),
    ("standard-shortwall", "standard", {"dead_wall": 60}),
    ("standard-game", "standard", {"episode": "game", "stakes": {"base": 7, "per_tai": 3}}),
    ("strict16", "strict16", {}),
    ("strict16-game", "strict16", {"episode": "game", "multi_win": True}),
    ("casual", "casual", {}),
    ("casual-noflowers", "casual", {"flowers": False, "swap_call": False}),
    ("extras", "standard", {"extras": True}),
    ("extras-strict16", "strict16", {"extras": True, "unrelated_gap": 2}),
    ("extras-casual-game", "casual", {"extras": True, "episode": "game"}),
    ("hongkong", "hongkong", {}),
    ("hongkong-off", "hongkong", HK_OFF),
    ("hongkong-shortwall", "hongkong", {"dead_wall": 60}),
    ("hongkong-dealer-pays", "hongkong", {"dealer_pays_on_self_draw": True, "flowers": False, "count_method": 2}),
    ("hongkong-game", "hongkong", {"episode": "game"}),
    ("hongkong-game-ask", "hongkong", {"episode": "game", "la_cut_policy": "ask", "stakes": {"base": 5, "per_tai": 3}}),
    ("hongkong-game-settle", "hongkong", {"episode": "game", "la_draw": "settle", "la_cut": "none",
                                          "dual_reading": False}),
    ("hongkong-game-off", "hongkong", {"episode": "game", **HK_OFF}),
    ("hongkong-game-offer-dice", "hongkong", {"episode": "game", "flower_win": "offer", "dice_payments": True,
                                              "la_cut_policy": "ask", "dead_wall": 40}),
]
CONFIG_IDS = [c[0] for c in CONFIGS]


def _rules(profile, opts):
    return Rules.make(profile, **opts)


class Threads:
    """The core's and Numba's thread counts for a block (restored after). Numba's parallel loops
    cost milliseconds per call on a busy machine, so most tests give Numba one thread: its results
    do not depend on the count either."""

    def __init__(self, core, numba_threads=1):
        self.core = core
        self.numba = numba_threads

    def __enter__(self):
        self.old = (numba.get_num_threads(), _core.num_threads())
        numba.set_num_threads(min(self.numba, numba.config.NUMBA_NUM_THREADS))
        _core.set_num_threads(self.core)

    def __exit__(self, *exc):
        numba.set_num_threads(self.old[0])
        _core.set_num_threads(self.old[1])


# -- the two engines side by side -------------------------------------------------------------
class Pair:
    """A Numba engine state and a native one, driven together and compared after every change."""

    def __init__(self, rules, B, script=None):
        self.eng = Engine(rules, B)
        self.B = B
        self.opts, self.cfg, self.prof = self.eng.opts, self.eng.cfg, self.eng.prof
        self.sn = st.alloc(B)
        self.sc = st.alloc(B)
        if script is not None:
            self.sn = self.sn._replace(script=script)
            ro = script.view()
            ro.setflags(write=False)  # the native engine takes the scripted walls read-only
            self.sc = self.sc._replace(script=ro)
        self.where = ""

    def same(self, what):
        for name, a, b in zip(FIELDS, self.sn, self.sc):
            if not np.array_equal(a, b):
                TOTALS["differences"] += 1
                idx = np.argwhere(a != b)[0]
                raise AssertionError(
                    f"{what}: state.{name} differs at {tuple(int(i) for i in idx)}: numba {a[tuple(idx)]!r}, "
                    f"native {b[tuple(idx)]!r} (game {int(idx[0])}, phase {int(self.sn.g[idx[0], st.G_PHASE])})"
                )

    def reset(self, seeds):
        batch_fn(reset_batch, reset_batch_serial, self.B)(self.sn, seeds, self.opts, self.cfg, self.prof)
        _core.reset_batch(self.sc, seeds, self.opts, self.cfg, self.prof)
        self.same("reset_batch")

    def reset_some(self, seeds, which):
        reset_some(self.sn, seeds, which, self.opts, self.cfg, self.prof)
        _core.reset_some(self.sc, seeds, which, self.opts, self.cfg, self.prof)
        self.same("reset_some")

    def step(self, actions, active=None):
        if active is None:
            batch_fn(step_batch, step_batch_serial, self.B)(self.sn, actions, self.opts, self.cfg, self.prof)
            _core.step_batch(self.sc, actions, self.opts, self.cfg, self.prof)
        else:
            batch_fn(step_some_par, step_some_serial, self.B)(self.sn, actions, active, self.opts, self.cfg, self.prof)
            _core.step_some(self.sc, actions, active, self.opts, self.cfg, self.prof)
        self.same("step")


def choose(rng, S, greedy=0.7, take_win=0.85):
    """A seeded policy over the legal mask: uniform; WIN most of the time when legal (a coin flip to
    a flower win or a 拉 cut); on a turn, a discard of lowest shanten with probability ``greedy``."""
    m = S.mask
    B = m.shape[0]
    u = rng.random(m.shape)
    u[~m] = -1.0
    a = u.argmax(1).astype(np.int64)
    ph = S.g[:, st.G_PHASE]
    p_win = np.where((ph == st.PH_FLOWER) | (ph == st.PH_LA_CUT), 0.5, take_win)
    a[m[:, WIN] & (rng.random(B) < p_win)] = WIN
    sh = np.zeros(34, np.int64)
    for b in np.flatnonzero((ph == st.PH_TURN) & ~S.terminated & (a != WIN) & (rng.random(B) < greedy)):
        seat = S.g[b, st.G_CUR]
        discard_shanten(S.hands[b, seat], 5 - S.p[b, seat, st.P_NMELDS], sh)
        legal = m[b, :34]
        if not legal.any():
            continue
        best = sh[legal].min()
        ks = np.flatnonzero(legal & (sh == best))
        a[b] = ks[rng.integers(len(ks))]
    return a


def random_script(rng, B, K, flowers):
    n = 144 if flowers else 136
    w = np.full((B, K, 144), 255, np.uint8)
    for b in range(B):
        for k in range(K):
            w[b, k, :n] = rng.permutation(n)
    return w


def drive(pair, seed, steps, some=False):
    """Reset, then ``steps`` batch steps with auto-reset of finished games (reset_some, fresh seeds
    derived like Engine's), comparing everything after each call."""
    B = pair.B
    rng = np.random.default_rng(seed)
    seeds = game_seeds(seed, B)
    pair.reset(seeds)
    for t in range(steps):
        a = choose(rng, pair.sn)
        h0 = pair.sn.g[:, st.G_HANDS].copy()
        live = ~pair.sn.terminated
        if some and t % 3 == 1:
            active = rng.random(B) < 0.6
            pair.step(a, active)
            live &= active
        else:
            pair.step(a)
        TOTALS["steps"] += 1
        TOTALS["decisions"] += int(live.sum())
        TOTALS["hands"] += int(np.clip(pair.sn.g[:, st.G_HANDS] - h0, 0, None).sum())
        term = pair.sn.terminated.copy()
        if term.any():
            for b in np.flatnonzero(term):
                seeds[b] = np.uint64(mix64(int(seeds[b]) ^ 0x5EED))
            pair.reset_some(seeds, term)


def _steps(n):
    return max(1, n * SCALE)


# -- decision by decision ----------------------------------------------------------------------
@pytest.mark.parametrize("cid,profile,opts", CONFIGS, ids=CONFIG_IDS)
def test_batch_1_every_decision(cid, profile, opts):
    """One game, two episodes' worth of decisions or more, serial on both sides."""
    with Threads(1):
        drive(Pair(_rules(profile, opts), 1), seed=100 + len(cid), steps=_steps(400))


@pytest.mark.parametrize("cid,profile,opts", CONFIGS, ids=CONFIG_IDS)
def test_batch_64_step_some(cid, profile, opts):
    """64 games (Numba's parallel loops; the core's serial path) with step_some on random subsets."""
    with Threads(2):
        drive(Pair(_rules(profile, opts), 64), seed=7 + len(cid), steps=_steps(200), some=True)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("cid", ["standard", "hongkong-game-offer-dice", "extras", "strict16", "hongkong-game-ask"])
def test_big_batch_threads(cid, threads):
    """A batch above the core's thread threshold (PARALLEL_MIN_BATCH 256), at 1 and 2 threads."""
    _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
    with Threads(threads):
        drive(Pair(_rules(profile, opts), 300), seed=31 * threads, steps=_steps(60), some=True)


def test_big_batch_both_parallel():
    """Both engines' parallel loops at 2 threads."""
    _, profile, opts = CONFIGS[CONFIG_IDS.index("hongkong-game-offer-dice")]
    with Threads(2, 2):
        drive(Pair(_rules(profile, opts), 300), seed=3, steps=_steps(12), some=True)


@pytest.mark.parametrize("cid", ["standard", "hongkong", "hongkong-game-ask", "casual-noflowers"])
def test_scripted_walls(cid):
    """Scripted walls (read-only on the native side) for the first hands, then shuffled ones."""
    _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
    rules = _rules(profile, opts)
    rng = np.random.default_rng(5)
    for B in (1, 70):
        script = random_script(rng, B, 3, rules.flowers)
        with Threads(2):
            drive(Pair(rules, B, script=script), seed=9 + B, steps=_steps(120 if B == 1 else 50))


# -- random play -------------------------------------------------------------------------------
RP_CASES = [
    ("standard", POLICY_UNIFORM, 1, 64),
    ("standard-all-on", POLICY_GREEDY, 1, 64),
    ("standard-game", POLICY_GREEDY, 1, 4),
    ("strict16", POLICY_GREEDY, 2, 64),
    ("casual-noflowers", POLICY_UNIFORM, 2, 40),
    ("extras-strict16", POLICY_GREEDY, 1, 64),
    ("hongkong", POLICY_GREEDY, 2, 64),
    ("hongkong-shortwall", POLICY_UNIFORM, 1, 64),
    ("hongkong-game-ask", POLICY_GREEDY, 1, 4),
    ("hongkong-game-offer-dice", POLICY_GREEDY, 1, 4),
    ("hongkong-game-settle", POLICY_GREEDY, 1, 3),
]


@pytest.mark.parametrize("cid,policy,episodes,B", RP_CASES, ids=[f"{c[0]}-{c[1]}-{c[3]}" for c in RP_CASES])
def test_random_play_tables(cid, policy, episodes, B):
    """random_play: the same (B, N_OUT) table (episodes, hands, decisions, wins, errors, action hash)
    and the same final state, at 1 and 2 threads; no invariant error."""
    _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
    rules = _rules(profile, opts)
    B = B * SCALE
    for threads, seed in ((1, 3), (2, 4)):
        with Threads(threads, threads if B >= 256 else 1):
            eng = Engine(rules, B)
            out_n = random_play(eng, seed=seed, episodes=episodes, check=True, policy=policy)
            sc = st.alloc(B)
            out_c = _core.random_play(sc, game_seeds(seed, B), game_seeds(seed ^ 0xA6E27, B), episodes, True, policy,
                                      eng.opts, eng.cfg, eng.prof)
        np.testing.assert_array_equal(out_c, out_n)
        assert (out_c[:, 4] == 0).all()
        for name, a, b in zip(FIELDS, eng.s, sc):
            np.testing.assert_array_equal(b, a, err_msg=f"random_play final state.{name}")
        TOTALS["random_play_hands"] += int(out_c[:, 1].sum())
        TOTALS["random_play_decisions"] += int(out_c[:, 2].sum())


def test_random_play_big_batch_and_thread_count():
    """A batch over the thread threshold: the same table at 1 and 2 native threads and as Numba's."""
    rules = _rules("hongkong", {"la_cut_policy": "ask"})
    B = 300 * SCALE
    seeds, agent = game_seeds(12, B), game_seeds(12 ^ 0xA6E27, B)
    outs = []
    for threads in (1, 2):
        with Threads(threads):
            eng = Engine(rules, B)
            outs.append(_core.random_play(st.alloc(B), seeds, agent, 1, False, POLICY_GREEDY, eng.opts, eng.cfg,
                                          eng.prof))
    with Threads(2):
        out_n = random_play(Engine(rules, B), seed=12, episodes=1, check=False, policy=POLICY_GREEDY)
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0], out_n)
    TOTALS["random_play_hands"] += int(out_n[:, 1].sum())


def test_random_play_keeps_agent_seeds():
    eng = Engine(Rules(), 3)
    agent = game_seeds(1, 3)
    before = agent.copy()
    _core.random_play(st.alloc(3), game_seeds(0, 3), agent, 1, False, POLICY_UNIFORM, eng.opts, eng.cfg, eng.prof)
    np.testing.assert_array_equal(agent, before)


# -- the invariant checker -----------------------------------------------------------------------
def _corruptions(rng, S, b):
    """Small in-bounds corruptions of game b (each one a function of a copy of the state)."""
    g = S.g[b]

    def put(arr, idx, v):
        return lambda T: T.__getattribute__(arr).__setitem__(idx, v)

    seat = int(rng.integers(4))
    k = int(rng.integers(34))
    out = [
        put("hands", (b, seat, k), min(4, S.hands[b, seat, k] + 1)),
        put("hands", (b, seat, k), max(0, S.hands[b, seat, k] - 1)),
        put("hands", (b, seat, k), -1),
        put("hands", (b, seat, k), 5),
        put("scores", (b, seat), S.scores[b, seat] + 1),
        put("rewards", (b, seat), S.rewards[b, seat] + 0.5),
        put("g", (b, st.G_SCORE_ERR), 1),
        put("g", (b, st.G_CUR), int(rng.integers(-1, 5))),
        put("g", (b, st.G_PHASE), int(rng.integers(0, 8))),
        put("g", (b, st.G_HEAD), max(0, g[st.G_HEAD] + int(rng.integers(-2, 3)))),
        put("g", (b, st.G_TAIL), min(g[st.G_WALL_N] - 1, g[st.G_TAIL] + int(rng.integers(-2, 3)))),
        put("g", (b, st.G_NKONG), g[st.G_NKONG] + 30),
        put("g", (b, st.G_TURN), int(rng.integers(4))),
        put("g", (b, st.G_LA_ASK), int(rng.integers(0, 1 << 16))),
        put("g", (b, st.G_OFFER), int(rng.integers(-1, 4))),
        put("g", (b, st.G_OFFER_DRAWN), int(rng.integers(2))),
        put("p", (b, seat, st.P_NMELDS), int(rng.integers(0, 6))),
        put("p", (b, seat, st.P_FLOWERS), int(rng.integers(0, 256))),
        put("mask", (b, slice(None)), False),
        put("mask", (b, int(rng.integers(N_ACTIONS))), True),
        put("terminated", (b,), not S.terminated[b]),
        put("river", (b, max(0, g[st.G_NRIVER] - 1), 2), int(rng.integers(-1, 4))),
        put("river", (b, max(0, g[st.G_NRIVER] - 1), 0), k),
        put("melds", (b, seat, 0, 1), int(rng.integers(0, 32))),
        put("melds", (b, seat, 0, 0), int(rng.integers(0, 5))),
        put("wall", (b, min(143, max(0, g[st.G_HEAD]))), int(rng.integers(0, 144))),
    ]
    return out


@pytest.mark.parametrize("cid", ["standard", "hongkong-game-offer-dice", "strict16", "casual-noflowers"])
def test_check_game_valid_and_corrupted(cid):
    """check_game returns Numba's code on every state of a run and on small corruptions of them
    (states whose pointers the binding refuses are skipped: Numba would read out of bounds)."""
    _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
    pair = Pair(_rules(profile, opts), 8)
    rng = np.random.default_rng(77)
    pair.reset(game_seeds(3, 8))
    codes = set()
    for t in range(_steps(120)):
        for b in range(8):
            assert _core.check_game(pair.sc, b, pair.opts) == nb_check_game(pair.sn, b, pair.opts) == 0
            for fn in _corruptions(rng, pair.sn, b):
                T = st.State(*(a.copy() for a in pair.sn))
                fn(T)
                try:
                    got = _core.check_game(T, b, pair.opts)
                except ValueError:
                    continue
                want = nb_check_game(T, b, pair.opts)
                assert got == want, (cid, t, b)
                codes.add(int(want))
                TOTALS["check_states"] += 1
        pair.step(choose(rng, pair.sn))
        term = pair.sn.terminated.copy()
        if term.any():
            pair.reset_some(game_seeds(1000 + t, 8), term)
    assert len(codes) >= 6, codes


# -- bad input -----------------------------------------------------------------------------------
@pytest.fixture
def live():
    eng = Engine(Rules.make("hongkong", episode="game"), 4)
    S = st.alloc(4)
    _core.reset_batch(S, game_seeds(0, 4), eng.opts, eng.cfg, eng.prof)
    return eng, S


def _legal(S):
    return S.mask.argmax(1).astype(np.int64)


def test_bad_arrays(live):
    eng, S = live
    args = (eng.opts, eng.cfg, eng.prof)
    with pytest.raises(ValueError, match="17 arrays"):
        _core.step_batch(tuple(S)[:16], _legal(S), *args)
    with pytest.raises(ValueError, match="state"):
        _core.step_batch(S.g, _legal(S), *args)
    with pytest.raises(TypeError, match="state.hands: expected dtype int8"):
        _core.step_batch(S._replace(hands=S.hands.astype(np.int16)), _legal(S), *args)
    with pytest.raises(ValueError, match="state.melds"):
        _core.step_batch(S._replace(melds=S.melds[:, :, :4]), _legal(S), *args)
    with pytest.raises(ValueError, match="state.g"):
        _core.step_batch(S._replace(g=S.g[:3]), _legal(S), *args)  # batch sizes disagree
    with pytest.raises(ValueError, match="state.rewards"):
        _core.step_batch(S._replace(rewards=S.rewards[:, :3]), _legal(S), *args)
    ro = S.p.view()
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="state.p: the array is read-only"):
        _core.step_batch(S._replace(p=ro), _legal(S), *args)
    with pytest.raises(ValueError, match="state.wall: expected a numpy array"):
        _core.step_batch(S._replace(wall=S.wall.tolist()), _legal(S), *args)
    with pytest.raises(ValueError, match="actions"):
        _core.step_batch(S, _legal(S)[:3], *args)
    with pytest.raises(TypeError, match="actions"):
        _core.step_batch(S, _legal(S).astype(np.int32), *args)
    with pytest.raises(ValueError, match="seeds"):
        _core.reset_batch(S, game_seeds(0, 5), *args)
    with pytest.raises(ValueError, match="which"):
        _core.reset_some(S, game_seeds(0, 4), np.ones(3, bool), *args)
    with pytest.raises(ValueError, match="active"):
        _core.step_some(S, _legal(S), np.ones(5, bool), *args)
    with pytest.raises(ValueError, match="opts"):
        _core.step_batch(S, _legal(S), eng.opts[:5], eng.cfg, eng.prof)
    with pytest.raises(ValueError, match="cfg"):
        _core.step_batch(S, _legal(S), eng.opts, np.zeros(3, np.int64), eng.prof)
    with pytest.raises(ValueError, match="prof"):
        _core.step_batch(S, _legal(S), eng.opts, eng.cfg, eng.prof[:2])
    bad_tai = eng.prof[0].copy()
    bad_tai[3, 0] = 999
    with pytest.raises(ValueError, match="row 3"):
        _core.step_batch(S, _legal(S), eng.opts, eng.cfg, (bad_tai, eng.prof[1], eng.prof[2]))
    o = eng.opts.copy()
    o[1] = -1  # OPT_DEAD_WALL
    with pytest.raises(ValueError, match="OPT_DEAD_WALL"):
        _core.step_batch(S, _legal(S), o, eng.cfg, eng.prof)
    with pytest.raises(ValueError, match="episodes"):
        _core.random_play(S, game_seeds(0, 4), game_seeds(1, 4), -1, False, 0, *args)
    with pytest.raises(ValueError, match="policy"):
        _core.random_play(S, game_seeds(0, 4), game_seeds(1, 4), 1, False, 7, *args)
    with pytest.raises(ValueError, match="b: game 4"):
        _core.check_game(S, 4, eng.opts)


def test_bad_actions_change_nothing(live):
    eng, S = live
    args = (eng.opts, eng.cfg, eng.prof)
    before = [a.copy() for a in S]
    a = _legal(S)
    a[2] = N_ACTIONS
    with pytest.raises(ValueError, match=r"actions\[2\] = 76, expected 0..75"):
        _core.step_batch(S, a, *args)
    a[2] = -1
    with pytest.raises(ValueError, match=r"actions\[2\]"):
        _core.step_batch(S, a, *args)
    a = _legal(S)
    illegal = int(np.flatnonzero(~S.mask[1])[0])
    a[1] = illegal
    with pytest.raises(ValueError, match=rf"actions\[1\] = {illegal} is illegal in game 1"):
        _core.step_batch(S, a, *args)
    # an illegal action of an inactive game is not looked at
    _core.step_some(S, a, np.array([True, False, True, True]), *args)
    for x, y in zip(before, S):
        assert x.shape == y.shape
    assert not np.array_equal(before[st.State._fields.index("g")], S.g)  # the other games moved
    np.testing.assert_array_equal(before[4][1], S.g[1])  # game 1 did not


def test_bad_state_content(live):
    """A state whose values would take the engine out of bounds is refused: that game is left as it
    was (the others of the batch are stepped) and the call raises ValueError naming it."""
    eng, S = live
    args = (eng.opts, eng.cfg, eng.prof)
    turn = int(np.flatnonzero(S.g[:, st.G_PHASE] == st.PH_TURN)[0])
    other = (int(S.g[turn, st.G_CUR]) + 1) % 4
    cases = [
        ("hands", (turn, 0, 0), 9, "hands"),
        ("hands", (turn, 1, 3), -1, "hands"),
        ("g", (turn, st.G_CUR), 7, "G_CUR"),
        ("g", (turn, st.G_NRIVER), 500, "G_NRIVER"),
        ("g", (turn, st.G_HEAD), -3, "G_HEAD"),
        ("g", (turn, st.G_TAIL), 144, "G_TAIL"),
        ("g", (turn, st.G_LA_ASK), 1 << 20, "G_LA_ASK"),
        ("g", (turn, st.G_PHASE), 5, "G_PHASE"),
        ("g", (turn, st.G_LAST_DRAWN), 40, "G_LAST_DRAWN"),
        ("p", (turn, 1, st.P_NMELDS), 9, "P_NMELDS"),
        ("p", (turn, 2, st.P_FLOWERS), 256, "flower bits"),
        ("melds", (turn, 0, 0, 1), 40, "melds"),
        ("wall", (turn, int(S.g[turn, st.G_HEAD])), 200, "wall"),
        ("p", (turn, other, st.P_CLAIM), st.C_PON, "no claim is open"),
        ("p", (turn, other, st.P_ANSWER), 37, "no claim is open"),
    ]
    for field, idx, v, msg in cases:
        T = st.State(*(a.copy() for a in S))
        getattr(T, field)[idx] = v
        if field == "p" and idx[2] == st.P_NMELDS:
            T.melds[turn, 1] = 0  # (valid chows of 1m, so only the count is wrong)
        if field == "melds":
            T.p[turn, 0, st.P_NMELDS] = 1  # (a meld that counts)
        snap = [a.copy() for a in T]
        with pytest.raises(ValueError, match=msg):
            _core.step_batch(T, _legal(S), *args)
        for name, x, y in zip(FIELDS, snap, T):  # the refused game was not touched
            np.testing.assert_array_equal(x[turn], y[turn], err_msg=name)
    # a forged mask lets an action through only if the step can take it from that phase
    empty = int(np.flatnonzero(S.hands[turn, int(S.g[turn, st.G_CUR])] == 0)[0])  # a kind the seat does not hold
    for bad_action in (PASS, 35, empty):  # (35: chi low)
        T = st.State(*(a.copy() for a in S))
        T.mask[turn] = True
        a = _legal(S)
        a[turn] = bad_action
        with pytest.raises(ValueError, match="cannot be taken on a turn"):
            _core.step_batch(T, a, *args)
    bad = np.zeros((4, 1, 144), np.uint8)  # not a permutation
    with pytest.raises(ValueError, match="state.script"):
        _core.reset_batch(S._replace(script=bad), game_seeds(0, 4), *args)


def test_terminated_games_step_as_noop(live):
    eng, S = live
    S.terminated[0] = True
    S.mask[0] = True
    S.rewards[0] = 1.0
    g0 = S.g[0].copy()
    _core.step_batch(S, _legal(S), eng.opts, eng.cfg, eng.prof)
    np.testing.assert_array_equal(S.g[0], g0)
    assert (S.rewards[0] == 0).all()


def test_totals_report(capsys):
    """Counts of this run (printed with -s)."""
    with capsys.disabled():
        print("\n[native engine differential]", TOTALS)
    assert TOTALS["differences"] == 0


def test_fuzzed_states_never_crash():
    """Random corruptions of live states (any value, any field): step_batch / step_some either refuse
    them (ValueError) or step them; check_game either refuses or answers. Nothing crashes (the
    sanitizer build runs this too)."""
    rng = np.random.default_rng(2024)
    for cid in ("hongkong-game-offer-dice", "standard-all-on", "strict16"):
        _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
        eng = Engine(_rules(profile, opts), 6)
        S = st.alloc(6)
        _core.reset_batch(S, game_seeds(5, 6), eng.opts, eng.cfg, eng.prof)
        refused = stepped = 0
        for t in range(60 * SCALE):
            T = st.State(*(a.copy() for a in S))
            for _ in range(int(rng.integers(1, 3))):
                name = FIELDS[int(rng.integers(len(FIELDS)))]
                if name == "script":
                    continue
                arr = getattr(T, name)
                idx = tuple(int(rng.integers(n)) for n in arr.shape)
                if arr.dtype == np.bool_:
                    arr[idx] = not arr[idx]
                elif arr.dtype.kind == "f":
                    arr[idx] = [np.nan, np.inf, -1.0, 3e38, float(rng.normal())][int(rng.integers(5))]
                else:
                    info = np.iinfo(arr.dtype)
                    vals = [int(info.min), int(info.max), -1, 0, 1, 5, 35, 143, 144, int(arr[idx]) + 1]
                    bits = 8 * arr.dtype.itemsize  # (stored wrapped, like a C store)
                    u = vals[int(rng.integers(len(vals)))] % (1 << bits)
                    arr[idx] = np.array([u], dtype=f"uint{bits}").view(arr.dtype)[0]
            b = int(rng.integers(6))
            try:
                _core.check_game(T, b, eng.opts)
            except ValueError:
                pass
            try:
                _core.step_batch(T, T.mask.argmax(1).astype(np.int64), eng.opts, eng.cfg, eng.prof)
                stepped += 1
            except ValueError:
                refused += 1
            a = choose(rng, S)
            _core.step_batch(S, a, eng.opts, eng.cfg, eng.prof)
            if S.terminated.any():
                _core.reset_some(S, game_seeds(100 + t, 6), S.terminated.copy(), eng.opts, eng.cfg, eng.prof)
        assert refused > 0 and stepped > 0


def test_tiles_that_do_not_add_up_never_crash():
    """A live wall of random tile ids (fifth copies of a kind) passes the bounds check and is played
    on: hands reach counts of 5 (such a game is refused at its next step), hands and melds together
    hold more than four of a kind (a win on one counts as a scorer refusal, G_SCORE_ERR), and nothing
    crashes (the sanitizer build runs this too)."""
    rng = np.random.default_rng(99)
    refused = 0
    for cid in ("hongkong-game-offer-dice", "standard-all-on", "casual"):
        _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
        B = 32
        eng = Engine(_rules(profile, opts), B)
        S = st.alloc(B)
        _core.reset_batch(S, game_seeds(8, B), eng.opts, eng.cfg, eng.prof)
        n = 144 if eng.opts[0] else 136
        for b in range(B):
            head, tail = S.g[b, st.G_HEAD], S.g[b, st.G_TAIL]
            S.wall[b, head:tail + 1] = rng.integers(0, n, tail + 1 - head) // 8 * 8  # kinds 0, 2, 4, ...
        alive = np.ones(B, bool)
        for t in range(300 * SCALE):
            a = choose(rng, S, greedy=0.0, take_win=1.0)
            try:
                _core.step_some(S, a, alive, eng.opts, eng.cfg, eng.prof)
            except ValueError as e:
                msg = str(e)
                assert msg.startswith("state: game ") or "illegal" in msg, msg
                alive[int(msg.split()[2].rstrip(":"))] = False
                refused += 1
            alive &= ~S.terminated
            if not alive.any():
                break
    assert refused > 0
    # A win on a hand that, with its melds, holds six of a kind: counted as a scorer refusal.
    eng = Engine(_rules("hongkong", {}), 1)
    S = st.alloc(1)
    _core.reset_batch(S, game_seeds(1, 1), eng.opts, eng.cfg, eng.prof)
    while S.g[0, st.G_PHASE] != st.PH_TURN:
        _core.step_batch(S, np.array([PASS if S.mask[0, PASS] else int(S.mask[0].argmax())]), eng.opts, eng.cfg,
                         eng.prof)
    seat = int(S.g[0, st.G_CUR])
    S.hands[0, seat] = 0
    S.hands[0, seat, :5] = [3, 3, 3, 3, 2]  # 111 222 333 444 55m
    S.melds[0, seat, 0] = (1, 0, (seat + 2) % 4)  # and a pon of 1m
    S.p[0, seat, st.P_NMELDS] = 1
    S.mask[0, WIN] = True
    _core.step_batch(S, np.array([WIN]), eng.opts, eng.cfg, eng.prof)
    assert S.g[0, st.G_SCORE_ERR] == 1 and S.res_tai[0, seat] == 0
