// The readings of a hand (its melds and every decomposition of its concealed tiles) and the profile
// applied to item multiplicities (replacements, reductions, the tie rule of RULES.md 3), shared by the
// scoring core (score.hpp) and the hongkong scorer (hongkong.hpp).
// (The dealer tai of a payment leg is settlement: settle.hpp.)
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// ---------------------------------------------------------------------------------------------
// Readings

// Number of set bits of x (x >= 0: flower masks).
inline int64_t popcount(int64_t x) { return __builtin_popcountll(static_cast<uint64_t>(x)); }

// What the concealed tiles (with the winning tile) are: 1 a winning hand; 0 a flower win without a
// complete hand (only its flower items count); -1 no win at all.
int64_t hand_kind(View<int8_t, 1> concealed, int64_t n_sets, int64_t win_by, int64_t shapes);

// Tiles per kind of the whole hand into `counts` (int8[34]): the concealed ones and the melds' (a
// kong counts 4). (Python returns a new array; here the caller passes it.)
void all_tiles(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
               View<int8_t, 1> counts);

// The kinds the hand waited on before its winning tile (into `waits`, bool[34]); returns how many.
// The concealed tiles before that tile go into `before` (int8[34]; Python returns them).
int64_t waits_before_win(View<int8_t, 1> concealed, View<int8_t, 1> all_counts, int64_t win_tile, int64_t n_sets,
                         int64_t shapes, View<bool, 1> waits, View<int8_t, 1> before);

// The set arrays of a reading (type, kind, concealed; 5 sets: `st`, `sk`, `sc`) with the `n_melds`
// melds filled in (the rest zeroed), and every decomposition of the concealed tiles into a pair and
// `n_sets` sets into `dec` (MAX_DECOMPOSITIONS rows, >= 1 + 2 * n_sets columns:
// dec[d] = pair, type_1, kind_1, ...); returns n_dec. (Python returns (st, sk, sc, dec, n_dec).)
int64_t readings(View<int8_t, 1> concealed, int64_t n_sets, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind,
                 int64_t n_melds, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> sc, View<int8_t, 2> dec);

// Fill the concealed sets of decomposition `d` after the melds; returns its pair.
int64_t use_decomposition(View<int8_t, 2> dec, int64_t d, int64_t n_melds, int64_t n_sets, View<int8_t, 1> st,
                          View<int8_t, 1> sk, View<bool, 1> sc);

// Fixed-size scratch for readings(): the caller's stack buffers and views over them.
struct ReadingBuf {
    int8_t st[5] = {};
    int8_t sk[5] = {};
    bool sc[5] = {};
    int8_t dec[py::analysis::MAX_DECOMPOSITIONS][py::analysis::DEC_WIDTH] = {};
    View<int8_t, 1> st_v() { return View<int8_t, 1>::contiguous(st, {5}); }
    View<int8_t, 1> sk_v() { return View<int8_t, 1>::contiguous(sk, {5}); }
    View<bool, 1> sc_v() { return View<bool, 1>::contiguous(sc, {5}); }
    View<int8_t, 2> dec_v() {
        return View<int8_t, 2>::contiguous(&dec[0][0], {py::analysis::MAX_DECOMPOSITIONS, py::analysis::DEC_WIDTH});
    }
};

// Can the winning tile sit at place pos of a reading: the pair (pos -1) or a concealed set (pos >=
// n_melds) holding its kind (a chow: any of its three kinds)?
inline bool tile_sits(int64_t pos, int64_t pair, View<int8_t, 1> st, View<int8_t, 1> sk, int64_t n_melds,
                      int64_t win_tile) {
    if (pos == -1) return pair == win_tile;
    if (pos < n_melds) return false;
    const int64_t k = sk[pos];
    return k == win_tile || (st[pos] == py::tiles::MELD_CHI && k < win_tile && win_tile <= k + 2);
}

// The loop of both scorers (score.cpp, hongkong.cpp) over the readings of a hand: every decomposition
// of the concealed tiles, after the melds (rb.st / sk / sc hold the reading), and in each every place
// pos of the winning tile, in order -2 (no place), -1 (the pair), 0..4 (a set). places(pos, pair)
// says which places the scorer reads (most call tile_sits, and only where the cheaper tests pass: this
// runs for every place of every decomposition); score(pair, pos) scores that reading.
// The loop and both callbacks are forced inline (TW16_ALWAYS_INLINE, on the scorers' lambdas too): out
// of line, the item functions a reading calls (set_items, reading_extras, apply_profile) see their
// scratch views through the lambda's captures, so the link-time optimiser can no longer specialise them
// for the stack buffers' constant shapes and strides, and a full scoring with the extras cost 4.7%
// more instructions (issue 28).
template <class Places, class Score>
TW16_ALWAYS_INLINE inline void for_each_reading(View<int8_t, 1> concealed, int64_t n_sets, View<int8_t, 1> meld_type,
                                                View<int8_t, 1> meld_kind, int64_t n_melds, ReadingBuf& rb,
                                                Places places, Score score) {
    const auto st = rb.st_v(), sk = rb.sk_v();
    const auto sc = rb.sc_v();
    const auto dec = rb.dec_v();
    const int64_t n_dec = readings(concealed, n_sets, meld_type, meld_kind, n_melds, st, sk, sc, dec);
    for (int64_t d = 0; d < n_dec; ++d) {
        const int64_t pair = use_decomposition(dec, d, n_melds, n_sets, st, sk, sc);
        for (int64_t pos = -2; pos < 5; ++pos)
            if (places(pos, pair)) score(pair, pos);
    }
}

// ---------------------------------------------------------------------------------------------
// The profile applied: exclusions, reductions, the tie rule

// Tai per item into `out` (and which items count into `kept`) from multiplicities `v`; returns the
// total. Only the profile's own items are visited (p_tai[3], in table order), so a longer item
// registry does not slow a short table down; entries of other items are left as they are (callers
// pass zeroed arrays).
int64_t apply_profile(View<int32_t, 1> v, View<int32_t, 2> p_tai, View<int8_t, 2> p_repl, View<int32_t, 1> out,
                      View<bool, 1> kept);

// Tie rule (RULES.md 3): does item list `a` come first in table order? Compared position by position
// by rank; a list that runs out first comes first.
bool comes_first(View<bool, 1> kept_a, View<bool, 1> kept_b, View<int32_t, 2> p_tai);

// Score reading `v`; if it beats the best so far, copy it over. Returns the new best total. (Defined
// here and forced inline: it runs once per reading in both scorers; out of line it cost 0.4% of the
// instructions of a full scoring.)
TW16_ALWAYS_INLINE inline int64_t consider_reading(View<int32_t, 1> v, View<int32_t, 2> p_tai, View<int8_t, 2> p_repl,
                                                   View<int32_t, 1> tmp, View<bool, 1> tmp_kept, View<int32_t, 1> best,
                                                   View<bool, 1> best_kept, int64_t best_total) {
    const int64_t total = apply_profile(v, p_tai, p_repl, tmp, tmp_kept);
    if (total > best_total || (total == best_total && comes_first(tmp_kept, best_kept, p_tai))) {
        for (int64_t r = 0; r < py::codes::N_ITEMS; ++r) {  // the profile's items; the others stay 0
            const int64_t i = p_tai(3, r);
            if (i < 0) break;
            best[i] = tmp[i];
            best_kept[i] = tmp_kept[i];
        }
        return total;
    }
    return best_total;
}

}  // namespace tw16
