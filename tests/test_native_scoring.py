"""The native scoring core (envs._core: native/src/score.cpp, tally.cpp, extras.cpp) against recorded
results, batch against single calls, and at its boundary.

The digests in RECORDED (history: docs/versions.md) are of the results (hand tai, items, chip deltas, dealer
tai, and the whole result of envs.scoring.api.score_parsed) on
(a) every case of the scoring case files, parsed by envs.scoring.cases.parse_case, under its own profile
    and under every other non-hongkong profile the files name (their own-profile results are also the
    files' `expected`, checked by tests/test_scoring.py and `tw16 score --check`);
(b) 20000 random scorings per profile (random melds of every type, flowers, flags, winds, win_by, the
    special shapes, flower wins without a hand, non-winning hands) under standard, strict16, casual,
    the extras pack and the MCR test profile, each settled under two stake settings.
A digest names its inputs too: when they change (a case added, another numpy random stream) the test
says so; check the new results and re-record with TW16_RECORD=1 (run with -s: the digests are printed).
Also: score_batch / settle_batch against score_hand / settle, threads, the hongkong dispatch, the bench
loop score_all, winning_shape and dealer_tai against their definitions, and the bindings' boundary checks.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path

import numpy as np
import pytest

core = pytest.importorskip("envs._core")
_testing = core._testing

from recorded import Digests, recorded_items  # noqa: E402

from envs.engine.mask import native_rules  # noqa: E402
from envs.rules import OPT_BASE, OPT_PER_TAI, OPT_STREAK_CAP, Rules  # noqa: E402
from envs.scoring import api  # noqa: E402
from envs.scoring import codes as C  # noqa: E402
from envs.scoring.cases import CaseError, parse_case  # noqa: E402
from envs.scoring.profile import PO_SHAPES  # noqa: E402
from envs.tiles import MELD_ADDKONG, MELD_ANKONG, MELD_CHI, MELD_KONG, MELD_PON, N_KINDS, WIND0  # noqa: E402
from tw16.bench.scoring import random_winning_hands  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CASE_FILES = ("standard.jsonl", "cases_profiles.jsonl", "cases_extras.jsonl", "cases_mcr.jsonl")
MCR = "tests/data/profiles/mcr_fans.toml"
N_ITEMS = C.N_ITEMS
N_RANDOM = 20_000
DIGESTS = Digests()
RECORDED = DIGESTS.recorded  # filled at the end of the file
NEW = DIGESTS.new  # the digests of this run (printed in record mode)
check = DIGESTS.check

# The random runs: name -> Rules.make arguments.
RANDOM_PROFILES = {
    "standard": ("standard", {}),
    "strict16": ("strict16", {}),
    "casual": ("casual", {}),
    "extras": ("standard", {"extras": True}),
    "extras_strict16_gap2": ("strict16", {"extras": True, "unrelated_gap": 2}),
    "mcr": (MCR, {}),
}


def digest(*parts) -> str:
    """SHA-256 (20 hex digits) of arrays and JSON-able values."""
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
            p = np.ascontiguousarray(p)
            h.update(f"{p.dtype.str}{p.shape}".encode())
            h.update(p.tobytes())
        else:
            h.update(json.dumps(p, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:20]


def _cases(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip() and not line.lstrip().startswith("#")]


def _is_hongkong(rules: Rules) -> bool:
    return bool(rules.profile_data.options.get("hongkong", False))


# --------------------------------------------------------------------------------------------------
# (a) The case files


def _all_cases() -> list[dict]:
    return [c for name in CASE_FILES for c in _cases(name)]


def _named_profiles(cases) -> list[str]:
    names = []
    for c in cases:
        p = c.get("profile", "standard")
        if p in names:
            continue
        try:
            if _is_hongkong(Rules.make(p)):
                continue
        except Exception:  # a case naming a profile that does not exist (it expects an error)
            continue
        names.append(p)
    return names


def _case_record(case: dict, profile: str | None):
    """Everything the core gives for one case under ``profile``; None when it does not parse there."""
    try:
        c = parse_case(case, profile)
    except CaseError:
        return None
    if _is_hongkong(c.rules):
        return None
    native = native_rules(c.rules)
    out = np.full(N_ITEMS, 7, np.int32)  # score_hand clears it
    tai = int(
        core.score_hand(
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
            native,
            out,
        )
    )
    rec = {"id": case.get("id"), "profile": profile, "tai": tai, "items": recorded_items(out).tolist(), "settle": []}
    for streak in (0, c.streak, 3):
        d = np.zeros(4, np.int64)
        core.settle(tai, c.win_by, c.winner, c.payer, 0, streak, native, d)
        rec["settle"].append([d.tolist(), int(core.dealer_tai(streak, native))])
    if tai >= 0:  # the whole result of score_parsed (items, names, hand tai, dealer tai per leg, deltas)
        rec["api"] = api.score_parsed(c)
    return rec


def case_file_records() -> list[dict]:
    cases = _all_cases()
    profiles = _named_profiles(cases)
    assert {"standard", "strict16", "casual", MCR} <= set(profiles)
    recs = []
    for case in cases:
        for p in (None, *profiles):  # its own profile (and rules: extras, options), then every other
            r = _case_record(case, p)
            if r is not None:
                recs.append(r)
    return recs


def test_case_files_every_named_profile():
    NEW["cases/inputs"] = digest(_all_cases())
    recs = case_file_records()
    assert len(recs) > 1500
    check("cases/results", digest(recs), "cases/inputs")


def test_case_files_batch():
    """score_batch / settle_batch over all the cases of one profile give the single calls' results."""
    cases = _all_cases()
    for profile in _named_profiles(cases):
        parsed = []
        for case in cases:
            try:
                parsed.append(parse_case(case, profile))
            except CaseError:
                pass
        native = native_rules(parsed[0].rules)
        n = len(parsed)
        conc = np.stack([c.concealed for c in parsed])
        mt = np.stack([c.meld_type for c in parsed])
        mk = np.stack([c.meld_kind for c in parsed])
        col = {
            f: np.array([getattr(c, f) for c in parsed], np.int64)
            for f in ("n_melds", "flowers", "win_tile", "win_by", "winner", "round_wind", "flags", "payer", "streak")
        }
        tai = np.zeros(n, np.int64)
        items = np.zeros((n, N_ITEMS), np.int32)
        _testing.score_batch(
            conc,
            mt,
            mk,
            col["n_melds"],
            col["flowers"],
            col["win_tile"],
            col["win_by"],
            col["winner"],
            col["round_wind"],
            col["flags"],
            native,
            tai,
            items,
        )
        deltas = np.zeros((n, 4), np.int64)
        _testing.settle_batch(
            tai,
            col["win_by"],
            col["winner"],
            col["payer"],
            np.full(n, -1, np.int64),
            np.zeros(n, np.int64),
            col["streak"],
            native,
            deltas,
        )
        for i, c in enumerate(parsed):
            out = np.zeros(N_ITEMS, np.int32)
            t = core.score_hand(
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
                native,
                out,
            )
            assert tai[i] == t and np.array_equal(items[i], out), (c.id, profile)
            d = np.zeros(4, np.int64)
            if t >= 0:
                core.settle(t, c.win_by, c.winner, c.payer, 0, c.streak, native, d)
            assert np.array_equal(deltas[i], d), (c.id, profile)


