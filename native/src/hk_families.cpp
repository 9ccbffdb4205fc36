// hongkong families (HONGKONG.md 2.2): occurrences of 般高, 相逢, 兄弟 and 姊妹 and the choice of those
// that count under 計法1 / 計法2.
#include "tw16/hk_families.hpp"

#include "tw16/constants.hpp"
#include "tw16/extras.hpp"

namespace tw16 {

namespace {
namespace H = py::hk_items;
}  // namespace

int64_t add_occurrence(View<int64_t, 2> buf, int64_t n, int64_t item, int64_t mask) {
    if (n < H::HK_MAX_INST) {
        buf(0, n) = item;
        buf(1, n) = mask;
        n += 1;
    }
    return n;
}

// 計法1: an item not marked "each" counts once, and chosen occurrences are set-disjoint; 計法2:
// occurrences of one item may share sets, different items may not.
bool occurrence_fits(View<int64_t, 2> buf, int64_t j, int64_t depth, int64_t mode) {
    const int64_t item = buf(0, j);
    const int64_t mask = buf(1, j);
    for (int64_t d = 0; d < depth; ++d) {
        const int64_t c = buf(4, d);
        const bool same = buf(0, c) == item;
        if (mode == 1 && same && !H::EACH[item]) return false;
        if ((mode == 1 || !same) && (buf(1, c) & mask) != 0) return false;
    }
    return true;
}

void choose_occurrences(View<int32_t, 1> v, View<int64_t, 2> buf, int64_t n, View<int32_t, 2> p_tai, int64_t mode) {
    for (int64_t i = 0; i < n; ++i) {  // which occurrences can count (buf[2] = 1)
        const int64_t item = buf(0, i);
        buf(2, i) = p_tai(0, item) > 0;
        if (buf(2, i) && mode == 2) {
            // 計法2: an occurrence lying on the sets of an occurrence of a larger member does not count
            for (int64_t j = 0; j < n; ++j) {
                const int64_t o = buf(0, j);
                if (H::RANK[o] > H::RANK[item] && p_tai(0, o) >= 0 && (buf(1, i) & ~buf(1, j)) == 0) {
                    buf(2, i) = 0;
                    break;
                }
            }
        }
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; ++i) {  // compacted to the front, buf[2] = their tai
        if (buf(2, i)) {
            buf(0, m) = buf(0, i);
            buf(1, m) = buf(1, i);
            buf(2, m) = p_tai(0, buf(0, i));
            m += 1;
        }
    }
    if (m == 0) return;
    buf(3, m) = 0;  // suffix sums of tai: the bound
    for (int64_t i = m - 1; i >= 0; --i) buf(3, i) = buf(3, i + 1) + buf(2, i);
    int64_t best = 0, best_n = 0, depth = 0, cur = 0, nxt = 0;
    while (true) {
        int64_t ext = -1;
        if (cur + buf(3, nxt) > best) {
            for (int64_t j = nxt; j < m; ++j) {
                if (occurrence_fits(buf, j, depth, mode)) {
                    ext = j;
                    break;
                }
            }
        }
        if (ext >= 0) {
            buf(4, depth) = ext;
            depth += 1;
            cur += buf(2, ext);
            nxt = ext + 1;
            if (cur > best) {
                best = cur;
                best_n = depth;
                for (int64_t d = 0; d < depth; ++d) buf(5, d) = buf(4, d);
            }
        } else {
            if (depth == 0) break;
            depth -= 1;
            cur -= buf(2, buf(4, depth));
            nxt = buf(4, depth) + 1;
        }
    }
    for (int64_t d = 0; d < best_n; ++d) v[buf(0, buf(5, d))] += 1;
}

namespace {
template <class K>
int64_t gather_impl(View<K, 1> kinds, int64_t mask, View<int64_t, 1> a) {
    int64_t m = 0;
    for (int64_t i = 0; i < 5; ++i) {
        if ((mask >> i) & 1) {
            a[m] = kinds[i];
            m += 1;
        }
    }
    sort_small(a, m);
    return m;
}
}  // namespace

int64_t gather_kinds(View<int8_t, 1> kinds, int64_t mask, View<int64_t, 1> a) { return gather_impl(kinds, mask, a); }
int64_t gather_kinds(View<int64_t, 1> kinds, int64_t mask, View<int64_t, 1> a) { return gather_impl(kinds, mask, a); }

void family_items(View<int32_t, 1> v, View<int8_t, 1> st, View<int8_t, 1> sk, View<bool, 1> pv_pon,
                  View<int64_t, 1> pv_kind, View<bool, 1> cv_chow, View<int64_t, 1> cv_kind, int64_t n, int64_t pair,
                  View<int64_t, 2> buf, View<int64_t, 1> a, View<int32_t, 2> p_tai, int64_t mode) {
    int64_t cmask = 0;
    int64_t amask = 0;  // chows of the reading
    int64_t bmask = 0;  // suited pons of the reading
    int64_t smask = 0;  // suited pons of the pon view
    for (int64_t i = 0; i < n; ++i) {
        if (cv_chow[i]) cmask |= int64_t{1} << i;
        if (st[i] == py::tiles::MELD_CHI) {
            amask |= int64_t{1} << i;
        } else if (sk[i] < py::tiles::WIND0) {
            bmask |= int64_t{1} << i;
        }
        if (pv_pon[i] && pv_kind[i] < py::tiles::WIND0) smask |= int64_t{1} << i;
    }
    const bool suited_pair = 0 <= pair && pair < py::tiles::WIND0;
    // 般高: identical chows
    int64_t k = 0;
    for (int64_t sub = cmask; sub; sub = (sub - 1) & cmask) {
        const int64_t m = gather_kinds(cv_kind, sub, a);
        if (2 <= m && m <= 4 && a[0] == a[m - 1])
            k = add_occurrence(buf, k, m == 2 ? H::DOUBLE : (m == 3 ? H::TRIPLE : H::QUAD), sub);
        if (m == 4 && a[0] == a[1] && a[2] == a[3] && a[1] != a[2]) k = add_occurrence(buf, k, H::TWO_DOUBLE, sub);
    }
    choose_occurrences(v, buf, k, p_tai, mode);
    // 相逢: chows of the same numbers in different suits
    k = 0;
    for (int64_t sub = amask; sub; sub = (sub - 1) & amask) {
        const int64_t m = gather_kinds(sk, sub, a);
        if (m == 2 && a[0] % 9 == a[1] % 9 && a[0] / 9 != a[1] / 9) k = add_occurrence(buf, k, H::SUIT2, sub);
        if (m == 3 && a[0] % 9 == a[1] % 9 && a[1] % 9 == a[2] % 9 && a[0] / 9 != a[1] / 9 && a[1] / 9 != a[2] / 9)
            k = add_occurrence(buf, k, H::SUIT3, sub);
    }
    choose_occurrences(v, buf, k, p_tai, mode);
    // 兄弟: pons of the same number in different suits (with the eye of it in the third suit)
    k = 0;
    for (int64_t sub = bmask; sub; sub = (sub - 1) & bmask) {
        const int64_t m = gather_kinds(sk, sub, a);
        if (m == 2 && a[0] % 9 == a[1] % 9 && a[0] / 9 != a[1] / 9) {
            k = add_occurrence(buf, k, H::BRO2, sub);
            if (suited_pair && pair % 9 == a[0] % 9 && pair / 9 != a[0] / 9 && pair / 9 != a[1] / 9)
                k = add_occurrence(buf, k, H::BRO3S, sub | H::EYE_BIT);
        }
        if (m == 3 && a[0] % 9 == a[1] % 9 && a[1] % 9 == a[2] % 9 && a[0] / 9 != a[1] / 9 && a[1] / 9 != a[2] / 9)
            k = add_occurrence(buf, k, H::BRO3, sub);
    }
    choose_occurrences(v, buf, k, p_tai, mode);
    // 姊妹: pons of consecutive numbers in one suit (with the eye next to them)
    k = 0;
    for (int64_t sub = smask; sub; sub = (sub - 1) & smask) {
        const int64_t m = gather_kinds(pv_kind, sub, a);
        bool run = m >= 2 && a[0] / 9 == a[m - 1] / 9;
        for (int64_t i = 1; i < m; ++i) run = run && a[i] == a[i - 1] + 1;
        if (run) {
            k = add_occurrence(buf, k, m == 2 ? H::SIS2 : (m == 3 ? H::SIS3 : (m == 4 ? H::SIS4 : H::SIS5)), sub);
            if (m <= 4 && suited_pair && pair / 9 == a[0] / 9 && (pair == a[0] - 1 || pair == a[m - 1] + 1))
                k = add_occurrence(buf, k, m == 2 ? H::SIS3S : (m == 3 ? H::SIS4S : H::SIS5S), sub | H::EYE_BIT);
        }
    }
    choose_occurrences(v, buf, k, p_tai, mode);
}

}  // namespace tw16
