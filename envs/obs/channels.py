"""Channel tables as data, shared by the encoding modules (planes_v0, oracle_v0, ...).

Each encoding lists its blocks of channels (and of scalar columns) in order. From those rows come
the constants naming the blocks (their running offsets), ``channel_names()``, the tables of the
docs (tools/doc_tables.py), and the checks of tests/test_obs.py, which hold every encoder output
to its block's ``values`` and ``cols``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

REL = ("self", "next", "opposite", "previous")  # seats relative to the observer
THRESHOLDS = (">=1", ">=2", ">=3", ">=4")  # a count as four 0/1 channels

# what an encoder may write into a block (tests/test_obs.py checks each kind on random games)
VALUES = {
    "thresholds": "0/1; per seat, four channels count >= 1..4",
    "one-hot": "0/1, at most one 1 per channel (a scalar block: in the block)",
    "0/1": "0/1",
    "count": "a whole count >= 0",
    "plane": "one value in [0, 1] over all 34 columns",
    "quarters": "multiples of 1/4, >= 0",
    "fraction": "in [0, 1]",
    "scaled": ">= 0 (may pass 1)",
    "clipped": "in [-SCORE_CLIP, SCORE_CLIP]",
    "scalars": "named columns (the scalar table)",
}


@dataclass(frozen=True)
class Block:
    """Consecutive channels (or scalar columns) of one kind: ``len(seats) * len(items)`` of them,
    seat-major. ``name`` is a pattern with ``{seat}`` and ``{item}`` for ``channel_names()``."""

    const: str  # the module constant naming the first one (CH_HAND)
    name: str
    values: str  # a key of VALUES
    content: str  # one line for the tables
    seats: tuple[str, ...] = ("",)
    items: tuple[str, ...] = ("",)
    cols: int = 34  # the columns it may use; the others stay zero
    derived: bool = False  # only with ``derived=True``

    def __post_init__(self):
        if self.values not in VALUES:
            raise ValueError(f"{self.const}: values {self.values!r} is not one of {sorted(VALUES)}")

    @property
    def n(self) -> int:
        return len(self.seats) * len(self.items)

    def names(self) -> list[str]:
        return [self.name.format(seat=s, item=i) for s in self.seats for i in self.items]


def starts(blocks, first: int = 0) -> list[int]:
    """The offset of each block, then the end: what the constants are assigned from."""
    return list(accumulate((b.n for b in blocks), initial=first))


def names(blocks) -> list[str]:
    return [x for b in blocks for x in b.names()]


class Extension:
    """The table functions of an encoding whose channels follow those of ``base`` (a module with
    ``n_channels(derived)`` and ``blocks(derived)``): oracle_v0 and planes_v1 extend planes_v0."""

    def __init__(self, base, channels: tuple):
        self.base, self.channels = base, channels
        self.n_extra = starts(channels)[-1]

    def n_channels(self, derived: bool = False) -> int:
        return self.base.n_channels(derived) + self.n_extra

    def blocks(self, derived: bool = False) -> tuple:
        """The base's blocks, then this encoding's."""
        return self.base.blocks(derived) + self.channels

    def channel_names(self, derived: bool = False) -> list[str]:
        """One readable name per channel: the base's, then this encoding's."""
        return names(self.blocks(derived))
