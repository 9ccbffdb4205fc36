"""Uniformly random legal play, entirely compiled: used by the invariant tests, the determinism
tests and the benchmark. The agent's choices come from a second per-game stream, so the engine's
own stream (walls) is the same as in any other run with the same seeds."""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.jit import njit

from envs.engine.actions import WIN
from envs.engine.invariants import check_game
from envs.hand.analysis import discard_shanten
from envs.engine.rng import next_u64, randint
from envs.engine.state import G_CUR, G_HANDS, G_PHASE, G_RESULT, P_NMELDS, PH_TURN, RES_WIN

POLICY_UNIFORM = 0  # uniform over the legal actions (the benchmark)
POLICY_GREEDY = 1  # win when legal, discard to the lowest shanten, otherwise uniform: many wins
from envs.engine.step import reset_game, step_game
from envs.engine.views import PARALLEL_MIN_BATCH, borrow, borrow_prof, borrow_state, serial_twin

# out columns per game
O_EPISODES = 0
O_HANDS = 1
O_DECISIONS = 2
O_WINS = 3  # hands ended by a win
O_ERROR = 4  # first invariant error code (0: none)
O_ERROR_STEP = 5
O_HASH = 6  # hash of every action taken (determinism checks)
N_OUT = 7


@njit(cache=True, inline="always")
def random_action(mask, arng, b, legal):
    """The r-th legal action, r uniform: one branch-free pass collects them into ``legal``."""
    n = 0
    for a in range(mask.shape[0]):
        legal[n] = a
        n += mask[a]
    if n == 0:
        return -1
    return legal[randint(arng, b, n)]


@njit(cache=True)
def greedy_action(S, b, arng, sh, legal):
    m = S.mask[b]
    if m[WIN]:
        return WIN
    if S.g[b, G_PHASE] != PH_TURN or randint(arng, b, 8) == 0:
        return random_action(m, arng, b, legal)
    seat = S.g[b, G_CUR]
    discard_shanten(S.hands[b, seat], 5 - S.p[b, seat, P_NMELDS], sh)
    best = 1 << 30
    n = 0
    for k in range(34):
        if m[k] and sh[k] < best:
            best = sh[k]
    for k in range(34):
        n += m[k] and sh[k] == best
    if n == 0:
        return random_action(m, arng, b, legal)
    r = randint(arng, b, n)
    for k in range(34):
        if m[k] and sh[k] == best:
            if r == 0:
                return k
            r -= 1
    return random_action(m, arng, b, legal)


@njit(cache=True, _nrt=False)  # no reference counts: S is borrowed, sh and legal are the caller's
def play_game(S, b, seed, arng, episodes, check, policy, opts, cfg, prof, out, sh, legal):
    """Play ``episodes`` episodes of game ``b`` with random legal actions; stop at the first error.
    ``sh`` (34) and ``legal`` (A) are scratch arrays."""
    h = np.uint64(1469598103934665603)
    sd = np.uint64(seed)
    for ep in range(episodes):
        reset_game(S, b, sd, np.int64(0), opts, cfg, prof)
        sd = next_u64(arng, b)
        while True:
            if check:
                e = check_game(S, b, opts)
                if e != 0:
                    out[b, 4] = e
                    out[b, 5] = out[b, 2]
                    return
            if S.terminated[b]:
                break
            if policy == POLICY_GREEDY:
                a = greedy_action(S, b, arng, sh, legal)
            else:
                a = random_action(S.mask[b], arng, b, legal)
            h = (h ^ np.uint64(a)) * np.uint64(1099511628211)
            hands_before = S.g[b, G_HANDS]
            step_game(S, b, a, opts, cfg, prof)
            out[b, 2] += 1
            if S.g[b, G_HANDS] != hands_before and S.g[b, G_RESULT] == RES_WIN:
                out[b, 3] += 1
        out[b, 0] += 1
        out[b, 1] += S.g[b, G_HANDS]
    out[b, 6] = np.int64(h >> np.uint64(1))


@njit(cache=True)
def play_game_borrowed(S, b, seed, arng, episodes, check, policy, opts, cfg, prof, out):
    sh = np.zeros(34, np.int64)
    legal = np.zeros(S.mask.shape[1], np.int64)
    play_game(borrow_state(S), b, seed, borrow(arng), episodes, check, policy, borrow(opts), borrow(cfg), borrow_prof(prof),
              borrow(out), borrow(sh), borrow(legal))


def _play_batch(S, seeds, agent_seeds, episodes, check, policy, opts, cfg, prof, out):
    arng = agent_seeds.copy()
    for b in prange(seeds.shape[0]):
        play_game_borrowed(S, np.int64(b), seeds[b], arng, episodes, check, policy, opts, cfg, prof, out)


play_batch = njit(cache=True, parallel=True)(_play_batch)
play_batch_serial = serial_twin(_play_batch)  # below PARALLEL_MIN_BATCH games: no thread launch


def random_play(engine, seed: int = 0, episodes: int = 1, check: bool = True, policy: int = POLICY_UNIFORM,
                games=None) -> np.ndarray:
    """Run random play on an ``Engine``'s state; returns the (B, N_OUT) int64 table. Game b uses the
    seeds of game ``games[b]`` (default b) of ``seed``, so a game can be rerun alone at batch 1."""
    from envs.engine.rng import game_seeds

    B = engine.batch_size
    idx = np.arange(B) if games is None else np.asarray(games)
    n = int(idx.max()) + 1
    seeds = game_seeds(seed, n)[idx]
    agent = game_seeds(seed ^ 0xA6E27, n)[idx]
    out = np.zeros((B, N_OUT), np.int64)
    fn = play_batch if B >= PARALLEL_MIN_BATCH else play_batch_serial
    fn(engine.s, seeds, agent, episodes, check, policy, engine.opts, engine.cfg, engine.prof, out)
    return out
