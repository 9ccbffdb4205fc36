"""The engine parts bound in envs._core (claims, mask, wall, side, ledger) against the engine that uses
them and against the rules they implement.

Random games are played with the engine (envs.engine.api.Engine) under the profiles standard,
strict16, casual, hongkong (with its options) and the extras pack. At every decision of every live
game the bound ``mask_rows`` must reproduce the mask the engine stored, the claim options the claim
bits it stored, ``turn_win_ok`` / ``can_declare_ready`` its WIN / READY entries, and the win helpers
the full winning-shape check (``may_win`` never rejecting a win). On copies of the same states the
parts that change the state (``deal``, ``fill_wall``, ``draw_tile``, ``open_claims``, ``open_rob``,
``roll_dice``, ``chase_side``) must be deterministic and keep every tile accounted for (a dealt hand
passes the invariant checker). The 拉 ledger and the side payments are checked against HONGKONG.md
4 and 5 on random inputs (tests/test_hk_ledger.py has the worked example). TW16_DIFF_N (default 1)
scales every count; the counts are printed (-s). The bad-input tests are the boundary's.
"""

from __future__ import annotations

import math
import os
import zlib

import numpy as np
import pytest

from envs import _core as core
from envs._core import _testing
from envs.engine import actions as A
from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.invariants import ERROR_NAMES
from envs.engine.mask import native_rules
from envs.rules import OPT_BASE, OPT_DEAD_WALL_PER_KONG, OPT_DECLARE_READY, OPT_DICE, OPT_FLOWERS, Rules
from envs.scoring.profile import PO_SHAPES
from envs.tiles import FLOWER0, FLOWER_ID0, MELD_ANKONG, Meld

SCALE = max(1, int(os.environ.get("TW16_DIFF_N", "1")))
BATCH = 16

HK_ALL_OFF = {
    "multi_win": False,
    "strict_pass": False,
    "swap_call": True,
    "declare_ready": False,
    "flower_win": "auto",
    "dice_payments": False,
    "settlement": "immediate",
    "la_cut": "none",
}
# (profile, options, decisions at TW16_DIFF_N=1)
CONFIGS = [
    ("standard", {}, 1400),
    ("standard", {"flowers": False, "dead_wall": 0}, 600),
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
        },
        1000,
    ),
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


def _assert_same_state(Sa, Sb, what):
    for name, a, c in zip(st.State._fields, Sa, Sb):
        assert np.array_equal(a, c), f"{what}: S.{name} differs"


def _tiles(S, b, opts):
    """Every tile of game b: (34 kinds, 8 flowers) over the live wall, hands, melds, unclaimed
    discards and flowers (the invariant checker's E_TILES count)."""
    cnt = np.zeros(42, np.int64)
    g = S.g[b]
    for t in S.wall[b, g[st.G_HEAD] : g[st.G_TAIL] + 1].astype(np.int64):
        cnt[FLOWER0 + t - FLOWER_ID0 if t >= FLOWER_ID0 else t >> 2] += 1
    cnt[:34] += S.hands[b].sum(0)
    for s in range(4):
        fl = S.p[b, s, st.P_FLOWERS] | S.p[b, s, st.P_HELD_FLOWERS]
        cnt[34:] += [(fl >> f) & 1 for f in range(8)]
        for mt, mk, _ in S.melds[b, s, : S.p[b, s, st.P_NMELDS]].astype(np.int64):
            np.add.at(cnt, Meld(int(mt), int(mk)).kinds, 1)
    r = S.river[b, : g[st.G_NRIVER]].astype(np.int64)
    np.add.at(cnt, r[r[:, 2] < 0, 0], 1)
    want = np.full(42, 4)
    want[34:] = 1 if opts[OPT_FLOWERS] else 0
    return cnt, want


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
        core.discard_shanten(eng.s.hands[b, seat], 5 - eng.s.p[b, seat, st.P_NMELDS], sh)
        cand = [k for k in range(34) if m[k]]
        if cand:
            best = min(sh[k] for k in cand)
            return int(rng.choice([k for k in cand if sh[k] == best]))
    return int(rng.choice(legal))


