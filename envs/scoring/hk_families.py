"""hongkong families (HONGKONG.md 2.2): the occurrences of 般高, 相逢, 兄弟 and 姊妹 in one reading and
the choice of those that count, under 計法1 or 計法2 (see envs.scoring.hongkong)."""

from __future__ import annotations

from envs.jit import njit

from envs.scoring.extras import sort_small
from envs.scoring.hk_items import (
    BRO2,
    BRO3,
    BRO3S,
    DOUBLE,
    EACH,
    EYE_BIT,
    MAX_INST,
    QUAD,
    RANK,
    SIS2,
    SIS3,
    SIS3S,
    SIS4,
    SIS4S,
    SIS5,
    SIS5S,
    SUIT2,
    SUIT3,
    TRIPLE,
    TWO_DOUBLE,
)
from envs.tiles import CHI, WIND0


# ---------------------------------------------------------------------------------------------
# Families: occurrences and the best choice
@njit(cache=True)
def _add(buf, n, item, mask):
    if n < MAX_INST:
        buf[0, n] = item
        buf[1, n] = mask
        n += 1
    return n


@njit(cache=True)
def _fits(buf, j, depth, mode):
    item = buf[0, j]
    mask = buf[1, j]
    for d in range(depth):
        c = buf[4, d]
        same = buf[0, c] == item
        if mode == 1 and same and not EACH[item]:
            return False
        if (mode == 1 or not same) and (buf[1, c] & mask) != 0:
            return False
    return True


@njit(cache=True)
def _choose(v, buf, n, p_tai, mode):
    """Add to ``v`` the occurrences (``buf[0]`` item, ``buf[1]`` set mask, ``n`` of them, one family)
    chosen for the highest total (module docstring): a depth-first search over compatible choices."""
    for i in range(n):  # which occurrences can count (buf[2] = 1)
        item = buf[0, i]
        buf[2, i] = p_tai[0, item] > 0
        if buf[2, i] and mode == 2:
            for j in range(n):
                o = buf[0, j]
                if RANK[o] > RANK[item] and p_tai[0, o] >= 0 and (buf[1, i] & ~buf[1, j]) == 0:
                    buf[2, i] = 0
                    break
    m = 0
    for i in range(n):  # compacted to the front, buf[2] = their tai
        if buf[2, i]:
            buf[0, m] = buf[0, i]
            buf[1, m] = buf[1, i]
            buf[2, m] = p_tai[0, buf[0, i]]
            m += 1
    if m == 0:
        return
    buf[3, m] = 0  # suffix sums of tai: the bound
    for i in range(m - 1, -1, -1):
        buf[3, i] = buf[3, i + 1] + buf[2, i]
    best = 0
    best_n = 0
    depth = 0
    cur = 0
    nxt = 0
    while True:
        ext = -1
        if cur + buf[3, nxt] > best:
            for j in range(nxt, m):
                if _fits(buf, j, depth, mode):
                    ext = j
                    break
        if ext >= 0:
            buf[4, depth] = ext
            depth += 1
            cur += buf[2, ext]
            nxt = ext + 1
            if cur > best:
                best = cur
                best_n = depth
                for d in range(depth):
                    buf[5, d] = buf[4, d]
        else:
            if depth == 0:
                break
            depth -= 1
            cur -= buf[2, buf[4, depth]]
            nxt = buf[4, depth] + 1
    for d in range(best_n):
        v[buf[0, buf[5, d]]] += 1


@njit(cache=True)
def _gather(kinds, mask, a):
    """The kinds of the sets in ``mask`` into ``a``, ascending; returns how many."""
    m = 0
    for i in range(5):
        if mask >> i & 1:
            a[m] = kinds[i]
            m += 1
    sort_small(a, m)
    return m


@njit(cache=True)
def _families(v, st, sk, pv_pon, pv_kind, cv_chow, cv_kind, n, pair, buf, a, p_tai, mode):
    """般高 over the chow view, 相逢 and 兄弟 over the reading, 姊妹 over the pon view (2.3)."""
    cmask = 0
    amask = 0  # chows of the reading
    bmask = 0  # suited pons of the reading
    smask = 0  # suited pons of the pon view
    for i in range(n):
        if cv_chow[i]:
            cmask |= 1 << i
        if st[i] == CHI:
            amask |= 1 << i
        elif sk[i] < WIND0:
            bmask |= 1 << i
        if pv_pon[i] and pv_kind[i] < WIND0:
            smask |= 1 << i
    # 般高: identical chows
    k = 0
    sub = cmask
    while sub:
        m = _gather(cv_kind, sub, a)
        if 2 <= m <= 4 and a[0] == a[m - 1]:
            k = _add(buf, k, DOUBLE if m == 2 else (TRIPLE if m == 3 else QUAD), sub)
        if m == 4 and a[0] == a[1] and a[2] == a[3] and a[1] != a[2]:
            k = _add(buf, k, TWO_DOUBLE, sub)
        sub = (sub - 1) & cmask
    _choose(v, buf, k, p_tai, mode)
    # 相逢: chows of the same numbers in different suits
    k = 0
    sub = amask
    while sub:
        m = _gather(sk, sub, a)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            k = _add(buf, k, SUIT2, sub)
        if m == 3 and a[0] % 9 == a[1] % 9 and a[1] % 9 == a[2] % 9 and a[0] // 9 != a[1] // 9 and a[1] // 9 != a[2] // 9:
            k = _add(buf, k, SUIT3, sub)
        sub = (sub - 1) & amask
    _choose(v, buf, k, p_tai, mode)
    # 兄弟: pons of the same number in different suits (with the eye of it in the third suit)
    k = 0
    sub = bmask
    while sub:
        m = _gather(sk, sub, a)
        if m == 2 and a[0] % 9 == a[1] % 9 and a[0] // 9 != a[1] // 9:
            k = _add(buf, k, BRO2, sub)
            if 0 <= pair < WIND0 and pair % 9 == a[0] % 9 and pair // 9 != a[0] // 9 and pair // 9 != a[1] // 9:
                k = _add(buf, k, BRO3S, sub | EYE_BIT)
        if m == 3 and a[0] % 9 == a[1] % 9 and a[1] % 9 == a[2] % 9 and a[0] // 9 != a[1] // 9 and a[1] // 9 != a[2] // 9:
            k = _add(buf, k, BRO3, sub)
        sub = (sub - 1) & bmask
    _choose(v, buf, k, p_tai, mode)
    # 姊妹: pons of consecutive numbers in one suit (with the eye next to them)
    k = 0
    sub = smask
    while sub:
        m = _gather(pv_kind, sub, a)
        run = m >= 2 and a[0] // 9 == a[m - 1] // 9
        for i in range(1, m):
            run = run and a[i] == a[i - 1] + 1
        if run:
            k = _add(buf, k, SIS2 if m == 2 else (SIS3 if m == 3 else (SIS4 if m == 4 else SIS5)), sub)
            if m <= 4 and 0 <= pair < WIND0 and pair // 9 == a[0] // 9 and (pair == a[0] - 1 or pair == a[m - 1] + 1):
                k = _add(buf, k, SIS3S if m == 2 else (SIS4S if m == 3 else SIS5S), sub | EYE_BIT)
        sub = (sub - 1) & smask
    _choose(v, buf, k, p_tai, mode)


