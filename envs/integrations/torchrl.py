"""TorchRL on tw16 (docs/torchrl.md): the AEC env through ``PettingZooWrapper``, and a batched
``EnvBase`` over the native vector env.

- :func:`pettingzoo_env`: ``torchrl.envs.PettingZooWrapper(tw16_v0.env(...), use_mask=True)``, the
  four seats in one group ``"agents"``, the acting seat's legal actions in ``("agents",
  "action_mask")``. The AEC env's end-of-hand infos (a result name, a list of winners) are not
  tensors, so :class:`NumericInfos` gives every seat the same numeric info at every step: ``seat``,
  ``scores`` (4 chip deltas, zero until the hand ends) and ``winners`` (4 flags).
- ``Tw16VecEnv`` (:func:`vec_env` adds TorchRL's ``ActionMask``): N games in the batch engine, one
  learning seat each (``envs.gym_env.SingleAgentVecEnv``: opponents, rewards, rule options), as a
  TorchRL env of batch size [N]: ``observation`` float32 (N, C, 34), ``action_mask`` bool (N, 76),
  ``action`` int64 (N,), ``reward`` float32 (N, 1), ``done`` / ``terminated`` / ``truncated``.

Versions: both take planes_v0 unless asked: ``pettingzoo_env(version=1)`` wraps ``tw16_v1``,
``vec_env(encoding="planes_v1")`` encodes planes_v1 (docs/versions.md).

Batched without copies: each step, the engine encodes the observations and masks straight into new
torch tensors (the env's buffers are pointed at the tensors' memory), and the rewards and flags are
the step's arrays wrapped by ``torch.from_numpy``; the actions reach the engine through
``Tensor.numpy()``. So TorchRL's collectors, which keep each step's tensors until they stack the
batch, hold the engine's output itself: no per-game loop, no numpy-to-torch copy. A game that ends
is dealt again in the same step (the vector env's autoreset); its terminal observation goes to
``("next", "observation")`` (only those rows are copied) and the new deal's is handed out by the
partial ``reset`` TorchRL then calls. TorchRL merges that reset into a new root tensor for the next
step (``torch.where`` over the batch): its one copy, on steps where some game ended.

TorchRL is an optional extra (``pip install -e ".[torchrl]"``): it is imported when a function here
is called or ``Tw16VecEnv`` is looked up, not when this module is imported.
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils import BaseWrapper

from envs import tw16_v0, tw16_v1
from envs.gym_env import SingleAgentVecEnv


def _torchrl():
    try:
        import torchrl
    except ImportError:
        raise ImportError("TorchRL is not installed: pip install -e '.[torchrl]'") from None
    return torchrl


# -- the PettingZoo AEC env --------------------------------------------------------------------------
class NumericInfos(BaseWrapper):
    """tw16_v0 with infos TorchRL can stack: the same keys for every seat at every step, numbers only
    (``seat``; ``scores``: the hand's chip deltas, zeros until it ends; ``winners``: 4 flags)."""

    def __init__(self, env):
        super().__init__(env)
        self._zero = np.zeros(4, np.float32)

    @property
    def infos(self):
        out = {}
        for agent, info in self.env.unwrapped.infos.items():
            scores = np.asarray(info.get("scores", self._zero), np.float32)
            winners = np.zeros(4, np.float32)
            winners[list(info.get("winners", ()))] = 1.0
            out[agent] = {"seat": info["seat"], "scores": scores, "winners": winners}
        return out


def pettingzoo_env(seed: int | None = None, group_map=None, device="cpu", version: int = 0, **options):
    """``PettingZooWrapper(NumericInfos(tw16_v0.env(**options)), use_mask=True)``: the AEC env for
    TorchRL; ``options`` as ``tw16_v0.env``; ``version=1``: ``tw16_v1`` (planes_v1). ``group_map`` default: one group ``"agents"`` of the four
    seats (entries (4, ...), the acting seat in ``("agents", "mask")``; twice as fast as a group per
    seat, and what a shared self-play policy reads); ``MarlGroupMapType.ONE_GROUP_PER_AGENT`` gives
    ``player_0`` .. ``player_3``."""
    _torchrl()
    from torchrl.envs import PettingZooWrapper
    from torchrl.envs.utils import MarlGroupMapType

    if group_map is None:
        group_map = MarlGroupMapType.ALL_IN_ONE_GROUP
    if version not in (0, 1):
        raise ValueError(f"version must be 0 (tw16_v0) or 1 (tw16_v1), got {version!r}")
    env = NumericInfos((tw16_v1 if version == 1 else tw16_v0).env(**options))
    return PettingZooWrapper(env, use_mask=True, seed=seed, group_map=group_map, device=device)


# -- the batched env ---------------------------------------------------------------------------------
def vec_env(num_envs: int = 8, **options):
    """``Tw16VecEnv(num_envs, **options)`` in a ``TransformedEnv`` with ``ActionMask``: the action
    spec then samples legal actions only (random policies, ``rand_action``, collectors)."""
    _torchrl()
    from torchrl.envs import TransformedEnv
    from torchrl.envs.transforms import ActionMask

    return TransformedEnv(_classes()["Tw16VecEnv"](num_envs, **options), ActionMask())


def masked_random_policy(seed: int = 0):
    """A policy for collectors and rollouts: uniform over each game's legal actions (``action_mask``).
    TorchRL's default random policy samples from a copy of the action spec that does not follow the
    mask, so it would play illegal actions."""
    import torch

    gen = torch.Generator().manual_seed(seed)

    def policy(td):
        mask = td.get("action_mask")
        td.set("action", (torch.rand(mask.shape, generator=gen) + mask).argmax(-1))
        return td

    return policy


def __getattr__(name):  # Tw16VecEnv is defined on first use: TorchRL is an optional extra
    if name == "Tw16VecEnv":
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CLASSES: dict = {}


def _classes() -> dict:
    if _CLASSES:
        return _CLASSES
    _torchrl()
    import torch
    from tensordict import TensorDict
    from torchrl.data import Binary, Bounded, Categorical, Composite, Unbounded
    from torchrl.envs import EnvBase

    from envs.integrations.tensors import actions_to_numpy

    class Tw16VecEnv(EnvBase):
        """N tw16 games, one learning seat each, as a TorchRL env of batch size [N].

        ``Tw16VecEnv(num_envs, **options)``: ``options`` as ``SingleAgentVecEnv`` (rule options,
        ``seat``, ``opponents``, ``reward``, ``derived``, ``max_steps``...). CPU: the engine runs on
        the CPU; move the batch to a GPU policy with a collector's ``policy_device``."""

        def __init__(self, num_envs: int = 8, **options):
            super().__init__(batch_size=torch.Size([num_envs]), device="cpu")
            self.num_envs = int(num_envs)
            self.venv = SingleAgentVecEnv(num_envs=num_envs, copy=False, **options)
            core = self.venv.core
            self._core = core
            n, shape = self.num_envs, core.obs.shape[1:]
            self.n_actions = int(self.venv.single_action_space.n)
            box = self.venv.single_observation_space["observation"]
            self.observation_spec = Composite(
                observation=Bounded(float(box.low.min()), float(box.high.max()), (n, *shape), dtype=torch.float32),
                action_mask=Binary(n=self.n_actions, shape=(n, self.n_actions), dtype=torch.bool),
                shape=(n,),
            )
            self.action_spec = Categorical(self.n_actions, shape=(n,), dtype=torch.int64)
            self.reward_spec = Unbounded(shape=(n, 1), dtype=torch.float32)
            self.done_spec = Composite(
                done=Categorical(2, shape=(n, 1), dtype=torch.bool),
                terminated=Categorical(2, shape=(n, 1), dtype=torch.bool),
                truncated=Categorical(2, shape=(n, 1), dtype=torch.bool),
                shape=(n,),
            )
            self._seed = None
            self._pending = None  # (rows, observation, mask) of games dealt again in the last step

        # the engine writes into tensors: point the vector env's buffers at new tensors' memory
        def _fresh_buffers(self):
            core = self._core
            obs = torch.empty(core.obs.shape, dtype=torch.float32)
            mask = torch.empty(core.mask.shape, dtype=torch.bool)
            core.obs = obs.numpy()
            core.mask = mask.numpy().view(np.int8)  # bool and int8 0/1: the same bytes
            return obs, mask

        def _flags(self, value: bool = False):
            z = torch.full((self.num_envs, 1), value, dtype=torch.bool)
            return {"done": z, "terminated": z.clone(), "truncated": z.clone()}

        def _set_seed(self, seed):
            self._seed = seed

        def _reset(self, tensordict=None, **kwargs):
            reset = tensordict.get("_reset", None) if tensordict is not None else None
            # TorchRL resets the games that ended: the last step dealt them again, hand those deals out;
            # a reset of every game that is not just that (or no "_reset") deals all games anew
            if reset is not None and not reset.all() or self._covers(reset):
                return self._partial_reset(reset.reshape(-1))
            obs, mask = self._fresh_buffers()
            self.venv.reset(seed=self._seed)
            if self._seed is not None:
                self._seed = int(np.random.SeedSequence(self._seed).generate_state(1, np.uint64)[0] >> 2)
            self._pending = None
            return TensorDict({"observation": obs, "action_mask": mask, **self._flags()}, batch_size=self.batch_size)

        def _covers(self, reset) -> bool:
            """Whether every game in ``reset`` was dealt again by the last step."""
            if reset is None or self._pending is None:
                return False
            dealt = torch.zeros(self.num_envs, dtype=torch.bool).index_fill_(0, self._pending[0], True)
            return not (reset.reshape(-1) & ~dealt).any()

        def _partial_reset(self, reset):
            """The games in ``reset`` were dealt again by the step that ended them: hand out the new
            deals' observations (the other rows are left unset: TorchRL keeps its own values there)
            and every game's legal actions (``ActionMask`` reads all rows)."""
            if not self._covers(reset):
                raise RuntimeError(
                    "partial reset of a game that did not end in the last step (the engine "
                    "deals a new hand when one ends; reset all games to start over)"
                )
            rows, p_obs, mask = self._pending
            obs = torch.empty((self.num_envs, *self._core.obs.shape[1:]), dtype=torch.float32)
            obs[rows] = p_obs
            self._pending = None
            return TensorDict({"observation": obs, "action_mask": mask, **self._flags()}, batch_size=self.batch_size)

        def _step(self, tensordict):
            actions = actions_to_numpy(tensordict.get("action"))
            obs, mask = self._fresh_buffers()
            _, reward, terminated, truncated, info = self.venv.step(actions)
            done = terminated | truncated
            if done.any():
                rows = torch.from_numpy(np.flatnonzero(done))
                # keep the new deals for the partial reset, report the last observation of the hand
                self._pending = (rows, obs[rows], mask)  # every game's legal actions, new deals included
                obs[rows] = torch.from_numpy(info["final_obs"]["observation"])[rows]
                mask = mask.clone()
                # a finished game's mask is all ones (DESIGN, envs.engine.state): ActionMask samples from it,
                # and an all-False row is an empty distribution (check_env_specs' rand_step crashed on it)
                mask[rows] = True
            else:
                self._pending = None
            term = torch.from_numpy(terminated).unsqueeze(-1)
            trunc = torch.from_numpy(truncated).unsqueeze(-1)
            return TensorDict(
                {
                    "observation": obs,
                    "action_mask": mask,
                    "reward": torch.from_numpy(reward.astype(np.float32, copy=False)).unsqueeze(-1),
                    "done": term | trunc,
                    "terminated": term,
                    "truncated": trunc,
                },
                batch_size=self.batch_size,
            )

    _CLASSES["Tw16VecEnv"] = Tw16VecEnv
    return _CLASSES
