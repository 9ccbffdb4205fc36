// Settlement of a win (RULES.md 4, HONGKONG.md 5.1): see settle.hpp, which holds the per-win functions
// inline (win_legs, pay, settle); here the matrix of what the engine owes and the batch.
#include "tw16/settle.hpp"

namespace tw16 {

void owe(const Legs& legs, int64_t winner, View<int64_t, 2> owed) {
    for (int64_t p = 0; p < 4; ++p)
        if (legs.paid[p]) owed(legs.payer[p], winner) = add_wrap(owed(legs.payer[p], winner), legs.chips[p]);
}

void pay_in_full(View<int64_t, 2> owed, View<int64_t, 1> deltas) {
    for (int64_t x = 0; x < 4; ++x)
        for (int64_t y = 0; y < 4; ++y) {
            deltas[x] = sub_wrap(deltas[x], owed(x, y));
            deltas[y] = add_wrap(deltas[y], owed(x, y));
        }
}

void settle_batch(View<int64_t, 1> hand_tai, View<int64_t, 1> win_by, View<int64_t, 1> winner, View<int64_t, 1> payer,
                  View<int64_t, 1> liable, View<int64_t, 1> dealer, View<int64_t, 1> streak, Opts opts,
                  View<int64_t, 2> out_deltas) {
    for (int64_t i = 0; i < hand_tai.size(); ++i) {
        if (hand_tai[i] < 0) continue;  // not a win
        settle(Win{hand_tai[i], win_by[i], winner[i], payer[i], liable[i], dealer[i], streak[i]}, opts, out_deltas[i]);
    }
}

}  // namespace tw16
