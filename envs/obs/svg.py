"""SVG rendering of a table state (the readable view of ``envs.obs.readable``), for notebooks and the
static HTML replay page. Pure string building: no dependency beyond the standard library.

Seat p0 sits at the bottom, then counter-clockwise: p1 right, p2 top, p3 left. Each tile is a small
card with its notation (``5m``) over its Chinese name (``五萬``); face-down tiles are blank.
"""

from __future__ import annotations

from html import escape

from envs.tiles import FLOWER0, kind_zh, parse_tiles

TW, TH = 26, 36  # tile width, height
W, H = 900, 720
SUIT_COLOUR = {"m": "#b23a48", "p": "#1d4e89", "s": "#2d6a4f", "h": "#333333", "f": "#8a5a00"}


def _colour(k: int) -> str:
    if k >= FLOWER0:
        return SUIT_COLOUR["f"]
    return SUIT_COLOUR["mps"[k // 9]] if k < 27 else SUIT_COLOUR["h"]


def _tile(x: float, y: float, k: int | None, highlight: bool = False) -> str:
    stroke = "#e09f3e" if highlight else "#555"
    body = f'<rect x="{x:.0f}" y="{y:.0f}" width="{TW - 2}" height="{TH}" rx="3" fill="{"#fffdf5" if k is not None else "#7a9e7e"}" stroke="{stroke}" stroke-width="{2 if highlight else 1}"/>'
    if k is None:
        return body
    from envs.tiles import kind_name

    name, zh = kind_name(k), kind_zh(k)
    c = _colour(k)
    return (
        body + f'<text x="{x + TW / 2 - 1:.0f}" y="{y + 14:.0f}" font-size="11" text-anchor="middle" fill="{c}" '
        f'font-family="monospace">{escape(name)}</text><text x="{x + TW / 2 - 1:.0f}" y="{y + 30:.0f}" '
        f'font-size="10" text-anchor="middle" fill="{c}">{escape(zh[-1] if len(zh) > 1 else zh)}</text>'
    )


def _row(x: float, y: float, kinds, hidden: int = 0, highlight_last: bool = False) -> tuple[str, float]:
    parts = []
    for i, k in enumerate(kinds):
        parts.append(_tile(x, y, k, highlight_last and i == len(kinds) - 1))
        x += TW
    for _ in range(hidden):
        parts.append(_tile(x, y, None))
        x += TW
    return "".join(parts), x


def _kinds(text: str) -> list[int]:
    return parse_tiles(text) if text and "?" not in text else []


def _seat_block(seat: dict, is_turn: bool) -> str:
    """One seat's rows at the origin (the caller rotates and places them)."""
    out = []
    label = f"p{seat['seat']} {seat['wind']}  {seat['score']:+d}" + ("  聽" if seat.get("ready") else "")
    out.append(
        f'<text x="0" y="-8" font-size="14" font-weight="{"bold" if is_turn else "normal"}" '
        f'fill="{"#c1121f" if is_turn else "#222"}">{escape(label)}</text>'
    )
    hidden = seat["n_concealed"] if "?" in seat["hand"] else 0
    row, x = _row(0, 0, _kinds(seat["hand"]), hidden)
    out.append(row)
    x += 8
    for m in seat["melds"]:
        word, _, rest = m.partition(" ")
        tiles = rest.split(" <")[0]
        if "?" in tiles:
            r, x = _row(x, 0, [], 4)
        else:
            r, x = _row(x, 0, _kinds(tiles))
        out.append(r)
        x += 6
    if seat["flowers"]:
        r, _ = _row(x + 4, 0, _kinds(seat["flowers"]))
        out.append(r)
    disc = [k for k in _kinds(seat["discards"].replace("*", ""))]
    for i in range(0, len(disc), 12):
        r, _ = _row(0, TH + 8 + (i // 12) * (TH + 2), disc[i : i + 12])
        out.append(r)
    return "".join(out)


_PLACE = {  # seat position relative to the viewer: translate + rotate
    0: (150, 560, 0),
    1: (820, 600, -90),
    2: (750, 150, 180),
    3: (80, 120, 90),
}


def table_svg(d: dict, viewer: int = 0) -> str:
    """An SVG string of the readable view ``d`` (from ``envs.obs.readable.readable``)."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        f'font-family="sans-serif"><rect width="{W}" height="{H}" fill="#3d6b4f" rx="18"/>'
    ]
    for seat in d["seats"]:
        rel = (seat["seat"] - viewer) % 4
        tx, ty, rot = _PLACE[rel]
        parts.append(
            f'<g transform="translate({tx},{ty}) rotate({rot})">{_seat_block(seat, seat["seat"] == d["to_act"])}</g>'
        )
    info = [f"圈 {d['round_wind']}  莊 p{d['dealer']}  連 {d['streak']}", f"wall {d['wall']}  {d['phase']}"]
    if d.get("tile"):
        info.append(f"tile {d['tile']}")
    if d.get("result"):
        info.append(f"{d['result']} {d.get('winners', '')}")
    for i, line in enumerate(info):
        parts.append(
            f'<text x="{W / 2}" y="{H / 2 - 20 + 22 * i}" font-size="16" text-anchor="middle" fill="#fff">{escape(line)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
