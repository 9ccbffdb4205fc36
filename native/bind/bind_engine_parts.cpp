// Bindings of the engine's parts (claims, mask, wall, side, ledger, handend's hk_flags): thin wrappers named as the
// Python functions, for the differential test (tests/test_native_engine_parts.py) and Python
// callers. Every array is checked here (dtype, rank, shape) and every value the native code uses
// as an index (seats, tile kinds, meld counts, wall positions); the rules come compiled and checked
// once (envs._core.Rules): bad input is a ValueError / TypeError naming the argument, never an
// out-of-bounds access.
//
// Hands passed as one seat's counts (h) are copied: the native functions add and remove a tile in
// place (restored before they return), so read-only arrays are accepted and never written.
#include <array>
#include <string>
#include <type_traits>

#include "args.hpp"
#include "hold.hpp"
#include "tw16/claims.hpp"
#include "tw16/handend.hpp"
#include "tw16/ledger.hpp"
#include "tw16/mask.hpp"
#include "tw16/parallel.hpp"
#include "tw16/rules.hpp"
#include "tw16/side.hpp"
#include "tw16/state.hpp"
#include "tw16/wall.hpp"

namespace tw16::bind {

namespace {

namespace St = py::state;
namespace R = py::options;

constexpr int64_t NG = St::NG;
constexpr int64_t NP = St::NP;
constexpr int64_t N_ITEMS = py::codes::N_ITEMS;
constexpr int64_t N_ACTIONS = py::actions::N_ACTIONS;
constexpr int64_t MAX_MELDS = St::MAX_MELDS;
constexpr int64_t MAX_RIVER = St::MAX_RIVER;
constexpr int64_t WALL_SIZE = St::WALL_SIZE;

// A read-only input as a (non-const) view: only for arguments the native function does not write.
template <class T, int N>
View<T, N> in(const AnyArray& a, const char* name, std::initializer_list<int64_t> want = {}) {
    return view_of<T, N>(a, name, want);
}

// Counts of one seat: 34 kinds, each 0..4 (the hand analysis' domain).
void check_counts(View<int8_t, 1> h, const std::string& name) {
    for (int64_t k = 0; k < 34; ++k)
        if (h[k] < 0 || h[k] > 4)
            bad(name + ": counts must be 0..4, got " + std::to_string(int(h[k])) + " at kind " + std::to_string(k));
}

// A private copy of one seat's counts (the native functions add/remove a tile in place).
struct Hand34 {
    std::array<int8_t, 34> buf{};
    View<int8_t, 1> v;
    Hand34(const AnyArray& a, const char* name) {
        auto src = view_of<const int8_t, 1>(a, name, {34});
        for (int64_t k = 0; k < 34; ++k) buf[k] = src[k];
        v = View<int8_t, 1>::contiguous(buf.data(), {34});
        check_counts(v, name);
    }
};

void check_batch_index(int64_t b, int64_t B) { check_range(b, 0, B - 1, "b"); }

// The seats' rows of one game: counts 0..4 and meld counts 0..5 (n_sets = 5 - melds).
void check_game_hands(View<int8_t, 2> hands, View<int64_t, 2> p, const std::string& where) {
    for (int64_t s = 0; s < 4; ++s) {
        check_counts(hands[s], where + "hands[" + std::to_string(s) + "]");
        check_range(p(s, St::P_NMELDS), 0, MAX_MELDS, where + "p[" + std::to_string(s) + ", P_NMELDS]");
    }
}

// What mask_rows indexes with for a live game b (see mask.cpp): the seat to decide, its meld
// kinds, the drawn and the 食替-banned kinds.
void check_mask_game(int64_t b, View<int64_t, 1> g, View<int64_t, 2> p, View<int8_t, 2> hands, View<int8_t, 3> melds) {
    const std::string w = "game " + std::to_string(b) + ": ";
    const int64_t ph = g[St::G_PHASE];
    const bool seated = ph == St::PH_TURN || ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0;
    if (!seated) return;  // flower / 拉 decisions and non-decisions read no seat
    check_range(g[St::G_CUR], 0, 3, w + "g[G_CUR]");
    if (ph != St::PH_TURN) return;  // claim phases read the seat's P_CLAIM bits only
    check_game_hands(hands, p, w);
    const int64_t seat = g[St::G_CUR];
    for (int64_t i = 0; i < p(seat, St::P_NMELDS); ++i)
        check_range(melds(seat, i, St::MC_KIND), 0, 33, w + "melds[G_CUR, " + std::to_string(i) + ", 1]");
    check_range(g[St::G_LAST_DRAWN], INT64_MIN, 33, w + "g[G_LAST_DRAWN]");
    check_range(g[St::G_SWAP1], INT64_MIN, 33, w + "g[G_SWAP1]");
    check_range(g[St::G_SWAP2], INT64_MIN, 33, w + "g[G_SWAP2]");
}

// ------------------------------------------------------------------------------------ mask
void b_mask_rows(const RwArray& mask_a, const AnyArray& g_a, const AnyArray& p_a, const RwArray& hands_a,
                 const AnyArray& melds_a, const AnyArray& term_a, const Rules& rules) {
    auto g = in<int64_t, 2>(g_a, "g", {-1, NG});
    const int64_t B = g.shape[0];
    auto mask = rw<bool, 2>(mask_a, "mask", {B, N_ACTIONS});
    auto p = in<int64_t, 3>(p_a, "p", {B, 4, NP});
    auto hands = rw<int8_t, 3>(hands_a, "hands", {B, 4, 34});  // restored in place (wins_with...)
    auto melds = in<int8_t, 4>(melds_a, "melds", {B, 4, MAX_MELDS, 3});
    auto term = in<bool, 1>(term_a, "terminated", {B});
    const Opts opts = rules.options();
    const Cfg cfg = rules.config();
    const auto p_opts = rules.prof.p_opts;
    for (int64_t b = 0; b < B; ++b)
        if (!term[b]) check_mask_game(b, g[b], p[b], hands[b], melds[b]);
    nb::gil_scoped_release nogil;
    parallel_for(B, [&](int64_t b) { mask_rows(mask[b], g[b], p[b], hands[b], melds[b], term[b], opts, cfg, p_opts); });
}

int64_t b_held_all(const AnyArray& h_a, const AnyArray& ms_a, int64_t nm, int64_t k) {
    auto h = in<int8_t, 1>(h_a, "h", {34});
    auto ms = in<int8_t, 2>(ms_a, "ms", {MAX_MELDS, 3});
    check_range(nm, 0, MAX_MELDS, "nm");
    check_range(k, 0, 33, "k");
    return held_all(h, ms, nm, k);
}

bool b_is_concealed(const AnyArray& ms_a, int64_t nm) {
    auto ms = in<int8_t, 2>(ms_a, "ms", {MAX_MELDS, 3});
    check_range(nm, 0, MAX_MELDS, "nm");
    return is_concealed(ms, nm);
}

bool b_is_ready_hand(const AnyArray& h_a, const AnyArray& ms_a, int64_t nm, const Rules& rules) {
    Hand34 h(h_a, "h");
    auto ms = in<int8_t, 2>(ms_a, "ms", {MAX_MELDS, 3});
    check_range(nm, 0, MAX_MELDS, "nm");
    return is_ready_hand(h.v, ms, nm, rules.prof.p_opts);
}

bool b_ready_after_discard(const AnyArray& h_a, const AnyArray& ms_a, int64_t nm, int64_t d, const Rules& rules) {
    Hand34 h(h_a, "h");
    auto ms = in<int8_t, 2>(ms_a, "ms", {MAX_MELDS, 3});
    check_range(nm, 0, MAX_MELDS, "nm");
    check_range(d, 0, 33, "d");
    return ready_after_discard(h.v, ms, nm, d, rules.prof.p_opts);
}

bool b_can_declare_ready(const AnyArray& g_a, const AnyArray& ps_a, const AnyArray& h_a, const AnyArray& ms_a,
                         const Rules& rules, bool claimed) {
    auto g = in<int64_t, 1>(g_a, "g", {NG});
    auto ps = in<int64_t, 1>(ps_a, "ps", {NP});
    Hand34 h(h_a, "h");
    auto ms = in<int8_t, 2>(ms_a, "ms", {MAX_MELDS, 3});
    check_range(ps[St::P_NMELDS], 0, MAX_MELDS, "ps[P_NMELDS]");
    return can_declare_ready(g, ps, h.v, ms, rules.options(), rules.config(), rules.prof.p_opts, claimed);
}

bool b_turn_win_ok(const AnyArray& g_a, const AnyArray& ps_a, const AnyArray& h_a, const Rules& rules) {
    auto g = in<int64_t, 1>(g_a, "g", {NG});
    auto ps = in<int64_t, 1>(ps_a, "ps", {NP});
    Hand34 h(h_a, "h");
    check_range(ps[St::P_NMELDS], 0, MAX_MELDS, "ps[P_NMELDS]");
    return turn_win_ok(g, ps, h.v, rules.options(), rules.prof.p_opts);
}

// ------------------------------------------------------------------------------------ claims
bool b_may_win(const AnyArray& h_a, int64_t t, int64_t shapes) {
    auto h = in<int8_t, 1>(h_a, "h", {34});
    check_range(t, -1, 33, "t");
    return may_win(h, t, shapes);
}

bool b_wins_with(const AnyArray& h_a, int64_t n_melds, int64_t t, const Rules& rules) {
    Hand34 h(h_a, "h");
    check_range(n_melds, 0, MAX_MELDS, "n_melds");
    check_range(t, 0, 33, "t");
    return wins_with(h.v, n_melds, t, rules.prof.p_opts);
}

int64_t b_tiles_left(const AnyArray& g_a, const Rules& rules) {
    return tiles_left(in<int64_t, 1>(g_a, "g", {NG}), rules.options());
}

bool b_kong_allowed(const AnyArray& g_a, const Rules& rules) {
    return kong_allowed(in<int64_t, 1>(g_a, "g", {NG}), rules.options());
}

int64_t b_claim_options(const AnyArray& g_a, const AnyArray& ps_a, const AnyArray& h_a, int64_t s, int64_t d, int64_t t,
                        const Rules& rules) {
    auto g = in<int64_t, 1>(g_a, "g", {NG});
    auto ps = in<int64_t, 1>(ps_a, "ps", {NP});
    Hand34 h(h_a, "h");
    check_range(ps[St::P_NMELDS], 0, MAX_MELDS, "ps[P_NMELDS]");
    check_range(s, 0, 3, "s");
    check_range(d, 0, 3, "d");
    check_range(t, 0, 33, "t");
    return claim_options(g, ps, h.v, s, d, t, rules.options(), rules.prof.p_opts);
}

bool b_chi_has_discard(const AnyArray& h_a, int64_t t, int64_t lo, int64_t used1, int64_t used2, bool swap_ok) {
    // (reads the 34 counts only; the kinds are compared, never used as indices)
    return chi_has_discard(in<int8_t, 1>(h_a, "h", {34}), t, lo, used1, used2, swap_ok);
}

int64_t b_next_asked(const AnyArray& g_a, const AnyArray& p_a, int64_t after) {
    return next_asked(in<int64_t, 1>(g_a, "g", {NG}), in<int64_t, 2>(p_a, "p", {4, NP}), after);
}

bool b_open_claims(const RwArray& g_a, const RwArray& p_a, const RwArray& hands_a, int64_t t, const Rules& rules) {
    auto g = rw<int64_t, 1>(g_a, "g", {NG});
    auto p = rw<int64_t, 2>(p_a, "p", {4, NP});
    auto hands = rw<int8_t, 2>(hands_a, "hands", {4, 34});
    check_game_hands(hands, p, "");
    check_range(t, 0, 33, "t");
    return open_claims(g, p, hands, t, rules.options(), rules.prof.p_opts);
}

bool b_open_rob(const RwArray& g_a, const RwArray& p_a, const RwArray& hands_a, int64_t k, bool ankong,
                const Rules& rules) {
    auto g = rw<int64_t, 1>(g_a, "g", {NG});
    auto p = rw<int64_t, 2>(p_a, "p", {4, NP});
    auto hands = rw<int8_t, 2>(hands_a, "hands", {4, 34});
    check_game_hands(hands, p, "");
    check_range(k, 0, 33, "k");
    return open_rob(g, p, hands, k, ankong, rules.prof.p_opts);
}

void b_clear_claims(const RwArray& p_a) { clear_claims(rw<int64_t, 2>(p_a, "p", {4, NP})); }

// ------------------------------------------------------------------------------------ wall
void check_script_index(const State& s, int64_t b) {
    const int64_t k = s.g(b, St::G_SCRIPT_USED);
    check_range(k, 0, INT64_MAX, "S.g[b, G_SCRIPT_USED]");
}

// A scripted wall about to be dealt from must hold every physical id once (a shuffle does).
void check_script_wall(const State& s, int64_t b) {
    const int64_t k = s.g(b, St::G_SCRIPT_USED);
    if (k >= s.script.shape[1]) return;
    std::array<bool, WALL_SIZE> seen{};
    for (int64_t i = 0; i < WALL_SIZE; ++i) {
        const int64_t t = s.script(b, k, i);
        if (t >= WALL_SIZE || seen[t])
            bad("S.script[" + std::to_string(b) + ", " + std::to_string(k) +
                "]: expected a permutation of the physical tile ids 0..143");
        seen[t] = true;
    }
}

void b_fill_wall(nb::handle S_o, int64_t b, const Rules& rules) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    check_batch_index(b, s.batch());
    check_script_index(s, b);
    fill_wall(s, b, rules.options());
}

// draw_tile reads the wall between head and tail (the dead wall never below 0), and a flower win
// found after the draw is scored from the seats' melds and the river.
bool b_draw_tile(nb::handle S_o, int64_t b, int64_t seat, bool from_tail, int64_t src, const Rules& rules) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    const Opts opts = rules.options();
    check_batch_index(b, s.batch());
    check_range(seat, 0, 3, "seat");
    check_range(s.g(b, St::G_HEAD), 0, WALL_SIZE, "S.g[b, G_HEAD]");
    check_range(s.g(b, St::G_TAIL), -1, WALL_SIZE - 1, "S.g[b, G_TAIL]");
    // (envs._core.Rules checked OPT_DEAD_WALL when built: 0..144)
    if (opts[R::OPT_DEAD_WALL_PER_KONG]) check_range(s.g(b, St::G_NKONG), 0, WALL_SIZE, "S.g[b, G_NKONG]");
    for (int64_t i = 0; i < WALL_SIZE; ++i)
        if (s.wall(b, i) >= WALL_SIZE)
            bad("S.wall[" + std::to_string(b) + ", " + std::to_string(i) + "]: expected a tile id 0..143, got " +
                std::to_string(int(s.wall(b, i))));
    check_range(s.g(b, St::G_DEALER), 0, 3, "S.g[b, G_DEALER]");
    check_range(s.g(b, St::G_NRIVER), 0, MAX_RIVER, "S.g[b, G_NRIVER]");
    check_game_hands(s.hands[b], s.p[b], "S.");
    return draw_tile(s, b, seat, from_tail, src, opts, rules.prof);
}