def test_hongkong_dispatch():
    """A hongkong profile goes to hk_score through score_hand, and settle_batch pays its legs through
    hk_settle (tests/test_native_hongkong.py tests those)."""
    n = 0
    for case in _cases("hongkong.jsonl") + _cases("hongkong_items.jsonl"):
        try:
            c = parse_case(case)
        except CaseError:
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
            native,
        )
        out_hk = np.zeros(N_ITEMS, np.int32)
        out = np.zeros(N_ITEMS, np.int32)
        tai = _testing.hk_score(*args, out_hk)
        assert core.score_hand(*args, out) == tai and np.array_equal(out, out_hk), case["id"]
        if tai >= 0:
            d_hk = np.zeros(4, np.int64)
            _testing.hk_settle(tai, c.win_by, c.winner, c.payer, c.liable, 0, c.streak, native, d_hk)
            d = np.zeros((1, 4), np.int64)
            one = lambda x: np.array([x], np.int64)  # noqa: E731
            _testing.settle_batch(
                one(tai), one(c.win_by), one(c.winner), one(c.payer), one(c.liable), one(0), one(c.streak), native, d
            )
            assert np.array_equal(d[0], d_hk), case["id"]
        n += 1
    assert n > 150


# --------------------------------------------------------------------------------------------------
# (b) Random hands

ORPHANS = np.array([k for k in range(N_KINDS) if k >= WIND0 or k % 9 in (0, 8)])
CHI_STARTS = np.array([9 * s + i for s in range(3) for i in range(7)])
FLAG_BITS = np.array([1 << i for i in range(13)], np.int64)


def _add_set(rng, c) -> None:
    if rng.random() < 0.5:
        c[rng.integers(N_KINDS)] += 3
    else:
        k = rng.choice(CHI_STARTS)
        c[k : k + 3] += 1


# Kinds a biased row draws its sets from (one suit, honours, terminals and honours, greens, winds).
PALETTES = [np.arange(9 * s, 9 * s + 9) for s in range(3)] + [
    np.arange(WIND0, N_KINDS),
    ORPHANS,
    np.array([19, 20, 21, 23, 25, 32]),
    np.arange(WIND0, WIND0 + 4),
    np.array([0, 8, 9, 17, 18, 26]),
    np.array([3, 4, 5, 12, 13, 14, 21, 22, 23]),
    np.array([6, 7, 8, 15, 16, 17, 24, 25, 26]),
]
PAL = np.array([np.resize(p, 12) for p in PALETTES])  # padded by repetition: uniform enough


