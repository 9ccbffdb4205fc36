// The boundary: numpy arrays in, tw16::View out, after checking everything that could make native
// code read or write out of bounds. A wrong array is a Python ValueError/TypeError naming the
// argument, never a crash. Views share memory with the numpy array (no copy).
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "tw16/view.hpp"

namespace tw16::bind {

namespace nb = nanobind;

// Any CPU array, writable or read-only, without conversion (a converted copy would drop writes).
using AnyArray = nb::ndarray<nb::ro, nb::device::cpu>;
// A writable CPU array: read-only arrays are refused by nanobind for these.
using RwArray = nb::ndarray<nb::device::cpu>;

template <class T>
const char* dtype_name() {
    if constexpr (std::is_same_v<T, int8_t>)
        return "int8";
    else if constexpr (std::is_same_v<T, uint8_t>)
        return "uint8";
    else if constexpr (std::is_same_v<T, int16_t>)
        return "int16";
    else if constexpr (std::is_same_v<T, int32_t>)
        return "int32";
    else if constexpr (std::is_same_v<T, int64_t>)
        return "int64";
    else if constexpr (std::is_same_v<T, uint64_t>)
        return "uint64";
    else if constexpr (std::is_same_v<T, float>)
        return "float32";
    else if constexpr (std::is_same_v<T, double>)
        return "float64";
    else if constexpr (std::is_same_v<T, bool>)
        return "bool";
    else
        return "?";
}

std::string shape_str(const int64_t* shape, size_t ndim);

// An argument's name in messages: "arg", or "arg.field" for a field of a tuple argument (the string
// is only built for a message, never on the way in).
struct Name {
    const char* arg;
    const char* field = nullptr;
    Name(const char* a, const char* f = nullptr) : arg(a), field(f) {}
    std::string str() const { return field ? std::string(arg) + "." + field : std::string(arg); }
};

// Check dtype, rank and (where given, -1 = any) the shape; return the view.
template <class T, int N, class A>
View<T, N> view_of(const A& a, Name name, std::initializer_list<int64_t> want = {}) {
    using U = std::remove_const_t<T>;
    if (a.dtype() != nb::dtype<U>()) throw nb::type_error((name.str() + ": expected dtype " + dtype_name<U>()).c_str());
    if (a.ndim() != static_cast<size_t>(N))
        throw nb::value_error((name.str() + ": expected " + std::to_string(N) + " dimensions, got shape " +
                               shape_str(a.shape_ptr(), a.ndim()))
                                  .c_str());
    View<T, N> v;
    v.data = static_cast<T*>(const_cast<void*>(static_cast<const void*>(a.data())));
    int d = 0;
    for (int64_t w : want) {
        if (d < N && w >= 0 && static_cast<int64_t>(a.shape(d)) != w)
            throw nb::value_error((name.str() + ": expected axis " + std::to_string(d) + " of size " +
                                   std::to_string(w) + ", got shape " + shape_str(a.shape_ptr(), a.ndim()))
                                      .c_str());
        ++d;
    }
    for (int i = 0; i < N; ++i) {
        v.shape[i] = static_cast<int64_t>(a.shape(i));
        v.stride[i] = a.stride(i);
    }
    return v;
}

// Writable view (state arrays, outputs).
template <class T, int N>
View<T, N> rw(const RwArray& a, Name name, std::initializer_list<int64_t> want = {}) {
    return view_of<T, N>(a, name, want);
}
// Read-only view (walls, seeds, tables): read-only numpy arrays are accepted as they are.
template <class T, int N>
View<const T, N> ro(const AnyArray& a, Name name, std::initializer_list<int64_t> want = {}) {
    return view_of<const T, N>(a, name, want);
}

// An array passed as a Python object (an optional argument: the caller checked for None): anything
// else is a TypeError naming the argument (nb::cast would throw std::bad_cast).
inline AnyArray any_array(nb::handle h, const char* name) {
    AnyArray a;
    if (!nb::try_cast(h, a, false)) throw nb::type_error((std::string(name) + ": expected a numpy array").c_str());
    return a;
}

}  // namespace tw16::bind
