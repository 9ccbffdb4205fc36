// Hand analysis: completeness, shanten, waits, decompositions, eight_pairs, 十三么, 十六不搭.
// The functions of envs/hand/analysis.py (same names, same parameter order, same results); the
// benchmarks' hand makers are declared at the end (defined in bench_hands.cpp).
//
// Conventions (as in analysis.py)
// - counts: the concealed tiles as counts over the 34 playing kinds (any integer dtype, each 0..4):
//   View<C, 1> with C any integer type (int8_t from the engine's hands, int64_t scratch...); the
//   functions are templates on the element types of their array parameters.
// - n_sets: the sets the concealed tiles must supply, 5 - number of melds (0..5; a kong is a meld).
//   A complete concealed part has 3*n_sets + 2 tiles: n_sets sets (chi or pon) + 1 pair.
// - held: all the seat's copies of each kind, melds included (length >= 34). RULES.md 3: a kind of
//   which the seat holds all four is never a wait. Without melds, pass counts itself.
// - shanten = (fewest tiles to add, no kind above 4, until the tiles contain a complete form) - 1:
//   -1 complete, 0 ready (聽牌), ... Shanten judges the shape only (it ignores copies held in melds).
//   It is meant for hands of 3n+1 or 3n+2 tiles and well defined for any smaller hand.
// - Counts outside 0..4 (or n_sets outside 0..5) make is_complete false and shanten return INVALID.
// - out arrays (bool or int) are stored into as numpy would: static_cast to their element type.
// - Special shapes (EXTRAS.md 2.1; 17 tiles, no melds): `shapes` is a bit set of SHAPE_* of
//   py::analysis (eight_pairs 嚦咕嚦咕, 十三么 pure/mixed, 十六不搭, its gap-2 modifier).
//
// The tables (hand_tables.hpp) are reached through hand_tables(): no table arguments.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/hand_tables.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// _BIG of analysis.py (a private name there, so not in constants.hpp): "no solution yet".
inline constexpr int64_t HAND_BIG = 1000;

// ---------------------------------------------------------------------------------------------
// Codes

// group_codes: ((m, p, s, honour codes), (their tile counts)); c[0] is -1 if a count is not 0..4.
struct HandCodes {
    int64_t c[4];
    int64_t n[4];
};
template <class C>
HandCodes group_codes(View<C, 1> counts);

// combine_rows: min over splits of n sets and 1 pair among four table rows (columns 2*m + p).
inline int64_t combine_rows(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3, int64_t n);

// ---------------------------------------------------------------------------------------------
// Completeness, shanten

// True iff counts is exactly n_sets sets and one pair (3*n_sets + 2 tiles).
template <class C>
bool is_complete(View<C, 1> counts, int64_t n_sets);

// Shanten of the standard shape (n_sets sets + a pair): -1 complete, 0 ready, ...; INVALID on bad counts.
template <class C>
int64_t shanten(View<C, 1> counts, int64_t n_sets);

// For a 3n+2 hand: out[k] = shanten after discarding one k (NOT_HELD if not held). Returns the best
// value; when the hand is not complete it equals shanten(counts, n_sets).
template <class C, class O>
int64_t discard_shanten(View<C, 1> counts, int64_t n_sets, View<O, 1> out);

// mask[k] = true for the kinds whose discard reaches the lowest shanten; returns that shanten.
template <class C, class M>
int64_t best_discards(View<C, 1> counts, int64_t n_sets, View<M, 1> mask);

// ---------------------------------------------------------------------------------------------
// Waits

// For a 3n+1 hand: out[k] = true iff adding k completes it and held[k] < 4. out (length >= 34) is
// cleared first; returns the number of waits.
template <class C, class H, class O>
int64_t wait_mask(View<C, 1> counts, int64_t n_sets, View<H, 1> held, View<O, 1> out);

// wait_mask into a new bool array of length 34.
template <class C, class H>
std::array<bool, py::tiles::N_KINDS> wait_array(View<C, 1> counts, int64_t n_sets, View<H, 1> held);

// ---------------------------------------------------------------------------------------------
// Decompositions

// All distinct decompositions of a complete hand into one pair and n_sets sets. Row layout of out
// (shape (rows, >= 1 + 2*n_sets), e.g. (MAX_DECOMPOSITIONS, DEC_WIDTH)): [pair_kind, type_0, kind_0,
// type_1, kind_1, ...], type MELD_CHI (0) or MELD_PON (1), kind the set's lowest kind; columns past
// 1 + 2*n_sets are set to -1. Sets sorted by (kind, type); rows by pair kind, then set sequence; no
// two rows equal. Returns the number of decompositions (0 if not complete); only the first
// out.shape[0] are written (a larger return value means out was too small). A hand of up to 17 tiles
// has at most 6, so MAX_DECOMPOSITIONS (16) rows are enough.
template <class C, class O>
int64_t decompositions(View<C, 1> counts, int64_t n_sets, View<O, 2> out);

// ---------------------------------------------------------------------------------------------
// eight_pairs 嚦咕嚦咕: 17 tiles, no melds, seven pairs + one pon (four of a kind may be two pairs)

