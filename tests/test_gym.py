"""tw16/SingleAgent-v0 (Gymnasium): check_env, the native vector env, opponents, self-play credit."""

import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import agents  # noqa: F401  (registers the agent names the env's opponents are given by: envs.policies)
import envs  # noqa: F401  (registers the env ids)
from envs.gym_env import ENV_ID, SelfPlayVecEnv, SingleAgentEnv, SingleAgentVecEnv
from envs.obs import planes_v0 as pv
from training.credit import SeatCredit


def legal_random(rng, mask):
    return (rng.random(mask.shape) + mask).argmax(-1)


def efficient(obs, mask):
    """Batched: win when legal, else the discard with the lowest shanten (derived planes), else pass."""
    score = np.where(mask[:, :34] > 0, 2 - obs[:, pv.CH_DISCARD_SHANTEN], -1)
    a = np.where(mask[:, :34].any(1), score.argmax(1), np.where(mask[:, 74] > 0, 74, mask.argmax(1)))
    return np.where(mask[:, 73] > 0, 73, a)


def test_check_env():
    env = gymnasium.make(ENV_ID)
    check_env(env.unwrapped)
    check_env(gymnasium.make(ENV_ID, seat=None, multi_win=True, flowers=False).unwrapped, skip_render_check=True)


def test_single_env_rewards_are_the_learner_chips():
    rng = np.random.default_rng(0)
    env = SingleAgentEnv(seat=None)
    paid = 0
    for ep in range(12):
        obs, info = env.reset(seed=ep)
        seat, total, done = info["seat"], 0.0, False
        while not done:
            assert obs["action_mask"].any()
            obs, r, term, trunc, info = env.step(legal_random(rng, obs["action_mask"]))
            total += r
            done = term or trunc
        assert np.isclose(total, info["scores"][seat] / 10)
        paid += total != 0
    assert env.render() is None  # no render_mode


def test_vector_env_batches_autoreset_and_torch():
    N = 16
    venv = gymnasium.make_vec(ENV_ID, num_envs=N, vectorization_mode="vector_entry_point", seat=None)
    assert isinstance(venv, SingleAgentVecEnv) and venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = venv.reset(seed=1)
    o, m = obs["observation"], obs["action_mask"]
    assert o.shape == (N, pv.N_CHANNELS, 34) and o.dtype == np.float32 and o.flags.c_contiguous
    assert m.shape == (N, 76) and m.dtype == np.int8 and m.any(1).all()
    t = torch.from_numpy(o)
    assert t.data_ptr() == o.ctypes.data  # no copy
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        obs, r, term, trunc, info = venv.step(legal_random(rng, obs["action_mask"]))
        assert obs["action_mask"].any(1).all() and r.shape == (N,) and r.dtype == np.float32
        if "_final_obs" in info:
            ended += info["_final_obs"].sum()
            fo = info["final_obs"]["observation"][info["_final_obs"]]
            assert fo.shape[1:] == (pv.N_CHANNELS, 34) and fo.any()
    assert ended > 0
    assert venv.observation_space.contains({"observation": obs["observation"], "action_mask": obs["action_mask"]})


def test_vector_env_does_not_depend_on_threads():
    """From envs._core's PARALLEL_MIN_BATCH (256) games up, steps and encodings run over threads:
    the games play exactly as on one thread."""
    from envs import _core

    v = SingleAgentVecEnv(num_envs=300, seat=1)
    s = SingleAgentVecEnv(num_envs=300, seat=1)
    before = _core.num_threads()
    try:
        _core.set_num_threads(4)
        ov, _ = v.reset(seed=9)
        _core.set_num_threads(1)
        os_, _ = s.reset(seed=9)
        rng = np.random.default_rng(3)
        for _ in range(30):
            assert (ov["observation"] == os_["observation"]).all()
            a = legal_random(rng, ov["action_mask"])
            _core.set_num_threads(4)
            ov, rv, *_ = v.step(a)
            _core.set_num_threads(1)
            os_, rs, *_ = s.step(a)
            assert (rv == rs).all()
    finally:
        _core.set_num_threads(before)


