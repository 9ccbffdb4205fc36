// The legal action mask of the seat to decide (one game); see mask.hpp.
#include "tw16/mask.hpp"

#include <array>

#include "tw16/claims.hpp"
#include "tw16/hand.hpp"
#include "tw16/score.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace R = py::options;
namespace A = py::actions;
namespace M = py::mask;
}  // namespace

int64_t held_all(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, int64_t k) {
    int64_t n = h[k];
    for (int64_t i = 0; i < nm; ++i) {
        const int64_t t = ms(i, St::MC_TYPE);
        const int64_t mk = ms(i, St::MC_KIND);
        if (t == py::tiles::MELD_CHI) {  // a chow mk, mk+1, mk+2
            if (mk <= k && k <= mk + 2) n += 1;
        } else if (mk == k) {
            n += (t == py::tiles::MELD_PON) ? 3 : 4;
        }
    }
    return n;
}

bool is_ready_hand(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, View<int64_t, 1> p_opts) {
    // Scratch on the stack: allocation-free on the hot path.
    std::array<int8_t, 34> held_buf;
    std::array<bool, 34> waits_buf{};
    for (int64_t k = 0; k < 34; ++k) held_buf[k] = static_cast<int8_t>(held_all(h, ms, nm, k));
    auto held = View<int8_t, 1>::contiguous(held_buf.data(), {34});
    auto waits = View<bool, 1>::contiguous(waits_buf.data(), {34});
    return win_wait_mask(h, 5 - nm, held, p_opts[py::profile::PO_SHAPES], waits) > 0;
}

bool ready_after_discard(View<int8_t, 1> h, View<int8_t, 2> ms, int64_t nm, int64_t d, View<int64_t, 1> p_opts) {
    h[d] = static_cast<int8_t>(h[d] - 1);
    const bool ok = is_ready_hand(h, ms, nm, p_opts);
    h[d] = static_cast<int8_t>(h[d] + 1);
    return ok;
}

bool is_concealed(View<int8_t, 2> ms, int64_t nm) {
    for (int64_t i = 0; i < nm; ++i)
        if (ms(i, St::MC_TYPE) != py::tiles::MELD_ANKONG) return false;
    return true;
}

bool any_claimed(View<int64_t, 2> p, View<int8_t, 3> melds) {
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = p(s, St::P_NMELDS);
        for (int64_t i = 0; i < nm && i < St::MAX_MELDS; ++i)
            if (melds(s, i, St::MC_TYPE) != py::tiles::MELD_ANKONG) return true;
    }
    return false;
}

int64_t ready_window_flag(View<int64_t, 1> g, View<int64_t, 1> ps, int64_t seat, bool at_deal, bool claimed, Opts opts,
                          Cfg cfg) {
    namespace C = py::codes;
    const int64_t hw = opts[R::OPT_HEAVENLY_READY_WINDOW];  // HRW_* (envs/options.py)
    const int64_t ew = opts[R::OPT_EARTHLY_READY_WINDOW];   // ERW_*
    // MIGI: no chi, pon or exposed kong yet and at most MIGI_DISCARDS discards, the declaring one
    // included (a declaration before any discard counts).
    const bool migi = !claimed && (at_deal || g[St::G_NRIVER] + 1 <= R::MIGI_DISCARDS);
    const bool dealer_first = hw == R::HRW_DEALER_FIRST && seat == g[St::G_DEALER];
    const int64_t own = ps[St::P_NDISC];  // the seat's discards before the declaring one
    if (cfg[M::CFG_HEAVENLY_ROW] && (at_deal || (dealer_first && own == 0) || (hw == R::HRW_MIGI && migi)))
        return C::F_HEAVENLY_READY;
    // first_discard: the seat's own first discard; the dealer's second when its first is 天聽
    if (cfg[M::CFG_EARTHLY_ROW] && (ew == R::ERW_MIGI ? migi : !at_deal && own == (dealer_first ? 1 : 0)))
        return C::F_EARTHLY_READY;
    return 0;
}

bool can_declare_ready(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, View<int8_t, 2> ms, Opts opts,
                       Cfg cfg, View<int64_t, 1> p_opts, bool claimed) {
    const int64_t mode = cfg[M::CFG_READY_MODE];
    if (!opts[R::OPT_DECLARE_READY] || mode == 0 || ps[St::P_READY] != 0) return false;
    const int64_t nm = ps[St::P_NMELDS];
    if (g[St::G_AFTER_CLAIM] || (mode != M::READY_HK && !is_concealed(ms, nm))) return false;
    if (mode == M::READY_HEAVEN_EARTH && ready_window_flag(g, ps, g[St::G_CUR], false, claimed, opts, cfg) == 0)
        return false;
    if (win_shanten(h, 5 - nm, p_opts[py::profile::PO_SHAPES]) > 0)
        return false;  // cheap filter: no discard can leave a ready hand
    for (int64_t d = 0; d < 34; ++d)
        if (h[d] > 0 && ready_after_discard(h, ms, nm, d, p_opts)) return true;
    return false;
}

