// The end of a hand (envs/engine/handend.py): wall accounting, flower wins, wins and drawn hands,
// scoring and settlement. finish_* record the result, settle chips through the one settlement
// (settle.hpp, the code `tw16 score` runs too) and leave the game in PH_HAND_OVER; the step driver
// (step.hpp) then deals the next hand or ends the episode.
#pragma once
#include <cstdint>
#include <utility>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/wall.hpp"

namespace tw16 {

// Tiles that may still be drawn in game b (wall.hpp's tiles_left).
inline int64_t drawable(const State& S, int64_t b, Opts opts) { return tiles_left(S.g[b], opts); }

// Bits set among the low 8 of x (flower bits).
int64_t popcount8(int64_t x);

// Reset the last hand's result rows (res_tai -1, res_items 0, res_delta 0).
void clear_result(const State& S, int64_t b);

// Add deltas (4, chips) to res_delta and scores, and deltas / per_tai (float32) to rewards.
void apply_deltas(const State& S, int64_t b, View<int64_t, 1> deltas, Opts opts);

// Write the record of the hand that just ended (finish_*): rec row G_HANDS mod HAND_LOG, from g and
// res_*. tile: the winning tile's kind, -1 when none.
void record_hand(const State& S, int64_t b, int64_t tile);

// The hand's chips: its legs (legs(x, y): chips x owes y, settle.hpp's owe), paid in full
// (pay_in_full) or through the 拉 ledger (settlement "la" in a game), plus the side payments made
// during the hand (P_SIDE, cleared).
void pay_hand(const State& S, int64_t b, View<int64_t, 2> legs, bool drawn, Opts opts);

// A drawn hand (流局): settle (no legs), record RES_DRAWN, phase PH_HAND_OVER.
void finish_drawn(const State& S, int64_t b, Opts opts);

// The replacement flags of a win on the tile just drawn (F_KONG_REPLACEMENT / F_FLOWER_REPLACEMENT
// from G_DRAWSRC, and the replacement chain of 連槓開花): 0 for a front draw.
int64_t replacement_flags(View<int64_t, 1> g);

// Situational flags (codes F_*) for seat w winning now by win_by, and whether the win has no tile
// (天胡: the whole 17-tile hand is scored with win_tile = -1).
// The 地胡 / 人胡 flag (F_EARTHLY, F_HUMAN or 0) of seat w winning game b by win_by (self-draw or a
// discard) as the rule option early_wins times them (PROFILES.md, PLATFORMS.md 3.3).
int64_t early_win_flag(const State& S, int64_t b, int64_t w, int64_t win_by, Opts opts);

std::pair<int64_t, bool> win_flags(const State& S, int64_t b, int64_t w, int64_t win_by, Opts opts);

// hongkong context (HONGKONG.md 6): 一發, robbed-kong kinds, co-winners, discards, floor.
int64_t hk_flags(const State& S, int64_t b, int64_t w, int64_t win_by);

// Score and settle every winner in the bitmask winners. tile: the claimed tile for discard /
// robbed-kong wins, otherwise ignored. payer: discarder, konger, single-flower seat, or -1.
void finish_win(const State& S, int64_t b, int64_t winners, int64_t win_by, int64_t payer, int64_t tile, Opts opts,
                const Prof& prof);

// 八仙過海 / 七搶一 (RULES 2.9): settle and return true when a seat wins on flowers now. With
// flower_win "offer" the win is only recorded in G_OFFER (asked in PH_FLOWER) unless passed.
bool check_flower_win(const State& S, int64_t b, Opts opts, const Prof& prof);

// Seat s wins on flowers (payer -1: all pay), or is offered the win (flower_win "offer").
bool flower_win(const State& S, int64_t b, int64_t s, int64_t payer, Opts opts, const Prof& prof);

}  // namespace tw16
