// libFuzzer harness: a game stepped by fuzz-chosen actions, from a fuzz-chosen seed and optional
// scripted walls, under every rule set of fixtures.inc, with the invariant checker after every step.
//
// Input: config, number of scripted walls (0..3) and their shuffles, the seed, then one byte per
// decision choosing among the legal actions (past the end of the input: the first legal action until
// the hand ends, so every input plays a whole hand). When an episode ends and bytes remain, a new one
// is dealt from the next seed. After every step these must hold, else the input is a finding:
//   - check_game (the invariant checker) returns 0;
//   - the stored mask is mask_rows of the state;
//   - game_ok, the bindings' check of a state before a step (state_checks.hpp), accepts the state
//     with each action legal under its mask (a state made by the engine always passes);
// and the encoders (planes_v0 with and without the derived channels, oracle_v0's hidden channels)
// run for every seat.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "state_checks.hpp"
#include "tw16/invariants.hpp"
#include "tw16/mask.hpp"
#include "tw16/obs.hpp"
#include "tw16/step.hpp"

using namespace tw16;
using namespace tw16::fuzz;
namespace P0 = py::planes_v0;

namespace {

constexpr int64_t MAX_STEPS = 2000;

// planes_v0 (flags 0..3) and oracle_v0's channels for seat me (-1: none).
void encoders(Game& G, FixtureRules& R, int64_t me, int64_t flags) {
    const State& S = G.S;
    static std::vector<float> buf(static_cast<size_t>((P0::N_CHANNELS_DERIVED + py::oracle_v0::N_ORACLE_EXTRA) * 34));
    const int64_t C = planes_v0::n_channels(flags & P0::F_DERIVED);
    const auto o = View<float, 2>::contiguous(buf.data(), {C + py::oracle_v0::N_ORACLE_EXTRA, 34});
    planes_v0::encode_one(o, S.hands, S.melds, S.river, S.g, S.p, S.scores, 0, me, R.options(), flags, R.shapes());
    if (me >= 0) oracle_v0::oracle_planes(o, C, S.hands, S.melds, S.wall, S.g, S.p, 0, me);
}

void check_state(Game& G, FixtureRules& R, int64_t step) {
    const State& S = G.S;
    const int64_t e = check_game(S, 0, R.options());
    if (e != 0) fail("game: check_game reports an invariant error (code, step)", e, step);
    if (S.terminated[0]) return;
    std::array<bool, py::actions::N_ACTIONS> m{};
    mask_rows(View<bool, 1>::contiguous(m.data(), {py::actions::N_ACTIONS}), S.g[0], S.p[0], S.hands[0], S.melds[0],
              false, R.options(), R.config(), R.prof.p_opts);
    for (int64_t a = 0; a < py::actions::N_ACTIONS; ++a)
        if (m[a] != S.mask(0, a)) fail("game: the stored mask is not mask_rows of the state (action, step)", a, step);
    std::string why;
    for (int64_t a = 0; a < py::actions::N_ACTIONS; ++a)
        if (S.mask(0, a) && !bind::game_ok<true>(S, 0, a, R.options(), &why)) {
            std::fprintf(stderr, "game_ok refused an engine state with a legal action: %s\n", why.c_str());
            fail("game: the bindings' state check refuses a legal action on a state the engine made (action, step)", a,
                 step);
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r(data, size);
    const int config = r.u8();
    FixtureRules R(config);
    const int64_t n_script = r.u8() % 4;
    Game G(n_script);
    fill_script(G, r, R.opts[py::options::OPT_FLOWERS] != 0);
    std::array<uint64_t, 1> seed{r.u64()};
    std::array<int64_t, 1> action{};
    const auto sv = View<const uint64_t, 1>::contiguous(seed.data(), {1});
    const auto av = View<const int64_t, 1>::contiguous(action.data(), {1});
    reset_batch(G.S, sv, R.options(), R.config(), R.prof);
    check_state(G, R, 0);
    const uint8_t enc = r.u8();  // which seats and flags the encoders see
    int64_t hands_at_end = -1;   // G_HANDS when the input ran out: then only that hand is finished
    for (int64_t step = 1; step <= MAX_STEPS; ++step) {
        if (!r.more()) {
            if (hands_at_end < 0) hands_at_end = G.g[St::G_HANDS];
            if (G.terminated[0] || G.g[St::G_HANDS] != hands_at_end) break;
        }
        if (G.terminated[0]) {
            seed[0] = r.u64();
            reset_batch(G.S, sv, R.options(), R.config(), R.prof);
        } else {
            action[0] = G.legal(r.u8());
            if (action[0] < 0) fail("game: a live game without a legal action (step)", step);
            step_batch(G.S, av, R.options(), R.config(), R.prof);
        }
        check_state(G, R, step);
        if (step % 8 == enc % 8 || G.terminated[0]) {
            const int64_t me = G.terminated[0] ? -1 : (enc & 8) ? G.g[St::G_CUR] : (step / 8) % 4;
            encoders(G, R, me, (enc >> 4) & 3);
        }
    }
    return 0;
}
