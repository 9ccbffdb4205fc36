// Search at decision time: copy one game's state, and resample what a seat cannot see (the
// opponents' concealed tiles, the wall with its dead part and the unrevealed flowers, the game's own
// random stream for the hands after this one), so that an agent can play determinized rollouts.
// Python: envs/engine/api.py (Engine.clone, Engine.resample_hidden), agents/search.py.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "tw16/agents.hpp"
#include "tw16/constants.hpp"
#include "tw16/state.hpp"

namespace tw16 {

// Every array's row b of src into row c of dst. The scripted walls are copied when dst holds as many
// (K) as src; a dst with K = 0 keeps none (its later hands are shuffled from the game's stream).
void copy_game(const State& src, int64_t b, const State& dst, int64_t c);

// Resample game b in place for `seat`, which must be the seat to decide (G_CUR; the caller checks
// that the state is one the engine made: the bindings run check_game and game_ok first).
//
// What the seat sees stays: its own hand, every meld (concealed kongs included), the river, the
// exposed flowers, each opponent's concealed-tile count and every scalar. What it cannot see is dealt
// again uniformly among the deals consistent with that: the unseen tiles (the opponents' concealed
// tiles and the live wall from head to tail, dead wall included) are a uniform random arrangement
// over those slots, with the hidden flowers only in the wall (a flower is never held after the
// deal's replacements). The claim options of the opponents still to answer are computed again from
// their new hands (those asked before the seat are taken to have passed: the seat cannot see their
// answers), the last tile drawn by an opponent on turn is a tile of its new hand, the game's random
// stream is reseeded from `seed` and the remaining scripted walls are skipped (later hands are hidden
// too), and the mask is computed again. Slots of the wall outside head..tail (tiles already drawn)
// are history the engine never reads again: they are left as they were. Between hands (PH_LA_CUT)
// only the stream is reseeded. Deterministic given seed.
// Kept although the seat cannot see them (the melds and per-seat scalars stay as they are): the kinds
// of the opponents' concealed kongs and their 過水 flags (P_PASS_WIN). The opponents' play (what
// their discards and claims suggest about their hands) is not used: the deal is uniform, as in
// determinized search.
//
// hand_q (optional, 3 x 34 nonnegative weights: row i - 1 for the opponent seat + i) is a model of the
// opponents' hands (agents/hand_model.py): each opponent's concealed tiles are then dealt one at a time,
// kind k with probability proportional to its unseen copies left times hand_q[i - 1][k] (a kind with
// no weight left falls back to the copies alone); the wall gets the rest, uniformly. With hand_q =
// nullptr the deal is the uniform one above, draw for draw.
void resample_hidden(const State& S, int64_t b, int64_t seat, uint64_t seed, Opts opts, Cfg cfg, const Prof& prof,
                     const double* hand_q = nullptr);

// The oracle's determinization (SearchCfg::oracle): only the order of the undrawn wall (head..tail, the
// dead wall and its flowers included) is dealt again, uniformly, and the game's stream reseeded (the
// remaining scripted walls skipped); every hand, claim and answer stays as it is. It reads what the
// seat cannot see (the opponents' concealed tiles), so it serves training and diagnostics: rollouts
// from it sample the true state's continuations, whose mean over the states a seat meets is the value
// of its information state. Deterministic given seed.
void reshuffle_wall(const State& S, int64_t b, uint64_t seed);

// One game's arrays, owned: n slots (script K = 0) for the search's determinizations and rollouts.
struct GameBuf {
    explicit GameBuf(int64_t n);
    State state() const { return S; }

