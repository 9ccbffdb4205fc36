"""The invariant checker over an ``Engine``: ``check(engine)`` lists its failing games.

The checker is native (native/src/invariants.cpp, bound for the tests as
``envs._core._testing.check_game``); the codes and their names are ``envs.engine.invariants``.
"""

from __future__ import annotations

from envs._core._testing import check_game
from envs.engine.invariants import ERROR_NAMES


def check(engine) -> list[tuple[int, str]]:
    """``[(game, error name), ...]`` for every game of an ``Engine`` that fails."""
    bad = []
    for b in range(engine.batch_size):
        e = check_game(engine.s, b, engine.native)
        if e:
            bad.append((b, ERROR_NAMES[e]))
    return bad
