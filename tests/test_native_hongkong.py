"""The native hongkong scorer (envs._core: hk_score, hk_legs, hk_settle) against recorded results, and
at its boundary.

The digests in RECORDED (history: docs/versions.md) are of the results (hand tai, items, legs, settlements) on
(a) every case of tests/data/hongkong.jsonl and tests/data/hongkong_items.jsonl, turned into arguments
    by envs.scoring.cases.parse_case (with envs.scoring.hk_cases for the hongkong fields), under every
    combination of the hongkong options count_method (1, 2), dual_reading and dealer_pays_on_self_draw,
    each settled with the dealer at every seat (the cases' own results are also the files' `expected`,
    checked by tests/test_hongkong.py and `tw16 score --check`);
(b) 3000 random hands: standard decompositions biased towards the families (般高, 相逢, 兄弟, 姊妹,
    步步高, 龍, 老少, 四歸), the special shapes (嚦咕嚦咕, 十三么, 十六不搭), flower wins with and without
    a complete hand, heavenly hands, near-misses that are no win, random flowers and flag words (the F_*
    bits, the replacement chain and the context fields of codes.hk_context_flags), and random legs.
A digest names its inputs too: when they change (a case added) the test says so; check the new results
and re-record with TW16_RECORD=1 (run with -s: the digests are printed). Also: score_hand hands a
hongkong profile to hk_score, and (c) the bindings refuse bad input with an exception naming the argument.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from recorded import RECORDED_N_ITEMS, Digests, recorded_items  # noqa: E402

from envs.engine.mask import native_rules
from envs.rules import OPT_BASE, OPT_PER_TAI, OPT_STREAK_CAP, Rules
from envs.scoring import codes as C
from envs.scoring.cases import CaseError, parse_case
from envs.scoring.profile import PO_SHAPES
from envs.tiles import MELD_ADDKONG, MELD_ANKONG, MELD_CHI, MELD_KONG, MELD_PON, N_KINDS, WIND0

_core = pytest.importorskip("envs._core")
_testing = _core._testing

DATA = Path(__file__).resolve().parent / "data"
CASE_FILES = (DATA / "hongkong.jsonl", DATA / "hongkong_items.jsonl")
N_RANDOM = 3000
OPTION_COMBOS = [
    dict(count_method=cm, dual_reading=dr, dealer_pays_on_self_draw=dp)
    for cm, dr, dp in itertools.product((1, 2), (True, False), (False, True))
]
ORPHANS = [k for k in range(N_KINDS) if k >= WIND0 or k % 9 in (0, 8)]
DIGESTS = Digests()
RECORDED = DIGESTS.recorded  # filled at the end of the file
NEW = DIGESTS.new  # the digests of this run (printed in record mode)
check = DIGESTS.check


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:20]


def _cases() -> list[dict]:
    return [json.loads(line) for p in CASE_FILES for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def _score(args, rules):
    """hk_score under the native rules: (tai, items as a list, the columns the digests were recorded with)."""
    out = np.full(C.N_ITEMS, 7, np.int32)  # it clears it
    tai = int(_testing.hk_score(*args, rules, out))
    return tai, recorded_items(out).tolist()


def _legs(leg_args, rules):
    """hk_legs and hk_settle of one win under the native rules: [n, leg tai, leg payers, settled, deltas]."""
    t, p = np.zeros(4, np.int64), np.zeros(4, np.int64)
    n = int(_testing.hk_legs(*leg_args, rules, t, p))
    d = np.arange(4, dtype=np.int64) * 1000  # added to, not overwritten
    s = int(_testing.hk_settle(*leg_args, rules, d))
    return [n, t.tolist(), p.tolist(), s, d.tolist()]


# ---------------------------------------------------------------------------------------------
# (a) the case files
def case_file_records() -> list:
    cases = _cases()
    recs = []
    for case, combo in itertools.product(cases, OPTION_COMBOS):
        c2 = dict(case)
        c2["rules"] = {**(case.get("rules") or {}), **combo}
        try:
            c = parse_case(c2)
        except CaseError:  # only a case that expects an error
            assert case["expected"].get("error"), case["id"]
            recs.append([case["id"], "refused"])
            continue
        native = native_rules(c.rules)
        args = (
            c.concealed,
            c.meld_type,
            c.meld_kind,
            c.n_melds,
            c.flowers,
            c.win_tile,
            c.win_by,
            c.winner,
            c.round_wind,
            c.flags,
        )
        tai, items = _score(args, native)
        legs = [_legs((tai, c.win_by, c.winner, c.payer, c.liable, dealer, c.streak), native) for dealer in range(4)]
        recs.append([case["id"], tai, items, legs])
    return recs


def test_case_files_every_option_combination():
    cases = _cases()
    assert len(cases) >= 180
    NEW["cases/inputs"] = digest(cases)
    recs = case_file_records()
    n_ok = sum(not c["expected"].get("error") for c in cases)
    assert sum(r[1] != "refused" for r in recs) >= len(OPTION_COMBOS) * n_ok
    check("cases/results", digest(recs), "cases/inputs")


def test_score_hand_hands_hongkong_to_hk_score():
    """score_hand hands a hongkong profile to hk_score."""
    gen = Gen(seed=11)
    native = native_rules(Rules(profile="hongkong"))
    for i in range(300):
        args = gen.hand()
        o_hk, o = np.zeros(C.N_ITEMS, np.int32), np.zeros(C.N_ITEMS, np.int32)
        t_hk = _testing.hk_score(*args, native, o_hk)
        assert _core.score_hand(*args, native, o) == t_hk and np.array_equal(o, o_hk), (i, args)


# ---------------------------------------------------------------------------------------------
# (b) random hands
class Gen:
    """Random hands for hk_score (arguments in the types the case path gives: int8[34], int8[5],
    Python ints)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    # the kinds a hand draws from: anything, or a few numbers in one or two suits (families, 四歸)
    def _pool(self):
        r = self.r
        u = r.random()
        if u < 0.35:
            return None
        if u < 0.42:  # honours (風 / 元 items, 字一色)
            return (
                list(range(WIND0, N_KINDS))
                if r.random() < 0.5
                else list(range(WIND0, WIND0 + 4)) + r.sample(range(N_KINDS), 2)
            )
        if u < 0.48:  # terminals (清么九, 混么九, 全帶么)
            return [0, 8, 9, 17, 18, 26] + (r.sample(range(WIND0, N_KINDS), 2) if r.random() < 0.5 else [])
        suits = r.sample(range(3), r.choice((1, 2, 2, 3)))
        lo = r.randint(0, 6)
        nums = range(lo, min(9, lo + r.randint(2, 5)))
        pool = [9 * s + n for s in suits for n in nums]
        if r.random() < 0.4:
            pool += r.sample(range(WIND0, N_KINDS), r.randint(1, 4))
        return pool

    def _kind(self, pool, chow):
        r = self.r
        if pool is None:
            k = r.randrange(WIND0 if chow else N_KINDS)
        else:
            k = r.choice(pool)
            if chow and k >= WIND0:
                k = r.randrange(WIND0)
        if chow:
            k = k - k % 9 + min(k % 9, 6)
        return k

    def standard(self):
        """Five sets (n_melds of them melded) and a pair, or None when a kind runs out."""
        r = self.r
        pool = self._pool()
        self.plain = plain = pool is None and r.random() < 0.3  # mostly open chows: the chicken hands (3.9)
        n_melds = r.choices(range(6), (5, 5, 20, 30, 25, 15) if plain else (30, 22, 18, 14, 9, 7))[0]
        p_chow = 0.9 if plain else r.choice((0.0, 0.3, 0.6, 0.9, 1.0))
        conc = np.zeros(N_KINDS, np.int64)
        total = np.zeros(N_KINDS, np.int64)
        mt = np.zeros(5, np.int8)
        mk = np.zeros(5, np.int8)
        repeat = r.random() < 0.3  # identical sets (般高, the dual reading's nine tiles)
        last = None
        for s in range(5):
            chow = r.random() < p_chow
            k = (
                last[1]
                if (repeat and last is not None and last[0] == chow and r.random() < 0.6)
                else self._kind(pool, chow)
            )
            if (
                not chow
                and repeat
                and last is not None
                and not last[0]
                and r.random() < 0.5
                and last[1] % 9 < 8
                and last[1] < WIND0
            ):
                k = last[1] + 1  # consecutive pons (姊妹)
            last = (chow, k)
            if s < n_melds:
                t = MELD_CHI if chow else r.choice((MELD_PON, MELD_PON, MELD_PON, MELD_KONG, MELD_ADDKONG, MELD_ANKONG))
                mt[s], mk[s] = t, k
                if t == MELD_CHI:
                    total[k : k + 3] += 1
                else:
                    total[k] += 3 if t == MELD_PON else 4
            else:
                if chow:
                    conc[k : k + 3] += 1
                else:
                    conc[k] += 3
        pair = self._kind(pool, False)
        conc[pair] += 2
        total += conc
        if (total > 4).any():
            return None
        return conc.astype(np.int8), mt, mk, n_melds

    def chicken(self):
        """Four chows of distinct numbers over the three suits, a pon, an honour eye, some melded: few
        items besides the flowers and the win, so 大雞胡 / 鴨胡 (3.9) get a chance."""
        r = self.r
        nums = r.sample(range(7), 4)
        suits = [0, 1, 2, r.randrange(3)]
        r.shuffle(suits)
        sets = [(MELD_CHI, 9 * s + n) for s, n in zip(suits, nums)]
        sets.insert(r.randrange(5), (MELD_PON, r.randrange(N_KINDS)))
        n_melds = r.randint(1, 4)
        conc = np.zeros(N_KINDS, np.int64)
        mt = np.zeros(5, np.int8)
        mk = np.zeros(5, np.int8)
        for i, (t, k) in enumerate(sets):
            if i < n_melds:
                mt[i], mk[i] = t, k
            elif t == MELD_CHI:
                conc[k : k + 3] += 1
            else:
                conc[k] += 3
        conc[r.randrange(WIND0, N_KINDS)] += 2
        if (conc + _meld_tiles(mt, mk, n_melds) > 4).any():
            return None
        self.plain = True
        return conc.astype(np.int8), mt, mk, n_melds

    def special(self):
        """A 17-tile special shape (no melds), or None."""
        r = self.r
        u = r.random()
        conc = np.zeros(N_KINDS, np.int64)
        if u < 0.4:  # 嚦咕嚦咕: seven pairs (four of a kind = two pairs) and a triplet
            pool = self._pool() or list(range(N_KINDS))
            for _ in range(7):
                conc[r.choice(pool)] += 2
            conc[r.choice(pool)] += 3
        elif u < 0.7:  # 十三么: the 13 orphans, an orphan eye and a set
            for k in ORPHANS:
                conc[k] += 1
            conc[r.choice(ORPHANS)] += 1
            if r.random() < 0.5:
                k = r.choice(ORPHANS if r.random() < 0.5 else range(N_KINDS))
                conc[k] += 3
            else:
                k = self._kind(None, True)
                conc[k : k + 3] += 1
        else:  # 十六不搭: numbers of each suit apart (gap 3, sometimes 2), the 7 honours, one tile twice
            gap = 3 if r.random() < 0.7 else 2
            for s in range(3):
                for _ in range(50):
                    nums = sorted(r.sample(range(9), 3))
                    if nums[1] - nums[0] >= gap and nums[2] - nums[1] >= gap:
                        break
                for n in nums:
                    conc[9 * s + n] += 1
            conc[WIND0:] += 1
            conc[r.choice(np.flatnonzero(conc).tolist())] += 1
        if (conc > 4).any():
            return None
        return conc.astype(np.int8), np.zeros(5, np.int8), np.zeros(5, np.int8), 0

    def flags(self):
        r = self.r
        f = 0
        for bit in (
            C.F_KONG_REPLACEMENT,
            C.F_FLOWER_REPLACEMENT,
            C.F_LAST_TILE,
            C.F_HEAVENLY,
            C.F_DECLARED_READY,
            C.F_IPPATSU,
            C.F_ROB_KONG_CHAIN,
            C.F_ROBBED_ANKONG,
        ):
            if r.random() < 0.15:
                f |= bit
        if r.random() < 0.03:  # bits hongkong refuses in a case, which the scorer ignores
            f |= r.choice((C.F_EARTHLY, C.F_HUMAN, C.F_HEAVENLY_READY, C.F_EARTHLY_READY, C.F_SHOWN_READY))
        if r.random() < 0.3:
            f |= r.choice((1, 1, 2, 3, 5, 255)) << C.CHAIN_SHIFT
        if r.random() < 0.7:
            discards = r.choice((None, 0, 1, 2, 4, 5, r.randint(0, 254)))
            floor = r.choice((None, 0, 1, 7, 8, 10, 11, r.randint(0, 254)))
            f |= C.hk_context_flags(discards, floor, r.choice((1, 1, 1, 2, 3)))
        elif r.random() < 0.1:
            f |= r.randrange(1 << 42)  # any bits at all
        return f

    def flowers(self):
        r = self.r
        u = r.random()
        if u < 0.3:
            return 0
        if u < 0.5:
            return 1 << r.randrange(8)
        if u < 0.6:
            return r.choice((0x0F, 0xF0, 0xFF, 0x7F, 0xFE, 0x1F, 0xF1))
        return r.randrange(256) & r.randrange(256)

    def hand(self):
        """Arguments of one hk_score call (before the profile)."""
        r = self.r
        while True:
            self.plain = False
            u = r.random()
            h = self.special() if u < 0.15 else (self.chicken() if u < 0.2 else self.standard())
            if h is not None:
                break
        conc, mt, mk, n_melds = h
        win_by = r.choices((C.WIN_DISCARD, C.WIN_SELF_DRAW, C.WIN_ROB_KONG, C.WIN_FLOWERS), (40, 40, 8, 12))[0]
        held = np.flatnonzero(conc).tolist()
        win_tile = r.choice(held)
        flowers = self.flowers()
        if win_by == C.WIN_FLOWERS:
            win_tile = -1
            if r.random() < 0.5:  # 16 - 3 x melds tiles: flower items only
                conc[r.choice(held)] -= 1
            if r.random() < 0.7:
                flowers = r.choice((0xFF, 0xFF ^ (1 << r.randrange(8))))
        elif r.random() < 0.05:
            win_tile = -1  # heavenly hand: no wait judged
        u = r.random()
        if u < 0.06:  # near-misses: a tile moved (mostly no win), or one too many / few
            k = r.choice(np.flatnonzero(conc).tolist())
            if win_tile < 0 or k != win_tile or conc[k] > 1:
                conc[k] -= 1
                j = r.randrange(N_KINDS)
                if conc[j] + _meld_tiles(mt, mk, n_melds)[j] < 4 and r.random() < 0.8:
                    conc[j] += 1
        elif u < 0.09:  # any tiles at all, as many as a hand holds (the checks at the boundary pass)
            meld = _meld_tiles(mt, mk, n_melds)
            conc[:] = 0
            left = 3 * (5 - n_melds) + 2 - (1 if r.random() < 0.2 else 0)
            while left:
                k = r.randrange(N_KINDS)
                if conc[k] + meld[k] < 4:
                    conc[k] += 1
                    left -= 1
            if win_tile >= 0 and win_by != C.WIN_FLOWERS and conc[win_tile] == 0:
                win_tile = r.choice(np.flatnonzero(conc).tolist())
        seat, rnd = r.randrange(4), r.randrange(4)
        flags = self.flags()
        if self.plain and win_by != C.WIN_FLOWERS and r.random() < 0.7:  # a chance of 大雞胡 / 鴨胡
            flowers = r.choice((0, 1 << r.randrange(8)))
            if win_by == C.WIN_ROB_KONG:
                win_by = C.WIN_DISCARD
            flags = C.hk_context_flags(None, None, 1) if r.random() < 0.5 else 0
        return (conc, mt, mk, n_melds, flowers, win_tile, win_by, seat, rnd, flags)

    def legs(self, tai, win_by):
        r = self.r
        winner = r.randrange(4)
        others = [p for p in range(4) if p != winner]
        payer = -1 if win_by in (C.WIN_SELF_DRAW,) or r.random() < 0.2 else r.choice(others)
        liable = r.choice(others) if r.random() < 0.2 else -1
        streak = r.choice((0, 0, 1, 2, 3, 7, r.randint(0, 10**6)))
        if r.random() < 0.02:  # int64 overflow wraps in both (dealer tai 1 + 2N, chips base + per_tai x tai)
            streak = r.choice((2**62 + r.randrange(1000), 2**63 - 1))
        if r.random() < 0.1:
            tai = r.randint(0, 500)
        return (tai, win_by, winner, payer, liable, r.randrange(4), streak)


