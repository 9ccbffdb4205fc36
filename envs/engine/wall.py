"""Walls, dealing, draws and flower replacement (RULES 2.1-2.4, 2.8, 2.9).

The functions run in the native core (native/src/wall.cpp), on the state ``S`` and game ``b``; the step
calls them, and they are bound for the tests in ``envs._core._testing`` (``rules``: the rules compiled
once, ``envs.engine.mask.native_rules``):

    fill_wall(S, b, rules)       this hand's wall: the next scripted one if any is left, else a fresh
                                 shuffle (Fisher-Yates on the game's own stream)
    draw_tile(S, b, seat, from_tail, src, rules)   draw one playing tile into seat's hand,
                                 exposing flowers and replacing them from the tail (repeat); True
                                 when the hand ended (no drawable tile: 流局, or a flower win)
    deal(S, b, rules)            wall, deal (16 each from the front, dealer first, then the dealer's
                                 17th), initial flowers; True if the hand already ended
"""

from __future__ import annotations
