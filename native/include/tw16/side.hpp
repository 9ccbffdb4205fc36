// hongkong side payments (HONGKONG.md 4): paid at once in 底 (the base stake), never part of 拉.
// They accumulate per seat in p[:, P_SIDE] (chips, each payment
// rounded to a whole chip, halves up) and are paid with the hand's other chips when it ends
// (drawn hands included). p = S.p[b] (4, NP).
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// halves half-底 in chips, rounded half up.
inline int64_t base_chips(Opts opts, int64_t halves) {
    return floordiv(add_wrap(mul_wrap(opts[py::options::OPT_BASE], halves), 1), 2);
}

// Each other seat pays seat `chips`.
void all_pay(View<int64_t, 2> p, int64_t seat, int64_t chips);

// 一臺花 (1 底 each, per set, when it completes) and 一臺草 (½ 底 each, once, never after 一臺花),
// after seat's flowers changed.
void flower_side(View<int64_t, 2> p, int64_t seat, Opts opts);

// The dealer's three dice for the hand, from the game's own stream: 圍骰 (a triple), each other
// seat pays the dealer 1 底; 一二三, the dealer pays each other seat 1 底.
void roll_dice(const State& S, int64_t b, Opts opts);

// 追: the last four discards are one kind, one by each seat in turn order, none claimed: the first
// of the four pays each other seat 1 底 (honour) or 2 底 (suited).
void chase_side(const State& S, int64_t b, Opts opts);

}  // namespace tw16