def _meld_tiles(mt, mk, n_melds):
    t = np.zeros(N_KINDS, np.int64)
    for m in range(n_melds):
        if mt[m] == MELD_CHI:
            t[mk[m] : mk[m] + 3] += 1
        else:
            t[mk[m]] += 3 if mt[m] == MELD_PON else 4
    return t


def _profiles():
    """The native rules of the hongkong profile under each count_method x dual_reading, and with other
    shape sets."""
    out = []
    for cm, dr in itertools.product((1, 2), (True, False)):
        native = native_rules(Rules(profile="hongkong", count_method=cm, dual_reading=dr))
        out.append(native)
        opts, cfg, p_tai, p_repl, p_opts = native.arrays()
        for shapes in (0, 1, 7, 31):
            o = p_opts.copy()
            o[PO_SHAPES] = shapes
            o.setflags(write=False)  # a read-only p_opts: the rules object copies it
            out.append(_core.Rules(opts, cfg, p_tai, p_repl, o))
    return out


def _opts_variants():
    r = random.Random(5)
    out = []
    for dp in (False, True):
        for _ in range(4):
            o = Rules(profile="hongkong", dealer_pays_on_self_draw=dp).as_array()
            o[OPT_STREAK_CAP] = r.choice((-1, 0, 1, 3))
            o[OPT_BASE] = r.choice((0, 1, 30, 10**9))
            o[OPT_PER_TAI] = r.choice((0, 10, 10**9))
            out.append(_core.Rules(o, *native_rules(Rules(profile="hongkong")).arrays()[1:]))
    return out


