"""``planes_v1``: planes_v0 plus the hongkong decisions and the 拉 ledger, float32 (C, 34).

Channels ``0 .. P-1`` are exactly the planes_v0 channels (P = 79, or 86 with ``derived``; see
``envs.obs.planes_v0``); then the channels below at offsets ``P + X_*``. Why a new version: under
planes_v0 the flower-win offer (``PH_FLOWER``) and the 拉 cut question (``PH_LA_CUT``) had no phase
plane, both show the same {WIN, PASS} mask, and the 拉 debt a seat decides about was not in the
observation at all. Seats are relative to the observer (0 self, 1 next, 2 opposite, 3 previous);
an ordered pair of seats (debtor rd, creditor rc) is column ``4*rd + rc``.

.. BEGIN generated: channels
====================  =  ==========================================================================
channels              n  content
====================  =  ==========================================================================
P + 0 X_PHASE_FLOWER  1  constant plane: PH_FLOWER, the seat to act is offered 八仙過海 / 七搶一
P + 1 X_PHASE_LA_CUT  1  constant plane: PH_LA_CUT, the seat to act may cut a 拉 debt (三局斬拉)
P + 2 X_LA_DEBT       1  column 4*rd + rc: open 拉 debt of seat rd to seat rc, chips / (per_tai*64)
P + 3 X_LA_COUNT      1  column 4*rd + rc: that debt's count k / LA_COUNT_SCALE
P + 4 X_LA_ASK        1  column 4*rd + rc: the debt asked about in PH_LA_CUT
P + 5 X_OFFER         1  the flower-win offer: named columns OF_* below
====================  =  ==========================================================================
.. END generated: channels

``X_OFFER`` columns: OF_ALL_PAY the offer is 八仙過海 (all three pay), OF_PAYER+r 七搶一 paid by
relative seat r (it holds the eighth flower), OF_DRAWN the hand is drawn whatever the answer (the
last tile was a flower), OF_OFFERED+r seat r is the one asked: these only while ``PH_FLOWER``;
OF_PASSED+r seat r passed a flower win this hand (final for the hand), always.

The 拉 ledger (HONGKONG.md 5.2) is public: every player knows who owes whom, how much and for how
many hands. Open debt R (chips) of seat rd to seat rc: ``X_LA_DEBT[4*rd + rc] = R / (per_tai * 64)``
(tai / 64) clipped to +-SCORE_CLIP (the score scale of planes_v0's SC_SCORE: it saturates at 256
tai, which a chain of very big hands reaches: three 天胡 in a row do); its count k:
``X_LA_COUNT[4*rd + rc] = k / LA_COUNT_SCALE`` (三局斬拉: a cut is offered at k = 3, 6, ...).
The debt under question in ``PH_LA_CUT`` is ``X_LA_ASK`` (one-hot; its debtor is the seat to act,
so for the asked seat the column is ``4*0 + rc``, rc its creditor). Games without 拉 (every profile
but hongkong, or ``settlement="immediate"``) leave the ledger channels at zero.

Actions are unchanged (layout 0): in ``PH_FLOWER`` WIN takes the flower win and PASS declines it;
in ``PH_LA_CUT`` WIN cuts the debt (pays R in full now) and PASS keeps it.
"""

from __future__ import annotations

import numpy as np

from envs import _core
from envs.obs import planes_v0 as pv
from envs.obs.channels import REL, Block, Extension, starts

OBS_VERSION = "planes_v1"

EXTENDS = pv.OBS_VERSION  # its channels follow those of planes_v0

