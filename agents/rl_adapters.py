"""Policies trained with other libraries as tw16 agents (``agents.base.Agent``): duplicate play,
``tw16 eval py:MODULE:ATTR``, opponents of the envs (docs/agents.md).

- :class:`TorchRLAgent`: a TorchRL policy module (a ``TensorDictModule`` / ``ProbabilisticActor`` that
  reads ``observation`` (B, C, 34) and ``action_mask`` (B, 76) and writes ``action``), as
  ``envs.integrations.torchrl.vec_env`` trains it (examples/torchrl_collector.py).
- :class:`RLlibAgent`: an RLlib ``RLModule`` trained through ``examples/rllib_ppo.py`` (the planes
  flattened as ``observations``, the mask as ``action_mask``), or the checkpoint folder that
  ``algo.save(PATH)`` wrote.

Both take the policy's greedy action over the legal ones by default (``deterministic=False``: a
sample from the masked distribution, from the agent's own seeded generator). Loading an RLlib
checkpoint unpickles it, which runs code: load only checkpoints you trust (the agent is built by
your own code, ``py:MODULE:ATTR``, never from a file name alone). TorchRL and Ray are optional extras,
imported when an agent is built.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from agents.base import check_batch


class _Masked:
    """Shared part: the name, the seeded generator and the choice from masked logits."""

    def __init__(self, name: str, deterministic: bool, seed: int | None):
        self.name = name
        self.deterministic = deterministic
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.gen = torch.Generator().manual_seed(int(seed or 0))

    def choose(self, logits: torch.Tensor, mask: np.ndarray) -> np.ndarray:
        logits = logits.detach().float().cpu().masked_fill(~torch.from_numpy(mask), float("-inf"))
        if self.deterministic:
            return logits.argmax(-1).numpy().astype(np.int64)
        probs = torch.softmax(logits, -1)
        return torch.multinomial(probs, 1, generator=self.gen).squeeze(-1).numpy().astype(np.int64)


class TorchRLAgent(_Masked):
    """A TorchRL policy: ``policy(TensorDict(observation, action_mask))`` gives ``logits_key`` (the
    actor's logits, default ``"logits"``, as ``ProbabilisticActor`` over ``MaskedCategorical`` writes
    them). ``channels``: the observation planes the policy reads (default: all it is given, 79 for
    planes_v0)."""

    def __init__(
        self,
        policy,
        name: str = "torchrl",
        deterministic: bool = True,
        seed: int | None = 0,
        logits_key: str = "logits",
        channels: int | None = None,
    ):
        super().__init__(name, deterministic, seed)
        self.policy = policy
        self.logits_key = logits_key
        self.channels = channels

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        from tensordict import TensorDict

        obs, mask = check_batch(obs, mask)
        x = np.ascontiguousarray(obs[:, : self.channels] if self.channels else obs, dtype=np.float32)
        td = TensorDict(
            {"observation": torch.from_numpy(x), "action_mask": torch.from_numpy(mask)}, batch_size=[len(mask)]
        )
        with torch.no_grad():
            out = self.policy(td)
        if self.logits_key not in out.keys():
            raise ValueError(
                f"{self.name}: the policy wrote no {self.logits_key!r} (keys: {list(out.keys())}); give logits_key="
            )
        return self.choose(out[self.logits_key], mask)


def load_rllib_module(path, policy: str = "shared"):
    """The ``RLModule`` of ``policy`` from an RLlib checkpoint folder (``algo.save(path)``), or from
    the module's own folder. Unpickles: trusted files only."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    path = Path(path)
    sub = path / "learner_group" / "learner" / "rl_module" / policy
    if not (sub if sub.exists() else path).is_dir():
        raise FileNotFoundError(f"{path}: no RLlib checkpoint folder (algo.save(PATH) writes one)")
    return RLModule.from_checkpoint(str(sub if sub.exists() else path))


class RLlibAgent(_Masked):
    """An RLlib ``RLModule`` (or a checkpoint folder, read by :func:`load_rllib_module`) trained on the
    flat planes (``observations``) and the float mask (``action_mask``) of examples/rllib_ppo.py; its
    ``forward_inference`` gives the action logits (``action_dist_inputs``)."""

    def __init__(
        self, module, policy: str = "shared", name: str = "rllib", deterministic: bool = True, seed: int | None = 0
    ):
        super().__init__(name, deterministic, seed)
        self.module = load_rllib_module(module, policy) if isinstance(module, (str, Path)) else module

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        n = int(np.prod(self.module.observation_space["observations"].shape))
        if obs.shape[1] * obs.shape[2] < n:
            raise ValueError(f"{self.name}: the module reads {n} numbers, the observation has {obs.shape[1:]}")
        flat = np.ascontiguousarray(obs[:, : n // obs.shape[2]].reshape(len(obs), -1), dtype=np.float32)
        batch = {
            "obs": {"observations": torch.from_numpy(flat), "action_mask": torch.from_numpy(mask.astype(np.float32))}
        }
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        return self.choose(out["action_dist_inputs"], mask)
