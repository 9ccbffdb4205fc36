"""Review of one seat's decisions in a played game (``tw16 review``): per decision the agent's top
actions with probabilities, the rollout EV of each and of the action taken (``agents.evaluation.decision_ev``)
and the EV lost; per hand and overall the match rate, the bad-move rate, the chips lost by the
estimate and a luck-adjusted result.

- A decision is reviewed when the seat had more than one legal action.
- ``match``: the action taken is the agent's first choice. ``bad``: the agent gave the action taken a
  probability below ``BAD_MOVE_P`` (5%; only for agents with probabilities, a network).
- ``loss``: how much better than the action taken the best candidate is, chips over the rest of the
  hand: the largest mean paired difference (the same rollouts, ``decision_ev``) whose 95% interval is
  above 0, else 0. Taking the best of several noisy means would count noise as loss (the winner's
  curse); only differences the rollouts resolve count; the candidates are the agent's top ``top`` and the action taken
  (an agent without probabilities: its choice, then the other legal actions in index order).
- Luck: the luck terms of every draw (``agents.evaluation.luck``: mean zero whatever anyone plays) summed
  over the hand for the seat and for the others; the luck-adjusted result is the hand's chips minus
  beta . luck, beta fitted by least squares on Greedy self-play hands (``luck_beta``: another set of
  hands, so the adjusted result keeps its mean; ``agents.evaluation.variance`` explains the control variates).
"""

from __future__ import annotations

import functools

import numpy as np

from agents.evaluation.decision_ev import action_values
from agents.evaluation.luck import LuckRecorder
from agents.evaluation.variance import mean_ci
from envs.engine.actions import action_from_name, action_name
from envs.engine.api import Engine
from envs.rules import Rules

BAD_MOVE_P = 0.05
LUCK_FIT_HANDS = 400  # Greedy self-play hands behind beta (4 seat rows each)


@functools.lru_cache(maxsize=8)
def luck_beta(rules_json: str, hands: int = LUCK_FIT_HANDS, seed: int = 0) -> tuple[float, ...]:
    """beta of chips on (own luck, others' luck) per hand and seat, fitted on ``hands`` hands of Greedy
    at every seat (deterministic given ``seed``); zeros when too few rows (``variance.fit_beta``)."""
    import json

    from agents.evaluation.arena import deal_played, hand_outcomes, run_games
    from agents.evaluation.variance import fit_beta
    from agents.greedy import GreedyAgent

    rules = Rules.from_dict(json.loads(rules_json)).replace(episode="hand")
    eng = Engine(rules, hands, record_hands=True)
    deal_played(eng, np.random.SeedSequence(seed).generate_state(hands, np.uint64))
    rec = LuckRecorder(eng)
    run_games(eng, [GreedyAgent(seed)] * 4, np.zeros((hands, 4), np.int64), on_step=rec.after_step)
    chips = hand_outcomes(eng)["chips"]
    x = np.concatenate([rec.luck, rec.luck.sum(axis=1, keepdims=True) - rec.luck], axis=2)  # (hands, 4, 2K)
    return tuple(float(v) for v in fit_beta(chips.reshape(-1), x.reshape(-1, x.shape[2])))


def _candidates(pol: dict, mask: np.ndarray, taken: int, top: int) -> tuple[list[int], dict]:
    legal = np.flatnonzero(mask)
    if pol["probs"] is not None:
        order = [int(a) for a in legal[np.argsort(-pol["probs"][legal], kind="stable")][:top]]
    else:  # no probabilities: its choice, then other legal actions in index order, as alternatives
        order = [pol["choice"]] + [int(a) for a in legal if a != pol["choice"]][: top - 1]
    cands = order + ([taken] if taken not in order else [])
    return cands, {a: (float(pol["probs"][a]) if pol["probs"] is not None else None) for a in cands}


def policy_of(agent, eng: Engine, seat: int) -> dict:
    """``{"agent", "probs" (76,) or None, "value" or None, "choice"}``: ``agent`` deciding for ``seat``
    (the seat to act in game 0): a network gives its masked softmax, its value and its argmax; another
    agent only the action it would play."""
    import torch

    from envs.obs.planes_v0 import N_CHANNELS_DERIVED, PlanesV0

    mask = eng.legal_action_mask[:1].copy()
    name = getattr(agent, "name", type(agent).__name__)
    if getattr(agent, "needs_engine", False):
        return {
            "agent": name,
            "probs": None,
            "value": None,
            "choice": int(agent.act_engine(eng.clone(0, 1), np.array([0]))[0]),
        }
    derived = bool(getattr(agent, "derived", False)) or int(getattr(agent, "in_channels", 0) or 0) >= N_CHANNELS_DERIVED
    enc = PlanesV0(derived=derived)
    obs = enc.encode_rows(eng, enc.alloc(1), np.array([0]), np.array([seat]))
    net = getattr(agent, "net", None)
    if net is None or not hasattr(agent, "logits"):
        return {"agent": name, "probs": None, "value": None, "choice": int(agent.act(obs, mask)[0])}
    from agents.neural import masked_logits, net_input

    with torch.no_grad():
        logits, value = net(torch.from_numpy(net_input(obs, net.cfg)))
        logits = masked_logits(logits, torch.from_numpy(mask))
        probs = torch.softmax(logits, -1)[0].numpy()
    return {
        "agent": name,
        "probs": np.where(mask[0], probs, 0.0),
        "value": float(value[0]),
        "choice": int(logits[0].argmax()),
    }


