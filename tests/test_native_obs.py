"""The native encoders and agents' helpers (envs._core) against the Numba ones, bit for bit.

Games are played by the Numba engine (envs.engine.api.Engine) under the standard, strict16, hongkong
and extras rules (a mix of Greedy and random legal moves, so hands get ready, claim, kong and win),
plus the golden playthroughs of tests/data/golden. At sampled decisions the C++ output is compared
with the Numba output, exactly:

- planes_v0 for every seat (and for the seat to act, -1 for none) with all four flag combinations
  (derived features, revealed concealed kongs), through the batch encoder, encode_one and gym_env's
  row encoding;
- oracle_v0, all flag combinations;
- the efficiency planes of the acting seat's observation;
- the Greedy and Defensive decisions (default and other defence parameters) on the same inputs,
  and on random hands / masks / features beyond what play reaches.

TW16_DIFF_N (default 1) scales the number of games and decisions. Run with -s to see the counts and
the C++ vs Numba encode speed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

_core = pytest.importorskip("envs._core")
if not hasattr(_core, "planes_v0_encode"):
    pytest.skip("envs._core was built without the obs/agents bindings", allow_module_level=True)

from agents import efficiency as eff  # noqa: E402
from agents import greedy as gr  # noqa: E402
from agents.features import decode  # noqa: E402
from envs import gym_env  # noqa: E402
from envs.engine import state as st  # noqa: E402
from envs.engine.actions import CHI, DISCARD, KONG, N_ACTIONS, PASS, PON, READY, SELF_KONG, WIN  # noqa: E402
from envs.engine.api import Engine  # noqa: E402
from envs.engine.replay import GOLDEN, action_from_name  # noqa: E402
from envs.obs import oracle_v0 as ov  # noqa: E402
from envs.obs import planes_v0 as pv  # noqa: E402
from envs.rules import Rules  # noqa: E402

DIFF_N = max(1, int(os.environ.get("TW16_DIFF_N", "1")))
FLAGS = (0, pv.F_DERIVED, pv.F_REVEAL_ANKONG, pv.F_DERIVED | pv.F_REVEAL_ANKONG)
CONFIGS = {
    "standard": lambda: Rules(),
    "strict16": lambda: Rules(profile="strict16"),
    "hongkong": lambda: Rules(profile="hongkong"),
    "extras": lambda: Rules(extras=True),
}
DEFENCES = {
    "greedy": np.zeros(len(gr.DEFENCE_DEFAULTS)),
    "defensive": np.array(list(gr.DEFENCE_DEFAULTS.values()), np.float64),
    "defensive_risk3": np.array([3.0, 101.0, 50.0, 0.0, 0.0, 0.004, 0.5, 0.3]),
}
COUNTS: dict[str, int] = {}


def _count(key, n=1):
    COUNTS[key] = COUNTS.get(key, 0) + int(n)


def _report():
    print("\n[test_native_obs] TW16_DIFF_N=%d, compared (zero differences): %s" % (DIFF_N, ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items()))))


# -- Numba and C++ side by side -------------------------------------------------------------------
def _numba_planes(eng, seats, flags):
    s = eng.s
    out = np.zeros((eng.batch_size, pv.n_channels(bool(flags & pv.F_DERIVED)), 34), np.float32)
    pv._encode_ser(out, s.hands, s.melds, s.river, s.g, s.p, s.scores, seats, eng.opts, flags, pv.engine_shapes(eng))
    return out


def _native_planes(eng, seats, flags):
    s = eng.s
    out = np.full((eng.batch_size, pv.n_channels(bool(flags & pv.F_DERIVED)), 34), np.nan, np.float32)
    _core.planes_v0_encode(out, s.hands, s.melds, s.river, s.g, s.p, s.scores, seats, eng.opts, flags, pv.engine_shapes(eng))
    return out


def _oracle_shape(eng, flags):
    base = pv.n_channels(bool(flags & pv.F_DERIVED))
    return base, (eng.batch_size, base + ov.N_EXTRA, 34)


def _numba_oracle(eng, seats, flags):
    s = eng.s
    base, shape = _oracle_shape(eng, flags)
    out = np.zeros(shape, np.float32)
    ov._encode_ser(out, s.hands, s.melds, s.river, s.wall, s.g, s.p, s.scores, seats, eng.opts, flags, pv.engine_shapes(eng), base)
    return out


def _native_oracle(eng, seats, flags):
    s = eng.s
    base, shape = _oracle_shape(eng, flags)
    out = np.full(shape, np.nan, np.float32)
    _core.oracle_v0_encode(out, s.hands, s.melds, s.river, s.wall, s.g, s.p, s.scores, seats, eng.opts, flags, pv.engine_shapes(eng), base)
    return out


def _same(a, b, what):
    """Bitwise equality of two float32 arrays (so -0.0 vs 0.0 or a NaN would count)."""
    assert a.shape == b.shape and a.dtype == b.dtype, what
    diff = a.view(np.uint32) != b.view(np.uint32)
    if diff.any():
        idx = tuple(int(i) for i in np.argwhere(diff)[0])
        pytest.fail(f"{what}: {int(diff.sum())} differences, first at {idx}: numba {a[idx]!r} native {b[idx]!r}")


def _native_efficiency(obs):
    f = decode(obs)
    out = np.zeros((obs.shape[0], eff.N_EFFICIENCY, 34), np.float32)
    _core.efficiency_kernel(f.hand, f.n_melds.astype(np.int64), f.unseen, f.claim_tile, out)
    return out


def _numba_act(f, mask, defence):
    out = np.empty(mask.shape[0], np.int64)
    gr.act_kernel(f.hand, f.n_melds, f.unseen, f.opp_melds, f.opp_ready, f.opp_disc, f.opp_passed, f.tiles_left, f.claim_tile, mask, defence, out)
    return out


def _native_act(f, mask, defence):
    out = np.full(mask.shape[0], -7, np.int64)
    _core.act_kernel(f.hand, f.n_melds, f.unseen, f.opp_melds, f.opp_ready, f.opp_disc, f.opp_passed, f.tiles_left, f.claim_tile, mask, defence, out)
    return out


def _compare_decision(eng, rng):
    """Every comparison at one decision point of a batch of games."""
    s = eng.s
    B = eng.batch_size
    cur = s.g[:, st.G_CUR].astype(np.int64)
    shapes = pv.engine_shapes(eng)
    seat_sets = [cur] + [np.full(B, seat, np.int64) for seat in range(4)]
    for flags in FLAGS:
        for seats in seat_sets:
            _same(_numba_planes(eng, seats, flags), _native_planes(eng, seats, flags), f"planes_v0 flags={flags}")
            _count("planes_v0 obs", B)
        seats = rng.integers(-1, 4, B)
        _same(_numba_oracle(eng, seats, flags), _native_oracle(eng, seats, flags), f"oracle_v0 flags={flags}")
        _count("oracle_v0 obs", B)
        # encode_one (tw16_v0's batch-1 path) and gym_env's row encoding on a random subset of rows
        b, me = int(rng.integers(B)), int(rng.integers(-1, 4))
        o_nb = np.zeros((pv.n_channels(bool(flags & pv.F_DERIVED)), 34), np.float32)
        pv.encode_one(o_nb, s.hands, s.melds, s.river, s.g, s.p, s.scores, b, me, eng.opts, flags, shapes)
        o_cc = np.full_like(o_nb, np.nan)
        _core.encode_one(o_cc, s.hands, s.melds, s.river, s.g, s.p, s.scores, b, me, eng.opts, flags, shapes)
        _same(o_nb, o_cc, "encode_one")
        _count("encode_one obs")
        rows = np.flatnonzero(rng.random(B) < 0.6).astype(np.int64)
        rseats = rng.integers(0, 4, rows.shape[0])
        r_nb = np.zeros((B + 2,) + o_nb.shape, np.float32)
        gym_env.encode_rows_ser(r_nb, rows, rseats, s.hands, s.melds, s.river, s.g, s.p, s.scores, eng.opts, flags, shapes)
        r_cc = np.zeros_like(r_nb)
        _core.encode_rows(r_cc, rows, rseats, s.hands, s.melds, s.river, s.g, s.p, s.scores, eng.opts, flags, shapes)
        _same(r_nb, r_cc, "encode_rows")
        _count("encode_rows obs", rows.shape[0])
    # the acting seat's view: efficiency planes and the Greedy / Defensive decisions
    live = cur >= 0
    if not live.any():
        return
    obs = _numba_planes(eng, cur, 0)[live]
    mask = eng.legal_action_mask[live].copy()
    _same(eff.efficiency_planes(obs), _native_efficiency(obs), "efficiency planes")
    _count("efficiency obs", obs.shape[0])
    f = decode(obs)
    for name, defence in DEFENCES.items():
        a_nb, a_cc = _numba_act(f, mask, defence), _native_act(f, mask, defence)
        assert (a_nb == a_cc).all(), f"{name}: numba {a_nb} native {a_cc}"
        _count(f"{name} decisions", mask.shape[0])


def _play(rules, B, steps, seed, every):
    """Greedy-ish play (70% Greedy, 30% random legal) with comparisons every `every` steps."""
    eng = Engine(rules, batch_size=B, auto_reset=True)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    agent = gr.GreedyAgent()
    for i in range(steps):
        if i % every == 0:
            _compare_decision(eng, rng)
        m = eng.legal_action_mask
        cur = eng.current_player.astype(np.int64)
        act = (rng.random(m.shape) + m).argmax(1)
        live = cur >= 0
        if live.any():
            obs = _numba_planes(eng, cur, 0)
            g = agent.act(obs[live], m[live])
            use = rng.random(live.sum()) < 0.7
            act[np.flatnonzero(live)[use]] = g[use]
        eng.step(act)
    return eng


@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_play_matches_numba(config):
    _play(CONFIGS[config](), B=6, steps=120 * DIFF_N, seed=11 + DIFF_N, every=2)
    _report()


def test_golden_playthroughs_match_numba():
    rng = np.random.default_rng(0)
    for fname, _opts, seed in GOLDEN:
        text = (Path(__file__).parent / "data" / "golden" / fname).read_text(encoding="utf-8")
        lines = [json.loads(x) for x in text.splitlines() if x.strip()]
        rules = Rules.from_dict(lines[0]["rules"])
        eng = Engine(rules, 1)
        eng.reset(np.array([seed], np.uint64))
        for ln in lines[1:]:
            _compare_decision(eng, rng)
            eng.step(np.array([action_from_name(ln["action"])]))
        _count("golden decisions", len(lines) - 1)
    _report()


# -- agents on random inputs (beyond what play reaches) -------------------------------------------
def _random_features(rng, B):
    """Random but well-formed decode() output: 3n+1 / 3n+2 hands for n_melds 0..4, unseen counts,
    opponents' melds, discards and passed tiles, tiles left, some claims."""
    hand = np.zeros((B, 34), np.int8)
    n_melds = rng.integers(0, 5, B).astype(np.int64)
    for b in range(B):
        size = 3 * (5 - n_melds[b]) + 1 + rng.integers(0, 2)
        pool = np.repeat(np.arange(34), 4)
        if rng.random() < 0.5:  # a narrower pool makes pairs, sets and ready hands likelier
            pool = np.repeat(rng.choice(34, 10, replace=False), 4)
        np.add.at(hand[b], rng.choice(pool, size, replace=False), 1)
    unseen = np.clip(4 - hand - rng.integers(0, 3, (B, 34)), 0, 4).astype(np.int8)
    claim = np.where((hand.sum(1) % 3 == 1) & (rng.random(B) < 0.8), rng.integers(0, 34, B), -1).astype(np.int64)
    f = dict(
        hand=hand,
        n_melds=n_melds,
        unseen=unseen,
        opp_melds=rng.integers(0, 6, (B, 3)).astype(np.int64),
        opp_ready=rng.random((B, 3)) < 0.1,
        opp_disc=(rng.random((B, 3, 34)) < 0.15).astype(np.int8) * rng.integers(1, 3, (B, 3, 34)).astype(np.int8),
        opp_passed=(rng.random((B, 3, 34)) < 0.05).astype(np.int8),
        tiles_left=rng.integers(0, 100, B).astype(np.int64),
        claim_tile=claim,
    )
    return f


