"""The native batch engine (envs._core: reset_batch, reset_some, step_batch, step_some, random_play,
check_game) against recorded expectations, across thread counts and batch sizes, and at its boundary.

tests/data/engine_digests.json holds what the engine does along these runs (recorded at commit
78b00f1 and unchanged since: docs/versions.md, History); the engine must reproduce every digest:

- "drive": a seeded policy over the legal mask (uniform, taking most wins so scoring runs, and
  discarding towards the lowest shanten most of the time so that many hands are won) plays a batch
  with auto-reset of finished games through reset_some; a rolling SHA-256 over the recorded state
  arrays (the mask, rewards, terminated flags, res_tai / res_items / res_delta and the scripted walls
  included: st.RECORDED_FIELDS; the finished-hand records rec / rec_items came later and are checked
  by tests/test_engine_record.py) is fed after the reset and after every step and redeal, and read every CHECKPOINT steps.
  Every configuration of CONFIGS (every profile: standard, strict16, casual, hongkong, the extras
  pack; every rule option that changes the engine, on and off; hand and game episodes) at batch 1
  (400 steps) and batch 64 (200 steps, step_some on random subsets every third step); five of them at
  batch 300 (above the core's PARALLEL_MIN_BATCH, 60 steps), checked at 1 and 2 threads; scripted
  walls for the first hands (read-only on the native side; batch 1 and 70) and one scripted wall
  broadcast to every game (a zero-stride view).
- "random_play": the (B, N_OUT) table (episodes, hands, decisions, wins, errors, action hash) and the
  final state of random_play, uniform and greedy, with the invariant checker on, at 1 and 2 threads.
- "check_game": the invariant checker's code on every state of a run and on small corruptions of
  them (-1 where the binding refuses a state that would be read out of bounds).

Also: random_play's games give the same results alone at batch 1 as in a batch of 300 at 1 and 2
threads, check_game answers 0 on every valid state, random_play keeps the agent seeds, fuzzed states
are refused or stepped (never a crash), and the bindings refuse bad arrays, bad actions and bad state
content before changing anything. On a mismatch the test names the run and the checkpoint after which
the states first differ; if a change of the engine is meant, check it and re-record from the native
engine with TW16_RECORD=1 (the runs selected are rewritten in the file). TW16_DIFF_N=k multiplies the
size of the fuzz test (the recorded runs have a fixed size).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from recorded import recorded_items

from envs import _core
from envs._core import _testing
from envs.engine import state as st
from envs.engine.actions import N_ACTIONS, PASS, WIN, action_name
from envs.engine.api import Engine
from envs.engine.randplay import POLICY_GREEDY, POLICY_UNIFORM
from envs.engine.rng import game_seeds, mix64
from envs.rules import OPT_PER_TAI, Rules

DIGESTS = Path(__file__).parent / "data" / "engine_digests.json"
RECORD = os.environ.get("TW16_RECORD") == "1"
SCALE = max(1, int(os.environ.get("TW16_DIFF_N", "1")))
FIELDS = st.State._fields
CHECKPOINT = 50  # steps between two readings of a run's rolling digest
BIG = 300  # a batch above the core's thread threshold (PARALLEL_MIN_BATCH)
TOTALS = {"hands": 0, "decisions": 0, "steps": 0, "random_play_hands": 0, "random_play_decisions": 0, "check_states": 0}

HK_OFF = {
    "multi_win": False,
    "strict_pass": False,
    "swap_call": True,
    "declare_ready": False,
    "flower_win": "auto",
    "dice_payments": False,
    "settlement": "immediate",
    "la_cut": "none",
}
STD_ALL = {
    "multi_win": True,
    "strict_pass": True,
    "no_calls_last3": False,
    "no_kong_after_claim": False,
    "kong_replacement_self_draw": False,
    "swap_call": False,
    "dead_wall_per_kong": True,
    "streak_cap": 1,
}

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
    (
        "hongkong-game-settle",
        "hongkong",
        {"episode": "game", "la_draw": "settle", "la_cut": "none", "dual_reading": False},
    ),
    ("hongkong-game-off", "hongkong", {"episode": "game", **HK_OFF}),
    (
        "hongkong-game-offer-dice",
        "hongkong",
        {"episode": "game", "flower_win": "offer", "dice_payments": True, "la_cut_policy": "ask", "dead_wall": 40},
    ),
]
CONFIG_IDS = [c[0] for c in CONFIGS]


def _rules(cid):
    _, profile, opts = CONFIGS[CONFIG_IDS.index(cid)]
    return Rules.make(profile, **opts)


def _args(rules):
    eng = Engine(rules, 1)
    return (eng.native,)


def _check_code(S, b, opts):
    """check_game's code for game b; -1 where the binding refuses the state (pointers out of range)."""
    try:
        return int(_testing.check_game(S, b, opts))
    except ValueError:
        return -1


