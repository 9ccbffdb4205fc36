"""The C++ engine parts (envs._core: claims, mask, wall, side, ledger) against the Numba engine.

Random games are played with the Numba engine (envs.engine.api.Engine) under the profiles standard,
strict16, casual, hongkong (with its options) and the extras pack. At every decision of every live
game the C++ ``mask_rows`` must reproduce the engine's mask, and the claim / win helpers must give
the Numba results on the seats in question (the discarder's opponents on a claim, the seat to move
on a turn). On copies of the same states the C++ parts that change the state (``deal``, ``fill_wall``,
``draw_tile``, ``open_claims``, ``open_rob``, ``roll_dice``, ``chase_side``) must leave
identical arrays, random stream included. The 拉 ledger and the side payments are compared on random
inputs. TW16_DIFF_N (default 1) scales every count; the counts are printed (-s).
"""

from __future__ import annotations

import os
import zlib

import numpy as np
import pytest

core = pytest.importorskip("envs._core")
if not hasattr(core, "mask_rows"):
    pytest.skip("envs._core was built without the engine parts", allow_module_level=True)

from envs.engine import actions as A  # noqa: E402
from envs.engine import claims as NC  # noqa: E402
from envs.engine import ledger as NL  # noqa: E402
from envs.engine import mask as NM  # noqa: E402
from envs.engine import side as NS  # noqa: E402
from envs.engine import state as st  # noqa: E402
from envs.engine import wall as NW  # noqa: E402
from envs.engine.api import Engine  # noqa: E402
from envs.hand.analysis import discard_shanten  # noqa: E402
from envs.rules import OPT_BASE, Rules  # noqa: E402
from envs.scoring.profile import PO_SHAPES  # noqa: E402

SCALE = max(1, int(os.environ.get("TW16_DIFF_N", "1")))
BATCH = 16

HK_ALL_OFF = {"multi_win": False, "strict_pass": False, "swap_call": True, "declare_ready": False,
              "flower_win": "auto", "dice_payments": False, "settlement": "immediate", "la_cut": "none"}
# (profile, options, decisions at TW16_DIFF_N=1)
CONFIGS = [
    ("standard", {}, 1400),
    ("standard", {"flowers": False, "dead_wall": 0}, 600),
    ("standard", {"multi_win": True, "strict_pass": True, "no_calls_last3": False, "no_kong_after_claim": False,
                  "kong_replacement_self_draw": False, "swap_call": False, "dead_wall_per_kong": True,
                  "streak_cap": 1}, 1000),
    ("standard", {"dead_wall": 60}, 600),
    ("strict16", {}, 1200),
    ("strict16", {"swap_call": False, "declare_ready": True}, 600),
    ("casual", {}, 1200),
    ("casual", {"flowers": False, "west_draw": True}, 600),
    ("hongkong", {}, 1400),
    ("hongkong", HK_ALL_OFF, 600),
    ("hongkong", {"dead_wall": 60, "flower_win": "offer"}, 600),
    ("hongkong", {"episode": "game", "la_cut_policy": "ask", "dice_payments": True, "strict_pass": True}, 1000),
    ("hongkong", {"dealer_pays_on_self_draw": True, "flowers": False, "count_method": 2}, 600),
    ("standard", {"extras": True}, 1000),
    ("strict16", {"extras": True}, 600),
    ("casual", {"extras": True, "unrelated_gap": 2}, 800),
]

COUNTS: dict[str, int] = {}


def _count(key: str, n: int = 1) -> None:
    COUNTS[key] = COUNTS.get(key, 0) + n


def _copy(S):
    return st.State(*[np.array(a, copy=True) for a in S])


def _assert_same_state(Sn, Sc, what):
    for name, a, c in zip(st.State._fields, Sn, Sc):
        assert np.array_equal(a, c), f"{what}: S.{name} differs"