bool b_deal(nb::handle S_o, int64_t b, const Rules& rules) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    check_batch_index(b, s.batch());
    check_range(s.g(b, St::G_DEALER), 0, 3, "S.g[b, G_DEALER]");
    check_script_index(s, b);
    check_script_wall(s, b);
    return deal(s, b, rules.options(), rules.prof);
}

// ------------------------------------------------------------------------------------ side
// (base_chips' product must not overflow: envs._core.Rules checked OPT_BASE when built)

int64_t b_base_chips(const Rules& rules, int64_t halves) {
    check_range(halves, -(int64_t{1} << 20), int64_t{1} << 20, "halves");
    return base_chips(rules.options(), halves);
}

void b_all_pay(const RwArray& p_a, int64_t seat, int64_t chips) {
    auto p = rw<int64_t, 2>(p_a, "p", {4, NP});
    check_range(seat, 0, 3, "seat");
    all_pay(p, seat, chips);
}

void b_flower_side(const RwArray& p_a, int64_t seat, const Rules& rules) {
    auto p = rw<int64_t, 2>(p_a, "p", {4, NP});
    check_range(seat, 0, 3, "seat");
    flower_side(p, seat, rules.options());
}

void b_roll_dice(nb::handle S_o, int64_t b, const Rules& rules) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    check_batch_index(b, s.batch());
    check_range(s.g(b, St::G_DEALER), 0, 3, "S.g[b, G_DEALER]");
    roll_dice(s, b, rules.options());
}

