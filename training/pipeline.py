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

from training.bc import BCConfig, train_bc
from training.ppo import TrainConfig, train


def _quick_bc() -> BCConfig:
    return BCConfig(hands=400, batch_hands=200, epochs=2)


def _quick_ppo() -> TrainConfig:
    return TrainConfig(num_envs=64, rollout_steps=64, total_decisions=65_536, minibatch_size=512, update_epochs=2)


@dataclass
class Pipeline:
    out_dir: str = "runs/train"
    bc: BCConfig = field(default_factory=_quick_bc)
    ppo: TrainConfig = field(default_factory=_quick_ppo)
    skip_bc: bool = False
    eval_hands: int = 400  # duplicate hands against the baselines at the end (0: none)
    eval_against: tuple[str, ...] = ("greedy", "defensive", "random")  # the other three seats
    seed: int = 0


def run_pipeline(p: Pipeline, argv: list[str] | None = None) -> dict:
    """Run the pipeline; ``argv`` (the ``tw16 train`` options) is quoted in the report."""
    out = Path(p.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    p.bc.seed = p.ppo.seed = p.seed
    t0 = time.perf_counter()
    if not p.skip_bc:
        p.bc.out = str(out / "bc.pt")
        p.bc.net = p.ppo.net
        p.ppo.init_checkpoint = str(train_bc(p.bc))
    t_bc = time.perf_counter() - t0
    p.ppo.out_dir = str(out / "ppo")
    policy = train(p.ppo)
    t_ppo = time.perf_counter() - t0 - t_bc
    report = {"policy": str(policy), "bc_s": round(t_bc, 1), "ppo_s": round(t_ppo, 1),
              "config": asdict(p)}  # fmt: skip
    if p.eval_hands:
        from training.eval_cli import evaluate, jsonable, league_table, plot

        if len(p.eval_against) != 3:
            raise ValueError(f"eval_against needs three agents, got {list(p.eval_against)}")
        res = evaluate([f"neural:{policy}", *p.eval_against], p.eval_hands, seed=p.seed + 1, progress=p.ppo.progress)
        report["eval"] = jsonable(res)
        report["plot"] = str(plot(res, out / "eval.png"))
        (out / "report.md").write_text(_report_md(p, report, league_table(res), argv or []))
    (out / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    return report


def _report_md(p: Pipeline, report: dict, table: str, argv: list[str]) -> str:
    log = Path(p.ppo.out_dir) / "log.csv"
    last = log.read_text().strip().splitlines()[-1].split(",") if log.exists() else []
    sps = last[2] if len(last) > 2 else "?"
    return (
        "# tw16 training report\n\n"
        f"- command: `{' '.join(['tw16', 'train', *argv])}`\n"
        f"- behaviour cloning: {p.bc.hands} hands of {', '.join(p.bc.teachers)} ({report['bc_s']} s)\n"
        f"- PPO: {p.ppo.total_decisions} environment decisions ({report['ppo_s']} s, last update {sps} decisions/s)\n"
        f"- policy: `{report['policy']}`; learning curves: `{log}`\n\n"
        f"```\n{table}```\n\n![duplicate evaluation](eval.png)\n"
    )


def check_pipeline(p: Pipeline) -> None:
    """Every option of ``tw16 train`` checked before any hand is played: ``UsageError`` naming the
    option (``--ppo.num-envs``) and the problem."""
    import math

    from agents.neural import _CONFIG_LIMITS
    from training.usage import UsageError, check_agents, positive_int, rules_from_args

    def opt(section: str, name: str) -> str:
        return f"--{section + '.' if section else ''}{name.replace('_', '-')}"

    def ints(section, obj, minimum, *names):
        for n in names:
            positive_int(getattr(obj, n), opt(section, n), minimum)

    def reals(section, obj, lo, hi, *names, lo_open=False):
        for n in names:
            v = getattr(obj, n)
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            ok = ok and (lo < v if lo_open else lo <= v) and v <= hi
            if not ok:
                raise UsageError(f"{opt(section, n)} must be a number in {'(' if lo_open else '['}{lo}, {hi}], got {v!r}")

    ints("", p, 0, "eval_hands", "seed")
    if len(p.eval_against) != 3:
        raise UsageError(f"--eval-against needs three agents, got {list(p.eval_against)}")
    if p.eval_hands:
        check_agents(p.eval_against)
    for section, cfg in (("bc", p.bc), ("ppo", p.ppo)):
        ints(section, cfg, 1, "torch_threads")
        reals(section, cfg, 0, 10.0, "learning_rate", "reward_scale", lo_open=True)
        if not isinstance(cfg.rules, dict):
            raise UsageError(f"{opt(section, 'rules')} must be a dict of rule options, got {cfg.rules!r}")
        rules_from_args(cfg.rules.get("profile", "standard"), json.dumps({k: v for k, v in cfg.rules.items() if k != "profile"}))
        for key, (lo, hi) in _CONFIG_LIMITS.items():
            positive_int(getattr(cfg.net, key), opt(section, f"net.{key}"), lo)
            if getattr(cfg.net, key) > hi:
                raise UsageError(f"{opt(section, f'net.{key}')} must be at most {hi}, got {getattr(cfg.net, key)}")
    if not p.skip_bc:
        ints("bc", p.bc, 1, "hands", "batch_hands", "epochs", "batch_size")
        reals("bc", p.bc, 0, 1e6, "value_coef")
        if len(p.bc.teachers) != 4:
            raise UsageError(f"--bc.teachers needs four agents (one per seat), got {list(p.bc.teachers)}")
        check_agents(p.bc.teachers)
    c = p.ppo
    ints("ppo", c, 1, "num_envs", "rollout_steps", "total_decisions", "update_epochs", "minibatch_size", "pool_every",
         "pool_size", "checkpoint_every", "core_threads")  # fmt: skip
    ints("ppo", c, 0, "workers")
    reals("ppo", c, 0, 1, "gamma", "gae_lambda", "selfplay_frac")
    reals("ppo", c, 0, 1e6, "clip_coef", "ent_coef", "vf_coef", "max_grad_norm")
    if c.target_kl is not None:
        reals("ppo", c, 0, 1e6, "target_kl", lo_open=True)
    if c.time_limit_s is not None:
        reals("ppo", c, 0, 1e9, "time_limit_s", lo_open=True)
    if not c.opponents:
        raise UsageError("--ppo.opponents needs at least one agent (or 'pool')")
    check_agents([o for o in c.opponents if o != "pool"])
    for n in ("init_checkpoint", "resume"):
        path = getattr(c, n)
        if path is not None and not Path(path).is_file():
            raise UsageError(f"{opt('ppo', n)} {path!r}: no such file")


def run_train(argv) -> int:
    import tyro

    p = tyro.cli(Pipeline, args=argv, prog="tw16 train", description=__doc__)
    check_pipeline(p)
    report = run_pipeline(p, argv)
    print(json.dumps({k: v for k, v in report.items() if k not in ("eval", "config")}, indent=2))
    if p.eval_hands:
        print((Path(p.out_dir) / "report.md").read_text())
    return 0
