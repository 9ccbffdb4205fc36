// The rules compiled once: the rule options (envs.rules.Rules.as_array(): OPT_* slots), the engine
// settings (envs.engine.mask.engine_config: CFG_*) and the compiled profile (Profile.compiled():
// p_tai, p_repl, p_opts), in one object that owns its arrays. Python builds one per rules object
// (envs._core.Rules, checked once when built: native/bind/bind_rules.cpp; envs.engine.mask.native_rules
// caches it) and passes it with the state to every engine call; the fuzz harness builds them from
// its fixtures. Never written after it is built, so calls on other threads may share it freely.
#pragma once
#include <array>
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

struct Rules {
    static constexpr int64_t N_OPTS = py::options::N_OPTS, N_CFG = py::mask::N_CFG;
    static constexpr int64_t N_ITEMS = py::codes::N_ITEMS, N_POPTS = py::profile::N_POPTS;
    std::array<int64_t, N_OPTS> opts{};
    std::array<int64_t, N_CFG> cfg{};
    std::array<int32_t, 4 * N_ITEMS> p_tai{};  // (4, N_ITEMS), row-major
    std::array<int8_t, N_ITEMS * N_ITEMS> p_repl{};
    std::array<int64_t, N_POPTS> p_opts{};
    Prof prof;  // views of p_tai, p_repl and p_opts

    Rules() {
        prof.p_tai = View<int32_t, 2>::contiguous(p_tai.data(), {4, N_ITEMS});
        prof.p_repl = View<int8_t, 2>::contiguous(p_repl.data(), {N_ITEMS, N_ITEMS});
        prof.p_opts = View<int64_t, 1>::contiguous(p_opts.data(), {N_POPTS});
    }
    Rules(const Rules&) = delete;  // (prof views its own arrays)
    Rules& operator=(const Rules&) = delete;

    // The views the core's functions take (only read).
    Opts options() const { return Opts::contiguous(const_cast<int64_t*>(opts.data()), {N_OPTS}); }
    Cfg config() const { return Cfg::contiguous(const_cast<int64_t*>(cfg.data()), {N_CFG}); }
    int64_t shapes() const { return p_opts[py::profile::PO_SHAPES]; }
};

}  // namespace tw16