void b_chase_side(nb::handle S_o, int64_t b, const Rules& rules) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    check_batch_index(b, s.batch());
    // (the payer is a river seat equal to (seat - j) % 4, so always 0..3)
    check_range(s.g(b, St::G_NRIVER), 0, MAX_RIVER, "S.g[b, G_NRIVER]");
    chase_side(s, b, rules.options());
}

// ------------------------------------------------------------------------------------ ledger
View<double, 2> la_of(const RwArray& a) { return rw<double, 2>(a, "la", {4, 4}); }
View<int32_t, 2> lak_of(const RwArray& a) { return rw<int32_t, 2>(a, "la_k", {4, 4}); }
View<int64_t, 1> paid_of(const RwArray& a) { return rw<int64_t, 1>(a, "paid", {4}); }

void b_pay_rounded(const RwArray& paid_a, int64_t d, int64_t c, double amount) {
    auto paid = paid_of(paid_a);
    check_range(d, 0, 3, "d");
    check_range(c, 0, 3, "c");
    pay_rounded(paid, d, c, amount);
}

void b_la_close(const RwArray& la_a, const RwArray& lak_a, int64_t d, int64_t c, const RwArray& paid_a) {
    auto la = la_of(la_a);
    auto la_k = lak_of(lak_a);
    auto paid = paid_of(paid_a);
    check_range(d, 0, 3, "d");
    check_range(c, 0, 3, "c");
    la_close(la, la_k, d, c, paid);
}

