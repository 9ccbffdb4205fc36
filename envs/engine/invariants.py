"""Invariants of one game, checked after every step of random play (in the native core, so it can
run inside the random-play loop: native/src/invariants.cpp). ``envs._core._testing.check_game(S, b,
rules)`` (rules: ``Engine.native``) returns 0 or the first failing ``E_*`` code; this module holds the codes and their names."""

from __future__ import annotations

E_OK = 0
E_TILES = 1  # some kind is not exactly 4 (flowers: exactly 1) over wall + hands + melds + river
E_HAND_SIZE = 2  # a concealed hand has the wrong size for the phase (after a discard or robbed-kong win: the payer's)
E_NO_ACTION = 3  # the seat to decide has no legal action
E_DONE_MASK = 4  # a finished game's mask is not all ones
E_ZERO_SUM = 5  # rewards or scores do not sum to zero
E_SCORER = 6  # the engine offered a win the scorer refused
E_WALL = 7  # negative drawable count or a bad wall pointer
E_SEAT = 8  # current player out of range / not the turn seat
E_COUNTS = 9  # a negative or >4 count
ERROR_NAMES = ("ok", "tiles", "hand_size", "no_action", "done_mask", "zero_sum", "scorer", "wall", "seat", "counts")