def _special_rows(rng, n: int) -> np.ndarray:
    """``n`` concealed hands of 17 tiles: special shapes (eight_pairs, 十三么 pure or mixed, 十六不搭) and
    rare standard ones (九蓮寶燈 + a set, 一色雙龍會 / 三色雙龍會 + a set)."""
    out = np.zeros((n, N_KINDS), np.int8)
    for i in range(n):
        r = rng.integers(6)
        while True:
            c = np.zeros(N_KINDS, np.int64)
            if r == 0:  # seven pairs and a pon (a kind of four may be two pairs)
                kinds = rng.choice(N_KINDS, 8, replace=False)
                c[kinds[:7]] += 2
                c[kinds[7] if rng.random() < 0.8 else kinds[0]] += 3 if rng.random() < 0.8 else 2
                if rng.random() < 0.2:  # a quad: move one pair onto another pair's kind
                    c[kinds[1]] -= 2
                    c[kinds[2]] += 2
                if rng.random() < 0.3:  # seven consecutive pairs of one suit (連七對)
                    s = rng.integers(3)
                    lo = 9 * s + rng.integers(3)
                    c[:] = 0
                    c[lo : lo + 7] = 2
                    c[rng.choice(np.setdiff1d(np.arange(N_KINDS), np.arange(lo, lo + 7)))] = 3
            elif r == 1:  # 13 orphans + an orphan eye + a set
                c[ORPHANS] = 1
                c[rng.choice(ORPHANS)] += 1
                if rng.random() < 0.5:
                    c[rng.integers(N_KINDS)] += 3
                else:
                    k = rng.choice(CHI_STARTS)
                    c[k : k + 3] += 1
            elif r == 3:  # 1112345678999 + one tile of the suit + a set
                s = 9 * rng.integers(3)
                c[s : s + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
                c[s + rng.integers(9)] += 1
                _add_set(rng, c)
            elif r == 4:  # 123 123 789 789 + 55 of one suit (or the chows of two suits, the 55 of the third)
                a, b, e = 9 * rng.permutation(3)
                if rng.random() < 0.5:
                    b = e = a
                c[[a, a + 1, a + 2, a + 6, a + 7, a + 8]] += 1
                c[[b, b + 1, b + 2, b + 6, b + 7, b + 8]] += 1
                c[e + 4] += 2
                _add_set(rng, c)
            else:  # 十六不搭: every honour, three spaced numbers per suit, one pair
                c[WIND0:] = 1
                dragon = rng.permutation(3) if rng.random() < 0.5 else None  # 147 258 369 over the suits
                for s in range(3):
                    gap = 2 if rng.random() < 0.3 else 3
                    while True:
                        nums = np.sort(rng.choice(9, 3, replace=False))
                        if dragon is not None:
                            nums = np.array([0, 3, 6]) + dragon[s]
                        if np.all(np.diff(nums) >= gap):
                            break
                    c[9 * s + nums] = 1
                c[rng.choice(np.flatnonzero(c))] += 1
            if c.max() <= 4 and c.sum() == 17:
                out[i] = c
                break
    return out


def random_hands(rng, n: int) -> dict:
    """``n`` random scoring inputs (mostly winning hands; see the module docstring) and settlement context."""
    conc = np.zeros((n, N_KINDS), np.int8)
    mt = np.zeros((n, 5), np.int8)
    mk = np.zeros((n, 5), np.int8)
    nm = np.zeros(n, np.int64)
    filled = 0
    while filled < n:
        m = 2 * (n - filled) + 16
        n_melds = rng.choice(6, m, p=[0.3, 0.22, 0.18, 0.14, 0.1, 0.06])
        is_chi = rng.random((m, 5)) < 0.5
        kind = np.where(is_chi, rng.choice(CHI_STARTS, (m, 5)), rng.integers(0, N_KINDS, (m, 5)))
        # a third of the rows take their sets from a palette (flushes, honours, terminals, greens, winds)
        biased = rng.random(m) < 0.35
        pal = rng.integers(0, len(PALETTES), m)
        pk = PAL[pal[:, None], rng.integers(0, 12, (m, 5))]
        one_suit = pal < 3
        ck = 9 * pal[:, None] + rng.integers(0, 7, (m, 5))
        is_chi = np.where(biased[:, None], is_chi & one_suit[:, None], is_chi)
        kind = np.where(biased[:, None], np.where(is_chi, ck, pk), kind)
        typ = np.where(is_chi, MELD_CHI, MELD_PON)
        upgrade = rng.choice([MELD_PON, MELD_KONG, MELD_ADDKONG, MELD_ANKONG], (m, 5), p=[0.55, 0.15, 0.1, 0.2])
        melded = np.arange(5)[None, :] < n_melds[:, None]
        typ = np.where(melded & ~is_chi, upgrade, typ)
        pair = np.where(biased, PAL[pal, rng.integers(0, 12, m)], rng.integers(0, N_KINDS, m))
        rows = np.arange(m)[:, None]
        total = np.zeros((m, N_KINDS), np.int64)
        hand = np.zeros((m, N_KINDS), np.int64)
        for s in range(5):
            ks = kind[:, s]
            size = np.where(typ[:, s] == MELD_CHI, 1, np.where(typ[:, s] <= MELD_PON, 3, 4))
            for d in range(3):
                kk = np.where(typ[:, s] == MELD_CHI, ks + d, ks)
                add = np.where(typ[:, s] == MELD_CHI, 1, size if d == 0 else 0)
                total[rows[:, 0], kk] += add
                hand[rows[:, 0], kk] += np.where(melded[:, s], 0, add)
        total[np.arange(m), pair] += 2
        hand[np.arange(m), pair] += 2
        ok = np.flatnonzero(total.max(axis=1) <= 4)[: n - filled]
        k = len(ok)
        conc[filled : filled + k] = hand[ok]
        mt[filled : filled + k] = np.where(melded[ok], typ[ok], 0)
        mk[filled : filled + k] = np.where(melded[ok], kind[ok], 0)
        nm[filled : filled + k] = n_melds[ok]
        filled += k
    # special shapes (no melds)
    sp = np.flatnonzero(rng.random(n) < 0.06)
    pool = _special_rows(rng, min(len(sp), 1000))  # drawn from a pool: the Python maker is slow
    conc[sp] = pool[rng.integers(0, len(pool), len(sp))] if len(sp) else pool
    nm[sp] = 0
    mt[sp] = 0
    mk[sp] = 0
    # non-winning hands of the right size (mostly scored -1)
    junk = np.flatnonzero(rng.random(n) < 0.03)
    for i in junk:  # drawn from the tiles the melds leave
        left = np.full(N_KINDS, 4)
        for m in range(nm[i]):
            k = mk[i, m]
            if mt[i, m] == MELD_CHI:
                left[k : k + 3] -= 1
            else:
                left[k] -= 3 if mt[i, m] <= MELD_PON else 4
        wall = np.repeat(np.arange(N_KINDS), left)
        conc[i] = np.bincount(rng.choice(wall, 3 * (5 - nm[i]) + 2, replace=False), minlength=N_KINDS)
    win_by = rng.choice(4, n, p=[0.45, 0.35, 0.08, 0.12]).astype(np.int64)
    held = np.where(conc > 0, rng.random((n, N_KINDS)) + 0.01, 0.0)
    win_tile = held.argmax(axis=1).astype(np.int64)
    no_tile = rng.random(n) < np.where(win_by == C.WIN_FLOWERS, 0.7, 0.04)  # heavenly, flower wins
    win_tile[no_tile] = -1
    # flower wins without a complete hand: one tile fewer (16 - 3 x melds)
    short = np.flatnonzero((win_by == C.WIN_FLOWERS) & (rng.random(n) < 0.4))
    conc[short, np.where(conc[short] > 0, rng.random((len(short), N_KINDS)) + 0.01, 0.0).argmax(axis=1)] -= 1
    flowers = np.where(rng.random(n) < 0.45, 0, rng.integers(0, 256, n) & rng.integers(0, 256, n))
    full = rng.random(n) < 0.12
    flowers[full] = rng.choice([0x0F, 0xF0, 0xFF, 0x7F, 0xFE, 0xEF, 0x1F, 0xF1], full.sum())
    flags = (rng.random((n, len(FLAG_BITS))) < 0.07) @ FLAG_BITS
    flags |= np.where(rng.random(n) < 0.2, rng.integers(0, 5, n), 0) << C.CHAIN_SHIFT
    seat = rng.integers(0, 4, n)
    rnd = rng.integers(0, 4, n)
    dealer = rng.integers(0, 4, n)
    winner = (seat + dealer) % 4
    other = (winner + rng.integers(1, 4, n)) % 4
    payer = np.where((win_by == C.WIN_SELF_DRAW) | ((win_by == C.WIN_FLOWERS) & (rng.random(n) < 0.5)), -1, other)
    streak = np.where(rng.random(n) < 0.7, 0, rng.integers(0, 8, n))
    return {
        "conc": conc,
        "mt": mt,
        "mk": mk,
        "nm": nm,
        "flowers": flowers.astype(np.int64),
        "win_tile": win_tile,
        "win_by": win_by,
        "seat": seat,
        "round": rnd,
        "flags": flags.astype(np.int64),
        "winner": winner,
        "payer": payer.astype(np.int64),
        "dealer": dealer,
        "streak": streak.astype(np.int64),
    }


def _with_opts(rules: Rules, opts: np.ndarray):
    """The native rules of ``rules`` with ``opts`` (a changed ``as_array()``) as their options."""
    return core.Rules(opts, *native_rules(rules).arrays()[1:])


def _opts_variants(rules: Rules) -> list:
    a = rules.as_array()
    b = a.copy()
    b[OPT_STREAK_CAP] = 2
    b[OPT_BASE] = 100
    b[OPT_PER_TAI] = 20
    return [native_rules(rules), _with_opts(rules, b)]


def _hand_args(h, rules):
    return (
        h["conc"],
        h["mt"],
        h["mk"],
        h["nm"],
        h["flowers"],
        h["win_tile"],
        h["win_by"],
        h["seat"],
        h["round"],
        h["flags"],
        native_rules(rules),
    )


def random_results(name: str, n: int = N_RANDOM):
    """(inputs, tai, items, deltas under each stake setting) of the random run of profile ``name``."""
    profile, options = RANDOM_PROFILES[name]
    rules = Rules.make(profile, **options)
    h = random_hands(np.random.default_rng(zlib.crc32(name.encode())), n)
    tai = np.zeros(n, np.int64)
    items = np.zeros((n, N_ITEMS), np.int32)
    _testing.score_batch(*_hand_args(h, rules), tai, items)
    deltas = []
    for opts in _opts_variants(rules):
        d = np.zeros((n, 4), np.int64)
        _testing.settle_batch(
            tai, h["win_by"], h["winner"], h["payer"], np.full(n, -1, np.int64), h["dealer"], h["streak"], opts, d
        )
        deltas.append(d)
    return h, tai, items, deltas


@pytest.mark.parametrize("name", list(RANDOM_PROFILES))
def test_random_hands(name):
    h, tai, items, deltas = random_results(name)
    NEW[f"random/{name}/inputs"] = digest(*(h[k] for k in sorted(h)))
    check(f"random/{name}", digest(tai, recorded_items(items), *deltas), f"random/{name}/inputs")
    profile, options = RANDOM_PROFILES[name]
    keys = Rules.make(profile, **options).profile_data.keys
    held = (items != 0).sum(axis=0)
    unseen = [k for k in keys if held[C.ITEM_KEYS.index(k)] == 0]
    assert (tai >= 0).sum() > 0.8 * len(tai)
    assert len(unseen) <= 3, unseen  # the random hands reach (almost) every item of the profile


@pytest.mark.parametrize("name", ["standard", "extras", "mcr"])
def test_random_batch_equals_single_calls_and_threads(name):
    """score_batch and settle_batch give row for row what score_hand and settle give, on any number of
    threads."""
    profile, options = RANDOM_PROFILES[name]
    rules = Rules.make(profile, **options)
    n = 3000
    h = random_hands(np.random.default_rng(17), n)
    args = _hand_args(h, rules)
    old = core.num_threads()
    runs = []
    try:
        for threads in (1, 4):
            core.set_num_threads(threads)
            tai = np.zeros(n, np.int64)
            items = np.zeros((n, N_ITEMS), np.int32)
            _testing.score_batch(*args, tai, items)
            runs.append((tai, items))
    finally:
        core.set_num_threads(old)
    tai, items = runs[0]
    assert np.array_equal(runs[1][0], tai) and np.array_equal(runs[1][1], items)
    opts = native_rules(rules)
    deltas = np.zeros((n, 4), np.int64)
    _testing.settle_batch(
        tai, h["win_by"], h["winner"], h["payer"], np.full(n, -1, np.int64), h["dealer"], h["streak"], opts, deltas
    )
    for i in range(0, n, 7):
        row = [a[i] for a in args[:10]]
        out = np.full(N_ITEMS, 3, np.int32)
        assert core.score_hand(*row, *args[10:], out) == tai[i] and np.array_equal(out, items[i]), i
        d = np.zeros(4, np.int64)
        if tai[i] >= 0:
            core.settle(tai[i], h["win_by"][i], h["winner"][i], h["payer"][i], h["dealer"][i], h["streak"][i], opts, d)
        assert np.array_equal(d, deltas[i]), i


def test_bench_loop():
    """score_all (the loop of tw16.bench.scoring) sums the hand tai that score_batch gives, per repetition."""
    for profile, options in [*RANDOM_PROFILES.values(), ("hongkong", {})]:
        native = native_rules(Rules.make(profile, **options))
        conc, mt, mk, nm, ctx = random_winning_hands(1024, seed=5)
        NEW["bench_loop/inputs"] = digest(conc, mt, mk, nm, ctx)
        n = len(conc)
        tai = np.zeros(n, np.int64)
        items = np.zeros((n, N_ITEMS), np.int32)
        # ctx columns: win_tile, win_by, seat, round, flowers; no flags
        _testing.score_batch(
            conc,
            mt,
            mk,
            nm,
            ctx[:, 4].copy(),
            ctx[:, 0].copy(),
            ctx[:, 1].copy(),
            ctx[:, 2].copy(),
            ctx[:, 3].copy(),
            np.zeros(n, np.int64),
            native,
            tai,
            items,
        )
        args = (conc, mt, mk, nm, ctx, native)
        assert core.score_all(*args, 2) == 2 * tai.sum() and core.score_all(*args, 0) == 0
        check(
            f"bench_loop/{profile}{'+extras' if options else ''}",
            digest(tai, recorded_items(items)),
            "bench_loop/inputs",
        )


def test_winning_shape():
    """winning_shape = is_win under the profile's shapes."""
    rng = np.random.default_rng(3)
    h = random_hands(rng, 3000)
    for profile, options in RANDOM_PROFILES.values():
        rules = Rules.make(profile, **options)
        p_opts, native = rules.profile_data.compiled()[2], native_rules(rules)
        for i in range(len(h["nm"])):
            n_sets = 5 - int(h["nm"][i])
            want = core.is_win(h["conc"][i], n_sets, int(p_opts[PO_SHAPES]))
            assert _testing.winning_shape(h["conc"][i], n_sets, native) == want


def test_dealer_tai():
    """莊家 1 + 連莊拉莊 2N, N the streak capped by streak_cap (negative: no cap), in int64."""
    rules = Rules.make("standard")
    opts = rules.as_array()
    for cap in (-1, 0, 1, 3):
        opts[OPT_STREAK_CAP] = cap
        native = _with_opts(rules, opts)
        for streak in (0, 1, 2, 5, 10**6, 2**62):
            n = streak if cap < 0 else min(streak, cap)
            want = (1 + 2 * n + 2**63) % 2**64 - 2**63  # wraps as int64
            assert core.dealer_tai(streak, native) == want


# --------------------------------------------------------------------------------------------------
# (c) The boundary


GOOD_HAND_TAI = 2  # the good hand: concealed 1 + single_wait 1


def _good():
    native = native_rules(Rules.make("standard"))
    conc = np.zeros(N_KINDS, np.int8)
    for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14):
        conc[k] += 1
    conc[27] = 2
    mt = np.zeros(5, np.int8)
    mk = np.zeros(5, np.int8)
    args = dict(
        concealed=conc,
        meld_type=mt,
        meld_kind=mk,
        n_melds=0,
        flowers=0,
        win_tile=27,
        win_by=C.WIN_DISCARD,
        seat_wind=1,
        round_wind=0,
        flags=0,
        rules=native,
        out_items=np.zeros(N_ITEMS, np.int32),
    )
    return args, native


