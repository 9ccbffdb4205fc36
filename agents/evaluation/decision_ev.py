"""The value of each candidate action at one decision: chips for the deciding seat over the rest of
the hand, estimated by rollouts, with a 95% interval (``tw16 web``'s "search EVs", ``tw16 review``).

For each of ``k`` rollouts and each candidate, a copy of the game (``Engine.clone``) plays the
candidate and then the hand to its end with Greedy at every seat; the candidate's value is the seat's
chips at the hand's end minus its chips now. Two ways to treat what the seat cannot see:

- ``sampled`` (what the seat could know): before each rollout the opponents' concealed tiles and the
  wall are dealt again consistently with the seat's view (``Engine.resample_hidden``), the same k
  deals for every candidate, so their differences are paired;
- ``oracle`` (what was really there, for reviewing a played log): the true tiles; the rollouts then
  differ only by Greedy's own random choices, so the interval is often zero.

The interval is the t interval of the mean over the k rollouts (``agents.evaluation.variance.mean_ci``).
"""

from __future__ import annotations

import numpy as np

from agents.evaluation.variance import mean_ci
from envs.engine import state as st
from envs.engine.rng import derive_seed
from envs.obs.planes_v0 import PlanesV0

MAX_ROLLOUT_STEPS = 2000  # a hand takes a few hundred steps; a longer rollout is a bug, not a hand


def action_values(eng, actions, k: int = 16, seed: int = 0, mode: str = "sampled", b: int = 0) -> list[dict]:
    """Per candidate in ``actions`` (legal action ids of the seat to decide in game ``b``):
    ``{"action", "ev", "ci95", "values"}``, chips for that seat, in the order given."""
    from agents.greedy import GreedyAgent

    if mode not in ("sampled", "oracle"):
        raise ValueError(f"mode must be 'sampled' or 'oracle', got {mode!r}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= 4096:
        raise ValueError(f"k (rollouts per action) must be an int in 1..4096, got {k!r}")
    actions = [int(a) for a in actions]
    mask = eng.legal_action_mask[b]
    bad = [a for a in actions if not 0 <= a < mask.size or not mask[a]]
    if not actions or bad:
        raise ValueError(f"candidates must be legal actions of the seat to decide, got {actions}")
    seat = int(eng.current_player[b])
    n = len(actions) * k
    sim = eng.clone(b, n)
    if mode == "sampled":
        for j in range(k):
            for i in range(len(actions)):
                sim.resample_hidden(i * k + j, seat, derive_seed(seed, j))
    start = float(eng.scores[b, seat])
    hands0 = sim.s.g[:, st.G_HANDS].copy()
    first = np.repeat(np.array(actions, np.int64), k)
    sim.step_some(first, np.ones(n, np.bool_))
    chips = _rollout(sim, seat, hands0, GreedyAgent(seed)) - start
    out = []
    for i, a in enumerate(actions):
        v = chips[i * k : (i + 1) * k]
        mean, ci = mean_ci(v)
        out.append({"action": a, "ev": mean, "ci95": ci if k > 1 else [mean, mean], "values": v})
    return out


def _rollout(sim, seat: int, hands0: np.ndarray, policy) -> np.ndarray:
    """Play every game of ``sim`` until its hand ends; the seat's chips then, per game."""
    n = sim.batch_size
    enc = PlanesV0(derived=False)
    buf = enc.alloc(n)
    chips = np.full(n, np.nan)
    acts = np.zeros(n, np.int64)
    for _ in range(MAX_ROLLOUT_STEPS):
        done = (sim.s.g[:, st.G_HANDS] != hands0) | sim.s.terminated.astype(bool)
        fresh = done & np.isnan(chips)
        chips[fresh] = sim.scores[fresh, seat]
        live = np.flatnonzero(~done)
        if live.size == 0:
            return chips
        obs = enc.encode(sim, out=buf)[live]
        acts[:] = 0
        acts[live] = policy.act(obs, sim.legal_action_mask[live])
        active = np.zeros(n, np.bool_)
        active[live] = True
        sim.step_some(acts, active)
    raise RuntimeError(f"a rollout ran past {MAX_ROLLOUT_STEPS} steps without ending its hand")
