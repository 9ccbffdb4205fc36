// hongkong families (HONGKONG.md 2.2): the occurrences of 般高, 相逢, 兄弟 and 姊妹 in one reading and
// the choice of those that count, under 計法1 or 計法2 (see hongkong.hpp).
//
// buf: int64 (6, HK_MAX_INST + 1) scratch: buf[0] item, buf[1] set mask (bit i = set i, EYE_BIT = the
// eye) of each occurrence; buf[2..5] the search's scratch rows.
#pragma once
#include <cstdint>

#include "tw16/view.hpp"

namespace tw16 {

// Append an occurrence (at most HK_MAX_INST); returns the new count.
int64_t add_occurrence(View<int64_t, 2> buf, int64_t n, int64_t item, int64_t mask);

// Can occurrence j join the depth chosen ones (buf[4, :depth])?
bool occurrence_fits(View<int64_t, 2> buf, int64_t j, int64_t depth, int64_t mode);

// Add to v the occurrences (buf[0] item, buf[1] set mask, n of them, one family) chosen for the
// highest total: a depth-first search over compatible choices.
void choose_occurrences(View<int32_t, 1> v, View<int64_t, 2> buf, int64_t n, View<int32_t, 2> p_tai, int64_t mode);

// The kinds of the sets in mask into a, ascending; returns how many.
int64_t gather_kinds(View<int8_t, 1> kinds, int64_t mask, View<int64_t, 1> a);
int64_t gather_kinds(View<int64_t, 1> kinds, int64_t mask, View<int64_t, 1> a);

// 般高 over the chow view, 相逢 and 兄弟 over the reading, 姊妹 over the pon view (2.3).
void family_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> pv_pon,
                  View<int64_t, 1> pv_kind, View<bool, 1> cv_chow, View<int64_t, 1> cv_kind, int64_t n, int64_t pair,
                  View<int64_t, 2> buf, View<int64_t, 1> a, View<int32_t, 2> p_tai, int64_t mode);

}  // namespace tw16
