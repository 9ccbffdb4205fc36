"""The tiny PPO runs the training tests share: a small network and a few hundred decisions, so a
run takes seconds; each test names what it changes."""

from __future__ import annotations

from agents.neural import NetConfig
from training.config import TrainConfig

SMALL = NetConfig(width=8, hidden=32)


def tiny_config(tmp_path, name: str = "run", **kw) -> TrainConfig:
    """Three updates of 8 games x 24 steps against Greedy and the snapshot pool, 2 epochs of 48, in
    ``tmp_path / name``; ``kw`` overrides any field."""
    return TrainConfig(
        **{
            "num_envs": 8,
            "rollout_steps": 24,
            "total_decisions": 384,
            "minibatch_size": 48,
            "update_epochs": 2,
            "opponents": ("greedy", "pool"),
            "net": SMALL,
            "out_dir": str(tmp_path / name),
            "progress": False,
            **kw,
        }
    )


def tiny_pool_config(tmp_path, name: str = "run", **kw) -> TrainConfig:
    """Two updates of 8 games x 16 steps against two Greedy seats and a snapshot taken every update,
    2 epochs of 32: the runs that check the log, the curves and determinism; ``kw`` overrides any field."""
    return tiny_config(
        tmp_path,
        name,
        **{
            "rollout_steps": 16,
            "total_decisions": 256,
            "minibatch_size": 32,
            "opponents": ("greedy", "greedy", "pool"),
            "pool_every": 1,
            **kw,
        },
    )
