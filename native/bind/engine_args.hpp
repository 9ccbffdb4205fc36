// The engine's arguments as the bindings check them (defined in bind_engine.cpp, shared with
// bind_search.cpp): the state tuple, the rules arrays, the compiled profile, one game's bounds.
#pragma once
#include <cstdint>

#include "common.hpp"
#include "tw16/state.hpp"

namespace tw16::bind {

// envs.engine.state.State (the namedtuple, or a tuple / list of all its arrays in field order): dtypes,
// ranks, shapes and writability checked; ValueError / TypeError naming the field otherwise.
State state_of(nb::handle state);
// Rules.as_array() and engine_config(): only read; the options that keep native code in bounds checked.
Opts opts_of(const AnyArray& a);
Cfg cfg_of(const AnyArray& a);
// Profile.compiled(): (p_tai, p_repl, p_opts).
Prof prof_of(nb::handle prof);
// What check_game reads as an index is in range (ValueError otherwise).
void check_game_bounds(const State& S, int64_t b);

}  // namespace tw16::bind
