"""The rollout of PPO self-play (``training.ppo``): ``num_envs`` self-play games stepped
``rollout_steps`` times per ``collect``, the opponent pool, and GAE along each seat's chain of
decisions. It runs in the learner's process or inside each Ray rollout worker
(``training.distributed``): both import it from here, so neither imports the other's module.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from agents import make_agent
from agents.neural import NeuralAgent, PolicyValueNet, masked_logits, net_input
from envs.gym_env import SelfPlayVecEnv
from envs.obs.planes_v0 import N_CHANNELS
from envs.seats import act_by_seat
from training.config import TrainConfig
from training.credit import SeatCredit


def gae(values, rewards, ended, next_t, gamma, lam):
    """Advantages (T, N) along each seat's chain of decisions (``SeatCredit``): the "next state" of a
    decision is the same seat's next decision in that game; a chain still open when the rollout
    stops bootstraps on the decision's own value."""
    T, N = values.shape
    cols = np.arange(N)
    adv = np.zeros((T, N), np.float32)
    for t in range(T - 1, -1, -1):
        nt = next_t[t]
        has = (nt >= 0) & ~ended[t]
        nxt = np.where(has, nt, t)
        nv = np.where(ended[t], 0.0, values[nxt, cols])
        na = np.where(has, adv[nxt, cols], 0.0)
        delta = rewards[t] + gamma * nv - values[t]
        adv[t] = delta + gamma * lam * na
    return adv, adv + values


class Opponents:
    """Rule-based agents and a pool of frozen snapshots of the policy. Each snapshot has a serial id
    (``pool_ids``), by which rollout workers keep their copy of the pool in step with the learner's."""

    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.rule = {n: make_agent(n, seed=cfg.seed) for n in cfg.opponents if n != "pool"}
        self.pool: list[NeuralAgent] = []
        self.pool_ids: list[int] = []

    def snapshot(self, net: PolicyValueNet) -> None:
        self.add(self.pool_ids[-1] + 1 if self.pool_ids else 0, net.state_dict(), seed=len(self.pool))

    def add(self, snap_id: int, state: dict, seed: int) -> None:
        clone = PolicyValueNet(self.cfg.net)
        clone.load_state_dict(state)
        self.pool.append(NeuralAgent(net=clone, sample=True, seed=seed))
        self.pool_ids.append(snap_id)
        self.pool, self.pool_ids = self.pool[-self.cfg.pool_size :], self.pool_ids[-self.cfg.pool_size :]

    def choices(self) -> list:
        agents = list(self.rule.values())
        if "pool" in self.cfg.opponents:
            agents += self.pool
        return agents


def assign_seats(rng, n: int, cfg: TrainConfig, n_opponents: int):
    """Per game: which seats the learner plays, and which opponent plays each other seat."""
    learner = np.zeros((n, 4), bool)
    selfplay = rng.random(n) < cfg.selfplay_frac
    learner[selfplay] = True
    one = np.flatnonzero(~selfplay)
    learner[one, rng.integers(0, 4, one.size)] = True
    opp = rng.integers(0, max(n_opponents, 1), (n, 4))
    return learner, opp


@dataclass
class Batch:
    """The learner's decisions of one rollout (one row each) with their advantages and returns, plus
    the learner's result of every hand that ended during it and the decisions stepped (all seats)."""

    obs: np.ndarray
    mask: np.ndarray
    act: np.ndarray
    logp: np.ndarray
    adv: np.ndarray
    ret: np.ndarray
    val: np.ndarray
    ep_returns: list
    decisions: int

    @staticmethod
    def concat(parts: list[Batch]) -> Batch:
        arrays = {k: np.concatenate([getattr(b, k) for b in parts]) for k in ("obs", "mask", "act", "logp", "adv", "ret", "val")}
        return Batch(**arrays, ep_returns=[r for b in parts for r in b.ep_returns], decisions=sum(b.decisions for b in parts))


