// Walls, dealing, draws and flower replacement (RULES 2.1-2.4, 2.8, 2.9); see wall.hpp.
#include "tw16/wall.hpp"

#include "tw16/handend.hpp"
#include "tw16/rng.hpp"
#include "tw16/side.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace R = py::options;
constexpr int64_t FLOWER_ID0 = py::tiles::FLOWER_ID0;
}  // namespace

void fill_wall(const State& S, int64_t b, Opts opts) {
    View<int64_t, 1> g = S.g[b];
    const int64_t n = opts[R::OPT_FLOWERS] ? 144 : 136;
    g[St::G_WALL_N] = n;
    const int64_t k = g[St::G_SCRIPT_USED];
    View<uint8_t, 1> w = S.wall[b];
    if (k < S.script.shape[1]) {  // the next scripted wall
        for (int64_t i = 0; i < w.shape[0]; ++i) w[i] = S.script(b, k, i);
        g[St::G_SCRIPT_USED] = k + 1;
        return;
    }
    for (int64_t i = 0; i < 144; ++i) w[i] = static_cast<uint8_t>(i);
    for (int64_t i = n - 1; i > 0; --i) {  // Fisher-Yates on the game's own stream
        const int64_t j = randint(S.rng, b, i + 1);
        const uint8_t t = w[i];
        w[i] = w[j];
        w[j] = t;
    }
}

bool draw_tile(const State& S, int64_t b, int64_t seat, bool from_tail, int64_t src, Opts opts, const Prof& prof) {
    View<int64_t, 1> g = S.g[b];
    bool got_flower = false;
    while (true) {
        if (drawable(S, b, opts) <= 0) return wall_out(S, b, got_flower, opts, prof);
        int64_t t;
        if (from_tail) {
            t = S.wall(b, g[St::G_TAIL]);
            g[St::G_TAIL] -= 1;
            g[St::G_CHAIN] += 1;  // one more replacement draw in this turn's run
        } else {
            t = S.wall(b, g[St::G_HEAD]);
            g[St::G_HEAD] += 1;
        }
        if (t >= FLOWER_ID0) {  // expose it and replace it from the tail
            S.p(b, seat, St::P_FLOWERS) |= int64_t{1} << (t - FLOWER_ID0);
            if (opts[R::OPT_HK]) flower_side(S.p[b], seat, opts);
            got_flower = true;
            from_tail = true;
            if (src == St::SRC_FRONT) src = St::SRC_FLOWER;  // a chain started by a kong stays a kong replacement
            continue;
        }
        const int64_t k = t >> 2;
        S.hands(b, seat, k) = static_cast<int8_t>(S.hands(b, seat, k) + 1);
        g[St::G_LAST_DRAWN] = k;
        g[St::G_DRAWSRC] = src;
        break;
    }
    return got_flower && check_flower_win(S, b, opts, prof);
}

bool wall_out(const State& S, int64_t b, bool got_flower, Opts opts, const Prof& prof) {
    if (got_flower && check_flower_win(S, b, opts, prof)) return true;
    View<int64_t, 1> g = S.g[b];
    if (got_flower && g[St::G_OFFER] >= 0) {  // the offered flower win is asked first
        g[St::G_OFFER_DRAWN] = 1;
        g[St::G_PHASE] = St::PH_FLOWER;
        g[St::G_CUR] = g[St::G_OFFER];
        return true;
    }
    finish_drawn(S, b, opts);
    return true;
}

void deal_tile(const State& S, int64_t b, int64_t seat, int64_t t) {
    if (t >= FLOWER_ID0)
        S.p(b, seat, St::P_HELD_FLOWERS) |= int64_t{1} << (t - FLOWER_ID0);
    else
        S.hands(b, seat, t >> 2) = static_cast<int8_t>(S.hands(b, seat, t >> 2) + 1);
}

