// Bindings of the batch engine (envs/engine/step.py, randplay.py, invariants.py): reset_batch,
// reset_some, step_batch, step_some, random_play, check_game. The parallel loops and their serial
// twins of the Numba engine are one function each here: big batches are split over threads
// (parallel.hpp) and the results never depend on the thread count.
//
// The state is the 17 arrays of envs.engine.state.State, passed as the namedtuple (or any tuple /
// list of its fields in order). Checked before anything changes: every array's dtype, rank and
// shape, that the batch sizes agree, the rules arrays, the profile, scripted walls, and each action
// (0..75, legal under the game's stored mask). Each game's state is checked just before that game is
// stepped (game_ok: the bounds the engine relies on); a game refused there is left as it was and the
// call raises after the others are stepped. Bad input raises ValueError (TypeError for a wrong dtype,
// as everywhere in envs._core) naming the argument. The GIL is released around the batch loops.
#include <nanobind/ndarray.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "tw16/constants.hpp"
#include "tw16/invariants.hpp"
#include "tw16/parallel.hpp"
#include "tw16/randplay.hpp"
#include "tw16/state.hpp"
#include "tw16/step.hpp"

namespace tw16::bind {

namespace {
namespace St = py::state;
namespace R = py::rules;
namespace P = py::profile;
namespace T = py::tiles;
namespace A = py::actions;
namespace M = py::mask;
namespace RP = py::randplay;

[[noreturn]] void bad(const std::string& msg) { throw nb::value_error(msg.c_str()); }

const char* const FIELDS[17] = {"wall", "hands", "melds", "river", "g", "p", "scores", "rng", "rewards",
                                "terminated", "mask", "res_tai", "res_items", "res_delta", "script", "la", "la_k"};

// A writable numpy array (no conversion: a converted copy would drop the engine's writes).
RwArray rw_array(nb::handle h, const std::string& name) {
    RwArray a;
    if (nb::try_cast<RwArray>(h, a, false)) return a;
    AnyArray r;
    if (nb::try_cast<AnyArray>(h, r, false)) bad(name + ": the array is read-only (the engine writes it)");
    bad(name + ": expected a numpy array");
}
AnyArray ro_array(nb::handle h, const std::string& name) {
    AnyArray r;
    if (nb::try_cast<AnyArray>(h, r, false)) return r;
    bad(name + ": expected a numpy array");
}

// envs.engine.state.State from the namedtuple (or a tuple / list of its 17 arrays in order).
State state_of(nb::handle state) {
    if (!nb::isinstance<nb::tuple>(state) && !nb::isinstance<nb::list>(state))
        bad("state: expected envs.engine.state.State (or a tuple of its 17 arrays)");
    const size_t n = nb::len(state);
    if (n != 17) bad("state: expected the 17 arrays of envs.engine.state.State, got " + std::to_string(n));
    auto item = [&](int i) { return state[static_cast<size_t>(i)]; };
    auto nm = [](int i) { return std::string("state.") + FIELDS[i]; };
    State S;
    // The batch size B comes from wall; every other array must agree.
    const RwArray wall = rw_array(item(0), nm(0));
    S.wall = rw<uint8_t, 2>(wall, "state.wall", {-1, St::WALL_SIZE});
    const int64_t B = S.wall.shape[0];
#define TW16_RW(i, field, T, N, ...) S.field = rw<T, N>(rw_array(item(i), nm(i)), ("state." #field), {B, __VA_ARGS__})
    TW16_RW(1, hands, int8_t, 3, 4, T::N_KINDS);
    TW16_RW(2, melds, int8_t, 4, 4, St::MAX_MELDS, 3);
    TW16_RW(3, river, int8_t, 3, St::MAX_RIVER, 4);
    TW16_RW(4, g, int64_t, 2, St::NG);
    TW16_RW(5, p, int64_t, 3, 4, St::NP);
    TW16_RW(6, scores, int64_t, 2, 4);
    S.rng = rw<uint64_t, 1>(rw_array(item(7), nm(7)), "state.rng", {B});
    TW16_RW(8, rewards, float, 2, 4);
    S.terminated = rw<bool, 1>(rw_array(item(9), nm(9)), "state.terminated", {B});
    TW16_RW(10, mask, bool, 2, A::N_ACTIONS);
    TW16_RW(11, res_tai, int32_t, 2, 4);
    TW16_RW(12, res_items, int16_t, 3, 4, P::N_ITEMS);
    TW16_RW(13, res_delta, int64_t, 2, 4);
    TW16_RW(15, la, double, 3, 4, 4);
    TW16_RW(16, la_k, int32_t, 3, 4, 4);
#undef TW16_RW
    // The scripted walls are only read: a read-only (or broadcast) array is accepted as it is.
    const View<const uint8_t, 3> script = ro<uint8_t, 3>(ro_array(item(14), nm(14)), "state.script", {B, -1, St::WALL_SIZE});
    S.script.data = const_cast<uint8_t*>(script.data);
    for (int d = 0; d < 3; ++d) {
        S.script.shape[d] = script.shape[d];
        S.script.stride[d] = script.stride[d];
    }
    return S;
}

template <class T>
View<T, 1> mutable_1d(View<const T, 1> v) {
    View<T, 1> r;
    r.data = const_cast<T*>(v.data);
    r.shape[0] = v.shape[0];
    r.stride[0] = v.stride[0];
    return r;
}

// Rules.as_array() (N_OPTS,) int64 and engine_config (N_CFG,) int64: only read. The options whose
// range keeps native code in bounds are checked.
Opts opts_of(const AnyArray& a) {
    const Opts opts = mutable_1d(ro<int64_t, 1>(a, "opts", {R::N_OPTS}));
    if (opts[R::OPT_DEAD_WALL] < 0 || opts[R::OPT_DEAD_WALL] > St::WALL_SIZE)
        bad("opts: OPT_DEAD_WALL = " + std::to_string(opts[R::OPT_DEAD_WALL]) + ", expected 0..144");
    if (opts[R::OPT_PER_TAI] == 0) bad("opts: OPT_PER_TAI is 0 (rewards are chips / per_tai)");
    return opts;
}
Cfg cfg_of(const AnyArray& a) { return mutable_1d(ro<int64_t, 1>(a, "cfg", {M::N_CFG})); }

// The compiled profile (Profile.compiled()): a tuple (p_tai int32 (4, N_ITEMS), p_repl int8
// (N_ITEMS, N_ITEMS), p_opts int64 (N_POPTS,)); row 3 of p_tai (the items in table order, -1 after
// the last) is used as an index by the scorer, so it is range-checked.
Prof prof_of(nb::handle prof) {
    if (!nb::isinstance<nb::tuple>(prof) && !nb::isinstance<nb::list>(prof))
        bad("prof: expected the tuple (p_tai, p_repl, p_opts) of Profile.compiled()");
    if (nb::len(prof) != 3) bad("prof: expected 3 arrays (p_tai, p_repl, p_opts), got " + std::to_string(nb::len(prof)));
    Prof p;
    p.p_tai = view_of<int32_t, 2>(ro_array(prof[0], "prof.p_tai"), "prof.p_tai", {4, P::N_ITEMS});
    p.p_repl = view_of<int8_t, 2>(ro_array(prof[1], "prof.p_repl"), "prof.p_repl", {P::N_ITEMS, P::N_ITEMS});
    p.p_opts = view_of<int64_t, 1>(ro_array(prof[2], "prof.p_opts"), "prof.p_opts", {P::N_POPTS});
    for (int64_t r = 0; r < P::N_ITEMS; ++r) {
        const int64_t i = p.p_tai(3, r);
        if (i < -1 || i >= P::N_ITEMS)
            bad("prof.p_tai: row 3 (item order) holds " + std::to_string(i) + " at " + std::to_string(r) +
                ", expected -1..N_ITEMS-1");
    }
    return p;
}

template <class T>
View<const T, 1> batch_vec(const AnyArray& a, const char* name, int64_t B) {
    return ro<T, 1>(a, name, {B});
}

// -- the state of one game --------------------------------------------------------------------
// What must hold before a game is stepped so that the engine stays in bounds: every value used as an
// index in range (scalars, counts 0..4, melds, the live wall's tile ids), claim bits and stored
// answers that the hands allow, and an action the step can take from that phase (a discard of a held
// kind, a kong of four or beside a pon with room for a meld, an answer the claim bits allow...); the
// action must also be legal under the stored mask, as in Numba, which trusts the mask. Whether the
// tiles add up (four of each kind) is check_game's business: a state whose tiles do not is stepped,
// and if a hand it scores holds a fifth tile, finish_win counts a scorer refusal (G_SCORE_ERR) instead
// of scoring it. A state made by the engine always passes. This runs before every step, so it reads
// only the rows the step reads anyway and builds no message unless it fails.
std::string in(int64_t v, int64_t lo, int64_t hi) {
    return std::to_string(v) + ", expected " + std::to_string(lo) + ".." + std::to_string(hi);
}
std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t READY_BITS = py::codes::F_HEAVENLY_READY | py::codes::F_EARTHLY_READY |
                               py::codes::F_DECLARED_READY | py::codes::F_SHOWN_READY;

// n elements from a strided row into a local array (one memcpy for the engine's own rows).
template <class T>
inline void load_row(T* dst, const T* src, int64_t n, int64_t stride) {
    if (stride == 1) {
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
    } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = src[i * stride];
    }
}

// Does a claim answer (or the action of an asked seat) fit the claim bits?
inline bool answer_fits(int64_t a, int64_t bits) {
    return a == A::PASS || (a == A::WIN && (bits & St::C_WIN)) || (a == A::CHI && (bits & St::C_CHI_LOW)) ||
           (a == A::CHI + 1 && (bits & St::C_CHI_MID)) || (a == A::CHI + 2 && (bits & St::C_CHI_HIGH)) ||
           (a == A::PON && (bits & St::C_PON)) || (a == A::KONG && (bits & St::C_KONG)) ||
           (a == A::READY && (bits & St::C_READY));
}

// True when game b may take action a; else false, and with Explain, *why says why. (Two
// instantiations: the one that runs before every step builds no message.)
template <bool Explain>
bool game_ok(const State& S, int64_t b, int64_t a, Opts opts, std::string* why) {
#define TW16_FAIL(msg)                       \
    do {                                     \
        if constexpr (Explain) *why = (msg); \
        return false;                        \
    } while (0)
#define TW16_RANGE(idx, lo, hi)                                                   \
    do {                                                                          \
        const int64_t v_ = g[St::idx], lo_ = (lo), hi_ = (hi);                    \
        if (v_ < lo_ || v_ > hi_) TW16_FAIL("g[" #idx "] = " + in(v_, lo_, hi_)); \
    } while (0)
    constexpr int64_t HW = 5;  // words of 8 counts per seat (34 kinds, zero-padded to 40)
    int64_t g[St::NG];
    int64_t p[4][St::NP];
    alignas(8) int8_t h[4][8 * HW] = {};
    int8_t ms[4][St::MAX_MELDS][3];
    load_row(g, S.g.data + b * S.g.stride[0], St::NG, S.g.stride[1]);
    {
        const int64_t* p0 = S.p.data + b * S.p.stride[0];
        const int8_t* h0 = S.hands.data + b * S.hands.stride[0];
        const int8_t* m0 = S.melds.data + b * S.melds.stride[0];
        const int64_t m1 = S.melds.stride[1], m2 = S.melds.stride[2], m3 = S.melds.stride[3];
        for (int64_t s = 0; s < 4; ++s) {
            load_row(p[s], p0 + s * S.p.stride[1], St::NP, S.p.stride[2]);
            load_row(h[s], h0 + s * S.hands.stride[1], T::N_KINDS, S.hands.stride[2]);
            const int64_t nm = std::min<int64_t>(std::max<int64_t>(p[s][St::P_NMELDS], 0), St::MAX_MELDS);
            for (int64_t i = 0; i < nm; ++i)
                for (int64_t j = 0; j < 3; ++j) ms[s][i][j] = m0[s * m1 + i * m2 + j * m3];
        }
    }
    const int64_t ph = g[St::G_PHASE];
    if (ph != St::PH_TURN && ph != St::PH_CLAIM && ph != St::PH_ROB && ph != St::PH_READY0 && ph != St::PH_FLOWER &&
        ph != St::PH_LA_CUT)
        TW16_FAIL("g[G_PHASE] = " + str(ph) + " is not a decision phase of a live game");
    const int64_t n = opts[R::OPT_FLOWERS] ? T::N_TILES : T::N_TILES_NO_FLOWERS;
    TW16_RANGE(G_CUR, 0, 3);
    TW16_RANGE(G_TURN, 0, 3);
    TW16_RANGE(G_DEALER, 0, 3);
    TW16_RANGE(G_STREAK, 0, R::MAX_STREAK);
    TW16_RANGE(G_ROT, 0, 15);
    TW16_RANGE(G_WALL_N, n, n);
    TW16_RANGE(G_HEAD, 0, n);
    TW16_RANGE(G_TAIL, g[St::G_HEAD] - 1, n - 1);
    TW16_RANGE(G_NKONG, 0, T::N_KINDS);
    TW16_RANGE(G_NRIVER, ph == St::PH_CLAIM ? 1 : 0, St::MAX_RIVER - 1);
    TW16_RANGE(G_TILE, -1, T::N_KINDS - 1);
    TW16_RANGE(G_LAST_DRAWN, -1, T::N_KINDS - 1);
    TW16_RANGE(G_DRAWSRC, St::SRC_FRONT, St::SRC_EXPOSED_KONG);
    TW16_RANGE(G_SWAP1, -1, T::N_KINDS - 1);
    TW16_RANGE(G_SWAP2, -1, T::N_KINDS - 1);
    TW16_RANGE(G_SCRIPT_USED, 0, int64_t{1} << 40);
    TW16_RANGE(G_CHAIN, 0, St::WALL_SIZE);
    TW16_RANGE(G_OFFER, ph == St::PH_FLOWER ? 0 : -1, 3);
    TW16_RANGE(G_OFFER_PAYER, -1, 3);
    TW16_RANGE(G_LIABLE, -1, 3);
    TW16_RANGE(G_LA_ASK, ph == St::PH_LA_CUT ? 1 : 0, 0xFFFF);
    // Counts 0..4, eight at a time: a byte > 4 (or negative: top bit set) sets its top bit here.
    uint64_t hw[4][HW];
    std::memcpy(hw, h, sizeof hw);
    uint64_t over = 0;
    for (int64_t s = 0; s < 4; ++s)
        for (int64_t w = 0; w < HW; ++w) over |= ((hw[s][w] + 0x7B7B7B7B7B7B7B7BULL) | hw[s][w]) & 0x8080808080808080ULL;
    if (over)
        for (int64_t s = 0; s < 4; ++s)
            for (int64_t k = 0; k < T::N_KINDS; ++k)
                if (h[s][k] < 0 || h[s][k] > 4) TW16_FAIL("hands[" + str(s) + ", " + str(k) + "] = " + in(h[s][k], 0, 4));
    // The live wall's tile ids (drawn tiles index the hands and the flower bits).
    {
        const uint8_t* w = S.wall.data + b * S.wall.stride[0];
        const int64_t ws = S.wall.stride[1];
        int64_t i = g[St::G_HEAD];
        const int64_t end = g[St::G_TAIL] + 1;
        uint64_t high = 0;  // top bit of a byte >= 144 (= 0x90: the top bit and one of bits 4..6)
        if (ws == 1)
            for (; i + 8 <= end; i += 8) {
                uint64_t x;
                std::memcpy(&x, w + i, 8);
                high |= x & (((x & 0x7070707070707070ULL) + 0x7070707070707070ULL) & 0x8080808080808080ULL);
            }
        int64_t top = 0;
        for (; i < end; ++i) top = std::max<int64_t>(top, w[i * ws]);
        if (high || top >= T::N_TILES) TW16_FAIL("wall: a tile id out of 0..143 between head and tail");
    }
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = p[s][St::P_NMELDS];
        if (nm < 0 || nm > St::MAX_MELDS) TW16_FAIL("p[" + str(s) + ", P_NMELDS] = " + in(nm, 0, St::MAX_MELDS));
        const int64_t f1 = p[s][St::P_FLOWERS], f2 = p[s][St::P_HELD_FLOWERS];
        if (f1 < 0 || f1 > 255 || f2 < 0 || f2 > 255) TW16_FAIL("p[" + str(s) + "]: flower bits out of 0..255");
        if (p[s][St::P_READY] & ~READY_BITS)
            TW16_FAIL("p[" + str(s) + ", P_READY] = " + str(p[s][St::P_READY]) + ": not ready flags");
        for (int64_t i = 0; i < nm; ++i) {
            const int64_t mt = ms[s][i][0], mk = ms[s][i][1], fr = ms[s][i][2];
            const bool chi_ok = mt != T::CHI || (mk < T::WIND0 && mk % 9 <= 6);
            if (mt < T::CHI || mt > T::ANKONG || mk < 0 || mk >= T::N_KINDS || fr < 0 || fr > 3 || !chi_ok)
                TW16_FAIL("melds[" + str(s) + ", " + str(i) + "] = (" + str(mt) + ", " + str(mk) + ", " + str(fr) +
                          "): not a meld (type CHI..ANKONG, kind 0..33, a chow from a suited 1-7, seat 0..3)");
        }
    }
    // Claim bits and stored answers: only what the hands allow (the step trusts them).
    const int64_t t = g[St::G_TILE];
    const bool claiming = ph == St::PH_CLAIM || ph == St::PH_ROB || ph == St::PH_READY0;
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t bits = p[s][St::P_CLAIM], ans = p[s][St::P_ANSWER];
        if (bits == 0 && ans == -1) continue;
        auto w = [&] { return "p[" + str(s) + "]: claim bits " + str(bits) + ", answer " + str(ans); };
        const int8_t* hs = h[s];
        const int64_t nm = p[s][St::P_NMELDS];
        if (!claiming || s == g[St::G_TURN] || bits <= 0 || bits > 127) TW16_FAIL(w() + ": no claim is open for this seat");
        if ((bits & ~St::C_READY) && t < 0) TW16_FAIL(w() + " without a tile in question");
        if ((bits & St::C_WIN) && hs[t] >= 4) TW16_FAIL(w() + ": a win on a fifth tile");
        if ((bits & St::C_PON) && (hs[t] < 2 || nm >= St::MAX_MELDS)) TW16_FAIL(w() + ": impossible pon");
        if ((bits & St::C_KONG) && (hs[t] < 3 || nm >= St::MAX_MELDS)) TW16_FAIL(w() + ": impossible kong");
        if (bits & (St::C_CHI_LOW | St::C_CHI_MID | St::C_CHI_HIGH)) {
            const int64_t r = t % 9;
            if (t >= T::WIND0 || s != (g[St::G_TURN] + 1) % 4 || nm >= St::MAX_MELDS ||
                ((bits & St::C_CHI_LOW) && !(r <= 6 && hs[t + 1] > 0 && hs[t + 2] > 0)) ||
                ((bits & St::C_CHI_MID) && !(r >= 1 && r <= 7 && hs[t - 1] > 0 && hs[t + 1] > 0)) ||
                ((bits & St::C_CHI_HIGH) && !(r >= 2 && hs[t - 2] > 0 && hs[t - 1] > 0)))
                TW16_FAIL(w() + ": impossible chow");
        }
        if (ans != -1 && !answer_fits(ans, bits)) TW16_FAIL(w() + ": an answer the claim bits do not allow");
    }
    if (ph == St::PH_ROB) {  // the konger's tile: four concealed (ankong) or one beside its pon
        const int8_t* hs = h[g[St::G_TURN]];
        if (t < 0 || (g[St::G_ROB_ANKONG] ? hs[t] != 4 : hs[t] < 1) ||
            (g[St::G_ROB_ANKONG] && p[g[St::G_TURN]][St::P_NMELDS] >= St::MAX_MELDS))
            TW16_FAIL("the robbed kong (kind " + str(t) + ") is not in the konger's hand");
    }
    // The action: one the step can take from this phase (the mask is checked by the caller).
    const int64_t cur = g[St::G_CUR];
    if (ph == St::PH_TURN) {
        const int8_t* hs = h[cur];
        bool ok = a == A::WIN || a == A::READY || (a < A::CHI && hs[a] > 0);
        if (a >= A::SELF_KONG && a < A::WIN) {
            const int64_t k = a - A::SELF_KONG;
            bool pon = false;
            for (int64_t i = 0; i < p[cur][St::P_NMELDS]; ++i) pon |= ms[cur][i][0] == T::PON && ms[cur][i][1] == k;
            ok = (hs[k] == 4 && p[cur][St::P_NMELDS] < St::MAX_MELDS) || (pon && hs[k] >= 1);
        }
        if (!ok) TW16_FAIL("action " + str(a) + " cannot be taken on a turn with this hand");
    } else if (ph == St::PH_FLOWER || ph == St::PH_LA_CUT) {
        if (a != A::WIN && a != A::PASS) TW16_FAIL("action " + str(a) + ": only WIN or PASS answer this question");
    } else if (!answer_fits(a, p[cur][St::P_CLAIM])) {
        TW16_FAIL("action " + str(a) + " is not an answer the claim bits of seat " + str(cur) + " allow");
    }
    return true;
#undef TW16_RANGE
#undef TW16_FAIL
}

