// Hand analysis: completeness, shanten, waits, decompositions, eight_pairs, 十三么, 十六不搭.
// The port of envs/hand/analysis.py (every @njit function, same names, same parameter order, same
// results) and of the @njit functions of envs/hand/bench.py.
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

// _codes: ((m, p, s, honour codes), (their tile counts)); c[0] is -1 if a count is not 0..4.
struct HandCodes {
    int64_t c[4];
    int64_t n[4];
};
template <class C>
HandCodes _codes(View<C, 1> counts);

// _combine4: min over splits of n sets and 1 pair among four table rows (columns 2*m + p).
inline int64_t _combine4(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3, int64_t n);

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
std::array<bool, 34> wait_array(View<C, 1> counts, int64_t n_sets, View<H, 1> held);

// ---------------------------------------------------------------------------------------------
// Decompositions

// All distinct decompositions of a complete hand into one pair and n_sets sets. Row layout of out
// (shape (rows, >= 1 + 2*n_sets), e.g. (MAX_DECOMPOSITIONS, DEC_WIDTH)): [pair_kind, type_0, kind_0,
// type_1, kind_1, ...], type CHI (0) or PON (1), kind the set's lowest kind; columns past
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

constexpr bool _is_orphan(int64_t k);
// 17 tiles as 十三么: 0 no, 1 pure (the set is a pon of an orphan), 2 mixed (a chow or a pon of a
// 2-8). Writes out[0] = the eye's kind, out[1] = the set's type (CHI/PON), out[2] = its lowest kind.
template <class C, class O>
int64_t thirteen_orphans_parts(View<C, 1> counts, View<O, 1> out);
constexpr bool _thirteen_code_ok(int64_t code, int64_t shapes);
template <class C>
bool is_thirteen_orphans(View<C, 1> counts, int64_t shapes);
// Change of sum(max(0, need - c)) over the distinct kinds ks[:n] against a need of 1 per orphan
// (c, need: 34 int64 scratch counts; ks: n kinds).
inline int64_t _extra_cost(const int64_t* c, const int64_t* need, const int64_t* ks, int64_t n);
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
// envs/hand/bench.py: the hand makers and timing loops over (n, 34) int8 arrays (hand.cpp).

// numba's np.random inside @njit code (MT19937 with numba's seeding and randint), so the makers
// below give the very hands the Numba ones give for a seed.
struct NumbaNpRandom {
    uint32_t mt[624];
    int index = 624;
    void seed(int64_t s);      // np.random.seed(s): numba_rnd_init(uint32(s))
    uint32_t next_u32();       // tempered MT output
    double random();           // np.random.random()
    int64_t randint(int64_t n);  // np.random.randint(n), n >= 1
};

void _random_complete(View<int8_t, 2> out, int64_t n_sets, int64_t seed);
void _perturb(View<int8_t, 2> hands, int64_t seed, double frac);
void _drop_one(View<int8_t, 2> hands, int64_t seed);
void _random_wall_hands(View<int8_t, 2> out, int64_t n_tiles, int64_t seed);
int64_t _loop_complete(View<int8_t, 2> hands, int64_t n_sets);
int64_t _loop_shanten(View<int8_t, 2> hands, int64_t n_sets);
int64_t _loop_waits(View<int8_t, 2> hands, int64_t n_sets);
int64_t _loop_decompositions(View<int8_t, 2> hands, int64_t n_sets);
int64_t _loop_discard_shanten(View<int8_t, 2> hands, int64_t n_sets);

}  // namespace tw16

// ---------------------------------------------------------------------------------------------
// Template definitions: below (in progress).
