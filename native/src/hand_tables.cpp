// The hand-analysis lookup tables: their generator (gen_group), built once and checked
// against FILE_SHA256 of envs/hand/tables.py (the SHA-256 of the Python table file's bytes: MAGIC and
// the four arrays), so a generator that drifts from the recorded tables fails loudly at import.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <tuple>

#include "tw16/hand_tables.hpp"

namespace tw16 {

namespace Tb = py::tables;

// envs/hand/tables.py: MAGIC and FILE_SHA256 (strings, so not in constants.hpp; the test checks them).
const char* const HAND_TABLES_MAGIC = "TW16HANDTABLES01";
const char* const HAND_TABLES_SHA256 = "9c237bf5cdfb98d20f10a10435b3fa9c68506b07a324aaacf68cf3766b416375";

// ---------------------------------------------------------------------------------------------
// gen_group

std::pair<std::vector<uint8_t>, std::vector<uint8_t>> gen_group(int64_t nk, bool allow_chi) {
    int64_t size = 1;
    std::vector<int64_t> pw(static_cast<size_t>(nk));
    for (int64_t i = 0; i < nk; ++i) {
        pw[i] = size;
        size *= 5;
    }
    // mask[code] bit 2*m + p: the tiles contain m sets + p pairs (built from smaller codes)
    std::vector<uint16_t> mask(static_cast<size_t>(size), 0);
    std::vector<int64_t> d(static_cast<size_t>(nk), 0);  // digits of `code`, odometer
    for (int64_t code = 0; code < size; ++code) {
        if (code > 0) {
            int64_t i = 0;
            while (d[i] == 4) {
                d[i] = 0;
                ++i;
            }
            d[i] += 1;
        }
        int64_t m = 1;
        for (int64_t i = 0; i < nk; ++i) {
            if (d[i] >= 3) m |= static_cast<int64_t>(mask[code - 3 * pw[i]]) << 2;
            if (d[i] >= 2) m |= (static_cast<int64_t>(mask[code - 2 * pw[i]]) & 0x555) << 1;
        }
        if (allow_chi) {
            for (int64_t i = 0; i + 2 < nk; ++i)
                if (d[i] >= 1 && d[i + 1] >= 1 && d[i + 2] >= 1)
                    m |= static_cast<int64_t>(mask[code - pw[i] - pw[i + 1] - pw[i + 2]]) << 2;
        }
        mask[code] = static_cast<uint16_t>(m & 0xFFF);
    }
    const int64_t nc = Tb::N_COLS;
    std::vector<uint8_t> dist(static_cast<size_t>(size * nc));
    std::vector<uint8_t> flags(static_cast<size_t>(size), 0);
    // dist[code, j]: 0 if contained, else 1 + the best over adding one tile (larger codes first)
    for (int64_t code = size - 1; code >= 0; --code) {
        int64_t c = code, tot = 0;
        for (int64_t i = 0; i < nk; ++i) {
            d[i] = c % 5;
            c /= 5;
            tot += d[i];
        }
        const int64_t m = mask[code];
        for (int64_t j = 0; j < nc; ++j) {
            if ((m >> j) & 1) {
                dist[code * nc + j] = 0;
            } else {
                int64_t best = Tb::DIST_IMPOSSIBLE;
                for (int64_t i = 0; i < nk; ++i) {
                    if (d[i] < 4) {
                        const int64_t v = dist[(code + pw[i]) * nc + j];
                        if (v < best) best = v;
                    }
                }
                dist[code * nc + j] = static_cast<uint8_t>(best < 254 ? best + 1 : 255);
            }
        }
        const int64_t r = tot % 3;
        if (tot <= 17 && r != 1)
            if ((m >> (2 * (tot / 3) + (r == 2 ? 1 : 0))) & 1) flags[code] = static_cast<uint8_t>(Tb::EXACT);
    }
    return {std::move(dist), std::move(flags)};
}

// ---------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), streaming: the table check hashes 26 MB without concatenating it.

namespace {

struct Sha256 {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint8_t buf[64];
    size_t nbuf = 0;
    uint64_t bits = 0;

    static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

