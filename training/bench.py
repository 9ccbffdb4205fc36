"""``tw16 bench``: benchmark figures as JSON, with the machine they were measured on."""

from __future__ import annotations

import os
import platform

import numba
import numpy as np


def _machine() -> dict:
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
    }


def run_bench(what: str, seconds: float = 1.0) -> dict:
    if what == "scoring":
        from envs.hand.bench import bench_hand
        from envs.scoring.bench import bench_scoring

        result = {"hand": bench_hand(seconds)}
        profiles = ("standard", "strict16", "casual")
        result["scoring"] = [bench_scoring(p, seconds) for p in profiles]
        result["scoring"] += [bench_scoring(p, seconds, extras=True) for p in profiles]  # EXTRAS.md pack
    elif what == "engine":
        from envs.engine.bench import bench_engine

        result = bench_engine(seconds=seconds)
    elif what == "env":
        from envs.bench_env import bench_env

        result = bench_env(seconds=seconds)
    else:
        raise ValueError(f"unknown benchmark {what!r} (scoring, engine, env)")
    return {"bench": what, "machine": _machine(), **result}
