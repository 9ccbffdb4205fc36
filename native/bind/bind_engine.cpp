// Bindings of the batch engine (envs/engine/step.py, randplay.py, invariants.py): reset_batch,
// reset_some, step_batch, step_some, random_play, check_game. Each is one function for any batch
// size: big batches are split over threads (parallel.hpp) and the results never depend on the thread count.
//
// The state is the 19 arrays of envs.engine.state.State, passed as the namedtuple (or any tuple /
// list of its fields in order). Checked before anything changes: every array's dtype, rank and
// shape, that the batch sizes agree, the rules arrays, the profile, scripted walls, and each action
// (0..75, legal under the game's stored mask). Each game's state is checked just before that game is
// stepped (game_ok: the bounds the engine relies on); a game refused there is left as it was and the
// call raises after the others are stepped. Bad input raises ValueError (TypeError for a wrong dtype,
// as everywhere in envs._core) naming the argument. The GIL is released around the batch loops.
#include <nanobind/ndarray.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "hold.hpp"
#include "state_checks.hpp"
#include "tw16/constants.hpp"
#include "tw16/invariants.hpp"
#include "tw16/parallel.hpp"
#include "tw16/randplay.hpp"
#include "tw16/state.hpp"
#include "tw16/step.hpp"

namespace tw16::bind {

// Engine.locked(): the hold of the native calls (hold.hpp) taken from Python, one object per
// engine, re-entrant: each `with` holds the spans again (the holds of one object are all of one
// thread at a time, as they overlap: the last taken is the one to let go).
struct StateHold {
    Hold spans;  // (never acquired itself: the ranges)
    std::vector<uint64_t> ids;
    ~StateHold() {
        for (uint64_t id : ids) release_hold(id);
    }
};

namespace {
namespace St = py::state;
namespace R = py::options;
namespace P = py::profile;
namespace T = py::tiles;
namespace A = py::actions;
namespace M = py::mask;
namespace RP = py::randplay;

}  // namespace

template <class T>
View<const T, 1> batch_vec(const AnyArray& a, const char* name, int64_t B) {
    return ro<T, 1>(a, name, {B});
}

// The state of one game: game_ok (state_checks.hpp). in() and str() format the messages.
using state_checks::in;
using state_checks::str;

// What check_game reads as an index must be in range (it reports bad tiles, hands and seats as E_*
// codes, but trusts the pointers and kinds it counts with): else ValueError.
void check_game_bounds(const State& S, int64_t b) {
    if (S.terminated[b]) return;  // (check_game only reads the rewards, scores and mask then)
    auto g = S.g[b];
    const std::string w = "state: game " + str(b) + ": ";
    if (g[St::G_NRIVER] < 0 || g[St::G_NRIVER] > St::MAX_RIVER)
        bad(w + "g[G_NRIVER] = " + in(g[St::G_NRIVER], 0, St::MAX_RIVER));
    if (g[St::G_WALL_N] < 0 || g[St::G_WALL_N] > St::WALL_SIZE)
        bad(w + "g[G_WALL_N] = " + in(g[St::G_WALL_N], 0, St::WALL_SIZE));
    if (g[St::G_HEAD] >= 0 && g[St::G_TAIL] < g[St::G_WALL_N])
        for (int64_t i = g[St::G_HEAD]; i <= g[St::G_TAIL]; ++i)
            if (S.wall(b, i) >= T::N_TILES) bad(w + "wall[" + str(i) + "] = " + in(S.wall(b, i), 0, T::N_TILES - 1));
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = S.p(b, s, St::P_NMELDS);
        if (nm < 0 || nm > St::MAX_MELDS) bad(w + "p[" + str(s) + ", P_NMELDS] = " + in(nm, 0, St::MAX_MELDS));
        for (int64_t i = 0; i < nm; ++i)
            if (S.melds(b, s, i, St::MC_KIND) < 0 || S.melds(b, s, i, St::MC_KIND) >= T::N_KINDS)
                bad(w + "melds[" + str(s) + ", " + str(i) + "]: kind " +
                    in(S.melds(b, s, i, St::MC_KIND), 0, T::N_KINDS - 1));
    }
    for (int64_t i = 0; i < g[St::G_NRIVER]; ++i)
        if (S.river(b, i, St::RV_CLAIMED_BY) < 0 &&
            (S.river(b, i, St::RV_KIND) < 0 || S.river(b, i, St::RV_KIND) >= T::N_KINDS))
            bad(w + "river[" + str(i) + "]: kind " + in(S.river(b, i, St::RV_KIND), 0, T::N_KINDS - 1));
}

