"""Single-thread throughput of the native hand analysis: ``bench_hand(seconds=1.0) -> dict``.

Each figure times a native loop of ``envs._core`` (``loop_complete``, ``loop_shanten``,
``loop_waits``, ``loop_decompositions``, ``loop_discard_shanten``: one analysis call per row, on
one thread) over a preallocated ``(n, 34)`` int8 array of hands. The hands come from the native
makers: ``random_complete`` (a random pair and ``n_sets`` random sets per row), ``perturb`` (one tile
moved to another kind in a fraction of the rows), ``drop_one`` (one tile removed: complete hands
become ready ones) and ``random_wall_hands`` (tiles dealt from a shuffled 136-tile wall); they draw
from one fixed MT19937 stream (described in native/src/bench_hands.cpp), so a seed gives the same hands
in every version and the figures compare across versions. ``python -m tw16.bench.hand`` prints the dict as JSON.
"""

from __future__ import annotations

import json
import time

import numpy as np

from envs._core import (
    drop_one,
    loop_complete,
    loop_decompositions,
    loop_discard_shanten,
    loop_shanten,
    loop_waits,
    perturb,
    random_complete,
    random_wall_hands,
)
from envs.tiles import N_KINDS

N_HANDS = 20_000
N_RATES = 5  # the throughput figures bench_hand measures (its loops), each for ``seconds``


def _rate(fn, hands, n_sets, seconds):
    """Calls per second of ``fn`` over ``hands``, repeating for about ``seconds`` (at least one pass; no
    pass is started that would end well past ``seconds``)."""
    calls = passes = 0
    t0 = time.perf_counter()
    while True:
        fn(hands, n_sets)
        calls += len(hands)
        passes += 1
        dt = time.perf_counter() - t0
        if dt * (passes + 0.5) / passes >= seconds:  # the next pass would end past seconds + half a pass
            return calls / dt


def bench_hand(seconds: float = 1.0, n_hands: int = N_HANDS, seed: int = 0) -> dict:
    """Hand-analysis throughput on one thread; ``seconds`` per figure (JSON-able dict).

    - ``win_checks_per_s``: ``is_complete`` on 17-tile hands, about half of them complete (random
      decompositions, the other half with one tile moved).
    - ``waits_per_s``: ``wait_mask`` on 16-tile hands (complete hands less one tile).
    - ``shanten_per_s``: ``shanten`` on 16-tile hands dealt from a shuffled wall.
    - ``decompositions_per_s`` (complete 17-tile hands), ``discard_shanten_per_s`` (17 dealt tiles).
    - ``first_call_s``: the first call of every maker and loop together (on a tiny array).
    """
    n_sets = 5
    loops = (loop_complete, loop_shanten, loop_waits, loop_decompositions, loop_discard_shanten)
    tiny = np.zeros((1, N_KINDS), np.int8)
    tiny[0, 0] = 2
    t0 = time.perf_counter()
    random_complete(tiny, 0, 0)
    perturb(tiny.copy(), 0, 0.0)
    drop_one(tiny.copy(), 0)
    random_wall_hands(tiny.copy(), 2, 0)
    for fn in loops:
        fn(tiny, 0)
    first_call = time.perf_counter() - t0

    complete = np.zeros((n_hands, N_KINDS), np.int8)
    random_complete(complete, n_sets, seed)
    mixed = complete.copy()
    perturb(mixed, seed + 1, 0.5)
    ready = complete.copy()
    drop_one(ready, seed + 2)
    dealt16 = np.zeros((n_hands, N_KINDS), np.int8)
    random_wall_hands(dealt16, 16, seed + 3)
    dealt17 = np.zeros((n_hands, N_KINDS), np.int8)
    random_wall_hands(dealt17, 17, seed + 4)

    res = {
        "win_checks_per_s": _rate(loop_complete, mixed, n_sets, seconds),
        "win_fraction": loop_complete(mixed, n_sets) / n_hands,
        "waits_per_s": _rate(loop_waits, ready, n_sets, seconds),
        "mean_waits": loop_waits(ready, n_sets) / n_hands,
        "shanten_per_s": _rate(loop_shanten, dealt16, n_sets, seconds),
        "mean_shanten_dealt16": loop_shanten(dealt16, n_sets) / n_hands,
        "decompositions_per_s": _rate(loop_decompositions, complete, n_sets, seconds),
        "discard_shanten_per_s": _rate(loop_discard_shanten, dealt17, n_sets, seconds),
        "first_call_s": first_call,
        "n_hands": n_hands,
        "seconds": seconds,
        "threads": 1,
    }
    return {k: (round(v, 6 if k == "first_call_s" else 4) if isinstance(v, float) else v) for k, v in res.items()}


if __name__ == "__main__":
    print(json.dumps(bench_hand(), indent=1))
