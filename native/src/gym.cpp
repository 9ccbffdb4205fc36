// The compiled helpers of envs/gym_env.py: planes_v0 encoding of a subset of the games.
#include "tw16/gym.hpp"
#include "tw16/obs.hpp"
#include "tw16/parallel.hpp"

namespace tw16::gym_env {

void encode_rows_ser(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                     View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                     View<int64_t, 2> scores, Opts opts, int64_t flags, int64_t shapes) {
    for (int64_t i = 0; i < rows.shape[0]; ++i)
        planes_v0::encode_one(out[i], hands, melds, river, g, p, scores, rows[i], seats[i], opts, flags, shapes);
}

void encode_rows_par(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                     View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                     View<int64_t, 2> scores, Opts opts, int64_t flags, int64_t shapes) {
    parallel_for(rows.shape[0], [&](int64_t i) {
        planes_v0::encode_one(out[i], hands, melds, river, g, p, scores, rows[i], seats[i], opts, flags, shapes);
    });
}

}  // namespace tw16::gym_env
