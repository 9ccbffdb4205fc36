"""Per-suit lookup tables for hand analysis: made by the native core's generator, checked when loaded.

The generator is ``gen_group`` of native/src/hand_tables.cpp (also bound, for the tests, as ``envs._core._testing.gen_group``).
When :mod:`envs._core` is imported it builds the four tables below (about a second) and checks the
SHA-256 of ``MAGIC`` + the four arrays, in the order and layout given here, against
``FILE_SHA256``; a mismatch raises ``envs._core.TableError`` (a RuntimeError) and the import fails.
Nothing is cached on disk. This module holds the layout's constants (the source of ``tw16::py::tables`` in
native/include/tw16/constants.hpp) and exposes the built tables as read-only arrays.

Layout
------
A suit's nine counts ``c0..c8`` (each 0..4, ``c0`` = the 1 tile) are one base-5 *code*
``sum(c_i * 5**i)``, 0 .. 5**9-1; the seven honour counts (E S W N C F P) likewise, 0 .. 5**7-1.
Adding one tile of rank ``i`` adds ``5**i`` to the code.

``SUIT_DIST``   uint8[5**9, 12]  ``SUIT_DIST[code, 2*m + p]`` = the fewest tiles of that suit to add
                                  (no kind above 4) so that the suit's tiles contain ``m`` sets (chi or
                                  pon) and ``p`` pairs (``m`` in 0..5, ``p`` in 0..1) as a sub-multiset.
``SUIT_FLAGS``  uint8[5**9]      bit 0 (``EXACT``): the suit's tiles are exactly ``size // 3`` sets,
                                  plus one pair when ``size % 3 == 2`` (never when ``size % 3 == 1``).
                                  Defined for suit sizes up to 17 (larger ones: 0).
``HONOUR_DIST`` uint8[5**7, 12]  as ``SUIT_DIST`` for the honours (pons and pairs only, no chi).
``HONOUR_FLAGS`` uint8[5**7]     as ``SUIT_FLAGS``.

The generator: for each code in increasing order, the bit mask of the (sets, pairs) it contains is
built from smaller codes (a pon, a pair or a chi removed); then, from the largest code down,
``dist[code, j]`` is 0 where the mask has bit ``j``, else 1 + the least ``dist`` of the codes with one
more tile.
"""

from __future__ import annotations

import numpy as np

from envs._core import hand_tables
from envs.hand.analysis import MAX_SETS

FORMAT_VERSION = 1
MAGIC = b"TW16HANDTABLES01"  # 16 bytes, then the four arrays in the order below
SUIT_KINDS = 9
HONOUR_KINDS = 7
N_SUIT_CODES = 5**SUIT_KINDS  # 1_953_125
N_HONOUR_CODES = 5**HONOUR_KINDS  # 78_125
N_COLS = 2 * (MAX_SETS + 1)  # column 2*m + p
EXACT = 1  # flag bit
DIST_IMPOSSIBLE = 255  # never reached for m <= 5, kept as the sentinel
POW5 = np.array([5**i for i in range(SUIT_KINDS)], dtype=np.int64)

FILE_SIZE = len(MAGIC) + (N_SUIT_CODES + N_HONOUR_CODES) * (N_COLS + 1)  # 26_406_266 bytes hashed
FILE_SHA256 = "9c237bf5cdfb98d20f10a10435b3fa9c68506b07a324aaacf68cf3766b416375"  # of MAGIC + the four arrays

# The tables as built and checked by envs._core (read-only views, valid for the life of the process).
SUIT_DIST, SUIT_FLAGS, HONOUR_DIST, HONOUR_FLAGS = hand_tables()
