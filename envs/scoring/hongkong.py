"""hongkong scoring (HONGKONG.md sections 2, 3 and 5.1): the additive items, families, 計法 and legs.

Native code (the files below, declared in native/include/tw16/hongkong.hpp and its hk_*.hpp), bound
in ``envs._core`` as ``hk_score``; ``hk_legs`` and ``hk_settle`` are thin bindings of the one
settlement of every profile (native/include/tw16/settle.hpp, ``envs.scoring.core.settle``), which
applies the hongkong legs when the rules ``opts`` are a hongkong rule set (``opts[OPT_HK]``).
``score_hand`` hands a profile with ``p_opts[PO_HONGKONG]`` to ``hk_score``, with its own arguments, so
the engine and ``tw16 score`` call one function for every profile.

Interface (``envs.scoring.codes`` for the constants, ``envs.scoring.hk_items`` for the item indices):

    flags  the int64 flag word of score_hand: F_* bits (F_DECLARED_READY, F_IPPATSU, F_ROB_KONG_CHAIN,
           F_ROBBED_ANKONG, F_HEAVENLY, F_LAST_TILE, F_KONG_REPLACEMENT, F_FLOWER_REPLACEMENT), the
           replacement chain at CHAIN_SHIFT, and (codes.hk_context_flags) the discards made in the hand
           (DISCARDS_SHIFT), the tiles in the pools (FLOOR_SHIFT), both stored + 1 with 0 = not known,
           and the number of seats winning on the same tile (CO_WIN_SHIFT).
    hk_score(...)  = score_hand(...) for a hongkong profile: hand tai (items into out_items) or -1.
    hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_leg_tai, out_leg_payer)
           the legs of one win (5.1), per seat p: out_leg_tai[p] the tai of p's leg (hand tai + the
           dealer tai on it) and out_leg_payer[p] the seat paying it (p, or ``liable`` under 全包); -1 in
           both for the winner and for a seat without a leg. Returns the number of legs.
    hk_settle(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_deltas)
           adds the legs paid in full to out_deltas (chips: base + per_tai x leg tai each).

``payer`` is the discarder, the konger robbed or the seat holding the eighth flower (七搶一), -1 when
all three pay (self-draw, eight_flowers); ``liable`` is -1 or the seat paying all three legs (全包).

Native files (native/src): hongkong.cpp (the entry point, readings), settle.cpp (the legs),
hk_items.cpp (the items that do not depend on the reading, chicken hands), hk_reading.cpp (the items of
one reading) and hk_families.cpp (the choice of family occurrences); ``envs.scoring.hk_cases`` validates a case's
hongkong fields.

Scoring: every decomposition and winning-tile placement is a reading, scored and the best kept (tie
rule of RULES.md 3); the special shapes are one more reading each; chicken hands (3.9) are judged on
the best reading. Inside a family (codes.HK_FAMILIES) the occurrences are chosen by ``_choose``:
計法1, set-disjoint and items not marked "each" once; 計法2, occurrences of one item may share sets,
and an occurrence lying on the sets of an occurrence of a larger member does not count.
"""
