"""The Olympiad / TCGA protocol's words (shared/protocol/OLYMPIAD.md): tile ids and message lines.

Tile ids are ``100 * suit + 10 * rank + copy``: suits 1, 2, 3 are tw16's m, p, s (ranks 1-9), suit 4
the honours in tw16's order E S W N C F P (ranks 1-7), copy 0-3. tw16 kinds are 0..33 (``envs.tiles``).
Every line is at most ``MAX_LINE`` characters; anything else is a ``ProtocolError`` naming the problem.
"""

from __future__ import annotations

from envs.tiles import N_KINDS, WIND0

MAX_LINE = 255  # "lines shorter than 256 characters"
SUIT_RANKS = {1: 9, 2: 9, 3: 9, 4: 7}
ASKS = ("throw", "eat", "pong", "gong", "hu")
WINDS = ("East", "South", "West", "North")


class ProtocolError(ValueError):
    """A line or token that the protocol does not allow (the message names it)."""


def kind_of_id(tid) -> int:
    """``111 -> 0`` (1m), ``473 -> 33``; ValueError-derived ``ProtocolError`` for anything else."""
    if isinstance(tid, str):
        if not tid.isdigit() or len(tid) != 3:
            raise ProtocolError(f"tile id {tid!r}: expected three digits (100*suit + 10*rank + copy)")
        tid = int(tid)
    if isinstance(tid, bool) or not isinstance(tid, int):
        raise ProtocolError(f"tile id {tid!r}: expected an int")
    suit, rank, copy = tid // 100, tid // 10 % 10, tid % 10
    if suit not in SUIT_RANKS or not 1 <= rank <= SUIT_RANKS[suit] or copy > 3 or tid >= 1000:
        raise ProtocolError(f"tile id {tid}: not a tile (suits 1-3 ranks 1-9, suit 4 ranks 1-7, copy 0-3; no flowers)")
    return (suit - 1) * 9 + rank - 1


def copy_of_id(tid: int) -> int:
    kind_of_id(tid)
    return int(tid) % 10


def tile_id(kind: int, copy: int) -> int:
    """``(0, 0) -> 110``, ``(33, 3) -> 473``."""
    kind, copy = int(kind), int(copy)
    if not 0 <= kind < N_KINDS or not 0 <= copy <= 3:
        raise ProtocolError(f"no tile id for kind {kind}, copy {copy}")
    suit, rank = (kind // 9 + 1, kind % 9 + 1) if kind < WIND0 else (4, kind - WIND0 + 1)
    return 100 * suit + 10 * rank + copy


def line(*tokens) -> str:
    """One message: tokens joined by single spaces, capped (a longer line is a bug of ours)."""
    out = " ".join(str(t) for t in tokens)
    if len(out) > MAX_LINE or "\n" in out:
        raise ProtocolError(f"message of {len(out)} characters: the protocol allows {MAX_LINE}")
    return out


def split(text: str) -> list[str]:
    """The tokens of one received line (no newline, at most MAX_LINE characters, printable ASCII)."""
    if len(text) > MAX_LINE:
        raise ProtocolError(f"line of {len(text)} characters (at most {MAX_LINE})")
    if not text.isascii() or not text.isprintable():
        raise ProtocolError(f"line {text[:40]!r} holds characters outside printable ASCII")
    toks = text.split()
    if not toks:
        raise ProtocolError("empty line")
    return toks


def seat_token(tok: str) -> int:
    """Protocol seat ``1..4`` -> tw16 seat ``0..3``."""
    if tok not in ("1", "2", "3", "4"):
        raise ProtocolError(f"seat {tok!r}: expected 1..4")
    return int(tok) - 1


def ids(tokens, n: int | None = None, what: str = "tiles") -> list[int]:
    """Tile id tokens -> ints, each checked; ``n`` the exact count wanted."""
    if n is not None and len(tokens) != n:
        raise ProtocolError(f"{what}: expected {n} tile ids, got {len(tokens)}")
    out = []
    for t in tokens:
        kind_of_id(t)  # raises for anything that is not a tile id
        out.append(int(t))
    if len(set(out)) != len(out):
        raise ProtocolError(f"{what}: a tile id repeats in {' '.join(tokens)}")
    return out


def parse_answer(text: str, ask: str) -> tuple[str, list[int]]:
    """A bot's answer to ``/ask <ask>`` -> (word, tile ids): ``('pass', [])``, ``('throw', [433])``,
    ``('pong', [a, b])``, ``('eat', [a, b])``, ``('gong', [0|1|4, ids...])``, ``('hu', [])``. The
    answer must be one the question allows; its tiles are checked by the host against the hand."""
    toks = split(text)
    word = toks[0]
    if word == "/pass" and len(toks) == 1 and ask != "throw":
        return "pass", []
    if word != f"/{ask}":
        raise ProtocolError(
            f"answer {text[:60]!r} to /ask {ask}: expected /{ask}" + ("" if ask == "throw" else " or /pass")
        )
    rest = toks[1:]
    if ask == "throw":
        return "throw", ids(rest, 1, "/throw")
    if ask in ("eat", "pong"):
        return ask, ids(rest, 2, f"/{ask}")
    if ask == "hu":
        if rest:
            raise ProtocolError(f"answer {text[:60]!r}: /hu takes no tiles")
        return "hu", []
    kind = rest[0] if rest else ""
    n = {"0": 4, "1": 1, "4": 3}.get(kind)
    if n is None:
        raise ProtocolError(f"answer {text[:60]!r}: /gong 0 a b c d, /gong 1 id or /gong 4 a b c")
    return "gong", [int(kind)] + ids(rest[1:], n, f"/gong {kind}")
