// hongkong items of one reading (HONGKONG.md 2.3-2.6, 3), the dual reading and the special shapes.
#include "tw16/hk_reading.hpp"

#include <algorithm>

#include "tw16/constants.hpp"
#include "tw16/extras.hpp"
#include "tw16/hk_families.hpp"

namespace tw16 {

namespace {
namespace H = py::hk_items;
namespace An = py::analysis;
namespace P = py::profile;

bool is_term_num(int64_t k) { return pymod(k, 9) == 0 || pymod(k, 9) == 8; }
}  // namespace

void pattern_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> conc, int64_t n,
                   int64_t mode) {
    // open / concealed occurrences: mixed shifted, pure shifted, mixed, pure straight
    int64_t occ[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int64_t i = 0; i < n; ++i) {
        if (st[i] != py::tiles::MELD_CHI) continue;
        for (int64_t j = i + 1; j < n; ++j) {
            if (st[j] != py::tiles::MELD_CHI) continue;
            for (int64_t k = j + 1; k < n; ++k) {
                if (st[k] != py::tiles::MELD_CHI) continue;
                const int64_t c = (conc[i] && conc[j] && conc[k]) ? 1 : 0;
                const int64_t si = sk[i] / 9, sj = sk[j] / 9, sk_ = sk[k] / 9;
                const auto [x, y, z] = sorted3(sk[i] % 9, sk[j] % 9, sk[k] % 9);
                const bool step = y == x + 1 && z == y + 1;
                const bool dragon = x == 0 && y == 3 && z == 6;
                if (si != sj && sj != sk_ && si != sk_) {
                    occ[0 + c] += step;
                    occ[4 + c] += dragon;
                } else if (si == sj && sj == sk_) {
                    occ[2 + c] += step;
                    occ[6 + c] += dragon;
                }
            }
        }
    }
    for (int64_t p = 0; p < 4; ++p) {
        const int64_t open_item = H::PATTERN_OPEN[p];
        const int64_t conc_item = H::PATTERN_CONC[p];
        const int64_t o = occ[2 * p];
        const int64_t c = occ[2 * p + 1];
        if (mode == 1) {  // one occurrence, the concealed one when there is one
            v[conc_item] = c > 0;
            v[open_item] = c == 0 && o > 0;
        } else {
            v[conc_item] = static_cast<int32_t>(c);
            v[open_item] = static_cast<int32_t>(o);
        }
    }
    // 老少: 123 + 789 chows, or 111 + 999 pons, of one suit
    int64_t total = 0;
    for (int64_t s = 0; s < 3; ++s) {
        int64_t c1 = 0, c7 = 0, p1 = 0, p9 = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (sk[i] / 9 != s || sk[i] >= py::tiles::WIND0) continue;
            if (st[i] == py::tiles::MELD_CHI) {
                c1 += sk[i] % 9 == 0;
                c7 += sk[i] % 9 == 6;
            } else {
                p1 += sk[i] % 9 == 0;
                p9 += sk[i] % 9 == 8;
            }
        }
        total += (mode == 1 ? std::min(c1, c7) : c1 * c7) + p1 * p9;
    }
    v[H::OLD_YOUNG] = static_cast<int32_t>(total);
}

