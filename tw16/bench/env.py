"""``tw16 bench env``: environment throughput with random legal actions.

- ``aec_steps_per_s``: one PettingZoo env (``tw16_v0.env()``: illegal-action handling built in,
  ``OrderEnforcingWrapper``), ``last()`` (the observation is encoded) + ``step`` per decision;
  ``aec_raw_steps_per_s`` the same on ``raw_env``; ``aec_std_wrappers_steps_per_s`` on ``raw_env``
  in PettingZoo's three standard wrappers (what ``env()`` was before), for comparison.
- ``vec_decisions_per_s``: :class:`SelfPlayVecEnv` at ``num_envs`` games, every step one decision per
  game with observations and masks; ``single_vec_*``: the single-learner vector env with random
  legal opponents (its learner steps, and all decisions, opponents included).
- ``torch_*``: the single-learner vector env handing its batch to torch (``envs.integrations.tensors``):
  ``torch_views_learner_steps_per_s`` with tensors that share the env's buffers (no copy),
  ``torch_copy_learner_steps_per_s`` with ``torch.tensor`` copies of observations and masks each step;
  ``torch_handoff_us`` the cost of the hand-off alone per step (view, DLPack view, copy) and its bytes;
  ``torchrl_vec_learner_steps_per_s`` TorchRL's batched env (``Tw16VecEnv``, ``step_and_maybe_reset``
  with masked random actions; absent without the torchrl extra).
- ``encode_per_s``: encodings per second of each observation encoder on a mid-hand batch.
"""

from __future__ import annotations

import os
import time

import numpy as np


def _rate(fn, seconds: float, min_calls: int = 3) -> tuple[float, int]:
    """(calls per second, calls) of ``fn`` run for about ``seconds`` after one warm-up call."""
    fn()
    n, t0 = 0, time.perf_counter()
    while n < min_calls or time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - t0), n


def _aec(env, seconds: float, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    state = {"seed": seed}

    def one():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                state["seed"] += 1
                env.reset(seed=state["seed"])
            return
        m = obs["action_mask"]
        env.step(int((rng.random(m.shape[0]) + m).argmax()))

    rate, _ = _rate(one, seconds, 100)
    return rate


def _random_actions(rng, mask):
    return (rng.random(mask.shape, dtype=np.float32) + mask).argmax(1)


def bench_env(seconds: float = 1.0, num_envs: int = 4096) -> dict:
    from pettingzoo.utils import wrappers

    from envs import tw16_v0
    from envs.engine.api import Engine
    from envs.gym_env import SelfPlayVecEnv, SingleAgentVecEnv
    from envs.obs import OracleV0, PlanesV0
    from envs.policies import RandomLegal
    from envs.rules import Rules

    out: dict = {"num_envs": num_envs, "cpus": os.cpu_count()}
    out["aec_steps_per_s"] = round(_aec(tw16_v0.env(), seconds))
    out["aec_raw_steps_per_s"] = round(_aec(tw16_v0.raw_env(), seconds))
    std = wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(tw16_v0.raw_env(), illegal_reward=-1.0))
    )
    out["aec_std_wrappers_steps_per_s"] = round(_aec(std, seconds))

    rng = np.random.default_rng(0)
    sp = SelfPlayVecEnv(num_envs=num_envs)
    obs, _ = sp.reset(seed=0)
    box = {"obs": obs}

    def sp_step():
        box["obs"], *_ = sp.step(_random_actions(rng, box["obs"]["action_mask"]))

    rate, _ = _rate(sp_step, seconds)
    out["vec_decisions_per_s"] = round(rate * num_envs)

    venv = SingleAgentVecEnv(num_envs=num_envs, opponents=RandomLegal(0))
    vobs, _ = venv.reset(seed=0)
    box["v"] = vobs

    def v_step():
        box["v"], *_ = venv.step(_random_actions(rng, box["v"]["action_mask"]))

    v_step()
    d0, t0 = venv.core.n_decisions, time.perf_counter()
    rate, n = _rate(v_step, seconds)
    out["single_vec_learner_steps_per_s"] = round(rate * num_envs)
    out["single_vec_all_decisions_per_s"] = round((venv.core.n_decisions - d0) / (time.perf_counter() - t0))

    out.update(_bench_torch(seconds, num_envs))

    # encoders on a mid-hand batch (about 40 decisions in)
    eng = Engine(Rules(), batch_size=num_envs)
    eng.reset(1)
    for _ in range(40):
        eng.step(_random_actions(rng, eng.legal_action_mask))
    enc = {}
    for name, e in (
        ("planes_v0", PlanesV0()),
        ("planes_v0_derived", PlanesV0(derived=True)),
        ("oracle_v0", OracleV0()),
    ):
        buf = e.alloc(num_envs)
        rate, _ = _rate(lambda: e.encode(eng, out=buf), seconds / 2)
        one = e.alloc(1)
        eng1 = _one_game(eng)
        rate1, _ = _rate(lambda: e.encode(eng1, out=one), seconds / 4, 100)
        enc[name] = {"batch": round(rate * num_envs), "single": round(rate1), "channels": e.n_channels}
    out["encode_per_s"] = enc
    return out


