// The agents' batch helpers: efficiency planes (agents/efficiency.py) and the per-decision work of
// Greedy and Defensive (agents/greedy.py). Floating-point
// expressions keep the Python evaluation order (double throughout, float32 only on store).
#include <algorithm>
#include <array>
#include <cmath>

#include "tw16/agents.hpp"
#include "tw16/hand.hpp"
#include "tw16/parallel.hpp"

namespace tw16 {
namespace {
// A game's hand copied into a scratch row (hand[b].copy() in Python): the helpers modify and
// restore it, the caller's array is never written.
struct HandCopy {
    std::array<int8_t, 34> buf;
    View<int8_t, 1> v;
    explicit HandCopy(View<int8_t, 1> src) {
        for (int64_t k = 0; k < 34; ++k) buf[k] = src[k];
        v = View<int8_t, 1>::contiguous(buf.data(), {34});
    }
    HandCopy(const HandCopy&) = delete;
};
}  // namespace
}  // namespace tw16

namespace tw16::efficiency {
namespace {

void fill_row(View<float, 2> o, int64_t ch, double v) {
    for (int64_t k = 0; k < 34; ++k) o(ch, k) = static_cast<float>(v);
}
}  // namespace

int64_t ukeire(View<int8_t, 1> hand, int64_t n_sets, int64_t s, View<int8_t, 1> unseen) {
    int64_t total = 0;
    for (int64_t t = 0; t < 34; ++t) {
        if (unseen[t] > 0 && hand[t] < 4) {
            hand[t] += 1;
            if (shanten(hand, n_sets) < s) total += unseen[t];
            hand[t] -= 1;
        }
    }
    return total;
}

int64_t best_after_discard(View<int8_t, 1> hand, int64_t n_sets) {
    int64_t best = FAR;
    for (int64_t d = 0; d < 34; ++d) {
        if (hand[d] > 0) {
            hand[d] -= 1;
            const int64_t s = shanten(hand, n_sets);
            hand[d] += 1;
            best = std::min(best, s);
        }
    }
    return best;
}

void own_turn_planes(View<float, 2> o, View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen) {
    std::array<int64_t, 34> s_after, uk;
    s_after.fill(FAR);
    uk.fill(0);
    for (int64_t d = 0; d < 34; ++d) {
        if (hand[d] > 0) {
            hand[d] -= 1;
            s_after[d] = shanten(hand, n_sets);
            uk[d] = s_after[d] >= 0 ? ukeire(hand, n_sets, s_after[d], unseen) : 0;
            hand[d] += 1;
        }
    }
    const int64_t best_s = *std::min_element(s_after.begin(), s_after.end());
    int64_t best_u = 0;
    for (int64_t d = 0; d < 34; ++d)
        if (s_after[d] == best_s) best_u = std::max(best_u, uk[d]);
    for (int64_t d = 0; d < 34; ++d) {
        if (hand[d] == 0) continue;
        o(E_UKEIRE, d) = static_cast<float>(std::min<int64_t>(uk[d], 64) / 64.0);
        if (s_after[d] == best_s)
            o(E_UKEIRE_REL, d) =
                static_cast<float>(best_u > 0 ? static_cast<double>(uk[d]) / static_cast<double>(best_u) : 1.0);
    }
    for (int64_t k = 0; k < 34; ++k) {
        bool ok;
        if (hand[k] == 4) {
            hand[k] -= 4;
            ok = shanten(hand, n_sets - 1) <= best_s;
            hand[k] += 4;
        } else if (hand[k] >= 1) {  // maybe an added kong onto a pon meld: the concealed part loses one tile
            hand[k] -= 1;
            ok = shanten(hand, n_sets) <= best_s;
            hand[k] += 1;
        } else {
            ok = false;
        }
        o(E_SELF_KONG, k) = ok ? 1.0f : 0.0f;
    }
}

double claim_gain(int64_t now, int64_t after) {
    return after < FAR ? std::max(-1.0, std::min(1.0, static_cast<double>(now - after) / 2.0)) : 0.0;
}

void claim_planes(View<float, 2> o, View<int8_t, 1> hand, int64_t n_sets, int64_t t, View<int8_t, 1> unseen) {
    const int64_t now = shanten(hand, n_sets);
    fill_row(o, E_UKEIRE_NOW, now >= 0 ? std::min<int64_t>(ukeire(hand, n_sets, now, unseen), 64) / 64.0 : 0.0);
    if (n_sets == 0) return;
    if (hand[t] >= 2) {
        hand[t] -= 2;
        fill_row(o, E_PON, claim_gain(now, best_after_discard(hand, n_sets - 1)));
        hand[t] += 2;
    }
    if (hand[t] >= 3) {
        hand[t] -= 3;
        fill_row(o, E_KONG, claim_gain(now, shanten(hand, n_sets - 1)));
        hand[t] += 3;
    }
    if (t >= 27) return;
    const int64_t r = pymod(t, 9);
    for (int64_t pos = 0; pos < 3; ++pos) {
        const int64_t lo = r - pos;  // rank of the chow's lowest tile
        if (lo < 0 || lo > 6) continue;
        const int64_t a = pos == 0 ? t + 1 : (pos == 1 ? t - 1 : t - 2);
        const int64_t b = pos == 0 ? t + 2 : (pos == 1 ? t + 1 : t - 1);
        if (hand[a] == 0 || hand[b] == 0) continue;
        hand[a] -= 1;
        hand[b] -= 1;
        fill_row(o, E_CHI + pos, claim_gain(now, best_after_discard(hand, n_sets - 1)));
        hand[a] += 1;
        hand[b] += 1;
    }
}

void planes_kernel(View<int8_t, 2> hand, View<int64_t, 1> n_melds, View<int8_t, 2> unseen, View<int64_t, 1> claim_tile,
                   View<float, 3> out) {
    parallel_for(hand.shape[0], [&](int64_t b) {
        HandCopy h(hand[b]);
        const int64_t n_sets = 5 - n_melds[b];
        int64_t sum = 0;
        for (int64_t k = 0; k < 34; ++k) sum += h.v[k];
        if (claim_tile[b] >= 0)
            claim_planes(out[b], h.v, n_sets, claim_tile[b], unseen[b]);
        else if (pymod(sum, 3) == 2)
            own_turn_planes(out[b], h.v, n_sets, unseen[b]);
    });
}

}  // namespace tw16::efficiency

