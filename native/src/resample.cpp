// Search at decision time (resample.hpp): copy a game, resample what a seat cannot see, and the
// search agent's determinized rollouts.
#include "tw16/resample.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <vector>

#include "tw16/agents.hpp"
#include "tw16/claims.hpp"
#include "tw16/hand.hpp"
#include "tw16/mask.hpp"
#include "tw16/randplay.hpp"
#include "tw16/rng.hpp"
#include "tw16/step.hpp"
#include "tw16/wall.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace T = py::tiles;
namespace A = py::actions;
namespace RP = py::randplay;
constexpr int64_t FLOWER_ID0 = py::tiles::FLOWER_ID0;

// Row b of src into row c of dst (same shape past the first axis).
template <class T, int N>
void copy_row(const View<T, N>& src, int64_t b, const View<T, N>& dst, int64_t c) {
    int64_t total = 1;
    for (int d = 1; d < N; ++d) total *= src.shape[d];
    for (int64_t e = 0; e < total; ++e) {
        int64_t r = e, so = b * src.stride[0], dof = c * dst.stride[0];
        for (int d = N - 1; d >= 1; --d) {
            const int64_t i = r % src.shape[d];
            r /= src.shape[d];
            so += i * src.stride[d];
            dof += i * dst.stride[d];
        }
        dst.data[dof] = src.data[so];
    }
}

template <class T, int N>
bool same_row_shape(const View<T, N>& a, const View<T, N>& b) {
    for (int d = 1; d < N; ++d)
        if (a.shape[d] != b.shape[d]) return false;
    return true;
}

// A one-slot random stream on the stack (rng.hpp draws from a View).
struct Stream {
    uint64_t s;
    explicit Stream(uint64_t seed) : s(seed) {}
    View<uint64_t, 1> v() { return View<uint64_t, 1>::contiguous(&s, {1}); }
    uint64_t next() { return next_u64(v(), 0); }
    int64_t below(int64_t n) { return randint(v(), 0, n); }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // uniform in [0, 1)
};

template <class T>
void shuffle(T* a, int64_t n, Stream& r) {  // Fisher-Yates
    for (int64_t i = n - 1; i > 0; --i) std::swap(a[i], a[r.below(i + 1)]);
}

// The claim options of opponent s on the tile in question, from its (new) hand: as open_claims /
// open_rob / open_ready0 compute them.
int64_t claim_bits(const State& S, int64_t b, int64_t s, int64_t ph, Opts opts, const Prof& prof) {
    auto g = S.g[b];
    const int64_t nm = S.p(b, s, St::P_NMELDS);
    if (ph == St::PH_READY0) return is_ready_hand(S.hands[b][s], S.melds[b][s], nm, prof.p_opts) ? St::C_READY : 0;
    const int64_t t = g[St::G_TILE];
    if (ph == St::PH_CLAIM) return claim_options(g, S.p[b][s], S.hands[b][s], s, g[St::G_TURN], t, opts, prof.p_opts);
    return may_win_on(S.p[b][s], S.hands[b][s], t, g[St::G_ROB_ANKONG] != 0, prof.p_opts) ? St::C_WIN : 0;
}
// The hand model's deal (resample_hidden with hand_q): pool[0..np) holds the unseen playing tiles
// (kinds); its first cnt[seat + 1] + cnt[seat + 2] + cnt[seat + 3] slots become the opponents' tiles,
// in seat order from the seat's left, each drawn with probability proportional to the copies of its
// kind still in the pool times hand_q[i - 1][kind] for opponent seat + i (all weights of the kinds
// left zero: by the copies alone). The slots after them keep the rest, to be shuffled. Returns how
// many tiles were dealt.
int64_t deal_by_model(int8_t* pool, int64_t np, const std::array<int64_t, 4>& cnt, int64_t seat, const double* hand_q,
                      Stream& r) {
    std::array<int64_t, T::N_KINDS> left{};
    for (int64_t i = 0; i < np; ++i) ++left[pool[i]];
    int64_t at = 0;
    for (int64_t i = 1; i < 4; ++i) {
        const double* q = hand_q + (i - 1) * T::N_KINDS;
        for (int64_t j = 0; j < cnt[(seat + i) % 4]; ++j) {
            double total = 0.0;
            for (int64_t k = 0; k < T::N_KINDS; ++k) total += static_cast<double>(left[k]) * q[k];
            const bool flat = !(total > 0.0);
            if (flat)
                for (int64_t k = 0; k < T::N_KINDS; ++k) total += static_cast<double>(left[k]);
            double u = r.unit() * total;
            int64_t pick = -1;
            for (int64_t k = 0; k < T::N_KINDS; ++k) {
                if (left[k] == 0) continue;
                pick = k;  // (the last kind with copies left, should rounding leave u past every weight)
                u -= static_cast<double>(left[k]) * (flat ? 1.0 : q[k]);
                if (u < 0.0) break;
            }
            --left[pick];
            pool[at++] = static_cast<int8_t>(pick);
        }
    }
    const int64_t dealt = at;
    for (int64_t k = 0; k < T::N_KINDS; ++k)
        for (int64_t c = 0; c < left[k]; ++c) pool[at++] = static_cast<int8_t>(k);
    return dealt;
}
}  // namespace