# ------------------------------------------------------------------------------ rule references
def _wins(h, nm, t, shapes):
    """The full check: h plus one t (none if t < 0) is a winning shape."""
    if t >= 0:
        if h[t] >= 4:
            return False
        h = h.copy()
        h[t] += 1
    return bool(core.is_win(h, 5 - nm, shapes))


def _held_all(h, ms, nm, k):
    n = int(h[k])
    for mt, mk, _ in ms[:nm].astype(np.int64):
        n += Meld(int(mt), int(mk)).kinds.count(k)
    return n


def _ready(h, ms, nm, shapes):
    """Waits on some kind the seat does not hold all four of."""
    return any(_held_all(h, ms, nm, t) < 4 and _wins(h, nm, t, shapes) for t in range(34))


def _chi_has_discard(h, t, lo, used1, used2, swap_ok):
    """RULES 2.6: some discard is left after the chi; swap_call off bans (食替) the claimed kind and
    the kind at the other end of the two tiles used."""
    bans = set()
    if not swap_ok:
        bans.add(t)
        if t == lo and t % 9 <= 5:
            bans.add(t + 3)
        elif t == lo + 2 and t % 9 >= 3:
            bans.add(t - 3)
    return any(h[k] - (k == used1) - (k == used2) > 0 and k not in bans for k in range(34))


# --------------------------------------------------------------------------------------- checks
def _check_mask(eng):
    S, e = eng.s, eng
    mask = np.zeros_like(S.mask)
    hands = S.hands.copy()
    core.mask_rows(mask, S.g, S.p, hands, S.melds, S.terminated, e.native)
    assert np.array_equal(hands, S.hands)
    bad = np.flatnonzero((mask != S.mask).any(axis=1))
    assert bad.size == 0, (
        f"mask differs in game {bad[0]}: engine {np.flatnonzero(S.mask[bad[0]])} "
        f"mask_rows {np.flatnonzero(mask[bad[0]])}"
    )
    _count("decisions (mask_rows compared)", int((~S.terminated).sum()))
    idx = np.flatnonzero(~S.terminated)
    live, ph = S.mask[idx], S.g[idx, st.G_PHASE]
    turn = idx[ph == st.PH_TURN]
    held = (S.hands[turn, S.g[turn, st.G_CUR]] > 0).sum(1)
    for name, hit in (
        ("WIN", live[:, A.WIN]),
        ("READY", live[:, A.READY]),
        ("MELD_CHI", live[:, A.CHI : A.CHI + 3].any(1)),
        ("MELD_PON", live[:, A.PON]),
        ("MELD_KONG", live[:, A.KONG]),
        ("SELF_KONG", live[:, A.SELF_KONG : A.SELF_KONG + 34].any(1)),
        ("a held kind barred from discard", S.mask[turn, :34].sum(1) < held),
        ("flower / la-cut decision", (ph == st.PH_FLOWER) | (ph == st.PH_LA_CUT)),
    ):
        _count(f"  masks with {name}", int(np.sum(hit)))


def _check_seat_wins(h, nm, e, ts):
    """wins_with is the full check; may_win never rejects a win (under the rules of the engine e)."""
    shapes = int(e.prof[2][PO_SHAPES])
    for t in ts:
        t = int(t)
        full = _wins(h, nm, t, shapes) if t >= 0 or h.sum() % 3 == 2 else False
        if full:
            assert _testing.may_win(h, t, shapes), ("may_win rejects a win", h, t, shapes)
        else:
            _testing.may_win(h, t, shapes)
        _count("may_win")
        if t >= 0:
            assert _testing.wins_with(h, nm, t, e.native) == full, ("wins_with", h, nm, t)
            _count("wins_with")


