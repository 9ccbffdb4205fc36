"""``tw16 eval A B C D --hands N``: duplicate evaluation (``agents.evaluation.league``) from the command line:
every argument checked first, then a league table, a plot and JSON figures."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

from agents.evaluation.distributed import WorkersFailed
from agents.evaluation.league import evaluate, jsonable, league_table, plot
from envs.rules import Rules
from tw16.cli.streams import say, stdout_to_stderr

PLOT_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg")


def check_eval_args(args) -> Rules:
    """Every argument of ``tw16 eval`` checked before any game is played (``UsageError`` naming the
    bad one); returns the rules."""
    from tw16.cli.usage import UsageError, check_agents, check_device, positive_int, rules_from_args

    positive_int(args.hands, "--hands")
    check_hands_memory(args.hands)
    positive_int(getattr(args, "batch_walls", 256), "--batch-walls")
    check_device(getattr(args, "device", "cpu"))
    if getattr(args, "device", "cpu") != "cpu" and (getattr(args, "workers", 0) or getattr(args, "ray", None)):
        raise UsageError(f"--device {args.device}: the networks run in this process; Ray workers play on their CPUs")
    positive_int(getattr(args, "workers", 0), "--workers", minimum=0)
    rules = rules_from_args(args.profile, args.rules)
    check_eval_set(args)
    check_olympiad(args, rules)
    if args.plot:
        suffix = Path(args.plot).suffix.lower().lstrip(".")
        if suffix not in PLOT_FORMATS:
            raise UsageError(
                f"--plot {args.plot!r}: give a file name ending in .{', .'.join(PLOT_FORMATS)} ('' for no plot)"
            )
        parent = Path(args.plot).parent
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"--plot {args.plot!r}: {str(parent)!r} is not a directory")
    log_dir = getattr(args, "log_dir", None)
    if log_dir is not None:
        if getattr(args, "workers", 0) or getattr(args, "ray", None):
            raise UsageError("--log-dir records the hands in this process: it does not go with --workers or --ray")
        if Path(log_dir).exists() and not Path(log_dir).is_dir():
            raise UsageError(f"--log-dir {log_dir!r}: not a directory")
    if not (getattr(args, "workers", 0) or getattr(args, "ray", None)):  # Ray workers build their own
        check_agents(args.agents, seed=args.seed)
    else:
        from agents import unknown_agent

        for spec in args.agents:
            if why := unknown_agent(spec):
                raise UsageError(why)
    return rules


def check_olympiad(args, rules) -> None:
    """External bots (``olympiad:COMMAND``): rules the protocol can express, and ``--log-dir`` handed
    to each bot's spec for its transcripts (``log=DIR/agentN``, beside the replay logs of the hands)."""
    from tw16.cli.usage import UsageError

    bots = [i for i, s in enumerate(args.agents) if str(s).startswith("olympiad")]
    log_dir = getattr(args, "log_dir", None)
    if not bots:
        return
    from agents.olympiad.host import check_rules, with_option

    try:
        check_rules(rules)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if log_dir and (not Path(log_dir).exists() or Path(log_dir).is_dir()):  # (a file: refused below)
        for i in bots:
            args.agents[i] = with_option(args.agents[i], "log", str(Path(log_dir) / f"agent{i + 1}"))


def check_hands_memory(hands: int) -> None:
    """``--hands``: what duplicate play keeps per wall, checked against the memory available."""
    from agents.evaluation.arena import KEPT_BYTES_PER_WALL, walls_for
    from envs.validate import check_memory
    from tw16.cli.usage import UsageError

    n_walls = walls_for(hands)
    try:
        check_memory(n_walls * KEPT_BYTES_PER_WALL, f"--hands {hands} ({n_walls} walls)")
    except ValueError as e:
        raise UsageError(str(e)) from None


def hands_note(hands: int) -> str | None:
    """The line that says so when duplicate play deals another number of hands than ``--hands``."""
    from agents.evaluation.arena import MIN_WALLS, walls_for

    played = 4 * walls_for(hands)
    if played == hands:
        return None
    return (
        f"--hands {hands}: playing {played} hands (each wall is dealt 4 times with the seats rotated, "
        f"at least {MIN_WALLS} walls)"
    )


def check_eval_set(args) -> None:
    """``--eval-set``: a published version with enough walls for ``--hands``."""
    from agents.evaluation.eval_seeds import EVAL_SETS
    from tw16.cli.usage import UsageError

    version = getattr(args, "eval_set", None)
    if version is None:
        return
    if version not in EVAL_SETS:
        raise UsageError(f"--eval-set {version!r}: unknown evaluation set (known: {', '.join(EVAL_SETS)})")
    if args.hands > 4 * EVAL_SETS[version]:
        raise UsageError(
            f"--hands {args.hands}: evaluation set {version} has {EVAL_SETS[version]} walls, "
            f"{4 * EVAL_SETS[version]} hands at most"
        )


def run_human(args) -> int:
    """``--human FILE``: the person's duplicate hands beside the four agents in the person's seat."""
    from agents.evaluation.human import human_league, league_text, load_results
    from tw16.cli.usage import UsageError, check_agents

    try:
        rows = load_results(args.human)
    except (OSError, ValueError) as e:
        raise UsageError(f"--human {args.human!r}: {getattr(e, 'strerror', None) or e}") from None
    check_agents(args.agents, seed=args.seed)
    table = human_league(rows, args.agents, seed=args.seed)
    print(json.dumps(table, indent=2) if args.json else league_text(table))
    return 0


def run_eval(args) -> int:
    if getattr(args, "human", None):
        return run_human(args)
    rules = check_eval_args(args)
    if note := hands_note(args.hands):
        print(f"tw16 eval: {note}", file=sys.stderr)
    on_ray = bool(getattr(args, "workers", 0) or getattr(args, "ray", None))
    # Ray prints its own lines to stdout: kept on stderr, so stdout holds the table or the JSON alone
    with stdout_to_stderr() if on_ray else contextlib.nullcontext():
        try:
            res = evaluate(
                args.agents,
                args.hands,
                rules,
                seed=args.seed,
                progress=not args.json,
                workers=getattr(args, "workers", 0),
                ray=getattr(args, "ray", None),
                batch_walls=getattr(args, "batch_walls", 256),
                eval_set=getattr(args, "eval_set", None),
                vr=getattr(args, "vr", False),
                log_dir=getattr(args, "log_dir", None),
                device=getattr(args, "device", "cpu"),
            )
        except WorkersFailed as e:
            say(f"tw16 eval: {e}")
            return 1
    if args.plot:
        res["plot"] = str(plot(res, args.plot))
    if args.json:
        print(json.dumps(jsonable(res), indent=2, ensure_ascii=False))
    else:
        print(league_table(res))
        if args.plot:
            print(f"plot: {res['plot']}")
        if getattr(args, "log_dir", None):
            print(
                f"hands: {res['hands']} logs in {args.log_dir} (tw16 replay {Path(args.log_dir) / 'w00000-r0.jsonl'})"
            )
    return 0