# The extra channels after the P planes_v0 ones, in order (X_* are their offsets from P);
# python tools/doc_tables.py --write tables them here and in docs/environment.md.
CHANNELS = (
    Block(
        "X_PHASE_FLOWER",
        "v1 phase flower offer",
        "plane",
        "constant plane: PH_FLOWER, the seat to act is offered 八仙過海 / 七搶一",
    ),
    Block(
        "X_PHASE_LA_CUT",
        "v1 phase la cut",
        "plane",
        "constant plane: PH_LA_CUT, the seat to act may cut a 拉 debt (三局斬拉)",
    ),
    Block(
        "X_LA_DEBT",
        "v1 la debt (cols 4rd+rc)",
        "clipped",
        "column 4*rd + rc: open 拉 debt of seat rd to seat rc, chips / (per_tai*64)",
        cols=16,
    ),
    Block(
        "X_LA_COUNT",
        "v1 la count (cols 4rd+rc)",
        "scaled",
        "column 4*rd + rc: that debt's count k / LA_COUNT_SCALE",
        cols=16,
    ),
    Block(
        "X_LA_ASK",
        "v1 la asked (cols 4rd+rc)",
        "one-hot",
        "column 4*rd + rc: the debt asked about in PH_LA_CUT",
        cols=16,
    ),
    Block("X_OFFER", "v1 flower offer (cols OF_*)", "0/1", "the flower-win offer: named columns OF_* below", cols=14),
)
X_PHASE_FLOWER, X_PHASE_LA_CUT, X_LA_DEBT, X_LA_COUNT, X_LA_ASK, X_OFFER, N_V1_EXTRA = starts(CHANNELS)

OF_ALL_PAY = 0
OF_PAYER = 1  # + relative seat r
OF_DRAWN = 5
OF_OFFERED = 6  # + r
OF_PASSED = 10  # + r

LA_COUNT_SCALE = 16.0

_EXT = Extension(pv, CHANNELS)  # planes_v0's channels, then these
n_channels, blocks, channel_names = _EXT.n_channels, _EXT.blocks, _EXT.channel_names


def offer_names() -> list[str]:
    """Names of the ``X_OFFER`` columns in use (OF_*)."""
    n = ["all pay (八仙過海)"] + [f"payer {r} (七搶一)" for r in REL] + ["drawn anyway"]
    n += [f"offered {r}" for r in REL] + [f"passed {r}" for r in REL]
    assert len(n) == OF_PASSED + 4
    return n


class PlanesV1(pv.PlanesV0):
    """The encoder, as :class:`PlanesV0`: ``enc.encode(engine, seats=None, out=None) -> (B, C, 34)``;
    ``enc.encode_rows(engine, out, rows, seats)`` encodes games ``rows`` for ``seats`` into
    ``out[:len(rows)]`` (the vector envs' and the AEC env's path)."""

    version = OBS_VERSION

    def __init__(self, derived: bool = False, reveal_ankong: bool = False):
        super().__init__(derived=derived, reveal_ankong=reveal_ankong)
        self.n_planes = self.n_channels  # the planes_v0 part
        self.n_channels = n_channels(derived)
        self.shape = (self.n_channels, 34)

    def channel_names(self) -> list[str]:
        return channel_names(self.derived)

    def encode(self, engine, seats=None, out=None) -> np.ndarray:
        B = engine.s.hands.shape[0]
        want = (B,) + self.shape
        if out is None:
            out = self.alloc(B)
        elif out.shape != want or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be C-contiguous float32 {want}, got {out.dtype} {out.shape}")
        return self.encode_rows(engine, out, np.arange(B, dtype=np.int64), pv._seats(engine.s, seats, B))

    def encode_rows(self, engine, out, rows, seats) -> np.ndarray:
        encode_state_rows(out, rows, seats, engine.s, engine.native, self.flags)
        return out


def encode_state_rows(out, rows, seats, s, rules, flags) -> None:
    """The core's planes_v1 encoder over the arrays of the state ``s`` it reads (planes_v0's and the
    拉 ledger): ``out[i]`` = game ``rows[i]`` seen by ``seats[i]`` under ``rules`` (the Engine's
    ``native``). The one place that unpacks the state for it (the encoder, the drivers, tw16_v1)."""
    _core.planes_v1_encode(out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, s.la, s.la_k, rules, flags)
