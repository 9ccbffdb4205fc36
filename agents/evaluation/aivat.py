"""AIVAT for the draws: a value function V of the state after a draw, centred over the tiles that
could have been drawn, as one more control variate of ``agents.evaluation.variance``.

For each draw (front draw, flower or kong replacement) and each seat o,

    term_o = V_o(state after the tile drawn) - sum_k undrawn[k] / n * V_o(state after kind k)

where ``undrawn`` counts the tiles not drawn yet by kind (flowers one kind). Under a uniformly
shuffled wall the drawn tile is uniform over the undrawn ones whatever the players did, so the term
has conditional mean exactly zero for ANY fixed V (``centre`` makes the weighted mean of the terms
over the candidates exactly 0: tests/test_aivat.py), and its sum over a hand is a sum of martingale
differences. V must not depend on the walls it corrects: it is a small MLP trained once by
``python -m agents.evaluation.aivat_train`` on self-play hands of other seeds and shipped as
``agents/evaluation/aivat_v1.npz`` (numbers only: loaded with ``allow_pickle=False``).

V_o reads hand-crafted features of the state after the candidate draw (``candidate_features``,
computed from ``agents.evaluation.luck.draw_parts``, the same enumeration of candidate draws the luck terms
use): the seat's shanten after the draw, who draws and who deals, the stage of the wall, whether
the kind is a ready seat's winning tile that the drawer keeps or (likely) discards, the share of the
drawer's predicted discards that deal in, the seat's flowers and melds, the ready seats around it
and the winning tiles it has left; and what the draw does to the drawer (completes its hand, makes
it ready, lowers its shanten, is a flower), which every seat sees; then
the same features of the drawer (its flowers, melds, danger: what its draw is worth to the others).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from envs.tiles import N_KINDS

FLOWER = N_KINDS  # the column of the flowers in the undrawn-tile counts (agents.evaluation.luck counts them there too)

FEATURES = (
    "sh_win",
    "sh_0",
    "sh_1",
    "sh_2",
    "sh_3",
    "drawer",
    "dealer",
    "drawer_dealer",
    "stage",
    "fed",
    "stolen",
    "deal",
    "keep",
    "fed_next",
    "deal_next",
    "flower",
    "flowers",
    "melds",
    "others_ready",
    "waits_left",
    "d_win",
    "d_ready",
    "d_better",
    "d_flower",
)
N_IN = 2 * len(FEATURES)  # a seat's own features, then the drawer's
MODEL = Path(__file__).with_name("aivat_v1.npz")
STAGE = 100.0  # undrawn tiles at the deal, about: the stage feature is undrawn / STAGE


def candidate_features(
    parts: dict, drawer: np.ndarray, undrawn: np.ndarray, dealer: np.ndarray, flowers: np.ndarray, melds: np.ndarray
) -> np.ndarray:
    """(D, 4 seats, 35 candidate kinds, N_IN) features of the state after each candidate draw (a
    seat's ``FEATURES``, then the drawer's):
    ``parts`` from ``agents.evaluation.luck.draw_parts``, ``drawer``/``dealer`` (D,), ``undrawn`` (D, 35)
    before the draw, ``flowers``/``melds`` (D, 4) counts of each seat's flowers and melds."""
    D = drawer.shape[0]
    K = N_KINDS + 1
    rows = np.arange(D)
    s0, s1, better, waits, hit = parts["s0"], parts["s1"], parts["better"], parts["waits"], parts["hit"]
    is_drawer = np.arange(4)[None, :] == drawer[:, None]  # (D, 4)
    sh = np.repeat(s0[:, :, None], K, axis=2).astype(np.int64)  # (D, 4, K): shanten after the draw
    d_sh = np.concatenate([s1, s0[rows, drawer][:, None]], axis=1)  # a flower leaves the hand as it is
    sh[rows, drawer] = np.where(better.astype(bool) | (np.arange(K) == FLOWER), d_sh, s0[rows, drawer][:, None])
    sh = np.clip(sh, -1, 3)
    f = np.zeros((D, 4, K, N_IN // 2))
    f[..., :5] = sh[..., None] == np.arange(-1, 4)
    f[..., 5] = is_drawer[:, :, None]
    f[..., 6] = (np.arange(4)[None, :] == dealer[:, None])[:, :, None]
    f[..., 7] = (drawer == dealer)[:, None, None]
    n = undrawn.sum(axis=1)
    f[..., 8] = (n / STAGE)[:, None, None]
    useless = 1 - better  # (D, K)
    f[..., 9] = waits * useless[:, None, :]
    f[..., 10] = waits * better[:, None, :]
    anyone = waits.max(axis=1)
    f[rows, drawer, :, 11] = anyone * useless
    f[rows, drawer, :, 12] = anyone * better
    f[..., 13] = hit
    f[rows, drawer, :, 14] = np.minimum(hit.sum(axis=1), 1.0)
    f[rows, drawer, FLOWER, 15] = 1
    f[..., 16] = (flowers / 4.0)[:, :, None]
    f[..., 17] = (melds / 5.0)[:, :, None]
    ready_after = (sh <= 0).astype(np.float64)  # (D, 4, K)
    f[..., 18] = ready_after.sum(axis=1, keepdims=True) - ready_after
    # a ready other seat's winning tiles still undrawn after the candidate is drawn
    left = (waits * undrawn[:, None, :]).sum(axis=2, keepdims=True) - waits  # (D, 4, K)
    f[..., 19] = left / 20.0
    # what the draw does to the drawer, seen by every seat (a self-draw costs the others)
    d_after = sh[rows, drawer]  # (D, K)
    f[..., 20] = (d_after == -1)[:, None, :]
    f[..., 21] = (d_after == 0)[:, None, :]
    f[..., 22] = better[:, None, :]
    f[:, :, FLOWER, 23] = 1
    return np.concatenate([f, np.repeat(f[rows, drawer][:, None], 4, axis=1)], axis=3)


class ValueModel:
    """V: a small MLP (ReLU) from ``FEATURES`` to a seat's expected chips of the hand, in numpy."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray]):
        if not weights or weights[0].shape[0] != N_IN or len(weights) != len(biases):
            raise ValueError(f"aivat value model: expected {N_IN} inputs and one bias per layer")
        for w, b, nxt in zip(weights, biases, [*weights[1:], None]):
            if w.ndim != 2 or b.shape != (w.shape[1],) or (nxt is not None and nxt.shape[0] != w.shape[1]):
                raise ValueError("aivat value model: layer shapes do not chain")
        if weights[-1].shape[1] != 1:
            raise ValueError("aivat value model: the last layer must have one output")
        # float32: the file's precision, and twice the speed of float64 on ~140 rows per draw
        self.weights = [np.asarray(w, np.float32) for w in weights]
        self.biases = [np.asarray(b, np.float32) for b in biases]

    @classmethod
    def load(cls, path: Path | str = MODEL) -> ValueModel:
        """Read an .npz of arrays w0, b0, w1, b1, ... (no pickles: a hostile file cannot run code)."""
        with np.load(path, allow_pickle=False) as z:
            n = sum(1 for k in z.files if k.startswith("w"))
            if sorted(z.files) != sorted([f"w{i}" for i in range(n)] + [f"b{i}" for i in range(n)]):
                raise ValueError(f"{path}: expected arrays w0, b0, w1, b1, ..., got {sorted(z.files)}")
            return cls([z[f"w{i}"] for i in range(n)], [z[f"b{i}"] for i in range(n)])

    def save(self, path: Path | str) -> None:
        arrays = {f"w{i}": w.astype(np.float32) for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b.astype(np.float32) for i, b in enumerate(self.biases)})
        np.savez(path, **arrays)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """V of every row of ``x`` (..., N_IN) -> (...)."""
        h = x.reshape(-1, N_IN).astype(np.float32)
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return h.reshape(x.shape[:-1]).astype(np.float64)


def centre(values: np.ndarray, undrawn: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """(D, 4) the AIVAT terms: ``values`` (D, 4, 35) V of each seat after each candidate kind,
    minus its mean over the undrawn tiles (``undrawn`` (D, 35) counts), read at ``drawn`` (D,)."""
    w = undrawn / undrawn.sum(axis=1, keepdims=True)
    mean = (values * w[:, None, :]).sum(axis=2)
    return values[np.arange(len(drawn)), :, drawn] - mean