void b_la_close_all(const RwArray& la_a, const RwArray& lak_a, const RwArray& paid_a) {
    la_close_all(la_of(la_a), lak_of(lak_a), paid_of(paid_a));
}

bool b_la_pair(const RwArray& la_a, const RwArray& lak_a, int64_t x, int64_t y, int64_t v, const RwArray& paid_a) {
    auto la = la_of(la_a);
    auto la_k = lak_of(lak_a);
    auto paid = paid_of(paid_a);
    check_range(x, 0, 3, "x");
    check_range(y, 0, 3, "y");
    check_range(v, -INT64_MAX, INT64_MAX, "v");  // (-v must exist)
    return la_pair(la, la_k, x, y, v, paid);
}

int64_t b_la_hand(const RwArray& la_a, const RwArray& lak_a, const AnyArray& legs_a, int64_t cut_every, int64_t ask,
                  const RwArray& paid_a) {
    auto la = la_of(la_a);
    auto la_k = lak_of(lak_a);
    auto legs = in<int64_t, 2>(legs_a, "legs", {4, 4});
    auto paid = paid_of(paid_a);
    // legs[x, y] - legs[y, x] must not overflow (chips: far below 2**62)
    for (int64_t x = 0; x < 4; ++x)
        for (int64_t y = 0; y < 4; ++y)
            check_range(legs(x, y), -(int64_t{1} << 62), int64_t{1} << 62,
                        "legs[" + std::to_string(x) + ", " + std::to_string(y) + "]");
    return la_hand(la, la_k, legs, cut_every, ask, paid);
}

