"""The rollout of PPO self-play (``training.ppo``): ``num_envs`` self-play games stepped
``rollout_steps`` times per ``collect``, the opponent pool, and GAE along each seat's chain of
decisions. It runs in the learner's process or inside each Ray rollout worker
(``training.distributed``): both import it from here, so neither imports the other's module.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from agents import make_agent
from agents.device import resolve_device, synchronize
from agents.evaluation.luck import LuckRecorder
from agents.neural import NeuralAgent, PolicyValueNet, masked_logits, net_input
from agents.search import oracle_values
from envs.driver import Driver
from envs.engine.actions import N_ACTIONS
from envs.engine.rng import game_seeds
from envs.obs.oracle_v0 import N_ORACLE_EXTRA, OracleV0
from envs.obs.planes_v0 import N_CHANNELS, PlanesV0
from envs.rules import Rules
from envs.seats import act_by_seat
from training.config import TrainConfig
from training.credit import SeatCredit
from training.luck_credit import BETA_FILE, load_beta

# where a rollout's time goes (``Rollout.timing``, CPU seconds of this process by default, so that
# neighbours on a shared machine do not blur the breakdown; ``tw16 bench train`` reads wall seconds):
# encoding every game's observation, the networks' input (efficiency planes), the networks' forward
# passes and sampling, the rule-based opponents, the engine's step (and new deals), the advantages, and
# the copies between the CPU and the device (zero on the CPU, where the networks read the arrays in place)
TIMING_PARTS = ("encode", "net_input", "forward", "opponents", "engine", "gae", "transfer", "oracle")


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
    """The opponents' seats: one slot per entry of ``cfg.opponents`` (a name given twice is drawn twice
    as often), each a rule-based agent or ``"pool"``: frozen snapshots of the policy, of which each
    rollout plays one (``pick``), so a step costs one forward for the pool whatever its size. Each
    snapshot has a serial id (``pool_ids``), by which rollout workers keep their copy of the pool in
    step with the learner's."""

    def __init__(self, cfg: TrainConfig, device: str | torch.device = "cpu"):
        self.cfg = cfg
        self.device = torch.device(device)  # where the pool's snapshots run (the learner's device)
        self.rule = {n: make_agent(n, seed=cfg.seed) for n in cfg.opponents if n != "pool"}
        self.rule_agents = list(self.rule.values())
        # slot -> index into rule_agents, or -1 for the pool
        self.slot_rule = np.array([-1 if n == "pool" else list(self.rule).index(n) for n in cfg.opponents], np.int64)
        self.pool: list[NeuralAgent] = []
        self.pool_ids: list[int] = []

    def snapshot(self, net: PolicyValueNet) -> None:
        self.add(self.pool_ids[-1] + 1 if self.pool_ids else 0, net.state_dict(), seed=len(self.pool))

    def add(self, snap_id: int, state: dict, seed: int) -> None:
        clone = PolicyValueNet(self.cfg.net)
        clone.load_state_dict(state)
        self.pool.append(NeuralAgent(net=clone, device=self.device, sample=True, seed=seed))
        self.pool_ids.append(snap_id)
        self.pool, self.pool_ids = self.pool[-self.cfg.pool_size :], self.pool_ids[-self.cfg.pool_size :]

    def pick(self, rng) -> PolicyValueNet | None:
        """The snapshot the pool's seats play in one rollout (drawn uniformly), or None without a pool slot."""
        if not (self.slot_rule < 0).any():
            return None
        if not self.pool:
            raise ValueError("the opponents include 'pool' but the pool is empty: call snapshot(net) first")
        return self.pool[int(rng.integers(len(self.pool)))].net


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
    the learner's result of every hand that ended during it and the decisions stepped (all seats).
    From ``Rollout.collect``, ``obs`` and ``mask`` are views of the rollout's storage, valid until its
    next ``collect`` (fresh pages every rollout cost 10 us a decision); ``concat`` copies."""

    obs: np.ndarray
    mask: np.ndarray
    act: np.ndarray
    logp: np.ndarray
    adv: np.ndarray
    ret: np.ndarray
    val: np.ndarray
    ep_returns: list
    decisions: int
    hidden: np.ndarray | None = None  # the oracle critic's hidden planes (uint8 0/1) of each row, if it runs
    # with luck-corrected credit (``TrainConfig.luck_credit``): the advantages and returns the plain
    # rewards would have given, for the diagnostics (the update reads ``adv`` and ``ret``)
    adv_raw: np.ndarray | None = None
    ret_raw: np.ndarray | None = None

    @staticmethod
    def concat(parts: list[Batch]) -> Batch:
        keys = ("obs", "mask", "act", "logp", "adv", "ret", "val") + tuple(
            k for k in ("hidden", "adv_raw", "ret_raw") if getattr(parts[0], k) is not None
        )
        arrays = {k: np.concatenate([getattr(b, k) for b in parts]) for k in keys}
        return Batch(
            **arrays, ep_returns=[r for b in parts for r in b.ep_returns], decisions=sum(b.decisions for b in parts)
        )


class OracleAdvantage:
    """``TrainConfig.advantage == "oracle"``: each learner decision's advantage from the oracle search
    (``envs._core.search_batch`` with ``oracle=True``, agents/search.py): the sampled action and the
    policy's next ``oracle_n - 1`` most probable legal actions, each played out from the true state
    under the same ``oracle_k`` wall orders (the hidden hands kept) by the rollout policy at every seat;
    the sampled action's mean chips minus the policy-weighted mean of the candidates', in reward units.
    Decisions with nothing to search (one legal action, or a win first) get 0."""

    def __init__(self, cfg: TrainConfig, seed: int):
        self.k, self.n, self.rollout = cfg.oracle_k, cfg.oracle_n, cfg.oracle_rollout
        self.scale = cfg.reward_scale
        self.rng = np.random.default_rng([int(seed), 0x0AC1E])  # the searches' seeds, apart from the sampling

    def __call__(self, engine, games, taken, net, x, mask) -> np.ndarray:
        with torch.inference_mode():
            p = torch.softmax(masked_logits(net(torch.from_numpy(x))[0], torch.from_numpy(mask)), -1).numpy()
        order = np.argsort(-p, axis=1, kind="stable")
        order = order[order != taken[:, None]].reshape(len(games), -1)[:, : self.n - 1]  # the others, best first
        cands = np.concatenate([taken[:, None], order], axis=1).astype(np.int64)
        cands[~np.take_along_axis(mask, cands, axis=1)] = -1
        seeds = self.rng.integers(0, 1 << 63, size=len(games), dtype=np.uint64)
        values = oracle_values(engine, games, cands, self.k, self.rollout, seeds)
        w = np.where(np.isnan(values), 0.0, np.take_along_axis(p, np.maximum(cands, 0), axis=1))
        base = (w * np.nan_to_num(values)).sum(1) / np.maximum(w.sum(1), 1e-12)
        adv = np.where(np.isnan(values[:, 0]), 0.0, values[:, 0] - base)
        return (adv * self.scale / engine.rules.stakes.per_tai).astype(np.float32)


class Rollout:
    """``num_envs`` self-play games, stepped ``cfg.rollout_steps`` times per ``collect``: the learner's
    seats act with ``net`` (sampled), the others with opponents drawn from the slots of ``Opponents``,
    re-drawn (with ``rng``) whenever a game ends. Games run on across calls. Used in process by
    ``train`` and inside each Ray rollout worker (``training.distributed``).

    It drives the engine directly (``envs.driver.Driver``): every step encodes all games into one
    preallocated array, computes the network's input (observation and efficiency planes) once for
    the rows a network plays, runs ONE forward of ``net`` for every learner seat of every game and one
    of the rollout's pool snapshot for the pool's seats, and asks each rule-based opponent once for
    all its rows (``act_by_seat``). ``timing`` accumulates the seconds spent in each part (``TIMING_PARTS``),
    read with ``clock`` (``time.process_time``; ``tw16 bench train`` sets ``time.perf_counter`` and
    ``sync``, which waits for the device at each timer so the split is the device's too).

    On a CUDA device (``cfg.device``) the engine and the encoders stay on the CPU threads: each forward
    copies its rows into pinned CPU buffers, uploads them with ``non_blocking``, samples on the device
    and brings actions, log-probabilities and values back in one copy. On the CPU the networks read the
    arrays in place, as before (the same numbers for the same seed).
    """

    def __init__(self, cfg: TrainConfig, rule_options: dict, rng, seed: int, num_envs: int | None = None):
        self.cfg, self.rng = cfg, rng
        self.N = N = cfg.num_envs if num_envs is None else int(num_envs)
        self.d = Driver(Rules.make(**rule_options), N)
        self.enc = PlanesV0(derived=cfg.net.in_channels > N_CHANNELS)  # the net reads the derived planes
        self.obs = self.enc.alloc(N)  # every game, from the view of the seat to act
        self.rows = np.arange(N, dtype=np.int64)
        self.all = np.ones(N, np.bool_)
        self.d.deal(game_seeds(int(seed), N), self.all)
        self._redeal(self.d.terminated.copy())
        self.device = resolve_device(cfg.device)
        self.gen = torch.Generator(device=self.device).manual_seed(int(seed))  # the networks' sampling
        self.clock, self.sync = time.process_time, False
        self.pinned = None  # (obs, mask) page-locked CPU buffers of N rows (``_sample_on_device``)
        self.learner = self.opp_idx = None  # seats are drawn at the first collect (when the pool is known)
        self.hand_tai = np.zeros((N, 4))
        self.timing = dict.fromkeys(TIMING_PARTS, 0.0)
        self.store = None  # the learner rows' observations and masks (Batch.obs / mask are views of it)
        self.oracle = self.hid = None  # oracle_v0 of every game and the learner rows' hidden planes (oracle critic)
        # luck-corrected credit: the draws' luck terms of every game, and their coefficients in reward units
        self.oracle_adv = None  # advantage "oracle": the search's rollout policy, Defensive's tables, a seed stream
        if cfg.advantage == "oracle":
            self.oracle_adv = OracleAdvantage(cfg, seed)
        self.luck = self.beta = None
        if cfg.luck_credit:
            path = cfg.luck_beta or BETA_FILE
            self.beta = load_beta(path, self.d.engine.rules.to_dict()).scaled(cfg.luck_credit_scale * cfg.reward_scale)
            self.luck = LuckRecorder(self.d.engine)

    def _redeal(self, which: np.ndarray) -> None:
        """Deal the games in ``which`` again (until none ends before its first decision)."""
        while which.any():
            self.d.redeal(which)
            which = which & self.d.terminated

    def _sample(self, net: PolicyValueNet, x: np.ndarray, mask: np.ndarray):
        """One forward of ``net`` on rows ``x``: sampled actions, their log-probabilities, values."""
        if self.device.type != "cpu":
            return self._sample_on_device(net, x, mask)
        with torch.inference_mode():
            logits, v = net(torch.from_numpy(x))
            logp = torch.log_softmax(masked_logits(logits, torch.from_numpy(mask)), -1)
            a = torch.multinomial(logp.exp(), 1, generator=self.gen)
        return a.squeeze(1).numpy(), logp.gather(1, a).squeeze(1).numpy(), v.numpy()

    def _sample_on_device(self, net: PolicyValueNet, x: np.ndarray, mask: np.ndarray):
        """``_sample`` on the device: rows staged in pinned buffers and uploaded without blocking, one
        copy back (actions as floats: at most 76, exact in float32)."""
        clock, n = self.clock, len(x)
        t0 = clock()
        if self.pinned is None:  # page-locked where there is a GPU to copy to (tests run this path on the CPU)
            pin = self.device.type == "cuda"
            self.pinned = (
                torch.empty((self.N, *x.shape[1:]), dtype=torch.float32, pin_memory=pin),
                torch.empty((self.N, N_ACTIONS), dtype=torch.bool, pin_memory=pin),
            )
        h_x, h_m = self.pinned[0][:n], self.pinned[1][:n]
        h_x.numpy()[:] = x
        h_m.numpy()[:] = mask
        d_x, d_m = h_x.to(self.device, non_blocking=True), h_m.to(self.device, non_blocking=True)
        self._wait()
        t1 = clock()
        with torch.inference_mode():
            logits, v = net(d_x)
            logp = torch.log_softmax(masked_logits(logits, d_m), -1)
            a = torch.multinomial(logp.exp(), 1, generator=self.gen)
            out = torch.stack([a.squeeze(1).float(), logp.gather(1, a).squeeze(1), v])
        self._wait()
        t2 = clock()
        host = out.cpu().numpy()  # waits for the device: the engine needs the actions now
        self.timing["transfer"] += (t1 - t0) + (clock() - t2)
        return host[0].astype(np.int64), host[1].copy(), host[2].copy()

    def _wait(self) -> None:
        if self.sync:
            synchronize(self.device)

    def _critic_values(self, critic, x: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        """The oracle critic's values of rows ``x`` (the actor's input) with their hidden planes."""
        with torch.inference_mode():
            v = critic(torch.from_numpy(x).to(self.device), torch.from_numpy(hidden).to(self.device))
        return v.cpu().numpy()

    def collect(self, net: PolicyValueNet, opponents: Opponents, critic=None) -> Batch:
        """Step every game ``rollout_steps`` times; the learner's rows with advantages along each seat's
        chain, on the values of ``net`` or, given one, of the oracle critic (``training.critic``), which
        alone reads the hidden planes of oracle_v0 (encoded apart: the actor's and opponents' input is
        the planes_v0 encoding, as without it)."""
        cfg, d, rows, tm = self.cfg, self.d, self.rows, self.timing
        T, N = cfg.rollout_steps, self.N
        rule, slot_rule, n_slots = opponents.rule_agents, opponents.slot_rule, len(opponents.slot_rule)
        pool = opponents.pick(self.rng)
        if self.learner is None:
            self.learner, self.opp_idx = assign_seats(self.rng, N, cfg, n_slots)
        learner, opp_idx, hand_tai = self.learner, self.opp_idx, self.hand_tai
        if self.store is None:  # at most every decision is the learner's; kept across collects (no new pages)
            self.store = (
                np.empty((T * N, cfg.net.net_channels, 34), np.float32),
                np.empty((T * N, N_ACTIONS), np.bool_),
            )
        s_obs, s_mask = self.store
        if critic is not None and self.oracle is None:
            self.oracle = OracleV0(derived=self.enc.derived)
            self.orc = self.oracle.alloc(N)
            self.hid = np.empty((T * N, N_ORACLE_EXTRA, 34), np.uint8)  # 0/1 planes: a quarter of float32
        b_act, b_logp, b_val = np.zeros((T, N), np.int64), np.zeros((T, N), np.float32), np.zeros((T, N), np.float32)
        b_learn = np.zeros((T, N), np.bool_)
        b_oadv = None if self.oracle_adv is None else np.zeros((T, N), np.float32)
        ep_returns: list[float] = []
        credit = SeatCredit(T, N)
        net.eval()
        used = 0
        clock = self.clock
        for t in range(T):
            t0 = clock()
            seat = d.current.astype(np.int64)
            d.encode(self.obs, rows, seat, self.enc.flags)
            if critic is not None:
                self.oracle.encode(d.engine, seat, self.orc)
            mask = d.mask
            te = clock()
            is_l = learner[rows, seat]
            who = np.where(is_l, -2, slot_rule[opp_idx[rows, seat]])  # rule agent, -1 the pool, -2 the learner
            lg = np.flatnonzero(is_l)
            pg = np.flatnonzero(who == -1)
            x = net_input(self.obs[np.concatenate([lg, pg])], cfg.net)  # efficiency planes computed once
            t1 = clock()
            moved = tm["transfer"] + tm["oracle"]  # the forwards' copies are transfer, the oracle's rollouts oracle
            credit.decide(t, seat)
            actions = np.zeros(N, np.int64)
            n = lg.size
            if n:
                rows_l = slice(used, used + n)
                s_obs[rows_l], s_mask[rows_l] = x[:n], mask[lg]
                actions[lg], b_logp[t, lg], b_val[t, lg] = self._sample(net, s_obs[rows_l], s_mask[rows_l])
                if b_oadv is not None:
                    t_o = clock()
                    b_oadv[t, lg] = self.oracle_adv(d.engine, lg, actions[lg], net, s_obs[rows_l], s_mask[rows_l])
                    tm["oracle"] += clock() - t_o
                if critic is not None:
                    self.hid[rows_l] = self.orc[lg, self.oracle.n_planes :]
                    b_val[t, lg] = self._critic_values(critic, s_obs[rows_l], self.hid[rows_l])
                used += n
            if pg.size:
                actions[pg] = self._sample(pool, x[n:], mask[pg])[0]
            t2 = clock()
            act_by_seat(rule, who, self.obs, mask, actions)
            b_act[t], b_learn[t] = actions, is_l
            t3 = clock()
            rewards = d.step(actions, self.all)
            done = d.terminated.copy()
            if self.luck is None:
                credit.paid(rewards * cfg.reward_scale, done)
            else:  # the luck of this step's draws leaves the credit of each seat's last decision before them
                self.luck.after_step()
                credit.paid(rewards * cfg.reward_scale, done, self.beta.correction(self.luck.take()))
            hand_tai += rewards
            if done.any():
                ended = np.flatnonzero(done)
                ep_returns.extend(float(hand_tai[g][learner[g]].mean()) for g in ended)
                hand_tai[ended] = 0
                learner[ended], opp_idx[ended] = assign_seats(self.rng, ended.size, cfg, n_slots)
                self._redeal(done)
                if self.luck is not None:
                    self.luck.restart(done)
            t4 = clock()
            tm["encode"] += te - t0
            tm["net_input"] += t1 - te
            tm["forward"] += (t2 - t1) - (tm["transfer"] + tm["oracle"] - moved)
            tm["opponents"] += t3 - t2
            tm["engine"] += t4 - t3
        t0 = clock()
        # -- advantages along each seat's chain; keep the learner's decisions (rows in (t, game) order) --
        chains = (credit.ended, credit.next_t, cfg.gamma, cfg.gae_lambda)
        sel = b_learn.reshape(-1)
        raw = {}
        if credit.luck is None:
            adv, ret = gae(b_val, credit.reward, *chains)
        else:  # the update reads the corrected rewards; the plain ones' figures go to the diagnostics
            adv, ret = gae(b_val, credit.reward - credit.luck, *chains)
            adv_raw, ret_raw = gae(b_val, credit.reward, *chains)
            raw = {"adv_raw": adv_raw.reshape(-1)[sel], "ret_raw": ret_raw.reshape(-1)[sel]}
        if b_oadv is not None:  # the policy reads the rollouts' advantages; the critic still learns the returns
            if raw:
                raw["adv_raw"] = adv.reshape(-1)[sel]
            else:
                raw = {"adv_raw": adv.reshape(-1)[sel], "ret_raw": ret.reshape(-1)[sel]}
            adv = b_oadv
        batch = Batch(
            obs=s_obs[:used],
            mask=s_mask[:used],
            act=b_act.reshape(-1)[sel],
            logp=b_logp.reshape(-1)[sel],
            adv=adv.reshape(-1)[sel],
            ret=ret.reshape(-1)[sel],
            val=b_val.reshape(-1)[sel],
            ep_returns=ep_returns,
            decisions=T * N,
            hidden=None if critic is None else self.hid[:used],
            **raw,
        )
        tm["gae"] += clock() - t0
        return batch

    def close(self) -> None:
        pass
