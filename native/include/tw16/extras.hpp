// Predicates of the extras pack (EXTRAS.md section 2) and the optional MCR detectors (section 4).
//
// score_hand (score.hpp) calls these only when the profile names such an item (p_opts[PO_EXTRAS]),
// so the base tables score at their old speed. Three entry points:
//     hand_extras     items that do not depend on how the hand is read: kongs, 連槓開花, colours and
//                     tile classes (綠一色, 五門齊, 清老頭, 混老頭, 九蓮寶燈, MCR tile detectors)
//     reading_extras  items of one reading of the standard shape: five sets (melds first) and the eye
//     special_extras  items of a special-shape reading (eight_pairs, 十三么, 十六不搭)
//
// Families (EXTRAS.md 1.4, codes.FAMILIES): every instance of a family's patterns in the reading is
// listed with the sets it uses (a bit mask over the five sets); the scorer keeps the set-disjoint
// choice of distinct items with the highest total of the profile's tai (two instances at most: each
// uses two or more of the five sets). On equal totals the earlier-listed (larger) instance wins.
// Concealed variants (_concealed) are instances whose sets are all concealed (in hand or ankong) and
// not completed by the winning discard (win_pos).
//
// Conventions as in score.hpp: set_type MELD_CHI/MELD_PON/MELD_KONG/MELD_ADDKONG/MELD_ANKONG (decompositions give
// MELD_PON for a concealed pon), set_kind the lowest kind, set_conc true for sets formed in hand and ankongs.
#pragma once
#include <array>
#include <cstdint>
#include <utility>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// A terminal (1 or 9 of a suit).
inline bool is_terminal(int64_t k) { return k < py::tiles::WIND0 && (pymod(k, 9) == 0 || pymod(k, 9) == 8); }
inline bool is_pon_type(int64_t t) { return t != py::tiles::MELD_CHI; }

// ---------------------------------------------------------------------------------------------
// Items that do not depend on the reading

// 0, 1 (pure: the extra set is of the core's suit) or 2 (mixed): before the winning tile the hand
// holds 1112345678999 of one suit plus one complete set (in hand, or the one meld), and the winning
// tile is of that suit. Without a winning tile (heavenly), any tile of the suit may be read as it.
int64_t nine_gates_purity(View<int8_t, 1> concealed, int64_t win_tile, View<int8_t, 1> meld_type,
                          View<int8_t, 1> meld_kind, int64_t n_melds);

// The reading-independent extras items (and MCR tile detectors when the profile has any).
void hand_extras(View<int32_t, 1> v, View<int8_t, 1> concealed, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type,
                 View<int8_t, 1> meld_kind, int64_t n_melds, int64_t win_tile, int64_t win_by, int64_t flags,
                 View<int32_t, 2> p_tai, View<int64_t, 1> p_opts);

void mcr_tile_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type, int64_t n_melds,
                    int64_t n_tiles, int64_t n_hon, int64_t n_term, View<int64_t, 1> n_suit, int64_t n_kongs,
                    int64_t n_ankongs);

// ---------------------------------------------------------------------------------------------
// Families: instances (rows fam, item, set mask of inst, EX_MAX_INST x 3) and the best assignment

int64_t add_instance(View<int64_t, 2> inst, int64_t n, int64_t fam, int64_t item, int64_t mask);

// For each family, the set-disjoint choice of at most two instances of distinct items with the
// highest total tai; the chosen items get v = 1.
void assign_families(View<int32_t, 1> v, View<int64_t, 2> inst, int64_t n, View<int32_t, 2> p_tai);

// Insertion sort of a[:n] in place (n <= 5: the sets of one hand).
inline void sort_small(View<int64_t, 1> a, int64_t n) {
    for (int64_t i = 1; i < n; ++i) {
        const int64_t x = a[i];
        int64_t j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = x;
    }
}

// Can the four sorted kinds a be split into two pairs that both satisfy kind_pred (0 identical chows
// of two different chows, 1 same number in two suits, 2 same suit consecutive)?
bool splits_into_pairs(View<int64_t, 1> a, int64_t kind_pred);

bool three_distinct_suits(View<int64_t, 1> a);

// (x, y, z) ascending.
inline std::array<int64_t, 3> sorted3(int64_t x, int64_t y, int64_t z) {
    if (x > y) std::swap(x, y);
    if (y > z) std::swap(y, z);
    if (x > y) std::swap(x, y);
    return {x, y, z};
}

// The numbers (0-8) of the three kinds a[:3], ascending.
inline std::array<int64_t, 3> sorted_numbers3(View<int64_t, 1> a) {
    return sorted3(pymod(a[0], 9), pymod(a[1], 9), pymod(a[2], 9));
}

// ---------------------------------------------------------------------------------------------
// One reading of the standard shape

// Extras items of one reading: five sets (melds first) and the eye `pair`; `win_pos` is the set
// holding the winning discard (-1: the eye, or not a discard).
void reading_extras(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
                    int64_t pair, int64_t win_pos, int64_t seat_wind, int64_t round_wind, View<int8_t, 1> all_counts,
                    View<int32_t, 2> p_tai, View<int64_t, 1> p_opts);

// 全帶么九 / 混全帶么九 from the groups' flags and the tile classes.
void outside_items(View<int32_t, 1> v, bool all_out, bool all_term, View<int8_t, 1> all_counts);

void mcr_reading_items(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
                       int64_t pair, int64_t win_pos, int64_t seat_wind, int64_t round_wind);

// ---------------------------------------------------------------------------------------------
// Special shapes

// Extras items of a special-shape reading: `shape` is the SHAPE_* bit, `parts` the 十三么's (eye,
// set type, set kind) and `suits` the 十六不搭's number masks per suit (int64[3] each). Groups are
// each pair, triplet and lone tile (and the 十三么's set).
void special_extras(View<int32_t, 1> v, int64_t shape, View<int8_t, 1> concealed, View<int64_t, 1> parts,
                    View<int64_t, 1> suits, View<int8_t, 1> all_counts, int64_t seat_wind, int64_t round_wind,
                    View<int64_t, 1> p_opts);

}  // namespace tw16
