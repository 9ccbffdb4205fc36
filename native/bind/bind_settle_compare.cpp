// TEMPORARY comparison binding (see below).
#include "common.hpp"
// TEMPORARY (removed with the old copies): old settlement code against the new one, row for row.
#include "tw16/handend.hpp"
#include "tw16/score.hpp"
#include "tw16/hongkong.hpp"
#include "tw16/settle.hpp"
namespace tw16::bind {
namespace {
constexpr int64_t K = 34;
void compare_rows(View<int64_t, 2> in, Opts o, View<int64_t, 2> out, bool old) {
    const bool hk = o[py::rules::OPT_HK] != 0;
    for (int64_t i = 0; i < in.shape[0]; ++i) {
        auto r = out[i];
        for (int64_t c = 0; c < K; ++c) r[c] = 0;
        const int64_t t = in(i, 0), wb = in(i, 1), w = in(i, 2), pay = in(i, 3), li = in(i, 4), de = in(i, 5),
                      st = in(i, 6);
        int64_t d_a[4] = {1000, -7, 3, int64_t{1} << 62};
        int64_t m_a[16];
        for (int k = 0; k < 16; ++k) m_a[k] = k * 11 - 40;
        int64_t lt_a[4], lp_a[4], dt_a[4] = {};
        auto d = View<int64_t, 1>::contiguous(d_a, {4});
        auto m = View<int64_t, 2>::contiguous(m_a, {4, 4});
        auto lt = View<int64_t, 1>::contiguous(lt_a, {4});
        auto lp = View<int64_t, 1>::contiguous(lp_a, {4});
        auto dtv = View<int64_t, 1>::contiguous(dt_a, {4});
        if (old) {
            if (hk) {
                r[0] = hk_legs(t, wb, w, pay, li, de, st, o, lt, lp);
                for (int p = 0; p < 4; ++p) {
                    r[1 + p] = lt[p];
                    r[5 + p] = lp[p];
                    dt_a[p] = lt[p] >= 0 ? sub_wrap(lt[p], t) : 0;  // api.py's report
                }
                r[33] = hk_settle(t, wb, w, pay, li, de, st, o, d);
            } else {
                settle(t, wb, w, pay, de, st, o, d);
                const int64_t dt = dealer_tai(st, o);
                for (int p = 0; p < 4; ++p) {  // api.py's report
                    const bool on_leg = p != w && (pay < 0 || p == pay);
                    dt_a[p] = on_leg && (p == de || w == de) ? dt : 0;
                }
            }
            win_legs(t, wb, w, pay, li, de, st, o, m);
        } else {
            const Win win{t, wb, w, pay, li, de, st};
            const Legs l = win_legs(win, o);
            if (hk) {
                r[0] = l.n;
                for (int p = 0; p < 4; ++p) {
                    r[1 + p] = l.tai[p];
                    r[5 + p] = l.payer[p];
                }
            }
            const int64_t n = settle(win, o, d, &dtv);
            if (hk) r[33] = n;
            owe(l, w, m);
        }
        for (int p = 0; p < 4; ++p) {
            r[9 + p] = d_a[p];
            r[29 + p] = dt_a[p];
        }
        for (int k = 0; k < 16; ++k) r[13 + k] = m_a[k];
    }
}
}  // namespace
void bind_settle_compare(nb::module_& m) {
    m.def("_settle_compare", [](const AnyArray& in, const AnyArray& opts, const RwArray& out, bool old) {
        const auto iv = view_of<int64_t, 2>(in, "in", {-1, 7});
        for (int64_t i = 0; i < iv.shape[0]; ++i)
            if (iv(i, 1) < 0 || iv(i, 1) > 3 || iv(i, 2) < 0 || iv(i, 2) > 3 || iv(i, 3) < -1 || iv(i, 3) > 3 ||
                iv(i, 4) < -1 || iv(i, 4) > 3 || iv(i, 5) < 0 || iv(i, 5) > 3)
                throw nb::value_error("bad row");
        compare_rows(iv, view_of<int64_t, 1>(opts, "opts", {py::rules::N_OPTS}), rw<int64_t, 2>(out, "out", {iv.shape[0], K}), old);
    });
}
}  // namespace tw16::bind
