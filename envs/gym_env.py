"""Gymnasium environments over the batch engine.

``tw16/SingleAgent-v0`` (registered by ``import envs``): one learning seat against opponent
policies. ``gymnasium.make("tw16/SingleAgent-v0", **opts)`` gives :class:`SingleAgentEnv`;
``gymnasium.make_vec("tw16/SingleAgent-v0", num_envs=N, vectorization_mode="vector_entry_point",
**opts)`` gives :class:`SingleAgentVecEnv`, N games stepped by compiled loops.

Observation: ``Dict(observation=Box(-4, 4, (C, 34), float32), action_mask=Box(0, 1, (76,), int8))``,
planes_v0 from the learner's seat (see ``envs.tw16_v0`` for the channel and action tables);
``tw16/SingleAgent-v1`` (option ``encoding="planes_v1"``) gives planes_v1 (``envs.tw16_v1``), and
opponents then see planes_v1 too (without derived planes; rule-based agents read its planes_v0 part).
Action: ``Discrete(76)``. Reward: chips won by the learner seat over its action and the opponents'
replies (reward option as in tw16_v0: tai | chips | win_loss | normalized).

Options (both envs): rule options of ``envs.rules.Rules``; ``seat`` (0..3, or None: random per
episode); ``opponents``: None (``opponent_factory(seed)``; the default factory gives
``agents.GreedyAgent``, or uniform random legal with ``DEFAULT_OPPONENT = "random"``), an agent spec string
("random", "greedy", "defensive"), an object with ``act(obs, mask)`` or a callable
``(obs (n, C, 34) float32, mask (n, 76) bool) -> actions (n,)``, or a list of three of those for
the next / opposite / previous seat; ``reward``; ``derived`` (planes with derived features);
``illegal_action`` "terminate" (the episode ends with ``illegal_reward``, default -1) or "raise";
``max_steps`` (learner decisions, then truncated); ``encoding`` "planes_v0" (the -v0 id) or "planes_v1".

Vector env: autoreset ``SAME_STEP`` (``metadata["autoreset_mode"]``): a game that ends in a step is
dealt again in that step; the returned observation is the new game's, the last one is in
``info["final_obs"]`` (a dict of batched arrays, rows valid where ``info["_final_obs"]``). A game
that would end before the learner's first decision is dealt again. Observations and masks are
preallocated C-contiguous arrays overwritten by each step (``copy=False``, the default):
``torch.from_numpy(obs["observation"])`` shares memory; copy what you keep, or pass ``copy=True``.

Self-play: :class:`SelfPlayVecEnv` lets one policy act for every seat; see its docstring and
:class:`SeatCredit` for crediting rewards to each seat's decisions (turn-based GAE).
"""

from __future__ import annotations

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from envs._core import encode_rows, planes_v1_encode
from envs.engine import state as st
from envs.engine.actions import N_ACTIONS, action_name
from envs.engine.api import Engine
from envs.engine.rng import game_seeds, mix64
from envs.engine.step import reset_some, step_some
from envs.obs import planes_v0 as pv
from envs.obs.planes_v1 import PlanesV1
from envs.obs.readable import readable, render_table
from envs.rules import Rules

ENV_ID = "tw16/SingleAgent-v0"
DEFAULT_OPPONENT = "greedy"  # agents.GreedyAgent; "random": uniform random legal (RandomLegal)
_ENV_OPTIONS = ("seat", "opponents", "opponent_factory", "reward", "derived", "illegal_action", "illegal_reward", "max_steps",
                "encoding")


