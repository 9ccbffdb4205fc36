"""The rule options (RULES.md 5, EXTRAS.md, HONGKONG.md 1-5) as one table: :data:`OPTIONS`.

Each row names an option, its default, the values it takes, the slot(s) it fills in the compiled
option array and what it does. Everything else is generated from the table: the ``OPT_*`` slot
indices and ``N_OPTS`` (read by the native core through native/tools/gen_constants.py, by way of
``envs.rules``), ``DEFAULTS``, ``HK_OPTIONS``, the value checks of ``envs.rules.Rules`` and
``Rules.as_array``. Adding an option is adding a row (and a field of ``Rules``; tests/test_rules.py
checks that the two agree). Slots are append only: the array layout is versioned with the engine.

This module sits below ``envs.rules`` and ``envs.scoring.profile`` (which both read it), so that
neither imports the other for the option names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

EPISODES = ("hand", "game")
SETTLEMENTS = ("immediate", "la")
LA_CUT_POLICIES = ("always", "ask")
LA_DRAWS = ("keep", "settle")
FLOWER_WINS = ("auto", "offer")
# Bounds that keep every settlement amount well inside int64 (the native core does not check overflow).
MAX_STAKE = 10**9
MAX_STREAK = 10**6


class RulesError(ValueError):
    """An unknown rule option or a bad value; the message names it."""


@dataclass(frozen=True)
class Stakes:
    base: int = 30
    per_tai: int = 10

    def __post_init__(self):
        for name in ("base", "per_tai"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_STAKE:
                raise RulesError(f"stakes.{name} must be an integer in 0..{MAX_STAKE}, got {v!r}")
        if self.per_tai == 0:
            raise RulesError("stakes.per_tai must be positive (rewards are reported in tai units)")


# -- the values an option takes: ``ok(v)`` and the ``text`` of the error ------------------------------
@dataclass(frozen=True)
class Flag:
    text: str = "true or false"

    def ok(self, v) -> bool:
        return isinstance(v, bool)


@dataclass(frozen=True)
class IntIn:
    lo: int
    hi: int
    null: bool = False  # None allowed

    @property
    def text(self) -> str:
        return f"{'null or ' if self.null else ''}an integer in {self.lo}..{self.hi}"

    def ok(self, v) -> bool:
        if v is None:
            return self.null
        return not isinstance(v, bool) and isinstance(v, int) and self.lo <= v <= self.hi


@dataclass(frozen=True)
class OneOf:
    values: tuple
    words: str | None = None  # the error's wording; default "one of (...)"

    @property
    def text(self) -> str:
        return self.words or f"one of {self.values}"

    def ok(self, v) -> bool:
        return not isinstance(v, bool) and v in self.values


@dataclass(frozen=True)
class Slot:
    """Slot ``OPT_<name>`` (``index``) of the compiled array holds ``encode(value)``."""

    name: str
    index: int
    encode: Callable[[Any], int] = int


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    values: Flag | IntIn | OneOf | None  # None: checked by envs.rules.Rules itself (stakes, extras_off)
    doc: str
    slots: tuple[Slot, ...] = ()
    hongkong: bool = False  # refused with other profiles when not at the default (HONGKONG.md 1)


FLAG = Flag()
# In the order of the fields of envs.rules.Rules.
OPTIONS: tuple[Option, ...] = (
    Option("flowers", True, FLAG, "play with the 8 flowers (144 tiles); off: 136 tiles", (Slot("FLOWERS", 0),)),
    Option("dead_wall", 16, IntIn(0, 60), "tiles never drawn (八墩)", (Slot("DEAD_WALL", 1),)),
    Option("dead_wall_per_kong", False, FLAG, "the dead wall grows by one per kong", (Slot("DEAD_WALL_PER_KONG", 2),)),
    Option("multi_win", False, FLAG, "several seats may win on one discard (一炮多響)", (Slot("MULTI_WIN", 3),)),
    Option("strict_pass", False, FLAG, "過水 also blocks self-drawn wins until the next discard", (Slot("STRICT_PASS", 4),)),
    Option("no_calls_last3", True, FLAG, "3 or fewer drawable tiles: no chi, pon or exposed kong", (Slot("NO_CALLS_LAST3", 5),)),
    Option("no_kong_after_claim", True, FLAG, "after a chi or pon the seat must discard: no kong",
           (Slot("NO_KONG_AFTER_CLAIM", 6),)),
    Option("kong_replacement_self_draw", True, FLAG, "a self-draw win on the replacement after one's exposed kong",
           (Slot("KONG_REPLACEMENT_SELF_DRAW", 7),)),
    Option("swap_call", True, FLAG, "食替 allowed; off: after a chi, no discard of a tile the set could have been made with",
           (Slot("SWAP_CALL", 8),)),
    Option("declare_ready", False, FLAG, "報聽: the READY action (needs a profile with ready items)",
           (Slot("DECLARE_READY", 9),)),
    Option("west_draw", False, FLAG, "一路歸西: the first four discards all 西 make a drawn hand",
           (Slot("WEST_DRAW", 14),)),
    Option("streak_cap", None, IntIn(0, MAX_STREAK, null=True), "caps N in the dealer tai 1 + 2N (null: no cap)",
           (Slot("STREAK_CAP", 10, lambda v: -1 if v is None else v),)),
    Option("stakes", Stakes(), None, "base / per tai chips: {'base': B, 'per_tai': T} or 'B/T'",
           (Slot("BASE", 11, lambda s: s.base), Slot("PER_TAI", 12, lambda s: s.per_tai))),
    Option("episode", "hand", OneOf(EPISODES), "an episode is one hand or a whole game (一將)",
           (Slot("EPISODE_GAME", 13, lambda v: v == "game"),)),
    Option("extras", False, FLAG, "EXTRAS.md: the 特殊牌型 pack over standard / strict16 / casual"),
    Option("extras_off", (), None, "items of the extras pack left out"),
    Option("unrelated_gap", 3, OneOf((2, 3), "2 or 3"), "十六不搭: least distance of two tiles of a suit (EXTRAS.md 6.1)"),
    Option("count_method", 1, OneOf((1, 2), "1 or 2 (計法1 / 計法2)"), "hongkong 計法 (HONGKONG.md 2.2)", hongkong=True),
    Option("dual_reading", True, FLAG, "hongkong: n n n (n+1)x3 (n+2)x3 read as pons and as chows (HONGKONG.md 2.3)",
           hongkong=True),
    Option("settlement", "immediate", OneOf(SETTLEMENTS), "'la': the 拉 / 踢半 ledger across the hands of a game",
           (Slot("SETTLE_LA", 17, lambda v: v == "la"),)),
    Option("la_cut", 3, OneOf((3, "none"), "3 or 'none'"), "三局斬拉: the debtor may pay in full at k = 3, 6, ...; "
           "'none': never (無限拉)", (Slot("LA_CUT", 18, lambda v: 0 if v == "none" else v),)),
    Option("la_cut_policy", "always", OneOf(LA_CUT_POLICIES), "'ask': the env asks the debtor (WIN = cut, PASS = keep)",
           (Slot("LA_ASK", 19, lambda v: v == "ask"),)),
    Option("la_draw", "keep", OneOf(LA_DRAWS), "'settle': a drawn hand settles every open debt in full",
           (Slot("LA_DRAW_SETTLE", 20, lambda v: v == "settle"),)),
    Option("flower_win", "auto", OneOf(FLOWER_WINS), "'offer': 八仙過海 / 七搶一 are offered (WIN / PASS), not forced",
           (Slot("FLOWER_OFFER", 21, lambda v: v == "offer"),)),
    Option("dice_payments", False, FLAG, "圍骰 / 一二三 side payments (hongkong)", (Slot("DICE", 22),), hongkong=True),
    Option("dealer_pays_on_self_draw", False, FLAG, "hongkong: dealer tai on the dealer's leg of a non-dealer self-draw",
           (Slot("DEALER_PAYS_ON_SELF_DRAW", 15),), hongkong=True),
)  # fmt: skip
# Slots no option fills: Rules.as_array derives them.
DERIVED_SLOTS = (Slot("HK", 16),)  # the profile is a hongkong one: its engine rules (HONGKONG.md 1), side payments (4)

DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
HK_OPTIONS = tuple(o.name for o in OPTIONS if o.hongkong)
SLOTS = tuple(sorted([s for o in OPTIONS for s in o.slots] + list(DERIVED_SLOTS), key=lambda s: s.index))
N_OPTS = len(SLOTS)
if [s.index for s in SLOTS] != list(range(N_OPTS)):
    raise RuntimeError(f"envs.options: slot indices must be 0..{N_OPTS - 1}, each once: {[s.index for s in SLOTS]}")
# OPT_<slot> = its index, in index order (the names envs.rules and the native header carry)
globals().update({f"OPT_{s.name}": s.index for s in SLOTS})

__all__ = [f"OPT_{s.name}" for s in SLOTS] + [
    "N_OPTS", "EPISODES", "SETTLEMENTS", "LA_CUT_POLICIES", "LA_DRAWS", "FLOWER_WINS", "MAX_STAKE", "MAX_STREAK",
    "RulesError", "Stakes", "DEFAULTS", "HK_OPTIONS", "OPTIONS",
]  # fmt: skip