def _random_mask(rng, f):
    """Masks as the engine makes them (claims on a 3n+1 hand, own turn on 3n+2) plus odd ones: a
    discard of a tile not held, a self kong of a tile held once, no legal discard at all."""
    B = f["hand"].shape[0]
    mask = np.zeros((B, N_ACTIONS), bool)
    for b in range(B):
        h, t = f["hand"][b], f["claim_tile"][b]
        if t >= 0:
            mask[b, PASS] = True
            mask[b, PON] = h[t] >= 2 or rng.random() < 0.1
            mask[b, KONG] = h[t] >= 3 or rng.random() < 0.05
            mask[b, WIN] = rng.random() < 0.05
            if t < 27:
                r = t % 9
                for pos, (x, y) in enumerate(((t + 1, t + 2), (t - 1, t + 1), (t - 2, t - 1))):
                    if 0 <= r - pos <= 6 and (h[x] and h[y] or rng.random() < 0.1):
                        mask[b, CHI + pos] = True
        else:
            held = h > 0
            mask[b, DISCARD : DISCARD + 34] = held if rng.random() < 0.9 else rng.random(34) < 0.3
            mask[b, SELF_KONG : SELF_KONG + 34] = (h == 4) | ((h >= 1) & (rng.random(34) < 0.05))
            mask[b, WIN] = rng.random() < 0.05
            mask[b, READY] = rng.random() < 0.02
            if rng.random() < 0.03:
                mask[b, DISCARD : DISCARD + 34] = False
        if not mask[b].any():
            mask[b, PASS] = True
    return mask


