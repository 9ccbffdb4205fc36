// envs._core: the native core of tw16 (rules, hand analysis, scoring, engine, encoders, agents'
// batch helpers), and envs._core._testing: what only the tests call. Each concept binds its own
// functions in native/bind/bind_<concept>.cpp, the test-only ones on the submodule t.
#include <nanobind/nanobind.h>

#include "common.hpp"
#include "tw16/parallel.hpp"

namespace nb = nanobind;

namespace tw16::bind {
std::string shape_str(const int64_t* shape, size_t ndim) {
    std::string s = "(";
    for (size_t i = 0; i < ndim; ++i) s += std::to_string(shape[i]) + (ndim == 1 || i + 1 < ndim ? "," : "");
    return s + ")";
}
void bind_rules(nb::module_& m);
void bind_hand(nb::module_& m, nb::module_& t);
void bind_scoring(nb::module_& m, nb::module_& t);
void bind_hongkong(nb::module_& m, nb::module_& t);
void bind_engine_parts(nb::module_& m, nb::module_& t);
void bind_engine(nb::module_& m, nb::module_& t);
void bind_obs(nb::module_& m);
void bind_agents(nb::module_& m);
void bind_search(nb::module_& m);
}  // namespace tw16::bind

NB_MODULE(_core, m) {
    m.doc() = "tw16 native core (C++17): hand analysis, scoring, the batch engine, encoders";
    m.def(
        "set_num_threads",
        [](int64_t n) {
            if (n < 0 || n > tw16::MAX_THREADS)
                throw nb::value_error(("n = " + std::to_string(n) + ": expected 0.." +
                                       std::to_string(tw16::MAX_THREADS) + " (0: one per core)")
                                          .c_str());
            tw16::set_num_threads(static_cast<int>(n));
        },
        nb::arg("n"), "Threads for big batches (0: one per core, at most MAX_THREADS). Results never depend on it.");
    m.def("num_threads", &tw16::num_threads);
    // What only the tests call (the parts of a step, the hand analysis one function at a time, the hongkong
    // scorer and legs alone, the batch scorers) lives apart from the game API, importable by its dotted name.
    nb::module_ t = m.def_submodule("_testing", "tw16 native core: the functions only the tests call");
    nb::module_::import_("sys").attr("modules")[nb::str(t.attr("__name__"))] = t;
    tw16::bind::bind_rules(m);
    tw16::bind::bind_hand(m, t);
    tw16::bind::bind_scoring(m, t);
    tw16::bind::bind_hongkong(m, t);
    tw16::bind::bind_engine_parts(m, t);
    tw16::bind::bind_engine(m, t);
    tw16::bind::bind_obs(m);
    tw16::bind::bind_agents(m);
    tw16::bind::bind_search(m);
}
