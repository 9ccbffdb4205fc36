// The 拉 ledger (HONGKONG.md 5.2, 5.3); see ledger.hpp.
#include "tw16/ledger.hpp"

#include <cmath>

namespace tw16 {

namespace {
// np.int64(x) of a float64: truncation; outside the int64 range (or NaN) x86's cvttsd2si gives
// INT64_MIN, and so does this, where a plain C++ cast would be undefined.
int64_t to_int64(double x) {
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    return static_cast<int64_t>(x);
}
// int64 arithmetic that wraps as numpy's does (no signed-overflow UB).
int64_t wrap_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrap_sub(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
}  // namespace

void pay_rounded(View<int64_t, 1> paid, int64_t d, int64_t c, double amount) {
    const int64_t a = to_int64(std::floor(amount + 0.5));
    paid[d] = wrap_sub(paid[d], a);
    paid[c] = wrap_add(paid[c], a);
}

void la_close(View<double, 2> la, View<int32_t, 2> la_k, int64_t d, int64_t c, View<int64_t, 1> paid) {
    pay_rounded(paid, d, c, la(d, c));
    la(d, c) = 0.0;
    la_k(d, c) = 0;
}

void la_close_all(View<double, 2> la, View<int32_t, 2> la_k, View<int64_t, 1> paid) {
    for (int64_t d = 0; d < 4; ++d)
        for (int64_t c = 0; c < 4; ++c)
            if (la_k(d, c) > 0) la_close(la, la_k, d, c, paid);
}

bool la_pair(View<double, 2> la, View<int32_t, 2> la_k, int64_t x, int64_t y, int64_t v, View<int64_t, 1> paid) {
    if (v < 0) {  // orient the leg: x owes y
        const int64_t t = x;
        x = y;
        y = t;
        v = -v;
    }
    if (la_k(x, y) > 0 && v > 0) {  // 1. 拉: the debtor pays again on top
        la(x, y) = 1.5 * la(x, y) + static_cast<double>(v);
        la_k(x, y) = static_cast<int32_t>(static_cast<int64_t>(la_k(x, y)) + 1);  // int32 wraps as numpy
        return true;
    }
    if (la_k(y, x) > 0) {
        if (v > 0) {  // 2. 踢半: the creditor pays the debtor; half the debt is paid, a new debt opens
            pay_rounded(paid, y, x, la(y, x) / 2.0);
            la(y, x) = 0.0;
            la_k(y, x) = 0;
            la(x, y) = static_cast<double>(v);
            la_k(x, y) = 1;
        } else {  // 3. no leg between them this hand: paid in full
            la_close(la, la_k, y, x, paid);
        }
        return false;
    }
    if (la_k(x, y) > 0) {  // 3. (the debt runs x -> y, no leg this hand)
        la_close(la, la_k, x, y, paid);
    } else if (v > 0) {  // 4. new debt
        la(x, y) = static_cast<double>(v);
        la_k(x, y) = 1;
    }
    return false;
}

int64_t la_hand(View<double, 2> la, View<int32_t, 2> la_k, View<int64_t, 2> legs, int64_t cut_every, int64_t ask,
                View<int64_t, 1> paid) {
    int64_t asks = 0;
    for (int64_t x = 0; x < 4; ++x) {
        for (int64_t y = x + 1; y < 4; ++y) {
            if (la_pair(la, la_k, x, y, legs(x, y) - legs(y, x), paid) && cut_every > 0) {
                const bool fwd = la_k(x, y) > 0;
                const int64_t d = fwd ? x : y, c = fwd ? y : x;
                if (pymod(la_k(d, c), cut_every) == 0) {  // 三局斬拉
                    if (ask)
                        asks |= int64_t{1} << (4 * d + c);
                    else
                        la_close(la, la_k, d, c, paid);
                }
            }
        }
    }
    return asks;
}

}  // namespace tw16
