// The state checks of the engine's bindings (bind_engine.cpp), without nanobind: game_ok says
// whether a game may take an action. Kept apart so that the libFuzzer harnesses (native/fuzz/
// fuzz_boundary.cpp, fuzz_game.cpp) run the very checks the bindings run.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"

namespace tw16::bind {

namespace state_checks {
namespace St = py::state;
namespace R = py::options;
namespace T = py::tiles;
namespace A = py::actions;

// -- the state of one game --------------------------------------------------------------------
// What must hold before a game is stepped so that the engine stays in bounds: every value used as an
// index in range (scalars, counts 0..4, melds, the live wall's tile ids), claim bits and stored
// answers that the hands allow, and an action the step can take from that phase (a discard of a held
// kind, a kong of four or beside a pon with room for a meld, an answer the claim bits allow...); the
// action must also be legal under the stored mask (the step itself trusts the mask). Whether the
// tiles add up (four of each kind) is check_game's business: a state whose tiles do not is stepped,
// and if a hand it scores holds a fifth tile, finish_win counts a scorer refusal (G_SCORE_ERR) instead
// of scoring it. A state made by the engine always passes. This runs before every step, so it reads
// only the rows the step reads anyway and builds no message unless it fails.
inline std::string in(int64_t v, int64_t lo, int64_t hi) {
    return std::to_string(v) + ", expected " + std::to_string(lo) + ".." + std::to_string(hi);
}
inline std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t READY_BITS =
    py::codes::F_HEAVENLY_READY | py::codes::F_EARTHLY_READY | py::codes::F_DECLARED_READY | py::codes::F_SHOWN_READY;

// n elements from a strided row into a local array (one memcpy for the engine's own rows).
template <class T>
inline void load_row(T* dst, const T* src, int64_t n, int64_t stride) {
    if (stride == 1) {
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
    } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = src[i * stride];
    }
}

// Does a claim answer (or the action of an asked seat) fit the claim bits?
inline bool answer_fits(int64_t a, int64_t bits) {
    return a == A::PASS || (a == A::WIN && (bits & St::C_WIN)) || (a == A::CHI && (bits & St::C_CHI_LOW)) ||
           (a == A::CHI + 1 && (bits & St::C_CHI_MID)) || (a == A::CHI + 2 && (bits & St::C_CHI_HIGH)) ||
           (a == A::PON && (bits & St::C_PON)) || (a == A::KONG && (bits & St::C_KONG)) ||
           (a == A::READY && (bits & St::C_READY));
}

// True when game b may take action a; else false, and with Explain, *why says why. (Two
// instantiations: the one that runs before every step builds no message.)
template <bool Explain>
inline bool game_ok(const State& S, int64_t b, int64_t a, Opts opts, std::string* why) {
#define TW16_FAIL(msg)                       \
    do {                                     \
        if constexpr (Explain) *why = (msg); \
        return false;                        \
    } while (0)
#define TW16_RANGE(idx, lo, hi)                                                   \
    do {                                                                          \
        const int64_t v_ = g[St::idx], lo_ = (lo), hi_ = (hi);                    \
        if (v_ < lo_ || v_ > hi_) TW16_FAIL("g[" #idx "] = " + in(v_, lo_, hi_)); \
    } while (0)
    constexpr int64_t HW = 5;  // words of 8 counts per seat (34 kinds, zero-padded to 40)
    int64_t g[St::NG];
    int64_t p[4][St::NP];
    alignas(8) int8_t h[4][8 * HW] = {};
    int8_t ms[4][St::MAX_MELDS][3];
    load_row(g, S.g.data + b * S.g.stride[0], St::NG, S.g.stride[1]);
    {
        const int64_t* p0 = S.p.data + b * S.p.stride[0];
        const int8_t* h0 = S.hands.data + b * S.hands.stride[0];
        const int8_t* m0 = S.melds.data + b * S.melds.stride[0];
        const int64_t m1 = S.melds.stride[1], m2 = S.melds.stride[2], m3 = S.melds.stride[3];
        for (int64_t s = 0; s < 4; ++s) {
            load_row(p[s], p0 + s * S.p.stride[1], St::NP, S.p.stride[2]);
            load_row(h[s], h0 + s * S.hands.stride[1], T::N_KINDS, S.hands.stride[2]);
            const int64_t nm = std::min<int64_t>(std::max<int64_t>(p[s][St::P_NMELDS], 0), St::MAX_MELDS);
            for (int64_t i = 0; i < nm; ++i)
                for (int64_t j = 0; j < 3; ++j) ms[s][i][j] = m0[s * m1 + i * m2 + j * m3];
        }
    }
    const int64_t ph = g[St::G_PHASE];
    if (ph != St::PH_TURN && ph != St::PH_CLAIM && ph != St::PH_ROB && ph != St::PH_READY0 && ph != St::PH_FLOWER &&
        ph != St::PH_LA_CUT)
        TW16_FAIL("g[G_PHASE] = " + str(ph) + " is not a decision phase of a live game");
    const int64_t n = opts[R::OPT_FLOWERS] ? T::N_TILES : T::N_TILES_NO_FLOWERS;
    TW16_RANGE(G_CUR, 0, 3);
    TW16_RANGE(G_TURN, 0, 3);
    TW16_RANGE(G_DEALER, 0, 3);
    TW16_RANGE(G_STREAK, 0, R::MAX_STREAK);
    TW16_RANGE(G_ROT, 0, 15);
    TW16_RANGE(G_WALL_N, n, n);
    TW16_RANGE(G_HEAD, 0, n);
    TW16_RANGE(G_TAIL, g[St::G_HEAD] - 1, n - 1);
    TW16_RANGE(G_NKONG, 0, T::N_KINDS);
    TW16_RANGE(G_NRIVER, ph == St::PH_CLAIM ? 1 : 0, St::MAX_RIVER - 1);
    TW16_RANGE(G_TILE, -1, T::N_KINDS - 1);
    TW16_RANGE(G_LAST_DRAWN, -1, T::N_KINDS - 1);
    TW16_RANGE(G_DRAWSRC, St::SRC_FRONT, St::SRC_EXPOSED_KONG);
    TW16_RANGE(G_SWAP1, -1, T::N_KINDS - 1);
    TW16_RANGE(G_SWAP2, -1, T::N_KINDS - 1);
    TW16_RANGE(G_SCRIPT_USED, 0, int64_t{1} << 40);
    TW16_RANGE(G_CHAIN, 0, St::WALL_SIZE);
    TW16_RANGE(G_OFFER, ph == St::PH_FLOWER ? 0 : -1, 3);
    TW16_RANGE(G_OFFER_PAYER, -1, 3);
    TW16_RANGE(G_LIABLE, -1, 3);
    TW16_RANGE(G_LA_ASK, ph == St::PH_LA_CUT ? 1 : 0, 0xFFFF);
    // Counts 0..4, eight at a time: a byte > 4 (or negative: top bit set) sets its top bit here.
    uint64_t hw[4][HW];
    std::memcpy(hw, h, sizeof hw);
    uint64_t over = 0;
    for (int64_t s = 0; s < 4; ++s)
        for (int64_t w = 0; w < HW; ++w)
            over |= ((hw[s][w] + 0x7B7B7B7B7B7B7B7BULL) | hw[s][w]) & 0x8080808080808080ULL;
    if (over)
        for (int64_t s = 0; s < 4; ++s)
            for (int64_t k = 0; k < T::N_KINDS; ++k)
                if (h[s][k] < 0 || h[s][k] > 4)
                    TW16_FAIL("hands[" + str(s) + ", " + str(k) + "] = " + in(h[s][k], 0, 4));
    // The live wall's tile ids (drawn tiles index the hands and the flower bits).
    {
        const uint8_t* w = S.wall.data + b * S.wall.stride[0];
        const int64_t ws = S.wall.stride[1];
        int64_t i = g[St::G_HEAD];
        const int64_t end = g[St::G_TAIL] + 1;
        uint64_t high = 0;  // top bit of a byte >= 144 (= 0x90: the top bit and one of bits 4..6)
        if (ws == 1)
            for (; i + 8 <= end; i += 8) {
                uint64_t x;
                std::memcpy(&x, w + i, 8);
                high |= x & (((x & 0x7070707070707070ULL) + 0x7070707070707070ULL) & 0x8080808080808080ULL);
            }
        int64_t top = 0;
        for (; i < end; ++i) top = std::max<int64_t>(top, w[i * ws]);
        if (high || top >= T::N_TILES) TW16_FAIL("wall: a tile id out of 0..143 between head and tail");
    }
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = p[s][St::P_NMELDS];
        if (nm < 0 || nm > St::MAX_MELDS) TW16_FAIL("p[" + str(s) + ", P_NMELDS] = " + in(nm, 0, St::MAX_MELDS));
        const int64_t f1 = p[s][St::P_FLOWERS], f2 = p[s][St::P_HELD_FLOWERS];
        if (f1 < 0 || f1 > 255 || f2 < 0 || f2 > 255) TW16_FAIL("p[" + str(s) + "]: flower bits out of 0..255");
        if (p[s][St::P_READY] & ~READY_BITS)
            TW16_FAIL("p[" + str(s) + ", P_READY] = " + str(p[s][St::P_READY]) + ": not ready flags");
        for (int64_t i = 0; i < nm; ++i) {
            const int64_t mt = ms[s][i][St::MC_TYPE], mk = ms[s][i][St::MC_KIND], fr = ms[s][i][St::MC_FROM];
            const bool chi_ok = mt != T::MELD_CHI || (mk < T::WIND0 && mk % 9 <= 6);
            if (mt < T::MELD_CHI || mt > T::MELD_ANKONG || mk < 0 || mk >= T::N_KINDS || fr < 0 || fr > 3 || !chi_ok)
                TW16_FAIL(
                    "melds[" + str(s) + ", " + str(i) + "] = (" + str(mt) + ", " + str(mk) + ", " + str(fr) +
                    "): not a meld (type MELD_CHI..MELD_ANKONG, kind 0..33, a chow from a suited 1-7, seat 0..3)");
        }
    }
    // Claim bits and stored answers: only what the hands allow (the step trusts them).
    const int64_t t = g[St::G_TILE];
    const bool claiming = ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0;
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t bits = p[s][St::P_CLAIM], ans = p[s][St::P_ANSWER];
        if (bits == 0 && ans == -1) continue;
        auto w = [&] { return "p[" + str(s) + "]: claim bits " + str(bits) + ", answer " + str(ans); };
        const int8_t* hs = h[s];
        const int64_t nm = p[s][St::P_NMELDS];
        if (!claiming || s == g[St::G_TURN] || bits <= 0 || bits > 127)
            TW16_FAIL(w() + ": no claim is open for this seat");
        if ((bits & ~St::C_READY) && t < 0) TW16_FAIL(w() + " without a tile in question");
        if ((bits & St::C_WIN) && hs[t] >= 4) TW16_FAIL(w() + ": a win on a fifth tile");
        if ((bits & St::C_PON) && (hs[t] < 2 || nm >= St::MAX_MELDS)) TW16_FAIL(w() + ": impossible pon");
        if ((bits & St::C_KONG) && (hs[t] < 3 || nm >= St::MAX_MELDS)) TW16_FAIL(w() + ": impossible kong");
        if (bits & (St::C_CHI_LOW | St::C_CHI_MID | St::C_CHI_HIGH)) {
            const int64_t r = t % 9;
            if (t >= T::WIND0 || s != (g[St::G_TURN] + 1) % 4 || nm >= St::MAX_MELDS ||
                ((bits & St::C_CHI_LOW) && !(r <= 6 && hs[t + 1] > 0 && hs[t + 2] > 0)) ||
                ((bits & St::C_CHI_MID) && !(r >= 1 && r <= 7 && hs[t - 1] > 0 && hs[t + 1] > 0)) ||
                ((bits & St::C_CHI_HIGH) && !(r >= 2 && hs[t - 2] > 0 && hs[t - 1] > 0)))
                TW16_FAIL(w() + ": impossible chow");
        }
        if (ans != -1 && !answer_fits(ans, bits)) TW16_FAIL(w() + ": an answer the claim bits do not allow");
    }
    if (ph == St::PH_ROB) {  // the konger's tile: four concealed (ankong) or one beside its pon
        const int8_t* hs = h[g[St::G_TURN]];
        if (t < 0 || (g[St::G_ROB_ANKONG] ? hs[t] != 4 : hs[t] < 1) ||
            (g[St::G_ROB_ANKONG] && p[g[St::G_TURN]][St::P_NMELDS] >= St::MAX_MELDS))
            TW16_FAIL("the robbed kong (kind " + str(t) + ") is not in the konger's hand");
    }
    // The action: one the step can take from this phase (the mask is checked by the caller).
    const int64_t cur = g[St::G_CUR];
    if (ph == St::PH_TURN) {
        const int8_t* hs = h[cur];
        bool ok = a == A::WIN || a == A::READY || (a < A::CHI && hs[a] > 0);
        if (a >= A::SELF_KONG && a < A::WIN) {
            const int64_t k = a - A::SELF_KONG;
            bool pon = false;
            for (int64_t i = 0; i < p[cur][St::P_NMELDS]; ++i)
                pon |= ms[cur][i][St::MC_TYPE] == T::MELD_PON && ms[cur][i][St::MC_KIND] == k;
            ok = (hs[k] == 4 && p[cur][St::P_NMELDS] < St::MAX_MELDS) || (pon && hs[k] >= 1);
        }
        if (!ok) TW16_FAIL("action " + str(a) + " cannot be taken on a turn with this hand");
    } else if (ph == St::PH_FLOWER || ph == St::PH_LA_CUT) {
        if (a != A::WIN && a != A::PASS) TW16_FAIL("action " + str(a) + ": only WIN or PASS answer this question");
    } else if (!answer_fits(a, p[cur][St::P_CLAIM])) {
        TW16_FAIL("action " + str(a) + " is not an answer the claim bits of seat " + str(cur) + " allow");
    }
    return true;
#undef TW16_RANGE
#undef TW16_FAIL
}

}  // namespace state_checks

using state_checks::game_ok;

}  // namespace tw16::bind
