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
