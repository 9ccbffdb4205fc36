"""A Stable-Baselines3 policy as a tw16 agent (``agents.base.Agent``): duplicate play, self-play.

    from agents.sb3_agent import SB3Agent
    agent = SB3Agent(model)                       # a trained MaskablePPO (or PPO), or its policy
    agent = SB3Agent("runs/sb3/model.zip")        # a file saved by model.save(); tw16 eval sb3:PATH

The policy must have been trained on tw16's flat planes (``envs.integrations.sb3``): the agent
flattens each (C, 34) observation, takes the policy's action logits, sets the illegal ones to -inf
and picks the best (``deterministic=True``, the default) or samples with the agent's own seeded
generator (``reset(seed)``: the same seed plays the same actions). Derived planes are used when the
policy was trained with them (observation size 86 x 34); extra planes in an observation it was not
trained on are dropped.

Stable-Baselines3 is imported only to load a file (``pip install -e ".[sb3]"``).
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from agents.base import check_batch
from envs.validate import policy_seed

N_PLANES = 34


def load_model(path: str, device: str = "cpu"):
    """A model saved by SB3's ``model.save(path)``: ``MaskablePPO`` first, then ``PPO``."""
    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError:
        raise ImportError("loading an SB3 model needs Stable-Baselines3: pip install -e '.[sb3]'") from None
    try:
        return MaskablePPO.load(path, device=device)
    except (KeyError, ValueError, TypeError):
        return PPO.load(path, device=device)


class SB3Agent:
    """A Stable-Baselines3 actor-critic policy (discrete actions) acting for tw16 seats, batched."""

    def __init__(self, model=None, deterministic: bool = True, seed: int | None = 0, name: str = "sb3",
                 device: str = "cpu"):  # fmt: skip
        self.name = name
        self.deterministic = deterministic
        self.device = device
        self.policy = None
        self.derived = False
        if model is not None:
            self.set_policy(model)
        self.reset(seed)

    def set_policy(self, model, snapshot: bool = False) -> None:
        """Act with ``model`` (an SB3 algorithm, its ``.policy``, or a path to a saved model);
        ``snapshot``: act with a frozen copy of it (self-play against past versions)."""
        if isinstance(model, str):
            model = load_model(model, self.device)
        policy = getattr(model, "policy", model)
        if snapshot:
            policy = copy.deepcopy(policy)
        policy.set_training_mode(False)
        self.policy = policy
        self.n_obs = int(np.prod(policy.observation_space.shape))
        self.n_channels = self.n_obs // N_PLANES
        self.derived = self.n_channels > 79  # planes_v0: 79 channels, 86 with the derived ones

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(policy_seed(seed))

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> torch.Tensor:
        """(B, 76) action logits of the policy, illegal actions at -inf."""
        if self.policy is None:
            raise RuntimeError("SB3Agent has no policy yet: pass a model or call set_policy(model)")
        obs, mask = check_batch(obs, mask)
        b = obs.shape[0]
        if obs.ndim == 3 and obs.shape[1] > self.n_channels:
            obs = obs[:, : self.n_channels]  # derived planes come after the base ones
        x = torch.as_tensor(np.ascontiguousarray(obs, np.float32).reshape(b, -1), device=self.policy.device)
        with torch.no_grad():
            dist = self.policy.get_distribution(x)
            logits = dist.distribution.logits
            m = torch.as_tensor(mask, device=logits.device)
            return torch.where(m, logits, torch.full_like(logits, -torch.inf))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.logits(obs, mask).cpu().numpy()
        if not self.deterministic:  # Gumbel-max: a sample of softmax(logits) from the agent's own generator
            logits = logits + self.rng.gumbel(size=logits.shape)
        return logits.argmax(axis=1).astype(np.int64)
