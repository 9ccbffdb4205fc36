"""Masked PPO self-play for tw16, read top to bottom (CleanRL style).

One rollout steps ``num_envs`` games of the self-play vector environment ``rollout_steps`` times. In
each game some seats are played by the learning policy and the others by opponents drawn from a pool
(the rule-based agents and frozen snapshots of the policy), re-drawn whenever a game ends.
Turn-based credit assignment (``envs.gym_env.SeatCredit``): every decision belongs to its own
(game, seat) chain; chips paid to a seat that is not acting (another seat's win) are added to that
seat's LAST decision, and the hand's end closes every chain of the game. GAE runs along each chain,
and only the learner's decisions enter the update. The legal mask is stored with each decision and
reapplied in the update, so the ratio is taken between masked distributions.

The rollout (``Rollout``) runs in this process, or with ``workers`` / ``ray`` on Ray actors that each
step a share of the games with a copy of the policy and return their learner rows
(``training.distributed``, docs/scaling.md); the update below is the same either way.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
import torch
from torch import nn

from agents import make_agent
from agents.neural import CheckpointError, NetConfig, NeuralAgent, PolicyValueNet, load_checkpoint, masked_logits, net_input, save_checkpoint
from envs.gym_env import SeatCredit, SelfPlayVecEnv
from envs.obs.planes_v0 import N_CHANNELS
from envs.rules import Rules


@dataclass
class TrainConfig:
    seed: int = 0
    rules: dict = field(default_factory=dict)  # rule options (RULES.md 5); episode is "hand"
    num_envs: int = 128
    rollout_steps: int = 64  # steps of every game per update (all seats' decisions)
    total_decisions: int = 1_000_000  # environment decisions (all seats) over the run
    time_limit_s: float | None = None  # stop (and save) after this much wall time; the LR anneals over it
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 1.0  # one hand is one episode; chips arrive at its end
    gae_lambda: float = 0.95
    update_epochs: int = 3
    minibatch_size: int = 1024
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = 0.05
    reward_scale: float = 0.1  # tai units x scale: values of order 1
    selfplay_frac: float = 0.25  # games where the policy plays all four seats
    opponents: tuple[str, ...] = ("greedy", "defensive", "pool")  # drawn uniformly per opponent seat
    pool_every: int = 5  # updates between snapshots added to the pool
    pool_size: int = 6
    init_checkpoint: str | None = None  # e.g. a behaviour-cloning checkpoint
    resume: str | None = None  # a training state (train_state.pt) to continue
    out_dir: str = "runs/ppo"
    checkpoint_every: int = 10
    torch_threads: int = 1  # one thread each for torch and numba: on 2 busy cores, more threads
    numba_threads: int = 1  # thrash (measured 147 vs 2,782 decisions/s); raise them on a quiet many-core box
    net: NetConfig = field(default_factory=NetConfig)
    progress: bool = True
    workers: int = 0  # rollout workers as Ray actors (0: roll out in this process); needs the `ray` extra
    ray: str | None = None  # Ray cluster address ("auto", "ray://host:10001"); None with workers > 0: a local Ray


def load_train_state(path, net: PolicyValueNet, opt) -> tuple[int, int, int]:
    """Load a ``train_state.pt`` (written by ``train``) into ``net`` and ``opt``; returns (decisions,
    update, rng seed). A file that is not one raises ``CheckpointError`` naming it. The file is a
    pickle (optimizer state): resume only from files you wrote."""
    try:
        st = torch.load(path, weights_only=False)
    except Exception as e:  # corrupt, foreign, truncated: torch and pickle raise many kinds
        raise CheckpointError(f"training state {str(path)!r} cannot be read: {type(e).__name__}: {str(e)[:200]}") from None
    keys = ("net", "opt", "decisions", "update", "rng_seed")
    if not isinstance(st, dict) or any(k not in st for k in keys):
        raise CheckpointError(f"training state {str(path)!r} is not a train_state.pt (needs {', '.join(keys)})")
    try:
        net.load_state_dict(st["net"])
        opt.load_state_dict(st["opt"])
        return int(st["decisions"]), int(st["update"]), int(st["rng_seed"])
    except (RuntimeError, ValueError, TypeError, KeyError) as e:
        raise CheckpointError(f"training state {str(path)!r} does not fit this network: {str(e)[:300]}") from None


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
            og = games[~is_l]
            for j, agent in enumerate(choices):
                sel = og[opp_idx[og, seat[og]] == j]
                if sel.size:
                    actions[sel] = agent.act(obs[sel], mask[sel])
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


def train(cfg: TrainConfig) -> Path:
    torch.set_num_threads(cfg.torch_threads)
    prev_threads = numba.get_num_threads()
    numba.set_num_threads(max(1, min(cfg.numba_threads, numba.config.NUMBA_NUM_THREADS)))
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rules = Rules.make(**{"profile": "standard", **cfg.rules, "episode": "hand"})
    (out / "config.json").write_text(json.dumps({**asdict(cfg), "rules_full": rules.to_dict()}, indent=2, default=str))

    # -- network, optimiser, resume ---------------------------------------------------------
    net = PolicyValueNet(cfg.net)
    if cfg.init_checkpoint:
        init, _ = load_checkpoint(cfg.init_checkpoint)
        try:
            net.load_state_dict(init.state_dict())
        except RuntimeError as e:
            raise CheckpointError(f"init_checkpoint {cfg.init_checkpoint!r} holds another network than --ppo.net: "
                                  f"{str(e)[:300]}") from None  # fmt: skip
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    done_decisions, update = 0, 0
    if cfg.resume:
        done_decisions, update, rng_seed = load_train_state(cfg.resume, net, opt)
        rng = np.random.default_rng(rng_seed)
    opponents = Opponents(cfg)
    opponents.snapshot(net)

    def save_state() -> None:  # what `resume` reads
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "decisions": done_decisions,
                    "update": update, "rng_seed": int(rng.integers(2**63))}, out / "train_state.pt")  # fmt: skip

    # -- rollouts: in this process, or on Ray workers (same games, split between them) ------------
    if cfg.workers or cfg.ray:
        from training.distributed import RayRollouts

        rollout = RayRollouts(cfg, rules.to_dict(), seed=cfg.seed + update)
    else:
        rollout = Rollout(cfg, rules.to_dict(), rng, seed=cfg.seed + update)
    log_f = open(out / "log.csv", "a", newline="")
    log = csv.writer(log_f)
    if update == 0:
        log.writerow(["update", "decisions", "sps", "hands", "learner_tai_per_hand", "pg_loss", "v_loss",
                      "entropy", "approx_kl", "clipfrac", "explained_var", "lr"])  # fmt: skip
    T, N = cfg.rollout_steps, cfg.num_envs
    n_updates = max(1, cfg.total_decisions // (T * N))
    bar = None
    if cfg.progress:
        from tqdm import tqdm

        bar = tqdm(total=n_updates * T * N, initial=done_decisions, unit="dec", desc="ppo", smoothing=0.05)
    ep_returns: list[float] = []
    t_start = time.perf_counter()
    try:
        while update < n_updates:
            t0 = time.perf_counter()
            elapsed = t0 - t_start
            if cfg.time_limit_s is not None and elapsed >= cfg.time_limit_s:
                break
            if cfg.anneal_lr:
                frac = update / n_updates
                if cfg.time_limit_s is not None:
                    frac = max(frac, elapsed / cfg.time_limit_s)
                opt.param_groups[0]["lr"] = cfg.learning_rate * (1.0 - frac)
            # -- rollout: the learner's decisions with advantages along each seat's chain ----------
            batch = rollout.collect(net, opponents)
            ep_returns.extend(batch.ep_returns)
            d_obs = torch.from_numpy(batch.obs)
            d_mask = torch.from_numpy(batch.mask)
            d_act = torch.from_numpy(batch.act)
            d_logp = torch.from_numpy(batch.logp)
            d_ret = torch.from_numpy(batch.ret)
            d_adv = torch.from_numpy((batch.adv - batch.adv.mean()) / (batch.adv.std() + 1e-8))  # over the whole batch
            # -- PPO update ---------------------------------------------------------------------------
            net.train()
            n = len(batch.act)
            clipfracs, approx_kl = [], 0.0
            pg_loss = v_loss = entropy = torch.zeros(())
            for _epoch in range(cfg.update_epochs):
                perm = torch.from_numpy(rng.permutation(n))
                for s0 in range(0, n, cfg.minibatch_size):
                    mb = perm[s0 : s0 + cfg.minibatch_size]
                    logits, v = net(d_obs[mb])
                    dist = torch.distributions.Categorical(logits=masked_logits(logits, d_mask[mb]))
                    logp = dist.log_prob(d_act[mb])
                    ratio = (logp - d_logp[mb]).exp()
                    with torch.no_grad():
                        approx_kl = float(((ratio - 1) - (logp - d_logp[mb])).mean())
                        clipfracs.append(float(((ratio - 1.0).abs() > cfg.clip_coef).float().mean()))
                    a_mb = d_adv[mb]
                    pg_loss = torch.max(-a_mb * ratio, -a_mb * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                    v_loss = 0.5 * ((v - d_ret[mb]) ** 2).mean()
                    entropy = dist.entropy().mean()
                    loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
                    opt.step()
                if cfg.target_kl is not None and approx_kl > cfg.target_kl:
                    break
            # -- diagnostics, snapshots, checkpoints -------------------------------------------------
            var_y = float(np.var(batch.ret))
            explained = float("nan") if var_y == 0 else 1 - float(np.var(batch.ret - batch.val)) / var_y
            n = batch.decisions  # environment decisions this update, every seat's
            update += 1
            done_decisions += n
            sps = n / (time.perf_counter() - t0)
            recent = ep_returns[-500:]
            log.writerow([update, done_decisions, round(sps), len(ep_returns), round(float(np.mean(recent)) if recent else 0.0, 4),
                          round(pg_loss.item(), 5), round(v_loss.item(), 5), round(entropy.item(), 4), round(approx_kl, 5),
                          round(float(np.mean(clipfracs)) if clipfracs else 0.0, 4), round(explained, 4),
                          opt.param_groups[0]["lr"]])  # fmt: skip
            log_f.flush()
            if bar is not None:
                bar.update(n)
                bar.set_postfix(sps=round(sps), tai=round(float(np.mean(recent)), 3) if recent else 0, kl=round(approx_kl, 4))
            if update % cfg.pool_every == 0:
                opponents.snapshot(net)
            if update % cfg.checkpoint_every == 0 or update == n_updates:
                save_checkpoint(out / "policy.pt", net, decisions=done_decisions, update=update)
                save_state()
    finally:
        rollout.close()
        numba.set_num_threads(prev_threads)
        if bar is not None:
            bar.close()
        log_f.close()
    if cfg.time_limit_s is not None and update < n_updates:
        save_state()  # stopped by the time limit: resumable from here
    extra = {"workers": rollout.n_workers, "workers_replaced": rollout.replaced} if cfg.workers or cfg.ray else {}
    save_checkpoint(out / "policy.pt", net, decisions=done_decisions, update=update,
                    wall_s=round(time.perf_counter() - t_start, 1), **extra)  # fmt: skip
    return out / "policy.pt"
