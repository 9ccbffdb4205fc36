"""The vector envs' observations and masks as torch tensors, without a copy per step.

``SingleAgentVecEnv`` and ``SelfPlayVecEnv`` (``envs.gym_env``, ``copy=False``, the default) write
every step's observations and masks into arrays allocated once (C-contiguous float32 (N, C, 34) and
int8 (N, 76)). A tensor made from such an array by ``torch.from_numpy`` or ``torch.from_dlpack``
shares its memory, so the tensors made once at reset show every later step: no copy, no
conversion. :class:`TorchVecEnv` returns them::

    import agents  # registers the agent names ("greedy", ...): envs.policies
    from envs.gym_env import SingleAgentVecEnv
    from envs.integrations.tensors import TorchVecEnv

    env = TorchVecEnv(SingleAgentVecEnv(num_envs=1024, opponents="greedy"))
    obs, info = env.reset(seed=0)             # obs["observation"] float32 (N, C, 34), obs["action_mask"] bool (N, 76)
    logits = net(obs["observation"]).masked_fill(~obs["action_mask"], -1e9)
    obs, reward, terminated, truncated, info = env.step(logits.argmax(1))   # a torch (or numpy) action batch

The mask is the env's int8 0/1 array viewed as ``torch.bool`` (same bytes, no copy; ``bool_mask=False``
keeps int8). Rewards, terminations and truncations are the env's fresh arrays of the step, wrapped
without a copy; ``info["final_obs"]`` (SAME_STEP autoreset) is wrapped as well. Actions given as a CPU
tensor reach the engine through ``Tensor.numpy()``, which shares memory too.

The tensors are overwritten by the next ``step``: clone what you keep (a rollout buffer does, by
writing each step into its storage). On a GPU, ``obs["observation"].to("cuda", non_blocking=True)`` is
the one copy a step needs.
"""

from __future__ import annotations

import numpy as np
import torch

OBS_KEYS = ("observation", "action_mask")


def tensor_view(arr: np.ndarray, dlpack: bool = False) -> torch.Tensor:
    """A tensor sharing ``arr``'s memory: ``torch.from_numpy`` or, with ``dlpack``, the DLPack
    protocol (``torch.from_dlpack``; the same memory, the exchange every array library speaks)."""
    if dlpack:
        return torch.from_dlpack(arr)
    return torch.from_numpy(arr)


def shares_memory(t: torch.Tensor, arr: np.ndarray) -> bool:
    """Whether ``t`` is ``arr``'s memory (the same first byte and size): no copy was made."""
    return t.data_ptr() == arr.__array_interface__["data"][0] and t.numel() * t.element_size() == arr.nbytes


def actions_to_numpy(actions) -> np.ndarray:
    """Actions as int64 numpy for the engine; a CPU int64 tensor is shared, not copied."""
    if isinstance(actions, torch.Tensor):
        a = actions.detach()
        if a.device.type != "cpu":
            a = a.cpu()
        if a.dtype != torch.int64:
            a = a.to(torch.int64)
        return a.reshape(-1).numpy()
    return np.asarray(actions, dtype=np.int64).reshape(-1)


class TorchVecEnv:
    """A tw16 vector env whose ``reset`` / ``step`` return torch tensors sharing the env's buffers.

    ``venv``: ``SingleAgentVecEnv`` or ``SelfPlayVecEnv`` made with ``copy=False`` (the default).
    ``dlpack``: make the views through DLPack instead of ``torch.from_numpy`` (the same memory).
    ``bool_mask``: the mask as ``torch.bool`` (default) or the env's int8.
    """

    def __init__(self, venv, dlpack: bool = False, bool_mask: bool = True):
        if getattr(venv, "copy", False):
            raise ValueError("TorchVecEnv shares the env's buffers: make the vector env with copy=False")
        self.venv = venv
        self.dlpack, self.bool_mask = dlpack, bool_mask
        self.num_envs = venv.num_envs
        self.single_observation_space = venv.single_observation_space
        self.single_action_space = venv.single_action_space
        self._src: dict[str, np.ndarray] = {}
        self._views: dict[str, torch.Tensor] = {}

    def _view(self, key: str, arr: np.ndarray) -> torch.Tensor:
        """The cached view of ``arr`` (rebuilt only if the env handed a different array)."""
        if self._src.get(key) is not arr:
            t = tensor_view(arr, self.dlpack)
            if key.endswith("action_mask") and self.bool_mask:
                t = t.view(torch.bool)  # int8 0/1 -> bool: same bytes
            self._src[key], self._views[key] = arr, t
        return self._views[key]

    def _obs(self, obs: dict) -> dict[str, torch.Tensor]:
        return {k: self._view(k, obs[k]) for k in OBS_KEYS}

    def reset(self, *, seed: int | None = None):
        obs, info = self.venv.reset(seed=seed)
        return self._obs(obs), info

    def step(self, actions):
        obs, reward, terminated, truncated, info = self.venv.step(actions_to_numpy(actions))
        final = info.get("final_obs")
        if final is not None:
            info = dict(info)
            info["final_obs"] = {k: self._view("final_" + k, v) for k, v in final.items()}
        return (
            self._obs(obs),
            torch.from_numpy(reward),
            torch.from_numpy(terminated),
            torch.from_numpy(truncated),
            info,
        )

    def close(self):
        if hasattr(self.venv, "close"):
            self.venv.close()
