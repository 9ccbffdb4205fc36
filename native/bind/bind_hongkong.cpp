// Bindings of the hongkong concept: hk_score, and hk_legs / hk_settle (all for the tests, in envs._core._testing),
// with the Python names and arguments; the last two are thin wrappers of the one settlement
// (settle.hpp). Every array is checked (dtype, rank, shape) and every value that native code uses
// as an index or relies on (tile kinds, counts, melds, seats) is range-checked here, and the rules
// come compiled and checked once (envs._core.Rules, the profile's item order included): bad input
// raises ValueError / TypeError naming the argument.
#include <string>

#include "args.hpp"
#include "tw16/constants.hpp"
#include "tw16/hongkong.hpp"
#include "tw16/rules.hpp"
#include "tw16/settle.hpp"

namespace tw16::bind {

namespace {
namespace T = py::tiles;
namespace C = py::codes;

// The hand of score_hand: concealed counts 0..4 (with the winning tile), n_melds valid melds
// (type MELD_CHI..MELD_ANKONG, a chow's lowest kind a suited 1-7), and at most 4 tiles of a kind in all.
void check_hand(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                int64_t win_tile, int64_t win_by) {
    check_range(n_melds, 0, 5, "n_melds");
    if (meld_type.size() < n_melds) bad("meld_type: shorter than n_melds = " + std::to_string(n_melds));
    if (meld_kind.size() < n_melds) bad("meld_kind: shorter than n_melds = " + std::to_string(n_melds));
    int64_t total[T::N_KINDS] = {};
    for (int64_t k = 0; k < T::N_KINDS; ++k) {
        const int64_t c = concealed[k];
        if (c < 0 || c > 4)
            bad("concealed: count " + std::to_string(c) + " of kind " + std::to_string(k) + ", expected 0..4");
        total[k] = c;
    }
    for (int64_t m = 0; m < n_melds; ++m) {
        const int64_t t = meld_type[m], k = meld_kind[m];
        if (t < T::MELD_CHI || t > T::MELD_ANKONG)
            bad("meld_type: meld " + std::to_string(m) + " has type " + std::to_string(t) +
                ", expected MELD_CHI..MELD_ANKONG");
        if (k < 0 || k >= T::N_KINDS)
            bad("meld_kind: meld " + std::to_string(m) + " has kind " + std::to_string(k) + ", expected 0..33");
        if (t == T::MELD_CHI) {
            if (k >= T::WIND0 || k % 9 > 6)
                bad("meld_kind: chow " + std::to_string(m) + " starts at kind " + std::to_string(k) +
                    ", expected a suited 1-7");
            for (int64_t d = 0; d < 3; ++d) total[k + d] += 1;
        } else {
            total[k] += t <= T::MELD_PON ? 3 : 4;
        }
    }
    for (int64_t k = 0; k < T::N_KINDS; ++k)
        if (total[k] > 4)
            bad("concealed, meld_kind: " + std::to_string(total[k]) + " tiles of kind " + std::to_string(k) +
                " in the hand, expected at most 4");
    check_range(win_tile, -1, T::N_KINDS - 1, "win_tile");
    check_range(win_by, C::WIN_DISCARD, C::WIN_FLOWERS, "win_by");
    if (win_tile >= 0 && win_by != C::WIN_FLOWERS && concealed[win_tile] < 1)
        bad("win_tile: concealed holds no tile of kind " + std::to_string(win_tile) +
            " (it must include the winning tile)");
}

// The seats of one win.
void check_legs(int64_t win_by, int64_t winner, int64_t payer, int64_t liable, int64_t dealer) {
    check_range(win_by, C::WIN_DISCARD, C::WIN_FLOWERS, "win_by");
    check_range(winner, 0, 3, "winner");
    check_range(payer, -1, 3, "payer");
    check_range(liable, -1, 3, "liable");
    check_range(dealer, 0, 3, "dealer");
}
}  // namespace

void bind_hongkong(nb::module_& m, nb::module_& t) {
    t.def(
        "hk_score",
        [](const AnyArray& concealed, const AnyArray& meld_type, const AnyArray& meld_kind, int64_t n_melds,
           int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind, int64_t flags,
           const Rules& rules, const RwArray& out_items) {
            const auto c = view_of<int8_t, 1>(concealed, "concealed", {T::N_KINDS});
            const auto mt = view_of<int8_t, 1>(meld_type, "meld_type");
            const auto mk = view_of<int8_t, 1>(meld_kind, "meld_kind");
            check_hand(c, mt, mk, n_melds, win_tile, win_by);
            check_range(flowers, 0, 255, "flowers");
            check_range(seat_wind, 0, 3, "seat_wind");
            check_range(round_wind, 0, 3, "round_wind");
            const auto out = rw<int32_t, 1>(out_items, "out_items", {C::N_ITEMS});
            nb::gil_scoped_release release;
            return hk_score(c, mt, mk, n_melds, flowers, win_tile, win_by, seat_wind, round_wind, flags, rules.prof,
                            out);
        },
        nb::arg("concealed"), nb::arg("meld_type"), nb::arg("meld_kind"), nb::arg("n_melds"), nb::arg("flowers"),
        nb::arg("win_tile"), nb::arg("win_by"), nb::arg("seat_wind"), nb::arg("round_wind"), nb::arg("flags"),
        nb::arg("rules"), nb::arg("out_items"),
        "Hand tai of a hongkong win under the rules' profile (envs._core.Rules; a hongkong profile) (items into "
        "out_items, int32[N_ITEMS]), or -1 if not a winning hand "
        "(hongkong.hpp).");
    t.def(
        "hk_legs",
        [](int64_t hand_tai, int64_t win_by, int64_t winner, int64_t payer, int64_t liable, int64_t dealer,
           int64_t streak, const Rules& rules, const RwArray& out_leg_tai, const RwArray& out_leg_payer) {
            check_legs(win_by, winner, payer, liable, dealer);
            const auto lt = rw<int64_t, 1>(out_leg_tai, "out_leg_tai", {4});
            const auto lp = rw<int64_t, 1>(out_leg_payer, "out_leg_payer", {4});
            const Legs legs = win_legs(Win{hand_tai, win_by, winner, payer, liable, dealer, streak}, rules.options());
            for (int64_t p = 0; p < 4; ++p) {
                lt[p] = legs.tai[p];
                lp[p] = legs.payer[p];
            }
            return legs.n;
        },
        nb::arg("hand_tai"), nb::arg("win_by"), nb::arg("winner"), nb::arg("payer"), nb::arg("liable"),
        nb::arg("dealer"), nb::arg("streak"), nb::arg("rules"), nb::arg("out_leg_tai"), nb::arg("out_leg_payer"),
        "The legs of one win (HONGKONG.md 5.1; settle.hpp's win_legs under the rules, envs._core.Rules) into "
        "out_leg_tai / "
        "out_leg_payer (int64[4]); returns their number (settle.hpp).");
    t.def(
        "hk_settle",
        [](int64_t hand_tai, int64_t win_by, int64_t winner, int64_t payer, int64_t liable, int64_t dealer,
           int64_t streak, const Rules& rules, const RwArray& out_deltas) {
            check_legs(win_by, winner, payer, liable, dealer);
            const auto d = rw<int64_t, 1>(out_deltas, "out_deltas", {4});
            return settle(Win{hand_tai, win_by, winner, payer, liable, dealer, streak}, rules.options(), d);
        },
        nb::arg("hand_tai"), nb::arg("win_by"), nb::arg("winner"), nb::arg("payer"), nb::arg("liable"),
        nb::arg("dealer"), nb::arg("streak"), nb::arg("rules"), nb::arg("out_deltas"),
        "Add one win's legs, paid in full, to out_deltas (int64[4], chips); returns the legs' count "
        "(settle with liable).");
}

}  // namespace tw16::bind
