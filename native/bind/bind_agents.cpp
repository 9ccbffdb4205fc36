// Bindings of the agents' batch helpers: the efficiency planes (agents.efficiency._kernel) and the
// Greedy / Defensive decisions (agents.greedy.act_kernel), plus the two per-tile measures that
// agents/evaluation/defence_tables.py logs (ukeire, tile_danger). Inputs are the features that
// agents.features.decode reads from planes_v0 observations; every array and every value used as an
// index is checked here (a bad value raises instead of reading out of bounds), then the batch runs
// without the GIL, big batches over threads.
#include <array>
#include <cstdint>
#include <string>

#include "args.hpp"
#include "tw16/agents.hpp"

namespace tw16::bind {
namespace {
namespace A = py::actions;

template <class T, int N>
void check_range(View<T, N> v, const char* name, int64_t lo, int64_t hi) {
    int64_t n = 1;
    for (int d = 0; d < N; ++d) n *= v.shape[d];
    int64_t idx[N] = {};
    for (int64_t flat = 0; flat < n; ++flat) {
        int64_t r = flat, off = 0;
        for (int d = N - 1; d >= 0; --d) {
            idx[d] = r % v.shape[d];
            r /= v.shape[d];
            off += idx[d] * v.stride[d];
        }
        const int64_t x = static_cast<int64_t>(v.data[off]);
        if (x < lo || x > hi) {
            std::string at;
            for (int d = 0; d < N; ++d) at += (d ? ", " : "") + std::to_string(idx[d]);
            bad(std::string(name) + "[" + at + "] = " + std::to_string(x) + " outside " + std::to_string(lo) + ".." +
                std::to_string(hi));
        }
    }
}

void efficiency_kernel(const AnyArray& hand, const AnyArray& n_melds, const AnyArray& unseen,
                       const AnyArray& claim_tile, const RwArray& out) {
    View<int8_t, 2> h = view_of<int8_t, 2>(hand, "hand", {-1, 34});
    const int64_t B = h.shape[0];
    View<int64_t, 1> nm = view_of<int64_t, 1>(n_melds, "n_melds", {B});
    View<int8_t, 2> un = view_of<int8_t, 2>(unseen, "unseen", {B, 34});
    View<int64_t, 1> ct = view_of<int64_t, 1>(claim_tile, "claim_tile", {B});
    View<float, 3> o = view_of<float, 3>(out, "out", {B, efficiency::N_EFFICIENCY, 34});
    nb::gil_scoped_release nogil;
    check_range(h, "hand", 0, 4);
    check_range(nm, "n_melds", 0, py::state::MAX_MELDS);
    check_range(ct, "claim_tile", -1, 33);
    efficiency::planes_kernel(h, nm, un, ct, o);
}

void act_kernel(const AnyArray& hand, const AnyArray& n_melds, const AnyArray& unseen, const AnyArray& opp_melds,
                const AnyArray& opp_ready, const AnyArray& opp_disc, const AnyArray& opp_passed,
                const AnyArray& tiles_left, const AnyArray& claim_tile, const AnyArray& mask, const AnyArray& defence,
                const AnyArray& win_logit, const AnyArray& ready_p, const RwArray& out) {
    View<int8_t, 2> h = view_of<int8_t, 2>(hand, "hand", {-1, 34});
    const int64_t B = h.shape[0];
    View<int64_t, 1> nm = view_of<int64_t, 1>(n_melds, "n_melds", {B});
    View<int8_t, 2> un = view_of<int8_t, 2>(unseen, "unseen", {B, 34});
    View<int64_t, 2> om = view_of<int64_t, 2>(opp_melds, "opp_melds", {B, 3});
    View<bool, 2> orr = view_of<bool, 2>(opp_ready, "opp_ready", {B, 3});
    View<int8_t, 3> od = view_of<int8_t, 3>(opp_disc, "opp_disc", {B, 3, 34});
    View<int8_t, 3> op = view_of<int8_t, 3>(opp_passed, "opp_passed", {B, 3, 34});
    View<int64_t, 1> tl = view_of<int64_t, 1>(tiles_left, "tiles_left", {B});
    View<int64_t, 1> ct = view_of<int64_t, 1>(claim_tile, "claim_tile", {B});
    View<bool, 2> m = view_of<bool, 2>(mask, "mask", {B, A::N_ACTIONS});
    const greedy::Defence df{view_of<double, 1>(defence, "defence", {8}),
                             view_of<double, 2>(win_logit, "win_logit", {5, 3}),
                             view_of<double, 2>(ready_p, "ready_p", {5, 4})};
    View<int64_t, 1> o = view_of<int64_t, 1>(out, "out", {B});
    nb::gil_scoped_release nogil;
    check_range(h, "hand", 0, 4);
    check_range(nm, "n_melds", 0, py::state::MAX_MELDS);
    check_range(om, "opp_melds", 0, INT64_MAX);   // READY_P rows (min(., 4))
    check_range(tl, "tiles_left", 0, INT64_MAX);  // READY_P columns (min(. // 16, 3))
    check_range(ct, "claim_tile", -1, 33);
    greedy::act_kernel(h, nm, un, om, orr, od, op, tl, ct, m, df, o);
}

// One 34-count row (hand or unseen) copied into a buffer the native code may change and restore.
std::array<int8_t, 34> load_row(const AnyArray& a, const char* name) {
    View<int8_t, 1> v = view_of<int8_t, 1>(a, name, {34});
    check_range(v, name, 0, 4);
    std::array<int8_t, 34> row{};
    for (int64_t k = 0; k < 34; ++k) row[static_cast<size_t>(k)] = v[k];
    return row;
}

View<int8_t, 1> row_view(std::array<int8_t, 34>& row) { return View<int8_t, 1>::contiguous(row.data(), {34}); }

int64_t ukeire(const AnyArray& hand, int64_t n_sets, int64_t s, const AnyArray& unseen) {
    std::array<int8_t, 34> h = load_row(hand, "hand"), u = load_row(unseen, "unseen");
    if (n_sets < 0 || n_sets > py::state::MAX_MELDS)
        bad("n_sets = " + std::to_string(n_sets) + " outside 0.." + std::to_string(py::state::MAX_MELDS));
    return efficiency::ukeire(row_view(h), n_sets, s, row_view(u));
}

int64_t tile_danger(int64_t d, const AnyArray& passed_by_threat, const AnyArray& disc_by_threat,
                    const AnyArray& unseen) {
    if (d < 0 || d > 33) bad("d = " + std::to_string(d) + " is not a tile kind (0..33)");
    std::array<int8_t, 34> p = load_row(passed_by_threat, "passed_by_threat"),
                           c = load_row(disc_by_threat, "disc_by_threat"), u = load_row(unseen, "unseen");
    return greedy::hidden_wait_ways(d, row_view(p), row_view(c), row_view(u));
}
}  // namespace

void bind_agents(nb::module_& m) {
    using namespace nb::literals;
    m.def("efficiency_kernel", &efficiency_kernel, "hand"_a, "n_melds"_a, "unseen"_a, "claim_tile"_a, "out"_a,
          "The efficiency planes (agents.efficiency._kernel) into out (B, N_EFFICIENCY, 34) float32: written "
          "where a plane applies, never cleared (pass zeros).");
    m.def("act_kernel", &act_kernel, "hand"_a, "n_melds"_a, "unseen"_a, "opp_melds"_a, "opp_ready"_a, "opp_disc"_a,
          "opp_passed"_a, "tiles_left"_a, "claim_tile"_a, "mask"_a, "defence"_a, "win_logit"_a, "ready_p"_a, "out"_a,
          "Greedy (defence[0] == 0) / Defensive decisions into out (B,) int64; defence, win_logit (5, 3) and "
          "ready_p (5, 4) float64: agents.greedy's DEFENCE_DEFAULTS values, WIN_LOGIT and READY_P.");
    m.def("ukeire", &ukeire, "hand"_a, "n_sets"_a, "s"_a, "unseen"_a,
          "Unseen tiles that would lower the shanten of hand (3n+1 tiles, int8 (34,)) below s "
          "(agents.efficiency.ukeire).");
    m.def("tile_danger", &tile_danger, "d"_a, "passed_by_threat"_a, "disc_by_threat"_a, "unseen"_a,
          "How many ways a hidden hand could wait on tile kind d (agents/greedy.py; int8 (34,) rows).");
    m.attr("EFFICIENCY_FAR") = efficiency::FAR;
    // the efficiency planes' layout (the kernel's; agents/efficiency.py reads it from here)
    m.attr("N_EFFICIENCY") = efficiency::N_EFFICIENCY;
    m.attr("E_UKEIRE") = efficiency::E_UKEIRE;
    m.attr("E_UKEIRE_REL") = efficiency::E_UKEIRE_REL;
    m.attr("E_PON") = efficiency::E_PON;
    m.attr("E_KONG") = efficiency::E_KONG;
    m.attr("E_CHI") = efficiency::E_CHI;
    m.attr("E_SELF_KONG") = efficiency::E_SELF_KONG;
    m.attr("E_UKEIRE_NOW") = efficiency::E_UKEIRE_NOW;
}

}  // namespace tw16::bind