// ----------------------------------------------------------------------------------- handend
int64_t b_hk_flags(nb::handle S_o, int64_t b, int64_t w, int64_t win_by) {
    State s = state_of(S_o, "S");
    const Hold hold(s);  // (hold.hpp: until the call returns)
    check_batch_index(b, s.batch());
    check_range(w, 0, 3, "w");
    check_range(s.g(b, St::G_NRIVER), 0, MAX_RIVER, "S.g[b, G_NRIVER]");
    return hk_flags(s, b, w, win_by);
}

}  // namespace

// Every engine part is bound through held(): the call holds the memory of its array arguments (the
// rows of a state it reads or writes: hold.hpp) from its checks to its end.
template <class Arr>
void hold_arg(Hold& h, const Arr& a) {
    if constexpr (std::is_same_v<Arr, AnyArray> || std::is_same_v<Arr, RwArray>) h.add_array(a);
}
template <class R, class... Args>
auto held(R (*f)(Args...)) {
    return [f](Args... args) -> R {
        Hold h;
        (hold_arg(h, args), ...);
        h.acquire();
        return f(args...);
    };
}

void bind_engine_parts(nb::module_& m, nb::module_& t) {
    using nb::arg;
    // mask.py
    m.def("mask_rows", held(&b_mask_rows), arg("mask"), arg("g"), arg("p"), arg("hands"), arg("melds"),
          arg("terminated"), arg("rules"),
          "mask.mask_rows for every game of a batch: the legal actions of each game's seat to decide into "
          "mask (B, 76) under the rules (envs._core.Rules). Arrays as in envs.engine.state.State.");
    t.def("held_all", held(&b_held_all), arg("h"), arg("ms"), arg("nm"), arg("k"));
    t.def("is_concealed", held(&b_is_concealed), arg("ms"), arg("nm"));
    t.def("is_ready_hand", held(&b_is_ready_hand), arg("h"), arg("ms"), arg("nm"), arg("rules"));
    t.def("ready_after_discard", held(&b_ready_after_discard), arg("h"), arg("ms"), arg("nm"), arg("d"), arg("rules"));
    t.def("can_declare_ready", held(&b_can_declare_ready), arg("g"), arg("ps"), arg("h"), arg("ms"), arg("rules"),
          arg("claimed") = false);
    t.def("turn_win_ok", held(&b_turn_win_ok), arg("g"), arg("ps"), arg("h"), arg("rules"));
    // claims.py
    t.def("may_win", held(&b_may_win), arg("h"), arg("t"), arg("shapes"));
    t.def("wins_with", held(&b_wins_with), arg("h"), arg("n_melds"), arg("t"), arg("rules"));
    m.def("tiles_left", held(&b_tiles_left), arg("g"), arg("rules"),
          "claims.tiles_left: the tiles still drawable in the game g (one game's row) under the rules "
          "(envs._core.Rules).");
    t.def("kong_allowed", held(&b_kong_allowed), arg("g"), arg("rules"));
    m.def("claim_options", held(&b_claim_options), arg("g"), arg("ps"), arg("h"), arg("s"), arg("d"), arg("t"),
          arg("rules"),
          "claims.claim_options: the claim bits (P_CLAIM) of seat s on the tile t discarded by seat d under the "
          "rules (envs._core.Rules).");
    t.def("chi_has_discard", held(&b_chi_has_discard), arg("h"), arg("t"), arg("lo"), arg("used1"), arg("used2"),
          arg("swap_ok"));
    t.def("next_asked", held(&b_next_asked), arg("g"), arg("p"), arg("after"));
    t.def("open_claims", held(&b_open_claims), arg("g"), arg("p"), arg("hands"), arg("t"), arg("rules"));
    t.def("open_rob", held(&b_open_rob), arg("g"), arg("p"), arg("hands"), arg("k"), arg("ankong"), arg("rules"));
    t.def("clear_claims", held(&b_clear_claims), arg("p"));
    // wall.py (S: envs.engine.state.State; rules: envs._core.Rules)
    t.def("fill_wall", held(&b_fill_wall), arg("S"), arg("b"), arg("rules"));
    t.def("draw_tile", held(&b_draw_tile), arg("S"), arg("b"), arg("seat"), arg("from_tail"), arg("src"), arg("rules"));
    t.def("deal", held(&b_deal), arg("S"), arg("b"), arg("rules"));
    // side.py
    t.def("base_chips", held(&b_base_chips), arg("rules"), arg("halves"));
    t.def("all_pay", held(&b_all_pay), arg("p"), arg("seat"), arg("chips"));
    t.def("flower_side", held(&b_flower_side), arg("p"), arg("seat"), arg("rules"));
    t.def("roll_dice", held(&b_roll_dice), arg("S"), arg("b"), arg("rules"));
    t.def("chase_side", held(&b_chase_side), arg("S"), arg("b"), arg("rules"));
    // ledger.py
    t.def("pay_rounded", held(&b_pay_rounded), arg("paid"), arg("d"), arg("c"), arg("amount"));
    t.def("la_close", held(&b_la_close), arg("la"), arg("la_k"), arg("d"), arg("c"), arg("paid"));
    t.def("la_close_all", held(&b_la_close_all), arg("la"), arg("la_k"), arg("paid"));
    t.def("la_pair", held(&b_la_pair), arg("la"), arg("la_k"), arg("x"), arg("y"), arg("v"), arg("paid"));
    t.def("la_hand", held(&b_la_hand), arg("la"), arg("la_k"), arg("legs"), arg("cut_every"), arg("ask"), arg("paid"));
    // handend.py
    t.def("hk_flags", held(&b_hk_flags), arg("S"), arg("b"), arg("w"), arg("win_by"),
          "handend.hk_flags: the hongkong context flags (HONGKONG.md 6) of seat w winning game b by win_by.");
}

}  // namespace tw16::bind
