// envs._core.Rules: the rules compiled once (tw16/rules.hpp), built from the arrays Python compiles
// (Rules.as_array(), engine_config, Profile.compiled()) and checked here, once, by the one parser
// (args.hpp); every binding that needs the rules takes it (the engine, search, encoder, scoring,
// hongkong, mask and claim calls). It copies the arrays, so a later change to
// them changes nothing, and it is never written after: calls may share it across threads unheld.
#include <algorithm>
#include <initializer_list>

#include "args.hpp"
#include "tw16/rules.hpp"

namespace tw16::bind {

namespace {
template <class T, int N, size_t M>
void copy_into(std::array<T, M>& dst, const View<T, N>& v) {
    size_t i = 0;
    if constexpr (N == 1) {
        for (int64_t a = 0; a < v.shape[0]; ++a) dst[i++] = v(a);
    } else {
        for (int64_t a = 0; a < v.shape[0]; ++a)
            for (int64_t b = 0; b < v.shape[1]; ++b) dst[i++] = v(a, b);
    }
}
// A numpy copy of one of the rules' arrays.
template <class T, size_t M>
nb::object to_numpy(const std::array<T, M>& a, std::initializer_list<size_t> shape) {
    T* buf = new T[M];
    std::copy(a.begin(), a.end(), buf);
    nb::capsule owner(buf, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::cast(nb::ndarray<nb::numpy, T>(buf, shape.size(), shape.begin(), owner));
}

// Check the arrays (args.hpp) and build the rules in place.
void build(Rules* self, const AnyArray& opts_a, const AnyArray& cfg_a, const AnyArray& p_tai, const AnyArray& p_repl,
           const AnyArray& p_opts) {
    const RulesArrays a = rules_arrays_of(opts_a, cfg_a, p_tai, p_repl, p_opts);
    Rules* R = new (self) Rules();
    copy_into(R->opts, a.opts);
    copy_into(R->cfg, a.cfg);
    copy_into(R->p_tai, a.prof.p_tai);
    copy_into(R->p_repl, a.prof.p_repl);
    copy_into(R->p_opts, a.prof.p_opts);
}

nb::tuple arrays(const Rules& R) {
    constexpr size_t NI = Rules::N_ITEMS;
    return nb::make_tuple(to_numpy(R.opts, {Rules::N_OPTS}), to_numpy(R.cfg, {Rules::N_CFG}),
                          to_numpy(R.p_tai, {4, NI}), to_numpy(R.p_repl, {NI, NI}),
                          to_numpy(R.p_opts, {Rules::N_POPTS}));
}

}  // namespace

void check_divides(const Rules& R) {
    if (R.opts[py::options::OPT_PER_TAI] == 0) bad("rules: OPT_PER_TAI is 0 (rewards are chips / per_tai)");
}

void bind_rules(nb::module_& m) {
    nb::class_<Rules>(m, "Rules",
                      "The rules compiled once (tw16/rules.hpp): Rules(opts, cfg, p_tai, p_repl, p_opts) copies and "
                      "checks Rules.as_array(), engine_config(rules) and Profile.compiled(); "
                      "envs.engine.mask.native_rules(rules) builds (and caches) the one of a rules object.")
        .def("__init__", &build, nb::arg("opts"), nb::arg("cfg"), nb::arg("p_tai"), nb::arg("p_repl"),
             nb::arg("p_opts"))
        .def("arrays", &arrays, "Copies of the arrays it was built from: (opts, cfg, p_tai, p_repl, p_opts).")
        // never changed after it is built: a copy is the object itself; pickled as its arrays
        .def("__copy__", [](nb::handle self) { return nb::borrow(self); })
        .def("__deepcopy__", [](nb::handle self, nb::handle) { return nb::borrow(self); })
        .def("__getstate__", &arrays)
        .def("__setstate__", [](Rules& self, const nb::tuple& t) {
            if (t.size() != 5) bad("Rules.__setstate__: expected the 5 arrays of Rules.arrays()");
            build(&self, nb::cast<AnyArray>(t[0]), nb::cast<AnyArray>(t[1]), nb::cast<AnyArray>(t[2]),
                  nb::cast<AnyArray>(t[3]), nb::cast<AnyArray>(t[4]));
        });
}

}  // namespace tw16::bind
