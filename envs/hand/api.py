"""Python helpers over the native hand analysis (``envs._core``; constants in :mod:`envs.hand.analysis`)
that take notation strings or count vectors.

``n_melds`` is the number of melds (kongs included); the concealed part then needs
``5 - n_melds`` sets and a pair. Passing ``melds=["pon EEE", ...]`` sets ``n_melds`` and also counts
the meld tiles as held (RULES.md 3: a kind held four times is not a wait). Wrong tile counts raise
``ValueError`` naming the hand, its size and the sizes expected.

>>> waits("23m 567m 123p 456p 789p 99s")
['1m', '4m']
>>> shanten_of("13m 456m 789m 123p 456p 9s E")
1
>>> decompose("111222333m 456p 789p EE")
[('EE', '123m', '123m', '123m', '456p', '789p'), ('EE', '111m', '222m', '333m', '456p', '789p')]
"""

from __future__ import annotations

import numpy as np

from envs._core import decompositions, discard_shanten, is_win, win_shanten, win_wait_mask
from envs.hand.analysis import DEC_WIDTH, MAX_DECOMPOSITIONS, SHAPE_EIGHT_PAIRS
from envs.tiles import N_KINDS, Meld, format_counts, format_tiles, kind_name, parse_hand, parse_meld

__all__ = ["hand_counts", "is_complete_hand", "shanten_of", "waits", "decompose", "discards"]


def hand_counts(hand) -> np.ndarray:
    """Concealed tiles as an int8 count vector: notation text, or any length-34 sequence of counts 0..4."""
    if isinstance(hand, str):
        return parse_hand(hand)
    a = np.asarray(hand)
    if a.shape != (N_KINDS,) or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"a hand is notation text or {N_KINDS} integer counts, got shape {a.shape} dtype {a.dtype}")
    bad = np.flatnonzero((a < 0) | (a > 4))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"count {int(a[k])} of {kind_name(k)!r} is outside 0..4")
    return a.astype(np.int8)


def _melds(n_melds, melds) -> tuple[int, list[Meld]]:
    ms = [m if isinstance(m, Meld) else parse_meld(m) for m in melds]
    if n_melds is None:
        n_melds = len(ms)
    elif ms and n_melds != len(ms):
        raise ValueError(f"n_melds={n_melds} but {len(ms)} melds were given")
    if not isinstance(n_melds, (int, np.integer)) or not 0 <= n_melds <= 5:
        raise ValueError(f"n_melds must be 0..5, got {n_melds!r}")
    return int(n_melds), ms


def _held(counts: np.ndarray, ms: list[Meld]) -> np.ndarray:
    held = counts.astype(np.int16)
    for m in ms:
        for k in m.kinds:
            held[k] += 1
    bad = np.flatnonzero(held > 4)
    if bad.size:
        raise ValueError(f"fifth copy of {kind_name(int(bad[0]))!r} counting the melds")
    return held.astype(np.int8)


def _check_size(counts: np.ndarray, n_melds: int, sizes: tuple[int, ...], what: str) -> int:
    n_sets = 5 - n_melds
    size = int(counts.sum())
    want = {1: 3 * n_sets + 1, 2: 3 * n_sets + 2}
    if size not in [want[s] for s in sizes]:
        need = " or ".join(f"{want[s]} ({'ready' if s == 1 else 'complete'})" for s in sizes)
        raise ValueError(
            f"{what}: hand {format_counts(counts)!r} has {size} tiles; with {n_melds} meld(s) it needs {need}"
        )
    return n_sets


def is_complete_hand(hand, n_melds: int | None = None, melds=(), eight_pairs: bool = False) -> bool:
    """True iff the concealed tiles (``3n+2``) complete the hand; ``eight_pairs`` also allows 嚦咕嚦咕."""
    c = hand_counts(hand)
    n_melds, _ = _melds(n_melds, melds)
    n_sets = _check_size(c, n_melds, (2,), "is_complete_hand")
    return bool(is_win(c, n_sets, SHAPE_EIGHT_PAIRS if eight_pairs else 0))


def shanten_of(hand, n_melds: int | None = None, melds=(), eight_pairs: bool = False) -> int:
    """Shanten of a ``3n+1`` or ``3n+2`` hand (-1 complete, 0 ready)."""
    c = hand_counts(hand)
    n_melds, _ = _melds(n_melds, melds)
    n_sets = _check_size(c, n_melds, (1, 2), "shanten_of")
    return int(win_shanten(c, n_sets, SHAPE_EIGHT_PAIRS if eight_pairs else 0))


def waits(hand, n_melds: int | None = None, melds=(), eight_pairs: bool = False) -> list[str]:
    """Kind names that complete a ``3n+1`` hand (kinds held four times, melds included, excluded)."""
    c = hand_counts(hand)
    n_melds, ms = _melds(n_melds, melds)
    n_sets = _check_size(c, n_melds, (1,), "waits")
    out = np.zeros(N_KINDS, np.bool_)
    win_wait_mask(c, n_sets, _held(c, ms), SHAPE_EIGHT_PAIRS if eight_pairs else 0, out)
    return [kind_name(int(k)) for k in np.flatnonzero(out)]


def decompose(hand, n_melds: int | None = None, melds=()) -> list[tuple[str, ...]]:
    """Every decomposition of a complete ``3n+2`` hand: ``(pair, set, set, ...)`` in notation.

    Empty if the hand is not complete.
    """
    c = hand_counts(hand)
    n_melds, _ = _melds(n_melds, melds)
    n_sets = _check_size(c, n_melds, (2,), "decompose")
    out = np.zeros((MAX_DECOMPOSITIONS, DEC_WIDTH), np.int64)
    n = decompositions(c, n_sets, out)
    if n > len(out):  # pragma: no cover - never for 17 tiles
        out = np.zeros((n, DEC_WIDTH), np.int64)
        n = decompositions(c, n_sets, out)
    res = []
    for row in out[:n]:
        items = [format_tiles([row[0]] * 2)]
        for j in range(n_sets):
            t, k = int(row[1 + 2 * j]), int(row[2 + 2 * j])
            items.append(format_tiles(Meld(t, k).kinds))  # a set: a chi or a pon
        res.append(tuple(items))
    return res


def discards(hand, n_melds: int | None = None, melds=()) -> dict[str, int]:
    """For a ``3n+2`` hand: shanten after discarding each held kind, ``{kind name: shanten}``."""
    c = hand_counts(hand)
    n_melds, _ = _melds(n_melds, melds)
    n_sets = _check_size(c, n_melds, (2,), "discards")
    out = np.zeros(N_KINDS, np.int64)
    discard_shanten(c, n_sets, out)
    return {kind_name(k): int(out[k]) for k in range(N_KINDS) if c[k] > 0}
