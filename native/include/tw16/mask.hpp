// The legal action mask of the seat to decide (one game).
// Helpers on one game's rows (hands = S.hands[b], melds = S.melds[b], g = S.g[b], p = S.p[b]);
// h = a seat's concealed counts, ms = its melds (5, 3), ps = its scalars.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// cfg[CFG_READY_MODE] (py::mask::CFG_READY_MODE): which ready declarations the profile scores
// (READY_NONE, READY_HEAVEN_EARTH, READY_DECLARED, READY_HK in py::mask).

// Tiles of kind k a seat holds, in hand h and in its nm melds ms.
int64_t held_all(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, int64_t k);

// Does the (16 - 3 nm)-tile hand h wait on some kind the seat does not hold all four of?
bool is_ready_hand(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, View<int64_t, 1> p_opts);

// is_ready_hand after discarding one d (h restored).
bool ready_after_discard(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, int64_t d, View<int64_t, 1> p_opts);

// Every one of the nm melds is a concealed kong.
bool is_concealed(View<int8_t, 2> ms, int64_t nm);

// Has some seat made a chi, pon or exposed kong this hand (an added kong follows a pon)? Concealed
// kongs do not count: they close neither the MIGI ready window nor the first go-around (PLATFORMS.md 3).
bool any_claimed(View<int64_t, 2> p, View<int8_t, 3> melds);

// The ready flag (F_HEAVENLY_READY, F_EARTHLY_READY, or 0: none) a 天聽 / 地聽 declaration by seat
// earns now under the ready windows (PLATFORMS.md 3.2): at_deal, the non-dealer's declaration after the
// initial flowers (PH_READY0); otherwise the one made with the seat's next discard. ps = p[seat].
int64_t ready_window_flag(View<int64_t, 1> g, View<int64_t, 1> ps, int64_t seat, bool at_deal, bool claimed, Opts opts,
                          Cfg cfg);

// READY on the seat's turn: 天聽 / 地聽 while a window admits it (strict16, the platform profiles),
// 宣告聽牌 (casual, concealed) or 報聽 (hongkong, any hand); never in the turn of a chi or pon.
// claimed = any_claimed of the game.
bool can_declare_ready(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, View<int8_t, 2> ms, Opts opts,
                       Cfg cfg, View<int64_t, 1> p_opts, bool claimed);

// May the turn seat declare a self-drawn win now?
bool turn_win_ok(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, Opts opts, View<int64_t, 1> p_opts);

// The legal actions of one game into m (= S.mask[b], N_ACTIONS bools), from its rows.
// done = S.terminated[b]: every action allowed.
void mask_rows(View<bool, 1> m, View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, View<int8_t, 3> melds,
               bool done, Opts opts, Cfg cfg, View<int64_t, 1> p_opts);

}  // namespace tw16
