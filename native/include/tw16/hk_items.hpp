// hongkong items (HONGKONG.md 3): the items that do not depend on how the hand is read (hand state,
// flowers, tiles and suits, win events) and the chicken hands (3.9).
// Their tables (item indices, PATTERN_OPEN / PATTERN_CONC, HK_READING_ITEMS, RANK, EACH, HK_MAX_INST,
// EYE_BIT, ORPHANS, the hand-context slots H_*) come from the Python module
// through constants.hpp (tw16::py::hk_items), generated and checked, never copied by hand.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// Flower items (3.1): 一臺花 (flower_set) replaces the flower items of its own set only; 八仙過海
// also on a later win after passing the flower win (section 1); 七搶一 on a flower win with 7.
void hk_flower_items(View<int32_t, 1> v, int64_t flowers, int64_t seat_wind, int64_t win_by);

// Hand state, tile classes and suits, win events and timing (3.8). n_waits: waits before the
// winning tile (0: not judged).
void hk_hand_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type, int64_t n_melds,
                   int64_t flowers, int64_t win_by, int64_t seat_wind, int64_t flags, int64_t n_waits);

// 3.9, on the best reading: the items kept are exactly no_flowers or one other_flower (大雞胡), or
// that and self_draw (鴨胡); the chicken item then replaces them all. Returns the hand tai.
int64_t chicken_rule(View<int32_t, 1> v, View<int32_t, 1> out_items, View<bool, 1> kept, int64_t total,
                     View<int32_t, 2> p_tai);

}  // namespace tw16
