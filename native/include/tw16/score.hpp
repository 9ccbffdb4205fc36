// Which items a winning hand holds, the profile applied (RULES.md 3). Settlement (RULES.md 4): settle.hpp.
//
// Shared: `tw16 score` calls it through envs.scoring.api and the engine calls it at the end of every
// hand. Inputs are plain arrays:
//     concealed   int8[34]   the winner's concealed tiles INCLUDING the winning tile
//     meld_type   int8[>=5]  MELD_CHI/MELD_PON/MELD_KONG/MELD_ADDKONG/MELD_ANKONG (envs.tiles), first n_melds used
//     meld_kind   int8[>=5]  lowest kind of each meld
//     flowers     bit i set = flower f(i+1) held
//     win_tile    kind, or -1 (heavenly hand, flower win): then no wait is judged
//     win_by      WIN_* (envs.scoring.codes)
//     seat_wind, round_wind  0..3 = E S W N (seat wind = (seat - dealer) % 4)
//     flags       F_* bits (envs.scoring.codes)
//     prof        Profile.compiled(): p_tai, p_repl, p_opts
//
// A profile naming extras items or MCR detectors (p_opts[PO_EXTRAS]) also gets the predicates of
// extras.hpp; without them the extra work is one test per reading. Special shapes (嚦咕嚦咕, 十三么,
// 十六不搭; p_opts[PO_SHAPES]) are scored as one more reading each.
//
// The highest-scoring reading counts: every decomposition of the hand, and for a win on a discard
// every group the winning tile can be read into (identical tiles are interchangeable), is scored and
// the best total kept; equal totals go to the item list that comes first in table order (RULES.md 3).
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// ---------------------------------------------------------------------------------------------
// Shapes

// Is `counts` (concealed, with the candidate tile) a winning hand under the profile's shapes?
bool winning_shape(View<int8_t, 1> counts, int64_t n_sets, View<int64_t, 1> p_opts);

// ---------------------------------------------------------------------------------------------
// Items that do not depend on how the hand is read

// 花 items: flower sets (花槓), seat flowers, 八仙過海 / 七搶一 on a flower win.
void flower_items(View<int32_t, 1> v, int64_t flowers, int64_t seat_wind, int64_t win_by, View<int8_t, 2> p_repl);

// 混一色 / 清一色 / 字一色.
void suit_items(View<int32_t, 1> v, View<int8_t, 1> all_counts);

void base_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, int64_t n_open, bool any_open, int64_t flowers,
                int64_t win_by, int64_t seat_wind, int64_t flags, bool single, View<int64_t, 1> p_opts,
                View<int8_t, 2> p_repl);

// ---------------------------------------------------------------------------------------------
// Items of one reading: sets (melds + concealed sets), the pair, where the winning tile sits.
// `win_pos` = index of the concealed set holding a winning discard (-1: the pair, or not a discard
// win).
void set_items(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
               int64_t n, int64_t pair, int64_t win_pos, int64_t win_tile, int64_t seat_wind, int64_t round_wind,
               bool two_sided_ok);

// ---------------------------------------------------------------------------------------------
// Hand tai of a win (items into out_items, int32[N_ITEMS]), or -1 if the tiles are not a winning
// hand. A flower win (八仙過海 / 七搶一) with 16 - 3 x melds concealed tiles scores its flower items
// only; with a complete hand it adds the hand's items, read as self-drawn with no wait. A hongkong
// profile (p_opts[PO_HONGKONG]) is scored by hk_score (hongkong.hpp), with the same arguments.
int64_t score_hand(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                   int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind,
                   int64_t flags, const Prof& prof, View<int32_t, 1> out_items);

// ---------------------------------------------------------------------------------------------
// Batches (no Python counterpart: the binding score_batch)

// Hand i of a batch is row i of every array (the arguments of score_hand).
struct HandBatch {
    View<int8_t, 2> concealed;                                                          // (n, 34)
    View<int8_t, 2> meld_type;                                                          // (n, >= 5)
    View<int8_t, 2> meld_kind;                                                          // (n, >= 5)
    View<int64_t, 1> n_melds, flowers, win_tile, win_by, seat_wind, round_wind, flags;  // (n,)
    int64_t size() const { return concealed.shape[0]; }
};

// score_hand of every hand: out_tai[i] (int64) and out_items[i] (int32[N_ITEMS]). Big batches run
// on parallel threads; results do not depend on the thread count.
void score_batch(const HandBatch& h, const Prof& prof, View<int64_t, 1> out_tai, View<int32_t, 2> out_items);

// tw16/bench/scoring.py _score_all: score and settle (settle.hpp, the engine's settlement) every hand
// `reps` times on one thread (ctx columns: win_tile, win_by, seat, round, flowers); returns the sum of
// hand tai.
int64_t bench_score_all(View<int8_t, 2> conc, View<int8_t, 2> mt, View<int8_t, 2> mk, View<int64_t, 1> nm,
                        View<int64_t, 2> ctx, const Prof& prof, Opts opts, int64_t reps);

}  // namespace tw16
