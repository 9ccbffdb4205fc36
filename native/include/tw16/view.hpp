// Strided views over arrays the caller owns (numpy memory passed through the bindings), and the
// integer helpers with Python's semantics (floor division, modulo) and int64 wrap-around.
#pragma once
#include <cstddef>
#include <cstdint>

// Forces a function or lambda inline where the compiler's size heuristics would not (GCC and Clang).
#define TW16_ALWAYS_INLINE __attribute__((always_inline))

namespace tw16 {

// An N-d view: data pointer, shape and strides in elements (not bytes). No ownership, no checks:
// the bindings check dtype, rank and shape once at the boundary (native/bind/common.hpp).
//   View<int8_t, 3> hands;  hands(b, s, k)   element
//   hands[b]                a View<int8_t, 2> of game b (like hands[b] in numpy)
template <class T, int N>
struct View {
    T* data = nullptr;
    int64_t shape[N] = {};
    int64_t stride[N] = {};

    template <class... I>
    T& operator()(I... idx) const {
        static_assert(sizeof...(I) == N, "View: wrong number of indices");
        const int64_t ix[N] = {static_cast<int64_t>(idx)...};
        int64_t off = 0;
        for (int d = 0; d < N; ++d) off += ix[d] * stride[d];
        return data[off];
    }

    // Index the first axis: an element for N == 1, a view of rank N-1 otherwise.
    decltype(auto) operator[](int64_t i) const {
        if constexpr (N == 1) {
            return data[i * stride[0]];
        } else {
            View<T, N - 1> v;
            v.data = data + i * stride[0];
            for (int d = 1; d < N; ++d) {
                v.shape[d - 1] = shape[d];
                v.stride[d - 1] = stride[d];
            }
            return v;
        }
    }

    int64_t size(int d = 0) const { return shape[d]; }

    // A C-contiguous view over a plain buffer (scratch arrays, tests).
    static View contiguous(T* p, const int64_t (&shp)[N]) {
        View v;
        v.data = p;
        int64_t s = 1;
        for (int d = N - 1; d >= 0; --d) {
            v.shape[d] = shp[d];
            v.stride[d] = s;
            s *= shp[d];
        }
        return v;
    }
};

template <class T>
using V1 = View<T, 1>;
template <class T>
using V2 = View<T, 2>;
template <class T>
using V3 = View<T, 3>;
template <class T>
using V4 = View<T, 4>;

// Python's // and % on integers round toward minus infinity (C++ truncates toward zero). The
// core keeps Python's semantics (the documented results are Python's), so every `a // b` or `a % b`
// that may see a negative operand goes through these.
inline int64_t floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline int64_t pymod(int64_t a, int64_t b) {
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

// int64 arithmetic that wraps (two's complement) as numpy's int64 does. For sums of values the core takes from
// a caller's arrays unchecked (state scalars, chip accumulators, rule options): a garbage value then
// gives a defined wrapped result (the one the recorded digests hold), not signed-overflow undefined behaviour.
inline int64_t add_wrap(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t sub_wrap(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t mul_wrap(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace tw16
