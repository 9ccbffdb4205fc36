"""``tw16 bench``: benchmark figures as JSON, with the machine they were measured on."""

from __future__ import annotations

import os
import platform

import numpy as np

from envs import _core


def _git_commit() -> str | None:
    """The commit of the checkout the benchmark ran from (with ``+dirty`` for local changes), to quote."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True,
                               text=True, timeout=10).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty else "")


def _cpu_model() -> str:
    """The CPU's marketing name where the OS says it (Linux /proc/cpuinfo), else the architecture."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _machine() -> dict:
    return {
        "git_commit": _git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cpu": _cpu_model(),
        "os": platform.platform(terse=True),
        "cores": os.cpu_count(),
        "core_threads": _core.num_threads(),  # threads of the native core's batch calls (envs._core)
        "load_avg_1_5_15": [round(x, 2) for x in os.getloadavg()],  # other jobs share the cores
    }


def run_bench(what: str, seconds: float = 1.0) -> dict:
    machine = _machine()
    if what == "scoring":
        from envs.hand.bench import bench_hand
        from envs.scoring.bench import bench_scoring

        result = {"hand": bench_hand(seconds)}
        profiles = ("standard", "strict16", "casual")
        result["scoring"] = [bench_scoring(p, seconds) for p in profiles]
        result["scoring"] += [bench_scoring(p, seconds, extras=True) for p in profiles]  # EXTRAS.md pack
        result["scoring"].append(bench_scoring("hongkong", seconds))  # HONGKONG.md, its own scorer
    elif what == "engine":
        from envs.engine.bench import bench_engine

        result = bench_engine(seconds=seconds)
    elif what == "env":
        from envs.bench_env import bench_env

        result = bench_env(seconds=seconds)
    else:
        raise ValueError(f"unknown benchmark {what!r} (scoring, engine, env)")
    return {"bench": what, "machine": machine, **result, "load_avg_after": [round(x, 2) for x in os.getloadavg()]}
