"""``tw16 bot --agent SPEC``: a tw16 agent as a Computer Olympiad protocol bot (``agents.olympiad.bot``)."""

from __future__ import annotations

import json


def bot_rules(profile: str | None, rules_json: str | None):
    """The rules a bot plays: the events' (``agents.olympiad.BOT_PROFILE`` / ``BOT_RULES``) unless given,
    refused when the protocol cannot express them (``UsageError``)."""
    from agents.olympiad import BOT_PROFILE, BOT_RULES
    from agents.olympiad.host import check_rules
    from tw16.cli.usage import UsageError, rules_from_args

    if profile is None and rules_json is None:
        profile, rules_json = BOT_PROFILE, json.dumps(BOT_RULES)
    rules = rules_from_args(profile or BOT_PROFILE, rules_json)
    try:
        check_rules(rules)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return rules


def run_bot_cmd(args) -> int:
    from agents.olympiad.bot import run_bot
    from tw16.cli.usage import UsageError, check_agents

    rules = bot_rules(args.profile, args.rules)
    if args.budget <= 0:
        raise UsageError(f"--budget {args.budget}: give seconds > 0")
    if args.connect is not None:
        host, sep, port = args.connect.rpartition(":")
        if not sep or not port.isdigit() or not 0 < int(port) < 65536:
            raise UsageError(f"--connect {args.connect!r}: expected HOST:PORT")
    from agents import make_agent

    check_agents([args.agent], seed=args.seed)
    if args.connect is None:
        from tw16.cli.streams import stdin_or_error

        stdin_or_error("bot", "the referee's messages come on standard input (or give --connect HOST:PORT)")
    try:
        return run_bot(make_agent(args.agent, seed=args.seed), rules, connect=args.connect, budget=args.budget)
    except ValueError as e:
        raise UsageError(str(e)) from None