def test_agents_on_random_inputs():
    rng = np.random.default_rng(2024)
    n = 0
    for _ in range(4 * DIFF_N):
        f = _random_features(rng, 256)
        mask = _random_mask(rng, f)
        ft = SimpleNamespace(**f)  # attribute access, like agents.features.Features
        for name, defence in DEFENCES.items():
            a_nb, a_cc = _numba_act(ft, mask, defence), _native_act(ft, mask, defence)
            bad = np.flatnonzero(a_nb != a_cc)
            assert not bad.size, f"{name}: row {bad[0]} numba {a_nb[bad[0]]} native {a_cc[bad[0]]}"
            _count(f"{name} random decisions", mask.shape[0])
        e_nb = np.zeros((256, eff.N_EFFICIENCY, 34), np.float32)
        eff._kernel(f["hand"], f["n_melds"], f["unseen"], f["claim_tile"], e_nb)
        e_cc = np.zeros_like(e_nb)
        _core.efficiency_kernel(f["hand"], f["n_melds"], f["unseen"], f["claim_tile"], e_cc)
        _same(e_nb, e_cc, "efficiency planes (random inputs)")
        _count("efficiency random obs", 256)
        n += 1
    assert n
    _report()


# -- threads, constants, speed ---------------------------------------------------------------------
def _big_engine(B=300, steps=80, seed=5):
    eng = Engine(Rules(extras=True), batch_size=B, auto_reset=True)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        m = eng.legal_action_mask
        eng.step((rng.random(m.shape) + m).argmax(1))
    return eng


