"""``tw16 web``: play one seat against three agents in a browser, see the agent's view, replay logs.

Layout: ``app`` (Starlette routes, the websocket, uvicorn), ``session`` (one game driven by the
page's messages, over ``tw16.cli.game.TableGame``), ``view`` (the table as JSON), ``advice`` (the agent's
top actions, value and search EVs), ``static/`` (the pages; ``static/tiles.svg``, the tile
faces, is drawn by tools/tiles_svg.py). docs/web.md.
"""

from __future__ import annotations


def run_web(args) -> int:
    """``tw16 web``: check the arguments, then serve until Ctrl-C."""
    from pathlib import Path

    import numpy as np

    from tw16.cli.game import make_opponents
    from tw16.cli.usage import UsageError, rules_from_args
    from tw16.cli.web.app import make_app, serve
    from tw16.cli.web.session import GameSession

    rules = rules_from_args(args.profile, args.rules)
    specs = [x.strip() for x in (args.opponents or args.agent).split(",") if x.strip()]
    if len(specs) not in (1, 3):
        raise UsageError("--opponents takes one agent or three, comma-separated")
    if any(s.startswith("olympiad") for s in specs + [args.agent]):
        raise UsageError(
            "external bots (olympiad:COMMAND) play in tw16 eval and tw16 play, not in tw16 web: the "
            "referee may need your answer to a claim before the page would ask it (docs/olympiad.md)"
        )
    try:  # every agent built once (neural falls back to greedy while no checkpoint is shipped, as in tw16 play)
        make_opponents(sorted(set(specs) | {args.agent}), 0)
    except (ValueError, OSError) as e:
        raise UsageError(str(e) if "known:" in str(e) else f"agent: {e}") from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1..65535, got {args.port}")
    walls = None
    results = None
    if args.duplicate:
        from agents.evaluation.eval_seeds import EVAL_SETS, load

        if args.duplicate not in EVAL_SETS:
            raise UsageError(f"--duplicate {args.duplicate!r}: unknown evaluation set (known: {', '.join(EVAL_SETS)})")
        walls = (args.duplicate, load(args.duplicate))
        results = args.results or str(Path(args.log_dir) / f"duplicate-{args.duplicate}.jsonl")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % (1 << 31))
    counter = iter(range(1 << 30))

    def factory():
        n = next(counter)
        agents, notes = make_opponents(specs * 3 if len(specs) == 1 else specs, seed + n)
        advisor, _ = make_opponents([args.agent], seed + n)
        return GameSession(
            rules,
            agents,
            advisor[0],
            seat=args.seat,
            seed=seed + 104729 * n,
            log_dir=args.log_dir,
            walls=walls,
            results=results,
            specs=specs,
        )

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"tw16 web: listening on {args.host}: anyone who can reach it can play here and read the logs in {args.log_dir}"
        )
    print(
        f"tw16 web: http://{args.host}:{args.port}/  (agent {args.agent}; logs in {args.log_dir}"
        + (f"; duplicate set {args.duplicate}, results in {results}" if walls else "")
        + ")"
    )
    serve(make_app(factory, args.log_dir), host=args.host, port=args.port)
    return 0