void copy_game(const State& src, int64_t b, const State& dst, int64_t c) {
    // Every array's row; the scripted walls (the one array whose shape past the batch axis may differ
    // between states) only when both hold as many.
#define TW16_COPY(name_, type_, rank_, shape_, fill_, writable_) \
    if (same_row_shape(src.name_, dst.name_)) copy_row(src.name_, b, dst.name_, c);
    TW16_STATE_FIELDS(TW16_COPY)
#undef TW16_COPY
}

void resample_hidden(const State& S, int64_t b, int64_t seat, uint64_t seed, Opts opts, Cfg cfg, const Prof& prof,
                     const double* hand_q) {
    auto g = S.g[b];
    Stream r(seed);
    S.rng[b] = r.next();  // the hands after this one are hidden too
    g[St::G_SCRIPT_USED] = std::max<int64_t>(g[St::G_SCRIPT_USED], S.script.shape[1]);
    const int64_t ph = g[St::G_PHASE];
    if (ph == St::PH_LA_CUT) return;  // between hands: the last hand's tiles were shown
    const int64_t turn = g[St::G_TURN];
    // While a kong is robbed, the konger's tile(s) of that kind are known: they stay.
    const int64_t fixed_kind = ph == St::PH_ROB ? g[St::G_TILE] : -1;
    const int64_t fixed_n = g[St::G_ROB_ANKONG] ? 4 : 1;
    std::array<int8_t, T::N_TILES> pool;  // the unseen playing tiles (kinds), then the wall's flowers
    std::array<uint8_t, 8> flowers;
    std::array<int64_t, 4> cnt{};
    int64_t np = 0, nf = 0;
    for (int64_t s = 0; s < 4; ++s) {
        if (s == seat) continue;
        for (int64_t k = 0; k < T::N_KINDS; ++k) {
            const int64_t keep = (s == turn && k == fixed_kind) ? fixed_n : 0;
            const int64_t c = S.hands(b, s, k) - keep;
            for (int64_t i = 0; i < c; ++i) pool[np++] = static_cast<int8_t>(k);
            cnt[s] += c;
            S.hands(b, s, k) = static_cast<int8_t>(keep);
        }
    }
    // The physical ids a kind goes back into the wall with: those it had there first, then its others.
    std::array<bool, T::N_TILES> in_wall{};
    const int64_t head = g[St::G_HEAD], tail = g[St::G_TAIL];
    for (int64_t i = head; i <= tail; ++i) {
        const int64_t t = S.wall(b, i);
        in_wall[t] = true;
        if (t >= FLOWER_ID0)
            flowers[nf++] = static_cast<uint8_t>(t);
        else
            pool[np++] = static_cast<int8_t>(t >> 2);
    }
    std::array<std::array<uint8_t, 4>, T::N_KINDS> ids;
    std::array<int8_t, T::N_KINDS> next_id{};
    for (int64_t k = 0; k < T::N_KINDS; ++k) {
        int64_t j = 0;
        for (int pass = 0; pass < 2; ++pass)
            for (int64_t i = 4 * k; i < 4 * k + 4; ++i)
                if (in_wall[i] == (pass == 0)) ids[k][j++] = static_cast<uint8_t>(i);
    }
    // A uniform arrangement: the playing tiles shuffled, the opponents' slots first (flowers are never
    // held), then the rest with the flowers shuffled into the wall. With a hand model, the opponents'
    // tiles are dealt one at a time, kind k with probability proportional to (its unseen copies left)
    // x hand_q[opponent][k], and the pool's first slots rewritten to what they were dealt, in order.
    const int64_t dealt = hand_q ? deal_by_model(pool.data(), np, cnt, seat, hand_q, r) : 0;
    shuffle(pool.data() + dealt, np - dealt, r);
    int64_t at = 0;
    for (int64_t i = 1; i < 4; ++i) {
        const int64_t s = (seat + i) % 4;
        // An opponent on turn (a flower win offered to the seat) drew its first slot last.
        if (ph == St::PH_FLOWER && s == turn && cnt[s] > 0 && g[St::G_LAST_DRAWN] >= 0) g[St::G_LAST_DRAWN] = pool[at];
        for (int64_t j = 0; j < cnt[s]; ++j, ++at)
            S.hands(b, s, pool[at]) = static_cast<int8_t>(S.hands(b, s, pool[at]) + 1);
    }
    std::array<int16_t, T::N_TILES> w;  // the new wall: kinds (< 34) or flower ids (>= 136)
    int64_t nw = 0;
    for (; at < np; ++at) w[nw++] = pool[at];
    for (int64_t i = 0; i < nf; ++i) w[nw++] = flowers[i];
    shuffle(w.data(), nw, r);
    for (int64_t i = 0; i < nw; ++i) {
        const int64_t x = w[i];
        S.wall(b, head + i) = static_cast<uint8_t>(x >= FLOWER_ID0 ? x : ids[x][next_id[x]++]);
    }
    // Claims: the opponents still to answer are asked with their new hands; those asked before the
    // seat passed (their answers are hidden).
    if (ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0) {
        const int64_t my_pos = pymod(seat - turn, 4);
        for (int64_t s = 0; s < 4; ++s) {
            if (s == seat || s == turn) continue;
            const bool before = pymod(s - turn, 4) < my_pos;
            if (before && ph == St::PH_READY0) continue;  // (a declaration shows in its ready flag)
            S.p(b, s, St::P_CLAIM) = before ? 0 : claim_bits(S, b, s, ph, opts, prof);
            S.p(b, s, St::P_ANSWER) = -1;
        }
    }
    mask_rows(S.mask[b], g, S.p[b], S.hands[b], S.melds[b], S.terminated[b], opts, cfg, prof.p_opts);
}

