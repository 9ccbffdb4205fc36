"""``planes_v0``: the compact plane encoding, float32 (C, 34) per (game, seat).

Columns are the 34 tile kinds. Seats are relative to the observing seat: 0 self, 1 next (下家),
2 opposite, 3 previous (上家). Channel ``CH_X + 4*r + i`` is item ``i`` of relative seat ``r``.
Thresholds ``>=1..>=4`` are four 0/1 channels (a count = their sum). ``channel_names()`` lists all.

==================  ===  ==========================================================================
channels            n    content
==================  ===  ==========================================================================
CH_HAND             4    own concealed count >= 1..4
CH_DRAWN            1    the tile the observer just drew (its own turn only)
CH_MELD             16   per seat r: tiles in r's visible melds, count >= 1..4 (an opponent's 暗槓 is
                         face down: not here unless ``reveal_ankong``)
CH_ANKONG           4    per seat r: kinds of r's concealed kongs (self; others only if revealed)
CH_FLOWERS          4    per seat r: flowers f1..f8 in columns 0..7
CH_DISCARD          16   per seat r: r's discards this hand (claimed ones included), count >= 1..4
CH_CLAIMED          4    per seat r: how many of r's discards of that kind another seat claimed
CH_TAKEN            4    per seat r: discards r claimed (the tile taken into a chi/pon/kong)
CH_RECENT           16   per seat r: r's j-th most recent discard (j = 0 newest .. 3), one-hot
CH_LAST             1    the last discard of the hand (any seat), one-hot
CH_QUESTION         1    the tile being answered: discard under claim, or added kong that may be robbed
CH_SEAT_WIND        1    own seat wind, one-hot at its wind column (E=27 .. N=30)
CH_ROUND_WIND       1    prevailing wind, one-hot at its wind column
CH_MELD_FROM        1    column 4*r + o: melds of seat r claimed from seat r+o (o = 1..3), o=0:
                         r's concealed kongs; each count / 4
CH_SCALARS          1    named columns SC_* below
CH_PHASE            4    constant planes: turn / claim / rob / ready (天聽) (none when done)
--- derived=True ---
CH_SHANTEN          1    constant plane: min(shanten + 1, 8) / 8 of the own hand (0: complete)
CH_DISCARD_SHANTEN  1    (3n+2 hands) per held kind: (shanten after discarding it + 1) / 8, capped
CH_WAITS            1    waits of a 3n+1 hand; of a 3n+2 hand: the waits after any ready discard
CH_UNSEEN           4    tiles the observer cannot see, count >= 1..4
==================  ===  ==========================================================================

Scalars (``CH_SCALARS`` columns): SC_DRAWABLE tiles left to draw / 128 (exact), SC_LAST3 no calls
(<= 3 left and the rule on), SC_STREAK dealer streak / 8, SC_ROT dealer passes this game / 16,
SC_NRIVER discards this hand / 128, SC_AFTER_CLAIM the turn seat claimed this turn (must discard),
SC_PASS_WIN own 過水 flag, SC_REPLACEMENT the drawn tile came from the tail, SC_DEALER+r dealer,
SC_TURN+r seat on turn (the discarder / konger while others answer), SC_READY+r declared ready,
SC_HAND_SIZE+r concealed tiles / 16, SC_SCORE+r cumulative chips / (per_tai * 64) clipped to +-4.

Recovering the game from an observation: own counts = sum of CH_HAND; visible tiles = own counts +
sum_r (meld counts r) + sum_r (discards r - claimed r); unseen = 4 - visible (CH_UNSEEN with
``derived``); opponent r's discards (safe tiles against r) = CH_DISCARD block r; tiles left =
scalars[SC_DRAWABLE] * 128; tile under claim = argmax of CH_QUESTION.
"""

from __future__ import annotations

import numpy as np

from envs._core import planes_v0_encode
from envs.engine import state as st

OBS_VERSION = "planes_v0"

CH_HAND = 0
CH_DRAWN = 4
CH_MELD = 5
CH_ANKONG = 21
CH_FLOWERS = 25
CH_DISCARD = 29
CH_CLAIMED = 45
CH_TAKEN = 49
CH_RECENT = 53
CH_LAST = 69
CH_QUESTION = 70
CH_SEAT_WIND = 71
CH_ROUND_WIND = 72
CH_MELD_FROM = 73
CH_SCALARS = 74
CH_PHASE = 75
N_CHANNELS = 79  # without derived features
CH_SHANTEN = 79
CH_DISCARD_SHANTEN = 80
CH_WAITS = 81
CH_UNSEEN = 82
N_CHANNELS_DERIVED = 86

