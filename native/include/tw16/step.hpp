// One game's transitions (envs/engine/step.py): reset, step, claim resolution, hand and episode
// ends; and the batch loops (each game independent, so batch 1 and batch N run the same code and a
// batch split over threads gives the same result).
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"

namespace tw16 {

// -- turns ----------------------------------------------------------------------------------
// seat takes the turn; with draw it draws from the front first. True if the hand ended.
bool begin_turn(const State& S, int64_t b, int64_t seat, bool draw, Opts opts, const Prof& prof);
void add_meld(const State& S, int64_t b, int64_t seat, int64_t mtype, int64_t kind, int64_t frm);
// Move one k from the seat's hand to the end of the river (unclaimed, with the RV_* bits).
void to_river(const State& S, int64_t b, int64_t seat, int64_t k, int64_t bits);
void discard(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, Cfg cfg, const Prof& prof);
// Nobody claimed the last discard: 一路歸西 check, then the next seat draws.
void no_claim(const State& S, int64_t b, Opts opts, const Prof& prof);
void do_addkong(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, const Prof& prof);
void do_ankong(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, const Prof& prof);
void turn_action(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof);

// -- claims ---------------------------------------------------------------------------------
// Seats that answered WIN (all with multi_win, else the nearest counter-clockwise: 截胡); seats
// that could have won and did not are barred by 過水. (One game's rows g = S.g[b], p = S.p[b].)
int64_t collect_winners(View<int64_t, 1> g, View<int64_t, 2> p, Opts opts);
void resolve_claims(const State& S, int64_t b, Opts opts, const Prof& prof);
// A robbed kong (RULES 2.6): the kong is cancelled, the konger pays, and the tile leaves the konger's
// hand: it lies in the river as the konger's discard won on (to_river with RV_WON_ON), as a winning
// discard does (RULES 3: a robbed kong counts as a discard); the winners are scored with it.
void resolve_rob(const State& S, int64_t b, Opts opts, const Prof& prof);
// flower_win "offer": ask the seat recorded in G_OFFER before the turn seat acts.
void open_offer(View<int64_t, 1> g);
// WIN takes the flower win; PASS is final for the hand and the turn seat goes on.
void answer_offer(const State& S, int64_t b, int64_t a, Opts opts, const Prof& prof);
// PH_LA_CUT for the lowest pending debt d -> c (bit 4d + c of G_LA_ASK); false when none.
bool ask_la_cut(const State& S, int64_t b);
// WIN: the debtor cuts (pays R in full now); PASS: keeps the debt. Then the next question or hand.
void answer_la_cut(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof);

// -- hands and episodes ---------------------------------------------------------------------
// 天聽: after the initial flowers each ready non-dealer may declare (strict16 profiles).
bool open_ready0(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof);
void start_hand(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof);
// A hand just ended: move the deal (RULES 2.10), then end the episode or deal again.
void after_hand(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof);
// The game is over: every open 拉 debt is paid in full (HONGKONG.md 5.3).
void end_episode(const State& S, int64_t b, Opts opts);
void reset_game(const State& S, int64_t b, uint64_t seed, int64_t script_start, Opts opts, Cfg cfg, const Prof& prof);
// Apply seat current_player's action a (assumed legal) to game b.
void step_game(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof);

// -- batch loops (step.py's parallel loops and their serial twins, as one function each) --------
void reset_batch(const State& S, View<const uint64_t, 1> seeds, Opts opts, Cfg cfg, const Prof& prof);
// Auto-reset: redeal the games in which (scripted walls are not reused).
void reset_some(const State& S, View<const uint64_t, 1> seeds, View<const bool, 1> which, Opts opts, Cfg cfg,
                const Prof& prof);
void step_batch(const State& S, View<const int64_t, 1> actions, Opts opts, Cfg cfg, const Prof& prof);
// Step only the games in active.
void step_some(const State& S, View<const int64_t, 1> actions, View<const bool, 1> active, Opts opts, Cfg cfg,
               const Prof& prof);

}  // namespace tw16
