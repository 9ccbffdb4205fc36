"""The vectorised game engine (RULES.md section 2). Public API: ``envs.engine.api.Engine``.

The state is the numpy struct-of-arrays of ``envs.engine.state``; the transitions run in the native
core ``envs._core`` (native/src: step, wall, claims, mask, handend, side, ledger, randplay,
invariants), which these modules name for Python callers.
"""