void reshuffle_wall(const State& S, int64_t b, uint64_t seed) {
    auto g = S.g[b];
    Stream r(seed);
    S.rng[b] = r.next();  // (as resample_hidden: the hands after this one are dealt from a new stream)
    g[St::G_SCRIPT_USED] = std::max<int64_t>(g[St::G_SCRIPT_USED], S.script.shape[1]);
    if (g[St::G_PHASE] == St::PH_LA_CUT) return;
    const int64_t head = g[St::G_HEAD], n = g[St::G_TAIL] - head + 1;
    std::array<uint8_t, T::N_TILES> w;  // physical ids: a shuffle of them is a shuffle of the kinds
    for (int64_t i = 0; i < n; ++i) w[i] = S.wall(b, head + i);
    shuffle(w.data(), n, r);
    for (int64_t i = 0; i < n; ++i) S.wall(b, head + i) = w[i];
}

GameBuf::GameBuf(int64_t n)
    : wall(n * St::WALL_SIZE),
      hands(n * 4 * T::N_KINDS),
      melds(n * 4 * St::MAX_MELDS * 3),
      river(n * St::MAX_RIVER * 4),
      g(n * St::NG),
      p(n * 4 * St::NP),
      scores(n * 4),
      res_delta(n * 4),
      rng(n),
      rewards(n * 4),
      terminated(n),
      mask(n * A::N_ACTIONS),
      res_tai(n * 4),
      la_k(n * 16),
      res_items(n * 4 * py::codes::N_ITEMS),
      la(n * 16),
      script(1),
      rec(n * St::HAND_LOG * St::NREC),
      rec_items(n * St::HAND_LOG * St::REC_MAX_ITEMS) {
    S.wall = View<uint8_t, 2>::contiguous(wall.data(), {n, St::WALL_SIZE});
    S.hands = View<int8_t, 3>::contiguous(hands.data(), {n, 4, T::N_KINDS});
    S.melds = View<int8_t, 4>::contiguous(melds.data(), {n, 4, St::MAX_MELDS, 3});
    S.river = View<int8_t, 3>::contiguous(river.data(), {n, St::MAX_RIVER, 4});
    S.g = View<int64_t, 2>::contiguous(g.data(), {n, St::NG});
    S.p = View<int64_t, 3>::contiguous(p.data(), {n, 4, St::NP});
    S.scores = View<int64_t, 2>::contiguous(scores.data(), {n, 4});
    S.rng = View<uint64_t, 1>::contiguous(rng.data(), {n});
    S.rewards = View<float, 2>::contiguous(rewards.data(), {n, 4});
    S.terminated = View<bool, 1>::contiguous(reinterpret_cast<bool*>(terminated.data()), {n});
    S.mask = View<bool, 2>::contiguous(reinterpret_cast<bool*>(mask.data()), {n, A::N_ACTIONS});
    S.res_tai = View<int32_t, 2>::contiguous(res_tai.data(), {n, 4});
    S.res_items = View<int16_t, 3>::contiguous(res_items.data(), {n, 4, py::codes::N_ITEMS});
    S.res_delta = View<int64_t, 2>::contiguous(res_delta.data(), {n, 4});
    S.script = View<uint8_t, 3>::contiguous(script.data(), {n, 0, St::WALL_SIZE});
    S.la = View<double, 3>::contiguous(la.data(), {n, 4, 4});
    S.la_k = View<int32_t, 3>::contiguous(la_k.data(), {n, 4, 4});
    S.rec = View<int64_t, 3>::contiguous(rec.data(), {n, St::HAND_LOG, St::NREC});
    S.rec_items = View<int32_t, 3>::contiguous(rec_items.data(), {n, St::HAND_LOG, St::REC_MAX_ITEMS});
}

