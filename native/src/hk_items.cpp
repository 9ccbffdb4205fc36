// hongkong items that do not depend on the reading, and the chicken hands (HONGKONG.md 3, 3.9).
// Their tables are envs/scoring/hk_items.py's, generated into constants.hpp (tw16::py::hk_items).
#include "tw16/hk_items.hpp"

#include "tw16/constants.hpp"
#include "tw16/tally.hpp"

namespace tw16 {

namespace {
namespace H = py::hk_items;
namespace C = py::codes;
}  // namespace

void hk_flower_items(View<int32_t, 1> v, int64_t flowers, int64_t seat_wind, int64_t win_by) {
    const int64_t own = (int64_t{1} << seat_wind) | (int64_t{1} << (seat_wind + 4));
    int64_t in_sets = 0;
    int64_t n_sets = 0;
    for (int64_t s = 0; s < 2; ++s) {
        const int64_t block = int64_t{0xF} << (4 * s);
        if ((flowers & block) == block) {
            n_sets += 1;
            in_sets |= block;
        }
    }
    const int64_t rest = flowers & ~in_sets;  // 一臺花 replaces the flower items of its own set only
    v[H::FLOWER_SET] = static_cast<int32_t>(n_sets);
    v[H::SEAT_FLOWER] = static_cast<int32_t>(popcount(rest & own));
    v[H::OTHER_FLOWER] = static_cast<int32_t>(popcount(rest & ~own));
    v[H::NO_FLOWERS] = flowers == 0;
    const int64_t nf = popcount(flowers);
    v[H::EIGHT_FLOWERS] = nf == 8;  // also a later win after passing the flower win (section 1)
    v[H::SEVEN_ROB_ONE] = win_by == C::WIN_FLOWERS && nf == 7;
}

void hk_hand_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, View<int8_t, 1> meld_type, int64_t n_melds,
                   int64_t flowers, int64_t win_by, int64_t seat_wind, int64_t flags, int64_t n_waits) {
    const bool is_self = win_by == C::WIN_SELF_DRAW || win_by == C::WIN_FLOWERS;
    const bool is_discard = win_by == C::WIN_DISCARD || win_by == C::WIN_ROB_KONG;
    // a flower win counts as self-drawn for the replacement flags (CASES.md; its hand, when complete)
    const bool repl = is_self && (flags & (C::F_KONG_REPLACEMENT | C::F_FLOWER_REPLACEMENT)) != 0;
    int64_t chain = (flags >> C::CHAIN_SHIFT) & C::CHAIN_MASK;
    if (repl && chain == 0) chain = 1;
    const bool chain_win = repl && chain >= 2;
    bool closed = true;  // section 1: a kong claimed on a discard and an ankong keep the hand concealed
    int64_t n_exposed = 0;
    int64_t n_ankong = 0;
    for (int64_t m = 0; m < n_melds; ++m) {
        const int64_t t = meld_type[m];
        closed = closed && !(t == py::tiles::MELD_CHI || t == py::tiles::MELD_PON || t == py::tiles::MELD_ADDKONG);
        n_exposed += t == py::tiles::MELD_KONG || t == py::tiles::MELD_ADDKONG;
        n_ankong += t == py::tiles::MELD_ANKONG;
    }
    const bool sd = is_self && !chain_win;  // 連續尾牌胡牌 has no 自摸 (section 8.10)
    v[H::SELF_DRAW] = sd;
    v[H::CONCEALED] = closed;
    v[H::CONC_SELF_DRAW] = closed && sd;
    v[H::DECLARED_READY] = (flags & C::F_DECLARED_READY) != 0;
    v[H::IPPATSU] = (flags & C::F_IPPATSU) != 0;
    const bool single = n_waits == 1;
    v[H::SINGLE_WAIT] = single;
    const bool beggar = n_melds == 5 && n_ankong == 0 && single;
    v[H::HALF_BEGGAR] = beggar && is_self;
    v[H::FULL_BEGGAR] = beggar && is_discard;
    v[H::EXPOSED_KONG] = static_cast<int32_t>(n_exposed);
    v[H::CONC_KONG] = static_cast<int32_t>(n_ankong);
    // tile classes
    int64_t n_suit[3] = {0, 0, 0};
    int64_t n_tiles = 0, n_wind = 0, n_drag = 0, n_term = 0;
    for (int64_t k = 0; k < py::tiles::N_KINDS; ++k) {
        const int64_t c = all_counts[k];
        n_tiles += c;
        if (k < py::tiles::WIND0) {
            n_suit[k / 9] += c;
            if (k % 9 == 0 || k % 9 == 8) n_term += c;
        } else if (k < py::tiles::DRAGON0) {
            n_wind += c;
        } else {
            n_drag += c;
        }
    }
    const int64_t n_hon = n_wind + n_drag;
    const int64_t suits = (n_suit[0] > 0) + (n_suit[1] > 0) + (n_suit[2] > 0);
    v[H::ALL_HONOURS] = suits == 0;
    v[H::NO_HONOURS] = n_hon == 0;
    v[H::NO_HON_NO_FL] = n_hon == 0 && flowers == 0;
    v[H::MISSING_SUIT] = suits == 2;
    const bool five = suits == 3 && n_wind > 0 && n_drag > 0;
    v[H::FIVE_GATES] = five;
    v[H::SEVEN_GATES] = five && (flowers & 0xF) != 0 && (flowers & 0xF0) != 0;
    v[H::HALF_FLUSH] = suits == 1 && n_hon > 0;
    v[H::FULL_FLUSH] = suits == 1 && n_hon == 0;
    v[H::ALL_SIMPLES] = n_hon == 0 && n_term == 0;
    v[H::MIXED_TERM] = n_term + n_hon == n_tiles && n_term > 0 && n_hon > 0;
    v[H::PURE_TERM] = n_term == n_tiles;
    // win events and timing (3.8)
    v[H::FLOWER_REPL] = repl && chain == 1 && (flags & C::F_FLOWER_REPLACEMENT) != 0;
    v[H::KONG_REPL] = repl && chain == 1 && (flags & C::F_KONG_REPLACEMENT) != 0;
    v[H::CHAIN_WIN] = chain_win;
    v[H::LAST_DRAW] = is_self && (flags & C::F_LAST_TILE) != 0;
    v[H::ROB_KONG] = win_by == C::WIN_ROB_KONG;
    v[H::ROB_KONG_CHAIN] = win_by == C::WIN_ROB_KONG && (flags & C::F_ROB_KONG_CHAIN) != 0;
    const int64_t co = (flags >> C::CO_WIN_SHIFT) & C::CO_WIN_MASK;
    v[H::DOUBLE_WIN] = co == 2;
    v[H::TRIPLE_WIN] = co == 3;
    const int64_t floor = ((flags >> C::FLOOR_SHIFT) & C::COUNT_MASK) - 1;  // -1: not known
    v[H::TEN_WITHIN] = 0 <= floor && floor <= 10;
    v[H::SEVEN_WITHIN] = 0 <= floor && floor <= 7;
    const int64_t discards = ((flags >> C::DISCARDS_SHIFT) & C::COUNT_MASK) - 1;
    v[H::HUMAN] = seat_wind != 0 && 0 <= discards && discards <= 4;
    v[H::EARTHLY] = seat_wind != 0 && win_by == C::WIN_DISCARD && discards == 1;
    v[H::HEAVENLY] = (flags & C::F_HEAVENLY) != 0;
}