  private:
    std::vector<uint8_t> wall;
    std::vector<int8_t> hands, melds, river;
    std::vector<int64_t> g, p, scores, res_delta, rec;
    std::vector<uint64_t> rng;
    std::vector<float> rewards;
    std::vector<uint8_t> terminated, mask;  // (bool storage: one byte each)
    std::vector<int32_t> res_tai, la_k, rec_items;
    std::vector<int16_t> res_items;
    std::vector<double> la;
    std::vector<uint8_t> script;
    State S;
};

// -- the search agent (agents/search.py) --------------------------------------------------------
// The rollout policies: randplay's POLICY_UNIFORM (0) and POLICY_GREEDY (1: lowest shanten, one
// decision in 8 and every claim answer uniform), and this one (agents.search.ROLLOUTS["efficient"]):
// wins and ready declarations whenever legal, Greedy's claim answers, lowest-shanten discards.
inline constexpr int64_t ROLLOUT_EFFICIENT = 2;
// ROLLOUT_BASE (agents.search.ROLLOUTS["base"]): every seat plays the base policy itself (Greedy, as
// search_candidates ranks it first): the one-step lookahead of a policy over itself, and the slowest.
inline constexpr int64_t ROLLOUT_BASE = 3;
// ROLLOUT_DEFENSIVE (agents.search.ROLLOUTS["defensive"]): every seat plays Defensive (agents/greedy.py,
// defensive_decision below: the danger of each discard weighed against its efficiency), so that the
// rollouts fold where Defensive folds, the searching seat's own rest of the hand included.
inline constexpr int64_t ROLLOUT_DEFENSIVE = 4;
struct SearchCfg {
    int64_t k = 8;             // determinizations per decision
    int64_t n = 3;             // candidate actions (the top n by the base policy)
    int64_t policy = 1;        // rollout policy: py::randplay::POLICY_UNIFORM, POLICY_GREEDY or ROLLOUT_*
    double z = 0.0;            // another candidate must beat the base one by z standard errors
    int64_t max_steps = 4000;  // a rollout longer than this is cut (a hand takes a few hundred)
    // Defensive's parameters and tables (agents/greedy.py): read by ROLLOUT_DEFENSIVE and by a
    // Defensive base (base_defensive); null otherwise.
    const greedy::Defence* defence = nullptr;
    bool base_defensive = false;  // the base candidate is Defensive's decision, not Greedy's
    double weight = 0.0;          // beta of discard_log_weight: 0 weighs every determinization alike
    double ms = 0.0;              // time budget per decision in milliseconds (0: none; >= 1 determinization)
    // The determinizations keep the opponents' hands (reshuffle_wall, not resample_hidden): an
    // oracle that reads the hidden tiles, for training targets and diagnostics, never a fair agent.
    bool oracle = false;
    // A model of the opponents' hands for the determinizations (resample_hidden's hand_q, 3 x 34), or
    // nullptr for uniform deals. Per game: the bindings point it at that game's row.
    const double* hand_q = nullptr;
};

// Defensive's decision (agents/greedy.py DefensiveAgent) for the seat to decide in game b, its inputs
// read from the state as agents.features.decode reads them from that seat's planes_v0 observation.
int64_t defensive_decision(const State& S, int64_t b, Opts opts, const greedy::Defence& defence);

// How unlikely a determinization is under a simple discard model: minus the sum, over every opponent
// of `seat` and every tile it discarded this hand, of how close that tile sits to the opponent's
// (resampled) concealed hand (2 per copy of the kind, 2 per copy one rank off, 1 two ranks off):
// players discard tiles far from what they keep; minus PASSED_WIN_CLOSENESS for each tile an opponent
// let pass since its newest discard that its dealt hand would win on. exp(beta * this) is the
// importance weight.
inline constexpr double PASSED_WIN_CLOSENESS = 100.0;
double discard_log_weight(const State& S, int64_t b, int64_t seat, const Prof& prof);

// The normalised importance weights (summing to 1) of the k determinizations search_action deals from
// `seed` for game b's seat to decide: w_i proportional to exp(beta * discard_log_weight). Deterministic.
void search_weights(const State& S, int64_t b, uint64_t seed, int64_t k, double beta, Opts opts, Cfg ecfg,
                    const Prof& prof, double* w);

// Determinization i (0-based) of those search_action and search_leaves deal from `seed` for game b's
// seat to decide, into slot c of dst; returns its rollout stream's seed (tests replay a leaf from it).
uint64_t search_determinization(const State& S, int64_t b, uint64_t seed, int64_t i, Opts opts, Cfg ecfg,
                                const Prof& prof, const State& dst, int64_t c);

// A check run before each rollout step (the bindings' game_ok): false refuses the state.
using StepOk = bool (*)(const State&, int64_t b, int64_t action, Opts opts);

// The candidates of the seat to decide in game b, best first by the base policy: Greedy's own
// decision first (agents/greedy.py: win, ready, its claim answer or its turn action), then on a turn
// the other discards in Greedy's order (shanten, unseen tiles that lower it, neighbours, kind) with
// the self kongs after the best discard, then every other legal action in index order. Writes at
// most max_n actions into out and returns how many (so n = 1 plays exactly as Greedy). With `defence`,
// Defensive's decision (defensive_decision) comes first instead of Greedy's, then Greedy's order.
int64_t search_candidates(const State& S, int64_t b, int64_t* out, int64_t max_n, Opts opts,
                          const greedy::Defence* defence = nullptr);

// The search's choice from the candidates' values under weighted determinizations, accumulated one
// determinization at a time (search_action's rollouts; agents/search.py's leaf modes through the
// binding search_choose): weights are kept relative to the largest so far, so none underflows, and
// are exactly 1.0 when every log weight is equal (the unweighted sums, bit for bit).
struct PairedMeans {
    explicit PairedMeans(int64_t nc) : nc(nc) {}
    void start(double log_w);       // a new determinization, of this log importance weight
    void add(int64_t j, double v);  // candidate j's value under it (the base candidate, j = 0, first)
    void finish();                  // closes the determinization
    // The weighted means into means[0..nc), and the index of the best mean among the candidates that
    // beat the base one by more than z standard errors of the paired differences (their variance
    // floored at 1 chip squared: k equal differences are not certainty; the reliability-weights
    // correction and the effective sample size W^2 / W2) and by more than `margin` chips; 0 if none.
    int64_t choose(double z, double margin, double* means) const;

