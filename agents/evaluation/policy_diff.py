"""How much better a candidate policy B plays than a base policy A, from B's games and paired
rollouts at the decisions where the two disagree (the performance-difference identity).

For a seat's policy in a fixed field (the other three seats' agents), with both A and B deterministic,

    J(B) - J(A) = E over B's hands of  sum over B's decisions s_t of  Q_A(s_t, B(s_t)) - Q_A(s_t, A(s_t))

where Q_A(s, x) is the seat's expected chips of the hand when it plays x at the full state s and then
plays A (the field playing as itself). Only the decisions where A and B choose differently add
anything. Each Q_A is estimated by rollouts from the true state: every hand, meld and claim kept, and
only the order of the undrawn wall dealt again (``Engine.reshuffle_wall``). Given everything that
happened, the undrawn wall is uniform over its orders, so these rollouts are exact samples of the
hand's continuation and the estimate is unbiased. The evaluator reads the hidden state; the agents do
not. The two actions of a disagreement are rolled out on the same wall orders (common random numbers),
so their difference has little of the draws' luck in it. That is why it is much narrower than
comparing two duplicate runs, in which a single different discard sends the whole hand another way.

B plays duplicate walls (four seatings, B in slot 0, as ``agents.evaluation.paired`` does). The figure
of a wall is the sum over its four hands of the disagreements' rollout differences, divided by 4, and
the interval is a t interval over walls. The agents must be deterministic (the base's choice at a state
is one action) and must not read the wall (none does: ``agents.search`` deals it again).

    python -m agents.evaluation.policy_diff neural:BC.pt neural:PPO.pt --field greedy --hands 20000 --seed S
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from agents.evaluation.arena import (
    deal_played,
    duplicate_wall_seeds,
    hand_outcomes,
    rotated_seating,
    run_games,
    wall_batches,
    walls_for,
)
from agents.evaluation.luck import N_FEATURES, LuckRecorder
from agents.evaluation.variance import corrected_row, mean_ci
from envs.engine.actions import CHI, DISCARD, SELF_KONG, WIN
from envs.engine.api import Engine
from envs.engine.rng import derive_seed
from envs.rules import Rules

CHUNK = 512  # disagreement states rolled out together (their copies are one engine batch)
KINDS = ("discard", "claim", "win", "kong", "other")  # what a disagreement was about (``kind_of``)


def kind_of(a: int, b: int) -> str:
    """The kind of a disagreement between actions ``a`` and ``b``: which discard (both discards), whether
    to claim a discard (chi / pon / kong against pass), whether to win, whether to kong, or other."""
    pair = {a, b}
    if any(x == WIN for x in pair):
        return "win"
    if all(DISCARD <= x < CHI for x in pair):
        return "discard"
    if any(CHI <= x < SELF_KONG for x in pair):
        return "claim"
    if any(SELF_KONG <= x < WIN for x in pair):
        return "kong"
    return "other"


class Disagreements:
    """The states where the candidate's decision differs from the base's, copied as they were when it
    decided (``on_decision`` of ``run_games``, before the step): ``games``, ``seats``, ``base`` and
    ``cand`` actions, and the states in engines of ``CHUNK`` games."""

    def __init__(self, eng: Engine, base, seat_agent: np.ndarray):
        self.eng, self.base, self.seat_agent = eng, base, seat_agent
        self.games, self.seats, self.a, self.b = [], [], [], []
        self.store: list[Engine] = []
        self.decisions = 0

    def on_decision(self, live, cur, obs, mask, actions) -> None:
        mine = np.flatnonzero(self.seat_agent[live, cur] == 0)
        if not mine.size:
            return
        self.decisions += mine.size
        a = np.asarray(self.base.act(obs[mine], mask[mine]), np.int64)
        differ = np.flatnonzero(a != actions[mine])
        for k in differ:
            i = len(self.games)
            if i % CHUNK == 0:
                self.store.append(Engine(self.eng.rules, batch_size=CHUNK, record_hands=True))
            self.store[-1].set_game(i % CHUNK, self.eng, int(live[mine[k]]))
            self.games.append(int(live[mine[k]]))
            self.seats.append(int(cur[mine[k]]))
            self.a.append(int(a[k]))
            self.b.append(int(actions[mine[k]]))


def rollout_differences(found: Disagreements, agents, seat_agent, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per disagreement (n of them): the mean over ``k`` wall orders of the seat's chips after the
    candidate's action minus after the base's, each continued by ``agents`` (the base in slot 0, then
    the field), and the same difference of the rollouts' luck terms (n, 2 x N_FEATURES: the seat's own,
    then the other seats'; ``agents.evaluation.luck``), whose mean is zero whatever was played."""
    n = len(found.games)
    out, luck = np.zeros(n), np.zeros((n, 2 * N_FEATURES))
    for c0 in range(0, n, CHUNK):
        idx = np.arange(c0, min(n, c0 + CHUNK))
        src = found.store[c0 // CHUNK]
        m = len(idx)
        roll = Engine(found.eng.rules, batch_size=2 * k * m, record_hands=True)
        first = np.zeros(2 * k * m, np.int64)
        # copy c = (i, j, side): disagreement i, wall order j, side 0 the base's action, 1 the candidate's
        for i, d in enumerate(idx):
            for j in range(k):
                s = derive_seed(seed, int(d), j)
                for side, act in ((0, found.a[d]), (1, found.b[d])):
                    c = (i * k + j) * 2 + side
                    roll.set_game(c, src, int(d - c0))
                    roll.reshuffle_wall(c, s)
                    first[c] = act
        roll.take_hands()
        rec = LuckRecorder(roll)  # the wall as reshuffled: every later draw is uniform over it
        roll.step(first)
        rec.after_step()
        rows = np.repeat(np.asarray(found.games)[idx], 2 * k)
        run_games(roll, agents, seat_agent[rows], on_step=rec.after_step)
        chips = hand_outcomes(roll)["chips"]
        seat = np.repeat(np.asarray(found.seats)[idx], 2 * k)
        at = np.arange(2 * k * m)
        mine = chips[at, seat].reshape(m, k, 2)
        own = rec.luck[at, seat]
        x = np.concatenate([own, rec.luck.sum(axis=1) - own], axis=1).reshape(m, k, 2, -1)
        out[idx] = (mine[:, :, 1] - mine[:, :, 0]).mean(axis=1)
        luck[idx] = (x[:, :, 1] - x[:, :, 0]).mean(axis=1)
    return out, luck


def policy_difference(base_spec, cand_spec, field, hands: int, seed: int = 0, k: int = 8, rules=None, batch_walls=64):
    """J(cand) - J(base) in chips per hand against ``field`` (three agent specs), estimated from the
    candidate's duplicate hands and ``k`` paired rollouts per disagreement; with the candidate's own
    chips per hand beside it."""
    from agents import make_agent

    if len(field) != 3:
        raise ValueError(f"the field is three agents, got {len(field)}: {field}")
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"k (rollouts per action) must be a positive integer, got {k!r}")
    rules = (rules or Rules()).replace(episode="hand")
    base, cand = make_agent(base_spec, seed=seed), make_agent(cand_spec, seed=seed)
    others = [make_agent(s, seed=seed) for s in field]
    derived = any(getattr(a, "derived", False) for a in (base, cand, *others))
    walls = walls_for(hands)
    wall_seeds = duplicate_wall_seeds(seed, walls)
    per_wall, chips, found_n, decisions = np.zeros(walls), np.zeros(walls), 0, 0
    luck = np.zeros((walls, 2 * N_FEATURES))
    by_kind = {kind: np.zeros(walls) for kind in KINDS}
    counts = dict.fromkeys(KINDS, 0)
    t0 = time.time()
    for s0, s1 in wall_batches(walls, batch_walls):
        nw = s1 - s0
        for a in (base, cand, *others):
            a.reset(derive_seed(seed, s0))
        eng = Engine(rules, batch_size=4 * nw, record_hands=True)
        seat_agent = rotated_seating(nw)
        deal_played(eng, np.repeat(wall_seeds[s0:s1], 4))
        found = Disagreements(eng, base, seat_agent)
        run_games(eng, [cand, *others], seat_agent, on_decision=found.on_decision, derived=derived)
        out = hand_outcomes(eng)["chips"]
        at = np.argmax(seat_agent == 0, axis=1)
        chips[s0:s1] = out[np.arange(4 * nw), at].reshape(nw, 4).sum(axis=1) / 4
        diff, x = rollout_differences(found, [base, *others], seat_agent, k, derive_seed(seed, s0, 1))
        games = np.asarray(found.games, np.int64) // 4  # the wall of each disagreement, in this batch
        np.add.at(per_wall, s0 + games, diff / 4)
        np.add.at(luck, s0 + games, x / 4)
        kinds = np.array([kind_of(a, b) for a, b in zip(found.a, found.b)])
        for kind in KINDS:
            sel = kinds == kind
            np.add.at(by_kind[kind], s0 + games[sel], diff[sel] / 4)
            counts[kind] += int(sel.sum())
        found_n += len(found.games)
        decisions += found.decisions
    m, ci = mean_ci(per_wall)
    cm, cci = mean_ci(chips)
    vr = corrected_row(per_wall, luck)  # the rollouts' luck, cross-fitted by wall parity
    return {
        "base": base_spec,
        "candidate": cand_spec,
        "field": list(field),
        "walls": walls,
        "hands": 4 * walls,
        "seed": seed,
        "k": k,
        "difference": {"chips_per_hand": m, "ci95": ci},
        "difference_vr": {"chips_per_hand": vr["chips_per_hand"], "ci95": vr["ci95"], "ci_narrower": vr["ci_narrower"]},
        "candidate_chips": {"chips_per_hand": cm, "ci95": cci},
        "disagreements": found_n,
        # the difference split by what the disagreements were about (the rows sum to "difference")
        "by_kind": {
            kind: {"count": counts[kind], **dict(zip(("chips_per_hand", "ci95"), mean_ci(by_kind[kind])))}
            for kind in KINDS
        },
        "decisions": decisions,
        "seconds": round(time.time() - t0, 1),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.policy_diff", description=__doc__.splitlines()[0])
    p.add_argument("base", help="the base policy A (deterministic)")
    p.add_argument("candidate", help="the candidate policy B (deterministic)")
    p.add_argument("--field", nargs="+", default=["greedy"], help="the three opponents (one name: three copies)")
    p.add_argument("--hands", type=int, default=8000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--k", type=int, default=8, help="wall orders rolled out per action of a disagreement")
    a = p.parse_args(argv)
    field = a.field * 3 if len(a.field) == 1 else a.field
    print(json.dumps(policy_difference(a.base, a.candidate, field, a.hands, a.seed, a.k), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
