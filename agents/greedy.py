"""Rule-based baselines: Greedy (tile efficiency) and Defensive (Greedy plus expected-value defence).

Greedy, per decision:
- wins whenever it can; declares ready (報聽) whenever the rules offer it;
- discards: lowest shanten first, then the most unseen tiles that would lower it (受入, unseen =
  4 minus every copy this seat can see), then the tile with the fewest neighbours in hand;
- claims (chi / pon / exposed kong) only when the best hand after the claim has a lower shanten than
  now; self kongs when they do not raise the shanten.

Defensive is Greedy (same wins, claims, kongs and efficiency) plus a defence on its own discards that
weighs each legal discard's expected value against Greedy's choice:

- P(opponent o is ready) = ``READY_P[its melds, tiles_left // 16]`` (0.56 for a concealed hand with
  under 16 tiles left, 0.94 for four melds), measured in Greedy self-play (declared-ready flags are
  off in every default profile, so the visible melds and the wall are what tell).
- P(o wins on tile d | ready) = min(``danger_slope`` x danger, ``danger_cap``), danger from
  ``tile_danger`` (0 for a tile o let pass since its hand last changed: these opponents always win
  when they can, and it was measured exactly 0; the number of ways a hidden hand could wait on it
  otherwise, halved for o's own discards); slope 0.0012 and cap 0.13 fit the measured hit rates
  (1% at danger <20, 4% at 20-40, 7% at 40-60, 10% at 60-80, 11-14% above).
- p(d) = ``risk`` x (1 - prod_o (1 - P(ready) P(win on d | ready))), the chance d deals in.
- W(d) = Greedy's chance to win the hand after discarding d: a logistic in the shanten, ukeire and
  tiles left (``WIN_LOGIT``), fitted on the same self-play (41% at shanten 0, 25% at 1, 21% at 2).
- gain(d) = p(g)(L + W(g)G) - p(d)(L + W(d)G) - max(0, W(g) - W(d))G against Greedy's tile g,
  G = ``win_value`` (101: a win's 76 chips plus the 25 a non-winner loses on average), L =
  ``deal_in_cost`` (50; a deal-in pays 47 on average); a discard of worse shanten loses at least
  ``shanten_floor`` (0.3) of W(g).
- Defensive plays the discard of largest gain if that gain exceeds the threshold: ``tie_eps`` (0.1
  chips) for a discard as efficient as Greedy's (same shanten and ukeire: danger breaks Greedy's
  ties, at any time, against every opponent weighted by how ready it looks), ``margin`` (3 chips)
  for a less efficient one (folding or half-folding only when it pays by 3 chips by this estimate).
  With nobody looking ready every p is 0 and Defensive plays exactly like Greedy.

How these parameters were measured and chosen, and what the defence is worth: docs/agents.md,
"Tuning history".
All decisions are deterministic given the observation (the seed only matters for interface parity).
"""

from __future__ import annotations

import numpy as np

from agents.base import check_batch
from agents.features import Features, decode
from envs._core import act_kernel
from envs.validate import policy_seed

# The agent's parameters and fitted tables, passed to act_kernel (envs._core) with every call: the
# core holds no tuning of its own.
# defence parameters, in the order act_kernel (envs._core) reads them (module docstring); risk 0 = Greedy
DEFENCE_DEFAULTS = {
    "risk": 1.0,
    "win_value": 101.0,
    "deal_in_cost": 50.0,
    "margin": 3.0,
    "tie_eps": 0.1,
    "danger_slope": 0.0012,
    "danger_cap": 0.13,
    "shanten_floor": 0.3,
}
# Greedy's chance to win the hand after a discard, by the shanten it leaves (0..4+): logit = a + b*log1p(ukeire)
# + c*tiles_left/64, fitted on Greedy self-play (3,000 hands, seed 1: python -m agents.evaluation.defence_tables)
WIN_LOGIT = np.array(
    [
        [-3.924, 1.336, 2.744],
        [-5.248, 0.749, 3.718],
        [-5.927, 0.435, 4.587],
        [-5.85, 0.216, 4.617],
        [-5.134, 0.035, 3.869],
    ]
)
# P(an opponent is ready) by its melds (0..4+) and tiles_left // 16 (0..3+), same self-play
READY_P = np.array(
    [
        [0.56, 0.21, 0.04, 0.0],
        [0.53, 0.31, 0.1, 0.01],
        [0.68, 0.44, 0.23, 0.06],
        [0.78, 0.68, 0.46, 0.25],
        [0.94, 0.93, 0.88, 0.85],
    ]
)


class GreedyAgent:
    """Tile efficiency; see the module docstring."""

    name = "greedy"

    def __init__(self, seed: int | None = 0):
        self.defence = np.zeros(len(DEFENCE_DEFAULTS), np.float64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.seed = policy_seed(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        return rule_actions(decode(obs), mask, self.defence)


def defence_array(**params: float) -> np.ndarray:
    """Defensive's parameters as ``act_kernel`` reads them (``DEFENCE_DEFAULTS``' order), the defaults
    updated by ``params``; ``risk=0`` is Greedy."""
    return np.array([{**DEFENCE_DEFAULTS, **params}[k] for k in DEFENCE_DEFAULTS], np.float64)


def rule_actions(f: Features, mask: np.ndarray, defence: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The rule's action (int64 (B,)) for each row of decoded observations ``f`` and legal ``mask``:
    Greedy's for a zero ``defence``, Defensive's for ``defence_array()`` (the one call of the core's
    ``act_kernel``, with the fitted tables); written into ``out`` when given (tests pass a sentinel
    fill, so a row the kernel skipped shows)."""
    out = np.empty(mask.shape[0], np.int64) if out is None else out
    act_kernel(
        f.hand,
        f.n_melds,
        f.unseen,
        f.opp_melds,
        f.opp_ready,
        f.opp_disc,
        f.opp_passed,
        f.tiles_left,
        f.claim_tile,
        mask,
        defence,
        WIN_LOGIT,
        READY_P,
        out,
    )
    return out


class DefensiveAgent(GreedyAgent):
    """Greedy plus expected-value defence; see the module docstring."""

    name = "defensive"

    def __init__(self, seed: int | None = 0, **params: float):
        super().__init__(seed)
        unknown = set(params) - set(DEFENCE_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown defence threshold(s) {sorted(unknown)}; known: {list(DEFENCE_DEFAULTS)}")
        params = {**DEFENCE_DEFAULTS, **params}
        if params["risk"] <= 0:
            raise ValueError("risk must be > 0 (risk 0 is Greedy)")
        self.defence = defence_array(**params)
