"""Engine benchmark: uniformly random legal play of complete hands, masks and scoring included, the
random choice made inside compiled code (a per-game stream), so the figure measures the engine.

    python -m envs.engine.bench [--seconds 2] [--no-cold]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numba

from envs.engine.api import Engine
from envs.engine.randplay import random_play
from envs.engine.views import PARALLEL_MIN_BATCH
from envs.rules import Rules


def _measure(rules: Rules, batch: int, seconds: float) -> dict:
    eng = Engine(rules, batch)
    random_play(eng, seed=0, episodes=1, check=False)  # warm-up (compiled already)
    episodes = 1
    hands = decisions = 0
    t0 = time.perf_counter()
    seed = 1
    while True:
        out = random_play(eng, seed=seed, episodes=episodes, check=False)
        hands += int(out[:, 1].sum())
        decisions += int(out[:, 2].sum())
        seed += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            break
        episodes = min(episodes * 2, max(1, 65536 // batch))
    return {
        "batch": batch,
        "hands_per_s": round(hands / el, 1),
        "decisions_per_s": round(decisions / el, 1),
        "decisions_per_hand": round(decisions / max(hands, 1), 1),
        # thread-seconds per hand: flat across batch sizes when the cost is linear in the batch
        # (below PARALLEL_MIN_BATCH games the loop is serial: one thread works)
        "us_per_hand_per_thread": round(1e6 * el * _threads_used(batch) / max(hands, 1), 1),
        "seconds": round(el, 2),
    }


def _threads_used(batch: int) -> int:
    return numba.get_num_threads() if batch >= PARALLEL_MIN_BATCH else 1


def cold_compile_seconds() -> float:
    """Compile what the benchmark runs (the engine, scoring, random play, serial and parallel batch
    loops) from an empty cache (``TW16_JIT_CACHE_DIR`` = a fresh folder) in a fresh process."""
    code = (
        "import time; t=time.perf_counter(); from envs.engine.api import Engine; from envs.rules import Rules;"
        "from envs.engine.randplay import random_play\n"
        "for n in (2, 64):\n"
        "    e=Engine(Rules(), n); e.reset(0); e.step(e.legal_action_mask.argmax(1)); random_play(e, 0, 1, check=False)\n"
        "print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TW16_JIT_CACHE_DIR=d)
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return round(float(r.stdout.strip().splitlines()[-1]), 1)


def bench_engine(batch_sizes=(1, 64, 4096), threads=(1, None), seconds: float = 2.0, rules: Rules | None = None,
                 cold: bool = True) -> dict:
    """Hands/s and decisions/s per (threads, batch); ``None`` in ``threads`` = all cores. ``cold``: also
    time a compile from an empty cache (first, in a subprocess: minutes on a busy machine)."""
    rules = rules or Rules()
    cold_s = cold_compile_seconds() if cold else None
    t = time.perf_counter()
    eng = Engine(rules, 2)
    random_play(eng, seed=0, episodes=1, check=False)
    warm_load = time.perf_counter() - t
    res = {
        "rules": rules.to_dict(),
        "cpu_count": os.cpu_count(),
        "numba": numba.__version__,
        "first_call_seconds": round(warm_load, 2),
        "cold_compile_seconds": cold_s,
        "state_bytes_per_game": eng.state_bytes_per_game(),
        "runs": [],
    }
    max_threads = numba.config.NUMBA_NUM_THREADS
    old = numba.get_num_threads()
    try:
        for th in threads:
            n = max_threads if th is None else min(int(th), max_threads)
            numba.set_num_threads(n)
            for b in batch_sizes:
                r = _measure(rules, b, seconds)
                r["threads"] = n
                r["threads_used"] = _threads_used(b)
                res["runs"].append(r)
    finally:
        numba.set_num_threads(old)
    return res


def main(argv=None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--batch", type=int, nargs="*", default=[1, 64, 4096])
    ap.add_argument("--no-cold", action="store_true", help="skip the compile from an empty cache (minutes)")
    a = ap.parse_args(argv)
    print(json.dumps(bench_engine(tuple(a.batch), seconds=a.seconds, cold=not a.no_cold), indent=1))


if __name__ == "__main__":
    main()
