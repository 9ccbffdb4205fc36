// Bindings of the observation encoders: planes_v0 (with or without the derived features / revealed
// concealed kongs: flags), oracle_v0, gym_env's row encoding and planes_v1 (rows of games, with the
// 拉 ledger arrays). Each takes the engine's state arrays
// (read-only arrays accepted, never written) and a preallocated float32 output, checks every array
// and every index the encoders follow (so a bad state raises instead of reading out of bounds), then
// encodes without the GIL, big batches over threads.
#include <string>

#include "args.hpp"
#include "hold.hpp"
#include "tw16/gym.hpp"
#include "tw16/obs.hpp"

namespace tw16::bind {
namespace {
namespace P0 = py::planes_v0;
namespace O0 = py::oracle_v0;
namespace St = py::state;

// The state arrays the encoders read, checked: dtypes, ranks, shapes, one batch size.
struct Arrays {
    View<int8_t, 3> hands;
    View<int8_t, 4> melds;
    View<int8_t, 3> river;
    View<int64_t, 2> g;
    View<int64_t, 3> p;
    View<int64_t, 2> scores;
    Opts opts;
    int64_t B = 0;
};

// The hold on the state arrays an encoder reads (hold.hpp), taken before they are checked and kept
// until the encoding is done: another thread's step waits, so the checked state stays as checked.
struct ArraysHold : Hold {
    template <class... More>
    explicit ArraysHold(const Arrays& a, const More&... more) {
        add(a.hands), add(a.melds), add(a.river), add(a.g), add(a.p), add(a.scores);
        (add(more), ...);
        acquire();
    }
};

Arrays check_arrays(const AnyArray& hands, const AnyArray& melds, const AnyArray& river, const AnyArray& g,
                    const AnyArray& p, const AnyArray& scores, const Rules& rules) {
    Arrays a;
    a.hands = view_of<int8_t, 3>(hands, "hands", {-1, 4, 34});
    a.B = a.hands.shape[0];
    a.melds = view_of<int8_t, 4>(melds, "melds", {a.B, 4, St::MAX_MELDS, 3});
    a.river = view_of<int8_t, 3>(river, "river", {a.B, St::MAX_RIVER, 4});
    a.g = view_of<int64_t, 2>(g, "g", {a.B, St::NG});
    a.p = view_of<int64_t, 3>(p, "p", {a.B, 4, St::NP});
    a.scores = view_of<int64_t, 2>(scores, "scores", {a.B, 4});
    check_divides(rules);  // (the score scale divides by OPT_PER_TAI: not 0)
    a.opts = rules.options();
    return a;
}

std::string at(const char* what, int64_t b) { return std::string(what) + " of game " + std::to_string(b); }

// Every index encode_one takes from game b's state, for seat me (>= 0): the values a legal state
// has, so that no bad state makes the encoder read or write outside its arrays.
void check_game(const Arrays& a, int64_t b, int64_t me) {
    for (int64_t s = 0; s < 4; ++s)
        for (int64_t k = 0; k < 34; ++k)
            if (a.hands(b, s, k) < 0 || a.hands(b, s, k) > 4)
                bad(at("hands", b) + ": a count outside 0..4 (" + std::to_string(a.hands(b, s, k)) + ")");
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = a.p(b, s, St::P_NMELDS);
        if (nm < 0 || nm > St::MAX_MELDS) bad(at("p", b) + ": P_NMELDS " + std::to_string(nm) + " outside 0..5");
        for (int64_t i = 0; i < nm; ++i) {
            const int64_t mt = a.melds(b, s, i, St::MC_TYPE), mk = a.melds(b, s, i, St::MC_KIND);
            const int64_t hi = mt == py::tiles::MELD_CHI ? 31 : 33;  // a chow spans mk .. mk + 2
            if (mt < py::tiles::MELD_CHI || mt > py::tiles::MELD_ANKONG || mk < 0 || mk > hi)
                bad(at("melds", b) + ": meld (" + std::to_string(mt) + ", " + std::to_string(mk) + ") is not a meld");
        }
    }
    const int64_t n = a.g(b, St::G_NRIVER);
    if (n < 0 || n > St::MAX_RIVER) bad(at("g", b) + ": G_NRIVER " + std::to_string(n) + " outside 0..144");
    for (int64_t i = 0; i < n; ++i)
        if (a.river(b, i, St::RV_KIND) < 0 || a.river(b, i, St::RV_KIND) > 33)
            bad(at("river", b) + ": discard " + std::to_string(i) + " is not a tile kind");
    const int64_t phase = a.g(b, St::G_PHASE);
    if (phase < 0) bad(at("g", b) + ": negative G_PHASE");
    if (phase == St::PH_TURN && a.g(b, St::G_TURN) == me && a.g(b, St::G_LAST_DRAWN) > 33)
        bad(at("g", b) + ": G_LAST_DRAWN " + std::to_string(a.g(b, St::G_LAST_DRAWN)) + " is not a tile kind");
    if ((phase == St::PH_CLAIM || phase == St::PH_ROB) && a.g(b, St::G_TILE) > 33)
        bad(at("g", b) + ": G_TILE " + std::to_string(a.g(b, St::G_TILE)) + " is not a tile kind");
}

// The wall indices oracle_v0 follows: head .. tail inside the wall whenever head <= tail.
void check_wall(const Arrays& a, View<uint8_t, 2> wall, int64_t b) {
    const int64_t head = a.g(b, St::G_HEAD), tail = a.g(b, St::G_TAIL);
    if (head <= tail && (head < 0 || tail >= wall.shape[1]))
        bad(at("g", b) + ": wall indices G_HEAD " + std::to_string(head) + " .. G_TAIL " + std::to_string(tail) +
            " outside the wall");
}

int64_t check_seat(int64_t me, const char* name) {
    if (me < -1 || me > 3) bad(std::string(name) + ": seat " + std::to_string(me) + " outside -1..3 (-1: none)");
    return me;
}

View<int64_t, 1> check_seats(const AnyArray& seats, int64_t n) {
    View<int64_t, 1> v = view_of<int64_t, 1>(seats, "seats", {n});
    for (int64_t i = 0; i < n; ++i) check_seat(v[i], "seats");
    return v;
}

View<float, 3> check_out(const RwArray& out, int64_t n, int64_t channels) {
    return view_of<float, 3>(out, "out", {n, channels, 34});
}

void planes_v0_encode(const RwArray& out, const AnyArray& hands, const AnyArray& melds, const AnyArray& river,
                      const AnyArray& g, const AnyArray& p, const AnyArray& scores, const AnyArray& seats,
                      const Rules& rules, int64_t flags) {
    Arrays a = check_arrays(hands, melds, river, g, p, scores, rules);
    const ArraysHold hold(a);
    View<float, 3> o = check_out(out, a.B, planes_v0::n_channels(flags & P0::F_DERIVED));
    View<int64_t, 1> se = check_seats(seats, a.B);
    nb::gil_scoped_release nogil;
    for (int64_t b = 0; b < a.B; ++b)
        if (se[b] >= 0) check_game(a, b, se[b]);
    planes_v0::encode_parallel(o, a.hands, a.melds, a.river, a.g, a.p, a.scores, se, a.opts, flags, rules.shapes());
}

void oracle_v0_encode(const RwArray& out, const AnyArray& hands, const AnyArray& melds, const AnyArray& river,
                      const AnyArray& wall, const AnyArray& g, const AnyArray& p, const AnyArray& scores,
                      const AnyArray& seats, const Rules& rules, int64_t flags, int64_t base) {
    Arrays a = check_arrays(hands, melds, river, g, p, scores, rules);
    View<uint8_t, 2> w = view_of<uint8_t, 2>(wall, "wall", {a.B, St::WALL_SIZE});
    const ArraysHold hold(a, w);
    const int64_t planes = planes_v0::n_channels(flags & P0::F_DERIVED);
    if (base != planes)
        bad("base: the planes_v0 channels (" + std::to_string(planes) + " for these flags), got " +
            std::to_string(base));
    View<float, 3> o = check_out(out, a.B, planes + O0::N_ORACLE_EXTRA);
    View<int64_t, 1> se = check_seats(seats, a.B);
    nb::gil_scoped_release nogil;
    for (int64_t b = 0; b < a.B; ++b)
        if (se[b] >= 0) check_game(a, b, se[b]), check_wall(a, w, b);
    oracle_v0::encode_parallel(o, a.hands, a.melds, a.river, w, a.g, a.p, a.scores, se, a.opts, flags, rules.shapes(),
                               base);
}

void encode_one(const RwArray& o, const AnyArray& hands, const AnyArray& melds, const AnyArray& river,
                const AnyArray& g, const AnyArray& p, const AnyArray& scores, int64_t b, int64_t me, const Rules& rules,
                int64_t flags) {
    Arrays a = check_arrays(hands, melds, river, g, p, scores, rules);
    View<float, 2> ov = view_of<float, 2>(o, "o", {planes_v0::n_channels(flags & P0::F_DERIVED), 34});
    const ArraysHold hold(a);
    if (b < 0 || b >= a.B) bad("b: game " + std::to_string(b) + " outside 0.." + std::to_string(a.B - 1));
    check_seat(me, "me");
    if (me >= 0) check_game(a, b, me);
    planes_v0::encode_one(ov, a.hands, a.melds, a.river, a.g, a.p, a.scores, b, me, a.opts, flags, rules.shapes());
}

void encode_rows(const RwArray& out, const AnyArray& rows, const AnyArray& seats, const AnyArray& hands,
                 const AnyArray& melds, const AnyArray& river, const AnyArray& g, const AnyArray& p,
                 const AnyArray& scores, const Rules& rules, int64_t flags) {
    Arrays a = check_arrays(hands, melds, river, g, p, scores, rules);
    View<int64_t, 1> rv = view_of<int64_t, 1>(rows, "rows", {-1});
    const int64_t n = rv.shape[0];
    const ArraysHold hold(a);
    View<int64_t, 1> se = check_seats(seats, n);
    // out may hold more rows than are encoded (gym_env passes a prefix of a preallocated buffer)
    View<float, 3> o = view_of<float, 3>(out, "out", {-1, planes_v0::n_channels(flags & P0::F_DERIVED), 34});
    if (o.shape[0] < n) bad("out: " + std::to_string(o.shape[0]) + " rows for " + std::to_string(n) + " games");
    nb::gil_scoped_release nogil;
    for (int64_t i = 0; i < n; ++i) {
        if (rv[i] < 0 || rv[i] >= a.B)
            bad("rows: game " + std::to_string(rv[i]) + " outside 0.." + std::to_string(a.B - 1));
        if (se[i] >= 0) check_game(a, rv[i], se[i]);
    }
    gym_env::encode_rows_par(o, rv, se, a.hands, a.melds, a.river, a.g, a.p, a.scores, a.opts, flags, rules.shapes());
}

// rows (n,) of games in range, seats (n,) in -1..3, each encoded game's indices checked.
View<int64_t, 1> check_rows(const Arrays& a, const AnyArray& rows, View<int64_t, 1>* seats, const AnyArray& seat_arr) {
    View<int64_t, 1> rv = view_of<int64_t, 1>(rows, "rows", {-1});
    *seats = check_seats(seat_arr, rv.shape[0]);
    for (int64_t i = 0; i < rv.shape[0]; ++i) {
        if (rv[i] < 0 || rv[i] >= a.B)
            bad("rows: game " + std::to_string(rv[i]) + " outside 0.." + std::to_string(a.B - 1));
        if ((*seats)[i] >= 0) check_game(a, rv[i], (*seats)[i]);
    }
    return rv;
}

void planes_v1_encode(const RwArray& out, const AnyArray& rows, const AnyArray& seats, const AnyArray& hands,
                      const AnyArray& melds, const AnyArray& river, const AnyArray& g, const AnyArray& p,
                      const AnyArray& scores, const AnyArray& la, const AnyArray& la_k, const Rules& rules,
                      int64_t flags) {
    Arrays a = check_arrays(hands, melds, river, g, p, scores, rules);
    View<double, 3> lv = view_of<double, 3>(la, "la", {a.B, 4, 4});
    View<int32_t, 3> kv = view_of<int32_t, 3>(la_k, "la_k", {a.B, 4, 4});
    const ArraysHold hold(a, lv, kv);
    View<int64_t, 1> se;
    View<int64_t, 1> rv = check_rows(a, rows, &se, seats);
    const int64_t n = rv.shape[0];
    View<float, 3> o = view_of<float, 3>(out, "out", {-1, planes_v1::n_channels(flags & P0::F_DERIVED), 34});
    if (o.shape[0] < n) bad("out: " + std::to_string(o.shape[0]) + " rows for " + std::to_string(n) + " games");
    nb::gil_scoped_release nogil;
    planes_v1::encode_rows(o, rv, se, a.hands, a.melds, a.river, a.g, a.p, a.scores, lv, kv, a.opts, flags,
                           rules.shapes());
}
}  // namespace

