"""Compiled hand analysis: completeness, shanten, waits, decompositions, eight_pairs.

Every function here is ``@numba.njit(cache=True)`` and may be called from other compiled code.

Conventions
-----------
- ``counts``: the concealed tiles as counts over the 34 playing kinds (any integer dtype, each 0..4).
- ``n_sets``: the sets the concealed tiles must supply, ``5 - number of melds`` (0..5; a kong is a
  meld). A complete concealed part has ``3*n_sets + 2`` tiles: ``n_sets`` sets (chi or pon) + 1 pair.
- ``held``: all the seat's copies of each kind, melds included (length >= 34). RULES.md 3: a kind of
  which the seat holds all four is never a wait. Without melds, pass ``counts`` itself.
- shanten = (fewest tiles to add, no kind above 4, until the tiles contain a complete form) - 1:
  -1 complete, 0 ready (聽牌), ... Shanten judges the shape only (it ignores copies held in melds).
  It is meant for hands of ``3n+1`` or ``3n+2`` tiles and well defined for any smaller hand.
- Counts outside 0..4 (or ``n_sets`` outside 0..5) make :func:`is_complete` false and
  :func:`shanten` return ``INVALID``.
- From compiled code, pass ``n_sets`` as a variable: numba compiles a separate specialisation of a
  callee for each literal constant argument (``is_complete(c, 5)`` in a jitted caller is one more
  compile of ``is_complete``, still correct).

The functions read the tables through the compiled accessors of ``envs.hand.tables`` (no table
arguments); the same arrays are ``envs.hand.tables.SUIT_DIST`` etc. for code that wants to pass them.
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.tables import honour_dist, honour_flags, suit_dist, suit_flags
from envs.tiles import CHI, N_KINDS, PON, WIND0

NOT_HELD = 99  # discard_shanten value for a kind that is not in the hand
INVALID = 99  # shanten of a count vector with a count outside 0..4
MAX_SETS = 5
DEC_WIDTH = 1 + 2 * MAX_SETS  # columns of a decompositions() row
MAX_DECOMPOSITIONS = 16  # rows enough for decompositions(): a 17-tile hand has at most 6
SHAPE_EIGHT_PAIRS = 1  # bit of `shapes`: 嚦咕嚦咕 (strict16, extras)
SHAPE_THIRTEEN_PURE = 2  # 清十三么: 13 orphans + an orphan eye + a pon of an orphan (extras)
SHAPE_THIRTEEN_MIXED = 4  # 混十三么: 13 orphans + an orphan eye + a chow or a pon of a 2-8 (extras)
SHAPE_THIRTEEN = SHAPE_THIRTEEN_PURE | SHAPE_THIRTEEN_MIXED
SHAPE_SIXTEEN_UNRELATED = 8  # 十六不搭 (extras)
SHAPE_UNRELATED_GAP2 = 16  # modifier of SHAPE_SIXTEEN_UNRELATED: suit tiles 2 apart suffice (unrelated_gap 2)

_BIG = 1000


# --------------------------------------------------------------------------------------------------
# Codes


@njit(cache=True)
def _codes(counts):
    """((m, p, s, honour codes), (their tile counts)); the first code is -1 if a count is not 0..4.

    (One helper for all four groups: numba specialises a callee on literal arguments, so a helper
    taking the group as a constant would be compiled once per group.)
    """
    bad = False
    c0 = 0
    n0 = 0
    for i in range(8, -1, -1):
        v = np.int64(counts[i])
        bad |= v < 0 or v > 4
        c0 = c0 * 5 + v
        n0 += v
    c1 = 0
    n1 = 0
    for i in range(8, -1, -1):
        v = np.int64(counts[9 + i])
        bad |= v < 0 or v > 4
        c1 = c1 * 5 + v
        n1 += v
    c2 = 0
    n2 = 0
    for i in range(8, -1, -1):
        v = np.int64(counts[18 + i])
        bad |= v < 0 or v > 4
        c2 = c2 * 5 + v
        n2 += v
    c3 = 0
    n3 = 0
    for i in range(6, -1, -1):
        v = np.int64(counts[WIND0 + i])
        bad |= v < 0 or v > 4
        c3 = c3 * 5 + v
        n3 += v
    if bad:
        c0 = -1
    return (c0, c1, c2, c3), (n0, n1, n2, n3)


@njit(cache=True)
def _combine4(r0, r1, r2, r3, n):
    """min over splits of n sets and 1 pair among four table rows (columns 2*m + p)."""
    best = _BIG
    for a in range(n + 1):
        x0 = _BIG
        x1 = _BIG
        for m0 in range(a + 1):
            m1 = a - m0
            v = np.int64(r0[2 * m0]) + np.int64(r1[2 * m1])
            if v < x0:
                x0 = v
            v = np.int64(r0[2 * m0 + 1]) + np.int64(r1[2 * m1])
            if v < x1:
                x1 = v
            v = np.int64(r0[2 * m0]) + np.int64(r1[2 * m1 + 1])
            if v < x1:
                x1 = v
        b = n - a
        for m2 in range(b + 1):
            m3 = b - m2
            y0 = np.int64(r2[2 * m2]) + np.int64(r3[2 * m3])
            y1 = np.int64(r2[2 * m2 + 1]) + np.int64(r3[2 * m3])
            v = np.int64(r2[2 * m2]) + np.int64(r3[2 * m3 + 1])
            if v < y1:
                y1 = v
            if x0 + y1 < best:
                best = x0 + y1
            if x1 + y0 < best:
                best = x1 + y0
    return best


# --------------------------------------------------------------------------------------------------
# Completeness


@njit(cache=True)
def is_complete(counts, n_sets):
    """True iff ``counts`` is exactly ``n_sets`` sets and one pair (``3*n_sets + 2`` tiles)."""
    cs, ns = _codes(counts)
    if cs[0] < 0 or ns[0] + ns[1] + ns[2] + ns[3] != 3 * n_sets + 2:
        return False
    sflags = suit_flags()
    if (sflags[cs[0]] & sflags[cs[1]] & sflags[cs[2]] & honour_flags()[cs[3]] & 1) == 0:
        return False  # EXACT implies size % 3 != 1
    return (ns[0] % 3 == 2) + (ns[1] % 3 == 2) + (ns[2] % 3 == 2) + (ns[3] % 3 == 2) == 1


# --------------------------------------------------------------------------------------------------
# Shanten


@njit(cache=True)
def shanten(counts, n_sets):
    """Shanten of the standard shape (``n_sets`` sets + a pair): -1 complete, 0 ready, ..."""
    sdist = suit_dist()
    hdist = honour_dist()
    (c0, c1, c2, c3), _ = _codes(counts)
    if c0 < 0 or n_sets < 0 or n_sets > MAX_SETS:
        return INVALID
    return _combine4(sdist[c0], sdist[c1], sdist[c2], hdist[c3], n_sets) - 1


@njit(cache=True)
def discard_shanten(counts, n_sets, out):
    """For a ``3n+2`` hand: ``out[k]`` = shanten after discarding one ``k`` (``NOT_HELD`` if not held).

    Returns the best value; when the hand is not complete it equals ``shanten(counts, n_sets)``.
    """
    sdist = suit_dist()
    hdist = honour_dist()
    (c0, c1, c2, c3), _ = _codes(counts)
    best = NOT_HELD
    for k in range(N_KINDS):
        out[k] = NOT_HELD
    if c0 < 0 or n_sets < 0 or n_sets > MAX_SETS:
        return best
    r0 = sdist[c0]
    r1 = sdist[c1]
    r2 = sdist[c2]
    r3 = hdist[c3]
    for k in range(N_KINDS):
        i = k % 9 if k < WIND0 else k - WIND0
        p = 5**i
        if counts[k] <= 0:
            continue
        if k < 9:
            s = _combine4(sdist[c0 - p], r1, r2, r3, n_sets)
        elif k < 18:
            s = _combine4(r0, sdist[c1 - p], r2, r3, n_sets)
        elif k < WIND0:
            s = _combine4(r0, r1, sdist[c2 - p], r3, n_sets)
        else:
            s = _combine4(r0, r1, r2, hdist[c3 - p], n_sets)
        out[k] = s - 1
        if s - 1 < best:
            best = s - 1
    return best


@njit(cache=True)
def best_discards(counts, n_sets, mask):
    """``mask[k]`` = True for the kinds whose discard reaches the lowest shanten; returns that shanten."""
    sh = np.empty(N_KINDS, np.int64)
    best = discard_shanten(counts, n_sets, sh)
    for k in range(N_KINDS):
        mask[k] = sh[k] == best and best != NOT_HELD
    return best


# --------------------------------------------------------------------------------------------------
# Waits


@njit(cache=True)
def wait_mask(counts, n_sets, held, out):
    """For a ``3n+1`` hand: ``out[k]`` = True iff adding ``k`` completes it and ``held[k] < 4``.

    ``out`` (length >= 34, bool or int) is cleared first; returns the number of waits.
    """
    sflags = suit_flags()
    hflags = honour_flags()
    for k in range(N_KINDS):
        out[k] = False
    codes, sizes = _codes(counts)
    if codes[0] < 0 or sizes[0] + sizes[1] + sizes[2] + sizes[3] != 3 * n_sets + 1:
        return 0
    # ok: the group is exactly sets (+ a pair); EXACT implies size % 3 != 1
    ok = (
        (sflags[codes[0]] & 1) == 1,
        (sflags[codes[1]] & 1) == 1,
        (sflags[codes[2]] & 1) == 1,
        (hflags[codes[3]] & 1) == 1,
    )
    nbad = 0
    npair = 0
    for g in range(4):
        nbad += not ok[g]
        npair += ok[g] and sizes[g] % 3 == 2
    if nbad > 1:
        return 0
    nw = 0
    for g in range(4):
        # the other groups must be exact, and the tile goes to g
        if nbad - (0 if ok[g] else 1) != 0:
            continue
        r = sizes[g] % 3
        others_pair = npair - (1 if (ok[g] and r == 2) else 0)
        if r == 0:
            continue  # 3k+1 tiles in g: never exact
        if r == 1 and others_pair != 0:
            continue  # g becomes the pair group
        if r == 2 and others_pair != 1:
            continue  # g becomes sets only
        start = 9 * g
        nk = 9 if g < 3 else 7
        p = 1
        for i in range(nk):
            k = start + i
            if counts[k] < 4 and held[k] < 4:
                f = sflags[codes[g] + p] if g < 3 else hflags[codes[g] + p]
                if f & 1:
                    out[k] = True
                    nw += 1
            p *= 5
    return nw


@njit(cache=True)
def wait_array(counts, n_sets, held):
    """:func:`wait_mask` into a new bool array of length 34."""
    out = np.zeros(N_KINDS, np.bool_)
    wait_mask(counts, n_sets, held, out)
    return out


# --------------------------------------------------------------------------------------------------
# Decompositions


@njit(cache=True)
def decompositions(counts, n_sets, out):
    """All distinct decompositions of a complete hand into one pair and ``n_sets`` sets.

    Row layout of ``out`` (int array, shape ``(rows, >= 1 + 2*n_sets)``, e.g. ``(MAX_DECOMPOSITIONS,
    DEC_WIDTH)``): ``[pair_kind, type_0, kind_0, type_1, kind_1, ...]`` where ``type`` is ``CHI`` (0) or
    ``PON`` (1) and ``kind`` the set's lowest kind; columns past ``1 + 2*n_sets`` are set to -1. Sets
    are sorted by ``(kind, type)``; rows come by pair kind, then set sequence, and no two rows are
    equal. Returns the number of decompositions (0 if the hand is not complete); only the first
    ``out.shape[0]`` are written, so a return value above that means ``out`` was too small. A hand of
    up to 17 tiles has at most 6 (exhaustive check over the suit codes, e.g. ``11123444555666777m``),
    so ``MAX_DECOMPOSITIONS`` (16) rows are enough.
    """
    if not is_complete(counts, n_sets):
        return 0
    sflags = suit_flags()
    hflags = honour_flags()
    codes, sizes = _codes(counts)
    c = counts[:N_KINDS].copy()
    st = np.empty(MAX_SETS + 1, np.int64)  # set types
    sk = np.empty(MAX_SETS + 1, np.int64)  # set kinds
    opt = np.zeros(MAX_SETS + 2, np.int64)  # next option per depth: 0 chi, 1 pon, 2 none
    cap = out.shape[0]
    width = out.shape[1]
    nd = 0
    for pk in range(N_KINDS):
        if c[pk] < 2:
            continue
        c[pk] -= 2
        # prune: the pair's group must split into sets exactly
        g = pk // 9 if pk < WIND0 else 3
        code = codes[g] - 2 * 5 ** (pk - 9 * g)
        f = sflags[code] if g < 3 else hflags[code]
        good = sizes[g] % 3 == 2 and (f & 1) == 1
        if good:
            d = 0
            opt[0] = 0
            while True:
                if d == n_sets:
                    if nd < cap:
                        out[nd, 0] = pk
                        for j in range(n_sets):
                            out[nd, 1 + 2 * j] = st[j]
                            out[nd, 2 + 2 * j] = sk[j]
                        for j in range(1 + 2 * n_sets, width):
                            out[nd, j] = -1
                    nd += 1
                    d -= 1
                    if d < 0:
                        break
                    k = sk[d]
                    if st[d] == CHI:
                        c[k] += 1
                        c[k + 1] += 1
                        c[k + 2] += 1
                    else:
                        c[k] += 3
                    continue
                k = sk[d - 1] if d > 0 else 0
                while c[k] == 0:
                    k += 1
                o = opt[d]
                placed = False
                while o < 2 and not placed:
                    if o == 0:
                        if (
                            k < WIND0
                            and k % 9 <= 6
                            and c[k + 1] > 0
                            and c[k + 2] > 0
                            and not (d > 0 and sk[d - 1] == k and st[d - 1] == PON)
                        ):
                            c[k] -= 1
                            c[k + 1] -= 1
                            c[k + 2] -= 1
                            st[d] = CHI
                            placed = True
                    elif c[k] >= 3:
                        c[k] -= 3
                        st[d] = PON
                        placed = True
                    o += 1
                if placed:
                    sk[d] = k
                    opt[d] = o
                    d += 1
                    opt[d] = 0
                else:
                    d -= 1
                    if d < 0:
                        break
                    k = sk[d]
                    if st[d] == CHI:
                        c[k] += 1
                        c[k + 1] += 1
                        c[k + 2] += 1
                    else:
                        c[k] += 3
        c[pk] += 2
    return nd


# --------------------------------------------------------------------------------------------------
# eight_pairs 嚦咕嚦咕: 17 tiles, no melds, seven pairs + one pon (four of a kind may be two pairs)


@njit(cache=True)
def is_eight_pairs(counts):
    """True iff the 17 ``counts`` are seven pairs and one pon (a kind of four counts as two pairs)."""
    total = 0
    n3 = 0
    for k in range(N_KINDS):
        v = counts[k]
        if v < 0 or v > 4 or v == 1:
            return False
        if v == 3:
            n3 += 1
        total += v
    return total == 17 and n3 == 1


@njit(cache=True)
def eight_pairs_shanten(counts):
    """(fewest tiles to add until the tiles contain an eight_pairs hand) - 1; -1 = complete."""
    n0 = 0  # pair units (two per kind: the 2nd and the 4th copy) costing 0, 1 tiles
    n1 = 0
    for k in range(N_KINDS):
        v = np.int64(counts[k])
        if v < 0 or v > 4:
            return INVALID
        a = max(0, 2 - v)
        b = max(0, 4 - v) - a
        n0 += (a == 0) + (b == 0)
        n1 += (a == 1) + (b == 1)
    best = _BIG
    for t in range(N_KINDS):  # the pon
        v = np.int64(counts[t])
        a = max(0, 2 - v)
        b = max(0, 4 - v) - a
        z = n0 - (a == 0) - (b == 0)
        o = n1 - (a == 1) - (b == 1)
        need = 7
        cost = max(0, 3 - v)
        take = min(need, z)
        need -= take
        take = min(need, o)
        cost += take
        need -= take
        cost += 2 * need
        if cost < best:
            best = cost
    return best - 1


@njit(cache=True)
def eight_pairs_wait_mask(counts, held, out):
    """For 16 concealed tiles (no melds): ``out[k]`` = True iff adding ``k`` makes eight_pairs and
    ``held[k] < 4``. ``out`` is cleared first; returns the number of waits."""
    n1 = 0
    n3 = 0
    total = 0
    for k in range(N_KINDS):
        out[k] = False
    for k in range(N_KINDS):
        v = counts[k]
        if v < 0 or v > 4:
            return 0
        n1 += v == 1
        n3 += v == 3
        total += v
    if total != 16 or n1 > 1 or n3 > 2:
        return 0
    nw = 0
    for k in range(N_KINDS):
        v = counts[k]
        if held[k] >= 4 or v >= 4:
            continue
        if (v == 1 and n1 == 1 and n3 == 1) or (v == 2 and n1 == 0 and n3 == 0) or (v == 3 and n1 == 0 and n3 == 2):
            out[k] = True
            nw += 1
    return nw


# --------------------------------------------------------------------------------------------------
# 十三么 (thirteen orphans) and 十六不搭 (sixteen unrelated): 17 tiles, no melds (EXTRAS.md 2.1)
#
# 十三么: one each of 1m 9m 1p 9p 1s 9s E S W N C F P, a 14th orphan (the eye) and one set; the set is a
# pon of an orphan (pure, SHAPE_THIRTEEN_PURE) or a chow or a pon of a 2-8 (mixed, SHAPE_THIRTEEN_MIXED).
# 十六不搭: E S W N C F P once each, three tiles in each suit any two of which are at least 3 apart (2
# with SHAPE_UNRELATED_GAP2), and one more copy of one of these 16 (the eye).


@njit(cache=True)
def _is_orphan(k):
    return k >= WIND0 or k % 9 == 0 or k % 9 == 8


@njit(cache=True)
def thirteen_orphans_parts(counts, out):
    """17 tiles as 十三么: 0 no, 1 pure (the set is a pon of an orphan), 2 mixed (a chow or a pon of a
    2-8). Writes ``out[0]`` = the eye's kind, ``out[1]`` = the set's type (CHI/PON), ``out[2]`` = its
    lowest kind."""
    total = 0
    for k in range(N_KINDS):
        v = counts[k]
        if v < 0 or v > 4:
            return 0
        total += v
    if total != 17:
        return 0
    r = np.empty(N_KINDS, np.int64)
    for k in range(N_KINDS):
        r[k] = counts[k]
        if _is_orphan(k):
            if r[k] == 0:
                return 0
            r[k] -= 1
    # r holds 4 tiles: the eye's second tile (an orphan) and one set
    best = 0
    for y in range(N_KINDS):
        if r[y] == 0 or not _is_orphan(y):
            continue
        r[y] -= 1
        for k in range(N_KINDS):
            code = 0
            t = PON
            if r[k] == 3:
                code = 1 if _is_orphan(k) else 2
            elif r[k] == 1 and k < WIND0 and k % 9 <= 6 and r[k + 1] == 1 and r[k + 2] == 1:
                code = 2
                t = CHI
            if code != 0 and (best == 0 or code < best):
                best = code
                out[0] = y
                out[1] = t
                out[2] = k
        r[y] += 1
    return best


@njit(cache=True)
def _thirteen_code_ok(code, shapes):
    return (code == 1 and (shapes & SHAPE_THIRTEEN_PURE) != 0) or (code == 2 and (shapes & SHAPE_THIRTEEN_MIXED) != 0)


@njit(cache=True)
def is_thirteen_orphans(counts, shapes):
    """True iff the 17 ``counts`` are a 十三么 of a kind enabled in ``shapes`` (pure and/or mixed)."""
    parts = np.empty(3, np.int64)
    return _thirteen_code_ok(thirteen_orphans_parts(counts, parts), shapes)


@njit(cache=True)
def _extra_cost(c, need, ks, n):
    """Change of sum(max(0, need - c)) over the distinct kinds ``ks[:n]`` against a need of 1 per orphan."""
    s = 0
    for i in range(n):
        k = ks[i]
        dup = False
        for j in range(i):
            dup |= ks[j] == k
        if dup:
            continue
        b = 1 if _is_orphan(k) else 0
        s += max(0, need[k] - c[k]) - max(0, b - c[k])
    return s


@njit(cache=True)
def thirteen_orphans_shanten(counts, shapes):
    """(fewest tiles to add until the tiles contain a 十三么 enabled in ``shapes``) - 1; -1 = complete."""
    c = np.empty(N_KINDS, np.int64)
    need = np.zeros(N_KINDS, np.int64)
    base = 0
    for k in range(N_KINDS):
        v = np.int64(counts[k])
        if v < 0 or v > 4:
            return INVALID
        c[k] = v
        if _is_orphan(k):
            need[k] = 1
            base += v == 0
    pure = (shapes & SHAPE_THIRTEEN_PURE) != 0
    mixed = (shapes & SHAPE_THIRTEEN_MIXED) != 0
    ks = np.empty(4, np.int64)
    best = _BIG
    for y in range(N_KINDS):  # the eye
        if not _is_orphan(y):
            continue
        need[y] += 1
        ks[0] = y
        for k in range(N_KINDS):
            o = _is_orphan(k)
            if (o and pure) or (not o and mixed and k < WIND0):  # a pon of k
                need[k] += 3
                if need[k] <= 4:
                    ks[1] = k
                    cost = base + _extra_cost(c, need, ks, 2)
                    if cost < best:
                        best = cost
                need[k] -= 3
            if mixed and k < WIND0 and k % 9 <= 6:  # a chow from k
                need[k] += 1
                need[k + 1] += 1
                need[k + 2] += 1
                if need[k] <= 4:
                    ks[1] = k
                    ks[2] = k + 1
                    ks[3] = k + 2
                    cost = base + _extra_cost(c, need, ks, 4)
                    if cost < best:
                        best = cost
                need[k] -= 1
                need[k + 1] -= 1
                need[k + 2] -= 1
        need[y] -= 1
    if best >= _BIG:
        return INVALID
    return best - 1


@njit(cache=True)
def sixteen_unrelated_suits(counts, shapes, out):
    """True iff the 17 ``counts`` are a 十六不搭 (gap 3, or 2 with ``SHAPE_UNRELATED_GAP2``); then
    ``out[s]`` = the numbers held in suit s as a 9-bit mask (bit i = number i+1)."""
    gap = 2 if shapes & SHAPE_UNRELATED_GAP2 else 3
    total = 0
    n2 = 0
    for k in range(N_KINDS):
        v = counts[k]
        if v < 0 or v > 2:
            return False
        total += v
        n2 += v == 2
    if total != 17 or n2 != 1:
        return False
    for k in range(WIND0, N_KINDS):
        if counts[k] == 0:
            return False
    for s in range(3):
        last = -100
        n = 0
        mask = 0
        for i in range(9):
            if counts[9 * s + i] > 0:
                if i - last < gap:
                    return False
                last = i
                n += 1
                mask |= 1 << i
        if n != 3:
            return False
        out[s] = mask
    return True


@njit(cache=True)
def is_sixteen_unrelated(counts, shapes):
    """True iff the 17 ``counts`` are a 十六不搭 (``shapes`` gives the gap: ``SHAPE_UNRELATED_GAP2``)."""
    suits = np.empty(3, np.int64)
    return sixteen_unrelated_suits(counts, shapes, suits)


@njit(cache=True)
def sixteen_unrelated_shanten(counts, shapes):
    """(fewest tiles to add until the tiles contain a 十六不搭) - 1; -1 = complete."""
    gap = 2 if shapes & SHAPE_UNRELATED_GAP2 else 3
    for k in range(N_KINDS):
        if counts[k] < 0 or counts[k] > 4:
            return INVALID
    total = 0
    eye_free = False  # some chosen kind is already held twice
    for k in range(WIND0, N_KINDS):
        total += counts[k] == 0
        eye_free |= counts[k] >= 2
    for s in range(3):
        m = _BIG  # fewest missing tiles over the allowed triples
        m2 = _BIG  # the same over triples holding a kind twice
        for a in range(9):
            for b in range(a + gap, 9):
                for c in range(b + gap, 9):
                    ca = counts[9 * s + a]
                    cb = counts[9 * s + b]
                    cc = counts[9 * s + c]
                    miss = (ca == 0) + (cb == 0) + (cc == 0)
                    if miss < m:
                        m = miss
                    if (ca >= 2 or cb >= 2 or cc >= 2) and miss < m2:
                        m2 = miss
        total += m
        eye_free |= m2 == m
    return total + (0 if eye_free else 1) - 1


@njit(cache=True)
def special_shape(counts, shapes):
    """The ``SHAPE_*`` bit of the special shape (enabled in ``shapes``) that the 17 ``counts`` form, or 0:
    eight_pairs, 十三么 (pure or mixed bit) or 十六不搭 (never more than one of them)."""
    if (shapes & SHAPE_EIGHT_PAIRS) and is_eight_pairs(counts):
        return SHAPE_EIGHT_PAIRS
    if shapes & SHAPE_THIRTEEN:
        parts = np.empty(3, np.int64)
        code = thirteen_orphans_parts(counts, parts)
        if _thirteen_code_ok(code, shapes):
            return SHAPE_THIRTEEN_PURE if code == 1 else SHAPE_THIRTEEN_MIXED
    if (shapes & SHAPE_SIXTEEN_UNRELATED) and is_sixteen_unrelated(counts, shapes):
        return SHAPE_SIXTEEN_UNRELATED
    return 0


@njit(cache=True)
def special_wait_mask(counts, held, shapes, out):
    """For 16 concealed tiles (no melds): ``out[k]`` = True iff adding ``k`` makes a 十三么 or 十六不搭
    enabled in ``shapes`` and ``held[k] < 4``. ``out`` is cleared first; returns the number of waits."""
    for k in range(N_KINDS):
        out[k] = False
    c = np.empty(N_KINDS, np.int64)
    total = 0
    n_orph = 0  # distinct orphans held
    n_hon = 0  # distinct honours held
    for k in range(N_KINDS):
        v = np.int64(counts[k])
        if v < 0 or v > 4:
            return 0
        c[k] = v
        total += v
        if v > 0 and _is_orphan(k):
            n_orph += 1
            n_hon += k >= WIND0
    if total != 16:
        return 0
    thirteen = (shapes & SHAPE_THIRTEEN) != 0 and n_orph >= 12
    sixteen = (shapes & SHAPE_SIXTEEN_UNRELATED) != 0 and n_hon >= 6
    if not (thirteen or sixteen):
        return 0
    parts = np.empty(3, np.int64)
    suits = np.empty(3, np.int64)
    nw = 0
    for k in range(N_KINDS):
        if c[k] >= 4 or held[k] >= 4:
            continue
        c[k] += 1
        ok = thirteen and _thirteen_code_ok(thirteen_orphans_parts(c, parts), shapes)
        if not ok and sixteen:
            ok = sixteen_unrelated_suits(c, shapes, suits)
        c[k] -= 1
        if ok:
            out[k] = True
            nw += 1
    return nw


# --------------------------------------------------------------------------------------------------
# Shapes chosen by flags (SHAPE_EIGHT_PAIRS, SHAPE_THIRTEEN_*, SHAPE_SIXTEEN_UNRELATED)


@njit(cache=True)
def is_win(counts, n_sets, shapes):
    """:func:`is_complete`, or a special shape enabled in ``shapes`` (``SHAPE_*`` bits; no melds)."""
    if is_complete(counts, n_sets):
        return True
    if (shapes & SHAPE_EIGHT_PAIRS) and n_sets == MAX_SETS and is_eight_pairs(counts):
        return True
    if (shapes & (SHAPE_THIRTEEN | SHAPE_SIXTEEN_UNRELATED)) and n_sets == MAX_SETS:
        return special_shape(counts, shapes) != 0
    return False


@njit(cache=True)
def win_shanten(counts, n_sets, shapes):
    """The lowest shanten over the standard shape and the enabled special shapes."""
    s = shanten(counts, n_sets)
    if (shapes & SHAPE_EIGHT_PAIRS) and n_sets == MAX_SETS:
        e = eight_pairs_shanten(counts)
        if e < s:
            s = e
    if (shapes & SHAPE_THIRTEEN) and n_sets == MAX_SETS:
        e = thirteen_orphans_shanten(counts, shapes)
        if e < s:
            s = e
    if (shapes & SHAPE_SIXTEEN_UNRELATED) and n_sets == MAX_SETS:
        e = sixteen_unrelated_shanten(counts, shapes)
        if e < s:
            s = e
    return s


@njit(cache=True)
def win_wait_mask(counts, n_sets, held, shapes, out):
    """:func:`wait_mask` OR-ed with the waits of the enabled special shapes; returns the count."""
    wait_mask(counts, n_sets, held, out)
    if (shapes & SHAPE_EIGHT_PAIRS) and n_sets == MAX_SETS:
        extra = np.zeros(N_KINDS, np.bool_)
        eight_pairs_wait_mask(counts, held, extra)
        for k in range(N_KINDS):
            if extra[k]:
                out[k] = True
    if (shapes & (SHAPE_THIRTEEN | SHAPE_SIXTEEN_UNRELATED)) and n_sets == MAX_SETS:
        extra = np.zeros(N_KINDS, np.bool_)
        special_wait_mask(counts, held, shapes, extra)
        for k in range(N_KINDS):
            if extra[k]:
                out[k] = True
    nw = 0
    for k in range(N_KINDS):
        if out[k]:
            nw += 1
    return nw
