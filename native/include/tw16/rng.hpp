// splitmix64 (envs/engine/rng.py): a small per-game random stream whose state lives in the batch
// array `rng`, so that results depend neither on the batch size nor on the thread count.
// Header-only: every draw of the engine goes through these two.
#pragma once
#include <cstdint>

#include "tw16/view.hpp"

namespace tw16 {

// The splitmix64 constants (rng.py: _GOLDEN, _M1, _M2; private there, so not in constants.hpp).
inline constexpr uint64_t RNG_GOLDEN = 0x9E3779B97F4A7C15ULL;
inline constexpr uint64_t RNG_M1 = 0xBF58476D1CE4E5B9ULL;
inline constexpr uint64_t RNG_M2 = 0x94D049BB133111EBULL;

// Advance game b's stream and return the next 64 random bits (unsigned arithmetic wraps as numpy's
// uint64 does).
inline uint64_t next_u64(View<uint64_t, 1> rng, int64_t b) {
    uint64_t z = rng[b] + RNG_GOLDEN;
    rng[b] = z;
    z = (z ^ (z >> 30)) * RNG_M1;
    z = (z ^ (z >> 27)) * RNG_M2;
    return z ^ (z >> 31);
}

// Uniform in 0..n-1 (bias below 2**-31 for the small n used here). The top 31 bits are
// non-negative, so C++ % equals Python's for n > 0; callers never pass n <= 0 (a
// division by zero).
inline int64_t randint(View<uint64_t, 1> rng, int64_t b, int64_t n) {
    const uint64_t x = next_u64(rng, b) >> 33;  // < 2**31
    if (n > 0 && n <= 0xFFFFFFFFLL)             // the engine's n: a 32-bit division gives the same remainder
        return static_cast<int64_t>(static_cast<uint32_t>(x) % static_cast<uint32_t>(n));
    return pymod(static_cast<int64_t>(x), n);  // (Python's % for n < 0; n == 0 never happens)
}

// rng.py's Python-only helpers (mix64, game_seeds) stay in Python.

}  // namespace tw16
