// envs._core: the native core of tw16 (rules, hand analysis, scoring, engine, encoders, agents'
// batch helpers). Each concept binds its own functions in native/bind/bind_<concept>.cpp.
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
void bind_hand(nb::module_& m);
void bind_scoring(nb::module_& m);
void bind_hongkong(nb::module_& m);
void bind_engine_parts(nb::module_& m);
void bind_engine(nb::module_& m);
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
    tw16::bind::bind_rules(m);
    tw16::bind::bind_hand(m);
    tw16::bind::bind_scoring(m);
    tw16::bind::bind_hongkong(m);
    tw16::bind::bind_engine_parts(m);
    tw16::bind::bind_engine(m);
    tw16::bind::bind_obs(m);
    tw16::bind::bind_agents(m);
    tw16::bind::bind_search(m);
}
