// Invariants of one game (envs/engine/invariants.py), checked after every step of random play.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"

namespace tw16 {

// 0 (E_OK) or the first failing E_* code (py::invariants): zero-sum, scorer errors, the finished
// mask, every tile accounted for, wall pointers, counts, seats, hand sizes, a legal action.
int64_t check_game(const State& S, int64_t b, Opts opts);

}  // namespace tw16
