"""The end of a hand: wall accounting, flower wins, wins and drawn hands, scoring and settlement.

``finish_*`` record the result, settle chips through the scoring core and leave the game in
``PH_HAND_OVER``; the step driver then deals the next hand or ends the episode. They run in the
native core (native/src/handend.cpp); ``hk_flags(S, b, w, win_by)`` is bound for the tests (in
``envs._core._testing``): the hongkong context flags of seat ``w`` winning game ``b`` by ``win_by``
(HONGKONG.md 6: 一發, robbed-kong kinds, co-winners, discards, floor).
"""

from __future__ import annotations
