"""``oracle_v0``: planes_v0 plus the hidden information, for oracle guiding and analysis.

Channels ``0 .. P-1`` are exactly the planes_v0 channels (P = 79, or 86 with ``derived``); then,
at offsets from ``P`` (the table is written from ``CHANNELS`` by ``python tools/doc_tables.py --write``):

.. BEGIN generated: channels
==================  ==  ===========================================================================
channels            n   content
==================  ==  ===========================================================================
P + 0-11 O_HANDS    12  concealed hand of relative seat r = 1..3, count >= 1..4 at O_HANDS+4(r-1)+i
P + 12-14 O_ANKONG  3   kinds of the concealed kongs of seats r = 1..3
P + 15-18 O_WALL    4   tiles left in the wall (dead wall included), count >= 1..4
P + 19-34 O_FRONT   16  the next 16 front draws, one-hot (a flower: an empty row, see O_WALL_META)
P + 35-42 O_TAIL    8   the next 8 replacement draws from the tail, one-hot
P + 43 O_WALL_META  1   columns 0-15: front draw j is a flower; 16-23: tail draw j is a flower
==================  ==  ===========================================================================
.. END generated: channels

Rows past the end of the wall are empty; the number of drawable tiles is planes SC_DRAWABLE.
"""

from __future__ import annotations

import numpy as np

from envs._core import oracle_v0_encode
from envs.obs import planes_v0 as pv
from envs.obs.channels import REL, THRESHOLDS, Block, Extension, starts

OBS_VERSION = "oracle_v0"
EXTENDS = pv.OBS_VERSION  # its channels follow those of planes_v0
_FRONT = tuple(str(j) for j in range(16))  # the next front draws
_TAIL = tuple(str(j) for j in range(8))  # the next replacement draws

# The hidden-information channels after the P planes_v0 ones, in order (O_* are their offsets from P).
CHANNELS = (
    Block(
        "O_HANDS",
        "oracle hand {seat} {item}",
        "thresholds",
        "concealed hand of relative seat r = 1..3, count >= 1..4 at O_HANDS+4(r-1)+i",
        REL[1:],
        THRESHOLDS,
    ),
    Block("O_ANKONG", "oracle ankong {seat}", "0/1", "kinds of the concealed kongs of seats r = 1..3", REL[1:]),
    Block(
        "O_WALL",
        "oracle wall {item}",
        "thresholds",
        "tiles left in the wall (dead wall included), count >= 1..4",
        items=THRESHOLDS,
    ),
    Block(
        "O_FRONT",
        "oracle front {item}",
        "one-hot",
        "the next 16 front draws, one-hot (a flower: an empty row, see O_WALL_META)",
        items=_FRONT,
    ),
    Block(
        "O_TAIL", "oracle tail {item}", "one-hot", "the next 8 replacement draws from the tail, one-hot", items=_TAIL
    ),
    Block(
        "O_WALL_META",
        "oracle wall flowers (front 0-15, tail 16-23)",
        "0/1",
        "columns 0-15: front draw j is a flower; 16-23: tail draw j is a flower",
        cols=len(_FRONT) + len(_TAIL),
    ),
)

O_HANDS, O_ANKONG, O_WALL, O_FRONT, O_TAIL, O_WALL_META, N_ORACLE_EXTRA = starts(CHANNELS)
N_FRONT = len(_FRONT)
N_TAIL = len(_TAIL)

_EXT = Extension(pv, CHANNELS)  # planes_v0's channels, then these
n_channels, blocks, channel_names = _EXT.n_channels, _EXT.blocks, _EXT.channel_names


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
        oracle_v0_encode(
            out,
            s.hands,
            s.melds,
            s.river,
            s.wall,
            s.g,
            s.p,
            s.scores,
            seats,
            engine.native,
            self.flags,
            self.n_planes,
        )
        return out