def random_records() -> tuple[list, dict]:
    gen = Gen(seed=20240611)
    profs = _profiles()
    opts = _opts_variants()
    recs = []
    stats = {"win": 0, "nowin": 0, "flower_only": 0, "items": 0, "per_item": np.zeros(RECORDED_N_ITEMS, np.int64)}
    for i in range(N_RANDOM):
        args = gen.hand()
        prof = profs[0] if i % 8 == 0 else profs[gen.r.randrange(len(profs))]
        tai, items = _score(args, prof)
        if tai < 0:
            stats["nowin"] += 1
        else:
            o = np.array(items)
            stats["win"] += 1
            stats["items"] += int(np.count_nonzero(o))
            stats["per_item"] += o != 0
            stats["flower_only"] += args[6] == C.WIN_FLOWERS and int(args[0].sum()) % 3 == 1
        leg_args = gen.legs(max(tai, 0), args[6])
        recs.append(
            [
                [a.tolist() if isinstance(a, np.ndarray) else int(a) for a in args],
                tai,
                items,
                _legs(leg_args, opts[i % len(opts)]),
            ]
        )
    return recs, stats


def test_random_hands_and_legs():
    recs, s = random_records()
    NEW["random/inputs"] = digest([r[0] for r in recs])
    check("random/results", digest(recs), "random/inputs")
    seen = int(np.count_nonzero(s["per_item"]))
    print(
        f"random: {N_RANDOM} scorings ({s['win']} wins, {s['nowin']} no win, {s['flower_only']} flower-only), "
        f"{s['items']} items, {seen} distinct items seen"
    )
    assert s["win"] > N_RANDOM // 2 and s["nowin"] > 0
    assert seen >= 95, seen  # the generator reaches nearly every hongkong item