# -- the driver: stepping, dealing and encoding a subset of the games --------------------------------
class Driver:
    """The engine plus subset stepping, per-game seeds and encoding into given rows (the one place
    that calls the engine's batch step directly; envs._core runs batches of PARALLEL_MIN_BATCH (256)
    games and more over threads, smaller ones on the calling thread)."""

    def __init__(self, rules: Rules, batch_size: int):
        self.engine = Engine(rules, batch_size=batch_size)
        self.B = batch_size
        self.seeds = np.zeros(batch_size, np.uint64)
        self.shapes = pv.engine_shapes(self.engine)
        self.rewards = np.zeros((batch_size, 4), np.float32)

    @property
    def s(self):
        return self.engine.s

    def deal(self, seeds, which) -> None:
        """Deal new games in rows ``which`` (bool (B,)) from ``seeds`` (uint64 (B,))."""
        self.seeds[which] = seeds[which]
        e = self.engine
        reset_some(e.s, self.seeds, which, e.opts, e.cfg, e.prof)

    def redeal(self, which) -> None:
        """Deal the games in ``which`` again, each from a seed derived from its previous one."""
        for b in np.flatnonzero(which):
            self.seeds[b] = np.uint64(mix64(int(self.seeds[b]) ^ 0x5EED))
        e = self.engine
        reset_some(e.s, self.seeds, which, e.opts, e.cfg, e.prof)

    def step(self, actions, active) -> np.ndarray:
        """Step the games in ``active``; returns this step's (B, 4) tai rewards (0 elsewhere)."""
        e = self.engine
        step_some(e.s, actions, active, e.opts, e.cfg, e.prof)
        np.multiply(e.s.rewards, active[:, None], out=self.rewards)
        return self.rewards

    def encode(self, out, rows, seats, flags) -> None:
        s = self.engine.s
        encode_rows(out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, self.engine.opts, flags, self.shapes)

    @property
    def current(self) -> np.ndarray:
        return self.engine.s.g[:, st.G_CUR]


class DriverV1(Driver):
    """The Driver that encodes planes_v1 (which also reads the 拉 ledger arrays)."""

    def encode(self, out, rows, seats, flags) -> None:
        s = self.engine.s
        planes_v1_encode(out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, s.la, s.la_k,
                         self.engine.opts, flags, self.shapes)


# encoding option -> (driver, encoder class)
ENCODINGS = {"planes_v0": (Driver, pv.PlanesV0), "planes_v1": (DriverV1, PlanesV1)}


def encoding_of(encoding):
    if not isinstance(encoding, str) or encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {list(ENCODINGS)}, got {encoding!r}")
    return ENCODINGS[encoding]


