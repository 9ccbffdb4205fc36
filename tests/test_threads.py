"""The threading contract of the Engine (issue 27, rows 1 and 2; docs/robustness.md "Threads").

Before the fix, two threads stepping one Engine broke games silently (a tile id 35, a count of -1)
and search_batch in one thread while another stepped read and wrote past a wall (ASan). Now every
native call on an engine's state holds its memory for the whole call (native/bind/hold.hpp). The
stress itself is tests/thread_stress.py; tests/test_sanitize.py runs it under ASan + UBSan and TSan.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import thread_stress

from envs import _core
from envs.engine.api import Engine
from envs.rules import Rules


@pytest.mark.parametrize("n_threads", [2, 4])
def test_chaos_keeps_every_game_valid(n_threads):
    out = thread_stress.chaos(n_threads, games=16, ops=60, seed=n_threads)
    assert out["ops"] == 60 * n_threads


def test_search_beside_a_stepping_thread():
    assert thread_stress.search_beside_steps(32, 30)["searches"] == 30


@pytest.mark.parametrize("n_threads", [2, 4])
def test_locked_operations_equal_their_serial_replay(n_threads):
    assert thread_stress.ordered(n_threads, games=6, ops=30, seed=n_threads)["ops"] == 30 * n_threads


def test_a_held_engine_makes_other_threads_wait():
    """While a thread holds the engine (Engine.locked), a native call on its state from another
    thread does not start; the holder's own calls go through; another engine is never held up."""
    eng, other = Engine(Rules(), 4), Engine(Rules(), 4)
    eng.reset(3)
    other.reset(4)
    done = threading.Event()

    def search():
        g = np.array([0], np.int64)
        _core.search_batch(
            eng.s,
            g,
            np.array([1], np.uint64),
            1,
            1,
            0,
            0.0,
            eng.native,
            np.zeros(1, np.int64),
            np.zeros((1, 1)),
        )
        done.set()

    with eng.locked():
        t = threading.Thread(target=search)
        t.start()
        other.step(np.array([np.flatnonzero(other.legal_action_mask[b])[0] for b in range(4)], np.int64))
        eng.step(np.array([np.flatnonzero(eng.legal_action_mask[b])[0] for b in range(4)], np.int64))
        time.sleep(0.2)
        assert not done.is_set(), "search_batch ran while another thread held the engine"
    t.join(10)
    assert done.is_set()


def test_locked_nests_and_copies_get_their_own_hold():
    import copy
    import pickle

    eng = Engine(Rules(), 2)
    eng.reset(0)
    with eng.locked():
        with eng.locked():
            eng.step(np.array([np.flatnonzero(eng.legal_action_mask[b])[0] for b in range(2)], np.int64))
        dup = copy.deepcopy(eng)  # (a copy: its own memory, its own hold)
    for e in (dup, pickle.loads(pickle.dumps(eng))):
        assert not any(np.shares_memory(x, y) for x, y in zip(e.s, eng.s))
        with eng.locked():  # (held by this thread: the copy's calls are not held up)
            e.step(np.array([np.flatnonzero(e.legal_action_mask[b])[0] for b in range(2)], np.int64))
    h = _core.hold_state(eng.s)
    with pytest.raises(ValueError, match="__exit__ without __enter__"):
        h.__exit__(None, None, None)


def _touches(arg, S) -> bool:
    if isinstance(arg, tuple) and hasattr(arg, "_fields"):  # a State
        return any(_touches(a, S) for a in arg)
    return isinstance(arg, np.ndarray) and any(np.shares_memory(arg, x) for x in S)


def test_every_binding_on_state_memory_waits_for_the_hold():
    """Coverage of the contract: every binding of envs._core whose valid call (tests/sanitize_driver.py's
    valid_calls, which knows every binding) passes memory of a state, the state tuple or rows of it,
    waits while another thread holds that state, and runs once it is released."""
    import sanitize_driver as sd

    ctx = sd.Ctx("hongkong", {"la_cut_policy": "ask", "dice_payments": True})

    def fresh():  # (a state in mid-hand and the valid calls on it, made again for each binding)
        rng = np.random.default_rng(3)
        S = sd.new_state(_core, ctx, 4, 77)
        for _ in range(25):
            if not (~S.terminated).all():
                break
            _core.step_batch(S, sd.pick_actions(rng, S), ctx.native)
        if S.terminated.any():
            S = sd.new_state(_core, ctx, 4, 78)
        return S, sd.valid_calls(_core, ctx, S)[0]

    covered = []
    for name in sorted(fresh()[1]):
        S, calls = fresh()
        args = calls[name]
        if name == "hold_state" or not any(_touches(a, S) for a in args):
            continue
        done = threading.Event()
        errors = []

        def call(fn=sd.binding(_core, name), args=args):  # noqa: B008 (bound once, per loop turn)
            try:
                fn(*args)
            except Exception as e:  # (reported below)
                errors.append(e)
            done.set()

        with _core.hold_state(S):
            t = threading.Thread(target=call)
            t.start()
            assert not done.wait(0.05), f"{name} ran on the state while another thread held it"
        t.join(60)
        assert done.is_set() and not errors, (name, errors)
        covered.append(name)
    # the engine, search, encoders and every engine part on a state's rows
    for name in (
        "step_batch",
        "step_some",
        "reset_batch",
        "reset_some",
        "random_play",
        "check_game",
        "copy_game",
        "resample_hidden",
        "search_batch",
        "planes_v0_encode",
        "oracle_v0_encode",
        "encode_rows",
        "planes_v1_encode",
        "mask_rows",
        "tiles_left",
        "claim_options",
        "fill_wall",
        "hk_flags",
    ):
        assert name in covered, (name, covered)
