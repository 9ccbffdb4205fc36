// Bindings of search at decision time (tw16/resample.hpp): copy_game, resample_hidden and the search
// agent's batch decision search_batch. The state is envs.engine.state.State (state_of, as for the
// engine); a game to resample or search must be live, pass the invariant checker (check_game) and the
// step's own checks (game_ok) and have the seat as its current player: else ValueError naming it.
#include <nanobind/ndarray.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "hold.hpp"
#include "state_checks.hpp"
#include "tw16/constants.hpp"
#include "tw16/invariants.hpp"
#include "tw16/parallel.hpp"
#include "tw16/resample.hpp"

namespace tw16::bind {

namespace {
namespace St = py::state;
namespace A = py::actions;
namespace RP = py::randplay;
namespace T = py::tiles;
using state_checks::str;

void check_index(int64_t v, int64_t n, const char* what) {
    if (v < 0 || v >= n) bad(std::string(what) + " = " + str(v) + " is not in 0.." + str(n - 1));
}

// Game b is a live decision of the engine's own making, with `seat` (-1: any) to decide.
void check_decision(const State& S, int64_t b, int64_t seat, Opts opts, const char* what) {
    check_index(b, S.batch(), what);
    const std::string w = "state: game " + str(b) + ": ";
    if (S.terminated[b]) bad(w + "the episode is over (nothing to decide)");
    check_game_bounds(S, b);
    const int64_t e = check_game(S, b, opts);
    if (e != py::invariants::E_OK) bad(w + "the invariant checker fails (E_* code " + str(e) + ")");
    int64_t a = 0;
    while (a < A::N_ACTIONS && !S.mask(b, a)) ++a;
    std::string why;
    if (!game_ok<true>(S, b, a, opts, &why)) bad(w + why);
    // The river's seats and kinds index per-seat and per-kind arrays (discard_log_weight): neither the
    // invariant checker nor the step reads every entry's seat, so they are checked here.
    for (int64_t i = 0; i < S.g(b, St::G_NRIVER); ++i) {
        const int64_t rs = S.river(b, i, St::RV_SEAT), rk = S.river(b, i, St::RV_KIND);
        if (rs < 0 || rs > 3 || rk < 0 || rk >= py::tiles::N_KINDS)
            bad(w + "river[" + str(i) + "] = (kind " + str(rk) + ", seat " + str(rs) +
                "): expected a kind 0..33 and a seat 0..3");
    }
    if (seat >= 0 && S.g(b, St::G_CUR) != seat)
        bad("seat = " + str(seat) + " is not the seat to decide in game " + str(b) + " (" + str(S.g(b, St::G_CUR)) +
            "): resample at the seat's own decision");
}

bool step_ok(const State& S, int64_t b, int64_t a, Opts opts) { return game_ok<false>(S, b, a, opts, nullptr); }

// The bytes an array's view spans (its elements between the lowest and the highest address).
template <class T, int N>
std::pair<const char*, const char*> extent(const View<T, N>& v) {
    const char* p = reinterpret_cast<const char*>(v.data);
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < N; ++d) {
        if (v.shape[d] == 0) return {p, p};
        (v.stride[d] < 0 ? lo : hi) += (v.shape[d] - 1) * v.stride[d];
    }
    return {p + lo * static_cast<int64_t>(sizeof(T)), p + (hi + 1) * static_cast<int64_t>(sizeof(T))};
}

// Whether any array of a shares memory with any array of b: leaves written while the searched state
// is read by other threads would tear the games being searched.
bool overlaps(const State& a, const State& b) {
    std::vector<std::pair<const char*, const char*>> ea, eb;
#define TW16_EXTENT(name_, type_, rank_, shape_, fill_, writable_) \
    ea.push_back(extent(a.name_));                                 \
    eb.push_back(extent(b.name_));
    TW16_STATE_FIELDS(TW16_EXTENT)
#undef TW16_EXTENT
    for (const auto& x : ea)
        for (const auto& y : eb)
            if (x.first < y.second && y.first < x.second) return true;
    return false;
}

// search_batch's and search_leaves_batch's common arguments, checked: the games (distinct live
// decisions), their seeds, the configuration, Defensive's parameters and the given candidates.
struct SearchArgs {
    View<const int64_t, 1> games;
    View<const uint64_t, 1> seeds;
    greedy::Defence defence{};
    SearchCfg sc;
    std::vector<int64_t> given;    // (G, n) the given candidates, empty when none
    std::vector<int64_t> n_given;  // (G,) how many per row
    std::vector<double> hand_q;    // (G, 3, 34) the hand model's weights, empty when none
    int64_t G = 0;
    // game i's configuration: sc, pointed at its row of the hand model
    SearchCfg cfg_of(int64_t i) const {
        SearchCfg c = sc;
        c.hand_q = hand_q.empty() ? nullptr : hand_q.data() + i * 3 * T::N_KINDS;
        return c;
    }
};

// A hand model's weights (n, 3, 34): finite and nonnegative, copied.
std::vector<double> parse_hand_q(const nb::object& o, int64_t n) {
    std::vector<double> out;
    if (o.is_none()) return out;
    const auto q = ro<double, 3>(any_array(o, "hand_q"), "hand_q", {n, 3, T::N_KINDS});
    out.resize(static_cast<size_t>(n * 3 * T::N_KINDS));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t o2 = 0; o2 < 3; ++o2)
            for (int64_t k = 0; k < T::N_KINDS; ++k) {
                const double v = q(i, o2, k);
                if (!(v >= 0.0 && v <= 1e300))
                    bad("hand_q[" + str(i) + ", " + str(o2) + ", " + str(k) + "] = " + std::to_string(v) +
                        ": expected a finite weight >= 0");
                out[static_cast<size_t>((i * 3 + o2) * T::N_KINDS + k)] = v;
            }
    return out;
}