template <class C>
bool is_eight_pairs(View<C, 1> counts);
// (fewest tiles to add until the tiles contain an eight_pairs hand) - 1; -1 = complete.
template <class C>
int64_t eight_pairs_shanten(View<C, 1> counts);
// For 16 concealed tiles (no melds): out[k] = true iff adding k makes eight_pairs and held[k] < 4.
template <class C, class H, class O>
int64_t eight_pairs_wait_mask(View<C, 1> counts, View<H, 1> held, View<O, 1> out);

// ---------------------------------------------------------------------------------------------
// 十三么 (thirteen orphans) and 十六不搭 (sixteen unrelated): 17 tiles, no melds (EXTRAS.md 2.1)

constexpr bool is_orphan_kind(int64_t k);
// 17 tiles as 十三么: 0 no, 1 pure (the set is a pon of an orphan), 2 mixed (a chow or a pon of a
// 2-8). Writes out[0] = the eye's kind, out[1] = the set's type (MELD_CHI/MELD_PON), out[2] = its lowest kind.
template <class C, class O>
int64_t thirteen_orphans_parts(View<C, 1> counts, View<O, 1> out);
constexpr bool thirteen_code_ok(int64_t code, int64_t shapes);
template <class C>
bool is_thirteen_orphans(View<C, 1> counts, int64_t shapes);
// Change of sum(max(0, need - c)) over the distinct kinds ks[:n] against a need of 1 per orphan
// (c, need: 34 int64 scratch counts; ks: n kinds).
inline int64_t orphan_cost_change(const int64_t* c, const int64_t* need, const int64_t* ks, int64_t n);
template <class C>
int64_t thirteen_orphans_shanten(View<C, 1> counts, int64_t shapes);

// True iff the 17 counts are a 十六不搭 (gap 3, or 2 with SHAPE_UNRELATED_GAP2); then out[s] = the
// numbers held in suit s as a 9-bit mask (bit i = number i+1).
template <class C, class O>
bool sixteen_unrelated_suits(View<C, 1> counts, int64_t shapes, View<O, 1> out);
template <class C>
bool is_sixteen_unrelated(View<C, 1> counts, int64_t shapes);
template <class C>
int64_t sixteen_unrelated_shanten(View<C, 1> counts, int64_t shapes);

// The SHAPE_* bit of the special shape (enabled in shapes) that the 17 counts form, or 0.
template <class C>
int64_t special_shape(View<C, 1> counts, int64_t shapes);
// For 16 concealed tiles (no melds): out[k] = true iff adding k makes a 十三么 or 十六不搭 enabled in
// shapes and held[k] < 4. out is cleared first; returns the number of waits.
template <class C, class H, class O>
int64_t special_wait_mask(View<C, 1> counts, View<H, 1> held, int64_t shapes, View<O, 1> out);

// ---------------------------------------------------------------------------------------------
// Shapes chosen by flags

// is_complete, or a special shape enabled in shapes (no melds).
template <class C>
bool is_win(View<C, 1> counts, int64_t n_sets, int64_t shapes);
// The lowest shanten over the standard shape and the enabled special shapes.
template <class C>
int64_t win_shanten(View<C, 1> counts, int64_t n_sets, int64_t shapes);
// wait_mask OR-ed with the waits of the enabled special shapes; returns the count.
template <class C, class H, class O>
int64_t win_wait_mask(View<C, 1> counts, int64_t n_sets, View<H, 1> held, int64_t shapes, View<O, 1> out);

// ---------------------------------------------------------------------------------------------
// The benchmarks' hand makers and timing loops over (n, 34) int8 arrays (tw16/bench/hand.py),
// defined in bench_hands.cpp (which describes the random stream the makers draw from).
void random_complete_hands(View<int8_t, 2> out, int64_t n_sets, int64_t seed);
void perturb_hands(View<int8_t, 2> hands, int64_t seed, double frac);
void drop_one_tile(View<int8_t, 2> hands, int64_t seed);
void random_wall_hands(View<int8_t, 2> out, int64_t n_tiles, int64_t seed);
int64_t sum_is_complete(View<int8_t, 2> hands, int64_t n_sets);
int64_t sum_shanten(View<int8_t, 2> hands, int64_t n_sets);
int64_t sum_waits(View<int8_t, 2> hands, int64_t n_sets);
int64_t sum_decompositions(View<int8_t, 2> hands, int64_t n_sets);
int64_t sum_discard_shanten(View<int8_t, 2> hands, int64_t n_sets);

}  // namespace tw16

// =============================================================================================
// Definitions of the templates and inline helpers above (analysis.py, function for function).

