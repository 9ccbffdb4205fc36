"""Smoke tests of the library adapters (envs/integrations, agents/sb3_agent.py, examples): SB3's env
checker, MaskablePPO's masks equal the engine's, a short MaskablePPO learn played in duplicate;
TorchRL's check_env_specs on the PettingZoo wrapper and the batched env, the batched env step for step
equal to the vector env it wraps, a short collector run; zero-copy tensors (data pointers)."""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np
import pytest
import torch

from envs.gym_env import SelfPlayVecEnv, SingleAgentVecEnv
from envs.integrations.tensors import TorchVecEnv, actions_to_numpy, shares_memory, tensor_view
from envs.policies import RandomLegal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAS_SB3 = importlib.util.find_spec("sb3_contrib") is not None
HAS_TORCHRL = importlib.util.find_spec("torchrl") is not None
needs_sb3 = pytest.mark.skipif(not HAS_SB3, reason="the sb3 extra is not installed: pip install -e '.[sb3]'")
needs_torchrl = pytest.mark.skipif(
    not HAS_TORCHRL, reason="the torchrl extra is not installed: pip install -e '.[torchrl]'"
)


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Small networks on a shared 2-core machine: one torch thread is several times faster."""
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def legal_random(rng, mask):
    return (rng.random(mask.shape) + np.asarray(mask)).argmax(-1)


def run_example(name: str, argv: list[str]) -> None:
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    try:
        mod = importlib.import_module(name)
    finally:
        sys.path.pop(0)
    assert mod.main(argv) == 0


# -- zero-copy tensors ------------------------------------------------------------------------------
@pytest.mark.parametrize("dlpack", [False, True])
def test_tensor_views_share_the_vector_envs_buffers(dlpack):
    rng = np.random.default_rng(0)
    for venv, buf in (
        (v := SingleAgentVecEnv(6, opponents=RandomLegal(0), seat=None), v.core),
        (s := SelfPlayVecEnv(6), s),
    ):
        env = TorchVecEnv(venv, dlpack=dlpack)
        obs, _ = env.reset(seed=1)
        o, m = obs["observation"], obs["action_mask"]
        assert o.dtype == torch.float32 and m.dtype == torch.bool
        assert shares_memory(o, buf.obs) and shares_memory(m, buf.mask)
        for _ in range(40):
            a = torch.from_numpy(legal_random(rng, m.numpy()))
            assert shares_memory(a, actions_to_numpy(a))  # the actions reach the engine uncopied too
            obs, reward, term, trunc, info = env.step(a)
            assert obs["observation"] is o and obs["action_mask"] is m  # the same tensors, updated in place
            assert shares_memory(o, buf.obs) and shares_memory(m, buf.mask)
            assert torch.equal(o, torch.from_numpy(buf.obs)) and torch.equal(m, torch.from_numpy(buf.mask).bool())
            engine_mask = buf.d.s.mask
            live = ~buf.d.s.terminated
            assert np.array_equal(m.numpy()[live], engine_mask[live])
            assert reward.shape[0] == 6 and term.dtype == torch.bool
            if "final_obs" in info:
                assert shares_memory(info["final_obs"]["observation"], venv.final_obs)
    arr = np.zeros((3, 4), np.float32)
    assert shares_memory(tensor_view(arr, dlpack=dlpack), arr)


def test_tensor_views_refuse_copying_envs():
    with pytest.raises(ValueError, match="copy=False"):
        TorchVecEnv(SingleAgentVecEnv(2, opponents="random", copy=True))


# -- Stable-Baselines3 ------------------------------------------------------------------------------
@needs_sb3
def test_sb3_env_checker_and_flat_spaces():
    from stable_baselines3.common.env_checker import check_env

    from envs.integrations.sb3 import MaskableEnv, make_vec_env

    env = MaskableEnv(opponents="random", seat=None)
    check_env(env, warn=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape == (79 * 34,) and obs.dtype == np.float32
    assert env.action_masks().dtype == np.bool_ and env.action_masks().shape == (76,)
    venv = make_vec_env(3, opponents="random", derived=True)
    assert venv.observation_space.shape == (86 * 34,)
    assert venv.reset().shape == (3, 86 * 34)


@needs_sb3
def test_sb3_masks_equal_the_engines():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from envs.integrations.sb3 import MaskableEnv, make_vec_env

    rng = np.random.default_rng(0)
    single = DummyVecEnv([lambda: MaskableEnv(opponents="random", seat=None)] * 2)
    native = VecMonitor(make_vec_env(4, opponents="random", seat=None))
    for venv, engines in (
        (single, lambda: np.stack([e.unwrapped.core.d.s.mask[0] for e in single.envs])),
        (native, lambda: native.venv.venv.core.d.s.mask),
    ):
        assert is_masking_supported(venv)
        venv.seed(0)
        venv.reset()
        ends = 0
        for _ in range(150):
            masks = get_action_masks(venv)
            assert masks.dtype == np.bool_ and np.array_equal(masks, engines())
            _, _, dones, infos = venv.step(legal_random(rng, masks))
            ends += int(dones.sum())
            for i in np.flatnonzero(dones):
                assert infos[i]["terminal_observation"].shape == venv.observation_space.shape
        assert ends > 0  # masks compared across autoresets too


@needs_sb3
def test_maskable_ppo_learns_with_engine_masks_and_plays_duplicate(tmp_path):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.callbacks import BaseCallback

    from agents import Agent, make_agent
    from agents.evaluation.arena import play_duplicate
    from agents.sb3_agent import SB3Agent
    from envs.integrations.sb3 import make_vec_env

    opponent = SB3Agent(deterministic=False, seed=0)  # self-play: a snapshot of the policy
    env = make_vec_env(4, opponents=opponent, seat=None, reward="normalized")

    class EngineMasks(BaseCallback):
        checked = 0

        def _on_step(self):  # the masks MaskablePPO reads for its next decision are the engine's
            assert np.array_equal(get_action_masks(self.training_env), env.venv.core.d.s.mask)
            EngineMasks.checked += 1
            return True

    model = MaskablePPO(
        "MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu", policy_kwargs={"net_arch": [32]}
    )
    opponent.set_policy(model, snapshot=True)
    model.learn(256, callback=EngineMasks())
    assert model.num_timesteps >= 256 and EngineMasks.checked >= 64
    # the buffer's masks allow every action the policy took
    buf = model.rollout_buffer
    assert buf.action_masks.reshape(-1, 76)[np.arange(buf.actions.size), buf.actions.reshape(-1).astype(int)].all()

    agent = SB3Agent(model)
    assert isinstance(agent, Agent)
    res = play_duplicate([agent, make_agent("random"), agent, make_agent("random")], 2, seed=3)
    assert res["hands"] == 8 and res["agents"]["sb3"]["hands"] == 16
    assert abs(res["agents"]["sb3"]["chips_per_hand"] + res["agents"]["random"]["chips_per_hand"]) < 1e-9

    path = str(tmp_path / "model.zip")
    model.save(path)
    with pytest.raises(ValueError, match="sb3:.* is refused: a Stable-Baselines3 zip is code"):
        make_agent(f"sb3:{path}")
    loaded = make_agent(f"sb3+trusted:{path}")
    rng = np.random.default_rng(0)
    obs = rng.random((5, 79, 34), dtype=np.float32)
    mask = rng.random((5, 76)) < 0.3
    mask[:, 74] = True
    assert np.array_equal(loaded.act(obs, mask), agent.act(obs, mask))
    assert mask[np.arange(5), agent.act(obs, mask)].all()
    sampler = SB3Agent(model, deterministic=False, seed=7)
    a1 = sampler.act(obs, mask)
    sampler.reset(7)
    assert np.array_equal(a1, sampler.act(obs, mask)) and mask[np.arange(5), a1].all()


@needs_sb3
def test_sb3_example_smoke():
    run_example("sb3_maskable_ppo", ["--smoke", "--threads", "0"])


# -- TorchRL ----------------------------------------------------------------------------------------
@needs_torchrl
def test_torchrl_pettingzoo_wrapper_passes_check_env_specs():
    from torchrl.envs.utils import MarlGroupMapType, check_env_specs

    from envs.integrations.torchrl import pettingzoo_env

    check_env_specs(pettingzoo_env(seed=0, group_map=MarlGroupMapType.ONE_GROUP_PER_AGENT), seed=0)
    env = pettingzoo_env(seed=0)
    check_env_specs(env, seed=0)
    td = env.rollout(400, break_when_any_done=True)  # masked random actions until the hand ends
    acting = td["agents", "mask"]
    a = td["agents", "action"][acting]
    assert td["agents", "action_mask"][acting].gather(-1, a[:, None]).all()  # only legal actions
    assert td["next", "done"][-1].all()
    scores = td["next", "agents", "info", "scores"][-1, 0]  # chips of the hand, numeric infos
    paid = td["next", "agents", "reward"].sum(0).squeeze(-1)  # tai = chips / 10 at the default stakes
    assert torch.allclose(paid, scores / 10) and float(scores.sum()) == 0.0


@needs_torchrl
def test_torchrl_batched_env_specs_and_equal_to_the_vector_env():
    from torchrl.envs.utils import check_env_specs

    from envs.integrations.torchrl import Tw16VecEnv, vec_env

    check_env_specs(vec_env(3, opponents=RandomLegal(0), seat=None), seed=0)
    N = 5
    env = vec_env(N, opponents=RandomLegal(0), seat=None)
    ref = SingleAgentVecEnv(N, opponents=RandomLegal(0), seat=None)
    assert isinstance(env.base_env, Tw16VecEnv)
    env.set_seed(11)
    td = env.reset()
    obs, _ = ref.reset(seed=11)
    core = env.base_env.venv.core
    ends = 0
    for _ in range(120):
        assert torch.equal(td["observation"], torch.from_numpy(obs["observation"]))
        assert torch.equal(td["action_mask"], torch.from_numpy(obs["action_mask"]).bool())
        td = env.rand_action(td)  # ActionMask: masked sampling
        a = td["action"]
        assert td["action_mask"].gather(-1, a[:, None]).all()
        out, td = env.step_and_maybe_reset(td)
        obs, rew, term, trunc, info = ref.step(a.numpy())
        nxt = out["next"]
        assert shares_memory(nxt["observation"], core.obs)  # the engine wrote into the tensor
        assert torch.equal(nxt["reward"].squeeze(-1), torch.from_numpy(rew))
        assert torch.equal(nxt["terminated"].squeeze(-1), torch.from_numpy(term))
        done = term | trunc
        want = (
            np.where(done[:, None, None], info["final_obs"]["observation"], obs["observation"])
            if done.any()
            else obs["observation"]
        )
        assert torch.equal(nxt["observation"], torch.from_numpy(want))  # the hand's last observation
        assert nxt["action_mask"][torch.from_numpy(done)].all()  # a finished game's mask: all ones
        ends += int(done.sum())
    assert ends > 0
    from tensordict import TensorDict

    live = TensorDict({"_reset": torch.tensor([True] + [False] * (N - 1))[:, None]}, batch_size=[N])
    if not out["next", "done"][0]:
        with pytest.raises(RuntimeError, match="did not end"):
            env.reset(live)
    td = env.reset()  # a full reset deals every game anew
    assert td["action_mask"].any(-1).all()


@needs_torchrl
@pytest.mark.parametrize("seed", [0, 1])
def test_torchrl_check_env_specs_at_256_games(seed):
    """The docs' snippet: at 256 games some game ends within check_env_specs' 3-step rollout; its mask
    then reaches ActionMask's action spec, from which check_env_specs samples one more action. A
    finished game's mask is all ones (as the engine's), so that sample exists (an all-False row was
    an empty distribution: "invalid multinomial distribution")."""
    from torchrl.envs.utils import check_env_specs

    import agents  # noqa: F401 (registers "greedy")
    from envs.integrations.torchrl import vec_env

    env = vec_env(256, opponents="greedy", seat=None, reward="normalized")
    check_env_specs(env, seed=seed)


@needs_torchrl
def test_torchrl_collector_short_run():
    from torchrl.collectors import Collector

    from envs.integrations.torchrl import masked_random_policy, vec_env

    env = vec_env(4, opponents="random", seat=None)
    collector = Collector(
        env, masked_random_policy(0), frames_per_batch=64, total_frames=128, auto_register_policy_transforms=False
    )
    batches = 0
    for data in collector:
        batches += 1
        assert data.batch_size == torch.Size([4, 16])
        assert data["action_mask"].gather(-1, data["action"].unsqueeze(-1)).all()  # legal actions only
        # within a game, the next observation is the following step's, except where the hand ended
        same = ~data["next", "done"][:, :-1].squeeze(-1)
        assert torch.equal(data["next", "observation"][:, :-1][same], data["observation"][:, 1:][same])
    collector.shutdown()
    assert batches == 2


@needs_torchrl
def test_torchrl_example_smoke():
    run_example("torchrl_collector", ["--smoke", "--threads", "0", "--opponents", "random"])


# -- versions: the adapters take planes_v1 / tw16_v1 when asked ------------------------------------------
def test_sb3_and_torchrl_take_the_v1_encoding():
    from envs.integrations.sb3 import MaskableEnv, make_vec_env
    from envs.obs import planes_v1

    c = planes_v1.n_channels()
    assert MaskableEnv(opponents="random", encoding="planes_v1").reset(seed=0)[0].shape == (c * 34,)
    assert make_vec_env(2, opponents="random", encoding="planes_v1").reset().shape == (2, c * 34)
    if not HAS_TORCHRL:
        return
    from torchrl.envs.utils import check_env_specs

    from envs.integrations.torchrl import pettingzoo_env, vec_env

    env = pettingzoo_env(seed=0, version=1, profile="hongkong")
    check_env_specs(env, seed=0)
    assert env.reset()["agents", "observation", "observation"].shape == (4, c, 34)
    assert vec_env(2, opponents=RandomLegal(0), encoding="planes_v1").reset()["observation"].shape == (2, c, 34)
    with pytest.raises(ValueError, match="version must be 0"):
        pettingzoo_env(version=2)
