"""Tiles, melds and the hand notation (RULES.md section 1).

Kinds (the index used by every array in tw16)::

    1m..9m  = 0..8     萬 characters
    1p..9p  = 9..17    筒 dots
    1s..9s  = 18..26   條 bamboo
    E S W N = 27..30   東 南 西 北 (winds)
    C F P   = 31..33   中 發 白 (dragons)
    f1..f8  = 34..41   春 夏 秋 冬 梅 蘭 菊 竹 (flowers, one of each)

Hands are count vectors over the 34 playing kinds. Physical tile ids (0..143) exist only in walls:
``id // 4`` is the kind for ids 0..135, and ids 136..143 are the flowers f1..f8.

Notation: digits before a suit letter share it (``"123m 55p"``); honours and flowers are one symbol
each (``"EEE CC f1 f5"``); spaces between groups are optional. Melds are ``chi 123m``, ``pon EEE``,
``kong 5555s`` (明槓), ``addkong 2222m`` (加槓), ``ankong 7777p`` (暗槓).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

N_KINDS = 34  # playing kinds
N_FLOWER_KINDS = 8
N_ALL_KINDS = N_KINDS + N_FLOWER_KINDS
N_TILES = 144
N_TILES_NO_FLOWERS = 136
FLOWER_ID0 = N_TILES_NO_FLOWERS  # physical ids 136..143 are the flowers f1..f8
FLOWER0 = 34  # kind of f1
WIND0 = 27  # kind of E
DRAGON0 = 31  # kind of C
SUITS = "mps"
HONOURS = "ESWNCFP"
WIND_NAMES = "ESWN"

# Meld types, shared by the notation, the scorer and the engine.
MELD_CHI, MELD_PON, MELD_KONG, MELD_ADDKONG, MELD_ANKONG = 0, 1, 2, 3, 4
MELD_NAMES = ("chi", "pon", "kong", "addkong", "ankong")
MELD_SIZES = (3, 3, 4, 4, 4)

SUIT_ZH = {"m": "萬", "p": "筒", "s": "條"}
NUM_ZH = "一二三四五六七八九"
HONOUR_ZH = {"E": "東", "S": "南", "W": "西", "N": "北", "C": "中", "F": "發", "P": "白"}
FLOWER_ZH = "春夏秋冬梅蘭菊竹"
MELD_ZH = ("吃", "碰", "明槓", "加槓", "暗槓")


class NotationError(ValueError):
    """A string that is not valid tw16 notation; the message names the token and its position."""


# Longer than any real notation (a whole wall written tile by tile, "1m 1m ...", is ~450 characters):
# refusing more up front keeps every parse, and every message quoting the text, small.
MAX_NOTATION_CHARS = 4096


def shown(text: str, limit: int = 80) -> str:
    """``repr(text)``, shortened to about ``limit`` characters so an error about a huge input stays a line."""
    r = repr(text)
    size = f"{len(text)} characters" if isinstance(text, str) else f"{len(r)} characters as repr"
    return r if len(r) <= limit else f"{r[: limit - 20]}...{r[-10:]} ({size})"


def kind_name(k: int) -> str:
    """``0 -> '1m'``, ``27 -> 'E'``, ``34 -> 'f1'``."""
    if 0 <= k < WIND0:
        return f"{k % 9 + 1}{SUITS[k // 9]}"
    if WIND0 <= k < N_KINDS:
        return HONOURS[k - WIND0]
    if FLOWER0 <= k < N_ALL_KINDS:
        return f"f{k - FLOWER0 + 1}"
    raise ValueError(f"no tile kind {k}")


def kind_zh(k: int) -> str:
    """Chinese name: ``0 -> '一萬'``, ``31 -> '中'``, ``34 -> '春'``."""
    name = kind_name(k)
    if k < WIND0:
        return NUM_ZH[int(name[0]) - 1] + SUIT_ZH[name[1]]
    if k < N_KINDS:
        return HONOUR_ZH[name]
    return FLOWER_ZH[k - FLOWER0]


_TOKEN = re.compile(r"\s*(?:(\d+)([mps]?)|(f[1-8])|([ESWNCFP])|(f\d*|\S))")


def parse_tiles(text: str) -> list[int]:
    """Parse notation into a list of kinds (flowers included), in written order.

    >>> parse_tiles("123m 55p E f1")
    [0, 1, 2, 13, 13, 27, 34]
    """
    return [k for k, _, _ in _parse_positions(text)]


def _parse_positions(text: str) -> list[tuple[int, int, str]]:
    """``(kind, position, token)`` for every tile of ``text``, in written order."""
    if not isinstance(text, str):
        raise NotationError(f"tiles must be a string, not {type(text).__name__}")
    if len(text) > MAX_NOTATION_CHARS:
        raise NotationError(
            f"tile notation is {len(text)} characters long, more than the {MAX_NOTATION_CHARS} allowed: {shown(text)}"
        )
    out: list[tuple[int, int, str]] = []
    pos = 0
    text_r = text.rstrip()
    while pos < len(text_r):
        m = _TOKEN.match(text_r, pos)
        start = pos + (len(m.group(0)) - len(m.group(0).lstrip()))
        digits, suit, flower, honour, bad = m.groups()
        if bad is not None:
            hint = " (flowers are f1-f8)" if bad.startswith("f") else " (tiles are 1-9 m/p/s, E S W N C F P, f1-f8)"
            raise NotationError(f"bad token {bad!r} at position {start} in {shown(text)}{hint}")
        if digits is not None and not suit:
            nxt = text_r[m.end() : m.end() + 1].strip()
            raise NotationError(
                f"bad token {shown(digits + nxt)} at position {start} in {shown(text)} (digits need a suit letter m, p or s)"
            )
        if digits is not None:
            tok = digits + suit  # built once per run: per digit it made the parse quadratic in the run
            base = SUITS.index(suit) * 9 - 1
            for i, d in enumerate(digits):
                if d == "0":
                    raise NotationError(
                        f"'0{suit}' is not a tile (token {shown(tok)} at position {start + i} in {shown(text)})"
                    )
                out.append((base + int(d), start + i, tok))
        elif flower is not None:
            out.append((FLOWER0 + int(flower[1]) - 1, start, flower))
        else:
            out.append((WIND0 + HONOURS.index(honour), start, honour))
        pos = m.end()
    return out


def format_tiles(kinds) -> str:
    """Canonical notation of a multiset of kinds: sorted, suits grouped (``"123m 55p EEE f1"``)."""
    ks = sorted(int(k) for k in kinds)
    parts: list[str] = []
    for s, letter in enumerate(SUITS):
        digits = "".join(str(k - 9 * s + 1) for k in ks if 9 * s <= k < 9 * s + 9)
        if digits:
            parts.append(digits + letter)
    hon = "".join(HONOURS[k - WIND0] for k in ks if WIND0 <= k < N_KINDS)
    # Honours of one kind are grouped ("EEE CC") so a hand reads as it is held.
    for h in HONOURS:
        run = h * hon.count(h)
        if run:
            parts.append(run)
    parts.extend(f"f{k - FLOWER0 + 1}" for k in ks if k >= FLOWER0)
    return " ".join(parts)


def counts_of(kinds, n: int = N_KINDS) -> np.ndarray:
    c = np.zeros(n, dtype=np.int8)
    for k in kinds:
        c[k] += 1
    return c


def kinds_of(counts) -> list[int]:
    return [k for k in range(len(counts)) for _ in range(int(counts[k]))]


def format_counts(counts) -> str:
    return format_tiles(kinds_of(counts))


def parse_hand(text: str) -> np.ndarray:
    """Concealed tiles as a count vector over the 34 playing kinds; flowers or a fifth copy are errors."""
    counts = np.zeros(N_KINDS, dtype=np.int8)
    for k, pos, tok in _parse_positions(text):
        if k >= FLOWER0:
            raise NotationError(f"flower {kind_name(k)!r} at position {pos} in a hand of playing tiles {shown(text)}")
        counts[k] += 1
        if counts[k] > 4:
            raise NotationError(
                f"fifth copy of {kind_name(k)!r} (token {shown(tok)} at position {pos} in {shown(text)})"
            )
    return counts


def parse_flowers(text: str) -> list[int]:
    """Flowers as a sorted list of kinds 34..41; each flower exists once."""
    seen = set()
    for k, pos, _ in _parse_positions(text or ""):
        if k < FLOWER0:
            raise NotationError(
                f"{kind_name(k)!r} at position {pos} is not a flower (flowers are f1-f8) in {shown(text)}"
            )
        if k in seen:
            raise NotationError(
                f"flower {kind_name(k)!r} at position {pos} appears twice in {shown(text)} (there is one of each)"
            )
        seen.add(k)
    return sorted(seen)


def check_counts(counts, where: str = "") -> None:
    for k in range(N_KINDS):
        if counts[k] > 4:
            raise NotationError(f"fifth copy of {kind_name(k)!r}{' in ' + repr(where) if where else ''}")


@dataclass(frozen=True)
class Meld:
    """An exposed or concealed set: ``kind`` is the lowest kind (the chi's first tile)."""

    type: int
    kind: int

    @property
    def kinds(self) -> list[int]:
        if self.type == MELD_CHI:
            return [self.kind, self.kind + 1, self.kind + 2]
        return [self.kind] * MELD_SIZES[self.type]

    @property
    def is_kong(self) -> bool:
        return self.type >= MELD_KONG

    @property
    def is_open(self) -> bool:
        """Every meld but ankong breaks concealment (門清)."""
        return self.type != MELD_ANKONG

    def __str__(self) -> str:
        return f"{MELD_NAMES[self.type]} {format_tiles(self.kinds)}"


def parse_meld(text: str) -> Meld:
    """``"chi 123m"`` / ``"pon EEE"`` / ``"kong 5555s"`` / ``"addkong 2222m"`` / ``"ankong 7777p"``."""
    if not isinstance(text, str):
        raise NotationError(f"a meld must be a string like 'pon EEE', not {shown(text)}")
    word, _, rest = text.strip().partition(" ")
    if word not in MELD_NAMES:
        raise NotationError(
            f"unknown meld type {shown(word)} in {shown(text)} (expected one of {', '.join(MELD_NAMES)})"
        )
    mtype = MELD_NAMES.index(word)
    kinds = sorted(parse_tiles(rest))
    size = MELD_SIZES[mtype]
    if len(kinds) != size or any(k >= FLOWER0 for k in kinds):
        raise NotationError(f"{shown(text)}: a {word} has {size} playing tiles, got {len(kinds)}")
    k0 = kinds[0]
    if mtype == MELD_CHI:
        ok = k0 < WIND0 and k0 % 9 <= 6 and kinds == [k0, k0 + 1, k0 + 2]
        if not ok:
            raise NotationError(f"{shown(text)} is not a chi (three consecutive tiles of one suit)")
    elif any(k != k0 for k in kinds):
        raise NotationError(f"{shown(text)} is not a {word} ({size} identical tiles)")
    return Meld(mtype, k0)


@dataclass
class Hand:
    """A seat's tiles in notation terms: concealed counts, melds and flowers."""

    concealed: np.ndarray
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str, melds=(), flowers: str = "") -> Hand:
        h = cls(parse_hand(text), [m if isinstance(m, Meld) else parse_meld(m) for m in melds], parse_flowers(flowers))
        h.check()
        return h

    def all_counts(self) -> np.ndarray:
        c = self.concealed.astype(np.int16).copy()
        for m in self.melds:
            for k in m.kinds:
                c[k] += 1
        return c

    def check(self) -> None:
        c = self.all_counts()
        for k in range(N_KINDS):
            if c[k] > 4:
                raise NotationError(f"fifth copy of {kind_name(k)!r} in {self}")

    def __str__(self) -> str:
        parts = [format_counts(self.concealed)] + [str(m) for m in self.melds]
        if self.flowers:
            parts.append(format_tiles(self.flowers))
        return " | ".join(p for p in parts if p)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"
