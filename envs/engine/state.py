"""Batch state: struct-of-arrays, batch first. One game is row ``b`` of every array.

Arrays (B = batch size; K = scripted walls per game; all writable inside the engine, exposed read-only
by ``Engine``), generated from ``FIELDS`` below by tools/doc_tables.py:

.. BEGIN generated: arrays
==========  =================  =====================================================================
name        shape, dtype       meaning
==========  =================  =====================================================================
wall        (B, 144) uint8     physical tile ids in draw order; id//4 = kind for ids < 136, ids
                               136..143 = flowers f1..f8 (kinds 34..41). Front draws take
                               wall[head], replacements wall[tail]; only the first g[G_WALL_N]
                               entries (136 with flowers off) are used.
hands       (B, 4, 34) int8    concealed counts per seat
melds       (B, 4, 5, 3) int8  per seat, per meld: (type MELD_CHI..MELD_ANKONG, lowest kind, from
                               seat); from seat = the discarder for claimed melds, the owner
                               otherwise
river       (B, 144, 4) int8   discards in order: (kind, seat, claimed_by seat or -1, bits
                               RV_TSUMOGIRI | RV_WON_ON); a robbed kong's tile is entered as the
                               konger's discard won on (it leaves the konger's hand)
g           (B, 38) int64      per-game scalars, indexed by the G_* constants below
p           (B, 4, 14) int64   per-seat scalars, indexed by the P_* constants below
scores      (B, 4) int64       cumulative chips of the episode (zero-sum)
rng         (B,) uint64        the game's own random stream (splitmix64 state)
rewards     (B, 4) float32     chip deltas of the last step, in tai units (chips / per_tai)
terminated  (B,) bool          the episode is over
mask        (B, 76) bool       legal actions of current_player (all ones when terminated)
res_tai     (B, 4) int32       last finished hand: hand tai per winner (-1 for non-winners)
res_items   (B, 4, 159) int16  last finished hand: tai per scoring item, per winner
res_delta   (B, 4) int64       last finished hand: chip deltas
script      (B, K, 144) uint8  optional scripted walls for the first K hands (tests, replays)
la          (B, 4, 4) float64  拉 ledger (settlement "la"): la[b, d, c] = R, the open debt of player
                               d to player c in chips (exact: halves only), 0 when none
la_k        (B, 4, 4) int32    its count k (HONGKONG.md 5.2)
rec         (B, 2, 23) int64   the records of the last finished hands (REC_* slots): hand h of the
                               episode in row h % HAND_LOG, written when it ends; Engine reads them
                               after every call (Engine.take_hands), so a hand that ends in a step
                               that also deals the next one (and the next) is kept
rec_items   (B, 2, 32) int32   their nonzero scoring items, packed (seat * N_ITEMS + item) << 16 |
                               (tai & 0xFFFF), REC_NITEMS of them
==========  =================  =====================================================================
.. END generated: arrays
"""

from __future__ import annotations

from collections import namedtuple
from typing import NamedTuple

import numpy as np

from envs import tiles as _tiles
from envs.engine import actions as _actions
from envs.scoring import codes as _codes
from envs.scoring.codes import N_ITEMS  # noqa: F401 (read into constants.hpp's py::state)

MAX_MELDS = 5
MAX_RIVER = 144
WALL_SIZE = 144

# Phases: who is asked what.
PH_TURN = 0  # the seat on turn (17 - 3*melds tiles): discard, self kong, self-drawn win, ready
PH_CLAIM = 1  # a seat with a legal claim on the last discard: win / pon / kong / chi / pass
PH_ROB = 2  # a seat that could rob the added kong: win / pass
PH_READY0 = 3  # a non-dealer may declare 天聽 right after the initial flowers: ready / pass
PH_DONE = 4  # the episode is over
PH_HAND_OVER = 5  # transient: the hand just ended (handend), the step driver deals again or ends the episode
PH_FLOWER = 6  # flower_win "offer": the seat offered 八仙過海 / 七搶一 answers WIN / PASS
PH_LA_CUT = 7  # la_cut_policy "ask": after a hand, a debtor whose k reached 3, 6 ... answers WIN (cut) / PASS