void hk_reading_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> sc, int64_t n,
                      int64_t n_melds, int64_t pair, int64_t disc_pos, int64_t win_pos, int64_t win_tile, int64_t shape,
                      int64_t seat_wind, int64_t round_wind, View<int8_t, 1> all_counts, View<int64_t, 1> hc,
                      View<int64_t, 2> buf, View<int32_t, 2> p_tai, View<int64_t, 1> p_opts) {
    for (int64_t it : H::HK_READING_ITEMS) v[it] = 0;
    const int64_t mode = p_opts[P::PO_COUNT_METHOD];
    bool conc_a[5] = {false, false, false, false, false};
    const auto conc = View<bool, 1>::contiguous(conc_a, {5});
    int64_t winds = 0, dragons = 0, sr = 0, pons = 0, chis = 0;
    for (int64_t i = 0; i < n; ++i) {
        conc[i] = sc[i] && i != disc_pos;
        const int64_t k = sk[i];
        if (st[i] == py::tiles::MELD_CHI) {
            chis += 1;
            continue;
        }
        pons += 1;
        if (k >= py::tiles::DRAGON0) {
            dragons += 1;
        } else if (k >= py::tiles::WIND0) {
            winds += 1;
            sr += k == py::tiles::WIND0 + seat_wind || k == py::tiles::WIND0 + round_wind;
        }
    }
    v[H::SR_WIND] = static_cast<int32_t>(sr);
    v[H::OTHER_WIND] = static_cast<int32_t>(winds - sr);
    v[H::DRAGON] = static_cast<int32_t>(dragons);
    const bool eye_wind = py::tiles::WIND0 <= pair && pair < py::tiles::DRAGON0;
    v[H::SMALL3W] = winds == 2 && eye_wind;
    v[H::BIG3W] = winds >= 3;
    v[H::SMALL_WINDS] = winds == 3 && eye_wind;
    v[H::BIG_WINDS] = winds == 4;
    v[H::SMALL_DRAGONS] = dragons == 2 && pair >= py::tiles::DRAGON0;
    v[H::BIG_DRAGONS] = dragons == 3;
    v[H::PAIR_258] = 0 <= pair && pair < py::tiles::WIND0 && pair % 9 % 3 == 1;

    // views of the dual reading (2.3): pons for 暗刻 / 姊妹, chows for 般高
    bool pv_pon_a[5] = {}, pv_conc_a[5] = {}, cv_chow_a[5] = {};
    int64_t pv_kind_a[5] = {}, cv_kind_a[5] = {};
    const auto pv_pon = View<bool, 1>::contiguous(pv_pon_a, {5});
    const auto pv_kind = View<int64_t, 1>::contiguous(pv_kind_a, {5});
    const auto pv_conc = View<bool, 1>::contiguous(pv_conc_a, {5});
    const auto cv_chow = View<bool, 1>::contiguous(cv_chow_a, {5});
    const auto cv_kind = View<int64_t, 1>::contiguous(cv_kind_a, {5});
    for (int64_t i = 0; i < n; ++i) {
        pv_pon[i] = st[i] != py::tiles::MELD_CHI;
        pv_kind[i] = sk[i];
        pv_conc[i] = conc[i];
        cv_chow[i] = st[i] == py::tiles::MELD_CHI;
        cv_kind[i] = sk[i];
    }
    if (p_opts[P::PO_DUAL_READING] != 0 && shape == 0)
        dual_reading(st, sk, conc, n, n_melds, pv_pon, pv_kind, pv_conc, cv_chow, cv_kind);
    int64_t c = 0, ank = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (pv_pon[i] && pv_conc[i]) {
            c += 1;
            ank += st[i] == py::tiles::MELD_ANKONG;
        }
    }
    v[H::CONC2] = c == 2;
    v[H::CONC3] = c == 3;
    v[H::CONC4] = c == 4;
    v[H::CONC5] = c == 5 && ank > 0;
    v[H::CONC_ALL] = c == 5 && ank == 0;
    int64_t a_a[5] = {};
    const auto a = View<int64_t, 1>::contiguous(a_a, {5});
    family_items(v, st, sk, pv_pon, pv_kind, cv_chow, cv_kind, n, pair, buf, a, p_tai, mode);
    if (shape != 0) return;
    pattern_items(v, st, sk, conc, n, mode);
    v[H::ALL_PUNGS] = pons == 5;
    v[H::ALL_CHOWS] = chis == 5;
    v[H::BIG_ALL_CHOWS] = chis == 5 && hc[H::H_NOHON] != 0 && hc[H::H_NOFL] != 0;
    // waits seen in this reading (standard shape only)
    if (win_pos >= -1 && hc[H::H_NW] >= 2) {
        bool fs = win_pos == -1;
        if (win_pos >= 0 && st[win_pos] == py::tiles::MELD_CHI) {
            const int64_t k = sk[win_pos];
            fs = win_tile == k + 1 || (k % 9 == 0 && win_tile == k + 2) || (k % 9 == 6 && win_tile == k);
        }
        v[H::FALSE_SINGLE] = fs;
    }
    if (hc[H::H_TP] != 0 && win_pos >= 0 && st[win_pos] != py::tiles::MELD_CHI && sk[win_pos] == win_tile)
        v[H::TWO_PAIR_WAIT] = pair == hc[H::H_WA] + hc[H::H_WB] - win_tile;
    // 四歸: where the four tiles of a kind lie (never in a kong)
    for (int64_t k = 0; k < py::tiles::N_KINDS; ++k) {
        if (all_counts[k] != 4) continue;
        int64_t groups = pair == k ? 1 : 0;
        bool in_kong = false;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t s = sk[i];
            if (st[i] == py::tiles::MELD_CHI) {
                groups += s <= k && k <= s + 2 && s / 9 == k / 9;
            } else if (s == k) {
                groups += 1;
                in_kong = in_kong || st[i] >= py::tiles::MELD_KONG;
            }
        }
        if (!in_kong) {
            v[H::IN2] += groups == 2;
            v[H::IN3] += groups == 3;
            v[H::IN4] += groups == 4;
        }
    }
    // 大五門齊, 滿庭芳, 全帶么
    int64_t suit_sets = 0;
    for (int64_t i = 0; i < n; ++i)
        if (sk[i] < py::tiles::WIND0) suit_sets |= int64_t{1} << (sk[i] / 9);
    v[H::BIG_FIVE_GATES] = winds == 1 && dragons == 1 && suit_sets == 7;
    // pair % 9 is Python's (pymod): the eye is always held here, but -1 stays exact too
    const int64_t x = (0 <= pair && pair < py::tiles::WIND0) ? pymod(pair, 9) : -1;
    bool same = x >= 0;
    bool out = pair >= py::tiles::WIND0 || is_term_num(pair);
    bool term = pair < py::tiles::WIND0 && is_term_num(pair);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = sk[i];
        if (st[i] == py::tiles::MELD_CHI) {
            same = same && k % 9 <= x && x <= k % 9 + 2;
            out = out && (k % 9 == 0 || k % 9 == 6);
            term = term && (k % 9 == 0 || k % 9 == 6);
        } else {
            same = same && k < py::tiles::WIND0 && k % 9 == x;
            out = out && (k >= py::tiles::WIND0 || k % 9 == 0 || k % 9 == 8);
            term = term && k < py::tiles::WIND0 && (k % 9 == 0 || k % 9 == 8);
        }
    }
    v[H::SAME_NUMBER] = same;
    v[H::OUT_MIXED] = out && hc[H::H_NOHON] == 0 && v[H::ALL_HONOURS] == 0;
    v[H::OUT_PURE] = term;
}

