// Which items a winning hand holds (see score.hpp), the profile applied (RULES.md 3).
#include "tw16/score.hpp"

#include "tw16/extras.hpp"
#include "tw16/hand.hpp"
#include "tw16/hongkong.hpp"
#include "tw16/parallel.hpp"
#include "tw16/settle.hpp"
#include "tw16/tally.hpp"

namespace tw16 {

namespace {
namespace C = py::codes;
namespace An = py::analysis;
using py::profile::PO_CONCEALED_ANY_WIN;
using py::profile::PO_EXTRAS;
using py::profile::PO_HONGKONG;
using py::profile::PO_SHAPES;
using py::tiles::DRAGON0;
using py::tiles::MELD_ANKONG;
using py::tiles::MELD_CHI;
using py::tiles::N_KINDS;
using py::tiles::WIND0;
constexpr int64_t N_ITEMS = C::N_ITEMS;
}  // namespace

// ---------------------------------------------------------------------------------------------
// Shapes

bool winning_shape(View<int8_t, 1> counts, int64_t n_sets, View<int64_t, 1> p_opts) {
    return is_win(counts, n_sets, p_opts[PO_SHAPES]);
}

// ---------------------------------------------------------------------------------------------
// Items that do not depend on how the hand is read

void flower_items(View<int32_t, 1> v, int64_t flowers, int64_t seat_wind, int64_t win_by, View<int8_t, 2> p_repl) {
    const int64_t own = (int64_t{1} << seat_wind) | (int64_t{1} << (seat_wind + 4));
    int64_t n_sets = 0;
    int64_t own_in_sets = 0;
    for (int64_t s = 0; s < 2; ++s) {
        const int64_t block = int64_t{0xF} << (4 * s);
        if ((flowers & block) == block) {
            n_sets += 1;
            own_in_sets |= own & block;
        }
    }
    v[C::I_FLOWER_SET] = static_cast<int32_t>(n_sets);
    // 花槓 replaces only the seat flower of its own set (PROFILES.md), so that is done here, not by
    // the whole-item replacement of the profile matrix.
    int64_t counted = own;
    if (p_repl(C::I_FLOWER_SET, C::I_SEAT_FLOWER) == 1) counted = own & ~own_in_sets;
    v[C::I_SEAT_FLOWER] = static_cast<int32_t>(popcount(flowers & counted));
    if (win_by == C::WIN_FLOWERS) {
        const int64_t nf = popcount(flowers);
        v[C::I_EIGHT_FLOWERS] = nf == 8;
        v[C::I_SEVEN_ROB_ONE] = nf == 7;
    }
}

void suit_items(View<int32_t, 1> v, View<int8_t, 1> all_counts) {
    int64_t suits = 0, honours = 0;
    for (int64_t s = 0; s < 3; ++s) {
        for (int64_t k = 9 * s; k < 9 * s + 9; ++k) {
            if (all_counts[k] > 0) {
                suits += 1;
                break;
            }
        }
    }
    for (int64_t k = WIND0; k < N_KINDS; ++k) honours += all_counts[k];
    v[C::I_HALF_FLUSH] = suits == 1 && honours > 0;
    v[C::I_FULL_FLUSH] = suits == 1 && honours == 0;
    v[C::I_ALL_HONOURS] = suits == 0;
}

void base_items(View<int32_t, 1> v, View<int8_t, 1> all_counts, int64_t n_open, bool any_open, int64_t flowers,
                int64_t win_by, int64_t seat_wind, int64_t flags, bool single, View<int64_t, 1> p_opts,
                View<int8_t, 2> p_repl) {
    const bool is_self = win_by == C::WIN_SELF_DRAW || win_by == C::WIN_FLOWERS;
    const bool is_discard = win_by == C::WIN_DISCARD || win_by == C::WIN_ROB_KONG;
    const bool closed = !any_open;
    v[C::I_SELF_DRAW] = is_self;
    v[C::I_CONCEALED] = closed && (is_discard || p_opts[PO_CONCEALED_ANY_WIN] != 0);
    v[C::I_CONCEALED_SELF_DRAW] = closed && is_self;
    v[C::I_NO_HELP] = closed && is_self;
    v[C::I_SINGLE_WAIT] = single;
    flower_items(v, flowers, seat_wind, win_by, p_repl);
    // (a flower win's complete hand counts as self-drawn for the replacement flags: CASES.md)
    v[C::I_KONG_REPLACEMENT_WIN] = is_self && (flags & (C::F_KONG_REPLACEMENT | C::F_FLOWER_REPLACEMENT)) != 0;
    v[C::I_LAST_TILE_DRAW] = is_self && (flags & C::F_LAST_TILE) != 0;
    v[C::I_LAST_TILE_DISCARD] = win_by == C::WIN_DISCARD && (flags & C::F_LAST_TILE) != 0;
    v[C::I_ROBBING_KONG] = win_by == C::WIN_ROB_KONG;
    // 半求 / 全求: all five sets claimed from others; an ankong among them is not melded (PROFILES.md)
    const bool beggar = n_open == 5 && single;
    v[C::I_HALF_BEGGAR] = beggar && is_self;
    v[C::I_FULL_BEGGAR] = beggar && is_discard;
    suit_items(v, all_counts);
    v[C::I_HEAVENLY_WIN] = (flags & C::F_HEAVENLY) != 0;
    v[C::I_EARTHLY_WIN] = (flags & C::F_EARTHLY) != 0;
    v[C::I_HUMAN_WIN] = (flags & C::F_HUMAN) != 0;
    v[C::I_HEAVENLY_READY] = (flags & C::F_HEAVENLY_READY) != 0;
    v[C::I_EARTHLY_READY] = (flags & C::F_EARTHLY_READY) != 0;
    v[C::I_DECLARED_READY] = (flags & C::F_DECLARED_READY) != 0;
    v[C::I_SHOWN_READY] = (flags & C::F_SHOWN_READY) != 0;
}

// ---------------------------------------------------------------------------------------------
// Items of one reading

void set_items(View<int32_t, 1> v, View<int8_t, 1> set_type, View<int8_t, 1> set_kind, View<bool, 1> set_conc,
               int64_t n, int64_t pair, int64_t win_pos, int64_t win_tile, int64_t seat_wind, int64_t round_wind,
               bool two_sided_ok) {
    int64_t winds = 0, dragons = 0, pons = 0, chis = 0, conc_pons = 0;
    v[C::I_SEAT_WIND] = 0;
    v[C::I_ROUND_WIND] = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = set_kind[i];
        if (set_type[i] == MELD_CHI) {
            chis += 1;
            continue;
        }
        pons += 1;
        if (set_conc[i] && i != win_pos) conc_pons += 1;
        if (k >= DRAGON0) {
            dragons += 1;
        } else if (k >= WIND0) {
            winds += 1;
            if (k == WIND0 + seat_wind) v[C::I_SEAT_WIND] = 1;
            if (k == WIND0 + round_wind) v[C::I_ROUND_WIND] = 1;
        }
    }
    v[C::I_DRAGON] = static_cast<int32_t>(dragons);
    v[C::I_WIND_PUNG] = static_cast<int32_t>(winds);  // 見風見台: every wind pon or kong (PLATFORMS.md 4)
    v[C::I_ALL_PUNGS] = pons == 5;
    v[C::I_THREE_CONCEALED] = conc_pons >= 3;
    v[C::I_FOUR_CONCEALED] = conc_pons >= 4;
    v[C::I_FIVE_CONCEALED] = conc_pons >= 5;
    v[C::I_SMALL_DRAGONS] = dragons == 2 && pair >= DRAGON0;
    v[C::I_BIG_DRAGONS] = dragons == 3;
    v[C::I_SMALL_WINDS] = winds == 3 && WIND0 <= pair && pair < DRAGON0;
    v[C::I_BIG_WINDS] = winds == 4;
    bool chows = false;
    if (two_sided_ok && chis == 5 && win_pos >= 0 && set_type[win_pos] == MELD_CHI) {
        const int64_t k = set_kind[win_pos];
        // two-sided: the tile is the low end of a chi that is not 789, or the high end of one not 123
        chows = (win_tile == k && pymod(k, 9) != 6) || (win_tile == k + 2 && pymod(k, 9) != 0);
    }
    v[C::I_ALL_CHOWS] = chows;
}

