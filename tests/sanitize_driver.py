"""The work that tests/test_sanitize.py runs under the sanitizer build of envs._core (ASan + UBSan).

    python tests/sanitize_driver.py PHASE [--core PATH] [--scale N]

``--core PATH`` loads that build as ``envs._core`` before anything imports it (without it, the
normal envs._core is used: the same checks, no sanitizer). PHASE is one of

- ``proof``: the sanitizer is live in this process and in the core: ASan's runtime is loaded, and a
  read by the core of memory poisoned with ASan's own API is reported (the process must die with
  "ERROR: AddressSanitizer: use-after-poison"; the test checks that it does).
- ``play``: random and greedy play with the invariant checker (``random_play``, check on) on every
  profile and option set; batch steps through ``step_batch`` / ``step_some`` / ``reset_some`` with
  the invariant checker, the mask, the encoders and the agents' kernels at every decision, and
  ``resample_hidden`` / ``copy_game`` (``reshuffle_wall`` every third step) on every live game (``search_batch`` every sixth step).
- ``score``: scoring of random hands (complete and not) on every profile: ``score_batch``,
  ``score_hand``, ``hk_score``, ``settle_batch``, ``settle``, ``hk_legs``, ``hk_settle``,
  ``winning_shape``; the hand analysis on random counts (``eval_batch`` on every function,
  strict and not).
- ``fuzz``: every binding of envs._core (the test fails on a new one the fuzz does not know) called
  with a valid argument list, then with each argument replaced by a wrong dtype, rank, shape,
  stride, read-only array, non-array, out-of-range and garbage values; the engine's state and
  profile tuples field by field. A wrong dtype, rank, non-array or read-only output must raise a
  Python exception; everything must return or raise, never crash.
- ``threads``: tests/thread_stress.py at a small size: search_batch beside a stepping thread (row 1
  of issue 27 as filed: on 1b7e684 ASan reported a heap-buffer-overflow in resample_hidden), and two
  and four threads mixing step, reset,
  step_some, clone, resample_hidden, search_batch, the encoders and last_hand on shared engines
  (every game then passes the invariant checker), and the same operations under Engine.locked()
  replayed serially with equal results. Run under ASan + UBSan and under ThreadSanitizer.
- ``race_proof``: (ThreadSanitizer) two threads write one array through a core function that holds
  nothing (``random_complete``, a bench helper on a private buffer): TSan must report the data race
  in the core, so the TSan run of ``threads`` is known to see races.
- ``all``: play, score and fuzz.

The last line printed is a JSON summary (counts per phase) for the test to report.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import re
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def load_core(path: str | None):
    """envs._core from path (the sanitizer build), put in sys.modules before envs imports it."""
    if path:
        spec = importlib.util.spec_from_file_location("envs._core", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["envs._core"] = mod
        spec.loader.exec_module(mod)
    import envs
    from envs import _core

    if path:
        assert os.path.samefile(_core.__file__, path), (_core.__file__, path)
    envs._core = _core
    return _core


# ------------------------------------------------------------------------------------ context
HK_ALL_OFF = {
    "multi_win": False,
    "strict_pass": False,
    "swap_call": True,
    "declare_ready": False,
    "flower_win": "auto",
    "dice_payments": False,
    "settlement": "immediate",
    "la_cut": "none",
}
# (profile, options): every profile, the hongkong options, the extras pack (as the engine tests)
CONFIGS = [
    ("standard", {}),
    ("standard", {"flowers": False, "dead_wall": 0}),
    (
        "standard",
        {
            "multi_win": True,
            "strict_pass": True,
            "no_calls_last3": False,
            "no_kong_after_claim": False,
            "kong_replacement_self_draw": False,
            "swap_call": False,
            "dead_wall_per_kong": True,
            "streak_cap": 1,
        },
    ),
    ("standard", {"dead_wall": 60}),
    ("standard", {"episode": "game"}),
    ("strict16", {}),
    ("strict16", {"swap_call": False, "declare_ready": True}),
    ("casual", {}),
    ("casual", {"flowers": False, "west_draw": True}),
    ("hongkong", {}),
    ("hongkong", HK_ALL_OFF),
    ("hongkong", {"dead_wall": 60, "flower_win": "offer"}),
    ("hongkong", {"episode": "game", "la_cut_policy": "ask", "dice_payments": True, "strict_pass": True}),
    ("hongkong", {"dealer_pays_on_self_draw": True, "flowers": False, "count_method": 2}),
    ("standard", {"extras": True}),
    ("strict16", {"extras": True}),
    ("casual", {"extras": True, "unrelated_gap": 2}),
    ("olympiad", {}),  # no robbing a kong, no special shapes, win/lose settlement
    ("olympiad", {"episode": "game", "extras": True}),
]


class Ctx:
    """One rules set as the engine hands it to the core (native: envs._core.Rules, what every binding
    that needs the rules takes), with the arrays it is built from (opts, cfg, prof) and shapes."""

    def __init__(self, profile, options):
        from envs.engine.api import engine_config
        from envs.engine.mask import native_rules
        from envs.rules import Rules
        from envs.scoring.profile import PO_SHAPES

        self.name = f"{profile} {options}" if options else profile
        self.rules = Rules(profile=profile, **options)
        self.opts = self.rules.as_array()
        self.cfg = engine_config(self.rules)
        self.prof = tuple(np.ascontiguousarray(a) for a in self.rules.profile_data.compiled())
        self.shapes = int(self.prof[2][PO_SHAPES])
        self.native = native_rules(self.rules)  # (envs._core.Rules: what the engine's calls take)


def new_state(core, ctx, B, seed):
    from envs.engine import state as st

    S = st.alloc(B)
    core.reset_batch(S, np.arange(seed, seed + B, dtype=np.uint64), ctx.native)
    return S


def pick_actions(rng, S):
    """A legal action per game: wins, claims and kongs often (so melds, kongs, robs and ready
    declarations occur), else uniform; 0 for a finished game (a no-op)."""
    from envs.engine import actions as A

    B = S.mask.shape[0]
    acts = np.zeros(B, np.int64)
    for b in range(B):
        if S.terminated[b]:
            continue
        legal = np.flatnonzero(S.mask[b])
        pref = [a for a in legal if a >= A.CHI and a != A.PASS]
        if pref and rng.random() < 0.7:
            acts[b] = int(rng.choice(pref))
        else:
            acts[b] = int(rng.choice(legal))
    return acts


# ------------------------------------------------------------------------------------ proof
def phase_proof(core):
    """ASan's runtime is in the process, the core calls into it, and a read by the core of
    poisoned memory is reported: this process must die here with an ASan report."""
    proc = ctypes.CDLL(None)
    for sym in ("__asan_init", "__asan_poison_memory_region", "__asan_address_is_poisoned"):
        assert hasattr(proc, sym), f"{sym}: ASan's runtime is not loaded"
    counts = np.zeros(64, np.int8)  # (64 bytes: aligned and a whole number of shadow granules)
    counts[:34] = [3, 1, 1, 1] + [0] * 30
    assert core._testing.shanten(counts[:34], 5) >= 0  # the call works on clean memory
    addr = counts.ctypes.data
    proc.__asan_poison_memory_region(ctypes.c_void_p(addr), ctypes.c_size_t(64))
    assert proc.__asan_address_is_poisoned(ctypes.c_void_p(addr)) == 1
    print("SANITIZER-PROOF: calling the core on poisoned memory", flush=True)
    core._testing.shanten(counts[:34], 5)  # the core's read of counts must be reported
    print("SANITIZER-PROOF: NOT REPORTED", flush=True)
    sys.exit(3)


# ------------------------------------------------------------------------------------ play
def phase_play(core, scale, summary):
    from agents import greedy
    from agents.features import decode
    from agents.greedy import DEFENCE_DEFAULTS
    from envs.engine import randplay as rp
    from envs.engine import state as st
    from envs.obs import oracle_v0 as ov
    from envs.obs import planes_v0 as pv
    from envs.obs import planes_v1 as p1

    rng = np.random.default_rng(16)
    n_games = n_dec = n_hands = n_steps = n_search = 0
    for i, (profile, options) in enumerate(CONFIGS):
        ctx = Ctx(profile, options)
        # compiled random / greedy play with the invariant checker after every step
        # (whole games with the greedy policy only: uniform play rarely wins, so a game lasts long)
        policies = (rp.POLICY_GREEDY,) if options.get("episode") == "game" else (rp.POLICY_UNIFORM, rp.POLICY_GREEDY)
        for policy in policies:
            B = 3
            S = st.alloc(B)
            seeds = np.arange(100 * i, 100 * i + B, dtype=np.uint64)
            out = core.random_play(S, seeds, seeds + 7, scale, True, policy, ctx.native)
            err = out[:, rp.OUT_ERROR]
            assert not err.any(), (
                f"{ctx.name}: invariant error {err.max()} at step {out[err.argmax(), rp.OUT_ERROR_STEP]}"
            )
            n_games += B
            n_hands += int(out[:, rp.OUT_HANDS].sum())
            n_dec += int(out[:, rp.OUT_DECISIONS].sum())
        # batch steps from Python: the checker, the mask and the encoders at every decision
        B = 4
        S = new_state(core, ctx, B, 1000 + i)
        flags_all = (0, pv.F_DERIVED, pv.F_DERIVED | pv.F_REVEAL_ANKONG)
        defence = np.array(list(DEFENCE_DEFAULTS.values()), np.float64)
        for t in range(60 * scale):
            for b in range(B):
                e = core._testing.check_game(S, b, ctx.native)
                assert e == 0, f"{ctx.name}: check_game {e} in game {b} at step {t}"
            mask = np.zeros_like(S.mask)
            hands = S.hands.copy()
            core.mask_rows(mask, S.g, S.p, hands, S.melds, S.terminated, ctx.native)
            live = ~S.terminated
            assert (mask[live] == S.mask[live]).all(), f"{ctx.name}: mask_rows differs from the state's mask"
            seats = np.where(live, S.g[:, st.G_CUR], -1).astype(np.int64)
            flags = flags_all[t % 3]
            C = pv.n_channels(bool(flags & pv.F_DERIVED))
            obs = np.zeros((B, C, 34), np.float32)
            core.planes_v0_encode(obs, S.hands, S.melds, S.river, S.g, S.p, S.scores, seats, ctx.native, flags)
            orc = np.zeros((B, C + ov.N_ORACLE_EXTRA, 34), np.float32)
            core.oracle_v0_encode(
                orc, S.hands, S.melds, S.river, S.wall, S.g, S.p, S.scores, seats, ctx.native, flags, C
            )
            one = np.zeros((C, 34), np.float32)
            core.encode_one(one, S.hands, S.melds, S.river, S.g, S.p, S.scores, 0, int(seats[0]), ctx.native, flags)
            rows = np.arange(B, dtype=np.int64)[::-1].copy()
            enc = np.zeros((B + 1, C, 34), np.float32)
            core.encode_rows(enc, rows, seats[rows], S.hands, S.melds, S.river, S.g, S.p, S.scores, ctx.native, flags)
            v1 = np.zeros((B, C + p1.N_V1_EXTRA, 34), np.float32)
            core.planes_v1_encode(
                v1,
                rows,
                seats[rows],
                S.hands,
                S.melds,
                S.river,
                S.g,
                S.p,
                S.scores,
                S.la,
                S.la_k,
                ctx.native,
                flags,
            )
            if live.any():
                f = decode(obs[live])
                from agents import efficiency

                eff = np.zeros((int(live.sum()), efficiency.N_EFFICIENCY, 34), np.float32)
                core.efficiency_kernel(f.hand, f.n_melds.astype(np.int64), f.unseen, f.claim_tile, eff)
                act = np.zeros(int(live.sum()), np.int64)
                d = defence.copy()
                d[0] = t % 2  # Greedy and Defensive
                core.act_kernel(
                    f.hand,
                    f.n_melds.astype(np.int64),
                    f.unseen,
                    f.opp_melds.astype(np.int64),
                    f.opp_ready,
                    f.opp_disc,
                    f.opp_passed,
                    f.tiles_left.astype(np.int64),
                    f.claim_tile.astype(np.int64),
                    S.mask[live],
                    d,
                    greedy.WIN_LOGIT,
                    greedy.READY_P,
                    act,
                )
                assert S.mask[live][np.arange(act.size), act].all(), f"{ctx.name}: act_kernel chose an illegal action"
                # search at decision time: a resampled copy of each live game, and the search's decision
                games = np.flatnonzero(live).astype(np.int64)
                R = _copy_arg(S)
                for b in games:
                    core.resample_hidden(R, int(b), int(R.g[b, st.G_CUR]), 7 * t + int(b), ctx.native)
                    assert core._testing.check_game(R, int(b), ctx.native) == 0, (
                        f"{ctx.name}: a resampled state fails the checker"
                    )
                    if t % 3 == 0:  # the oracle's determinization (search oracle=1) on top
                        core.reshuffle_wall(R, int(b), 11 * t + int(b), ctx.native)
                        assert core._testing.check_game(R, int(b), ctx.native) == 0, (
                            f"{ctx.name}: a reshuffled wall fails the checker"
                        )
                core.copy_game(S, int(games[0]), R, int(games[0]))
                if t % 6 == 0:
                    sa, sv = np.zeros(games.size, np.int64), np.zeros((games.size, 2))
                    # every other time over given candidates (a network's, agents.search base=neural): the
                    # last two legal actions of each game
                    cand = None
                    if t % 12 == 0:
                        cand = np.full((games.size, 2), -1, np.int64)
                        for i, b in enumerate(games):
                            legal = np.flatnonzero(S.mask[b])[::-1][:2]
                            cand[i, : legal.size] = legal
                    core.search_batch(
                        R,
                        games,
                        games.astype(np.uint64),
                        2,
                        2,
                        t % 4,
                        1.0,
                        ctx.native,
                        sa,
                        sv,
                        cand,
                        oracle=t % 18 == 0,
                    )
                    assert S.mask[games, sa].all(), f"{ctx.name}: search_batch chose an illegal action"
                    if cand is not None:
                        assert (cand == sa[:, None]).any(axis=1).all(), f"{ctx.name}: search_batch left its candidates"
                    n_search += games.size
            acts = pick_actions(rng, S)
            if t % 2:
                core.step_batch(S, acts, ctx.native)
            else:
                active = rng.random(B) < 0.75
                core.step_some(S, acts, active, ctx.native)
            n_steps += 1
            if S.terminated.any():
                n_hands += int(S.terminated.sum())
                core.reset_some(
                    S,
                    np.arange(B, dtype=np.uint64) + np.uint64(7 * t),
                    S.terminated.copy(),
                    ctx.native,
                )
    summary["play"] = {
        "configs": len(CONFIGS),
        "random_play games": n_games,
        "random_play hands": n_hands,
        "random_play decisions": n_dec,
        "batch steps (B=4)": n_steps,
        "searches": n_search,
    }


# ------------------------------------------------------------------------------------ score
def random_hands(core, rng, n, ctx):
    """n hands for score_batch: random melds from a shuffled set of tiles, then concealed tiles
    (a complete shape half of the time, else random), a winning tile among them, random context."""
    from envs import tiles as T
    from envs.scoring import codes as C

    M = 5
    conc = np.zeros((n, 34), np.int8)
    mt = np.zeros((n, M), np.int8)
    mk = np.zeros((n, M), np.int8)
    nm = np.zeros(n, np.int64)
    complete = np.zeros((1, 34), np.int8)
    for i in range(n):
        left = np.full(34, 4, np.int64)
        m = int(rng.integers(0, 6))
        k = 0
        for _ in range(m):
            t = int(rng.integers(T.MELD_CHI, T.MELD_ANKONG + 1))
            kind = int(rng.integers(0, 34))
            if t == T.MELD_CHI:
                if kind >= T.WIND0 or kind % 9 > 6 or (left[kind : kind + 3] < 1).any():
                    continue
                left[kind : kind + 3] -= 1
            else:
                need = 3 if t == T.MELD_PON else 4
                if left[kind] < need:
                    continue
                left[kind] -= need
            mt[i, k], mk[i, k] = t, kind
            k += 1
        nm[i] = k
        if rng.random() < 0.5:
            core.random_complete(complete, 5 - k, int(rng.integers(1 << 62)))
            if (complete[0] <= left).all():
                conc[i] = complete[0]
                continue
        pool = np.repeat(np.arange(34), left)
        take = rng.choice(pool, size=3 * (5 - k) + 2, replace=False)
        conc[i] = np.bincount(take, minlength=34)
    held = [np.flatnonzero(c) for c in conc]
    win_tile = np.array([int(rng.choice(h)) if rng.random() < 0.95 else -1 for h in held], np.int64)
    win_by = rng.integers(C.WIN_DISCARD, C.WIN_FLOWERS + 1, n).astype(np.int64)
    return dict(
        concealed=conc,
        meld_type=mt,
        meld_kind=mk,
        n_melds=nm,
        flowers=rng.integers(0, 256, n).astype(np.int64),
        win_tile=win_tile,
        win_by=win_by,
        seat_wind=rng.integers(0, 4, n).astype(np.int64),
        round_wind=rng.integers(0, 4, n).astype(np.int64),
        flags=rng.integers(0, 1 << 13, n).astype(np.int64),
    )


def phase_score(core, scale, summary):
    from envs.scoring.codes import N_ITEMS
    from envs.scoring.profile import PO_HONGKONG

    rng = np.random.default_rng(19)
    n_scored = n_wins = n_settled = 0
    for profile, options in CONFIGS:
        ctx = Ctx(profile, options)
        n = 150 * scale
        h = random_hands(core, rng, n, ctx)
        out_tai = np.zeros(n, np.int64)
        out_items = np.zeros((n, N_ITEMS), np.int32)
        core._testing.score_batch(*h.values(), ctx.native, out_tai, out_items)
        n_scored += n
        n_wins += int((out_tai >= 0).sum())
        one = np.zeros(N_ITEMS, np.int32)
        hk = bool(ctx.prof[2][PO_HONGKONG])
        for i in range(0, n, 5):
            args = [h[k][i] for k in h]
            tai = core.score_hand(*[int(a) if np.ndim(a) == 0 else a for a in args], ctx.native, one)
            assert tai == out_tai[i], f"{ctx.name}: score_hand {tai} != score_batch {out_tai[i]} (hand {i})"
            if hk:
                core._testing.hk_score(*[int(a) if np.ndim(a) == 0 else a for a in args], ctx.native, one)
            core._testing.winning_shape(h["concealed"][i], 5 - int(h["n_melds"][i]), ctx.native)
        # settlement of every win (hand tai from the scorer, random seats)
        won = np.flatnonzero(out_tai >= 0)
        k = won.size
        if k:
            winner = rng.integers(0, 4, k).astype(np.int64)
            payer = np.where(h["win_by"][won] == 0, (winner + rng.integers(1, 4, k)) % 4, -1).astype(np.int64)
            liable = np.where(rng.random(k) < 0.2, rng.integers(0, 4, k), -1).astype(np.int64)
            dealer = rng.integers(0, 4, k).astype(np.int64)
            streak = rng.integers(0, 6, k).astype(np.int64)
            deltas = np.zeros((k, 4), np.int64)
            core._testing.settle_batch(
                out_tai[won], h["win_by"][won], winner, payer, liable, dealer, streak, ctx.native, deltas
            )
            n_settled += k
            legs_t, legs_p, d4 = np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
            for j in range(min(k, 20)):
                a = (int(out_tai[won[j]]), int(h["win_by"][won[j]]), int(winner[j]), int(payer[j]))
                core.settle(*a, int(dealer[j]), int(streak[j]), ctx.native, d4)
                core._testing.hk_legs(*a, int(liable[j]), int(dealer[j]), int(streak[j]), ctx.native, legs_t, legs_p)
                core._testing.hk_settle(*a, int(liable[j]), int(dealer[j]), int(streak[j]), ctx.native, d4)
                core.dealer_tai(int(streak[j]), ctx.native)
        ctx_cols = np.stack([h["win_tile"], h["win_by"], h["seat_wind"], h["round_wind"], h["flowers"]], 1)
        core.score_all(h["concealed"], h["meld_type"], h["meld_kind"], h["n_melds"], ctx_cols, ctx.native, 1)
    # the hand analysis on random counts: every function, strict (0..4) and not (any int8 / int64)
    n_rows = 0
    for strict in (True, False):
        for dt in (np.int8, np.int64):
            R = 64 * scale
            if strict:
                hands = rng.integers(0, 5, (R, 34)).astype(dt)
                held = np.minimum(hands + rng.integers(0, 2, (R, 34)), 4).astype(dt)
                ns = rng.integers(0, 6, R).astype(np.int64)
            else:
                lo, hi = (-128, 128) if dt == np.int8 else (-(1 << 40), 1 << 40)
                hands = np.where(
                    rng.random((R, 34)) < 0.2, rng.integers(lo, hi, (R, 34)), rng.integers(0, 5, (R, 34))
                ).astype(dt)
                held = np.where(rng.random((R, 34)) < 0.2, rng.integers(lo, hi, (R, 34)), hands).astype(dt)
                ns = rng.integers(-3, 9, R).astype(np.int64)
            shapes = rng.integers(0, 1 << 8, R).astype(np.int64)
            for fn in core._testing.HAND_EVAL_FNS:
                out = np.zeros((R, core._testing.HAND_EVAL_WIDTH), np.int64)
                ret = np.zeros(R, np.int64)
                try:
                    core._testing.eval_batch(fn, hands, ns, held, shapes, out, ret, strict)
                except ValueError:
                    assert not strict or fn in ("decompositions", "combine4")
                    # (decompositions and _combine4 refuse n_sets outside 0..5 even when not strict)
                    ok = (ns >= 0) & (ns <= 5)
                    core._testing.eval_batch(fn, hands[ok], ns[ok], held[ok], shapes[ok], out[ok], ret[ok], strict)
                n_rows += R
    summary["score"] = {
        "hands scored (score_batch)": n_scored,
        "wins": n_wins,
        "wins settled": n_settled,
        "hand-analysis rows (eval_batch)": n_rows,
    }


# ------------------------------------------------------------------------------------ fuzz
def parse_signature(fn):
    """[(name, kind, default?)] from nanobind's signature line; kind: ro / rw (arrays), int, bool,
    float, str, bytes, object."""
    line = (fn.__doc__ or "").split("\n")[0]
    m = re.match(r"^\w+\((.*)\) -> .*$", line)
    assert m, f"{fn.__name__}: no signature in {line!r}"
    params, depth, cur = [], 0, ""
    for ch in m.group(1):
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
            continue
        depth += 1 if ch in "[(" else -1 if ch in "])" else 0
        cur += ch
    if cur.strip():
        params.append(cur.strip())
    out = []
    for p in params:
        name, _, typ = p.partition(": ")
        typ, _, default = typ.partition(" = ")
        if typ.startswith("ndarray"):
            kind = "ro" if "writable=False" in typ else "rw"
        elif typ in ("int", "bool", "float", "str", "bytes"):
            kind = typ
        else:
            kind = "object"
        out.append((name, kind, default or None))
    return out


class Fuzz:
    def __init__(self, core, seed=19):
        self.core = core
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.raised = 0
        self.failures: list[str] = []
        self.per_fn: dict[str, int] = {}

    def call(self, name, args, expect_raise, what):
        """expect_raise: True (must raise), False (may raise), None (must not raise: a valid call)."""
        fn = binding(self.core, name)
        self.calls += 1
        self.per_fn[name] = self.per_fn.get(name, 0) + 1
        try:
            fn(*args)
        except (TypeError, ValueError, OverflowError, RuntimeError) as e:  # (TableError is a RuntimeError)
            self.raised += 1
            if not str(e):
                self.failures.append(f"{name} [{what}]: {type(e).__name__} without a message")
            if expect_raise is None:
                self.failures.append(f"{name} [{what}]: a valid call raised {type(e).__name__}: {e}")
            return True
        except Exception as e:  # noqa: BLE001
            self.failures.append(f"{name} [{what}]: unexpected {type(e).__name__}: {e}")
            return True
        if expect_raise:
            self.failures.append(f"{name} [{what}]: accepted, expected an exception")
        return False


def _copy_arg(a):
    if isinstance(a, np.ndarray):
        return a.copy()
    if hasattr(a, "_fields"):
        return type(a)(*[x.copy() for x in a])
    if isinstance(a, tuple):
        return tuple(_copy_arg(x) for x in a)
    return a


def _extremes(dt):
    if dt == np.bool_:
        return [False, True]
    if np.issubdtype(dt, np.integer):
        i = np.iinfo(dt)
        vals = [i.min, i.max, 0, 1, 4, 5, 33, 34, 35, 127, 143, 144]
        if i.min < 0:
            vals += [-1, -2]
        return [v for v in vals if i.min <= v <= i.max]
    return [np.nan, np.inf, -np.inf, 1e300, -1e300, -0.0, 0.5, 9.1e15]


def garbage_arrays(rng, a):
    """Value mutations of a (same dtype and shape): all extremes, and random sprinkles."""
    vals = _extremes(a.dtype)
    out = []
    if a.size == 0:
        return out
    for v in vals[:4]:
        out.append((f"fill {v!r}", np.full_like(a, v)))
    for j in range(3):
        b = a.copy()
        flat = b.reshape(-1)
        idx = rng.random(flat.size) < (0.05 if j else 0.5)
        flat[idx] = rng.choice(np.array(vals, dtype=a.dtype), int(idx.sum()))
        out.append((f"sprinkle {j}", b))
    # rows of scalars (g, p, opts, or game 1's rows of a batch): each element at the extremes
    if a.dtype == np.int64 and (a.size <= 64 or (a.ndim >= 2 and a.shape[0] > 1 and a[1].size <= 64)):
        row = a.size > 64
        for k in range(a[1].size if row else a.size):
            for v in EXTREME_INT64:
                b = a.copy()
                (b[1] if row else b).reshape(-1)[k] = v
                out.append((f"{'[1]' if row else ''}[{k}] = {v}", b))
    return out


def structural(a, writable):
    """Shape / dtype / layout mutations of an array: (label, value, must_raise). Views of a private
    copy (the calls write into them)."""
    a = a.copy()
    out = []
    if a.dtype == np.bool_ or np.issubdtype(a.dtype, np.integer):
        out.append(("dtype float64", a.astype(np.float64), True))
    else:
        out.append(("dtype int64", a.astype(np.int64), True))
    out.append(("rank + 1", a[None], True))
    if a.ndim >= 1:
        out.append(("rank - 1", a[0] if a.shape[0] else a.reshape(a.shape[1:] + (0,))[..., 0], True))
        out.append(("empty axis 0", a[:0], False))
        out.append(("short last axis", a[..., :-1], False))
        out.append(("long last axis", np.concatenate([a, a[..., :1]], axis=-1), False))
        out.append(("reversed", a[::-1], False))
        out.append(("strided", np.repeat(a, 2, axis=0)[::2], False))
        if a.ndim >= 2:
            out.append(("transposed", np.swapaxes(a, 0, -1), False))
    ro = a.copy()
    ro.setflags(write=False)
    out.append(("read-only", ro, writable))
    for v in (None, [1, 2, 3], "x", 1.5, {"a": 1}):
        out.append((f"not an array {v!r}", v, True))
    return out


EXTREME_INT64 = [-(1 << 63), (1 << 63) - 1, -1, 200]
INTS = [-1, -2, 0, 1, 2, 3, 4, 5, 33, 34, 35, 143, 144, 1 << 31, -(1 << 31), (1 << 63) - 1, -(1 << 63)]
# integer arguments that size the work: only small values (a huge one is a legal long loop)
INT_LIMITS = {
    ("random_play", "episodes"): [-1, -(1 << 63), 0, 1, 2],
    ("search_batch", "k"): [-1, -(1 << 63), 0, 1, 3, (1 << 20) + 1, (1 << 63) - 1],
    ("search_leaves_batch", "k"): [-1, -(1 << 63), 0, 1, 3, (1 << 20) + 1, (1 << 63) - 1],
    ("search_determinization", "i"): [-1, -(1 << 63), 0, 1, 3, 1 << 20, (1 << 63) - 1],
    ("score_all", "reps"): [-1, -(1 << 63), 0, 1, 2],
    ("gen_group", "nk"): [-1, 0, 2, 3, 4, 5, 10, 34, (1 << 63) - 1, -(1 << 63)],
    ("set_num_threads", "n"): [-1, 0, 1, 2, 3, 1024, 1025, -(1 << 31), (1 << 63) - 1],
}


def valid_calls(core, ctx, S):
    """A valid argument list for every binding (the base of each mutation)."""
    from agents.greedy import DEFENCE_DEFAULTS, READY_P, WIN_LOGIT
    from envs.engine import actions as A
    from envs.engine import state as st
    from envs.obs import oracle_v0 as ov
    from envs.obs import planes_v0 as pv
    from envs.obs import planes_v1 as p1
    from envs.scoring.codes import N_ITEMS

    rng = np.random.default_rng(5)
    c = np.bincount([0, 1, 2, 9, 9, 9, 18, 19, 20, 27, 27, 27, 31, 31, 32, 32, 33], minlength=34).astype(np.int8)
    c16 = c.copy()
    c16[33] = 0
    held = c.copy()
    H = np.stack([c, c16, c, c16]).astype(np.int8)
    B = S.wall.shape[0]
    S2 = type(S)(*[x[:2] for x in S])  # (rows of S, not copies: tests/test_threads.py's hold check; calls copy)
    b = 0
    # a game at a turn decision (seat G_CUR to discard) for the per-seat helpers
    seat = int(S.g[b, st.G_CUR])
    g, ps, h = S.g[b], S.p[b, seat], S.hands[b, seat]
    ms = S.melds[b, seat]
    nm = int(S.p[b, seat, st.P_NMELDS])
    R = ctx.native
    # Defensive's parameters and tables, as agents.search passes them (base=defensive, rollout=defensive)
    search_defence = (
        np.array(list(DEFENCE_DEFAULTS.values()), np.float64),
        np.ascontiguousarray(WIN_LOGIT, np.float64),
        np.ascontiguousarray(READY_P, np.float64),
    )
    tabs = core.hand_tables()
    w = core._testing.HAND_EVAL_WIDTH
    flags = pv.F_DERIVED
    C = pv.n_channels(True)
    seats = np.where(S.terminated, -1, S.g[:, st.G_CUR]).astype(np.int64)
    ex = {  # a winning hand for the scorers: 4 sets + pair concealed, one chow meld
        "concealed": np.bincount([0, 1, 2, 9, 9, 9, 18, 19, 20, 27, 27, 27, 33, 33], minlength=34).astype(np.int8),
        "meld_type": np.array([0, 0, 0, 0, 0], np.int8),
        "meld_kind": np.array([3, 0, 0, 0, 0], np.int8),
    }
    hand14 = (ex["concealed"], ex["meld_type"], ex["meld_kind"], 1, 5, 33, 0, 1, 0, 0)
    n = 3
    hb = [
        np.stack([ex["concealed"]] * n),
        np.stack([ex["meld_type"]] * n),
        np.stack([ex["meld_kind"]] * n),
        np.ones(n, np.int64),
        np.full(n, 5, np.int64),
        np.full(n, 33, np.int64),
        np.zeros(n, np.int64),
        np.ones(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
    ]
    ctx5 = np.array([[33, 0, 1, 0, 5]] * n, np.int64)
    la = np.zeros((4, 4), np.float64)
    la[0, 1] = 6.0
    la_k = np.zeros((4, 4), np.int32)
    la_k[0, 1] = 2
    legs = np.zeros((4, 4), np.int64)
    legs[2, 0] = 8
    obs = np.zeros((B, pv.n_channels(False), 34), np.float32)
    core.planes_v0_encode(obs, S.hands, S.melds, S.river, S.g, S.p, S.scores, seats, ctx.native, 0)
    from agents import efficiency, greedy
    from agents.features import decode

    f = decode(obs)
    defence = np.array(list(DEFENCE_DEFAULTS.values()), np.float64)
    i64 = lambda x: np.asarray(x).astype(np.int64)  # noqa: E731
    return {
        "codes": [c],
        "combine4": [tabs[0][5], tabs[0][7], tabs[0][0], tabs[2][3], 4],
        "drop_one": [H.copy(), 3],
        "eval_batch": [
            "win_wait_mask",
            H,
            np.full(4, 5, np.int64),
            H,
            np.full(4, 255, np.int64),
            np.zeros((4, w), np.int64),
            np.zeros(4, np.int64),
            True,
        ],
        "extra_cost": [c.astype(np.int64), np.ones(34, np.int64), np.array([0, 5, 9], np.int64), 3],
        "is_orphan": [8],
        "loop_complete": [H, 5],
        "loop_decompositions": [H, 5],
        "loop_discard_shanten": [H, 5],
        "loop_shanten": [H, 5],
        "loop_waits": [H, 5],
        "perturb": [H.copy(), 3, 0.5],
        "random_complete": [np.zeros((3, 34), np.int8), 5, 7],
        "random_wall_hands": [np.zeros((3, 34), np.int8), 16, 7],
        "sha256_hex": [b"tw16"],
        "thirteen_code_ok": [5, 255],
        "gen_group": [4, True],
        "hand_tables": [],
        "hand_tables_sha256": [],
        "check_hand_tables": [core._testing.HAND_TABLES_SHA256],
        "is_complete": [c, 5],
        "shanten": [c16, 5],
        "discard_shanten": [c, 5, np.zeros(34, np.int64)],
        "best_discards": [c, 5, np.zeros(34, np.bool_)],
        "wait_mask": [c16, 5, held, np.zeros(34, np.bool_)],
        "wait_array": [c16, 5, held],
        "decompositions": [c, 5, np.zeros((64, 11), np.int64)],
        "is_eight_pairs": [c],
        "eight_pairs_shanten": [c],
        "eight_pairs_wait_mask": [c16, held, np.zeros(34, np.int8)],
        "thirteen_orphans_parts": [c, np.zeros(3, np.int64)],
        "is_thirteen_orphans": [c, 255],
        "thirteen_orphans_shanten": [c, 255],
        "sixteen_unrelated_suits": [c, 255, np.zeros(3, np.int64)],
        "is_sixteen_unrelated": [c, 255],
        "sixteen_unrelated_shanten": [c, 255],
        "special_shape": [c, 255],
        "special_wait_mask": [c16, held, 255, np.zeros(34, np.bool_)],
        "is_win": [c, 5, 255],
        "win_shanten": [c, 5, 255],
        "win_wait_mask": [c16, 5, held, 255, np.zeros(34, np.bool_)],
        "is_complete_batch": [H, 5],
        "shanten_batch": [H, np.full(4, 5, np.int64)],
        "is_win_batch": [H, 5, 255],
        "win_shanten_batch": [H, 5, 255],
        "discard_shanten_batch": [H, 5],
        "wait_mask_batch": [H, 5, H],
        "win_wait_mask_batch": [H, 5, H, 255],
        # scoring
        "score_hand": [*hand14, R, np.zeros(N_ITEMS, np.int32)],
        "hk_score": [*hand14, R, np.zeros(N_ITEMS, np.int32)],
        "settle": [6, 0, 1, 2, 0, 1, R, np.zeros(4, np.int64), -1, np.zeros(4, np.int64)],
        "dealer_tai": [2, R],
        "winning_shape": [ex["concealed"], 4, R],
        "score_batch": [*hb, R, np.zeros(n, np.int64), np.zeros((n, N_ITEMS), np.int32)],
        "settle_batch": [
            np.full(n, 6, np.int64),
            np.zeros(n, np.int64),
            np.ones(n, np.int64),
            np.full(n, 2, np.int64),
            np.full(n, -1, np.int64),
            np.zeros(n, np.int64),
            np.ones(n, np.int64),
            R,
            np.zeros((n, 4), np.int64),
        ],
        "score_all": [hb[0], hb[1], hb[2], hb[3], ctx5, R, 1],
        "hk_legs": [6, 1, 1, -1, -1, 0, 1, R, np.zeros(4, np.int64), np.zeros(4, np.int64)],
        "hk_settle": [6, 0, 1, 2, -1, 0, 1, R, np.zeros(4, np.int64)],
        # engine parts
        "mask_rows": [np.zeros_like(S.mask), S.g, S.p, S.hands.copy(), S.melds, S.terminated, R],
        "held_all": [h, ms, nm, 5],
        "is_concealed": [ms, nm],
        "is_ready_hand": [h, ms, nm, R],
        "ready_after_discard": [h, ms, nm, int(np.flatnonzero(h)[0]), R],
        "can_declare_ready": [g, ps, h, ms, R, False],
        "turn_win_ok": [g, ps, h, R],
        "may_win": [c16, 33, ctx.shapes],
        "wins_with": [c16, 0, 33, R],
        "tiles_left": [g, R],
        "kong_allowed": [g, R],
        "claim_options": [
            g,
            S.p[b, (seat + 1) % 4],
            S.hands[b, (seat + 1) % 4],
            (seat + 1) % 4,
            seat,
            int(np.flatnonzero(h)[0]),
            R,
        ],
        "chi_has_discard": [c, 3, 3, -1, -1, True],
        "next_asked": [g, S.p[b], seat],
        "open_claims": [S.g[b].copy(), S.p[b].copy(), S.hands[b].copy(), int(np.flatnonzero(h)[0]), R],
        "open_rob": [S.g[b].copy(), S.p[b].copy(), S.hands[b].copy(), int(np.flatnonzero(h)[0]), False, R],
        "clear_claims": [S.p[b].copy()],
        "fill_wall": [S, 1, R],
        "draw_tile": [S, 1, int(S.g[1, st.G_TURN]), False, st.SRC_FRONT, R],
        "deal": [S, 1, R],
        "base_chips": [R, 3],
        "all_pay": [S.p[b].copy(), 2, 5],
        "flower_side": [S.p[b].copy(), 2, R],
        "roll_dice": [S, 1, R],
        "chase_side": [S, 1, R],
        "pay_rounded": [np.zeros(4, np.int64), 0, 1, 2.5],
        "la_close": [la, la_k, 0, 1, np.zeros(4, np.int64)],
        "la_close_all": [la, la_k, np.zeros(4, np.int64)],
        "la_pair": [la, la_k, 0, 1, 4, np.zeros(4, np.int64)],
        "la_hand": [la, la_k, legs, 3, 0, np.zeros(4, np.int64)],
        # engine
        "reset_batch": [S, np.arange(B, dtype=np.uint64), ctx.native],
        "reset_some": [
            S,
            np.arange(B, dtype=np.uint64),
            np.array([True, False] * (B // 2)),
            ctx.native,
        ],
        "step_batch": [S, pick_actions(rng, S), ctx.native],
        "step_some": [S, pick_actions(rng, S), np.ones(B, np.bool_), ctx.native],
        # (greedy: with garbage options a whole game may be played, and greedy play ends it sooner; the
        # first two games of S, game 1 among them: each call plays a hand of every game, and at four
        # games random_play was 38 of the phase's 89 s under ASan)
        "random_play": [
            S2,
            np.arange(2, dtype=np.uint64),
            np.arange(2, dtype=np.uint64),
            1,
            True,
            1,
            ctx.native,
        ],
        "check_game": [S, 1, ctx.native],
        "hold_state": [S],
        # search at decision time (game 1 is a live decision)
        "copy_game": [S, 1, _copy_arg(S), 0],
        "resample_hidden": [S, 1, int(S.g[1, st.G_CUR]), 5, ctx.native, np.ones((1, 3, 34))],
        "reshuffle_wall": [S, 1, 5, ctx.native],
        "search_batch": [
            S,
            np.array([1], np.int64),
            np.array([3], np.uint64),
            2,
            2,
            4,  # ROLLOUT_DEFENSIVE (agents.search), so that the defence tables are read
            0.5,
            ctx.native,
            np.zeros(1, np.int64),
            np.zeros((1, 2)),
            np.array([[np.flatnonzero(S.mask[1])[0], -1]], np.int64),
            search_defence,
            False,  # (candidates are the base; base_defensive is the other base)
            0.5,
            0.0,
            False,  # oracle (then no hand model)
            np.ones((1, 3, 34)),  # hand_q: a hand model's weights
        ],
        "search_leaves_batch": [
            S,
            np.array([1], np.int64),
            np.array([3], np.uint64),
            2,
            2,
            4,  # ROLLOUT_DEFENSIVE, as above
            ctx.native,
            st.alloc(4, 0),  # the leaves: 1 game x k 2 x n 2, no scripted walls
            np.zeros((1, 2), np.int64),
            np.zeros((1, 2, 2)),
            np.zeros((1, 2, 2), np.int8),
            np.zeros((1, 2)),
            np.zeros(1, np.int64),
            np.array([[np.flatnonzero(S.mask[1])[0], -1]], np.int64),
            search_defence,
            False,
            0.5,
            0.0,
            False,
            np.ones((1, 3, 34)),
        ],
        "search_determinization": [S, 1, 3, 1, ctx.native, st.alloc(2, 0), 1],
        "search_weights": [S, 1, 3, 4, 0.5, ctx.native, np.zeros(4)],
        "search_choose": [np.arange(6.0).reshape(3, 2), np.zeros(3), 1.0, 0.0, np.zeros(2)],
        "search_log_weight": [S, 1, int(S.g[1, st.G_CUR]), ctx.native],
        # encoders
        "planes_v0_encode": [
            np.zeros((B, C, 34), np.float32),
            S.hands,
            S.melds,
            S.river,
            S.g,
            S.p,
            S.scores,
            seats,
            ctx.native,
            flags,
        ],
        "oracle_v0_encode": [
            np.zeros((B, C + ov.N_ORACLE_EXTRA, 34), np.float32),
            S.hands,
            S.melds,
            S.river,
            S.wall,
            S.g,
            S.p,
            S.scores,
            seats,
            ctx.native,
            flags,
            C,
        ],
        "encode_one": [
            np.zeros((C, 34), np.float32),
            S.hands,
            S.melds,
            S.river,
            S.g,
            S.p,
            S.scores,
            0,
            int(seats[0]),
            ctx.native,
            flags,
        ],
        "encode_rows": [
            np.zeros((B, C, 34), np.float32),
            np.arange(B, dtype=np.int64),
            seats,
            S.hands,
            S.melds,
            S.river,
            S.g,
            S.p,
            S.scores,
            ctx.native,
            flags,
        ],
        "planes_v1_encode": [
            np.zeros((B, C + p1.N_V1_EXTRA, 34), np.float32),
            np.arange(B, dtype=np.int64),
            seats,
            S.hands,
            S.melds,
            S.river,
            S.g,
            S.p,
            S.scores,
            S.la,
            S.la_k,
            ctx.native,
            flags,
        ],
        # agents
        "efficiency_kernel": [
            f.hand,
            i64(f.n_melds),
            f.unseen,
            i64(f.claim_tile),
            np.zeros((B, efficiency.N_EFFICIENCY, 34), np.float32),
        ],
        "act_kernel": [
            f.hand,
            i64(f.n_melds),
            f.unseen,
            i64(f.opp_melds),
            f.opp_ready,
            f.opp_disc,
            f.opp_passed,
            i64(f.tiles_left),
            i64(f.claim_tile),
            S.mask.copy(),
            defence,
            greedy.WIN_LOGIT,
            greedy.READY_P,
            np.zeros(B, np.int64),
        ],
        # threads
        "set_num_threads": [0],
        "num_threads": [],
        # bindings of other branches (used when the module has them)
        "hk_flags": [S, 1, 0, 1],
        "ukeire": [c16, 5, 1, (4 - c16).astype(np.int8)],
        "tile_danger": [5, np.zeros(34, np.int8), np.zeros(34, np.int8), (4 - c16).astype(np.int8)],
    }, A


def binding(core, name):
    """The binding ``name`` of the core: the game API in ``core``, what only the tests call in ``core._testing``."""
    return getattr(core, name) if hasattr(core, name) else getattr(core._testing, name)


def _runner(fz, name, args, i, prefix=""):
    """run(value, what, must): call binding ``name`` with fresh copies of ``args``, argument i replaced
    by value; ``what`` (after ``prefix``) names the case in the report."""
    base = list(args)

    def run(value, what, must):
        a = [_copy_arg(x) for x in base]
        a[i] = value
        fz.call(name, a, must, prefix + what)

    return run


def fuzz_state(fz, name, args, i, rng, n_corrupt):
    """Mutations of the state namedtuple at args[i]: the tuple itself, each field's structure and
    values, and single-element corruptions of a game."""
    S = args[i]
    run = _runner(fz, name, args, i)
    run(tuple(S)[:-1], f"state: {len(S) - 1} fields", True)
    run(None, "state: None", True)
    run(list(_copy_arg(S)), "state: a list", False)
    for j, field in enumerate(S._fields):
        arr = S[j]
        for label, v, must in structural(arr, field != "script"):
            if label.startswith("rank - 1") and arr.ndim == 1:
                must = True
            if label in ("empty axis 0", "reversed", "strided", "transposed", "long last axis", "short last axis"):
                must = False
            s2 = _copy_arg(S)._replace(**{field: v})
            run(s2, f"state.{field}: {label}", must)
        for label, v in garbage_arrays(rng, arr):
            run(_copy_arg(S)._replace(**{field: v}), f"state.{field}: {label}", False)
    # each scalar of game 1 (the game the part bindings are given) and of its seats at the extremes
    for col in range(S.g.shape[1]):
        for v in EXTREME_INT64:
            s2 = _copy_arg(S)
            s2.g[1, col] = v
            run(s2, f"state.g[1, {col}] = {v}", False)
    for seat in range(4):
        for col in range(S.p.shape[2]):
            for v in EXTREME_INT64:
                s2 = _copy_arg(S)
                s2.p[1, seat, col] = v
                run(s2, f"state.p[1, {seat}, {col}] = {v}", False)
    # single values of one game (the rest valid): what a bad state of a live game must not do
    fields = [f for f in S._fields if f not in ("script",)]
    for _ in range(n_corrupt):
        s2 = _copy_arg(S)
        field = fields[int(rng.integers(len(fields)))]
        arr = getattr(s2, field)
        flat = arr.reshape(-1)
        k = int(rng.integers(flat.size))
        vals = _extremes(arr.dtype)
        flat[k] = vals[int(rng.integers(len(vals)))] if rng.random() < 0.7 else flat[int(rng.integers(flat.size))]
        run(s2, f"state.{field}[{np.unravel_index(k, arr.shape)}] = {flat[k]!r}", False)


def fuzz_rules(fz, name, args, i, rng, ctx):
    """Mutations of the native rules at args[i] (envs._core.Rules): anything else is refused; rules
    built from garbage arrays (those the constructor accepts) are used."""
    run = _runner(fz, name, args, i)
    run(None, "rules: None", True)
    run(ctx.opts, "rules: the options array", True)
    run(ctx.prof, "rules: the profile tuple", True)
    base = [ctx.opts, ctx.cfg, *ctx.prof]
    for j in range(5):
        for label, v in garbage_arrays(rng, base[j]):
            arrays = list(base)
            arrays[j] = v
            try:
                rules = fz.core.Rules(*arrays)
            except (TypeError, ValueError):
                continue
            run(rules, f"rules built from array {j}: {label}", False)


def fuzz_rules_ctor(fz, ctx, rng):
    """envs._core.Rules(opts, cfg, p_tai, p_repl, p_opts): every array's structure and values."""
    base = [ctx.opts, ctx.cfg, *ctx.prof]
    fz.call("Rules", [_copy_arg(a) for a in base], None, "valid")
    fz.call("Rules", base[:4], True, "4 arrays")
    for j in range(5):
        run = _runner(fz, "Rules", base, j, f"array {j}: ")
        for label, v, must in structural(base[j], False):
            if label == "read-only":
                must = False  # (only read, and copied)
            run(v, label, must)
        for label, v in garbage_arrays(rng, base[j]):
            run(v, label, False)


