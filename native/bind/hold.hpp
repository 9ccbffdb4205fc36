// The threading contract of the engine's state (docs/robustness.md, "Threads"): a native call that
// reads or writes an engine's state arrays holds their memory for the whole call, from the checks
// made under the GIL to the end of the work done without it. Another thread's call on overlapping
// memory waits (without the GIL) until the first returns, so no call ever sees a game another thread
// is changing: checked state stays as checked. Engine.locked() takes the same hold from Python
// around a compound operation (step's legality check, the step, the copy of its results).
//
// One registry of the memory held, keyed by byte ranges: two engines never share memory, so calls on
// different engines never wait for each other; the same thread may hold a range again (a native call
// inside Engine.locked()). All the ranges of a call are taken at once (no lock order to get wrong).
#pragma once
#include <cstdint>
#include <vector>

#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16::bind {

class Hold {
  public:
    struct Span {
        uintptr_t lo, hi;  // bytes [lo, hi)
    };
    Hold() = default;
    // Hold the memory of each part (a State, or a View) at once; waits while another thread holds any.
    template <class... Parts>
    explicit Hold(const Parts&... parts) {
        (add(parts), ...);
        acquire();
    }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
    ~Hold() { release(); }

    template <class T, int N>
    void add(const View<T, N>& v) {
        intptr_t lo = 0, hi = 0;  // byte offsets of the first and last element from data
        for (int d = 0; d < N; ++d) {
            if (v.shape[d] <= 0) return;  // (no element: nothing to hold)
            const intptr_t step = static_cast<intptr_t>(v.stride[d]) * static_cast<intptr_t>(sizeof(T));
            (step < 0 ? lo : hi) += step * static_cast<intptr_t>(v.shape[d] - 1);
        }
        const auto base = reinterpret_cast<uintptr_t>(v.data);
        spans_.push_back({base + lo, base + hi + sizeof(T)});
    }
    // A nanobind ndarray (data, shape, strides in elements, dtype).
    template <class Arr>
    void add_array(const Arr& a) {
        const size_t item = (a.dtype().bits + 7) / 8;
        intptr_t lo = 0, hi = 0;
        for (size_t d = 0; d < a.ndim(); ++d) {
            if (a.shape(d) == 0) return;
            const intptr_t step = static_cast<intptr_t>(a.stride(d)) * static_cast<intptr_t>(item);
            (step < 0 ? lo : hi) += step * static_cast<intptr_t>(a.shape(d) - 1);
        }
        const auto base = reinterpret_cast<uintptr_t>(a.data());
        spans_.push_back({base + lo, base + hi + item});
    }
    // Every array of the state the engine writes: all but the scripted walls (only read, and shareable
    // between engines).
    void add(const State& S);
    void acquire();
    void release();
    bool held() const { return id_ != 0; }
    const std::vector<Span>& spans() const { return spans_; }

  private:
    std::vector<Span> spans_;
    uint64_t id_ = 0;
};

// The registry itself: hold spans (waiting as Hold::acquire does) and get the hold's id; let it go.
uint64_t hold_spans(const std::vector<Hold::Span>& spans);
void release_hold(uint64_t id);

}  // namespace tw16::bind
