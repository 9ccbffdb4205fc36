// Invariants of one game (envs/engine/invariants.py), checked after every step of random play:
// check_game returns 0 (E_OK) or the first failing E_* code.
#include "tw16/invariants.hpp"

#include <array>
#include <cmath>

#include "tw16/handend.hpp"
#include "tw16/meld.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace Inv = py::invariants;
namespace T = py::tiles;

// After a hand won on a discard or a robbed kong, the seat that paid holds 16 - 3m tiles: the
// discard, or the robbed tile (step.cpp's resolve_rob), lies in the river, not in its hand.
bool payer_hand_ok(const State& S, int64_t b) {
    auto g = S.g[b];
    const int64_t wb = g[St::G_WIN_BY];
    if (g[St::G_RESULT] != St::RES_WIN || (wb != py::codes::WIN_DISCARD && wb != py::codes::WIN_ROB_KONG)) return true;
    const int64_t d = g[St::G_PAYER];
    if (d < 0 || d > 3) return false;
    int64_t tot = 0;
    for (int k = 0; k < 34; ++k) tot += S.hands(b, d, k);
    return tot == 16 - 3 * S.p(b, d, St::P_NMELDS);
}
}  // namespace

int64_t check_game(const State& S, int64_t b, Opts opts) {
    auto g = S.g[b];
    // Zero-sum (rewards summed in float64).
    double rs = 0.0;
    int64_t ss = 0;
    for (int s = 0; s < 4; ++s) {
        rs += static_cast<double>(S.rewards(b, s));
        ss = add_wrap(ss, S.scores(b, s));  // (numpy's sum wraps)
    }
    if (std::fabs(rs) > 1e-3 || ss != 0) return Inv::E_ZERO_SUM;
    if (g[St::G_SCORE_ERR] != 0) return Inv::E_SCORER;
    if (S.terminated[b]) {
        for (int64_t a = 0; a < S.mask.shape[1]; ++a)
            if (!S.mask(b, a)) return Inv::E_DONE_MASK;
        return payer_hand_ok(S, b) ? Inv::E_OK : Inv::E_HAND_SIZE;
    }
    // Every tile accounted for.
    const int64_t n = g[St::G_WALL_N];
    if (g[St::G_HEAD] < 0 || g[St::G_TAIL] >= n || g[St::G_TAIL] < g[St::G_HEAD] - 1 || drawable(S, b, opts) < 0)
        return Inv::E_WALL;
    std::array<int32_t, 42> cnt{};
    for (int64_t i = g[St::G_HEAD]; i < g[St::G_TAIL] + 1; ++i) {
        const int64_t t = S.wall(b, i);
        cnt[t >= T::FLOWER_ID0 ? T::FLOWER0 + t - T::FLOWER_ID0 : t >> 2] += 1;
    }
    for (int64_t s = 0; s < 4; ++s) {
        for (int k = 0; k < 34; ++k) {
            const int64_t c = S.hands(b, s, k);
            if (c < 0 || c > 4) return Inv::E_COUNTS;
            cnt[k] += static_cast<int32_t>(c);
        }
        const int64_t fl = S.p(b, s, St::P_FLOWERS) | S.p(b, s, St::P_HELD_FLOWERS);
        for (int f = 0; f < 8; ++f) cnt[34 + f] += static_cast<int32_t>((fl >> f) & 1);
        for (int64_t i = 0; i < S.p(b, s, St::P_NMELDS); ++i) {
            add_meld_tiles(cnt, S.melds(b, s, i, St::MC_TYPE), S.melds(b, s, i, St::MC_KIND));
        }
    }
    for (int64_t i = 0; i < g[St::G_NRIVER]; ++i)
        if (S.river(b, i, St::RV_CLAIMED_BY) < 0) cnt[S.river(b, i, St::RV_KIND)] += 1;
    for (int k = 0; k < 34; ++k)
        if (cnt[k] != 4) return Inv::E_TILES;
    for (int f = 0; f < 8; ++f)
        if (cnt[34 + f] != (n == 144 ? 1 : 0)) return Inv::E_TILES;
    // Hand sizes: 16 - 3m, plus one for the seat on turn (or the konger while robbing, or the dealer
    // before its first action).
    const int64_t ph = g[St::G_PHASE];
    const int64_t cur = g[St::G_CUR];
    if (cur < 0 || cur > 3) return Inv::E_SEAT;
    int64_t plus = -1;
    if (ph == St::PH_TURN) {
        plus = g[St::G_TURN];
        if (cur != plus) return Inv::E_SEAT;
    } else if (ph == St::PH_ROB) {
        plus = g[St::G_TURN];
    } else if (ph == St::PH_READY0) {
        plus = g[St::G_DEALER];
    } else if (ph == St::PH_FLOWER) {
        if (cur != g[St::G_OFFER]) return Inv::E_SEAT;
        plus = g[St::G_OFFER_DRAWN] ? -1 : g[St::G_TURN];
    } else if (ph == St::PH_LA_CUT) {                            // between hands: the last hand's tiles lie as it ended
        const int64_t low = g[St::G_LA_ASK] & -g[St::G_LA_ASK];  // the debtor of the lowest pending debt answers
        if (low == 0 || ((low >> (4 * cur)) & 15) == 0) return Inv::E_SEAT;
        return payer_hand_ok(S, b) ? Inv::E_OK : Inv::E_HAND_SIZE;
    } else if (ph != St::PH_CLAIM) {
        return Inv::E_SEAT;
    }
    for (int64_t s = 0; s < 4; ++s) {
        int64_t tot = 0;
        for (int k = 0; k < 34; ++k) tot += S.hands(b, s, k);
        const int64_t want = 16 - 3 * S.p(b, s, St::P_NMELDS) + (s == plus ? 1 : 0);
        if (tot != want) return Inv::E_HAND_SIZE;
    }
    bool anyl = false;
    for (int64_t a = 0; a < S.mask.shape[1]; ++a) anyl = anyl || S.mask(b, a);
    if (!anyl) return Inv::E_NO_ACTION;
    return Inv::E_OK;
}

}  // namespace tw16
