"""Adapters from tw16's environments to the libraries researchers train with.

- ``envs.integrations.sb3``: Stable-Baselines3 / sb3-contrib ``MaskablePPO`` (flat observations,
  ``action_masks()``), one game or the native vector env as an SB3 ``VecEnv`` (docs/sb3.md).
- ``envs.integrations.torchrl``: TorchRL, the PettingZoo AEC env for ``PettingZooWrapper(...,
  use_mask=True)`` and a batched ``EnvBase`` over the native vector env (docs/torchrl.md).
- ``envs.integrations.tensors``: the vector envs' observations and masks as torch tensors that share
  the env's memory (``torch.from_numpy`` / DLPack), no copy per step.

Each needs only what the core install has until its library is used: Stable-Baselines3 and TorchRL
are optional extras (``pip install -e ".[sb3]"``, ``".[torchrl]"``), imported inside the functions
that need them.
"""
