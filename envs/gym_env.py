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
episode); ``opponents``: None (``opponent_factory(seed)``; the default factory gives the policy
named ``envs.policies.DEFAULT_OPPONENT``, "greedy"), a spec string ("random", "greedy", "defensive",
...: names other than "random" are registered by ``import agents``, see ``envs.policies``), an
object with ``act(obs, mask)`` or a callable
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
``training.credit.SeatCredit`` for crediting rewards to each seat's decisions (turn-based GAE).

Threads: an env is used by one thread at a time (its agent selection and cached views are its own).
Misuse from two threads cannot corrupt its engine's games or crash the process (every native call
holds the engine's memory: docs/robustness.md, "Threads"), but the env's answers and bookkeeping are
then those of some interleaving; separate envs in separate threads are independent.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from envs.driver import encoding_of
from envs.engine.actions import N_ACTIONS, action_name
from envs.engine.rng import game_seeds
from envs.obs import planes_v0 as pv
from envs.obs.readable import readable, render_table
from envs.policies import make_opponents, reseed
from envs.rewards import reward_scale
from envs.rules import Rules
from envs.seats import act_by_seat
from envs.validate import env_action, env_actions, env_options

ENV_ID = "tw16/SingleAgent-v0"
_ENV_OPTIONS = (
    "seat",
    "opponents",
    "opponent_factory",
    "reward",
    "derived",
    "illegal_action",
    "illegal_reward",
    "max_steps",
    "encoding",
)


# -- the single-learner core shared by the env and the vector env -----------------------------------
class _Core:
    def __init__(
        self,
        num_envs,
        seat=0,
        opponents=None,
        opponent_factory=None,
        reward="tai",
        derived=False,
        illegal_action="terminate",
        illegal_reward=-1.0,
        max_steps=None,
        encoding="planes_v0",
        **rule_options,
    ):
        if seat is not None and (
            isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or seat not in (0, 1, 2, 3)
        ):
            raise ValueError(f"seat must be 0..3 or None (random per episode), got {seat!r}")
        # the PettingZoo env's checks of the env options (envs.validate.env_options: one function for both)
        illegal_reward, max_steps = env_options(derived, max_steps, illegal_action, illegal_reward)
        self.rules = Rules.make(**rule_options)
        self.N = int(num_envs)
        driver, encoder = encoding_of(encoding)
        self.d = driver(self.rules, self.N)
        self.enc = encoder(derived=derived)
        self.opp_enc = encoder()
        self.seat_opt = seat
        self.scale = reward_scale(self.rules, reward)
        self.illegal_action, self.illegal_reward, self.max_steps = illegal_action, illegal_reward, max_steps
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
        reseed(self.opponents, seed)
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
            again = which & self.d.terminated
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
            active = (~d.terminated) & (cur != self.learner) & (cur >= 0)
            if not active.any():
                return
            rows = np.flatnonzero(active)
            seats = cur[rows].astype(np.int64)
            n = rows.shape[0]
            d.encode(self.opp_obs[:n], rows, seats, self.opp_enc.flags)
            mask = d.mask[rows]
            rel = (seats - self.learner[rows]) % 4  # 1 next, 2 opposite, 3 previous
            acts = np.zeros(self.N, np.int64)
            sub = np.zeros(n, np.int64)
            act_by_seat(self.opponents, rel - 1, self.opp_obs[:n], mask, sub)
            acts[rows] = sub
            ok = mask[np.arange(n), acts[rows]]
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                raise ValueError(
                    f"opponent chose illegal action {acts[rows[i]]} ({action_name(acts[rows[i]])}) in game {rows[i]}"
                )
            self.acc += d.step(acts, active)
            self.n_decisions += n

    def _encode_learner(self):
        self.d.encode(self.obs, self.rows, self.learner, self.enc.flags)
        np.copyto(self.mask, self.d.mask, casting="unsafe")

    def step(self, actions):
        """Learner actions (N,) -> (rewards (N,) float32, terminated, truncated, illegal (N,) bool)."""
        a = env_actions(actions, self.N, self.illegal_action)  # the PettingZoo env's rule (envs.validate)
        live = ~self.d.terminated
        ok = (a >= 0) & (a < N_ACTIONS)
        ok[ok] = self.d.mask[self.rows[ok], a[ok]]
        illegal = live & ~ok
        if illegal.any() and self.illegal_action == "raise":
            b = int(np.flatnonzero(illegal)[0])
            legal = [action_name(x) for x in np.flatnonzero(self.d.mask[b])]
            raise ValueError(
                f"illegal action {a[b]} in game {b} for the learner (seat {self.learner[b]}); legal: {legal}"
            )
        self.acc[:] = 0
        self.steps += 1
        active = live & ok
        self.acc += self.d.step(np.where(active, a, 0), active)
        self.n_decisions += int(active.sum())
        self._advance()
        rew = self.scale(self.acc[self.rows, self.learner]).astype(np.float32)
        rew[illegal] = self.illegal_reward
        terminated = self.d.terminated | illegal
        truncated = np.zeros(self.N, np.bool_)
        if self.max_steps is not None:
            truncated = (self.steps >= self.max_steps) & ~terminated
        return rew, terminated, truncated, illegal


def _spaces(enc):
    single = spaces.Dict(
        {
            "observation": spaces.Box(-pv.SCORE_CLIP, pv.SCORE_CLIP, enc.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )
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
        a = env_action(action, "learner", self.core.illegal_action)  # as tw16_v0's step (envs.validate)
        rew, term, trunc, illegal = self.core.step(np.array([a], np.int64))
        self._done = bool(term[0] or trunc[0])
        self.core._encode_learner()
        info = {"seat": int(self.core.learner[0])}
        if self._done:
            info["scores"] = [int(x) for x in self.core.d.engine.scores[0]]
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
    decision and bootstrap from its own next decision: ``training.credit.SeatCredit`` does this bookkeeping.
    """

    def __init__(
        self,
        num_envs: int = 1,
        reward="tai",
        derived=False,
        copy=False,
        max_steps=None,
        encoding="planes_v0",
        **rule_options,
    ):
        _, max_steps = env_options(derived, max_steps)
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
        np.copyto(self.mask, self.d.mask, casting="unsafe")
        o = {"observation": self.obs, "action_mask": self.mask}
        return {k: v.copy() for k, v in o.items()} if self.copy else o

    def reset(self, seed=None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self.d.deal(game_seeds(int(seed), self.num_envs), self.all)
        self.steps[:] = 0
        while self.d.terminated.any():
            self.d.redeal(self.d.terminated.copy())
        return self._observe(), {"seat": self.d.current.astype(np.int64)}

    def step(self, actions):
        a = env_actions(actions, self.num_envs, "raise")  # integers of shape (N,) (envs.validate)
        acted = self.d.current.astype(np.int64)
        # (each in 0..75 and legal: the core's check, before any game moves; Engine.step's messages)
        rewards = self.scale(self.d.step(a, self.all)).astype(np.float32)
        self.steps += 1
        term = self.d.terminated.copy()
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
                again = again & self.d.terminated
        obs = self._observe()
        info["seat"] = self.d.current.astype(np.int64)
        return obs, rewards, term, trunc, info