# ---------------------------------------------------------------------------------------------
# (c) bad input
def _good():
    c = parse_case(
        {
            "id": "x",
            "profile": "hongkong",
            "hand": "123m 567m 234p 67p 999s NN",
            "win_tile": "8p",
            "win_by": "discard",
            "discarder": "W",
            "seat": "S",
        }
    )
    args = [
        c.concealed,
        c.meld_type,
        c.meld_kind,
        c.n_melds,
        c.flowers,
        c.win_tile,
        c.win_by,
        c.winner,
        c.round_wind,
        c.flags,
    ]
    return args, native_rules(c.rules), np.zeros(C.N_ITEMS, np.int32)


GOOD_HAND_TAI = 4


def test_good_input_scores():
    args, prof, out = _good()
    assert _testing.hk_score(*args, prof, out) == GOOD_HAND_TAI


@pytest.mark.parametrize(
    "pos, value, match",
    [
        (0, np.zeros(34, np.int64), "concealed"),
        (0, np.zeros(33, np.int8), "concealed"),
        (0, np.zeros((2, 34), np.int8), "concealed"),
        (0, np.full(34, 5, np.int8), "concealed"),
        (0, np.full(34, -1, np.int8), "concealed"),
        (1, np.zeros(5, np.int32), "meld_type"),
        (2, np.zeros((5, 1), np.int8), "meld_kind"),
        (3, 6, "n_melds"),
        (3, -1, "n_melds"),
        (4, 256, "flowers"),
        (4, -1, "flowers"),
        (5, 34, "win_tile"),
        (5, -2, "win_tile"),
        (5, 33, "win_tile"),  # not held
        (6, 4, "win_by"),
        (7, 4, "seat_wind"),
        (8, -1, "round_wind"),
    ],
)
def test_hk_score_refuses_bad_arguments(pos, value, match):
    args, prof, out = _good()
    args[pos] = value
    with pytest.raises((ValueError, TypeError), match=match):
        _testing.hk_score(*args, prof, out)