// What check_game reads as an index must be in range (it reports bad tiles, hands and seats as E_*
// codes, but trusts the pointers and kinds it counts with): else ValueError.
void check_game_bounds(const State& S, int64_t b) {
    if (S.terminated[b]) return;  // (check_game only reads the rewards, scores and mask then)
    auto g = S.g[b];
    const std::string w = "state: game " + str(b) + ": ";
    if (g[St::G_NRIVER] < 0 || g[St::G_NRIVER] > St::MAX_RIVER) bad(w + "g[G_NRIVER] = " + in(g[St::G_NRIVER], 0, St::MAX_RIVER));
    if (g[St::G_WALL_N] < 0 || g[St::G_WALL_N] > St::WALL_SIZE) bad(w + "g[G_WALL_N] = " + in(g[St::G_WALL_N], 0, St::WALL_SIZE));
    if (g[St::G_HEAD] >= 0 && g[St::G_TAIL] < g[St::G_WALL_N])
        for (int64_t i = g[St::G_HEAD]; i <= g[St::G_TAIL]; ++i)
            if (S.wall(b, i) >= T::N_TILES) bad(w + "wall[" + str(i) + "] = " + in(S.wall(b, i), 0, T::N_TILES - 1));
    for (int64_t s = 0; s < 4; ++s) {
        const int64_t nm = S.p(b, s, St::P_NMELDS);
        if (nm < 0 || nm > St::MAX_MELDS) bad(w + "p[" + str(s) + ", P_NMELDS] = " + in(nm, 0, St::MAX_MELDS));
        for (int64_t i = 0; i < nm; ++i)
            if (S.melds(b, s, i, 1) < 0 || S.melds(b, s, i, 1) >= T::N_KINDS)
                bad(w + "melds[" + str(s) + ", " + str(i) + "]: kind " + in(S.melds(b, s, i, 1), 0, T::N_KINDS - 1));
    }
    for (int64_t i = 0; i < g[St::G_NRIVER]; ++i)
        if (S.river(b, i, 2) < 0 && (S.river(b, i, 0) < 0 || S.river(b, i, 0) >= T::N_KINDS))
            bad(w + "river[" + str(i) + "]: kind " + in(S.river(b, i, 0), 0, T::N_KINDS - 1));
}