bool turn_win_ok(View<int64_t, 1> g, View<int64_t, 1> ps, View<int8_t, 1> h, Opts opts, View<int64_t, 1> p_opts) {
    if (g[St::G_AFTER_CLAIM]) return false;
    if (opts[R::OPT_STRICT_PASS] && ps[St::P_PASS_SELF]) return false;
    if (!opts[R::OPT_KONG_REPLACEMENT_SELF_DRAW] && g[St::G_DRAWSRC] == St::SRC_EXPOSED_KONG) return false;
    return wins_with(h, ps[St::P_NMELDS], -1, p_opts);
}

namespace {
void fill(View<bool, 1> m, bool v) {
    for (int64_t i = 0; i < m.shape[0]; ++i) m[i] = v;
}
}  // namespace

void mask_rows(View<bool, 1> m, View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, View<int8_t, 3> melds,
               bool done, Opts opts, Cfg cfg, View<int64_t, 1> p_opts) {
    const int64_t ph = g[St::G_PHASE];
    if (done) {
        fill(m, true);
        return;
    }
    fill(m, false);
    // The seat's rows are read in the seated phases only (the bindings check G_CUR there); in the
    // others G_CUR may hold anything, and no view may be formed from it.
    const bool seated = ph == St::PH_TURN || ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0;
    const int64_t seat = seated ? g[St::G_CUR] : 0;
    const View<int8_t, 1> h = hands[seat];
    const View<int64_t, 1> ps = p[seat];
    const View<int8_t, 2> ms = melds[seat];
    if (ph == St::PH_TURN) {
        if (g[St::G_READY_PENDING]) {  // the declared READY: only discards that keep the hand ready
            for (int64_t k = 0; k < 34; ++k)
                if (h[k] > 0 && ready_after_discard(h, ms, ps[St::P_NMELDS], k, p_opts)) m[A::DISCARD + k] = true;
            return;
        }
        const bool swap_ban = g[St::G_AFTER_CLAIM] && !opts[R::OPT_SWAP_CALL];
        const int64_t drawn = g[St::G_LAST_DRAWN];
        if (opts[R::OPT_HK] && (ps[St::P_READY] & py::codes::F_DECLARED_READY) && drawn >= 0) {
            m[A::DISCARD + drawn] = true;  // hongkong 報聽: the drawn tile goes, unless it wins or konged
        } else {
            for (int64_t k = 0; k < 34; ++k) m[A::DISCARD + k] = h[k] > 0;  // a held kind may be discarded
            if (swap_ban) {  // 食替: not the claimed kind, nor the other end of the two used
                for (int64_t k : {g[St::G_SWAP1], g[St::G_SWAP2]})
                    if (k >= 0) m[A::DISCARD + k] = false;
            }
        }
        if (turn_win_ok(g, ps, h, opts, p_opts)) m[A::WIN] = true;
        if (!(g[St::G_AFTER_CLAIM] && opts[R::OPT_NO_KONG_AFTER_CLAIM]) && kong_allowed(g, opts)) {
            for (int64_t k = 0; k < 34; ++k)
                if (h[k] == 4) m[A::SELF_KONG + k] = true;
            for (int64_t i = 0; i < ps[St::P_NMELDS]; ++i) {
                if (ms(i, St::MC_TYPE) == py::tiles::MELD_PON) {
                    const int64_t k = ms(i, St::MC_KIND);
                    if (h[k] > 0) m[A::SELF_KONG + k] = true;
                }
            }
        }
        if (opts[R::OPT_DECLARE_READY] && can_declare_ready(g, ps, h, ms, opts, cfg, p_opts, any_claimed(p, melds)))
            m[A::READY] = true;
    } else if (ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0) {
        const int64_t bits = ps[St::P_CLAIM];
        m[A::PASS] = true;
        if (bits & St::C_WIN) m[A::WIN] = true;
        if (bits & St::C_CHI_LOW) m[A::CHI] = true;
        if (bits & St::C_CHI_MID) m[A::CHI + 1] = true;
        if (bits & St::C_CHI_HIGH) m[A::CHI + 2] = true;
        if (bits & St::C_PON) m[A::PON] = true;
        if (bits & St::C_KONG) m[A::KONG] = true;
        if (bits & St::C_READY) m[A::READY] = true;
    } else if (ph == St::PH_FLOWER || ph == St::PH_LA_CUT) {
        m[A::WIN] = true;   // take the flower win / cut the 拉 debt (pay it in full now)
        m[A::PASS] = true;  // pass the flower win for this hand / keep the debt
    } else {
        fill(m, true);  // not a decision (should not happen for a live game)
    }
}

}  // namespace tw16
