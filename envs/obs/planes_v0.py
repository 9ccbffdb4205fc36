"""``planes_v0``: the compact plane encoding, float32 (C, 34) per (game, seat).

Columns are the 34 tile kinds. Seats are relative to the observing seat: 0 self, 1 next (下家),
2 opposite, 3 previous (上家). Channel ``CH_X + 4*r + i`` is item ``i`` of relative seat ``r``.
Thresholds ``>=1..>=4`` are four 0/1 channels (a count = their sum). ``channel_names()`` lists all.
The channels are the rows of ``CHANNELS`` and ``DERIVED_CHANNELS`` below, the scalars those of
``SCALARS``; ``python tools/doc_tables.py --write`` writes them as tables into the env card
(``help(envs.tw16_v0)``: the channels), docs/environment.md (both) and here (the scalars).

Scalars (``CH_SCALARS`` columns):

.. BEGIN generated: scalars
======  ==============  ================================================================
column  scalar          content
======  ==============  ================================================================
0       SC_DRAWABLE     tiles left to draw / 128 (exact)
1       SC_LAST3        no calls (<= 3 left and the rule on)
2       SC_STREAK       dealer streak / 8
3       SC_ROT          dealer passes this game / 16
4       SC_NRIVER       discards this hand / 128
5       SC_AFTER_CLAIM  the turn seat claimed this turn (must discard)
6       SC_PASS_WIN     own 過水 flag
7       SC_REPLACEMENT  the drawn tile came from the tail
8-11    SC_DEALER       per seat r: the dealer
12-15   SC_TURN         per seat r: on turn (the discarder / konger while others answer)
16-19   SC_READY        per seat r: declared ready
20-23   SC_HAND_SIZE    per seat r: concealed tiles / 16
24-27   SC_SCORE        per seat r: cumulative chips / (per_tai * 64), clipped
======  ==============  ================================================================
.. END generated: scalars

Recovering the game from an observation: own counts = sum of CH_HAND; visible tiles = own counts +
sum_r (meld counts r) + sum_r (discards r - claimed r); unseen = 4 - visible (CH_UNSEEN with
``derived``); opponent r's discards (safe tiles against r) = CH_DISCARD block r; tiles left =
scalars[SC_DRAWABLE] * 128; tile under claim = argmax of CH_QUESTION.
"""

from __future__ import annotations

import numpy as np

from envs._core import encode_rows, planes_v0_encode
from envs.engine import state as st
from envs.obs.channels import REL, THRESHOLDS, Block, names, starts

OBS_VERSION = "planes_v0"

_PHASES = ("turn", "claim", "rob", "ready")
_RECENT = ("0", "1", "2", "3")  # j-th most recent discard, 0 newest

# The scalar columns of CH_SCALARS, in order (SC_* are their offsets).
SCALARS = (
    Block("SC_DRAWABLE", "drawable/128", "fraction", "tiles left to draw / 128 (exact)"),
    Block("SC_LAST3", "last3", "0/1", "no calls (<= 3 left and the rule on)"),
    Block("SC_STREAK", "streak/8", "scaled", "dealer streak / 8"),
    Block("SC_ROT", "rot/16", "fraction", "dealer passes this game / 16"),
    Block("SC_NRIVER", "nriver/128", "fraction", "discards this hand / 128"),
    Block("SC_AFTER_CLAIM", "after_claim", "0/1", "the turn seat claimed this turn (must discard)"),
    Block("SC_PASS_WIN", "pass_win", "0/1", "own 過水 flag"),
    Block("SC_REPLACEMENT", "replacement", "0/1", "the drawn tile came from the tail"),
    Block("SC_DEALER", "dealer {seat}", "one-hot", "per seat r: the dealer", REL),
    Block("SC_TURN", "turn {seat}", "one-hot", "per seat r: on turn (the discarder / konger while others answer)", REL),
    Block("SC_READY", "ready {seat}", "0/1", "per seat r: declared ready", REL),
    Block("SC_HAND_SIZE", "hand_size/16 {seat}", "scaled", "per seat r: concealed tiles / 16", REL),
    Block(
        "SC_SCORE",
        "score/(per_tai*64) {seat}",
        "clipped",
        "per seat r: cumulative chips / (per_tai * 64), clipped",
        REL,
    ),
)

