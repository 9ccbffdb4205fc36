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
from envs.engine.invariants import check
from envs.rules import Rules


@pytest.mark.parametrize("n_threads", [2, 4])
def test_chaos_keeps_every_game_valid(n_threads):
    out = thread_stress.chaos(n_threads, games=16, ops=60, seed=n_threads)
    assert out["ops"] == 60 * n_threads


@pytest.mark.parametrize("n_threads", [2, 4])
def test_locked_operations_equal_their_serial_replay(n_threads):
    assert thread_stress.ordered(n_threads, games=6, ops=30, seed=n_threads)["ops"] == 30 * n_threads


def test_two_threads_stepping_one_engine_break_no_game():
    """Row 2 as filed: two threads step one Engine (batch 512); unlocked reads of the mask may pick
    an action that another thread's step made illegal: refused with a ValueError, the game untouched."""
    eng = Engine(Rules(), 512, auto_reset=True)
    eng.reset(1)
    refused = []

    def stepper(i):
        rng = np.random.default_rng(i)
        for _ in range(40):
            m = eng.legal_action_mask
            acts = np.array([rng.choice(np.flatnonzero(m[b])) for b in range(512)], np.int64)
            try:
                eng.step(acts)
            except ValueError as e:
                refused.append(str(e))

    ts = [threading.Thread(target=stepper, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert check(eng) == []
    assert all("illegal" in r for r in refused), refused[:3]


def test_a_held_engine_makes_other_threads_wait():
    """While a thread holds the engine (Engine.locked), a native call on its state from another
    thread does not start; the holder's own calls go through; another engine is never held up."""
    eng, other = Engine(Rules(), 4), Engine(Rules(), 4)
    eng.reset(3)
    other.reset(4)
    done = threading.Event()

    def search():
        g = np.array([0], np.int64)
        _core.search_batch(eng.s, g, np.array([1], np.uint64), 1, 1, 0, 0.0, eng.opts, eng.cfg, eng.prof,
                           np.zeros(1, np.int64), np.zeros((1, 1)))  # fmt: skip
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


def test_hold_is_one_with_per_object():
    h = _core.hold_state(Engine(Rules(), 1).s)
    with h:
        pass
    with pytest.raises(ValueError, match="already entered"):
        h.__enter__()