# --------------------------------------------------------------------------------------- policy
def _choose(rng, eng, b, sh):
    """A legal action: often the win, ready or a claim, mostly shanten-greedy discards (so that
    ready hands, wins, kongs and claims all occur), sometimes uniform."""
    m = eng.s.mask[b]
    legal = np.flatnonzero(m)
    if m[A.WIN] and rng.random() < 0.9:
        return A.WIN
    if m[A.READY] and rng.random() < 0.6:
        return A.READY
    claims = [a for a in legal if A.CHI <= a < A.WIN]
    if claims and rng.random() < 0.3:
        return int(rng.choice(claims))
    g = eng.s.g[b]
    if g[st.G_PHASE] == st.PH_TURN and rng.random() < 0.95:
        seat = g[st.G_CUR]
        discard_shanten(eng.s.hands[b, seat], 5 - eng.s.p[b, seat, st.P_NMELDS], sh)
        cand = [k for k in range(34) if m[k]]
        if cand:
            best = min(sh[k] for k in cand)
            return int(rng.choice([k for k in cand if sh[k] == best]))
    return int(rng.choice(legal))


# --------------------------------------------------------------------------------------- checks
def _check_mask(eng):
    S, e = eng.s, eng
    mask = np.zeros_like(S.mask)
    hands = S.hands.copy()
    core.mask_rows(mask, S.g, S.p, hands, S.melds, S.terminated, e.opts, e.cfg, e.prof[2])
    assert np.array_equal(hands, S.hands)
    bad = np.flatnonzero((mask != S.mask).any(axis=1))
    assert bad.size == 0, (f"mask differs in game {bad[0]}: numba {np.flatnonzero(S.mask[bad[0]])} "
                           f"c++ {np.flatnonzero(mask[bad[0]])}")
    _count("decisions (mask_rows compared)", int((~S.terminated).sum()))
    idx = np.flatnonzero(~S.terminated)
    live, ph = S.mask[idx], S.g[idx, st.G_PHASE]
    turn = idx[ph == st.PH_TURN]
    held = (S.hands[turn, S.g[turn, st.G_CUR]] > 0).sum(1)
    for name, hit in (("WIN", live[:, A.WIN]), ("READY", live[:, A.READY]), ("CHI", live[:, A.CHI:A.CHI + 3].any(1)),
                      ("PON", live[:, A.PON]), ("KONG", live[:, A.KONG]),
                      ("SELF_KONG", live[:, A.SELF_KONG:A.SELF_KONG + 34].any(1)),
                      ("a held kind barred from discard", S.mask[turn, :34].sum(1) < held),
                      ("flower / la-cut decision", (ph == st.PH_FLOWER) | (ph == st.PH_LA_CUT))):
        _count(f"  masks with {name}", int(np.sum(hit)))


def _check_seat_wins(h, nm, p_opts, ts):
    """may_win / wins_with on one seat's counts for the kinds ts (the Numba one on a copy)."""
    shapes = int(p_opts[PO_SHAPES])
    for t in ts:
        t = int(t)
        assert core.may_win(h, t, shapes) == NC.may_win(h.copy(), t, shapes), ("may_win", h, t, shapes)
        _count("may_win")
        if t >= 0:
            assert core.wins_with(h, nm, t, p_opts) == NC.wins_with(h.copy(), nm, t, p_opts), ("wins_with", h, nm, t)
            _count("wins_with")