def phase_fuzz(core, scale, summary):
    np.seterr(all="ignore")  # (the garbage values overflow numpy casts on purpose)
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)
    fz = Fuzz(core)
    rng = fz.rng
    # threads: a count beyond MAX_THREADS is refused; the most threads give the serial results
    # (before the fix, a huge count made thread creation fail and the process abort)
    try:
        core.set_num_threads(1 << 40)
        raise AssertionError("set_num_threads(2**40) accepted")
    except ValueError:
        pass
    hands = np.zeros((300, 34), np.int8)
    hands[:, :17] = rng.integers(0, 2, (300, 17))
    core.set_num_threads(1)
    serial = core.shanten_batch(hands, 5)
    core.set_num_threads(1024)
    assert np.array_equal(core.shanten_batch(hands, 5), serial), "results depend on the thread count"
    core.set_num_threads(0)
    names = {
        n
        for mod in (core, core._testing)
        for n in dir(mod)
        if not n.startswith("__") and callable(getattr(mod, n)) and not isinstance(getattr(mod, n), type)
    }
    # (the second rules set only for the bindings that take rules, a profile or a state)
    ctx_params = {"state", "S", "rules"}
    for first, (profile, options) in enumerate(
        (("standard", {}), ("hongkong", {"la_cut_policy": "ask", "dice_payments": True}))
    ):
        first = first == 0
        ctx = Ctx(profile, options)
        S = new_state(core, ctx, 4, 77)
        for _ in range(25):  # into the hand: melds, a river, claims
            live = ~S.terminated
            if not live.all():
                break
            core.step_batch(S, pick_actions(rng, S), ctx.native)
        if S.terminated.any():
            S = new_state(core, ctx, 4, 78)
        core.set_num_threads(0)
        fuzz_rules_ctor(fz, ctx, rng)
        calls, A = valid_calls(core, ctx, S)
        calls = {k: v for k, v in calls.items() if hasattr(core, k) or hasattr(core._testing, k)}
        missing = sorted(names - set(calls))
        assert not missing, f"bindings the fuzz does not know (add them to valid_calls): {missing}"
        for name in sorted(calls):
            fn = binding(core, name)
            sig = parse_signature(fn)
            if not first and not ctx_params & {p[0] for p in sig}:
                continue
            args = calls[name]
            assert len(args) == len(sig), f"{name}: {len(args)} valid args for {len(sig)} parameters"
            # the valid call itself
            fz.call(name, [_copy_arg(a) for a in args], None, "valid")
            for i, (pname, kind, default) in enumerate(sig):
                run = _runner(fz, name, args, i, f"{pname}: ")
                v = args[i]
                if kind in ("ro", "rw") or (kind == "object" and isinstance(v, np.ndarray)):
                    array_param = kind in ("ro", "rw")
                    for label, m, must in structural(v, kind == "rw"):
                        optional = m is None and default == "None"  # an optional array may be None
                        run(m, label, must and array_param and not optional)
                    for label, m in garbage_arrays(rng, v):
                        run(m, label, False)
                elif kind == "object" and hasattr(v, "_fields"):
                    fuzz_state(fz, name, args, i, rng, 40 * scale)
                elif kind == "object" and isinstance(v, core.Rules):
                    fuzz_rules(fz, name, args, i, rng, ctx)
                elif kind == "int" or (kind == "object" and isinstance(v, int)):
                    for x in INT_LIMITS.get((name, pname), INTS):
                        run(x, f"= {x}", False)
                    for x in (0.5, None, "1", 1 << 64, -(1 << 64) - 1):
                        run(x, f"= {x!r}", kind == "int")
                elif kind == "bool":
                    run(not v, f"= {not v}", False)
                    for x in (None, "yes", 2, 0.0):
                        run(x, f"= {x!r}", True)
                elif kind == "float":
                    for x in (0.0, -0.0, -1.5, 1e300, -1e300, np.inf, -np.inf, np.nan, 4.5e18, -9.3e18):
                        run(x, f"= {x!r}", False)
                    for x in (None, "1.0"):
                        run(x, f"= {x!r}", True)
                elif kind == "str":
                    for x in ("", "\udcff", "0" * 64, v.upper()):
                        run(x, f"= {x!r}", False)
                    run(None, "= None", True)
                elif kind == "bytes":
                    for x in (b"", bytes(range(256)) * 64):
                        run(x, f"= {len(x)} bytes", False)
                    run("str", "= str", True)
            # a few calls with every argument garbled at once
            for _ in range(3 * scale):
                a = []
                for (pname, kind, _), v in zip(sig, args):
                    if isinstance(v, np.ndarray) and v.size:
                        opts = garbage_arrays(rng, v)
                        a.append(opts[int(rng.integers(len(opts)))][1])
                    elif kind == "int" and (name, pname) not in INT_LIMITS:
                        a.append(int(rng.choice(INTS)))
                    else:
                        a.append(_copy_arg(v))
                fz.call(name, a, False, "all garbled")
            # one argument too few (when the last has no default) and one too many
            if sig and sig[-1][2] is None:
                fz.call(name, [_copy_arg(a) for a in args[:-1]], True, "last argument missing")
            fz.call(name, [_copy_arg(a) for a in args] + [0], True, "one argument too many")
            core.set_num_threads(0)  # (after set_num_threads' own fuzz)
        core.set_num_threads(0)
    summary["fuzz"] = {"bindings": len(names), "calls": fz.calls, "raised": fz.raised, "failures": len(fz.failures)}
    if fz.failures:
        print("\n".join(fz.failures[:200]))
        raise AssertionError(f"{len(fz.failures)} fuzz expectations failed: {fz.failures[:4]}")


