// One game's transitions (envs/engine/step.py): reset, step, claim resolution, hand and episode
// ends, and the batch loops. Game b touches only row b of every array and its own random stream, so
// the batch loops split over threads (parallel.hpp) without changing any result.
#include "tw16/step.hpp"

#include <array>

#include "tw16/claims.hpp"
#include "tw16/handend.hpp"
#include "tw16/ledger.hpp"
#include "tw16/mask.hpp"
#include "tw16/parallel.hpp"
#include "tw16/rng.hpp"
#include "tw16/side.hpp"
#include "tw16/wall.hpp"

namespace tw16 {

namespace {
namespace R = py::options;
namespace C = py::codes;
namespace St = py::state;
namespace A = py::actions;
namespace T = py::tiles;
namespace M = py::mask;

View<int64_t, 1> view4(std::array<int64_t, 4>& a) { return View<int64_t, 1>::contiguous(a.data(), {4}); }

// The mask of game b from its rows (mask.py's mask_rows).
inline void mask_game(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof) {
    mask_rows(S.mask[b], S.g[b], S.p[b], S.hands[b], S.melds[b], S.terminated[b], opts, cfg, prof.p_opts);
}
}  // namespace

// -- turns ----------------------------------------------------------------------------------
bool begin_turn(const State& S, int64_t b, int64_t seat, bool draw, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    g[St::G_TURN] = seat;
    g[St::G_CUR] = seat;
    g[St::G_PHASE] = St::PH_TURN;
    g[St::G_AFTER_CLAIM] = 0;
    g[St::G_READY_PENDING] = 0;
    g[St::G_SWAP1] = -1;
    g[St::G_SWAP2] = -1;
    g[St::G_LAST_DRAWN] = -1;
    g[St::G_DRAWSRC] = St::SRC_FRONT;
    if (draw) {
        S.p(b, seat, St::P_NDRAWS) = add_wrap(S.p(b, seat, St::P_NDRAWS), 1);  // (counters wrap, see add_wrap)
        if (!(opts[R::OPT_HK] && opts[R::OPT_STRICT_PASS]))
            S.p(b, seat, St::P_PASS_WIN) = 0;  // 過水 lasts until the seat's own next draw (hongkong: discard)
        return draw_tile(S, b, seat, false, St::SRC_FRONT, opts, prof);
    }
    return false;
}

void add_meld(const State& S, int64_t b, int64_t seat, int64_t mtype, int64_t kind, int64_t frm) {
    const int64_t n = S.p(b, seat, St::P_NMELDS);
    S.melds(b, seat, n, St::MC_TYPE) = static_cast<int8_t>(mtype);
    S.melds(b, seat, n, St::MC_KIND) = static_cast<int8_t>(kind);
    S.melds(b, seat, n, St::MC_FROM) = static_cast<int8_t>(frm);
    S.p(b, seat, St::P_NMELDS) = n + 1;
    S.g(b, St::G_ANY_MELD) = 1;
    S.p(b, seat, St::P_READY) = 0;  // a declared ready hand that changes loses its flag
}

void to_river(const State& S, int64_t b, int64_t seat, int64_t k, int64_t bits) {
    auto g = S.g[b];
    S.hands(b, seat, k) = static_cast<int8_t>(S.hands(b, seat, k) - 1);
    const int64_t i = g[St::G_NRIVER];
    S.river(b, i, St::RV_KIND) = static_cast<int8_t>(k);
    S.river(b, i, St::RV_SEAT) = static_cast<int8_t>(seat);
    S.river(b, i, St::RV_CLAIMED_BY) = -1;
    S.river(b, i, St::RV_BITS) = static_cast<int8_t>(bits);
    g[St::G_NRIVER] = i + 1;
}

void discard(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    auto p = S.p[b];
    // the window of a 天聽 / 地聽 declared with this discard, read before the discard is counted
    const int64_t window = (g[St::G_READY_PENDING] && cfg[M::CFG_READY_MODE] == M::READY_HEAVEN_EARTH)
                               ? ready_window_flag(g, p[seat], seat, false, any_claimed(p, S.melds[b]), opts, cfg)
                               : 0;
    to_river(S, b, seat, k, (k == g[St::G_LAST_DRAWN] && !g[St::G_AFTER_CLAIM]) ? St::RV_TSUMOGIRI : 0);
    p(seat, St::P_IPPATSU) = 0;
    if (g[St::G_READY_PENDING]) {
        if (cfg[M::CFG_READY_MODE] == M::READY_HEAVEN_EARTH) {
            p(seat, St::P_READY) |= window;
        } else {
            p(seat, St::P_READY) |= C::F_DECLARED_READY;
            p(seat, St::P_IPPATSU) = opts[R::OPT_HK];  // 一發: from this discard to the seat's next one
        }
        g[St::G_READY_PENDING] = 0;
    } else if (p(seat, St::P_READY) != 0 && k != g[St::G_LAST_DRAWN]) {
        p(seat, St::P_READY) = 0;  // the declared hand changed
    }
    p(seat, St::P_NDISC) = add_wrap(p(seat, St::P_NDISC), 1);
    p(seat, St::P_PASS_SELF) = 0;  // strict_pass: lasts until the seat's next discard
    if (opts[R::OPT_HK] && opts[R::OPT_STRICT_PASS])
        p(seat, St::P_PASS_WIN) = 0;  // hongkong 過水: every win, until this discard (after a chi/pon too)
    g[St::G_CHAIN] = 0;               // a discard ends the turn's run of replacement draws
    g[St::G_LIABLE] = -1;
    g[St::G_AFTER_CLAIM] = 0;
    g[St::G_SWAP1] = -1;
    g[St::G_SWAP2] = -1;
    g[St::G_TILE] = k;
    g[St::G_RIVER_LAST] = drawable(S, b, opts) == 0 ? 1 : 0;
    if (opts[R::OPT_HK]) chase_side(S, b, opts);
    if (!open_claims(g, p, S.hands[b], k, opts, prof.p_opts)) no_claim(S, b, opts, prof);
}

void no_claim(const State& S, int64_t b, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    clear_claims(S.p[b]);
    if (opts[R::OPT_WEST_DRAW] && g[St::G_NRIVER] == 4) {  // 一路歸西: four unclaimed West discards
        bool allw = true;
        for (int64_t i = 0; i < 4; ++i)
            if (S.river(b, i, St::RV_KIND) != py::step::WEST || S.river(b, i, St::RV_CLAIMED_BY) >= 0) allw = false;
        if (allw) {
            finish_drawn(S, b, opts);
            return;
        }
    }
    begin_turn(S, b, pymod(g[St::G_TURN] + 1, 4), true, opts, prof);
}

void do_addkong(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, const Prof& prof) {
    for (int64_t i = 0; i < S.p(b, seat, St::P_NMELDS); ++i)
        if (S.melds(b, seat, i, St::MC_TYPE) == T::MELD_PON && S.melds(b, seat, i, St::MC_KIND) == k)
            S.melds(b, seat, i, St::MC_TYPE) = static_cast<int8_t>(T::MELD_ADDKONG);
    S.hands(b, seat, k) = static_cast<int8_t>(S.hands(b, seat, k) - 1);
    if (!opts[R::OPT_HK]) S.p(b, seat, St::P_READY) = 0;  // (a hongkong declaration is never withdrawn)
    S.g(b, St::G_NKONG) += 1;
    clear_claims(S.p[b]);
    begin_turn(S, b, seat, false, opts, prof);
    draw_tile(S, b, seat, true, St::SRC_KONG, opts, prof);
}

void do_ankong(const State& S, int64_t b, int64_t seat, int64_t k, Opts opts, const Prof& prof) {
    const int64_t ready = S.p(b, seat, St::P_READY);
    S.hands(b, seat, k) = 0;
    add_meld(S, b, seat, T::MELD_ANKONG, k, seat);
    S.g(b, St::G_NKONG) += 1;
    clear_claims(S.p[b]);
    if (opts[R::OPT_HK]) {
        S.p(b, seat, St::P_READY) = ready;           // (a hongkong declaration is never withdrawn)
        all_pay(S.p[b], seat, base_chips(opts, 2));  // 暗槓: 1 底 from each other seat
    }
    begin_turn(S, b, seat, false, opts, prof);
    draw_tile(S, b, seat, true, St::SRC_KONG, opts, prof);
}

void turn_action(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    const int64_t seat = g[St::G_CUR];
    if (a < A::CHI) {
        discard(S, b, seat, a, opts, cfg, prof);
    } else if (a == A::WIN) {
        finish_win(S, b, int64_t{1} << seat, C::WIN_SELF_DRAW, -1, -1, opts, prof);
    } else if (a == A::READY) {
        g[St::G_READY_PENDING] = 1;
    } else {  // SELF_KONG + k
        const int64_t k = a - A::SELF_KONG;
        S.p(b, seat, St::P_IPPATSU) = 0;  // 一發 does not cover a kong replacement
        const bool ankong = S.hands(b, seat, k) == 4;
        g[St::G_TILE] = k;
        g[St::G_ROB_ANKONG] = ankong;
        g[St::G_ROB_CHAIN] = g[St::G_DRAWSRC] == St::SRC_KONG || g[St::G_DRAWSRC] == St::SRC_EXPOSED_KONG;
        // 搶槓 (rob_kong, on but in the olympiad profile): with it off no seat is asked, the kong stands.
        const bool rob = opts[R::OPT_ROB_KONG] != 0;
        if (ankong && !(rob && opts[R::OPT_HK] && open_rob(g, S.p[b], S.hands[b], k, true, prof.p_opts)))
            do_ankong(S, b, seat, k, opts, prof);
        else if (!ankong && !(rob && open_rob(g, S.p[b], S.hands[b], k, false, prof.p_opts)))
            do_addkong(S, b, seat, k, opts, prof);
    }
}

// -- claims ---------------------------------------------------------------------------------
int64_t collect_winners(View<int64_t, 1> g, View<int64_t, 2> p, Opts opts) {
    const int64_t d = g[St::G_TURN];
    int64_t winners = 0;
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = pymod(d + i, 4);
        if (p(s, St::P_CLAIM) & St::C_WIN) {
            if (p(s, St::P_ANSWER) == A::WIN) {
                if (winners == 0 || opts[R::OPT_MULTI_WIN]) winners |= int64_t{1} << s;
            } else {
                p(s, St::P_PASS_WIN) = 1;
                if (opts[R::OPT_STRICT_PASS]) p(s, St::P_PASS_SELF) = 1;
            }
        }
    }
    return winners;
}

