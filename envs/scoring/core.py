"""The scoring core: which items a winning hand holds, the profile applied, settlement (RULES.md 3-4).

Everything here is Numba-compiled and shared: ``tw16 score`` calls it through ``envs.scoring.api``
and the engine calls it inside its compiled loop at the end of every hand. Inputs are plain arrays:

    concealed   int8[34]   the winner's concealed tiles INCLUDING the winning tile
    meld_type   int8[>=5]  CHI/PON/KONG/ADDKONG/ANKONG (envs.tiles), first n_melds used
    meld_kind   int8[>=5]  lowest kind of each meld
    flowers     int        bit i set = flower f(i+1) held
    win_tile    int        kind, or -1 (heavenly hand, flower win): then no wait is judged
    win_by      int        WIN_* (envs.scoring.codes)
    seat_wind, round_wind  0..3 = E S W N (seat wind = (seat - dealer) % 4)
    flags       int        F_* bits (envs.scoring.codes)
    p_tai, p_repl, p_opts  Profile.compiled()

A profile naming extras items or MCR detectors (p_opts[PO_EXTRAS]) also gets the predicates of
``envs.scoring.extras``; without them the extra work is one test per reading. Special shapes (嚦咕嚦咕,
十三么, 十六不搭; p_opts[PO_SHAPES]) are scored as one more reading each.

The highest-scoring reading counts: every decomposition of the hand, and for a win on a discard every
group the winning tile can be read into (identical tiles are interchangeable), is scored and the best
total kept; equal totals go to the item list that comes first in table order (RULES.md 3).
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.analysis import (
    SHAPE_EIGHT_PAIRS,
    SHAPE_THIRTEEN,
    is_win,
    sixteen_unrelated_suits,
    special_shape,
    thirteen_orphans_parts,
)
from envs.rules import OPT_BASE, OPT_PER_TAI
from envs.scoring import codes as C
from envs.scoring.extras import hand_extras, reading_extras, special_extras
from envs.scoring.hongkong import hk_score
from envs.scoring.tally import (  # noqa: F401 (_consider, apply_profile, dealer_tai re-exported)
    _consider,
    all_tiles,
    apply_profile,
    dealer_tai,
    hand_kind,
    popcount,
    readings,
    use_decomposition,
    waits_before_win,
)
from envs.scoring.profile import PO_CONCEALED_ANY_WIN, PO_EXTRAS, PO_HONGKONG, PO_SHAPES
from envs.tiles import ANKONG, CHI, DRAGON0, N_KINDS, WIND0

N_ITEMS = C.N_ITEMS

# Item indices as plain ints for compiled code.
I = {k: i for i, k in enumerate(C.ITEM_KEYS)}
SELF_DRAW, CONCEALED, CONCEALED_SELF_DRAW, SINGLE_WAIT = I["self_draw"], I["concealed"], I["concealed_self_draw"], I["single_wait"]
SEAT_WIND, ROUND_WIND, DRAGON, SEAT_FLOWER, FLOWER_SET = I["seat_wind"], I["round_wind"], I["dragon"], I["seat_flower"], I["flower_set"]
EIGHT_FLOWERS, SEVEN_ROB_ONE, KONG_REPL_WIN = I["eight_flowers"], I["seven_rob_one"], I["kong_replacement_win"]
LAST_DRAW, LAST_DISCARD, ROBBING_KONG = I["last_tile_draw"], I["last_tile_discard"], I["robbing_kong"]
HALF_BEGGAR, FULL_BEGGAR, ALL_CHOWS, ALL_PUNGS = I["half_beggar"], I["full_beggar"], I["all_chows"], I["all_pungs"]
THREE_CONC, FOUR_CONC, FIVE_CONC = I["three_concealed"], I["four_concealed"], I["five_concealed"]
HALF_FLUSH, FULL_FLUSH, ALL_HONOURS = I["half_flush"], I["full_flush"], I["all_honours"]
SMALL_DRAGONS, BIG_DRAGONS, SMALL_WINDS, BIG_WINDS = I["small_dragons"], I["big_dragons"], I["small_winds"], I["big_winds"]
HEAVENLY, EARTHLY, HUMAN = I["heavenly_win"], I["earthly_win"], I["human_win"]
NO_HELP, HEAVENLY_READY, EARTHLY_READY = I["no_help"], I["heavenly_ready"], I["earthly_ready"]
EIGHT_PAIRS, DECLARED_READY, SHOWN_READY = I["eight_pairs"], I["declared_ready"], I["shown_ready"]
del I


# ---------------------------------------------------------------------------------------------
# Shapes
@njit(cache=True)
def winning_shape(counts, n_sets, p_opts):
    """Is ``counts`` (concealed, with the candidate tile) a winning hand under the profile's shapes?"""
    return is_win(counts, n_sets, p_opts[PO_SHAPES])


