// Random (or greedy) legal play, entirely native (envs/engine/randplay.py). The agent's choices come
// from a second per-game stream, so the engine's own stream (walls) is the same as in any other run
// with the same seeds.
#include "tw16/randplay.hpp"

#include <algorithm>
#include <array>
#include <cstring>
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

namespace {
// Masks of 0/1 bytes, 8 at a time (the engine's own masks are contiguous).
// Sum of the 8 bytes of x, each 0 or 1.
inline int64_t byte_sum(uint64_t x) { return static_cast<int64_t>((x * 0x0101010101010101ULL) >> 56); }
// The 8 bytes of x, each 0 or 1, as the bits of one byte (byte i -> bit i).
inline unsigned byte_bits(uint64_t x) { return static_cast<unsigned>((x * 0x0102040810204080ULL) >> 56); }

// NTH[v][r]: the position of the r-th set bit of the byte v (8 when there is none).
struct NthBit {
    uint8_t t[256][8];
    constexpr NthBit() : t{} {
        for (int v = 0; v < 256; ++v) {
            int r = 0;
            for (int i = 0; i < 8; ++i) t[v][i] = 8;
            for (int i = 0; i < 8; ++i)
                if ((v >> i) & 1) t[v][r++] = static_cast<uint8_t>(i);
        }
    }
};
constexpr NthBit NTH{};
}  // namespace

int64_t random_action(View<bool, 1> mask, View<uint64_t, 1> arng, int64_t b, View<int64_t, 1> legal) {
    // The r-th legal action, r uniform in 0..n-1 (n legal actions): randplay.py collects the legal
    // actions into `legal` and indexes it; counting, drawing r, then finding the r-th gives the same
    // action from the same draw. (legal is scratch, unused here.)
    (void)legal;
    const int64_t na = mask.shape[0];
    if (mask.stride[0] == 1) {  // the engine's masks: branch-free, 8 entries at a time
        const unsigned char* m = reinterpret_cast<const unsigned char*>(mask.data);
        const int64_t full = na / 8;
        auto word = [&](int64_t w) {  // entries 8w .. 8w+7 (zero past the end)
            uint64_t x = 0;
            if (w < full) {
                std::memcpy(&x, m + 8 * w, 8);
            } else {
                for (int64_t a = na - 1; a >= 8 * w; --a) x = (x << 8) | m[a];
            }
            return x;
        };
        const int64_t nw = (na + 7) / 8;
        int64_t n = 0;
        for (int64_t w = 0; w < nw; ++w) n += byte_sum(word(w));
        if (n == 0) return -1;
        int64_t r = randint(arng, b, n);
        int64_t at = -1;  // the word holding the r-th legal action; r becomes its rank there
        uint64_t xa = 0;
        for (int64_t w = 0; w < nw; ++w) {
            const uint64_t x = word(w);
            const int64_t c = byte_sum(x);
            const bool here = at < 0 && r < c;
            at = here ? w : at;
            xa = here ? x : xa;
            r -= (at < 0) ? c : 0;
        }
        return 8 * at + NTH.t[byte_bits(xa)][r];
    }
    int64_t n = 0;
    for (int64_t a = 0; a < na; ++a) n += mask[a];
    if (n == 0) return -1;
    int64_t r = randint(arng, b, n);
    for (int64_t a = 0;; ++a)
        if (mask[a] && r-- == 0) return a;
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
                    out(b, RP::OUT_ERROR) = e;
                    out(b, RP::OUT_ERROR_STEP) = out(b, RP::OUT_DECISIONS);
                    return;
                }
            }
            if (S.terminated[b]) break;
            const int64_t a = policy == RP::POLICY_GREEDY ? greedy_action(S, b, arng, sh, legal)
                                                          : random_action(S.mask[b], arng, b, legal);
            h = (h ^ static_cast<uint64_t>(a)) * 1099511628211ULL;
            const int64_t hands_before = S.g(b, St::G_HANDS);
            step_game(S, b, a, opts, cfg, prof);
            out(b, RP::OUT_DECISIONS) += 1;
            if (S.g(b, St::G_HANDS) != hands_before && S.g(b, St::G_RESULT) == St::RES_WIN) out(b, RP::OUT_WINS) += 1;
        }
        out(b, RP::OUT_EPISODES) += 1;
        out(b, RP::OUT_HANDS) += S.g(b, St::G_HANDS);
    }
    out(b, RP::OUT_HASH) = static_cast<int64_t>(h >> 1);
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
