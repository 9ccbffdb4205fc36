"""Paired comparison of two agents against the same field: each plays duplicate against the same
three opponents on the same walls, and the difference of their chips per hand is taken wall by
wall (an ablation: a checkpoint against the one it was trained from).

    python -m agents.evaluation.paired neural:runs/declared-d1/bc.pt neural:runs/declared-d1/ppo/policy.pt \\
        --field defensive --hands 100000 --seed 7046220

With ``--seed`` equal to a ``tw16 eval`` run's, each agent's figures are that run's (the walls come
from the seed, and so do the agents' streams). The interval of the difference is over walls: both
agents met the same tiles, so it is narrower than the two intervals side by side suggest when their
results on a wall go together.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from agents.evaluation.variance import cross_fit, luck_fit, mean_ci


def paired(
    spec_a: str,
    spec_b: str,
    field: list[str],
    hands: int,
    seed: int = 0,
    rules=None,
    vr: bool = False,
    played: dict | None = None,
) -> dict:
    """Chips per hand of ``spec_a`` and ``spec_b`` (each in slot 0 against ``field``'s three agents)
    and of b - a, wall by wall, with 95% intervals; ``rules`` default ``Rules()`` (external bots,
    ``olympiad:COMMAND``, need the events' rules: docs/olympiad.md). ``vr``: also the variance-reduced
    figures under ``"vr"`` (``agents.evaluation.variance``: each agent's chips per wall minus its
    cross-fitted luck terms, which have mean zero, so b - a of the corrected values keeps its mean)
    and the interval width ratio plain / corrected of the difference. ``played``: a dict kept across
    calls with the same field, hands, seed, rules and vr, so that an agent already played (the
    baseline ``a`` against several ``b``) is not played again: its results are the same."""
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate, walls_for

    if len(field) != 3:
        raise ValueError(f"the field is three agents, got {len(field)}: {field}")
    walls = walls_for(hands)
    per_wall, corrected, seconds = {}, {}, {}
    played = {} if played is None else played
    for spec in (spec_a, spec_b):
        if spec in played:
            per_wall[spec], corrected[spec], seconds[spec] = played[spec]
            continue
        agents = [make_agent(spec, seed=seed)] + [make_agent(s, seed=seed) for s in field]
        res = play_duplicate(agents, walls, rules, seed=seed, vr=vr)
        per_wall[spec] = res["per_wall"][:, 0] / 4
        if vr:
            corrected[spec] = corrected_slot0(res)
        if hasattr(agents[0], "seconds") and getattr(agents[0], "decisions", 0):
            seconds[spec] = {"ms_per_decision": 1000 * agents[0].seconds / agents[0].decisions}
            if getattr(agents[0], "leaf", "rollout") != "rollout":  # how often the leaf search left its base
                seconds[spec].update(searched=agents[0].searched, changed=agents[0].changed)
        played[spec] = per_wall[spec], corrected.get(spec), seconds.get(spec, {})
    a, b = per_wall[spec_a], per_wall[spec_b]
    row = lambda x: dict(zip(("chips_per_hand", "ci95"), mean_ci(x)))  # noqa: E731
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else None  # none for a constant result
    out = {
        "walls": walls,
        "hands": 4 * walls,
        "seed": seed,
        "field": field,
        "a": {"agent": spec_a, **row(a), **seconds.get(spec_a, {})},
        "b": {"agent": spec_b, **row(b), **seconds.get(spec_b, {})},
        "b_minus_a": row(b - a),
        "correlation": corr,
    }
    if vr:
        za, zb = corrected[spec_a], corrected[spec_b]
        d, plain = row(zb - za), out["b_minus_a"]["ci95"]
        width = d["ci95"][1] - d["ci95"][0]
        out["vr"] = {"a": row(za), "b": row(zb), "b_minus_a": d}
        out["vr"]["ci_narrower"] = (plain[1] - plain[0]) / width if width > 0 else None
    return out


def corrected_slot0(res: dict) -> np.ndarray:
    """The variance-reduced chips per hand, wall by wall, of slot 0's agent in a ``play_duplicate(...,
    vr=True)`` result: the values whose mean ``variance.corrected_rows`` reports (the same fit,
    ``luck_fit``), kept per wall so that two agents' corrected values can be paired."""
    agents, fit = luck_fit(res["per_wall"], res["names"], res["luck_own"], res["luck_total"])
    y, x = agents[res["names"][0]]
    return cross_fit(y, x, **fit)[0]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.paired", description=__doc__.splitlines()[0])
    p.add_argument("a", help="the first agent (the baseline)")
    p.add_argument("b", nargs="+", help="the second agent (several: each against a, which plays once)")
    p.add_argument("--field", nargs="+", default=["defensive"], help="the three opponents (one name: three copies)")
    p.add_argument("--hands", type=int, default=8000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profile", default="standard", help="tai profile (name or .toml path)")
    p.add_argument("--rules", default=None, help="rule options as JSON, e.g. '{\"flowers\": false}'")
    p.add_argument("--vr", action="store_true", help="add the variance-reduced figures (agents.evaluation.variance)")
    a = p.parse_args(argv)
    field = a.field * 3 if len(a.field) == 1 else a.field
    from envs.rules import Rules

    rules = Rules.make(a.profile, **json.loads(a.rules)) if a.rules else Rules(profile=a.profile)
    played: dict = {}
    for b in a.b:
        print(json.dumps(paired(a.a, b, field, a.hands, a.seed, rules, vr=a.vr, played=played), indent=1), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