namespace tw16 {

namespace hand_detail {
namespace An = py::analysis;
inline constexpr int64_t NK = py::tiles::N_KINDS;
inline constexpr int64_t W0 = py::tiles::WIND0;
inline constexpr int64_t NC = py::tables::N_COLS;
// 5**i for i < 9 (tables.py POW5): the code step of one tile of rank i.
inline constexpr int64_t pow5(int64_t i) { return py::tables::POW5[i]; }
}  // namespace hand_detail

template <class C>
HandCodes group_codes(View<C, 1> counts) {
    // One helper for all four groups (as in analysis.py). The code accumulates in uint64 so that
    // garbage counts wrap (as int64 does, see add_wrap) instead of overflowing (the code is then unused: c[0] = -1).
    HandCodes r;
    bool bad = false;
    const int64_t start[4] = {0, 9, 18, hand_detail::W0};
    for (int g = 0; g < 4; ++g) {
        const int64_t nk = g < 3 ? 9 : 7;
        uint64_t c = 0;
        int64_t n = 0;
        for (int64_t i = nk - 1; i >= 0; --i) {
            const int64_t v = static_cast<int64_t>(counts[start[g] + i]);
            bad |= v < 0 || v > 4;
            c = c * 5 + static_cast<uint64_t>(v);
            n += v;
        }
        r.c[g] = static_cast<int64_t>(c);
        r.n[g] = n;
    }
    if (bad) r.c[0] = -1;
    return r;
}

inline int64_t combine_rows(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3, int64_t n) {
    // Rows r0, r1 (suits m, p) combine into x0 (a sets, no pair) / x1 (a sets + the pair); rows r2, r3
    // (suit s, honours) into y0 / y1 with the other n - a sets; the pair sits on one side.
    int64_t best = HAND_BIG;
    for (int64_t a = 0; a <= n; ++a) {
        int64_t x0 = HAND_BIG, x1 = HAND_BIG;
        for (int64_t m0 = 0; m0 <= a; ++m0) {
            const int64_t m1 = a - m0;
            int64_t v = int64_t(r0[2 * m0]) + int64_t(r1[2 * m1]);
            if (v < x0) x0 = v;
            v = int64_t(r0[2 * m0 + 1]) + int64_t(r1[2 * m1]);
            if (v < x1) x1 = v;
            v = int64_t(r0[2 * m0]) + int64_t(r1[2 * m1 + 1]);
            if (v < x1) x1 = v;
        }
        const int64_t b = n - a;
        for (int64_t m2 = 0; m2 <= b; ++m2) {
            const int64_t m3 = b - m2;
            const int64_t y0 = int64_t(r2[2 * m2]) + int64_t(r3[2 * m3]);
            int64_t y1 = int64_t(r2[2 * m2 + 1]) + int64_t(r3[2 * m3]);
            const int64_t v = int64_t(r2[2 * m2]) + int64_t(r3[2 * m3 + 1]);
            if (v < y1) y1 = v;
            if (x0 + y1 < best) best = x0 + y1;
            if (x1 + y0 < best) best = x1 + y0;
        }
    }
    return best;
}

namespace hand_detail {
// combine_rows in two halves, for discard_shanten: combine_rows(r0, r1, r2, r3, n) equals
// join_halves(half(r0, r1), half(r2, r3)), where half(ra, rb)[a] is the min over splits of a sets between
// the two rows without (h0) / with (h1) the pair. The same sums and minima as combine_rows (only
// regrouped), so the results are identical; a discard changes one row, so only its half is redone.
inline void half_rows(const uint8_t* ra, const uint8_t* rb, int64_t n, int64_t* h0, int64_t* h1) {
    for (int64_t a = 0; a <= n; ++a) {
        int64_t x0 = HAND_BIG, x1 = HAND_BIG;
        for (int64_t m0 = 0; m0 <= a; ++m0) {
            const int64_t m1 = a - m0;
            int64_t v = int64_t(ra[2 * m0]) + int64_t(rb[2 * m1]);
            if (v < x0) x0 = v;
            v = int64_t(ra[2 * m0 + 1]) + int64_t(rb[2 * m1]);
            if (v < x1) x1 = v;
            v = int64_t(ra[2 * m0]) + int64_t(rb[2 * m1 + 1]);
            if (v < x1) x1 = v;
        }
        h0[a] = x0;
        h1[a] = x1;
    }
}
inline int64_t join_halves(const int64_t* x0, const int64_t* x1, const int64_t* y0, const int64_t* y1, int64_t n) {
    int64_t best = HAND_BIG;
    for (int64_t a = 0; a <= n; ++a) {
        if (x0[a] + y1[n - a] < best) best = x0[a] + y1[n - a];
        if (x1[a] + y0[n - a] < best) best = x1[a] + y0[n - a];
    }
    return best;
}
}  // namespace hand_detail

// ---------------------------------------------------------------------------------------------
// Completeness, shanten

template <class C>
bool is_complete(View<C, 1> counts, int64_t n_sets) {
    const HandCodes h = group_codes(counts);
    if (h.c[0] < 0 || h.n[0] + h.n[1] + h.n[2] + h.n[3] != 3 * n_sets + 2) return false;
    const HandTables& T = hand_tables();
    if ((T.suit_flags[h.c[0]] & T.suit_flags[h.c[1]] & T.suit_flags[h.c[2]] & T.honour_flags[h.c[3]] & 1) == 0)
        return false;  // EXACT implies size % 3 != 1
    return (h.n[0] % 3 == 2) + (h.n[1] % 3 == 2) + (h.n[2] % 3 == 2) + (h.n[3] % 3 == 2) == 1;
}

template <class C>
int64_t shanten(View<C, 1> counts, int64_t n_sets) {
    using namespace hand_detail;
    const HandCodes h = group_codes(counts);
    if (h.c[0] < 0 || n_sets < 0 || n_sets > An::MAX_SETS) return An::INVALID;
    const HandTables& T = hand_tables();
    return combine_rows(T.suit_dist + h.c[0] * NC, T.suit_dist + h.c[1] * NC, T.suit_dist + h.c[2] * NC,
                        T.honour_dist + h.c[3] * NC, n_sets) -
           1;
}

template <class C, class O>
int64_t discard_shanten(View<C, 1> counts, int64_t n_sets, View<O, 1> out) {
    using namespace hand_detail;
    const HandCodes h = group_codes(counts);
    int64_t best = An::NOT_HELD;
    for (int64_t k = 0; k < NK; ++k) out[k] = static_cast<O>(An::NOT_HELD);
    if (h.c[0] < 0 || n_sets < 0 || n_sets > An::MAX_SETS) return best;
    const HandTables& T = hand_tables();
    const uint8_t* sd = T.suit_dist;
    const uint8_t* r0 = sd + h.c[0] * NC;
    const uint8_t* r1 = sd + h.c[1] * NC;
    const uint8_t* r2 = sd + h.c[2] * NC;
    const uint8_t* r3 = T.honour_dist + h.c[3] * NC;
    // s = combine_rows of the four rows with k's row one tile lower (by halves: see half_rows)
    int64_t x0[An::MAX_SETS + 1], x1[An::MAX_SETS + 1], y0[An::MAX_SETS + 1], y1[An::MAX_SETS + 1];
    int64_t z0[An::MAX_SETS + 1], z1[An::MAX_SETS + 1];
    half_rows(r0, r1, n_sets, x0, x1);
    half_rows(r2, r3, n_sets, y0, y1);
    for (int64_t k = 0; k < NK; ++k) {
        if (counts[k] <= 0) continue;
        const int64_t p = pow5(k < W0 ? k % 9 : k - W0);
        int64_t s;
        if (k < 18) {
            if (k < 9)
                half_rows(sd + (h.c[0] - p) * NC, r1, n_sets, z0, z1);
            else
                half_rows(r0, sd + (h.c[1] - p) * NC, n_sets, z0, z1);
            s = join_halves(z0, z1, y0, y1, n_sets);
        } else {
            if (k < W0)
                half_rows(sd + (h.c[2] - p) * NC, r3, n_sets, z0, z1);
            else
                half_rows(r2, T.honour_dist + (h.c[3] - p) * NC, n_sets, z0, z1);
            s = join_halves(x0, x1, z0, z1, n_sets);
        }
        out[k] = static_cast<O>(s - 1);
        if (s - 1 < best) best = s - 1;
    }
    return best;
}

template <class C, class M>
int64_t best_discards(View<C, 1> counts, int64_t n_sets, View<M, 1> mask) {
    using namespace hand_detail;
    std::array<int64_t, NK> sh;
    const int64_t best = discard_shanten(counts, n_sets, View<int64_t, 1>::contiguous(sh.data(), {NK}));
    for (int64_t k = 0; k < NK; ++k) mask[k] = static_cast<M>(sh[k] == best && best != An::NOT_HELD);
    return best;
}

// ---------------------------------------------------------------------------------------------
// Waits

template <class C, class H, class O>
int64_t wait_mask(View<C, 1> counts, int64_t n_sets, View<H, 1> held, View<O, 1> out) {
    using namespace hand_detail;
    for (int64_t k = 0; k < NK; ++k) out[k] = static_cast<O>(false);
    const HandCodes h = group_codes(counts);
    if (h.c[0] < 0 || h.n[0] + h.n[1] + h.n[2] + h.n[3] != 3 * n_sets + 1) return 0;
    const HandTables& T = hand_tables();
    const uint8_t* sflags = T.suit_flags;
    const uint8_t* hflags = T.honour_flags;
    // ok: the group is exactly sets (+ a pair); EXACT implies size % 3 != 1
    const bool ok[4] = {(sflags[h.c[0]] & 1) == 1, (sflags[h.c[1]] & 1) == 1, (sflags[h.c[2]] & 1) == 1,
                        (hflags[h.c[3]] & 1) == 1};
    int64_t nbad = 0, npair = 0;
    for (int g = 0; g < 4; ++g) {
        nbad += !ok[g];
        npair += ok[g] && h.n[g] % 3 == 2;
    }
    if (nbad > 1) return 0;
    int64_t nw = 0;
    for (int g = 0; g < 4; ++g) {
        // the other groups must be exact, and the tile goes to g
        if (nbad - (ok[g] ? 0 : 1) != 0) continue;
        const int64_t r = h.n[g] % 3;
        const int64_t others_pair = npair - ((ok[g] && r == 2) ? 1 : 0);
        if (r == 0) continue;                      // 3k+1 tiles in g: never exact
        if (r == 1 && others_pair != 0) continue;  // g becomes the pair group
        if (r == 2 && others_pair != 1) continue;  // g becomes sets only
        const int64_t start = 9 * g;
        const int64_t nk = g < 3 ? 9 : 7;
        int64_t p = 1;
        for (int64_t i = 0; i < nk; ++i) {
            const int64_t k = start + i;
            if (counts[k] < 4 && held[k] < 4) {
                const uint8_t f = g < 3 ? sflags[h.c[g] + p] : hflags[h.c[g] + p];
                if (f & 1) {
                    out[k] = static_cast<O>(true);
                    nw += 1;
                }
            }
            p *= 5;
        }
    }
    return nw;
}

template <class C, class H>
std::array<bool, py::tiles::N_KINDS> wait_array(View<C, 1> counts, int64_t n_sets, View<H, 1> held) {
    std::array<bool, py::tiles::N_KINDS> out{};
    wait_mask(counts, n_sets, held, View<bool, 1>::contiguous(out.data(), {py::tiles::N_KINDS}));
    return out;
}

// ---------------------------------------------------------------------------------------------
// Decompositions

template <class C, class O>
int64_t decompositions(View<C, 1> counts, int64_t n_sets, View<O, 2> out) {
    using namespace hand_detail;
    if (!is_complete(counts, n_sets)) return 0;
    const HandTables& T = hand_tables();
    const HandCodes h = group_codes(counts);
    // Depth-first over sets placed at the lowest remaining kind (chi before pon), after each pair.
    // A complete hand has at most 68 tiles (every group's flags need <= 17 tiles), so n_sets <= 22:
    // the stacks hold that many (analysis.py sizes them MAX_SETS + 1, enough for n_sets <= 5).
    constexpr int64_t DEPTH = 24;
    int64_t c[NK];
    for (int64_t k = 0; k < NK; ++k) c[k] = static_cast<int64_t>(counts[k]);
    int64_t st[DEPTH];            // set types
    int64_t sk[DEPTH];            // set kinds
    int64_t opt[DEPTH + 1] = {};  // next option per depth: 0 chi, 1 pon, 2 none
    const int64_t cap = out.shape[0];
    const int64_t width = out.shape[1];
    int64_t nd = 0;
    auto undo = [&](int64_t d) {
        const int64_t k = sk[d];
        if (st[d] == py::tiles::MELD_CHI) {
            c[k] += 1;
            c[k + 1] += 1;
            c[k + 2] += 1;
        } else {
            c[k] += 3;
        }
    };
    for (int64_t pk = 0; pk < NK; ++pk) {
        if (c[pk] < 2) continue;
        c[pk] -= 2;
        // prune: the pair's group must split into sets exactly
        const int64_t g = pk < W0 ? pk / 9 : 3;
        const int64_t code = h.c[g] - 2 * pow5(pk - 9 * g);
        const uint8_t f = g < 3 ? T.suit_flags[code] : T.honour_flags[code];
        const bool good = h.n[g] % 3 == 2 && (f & 1) == 1;
        if (good) {
            int64_t d = 0;
            opt[0] = 0;
            while (true) {
                if (d == n_sets) {
                    if (nd < cap) {
                        out(nd, 0) = static_cast<O>(pk);
                        for (int64_t j = 0; j < n_sets; ++j) {
                            out(nd, 1 + 2 * j) = static_cast<O>(st[j]);
                            out(nd, 2 + 2 * j) = static_cast<O>(sk[j]);
                        }
                        for (int64_t j = 1 + 2 * n_sets; j < width; ++j) out(nd, j) = static_cast<O>(-1);
                    }
                    nd += 1;
                    d -= 1;
                    if (d < 0) break;
                    undo(d);
                    continue;
                }
                int64_t k = d > 0 ? sk[d - 1] : 0;
                while (c[k] == 0) k += 1;
                int64_t o = opt[d];
                bool placed = false;
                while (o < 2 && !placed) {
                    if (o == 0) {
                        if (k < W0 && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 &&
                            !(d > 0 && sk[d - 1] == k && st[d - 1] == py::tiles::MELD_PON)) {
                            c[k] -= 1;
                            c[k + 1] -= 1;
                            c[k + 2] -= 1;
                            st[d] = py::tiles::MELD_CHI;
                            placed = true;
                        }
                    } else if (c[k] >= 3) {
                        c[k] -= 3;
                        st[d] = py::tiles::MELD_PON;
                        placed = true;
                    }
                    o += 1;
                }
                if (placed) {
                    sk[d] = k;
                    opt[d] = o;
                    d += 1;
                    opt[d] = 0;
                } else {
                    d -= 1;
                    if (d < 0) break;
                    undo(d);
                }
            }
        }
        c[pk] += 2;
    }
    return nd;
}

// ---------------------------------------------------------------------------------------------
// eight_pairs

template <class C>
bool is_eight_pairs(View<C, 1> counts) {
    using namespace hand_detail;
    int64_t total = 0, n3 = 0;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4 || v == 1) return false;
        if (v == 3) n3 += 1;
        total += v;
    }
    return total == 17 && n3 == 1;
}

