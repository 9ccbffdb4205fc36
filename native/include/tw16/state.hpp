// The batch state of envs/engine/state.py as views (one game is row b of every array), the rule
// arrays and the compiled profile. Python allocates and owns every array; the bindings check
// dtypes and shapes once (native/bind/common.hpp) and build these structs.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// envs.engine.state.State, field for field (same order, same dtypes).
struct State {
    View<uint8_t, 2> wall;       // (B, 144)
    View<int8_t, 3> hands;       // (B, 4, 34)
    View<int8_t, 4> melds;       // (B, 4, 5, 3)
    View<int8_t, 3> river;       // (B, 144, 4)
    View<int64_t, 2> g;          // (B, NG)
    View<int64_t, 3> p;          // (B, 4, NP)
    View<int64_t, 2> scores;     // (B, 4)
    View<uint64_t, 1> rng;       // (B,)
    View<float, 2> rewards;      // (B, 4)
    View<bool, 1> terminated;    // (B,)
    View<bool, 2> mask;          // (B, 76)
    View<int32_t, 2> res_tai;    // (B, 4)
    View<int16_t, 3> res_items;  // (B, 4, N_ITEMS)
    View<int64_t, 2> res_delta;  // (B, 4)
    View<uint8_t, 3> script;     // (B, K, 144), read only
    View<double, 3> la;          // (B, 4, 4)
    View<int32_t, 3> la_k;       // (B, 4, 4)
    View<int64_t, 3> rec;        // (B, HAND_LOG, NREC): finished-hand records (REC_*)
    View<int32_t, 3> rec_items;  // (B, HAND_LOG, REC_MAX_ITEMS): their items, packed
    int64_t batch() const { return wall.shape[0]; }
};

// The compiled profile (envs.scoring.profile.Profile.compiled()): read-only.
struct Prof {
    View<int32_t, 2> p_tai;   // (4, N_ITEMS): tai per item, per column (profile.py)
    View<int8_t, 2> p_repl;   // (N_ITEMS, N_ITEMS): replacement relation
    View<int64_t, 1> p_opts;  // (N_POPTS,): PO_* options
};

// Rule options (Rules.as_array(): OPT_* slots) and the engine settings (engine_config: CFG_*).
using Opts = View<int64_t, 1>;
using Cfg = View<int64_t, 1>;

}  // namespace tw16