# The engine under test, behind one namespace so that every run below calls the same entry points.
ENGINE = SimpleNamespace(
    reset_batch=_core.reset_batch,
    reset_some=_core.reset_some,
    step_batch=_core.step_batch,
    step_some=_core.step_some,
    random_play=_core.random_play,
    check_code=_check_code,
    script=lambda w: w,
)  # the scripted walls as given (read-only, broadcast)


class Threads:
    """The core's thread count for a block (restored after)."""

    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.old = _core.num_threads()
        _core.set_num_threads(self.n)

    def __exit__(self, *exc):
        _core.set_num_threads(self.old)


# -- digests --------------------------------------------------------------------------------------
def _recorded_arrays(S):
    # res_items: the columns of the recording (items appended later stay 0 in the recorded runs)
    return [recorded_items(S.res_items) if name == "res_items" else getattr(S, name) for name in st.RECORDED_FIELDS]


def _feed(h, arrays):
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())


def _sha(*arrays) -> str:
    h = hashlib.sha256()
    _feed(h, arrays)
    return h.hexdigest()


NEW: dict = {}  # this run's results, per section (written to DIGESTS in record mode)


@functools.cache
def _recorded() -> dict:
    return json.loads(DIGESTS.read_text(encoding="utf-8")) if DIGESTS.exists() else {}


def expect(section, key, got):
    """``got`` must equal the recorded value (in record mode it is kept for the file instead)."""
    NEW.setdefault(section, {})[key] = got
    if RECORD:
        return
    want = _recorded().get(section, {}).get(key)
    assert want is not None, f"{section} {key!r}: nothing recorded in {DIGESTS.name} (TW16_RECORD=1 records it)"
    if section == "drive" and got != want:
        i = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
        pytest.fail(
            f"drive {key!r}: the states first differ from the recorded ones between step {i * CHECKPOINT} "
            f"(0: the reset) and step {min((i + 1) * CHECKPOINT, RUNS[key][3])} (digest {i} of {len(want)})"
        )
    assert got == want, f"{section} {key!r}: differs from the recording"


# -- the seeded policy and the drive ------------------------------------------------------------------
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
        _core.discard_shanten(S.hands[b, seat], 5 - S.p[b, seat, st.P_NMELDS], sh)
        legal = m[b, :34]
        if not legal.any():
            continue
        best = sh[legal].min()
        ks = np.flatnonzero(legal & (sh == best))
        a[b] = ks[rng.integers(len(ks))]
    return a


def random_script(rng, B, K, flowers):
    """B x K shuffled walls (without flowers: 136 tiles, then 255)."""
    n = 144 if flowers else 136
    w = np.full((B, K, 144), 255, np.uint8)
    for b in range(B):
        for k in range(K):
            w[b, k, :n] = rng.permutation(n)
    return w