def test_bindings_accept_the_good_hand():
    args, _ = _good()
    assert core.score_hand(**args) == GOOD_HAND_TAI
    assert core.score_hand(*args.values()) == GOOD_HAND_TAI


@pytest.mark.parametrize(
    "change, exc, words",
    [
        ({"concealed": np.zeros(N_KINDS, np.int16)}, TypeError, "concealed: expected dtype int8"),
        ({"concealed": np.zeros(33, np.int8)}, ValueError, "concealed: expected axis 0 of size 34"),
        ({"concealed": np.zeros((2, N_KINDS), np.int8)}, ValueError, "concealed: expected 1 dimensions"),
        ({"out_items": np.zeros(N_ITEMS, np.int64)}, TypeError, "out_items: expected dtype int32"),
        ({"out_items": np.zeros(N_ITEMS - 1, np.int32)}, ValueError, "out_items"),
        ({"rules": Rules.make("standard")}, TypeError, "rules"),  # the Python rules: native_rules() of them
        ({"rules": None}, TypeError, "rules"),
        ({"win_tile": 34}, ValueError, "win_tile"),
        ({"win_tile": -2}, ValueError, "win_tile"),
        ({"win_tile": 20}, ValueError, "win_tile: kind 20 is not among the concealed tiles"),
        ({"win_by": 4}, ValueError, "win_by"),
        ({"win_by": -1}, ValueError, "win_by"),
        ({"seat_wind": 4}, ValueError, "seat_wind"),
        ({"round_wind": -1}, ValueError, "round_wind"),
        ({"n_melds": 6}, ValueError, "n_melds"),
        ({"n_melds": -1}, ValueError, "n_melds"),
        ({"flowers": 256}, ValueError, "flowers"),
        ({"flowers": -1}, ValueError, "flowers"),
    ],
)
def test_score_hand_bad_input(change, exc, words):
    args, _ = _good()
    args.update(change)
    with pytest.raises(exc, match=words):
        core.score_hand(**args)