template <class C>
int64_t eight_pairs_shanten(View<C, 1> counts) {
    using namespace hand_detail;
    int64_t n0 = 0, n1 = 0;  // pair units (two per kind: the 2nd and the 4th copy) costing 0, 1 tiles
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4) return An::INVALID;
        const int64_t a = std::max<int64_t>(0, 2 - v);
        const int64_t b = std::max<int64_t>(0, 4 - v) - a;
        n0 += (a == 0) + (b == 0);
        n1 += (a == 1) + (b == 1);
    }
    int64_t best = HAND_BIG;
    for (int64_t t = 0; t < NK; ++t) {  // the pon
        const int64_t v = static_cast<int64_t>(counts[t]);
        const int64_t a = std::max<int64_t>(0, 2 - v);
        const int64_t b = std::max<int64_t>(0, 4 - v) - a;
        const int64_t z = n0 - (a == 0) - (b == 0);
        const int64_t o = n1 - (a == 1) - (b == 1);
        int64_t need = 7;
        int64_t cost = std::max<int64_t>(0, 3 - v);
        int64_t take = std::min(need, z);
        need -= take;
        take = std::min(need, o);
        cost += take;
        need -= take;
        cost += 2 * need;
        if (cost < best) best = cost;
    }
    return best - 1;
}

