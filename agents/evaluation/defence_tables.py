"""Measure the tables Defensive's expected-value defence reads (agents/greedy.py) in Greedy self-play.

    python -m agents.evaluation.defence_tables --walls 3000 --seed 1

Plays 4 Greedy seats, logs every own-turn discard (the shanten and ukeire it leaves, the tiles left,
each opponent's melds and true readiness from the engine's hidden hands, whether the discard was a
winning tile for it, its ``tile_danger``) and the hand's outcome, then prints:
- WIN_LOGIT: per shanten left (0..4+), the logistic fit of "this seat wins the hand" on
  (1, log1p(ukeire), tiles_left / 64);
- READY_P: P(an opponent is ready) by its melds (0..4+) and tiles_left // 16 (0..3+) (None where fewer
  than 31 cases: four melds with 48+ tiles left, which agents/greedy.py sets to 0.85);
- the hit rate P(the discard wins for the opponent | it is ready) by danger bucket (for the slope/cap);
- the average chips of a discard win, a self-draw, a deal-in and of a non-winner.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.evaluation.arena import hand_outcomes, run_games
from agents.features import decode
from agents.greedy import GreedyAgent
from envs._core import is_complete_batch, shanten_batch, tile_danger, ukeire
from envs.engine.actions import DISCARD
from envs.engine.api import Engine
from envs.rules import Rules


def _log_rows(
    hands_all,
    nmelds_all,
    cur,
    dtile,
    hand,
    n_melds,
    unseen,
    opp_disc,
    opp_passed,
    s_out,
    u_out,
    win_out,
    dang_out,
    ready_out,
):
    """Per logged discard i (tile dtile[i] from hand[i]): the shanten and ukeire it leaves, and per
    opponent o (relative seats 1..3, true hands from hands_all): ready, the danger of the tile, and
    whether it completes that hand. Fills the *_out arrays."""
    n = hand.shape[0]
    if n == 0:
        return
    rows = np.arange(n)
    h = hand.astype(np.int8)  # a copy
    h[rows, dtile] -= 1
    ns = (5 - n_melds).astype(np.int64)
    s_out[:] = shanten_batch(h, ns)
    for i in range(n):
        u_out[i] = ukeire(h[i], int(ns[i]), int(s_out[i]), unseen[i]) if s_out[i] >= 0 else 0
    for o in range(3):
        seat = (cur + 1 + o) % 4
        oh = hands_all[rows, seat].astype(np.int8)
        ons = (5 - nmelds_all[rows, seat]).astype(np.int64)
        ready_out[:, o] = shanten_batch(oh, ons) == 0
        for i in range(n):
            dang_out[i, o] = tile_danger(int(dtile[i]), opp_passed[i, o], opp_disc[i, o], unseen[i])
        room = oh[rows, dtile] < 4
        oh[rows[room], dtile[room]] += 1
        win_out[room, o] = is_complete_batch(oh[room], ons[room])


def collect(n_walls: int, seed: int) -> dict:
    eng = Engine(Rules().replace(episode="hand"), batch_size=n_walls, record_hands=True)
    eng.reset(np.random.SeedSequence(seed).generate_state(n_walls, dtype=np.uint64))
    rows: dict[str, list] = {k: [] for k in ("game", "seat", "tl", "s", "u", "melds", "win", "danger", "ready")}

    def on_decision(live, cur, obs, mask, actions):
        sel = np.flatnonzero((actions >= DISCARD) & (actions < DISCARD + 34))
        if not sel.size:
            return
        g, f, n = live[sel], decode(obs[sel]), sel.size
        s, u = np.zeros(n, np.int64), np.zeros(n, np.int64)
        win, danger, ready = np.zeros((n, 3), np.bool_), np.zeros((n, 3), np.int64), np.zeros((n, 3), np.bool_)
        _log_rows(
            eng.hands[g].astype(np.int8),
            eng.n_melds[g],
            cur[sel],
            actions[sel] - DISCARD,
            f.hand.copy(),
            f.n_melds,
            f.unseen,
            f.opp_disc,
            f.opp_passed,
            s,
            u,
            win,
            danger,
            ready,
        )
        for k, v in (
            ("game", g),
            ("seat", cur[sel]),
            ("tl", f.tiles_left),
            ("s", s),
            ("u", u),
            ("melds", f.opp_melds),
            ("win", win),
            ("danger", danger),
            ("ready", ready),
        ):
            rows[k].append(v)

    run_games(eng, [GreedyAgent()] * 4, np.tile(np.arange(4), (n_walls, 1)), on_decision=on_decision)
    out = {k: np.concatenate(v) for k, v in rows.items()}
    out.update({"out_" + k: v for k, v in hand_outcomes(eng).items()})
    return out


def _logit_fit(x, y, iters=25, l2=1e-3):
    w = np.zeros(x.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-x @ w))
        h = x.T @ (x * (p * (1 - p))[:, None]) + l2 * np.eye(len(w))
        w += np.linalg.solve(h, x.T @ (y - p) - l2 * w)
    return w


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    z = collect(args.walls, args.seed)
    won = z["out_won"][z["game"], z["seat"]].astype(np.float64)
    coef = []
    for k in range(5):
        sel = (np.minimum(z["s"], 4) == k) & (z["s"] >= 0)
        x = np.stack([np.ones(sel.sum()), np.log1p(z["u"][sel]), z["tl"][sel] / 64], 1)
        coef.append(_logit_fit(x, won[sel]))
    print("WIN_LOGIT =", np.round(np.array(coef), 3).tolist())
    melds, tlb = np.minimum(z["melds"], 4), np.minimum(z["tl"] // 16, 3)[:, None]
    table = [
        [
            round(float(z["ready"][(melds == m) & (tlb == b)].mean()), 2)
            if ((melds == m) & (tlb == b)).sum() > 30
            else None
            for b in range(4)
        ]
        for m in range(5)
    ]
    print("READY_P =", table)
    for lo in range(0, 180, 20):
        sel = (z["danger"] >= lo) & (z["danger"] < lo + 20) & z["ready"]
        print(f"danger {lo:3d}-{lo + 19:3d}: P(win | ready) {z['win'][sel].mean():.3f} (n={sel.sum()})")
    ch, w, sd, di = z["out_chips"], z["out_won"], z["out_self_drawn"], z["out_dealt_in"]
    print(
        f"chips: discard win {ch[w & ~sd].mean():.1f}, self-draw {ch[sd].mean():.1f}, deal-in {ch[di].mean():.1f}, "
        f"non-winner {ch[~w].mean():.1f}; win rate {w.mean():.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