// -- the search agent ---------------------------------------------------------------------------
namespace {
// 4 minus every copy of each kind the seat can see (planes_v0's CH_UNSEEN without reveal_ankong).
void unseen_of(const State& S, int64_t b, int64_t seat, View<int8_t, 1> u) {
    std::array<int64_t, T::N_KINDS> seen{};
    for (int64_t k = 0; k < T::N_KINDS; ++k) seen[k] = S.hands(b, seat, k);
    for (int64_t s = 0; s < 4; ++s)
        for (int64_t i = 0; i < S.p(b, s, St::P_NMELDS); ++i) {
            const int64_t mt = S.melds(b, s, i, St::MC_TYPE), mk = S.melds(b, s, i, St::MC_KIND);
            if (mt == T::MELD_ANKONG && s != seat) continue;  // face down
            if (mt == T::MELD_CHI) {
                for (int64_t j = 0; j < 3; ++j) seen[mk + j] += 1;
            } else {
                seen[mk] += mt == T::MELD_PON ? 3 : 4;
            }
        }
    for (int64_t i = 0; i < S.g(b, St::G_NRIVER); ++i)
        if (S.river(b, i, St::RV_CLAIMED_BY) < 0) seen[S.river(b, i, St::RV_KIND)] += 1;
    for (int64_t k = 0; k < T::N_KINDS; ++k) u[k] = static_cast<int8_t>(std::max<int64_t>(0, 4 - seen[k]));
}

// Defensive's inputs for the seat to decide, as agents.features.decode reads them from its planes_v0
// observation (without reveal_ankong, as the arena encodes): opponents are the relative seats 1..3.
struct DefInputs {
    std::array<int8_t, T::N_KINDS> hand{}, unseen{};
    std::array<int64_t, 3> opp_melds{};
    std::array<int8_t, 3 * T::N_KINDS> opp_disc{}, opp_passed{};
    int64_t tiles_left = 0, claim_tile = -1;
};

void defensive_inputs(const State& S, int64_t b, int64_t me, Opts opts, DefInputs& f) {
    for (int64_t k = 0; k < T::N_KINDS; ++k) f.hand[k] = S.hands(b, me, k);
    unseen_of(S, b, me, View<int8_t, 1>::contiguous(f.unseen.data(), {T::N_KINDS}));
    for (int64_t r = 1; r < 4; ++r) f.opp_melds[r - 1] = S.p(b, pymod(me + r, 4), St::P_NMELDS);
    // the river, newest first: each seat's discard counts and its newest discard (decode's CH_RECENT j = 0)
    std::array<int64_t, 4> newest{-1, -1, -1, -1};
    for (int64_t i = S.g(b, St::G_NRIVER) - 1; i >= 0; --i) {
        const int64_t k = S.river(b, i, St::RV_KIND), r = pymod(S.river(b, i, St::RV_SEAT) - me, 4);
        if (newest[r] < 0) newest[r] = k;
        if (r > 0) f.opp_disc[(r - 1) * T::N_KINDS + k] += 1;
    }
    // opponent r let pass the newest discards of the relative seats r..3 (decode's opp_passed)
    for (int64_t r = 1; r < 4; ++r)
        for (int64_t q = r; q < 4; ++q)
            if (newest[q] >= 0) f.opp_passed[(r - 1) * T::N_KINDS + newest[q]] = 1;
    f.tiles_left = std::min<int64_t>(std::max<int64_t>(tiles_left(S.g[b], opts), 0), 256);
    const int64_t ph = S.g(b, St::G_PHASE);
    if (ph == St::PH_CLAIM || ph == St::PH_ROB) f.claim_tile = S.g(b, St::G_TILE);
}
}  // namespace

