// hongkong scoring (HONGKONG.md sections 2 and 3): the entry point and the readings.
// Its legs (5.1) are those of the one settlement, settle.hpp.
//
// score_hand (scoring.hpp) hands a profile with p_opts[PO_HONGKONG] to hk_score with its own
// arguments, so the engine and `tw16 score` call one function for every profile.
//
// flags: the int64 flag word of score_hand: F_* bits (F_DECLARED_READY, F_IPPATSU, F_ROB_KONG_CHAIN,
// F_ROBBED_ANKONG, F_HEAVENLY, F_LAST_TILE, F_KONG_REPLACEMENT, F_FLOWER_REPLACEMENT), the
// replacement chain at CHAIN_SHIFT, and (codes.hk_context_flags) the discards made in the hand
// (DISCARDS_SHIFT), the tiles in the pools (FLOOR_SHIFT), both stored + 1 with 0 = not known, and
// the number of seats winning on the same tile (CO_WIN_SHIFT).
//
// Scoring: every decomposition and winning-tile placement is a reading, scored and the best kept
// (tie rule of RULES.md 3); the special shapes are one more reading each; chicken hands (3.9) are
// judged on the best reading. Inside a family (codes.HK_FAMILIES) the occurrences are chosen by
// choose_occurrences (hk_families.hpp): 計法1, set-disjoint and items not marked "each" once; 計法2,
// occurrences of one item may share sets, and an occurrence lying on the sets of an occurrence of a
// larger member does not count.
#pragma once
#include <cstdint>

#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// Hand tai of a hongkong win (items into out_items, int32[N_ITEMS]), or -1 if the tiles are not a
// winning hand. Arguments as score_hand: concealed int8[34] with the winning tile, meld_type /
// meld_kind int8[>=5] (first n_melds used), flowers bit mask, win_tile (-1: heavenly hand, flower
// win), win_by WIN_*, seat_wind / round_wind 0..3, flags as above.
int64_t hk_score(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                 int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind,
                 int64_t flags, const Prof& prof, View<int32_t, 1> out_items);

}  // namespace tw16
