"""Seat-to-policy dispatch: one batch of decisions, each taken by the policy sitting at its seat.

The single-agent envs (``envs.gym_env``: the opponents), duplicate evaluation (``run_games``: four
agents) and the PPO rollout (opponents beside the learner) all split one batch of observations among
several policies; this is the one place that does it. It lives in ``envs`` (the lowest layer) so
that every layer above may use it.
"""

from __future__ import annotations

import numpy as np

from envs.validate import policy_actions


def act_by_seat(policies, who, obs, mask, actions, engine=None, games=None) -> None:
    """Fill ``actions[k]`` with ``policies[who[k]].act`` for every decision ``k`` whose ``who[k]`` is in
    ``0 .. len(policies) - 1``; other rows (``who[k] = -1``: decided elsewhere) keep their value.

    ``obs`` (n, C, 34), ``mask`` (n, 76), ``who`` and ``actions`` (n,). Each policy object is asked
    once per call, on all its rows in row order, also when it sits at several seats: one call per
    policy per step (a shared opponent costs one batch, not three).

    A policy with ``needs_engine`` (``agents.search``: it reads the game itself, to resample and roll
    out) is asked ``act_engine(engine, games[sel])`` instead, where ``games`` (n,) are the engine's
    game indices of the rows; the callers that can give it an engine pass ``engine`` and ``games``.
    """
    who = np.asarray(who)
    seen: set[int] = set()
    for p in policies:
        if id(p) in seen:
            continue
        seen.add(id(p))
        slots = [i for i, q in enumerate(policies) if q is p]
        sel = np.flatnonzero(who == slots[0]) if len(slots) == 1 else np.flatnonzero(np.isin(who, slots))
        if not sel.size:
            continue
        if getattr(p, "needs_engine", False):
            if engine is None:
                raise TypeError(
                    f"{getattr(p, 'name', p)!r} reads the engine (act_engine): this caller has no engine "
                    "to give it (duplicate evaluation, agents.evaluation.arena, has)"
                )
            got = p.act_engine(engine, np.asarray(games)[sel])
        else:
            got = p.act(obs[sel], mask[sel])
        # checked before it is stored: assigning into the int64 array would truncate a float and turn
        # NaN into some index
        actions[sel] = policy_actions(got, sel.size, f"policy {_name(p)} (seat slot {', '.join(map(str, slots))})")


def _name(p) -> str:
    name = getattr(p, "name", None) or getattr(getattr(p, "fn", None), "__name__", None) or type(p).__name__
    return repr(name) if isinstance(name, str) else type(p).__name__