SC_DRAWABLE = 0
SC_LAST3 = 1
SC_STREAK = 2
SC_ROT = 3
SC_NRIVER = 4
SC_AFTER_CLAIM = 5
SC_PASS_WIN = 6
SC_REPLACEMENT = 7
SC_DEALER = 8
SC_TURN = 12
SC_READY = 16
SC_HAND_SIZE = 20
SC_SCORE = 24
N_SCALARS = 28

N_RECENT = 4
SCORE_CLIP = 4.0  # every value lies in [-SCORE_CLIP, SCORE_CLIP] (only scores can be negative)
F_DERIVED = 1
F_REVEAL_ANKONG = 2

_REL = ("self", "next", "opposite", "previous")
_PHASES = ("turn", "claim", "rob", "ready")


def n_channels(derived: bool = False) -> int:
    return N_CHANNELS_DERIVED if derived else N_CHANNELS


def channel_names(derived: bool = False) -> list[str]:
    """One readable name per channel, e.g. ``'discard next >=2'``."""
    th = [f">={i}" for i in range(1, 5)]
    n = [f"hand {t}" for t in th] + ["drawn"]
    n += [f"meld {r} {t}" for r in _REL for t in th]
    n += [f"ankong {r}" for r in _REL] + [f"flowers {r} (cols 0-7)" for r in _REL]
    n += [f"discard {r} {t}" for r in _REL for t in th]
    n += [f"claimed {r}" for r in _REL] + [f"taken {r}" for r in _REL]
    n += [f"recent {r} {j}" for r in _REL for j in range(N_RECENT)]
    n += ["last discard", "question", "seat wind", "round wind", "meld from (cols 4r+o)", "scalars"]
    n += [f"phase {p}" for p in _PHASES]
    if derived:
        n += ["shanten", "discard shanten", "waits"] + [f"unseen {t}" for t in th]
    assert len(n) == n_channels(derived)
    return n


def scalar_names() -> list[str]:
    n = ["drawable/128", "last3", "streak/8", "rot/16", "nriver/128", "after_claim", "pass_win", "replacement"]
    for what in ("dealer", "turn", "ready", "hand_size/16", "score/(per_tai*64)"):
        n += [f"{what} {r}" for r in _REL]
    assert len(n) == N_SCALARS
    return n


def engine_shapes(engine) -> int:
    from envs.scoring.profile import PO_SHAPES

    return int(engine.prof[2][PO_SHAPES])


class PlanesV0:
    """The encoder: ``enc.encode(engine, seats=None, out=None) -> (B, C, 34) float32``.

    ``seats=None`` encodes for the seat to act (a finished game gives zeros); an int or a (B,)
    array encodes for those seats. ``out`` may be a preallocated C-contiguous float32 array.
    """

    version = OBS_VERSION

    def __init__(self, derived: bool = False, reveal_ankong: bool = False):
        self.derived = bool(derived)
        self.reveal_ankong = bool(reveal_ankong)
        self.flags = (F_DERIVED if derived else 0) | (F_REVEAL_ANKONG if reveal_ankong else 0)
        self.n_channels = n_channels(derived)
        self.shape = (self.n_channels, 34)

    def channel_names(self) -> list[str]:
        return channel_names(self.derived)

    def alloc(self, batch_size: int) -> np.ndarray:
        return np.zeros((batch_size,) + self.shape, np.float32)

    def encode(self, engine, seats=None, out=None) -> np.ndarray:
        s = engine.s
        B = s.hands.shape[0]
        seats = _seats(s, seats, B)
        if out is None:
            out = self.alloc(B)
        elif out.shape != (B,) + self.shape or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"out must be C-contiguous float32 {(B,) + self.shape}, got {out.dtype} {out.shape}")
        planes_v0_encode(out, s.hands, s.melds, s.river, s.g, s.p, s.scores, seats, engine.opts, self.flags,
                         engine_shapes(engine))
        return out


def _seats(s, seats, B) -> np.ndarray:
    if seats is None:
        return s.g[:, st.G_CUR].astype(np.int64)
    a = np.asarray(seats, dtype=np.int64)
    if a.ndim == 0:
        a = np.full(B, int(a), np.int64)
    if a.shape != (B,) or (a < -1).any() or (a > 3).any():
        raise ValueError(f"seats must be an int or a ({B},) array of seats 0..3 (-1: none)")
    return a
