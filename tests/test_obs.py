"""Observation encoders: what an agent must recover from planes_v0, oracle consistency, readable view."""

import numpy as np
import pytest

from envs.engine import state as st
from envs.engine.api import Engine
from envs.obs import OracleV0, PlanesV0, readable, render_table
from envs.obs import oracle_v0 as ov
from envs.obs import planes_v0 as pv
from envs.obs.channels import starts
from envs.rules import Rules
from envs.tiles import MELD_ANKONG, MELD_CHI


def _meld_counts(melds, n, hidden_ankong):
    c = np.zeros(34, int)
    for i in range(n):
        mt, mk, _ = melds[i]
        if mt == MELD_ANKONG and hidden_ankong:
            continue
        if mt == MELD_CHI:
            c[mk : mk + 3] += 1
        else:
            c[mk] += 3 if mt == 1 else 4
    return c


def _random_states(rules, B=8, seed=0, steps=400):
    """Yield the engine after every step of random legal play (games finish; finished rows stay)."""
    eng = Engine(rules, batch_size=B)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield eng
        if eng.terminated.all():
            return
        m = eng.legal_action_mask
        eng.step((rng.random(m.shape) + m).argmax(1))


def _check_view(eng, o, b, me, oracle):
    s = eng.s
    th = lambda ch: o[ch : ch + 4].sum(0)  # noqa: E731
    assert (th(pv.CH_HAND) == s.hands[b, me]).all()
    vis = s.hands[b, me].astype(int).copy()
    for r in range(4):
        seat = (me + r) % 4
        mc = _meld_counts(s.melds[b, seat], s.p[b, seat, st.P_NMELDS], hidden_ankong=r != 0)
        assert (th(pv.CH_MELD + 4 * r) == mc).all()
        vis += mc
        assert round(o[pv.CH_MELD_FROM, 4 * r : 4 * r + 4].sum() * 4) == s.p[b, seat, st.P_NMELDS]
        n = s.g[b, st.G_NRIVER]
        riv = s.river[b, :n]
        mine = riv[riv[:, 1] == seat]
        dc = np.bincount(mine[:, 0], minlength=34)
        assert (th(pv.CH_DISCARD + 4 * r) == dc).all()
        cl = np.bincount(mine[mine[:, 2] >= 0, 0], minlength=34)
        assert (o[pv.CH_CLAIMED + r] == cl).all()
        vis += dc - cl
        for j, k in enumerate(mine[::-1][: pv.N_RECENT, 0]):
            assert o[pv.CH_RECENT + 4 * r + j, k] == 1 and o[pv.CH_RECENT + 4 * r + j].sum() == 1
        fl = s.p[b, seat, st.P_FLOWERS]
        assert [int(x) for x in o[pv.CH_FLOWERS + r, :8]] == [fl >> f & 1 for f in range(8)]
    sc = o[pv.CH_SCALARS]
    assert sc[pv.SC_DRAWABLE] * 128 == max(eng.wall_drawable[b], 0)
    ph = s.g[b, st.G_PHASE]
    if ph in (st.PH_CLAIM, st.PH_ROB):
        assert o[pv.CH_QUESTION].argmax() == s.g[b, st.G_TILE] and o[pv.CH_QUESTION].sum() == 1
    if ph <= st.PH_READY0:
        assert o[pv.CH_PHASE + ph].all() and o[pv.CH_PHASE : pv.CH_PHASE + 4].sum() == 34
    assert o[pv.CH_SEAT_WIND, 27 + (me - s.g[b, st.G_DEALER]) % 4] == 1
    assert sc[pv.SC_DEALER + (s.g[b, st.G_DEALER] - me) % 4] == 1
    if o.shape[0] >= pv.N_CHANNELS_DERIVED:
        unseen = np.maximum(4 - vis, 0)
        assert (th(pv.CH_UNSEEN) == unseen).all()
    if oracle is not None:
        base = o.shape[0]
        hidden = sum(oracle[base + ov.O_HANDS + 4 * i : base + ov.O_HANDS + 4 * i + 4].sum(0) for i in range(3))
        hidden = hidden + 4 * oracle[base + ov.O_ANKONG : base + ov.O_ANKONG + 3].sum(0)
        hidden = hidden + oracle[base + ov.O_WALL : base + ov.O_WALL + 4].sum(0)
        # every tile is either visible to the seat or hidden from it (flowers are not kinds)
        assert (hidden + vis == 4).all()


@pytest.mark.parametrize("rules", [Rules(), Rules(flowers=False, multi_win=True)])
def test_planes_recover_the_public_state(rules):
    enc, orc = PlanesV0(derived=True), OracleV0(derived=True)
    checked = 0
    for eng in _random_states(rules, B=6, seed=1):
        for seat in range(4):
            o = enc.encode(eng, seats=seat)
            x = orc.encode(eng, seats=seat)
            assert (x[:, : enc.n_channels] == o).all()
            for b in range(eng.batch_size):
                if not eng.terminated[b]:
                    _check_view(eng, o[b], b, seat, x[b])
                    checked += 1
    assert checked > 1000


