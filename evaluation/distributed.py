"""Scale-out on Ray: PPO rollout workers and duplicate evaluation split by walls (``docs/scaling.md``).

Training (``TrainConfig.workers`` / ``TrainConfig.ray``): each rollout worker is a Ray actor that runs
its share of the ``num_envs`` self-play games (``training.rollout.Rollout``) with its own copy of the
policy and of the opponent pool. Every update the learner puts the current weights in the object
store once, every worker steps its games ``rollout_steps`` times and returns the learner's decisions
(observations, masks, actions, log-probabilities, advantages, returns, values), and the learner
concatenates them and runs the PPO update: synchronous, on-policy, the same batch size as one
process. Pool snapshots are put in the object store once each and workers fetch the ones they lack
(by snapshot id). A worker that dies (node lost, ``ray.kill``) is replaced by a fresh one, which
starts new games, and its share of the rollout is asked again.

Evaluation (``evaluate_distributed``): the walls of ``training.arena.play_duplicate`` are cut into
the same batches as in one process; agents are reset at every batch from a seed of (seed, batch),
so a batch's result does not depend on where it runs. Workers take batches as they get free, and
the per-batch results are put back in wall order: the result equals the single-process one exactly.

Ray is an optional extra (``pip install -e ".[ray]"``); it is imported only here, when asked for.
"""

from __future__ import annotations

import logging
import os
import tempfile
import uuid
import warnings

import numpy as np

from envs import _core

# threads per worker: one core each (Ray sets OMP_NUM_THREADS=1 for a 1-CPU actor; torch and the
# native core's batch loops are set to one thread in each actor)
_WORKER_ENV = {"env_vars": {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}}
MAX_REPLACEMENTS_PER_WORKER = 3


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