    int64_t nc, done = 0;
    std::array<double, py::actions::N_ACTIONS> sum{},
        sq{};  // weighted sums of values and of squared differences to the base
    double W = 0.0, W2 = 0.0, top = 0.0, w = 0.0, v0 = 0.0;
};

// The search's decision for game b: WIN when legal, the only legal action when there is one, else for
// each of k determinizations (resample_hidden with seeds drawn from `seed`) and each candidate, the
// candidate then the rollout policy to the end of the hand; the candidate of best mean chips for the
// seat among those that beat the base candidate (Greedy's) by more than z standard errors of their
// paired differences (z = 0: the best mean; ties: the base order). Every candidate sees the same
// determinizations and rollout seeds.
// cands (n) receives the candidates and values (n) their means (chips), n_cands how many were
// searched (0 when nothing was: a win, a single candidate); returns the action, or -1 when a state
// was refused by ok. With `given` (n_given >= 1 distinct legal actions, best first: another base
// policy's ranking, e.g. a network's, agents/search.py base=neural) those are the candidates instead
// of search_candidates' and given[0] is the base candidate.
int64_t search_action(const State& S, int64_t b, const SearchCfg& cfg, uint64_t seed, Opts opts, Cfg ecfg,
                      const Prof& prof, StepOk ok, double* values, int64_t* cands, int64_t* n_cands,
                      const int64_t* given = nullptr, int64_t n_given = 0);

// -- leaf-evaluated search (agents/search.py leaf=zero|value) ------------------------------------
// What play_to_leaf reached: a state refused (by ok, or a hand past max_steps), the seat to decide
// again (the leaf's value is estimated: the network's value head, agents/search.py), or the hand over.
inline constexpr int8_t LEAF_REFUSED = 0;
inline constexpr int8_t LEAF_OPEN = 1;
inline constexpr int8_t LEAF_SETTLED = 2;

// The leaves of the search for game b over the candidates cands[0..nc) (nc <= cfg.n): for each
// determinization i (search_action's, in its order, from `seed`: the same deals and importance
// weights; no new one starts past cfg.ms milliseconds, the first always runs) and candidate j, the
// candidate, then the rollout policy at the other seats until the hand ends or the seat is to decide
// again (a win on offer to the seat is taken). Writes, at e = i * cfg.n + j, chips[e] (the seat's
// chips gained on the way: a settled hand's result) and status[e] (LEAF_OPEN or LEAF_SETTLED), the
// open leaf's state into slot l0 + e of L, and log_w[i] (beta * discard_log_weight; 0 at beta 0).
// Returns how many determinizations ran, or -1 when a state was refused.
int64_t search_leaves(const State& S, int64_t b, const SearchCfg& cfg, uint64_t seed, Opts opts, Cfg ecfg,
                      const Prof& prof, StepOk ok, const int64_t* cands, int64_t nc, const State& L, int64_t l0,
                      double* chips, int8_t* status, double* log_w);

}  // namespace tw16
