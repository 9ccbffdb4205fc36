"""``oracle_v0``: planes_v0 plus the hidden information, for oracle guiding and analysis.

Channels ``0 .. P-1`` are exactly the planes_v0 channels (P = 79, or 86 with ``derived``); then,
at offsets from ``P``:

==================  ===  ==========================================================================
offset              n    content
==================  ===  ==========================================================================
O_HANDS             12   concealed hand of relative seat r = 1..3, count >= 1..4 at O_HANDS+4(r-1)+i
O_ANKONG            3    kinds of the concealed kongs of seats r = 1..3
O_WALL              4    tiles left in the wall (dead wall included), count >= 1..4
O_FRONT             16   the next 16 front draws, one-hot (a flower: an empty row, see O_WALL_META)
O_TAIL              8    the next 8 replacement draws from the tail, one-hot
O_WALL_META         1    columns 0-15: front draw j is a flower; 16-23: tail draw j is a flower
==================  ===  ==========================================================================

Rows past the end of the wall are empty; the number of drawable tiles is planes SC_DRAWABLE.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.jit import njit

from envs.engine import state as st
from envs.obs import planes_v0 as pv
from envs.tiles import ANKONG

OBS_VERSION = "oracle_v0"
O_HANDS = 0
O_ANKONG = 12
O_WALL = 15
O_FRONT = 19
N_FRONT = 16
O_TAIL = 35
N_TAIL = 8
O_WALL_META = 43
N_EXTRA = 44
FLOWER_ID0 = 136


def n_channels(derived: bool = False) -> int:
    return pv.n_channels(derived) + N_EXTRA


def channel_names(derived: bool = False) -> list[str]:
    th = [f">={i}" for i in range(1, 5)]
    n = pv.channel_names(derived)
    n += [f"oracle hand {r} {t}" for r in pv._REL[1:] for t in th]
    n += [f"oracle ankong {r}" for r in pv._REL[1:]]
    n += [f"oracle wall {t}" for t in th]
    n += [f"oracle front {j}" for j in range(N_FRONT)] + [f"oracle tail {j}" for j in range(N_TAIL)]
    n += ["oracle wall flowers (front 0-15, tail 16-23)"]
    assert len(n) == n_channels(derived)
    return n


@njit(cache=True)
def _oracle_one(o, base, hands, melds, wall, g, p, b, me):
    if me < 0:
        return
    for r in range(1, 4):
        s = (me + r) % 4
        for k in range(34):
            c = hands[b, s, k]
            for i in range(4):
                if c > i:
                    o[base + O_HANDS + 4 * (r - 1) + i, k] = 1.0
        for i in range(p[b, s, st.P_NMELDS]):
            if melds[b, s, i, 0] == ANKONG:
                o[base + O_ANKONG + r - 1, melds[b, s, i, 1]] = 1.0
    head = g[b, st.G_HEAD]
    tail = g[b, st.G_TAIL]
    wc = np.zeros(34, np.int8)
    for i in range(head, tail + 1):
        t = wall[b, i]
        if t < FLOWER_ID0:
            wc[t >> 2] += 1
    for k in range(34):
        for i in range(4):
            if wc[k] > i:
                o[base + O_WALL + i, k] = 1.0
    for j in range(N_FRONT):
        i = head + j
        if i > tail:
            break
        t = wall[b, i]
        if t < FLOWER_ID0:
            o[base + O_FRONT + j, t >> 2] = 1.0
        else:
            o[base + O_WALL_META, j] = 1.0
    for j in range(N_TAIL):
        i = tail - j
        if i < head:
            break
        t = wall[b, i]
        if t < FLOWER_ID0:
            o[base + O_TAIL + j, t >> 2] = 1.0
        else:
            o[base + O_WALL_META, N_FRONT + j] = 1.0


@njit(cache=True, parallel=True)
def _encode_par(out, hands, melds, river, wall, g, p, scores, seats, opts, flags, shapes, base):
    for b in prange(out.shape[0]):
        pv.encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes)
        _oracle_one(out[b], base, hands, melds, wall, g, p, b, seats[b])


@njit(cache=True)
def _encode_ser(out, hands, melds, river, wall, g, p, scores, seats, opts, flags, shapes, base):
    for b in range(out.shape[0]):
        pv.encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes)
        _oracle_one(out[b], base, hands, melds, wall, g, p, b, seats[b])


class OracleV0(pv.PlanesV0):
    """Like :class:`PlanesV0` with the hidden channels appended (opponent concealed kongs stay
    hidden in the planes part, as the acting seat sees them)."""

    version = OBS_VERSION

    def __init__(self, derived: bool = False):
        super().__init__(derived=derived)
        self.n_planes = self.n_channels
        self.n_channels = n_channels(derived)
        self.shape = (self.n_channels, 34)

    def channel_names(self) -> list[str]:
        return channel_names(self.derived)

    def encode(self, engine, seats=None, out=None) -> np.ndarray:
        s = engine.s
        B = s.hands.shape[0]
        seats = pv._seats(s, seats, B)
        if out is None:
            out = self.alloc(B)
        elif out.shape != (B,) + self.shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be C-contiguous float32 {(B,) + self.shape}, got {out.dtype} {out.shape}")
        fn = _encode_par if B >= pv.PARALLEL_MIN_BATCH else _encode_ser
        fn(out, s.hands, s.melds, s.river, s.wall, s.g, s.p, s.scores, seats, engine.opts, self.flags,
           pv.engine_shapes(engine), self.n_planes)
        return out