def test_acting_seat_default_and_done_rows():
    enc = PlanesV0()
    for eng in _random_states(Rules(), B=4, seed=2):
        cur = eng.current_player
        o = enc.encode(eng)
        for b in range(4):
            if cur[b] < 0:
                assert not o[b].any()
            else:
                assert (o[b] == enc.encode(eng, seats=np.full(4, cur[b]))[b]).all()


def test_threads_match_one_thread_and_out_buffer():
    """A batch big enough for envs._core's threads encodes as on one thread, into the given buffer."""
    from envs import _core

    eng = Engine(Rules(), batch_size=300)
    eng.reset(5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        m = eng.legal_action_mask
        eng.step((rng.random(m.shape) + m).argmax(1))
    enc = PlanesV0(derived=True)
    out = enc.alloc(eng.batch_size)
    before = _core.num_threads()
    try:
        _core.set_num_threads(4)
        par = enc.encode(eng, out=out)
        _core.set_num_threads(1)
        ser = enc.encode(eng)
    finally:
        _core.set_num_threads(before)
    assert par is out and out.dtype == np.float32 and out.flags.c_contiguous
    assert (ser == par).all() and par.any()
    with pytest.raises(ValueError):
        enc.encode(eng, out=np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="seats"):
        enc.encode(eng, seats=-2)


def test_derived_features_match_hand_analysis():
    from envs.hand.api import shanten_of, waits
    from envs.tiles import kind_name, parse_hand

    enc = PlanesV0(derived=True)
    n = 0
    for eng in _random_states(Rules(), B=4, seed=3, steps=150):
        o = enc.encode(eng)
        for b in range(4):
            me = eng.current_player[b]
            if me >= 0 and eng.phase[b] == st.PH_CLAIM:
                s = shanten_of(eng.hands[b, me], n_melds=int(eng.n_melds[b, me]))
                assert o[b, pv.CH_SHANTEN, 0] == min(s + 1, 8) / 8
                n += 1
    assert n > 0
    # a ready 16-tile hand: waits 1m 4m; as a 17-tile hand, discarding 9s leaves it ready
    h = parse_hand("23m 567m 123p 456p 789p 99s")
    o = _own_planes(h)
    assert [kind_name(k) for k in np.flatnonzero(o[pv.CH_WAITS])] == waits("23m 567m 123p 456p 789p 99s")
    assert o[pv.CH_SHANTEN, 0] == 1 / 8
    o = _own_planes(parse_hand("23m 567m 123p 456p 789p 99s 1s"))
    assert o[pv.CH_DISCARD_SHANTEN, 18] == 1 / 8 and [kind_name(k) for k in np.flatnonzero(o[pv.CH_WAITS])] == [
        "1m",
        "4m",
    ]


def _own_planes(hand):
    """The derived planes of seat 0 holding ``hand`` (no melds) in a freshly dealt game."""
    eng = Engine(Rules(flowers=False), batch_size=1)
    eng.reset(1)
    s = eng.s
    s.hands[0, 0] = hand
    s.p[0, 0, st.P_NMELDS] = 0
    return PlanesV0(derived=True).encode(eng, seats=0)[0]


def _melds(eng, b, seat):
    from envs.tiles import Meld

    return [Meld(int(eng.melds[b, seat, i, 0]), int(eng.melds[b, seat, i, 1])) for i in range(eng.n_melds[b, seat])]


def test_channel_constants_are_the_offsets_of_the_table():
    """Every CH_* / SC_* / O_* constant the C++ encoder reads (constants.hpp) is where the module's
    table puts its block, and the encoders' shapes and names follow the same rows."""
    for mod, tables in ((pv, (pv.CHANNELS + pv.DERIVED_CHANNELS, pv.SCALARS)), (ov, (ov.CHANNELS,))):
        for blocks in tables:
            at = 0
            for b in blocks:
                assert getattr(mod, b.const) == at, (mod.OBS_VERSION, b.const)
                at += b.n
    assert pv.N_CHANNELS == sum(b.n for b in pv.CHANNELS) and pv.N_SCALARS == sum(b.n for b in pv.SCALARS) <= 34
    assert ov.N_ORACLE_EXTRA == sum(b.n for b in ov.CHANNELS)
    for d in (False, True):
        for enc, mod in ((PlanesV0(derived=d), pv), (OracleV0(derived=d), ov)):
            names = enc.channel_names()
            assert len(names) == len(set(names)) == enc.n_channels == sum(b.n for b in mod.blocks(d))
    assert pv.channel_names(True)[pv.CH_DISCARD + 4 * 1 + 1] == "discard next >=2"
    assert pv.scalar_names()[pv.SC_SCORE + 3] == "score/(per_tai*64) previous"


def _check_values(x, b, where):
    """x: (N, channels, columns) of one block; it must hold what the block's ``values`` promises."""
    v = b.values
    assert not x[..., b.cols :].any(), f"{where}: columns past {b.cols} are written"
    if v in ("thresholds", "one-hot", "0/1"):
        assert np.isin(x, (0, 1)).all(), f"{where}: not 0/1"
    if v == "thresholds":
        g = x.reshape(x.shape[0], len(b.seats), 4, -1)
        assert (np.diff(g, axis=2) <= 0).all(), f"{where}: count >= i+1 without count >= i"
    elif v == "one-hot":
        assert (x.sum(-1) <= 1).all(), f"{where}: more than one 1"
    elif v == "0/1":
        pass  # checked above
    elif v == "count":
        assert (x >= 0).all() and (x == np.round(x)).all(), f"{where}: not a count"
    elif v == "plane":
        assert (x == x[..., :1]).all() and (x >= 0).all() and (x <= 1).all(), f"{where}: not one value in [0, 1]"
    elif v == "quarters":
        assert (x >= 0).all() and (x * 4 == np.round(x * 4)).all(), f"{where}: not quarters"
    elif v == "fraction":
        assert (x >= 0).all() and (x <= 1).all(), f"{where}: outside [0, 1]"
    elif v == "scaled":
        assert (x >= 0).all(), f"{where}: negative"
    elif v == "clipped":
        assert (np.abs(x) <= pv.SCORE_CLIP).all(), f"{where}: outside +-SCORE_CLIP"
    elif v == "scalars":
        for s, at in zip(pv.SCALARS, starts(pv.SCALARS)):
            _check_values(x[:, :, at : at + s.n], s, f"{where} {s.const}")  # a scalar block: one row
    else:
        raise AssertionError(f"{where}: no check for values {v!r}")


@pytest.mark.parametrize(
    "rules",
    [Rules(episode="game"), Rules.make("strict16", declare_ready=True), Rules.make("hongkong", episode="game")],
    ids=["standard", "strict16", "hongkong"],
)
def test_encoders_write_what_the_channel_table_says(rules):
    """The documented ``values`` and ``cols`` of every block (planes_v0 with derived and revealed kongs,
    oracle_v0) hold in every state of random games, for every seat."""
    enc, orc = PlanesV0(derived=True, reveal_ankong=True), OracleV0(derived=True)
    seen = []
    for eng in _random_states(rules, B=6, seed=4, steps=300):
        for seat in range(4):
            seen.append(
                np.concatenate([enc.encode(eng, seats=seat), orc.encode(eng, seats=seat)[:, enc.n_channels :]], 1)
            )
    x = np.concatenate(seen)
    blocks = pv.blocks(True) + ov.CHANNELS
    at = starts(blocks)
    assert at[-1] == x.shape[1]
    for b, a in zip(blocks, at):
        _check_values(x[:, a : a + b.n], b, b.const)
    # the checks bite: each kind of block is written somewhere in these games
    assert {b.values for b, a in zip(blocks, at) if x[:, a : a + b.n].any()} == {b.values for b in blocks}


def test_readable_hides_other_hands():
    eng = Engine(Rules(), batch_size=1)
    eng.reset(7)
    me = int(eng.current_player[0])
    d = readable(eng, 0, view=me)
    assert all(set(x["hand"]) == {"?"} for x in d["seats"] if x["seat"] != me)
    assert "?" not in d["seats"][me]["hand"] and d["phase"] == "turn" and d["wall"] == eng.wall_drawable[0]
    full = readable(eng, 0)
    assert all("?" not in x["hand"] for x in full["seats"])
    txt = render_table(full)
    assert "wall" in txt and "discards" in txt and "legal:" in txt


def test_oracle_front_row_is_the_next_draw():
    orc = OracleV0()
    base = pv.N_CHANNELS
    checked = 0
    prev = None
    for eng in _random_states(Rules(), B=4, seed=11, steps=300):
        g = eng.s.g
        if prev is not None:
            for b, (head, front0) in enumerate(prev):
                if g[b, st.G_HEAD] == head + 1 and g[b, st.G_DRAWSRC] == st.SRC_FRONT and front0 >= 0:
                    assert g[b, st.G_LAST_DRAWN] == front0
                    checked += 1
        x = orc.encode(eng, seats=0)
        row = x[:, base + ov.O_FRONT]
        prev = [(int(g[b, st.G_HEAD]), int(row[b].argmax()) if row[b].any() else -1) for b in range(4)]
    assert checked > 20


def test_planes_v0_encode_rows_is_the_batch_encoders_rows():
    from envs.engine.api import Engine
    from envs.obs.planes_v0 import PlanesV0

    eng = Engine(batch_size=6)
    eng.reset(4)
    for derived in (False, True):
        enc = PlanesV0(derived=derived)
        rows, seats = np.array([4, 1, 1], np.int64), np.array([0, 2, 3], np.int64)
        out = enc.encode_rows(eng, enc.alloc(5), rows, seats)[:3]
        for i in range(3):
            np.testing.assert_array_equal(out[i], enc.encode(eng, seats=int(seats[i]))[rows[i]])
