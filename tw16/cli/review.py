"""``tw16 review LOG [--agent A] [--seat S] [--json] [--html OUT]``: annotate one seat's decisions in a
replay log with an agent's view (``agents.evaluation.review``): text by default, JSON with ``--json``, and
with ``--html`` a page that is the web app's replay viewer with the annotations beside each decision
(one file: the log, the viewer and the tile faces inlined; about the log's size plus 60 KB)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tw16.cli.replay import ReplayError, frames, load_log

STATIC = Path(__file__).parent / "web" / "static"


def _fmt(x, spec="+.1f") -> str:
    return "—" if x is None else format(x, spec)


def text_report(rv: dict) -> str:
    out = [
        f"review of p{rv['seat']} by {rv['agent']} (EVs: {rv['ev']}, {rv['k']} rollouts per action; chips over the rest of the hand)"
    ]
    for d in rv["decisions"]:
        mark = " BAD" if d["bad"] else ""
        out.append(
            f"hand {d['hand'] + 1} line {d['line']}: played {d['taken']} (p {_fmt(d['p_taken'] and 100 * d['p_taken'], '.1f')}%) "
            f"EV loss {d['loss']:.1f}{mark}; agent: "
            + ", ".join(
                f"{a['name']} {_fmt(a['p'] and 100 * a['p'], '.0f')}% EV {a['ev']:+.1f} [{a['ci95'][0]:+.1f}, {a['ci95'][1]:+.1f}]"
                for a in d["top"]
            )
        )
    for h in rv["hands"]:
        out.append(
            f"hand {h['hand'] + 1}: {h['decisions']} decisions, match {_fmt(h['match_rate'], '.0%')}, bad "
            f"{_fmt(h['bad_move_rate'], '.0%')}, chips lost {h['chips_lost']:.1f}, result {h['chips']:+d}, "
            f"luck-adjusted {_fmt(h['luck_adjusted'])}"
        )
    o = rv["overall"]
    out.append(
        f"overall: {o['hands']} hands, {o['decisions']} decisions, match rate {_fmt(o['match_rate'], '.1%')}, "
        f"bad-move rate {_fmt(o['bad_move_rate'], '.1%')}, chips lost per hand {_fmt(o['chips_lost_per_hand'], '.2f')}, "
        f"result per hand {_fmt(o['chips_per_hand'], '+.2f')}, luck-adjusted per hand {_fmt(o['luck_adjusted_per_hand'], '+.2f')}"
    )
    return "\n".join(out)


def _script_json(obj) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(obj, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")


def html_page(log_text: str, rv: dict) -> str:
    """The replay viewer (static/replay.js) with the log and the review inlined."""
    from envs.scoring.codes import ITEM_ZH
    from tw16.cli.web.view import tile_table

    o = rv["overall"]
    summary = (
        f"{o['decisions']} decisions, match {_fmt(o['match_rate'], '.1%')}, bad {_fmt(o['bad_move_rate'], '.1%')}, "
        f"chips lost per hand {_fmt(o['chips_lost_per_hand'], '.2f')}, luck-adjusted per hand {_fmt(o['luck_adjusted_per_hand'], '+.2f')}"
    )
    review = {"seat": rv["seat"], "summary": summary, "decisions": {str(d["event"]): d for d in rv["decisions"]}}
    page = (STATIC / "replay.html").read_text(encoding="utf-8")
    head, _, _ = page.partition("<script src=")
    head = head.replace(
        '<link rel="stylesheet" href="/static/style.css">',
        f"<style>{(STATIC / 'style.css').read_text(encoding='utf-8')}</style>",
    )
    head = head.replace('<select id="logs"><option value="">— a log from the log folder —</option></select>\n', "")
    head = head.replace('<input type="file" id="file" accept=".jsonl,.json,.txt">\n', "").replace(
        '<a href="/">play</a>', ""
    )
    head = head.replace("<b>tw16 replay</b>", f"<b>tw16 review — p{rv['seat']} by {rv['agent']}</b>")
    head = head.replace('value="all">', 'value="all" selected>')
    scripts = "".join(f"<script>{(STATIC / n).read_text(encoding='utf-8')}</script>" for n in ("tiles.js", "replay.js"))
    boot = (
        f"<script>META = {_script_json({'tiles': tile_table(), 'items': ITEM_ZH})};"
        f"openReplay({_script_json(log_text)}, {_script_json(review)});</script>"
    )
    sprite = f'<div id="tile-sprite">{(STATIC / "tiles.svg").read_text(encoding="utf-8")}</div>'
    return head + sprite + scripts + boot + "</body></html>\n"


def run_review(args) -> int:
    from agents import make_agent
    from agents.evaluation.review import review_log
    from tw16.cli.usage import UsageError, positive_int

    positive_int(args.k, "--k")
    positive_int(args.top, "--top")
    try:
        lines = load_log(args.log)
        list(frames(lines))[-1:]  # the log reproduces (ReplayError naming the first line that differs)
    except ReplayError as e:
        print(f"tw16 review: {e}", file=sys.stderr)
        return 2
    try:
        agent = make_agent(args.agent, seed=args.seed)
    except (ValueError, OSError) as e:
        raise UsageError(f"--agent {args.agent!r}: {e}") from None
    rv = review_log(lines, agent, args.seat, k=args.k, top=args.top, mode=args.ev, seed=args.seed)
    if args.html:
        text = Path(args.log).read_text(encoding="utf-8")
        try:
            Path(args.html).write_text(html_page(text, rv), encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write --html {args.html!r}: {e.strerror or e}") from None
    if args.json:
        print(json.dumps(rv, ensure_ascii=False, indent=1, default=_jsonable))
    else:
        print(text_report(rv))
        if args.html:
            print(f"wrote {args.html}")
    return 0


def _jsonable(x):
    import numpy as np

    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON")
