"""Hand analysis: completeness, shanten, waits, decompositions (tables + numba).

Submodules: ``tables`` (generated lookup tables), ``analysis`` (``@njit`` functions for compiled code),
``api`` (notation-level helpers), ``bench``. The helpers of ``api`` are re-exported here lazily, so
that ``python -m envs.hand.tables`` does not load the tables before regenerating them.
"""

_API = (
    "waits",
    "shanten_of",
    "is_complete_hand",
    "decompose",
    "discards",
    "hand_counts",
)

__all__ = list(_API)


def __getattr__(name):
    if name in _API:
        from envs.hand import api

        return getattr(api, name)
    raise AttributeError(f"module 'envs.hand' has no attribute {name!r}")
