"""The ``tw16`` command: one entry point, one subcommand per job.

    tw16 score CASES.jsonl [--check] [--profile NAME|PATH] [--format json|table]
    tw16 bench scoring|engine|env [--seconds S]
"""

from __future__ import annotations

import argparse
import json
import sys


def _cmd_score(args) -> int:
    from training.score_cli import run_score

    return run_score(args.file, check=args.check, profile=args.profile, fmt=args.format)


def _cmd_bench(args) -> int:
    from training.bench import run_bench

    print(json.dumps(run_bench(args.what, seconds=args.seconds), indent=2, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tw16", description="Taiwanese 16-tile mahjong (台灣十六張麻將) research environment")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("score", help="score cases in the CASES.md JSON-lines format")
    s.add_argument("file", help="a .jsonl file of cases, or - for standard input")
    s.add_argument("--check", action="store_true", help="compare with each case's `expected`; exit 1 on any mismatch")
    s.add_argument("--profile", default=None, help="override every case's profile (a built-in name or a .toml path)")
    s.add_argument("--format", choices=("json", "table"), default="json", help="one JSON line per case, or a readable table")
    s.set_defaults(func=_cmd_score)

    b = sub.add_parser("bench", help="print benchmark figures as JSON")
    b.add_argument("what", choices=("scoring", "engine", "env"), help="which part to measure")
    b.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    b.set_defaults(func=_cmd_bench)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `tw16 score ... | head`
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