def test_hk_score_refuses_bad_melds_profile_and_output():
    args, prof, out = _good()
    bad = list(args)
    bad[1], bad[2], bad[3] = np.array([MELD_CHI, 0, 0, 0, 0], np.int8), np.array([7, 0, 0, 0, 0], np.int8), 1
    with pytest.raises(ValueError, match="meld_kind: chow 0 starts at kind 7"):
        _testing.hk_score(*bad, prof, out)
    bad[1], bad[2] = np.array([9, 0, 0, 0, 0], np.int8), np.array([0, 0, 0, 0, 0], np.int8)
    with pytest.raises(ValueError, match="meld_type"):
        _testing.hk_score(*bad, prof, out)
    bad[1], bad[2] = np.array([MELD_PON, 0, 0, 0, 0], np.int8), np.array([34, 0, 0, 0, 0], np.int8)
    with pytest.raises(ValueError, match="meld_kind"):
        _testing.hk_score(*bad, prof, out)
    bad[1], bad[2] = np.array([MELD_KONG, 0, 0, 0, 0], np.int8), np.array([26, 0, 0, 0, 0], np.int8)  # 9s: 3 held + 4
    with pytest.raises(ValueError, match="tiles of kind 26"):
        _testing.hk_score(*bad, prof, out)
    bad[1], bad[2], bad[3] = np.zeros(2, np.int8), np.zeros(2, np.int8), 3
    with pytest.raises(ValueError, match="shorter than n_melds"):
        _testing.hk_score(*bad, prof, out)
    # the profile's arrays: checked once, when the native rules are built from them
    opts, cfg, p_tai, p_repl, p_opts = prof.arrays()
    bad_tai = p_tai.copy()
    bad_tai[3, 0] = C.N_ITEMS
    with pytest.raises(ValueError, match="p_tai"):
        _core.Rules(opts, cfg, bad_tai, p_repl, p_opts)
    with pytest.raises((ValueError, TypeError), match="p_tai"):
        _core.Rules(opts, cfg, p_tai.astype(np.int64), p_repl, p_opts)
    with pytest.raises((ValueError, TypeError), match="p_repl"):
        _core.Rules(opts, cfg, p_tai, p_repl[:5], p_opts)
    with pytest.raises((ValueError, TypeError), match="p_opts"):
        _core.Rules(opts, cfg, p_tai, p_repl, p_opts[:3])
    with pytest.raises(TypeError):  # the bare arrays are not the rules
        _testing.hk_score(*args, p_tai, p_repl, p_opts, out)
    with pytest.raises((ValueError, TypeError), match="out_items"):
        _testing.hk_score(*args, prof, np.zeros(C.N_ITEMS - 1, np.int32))
    with pytest.raises((ValueError, TypeError), match="out_items"):
        _testing.hk_score(*args, prof, np.zeros(C.N_ITEMS, np.int16))
    with pytest.raises((ValueError, TypeError)):  # a read-only output
        ro = np.zeros(C.N_ITEMS, np.int32)
        ro.setflags(write=False)
        _testing.hk_score(*args, prof, ro)