int64_t defensive_decision(const State& S, int64_t b, Opts opts, const greedy::Defence& defence) {
    const auto m = S.mask[b];
    if (m[A::WIN]) return A::WIN;
    if (m[A::READY]) return A::READY;
    DefInputs f;
    defensive_inputs(S, b, S.g(b, St::G_CUR), opts, f);
    const auto hand = View<int8_t, 1>::contiguous(f.hand.data(), {T::N_KINDS});
    const int64_t n_sets = 5 - S.p(b, S.g(b, St::G_CUR), St::P_NMELDS);
    bool any_discard = false;  // (as act_kernel: a claim answer offers no discard)
    for (int64_t x = A::DISCARD; x < A::CHI; ++x) any_discard = any_discard || m[x];
    if (f.claim_tile >= 0 && m[A::PASS] && !any_discard) return greedy::greedy_claim(hand, n_sets, f.claim_tile, m);
    return greedy::greedy_turn(hand, n_sets, View<int8_t, 1>::contiguous(f.unseen.data(), {T::N_KINDS}), m,
                               View<int64_t, 1>::contiguous(f.opp_melds.data(), {3}),
                               View<int8_t, 2>::contiguous(f.opp_disc.data(), {3, T::N_KINDS}),
                               View<int8_t, 2>::contiguous(f.opp_passed.data(), {3, T::N_KINDS}), f.tiles_left,
                               defence);
}

double discard_log_weight(const State& S, int64_t b, int64_t seat, const Prof& prof) {
    double lw = 0.0;
    std::array<int64_t, 4> last{-1, -1, -1, -1};  // each seat's newest discard (river index)
    const int64_t n = S.g(b, St::G_NRIVER);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t s = S.river(b, i, St::RV_SEAT), d = S.river(b, i, St::RV_KIND);
        last[s] = i;
        if (s == seat) continue;
        int64_t near = 2 * S.hands(b, s, d);
        if (d < 27) {
            const int64_t r = d % 9;
            for (int64_t off : {-2, -1, 1, 2})
                if (0 <= r + off && r + off < 9) near += S.hands(b, s, d + off) * (std::abs(off) == 1 ? 2 : 1);
        }
        lw -= static_cast<double>(near);
    }
    // An opponent dealt a hand that wins on a tile another seat discarded since its own newest
    // discard would have won on it (the rule-based opponents always win when they can): such a deal
    // is all but excluded.
    for (int64_t s = 0; s < 4; ++s) {
        if (s == seat) continue;
        std::array<int8_t, T::N_KINDS> h{};
        for (int64_t k = 0; k < T::N_KINDS; ++k) h[k] = S.hands(b, s, k);
        const auto hv = View<int8_t, 1>::contiguous(h.data(), {T::N_KINDS});
        std::array<bool, T::N_KINDS> asked{};
        for (int64_t i = last[s] + 1; i < n; ++i) {
            const int64_t d = S.river(b, i, St::RV_KIND);
            if (S.river(b, i, St::RV_SEAT) == s || asked[d]) continue;
            asked[d] = true;
            if (may_win_on(S.p[b][s], hv, d, false, prof.p_opts)) lw -= PASSED_WIN_CLOSENESS;
        }
    }
    return lw;
}

