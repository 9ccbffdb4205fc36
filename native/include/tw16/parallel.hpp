// A deterministic parallel loop over games: game b's result depends only on game b's own state and
// random stream, so how the batch is split between threads never changes a result.
#pragma once
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "tw16/constants.hpp"

namespace tw16 {

// Below this many games a batch runs on the calling thread (thread start-up costs more).
constexpr int64_t PARALLEL_MIN_BATCH = py::step::PARALLEL_MIN_BATCH;
// At most this many threads per batch (set_num_threads refuses more).
constexpr int MAX_THREADS = 1024;

// Threads used for big batches: set by tw16._core.set_num_threads (0 = hardware concurrency).
int num_threads();
void set_num_threads(int n);

template <class F>
void parallel_for(int64_t n, F&& body) {
    // (small batches first: num_threads() may ask the system for the CPU count, ~10 us a call)
    int nt = n < PARALLEL_MIN_BATCH ? 1 : num_threads();
    if (nt <= 1) {
        for (int64_t i = 0; i < n; ++i) body(i);
        return;
    }
    nt = static_cast<int>(std::min<int64_t>({nt, n, MAX_THREADS}));
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(nt));
    std::vector<std::exception_ptr> err(nt);
    const int64_t chunk = (n + nt - 1) / nt;
    auto run = [&](int t) {
        try {
            const int64_t lo = t * chunk, hi = std::min(n, lo + chunk);
            for (int64_t i = lo; i < hi; ++i) body(i);
        } catch (...) {
            err[t] = std::current_exception();
        }
    };
    // Chunk 0 on the calling thread, the others on new threads; if the system refuses a thread
    // (a process limit), the calling thread runs the chunks left (the results are the same).
    int started = 1;
    for (; started < nt; ++started) {
        try {
            pool.emplace_back(run, started);
        } catch (...) {
            break;
        }
    }
    run(0);
    for (int t = started; t < nt; ++t) run(t);
    for (auto& th : pool) th.join();
    for (auto& e : err)
        if (e) std::rethrow_exception(e);
}

}  // namespace tw16
