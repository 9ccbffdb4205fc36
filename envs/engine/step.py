"""One game's transitions: reset, step, claim resolution, hand and episode ends; and the batch loops
(each game independent, so batch 1 and batch N run the same code).

They run in the native core, ``envs._core`` (native/src/step.cpp). This module names the batch entry
points (bound in ``envs._core``) that ``Engine``, the Gymnasium vector env and ``tw16_v0`` call:

    reset_batch(S, seeds, rules)           deal every game from its seed (uint64 (B,))
    reset_some(S, seeds, which, rules)     auto-reset: deal again the games in ``which`` (bool (B,));
                                           scripted walls are not reused
    step_batch(S, actions, rules)          apply one action per game (int64 (B,), legal under the
                                           mask; a finished game: a no-op)
    step_some(S, actions, active, rules)   step_batch for the games in ``active`` only

``S`` is an ``envs.engine.state.State`` (its arrays are written in place; ``script`` is only read and
may be read-only) and ``rules`` the rules compiled once, ``envs.engine.mask.native_rules(rules)``
(``Engine.native``: the options, the engine settings and the compiled profile, checked when built). Everything is checked before anything changes (dtypes,
shapes, each stepped game's state and action): bad input raises ValueError (TypeError for a wrong
dtype). From ``PARALLEL_MIN_BATCH`` games up a call splits the batch over
``envs._core.set_num_threads`` threads; results never depend on the thread count.
"""

from __future__ import annotations

PARALLEL_MIN_BATCH = 256  # smallest batch a core call splits over threads (native/include/tw16/parallel.hpp)
WEST = 29  # 一路歸西 (west_draw): the first four discards all West end the hand drawn
