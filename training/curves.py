"""Learning curves of a PPO run: the per-update rows of its ``log.csv`` (``training.ppo.LOG_COLUMNS``)
plotted against environment decisions, for the main job's report (``training.pipeline``)."""

from __future__ import annotations

import csv
from pathlib import Path

from agents.evaluation.league import save_figure

# (log.csv column, panel title): what tells whether the run learns
CURVES = (
    ("learner_tai_per_hand", "learner's tai per hand (last 500 hands)"),
    ("entropy", "policy entropy"),
    ("approx_kl", "approx KL per update"),
    ("explained_var", "explained variance of the values"),
    ("argmax_changed", "probe states whose argmax moved from the start"),
    ("clipfrac", "clip fraction"),
    ("value_rmse", "critic error (RMS return - value)"),
    ("grad_norm", "policy gradient norm (before clipping)"),
)
CORE = 4  # the first CURVES every log has; logs written before the others were added lack them


def read_log(path) -> dict[str, list[float]]:
    """The columns of a ``log.csv`` as float lists (a cell that is empty or not a number reads NaN)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{str(path)!r} holds no update rows")

    def num(v) -> float:
        try:
            return float(v)
        except (TypeError, ValueError):
            return float("nan")

    return {k: [num(r.get(k)) for r in rows] for k in rows[0]}


def plot_curves(log_path, path) -> Path:
    """Plot ``CURVES`` of the run logged in ``log_path`` against decisions into the image ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    log = read_log(log_path)
    missing = [k for k, _ in CURVES[:CORE] if k not in log] + (["decisions"] if "decisions" not in log else [])
    if missing:
        raise ValueError(f"{str(log_path)!r} lacks the column(s) {missing}")
    curves = [c for c in CURVES if c[0] in log]
    cols = (len(curves) + 1) // 2
    fig, axes = plt.subplots(2, cols, figsize=(4 * cols, 5), dpi=110, sharex=True)
    for ax, (key, title) in zip(axes.flat, curves):
        ax.plot(log["decisions"], log[key], marker="." if len(log[key]) < 30 else None, lw=1.2, color="#264653")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes[1][: len(curves) - cols]:
        ax.set_xlabel("environment decisions (all seats)")
    fig.suptitle("tw16 PPO learning curves", fontsize=10)
    return save_figure(fig, path)
