"""The agent's view of a decision: its top actions with probabilities and its value estimate (a
network), and on request the search EVs of those actions (``agents.evaluation.decision_ev``). Used by
``tw16 web`` ("show the agent's view") and ``tw16 review`` (every decision of a seat in a log).
"""

from __future__ import annotations

import numpy as np

from agents.evaluation.review import policy_of
from envs.engine.actions import action_name

DEFAULT_REWARD_SCALE = 0.1  # training.config's reward_scale: the value head's unit is tai x this


def top_actions(pol: dict, mask: np.ndarray, k: int = 5) -> list[dict]:
    """The agent's ``k`` most probable legal actions (or its one choice), best first."""
    if pol["probs"] is None:
        return [{"action": pol["choice"], "name": action_name(pol["choice"]), "p": None}]
    legal = np.flatnonzero(mask)
    order = legal[np.argsort(-pol["probs"][legal], kind="stable")][:k]
    return [{"action": int(a), "name": action_name(int(a)), "p": float(pol["probs"][a])} for a in order]


def value_chips(value: float | None, per_tai: int) -> float | None:
    """The value head's estimate in chips (its unit is tai x ``DEFAULT_REWARD_SCALE``)."""
    return None if value is None else value / DEFAULT_REWARD_SCALE * per_tai


def agent_view(agent, eng, seat: int, per_tai: int, k: int = 5) -> dict:
    """What the page shows: the agent's name, its top actions, its value estimate."""
    pol = policy_of(agent, eng, seat)
    return {
        "agent": pol["agent"],
        "top": top_actions(pol, eng.legal_action_mask[0], k),
        "value": pol["value"],
        "value_chips": value_chips(pol["value"], per_tai),
    }


def search_view(eng, actions, k: int = 16, seed: int = 0, mode: str = "sampled") -> list[dict]:
    """Search EVs (chips, 95% interval) of ``actions`` at the current decision."""
    from agents.evaluation.decision_ev import action_values

    rows = action_values(eng, actions, k=k, seed=seed, mode=mode)
    return [{"action": r["action"], "name": action_name(r["action"]), "ev": r["ev"], "ci95": r["ci95"]} for r in rows]