void parse_search(SearchArgs& a, const State& S, Opts opts, const AnyArray& games_a, const AnyArray& seeds_a, int64_t k,
                  int64_t n, int64_t policy, double z, const nb::object& candidates_o, const nb::object& defence_o,
                  bool base_defensive, double weight, double ms, bool oracle, const nb::object& hand_q_o) {
    a.games = ro<int64_t, 1>(games_a, "games", {-1});
    const int64_t G = a.G = a.games.shape[0];
    const auto& games = a.games;
    a.seeds = ro<uint64_t, 1>(seeds_a, "seeds", {G});
    if (k < 1 || k > (int64_t{1} << 20)) bad("k = " + str(k) + ", expected 1..2**20 determinizations");
    if (n < 1 || n > A::N_ACTIONS) bad("n = " + str(n) + ", expected 1..76 candidate actions");
    if (policy != RP::POLICY_UNIFORM && policy != RP::POLICY_GREEDY && policy != ROLLOUT_EFFICIENT &&
        policy != ROLLOUT_BASE && policy != ROLLOUT_DEFENSIVE)
        bad("policy: expected POLICY_UNIFORM (0), POLICY_GREEDY (1), ROLLOUT_EFFICIENT (2), ROLLOUT_BASE (3) "
            "or ROLLOUT_DEFENSIVE (4), got " +
            str(policy));
    if (!(weight >= 0.0 && weight <= 1e3)) bad("weight = " + std::to_string(weight) + ", expected 0..1000");
    if (!(ms >= 0.0 && ms <= 1e7)) bad("ms = " + std::to_string(ms) + ", expected 0..1e7 milliseconds");
    const bool needs_defence = policy == ROLLOUT_DEFENSIVE || base_defensive;
    if (needs_defence != !defence_o.is_none())
        bad(needs_defence ? "defence: Defensive's (params, win_logit, ready_p) are needed by "
                            "ROLLOUT_DEFENSIVE and base_defensive"
                          : "defence: given, but neither ROLLOUT_DEFENSIVE nor base_defensive reads it");
    if (base_defensive && !candidates_o.is_none())
        bad("candidates: given with base_defensive (the base is one or the other)");
    if (needs_defence) {
        if (!nb::isinstance<nb::tuple>(defence_o) || nb::len(defence_o) != 3)
            bad("defence: expected a tuple (params (8,), win_logit (5, 3), ready_p (5, 4))");
        const nb::tuple t = nb::borrow<nb::tuple>(defence_o);
        a.defence = {view_of<double, 1>(any_array(t[0], "defence[0]"), "defence[0] (params)", {8}),
                     view_of<double, 2>(any_array(t[1], "defence[1]"), "defence[1] (win_logit)", {5, 3}),
                     view_of<double, 2>(any_array(t[2], "defence[2]"), "defence[2] (ready_p)", {5, 4})};
        if (!(a.defence.params[0] > 0.0)) bad("defence[0][0] (risk) must be > 0 (risk 0 is Greedy)");
    }
    for (int64_t i = 0; i < G; ++i) {
        check_decision(S, games[i], -1, opts, ("games[" + str(i) + "]").c_str());
        for (int64_t j = 0; j < i; ++j)
            if (games[j] == games[i]) bad("games: game " + str(games[i]) + " is listed twice");
    }
    if (!(z >= 0.0 && z <= 1e6)) bad("z = " + std::to_string(z) + ", expected 0..1e6 standard errors");
    // given candidates (G, n): per row distinct legal actions best first, then -1s
    a.n_given.assign(static_cast<size_t>(G), 0);
    if (!candidates_o.is_none()) {
        const auto cand = ro<int64_t, 2>(any_array(candidates_o, "candidates"), "candidates", {G, n});
        a.given.resize(static_cast<size_t>(G * n));
        for (int64_t i = 0; i < G; ++i) {
            int64_t& ng = a.n_given[static_cast<size_t>(i)];
            for (int64_t j = 0; j < n; ++j) {
                const int64_t c = cand(i, j);
                const std::string w = "candidates[" + str(i) + ", " + str(j) + "] = " + str(c);
                if (c < 0) {
                    if (c != -1) bad(w + ": expected an action 0..75, or -1 after the last candidate");
                    continue;
                }
                if (j != ng) bad(w + ": a candidate after a -1 (the -1s pad the end of a row)");
                if (c >= A::N_ACTIONS) bad(w + ": expected an action 0..75");
                if (!S.mask(games[i], c)) bad(w + ": not legal in game " + str(games[i]));
                for (int64_t q = 0; q < ng; ++q)
                    if (a.given[static_cast<size_t>(i * n + q)] == c) bad(w + ": listed twice");
                a.given[static_cast<size_t>(i * n + ng++)] = c;
            }
            if (ng == 0) bad("candidates[" + str(i) + "]: no candidate (the first must be an action)");
        }
    }
    a.sc.z = z;
    a.sc.k = k;
    a.sc.n = n;
    a.sc.policy = policy;
    a.sc.defence = needs_defence ? &a.defence : nullptr;
    a.sc.base_defensive = base_defensive;
    a.sc.weight = weight;
    a.sc.ms = ms;
    a.sc.oracle = oracle;
    a.hand_q = parse_hand_q(hand_q_o, G);
    if (oracle && !a.hand_q.empty()) bad("hand_q: given with oracle (the oracle deals nothing: the hands are known)");
}
}  // namespace

