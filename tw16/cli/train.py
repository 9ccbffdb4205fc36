"""``tw16 train``: the main job (``training.pipeline``) from the command line. tyro reads every field of
``Pipeline`` from the options; each is checked before any hand is played."""

from __future__ import annotations

import json
import math
from pathlib import Path

from training import pipeline
from training.pipeline import Pipeline, run_pipeline
from tw16.cli.usage import UsageError, check_agents, check_device, positive_int, rules_from_args


def check_pipeline(p: Pipeline) -> None:
    """Every option of ``tw16 train`` checked before any hand is played: ``UsageError`` naming the
    option (``--ppo.num-envs``) and the problem."""
    from agents.neural import _CONFIG_LIMITS

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
                raise UsageError(
                    f"{opt(section, n)} must be a number in {'(' if lo_open else '['}{lo}, {hi}], got {v!r}"
                )

    check_device(p.device)
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
        rules_from_args(
            cfg.rules.get("profile", "standard"), json.dumps({k: v for k, v in cfg.rules.items() if k != "profile"})
        )
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
    ints(
        "ppo",
        c,
        1,
        "num_envs",
        "rollout_steps",
        "total_decisions",
        "update_epochs",
        "minibatch_size",
        "pool_every",
        "pool_size",
        "checkpoint_every",
        "core_threads",
    )
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


def net_sizes(widths=(16, 32)) -> str:
    """The parameter count of the network at each width with the default ``--ppo.net`` otherwise
    (computed from the network itself, for the help)."""
    from dataclasses import replace

    from agents.neural import PolicyValueNet

    net = Pipeline().ppo.net
    lines = []
    for w in widths:
        n = sum(x.numel() for x in PolicyValueNet(replace(net, width=w)).parameters())
        lines.append(f"width {w}: {n:,} parameters ({2 * n / 1e6:.2f} MB as float16)")
    return f"Network sizes (--ppo.net.width, hidden {net.hidden}, {net.blocks} block): " + "; ".join(lines) + "."


def check_derived(argv) -> None:
    """Refuse the options the pipeline sets itself (``pipeline.DERIVED_OPTIONS``): they would be ignored."""
    for token in argv:
        opt = token.split("=", 1)[0].replace("_", "-")
        for name, by in pipeline.DERIVED_OPTIONS.items():
            if opt == name or opt.startswith(name + "."):
                raise UsageError(f"{opt} is set by {by} in tw16 train; give that instead")


def description() -> str:
    derived = "; ".join(f"{k} from {v}" for k, v in pipeline.DERIVED_OPTIONS.items())
    return f"{pipeline.__doc__}\n{net_sizes()}\nSet by the pipeline (not options here): {derived}.\n"


def run_train(argv) -> int:
    import tyro

    check_derived(argv)
    p = tyro.cli(Pipeline, args=argv, prog="tw16 train", description=description())
    check_pipeline(p)
    report = run_pipeline(p, argv)
    print(json.dumps({k: v for k, v in report.items() if k not in ("eval", "config")}, indent=2))
    if p.eval_hands:
        print((Path(p.out_dir) / "report.md").read_text())
    return 0