namespace {

// Scripted walls: the first 144 ids (136 with flowers off) of each are a permutation of 0..143
// (0..135); a wall is copied in whenever a hand is dealt, so steps check them too.
void check_script(const State& S, Opts opts) {
    const int64_t n = opts[R::OPT_FLOWERS] ? T::N_TILES : T::N_TILES_NO_FLOWERS;
    for (int64_t b = 0; b < S.script.shape[0]; ++b)
        for (int64_t k = 0; k < S.script.shape[1]; ++k) {
            std::array<bool, T::N_TILES> seen{};
            for (int64_t i = 0; i < n; ++i) {
                const int64_t t = S.script(b, k, i);
                if (t >= n || seen[t])
                    bad("state.script[" + str(b) + ", " + str(k) + "]: the first " + str(n) +
                        " ids must be a permutation of 0.." + str(n - 1) + " (id " + str(t) + " at " + str(i) + ")");
                seen[t] = true;
            }
        }
}

// Ask for the rows of game b that every step reads (a batch walks the games in order; the rows of a
// big batch are not in cache).
inline void prefetch_rows(const void* p, int64_t bytes) {
    const char* c = static_cast<const char*>(p);
    for (int64_t i = 0; i < bytes; i += 64) __builtin_prefetch(c + i);
}
void prefetch_game(const State& S, int64_t b) {
    prefetch_rows(S.g.data + b * S.g.stride[0], St::NG * 8);
    prefetch_rows(S.p.data + b * S.p.stride[0], 4 * St::NP * 8);
    prefetch_rows(S.hands.data + b * S.hands.stride[0], 4 * T::N_KINDS);
    prefetch_rows(S.melds.data + b * S.melds.stride[0], 4 * St::MAX_MELDS * 3);
    prefetch_rows(S.wall.data + b * S.wall.stride[0], St::WALL_SIZE);
    prefetch_rows(S.mask.data + b * S.mask.stride[0], A::N_ACTIONS);
}

// The one check of the actions (Engine.step has none of its own): every stepped action in 0..75, then
// each legal under its game's stored mask (a finished game's mask is all ones: its step is a no-op),
// before anything changes. The messages are the Python API's; the names of the actions and the list
// of games come from their one owner, envs.engine.actions.action_name and envs.validate.ranges, asked
// only when an action is refused.
void check_actions(const State& S, View<const int64_t, 1> actions, const View<const bool, 1>* active) {
    const int64_t B = S.batch();
    auto stepped = [&](int64_t b) { return !active || (*active)[b]; };
    auto out_of_range = [&](int64_t b) { return stepped(b) && (actions[b] < 0 || actions[b] >= A::N_ACTIONS); };
    int64_t first = -1, n_bad = 0;
    for (int64_t b = 0; b < B; ++b)
        if (out_of_range(b)) {
            if (first < 0) first = b;
            ++n_bad;
        }
    if (n_bad) {
        std::string msg = "actions must be in 0.." + str(A::N_ACTIONS - 1) + ", got " + str(actions[first]) +
                          " in game " + str(first);
        if (n_bad > 1) {
            nb::list games;
            for (int64_t b = 0; b < B; ++b)
                if (out_of_range(b)) games.append(b);
            msg += std::string(" (bad in games ") +
                   nb::str(nb::module_::import_("envs.validate").attr("ranges")(games)).c_str() + ")";
        }
        bad(msg);
    }
    for (int64_t b = 0; b < B; ++b) {
        if (!stepped(b) || S.terminated[b] || S.mask(b, actions[b])) continue;
        const nb::object name = nb::module_::import_("envs.engine.actions").attr("action_name");
        nb::list legal;
        for (int64_t x = 0; x < A::N_ACTIONS; ++x)
            if (S.mask(b, x)) legal.append(name(x));
        bad(std::string("illegal action ") + nb::repr(name(actions[b])).c_str() + " in game " + str(b) + " for seat " +
            str(S.g(b, St::G_CUR)) + "; legal: " + nb::repr(legal).c_str());
    }
}

// Step the games (active null: all). Every action is checked first (check_actions). Each game's state
// (game_ok) is then checked just before the game is stepped, on the batch's threads (its rows are then
// in cache for the step): a game whose state is refused is left as it was, the others are stepped, and
// the call raises ValueError naming the first refused game. (A state the engine made is never refused.)
void run_steps(const State& S, View<const int64_t, 1> actions, const View<const bool, 1>* active, Opts opts, Cfg cfg,
               const Prof& prof) {
    check_script(S, opts);
    const int64_t B = S.batch();
    check_actions(S, actions, active);
    std::vector<uint8_t> refused(static_cast<size_t>(B), 0);
    {
        nb::gil_scoped_release nogil;
        parallel_for(B, [&](int64_t b) {
            if (b + 2 < B) prefetch_game(S, b + 2);
            if (active && !(*active)[b]) return;
            if (!S.terminated[b] && !game_ok<false>(S, b, actions[b], opts, nullptr)) {
                refused[b] = 1;
                return;
            }
            step_game(S, b, actions[b], opts, cfg, prof);
        });
    }
    for (int64_t b = 0; b < B; ++b)
        if (refused[b]) {
            std::string why;
            game_ok<true>(S, b, actions[b], opts, &why);
            bad("state: game " + str(b) + ": " + why + " (game " + str(b) + " was not stepped)");
        }
}

}  // namespace