// ---------------------------------------------------------------------------------------------
int64_t score_hand(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                   int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind,
                   int64_t flags, const Prof& prof, View<int32_t, 1> out_items) {
    const auto p_tai = prof.p_tai;
    const auto p_repl = prof.p_repl;
    const auto p_opts = prof.p_opts;
    if (p_opts[PO_HONGKONG] != 0)
        return hk_score(concealed, meld_type, meld_kind, n_melds, flowers, win_tile, win_by, seat_wind, round_wind,
                        flags, prof, out_items);
    const int64_t n_sets = 5 - n_melds;
    const int64_t shapes = p_opts[PO_SHAPES];
    for (int64_t i = 0; i < N_ITEMS; ++i) out_items[i] = 0;
    const int64_t kind = hand_kind(concealed, n_sets, win_by, shapes);
    if (kind < 0) return -1;
    const bool has_hand = kind == 1;
    int8_t all_buf[N_KINDS];
    const auto all_counts = View<int8_t, 1>::contiguous(all_buf, {N_KINDS});
    all_tiles(concealed, meld_type, meld_kind, n_melds, all_counts);
    int64_t n_open = 0;
    for (int64_t m = 0; m < n_melds; ++m) n_open += meld_type[m] != MELD_ANKONG;
    const bool any_open = n_open > 0;
    int32_t v_buf[N_ITEMS] = {}, tmp_buf[N_ITEMS] = {};
    bool tmp_kept_buf[N_ITEMS] = {}, best_kept_buf[N_ITEMS] = {};
    const auto v = View<int32_t, 1>::contiguous(v_buf, {N_ITEMS});
    const auto tmp = View<int32_t, 1>::contiguous(tmp_buf, {N_ITEMS});
    const auto tmp_kept = View<bool, 1>::contiguous(tmp_kept_buf, {N_ITEMS});
    const auto best_kept = View<bool, 1>::contiguous(best_kept_buf, {N_ITEMS});
    if (!has_hand) {  // flower win without a hand: flower items only
        flower_items(v, flowers, seat_wind, win_by, p_repl);
        return apply_profile(v, p_tai, p_repl, out_items, best_kept);
    }

    const bool judged_wait = win_tile >= 0 && win_by != C::WIN_FLOWERS;
    bool single = false;
    if (judged_wait) {
        bool waits_buf[N_KINDS] = {};
        int8_t before_buf[N_KINDS];
        const int64_t n_waits = waits_before_win(concealed, all_counts, win_tile, n_sets, shapes,
                                                 View<bool, 1>::contiguous(waits_buf, {N_KINDS}),
                                                 View<int8_t, 1>::contiguous(before_buf, {N_KINDS}));
        single = n_waits == 1;
    }
    base_items(v, all_counts, n_open, any_open, flowers, win_by, seat_wind, flags, single, p_opts, p_repl);
    const bool extras = p_opts[PO_EXTRAS] != 0;
    if (extras) {
        // 天胡 has no winning tile, even where a case names one (the engine gives none): 九蓮寶燈 then
        // takes any tile of its suit out of the dealt hand (EXTRAS.md 2.1).
        const int64_t gates_tile = (flags & C::F_HEAVENLY) != 0 ? -1 : win_tile;
        hand_extras(v, concealed, all_counts, meld_type, meld_kind, n_melds, gates_tile, win_by, flags, p_tai, p_opts);
    }

    const bool is_discard = win_by == C::WIN_DISCARD || win_by == C::WIN_ROB_KONG;
    bool two_sided_ok = is_discard && flowers == 0;
    for (int64_t k = WIND0; k < N_KINDS; ++k) two_sided_ok = two_sided_ok && all_counts[k] == 0;

    int64_t best_total = -1;
    ReadingBuf rb;
    const auto set_type = rb.st_v();
    const auto set_kind = rb.sk_v();
    const auto set_conc = rb.sc_v();
    // Where the winning discard sits: the pair (-1) or a concealed set holding its kind; a self-draw
    // is read once per decomposition (at -1).
    const auto places = [&](int64_t pos, int64_t pair) TW16_ALWAYS_INLINE {
        if (pos == -1) return !is_discard || pair == win_tile;
        return pos >= 0 && is_discard && tile_sits(pos, pair, set_type, set_kind, n_melds, win_tile);
    };
    for_each_reading(
        concealed, n_sets, meld_type, meld_kind, n_melds, rb, places,
        [&](int64_t pair, int64_t pos) TW16_ALWAYS_INLINE {
            set_items(v, set_type, set_kind, set_conc, 5, pair, pos, win_tile, seat_wind, round_wind, two_sided_ok);
            v[C::I_EIGHT_PAIRS] = 0;
            if (extras)
                reading_extras(v, set_type, set_kind, set_conc, pair, pos, seat_wind, round_wind, all_counts, p_tai,
                               p_opts);
            best_total = consider_reading(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total);
        });

    const int64_t shape = (shapes != 0 && n_melds == 0) ? special_shape(concealed, shapes) : 0;
    if (shape != 0) {
        // The special shape as one more reading. Its one pon (the eight_pairs triplet, the 十三么's
        // pon) carries the wind and dragon items; 十六不搭 has no set.
        int64_t parts_buf[3] = {0, 0, 0}, suits_buf[3] = {0, 0, 0};
        const auto parts = View<int64_t, 1>::contiguous(parts_buf, {3});
        const auto suits = View<int64_t, 1>::contiguous(suits_buf, {3});
        int64_t n_sp = 1;
        if (shape == An::SHAPE_EIGHT_PAIRS) {
            for (int64_t k = 0; k < N_KINDS; ++k) {
                if (concealed[k] == 3) {
                    set_type[0] = 1;
                    set_kind[0] = static_cast<int8_t>(k);
                }
            }
        } else if (shape & An::SHAPE_THIRTEEN) {
            thirteen_orphans_parts(concealed, parts);
            set_type[0] = static_cast<int8_t>(parts[1]);
            set_kind[0] = static_cast<int8_t>(parts[2]);
        } else {
            sixteen_unrelated_suits(concealed, shapes, suits);
            n_sp = 0;
        }
        set_items(v, set_type, set_kind, set_conc, n_sp, -1, -1, win_tile, seat_wind, round_wind, false);
        v[C::I_ALL_PUNGS] = 0;
        v[C::I_EIGHT_PAIRS] = shape == An::SHAPE_EIGHT_PAIRS;
        if (extras) special_extras(v, shape, concealed, parts, suits, all_counts, seat_wind, round_wind, p_opts);
        best_total = consider_reading(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total);
    }
    return best_total;
}

