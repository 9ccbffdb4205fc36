"""One Numba cache folder per version of the project's compiled sources.

Numba's on-disk cache (``cache=True``) is keyed on each function's own source file only: when a
function it calls or a constant it reads changes in another module (hand analysis, scoring codes,
the engine's state layout), the cached machine code would silently keep the old version inlined.
So every compiled function of tw16 caches in ``__pycache__/deps-<hash>``, the hash covering every
source file of ``envs/`` and ``agents/`` that holds compiled code; a change anywhere recompiles all,
and a process started before a change keeps writing to the old folder, never to the new one.
``TW16_JIT_CACHE_DIR`` moves the cache elsewhere (a fresh folder gives a cold compile).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba.core.caching import CacheImpl, InTreeCacheLocator

ROOT = Path(__file__).resolve().parent.parent
_TREES = (ROOT / "envs", ROOT / "agents")


def _compiled_sources() -> list[Path]:
    files = []
    for tree in _TREES:
        for f in sorted(tree.rglob("*.py")):
            if "__pycache__" not in f.parts and "njit" in f.read_text(encoding="utf-8", errors="replace"):
                files.append(f)
    return files


def _digest() -> str:
    h = hashlib.sha256()
    for f in _compiled_sources():
        h.update(str(f.relative_to(ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


DEPS_DIGEST = _digest()


class ProjectCacheLocator(InTreeCacheLocator):
    """In-tree cache for the project's compiled functions, in a folder named after the source hash."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        root = os.environ.get("TW16_JIT_CACHE_DIR") or self._cache_path
        self._cache_path = os.path.join(root, f"deps-{DEPS_DIGEST}")

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        if not any(tree in path.parents for tree in _TREES):
            return None
        return super().from_function(py_func, py_file)


if ProjectCacheLocator not in CacheImpl._locator_classes:
    CacheImpl._locator_classes.insert(0, ProjectCacheLocator)
