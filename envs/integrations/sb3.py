"""Stable-Baselines3 / sb3-contrib ``MaskablePPO`` on tw16 (docs/sb3.md).

SB3 takes a flat ``Box`` observation and, for ``MaskablePPO``, reads the legal actions from an
``action_masks()`` method of the env (``sb3_contrib.common.maskable.utils.get_action_masks``). Two
adapters give it that:

- :class:`MaskableEnv`: one game (``envs.gym_env.SingleAgentEnv``, any of its options), observation
  the planes flattened to ``(C * 34,)`` float32, ``action_masks()`` the engine's legal actions as a
  bool ``(76,)`` array. Passes SB3's ``check_env``; vectorise it with ``make_vec_env`` /
  ``DummyVecEnv`` as any gymnasium env.
- :func:`make_vec_env`: the native vector env (``SingleAgentVecEnv``: N games stepped by the batch
  engine, opponents batched) as an SB3 ``VecEnv``, with ``env_method("action_masks")`` answered from
  the engine's (N, 76) mask in one piece. Many times faster than N single envs in a ``DummyVecEnv``.

    from sb3_contrib import MaskablePPO
    import agents  # registers the agent names ("greedy", ...): envs.policies
    from envs.integrations.sb3 import make_vec_env

    env = make_vec_env(16, opponents="greedy", reward="normalized", seat=None)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=512, gamma=1.0, seed=0)
    model.learn(100_000)

Both take ``encoding="planes_v1"`` (the observation of ``tw16/SingleAgent-v1``; docs/versions.md);
the default is planes_v0.

Self-play: pass an agent that acts with (a snapshot of) the policy being trained as ``opponents``
(``agents.sb3_agent.SB3Agent``; examples/sb3_maskable_ppo.py). To evaluate, wrap the trained model
as a tw16 agent (``SB3Agent(model)``, or ``sb3+trusted:PATH`` for ``tw16 eval``) and play duplicate.

The observations handed to SB3 are copies: SB3 stores the previous observation in its rollout buffer
after stepping the env, so a view of the env's buffer would already show the next step
(``envs.integrations.tensors`` has the zero-copy views, for loops that consume each step before the
next, as TorchRL's and tw16's own do).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from envs.gym_env import SingleAgentEnv, SingleAgentVecEnv


def flat_space(space: spaces.Dict) -> spaces.Box:
    """The Box of the flattened planes of a tw16 Dict observation space."""
    box = space["observation"]
    n = int(np.prod(box.shape))
    return spaces.Box(float(box.low.min()), float(box.high.max()), (n,), np.float32)


class MaskableEnv(gymnasium.Wrapper):
    """One tw16 game for SB3: flat float32 observation, ``action_masks()`` (bool (76,)).

    ``MaskableEnv(**options)`` builds ``SingleAgentEnv(**options)`` (rule options, ``seat``,
    ``opponents``, ``reward``, ``derived``, ``max_steps``...); ``MaskableEnv(env)`` wraps one made
    already. ``info`` is the single env's (``seat``; ``scores`` at the end)."""

    def __init__(self, env: SingleAgentEnv | None = None, **options):
        if env is None:
            env = SingleAgentEnv(**options)
        elif options:
            raise ValueError("give an env or options, not both")
        super().__init__(env)
        self.observation_space = flat_space(env.observation_space)
        self._mask = np.zeros(env.action_space.n, np.bool_)

    def _flat(self, obs: dict) -> np.ndarray:
        self._mask = obs["action_mask"].astype(np.bool_)
        return obs["observation"].reshape(-1)

    def reset(self, *, seed=None, options=None):
        obs, info = self.env.reset(seed=seed, options=options)
        return self._flat(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._flat(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current decision (all False once the episode ended)."""
        return self._mask


def make_env(**options) -> MaskableEnv:
    """``MaskableEnv(**options)``: one game for SB3 (``make_vec_env`` of SB3 takes this as env_id)."""
    return MaskableEnv(**options)


def make_vec_env(num_envs: int = 8, **options):
    """The native vector env (``SingleAgentVecEnv(num_envs, **options)``) as an SB3 ``VecEnv``."""
    return _vec_env_class()(num_envs, **options)


_CLASS = None


def _vec_env_class():
    """The SB3 ``VecEnv`` subclass, defined on first use (Stable-Baselines3 is an optional extra)."""
    global _CLASS
    if _CLASS is not None:
        return _CLASS
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError:
        raise ImportError("Stable-Baselines3 is not installed: pip install -e '.[sb3]'") from None

    class Tw16VecEnv(VecEnv):
        """N tw16 games in the batch engine, one learning seat each, as an SB3 ``VecEnv``.

        Autoreset as SB3 expects: a game that ends is dealt again in the same step; its last
        observation is in ``infos[i]["terminal_observation"]``, ``infos[i]["TimeLimit.truncated"]``
        says it was cut by ``max_steps``, and ``infos[i]["scores"]`` holds the hand's chips."""

        def __init__(self, num_envs: int = 8, **options):
            self.venv = SingleAgentVecEnv(num_envs=num_envs, copy=False, **options)
            space = flat_space(self.venv.single_observation_space)
            super().__init__(num_envs, space, self.venv.single_action_space)
            self._actions = np.zeros(num_envs, np.int64)
            self._mask = np.zeros((num_envs, self.venv.single_action_space.n), np.bool_)

        def _flat(self, obs: dict) -> np.ndarray:
            np.copyto(self._mask, obs["action_mask"], casting="unsafe")
            return obs["observation"].reshape(self.num_envs, -1).copy()

        def reset(self):
            seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
            obs, _ = self.venv.reset(seed=seed)
            self._reset_seeds()
            self._reset_options()
            return self._flat(obs)

        def step_async(self, actions: np.ndarray) -> None:
            self._actions[:] = np.asarray(actions).reshape(-1)

        def step_wait(self):
            obs, reward, terminated, truncated, info = self.venv.step(self._actions)
            done = terminated | truncated
            infos = [{"seat": int(s)} for s in info["seat"]]
            if done.any():
                final = info["final_obs"]["observation"].reshape(self.num_envs, -1)
                for i in np.flatnonzero(done):
                    infos[i]["terminal_observation"] = final[i].copy()
                    infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            return self._flat(obs), reward.astype(np.float32), done, infos

        def action_masks(self) -> np.ndarray:
            """(N, 76) bool: the legal actions of every game's current decision."""
            return self._mask

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
            if method_name == "action_masks":  # what MaskablePPO calls every step
                return list(self._mask[self._get_indices_array(indices)])
            raise AttributeError(f"Tw16VecEnv has no per-env method {method_name!r}")

        def get_attr(self, attr_name, indices=None):
            n = len(self._get_indices_array(indices))
            if attr_name == "action_masks":
                return [self.action_masks] * n
            if attr_name == "render_mode":
                return [None] * n
            raise AttributeError(f"Tw16VecEnv has no per-env attribute {attr_name!r}")

        def set_attr(self, attr_name, value, indices=None):
            raise AttributeError(f"Tw16VecEnv cannot set per-env attribute {attr_name!r}")

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * len(self._get_indices_array(indices))

        def _get_indices_array(self, indices) -> np.ndarray:
            if indices is None:
                return np.arange(self.num_envs)
            return np.arange(self.num_envs)[indices] if not isinstance(indices, int) else np.array([indices])

        def close(self):
            pass

    _CLASS = Tw16VecEnv
    return _CLASS
