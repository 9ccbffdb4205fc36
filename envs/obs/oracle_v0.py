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

from envs._core import oracle_v0_encode
from envs.obs import planes_v0 as pv

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
        oracle_v0_encode(out, s.hands, s.melds, s.river, s.wall, s.g, s.p, s.scores, seats, engine.opts, self.flags,
                         pv.engine_shapes(engine), self.n_planes)
        return out