namespace {
// ROLLOUT_EFFICIENT: win and declare whenever legal, Greedy's claim answers (agents/greedy.py:
// pon / chi / kong only when they lower the shanten), a discard of lowest shanten (ties uniform);
// every other decision uniform. Cheaper than Greedy's full turn (no ukeire), with no random calls.
int64_t efficient_action(const State& R, Stream& arng, View<int64_t, 1> sh, View<int64_t, 1> legal) {
    const auto m = R.mask[0];
    if (m[A::WIN]) return A::WIN;
    if (m[A::READY]) return A::READY;
    const int64_t seat = R.g(0, St::G_CUR);
    const int64_t ph = R.g(0, St::G_PHASE);
    std::array<int8_t, T::N_KINDS> hb{};
    for (int64_t k = 0; k < T::N_KINDS; ++k) hb[k] = R.hands(0, seat, k);
    const auto hand = View<int8_t, 1>::contiguous(hb.data(), {T::N_KINDS});
    const int64_t n_sets = 5 - R.p(0, seat, St::P_NMELDS);
    if (ph == St::PH_CLAIM && R.g(0, St::G_TILE) >= 0 && n_sets > 0)
        return greedy::greedy_claim(hand, n_sets, R.g(0, St::G_TILE), m);
    if (ph == St::PH_TURN) {
        discard_shanten(hand, n_sets, sh);
        int64_t best = int64_t{1} << 30, n = 0;
        for (int64_t k = 0; k < T::N_KINDS; ++k)
            if (m[k] && sh[k] < best) best = sh[k];
        for (int64_t k = 0; k < T::N_KINDS; ++k) n += m[k] && sh[k] == best;
        if (n > 0) {
            int64_t r = arng.below(n);
            for (int64_t k = 0; k < T::N_KINDS; ++k)
                if (m[k] && sh[k] == best && r-- == 0) return k;
        }
    }
    return random_action(m, arng.v(), 0, legal);
}

// The rollout policy's action for the seat to decide in game 0 of R.
int64_t policy_action(const State& R, const SearchCfg& cfg, Stream& arng, View<int64_t, 1> shv, View<int64_t, 1> lv,
                      Opts opts) {
    if (cfg.policy == ROLLOUT_BASE) {
        int64_t base = -1;
        search_candidates(R, 0, &base, 1, opts);
        return base;
    }
    return cfg.policy == ROLLOUT_DEFENSIVE   ? defensive_decision(R, 0, opts, *cfg.defence)
           : cfg.policy == ROLLOUT_EFFICIENT ? efficient_action(R, arng, shv, lv)
           : cfg.policy == RP::POLICY_GREEDY ? greedy_action(R, 0, arng.v(), shv, lv)
                                             : random_action(R.mask[0], arng.v(), 0, lv);
}

inline constexpr int64_t PLAY_CUT = 3;  // play_on: the hand ran past cfg.max_steps

// Play game 0 of R from the seat's action a with the rollout policy at every seat: to the end of the
// hand, or with to_leaf until `seat` is to decide again (LEAF_OPEN), a decision of the seat with a
// win on offer played as the win (the search takes every win: its chips are then exact). *chips: the
// seat's chips gained on the way. Returns LEAF_SETTLED when the hand ended, LEAF_REFUSED when ok
// refused a state, PLAY_CUT past cfg.max_steps.
int64_t play_on(const State& R, int64_t seat, int64_t a, uint64_t seed, const SearchCfg& cfg, Opts opts, Cfg ecfg,
                const Prof& prof, StepOk ok, bool to_leaf, double* chips) {
    Stream arng(seed);
    std::array<int64_t, 34> sh{};
    std::array<int64_t, A::N_ACTIONS> legal{};
    const auto shv = View<int64_t, 1>::contiguous(sh.data(), {34});
    const auto lv = View<int64_t, 1>::contiguous(legal.data(), {A::N_ACTIONS});
    const int64_t before = R.scores(0, seat);
    const int64_t hands0 = R.g(0, St::G_HANDS);
    *chips = 0.0;
    for (int64_t t = 0; t < cfg.max_steps; ++t) {
        if (a < 0 || !R.mask(0, a) || !ok(R, 0, a, opts)) return LEAF_REFUSED;
        step_game(R, 0, a, opts, ecfg, prof);
        *chips = static_cast<double>(sub_wrap(R.scores(0, seat), before));
        if (R.terminated[0] || R.g(0, St::G_HANDS) != hands0) return LEAF_SETTLED;
        if (to_leaf && R.g(0, St::G_CUR) == seat) {
            if (!R.mask(0, A::WIN)) return LEAF_OPEN;
            a = A::WIN;
        } else {
            a = policy_action(R, cfg, arng, shv, lv, opts);
        }
    }
    return PLAY_CUT;
}

// The hand played out from action a (play_on to the end; a hand cut at cfg.max_steps counts what it
// gained): the seat's chips. Returns false when ok refused a state.
bool rollout(const State& R, int64_t seat, int64_t a, uint64_t seed, const SearchCfg& cfg, Opts opts, Cfg ecfg,
             const Prof& prof, StepOk ok, double* value) {
    return play_on(R, seat, a, seed, cfg, opts, ecfg, prof, ok, false, value) != LEAF_REFUSED;
}

// The candidate played to its leaf (play_on with to_leaf): LEAF_OPEN or LEAF_SETTLED, LEAF_REFUSED
// when ok refused a state or the hand ran past cfg.max_steps.
int64_t play_to_leaf(const State& R, int64_t seat, int64_t a, uint64_t seed, const SearchCfg& cfg, Opts opts, Cfg ecfg,
                     const Prof& prof, StepOk ok, double* chips) {
    const int64_t st = play_on(R, seat, a, seed, cfg, opts, ecfg, prof, ok, true, chips);
    return st == PLAY_CUT ? LEAF_REFUSED : st;
}
}  // namespace

