"""Recorded hands: the replay logs (``envs.engine.replay``, read by ``tw16 replay``) of hands played by
agents.

A log is (rules, seed, actions): the hands of a batch are played as usual, every decision's action is
kept per game, and each game's log is then written by ``envs.engine.replay.record`` from its rules,
the seed of the deal it played and its actions (so a log is exactly what ``tw16 replay`` re-runs).

- ``tw16 eval ... --log-dir DIR``: :class:`HandRecorder`, one file per hand, ``wWALL-rROTATION.jsonl``
  (wall ``WALL`` of the run, seats rotated ``ROTATION`` times: agent i sits at seat (i + r) % 4).
- ``tw16 replay --seed S --agents A,B,C,D --out LOG``: ``tw16.cli.replay.record_hand``, one hand by its seed
  (with an :class:`ActionLog`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from envs.engine.replay import dumps, record
from envs.rules import Rules


class ActionLog:
    """The actions of every game of a batch, in order (``run_games``'s ``on_decision``)."""

    def __init__(self):
        self.actions: dict[int, list[int]] = {}

    def on_decision(self, games, seats, obs, mask, actions) -> None:
        for g, a in zip(np.asarray(games).tolist(), np.asarray(actions).tolist()):
            self.actions.setdefault(g, []).append(a)


class HandRecorder(ActionLog):
    """Writes each game's log to ``log_dir`` (game 4 w + r of the batch is wall ``first_wall + w``,
    rotation r)."""

    def __init__(self, log_dir, rules: Rules, first_wall: int = 0):
        super().__init__()
        self.dir = Path(log_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.rules = rules
        self.first_wall = int(first_wall)

    def path(self, game: int) -> Path:
        return self.dir / f"w{self.first_wall + game // 4:05d}-r{game % 4}.jsonl"

    def write(self, seeds: np.ndarray) -> None:
        """One log per game, from the seeds of the deals played (``arena.deal_played``)."""
        for g, seed in enumerate(np.asarray(seeds, np.uint64).tolist()):
            lines = record(self.rules, seed, self.actions.get(g, []))
            self.path(g).write_text(dumps(lines), encoding="utf-8")
        self.actions.clear()
