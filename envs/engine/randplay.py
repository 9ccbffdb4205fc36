"""Uniformly random legal play, entirely in the native core (native/src/randplay.cpp): used by the
invariant tests, the determinism tests and the benchmark. The agent's choices come from a second
per-game stream, so the engine's own stream (walls) is the same as in any other run with the same
seeds. From ``envs._core.PARALLEL_MIN_BATCH`` games up the batch is split over the threads set by
``envs._core.set_num_threads``; a game depends only on its own streams, so results never depend on
the thread count."""

from __future__ import annotations

import numpy as np

from envs import _core
from envs.engine.rng import game_seeds

POLICY_UNIFORM = 0  # uniform over the legal actions (the benchmark)
POLICY_GREEDY = 1  # win when legal, discard to the lowest shanten, otherwise uniform: many wins

# out columns per game
OUT_EPISODES = 0
OUT_HANDS = 1
OUT_DECISIONS = 2
OUT_WINS = 3  # hands ended by a win
OUT_ERROR = 4  # first invariant error code (0: none)
OUT_ERROR_STEP = 5
OUT_HASH = 6  # hash of every action taken (determinism checks)
N_OUT = 7


def random_play(
    engine, seed: int = 0, episodes: int = 1, check: bool = True, policy: int = POLICY_UNIFORM, games=None
) -> np.ndarray:
    """Run random play on an ``Engine``'s state; returns the (B, N_OUT) int64 table. Game b uses the
    seeds of game ``games[b]`` (default b) of ``seed``, so a game can be rerun alone at batch 1. With
    ``check`` the invariant checker runs after every step and a game stops at its first error
    (``OUT_ERROR``, ``OUT_ERROR_STEP``)."""
    B = engine.batch_size
    idx = np.arange(B) if games is None else np.asarray(games)
    n = int(idx.max()) + 1
    seeds = game_seeds(seed, n)[idx]
    agent = game_seeds(seed ^ 0xA6E27, n)[idx]
    return _core.random_play(engine.s, seeds, agent, episodes, check, policy, engine.native)
