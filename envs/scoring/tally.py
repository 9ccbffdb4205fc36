"""Shared by the scoring core and the hongkong scorer: the readings of a hand (its melds and every
decomposition of its concealed tiles), the profile applied to item multiplicities (replacements,
reductions, the tie rule of RULES.md 3). (The dealer tai of a payment leg is settlement:
native/include/tw16/settle.hpp, ``envs._core.dealer_tai``.)

Native code: native/include/tw16/tally.hpp, native/src/tally.cpp. This module keeps the item indices it
names.
"""

from __future__ import annotations

from envs.scoring import codes as C

N_ITEMS = C.N_ITEMS
FLOWER_SET, SEAT_FLOWER = C.ITEM_INDEX["flower_set"], C.ITEM_INDEX["seat_flower"]