def test_bad_counts_and_melds():
    args, _ = _good()
    args["concealed"] = args["concealed"].copy()
    args["concealed"][5] = 5
    with pytest.raises(ValueError, match="concealed: count of kind 5 is 5"):
        core.score_hand(**args)
    args, _ = _good()
    args["concealed"] = args["concealed"].copy()
    args["concealed"][3] = -1
    with pytest.raises(ValueError, match="concealed"):
        core.score_hand(**args)
    for mt, mk, words in (
        (5, 0, "meld_type"),
        (-1, 0, "meld_type"),
        (MELD_PON, 34, "meld_kind"),
        (MELD_PON, -3, "meld_kind"),
        (MELD_CHI, 7, "meld_kind: meld 0 is a chi starting on kind 7"),
        (MELD_CHI, 27, "meld_kind"),
    ):
        args, _ = _good()
        args["meld_type"] = np.array([mt, 0, 0, 0, 0], np.int8)
        args["meld_kind"] = np.array([mk, 0, 0, 0, 0], np.int8)
        args["n_melds"] = 1
        with pytest.raises(ValueError, match=words):
            core.score_hand(**args)
    args, _ = _good()
    args["meld_type"] = np.array([MELD_PON, 0, 0, 0, 0], np.int8)
    args["meld_kind"] = np.array([27, 0, 0, 0, 0], np.int8)
    args["n_melds"] = 1
    with pytest.raises(ValueError, match="concealed, meld_kind: 5 tiles of kind 27"):
        core.score_hand(**args)
    args, _ = _good()
    args["meld_type"] = np.zeros(2, np.int8)
    args["n_melds"] = 3
    with pytest.raises(ValueError, match="n_melds"):
        core.score_hand(**args)


