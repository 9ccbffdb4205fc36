"""``tw16 replay LOG``: step through a recorded hand or game (the JSON-lines log of
``envs.engine.replay``, written by ``tw16 play --log``, ``tw16 eval --log-dir`` and ``tw16 replay --seed``),
as text frames, or as a static HTML page of SVG tables (``--html``).

``tw16 replay --seed S --agents A,B,C,D [--out LOG]`` records the hand dealt from seed S with those
agents at seats E, S, W, N (``agents.evaluation.recording.record_hand``), writes its log and shows it.

The log is re-run on its rules and seed and checked line by line, so a replay is exact or refused
with the first line that differs.
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path

import numpy as np

from envs.engine.actions import action_from_name
from envs.engine.api import Engine
from envs.engine.replay import LogError, check_log, parse_log, record, replay
from envs.obs.readable import readable, render_table
from envs.obs.svg import table_svg
from envs.rules import Rules
from tw16.cli.usage import ReplayError, UsageError  # ReplayError lived here: importers of tw16.cli.replay still find it


def load_log(path: str) -> list[dict]:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ReplayError(f"cannot read {path!r}: {e.strerror or e}") from None
    try:
        lines = parse_log(data)
        if not lines:
            raise LogError("the log is empty")
        check_log(lines)
    except LogError as e:
        raise ReplayError(f"{path}: {e}") from None
    return lines


def frames(lines: list[dict], view: int | None = None):
    """(caption, readable view) before the first action and after each one."""
    try:
        replay(lines)
    except LogError as e:
        raise ReplayError(str(e)) from None
    except (AssertionError, ValueError, KeyError) as e:  # a changed line, an illegal action, a bad name or rules
        raise ReplayError(f"the log does not reproduce: {e}") from None
    head = lines[0]
    eng = Engine(Rules.from_dict(head["rules"]), 1)
    eng.reset(np.array([head["seed"]], np.uint64))
    yield "deal", readable(eng, 0, view)
    for ev in lines[1:]:
        eng.step(np.array([action_from_name(ev["action"])]))
        caption = f"#{ev['i'] + 1}  p{ev['seat']}: {ev['action']}"
        if ev.get("result"):
            caption += f"  -> {json.dumps(ev['result'], ensure_ascii=False)}"
        yield caption, readable(eng, 0, view)


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>tw16 replay</title>
<style>body{{font-family:sans-serif;background:#222;color:#eee;text-align:center}}
.f{{display:none}} .f.on{{display:block}} button{{font-size:16px;margin:6px}}</style></head><body>
<h3>{title}</h3><div><button onclick="go(-1)">&larr; prev</button><span id="n"></span>
<button onclick="go(1)">next &rarr;</button></div>{body}
<script>let i=0;const f=document.querySelectorAll('.f');
function go(d){{f[i].classList.remove('on');i=Math.max(0,Math.min(f.length-1,i+d));f[i].classList.add('on');
document.getElementById('n').textContent=(i+1)+' / '+f.length;}}
document.addEventListener('keydown',e=>{{if(e.key=='ArrowRight')go(1);if(e.key=='ArrowLeft')go(-1);}});go(0);</script>
</body></html>"""


def html_page(lines: list[dict], view: int | None = None) -> str:
    body = []
    for i, (caption, d) in enumerate(frames(lines, view)):
        body.append(f'<div class="f{" on" if i == 0 else ""}"><p>{escape(caption)}</p>{table_svg(d, view or 0)}</div>')
    head = lines[0]
    title = f"tw16 replay — profile {head['rules'].get('profile')}, seed {head['seed']}"
    return _PAGE.format(title=escape(title), body="".join(body))


def record_hand(agents, rules: Rules, seed: int, agent_seed: int | None = None) -> list[dict]:
    """The log of one hand dealt from ``seed`` (dealt again as duplicate play does when it ends in its
    deal) with ``agents[i]`` at seat i (E, S, W, N); the agents are reset to ``agent_seed`` (default
    ``seed``)."""
    from agents.evaluation.arena import deal_played, run_games
    from agents.evaluation.recording import ActionLog

    if len(agents) != 4:
        raise ValueError(f"a hand needs 4 agents (seats E, S, W, N), got {len(agents)}")
    rules = rules.replace(episode="hand")
    for a in agents:
        a.reset(seed if agent_seed is None else agent_seed)
    eng = Engine(rules, 1, record_hands=True)
    dealt = np.array([seed], np.uint64)
    deal_played(eng, dealt)
    rec = ActionLog()
    run_games(eng, agents, np.arange(4)[None, :], on_decision=rec.on_decision)
    return record(rules, int(dealt[0]), rec.actions.get(0, []))


def recorded_hand(args) -> list[dict]:
    """``--seed S --agents A,B,C,D``: the log of that hand (written to ``--out``)."""
    from agents import make_agent
    from envs.engine.replay import dumps
    from tw16.cli.usage import check_agents, rules_from_args

    if args.log is not None:
        raise UsageError("give a LOG to replay or --seed S --agents A,B,C,D to record one, not both")
    if not 0 <= args.seed < 1 << 63:
        raise UsageError(f"--seed must be in 0..2**63-1, got {args.seed}")
    specs = [x.strip() for x in (args.agents or "").split(",")]
    if len(specs) != 4 or not all(specs):
        raise UsageError(
            "--seed needs --agents A,B,C,D: four agents for seats E, S, W, N, e.g. greedy,greedy,random,neural"
        )
    rules = rules_from_args(args.profile, args.rules)
    check_agents(specs, seed=args.seed)
    lines = record_hand([make_agent(s, seed=args.seed) for s in specs], rules, args.seed)
    if args.out:
        try:
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(dumps(lines), encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.out!r}: {e.strerror or e}") from None
        print(
            f"wrote {args.out} (seed {lines[0]['seed']}, agents E {specs[0]}, S {specs[1]}, W {specs[2]}, N {specs[3]})"
        )
    return lines


def run_replay(args) -> int:
    if getattr(args, "seed", None) is not None:
        lines = recorded_hand(args)
        if args.out and not args.html:
            return 0
    elif args.log is None:
        raise UsageError("give a LOG to replay, or --seed S --agents A,B,C,D to record one")
    elif getattr(args, "agents", None) or getattr(args, "out", None):
        raise UsageError("--agents and --out record a hand: give --seed S with them (and no LOG)")
    try:
        if getattr(args, "seed", None) is None:
            lines = load_log(args.log)
        if args.html:
            page = html_page(lines, args.view)
            try:
                Path(args.html).write_text(page, encoding="utf-8")
            except OSError as e:  # only the page's own write: a failing stdout is tw16.cli.streams' to answer
                print(f"tw16 replay: cannot write {args.html!r}: {e.strerror or e}", file=sys.stderr)
                return 2
            print(f"wrote {args.html} ({len(lines)} lines; open it in a browser, arrows step)")
            return 0
        for caption, d in frames(lines, args.view):
            print(caption)
            print(render_table(d))
            print()
    except ReplayError as e:
        print(f"tw16 replay: {e}", file=sys.stderr)
        return 2
    return 0
