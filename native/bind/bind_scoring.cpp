// Bindings of the scoring concept (score.hpp) and of the settlement (settle.hpp): score_hand, settle,
// dealer_tai, winning_shape (score.hpp, settle.hpp), plus score_batch / settle_batch over many hands
// and the bench loop score_all (tw16/bench/scoring.py _score_all), all under the rules compiled once
// (envs._core.Rules, tw16/rules.hpp). Every array and every scalar whose range
// matters is checked here; inside the core, inputs are trusted.
#include <nanobind/stl/optional.h>

#include <algorithm>
#include <optional>
#include <string>

#include "args.hpp"
#include "tw16/constants.hpp"
#include "tw16/meld.hpp"
#include "tw16/parallel.hpp"
#include "tw16/rules.hpp"
#include "tw16/score.hpp"
#include "tw16/settle.hpp"
#include "tw16/state.hpp"

namespace tw16::bind {

namespace {
namespace C = py::codes;
using py::tiles::MELD_ANKONG;
using py::tiles::MELD_CHI;
using py::tiles::N_KINDS;
using py::tiles::WIND0;

// The name of row i of a batch argument, for messages: "win_by[3]".
std::string at(const char* name, int64_t i, bool batch) {
    return batch ? std::string(name) + "[" + std::to_string(i) + "]" : std::string(name);
}

// x in lo..hi, else a ValueError naming the argument (row i of a batch when `batch`).
void check_row(int64_t x, int64_t lo, int64_t hi, const char* name, int64_t i, bool batch, const char* what = "") {
    if (x < lo || x > hi) check_range(x, lo, hi, at(name, i, batch), what);
}

// One hand's arguments of score_hand (row i of a batch when `batch`).
void check_hand(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind, int64_t i,
                bool batch) {
    for (int64_t k = 0; k < N_KINDS; ++k)
        if (concealed[k] < 0 || concealed[k] > 4)
            bad(at("concealed", i, batch) + ": count of kind " + std::to_string(k) + " is " +
                std::to_string(concealed[k]) + ", expected 0..4");
    check_row(n_melds, 0, 5, "n_melds", i, batch);
    if (n_melds > meld_type.shape[0] || n_melds > meld_kind.shape[0])
        bad(at("n_melds", i, batch) + ": " + std::to_string(n_melds) + " melds but meld_type/meld_kind hold " +
            std::to_string(std::min(meld_type.shape[0], meld_kind.shape[0])));
    int64_t total[N_KINDS];
    for (int64_t k = 0; k < N_KINDS; ++k) total[k] = concealed[k];
    for (int64_t m = 0; m < n_melds; ++m) {
        const int64_t t = meld_type[m], k = meld_kind[m];
        if (t < MELD_CHI || t > MELD_ANKONG)
            bad(at("meld_type", i, batch) + ": meld " + std::to_string(m) + " has type " + std::to_string(t) +
                ", expected MELD_CHI/MELD_PON/MELD_KONG/MELD_ADDKONG/MELD_ANKONG (0..4)");
        if (k < 0 || k >= N_KINDS)
            bad(at("meld_kind", i, batch) + ": meld " + std::to_string(m) + " has kind " + std::to_string(k) +
                ", expected a tile kind 0.." + std::to_string(N_KINDS - 1));
        if (t == MELD_CHI && (k >= WIND0 || k % 9 > 6))
            bad(at("meld_kind", i, batch) + ": meld " + std::to_string(m) + " is a chi starting on kind " +
                std::to_string(k) + ", expected a suited kind with number 1..7");
        add_meld_tiles(total, t, k);
    }
    // A fifth copy cannot be: the hongkong scorer (hk_score, reached through score_hand) relies on it.
    for (int64_t k = 0; k < N_KINDS; ++k)
        if (total[k] > 4)
            bad(at("concealed", i, batch) + ", meld_kind: " + std::to_string(total[k]) + " tiles of kind " +
                std::to_string(k) + " in the hand and its melds, expected at most 4");
    check_row(flowers, 0, (int64_t{1} << py::tiles::N_FLOWER_KINDS) - 1, "flowers", i, batch,
              " (a bit mask of the 8 flowers)");
    check_row(win_tile, -1, N_KINDS - 1, "win_tile", i, batch, " (a tile kind, or -1)");
    check_row(win_by, C::WIN_DISCARD, C::WIN_FLOWERS, "win_by", i, batch, " (WIN_*)");
    check_row(seat_wind, 0, 3, "seat_wind", i, batch);
    check_row(round_wind, 0, 3, "round_wind", i, batch);
    // The concealed tiles include the winning tile: the wait is judged on them less that tile.
    if (win_tile >= 0 && win_by != C::WIN_FLOWERS && concealed[win_tile] == 0)
        bad(at("win_tile", i, batch) + ": kind " + std::to_string(win_tile) +
            " is not among the concealed tiles (they include the winning tile)");
}

void check_settle(int64_t win_by, int64_t winner, int64_t payer, int64_t dealer, int64_t i, bool batch) {
    check_row(win_by, C::WIN_DISCARD, C::WIN_FLOWERS, "win_by", i, batch, " (WIN_*)");
    check_row(winner, 0, 3, "winner", i, batch);
    check_row(payer, -1, 3, "payer", i, batch, " (-1: all three pay)");
    check_row(dealer, 0, 3, "dealer", i, batch);
}

int64_t score_hand_b(const AnyArray& concealed_a, const AnyArray& meld_type_a, const AnyArray& meld_kind_a,
                     int64_t n_melds, int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind,
                     int64_t round_wind, int64_t flags, const Rules& rules, const RwArray& out_items_a) {
    const auto concealed = view_of<int8_t, 1>(concealed_a, "concealed", {N_KINDS});
    const auto meld_type = view_of<int8_t, 1>(meld_type_a, "meld_type");
    const auto meld_kind = view_of<int8_t, 1>(meld_kind_a, "meld_kind");
    const auto out_items = rw<int32_t, 1>(out_items_a, "out_items", {C::N_ITEMS});
    check_hand(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind, 0, false);
    return score_hand(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind, flags,
                      rules.prof, out_items);
}

int64_t settle_b(int64_t hand_tai, int64_t win_by, int64_t winner, int64_t payer, int64_t dealer, int64_t streak,
                 const Rules& rules, const RwArray& out_deltas, int64_t liable,
                 const std::optional<RwArray>& out_dealer_tai) {
    check_settle(win_by, winner, payer, dealer, 0, false);
    check_row(liable, -1, 3, "liable", 0, false, " (-1: none)");
    const Opts o = rules.options();
    const auto deltas = rw<int64_t, 1>(out_deltas, "out_deltas", {4});
    if (!out_dealer_tai) return settle(Win{hand_tai, win_by, winner, payer, liable, dealer, streak}, o, deltas);
    auto dt = rw<int64_t, 1>(*out_dealer_tai, "out_dealer_tai", {4});
    return settle(Win{hand_tai, win_by, winner, payer, liable, dealer, streak}, o, deltas, &dt);
}

bool winning_shape_b(const AnyArray& counts_a, int64_t n_sets, const Rules& rules) {
    const auto counts = view_of<int8_t, 1>(counts_a, "counts", {N_KINDS});
    check_row(n_sets, 0, 5, "n_sets", 0, false);
    return winning_shape(counts, n_sets, rules.prof.p_opts);
}

void score_batch_b(const AnyArray& concealed, const AnyArray& meld_type, const AnyArray& meld_kind,
                   const AnyArray& n_melds, const AnyArray& flowers, const AnyArray& win_tile, const AnyArray& win_by,
                   const AnyArray& seat_wind, const AnyArray& round_wind, const AnyArray& flags, const Rules& rules,
                   const RwArray& out_tai_a, const RwArray& out_items_a) {
    HandBatch h;
    h.concealed = view_of<int8_t, 2>(concealed, "concealed", {-1, N_KINDS});
    const int64_t n = h.size();
    h.meld_type = view_of<int8_t, 2>(meld_type, "meld_type", {n, -1});
    h.meld_kind = view_of<int8_t, 2>(meld_kind, "meld_kind", {n, -1});
    h.n_melds = view_of<int64_t, 1>(n_melds, "n_melds", {n});
    h.flowers = view_of<int64_t, 1>(flowers, "flowers", {n});
    h.win_tile = view_of<int64_t, 1>(win_tile, "win_tile", {n});
    h.win_by = view_of<int64_t, 1>(win_by, "win_by", {n});
    h.seat_wind = view_of<int64_t, 1>(seat_wind, "seat_wind", {n});
    h.round_wind = view_of<int64_t, 1>(round_wind, "round_wind", {n});
    h.flags = view_of<int64_t, 1>(flags, "flags", {n});
    const auto out_tai = rw<int64_t, 1>(out_tai_a, "out_tai", {n});
    const auto out_items = rw<int32_t, 2>(out_items_a, "out_items", {n, C::N_ITEMS});
    for (int64_t i = 0; i < n; ++i)
        check_hand(h.concealed[i], h.meld_type[i], h.meld_kind[i], h.n_melds[i], h.flowers[i], h.win_tile[i],
                   h.win_by[i], h.seat_wind[i], h.round_wind[i], i, true);
    nb::gil_scoped_release release;
    score_batch(h, rules.prof, out_tai, out_items);
}

void settle_batch_b(const AnyArray& hand_tai_a, const AnyArray& win_by_a, const AnyArray& winner_a,
                    const AnyArray& payer_a, const AnyArray& liable_a, const AnyArray& dealer_a,
                    const AnyArray& streak_a, const Rules& rules, const RwArray& out_deltas_a) {
    const auto hand_tai = view_of<int64_t, 1>(hand_tai_a, "hand_tai");
    const int64_t n = hand_tai.shape[0];
    const auto win_by = view_of<int64_t, 1>(win_by_a, "win_by", {n});
    const auto winner = view_of<int64_t, 1>(winner_a, "winner", {n});
    const auto payer = view_of<int64_t, 1>(payer_a, "payer", {n});
    const auto liable = view_of<int64_t, 1>(liable_a, "liable", {n});
    const auto dealer = view_of<int64_t, 1>(dealer_a, "dealer", {n});
    const auto streak = view_of<int64_t, 1>(streak_a, "streak", {n});
    const Opts o = rules.options();
    const auto out_deltas = rw<int64_t, 2>(out_deltas_a, "out_deltas", {n, 4});
    for (int64_t i = 0; i < n; ++i) {
        check_settle(win_by[i], winner[i], payer[i], dealer[i], i, true);
        check_row(liable[i], -1, 3, "liable", i, true, " (-1: none)");
    }
    nb::gil_scoped_release release;
    settle_batch(hand_tai, win_by, winner, payer, liable, dealer, streak, o, out_deltas);
}

int64_t score_all_b(const AnyArray& conc_a, const AnyArray& mt_a, const AnyArray& mk_a, const AnyArray& nm_a,
                    const AnyArray& ctx_a, const Rules& rules, int64_t reps) {
    const auto conc = view_of<int8_t, 2>(conc_a, "conc", {-1, N_KINDS});
    const int64_t n = conc.shape[0];
    const auto mt = view_of<int8_t, 2>(mt_a, "mt", {n, -1});
    const auto mk = view_of<int8_t, 2>(mk_a, "mk", {n, -1});
    const auto nm = view_of<int64_t, 1>(nm_a, "nm", {n});
    const auto ctx = view_of<int64_t, 2>(ctx_a, "ctx", {n, 5});
    if (reps < 0) bad("reps: expected >= 0, got " + std::to_string(reps));
    for (int64_t i = 0; i < n; ++i)  // ctx columns: win_tile, win_by, seat, round, flowers
        check_hand(conc[i], mt[i], mk[i], nm[i], ctx(i, 4), ctx(i, 0), ctx(i, 1), ctx(i, 2), ctx(i, 3), i, true);
    nb::gil_scoped_release release;
    return bench_score_all(conc, mt, mk, nm, ctx, rules.prof, rules.options(), reps);
}
}  // namespace

void bind_scoring(nb::module_& m, nb::module_& t) {
    using nb::arg;
    m.def("score_hand", &score_hand_b, arg("concealed"), arg("meld_type"), arg("meld_kind"), arg("n_melds"),
          arg("flowers"), arg("win_tile"), arg("win_by"), arg("seat_wind"), arg("round_wind"), arg("flags"),
          arg("rules"), arg("out_items"),
          "score_hand: hand tai of a win under the rules' profile (envs._core.Rules; items into out_items), or -1 "
          "if not a winning hand.");
    m.def("settle", &settle_b, arg("hand_tai"), arg("win_by"), arg("winner"), arg("payer"), arg("dealer"),
          arg("streak"), arg("rules"), arg("out_deltas"), arg("liable") = -1, arg("out_dealer_tai").none() = nb::none(),
          "settle: add one win's legs, paid in full under the rules (envs._core.Rules), to out_deltas "
          "(int64[4]); out_dealer_tai (int64[4]) gets the dealer tai on each seat's paid leg. Returns the "
          "number of legs. The engine's settlement (settle.hpp).");
    m.def(
        "dealer_tai", [](int64_t streak, const Rules& rules) { return dealer_tai(streak, rules.options()); },
        arg("streak"), arg("rules"), "dealer_tai: 1 + 2N, N the streak capped by the rules' streak_cap.");
    t.def("winning_shape", &winning_shape_b, arg("counts"), arg("n_sets"), arg("rules"),
          "winning_shape: is counts a winning hand under the shapes of the rules' profile?");
    t.def("score_batch", &score_batch_b, arg("concealed"), arg("meld_type"), arg("meld_kind"), arg("n_melds"),
          arg("flowers"), arg("win_tile"), arg("win_by"), arg("seat_wind"), arg("round_wind"), arg("flags"),
          arg("rules"), arg("out_tai"), arg("out_items"),
          "score_hand of row i of every array (concealed (n,34) int8, meld_type/meld_kind (n,M) int8, the rest "
          "(n,) int64) into out_tai[i] (int64) and out_items[i] (int32[N_ITEMS]); threads for big batches.");
    t.def("settle_batch", &settle_batch_b, arg("hand_tai"), arg("win_by"), arg("winner"), arg("payer"), arg("liable"),
          arg("dealer"), arg("streak"), arg("rules"), arg("out_deltas"),
          "settle of win i (with liable: hongkong 全包) into out_deltas[i] ((n,4) int64, added to); a "
          "hand_tai < 0 pays nothing.");
    m.def("score_all", &score_all_b, arg("conc"), arg("mt"), arg("mk"), arg("nm"), arg("ctx"), arg("rules"),
          arg("reps"),
          "tw16.bench.scoring._score_all: score and settle every hand reps times on one thread under the rules "
          "(envs._core.Rules); the sum of hand tai.");
}

}  // namespace tw16::bind
