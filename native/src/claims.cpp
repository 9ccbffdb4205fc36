// Who may claim the tile in question, and with what (RULES 2.5-2.8).
#include "tw16/claims.hpp"

#include "tw16/hand.hpp"
#include "tw16/score.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace R = py::options;
}  // namespace

bool chi_has_discard(View<int8_t, 1> h, int64_t t, int64_t lo, int64_t used1, int64_t used2, bool swap_ok) {
    const int64_t ban1 = t;
    const int64_t ban2 = swap_ok ? -1 : swap_ban_other(t, lo);
    for (int64_t k = 0; k < 34; ++k) {
        const int64_t n = h[k] - (k == used1 ? 1 : 0) - (k == used2 ? 1 : 0);
        if (n > 0 && (swap_ok || (k != ban1 && k != ban2))) return true;
    }
    return false;
}

// Three seats on every discard (open_claims, defined below in this file: the compiler inlines it).
int64_t claim_options(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, int64_t s, int64_t d, int64_t t,
                      Opts opts, View<int64_t, 1> p_opts) {
    int64_t bits = 0;
    if (may_win_on(ps, h, t, false, p_opts)) bits |= St::C_WIN;
    if (opts[R::OPT_NO_CALLS_LAST3] && tiles_left(g, opts) <= 3) return bits;
    if (opts[R::OPT_HK] && (ps[St::P_READY] & py::codes::F_DECLARED_READY))
        return bits;  // hongkong 報聽: no chi, pon or exposed kong after the declaration
    if (h[t] >= 2) {
        bits |= St::C_PON;
        if (h[t] == 3 && kong_allowed(g, opts)) bits |= St::C_KONG;
    }
    if (s == pymod(add_wrap(d, 1), 4) && t < 27) {  // (open_claims' G_TURN is not checked: wraps)
        const int64_t r = t % 9;
        const bool swap_ok = opts[R::OPT_SWAP_CALL] != 0;
        if (r <= 6 && h[t + 1] > 0 && h[t + 2] > 0 && chi_has_discard(h, t, t, t + 1, t + 2, swap_ok))
            bits |= St::C_CHI_LOW;
        if (1 <= r && r <= 7 && h[t - 1] > 0 && h[t + 1] > 0 && chi_has_discard(h, t, t - 1, t - 1, t + 1, swap_ok))
            bits |= St::C_CHI_MID;
        if (r >= 2 && h[t - 2] > 0 && h[t - 1] > 0 && chi_has_discard(h, t, t - 2, t - 2, t - 1, swap_ok))
            bits |= St::C_CHI_HIGH;
    }
    return bits;
}

int64_t next_asked(View<int64_t, 1> g, View<int64_t, 2> p, int64_t after) {
    const int64_t turn = g[St::G_TURN];
    for (int64_t i = pymod(sub_wrap(after, turn), 4) + 1; i <= 3; ++i) {
        const int64_t s = pymod(add_wrap(turn, i), 4);
        if (p(s, St::P_CLAIM) != 0 && p(s, St::P_ANSWER) < 0) return s;
    }
    return -1;
}

bool open_claims(View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, int64_t t, Opts opts,
                 View<int64_t, 1> p_opts) {
    const int64_t d = g[St::G_TURN];
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = pymod(add_wrap(d, i), 4);
        p(s, St::P_CLAIM) = claim_options(g, p[s], hands[s], s, d, t, opts, p_opts);
        p(s, St::P_ANSWER) = -1;
    }
    const int64_t first = next_asked(g, p, d);
    if (first < 0) return false;
    g[St::G_PHASE] = St::PH_CLAIM;
    g[St::G_CUR] = first;
    return true;
}

bool robs_as_thirteen(View<int8_t, 1> h, int64_t n_melds, int64_t k, View<int64_t, 1> p_opts) {
    if (n_melds != 0 || h[k] >= 4) return false;
    h[k] = static_cast<int8_t>(h[k] + 1);
    const bool ok = is_thirteen_orphans(h, p_opts[py::profile::PO_SHAPES]);
    h[k] = static_cast<int8_t>(h[k] - 1);
    return ok;
}

bool may_win_on(View<int64_t, 1> ps, View<int8_t, 1> h, int64_t t, bool ankong, View<int64_t, 1> p_opts) {
    if (ps[St::P_PASS_WIN] != 0 || !wins_with(h, ps[St::P_NMELDS], t, p_opts)) return false;
    return !ankong || robs_as_thirteen(h, ps[St::P_NMELDS], t, p_opts);
}

bool open_rob(View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, int64_t k, bool ankong,
              View<int64_t, 1> p_opts) {
    const int64_t d = g[St::G_TURN];
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = pymod(add_wrap(d, i), 4);
        p(s, St::P_CLAIM) = may_win_on(p[s], hands[s], k, ankong, p_opts) ? St::C_WIN : 0;
        p(s, St::P_ANSWER) = -1;
    }
    const int64_t first = next_asked(g, p, d);
    if (first < 0) return false;
    g[St::G_PHASE] = St::PH_ROB;
    g[St::G_CUR] = first;
    return true;
}

void clear_claims(View<int64_t, 2> p) {
    for (int64_t s = 0; s < 4; ++s) {
        p(s, St::P_CLAIM) = 0;
        p(s, St::P_ANSWER) = -1;
    }
}

}  // namespace tw16