// Scripted walls: the first 144 ids (136 with flowers off) of each are a permutation of 0..143
// (0..135); a wall is copied in whenever a hand is dealt, so steps check them too.
void check_script(const State& S, Opts opts) {
    const int64_t n = opts[R::OPT_FLOWERS] ? T::N_TILES : T::N_TILES_NO_FLOWERS;
    for (int64_t b = 0; b < S.script.shape[0]; ++b)
        for (int64_t k = 0; k < S.script.shape[1]; ++k) {
            std::array<bool, T::N_TILES> seen{};
            for (int64_t i = 0; i < n; ++i) {
                const int64_t t = S.script(b, k, i);
                if (t >= n || seen[t])
                    bad("state.script[" + str(b) + ", " + str(k) + "]: the first " + str(n) +
                        " ids must be a permutation of 0.." + str(n - 1) + " (id " + str(t) + " at " + str(i) + ")");
                seen[t] = true;
            }
        }
}

// Ask for the rows of game b that every step reads (a batch walks the games in order; the rows of a
// big batch are not in cache).
inline void prefetch_rows(const void* p, int64_t bytes) {
    const char* c = static_cast<const char*>(p);
    for (int64_t i = 0; i < bytes; i += 64) __builtin_prefetch(c + i);
}
void prefetch_game(const State& S, int64_t b) {
    prefetch_rows(S.g.data + b * S.g.stride[0], St::NG * 8);
    prefetch_rows(S.p.data + b * S.p.stride[0], 4 * St::NP * 8);
    prefetch_rows(S.hands.data + b * S.hands.stride[0], 4 * T::N_KINDS);
    prefetch_rows(S.melds.data + b * S.melds.stride[0], 4 * St::MAX_MELDS * 3);
    prefetch_rows(S.wall.data + b * S.wall.stride[0], St::WALL_SIZE);
    prefetch_rows(S.mask.data + b * S.mask.stride[0], A::N_ACTIONS);
}

