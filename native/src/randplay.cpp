// Random (or greedy) legal play, entirely native (envs/engine/randplay.py). The agent's choices come
// from a second per-game stream, so the engine's own stream (walls) is the same as in any other run
// with the same seeds.
#include "tw16/randplay.hpp"

#include <array>
#include <vector>

#include "tw16/hand.hpp"
#include "tw16/invariants.hpp"
#include "tw16/parallel.hpp"
#include "tw16/rng.hpp"
#include "tw16/step.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace A = py::actions;
namespace RP = py::randplay;
}  // namespace

int64_t random_action(View<bool, 1> mask, View<uint64_t, 1> arng, int64_t b, View<int64_t, 1> legal) {
    // The r-th legal action, r uniform: one branch-free pass collects them into legal.
    int64_t n = 0;
    for (int64_t a = 0; a < mask.shape[0]; ++a) {
        legal[n] = a;
        n += mask[a];
    }
    if (n == 0) return -1;
    return legal[randint(arng, b, n)];
}

int64_t greedy_action(const State& S, int64_t b, View<uint64_t, 1> arng, View<int64_t, 1> sh, View<int64_t, 1> legal) {
    auto m = S.mask[b];
    if (m[A::WIN]) return A::WIN;
    if (S.g(b, St::G_PHASE) != St::PH_TURN || randint(arng, b, 8) == 0) return random_action(m, arng, b, legal);
    const int64_t seat = S.g(b, St::G_CUR);
    discard_shanten(S.hands[b][seat], 5 - S.p(b, seat, St::P_NMELDS), sh);
    int64_t best = int64_t{1} << 30;
    int64_t n = 0;
    for (int k = 0; k < 34; ++k)
        if (m[k] && sh[k] < best) best = sh[k];
    for (int k = 0; k < 34; ++k) n += m[k] && sh[k] == best;
    if (n == 0) return random_action(m, arng, b, legal);
    int64_t r = randint(arng, b, n);
    for (int64_t k = 0; k < 34; ++k) {
        if (m[k] && sh[k] == best) {
            if (r == 0) return k;
            --r;
        }
    }
    return random_action(m, arng, b, legal);
}

void play_game(const State& S, int64_t b, uint64_t seed, View<uint64_t, 1> arng, int64_t episodes, bool check,
               int64_t policy, Opts opts, Cfg cfg, const Prof& prof, View<int64_t, 2> out, View<int64_t, 1> sh,
               View<int64_t, 1> legal) {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a over the actions taken
    uint64_t sd = seed;
    for (int64_t ep = 0; ep < episodes; ++ep) {
        reset_game(S, b, sd, 0, opts, cfg, prof);
        sd = next_u64(arng, b);
        while (true) {
            if (check) {
                const int64_t e = check_game(S, b, opts);
                if (e != 0) {
                    out(b, RP::O_ERROR) = e;
                    out(b, RP::O_ERROR_STEP) = out(b, RP::O_DECISIONS);
                    return;
                }
            }
            if (S.terminated[b]) break;
            const int64_t a = policy == RP::POLICY_GREEDY ? greedy_action(S, b, arng, sh, legal)
                                                          : random_action(S.mask[b], arng, b, legal);
            h = (h ^ static_cast<uint64_t>(a)) * 1099511628211ULL;
            const int64_t hands_before = S.g(b, St::G_HANDS);
            step_game(S, b, a, opts, cfg, prof);
            out(b, RP::O_DECISIONS) += 1;
            if (S.g(b, St::G_HANDS) != hands_before && S.g(b, St::G_RESULT) == St::RES_WIN) out(b, RP::O_WINS) += 1;
        }
        out(b, RP::O_EPISODES) += 1;
        out(b, RP::O_HANDS) += S.g(b, St::G_HANDS);
    }
    out(b, RP::O_HASH) = static_cast<int64_t>(h >> 1);
}

void play_batch(const State& S, View<const uint64_t, 1> seeds, View<const uint64_t, 1> agent_seeds, int64_t episodes,
                bool check, int64_t policy, Opts opts, Cfg cfg, const Prof& prof, View<int64_t, 2> out) {
    const int64_t B = seeds.shape[0];
    std::vector<uint64_t> arng_b(static_cast<size_t>(B));  // agent_seeds.copy(): the caller's array is kept
    for (int64_t b = 0; b < B; ++b) arng_b[b] = agent_seeds[b];
    const auto arng = View<uint64_t, 1>::contiguous(arng_b.data(), {B});
    const int64_t n_actions = S.mask.shape[1];
    parallel_for(B, [&](int64_t b) {
        std::array<int64_t, 34> sh_b{};
        std::array<int64_t, A::N_ACTIONS> legal_b{};
        play_game(S, b, seeds[b], arng, episodes, check, policy, opts, cfg, prof, out,
                  View<int64_t, 1>::contiguous(sh_b.data(), {34}),
                  View<int64_t, 1>::contiguous(legal_b.data(), {n_actions}));
    });
}

}  // namespace tw16
