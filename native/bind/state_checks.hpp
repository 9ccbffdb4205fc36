// The state checks of the engine's bindings (bind_engine.cpp), without nanobind: game_ok says
// whether a game may be stepped. Kept apart so that the libFuzzer harness of the boundary checks
// (native/fuzz/fuzz_boundary.cpp) runs the very checks the bindings run.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "tw16/constants.hpp"
#include "tw16/mask.hpp"
#include "tw16/state.hpp"

namespace tw16::bind {

namespace state_checks {
namespace St = py::state;
namespace R = py::rules;
namespace T = py::tiles;
namespace A = py::actions;

// -- the state of one game --------------------------------------------------------------------
// What must hold before a game is stepped, so that the engine stays in bounds: every value used as
// an index in range, each kind's four tiles (and each flower) accounted for exactly once, hand sizes
// that fit the phase, claim bits and stored answers that the hands allow, and the stored mask equal
// to the mask of the state (the action is checked against it). A state made by the engine always
// passes; anything else is refused, naming the game and the reason. No allocation unless it fails.
inline std::string in(int64_t v, int64_t lo, int64_t hi) {
    return std::to_string(v) + ", expected " + std::to_string(lo) + ".." + std::to_string(hi);
}
inline std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t READY_BITS = py::codes::F_HEAVENLY_READY | py::codes::F_EARTHLY_READY |
                               py::codes::F_DECLARED_READY | py::codes::F_SHOWN_READY;

// True when game b may be stepped; else false, and *why (when given) says why.
inline bool game_ok(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof, std::string* why) {
#define TW16_FAIL(msg)          \
    do {                        \
        if (why) *why = (msg);  \
        return false;           \
    } while (0)
#define TW16_RANGE(idx, lo, hi)                                                   \
    do {                                                                          \
        const int64_t v_ = g[St::idx], lo_ = (lo), hi_ = (hi);                    \
        if (v_ < lo_ || v_ > hi_) TW16_FAIL("g[" #idx "] = " + in(v_, lo_, hi_)); \
    } while (0)
    auto g = S.g[b];
    auto p = S.p[b];
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
    // Every tile exactly once: live wall + hands + melds + unclaimed discards (+ flowers).
    std::array<int32_t, T::N_ALL_KINDS> cnt{};
    for (int64_t i = g[St::G_HEAD]; i <= g[St::G_TAIL]; ++i) {
        const int64_t t = S.wall(b, i);
        if (t >= n) TW16_FAIL("wall[" + str(i) + "] = " + in(t, 0, n - 1));
        cnt[t >= T::N_TILES_NO_FLOWERS ? T::FLOWER0 + t - T::N_TILES_NO_FLOWERS : t >> 2] += 1;
    }
    int64_t plus = -1;  // the seat holding 17 - 3m tiles
    if (ph == St::PH_TURN || ph == St::PH_ROB) plus = g[St::G_TURN];
    if (ph == St::PH_READY0) plus = g[St::G_DEALER];
    if (ph == St::PH_FLOWER) plus = g[St::G_OFFER_DRAWN] ? -1 : g[St::G_TURN];
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = p(s, St::P_NMELDS);
        if (nm < 0 || nm > St::MAX_MELDS) TW16_FAIL("p[" + str(s) + ", P_NMELDS] = " + in(nm, 0, St::MAX_MELDS));
        if (p(s, St::P_FLOWERS) < 0 || p(s, St::P_FLOWERS) > 255 || p(s, St::P_HELD_FLOWERS) < 0 ||
            p(s, St::P_HELD_FLOWERS) > 255)
            TW16_FAIL("p[" + str(s) + "]: flower bits out of 0..255");
        if (p(s, St::P_READY) & ~READY_BITS) TW16_FAIL("p[" + str(s) + ", P_READY] = " + str(p(s, St::P_READY)) + ": not ready flags");
        int64_t tot = 0;
        for (int64_t k = 0; k < T::N_KINDS; ++k) {
            const int64_t c = S.hands(b, s, k);
            if (c < 0 || c > 4) TW16_FAIL("hands[" + str(s) + ", " + str(k) + "] = " + in(c, 0, 4));
            cnt[k] += static_cast<int32_t>(c);
            tot += c;
        }
        const int64_t lo = 16 - 3 * nm + (s == plus ? 1 : 0);
        const int64_t hi = ph == St::PH_LA_CUT ? lo + 1 : lo;  // (between hands: as the last hand ended)
        if (tot < lo || tot > hi)
            TW16_FAIL("seat " + str(s) + " holds " + str(tot) + " tiles with " + str(nm) + " melds in phase " + str(ph));
        const int64_t fl = p(s, St::P_FLOWERS) | p(s, St::P_HELD_FLOWERS);
        for (int f = 0; f < 8; ++f) cnt[T::FLOWER0 + f] += static_cast<int32_t>((fl >> f) & 1);
        for (int64_t i = 0; i < nm; ++i) {
            const int64_t mt = S.melds(b, s, i, 0), mk = S.melds(b, s, i, 1), fr = S.melds(b, s, i, 2);
            const bool chi_ok = mt != T::CHI || (mk < T::WIND0 && mk % 9 <= 6);
            if (mt < T::CHI || mt > T::ANKONG || mk < 0 || mk >= T::N_KINDS || fr < 0 || fr > 3 || !chi_ok)
                TW16_FAIL("melds[" + str(s) + ", " + str(i) + "] = (" + str(mt) + ", " + str(mk) + ", " + str(fr) +
                          "): not a meld (type CHI..ANKONG, kind 0..33, a chow from a suited 1-7, seat 0..3)");
            if (mt == T::CHI) {
                for (int d = 0; d < 3; ++d) cnt[mk + d] += 1;
            } else {
                cnt[mk] += mt == T::PON ? 3 : 4;
            }
        }
    }
    for (int64_t i = 0; i < g[St::G_NRIVER]; ++i) {
        const int64_t k = S.river(b, i, 0), s = S.river(b, i, 1), c = S.river(b, i, 2);
        if (k < 0 || k >= T::N_KINDS || s < 0 || s > 3 || c < -1 || c > 3)
            TW16_FAIL("river[" + str(i) + "] = (" + str(k) + ", " + str(s) + ", " + str(c) +
                      ", ...): expected a kind 0..33, a seat 0..3, claimed by -1..3");
        if (c < 0) cnt[k] += 1;
    }
    for (int64_t k = 0; k < T::N_KINDS; ++k)
        if (cnt[k] != 4) TW16_FAIL(str(cnt[k]) + " tiles of kind " + str(k) + " in the game, expected 4");
    for (int64_t f = 0; f < 8; ++f)
        if (cnt[T::FLOWER0 + f] != (n == T::N_TILES ? 1 : 0)) TW16_FAIL("flower " + str(f) + " is not accounted for once");
    // Claim bits and stored answers: only what the hands allow (the step trusts them).
    const int64_t t = g[St::G_TILE];
    const bool claiming = ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0;
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t bits = p(s, St::P_CLAIM), ans = p(s, St::P_ANSWER);
        if (bits == 0 && ans == -1) continue;
        const std::string w = "p[" + str(s) + "]: claim bits " + str(bits) + ", answer " + str(ans);
        auto h = S.hands[b][s];
        const int64_t nm = p(s, St::P_NMELDS);
        if (!claiming || s == g[St::G_TURN] || bits < 0 || bits > 127) TW16_FAIL(w + ": no claim is open for this seat");
        if ((bits & ~St::C_READY) && t < 0) TW16_FAIL(w + " without a tile in question");
        if ((bits & St::C_PON) && (h[t] < 2 || nm >= St::MAX_MELDS)) TW16_FAIL(w + ": impossible pon");
        if ((bits & St::C_KONG) && (h[t] < 3 || nm >= St::MAX_MELDS)) TW16_FAIL(w + ": impossible kong");
        if (bits & (St::C_CHI_LOW | St::C_CHI_MID | St::C_CHI_HIGH)) {
            const int64_t r = t % 9;
            if (t >= T::WIND0 || s != (g[St::G_TURN] + 1) % 4 || nm >= St::MAX_MELDS ||
                ((bits & St::C_CHI_LOW) && !(r <= 6 && h[t + 1] > 0 && h[t + 2] > 0)) ||
                ((bits & St::C_CHI_MID) && !(r >= 1 && r <= 7 && h[t - 1] > 0 && h[t + 1] > 0)) ||
                ((bits & St::C_CHI_HIGH) && !(r >= 2 && h[t - 2] > 0 && h[t - 1] > 0)))
                TW16_FAIL(w + ": impossible chow");
        }
        const bool ans_ok = ans == -1 || ans == A::PASS || (ans == A::WIN && (bits & St::C_WIN)) ||
                            (ans == A::CHI && (bits & St::C_CHI_LOW)) || (ans == A::CHI + 1 && (bits & St::C_CHI_MID)) ||
                            (ans == A::CHI + 2 && (bits & St::C_CHI_HIGH)) || (ans == A::PON && (bits & St::C_PON)) ||
                            (ans == A::KONG && (bits & St::C_KONG)) || (ans == A::READY && (bits & St::C_READY));
        if (!ans_ok || (bits == 0 && ans != -1)) TW16_FAIL(w + ": an answer the claim bits do not allow");
    }
    if (ph == St::PH_ROB) {  // the konger's tile: four concealed (ankong) or one beside its pon
        auto h = S.hands[b][g[St::G_TURN]];
        if (t < 0 || (g[St::G_ROB_ANKONG] ? h[t] != 4 : h[t] < 1) ||
            (g[St::G_ROB_ANKONG] && p(g[St::G_TURN], St::P_NMELDS) >= St::MAX_MELDS))
            TW16_FAIL("the robbed kong (kind " + str(t) + ") is not in the konger's hand");
    }
    for (int64_t d = 0; d < 4; ++d)
        for (int64_t c = 0; c < 4; ++c) {
            const double v = S.la(b, d, c);
            if (!(v >= 0.0 && v < 9.0e15) || S.la_k(b, d, c) < 0)
                TW16_FAIL("la[" + str(d) + ", " + str(c) + "] / la_k: not an open debt (0 <= R < 9e15, k >= 0)");
        }
    // The stored mask must be the state's (the actions are checked against it).
    std::array<bool, A::N_ACTIONS> m{};
    mask_rows(View<bool, 1>::contiguous(m.data(), {A::N_ACTIONS}), g, p, S.hands[b], S.melds[b], false, opts, cfg,
              prof.p_opts);
    for (int64_t a = 0; a < A::N_ACTIONS; ++a)
        if (m[a] != S.mask(b, a)) TW16_FAIL("the mask is not the mask of the state (action " + str(a) + ")");
    return true;
#undef TW16_RANGE
#undef TW16_FAIL
}

}  // namespace state_checks

using state_checks::game_ok;

}  // namespace tw16::bind