def split(n: int, k: int) -> list[int]:
    """``n`` games over ``k`` workers, as even as possible."""
    if n < k:
        raise ValueError(f"num_envs ({n}) must be at least the number of workers ({k})")
    return [n // k + (i < n % k) for i in range(k)]


def worker_seed(*keys: int) -> int:
    return int(np.random.SeedSequence([int(k) for k in keys]).generate_state(1, np.uint64)[0] >> 1)


# -- training ---------------------------------------------------------------------------------------
class RolloutWorker:
    """A Ray actor: ``num_envs`` self-play games, a copy of the policy and of the opponent pool."""

    def __init__(self, cfg, rule_options: dict, num_envs: int, seed: int):
        import torch

        from agents.neural import PolicyValueNet
        from training.rollout import Opponents, Rollout

        torch.set_num_threads(1)
        _core.set_num_threads(1)
        torch.manual_seed(seed)
        self.net = PolicyValueNet(cfg.net)
        self.opponents = Opponents(cfg)
        self.rollout = Rollout(cfg, rule_options, np.random.default_rng(seed), seed=seed, num_envs=num_envs)

    def collect(self, weights: dict, pool: list):
        """``weights``: the learner's state dict; ``pool``: [(snapshot id, ObjectRef of its state dict)]."""
        import ray

        self.net.load_state_dict(weights)
        opp = self.opponents
        ids = [i for i, _ in pool]
        keep = [k for k, i in enumerate(opp.pool_ids) if i in ids]
        opp.pool, opp.pool_ids = [opp.pool[k] for k in keep], [opp.pool_ids[k] for k in keep]
        for snap_id, ref in pool:
            if snap_id not in opp.pool_ids:
                opp.add(snap_id, ray.get(ref), seed=snap_id)
        return self.rollout.collect(self.net, opp)

    def ping(self) -> bool:
        return True


class RayRollouts:
    """The learner's side: ``collect(net, opponents)`` like ``training.rollout.Rollout``, on Ray workers."""

    def __init__(self, cfg, rule_options: dict, seed: int):
        self.ray, self.owns_ray = connect(cfg.ray, cfg.workers)
        ray = self.ray
        self.cfg, self.rule_options, self.seed = cfg, rule_options, seed
        self.n_workers = cfg.workers or default_workers(ray)
        self.sizes = split(cfg.num_envs, self.n_workers)
        self.run = uuid.uuid4().hex[:8]
        self.cls = ray.remote(num_cpus=1, max_restarts=0)(RolloutWorker)
        self.generation = [0] * self.n_workers
        self.replaced = 0
        self.pool_refs: dict[int, object] = {}
        self.workers = [self._start(i) for i in range(self.n_workers)]

    def _start(self, i: int):
        name = f"tw16-rollout-{self.run}-{i}.{self.generation[i]}"
        seed = worker_seed(self.seed, i, self.generation[i])
        opts = {"name": name, "runtime_env": _WORKER_ENV}
        return self.cls.options(**opts).remote(self.cfg, self.rule_options, self.sizes[i], seed)

    def _replace(self, i: int, err: Exception):
        self.replaced += 1
        if self.replaced > MAX_REPLACEMENTS_PER_WORKER * self.n_workers:
            raise RuntimeError(f"rollout workers died {self.replaced} times; giving up") from err
        warnings.warn(f"rollout worker {i} died ({type(err).__name__}); starting a new one", RuntimeWarning, stacklevel=3)
        try:
            self.ray.kill(self.workers[i])
        except Exception:
            pass
        self.generation[i] += 1
        self.workers[i] = self._start(i)

    def collect(self, net, opponents):
        ray = self.ray
        from ray.exceptions import RayActorError

        weights = ray.put({k: v.detach().cpu() for k, v in net.state_dict().items()})
        for snap_id, agent in zip(opponents.pool_ids, opponents.pool):
            if snap_id not in self.pool_refs:
                self.pool_refs[snap_id] = ray.put(agent.net.state_dict())
        self.pool_refs = {i: r for i, r in self.pool_refs.items() if i in opponents.pool_ids}
        pool = [(i, self.pool_refs[i]) for i in opponents.pool_ids]  # nested refs reach the worker unresolved
        pending = {self.workers[i].collect.remote(weights, pool): i for i in range(self.n_workers)}
        parts = [None] * self.n_workers
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            i = pending.pop(ready[0])
            try:
                parts[i] = ray.get(ready[0])
            except RayActorError as e:
                self._replace(i, e)
                pending[self.workers[i].collect.remote(weights, pool)] = i
        from training.rollout import Batch

        return Batch.concat(parts)

    def close(self) -> None:
        for w in self.workers:
            try:
                self.ray.kill(w)
            except Exception:
                pass
        self.workers = []
        if self.owns_ray:
            self.ray.shutdown()


# -- duplicate evaluation ---------------------------------------------------------------------------
class EvalWorker:
    """A Ray actor holding four agents; plays batches of walls (``training.arena.play_walls``)."""

    def __init__(self, specs: list, names: list, blobs: dict, seed: int):
        import torch

        from agents import make_agent

        torch.set_num_threads(1)
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

    def play(self, wall_seeds, rules, agent_seed: int) -> dict:
        from training.arena import play_walls

        return play_walls(self.agents, wall_seeds, rules, agent_seed)


def evaluate_distributed(specs, n_walls: int, rules=None, seed: int = 0, batch_walls: int = 256,
                         workers: int = 0, address: str | None = None, progress=None) -> dict:  # fmt: skip
    """``play_duplicate`` of the agents named by ``specs`` on Ray workers; the same result exactly."""
    from agents import make_agent
    from envs.rules import Rules
    from training.arena import batch_seed, combine, wall_batches

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
    wall_seeds = np.random.SeedSequence(seed).generate_state(n_walls, dtype=np.uint64)
    batches = wall_batches(n_walls, batch_walls)
    ray, owns = connect(address, workers)
    from ray.exceptions import RayActorError

    n = min(workers or default_workers(ray), len(batches))
    cls = ray.remote(num_cpus=1, max_restarts=0)(EvalWorker)

    def start(i):
        return cls.options(runtime_env=_WORKER_ENV).remote(list(specs), names, blobs, seed)

    pool = [start(i) for i in range(n)]
    parts: list = [None] * len(batches)
    todo = list(range(len(batches)))[::-1]
    pending: dict = {}
    replaced = 0
    try:

        def submit(i):
            b = todo.pop()
            s0, s1 = batches[b]
            pending[pool[i].play.remote(wall_seeds[s0:s1], rules, batch_seed(seed, b))] = (i, b)

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
                    raise RuntimeError(f"evaluation workers died {replaced} times; giving up") from e
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
        for w in pool:
            try:
                ray.kill(w)
            except Exception:
                pass
        if owns:
            ray.shutdown()
    return combine(names, parts, rules)