class Rollout:
    """``num_envs`` self-play games, stepped ``cfg.rollout_steps`` times per ``collect``: the learner's
    seats act with ``net`` (sampled), the others with opponents drawn from ``opponents.choices()``,
    re-drawn (with ``rng``) whenever a game ends. Games run on across calls. Used in process by
    ``train`` and inside each Ray rollout worker (``training.distributed``)."""

    def __init__(self, cfg: TrainConfig, rule_options: dict, rng, seed: int, num_envs: int | None = None):
        self.cfg, self.rng = cfg, rng
        self.N = N = cfg.num_envs if num_envs is None else int(num_envs)
        T = cfg.rollout_steps
        derived = cfg.net.in_channels > N_CHANNELS  # the net reads the derived planes (shanten, waits, unseen)
        self.env = SelfPlayVecEnv(N, derived=derived, **rule_options)
        obs_d, info = self.env.reset(seed=seed)
        self.obs, self.mask, self.seat = obs_d["observation"], obs_d["action_mask"], info["seat"]
        self.learner = self.opp_idx = None  # seats are drawn at the first collect (when the pool is known)
        # rollout storage: every step of every game; only learner rows leave ``collect``
        self.b_obs = np.zeros((T, N, cfg.net.net_channels, self.obs.shape[2]), np.float32)  # learner rows only
        self.b_mask = np.zeros((T, N, self.mask.shape[1]), np.bool_)
        self.b_act = np.zeros((T, N), np.int64)
        self.b_logp = np.zeros((T, N), np.float32)
        self.b_val = np.zeros((T, N), np.float32)
        self.b_learn = np.zeros((T, N), np.bool_)
        self.hand_tai = np.zeros((N, 4))
        self.games = np.arange(N)

    def collect(self, net: PolicyValueNet, opponents: Opponents) -> Batch:
        cfg, rng, env, games = self.cfg, self.rng, self.env, self.games
        T, N = cfg.rollout_steps, self.N
        obs, mask, seat = self.obs, self.mask, self.seat
        choices = opponents.choices()
        if self.learner is None:
            self.learner, self.opp_idx = assign_seats(rng, N, cfg, len(choices))
        learner, opp_idx, hand_tai = self.learner, self.opp_idx, self.hand_tai
        b_obs, b_mask, b_act, b_logp, b_val, b_learn = self.b_obs, self.b_mask, self.b_act, self.b_logp, self.b_val, self.b_learn
        ep_returns: list[float] = []
        credit = SeatCredit(T, N)
        net.eval()
        for t in range(T):
            credit.decide(t, seat)
            is_l = learner[games, seat]
            b_mask[t], b_learn[t] = mask, is_l
            actions = np.zeros(N, np.int64)
            lg = games[is_l]
            if lg.size:
                x = net_input(obs[lg], cfg.net)
                b_obs[t, lg] = x
                with torch.no_grad():
                    logits, v = net(torch.from_numpy(x))
                    dist = torch.distributions.Categorical(logits=masked_logits(logits, torch.from_numpy(mask[lg])))
                    a = dist.sample()
                actions[lg] = a.numpy()
                b_logp[t, lg] = dist.log_prob(a).numpy()
                b_val[t, lg] = v.numpy()
            act_by_seat(choices, np.where(is_l, -1, opp_idx[games, seat]), obs, mask, actions)
            b_act[t] = actions
            obs_d, rewards, term, trunc, info = env.step(actions)
            obs, mask, seat = obs_d["observation"], obs_d["action_mask"], info["seat"]
            done = term | trunc
            credit.paid(rewards * cfg.reward_scale, done)
            hand_tai += rewards
            if done.any():
                ended = np.flatnonzero(done)
                ep_returns.extend(float(hand_tai[g][learner[g]].mean()) for g in ended)
                hand_tai[ended] = 0
                learner[ended], opp_idx[ended] = assign_seats(rng, ended.size, cfg, len(choices))
        self.obs, self.mask, self.seat = obs, mask, seat
        # -- advantages along each seat's chain; keep the learner's decisions ------------------
        adv, ret = gae(b_val, credit.reward, credit.ended, credit.next_t, cfg.gamma, cfg.gae_lambda)
        sel = b_learn.reshape(-1)
        return Batch(obs=b_obs.reshape((T * N,) + b_obs.shape[2:])[sel], mask=b_mask.reshape(T * N, -1)[sel],
                     act=b_act.reshape(-1)[sel], logp=b_logp.reshape(-1)[sel], adv=adv.reshape(-1)[sel],
                     ret=ret.reshape(-1)[sel], val=b_val.reshape(-1)[sel], ep_returns=ep_returns, decisions=T * N)  # fmt: skip

    def close(self) -> None:
        pass
