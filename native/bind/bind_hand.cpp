// Bindings of the hand analysis (tw16/hand.hpp): the functions of envs/hand/analysis.py under the same
// names and parameter order, taking numpy arrays; batch forms over (B, 34) hands; the table accessors
// and check; the bench makers and loops of tw16/bench/hand.py.
//
// Boundary rules: counts and held are any integer dtype (int8/int16/int32/int64/uint8), length >= 34
// (only the first 34 are read), each 0..4; n_sets 0..5; out
// arrays writable, bool or an integer dtype, of the lengths the function writes. Counts and held are
// checked and copied to int8 (what the engine passes), out arrays are written in place in their own
// dtype, as numpy stores (a cast). Anything else raises TypeError/ValueError naming the argument.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "tw16/hand.hpp"
#include "tw16/parallel.hpp"

namespace tw16::bind {

namespace {

namespace An = py::analysis;
constexpr int64_t NK = py::tiles::N_KINDS;
using Counts = std::array<int8_t, 34>;
static_assert(py::tiles::N_KINDS == 34, "Counts holds the 34 kinds");

std::string S(const char* s) { return std::string(s); }

std::string dtype_str(const nb::dlpack::dtype& d) {
    const char* k = d.code == uint8_t(nb::dlpack::dtype_code::Int)     ? "int"
                    : d.code == uint8_t(nb::dlpack::dtype_code::UInt)  ? "uint"
                    : d.code == uint8_t(nb::dlpack::dtype_code::Float) ? "float"
                    : d.code == uint8_t(nb::dlpack::dtype_code::Bool)  ? "bool"
                                                                       : "?";
    return d.code == uint8_t(nb::dlpack::dtype_code::Bool) ? "bool" : k + std::to_string(d.bits);
}

// Call f(View<const T, N>) for the integer dtype of a (the count / held arrays).
template <int N, class Arr, class F>
decltype(auto) with_int(const Arr& a, const char* name, F&& f) {
    const auto d = a.dtype();
    if (d == nb::dtype<int8_t>()) return f(view_of<const int8_t, N>(a, name));
    if (d == nb::dtype<int16_t>()) return f(view_of<const int16_t, N>(a, name));
    if (d == nb::dtype<int32_t>()) return f(view_of<const int32_t, N>(a, name));
    if (d == nb::dtype<int64_t>()) return f(view_of<const int64_t, N>(a, name));
    if (d == nb::dtype<uint8_t>()) return f(view_of<const uint8_t, N>(a, name));
    throw nb::type_error(
        (S(name) + ": expected an integer dtype (int8, int16, int32, int64 or uint8), got " + dtype_str(d)).c_str());
}

// Call f(View<T, N>) for the dtype of a writable out array (bool or an integer type).
template <int N, class F>
decltype(auto) with_out(const RwArray& a, const char* name, F&& f) {
    const auto d = a.dtype();
    if (d == nb::dtype<bool>()) return f(view_of<bool, N>(a, name));
    if (d == nb::dtype<int8_t>()) return f(view_of<int8_t, N>(a, name));
    if (d == nb::dtype<int16_t>()) return f(view_of<int16_t, N>(a, name));
    if (d == nb::dtype<int32_t>()) return f(view_of<int32_t, N>(a, name));
    if (d == nb::dtype<int64_t>()) return f(view_of<int64_t, N>(a, name));
    if (d == nb::dtype<uint8_t>()) return f(view_of<uint8_t, N>(a, name));
    throw nb::type_error(
        (S(name) + ": expected a bool or integer dtype (int8, int16, int32, int64 or uint8), got " + dtype_str(d))
            .c_str());
}

void check_len(int64_t len, int64_t min_len, const char* name, bool exact) {
    if (exact ? len != min_len : len < min_len)
        throw nb::value_error((S(name) + ": expected length " + (exact ? "" : ">= ") + std::to_string(min_len) +
                               ", got " + std::to_string(len))
                                  .c_str());
}

// Check the 34 kinds of a count vector (0..4 each) and copy them to int8.
template <class V>
Counts to_counts(V v, const char* name, const char* row = "") {
    Counts c;
    for (int64_t k = 0; k < NK; ++k) {
        const int64_t x = static_cast<int64_t>(v[k]);
        if (x < 0 || x > 4)
            throw nb::value_error(
                (S(name) + row + "[" + std::to_string(k) + "] = " + std::to_string(x) + " is outside 0..4").c_str());
        c[k] = static_cast<int8_t>(x);
    }
    return c;
}

Counts load_counts(const AnyArray& a, const char* name = "counts") {
    return with_int<1>(a, name, [&](auto v) {
        check_len(v.shape[0], NK, name, false);  // longer rows are fine: the first 34 are read
        return to_counts(v, name);
    });
}

Counts load_held(const AnyArray& a, const char* name = "held") {
    return with_int<1>(a, name, [&](auto v) {
        check_len(v.shape[0], NK, name, false);
        return to_counts(v, name);
    });
}

V1<const int8_t> cv(const Counts& c) { return V1<const int8_t>::contiguous(c.data(), {NK}); }

int64_t check_n_sets(int64_t n_sets, const char* name = "n_sets") {
    if (n_sets < 0 || n_sets > An::MAX_SETS)
        throw nb::value_error(
            (S(name) + " = " + std::to_string(n_sets) + " is outside 0.." + std::to_string(An::MAX_SETS)).c_str());
    return n_sets;
}

// A new numpy array of shape `shape` owning a zeroed buffer.
template <class T>
nb::ndarray<nb::numpy, T> new_array(std::initializer_list<size_t> shape, T** data) {
    size_t n = 1;
    for (size_t s : shape) n *= s;
    T* buf = new T[n > 0 ? n : 1]();
    nb::capsule owner(buf, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    *data = buf;
    return nb::ndarray<nb::numpy, T>(buf, shape, owner);
}

// ---------------------------------------------------------------------------------------------
// Batches: hands (B, >= 34) any integer dtype; n_sets an int or an int64 (B,) array; held (B, >= 34)
// or None (= hands); every row checked before the GIL is released.

struct Batch {
    std::vector<Counts> hands, held;
    std::vector<int64_t> n_sets;
    int64_t size() const { return static_cast<int64_t>(hands.size()); }
};

std::vector<Counts> load_rows(const AnyArray& a, const char* name, bool exact) {
    return with_int<2>(a, name, [&](auto v) {
        check_len(v.shape[1], NK, name, exact);
        std::vector<Counts> rows(static_cast<size_t>(v.shape[0]));
        for (int64_t b = 0; b < v.shape[0]; ++b)
            rows[b] = to_counts(v[b], name, ("[" + std::to_string(b) + "]").c_str());
        return rows;
    });
}

Batch load_batch(const AnyArray& hands, const nb::object& n_sets, const nb::object& held) {
    Batch B;
    B.hands = load_rows(hands, "hands", false);
    const int64_t n = B.size();
    if (nb::isinstance<AnyArray>(n_sets)) {
        const auto ns = nb::cast<AnyArray>(n_sets);
        with_int<1>(ns, "n_sets", [&](auto v) {
            check_len(v.shape[0], n, "n_sets", true);
            for (int64_t b = 0; b < n; ++b)
                B.n_sets.push_back(
                    check_n_sets(static_cast<int64_t>(v[b]), ("n_sets[" + std::to_string(b) + "]").c_str()));
            return 0;
        });
    } else {
        const int64_t s = check_n_sets(nb::cast<int64_t>(n_sets));
        B.n_sets.assign(static_cast<size_t>(n), s);
    }
    if (held.is_none()) {
        B.held = B.hands;
    } else {
        B.held = load_rows(any_array(held, "held"), "held", false);
        if (static_cast<int64_t>(B.held.size()) != n)
            throw nb::value_error(
                ("held: expected " + std::to_string(n) + " rows like hands, got " + std::to_string(B.held.size()))
                    .c_str());
    }
    return B;
}

template <class T, class F>
nb::ndarray<nb::numpy, T> batch_scalar(const Batch& B, F&& f) {
    T* out;
    auto arr = new_array<T>({static_cast<size_t>(B.size())}, &out);
    {
        nb::gil_scoped_release nogil;
        parallel_for(B.size(), [&](int64_t b) { out[b] = static_cast<T>(f(b)); });
    }
    return arr;
}

template <class T, class F>
nb::ndarray<nb::numpy, T> batch_rows(const Batch& B, F&& f) {
    T* out;
    auto arr = new_array<T>({static_cast<size_t>(B.size()), static_cast<size_t>(NK)}, &out);
    {
        nb::gil_scoped_release nogil;
        parallel_for(B.size(), [&](int64_t b) { f(b, V1<T>::contiguous(out + b * NK, {NK})); });
    }
    return arr;
}

// ---------------------------------------------------------------------------------------------
// eval_batch: every analysis function over rows, for the differential test and the bench.

enum Fn : int64_t {
    F_CODES,
    F_COMBINE4,
    F_IS_COMPLETE,
    F_SHANTEN,
    F_DISCARD_SHANTEN,
    F_BEST_DISCARDS,
    F_WAIT_MASK,
    F_WAIT_ARRAY,
    F_DECOMPOSITIONS,
    F_IS_EIGHT_PAIRS,
    F_EIGHT_PAIRS_SHANTEN,
    F_EIGHT_PAIRS_WAIT_MASK,
    F_THIRTEEN_ORPHANS_PARTS,
    F_IS_THIRTEEN_ORPHANS,
    F_THIRTEEN_ORPHANS_SHANTEN,
    F_SIXTEEN_UNRELATED_SUITS,
    F_IS_SIXTEEN_UNRELATED,
    F_SIXTEEN_UNRELATED_SHANTEN,
    F_SPECIAL_SHAPE,
    F_SPECIAL_WAIT_MASK,
    F_IS_WIN,
    F_WIN_SHANTEN,
    F_WIN_WAIT_MASK,
    F_COUNT
};
const char* const FN_NAMES[F_COUNT] = {"codes",
                                       "combine4",
                                       "is_complete",
                                       "shanten",
                                       "discard_shanten",
                                       "best_discards",
                                       "wait_mask",
                                       "wait_array",
                                       "decompositions",
                                       "is_eight_pairs",
                                       "eight_pairs_shanten",
                                       "eight_pairs_wait_mask",
                                       "thirteen_orphans_parts",
                                       "is_thirteen_orphans",
                                       "thirteen_orphans_shanten",
                                       "sixteen_unrelated_suits",
                                       "is_sixteen_unrelated",
                                       "sixteen_unrelated_shanten",
                                       "special_shape",
                                       "special_wait_mask",
                                       "is_win",
                                       "win_shanten",
                                       "win_wait_mask"};
constexpr int64_t EVAL_W = An::MAX_DECOMPOSITIONS * An::DEC_WIDTH;  // out columns of eval_batch (>= 34)

// One function on one row; out (EVAL_W int64, pre-filled by the caller) receives what it writes.
template <class C, class H>
int64_t eval_one(int64_t fn, V1<C> c, int64_t n_sets, V1<H> held, int64_t shapes, int64_t* o) {
    const auto out = V1<int64_t>::contiguous(o, {NK});
    const auto out3 = V1<int64_t>::contiguous(o, {3});
    switch (fn) {
        case F_CODES: {
            const HandCodes h = group_codes(c);
            for (int i = 0; i < 4; ++i) {
                o[i] = h.c[i];
                o[4 + i] = h.n[i];
            }
            return h.c[0];
        }
        case F_COMBINE4: {  // the rows of the hand's four codes (valid counts only)
            const HandCodes h = group_codes(c);
            if (h.c[0] < 0) return -1;
            const HandTables& T = hand_tables();
            const int64_t nc = py::tables::N_COLS;
            return combine_rows(T.suit_dist + h.c[0] * nc, T.suit_dist + h.c[1] * nc, T.suit_dist + h.c[2] * nc,
                                T.honour_dist + h.c[3] * nc, n_sets);
        }
        case F_IS_COMPLETE:
            return is_complete(c, n_sets);
        case F_SHANTEN:
            return shanten(c, n_sets);
        case F_DISCARD_SHANTEN:
            return discard_shanten(c, n_sets, out);
        case F_BEST_DISCARDS:
            return best_discards(c, n_sets, out);
        case F_WAIT_MASK:
            return wait_mask(c, n_sets, held, out);
        case F_WAIT_ARRAY: {
            const auto w = wait_array(c, n_sets, held);
            for (int64_t k = 0; k < NK; ++k) o[k] = w[k];
            return 0;
        }
        case F_DECOMPOSITIONS:
            return decompositions(c, n_sets, V2<int64_t>::contiguous(o, {An::MAX_DECOMPOSITIONS, An::DEC_WIDTH}));
        case F_IS_EIGHT_PAIRS:
            return is_eight_pairs(c);
        case F_EIGHT_PAIRS_SHANTEN:
            return eight_pairs_shanten(c);
        case F_EIGHT_PAIRS_WAIT_MASK:
            return eight_pairs_wait_mask(c, held, out);
        case F_THIRTEEN_ORPHANS_PARTS:
            return thirteen_orphans_parts(c, out3);
        case F_IS_THIRTEEN_ORPHANS:
            return is_thirteen_orphans(c, shapes);
        case F_THIRTEEN_ORPHANS_SHANTEN:
            return thirteen_orphans_shanten(c, shapes);
        case F_SIXTEEN_UNRELATED_SUITS:
            return sixteen_unrelated_suits(c, shapes, out3);
        case F_IS_SIXTEEN_UNRELATED:
            return is_sixteen_unrelated(c, shapes);
        case F_SIXTEEN_UNRELATED_SHANTEN:
            return sixteen_unrelated_shanten(c, shapes);
        case F_SPECIAL_SHAPE:
            return special_shape(c, shapes);
        case F_SPECIAL_WAIT_MASK:
            return special_wait_mask(c, held, shapes, out);
        case F_IS_WIN:
            return is_win(c, n_sets, shapes);
        case F_WIN_SHANTEN:
            return win_shanten(c, n_sets, shapes);
        case F_WIN_WAIT_MASK:
            return win_wait_mask(c, n_sets, held, shapes, out);
        default:
            return 0;
    }
}

int64_t fn_index(const std::string& name) {
    for (int64_t i = 0; i < F_COUNT; ++i)
        if (name == FN_NAMES[i]) return i;
    throw nb::value_error(("fn: unknown hand function " + name).c_str());
}

// hands (B, 34) and held (B, >= 34) both int8 or both int64; n_sets, shapes int64 (B,); out int64
// (B, EVAL_W) pre-filled by the caller (partial writes stay visible). strict=false skips the 0..4
// checks of counts and held (the functions' own INVALID paths), never the bounds: every function is
// safe for any count value, and n_sets only sizes decompositions' rows (kept within 0..5 there).
template <class T>
void eval_batch_t(int64_t fn, const AnyArray& hands, const AnyArray& held, V1<const int64_t> ns, V1<const int64_t> sh,
                  V2<int64_t> out, V1<int64_t> ret, bool strict) {
    const auto h = view_of<const T, 2>(hands, "hands");
    const auto hd = view_of<const T, 2>(held, "held");
    const int64_t n = h.shape[0];
    check_len(h.shape[1], NK, "hands.shape[1]", false);
    check_len(hd.shape[1], NK, "held.shape[1]", false);
    check_len(hd.shape[0], n, "held.shape[0]", true);
    check_len(ns.shape[0], n, "n_sets", true);
    check_len(sh.shape[0], n, "shapes", true);
    check_len(out.shape[0], n, "out.shape[0]", true);
    check_len(out.shape[1], EVAL_W, "out.shape[1]", true);
    check_len(ret.shape[0], n, "ret", true);
    for (int64_t b = 0; b < n; ++b) {
        if (strict) {
            to_counts(h[b], "hands", ("[" + std::to_string(b) + "]").c_str());
            to_counts(hd[b], "held", ("[" + std::to_string(b) + "]").c_str());
            check_n_sets(ns[b], "n_sets");
        }
        if (fn == F_DECOMPOSITIONS || fn == F_COMBINE4) check_n_sets(ns[b], "n_sets");
    }
    nb::gil_scoped_release nogil;
    parallel_for(n, [&](int64_t b) {
        int64_t o[EVAL_W];
        for (int64_t j = 0; j < EVAL_W; ++j) o[j] = out(b, j);
        ret[b] = eval_one(fn, h[b], ns[b], hd[b], sh[b], o);
        for (int64_t j = 0; j < EVAL_W; ++j) out(b, j) = o[j];
    });
}

// ---------------------------------------------------------------------------------------------
// bench.py's makers: check what would make them loop forever.

V2<int8_t> bench_hands(const RwArray& a, const char* name) {
    auto v = rw<int8_t, 2>(a, name);
    check_len(v.shape[1], NK, (S(name) + ".shape[1]").c_str(), false);
    return v;
}

}  // namespace

void bind_hand(nb::module_& m, nb::module_& t) {
    // The tables are built and checked at import: a generator that drifts fails loudly here.
    static nb::exception<TableError> table_error(m, "TableError", PyExc_RuntimeError);
    hand_tables();

    // ---- tables
    m.def(
        "hand_tables",
        [] {
            const HandTables& T = hand_tables();
            auto ro_arr = [](const uint8_t* p, std::initializer_list<size_t> shape) {
                // a view of the process-lifetime tables (an owner that frees nothing; without one nanobind copies)
                nb::capsule owner(p, [](void*) noexcept {});
                return nb::ndarray<nb::numpy, const uint8_t, nb::ro>(p, shape, owner);
            };
            const size_t ns = py::tables::N_SUIT_CODES, nh = py::tables::N_HONOUR_CODES, nc = py::tables::N_COLS;
            return nb::make_tuple(ro_arr(T.suit_dist, {ns, nc}), ro_arr(T.suit_flags, {ns}),
                                  ro_arr(T.honour_dist, {nh, nc}), ro_arr(T.honour_flags, {nh}));
        },
        "(suit_dist, suit_flags, honour_dist, honour_flags): read-only views of the built tables");
    t.def("hand_tables_sha256", &hand_tables_sha256, "SHA-256 of MAGIC + the four tables as built");
    t.def("check_hand_tables", &check_hand_tables, nb::arg("expected_sha256"),
          "Recompute the tables' SHA-256; raise TableError unless it is expected_sha256");
    t.def(
        "sha256_hex",
        [](const nb::bytes& data) { return sha256_hex(static_cast<const uint8_t*>(data.data()), data.size()); },
        nb::arg("data"), "SHA-256 (hex) of bytes: the digest the table check uses");
    t.attr("HAND_TABLES_MAGIC") = nb::bytes(HAND_TABLES_MAGIC, std::strlen(HAND_TABLES_MAGIC));
    t.attr("HAND_TABLES_SHA256") = HAND_TABLES_SHA256;
    t.def(
        "gen_group",
        [](int64_t nk, bool allow_chi) {
            if (nk < 3 || nk > 9) throw nb::value_error(("nk = " + std::to_string(nk) + " is outside 3..9").c_str());
            auto [d, f] = gen_group(nk, allow_chi);
            uint8_t *dp, *fp;
            auto da = new_array<uint8_t>({f.size(), static_cast<size_t>(py::tables::N_COLS)}, &dp);
            auto fa = new_array<uint8_t>({f.size()}, &fp);
            std::memcpy(dp, d.data(), d.size());
            std::memcpy(fp, f.data(), f.size());
            return nb::make_tuple(da, fa);
        },
        nb::arg("nk"), nb::arg("allow_chi"), "_gen.gen_group: (dist[5**nk, 12], flags[5**nk])");

    // ---- private helpers
    t.def(
        "codes",
        [](const AnyArray& counts) {
            const HandCodes h = group_codes(cv(load_counts(counts)));
            return nb::make_tuple(nb::make_tuple(h.c[0], h.c[1], h.c[2], h.c[3]),
                                  nb::make_tuple(h.n[0], h.n[1], h.n[2], h.n[3]));
        },
        nb::arg("counts"));
    t.def(
        "combine4",
        [](const AnyArray& r0, const AnyArray& r1, const AnyArray& r2, const AnyArray& r3, int64_t n) {
            check_n_sets(n, "n");
            std::array<std::array<uint8_t, 12>, 4> rows;
            const AnyArray* rs[4] = {&r0, &r1, &r2, &r3};
            const char* names[4] = {"r0", "r1", "r2", "r3"};
            for (int i = 0; i < 4; ++i) {
                const auto v = ro<uint8_t, 1>(*rs[i], names[i]);
                check_len(v.shape[0], py::tables::N_COLS, names[i], false);
                for (int j = 0; j < 12; ++j) rows[i][j] = v[j];
            }
            return combine_rows(rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data(), n);
        },
        nb::arg("r0"), nb::arg("r1"), nb::arg("r2"), nb::arg("r3"), nb::arg("n"));
    t.def(
        "is_orphan",
        [](int64_t k) {
            if (k < 0 || k >= NK) throw nb::value_error(("k = " + std::to_string(k) + " is outside 0..33").c_str());
            return is_orphan_kind(k);
        },
        nb::arg("k"));
    t.def("thirteen_code_ok", &thirteen_code_ok, nb::arg("code"), nb::arg("shapes"));
    t.def(
        "extra_cost",
        [](const AnyArray& c, const AnyArray& need, const AnyArray& ks, int64_t n) {
            const auto cv_ = ro<int64_t, 1>(c, "c");
            const auto nv = ro<int64_t, 1>(need, "need");
            const auto kv = ro<int64_t, 1>(ks, "ks");
            check_len(cv_.shape[0], NK, "c", false);
            check_len(nv.shape[0], NK, "need", false);
            if (n < 0 || n > kv.shape[0])
                throw nb::value_error(("n = " + std::to_string(n) + " is outside 0..len(ks)").c_str());
            std::array<int64_t, 34> cc, nn;
            std::vector<int64_t> kk(static_cast<size_t>(n));
            // (counts in the analysis; bounded so that the differences and their sum cannot overflow)
            constexpr int64_t LIM = int64_t{1} << 40;
            for (int64_t k = 0; k < NK; ++k) {
                if (cv_[k] < -LIM || cv_[k] > LIM || nv[k] < -LIM || nv[k] > LIM)
                    throw nb::value_error(("c[" + std::to_string(k) + "] = " + std::to_string(cv_[k]) + ", need[" +
                                           std::to_string(k) + "] = " + std::to_string(nv[k]) +
                                           ": expected values in -2**40..2**40")
                                              .c_str());
                cc[k] = cv_[k];
                nn[k] = nv[k];
            }
            for (int64_t i = 0; i < n; ++i) {
                if (kv[i] < 0 || kv[i] >= NK)
                    throw nb::value_error(
                        ("ks[" + std::to_string(i) + "] = " + std::to_string(kv[i]) + " is outside 0..33").c_str());
                kk[i] = kv[i];
            }
            return orphan_cost_change(cc.data(), nn.data(), kk.data(), n);
        },
        nb::arg("c"), nb::arg("need"), nb::arg("ks"), nb::arg("n"));

    // ---- analysis.py, one hand per call
    t.def(
        "is_complete",
        [](const AnyArray& counts, int64_t n_sets) {
            return is_complete(cv(load_counts(counts)), check_n_sets(n_sets));
        },
        nb::arg("counts"), nb::arg("n_sets"), "True iff counts is exactly n_sets sets and one pair");
    t.def(
        "shanten",
        [](const AnyArray& counts, int64_t n_sets) { return shanten(cv(load_counts(counts)), check_n_sets(n_sets)); },
        nb::arg("counts"), nb::arg("n_sets"), "Shanten of the standard shape: -1 complete, 0 ready, ...");
    m.def(
        "discard_shanten",
        [](const AnyArray& counts, int64_t n_sets, const RwArray& out) {
            const Counts c = load_counts(counts);
            check_n_sets(n_sets);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], NK, "out", false);
                return discard_shanten(cv(c), n_sets, o);
            });
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("out"),
        "out[k] = shanten after discarding k (NOT_HELD if not held)");
    t.def(
        "best_discards",
        [](const AnyArray& counts, int64_t n_sets, const RwArray& mask) {
            const Counts c = load_counts(counts);
            check_n_sets(n_sets);
            return with_out<1>(mask, "mask", [&](auto o) {
                check_len(o.shape[0], NK, "mask", false);
                return best_discards(cv(c), n_sets, o);
            });
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("mask"));
    t.def(
        "wait_mask",
        [](const AnyArray& counts, int64_t n_sets, const AnyArray& held, const RwArray& out) {
            const Counts c = load_counts(counts), h = load_held(held);
            check_n_sets(n_sets);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], NK, "out", false);
                return wait_mask(cv(c), n_sets, cv(h), o);
            });
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("held"), nb::arg("out"),
        "Waits of a 3n+1 hand into out; returns their number");
    t.def(
        "wait_array",
        [](const AnyArray& counts, int64_t n_sets, const AnyArray& held) {
            const Counts c = load_counts(counts), h = load_held(held);
            const auto w = wait_array(cv(c), check_n_sets(n_sets), cv(h));
            bool* p;
            auto a = new_array<bool>({static_cast<size_t>(NK)}, &p);
            for (int64_t k = 0; k < NK; ++k) p[k] = w[k];
            return a;
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("held"));
    m.def(
        "decompositions",
        [](const AnyArray& counts, int64_t n_sets, const RwArray& out) {
            const Counts c = load_counts(counts);
            check_n_sets(n_sets);
            return with_out<2>(out, "out", [&](auto o) {
                if (o.shape[1] < 1 + 2 * n_sets)
                    throw nb::value_error(("out: expected >= " + std::to_string(1 + 2 * n_sets) +
                                           " columns for n_sets = " + std::to_string(n_sets) + ", got " +
                                           std::to_string(o.shape[1]))
                                              .c_str());
                return decompositions(cv(c), n_sets, o);
            });
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("out"),
        "Rows [pair, type, kind, ...] of every decomposition; returns their number");
    t.def(
        "is_eight_pairs", [](const AnyArray& counts) { return is_eight_pairs(cv(load_counts(counts))); },
        nb::arg("counts"));
    t.def(
        "eight_pairs_shanten", [](const AnyArray& counts) { return eight_pairs_shanten(cv(load_counts(counts))); },
        nb::arg("counts"));
    t.def(
        "eight_pairs_wait_mask",
        [](const AnyArray& counts, const AnyArray& held, const RwArray& out) {
            const Counts c = load_counts(counts), h = load_held(held);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], NK, "out", false);
                return eight_pairs_wait_mask(cv(c), cv(h), o);
            });
        },
        nb::arg("counts"), nb::arg("held"), nb::arg("out"));
    t.def(
        "thirteen_orphans_parts",
        [](const AnyArray& counts, const RwArray& out) {
            const Counts c = load_counts(counts);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], 3, "out", false);
                return thirteen_orphans_parts(cv(c), o);
            });
        },
        nb::arg("counts"), nb::arg("out"));
    t.def(
        "is_thirteen_orphans",
        [](const AnyArray& counts, int64_t shapes) { return is_thirteen_orphans(cv(load_counts(counts)), shapes); },
        nb::arg("counts"), nb::arg("shapes"));
    t.def(
        "thirteen_orphans_shanten",
        [](const AnyArray& counts, int64_t shapes) {
            return thirteen_orphans_shanten(cv(load_counts(counts)), shapes);
        },
        nb::arg("counts"), nb::arg("shapes"));
    t.def(
        "sixteen_unrelated_suits",
        [](const AnyArray& counts, int64_t shapes, const RwArray& out) {
            const Counts c = load_counts(counts);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], 3, "out", false);
                return sixteen_unrelated_suits(cv(c), shapes, o);
            });
        },
        nb::arg("counts"), nb::arg("shapes"), nb::arg("out"));
    t.def(
        "is_sixteen_unrelated",
        [](const AnyArray& counts, int64_t shapes) { return is_sixteen_unrelated(cv(load_counts(counts)), shapes); },
        nb::arg("counts"), nb::arg("shapes"));
    t.def(
        "sixteen_unrelated_shanten",
        [](const AnyArray& counts, int64_t shapes) {
            return sixteen_unrelated_shanten(cv(load_counts(counts)), shapes);
        },
        nb::arg("counts"), nb::arg("shapes"));
    m.def(
        "special_shape",
        [](const AnyArray& counts, int64_t shapes) { return special_shape(cv(load_counts(counts)), shapes); },
        nb::arg("counts"), nb::arg("shapes"));
    t.def(
        "special_wait_mask",
        [](const AnyArray& counts, const AnyArray& held, int64_t shapes, const RwArray& out) {
            const Counts c = load_counts(counts), h = load_held(held);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], NK, "out", false);
                return special_wait_mask(cv(c), cv(h), shapes, o);
            });
        },
        nb::arg("counts"), nb::arg("held"), nb::arg("shapes"), nb::arg("out"));
    m.def(
        "is_win",
        [](const AnyArray& counts, int64_t n_sets, int64_t shapes) {
            return is_win(cv(load_counts(counts)), check_n_sets(n_sets), shapes);
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("shapes"), "is_complete, or a special shape enabled in shapes");
    m.def(
        "win_shanten",
        [](const AnyArray& counts, int64_t n_sets, int64_t shapes) {
            return win_shanten(cv(load_counts(counts)), check_n_sets(n_sets), shapes);
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("shapes"),
        "Lowest shanten over the standard and enabled special shapes");
    m.def(
        "win_wait_mask",
        [](const AnyArray& counts, int64_t n_sets, const AnyArray& held, int64_t shapes, const RwArray& out) {
            const Counts c = load_counts(counts), h = load_held(held);
            check_n_sets(n_sets);
            return with_out<1>(out, "out", [&](auto o) {
                check_len(o.shape[0], NK, "out", false);
                return win_wait_mask(cv(c), n_sets, cv(h), shapes, o);
            });
        },
        nb::arg("counts"), nb::arg("n_sets"), nb::arg("held"), nb::arg("shapes"), nb::arg("out"),
        "wait_mask OR-ed with the waits of the enabled special shapes; returns the count");

    // ---- batch forms: hands (B, 34); n_sets int or (B,); held (B, >= 34) or None (= hands)
    m.def(
        "is_complete_batch",
        [](const AnyArray& hands, const nb::object& n_sets) {
            const Batch B = load_batch(hands, n_sets, nb::none());
            return batch_scalar<bool>(B, [&](int64_t b) { return is_complete(cv(B.hands[b]), B.n_sets[b]); });
        },
        nb::arg("hands"), nb::arg("n_sets"), "is_complete of every row: bool (B,)");
    m.def(
        "shanten_batch",
        [](const AnyArray& hands, const nb::object& n_sets) {
            const Batch B = load_batch(hands, n_sets, nb::none());
            return batch_scalar<int64_t>(B, [&](int64_t b) { return shanten(cv(B.hands[b]), B.n_sets[b]); });
        },
        nb::arg("hands"), nb::arg("n_sets"), "shanten of every row: int64 (B,)");
    t.def(
        "is_win_batch",
        [](const AnyArray& hands, const nb::object& n_sets, int64_t shapes) {
            const Batch B = load_batch(hands, n_sets, nb::none());
            return batch_scalar<bool>(B, [&](int64_t b) { return is_win(cv(B.hands[b]), B.n_sets[b], shapes); });
        },
        nb::arg("hands"), nb::arg("n_sets"), nb::arg("shapes"), "is_win of every row: bool (B,)");
    m.def(
        "win_shanten_batch",
        [](const AnyArray& hands, const nb::object& n_sets, int64_t shapes) {
            const Batch B = load_batch(hands, n_sets, nb::none());
            return batch_scalar<int64_t>(B,
                                         [&](int64_t b) { return win_shanten(cv(B.hands[b]), B.n_sets[b], shapes); });
        },
        nb::arg("hands"), nb::arg("n_sets"), nb::arg("shapes"), "win_shanten of every row: int64 (B,)");
    m.def(
        "discard_shanten_batch",
        [](const AnyArray& hands, const nb::object& n_sets) {
            const Batch B = load_batch(hands, n_sets, nb::none());
            return batch_rows<int64_t>(
                B, [&](int64_t b, V1<int64_t> o) { discard_shanten(cv(B.hands[b]), B.n_sets[b], o); });
        },
        nb::arg("hands"), nb::arg("n_sets"), "discard_shanten of every row: int64 (B, 34)");
    t.def(
        "wait_mask_batch",
        [](const AnyArray& hands, const nb::object& n_sets, const nb::object& held) {
            const Batch B = load_batch(hands, n_sets, held);
            return batch_rows<bool>(
                B, [&](int64_t b, V1<bool> o) { wait_mask(cv(B.hands[b]), B.n_sets[b], cv(B.held[b]), o); });
        },
        nb::arg("hands"), nb::arg("n_sets"), nb::arg("held") = nb::none(), "wait_mask of every row: bool (B, 34)");
    m.def(
        "win_wait_mask_batch",
        [](const AnyArray& hands, const nb::object& n_sets, const nb::object& held, int64_t shapes) {
            const Batch B = load_batch(hands, n_sets, held);
            return batch_rows<bool>(B, [&](int64_t b, V1<bool> o) {
                win_wait_mask(cv(B.hands[b]), B.n_sets[b], cv(B.held[b]), shapes, o);
            });
        },
        nb::arg("hands"), nb::arg("n_sets"), nb::arg("held"), nb::arg("shapes"),
        "win_wait_mask of every row: bool (B, 34)");

    t.attr("HAND_EVAL_FNS") = [] {
        nb::list l;
        for (auto* s : FN_NAMES) l.append(s);
        return nb::tuple(l);
    }();
    t.attr("HAND_EVAL_WIDTH") = EVAL_W;
    t.def(
        "eval_batch",
        [](const std::string& fn, const AnyArray& hands, const AnyArray& n_sets, const AnyArray& held,
           const AnyArray& shapes, const RwArray& out, const RwArray& ret, bool strict) {
            const int64_t f = fn_index(fn);
            const auto ns = ro<int64_t, 1>(n_sets, "n_sets");
            const auto sh = ro<int64_t, 1>(shapes, "shapes");
            const auto o = rw<int64_t, 2>(out, "out");
            const auto r = rw<int64_t, 1>(ret, "ret");
            if (hands.dtype() != held.dtype()) throw nb::type_error("held: expected the dtype of hands");
            if (hands.dtype() == nb::dtype<int8_t>())
                eval_batch_t<int8_t>(f, hands, held, ns, sh, o, r, strict);
            else if (hands.dtype() == nb::dtype<int64_t>())
                eval_batch_t<int64_t>(f, hands, held, ns, sh, o, r, strict);
            else
                throw nb::type_error("hands: expected dtype int8 or int64");
        },
        nb::arg("fn"), nb::arg("hands"), nb::arg("n_sets"), nb::arg("held"), nb::arg("shapes"), nb::arg("out"),
        nb::arg("ret"), nb::arg("strict") = true,
        "ret[b] = fn(row b) and out[b] what it writes (tests, bench): every analysis function by name");

    // ---- bench.py
    m.def(
        "random_complete",
        [](const RwArray& out, int64_t n_sets, int64_t seed) {
            const auto v = bench_hands(out, "out");
            check_n_sets(n_sets);
            nb::gil_scoped_release nogil;
            random_complete_hands(v, n_sets, seed);
        },
        nb::arg("out"), nb::arg("n_sets"), nb::arg("seed"));
    m.def(
        "perturb",
        [](const RwArray& hands, int64_t seed, double frac) {
            const auto v = bench_hands(hands, "hands");
            for (int64_t r = 0; r < v.shape[0]; ++r) {  // a tile to move and a kind below 4 elsewhere
                int64_t n_room = 0;
                for (int64_t k = 0; k < NK; ++k) {
                    n_room += v(r, k) < 4;
                }
                bool ok = false;
                for (int64_t a = 0; a < NK && !ok; ++a)
                    if (v(r, a) > 0) ok = n_room - (v(r, a) < 4) > 0;
                if (!ok)
                    throw nb::value_error(
                        ("hands[" + std::to_string(r) + "]: no tile can move to another kind").c_str());
            }
            nb::gil_scoped_release nogil;
            perturb_hands(v, seed, frac);
        },
        nb::arg("hands"), nb::arg("seed"), nb::arg("frac"));
    m.def(
        "drop_one",
        [](const RwArray& hands, int64_t seed) {
            const auto v = bench_hands(hands, "hands");
            for (int64_t r = 0; r < v.shape[0]; ++r) {
                bool any = false;
                for (int64_t k = 0; k < NK; ++k) any |= v(r, k) > 0;
                if (!any) throw nb::value_error(("hands[" + std::to_string(r) + "]: no tile to drop").c_str());
            }
            nb::gil_scoped_release nogil;
            drop_one_tile(v, seed);
        },
        nb::arg("hands"), nb::arg("seed"));
    m.def(
        "random_wall_hands",
        [](const RwArray& out, int64_t n_tiles, int64_t seed) {
            const auto v = bench_hands(out, "out");
            if (n_tiles < 0 || n_tiles > 136)
                throw nb::value_error(("n_tiles = " + std::to_string(n_tiles) + " is outside 0..136").c_str());
            nb::gil_scoped_release nogil;
            random_wall_hands(v, n_tiles, seed);
        },
        nb::arg("out"), nb::arg("n_tiles"), nb::arg("seed"));
    using Loop = int64_t (*)(View<int8_t, 2>, int64_t);
    const std::pair<const char*, Loop> loops[] = {{"loop_complete", &sum_is_complete},
                                                  {"loop_shanten", &sum_shanten},
                                                  {"loop_waits", &sum_waits},
                                                  {"loop_decompositions", &sum_decompositions},
                                                  {"loop_discard_shanten", &sum_discard_shanten}};
    for (const auto& [name, fn] : loops) {
        m.def(
            name,
            [fn = fn](const AnyArray& hands, int64_t n_sets) {
                // The loops are safe for any count value (bad counts give INVALID / 0), so only shapes are checked.
                const auto v = view_of<int8_t, 2>(hands, "hands");
                check_len(v.shape[1], NK, "hands.shape[1]", false);
                check_n_sets(n_sets);
                nb::gil_scoped_release nogil;
                return fn(v, n_sets);
            },
            nb::arg("hands"), nb::arg("n_sets"));
    }
}

}  // namespace tw16::bind
