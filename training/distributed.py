"""PPO rollout workers on Ray (``docs/scaling.md``); duplicate evaluation on Ray is ``agents.evaluation.distributed``,
whose Ray helpers (``connect``, ``default_workers``) these share.

Training (``TrainConfig.workers`` / ``TrainConfig.ray``): each rollout worker is a Ray actor that runs
its share of the ``num_envs`` self-play games (``training.rollout.Rollout``) with its own copy of the
policy and of the opponent pool. Every update the learner puts the current weights in the object
store once, every worker steps its games ``rollout_steps`` times and returns the learner's decisions
(observations, masks, actions, log-probabilities, advantages, returns, values), and the learner
concatenates them and runs the PPO update: synchronous, on-policy, the same batch size as one
process. Pool snapshots are put in the object store once each and workers fetch the ones they lack
(by snapshot id). A worker that dies (node lost, ``ray.kill``) is replaced by a fresh one, which
starts new games, and its share of the rollout is asked again.

Ray is an optional extra (``pip install -e ".[ray]"``); it is imported only when asked for.
"""

from __future__ import annotations

import uuid
import warnings
from dataclasses import replace

import numpy as np

from agents.evaluation.distributed import MAX_REPLACEMENTS_PER_WORKER, WORKER_ENV, connect, default_workers
from envs import _core
from envs.engine.rng import derive_seed


def split(n: int, k: int) -> list[int]:
    """``n`` games over ``k`` workers, as even as possible."""
    if n < k:
        raise ValueError(f"num_envs ({n}) must be at least the number of workers ({k})")
    return [n // k + (i < n % k) for i in range(k)]


class RolloutWorker:
    """A Ray actor: ``num_envs`` self-play games, a copy of the policy and of the opponent pool."""

    def __init__(self, cfg, rule_options: dict, num_envs: int, seed: int):
        import torch

        from agents.neural import PolicyValueNet
        from training.rollout import Opponents, Rollout

        torch.set_num_threads(1)
        _core.set_num_threads(1)
        torch.manual_seed(seed)
        cfg = replace(cfg, device="cpu")  # workers play on their CPUs; the learner's device may be a GPU
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
        seed = derive_seed(self.seed, i, self.generation[i])
        opts = {"name": name, "runtime_env": WORKER_ENV}
        return self.cls.options(**opts).remote(self.cfg, self.rule_options, self.sizes[i], seed)

    def _replace(self, i: int, err: Exception):
        self.replaced += 1
        if self.replaced > MAX_REPLACEMENTS_PER_WORKER * self.n_workers:
            raise RuntimeError(f"rollout workers died {self.replaced} times; giving up") from err
        warnings.warn(
            f"rollout worker {i} died ({type(err).__name__}); starting a new one", RuntimeWarning, stacklevel=3
        )
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
                self.pool_refs[snap_id] = ray.put({k: v.detach().cpu() for k, v in agent.net.state_dict().items()})
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