# Per-game scalars (g[b, G_*]).
G_PHASE = 0
G_CUR = 1  # seat to decide (-1 when done)
G_TURN = 2  # seat whose turn it is: the discarder during claims, the konger while robbing
G_DEALER = 3
G_STREAK = 4  # dealer streak N (連莊)
G_ROT = 5  # dealer passes so far in the game; prevailing wind = ROT // 4
G_HEAD = 6  # next front index
G_TAIL = 7  # next tail index (counts down)
G_WALL_N = 8  # tiles in the wall: 144, or 136 with flowers off
G_NKONG = 9  # kongs declared this hand (dead_wall_per_kong)
G_NRIVER = 10  # discards so far this hand
G_TILE = 11  # the tile in question: last discard during claims, the added-kong kind while robbing
G_LAST_DRAWN = 12  # kind the turn seat drew last this turn, -1 after a claim
G_DRAWSRC = 13  # where that tile came from: SRC_*
G_AFTER_CLAIM = 14  # 1: the turn seat claimed chi/pon this turn and must discard
G_SWAP1 = 15  # kinds the seat may not discard after a chi when swap_call is off (-1: none)
G_SWAP2 = 16
G_ANY_MELD = 17  # any meld made this hand (ends 天胡/地胡/人胡 chances)
G_READY_PENDING = 18  # the turn seat declared ready and must now discard keeping a ready hand
G_HANDS = 19  # hands finished in this episode
G_RESULT = 20  # last finished hand: RES_*
G_WINNERS = 21  # last finished hand: bitmask of winners
G_PAYER = 22  # last finished hand: paying seat, -1 for all three / none
G_WIN_BY = 23  # last finished hand: WIN_* code, -1 for a drawn hand
G_RIVER_LAST = 24  # the discard in question was made with no drawable tile left (河底)
G_SCORE_ERR = 25  # count of legal wins the scorer refused (must stay 0)
G_DEALT = 26  # 1 once the current hand is dealt (0 at a fresh reset)
G_SCRIPT_USED = 27  # scripted walls consumed
G_DECISIONS = 28  # decisions taken this episode
G_CHAIN = 29  # replacement draws since the turn seat's last discard (連槓開花 chain)
# hongkong
G_OFFER = 30  # flower win offered to this seat (-1: none); asked in PH_FLOWER
G_OFFER_PAYER = 31  # -1: 八仙過海 (all pay), else the seat holding the eighth flower (七搶一)
G_OFFER_DRAWN = 32  # 1: the hand is drawn (last tile a flower) whatever the answer to the offer
G_LIABLE = 33  # 全包: discarder of the claimed kong that began the turn seat's replacement chain (-1)
G_DICE = 34  # this hand's dice d1 + 8 d2 + 64 d3 (0: not rolled)
G_LA_ASK = 35  # PH_LA_CUT: bit 4d+c for each debt d -> c still to be asked
G_ROB_ANKONG = 36  # the kong under PH_ROB is an ankong (only 十三么 may rob it)
G_ROB_CHAIN = 37  # that kong was declared with a replacement tile (搶槓上槓)
NG = 38

SRC_FRONT = 0
SRC_FLOWER = 1  # replacement after a flower
SRC_KONG = 2  # replacement after a concealed or added kong
SRC_EXPOSED_KONG = 3  # replacement after an exposed kong on a discard

RES_NONE = 0
RES_WIN = 1
RES_DRAWN = 2  # 流局 (end of the live wall, a last flower, 一路歸西)

# Per-seat scalars (p[b, seat, P_*]).
P_FLOWERS = 0  # bits 0..7: exposed flowers f1..f8
P_NMELDS = 1
P_NDRAWS = 2  # live-wall draws this hand (the dealer's 17th tile counts)
P_NDISC = 3  # discards this hand
P_PASS_WIN = 4  # 過水: may not win on a discard / robbed kong until its next draw
P_PASS_SELF = 5  # strict_pass: may not self-draw until its next discard
P_READY = 6  # ready flag bits (F_*_READY) passed to scoring
P_CLAIM = 7  # claim options on the tile in question: C_* bits (0: not asked)
P_ANSWER = 8  # the answer given (-1: not yet)
P_HELD_FLOWERS = 9  # flowers dealt but not yet exposed (only during the initial rounds)
# hongkong
P_SIDE = 10  # side payments of this hand (HONGKONG.md 4), chips, paid with the hand's end
P_FLOWER_PAID = 11  # bits FP_*: flower side payments already made this hand
P_IPPATSU = 12  # 一發 window open (from the ready discard to the seat's next discard or kong)
P_OFFER_PASSED = 13  # passed a flower win this hand (final)
NP = 14

