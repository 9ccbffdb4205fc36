"""hongkong side payments (HONGKONG.md 4): paid at once in 底 (the base stake), never part of 拉.

They accumulate per seat in ``p[:, P_SIDE]`` (chips, each payment rounded to a whole chip, halves
up) and are paid with the hand's other chips when it ends (drawn hands included).

The functions run in the native core (native/src/side.cpp):

    base_chips(opts, halves)     ``halves`` half-底 in chips, rounded half up
    all_pay(p, seat, chips)      each other seat pays ``seat`` (one game's p rows)
    flower_side(p, seat, opts)   一臺花 (1 底 each, per set, when it completes) and 一臺草 (½ 底 each,
                                 once, never after 一臺花), after ``seat``'s flowers changed
    roll_dice(S, b, opts)        the dealer's three dice, from the game's own stream: 圍骰 (a triple),
                                 each other seat pays the dealer 1 底; 一二三, the dealer pays each 1 底
    chase_side(S, b, opts)       追: the last four discards one kind, one by each seat in turn order,
                                 none claimed: the first of the four pays each other seat 1 底
                                 (honour) or 2 底 (suited)
"""

from __future__ import annotations

from envs._core import all_pay, base_chips, chase_side, flower_side, roll_dice

__all__ = ["all_pay", "base_chips", "chase_side", "flower_side", "roll_dice"]