# ---------------------------------------------------------------------------------------------
# Items that do not depend on how the hand is read
@njit(cache=True)
def _flower_items(v, flowers, seat_wind, win_by, p_repl):
    own = (1 << seat_wind) | (1 << (seat_wind + 4))
    n_sets = 0
    own_in_sets = 0
    for s in range(2):
        block = 0xF << (4 * s)
        if flowers & block == block:
            n_sets += 1
            own_in_sets |= own & block
    v[FLOWER_SET] = n_sets
    # 花槓 replaces only the seat flower of its own set (PROFILES.md), so that is done here, not by
    # the whole-item replacement of the profile matrix.
    counted = own
    if p_repl[FLOWER_SET, SEAT_FLOWER] == 1:
        counted = own & ~own_in_sets
    v[SEAT_FLOWER] = popcount(flowers & counted)
    if win_by == C.WIN_FLOWERS:
        nf = popcount(flowers)
        v[EIGHT_FLOWERS] = nf == 8
        v[SEVEN_ROB_ONE] = nf == 7


@njit(cache=True)
def _suit_items(v, all_counts):
    suits = 0
    honours = 0
    for s in range(3):
        for k in range(9 * s, 9 * s + 9):
            if all_counts[k] > 0:
                suits += 1
                break
    for k in range(WIND0, N_KINDS):
        honours += all_counts[k]
    v[HALF_FLUSH] = suits == 1 and honours > 0
    v[FULL_FLUSH] = suits == 1 and honours == 0
    v[ALL_HONOURS] = suits == 0


@njit(cache=True)
def _base_items(v, all_counts, n_open, any_open, flowers, win_by, seat_wind, flags, single, p_opts, p_repl):
    is_self = win_by == C.WIN_SELF_DRAW or win_by == C.WIN_FLOWERS
    is_discard = win_by == C.WIN_DISCARD or win_by == C.WIN_ROB_KONG
    closed = not any_open
    v[SELF_DRAW] = is_self
    v[CONCEALED] = closed and (is_discard or p_opts[PO_CONCEALED_ANY_WIN] != 0)
    v[CONCEALED_SELF_DRAW] = closed and is_self
    v[NO_HELP] = closed and is_self
    v[SINGLE_WAIT] = single
    _flower_items(v, flowers, seat_wind, win_by, p_repl)
    v[KONG_REPL_WIN] = is_self and (flags & (C.F_KONG_REPLACEMENT | C.F_FLOWER_REPLACEMENT)) != 0
    v[LAST_DRAW] = is_self and (flags & C.F_LAST_TILE) != 0
    v[LAST_DISCARD] = win_by == C.WIN_DISCARD and (flags & C.F_LAST_TILE) != 0
    v[ROBBING_KONG] = win_by == C.WIN_ROB_KONG
    # 半求 / 全求: all five sets claimed from others; an ankong among them is not melded (PROFILES.md)
    beggar = n_open == 5 and single
    v[HALF_BEGGAR] = beggar and is_self
    v[FULL_BEGGAR] = beggar and is_discard
    _suit_items(v, all_counts)
    v[HEAVENLY] = (flags & C.F_HEAVENLY) != 0
    v[EARTHLY] = (flags & C.F_EARTHLY) != 0
    v[HUMAN] = (flags & C.F_HUMAN) != 0
    v[HEAVENLY_READY] = (flags & C.F_HEAVENLY_READY) != 0
    v[EARTHLY_READY] = (flags & C.F_EARTHLY_READY) != 0
    v[DECLARED_READY] = (flags & C.F_DECLARED_READY) != 0
    v[SHOWN_READY] = (flags & C.F_SHOWN_READY) != 0


