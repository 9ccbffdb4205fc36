"""PPO's options against advantage noise: the oracle critic (it reads hidden tiles, the actor never
does), leaving forced decisions out of the update, and the diagnostics that log.csv carries."""

from __future__ import annotations

import csv
import math
from dataclasses import replace

import numpy as np
import pytest
import torch
from tiny_training import SMALL, tiny_config

from agents.neural import PolicyValueNet, masked_logits, net_input
from envs.driver import Driver
from envs.engine.rng import game_seeds
from envs.engine.state import G_HEAD, G_TAIL
from envs.obs.oracle_v0 import N_ORACLE_EXTRA, OracleV0
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules
from training.critic import OracleCritic
from training.ppo import LOG_COLUMNS, TrainConfig, ppo_update, train
from training.rollout import Batch, Opponents, Rollout

RULES = {"profile": "standard", "episode": "hand"}


def _critic_reading_hidden(net: PolicyValueNet, seed: int = 0) -> OracleCritic:
    """``from_actor`` puts zero weights on the hidden planes; give them some, as training would."""
    critic = OracleCritic.from_actor(net)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        w = critic.net.stem.weight
        w[:, net.cfg.net_channels :] = 0.5 * torch.randn(w[:, net.cfg.net_channels :].shape, generator=g)
    return critic


def test_the_critic_reads_hidden_tiles_and_the_actor_does_not():
    """Shuffling the undrawn wall changes only hidden information: the actor's input and logits stay
    the same to the bit, the oracle planes and the critic's values change."""
    d = Driver(Rules.make(**RULES), 4)
    d.deal(game_seeds(11, 4), np.ones(4, bool))
    seat, rows = d.current.astype(np.int64), np.arange(4)
    enc, oracle = PlanesV0(derived=True), OracleV0(derived=True)

    def views():
        obs = enc.alloc(4)
        d.encode(obs, rows, seat, enc.flags)
        return obs, oracle.encode(d.engine, seat)[:, oracle.n_planes :].copy()

    obs1, hid1 = views()
    rng = np.random.default_rng(0)
    for b in range(4):  # the live wall between the next front draw and the next replacement draw
        head, tail = int(d.s.g[b, G_HEAD]), int(d.s.g[b, G_TAIL])
        d.s.wall[b, head : tail + 1] = rng.permutation(d.s.wall[b, head : tail + 1])
    obs2, hid2 = views()
    assert np.array_equal(obs1, obs2) and not np.array_equal(hid1, hid2)
    assert hid1.shape == (4, N_ORACLE_EXTRA, 34) and set(np.unique(hid1)) <= {0.0, 1.0}

    torch.manual_seed(0)
    net = PolicyValueNet(SMALL)
    critic = _critic_reading_hidden(net)
    x1, x2 = (torch.from_numpy(net_input(o, SMALL)) for o in (obs1, obs2))
    with torch.no_grad():
        assert torch.equal(net(x1)[0], net(x2)[0])
        v1, v2 = critic(x1, torch.from_numpy(hid1)), critic(x2, torch.from_numpy(hid2))
    assert not torch.allclose(v1, v2)


def test_the_critic_starts_as_the_actors_value_head():
    torch.manual_seed(1)
    net = PolicyValueNet(SMALL)
    critic = OracleCritic.from_actor(net)
    x = torch.rand(5, SMALL.net_channels, 34)
    hidden = (torch.rand(5, N_ORACLE_EXTRA, 34) > 0.5).to(torch.uint8)
    with torch.no_grad():
        assert torch.allclose(critic(x, hidden), net(x)[1], atol=1e-5)


def _rollout(cfg: TrainConfig, net: PolicyValueNet, critic=None) -> Batch:
    opponents = Opponents(cfg)
    opponents.snapshot(net)
    ro = Rollout(cfg, Rules.make(**RULES).to_dict(), np.random.default_rng(cfg.seed), seed=cfg.seed)
    return ro.collect(net, opponents, critic) if critic is not None else ro.collect(net, opponents)