namespace tw16::greedy {
namespace {
constexpr int64_t BIG = int64_t{1} << 30;  // "none yet" for sort keys
using efficiency::best_after_discard;
using efficiency::ukeire;

// The two other tiles of the chow taking tile t at position pos (0 low, 1 middle, 2 high).
void chow_others(int64_t t, int64_t pos, int64_t& a, int64_t& b) {
    a = pos == 0 ? t + 1 : (pos == 1 ? t - 1 : t - 2);
    b = pos == 0 ? t + 2 : (pos == 1 ? t + 1 : t - 1);
}
}  // namespace

int64_t connectedness(View<int8_t, 1> hand, int64_t d) {
    int64_t v = 2 * (hand[d] - 1);
    if (d < 27) {
        const int64_t r = pymod(d, 9);
        for (int64_t off : {-2, -1, 1, 2})
            if (0 <= r + off && r + off < 9) v += hand[d + off] * (std::abs(off) == 1 ? 2 : 1);
    }
    return v;
}

int64_t unseen_off(View<int8_t, 1> unseen, int64_t d, int64_t off) {
    if (d >= 27) return 0;
    const int64_t r = pymod(d, 9) + off;
    return (0 <= r && r < 9) ? unseen[d + off] : 0;
}

// No furiten in this game, so a tile the threat discarded itself (現物) only halves the danger; a
// tile it let pass since its hand last changed is 0 (it always wins when it can).
int64_t hidden_wait_ways(int64_t d, View<int8_t, 1> passed_by_threat, View<int8_t, 1> disc_by_threat,
                         View<int8_t, 1> unseen) {
    if (passed_by_threat[d] > 0) return 0;
    const int64_t u = unseen[d];
    int64_t v = u * (u - 1) + u + 1;  // pair + single (+1: nothing is certain)
    v += 4 * (unseen_off(unseen, d, -2) * unseen_off(unseen, d, -1) +
              unseen_off(unseen, d, 1) * unseen_off(unseen, d, 2));  // two-sided, edge
    v += 2 * unseen_off(unseen, d, -1) * unseen_off(unseen, d, 1);   // closed
    return disc_by_threat[d] > 0 ? floordiv(v, 2) : v;
}

int64_t greedy_claim(View<int8_t, 1> hand, int64_t n_sets, int64_t t, View<bool, 1> mask) {
    const int64_t cur = shanten(hand, n_sets);
    int64_t best_a = py::actions::PASS, best_s = cur;
    if (mask[py::actions::PON]) {
        hand[t] -= 2;
        const int64_t s = best_after_discard(hand, n_sets - 1);
        hand[t] += 2;
        if (s < best_s) best_s = s, best_a = py::actions::PON;
    }
    if (mask[py::actions::KONG]) {
        hand[t] -= 3;
        const int64_t s = shanten(hand, n_sets - 1);
        hand[t] += 3;
        if (s < best_s) best_s = s, best_a = py::actions::KONG;
    }
    for (int64_t pos = 0; pos < 3; ++pos) {
        if (!mask[py::actions::CHI + pos]) continue;
        int64_t a, b;
        chow_others(t, pos, a, b);
        // A chow mask that no legal state sets (t at a suit's edge of the 34 kinds) would read
        // past the hand; such entries are skipped instead of reading out of bounds.
        if (a < 0 || b > 33) continue;
        hand[a] -= 1;
        hand[b] -= 1;
        const int64_t s = best_after_discard(hand, n_sets - 1);
        hand[a] += 1;
        hand[b] += 1;
        if (s < best_s) best_s = s, best_a = py::actions::CHI + pos;
    }
    return best_a;
}

DiscardKey discard_key(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, int64_t d) {
    hand[d] -= 1;
    const int64_t s = shanten(hand, n_sets);
    const int64_t u = s >= 0 ? ukeire(hand, n_sets, s, unseen) : 0;
    hand[d] += 1;
    return {s, u, {s, -u, connectedness(hand, d)}};
}

int64_t greedy_discard(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask) {
    int64_t best_a = -1;
    std::array<int64_t, 3> best_key{BIG, BIG, BIG};
    for (int64_t d = 0; d < 34; ++d) {
        if (!mask[py::actions::DISCARD + d]) continue;
        const DiscardKey k = discard_key(hand, n_sets, unseen, d);
        if (k.key < best_key) {  // lexicographic, as Python compares tuples
            best_key = k.key;
            best_a = py::actions::DISCARD + d;
        }
    }
    return best_a;
}

double win_chance(int64_t s, int64_t u, int64_t tiles_left, View<double, 2> win_logit) {
    const int64_t k = std::min<int64_t>(s, 4);
    const double x = win_logit(k, 0) + win_logit(k, 1) * std::log1p(static_cast<double>(u)) +
                     win_logit(k, 2) * static_cast<double>(tiles_left) / 64.0;
    return 1.0 / (1.0 + std::exp(-x));
}

int64_t defensive_discard(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask,
                          View<int64_t, 1> opp_melds, View<int8_t, 2> opp_disc, View<int8_t, 2> opp_passed,
                          int64_t tiles_left, const Defence& defence) {
    const View<double, 1> prm = defence.params;
    const double risk = prm[0], g_win = prm[1], l_deal = prm[2], margin = prm[3];
    const double tie_eps = prm[4], slope = prm[5], cap = prm[6], s_floor = prm[7];
    // P(opponent o is ready) by its melds and the wall
    std::array<double, 3> ready{};
    for (int64_t o = 0; o < 3; ++o)
        ready[o] = defence.ready_p(std::min<int64_t>(opp_melds[o], 4), std::min<int64_t>(floordiv(tiles_left, 16), 3));
    int64_t best_g = -1;
    std::array<int64_t, 3> best_key{BIG, BIG, BIG};
    std::array<int64_t, 34> s_of{}, u_of{};
    std::array<double, 34> w_of{}, p_of{};
    for (int64_t d = 0; d < 34; ++d) {
        if (!mask[py::actions::DISCARD + d]) continue;
        const DiscardKey k = discard_key(hand, n_sets, unseen, d);
        if (k.key < best_key) {
            best_key = k.key;
            best_g = d;
        }
        double safe = 1.0;
        for (int64_t o = 0; o < 3; ++o) {
            const int64_t dg = hidden_wait_ways(d, opp_passed[o], opp_disc[o], unseen);
            const double hit = dg <= 4 ? 0.0 : std::min(static_cast<double>(dg) * slope, cap);  // P(wins on d | ready)
            safe *= 1.0 - ready[o] * hit;
        }
        s_of[d] = k.s;
        u_of[d] = k.u;
        w_of[d] = k.s >= 0 ? win_chance(k.s, k.u, tiles_left, defence.win_logit) : 0.0;
        p_of[d] = std::min(1.0, risk * (1.0 - safe));
    }
    if (best_g < 0) return -1;
    const double wg = w_of[best_g];
    const double cost_g = p_of[best_g] * (l_deal + wg * g_win);
    int64_t best_d = best_g;
    double best_gain = 0.0;
    for (int64_t d = 0; d < 34; ++d) {
        if (!mask[py::actions::DISCARD + d] || d == best_g) continue;
        const bool tie = s_of[d] == s_of[best_g] && u_of[d] >= u_of[best_g];
        double lost = std::max(0.0, wg - w_of[d]);
        if (s_of[d] > s_of[best_g]) lost = std::max(lost, s_floor * wg);  // a worse shanten always costs something
        const double gain = cost_g - p_of[d] * (l_deal + w_of[d] * g_win) - lost * g_win - (tie ? tie_eps : margin);
        if (gain > best_gain) {
            best_gain = gain;
            best_d = d;
        }
    }
    return py::actions::DISCARD + best_d;
}

int64_t greedy_turn(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask,
                    View<int64_t, 1> opp_melds, View<int8_t, 2> opp_disc, View<int8_t, 2> opp_passed,
                    int64_t tiles_left, const Defence& defence) {
    int64_t sum = 0;
    for (int64_t k = 0; k < 34; ++k) sum += hand[k];
    const int64_t s0 = pymod(sum, 3) == 2 ? best_after_discard(hand, n_sets) : shanten(hand, n_sets);
    for (int64_t k = 0; k < 34; ++k) {
        if (!mask[py::actions::SELF_KONG + k]) continue;
        int64_t s;
        if (hand[k] == 4) {  // concealed kong: the concealed part loses a set
            hand[k] -= 4;
            s = shanten(hand, n_sets - 1);
            hand[k] += 4;
        } else {  // added kong: the pon was already a meld
            hand[k] -= 1;
            s = shanten(hand, n_sets);
            hand[k] += 1;
        }
        if (s <= s0) return py::actions::SELF_KONG + k;
    }
    const int64_t a = defence.params[0] > 0 ? defensive_discard(hand, n_sets, unseen, mask, opp_melds, opp_disc,
                                                                opp_passed, tiles_left, defence)
                                            : greedy_discard(hand, n_sets, unseen, mask);
    if (a >= 0) return a;
    for (int64_t x = 0; x < py::actions::N_ACTIONS; ++x)  // nothing efficient is legal (e.g. a ready-pending phase)
        if (mask[x]) return x;
    return py::actions::PASS;
}

void act_kernel(View<int8_t, 2> hand, View<int64_t, 1> n_melds, View<int8_t, 2> unseen, View<int64_t, 2> opp_melds,
                View<bool, 2> opp_ready, View<int8_t, 3> opp_disc, View<int8_t, 3> opp_passed,
                View<int64_t, 1> tiles_left, View<int64_t, 1> claim_tile, View<bool, 2> mask, const Defence& defence,
                View<int64_t, 1> out) {
    parallel_for(mask.shape[0], [&](int64_t b) {
        View<bool, 1> m = mask[b];
        if (m[py::actions::WIN]) {
            out[b] = py::actions::WIN;
            return;
        }
        if (m[py::actions::READY]) {
            out[b] = py::actions::READY;
            return;
        }
        HandCopy h(hand[b]);
        const int64_t n_sets = 5 - n_melds[b];
        bool any_discard = false;  // m[DISCARD:CHI].any()
        for (int64_t x = py::actions::DISCARD; x < py::actions::CHI; ++x) any_discard = any_discard || m[x];
        if (claim_tile[b] >= 0 && (m[py::actions::PASS] && !any_discard)) {
            out[b] = greedy_claim(h.v, n_sets, claim_tile[b], m);
            return;
        }
        out[b] =
            greedy_turn(h.v, n_sets, unseen[b], m, opp_melds[b], opp_disc[b], opp_passed[b], tiles_left[b], defence);
    });
}

}  // namespace tw16::greedy