def _bench_torch(seconds: float, num_envs: int) -> dict:
    """The vector env's batch handed to torch: shared memory vs a copy per step (and TorchRL's env)."""
    import torch

    from envs.gym_env import SingleAgentVecEnv
    from envs.integrations.tensors import TorchVecEnv
    from envs.policies import RandomLegal

    out: dict = {}
    rng = np.random.default_rng(0)
    tenv = TorchVecEnv(SingleAgentVecEnv(num_envs=num_envs, opponents=RandomLegal(0)))
    box = {"obs": tenv.reset(seed=0)[0]}

    def view_step():
        m = box["obs"]["action_mask"]
        box["obs"] = tenv.step(torch.from_numpy(_random_actions(rng, m.numpy())))[0]

    rate, _ = _rate(view_step, seconds)
    out["torch_views_learner_steps_per_s"] = round(rate * num_envs)
    venv = tenv.venv
    box["np"] = venv.reset(seed=0)[0]

    def copy_step():
        box["np"] = venv.step(_random_actions(rng, box["np"]["action_mask"]))[0]
        box["t"] = (torch.tensor(box["np"]["observation"]), torch.tensor(box["np"]["action_mask"]).bool())

    rate, _ = _rate(copy_step, seconds)
    out["torch_copy_learner_steps_per_s"] = round(rate * num_envs)
    o, m = box["np"]["observation"], box["np"]["action_mask"]
    handoff = {
        "view": lambda: (torch.from_numpy(o), torch.from_numpy(m).view(torch.bool)),
        "dlpack": lambda: (torch.from_dlpack(o), torch.from_dlpack(m).view(torch.bool)),
        "copy": lambda: (torch.tensor(o), torch.tensor(m).bool()),
    }
    out["torch_handoff_us"] = {k: round(1e6 / _rate(fn, seconds / 4, 10)[0], 2) for k, fn in handoff.items()}
    out["torch_handoff_us"]["bytes"] = int(o.nbytes + m.nbytes)
    try:
        from envs.integrations.torchrl import masked_random_policy, vec_env
    except ImportError:
        return out
    try:
        env = vec_env(num_envs, opponents=RandomLegal(0))
    except ImportError:  # the torchrl extra is not installed
        return out
    policy = masked_random_policy(0)
    env.set_seed(0)
    box["td"] = env.reset()

    def trl_step():
        box["td"] = env.step_and_maybe_reset(policy(box["td"]))[1]

    rate, _ = _rate(trl_step, seconds)
    out["torchrl_vec_learner_steps_per_s"] = round(rate * num_envs)
    return out


def _one_game(eng):
    """A batch-1 engine holding a copy of game 0 of ``eng`` (for single-game encoding costs)."""
    from envs.engine.api import Engine

    e1 = Engine(eng.rules, batch_size=1)
    e1.s = e1.s._replace(**{f: getattr(eng.s, f)[:1].copy() for f in eng.s._fields})
    return e1


if __name__ == "__main__":
    import json

    print(json.dumps(bench_env(), indent=2))
