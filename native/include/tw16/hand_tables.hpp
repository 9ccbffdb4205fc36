// The per-suit lookup tables of the hand analysis and their generator, gen_group (the layout is
// documented in envs/hand/tables.py, summarised here).
//
// A suit's nine counts c0..c8 (each 0..4, c0 = the 1 tile) are one base-5 code sum(c_i * 5**i),
// 0 .. 5**9-1; the seven honour counts (E S W N C F P) likewise, 0 .. 5**7-1. Adding one tile of
// rank i adds 5**i to the code.
//
//   suit_dist   uint8[5**9][12]  [code][2*m + p] = the fewest tiles of that suit to add (no kind
//                                above 4) so that the suit's tiles contain m sets (chi or pon) and p
//                                pairs (m 0..5, p 0..1) as a sub-multiset
//   suit_flags  uint8[5**9]      bit 0 (EXACT): the suit's tiles are exactly size // 3 sets, plus
//                                one pair when size % 3 == 2 (never when size % 3 == 1); defined for
//                                suit sizes up to 17 (larger ones: 0)
//   honour_dist uint8[5**7][12]  as suit_dist for the honours (pons and pairs only, no chi)
//   honour_flags uint8[5**7]     as suit_flags
//
// The C++ core builds the tables once, with gen_group below,
// the first time hand_tables() is called (the module calls it when envs._core is imported), and
// checks them like the Python loader checks its file: the SHA-256 of MAGIC + the four arrays (the
// byte layout of the Python table file) must equal FILE_SHA256 of envs/hand/tables.py, else
// hand_tables() throws TableError (a Python RuntimeError: `import envs._core` fails loudly).
#pragma once
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// The table file's header and checksum (string constants of envs/hand/tables.py: MAGIC,
// FILE_SHA256; constants.hpp only carries integers, so tests/test_native_hand.py checks these two).
extern const char* const HAND_TABLES_MAGIC;   // 16 bytes, no terminator needed
extern const char* const HAND_TABLES_SHA256;  // hex digest

// The tables fail their self-check (tables.py TableError).
struct TableError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct HandTables {
    const uint8_t* suit_dist;     // [N_SUIT_CODES][N_COLS]
    const uint8_t* suit_flags;    // [N_SUIT_CODES]
    const uint8_t* honour_dist;   // [N_HONOUR_CODES][N_COLS]
    const uint8_t* honour_flags;  // [N_HONOUR_CODES]
};

// gen_group: (dist[5**nk * 12], flags[5**nk]) for a group of nk kinds; chis of 3 consecutive
// kinds if allow_chi.
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> gen_group(int64_t nk, bool allow_chi);

namespace detail {
extern std::atomic<const HandTables*> g_hand_tables;  // set once built and checked
const HandTables& build_hand_tables();                // builds + checks under a lock (hand_tables.cpp)
}  // namespace detail

// The tables, built and checked once (thread-safe); throws TableError if the check fails. The fast
// path is one acquire load (a plain load on x86): cheap enough for every shanten call.
inline const HandTables& hand_tables() {
    const HandTables* t = detail::g_hand_tables.load(std::memory_order_acquire);
    return t ? *t : detail::build_hand_tables();
}
// Recompute the SHA-256 of the tables in memory and throw TableError unless it is expected_sha256
// (the load-time check, callable again: tests pass a wrong digest to see it fail loudly).
void check_hand_tables(const std::string& expected_sha256);
// SHA-256 (hex) of MAGIC + the four arrays as built (what hand_tables() compared).
std::string hand_tables_sha256();
// SHA-256 (hex) of a byte buffer (the check's digest; exposed for the tests).
std::string sha256_hex(const uint8_t* data, size_t n);

// tables.py's compiled accessors, as views of the built arrays.
View<const uint8_t, 2> suit_dist();
View<const uint8_t, 1> suit_flags();
View<const uint8_t, 2> honour_dist();
View<const uint8_t, 1> honour_flags();

}  // namespace tw16