def test_results_do_not_depend_on_the_thread_count():
    eng = _big_engine()
    cur = eng.s.g[:, st.G_CUR].astype(np.int64)
    before = _core.num_threads()
    try:
        outs = []
        for nt in (1, 3, 8):
            _core.set_num_threads(nt)
            o = _native_planes(eng, cur, pv.F_DERIVED)
            x = _native_oracle(eng, cur, pv.F_DERIVED)
            obs = o[:, : pv.N_CHANNELS][cur >= 0]
            f = decode(obs)
            outs.append((o, x, _native_efficiency(obs), _native_act(f, eng.legal_action_mask[cur >= 0].copy(), DEFENCES["defensive"])))
        for o in outs[1:]:
            for a, b in zip(outs[0], o):
                assert (a == b).all()
        _same(_numba_planes(eng, cur, pv.F_DERIVED), outs[0][0], "planes_v0 big batch")
        _same(_numba_oracle(eng, cur, pv.F_DERIVED), outs[0][1], "oracle_v0 big batch")
    finally:
        _core.set_num_threads(before)


def test_private_constants_agree():
    assert _core.EFFICIENCY_FAR == eff._FAR


def test_encode_speed():
    """C++ vs Numba, serial, one batch of live games: printed (run with -s), not asserted."""
    eng = _big_engine(B=256, steps=60, seed=8)
    cur = eng.s.g[:, st.G_CUR].astype(np.int64)
    before = _core.num_threads()
    _core.set_num_threads(1)
    try:
        rows = []
        for flags in (0, pv.F_DERIVED):
            t_nb = _best_time(lambda: _numba_planes(eng, cur, flags))
            t_cc = _best_time(lambda: _native_planes(eng, cur, flags))
            rows.append(f"planes_v0 flags={flags}: numba {t_nb / 256 * 1e6:.2f} us/obs, C++ {t_cc / 256 * 1e6:.2f} us/obs")
        obs = _numba_planes(eng, cur, 0)[cur >= 0]
        mask = eng.legal_action_mask[cur >= 0].copy()
        f = decode(obs)
        t_nb = _best_time(lambda: _numba_act(f, mask, DEFENCES["defensive"]))
        t_cc = _best_time(lambda: _native_act(f, mask, DEFENCES["defensive"]))
        rows.append(f"defensive act_kernel: numba {t_nb / len(obs) * 1e6:.2f} us/decision, C++ {t_cc / len(obs) * 1e6:.2f} us/decision")
        t_nb = _best_time(lambda: eff._kernel(f.hand, f.n_melds, f.unseen, f.claim_tile, np.zeros((len(obs), eff.N_EFFICIENCY, 34), np.float32)))
        t_cc = _best_time(lambda: _core.efficiency_kernel(f.hand, f.n_melds, f.unseen, f.claim_tile, np.zeros((len(obs), eff.N_EFFICIENCY, 34), np.float32)))
        rows.append(f"efficiency _kernel: numba {t_nb / len(obs) * 1e6:.2f} us/obs, C++ {t_cc / len(obs) * 1e6:.2f} us/obs")
        print("\n[test_native_obs] speed, one thread, batch 256:\n  " + "\n  ".join(rows))
    finally:
        _core.set_num_threads(before)