def test_rules_bad_arrays():
    """The profile's arrays are checked once, when the native rules are built from them (every scorer
    takes the built object)."""
    opts, cfg, p_tai, p_repl, p_opts = native_rules(Rules.make("standard")).arrays()
    for bad, exc, words in (
        ((opts, cfg, np.zeros((3, N_ITEMS), np.int32), p_repl, p_opts), ValueError, "p_tai"),
        ((opts, cfg, p_tai, np.zeros((N_ITEMS, N_ITEMS), np.int32), p_opts), TypeError, "p_repl"),
        ((opts, cfg, p_tai, p_repl, np.zeros(2, np.int64)), ValueError, "p_opts"),
        ((opts[:5], cfg, p_tai, p_repl, p_opts), ValueError, "opts"),
    ):
        with pytest.raises(exc, match=words):
            core.Rules(*bad)
    p_tai = p_tai.copy()
    p_tai[3, 0] = N_ITEMS
    with pytest.raises(ValueError, match="p_tai: row 3"):
        core.Rules(opts, cfg, p_tai, p_repl, p_opts)


def test_settle_bad_input():
    _, opts = _good()
    d = np.zeros(4, np.int64)
    for kw, words in (
        ({"winner": 4}, "winner"),
        ({"payer": 4}, "payer"),
        ({"payer": -2}, "payer"),
        ({"dealer": -1}, "dealer"),
        ({"win_by": 9}, "win_by"),
    ):
        a = dict(hand_tai=3, win_by=0, winner=1, payer=2, dealer=0, streak=0, rules=opts, out_deltas=d) | kw
        with pytest.raises(ValueError, match=words):
            core.settle(**a)
    with pytest.raises(ValueError, match="out_deltas"):
        core.settle(3, 0, 1, 2, 0, 0, opts, np.zeros(3, np.int64))
    with pytest.raises(TypeError):  # the bare options array is not the rules
        core.settle(3, 0, 1, 2, 0, 0, Rules.make("standard").as_array(), d)
    with pytest.raises(TypeError, match="out_deltas"):
        core.settle(3, 0, 1, 2, 0, 0, opts, np.zeros(4, np.int32))
    ro = np.zeros(4, np.int64)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        core.settle(3, 0, 1, 2, 0, 0, opts, ro)
    with pytest.raises(ValueError, match="liable"):
        core.settle(3, 0, 1, 2, 0, 0, opts, d, liable=4)
    with pytest.raises(ValueError, match="out_dealer_tai"):
        core.settle(3, 0, 1, 2, 0, 0, opts, d, out_dealer_tai=np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="out_dealer_tai"):
        core.settle(3, 0, 1, 2, 0, 0, opts, d, out_dealer_tai=np.zeros(4, np.int32))


