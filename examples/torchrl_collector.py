"""TorchRL on tw16: a collector over the batched env, PPO on what it collects, and the AEC env
through TorchRL's PettingZoo wrapper.

    pip install -e ".[torchrl]"
    python examples/torchrl_collector.py                           # 64 games, 16384 frames, PPO updates
    python examples/torchrl_collector.py --no-train                # collection only (the env's speed)
    python examples/torchrl_collector.py --smoke                   # the test's run (seconds)

``envs.integrations.torchrl.vec_env(N, ...)`` is a TorchRL env of batch size [N] over tw16's batch
engine (``Tw16VecEnv``: one learning seat per game, the others played by ``--opponents``), with
``ActionMask`` so that masked sampling knows the legal actions. A ``torchrl.collectors.Collector``
steps it with a masked-categorical actor (``MaskedCategorical`` over ``action_mask``) and yields
batches of [N, T]; each is turned into PPO updates (GAE, ``ClipPPOLoss``). The engine writes the
observations and masks straight into the tensors the collector keeps (no copy between them).

Then ``--aec-steps`` steps of the PettingZoo AEC env through ``PettingZooWrapper(..., use_mask=True)``
(``envs.integrations.torchrl.pettingzoo_env``) with masked random actions, after TorchRL's
``check_env_specs``. The last line is JSON: frames per second of each.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # run from a checkout


def make_actor_critic(n_obs: int, n_actions: int, hidden: int):
    import torch
    from tensordict.nn import TensorDictModule
    from torch import nn
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator

    def mlp(out):
        return nn.Sequential(
            nn.Flatten(-2),
            nn.Linear(n_obs, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, out),
        )

    actor = ProbabilisticActor(
        TensorDictModule(mlp(n_actions), in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        return_log_prob=True,
    )
    critic = ValueOperator(mlp(1), in_keys=["observation"])
    torch.manual_seed(0)
    return actor, critic


def collect_and_train(args) -> dict:
    import torch
    from torchrl.collectors import Collector
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value import GAE

    import agents  # noqa: F401 (registers the agent names --opponents takes: envs.policies)
    from envs.integrations.torchrl import vec_env

    env = vec_env(args.num_envs, opponents=args.opponents, seat=None, reward="normalized", **json.loads(args.rules))
    env.set_seed(args.seed)
    obs_shape = env.observation_spec["observation"].shape[1:]
    actor, critic = make_actor_critic(obs_shape.numel(), env.base_env.n_actions, args.hidden)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.total_frames,
        auto_register_policy_transforms=False,
    )  # the actor keeps no recurrent state
    gae = GAE(gamma=1.0, lmbda=0.95, value_network=critic)
    loss = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01)
    opt = torch.optim.Adam(loss.parameters(), lr=3e-4)
    frames, collect_s, train_s, hands, chips = 0, 0.0, 0.0, 0, 0.0
    t = time.perf_counter()
    for data in collector:  # data: [N, T]
        collect_s += time.perf_counter() - t
        frames += data.numel()
        done = data["next", "done"].squeeze(-1)
        hands += int(done.sum())
        chips += float(data["next", "reward"].sum()) * 32 * 10  # normalized (tai / 32) -> chips at 30/10
        t = time.perf_counter()
        if args.train:
            with torch.no_grad():
                gae(data)
            flat = data.reshape(-1)
            for _ in range(args.epochs):
                for idx in torch.randperm(flat.numel()).split(args.minibatch):
                    out = loss(flat[idx])
                    total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
                    opt.zero_grad()
                    total.backward()
                    opt.step()
            collector.update_policy_weights_()
        train_s += time.perf_counter() - t
        t = time.perf_counter()
    collector.shutdown()
    return {
        "frames": frames,
        "collect_seconds": round(collect_s, 2),
        "collect_frames_per_s": round(frames / collect_s, 1),
        "train_seconds": round(train_s, 2),
        "end_to_end_frames_per_s": round(frames / (collect_s + train_s), 1),
        "hands_finished": hands,
        "learner_chips_per_hand": round(chips / max(hands, 1), 2),
    }


def aec(args) -> dict:
    from torchrl.envs.utils import check_env_specs

    from envs.integrations.torchrl import pettingzoo_env

    env = pettingzoo_env(seed=args.seed)
    check_env_specs(env, seed=args.seed)
    env.rollout(5)
    t = time.perf_counter()
    td = env.rollout(args.aec_steps, break_when_any_done=False)
    s = time.perf_counter() - t
    return {
        "steps": args.aec_steps,
        "steps_per_s": round(args.aec_steps / s, 1),
        "hands_finished": int(td["next", "done"].sum()),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--num-envs", type=int, default=64, help="games in the batch engine (the env's batch size)")
    p.add_argument("--frames-per-batch", type=int, default=4096, help="learner decisions per collected batch")
    p.add_argument("--total-frames", type=int, default=16384)
    p.add_argument("--opponents", default="greedy", help="the other seats: greedy, defensive or random")
    p.add_argument("--no-train", dest="train", action="store_false", help="collect only")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--minibatch", type=int, default=512)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--aec-steps", type=int, default=500, help="steps of the PettingZoo wrapper (0: skip it)")
    p.add_argument("--rules", default="{}", help="tw16 rule options as JSON")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads (0: torch's default)")
    p.add_argument("--smoke", action="store_true", help="tiny sizes: the test's run")
    args = p.parse_args(argv)
    if args.smoke:
        args.num_envs, args.frames_per_batch, args.total_frames, args.epochs = 4, 64, 128, 1
        args.minibatch, args.hidden, args.aec_steps = 64, 32, 50
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    out = {"collector": collect_and_train(args)}
    print(f"collector: {out['collector']}", flush=True)
    if args.aec_steps:
        out["pettingzoo_wrapper"] = aec(args)
        print(f"PettingZooWrapper: {out['pettingzoo_wrapper']}", flush=True)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
