"""Threads on shared Engines (issue 27, rows 1 and 2): the stress run by tests/test_threads.py on the
normal build and by tests/sanitize_driver.py's ``threads`` phase under ASan + UBSan and TSan.

Two parts, each on engines shared by every thread:

- ``chaos``: each thread mixes, at random and without any lock of its own, ``step`` (actions read
  from the mask just before: another thread may have moved the game since, so an "illegal action"
  refusal is expected and counted), ``reset``, the drivers' fast path ``step_some``, ``clone`` (then
  steps and resamples the copy), ``resample_hidden``, ``SearchAgent.act_engine`` (``search_batch``
  on the engine's state arrays), the encoders (planes_v0, oracle_v0, planes_v1 rows) and
  ``last_hand``. Afterwards every game of every engine passes the invariant checker, and the only
  exceptions seen are the refusals a race makes legitimate (a ValueError saying the action is
  illegal, the episode is over, or the seat is not the one to decide).
- ``ordered``: each thread does its compound operations under ``Engine.locked()`` and logs them
  there, so the log is the order the engine saw; replaying the log serially on a fresh engine gives
  the same state arrays, search decisions and encodings bit for bit.

    python tests/thread_stress.py [--threads 2 4] [--games 6] [--ops 60] [--core PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# A race may legitimately make a call refuse its arguments (the state moved on since they were
# read); these are the messages of such refusals. Anything else fails the run.
RACE_REFUSALS = ("illegal", "episode is over", "is not the seat to decide", "was not stepped")
OPS = ("step", "step_some", "reset", "clone", "resample", "search", "encode", "last_hand", "check")


def _engines(games, seed, record=False):
    from envs.engine.api import Engine
    from envs.rules import Rules

    engs = [
        Engine(Rules(), games, auto_reset=True, record_hands=record),
        Engine(Rules.make("hongkong"), games, auto_reset=False, record_hands=record),
    ]
    for i, e in enumerate(engs):
        e.reset(seed + 1000 * i)
    return engs


def _pick(rng, mask_row) -> int:
    legal = np.flatnonzero(mask_row)
    return int(rng.choice(legal)) if legal.size else 0


def _live_decision(eng, rng):
    """A live game of eng and its seat to decide, or None."""
    from envs.engine import state as st

    live = np.flatnonzero(~eng.s.terminated)
    if live.size == 0:
        return None
    b = int(rng.choice(live))
    return b, int(eng.s.g[b, st.G_CUR])


def _encode(eng, encs):
    from envs.engine import state as st

    v0, orc, v1 = encs
    a = v0.encode(eng)
    b = orc.encode(eng)
    rows = np.arange(eng.batch_size, dtype=np.int64)
    seats = np.maximum(eng.s.g[:, st.G_CUR], 0).astype(np.int64)
    c = v1.encode_rows(eng, np.zeros((eng.batch_size,) + v1.shape, np.float32), rows, seats)
    return a, b, c


def _one_op(op, eng, rng, agent, encs):
    """One operation of the chaos part; returns nothing, raises what the call raises."""
    B = eng.batch_size
    if op == "step":
        eng.step(np.array([_pick(rng, eng.legal_action_mask[b]) for b in range(B)], np.int64))
    elif op == "step_some":
        active = ~eng.step_terminated
        acts = np.array([_pick(rng, eng.legal_action_mask[b]) for b in range(B)], np.int64)
        eng.step_some(acts, active.copy())
    elif op == "reset":
        eng.reset(int(rng.integers(1 << 62)))
    elif op == "clone":
        d = _live_decision(eng, rng)
        if d is not None:
            c = eng.clone(d[0], 2)
            c.resample_hidden(0, d[1], int(rng.integers(1 << 62)))
            c.step(np.array([_pick(rng, c.legal_action_mask[i]) for i in range(2)], np.int64))
    elif op == "resample":
        d = _live_decision(eng, rng)
        if d is not None:
            eng.resample_hidden(d[0], d[1], int(rng.integers(1 << 62)))
    elif op == "search":
        d = _live_decision(eng, rng)
        if d is not None:
            agent.act_engine(eng, np.array([d[0]], np.int64))
    elif op == "encode":
        _encode(eng, encs)
    elif op == "last_hand":
        eng.last_hand(int(rng.integers(B)))
    elif op == "check":
        from envs._core._testing import check_game

        check_game(eng.s, int(rng.integers(B)), eng.native)


def _threads(n, target):
    errors = []

    def run(i):
        try:
            target(i)
        except BaseException as e:  # (reported by the main thread)
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


def _tools(seed):
    from agents.search import SearchAgent
    from envs.obs.oracle_v0 import OracleV0
    from envs.obs.planes_v0 import PlanesV0
    from envs.obs.planes_v1 import PlanesV1

    return SearchAgent(seed, k=2, n=2), (PlanesV0(derived=True), OracleV0(), PlanesV1())


def chaos(n_threads=2, games=6, ops=60, seed=0, mix=OPS) -> dict:
    """The chaos part (see the module docstring) with the operations ``mix``; raises AssertionError on
    a broken game or an unexpected exception, else returns counts."""
    from game_check import check

    from envs.engine.invariants import ERROR_NAMES

    engs = _engines(games, seed)
    counts = {"ops": 0, "race_refusals": 0}
    unexpected = []

    def work(i):
        rng = np.random.default_rng(seed * 100 + i)
        agent, encs = _tools(i)
        for _ in range(ops):
            eng = engs[int(rng.integers(len(engs)))]
            op = mix[int(rng.integers(len(mix)))]
            try:
                _one_op(op, eng, rng, agent, encs)
            except ValueError as e:
                if not any(m in str(e) for m in RACE_REFUSALS):
                    unexpected.append(f"{op}: {e}")
                counts["race_refusals"] += 1
            counts["ops"] += 1

    errors = _threads(n_threads, work) + unexpected
    broken = [(k, b, ERROR_NAMES[e] if isinstance(e, int) else e) for k, eng in enumerate(engs) for b, e in check(eng)]
    assert not broken, f"{len(broken)} games break the invariant checker (engine, game, error): {broken[:10]}"
    assert not errors, f"unexpected exceptions: {errors[:10]}"
    return counts


def search_beside_steps(games=32, searches=60, seed=0) -> dict:
    """Row 1 as filed: one thread steps an auto-resetting engine without pause while this one runs
    ``SearchAgent.act_engine`` on its live games (before the fix: ASan heap-buffer-overflow written
    by resample_hidden inside search_action, or "a rollout reached a state the step refuses").
    Afterwards every game passes the invariant checker; no call raises."""
    from game_check import check

    from agents.search import SearchAgent

    eng = _engines(games, seed)[0]
    stop, errors = [], []

    def stepper():
        rng = np.random.default_rng(seed)
        try:
            while not stop:
                with eng.locked():  # (read the mask and step as one: no refusal expected)
                    eng.step(np.array([_pick(rng, eng.legal_action_mask[b]) for b in range(games)], np.int64))
        except BaseException as e:  # (reported below)
            errors.append(f"step: {type(e).__name__}: {e}")

    t = threading.Thread(target=stepper)
    t.start()
    agent = SearchAgent(seed, k=4, n=3)
    try:
        for _ in range(searches):
            agent.act_engine(eng, np.arange(min(games, 16), dtype=np.int64))
    except ValueError as e:
        errors.append(f"search: {e}")
    finally:
        stop.append(True)
        t.join()
    assert not errors, errors[:5]
    assert check(eng) == [], check(eng)[:10]
    return {"searches": searches}


def _ordered_op(op, eng, rng, agent, encs, log, k):
    """One operation under the engine's lock, logged there with its result (so the log's order is
    the order the engine saw)."""
    with eng.locked():
        seed = int(rng.integers(1 << 62))
        d = _live_decision(eng, rng)
        b = int(rng.integers(eng.batch_size))
        acts = np.array([_pick(rng, eng.legal_action_mask[x]) for x in range(eng.batch_size)], np.int64)
        r = _apply(op, eng, seed, d, b, acts, agent, encs)
        log.append((k, op, seed, d, b, acts, r))


def _apply(op, eng, seed, d, b, acts, agent, encs):
    if op in ("step", "step_some"):
        return [x.copy() for x in eng.step(acts)]
    if op == "reset":
        eng.reset(seed)
    elif op == "clone" and d is not None:
        c = eng.clone(d[0], 2)
        c.resample_hidden(1, d[1], seed)
        return [x.copy() for x in c.s]
    elif op == "resample" and d is not None:
        eng.resample_hidden(d[0], d[1], seed)
    elif op == "search" and d is not None:
        agent.reset(seed)
        return agent.act_engine(eng, np.array([d[0]], np.int64))
    elif op == "encode":
        return _encode(eng, encs)
    elif op in ("last_hand", "check"):
        return repr(eng.last_hand(b))
    return None


def _same(a, b) -> bool:
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    return a == b


def ordered(n_threads=2, games=6, ops=40, seed=0) -> dict:
    """The ordered part: the threads' logged operations replayed serially give the same results."""
    engs = _engines(games, seed)
    log = []

    def work(i):
        rng = np.random.default_rng(seed * 100 + 50 + i)
        agent, encs = _tools(0)
        for _ in range(ops):
            k = int(rng.integers(len(engs)))
            _ordered_op(OPS[int(rng.integers(len(OPS)))], engs[k], rng, agent, encs, log, k)

    errors = _threads(n_threads, work)
    assert not errors, f"unexpected exceptions: {errors[:10]}"
    fresh = _engines(games, seed)
    agent, encs = _tools(0)
    for n, (k, op, sd, d, b, acts, r) in enumerate(log):
        assert _same(r, _apply(op, fresh[k], sd, d, b, acts, agent, encs)), f"op {n} ({op}) differs in the replay"
    for a, e in zip(engs, fresh):
        for name, x, y in zip(a.s._fields, a.s, e.s):
            assert np.array_equal(x, y), f"state.{name} differs from the serial replay of the log"
    return {"ops": len(log)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--ops", type=int, default=60)
    ap.add_argument("--part", choices=["chaos", "ordered", "both"], default="both")
    a = ap.parse_args(argv)
    t0 = time.time()
    out = {}
    for n in a.threads:
        if a.part in ("chaos", "both"):
            out[f"chaos_{n}"] = chaos(n, a.games, a.ops)
        if a.part in ("ordered", "both"):
            out[f"ordered_{n}"] = ordered(n, a.games, a.ops)
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
