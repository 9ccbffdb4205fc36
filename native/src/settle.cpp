// Settlement of a win (RULES.md 4, HONGKONG.md 5.1): see settle.hpp.
#include "tw16/settle.hpp"

namespace tw16 {

namespace {
namespace R = py::rules;
}  // namespace

Legs win_legs(const Win& w, Opts opts) {
    const bool hk = opts[R::OPT_HK] != 0;
    const int64_t dt = dealer_tai(w.streak, opts);
    const int64_t liable = hk ? w.liable : -1;  // 全包 is a hongkong rule
    // Legs from all three: a self-draw, 八仙過海, or 全包 (the liable seat pays the self-draw legs).
    const bool self_legs = w.payer < 0 || liable >= 0;
    // The dealer's leg of a non-dealer self-draw carries the dealer tai except under hongkong rules
    // without dealer_pays_on_self_draw (HONGKONG.md 1, "Dealer tai").
    const bool dealer_self_leg = !hk || opts[R::OPT_DEALER_PAYS_ON_SELF_DRAW] != 0;
    Legs l{};
    for (int64_t p = 0; p < 4; ++p) {
        l.payer[p] = -1;
        l.tai[p] = -1;
        if (p == w.winner || (!self_legs && p != w.payer)) continue;
        const bool on = w.winner == w.dealer || (p == w.dealer && (!self_legs || dealer_self_leg));
        l.dealer_tai[p] = on ? dt : 0;
        l.tai[p] = add_wrap(w.hand_tai, l.dealer_tai[p]);
        l.payer[p] = liable >= 0 ? liable : p;
        l.chips[p] = add_wrap(opts[R::OPT_BASE], mul_wrap(opts[R::OPT_PER_TAI], l.tai[p]));
        l.paid[p] = !hk || l.tai[p] >= 0;
        l.n += 1;
    }
    return l;
}

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

int64_t settle(const Win& w, Opts opts, View<int64_t, 1> out_deltas, View<int64_t, 1>* out_dealer_tai) {
    const Legs legs = win_legs(w, opts);
    int64_t owed_a[16] = {};
    const auto owed = View<int64_t, 2>::contiguous(owed_a, {4, 4});
    owe(legs, w.winner, owed);
    pay_in_full(owed, out_deltas);
    if (out_dealer_tai)
        for (int64_t p = 0; p < 4; ++p) (*out_dealer_tai)[p] = legs.paid[p] ? legs.dealer_tai[p] : 0;
    return legs.n;
}

void settle_batch(View<int64_t, 1> hand_tai, View<int64_t, 1> win_by, View<int64_t, 1> winner,
                  View<int64_t, 1> payer, View<int64_t, 1> liable, View<int64_t, 1> dealer, View<int64_t, 1> streak,
                  Opts opts, View<int64_t, 2> out_deltas) {
    for (int64_t i = 0; i < hand_tai.size(); ++i)
        if (hand_tai[i] >= 0)
            settle(Win{hand_tai[i], win_by[i], winner[i], payer[i], liable[i], dealer[i], streak[i]}, opts, out_deltas[i]);
}

}  // namespace tw16