def _best_time(fn, reps=5):
    fn()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# -- bad input at the boundary ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def small():
    eng = Engine(Rules(), batch_size=3)
    eng.reset(1)
    for _ in range(30):
        m = eng.legal_action_mask
        eng.step(m.argmax(1))
    s = eng.s
    args = dict(hands=s.hands.copy(), melds=s.melds.copy(), river=s.river.copy(), g=s.g.copy(), p=s.p.copy(), scores=s.scores.copy())
    return eng, args


def _planes_call(eng, a, out=None, seats=None, opts=None, flags=0):
    out = np.zeros((3, pv.N_CHANNELS, 34), np.float32) if out is None else out
    seats = np.zeros(3, np.int64) if seats is None else seats
    opts = eng.opts if opts is None else opts
    _core.planes_v0_encode(out, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], seats, opts, flags, 0)


def test_bad_arrays_raise(small):
    eng, a = small
    _planes_call(eng, a)  # the good call
    with pytest.raises(TypeError, match="hands: expected dtype int8"):
        _planes_call(eng, {**a, "hands": a["hands"].astype(np.int16)})
    with pytest.raises(ValueError, match="melds"):
        _planes_call(eng, {**a, "melds": a["melds"][:2]})
    with pytest.raises(ValueError, match="out"):
        _planes_call(eng, a, out=np.zeros((3, pv.N_CHANNELS_DERIVED, 34), np.float32))  # no F_DERIVED
    with pytest.raises(ValueError, match="out"):
        _planes_call(eng, a, out=np.zeros((3, pv.N_CHANNELS, 34), np.float32), flags=pv.F_DERIVED)
    with pytest.raises(TypeError, match="out: expected dtype float32"):
        _planes_call(eng, a, out=np.zeros((3, pv.N_CHANNELS, 34), np.float64))
    with pytest.raises(ValueError, match="seats"):
        _planes_call(eng, a, seats=np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="seats: seat 4"):
        _planes_call(eng, a, seats=np.array([0, 4, 1], np.int64))
    with pytest.raises(ValueError, match="opts"):
        _planes_call(eng, a, opts=eng.opts[:5])
    zero = eng.opts.copy()
    zero[pv.OPT_PER_TAI] = 0
    with pytest.raises(ValueError, match="per_tai"):
        _planes_call(eng, a, opts=zero)
    ro = np.zeros((3, pv.N_CHANNELS, 34), np.float32)
    ro.setflags(write=False)
    with pytest.raises(TypeError):
        _planes_call(eng, a, out=ro)