def _check_claim_decision(eng, b, rng):
    S, e = eng.s, eng
    g, p, hands = S.g[b], S.p[b], S.hands[b]
    shapes = int(e.prof[2][PO_SHAPES])
    d = int(g[st.G_TURN])
    t = int(g[st.G_TILE])
    for i in range(1, 4):
        s = (d + i) % 4
        h = hands[s]
        nm = int(p[s, st.P_NMELDS])
        if g[st.G_PHASE] == st.PH_CLAIM and t >= 0:  # the bits stored when the tile was discarded
            got = core.claim_options(g, p[s], h, s, d, t, e.native)
            assert got == p[s, st.P_CLAIM], ("claim_options", b, s, d, t, got, p[s, st.P_CLAIM])
            _count("claim_options")
        _check_seat_wins(h, nm, e, [t, int(rng.integers(-1, 34))])
        if 0 <= t < 27:  # the 食替 check for each chow the tile could complete
            for lo in range(max(t - 2, 9 * (t // 9)), min(t, 9 * (t // 9) + 6) + 1):
                used = [k for k in (lo, lo + 1, lo + 2) if k != t]
                sw = bool(rng.integers(2))
                assert _testing.chi_has_discard(h, t, lo, used[0], used[1], sw) == _chi_has_discard(
                    h, t, lo, used[0], used[1], sw
                )
                _count("chi_has_discard")
        if rng.random() < 0.3:
            ms = S.melds[b, s]
            k = int(rng.integers(34))
            assert _testing.held_all(h, ms, nm, k) == _held_all(h, ms, nm, k)
            assert _testing.is_concealed(ms, nm) == bool((ms[:nm, 0] == MELD_ANKONG).all())
            _count("held_all / is_concealed")
            assert _testing.is_ready_hand(h, ms, nm, e.native) == _ready(h, ms, nm, shapes)
            _count("is_ready_hand")
    if t < 0:
        return
    # open_claims / open_rob on copies of the game's rows: deterministic, and they ask the seats
    # whose options they set, the first one after the turn seat
    for name, fn, extra in (
        ("open_claims", _testing.open_claims, ()),
        ("open_rob", _testing.open_rob, (bool(rng.integers(2)),)),
    ):
        runs = []
        for _ in range(2):
            gc, pc, hc = g.copy(), p.copy(), hands.copy()
            pc[:, st.P_CLAIM] = 0
            runs.append((fn(gc, pc, hc, t, *extra, e.native), gc, pc, hc))
        (r0, g0, p0, h0), (r1, g1, p1, h1) = runs
        assert r0 == r1 and np.array_equal(g0, g1) and np.array_equal(p0, p1) and np.array_equal(h0, h1), name
        assert np.array_equal(h0, hands) and all(p0[(d + i) % 4, st.P_ANSWER] == -1 for i in range(1, 4))
        asked = [(d + i) % 4 for i in range(1, 4) if p0[(d + i) % 4, st.P_CLAIM]]
        assert p0[d, st.P_CLAIM] == 0 and r0 == bool(asked), name
        if r0:
            assert g0[st.G_CUR] == asked[0] and g0[st.G_PHASE] == (st.PH_CLAIM if name == "open_claims" else st.PH_ROB)
        if name == "open_rob":
            assert (p0[:, st.P_CLAIM] & ~st.C_WIN == 0).all()  # a kong is only robbed by a win
        _count(name)
        if name == "open_claims" and g[st.G_PHASE] == st.PH_CLAIM:
            assert np.array_equal(p0[:, st.P_CLAIM], p[:, st.P_CLAIM])  # the options the engine stored
            _count("claim bits equal to the engine's")


def _check_turn_decision(eng, b, rng):
    S, e = eng.s, eng
    g, p = S.g[b], S.p[b]
    shapes = int(e.prof[2][PO_SHAPES])
    seat = int(g[st.G_CUR])
    h, ms, ps = S.hands[b, seat], S.melds[b, seat], p[seat]
    nm = int(ps[st.P_NMELDS])
    win = _testing.turn_win_ok(g, ps, h, e.native)
    ready = _testing.can_declare_ready(g, ps, h, ms, e.native)
    if not g[st.G_READY_PENDING]:  # (then the mask holds the discards that leave a ready hand only)
        assert win == S.mask[b, A.WIN] and (bool(e.opts[OPT_DECLARE_READY]) and ready) == S.mask[b, A.READY]
    if win:
        assert _wins(h, nm, -1, shapes)
    _count("turn_win_ok / can_declare_ready")
    _check_seat_wins(h, nm, e, [-1])
    # after one random discard: the 3n+1 hand's waits over every kind
    held = np.flatnonzero(h > 0)
    dk = int(rng.choice(held))
    h1 = h.copy()
    h1[dk] -= 1
    _check_seat_wins(h1, nm, e, range(34))
    assert _testing.ready_after_discard(h, ms, nm, dk, e.native) == _testing.is_ready_hand(h1, ms, nm, e.native)
    _count("ready_after_discard")
    left = core.tiles_left(g, e.native)
    assert left == eng.wall_drawable[b]
    assert _testing.kong_allowed(g, e.native) == (left - (1 if e.opts[OPT_DEAD_WALL_PER_KONG] else 0) >= 1)


def _check_state_parts(eng, b, rng):
    """deal / fill_wall / draw_tile / roll_dice / chase_side on copies of the live state: the same
    result twice, every tile still accounted for."""
    e = eng
    what = str(
        rng.choice(["deal", "deal", "deal_script", "fill_wall", "roll_dice", "chase_side", "draw_tile", "draw_tile"])
    )
    S0 = _copy(e.s)
    if what == "deal_script":  # a scripted wall: the copy is dealt from it, G_SCRIPT_USED advances
        n = 144 if e.opts[OPT_FLOWERS] else 136  # (flowers off: the flowers after the tiles in play)
        walls = [np.concatenate([rng.permutation(n), np.arange(n, 144)]).astype(np.uint8) for _ in range(2)]
        script = np.stack(walls)[None].repeat(e.batch_size, 0)
        S0 = S0._replace(script=script)
        S0.g[b, st.G_SCRIPT_USED] = int(rng.integers(0, 3))
    seat, tail = int(rng.integers(4)), bool(rng.integers(2))
    src = int(rng.choice([st.SRC_FRONT, st.SRC_FLOWER, st.SRC_KONG, st.SRC_EXPOSED_KONG]))
    if what == "draw_tile" and S0.hands[b, seat].sum() + 3 * S0.p[b, seat, st.P_NMELDS] > 16:
        return  # only a hand that may take a tile
    runs = []
    for _ in range(2):
        S = _copy(S0)
        r = None
        if what.startswith("deal"):
            r = _testing.deal(S, b, e.native)
        elif what == "draw_tile":  # a front or replacement draw for some seat, from this state
            r = _testing.draw_tile(S, b, seat, tail, src, e.native)
        elif what == "fill_wall":
            _testing.fill_wall(S, b, e.native)
        elif what == "roll_dice":
            _testing.roll_dice(S, b, e.native)
        else:
            _testing.chase_side(S, b, e.native)
        runs.append((r, S))
    assert runs[0][0] == runs[1][0], what
    _assert_same_state(runs[0][1], runs[1][1], what)
    r, S = runs[0]
    if what == "fill_wall":
        n = 144 if e.opts[OPT_FLOWERS] else 136
        assert S.g[b, st.G_WALL_N] == n and sorted(S.wall[b, :n]) == list(range(n))
    elif what == "roll_dice":
        dice = S.g[b, st.G_DICE]
        assert all(1 <= x <= 6 for x in (dice % 8, dice // 8 % 8, dice // 64)) and S.p[b, :, st.P_SIDE].sum() == 0
    if what != "fill_wall":  # (a fresh wall under the old hand's pointers: not a game state)
        cnt, want = _tiles(S, b, e.opts)
        assert np.array_equal(cnt, want), (what, cnt - want)
    if what.startswith("deal") and not r and S.g[b, st.G_OFFER] < 0:  # a dealt hand passes the checker
        S.g[b, st.G_PHASE] = st.PH_TURN
        S.terminated[b] = False
        core.mask_rows(S.mask, S.g, S.p, S.hands, S.melds, S.terminated, e.native)
        err = _testing.check_game(S, b, e.native)
        assert err == 0, (what, ERROR_NAMES[err])
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
def test_engine_parts_agree_with_the_engine_in_random_games(profile, opts, decisions):
    seed = zlib.crc32(repr((profile, sorted(opts.items()))).encode())  # (str hashes vary per process)
    n = _play(profile, opts, decisions * SCALE, seed)
    assert n >= decisions * SCALE
    print(f"\n{profile} {opts}: {n} decisions; totals so far: {COUNTS}")


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


def _assert_ledger_ok(la, la_k):
    """At most one open debt per pair; a debt is open (k > 0) exactly when R > 0."""
    assert ((la > 0) == (la_k > 0)).all() and (la >= 0).all() and (la_k >= 0).all()
    assert not ((la_k > 0) & (la_k.T > 0)).any()


def test_ledger_follows_the_rules():
    """HONGKONG.md 5.2 rules 1-4 per pair, the cut (5.3), payments rounded half up, zero-sum."""
    rng = np.random.default_rng(5)
    n = 3000 * SCALE
    for _ in range(n):
        la, la_k = _random_ledger(rng)
        paid0 = rng.integers(-1000, 1000, 4)
        legs = np.where(rng.random((4, 4)) < 0.4, rng.integers(0, 3000, (4, 4)), 0).astype(np.int64)
        np.fill_diagonal(legs, 0)
        cut, ask = int(rng.integers(0, 4)), int(rng.integers(0, 2))
        paid = paid0.copy()
        asks = _testing.la_hand(la, la_k, legs, cut, ask, paid)
        assert paid.sum() == paid0.sum()
        _assert_ledger_ok(la, la_k)
        for i in range(16):
            if (asks >> i) & 1:  # a question only on a debt whose k reached a multiple of the cut
                assert ask and cut > 0 and la_k[i // 4, i % 4] > 0 and la_k[i // 4, i % 4] % cut == 0
        if cut > 0 and not ask:  # a debt that 拉 advanced (k >= 2 after this hand) to a multiple: paid at once
            assert not ((la_k >= 2) & (la_k % cut == 0)).any()
        # la_pair, rule by rule
        x, y = (int(v) for v in rng.choice(4, 2, replace=False))
        val = int(rng.integers(-3000, 3000)) * int(rng.integers(0, 2))
        a, b, v = (x, y, val) if val >= 0 else (y, x, -val)  # the net leg runs a -> b
        before, k_before, paid0 = la.copy(), la_k.copy(), paid.copy()
        advanced = _testing.la_pair(la, la_k, x, y, val, paid)
        assert paid.sum() == paid0.sum()
        _assert_ledger_ok(la, la_k)
        if k_before[a, b] > 0 and v > 0:  # 1. 拉: R = 1.5 R + v, k + 1
            assert advanced and la[a, b] == 1.5 * before[a, b] + v and la_k[a, b] == k_before[a, b] + 1
        elif k_before[b, a] > 0 and v > 0:  # 2. 踢半: half the debt paid, a new debt a -> b
            assert not advanced and la_k[a, b] == 1 and la[a, b] == v and la_k[b, a] == 0
            assert paid[a] - paid0[a] == math.floor(before[b, a] / 2 + 0.5)
        elif k_before[a, b] > 0 or k_before[b, a] > 0:  # 3. no leg this hand: paid in full
            assert not advanced and la_k[a, b] == la_k[b, a] == 0
        elif v > 0:  # 4. a new debt
            assert not advanced and la[a, b] == v and la_k[a, b] == 1
        paid0 = paid.copy()
        open_r = la.copy()
        _testing.la_close_all(la, la_k, paid)
        assert not la.any() and not la_k.any()
        expect = paid0.copy()
        for d, c in zip(*np.nonzero(open_r)):
            amt = math.floor(open_r[d, c] + 0.5)
            expect[d] -= amt
            expect[c] += amt
        assert np.array_equal(paid, expect)
        amt = float(rng.integers(-4000, 4000)) / float(rng.choice([1, 2, 4, 3]))
        d, cc = (int(v) for v in rng.choice(4, 2, replace=False))
        paid0 = paid.copy()
        _testing.pay_rounded(paid, d, cc, amt)
        r = math.floor(amt + 0.5)
        assert paid[d] == paid0[d] - r and paid[cc] == paid0[cc] + r, amt
    _count("ledger cases", n)


def test_side_payments_follow_the_rules():
    """HONGKONG.md 4: 底 in chips rounded half up; 一臺花 per completed set (1 底 from each other seat),
    一臺草 once (½ 底 each), never after 一臺花."""
    rng = np.random.default_rng(6)
    n = 3000 * SCALE
    opts, *rest = native_rules(Rules.make("hongkong")).arrays()
    for _ in range(n):
        o = opts.copy()
        o[OPT_BASE] = int(rng.integers(0, 101))
        native = core.Rules(o, *rest)  # (the hongkong rules with this base)
        halves = int(rng.integers(-5, 9))
        assert _testing.base_chips(native, halves) == (o[OPT_BASE] * halves + 1) // 2
        p = np.zeros((4, st.NP), np.int64)
        p[:, st.P_FLOWERS] = rng.integers(0, 256, 4)
        p[:, st.P_FLOWER_PAID] = rng.integers(0, 8, 4)
        p[:, st.P_SIDE] = rng.integers(-500, 500, 4)
        seat = int(rng.integers(4))
        before = p.copy()
        _testing.flower_side(p, seat, native)
        f, done = int(before[seat, st.P_FLOWERS]), int(before[seat, st.P_FLOWER_PAID])
        gain = 0
        for lo, bit in ((0, st.FP_SET1), (4, st.FP_SET2)):
            if (f >> lo) & 15 == 15 and not done & bit:
                gain += 3 * _testing.base_chips(native, 2)
                done |= bit | st.FP_GRASS
        if not done & st.FP_GRASS and ((f | (f >> 4)) & 15) == 15:
            gain += 3 * _testing.base_chips(native, 1)
            done |= st.FP_GRASS
        assert p[seat, st.P_FLOWER_PAID] == done
        side = p[:, st.P_SIDE] - before[:, st.P_SIDE]
        assert side.sum() == 0 and side[seat] == gain
        assert all(side[s] == -gain // 3 for s in range(4) if s != seat)
        before = p.copy()
        _testing.all_pay(p, seat, halves * 7)
        side = p[:, st.P_SIDE] - before[:, st.P_SIDE]
        assert side[seat] == 3 * halves * 7 and side.sum() == 0
    _count("side cases", n)


def test_chase_side_follows_the_rules():
    """追 (HONGKONG.md 4) on rivers built to hit and to just miss it (seat order, claimed, kinds):
    the first of four unclaimed discards of one kind, one by each seat in turn, pays each other seat
    1 底 (honour) or 2 底 (suited)."""
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
        spoiled = j = -1
        if m and rng.random() < 0.4:  # spoil one entry
            spoiled = int(rng.integers(m))
            j = int(rng.integers(3))
            S.river[b, spoiled, j] = (S.river[b, spoiled, j] + 1) % 4 if j else (k + 1) % 34
        S.g[b, st.G_NRIVER] = m
        Sc = _copy(S)
        _testing.chase_side(Sc, b, eng.native)
        side = Sc.p[b, :, st.P_SIDE] - S.p[b, :, st.P_SIDE]
        # (the last discard is not claimed yet when 追 is checked: its claimed field is not read)
        hit = m >= 4 and (spoiled < m - 4 or (spoiled == m - 1 and j == 2))
        if hit:
            payer = (first + m - 4) % 4
            one = _testing.base_chips(eng.native, 2 if k >= 27 else 4)
            want = np.full(4, one)
            want[payer] = -3 * one
            assert np.array_equal(side, want), (m, spoiled, k)
        else:
            assert not side.any(), (m, spoiled, k)
        Sc.p[b, :, st.P_SIDE] = S.p[b, :, st.P_SIDE]
        _assert_same_state(S, Sc, "chase_side: only the side payments change")
        hits += hit
    assert hits > n // 10
    _count("chase_side cases", n)


def test_deal_fresh_states():
    """deal from fresh rng states (B games, every dealer, every profile kind): the same deal twice,
    every tile accounted for, 16 tiles each and the dealer's 17th (flowers replaced)."""
    n = 0
    for profile, opts in (
        ("standard", {}),
        ("hongkong", {"dice_payments": True}),
        ("casual", {"flowers": False}),
        ("hongkong", {"flower_win": "offer", "dead_wall": 60}),
    ):
        eng = Engine(Rules.make(profile, **opts), 64)
        rng = np.random.default_rng(len(profile))
        for _ in range(4 * SCALE):
            eng.reset(int(rng.integers(1 << 30)))
            S = _copy(eng.s)
            S.rng[:] = rng.integers(0, 1 << 63, S.rng.shape[0], dtype=np.uint64)
            S.g[:, st.G_DEALER] = rng.integers(0, 4, S.rng.shape[0])
            Sc = _copy(S)
            for b in range(S.rng.shape[0]):
                r = _testing.deal(S, b, eng.native)
                assert _testing.deal(Sc, b, eng.native) == r
                cnt, want = _tiles(S, b, eng.opts)
                assert np.array_equal(cnt, want)
                if not r:
                    sizes = S.hands[b].sum(1)
                    dealer = S.g[b, st.G_DEALER]
                    assert all(sizes[s] == (17 if s == dealer else 16) for s in range(4)), sizes
                    if eng.opts[OPT_DICE]:
                        assert S.p[b, :, st.P_SIDE].sum() == 0
                n += 1
            _assert_same_state(S, Sc, f"deal {profile}")
    _count("fresh deals", n)


# ------------------------------------------------------------------------------------ bad input
def test_bad_input_is_refused():
    eng = Engine(Rules(), 2)
    eng.reset(1)
    S = _copy(eng.s)
    o = eng.native
    h = S.hands[0, 0].copy()
    with pytest.raises(TypeError, match="h: expected dtype int8"):
        _testing.may_win(h.astype(np.int64), 3, 0)
    with pytest.raises(ValueError, match="h: expected axis 0 of size 34"):
        _testing.wins_with(h[:30], 0, 3, o)
    with pytest.raises(ValueError, match="t: expected -1..33, got 34"):
        _testing.may_win(h, 34, 0)
    with pytest.raises(ValueError, match="t: expected 0..33, got -1"):
        _testing.wins_with(h, 0, -1, o)
    with pytest.raises(ValueError, match="n_melds: expected 0..5, got 6"):
        _testing.wins_with(h, 6, 3, o)
    bad = h.copy()
    bad[5] = 5
    with pytest.raises(ValueError, match="h: counts must be 0..4"):
        _testing.wins_with(bad, 0, 3, o)
    with pytest.raises(ValueError, match="nm: expected 0..5, got 6"):
        _testing.held_all(h, S.melds[0, 0], 6, 3)
    with pytest.raises(ValueError, match="k: expected 0..33, got 34"):
        _testing.held_all(h, S.melds[0, 0], 0, 34)
    with pytest.raises(ValueError, match="ms: expected axis 0 of size 5"):
        _testing.is_concealed(S.melds[0, 0, :4], 0)
    with pytest.raises(ValueError, match="s: expected 0..3, got 4"):
        core.claim_options(S.g[0], S.p[0, 0], h, 4, 0, 3, o)
    with pytest.raises(ValueError, match="g: expected axis 0 of size"):
        core.tiles_left(S.g[0, :-1], o)
    with pytest.raises(TypeError):  # the bare arrays are not the rules (envs._core.Rules checks those once)
        core.tiles_left(S.g[0], eng.opts)
    with pytest.raises(TypeError):
        _testing.wins_with(h, 0, 3, eng.prof[2])
    # mask_rows: shapes, and the seat / kinds it indexes with
    m = np.zeros_like(S.mask)
    with pytest.raises(ValueError, match="mask: expected axis 0 of size 2"):
        core.mask_rows(m[:1], S.g, S.p, S.hands, S.melds, S.terminated, o)
    with pytest.raises(TypeError):
        core.mask_rows(m, S.g, S.p, S.hands.view(np.uint8), S.melds, S.terminated, o)
    g = S.g.copy()
    g[1, st.G_PHASE] = st.PH_TURN
    g[1, st.G_CUR] = 7
    with pytest.raises(ValueError, match=r"game 1: g\[G_CUR\]: expected 0..3, got 7"):
        core.mask_rows(m, g, S.p, S.hands, S.melds, S.terminated, o)
    g = S.g.copy()
    g[0, st.G_PHASE] = st.PH_TURN
    g[0, st.G_SWAP1] = 40
    with pytest.raises(ValueError, match=r"game 0: g\[G_SWAP1\]"):
        core.mask_rows(m, g, S.p, S.hands, S.melds, S.terminated, o)
    p = S.p.copy()
    p[0, :, st.P_NMELDS] = 9
    with pytest.raises(ValueError, match="P_NMELDS"):
        core.mask_rows(m, g * 0, p, S.hands, S.melds, S.terminated, o)
    with pytest.raises(TypeError):  # read-only mask: refused by nanobind
        mm = m.copy()
        mm.setflags(write=False)
        core.mask_rows(mm, S.g, S.p, S.hands, S.melds, S.terminated, o)
    # state-level functions: the namedtuple, b, the dealer, the script
    with pytest.raises(ValueError, match="b: expected 0..1, got 2"):
        _testing.deal(S, 2, o)
    with pytest.raises(TypeError, match="S.rng: expected dtype uint64"):
        _testing.fill_wall(S._replace(rng=S.rng.astype(np.int64)), 0, o)
    with pytest.raises(ValueError, match="S.hands: expected axis 1 of size 4"):
        _testing.deal(S._replace(hands=S.hands[:, :3]), 0, o)
    with pytest.raises(TypeError):  # (as the engine's calls: the rules object, not its arrays)
        _testing.deal(S, 0, eng.opts, eng.prof)
    S2 = _copy(S)
    S2.g[0, st.G_DEALER] = -1
    with pytest.raises(ValueError, match=r"G_DEALER\]: expected 0..3, got -1"):
        _testing.deal(S2, 0, o)
    S2 = _copy(S)._replace(script=np.full((2, 1, 144), 3, np.uint8))
    S2.g[:, st.G_SCRIPT_USED] = 0
    with pytest.raises(ValueError, match="permutation"):
        _testing.deal(S2, 0, o)
    S2.g[0, st.G_SCRIPT_USED] = -1
    with pytest.raises(ValueError, match="G_SCRIPT_USED"):
        _testing.fill_wall(S2, 0, o)
    S2 = _copy(S)
    S2.g[0, st.G_NRIVER] = 500
    with pytest.raises(ValueError, match="G_NRIVER"):
        _testing.chase_side(S2, 0, o)
    with pytest.raises(ValueError, match="G_NRIVER"):
        _testing.hk_flags(S2, 0, 1, 0)
    with pytest.raises(ValueError, match="w: expected 0..3, got 4"):
        _testing.hk_flags(S, 0, 4, 0)
    with pytest.raises(ValueError, match="b: expected 0..1, got -1"):
        _testing.hk_flags(S, -1, 0, 0)
    # ledger
    la, la_k, paid = np.zeros((4, 4)), np.zeros((4, 4), np.int32), np.zeros(4, np.int64)
    with pytest.raises(ValueError, match="d: expected 0..3, got 4"):
        _testing.la_close(la, la_k, 4, 0, paid)
    with pytest.raises(TypeError, match="la_k: expected dtype int32"):
        _testing.la_close_all(la, la_k.astype(np.int64), paid)
    with pytest.raises(ValueError, match="paid: expected axis 0 of size 4"):
        _testing.pay_rounded(paid[:3], 0, 1, 2.5)
    with pytest.raises(ValueError, match="seat: expected 0..3"):
        _testing.flower_side(S.p[0], -1, o)
    # nothing above wrote into the state
    _assert_same_state(eng.s, S, "after refused calls")


def test_print_counts():
    print(f"\nengine parts counts (TW16_DIFF_N={SCALE}): {COUNTS}")