def test_with_the_oracle_critic_the_learner_acts_exactly_as_without():
    """The same seed with and without the critic: the same inputs, actions and log-probabilities (the
    critic changes only the values, hence the advantages); the hidden planes travel apart."""
    cfg = TrainConfig(num_envs=8, rollout_steps=16, opponents=("greedy", "pool"), net=SMALL, seed=5)
    torch.manual_seed(0)
    net = PolicyValueNet(SMALL)
    plain, oracle = _rollout(cfg, net), _rollout(cfg, net, _critic_reading_hidden(net))
    assert plain.hidden is None and oracle.hidden.shape == (len(oracle.act), N_ORACLE_EXTRA, 34)
    assert oracle.obs.shape[1] == SMALL.net_channels  # the actor's rows hold no hidden plane
    for k in ("obs", "mask", "act", "logp"):
        assert np.array_equal(getattr(plain, k), getattr(oracle, k)), k
    assert not np.allclose(plain.val, oracle.val)


def test_drop_forced_updates_as_if_the_forced_rows_were_not_there():
    cfg = TrainConfig(num_envs=8, rollout_steps=16, opponents=("greedy",), net=SMALL, minibatch_size=32, seed=2)
    torch.manual_seed(0)
    net = PolicyValueNet(SMALL)
    b = _rollout(cfg, net)
    n = len(b.act)
    forced = np.zeros(n, bool)
    forced[::3] = True  # make every third row forced: only its action is legal
    mask, logp = b.mask.copy(), b.logp.copy()
    mask[forced] = False
    mask[forced, b.act[forced]] = True
    logp[forced] = 0.0
    cols = ("obs", "act", "adv", "ret", "val")
    full = Batch(**{k: getattr(b, k) for k in cols}, mask=mask, logp=logp, ep_returns=[], decisions=n)
    kept = Batch(
        **{k: getattr(b, k)[~forced] for k in cols}, mask=mask[~forced], logp=logp[~forced], ep_returns=[], decisions=n
    )
    weights = []
    for batch, drop in ((full, True), (kept, False)):
        model = PolicyValueNet(SMALL)
        model.load_state_dict(net.state_dict())
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        c = replace(cfg, drop_forced=drop, update_epochs=2)
        diag = ppo_update(model, opt, batch, c, np.random.default_rng(0))
        weights.append(model.state_dict())
    assert diag["forced_frac"] == 0.0
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_train_with_the_oracle_critic_logs_the_diagnostics_and_resumes(tmp_path):
    cfg = tiny_config(tmp_path, critic="oracle", drop_forced=True, checkpoint_every=1)
    train(cfg)
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert tuple(rows[0]) == LOG_COLUMNS and len(rows) == 2
    for r in rows:
        for key in ("grad_norm", "ret_std", "adv_std", "value_rmse", "forced_frac", "argmax_changed"):
            assert math.isfinite(float(r[key])) and float(r[key]) >= 0, key
        assert 0 <= float(r["argmax_changed"]) <= 1 and 0 <= float(r["forced_frac"]) <= 1
    st = torch.load(tmp_path / "run" / "train_state.pt", weights_only=False)
    assert "critic" in st and "critic_opt" in st
    cfg.total_decisions, cfg.resume = 576, str(tmp_path / "run" / "train_state.pt")
    train(cfg)
    assert [int(r["update"]) for r in csv.DictReader(open(tmp_path / "run" / "log.csv"))] == [1, 2, 3]


def test_a_critic_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="critic must be one of"):
        TrainConfig(critic="psychic")


def test_policy_checkpoint_holds_only_the_actor(tmp_path):
    from agents.neural import load_checkpoint

    cfg = tiny_config(
        tmp_path,
        rollout_steps=16,
        total_decisions=128,
        minibatch_size=64,
        update_epochs=1,
        opponents=("greedy",),
        critic="oracle",
    )
    net, ck = load_checkpoint(train(cfg))
    assert net.stem.weight.shape[1] == SMALL.net_channels and not any("critic" in k for k in ck)
    logits = masked_logits(net(torch.zeros(1, SMALL.net_channels, 34))[0], torch.ones(1, 76, dtype=torch.bool))
    assert torch.isfinite(logits).all()


def test_bench_train_runs_the_oracle_critic(monkeypatch):
    """``tw16 bench train`` measures the main job's config; with the oracle critic it builds and times it too."""
    import tw16.bench.train as bench
    from training.pipeline import Pipeline

    p = Pipeline()
    p.ppo = replace(p.ppo, critic="oracle", num_envs=8, rollout_steps=8, minibatch_size=32)
    monkeypatch.setattr(bench, "Pipeline", lambda: p)
    out = bench.bench_train(seconds=0.01, warmup_updates=0)
    assert out["updates"] >= 1 and out["decisions"] == 64 * out["updates"] and out["learner_decisions"] > 0
