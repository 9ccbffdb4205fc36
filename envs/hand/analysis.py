"""Hand analysis: completeness, shanten, waits, decompositions, eight_pairs, 十三么, 十六不搭.

The functions are native code (native/include/tw16/hand.hpp, its tables native/src/hand_tables.cpp). Bound in
:mod:`envs._core`, what the game, the agents and the tools call: ``decompositions``,
``discard_shanten``, ``is_win``, ``win_shanten``, ``win_wait_mask``, ``special_shape`` and batch
forms over ``(B, 34)`` hands (``is_complete_batch``, ``shanten_batch``, ``win_shanten_batch``,
``discard_shanten_batch``, ``win_wait_mask_batch``). The others are bound for the tests in
``envs._core._testing``: ``is_complete``, ``shanten``, ``best_discards``, ``wait_mask``,
``wait_array``, ``is_eight_pairs``, ``eight_pairs_shanten``, ``eight_pairs_wait_mask``,
``thirteen_orphans_parts``, ``is_thirteen_orphans``, ``thirteen_orphans_shanten``,
``sixteen_unrelated_suits``, ``is_sixteen_unrelated``, ``sixteen_unrelated_shanten``,
``special_wait_mask``, ``is_win_batch``, ``wait_mask_batch``. This module holds their constants (the source of
``tw16::py::analysis`` in native/include/tw16/constants.hpp); :mod:`envs.hand.api` takes notation.

Conventions
-----------
- ``counts``: the concealed tiles as counts over the 34 playing kinds (any integer dtype, each 0..4).
- ``n_sets``: the sets the concealed tiles must supply, ``5 - number of melds`` (0..5; a kong is a
  meld). A complete concealed part has ``3*n_sets + 2`` tiles: ``n_sets`` sets (chi or pon) + 1 pair.
- ``held``: all the seat's copies of each kind, melds included (length >= 34). RULES.md 3: a kind of
  which the seat holds all four is never a wait. Without melds, pass ``counts`` itself.
- shanten = (fewest tiles to add, no kind above 4, until the tiles contain a complete form) - 1:
  -1 complete, 0 ready (聽牌), ... Shanten judges the shape only (it ignores copies held in melds).
  It is meant for hands of ``3n+1`` or ``3n+2`` tiles and well defined for any smaller hand.
- The bindings refuse counts outside 0..4 and ``n_sets`` outside 0..5 (ValueError naming the
  argument); inside the native core such counts make ``is_complete`` false and ``shanten`` return
  ``INVALID``.
- ``decompositions`` rows: ``[pair_kind, type_0, kind_0, type_1, kind_1, ...]`` (``type`` MELD_CHI or MELD_PON,
  ``kind`` the set's lowest kind; columns past ``1 + 2*n_sets`` are -1). A hand of up to 17 tiles
  has at most 6 decompositions (e.g. ``11123444555666777m``), so ``MAX_DECOMPOSITIONS`` rows suffice.
- Special shapes (EXTRAS.md 2.1; 17 tiles, no melds): ``shapes`` is a bit set of the ``SHAPE_*``
  below. 十三么: one each of 1m 9m 1p 9p 1s 9s E S W N C F P, a 14th orphan (the eye) and one set, a
  pon of an orphan (pure) or a chow or a pon of a 2-8 (mixed). 十六不搭: E S W N C F P once each,
  three tiles in each suit any two of which are at least 3 apart (2 with ``SHAPE_UNRELATED_GAP2``),
  and one more copy of one of these 16 (the eye).
"""

from __future__ import annotations

NOT_HELD = 99  # discard_shanten value for a kind that is not in the hand
INVALID = 99  # shanten of a count vector with a count outside 0..4
MAX_SETS = 5
DEC_WIDTH = 1 + 2 * MAX_SETS  # columns of a decompositions() row
MAX_DECOMPOSITIONS = 16  # rows enough for decompositions(): a 17-tile hand has at most 6
SHAPE_EIGHT_PAIRS = 1  # bit of `shapes`: 嚦咕嚦咕 (strict16, extras)
SHAPE_THIRTEEN_PURE = 2  # 清十三么: 13 orphans + an orphan eye + a pon of an orphan (extras)
SHAPE_THIRTEEN_MIXED = 4  # 混十三么: 13 orphans + an orphan eye + a chow or a pon of a 2-8 (extras)
SHAPE_THIRTEEN = SHAPE_THIRTEEN_PURE | SHAPE_THIRTEEN_MIXED
SHAPE_SIXTEEN_UNRELATED = 8  # 十六不搭 (extras)
SHAPE_UNRELATED_GAP2 = 16  # modifier of SHAPE_SIXTEEN_UNRELATED: suit tiles 2 apart suffice (unrelated_gap 2)
# number masks (bit i = number i+1) of a 十六不搭 suit as sixteen_unrelated_suits gives it: 147, 258, 369
M147, M258, M369 = 0b001001001, 0b010010010, 0b100100100
