// The 拉 ledger (HONGKONG.md 5.2, 5.3): open debts between players across the hands of a game.
//
// la(d, c) is the open debt R of player d to player c (0: none; at most one direction per pair),
// la_k(d, c) its count k. Amounts are in any linear unit (the engine keeps chips); R stays exact
// (a double holds R = 1.5 R + v exactly while the amounts stay below 2**53 halves). Every payment
// is rounded on its own to a whole unit, halves up. paid (int64[4]) receives what is paid now,
// zero-sum. The functions take one game's arrays: la = S.la[b] (4, 4), la_k = S.la_k[b] (4, 4).
#pragma once
#include <cstdint>

#include "tw16/view.hpp"

namespace tw16 {

// d pays c the amount rounded to a whole unit, halves up.
void pay_rounded(View<int64_t, 1> paid, int64_t d, int64_t c, double amount);

// The debtor pays the open debt d -> c in full (rule 3, a cut, the end of the game).
void la_close(View<double, 2> la, View<int32_t, 2> la_k, int64_t d, int64_t c, View<int64_t, 1> paid);

// Every open debt paid in full.
void la_close_all(View<double, 2> la, View<int32_t, 2> la_k, View<int64_t, 1> paid);

// Rules 1-4 for the pair x, y given this hand's net leg x -> y of v (negative: y -> x).
// Returns true when rule 1 (拉) advanced the debt's k.
bool la_pair(View<double, 2> la, View<int32_t, 2> la_k, int64_t x, int64_t y, int64_t v, View<int64_t, 1> paid);

// Apply one hand with legs (legs(x, y): amount x owes y this hand, several legs of a pair summed).
// 三局斬拉: a debt whose k reached a multiple of cut_every (0: never) is paid at once, or, with ask,
// returned as bit 4d + c of the result for the debtor to decide.
int64_t la_hand(View<double, 2> la, View<int32_t, 2> la_k, View<int64_t, 2> legs, int64_t cut_every, int64_t ask,
                View<int64_t, 1> paid);

}  // namespace tw16
