"""hongkong scoring (HONGKONG.md sections 2, 3 and 5.1): the additive items, families, 計法 and legs.

``envs.scoring.core.score_hand`` hands a profile with ``p_opts[PO_HONGKONG]`` to :func:`hk_score`, with
its own arguments, so the engine and ``tw16 score`` call one function for every profile.

Interface for the engine (all compiled, ``envs.scoring.codes`` for the constants):

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

Modules: this one (the entry point, readings, legs), ``hk_items`` (item indices, the items that do
not depend on the reading, chicken hands), ``hk_reading`` (the items of one reading) and
``hk_families`` (the choice of family occurrences); ``hk_cases`` validates a case's hongkong fields.

Scoring: every decomposition and winning-tile placement is a reading, scored and the best kept (tie
rule of RULES.md 3); the special shapes are one more reading each; chicken hands (3.9) are judged on
the best reading. Inside a family (codes.HK_FAMILIES) the occurrences are chosen by :func:`_choose`:
計法1, set-disjoint and items not marked "each" once; 計法2, occurrences of one item may share sets,
and an occurrence lying on the sets of an occurrence of a larger member does not count.
"""

from __future__ import annotations

import numpy as np
from envs.jit import njit

from envs.hand.analysis import (
    SHAPE_EIGHT_PAIRS,
    SHAPE_THIRTEEN,
    sixteen_unrelated_suits,
    special_shape,
    thirteen_orphans_parts,
)
from envs.rules import OPT_BASE, OPT_DEALER_PAYS_ON_SELF_DRAW, OPT_PER_TAI
from envs.scoring import codes as C
from envs.scoring.hk_items import (
    H_ALL13,
    H_EP8,
    H_NOFL,
    H_NOHON,
    H_NW,
    H_TP,
    H_WA,
    H_WB,
    MAX_INST,
    N_ITEMS,
    ORPHANS,
    _chicken,
    _flowers,
    _hand_items,
)
from envs.scoring.hk_reading import _reading, _special
from envs.scoring.profile import PO_SHAPES
from envs.scoring.tally import (
    _consider,
    all_tiles,
    apply_profile,
    dealer_tai,
    hand_kind,
    readings,
    use_decomposition,
    waits_before_win,
)
from envs.tiles import CHI, N_KINDS, PON, WIND0


