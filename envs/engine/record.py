"""Finished-hand records: what a hand ended with, kept until read (``Engine.take_hands``).

The native core writes one row of ``state.rec`` / ``state.rec_items`` when a hand ends (REC_* slots,
native/src/handend.cpp); ``Engine`` turns every new row into a frozen ``HandRecord`` after each call,
before the rows can be overwritten, so a hand that ends in a step that also deals the next hand (an
episode "game"), or that ends inside that deal, is not lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.engine import state as st
from envs.scoring.codes import ITEM_KEYS, N_ITEMS, WIN_BY_NAMES
from envs.tiles import WIND_NAMES, kind_name

# Where the winning tile came from: the front of the wall (wall head), a replacement from the tail
# after a flower or a kong, the discard claimed, the added kong robbed.
LAST_TILE_FROM = ("wall_head", "flower_replacement", "kong_replacement", "discard", "robbed_kong")
_FROM_SRC = {st.SRC_FRONT: 0, st.SRC_FLOWER: 1, st.SRC_KONG: 2, st.SRC_EXPOSED_KONG: 2}
_FROM_WIN_BY = {"discard": 3, "rob_kong": 4}


@dataclass(frozen=True)
class HandRecord:
    """One finished hand of game ``game``: who won and how, what each seat scored and paid.

    ``winners`` (seats, empty for a drawn hand), ``payer`` (the seat that paid alone: discarder,
    robbed konger, 全包 or 七搶一 seat; None when all three paid or nobody did), ``win_by`` (one of
    ``WIN_BY_NAMES`` or None), ``win_tile`` (kind, None when the hand was won without one: flowers,
    天胡), ``last_tile_from`` (``LAST_TILE_FROM``, None without a winning tile), ``tai`` and
    ``items`` per seat (-1 and () for non-winners; items as (key, tai) in item order), ``deltas``
    (chips per seat: the hand's settlement with the side payments made during it; 拉 payments made
    between hands, a cut or the debts closed at the game's end, are in ``Engine.scores`` and the
    rewards of their step, not here), the ``dealer``,
    his ``streak`` and the ``round_wind`` of the hand, ``wall_head`` / ``wall_tail`` (the wall
    positions when it ended), ``at_deal`` (it ended in its own deal, before any decision; the engine
    dealt again in the same call), ``flowers`` (each seat's exposed flower bits f1..f8 at the end)."""

    game: int
    hand: int
    winners: tuple[int, ...]
    payer: int | None
    win_by: str | None
    win_tile: int | None
    last_tile_from: str | None
    tai: tuple[int, int, int, int]
    items: tuple[tuple[tuple[str, int], ...], ...]
    deltas: tuple[int, int, int, int]
    dealer: int
    streak: int
    round_wind: int
    wall_head: int
    wall_tail: int
    at_deal: bool
    flowers: tuple[int, int, int, int]

    @property
    def drawn(self) -> bool:
        """流局: no winner."""
        return not self.winners

    def __repr__(self) -> str:
        if self.drawn:
            what = "drawn hand"
        else:
            how = self.win_by + (f" {kind_name(self.win_tile)}" if self.win_tile is not None else "")
            if self.last_tile_from not in (None, "discard", "robbed_kong"):
                how += f" from {self.last_tile_from}"
            if self.payer is not None:
                how += f", p{self.payer} pays"
            wins = "; ".join(
                f"p{w} {self.tai[w]} tai" + "".join(f", {k} {v}" for k, v in self.items[w]) for w in self.winners
            )
            what = f"{how}: {wins}"
        deltas = " ".join(f"{d:+d}" for d in self.deltas)
        deal = ", at the deal" if self.at_deal else ""
        return (
            f"<HandRecord game {self.game} hand {self.hand}: {what}; chips {deltas}; dealer p{self.dealer} "
            f"streak {self.streak} round {WIND_NAMES[self.round_wind]}; wall head {self.wall_head} tail {self.wall_tail}{deal}>"
        )


def _opt(v: int) -> int | None:
    return None if v < 0 else v


def read_record(s: st.State, b: int, hand: int) -> HandRecord:
    """The record of hand ``hand`` (its index in the episode) of game ``b``, from ``s.rec``. Raises
    RuntimeError when its row was overwritten or could not hold every item (more hands ended in one
    call than ``HAND_LOG`` rows, or more items than ``REC_MAX_ITEMS``)."""
    slot = hand % st.HAND_LOG
    r = [int(x) for x in s.rec[b, slot]]
    if r[st.REC_HAND] != hand:
        raise RuntimeError(
            f"game {b}: the record of hand {hand} was overwritten (more than {st.HAND_LOG} hands "
            "ended in one call); Engine reads records after every call"
        )
    n = r[st.REC_NITEMS]
    if n > st.REC_MAX_ITEMS:
        raise RuntimeError(
            f"game {b} hand {hand}: {n} scoring items, a record holds {st.REC_MAX_ITEMS} (REC_MAX_ITEMS)"
        )
    items: list[list[tuple[str, int]]] = [[], [], [], []]
    for v in s.rec_items[b, slot, :n]:
        key, tai = int(v) >> 16, int(np.int16(int(v) & 0xFFFF))
        items[key // N_ITEMS].append((ITEM_KEYS[key % N_ITEMS], tai))
    winners = tuple(w for w in range(4) if r[st.REC_WINNERS] >> w & 1) if r[st.REC_RESULT] == st.RES_WIN else ()
    win_by = WIN_BY_NAMES[r[st.REC_WIN_BY]] if winners else None
    tile = _opt(r[st.REC_TILE])
    frm = None
    if tile is not None:
        frm = LAST_TILE_FROM[_FROM_WIN_BY[win_by] if win_by in _FROM_WIN_BY else _FROM_SRC[r[st.REC_SRC]]]
    return HandRecord(
        game=b,
        hand=hand,
        winners=winners,
        payer=_opt(r[st.REC_PAYER]) if winners else None,
        win_by=win_by,
        win_tile=tile,
        last_tile_from=frm,
        tai=tuple(r[st.REC_TAI : st.REC_TAI + 4]),
        items=tuple(tuple(x) for x in items),
        deltas=tuple(r[st.REC_DELTA : st.REC_DELTA + 4]),
        dealer=r[st.REC_DEALER],
        streak=r[st.REC_STREAK],
        round_wind=r[st.REC_ROT] // 4 % 4,
        wall_head=r[st.REC_HEAD],
        wall_tail=r[st.REC_TAIL],
        at_deal=bool(r[st.REC_AT_DEAL]),
        flowers=tuple(r[st.REC_FLOWERS] >> (8 * s) & 0xFF for s in range(4)),
    )


class HandLog:
    """Per game, the records not yet taken; ``collect`` after every engine call reads the new rows."""

    def __init__(self, batch_size: int):
        self.taken = np.zeros(batch_size, np.int64)  # hands of the current episode already read
        self.hands: list[list[HandRecord]] = [[] for _ in range(batch_size)]

    def collect(self, s: st.State) -> None:
        n = s.g[:, st.G_HANDS]
        for b in np.flatnonzero(n > self.taken):
            for h in range(int(self.taken[b]), int(n[b])):
                self.hands[b].append(read_record(s, int(b), h))
            self.taken[b] = n[b]

    def restart(self, which=None) -> None:
        """Games dealt again (``which``: bool (B,), None for all): their episode starts at hand 0."""
        if which is None:
            self.taken[:] = 0
        else:
            self.taken[which] = 0

    def take(self, game: int | None = None) -> list[HandRecord]:
        if game is None:
            out = [r for rows in self.hands for r in rows]
            for rows in self.hands:
                rows.clear()
            return out
        out, self.hands[game] = self.hands[game], []
        return out