def test_bad_state_values_raise(small):
    eng, a = small
    for field, idx, value, msg in [
        ("river", (0, 0, 0), 40, "river of game 0"),
        ("g", (1, st.G_NRIVER), 200, "G_NRIVER"),
        ("p", (2, 1, st.P_NMELDS), 6, "P_NMELDS"),
        ("hands", (0, 2, 5), 7, "hands of game 0"),
        ("g", (0, st.G_PHASE), -1, "G_PHASE"),
    ]:
        bad = {**a, field: a[field].copy()}
        bad[field][idx] = value
        with pytest.raises(ValueError, match=msg):
            _planes_call(eng, bad)
    bad = {**a, "p": a["p"].copy(), "melds": a["melds"].copy()}
    bad["p"][0, 0, st.P_NMELDS] = 1
    bad["melds"][0, 0, 0] = (0, 32, 0)  # a chow from 9 of a suit past the last kind
    with pytest.raises(ValueError, match="melds of game 0"):
        _planes_call(eng, bad)
    s = eng.s
    w = s.wall.copy()
    g = a["g"].copy()
    g[0, st.G_TAIL] = 150
    base = pv.N_CHANNELS
    with pytest.raises(ValueError, match="wall indices"):
        _core.oracle_v0_encode(np.zeros((3, base + ov.N_EXTRA, 34), np.float32), a["hands"], a["melds"], a["river"], w, g, a["p"], a["scores"], np.zeros(3, np.int64), eng.opts, 0, 0, base)
    with pytest.raises(ValueError, match="base"):
        _core.oracle_v0_encode(np.zeros((3, base + ov.N_EXTRA, 34), np.float32), a["hands"], a["melds"], a["river"], w, a["g"], a["p"], a["scores"], np.zeros(3, np.int64), eng.opts, 0, 0, base + 1)
    o = np.zeros((pv.N_CHANNELS, 34), np.float32)
    with pytest.raises(ValueError, match="b: game 3"):
        _core.encode_one(o, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], 3, 0, eng.opts, 0, 0)
    with pytest.raises(ValueError, match="me: seat 5"):
        _core.encode_one(o, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], 0, 5, eng.opts, 0, 0)
    out = np.zeros((2, pv.N_CHANNELS, 34), np.float32)
    with pytest.raises(ValueError, match="rows: game 3"):
        _core.encode_rows(out, np.array([0, 3]), np.array([0, 1]), a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], eng.opts, 0, 0)
    with pytest.raises(ValueError, match="out: 2 rows for 3 games"):
        _core.encode_rows(out, np.array([0, 1, 2]), np.array([0, 1, 2]), a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], eng.opts, 0, 0)


def test_bad_agent_inputs_raise():
    rng = np.random.default_rng(1)
    f = _random_features(rng, 4)
    mask = _random_mask(rng, f)
    defence = DEFENCES["defensive"]

    def act(mask=mask, defence=defence, **kw):
        g = {**f, **kw}
        _core.act_kernel(g["hand"], g["n_melds"], g["unseen"], g["opp_melds"], g["opp_ready"], g["opp_disc"], g["opp_passed"],
                         g["tiles_left"], g["claim_tile"], mask, defence, np.zeros(4, np.int64))  # fmt: skip

    act()
    with pytest.raises(ValueError, match=r"claim_tile\[2\] = 34"):
        act(claim_tile=np.array([-1, -1, 34, -1]))
    with pytest.raises(ValueError, match="hand"):
        act(hand=np.full((4, 34), 5, np.int8))
    with pytest.raises(ValueError, match="n_melds"):
        act(n_melds=np.array([0, 6, 0, 0]))
    with pytest.raises(ValueError, match="tiles_left"):
        act(tiles_left=np.array([3, -1, 0, 0]))
    with pytest.raises(ValueError, match="opp_melds"):
        act(opp_melds=np.full((4, 3), -1))
    with pytest.raises(ValueError, match="mask"):
        act(mask=mask[:, :70])
    with pytest.raises(TypeError, match="mask: expected dtype bool"):
        act(mask=mask.astype(np.int8))
    with pytest.raises(ValueError, match="defence"):
        act(defence=defence[:5])
    with pytest.raises(ValueError, match="opp_disc"):
        act(opp_disc=f["opp_disc"][:3])
    with pytest.raises(ValueError, match="claim_tile"):
        _core.efficiency_kernel(f["hand"], f["n_melds"], f["unseen"], np.array([0, 1, 99, 2]), np.zeros((4, eff.N_EFFICIENCY, 34), np.float32))
    with pytest.raises(ValueError, match="out"):
        _core.efficiency_kernel(f["hand"], f["n_melds"], f["unseen"], f["claim_tile"], np.zeros((4, 8, 34), np.float32))