def review_log(
    lines: list[dict],
    agent,
    seat: int,
    k: int = 16,
    top: int = 3,
    mode: str = "sampled",
    seed: int = 0,
    luck: bool = True,
) -> dict:
    """The review of ``seat`` in a replay log (checked lines, ``tw16.cli.replay.load_log``)."""
    head = lines[0]
    rules = Rules.from_dict(head["rules"])
    eng = Engine(rules, 1, record_hands=True)
    eng.reset(np.array([head["seed"]], np.uint64))
    hands_done = len(eng.take_hands(0))
    rec = LuckRecorder(eng) if luck else None  # one per hand: a game deals a new wall between hands
    decisions, hands = [], []
    cur_hand = {"hand": hands_done, "decisions": []}
    for ev in lines[1:]:
        a = action_from_name(ev["action"])
        who = int(eng.current_player[0])
        if who == seat and int(eng.legal_action_mask[0].sum()) > 1:
            d = _review_one(eng, agent, seat, a, k, top, mode, seed + len(decisions))
            d.update(line=int(ev["i"]) + 2, event=int(ev["i"]), hand=cur_hand["hand"])
            decisions.append(d)
            cur_hand["decisions"].append(d)
        eng.step(np.array([a], np.int64))
        ended = eng.take_hands(0)
        if rec is not None and not ended:
            rec.after_step()
        for r in ended:
            cur_hand["chips"] = int(r.deltas[seat])
            cur_hand["luck"] = rec.luck[0].copy() if rec is not None else None
            hands.append(cur_hand)
            cur_hand = {"hand": r.hand + 1, "decisions": []}
        if ended and rec is not None and not eng.terminated[0]:
            rec = LuckRecorder(eng)
    beta = np.array(luck_beta(_rules_key(rules))) if luck else None
    return {
        "seat": seat,
        "agent": getattr(agent, "name", "agent"),
        "ev": mode,
        "k": k,
        "top": top,
        "decisions": decisions,
        "hands": [_hand_summary(h, seat, beta) for h in hands],
        "overall": _summary(decisions, [h for h in hands], seat, beta),
    }


def _rules_key(rules: Rules) -> str:
    import json

    return json.dumps(rules.to_dict(), sort_keys=True)


def _review_one(eng: Engine, agent, seat: int, taken: int, k: int, top: int, mode: str, seed: int) -> dict:
    pol = policy_of(agent, eng, seat)
    cands, probs = _candidates(pol, eng.legal_action_mask[0], taken, top)
    evs = {r["action"]: r for r in action_values(eng, cands, k=k, seed=seed, mode=mode)}
    best, loss = taken, 0.0
    for a in cands:  # the paired difference to the taken action, over the same rollouts
        diff, ci = (
            mean_ci(evs[a]["values"] - evs[taken]["values"]) if k > 1 else (evs[a]["ev"] - evs[taken]["ev"], None)
        )
        if diff > loss and (ci is None or ci[0] > 0):
            best, loss = a, diff
    p_taken = probs[taken]
    return {
        "taken": action_name(taken),
        "taken_action": taken,
        "p_taken": p_taken,
        "value": pol["value"],
        "agent_choice": action_name(pol["choice"]),
        "match": taken == pol["choice"],
        "bad": p_taken is not None and p_taken < BAD_MOVE_P,
        "top": [
            {"action": a, "name": action_name(a), "p": probs[a], "ev": evs[a]["ev"], "ci95": evs[a]["ci95"]}
            for a in cands
        ],
        "best": action_name(best),
        "loss": loss,
    }


def _rates(ds: list[dict]) -> dict:
    n = len(ds)
    with_p = [d for d in ds if d["p_taken"] is not None]
    return {
        "decisions": n,
        "match_rate": sum(d["match"] for d in ds) / n if n else None,
        "bad_move_rate": sum(d["bad"] for d in with_p) / len(with_p) if with_p else None,
        "chips_lost": float(sum(d["loss"] for d in ds)),
    }


def _adjusted(chips: float, luck: np.ndarray, seat: int, beta) -> tuple[float | None, list[float] | None]:
    if beta is None or luck is None:
        return None, None
    x = np.concatenate([luck[seat], luck.sum(axis=0) - luck[seat]])
    return float(chips - beta @ x), [float(v) for v in luck[seat]]


def _hand_summary(h: dict, seat: int, beta) -> dict:
    adj, own = _adjusted(h["chips"], h.get("luck"), seat, beta)
    return {"hand": h["hand"], **_rates(h["decisions"]), "chips": h["chips"], "luck_adjusted": adj, "own_luck": own}


def _summary(decisions: list[dict], hands: list[dict], seat: int, beta) -> dict:
    n = len(hands)
    out = _rates(decisions)
    chips = sum(h["chips"] for h in hands)
    adj = [_adjusted(h["chips"], h.get("luck"), seat, beta)[0] for h in hands]
    out.update(
        hands=n,
        chips=chips,
        chips_per_hand=chips / n if n else None,
        chips_lost_per_hand=out["chips_lost"] / n if n else None,
        luck_adjusted_per_hand=(sum(adj) / n) if n and None not in adj else None,
    )
    return out