def walls_of(kind, cid, B, flowers):
    """The scripted walls of a run: 'read-only' (B, 3, 144), each game its own; 'broadcast': one set of
    2 walls for every game, a zero-stride read-only view (B, 2, 144)."""
    rng = np.random.default_rng([5, B, len(cid)])
    if kind == "read-only":
        w = random_script(rng, B, 3, flowers)
        w.setflags(write=False)
        return w
    assert kind == "broadcast"
    return np.broadcast_to(random_script(rng, 1, 2, flowers), (B, 2, 144))


def drive(rules, B, seed, steps, some=False, walls=None):
    """Reset, then ``steps`` batch steps (step_some on a random 60% every third step when ``some``)
    with auto-reset of finished games (reset_some, fresh seeds derived like Engine's). Returns the
    rolling digest of the states, read every CHECKPOINT steps and after the last, and the state."""
    args = _args(rules)
    S = st.alloc(B)
    if walls is not None:
        S = S._replace(script=ENGINE.script(walls))
    rng = np.random.default_rng(seed)
    seeds = game_seeds(seed, B)
    h = hashlib.sha256()
    ENGINE.reset_batch(S, seeds, *args)
    _feed(h, _recorded_arrays(S))
    marks = []
    for t in range(steps):
        a = choose(rng, S)
        h0 = S.g[:, st.G_HANDS].copy()
        live = ~S.terminated
        if some and t % 3 == 1:
            active = rng.random(B) < 0.6
            ENGINE.step_some(S, a, active, *args)
            live &= active
        else:
            ENGINE.step_batch(S, a, *args)
        _feed(h, _recorded_arrays(S))
        TOTALS["steps"] += 1
        TOTALS["decisions"] += int(live.sum())
        TOTALS["hands"] += int(np.clip(S.g[:, st.G_HANDS] - h0, 0, None).sum())
        term = S.terminated.copy()
        if term.any():
            for b in np.flatnonzero(term):
                seeds[b] = np.uint64(mix64(int(seeds[b]) ^ 0x5EED))
            ENGINE.reset_some(S, seeds, term, *args)
            _feed(h, _recorded_arrays(S))
        if (t + 1) % CHECKPOINT == 0 or t + 1 == steps:
            marks.append(h.copy().hexdigest())
    return marks, S


BIG_CIDS = ["standard", "hongkong-game-offer-dice", "extras", "strict16", "hongkong-game-ask"]
SCRIPT_CIDS = ["standard", "hongkong", "hongkong-game-ask", "casual-noflowers"]
BROADCAST_CIDS = ["standard-noflowers", "hongkong-game-settle"]


def _runs():
    """Every recorded drive: name -> (config id, batch, seed, steps, step_some, scripted walls)."""
    runs = {}
    for cid in CONFIG_IDS:
        runs[f"b1 {cid}"] = (cid, 1, 100 + len(cid), 400, False, None)
    for cid in CONFIG_IDS:
        runs[f"b64 {cid}"] = (cid, 64, 7 + len(cid), 200, True, None)
    for cid in BIG_CIDS:
        runs[f"b{BIG} {cid}"] = (cid, BIG, 31, 60, True, None)
    for cid in SCRIPT_CIDS:
        for B in (1, 70):
            runs[f"read-only walls b{B} {cid}"] = (cid, B, 9 + B, 120 if B == 1 else 50, False, "read-only")
    for cid in BROADCAST_CIDS:
        runs[f"broadcast walls b40 {cid}"] = (cid, 40, 21, 100, True, "broadcast")
    return runs


RUNS = _runs()


def run_drive(name):
    cid, B, seed, steps, some, kind = RUNS[name]
    rules = _rules(cid)
    walls = None if kind is None else walls_of(kind, cid, B, rules.flowers)
    return drive(rules, B, seed, steps, some, walls)


# -- recorded drives ----------------------------------------------------------------------------------
@pytest.mark.parametrize("cid", CONFIG_IDS)
def test_batch_1_matches_the_recording(cid):
    """One game, two episodes' worth of decisions or more, on the calling thread."""
    with Threads(1):
        expect("drive", f"b1 {cid}", run_drive(f"b1 {cid}")[0])


