"""The scoring core: which items a winning hand holds, the profile applied, settlement (RULES.md 3-4).

The functions are native code (native/src/score.cpp, tally.cpp, extras.cpp; hongkong.cpp for the
hongkong profile; settle.cpp, the settlement of every profile), bound in ``envs._core``:
``score_hand``, ``settle``, ``dealer_tai``, ``winning_shape``, the batch forms ``score_batch`` /
``settle_batch`` and the bench loop ``score_all``. ``tw16 score`` calls them through
``envs.scoring.api`` and the engine at the end of every hand. This module keeps the item indices of
the standard items as constants. Inputs are plain arrays:

    concealed   int8[34]   the winner's concealed tiles INCLUDING the winning tile
    meld_type   int8[>=5]  MELD_CHI/MELD_PON/MELD_KONG/MELD_ADDKONG/MELD_ANKONG (envs.tiles), first n_melds used
    meld_kind   int8[>=5]  lowest kind of each meld
    flowers     int        bit i set = flower f(i+1) held
    win_tile    int        kind, or -1 (heavenly hand, flower win): then no wait is judged
    win_by      int        WIN_* (envs.scoring.codes)
    seat_wind, round_wind  0..3 = E S W N (seat wind = (seat - dealer) % 4)
    flags       int        F_* bits (envs.scoring.codes)
    p_tai, p_repl, p_opts  Profile.compiled()
    out_items   int32[N_ITEMS]  the items held (cleared first)

``score_hand`` returns the hand tai, or -1 if the tiles are not a winning hand. A flower win (八仙過海 /
七搶一) with 16 - 3 x melds concealed tiles scores its flower items only; with a complete hand it adds
the hand's items, read as self-drawn with no wait (kong_replacement / flower_replacement flags too,
CASES.md). A heavenly hand (F_HEAVENLY) has no winning tile for 九蓮寶燈 (EXTRAS.md 2.1). A hongkong
profile (p_opts[PO_HONGKONG]) is scored by ``hk_score`` (envs.scoring.hongkong), with the same
arguments.

A profile naming extras items or MCR detectors (p_opts[PO_EXTRAS]) also gets the predicates of the
extras pack (envs.scoring.extras); without them the extra work is one test per reading. Special
shapes (嚦咕嚦咕, 十三么, 十六不搭; p_opts[PO_SHAPES]) are scored as one more reading each: their one
pon (the eight_pairs triplet, the 十三么's pon) carries the wind and dragon items; 十六不搭 has no set.

The highest-scoring reading counts: every decomposition of the hand, and for a win on a discard every
group the winning tile can be read into (identical tiles are interchangeable), is scored and the best
total kept; equal totals go to the item list that comes first in table order (RULES.md 3).

Items of note: 花槓 (flower_set) replaces only the seat flower of its own set (PROFILES.md); 半求 /
全求 (half_beggar / full_beggar) need all five sets claimed from others, and an ankong among them is
not melded (PROFILES.md); all_chows (平胡) needs a two-sided wait on a discard, no flower and no honour.

``settle(hand_tai, win_by, winner, payer, dealer, streak, opts, out_deltas, liable=-1,
out_dealer_tai=None)`` adds one win's legs, paid in full, to ``out_deltas`` (int64[4]) and returns the
number of legs; ``out_dealer_tai`` (int64[4]), when given, gets the dealer tai on each seat's paid leg.
It is the engine's own settlement (native/include/tw16/settle.hpp): the hand end of every game and
``tw16 score`` run the same code. ``payer`` = the discarder, the konger robbed, the single-flower seat
of 七搶一, or -1 when all three pay (self-draw, 八仙過海). Each paying leg pays base + per_tai x (hand tai
+ dealer tai on that leg); ``dealer_tai(streak, opts)`` = 莊家 1 + 連莊拉莊 2N, N the streak capped by
``streak_cap`` (a negative cap: no cap). The rules ``opts`` decide which legs carry it: the standard
profiles put it on every leg the dealer pays or wins (RULES.md 4); a hongkong rule set
(``opts[OPT_HK]``) follows HONGKONG.md 1 and 5.1 (not on the dealer's leg of a non-dealer self-draw
unless ``dealer_pays_on_self_draw``; ``liable``, 全包, pays all three legs). Under win/lose settlement
(``opts[OPT_SETTLE_WIN_LOSE]``, the olympiad profile) each leg pays per_tai chips, one point, whatever
the tai, and no leg carries dealer tai.
"""

from __future__ import annotations

from envs.scoring import codes as C

N_ITEMS = C.N_ITEMS

# Item indices of the standard items.
I = {k: i for i, k in enumerate(C.ITEM_KEYS)}
SELF_DRAW, CONCEALED, CONCEALED_SELF_DRAW, SINGLE_WAIT = (
    I["self_draw"],
    I["concealed"],
    I["concealed_self_draw"],
    I["single_wait"],
)
SEAT_WIND, ROUND_WIND, DRAGON, SEAT_FLOWER, FLOWER_SET = (
    I["seat_wind"],
    I["round_wind"],
    I["dragon"],
    I["seat_flower"],
    I["flower_set"],
)
EIGHT_FLOWERS, SEVEN_ROB_ONE, KONG_REPL_WIN = I["eight_flowers"], I["seven_rob_one"], I["kong_replacement_win"]
LAST_DRAW, LAST_DISCARD, ROBBING_KONG = I["last_tile_draw"], I["last_tile_discard"], I["robbing_kong"]
HALF_BEGGAR, FULL_BEGGAR, ALL_CHOWS, ALL_PUNGS = I["half_beggar"], I["full_beggar"], I["all_chows"], I["all_pungs"]
THREE_CONC, FOUR_CONC, FIVE_CONC = I["three_concealed"], I["four_concealed"], I["five_concealed"]
HALF_FLUSH, FULL_FLUSH, ALL_HONOURS = I["half_flush"], I["full_flush"], I["all_honours"]
SMALL_DRAGONS, BIG_DRAGONS, SMALL_WINDS, BIG_WINDS = (
    I["small_dragons"],
    I["big_dragons"],
    I["small_winds"],
    I["big_winds"],
)
HEAVENLY, EARTHLY, HUMAN = I["heavenly_win"], I["earthly_win"], I["human_win"]
NO_HELP, HEAVENLY_READY, EARTHLY_READY = I["no_help"], I["heavenly_ready"], I["earthly_ready"]
EIGHT_PAIRS, DECLARED_READY, SHOWN_READY = I["eight_pairs"], I["declared_ready"], I["shown_ready"]
del I