template <class C, class H, class O>
int64_t eight_pairs_wait_mask(View<C, 1> counts, View<H, 1> held, View<O, 1> out) {
    using namespace hand_detail;
    int64_t n1 = 0, n3 = 0, total = 0;
    for (int64_t k = 0; k < NK; ++k) out[k] = static_cast<O>(false);
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4) return 0;
        n1 += v == 1;
        n3 += v == 3;
        total += v;
    }
    if (total != 16 || n1 > 1 || n3 > 2) return 0;
    int64_t nw = 0;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (held[k] >= 4 || v >= 4) continue;
        if ((v == 1 && n1 == 1 && n3 == 1) || (v == 2 && n1 == 0 && n3 == 0) || (v == 3 && n1 == 0 && n3 == 2)) {
            out[k] = static_cast<O>(true);
            nw += 1;
        }
    }
    return nw;
}

// ---------------------------------------------------------------------------------------------
// 十三么 and 十六不搭 (EXTRAS.md 2.1)
//
// 十三么: one each of 1m 9m 1p 9p 1s 9s E S W N C F P, a 14th orphan (the eye) and one set; the set
// is a pon of an orphan (pure, SHAPE_THIRTEEN_PURE) or a chow or a pon of a 2-8 (mixed,
// SHAPE_THIRTEEN_MIXED). 十六不搭: E S W N C F P once each, three tiles in each suit any two of which
// are at least 3 apart (2 with SHAPE_UNRELATED_GAP2), and one more copy of one of these 16 (the eye).

