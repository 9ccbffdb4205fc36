// hongkong items of one reading (HONGKONG.md 2.3-2.6, 3): winds and dragons, 暗刻, families, 步步高 /
// 龍, 老少, waits seen in the reading, 四歸, 大五門齊, 滿庭芳, 全帶么, the dual reading and the special
// shapes.
#pragma once
#include <cstdint>

#include "tw16/view.hpp"

namespace tw16 {

// 步步高 and 龍 (明 / 暗: 2.4) over every three chows; 老少.
void pattern_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> conc, int64_t n,
                   int64_t mode);

// Items of one reading: n sets (melds first) and the eye pair (-1: none); disc_pos the set completed
// by a winning discard (-1 the eye, -2 none), win_pos the set (or eye, -1) the winning tile
// completes (-2: no placement); shape 0 for five sets and a pair, else SHAPE_*. hc: the hand
// context (H_* slots, int64[8]); buf: int64 (6, HK_MAX_INST + 1) scratch.
void hk_reading_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> sc, int64_t n,
                      int64_t n_melds, int64_t pair, int64_t disc_pos, int64_t win_pos, int64_t win_tile, int64_t shape,
                      int64_t seat_wind, int64_t round_wind, View<int8_t, 1> all_counts, View<int64_t, 1> hc,
                      View<int64_t, 2> buf, View<int32_t, 2> p_tai, View<int64_t, 1> p_opts);

// Nine concealed tiles n n n (n+1)x3 (n+2)x3 of one suit, no meld, none the winning discard: read as
// three pons in the pon view and as three identical chows in the chow view (HONGKONG.md 2.3).
void dual_reading(View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> conc, int64_t n, int64_t n_melds,
                  View<bool, 1> pv_pon, View<int64_t, 1> pv_kind, View<bool, 1> pv_conc, View<bool, 1> cv_chow,
                  View<int64_t, 1> cv_kind);

// Items of a special-shape reading beyond what hk_reading_items gave its one pon (or none). parts: int64[3]
// of thirteen_orphans_parts (pair, set type, set kind); suits: int64[3] of sixteen_unrelated_suits.
void special_items(View<int32_t, 1> v, int64_t shape, View<int8_t, 1> concealed, View<int8_t, 1> all_counts,
                   View<int64_t, 1> parts, View<int64_t, 1> suits, View<int64_t, 1> hc);

}  // namespace tw16