def test_settle_is_one_settlement():
    """settle follows the rules (one settlement, settle.hpp): under a hongkong one it pays
    hk_legs' legs (全包 with liable), and out_dealer_tai holds the dealer tai of each seat's paid leg."""
    std, hk = native_rules(Rules.make("standard")), native_rules(Rules.make("hongkong"))
    for opts, liable, want_dt in ((std, 3, [0, 5, 5, 5]), (hk, 3, [0, 5, 5, 5]), (hk, -1, [0, 5, 5, 5])):
        d, dt = np.zeros(4, np.int64), np.zeros(4, np.int64)
        assert core.settle(10, C.WIN_SELF_DRAW, 0, -1, 0, 2, opts, d, liable=liable, out_dealer_tai=dt) == 3
        assert dt.tolist() == want_dt
        legs = (30 + 10 * 15) * 3
        if opts is hk and liable == 3:  # N pays all three legs
            assert d.tolist() == [legs, 0, 0, -legs]
        else:  # each seat its own leg (standard rules know no 全包)
            assert d.tolist() == [legs, -legs // 3, -legs // 3, -legs // 3]
        d_hk = np.zeros(4, np.int64)
        _testing.hk_settle(10, C.WIN_SELF_DRAW, 0, -1, liable, 0, 2, opts, d_hk)
        assert np.array_equal(d, d_hk)
    # a non-dealer self-draw: the dealer's leg carries the dealer tai under standard rules only
    for opts, want_dt in ((std, [5, 0, 0, 0]), (hk, [0, 0, 0, 0])):
        d, dt = np.zeros(4, np.int64), np.zeros(4, np.int64)
        core.settle(10, C.WIN_SELF_DRAW, 1, -1, 0, 2, opts, d, out_dealer_tai=dt)
        assert dt.tolist() == want_dt


def test_batch_bad_input():
    rng = np.random.default_rng(1)
    h = random_hands(rng, 50)
    native = native_rules(Rules.make("standard"))

    def call(**over):
        a = (
            dict(
                concealed=h["conc"],
                meld_type=h["mt"],
                meld_kind=h["mk"],
                n_melds=h["nm"],
                flowers=h["flowers"],
                win_tile=h["win_tile"],
                win_by=h["win_by"],
                seat_wind=h["seat"],
                round_wind=h["round"],
                flags=h["flags"],
                rules=native,
                out_tai=np.zeros(50, np.int64),
                out_items=np.zeros((50, N_ITEMS), np.int32),
            )
            | over
        )
        _testing.score_batch(**a)

    call()
    with pytest.raises(ValueError, match="n_melds: expected axis 0 of size 50"):
        call(n_melds=h["nm"][:49])
    wb = h["win_by"].copy()
    wb[17] = 7
    with pytest.raises(ValueError, match=r"win_by\[17\]"):
        call(win_by=wb)
    sw = h["seat"].copy()
    sw[3] = 4
    with pytest.raises(ValueError, match=r"seat_wind\[3\]"):
        call(seat_wind=sw)
    with pytest.raises(ValueError, match="out_items"):
        call(out_items=np.zeros((49, N_ITEMS), np.int32))
    with pytest.raises(TypeError, match="flags"):
        call(flags=h["flags"].astype(np.int32))
    d = np.zeros((50, 4), np.int64)
    tai = np.zeros(50, np.int64)
    liable = np.full(50, -1, np.int64)
    with pytest.raises(ValueError, match=r"liable\[0\]"):
        _testing.settle_batch(
            tai, h["win_by"], h["winner"], h["payer"], liable - 1, h["dealer"], h["streak"], native, d
        )
    bad_w = h["winner"].copy()
    bad_w[9] = -1
    with pytest.raises(ValueError, match=r"winner\[9\]"):
        _testing.settle_batch(tai, h["win_by"], bad_w, h["payer"], liable, h["dealer"], h["streak"], native, d)


def test_zz_recorded_digests(capsys):
    """Record mode (TW16_RECORD=1, with -s): print the digests of this run for RECORDED."""
    DIGESTS.print_for_recording(capsys)


RECORDED.update(
    {  # the recorded results (see the docstring)
        "bench_loop/casual": "423dc1d02f007e8a4856",
        "bench_loop/hongkong": "69dc6c858bcb4354bee7",
        "bench_loop/inputs": "09008b17d8669738aee1",
        "bench_loop/standard": "a74f405fd4c49b7e49ae",
        "bench_loop/standard+extras": "52ec1948b97e3817fa83",
        "bench_loop/strict16": "36f599c8189fcd411b41",
        "bench_loop/strict16+extras": "9e3e47baa6dfa0d6f4b2",
        "bench_loop/tests/data/profiles/mcr_fans.toml": "88769046946098e88af1",
        "cases/inputs": "05340079e1f734cb14ac",
        "cases/results": "31eec61a157f6d14e94e",
        "random/casual": "b20cdf186078dc7980a2",
        "random/casual/inputs": "74a864f641d57374b029",
        "random/extras": "3f9abfcc97956435597e",  # re-recorded: contract turn (flower-win replacement flags, 天胡 九蓮)
        "random/extras/inputs": "9af5a37388fa53903973",
        "random/extras_strict16_gap2": "fcba8aa0ff8bab17cf79",  # re-recorded, as random/extras
        "random/extras_strict16_gap2/inputs": "2ab4944a89a93330131a",
        "random/mcr": "05556a5fe18178099cb7",
        "random/mcr/inputs": "28418c74df6a3314fda8",
        "random/standard": "db7faccca7d457951e66",
        "random/standard/inputs": "feefbcb375bb0ee9d26e",
        "random/strict16": "6cc25602580c53f86fed",
        "random/strict16/inputs": "6dd54bbf2092dd70c92a",
    }
)
