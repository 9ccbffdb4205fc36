"""The measurements of docs/evaluation.md: how much narrower the variance-reduced interval is, on an
A/A match (one policy against itself: the true value is 0) and on an A/B match (two agents: the
corrected mean must agree with the plain one).

    python -m agents.evaluation.vr_study aa --walls 1000     # four sampling Neural agents, named A B A B
    python -m agents.evaluation.vr_study ab --walls 1000 --agents greedy defensive greedy defensive
    python -m agents.evaluation.vr_study aa --walls 2000 --vr aivat   # with the AIVAT term (agents.evaluation.aivat)
    python -m agents.evaluation.vr_study aa --walls 200 --repeats 20 --eval-set ''   # coverage of 0, seeds 0..19
    python -m agents.evaluation.vr_study residual --walls 600 --seed 3  # what the correction leaves
    python -m agents.evaluation.vr_study residual --walls 300 --seed 3 --vr aivat  # ... the AIVAT term alone
    python -m agents.evaluation.vr_study ceiling --walls 2000          # what knowing the wins in advance would buy
    python -m agents.evaluation.vr_study ceiling --walls 2000 --aa     # the same on the A/A match

An A/A match needs agents that play differently on the same wall: copies of a deterministic agent
(Greedy) play the four seatings of a wall identically, so each agent's result is exactly 0 there.
``SaltedAgent`` gives each copy of a sampling agent its own random stream (``play_walls`` resets
every agent to the same seed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from agents import make_agent
from agents.evaluation.aivat import VR_CHOICES, model_for
from envs.engine.rng import derive_seed


class SaltedAgent:
    """``agent`` under another ``name``, reset to a seed mixed with ``salt``: copies of one sampling
    agent draw independent streams."""

    def __init__(self, agent, name: str, salt: int):
        self.agent, self.name, self.salt = agent, name, int(salt)
        self.derived = getattr(agent, "derived", False)

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(derive_seed(seed or 0, self.salt))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.agent.act(obs, mask)


def aa_agents(spec: str = "neural-sample") -> list:
    """Four copies of one sampling policy, named A B A B, each with its own stream."""
    if spec == "neural-sample":
        import torch

        from agents.neural import CHECKPOINTS, NeuralAgent

        torch.set_num_threads(1)  # small batches: threads cost more than they give on a shared machine
        # ppo_v1.pt: the network docs/evaluation.md's figures were measured with
        make = lambda: NeuralAgent(CHECKPOINTS / "ppo_v1.pt", sample=True)  # noqa: E731
    else:
        make = lambda: make_agent(spec)  # noqa: E731
    return [SaltedAgent(make(), "AB"[i % 2], i) for i in range(4)]


def run(agents, walls: int, seed: int, eval_set: str | None, vr: str = "luck") -> dict:
    """One match with ``vr`` ("luck": the luck terms; "aivat" / "aivat1": with the AIVAT term too, beside the
    figures of the same games corrected by the luck terms only (``luck_only``) and by the AIVAT term
    only (``aivat_only``: chips minus the agent's own AIVAT terms, no fitted beta))."""
    from agents.evaluation.arena import play_duplicate
    from agents.evaluation.eval_seeds import load
    from agents.evaluation.variance import corrected_rows, mean_ci

    t0 = time.time()
    res = play_duplicate(agents, walls, seed=seed, vr=vr, wall_seeds=load(eval_set)[:walls] if eval_set else None)
    rows = {
        n: {
            "plain": [r["chips_per_hand"], *r["ci95"]],
            "vr": [r["vr"]["chips_per_hand"], *r["vr"]["ci95"]],
            "ci_narrower": r["vr"]["ci_narrower"],
        }
        for n, r in res["agents"].items()
    }
    if model_for(vr):
        luck_only = corrected_rows(
            res["per_wall"], res["names"], res["luck_own"][..., :-1], res["luck_total"][..., :-1]
        )
        for n, row in rows.items():
            r = luck_only[n]
            row["luck_only"], row["luck_only_narrower"] = [r["chips_per_hand"], *r["ci95"]], r["ci_narrower"]
            cols = [i for i, m in enumerate(res["names"]) if m == n]
            y = res["per_wall"][:, cols].sum(axis=1) / (4 * len(cols))
            z = y - res["luck_own"][:, cols, -1].sum(axis=1) / (4 * len(cols))
            m, ci = mean_ci(z)
            row["aivat_only"] = [m, *ci]
            row["aivat_only_narrower"] = (row["plain"][2] - row["plain"][1]) / (ci[1] - ci[0])
    return {"walls": walls, "hands": res["hands"], "vr": vr, "seconds": round(time.time() - t0, 1), "agents": rows}


def coverage(policy: str, walls: int, seeds, vr: str = "luck") -> dict:
    """A/A matches on several seeds: how often each interval covers 0 (agent A), and the CI ratios."""
    kinds = ("plain", "vr", "luck_only", "aivat_only") if model_for(vr) else ("plain", "vr")
    hits = dict.fromkeys(kinds, 0)
    ratios, means, others = [], {k: [] for k in kinds}, {}
    for seed in seeds:
        row = run(aa_agents(policy), walls, seed, None, vr)["agents"]["A"]
        for k in hits:
            hits[k] += row[k][1] < 0 < row[k][2]
            means[k].append(row[k][0])
        ratios.append(row["ci_narrower"])
        for k in kinds[2:]:
            others.setdefault(k, []).append(row[k + "_narrower"])
    n = len(ratios)
    return {
        "matches": n,
        "walls": walls,
        "covers_0": hits,
        "mean_of_means": {k: float(np.mean(v)) for k, v in means.items()},
        "sd_of_means": {k: float(np.std(v, ddof=1)) for k, v in means.items()},
        "ci_narrower_mean": float(np.mean(ratios)),
        **{f"{k}_narrower_mean": float(np.mean(v)) for k, v in others.items()},
    }


def _recorded(agents, wall_seeds, vr: str = "luck"):
    """Duplicate play of ``wall_seeds`` with the luck recorded, game by game: the hands' outcomes
    (``hand_outcomes``), the luck (4 x walls, 4 seats, K; with the AIVAT term last for ``vr`` "aivat"
    or "aivat1") and ``mine(a)``, which takes agent 0's seat out of any (4 x walls, 4, ...) array."""
    from agents.evaluation.aivat import seat_policies
    from agents.evaluation.arena import deal_played, hand_outcomes, rotated_seating, run_games, value_model
    from agents.evaluation.luck import LuckRecorder
    from envs.engine.api import Engine
    from envs.rules import Rules

    walls = len(wall_seeds)
    eng = Engine(Rules().replace(episode="hand"), batch_size=4 * walls, record_hands=True)
    seat_agent = rotated_seating(walls)
    deal_played(eng, np.repeat(np.asarray(wall_seeds, np.uint64), 4))
    rec = LuckRecorder(eng, value=value_model(vr), policies=seat_policies(agents, seat_agent))
    run_games(eng, agents, seat_agent, on_step=rec.after_step)
    at = np.argmax(seat_agent == 0, axis=1)

    def mine(a):
        return np.take_along_axis(a, at.reshape(-1, *[1] * (a.ndim - 1)), axis=1)[:, 0]

    return hand_outcomes(eng), rec.luck, mine


def residual(specs, walls: int, seed: int, vr: str = "luck") -> dict:
    """Per hand of agent 0: chips and chips corrected (the luck terms: beta fitted per hand,
    cross-fitted by wall parity; ``vr`` "aivat"/"aivat1": chips minus its own AIVAT terms, no fit),
    by what the hand was for it: the share of the residual sum of squares each kind holds."""
    from agents.evaluation.arena import duplicate_wall_seeds
    from agents.evaluation.variance import cross_fit

    out, luck, mine = _recorded([make_agent(s, seed=seed) for s in specs], duplicate_wall_seeds(seed, walls), vr)
    y = mine(out["chips"])
    own = mine(luck)
    if model_for(vr):
        z = y - own[:, -1]
    else:
        x = np.concatenate([own, luck.sum(axis=1) - own], axis=1)
        z, _ = cross_fit(y, x, fold=np.arange(4 * walls) // 4 % 2)  # the four seatings of a wall in one fold
    won, sd, din = mine(out["won"]), mine(out["self_drawn"]), mine(out["dealt_in"])
    kinds = {"self_draw": sd, "discard_win": won & ~sd, "deal_in": din, "other": ~won & ~din}
    ss = float((z**2).sum())
    return {
        "hands": int(y.size),
        "sd_chips": float(y.std()),
        "sd_corrected": float(z.std()),
        "kinds": {
            k: {
                "share_of_hands": float(m.mean()),
                "chips": float(y[m].mean()),
                "corrected": float(z[m].mean()),
                "share_of_residual_ss": float((z[m] ** 2).sum() / ss),
            }
            for k, m in kinds.items()
        },
    }


def ceiling(agents, walls: int, seed: int, eval_set: str | None) -> dict:
    """A diagnostic, biased by construction (never an estimator): the luck terms plus indicators of
    each hand's realized events (who drew a win; who dealt in and who won on a discard: known only
    after the hand), cross-fitted like the luck terms, for the agent in slot 0. How narrow the
    interval would be if the terms predicted these events perfectly (not the chips they are worth):
    the most that better predictions of the events could buy."""
    from agents.evaluation.arena import duplicate_wall_seeds
    from agents.evaluation.eval_seeds import load
    from agents.evaluation.variance import corrected_row

    for a in agents:
        a.reset(seed)
    out, luck, mine = _recorded(agents, load(eval_set)[:walls] if eval_set else duplicate_wall_seeds(seed, walls))
    events = {
        "self_draw": out["self_drawn"],
        "deal_in": out["dealt_in"],
        "discard_win": out["won"] & ~out["self_drawn"],
    }
    known = {
        "luck terms only": [],
        "+ who drew a win": ["self_draw"],
        "+ who dealt in, who won on a discard": ["deal_in", "discard_win"],
        "+ all three": list(events),
    }
    y = mine(out["chips"]).reshape(walls, 4).sum(axis=1) / 4
    rows = {}
    for name, which in known.items():
        a = np.concatenate([luck, *(events[e].astype(np.float64)[:, :, None] for e in which)], axis=2)
        own = mine(a)  # agent 0's own terms and the other seats', summed over each wall's four games
        x = np.concatenate([own, a.sum(axis=1) - own], axis=1).reshape(walls, 4, -1).sum(axis=1)
        r = corrected_row(y, x)
        rows[name] = {"chips_per_hand": r["chips_per_hand"], "ci95": r["ci95"], "ci_narrower": r["ci_narrower"]}
    return {"agent": getattr(agents[0], "name", "?"), "walls": walls, "hands": 4 * walls, "rows": rows}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.vr_study", description=__doc__.splitlines()[0])
    p.add_argument("match", choices=("aa", "ab", "residual", "ceiling"))
    p.add_argument("--walls", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-set", default="v1", help="published walls ('' for walls from --seed)")
    p.add_argument(
        "--agents", nargs=4, default=["greedy", "defensive", "greedy", "defensive"], help="ab: the four agents"
    )
    p.add_argument("--policy", default="neural-sample", help="aa: the policy (neural-sample, random, ...)")
    p.add_argument("--aa", action="store_true", help="ceiling: on the A/A match of --policy")
    p.add_argument(
        "--repeats", type=int, default=1, help="matches on seeds --seed, --seed + 1, ... (walls from the seeds)"
    )
    p.add_argument(
        "--vr",
        choices=VR_CHOICES,
        default="luck",
        help="aa/ab: the luck terms, or with the AIVAT term too (aivat: the default V; aivatN: version N); "
        "residual: the AIVAT term alone",
    )
    a = p.parse_args(argv)
    if a.match == "residual":
        print(json.dumps(residual(a.agents, a.walls, a.seed, a.vr), indent=1))
        return 0
    if a.match == "ceiling":
        agents = aa_agents(a.policy) if a.aa else [make_agent(s, seed=a.seed) for s in a.agents]
        print(json.dumps(ceiling(agents, a.walls, a.seed, a.eval_set or None), indent=1))
        return 0
    if a.repeats > 1:
        print(json.dumps(coverage(a.policy, a.walls, range(a.seed, a.seed + a.repeats), a.vr), indent=1))
        return 0
    agents = aa_agents(a.policy) if a.match == "aa" else [make_agent(s, seed=a.seed) for s in a.agents]
    print(json.dumps(run(agents, a.walls, a.seed, a.eval_set or None, a.vr), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
