"""Duplicate evaluation: the same walls replayed with the seats rotated, so every agent meets the
same tiles from every seat.

For each wall seed w and rotation r in 0..3, game (w, r) deals wall w and seats agent i at seat
(i + r) % 4. An agent's result on a wall is the sum over the four rotations; walls are independent,
so the 95% confidence interval of chips per hand is computed over walls (t interval), which removes
most of the luck of the deal. Agents with the same name are pooled.

A wall whose hand ends in the deal (a flower win nobody chose, see the tw16_v1 card) is dealt again
as the envs deal it (``deal_played``): no agent decides anything in such a hand, so it says nothing
about the agents and the envs never train on one. It is not a played hand; the run counts it once
per wall in ``redealt_walls`` (its four rotations end in the same deal).
"""

from __future__ import annotations

import numpy as np

from agents.evaluation.aivat import seat_policies
from agents.evaluation.luck import LuckRecorder
from agents.evaluation.variance import corrected_rows, mean_ci
from envs.engine.api import Engine
from envs.engine.rng import derive_seed, redeal_seed
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules
from envs.seats import act_by_seat


def hand_outcomes(eng: Engine) -> dict:
    """(B, 4) per-seat outcomes of each game's last finished hand, from the records of an engine made
    with ``record_hands=True`` (taken: a second call sees only hands finished since)."""
    B = eng.batch_size
    out = {"chips": np.zeros((B, 4)), "win_tai": np.zeros((B, 4), np.int64)}
    out.update({k: np.zeros((B, 4), np.bool_) for k in ("won", "dealt_in", "self_drawn", "drawn")})
    for r in eng.take_hands():  # by game, then hand: a game's last hand is written last
        won = np.isin(np.arange(4), r.winners)
        out["chips"][r.game] = r.deltas
        out["won"][r.game] = won
        out["dealt_in"][r.game] = (np.arange(4) == r.payer) & (r.win_by in ("discard", "rob_kong"))
        out["self_drawn"][r.game] = won & (r.win_by == "self_draw")
        out["win_tai"][r.game] = np.where(won, r.tai, 0)
        out["drawn"][r.game] = r.drawn
    return out


MIN_WALLS = 2  # (a confidence interval over walls needs two)
# What duplicate play keeps per wall until the end (the rest is per batch of walls): its seed (uint64),
# its per-game chips (4 rotations x 4 agents, float64) and per-wall chips (4 agents), once in the
# batches' parts and once more when combine joins them.
KEPT_BYTES_PER_WALL = 8 + 2 * (16 + 4) * 8