@pytest.mark.parametrize("cid", CONFIG_IDS)
def test_batch_64_step_some_matches_the_recording(cid):
    """64 games (below the thread threshold: serial whatever the thread count) with step_some."""
    with Threads(2):
        expect("drive", f"b64 {cid}", run_drive(f"b64 {cid}")[0])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("cid", BIG_CIDS)
def test_big_batch_matches_the_recording_at_1_and_2_threads(cid, threads):
    """A batch above the core's thread threshold: the same states, step by step, at 1 and 2 threads."""
    assert BIG >= _core.PARALLEL_MIN_BATCH
    with Threads(threads):
        expect("drive", f"b{BIG} {cid}", run_drive(f"b{BIG} {cid}")[0])


@pytest.mark.parametrize("cid", SCRIPT_CIDS)
def test_read_only_scripted_walls_match_the_recording(cid):
    """Scripted walls, read-only (the core only reads them), for the first hands, then shuffled ones."""
    for B in (1, 70):
        with Threads(2):
            marks, S = run_drive(f"read-only walls b{B} {cid}")
        assert not S.script.flags.writeable
        expect("drive", f"read-only walls b{B} {cid}", marks)


@pytest.mark.parametrize("cid", BROADCAST_CIDS)
def test_broadcast_walls_match_the_recording(cid):
    """One set of scripted walls broadcast to every game (zero stride), used as it is."""
    with Threads(2):
        marks, S = run_drive(f"broadcast walls b40 {cid}")
    assert S.script.strides[0] == 0
    expect("drive", f"broadcast walls b40 {cid}", marks)


def test_step_some_equals_step_batch_on_the_active_games():
    """step_some moves the active games exactly as step_batch does and leaves the others as they were."""
    rules = _rules("hongkong-game-offer-dice")
    args = _args(rules)
    rng = np.random.default_rng(8)
    for B in (40, BIG):
        S = st.alloc(B)
        _core.reset_batch(S, game_seeds(6, B), *args)
        with Threads(2):
            for t in range(40):
                a = choose(rng, S)
                active = rng.random(B) < 0.5
                T = st.State(*(x.copy() for x in S))
                before = st.State(*(x.copy() for x in S))
                _core.step_some(S, a, active, *args)
                _core.step_batch(T, a, *args)
                for name, x, y, z in zip(FIELDS, S, T, before):
                    np.testing.assert_array_equal(x[active], y[active], err_msg=f"active games' state.{name}")
                    np.testing.assert_array_equal(x[~active], z[~active], err_msg=f"inactive games' state.{name}")
                if S.terminated.any():
                    _core.reset_some(S, game_seeds(100 + t, B), S.terminated.copy(), *args)


# -- random play -------------------------------------------------------------------------------------
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
POLICY_NAMES = {POLICY_UNIFORM: "uniform", POLICY_GREEDY: "greedy"}
RP_IDS = [f"{c}-{POLICY_NAMES[p]}-b{B}-ep{e}" for c, p, e, B in RP_CASES]
RP_SEEDS = ((1, 3), (2, 4))  # (threads, seed)
BIG_RP = f"hongkong-ask-greedy-b{BIG}-ep1 seed=12"  # la_cut_policy="ask", no checker


def random_play(rules, B, seed, episodes, check, policy, games=None):
    """random_play on a fresh state: (the (B, N_OUT) table, the final state). Game b plays the streams
    of game ``games[b]`` (default b) of ``seed``, like envs.engine.randplay.random_play."""
    idx = np.arange(B) if games is None else np.asarray(games)
    n = int(idx.max()) + 1
    S = st.alloc(B)
    out = ENGINE.random_play(
        S, game_seeds(seed, n)[idx], game_seeds(seed ^ 0xA6E27, n)[idx], episodes, check, policy, *_args(rules)
    )
    return out, S