FP_SET1 = 1  # 一臺花 春夏秋冬 paid
FP_SET2 = 2  # 一臺花 梅蘭菊竹 paid
FP_GRASS = 4  # 一臺草 paid (or no longer possible: a set was paid first)

C_WIN = 1
C_CHI_LOW = 2
C_CHI_MID = 4
C_CHI_HIGH = 8
C_PON = 16
C_KONG = 32
C_READY = 64  # PH_READY0: may declare 天聽

# Columns of river[b, i, RV_*] and melds[b, seat, j, MC_*].
RV_KIND = 0  # the discarded kind
RV_SEAT = 1  # the discarder
RV_CLAIMED_BY = 2  # the seat that claimed it, -1 when none
RV_BITS = 3  # RV_TSUMOGIRI | RV_WON_ON
MC_TYPE = 0  # CHI..ANKONG (envs.tiles)
MC_KIND = 1  # the lowest kind
MC_FROM = 2  # the discarder for a claimed meld, the owner otherwise
RV_TSUMOGIRI = 1  # the discard was the tile just drawn
RV_WON_ON = 2  # a seat won on it (on a discard, or on the robbed tile of an added kong / ankong)

# Finished-hand records (rec[b, h % HAND_LOG, REC_*], written by native/src/handend.cpp when hand h
# ends). Two rows: a step ends at most one hand by its action, plus any that end inside the deals it
# makes (a flower win or an exhausted wall before the first decision); Engine reads them after every
# call, and a call that ends more hands than HAND_LOG raises there.
HAND_LOG = 2
REC_MAX_ITEMS = 32  # nonzero items a record holds, all winners together
REC_HAND = 0  # the hand's index in the episode (G_HANDS when it ended)
REC_RESULT = 1  # RES_WIN / RES_DRAWN
REC_WINNERS = 2  # bitmask
REC_PAYER = 3  # the seat that paid alone, -1 for all three / none
REC_WIN_BY = 4  # WIN_* code, -1 for a drawn hand
REC_TILE = 5  # the winning tile's kind, -1 when none (drawn, flowers, 天胡 scored without one)
REC_SRC = 6  # where the turn seat's last drawn tile came from (SRC_*), read for self-drawn wins
REC_DEALER = 7  # the dealer of the hand
REC_STREAK = 8  # its streak N (連莊) during the hand
REC_ROT = 9  # dealer passes before the hand (prevailing wind = ROT // 4 % 4)
REC_HEAD = 10  # G_HEAD at the end: tiles drawn from the front
REC_TAIL = 11  # G_TAIL at the end
REC_AT_DEAL = 12  # 1: the hand ended in its deal, before any decision (the next deal followed)
REC_NITEMS = 13  # items counted (above REC_MAX_ITEMS: the record could not hold them all)
REC_TAI = 14  # 14..17: tai per seat (-1 for non-winners), res_tai
REC_DELTA = 18  # 18..21: chips per seat: res_delta when it ended (the 拉 payments between hands are not in it)
REC_FLOWERS = 22  # exposed flower bits of seat s in bits 8s..8s+7
NREC = 23


class Field(NamedTuple):
    """One array of the state: its name, numpy dtype, the dims after the batch axis, alloc's fill and
    what it holds (``doc``: the module docstring's table is generated from it).

    A dim is a number or the name of a constant (of this module, or of the module ``DIM_HOME`` names);
    ``K`` is the number of scripted walls per game. ``writable``: the engine writes it (script is only
    read, and may be a read-only or broadcast array).
    """

    name: str
    dtype: str
    dims: tuple
    fill: int = 0
    writable: bool = True
    doc: str = ""