int64_t chicken_rule(View<int32_t, 1> v, View<int32_t, 1> out_items, View<bool, 1> kept, int64_t total,
                     View<int32_t, 2> p_tai) {
    int64_t n_kept = 0;
    bool flower = false, self_draw = false, other = false;
    for (int64_t r = 0; r < C::N_ITEMS; ++r) {
        const int64_t i = p_tai(3, r);
        if (i < 0) break;
        if (!kept[i]) continue;
        n_kept += 1;
        if (i == H::NO_FLOWERS || (i == H::OTHER_FLOWER && v[H::OTHER_FLOWER] == 1)) {
            flower = true;
        } else if (i == H::SELF_DRAW) {
            self_draw = true;
        } else {
            other = true;
        }
    }
    int64_t pick = -1;
    if (flower && !other) pick = n_kept == 1 ? H::BIG_CHICKEN : (self_draw ? H::DUCK : -1);
    if (pick < 0 || p_tai(0, pick) < 0) return total;
    for (int64_t r = 0; r < C::N_ITEMS; ++r) {
        const int64_t i = p_tai(3, r);
        if (i < 0) break;
        out_items[i] = 0;
        kept[i] = false;
    }
    out_items[pick] = p_tai(0, pick);
    kept[pick] = true;
    return p_tai(0, pick);
}

}  // namespace tw16