void resolve_claims(const State& S, int64_t b, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    auto p = S.p[b];
    const int64_t d = g[St::G_TURN];
    const int64_t t = g[St::G_TILE];
    const int64_t last = g[St::G_NRIVER] - 1;
    const int64_t winners = collect_winners(g, p, opts);
    if (winners) {
        S.river(b, last, St::RV_BITS) = static_cast<int8_t>(S.river(b, last, St::RV_BITS) | St::RV_WON_ON);
        clear_claims(p);
        finish_win(S, b, winners, C::WIN_DISCARD, d, t, opts, prof);
        return;
    }
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = pymod(d + i, 4);
        const int64_t ans = p(s, St::P_ANSWER);
        if (ans == A::PON || ans == A::KONG) {
            clear_claims(p);
            S.river(b, last, St::RV_CLAIMED_BY) = static_cast<int8_t>(s);
            if (ans == A::PON) {
                S.hands(b, s, t) = static_cast<int8_t>(S.hands(b, s, t) - 2);
                add_meld(S, b, s, T::MELD_PON, t, d);
                begin_turn(S, b, s, false, opts, prof);
                g[St::G_AFTER_CLAIM] = 1;
            } else {
                S.hands(b, s, t) = static_cast<int8_t>(S.hands(b, s, t) - 3);
                add_meld(S, b, s, T::MELD_KONG, t, d);
                g[St::G_NKONG] += 1;
                begin_turn(S, b, s, false, opts, prof);
                g[St::G_LIABLE] = d;  // 全包 (hongkong) if the replacement chain ends in a self-draw
                draw_tile(S, b, s, true, St::SRC_EXPOSED_KONG, opts, prof);
            }
            return;
        }
    }
    const int64_t s = pymod(d + 1, 4);
    const int64_t ans = p(s, St::P_ANSWER);
    if (A::CHI <= ans && ans < A::PON) {
        clear_claims(p);
        S.river(b, last, St::RV_CLAIMED_BY) = static_cast<int8_t>(s);
        const int64_t lo = t - (ans - A::CHI);
        for (int64_t k = lo; k < lo + 3; ++k)
            if (k != t) S.hands(b, s, k) = static_cast<int8_t>(S.hands(b, s, k) - 1);
        add_meld(S, b, s, T::MELD_CHI, lo, d);
        begin_turn(S, b, s, false, opts, prof);
        g[St::G_AFTER_CLAIM] = 1;
        if (!opts[R::OPT_SWAP_CALL]) {  // 食替: the claimed kind, and the other end of the two used
            g[St::G_SWAP1] = t;
            g[St::G_SWAP2] = swap_ban_other(t, lo);
        }
        return;
    }
    no_claim(S, b, opts, prof);
}