// Step the games (active null: all). Every action is checked first, before anything changes: in
// 0..75 and legal under the game's stored mask. Each game's state (game_ok) is then checked just
// before the game is stepped, on the batch's threads (its rows are then in cache for the step): a
// game whose state is refused is left as it was, the others are stepped, and the call raises
// ValueError naming the first refused game. (A state the engine made is never refused.)
void run_steps(const State& S, View<const int64_t, 1> actions, const View<const bool, 1>* active, Opts opts,
               Cfg cfg, const Prof& prof) {
    check_script(S, opts);
    const int64_t B = S.batch();
    for (int64_t b = 0; b < B; ++b) {
        if (active && !(*active)[b]) continue;
        const int64_t a = actions[b];
        if (a < 0 || a >= A::N_ACTIONS) bad("actions[" + str(b) + "] = " + in(a, 0, A::N_ACTIONS - 1));
        if (!S.terminated[b] && !S.mask(b, a))  // (a finished game's step is a no-op: its mask is all ones)
            bad("actions[" + str(b) + "] = " + str(a) + " is illegal in game " + str(b) + " for seat " +
                str(S.g(b, St::G_CUR)));
    }
    std::vector<uint8_t> refused(static_cast<size_t>(B), 0);
    {
        nb::gil_scoped_release nogil;
        parallel_for(B, [&](int64_t b) {
            if (b + 2 < B) prefetch_game(S, b + 2);
            if (active && !(*active)[b]) return;
            if (!S.terminated[b] && !game_ok<false>(S, b, actions[b], opts, nullptr)) {
                refused[b] = 1;
                return;
            }
            step_game(S, b, actions[b], opts, cfg, prof);
        });
    }
    for (int64_t b = 0; b < B; ++b)
        if (refused[b]) {
            std::string why;
            game_ok<true>(S, b, actions[b], opts, &why);
            bad("state: game " + str(b) + ": " + why + " (game " + str(b) + " was not stepped)");
        }
}

}  // namespace

