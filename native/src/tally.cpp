// Readings of a hand (see tally.hpp), the profile applied, the tie rule.
#include "tw16/tally.hpp"

#include "tw16/hand.hpp"
#include "tw16/meld.hpp"

namespace tw16 {

namespace {
namespace C = py::codes;
using py::tiles::MELD_ANKONG;
using py::tiles::MELD_CHI;
using py::tiles::MELD_PON;
using py::tiles::N_KINDS;
constexpr int64_t N_ITEMS = C::N_ITEMS;
constexpr int64_t FLOWER_SET = C::I_FLOWER_SET;
constexpr int64_t SEAT_FLOWER = C::I_SEAT_FLOWER;
}  // namespace

// ---------------------------------------------------------------------------------------------
// Readings

int64_t hand_kind(View<int8_t, 1> concealed, int64_t n_sets, int64_t win_by, int64_t shapes) {
    int64_t total = 0;
    for (int64_t k = 0; k < N_KINDS; ++k) total += concealed[k];
    const bool flower_win = win_by == C::WIN_FLOWERS;
    if (total == 3 * n_sets + 2) {
        if (is_win(concealed, n_sets, shapes)) return 1;
        return flower_win ? 0 : -1;
    }
    return (flower_win && total == 3 * n_sets + 1) ? 0 : -1;
}

void all_tiles(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
               View<int8_t, 1> counts) {
    for (int64_t k = 0; k < N_KINDS; ++k) counts[k] = concealed[k];
    for (int64_t m = 0; m < n_melds; ++m) add_meld_tiles(counts, meld_type[m], meld_kind[m]);
}

int64_t waits_before_win(View<int8_t, 1> concealed, View<int8_t, 1> all_counts, int64_t win_tile, int64_t n_sets,
                         int64_t shapes, View<bool, 1> waits, View<int8_t, 1> before) {
    int8_t held_buf[N_KINDS];
    const auto held = View<int8_t, 1>::contiguous(held_buf, {N_KINDS});
    for (int64_t k = 0; k < N_KINDS; ++k) {
        before[k] = concealed[k];
        held[k] = all_counts[k];
    }
    before[win_tile] = static_cast<int8_t>(before[win_tile] - 1);
    held[win_tile] = static_cast<int8_t>(held[win_tile] - 1);
    return win_wait_mask(before, n_sets, held, shapes, waits);
}

int64_t readings(View<int8_t, 1> concealed, int64_t n_sets, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind,
                 int64_t n_melds, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> sc, View<int8_t, 2> dec) {
    for (int64_t i = 0; i < 5; ++i) {
        st[i] = 0;
        sk[i] = 0;
        sc[i] = false;
    }
    for (int64_t m = 0; m < n_melds; ++m) {
        st[m] = meld_type[m];
        sk[m] = meld_kind[m];
        sc[m] = meld_type[m] == MELD_ANKONG;
    }
    return is_complete(concealed, n_sets) ? decompositions(concealed, n_sets, dec) : 0;
}

int64_t use_decomposition(View<int8_t, 2> dec, int64_t d, int64_t n_melds, int64_t n_sets, View<int8_t, 1> st,
                          View<int8_t, 1> sk, View<bool, 1> sc) {
    for (int64_t s = 0; s < n_sets; ++s) {
        st[n_melds + s] = dec(d, 1 + 2 * s);
        sk[n_melds + s] = dec(d, 2 + 2 * s);
        sc[n_melds + s] = true;
    }
    return dec(d, 0);
}

// ---------------------------------------------------------------------------------------------
// The profile applied: exclusions, reductions, the tie rule

int64_t apply_profile(View<int32_t, 1> v, View<int32_t, 2> p_tai, View<int8_t, 2> p_repl, View<int32_t, 1> out,
                      View<bool, 1> kept) {
    // The profile's items held (v > 0), in table order: only they can drop or reduce one another, so
    // the pair loop of the Python (over every item of the table, skipping those not held) runs over
    // them alone; the results are the same.
    int64_t held[N_ITEMS];
    int64_t n_held = 0;
    for (int64_t r_i = 0; r_i < N_ITEMS; ++r_i) {
        const int64_t i = p_tai(3, r_i);
        if (i < 0) break;
        out[i] = 0;
        kept[i] = false;
        if (v[i] > 0) held[n_held++] = i;
    }
    int64_t total = 0;
    for (int64_t a = 0; a < n_held; ++a) {
        const int64_t i = held[a];
        int64_t tai = p_tai(0, i);
        bool dropped = false;
        for (int64_t b = 0; b < n_held; ++b) {
            const int64_t j = held[b];
            if (j == i) continue;
            const int64_t r = p_repl(j, i);
            // 花槓 replaces only the seat flower of its own set: flower_items (score.cpp) handles it
            if (r == 1 && !(j == FLOWER_SET && i == SEAT_FLOWER)) {
                dropped = true;
                break;
            }
            if (r == 2) tai = p_tai(1, i);  // reduced value
        }
        if (!dropped) {
            kept[i] = true;
            out[i] = static_cast<int32_t>(tai * static_cast<int64_t>(v[i]));  // int32 store wraps as numpy
            total += out[i];
        }
    }
    return total;
}

// Walking the table in order: at the first item held by one list only, the list holding it comes
// first if the other list still has a later item (it is larger at that position), and otherwise the
// other list comes first (it ran out).
bool comes_first(View<bool, 1> kept_a, View<bool, 1> kept_b, View<int32_t, 2> p_tai) {
    int first_a = -1;  // which list holds the first differing item: 1 a, 0 b
    for (int64_t r = 0; r < N_ITEMS; ++r) {
        const int64_t i = p_tai(3, r);
        if (i < 0) break;
        if (first_a < 0) {
            if (kept_a[i] != kept_b[i]) first_a = kept_a[i] ? 1 : 0;
        } else if ((first_a == 1 && kept_b[i]) || (first_a == 0 && kept_a[i])) {
            return first_a == 1;
        }
    }
    return first_a == 0;
}

}  // namespace tw16
