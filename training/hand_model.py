"""Training of the hand model (agents/hand_model.py): states of play with the true hands, then the
maximum-likelihood fit of its dealing rule.

    python -m training.hand_model collect --hands 8000 --seed 1 --out hm_rows.npz
    python -m training.hand_model fit --rows hm_rows.npz --out hand_model.pt
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from agents.hand_model import HandNet, opponents_hands, save, unseen
from envs.obs.planes_v0 import N_CHANNELS


def collect(hands: int, seed: int, keep: float = 0.2, agents=("neural", "defensive", "greedy", "defensive")) -> dict:
    """States of play (``agents`` seated in a random order per game, hands dealt from ``seed``), each
    decision kept with probability ``keep``: planes (float16), the seat's unseen counts ("hidden") and
    the opponents' true hands."""
    from agents import make_agent
    from agents.evaluation.arena import run_games
    from envs.engine.api import Engine
    from envs.rules import Rules

    rng = np.random.default_rng(seed)
    players = [make_agent(a, seed=seed) for a in agents]
    rows: dict[str, list] = {"planes": [], "hidden": [], "hands": []}
    for b0 in range(0, hands, 256):
        n = min(256, hands - b0)
        eng = Engine(Rules().replace(episode="hand"), n)
        eng.reset(seed * 1_000_003 + b0)
        seat_agent = np.stack([rng.permutation(4) for _ in range(n)])

        def on_decision(games, seats, obs, mask, actions, eng=eng):
            pick = rng.random(games.size) < keep
            if pick.any():
                g, s = games[pick], seats[pick].astype(np.int64)
                rows["planes"].append(obs[pick, :N_CHANNELS].astype(np.float16))
                rows["hidden"].append(unseen(obs[pick]))
                rows["hands"].append(opponents_hands(eng, g, s))

        run_games(eng, players, seat_agent, on_decision=on_decision)
    return {k: np.concatenate(v) for k, v in rows.items()}


def fit(rows: dict, epochs: int = 3, lr: float = 1e-3, batch: int = 512, seed: int = 0, holdout: float = 0.1):
    """Fit a ``HandNet``; returns it and a log of the held-out cross-entropy per draw against the
    uniform deal's."""
    torch.manual_seed(seed)
    net = HandNet()
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    n = rows["planes"].shape[0]
    n_hold = max(1, int(n * holdout))
    gen = np.random.default_rng(seed)

    def loss_of(idx):
        planes = torch.from_numpy(rows["planes"][idx].astype(np.float32))
        hidden = torch.from_numpy(rows["hidden"][idx].astype(np.float32))
        hands = torch.from_numpy(rows["hands"][idx].astype(np.float32))
        logit = net(planes, hidden) + torch.log(hidden.clamp_min(1e-9))[:, None, :]
        share = hands / hands.sum(2, keepdim=True).clamp_min(1.0)
        has = (hands.sum(2) > 0).float()
        ce = -(share * torch.log_softmax(logit, 2)).sum(2)
        uni = -(share * torch.log((hidden / hidden.sum(1, keepdim=True)).clamp_min(1e-9))[:, None, :]).sum(2)
        return (ce * has).sum() / has.sum(), (uni * has).sum() / has.sum()

    log = []
    for epoch in range(epochs):
        net.train()
        perm = gen.permutation(n - n_hold)
        for i in range(0, perm.size, batch):
            loss, _ = loss_of(np.sort(perm[i : i + batch]))
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            idx = np.arange(n - n_hold, n)
            parts = [loss_of(idx[j : j + 4096]) for j in range(0, idx.size, 4096)]
            w = [min(4096, idx.size - j) for j in range(0, idx.size, 4096)]
            ce = sum(float(p[0]) * k for p, k in zip(parts, w)) / idx.size
            uni = sum(float(p[1]) * k for p, k in zip(parts, w)) / idx.size
        log.append({"epoch": epoch + 1, "held_out_ce": round(ce, 4), "uniform_ce": round(uni, 4)})
    return net, log


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.hand_model", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="states of duplicate play with the true hands -> an .npz")
    c.add_argument("--hands", type=int, default=8000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--keep", type=float, default=0.2)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the model on collected states -> a .pt")
    f.add_argument("--rows", nargs="+", required=True)
    f.add_argument("--epochs", type=int, default=3)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", required=True)
    a = p.parse_args(argv)
    t0 = time.process_time()
    if a.cmd == "collect":
        rows = collect(a.hands, a.seed, a.keep)
        np.savez_compressed(a.out, **rows)
        print(json.dumps({"rows": int(rows["planes"].shape[0]), "cpu_s": round(time.process_time() - t0, 1)}))
        return
    parts = [np.load(r) for r in a.rows]
    rows = {k: np.concatenate([z[k] for z in parts]) for k in ("planes", "hidden", "hands")}
    net, log = fit(rows, epochs=a.epochs, seed=a.seed)
    record = {"rows": a.rows, "n": int(rows["planes"].shape[0]), "epochs": a.epochs, "seed": a.seed, "log": log}
    save(net, a.out, record)
    print(json.dumps({**record, "cpu_s": round(time.process_time() - t0, 1)}, indent=1))


if __name__ == "__main__":
    main()
