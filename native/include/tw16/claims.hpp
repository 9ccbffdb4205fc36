// Who may claim the tile in question, and with what (RULES 2.5-2.8).
//
// Claim options are computed once when the tile appears (a discard or an added kong) and kept per
// seat in p[:, P_CLAIM] as C_* bits; the mask and the resolution both read them.
// The helpers take one game's rows (g = S.g[b], p = S.p[b], hands = S.hands[b], h = a seat's
// concealed counts hands[b][s], ps = its scalars p[b][s]), not the state.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/score.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"
#include "tw16/wall.hpp"

namespace tw16 {

// Cheap necessary condition for h (+ one t unless t < 0) to be a winning shape, valid for the
// standard shape and eight pairs; it skips most calls into the full check (the hot path of every
// discard). With 十三么 / 十六不搭 shapes enabled it never rejects. Inline: hot, allocation-free.
inline bool may_win(View<int8_t, 1> h, int64_t t, int64_t shapes) {
    namespace An = py::analysis;
    if (shapes & (An::SHAPE_THIRTEEN | An::SHAPE_SIXTEEN_UNRELATED)) return true;
    if (t >= 0 && h[t] == 0) {  // an isolated tile completes nothing
        if (t >= 27) return false;
        const int64_t r = t % 9;
        const bool near = (r >= 1 && h[t - 1] > 0) || (r >= 2 && h[t - 2] > 0) || (r <= 7 && h[t + 1] > 0) ||
                          (r <= 6 && h[t + 2] > 0);
        if (!near) return false;
    }
    if (shapes != 0) return true;
    // standard shape: every suit 0 or 2 mod 3, honours 0, 2 or 3, exactly one pair group
    int64_t pairs = 0;
    for (int64_t k = 27; k < 34; ++k) {  // honours first: a lone honour rejects most hands in 7 reads
        const int64_t c = h[k] + (k == t ? 1 : 0);
        if (c == 1 || c == 4) return false;
        if (c == 2) ++pairs;
    }
    for (int64_t su = 0; su < 3; ++su) {
        int64_t n = 0;
        for (int64_t k = 9 * su; k < 9 * su + 9; ++k) n += h[k];
        if (t >= 0 && t / 9 == su && t < 27) ++n;
        const int64_t r = n % 3;
        if (r == 1) return false;
        if (r == 2) ++pairs;
    }
    return pairs == 1;
}

// Would the hand h (a seat's concealed counts) plus one t be a winning shape? (h is restored) With
// t < 0: is h itself one (a self-draw)? The one win-shape test of the engine. Forced inline: every
// caller passes t < 0 or a tile, so the branch folds away as it did where the test was written out
// (out of line it cost random play 2.3% more instructions under callgrind).
TW16_ALWAYS_INLINE inline bool wins_with(View<int8_t, 1> h, int64_t n_melds, int64_t t, View<int64_t, 1> p_opts) {
    if (t < 0) return may_win(h, -1, p_opts[py::profile::PO_SHAPES]) && winning_shape(h, 5 - n_melds, p_opts);
    if (h[t] >= 4 || !may_win(h, t, p_opts[py::profile::PO_SHAPES])) return false;
    h[t] = static_cast<int8_t>(h[t] + 1);
    const bool ok = winning_shape(h, 5 - n_melds, p_opts);
    h[t] = static_cast<int8_t>(h[t] - 1);
    return ok;
}

// May the seat with scalars ps and concealed counts h win on tile t as it appears, a discard or a kong
// being robbed (ankong: the robbed kong is an ankong, which only 十三么 may rob)? Not under 過水
// (P_PASS_WIN), and h plus t a winning shape. The one discard-win test: the claim options, the rob and
// the search's resampled hands all ask it. (h is restored)
bool may_win_on(View<int64_t, 1> ps, View<int8_t, 1> h, int64_t t, bool ankong, View<int64_t, 1> p_opts);

// A kong needs a drawable tile for its replacement (after the dead wall grows, if it does).
inline bool kong_allowed(View<int64_t, 1> g, Opts opts) {
    const int64_t extra = opts[py::options::OPT_DEAD_WALL_PER_KONG] ? 1 : 0;
    return sub_wrap(tiles_left(g, opts), extra) >= 1;
}

// 食替 (swap_call off): after a chi of the claimed kind t into the chow of lowest kind lo, the seat may
// discard neither t nor the other kind that completes a chow with the two tiles used (45 + 3 -> 6, 45 +
// 6 -> 3). The second banned kind, -1 when none. The one definition: the chi's offer and the mask.
inline int64_t swap_ban_other(int64_t t, int64_t lo) {
    if (lo == t && pymod(t, 9) <= 5) return t + 3;      // claimed low
    if (lo == t - 2 && pymod(t, 9) >= 3) return t - 3;  // claimed high
    return -1;
}

// After a chi using used1/used2, is some discard left? With swap_call off the claimed kind and
// swap_ban_other are banned (食替).
bool chi_has_discard(View<int8_t, 1> h, int64_t t, int64_t lo, int64_t used1, int64_t used2, bool swap_ok);

// C_* bits for seat s (its scalars ps, hand h) on d's discard of kind t.
int64_t claim_options(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, int64_t s, int64_t d, int64_t t,
                      Opts opts, View<int64_t, 1> p_opts);

// The next seat counter-clockwise after `after` (towards the turn seat) still to answer, or -1.
int64_t next_asked(View<int64_t, 1> g, View<int64_t, 2> p, int64_t after);

// After the turn seat discards t: compute every seat's options; true if someone is asked
// (then PH_CLAIM, G_CUR = the first seat asked).
bool open_claims(View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, int64_t t, Opts opts,
                 View<int64_t, 1> p_opts);

// Does k complete the meld-less hand h as 十三么? (the only hand that robs an ankong; h restored)
bool robs_as_thirteen(View<int8_t, 1> h, int64_t n_melds, int64_t k, View<int64_t, 1> p_opts);

// The turn seat adds a kong of k: who may rob it (win only). An ankong (hongkong only) may be
// robbed only by a hand that k completes as 十三么. True if someone is asked (PH_ROB).
bool open_rob(View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, int64_t k, bool ankong,
              View<int64_t, 1> p_opts);

// No seat has an option, nobody has answered.
void clear_claims(View<int64_t, 2> p);

}  // namespace tw16
