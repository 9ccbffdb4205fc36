// The observation encoders planes_v0 and oracle_v0 (envs/obs/planes_v0.py, envs/obs/oracle_v0.py).
// Every value is computed in double and rounded to float32 on store (the recorded digests hold these
// roundings).
#include <algorithm>
#include <array>

#include "tw16/hand.hpp"
#include "tw16/meld.hpp"
#include "tw16/obs.hpp"
#include "tw16/parallel.hpp"
#include "tw16/wall.hpp"

namespace tw16::planes_v0 {
namespace {
namespace P0 = py::planes_v0;
namespace St = py::state;
namespace R = py::options;
namespace T = py::tiles;

// A View over a 34-kind scratch row.
template <class T>
View<T, 1> row_view(std::array<T, 34>& a) {
    return View<T, 1>::contiguous(a.data(), {34});
}
}  // namespace

int64_t n_channels(bool derived) { return derived ? P0::N_CHANNELS_DERIVED : P0::N_CHANNELS; }

void threshold_planes(View<float, 2> o, int64_t ch, View<int8_t, 1> counts) {
    for (int64_t k = 0; k < 34; ++k) {
        const int64_t n = std::min<int64_t>(counts[k], 4);  // channels i < n have c > i
        for (int64_t i = 0; i < n; ++i) o(ch + i, k) = 1.0f;
    }
}

// o[:, :] = 0 (one fill when the rows are contiguous, as the batch outputs are).
static void zero(View<float, 2> o) {
    if (o.stride[1] == 1 && o.stride[0] == o.shape[1]) {
        std::fill(o.data, o.data + o.shape[0] * o.shape[1], 0.0f);
        return;
    }
    for (int64_t c = 0; c < o.shape[0]; ++c)
        for (int64_t k = 0; k < o.shape[1]; ++k) o(c, k) = 0.0f;
}

// o += x: the float32 element is widened to double, added, rounded on store.
static void add_to(float& o, double x) { o = static_cast<float>(static_cast<double>(o) + x); }

// min(s + 1, 8) / 8: a shanten as a value in [0, 1] (0: complete).
static float shanten_value(int64_t s) { return static_cast<float>(std::min<int64_t>(s + 1, 8) / 8.0); }

void derived_planes(View<float, 2> o, View<int8_t, 1> hand, View<int8_t, 1> held, int64_t n_sets,
                    View<int8_t, 1> visible, int64_t shapes) {
    int64_t sz = 0;
    for (int64_t k = 0; k < 34; ++k) sz += hand[k];
    const float v = shanten_value(win_shanten(hand, n_sets, shapes));
    for (int64_t k = 0; k < 34; ++k) o(P0::CH_SHANTEN, k) = v;
    std::array<bool, 34> wbuf{};
    View<bool, 1> waits = row_view(wbuf);
    if (pymod(sz, 3) == 1) {
        win_wait_mask(hand, n_sets, held, shapes, waits);
        for (int64_t k = 0; k < 34; ++k)
            if (waits[k]) o(P0::CH_WAITS, k) = 1.0f;
    } else if (pymod(sz, 3) == 2) {
        // per held kind: the shanten after discarding it, and the waits of every ready discard
        for (int64_t k = 0; k < 34; ++k) {
            if (hand[k] == 0) continue;
            hand[k] -= 1;
            const int64_t d = win_shanten(hand, n_sets, shapes);
            o(P0::CH_DISCARD_SHANTEN, k) = shanten_value(d);
            if (d == 0) {
                win_wait_mask(hand, n_sets, held, shapes, waits);
                for (int64_t j = 0; j < 34; ++j)
                    if (waits[j]) o(P0::CH_WAITS, j) = 1.0f;
            }
            hand[k] += 1;
        }
    }
    std::array<int8_t, 34> ubuf{};
    for (int64_t k = 0; k < 34; ++k) ubuf[k] = static_cast<int8_t>(std::max<int64_t>(0, 4 - visible[k]));
    threshold_planes(o, P0::CH_UNSEEN, row_view(ubuf));
}

void encode_one(View<float, 2> o, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, int64_t b, int64_t me, Opts opts,
                int64_t flags, int64_t shapes) {
    zero(o);
    if (me < 0) return;
    const bool reveal = (flags & P0::F_REVEAL_ANKONG) != 0;
    std::array<int8_t, 34> hbuf{}, heldbuf{}, visbuf{}, mcbuf{};
    View<int8_t, 1> hand = row_view(hbuf);
    View<int8_t, 1> held = row_view(heldbuf);  // own tiles in hand and melds (waits need it)
    View<int8_t, 1> visible = row_view(visbuf);
    View<int8_t, 1> mc = row_view(mcbuf);
    for (int64_t k = 0; k < 34; ++k) {
        hand[k] = hands(b, me, k);
        held[k] = hand[k];
        visible[k] = hand[k];
    }
    threshold_planes(o, P0::CH_HAND, hand);
    const int64_t phase = g(b, St::G_PHASE);
    const int64_t turn = g(b, St::G_TURN);
    const bool own_draw = phase == St::PH_TURN && turn == me && g(b, St::G_LAST_DRAWN) >= 0;
    if (own_draw) o(P0::CH_DRAWN, g(b, St::G_LAST_DRAWN)) = 1.0f;
    View<float, 1> sc = o[P0::CH_SCALARS];
    for (int64_t r = 0; r < 4; ++r) {
        const int64_t s = pymod(me + r, 4);
        mcbuf.fill(0);
        const int64_t nm = p(b, s, St::P_NMELDS);
        for (int64_t i = 0; i < nm; ++i) {
            const int64_t mt = melds(b, s, i, St::MC_TYPE), mk = melds(b, s, i, St::MC_KIND),
                          frm = melds(b, s, i, St::MC_FROM);
            if (mt == T::MELD_ANKONG) {
                // a concealed kong is face down: others see it only with reveal_ankong
                add_to(o(P0::CH_MELD_FROM, 4 * r), 0.25);
                if (r == 0) add_meld_tiles(held, mt, mk);
                if (r == 0 || reveal) {
                    o(P0::CH_ANKONG + r, mk) = 1.0f;
                    add_meld_tiles(mc, mt, mk);
                }
            } else {
                add_to(o(P0::CH_MELD_FROM, 4 * r + pymod(frm - s, 4)), 0.25);
                add_meld_tiles(mc, mt, mk);
                if (r == 0) add_meld_tiles(held, mt, mk);
            }
        }
        threshold_planes(o, P0::CH_MELD + 4 * r, mc);
        for (int64_t k = 0; k < 34; ++k) visible[k] = static_cast<int8_t>(visible[k] + mc[k]);
        const int64_t fl = p(b, s, St::P_FLOWERS);
        for (int64_t f = 0; f < 8; ++f)
            if ((fl >> f) & 1) o(P0::CH_FLOWERS + r, f) = 1.0f;
        sc[P0::SC_READY + r] = p(b, s, St::P_READY) != 0 ? 1.0f : 0.0f;
        int64_t hs = 0;
        for (int64_t k = 0; k < 34; ++k) hs += hands(b, s, k);
        sc[P0::SC_HAND_SIZE + r] = static_cast<float>(hs / 16.0);
        const double score = static_cast<double>(scores(b, s)) / (static_cast<double>(opts[R::OPT_PER_TAI]) * 64.0);
        sc[P0::SC_SCORE + r] = static_cast<float>(std::min(std::max(score, -P0::SCORE_CLIP), P0::SCORE_CLIP));
    }
    // the river: counts, claims, recent discards (newest first)
    const int64_t n = g(b, St::G_NRIVER);
    std::array<std::array<int8_t, 34>, 4> dc{};
    std::array<int64_t, 4> seen{};
    for (int64_t i = n - 1; i >= 0; --i) {
        const int64_t k = river(b, i, St::RV_KIND);
        const int64_t r = pymod(river(b, i, St::RV_SEAT) - me, 4);
        dc[r][k] += 1;
        if (seen[r] < P0::N_RECENT) {
            o(P0::CH_RECENT + 4 * r + seen[r], k) = 1.0f;
            seen[r] += 1;
        }
        const int64_t cb = river(b, i, St::RV_CLAIMED_BY);
        if (cb >= 0) {
            add_to(o(P0::CH_CLAIMED + r, k), 1.0);
            add_to(o(P0::CH_TAKEN + pymod(cb - me, 4), k), 1.0);
        } else {
            visible[k] += 1;
        }
    }
    for (int64_t r = 0; r < 4; ++r) threshold_planes(o, P0::CH_DISCARD + 4 * r, row_view(dc[r]));
    if (n > 0) o(P0::CH_LAST, river(b, n - 1, St::RV_KIND)) = 1.0f;
    if (phase == St::PH_CLAIM || phase == St::PH_ROB) {
        const int64_t t = g(b, St::G_TILE);
        if (t >= 0) o(P0::CH_QUESTION, t) = 1.0f;
    }
    const int64_t dealer = g(b, St::G_DEALER);
    o(P0::CH_SEAT_WIND, T::WIND0 + pymod(sub_wrap(me, dealer), 4)) = 1.0f;  // (G_DEALER is not checked: wraps)
    o(P0::CH_ROUND_WIND, T::WIND0 + pymod(floordiv(g(b, St::G_ROT), 4), 4)) = 1.0f;
    const int64_t dr = tiles_left(g[b], opts);
    sc[P0::SC_DRAWABLE] = static_cast<float>(std::max<int64_t>(dr, 0) / 128.0);
    sc[P0::SC_LAST3] = (opts[R::OPT_NO_CALLS_LAST3] && dr <= 3) ? 1.0f : 0.0f;
    sc[P0::SC_STREAK] = static_cast<float>(g(b, St::G_STREAK) / 8.0);
    sc[P0::SC_ROT] = static_cast<float>(g(b, St::G_ROT) / 16.0);
    sc[P0::SC_NRIVER] = static_cast<float>(n / 128.0);
    sc[P0::SC_AFTER_CLAIM] = g(b, St::G_AFTER_CLAIM) ? 1.0f : 0.0f;
    sc[P0::SC_PASS_WIN] = p(b, me, St::P_PASS_WIN) ? 1.0f : 0.0f;
    if (own_draw) sc[P0::SC_REPLACEMENT] = g(b, St::G_DRAWSRC) != St::SRC_FRONT ? 1.0f : 0.0f;
    sc[P0::SC_DEALER + pymod(sub_wrap(dealer, me), 4)] = 1.0f;
    if (turn >= 0) sc[P0::SC_TURN + pymod(turn - me, 4)] = 1.0f;
    if (phase <= St::PH_READY0)
        for (int64_t k = 0; k < 34; ++k) o(P0::CH_PHASE + phase, k) = 1.0f;
    if (flags & P0::F_DERIVED) derived_planes(o, hand, held, 5 - p(b, me, St::P_NMELDS), visible, shapes);
}

void encode_parallel(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                     View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, View<int64_t, 1> seats, Opts opts,
                     int64_t flags, int64_t shapes) {
    parallel_for(out.shape[0], [&](int64_t b) {
        encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes);
    });
}

