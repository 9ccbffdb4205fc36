"""No Numba anywhere: the compiled code of tw16 is the native core ``envs._core`` (native/), built at
install. No module imports numba or llvmlite, the package does not depend on them, and the engine's
entry points are the core's functions themselves."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ("envs", "agents", "evaluation", "training", "bench", "cli", "tests", "examples")
IMPORT = re.compile(r"^\s*(?:import|from)\s+(?:numba|llvmlite)\b", re.M)


def test_no_module_imports_numba():
    offenders = [
        str(f.relative_to(ROOT))
        for tree in TREES
        for f in sorted((ROOT / tree).rglob("*.py"))
        if IMPORT.search(f.read_text(encoding="utf-8"))
    ]
    assert offenders == [], f"modules that import numba or llvmlite: {offenders}"


def test_no_numba_dependency():
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert not [d for d in deps if re.match(r"(numba|llvmlite)\b", d)], deps


def test_no_numba_plumbing_left():
    for path in ("envs/jit.py", "envs/_jitcache.py", "envs/fastcall.py", "envs/engine/views.py"):
        assert not (ROOT / path).exists(), path


def test_the_engine_runs_on_the_native_core():
    from envs import _core
    from envs.engine import api

    for name in ("reset_batch", "reset_some", "step_batch", "step_some"):
        assert getattr(api, name) is getattr(_core, name)
