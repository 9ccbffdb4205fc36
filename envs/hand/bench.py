"""Single-thread throughput of the compiled hand analysis: ``bench_hand(seconds=1.0) -> dict``.

Each figure times an ``@njit`` loop over a preallocated ``(n, 34)`` int8 array of hands, excluding
compilation (first calls are timed separately as ``first_call_s``: compile time on a cold numba cache,
cache load time on a warm one). ``python -m envs.hand.bench`` prints the dict as JSON.
"""

from __future__ import annotations

import json
import time

import numpy as np
from envs.jit import njit

from envs.hand import analysis as A
from envs.tiles import N_KINDS, WIND0

N_HANDS = 20_000


@njit(cache=True)
def _random_complete(out, n_sets, seed):
    """Fill each row of ``out`` with a random complete hand: a pair and ``n_sets`` random sets."""
    np.random.seed(seed)
    for r in range(out.shape[0]):
        while True:
            for k in range(N_KINDS):
                out[r, k] = 0
            ok = True
            p = np.random.randint(N_KINDS)
            out[r, p] += 2
            for _ in range(n_sets):
                if np.random.random() < 0.5:
                    s = np.random.randint(3)
                    k = 9 * s + np.random.randint(7)
                    out[r, k] += 1
                    out[r, k + 1] += 1
                    out[r, k + 2] += 1
                    if out[r, k] > 4 or out[r, k + 1] > 4 or out[r, k + 2] > 4:
                        ok = False
                else:
                    k = np.random.randint(N_KINDS)
                    out[r, k] += 3
                    if out[r, k] > 4:
                        ok = False
            if ok:
                break


@njit(cache=True)
def _perturb(hands, seed, frac):
    """Replace one random tile by another kind (counts stay <= 4) in a fraction ``frac`` of the rows."""
    np.random.seed(seed)
    for r in range(hands.shape[0]):
        if np.random.random() >= frac:
            continue
        while True:
            a = np.random.randint(N_KINDS)
            b = np.random.randint(N_KINDS)
            if a != b and hands[r, a] > 0 and hands[r, b] < 4:
                hands[r, a] -= 1
                hands[r, b] += 1
                break


@njit(cache=True)
def _drop_one(hands, seed):
    """Remove one random tile from each row (a complete hand becomes a ready one)."""
    np.random.seed(seed)
    for r in range(hands.shape[0]):
        while True:
            a = np.random.randint(N_KINDS)
            if hands[r, a] > 0:
                hands[r, a] -= 1
                break


@njit(cache=True)
def _random_wall_hands(out, n_tiles, seed):
    """Rows of ``n_tiles`` tiles dealt from a shuffled 136-tile wall."""
    np.random.seed(seed)
    wall = np.empty(136, np.int64)
    for i in range(136):
        wall[i] = i // 4
    for r in range(out.shape[0]):
        for k in range(N_KINDS):
            out[r, k] = 0
        for i in range(n_tiles):
            j = i + np.random.randint(136 - i)
            t = wall[i]
            wall[i] = wall[j]
            wall[j] = t
            out[r, wall[i]] += 1


@njit(cache=True)
def _loop_complete(hands, n_sets):
    n = 0
    for r in range(hands.shape[0]):
        n += A.is_complete(hands[r], n_sets)
    return n


@njit(cache=True)
def _loop_shanten(hands, n_sets):
    s = 0
    for r in range(hands.shape[0]):
        s += A.shanten(hands[r], n_sets)
    return s


@njit(cache=True)
def _loop_waits(hands, n_sets):
    out = np.zeros(N_KINDS, np.bool_)
    s = 0
    for r in range(hands.shape[0]):
        s += A.wait_mask(hands[r], n_sets, hands[r], out)
    return s


@njit(cache=True)
def _loop_decompositions(hands, n_sets):
    out = np.zeros((A.MAX_DECOMPOSITIONS, A.DEC_WIDTH), np.int64)
    s = 0
    for r in range(hands.shape[0]):
        s += A.decompositions(hands[r], n_sets, out)
    return s