# -- opponents ------------------------------------------------------------------------------------
class RandomLegal:
    """Uniform over the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed=None):
        self.reset(seed)

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, obs, mask):
        return (self.rng.random(mask.shape, dtype=np.float32) + mask).argmax(1)


def default_opponent(seed=None):
    if DEFAULT_OPPONENT == "random":
        return RandomLegal(seed)
    from agents import make_agent  # the adapters may use agents; the engine never does

    return make_agent(DEFAULT_OPPONENT, seed=seed)


def _as_policy(x, factory, seed):
    if x is None:
        x = factory(seed)
    elif isinstance(x, str):
        from agents import make_agent

        x = make_agent(x, seed=seed)
    if hasattr(x, "act"):
        return x
    if callable(x):
        return _Callable(x)
    raise TypeError(f"an opponent is an agent spec string, an object with act(obs, mask) or a callable, got {x!r}")


class _Callable:
    def __init__(self, fn):
        self.fn = fn

    def act(self, obs, mask):
        return self.fn(obs, mask)


def make_opponents(opponents, factory=None, seed=0):
    """Three policies for relative seats 1..3 (one shared object when a single one is given)."""
    factory = factory or default_opponent
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != 3:
            raise ValueError(f"opponents: give one policy or three (next, opposite, previous), got {len(opponents)}")
        return [_as_policy(o, factory, seed + i) for i, o in enumerate(opponents)]
    p = _as_policy(opponents, factory, seed)
    return [p, p, p]


def _reseed(policies, seed):
    done = set()
    for i, p in enumerate(policies):
        if id(p) not in done and hasattr(p, "reset"):
            p.reset(int(seed) + i)
            done.add(id(p))


# -- the single-learner core shared by the env and the vector env -----------------------------------
class _Core:
    def __init__(self, num_envs, seat=0, opponents=None, opponent_factory=None, reward="tai", derived=False,
                 illegal_action="terminate", illegal_reward=-1.0, max_steps=None, encoding="planes_v0", **rule_options):
        from envs.tw16_v0 import reward_scale

        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3 or None (random per episode), got {seat!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.rules = Rules.make(**rule_options)
        self.N = int(num_envs)
        driver, encoder = encoding_of(encoding)
        self.d = driver(self.rules, self.N)
        self.enc = encoder(derived=derived)
        self.opp_enc = encoder()
        self.seat_opt = seat
        self.scale = reward_scale(self.rules, reward)
        self.illegal_action, self.illegal_reward, self.max_steps = illegal_action, float(illegal_reward), max_steps
        self.opponents = make_opponents(opponents, opponent_factory)
        self.learner = np.full(self.N, seat or 0, np.int64)
        self.obs = self.enc.alloc(self.N)
        self.mask = np.zeros((self.N, N_ACTIONS), np.int8)
        self.opp_obs = self.opp_enc.alloc(self.N)
        self.acc = np.zeros((self.N, 4), np.float32)
        self.steps = np.zeros(self.N, np.int64)
        self.rows = np.arange(self.N, dtype=np.int64)
        self.rng = np.random.default_rng(0)
        self.n_decisions = 0  # decisions applied, learner and opponents (for benchmarks)

    def reset(self, seed=None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self.rng = np.random.default_rng(seed)
        _reseed(self.opponents, seed)
        allrows = np.ones(self.N, np.bool_)
        self._pick_seats(allrows)
        self.d.deal(game_seeds(int(seed), self.N), allrows)
        self.steps[:] = 0
        self.acc[:] = 0
        self._advance()
        self._restart_early_ends(allrows)
        self._encode_learner()

    def _pick_seats(self, which):
        if self.seat_opt is None:
            self.learner[which] = self.rng.integers(0, 4, int(which.sum()))

    def _restart_early_ends(self, which):
        """Games in ``which`` that ended before the learner's first decision are dealt again."""
        while True:
            again = which & self.d.s.terminated
            if not again.any():
                return
            self.d.redeal(again)
            self.acc[again] = 0
            self._advance()

    def _advance(self):
        """Opponents act until every live game waits for its learner; rewards go to ``acc``."""
        d = self.d
        while True:
            cur = d.current
            active = (~d.s.terminated) & (cur != self.learner) & (cur >= 0)
            if not active.any():
                return
            rows = np.flatnonzero(active)
            seats = cur[rows].astype(np.int64)
            n = rows.shape[0]
            d.encode(self.opp_obs[:n], rows, seats, self.opp_enc.flags)
            mask = d.s.mask[rows]
            rel = (seats - self.learner[rows]) % 4
            acts = np.zeros(self.N, np.int64)
            if self.opponents[0] is self.opponents[1] is self.opponents[2]:
                acts[rows] = self.opponents[0].act(self.opp_obs[:n], mask)
            else:
                for o in (1, 2, 3):
                    sel = np.flatnonzero(rel == o)
                    if sel.size:
                        acts[rows[sel]] = self.opponents[o - 1].act(self.opp_obs[sel], mask[sel])
            ok = mask[np.arange(n), acts[rows]]
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                raise ValueError(f"opponent chose illegal action {acts[rows[i]]} ({action_name(acts[rows[i]])}) in game {rows[i]}")
            self.acc += d.step(acts, active)
            self.n_decisions += n

    def _encode_learner(self):
        self.d.encode(self.obs, self.rows, self.learner, self.enc.flags)
        np.copyto(self.mask, self.d.s.mask, casting="unsafe")

    def step(self, actions):
        """Learner actions (N,) -> (rewards (N,) float32, terminated, truncated, illegal (N,) bool)."""
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape[0] != self.N:
            raise ValueError(f"need {self.N} actions, got {a.shape[0]}")
        live = ~self.d.s.terminated
        ok = (a >= 0) & (a < N_ACTIONS)
        ok[ok] = self.d.s.mask[self.rows[ok], a[ok]]
        illegal = live & ~ok
        if illegal.any() and self.illegal_action == "raise":
            b = int(np.flatnonzero(illegal)[0])
            legal = [action_name(x) for x in np.flatnonzero(self.d.s.mask[b])]
            raise ValueError(f"illegal action {a[b]} in game {b} for the learner (seat {self.learner[b]}); legal: {legal}")
        self.acc[:] = 0
        self.steps += 1
        active = live & ok
        self.acc += self.d.step(np.where(active, a, 0), active)
        self.n_decisions += int(active.sum())
        self._advance()
        rew = self.scale(self.acc[self.rows, self.learner]).astype(np.float32)
        rew[illegal] = self.illegal_reward
        terminated = self.d.s.terminated | illegal
        truncated = np.zeros(self.N, np.bool_)
        if self.max_steps is not None:
            truncated = (self.steps >= self.max_steps) & ~terminated
        return rew, terminated, truncated, illegal


