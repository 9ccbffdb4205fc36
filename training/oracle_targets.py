"""Policy improvement from oracle rollouts (issue 26): targets for a network's decisions from rollouts
of the true state, then a fit of the network toward them.

Why the true state. The search agent (agents/search.py) deals the hidden tiles again uniformly at
decision time, and its rollouts misjudge danger (its opponents hold worse hands than real ones). At
training time the hidden state is known: a decision met in play comes with the hands that were really
dealt. Rollouts from that state with only the order of the wall dealt again (``search:...,oracle=1``,
``reshuffle_wall``) are samples of Q(state, a) under the rollout policy, and the states a seat meets
with a given observation are drawn from their true distribution, so the mean of those targets over
the states sharing an observation is Q(observation, a): no model of the opponents' hands is needed,
and a network fitted on them learns the information state's values. Each target is noisy (k
determinizations); the fit averages the noise over many states, where a decision-time search would
chase it (``choose`` with z = 0).

1. ``collect``: the network plays one seat against the field in duplicate play (walls from ``seed``);
   at each of its decisions with more than one candidate, the oracle search values its ``n`` most
   probable legal actions (``envs._core.search_batch`` with ``oracle=True``: the same k wall orders
   and rollout streams for every candidate, the rollout policy at every seat, its own rest of the hand
   included) and the network's own choice is played (the states are the network's). Rows: the
   observation, the mask, the candidates, their mean chips.
2. ``fit``: from the network, minimise over the rows the cross-entropy of the policy against a
   target, plus ``anchor`` x the KL from the starting policy. ``mode="prior"`` (the default): the
   starting policy reweighted on the candidates, p0(a) exp(value(a) / temperature), renormalised to
   the mass p0 gave them (the other actions keep p0's): the maximiser of E_pi[value] - temperature x
   KL(pi || p0), which leaves the network's choice where the values differ by little against the
   temperature. ``mode="softmax"``: softmax(values / temperature) over the candidates alone.

    python -m training.oracle_targets collect --checkpoint agents/checkpoints/ppo_v2.pt --hands 4000 \\
        --seed 1 --out rows.npz
    python -m training.oracle_targets fit --checkpoint agents/checkpoints/ppo_v2.pt --rows rows.npz \\
        --out policy.pt
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.search import check_oracle_rollout, oracle_values, top_candidates


@dataclass
class CollectConfig:
    checkpoint: str = "agents/checkpoints/ppo_v2.pt"
    field: str = "defensive"  # the three other seats (agents.make_agent names)
    hands: int = 4000  # duplicate hands (walls x 4 seatings)
    seed: int = 1
    k: int = 8  # wall orders per decision
    n: int = 4  # candidates: the network's most probable legal actions
    rollout: str = "defensive"  # agents.search.ROLLOUTS


class OracleLabeller:
    """An agent (reads the engine) that plays its network's choice and records the oracle search's
    values of the network's top ``n`` legal actions at each of its decisions."""

    needs_engine = True

    def __init__(self, cfg: CollectConfig):
        from agents.neural import NeuralAgent
        from envs.obs.planes_v0 import PlanesV0

        check_oracle_rollout(cfg.rollout)
        if not 1 <= cfg.k <= 4096 or not 2 <= cfg.n <= 16:
            raise ValueError(f"k must be in 1..4096 and n in 2..16, got k={cfg.k}, n={cfg.n}")
        self.cfg = cfg
        self.net = NeuralAgent(cfg.checkpoint)
        self.enc = PlanesV0(derived=self.net.derived)
        self.name = f"oracle-labeller:{Path(cfg.checkpoint).name}"
        self.rows: dict[str, list] = {"obs": [], "mask": [], "cands": [], "values": []}
        self.reset(cfg.seed)

    def reset(self, seed: int | None = None) -> None:
        from envs.validate import policy_seed

        self.rng = np.random.default_rng(policy_seed(seed))

    def act(self, obs, mask):
        raise TypeError("the labeller reads the engine's true state: call act_engine(engine, games)")

    def act_engine(self, engine, games) -> np.ndarray:
        games = np.ascontiguousarray(games, np.int64).reshape(-1)
        seats = engine.current_player[games].astype(np.int64)
        obs = self.enc.encode_rows(engine, self.enc.alloc(games.size), games, seats)
        mask = engine.legal_action_mask[games]
        cands = top_candidates(self.net.logits(obs, mask), mask, self.cfg.n)
        seeds = self.rng.integers(0, 1 << 63, size=games.size, dtype=np.uint64)
        values = oracle_values(engine, games, cands, self.cfg.k, self.cfg.rollout, seeds)
        searched = ~np.isnan(values[:, 1])  # (a win first, or a single candidate: nothing to learn)
        if searched.any():
            self.rows["obs"].append(obs[searched].astype(np.float16))
            self.rows["mask"].append(mask[searched].copy())
            self.rows["cands"].append(cands[searched])
            self.rows["values"].append(values[searched].astype(np.float32))
        return cands[:, 0].copy()  # the network's own choice (its argmax)

    def arrays(self) -> dict[str, np.ndarray]:
        if not self.rows["obs"]:
            raise ValueError("no decision was searched")
        return {k: np.concatenate(v) for k, v in self.rows.items()}