@njit(cache=True)
def _loop_discard_shanten(hands, n_sets):
    out = np.zeros(N_KINDS, np.int64)
    s = 0
    for r in range(hands.shape[0]):
        s += A.discard_shanten(hands[r], n_sets, out)
    return s


def _rate(fn, hands, n_sets, seconds):
    """Calls per second of ``fn`` over ``hands``, repeating for about ``seconds``."""
    calls = 0
    t0 = time.perf_counter()
    while True:
        fn(hands, n_sets)
        calls += len(hands)
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return calls / dt


def bench_hand(seconds: float = 1.0, n_hands: int = N_HANDS, seed: int = 0) -> dict:
    """Hand-analysis throughput on one thread; ``seconds`` per figure (JSON-able dict).

    - ``win_checks_per_s``: :func:`is_complete` on 17-tile hands, about half of them complete (random
      decompositions, the other half with one tile swapped).
    - ``waits_per_s``: :func:`wait_mask` on 16-tile hands (complete hands less one tile).
    - ``shanten_per_s``: :func:`shanten` on 16-tile hands dealt from a shuffled wall.
    - ``decompositions_per_s`` (complete 17-tile hands), ``discard_shanten_per_s`` (17 dealt tiles).
    - ``first_call_s``: the first call of every loop together (compilation, or loading the numba
      cache when ``cache_hits`` is nonzero).
    """
    n_sets = 5
    loops = (_loop_complete, _loop_shanten, _loop_waits, _loop_decompositions, _loop_discard_shanten)
    makers = (_random_complete, _perturb, _drop_one, _random_wall_hands)
    tiny = np.zeros((1, N_KINDS), np.int8)
    tiny[0, 0] = 2
    t0 = time.perf_counter()
    _random_complete(tiny, 0, 0)
    _perturb(tiny.copy(), 0, 0.0)
    _drop_one(tiny.copy(), 0)
    _random_wall_hands(tiny.copy(), 2, 0)
    for fn in loops:
        fn(tiny, 0)
    first_call = time.perf_counter() - t0
    hits = sum(sum(f.stats.cache_hits.values()) for f in loops + makers)
    misses = sum(sum(f.stats.cache_misses.values()) for f in loops + makers)

    complete = np.zeros((n_hands, N_KINDS), np.int8)
    _random_complete(complete, n_sets, seed)
    mixed = complete.copy()
    _perturb(mixed, seed + 1, 0.5)
    ready = complete.copy()
    _drop_one(ready, seed + 2)
    dealt16 = np.zeros((n_hands, N_KINDS), np.int8)
    _random_wall_hands(dealt16, 16, seed + 3)
    dealt17 = np.zeros((n_hands, N_KINDS), np.int8)
    _random_wall_hands(dealt17, 17, seed + 4)

    res = {
        "win_checks_per_s": _rate(_loop_complete, mixed, n_sets, seconds),
        "win_fraction": _loop_complete(mixed, n_sets) / n_hands,
        "waits_per_s": _rate(_loop_waits, ready, n_sets, seconds),
        "mean_waits": _loop_waits(ready, n_sets) / n_hands,
        "shanten_per_s": _rate(_loop_shanten, dealt16, n_sets, seconds),
        "mean_shanten_dealt16": _loop_shanten(dealt16, n_sets) / n_hands,
        "decompositions_per_s": _rate(_loop_decompositions, complete, n_sets, seconds),
        "discard_shanten_per_s": _rate(_loop_discard_shanten, dealt17, n_sets, seconds),
        "first_call_s": first_call,
        "cache_hits": hits,
        "cache_misses": misses,
        "n_hands": n_hands,
        "seconds": seconds,
        "threads": 1,
    }
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in res.items()}


if __name__ == "__main__":
    print(json.dumps(bench_hand(), indent=1))
