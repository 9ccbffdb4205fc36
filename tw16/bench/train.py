"""``tw16 bench train``: the PPO trainer end to end (rollout and update, as ``training.ppo.train`` runs
them) on the main job's configuration, on the CPU or a GPU: decisions per second and where the time
goes. Each phase is timed on the wall clock, with the device synchronised at each timer on CUDA
(``Rollout.sync``), so the parts add up to the whole: the engine's step, encoding, the network's input
planes, the forward passes and sampling, the rule-based opponents, the advantages, the update, the
copies between the CPU and the device, and what is left (``other``: Python glue, snapshots).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import torch

from agents.device import resolve_device, synchronize
from agents.neural import NetConfig, PolicyValueNet
from envs import _core
from envs.rules import Rules
from training.critic import OracleCritic
from training.pipeline import Pipeline
from training.ppo import ppo_update
from training.rollout import TIMING_PARTS, Opponents, Rollout

# the networks measured: the main job's (tw16 train's default), the shipped checkpoint's, and a larger
# one that only a GPU makes worth training (about 6 M parameters)
NETS = {"main": Pipeline().ppo.net, "default": NetConfig(), "large": NetConfig(width=128, blocks=4, hidden=1024)}
SPLIT = ("engine", "encode", "net_input", "forward", "opponents", "gae", "oracle", "update", "transfer", "other")


def _device_name(dev: torch.device) -> str:
    return torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"


def bench_train(seconds: float = 10.0, device: str = "cpu", net: str = "main", warmup_updates: int = 1) -> dict:
    """Run the main job's PPO (``Pipeline().ppo``, from a fresh network) for ``warmup_updates`` unmeasured
    updates, then whole updates until ``seconds`` have passed (at least one); return the figures."""
    if net not in NETS:
        raise ValueError(f"net {net!r}: one of {', '.join(NETS)}")
    dev = resolve_device(device)
    cfg = replace(Pipeline().ppo, net=NETS[net], device=str(dev), progress=False)
    torch.set_num_threads(cfg.torch_threads)
    prev_threads = _core.num_threads()
    _core.set_num_threads(cfg.core_threads)
    try:
        torch.manual_seed(cfg.seed)
        rng = np.random.default_rng(cfg.seed)
        model = PolicyValueNet(cfg.net).to(dev)
        opt = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5)
        critic = critic_opt = None
        if cfg.critic == "oracle":  # as training.ppo.train builds it
            critic = OracleCritic.from_actor(model)
            critic_opt = torch.optim.Adam(critic.parameters(), lr=cfg.critic_lr, eps=1e-5)
        opponents = Opponents(cfg, dev)
        opponents.snapshot(model)
        rules = Rules.make(**{"profile": "standard", **cfg.rules, "episode": "hand"})
        rollout = Rollout(cfg, rules.to_dict(), rng, seed=cfg.seed)
        rollout.clock, rollout.sync = time.perf_counter, True  # wall seconds, the device waited for

        def one_update(split: dict) -> tuple[int, int]:
            before = dict(rollout.timing)
            t0 = time.perf_counter()
            batch = rollout.collect(model, opponents, critic) if critic else rollout.collect(model, opponents)
            t1 = time.perf_counter()
            upd: dict = {}
            ppo_update(model, opt, batch, cfg, rng, timing=upd, critic=critic, critic_opt=critic_opt)
            synchronize(dev)
            t2 = time.perf_counter()
            for k in TIMING_PARTS:
                split[k] += rollout.timing[k] - before[k]
            split["transfer"] += upd["transfer"]
            split["update"] += (t2 - t1) - upd["transfer"]
            split["total"] += t2 - t0
            return batch.decisions, len(batch.act)

        t_warm = time.perf_counter()
        for _ in range(warmup_updates):  # allocations, the pinned buffers, CUDA's kernels: not measured
            one_update(dict.fromkeys((*SPLIT, "total"), 0.0))
        warmup_s = time.perf_counter() - t_warm
        split = dict.fromkeys((*SPLIT, "total"), 0.0)
        decisions = learner = updates = 0
        cpu0 = time.process_time()
        while updates == 0 or split["total"] < seconds:
            d, l = one_update(split)
            decisions, learner, updates = decisions + d, learner + l, updates + 1
        cpu_s = time.process_time() - cpu0
    finally:
        _core.set_num_threads(prev_threads)
    total = split.pop("total")
    split["other"] = max(0.0, total - sum(split[k] for k in SPLIT if k != "other"))
    return {
        "device": str(dev),
        "device_name": _device_name(dev),
        "net": net,
        "net_config": vars(cfg.net).copy(),
        "parameters": sum(p.numel() for p in model.parameters()),
        "config": {
            "num_envs": cfg.num_envs,
            "rollout_steps": cfg.rollout_steps,
            "minibatch_size": cfg.minibatch_size,
            "update_epochs": cfg.update_epochs,
            "opponents": list(cfg.opponents),
            "torch_threads": cfg.torch_threads,
            "core_threads": cfg.core_threads,
        },
        "warmup_updates": warmup_updates,
        "warmup_s": round(warmup_s, 3),
        "updates": updates,
        "decisions": decisions,
        "learner_decisions": learner,
        "seconds": round(total, 3),
        "decisions_per_s": round(decisions / total, 1),
        # CPU seconds of this process (all its threads): on a shared machine the wall clock counts the
        # neighbours' turns too, this does not
        "cpu_seconds": round(cpu_s, 3),
        "decisions_per_cpu_s": round(decisions / cpu_s, 1),
        "split_s": {k: round(split[k], 4) for k in SPLIT},
        "split_frac": {k: round(split[k] / total, 4) for k in SPLIT},
    }
