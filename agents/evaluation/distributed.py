"""Duplicate evaluation on Ray: the walls split by batches over workers (``docs/scaling.md``), and the
Ray helpers the PPO rollout workers (``training.distributed``) share.

Evaluation (``evaluate_distributed``): the walls of ``agents.evaluation.arena.play_duplicate`` are cut into
the same batches as in one process; agents are reset at every batch from a seed of (seed, batch),
so a batch's result does not depend on where it runs. Workers take batches as they get free, and
the per-batch results are put back in wall order: the result equals the single-process one exactly.

Ray is an optional extra (``pip install -e ".[ray]"``); it is imported only here and in
``training.distributed``, when asked for.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings

import numpy as np

from envs import _core

# threads per worker: one core each (Ray sets OMP_NUM_THREADS=1 for a 1-CPU actor; torch and the
# native core's batch loops are set to one thread in each actor)
WORKER_ENV = {"env_vars": {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}}
MAX_REPLACEMENTS_PER_WORKER = 3


class WorkersFailed(RuntimeError):
    """Ray workers kept dying: the evaluation gave up (the message says how often and the last cause)."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise ImportError(
            "Ray workers were asked for (--ppo.workers / --ppo.ray, tw16 eval --workers / --ray) but Ray is not "
            "installed: pip install -e '.[ray]' (or pip install ray), or run without them (one process)"
        ) from None
    return ray


def connect(address: str | None, workers: int):
    """Join the running Ray (tests, notebooks), a cluster at ``address`` ("auto", "ray://host:10001"),
    or start a local one with enough CPUs for ``workers``. Returns (ray, whether we started it)."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    kw = {"include_dashboard": False, "logging_level": logging.WARNING, "configure_logging": True}
    if address and address != "local":
        ray.init(address=address, **kw)
    else:
        ray.init(num_cpus=max(os.cpu_count() or 1, workers), **kw)
    return ray, True


def default_workers(ray) -> int:
    """One worker per CPU of the cluster but one (the learner's)."""
    return max(1, int(ray.cluster_resources().get("CPU", 2)) - 1)


# -- duplicate evaluation ---------------------------------------------------------------------------
class EvalWorker:
    """A Ray actor holding four agents; plays batches of walls (``agents.evaluation.arena.play_walls``)."""

    def __init__(self, specs: list, names: list, blobs: dict, seed: int):
        import sys

        from agents import make_agent

        _core.set_num_threads(1)
        self.dir = tempfile.TemporaryDirectory(prefix="tw16-eval-")
        self.agents = []
        for k, (spec, name) in enumerate(zip(specs, names)):
            if k in blobs:  # a checkpoint file of the driver's machine, shipped as bytes
                path = os.path.join(self.dir.name, f"agent{k}.pt")
                with open(path, "wb") as f:
                    f.write(blobs[k])
                spec = f"neural:{path}"
            agent = make_agent(spec, seed=seed)
            agent.name = name
            self.agents.append(agent)
        # torch at one thread where an agent imported it (a neural one); rule agents' workers do not
        # import it (seconds of CPU at every worker start, a replacement's too)
        if "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(1)

    def play(self, wall_seeds, rules, agent_seed: int, vr: bool = False) -> dict:
        from agents.evaluation.arena import play_walls

        return play_walls(self.agents, wall_seeds, rules, agent_seed, vr=vr)

    def close(self) -> None:
        """End the external bots' processes (``agents.olympiad``: /exit, then their process groups killed)."""
        for a in self.agents:
            if getattr(a, "olympiad", False):
                a.close()


def evaluate_distributed(
    specs,
    n_walls: int,
    rules=None,
    seed: int = 0,
    batch_walls: int = 256,
    workers: int = 0,
    address: str | None = None,
    progress=None,
    wall_seeds=None,
    vr: bool = False,
) -> dict:
    """``play_duplicate`` of the agents named by ``specs`` on Ray workers; the same result exactly.
    A worker that dies is replaced and its batch played again, up to ``MAX_REPLACEMENTS_PER_WORKER``
    times per worker, then ``WorkersFailed``."""
    from agents import make_agent
    from agents.evaluation.arena import batch_seed, combine, duplicate_wall_seeds, wall_batches
    from envs.rules import Rules

    if len(specs) != 4:
        raise ValueError(f"duplicate play needs 4 agents (one per seat), got {len(specs)}")
    names = [make_agent(s, seed=seed).name for s in specs]  # also checks the specs here, not on a worker
    blobs = {}
    for k, spec in enumerate(specs):
        name, _, arg = str(spec).partition(":")
        if name == "neural" and arg:
            with open(arg, "rb") as f:
                blobs[k] = f.read()
    rules = (rules or Rules()).replace(episode="hand")
    wall_seeds = (
        duplicate_wall_seeds(seed, n_walls) if wall_seeds is None else np.asarray(wall_seeds, np.uint64)[:n_walls]
    )
    batches = wall_batches(n_walls, batch_walls)
    ray, owns = connect(address, workers)
    from ray.exceptions import RayActorError

    n = min(workers or default_workers(ray), len(batches))
    cls = ray.remote(num_cpus=1, max_restarts=0)(EvalWorker)  # (looked up here: a test replaces it)

    def start(i):
        return cls.options(runtime_env=WORKER_ENV).remote(list(specs), names, blobs, seed)

    pool = [start(i) for i in range(n)]
    parts: list = [None] * len(batches)
    todo = list(range(len(batches)))[::-1]
    pending: dict = {}
    replaced = 0
    try:

        def submit(i):
            b = todo.pop()
            s0, s1 = batches[b]
            pending[pool[i].play.remote(wall_seeds[s0:s1], rules, batch_seed(seed, b), vr)] = (i, b)

        for i in range(n):
            if todo:
                submit(i)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            i, b = pending.pop(ready[0])
            try:
                parts[b] = ray.get(ready[0])
            except RayActorError as e:
                replaced += 1
                if replaced > MAX_REPLACEMENTS_PER_WORKER * n:
                    cause = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
                    raise WorkersFailed(
                        f"evaluation workers died {replaced} times (at most {MAX_REPLACEMENTS_PER_WORKER} "
                        f"replacements per worker, {n} worker{'s' if n > 1 else ''}); giving up. "
                        f"Last: {cause}"
                    ) from None
                warnings.warn(f"evaluation worker {i} died; starting a new one", RuntimeWarning, stacklevel=2)
                pool[i] = start(i)
                todo.append(b)
                submit(i)
                continue
            if progress is not None:
                progress(batches[b][1] - batches[b][0])
            if todo:
                submit(i)
    finally:
        try:  # (a process group outlives a killed actor)
            ray.get([w.close.remote() for w in pool], timeout=60)
        except Exception:
            pass
        for w in pool:
            try:
                ray.kill(w)
            except Exception:
                pass
        if owns:
            ray.shutdown()
    return combine(names, parts, rules)
