#include "tw16/parallel.hpp"

#include <algorithm>
#include <atomic>

namespace tw16 {
namespace {
std::atomic<int> g_threads{0};
}
int num_threads() {
    int n = g_threads.load();
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    return n > 0 ? std::min(n, MAX_THREADS) : 1;
}
void set_num_threads(int n) { g_threads.store(n < 0 ? 0 : n); }
}  // namespace tw16
