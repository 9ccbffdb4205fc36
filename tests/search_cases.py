"""Late-game states built by hand for the search tests: every opponent has five pons and one
concealed tile, E (seat 0, no meld) is to discard, the live wall holds a few tiles and the hidden
flower f8, and every other tile lies in the river, so a determinization can only move the
opponents' single tiles and the live wall's."""

from __future__ import annotations

import numpy as np

from envs import _core
from envs._core import _testing
from envs.engine import state as st
from envs.engine.api import Engine
from envs.rules import Rules
from envs.tiles import MELD_PON

FLOWER_F8 = 143  # the tile id of the flower f8, the live wall's last tile


def pon_endgame(opp_held, own: list[int], live: list[int], head: int = 60) -> Engine:
    """One game: opponent o (1..3) holds pons of kinds 5(o-1)..5(o-1)+4 and ``opp_held[o-1]``; E
    holds the kinds ``own`` (17 tiles); the live wall is the tile ids ``live`` (then f8) from
    ``head``; the rest of the tiles are in the river."""
    eng = Engine(Rules.make("standard", dead_wall=0), 1)
    eng.reset(5)
    s = eng.s
    s.hands[0], s.melds[0], s.river[0] = 0, 0, -1
    left = np.full(34, 4)
    for o, held in zip((1, 2, 3), opp_held):
        for i in range(5):
            kind = 5 * (o - 1) + i
            s.melds[0, o, i] = (MELD_PON, kind, (o + 1) % 4)
            left[kind] -= 3
        s.p[0, o, st.P_NMELDS] = 5
        s.hands[0, o, held] = 1
        left[held] -= 1
    hand = np.bincount(own, minlength=34)
    s.hands[0, 0] = hand
    left -= hand
    for tile in live:
        left[tile // 4] -= 1
    kinds = np.repeat(np.arange(34), left)
    s.river[0, : len(kinds)] = np.stack([kinds, np.arange(len(kinds)) % 4, -np.ones_like(kinds), 0 * kinds], axis=1)
    wall_live = [*live, FLOWER_F8]
    s.wall[0] = np.insert(np.setdiff1d(np.arange(144), wall_live), head, wall_live)
    s.p[0, :, st.P_FLOWERS] = [0b11, 0b1100, 0b110000, 0b1000000]
    s.p[0, :, st.P_CLAIM], s.p[0, :, st.P_ANSWER] = 0, -1
    g = s.g[0]
    g[[st.G_PHASE, st.G_CUR, st.G_TURN, st.G_HEAD, st.G_TAIL, st.G_NRIVER]] = [
        st.PH_TURN,
        0,
        0,
        head,
        head + len(live),
        len(kinds),
    ]
    g[[st.G_NKONG, st.G_TILE, st.G_LAST_DRAWN, st.G_AFTER_CLAIM, st.G_DRAWSRC]] = [0, -1, 20, 0, st.SRC_FRONT]
    _core.mask_rows(s.mask, s.g, s.p, s.hands, s.melds, s.terminated, eng.native)
    assert _testing.check_game(s, 0, eng.native) == 0
    return eng