def walls_for(hands: int) -> int:
    """The walls duplicate play deals for ``hands`` hands: each wall is played 4 times (the seats
    rotated), so ``hands`` is rounded up to a multiple of 4, and to ``4 * MIN_WALLS`` at least."""
    return max(MIN_WALLS, -(-int(hands) // 4))


def wall_batches(n_walls: int, batch_walls: int = 256) -> list[tuple[int, int]]:
    """The walls [start, stop) played together in one engine batch."""
    return [(s0, min(s0 + batch_walls, n_walls)) for s0 in range(0, n_walls, batch_walls)]


def batch_seed(seed: int, b: int) -> int:
    """Agents are reset from this seed before batch ``b``: every batch's result depends on its walls
    and this seed only, so batches can be played anywhere (``agents.evaluation.distributed``). Batch 0 uses
    ``seed`` itself."""
    return int(seed) if b == 0 else derive_seed(seed, b)


def duplicate_wall_seeds(seed: int, n_walls: int) -> np.ndarray:
    """The wall seeds of ``play_duplicate(..., seed=seed)`` without a published set."""
    return np.random.SeedSequence(seed).generate_state(n_walls, dtype=np.uint64)


def play_duplicate(
    agents,
    n_walls: int,
    rules: Rules | None = None,
    seed: int = 0,
    batch_walls: int = 256,
    progress=None,
    wall_seeds=None,
    vr: bool | str = False,
    log_dir=None,
) -> dict:
    """Play ``n_walls`` walls x 4 rotations (hands) with 4 agents; return per-agent statistics.
    ``wall_seeds``: the walls to deal (``agents.evaluation.eval_seeds``), else derived from ``seed``; ``vr``:
    record the luck of every draw and add the variance-reduced figures (``agents.evaluation.variance``);
    ``vr="aivat"``: with the AIVAT term of the shipped value function too (``agents.evaluation.aivat``;
    ``vr="aivat1"``, ``"aivat2"``: the older value functions);
    ``log_dir``: write every hand's replay log there (``agents.evaluation.recording``)."""
    if len(agents) != 4:
        raise ValueError(f"duplicate play needs 4 agents (one per seat), got {len(agents)}")
    rules = (rules or Rules()).replace(episode="hand")
    batch_walls = table_batch_walls([a.name for a in agents], batch_walls)
    wall_seeds = (
        duplicate_wall_seeds(seed, n_walls) if wall_seeds is None else np.asarray(wall_seeds, np.uint64)[:n_walls]
    )
    parts = []
    for b, (s0, s1) in enumerate(wall_batches(len(wall_seeds), batch_walls)):
        recorder = None
        if log_dir is not None:
            from agents.evaluation.recording import HandRecorder

            recorder = HandRecorder(log_dir, rules, first_wall=s0)
        parts.append(play_walls(agents, wall_seeds[s0:s1], rules, batch_seed(seed, b), vr=vr, recorder=recorder))
        if progress is not None:
            progress(s1 - s0)
    for a in agents:
        if getattr(a, "olympiad", False):
            a.close()  # /exit, then the process groups killed (started again if the agent plays on)
    return combine([a.name for a in agents], parts, rules)


def table_batch_walls(specs, batch_walls: int) -> int:
    """Walls per engine batch: one when an external bot sits at the table (one process per game it
    plays; the referee talks to them one at a time, so more games in a batch would only add processes)."""
    return 1 if any(str(s).startswith("olympiad") for s in specs) else batch_walls


def faults_table(agents) -> dict:
    """{agent name: {fault kind: count, "requests": n}} of the external bots (``agents.olympiad``)."""
    out: dict = {}
    for a in agents:
        if getattr(a, "olympiad", False):
            row = out.setdefault(a.name, {})
            for k, v in list(a.faults.items()) + [("requests", a.requests)]:
                row[k] = row.get(k, 0) + v
    return out


def faults_since(before: dict, after: dict) -> dict:
    return {n: {k: v - before.get(n, {}).get(k, 0) for k, v in row.items()} for n, row in after.items()}


def play_walls(
    agents, wall_seeds: np.ndarray, rules: Rules, agent_seed: int, vr: bool | str = False, recorder=None
) -> dict:
    """One batch: reset the agents to ``agent_seed``, deal each wall 4 times with the seats rotated.
    Returns per-wall chips (walls, 4 agents), per-hand chips (4 x walls, 4) and summed statistics;
    with ``vr`` also the luck per wall: each agent's own (walls, 4, K) and all seats' (walls, K).
    ``recorder`` (``agents.evaluation.recording.HandRecorder``) sees every decision and writes the hands."""
    for a in agents:
        a.reset(agent_seed)
    faults_before = faults_table(agents)
    nw = len(wall_seeds)
    stats = {k: np.zeros(4) for k in ("hands", "won", "dealt_in", "self_drawn", "win_tai", "drawn")}
    seeds = np.repeat(np.asarray(wall_seeds, np.uint64), 4)
    seat_agent = rotated_seating(nw)
    eng = Engine(rules, batch_size=nw * 4, record_hands=True)
    dealt = seeds.copy()  # the seeds of the hands played (a hand that ended in its deal is dealt again)
    redealt = deal_played(eng, dealt)
    rec = LuckRecorder(eng, value=value_model(vr), policies=seat_policies(agents, seat_agent)) if vr else None
    run_games(
        eng,
        agents,
        seat_agent,
        on_step=rec.after_step if vr else None,
        on_decision=recorder.on_decision if recorder is not None else None,
    )
    if recorder is not None:
        recorder.write(dealt)
    out = {"stats": stats, "redealt_walls": int(redealt.reshape(nw, 4).any(axis=1).sum())}
    out["faults"] = faults_since(faults_before, faults_table(agents))
    if vr:
        own = np.zeros_like(rec.luck)  # seat order -> agent order
        np.put_along_axis(own, seat_agent[:, :, None], rec.luck, axis=1)
        out["luck_own"] = own.reshape(nw, 4, 4, -1).sum(axis=1)
        out["luck_total"] = out["luck_own"].sum(axis=1)
    for key, arr in hand_outcomes(eng).items():  # seat order -> agent order
        by_agent = np.zeros((nw * 4, 4))
        np.put_along_axis(by_agent, seat_agent, arr.astype(np.float64), axis=1)
        if key == "chips":
            out["per_game"] = by_agent
            out["per_wall"] = by_agent.reshape(nw, 4, 4).sum(axis=1)
        else:
            stats[key] += by_agent.sum(axis=0)
    stats["hands"] += nw * 4
    return out


def value_model(vr):
    """The V of ``agents.evaluation.aivat`` that ``vr`` names (``--vr aivat``: the newest, ``aivat1``:
    the v1 file), or None (``--vr``: the luck terms only)."""
    from agents.evaluation.aivat import MODELS, ValueModel, model_for

    return ValueModel.load(MODELS[model_for(vr)]) if model_for(vr) else None


def rotated_seating(n_walls: int) -> np.ndarray:
    """(4 * n_walls, 4): the agent sitting at each seat of game (w, r) = 4 w + r, agent i at seat
    (i + r) % 4."""
    return (np.arange(4)[None, :] - np.tile(np.arange(4), n_walls)[:, None]) % 4


def deal_played(eng: Engine, seeds: np.ndarray) -> np.ndarray:
    """Reset ``eng`` from ``seeds``, dealing again every game whose hand ended in the deal, from a
    seed derived from the last as the envs do (``envs.driver.Driver.redeal``). Returns (B,) bool:
    the games dealt again. A uint64 array ``seeds`` is updated in place to the seeds of the deals
    played (what a replay log records)."""
    if not (isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64):
        seeds = np.array(seeds, np.uint64)
    redealt = np.zeros(len(seeds), np.bool_)
    eng.reset(seeds)
    while eng.terminated.any():
        again = eng.terminated.copy()
        redealt |= again
        seeds[again] = [redeal_seed(x) for x in seeds[again]]
        eng.reset(seeds)  # the other games get their same deal back
    eng.take_hands()  # the records of the replaced deals: not played hands
    return redealt


def combine(names, parts: list[dict], rules: Rules) -> dict:
    """Batches' results, in wall order, into the statistics of the whole run."""
    stats = {k: np.zeros(4) for k in parts[0]["stats"]}
    for p in parts:
        for k, v in p["stats"].items():
            stats[k] += v
    result = summarize(names, np.concatenate([p["per_wall"] for p in parts]), stats, rules)
    if "luck_own" in parts[0]:
        add_corrected(
            result, np.concatenate([p["luck_own"] for p in parts]), np.concatenate([p["luck_total"] for p in parts])
        )
    result["ratings"] = rate(names, np.concatenate([p["per_game"] for p in parts]))
    result["redealt_walls"] = sum(p["redealt_walls"] for p in parts)
    faults: dict = {}
    for p in parts:
        for name, row in p.get("faults", {}).items():
            for k, v in row.items():
                faults.setdefault(name, {}).setdefault(k, 0)
                faults[name][k] += v
    if faults:
        result["faults"] = faults
    return result


def run_games(
    eng: Engine, agents, seat_agent: np.ndarray, on_decision=None, derived: bool | None = None, on_step=None
) -> None:
    """Step every game to its end, each decision taken by the agent sitting at the acting seat.
    ``on_decision(games, seats, obs, mask, actions)`` sees every decision (behaviour cloning);
    ``on_step()`` is called after every step (``agents.evaluation.luck.LuckRecorder.after_step``).
    Observations carry the derived planes when ``derived`` or when an agent asks for them."""
    actions = np.zeros(eng.batch_size, np.int64)
    if derived is None:
        derived = any(getattr(a, "derived", False) for a in agents)
    enc = PlanesV0(derived=derived)
    buf = enc.alloc(eng.batch_size)
    referee = None
    if any(getattr(a, "olympiad", False) for a in agents):  # external bots: the protocol's referee (agents.olympiad)
        from agents.olympiad.host import Referee

        referee = Referee(eng, agents, seat_agent, derived=derived)
    while True:
        live = np.flatnonzero(~eng.terminated)
        if live.size == 0:
            return
        cur = eng.current_player[live]
        obs = enc.encode(eng, out=buf)[live]
        mask = eng.legal_action_mask[live]
        who = seat_agent[live, cur].copy()
        actions[:] = 0  # finished games have an all-ones mask; their step is a no-op
        acts = np.zeros(live.size, np.int64)
        if referee is not None:
            referee.decide(live, cur, obs, mask, acts, who)
        act_by_seat(agents, who, obs, mask, acts, engine=eng, games=live)
        actions[live] = acts
        if on_decision is not None:
            on_decision(live, cur, obs, mask, actions[live])
        if referee is not None:
            referee.before_step(actions)
        eng.step(actions)
        if referee is not None:
            referee.after_step()
        if on_step is not None:
            on_step()


def rate(names, per_game: np.ndarray) -> dict:
    """openskill (Plackett-Luce) ratings from each hand's ranking of the four agents by chips; copies
    of one agent are rated as separate players and reported by their mean."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = [model.rating(name=f"{n}#{i}") for i, n in enumerate(names)]
    for chips in per_game:
        ranks = [int((chips > c).sum()) for c in chips]  # ties share a rank
        players = [team[0] for team in model.rate([[p] for p in players], ranks=ranks)]
    out = {}
    for name in dict.fromkeys(names):
        ps = [p for p, n in zip(players, names) if n == name]
        out[name] = {
            "mu": float(np.mean([p.mu for p in ps])),
            "sigma": float(np.mean([p.sigma for p in ps])),
            "ordinal": float(np.mean([p.ordinal() for p in ps])),
        }
    return out


def summarize(names, per_wall: np.ndarray, stats: dict, rules: Rules) -> dict:
    """Pool agents by name; chips per hand with a 95% CI over walls."""
    per_tai = rules.stakes.per_tai
    n_walls = per_wall.shape[0]
    rows = {}
    for name in dict.fromkeys(names):
        cols = [i for i, n in enumerate(names) if n == name]
        hands = sum(stats["hands"][i] for i in cols)
        # per wall: chips of all copies of this agent over the 4 rotations, per hand played
        mean, ci = mean_ci(per_wall[:, cols].sum(axis=1) / (4 * len(cols)))
        won = sum(stats["won"][i] for i in cols)
        rows[name] = {
            "seats": len(cols),
            "hands": int(hands),
            "chips_per_hand": mean,
            "ci95": ci,
            "tai_per_hand": mean / per_tai,
            "win_rate": won / hands,
            "deal_in_rate": sum(stats["dealt_in"][i] for i in cols) / hands,
            "self_draw_rate": sum(stats["self_drawn"][i] for i in cols) / hands,
            "mean_win_tai": (sum(stats["win_tai"][i] for i in cols) / won) if won else 0.0,
            "drawn_rate": sum(stats["drawn"][i] for i in cols) / hands,
        }
    return {
        "walls": n_walls,
        "hands": int(n_walls * 4),
        "rules": rules.to_dict(),
        "agents": rows,
        "per_wall": per_wall,
        "names": list(names),
    }


def add_corrected(result: dict, luck_own: np.ndarray, luck_total: np.ndarray) -> None:
    """Put the variance-reduced chips per hand and interval (``agents.evaluation.variance``) in each agent's
    row under ``vr``, beside the plain ones; the luck arrays stay in the result (``luck_own``,
    ``luck_total``) for studies."""
    rows = corrected_rows(result["per_wall"], result["names"], luck_own, luck_total)
    for name, row in result["agents"].items():
        row["vr"] = rows[name]
    result["luck_own"], result["luck_total"] = luck_own, luck_total
