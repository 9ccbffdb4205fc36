"""The action layout (versioned): one flat index space shared by every seat and every phase.

``LAYOUT`` lists the blocks of actions in order; the constants are their running offsets
(``DISCARD + kind``, ``CHI + 0/1/2``, ``SELF_KONG + kind``, ...). ``python tools/doc_tables.py --write``
writes it as the tables of the env card (``help(envs.tw16_v0)``) and docs/environment.md.

Flowers are replaced automatically and are never an action. Bump ``ACTION_LAYOUT_VERSION`` on any
change: saved policies and replays depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from envs.tiles import N_KINDS, kind_name, parse_tiles, shown

ACTION_LAYOUT_VERSION = 0


@dataclass(frozen=True)
class ActionBlock:
    """``size`` consecutive actions; the offset from the block's constant is ``arg``."""

    const: str
    size: int
    arg: str  # what the offset selects ("" for a single action)
    zh: str
    what: str
    legal: str  # when the mask allows it


LAYOUT = (
    ActionBlock(
        "DISCARD",
        N_KINDS,
        "kind k (0..33)",
        "打牌",
        "discard one tile of kind k",
        "own turn, the tile is in hand (and not forbidden: `swap_call=false` after a chi, a pending ready "
        "declaration that must keep a ready hand)",
    ),
    ActionBlock(
        "CHI",
        3,
        "0 / 1 / 2",
        "吃",
        "chi: the claimed tile is the low / middle / high tile",
        "the next seat (下家) on a suited discard; +0: discard 3m with 45m in hand, +1: with 24m, +2: with 12m",
    ),
    ActionBlock("PON", 1, "", "碰", "pon the discard", "two of the discard's kind in hand"),
    ActionBlock(
        "KONG",
        1,
        "",
        "明槓",
        "exposed kong on the discard",
        "three of the discard's kind in hand, a replacement tile drawable",
    ),
    ActionBlock(
        "SELF_KONG",
        N_KINDS,
        "kind k (0..33)",
        "暗槓 / 加槓",
        "concealed or added kong of kind k",
        "own turn: four of kind k in hand, or a pon of k and the fourth in hand (not in the turn of a chi/pon "
        "with `no_kong_after_claim`)",
    ),
    ActionBlock(
        "WIN",
        1,
        "",
        "胡 / 自摸 / 搶槓",
        "self-draw, win on a discard, or rob an added kong",
        "a winning hand with the drawn tile, the discard or the added-kong tile (not while 過水 blocks it); "
        "hongkong's flower-win offer and 拉 cut answer yes",
    ),
    ActionBlock(
        "PASS",
        1,
        "",
        "過",
        "decline every claim (always legal when a seat is asked)",
        "asked to claim, rob, declare 天聽, take a flower win or cut a 拉 debt",
    ),
    ActionBlock(
        "READY", 1, "", "報聽", "declare ready", "the profile scores ready declarations and `declare_ready` is on"
    ),
)

DISCARD, CHI, PON, KONG, SELF_KONG, WIN, PASS, READY, N_ACTIONS = accumulate((b.size for b in LAYOUT), initial=0)

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
        raise ValueError(f"{shown(name)} must name one tile, not {len(ks)}")
    if ks[0] >= N_KINDS:
        raise ValueError(f"{shown(name)}: flowers are not discarded or konged (they are exposed automatically)")
    return ks[0]


def action_from_name(name: str) -> int:
    """Inverse of ``action_name``; also accepts ``'chi middle'``. A name that is not an action raises
    ``ValueError`` (``NotationError`` for a bad tile), a non-string ``TypeError``."""
    if not isinstance(name, str):
        raise TypeError(f"an action name is a string like 'discard 5m', got {shown(name)}")
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
    raise ValueError(
        f"unknown action name {shown(name)} (e.g. 'discard 5m', 'chi low', 'pon', 'kong', 'kong 5m', 'win', 'pass', 'ready')"
    )


ACTION_NAMES = tuple(action_name(a) for a in range(N_ACTIONS))
