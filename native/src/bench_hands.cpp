// The benchmarks' hand makers and timing loops (tw16/bench/hand.py; declared in tw16/hand.hpp, the
// analysis they time). The makers draw from one random stream per call, MT19937 (Matsumoto and
// Nishimura) exactly as follows, so that a seed gives the same hands in every version and the bench
// figures stay comparable across versions:
// - seeding: the reference init_genrand from the seed's low 32 bits (Knuth's multiplier 1812433253);
// - a double in [0, 1): 53 bits from two tempered draws, (a >> 5) * 2**26 + (b >> 6), over 2**53;
// - an integer below n: 0 without a draw when n == 1, else the low bit_length(n - 1) bits of one draw
//   (two draws, high word first, above 32 bits), drawn again until below n.
#include "tw16/hand.hpp"

namespace tw16 {

namespace {
namespace An = py::analysis;
constexpr int64_t NK = py::tiles::N_KINDS;
constexpr int MT_N = 624, MT_M = 397;
constexpr uint32_t MT_MATRIX_A = 0x9908b0dfU, MT_UPPER_MASK = 0x80000000U, MT_LOWER_MASK = 0x7fffffffU;

// The stream described above.
struct BenchStream {
    uint32_t mt[MT_N];
    int index = MT_N;
    void seed(int64_t s);
    uint32_t next_u32();
    double random();
    int64_t randint(int64_t n);
};

// init_genrand: Knuth's initialisation of the MT state from a 32-bit seed (the seed cast to uint32).
void BenchStream::seed(int64_t s) {
    uint32_t x = static_cast<uint32_t>(s);
    for (int pos = 0; pos < MT_N; ++pos) {
        mt[pos] = x;
        x = 1812433253U * (x ^ (x >> 30)) + static_cast<uint32_t>(pos) + 1U;
    }
    index = MT_N;
}

// The MT19937 twist when the state is spent, then the tempering of the next word.
uint32_t BenchStream::next_u32() {
    if (index >= MT_N) {
        int i;
        uint32_t y;
        for (i = 0; i < MT_N - MT_M; i++) {
            y = (mt[i] & MT_UPPER_MASK) | (mt[i + 1] & MT_LOWER_MASK);
            mt[i] = mt[i + MT_M] ^ (y >> 1) ^ ((0U - (y & 1U)) & MT_MATRIX_A);
        }
        for (; i < MT_N - 1; i++) {
            y = (mt[i] & MT_UPPER_MASK) | (mt[i + 1] & MT_LOWER_MASK);
            mt[i] = mt[i + (MT_M - MT_N)] ^ (y >> 1) ^ ((0U - (y & 1U)) & MT_MATRIX_A);
        }
        y = (mt[MT_N - 1] & MT_UPPER_MASK) | (mt[0] & MT_LOWER_MASK);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0U - (y & 1U)) & MT_MATRIX_A);
        index = 0;
    }
    uint32_t y = mt[index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

// 53 random bits from two draws.
double BenchStream::random() {
    const uint32_t a = next_u32() >> 5;
    const uint32_t b = next_u32() >> 6;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
}

// An integer in 0..n-1 by masked rejection (n >= 1; see the top of the file).
int64_t BenchStream::randint(int64_t n) {
    if (n == 1) return 0;
    int nbits = 0;
    for (uint64_t v = static_cast<uint64_t>(n - 1); v; v >>= 1) ++nbits;
    while (true) {
        uint64_t r;
        if (nbits <= 32) {
            r = next_u32() & (0xffffffffU >> (32 - nbits));
        } else {
            const uint64_t high = next_u32() & (0xffffffffU >> (64 - nbits));
            const uint64_t low = next_u32();
            r = low + (high << 32);
        }
        if (static_cast<int64_t>(r) < n) return static_cast<int64_t>(r);
    }
}
}  // namespace

void random_complete_hands(View<int8_t, 2> out, int64_t n_sets, int64_t seed) {
    // Fill each row with a random complete hand: a pair and n_sets random sets (retry on a fifth copy).
    BenchStream rng;
    rng.seed(seed);
    for (int64_t r = 0; r < out.shape[0]; ++r) {
        while (true) {
            for (int64_t k = 0; k < NK; ++k) out(r, k) = 0;
            bool ok = true;
            const int64_t p = rng.randint(NK);
            out(r, p) = static_cast<int8_t>(out(r, p) + 2);
            for (int64_t i = 0; i < n_sets; ++i) {
                if (rng.random() < 0.5) {
                    const int64_t s = rng.randint(3);
                    const int64_t k = 9 * s + rng.randint(7);
                    out(r, k) = static_cast<int8_t>(out(r, k) + 1);
                    out(r, k + 1) = static_cast<int8_t>(out(r, k + 1) + 1);
                    out(r, k + 2) = static_cast<int8_t>(out(r, k + 2) + 1);
                    if (out(r, k) > 4 || out(r, k + 1) > 4 || out(r, k + 2) > 4) ok = false;
                } else {
                    const int64_t k = rng.randint(NK);
                    out(r, k) = static_cast<int8_t>(out(r, k) + 3);
                    if (out(r, k) > 4) ok = false;
                }
            }
            if (ok) break;
        }
    }
}

void perturb_hands(View<int8_t, 2> hands, int64_t seed, double frac) {
    // Replace one random tile by another kind (counts stay <= 4) in a fraction frac of the rows.
    BenchStream rng;
    rng.seed(seed);
    for (int64_t r = 0; r < hands.shape[0]; ++r) {
        if (rng.random() >= frac) continue;
        while (true) {
            const int64_t a = rng.randint(NK);
            const int64_t b = rng.randint(NK);
            if (a != b && hands(r, a) > 0 && hands(r, b) < 4) {
                hands(r, a) = static_cast<int8_t>(hands(r, a) - 1);
                hands(r, b) = static_cast<int8_t>(hands(r, b) + 1);
                break;
            }
        }
    }
}

void drop_one_tile(View<int8_t, 2> hands, int64_t seed) {
    // Remove one random tile from each row (a complete hand becomes a ready one).
    BenchStream rng;
    rng.seed(seed);
    for (int64_t r = 0; r < hands.shape[0]; ++r) {
        while (true) {
            const int64_t a = rng.randint(NK);
            if (hands(r, a) > 0) {
                hands(r, a) = static_cast<int8_t>(hands(r, a) - 1);
                break;
            }
        }
    }
}

void random_wall_hands(View<int8_t, 2> out, int64_t n_tiles, int64_t seed) {
    // Rows of n_tiles tiles dealt from a shuffled 136-tile wall (the wall stays shuffled between rows).
    BenchStream rng;
    rng.seed(seed);
    int64_t wall[136];
    for (int64_t i = 0; i < 136; ++i) wall[i] = i / 4;
    for (int64_t r = 0; r < out.shape[0]; ++r) {
        for (int64_t k = 0; k < NK; ++k) out(r, k) = 0;
        for (int64_t i = 0; i < n_tiles; ++i) {
            const int64_t j = i + rng.randint(136 - i);
            const int64_t t = wall[i];
            wall[i] = wall[j];
            wall[j] = t;
            out(r, wall[i]) = static_cast<int8_t>(out(r, wall[i]) + 1);
        }
    }
}

int64_t sum_is_complete(View<int8_t, 2> hands, int64_t n_sets) {
    int64_t n = 0;
    for (int64_t r = 0; r < hands.shape[0]; ++r) n += is_complete(hands[r], n_sets);
    return n;
}

int64_t sum_shanten(View<int8_t, 2> hands, int64_t n_sets) {
    int64_t s = 0;
    for (int64_t r = 0; r < hands.shape[0]; ++r) s += shanten(hands[r], n_sets);
    return s;
}

int64_t sum_waits(View<int8_t, 2> hands, int64_t n_sets) {
    bool buf[NK] = {};
    const auto out = View<bool, 1>::contiguous(buf, {NK});
    int64_t s = 0;
    for (int64_t r = 0; r < hands.shape[0]; ++r) s += wait_mask(hands[r], n_sets, hands[r], out);
    return s;
}

int64_t sum_decompositions(View<int8_t, 2> hands, int64_t n_sets) {
    int64_t buf[An::MAX_DECOMPOSITIONS * An::DEC_WIDTH] = {};
    const auto out = View<int64_t, 2>::contiguous(buf, {An::MAX_DECOMPOSITIONS, An::DEC_WIDTH});
    int64_t s = 0;
    for (int64_t r = 0; r < hands.shape[0]; ++r) s += decompositions(hands[r], n_sets, out);
    return s;
}

int64_t sum_discard_shanten(View<int8_t, 2> hands, int64_t n_sets) {
    int64_t buf[NK] = {};
    const auto out = View<int64_t, 1>::contiguous(buf, {NK});
    int64_t s = 0;
    for (int64_t r = 0; r < hands.shape[0]; ++r) s += discard_shanten(hands[r], n_sets, out);
    return s;
}

}  // namespace tw16
