"""Train tw16 with RLlib's multi-agent PPO through its PettingZoo wrapper.

    pip install "ray[rllib]"            # see the note below on versions
    python examples/rllib_ppo.py --iterations 20 --env-runners 1
    python examples/rllib_ppo.py --iterations 1 --smoke          # the test's smoke run (seconds of play)
    python examples/rllib_ppo.py --independent                   # one policy per seat instead of one shared
    python examples/rllib_ppo.py --bc-hands 2000                 # start from cloned Greedy (docs/scaling.md)

``envs.tw16_v0`` is a PettingZoo AEC environment; RLlib's ``PettingZooEnv`` turns it into a
``MultiAgentEnv`` (one agent acts at a time, rewards paid to seats that do not act reach them at their
next turn or at the hand's end). The observation is a Dict of the planes ``observation`` (C, 34) and
the legal ``action_mask`` (76,); ``MaskedPlanes`` below flattens the planes and renames the keys to
what RLlib's ``ActionMaskingTorchRLModule`` (from RLlib's examples) reads, {"observations",
"action_mask"}: illegal actions get a very negative logit in exploration, inference and training.
By default the four seats share one policy (self-play with parameter sharing); ``--independent``
maps each seat to its own policy.

Versions: ``pip install -e ".[rllib]"`` (the ``test`` extra includes it). ``ray[rllib]`` 2.60 pins
``gymnasium==1.2.2``, which tw16 supports (``gymnasium>=1.0``); the smoke test runs in CI on it.
The repository's own PPO (``tw16 train``, training/ppo.py; Ray workers with ``--ppo.workers``) needs
neither.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # run from a checkout


def make_env(env_config: dict | None = None):
    """tw16_v0 (PettingZoo AEC) with flat float planes and a float mask, wrapped for RLlib."""
    from gymnasium import spaces
    from pettingzoo.utils import BaseWrapper
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from envs import tw16_v0

    class MaskedPlanes(BaseWrapper):
        def __init__(self, env):
            super().__init__(env)
            self._spaces = {}
            for a in env.possible_agents:
                sp = env.observation_space(a)
                n = int(np.prod(sp["observation"].shape))
                self._spaces[a] = spaces.Dict(
                    {
                        "observations": spaces.Box(-np.inf, np.inf, (n,), np.float32),
                        "action_mask": spaces.Box(0.0, 1.0, sp["action_mask"].shape, np.float32),
                    }
                )

        def observation_space(self, agent):
            return self._spaces[agent]

        def observe(self, agent):
            o = self.env.observe(agent)
            return {
                "observations": np.asarray(o["observation"], np.float32).reshape(-1),
                "action_mask": np.asarray(o["action_mask"], np.float32),
            }

    return PettingZooEnv(MaskedPlanes(tw16_v0.env(**(env_config or {}))))


def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("tw16", make_env)
    seats = [f"player_{i}" for i in range(4)]
    policies = seats if args.independent else ["shared"]
    module = {"head_fcnet_hiddens": [args.hidden, args.hidden], "head_fcnet_activation": "relu"}

    def policy_mapping_fn(agent_id, episode=None, **kw):
        return agent_id if args.independent else "shared"

    return (
        PPOConfig()
        .environment("tw16", env_config={"reward": "normalized", **json.loads(args.rules)})
        .multi_agent(policies=set(policies), policy_mapping_fn=policy_mapping_fn)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    p: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=module) for p in policies
                }
            )
        )
        .env_runners(num_env_runners=args.env_runners, rollout_fragment_length="auto")
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.batch, 256),
            num_epochs=args.epochs,
            lr=3e-4,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def clone_greedy(algo, hands: int, epochs: int, seed: int) -> None:
    """Behaviour cloning before PPO (docs/sb3.md, "Why RL from scratch is slow here"): fit every
    policy's action logits to Greedy's decisions in ``hands`` hands (``training.imitation``), on the
    learner, then hand the weights to the env runners."""
    import torch

    from training.imitation import clone, teacher_decisions

    data = teacher_decisions(hands, seed=seed)

    def fit(learner):
        for pid in learner.module.keys():
            m = learner.module[pid]

            def logits(x, m=m):  # the flat planes, every action allowed: clone() applies the mask
                return m.forward_train({"obs": x.reshape(len(x), -1), "action_mask": torch.ones(len(x), 76)})[
                    "action_dist_inputs"
                ]

            print(
                f"behaviour cloning of {pid}:",
                clone(logits, m.parameters(), data, epochs=epochs, seed=seed),
                flush=True,
            )

    algo.learner_group.foreach_learner(fit)
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, inference_only=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--env-runners", type=int, default=1, help="RLlib EnvRunner actors (0: sample in the learner)")
    p.add_argument("--batch", type=int, default=4000, help="train_batch_size_per_learner (agent steps)")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--independent", action="store_true", help="one policy per seat (default: one shared policy)")
    p.add_argument("--rules", default="{}", help="tw16 rule options as JSON, e.g. '{\"multi_win\": true}'")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--address", default=None, help="a Ray cluster ('auto'); default: a local Ray")
    p.add_argument("--smoke", action="store_true", help="tiny batches, no env runners: the test's run")
    p.add_argument("--checkpoint", default=None, help="save the algorithm here at the end")
    p.add_argument(
        "--bc-hands",
        type=int,
        default=0,
        help="first clone Greedy's decisions in this many hands into the policies (0: random start)",
    )
    p.add_argument("--bc-epochs", type=int, default=6)
    args = p.parse_args(argv)
    if args.smoke:
        args.env_runners, args.batch, args.epochs, args.hidden = 0, 256, 1, 64

    import ray

    ray.init(address=args.address, include_dashboard=False, **({} if args.address else {"num_cpus": 2}))
    try:
        algo = build_config(args).build_algo()
        if args.bc_hands:
            clone_greedy(algo, args.bc_hands, args.bc_epochs, args.seed)
        for it in range(1, args.iterations + 1):
            res = algo.train()
            runners = res.get("env_runners", {})
            print(
                f"iteration {it}: env steps {runners.get('num_env_steps_sampled_lifetime')}, "
                f"episodes {runners.get('num_episodes_lifetime')}, "
                f"mean return per seat {runners.get('agent_episode_returns_mean')}",
                flush=True,
            )
        if args.checkpoint:
            algo.save(os.path.abspath(args.checkpoint))  # its result repeats the whole config: not printed
            print(f"checkpoint: {os.path.abspath(args.checkpoint)} (agents.rl_adapters.RLlibAgent reads it)")
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
