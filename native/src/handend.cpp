// The end of a hand (envs/engine/handend.py): wins, drawn hands, flower wins, scoring and
// settlement. finish_* leave the game in PH_HAND_OVER; step.cpp's after_hand takes it from there.
#include "tw16/handend.hpp"

#include <algorithm>
#include <array>

#include "tw16/ledger.hpp"
#include "tw16/mask.hpp"
#include "tw16/meld.hpp"
#include "tw16/score.hpp"
#include "tw16/settle.hpp"

namespace tw16 {

namespace {
namespace R = py::options;
namespace C = py::codes;
namespace St = py::state;

// A View over a fixed-size scratch buffer (no allocation on the decision path).
template <class T, size_t N>
View<T, 1> view1(std::array<T, N>& a) {
    return View<T, 1>::contiguous(a.data(), {static_cast<int64_t>(N)});
}
View<int64_t, 2> view44(std::array<int64_t, 16>& a) { return View<int64_t, 2>::contiguous(a.data(), {4, 4}); }

// Does the hand to score hold at most four tiles of each kind, melds included? Always, in a game the
// engine dealt; the bindings check a state's bounds but not that its tiles add up (check_game does),
// and the scorers rely on it, so finish_win counts such a hand as a scorer refusal instead.
bool tiles_fit(View<int8_t, 1> conc, View<int8_t, 1> mt, View<int8_t, 1> mk, int64_t nm) {
    int64_t total[py::tiles::N_KINDS];
    for (int64_t k = 0; k < py::tiles::N_KINDS; ++k) {
        if (conc[k] < 0) return false;
        total[k] = conc[k];
    }
    for (int64_t i = 0; i < nm; ++i) add_meld_tiles(total, mt[i], mk[i]);
    for (int64_t k = 0; k < py::tiles::N_KINDS; ++k)
        if (total[k] > 4) return false;
    return true;
}
}  // namespace

int64_t popcount8(int64_t x) {
    int64_t n = 0;
    for (int i = 0; i < 8; ++i) n += (x >> i) & 1;
    return n;
}

void clear_result(const State& S, int64_t b) {
    for (int s = 0; s < 4; ++s) {
        S.res_tai(b, s) = -1;
        S.res_delta(b, s) = 0;
        for (int64_t i = 0; i < S.res_items.shape[2]; ++i) S.res_items(b, s, i) = 0;
    }
}

void apply_deltas(const State& S, int64_t b, View<int64_t, 1> deltas, Opts opts) {
    const int64_t per_tai = opts[R::OPT_PER_TAI];
    for (int s = 0; s < 4; ++s) {
        // (int64 sums wrap, see add_wrap: scores, side payments and rule options are the caller's values)
        S.res_delta(b, s) = add_wrap(S.res_delta(b, s), deltas[s]);
        S.scores(b, s) = add_wrap(S.scores(b, s), deltas[s]);
        // float64 true division, rounded to float32, then a float32 addition (the recorded rewards).
        const float r = static_cast<float>(static_cast<double>(deltas[s]) / static_cast<double>(per_tai));
        S.rewards(b, s) = S.rewards(b, s) + r;
    }
}

void record_hand(const State& S, int64_t b, int64_t tile) {
    auto g = S.g[b];
    const int64_t slot = pymod(g[St::G_HANDS], St::HAND_LOG);
    auto r = S.rec[b][slot];
    r[St::REC_HAND] = g[St::G_HANDS];
    r[St::REC_RESULT] = g[St::G_RESULT];
    r[St::REC_WINNERS] = g[St::G_WINNERS];
    r[St::REC_PAYER] = g[St::G_PAYER];
    r[St::REC_WIN_BY] = g[St::G_WIN_BY];
    r[St::REC_TILE] = tile;
    r[St::REC_SRC] = g[St::G_DRAWSRC];
    r[St::REC_DEALER] = g[St::G_DEALER];
    r[St::REC_STREAK] = g[St::G_STREAK];
    r[St::REC_ROT] = g[St::G_ROT];
    r[St::REC_HEAD] = g[St::G_HEAD];
    r[St::REC_TAIL] = g[St::G_TAIL];
    r[St::REC_AT_DEAL] = 0;  // (start_hand sets it)
    r[St::REC_FLOWERS] = 0;
    int64_t n = 0;
    for (int64_t s = 0; s < 4; ++s) {
        r[St::REC_FLOWERS] |= (S.p(b, s, St::P_FLOWERS) & 0xFF) << (8 * s);
        r[St::REC_TAI + s] = S.res_tai(b, s);
        r[St::REC_DELTA + s] = S.res_delta(b, s);
        for (int64_t i = 0; i < C::N_ITEMS; ++i) {
            const int16_t v = S.res_items(b, s, i);
            if (v == 0) continue;
            if (n < St::REC_MAX_ITEMS)
                S.rec_items(b, slot, n) = static_cast<int32_t>(((s * C::N_ITEMS + i) << 16) | static_cast<uint16_t>(v));
            ++n;
        }
    }
    r[St::REC_NITEMS] = n;
}

void pay_hand(const State& S, int64_t b, View<int64_t, 2> legs, bool drawn, Opts opts) {
    std::array<int64_t, 4> d{};
    auto deltas = view1(d);
    if (opts[R::OPT_SETTLE_LA] && opts[R::OPT_EPISODE_GAME]) {
        if (!drawn)
            S.g(b, St::G_LA_ASK) = la_hand(S.la[b], S.la_k[b], legs, opts[R::OPT_LA_CUT], opts[R::OPT_LA_ASK], deltas);
        else if (opts[R::OPT_LA_DRAW_SETTLE])
            la_close_all(S.la[b], S.la_k[b], deltas);
    } else {
        pay_in_full(legs, deltas);
    }
    for (int s = 0; s < 4; ++s) {
        deltas[s] = add_wrap(deltas[s], S.p(b, s, St::P_SIDE));
        S.p(b, s, St::P_SIDE) = 0;
    }
    apply_deltas(S, b, deltas, opts);
}

void finish_drawn(const State& S, int64_t b, Opts opts) {
    auto g = S.g[b];
    clear_result(S, b);
    std::array<int64_t, 16> l{};
    pay_hand(S, b, view44(l), true, opts);
    g[St::G_RESULT] = St::RES_DRAWN;
    g[St::G_WINNERS] = 0;
    g[St::G_PAYER] = -1;
    g[St::G_WIN_BY] = -1;
    g[St::G_PHASE] = St::PH_HAND_OVER;
    g[St::G_CUR] = -1;
    record_hand(S, b, -1);
}

int64_t replacement_flags(View<int64_t, 1> g) {
    const int64_t src = g[St::G_DRAWSRC];
    int64_t fl = 0;
    if (src == St::SRC_KONG || src == St::SRC_EXPOSED_KONG)
        fl |= C::F_KONG_REPLACEMENT;
    else if (src == St::SRC_FLOWER)
        fl |= C::F_FLOWER_REPLACEMENT;
    if (src != St::SRC_FRONT)  // replacement draws in a row ending with this tile (連槓開花, EXTRAS 2.2)
        fl |= std::min<int64_t>(std::max<int64_t>(g[St::G_CHAIN], 1), C::CHAIN_MASK) << C::CHAIN_SHIFT;
    return fl;
}

int64_t early_win_flag(const State& S, int64_t b, int64_t w, int64_t win_by, Opts opts) {
    auto g = S.g[b];
    auto p = S.p[b];
    const bool non_dealer = w != g[St::G_DEALER];
    const bool no_meld_yet = g[St::G_ANY_MELD] == 0;
    const bool self_drawn = win_by == C::WIN_SELF_DRAW;
    const int64_t early = opts[R::OPT_EARLY_WINS];  // EW_* (envs/options.py)
    if (early == R::EW_FIRST_ROUND) {
        // the first go-around (一輪): the first four discards, ended by a chi, pon or exposed kong; the
        // non-dealers' draws in it come after discards 1..3 (PLATFORMS.md 3.3)
        if (any_claimed(p, S.melds[b])) return 0;
        if (self_drawn) return non_dealer && g[St::G_NRIVER] <= 3 ? C::F_EARTHLY : 0;
        return g[St::G_NRIVER] <= 4 ? C::F_HUMAN : 0;
    }
    if (early == R::EW_DEALER_DISCARD && !self_drawn && non_dealer && no_meld_yet && g[St::G_NRIVER] == 1)
        return C::F_EARTHLY;  // a win on the dealer's first discard, the first of the hand
    if (self_drawn)           // (dealer_discard: a self-draw on the first draw is no timing item)
        return early == R::EW_STANDARD && non_dealer && no_meld_yet && p(w, St::P_NDISC) == 0 && p(w, St::P_NDRAWS) == 1
                   ? C::F_EARTHLY
                   : 0;
    return non_dealer && no_meld_yet && p(w, St::P_NDRAWS) == 0 ? C::F_HUMAN : 0;
}

std::pair<int64_t, bool> win_flags(const State& S, int64_t b, int64_t w, int64_t win_by, Opts opts) {
    auto g = S.g[b];
    auto p = S.p[b];
    const int64_t dealer = g[St::G_DEALER];
    int64_t fl = p(w, St::P_READY);
    // G_ANY_MELD: some seat has claimed (chi, pon, exposed kong) or declared a kong, concealed ones
    // too (add_meld sets it for an ankong; an added kong follows a pon). PROFILES.md: any of these
    // before the win voids earthly_win and human_win (and heavenly_win, the dealer's first action).
    const bool no_meld_yet = g[St::G_ANY_MELD] == 0;
    const bool fresh = no_meld_yet && p(w, St::P_NDISC) == 0;
    if (win_by == C::WIN_SELF_DRAW) {
        if (w == dealer && fresh) return {fl | C::F_HEAVENLY, true};
        fl |= replacement_flags(g);
        if (drawable(S, b, opts) == 0) fl |= C::F_LAST_TILE;
        fl |= early_win_flag(S, b, w, win_by, opts);
    } else if (win_by == C::WIN_DISCARD) {
        if (g[St::G_RIVER_LAST]) fl |= C::F_LAST_TILE;
        fl |= early_win_flag(S, b, w, win_by, opts);
    } else if (win_by == C::WIN_FLOWERS && w == g[St::G_TURN]) {
        // The seat on turn completed the flowers with its own draw; if the replacement drawn after the
        // last flower completed its hand too, that is 槓上開花 (seed 000 Ⅸ-29: 如補得之牌恰為槓上開花，
        // 牌面台數照算): a flower win counts as self-drawn for the replacement flags (CASES.md). The
        // flags add nothing when the hand is not complete (score_hand scores the flowers alone).
        fl |= replacement_flags(g);
    }
    if (opts[R::OPT_HK]) fl |= hk_flags(S, b, w, win_by);
    return {fl, false};
}

int64_t hk_flags(const State& S, int64_t b, int64_t w, int64_t win_by) {
    auto g = S.g[b];
    int64_t fl = 0;
    if (S.p(b, w, St::P_IPPATSU)) fl |= C::F_IPPATSU;
    const bool rob = win_by == C::WIN_ROB_KONG;
    if (rob) fl |= (g[St::G_ROB_ANKONG] ? C::F_ROBBED_ANKONG : 0) | (g[St::G_ROB_CHAIN] ? C::F_ROB_KONG_CHAIN : 0);
    if (win_by == C::WIN_DISCARD || rob) {
        int64_t n = 0;
        for (int s = 0; s < 4; ++s) n += (g[St::G_WINNERS] >> s) & 1;
        fl |= n << C::CO_WIN_SHIFT;
    }
    // The robbed tile counts as a discard: it already lies in the river (step.cpp's resolve_rob).
    int64_t floor = 0;
    for (int64_t i = 0; i < g[St::G_NRIVER]; ++i) floor += S.river(b, i, St::RV_CLAIMED_BY) < 0;
    // counts are stored + 1 (0: not given)
    fl |= (std::min<int64_t>(g[St::G_NRIVER], C::COUNT_MASK - 1) + 1) << C::DISCARDS_SHIFT;
    fl |= (std::min<int64_t>(floor, C::COUNT_MASK - 1) + 1) << C::FLOOR_SHIFT;
    return fl;
}

void finish_win(const State& S, int64_t b, int64_t winners, int64_t win_by, int64_t payer, int64_t tile, Opts opts,
                const Prof& prof) {
    auto g = S.g[b];
    clear_result(S, b);
    const int64_t dealer = g[St::G_DEALER];
    const int64_t streak = g[St::G_STREAK];
    const int64_t rw = pymod(floordiv(g[St::G_ROT], 4), 4);
    std::array<int8_t, 34> conc_b{};
    std::array<int8_t, 8> mt_b{}, mk_b{};
    std::array<int32_t, C::N_ITEMS> items_b{};
    std::array<int64_t, 16> legs_b{};
    auto conc = view1(conc_b);
    auto mt = view1(mt_b);
    auto mk = view1(mk_b);
    auto items = view1(items_b);
    auto legs = view44(legs_b);
    g[St::G_WINNERS] = winners;  // (read by hk_flags)
    int64_t liable = -1;
    if (opts[R::OPT_HK] && win_by == C::WIN_SELF_DRAW && g[St::G_DRAWSRC] != St::SRC_FRONT)
        liable = g[St::G_LIABLE];  // 全包: the chain began with a kong claimed on that seat's discard
    int64_t rec_tile = -1;         // the winning tile (the same for every winner)
    for (int64_t w = 0; w < 4; ++w) {
        if (!((winners >> w) & 1)) continue;
        for (int k = 0; k < 34; ++k) conc[k] = S.hands(b, w, k);
        const int64_t nm = S.p(b, w, St::P_NMELDS);
        for (int64_t i = 0; i < nm; ++i) {
            mt[i] = S.melds(b, w, i, St::MC_TYPE);
            mk[i] = S.melds(b, w, i, St::MC_KIND);
        }
        const auto [flags, no_tile] = win_flags(S, b, w, win_by, opts);
        int64_t win_tile = -1;
        if (win_by == C::WIN_DISCARD || win_by == C::WIN_ROB_KONG) {
            conc[tile] = static_cast<int8_t>(conc[tile] + 1);
            win_tile = tile;
        } else if (win_by == C::WIN_SELF_DRAW && !no_tile) {
            win_tile = g[St::G_LAST_DRAWN];
        }
        rec_tile = win_tile;
        items_b.fill(0);
        int64_t tai = -1;
        if (tiles_fit(conc, mt, mk, nm))
            tai = score_hand(conc, mt, mk, nm, S.p(b, w, St::P_FLOWERS), win_tile, win_by, pymod(w - dealer, 4), rw,
                             flags, prof, items);
        if (tai < 0) {  // the engine offered a win the scorer refuses: counted, checked by the invariants
            g[St::G_SCORE_ERR] = add_wrap(g[St::G_SCORE_ERR], 1);
            tai = 0;
        }
        S.res_tai(b, w) = static_cast<int32_t>(tai);
        for (int64_t i = 0; i < C::N_ITEMS; ++i) S.res_items(b, w, i) = static_cast<int16_t>(items[i]);
        owe(win_legs(Win{tai, win_by, w, payer, liable, dealer, streak}, opts), w, legs);
    }
    pay_hand(S, b, legs, false, opts);
    g[St::G_RESULT] = St::RES_WIN;
    g[St::G_PAYER] = liable >= 0 ? liable : payer;
    g[St::G_WIN_BY] = win_by;
    g[St::G_PHASE] = St::PH_HAND_OVER;
    g[St::G_CUR] = -1;
    record_hand(S, b, rec_tile);
}

bool check_flower_win(const State& S, int64_t b, Opts opts, const Prof& prof) {
    auto p = S.p[b];
    int64_t total = 0;
    for (int s = 0; s < 4; ++s) total += popcount8(p(s, St::P_FLOWERS));
    if (total < 8) return false;
    for (int64_t s = 0; s < 4; ++s)
        if (popcount8(p(s, St::P_FLOWERS)) == 8) return flower_win(S, b, s, -1, opts, prof);
    if (!opts[R::OPT_SEVEN_FLOWER_WIN]) return false;  // PLATFORMS.md 3.1: no 七搶一, play goes on
    for (int64_t s = 0; s < 4; ++s)
        if (popcount8(p(s, St::P_FLOWERS)) == 7)
            for (int64_t o = 0; o < 4; ++o)
                if (o != s && p(o, St::P_FLOWERS) != 0) return flower_win(S, b, s, o, opts, prof);
    return false;
}

bool flower_win(const State& S, int64_t b, int64_t s, int64_t payer, Opts opts, const Prof& prof) {
    if (!opts[R::OPT_FLOWER_OFFER]) {
        finish_win(S, b, int64_t{1} << s, C::WIN_FLOWERS, payer, -1, opts, prof);
        return true;
    }
    auto g = S.g[b];
    if (g[St::G_OFFER] < 0 && !S.p(b, s, St::P_OFFER_PASSED)) {
        g[St::G_OFFER] = s;
        g[St::G_OFFER_PAYER] = payer;
    }
    return false;
}

}  // namespace tw16