def collect(cfg: CollectConfig, out: str | Path) -> dict:
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate, walls_for

    t0, c0 = time.time(), time.process_time()
    lab = OracleLabeller(cfg)
    field = [make_agent(cfg.field, seed=cfg.seed + i) for i in range(3)]
    res = play_duplicate([lab, *field], walls_for(cfg.hands), seed=cfg.seed)
    rows = lab.arrays()
    meta = {
        "config": asdict(cfg),
        "rows": int(rows["obs"].shape[0]),
        "labeller_chips_per_hand": res["agents"][lab.name]["chips_per_hand"],
        "wall_s": round(time.time() - t0, 1),
        "cpu_s": round(time.process_time() - c0, 1),
    }
    np.savez_compressed(out, meta=json.dumps(meta), **rows)
    return meta


@dataclass
class FitConfig:
    checkpoint: str = "agents/checkpoints/ppo_v2.pt"
    mode: str = "prior"  # the target: "prior" (p0 x exp(value / temperature)) or "softmax" (module docstring)
    temperature: float = 10.0  # chips
    anchor: float = 0.0  # weight of the KL from the starting policy
    epochs: int = 2
    batch: int = 512
    lr: float = 3e-4
    seed: int = 0
    holdout: float = 0.1  # the last share of the rows: the held-out loss and agreement (0: none)


def load_rows(paths) -> dict[str, np.ndarray]:
    parts = []
    for p in paths:
        with np.load(p, allow_pickle=False) as z:
            parts.append({k: z[k] for k in ("obs", "mask", "cands", "values")})
    rows = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    n = rows["obs"].shape[0]
    c = rows["cands"].shape[1]
    if rows["mask"].shape != (n, 76) or rows["values"].shape != (n, c) or rows["cands"].shape != (n, c):
        raise ValueError(f"rows: inconsistent shapes { ({k: v.shape for k, v in rows.items()}) }")
    return rows


def targets(values: np.ndarray, cands: np.ndarray, temperature: float) -> np.ndarray:
    """(N, 76) float32: softmax(values / temperature) over each row's candidates (NaN values and -1
    candidates get none): mode "softmax"."""
    v = np.where(np.isnan(values) | (cands < 0), -np.inf, values / temperature)
    v = v - v.max(axis=1, keepdims=True)
    w = np.exp(v)
    w /= w.sum(axis=1, keepdims=True)
    t = np.zeros((values.shape[0], 76), np.float32)
    rows = np.repeat(np.arange(values.shape[0]), cands.shape[1])
    ok = cands.reshape(-1) >= 0
    np.add.at(t, (rows[ok], cands.reshape(-1)[ok]), w.reshape(-1)[ok])
    return t


def prior_targets(p0, cands, values, temperature: float):
    """(B, 76) torch: p0 reweighted on each row's candidates by exp(value / temperature), renormalised
    to the mass p0 gave them; the other actions (and a candidate without a value) keep p0 (mode
    "prior")."""
    import torch

    ok = ((cands >= 0) & ~torch.isnan(values)).float()
    c = cands.clamp_min(0)
    on = torch.zeros_like(p0).scatter_add(1, c, ok)  # 1 on the valued candidates (a -1 adds 0 at action 0)
    v = torch.zeros_like(p0).scatter_add(1, c, torch.nan_to_num(values) * ok)
    v = torch.where(on > 0, v / temperature, torch.full_like(v, -torch.inf))
    pc = p0 * on
    w = pc * torch.exp(v - v.max(1, keepdim=True).values)
    w = w * (pc.sum(1, keepdim=True) / w.sum(1, keepdim=True).clamp_min(1e-30))
    return p0 * (1 - on) + w