constexpr bool is_orphan_kind(int64_t k) { return k >= py::tiles::WIND0 || k % 9 == 0 || k % 9 == 8; }

template <class C, class O>
int64_t thirteen_orphans_parts(View<C, 1> counts, View<O, 1> out) {
    using namespace hand_detail;
    int64_t total = 0;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4) return 0;
        total += v;
    }
    if (total != 17) return 0;
    int64_t r[NK];
    for (int64_t k = 0; k < NK; ++k) {
        r[k] = static_cast<int64_t>(counts[k]);
        if (is_orphan_kind(k)) {
            if (r[k] == 0) return 0;
            r[k] -= 1;
        }
    }
    // r holds 4 tiles: the eye's second tile (an orphan) and one set
    int64_t best = 0;
    for (int64_t y = 0; y < NK; ++y) {
        if (r[y] == 0 || !is_orphan_kind(y)) continue;
        r[y] -= 1;
        for (int64_t k = 0; k < NK; ++k) {
            int64_t code = 0;
            int64_t t = py::tiles::MELD_PON;
            if (r[k] == 3) {
                code = is_orphan_kind(k) ? 1 : 2;
            } else if (r[k] == 1 && k < W0 && k % 9 <= 6 && r[k + 1] == 1 && r[k + 2] == 1) {
                code = 2;
                t = py::tiles::MELD_CHI;
            }
            if (code != 0 && (best == 0 || code < best)) {
                best = code;
                out[0] = static_cast<O>(y);
                out[1] = static_cast<O>(t);
                out[2] = static_cast<O>(k);
            }
        }
        r[y] += 1;
    }
    return best;
}

constexpr bool thirteen_code_ok(int64_t code, int64_t shapes) {
    return (code == 1 && (shapes & py::analysis::SHAPE_THIRTEEN_PURE) != 0) ||
           (code == 2 && (shapes & py::analysis::SHAPE_THIRTEEN_MIXED) != 0);
}

template <class C>
bool is_thirteen_orphans(View<C, 1> counts, int64_t shapes) {
    int64_t parts[3];
    return thirteen_code_ok(thirteen_orphans_parts(counts, View<int64_t, 1>::contiguous(parts, {3})), shapes);
}

inline int64_t orphan_cost_change(const int64_t* c, const int64_t* need, const int64_t* ks, int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = ks[i];
        bool dup = false;
        for (int64_t j = 0; j < i; ++j) dup |= ks[j] == k;
        if (dup) continue;
        const int64_t b = is_orphan_kind(k) ? 1 : 0;
        s += std::max<int64_t>(0, need[k] - c[k]) - std::max<int64_t>(0, b - c[k]);
    }
    return s;
}