void resolve_rob(const State& S, int64_t b, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    const int64_t winners = collect_winners(g, S.p[b], opts);
    clear_claims(S.p[b]);
    if (winners) {
        to_river(S, b, g[St::G_TURN], g[St::G_TILE], St::RV_WON_ON);  // the robbed tile (step.hpp)
        finish_win(S, b, winners, C::WIN_ROB_KONG, g[St::G_TURN], g[St::G_TILE], opts, prof);
    } else if (g[St::G_ROB_ANKONG]) {
        do_ankong(S, b, g[St::G_TURN], g[St::G_TILE], opts, prof);
    } else {
        do_addkong(S, b, g[St::G_TURN], g[St::G_TILE], opts, prof);
    }
}

void open_offer(View<int64_t, 1> g) {
    if (g[St::G_OFFER] >= 0 && g[St::G_PHASE] == St::PH_TURN) {
        g[St::G_PHASE] = St::PH_FLOWER;
        g[St::G_CUR] = g[St::G_OFFER];
    }
}

void answer_offer(const State& S, int64_t b, int64_t a, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    const int64_t s = g[St::G_OFFER];
    g[St::G_OFFER] = -1;
    if (a == A::WIN) {
        finish_win(S, b, int64_t{1} << s, C::WIN_FLOWERS, g[St::G_OFFER_PAYER], -1, opts, prof);
    } else {
        S.p(b, s, St::P_OFFER_PASSED) = 1;
        if (g[St::G_OFFER_DRAWN]) {
            finish_drawn(S, b, opts);
        } else {
            g[St::G_PHASE] = St::PH_TURN;
            g[St::G_CUR] = g[St::G_TURN];
        }
    }
}

