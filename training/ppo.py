"""Masked PPO self-play for tw16, read top to bottom (CleanRL style).

One rollout steps ``num_envs`` self-play games (the engine, driven directly) ``rollout_steps`` times. In
each game some seats are played by the learning policy and the others by opponents drawn from a pool
(the rule-based agents and frozen snapshots of the policy), re-drawn whenever a game ends.
Turn-based credit assignment (``training.credit.SeatCredit``): every decision belongs to its own
(game, seat) chain; chips paid to a seat that is not acting (another seat's win) are added to that
seat's LAST decision, and the hand's end closes every chain of the game. GAE runs along each chain,
and only the learner's decisions enter the update. The legal mask is stored with each decision and
reapplied in the update, so the ratio is taken between masked distributions.

The rollout (``Rollout``) runs in this process, or with ``workers`` / ``ray`` on Ray actors that each
step a share of the games with a copy of the policy and return their learner rows
(``training.distributed``, docs/scaling.md); the update below is the same either way. The
rollout lives in ``training.rollout`` and the configuration in ``training.config``.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.device import resolve_device, synchronize
from agents.neural import CheckpointError, PolicyValueNet, load_checkpoint, masked_logits, save_checkpoint
from envs import _core
from envs.rules import Rules
from training.config import TrainConfig
from training.critic import OracleCritic
from training.rollout import TIMING_PARTS, Batch, Opponents, Rollout, gae  # noqa: F401 (gae: part of the trainer's API)


def load_train_state(path, net: PolicyValueNet, opt, critic=None, critic_opt=None) -> tuple[int, int, int]:
    """Load a ``train_state.pt`` (written by ``train``) into ``net`` and ``opt``; returns (decisions,
    update, rng seed). A file that is not one raises ``CheckpointError`` naming it. The file is a
    pickle (optimizer state): resume only from files you wrote. It loads onto the CPU first (a state
    saved on a GPU resumes anywhere); ``load_state_dict`` moves it to the net's device."""
    try:
        st = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as e:  # corrupt, foreign, truncated: torch and pickle raise many kinds
        raise CheckpointError(
            f"training state {str(path)!r} cannot be read: {type(e).__name__}: {str(e)[:200]}"
        ) from None
    keys = ("net", "opt", "decisions", "update", "rng_seed") + (("critic", "critic_opt") if critic is not None else ())
    if not isinstance(st, dict) or any(k not in st for k in keys):
        raise CheckpointError(f"training state {str(path)!r} is not a train_state.pt (needs {', '.join(keys)})")
    try:
        net.load_state_dict(st["net"])
        opt.load_state_dict(st["opt"])
        if critic is not None:
            critic.load_state_dict(st["critic"])
            critic_opt.load_state_dict(st["critic_opt"])
        return int(st["decisions"]), int(st["update"]), int(st["rng_seed"])
    except (RuntimeError, ValueError, TypeError, KeyError) as e:
        raise CheckpointError(f"training state {str(path)!r} does not fit this network: {str(e)[:300]}") from None


# log.csv, one row per update: progress, the learner's result per hand (mean of the last 500 hands, tai),
# the update's diagnostics (means over its minibatches; ``batch_scales``; the spread of the learner's
# results of the hands that ended in this rollout, tai; the probe states' share whose argmax moved from
# the start's, ``Probe``; with luck-corrected credit the return and advantage spreads and the explained
# variance the plain rewards would have given, empty without), the learner's rows, then where the time went: wall
# seconds of the rollout and of the update, CPU seconds of the rollout's parts (``TIMING_PARTS``)
LOG_COLUMNS = (
    "update",
    "decisions",
    "sps",
    "hands",
    "learner_tai_per_hand",
    "pg_loss",
    "v_loss",
    "entropy",
    "approx_kl",
    "clipfrac",
    "explained_var",
    "grad_norm",
    "ret_std",
    "adv_std",
    "value_rmse",
    "hand_tai_std",
    "forced_frac",
    "argmax_changed",
    "ret_std_raw",
    "adv_std_raw",
    "explained_var_raw",
    "lr",
    "learner_decisions",
    "rollout_s",
    "update_s",
    *(f"{k}_s" for k in TIMING_PARTS),
)


