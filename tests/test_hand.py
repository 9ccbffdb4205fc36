"""Hand analysis (envs/hand): tables, completeness, shanten, waits, decompositions, eight_pairs."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import _core
from envs._core import _testing
from envs.hand import analysis as A
from envs.hand import api, tables
from envs.tiles import MELD_CHI, MELD_PON, N_KINDS, WIND0, NotationError, kind_name, parse_hand

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def H(text):
    return parse_hand(text)


def names(mask):
    return [kind_name(int(k)) for k in np.flatnonzero(mask)]


# --------------------------------------------------------------------------------------------------
# Plain-Python references (independent of the tables)

ALL_SETS = [(MELD_CHI, k) for k in range(WIND0) if k % 9 <= 6] + [(MELD_PON, k) for k in range(N_KINDS)]


def set_kinds(t, k):
    return [k, k + 1, k + 2] if t == MELD_CHI else [k, k, k]


def py_decompositions(counts, n_sets):
    """Every decomposition as (pair, ((kind, type), ...) sorted), by lowest-kind recursion."""
    c = [int(x) for x in counts]
    found = set()
    if sum(c) != 3 * n_sets + 2:
        return found

    def rec(left, acc, pair):
        if left == 0:
            if not any(c):
                found.add((pair, tuple(sorted(acc))))
            return
        k = next((i for i, v in enumerate(c) if v), None)
        if k is None:
            return
        if c[k] >= 3:
            c[k] -= 3
            rec(left - 1, acc + [(k, MELD_PON)], pair)
            c[k] += 3
        if k < WIND0 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            for j in range(3):
                c[k + j] -= 1
            rec(left - 1, acc + [(k, MELD_CHI)], pair)
            for j in range(3):
                c[k + j] += 1

    for p in range(N_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            rec(n_sets, [], p)
            c[p] += 2
    return found


def py_complete(counts, n_sets):
    return bool(py_decompositions(counts, n_sets))


@functools.cache
def forms(n_sets):
    """All complete forms (n_sets sets + 1 pair, no kind above 4) as an int8 (F, 34) matrix."""
    S = np.zeros((len(ALL_SETS), N_KINDS), np.int8)
    for i, (t, k) in enumerate(ALL_SETS):
        for x in set_kinds(t, k):
            S[i, x] += 1
    idx = np.array(list(itertools.combinations_with_replacement(range(len(S)), n_sets)), dtype=np.int64)
    F = S[idx].sum(1).astype(np.int8) if n_sets else np.zeros((1, N_KINDS), np.int8)
    out = (F[:, None, :] + 2 * np.eye(N_KINDS, dtype=np.int8)[None]).reshape(-1, N_KINDS)
    return out[(out <= 4).all(1)]


def py_shanten(counts, n_sets):
    """min over complete forms of the tiles missing, minus 1."""
    F = forms(n_sets)
    return int(np.maximum(F - counts.astype(np.int8)[None], 0).sum(1).min()) - 1


@functools.cache
def suit_forms(nk, allow_chi, m, p):
    sets = [(MELD_CHI, k) for k in range(nk - 2)] * allow_chi + [(MELD_PON, k) for k in range(nk)]
    rows = []
    for combo in itertools.combinations_with_replacement(sets, m):
        base = np.zeros(nk, np.int8)
        for t, k in combo:
            for x in set_kinds(t, k):
                base[x] += 1
        for q in range(nk) if p else [None]:
            r = base.copy()
            if q is not None:
                r[q] += 2
            if (r <= 4).all():
                rows.append(r)
    return np.array(rows, np.int8)


def py_eight_pairs(counts):
    c = [int(x) for x in counts]
    return sum(c) == 17 and 1 not in c and c.count(3) == 1


def py_eight_pairs_shanten(counts):
    """DP over kinds: each kind supplies nothing, a pair, two pairs or the pon."""
    INF = 10**9
    dp = {(0, 0): 0}  # (pairs, pon) -> tiles added
    for v in (int(x) for x in counts):
        new = {}
        for (np_, t), cost in dp.items():
            for target, dp_, dt in ((0, 0, 0), (2, 1, 0), (4, 2, 0), (3, 0, 1)):
                key = (np_ + dp_, t + dt)
                if key[0] > 7 or key[1] > 1:
                    continue
                c2 = cost + max(0, target - v)
                if c2 < new.get(key, INF):
                    new[key] = c2
        dp = new
    return dp[(7, 1)] - 1


# --------------------------------------------------------------------------------------------------
# Hypothesis strategies

POOLS = [range(N_KINDS), range(9), range(18), range(27), list(range(9)) + list(range(27, 34)), range(27, 34)]


@st.composite
def random_counts(draw, size, pool=None):
    pool = list(draw(st.sampled_from(POOLS)) if pool is None else pool)
    if 4 * len(pool) < size:
        pool = list(range(N_KINDS))
    c = np.zeros(N_KINDS, np.int8)
    for _ in range(size):
        k = draw(st.sampled_from([k for k in pool if c[k] < 4]))
        c[k] += 1
    return c


@st.composite
def complete_counts(draw, n_sets):
    """A pair and n_sets random sets (from a random pool of kinds), counts <= 4."""
    pool = set(draw(st.sampled_from(POOLS)))
    sets = [s for s in ALL_SETS if set(set_kinds(*s)) <= pool]
    c = np.zeros(N_KINDS, np.int8)
    p = draw(st.sampled_from(sorted(pool)))
    c[p] += 2
    for _ in range(n_sets):
        ok = [s for s in sets if all(c[x] + set_kinds(*s).count(x) <= 4 for x in set_kinds(*s))]
        t, k = draw(st.sampled_from(ok))
        for x in set_kinds(t, k):
            c[x] += 1
    return c


@st.composite
def hands(draw, extra, n_max=5):
    """(counts, n_sets) with 3*n_sets + extra tiles; about half derived from a complete hand."""
    n = draw(st.integers(0, n_max))
    size = 3 * n + extra
    if draw(st.booleans()):
        c = draw(complete_counts(n))
        if extra == 1:  # drop one tile
            k = draw(st.sampled_from(list(np.flatnonzero(c))))
            c[k] -= 1
        elif draw(st.booleans()):  # swap one tile
            a = draw(st.sampled_from(list(np.flatnonzero(c))))
            b = draw(st.sampled_from([k for k in range(N_KINDS) if c[k] < 4 and k != a]))
            c[a] -= 1
            c[b] += 1
    else:
        c = draw(random_counts(size))
    assert c.sum() == size and c.max() <= 4
    return c, n


# --------------------------------------------------------------------------------------------------
# Tables


def test_table_arrays():
    assert tables.SUIT_DIST.shape == (5**9, 12) and tables.SUIT_DIST.dtype == np.uint8
    assert tables.HONOUR_DIST.shape == (5**7, 12)
    assert tables.SUIT_FLAGS.shape == (5**9,) and tables.HONOUR_FLAGS.shape == (5**7,)
    assert not tables.SUIT_DIST.flags.writeable and not tables.HONOUR_FLAGS.flags.writeable
    assert tables.SUIT_DIST.max() <= 17  # never the sentinel for m <= 5
    # code of a suit = sum(c_i * 5**i): 111m is code 3; 123m is 1 + 5 + 25
    assert list(tables.SUIT_DIST[3, :6]) == [0, 0, 0, 2, 3, 5]  # 111m: a set; set + pair: 2 more; 2 sets: 3
    assert tables.SUIT_FLAGS[31] == 1 and tables.SUIT_FLAGS[1] == 0
    assert list(tables.HONOUR_DIST[1 + 5 + 25, :4]) == [0, 1, 2, 3]  # E S W: no chi among honours


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_tables_match_brute_force(data):
    honours = data.draw(st.booleans())
    nk = 7 if honours else 9
    size = data.draw(st.integers(0, 12))
    c = np.zeros(nk, np.int8)
    for _ in range(size):
        c[data.draw(st.sampled_from([k for k in range(nk) if c[k] < 4]))] += 1
    code = int(sum(int(v) * 5**i for i, v in enumerate(c)))
    dist = (tables.HONOUR_DIST if honours else tables.SUIT_DIST)[code]
    for m in range(6):
        for p in range(2):
            F = suit_forms(nk, not honours, m, p)
            assert dist[2 * m + p] == np.maximum(F - c[None], 0).sum(1).min(), (c, m, p)
    flags = (tables.HONOUR_FLAGS if honours else tables.SUIT_FLAGS)[code]
    exact = size % 3 != 1 and any(
        (F == c).all(1).any() for F in [suit_forms(nk, not honours, size // 3, size % 3 == 2)]
    )
    assert bool(flags & 1) == exact


def test_checksum():
    """The bytes the native core hashes when it loads (MAGIC + the four arrays) hash to FILE_SHA256 with
    hashlib too; a wrong digest fails the check loudly."""
    data = tables.MAGIC + b"".join(
        a.tobytes() for a in (tables.SUIT_DIST, tables.SUIT_FLAGS, tables.HONOUR_DIST, tables.HONOUR_FLAGS)
    )
    assert len(data) == tables.FILE_SIZE
    assert hashlib.sha256(data).hexdigest() == tables.FILE_SHA256 == _testing.hand_tables_sha256()
    _testing.check_hand_tables(tables.FILE_SHA256)
    with pytest.raises(_core.TableError, match="checksum"):
        _testing.check_hand_tables("0" * 64)


# --------------------------------------------------------------------------------------------------
# Completeness


@pytest.mark.parametrize(
    "text,n_sets,ok",
    [
        ("123m 456m 789m 123p 55p EEE", 5, True),
        ("123m 456m 789m 123p 55p EEF", 5, False),
        ("111m 222m 333m 999s 99p EEE", 5, True),
        ("111m 222m 333m 999s 89p EEE", 5, False),
        ("111m 222m 333m 999s 99p EE", 5, False),  # 16 tiles
        ("123m 456m 789m 11p EEE", 4, True),
        ("123m 456m 789m 11p", 3, True),
        ("234m 567p 99s", 2, True),
        ("123m 55p", 1, True),
        ("123m 55p", 2, False),
        ("55p", 0, True),
        ("5p 6p", 0, False),
        ("CC", 0, True),
        ("EEE SSS WWW NNN CCC PP", 5, True),
        ("123s 234s 345s 456s 567s 99s", 5, True),
        ("11122233344455m", 4, True),
        ("12m 345m 678m 999p EE CCC", 5, False),
    ],
)
def test_is_complete_cases(text, n_sets, ok):
    c = H(text)
    assert _testing.is_complete(c, n_sets) == ok
    assert (_testing.shanten(c, n_sets) == -1) == ok if c.sum() == 3 * n_sets + 2 else True


def test_is_complete_any_dtype_and_views():
    c = H("123m 456m 789m 123p 55p EEE")
    for dt in (np.int8, np.int64):
        assert _testing.is_complete(c.astype(dt), 5)
    batch = np.zeros((3, 40), np.int8)
    batch[1, :34] = c
    assert _testing.is_complete(batch[1], 5) and not _testing.is_complete(batch[0], 5)


def test_invalid_counts_and_n_sets():
    """The bindings refuse counts outside 0..4 and n_sets outside 0..5; the native functions themselves
    (reached through _eval_batch without the checks) answer INVALID / False for them."""
    c = H("123m 456m 789m 123p 55p EEE")
    bad = c.copy()
    bad[0] = 5
    with pytest.raises(ValueError, match="outside 0..4"):
        _testing.is_complete(bad, 5)
    with pytest.raises(ValueError, match="n_sets = 6"):
        _testing.shanten(c, 6)
    rows = np.stack([bad, c]).astype(np.int64)
    n_sets = np.array([5, 6], np.int64)
    for fn, want in (("is_complete", [0, 0]), ("shanten", [A.INVALID, A.INVALID])):
        ret = np.zeros(2, np.int64)
        out = np.zeros((2, _testing.HAND_EVAL_WIDTH), np.int64)
        _testing.eval_batch(fn, rows, n_sets, rows, np.zeros(2, np.int64), out, ret, False)
        assert ret.tolist() == want, fn


# --------------------------------------------------------------------------------------------------
# Waits


@pytest.mark.parametrize(
    "text,n_melds,expected",
    [
        ("23m 567m 123p 456p 789p 99s", 0, ["1m", "4m"]),  # two-sided
        ("12m 567m 123p 456p 789p 99s", 0, ["3m"]),  # edge
        ("89m 123p 456p 789p 123s 99s", 0, ["7m"]),  # edge
        ("13m 567m 123p 456p 789p 99s", 0, ["2m"]),  # closed
        ("123m 456m 789m 123p 456p 9s", 0, ["9s"]),  # single (pair) wait
        ("123m 567m 123p 456p 99s EE", 0, ["9s", "E"]),  # 對碰
        ("1112345678999m 123p", 0, [f"{i}m" for i in range(1, 10)]),  # nine gates, 16 tiles
        ("1112345678999m", 1, [f"{i}m" for i in range(1, 10)]),
        ("2345m 123p 456p 789p EEE", 0, ["2m", "5m"]),
        ("5m", 5, ["5m"]),  # five melds: a single tile waits for its pair
        ("56m 99s", 4, ["4m", "7m"]),
        ("EEE SSS WWW NN CC F", 0, []),  # 16 tiles, 1-shanten
        ("123m 456m 789m 123p 456p 9s", 1, []),  # wrong size for 4 sets
    ],
)
def test_wait_cases(text, n_melds, expected):
    c = H(text)
    assert names(_testing.wait_array(c, 5 - n_melds, c)) == expected
    if c.sum() == 3 * (5 - n_melds) + 1:
        assert api.waits(text, n_melds=n_melds) == expected
        assert (_testing.shanten(c, 5 - n_melds) == 0) == bool(expected)


def test_waits_exclude_kinds_held_four_times():
    # RULES.md 3 / EXTRAS EX07: 2m held four times (in a kong), so 34m waits only on 5m
    melds = ["kong 2222m", "ankong 7777p", "addkong 5555s", "pon SSS"]
    assert api.waits("34m 99p", melds=melds) == ["5m"]
    assert api.waits("34m 99p", n_melds=4) == ["2m", "5m"]
    assert api.waits("1111m 3m 567p 123s 456s 99s") == ["2m"]
    held = H("5m")
    held[4] = 4
    assert names(_testing.wait_array(H("5m"), 5, held)) == []


# --------------------------------------------------------------------------------------------------
# Shanten


@pytest.mark.parametrize(
    "text,n_melds,expected",
    [
        ("123m 456m 789m 123p 55p EEE", 0, -1),
        ("123m 456m 789m 123p 55p EE", 0, 0),
        ("13m 456m 789m 123p 456p 9s E", 0, 1),
        ("147m 258p 369s ESWNCFP", 0, 10),
        ("147m 258p 369s ESWNCFP", 1, 8),  # wrong size for the api, fine for the compiled function
        ("EEE SSS WWW NN CC F", 0, 2),
        ("", 5, 1),  # nothing concealed: a pair is two tiles away
        ("5m", 5, 0),
        ("19m", 5, 0),  # 3n+2 with n=0: keep one, wait on it
    ],
)
def test_shanten_cases(text, n_melds, expected):
    c = H(text) if text else np.zeros(N_KINDS, np.int8)
    assert _testing.shanten(c, 5 - n_melds) == expected
    assert py_shanten(c, 5 - n_melds) == expected if 5 - n_melds <= 1 else True


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_shanten_matches_brute_force(data):
    c, n = data.draw(hands(data.draw(st.sampled_from([1, 2])), n_max=3))
    assert _testing.shanten(c, n) == py_shanten(c, n)


@SETTINGS
@given(hands(2))
def test_complete_iff_shanten_minus_one(hn):
    c, n = hn
    ref = py_complete(c, n)
    assert _testing.is_complete(c, n) == ref
    assert (_testing.shanten(c, n) == -1) == ref


@SETTINGS
@given(hands(1))
def test_shanten_recurrence_3n1(hn):
    """A 3n+1 hand is one tile further than its best draw (the definition of the tables)."""
    c, n = hn
    s = _testing.shanten(c, n)
    best = 99
    for k in range(N_KINDS):
        if c[k] < 4:
            c[k] += 1
            best = min(best, _testing.shanten(c, n))
            c[k] -= 1
    assert s == best + 1


# --------------------------------------------------------------------------------------------------
# Waits (properties)


@SETTINGS
@given(hands(1), st.data())
def test_wait_iff_adding_completes(hn, data):
    c, n = hn
    held = c.copy()
    for k in data.draw(st.lists(st.integers(0, N_KINDS - 1), max_size=6)):
        if held[k] < 4:
            held[k] += 1
    out = np.zeros(N_KINDS, np.int8)
    nw = _testing.wait_mask(c, n, held, out)
    for k in range(N_KINDS):
        ok = False
        if c[k] < 4 and held[k] < 4:
            c[k] += 1
            ok = py_complete(c, n)
            c[k] -= 1
        assert bool(out[k]) == ok, (kind_name(k), c, n)
    assert nw == out.sum()
    full = _testing.wait_array(c, n, c)
    assert full.any() == (_testing.shanten(c, n) == 0)


# --------------------------------------------------------------------------------------------------
# Decompositions


def decomps(c, n):
    out = np.full((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH), -7, np.int64)
    m = _core.decompositions(c, n, out)
    assert m <= len(out)
    rows = out[:m]
    assert (rows[:, 1 + 2 * n :] == -1).all()
    return [(int(r[0]), tuple((int(r[2 + 2 * j]), int(r[1 + 2 * j])) for j in range(n))) for r in rows]


@pytest.mark.parametrize(
    "text,n_sets,count",
    [
        ("111222333m 456p 789p EE", 5, 2),  # three pons or three chis
        ("11112222333344m", 4, 3),
        ("11122233344455m", 4, 4),
        ("123m 456m 789m 123p 55p EEE", 5, 1),
        ("123m 456m 789m 123p 55p EEF", 5, 0),
        ("1112345678999m 5p", 4, 0),
        ("1112345678999m 5m", 4, 1),
        ("11123456789999m", 4, 1),
        ("11123444555666777m", 5, 6),  # the most a 17-tile hand has
        ("55p", 0, 1),
        ("EEE SSS WWW NNN CCC PP", 5, 1),
    ],
)
def test_decomposition_counts(text, n_sets, count):
    c = H(text)
    ds = decomps(c, n_sets)
    assert len(ds) == count
    assert len(api.decompose(text, n_melds=5 - n_sets)) == count


def test_decompose_readable():
    assert api.decompose("111222333m 456p 789p EE") == [
        ("EE", "123m", "123m", "123m", "456p", "789p"),
        ("EE", "111m", "222m", "333m", "456p", "789p"),
    ]
    assert api.decompose("55p", n_melds=5) == [("55p",)]


@SETTINGS
@given(hands(2))
def test_decompositions_recompose_and_are_all(hn):
    c, n = hn
    ds = decomps(c, n)
    for pair, sets in ds:
        r = np.zeros(N_KINDS, np.int64)
        r[pair] += 2
        for k, t in sets:
            for x in set_kinds(t, k):
                r[x] += 1
        assert np.array_equal(r, c)
        assert list(sets) == sorted(sets)
    assert len(set(ds)) == len(ds)
    assert set(ds) == py_decompositions(c, n)
    assert bool(ds) == _testing.is_complete(c, n)


def test_decompositions_capacity():
    c = H("11112222333344m")
    out = np.zeros((1, A.DEC_WIDTH), np.int64)
    assert _core.decompositions(c, 4, out) == 3  # the count, though only one row fits


# --------------------------------------------------------------------------------------------------
# Discard shanten


@SETTINGS
@given(hands(2))
def test_discard_shanten_consistent(hn):
    c, n = hn
    out = np.zeros(N_KINDS, np.int64)
    best = _core.discard_shanten(c, n, out)
    for k in range(N_KINDS):
        if c[k] == 0:
            assert out[k] == A.NOT_HELD
        else:
            c[k] -= 1
            assert out[k] == _testing.shanten(c, n)
            c[k] += 1
    if not _testing.is_complete(c, n):
        assert best == _testing.shanten(c, n)
    mask = np.zeros(N_KINDS, np.bool_)
    assert _testing.best_discards(c, n, mask) == best
    assert np.array_equal(mask, (out == best) & (c > 0))


def test_discards_api():
    d = api.discards("123m 456m 789m 123p 55p EEW")
    assert d["W"] == 0 and d["1m"] == 1 and "4p" not in d


# --------------------------------------------------------------------------------------------------
# Symmetry


def permute_suits(c, perm, mirror):
    out = c.copy()
    for s in range(3):
        block = c[9 * s : 9 * s + 9]
        out[9 * perm[s] : 9 * perm[s] + 9] = block[::-1] if mirror else block
    return out


@SETTINGS
@given(st.one_of(hands(1), hands(2)), st.permutations([0, 1, 2]), st.booleans(), st.permutations(range(7)))
def test_suit_permutation_invariance(hn, perm, mirror, hperm):
    c, n = hn
    d = permute_suits(c, perm, mirror)
    d[27:34] = c[27:34][list(hperm)]
    assert _testing.shanten(d, n) == _testing.shanten(c, n)
    assert _testing.is_complete(d, n) == _testing.is_complete(c, n)
    assert _testing.wait_array(d, n, d).sum() == _testing.wait_array(c, n, c).sum()
    out = np.zeros((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH), np.int64)
    assert _core.decompositions(d, n, out) == _core.decompositions(c, n, out)
    assert _testing.eight_pairs_shanten(d) == _testing.eight_pairs_shanten(c)


# --------------------------------------------------------------------------------------------------
# eight_pairs 嚦咕嚦咕


@pytest.mark.parametrize(
    "text,ok",
    [
        ("11m 33m 55m 77m 99m EEE CC SS", True),
        ("1111m 33m 55m 77m 99m EEE CC", True),  # four of a kind = two pairs
        ("1111m 3333m 55m 77m 999m CC", True),
        ("1111m 33m 55m 77m 99m EE CC S", False),
        ("111m 333m 55m 77m 99m EE CC", False),  # two pons, 16 tiles
        ("111m 333m 55m 77m 99m EE CC S", False),
        ("11m 33m 55m 77m 99m EE CC SS P", False),
        ("123m 456m 789m 123p 55p EEE", False),
    ],
)
def test_is_eight_pairs(text, ok):
    c = H(text)
    assert _testing.is_eight_pairs(c) == ok
    assert (_testing.eight_pairs_shanten(c) == -1) == ok if c.sum() == 17 else True


def test_eight_pairs_waits_extras_cases():
    # EX02: 16 tiles, eight pairs with 1111m as two: waits 3m 5m 7m 9m E C, not 1m (held four times)
    c = H("1111m 33m 55m 77m 99m EE CC")
    assert _testing.eight_pairs_shanten(c) == 0 and _testing.shanten(c, 5) > 0
    m = np.zeros(N_KINDS, np.bool_)
    assert _testing.eight_pairs_wait_mask(c, c, m) == 6
    assert names(m) == ["3m", "5m", "7m", "9m", "E", "C"]
    assert api.waits("1111m 33m 55m 77m 99m EE CC", eight_pairs=True) == ["3m", "5m", "7m", "9m", "E", "C"]
    assert api.waits("1111m 33m 55m 77m 99m EE CC") == []
    # EX08: standard wait on F, eight_pairs on 6s and 8s
    text = "234s 234s 666s 888s FF 33s"
    assert api.waits(text) == ["F"]
    assert api.waits(text, eight_pairs=True) == ["6s", "8s", "F"]
    c = H(text)
    assert _core.win_shanten(c, 5, A.SHAPE_EIGHT_PAIRS) == 0
    assert _core.is_win(H(text + " 6s"), 5, A.SHAPE_EIGHT_PAIRS) and not _core.is_win(H(text + " 6s"), 5, 0)
    assert not _core.is_win(H("22s 333s 44s 666s 888s FF"), 4, A.SHAPE_EIGHT_PAIRS)  # melds: no eight_pairs
    assert api.is_complete_hand(text + " 8s", eight_pairs=True) and not api.is_complete_hand(text + " 8s")
    assert api.shanten_of(text, eight_pairs=True) == 0


@SETTINGS
@given(st.sampled_from([16, 17]).flatmap(lambda n: random_counts(n)), st.data())
def test_eight_pairs_properties(c, data):
    assert _testing.is_eight_pairs(c) == py_eight_pairs(c)
    assert _testing.eight_pairs_shanten(c) == py_eight_pairs_shanten(c)
    if c.sum() == 16:
        held = c.copy()
        for k in data.draw(st.lists(st.integers(0, N_KINDS - 1), max_size=4)):
            held[k] = min(4, held[k] + 1)
        m = np.zeros(N_KINDS, np.bool_)
        _testing.eight_pairs_wait_mask(c, held, m)
        for k in range(N_KINDS):
            ok = False
            if c[k] < 4 and held[k] < 4:
                c[k] += 1
                ok = py_eight_pairs(c)
                c[k] -= 1
            assert m[k] == ok
        if _testing.eight_pairs_shanten(c) != 0:
            assert not m.any()


@settings(max_examples=60, deadline=None)
@given(
    st.builds(lambda pairs, pon: (pairs, pon), st.lists(st.integers(0, 33), min_size=7, max_size=7), st.integers(0, 33))
)
def test_eight_pairs_built(pp):
    pairs, pon = pp
    c = np.zeros(N_KINDS, np.int8)
    for k in pairs:
        c[k] += 2
    c[pon] += 3
    ok = c.max() <= 4
    if ok:
        assert _testing.is_eight_pairs(c)
        assert _core.is_win(c, 5, A.SHAPE_EIGHT_PAIRS)


# --------------------------------------------------------------------------------------------------
# API errors


def test_api_errors():
    with pytest.raises(ValueError, match="has 3 tiles; with 0 meld.* 16"):
        api.waits("123m")
    with pytest.raises(ValueError, match="has 16 tiles.*17"):
        api.decompose("123m 456m 789m 123p 456p 9s")
    with pytest.raises(ValueError, match="has 15 tiles.*16.*or 17"):
        api.shanten_of("123m 456m 789m 123p 456p")
    with pytest.raises(ValueError, match="n_melds must be 0..5"):
        api.waits("5m", n_melds=6)
    with pytest.raises(ValueError, match="n_melds=3 but 1 melds"):
        api.waits("5m", n_melds=3, melds=["pon EEE"])
    with pytest.raises(ValueError, match="fifth copy of 'E'"):
        api.waits("E 123m 456m 789m 55p 5s", melds=["kong EEEE"])
    with pytest.raises(NotationError):
        api.waits("0m")
    with pytest.raises(ValueError, match="outside 0..4"):
        api.shanten_of(np.full(N_KINDS, 5))
    with pytest.raises(ValueError, match="34 integer counts"):
        api.shanten_of([1, 2, 3])
    assert api.shanten_of(H("123m 456m 789m 123p 55p EE")) == 0  # arrays are accepted
    assert api.is_complete_hand("123m 55p", melds=["pon EEE", "pon SSS", "chi 123s", "ankong 7777p"])


def test_package_exports():
    import envs.hand as hand

    assert hand.waits("23m 567m 123p 456p 789p 99s") == ["1m", "4m"]
    with pytest.raises(AttributeError):
        hand.nope  # noqa: B018


# --------------------------------------------------------------------------------------------------
# Bench


def test_bench_smoke():
    from tw16.bench.hand import bench_hand

    r = bench_hand(seconds=0.01, n_hands=500)
    json.dumps(r)
    for key in ("win_checks_per_s", "waits_per_s", "shanten_per_s", "first_call_s"):
        assert r[key] > 0
    assert 0.3 < r["win_fraction"] < 0.7