bool ask_la_cut(const State& S, int64_t b) {
    auto g = S.g[b];
    const int64_t asks = g[St::G_LA_ASK];
    if (asks == 0) return false;
    int64_t i = 0;
    while (!((asks >> i) & 1)) ++i;
    g[St::G_PHASE] = St::PH_LA_CUT;
    g[St::G_CUR] = floordiv(i, 4);
    return true;
}

void answer_la_cut(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    const int64_t asks = g[St::G_LA_ASK];
    int64_t i = 0;
    while (!((asks >> i) & 1)) ++i;
    g[St::G_LA_ASK] = asks & ~(int64_t{1} << i);
    if (a == A::WIN) {
        std::array<int64_t, 4> paid{};
        la_close(S.la[b], S.la_k[b], floordiv(i, 4), pymod(i, 4), view4(paid));
        apply_deltas(S, b, view4(paid), opts);
    }
    if (!ask_la_cut(S, b)) start_hand(S, b, opts, cfg, prof);
}

// -- hands and episodes ---------------------------------------------------------------------
bool open_ready0(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    if (!opts[R::OPT_DECLARE_READY] || cfg[M::CFG_READY_MODE] != M::READY_HEAVEN_EARTH) return false;
    const int64_t dealer = g[St::G_DEALER];
    g[St::G_TURN] = dealer;
    // (PLATFORMS.md 3.2: a declaration here earns 天聽, or 地聽 under a MIGI window; neither: no question)
    const int64_t first_nd = pymod(dealer + 1, 4);
    if (ready_window_flag(g, S.p[b][first_nd], first_nd, true, false, opts, cfg) == 0) return false;
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = pymod(dealer + i, 4);
        const bool ready = is_ready_hand(S.hands[b][s], S.melds[b][s], S.p(b, s, St::P_NMELDS), prof.p_opts);
        S.p(b, s, St::P_CLAIM) = ready ? St::C_READY : 0;
        S.p(b, s, St::P_ANSWER) = -1;
    }
    const int64_t first = next_asked(g, S.p[b], dealer);
    if (first < 0) return false;
    g[St::G_PHASE] = St::PH_READY0;
    g[St::G_CUR] = first;
    return true;
}

