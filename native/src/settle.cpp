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
    const int64_t base = opts[R::OPT_BASE], per_tai = opts[R::OPT_PER_TAI];
    Legs l;
    l.n = 0;
    for (int64_t p = 0; p < 4; ++p) {
        const bool leg = p != w.winner && (self_legs || p == w.payer);
        const bool on = leg && (w.winner == w.dealer || (p == w.dealer && (!self_legs || dealer_self_leg)));
        const int64_t tai = add_wrap(w.hand_tai, on ? dt : 0);
        l.dealer_tai[p] = on ? dt : 0;
        l.tai[p] = leg ? tai : -1;
        l.payer[p] = !leg ? -1 : liable >= 0 ? liable : p;
        l.chips[p] = leg ? add_wrap(base, mul_wrap(per_tai, tai)) : 0;
        l.paid[p] = leg && (!hk || tai >= 0);
        l.n += leg;
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

void pay(const Legs& legs, int64_t winner, View<int64_t, 1> deltas) {
    for (int64_t p = 0; p < 4; ++p) {
        if (!legs.paid[p]) continue;
        deltas[legs.payer[p]] = sub_wrap(deltas[legs.payer[p]], legs.chips[p]);
        deltas[winner] = add_wrap(deltas[winner], legs.chips[p]);
    }
}

int64_t settle(const Win& w, Opts opts, View<int64_t, 1> out_deltas, View<int64_t, 1>* out_dealer_tai) {
    const Legs legs = win_legs(w, opts);
    pay(legs, w.winner, out_deltas);
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
