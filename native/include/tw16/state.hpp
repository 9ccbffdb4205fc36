// The batch state of envs/engine/state.py as views (one game is row b of every array), the rule
// arrays and the compiled profile. Python allocates and owns every array; the bindings check
// dtypes and shapes once (native/bind/common.hpp) and build these structs.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state_fields.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// envs.engine.state.State, field for field (same order, same dtypes): one View per entry of
// envs.engine.state.FIELDS, through the generated X-macro (state_fields.hpp).
struct State {
#define TW16_MEMBER(name_, type_, rank_, shape_, fill_, writable_) View<type_, rank_> name_;
    TW16_STATE_FIELDS(TW16_MEMBER)
#undef TW16_MEMBER
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