void bind_engine(nb::module_& m) {
    // Below this many games a batch call runs on the calling thread (parallel.hpp).
    m.attr("PARALLEL_MIN_BATCH") = PARALLEL_MIN_BATCH;
    m.def(
        "reset_batch",
        [](nb::handle state, const AnyArray& seeds, const AnyArray& opts_a, const AnyArray& cfg_a, nb::handle prof_h) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            const Cfg cfg = cfg_of(cfg_a);
            const Prof prof = prof_of(prof_h);
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", S.batch());
            check_script(S, opts);
            nb::gil_scoped_release nogil;
            reset_batch(S, sd, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("opts"), nb::arg("cfg"), nb::arg("prof"),
        "Deal every game of the batch from seeds (uint64 (B,)); envs.engine.step.reset_batch.");
    m.def(
        "reset_some",
        [](nb::handle state, const AnyArray& seeds, const AnyArray& which, const AnyArray& opts_a, const AnyArray& cfg_a,
           nb::handle prof_h) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            const Cfg cfg = cfg_of(cfg_a);
            const Prof prof = prof_of(prof_h);
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", S.batch());
            const auto wh = batch_vec<bool>(which, "which", S.batch());
            nb::gil_scoped_release nogil;
            reset_some(S, sd, wh, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("which"), nb::arg("opts"), nb::arg("cfg"), nb::arg("prof"),
        "Auto-reset: deal again the games in which (bool (B,)); scripted walls are not reused.");
    m.def(
        "step_batch",
        [](nb::handle state, const AnyArray& actions, const AnyArray& opts_a, const AnyArray& cfg_a, nb::handle prof_h) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            const Cfg cfg = cfg_of(cfg_a);
            const Prof prof = prof_of(prof_h);
            const auto ac = batch_vec<int64_t>(actions, "actions", S.batch());
            run_steps(S, ac, nullptr, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("actions"), nb::arg("opts"), nb::arg("cfg"), nb::arg("prof"),
        "Apply one action (int64 (B,), legal under the current mask) per game; a finished game is not changed "
        "(zero rewards).");
    m.def(
        "step_some",
        [](nb::handle state, const AnyArray& actions, const AnyArray& active, const AnyArray& opts_a,
           const AnyArray& cfg_a, nb::handle prof_h) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            const Cfg cfg = cfg_of(cfg_a);
            const Prof prof = prof_of(prof_h);
            const auto ac = batch_vec<int64_t>(actions, "actions", S.batch());
            const auto act = batch_vec<bool>(active, "active", S.batch());
            run_steps(S, ac, &act, opts, cfg, prof);
        },
        nb::arg("state"), nb::arg("actions"), nb::arg("active"), nb::arg("opts"), nb::arg("cfg"), nb::arg("prof"),
        "step_batch for the games in active (bool (B,)) only; the others are not touched.");
    m.def(
        "random_play",
        [](nb::handle state, const AnyArray& seeds, const AnyArray& agent_seeds, int64_t episodes, bool check,
           int64_t policy, const AnyArray& opts_a, const AnyArray& cfg_a, nb::handle prof_h) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            const Cfg cfg = cfg_of(cfg_a);
            const Prof prof = prof_of(prof_h);
            const int64_t B = S.batch();
            const auto sd = batch_vec<uint64_t>(seeds, "seeds", B);
            const auto ag = batch_vec<uint64_t>(agent_seeds, "agent_seeds", B);
            if (episodes < 0) bad("episodes: expected >= 0, got " + std::to_string(episodes));
            if (policy != RP::POLICY_UNIFORM && policy != RP::POLICY_GREEDY)
                bad("policy: expected POLICY_UNIFORM (0) or POLICY_GREEDY (1), got " + std::to_string(policy));
            check_script(S, opts);
            auto* buf = new int64_t[static_cast<size_t>(B * RP::N_OUT)]();
            nb::capsule owner(buf, [](void* p) noexcept { delete[] static_cast<int64_t*>(p); });
            const auto out = View<int64_t, 2>::contiguous(buf, {B, RP::N_OUT});
            {
                nb::gil_scoped_release nogil;
                play_batch(S, sd, ag, episodes, check, policy, opts, cfg, prof, out);
            }
            const size_t shape[2] = {static_cast<size_t>(B), static_cast<size_t>(RP::N_OUT)};
            return nb::ndarray<nb::numpy, int64_t, nb::ndim<2>>(buf, 2, shape, owner);
        },
        nb::arg("state"), nb::arg("seeds"), nb::arg("agent_seeds"), nb::arg("episodes"), nb::arg("check"),
        nb::arg("policy"), nb::arg("opts"), nb::arg("cfg"), nb::arg("prof"),
        "Random (policy 0) or greedy (1) legal play of every game: envs.engine.randplay's play_batch. Game b is "
        "dealt from seeds[b], the agent draws from agent_seeds[b] (not changed). Returns the (B, N_OUT) int64 "
        "table (O_EPISODES, O_HANDS, O_DECISIONS, O_WINS, O_ERROR, O_ERROR_STEP, O_HASH).");
    m.def(
        "check_game",
        [](nb::handle state, int64_t b, const AnyArray& opts_a) {
            const State S = state_of(state);
            const Opts opts = opts_of(opts_a);
            if (b < 0 || b >= S.batch()) bad("b: game " + std::to_string(b) + " is not in 0.." + std::to_string(S.batch() - 1));
            check_game_bounds(S, b);
            return check_game(S, b, opts);
        },
        nb::arg("state"), nb::arg("b"), nb::arg("opts"),
        "The invariant checker of envs.engine.invariants: 0 or the first failing E_* code of game b.");
}

}  // namespace tw16::bind