# The channels, in order (CH_* are their offsets); then those added with ``derived=True``.
CHANNELS = (
    Block("CH_HAND", "hand {item}", "thresholds", "own concealed count >= 1..4", items=THRESHOLDS),
    Block("CH_DRAWN", "drawn", "one-hot", "the tile the observer just drew (its own turn only)"),
    Block(
        "CH_MELD",
        "meld {seat} {item}",
        "thresholds",
        "per seat r: tiles in r's visible melds, count >= 1..4 "
        "(an opponent's 暗槓 is face down: not here unless ``reveal_ankong``)",
        REL,
        THRESHOLDS,
    ),
    Block(
        "CH_ANKONG",
        "ankong {seat}",
        "0/1",
        "per seat r: kinds of r's concealed kongs (self; others only if revealed)",
        REL,
    ),
    Block("CH_FLOWERS", "flowers {seat} (cols 0-7)", "0/1", "per seat r: flowers f1..f8 in columns 0..7", REL, cols=8),
    Block(
        "CH_DISCARD",
        "discard {seat} {item}",
        "thresholds",
        "per seat r: r's discards this hand (claimed ones included), count >= 1..4",
        REL,
        THRESHOLDS,
    ),
    Block(
        "CH_CLAIMED",
        "claimed {seat}",
        "count",
        "per seat r: how many of r's discards of that kind another seat claimed",
        REL,
    ),
    Block(
        "CH_TAKEN", "taken {seat}", "count", "per seat r: discards r claimed (the tile taken into a chi/pon/kong)", REL
    ),
    Block(
        "CH_RECENT",
        "recent {seat} {item}",
        "one-hot",
        "per seat r: r's j-th most recent discard (j = 0 newest .. 3)",
        REL,
        _RECENT,
    ),
    Block("CH_LAST", "last discard", "one-hot", "the last discard of the hand (any seat)"),
    Block(
        "CH_QUESTION",
        "question",
        "one-hot",
        "the tile being answered: discard under claim, or added kong that may be robbed",
    ),
    Block("CH_SEAT_WIND", "seat wind", "one-hot", "own seat wind, at its wind column (E=27 .. N=30)"),
    Block("CH_ROUND_WIND", "round wind", "one-hot", "prevailing wind, at its wind column"),
    Block(
        "CH_MELD_FROM",
        "meld from (cols 4r+o)",
        "quarters",
        "column 4*r + o: melds of seat r claimed from seat r+o (o = 1..3), o=0: r's concealed kongs; each count / 4",
        cols=16,
    ),
    Block("CH_SCALARS", "scalars", "scalars", "named columns SC_* (the scalar table)", cols=sum(b.n for b in SCALARS)),
    Block(
        "CH_PHASE",
        "phase {item}",
        "plane",
        "constant planes: turn / claim / rob / ready (天聽) (none when done)",
        items=_PHASES,
    ),
)
DERIVED_CHANNELS = (
    Block("CH_SHANTEN", "shanten", "plane", "min(shanten + 1, 8) / 8 of the own hand (0: complete)", derived=True),
    Block(
        "CH_DISCARD_SHANTEN",
        "discard shanten",
        "fraction",
        "(3n+2 hands) per held kind: (shanten after discarding it + 1) / 8, capped",
        derived=True,
    ),
    Block(
        "CH_WAITS",
        "waits",
        "0/1",
        "waits of a 3n+1 hand; of a 3n+2 hand: the waits after any ready discard",
        derived=True,
    ),
    Block(
        "CH_UNSEEN",
        "unseen {item}",
        "thresholds",
        "tiles the observer cannot see, count >= 1..4",
        items=THRESHOLDS,
        derived=True,
    ),
)

(
    CH_HAND,
    CH_DRAWN,
    CH_MELD,
    CH_ANKONG,
    CH_FLOWERS,
    CH_DISCARD,
    CH_CLAIMED,
    CH_TAKEN,
    CH_RECENT,
    CH_LAST,
    CH_QUESTION,
    CH_SEAT_WIND,
    CH_ROUND_WIND,
    CH_MELD_FROM,
    CH_SCALARS,
    CH_PHASE,
    N_CHANNELS,
) = starts(CHANNELS)  # N_: without derived
CH_SHANTEN, CH_DISCARD_SHANTEN, CH_WAITS, CH_UNSEEN, N_CHANNELS_DERIVED = starts(DERIVED_CHANNELS, N_CHANNELS)

(
    SC_DRAWABLE,
    SC_LAST3,
    SC_STREAK,
    SC_ROT,
    SC_NRIVER,
    SC_AFTER_CLAIM,
    SC_PASS_WIN,
    SC_REPLACEMENT,
    SC_DEALER,
    SC_TURN,
    SC_READY,
    SC_HAND_SIZE,
    SC_SCORE,
    N_SCALARS,
) = starts(SCALARS)

N_RECENT = len(_RECENT)
SCORE_CLIP = 4.0  # every value lies in [-SCORE_CLIP, SCORE_CLIP] (only scores can be negative)
F_DERIVED = 1
F_REVEAL_ANKONG = 2
_REL = REL  # the name planes_v1 (branch v1) reads


def n_channels(derived: bool = False) -> int:
    return N_CHANNELS_DERIVED if derived else N_CHANNELS


def blocks(derived: bool = False) -> tuple[Block, ...]:
    return CHANNELS + DERIVED_CHANNELS if derived else CHANNELS


def channel_names(derived: bool = False) -> list[str]:
    """One readable name per channel, e.g. ``'discard next >=2'``."""
    return names(blocks(derived))


def scalar_names() -> list[str]:
    return names(SCALARS)


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
        planes_v0_encode(out, s.hands, s.melds, s.river, s.g, s.p, s.scores, seats, engine.native, self.flags)
        return out

    def encode_rows(self, engine, out, rows, seats) -> np.ndarray:
        """``out[i]`` = games ``rows[i]`` seen by ``seats[i]`` (int64; ``out`` may hold more rows), as
        ``PlanesV1.encode_rows``: a few games of a large batch without encoding the rest."""
        encode_state_rows(out, rows, seats, engine.s, engine.native, self.flags)
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


def encode_state_rows(out, rows, seats, s, rules, flags) -> None:
    """The core's planes_v0 encoder over the arrays of the state ``s`` it reads: ``out[i]`` = game
    ``rows[i]`` seen by ``seats[i]`` under ``rules`` (the Engine's ``native``). The one place that
    unpacks the state for it (the encoder, the drivers)."""
    encode_rows(out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, rules, flags)
