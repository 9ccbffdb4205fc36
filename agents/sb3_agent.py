"""A Stable-Baselines3 policy as a tw16 agent (``agents.base.Agent``): duplicate play, self-play.

    from agents.sb3_agent import SB3Agent
    agent = SB3Agent(model)                       # a trained MaskablePPO (or PPO), or its policy
    agent = SB3Agent("runs/sb3/model.zip", trusted=True)   # a file saved by model.save(), which you trust
                                                           # (tw16 eval sb3+trusted:PATH)

The policy must have been trained on tw16's flat planes (``envs.integrations.sb3``): the agent
flattens each (C, 34) observation, takes the policy's action logits, sets the illegal ones to -inf
and picks the best (``deterministic=True``, the default) or samples with the agent's own seeded
generator (``reset(seed)``: the same seed plays the same actions). Derived planes are used when the
policy was trained with them (observation size 86 x 34); extra planes in an observation it was not
trained on are dropped.

Stable-Baselines3 is imported only to load a file (``pip install -e ".[sb3]"``). A saved SB3 zip
holds cloudpickle data that runs code when loaded, so a file is loaded only when the caller says it is
trusted (``trusted=True``, the spec ``sb3+trusted:PATH``); ``sb3:PATH`` is refused with the reason.
"""

from __future__ import annotations

import copy

import numpy as np
import torch

from agents.base import check_batch
from envs.validate import policy_seed

N_PLANES = 34


def untrusted_message(path: str) -> str:
    """Why ``sb3:PATH`` is refused (``agents.unknown_agent``): SB3's loader unpickles parts of the zip."""
    return (
        f"sb3:{path} is refused: a Stable-Baselines3 zip is code, not data (its 'data' entry holds "
        "cloudpickle objects, which run whatever they were made to run when loaded). Load only a file you "
        f"trust, with the spec sb3+trusted:{path} (docs/sb3.md)"
    )


def load_model(path: str, device: str = "cpu", trusted: bool = False):
    """A model saved by SB3's ``model.save(path)``: ``MaskablePPO`` first, then ``PPO``. SB3 unpickles
    parts of the file (cloudpickle): ``trusted=True`` says the caller trusts it; without it nothing
    is read and ``ValueError`` says why."""
    if trusted is not True:
        raise ValueError(untrusted_message(str(path)))
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

    def __init__(
        self,
        model=None,
        deterministic: bool = True,
        seed: int | None = 0,
        name: str = "sb3",
        device: str = "cpu",
        trusted: bool = False,
    ):
        self.name = name
        self.trusted = trusted  # a path given as ``model`` is loaded only when trusted (load_model)
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
            model = load_model(model, self.device, trusted=self.trusted)
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