template <class C>
int64_t thirteen_orphans_shanten(View<C, 1> counts, int64_t shapes) {
    using namespace hand_detail;
    int64_t c[NK];
    int64_t need[NK] = {};
    int64_t base = 0;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4) return An::INVALID;
        c[k] = v;
        if (is_orphan_kind(k)) {
            need[k] = 1;
            base += v == 0;
        }
    }
    const bool pure = (shapes & An::SHAPE_THIRTEEN_PURE) != 0;
    const bool mixed = (shapes & An::SHAPE_THIRTEEN_MIXED) != 0;
    int64_t ks[4];
    int64_t best = HAND_BIG;
    for (int64_t y = 0; y < NK; ++y) {  // the eye
        if (!is_orphan_kind(y)) continue;
        need[y] += 1;
        ks[0] = y;
        for (int64_t k = 0; k < NK; ++k) {
            const bool o = is_orphan_kind(k);
            if ((o && pure) || (!o && mixed && k < W0)) {  // a pon of k
                need[k] += 3;
                if (need[k] <= 4) {
                    ks[1] = k;
                    const int64_t cost = base + orphan_cost_change(c, need, ks, 2);
                    if (cost < best) best = cost;
                }
                need[k] -= 3;
            }
            if (mixed && k < W0 && k % 9 <= 6) {  // a chow from k
                need[k] += 1;
                need[k + 1] += 1;
                need[k + 2] += 1;
                if (need[k] <= 4) {
                    ks[1] = k;
                    ks[2] = k + 1;
                    ks[3] = k + 2;
                    const int64_t cost = base + orphan_cost_change(c, need, ks, 4);
                    if (cost < best) best = cost;
                }
                need[k] -= 1;
                need[k + 1] -= 1;
                need[k + 2] -= 1;
            }
        }
        need[y] -= 1;
    }
    if (best >= HAND_BIG) return An::INVALID;
    return best - 1;
}

template <class C, class O>
bool sixteen_unrelated_suits(View<C, 1> counts, int64_t shapes, View<O, 1> out) {
    using namespace hand_detail;
    const int64_t gap = (shapes & An::SHAPE_UNRELATED_GAP2) ? 2 : 3;
    int64_t total = 0, n2 = 0;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 2) return false;
        total += v;
        n2 += v == 2;
    }
    if (total != 17 || n2 != 1) return false;
    for (int64_t k = W0; k < NK; ++k)
        if (counts[k] == 0) return false;
    for (int64_t s = 0; s < 3; ++s) {
        int64_t last = -100, n = 0, mask = 0;
        for (int64_t i = 0; i < 9; ++i) {
            if (counts[9 * s + i] > 0) {
                if (i - last < gap) return false;
                last = i;
                n += 1;
                mask |= int64_t(1) << i;
            }
        }
        if (n != 3) return false;
        out[s] = static_cast<O>(mask);
    }
    return true;
}

template <class C>
bool is_sixteen_unrelated(View<C, 1> counts, int64_t shapes) {
    int64_t suits[3];
    return sixteen_unrelated_suits(counts, shapes, View<int64_t, 1>::contiguous(suits, {3}));
}

template <class C>
int64_t sixteen_unrelated_shanten(View<C, 1> counts, int64_t shapes) {
    using namespace hand_detail;
    const int64_t gap = (shapes & An::SHAPE_UNRELATED_GAP2) ? 2 : 3;
    for (int64_t k = 0; k < NK; ++k)
        if (counts[k] < 0 || counts[k] > 4) return An::INVALID;
    int64_t total = 0;
    bool eye_free = false;  // some chosen kind is already held twice
    for (int64_t k = W0; k < NK; ++k) {
        total += counts[k] == 0;
        eye_free |= counts[k] >= 2;
    }
    for (int64_t s = 0; s < 3; ++s) {
        int64_t m = HAND_BIG;   // fewest missing tiles over the allowed triples
        int64_t m2 = HAND_BIG;  // the same over triples holding a kind twice
        for (int64_t a = 0; a < 9; ++a)
            for (int64_t b = a + gap; b < 9; ++b)
                for (int64_t c = b + gap; c < 9; ++c) {
                    const int64_t ca = static_cast<int64_t>(counts[9 * s + a]);
                    const int64_t cb = static_cast<int64_t>(counts[9 * s + b]);
                    const int64_t cc = static_cast<int64_t>(counts[9 * s + c]);
                    const int64_t miss = (ca == 0) + (cb == 0) + (cc == 0);
                    if (miss < m) m = miss;
                    if ((ca >= 2 || cb >= 2 || cc >= 2) && miss < m2) m2 = miss;
                }
        total += m;
        eye_free |= m2 == m;
    }
    return total + (eye_free ? 0 : 1) - 1;
}

