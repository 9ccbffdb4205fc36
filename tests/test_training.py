"""Smoke tests of the training entry points: PPO (with resume) and the tw16 train pipeline."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from tiny_training import SMALL, tiny_config, tiny_pool_config

from agents.neural import NetConfig, load_checkpoint
from training.credit import SeatCredit
from training.ppo import TrainConfig, gae, train


def test_gae_follows_each_seats_chain():
    # one game; seat 0 decides at t=0 and t=2, seat 1 at t=1; the hand ends after t=2:
    # seat 0 is paid 1 at the end, seat 1 (not acting at the end) pays 1
    credit = SeatCredit(3, 1)
    for t, seat in enumerate((0, 1, 0)):
        credit.decide(t, np.array([seat]))
        done = np.array([t == 2])
        credit.paid(np.array([[1.0, -1.0, 0, 0]], np.float32) if t == 2 else np.zeros((1, 4), np.float32), done)
    assert credit.next_t[:, 0].tolist() == [2, -1, -1]
    assert credit.reward[:, 0].tolist() == [0.0, -1.0, 1.0] and credit.ended[:, 0].tolist() == [False, True, True]
    values = np.array([[0.5], [0.2], [0.1]], np.float32)
    adv, ret = gae(values, credit.reward, credit.ended, credit.next_t, gamma=1.0, lam=1.0)
    assert np.allclose(ret[:, 0], [1.0, -1.0, 1.0])
    assert np.allclose(adv, ret - values)


def test_gae_open_chain_bootstraps_on_its_own_value():
    credit = SeatCredit(2, 1)
    credit.decide(0, np.array([0]))
    credit.paid(np.zeros((1, 4), np.float32), np.array([False]))
    credit.decide(1, np.array([1]))
    credit.paid(np.zeros((1, 4), np.float32), np.array([False]))
    values = np.array([[0.7], [-0.3]], np.float32)
    adv, ret = gae(values, credit.reward, credit.ended, credit.next_t, gamma=1.0, lam=0.95)
    assert np.allclose(adv, 0.0) and np.allclose(ret, values)


def test_ppo_smoke_and_resume(tmp_path):
    cfg = tiny_config(tmp_path, update_epochs=1, net=NetConfig(), checkpoint_every=1)  # the default network
    policy = train(cfg)
    net, ck = load_checkpoint(policy)
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert len(rows) == 2 and float(rows[-1]["decisions"]) >= 384
    for key in ("approx_kl", "clipfrac", "explained_var", "sps"):
        assert rows[-1][key] != ""
    # the KL at full precision: a small KL rounded to 5 decimals read as a flat zero in the curves
    kls = [r["approx_kl"] for r in rows]
    assert any(len(k.split(".")[-1].rstrip("0")) > 5 or "e-" in k for k in kls if float(k) != 0), kls
    cfg.total_decisions = 576  # one more update
    cfg.resume = str(tmp_path / "run" / "train_state.pt")
    train(cfg)
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert [int(r["update"]) for r in rows] == [1, 2, 3]


def test_time_limit_stop_is_resumable(tmp_path):
    import torch

    cfg = TrainConfig(
        num_envs=4,
        rollout_steps=8,
        total_decisions=320,
        time_limit_s=0.0,
        opponents=("random",),
        out_dir=str(tmp_path / "run"),
        progress=False,
    )
    train(cfg)
    state = torch.load(tmp_path / "run" / "train_state.pt", weights_only=False)
    assert state["update"] == 0 and state["decisions"] == 0
    assert (tmp_path / "run" / "policy.pt").exists()


def test_plot_labels_are_short_and_unique():
    from agents.evaluation.league import short_labels

    names = ["neural:runs/train/ppo/policy.pt", "greedy", "neural:agents/checkpoints/ppo_v1.pt", "random"]
    assert short_labels(names) == ["neural 1", "greedy", "neural 2", "random"]
    assert short_labels(["neural:runs/x.pt", "greedy"]) == ["neural", "greedy"]


def test_core_threads_keeps_the_old_name():
    """The old keyword of core_threads (configs and command lines from before the native core) sets it."""
    from dataclasses import asdict

    assert TrainConfig(numba_threads=3).core_threads == 3 and TrainConfig().core_threads == 1
    assert TrainConfig(core_threads=2).core_threads == 2
    assert "numba_threads" not in asdict(TrainConfig(numba_threads=3))


def test_training_is_deterministic_given_the_seed(tmp_path):
    """Same seed: the same weights and the same per-update diagnostics (timings aside); another seed differs."""
    import torch

    from training.ppo import LOG_COLUMNS

    timing = {"sps", "rollout_s", "update_s"} | {c for c in LOG_COLUMNS if c.endswith("_s")}

    def run(name, seed):
        net, _ = load_checkpoint(train(tiny_pool_config(tmp_path, name, seed=seed)))
        rows = list(csv.DictReader(open(tmp_path / name / "log.csv")))
        return net.state_dict(), [{k: v for k, v in r.items() if k not in timing} for r in rows]

    (w1, log1), (w2, log2), (w3, _) = run("a", 3), run("b", 3), run("c", 4)
    assert log1 == log2 and all(torch.equal(w1[k], w2[k]) for k in w1)
    assert not all(torch.equal(w1[k], w3[k]) for k in w1)


def test_log_has_diagnostics_and_time_breakdown_per_update(tmp_path):
    from training.ppo import LOG_COLUMNS

    train(tiny_pool_config(tmp_path, "run"))
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert len(rows) == 2 and tuple(rows[0]) == LOG_COLUMNS
    for r in rows:
        assert 0 < float(r["learner_decisions"]) <= 8 * 16 and float(r["entropy"]) > 0
        assert float(r["rollout_s"]) > 0 and float(r["forward_s"]) >= 0 and float(r["update_s"]) > 0


def test_opponent_slots_count_repeated_names_and_the_pool_plays_one_snapshot():
    from agents.neural import NetConfig, PolicyValueNet
    from training.rollout import Opponents

    cfg = TrainConfig(opponents=("greedy", "greedy", "pool", "random"))
    opp = Opponents(cfg)
    assert list(opp.rule) == ["greedy", "random"] and opp.slot_rule.tolist() == [0, 0, -1, 1]
    with np.testing.assert_raises(ValueError):
        opp.pick(np.random.default_rng(0))  # no snapshot yet
    for _ in range(3):
        opp.snapshot(PolicyValueNet(NetConfig()))
    assert opp.pick(np.random.default_rng(0)) in [a.net for a in opp.pool]
    assert Opponents(TrainConfig(opponents=("greedy",))).pick(np.random.default_rng(0)) is None


def test_curves_are_plotted_from_the_log(tmp_path):
    from training.curves import CURVES, plot_curves, read_log

    train(tiny_pool_config(tmp_path, "run", total_decisions=384))
    log = read_log(tmp_path / "run" / "log.csv")
    assert len(log["decisions"]) == 3 and all(k in log for k, _ in CURVES)
    png = plot_curves(tmp_path / "run" / "log.csv", tmp_path / "curves.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    (tmp_path / "empty.csv").write_text("update,decisions\n")
    with np.testing.assert_raises(ValueError):
        plot_curves(tmp_path / "empty.csv", tmp_path / "x.png")


def test_checkpoints_record_the_reward_scale_the_value_head_learnt_in(tmp_path):
    """The value head's unit is tai x reward_scale: PPO and BC write it into the checkpoint, and
    ``NeuralAgent.reward_scale`` reads it (0.1 for checkpoints that predate it, as ppo_v2.pt)."""
    from agents.neural import NeuralAgent
    from training.bc import BCConfig, train_bc

    ppo = train(tiny_config(tmp_path, reward_scale=0.25, total_decisions=192))
    assert NeuralAgent(ppo).reward_scale == 0.25
    bc = train_bc(
        BCConfig(
            teachers=("greedy",) * 4,
            hands=4,
            batch_hands=4,
            epochs=1,
            net=SMALL,
            out=str(tmp_path / "bc.pt"),
            progress=False,
            reward_scale=0.5,
        )
    )
    assert NeuralAgent(bc).reward_scale == 0.5
    assert NeuralAgent().reward_scale == 0.1


def test_oracle_advantages_are_deterministic_and_refuse_bad_options(tmp_path):
    """--ppo.advantage oracle: the rollouts' advantages drive the update (their spread is logged beside
    GAE's, adv_std_raw), the run is the same for the same seed, and bad options are refused."""
    import torch

    def run(name):
        cfg = tiny_pool_config(tmp_path, name, seed=5, advantage="oracle", oracle_k=2, oracle_n=3)
        net, _ = load_checkpoint(train(cfg))
        rows = list(csv.DictReader(open(tmp_path / name / "log.csv")))
        return net.state_dict(), rows

    (w1, log1), (w2, log2) = run("a"), run("b")
    assert all(torch.equal(w1[k], w2[k]) for k in w1)
    for r1, r2 in zip(log1, log2):
        assert r1["adv_std"] == r2["adv_std"] and float(r1["adv_std"]) > 0 and float(r1["oracle_s"]) > 0
        assert r1["adv_std_raw"] != r1["adv_std"]  # GAE's advantages, beside the rollouts' own
    for bad in (
        {"advantage": "mc"},
        {"advantage": "oracle", "oracle_n": 1},
        {"advantage": "oracle", "oracle_rollout": "base"},
    ):
        with pytest.raises(ValueError):
            tiny_pool_config(tmp_path, **bad)