void start_hand(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    g[St::G_PHASE] = St::PH_TURN;
    if (deal(S, b, opts, prof)) {
        if (g[St::G_PHASE] == St::PH_HAND_OVER) S.rec(b, pymod(g[St::G_HANDS], St::HAND_LOG), St::REC_AT_DEAL) = 1;
        return;  // (or a flower win offered in PH_FLOWER)
    }
    const int64_t last = g[St::G_LAST_DRAWN];  // the dealer's 17th tile counts as its draw (tsumogiri bit)
    if (!open_ready0(S, b, opts, cfg, prof)) {
        begin_turn(S, b, g[St::G_DEALER], false, opts, prof);
        g[St::G_LAST_DRAWN] = last;
        open_offer(g);
    }
}

void after_hand(const State& S, int64_t b, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    while (g[St::G_PHASE] == St::PH_HAND_OVER) {
        g[St::G_HANDS] = add_wrap(g[St::G_HANDS], 1);
        const int64_t dealer = g[St::G_DEALER];
        if (g[St::G_RESULT] == St::RES_DRAWN || ((g[St::G_WINNERS] >> dealer) & 1)) {
            g[St::G_STREAK] += 1;
        } else {
            g[St::G_DEALER] = pymod(dealer + 1, 4);
            g[St::G_STREAK] = 0;
            g[St::G_ROT] += 1;
        }
        if (!opts[R::OPT_EPISODE_GAME] || g[St::G_ROT] >= 16) {
            end_episode(S, b, opts);
            return;
        }
        if (ask_la_cut(S, b)) return;
        start_hand(S, b, opts, cfg, prof);
    }
}

void end_episode(const State& S, int64_t b, Opts opts) {
    std::array<int64_t, 4> paid{};
    la_close_all(S.la[b], S.la_k[b], view4(paid));
    apply_deltas(S, b, view4(paid), opts);
    S.g(b, St::G_LA_ASK) = 0;
    S.terminated[b] = true;
    S.g(b, St::G_PHASE) = St::PH_DONE;
    S.g(b, St::G_CUR) = -1;
}

