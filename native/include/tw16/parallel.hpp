// A deterministic parallel loop over games: game b's result depends only on game b's own state and
// random stream, so how the batch is split between threads never changes a result.
#pragma once
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace tw16 {

// Below this many games a batch runs on the calling thread (thread start-up costs more).
constexpr int64_t PARALLEL_MIN_BATCH = 256;

// Threads used for big batches: set by tw16._core.set_num_threads (0 = hardware concurrency).
int num_threads();
void set_num_threads(int n);

template <class F>
void parallel_for(int64_t n, F&& body) {
    int nt = num_threads();
    if (n < PARALLEL_MIN_BATCH || nt <= 1) {
        for (int64_t i = 0; i < n; ++i) body(i);
        return;
    }
    nt = static_cast<int>(std::min<int64_t>(nt, n));
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> err(nt);
    const int64_t chunk = (n + nt - 1) / nt;
    for (int t = 0; t < nt; ++t) {
        pool.emplace_back([&, t] {
            try {
                const int64_t lo = t * chunk, hi = std::min(n, lo + chunk);
                for (int64_t i = lo; i < hi; ++i) body(i);
            } catch (...) {
                err[t] = std::current_exception();
            }
        });
    }
    for (auto& th : pool) th.join();
    for (auto& e : err)
        if (e) std::rethrow_exception(e);
}

}  // namespace tw16