namespace {
// The hand's row state before the deal (hands, melds, river, the seats' scalars).
void clear_hand(const State& S, int64_t b) {
    for (int64_t s = 0; s < S.hands.shape[1]; ++s)
        for (int64_t k = 0; k < S.hands.shape[2]; ++k) S.hands(b, s, k) = 0;
    for (int64_t s = 0; s < S.melds.shape[1]; ++s)
        for (int64_t i = 0; i < S.melds.shape[2]; ++i)
            for (int64_t j = 0; j < S.melds.shape[3]; ++j) S.melds(b, s, i, j) = 0;
    for (int64_t i = 0; i < S.river.shape[1]; ++i)
        for (int64_t j = 0; j < S.river.shape[2]; ++j) S.river(b, i, j) = -1;
    for (int64_t s = 0; s < 4; ++s)
        for (int64_t j = 0; j < St::NP; ++j) S.p(b, s, j) = 0;
    for (int64_t s = 0; s < S.p.shape[1]; ++s) S.p(b, s, St::P_ANSWER) = -1;
}
}  // namespace

bool deal(const State& S, int64_t b, Opts opts, const Prof& prof) {
    View<int64_t, 1> g = S.g[b];
    clear_hand(S, b);
    fill_wall(S, b, opts);
    g[St::G_OFFER] = -1;
    g[St::G_OFFER_DRAWN] = 0;
    g[St::G_LIABLE] = -1;
    g[St::G_ROB_ANKONG] = 0;
    g[St::G_ROB_CHAIN] = 0;
    g[St::G_DICE] = 0;
    if (opts[R::OPT_HK]) roll_dice(S, b, opts);
    const int64_t dealer = g[St::G_DEALER];
    g[St::G_HEAD] = 0;
    g[St::G_TAIL] = g[St::G_WALL_N] - 1;
    g[St::G_NKONG] = 0;
    g[St::G_NRIVER] = 0;
    g[St::G_CHAIN] = 0;
    g[St::G_ANY_MELD] = 0;
    g[St::G_AFTER_CLAIM] = 0;
    g[St::G_READY_PENDING] = 0;
    g[St::G_SWAP1] = -1;
    g[St::G_SWAP2] = -1;
    g[St::G_TILE] = -1;
    g[St::G_RIVER_LAST] = 0;
    g[St::G_LAST_DRAWN] = -1;
    g[St::G_DRAWSRC] = St::SRC_FRONT;
    g[St::G_TURN] = dealer;
    g[St::G_DEALT] = 1;
    for (int64_t i = 0; i < 4; ++i) {  // 16 each from the front, dealer first
        const int64_t seat = pymod(dealer + i, 4);
        for (int64_t j = 0; j < 16; ++j) {
            deal_tile(S, b, seat, S.wall(b, g[St::G_HEAD]));
            g[St::G_HEAD] += 1;
        }
    }
    const int64_t t17 = S.wall(b, g[St::G_HEAD]);  // the dealer's 17th
    deal_tile(S, b, dealer, t17);
    g[St::G_HEAD] += 1;
    if (t17 < FLOWER_ID0) g[St::G_LAST_DRAWN] = t17 >> 2;
    S.p(b, dealer, St::P_NDRAWS) = 1;
    // Initial flowers: rounds from the dealer counter-clockwise until no seat holds one.
    while (true) {
        bool any_held = false;
        for (int64_t i = 0; i < 4; ++i) {
            const int64_t seat = pymod(dealer + i, 4);
            const int64_t held = S.p(b, seat, St::P_HELD_FLOWERS);
            if (held == 0) continue;
            any_held = true;
            S.p(b, seat, St::P_FLOWERS) |= held;
            S.p(b, seat, St::P_HELD_FLOWERS) = 0;
            if (opts[R::OPT_HK]) flower_side(S.p[b], seat, opts);
            for (int64_t f = 0; f < 8; ++f) {
                if ((held >> f) & 1) {
                    if (drawable(S, b, opts) <= 0) return wall_out(S, b, true, opts, prof);
                    const int64_t t = S.wall(b, g[St::G_TAIL]);
                    g[St::G_TAIL] -= 1;
                    deal_tile(S, b, seat, t);
                }
            }
            if (check_flower_win(S, b, opts, prof)) return true;
        }
        if (!any_held) break;
    }
    g[St::G_CUR] = dealer;
    return false;
}

}  // namespace tw16
