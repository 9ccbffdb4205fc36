"""The native hand analysis (envs._core: native/include/tw16/hand.hpp, native/src/hand_tables.cpp) against recorded results,
at its boundary, and batch against single calls.

The digests in RECORDED (history: docs/versions.md) are of the results (return values and
everything written to the out arrays, including what a function leaves unwritten) on
(a) the existing hand test data: every notation hand in the parametrize lists of tests/test_hand.py and
    tests/test_hand_shapes.py, and the hands (with and without the winning tile, melds as held copies)
    of the scoring case files tests/data/*.jsonl, each with every n_sets 0..5 and several shape sets;
(b) 20000 random count vectors of every size 1..17: dealt from a wall, complete hands with tiles moved,
    single-suit hands (many decompositions), near special shapes (eight pairs, 十三么, 十六不搭);
(c) 5000 rows of invalid counts (outside 0..4) and n_sets outside 0..5, through the functions' own
    INVALID paths (the bindings refuse them; _eval_batch with strict=False reaches them);
and of the bench makers (native/src/bench_hands.cpp's random stream) and gen_group. A digest names its inputs too: when
the inputs change (a hand added to the test lists, another numpy random stream) the test says so; check
the new results and re-record with TW16_RECORD=1 (run with -s: the digests are printed at the end).
Also checked: the tables and their SHA-256 check, the per-call bindings (every out dtype) and the batch
forms against _eval_batch, thread independence, the bench loops, and the bindings' bad-input errors.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

C = pytest.importorskip("envs._core")
T = C._testing  # what only the tests call


def binding(name):
    """The hand-analysis function ``name``: the game API's in C, the others in T."""
    return getattr(C, name) if hasattr(C, name) else getattr(T, name)


from recorded import Digests  # noqa: E402

from envs.hand import analysis as A  # noqa: E402
from envs.hand import tables  # noqa: E402
from envs.tiles import N_KINDS, WIND0, parse_hand, parse_meld  # noqa: E402

DATA = Path(__file__).parent / "data"
W = T.HAND_EVAL_WIDTH  # out columns of T.eval_batch
ORPHANS = np.array([0, 8, 9, 17, 18, 26] + list(range(WIND0, N_KINDS)))
SHAPE_SETS = (0, 1, 2, 4, 6, 7, 8, 9, 14, 15, 24, 31)
SENTINEL = -7  # what the out arrays hold before a call: unwritten entries must keep it
N_RANDOM = 20_000
N_INVALID = 5_000
DIGESTS = Digests()
RECORDED = DIGESTS.recorded  # filled at the end of the file
NEW = DIGESTS.new  # the digests of this run (printed in record mode)
check = DIGESTS.check


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:20]


def run(name, hands, n_sets, held, shapes, strict=True):
    """(ret, out) of `name` over the rows, through T.eval_batch (out pre-filled with SENTINEL)."""
    out = np.full((len(hands), W), SENTINEL, np.int64)
    ret = np.zeros(len(hands), np.int64)
    T.eval_batch(name, hands, n_sets, held, shapes, out, ret, strict)
    return ret, out


# functions whose n_sets sizes something (a table row, the decomposition rows): 0..5 even when not strict
N_SETS_BOUND = {"combine4", "decompositions"}


# --------------------------------------------------------------------------------------------------
# Inputs