// ---------------------------------------------------------------------------------------------
// Batches

void score_batch(const HandBatch& h, const Prof& prof, View<int64_t, 1> out_tai, View<int32_t, 2> out_items) {
    parallel_for(h.size(), [&](int64_t i) {
        out_tai[i] =
            score_hand(h.concealed[i], h.meld_type[i], h.meld_kind[i], h.n_melds[i], h.flowers[i], h.win_tile[i],
                       h.win_by[i], h.seat_wind[i], h.round_wind[i], h.flags[i], prof, out_items[i]);
    });
}

int64_t bench_score_all(View<int8_t, 2> conc, View<int8_t, 2> mt, View<int8_t, 2> mk, View<int64_t, 1> nm,
                        View<int64_t, 2> ctx, const Prof& prof, Opts opts, int64_t reps) {
    int32_t out_buf[N_ITEMS] = {};
    int64_t deltas_buf[4] = {0, 0, 0, 0};
    const auto out = View<int32_t, 1>::contiguous(out_buf, {N_ITEMS});
    const auto deltas = View<int64_t, 1>::contiguous(deltas_buf, {4});
    int64_t acc = 0;
    for (int64_t r = 0; r < reps; ++r) {
        for (int64_t i = 0; i < conc.shape[0]; ++i) {
            const int64_t win_by = ctx(i, 1);
            const int64_t tai = score_hand(conc[i], mt[i], mk[i], nm[i], ctx(i, 4), ctx(i, 0), win_by, ctx(i, 2),
                                           ctx(i, 3), 0, prof, out);
            const int64_t payer = win_by == C::WIN_SELF_DRAW ? -1  // bench.py: win_by == 1
                                                             : pymod(ctx(i, 2) + 1, 4);
            settle(Win{tai, win_by, ctx(i, 2), payer, -1, 0, 0}, opts, deltas);  // the legs, paid in full
            acc = add_wrap(acc, tai);
        }
    }
    return acc;
}

}  // namespace tw16