    void block(const uint8_t* p) {
        static const uint32_t K[64] = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        uint32_t w[64];
        for (int i = 0; i < 16; ++i)
            w[i] = (uint32_t(p[4 * i]) << 24) | (uint32_t(p[4 * i + 1]) << 16) | (uint32_t(p[4 * i + 2]) << 8) |
                   uint32_t(p[4 * i + 3]);
        for (int i = 16; i < 64; ++i) {
            const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; ++i) {
            const uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            const uint32_t ch = (e & f) ^ (~e & g);
            const uint32_t t1 = hh + S1 + ch + K[i] + w[i];
            const uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            const uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
            const uint32_t t2 = S0 + mj;
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }

    void update(const uint8_t* p, size_t n) {
        bits += static_cast<uint64_t>(n) * 8;
        while (n > 0) {
            if (nbuf == 0 && n >= 64) {
                block(p);
                p += 64;
                n -= 64;
                continue;
            }
            const size_t k = std::min<size_t>(64 - nbuf, n);
            std::memcpy(buf + nbuf, p, k);
            nbuf += k;
            p += k;
            n -= k;
            if (nbuf == 64) {
                block(buf);
                nbuf = 0;
            }
        }
    }

    std::string hex() {
        const uint64_t total = bits;
        const uint8_t one = 0x80, zero = 0;
        update(&one, 1);
        while (nbuf != 56) update(&zero, 1);
        uint8_t len[8];
        for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(total >> (56 - 8 * i));
        update(len, 8);
        static const char* digits = "0123456789abcdef";
        std::string s;
        for (uint32_t v : h)
            for (int i = 7; i >= 0; --i) s += digits[(v >> (4 * i)) & 15];
        return s;
    }
};

// The built tables (owned for the life of the process).
struct Built {
    std::vector<uint8_t> sd, sf, hd, hf;
    HandTables t;
    std::string digest;
};

std::string digest_of(const Built& b) {
    Sha256 s;
    s.update(reinterpret_cast<const uint8_t*>(HAND_TABLES_MAGIC), std::strlen(HAND_TABLES_MAGIC));
    for (const auto* v : {&b.sd, &b.sf, &b.hd, &b.hf}) s.update(v->data(), v->size());
    return s.hex();
}

Built* build() {
    auto b = std::make_unique<Built>();
    std::tie(b->sd, b->sf) = gen_group(Tb::SUIT_KINDS, true);
    std::tie(b->hd, b->hf) = gen_group(Tb::HONOUR_KINDS, false);
    const size_t size = std::strlen(HAND_TABLES_MAGIC) + b->sd.size() + b->sf.size() + b->hd.size() + b->hf.size();
    if (static_cast<int64_t>(size) != Tb::FILE_SIZE)
        throw TableError("hand tables: built " + std::to_string(size) + " bytes, expected FILE_SIZE " +
                         std::to_string(Tb::FILE_SIZE));
    b->digest = digest_of(*b);
    if (b->digest != HAND_TABLES_SHA256)
        throw TableError("hand tables fail their checksum: built tables have sha256 " + b->digest + ", expected " +
                         HAND_TABLES_SHA256 +
                         " (FILE_SHA256 of envs/hand/tables.py): the C++ generator and "
                         "the layout of envs/hand/tables.py disagree");
    b->t = HandTables{b->sd.data(), b->sf.data(), b->hd.data(), b->hf.data()};
    return b.release();
}

std::mutex g_build_mutex;
Built* g_built = nullptr;

}  // namespace

namespace detail {
std::atomic<const HandTables*> g_hand_tables{nullptr};

const HandTables& build_hand_tables() {
    std::lock_guard<std::mutex> lock(g_build_mutex);
    if (!g_built) g_built = build();  // throws TableError (and stays unbuilt) on a failed check
    g_hand_tables.store(&g_built->t, std::memory_order_release);
    return g_built->t;
}
}  // namespace detail

std::string hand_tables_sha256() {
    hand_tables();
    return g_built->digest;
}

void check_hand_tables(const std::string& expected_sha256) {
    hand_tables();
    const std::string got = digest_of(*g_built);  // recomputed from the arrays in memory
    if (got != expected_sha256)
        throw TableError("hand tables fail their checksum: sha256 " + got + ", expected " + expected_sha256);
}

std::string sha256_hex(const uint8_t* data, size_t n) {
    Sha256 s;
    s.update(data, n);
    return s.hex();
}

View<const uint8_t, 2> suit_dist() {
    return View<const uint8_t, 2>::contiguous(hand_tables().suit_dist, {Tb::N_SUIT_CODES, Tb::N_COLS});
}
View<const uint8_t, 1> suit_flags() {
    return View<const uint8_t, 1>::contiguous(hand_tables().suit_flags, {Tb::N_SUIT_CODES});
}
View<const uint8_t, 2> honour_dist() {
    return View<const uint8_t, 2>::contiguous(hand_tables().honour_dist, {Tb::N_HONOUR_CODES, Tb::N_COLS});
}
View<const uint8_t, 1> honour_flags() {
    return View<const uint8_t, 1>::contiguous(hand_tables().honour_flags, {Tb::N_HONOUR_CODES});
}

}  // namespace tw16
