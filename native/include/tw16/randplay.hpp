// Uniformly random (or greedy) legal play, entirely native (envs/engine/randplay.py): used by the
// invariant tests, the determinism tests and the benchmark. The agent's choices come from a second
// per-game stream (arng), so the engine's own stream (walls) is the same as in any other run with
// the same seeds.
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"

namespace tw16 {

// The r-th legal action of mask, r uniform from arng (game b); -1 when none is legal. legal
// (mask.size) is scratch.
int64_t random_action(View<bool, 1> mask, View<uint64_t, 1> arng, int64_t b, View<int64_t, 1> legal);

// POLICY_GREEDY: win when legal, discard to the lowest shanten (uniform among ties), otherwise
// (or 1 time in 8) uniform. sh (34) and legal (76) are scratch.
int64_t greedy_action(const State& S, int64_t b, View<uint64_t, 1> arng, View<int64_t, 1> sh, View<int64_t, 1> legal);

// Play episodes episodes of game b (first seeded with seed) with the policy; with check, stop at the
// first invariant error (out(b, OUT_ERROR), out(b, OUT_ERROR_STEP)). out: (B, N_OUT) int64, added to.
void play_game(const State& S, int64_t b, uint64_t seed, View<uint64_t, 1> arng, int64_t episodes, bool check,
               int64_t policy, Opts opts, Cfg cfg, const Prof& prof, View<int64_t, 2> out, View<int64_t, 1> sh,
               View<int64_t, 1> legal);

// randplay._play_batch: every game b of the batch with seeds[b] and agent stream agent_seeds[b]
// (copied: the caller's array is not changed); out (B, N_OUT) int64 (zeroed by the caller).
void play_batch(const State& S, View<const uint64_t, 1> seeds, View<const uint64_t, 1> agent_seeds, int64_t episodes,
                bool check, int64_t policy, Opts opts, Cfg cfg, const Prof& prof, View<int64_t, 2> out);

}  // namespace tw16