void encode_serial(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                   View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, View<int64_t, 1> seats, Opts opts,
                   int64_t flags, int64_t shapes) {
    for (int64_t b = 0; b < out.shape[0]; ++b)
        encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes);
}

}  // namespace tw16::planes_v0

namespace tw16::oracle_v0 {
namespace {
namespace O0 = py::oracle_v0;
namespace St = py::state;
}  // namespace

int64_t n_channels(bool derived) { return planes_v0::n_channels(derived) + O0::N_ORACLE_EXTRA; }

void oracle_planes(View<float, 2> o, int64_t base, View<int8_t, 3> hands, View<int8_t, 4> melds, View<uint8_t, 2> wall,
                   View<int64_t, 2> g, View<int64_t, 3> p, int64_t b, int64_t me) {
    if (me < 0) return;
    // the opponents' concealed hands and concealed kongs
    for (int64_t r = 1; r < 4; ++r) {
        const int64_t s = pymod(me + r, 4);
        for (int64_t k = 0; k < 34; ++k) {
            const int64_t c = hands(b, s, k);
            for (int64_t i = 0; i < 4; ++i)
                if (c > i) o(base + O0::O_HANDS + 4 * (r - 1) + i, k) = 1.0f;
        }
        for (int64_t i = 0; i < p(b, s, St::P_NMELDS); ++i)
            if (melds(b, s, i, St::MC_TYPE) == py::tiles::MELD_ANKONG)
                o(base + O0::O_ANKONG + r - 1, melds(b, s, i, St::MC_KIND)) = 1.0f;
    }
    // the wall: counts of what is left (dead wall included), then the next front and tail draws
    const int64_t head = g(b, St::G_HEAD), tail = g(b, St::G_TAIL);
    std::array<int8_t, 34> wc{};
    for (int64_t i = head; i <= tail; ++i) {
        const int64_t t = wall(b, i);
        if (t < py::tiles::FLOWER_ID0) wc[t >> 2] += 1;
    }
    for (int64_t k = 0; k < 34; ++k)
        for (int64_t i = 0; i < 4; ++i)
            if (wc[k] > i) o(base + O0::O_WALL + i, k) = 1.0f;
    for (int64_t j = 0; j < O0::N_FRONT; ++j) {
        const int64_t i = head + j;
        if (i > tail) break;
        const int64_t t = wall(b, i);
        if (t < py::tiles::FLOWER_ID0)
            o(base + O0::O_FRONT + j, t >> 2) = 1.0f;
        else
            o(base + O0::O_WALL_META, j) = 1.0f;
    }
    for (int64_t j = 0; j < O0::N_TAIL; ++j) {
        const int64_t i = tail - j;
        if (i < head) break;
        const int64_t t = wall(b, i);
        if (t < py::tiles::FLOWER_ID0)
            o(base + O0::O_TAIL + j, t >> 2) = 1.0f;
        else
            o(base + O0::O_WALL_META, O0::N_FRONT + j) = 1.0f;
    }
}

void encode_parallel(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                     View<uint8_t, 2> wall, View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores,
                     View<int64_t, 1> seats, Opts opts, int64_t flags, int64_t shapes, int64_t base) {
    parallel_for(out.shape[0], [&](int64_t b) {
        planes_v0::encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes);
        oracle_planes(out[b], base, hands, melds, wall, g, p, b, seats[b]);
    });
}

