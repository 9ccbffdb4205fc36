"""``tw16 train``: behaviour cloning, then PPO self-play, then duplicate evaluation and a report.

Every option is a field of ``Pipeline`` (nested: ``--bc.hands``, ``--ppo.total-decisions`` ...), read
by tyro from the command line. The defaults are the README's main job: a run of a few minutes on 2
CPU cores. ``agents/checkpoints/README.md`` gives the longer command that produced the shipped
checkpoint.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

# the command line (tyro's parsing, every option checked, the printout) is tw16/cli/train.py
from agents.neural import NetConfig
from training.bc import BCConfig, train_bc
from training.curves import plot_curves
from training.ppo import TrainConfig, train


def _quick_net() -> NetConfig:
    # a quarter of the default network's weights: twice the decisions per second, and cloning Greedy
    # reaches 97.9% accuracy in 4 epochs (agents/checkpoints/README.md, "The main job")
    return NetConfig(width=16, hidden=128)


def _quick_bc() -> BCConfig:
    # out: what the default --out-dir sets (run_pipeline writes OUT_DIR/bc.pt), so the help shows it
    return BCConfig(
        teachers=("greedy",) * 4,
        hands=3000,
        epochs=4,
        batch_size=256,
        learning_rate=3e-3,
        out="runs/train/bc.pt",
        net=_quick_net(),
    )  # net: run_pipeline gives BC the PPO network


def _quick_ppo() -> TrainConfig:
    # from the clone, a small learning rate: PPO refines Greedy's play instead of unlearning it. Issue 26
    # tried moving it further (--ppo.critic oracle, lr 1e-3, two epochs of 1,024, --ppo.target-kl 0.02:
    # 15% of the probe states' actions changed, 1.8x the work) and measured no gain over the clone on
    # 20,000 fresh hands (agents/checkpoints/README.md, "Issue 26"), so these settings stay. Luck-corrected
    # credit (--ppo.luck-credit --bc.luck-credit: 2.5x less advantage variance) read +0.01 [-0.17, +0.18]
    # over its clone on its declared 20,000 hands with --vr (same file, "second session"): not a default
    # Oracle advantages (--ppo.advantage oracle: rollouts of the true state, a tenth of GAE's noise, 1.36 ms
    # of CPU a learner decision) read -0.27 [-0.83, +0.29] over the clone on 8,000 exploratory hands (same
    # file, "fifth session"): not a default either
    return TrainConfig(
        num_envs=256,
        rollout_steps=64,
        total_decisions=1_048_576,
        minibatch_size=2048,
        update_epochs=1,
        learning_rate=1e-4,
        ent_coef=0.003,
        net=_quick_net(),
        out_dir="runs/train/ppo",
    )


# Options of the sections that run_pipeline sets itself (tw16 train refuses them: they would be ignored)
# -> what sets them
DERIVED_OPTIONS = {
    "--bc.out": "--out-dir (OUT_DIR/bc.pt)",
    "--ppo.out-dir": "--out-dir (OUT_DIR/ppo)",
    "--bc.net": "--ppo.net.* (one network for both)",
    "--bc.seed": "--seed",
    "--ppo.seed": "--seed",
    "--bc.device": "--device",
    "--ppo.device": "--device",
}


@dataclass
class Pipeline:
    out_dir: str = "runs/train"
    bc: BCConfig = field(default_factory=_quick_bc)
    ppo: TrainConfig = field(default_factory=_quick_ppo)
    skip_bc: bool = False
    eval_hands: int = 2000  # duplicate hands against the baselines at the end (0: none); 400 read +-6 chips
    eval_against: tuple[str, ...] = ("greedy", "defensive", "random")  # the other three seats
    seed: int = 0
    # where the networks of all three stages run: cpu | cuda | cuda:N | auto (the engine stays on the CPU)
    device: str = "cpu"


def run_pipeline(p: Pipeline, argv: list[str] | None = None) -> dict:
    """Run the pipeline; ``argv`` (the ``tw16 train`` options) is quoted in the report."""
    out = Path(p.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    p.bc.seed = p.ppo.seed = p.seed
    p.bc.device = p.ppo.device = p.device
    t0 = time.perf_counter()
    if not p.skip_bc:
        p.bc.out = str(out / "bc.pt")
        p.bc.net = p.ppo.net
        p.ppo.init_checkpoint = str(train_bc(p.bc))
    t_bc = time.perf_counter() - t0
    p.ppo.out_dir = str(out / "ppo")
    policy = train(p.ppo)
    t_ppo = time.perf_counter() - t0 - t_bc
    curves = plot_curves(Path(p.ppo.out_dir) / "log.csv", out / "curves.png")
    report = {
        "policy": str(policy),
        "bc_s": round(t_bc, 1),
        "ppo_s": round(t_ppo, 1),
        "curves": str(curves),
        "config": asdict(p),
    }
    if p.eval_hands:
        from agents.evaluation.league import evaluate, jsonable, league_table, plot

        if len(p.eval_against) != 3:
            raise ValueError(f"eval_against needs three agents, got {list(p.eval_against)}")
        res = evaluate(
            [f"neural:{policy}", *p.eval_against],
            p.eval_hands,
            seed=p.seed + 1,
            progress=p.ppo.progress,
            device=p.device,
        )
        report["eval"] = jsonable(res)
        report["plot"] = str(plot(res, out / "eval.png"))
    report["total_s"] = round(time.perf_counter() - t0, 1)
    table = league_table(res) if p.eval_hands else "(no evaluation: --eval-hands 0)\n"
    (out / "report.md").write_text(_report_md(p, report, table, argv or []))
    (out / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    return report


def _report_md(p: Pipeline, report: dict, table: str, argv: list[str]) -> str:
    log = Path(p.ppo.out_dir) / "log.csv"
    last = log.read_text().strip().splitlines()[-1].split(",") if log.exists() else []
    sps = last[2] if len(last) > 2 else "?"
    done = last[1] if len(last) > 1 else "?"  # the decisions made (a time limit can stop before the cap)
    return (
        "# tw16 training report\n\n"
        f"- command: `{' '.join(['tw16', 'train', *argv])}`\n"
        f"- behaviour cloning: {p.bc.hands} hands of {', '.join(p.bc.teachers)} ({report['bc_s']} s)\n"
        f"- PPO: {done} environment decisions of at most {p.ppo.total_decisions} ({report['ppo_s']} s, last update "
        f"{sps} decisions/s)\n"
        f"- policy: `{report['policy']}`; learning curves: `{log}`\n"
        f"- wall time in all: {report['total_s']} s\n\n"
        f"```\n{table}```\n\n"
        + ("![duplicate evaluation](eval.png) " if "plot" in report else "")
        + "![learning curves](curves.png)\n"
    )
