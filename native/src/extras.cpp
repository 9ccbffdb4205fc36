// The extras pack (EXTRAS.md section 2) and the MCR detectors (section 4); see extras.hpp.
#include "tw16/extras.hpp"

#include <algorithm>
#include <cstdlib>

namespace tw16 {

namespace {
namespace E = py::extras;
using py::tiles::DRAGON0;
using py::tiles::MELD_ANKONG;
using py::tiles::MELD_CHI;
using py::tiles::MELD_KONG;
using py::tiles::N_KINDS;
using py::tiles::WIND0;

// Python's k // 9 and k % 9 (kinds are >= 0 inside the core, but these keep it exact regardless).
inline int64_t suit(int64_t k) { return floordiv(k, 9); }
inline int64_t num(int64_t k) { return pymod(k, 9); }

// v[it] = 0 for every item set per reading: nothing carries over between readings.
void clear_reading_items(View<int32_t, 1> v) {
    for (int64_t it : E::EX_READING_ITEMS) v[it] = 0;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Items that do not depend on the reading

int64_t nine_gates_purity(View<int8_t, 1> concealed, int64_t win_tile, View<int8_t, 1> meld_type,
                          View<int8_t, 1> meld_kind, int64_t n_melds) {
    if (n_melds > 1) return 0;
    int64_t best = 0;
    int64_t before[N_KINDS];
    for (int64_t s = 0; s < 3; ++s) {
        if (concealed[9 * s] < 3 || concealed[9 * s + 8] < 3) continue;  // no 111 / 999 of this suit
        for (int64_t x = 9 * s; x < 9 * s + 9; ++x) {
            if (win_tile >= 0 && x != win_tile) continue;
            if (concealed[x] == 0) continue;
            bool ok = true;
            int64_t n_rest = 0;
            for (int64_t k = 0; k < N_KINDS; ++k) {
                int64_t need = 0;
                if (9 * s <= k && k < 9 * s + 9) need = (num(k) == 0 || num(k) == 8) ? 3 : 1;
                before[k] = static_cast<int64_t>(concealed[k]) - (k == x ? 1 : 0) - need;
                if (before[k] < 0) ok = false;
                n_rest += before[k];
            }
            if (!ok) continue;
            int64_t set_kind = -1;
            if (n_melds == 1) {
                if (n_rest != 0) continue;
                set_kind = meld_kind[0];
            } else {
                if (n_rest != 3) continue;
                // the first kind held: a pon of it, or a chow starting on it
                for (int64_t k = 0; k < N_KINDS; ++k) {
                    if (before[k] == 3)
                        set_kind = k;
                    else if (before[k] == 1 && k < WIND0 && num(k) <= 6 && before[k + 1] == 1 && before[k + 2] == 1)
                        set_kind = k;
                    if (before[k] > 0) break;
                }
                if (set_kind < 0) continue;
            }
            const int64_t code = (set_kind < WIND0 && suit(set_kind) == s) ? 1 : 2;
            if (best == 0 || code < best) best = code;
        }
    }
    return best;
}

void hand_extras(View<int32_t, 1> v, View<int8_t, 1> concealed, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type,
                 View<int8_t, 1> meld_kind, int64_t n_melds, int64_t win_tile, int64_t win_by, int64_t flags,
                 View<int32_t, 2> p_tai, View<int64_t, 1> p_opts) {
    // kongs: one item of the family, the best the profile values
    int64_t n_kongs = 0, n_ankongs = 0;
    for (int64_t m = 0; m < n_melds; ++m) {
        if (meld_type[m] >= MELD_KONG) {
            n_kongs += 1;
            n_ankongs += meld_type[m] == MELD_ANKONG;
        }
    }
    int64_t best = -1, pick = -1;
    const int64_t fam[3][2] = {{E::KONGS5, 5}, {E::KONGS4, 4}, {E::KONGS3, 3}};
    for (const auto& f : fam) {
        if (n_kongs >= f[1] && p_tai(0, f[0]) > best) {
            best = p_tai(0, f[0]);
            pick = f[0];
        }
    }
    v[E::KONGS3] = pick == E::KONGS3;
    v[E::KONGS4] = pick == E::KONGS4;
    v[E::KONGS5] = pick == E::KONGS5;
    // 連槓開花: consecutive replacement draws ending with the self-drawn winning tile; a flower win's
    // complete hand counts as self-drawn for the replacement flags (CASES.md, seed 000 Ⅸ-29/30)
    namespace C = py::codes;
    const bool is_self = win_by == C::WIN_SELF_DRAW || win_by == C::WIN_FLOWERS;
    const bool repl = is_self && (flags & (C::F_KONG_REPLACEMENT | C::F_FLOWER_REPLACEMENT)) != 0;
    int64_t chain = (flags >> C::CHAIN_SHIFT) & C::CHAIN_MASK;
    if (repl && chain == 0) chain = 1;
    v[E::CHAIN2] = repl && chain == 2;
    v[E::CHAIN3] = repl && chain >= 3;
    // tile classes
    int64_t n_suit_buf[3] = {0, 0, 0};  // tiles per suit
    int64_t n_tiles = 0, n_hon = 0, n_wind = 0, n_drag = 0, n_term = 0, n_green = 0;
    for (int64_t k = 0; k < N_KINDS; ++k) {
        const int64_t c = all_counts[k];
        if (c == 0) continue;
        n_tiles += c;
        if (k < WIND0) {
            n_suit_buf[suit(k)] += c;
            if (num(k) == 0 || num(k) == 8) n_term += c;
        } else {
            n_hon += c;
            if (k < DRAGON0)
                n_wind += c;
            else
                n_drag += c;
        }
        for (int64_t g : E::GREEN)
            if (k == g) n_green += c;
    }
    v[E::ALL_GREEN] = n_green == n_tiles;
    v[E::FIVE_GATES] = n_suit_buf[0] > 0 && n_suit_buf[1] > 0 && n_suit_buf[2] > 0 && n_wind > 0 && n_drag > 0;
    v[E::ALL_TERM] = n_term == n_tiles;
    v[E::MIXED_TERM] = n_term + n_hon == n_tiles && n_term > 0 && n_hon > 0;
    const int64_t ng = nine_gates_purity(concealed, win_tile, meld_type, meld_kind, n_melds);
    v[E::PURE_9G] = ng == 1;
    v[E::MIXED_9G] = ng == 2;
    if (p_opts[py::profile::PO_EXTRAS] & py::profile::EX_MCR) {
        const auto n_suit = View<int64_t, 1>::contiguous(n_suit_buf, {3});
        mcr_tile_items(v, all_counts, meld_type, n_melds, n_tiles, n_hon, n_term, n_suit, n_kongs, n_ankongs);
    }
}

void mcr_tile_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type, int64_t n_melds,
                    int64_t n_tiles, int64_t n_hon, int64_t n_term, View<int64_t, 1> n_suit, int64_t n_kongs,
                    int64_t n_ankongs) {
    int64_t lo = 9, hi = -1;
    for (int64_t k = 0; k < WIND0; ++k) {
        if (all_counts[k] > 0) {
            lo = std::min(lo, num(k));
            hi = std::max(hi, num(k));
        }
    }
    const bool suited_only = n_hon == 0 && n_tiles > 0;
    v[E::UPPER] = suited_only && lo >= 6;
    v[E::MIDDLE] = suited_only && lo >= 3 && hi <= 5;
    v[E::LOWER] = suited_only && hi <= 2;
    v[E::UPPER4] = suited_only && lo >= 5;
    v[E::LOWER4] = suited_only && hi <= 3;
    int64_t rev = 0;
    for (int64_t k : E::REVERSIBLE_KINDS) rev += all_counts[k];
    v[E::REVERSIBLE] = rev == n_tiles;
    v[E::ALL_SIMPLES] = n_hon == 0 && n_term == 0;
    v[E::NO_HONOURS] = n_hon == 0;
    v[E::MISSING_SUIT] = (n_suit[0] > 0) + (n_suit[1] > 0) + (n_suit[2] > 0) == 2;
    v[E::ANKONG_EACH] = static_cast<int32_t>(n_ankongs);
    v[E::KONG_EACH] = static_cast<int32_t>(n_kongs - n_ankongs);
    v[E::TWO_ANKONGS] = n_ankongs >= 2;
    v[E::TWO_KONGS_OPEN] = n_kongs - n_ankongs >= 2;
}

// ---------------------------------------------------------------------------------------------
// Families: instances and the best assignment

int64_t add_instance(View<int64_t, 2> inst, int64_t n, int64_t fam, int64_t item, int64_t mask) {
    if (n < E::EX_MAX_INST) {
        inst(n, 0) = fam;
        inst(n, 1) = item;
        inst(n, 2) = mask;
    }
    return n + 1;
}

void assign_families(View<int32_t, 1> v, View<int64_t, 2> inst, int64_t n, View<int32_t, 2> p_tai) {
    for (int64_t f = 0; f < E::N_FAM; ++f) {
        int64_t best = 0, bi = -1, bj = -1;
        for (int64_t i = 0; i < n; ++i) {
            if (inst(i, 0) != f) continue;
            const int64_t ti = p_tai(0, inst(i, 1));
            if (ti < 0) continue;
            if (ti > best) {
                best = ti;
                bi = i;
                bj = -1;
            }
            for (int64_t j = i + 1; j < n; ++j) {
                if (inst(j, 0) != f || inst(j, 1) == inst(i, 1) || (inst(i, 2) & inst(j, 2)) != 0) continue;
                const int64_t tj = p_tai(0, inst(j, 1));
                if (tj >= 0 && ti + tj > best) {
                    best = ti + tj;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi >= 0) v[inst(bi, 1)] = 1;
        if (bj >= 0) v[inst(bj, 1)] = 1;
    }
}

bool splits_into_pairs(View<int64_t, 1> a, int64_t kind_pred) {
    for (int p = 0; p < 3; ++p) {
        int64_t x0, x1, y0, y1;
        if (p == 0) {
            x0 = a[0], x1 = a[1], y0 = a[2], y1 = a[3];
        } else if (p == 1) {
            x0 = a[0], x1 = a[2], y0 = a[1], y1 = a[3];
        } else {
            x0 = a[0], x1 = a[3], y0 = a[1], y1 = a[2];
        }
        bool ok;
        if (kind_pred == 0)
            ok = x0 == x1 && y0 == y1 && x0 != y0;
        else if (kind_pred == 1)
            ok = num(x0) == num(x1) && suit(x0) != suit(x1) && num(y0) == num(y1) && suit(y0) != suit(y1);
        else
            ok = suit(x0) == suit(x1) && std::llabs(x1 - x0) == 1 && suit(y0) == suit(y1) && std::llabs(y1 - y0) == 1;
        if (ok) return true;
    }
    return false;
}

bool three_distinct_suits(View<int64_t, 1> a) {
    return suit(a[0]) != suit(a[1]) && suit(a[0]) != suit(a[2]) && suit(a[1]) != suit(a[2]);
}

// ---------------------------------------------------------------------------------------------
// One reading of the standard shape

void reading_extras(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
                    int64_t pair, int64_t win_pos, int64_t seat_wind, int64_t round_wind, View<int8_t, 1> all_counts,
                    View<int32_t, 2> p_tai, View<int64_t, 1> p_opts) {
    clear_reading_items(v);
    int64_t chow_mask = 0;
    int64_t pon_mask = 0;   // pons and kongs of suited tiles
    int64_t conc_mask = 0;  // sets concealed in the sense of the _concealed variants
    for (int64_t i = 0; i < 5; ++i) {
        if (set_type[i] == MELD_CHI)
            chow_mask |= int64_t{1} << i;
        else if (set_kind[i] < WIND0)
            pon_mask |= int64_t{1} << i;
        if (set_conc[i] && i != win_pos) conc_mask |= int64_t{1} << i;
    }
    int64_t inst_buf[E::EX_MAX_INST * 3];
    const auto inst = View<int64_t, 2>::contiguous(inst_buf, {E::EX_MAX_INST, 3});
    int64_t n = 0;
    int64_t a_buf[5];
    const auto a = View<int64_t, 1>::contiguous(a_buf, {5});
    // chow patterns: every subset of the chows
    int64_t sub = chow_mask;
    while (sub) {
        int64_t m = 0;
        for (int64_t i = 0; i < 5; ++i)
            if (sub >> i & 1) a[m++] = set_kind[i];
        sort_small(a, m);
        const bool conc = (sub & conc_mask) == sub;
        const bool same_suit = suit(a[0]) == suit(a[m - 1]);
        if (m >= 2) {
            bool ident = true;
            for (int64_t i = 1; i < m; ++i) ident = ident && a[i] == a[0];
            if (ident) {
                const int64_t it = m == 2 ? E::IDENT : (m == 3 ? E::TRIPLE_ID : (m == 4 ? E::FOUR_ID : -1));
                if (it >= 0) n = add_instance(inst, n, E::F_SAME_CHOW, it, sub);
            }
        }
        if (m >= 3 && same_suit) {
            const int64_t d = a[1] - a[0];
            bool step = d == 1 || (d == 2 && m <= 4);
            for (int64_t i = 2; i < m; ++i) step = step && a[i] - a[i - 1] == d;
            if (step) {
                if (m == 5) {
                    n = add_instance(inst, n, E::F_STEP, E::STEP5, sub);
                } else if (m == 4) {
                    if (conc) n = add_instance(inst, n, E::F_STEP, E::STEP4C, sub);
                    n = add_instance(inst, n, E::F_STEP, E::STEP4, sub);
                } else {
                    if (conc) n = add_instance(inst, n, E::F_STEP, E::STEP3C, sub);
                    n = add_instance(inst, n, E::F_STEP, E::STEP3, sub);
                }
            }
        }
        if (m == 2 && num(a[0]) == num(a[1]) && suit(a[0]) != suit(a[1]))
            n = add_instance(inst, n, E::F_SAME_NUM_CHOW, E::SUIT2_CHOWS, sub);
        if (m == 3) {
            if (three_distinct_suits(a)) {
                const auto [x0, x1, x2] = sorted_numbers3(a);
                if (x0 == x1 && x1 == x2) n = add_instance(inst, n, E::F_SAME_NUM_CHOW, E::SUIT3_CHOWS, sub);
                if (x1 == x0 + 1 && x2 == x1 + 1) {
                    v[E::MIXED_STEP] = 1;
                    if (conc) v[E::MIXED_STEP_C] = 1;
                }
                if (x0 == 0 && x1 == 3 && x2 == 6) v[E::MIXED_STRAIGHT] = 1;
            } else if (same_suit && num(a[0]) == 0 && num(a[1]) == 3 && num(a[2]) == 6) {
                v[E::PURE_STRAIGHT] = 1;
            }
        }
        if (m == 4) {
            if (splits_into_pairs(a, 0)) n = add_instance(inst, n, E::F_SAME_CHOW, E::DOUBLE_ID, sub);
            if (splits_into_pairs(a, 1)) n = add_instance(inst, n, E::F_SAME_NUM_CHOW, E::DOUBLE_SUIT2_CHOWS, sub);
        }
        sub = (sub - 1) & chow_mask;
    }
    // pon patterns: every subset of the suited pons and kongs
    sub = pon_mask;
    while (sub) {
        int64_t m = 0;
        for (int64_t i = 0; i < 5; ++i)
            if (sub >> i & 1) a[m++] = set_kind[i];
        sort_small(a, m);
        const bool conc = (sub & conc_mask) == sub;
        if (m >= 2 && suit(a[0]) == suit(a[m - 1])) {
            bool shifted = true;
            for (int64_t i = 1; i < m; ++i) shifted = shifted && a[i] - a[i - 1] == 1;
            if (shifted) {
                const int64_t it = m == 2 ? E::SHIFT2 : (m == 3 ? E::SHIFT3 : (m == 4 ? E::SHIFT4 : E::SHIFT5));
                n = add_instance(inst, n, E::F_SHIFTED, it, sub);
            }
        }
        if (m == 2 && num(a[0]) == num(a[1]) && suit(a[0]) != suit(a[1]))
            n = add_instance(inst, n, E::F_SAME_PUNG, E::SUIT2_PUNGS, sub);
        if (m == 3 && three_distinct_suits(a)) {
            const auto [x0, x1, x2] = sorted_numbers3(a);
            if (x0 == x1 && x1 == x2) n = add_instance(inst, n, E::F_SAME_PUNG, E::SUIT3_PUNGS, sub);
            if (x1 == x0 + 1 && x2 == x1 + 1) {
                v[E::MIXED_SHIFT] = 1;
                if (conc) v[E::MIXED_SHIFT_C] = 1;
            }
        }
        if (m == 4) {
            if (splits_into_pairs(a, 2)) n = add_instance(inst, n, E::F_SHIFTED, E::DOUBLE_SHIFT2, sub);
            if (splits_into_pairs(a, 1)) n = add_instance(inst, n, E::F_SAME_PUNG, E::DOUBLE_SUIT2_PUNGS, sub);
        }
        sub = (sub - 1) & pon_mask;
    }
    assign_families(v, inst, std::min<int64_t>(n, E::EX_MAX_INST), p_tai);

    // 全帶么九 / 混全帶么九: every group (the five sets and the eye) holds a 1, 9 or honour
    bool all_out = true, all_term = true;
    for (int64_t i = 0; i < 5; ++i) {
        const int64_t k = set_kind[i];
        if (set_type[i] == MELD_CHI) {
            const bool t = num(k) == 0 || num(k) == 6;
            all_out = all_out && t;
            all_term = all_term && t;
        } else {
            all_out = all_out && (k >= WIND0 || is_terminal(k));
            all_term = all_term && is_terminal(k);
        }
    }
    all_out = all_out && (pair >= WIND0 || is_terminal(pair));
    all_term = all_term && is_terminal(pair);
    outside_items(v, all_out, all_term, all_counts);

    // 四歸: a kind whose four tiles lie in two, three or four groups (never in a kong)
    for (int64_t k = 0; k < WIND0; ++k) {
        if (all_counts[k] != 4) continue;
        int64_t groups = pair == k ? 1 : 0;
        bool in_kong = false;
        for (int64_t i = 0; i < 5; ++i) {
            const int64_t t = set_type[i];
            const int64_t sk = set_kind[i];
            if (t == MELD_CHI) {
                groups += (sk <= k && k <= sk + 2 && suit(sk) == suit(k)) ? 1 : 0;
            } else if (sk == k) {
                groups += 1;
                in_kong = in_kong || t >= MELD_KONG;
            }
        }
        if (in_kong) continue;
        if (groups == 4)
            v[E::IN4] += 1;
        else if (groups == 3)
            v[E::IN3] += 1;
        else if (groups == 2)
            v[E::IN2] += 1;
    }

    if (p_opts[py::profile::PO_EXTRAS] & py::profile::EX_MCR)
        mcr_reading_items(v, set_type, set_kind, set_conc, pair, win_pos, seat_wind, round_wind);
}

void outside_items(View<int32_t, 1> v, bool all_out, bool all_term, View<int8_t, 1> all_counts) {
    int64_t n_hon = 0, n_suited = 0;
    for (int64_t k = 0; k < N_KINDS; ++k) {
        if (k < WIND0)
            n_suited += all_counts[k];
        else
            n_hon += all_counts[k];
    }
    v[E::OUT_PURE] = all_term && n_hon == 0;
    v[E::OUT_MIXED] = all_out && n_hon > 0 && n_suited > 0;
}

void mcr_reading_items(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
                       int64_t pair, int64_t win_pos, int64_t seat_wind, int64_t round_wind) {
    int64_t n123[3] = {0, 0, 0};  // chows 123 / 789 per suit
    int64_t n789[3] = {0, 0, 0};
    int64_t chow_starts[3] = {0, 0, 0};                    // bit mask of chow start numbers per suit
    bool even = pair < WIND0 && pymod(num(pair), 2) == 1;  // numbers 2/4/6/8 are k % 9 = 1/3/5/7
    bool fives = pair < WIND0 && num(pair) == 4;
    int64_t winds = 0, conc_pons = 0, term_pungs = 0;
    for (int64_t i = 0; i < 5; ++i) {
        const int64_t k = set_kind[i];
        if (set_type[i] == MELD_CHI) {
            const int64_t s = suit(k);
            chow_starts[s] |= int64_t{1} << num(k);
            n123[s] += num(k) == 0;
            n789[s] += num(k) == 6;
            even = false;
            fives = fives && 2 <= num(k) && num(k) <= 4;
            continue;
        }
        if (set_conc[i] && i != win_pos) conc_pons += 1;
        if (k >= WIND0) {
            even = false;
            fives = false;
            if (k < DRAGON0) {
                winds += 1;
                if (k != WIND0 + seat_wind && k != WIND0 + round_wind) term_pungs += 1;
            }
        } else {
            even = even && pymod(num(k), 2) == 1;
            fives = fives && num(k) == 4;
            term_pungs += is_terminal(k);
        }
    }
    v[E::ALL_EVEN_PUNGS] = even;
    v[E::ALL_FIVES] = fives;
    v[E::BIG3_WINDS] = winds >= 3;
    v[E::TWO_CONC] = conc_pons >= 2;
    v[E::TERM_PUNG] = static_cast<int32_t>(term_pungs);
    bool short_ = false, old_young = false;
    for (int s = 0; s < 3; ++s) {
        for (int x = 0; x < 4; ++x)
            short_ = short_ || (((chow_starts[s] >> x) & 1) && ((chow_starts[s] >> (x + 3)) & 1));
        old_young = old_young || (n123[s] > 0 && n789[s] > 0);
    }
    v[E::SHORT_STRAIGHT] = short_;
    v[E::TWO_TERM_CHOWS] = old_young;
    if (pair < WIND0 && num(pair) == 4) {
        const int64_t ps = suit(pair);
        v[E::PURE_TERM_CHOWS] = n123[ps] >= 2 && n789[ps] >= 2;
        int64_t both = 0;
        for (int64_t s = 0; s < 3; ++s)
            if (s != ps && n123[s] >= 1 && n789[s] >= 1) both += 1;
        v[E::SUIT3_TERM_CHOWS] = both == 2;
    }
}

// ---------------------------------------------------------------------------------------------
// Special shapes

void special_extras(View<int32_t, 1> v, int64_t shape, View<int8_t, 1> concealed, View<int64_t, 1> parts,
                    View<int64_t, 1> suits, View<int8_t, 1> all_counts, int64_t seat_wind, int64_t round_wind,
                    View<int64_t, 1> p_opts) {
    clear_reading_items(v);
    if (shape == py::analysis::SHAPE_THIRTEEN_PURE) {
        v[E::PURE_13] = 1;
    } else if (shape == py::analysis::SHAPE_THIRTEEN_MIXED) {
        v[E::MIXED_13] = 1;
    } else if (shape == py::analysis::SHAPE_SIXTEEN_UNRELATED) {
        v[E::SIXTEEN] = 1;
        const int64_t a = suits[0], b = suits[1], c = suits[2];
        v[E::SIXTEEN_PURE] = a == py::analysis::M147 && b == py::analysis::M258 && c == py::analysis::M369;
        v[E::UNREL_DRAGON] = (a | b | c) == (py::analysis::M147 | py::analysis::M258 | py::analysis::M369) &&
                             (a == py::analysis::M147 || a == py::analysis::M258 || a == py::analysis::M369) &&
                             (b == py::analysis::M147 || b == py::analysis::M258 || b == py::analysis::M369);
        v[E::UNREL_SAME] = a == b && b == c;
    }
    // groups: every kind held is a group (pairs, the triplet, lone tiles); the 十三么's set is one more
    bool all_out = true, all_term = true;
    for (int64_t k = 0; k < N_KINDS; ++k) {
        if (concealed[k] > 0) {
            all_out = all_out && (k >= WIND0 || is_terminal(k));
            all_term = all_term && is_terminal(k);
        }
    }
    const bool thirteen = shape == py::analysis::SHAPE_THIRTEEN_PURE || shape == py::analysis::SHAPE_THIRTEEN_MIXED;
    if (thirteen) {
        const int64_t sk = parts[2];
        const bool held = parts[1] != MELD_CHI ? (sk >= WIND0 || is_terminal(sk)) : (num(sk) == 0 || num(sk) == 6);
        all_out = held;
        all_term = false;
    }
    outside_items(v, all_out, all_term, all_counts);
    // 四歸二: two pairs of eight_pairs, or the 十三么's lone orphan and its pon
    for (int64_t k = 0; k < N_KINDS; ++k)
        if (concealed[k] == 4) v[E::IN2] += 1;
    if (p_opts[py::profile::PO_EXTRAS] & py::profile::EX_MCR) {
        if (shape == py::analysis::SHAPE_EIGHT_PAIRS) {  // 連七對: seven pairs of seven consecutive numbers of a suit
            int64_t lo = -1, n2 = 0;
            bool ok = true;
            for (int64_t k = 0; k < N_KINDS; ++k) {
                if (concealed[k] == 2) {
                    if (lo < 0) lo = k;
                    ok = ok && k < WIND0 && suit(k) == suit(lo) && k == lo + n2;
                    n2 += 1;
                }
            }
            v[E::SEVEN_SHIFTED_PAIRS] = ok && n2 == 7;
        }
        int64_t pk = -1;  // the eight_pairs triplet or the 十三么's pon
        if (shape == py::analysis::SHAPE_EIGHT_PAIRS) {
            for (int64_t k = 0; k < N_KINDS; ++k)
                if (concealed[k] == 3) pk = k;
        } else if (thirteen && parts[1] != MELD_CHI) {
            pk = parts[2];
        }
        if (pk >= 0 &&
            (is_terminal(pk) || (WIND0 <= pk && pk < DRAGON0 && pk != WIND0 + seat_wind && pk != WIND0 + round_wind)))
            v[E::TERM_PUNG] = 1;
    }
}

}  // namespace tw16
