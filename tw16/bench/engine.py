"""Engine benchmark: uniformly random legal play of complete hands, masks and scoring included, the
random choice made inside the native core (a per-game stream), so the figure measures the engine.

    python -m tw16.bench.engine [--seconds 2] [--batch 1 64 4096]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from envs import _core
from envs.engine.api import Engine
from envs.engine.randplay import random_play
from envs.rules import Rules


def _measure(rules: Rules, batch: int, seconds: float) -> dict:
    eng = Engine(rules, batch)
    random_play(eng, seed=0, episodes=1, check=False)  # warm-up (caches, page faults)
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
        # (below PARALLEL_MIN_BATCH games the loop runs on the calling thread: one thread works)
        "us_per_hand_per_thread": round(1e6 * el * _threads_used(batch) / max(hands, 1), 1),
        "seconds": round(el, 2),
    }


def _threads_used(batch: int) -> int:
    return min(_core.num_threads(), batch) if batch >= _core.PARALLEL_MIN_BATCH else 1


def import_seconds() -> float:
    """Start-up cost: importing the engine and playing one hand at batch 2, in a fresh process (no
    compile step: the native core is built at install)."""
    code = (
        "import time; t=time.perf_counter(); from envs.engine.api import Engine; from envs.rules import Rules;"
        "from envs.engine.randplay import random_play\n"
        "e=Engine(Rules(), 2); random_play(e, 0, 1, check=False)\n"
        "print(time.perf_counter()-t)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return round(float(r.stdout.strip().splitlines()[-1]), 2)


def bench_engine(
    batch_sizes=(1, 64, 4096), threads=(1, None), seconds: float = 2.0, rules: Rules | None = None
) -> dict:
    """Hands/s and decisions/s per (threads, batch); ``None`` in ``threads`` = one per core."""
    rules = rules or Rules()
    eng = Engine(rules, 2)
    res = {
        "rules": rules.to_dict(),
        "cpu_count": os.cpu_count(),
        "import_seconds": import_seconds(),
        "state_bytes_per_game": eng.state_bytes_per_game(),
        "parallel_min_batch": _core.PARALLEL_MIN_BATCH,
        "runs": [],
    }
    old = _core.num_threads()
    try:
        for th in threads:
            _core.set_num_threads(0 if th is None else max(1, int(th)))
            n = _core.num_threads()
            for b in batch_sizes:
                r = _measure(rules, b, seconds)
                r["threads"] = n
                r["threads_used"] = _threads_used(b)
                res["runs"].append(r)
    finally:
        _core.set_num_threads(old)
    return res


def main(argv=None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--batch", type=int, nargs="*", default=[1, 64, 4096])
    a = ap.parse_args(argv)
    print(json.dumps(bench_engine(tuple(a.batch), seconds=a.seconds), indent=1))


if __name__ == "__main__":
    main()
