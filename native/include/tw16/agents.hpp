// The agents' batch helpers: the efficiency planes (agents/efficiency.py) and the per-decision work
// of Greedy and Defensive (agents/greedy.py), one C++ function per agents helper
// (same names, same parameter order). Their inputs are the features that agents.features.decode
// reads from a planes_v0 observation (hand, n_melds, unseen, ...), never the engine.
#pragma once
#include <array>
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/view.hpp"

namespace tw16::efficiency {

// The planes of the kernel's output (B, N_EFFICIENCY, 34). The core owns this layout; envs._core
// exports it and agents/efficiency.py reads it from there.
inline constexpr int64_t N_EFFICIENCY = 9;
inline constexpr int64_t E_UKEIRE = 0;      // own turn, per held kind: ukeire after discarding it
inline constexpr int64_t E_UKEIRE_REL = 1;  // the same over the best discard's
inline constexpr int64_t E_PON = 2;         // answering a discard: the shanten gain of a pon
inline constexpr int64_t E_KONG = 3;        // of an exposed kong
inline constexpr int64_t E_CHI = 4;         // 3 planes: of a chi with the claimed tile low / middle / high
inline constexpr int64_t E_SELF_KONG = 7;   // own turn, per kind: a kong there keeps the shanten
inline constexpr int64_t E_UKEIRE_NOW = 8;  // answering a discard: ukeire of the 3n+1 hand

// agents.efficiency._FAR: the shanten of an impossible claim (a private Python name, so not in
// constants.hpp; tests/test_native_obs.py checks it against the Python value).
inline constexpr int64_t FAR = 99;

// Unseen tiles that would lower the shanten of `hand` (3n+1 tiles) below s. hand is restored.
int64_t ukeire(View<int8_t, 1> hand, int64_t n_sets, int64_t s, View<int8_t, 1> unseen);

// Lowest shanten reachable by one discard from a 3n+2 hand (FAR for an empty hand).
int64_t best_after_discard(View<int8_t, 1> hand, int64_t n_sets);

// Own-turn planes (E_UKEIRE, E_UKEIRE_REL, E_SELF_KONG) of a 3n+2 hand.
void own_turn_planes(View<float, 2> o, View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen);

// (now - after) / 2 clipped to [-1, 1]; 0 when the claim is impossible (after == FAR).
double claim_gain(int64_t now, int64_t after);

// Answering a discard of kind t: E_UKEIRE_NOW, E_PON, E_KONG, E_CHI + pos planes.
void claim_planes(View<float, 2> o, View<int8_t, 1> hand, int64_t n_sets, int64_t t, View<int8_t, 1> unseen);

// The batch: out (B, N_EFFICIENCY, 34) is written where a plane applies, never cleared (the caller
// passes zeros, as efficiency_planes does). Over threads; results never depend on the thread count.
void planes_kernel(View<int8_t, 2> hand, View<int64_t, 1> n_melds, View<int8_t, 2> unseen, View<int64_t, 1> claim_tile,
                   View<float, 3> out);

}  // namespace tw16::efficiency

namespace tw16::greedy {

// How connected tile d is in hand (copies count double): low = a good discard.
int64_t connectedness(View<int8_t, 1> hand, int64_t d);

// Unseen copies of the kind off ranks from d in its suit (0 off the suit or for honours).
int64_t unseen_off(View<int8_t, 1> unseen, int64_t d, int64_t off);

// How many ways a hidden hand could wait on d (module docstring of agents/greedy.py).
int64_t hidden_wait_ways(int64_t d, View<int8_t, 1> passed_by_threat, View<int8_t, 1> disc_by_threat,
                         View<int8_t, 1> unseen);

// Pon / kong / chi on tile t only if it lowers the shanten; else PASS. hand is restored.
int64_t greedy_claim(View<int8_t, 1> hand, int64_t n_sets, int64_t t, View<bool, 1> mask);

// discard_key's Python result (s, u, (s, -u, neighbours)).
struct DiscardKey {
    int64_t s;
    int64_t u;
    std::array<int64_t, 3> key;
};
// Shanten and ukeire after discarding d, and Greedy's sort key. hand is restored.
DiscardKey discard_key(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, int64_t d);

// Greedy's discard: (shanten, -ukeire, neighbours, kind) lexicographically; -1 if none is legal.
int64_t greedy_discard(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask);

// Defensive's run-time inputs, all from agents/greedy.py (the core holds no tuning of its own):
// params the DEFENCE_DEFAULTS values in order (params[0], the risk, 0: Greedy, the tables unread),
// win_logit its WIN_LOGIT (5, 3), ready_p its READY_P (5, 4).
struct Defence {
    View<double, 1> params;
    View<double, 2> win_logit;
    View<double, 2> ready_p;
};

// Greedy's chance to win the hand after a discard that leaves shanten s with u ukeire (win_logit).
double win_chance(int64_t s, int64_t u, int64_t tiles_left, View<double, 2> win_logit);

// Defensive's discard: Greedy's tile unless another legal discard has a higher expected value by
// more than the threshold. -1 if no discard is legal.
int64_t defensive_discard(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask,
                          View<int64_t, 1> opp_melds, View<int8_t, 2> opp_disc, View<int8_t, 2> opp_passed,
                          int64_t tiles_left, const Defence& defence);

// The own-turn decision: a self kong that keeps the shanten, else the (defended) discard, else the
// first legal action, else PASS.
int64_t greedy_turn(View<int8_t, 1> hand, int64_t n_sets, View<int8_t, 1> unseen, View<bool, 1> mask,
                    View<int64_t, 1> opp_melds, View<int8_t, 2> opp_disc, View<int8_t, 2> opp_passed,
                    int64_t tiles_left, const Defence& defence);

// The batch decision of Greedy (defence.params[0] == 0) / Defensive into out (B,). opp_ready is unused
// (as in Python). Over threads; results never depend on the thread count.
void act_kernel(View<int8_t, 2> hand, View<int64_t, 1> n_melds, View<int8_t, 2> unseen, View<int64_t, 2> opp_melds,
                View<bool, 2> opp_ready, View<int8_t, 3> opp_disc, View<int8_t, 3> opp_passed,
                View<int64_t, 1> tiles_left, View<int64_t, 1> claim_tile, View<bool, 2> mask, const Defence& defence,
                View<int64_t, 1> out);

}  // namespace tw16::greedy
