// libFuzzer harness: scoring of a byte-decoded hand (score.hpp, hongkong.hpp, tally.hpp) under every
// rule set of fixtures.inc, then its settlement (settle.hpp).
//
// Input: config, mode, melds, concealed tiles (from sets, so that most hands are complete and the
// items are reached, or raw kinds), the winning tile and the context; settlement seats and streak;
// with mode bit 2, edits of the compiled profile and the rule options (any values the bindings let
// through: p_tai's rows 0..2, p_repl, p_opts and opts are not range-checked there). A hand the
// bindings would refuse (bind_scoring.cpp check_hand: a fifth tile of a kind, a winning tile not held)
// is skipped. score_hand, hk_score (any profile, as the binding allows), winning_shape, win_legs,
// settle and dealer_tai run; score_hand must be deterministic and settle zero-sum (int64 wrapping).
#include <array>
#include <cstdint>

#include "common.hpp"
#include "tw16/hongkong.hpp"
#include "tw16/score.hpp"
#include "tw16/settle.hpp"
#include "tw16/tally.hpp"

using namespace tw16;
using namespace tw16::fuzz;
namespace C = py::codes;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r(data, size);
    FixtureRules R(r.u8());
    const uint8_t mode = r.u8();
    std::array<int8_t, 5> mt{}, mk{};
    std::array<int8_t, 34> conc{};
    std::array<int64_t, 34> total{};
    const int64_t nm = r.u8() % 6;
    for (int64_t m = 0; m < nm; ++m) {
        const int64_t t = r.u8() % (T::MELD_ANKONG + 1);
        int64_t k = r.u8() % 34;
        if (t == T::MELD_CHI) {
            k = (k % 3) * 9 + r.u8() % 7;
            for (int d = 0; d < 3; ++d) ++total[k + d];
        } else {
            total[k] += t <= T::MELD_PON ? 3 : 4;
        }
        mt[m] = static_cast<int8_t>(t);
        mk[m] = static_cast<int8_t>(k);
    }
    const int64_t n_sets = 5 - nm;
    if (mode & 1) {  // sets and a pair
        for (int64_t s = 0; s < n_sets; ++s) {
            const uint8_t t = r.u8();
            if (t & 1) {
                const int64_t lo = ((t >> 1) % 3) * 9 + r.u8() % 7;
                for (int d = 0; d < 3; ++d) ++conc[lo + d];
            } else {
                conc[r.u8() % 34] += 3;
            }
        }
        conc[r.u8() % 34] += 2;
        if (mode & 2) {  // one tile changed: not complete, or a special shape's neighbour
            const int64_t a = r.u8() % 34, b = r.u8() % 34;
            if (conc[a] > 0) --conc[a], ++conc[b];
        }
    } else {  // raw kinds, 3 x sets + 2 of them (or 3 x sets + 1: a flower win shows 16 - 3m)
        const int64_t n = 3 * n_sets + 2 - ((mode >> 3) & 1);
        for (int64_t i = 0; i < n; ++i) ++conc[r.u8() % 34];
    }
    for (int64_t k = 0; k < 34; ++k) {
        total[k] += conc[k];
        if (conc[k] > 4 || total[k] > 4) return 0;  // (the bindings refuse a fifth tile)
    }
    const int64_t flowers = r.u8();
    const int64_t win_by = r.u8() % 4;
    int64_t win_tile = -1;
    const uint8_t wt = r.u8();
    if (wt != 255) {  // the j-th held kind
        int64_t j = wt % 34;
        for (int64_t pass = 0; pass < 2 && win_tile < 0; ++pass)
            for (int64_t k = 0; k < 34; ++k)
                if (conc[k] > 0 && j-- == 0) {
                    win_tile = k;
                    break;
                }
    }
    if (win_tile >= 0 && win_by != C::WIN_FLOWERS && conc[win_tile] == 0) return 0;
    const int64_t seat_wind = r.u8() % 4, round_wind = r.u8() % 4;
    const int64_t flags = r.u16() & 0x1FFF;
    const int64_t winner = r.u8() % 4, payer = static_cast<int64_t>(r.u8() % 5) - 1;
    const int64_t liable = static_cast<int64_t>(r.u8() % 5) - 1, dealer = r.u8() % 4;
    const int64_t streak = (mode & 16) ? static_cast<int64_t>(r.u64()) : r.u8();
    if (mode & 4) {  // garbled profile and options (what the bindings pass through unchecked)
        const int64_t edits = r.u8() % 8;
        for (int64_t e = 0; e < edits; ++e) {
            switch (r.u8() % 5) {
                case 0:
                    R.p_tai[r.below(3 * C::N_ITEMS)] = static_cast<int32_t>(r.u64());
                    break;
                case 1:
                    R.p_tai[3 * C::N_ITEMS + r.below(C::N_ITEMS)] = static_cast<int32_t>(r.below(C::N_ITEMS + 1)) - 1;
                    break;
                case 2:
                    R.p_repl[r.below(C::N_ITEMS * C::N_ITEMS)] = static_cast<int8_t>(r.u8());
                    break;
                case 3:
                    R.p_opts[r.below(P::N_POPTS)] = static_cast<int64_t>(r.u64());
                    break;
                default:
                    R.opts[r.below(py::options::N_OPTS)] = static_cast<int64_t>(r.u64());
                    break;
            }
        }
    }
    const auto cv = View<int8_t, 1>::contiguous(conc.data(), {34});
    const auto mtv = View<int8_t, 1>::contiguous(mt.data(), {5});
    const auto mkv = View<int8_t, 1>::contiguous(mk.data(), {5});
    std::array<int32_t, C::N_ITEMS> items{}, items2{};
    const auto iv = View<int32_t, 1>::contiguous(items.data(), {C::N_ITEMS});
    const int64_t tai =
        score_hand(cv, mtv, mkv, nm, flowers, win_tile, win_by, seat_wind, round_wind, flags, R.prof, iv);
    const int64_t tai2 = score_hand(cv, mtv, mkv, nm, flowers, win_tile, win_by, seat_wind, round_wind, flags, R.prof,
                                    View<int32_t, 1>::contiguous(items2.data(), {C::N_ITEMS}));
    if (tai != tai2 || items != items2) fail("score: score_hand is not deterministic", tai, tai2);
    hk_score(cv, mtv, mkv, nm, flowers, win_tile, win_by, seat_wind, round_wind, flags, R.prof, iv);
    winning_shape(cv, n_sets, R.prof.p_opts);
    std::array<int64_t, 4> d{}, dt{};
    const int64_t ht = (mode & 32) ? static_cast<int64_t>(r.u64()) : tai;
    const Win w{ht, win_by, winner, payer, liable, dealer, streak};
    win_legs(w, R.options());
    auto dtv = View<int64_t, 1>::contiguous(dt.data(), {4});
    settle(w, R.options(), View<int64_t, 1>::contiguous(d.data(), {4}), &dtv);
    uint64_t sum = 0;
    for (int64_t x : d) sum += static_cast<uint64_t>(x);
    if (sum != 0) fail("settle: the deltas do not sum to zero", ht, static_cast<int64_t>(sum));
    dealer_tai(streak, R.options());
    return 0;
}
