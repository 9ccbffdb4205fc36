"""The numba kernel that computes the hand tables (see ``envs/hand/tables.py`` for the layout).

Kept apart from ``tables.py`` so that ``python -m envs.hand.tables`` (which runs that file as
``__main__``) and ordinary imports share one numba cache entry.
"""

import numpy as np
from envs.jit import njit


@njit(cache=True)
def gen_group(nk, allow_chi):
    """(dist[5**nk, 12], flags[5**nk]) for a group of ``nk`` kinds; chis of 3 consecutive kinds if allowed."""
    size = 5**nk
    pw = np.empty(nk, np.int64)
    p = 1
    for i in range(nk):
        pw[i] = p
        p *= 5
    mask = np.zeros(size, np.uint16)  # bit 2*m + p: contains m sets + p pairs
    d = np.zeros(nk, np.int64)  # digits of `code`, odometer
    for code in range(size):
        if code > 0:
            i = 0
            while d[i] == 4:
                d[i] = 0
                i += 1
            d[i] += 1
        m = 1
        for i in range(nk):
            if d[i] >= 3:
                m |= mask[code - 3 * pw[i]] << 2
            if d[i] >= 2:
                m |= (mask[code - 2 * pw[i]] & 0x555) << 1
        if allow_chi:
            for i in range(nk - 2):
                if d[i] >= 1 and d[i + 1] >= 1 and d[i + 2] >= 1:
                    m |= mask[code - pw[i] - pw[i + 1] - pw[i + 2]] << 2
        mask[code] = m & 0xFFF
    dist = np.empty((size, 12), np.uint8)
    flags = np.zeros(size, np.uint8)
    for code in range(size - 1, -1, -1):
        c = code
        tot = 0
        for i in range(nk):
            d[i] = c % 5
            c //= 5
            tot += d[i]
        m = mask[code]
        for j in range(12):
            if (m >> j) & 1:
                dist[code, j] = 0
            else:
                best = 255
                for i in range(nk):
                    if d[i] < 4:
                        v = dist[code + pw[i], j]
                        if v < best:
                            best = v
                dist[code, j] = best + 1 if best < 254 else 255
        r = tot % 3
        if tot <= 17 and r != 1:
            if (m >> (2 * (tot // 3) + (1 if r == 2 else 0))) & 1:
                flags[code] = 1
    return dist, flags