def _spaces(enc):
    single = spaces.Dict({
        "observation": spaces.Box(-pv.SCORE_CLIP, pv.SCORE_CLIP, enc.shape, np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
    })
    return single, spaces.Discrete(N_ACTIONS)


class SingleAgentEnv(gymnasium.Env):
    """One game, one learning seat (``tw16/SingleAgent-v0``). ``info``: ``seat``, and at the end
    ``scores`` (chips) and ``illegal_action`` when the episode ended on one."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, render_mode=None, **options):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.core = _Core(1, **options)
        self.observation_space, self.action_space = _spaces(self.core.enc)

    def _obs(self):
        return {"observation": self.core.obs[0].copy(), "action_mask": self.core.mask[0].copy()}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.core.reset(seed)
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), {"seat": int(self.core.learner[0])}

    def step(self, action):
        if self._done:
            raise RuntimeError("step() after the episode ended: call reset()")
        rew, term, trunc, illegal = self.core.step(np.array([action]))
        self._done = bool(term[0] or trunc[0])
        self.core._encode_learner()
        info = {"seat": int(self.core.learner[0])}
        if self._done:
            info["scores"] = [int(x) for x in self.core.d.s.scores[0]]
            if illegal[0]:
                info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(rew[0]), bool(term[0]), bool(trunc[0]), info

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode")
            return None
        text = render_table(readable(self.core.d.engine, 0, view=int(self.core.learner[0])))
        if self.render_mode == "human":
            print(text)
            return None
        return text


class SingleAgentVecEnv(VectorEnv):
    """N games, one learning seat each, stepped in compiled batch loops (SAME_STEP autoreset)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, copy: bool = False, **options):
        options.pop("max_episode_steps", None)
        self.core = _Core(num_envs, **options)
        self.num_envs = int(num_envs)
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces(self.core.enc)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self.final_obs = self.core.enc.alloc(self.num_envs)
        self.final_mask = np.zeros((self.num_envs, N_ACTIONS), np.int8)

    def _obs(self):
        o = {"observation": self.core.obs, "action_mask": self.core.mask}
        return {k: v.copy() for k, v in o.items()} if self.copy else o

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.core.reset(seed)
        return self._obs(), {"seat": self.core.learner.copy()}

    def step(self, actions):
        c = self.core
        rew, term, trunc, illegal = c.step(actions)
        done = term | trunc
        info = {"seat": c.learner.copy()}
        if done.any():
            c.d.encode(self.final_obs, c.rows, np.where(done, c.learner, -1).astype(np.int64), c.enc.flags)
            self.final_mask[:] = 0
            info["final_obs"] = {"observation": self.final_obs, "action_mask": self.final_mask}
            info["_final_obs"] = done.copy()
            info["illegal_action"] = illegal
            # deal again: the illegal and truncated games are cut short, all get a fresh learner seat
            c._pick_seats(done)
            c.d.redeal(done)
            c.steps[done] = 0
            c.acc[:] = 0
            c._advance()
            c._restart_early_ends(done)
        c._encode_learner()
        return self._obs(), rew, term, trunc, info

    def close_extras(self, **kwargs):
        pass


def make_vec(num_envs: int = 1, **options) -> SingleAgentVecEnv:
    """The ``vector_entry_point`` of ``tw16/SingleAgent-v0``."""
    return SingleAgentVecEnv(num_envs=num_envs, **options)


