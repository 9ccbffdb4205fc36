"""Luck-corrected credit for PPO (``TrainConfig.luck_credit``): AIVAT's chance-node correction applied
to the rewards the rollout credits, so that advantages carry less of the draws' luck.

Every tile drawn from the wall has luck terms (``agents.evaluation.luck``): g(before, tile) minus the
mean of g over the tiles still undrawn, which has conditional mean exactly zero given everything that
happened before the draw, whatever the players did. The rollout subtracts, from the reward credited
to seat o's last decision before a draw, ``beta . x_o`` of that draw, x_o = (seat o's own terms, the
sum of the other seats' terms). The return of a decision then omits ``beta . x`` of every later draw:
its conditional mean given the decision's state and action is unchanged (each term's is zero given the
history up to its draw, which includes them), so the policy gradient keeps its expectation and the
critic its target, while the return's variance falls by what the terms explain of the hand's result.

beta is fitted once (``python -m training.luck_credit``) by least squares of a seat's hand result on
its terms summed over the hand, on hands of other walls (Greedy and Defensive, rotated), and stored in
``luck_beta.json`` beside this file with the rules it was fitted under. The units are the engine's
rewards, chips / ``per_tai`` (tai units), which the rollout scales by ``reward_scale`` as it scales the
rewards. Any fixed beta keeps the gradient unbiased; a good one only makes it less noisy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.evaluation.luck import FEATURES, LuckRecorder
from agents.evaluation.variance import controls, fit_beta

BETA_FILE = Path(__file__).with_name("luck_beta.json")
FIT_AGENTS = ("greedy", "defensive", "greedy", "defensive")  # the rollout's rule-based opponents, rotated


def train_rules(options: dict | None = None):
    """The rules PPO plays (``training.ppo.train``): the standard profile, one hand per episode."""
    from envs.rules import Rules

    return Rules.make(**{"profile": "standard", **(options or {}), "episode": "hand"})


def _canonical(rules_dict: dict) -> dict:
    return json.loads(json.dumps(rules_dict, sort_keys=True, default=str))


@dataclass
class LuckBeta:
    """The coefficients of the luck terms, in reward units per unit of luck: ``own`` (K,) on the seat's
    own terms, ``other`` (K,) on the sum of the other three seats' (K = len(FEATURES))."""

    own: np.ndarray
    other: np.ndarray

    def correction(self, luck: np.ndarray) -> np.ndarray:
        """(B, 4) the luck to subtract from each seat's reward, from ``luck`` (B, 4, K): the terms of the
        draws since the last call (``LuckRecorder.take``)."""
        others = luck.sum(axis=1, keepdims=True) - luck
        return luck @ self.own + others @ self.other

    def scaled(self, factor: float) -> LuckBeta:
        return LuckBeta(self.own * factor, self.other * factor)


def load_beta(path, rules_dict: dict) -> LuckBeta:
    """The coefficients in ``path`` (written by ``main``), checked: the luck features they were fitted
    on are today's (``FEATURES``, in order), the values finite, and the rules those the rollout plays
    (``rules_dict``: a fit under other rules prices other luck). Anything else raises ValueError."""
    path = Path(path)
    try:
        d = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"luck coefficients {str(path)!r} cannot be read: {e}") from None
    need = ("features", "own", "other", "rules", "units")
    if not isinstance(d, dict) or any(k not in d for k in need):
        raise ValueError(f"luck coefficients {str(path)!r} lack {[k for k in need if k not in d]}")
    if list(d["features"]) != list(FEATURES):
        raise ValueError(
            f"luck coefficients {str(path)!r} were fitted on features {d['features']}, the rollout computes "
            f"{list(FEATURES)}: fit them again (python -m training.luck_credit)"
        )
    own, other = np.asarray(d["own"], np.float64), np.asarray(d["other"], np.float64)
    if own.shape != (len(FEATURES),) or other.shape != (len(FEATURES),):
        raise ValueError(f"luck coefficients {str(path)!r}: own and other need {len(FEATURES)} values each")
    if not (np.isfinite(own).all() and np.isfinite(other).all()):
        raise ValueError(f"luck coefficients {str(path)!r} hold a value that is not finite")
    if d["units"] != "reward":
        raise ValueError(f"luck coefficients {str(path)!r} are in {d['units']!r}, the rollout needs 'reward'")
    if _canonical(d["rules"]) != _canonical(rules_dict):
        diff = sorted(k for k in set(d["rules"]) | set(rules_dict) if d["rules"].get(k) != rules_dict.get(k))
        raise ValueError(f"luck coefficients {str(path)!r} were fitted under other rules (differing: {diff})")
    return LuckBeta(own, other)


