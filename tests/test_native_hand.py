"""Differential test of the native hand analysis (envs._core, C++) against envs.hand.analysis (Numba).

Every @njit function of envs/hand/analysis.py is evaluated on both sides, on
(a) the existing hand test data: every notation hand in the parametrize lists of tests/test_hand.py and
    tests/test_hand_shapes.py, and the hands (with and without the winning tile, melds as held copies)
    of the scoring case files tests/data/*.jsonl, each with every n_sets 0..5 and several shape sets;
(b) random count vectors of every size 1..17: dealt from a wall, complete hands with tiles moved,
    single-suit hands (many decompositions), near special shapes (eight pairs, 十三么, 十六不搭), and
    invalid counts (outside 0..4, the functions' INVALID paths) with n_sets outside 0..5;
and must agree exactly (return value and everything written to the out arrays, including what a
function leaves unwritten). The tables, their SHA-256 check, gen_group, the per-call bindings (with
every out dtype), the batch forms, the bench makers (numba's np.random) and loops, and the bindings'
bad-input errors are checked too. TW16_DIFF_N (default 20000) scales the random part.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import numpy as np
import pytest
from numba import njit

C = pytest.importorskip("envs._core")

from envs.hand import _gen, tables  # noqa: E402
from envs.hand import analysis as A  # noqa: E402
from envs.hand import bench as HB  # noqa: E402
from envs.tiles import N_KINDS, WIND0, parse_hand, parse_meld  # noqa: E402

N = int(os.environ.get("TW16_DIFF_N", "20000"))
DATA = Path(__file__).parent / "data"
W = C.HAND_EVAL_WIDTH  # out columns of C._eval_batch
ORPHANS = np.array([0, 8, 9, 17, 18, 26] + list(range(WIND0, N_KINDS)))
SHAPE_SETS = (0, 1, 2, 4, 6, 7, 8, 9, 14, 15, 24, 31)
SENTINEL = -7  # what the out arrays hold before a call: unwritten entries must keep it


# --------------------------------------------------------------------------------------------------
# Numba side: one compiled driver per function, row b of the batch into ret[b] / out[b]


@njit(cache=True)
def _nb_codes(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        cs, ss = A._codes(h[b])
        for i in range(4):
            out[b, i] = cs[i]
            out[b, 4 + i] = ss[i]
        ret[b] = cs[0]


@njit(cache=True)
def _nb_combine4(h, ns, held, sh, out, ret, sd, hd):
    for b in range(h.shape[0]):
        cs, _ = A._codes(h[b])
        if cs[0] < 0:
            ret[b] = -1
        else:
            ret[b] = A._combine4(sd[cs[0]], sd[cs[1]], sd[cs[2]], hd[cs[3]], ns[b])


@njit(cache=True)
def _nb_is_complete(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.is_complete(h[b], ns[b])


@njit(cache=True)
def _nb_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.shanten(h[b], ns[b])


@njit(cache=True)
def _nb_discard_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.discard_shanten(h[b], ns[b], out[b])


@njit(cache=True)
def _nb_best_discards(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.best_discards(h[b], ns[b], out[b])


@njit(cache=True)
def _nb_wait_mask(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.wait_mask(h[b], ns[b], held[b], out[b])


@njit(cache=True)
def _nb_wait_array(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        w = A.wait_array(h[b], ns[b], held[b])
        for k in range(N_KINDS):
            out[b, k] = w[k]
        ret[b] = 0


@njit(cache=True)
def _nb_decompositions(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.decompositions(h[b], ns[b], out[b].reshape((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH)))


@njit(cache=True)
def _nb_is_eight_pairs(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.is_eight_pairs(h[b])


@njit(cache=True)
def _nb_eight_pairs_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.eight_pairs_shanten(h[b])


@njit(cache=True)
def _nb_eight_pairs_wait_mask(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.eight_pairs_wait_mask(h[b], held[b], out[b])


@njit(cache=True)
def _nb_thirteen_orphans_parts(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.thirteen_orphans_parts(h[b], out[b])


@njit(cache=True)
def _nb_is_thirteen_orphans(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.is_thirteen_orphans(h[b], sh[b])


@njit(cache=True)
def _nb_thirteen_orphans_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.thirteen_orphans_shanten(h[b], sh[b])


@njit(cache=True)
def _nb_sixteen_unrelated_suits(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.sixteen_unrelated_suits(h[b], sh[b], out[b])


@njit(cache=True)
def _nb_is_sixteen_unrelated(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.is_sixteen_unrelated(h[b], sh[b])


@njit(cache=True)
def _nb_sixteen_unrelated_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.sixteen_unrelated_shanten(h[b], sh[b])


@njit(cache=True)
def _nb_special_shape(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.special_shape(h[b], sh[b])


@njit(cache=True)
def _nb_special_wait_mask(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.special_wait_mask(h[b], held[b], sh[b], out[b])


@njit(cache=True)
def _nb_is_win(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.is_win(h[b], ns[b], sh[b])


@njit(cache=True)
def _nb_win_shanten(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.win_shanten(h[b], ns[b], sh[b])


@njit(cache=True)
def _nb_win_wait_mask(h, ns, held, sh, out, ret):
    for b in range(h.shape[0]):
        ret[b] = A.win_wait_mask(h[b], ns[b], held[b], sh[b], out[b])


DRIVERS = {name: globals()["_nb" + (name if name.startswith("_") else "_" + name)] for name in C.HAND_EVAL_FNS}
# functions whose n_sets sizes something (a table row, the decomposition rows): 0..5 even when not strict
N_SETS_BOUND = {"_combine4", "decompositions"}


def run_both(name, hands, n_sets, held, shapes, strict=True):
    """(numba ret, numba out, native ret, native out) of `name` over the rows."""
    B = len(hands)
    outs, rets = [], []
    for side in ("numba", "native"):
        out = np.full((B, W), SENTINEL, np.int64)
        ret = np.zeros(B, np.int64)
        if side == "numba":
            args = (hands, n_sets, held, shapes, out, ret)
            if name == "_combine4":
                args += (tables.SUIT_DIST, tables.HONOUR_DIST)
            DRIVERS[name](*args)
        else:
            C._eval_batch(name, hands, n_sets, held, shapes, out, ret, strict)
        outs.append(out)
        rets.append(ret)
    return rets[0], outs[0], rets[1], outs[1]


CHUNK = 50_000  # rows per run_both call (the out arrays are 176 int64 per row)
COUNTS = {}  # function -> rows compared (reported by the big run)
DIFFS = {}  # function -> rows that differed


def assert_same(name, hands, n_sets, held, shapes, strict=True):
    for lo in range(0, len(hands), CHUNK):
        sl = slice(lo, lo + CHUNK)
        h, ns, hd, sh = hands[sl], n_sets[sl], held[sl], shapes[sl]
        r0, o0, r1, o1 = run_both(name, h, ns, hd, sh, strict)
        bad = np.flatnonzero((r0 != r1) | (o0 != o1).any(axis=1))
        COUNTS[name] = COUNTS.get(name, 0) + len(h)
        if bad.size:
            DIFFS[name] = DIFFS.get(name, 0) + int(bad.size)
            b = int(bad[0])
            raise AssertionError(
                f"{name}: {bad.size} of {len(h)} rows differ; first: hand {h[b].tolist()} n_sets {ns[b]} "
                f"held {hd[b].tolist()} shapes {sh[b]}: numba {r0[b]} {o0[b][:40].tolist()} "
                f"native {r1[b]} {o1[b][:40].tolist()}"
            )


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


def test_tables_equal_the_python_tables_and_check_their_sha256():
    sd, sf, hd, hf = C.hand_tables()
    assert np.array_equal(sd, tables.SUIT_DIST) and np.array_equal(sf, tables.SUIT_FLAGS)
    assert np.array_equal(hd, tables.HONOUR_DIST) and np.array_equal(hf, tables.HONOUR_FLAGS)
    assert not sd.flags.writeable
    assert C.HAND_TABLES_MAGIC == tables.MAGIC
    assert C.HAND_TABLES_SHA256 == tables.FILE_SHA256 == C.hand_tables_sha256()
    # the digest is the Python table file's: the same bytes hash the same
    data = tables._to_bytes(tables.Tables(tables.SUIT_DIST, tables.SUIT_FLAGS, tables.HONOUR_DIST, tables.HONOUR_FLAGS))
    assert C._sha256_hex(data) == tables.FILE_SHA256
    import hashlib

    rng = np.random.default_rng(0)
    for n in (0, 1, 55, 56, 63, 64, 65, 127, 128, 1000):
        b = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert C._sha256_hex(b) == hashlib.sha256(b).hexdigest()
    C.check_hand_tables(tables.FILE_SHA256)
    with pytest.raises(C.TableError, match="checksum"):
        C.check_hand_tables("0" * 64)
    assert issubclass(C.TableError, RuntimeError)


@pytest.mark.parametrize("nk,chi", [(3, True), (4, False), (5, True), (6, False), (7, False)])
def test_gen_group(nk, chi):
    d0, f0 = _gen.gen_group(nk, chi)
    d1, f1 = C.gen_group(nk, chi)
    assert np.array_equal(d0, d1) and np.array_equal(f0, f1)


# --------------------------------------------------------------------------------------------------
# Differential: every function


@pytest.mark.parametrize("name", C.HAND_EVAL_FNS)
def test_existing_hand_data(name):
    H, NS, HD, SH = existing_data()
    assert_same(name, H, NS, HD, SH)


@pytest.mark.parametrize("name", C.HAND_EVAL_FNS)
def test_random_hands(name):
    H, NS, HD, SH = random_data(N, seed=1)
    assert_same(name, H.astype(np.int8), NS, HD.astype(np.int8), SH)
    # the other dtype the callers pass (int64 scratch)
    m = max(1, N // 10)
    assert_same(name, H[:m], NS[:m], HD[:m], SH[:m])


@pytest.mark.parametrize("name", C.HAND_EVAL_FNS)
def test_invalid_counts_and_n_sets(name):
    """The functions' own paths for counts outside 0..4 and n_sets outside 0..5 (INVALID, False, 0)."""
    n = max(1, N // 4)
    H, NS, HD, SH = random_data(n, seed=2, invalid=True)
    if name in N_SETS_BOUND:
        NS = np.clip(NS, 0, 5)
    assert_same(name, H, NS, HD, SH, strict=False)
    small = (H >= -128).all(1) & (H <= 127).all(1) & (HD >= -128).all(1) & (HD <= 127).all(1)
    assert_same(name, H[small].astype(np.int8), NS[small], HD[small].astype(np.int8), SH[small], strict=False)


def test_every_size_and_shape_is_covered():
    n = min(N, 100_000)
    H, NS, HD, SH = (a[:n] for a in random_data(N, seed=1))
    sizes = H.sum(1)
    assert set(range(1, 18)) <= set(sizes.tolist())
    r = {}
    for name in ("is_complete", "is_eight_pairs", "special_shape", "decompositions", "win_wait_mask", "special_wait_mask"):
        r[name] = run_both(name, H.astype(np.int8), NS, HD.astype(np.int8), SH)[0]
    assert r["is_complete"].sum() > n // 50 and r["is_eight_pairs"].sum() > n // 200
    for bit in (1, 2, 4, 8):
        assert (r["special_shape"] == bit).sum() > 0, bit
    assert r["decompositions"].max() >= 3 and (r["win_wait_mask"] > 0).sum() > n // 20
    assert (r["special_wait_mask"] > 0).sum() > 0


# --------------------------------------------------------------------------------------------------
# The per-call bindings (the names the Python callers use), every out dtype


OUT_DTYPES = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8)