def rp_summary(out, S):
    return {
        "table": _sha(out),
        "state": _sha(*_recorded_arrays(S)),
        "hands": int(out[:, 1].sum()),
        "decisions": int(out[:, 2].sum()),
        "wins": int(out[:, 3].sum()),
        "errors": int((out[:, 4] != 0).sum()),
    }


def run_random_play(case_id, seed):
    cid, policy, episodes, B = RP_CASES[RP_IDS.index(case_id)]
    return rp_summary(*random_play(_rules(cid), B, seed, episodes, True, policy))


@pytest.mark.parametrize("case_id", RP_IDS)
def test_random_play_tables_match_the_recording(case_id):
    """random_play's (B, N_OUT) table (episodes, hands, decisions, wins, errors, action hash) and final
    state, at 1 and 2 threads; no invariant error."""
    for threads, seed in RP_SEEDS:
        with Threads(threads):
            got = run_random_play(case_id, seed)
        assert got["errors"] == 0
        expect("random_play", f"{case_id} seed={seed}", got)
        TOTALS["random_play_hands"] += got["hands"]
        TOTALS["random_play_decisions"] += got["decisions"]


def test_random_play_big_batch_threads_and_batch_1():
    """A batch over the thread threshold: the recorded table at 1 and 2 threads, and each game played
    alone at batch 1 gives its row of the table and its final state."""
    rules = Rules.make("hongkong", la_cut_policy="ask")
    outs = []
    for threads in (1, 2):
        with Threads(threads):
            out, S = random_play(rules, BIG, 12, 1, False, POLICY_GREEDY)
        expect("random_play", BIG_RP, rp_summary(out, S))
        outs.append(out)
    np.testing.assert_array_equal(outs[0], outs[1])
    for b in (0, 1, 137, 256, BIG - 1):
        one, S1 = random_play(rules, 1, 12, 1, False, POLICY_GREEDY, games=[b])
        np.testing.assert_array_equal(one[0], out[b], err_msg=f"game {b} alone")
        for name, x, y in zip(FIELDS, S1, S):
            if name != "script":
                np.testing.assert_array_equal(x[0], y[b], err_msg=f"game {b} alone: state.{name}")
    TOTALS["random_play_hands"] += int(out[:, 1].sum())


def test_random_play_keeps_agent_seeds():
    eng = Engine(Rules(), 3)
    agent = game_seeds(1, 3)
    before = agent.copy()
    _core.random_play(st.alloc(3), game_seeds(0, 3), agent, 1, False, POLICY_UNIFORM, eng.native)
    np.testing.assert_array_equal(agent, before)


# -- the invariant checker ----------------------------------------------------------------------------
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


CHECK_CIDS = ["standard", "hongkong-game-offer-dice", "strict16", "casual-noflowers"]


def run_check_game(cid):
    """check_game on every state of an 8-game run (each must be valid) and on 26 corruptions of each:
    the codes' digest and histogram (-1: refused by the binding)."""
    rules = _rules(cid)
    args = _args(rules)
    opts = args[0]
    S = st.alloc(8)
    rng = np.random.default_rng(77)
    ENGINE.reset_batch(S, game_seeds(3, 8), *args)
    codes = []
    for t in range(120):
        for b in range(8):
            assert ENGINE.check_code(S, b, opts) == 0, (cid, t, b)
            for fn in _corruptions(rng, S, b):
                T = st.State(*(a.copy() for a in S))
                fn(T)
                codes.append(ENGINE.check_code(T, b, opts))
        ENGINE.step_batch(S, choose(rng, S), *args)
        term = S.terminated.copy()
        if term.any():
            ENGINE.reset_some(S, game_seeds(1000 + t, 8), term, *args)
    codes = np.array(codes, np.int64)
    values, counts = np.unique(codes, return_counts=True)
    return {"codes": _sha(codes), "histogram": {str(int(v)): int(c) for v, c in zip(values, counts)}}


