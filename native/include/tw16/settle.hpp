// Settlement of a win (RULES.md 4, HONGKONG.md 5.1): who pays the winner, how many tai and chips
// on each payment leg. The one settlement of tw16: the engine's hand end (handend.cpp) and `tw16
// score` (envs.scoring.api, through the binding `settle`) both call win_legs, and the bench loop
// score_all settles with it too.
//
// A win produces one leg per paying seat p (the seat whose leg it is): a self-draw or 八仙過海
// (payer -1), each other seat; a discard or robbed kong, the discarder or konger; 七搶一, the seat
// that held the eighth flower. Leg tai = hand tai + the dealer tai on that leg; the leg pays
// base + per_tai x leg tai chips. The rule set (opts[OPT_HK]) decides the rest:
//   standard profiles (standard, strict16, casual, extras, ...): the dealer tai 1 + 2N is on every
//     leg the dealer pays or wins; no 全包 (liable is ignored).
//   hongkong: the dealer tai is on a leg when the dealer wins, or when the dealer pays it as
//     discarder / konger / 七搶一 holder; on the dealer's leg of a non-dealer self-draw (and 八仙) only
//     with the option dealer_pays_on_self_draw. Under 全包 (liable >= 0) the liable seat pays all three
//     legs of a self-draw, each with the dealer tai it has as a self-draw leg. A leg whose tai is
//     negative (a negative hand tai from a caller, or a dealer tai wrapped by an absurd streak) is
//     reported but not paid, as the hongkong port did; the standard rule pays it.
//   win_lose settlement (opts[OPT_SETTLE_WIN_LOSE], the olympiad profile): the same legs, each paying
//     one point of per_tai chips whatever the tai, with no dealer tai (leg tai = hand tai, reported).
// int64 arithmetic wraps (two's complement, as numpy's int64; done through uint64: no undefined behaviour).
#pragma once
#include <cstdint>

#include "tw16/constants.hpp"
#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16 {

// 莊家 1 + 連莊拉莊 2N, N the streak capped by opts[OPT_STREAK_CAP] (< 0: no cap); wraps.
inline int64_t dealer_tai(int64_t streak, Opts opts) {
    const int64_t cap = opts[py::options::OPT_STREAK_CAP];
    const int64_t n = cap < 0 ? streak : (streak < cap ? streak : cap);
    return static_cast<int64_t>(1u + 2u * static_cast<uint64_t>(n));
}

// One win. payer: the discarder, the konger robbed, the 七搶一 holder, or -1 when all three pay;
// liable: the 全包 seat (hongkong) or -1; seats 0..3 (the caller checks them).
struct Win {
    int64_t hand_tai, win_by, winner, payer, liable, dealer, streak;
};

// The legs of one win, indexed by the seat p whose leg it is.
struct Legs {
    int64_t payer[4];       // the seat paying p's leg (p, or the liable seat); -1: p has no leg
    int64_t tai[4];         // leg tai (hand tai + dealer_tai[p]); -1 where p has no leg
    int64_t dealer_tai[4];  // the dealer tai on p's leg; 0 where none
    int64_t chips[4];       // base + per_tai x tai[p]; 0 where p has no leg
    bool paid[4];           // whether p's leg is paid (every leg, except a negative hongkong one)
    int64_t n;              // the number of legs
};

// The legs of win w under the rules opts (see above). (Inline, as pay and settle: the engine's hand end
// and the scoring bench loop call them per win.)
inline Legs win_legs(const Win& w, Opts opts) {
    const bool hk = opts[py::options::OPT_HK] != 0;
    const bool win_lose = opts[py::options::OPT_SETTLE_WIN_LOSE] != 0;
    const int64_t dt = win_lose ? 0 : dealer_tai(w.streak, opts);
    const int64_t liable = hk ? w.liable : -1;  // 全包 is a hongkong rule
    // Legs from all three: a self-draw, 八仙過海, or 全包 (the liable seat pays the self-draw legs).
    const bool self_legs = w.payer < 0 || liable >= 0;
    // The dealer's leg of a non-dealer self-draw carries the dealer tai except under hongkong rules
    // without dealer_pays_on_self_draw (HONGKONG.md 1, "Dealer tai").
    const bool dealer_self_leg = !hk || opts[py::options::OPT_DEALER_PAYS_ON_SELF_DRAW] != 0;
    const int64_t base = opts[py::options::OPT_BASE], per_tai = opts[py::options::OPT_PER_TAI];
    Legs l;
    l.n = 0;
    for (int64_t p = 0; p < 4; ++p) {
        const bool leg = p != w.winner && (self_legs || p == w.payer);
        const bool on =
            !win_lose && leg && (w.winner == w.dealer || (p == w.dealer && (!self_legs || dealer_self_leg)));
        const int64_t tai = add_wrap(w.hand_tai, on ? dt : 0);
        l.dealer_tai[p] = on ? dt : 0;
        l.tai[p] = leg ? tai : -1;
        l.payer[p] = !leg ? -1 : liable >= 0 ? liable : p;
        l.chips[p] = !leg ? 0 : win_lose ? per_tai : add_wrap(base, mul_wrap(per_tai, tai));
        l.paid[p] = leg && (!hk || tai >= 0);
        l.n += leg;
    }
    return l;
}

// Add the paid legs to owed (4 x 4, chips): owed(x, y) += chips x owes y. Several winners of one
// discard each add their own legs; the engine pays owed in full or through the 拉 ledger.
void owe(const Legs& legs, int64_t winner, View<int64_t, 2> owed);

// Pay owed (4 x 4) in full: deltas[x] -= owed(x, y), deltas[y] += owed(x, y) (added to deltas).
void pay_in_full(View<int64_t, 2> owed, View<int64_t, 1> deltas);

// Pay the paid legs of one win in full: the same chips as owe + pay_in_full, without the matrix
// (int64 sums wrap, so the order does not matter).
inline void pay(const Legs& legs, int64_t winner, View<int64_t, 1> deltas) {
    for (int64_t p = 0; p < 4; ++p) {
        if (!legs.paid[p]) continue;
        deltas[legs.payer[p]] = sub_wrap(deltas[legs.payer[p]], legs.chips[p]);
        deltas[winner] = add_wrap(deltas[winner], legs.chips[p]);
    }
}

// win_legs of w paid in full, added to out_deltas (int64[4]); out_dealer_tai[p] (when given, int64[4])
// = the dealer tai on p's paid leg, 0 where p pays none. Returns the number of legs.
inline int64_t settle(const Win& w, Opts opts, View<int64_t, 1> out_deltas,
                      View<int64_t, 1>* out_dealer_tai = nullptr) {
    const Legs legs = win_legs(w, opts);
    pay(legs, w.winner, out_deltas);
    if (out_dealer_tai)
        for (int64_t p = 0; p < 4; ++p) (*out_dealer_tai)[p] = legs.paid[p] ? legs.dealer_tai[p] : 0;
    return legs.n;
}

// settle of every win i (row i of every array) into out_deltas[i] (added to it); a hand tai < 0 (not
// a win) pays nothing. (No Python counterpart: the binding settle_batch.)
void settle_batch(View<int64_t, 1> hand_tai, View<int64_t, 1> win_by, View<int64_t, 1> winner, View<int64_t, 1> payer,
                  View<int64_t, 1> liable, View<int64_t, 1> dealer, View<int64_t, 1> streak, Opts opts,
                  View<int64_t, 2> out_deltas);

}  // namespace tw16
