"""The project's ``njit``: ``numba.njit`` with reference counting pinned on unless a function turns
it off.

Numba compiles a called function with its caller's reference-counting setting when the function does
not choose one itself (``nrt`` is an inherited flag). The engine's per-decision loops are compiled
with ``_nrt=False`` (every array they touch is a borrowed view, so the counts are null operations that
cost a quarter of a decision: docs/benchmarks.md), and the functions they call must not inherit that:
most of them allocate. So every compiled function of tw16 is decorated through this ``njit``.
"""

from __future__ import annotations

from numba import njit as _numba_njit


def njit(*args, **kwargs):
    """``numba.njit``, with ``_nrt=True`` unless given (bare ``@njit`` and ``@njit(...)`` both work)."""
    kwargs.setdefault("_nrt", True)
    return _numba_njit(*args, **kwargs)