def ppo_update(
    net: PolicyValueNet,
    opt,
    batch: Batch,
    cfg: TrainConfig,
    rng,
    timing: dict | None = None,
    critic: OracleCritic | None = None,
    critic_opt=None,
) -> dict:
    """The clipped PPO update on one rollout's learner decisions: ``update_epochs`` passes in shuffled
    minibatches (stopping early past ``target_kl``), of every row or, with ``drop_forced``, of the rows
    with a choice. With an oracle ``critic`` (and its optimiser), it learns the returns beside the
    policy's own value head. Returns the diagnostics: losses, entropy, approx KL, clip fraction and
    the gradient norm before clipping (means over the minibatches), the explained variance of the
    values, and the scales that tell signal from noise (``batch_scales``).
    The batch goes to the net's device once, before the first minibatch (on the CPU: no copy);
    ``timing`` (if given) gets the seconds of that upload under ``"transfer"``."""
    dev = next(net.parameters()).device
    forced = batch.mask.sum(1) == 1  # one legal action: no policy gradient
    rows = np.flatnonzero(~forced) if cfg.drop_forced else np.arange(len(batch.act))
    t0 = time.perf_counter()
    d_obs, d_mask, d_act = (torch.from_numpy(a).to(dev) for a in (batch.obs, batch.mask, batch.act))
    d_logp, d_ret = torch.from_numpy(batch.logp).to(dev), torch.from_numpy(batch.ret).to(dev)
    adv = batch.adv[rows]
    d_adv = torch.zeros(len(batch.act), device=dev)  # normalised over the rows the update reads
    d_adv[torch.from_numpy(rows).to(dev)] = torch.from_numpy((adv - adv.mean()) / (adv.std() + 1e-8)).to(dev)
    d_hid = None if critic is None else torch.from_numpy(batch.hidden).to(dev)
    if timing is not None:
        synchronize(dev)
        timing["transfer"] = timing.get("transfer", 0.0) + time.perf_counter() - t0
    net.train()
    n = rows.size
    sums = dict.fromkeys(("pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac", "grad_norm"), 0.0)
    k = 0
    for _epoch in range(cfg.update_epochs):
        perm = torch.from_numpy(rows[rng.permutation(n)]).to(dev)
        kl_epoch, k_epoch = 0.0, 0
        for s0 in range(0, n, cfg.minibatch_size):
            mb = perm[s0 : s0 + cfg.minibatch_size]
            logits, v = net(d_obs[mb], detach_value=True) if cfg.value_detach else net(d_obs[mb])
            logp_all = torch.log_softmax(masked_logits(logits, d_mask[mb]), -1)
            logp = logp_all.gather(1, d_act[mb, None]).squeeze(1)
            entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
            log_ratio = logp - d_logp[mb]
            ratio = log_ratio.exp()
            a_mb = d_adv[mb]
            pg_loss = torch.max(-a_mb * ratio, -a_mb * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
            v_loss = 0.5 * ((v - d_ret[mb]) ** 2).mean()  # the policy's own head (kept calibrated for its users)
            values_loss = v_loss
            if critic is not None:  # the critic's loss, reported as v_loss: its values made the advantages
                v_loss = 0.5 * ((critic(d_obs[mb], d_hid[mb]) - d_ret[mb]) ** 2).mean()
                values_loss = values_loss + v_loss
                critic_opt.zero_grad()
            loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * values_loss
            opt.zero_grad()
            loss.backward()
            grad_norm = nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            if critic is not None:
                nn.utils.clip_grad_norm_(critic.parameters(), cfg.max_grad_norm)
                critic_opt.step()
            with torch.no_grad():
                kl = float(((ratio - 1) - log_ratio).mean())
                clip = float(((ratio - 1.0).abs() > cfg.clip_coef).float().mean())
            for key, val in zip(sums, (pg_loss.item(), v_loss.item(), entropy.item(), kl, clip, float(grad_norm))):
                sums[key] += val
            k, k_epoch, kl_epoch = k + 1, k_epoch + 1, kl_epoch + kl
        if cfg.target_kl is not None and k_epoch and kl_epoch / k_epoch > cfg.target_kl:
            break
    diag = {key: val / max(k, 1) for key, val in sums.items()}
    diag["explained_var"] = explained_variance(batch.ret, batch.val)
    return {**diag, **batch_scales(batch, forced)}


def explained_variance(ret: np.ndarray, val: np.ndarray) -> float:
    var_y = float(np.var(ret))
    return float("nan") if var_y == 0 else 1 - float(np.var(ret - val)) / var_y


def batch_scales(batch: Batch, forced: np.ndarray) -> dict:
    """What sets the signal-to-noise of an update (reward units: tai x ``reward_scale``): the spread of
    the returns and of the raw advantages, the critic's error (RMS of return - value), and the share of
    forced decisions. With luck-corrected credit (``batch.adv_raw``), also the spreads and the
    explained variance of the plain returns: what the correction took off."""
    out = {
        "ret_std": float(batch.ret.std()),
        "adv_std": float(batch.adv.std()),
        "value_rmse": float(np.sqrt(np.mean((batch.ret - batch.val) ** 2))),
        "forced_frac": float(forced.mean()) if forced.size else 0.0,
    }
    if batch.adv_raw is not None:
        out["ret_std_raw"] = float(batch.ret_raw.std())
        out["adv_std_raw"] = float(batch.adv_raw.std())
        out["explained_var_raw"] = explained_variance(batch.ret_raw, batch.val)
    return out


class Probe:
    """A fixed set of the learner's states with a choice (from the first rollout): the share of them
    on which the policy's argmax differs from the start's tells how far the policy has moved."""

    def __init__(self, net: PolicyValueNet, batch: Batch, size: int):
        keep = np.flatnonzero(batch.mask.sum(1) > 1)[:size]
        self.obs, self.mask = torch.from_numpy(batch.obs[keep].copy()), torch.from_numpy(batch.mask[keep].copy())
        self.start = self.argmax(net)

    def argmax(self, net: PolicyValueNet) -> torch.Tensor:
        dev = next(net.parameters()).device
        with torch.inference_mode():
            return masked_logits(net(self.obs.to(dev))[0], self.mask.to(dev)).argmax(-1).cpu()

    def changed(self, net: PolicyValueNet) -> float:
        return float((self.argmax(net) != self.start).float().mean()) if len(self.start) else 0.0


def train(cfg: TrainConfig) -> Path:
    device = resolve_device(cfg.device)  # before anything is written: a device that is not there is an error
    torch.set_num_threads(cfg.torch_threads)
    prev_threads = _core.num_threads()
    _core.set_num_threads(cfg.core_threads)
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
            raise CheckpointError(
                f"init_checkpoint {cfg.init_checkpoint!r} holds another network than --ppo.net: {str(e)[:300]}"
            ) from None
    net.to(device)  # built (and seeded) on the CPU: the same initial weights on every device
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    critic = critic_opt = None
    if cfg.critic == "oracle":  # starts as the policy's value head, zero weights on the hidden planes
        if cfg.workers or cfg.ray:
            raise ValueError("critic='oracle' runs with the rollout in this process (workers=0, no ray)")
        critic = OracleCritic.from_actor(net)
        critic_opt = torch.optim.Adam(critic.parameters(), lr=cfg.critic_lr, eps=1e-5)
    done_decisions, update = 0, 0
    if cfg.resume:
        done_decisions, update, rng_seed = load_train_state(cfg.resume, net, opt, critic, critic_opt)
        rng = np.random.default_rng(rng_seed)
    opponents = Opponents(cfg, device)
    opponents.snapshot(net)

    def save_state() -> None:  # what `resume` reads
        torch.save(
            {
                "net": net.state_dict(),
                "opt": opt.state_dict(),
                "decisions": done_decisions,
                "update": update,
                "rng_seed": int(rng.integers(2**63)),
                **({"critic": critic.state_dict(), "critic_opt": critic_opt.state_dict()} if critic else {}),
            },
            out / "train_state.pt",
        )

    # -- rollouts: in this process, or on Ray workers (same games, split between them) ------------
    if cfg.workers or cfg.ray:
        from training.distributed import RayRollouts

        rollout = RayRollouts(cfg, rules.to_dict(), seed=cfg.seed + update)
    else:
        rollout = Rollout(cfg, rules.to_dict(), rng, seed=cfg.seed + update)
    log_f = open(out / "log.csv", "a", newline="")
    log = csv.writer(log_f)
    if update == 0:
        log.writerow(LOG_COLUMNS)
    T, N = cfg.rollout_steps, cfg.num_envs
    n_updates = max(1, cfg.total_decisions // (T * N))
    bar = None
    if cfg.progress:
        from tqdm import tqdm

        bar = tqdm(total=n_updates * T * N, initial=done_decisions, unit="dec", desc="ppo", smoothing=0.05)
    ep_returns: list[float] = []
    probe = None
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
            parts0 = dict(getattr(rollout, "timing", {}))
            batch = rollout.collect(net, opponents, critic) if critic else rollout.collect(net, opponents)
            t_roll = time.perf_counter()
            ep_returns.extend(batch.ep_returns)
            if probe is None:
                probe = Probe(net, batch, cfg.probe_states)
            diag = ppo_update(net, opt, batch, cfg, rng, critic=critic, critic_opt=critic_opt)
            diag["hand_tai_std"] = float(np.std(batch.ep_returns)) if batch.ep_returns else float("nan")
            diag["argmax_changed"] = probe.changed(net)
            # -- diagnostics, snapshots, checkpoints -------------------------------------------------
            n = batch.decisions  # environment decisions this update, every seat's
            update += 1
            done_decisions += n
            t_end = time.perf_counter()
            sps = n / (t_end - t0)
            recent = ep_returns[-500:]
            parts = {k: v - parts0.get(k, 0.0) for k, v in getattr(rollout, "timing", {}).items()}
            row = {
                "update": update,
                "decisions": done_decisions,
                "sps": round(sps),
                "hands": len(ep_returns),
                "learner_tai_per_hand": round(float(np.mean(recent)) if recent else 0.0, 4),
                **{k: float(v) for k, v in diag.items()},
                "lr": opt.param_groups[0]["lr"],
                "learner_decisions": len(batch.act),
                "rollout_s": round(t_roll - t0, 3),
                "update_s": round(t_end - t_roll, 3),
                **{f"{k}_s": round(v, 3) for k, v in parts.items()},
            }
            log.writerow([row.get(k, "") for k in LOG_COLUMNS])
            log_f.flush()
            if bar is not None:
                bar.update(n)
                tai = round(float(np.mean(recent)), 3) if recent else 0
                bar.set_postfix(sps=round(sps), tai=tai, kl=round(diag["approx_kl"], 4))
            if update % cfg.pool_every == 0:
                opponents.snapshot(net)
            if update % cfg.checkpoint_every == 0 or update == n_updates:
                save_checkpoint(
                    out / "policy.pt", net, decisions=done_decisions, update=update, reward_scale=cfg.reward_scale
                )
                save_state()
    finally:
        rollout.close()
        _core.set_num_threads(prev_threads)
        if bar is not None:
            bar.close()
        log_f.close()
    if cfg.time_limit_s is not None and update < n_updates:
        save_state()  # stopped by the time limit: resumable from here
    extra = {"workers": rollout.n_workers, "workers_replaced": rollout.replaced} if cfg.workers or cfg.ray else {}
    save_checkpoint(
        out / "policy.pt",
        net,
        decisions=done_decisions,
        update=update,
        reward_scale=cfg.reward_scale,
        wall_s=round(time.perf_counter() - t_start, 1),
        **extra,
    )
    return out / "policy.pt"
