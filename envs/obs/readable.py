"""A readable view of one game for humans and debugging: ``readable(engine, b, view=None)`` -> dict,
``render_table(d)`` -> text. ``view=seat`` hides what that seat cannot see (other hands, face-down
concealed kongs); ``view=None`` shows everything."""

from __future__ import annotations

import numpy as np

from envs._core import tiles_left
from envs.engine import state as st
from envs.engine.actions import action_name
from envs.tiles import FLOWER0, MELD_ANKONG, WIND_NAMES, Meld, format_counts, format_tiles, kind_name

PHASE_NAMES = {
    st.PH_TURN: "turn",
    st.PH_CLAIM: "claim",
    st.PH_ROB: "rob",
    st.PH_READY0: "ready",
    st.PH_DONE: "done",
    st.PH_FLOWER: "flower win offer",
    st.PH_LA_CUT: "la cut",
}


def _meld_str(mt: int, mk: int, owner: int, frm: int, hidden: bool) -> str:
    if hidden:
        return "ankong ????"
    s = str(Meld(mt, mk))
    if mt != MELD_ANKONG and frm != owner:
        s += f" <p{frm}"
    return s


def readable(engine, b: int = 0, view: int | None = None) -> dict:
    from envs.validate import as_int

    s = engine.s
    B = s.g.shape[0]
    b = as_int(b, "b")
    if not 0 <= b < B:
        raise ValueError(f"game b must be in 0..{B - 1}, got {b}")
    if view is not None and as_int(view, "view") not in range(4):
        raise ValueError(f"view must be a seat 0..3 or None, got {view}")
    g = s.g[b]
    dealer = int(g[st.G_DEALER])
    phase = int(g[st.G_PHASE])
    cur = int(g[st.G_CUR])
    seats = []
    for seat in range(4):
        shown = view is None or view == seat
        n = int(s.p[b, seat, st.P_NMELDS])
        melds = []
        for i in range(n):
            mt, mk, frm = (int(x) for x in s.melds[b, seat, i])
            melds.append(_meld_str(mt, mk, seat, frm, mt == MELD_ANKONG and not shown))
        fl = int(s.p[b, seat, st.P_FLOWERS])
        hand = s.hands[b, seat]
        disc = []
        for i in range(int(g[st.G_NRIVER])):
            k, ds, cb, bits = (int(x) for x in s.river[b, i])
            if ds == seat:
                disc.append(kind_name(k) + ("*" if cb >= 0 else ""))
        seats.append(
            {
                "seat": seat,
                "wind": WIND_NAMES[(seat - dealer) % 4],
                "hand": format_counts(hand) if shown else "?" * int(hand.sum()),
                "n_concealed": int(hand.sum()),
                "melds": melds,
                "flowers": format_tiles([FLOWER0 + f for f in range(8) if fl >> f & 1]),
                "discards": " ".join(disc),
                "ready": bool(s.p[b, seat, st.P_READY]),
                "score": int(s.scores[b, seat]),
            }
        )
    t = int(g[st.G_TILE])
    d = {
        "phase": PHASE_NAMES.get(phase, str(phase)),
        "to_act": cur,
        "turn": int(g[st.G_TURN]),
        "tile": kind_name(t) if t >= 0 and phase in (st.PH_CLAIM, st.PH_ROB) else None,
        "wall": int(max(tiles_left(g, engine.native), 0)),
        "dealer": dealer,
        "streak": int(g[st.G_STREAK]),
        "round_wind": WIND_NAMES[int(g[st.G_ROT]) // 4 % 4],
        "hands_played": int(g[st.G_HANDS]),
        "seats": seats,
        "legal": [action_name(a) for a in np.flatnonzero(s.mask[b])] if phase != st.PH_DONE else [],
    }
    if engine.rules.settlement == "la":  # hongkong 拉: open debts "debtor>creditor": (R in tai, k)
        d["la"] = {
            f"p{x}>p{y}": (float(s.la[b, x, y]) / engine.rules.stakes.per_tai, int(s.la_k[b, x, y]))
            for x in range(4)
            for y in range(4)
            if s.la_k[b, x, y]
        }
    if phase == st.PH_DONE:
        d["result"] = {0: "none", 1: "win", 2: "drawn"}.get(int(g[st.G_RESULT]))
        d["winners"] = [i for i in range(4) if int(g[st.G_WINNERS]) >> i & 1]
    return d


def render_table(d: dict) -> str:
    """The dict as a fixed-width table (PettingZoo ``render_mode="ansi"``)."""
    head = (
        f"round {d['round_wind']}  dealer p{d['dealer']} (streak {d['streak']})  wall {d['wall']}  "
        f"phase {d['phase']}  to act p{d['to_act']}" + (f"  tile {d['tile']}" if d["tile"] else "")
    )
    if "result" in d:
        head += f"  result {d['result']} {d['winners']}"
    rows = [head]
    for x in d["seats"]:
        mark = ">" if x["seat"] == d["to_act"] else " "
        rows.append(
            f"{mark}p{x['seat']} {x['wind']} {x['score']:>6}  hand {x['hand']}"
            + (f" | {' | '.join(x['melds'])}" if x["melds"] else "")
            + (f"  flowers {x['flowers']}" if x["flowers"] else "")
            + ("  READY" if x["ready"] else "")
        )
        rows.append(f"        discards {x['discards']}")
    if d["legal"]:
        rows.append("legal: " + ", ".join(d["legal"]))
    return "\n".join(rows)