int64_t search_candidates(const State& S, int64_t b, int64_t* out, int64_t max_n, Opts opts,
                          const greedy::Defence* defence) {
    const auto m = S.mask[b];
    const int64_t seat = S.g(b, St::G_CUR);
    std::array<int8_t, T::N_KINDS> hb{}, ub{};
    for (int64_t k = 0; k < T::N_KINDS; ++k) hb[k] = S.hands(b, seat, k);
    const auto hand = View<int8_t, 1>::contiguous(hb.data(), {T::N_KINDS});
    const int64_t n_sets = 5 - S.p(b, seat, St::P_NMELDS);
    std::array<int64_t, A::N_ACTIONS> order;
    std::array<bool, A::N_ACTIONS> taken{};
    int64_t n = 0;
    auto put = [&](int64_t a) {
        if (a >= 0 && a < A::N_ACTIONS && m[a] && !taken[a]) {
            taken[a] = true;
            order[n++] = a;
        }
    };
    put(A::WIN);
    put(A::READY);  // (Greedy declares whenever it may)
    if (defence) put(defensive_decision(S, b, opts, *defence));
    const int64_t ph = S.g(b, St::G_PHASE);
    if (ph == St::PH_TURN) {
        unseen_of(S, b, seat, View<int8_t, 1>::contiguous(ub.data(), {T::N_KINDS}));
        const auto unseen = View<int8_t, 1>::contiguous(ub.data(), {T::N_KINDS});
        std::array<std::array<int64_t, 4>, T::N_KINDS> keys;
        int64_t nd = 0;
        for (int64_t d = 0; d < T::N_KINDS; ++d)
            if (m[A::DISCARD + d] && hand[d] > 0) {
                const auto k = greedy::discard_key(hand, n_sets, unseen, d).key;
                keys[nd++] = {k[0], k[1], k[2], d};
            }
        std::sort(keys.begin(), keys.begin() + nd);
        // Greedy's own choice first (a self kong that keeps the shanten, else its discard): with no
        // defence (risk 0) greedy_turn reads nothing of the opponents.
        std::array<int64_t, 3> om{};
        std::array<int8_t, 3 * T::N_KINDS> od{}, opass{};
        std::array<double, 8> params{};
        std::array<double, 5 * 4> tables{};  // (never read at risk 0)
        const greedy::Defence greedy_only{View<double, 1>::contiguous(params.data(), {8}),
                                          View<double, 2>::contiguous(tables.data(), {5, 3}),
                                          View<double, 2>::contiguous(tables.data(), {5, 4})};
        put(greedy::greedy_turn(hand, n_sets, unseen, m, View<int64_t, 1>::contiguous(om.data(), {3}),
                                View<int8_t, 2>::contiguous(od.data(), {3, T::N_KINDS}),
                                View<int8_t, 2>::contiguous(opass.data(), {3, T::N_KINDS}), 0, greedy_only));
        if (nd > 0) put(A::DISCARD + keys[0][3]);
        for (int64_t k = 0; k < T::N_KINDS; ++k) put(A::SELF_KONG + k);
        for (int64_t i = 1; i < nd; ++i) put(A::DISCARD + keys[i][3]);
    } else if (ph == St::PH_CLAIM && S.g(b, St::G_TILE) >= 0 && n_sets > 0) {
        put(greedy::greedy_claim(hand, n_sets, S.g(b, St::G_TILE), m));
    }
    for (int64_t a = 0; a < A::N_ACTIONS; ++a) put(a);
    const int64_t k = std::min(n, max_n);
    for (int64_t i = 0; i < k; ++i) out[i] = order[i];
    return k;
}

namespace {
// The next determinization of the stream r (search_action's and search_weights' one order): game b
// of S copied into game 0 of D with what `seat` cannot see dealt again. Writes its log importance
// weight (0 at beta = 0, without computing it) and returns its rollout stream's seed.
uint64_t next_determinization(const State& S, int64_t b, int64_t seat, Stream& r, double beta, const State& D,
                              Opts opts, Cfg ecfg, const Prof& prof, double* log_w, bool oracle = false,
                              const double* hand_q = nullptr) {
    copy_game(S, b, D, 0);
    if (oracle)
        reshuffle_wall(D, 0, r.next());
    else
        resample_hidden(D, 0, seat, r.next(), opts, ecfg, prof, hand_q);
    const uint64_t rollout_seed = r.next();
    *log_w = beta == 0.0 ? 0.0 : beta * discard_log_weight(D, 0, seat, prof);
    return rollout_seed;
}
}  // namespace

uint64_t search_determinization(const State& S, int64_t b, uint64_t seed, int64_t i, Opts opts, Cfg ecfg,
                                const Prof& prof, const State& dst, int64_t c) {
    const int64_t seat = S.g(b, St::G_CUR);
    GameBuf det(1);
    const State D = det.state();
    Stream r(seed);
    double lw = 0.0;
    uint64_t rs = 0;
    for (int64_t q = 0; q <= i; ++q) rs = next_determinization(S, b, seat, r, 0.0, D, opts, ecfg, prof, &lw);
    copy_game(D, 0, dst, c);
    return rs;
}

void search_weights(const State& S, int64_t b, uint64_t seed, int64_t k, double beta, Opts opts, Cfg ecfg,
                    const Prof& prof, double* w) {
    const int64_t seat = S.g(b, St::G_CUR);
    GameBuf det(1);
    const State D = det.state();
    Stream r(seed);
    double top = -INFINITY, sum = 0.0;
    for (int64_t i = 0; i < k; ++i) {
        next_determinization(S, b, seat, r, beta, D, opts, ecfg, prof, &w[i]);
        top = std::max(top, w[i]);
    }
    for (int64_t i = 0; i < k; ++i) sum += (w[i] = std::exp(w[i] - top));
    for (int64_t i = 0; i < k; ++i) w[i] /= sum;
}

