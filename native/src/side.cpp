// hongkong side payments (HONGKONG.md 4); see side.hpp.
#include "tw16/side.hpp"

#include "tw16/rng.hpp"

namespace tw16 {

namespace {
namespace St = py::state;
namespace R = py::options;
}  // namespace

void all_pay(View<int64_t, 2> p, int64_t seat, int64_t chips) {
    for (int64_t s = 0; s < 4; ++s) {
        if (s != seat) {
            p(s, St::P_SIDE) = sub_wrap(p(s, St::P_SIDE), chips);  // (int64 columns wrap, see add_wrap)
            p(seat, St::P_SIDE) = add_wrap(p(seat, St::P_SIDE), chips);
        }
    }
}

void flower_side(View<int64_t, 2> p, int64_t seat, Opts opts) {
    const int64_t f = p(seat, St::P_FLOWERS);
    int64_t done = p(seat, St::P_FLOWER_PAID);
    const int64_t sets[2][2] = {{0, St::FP_SET1}, {4, St::FP_SET2}};
    for (const auto& lb : sets) {  // 一臺花: a whole set of four, 1 底 from each, once per set
        const int64_t lo = lb[0], bit = lb[1];
        if (((f >> lo) & 15) == 15 && !(done & bit)) {
            all_pay(p, seat, base_chips(opts, 2));
            done |= bit | St::FP_GRASS;
        }
    }
    if (!(done & St::FP_GRASS) && ((f | (f >> 4)) & 15) == 15) {  // 一臺草: four different numbers
        all_pay(p, seat, base_chips(opts, 1));
        done |= St::FP_GRASS;
    }
    p(seat, St::P_FLOWER_PAID) = done;
}

void roll_dice(const State& S, int64_t b, Opts opts) {
    const int64_t d1 = randint(S.rng, b, 6) + 1;
    const int64_t d2 = randint(S.rng, b, 6) + 1;
    const int64_t d3 = randint(S.rng, b, 6) + 1;
    S.g(b, St::G_DICE) = d1 + 8 * d2 + 64 * d3;
    if (!opts[R::OPT_DICE]) return;
    const int64_t dealer = S.g(b, St::G_DEALER);
    const int64_t one = base_chips(opts, 2);
    if (d1 == d2 && d2 == d3) {  // 圍骰
        all_pay(S.p[b], dealer, one);
    } else if (d1 != d2 && d2 != d3 && d1 != d3 && d1 + d2 + d3 == 6) {  // 一二三
        all_pay(S.p[b], dealer, -one);
    }
}

void chase_side(const State& S, int64_t b, Opts opts) {
    const int64_t i = S.g(b, St::G_NRIVER) - 1;
    if (i < 3) return;
    const View<int8_t, 2> r = S.river[b];  // (144, 4): kind, seat, claimed by (-1: none), flags
    const int64_t k = r(i, St::RV_KIND);
    for (int64_t j = 1; j < 4; ++j) {
        if (r(i - j, St::RV_KIND) != k || r(i - j, St::RV_CLAIMED_BY) >= 0 ||
            r(i - j, St::RV_SEAT) != pymod(r(i, St::RV_SEAT) - j, 4))
            return;
    }
    const int64_t first = r(i - 3, St::RV_SEAT);
    all_pay(S.p[b], first, -base_chips(opts, k >= 27 ? 2 : 4));
}

}  // namespace tw16