@pytest.mark.parametrize("cid", CHECK_CIDS)
def test_check_game_valid_and_corrupted(cid):
    """check_game answers 0 on every state of a run and the recorded code on small corruptions of them."""
    got = run_check_game(cid)
    TOTALS["check_states"] += sum(got["histogram"].values())
    assert len([c for c in got["histogram"] if c != "-1"]) >= 6, got["histogram"]  # many kinds of error
    expect("check_game", cid, got)


# -- bad input ------------------------------------------------------------------------------------------
@pytest.fixture
def live():
    eng = Engine(Rules.make("hongkong", episode="game"), 4)
    S = st.alloc(4)
    _core.reset_batch(S, game_seeds(0, 4), eng.native)
    return eng, S


def _legal(S):
    return S.mask.argmax(1).astype(np.int64)


def test_bad_arrays(live):
    eng, S = live
    args = (eng.native,)
    with pytest.raises(ValueError, match=f"{len(FIELDS)} arrays"):
        _core.step_batch(tuple(S)[:-1], _legal(S), *args)
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

    # the rules: checked once, when the native rules object is built from the arrays
    def native(o=eng.opts, c=eng.cfg, p=eng.prof):
        return _core.Rules(o, c, *p)

    with pytest.raises(ValueError, match="opts"):
        native(o=eng.opts[:5])
    with pytest.raises(ValueError, match="cfg"):
        native(c=np.zeros(len(eng.cfg) + 1, np.int64))
    with pytest.raises(ValueError, match="p_repl"):
        native(p=(eng.prof[0], eng.prof[1][:5], eng.prof[2]))
    bad_tai = eng.prof[0].copy()
    bad_tai[3, 0] = 999
    with pytest.raises(ValueError, match="row 3"):
        native(p=(bad_tai, eng.prof[1], eng.prof[2]))
    o = eng.opts.copy()
    o[1] = -1  # OPT_DEAD_WALL
    with pytest.raises(ValueError, match="OPT_DEAD_WALL"):
        native(o=o)
    o = eng.opts.copy()
    o[OPT_PER_TAI] = 0  # (a rules object holds it; the engine divides by it)
    with pytest.raises(ValueError, match="OPT_PER_TAI"):
        _core.step_batch(S, _legal(S), native(o=o))
    with pytest.raises(TypeError):  # the bare arrays are not the rules
        _core.step_batch(S, _legal(S), eng.opts, eng.cfg, eng.prof)
    with pytest.raises(TypeError):
        _core.step_batch(S, _legal(S), eng.opts)
    with pytest.raises(ValueError, match="episodes"):
        _core.random_play(S, game_seeds(0, 4), game_seeds(1, 4), -1, False, 0, *args)
    with pytest.raises(ValueError, match="policy"):
        _core.random_play(S, game_seeds(0, 4), game_seeds(1, 4), 1, False, 7, *args)
    with pytest.raises(ValueError, match="b: game 4"):
        _testing.check_game(S, 4, eng.native)


def test_bad_actions_change_nothing(live):
    eng, S = live
    args = (eng.native,)
    before = [a.copy() for a in S]
    a = _legal(S)
    a[2] = N_ACTIONS
    with pytest.raises(ValueError, match=r"^actions must be in 0..75, got 76 in game 2$"):
        _core.step_batch(S, a, *args)
    a[2] = -1
    a[3] = 99
    with pytest.raises(ValueError, match=r"^actions must be in 0..75, got -1 in game 2 \(bad in games 2..3\)$"):
        _core.step_batch(S, a, *args)
    a = _legal(S)
    illegal = int(np.flatnonzero(~S.mask[1])[0])
    a[1] = illegal
    legal = [action_name(x) for x in np.flatnonzero(S.mask[1])]
    want = f"illegal action {action_name(illegal)!r} in game 1 for seat {S.g[1, st.G_CUR]}; legal: {legal}"
    with pytest.raises(ValueError, match=f"^{re.escape(want)}$"):  # Engine.step's message: the one check
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
    args = (eng.native,)
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
    _core.step_batch(S, _legal(S), eng.native)
    np.testing.assert_array_equal(S.g[0], g0)
    assert (S.rewards[0] == 0).all()