def test_per_call_bindings():
    H, NS, HD, SH = random_data(max(200, N // 20), seed=3)
    Hx, NSx, HDx, SHx = existing_data()
    rows = [(H[i].astype(np.int8), int(NS[i]), HD[i].astype(np.int8), int(SH[i])) for i in range(len(H))]
    rows += [(Hx[i], int(NSx[i]), HDx[i], int(SHx[i])) for i in range(0, len(Hx), 7)]
    rng = np.random.default_rng(4)
    for i, (c, ns, held, sh) in enumerate(rows):
        cdt = (np.int8, np.int16, np.int32, np.int64, np.uint8)[i % 5]
        cc, hh = c.astype(cdt), held.astype((np.int8, np.int64)[i % 2])
        for name in ("is_complete", "shanten"):
            assert getattr(C, name)(cc, ns) == getattr(A, name)(c, ns), (name, c, ns)
        for name in ("is_win", "win_shanten"):
            assert getattr(C, name)(cc, ns, sh) == getattr(A, name)(c, ns, sh), (name, c, ns, sh)
        for name in ("is_eight_pairs", "eight_pairs_shanten"):
            assert getattr(C, name)(cc) == getattr(A, name)(c), (name, c)
        for name in ("is_thirteen_orphans", "thirteen_orphans_shanten", "is_sixteen_unrelated",
                     "sixteen_unrelated_shanten", "special_shape"):  # fmt: skip
            assert getattr(C, name)(cc, sh) == getattr(A, name)(c, sh), (name, c, sh)
        assert C._codes(cc) == tuple(tuple(int(x) for x in t) for t in A._codes(c))
        assert np.array_equal(C.wait_array(cc, ns, hh), A.wait_array(c, ns, held))
        odt = OUT_DTYPES[rng.integers(len(OUT_DTYPES))]
        fill = rng.integers(0, 2) if odt == np.bool_ else (rng.integers(-5, 5) if odt != np.uint8 else 7)
        calls = [
            ("discard_shanten", (ns,), 34),
            ("best_discards", (ns,), 34),
            ("wait_mask", (ns, "held"), 34),
            ("eight_pairs_wait_mask", ("held",), 34),
            ("thirteen_orphans_parts", (), 3),
            ("sixteen_unrelated_suits", (sh,), 3),
            ("special_wait_mask", ("held", sh), 34),
            ("win_wait_mask", (ns, "held", sh), 34),
        ]
        for name, extra, length in calls:
            o0 = np.full(length + 2, fill, odt)
            o1 = o0.copy()
            a0 = [held if x == "held" else x for x in extra]
            a1 = [hh if x == "held" else x for x in extra]
            r0 = getattr(A, name)(c, *a0, o0)
            r1 = getattr(C, name)(cc, *a1, o1)
            assert r0 == r1 and np.array_equal(o0, o1), (name, c, extra, odt, r0, r1, o0, o1)
        for odt2 in (np.int8, np.int64):
            o0 = np.full((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH), SENTINEL, odt2)
            o1 = o0.copy()
            assert A.decompositions(c, ns, o0) == C.decompositions(cc, ns, o1) and np.array_equal(o0, o1)
            o0 = np.full((2, 1 + 2 * ns), SENTINEL, odt2)  # too few rows: only the first are written
            o1 = o0.copy()
            assert A.decompositions(c, ns, o0) == C.decompositions(cc, ns, o1) and np.array_equal(o0, o1)


def test_any_dtype_views_and_longer_rows():
    """As numba: any integer dtype, strided views, rows longer than 34 (only the first 34 are read)."""
    c = parse_hand("123m 456m 789m 123p 55p EEE")
    batch = np.zeros((3, 40), np.int8)
    batch[1, :34] = c
    batch[1, 34:] = 9  # past the 34 kinds: never read
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        assert C.is_complete(c.astype(dt), 5)
    assert C.is_complete(batch[1], 5) and not C.is_complete(batch[0], 5)
    assert A.is_complete(batch[1], 5)
    assert np.array_equal(C.is_complete_batch(batch, 5), [False, True, False])
    strided = np.zeros((34, 2), np.int64)
    strided[:, 1] = c
    assert C.shanten(strided[:, 1], 5) == -1 and C.win_shanten(c[::-1][::-1], 5, 31) == -1
    out = np.zeros((34, 2), np.bool_)
    ready = parse_hand("23m 567m 123p 456p 789p 99s")
    assert C.wait_mask(ready, 5, ready, out[:, 1]) == 2 and out[:, 1].sum() == 2 and not out[:, 0].any()


def test_private_helpers():
    for k in range(N_KINDS):
        assert C._is_orphan(k) == A._is_orphan(k)
    for code in range(-1, 4):
        for sh in range(32):
            assert C._thirteen_code_ok(code, sh) == A._thirteen_code_ok(code, sh)
    rng = np.random.default_rng(5)
    for _ in range(300):
        c = rng.integers(0, 5, N_KINDS).astype(np.int64)
        need = rng.integers(0, 6, N_KINDS).astype(np.int64)
        ks = rng.integers(0, N_KINDS, 4).astype(np.int64)
        ks[1:] = np.where(rng.random(3) < 0.3, ks[0], ks[1:])
        n = int(rng.integers(0, 5))
        assert C._extra_cost(c, need, ks, n) == A._extra_cost(c, need, ks, n)
        rows = [rng.integers(0, 18, 12).astype(np.uint8) for _ in range(4)]
        n = int(rng.integers(0, 6))
        assert C._combine4(*rows, n) == A._combine4(*rows, n)


def test_batch_forms():
    H, NS, HD, SH = random_data(max(100, N // 10), seed=6)
    H8, HD8 = H.astype(np.int8), HD.astype(np.int8)
    ns5 = np.full(len(H), 5, np.int64)
    for sh in (0, 1, 15, 31):
        shv = np.full(len(H), sh, np.int64)
        for ns_arg, nsv in ((NS, NS), (5, ns5)):
            assert np.array_equal(C.is_win_batch(H8, ns_arg, sh), run_both("is_win", H8, nsv, HD8, shv)[2] == 1)
            assert np.array_equal(C.win_shanten_batch(H, ns_arg, sh), run_both("win_shanten", H8, nsv, HD8, shv)[2])
            r = run_both("win_wait_mask", H8, nsv, HD8, shv)
            assert np.array_equal(C.win_wait_mask_batch(H8, ns_arg, HD8, sh), r[3][:, :34] == 1)
    shv = np.zeros(len(H), np.int64)
    for ns_arg, nsv in ((NS, NS), (5, ns5)):
        assert np.array_equal(C.is_complete_batch(H8, ns_arg), run_both("is_complete", H8, nsv, HD8, shv)[2] == 1)
        assert np.array_equal(C.shanten_batch(H8, ns_arg), run_both("shanten", H8, nsv, HD8, shv)[2])
        assert np.array_equal(C.discard_shanten_batch(H8, ns_arg), run_both("discard_shanten", H8, nsv, HD8, shv)[3][:, :34])
        assert np.array_equal(C.wait_mask_batch(H8, ns_arg, HD8), run_both("wait_mask", H8, nsv, HD8, shv)[3][:, :34] == 1)
        assert np.array_equal(C.wait_mask_batch(H8, ns_arg), run_both("wait_mask", H8, nsv, H8, shv)[3][:, :34] == 1)
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
# bench.py: the makers (numba's np.random) and the loops


def test_bench_makers_and_loops():
    n = 2000
    for seed in (0, 1, 12345, 2**31 + 5):
        for ns in (0, 3, 5):
            a, b = np.zeros((n, N_KINDS), np.int8), np.zeros((n, N_KINDS), np.int8)
            HB._random_complete(a, ns, seed)
            C._random_complete(b, ns, seed)
            assert np.array_equal(a, b), ("_random_complete", seed, ns)
        pa, pb = a.copy(), a.copy()
        HB._perturb(pa, seed + 1, 0.5)
        C._perturb(pb, seed + 1, 0.5)
        assert np.array_equal(pa, pb)
        da, db = a.copy(), a.copy()
        HB._drop_one(da, seed + 2)
        C._drop_one(db, seed + 2)
        assert np.array_equal(da, db)
        for t in (0, 16, 17, 136):
            wa, wb = np.zeros((50, N_KINDS), np.int8), np.zeros((50, N_KINDS), np.int8)
            HB._random_wall_hands(wa, t, seed + 3)
            C._random_wall_hands(wb, t, seed + 3)
            assert np.array_equal(wa, wb), ("_random_wall_hands", t)
        for hands in (a, pa, da, wa):
            for name in ("_loop_complete", "_loop_shanten", "_loop_waits", "_loop_decompositions", "_loop_discard_shanten"):
                assert getattr(HB, name)(hands, 5) == getattr(C, name)(hands, 5), name


# --------------------------------------------------------------------------------------------------
# Bad input: exceptions naming the argument, never a crash


def test_bad_input():
    c = parse_hand("123m 456m 789m 123p 55p EEE")
    out = np.zeros(34, np.bool_)
    with pytest.raises(TypeError, match="counts: expected an integer dtype"):
        C.shanten(c.astype(np.float64), 5)
    with pytest.raises(ValueError, match="counts: expected length >= 34"):
        C.shanten(c[:33], 5)
    with pytest.raises(ValueError, match="counts: expected 1 dimensions"):
        C.shanten(c.reshape(2, 17), 5)
    bad = c.copy()
    bad[3] = 5
    with pytest.raises(ValueError, match=r"counts\[3\] = 5 is outside 0..4"):
        C.is_complete(bad, 5)
    bad[3] = -1
    with pytest.raises(ValueError, match=r"counts\[3\] = -1"):
        C.win_shanten(bad, 5, 0)
    for ns in (-1, 6):
        with pytest.raises(ValueError, match=f"n_sets = {ns} is outside 0..5"):
            C.shanten(c, ns)
    with pytest.raises(ValueError, match="held: expected length >= 34"):
        C.wait_mask(c, 5, c[:30], out)
    hb = c.copy()
    hb[0] = 7
    with pytest.raises(ValueError, match=r"held\[0\] = 7"):
        C.win_wait_mask(c, 5, hb, 0, out)
    with pytest.raises(TypeError, match="out: expected a bool or integer dtype"):
        C.wait_mask(c, 5, c, np.zeros(34))
    with pytest.raises(ValueError, match="out: expected length >= 34"):
        C.win_wait_mask(c, 5, c, 0, np.zeros(33, np.bool_))
    with pytest.raises(ValueError, match="out: expected length >= 3"):
        C.thirteen_orphans_parts(c, np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="out: expected >= 11 columns"):
        C.decompositions(c, 5, np.zeros((16, 10), np.int64))
    ro = np.zeros(34, np.bool_)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        C.wait_mask(c, 5, c, ro)
    with pytest.raises(ValueError, match="k = 34 is outside 0..33"):
        C._is_orphan(34)
    with pytest.raises(ValueError, match=r"ks\[0\] = 40"):
        C._extra_cost(np.zeros(34, np.int64), np.zeros(34, np.int64), np.array([40], np.int64), 1)
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
        C.wait_mask_batch(np.zeros((3, 34), np.int8), 5, np.zeros((2, 34), np.int8))
    with pytest.raises(ValueError, match="hands: expected length >= 34"):
        C.win_shanten_batch(np.zeros((3, 33), np.int8), 5, 0)
    # bench makers refuse what would loop forever
    with pytest.raises(ValueError, match="no tile to drop"):
        C._drop_one(np.zeros((2, 34), np.int8), 0)
    with pytest.raises(ValueError, match="no tile can move"):
        C._perturb(np.zeros((2, 34), np.int8), 0, 1.0)
    with pytest.raises(ValueError, match="n_tiles = 137"):
        C._random_wall_hands(np.zeros((2, 34), np.int8), 137, 0)
    with pytest.raises(ValueError, match="n_sets = 6"):
        C._random_complete(np.zeros((2, 34), np.int8), 6, 0)
    with pytest.raises(TypeError, match="expected dtype int8"):
        C._loop_shanten(np.zeros((2, 34), np.int64), 5)
    with pytest.raises(ValueError, match="unknown hand function"):
        C._eval_batch("nope", hs, np.zeros(3, np.int64), hs, np.zeros(3, np.int64), np.zeros((3, W), np.int64),
                      np.zeros(3, np.int64))


def test_zz_report_counts(capsys):
    """The rows compared per function in this session (run with -s to see them)."""
    with capsys.disabled():
        total = sum(COUNTS.values())
        print(f"\nnative hand differential (TW16_DIFF_N={N}): {total} rows compared, "
              f"{sum(DIFFS.values())} differing (a failing chunk stops its test)")
        for name, n in sorted(COUNTS.items()):
            print(f"  {name:28s} {n:>10d} rows, {DIFFS.get(name, 0)} differing")
