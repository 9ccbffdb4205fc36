"""``tw16 eval A B C D --hands N``: duplicate evaluation (``evaluation.league``) from the command line:
every argument checked first, then a league table, a plot and JSON figures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from envs.rules import Rules
from evaluation.league import evaluate, jsonable, league_table, plot

PLOT_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg")


def check_eval_args(args) -> Rules:
    """Every argument of ``tw16 eval`` checked before any game is played (``UsageError`` naming the
    bad one); returns the rules."""
    from cli.usage import UsageError, check_agents, positive_int, rules_from_args

    positive_int(args.hands, "--hands")
    check_hands_memory(args.hands)
    positive_int(getattr(args, "batch_walls", 256), "--batch-walls")
    positive_int(getattr(args, "workers", 0), "--workers", minimum=0)
    rules = rules_from_args(args.profile, args.rules)
    check_eval_set(args)
    if args.plot:
        suffix = Path(args.plot).suffix.lower().lstrip(".")
        if suffix not in PLOT_FORMATS:
            raise UsageError(f"--plot {args.plot!r}: give a file name ending in .{', .'.join(PLOT_FORMATS)} ('' for no plot)")
        parent = Path(args.plot).parent
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"--plot {args.plot!r}: {str(parent)!r} is not a directory")
    if not (getattr(args, "workers", 0) or getattr(args, "ray", None)):  # Ray workers build their own
        check_agents(args.agents, seed=args.seed)
    else:
        from agents import unknown_agent

        for spec in args.agents:
            if why := unknown_agent(spec):
                raise UsageError(why)
    return rules


def check_hands_memory(hands: int) -> None:
    """``--hands``: what duplicate play keeps per wall, checked against the memory available."""
    from cli.usage import UsageError
    from envs.validate import check_memory
    from evaluation.arena import KEPT_BYTES_PER_WALL, walls_for

    n_walls = walls_for(hands)
    try:
        check_memory(n_walls * KEPT_BYTES_PER_WALL, f"--hands {hands} ({n_walls} walls)")
    except ValueError as e:
        raise UsageError(str(e)) from None


def hands_note(hands: int) -> str | None:
    """The line that says so when duplicate play deals another number of hands than ``--hands``."""
    from evaluation.arena import MIN_WALLS, walls_for

    played = 4 * walls_for(hands)
    if played == hands:
        return None
    return (f"--hands {hands}: playing {played} hands (each wall is dealt 4 times with the seats rotated, "
            f"at least {MIN_WALLS} walls)")  # fmt: skip


def check_eval_set(args) -> None:
    """``--eval-set``: a published version with enough walls for ``--hands``."""
    from cli.usage import UsageError
    from evaluation.eval_seeds import EVAL_SETS

    version = getattr(args, "eval_set", None)
    if version is None:
        return
    if version not in EVAL_SETS:
        raise UsageError(f"--eval-set {version!r}: unknown evaluation set (known: {', '.join(EVAL_SETS)})")
    if args.hands > 4 * EVAL_SETS[version]:
        raise UsageError(f"--hands {args.hands}: evaluation set {version} has {EVAL_SETS[version]} walls, "
                         f"{4 * EVAL_SETS[version]} hands at most")  # fmt: skip


def run_eval(args) -> int:
    rules = check_eval_args(args)
    if note := hands_note(args.hands):
        print(f"tw16 eval: {note}", file=sys.stderr)
    res = evaluate(args.agents, args.hands, rules, seed=args.seed, progress=not args.json,
                   workers=getattr(args, "workers", 0), ray=getattr(args, "ray", None),
                   batch_walls=getattr(args, "batch_walls", 256), eval_set=getattr(args, "eval_set", None),
                   vr=getattr(args, "vr", False))  # fmt: skip
    if args.plot:
        res["plot"] = str(plot(res, args.plot))
    if args.json:
        print(json.dumps(jsonable(res), indent=2, ensure_ascii=False))
    else:
        print(league_table(res))
        if args.plot:
            print(f"plot: {res['plot']}")
    return 0