void bind_obs(nb::module_& m) {
    using namespace nb::literals;
    m.def("planes_v0_encode", &planes_v0_encode, "out"_a, "hands"_a, "melds"_a, "river"_a, "g"_a, "p"_a, "scores"_a,
          "seats"_a, "rules"_a, "flags"_a,
          "planes_v0 of every game b seen by seats[b] (-1: zeros) into out (B, C, 34) float32 "
          "(envs.obs.planes_v0._encode_par / _encode_ser). flags: F_DERIVED | F_REVEAL_ANKONG.");
    m.def("oracle_v0_encode", &oracle_v0_encode, "out"_a, "hands"_a, "melds"_a, "river"_a, "wall"_a, "g"_a, "p"_a,
          "scores"_a, "seats"_a, "rules"_a, "flags"_a, "base"_a,
          "oracle_v0 (planes_v0 + the hidden channels at offset base) into out (B, base + N_ORACLE_EXTRA, 34) "
          "(envs.obs.oracle_v0._encode_par / _encode_ser).");
    m.def("encode_one", &encode_one, "o"_a, "hands"_a, "melds"_a, "river"_a, "g"_a, "p"_a, "scores"_a, "b"_a, "me"_a,
          "rules"_a, "flags"_a,
          "planes_v0 of game b seen by seat me into o (C, 34), zeroed first (envs.obs.planes_v0.encode_one).");
    m.def("encode_rows", &encode_rows, "out"_a, "rows"_a, "seats"_a, "hands"_a, "melds"_a, "river"_a, "g"_a, "p"_a,
          "scores"_a, "rules"_a, "flags"_a,
          "out[i] = planes_v0 of game rows[i] seen by seats[i] (envs.gym_env.encode_rows_par / _ser).");
    m.def("planes_v1_encode", &planes_v1_encode, "out"_a, "rows"_a, "seats"_a, "hands"_a, "melds"_a, "river"_a, "g"_a,
          "p"_a, "scores"_a, "la"_a, "la_k"_a, "rules"_a, "flags"_a,
          "out[i] = planes_v1 of game rows[i] seen by seats[i] (-1: zeros); out may hold more rows "
          "(envs.obs.planes_v1). flags: F_DERIVED | F_REVEAL_ANKONG.");
}

}  // namespace tw16::bind