@njit(cache=True)
def hk_score(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind, flags,
             p_tai, p_repl, p_opts, out_items):  # fmt: skip
    """Hand tai of a hongkong win (items into ``out_items``), or -1 if the tiles are not a winning hand.
    Arguments as ``envs.scoring.core.score_hand``; the flag word as in the module docstring."""
    n_sets = 5 - n_melds
    shapes = p_opts[PO_SHAPES]
    out_items[:] = 0
    kind = hand_kind(concealed, n_sets, win_by, shapes)
    if kind < 0:
        return -1
    has_hand = kind == 1
    v = np.zeros(N_ITEMS, dtype=np.int32)
    tmp = np.zeros(N_ITEMS, dtype=np.int32)
    tmp_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    best_kept = np.zeros(N_ITEMS, dtype=np.bool_)
    _flowers(v, flowers, seat_wind, win_by)
    if not has_hand:  # a flower win without a complete hand: its flower items only
        return apply_profile(v, p_tai, p_repl, out_items, best_kept)

    all_counts = all_tiles(concealed, meld_type, meld_kind, n_melds)
    hc = np.zeros(8, np.int64)
    n_hon = 0
    for k in range(WIND0, N_KINDS):
        n_hon += all_counts[k]
    hc[H_NOHON] = n_hon == 0
    hc[H_NOFL] = flowers == 0
    judged = win_tile >= 0 and win_by != C.WIN_FLOWERS  # a flower win or heavenly hand has no wait
    if judged:
        waits = np.zeros(N_KINDS, dtype=np.bool_)
        nw, before = waits_before_win(concealed, all_counts, win_tile, n_sets, shapes, waits)
        hc[H_NW] = nw
        if nw == 2:
            wa = -1
            wb = -1
            for k in range(N_KINDS):
                if waits[k]:
                    if wa < 0:
                        wa = k
                    else:
                        wb = k
            hc[H_TP] = before[wa] >= 2 and before[wb] >= 2
            hc[H_WA] = wa
            hc[H_WB] = wb
        all13 = True
        for k in ORPHANS:
            all13 = all13 and waits[k]
        hc[H_ALL13] = all13
        even = n_melds == 0
        for k in range(N_KINDS):
            even = even and before[k] % 2 == 0
        hc[H_EP8] = even
    _hand_items(v, all_counts, meld_type, n_melds, flowers, win_by, seat_wind, flags, hc[H_NW])

    is_discard = win_by == C.WIN_DISCARD or win_by == C.WIN_ROB_KONG
    buf = np.zeros((6, MAX_INST + 1), np.int64)
    best_total = -1
    st, sk, sc, dec, n_dec = readings(concealed, n_sets, meld_type, meld_kind, n_melds)
    for d in range(n_dec):
        pair = use_decomposition(dec, d, n_melds, n_sets, st, sk, sc)
        # Where the winning tile sits (identical tiles are interchangeable: every place is a reading)
        for pos in range(-2, 5):
            if pos == -2:
                if judged:
                    continue
            elif not judged:
                continue
            elif pos == -1:
                if pair != win_tile:
                    continue
            else:
                if pos < n_melds:
                    continue
                k = sk[pos]
                if not (k == win_tile or (st[pos] == CHI and k < win_tile <= k + 2)):
                    continue
            disc_pos = pos if is_discard else -2
            _reading(v, st, sk, sc, 5, n_melds, pair, disc_pos, pos, win_tile, 0, seat_wind, round_wind, all_counts,
                     hc, buf, p_tai, p_opts)  # fmt: skip
            best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)

    shape = special_shape(concealed, shapes) if n_melds == 0 else 0
    if shape != 0:
        parts = np.zeros(3, dtype=np.int64)
        suits = np.zeros(3, dtype=np.int64)
        n_sp = 0
        pair = -1
        disc_pos = -2
        if shape == SHAPE_EIGHT_PAIRS:  # its triplet is a pon for the pon items (2.6)
            for k in range(N_KINDS):
                if concealed[k] == 3:
                    st[0] = PON
                    sk[0] = k
                    n_sp = 1
                    if is_discard and k == win_tile:
                        disc_pos = 0
        elif shape & SHAPE_THIRTEEN:
            thirteen_orphans_parts(concealed, parts)
            pair = parts[0]
            st[0] = parts[1]
            sk[0] = parts[2]
            n_sp = 1
        else:
            sixteen_unrelated_suits(concealed, shapes, suits)
            for k in range(N_KINDS):
                if concealed[k] == 2:
                    pair = k
        sc[0] = True
        _reading(v, st, sk, sc, n_sp, 0, pair, disc_pos, -2, win_tile, shape, seat_wind, round_wind, all_counts,
                 hc, buf, p_tai, p_opts)  # fmt: skip
        _special(v, shape, concealed, all_counts, parts, suits, hc)
        best_total = _consider(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total)
    if best_total < 0:
        return -1
    return _chicken(v, out_items, best_kept, best_total, p_tai)


# ---------------------------------------------------------------------------------------------
# Legs (HONGKONG.md 5.1)
@njit(cache=True)
def hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_leg_tai, out_leg_payer):
    """The legs of one win (module docstring). Dealer tai (1 + 2N) is on a leg when the dealer wins, or
    when the dealer pays it as discarder / konger / 七搶一 holder; on the dealer's leg of a self-draw
    (全包 included) only with the rule option ``dealer_pays_on_self_draw``."""
    dt = dealer_tai(streak, opts)
    n = 0
    self_legs = payer < 0 or liable >= 0
    for p in range(4):
        out_leg_tai[p] = -1
        out_leg_payer[p] = -1
        if p == winner or (not self_legs and p != payer):
            continue
        on = winner == dealer or (p == dealer and (not self_legs or opts[OPT_DEALER_PAYS_ON_SELF_DRAW] != 0))
        out_leg_tai[p] = hand_tai + (dt if on else 0)
        out_leg_payer[p] = liable if liable >= 0 else p
        n += 1
    return n


@njit(cache=True)
def hk_settle(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, out_deltas):
    """Add one win's legs, paid in full, to ``out_deltas`` (int64[4], chips); returns the legs' count."""
    leg_tai = np.empty(4, np.int64)
    leg_payer = np.empty(4, np.int64)
    n = hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, opts, leg_tai, leg_payer)
    for p in range(4):
        if leg_tai[p] >= 0:
            amount = opts[OPT_BASE] + opts[OPT_PER_TAI] * leg_tai[p]
            out_deltas[leg_payer[p]] -= amount
            out_deltas[winner] += amount
    return n

