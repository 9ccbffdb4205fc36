// The observation encoders: planes_v0 (envs/obs/planes_v0.py), oracle_v0 (envs/obs/oracle_v0.py) and
// planes_v1 (envs/obs/planes_v1.py: planes_v0 plus the hongkong decisions and the 拉 ledger). They read the
// engine's batch state arrays (state.hpp; envs.engine.state.State) and write into arrays the
// caller owns (no allocation per call). The channel layout and the meaning of every channel are in
// the Python module docstrings; the constants come from constants.hpp (py::planes_v0, py::oracle_v0,
// py::planes_v1).
#pragma once
#include <cstdint>

#include "tw16/state.hpp"
#include "tw16/view.hpp"

namespace tw16::planes_v0 {

// Channels of a planes_v0 observation: N_CHANNELS, or N_CHANNELS_DERIVED with the derived features.
int64_t n_channels(bool derived);

// o[ch + i, k] = 1 where counts[k] > i, i = 0..3 (a count as four 0/1 threshold channels).
void threshold_planes(View<float, 2> o, int64_t ch, View<int8_t, 1> counts);

// The derived channels (flags & F_DERIVED): CH_SHANTEN, CH_DISCARD_SHANTEN, CH_WAITS, CH_UNSEEN.
// `hand` is modified and restored.
void derived_planes(View<float, 2> o, View<int8_t, 1> hand, View<int8_t, 1> held, int64_t n_sets,
                    View<int8_t, 1> visible, int64_t shapes);

// Write the planes of game b seen by seat me into o (C, 34), zeroing it first (me < 0: zeros).
void encode_one(View<float, 2> o, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, int64_t b, int64_t me, Opts opts,
                int64_t flags, int64_t shapes);

// encode_one for every game b into out[b], seen by seats[b]: over threads (parallel_for) / serial.
// Results never depend on the thread count.
void encode_parallel(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                     View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, View<int64_t, 1> seats, Opts opts,
                     int64_t flags, int64_t shapes);
void encode_serial(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                   View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores, View<int64_t, 1> seats, Opts opts,
                   int64_t flags, int64_t shapes);

}  // namespace tw16::planes_v0

namespace tw16::oracle_v0 {

// Channels of an oracle_v0 observation: planes_v0's plus N_ORACLE_EXTRA.
int64_t n_channels(bool derived);

// The hidden channels of game b for seat me at offset base (= planes_v0 channels): opponents'
// concealed hands and kongs, the wall's counts, the next front and tail draws. Does not zero o.
void oracle_planes(View<float, 2> o, int64_t base, View<int8_t, 3> hands, View<int8_t, 4> melds, View<uint8_t, 2> wall,
                   View<int64_t, 2> g, View<int64_t, 3> p, int64_t b, int64_t me);

// planes_v0::encode_one + oracle_planes for every game b into out[b]: over threads / serial.
void encode_parallel(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                     View<uint8_t, 2> wall, View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores,
                     View<int64_t, 1> seats, Opts opts, int64_t flags, int64_t shapes, int64_t base);
void encode_serial(View<float, 3> out, View<int8_t, 3> hands, View<int8_t, 4> melds, View<int8_t, 3> river,
                   View<uint8_t, 2> wall, View<int64_t, 2> g, View<int64_t, 3> p, View<int64_t, 2> scores,
                   View<int64_t, 1> seats, Opts opts, int64_t flags, int64_t shapes, int64_t base);

}  // namespace tw16::oracle_v0

namespace tw16::planes_v1 {

// Channels of a planes_v1 observation: planes_v0's (with or without the derived features) plus
// N_V1_EXTRA (envs/obs/planes_v1.py: the flower-offer and 拉-cut phase planes and the 拉 ledger).
int64_t n_channels(bool derived);

// The planes_v1 channels of game b seen by seat me at offset base (= planes_v0 channels): the
// phase planes of PH_FLOWER / PH_LA_CUT, the 拉 ledger from me's side, the debt being asked about
// and the flower offer. Does not zero o; me < 0 writes nothing.
void v1_extra_planes(View<float, 2> o, int64_t base, View<int64_t, 2> g, View<int64_t, 3> p, View<double, 3> la,
                     View<int32_t, 3> la_k, int64_t b, int64_t me, Opts opts);

// planes_v0::encode_one + v1_extra_planes of game rows[i] seen by seats[i] into out[i], over threads.
void encode_rows(View<float, 3> out, View<int64_t, 1> rows, View<int64_t, 1> seats, View<int8_t, 3> hands,
                 View<int8_t, 4> melds, View<int8_t, 3> river, View<int64_t, 2> g, View<int64_t, 3> p,
                 View<int64_t, 2> scores, View<double, 3> la, View<int32_t, 3> la_k, Opts opts, int64_t flags,
                 int64_t shapes);

}  // namespace tw16::planes_v1
