"""The action layout (versioned): one flat index space shared by every seat and every phase.

Layout, as arithmetic::

    DISCARD   = 0          # + kind (0..33): discard one tile of that kind
    CHI       = 34         # + 0/1/2: the claimed tile is the low / middle / high tile of the chi
    PON       = 37         # pon the discard
    KONG      = 38         # exposed kong (明槓) on the discard
    SELF_KONG = 39         # + kind (0..33): concealed kong (暗槓) or added kong (加槓) of that kind
    WIN       = 73         # self-draw, win on a discard, or rob an added kong
    PASS      = 74         # decline every claim (always legal when a seat is asked)
    READY     = 75         # declare ready (報聽), only with the rules' declare_ready
    N_ACTIONS = 76

Flowers are replaced automatically and are never an action. Bump ``ACTION_LAYOUT_VERSION`` on any
change: saved policies and replays depend on it.
"""

from __future__ import annotations

from envs.tiles import N_KINDS, kind_name, parse_tiles

ACTION_LAYOUT_VERSION = 0

DISCARD = 0
CHI = DISCARD + N_KINDS  # 34
PON = CHI + 3  # 37
KONG = PON + 1  # 38
SELF_KONG = KONG + 1  # 39
WIN = SELF_KONG + N_KINDS  # 73
PASS = WIN + 1  # 74
READY = PASS + 1  # 75
N_ACTIONS = READY + 1  # 76

CHI_NAMES = ("low", "mid", "high")


def action_name(a: int) -> str:
    """``5 -> 'discard 6m'``, ``34 -> 'chi low'``, ``73 -> 'win'``."""
    a = int(a)
    if DISCARD <= a < CHI:
        return f"discard {kind_name(a - DISCARD)}"
    if CHI <= a < PON:
        return f"chi {CHI_NAMES[a - CHI]}"
    if a == PON:
        return "pon"
    if a == KONG:
        return "kong"
    if SELF_KONG <= a < WIN:
        return f"kong {kind_name(a - SELF_KONG)}"
    if a == WIN:
        return "win"
    if a == PASS:
        return "pass"
    if a == READY:
        return "ready"
    raise ValueError(f"no action {a} (0..{N_ACTIONS - 1})")


def _one_playing_tile(name: str, token: str) -> int:
    ks = parse_tiles(token)
    if len(ks) != 1:
        raise ValueError(f"{name!r} must name one tile, not {len(ks)}")
    if ks[0] >= N_KINDS:
        raise ValueError(f"{name!r}: flowers are not discarded or konged (they are exposed automatically)")
    return ks[0]


def action_from_name(name: str) -> int:
    """Inverse of ``action_name``; also accepts ``'chi middle'``. A name that is not an action raises
    ``ValueError`` (``NotationError`` for a bad tile), a non-string ``TypeError``."""
    if not isinstance(name, str):
        raise TypeError(f"an action name is a string like 'discard 5m', got {name!r}")
    words = name.strip().lower().split()
    if not words:
        raise ValueError("empty action name")
    w = words[0]
    if w == "discard" and len(words) == 2:
        return DISCARD + _one_playing_tile(name, name.split()[1])
    if w == "chi" and len(words) == 2:
        pos = {"low": 0, "mid": 1, "middle": 1, "high": 2}.get(words[1])
        if pos is not None:
            return CHI + pos
    if w == "kong" and len(words) == 2:
        return SELF_KONG + _one_playing_tile(name, name.split()[1])
    simple = {"pon": PON, "kong": KONG, "win": WIN, "pass": PASS, "ready": READY}
    if len(words) == 1 and w in simple:
        return simple[w]
    raise ValueError(f"unknown action name {name!r} (e.g. 'discard 5m', 'chi low', 'pon', 'kong', 'kong 5m', 'win', 'pass', 'ready')")


ACTION_NAMES = tuple(action_name(a) for a in range(N_ACTIONS))