void encode_serial(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                   View<uint8_t, 2> wall, View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores,
                   View<int64_t, 1> seats, Opts opts, int64_t flags, int64_t shapes, int64_t base) {
    for (int64_t b = 0; b < out.shape[0]; ++b) {
        planes_v0::encode_one(out[b], hands, melds, river, g, p, scores, b, seats[b], opts, flags, shapes);
        oracle_planes(out[b], base, hands, melds, wall, g, p, b, seats[b]);
    }
}

}  // namespace tw16::oracle_v0

namespace tw16::planes_v1 {
namespace {
namespace P1 = py::planes_v1;
namespace P0 = py::planes_v0;
namespace St = py::state;

float clipped(double x) { return static_cast<float>(std::min(std::max(x, -P0::SCORE_CLIP), P0::SCORE_CLIP)); }

// The column of the ordered pair (debtor, creditor) as relative seats of me.
int64_t pair_col(int64_t debtor, int64_t creditor, int64_t me) {
    return 4 * pymod(debtor - me, 4) + pymod(creditor - me, 4);
}

void fill(View<float, 2> o, int64_t ch) {
    for (int64_t k = 0; k < 34; ++k) o(ch, k) = 1.0f;
}
}  // namespace

int64_t n_channels(bool derived) { return planes_v0::n_channels(derived) + P1::N_V1_EXTRA; }

void v1_extra_planes(View<float, 2> o, int64_t base, View<int64_t, 2> g, View<int64_t, 3> p, View<double, 3> la,
                     View<int32_t, 3> la_k, int64_t b, int64_t me, Opts opts) {
    if (me < 0) return;
    const int64_t phase = g(b, St::G_PHASE);
    // the ledger is public: every open debt d -> c, seen from me (R on the score scale, k / 16)
    const double scale = static_cast<double>(opts[py::options::OPT_PER_TAI]) * 64.0;
    for (int64_t d = 0; d < 4; ++d)
        for (int64_t c = 0; c < 4; ++c) {
            if (la_k(b, d, c) == 0) continue;
            o(base + P1::X_LA_DEBT, pair_col(d, c, me)) = clipped(la(b, d, c) / scale);
            o(base + P1::X_LA_COUNT, pair_col(d, c, me)) = clipped(la_k(b, d, c) / P1::LA_COUNT_SCALE);
        }
    const int64_t asks = g(b, St::G_LA_ASK) & 0xFFFF;  // bit 4d + c: debts still to be asked
    if (phase == St::PH_LA_CUT && asks != 0) {
        int64_t i = 0;
        while (!((asks >> i) & 1)) ++i;  // the lowest pending debt is the one asked now
        fill(o, base + P1::X_PHASE_LA_CUT);
        o(base + P1::X_LA_ASK, pair_col(i / 4, i % 4, me)) = 1.0f;
    }
    View<float, 1> of = o[base + P1::X_OFFER];
    if (phase == St::PH_FLOWER) {
        fill(o, base + P1::X_PHASE_FLOWER);
        const int64_t payer = g(b, St::G_OFFER_PAYER), offered = g(b, St::G_CUR);
        if (payer < 0)
            of[P1::OF_ALL_PAY] = 1.0f;
        else if (payer < 4)
            of[P1::OF_PAYER + pymod(payer - me, 4)] = 1.0f;
        if (g(b, St::G_OFFER_DRAWN)) of[P1::OF_DRAWN] = 1.0f;
        if (offered >= 0 && offered < 4) of[P1::OF_OFFERED + pymod(offered - me, 4)] = 1.0f;
    }
    for (int64_t r = 0; r < 4; ++r)
        if (p(b, pymod(me + r, 4), St::P_OFFER_PASSED)) of[P1::OF_PASSED + r] = 1.0f;
}

void encode_rows(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                 View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                 View<int64_t, 2> scores, View<double, 3> la, View<int32_t, 3> la_k, Opts opts, int64_t flags,
                 int64_t shapes) {
    const int64_t base = planes_v0::n_channels(flags & P0::F_DERIVED);
    parallel_for(rows.shape[0], [&](int64_t i) {
        planes_v0::encode_one(out[i], hands, melds, river, g, p, scores, rows[i], seats[i], opts, flags, shapes);
        v1_extra_planes(out[i], base, g, p, la, la_k, rows[i], seats[i], opts);
    });
}

}  // namespace tw16::planes_v1