# ------------------------------------------------------------------------------------ threads
def phase_threads(scale, summary):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import thread_stress

    out = {"search_beside_steps": thread_stress.search_beside_steps(16, 20 * scale)["searches"]}
    for n in (2, 4):
        out[f"chaos_{n}"] = thread_stress.chaos(n, games=6, ops=40 * scale, seed=n)["ops"]
        out[f"ordered_{n}"] = thread_stress.ordered(n, games=4, ops=16 * scale, seed=n)["ops"]
    summary["threads"] = out


def phase_race_proof(core):
    import threading

    out = np.zeros((256, 34), np.int8)
    print("SANITIZER-PROOF: two threads writing one array in the core", flush=True)
    ts = [
        threading.Thread(target=lambda i=i: [core.random_complete(out, 5, i * 100 + j) for j in range(50)])
        for i in range(2)
    ]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print("SANITIZER-PROOF: NOT REPORTED", flush=True)
    sys.exit(3)


# ------------------------------------------------------------------------------------ main
def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("phase", choices=["proof", "race_proof", "play", "score", "fuzz", "threads", "all"])
    ap.add_argument("--core", default=None)
    ap.add_argument("--scale", type=int, default=1)
    a = ap.parse_args(argv)
    core = load_core(a.core)
    summary = {"core": core.__file__}
    t0 = time.time()
    if a.phase == "proof":
        phase_proof(core)
    if a.phase in ("play", "all"):
        phase_play(core, a.scale, summary)
    if a.phase in ("score", "all"):
        phase_score(core, a.scale, summary)
    if a.phase in ("fuzz", "all"):
        phase_fuzz(core, a.scale, summary)
    if a.phase == "threads":
        phase_threads(a.scale, summary)
    if a.phase == "race_proof":
        phase_race_proof(core)
    summary["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
