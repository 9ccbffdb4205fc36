"""The rule options (RULES.md 5, EXTRAS.md, HONGKONG.md 1-5) as one table: :data:`OPTIONS`.

Each row names an option, its default, the values it takes, the slot(s) it fills in the compiled
option array and what it does. Everything else is generated from the table: the ``OPT_*`` slot
indices and ``N_OPTS`` (read by the native core through tools/gen_constants.py, by way of
``envs.rules``), ``DEFAULTS``, ``HK_OPTIONS``, the value checks of ``envs.rules.Rules`` and
``Rules.as_array``. Adding an option is adding a row (and a field of ``Rules``; tests/test_rules.py
checks that the two agree). Slots are append only: the array layout is versioned with the engine.

This module sits below ``envs.rules`` and ``envs.scoring.profile`` (which both read it), so that
neither imports the other for the option names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

EPISODES = ("hand", "game")
SETTLEMENTS = ("immediate", "la", "win_lose")
LA_CUT_POLICIES = ("always", "ask")
LA_DRAWS = ("keep", "settle")
FLOWER_WINS = ("auto", "offer")
# PLATFORMS.md 3: when a declared ready hand is 天聽 / 地聽, and how 地胡 / 人胡 are timed.
HEAVENLY_READY_WINDOWS = ("deal", "dealer_first", "migi")
EARTHLY_READY_WINDOWS = ("first_discard", "migi")
EARLY_WINS = ("standard", "dealer_discard", "first_round")
MIGI_DISCARDS = 8  # the migi window: at most this many discards in the hand, the declaring one included
# The values' codes in the compiled array (their index in the tuples above), read by the native core.
HRW_DEALER_FIRST = HEAVENLY_READY_WINDOWS.index("dealer_first")
HRW_MIGI = HEAVENLY_READY_WINDOWS.index("migi")
ERW_MIGI = EARTHLY_READY_WINDOWS.index("migi")
EW_STANDARD = EARLY_WINS.index("standard")
EW_DEALER_DISCARD = EARLY_WINS.index("dealer_discard")
EW_FIRST_ROUND = EARLY_WINS.index("first_round")
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
    # Left out of Rules.to_dict() while at the default that the rules' profile gives it (from_dict then
    # restores it): the options added after records (logs, golden playthroughs, benchmark and eval
    # records) were first written, so that those records of unchanged games stay byte-identical.
    omit_at_default: bool = False


FLAG = Flag()
# In the order of the fields of envs.rules.Rules.
OPTIONS: tuple[Option, ...] = (
    Option(
        "flowers",
        True,
        FLAG,
        "play with the 8 flowers (144 tiles); `False`: 136 tiles, no flower items",
        (Slot("FLOWERS", 0),),
    ),
    Option(
        "dead_wall",
        16,
        IntIn(0, 60),
        "tiles never drawn (八墩, 0..60); when a draw would cut into them the hand is drawn (流局) after the last "
        "discard was offered for a win",
        (Slot("DEAD_WALL", 1),),
    ),
    Option("dead_wall_per_kong", False, FLAG, "the dead wall grows by one per kong", (Slot("DEAD_WALL_PER_KONG", 2),)),
    Option(
        "multi_win",
        False,
        FLAG,
        "several seats may win on one discard (一炮多響); off: only the nearest counter-clockwise wins (截胡)",
        (Slot("MULTI_WIN", 3),),
    ),
    Option(
        "strict_pass",
        False,
        FLAG,
        "過水 also blocks the seat's self-drawn wins until its next discard (off: only wins on discards until its "
        "next draw)",
        (Slot("STRICT_PASS", 4),),
    ),
    Option(
        "no_calls_last3",
        True,
        FLAG,
        "with 3 or fewer drawable tiles no chi, pon or exposed kong (wins and self kongs still allowed)",
        (Slot("NO_CALLS_LAST3", 5),),
    ),
    Option(
        "no_kong_after_claim",
        True,
        FLAG,
        "after a chi or pon the seat must discard: no kong in that turn",
        (Slot("NO_KONG_AFTER_CLAIM", 6),),
    ),
    Option(
        "kong_replacement_self_draw",
        True,
        FLAG,
        "a seat may win by self-draw on the replacement tile drawn after its exposed kong (明槓); `False` forbids "
        "that win (concealed and added kongs are not affected)",
        (Slot("KONG_REPLACEMENT_SELF_DRAW", 7),),
    ),
    Option(
        "swap_call",
        True,
        FLAG,
        "食替 allowed; `False` forbids discarding, after a chi, a tile the claimed set could have been made with "
        "(Hong Kong style)",
        (Slot("SWAP_CALL", 8),),
    ),
    Option(
        "declare_ready",
        False,
        FLAG,
        "enables the `READY` action (報聽) in profiles with ready items (天聽 / 地聽, 宣告聽牌); an error with a profile "
        "that has none",
        (Slot("DECLARE_READY", 9),),
    ),
    Option(
        "west_draw",
        False,
        FLAG,
        "一路歸西: the first four discards all 西 make the hand drawn",
        (Slot("WEST_DRAW", 14),),
    ),
    Option(
        "streak_cap",
        None,
        IntIn(0, MAX_STREAK, null=True),
        "caps N in the dealer tai 1 + 2N (`None`: no cap)",
        (Slot("STREAK_CAP", 10, lambda v: -1 if v is None else v),),
    ),
    Option(
        "stakes",
        Stakes(),
        None,
        'base / per_tai chips (`{"base": 30, "per_tai": 10}` or `"B/T"`); rewards in tai units divide by per_tai',
        (Slot("BASE", 11, lambda s: s.base), Slot("PER_TAI", 12, lambda s: s.per_tai)),
    ),
    Option(
        "episode",
        "hand",
        OneOf(EPISODES),
        '`"hand"`: one hand per episode; `"game"`: a whole 一將 (four prevailing winds, dealer rotation, streaks, '
        "cumulative chips)",
        (Slot("EPISODE_GAME", 13, lambda v: v == "game"),),
    ),
    Option("extras", False, FLAG, "append the 特殊牌型 pack (EXTRAS.md) to the profile (not with `hongkong`)"),
    Option("extras_off", (), None, "pack item keys left out (needs `extras`)"),
    Option(
        "unrelated_gap",
        3,
        OneOf((2, 3), "2 or 3"),
        "十六不搭: least distance of two tiles of one suit (2 or 3; EXTRAS.md 6.1)",
    ),
    Option(
        "count_method",
        1,
        OneOf((1, 2), "1 or 2 (計法1 / 計法2)"),
        "hongkong only: 計法1 (a set serves one occurrence of an item or family) or 計法2 (occurrences of one item may"
        " share sets) (HONGKONG.md 2.2)",
        hongkong=True,
    ),
    Option(
        "dual_reading",
        True,
        FLAG,
        "hongkong only: n n n (n+1)×3 (n+2)×3 concealed counts as three pons and three identical chows at once "
        "(HONGKONG.md 2.3)",
        hongkong=True,
    ),
    Option(
        "settlement",
        "immediate",
        OneOf(SETTLEMENTS),
        '`"la"`: in a game (`episode="game"`) legs enter the 拉 ledger (HONGKONG.md 5.2: 拉, 踢半, full payment, new '
        "debt) and the reward is the chips actually paid; every open debt is paid at the end of the game. With "
        '`episode="hand"` legs are paid at once. `"win_lose"` (the Olympiad events): every leg pays one point, '
        "`per_tai` chips, whatever the tai (self-draw +3 / -1 each, discard +1 / -1 the discarder, drawn 0; no "
        "dealer tai; not with `hongkong`)",
        (Slot("SETTLE_LA", 17, lambda v: v == "la"), Slot("SETTLE_WIN_LOSE", 24, lambda v: v == "win_lose")),
    ),
    Option(
        "la_cut",
        3,
        OneOf((3, "none"), "3 or 'none'"),
        '三局斬拉: a debt may be paid in full when its k reaches 3, 6, ...; `"none"`: never (無限拉)',
        (Slot("LA_CUT", 18, lambda v: 0 if v == "none" else v),),
    ),
    Option(
        "la_cut_policy",
        "always",
        OneOf(LA_CUT_POLICIES),
        '`"ask"`: the debtor answers in `PH_LA_CUT` (`WIN` cut / `PASS` keep)',
        (Slot("LA_ASK", 19, lambda v: v == "ask"),),
    ),
    Option(
        "la_draw",
        "keep",
        OneOf(LA_DRAWS),
        '`"settle"`: a drawn hand pays every open debt in full',
        (Slot("LA_DRAW_SETTLE", 20, lambda v: v == "settle"),),
    ),
    Option(
        "flower_win",
        "auto",
        OneOf(FLOWER_WINS),
        '`"offer"`: 八仙過海 / 七搶一 are asked in `PH_FLOWER`, not forced',
        (Slot("FLOWER_OFFER", 21, lambda v: v == "offer"),),
    ),
    Option(
        "dice_payments",
        False,
        FLAG,
        "hongkong only: the dealer's three dice each hand (圍骰 each pays the dealer 1 底, 1-2-3 the dealer pays each"
        " 1 底)",
        (Slot("DICE", 22),),
        hongkong=True,
    ),
    Option(
        "dealer_pays_on_self_draw",
        False,
        FLAG,
        "hongkong only: dealer tai also on the dealer's leg of a non-dealer's self-draw (HONGKONG.md 1)",
        (Slot("DEALER_PAYS_ON_SELF_DRAW", 15),),
        hongkong=True,
    ),
    Option(
        "rob_kong",
        True,
        FLAG,
        "搶槓: a seat that could win on the tile of an added kong may rob it (RULES.md 2.6; hongkong: also a 十三么 on "
        "a concealed kong); `False`: no kong is ever robbed, the kong stands and its replacement is drawn",
        (Slot("ROB_KONG", 23),),
    ),
    Option(
        "special_wins",
        True,
        FLAG,
        "the winning shapes beyond five sets and a pair that the profile or the extras pack names (嚦咕嚦咕, 十三么, "
        "十六不搭) are wins; `False`: five sets and a pair only, whatever the profile names (the effective profile "
        "has no shapes, so engine, mask and scorer all refuse them)",
    ),
    # PLATFORMS.md 3 (the platform profiles; slots from 25, append only)
    Option(
        "seven_flower_win",
        True,
        FLAG,
        "七搶一胡牌: `False`: seven flowers while another seat holds the eighth is no win (nothing offered, play "
        "goes on; the flowers score like any others in a later win)",
        (Slot("SEVEN_FLOWER_WIN", 25),),
        omit_at_default=True,
    ),
    Option(
        "heavenly_ready_window",
        "deal",
        OneOf(HEAVENLY_READY_WINDOWS),
        '天聽時機: which declarations earn heavenly_ready: `"deal"` a non-dealer\'s right after the initial flowers; '
        '`"dealer_first"` also the dealer\'s with its first discard; `"migi"` any made before a chi, pon or '
        "exposed kong within the first 8 discards (needs `declare_ready` and a heavenly_ready row)",
        (Slot("HEAVENLY_READY_WINDOW", 26, HEAVENLY_READY_WINDOWS.index),),
        omit_at_default=True,
    ),
    Option(
        "earthly_ready_window",
        "first_discard",
        OneOf(EARTHLY_READY_WINDOWS),
        '地聽時機: which declarations earn earthly_ready: `"first_discard"` with the seat\'s own first discard (the '
        'dealer\'s second when the heavenly window is `dealer_first`); `"migi"` any made before a chi, pon or '
        "exposed kong within the first 8 discards (needs `declare_ready` and an earthly_ready row)",
        (Slot("EARTHLY_READY_WINDOW", 27, EARTHLY_READY_WINDOWS.index),),
        omit_at_default=True,
    ),
    Option(
        "early_wins",
        "standard",
        OneOf(EARLY_WINS),
        "地胡人胡定義: `\"dealer_discard\"`: 地胡 is a non-dealer's win on the dealer's first discard; "
        "`\"first_round\"`: 地胡 a non-dealer's self-draw and 人胡 any seat's win on a discard in the first "
        "go-around (the first four discards, before any chi, pon or exposed kong)",
        (Slot("EARLY_WINS", 28, EARLY_WINS.index),),
        omit_at_default=True,
    ),
)
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
    "N_OPTS",
    "EPISODES",
    "SETTLEMENTS",
    "LA_CUT_POLICIES",
    "LA_DRAWS",
    "FLOWER_WINS",
    "MAX_STAKE",
    "MAX_STREAK",
    "HEAVENLY_READY_WINDOWS",
    "EARTHLY_READY_WINDOWS",
    "EARLY_WINS",
    "MIGI_DISCARDS",
    "HRW_DEALER_FIRST",
    "HRW_MIGI",
    "ERW_MIGI",
    "EW_STANDARD",
    "EW_DEALER_DISCARD",
    "EW_FIRST_ROUND",
    "RulesError",
    "Stakes",
    "DEFAULTS",
    "HK_OPTIONS",
    "OPTIONS",
]