void bind_engine(nb::module_& m, nb::module_& t) {
    // Below this many games a batch call runs on the calling thread (envs.engine.step, parallel.hpp).
    m.attr("PARALLEL_MIN_BATCH") = PARALLEL_MIN_BATCH;
    m.def(
        "reset_batch",
        [](nb::handle state, const AnyArray& seeds, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", S.batch());
            check_script(S, opts);
            nb::gil_scoped_release nogil;
            reset_batch(S, sd, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("rules"),
        "Deal every game of the batch from seeds (uint64 (B,)); envs.engine.step.reset_batch.");
    m.def(
        "reset_some",
        [](nb::handle state, const AnyArray& seeds, const AnyArray& which, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", S.batch());
            const auto wh = batch_vec<bool>(which, "which", S.batch());
            nb::gil_scoped_release nogil;
            reset_some(S, sd, wh, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("which"), nb::arg("rules"),
        "Auto-reset: deal again the games in which (bool (B,)); scripted walls are not reused.");
    m.def(
        "step_batch",
        [](nb::handle state, const AnyArray& actions, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            const auto ac = batch_vec<int64_t>(actions, "actions", S.batch());
            run_steps(S, ac, nullptr, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("actions"), nb::arg("rules"),
        "Apply one action (int64 (B,), legal under the current mask) per game; a finished game is not changed "
        "(zero rewards).");
    m.def(
        "step_some",
        [](nb::handle state, const AnyArray& actions, const AnyArray& active, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            const auto ac = batch_vec<int64_t>(actions, "actions", S.batch());
            const auto act = batch_vec<bool>(active, "active", S.batch());
            run_steps(S, ac, &act, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("actions"), nb::arg("active"), nb::arg("rules"),
        "step_batch for the games in active (bool (B,)) only; the others are not touched.");
    m.def(
        "random_play",
        [](nb::handle state, const AnyArray& seeds, const AnyArray& agent_seeds, int64_t episodes, bool check,
           int64_t policy, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            const Cfg cfg = rules.config();
            const Prof& prof = rules.prof;
            const int64_t B = S.batch();
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", B);
            const auto ag = batch_vec<uint64_t>(agent_seeds, "agent_seeds", B);
            if (episodes < 0) bad("episodes: expected >= 0, got " + std::to_string(episodes));
            if (policy != RP::POLICY_UNIFORM && policy != RP::POLICY_GREEDY)
                bad("policy: expected POLICY_UNIFORM (0) or POLICY_GREEDY (1), got " + std::to_string(policy));
            check_script(S, opts);
            auto* buf = new int64_t[static_cast<size_t>(B * RP::N_OUT)]();
            nb::capsule owner(buf, [](void* p) noexcept { delete[] static_cast<int64_t*>(p); });
            const auto out = View<int64_t, 2>::contiguous(buf, {B, RP::N_OUT});
            {
                nb::gil_scoped_release nogil;
                play_batch(S, sd, ag, episodes, check, policy, opts, cfg, prof, out);
            }
            const size_t shape[2] = {static_cast<size_t>(B), static_cast<size_t>(RP::N_OUT)};
            return nb::ndarray<nb::numpy, int64_t, nb::ndim<2>>(buf, 2, shape, owner);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("agent_seeds"), nb::arg("episodes"), nb::arg("check"),
        nb::arg("policy"), nb::arg("rules"),
        "Random (policy 0) or greedy (1) legal play of every game: envs.engine.randplay's play_batch. Game b is "
        "dealt from seeds[b], the agent draws from agent_seeds[b] (not changed). Returns the (B, N_OUT) int64 "
        "table (OUT_EPISODES, OUT_HANDS, OUT_DECISIONS, OUT_WINS, OUT_ERROR, OUT_ERROR_STEP, OUT_HASH).");
    t.def(
        "check_game",
        [](nb::handle state, int64_t b, const Rules& rules) {
            const State S = state_of(state);
            const Hold hold(S);  // (hold.hpp: until the call returns)
            check_divides(rules);
            const Opts opts = rules.options();
            if (b < 0 || b >= S.batch())
                bad("b: game " + std::to_string(b) + " is not in 0.." + std::to_string(S.batch() - 1));
            check_game_bounds(S, b);
            return check_game(S, b, opts);
        },
        nb::arg("state"), nb::arg("b"), nb::arg("rules"),
        "The invariant checker of envs.engine.invariants: 0 or the first failing E_* code of game b.");
    // Engine.locked(): the hold of the native calls (hold.hpp) around a compound operation in Python.
    nb::class_<StateHold>(m, "StateHold",
                          "The hold on a state's memory: while a `with` on it runs, native calls on that memory from "
                          "other threads wait; this thread's calls go through. Re-entrant.")
        .def("__enter__", [](StateHold& h) { h.ids.push_back(hold_spans(h.spans.spans())); })
        .def("__exit__", [](StateHold& h, nb::args) {
            if (h.ids.empty()) throw nb::value_error("StateHold: __exit__ without __enter__");
            const uint64_t id = h.ids.back();
            h.ids.pop_back();
            release_hold(id);
        });
    m.def(
        "hold_state",
        [](nb::args states) {
            if (states.size() == 0)
                throw nb::type_error("hold_state: expected at least one state (envs.engine.state.State)");
            auto* h = new StateHold;
            try {
                for (nb::handle s : states) h->spans.add(state_of(s));
            } catch (...) {
                delete h;
                throw;
            }
            return h;
        },
        nb::rv_policy::take_ownership,
        "hold_state(*states): a StateHold on the memory of the states' arrays (envs.engine.state.State), all "
        "taken at once by each `with`.");
}

}  // namespace tw16::bind
