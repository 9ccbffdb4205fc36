// The compiled helpers of envs/gym_env.py: planes_v0 encoding of a subset of the games (rows) into
// consecutive rows of a preallocated output (one function per helper of gym_env.py, same names and parameter order).
#pragma once
#include <cstdint>

#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16::gym_env {

// out[i] = planes_v0::encode_one of game rows[i] seen by seats[i]; serial / over threads.
void encode_rows_ser(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                     View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                     View<int64_t, 2> scores, Opts opts, int64_t flags, int64_t shapes);
void encode_rows_par(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                     View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                     View<int64_t, 2> scores, Opts opts, int64_t flags, int64_t shapes);

}  // namespace tw16::gym_env
