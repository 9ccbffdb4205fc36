"""The native encoders and agents' helpers (envs._core) against recorded expectations.

tests/data/obs_digests.json holds SHA-256 digests of what the encoders and agents' helpers gave
along fixed games (recorded once and unchanged since: docs/versions.md, History) with exactly the
sampling below:

- the golden playthroughs of tests/data/golden, every decision, and seeded Greedy-ish play (70%
  Greedy, 30% random legal) under the standard, strict16, hongkong and extras rules, every other
  decision: planes_v0 for the seat to act and for each seat, with all four flag combinations
  (derived features, revealed concealed kongs); oracle_v0 for random seats, all flags; the
  efficiency planes and the Greedy / Defensive decisions (three defence settings) of the acting
  seat's observation;
- random hands, masks and features beyond what play reaches: the decisions, the efficiency planes,
  ukeire and _tile_danger.

encode_one (tw16_v0's path) and encode_rows (gym_env's) are checked against the batch encoder at
the same points. Plus: results do not depend on the thread count, and bad input at the boundary
raises. On a mismatch the test names the game and the output that changed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from agents import efficiency as eff
from agents import greedy as gr
from agents.features import decode
from envs import _core
from envs.engine import state as st
from envs.engine.actions import CHI, DISCARD, KONG, N_ACTIONS, PASS, PON, READY, SELF_KONG, WIN
from envs.engine.api import Engine
from envs.engine.replay import GOLDEN, action_from_name
from envs.obs import oracle_v0 as ov
from envs.obs import planes_v0 as pv
from envs.rules import OPT_PER_TAI, Rules

DIGESTS = Path(__file__).parent / "data" / "obs_digests.json"
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


# -- the outputs under test -------------------------------------------------------------------------
def _planes(eng, seats, flags):
    s = eng.s
    out = np.full((eng.batch_size, pv.n_channels(bool(flags & pv.F_DERIVED)), 34), np.nan, np.float32)
    _core.planes_v0_encode(out, s.hands, s.melds, s.river, s.g, s.p, s.scores, seats, eng.native, flags)
    return out


def _oracle(eng, seats, flags):
    s = eng.s
    base = pv.n_channels(bool(flags & pv.F_DERIVED))
    out = np.full((eng.batch_size, base + ov.N_ORACLE_EXTRA, 34), np.nan, np.float32)
    _core.oracle_v0_encode(out, s.hands, s.melds, s.river, s.wall, s.g, s.p, s.scores, seats, eng.native, flags, base)
    return out


def _encode_one(eng, b, me, flags):
    s = eng.s
    o = np.full((pv.n_channels(bool(flags & pv.F_DERIVED)), 34), np.nan, np.float32)
    _core.encode_one(o, s.hands, s.melds, s.river, s.g, s.p, s.scores, b, me, eng.native, flags)
    return o


def _encode_rows(eng, out, rows, seats, flags):
    s = eng.s
    _core.encode_rows(out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, eng.native, flags)


def _efficiency(f):
    out = np.zeros((f.hand.shape[0], eff.N_EFFICIENCY, 34), np.float32)
    _core.efficiency_kernel(f.hand, f.n_melds.astype(np.int64), f.unseen, f.claim_tile, out)
    return out


def _act(f, mask, defence):
    return gr.rule_actions(f, mask, defence, out=np.full(mask.shape[0], -7, np.int64))


def _ukeire(hand, n_sets, s, unseen):
    return _core.ukeire(hand, n_sets, s, unseen)


def _tile_danger(d, passed, disc, unseen):
    return _core.tile_danger(d, passed, disc, unseen)


# -- digests ------------------------------------------------------------------------------------------
class Digests:
    """One SHA-256 per output kind, fed every array that kind produced, in order."""

    def __init__(self):
        self.h: dict = {}  # kind -> hashlib.sha256 object

    def add(self, kind, a):
        a = np.ascontiguousarray(a)
        h = self.h.setdefault(kind, hashlib.sha256())
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())

    def hex(self) -> dict[str, str]:
        return {k: h.hexdigest() for k, h in sorted(self.h.items())}


def _same(a, b, what):
    """Bitwise equality of two float32 arrays (so -0.0 vs 0.0 or a NaN would count)."""
    assert a.shape == b.shape and a.dtype == b.dtype, what
    diff = a.view(np.uint32) != b.view(np.uint32)
    if diff.any():
        idx = tuple(int(i) for i in np.argwhere(diff)[0])
        pytest.fail(f"{what}: {int(diff.sum())} differences, first at {idx}: {a[idx]!r} vs {b[idx]!r}")


def _decision(eng, rng, dg):
    """Every output at one decision point of a batch of games, into the digests."""
    B = eng.batch_size
    cur = eng.s.g[:, st.G_CUR].astype(np.int64)
    seat_sets = {"cur": cur} | {str(seat): np.full(B, seat, np.int64) for seat in range(4)}
    for flags in FLAGS:
        for name, seats in seat_sets.items():
            planes = _planes(eng, seats, flags)
            dg.add(f"planes_v0 flags={flags} seats={name}", planes)
        seats = rng.integers(-1, 4, B)
        dg.add(f"oracle_v0 flags={flags}", _oracle(eng, seats, flags))
        # encode_one and encode_rows give the batch encoder's rows
        planes = _planes(eng, seats, flags)
        b = int(rng.integers(B))
        _same(_encode_one(eng, b, int(seats[b]), flags), planes[b], f"encode_one flags={flags}")
        rows = np.flatnonzero(rng.random(B) < 0.6).astype(np.int64)
        out = np.zeros((B + 2,) + planes.shape[1:], np.float32)
        _encode_rows(eng, out, rows, seats[rows], flags)
        _same(out[: rows.shape[0]], planes[rows], f"encode_rows flags={flags}")
        assert not out[rows.shape[0] :].any(), "encode_rows wrote past its rows"
    live = cur >= 0
    if not live.any():
        return
    obs = _planes(eng, cur, 0)[live]
    mask = eng.legal_action_mask[live].copy()
    f = decode(obs)
    dg.add("efficiency", _efficiency(f))
    for name, defence in DEFENCES.items():
        dg.add(f"act {name}", _act(f, mask, defence))


def play_digests(config: str) -> dict[str, str]:
    """Greedy-ish play (70% Greedy, 30% random legal), outputs at every other decision."""
    B, steps, seed = 6, 120, 12
    eng = Engine(CONFIGS[config](), batch_size=B, auto_reset=True)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    dg = Digests()
    for i in range(steps):
        if i % 2 == 0:
            _decision(eng, rng, dg)
        m = eng.legal_action_mask
        cur = eng.current_player.astype(np.int64)
        act = (rng.random(m.shape) + m).argmax(1)
        live = cur >= 0
        if live.any():
            g = _act(decode(_planes(eng, cur, 0)[live]), m[live].copy(), DEFENCES["greedy"])
            use = rng.random(live.sum()) < 0.7
            act[np.flatnonzero(live)[use]] = g[use]
        eng.step(act)
    return dg.hex()


def golden_digests(fname: str) -> dict[str, str]:
    """Every decision of a golden playthrough."""
    seed = {f: s for f, _o, s in GOLDEN}[fname]
    text = (Path(__file__).parent / "data" / "golden" / fname).read_text(encoding="utf-8")
    lines = [json.loads(x) for x in text.splitlines() if x.strip()]
    eng = Engine(Rules.from_dict(lines[0]["rules"]), 1)
    eng.reset(np.array([seed], np.uint64))
    rng = np.random.default_rng(0)
    dg = Digests()
    for ln in lines[1:]:
        _decision(eng, rng, dg)
        eng.step(np.array([action_from_name(ln["action"])]))
    return dg.hex()


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


def random_input_digests() -> dict[str, str]:
    rng = np.random.default_rng(2024)
    dg = Digests()
    for _ in range(4):
        f = _random_features(rng, 256)
        mask = _random_mask(rng, f)
        ft = SimpleNamespace(**f)  # attribute access, like agents.features.Features
        for name, defence in DEFENCES.items():
            dg.add(f"act {name}", _act(ft, mask, defence))
        dg.add("efficiency", _efficiency(ft))
        n_sets = 5 - f["n_melds"]
        s = rng.integers(-1, 4, 256)
        dg.add(
            "ukeire", np.array([_ukeire(f["hand"][b], int(n_sets[b]), int(s[b]), f["unseen"][b]) for b in range(256)])
        )
        d = rng.integers(0, 34, (256, 3))
        dg.add(
            "tile_danger",
            np.array(
                [
                    [
                        _tile_danger(int(d[b, o]), f["opp_passed"][b, o], f["opp_disc"][b, o], f["unseen"][b])
                        for o in range(3)
                    ]
                    for b in range(256)
                ]
            ),
        )
    return dg.hex()


def all_digests() -> dict[str, dict[str, str]]:
    out = {f"golden {fname}": golden_digests(fname) for fname, _o, _s in GOLDEN}
    out |= {f"play {config}": play_digests(config) for config in CONFIGS}
    out["random inputs"] = random_input_digests()
    return out


# -- the tests ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def recorded():
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


def _check(recorded, source, got):
    want = recorded[source]
    changed = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    assert not changed, f"{source}: these outputs differ from the recorded ones: {changed}"


@pytest.mark.parametrize("fname", [g[0] for g in GOLDEN])
def test_golden_playthroughs_match_the_recording(recorded, fname):
    _check(recorded, f"golden {fname}", golden_digests(fname))


@pytest.mark.parametrize("config", list(CONFIGS))
def test_seeded_play_matches_the_recording(recorded, config):
    _check(recorded, f"play {config}", play_digests(config))


def test_agents_on_random_inputs_match_the_recording(recorded):
    _check(recorded, "random inputs", random_input_digests())


def test_ukeire_and_tile_danger_values():
    from envs.tiles import parse_hand

    h = parse_hand("23m 567m 123p 456p 789p 99s").astype(np.int8)  # ready on 1m 4m
    four = np.full(34, 4, np.int8)
    assert _core.ukeire(h, 5, 0, four) == 8 and _core.ukeire(h, 5, -1, four) == 0
    unseen = four - h
    assert _core.ukeire(h, 5, 0, unseen) == 8 - h[0] - h[3]
    none = np.zeros(34, np.int8)
    # 5m with every tile unseen: pair+single 4*3+4+1, two-sided and edge waits 4*(16+16), closed 2*16
    assert _core.tile_danger(4, none, none, four) == 17 + 128 + 32
    disc = none.copy()
    disc[4] = 1
    assert _core.tile_danger(4, none, disc, four) == (17 + 128 + 32) // 2  # its own discard: halved
    assert _core.tile_danger(4, disc, none, four) == 0  # let pass: safe
    assert _core.tile_danger(27, none, none, four) == 17  # an honour: pair or single only


# -- threads ------------------------------------------------------------------------------------------
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
            o = _planes(eng, cur, pv.F_DERIVED)
            x = _oracle(eng, cur, pv.F_DERIVED)
            obs = o[:, : pv.N_CHANNELS][cur >= 0]
            f = decode(obs)
            rows = np.arange(eng.batch_size, dtype=np.int64)
            r = np.zeros_like(o)
            _encode_rows(eng, r, rows, cur, pv.F_DERIVED)
            outs.append(
                (o, x, r, _efficiency(f), _act(f, eng.legal_action_mask[cur >= 0].copy(), DEFENCES["defensive"]))
            )
        for o in outs[1:]:
            for a, b in zip(outs[0], o):
                assert (a == b).all()
        assert (outs[0][2] == outs[0][0]).all()
    finally:
        _core.set_num_threads(before)


# -- bad input at the boundary ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def small():
    eng = Engine(Rules(), batch_size=3)
    eng.reset(1)
    for _ in range(30):
        m = eng.legal_action_mask
        eng.step(m.argmax(1))
    s = eng.s
    args = dict(
        hands=s.hands.copy(),
        melds=s.melds.copy(),
        river=s.river.copy(),
        g=s.g.copy(),
        p=s.p.copy(),
        scores=s.scores.copy(),
    )
    return eng, args


def _planes_call(eng, a, out=None, seats=None, opts=None, flags=0):
    out = np.zeros((3, pv.N_CHANNELS, 34), np.float32) if out is None else out
    seats = np.zeros(3, np.int64) if seats is None else seats
    rules = eng.native if opts is None else _core.Rules(opts, eng.cfg, *eng.prof)
    _core.planes_v0_encode(out, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], seats, rules, flags)


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
    zero[OPT_PER_TAI] = 0
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
        _core.oracle_v0_encode(
            np.zeros((3, base + ov.N_ORACLE_EXTRA, 34), np.float32),
            a["hands"],
            a["melds"],
            a["river"],
            w,
            g,
            a["p"],
            a["scores"],
            np.zeros(3, np.int64),
            eng.native,
            0,
            base,
        )
    with pytest.raises(ValueError, match="base"):
        _core.oracle_v0_encode(
            np.zeros((3, base + ov.N_ORACLE_EXTRA, 34), np.float32),
            a["hands"],
            a["melds"],
            a["river"],
            w,
            a["g"],
            a["p"],
            a["scores"],
            np.zeros(3, np.int64),
            eng.native,
            0,
            base + 1,
        )
    o = np.zeros((pv.N_CHANNELS, 34), np.float32)
    with pytest.raises(ValueError, match="b: game 3"):
        _core.encode_one(o, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], 3, 0, eng.native, 0)
    with pytest.raises(ValueError, match="me: seat 5"):
        _core.encode_one(o, a["hands"], a["melds"], a["river"], a["g"], a["p"], a["scores"], 0, 5, eng.native, 0)
    out = np.zeros((2, pv.N_CHANNELS, 34), np.float32)
    with pytest.raises(ValueError, match="rows: game 3"):
        _core.encode_rows(
            out,
            np.array([0, 3]),
            np.array([0, 1]),
            a["hands"],
            a["melds"],
            a["river"],
            a["g"],
            a["p"],
            a["scores"],
            eng.native,
            0,
        )
    with pytest.raises(ValueError, match="out: 2 rows for 3 games"):
        _core.encode_rows(
            out,
            np.array([0, 1, 2]),
            np.array([0, 1, 2]),
            a["hands"],
            a["melds"],
            a["river"],
            a["g"],
            a["p"],
            a["scores"],
            eng.native,
            0,
        )


def test_bad_agent_inputs_raise():
    rng = np.random.default_rng(1)
    f = _random_features(rng, 4)
    mask = _random_mask(rng, f)
    defence = DEFENCES["defensive"]

    def act(mask=mask, defence=defence, **kw):
        g = {**f, **kw}
        _core.act_kernel(
            g["hand"],
            g["n_melds"],
            g["unseen"],
            g["opp_melds"],
            g["opp_ready"],
            g["opp_disc"],
            g["opp_passed"],
            g["tiles_left"],
            g["claim_tile"],
            mask,
            defence,
            gr.WIN_LOGIT,
            gr.READY_P,
            np.zeros(4, np.int64),
        )

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
        _core.efficiency_kernel(
            f["hand"],
            f["n_melds"],
            f["unseen"],
            np.array([0, 1, 99, 2]),
            np.zeros((4, eff.N_EFFICIENCY, 34), np.float32),
        )
    with pytest.raises(ValueError, match="out"):
        _core.efficiency_kernel(f["hand"], f["n_melds"], f["unseen"], f["claim_tile"], np.zeros((4, 8, 34), np.float32))


def test_bad_ukeire_and_tile_danger_inputs_raise():
    h, four, none = np.zeros(34, np.int8), np.full(34, 4, np.int8), np.zeros(34, np.int8)
    with pytest.raises(ValueError, match=r"hand\[3\] = 5"):
        _core.ukeire(np.where(np.arange(34) == 3, 5, 0).astype(np.int8), 5, 0, four)
    with pytest.raises(ValueError, match="n_sets = 6"):
        _core.ukeire(h, 6, 0, four)
    with pytest.raises(TypeError, match="hand: expected dtype int8"):
        _core.ukeire(h.astype(np.int16), 5, 0, four)
    with pytest.raises(ValueError, match="unseen"):
        _core.ukeire(h, 5, 0, four[:30])
    with pytest.raises(ValueError, match="d = 34"):
        _core.tile_danger(34, none, none, four)
    with pytest.raises(ValueError, match="passed_by_threat"):
        _core.tile_danger(0, none[:33], none, four)
    with pytest.raises(ValueError, match="disc_by_threat"):
        _core.tile_danger(0, none, np.full(34, -1, np.int8), four)