template <class C>
int64_t special_shape(View<C, 1> counts, int64_t shapes) {
    using namespace hand_detail;
    if ((shapes & An::SHAPE_EIGHT_PAIRS) && is_eight_pairs(counts)) return An::SHAPE_EIGHT_PAIRS;
    if (shapes & An::SHAPE_THIRTEEN) {
        int64_t parts[3];
        const int64_t code = thirteen_orphans_parts(counts, View<int64_t, 1>::contiguous(parts, {3}));
        if (thirteen_code_ok(code, shapes)) return code == 1 ? An::SHAPE_THIRTEEN_PURE : An::SHAPE_THIRTEEN_MIXED;
    }
    if ((shapes & An::SHAPE_SIXTEEN_UNRELATED) && is_sixteen_unrelated(counts, shapes))
        return An::SHAPE_SIXTEEN_UNRELATED;
    return 0;
}

template <class C, class H, class O>
int64_t special_wait_mask(View<C, 1> counts, View<H, 1> held, int64_t shapes, View<O, 1> out) {
    using namespace hand_detail;
    for (int64_t k = 0; k < NK; ++k) out[k] = static_cast<O>(false);
    int64_t c[NK];
    int64_t total = 0;
    int64_t n_orph = 0;  // distinct orphans held
    int64_t n_hon = 0;   // distinct honours held
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t v = static_cast<int64_t>(counts[k]);
        if (v < 0 || v > 4) return 0;
        c[k] = v;
        total += v;
        if (v > 0 && is_orphan_kind(k)) {
            n_orph += 1;
            n_hon += k >= W0;
        }
    }
    if (total != 16) return 0;
    const bool thirteen = (shapes & An::SHAPE_THIRTEEN) != 0 && n_orph >= 12;
    const bool sixteen = (shapes & An::SHAPE_SIXTEEN_UNRELATED) != 0 && n_hon >= 6;
    if (!(thirteen || sixteen)) return 0;
    const auto cv = View<int64_t, 1>::contiguous(c, {NK});
    int64_t parts[3], suits[3];
    const auto pv = View<int64_t, 1>::contiguous(parts, {3});
    const auto sv = View<int64_t, 1>::contiguous(suits, {3});
    int64_t nw = 0;
    for (int64_t k = 0; k < NK; ++k) {
        if (c[k] >= 4 || held[k] >= 4) continue;
        c[k] += 1;
        bool ok = thirteen && thirteen_code_ok(thirteen_orphans_parts(cv, pv), shapes);
        if (!ok && sixteen) ok = sixteen_unrelated_suits(cv, shapes, sv);
        c[k] -= 1;
        if (ok) {
            out[k] = static_cast<O>(true);
            nw += 1;
        }
    }
    return nw;
}

// ---------------------------------------------------------------------------------------------
// Shapes chosen by flags (SHAPE_EIGHT_PAIRS, SHAPE_THIRTEEN_*, SHAPE_SIXTEEN_UNRELATED)

template <class C>
bool is_win(View<C, 1> counts, int64_t n_sets, int64_t shapes) {
    using namespace hand_detail;
    if (is_complete(counts, n_sets)) return true;
    if ((shapes & An::SHAPE_EIGHT_PAIRS) && n_sets == An::MAX_SETS && is_eight_pairs(counts)) return true;
    if ((shapes & (An::SHAPE_THIRTEEN | An::SHAPE_SIXTEEN_UNRELATED)) && n_sets == An::MAX_SETS)
        return special_shape(counts, shapes) != 0;
    return false;
}

template <class C>
int64_t win_shanten(View<C, 1> counts, int64_t n_sets, int64_t shapes) {
    using namespace hand_detail;
    int64_t s = shanten(counts, n_sets);
    if ((shapes & An::SHAPE_EIGHT_PAIRS) && n_sets == An::MAX_SETS) s = std::min(s, eight_pairs_shanten(counts));
    if ((shapes & An::SHAPE_THIRTEEN) && n_sets == An::MAX_SETS)
        s = std::min(s, thirteen_orphans_shanten(counts, shapes));
    if ((shapes & An::SHAPE_SIXTEEN_UNRELATED) && n_sets == An::MAX_SETS)
        s = std::min(s, sixteen_unrelated_shanten(counts, shapes));
    return s;
}

template <class C, class H, class O>
int64_t win_wait_mask(View<C, 1> counts, int64_t n_sets, View<H, 1> held, int64_t shapes, View<O, 1> out) {
    using namespace hand_detail;
    wait_mask(counts, n_sets, held, out);
    if ((shapes & An::SHAPE_EIGHT_PAIRS) && n_sets == An::MAX_SETS) {
        std::array<bool, NK> extra{};
        eight_pairs_wait_mask(counts, held, View<bool, 1>::contiguous(extra.data(), {NK}));
        for (int64_t k = 0; k < NK; ++k)
            if (extra[k]) out[k] = static_cast<O>(true);
    }
    if ((shapes & (An::SHAPE_THIRTEEN | An::SHAPE_SIXTEEN_UNRELATED)) && n_sets == An::MAX_SETS) {
        std::array<bool, NK> extra{};
        special_wait_mask(counts, held, shapes, View<bool, 1>::contiguous(extra.data(), {NK}));
        for (int64_t k = 0; k < NK; ++k)
            if (extra[k]) out[k] = static_cast<O>(true);
    }
    int64_t nw = 0;
    for (int64_t k = 0; k < NK; ++k)
        if (out[k]) nw += 1;
    return nw;
}

}  // namespace tw16
