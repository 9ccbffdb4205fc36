// libFuzzer harness: the hand analysis (tw16/hand.hpp) on fuzz-chosen counts.
//
// Input: mode, n_sets, shapes, then the counts. Modes: raw int8 counts (any value: the functions
// must stay in bounds and answer INVALID / 0, as bind_hand.cpp's `_eval_batch(strict=False)`
// promises), counts 0..4, and a complete hand built from sets (then a tile dropped or added), so
// that the deep paths (decompositions, waits, special shapes) are reached. Every analysis function
// runs on int8 and int64 counts. On valid counts, properties of the Python contract are checked:
//   3n+2 tiles: is_complete == (shanten == -1); discard_shanten's out[k] = shanten after discarding k
//   3n+1 tiles: wait_mask[k] == (held[k] < 4 and counts + k complete)
//   int8 and int64 counts give the same answers.
#include <array>
#include <cstdint>

#include "common.hpp"
#include "tw16/hand.hpp"

using namespace tw16;
using namespace tw16::fuzz;
namespace An = py::analysis;

namespace {

template <class C>
struct Results {
    int64_t v[24] = {};
    std::array<int64_t, 34> ds{}, bd{}, wm{}, ep{}, sw{}, ww{};
    std::array<int64_t, An::MAX_DECOMPOSITIONS * An::DEC_WIDTH> dec{};
};

template <class C>
Results<C> run_all(const std::array<C, 34>& cb, const std::array<C, 34>& hb, int64_t n, int64_t shapes) {
    const auto c = View<const C, 1>::contiguous(cb.data(), {34});
    const auto h = View<const C, 1>::contiguous(hb.data(), {34});
    Results<C> r;
    auto v34 = [](std::array<int64_t, 34>& a) { return View<int64_t, 1>::contiguous(a.data(), {34}); };
    std::array<int64_t, 3> parts{};
    const auto p3 = View<int64_t, 1>::contiguous(parts.data(), {3});
    int i = 0;
    r.v[i++] = is_complete(c, n);
    r.v[i++] = shanten(c, n);
    r.v[i++] = discard_shanten(c, n, v34(r.ds));
    r.v[i++] = best_discards(c, n, v34(r.bd));
    r.v[i++] = wait_mask(c, n, h, v34(r.wm));
    const auto wa = wait_array(c, n, h);
    for (int k = 0; k < 34; ++k) r.v[i] += wa[k] << (k % 8);
    ++i;
    r.v[i++] =
        decompositions(c, n, View<int64_t, 2>::contiguous(r.dec.data(), {An::MAX_DECOMPOSITIONS, An::DEC_WIDTH}));
    r.v[i++] = is_eight_pairs(c);
    r.v[i++] = eight_pairs_shanten(c);
    r.v[i++] = eight_pairs_wait_mask(c, h, v34(r.ep));
    r.v[i++] = thirteen_orphans_parts(c, p3);
    r.v[i++] = is_thirteen_orphans(c, shapes);
    r.v[i++] = thirteen_orphans_shanten(c, shapes);
    r.v[i++] = sixteen_unrelated_suits(c, shapes, p3);
    r.v[i++] = is_sixteen_unrelated(c, shapes);
    r.v[i++] = sixteen_unrelated_shanten(c, shapes);
    r.v[i++] = special_shape(c, shapes);
    r.v[i++] = special_wait_mask(c, h, shapes, v34(r.sw));
    r.v[i++] = is_win(c, n, shapes);
    r.v[i++] = win_shanten(c, n, shapes);
    r.v[i++] = win_wait_mask(c, n, h, shapes, v34(r.ww));
    return r;
}

// A complete hand of n sets and a pair from the bytes (a kind over 4 is capped: then not complete).
void structured(Reader& r, int64_t n, std::array<int8_t, 34>& c) {
    c.fill(0);
    for (int64_t s = 0; s < n; ++s) {
        const uint8_t t = r.u8();
        if (t & 1) {  // a chow: suit, then 1..7
            const int64_t lo = ((t >> 1) % 3) * 9 + r.u8() % 7;
            for (int d = 0; d < 3; ++d) ++c[lo + d];
        } else {
            c[r.u8() % 34] += 3;
        }
    }
    c[r.u8() % 34] += 2;
    for (auto& x : c)
        if (x > 4) x = 4;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r(data, size);
    const uint8_t mode = r.u8();
    const int64_t n = r.u8() % (An::MAX_SETS + 1);
    const int64_t shapes = r.u8();
    std::array<int8_t, 34> c{}, h{};
    const int kind = mode % 4;
    if (kind == 0) {  // raw int8: anything at all
        for (auto& x : c) x = static_cast<int8_t>(r.u8());
        for (auto& x : h) x = static_cast<int8_t>(r.u8());
    } else {
        if (kind == 1) {
            for (auto& x : c) x = static_cast<int8_t>(r.u8() % 5);
        } else {
            structured(r, n, c);
            if (kind == 3) {  // one tile less (a 3n+1 hand: waits) or more
                const int64_t k = r.u8() % 34;
                if (r.u8() & 1) {
                    if (c[k] > 0) --c[k];
                } else if (c[k] < 4) {
                    ++c[k];
                }
            }
        }
        h = c;
        if (mode & 4)  // held: more than the counts (tiles seen elsewhere), at most 4
            for (auto& x : h) x = static_cast<int8_t>(x + (r.u8() % 5 > x ? 1 : 0));
        for (auto& x : h)
            if (x > 4) x = 4;
    }
    const auto r8 = run_all<int8_t>(c, h, n, shapes);
    std::array<int64_t, 34> c64{}, h64{};
    for (int k = 0; k < 34; ++k) c64[k] = c[k], h64[k] = h[k];
    const auto r64 = run_all<int64_t>(c64, h64, n, shapes);
    for (int i = 0; i < 21; ++i)
        if (r8.v[i] != r64.v[i]) fail("hand: int8 and int64 counts differ in function", i, r8.v[i]);
    if (kind == 0) return 0;

    // properties on valid counts
    int64_t tiles = 0;
    for (int8_t x : c) tiles += x;
    const auto cv = View<const int8_t, 1>::contiguous(c.data(), {34});
    if (tiles == 3 * n + 2) {
        if (is_complete(cv, n) != (shanten(cv, n) == -1)) fail("hand: is_complete != (shanten == -1)", n, tiles);
        for (int64_t k = 0; k < 34; ++k) {
            if (c[k] == 0) {
                if (r8.ds[k] != An::NOT_HELD) fail("hand: discard_shanten of a kind not held", k, r8.ds[k]);
                continue;
            }
            std::array<int8_t, 34> d = c;
            --d[k];
            const int64_t s = shanten(View<const int8_t, 1>::contiguous(d.data(), {34}), n);
            if (r8.ds[k] != s) fail("hand: discard_shanten out[k] != shanten after discarding k", k, r8.ds[k]);
        }
    }
    if (tiles == 3 * n + 1) {
        for (int64_t k = 0; k < 34; ++k) {
            bool want = false;
            if (h[k] < 4 && c[k] < 4) {
                std::array<int8_t, 34> d = c;
                ++d[k];
                want = is_complete(View<const int8_t, 1>::contiguous(d.data(), {34}), n);
            }
            if ((r8.wm[k] != 0) != want)
                fail("hand: wait_mask[k] != (held[k] < 4 and counts + k complete)", k, r8.wm[k]);
        }
    }
    return 0;
}
