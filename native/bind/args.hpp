// The one argument parser of the bindings: the engine's state, the arrays the rules object is
// built from (options, engine settings, compiled profile) and the range checks, as every binding
// file uses them (arrays are checked by view_of / rw / ro in common.hpp). Bad input is a ValueError /
// TypeError whose message names the argument; each check here is the strictest any binding made
// before there was one parser.
#pragma once
#include <cstdint>
#include <string>

#include "common.hpp"
#include "tw16/rules.hpp"
#include "tw16/state.hpp"

namespace tw16::bind {

// ValueError with msg.
[[noreturn]] void bad(const std::string& msg);
// v in lo..hi, else ValueError "name: expected lo..hi<what>, got v".
void check_range(int64_t v, int64_t lo, int64_t hi, const std::string& name, const char* what = "");

// An argument that must be a numpy array: writable (else ValueError "name: the array is read-only
// (the engine writes it)"), or any; else ValueError "name: expected a numpy array".
RwArray rw_array(nb::handle h, const char* arg, const char* field = nullptr);
AnyArray ro_array(nb::handle h, const char* arg, const char* field = nullptr);

// envs.engine.state.State (the namedtuple, or a tuple / list of its arrays in the order of
// envs.engine.state.FIELDS) passed as the argument `arg`: the count, every array's dtype, rank, shape
// (one batch size) and writability (the scripted walls may be read-only); messages name "arg.field".
State state_of(nb::handle state, const char* arg = "state");

// The arrays envs._core.Rules is built from (bind_rules.cpp copies them), checked: opts =
// Rules.as_array() (N_OPTS,) int64, whose options that keep native code in bounds are range-checked
// (OPT_DEAD_WALL 0..144, OPT_BASE 0..2**40); cfg = engine_config(rules) (N_CFG,) int64; the compiled
// profile (Profile.compiled()): p_tai int32 (4, N_ITEMS), whose row 3 (the items in table order, -1
// after the last) the scorer uses as indices: range-checked; p_repl int8 (N_ITEMS, N_ITEMS); p_opts
// int64 (N_POPTS,). Every binding that needs the rules takes the built object (const Rules&), never
// these arrays.
struct RulesArrays {
    Opts opts;
    Cfg cfg;
    Prof prof;
};
RulesArrays rules_arrays_of(const AnyArray& opts, const AnyArray& cfg, const AnyArray& p_tai, const AnyArray& p_repl,
                            const AnyArray& p_opts);

// An engine call's rules (envs._core.Rules, checked when built) where chips are divided by
// OPT_PER_TAI: not 0 (ValueError otherwise); bind_rules.cpp.
void check_divides(const Rules& R);

// What check_game reads as an index is in range (ValueError otherwise); bind_engine.cpp.
void check_game_bounds(const State& S, int64_t b);

}  // namespace tw16::bind