void reset_game(const State& S, int64_t b, uint64_t seed, int64_t script_start, Opts opts, Cfg cfg, const Prof& prof) {
    auto g = S.g[b];
    for (int64_t i = 0; i < St::NG; ++i) g[i] = 0;
    g[St::G_SCRIPT_USED] = script_start;
    S.rng[b] = seed;
    next_u64(S.rng, b);
    for (int s = 0; s < 4; ++s) {
        S.scores(b, s) = 0;
        S.rewards(b, s) = 0;
        S.res_tai(b, s) = -1;
        S.res_delta(b, s) = 0;
        for (int64_t i = 0; i < S.res_items.shape[2]; ++i) S.res_items(b, s, i) = 0;
        for (int c = 0; c < 4; ++c) {
            S.la(b, s, c) = 0.0;
            S.la_k(b, s, c) = 0;
        }
    }
    S.terminated[b] = false;
    start_hand(S, b, opts, cfg, prof);
    after_hand(S, b, opts, cfg, prof);
    mask_game(S, b, opts, cfg, prof);
}

void step_game(const State& S, int64_t b, int64_t a, Opts opts, Cfg cfg, const Prof& prof) {
    for (int s = 0; s < 4; ++s) S.rewards(b, s) = 0;
    if (S.terminated[b]) return;
    auto g = S.g[b];
    g[St::G_DECISIONS] = add_wrap(g[St::G_DECISIONS], 1);
    const int64_t ph = g[St::G_PHASE];
    if (ph == St::PH_TURN) {
        turn_action(S, b, a, opts, cfg, prof);
    } else if (ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0) {
        const int64_t cur = g[St::G_CUR];
        S.p(b, cur, St::P_ANSWER) = a;
        if (ph == St::PH_READY0 && a == A::READY)
            S.p(b, cur, St::P_READY) |= ready_window_flag(g, S.p[b][cur], cur, true, false, opts, cfg);
        const int64_t nxt = next_asked(g, S.p[b], cur);
        if (nxt >= 0) {
            g[St::G_CUR] = nxt;
        } else if (ph == St::PH_CLAIM) {
            resolve_claims(S, b, opts, prof);
        } else if (ph == St::PH_ROB) {
            resolve_rob(S, b, opts, prof);
        } else {
            clear_claims(S.p[b]);
            const int64_t last = g[St::G_LAST_DRAWN];
            begin_turn(S, b, g[St::G_DEALER], false, opts, prof);
            g[St::G_LAST_DRAWN] = last;
        }
    } else if (ph == St::PH_FLOWER) {
        answer_offer(S, b, a, opts, prof);
    } else if (ph == St::PH_LA_CUT) {
        answer_la_cut(S, b, a, opts, cfg, prof);
    }
    if (g[St::G_PHASE] == St::PH_HAND_OVER) after_hand(S, b, opts, cfg, prof);
    if (g[St::G_OFFER] >= 0) open_offer(g);  // (flower_win "offer" only)
    mask_game(S, b, opts, cfg, prof);
}

// -- batch loops ----------------------------------------------------------------------------
void reset_batch(const State& S, View<const uint64_t, 1> seeds, Opts opts, Cfg cfg, const Prof& prof) {
    parallel_for(seeds.shape[0], [&](int64_t b) { reset_game(S, b, seeds[b], 0, opts, cfg, prof); });
}

void reset_some(const State& S, View<const uint64_t, 1> seeds, View<const bool, 1> which, Opts opts, Cfg cfg,
                const Prof& prof) {
    const int64_t start = S.script.shape[1];  // scripted walls are not reused
    parallel_for(seeds.shape[0], [&](int64_t b) {
        if (which[b]) reset_game(S, b, seeds[b], start, opts, cfg, prof);
    });
}

void step_batch(const State& S, View<const int64_t, 1> actions, Opts opts, Cfg cfg, const Prof& prof) {
    parallel_for(actions.shape[0], [&](int64_t b) { step_game(S, b, actions[b], opts, cfg, prof); });
}

void step_some(const State& S, View<const int64_t, 1> actions, View<const bool, 1> active, Opts opts, Cfg cfg,
               const Prof& prof) {
    parallel_for(actions.shape[0], [&](int64_t b) {
        if (active[b]) step_game(S, b, actions[b], opts, cfg, prof);
    });
}

}  // namespace tw16
