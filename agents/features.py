"""Decode what the rule-based agents need from a ``planes_v0`` observation batch (B, C, 34).

Only the observation is used, never the engine: the same agents run behind PettingZoo, Gymnasium
or the arena.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from envs.obs import planes_v0 as P


class Features(NamedTuple):
    hand: np.ndarray  # (B, 34) int8 own concealed counts
    n_melds: np.ndarray  # (B,) own melds
    unseen: np.ndarray  # (B, 34) int8 copies the observer cannot see
    opp_melds: np.ndarray  # (B, 3) melds of relative seats 1..3 (next, opposite, previous)
    opp_ready: np.ndarray  # (B, 3) declared ready
    opp_disc: np.ndarray  # (B, 3, 34) int8 discards of each opponent this hand
    opp_passed: np.ndarray  # (B, 3, 34) int8 tiles each opponent let go since its own last discard
    tiles_left: np.ndarray  # (B,) drawable tiles
    claim_tile: np.ndarray  # (B,) tile under claim / robbable kong, -1 on own turn


def _count(obs, ch) -> np.ndarray:
    # clipped before the cast: a foreign or corrupt observation must not give the compiled kernels
    # (agents.greedy, agents.efficiency) a count they would index tables with; a planes_v0 one is 0..4
    return np.clip(obs[:, ch : ch + 4].sum(axis=1).round(), 0, 4).astype(np.int8)


def decode(obs: np.ndarray) -> Features:
    if obs.ndim != 3 or obs.shape[1] < P.N_CHANNELS or obs.shape[2] != 34:
        raise ValueError(f"expected planes_v0 observations (B, {P.N_CHANNELS}+, 34), got {obs.shape}")
    if obs.dtype.kind != "f":  # integer planes: float arithmetic below (no int8 overflow)
        obs = obs.astype(np.float32)
    hand = _count(obs, P.CH_HAND)
    sc = obs[:, P.CH_SCALARS]
    size = np.rint(np.clip(sc[:, P.SC_HAND_SIZE : P.SC_HAND_SIZE + 4], 0, 2) * 16).astype(np.int64)
    melds = np.clip((17 - size) // 3, 0, 5)  # each clip: no effect on a planes_v0 observation (see _count)
    visible = hand.astype(np.int16)
    disc = np.zeros((obs.shape[0], 4, 34), np.int8)
    for r in range(4):
        visible += _count(obs, P.CH_MELD + 4 * r)
        disc[:, r] = _count(obs, P.CH_DISCARD + 4 * r)
        visible += disc[:, r] - np.rint(np.clip(obs[:, P.CH_CLAIMED + r], 0, 4)).astype(np.int16)
    unseen = np.clip(4 - visible, 0, 4).astype(np.int8)
    # Tiles opponent r let pass since its hand last changed: its newest discard and the newest
    # discards of the seats after it in turn order (r+1 .. 3, then me). Claims reorder turns, so
    # this is exact only in the usual flow; an opponent that always wins when it can waits on none.
    newest = np.rint(np.clip(obs[:, P.CH_RECENT : P.CH_RECENT + 16 : 4], 0, 1)).astype(np.int8)  # (B, 4, 34) j = 0
    passed = np.zeros((obs.shape[0], 3, 34), np.int8)
    for r in range(1, 4):
        passed[:, r - 1] = newest[:, r:].max(axis=1)
    answering = (obs[:, P.CH_PHASE + 1, 0] > 0) | (obs[:, P.CH_PHASE + 2, 0] > 0)
    q = obs[:, P.CH_QUESTION]
    claim = np.where(answering & (q.max(axis=1) > 0), q.argmax(axis=1), -1)
    return Features(
        hand=hand,
        n_melds=melds[:, 0],
        unseen=unseen,
        opp_melds=melds[:, 1:],
        opp_ready=sc[:, P.SC_READY + 1 : P.SC_READY + 4] > 0,
        opp_disc=np.ascontiguousarray(disc[:, 1:]),
        opp_passed=passed,
        tiles_left=np.rint(np.clip(sc[:, P.SC_DRAWABLE], 0, 2) * 128).astype(np.int64),
        claim_tile=claim.astype(np.int64),
    )
