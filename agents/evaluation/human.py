"""A person on the duplicate scale: the hands a person played on published walls (``tw16 web
--duplicate v1`` writes one JSON line per hand: wall seed dealt, seat, the opponents' specs, chips)
replayed with a bot in the person's seat against the same opponents, hand by hand, so the person and
each bot are compared on the same tiles (the paired difference person - bot, interval over hands).

    tw16 eval greedy defensive neural neural --human runs/web/duplicate-v1.jsonl
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.evaluation.variance import mean_ci
from envs.engine.api import Engine
from envs.rules import Rules

FIELDS = ("seed", "seat", "chips", "specs", "rules")


def load_results(path) -> list[dict]:
    """The hands of a results file, checked (``ValueError`` naming the line)."""
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise ValueError(f"{path} line {n} is not JSON") from None
        if not isinstance(row, dict) or any(k not in row for k in FIELDS):
            raise ValueError(f"{path} line {n}: a duplicate result needs {', '.join(FIELDS)}")
        if not (
            isinstance(row["seat"], int)
            and 0 <= row["seat"] <= 3
            and isinstance(row["seed"], int)
            and 0 <= row["seed"] < 1 << 64
            and isinstance(row["chips"], (int, float))
            and isinstance(row["specs"], list)
            and len(row["specs"]) in (1, 3)
        ):
            raise ValueError(f"{path} line {n}: bad seat, seed, chips or specs")
        rows.append(row)
    if not rows:
        raise ValueError(f"{path} holds no hands")
    return rows


def bot_chips(rows: list[dict], bot_spec: str, seed: int = 0) -> np.ndarray:
    """Chips of ``bot_spec`` in the person's seat of each hand, the same opponents at the others."""
    from agents import make_agent
    from agents.evaluation.arena import hand_outcomes, run_games

    out = np.zeros(len(rows))
    groups: dict = {}
    for i, r in enumerate(rows):
        groups.setdefault((json.dumps(r["specs"]), json.dumps(r["rules"], sort_keys=True)), []).append(i)
    for (specs, rules), idx in groups.items():
        specs = json.loads(specs)
        specs = specs * 3 if len(specs) == 1 else specs
        agents = [make_agent(bot_spec, seed=seed)] + [make_agent(s, seed=seed + 1 + j) for j, s in enumerate(specs)]
        eng = Engine(Rules.from_dict(json.loads(rules)).replace(episode="hand"), len(idx), record_hands=True)
        eng.reset(np.array([rows[i]["seed"] for i in idx], np.uint64))
        seat_agent = np.zeros((len(idx), 4), np.int64)
        for g, i in enumerate(idx):  # the opponents in seat order after the person's (tw16.cli.game.TableGame.sit)
            others = [p for p in range(4) if p != rows[i]["seat"]]
            seat_agent[g, others] = [1, 2, 3]
        run_games(eng, agents, seat_agent)
        chips = hand_outcomes(eng)["chips"]
        out[idx] = chips[np.arange(len(idx)), [rows[i]["seat"] for i in idx]]
    return out


def human_league(rows: list[dict], bots, seed: int = 0) -> dict:
    """The person's chips per hand and each bot's on the same hands, with the paired differences."""
    person = np.array([float(r["chips"]) for r in rows])
    m, ci = mean_ci(person)
    table = {"hands": len(rows), "person": {"chips_per_hand": m, "ci95": ci}, "bots": {}}
    for spec in dict.fromkeys(bots):
        b = bot_chips(rows, spec, seed)
        bm, bci = mean_ci(b)
        dm, dci = mean_ci(person - b)
        table["bots"][spec] = {"chips_per_hand": bm, "ci95": bci, "person_minus_bot": dm, "diff_ci95": dci}
    return table


def league_text(t: dict) -> str:
    lines = [
        f"the person and bots in the person's seat, same walls and opponents: {t['hands']} hands",
        f"{'player':<24} {'chips/hand':>11} {'95% CI':>20} {'person - bot':>13} {'95% CI':>20}",
    ]
    p = t["person"]
    lines.append(f"{'person':<24} {p['chips_per_hand']:>+11.2f} {_ci(p['ci95']):>20}")
    for name, r in t["bots"].items():
        lines.append(
            f"{name:<24} {r['chips_per_hand']:>+11.2f} {_ci(r['ci95']):>20} {r['person_minus_bot']:>+13.2f} {_ci(r['diff_ci95']):>20}"
        )
    return "\n".join(lines)


def _ci(ci) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
