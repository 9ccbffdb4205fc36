"""Turn-based credit assignment for self-play rollouts (``training.rollout``): rewards paid to a seat
are credited to that seat's last decision, and each decision's "next state" is the same seat's next
decision in that game (``envs.gym_env.SelfPlayVecEnv`` reports per-seat rewards and who acts)."""

from __future__ import annotations

import numpy as np


class SeatCredit:
    """Turn-based bookkeeping for a rollout of ``T`` steps over ``N`` self-play games.

    Call ``decide(t, seat)`` before stepping (``seat`` = ``info["seat"]``, who acts at step t), then
    ``paid(rewards, done)`` with the step's (N, 4) rewards and ``terminated | truncated``. Every
    reward a seat is paid, acting or not, is added to ``reward[t', n]`` of that seat's last decision
    t' in game n. ``next_t[t, n]`` is the step of the same seat's next decision in that game, or -1
    when the game ended first (``ended[t, n]``) or the rollout ended first (bootstrap from the
    value at the last observation of that seat). Then GAE runs along these per-seat chains.

    ``paid(..., luck)``: (N, 4) amounts to take off each seat's credit (luck-corrected credit,
    ``training.luck_credit``), kept apart in ``luck`` (T, N) so that both the corrected rewards
    (``reward - luck``) and the plain ones are at hand; ``luck`` is None until one is paid.
    """

    def __init__(self, T: int, N: int):
        self.reward = np.zeros((T, N), np.float32)
        self.next_t = np.full((T, N), -1, np.int64)
        self.ended = np.zeros((T, N), np.bool_)
        self.last = np.full((N, 4), -1, np.int64)  # step of each seat's last decision
        self.rows = np.arange(N)
        self.luck = None

    def decide(self, t: int, seat: np.ndarray) -> None:
        prev = self.last[self.rows, seat]
        has = prev >= 0
        self.next_t[prev[has], self.rows[has]] = t
        self.last[self.rows, seat] = t

    def paid(self, rewards: np.ndarray, done: np.ndarray, luck: np.ndarray | None = None) -> None:
        if luck is not None and self.luck is None:
            self.luck = np.zeros_like(self.reward)
        for s in range(4):
            t = self.last[:, s]
            has = t >= 0
            np.add.at(self.reward, (t[has], self.rows[has]), rewards[has, s])
            if luck is not None:
                np.add.at(self.luck, (t[has], self.rows[has]), luck[has, s])
        if done.any():
            for s in range(4):
                t = self.last[done, s]
                has = t >= 0
                self.ended[t[has], self.rows[done][has]] = True
            self.last[done] = -1