void dual_reading(View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> conc, int64_t n, int64_t n_melds,
                  View<bool, 1> pv_pon, View<int64_t, 1> pv_kind, View<bool, 1> pv_conc, View<bool, 1> cv_chow,
                  View<int64_t, 1> cv_kind) {
    for (int64_t i = n_melds; i < n; ++i) {
        if (!conc[i] || sk[i] >= py::tiles::WIND0) continue;
        const int64_t k = sk[i];
        if (st[i] == py::tiles::MELD_CHI) {  // three identical concealed chows: three pons in the pon view
            int64_t idx[3] = {-1, -1, -1};
            int64_t m = 0;
            for (int64_t j = n_melds; j < n; ++j) {
                if (conc[j] && st[j] == py::tiles::MELD_CHI && sk[j] == k && m < 3) {
                    idx[m] = j;
                    m += 1;
                }
            }
            if (m == 3) {
                for (int64_t d = 0; d < 3; ++d) {
                    pv_pon[idx[d]] = true;
                    pv_kind[idx[d]] = k + d;
                    pv_conc[idx[d]] = true;
                }
                return;
            }
        } else if (k % 9 <= 6) {  // three consecutive concealed pons: three identical chows
            int64_t idx[3] = {-1, -1, -1};
            for (int64_t j = n_melds; j < n; ++j) {
                if (conc[j] && st[j] == py::tiles::MELD_PON) {
                    for (int64_t d = 0; d < 3; ++d)
                        if (sk[j] == k + d) idx[d] = j;
                }
            }
            if (idx[0] >= 0 && idx[1] >= 0 && idx[2] >= 0) {
                for (int64_t d = 0; d < 3; ++d) {
                    cv_chow[idx[d]] = true;
                    cv_kind[idx[d]] = k;
                }
                return;
            }
        }
    }
}

void special_items(View<int32_t, 1> v, int64_t shape, View<int8_t, 1> concealed, View<int8_t, 1> all_counts,
                   View<int64_t, 1> parts, View<int64_t, 1> suits, View<int64_t, 1> hc) {
    if (shape == An::SHAPE_EIGHT_PAIRS) {
        v[H::EIGHT_PAIRS] = 1;
        v[H::EIGHT_PAIRS_8] = static_cast<int32_t>(hc[H::H_EP8]);
    } else if (shape == An::SHAPE_SIXTEEN_UNRELATED) {
        v[H::SIXTEEN] = 1;
        const int64_t a = suits[0], b = suits[1], c = suits[2];
        const auto one_of = [](int64_t s) { return s == An::M147 || s == An::M258 || s == An::M369; };
        v[H::UNREL_DRAGON] = (a | b | c) == (An::M147 | An::M258 | An::M369) && one_of(a) && one_of(b);
        v[H::UNREL_SAME] = a == b && b == c;
    } else {
        v[H::THIRTEEN] = 1;
        v[H::THIRTEEN_13] = static_cast<int32_t>(hc[H::H_ALL13]);
    }
    // groups: every kind held (pairs, the triplet, lone tiles, the eye), and 十三么's set
    bool out = true, term = true;
    for (int64_t k = 0; k < py::tiles::N_KINDS; ++k) {
        if (concealed[k] > 0) {
            const bool t = k < py::tiles::WIND0 && (k % 9 == 0 || k % 9 == 8);
            out = out && (t || k >= py::tiles::WIND0);
            term = term && t;
        }
    }
    if (shape & An::SHAPE_THIRTEEN) {
        const int64_t sk = parts[2];
        out = parts[1] != py::tiles::MELD_CHI ? (sk >= py::tiles::WIND0 || pymod(sk, 9) == 0 || pymod(sk, 9) == 8)
                                              : (pymod(sk, 9) == 0 || pymod(sk, 9) == 6);
        term = false;
    }
    v[H::OUT_MIXED] = out && hc[H::H_NOHON] == 0 && v[H::ALL_HONOURS] == 0;
    v[H::OUT_PURE] = term;
    for (int64_t k = 0; k < py::tiles::N_KINDS;
         ++k)  // 四歸一: two pairs of 嚦咕嚦咕, or 十三么's lone tile and its pon
        v[H::IN2] += concealed[k] == 4;
}

}  // namespace tw16
