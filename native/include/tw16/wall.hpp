// Walls, dealing, draws and flower replacement (RULES 2.1-2.4, 2.8, 2.9).
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// py::tiles::FLOWER_ID0: physical ids 136..143 are the flowers f1..f8.

// Tiles that may still be drawn (front or tail) in the game of scalar row g: the rest of the wall
// minus the dead wall (which grows by one per kong with dead_wall_per_kong). The one definition of
// "tiles left": the engine, the claims, the observations and Engine.wall_drawable use it. (Inline: on
// every discard and draw; wraps on garbage, see add_wrap.)
inline int64_t tiles_left(View<int64_t, 1> g, Opts opts) {
    int64_t dead = opts[py::options::OPT_DEAD_WALL];
    if (opts[py::options::OPT_DEAD_WALL_PER_KONG]) dead = add_wrap(dead, g[py::state::G_NKONG]);
    return sub_wrap(add_wrap(sub_wrap(g[py::state::G_TAIL], g[py::state::G_HEAD]), 1), dead);
}

// This hand's wall: the next scripted one if any is left, else a fresh shuffle (Fisher-Yates on
// the game's own stream).
void fill_wall(const State& S, int64_t b, Opts opts);

// Draw one playing tile into seat's hand, exposing flowers and replacing them from the tail
// (repeat). Returns true when the hand ended: no drawable tile (流局; a flower drawn last is exposed
// and a flower win still checked), or a flower win (checked after the replacement draw).
bool draw_tile(const State& S, int64_t b, int64_t seat, bool from_tail, int64_t src, Opts opts, const Prof& prof);

// No drawable tile is left: the hand is drawn, after a flower win is checked (and, when offered,
// asked first: PH_FLOWER with G_OFFER_DRAWN). Returns true (the hand ended or waits for that answer).
bool wall_out(const State& S, int64_t b, bool got_flower, Opts opts, const Prof& prof);

// Deal physical tile t (0..143) to seat: a flower is held aside (P_HELD_FLOWERS), else counted.
void deal_tile(const State& S, int64_t b, int64_t seat, int64_t t);

// Wall, deal (16 each from the front, dealer first, then the dealer's 17th), initial flowers.
// Returns true if the hand already ended (a flower win, or no tile left for a replacement).
bool deal(const State& S, int64_t b, Opts opts, const Prof& prof);

}  // namespace tw16
