"""The ``tw16`` command: one entry point, one subcommand per job.

tw16 score CASES.jsonl [--check] [--profile NAME|PATH] [--format json|table]
tw16 bench scoring|engine|env [--seconds S]
tw16 bench train [--device cpu|cuda|cuda:N|auto] [--seconds S] [--net main|default|large]
                                              (the PPO trainer end to end: decisions/s and the time split)
tw16 bench soak --hands N [--seed S]             (random and greedy play, invariant checker on,
                                               every profile and option combination)
tw16 eval A B C D --hands N [--json] [--plot PNG] [--log-dir DIR] [--workers N | --ray ADDRESS]
                 [--batch-walls W] [--eval-set v1] [--vr [aivat|aivatN]] [--device D]   (published walls; variance-reduced
                                               figures; D: where the networks run)
tw16 replay LOG [--html PAGE] [--view SEAT]
tw16 replay --seed S --agents A,B,C,D [--out LOG] [--profile NAME] [--rules JSON]   (record one hand)
tw16 play [--seat 0] [--opponents neural] [--hands 1] [--seed S] [--profile NAME] [--rules JSON] [--open]
          [--log FILE]
tw16 web [--host 127.0.0.1] [--port 8000] [--agent A] [--log-dir D] [--duplicate v1]
tw16 review LOG [--agent A] [--seat S] [--json] [--html OUT]
tw16 profiles [diff A B] [--json]             (the built-in tai profiles; where two differ)
tw16 bot --agent SPEC [--connect HOST:PORT] [--budget S] [--profile NAME] [--rules JSON]
                                              (a tw16 agent as a Computer Olympiad protocol bot)
tw16 train [--ppo.total-decisions N ...]      (a dataclass config, see training/pipeline.py;
                                               --ppo.workers N / --ppo.ray ADDRESS: Ray rollout workers)
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial


def _cmd_score(args) -> int:
    from tw16.cli.score import run_score

    if args.profile is not None:  # one bad override is one error, not one per line
        from envs.scoring.profile import load_profile

        load_profile(args.profile)
    return run_score(args.file, check=args.check, profile=args.profile, fmt=args.format)


def _cmd_bench(args) -> int:
    from tw16.bench.run import run_bench, run_soak
    from tw16.cli.usage import UsageError, positive_int, positive_seconds

    if args.what == "soak":
        if args.hands is None:
            raise UsageError("soak needs --hands N (e.g. tw16 bench soak --hands 100000)")
        positive_int(args.hands, "--hands")
        result = run_soak(args.hands, seed=args.seed)
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 1 if result["violations"] else 0
    if args.hands is not None or args.seed is not None:
        raise UsageError(f"--hands and --seed are options of `tw16 bench soak`, not of `tw16 bench {args.what}`")
    positive_seconds(args.seconds)
    train = {}
    if args.what == "train":
        from tw16.cli.usage import check_device

        check_device(args.device or "cpu")
        train = {"device": args.device or "cpu", "net": args.net or "main"}
    elif args.device is not None or args.net is not None:
        raise UsageError(f"--device and --net are options of `tw16 bench train`, not of `tw16 bench {args.what}`")
    print(json.dumps(run_bench(args.what, seconds=args.seconds, **train), indent=2, ensure_ascii=False))
    return 0


def _cmd_eval(args) -> int:
    from tw16.cli.eval import run_eval

    return run_eval(args)


def _cmd_replay(args) -> int:
    from tw16.cli.replay import run_replay

    return run_replay(args)


def _cmd_play(args) -> int:
    from tw16.cli.play import run_play

    return run_play(args)


def _cmd_web(args) -> int:
    from tw16.cli.web import run_web

    return run_web(args)


def _cmd_review(args) -> int:
    from tw16.cli.review import run_review

    return run_review(args)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"tw16 {version('tw16')}"
    except PackageNotFoundError:  # run from a checkout that is not installed
        return "tw16 (not installed: pip install -e .)"


def _cmd_bot(args) -> int:
    from tw16.cli.bot import run_bot_cmd

    return run_bot_cmd(args)


def build_parser() -> argparse.ArgumentParser:
    from agents import agent_help, agent_usage
    from agents.evaluation.aivat import VR_CHOICES

    p = argparse.ArgumentParser(
        prog="tw16", description="Taiwanese 16-tile mahjong (台灣十六張麻將) research environment"
    )
    p.add_argument("--version", action="version", version=_version())
    agents_epilog = "agents (AGENT):\n" + agent_help()
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("score", help="score cases in the CASES.md JSON-lines format")
    s.add_argument("file", help="a .jsonl file of cases, or - for standard input")
    s.add_argument("--check", action="store_true", help="compare with each case's `expected`; exit 1 on any mismatch")
    s.add_argument("--profile", default=None, help="override every case's profile (a built-in name or a .toml path)")
    s.add_argument(
        "--format", choices=("json", "table"), default="json", help="one JSON line per case, or a readable table"
    )
    s.set_defaults(func=_cmd_score)

    b = sub.add_parser("bench", help="print benchmark figures as JSON")
    b.add_argument(
        "what",
        choices=("scoring", "engine", "env", "soak", "train"),
        help="which part to measure; soak: random and greedy play with the invariant checker; train: "
        "the PPO trainer end to end (the main job's config), decisions/s and the time split",
    )
    b.add_argument(
        "--device", default=None, help="train: where the networks run (cpu | cuda | cuda:N | auto; default cpu)"
    )
    b.add_argument(
        "--net",
        default=None,
        choices=("main", "default", "large"),
        help="train: the main job's network (default), the shipped checkpoint's, or a ~6 M-parameter one",
    )
    b.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    b.add_argument("--hands", type=int, default=None, help="soak: hands to play, spread over every combination")
    b.add_argument("--seed", type=int, default=None, help="soak: seed of the deals and the players (default 0)")
    b.set_defaults(func=_cmd_bench)
    e = sub.add_parser(
        "eval",
        help="duplicate evaluation of four agents: league table, plot, JSON",
        epilog=agents_epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("agents", nargs=4, metavar="AGENT", help=agent_usage() + " (listed below)")
    e.add_argument("--hands", type=int, default=2000, help="hands to play (rounded up to whole walls x 4 seatings)")
    e.add_argument("--profile", default="standard", help="tai profile (name or .toml path)")
    e.add_argument("--rules", default=None, help="rule options as JSON, e.g. '{\"multi_win\": true}'")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument(
        "--plot",
        default=None,
        metavar="PATH",
        help="write the plot to PATH (.png, .pdf, .svg, .jpg; "
        "with --vr it shows the corrected figures); default: no plot",
    )
    e.add_argument(
        "--log-dir",
        default=None,
        metavar="DIR",
        help="record every hand played as DIR/wWALL-rROTATION.jsonl (tw16 replay reads them)",
    )
    e.add_argument("--json", action="store_true", help="print the figures as JSON")
    e.add_argument(
        "--device",
        default="cpu",
        help="where the neural agents' networks run: cpu | cuda | cuda:N | auto (the engine stays on the CPU)",
    )
    e.add_argument("--workers", type=int, default=0, help="play batches of walls on this many Ray workers (needs ray)")
    e.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="a Ray cluster to play on ('auto', 'ray://host:10001')"
    )
    e.add_argument(
        "--batch-walls",
        type=int,
        default=256,
        help="walls per engine batch, the unit of work of a worker (results depend on it, not on --workers)",
    )
    e.add_argument(
        "--eval-set",
        default=None,
        metavar="VERSION",
        help="deal the published walls of this evaluation set (agents/evaluation/eval_seeds_VERSION.json; v1: "
        "5,000 walls) instead of walls derived from --seed (which still seeds the agents)",
    )
    e.add_argument(
        "--vr",
        nargs="?",
        const="luck",
        default=False,
        choices=VR_CHOICES,
        help="also report chips per hand corrected by the luck of the draws (unbiased control variates, "
        "docs/evaluation.md) with their narrower 95%% CI; --vr aivat adds the AIVAT term of a "
        "trained value function (aivat: the default, agents/evaluation/aivat.DEFAULT; aivatN: version N)",
    )
    e.add_argument(
        "--human",
        default=None,
        metavar="RESULTS",
        help="list a person's duplicate hands (tw16 web --duplicate: LOG_DIR/duplicate-v1.jsonl) beside "
        "the four agents, each replayed in the person's seat on the same walls (paired differences)",
    )
    e.set_defaults(func=_cmd_eval)

    r = sub.add_parser(
        "replay",
        help="step through a recorded hand or game (JSON-lines log), or write an HTML page; "
        "--seed S --agents A,B,C,D records one",
        epilog=agents_epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument(
        "log",
        nargs="?",
        default=None,
        help="a log written by tw16 play --log, tw16 eval --log-dir or tw16 replay --seed ... --out",
    )
    r.add_argument("--seed", type=int, default=None, help="record the hand dealt from this seed (with --agents)")
    r.add_argument(
        "--agents",
        default=None,
        metavar="A,B,C,D",
        help="with --seed: the four agents of seats E, S, W, N, comma-separated (see below)",
    )
    r.add_argument("--out", default=None, metavar="LOG", help="with --seed: write the log here (then replay it)")
    r.add_argument("--profile", default="standard", help="with --seed: tai profile (name or .toml path)")
    r.add_argument("--rules", default=None, help="with --seed: rule options as JSON")
    r.add_argument("--html", default=None, help="write a static HTML replay page (SVG tables) to this path")
    r.add_argument("--view", type=int, default=None, choices=range(4), help="show only what this seat sees")
    r.set_defaults(func=_cmd_replay)

    pl = sub.add_parser(
        "play",
        help="play one seat in the terminal against three agents",
        epilog=agents_epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pl.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat (0 = dealer of the first hand)")
    pl.add_argument(
        "--opponents",
        default="neural",
        help="one agent for all three seats or three, comma-separated (the kinds are listed below; neural "
        "falls back to greedy when the shipped checkpoint is missing)",
    )
    pl.add_argument("--hands", type=int, default=1, help="hands to play (one game: the deal moves between hands)")
    pl.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    pl.add_argument("--profile", default="standard", help="tai profile (name or .toml path)")
    pl.add_argument("--rules", default=None, help="rule options as JSON, e.g. '{\"multi_win\": true}'")
    pl.add_argument("--open", action="store_true", help="show every hand face up (to learn, or to debug an agent)")
    pl.add_argument(
        "--log",
        default=None,
        metavar="FILE",
        help="record the game to FILE (JSON lines, tw16 replay FILE; a second game goes to FILE-2.jsonl)",
    )
    pl.set_defaults(func=_cmd_play)

    w = sub.add_parser("web", help="play one seat against three agents in a browser, with the agent's view and replays")
    w.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback: only this machine)")
    w.add_argument("--port", type=int, default=8000)
    w.add_argument(
        "--agent", default="neural", help="the agent at the other seats and whose view is shown (any tw16 eval agent)"
    )
    w.add_argument(
        "--opponents", default=None, help="three agents for the other seats, comma-separated (default: --agent)"
    )
    w.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat in the first hand")
    w.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    w.add_argument("--log-dir", default="runs/web", help="every hand played is saved here as a replay log")
    w.add_argument(
        "--duplicate",
        default=None,
        metavar="VERSION",
        help="deal the published walls of this evaluation set in order (v1), one hand each, your seat "
        "moving round; results added to --results",
    )
    w.add_argument("--results", default=None, help="duplicate results file (default LOG_DIR/duplicate-VERSION.jsonl)")
    w.add_argument("--profile", default="standard", help="tai profile (name or .toml path)")
    w.add_argument("--rules", default=None, help="rule options as JSON")
    w.set_defaults(func=_cmd_web)

    rv = sub.add_parser("review", help="annotate a seat's decisions in a replay log: the agent's choices, EVs, losses")
    rv.add_argument("log", help="a replay log (tw16 web --log-dir, envs.engine.replay)")
    rv.add_argument("--agent", default="neural", help="the agent whose view annotates the decisions")
    rv.add_argument("--seat", type=int, default=0, choices=range(4), help="the seat to review")
    rv.add_argument("--k", type=int, default=16, help="rollouts per action for the search EVs")
    rv.add_argument("--top", type=int, default=3, help="the agent's top actions evaluated per decision")
    rv.add_argument(
        "--ev",
        choices=("sampled", "oracle"),
        default="sampled",
        help="sampled: the hidden tiles dealt again as the seat could imagine them; oracle: the log's true tiles",
    )
    rv.add_argument("--seed", type=int, default=0, help="seed of the rollouts")
    rv.add_argument("--json", action="store_true", help="print the review as JSON")
    rv.add_argument("--html", default=None, help="write a page: the replay viewer with the annotations")
    rv.set_defaults(func=_cmd_review)

    from tw16.cli import profiles

    profiles.add_parser(sub)

    bo = sub.add_parser("bot", help="a tw16 agent as a Computer Olympiad / TCGA protocol bot (stdin/stdout or TCP)")
    bo.add_argument(
        "--agent", default="greedy", help="the agent that decides (greedy | defensive | neural[:PATH] | ...)"
    )
    bo.add_argument("--connect", default=None, metavar="HOST:PORT", help="play as a TCP client of a referee")
    bo.add_argument("--budget", type=float, default=5.0, help="seconds per request (a slower decision is reported)")
    bo.add_argument("--profile", default=None, help="the rules' profile (default: the events' rules, docs/olympiad.md)")
    bo.add_argument("--rules", default=None, help="rule options as JSON")
    bo.add_argument("--seed", type=int, default=0)
    bo.set_defaults(func=_cmd_bot)

    # listed for `tw16 --help` only: main() hands `tw16 train ...` to tyro before argparse sees it
    sub.add_parser("train", help="behaviour cloning then PPO self-play (options: tw16 train --help)", add_help=False)
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["train"]:  # tyro parses the rest: argparse cannot pass on a leading --option
        from tw16.cli.train import run_train

        name, command = "train", partial(run_train, argv[1:])
    else:
        args = build_parser().parse_args(argv)
        name, command = args.command, partial(args.func, args)
    from tw16.cli.streams import run_command
    from tw16.cli.usage import user_errors

    # user mistakes, closed / full / broken streams: one line on stderr and an exit code (tw16/cli/streams.py)
    return run_command(name, command, user_errors)


if __name__ == "__main__":
    sys.exit(main())