void PairedMeans::start(double log_w) {
    if (done == 0) top = log_w;
    if (log_w > top) {  // rescale what is summed so that the largest weight so far is 1 (no underflow)
        const double f = std::exp(top - log_w);
        for (int64_t j = 0; j < nc; ++j) sum[j] *= f, sq[j] *= f;
        W *= f;
        W2 *= f * f;
        top = log_w;
    }
    w = std::exp(log_w - top);
}

void PairedMeans::add(int64_t j, double v) {
    sum[j] += w * v;
    if (j == 0) v0 = v;
    sq[j] += w * (v - v0) * (v - v0);
}

void PairedMeans::finish() {
    W += w;
    W2 += w * w;
    ++done;
}

int64_t PairedMeans::choose(double z, double margin, double* means) const {
    const double ess = W * W / W2, denom = W - W2 / W;
    int64_t best = 0;
    for (int64_t j = 0; j < nc; ++j) means[j] = sum[j] / W;
    for (int64_t j = 1; j < nc; ++j) {
        const double d = means[j] - means[0];
        const double var = std::max(1.0, done > 1 && denom > 0.0 ? (sq[j] - W * d * d) / denom : 0.0);
        if (d > std::max(z * std::sqrt(var / ess), margin) && means[j] > means[best]) best = j;
    }
    return best;
}

int64_t search_action(const State& S, int64_t b, const SearchCfg& cfg, uint64_t seed, Opts opts, Cfg ecfg,
                      const Prof& prof, StepOk ok, double* values, int64_t* cands, int64_t* n_cands,
                      const int64_t* given, int64_t n_given) {
    const auto t0 = std::chrono::steady_clock::now();
    const int64_t seat = S.g(b, St::G_CUR);
    const int64_t nc = given ? std::min(n_given, cfg.n)
                             : search_candidates(S, b, cands, cfg.n, opts, cfg.base_defensive ? cfg.defence : nullptr);
    if (given) std::copy(given, given + nc, cands);
    *n_cands = 0;
    if (nc == 0) return -1;
    if (nc == 1 || cands[0] == A::WIN) return cands[0];  // nothing to search
    *n_cands = nc;
    GameBuf det(1), roll(1);
    const State D = det.state(), R = roll.state();
    Stream r(seed);
    PairedMeans pm(nc);
    for (int64_t i = 0; i < cfg.k; ++i) {
        if (i > 0 && cfg.ms > 0.0 &&
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() >= cfg.ms)
            break;
        double lw = 0.0;
        // the same rollout stream rs for every candidate
        const uint64_t rs =
            next_determinization(S, b, seat, r, cfg.weight, D, opts, ecfg, prof, &lw, cfg.oracle, cfg.hand_q);
        pm.start(lw);
        for (int64_t j = 0; j < nc; ++j) {
            copy_game(D, 0, R, 0);
            double v = 0.0;
            if (!rollout(R, seat, cands[j], rs, cfg, opts, ecfg, prof, ok, &v)) return -1;
            pm.add(j, v);
        }
        pm.finish();
    }
    const int64_t best = pm.choose(cfg.z, 0.0, values);
    return cands[best];
}

int64_t search_leaves(const State& S, int64_t b, const SearchCfg& cfg, uint64_t seed, Opts opts, Cfg ecfg,
                      const Prof& prof, StepOk ok, const int64_t* cands, int64_t nc, const State& L, int64_t l0,
                      double* chips, int8_t* status, double* log_w) {
    const auto t0 = std::chrono::steady_clock::now();
    const int64_t seat = S.g(b, St::G_CUR);
    GameBuf det(1), leaf(1);
    const State D = det.state(), R = leaf.state();
    Stream r(seed);
    int64_t done = 0;
    for (int64_t i = 0; i < cfg.k; ++i) {
        if (i > 0 && cfg.ms > 0.0 &&
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() >= cfg.ms)
            break;
        // the determinizations (and their rollout seeds) of search_action, in its order
        const uint64_t rs =
            next_determinization(S, b, seat, r, cfg.weight, D, opts, ecfg, prof, &log_w[i], cfg.oracle, cfg.hand_q);
        for (int64_t j = 0; j < nc; ++j) {
            copy_game(D, 0, R, 0);
            double c = 0.0;
            const int64_t st = play_to_leaf(R, seat, cands[j], rs, cfg, opts, ecfg, prof, ok, &c);
            if (st == LEAF_REFUSED) return -1;
            if (st == LEAF_OPEN) copy_game(R, 0, L, l0 + i * cfg.n + j);
            chips[i * cfg.n + j] = c;
            status[i * cfg.n + j] = static_cast<int8_t>(st);
        }
        ++done;
    }
    return done;
}

}  // namespace tw16