def _check_claim_decision(eng, b, rng):
    S, e = eng.s, eng
    g, p, hands = S.g[b], S.p[b], S.hands[b]
    p_opts = e.prof[2]
    d = int(g[st.G_TURN])
    t = int(g[st.G_TILE])
    for i in range(1, 4):
        s = (d + i) % 4
        h = hands[s]
        nm = int(p[s, st.P_NMELDS])
        if g[st.G_PHASE] == st.PH_CLAIM and t >= 0:
            want = NC.claim_options(g.copy(), p[s].copy(), h.copy(), s, d, t, e.opts, p_opts)
            got = core.claim_options(g, p[s], h, s, d, t, e.opts, p_opts)
            assert got == want, ("claim_options", b, s, d, t, got, want)
            _count("claim_options")
        _check_seat_wins(h, nm, p_opts, [t, int(rng.integers(-1, 34))])
        if t >= 0 and t < 27:  # the 食替 check for each chow the tile could complete
            for lo in range(max(t - 2, 9 * (t // 9)), min(t, 9 * (t // 9) + 6) + 1):
                used = [k for k in (lo, lo + 1, lo + 2) if k != t]
                sw = bool(rng.integers(2))
                assert core.chi_has_discard(h, t, lo, used[0], used[1], sw) == NC.chi_has_discard(
                    h, t, lo, used[0], used[1], sw)
                _count("chi_has_discard")
        if rng.random() < 0.3:
            ms = S.melds[b, s]
            k = int(rng.integers(34))
            assert core.held_all(h, ms, nm, k) == NM.held_all(h, ms, nm, k)
            assert core.is_concealed(ms, nm) == NM.is_concealed(ms, nm)
            _count("held_all / is_concealed")
            assert core.is_ready_hand(h, S.melds[b, s], nm, p_opts) == NM.is_ready_hand(
                h.copy(), S.melds[b, s], nm, p_opts)
            _count("is_ready_hand")
    if t < 0:
        return
    # open_claims / open_rob on copies of the game's rows: identical rows and answers
    for fn_n, fn_c, extra in ((NC.open_claims, core.open_claims, (e.opts,)),
                              (NC.open_rob, core.open_rob, (bool(rng.integers(2)),))):
        gn, pn, hn = g.copy(), p.copy(), hands.copy()
        gc, pc, hc = g.copy(), p.copy(), hands.copy()
        for s in range(4):  # answers reset, options recomputed
            pn[s, st.P_CLAIM] = pc[s, st.P_CLAIM] = 0
        rn = fn_n(gn, pn, hn, t, *extra, p_opts)
        rc = fn_c(gc, pc, hc, t, *extra, p_opts)
        assert rn == rc and np.array_equal(gn, gc) and np.array_equal(pn, pc) and np.array_equal(hn, hc), fn_n
        _count(fn_n.__name__)
        if fn_n is NC.open_claims and g[st.G_PHASE] == st.PH_CLAIM and (p[:, st.P_ANSWER] < 0).all():
            # the first decision of a claim: the options are the ones the engine stored
            assert np.array_equal(pc[:, st.P_CLAIM], p[:, st.P_CLAIM])
            _count("claim bits equal to the engine's")


def _check_turn_decision(eng, b, rng):
    S, e = eng.s, eng
    g, p = S.g[b], S.p[b]
    p_opts = e.prof[2]
    seat = int(g[st.G_CUR])
    h, ms, ps = S.hands[b, seat], S.melds[b, seat], p[seat]
    nm = int(ps[st.P_NMELDS])
    assert core.turn_win_ok(g, ps, h, e.opts, p_opts) == NM.turn_win_ok(g, ps, h.copy(), e.opts, p_opts)
    assert core.can_declare_ready(g, ps, h, ms, e.opts, e.cfg, p_opts) == NM.can_declare_ready(
        g, ps, h.copy(), ms, e.opts, e.cfg, p_opts)
    _count("turn_win_ok / can_declare_ready")
    _check_seat_wins(h, nm, p_opts, [-1])
    # after one random discard: the 3n+1 hand's waits over every kind
    held = np.flatnonzero(h > 0)
    dk = int(rng.choice(held))
    h1 = h.copy()
    h1[dk] -= 1
    _check_seat_wins(h1, nm, p_opts, range(34))
    assert core.ready_after_discard(h, ms, nm, dk, p_opts) == NM.ready_after_discard(h.copy(), ms, nm, dk, p_opts)
    _count("ready_after_discard")
    assert core.tiles_left(g, e.opts) == NC.tiles_left(g, e.opts)
    assert core.kong_allowed(g, e.opts) == NC.kong_allowed(g, e.opts)


def _check_state_parts(eng, b, rng):
    """deal / fill_wall / roll_dice / chase_side on copies of the live state."""
    e = eng
    what = str(rng.choice(["deal", "deal", "deal_script", "fill_wall", "roll_dice", "chase_side", "draw_tile",
                           "draw_tile"]))
    Sn = _copy(e.s)
    if what == "deal_script":  # a scripted wall: the copy is dealt from it, G_SCRIPT_USED advances
        script = np.stack([rng.permutation(144).astype(np.uint8) for _ in range(2)])[None].repeat(e.batch_size, 0)
        Sn = Sn._replace(script=script)
        Sn.g[b, st.G_SCRIPT_USED] = int(rng.integers(0, 3))
    Sc = _copy(Sn)
    if what.startswith("deal"):
        rn = NW.deal(Sn, b, e.opts, e.prof)
        rc = core.deal(Sc, b, e.opts, e.prof)
        assert rn == rc, what
    elif what == "draw_tile":  # a front or replacement draw for some seat, from this state
        seat, tail = int(rng.integers(4)), bool(rng.integers(2))
        src = int(rng.choice([st.SRC_FRONT, st.SRC_FLOWER, st.SRC_KONG, st.SRC_EXPOSED_KONG]))
        if Sn.hands[b, seat].sum() + 3 * Sn.p[b, seat, st.P_NMELDS] > 16:
            return  # only a hand that may take a tile
        assert NW.draw_tile(Sn, b, seat, tail, src, e.opts, e.prof) == core.draw_tile(Sc, b, seat, tail, src, e.opts,
                                                                                     e.prof)
    elif what == "fill_wall":
        NW.fill_wall(Sn, b, e.opts)
        core.fill_wall(Sc, b, e.opts)
    elif what == "roll_dice":
        NS.roll_dice(Sn, b, e.opts)
        core.roll_dice(Sc, b, e.opts)
    else:
        NS.chase_side(Sn, b, e.opts)
        core.chase_side(Sc, b, e.opts)
    _assert_same_state(Sn, Sc, what)
    _count(f"state parts: {what}")


def _play(profile, opts, decisions, seed):
    rules = Rules.make(profile, **opts)
    eng = Engine(rules, BATCH)
    rng = np.random.default_rng(seed)
    sh = np.zeros(34, np.int64)
    eng.reset(int(rng.integers(1 << 30)))
    done = 0
    while done < decisions:
        _check_mask(eng)
        S = eng.s
        live = np.flatnonzero(~S.terminated)
        if live.size == 0:
            eng.reset(int(rng.integers(1 << 30)))
            continue
        for b in live:
            ph = S.g[b, st.G_PHASE]
            if ph in (st.PH_CLAIM, st.PH_ROB, st.PH_READY0):
                _check_claim_decision(eng, int(b), rng)
            elif ph == st.PH_TURN:
                _check_turn_decision(eng, int(b), rng)
        b = int(rng.choice(live))
        _check_state_parts(eng, b, rng)
        done += live.size
        actions = np.zeros(BATCH, np.int64)
        for b in range(BATCH):
            actions[b] = _choose(rng, eng, b, sh) if not S.terminated[b] else 0
        eng.step(actions)
    return done


@pytest.mark.parametrize("profile,opts,decisions", CONFIGS)
def test_engine_parts_match_numba_in_random_games(profile, opts, decisions):
    seed = zlib.crc32(repr((profile, sorted(opts.items()))).encode())  # (str hashes vary per process)
    n = _play(profile, opts, decisions * SCALE, seed)
    assert n >= decisions * SCALE
    print(f"\n{profile} {opts}: {n} decisions; totals so far: {COUNTS} (differences: 0)")


# --------------------------------------------------------------------------------------- ledger
def _random_ledger(rng):
    la = np.zeros((4, 4), np.float64)
    la_k = np.zeros((4, 4), np.int32)
    for x in range(4):
        for y in range(x + 1, 4):
            if rng.random() < 0.5:
                d, c = (x, y) if rng.random() < 0.5 else (y, x)
                la[d, c] = rng.integers(1, 4000) / 2.0
                la_k[d, c] = rng.integers(1, 8)
    return la, la_k


def test_ledger_matches_numba():
    rng = np.random.default_rng(5)
    n = 3000 * SCALE
    for _ in range(n):
        la, la_k = _random_ledger(rng)
        paid = rng.integers(-1000, 1000, 4)
        legs = np.where(rng.random((4, 4)) < 0.4, rng.integers(0, 3000, (4, 4)), 0).astype(np.int64)
        np.fill_diagonal(legs, 0)
        cut, ask = int(rng.integers(0, 4)), int(rng.integers(0, 2))
        a = (la.copy(), la_k.copy(), paid.copy())
        c = (la.copy(), la_k.copy(), paid.copy())
        assert NL.la_hand(a[0], a[1], legs, cut, ask, a[2]) == core.la_hand(c[0], c[1], legs, cut, ask, c[2])
        for u, v in zip(a, c):
            assert np.array_equal(u, v)
        x, y = (int(v) for v in rng.choice(4, 2, replace=False))
        val = int(rng.integers(-3000, 3000)) * int(rng.integers(0, 2))
        assert NL.la_pair(a[0], a[1], x, y, val, a[2]) == core.la_pair(c[0], c[1], x, y, val, c[2])
        NL.la_close_all(a[0], a[1], a[2])
        core.la_close_all(c[0], c[1], c[2])
        for u, v in zip(a, c):
            assert np.array_equal(u, v)
        amt = float(rng.integers(-4000, 4000)) / float(rng.choice([1, 2, 4, 3]))
        d, cc = (int(v) for v in rng.choice(4, 2, replace=False))
        NL.pay_rounded(a[2], d, cc, amt)
        core.pay_rounded(c[2], d, cc, amt)
        assert np.array_equal(a[2], c[2]), amt
    _count("ledger cases", n)


def test_side_payments_match_numba():
    rng = np.random.default_rng(6)
    n = 3000 * SCALE
    opts = Rules.make("hongkong").as_array()
    for _ in range(n):
        o = opts.copy()
        o[OPT_BASE] = int(rng.integers(0, 101))
        p = np.zeros((4, st.NP), np.int64)
        p[:, st.P_FLOWERS] = rng.integers(0, 256, 4)
        p[:, st.P_FLOWER_PAID] = rng.integers(0, 8, 4)
        p[:, st.P_SIDE] = rng.integers(-500, 500, 4)
        seat = int(rng.integers(4))
        halves = int(rng.integers(-5, 9))
        assert NS.base_chips(o, halves) == core.base_chips(o, halves)
        pn, pc = p.copy(), p.copy()
        NS.flower_side(pn, seat, o)
        core.flower_side(pc, seat, o)
        NS.all_pay(pn, seat, halves * 7)
        core.all_pay(pc, seat, halves * 7)
        assert np.array_equal(pn, pc)
    _count("side cases", n)


def test_chase_side_matches_numba():
    """追 on rivers built to hit and to just miss it (seat order, claimed, kinds)."""
    rng = np.random.default_rng(7)
    eng = Engine(Rules.make("hongkong"), 4)
    eng.reset(3)
    n = 2000 * SCALE
    hits = 0
    for _ in range(n):
        S = _copy(eng.s)
        b = int(rng.integers(4))
        m = int(rng.integers(0, 10))
        first = int(rng.integers(4))
        k = int(rng.integers(34))
        for i in range(m):
            S.river[b, i] = (k, (first + i) % 4, -1, 0)
        if m and rng.random() < 0.4:  # spoil one entry
            i = int(rng.integers(m))
            j = int(rng.integers(3))
            S.river[b, i, j] = (S.river[b, i, j] + 1) % 4 if j else (k + 1) % 34
        S.g[b, st.G_NRIVER] = m
        Sc = _copy(S)
        before = S.p[b, :, st.P_SIDE].copy()
        NS.chase_side(S, b, eng.opts)
        core.chase_side(Sc, b, eng.opts)
        _assert_same_state(S, Sc, "chase_side")
        hits += not np.array_equal(before, S.p[b, :, st.P_SIDE])
    assert hits > n // 10
    _count("chase_side cases", n)


def test_deal_matches_numba_fresh_states():
    """deal from fresh rng states (B games, every dealer, every profile kind): identical walls,
    hands, flowers, side payments, random streams afterwards."""
    n = 0
    for profile, opts in (("standard", {}), ("hongkong", {"dice_payments": True}), ("casual", {"flowers": False}),
                          ("hongkong", {"flower_win": "offer", "dead_wall": 60})):
        eng = Engine(Rules.make(profile, **opts), 64)
        rng = np.random.default_rng(len(profile))
        for _ in range(4 * SCALE):
            eng.reset(int(rng.integers(1 << 30)))
            S = _copy(eng.s)
            S.rng[:] = rng.integers(0, 1 << 63, S.rng.shape[0], dtype=np.uint64)
            S.g[:, st.G_DEALER] = rng.integers(0, 4, S.rng.shape[0])
            Sc = _copy(S)
            for b in range(S.rng.shape[0]):
                assert NW.deal(S, b, eng.opts, eng.prof) == core.deal(Sc, b, eng.opts, eng.prof)
                n += 1
            _assert_same_state(S, Sc, f"deal {profile}")
    _count("fresh deals", n)


# ------------------------------------------------------------------------------------ bad input
def test_bad_input_is_refused():
    eng = Engine(Rules(), 2)
    eng.reset(1)
    S = _copy(eng.s)
    o, c, po = eng.opts, eng.cfg, eng.prof[2]
    h = S.hands[0, 0].copy()
    with pytest.raises(TypeError, match="h: expected dtype int8"):
        core.may_win(h.astype(np.int64), 3, 0)
    with pytest.raises(ValueError, match="h: expected axis 0 of size 34"):
        core.wins_with(h[:30], 0, 3, po)
    with pytest.raises(ValueError, match="t: expected -1..33, got 34"):
        core.may_win(h, 34, 0)
    with pytest.raises(ValueError, match="t: expected 0..33, got -1"):
        core.wins_with(h, 0, -1, po)
    with pytest.raises(ValueError, match="n_melds: expected 0..5, got 6"):
        core.wins_with(h, 6, 3, po)
    bad = h.copy()
    bad[5] = 5
    with pytest.raises(ValueError, match="h: counts must be 0..4"):
        core.wins_with(bad, 0, 3, po)
    with pytest.raises(ValueError, match="nm: expected 0..5, got 6"):
        core.held_all(h, S.melds[0, 0], 6, 3)
    with pytest.raises(ValueError, match="k: expected 0..33, got 34"):
        core.held_all(h, S.melds[0, 0], 0, 34)
    with pytest.raises(ValueError, match="ms: expected axis 0 of size 5"):
        core.is_concealed(S.melds[0, 0, :4], 0)
    with pytest.raises(ValueError, match="s: expected 0..3, got 4"):
        core.claim_options(S.g[0], S.p[0, 0], h, 4, 0, 3, o, po)
    with pytest.raises(ValueError, match="opts: expected axis 0 of size"):
        core.tiles_left(S.g[0], o[:-1])
    with pytest.raises(ValueError, match="p_opts: expected 1 dimensions"):
        core.wins_with(h, 0, 3, po[None])
    # mask_rows: shapes, and the seat / kinds it indexes with
    m = np.zeros_like(S.mask)
    with pytest.raises(ValueError, match="mask: expected axis 0 of size 2"):
        core.mask_rows(m[:1], S.g, S.p, S.hands, S.melds, S.terminated, o, c, po)
    with pytest.raises(TypeError):
        core.mask_rows(m, S.g, S.p, S.hands.view(np.uint8), S.melds, S.terminated, o, c, po)
    g = S.g.copy()
    g[1, st.G_PHASE] = st.PH_TURN
    g[1, st.G_CUR] = 7
    with pytest.raises(ValueError, match=r"game 1: g\[G_CUR\]: expected 0..3, got 7"):
        core.mask_rows(m, g, S.p, S.hands, S.melds, S.terminated, o, c, po)
    g = S.g.copy()
    g[0, st.G_PHASE] = st.PH_TURN
    g[0, st.G_SWAP1] = 40
    with pytest.raises(ValueError, match=r"game 0: g\[G_SWAP1\]"):
        core.mask_rows(m, g, S.p, S.hands, S.melds, S.terminated, o, c, po)
    p = S.p.copy()
    p[0, :, st.P_NMELDS] = 9
    with pytest.raises(ValueError, match="P_NMELDS"):
        core.mask_rows(m, g * 0, p, S.hands, S.melds, S.terminated, o, c, po)
    with pytest.raises(TypeError):  # read-only mask: refused by nanobind
        mm = m.copy()
        mm.setflags(write=False)
        core.mask_rows(mm, S.g, S.p, S.hands, S.melds, S.terminated, o, c, po)
    # state-level functions: the namedtuple, b, the dealer, the script
    with pytest.raises(ValueError, match="b: expected 0..1, got 2"):
        core.deal(S, 2, o, eng.prof)
    with pytest.raises(TypeError, match="S.rng: expected dtype uint64"):
        core.fill_wall(S._replace(rng=S.rng.astype(np.int64)), 0, o)
    with pytest.raises(ValueError, match="S.hands: expected axis 1 of size 4"):
        core.deal(S._replace(hands=S.hands[:, :3]), 0, o, eng.prof)
    with pytest.raises(TypeError, match="prof"):
        core.deal(S, 0, o, eng.prof[:2])
    S2 = _copy(S)
    S2.g[0, st.G_DEALER] = -1
    with pytest.raises(ValueError, match=r"G_DEALER\]: expected 0..3, got -1"):
        core.deal(S2, 0, o, eng.prof)
    S2 = _copy(S)._replace(script=np.full((2, 1, 144), 3, np.uint8))
    S2.g[:, st.G_SCRIPT_USED] = 0
    with pytest.raises(ValueError, match="permutation"):
        core.deal(S2, 0, o, eng.prof)
    S2.g[0, st.G_SCRIPT_USED] = -1
    with pytest.raises(ValueError, match="G_SCRIPT_USED"):
        core.fill_wall(S2, 0, o)
    S2 = _copy(S)
    S2.g[0, st.G_NRIVER] = 500
    with pytest.raises(ValueError, match="G_NRIVER"):
        core.chase_side(S2, 0, o)
    # ledger
    la, la_k, paid = np.zeros((4, 4)), np.zeros((4, 4), np.int32), np.zeros(4, np.int64)
    with pytest.raises(ValueError, match="d: expected 0..3, got 4"):
        core.la_close(la, la_k, 4, 0, paid)
    with pytest.raises(TypeError, match="la_k: expected dtype int32"):
        core.la_close_all(la, la_k.astype(np.int64), paid)
    with pytest.raises(ValueError, match="paid: expected axis 0 of size 4"):
        core.pay_rounded(paid[:3], 0, 1, 2.5)
    with pytest.raises(ValueError, match="seat: expected 0..3"):
        core.flower_side(S.p[0], -1, o)
    # nothing above wrote into the state
    _assert_same_state(eng.s, S, "after refused calls")


def test_print_counts():
    print(f"\nengine parts differential counts (TW16_DIFF_N={SCALE}): {COUNTS}; differences: 0")
