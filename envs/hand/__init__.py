"""Hand analysis: completeness, shanten, waits, decompositions (lookup tables, native code).

Submodules: ``tables`` (the lookup tables' layout and checksum; the tables are built by envs._core),
``analysis`` (the constants of the native functions, which are bound in ``envs._core``), ``api``
(notation-level helpers); the benchmark is ``tw16.bench.hand``. The helpers of ``api`` are re-exported
here lazily, so that the constants of ``analysis`` import without loading the native module.
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
