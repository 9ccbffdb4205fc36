"""Test-session order: the longest test files first.

``--dist loadfile`` hands each xdist worker one file at a time, in collection order
(``--no-loadscope-reorder`` in pyproject.toml keeps that order). Collected alphabetically, the
sanitizer builds and runs (about 5 minutes in a fresh clone) started near the end, and the other
worker sat idle while they finished. Handing the longest files out first lets the many short ones
fill in around them: the longest-first rule for scheduling on two machines.
"""

from __future__ import annotations

import os

# Two workers on two cores: torch's OpenMP / MKL pools in each worker, and in the subprocesses the
# tests start (which inherit this environment), use one thread, so the workers do not oversubscribe
# the cores (spinning threads waiting for descheduled ones). Set before any test imports torch; a value
# already in the environment is kept. docs/torchrl.md's snippet beside two busy processes: 75 -> 47
# CPU s. (The native core's threads are its own, envs._core.set_num_threads: not affected.)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

# The longest files, longest first: per-file totals of `python -m pytest --durations=0` on the 2-core
# machine (2026-12-03), in seconds: sanitize 182 (+ about 120 to build in a fresh clone), distributed
# 65, doc_snippets 69, doc_snippets_sb3 65, cli 64, aivat 55, olympiad 51, hk_engine_random 46,
# search 39, doc_snippets_torchrl 36, rl_adapters 33, platforms_engine 31. The rest keep their order.
LONGEST_FIRST = (
    "test_sanitize.py",
    "test_doc_snippets.py",
    "test_distributed.py",
    "test_doc_snippets_sb3.py",
    "test_cli.py",
    "test_aivat.py",
    "test_olympiad.py",
    "test_hk_engine_random.py",
    "test_search.py",
    "test_doc_snippets_torchrl.py",
    "test_rl_adapters.py",
    "test_platforms_engine.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: order within a file kept