@pytest.mark.parametrize(
    "pos, value, match",
    [
        (1, 5, "win_by"),
        (2, 4, "winner"),
        (2, -1, "winner"),
        (3, 4, "payer"),
        (3, -2, "payer"),
        (4, 4, "liable"),
        (4, -2, "liable"),
        (5, 4, "dealer"),
        (5, -1, "dealer"),
    ],
)
def test_legs_refuse_bad_arguments(pos, value, match):
    args = [10, C.WIN_SELF_DRAW, 1, -1, -1, 0, 0]
    args[pos] = value
    o = native_rules(Rules(profile="hongkong"))
    with pytest.raises(ValueError, match=match):
        _testing.hk_legs(*args, o, np.zeros(4, np.int64), np.zeros(4, np.int64))
    with pytest.raises(ValueError, match=match):
        _testing.hk_settle(*args, o, np.zeros(4, np.int64))


def test_legs_refuse_bad_arrays():
    args = [10, C.WIN_SELF_DRAW, 1, -1, -1, 0, 0]
    o = native_rules(Rules(profile="hongkong"))
    z = np.zeros(4, np.int64)
    with pytest.raises(TypeError):  # the bare options array is not the rules
        _testing.hk_legs(*args, Rules(profile="hongkong").as_array(), z, z.copy())
    with pytest.raises((ValueError, TypeError), match="out_leg_tai"):
        _testing.hk_legs(*args, o, np.zeros(3, np.int64), z)
    with pytest.raises((ValueError, TypeError), match="out_leg_payer"):
        _testing.hk_legs(*args, o, z, np.zeros(4, np.int32))
    with pytest.raises((ValueError, TypeError), match="out_deltas"):
        _testing.hk_settle(*args, o, np.zeros(5, np.int64))


def test_zz_recorded_digests(capsys):
    """Record mode (TW16_RECORD=1, with -s): print the digests of this run for RECORDED."""
    DIGESTS.print_for_recording(capsys)


RECORDED.update(
    {  # the recorded results (see the docstring)
        "cases/inputs": "d480920380a06e499562",
        "cases/results": "a252012bd151473ccadf",
        "random/inputs": "d148a9913061440dffe3",
        "random/results": "d23e6a9384c3ce64e8ea",  # re-recorded: a flower win takes the replacement flags (CASES.md)
    }
)
