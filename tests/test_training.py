"""Smoke tests of the training entry points: PPO (with resume) and the tw16 train pipeline."""

from __future__ import annotations

import csv

import numpy as np

from agents.neural import load_checkpoint
from envs.gym_env import SeatCredit
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
    cfg = TrainConfig(num_envs=8, rollout_steps=24, total_decisions=384, minibatch_size=48, update_epochs=1,
                      opponents=("greedy", "pool"), out_dir=str(tmp_path / "run"), progress=False, checkpoint_every=1)
    policy = train(cfg)
    net, ck = load_checkpoint(policy)
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert len(rows) == 2 and float(rows[-1]["decisions"]) >= 384
    for key in ("approx_kl", "clipfrac", "explained_var", "sps"):
        assert rows[-1][key] != ""
    cfg.total_decisions = 576  # one more update
    cfg.resume = str(tmp_path / "run" / "train_state.pt")
    train(cfg)
    rows = list(csv.DictReader(open(tmp_path / "run" / "log.csv")))
    assert [int(r["update"]) for r in rows] == [1, 2, 3]


def test_time_limit_stop_is_resumable(tmp_path):
    import torch

    cfg = TrainConfig(num_envs=4, rollout_steps=8, total_decisions=320, time_limit_s=0.0, opponents=("random",),
                      out_dir=str(tmp_path / "run"), progress=False)  # fmt: skip
    train(cfg)
    state = torch.load(tmp_path / "run" / "train_state.pt", weights_only=False)
    assert state["update"] == 0 and state["decisions"] == 0
    assert (tmp_path / "run" / "policy.pt").exists()


def test_plot_labels_are_short_and_unique():
    from evaluation.league import short_labels

    names = ["neural:runs/train/ppo/policy.pt", "greedy", "neural:agents/checkpoints/ppo_v1.pt", "random"]
    assert short_labels(names) == ["neural 1", "greedy", "neural 2", "random"]
    assert short_labels(["neural:runs/x.pt", "greedy"]) == ["neural", "greedy"]


def test_core_threads_keeps_the_old_name():
    """``numba_threads`` (configs and command lines from before the native core) sets core_threads."""
    from dataclasses import asdict

    assert TrainConfig(numba_threads=3).core_threads == 3 and TrainConfig().core_threads == 1
    assert TrainConfig(core_threads=2).core_threads == 2
    assert "numba_threads" not in asdict(TrainConfig(numba_threads=3))