# The state layout, defined once. The native core's State struct, its argument parser, copy_game,
# the threads' hold and the fuzz harness expand the X-macro TW16_STATE_FIELDS that
# tools/gen_constants.py generates from this table (native/include/tw16/state_fields.hpp); State and
# alloc() below are built from it too, and tools/doc_tables.py writes the docstring's table from it.
FIELDS = (
    Field(
        "wall",
        "uint8",
        ("WALL_SIZE",),
        doc="physical tile ids in draw order; id//4 = kind for ids < 136, ids 136..143 = flowers f1..f8 "
        "(kinds 34..41). Front draws take ``wall[head]``, replacements ``wall[tail]``; only the first "
        "``g[G_WALL_N]`` entries (136 with flowers off) are used.",
    ),
    Field("hands", "int8", (4, "N_KINDS"), doc="concealed counts per seat"),
    Field(
        "melds",
        "int8",
        (4, "MAX_MELDS", 3),
        doc="per seat, per meld: (type MELD_CHI..MELD_ANKONG, lowest kind, from seat); from seat = the "
        "discarder for claimed melds, the owner otherwise",
    ),
    Field(
        "river",
        "int8",
        ("MAX_RIVER", 4),
        fill=-1,
        doc="discards in order: (kind, seat, claimed_by seat or -1, bits RV_TSUMOGIRI | RV_WON_ON); a "
        "robbed kong's tile is entered as the konger's discard won on (it leaves the konger's hand)",
    ),
    # int64 scalars: the native core reads g and p as int64 rows
    Field("g", "int64", ("NG",), doc="per-game scalars, indexed by the G_* constants below"),
    Field("p", "int64", (4, "NP"), doc="per-seat scalars, indexed by the P_* constants below"),
    Field("scores", "int64", (4,), doc="cumulative chips of the episode (zero-sum)"),
    Field("rng", "uint64", (), doc="the game's own random stream (splitmix64 state)"),
    Field("rewards", "float32", (4,), doc="chip deltas of the last step, in tai units (chips / per_tai)"),
    Field("terminated", "bool", (), doc="the episode is over"),
    Field("mask", "bool", ("N_ACTIONS",), fill=1, doc="legal actions of ``current_player`` (all ones when terminated)"),
    Field("res_tai", "int32", (4,), fill=-1, doc="last finished hand: hand tai per winner (-1 for non-winners)"),
    # (int16: half the state; tai per item < 2**15)
    Field("res_items", "int16", (4, "N_ITEMS"), doc="last finished hand: tai per scoring item, per winner"),
    Field("res_delta", "int64", (4,), doc="last finished hand: chip deltas"),
    Field(
        "script",
        "uint8",
        ("K", "WALL_SIZE"),
        writable=False,
        doc="optional scripted walls for the first K hands (tests, replays)",
    ),
    Field(
        "la",
        "float64",
        (4, 4),
        doc='拉 ledger (settlement "la"): la[b, d, c] = R, the open debt of player d to player c in chips '
        "(exact: halves only), 0 when none",
    ),
    Field("la_k", "int32", (4, 4), doc="its count k (HONGKONG.md 5.2)"),
    Field(
        "rec",
        "int64",
        ("HAND_LOG", "NREC"),
        doc="the records of the last finished hands (REC_* slots): hand h of the episode in row "
        "h % HAND_LOG, written when it ends; ``Engine`` reads them after every call "
        "(``Engine.take_hands``), so a hand that ends in a step that also deals the next one (and the "
        "next) is kept",
    ),
    Field(
        "rec_items",
        "int32",
        ("HAND_LOG", "REC_MAX_ITEMS"),
        doc="their nonzero scoring items, packed (seat * N_ITEMS + item) << 16 | (tai & 0xFFFF), REC_NITEMS of them",
    ),
)
# The module of each dim named in FIELDS that this module does not define.
DIM_HOME = {"N_KINDS": _tiles, "N_ACTIONS": _actions, "N_ITEMS": _codes}

State = namedtuple("State", [f.name for f in FIELDS])
# The arrays the recorded engine digests cover (tests/data/engine_digests.json predates rec).
RECORDED_FIELDS = State._fields[:17]


def dim_value(d, n_script: int = 0) -> int:
    """A dim of FIELDS as a number (``K``: n_script)."""
    if isinstance(d, int):
        return d
    if d == "K":
        return int(n_script)
    return int(getattr(DIM_HOME.get(d), d) if d in DIM_HOME else globals()[d])


def alloc(batch_size: int, n_script: int = 0) -> State:
    """Zeroed state for ``batch_size`` games (call the engine's reset before use)."""
    B = int(batch_size)
    return State(*(np.full((B, *(dim_value(d, n_script) for d in f.dims)), f.fill, f.dtype) for f in FIELDS))


def state_bytes_per_game(s: State) -> int:
    B = s.wall.shape[0]
    return sum(a.nbytes for a in s) // max(B, 1)
