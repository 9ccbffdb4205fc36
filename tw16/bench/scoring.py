"""Scoring throughput: full scorings (decomposition search + profile + settlement) per second.

Random winning hands are built by drawing a random decomposition (0-5 melds, sets, a pair, a winning
tile, how it was won), then a native loop (``envs._core.score_all``) scores and settles them all on one
thread: ``score_hand``, then the engine's own settlement (native/src/settle.cpp: the legs paid in full,
RULES.md 4 or HONGKONG.md 5.1), the payer the seat after the winner unless the hand was self-drawn.
"""

from __future__ import annotations

import time

import numpy as np

from envs._core import score_all
from envs.engine.mask import native_rules
from envs.rules import Rules
from envs.tiles import MELD_ANKONG, MELD_CHI, MELD_KONG, MELD_PON


def random_winning_hands(n: int, seed: int = 0):
    """``n`` random winning hands as arrays (concealed incl. winning tile, melds, win context)."""
    rng = np.random.default_rng(seed)
    conc = np.zeros((n, 34), dtype=np.int8)
    mt = np.zeros((n, 5), dtype=np.int8)
    mk = np.zeros((n, 5), dtype=np.int8)
    nm = np.zeros(n, dtype=np.int64)
    ctx = np.zeros((n, 5), dtype=np.int64)  # win_tile, win_by, seat, round, flowers
    i = 0
    while i < n:
        used = np.zeros(34, dtype=np.int8)
        n_melds = int(rng.choice(6, p=[0.35, 0.25, 0.18, 0.12, 0.06, 0.04]))
        sets = []
        for s in range(5):
            if rng.random() < 0.6:
                k = int(rng.integers(0, 27))
                k = k - k % 9 + min(k % 9, 6)
                t, ks = MELD_CHI, [k, k + 1, k + 2]
            else:
                k = int(rng.integers(0, 34))
                t, ks = MELD_PON, [k, k, k]
                if s < n_melds and rng.random() < 0.2:
                    t, ks = (MELD_KONG if rng.random() < 0.5 else MELD_ANKONG), [k] * 4
            for x in ks:
                used[x] += 1
            sets.append((t, k, ks))
        pair = int(rng.integers(0, 34))
        used[pair] += 2
        if (used > 4).any():
            continue
        for s, (t, k, ks) in enumerate(sets):
            if s < n_melds:
                mt[i, s], mk[i, s] = t, k
            else:
                for x in ks:
                    conc[i, x] += 1
        conc[i, pair] += 2
        held = np.flatnonzero(conc[i])
        ctx[i, 0] = int(rng.choice(held))
        ctx[i, 1] = int(rng.integers(0, 3))
        ctx[i, 2] = int(rng.integers(0, 4))
        ctx[i, 3] = int(rng.integers(0, 4))
        ctx[i, 4] = int(rng.integers(0, 256)) & int(rng.integers(0, 256))
        nm[i] = n_melds
        i += 1
    return conc, mt, mk, nm, ctx


def bench_scoring(profile: str = "standard", seconds: float = 1.0, n_hands: int = 4096, **options) -> dict:
    """Full scorings per second under ``profile`` with rule ``options`` (``extras=True`` for the pack)."""
    rules = Rules.make(profile, **options)
    native = native_rules(rules)  # (built before the clock starts, as the engine builds it once)
    hands = random_winning_hands(n_hands)
    t0 = time.perf_counter()
    score_all(*[h[:2] for h in hands], native, 1)
    first_s = time.perf_counter() - t0
    # one pass over the hands gives the rate; then as many passes as fill ``seconds``, timed together
    t0 = time.perf_counter()
    score_all(*hands, native, 1)
    reps, elapsed = 1, time.perf_counter() - t0
    if elapsed < seconds:
        reps = max(2, round(seconds / elapsed))
        t0 = time.perf_counter()
        score_all(*hands, native, reps)
        elapsed = time.perf_counter() - t0
    return {
        "profile": profile + ("+extras" if rules.extras else ""),
        "full_scorings_per_s": round(n_hands * reps / elapsed),
        "hands": n_hands,
        "reps": reps,
        "first_call_s": round(first_s, 3),
    }