def fit(cfg: FitConfig, rows: dict[str, np.ndarray], out: str | Path) -> dict:
    import torch

    from agents.neural import load_checkpoint, masked_logits, net_input, save_checkpoint

    torch.manual_seed(cfg.seed)
    net, meta = load_checkpoint(cfg.checkpoint)
    start, _ = load_checkpoint(cfg.checkpoint)
    n = rows["obs"].shape[0]
    n_hold = int(n * cfg.holdout)
    if cfg.mode not in ("prior", "softmax"):
        raise ValueError(f"mode must be 'prior' or 'softmax', got {cfg.mode!r}")
    if not cfg.temperature > 0:
        raise ValueError(f"temperature must be > 0 chips, got {cfg.temperature!r}")
    tgt = targets(rows["values"], rows["cands"], cfg.temperature) if cfg.mode == "softmax" else None
    obs = rows["obs"]
    mask = rows["mask"].astype(bool)

    def batch(idx):
        x = torch.from_numpy(net_input(obs[idx].astype(np.float32), net.cfg))
        m = torch.from_numpy(mask[idx])
        if tgt is not None:
            return x, m, torch.from_numpy(tgt[idx])
        return x, m, (torch.from_numpy(rows["cands"][idx]), torch.from_numpy(rows["values"][idx].astype(np.float32)))

    def losses(x, m, t):
        logp = torch.log_softmax(masked_logits(net(x)[0], m), -1)
        with torch.no_grad():
            p0 = torch.softmax(masked_logits(start(x)[0], m), -1)
            if isinstance(t, tuple):
                t = prior_targets(p0, *t, cfg.temperature)
        ce = -(t * logp).sum(-1).mean()
        kl = (p0 * (torch.log(p0.clamp_min(1e-12)) - logp)).sum(-1).mean()
        return ce, kl, logp

    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    gen = np.random.default_rng(cfg.seed)
    train_idx = np.arange(n - n_hold)
    check_idx = np.arange(n - n_hold, n) if n_hold else train_idx  # (no held-out rows: the training rows)
    log = []
    for epoch in range(cfg.epochs):
        net.train()
        perm = gen.permutation(train_idx)
        for i in range(0, perm.size, cfg.batch):
            ce, kl, _ = losses(*batch(np.sort(perm[i : i + cfg.batch])))
            loss = ce + cfg.anchor * kl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
        log.append({"epoch": epoch + 1, **held_out(net, start, losses, batch, check_idx, rows)})
    net.eval()
    save_checkpoint(out, net, reward_scale=meta.get("reward_scale", 0.1), oracle_fit=json.dumps(asdict(cfg)))
    return {"config": asdict(cfg), "rows": n, "log": log}


def held_out(net, start, losses, batch, idx, rows) -> dict:
    """On the held-out rows: the cross-entropy and KL, the share of rows where the policy's argmax is
    the candidate of best value, and the mean value given up (chips) by the argmax against the best
    (a noisy figure: the best of k-sample means is biased up)."""
    import torch

    net.eval()
    ce_s = kl_s = best_s = lost_s = 0.0
    with torch.no_grad():
        for i in range(0, idx.size, 2048):
            part = idx[i : i + 2048]
            ce, kl, logp = losses(*batch(part))
            a = logp.argmax(-1).numpy()
            cands, v = rows["cands"][part], np.nan_to_num(rows["values"][part], nan=-np.inf)
            hit = cands == a[:, None]
            pick = np.where(hit.any(1), np.where(hit, v, 0.0).sum(1), np.nan)  # NaN: the argmax is no candidate
            ce_s += float(ce) * part.size
            kl_s += float(kl) * part.size
            best_s += float(np.sum(pick == v.max(1)))
            lost_s += float(np.nansum(v.max(1) - pick))
    net.train()
    return {
        "ce": round(ce_s / idx.size, 4),
        "kl": round(kl_s / idx.size, 5),
        "argmax_is_best": round(best_s / idx.size, 4),
        "chips_given_up": round(lost_s / idx.size, 3),
    }


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.oracle_targets", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    for f, v in asdict(CollectConfig()).items():
        c.add_argument(f"--{f}", type=type(v), default=v)
    c.add_argument("--out", required=True)
    f_ = sub.add_parser("fit")
    for f, v in asdict(FitConfig()).items():
        f_.add_argument(f"--{f}", type=type(v), default=v)
    f_.add_argument("--rows", nargs="+", required=True)
    f_.add_argument("--out", required=True)
    a = vars(p.parse_args(argv))
    cmd, out = a.pop("cmd"), a.pop("out")
    if cmd == "collect":
        print(json.dumps(collect(CollectConfig(**a), out), indent=1))
    else:
        rows = load_rows(a.pop("rows"))
        print(json.dumps(fit(FitConfig(**a), rows, out), indent=1))


if __name__ == "__main__":
    main()