# ---------------------------------------------------------------------------------------------
# Items of one reading: sets (melds + concealed sets), the pair, where the winning tile sits
@njit(cache=True)
def _set_items(v, set_type, set_kind, set_conc, n, pair, win_pos, win_tile, seat_wind, round_wind, two_sided_ok):
    """Fill the items that depend on the reading. ``win_pos`` = index of the concealed set holding a
    winning discard (-1: the pair, or not a discard win)."""
    winds = 0
    dragons = 0
    pons = 0
    chis = 0
    conc_pons = 0
    v[SEAT_WIND] = 0
    v[ROUND_WIND] = 0
    for i in range(n):
        k = set_kind[i]
        if set_type[i] == CHI:
            chis += 1
            continue
        pons += 1
        if set_conc[i] and i != win_pos:
            conc_pons += 1
        if k >= DRAGON0:
            dragons += 1
        elif k >= WIND0:
            winds += 1
            if k == WIND0 + seat_wind:
                v[SEAT_WIND] = 1
            if k == WIND0 + round_wind:
                v[ROUND_WIND] = 1
    v[DRAGON] = dragons
    v[ALL_PUNGS] = pons == 5
    v[THREE_CONC] = conc_pons >= 3
    v[FOUR_CONC] = conc_pons >= 4
    v[FIVE_CONC] = conc_pons >= 5
    v[SMALL_DRAGONS] = dragons == 2 and pair >= DRAGON0
    v[BIG_DRAGONS] = dragons == 3
    v[SMALL_WINDS] = winds == 3 and WIND0 <= pair < DRAGON0
    v[BIG_WINDS] = winds == 4
    chows = False
    if two_sided_ok and chis == 5 and win_pos >= 0 and set_type[win_pos] == CHI:
        k = set_kind[win_pos]
        # two-sided: the tile is the low end of a chi that is not 789, or the high end of one not 123
        chows = (win_tile == k and k % 9 != 6) or (win_tile == k + 2 and k % 9 != 0)
    v[ALL_CHOWS] = chows


# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def score_hand(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind,
               flags, p_tai, p_repl, p_opts, out_items):
    """Hand tai of a win (items into ``out_items``), or -1 if the tiles are not a winning hand.

    A flower win (八仙過海 / 七搶一) with 16 - 3 x melds concealed tiles scores its flower items only;
    with a complete hand it adds the hand's items, read as self-drawn with no wait. A hongkong profile
    (p_opts[PO_HONGKONG]) is scored by envs.scoring.hongkong.hk_score, with the same arguments."""
    if p_opts[PO_HONGKONG] != 0:
        return hk_score(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind,
                        flags, p_tai, p_repl, p_opts, out_items)  # fmt: skip
    n_sets = 5 - n_melds
    out_items[:] = 0
    kind = hand_kind(concealed, n_sets, win_by, p_opts[PO_SHAPES])
    if kind < 0:
        return -1
    has_hand = kind == 1
    all_counts = all_tiles(concealed, meld_type, meld_kind, n_melds)
    n_open = 0
    for m in range(n_melds):
        n_open += meld_type[m] != ANKONG
    any_open = n_open > 0
    v = np.zeros(N_ITEMS, dtype=np.int32)
    tmp = np.zeros(N_ITEMS, dtype=np.int32)
    tmp_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    best_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    if not has_hand:  # flower win without a hand: flower items only
        _flower_items(v, flowers, seat_wind, win_by, p_repl)
        return apply_profile(v, p_tai, p_repl, out_items, best_kept)

    judged_wait = win_tile >= 0 and win_by != C.WIN_FLOWERS
    single = False
    if judged_wait:
        waits = np.zeros(N_KINDS, dtype=np.bool_)
        n_waits, _ = waits_before_win(concealed, all_counts, win_tile, n_sets, p_opts[PO_SHAPES], waits)
        single = n_waits == 1
    _base_items(v, all_counts, n_open, any_open, flowers, win_by, seat_wind, flags, single, p_opts, p_repl)
    extras = p_opts[PO_EXTRAS] != 0
    if extras:
        hand_extras(v, concealed, all_counts, meld_type, meld_kind, n_melds, win_tile, win_by, flags, p_tai, p_opts)

    is_discard = win_by == C.WIN_DISCARD or win_by == C.WIN_ROB_KONG
    two_sided_ok = is_discard and flowers == 0
    for k in range(WIND0, N_KINDS):
        two_sided_ok = two_sided_ok and all_counts[k] == 0

    best_total = -1
    set_type, set_kind, set_conc, dec, n_dec = readings(concealed, n_sets, meld_type, meld_kind, n_melds)
    for d in range(n_dec):
        pair = use_decomposition(dec, d, n_melds, n_sets, set_type, set_kind, set_conc)
        # Where the winning discard sits: the pair (-1) or a concealed set holding its kind.
        for pos in range(-1, 5):
            if pos == -1:
                if is_discard and pair != win_tile:
                    continue
            else:
                if not is_discard or pos < n_melds:
                    continue
                k = set_kind[pos]
                if not (k == win_tile or (set_type[pos] == CHI and k < win_tile <= k + 2)):
                    continue
            _set_items(v, set_type, set_kind, set_conc, 5, pair, pos, win_tile, seat_wind, round_wind, two_sided_ok)
            v[EIGHT_PAIRS] = 0
            if extras:
                reading_extras(v, set_type, set_kind, set_conc, pair, pos, seat_wind, round_wind, all_counts, p_tai, p_opts)
            best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)

    shape = special_shape(concealed, p_opts[PO_SHAPES]) if p_opts[PO_SHAPES] != 0 and n_melds == 0 else 0
    if shape != 0:
        # The special shape as one more reading. Its one pon (the eight_pairs triplet, the 十三么's pon)
        # carries the wind and dragon items; 十六不搭 has no set.
        parts = np.zeros(3, dtype=np.int64)
        suits = np.zeros(3, dtype=np.int64)
        n_sp = 1
        if shape == SHAPE_EIGHT_PAIRS:
            for k in range(N_KINDS):
                if concealed[k] == 3:
                    set_type[0] = 1
                    set_kind[0] = k
        elif shape & SHAPE_THIRTEEN:
            thirteen_orphans_parts(concealed, parts)
            set_type[0] = parts[1]
            set_kind[0] = parts[2]
        else:
            sixteen_unrelated_suits(concealed, p_opts[PO_SHAPES], suits)
            n_sp = 0
        _set_items(v, set_type, set_kind, set_conc, n_sp, -1, -1, win_tile, seat_wind, round_wind, False)
        v[ALL_PUNGS] = 0
        v[EIGHT_PAIRS] = shape == SHAPE_EIGHT_PAIRS
        if extras:
            special_extras(v, shape, concealed, parts, suits, all_counts, seat_wind, round_wind, p_opts)
        best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)
    return best_total


@njit(cache=True)
def settle(hand_tai, win_by, winner, payer, dealer, streak, opts, out_deltas):
    """Add one win's chips to ``out_deltas`` (int64[4]). ``payer`` = the discarder, the konger robbed,
    the single-flower seat of 七搶一, or -1 when all three pay (self-draw, 八仙過海). Each paying
    leg pays base + per_tai x (hand tai + dealer tai when the dealer is on that leg)."""
    dt = dealer_tai(streak, opts)
    for p in range(4):
        if p == winner or (payer >= 0 and p != payer):
            continue
        leg = hand_tai + (dt if (p == dealer or winner == dealer) else 0)
        amount = opts[OPT_BASE] + opts[OPT_PER_TAI] * leg
        out_deltas[p] -= amount
        out_deltas[winner] += amount