def play_hands(agent_names, hands: int, seed: int, rules, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Hands of ``agent_names`` seated by rotation, on walls from ``seed``: per (hand, seat) the result in
    reward units (chips / per_tai) (n, 4) and the luck summed over the hand (n, 4, K)."""
    from agents import make_agent
    from agents.evaluation.arena import deal_played, hand_outcomes, rotated_seating, run_games
    from envs.engine.api import Engine
    from envs.engine.rng import game_seeds

    if len(agent_names) != 4:
        raise ValueError(f"four agents, got {list(agent_names)}")
    agents = [make_agent(n, seed=seed) for n in agent_names]
    ys, xs = [], []
    done = 0
    while done < hands:
        b = min(batch, hands - done)
        eng = Engine(rules, batch_size=b, record_hands=True)
        deal_played(eng, np.asarray(game_seeds(seed + done, b), np.uint64))
        rec = LuckRecorder(eng)
        seat_agent = rotated_seating(-(-b // 4))[:b]
        run_games(eng, agents, seat_agent, on_step=rec.after_step)
        ys.append(hand_outcomes(eng)["chips"] / rules.stakes.per_tai)
        xs.append(rec.luck.copy())
        done += b
    return np.concatenate(ys), np.concatenate(xs)


def fit(y: np.ndarray, luck: np.ndarray) -> LuckBeta:
    """Least squares of each seat's result on (its own luck, the others' summed), every seat's rows."""
    K = luck.shape[2]
    x = np.stack([controls(luck, luck.sum(axis=1), [s]) for s in range(4)], axis=1)  # (n, 4, 2K)
    beta = fit_beta(y.reshape(-1), x.reshape(-1, 2 * K))
    return LuckBeta(beta[:K], beta[K:])


def variance_left(y: np.ndarray, luck: np.ndarray, beta: LuckBeta) -> float:
    """Var(y - correction) / Var(y) over every (hand, seat) row."""
    z = y - beta.correction(luck)
    return float(z.var() / y.var())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.luck_credit", description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=40000)
    p.add_argument("--seed", type=int, default=880417, help="the fit's walls (not an evaluation's)")
    p.add_argument("--check-hands", type=int, default=8000, help="hands of other walls to measure the fit on")
    p.add_argument("--out", default=str(BETA_FILE))
    a = p.parse_args(argv)
    rules = train_rules()
    t0 = time.perf_counter()
    y, luck = play_hands(FIT_AGENTS, a.hands, a.seed, rules)
    beta = fit(y, luck)
    report = {"fit_variance_left": variance_left(y, luck, beta)}
    if a.check_hands:
        yc, lc = play_hands(FIT_AGENTS, a.check_hands, a.seed + 1_000_003, rules)
        report["check_variance_left"] = variance_left(yc, lc, beta)
    out = {
        "features": list(FEATURES),
        "own": beta.own.tolist(),
        "other": beta.other.tolist(),
        "units": "reward",
        "rules": _canonical(rules.to_dict()),
        "fit": {
            "agents": list(FIT_AGENTS),
            "hands": a.hands,
            "seed": a.seed,
            "check_hands": a.check_hands,
            "command": "python -m training.luck_credit " + " ".join(argv if argv is not None else sys.argv[1:]),
            **{k: round(v, 4) for k, v in report.items()},
            "seconds": round(time.perf_counter() - t0, 1),
        },
    }
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["fit"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
