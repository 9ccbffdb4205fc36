// libFuzzer harness: the boundary checks of the engine bindings. A game is played a fuzz-chosen
// number of decisions into a hand, then its state is edited (fuzz-chosen arrays, elements and values:
// what a caller could pass to step_batch / step_some), and then, as the bindings do, each step is taken
// only with an action legal under its stored mask and only if game_ok (state_checks.hpp, the check
// bind_engine.cpp runs before every step) accepts the state and that action. Whatever game_ok lets through must never
// make the engine read or write out of bounds or hit undefined behaviour (ASan / UBSan reports).
//
// Input: config, seed, decisions before the edits, number of edits, the edits (array, element,
// value: a small signed value, a boundary value or any 64 bits; the rule options too, within what
// the bindings accept), then one byte per step choosing the action.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "common.hpp"
#include "state_checks.hpp"
#include "tw16/step.hpp"

using namespace tw16;
using namespace tw16::fuzz;

namespace {

// TW16_FUZZ_STATS=1: print at exit how many edited states game_ok let through and how many steps
// were taken on them (to see that the harness gets past the checks).
struct Stats {
    long long inputs = 0, accepted = 0, steps = 0;
    ~Stats() {
        if (std::getenv("TW16_FUZZ_STATS"))
            std::fprintf(stderr, "boundary: %lld inputs, %lld edited states accepted by game_ok, %lld steps on them\n",
                         inputs, accepted, steps);
    }
} stats;

template <class T, size_t N>
void edit(std::array<T, N>& a, Reader& r, int64_t v) {
    T& x = a[static_cast<size_t>(r.below(static_cast<int64_t>(N)))];
    if constexpr (std::is_same_v<T, bool>) {
        x = v & 1;
    } else if constexpr (std::is_floating_point_v<T>) {
        const double vals[] = {-1.0, 0.0, 0.5, 1.0, 3.0, 9.0e15, 1e300, -0.0, static_cast<double>(v)};
        x = static_cast<T>(vals[static_cast<uint64_t>(v) % 9]);
    } else {
        x = static_cast<T>(v);
    }
}

constexpr int64_t EXTREMES[] = {INT64_MIN,
                                INT64_MAX,
                                INT64_MIN + 1,
                                INT64_MAX - 1,
                                -1,
                                0,
                                1,
                                2,
                                3,
                                4,
                                5,
                                6,
                                7,
                                8,
                                16,
                                33,
                                34,
                                35,
                                41,
                                42,
                                127,
                                128,
                                135,
                                136,
                                143,
                                144,
                                255,
                                256,
                                1 << 16,
                                int64_t{1} << 31,
                                int64_t{1} << 40,
                                -(int64_t{1} << 31)};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r(data, size);
    FixtureRules R(r.u8());
    Game G;
    std::array<uint64_t, 1> seed{r.u64()};
    std::array<int64_t, 1> action{};
    const auto sv = View<const uint64_t, 1>::contiguous(seed.data(), {1});
    const auto av = View<const int64_t, 1>::contiguous(action.data(), {1});
    reset_batch(G.S, sv, R.options(), R.config(), R.prof);
    const int64_t before = r.u8();
    for (int64_t i = 0; i < before && !G.terminated[0]; ++i) {
        action[0] = G.legal(r.u8());
        step_batch(G.S, av, R.options(), R.config(), R.prof);
    }
    const int64_t edits = 1 + r.u8() % 4;
    for (int64_t e = 0; e < edits; ++e) {
        const uint8_t sel = r.u8();
        const int64_t v = (sel & 0x80)   ? EXTREMES[r.u8() % (sizeof EXTREMES / sizeof EXTREMES[0])]
                          : (sel & 0x40) ? static_cast<int64_t>(r.u64())
                                         : static_cast<int8_t>(r.u8());
        switch (sel % 17) {
            case 0:
                edit(G.wall, r, v);
                break;
            case 1:
                edit(G.hands, r, v);
                break;
            case 2:
                edit(G.melds, r, v);
                break;
            case 3:
                edit(G.river, r, v);
                break;
            case 4:
            case 5:
            case 6:
                edit(G.g, r, v);
                break;  // (most fields, most often)
            case 7:
            case 8:
                edit(G.p, r, v);
                break;
            case 9:
                edit(G.scores, r, v);
                break;
            case 10:
                edit(G.rewards, r, v);
                break;
            case 11:
                edit(G.terminated, r, v);
                break;
            case 12:
                edit(G.mask, r, v);
                break;
            case 13:
                edit(G.la, r, v);
                break;
            case 14:
                edit(G.la_k, r, v);
                break;
            case 15:
                edit(G.rng, r, v);
                break;
            default: {  // a rule option, as envs._core.Rules' checks (args.cpp rules_arrays_of) let it through
                const int64_t i = r.below(py::options::N_OPTS), old = R.opts[i];
                R.opts[i] = v;
                const int64_t dw = R.opts[py::options::OPT_DEAD_WALL];
                if (dw < 0 || dw > St::WALL_SIZE || R.opts[py::options::OPT_PER_TAI] == 0) R.opts[i] = old;
            }
        }
    }
    // Steps as step_batch takes them: a legal action, taken only when game_ok accepts the state and it.
    ++stats.inputs;
    for (int64_t step = 0; step < 400; ++step) {
        if (G.terminated[0]) break;  // (a finished game's step is a no-op)
        action[0] = G.legal(r.u8());
        if (action[0] < 0) break;
        if (!bind::game_ok<false>(G.S, 0, action[0], R.options(), nullptr)) break;  // the binding raises
        stats.accepted += step == 0;
        step_batch(G.S, av, R.options(), R.config(), R.prof);
        ++stats.steps;
    }
    return 0;
}
