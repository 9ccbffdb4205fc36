"""Self-play with sb3-contrib's MaskablePPO on tw16, then duplicate play against Random.

    pip install -e ".[sb3]"
    python examples/sb3_maskable_ppo.py                          # 4096 steps of self-play, 2000 duplicate hands
    python examples/sb3_maskable_ppo.py --timesteps 200000 --save runs/sb3/model.zip
    tw16 eval sb3+trusted:runs/sb3/model.zip random sb3:runs/sb3/model.zip random --hands 2000 --seed 1   # the same table
    python examples/sb3_maskable_ppo.py --smoke                  # the test's run (seconds)

The learner holds one seat (drawn per hand) of ``--num-envs`` games in tw16's batch engine
(``envs.integrations.sb3.make_vec_env``: an SB3 ``VecEnv`` whose ``action_masks`` are the engine's
legal actions). Self-play: the three other seats are played by a frozen snapshot of the policy being
trained (``agents.sb3_agent.SB3Agent``, sampling), refreshed every ``--snapshot-every`` steps;
``--opponents random|greedy|defensive`` plays against a fixed agent instead. Rewards: the learner's
chips in tai / 32 (``reward="normalized"``), paid when a hand ends; no discount within a hand.

Then the trained policy (``SB3Agent``, greedy over the legal actions) plays duplicate against Random
(``agents.evaluation.arena.play_duplicate``: the same walls with the seats rotated; two seats each, the line-up
and seeds of ``tw16 eval sb3+trusted:PATH random sb3:PATH random --seed SEED+1``, so that command reproduces
it), and the league table of ``tw16 eval`` is printed: chips per hand with its 95% interval over walls.
The last line is JSON: training steps per second and the duplicate result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # run from a checkout


def train(args):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.sb3_agent import SB3Agent
    from envs.integrations.sb3 import make_vec_env

    if args.threads:
        torch.set_num_threads(args.threads)
    rules = json.loads(args.rules)
    selfplay = args.opponents == "self"
    opponent = SB3Agent(deterministic=False, seed=args.seed, name="snapshot") if selfplay else args.opponents
    env = VecMonitor(make_vec_env(args.num_envs, opponents=opponent, seat=None, reward="normalized", **rules))
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
        verbose=0,
        device="cpu",
    )

    class Snapshots(BaseCallback):
        """Self-play: the opponents act with a copy of the policy, refreshed every ``every`` steps."""

        def __init__(self, every: int):
            super().__init__()
            self.every, self.last = every, 0

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= self.every:
                opponent.set_policy(self.model, snapshot=True)
                self.last = self.num_timesteps
            return True

    callback = None
    if selfplay:
        opponent.set_policy(model, snapshot=True)
        callback = Snapshots(args.snapshot_every)
    t0 = time.perf_counter()
    model.learn(args.timesteps, callback=callback)
    seconds = time.perf_counter() - t0
    if args.save:
        model.save(args.save)
        print(f"saved {args.save} (tw16 eval sb3+trusted:{args.save} random sb3:{args.save} random)")
    return model, {
        "timesteps": model.num_timesteps,
        "seconds": round(seconds, 2),
        "steps_per_s": round(model.num_timesteps / seconds, 1),
        "hands_finished": int(env.episode_count),
    }


def evaluate(model, args) -> dict:
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate
    from agents.evaluation.league import jsonable, league_table
    from agents.sb3_agent import SB3Agent
    from envs.rules import Rules

    agent = SB3Agent(model, name="sb3")
    rules = Rules.make(**json.loads(args.rules)) if args.rules != "{}" else Rules()
    n_walls = max(2, -(-args.eval_hands // 4))
    t0 = time.perf_counter()
    # the line-up of tw16 eval sb3+trusted:PATH random sb3:PATH random --seed S: the same hands, the same result
    seats = [agent, make_agent("random", seed=args.seed + 1), agent, make_agent("random", seed=args.seed + 1)]
    res = play_duplicate(seats, n_walls, rules, seed=args.seed + 1)
    res["seconds"] = round(time.perf_counter() - t0, 2)
    print(league_table(res))
    return jsonable(res)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--timesteps", type=int, default=4096, help="learner decisions to train on")
    p.add_argument("--num-envs", type=int, default=16, help="games stepped together in the batch engine")
    p.add_argument("--n-steps", type=int, default=64, help="rollout length per game (batch = num_envs x n_steps)")
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--opponents", default="self", help="self (snapshots of the policy), random, greedy or defensive")
    p.add_argument("--snapshot-every", type=int, default=1024, help="self-play: refresh the opponents' copy (steps)")
    p.add_argument("--eval-hands", type=int, default=2000, help="duplicate hands against Random (0: none)")
    p.add_argument("--rules", default="{}", help="tw16 rule options as JSON, e.g. '{\"multi_win\": true}'")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads (0: torch's default)")
    p.add_argument("--save", default=None, help="save the model here (a .zip for tw16 eval sb3+trusted:PATH)")
    p.add_argument("--smoke", action="store_true", help="tiny sizes: the test's run")
    args = p.parse_args(argv)
    if args.smoke:
        args.timesteps, args.num_envs, args.n_steps, args.batch_size, args.epochs = 256, 4, 32, 64, 1
        args.hidden, args.snapshot_every, args.eval_hands = 64, 128, 8
    model, fit = train(args)
    print(f"trained {fit['timesteps']} steps in {fit['seconds']} s: {fit['steps_per_s']} steps/s", flush=True)
    out = {"train": fit}
    if args.eval_hands:
        res = evaluate(model, args)
        a = res["agents"]["sb3"]
        out["duplicate_vs_random"] = {
            "hands": res["hands"],
            "chips_per_hand": round(a["chips_per_hand"], 3),
            "ci95": [round(x, 3) for x in a["ci95"]],
            "win_rate": round(a["win_rate"], 4),
            "deal_in_rate": round(a["deal_in_rate"], 4),
            "seconds": res["seconds"],
        }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