def test_fuzzed_states_never_crash():
    """Random corruptions of live states (any value, any field): step_batch either refuses
    them (ValueError) or steps them; check_game either refuses or answers. Nothing crashes."""
    rng = np.random.default_rng(2024)
    for cid in ("hongkong-game-offer-dice", "standard-all-on", "strict16"):
        eng = Engine(_rules(cid), 6)
        S = st.alloc(6)
        _core.reset_batch(S, game_seeds(5, 6), eng.native)
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
                _testing.check_game(T, b, eng.native)
            except ValueError:
                pass
            try:
                _core.step_batch(T, T.mask.argmax(1).astype(np.int64), eng.native)
                stepped += 1
            except ValueError:
                refused += 1
            a = choose(rng, S)
            _core.step_batch(S, a, eng.native)
            if S.terminated.any():
                _core.reset_some(S, game_seeds(100 + t, 6), S.terminated.copy(), eng.native)
        assert refused > 0 and stepped > 0


def test_zz_totals_and_recording(capsys):
    """Counts of this run (printed with -s). Record mode (TW16_RECORD=1): the results of the runs of
    this session replace theirs in DIGESTS."""
    with capsys.disabled():
        print("\n[native engine]", TOTALS)
    if RECORD and NEW:
        _write(NEW)


def _write(new):
    data = json.loads(DIGESTS.read_text(encoding="utf-8")) if DIGESTS.exists() else {}
    for section, entries in new.items():
        data.setdefault(section, {}).update(entries)
    data = {s: dict(sorted(e.items())) for s, e in sorted(data.items())}
    DIGESTS.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_tiles_that_do_not_add_up_never_crash():
    """A live wall of random tile ids (fifth copies of a kind) passes the bounds check and is played
    on: hands reach counts of 5 (such a game is refused at its next step), hands and melds together
    hold more than four of a kind (a win on one counts as a scorer refusal, G_SCORE_ERR), and nothing
    crashes (the sanitizer build runs this too)."""
    rng = np.random.default_rng(99)
    refused = 0
    for cid in ("hongkong-game-offer-dice", "standard-all-on", "casual"):
        B = 32
        eng = Engine(_rules(cid), B)
        S = st.alloc(B)
        _core.reset_batch(S, game_seeds(8, B), eng.native)
        n = 144 if eng.opts[0] else 136
        for b in range(B):
            head, tail = S.g[b, st.G_HEAD], S.g[b, st.G_TAIL]
            S.wall[b, head : tail + 1] = rng.integers(0, n, tail + 1 - head) // 8 * 8  # kinds 0, 2, 4, ...
        alive = np.ones(B, bool)
        for _t in range(300 * SCALE):
            a = choose(rng, S, greedy=0.0, take_win=1.0)
            try:
                _core.step_some(S, a, alive, eng.native)
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
    eng = Engine(_rules("hongkong"), 1)
    S = st.alloc(1)
    _core.reset_batch(S, game_seeds(1, 1), eng.native)
    while S.g[0, st.G_PHASE] != st.PH_TURN:
        _core.step_batch(S, np.array([PASS if S.mask[0, PASS] else int(S.mask[0].argmax())]), eng.native)
    seat = int(S.g[0, st.G_CUR])
    S.hands[0, seat] = 0
    S.hands[0, seat, :5] = [3, 3, 3, 3, 2]  # 111 222 333 444 55m
    S.melds[0, seat, 0] = (1, 0, (seat + 2) % 4)  # and a pon of 1m
    S.p[0, seat, st.P_NMELDS] = 1
    S.mask[0, WIN] = True
    _core.step_batch(S, np.array([WIN]), eng.native)
    assert S.g[0, st.G_SCORE_ERR] == 1 and S.res_tai[0, seat] == 0
