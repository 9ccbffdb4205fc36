"""``tw16 profiles``: the built-in tai profiles, one line each; ``tw16 profiles diff A B``: the items and
rule options where two profiles differ (tai, replaces, reduced; the rule options they set), as an
aligned table or JSON. A and B are built-in names or .toml paths. The comparison is
envs/scoring/compare.py's (docs/profiles.md's side-by-side tables come from it too)."""

from __future__ import annotations

import json


def add_parser(sub) -> None:
    """Register the subcommand on the ``tw16`` parser (tw16/cli/main.py)."""
    p = sub.add_parser("profiles", help="list the built-in tai profiles, or compare two (diff A B)")
    p.add_argument(
        "action",
        nargs="?",
        choices=("list", "diff"),
        default="list",
        help="list (default): one line per profile; diff: where A and B differ",
    )
    p.add_argument("names", nargs="*", metavar="PROFILE", help="diff: the two profiles (name or .toml path)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run_profiles)


def run_profiles(args) -> int:
    from envs.scoring import compare
    from tw16.cli.usage import UsageError

    if args.action == "list":
        if args.names:
            raise UsageError("`tw16 profiles` takes no profile names (compare two with `tw16 profiles diff A B`)")
        if args.json:
            print(json.dumps([_entry(n) for n in compare.BUILTIN], ensure_ascii=False, indent=2))
        else:
            print("\n".join(compare.list_lines()))
        return 0
    if len(args.names) != 2:
        raise UsageError(f"diff needs two profiles (tw16 profiles diff A B), got {len(args.names)}")
    d = compare.diff_profiles(*args.names)
    print(json.dumps(d, ensure_ascii=False, indent=2) if args.json else compare.diff_table(d))
    return 0


def _entry(name: str) -> dict:
    from envs.scoring.compare import rule_values
    from envs.scoring.profile import load_profile

    p = load_profile(name)
    return {"name": name, "title": p.title, "items": len(p.items), "rules": rule_values(name)}