# -- self-play ------------------------------------------------------------------------------------
class SelfPlayVecEnv:
    """N games where one policy acts for every seat (not a gymnasium VectorEnv: rewards are per seat).

        env = SelfPlayVecEnv(num_envs=N, **rule_options)
        obs, info = env.reset(seed=0)          # obs dict of (N, C, 34) / (N, 76); info["seat"] (N,)
        obs, rewards, terminated, truncated, info = env.step(actions)

    ``info["seat"]`` is the seat that acts next in each game (the observation is from its view),
    ``info["acted"]`` the seat that took the action just applied. ``rewards`` is (N, 4): what each
    seat was paid in this step (seats that did not act included). Autoreset SAME_STEP as in
    :class:`SingleAgentVecEnv`. For turn-based GAE, credit every seat's rewards to its own last
    decision and bootstrap from its own next decision: :class:`SeatCredit` does this bookkeeping.
    """

    def __init__(self, num_envs: int = 1, reward="tai", derived=False, copy=False, max_steps=None,
                 encoding="planes_v0", **rule_options):
        from envs.tw16_v0 import reward_scale

        self.rules = Rules.make(**rule_options)
        self.num_envs = int(num_envs)
        driver, encoder = encoding_of(encoding)
        self.d = driver(self.rules, self.num_envs)
        self.enc = encoder(derived=derived)
        self.scale = reward_scale(self.rules, reward)
        self.copy, self.max_steps = copy, max_steps
        self.single_observation_space, self.single_action_space = _spaces(self.enc)
        self.obs = self.enc.alloc(self.num_envs)
        self.mask = np.zeros((self.num_envs, N_ACTIONS), np.int8)
        self.final_obs = self.enc.alloc(self.num_envs)
        self.rows = np.arange(self.num_envs, dtype=np.int64)
        self.steps = np.zeros(self.num_envs, np.int64)
        self.all = np.ones(self.num_envs, np.bool_)

    def _observe(self):
        self.d.encode(self.obs, self.rows, self.d.current.astype(np.int64), self.enc.flags)
        np.copyto(self.mask, self.d.s.mask, casting="unsafe")
        o = {"observation": self.obs, "action_mask": self.mask}
        return {k: v.copy() for k, v in o.items()} if self.copy else o

    def reset(self, seed=None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self.d.deal(game_seeds(int(seed), self.num_envs), self.all)
        self.steps[:] = 0
        while self.d.s.terminated.any():
            self.d.redeal(self.d.s.terminated.copy())
        return self._observe(), {"seat": self.d.current.astype(np.int64)}

    def step(self, actions):
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        acted = self.d.current.astype(np.int64)
        ok = self.d.s.mask[self.rows, np.clip(a, 0, N_ACTIONS - 1)] & (a >= 0) & (a < N_ACTIONS)
        if not ok.all():
            b = int(np.flatnonzero(~ok)[0])
            raise ValueError(f"illegal action {a[b]} in game {b} for seat {acted[b]}")
        rewards = self.scale(self.d.step(a, self.all)).astype(np.float32)
        self.steps += 1
        term = self.d.s.terminated.copy()
        trunc = np.zeros(self.num_envs, np.bool_) if self.max_steps is None else (self.steps >= self.max_steps) & ~term
        done = term | trunc
        info = {"acted": acted}
        if done.any():
            self.d.encode(self.final_obs, self.rows, np.where(done, acted, -1).astype(np.int64), self.enc.flags)
            info["final_obs"] = {"observation": self.final_obs}
            info["_final_obs"] = done
            self.steps[done] = 0
            again = done
            while again.any():
                self.d.redeal(again)
                again = again & self.d.s.terminated
        obs = self._observe()
        info["seat"] = self.d.current.astype(np.int64)
        return obs, rewards, term, trunc, info


class SeatCredit:
    """Turn-based bookkeeping for a rollout of ``T`` steps over ``N`` self-play games.

    Call ``decide(t, seat)`` before stepping (``seat`` = ``info["seat"]``, who acts at step t), then
    ``paid(rewards, done)`` with the step's (N, 4) rewards and ``terminated | truncated``. Every
    reward a seat is paid, acting or not, is added to ``reward[t', n]`` of that seat's last decision
    t' in game n. ``next_t[t, n]`` is the step of the same seat's next decision in that game, or -1
    when the game ended first (``ended[t, n]``) or the rollout ended first (bootstrap from the
    value at the last observation of that seat). Then GAE runs along these per-seat chains.
    """

    def __init__(self, T: int, N: int):
        self.reward = np.zeros((T, N), np.float32)
        self.next_t = np.full((T, N), -1, np.int64)
        self.ended = np.zeros((T, N), np.bool_)
        self.last = np.full((N, 4), -1, np.int64)  # step of each seat's last decision
        self.rows = np.arange(N)

    def decide(self, t: int, seat: np.ndarray) -> None:
        prev = self.last[self.rows, seat]
        has = prev >= 0
        self.next_t[prev[has], self.rows[has]] = t
        self.last[self.rows, seat] = t

    def paid(self, rewards: np.ndarray, done: np.ndarray) -> None:
        for s in range(4):
            t = self.last[:, s]
            has = t >= 0
            np.add.at(self.reward, (t[has], self.rows[has]), rewards[has, s])
        if done.any():
            for s in range(4):
                t = self.last[done, s]
                has = t >= 0
                self.ended[t[has], self.rows[done][has]] = True
            self.last[done] = -1
