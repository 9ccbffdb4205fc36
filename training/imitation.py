"""Behaviour cloning into another library's policy: the warm start of the SB3 and TorchRL recipes
(docs/sb3.md, docs/torchrl.md), as ``training.bc`` is the warm start of ``tw16 train``.

RL from scratch learns next to nothing here in a short run (docs/sb3.md, "Why RL from scratch is slow
here"); cloning a rule-based teacher first gives PPO a policy that wins hands, so its updates see
rewards. :func:`teacher_decisions` plays hands with the teachers at every seat and keeps every
decision (the planes_v0 observation, the mask, the teacher's action); :func:`clone` fits any torch
policy given as ``logits(obs) -> (B, 76)`` to them with the masked cross-entropy.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from agents import make_agent
from agents.evaluation.arena import deal_played, run_games
from envs.engine.api import Engine
from envs.rules import Rules


def teacher_decisions(hands: int, teachers=("greedy",) * 4, seed: int = 0, rules: Rules | None = None) -> dict:
    """Every decision of ``hands`` hands played by ``teachers`` (one per seat): ``obs`` (N, 79, 34)
    float32 (planes_v0, no derived planes), ``mask`` (N, 76) bool, ``action`` (N,) int64."""
    rules = (rules or Rules()).replace(episode="hand")
    agents = [make_agent(t, seed=seed + i) for i, t in enumerate(teachers)]
    eng = Engine(rules, batch_size=hands, record_hands=True)
    deal_played(eng, np.random.SeedSequence(seed).generate_state(hands, np.uint64))
    parts: dict[str, list] = {"obs": [], "mask": [], "action": []}

    def keep(games, seats, obs, mask, actions):
        parts["obs"].append(obs.copy())
        parts["mask"].append(mask.astype(bool))
        parts["action"].append(np.asarray(actions, np.int64).copy())

    run_games(eng, agents, np.tile(np.arange(4), (hands, 1)), on_decision=keep, derived=False)
    return {k: np.concatenate(v) for k, v in parts.items()}


def clone(
    logits_fn,
    params,
    data: dict,
    epochs: int = 3,
    batch_size: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
    flatten: bool = False,
) -> dict:
    """Fit ``logits_fn(obs tensor) -> (B, 76) logits`` (its weights ``params``) to the decisions in
    ``data`` (:func:`teacher_decisions`) with the cross-entropy of the masked logits; ``flatten``: feed
    the planes as (B, C * 34) (SB3's flat observation). Returns the accuracy on the data after each
    epoch and the seconds it took."""
    gen = torch.Generator().manual_seed(seed)
    obs = torch.from_numpy(data["obs"])
    obs = obs.reshape(len(obs), -1) if flatten else obs
    mask, act = torch.from_numpy(data["mask"]), torch.from_numpy(data["action"])
    opt = torch.optim.Adam(list(params), lr=lr)
    t0, acc = time.perf_counter(), []
    for _ in range(epochs):
        hits = 0
        for idx in torch.randperm(len(act), generator=gen).split(batch_size):
            logits = logits_fn(obs[idx]).masked_fill(~mask[idx], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, act[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            hits += int((logits.argmax(-1) == act[idx]).sum())
        acc.append(hits / len(act))
    return {"accuracy": acc, "decisions": len(act), "seconds": round(time.perf_counter() - t0, 1)}
