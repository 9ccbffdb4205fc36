"""The table as one seat sees it, as JSON for the page (``tw16/cli/web/static/app.js`` draws it).

Tiles are kinds (0..41, ``envs.tiles``); the page names them (notation, 中文) from the tile table
it is sent once (``tile_table``). ``table_view`` reads the engine or a ``tw16.cli.game.snapshot``;
``choices_view`` lists the legal actions (``tw16.cli.play.choices_for``) with a key each; ``refusals``
explains in words why an action the person may expect is not offered (過水, a ready hand, 食替).
"""

from __future__ import annotations

import numpy as np

from envs.engine import actions as A
from envs.engine import state as st
from envs.hand.api import waits
from envs.tiles import FLOWER0, MELD_ANKONG, N_ALL_KINDS, Meld, kind_name, kind_zh

WIND_ZH = "東南西北"
KEYS = {"win": "w", "pon": "p", "kong": "k", "chi": "c", "pass": "x", "ready": "r"}


def tile_table() -> list[dict]:
    """Per kind its notation and Chinese name (the hover text of a tile)."""
    return [{"k": k, "name": kind_name(k), "zh": kind_zh(k)} for k in range(N_ALL_KINDS)]


def _melds(view, seat: int, hide: bool) -> list[dict]:
    out = []
    for mt, mk, frm in (tuple(int(x) for x in m) for m in view.melds[0, seat, : int(view.n_melds[0, seat])]):
        hidden = hide and mt == MELD_ANKONG
        out.append({"type": mt, "kinds": [] if hidden else list(Meld(mt, mk).kinds), "from": frm, "hidden": hidden})
    return out


def table_view(view, me: int, names, totals, reveal: bool = False) -> dict:
    """The table for seat ``me`` (``reveal``: every hand face up): winds, dealer, streak, wall, scores
    (``totals``: chips over the session), each seat's hand, melds, flowers and river in order."""
    b = 0
    dealer = int(view.dealer[b])
    phase = int(view.phase[b])
    cur = int(view.current_player[b])
    river = [tuple(int(x) for x in r) for r in view.river[b, : int(view.n_river[b])]]
    seats = []
    for seat in range(4):
        hand = [int(k) for k in np.repeat(np.arange(34), view.hands[b, seat])]
        drawn = None
        last = int(view.last_drawn[b])
        if phase == st.PH_TURN and cur == seat and last >= 0 and last in hand and len(hand) % 3 == 2:
            hand.remove(last)
            drawn = last
        fl = int(view.flowers[b, seat])
        show = seat == me or reveal
        seats.append(
            {
                "seat": seat,
                "name": names[seat],
                "wind": (seat - dealer) % 4,
                "dealer": seat == dealer,
                "ready": bool(view.ready[b, seat]),
                "score": int(totals[seat]),
                "hand": hand if show else None,
                "drawn": drawn if show else None,
                "count": len(hand) + (drawn is not None),
                "melds": _melds(view, seat, hide=not show),
                "flowers": [FLOWER0 + f for f in range(8) if fl >> f & 1],
                "river": [{"k": k, "claimed": c >= 0, "i": i} for i, (k, s, c, *_) in enumerate(river) if s == seat],
            }
        )
    claim = None
    if phase in (st.PH_CLAIM, st.PH_ROB) and int(view.claim_tile[b]) >= 0:
        claim = {"tile": int(view.claim_tile[b]), "from": int(view.turn_seat[b]), "rob": phase == st.PH_ROB}
    return {
        "me": me,
        "round_wind": int(view.round_wind[b]),
        "dealer": dealer,
        "streak": int(view.streak[b]),
        "wall": int(max(view.wall_drawable[b], 0)),
        "to_act": cur,
        "phase": phase,
        "last_discard": len(river) - 1 if river else None,
        "claim": claim,
        "seats": seats,
    }


def choices_view(eng) -> list[dict]:
    """The legal actions of the seat to act: action id, verb, English and 中文 labels, tiles, key."""
    from tw16.cli.play import choices_for

    out = []
    for c in choices_for(eng):
        key = KEYS.get(c.verb) if c.verb != "discard" else None
        out.append(
            {"action": c.action, "verb": c.verb, "label": c.label, "zh": c.zh, "kinds": list(c.kinds), "key": key}
        )
    verbs = [c["verb"] for c in out]
    for c in out:  # a key names one choice: several chis or kongs are chosen by button (or number)
        if c["key"] and verbs.count(c["verb"]) > 1:
            c["key"] = None
    return out


def refusals(eng, me: int) -> list[str]:
    """Why an action the person may look for is not offered, in words (empty when nothing is held back)."""
    b = 0
    if int(eng.current_player[b]) != me:
        return []
    phase = int(eng.phase[b])
    mask = eng.legal_action_mask[b]
    hand = eng.hands[b, me]
    notes = []
    if phase in (st.PH_CLAIM, st.PH_ROB) and not mask[A.WIN]:
        t = int(eng.claim_tile[b])
        try:
            wins_on = kind_name(t) in waits(hand, int(eng.n_melds[b, me]))
        except ValueError:  # a hand of the wrong size (a scripted table): nothing to explain
            wins_on = False
        if wins_on and bool(eng.pass_win[b, me]):
            notes.append(
                f"過水: {kind_name(t)} {kind_zh(t)} would complete your hand, but you passed a win on a "
                "discard, so you may not win on a discard until your own next draw"
            )
        elif wins_on:
            notes.append(
                f"{kind_name(t)} {kind_zh(t)} completes your hand's shape, but it scores no win under "
                "these rules (a minimum of tai, or a hand the profile does not allow)"
            )
    if phase == st.PH_TURN:
        held = [k for k in range(34) if hand[k] > 0 and not mask[A.DISCARD + k]]
        if held and any(mask[A.DISCARD : A.DISCARD + 34]):
            names = " ".join(kind_name(k) for k in held)
            if bool(eng.ready[b, me]):
                notes.append(
                    f"you declared ready (報聽): only discards that keep your hand ready are allowed ({names} are not)"
                )
            else:
                notes.append(
                    f"you may not discard {names} now: 食替 (swap call) — after a chi or pon you may not "
                    "discard the claimed kind, nor the other end of the chi's run"
                )
    return notes
