"""``tw16 replay LOG``: step through a recorded hand or game (the JSON-lines log of
``envs.engine.replay``), as text frames, or as a static HTML page of SVG tables (``--html``).

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
from envs.engine.replay import LogError, check_log, parse_log, replay
from envs.obs.readable import readable, render_table
from envs.obs.svg import table_svg
from envs.rules import Rules


class ReplayError(ValueError):
    """A log that cannot be read or does not reproduce."""


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


def run_replay(args) -> int:
    try:
        lines = load_log(args.log)
        if args.html:
            page = html_page(lines, args.view)
            try:
                Path(args.html).write_text(page, encoding="utf-8")
            except OSError as e:  # only the page's own write: a failing stdout is cli.streams' to answer
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
