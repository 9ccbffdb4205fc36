// The one argument parser of the bindings (args.hpp).
#include "args.hpp"

#include <Python.h>

#include <string>

#include "tw16/constants.hpp"

namespace tw16::bind {

namespace {
namespace St = py::state;
namespace R = py::options;
namespace P = py::profile;

constexpr int N_FIELDS = TW16_STATE_N_FIELDS;
const char* const FIELDS[N_FIELDS] = {
#define TW16_NAME(name_, type_, rank_, shape_, fill_, writable_) #name_,
    TW16_STATE_FIELDS(TW16_NAME)
#undef TW16_NAME
};

// Field i of the state sequence (a tuple or a list, checked by the caller) without a new reference.
nb::handle item(nb::handle seq, int i) {
    return PyTuple_Check(seq.ptr()) ? PyTuple_GET_ITEM(seq.ptr(), i) : PyList_GET_ITEM(seq.ptr(), i);
}

// Field i of the state: writable (or, for the fields the engine only reads, any) and checked against
// want; the first sets the batch size B.
template <class T, int N>
View<T, N> state_field(nb::handle state, const char* arg, int i, bool writable, std::initializer_list<int64_t> want,
                       int64_t& B) {
    const Name name(arg, FIELDS[i]);
    View<T, N> v;
    if (writable) {
        v = rw<T, N>(rw_array(item(state, i), arg, FIELDS[i]), name, want);
    } else {
        const View<const T, N> r = ro<T, N>(ro_array(item(state, i), arg, FIELDS[i]), name, want);
        v.data = const_cast<T*>(r.data);
        for (int d = 0; d < N; ++d) {
            v.shape[d] = r.shape[d];
            v.stride[d] = r.stride[d];
        }
    }
    if (B < 0) B = v.shape[0];
    return v;
}

template <class T>
View<T, 1> mutable_1d(View<const T, 1> v) {
    View<T, 1> r;
    r.data = const_cast<T*>(v.data);
    r.shape[0] = v.shape[0];
    r.stride[0] = v.stride[0];
    return r;
}

// Row 3 of p_tai: the profile's items in table order, -1 after the last; used as indices.
void check_item_order(View<int32_t, 2> p_tai, const std::string& name) {
    for (int64_t r = 0; r < py::codes::N_ITEMS; ++r) {
        const int64_t i = p_tai(3, r);
        if (i < -1 || i >= py::codes::N_ITEMS)
            bad(name + ": row 3 (the items in table order) holds " + std::to_string(i) + " at " + std::to_string(r) +
                ", expected an item index 0.." + std::to_string(py::codes::N_ITEMS - 1) + " or -1");
    }
}

}  // namespace

void bad(const std::string& msg) { throw nb::value_error(msg.c_str()); }

void check_range(int64_t v, int64_t lo, int64_t hi, const std::string& name, const char* what) {
    if (v < lo || v > hi)
        bad(name + ": expected " + std::to_string(lo) + ".." + std::to_string(hi) + what + ", got " +
            std::to_string(v));
}

RwArray rw_array(nb::handle h, const char* arg, const char* field) {
    RwArray a;
    if (nb::try_cast<RwArray>(h, a, false)) return a;
    AnyArray r;
    if (nb::try_cast<AnyArray>(h, r, false))
        bad(Name(arg, field).str() + ": the array is read-only (the engine writes it)");
    bad(Name(arg, field).str() + ": expected a numpy array");
}

AnyArray ro_array(nb::handle h, const char* arg, const char* field) {
    AnyArray r;
    if (nb::try_cast<AnyArray>(h, r, false)) return r;
    bad(Name(arg, field).str() + ": expected a numpy array");
}

State state_of(nb::handle state, const char* arg) {
    const std::string a(arg);
    if (!nb::isinstance<nb::tuple>(state) && !nb::isinstance<nb::list>(state))
        bad(a + ": expected envs.engine.state.State (or a tuple of its " + std::to_string(N_FIELDS) + " arrays)");
    const size_t n = nb::len(state);
    if (n != N_FIELDS)
        bad(a + ": expected the " + std::to_string(N_FIELDS) + " arrays of envs.engine.state.State, got " +
            std::to_string(n));
    State S;
    // Field i in the order of envs.engine.state.FIELDS; B comes from the first (wall) and every other
    // array must agree; K (scripted walls per game) is any.
    int i = 0;
    int64_t B = -1;
    constexpr int64_t K = -1;
#define TW16_PARSE(name_, type_, rank_, shape_, fill_, writable_) \
    S.name_ = state_field<type_, rank_>(state, arg, i++, writable_, {TW16_UNPAREN shape_}, B);
    TW16_STATE_FIELDS(TW16_PARSE)
#undef TW16_PARSE
    return S;
}

RulesArrays rules_arrays_of(const AnyArray& opts_a, const AnyArray& cfg_a, const AnyArray& p_tai,
                            const AnyArray& p_repl, const AnyArray& p_opts) {
    RulesArrays r;
    r.opts = mutable_1d(ro<int64_t, 1>(opts_a, "opts", {R::N_OPTS}));
    const Opts& o = r.opts;
    if (o[R::OPT_DEAD_WALL] < 0 || o[R::OPT_DEAD_WALL] > St::WALL_SIZE)
        bad("opts: OPT_DEAD_WALL = " + std::to_string(o[R::OPT_DEAD_WALL]) + ", expected 0..144");
    // (base_chips' product must not overflow)
    check_range(o[R::OPT_BASE], 0, int64_t{1} << 40, "opts[OPT_BASE]");
    r.cfg = mutable_1d(ro<int64_t, 1>(cfg_a, "cfg", {py::mask::N_CFG}));
    r.prof.p_tai = view_of<int32_t, 2>(p_tai, "p_tai", {4, py::codes::N_ITEMS});
    r.prof.p_repl = view_of<int8_t, 2>(p_repl, "p_repl", {py::codes::N_ITEMS, py::codes::N_ITEMS});
    r.prof.p_opts = mutable_1d(ro<int64_t, 1>(p_opts, "p_opts", {P::N_POPTS}));
    check_item_order(r.prof.p_tai, "p_tai");
    return r;
}

}  // namespace tw16::bind
