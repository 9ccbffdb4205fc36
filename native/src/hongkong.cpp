// hongkong scoring (HONGKONG.md sections 2 and 3): the entry point and the readings. (Its legs, 5.1:
// settle.hpp, the one settlement.)
// The interface: hongkong.hpp.
#include "tw16/hongkong.hpp"

#include <array>

#include "tw16/constants.hpp"
#include "tw16/hand.hpp"
#include "tw16/hk_items.hpp"
#include "tw16/hk_reading.hpp"
#include "tw16/tally.hpp"

namespace tw16 {

namespace {
namespace H = py::hk_items;
namespace C = py::codes;
namespace An = py::analysis;
namespace P = py::profile;
namespace T = py::tiles;

constexpr int64_t NI = C::N_ITEMS;
constexpr int64_t NK = T::N_KINDS;

// Scratch of one hk_score call, zeroed per call.
struct HkScratch {
    int32_t v[NI] = {};
    int32_t tmp[NI] = {};
    bool tmp_kept[NI] = {};
    bool best_kept[NI] = {};
    int8_t all_counts[NK] = {};
    int64_t hc[8] = {};
    bool waits[NK] = {};
    int8_t before[NK] = {};
    int64_t buf[6][H::HK_MAX_INST + 1] = {};
    int64_t parts[3] = {};
    int64_t suits[3] = {};
};

// The hand context hc (H_* slots) of a judged win: waits before the winning tile, 對碰 with both
// waits held as pairs, 十三么 waited on all 13, the 16 tiles were eight pairs.
void judge_waits(View<int8_t, 1> concealed, View<int8_t, 1> all_counts, int64_t win_tile, int64_t n_sets,
                 int64_t n_melds, int64_t shapes, View<int64_t, 1> hc, View<bool, 1> waits, View<int8_t, 1> before) {
    const int64_t nw = waits_before_win(concealed, all_counts, win_tile, n_sets, shapes, waits, before);
    hc[H::H_NW] = nw;
    if (nw == 2) {
        int64_t wa = -1, wb = -1;
        for (int64_t k = 0; k < NK; ++k) {
            if (waits[k]) {
                if (wa < 0)
                    wa = k;
                else
                    wb = k;
            }
        }
        hc[H::H_TP] = before[wa] >= 2 && before[wb] >= 2;
        hc[H::H_WA] = wa;
        hc[H::H_WB] = wb;
    }
    bool all13 = true;
    for (int64_t k : H::ORPHANS) all13 = all13 && waits[k];
    hc[H::H_ALL13] = all13;
    bool even = n_melds == 0;
    for (int64_t k = 0; k < NK; ++k) even = even && pymod(before[k], 2) == 0;
    hc[H::H_EP8] = even;
}
}  // namespace

int64_t hk_score(View<int8_t, 1> concealed, View<int8_t, 1> meld_type, View<int8_t, 1> meld_kind, int64_t n_melds,
                 int64_t flowers, int64_t win_tile, int64_t win_by, int64_t seat_wind, int64_t round_wind,
                 int64_t flags, const Prof& prof, View<int32_t, 1> out_items) {
    const View<int32_t, 2> p_tai = prof.p_tai;
    const View<int8_t, 2> p_repl = prof.p_repl;
    const View<int64_t, 1> p_opts = prof.p_opts;
    const int64_t n_sets = 5 - n_melds;
    const int64_t shapes = p_opts[P::PO_SHAPES];
    for (int64_t i = 0; i < out_items.size(); ++i) out_items[i] = 0;
    const int64_t kind = hand_kind(concealed, n_sets, win_by, shapes);
    if (kind < 0) return -1;
    const bool has_hand = kind == 1;
    HkScratch s;
    const auto v = View<int32_t, 1>::contiguous(s.v, {NI});
    const auto tmp = View<int32_t, 1>::contiguous(s.tmp, {NI});
    const auto tmp_kept = View<bool, 1>::contiguous(s.tmp_kept, {NI});
    const auto best_kept = View<bool, 1>::contiguous(s.best_kept, {NI});
    hk_flower_items(v, flowers, seat_wind, win_by);
    if (!has_hand) return apply_profile(v, p_tai, p_repl, out_items, best_kept);  // a flower win: its flower items only

    const auto all_counts = View<int8_t, 1>::contiguous(s.all_counts, {NK});
    all_tiles(concealed, meld_type, meld_kind, n_melds, all_counts);
    const auto hc = View<int64_t, 1>::contiguous(s.hc, {8});
    int64_t n_hon = 0;
    for (int64_t k = T::WIND0; k < NK; ++k) n_hon += all_counts[k];
    hc[H::H_NOHON] = n_hon == 0;
    hc[H::H_NOFL] = flowers == 0;
    const bool judged = win_tile >= 0 && win_by != C::WIN_FLOWERS;  // a flower win or heavenly hand has no wait
    if (judged)
        judge_waits(concealed, all_counts, win_tile, n_sets, n_melds, shapes, hc,
                    View<bool, 1>::contiguous(s.waits, {NK}), View<int8_t, 1>::contiguous(s.before, {NK}));
    hk_hand_items(v, all_counts, meld_type, n_melds, flowers, win_by, seat_wind, flags, hc[H::H_NW]);

    const bool is_discard = win_by == C::WIN_DISCARD || win_by == C::WIN_ROB_KONG;
    const auto buf = View<int64_t, 2>::contiguous(&s.buf[0][0], {6, H::HK_MAX_INST + 1});
    int64_t best_total = -1;
    ReadingBuf rb;
    const auto st = rb.st_v(), sk = rb.sk_v();
    const auto sc = rb.sc_v();
    // Where the winning tile sits (identical tiles are interchangeable: every place is a reading); a
    // win without a judged tile is read once per decomposition (at -2).
    const auto places = [&](int64_t pos, int64_t pair) TW16_ALWAYS_INLINE {
        return pos == -2 ? !judged : judged && tile_sits(pos, pair, st, sk, n_melds, win_tile);
    };
    for_each_reading(concealed, n_sets, meld_type, meld_kind, n_melds, rb, places,
                     [&](int64_t pair, int64_t pos) TW16_ALWAYS_INLINE {
                         const int64_t disc_pos = is_discard ? pos : -2;
                         hk_reading_items(v, st, sk, sc, 5, n_melds, pair, disc_pos, pos, win_tile, 0, seat_wind,
                                          round_wind, all_counts, hc, buf, p_tai, p_opts);
                         best_total =
                             consider_reading(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total);
                     });

    const int64_t shape = n_melds == 0 ? special_shape(concealed, shapes) : 0;
    if (shape != 0) {
        const auto parts = View<int64_t, 1>::contiguous(s.parts, {3});
        const auto suits = View<int64_t, 1>::contiguous(s.suits, {3});
        int64_t n_sp = 0;
        int64_t pair = -1;
        int64_t disc_pos = -2;
        if (shape == An::SHAPE_EIGHT_PAIRS) {  // its triplet is a pon for the pon items (2.6)
            for (int64_t k = 0; k < NK; ++k) {
                if (concealed[k] == 3) {
                    st[0] = static_cast<int8_t>(T::MELD_PON);
                    sk[0] = static_cast<int8_t>(k);
                    n_sp = 1;
                    if (is_discard && k == win_tile) disc_pos = 0;
                }
            }
        } else if (shape & An::SHAPE_THIRTEEN) {
            thirteen_orphans_parts(concealed, parts);
            pair = parts[0];
            st[0] = static_cast<int8_t>(parts[1]);
            sk[0] = static_cast<int8_t>(parts[2]);
            n_sp = 1;
        } else {
            sixteen_unrelated_suits(concealed, shapes, suits);
            for (int64_t k = 0; k < NK; ++k)
                if (concealed[k] == 2) pair = k;
        }
        sc[0] = true;
        hk_reading_items(v, st, sk, sc, n_sp, 0, pair, disc_pos, -2, win_tile, shape, seat_wind, round_wind, all_counts,
                         hc, buf, p_tai, p_opts);
        special_items(v, shape, concealed, all_counts, parts, suits, hc);
        best_total = consider_reading(v, p_tai, p_repl, tmp, tmp_kept, out_items, best_kept, best_total);
    }
    if (best_total < 0) return -1;
    return chicken_rule(v, out_items, best_kept, best_total, p_tai);
}

}  // namespace tw16
