"""Guarded: a base agent (the shipped network by default) that folds where Defensive folds.

Why (issue 26): split by situation, the shipped network's discards that differ from Defensive's are
nearly all a choice between two discards that keep the shanten (6,707 of 6,842 disagreements on
4,000 hands), worth about zero together; but where Defensive folds (its discard raises the shanten)
the network attacks on, and those 85 decisions cost it -0.12 [-0.23, -0.01] chips a hand against
three Defensive (``agents.evaluation.policy_diff``, docs/evaluation.md). Confirmed on fresh walls:
this agent minus the network, +0.08 [+0.02, +0.13] over 20,000 hands (agents/checkpoints/README.md).

The rule, per decision: where the base's action and Defensive's differ and Defensive's is a discard
that keeps no tile-efficient shape (efficiency plane ``E_UKEIRE_REL`` 0 there: it raises the shanten
or leaves no improving tile), play Defensive's discard; otherwise the base's. Claims, kongs, wins and
the efficient discards stay the base's. Both agents read the same observation, so it runs behind
every front end as the base does.

    make_agent("guarded")                  # the shipped network, guarded
    make_agent("guarded:neural:runs/x.pt") # a checkpoint, guarded
    make_agent("guarded:greedy")           # Greedy with Defensive's full folds only
"""

from __future__ import annotations

import numpy as np

from agents.base import check_batch
from agents.efficiency import E_UKEIRE_REL, efficiency_planes
from agents.greedy import DefensiveAgent
from envs.engine.actions import CHI, DISCARD


def defensive_folds(obs: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """(B,) bool: which of Defensive's ``actions`` on ``obs`` are folds, discards with efficiency plane
    ``E_UKEIRE_REL`` 0 (the discard raises the shanten or keeps no improving tile)."""
    actions = np.asarray(actions, np.int64)
    out = np.zeros(actions.shape[0], bool)
    idx = np.flatnonzero((actions >= DISCARD) & (actions < CHI))
    if idx.size:
        rel = efficiency_planes(obs[idx])[:, E_UKEIRE_REL]
        out[idx] = rel[np.arange(idx.size), actions[idx] - DISCARD] == 0
    return out


class GuardedAgent:
    """``base``'s decisions, except Defensive's discard wherever Defensive folds (module docstring)."""

    def __init__(self, base, seed: int | None = 0, name: str | None = None):
        for method in ("act", "reset"):
            if not callable(getattr(base, method, None)):
                raise TypeError(f"guarded: the base agent {base!r} has no {method}()")
        self.base = base
        self.defensive = DefensiveAgent(seed)
        self.name = name or f"guarded:{getattr(base, 'name', 'base')}"
        self.derived = bool(getattr(base, "derived", False))  # the base's encoder needs (Defensive reads either)

    def reset(self, seed: int | None = None) -> None:
        self.base.reset(seed)
        self.defensive.reset(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        a = np.array(self.base.act(obs, mask), np.int64)  # a copy: the base may keep its array
        d = self.defensive.act(obs, mask)
        differ = np.flatnonzero(a != d)
        if differ.size:
            take = differ[defensive_folds(obs[differ], d[differ])]
            a[take] = d[take]
        return a