def _param_hands():
    """Notation hands in the parametrize lists of the existing hand tests."""
    import tests.test_hand as th
    import tests.test_hand_shapes as ts

    found = []
    for mod in (th, ts):
        for obj in vars(mod).values():
            for mark in getattr(obj, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                for case in mark.args[1]:
                    vals = case.values if hasattr(case, "values") else case
                    for v in vals if isinstance(vals, (tuple, list)) else (vals,):
                        if isinstance(v, str):
                            try:
                                found.append(parse_hand(v))
                            except Exception:  # noqa: BLE001 - not a hand (an id, a name)
                                pass
    return found


def _case_file_hands():
    """(concealed counts, held counts) from the scoring case files: the hand, and it plus the winning tile."""
    out = []
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                case = json.loads(line)
                c = parse_hand(case["hand"])
                melds = [parse_meld(m) for m in case.get("melds", [])]
            except Exception:  # noqa: BLE001 - a case that is not a plain hand
                continue
            held = c.astype(np.int64)
            for m in melds:
                for k in m.kinds:
                    held[k] += 1
            hands = [c]
            wt = case.get("win_tile")
            if isinstance(wt, str):
                try:
                    w = parse_hand(wt)
                    hands.append((c + w).astype(np.int8))
                    held = held + w
                except Exception:  # noqa: BLE001
                    pass
            for h in hands:
                if h.max() <= 4 and h.min() >= 0:
                    out.append((h, np.minimum(held, 4).astype(np.int8)))
    return out


@functools.cache
def existing_data():
    """(hands, n_sets, held, shapes) int8/int64 batch: every existing hand x n_sets 0..5 x shape sets."""
    pairs = [(h, h) for h in _param_hands()] + _case_file_hands()
    assert len(pairs) > 100
    H, NS, HD, SH = [], [], [], []
    for h, held in pairs:
        for ns in range(6):
            for sh in SHAPE_SETS:
                H.append(h)
                NS.append(ns)
                HD.append(held)
                SH.append(sh)
    return np.array(H, np.int8), np.array(NS, np.int64), np.array(HD, np.int8), np.array(SH, np.int64)


def _deal(rng, n, kinds=None):
    c = np.zeros(N_KINDS, np.int64)
    pool = np.repeat(np.arange(N_KINDS) if kinds is None else np.asarray(kinds), 4)
    for k in rng.choice(pool, size=min(n, len(pool)), replace=False):
        c[k] += 1
    return c


def _complete(rng, n_sets, suit=None):
    """A pair and n_sets sets; all in one suit when `suit` is given (many decompositions)."""
    while True:
        c = np.zeros(N_KINDS, np.int64)
        c[rng.integers(N_KINDS) if suit is None else 9 * suit + rng.integers(9)] += 2
        for _ in range(n_sets):
            s = rng.integers(3) if suit is None else suit
            if rng.random() < 0.5:
                k = 9 * s + rng.integers(7)
                c[k : k + 3] += 1
            else:
                c[rng.integers(N_KINDS) if suit is None else 9 * s + rng.integers(9)] += 3
        if c.max() <= 4:
            return c


def _special(rng):
    kind = rng.integers(3)
    c = np.zeros(N_KINDS, np.int64)
    if kind == 0:  # eight pairs
        ks = rng.choice(N_KINDS, 8, replace=False)
        c[ks] = 2
        c[ks[0]] = 3
        if rng.random() < 0.2:
            c[ks[1]] = 4
            c[ks[2]] = 0
            c[ks[0]] = 3
    elif kind == 1:  # 十三么: orphans + an eye + a set
        c[ORPHANS] = 1
        c[rng.choice(ORPHANS)] += 1
        if rng.random() < 0.5:
            c[rng.integers(N_KINDS)] += 3
        else:
            k = 9 * rng.integers(3) + rng.integers(7)
            c[k : k + 3] += 1
    else:  # 十六不搭: honours once, three spread numbers per suit, an eye
        c[WIND0:] = 1
        gap = 2 if rng.random() < 0.4 else 3
        for s in range(3):
            while True:
                t = np.sort(rng.choice(9, 3, replace=False))
                if t[1] - t[0] >= gap and t[2] - t[1] >= gap:
                    break
            c[9 * s + t] = 1
        c[rng.choice(np.flatnonzero(c))] += 1
    return np.minimum(c, 4)


def _move_tiles(rng, c, n_moves):
    c = c.copy()
    for _ in range(n_moves):
        op = rng.integers(3)
        held = np.flatnonzero(c > 0)
        room = np.flatnonzero(c < 4)
        if op == 0 and held.size:  # remove
            c[rng.choice(held)] -= 1
        elif op == 1 and room.size:  # add
            c[rng.choice(room)] += 1
        elif held.size and room.size:  # move
            a, b = rng.choice(held), rng.choice(room)
            c[a] -= 1
            c[b] += 1
    return c


def _n_sets_for(rng, t):
    if rng.random() < 0.2:
        return int(rng.integers(6))
    if t % 3 == 0:
        return int(min(5, max(0, t // 3 - rng.integers(2))))
    return int(min(5, (t - 1) // 3 if t % 3 == 1 else (t - 2) // 3))


@functools.cache
def random_data(n, seed, invalid=False):
    """n random rows: sizes 1..17 (and near the special shapes), held >= counts, random shape sets."""
    rng = np.random.default_rng(seed)
    H = np.zeros((n, N_KINDS), np.int64)
    HD = np.zeros((n, N_KINDS), np.int64)
    NS = np.zeros(n, np.int64)
    SH = rng.integers(0, 32, n)
    for i in range(n):
        kind = rng.integers(6)
        if kind == 5:  # a complete hand in one suit, maybe a tile moved
            c = _move_tiles(rng, _complete(rng, int(rng.integers(6)), int(rng.integers(3))), int(rng.integers(2)))
        elif kind == 0:
            c = _deal(rng, int(rng.integers(1, 18)))
        elif kind == 1:
            c = _move_tiles(rng, _complete(rng, int(rng.integers(6))), int(rng.integers(3)))
        elif kind == 2:  # one suit (+ a few others): many decompositions and waits
            s = rng.integers(3)
            c = _deal(rng, int(rng.integers(1, 15)), range(9 * s, 9 * s + 9)) + _deal(rng, int(rng.integers(0, 4)))
            c = np.minimum(c, 4)
            while c.sum() > 17:
                c[rng.choice(np.flatnonzero(c))] -= 1
        elif kind == 3:
            c = _move_tiles(rng, _special(rng), int(rng.integers(2)))
        else:
            c = _move_tiles(rng, _special(rng), 0)
            c[rng.choice(np.flatnonzero(c))] -= 1  # 16 tiles: the special waits
        t = int(c.sum())
        if t == 0:
            c[rng.integers(N_KINDS)] = 1
            t = 1
        H[i] = c
        held = c.copy()
        if rng.random() < 0.5:  # copies in melds (held four times: never a wait)
            for k in rng.choice(N_KINDS, int(rng.integers(1, 5))):
                held[k] = rng.integers(held[k], 5)
        HD[i] = held
        NS[i] = _n_sets_for(rng, t)
    if invalid:  # counts outside 0..4 in some rows, n_sets outside 0..5 in others
        rows = rng.random(n) < 0.5
        H[rows, rng.integers(N_KINDS, size=rows.sum())] = rng.choice([-3, -1, 5, 6, 9, 100], rows.sum())
        rows = rng.random(n) < 0.3
        NS[rows] = rng.choice([-2, -1, 6, 7, 11], rows.sum())
        rows = rng.random(n) < 0.2
        HD[rows, rng.integers(N_KINDS, size=rows.sum())] = rng.choice([-1, 5, 7], rows.sum())
    return H, NS, HD, SH


# --------------------------------------------------------------------------------------------------
# Tables


def test_tables_and_their_sha256_check():
    sd, sf, hd, hf = C.hand_tables()
    assert sd is not None and np.array_equal(sd, tables.SUIT_DIST) and np.array_equal(hf, tables.HONOUR_FLAGS)
    assert not sd.flags.writeable
    assert T.HAND_TABLES_MAGIC == tables.MAGIC
    assert T.HAND_TABLES_SHA256 == tables.FILE_SHA256 == T.hand_tables_sha256()
    data = tables.MAGIC + b"".join(a.tobytes() for a in (sd, sf, hd, hf))
    assert len(data) == tables.FILE_SIZE
    assert T.sha256_hex(data) == hashlib.sha256(data).hexdigest() == tables.FILE_SHA256
    rng = np.random.default_rng(0)
    for n in (0, 1, 55, 56, 63, 64, 65, 127, 128, 1000):
        b = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert T.sha256_hex(b) == hashlib.sha256(b).hexdigest()
    T.check_hand_tables(tables.FILE_SHA256)
    with pytest.raises(C.TableError, match="checksum"):
        T.check_hand_tables("0" * 64)
    assert issubclass(C.TableError, RuntimeError)


def test_gen_group():
    """The generator run again gives the loaded tables; smaller groups give the recorded tables."""
    d, f = T.gen_group(9, True)
    assert np.array_equal(d, tables.SUIT_DIST) and np.array_equal(f, tables.SUIT_FLAGS)
    d, f = T.gen_group(7, False)
    assert np.array_equal(d, tables.HONOUR_DIST) and np.array_equal(f, tables.HONOUR_FLAGS)
    for nk, chi in ((3, True), (4, False), (5, True), (6, False)):
        check(f"gen_group/{nk}/{chi}", digest(*T.gen_group(nk, chi)))


# --------------------------------------------------------------------------------------------------
# Every function against the recorded results


@pytest.mark.parametrize("name", T.HAND_EVAL_FNS)
def test_existing_hand_data(name):
    H, NS, HD, SH = existing_data()
    NEW["existing/inputs"] = digest(H, NS, HD, SH)
    check(f"existing/{name}", digest(*run(name, H, NS, HD, SH)), "existing/inputs")


@pytest.mark.parametrize("name", T.HAND_EVAL_FNS)
def test_random_hands(name):
    H, NS, HD, SH = random_data(N_RANDOM, seed=1)
    NEW["random/inputs"] = digest(H, NS, HD, SH)
    ret, out = run(name, H.astype(np.int8), NS, HD.astype(np.int8), SH)
    check(f"random/{name}", digest(ret, out), "random/inputs")
    # the other dtype the callers pass (int64 scratch) gives the same
    m = N_RANDOM // 10
    r64, o64 = run(name, H[:m], NS[:m], HD[:m], SH[:m])
    assert np.array_equal(r64, ret[:m]) and np.array_equal(o64, out[:m])


@pytest.mark.parametrize("name", T.HAND_EVAL_FNS)
def test_invalid_counts_and_n_sets(name):
    """The functions' own paths for counts outside 0..4 and n_sets outside 0..5 (INVALID, False, 0)."""
    H, NS, HD, SH = random_data(N_INVALID, seed=2, invalid=True)
    NEW["invalid/inputs"] = digest(H, NS, HD, SH)
    if name in N_SETS_BOUND:
        NS = np.clip(NS, 0, 5)
    ret, out = run(name, H, NS, HD, SH, strict=False)
    check(f"invalid/{name}", digest(ret, out), "invalid/inputs")
    small = (H >= -128).all(1) & (H <= 127).all(1) & (HD >= -128).all(1) & (HD <= 127).all(1)
    r8, o8 = run(name, H[small].astype(np.int8), NS[small], HD[small].astype(np.int8), SH[small], strict=False)
    assert np.array_equal(r8, ret[small]) and np.array_equal(o8, out[small])
    if name in ("shanten", "win_shanten", "eight_pairs_shanten"):
        bad = ((H < 0) | (H > 4)).any(1)
        assert (ret[bad] == A.INVALID).all()


def test_every_size_and_shape_is_covered():
    H, NS, HD, SH = random_data(N_RANDOM, seed=1)
    n = len(H)
    sizes = H.sum(1)
    assert set(range(1, 18)) <= set(sizes.tolist())
    r = {}
    for name in (
        "is_complete",
        "is_eight_pairs",
        "special_shape",
        "decompositions",
        "win_wait_mask",
        "special_wait_mask",
    ):
        r[name] = run(name, H.astype(np.int8), NS, HD.astype(np.int8), SH)[0]
    assert r["is_complete"].sum() > n // 50 and r["is_eight_pairs"].sum() > n // 200
    for bit in (1, 2, 4, 8):
        assert (r["special_shape"] == bit).sum() > 0, bit
    assert r["decompositions"].max() >= 3 and (r["win_wait_mask"] > 0).sum() > n // 20
    assert (r["special_wait_mask"] > 0).sum() > 0


# --------------------------------------------------------------------------------------------------
# The per-call bindings (the names the Python callers use), every out dtype, against _eval_batch


OUT_DTYPES = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8)


def _expected_out(row_out, length, odt, fill):
    """What a per-call binding leaves in an out array of dtype odt pre-filled with fill (length + 2)."""
    want = np.full(length + 2, fill, odt)
    written = row_out[:length] != SENTINEL
    want[:length][written] = row_out[:length][written].astype(odt)
    return want


def test_per_call_bindings():
    H, NS, HD, SH = random_data(1000, seed=3)
    Hx, NSx, HDx, SHx = existing_data()
    sel = np.arange(0, len(Hx), 7)
    H8 = np.concatenate([H.astype(np.int8), Hx[sel]])
    HD8 = np.concatenate([HD.astype(np.int8), HDx[sel]])
    NS_, SH_ = np.concatenate([NS, NSx[sel]]), np.concatenate([SH, SHx[sel]])
    ref = {name: run(name, H8, NS_, HD8, SH_) for name in T.HAND_EVAL_FNS}
    rng = np.random.default_rng(4)
    calls = [  # name, extra arguments, out length
        ("discard_shanten", ("ns",), 34),
        ("best_discards", ("ns",), 34),
        ("wait_mask", ("ns", "held"), 34),
        ("eight_pairs_wait_mask", ("held",), 34),
        ("thirteen_orphans_parts", (), 3),
        ("sixteen_unrelated_suits", ("sh",), 3),
        ("special_wait_mask", ("held", "sh"), 34),
        ("win_wait_mask", ("ns", "held", "sh"), 34),
    ]
    for i in range(len(H8)):
        c, ns, held, sh = H8[i], int(NS_[i]), HD8[i], int(SH_[i])
        cc = c.astype((np.int8, np.int16, np.int32, np.int64, np.uint8)[i % 5])
        hh = held.astype((np.int8, np.int64)[i % 2])
        for name in ("is_complete", "shanten"):
            assert binding(name)(cc, ns) == ref[name][0][i], (name, c, ns)
        for name in ("is_win", "win_shanten"):
            assert binding(name)(cc, ns, sh) == ref[name][0][i], (name, c, ns, sh)
        for name in ("is_eight_pairs", "eight_pairs_shanten"):
            assert binding(name)(cc) == ref[name][0][i], (name, c)
        for name in (
            "is_thirteen_orphans",
            "thirteen_orphans_shanten",
            "is_sixteen_unrelated",
            "sixteen_unrelated_shanten",
            "special_shape",
        ):
            assert binding(name)(cc, sh) == ref[name][0][i], (name, c, sh)
        codes = T.codes(cc)
        assert list(codes[0]) + list(codes[1]) == ref["codes"][1][i][:8].tolist()
        assert np.array_equal(T.wait_array(cc, ns, hh), ref["wait_array"][1][i][:34] == 1)
        odt = OUT_DTYPES[rng.integers(len(OUT_DTYPES))]
        fill = rng.integers(0, 2) if odt == np.bool_ else (rng.integers(-5, 5) if odt != np.uint8 else 7)
        vals = {"ns": ns, "held": hh, "sh": sh}
        for name, extra, length in calls:
            o = np.full(length + 2, fill, odt)
            r = binding(name)(cc, *[vals[x] for x in extra], o)
            assert r == ref[name][0][i], (name, c, extra)
            assert np.array_equal(o, _expected_out(ref[name][1][i], length, odt, fill)), (name, c, odt)
        rows = ref["decompositions"][1][i].reshape(A.MAX_DECOMPOSITIONS, A.DEC_WIDTH)
        for odt2 in (np.int8, np.int64):
            o = np.full((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH), SENTINEL, odt2)
            assert C.decompositions(cc, ns, o) == ref["decompositions"][0][i] and np.array_equal(o, rows)
            o = np.full((2, 1 + 2 * ns), SENTINEL, odt2)  # too few rows: only the first are written
            assert C.decompositions(cc, ns, o) == ref["decompositions"][0][i]
            assert np.array_equal(o, rows[:2, : 1 + 2 * ns])


def test_any_dtype_views_and_longer_rows():
    """Any integer dtype, strided views, rows longer than 34 (only the first 34 are read)."""
    c = parse_hand("123m 456m 789m 123p 55p EEE")
    batch = np.zeros((3, 40), np.int8)
    batch[1, :34] = c
    batch[1, 34:] = 9  # past the 34 kinds: never read
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        assert T.is_complete(c.astype(dt), 5)
    assert T.is_complete(batch[1], 5) and not T.is_complete(batch[0], 5)
    assert np.array_equal(C.is_complete_batch(batch, 5), [False, True, False])
    strided = np.zeros((34, 2), np.int64)
    strided[:, 1] = c
    assert T.shanten(strided[:, 1], 5) == -1 and C.win_shanten(c[::-1][::-1], 5, 31) == -1
    out = np.zeros((34, 2), np.bool_)
    ready = parse_hand("23m 567m 123p 456p 789p 99s")
    assert T.wait_mask(ready, 5, ready, out[:, 1]) == 2 and out[:, 1].sum() == 2 and not out[:, 0].any()


def _is_orphan(k):
    return k >= WIND0 or k % 9 in (0, 8)


def test_private_helpers():
    """Against plain-Python statements of what they compute."""
    for k in range(N_KINDS):
        assert T.is_orphan(k) == _is_orphan(k)
    for code in range(-1, 4):
        for sh in range(32):
            want = (code == 1 and sh & A.SHAPE_THIRTEEN_PURE != 0) or (code == 2 and sh & A.SHAPE_THIRTEEN_MIXED != 0)
            assert T.thirteen_code_ok(code, sh) == want
    rng = np.random.default_rng(5)
    for _ in range(300):
        c = rng.integers(0, 5, N_KINDS).astype(np.int64)
        need = rng.integers(0, 6, N_KINDS).astype(np.int64)
        ks = rng.integers(0, N_KINDS, 4).astype(np.int64)
        ks[1:] = np.where(rng.random(3) < 0.3, ks[0], ks[1:])
        n = int(rng.integers(0, 5))
        # the change of sum(max(0, need - c)) over the distinct ks[:n] against a need of 1 per orphan
        want = sum(max(0, need[k] - c[k]) - max(0, int(_is_orphan(k)) - c[k]) for k in {int(x) for x in ks[:n]})
        assert T.extra_cost(c, need, ks, n) == want
        rows = [rng.integers(0, 18, 12).astype(np.uint8) for _ in range(4)]
        n = int(rng.integers(0, 6))
        # min over n sets split among the four rows and one pair in one of them (columns 2*m + p)
        want = min(
            sum(int(rows[g][2 * m[g] + (g == pg)]) for g in range(4))
            for m in np.ndindex(*(n + 1,) * 4)
            if sum(m) == n
            for pg in range(4)
        )
        assert T.combine4(*rows, n) == want


def test_batch_forms():
    H, NS, HD, SH = random_data(2000, seed=6)
    H8, HD8 = H.astype(np.int8), HD.astype(np.int8)
    ns5 = np.full(len(H), 5, np.int64)
    for sh in (0, 1, 15, 31):
        shv = np.full(len(H), sh, np.int64)
        for ns_arg, nsv in ((NS, NS), (5, ns5)):
            assert np.array_equal(T.is_win_batch(H8, ns_arg, sh), run("is_win", H8, nsv, HD8, shv)[0] == 1)
            assert np.array_equal(C.win_shanten_batch(H, ns_arg, sh), run("win_shanten", H8, nsv, HD8, shv)[0])
            want = run("win_wait_mask", H8, nsv, HD8, shv)[1][:, :34] == 1
            assert np.array_equal(C.win_wait_mask_batch(H8, ns_arg, HD8, sh), want)
    shv = np.zeros(len(H), np.int64)
    for ns_arg, nsv in ((NS, NS), (5, ns5)):
        assert np.array_equal(C.is_complete_batch(H8, ns_arg), run("is_complete", H8, nsv, HD8, shv)[0] == 1)
        assert np.array_equal(C.shanten_batch(H8, ns_arg), run("shanten", H8, nsv, HD8, shv)[0])
        assert np.array_equal(C.discard_shanten_batch(H8, ns_arg), run("discard_shanten", H8, nsv, HD8, shv)[1][:, :34])
        assert np.array_equal(T.wait_mask_batch(H8, ns_arg, HD8), run("wait_mask", H8, nsv, HD8, shv)[1][:, :34] == 1)
        assert np.array_equal(T.wait_mask_batch(H8, ns_arg), run("wait_mask", H8, nsv, H8, shv)[1][:, :34] == 1)
    empty = np.zeros((0, 34), np.int8)
    assert C.shanten_batch(empty, 5).shape == (0,) and C.win_wait_mask_batch(empty, 5, empty, 1).shape == (0, 34)


def test_big_batch_threads_do_not_change_results():
    H, NS, HD, SH = random_data(3000, seed=7)
    H8 = H.astype(np.int8)
    old = C.num_threads()
    try:
        C.set_num_threads(1)
        a = C.win_shanten_batch(H8, NS, 31), C.win_wait_mask_batch(H8, NS, HD.astype(np.int8), 31)
        C.set_num_threads(4)
        b = C.win_shanten_batch(H8, NS, 31), C.win_wait_mask_batch(H8, NS, HD.astype(np.int8), 31)
    finally:
        C.set_num_threads(old)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


# --------------------------------------------------------------------------------------------------
# tw16/bench/hand.py: the makers (bench_hands.cpp's random stream, recorded) and the loops (sums of single calls)


def test_bench_makers_and_loops():
    n = 2000
    for seed in (0, 1, 12345, 2**31 + 5):
        made = []
        for ns in (0, 3, 5):
            a = np.zeros((n, N_KINDS), np.int8)
            C.random_complete(a, ns, seed)
            assert (a.sum(1) == 3 * ns + 2).all() and C.is_complete_batch(a, ns).all()
            made.append(a)
        p = a.copy()
        C.perturb(p, seed + 1, 0.5)
        assert (p.sum(1) == a.sum(1)).all() and p.max() <= 4 and 0.3 < (p != a).any(1).mean() < 0.7
        d = a.copy()
        C.drop_one(d, seed + 2)
        assert (d.sum(1) == a.sum(1) - 1).all() and (d <= a).all()
        for t in (0, 16, 17, 136):
            w = np.zeros((50, N_KINDS), np.int8)
            C.random_wall_hands(w, t, seed + 3)
            assert (w.sum(1) == t).all() and w.max() <= 4
            made.append(w)
        check(f"bench_makers/{seed}", digest(*made, p, d))
        zero = np.zeros(n, np.int64)
        for hands in (a, p, d, w):
            ns5 = np.full(len(hands), 5, np.int64)
            z = zero[: len(hands)]
            assert C.loop_complete(hands, 5) == run("is_complete", hands, ns5, hands, z)[0].sum()
            assert C.loop_shanten(hands, 5) == run("shanten", hands, ns5, hands, z)[0].sum()
            assert C.loop_waits(hands, 5) == run("wait_mask", hands, ns5, hands, z)[0].sum()
            assert C.loop_decompositions(hands, 5) == run("decompositions", hands, ns5, hands, z)[0].sum()
            assert C.loop_discard_shanten(hands, 5) == run("discard_shanten", hands, ns5, hands, z)[0].sum()


# --------------------------------------------------------------------------------------------------
# Bad input: exceptions naming the argument, never a crash


def test_bad_input():
    c = parse_hand("123m 456m 789m 123p 55p EEE")
    out = np.zeros(34, np.bool_)
    with pytest.raises(TypeError, match="counts: expected an integer dtype"):
        T.shanten(c.astype(np.float64), 5)
    with pytest.raises(ValueError, match="counts: expected length >= 34"):
        T.shanten(c[:33], 5)
    with pytest.raises(ValueError, match="counts: expected 1 dimensions"):
        T.shanten(c.reshape(2, 17), 5)
    bad = c.copy()
    bad[3] = 5
    with pytest.raises(ValueError, match=r"counts\[3\] = 5 is outside 0..4"):
        T.is_complete(bad, 5)
    bad[3] = -1
    with pytest.raises(ValueError, match=r"counts\[3\] = -1"):
        C.win_shanten(bad, 5, 0)
    for ns in (-1, 6):
        with pytest.raises(ValueError, match=f"n_sets = {ns} is outside 0..5"):
            T.shanten(c, ns)
    with pytest.raises(ValueError, match="held: expected length >= 34"):
        T.wait_mask(c, 5, c[:30], out)
    hb = c.copy()
    hb[0] = 7
    with pytest.raises(ValueError, match=r"held\[0\] = 7"):
        C.win_wait_mask(c, 5, hb, 0, out)
    with pytest.raises(TypeError, match="held: expected a numpy array"):  # (was std::bad_cast)
        C.win_wait_mask_batch(c[None], 5, [list(c)], 0)
    with pytest.raises(TypeError, match="out: expected a bool or integer dtype"):
        T.wait_mask(c, 5, c, np.zeros(34))
    with pytest.raises(ValueError, match="out: expected length >= 34"):
        C.win_wait_mask(c, 5, c, 0, np.zeros(33, np.bool_))
    with pytest.raises(ValueError, match="out: expected length >= 3"):
        T.thirteen_orphans_parts(c, np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="out: expected >= 11 columns"):
        C.decompositions(c, 5, np.zeros((16, 10), np.int64))
    ro = np.zeros(34, np.bool_)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        T.wait_mask(c, 5, c, ro)
    with pytest.raises(ValueError, match="k = 34 is outside 0..33"):
        T.is_orphan(34)
    with pytest.raises(ValueError, match=r"ks\[0\] = 40"):
        T.extra_cost(np.zeros(34, np.int64), np.zeros(34, np.int64), np.array([40], np.int64), 1)
    # batches name the row
    hs = np.zeros((3, 34), np.int8)
    hs[2, 5] = 9
    with pytest.raises(ValueError, match=r"hands\[2\]\[5\] = 9"):
        C.shanten_batch(hs, 5)
    with pytest.raises(ValueError, match=r"n_sets\[1\] = 8"):
        C.shanten_batch(np.zeros((3, 34), np.int8), np.array([0, 8, 0]))
    with pytest.raises(ValueError, match="n_sets: expected length 3"):
        C.shanten_batch(np.zeros((3, 34), np.int8), np.array([0, 1]))
    with pytest.raises(ValueError, match="held: expected 3 rows"):
        T.wait_mask_batch(np.zeros((3, 34), np.int8), 5, np.zeros((2, 34), np.int8))
    with pytest.raises(ValueError, match="hands: expected length >= 34"):
        C.win_shanten_batch(np.zeros((3, 33), np.int8), 5, 0)
    # bench makers refuse what would loop forever
    with pytest.raises(ValueError, match="no tile to drop"):
        C.drop_one(np.zeros((2, 34), np.int8), 0)
    with pytest.raises(ValueError, match="no tile can move"):
        C.perturb(np.zeros((2, 34), np.int8), 0, 1.0)
    with pytest.raises(ValueError, match="n_tiles = 137"):
        C.random_wall_hands(np.zeros((2, 34), np.int8), 137, 0)
    with pytest.raises(ValueError, match="n_sets = 6"):
        C.random_complete(np.zeros((2, 34), np.int8), 6, 0)
    with pytest.raises(TypeError, match="expected dtype int8"):
        C.loop_shanten(np.zeros((2, 34), np.int64), 5)
    with pytest.raises(ValueError, match="unknown hand function"):
        T.eval_batch(
            "nope",
            hs,
            np.zeros(3, np.int64),
            hs,
            np.zeros(3, np.int64),
            np.zeros((3, W), np.int64),
            np.zeros(3, np.int64),
        )


def test_zz_recorded_digests(capsys):
    """Record mode (TW16_RECORD=1, with -s): print the digests of this run for RECORDED."""
    DIGESTS.print_for_recording(capsys)


RECORDED.update(
    {  # the recorded results (see the docstring)
        "bench_makers/0": "05466b879e4cad27e4cc",
        "bench_makers/1": "d1a36293253d95a254c8",
        "bench_makers/12345": "a456d50de7c9664a282a",
        "bench_makers/2147483653": "8be3f769768a0aa523ee",
        "existing/codes": "f6ac99c9927545f85ce0",
        "existing/combine4": "3a7df28d779ae552a188",
        "existing/best_discards": "27fd7e7d2611b31519e7",
        "existing/decompositions": "100fcf1f2a38e0f45b9d",
        "existing/discard_shanten": "155987623451c4190652",
        "existing/eight_pairs_shanten": "6479577096aa84b7047d",
        "existing/eight_pairs_wait_mask": "74fef11cbeb810089ae1",
        "existing/inputs": "85df6c4c9cd5e675bed7",
        "existing/is_complete": "b6ca3830607a4577c499",
        "existing/is_eight_pairs": "afa8130929d8610491a8",
        "existing/is_sixteen_unrelated": "4a9d54ec562ab10c9136",
        "existing/is_thirteen_orphans": "1b308a1b6a09c42a7bbd",
        "existing/is_win": "a0402efef8d8bd567797",
        "existing/shanten": "d46961008c7d698359ef",
        "existing/sixteen_unrelated_shanten": "53fa1c61c1484f6fd81f",
        "existing/sixteen_unrelated_suits": "184d0b752aaf44449e89",
        "existing/special_shape": "2602db675e049c508c94",
        "existing/special_wait_mask": "ef1eb78e75a765549c09",
        "existing/thirteen_orphans_parts": "678ec81e205014179f99",
        "existing/thirteen_orphans_shanten": "7583905c1d0d6d364aa2",
        "existing/wait_array": "ea2482565ef58778c525",
        "existing/wait_mask": "c83155a5006e057f0b87",
        "existing/win_shanten": "94bbb0251ee9f1df0692",
        "existing/win_wait_mask": "be44b60d32c0859728ea",
        "gen_group/3/True": "642273e8df8a9e9bb691",
        "gen_group/4/False": "87b316737105d0f2a2d6",
        "gen_group/5/True": "e6f9118df5ee861dab46",
        "gen_group/6/False": "30915febddcce967dc69",
        "invalid/codes": "4efc69a307b5ee0c22f5",
        "invalid/combine4": "ae3e7db980343ca2af76",
        "invalid/best_discards": "3a47ed925d963e41d7ba",
        "invalid/decompositions": "021e7f72977d8e3bd739",
        "invalid/discard_shanten": "1170c70430415410a1cd",
        "invalid/eight_pairs_shanten": "5b931f8cb18a07f35d7e",
        "invalid/eight_pairs_wait_mask": "066d8aeee7610d31c67e",
        "invalid/inputs": "fe723aa36e7930e0d408",
        "invalid/is_complete": "c85d81f5ef3b3d237f2e",
        "invalid/is_eight_pairs": "72bdc176f42a7dcc6b82",
        "invalid/is_sixteen_unrelated": "be3153accde747c9fd19",
        "invalid/is_thirteen_orphans": "d1678ae581e8ac3eecdf",
        "invalid/is_win": "91c0a7e5bca0cf8ab059",
        "invalid/shanten": "00f64395ad2dd968e4d5",
        "invalid/sixteen_unrelated_shanten": "66313b36ef787f2e17aa",
        "invalid/sixteen_unrelated_suits": "d0f3376221e6b413f98d",
        "invalid/special_shape": "44e3eaba9607c77cd342",
        "invalid/special_wait_mask": "aac1eb0a73c03af5c636",
        "invalid/thirteen_orphans_parts": "0591580bb0d84e9b8329",
        "invalid/thirteen_orphans_shanten": "bfd40c901b330e0bdbb5",
        "invalid/wait_array": "1ae4d9ca11fd16202a2f",
        "invalid/wait_mask": "57f6c8da99159f583fec",
        "invalid/win_shanten": "57565f3edb37370e37e7",
        "invalid/win_wait_mask": "9d56139595538eb12d88",
        "random/codes": "bae5c66c8ecf48bc8726",
        "random/combine4": "58c29924aa9debe2245a",
        "random/best_discards": "9fcbf6920fef9ac34bb6",
        "random/decompositions": "b210adbd400f2678c81a",
        "random/discard_shanten": "49d81791ece4d66b67a8",
        "random/eight_pairs_shanten": "9187a6740d7f7575d366",
        "random/eight_pairs_wait_mask": "a4c85afc0cd2b13d448b",
        "random/inputs": "77e20068d1676c4034a4",
        "random/is_complete": "32ed1e8ffd65c53fbde5",
        "random/is_eight_pairs": "9a982ab7ccd8c37ac1cb",
        "random/is_sixteen_unrelated": "6a210e994a0a28ebf8dd",
        "random/is_thirteen_orphans": "f2bc74949e387b996cc0",
        "random/is_win": "2a8c6fe505e652d43751",
        "random/shanten": "ec60f95926ddff910063",
        "random/sixteen_unrelated_shanten": "0b53f199265b68266d77",
        "random/sixteen_unrelated_suits": "d45a1c6294899abdf2e5",
        "random/special_shape": "60eccc4b7ba0b703cd66",
        "random/special_wait_mask": "36808b16de3f4b6aef9e",
        "random/thirteen_orphans_parts": "57e53af933f066ec18ba",
        "random/thirteen_orphans_shanten": "af4a44fca257cef07453",
        "random/wait_array": "c9796cbe96b4d05cd40f",
        "random/wait_mask": "8430e6cd7dd90fcf09ba",
        "random/win_shanten": "040f18359bf3a3fc6a8a",
        "random/win_wait_mask": "712ac950cd36eebac8de",
    }
)
