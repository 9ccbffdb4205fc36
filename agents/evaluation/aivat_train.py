"""Train the value function V of ``agents.evaluation.aivat`` by regression on final chips of self-play hands.

    python -m agents.evaluation.aivat_train --hands 16000 --seed 2626 --hidden 64 --epochs 4 --rows R4.npz   # aivat_v4.npz
    python -m agents.evaluation.aivat_train --seed 2626 --hidden 64 --epochs 4 --rows R1.npz   # the same from v3 rows
    python -m agents.evaluation.aivat_train --version 1 --out agents/evaluation/aivat_v1.npz ...  # the v1 features

Each game seats four agents drawn (seeded) from the pool (greedy, defensive, random, the shipped
neural, in the shares ``SHARE``) on walls derived from ``--seed`` (never the published evaluation walls, whose seeds come
from a SHA-256 rule, nor the coverage study's seeds 0..19). Every draw of every hand gives four rows:
the AIVAT features of the state after the draw, for each seat, and that seat's chips at the end of
the hand (``--rows PATH`` keeps them, and a later run with the same PATH refits without playing).
V is a small MLP (``--hidden`` units, two hidden layers) fitted by Adam on the mean
squared error; the first 10% of the games (by index) are held out and their error is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

POOL = ("greedy", "defensive", "random", "neural")
SHARE = (0.3, 0.3, 0.1, 0.3)  # of the seats: random plays far from the others, a tenth keeps V on their states


def collect(hands: int, seed: int, batch: int = 512, version: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, N_IN) features, (rows,) final chips and (rows,) game index of ``hands`` self-play hands."""
    from agents import make_agent
    from agents.evaluation.aivat import seat_policies
    from agents.evaluation.arena import deal_played, duplicate_wall_seeds, hand_outcomes, run_games
    from agents.evaluation.luck import LuckRecorder
    from envs.engine.api import Engine
    from envs.rules import Rules

    rng = np.random.default_rng(seed)
    agents = [make_agent(s, seed=seed) for s in POOL]
    xs, ys, gs = [], [], []
    done = 0
    while done < hands:
        b = min(batch, hands - done)
        eng = Engine(Rules().replace(episode="hand"), batch_size=b, record_hands=True)
        deal_played(eng, duplicate_wall_seeds(seed + done, b))
        seat_agent = rng.choice(len(POOL), size=(b, 4), p=SHARE)
        rec = LuckRecorder(eng, collect=True, version=version, policies=seat_policies(agents, seat_agent))
        run_games(eng, agents, seat_agent, on_step=rec.after_step)
        chips = hand_outcomes(eng)["chips"]
        for games, f in rec.collected:
            xs.append(f.reshape(-1, f.shape[-1]))
            ys.append(chips[games].reshape(-1))
            gs.append(np.repeat(games + done, 4))
        done += b
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def read_rows(paths, version: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``collect`` kept in .npz files (numbers only), concatenated, each file's games
    numbered after the previous file's."""
    from agents.evaluation.aivat import n_inputs

    xs, ys, gs, base = [], [], [], 0
    for path in paths:
        with np.load(path, allow_pickle=False) as z:
            x, y, g = z["x"], z["y"], z["g"]
        if version >= 4 and x.ndim == 2 and x.shape[1] == n_inputs(3):
            x = table_rows(x, g, path)  # v3 rows: the same draws, the other seats' features added
        if x.ndim != 2 or x.shape[1] != n_inputs(version) or not len(x) == len(y) == len(g):
            raise ValueError(
                f"{path}: expected rows of {n_inputs(version)} features with chips and games, got {x.shape}"
            )
        xs.append(x)
        ys.append(y)
        gs.append(g + base)
        base += int(g.max()) + 1
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def table_rows(x3: np.ndarray, g: np.ndarray, path="rows") -> np.ndarray:
    """v4 rows from v3 rows: ``collect`` keeps the four seats of each draw together (seat 0..3), so
    each row gets the other seats' own features (``aivat.whole_table``) as v4's collection gives them."""
    from agents.evaluation.aivat import whole_table

    if len(x3) % 4 or (g.reshape(-1, 4) != g[::4, None]).any():
        raise ValueError(f"{path}: the rows are not whole draws of four seats")
    return whole_table(x3.reshape(-1, 4, x3.shape[1])).reshape(len(x3), -1)


def fit(x: np.ndarray, y: np.ndarray, games: np.ndarray, hidden: int, epochs: int, seed: int, version: int = 3):
    """The fitted ``ValueModel`` and the held-out mean squared errors (V and the constant mean)."""
    import torch

    from agents.evaluation.aivat import ValueModel

    torch.manual_seed(seed)
    hold = games < games.max() * 0.1
    # v3 on: V adds the chips of the drawer's predicted response to the MLP (``ValueModel.offset``),
    # so the MLP fits what is left
    offset = ValueModel([np.zeros((x.shape[1], 1))], [np.zeros(1)], version).offset(x[~hold])
    # v4 on (``ValueModel.zero_sum``): a batch is whole draws, the MLP's four outputs centred over the seats
    seats = 4 if version >= 4 else 1
    xt = torch.tensor(x[~hold], dtype=torch.float32).reshape(-1, seats, x.shape[1])
    yt = torch.tensor(y[~hold] - offset, dtype=torch.float32).reshape(-1, seats)
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, 1),
    )
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(seed)

    def v(rows):
        out = net(rows)[..., 0]
        return out - out.mean(dim=1, keepdim=True) if seats == 4 else out

    for _ in range(epochs):
        for idx in torch.randperm(len(xt), generator=g).split(4096 // seats):
            loss = ((v(xt[idx]) - yt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    lin = [m for m in net if isinstance(m, torch.nn.Linear)]
    model = ValueModel(
        [m.weight.detach().numpy().T.copy() for m in lin], [m.bias.detach().numpy().copy() for m in lin], version
    )
    err = float(np.mean((model(x[hold].reshape(-1, seats, 1, x.shape[1])).reshape(-1) - y[hold]) ** 2))
    base = float(np.mean((y[hold] - y[~hold].mean()) ** 2))
    return model, {"heldout_mse": err, "heldout_mse_constant": base}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.aivat_train", description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=6000)
    p.add_argument("--seed", type=int, default=2626)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--version", type=int, default=4, help="the feature version (agents.evaluation.aivat.VERSIONS)")
    p.add_argument("--out", default=None, help="the model file (default agents/evaluation/aivat_v<version>.npz)")
    p.add_argument(
        "--rows",
        nargs="+",
        default=None,
        help="an .npz of the collected rows: read it if it exists, else play and write it; several existing "
        "files are read and fitted together (their games numbered one after the other)",
    )
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    t0 = time.time()
    if a.rows and all(Path(r).exists() for r in a.rows):
        x, y, g = read_rows(a.rows, a.version)
    elif a.rows and len(a.rows) > 1:
        p.error(
            f"--rows: {[r for r in a.rows if not Path(r).exists()]} missing (only a single file is played and written)"
        )
    else:
        x, y, g = collect(a.hands, a.seed, version=a.version)
        x = x.astype(np.float32)  # as the rows are kept: a refit from --rows gives the same V
        if a.rows:
            np.savez(a.rows[0], x=x, y=y, g=g)
    t1 = time.time()
    model, errs = fit(x, y, g, a.hidden, a.epochs, a.seed, a.version)
    out = a.out or f"agents/evaluation/aivat_v{a.version}.npz"
    model.save(out)
    print(
        json.dumps(
            {
                "hands": int(g.max()) + 1,  # the games the rows come from (read from --rows or played)
                "seed": a.seed,
                "version": a.version,
                "rows": len(y),
                "collect_s": round(t1 - t0, 1),
                "fit_s": round(time.time() - t1, 1),
                **errs,
                "out": out,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