def test_opponents_and_illegal_actions():
    calls = []

    def first_legal(obs, mask):
        calls.append(obs.shape[0])
        return mask.argmax(1)

    env = SingleAgentVecEnv(num_envs=4, seat=2, opponents=[first_legal, "random", first_legal])
    obs, _ = env.reset(seed=0)
    obs, r, term, trunc, info = env.step(np.full(4, 75))  # READY is never legal by default
    assert term.all() and (r == -1).all() and info["illegal_action"].all() and obs["action_mask"].any(1).all()
    assert calls
    strict = SingleAgentVecEnv(num_envs=2, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="illegal"):
        strict.step(np.full(2, 75))
    g = SingleAgentEnv(opponents="greedy")
    obs, _ = g.reset(seed=0)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_opponent_names_resolve_through_the_registry():
    from agents import RandomAgent
    from envs import policies

    assert isinstance(policies.make_policy("random", 3), policies.RandomLegal)
    with pytest.raises(ValueError, match="unknown policy 'nobody'.*import agents"):
        policies.make_policy("nobody")
    # one random policy: the agent is the env's policy behind the agents' input checks
    mask = np.random.default_rng(0).random((64, 76)) < 0.3
    mask[:, 74] = True
    obs = np.zeros((64, 79, 34), np.float32)
    assert (RandomAgent(5).act(obs, mask) == policies.RandomLegal(5).act(obs, mask)).all()
    # envs never imports agents: in a fresh interpreter the default opponent ("greedy") is found through
    # the installed package's entry point (pyproject.toml, group tw16.policies), and agents is imported
    # only then, by that plugin lookup
    from importlib.metadata import entry_points

    if not any(ep.name == "agents" for ep in entry_points(group="tw16.policies")):
        pytest.skip("tw16 is not installed (pip install -e .): no entry points to resolve agent names by")
    code = (
        "import sys, envs.gym_env as g\nassert 'agents' not in sys.modules\n"
        "e = g.SingleAgentEnv()\nprint(type(e.core.opponents[0]).__name__, 'agents' in sys.modules)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
        env={**os.environ, "PYTHONPATH": root},
    )
    assert out.stdout.split() == ["GreedyAgent", "True"], out.stdout + out.stderr


def test_act_by_seat_asks_each_policy_once():
    from envs.seats import act_by_seat

    class Fixed:
        def __init__(self, a):
            self.a, self.calls = a, []

        def act(self, obs, mask):
            self.calls.append(obs[:, 0, 0].tolist())
            return np.full(len(obs), self.a)

    shared, other = Fixed(7), Fixed(9)
    obs = np.arange(6, dtype=np.float32)[:, None, None] * np.ones((6, 2, 34), np.float32)
    actions = np.full(6, -5)
    act_by_seat([shared, other, shared], np.array([0, 1, 2, -1, 2, 0]), obs, np.ones((6, 76), bool), actions)
    assert actions.tolist() == [7, 9, 7, -5, 7, 7]  # row 3 (who -1) is decided elsewhere
    assert shared.calls == [[0, 2, 4, 5]] and other.calls == [[1]]  # once each, rows in order


def test_self_play_credit_chains():
    N, T = 8, 400
    env = SelfPlayVecEnv(num_envs=N, derived=True)
    obs, info = env.reset(seed=2)
    credit = SeatCredit(T, N)
    seats = np.zeros((T, N), np.int64)
    paid = 0.0
    for t in range(T):
        seats[t] = info["seat"]
        credit.decide(t, info["seat"])
        obs, r, term, trunc, info = env.step(efficient(obs["observation"], obs["action_mask"]))
        assert r.shape == (N, 4) and np.allclose(r.sum(1), 0, atol=1e-4)
        credit.paid(r, term | trunc)
        paid += np.abs(r).sum()
    # every payment lands on the paid seat's last decision (a seat paid before deciding has none)
    assert 0 < np.abs(credit.reward).sum() <= paid + 1e-3
    tt, nn = np.nonzero(credit.next_t >= 0)
    assert (seats[credit.next_t[tt, nn], nn] == seats[tt, nn]).all() and (credit.next_t[tt, nn] > tt).all()
    assert credit.ended.any() and not (credit.ended & (credit.next_t >= 0)).any()


def test_bench_env_smoke():
    from tw16.bench.env import bench_env

    r = bench_env(seconds=0.02, num_envs=64)
    assert r["aec_steps_per_s"] > 0 and r["vec_decisions_per_s"] > 0
    assert set(r["encode_per_s"]) == {"planes_v0", "planes_v0_derived", "oracle_v0"}