void bind_search(nb::module_& m) {
    m.def(
        "copy_game",
        [](nb::handle src, int64_t b, nb::handle dst, int64_t c) {
            const State S = state_of(src, "src");
            const State D = state_of(dst, "dst");
            const Hold hold(S, D);  // (hold.hpp: both at once, until the call returns)
            check_index(b, S.batch(), "b");
            check_index(c, D.batch(), "c");
            if (S.script.shape[1] != D.script.shape[1])
                bad("dst.script: holds " + str(D.script.shape[1]) + " scripted walls per game, src " +
                    str(S.script.shape[1]) + " (they must agree)");
            copy_game(S, b, D, c);
        },
        nb::arg("src"), nb::arg("b"), nb::arg("dst"), nb::arg("c"),
        "Copy game b of the state src into slot c of the state dst (every array's row; src and dst may be the "
        "same state).");
    m.def(
        "resample_hidden",
        [](nb::handle state, int64_t b, int64_t seat, uint64_t seed, const Rules& rules, const nb::object& hand_q_o) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            check_index(seat, 4, "seat");
            check_decision(S, b, seat, opts, "b");
            const std::vector<double> q = parse_hand_q(hand_q_o, 1);
            resample_hidden(S, b, seat, seed, opts, cfg, prof, q.empty() ? nullptr : q.data());
        },
        nb::arg("state"), nb::arg("b"), nb::arg("seat"), nb::arg("seed"), nb::arg("rules"),
        nb::arg("hand_q") = nb::none(),
        "Deal again, in place and uniformly, what seat (the seat to decide in game b) cannot see: the opponents' "
        "concealed tiles and the wall (tw16/resample.hpp); with hand_q (float64 (1, 3, 34)) the opponents' tiles "
        "are dealt by that model of their hands. Deterministic given seed.");
    m.def(
        "reshuffle_wall",
        [](nb::handle state, int64_t b, uint64_t seed, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            check_decision(S, b, -1, rules.options(), "b");  // (bounds the wall's head and tail)
            reshuffle_wall(S, b, seed);
        },
        nb::arg("state"), nb::arg("b"), nb::arg("seed"), nb::arg("rules"),
        "Deal again, in place and uniformly, the order of game b's undrawn wall (head..tail, the dead wall "
        "included), every hand kept: the search's oracle determinization (tw16/resample.hpp reshuffle_wall). "
        "Deterministic given seed.");
    m.def(
        "search_batch",
        [](nb::handle state, const AnyArray& games_a, const AnyArray& seeds_a, int64_t k, int64_t n, int64_t policy,
           double z, const Rules& rules, const RwArray& out_a, const RwArray& values_a, const nb::object& candidates_o,
           const nb::object& defence_o, bool base_defensive, double weight, double ms, bool oracle,
           const nb::object& hand_q_o) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            SearchArgs args;
            parse_search(args, S, opts, games_a, seeds_a, k, n, policy, z, candidates_o, defence_o, base_defensive,
                         weight, ms, oracle, hand_q_o);
            const int64_t G = args.G;
            const auto& games = args.games;
            const auto out = rw<int64_t, 1>(out_a, "out", {G});
            const auto values = rw<double, 2>(values_a, "values", {G, n});
            std::vector<uint8_t> refused(static_cast<size_t>(G), 0);
            {
                nb::gil_scoped_release nogil;
                parallel_for(G, [&](int64_t i) {
                    std::vector<double> v(static_cast<size_t>(n));
                    std::vector<int64_t> c(static_cast<size_t>(n));
                    int64_t nc = 0;
                    const int64_t* g = args.given.empty() ? nullptr : args.given.data() + i * n;
                    const int64_t a =
                        search_action(S, games[i], args.cfg_of(i), args.seeds[i], opts, cfg, prof, step_ok, v.data(),
                                      c.data(), &nc, g, args.n_given[static_cast<size_t>(i)]);
                    out[i] = a;
                    refused[i] = a < 0;
                    for (int64_t j = 0; j < n; ++j) values(i, j) = std::nan("");
                    for (int64_t j = 0; j < nc; ++j) values(i, j) = v[j];
                });
            }
            for (int64_t i = 0; i < G; ++i)
                if (refused[i]) bad("state: game " + str(games[i]) + ": a rollout reached a state the step refuses");
        },
        nb::arg("state"), nb::arg("games"), nb::arg("seeds"), nb::arg("k"), nb::arg("n"), nb::arg("policy"),
        nb::arg("z"), nb::arg("rules"), nb::arg("out"), nb::arg("values"), nb::arg("candidates") = nb::none(),
        nb::arg("defence") = nb::none(), nb::arg("base_defensive") = false, nb::arg("weight") = 0.0,
        nb::arg("ms") = 0.0, nb::arg("oracle") = false, nb::arg("hand_q") = nb::none(),
        "The search agent's decision for each game in games (int64 (G,), distinct, each a live decision): "
        "out[i] the action, values[i, j] the mean chips of its j-th candidate over k determinizations "
        "(NaN past the candidates; another candidate than the first (Greedy's) is played only when it beats it by "
        "z standard errors; all NaN when there was nothing to search: a win, a single candidate). candidates (int64 "
        "(G, n), "
        "optional): each row's own candidates, distinct legal actions best first and -1 after the last, in place of "
        "Greedy's (the first is the base). Game i searches from seeds[i] "
        "(uint64 (G,)); the state is not changed. Over threads; results never depend on the thread count. "
        "defence ((params (8,), win_logit (5, 3), ready_p (5, 4)), agents/greedy.py's) is read by policy "
        "ROLLOUT_DEFENSIVE (4: every seat plays Defensive) and base_defensive (Defensive's decision is the base "
        "candidate); weight: beta of the determinizations' importance weights (search_weights; 0: uniform); "
        "ms: a time budget per decision in milliseconds (0: none; results then depend on the machine's speed); oracle: "
        "the determinizations keep every hidden hand and deal again only the wall's order (reshuffle_wall: it reads "
        "what the seat cannot see, for training targets and diagnostics); hand_q (float64 (G, 3, 34), optional): "
        "a model of the opponents' hands, row i - 1 the weights of each kind for the opponent at seat + i "
        "(resample_hidden's hand_q: the determinizations deal them by it, agents/hand_model.py).");
    m.def(
        "search_leaves_batch",
        [](nb::handle state, const AnyArray& games_a, const AnyArray& seeds_a, int64_t k, int64_t n, int64_t policy,
           const Rules& rules, nb::handle leaves, const RwArray& cands_a, const RwArray& chips_a,
           const RwArray& status_a, const RwArray& log_w_a, const RwArray& done_a, const nb::object& candidates_o,
           const nb::object& defence_o, bool base_defensive, double weight, double ms, bool oracle,
           const nb::object& hand_q_o) {
            const State S = state_of(state);
            const State L = state_of(leaves, "leaves");
            if (overlaps(S, L)) bad("leaves: shares memory with state (the leaves need their own arrays)");
            const Hold hold(S, L);  // (hold.hpp: both at once, until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            SearchArgs args;
            parse_search(args, S, opts, games_a, seeds_a, k, n, policy, 0.0, candidates_o, defence_o, base_defensive,
                         weight, ms, oracle, hand_q_o);
            const int64_t G = args.G;
            const auto& games = args.games;
            if (L.batch() < G * k * n)
                bad("leaves: holds " + str(L.batch()) + " games, the search needs G * k * n = " + str(G * k * n));
            if (L.script.shape[1] != 0) bad("leaves: must hold no scripted walls (allocate it with K = 0)");
            const auto cands = rw<int64_t, 2>(cands_a, "cands", {G, n});
            const auto chips = rw<double, 3>(chips_a, "chips", {G, k, n});
            const auto status = rw<int8_t, 3>(status_a, "status", {G, k, n});
            const auto log_w = rw<double, 2>(log_w_a, "log_w", {G, k});
            const auto done = rw<int64_t, 1>(done_a, "done", {G});
            std::vector<uint8_t> refused(static_cast<size_t>(G), 0);
            {
                nb::gil_scoped_release nogil;
                parallel_for(G, [&](int64_t i) {
                    std::vector<int64_t> c(static_cast<size_t>(n), -1);
                    std::vector<double> ch(static_cast<size_t>(k * n), 0.0), lw(static_cast<size_t>(k), 0.0);
                    std::vector<int8_t> stt(static_cast<size_t>(k * n), LEAF_REFUSED);
                    const int64_t ng = args.n_given[static_cast<size_t>(i)];
                    const int64_t nc = args.given.empty()
                                           ? search_candidates(S, games[i], c.data(), n, opts,
                                                               base_defensive ? args.sc.defence : nullptr)
                                           : ng;
                    if (!args.given.empty())
                        std::copy(args.given.data() + i * n, args.given.data() + i * n + ng, c.data());
                    // nothing to search: a single candidate, or a win first (the search takes it)
                    int64_t d = 0;
                    if (nc > 1 && c[0] != A::WIN)
                        d = search_leaves(S, games[i], args.cfg_of(i), args.seeds[i], opts, cfg, prof, step_ok,
                                          c.data(), nc, L, i * k * n, ch.data(), stt.data(), lw.data());
                    refused[i] = d < 0;
                    done[i] = std::max<int64_t>(d, 0);
                    for (int64_t j = 0; j < n; ++j) cands(i, j) = j < nc ? c[j] : -1;
                    for (int64_t e = 0; e < k * n; ++e) {
                        chips(i, e / n, e % n) = ch[e];
                        status(i, e / n, e % n) = stt[e];
                    }
                    for (int64_t e = 0; e < k; ++e) log_w(i, e) = lw[e];
                });
            }
            for (int64_t i = 0; i < G; ++i)
                if (refused[i])
                    bad("state: game " + str(games[i]) + ": a leaf's play reached a state the step refuses");
        },
        nb::arg("state"), nb::arg("games"), nb::arg("seeds"), nb::arg("k"), nb::arg("n"), nb::arg("policy"),
        nb::arg("rules"), nb::arg("leaves"), nb::arg("cands"), nb::arg("chips"), nb::arg("status"), nb::arg("log_w"),
        nb::arg("done"), nb::arg("candidates") = nb::none(), nb::arg("defence") = nb::none(),
        nb::arg("base_defensive") = false, nb::arg("weight") = 0.0, nb::arg("ms") = 0.0, nb::arg("oracle") = false,
        nb::arg("hand_q") = nb::none(),
        "The leaves of the search for each game in games (as search_batch: the same candidates, determinizations, "
        "importance weights and budget; tw16/resample.hpp search_leaves): cands[i] (int64 (G, n)) the candidates, "
        "best first, -1 past them; done[i] (int64 (G,)) the determinizations that ran (0: nothing to search, a win "
        "or a single candidate); for determinization d < done[i] and candidate j: status[i, d, j] (int8 (G, k, n)) "
        "LEAF_OPEN (1: the seat to decide again, the state in slot (i * k + d) * n + j of leaves, a State with at "
        "least G * k * n games and no scripted walls) or LEAF_SETTLED (2: the hand over), chips[i, d, j] (float64) "
        "the seat's chips gained on the way; log_w[i, d] (float64 (G, k)) beta * the discard model's log weight. "
        "The other seats play policy; a win on offer to the seat is taken. The state is not changed.");
    m.def(
        "search_determinization",
        [](nb::handle state, int64_t b, uint64_t seed, int64_t i, const Rules& rules, nb::handle dst, int64_t c) {
            const State S = state_of(state);
            const State D = state_of(dst, "dst");
            const Hold hold(S, D);
            check_divides(rules);
            if (i < 0 || i >= (int64_t{1} << 20)) bad("i = " + str(i) + ", expected 0..2**20-1");
            check_decision(S, b, -1, rules.options(), "b");
            check_index(c, D.batch(), "c");
            if (D.script.shape[1] != 0) bad("dst: must hold no scripted walls (allocate it with K = 0)");
            return search_determinization(S, b, seed, i, rules.options(), rules.config(), rules.prof, D, c);
        },
        nb::arg("state"), nb::arg("b"), nb::arg("seed"), nb::arg("i"), nb::arg("rules"), nb::arg("dst"), nb::arg("c"),
        "Determinization i of those search_batch and search_leaves_batch deal from seed for game b's seat to "
        "decide, written into slot c of dst (a State with no scripted walls); returns its rollout stream's seed.");
    m.def(
        "search_log_weight",
        [](nb::handle state, int64_t b, int64_t seat, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);
            check_divides(rules);
            check_index(seat, 4, "seat");
            check_decision(S, b, -1, rules.options(), "b");
            return discard_log_weight(S, b, seat, rules.prof);
        },
        nb::arg("state"), nb::arg("b"), nb::arg("seat"), nb::arg("rules"),
        "The discard model's log weight (before beta) of game b's deal as seat sees it "
        "(tw16/resample.hpp discard_log_weight).");
    m.def(
        "search_choose",
        [](const AnyArray& values_a, const AnyArray& log_w_a, double z, double margin, const RwArray& means_a) {
            const auto values = ro<double, 2>(values_a, "values", {-1, -1});
            const int64_t k = values.shape[0], nc = values.shape[1];
            if (k < 1) bad("values: no determinization (expected (k >= 1, nc) values)");
            if (nc < 1 || nc > A::N_ACTIONS) bad("values: nc = " + str(nc) + ", expected 1..76 candidates");
            const auto log_w = ro<double, 1>(log_w_a, "log_w", {k});
            const auto means = rw<double, 1>(means_a, "means", {nc});
            if (!(z >= 0.0 && z <= 1e6)) bad("z = " + std::to_string(z) + ", expected 0..1e6 standard errors");
            if (!(margin >= 0.0 && margin <= 1e6))
                bad("margin = " + std::to_string(margin) + ", expected 0..1e6 chips");
            PairedMeans pm(nc);
            for (int64_t i = 0; i < k; ++i) {
                if (!std::isfinite(log_w[i])) bad("log_w[" + str(i) + "] is not finite");
                pm.start(log_w[i]);
                for (int64_t j = 0; j < nc; ++j) {
                    if (!std::isfinite(values(i, j))) bad("values[" + str(i) + ", " + str(j) + "] is not finite");
                    pm.add(j, values(i, j));
                }
                pm.finish();
            }
            std::vector<double> mu(static_cast<size_t>(nc));
            const int64_t best = pm.choose(z, margin, mu.data());
            for (int64_t j = 0; j < nc; ++j) means[j] = mu[static_cast<size_t>(j)];
            return best;
        },
        nb::arg("values"), nb::arg("log_w"), nb::arg("z"), nb::arg("margin"), nb::arg("means"),
        "The search's choice (tw16/resample.hpp PairedMeans, search_batch's rule) from values (float64 (k, nc): "
        "each candidate's value under each determinization, the base candidate first) and log_w (float64 (k,): "
        "the determinizations' log importance weights): the index of the best weighted mean among the candidates "
        "that beat the base one by more than z standard errors of the paired differences and by more than margin "
        "chips (0: none does); means (float64 (nc,)) receives the weighted means.");
    m.def(
        "search_weights",
        [](nb::handle state, int64_t b, uint64_t seed, int64_t k, double beta, const Rules& rules,
           const RwArray& out_a) {
            const State S = state_of(state);
            const Hold hold(S);
            check_divides(rules);
            const Opts opts = rules.options();
            if (k < 1 || k > (int64_t{1} << 20)) bad("k = " + str(k) + ", expected 1..2**20 determinizations");
            if (!(beta >= 0.0 && beta <= 1e3)) bad("beta = " + std::to_string(beta) + ", expected 0..1000");
            check_decision(S, b, -1, opts, "b");
            const auto out = rw<double, 1>(out_a, "out", {k});
            std::vector<double> w(static_cast<size_t>(k));
            search_weights(S, b, seed, k, beta, opts, rules.config(), rules.prof, w.data());
            for (int64_t i = 0; i < k; ++i) out[i] = w[static_cast<size_t>(i)];
        },
        nb::arg("state"), nb::arg("b"), nb::arg("seed"), nb::arg("k"), nb::arg("beta"), nb::arg("rules"),
        nb::arg("out"),
        "out (float64 (k,)): the normalised importance weights (summing to 1) of the k determinizations that "
        "search_batch deals from seed for game b's seat to decide, proportional to exp(beta * log weight) of the "
        "discard model (tw16/resample.hpp discard_log_weight). Deterministic.");
}

}  // namespace tw16::bind
