"""The rules object: a profile plus the rule options of RULES.md section 5, validated and frozen.

A ``Rules`` is part of every log, replay and benchmark record (``to_dict`` / ``from_dict``). Compiled
code reads the options as an int64 array (``as_array``) indexed by the ``OPT_*`` constants below.
Options a profile sets in its ``[rules]`` table (for example ``declare_ready`` in ``strict16``) become
that profile's defaults; options given explicitly win.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

# Index of each option in the compiled array (append only: the layout is versioned with the engine).
OPT_FLOWERS = 0
OPT_DEAD_WALL = 1
OPT_DEAD_WALL_PER_KONG = 2
OPT_MULTI_WIN = 3
OPT_STRICT_PASS = 4
OPT_NO_CALLS_LAST3 = 5
OPT_NO_KONG_AFTER_CLAIM = 6
OPT_KONG_REPLACEMENT_SELF_DRAW = 7
OPT_SWAP_CALL = 8
OPT_DECLARE_READY = 9
OPT_STREAK_CAP = 10  # -1 = no cap
OPT_BASE = 11
OPT_PER_TAI = 12
OPT_EPISODE_GAME = 13
OPT_WEST_DRAW = 14
OPT_DEALER_PAYS_ON_SELF_DRAW = 15  # hongkong: dealer tai on the dealer's leg of a non-dealer self-draw
# hongkong settlement and engine rules (HONGKONG.md 1, 4, 5)
OPT_HK = 16  # derived: the profile is a hongkong one: its engine rules (HONGKONG.md 1) and side payments (4)
OPT_SETTLE_LA = 17  # settlement "la": legs enter the 拉 ledger (episode "game" only)
OPT_LA_CUT = 18  # 三局斬拉 period (3), 0 = never
OPT_LA_ASK = 19  # la_cut_policy "ask": the debtor chooses (PH_LA_CUT)
OPT_LA_DRAW_SETTLE = 20  # la_draw "settle": a drawn hand closes every open debt
OPT_FLOWER_OFFER = 21  # flower_win "offer": 八仙 / 七搶一 are asked (PH_FLOWER), not automatic
OPT_DICE = 22  # dice_payments: 圍骰 / 一二三 side payments
N_OPTS = 23

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


DEFAULTS: dict[str, Any] = {  # RULES.md 5
    "flowers": True,
    "dead_wall": 16,
    "dead_wall_per_kong": False,
    "multi_win": False,
    "strict_pass": False,
    "no_calls_last3": True,
    "no_kong_after_claim": True,
    "kong_replacement_self_draw": True,
    "swap_call": True,
    "declare_ready": False,
    "west_draw": False,
    "streak_cap": None,
    "stakes": Stakes(),
    "episode": "hand",
    "extras": False,  # EXTRAS.md: the 特殊牌型 pack over standard / strict16 / casual
    "extras_off": (),  # extras keys left out
    "unrelated_gap": 3,  # 十六不搭: least distance of two tiles of one suit (EXTRAS.md 6.1)
    # hongkong scoring (HONGKONG.md 1, 2.2, 2.3); refused with other profiles when not at the default
    "count_method": 1,  # 計法 1 or 2
    "dual_reading": True,  # n n n (n+1)x3 (n+2)x3 read as pons and as chows at once
    "dealer_pays_on_self_draw": False,
    # hongkong settlement (HONGKONG.md 1, 4, 5); the profile's [rules] sets la, offer and dice
    "settlement": "immediate",  # "la": 拉 / 踢半 ledger across the hands of a game
    "la_cut": 3,  # 三局斬拉: the debtor may pay in full when k reaches 3, 6, ...; "none": never (無限拉)
    "la_cut_policy": "always",  # "ask": the env asks the debtor (WIN = cut, PASS = keep)
    "la_draw": "keep",  # "settle": a drawn hand settles every open debt in full
    "flower_win": "auto",  # "offer": 八仙過海 / 七搶一 are offered (WIN / PASS), not forced
    "dice_payments": False,  # 圍骰 / 一二三 (hongkong only)
}
HK_OPTIONS = ("count_method", "dual_reading", "dealer_pays_on_self_draw", "dice_payments")

_BOOL_OPTIONS = (
    "flowers",
    "dead_wall_per_kong",
    "multi_win",
    "strict_pass",
    "no_calls_last3",
    "no_kong_after_claim",
    "kong_replacement_self_draw",
    "swap_call",
    "declare_ready",
    "west_draw",
    "extras",
    "dual_reading",
    "dice_payments",
    "dealer_pays_on_self_draw",
)
_CHOICES = {"episode": EPISODES, "settlement": SETTLEMENTS, "la_cut_policy": LA_CUT_POLICIES, "la_draw": LA_DRAWS,
            "flower_win": FLOWER_WINS}


@dataclass(frozen=True)
class Rules:
    """Profile + options. ``Rules()`` is the default game; ``Rules(profile="strict16", multi_win=True)``."""

    profile: str = "standard"
    flowers: bool | None = None
    dead_wall: int | None = None
    dead_wall_per_kong: bool | None = None
    multi_win: bool | None = None
    strict_pass: bool | None = None
    no_calls_last3: bool | None = None
    no_kong_after_claim: bool | None = None
    kong_replacement_self_draw: bool | None = None
    swap_call: bool | None = None
    declare_ready: bool | None = None
    west_draw: bool | None = None  # 一路歸西: first four discards all 西 -> drawn hand (casual)
    streak_cap: int | None = None
    stakes: Stakes | dict | str | None = None
    episode: str | None = None
    extras: bool | None = None
    extras_off: tuple[str, ...] | list | None = None
    unrelated_gap: int | None = None
    count_method: int | None = None
    dual_reading: bool | None = None
    settlement: str | None = None
    la_cut: int | str | None = None
    la_cut_policy: str | None = None
    la_draw: str | None = None
    flower_win: str | None = None
    dice_payments: bool | None = None
    dealer_pays_on_self_draw: bool | None = None

    def __post_init__(self):
        # Options left as None take the profile's [rules] defaults, then the defaults of RULES.md 5.
        if not isinstance(self.profile, str) or not self.profile:
            raise RulesError(f"profile must be a name or a path, got {self.profile!r}")
        from envs.scoring.profile import load_profile

        prof = load_profile(self.profile)  # loads and validates the profile (names an unknown one)
        explicit_off = self.extras_off is not None
        for name, default in DEFAULTS.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, prof.rule_defaults.get(name, default))
        if not isinstance(self.stakes, Stakes):
            object.__setattr__(self, "stakes", _parse_stakes(self.stakes))
        for name in _BOOL_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rule option {name!r} must be true or false, got {getattr(self, name)!r}")
        if isinstance(self.dead_wall, bool) or not isinstance(self.dead_wall, int) or not 0 <= self.dead_wall <= 60:
            raise RulesError(f"rule option 'dead_wall' must be an integer in 0..60, got {self.dead_wall!r}")
        if self.streak_cap is not None and (
            isinstance(self.streak_cap, bool) or not isinstance(self.streak_cap, int) or not 0 <= self.streak_cap <= MAX_STREAK
        ):
            raise RulesError(f"rule option 'streak_cap' must be null or an integer in 0..{MAX_STREAK}, got {self.streak_cap!r}")
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise RulesError(f"rule option {name!r} must be one of {choices}, got {getattr(self, name)!r}")
        self._check_la()
        self._check_extras(prof, explicit_off)
        self._check_hongkong(prof)
        prof = self.profile_data
        if self.declare_ready and not prof.has_ready_items:
            raise RulesError(f"rule option 'declare_ready' needs a profile with ready items; {prof.name!r} has none")

    def _check_la(self) -> None:
        # la_cut: 3 (三局斬拉) or "none" (無限拉; None would mean "the default")
        if self.la_cut != "none" and (isinstance(self.la_cut, bool) or self.la_cut != 3):
            raise RulesError(f"rule option 'la_cut' must be 3 or 'none', got {self.la_cut!r}")

    def _check_extras(self, prof, explicit_off: bool) -> None:
        from envs.scoring.profile import load_pack

        off = self.extras_off
        if isinstance(off, str) or not isinstance(off, (list, tuple)) or not all(isinstance(k, str) for k in off):
            raise RulesError(f"rule option 'extras_off' must be a list of item keys, got {off!r}")
        pack_keys = {it.key for it in load_pack("extras").items}
        bad = sorted(set(off) - pack_keys)
        if bad:
            raise RulesError(f"rule option 'extras_off' names {bad}, not items of the extras pack (EXTRAS.md 2)")
        if off and not self.extras:
            if explicit_off:
                raise RulesError("rule option 'extras_off' needs extras = true")
            off = ()  # the profile's default list, for a game played without the pack
        object.__setattr__(self, "extras_off", tuple(sorted(set(off))))
        if self.extras and prof.name == "hongkong":
            raise RulesError("rule option 'extras' is for standard, strict16 and casual; hongkong has its own patterns")
        gap = self.unrelated_gap
        if isinstance(gap, bool) or gap not in (2, 3):
            raise RulesError(f"rule option 'unrelated_gap' must be 2 or 3, got {gap!r}")

    def _check_hongkong(self, prof) -> None:
        if isinstance(self.count_method, bool) or self.count_method not in (1, 2):
            raise RulesError(f"rule option 'count_method' must be 1 or 2 (計法1 / 計法2), got {self.count_method!r}")
        if not prof.options.get("hongkong", False):
            for name in HK_OPTIONS:
                if getattr(self, name) != DEFAULTS[name]:
                    raise RulesError(f"rule option {name!r} is for the hongkong profile; {prof.name!r} does not use it")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def make(cls, profile: str = "standard", **options: Any) -> "Rules":
        """Build from plain values, naming any unknown option (``Rules(...)`` raises TypeError)."""
        for name in options:
            if name not in DEFAULTS:
                raise RulesError(f"unknown rule option {name!r} (known: {', '.join(sorted(DEFAULTS))})")
        return cls(profile=profile, **options)

    @classmethod
    def from_dict(cls, d: dict) -> "Rules":
        if not isinstance(d, dict):
            raise RulesError(f"rules must be a JSON object, got {d!r}")
        d = dict(d)
        return cls.make(d.pop("profile", "standard"), **d)

    def replace(self, **options: Any) -> "Rules":
        d = self.to_dict()
        d.update(options)
        return Rules.from_dict(d)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["stakes"] = {"base": self.stakes.base, "per_tai": self.stakes.per_tai}
        d["extras_off"] = list(self.extras_off)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    # -- compiled views -----------------------------------------------------------------------
    @property
    def profile_data(self):
        """The effective profile: the base profile with the extras pack when ``extras`` is on (cached,
        so its compiled arrays are built once per setting)."""
        from envs.scoring.profile import effective_profile

        return effective_profile(self.profile, self.extras, self.extras_off, self.unrelated_gap, self.count_method,
                                 self.dual_reading)

    def as_array(self) -> np.ndarray:
        a = np.zeros(N_OPTS, dtype=np.int64)
        a[OPT_FLOWERS] = self.flowers
        a[OPT_DEAD_WALL] = self.dead_wall
        a[OPT_DEAD_WALL_PER_KONG] = self.dead_wall_per_kong
        a[OPT_MULTI_WIN] = self.multi_win
        a[OPT_STRICT_PASS] = self.strict_pass
        a[OPT_NO_CALLS_LAST3] = self.no_calls_last3
        a[OPT_NO_KONG_AFTER_CLAIM] = self.no_kong_after_claim
        a[OPT_KONG_REPLACEMENT_SELF_DRAW] = self.kong_replacement_self_draw
        a[OPT_SWAP_CALL] = self.swap_call
        a[OPT_DECLARE_READY] = self.declare_ready
        a[OPT_STREAK_CAP] = -1 if self.streak_cap is None else self.streak_cap
        a[OPT_BASE] = self.stakes.base
        a[OPT_PER_TAI] = self.stakes.per_tai
        a[OPT_EPISODE_GAME] = self.episode == "game"
        a[OPT_WEST_DRAW] = self.west_draw
        a[OPT_DEALER_PAYS_ON_SELF_DRAW] = self.dealer_pays_on_self_draw
        a[OPT_HK] = is_hongkong(self.profile_data)
        a[OPT_SETTLE_LA] = self.settlement == "la"
        a[OPT_LA_CUT] = 0 if self.la_cut == "none" else self.la_cut
        a[OPT_LA_ASK] = self.la_cut_policy == "ask"
        a[OPT_LA_DRAW_SETTLE] = self.la_draw == "settle"
        a[OPT_FLOWER_OFFER] = self.flower_win == "offer"
        a[OPT_DICE] = self.dice_payments
        return a


def is_hongkong(prof) -> bool:
    """A hongkong profile (``[options] hongkong``, HONGKONG.md): its engine rules (過水, 報聽, 搶槓, 全包,
    dealer tai, side payments) go with its scoring."""
    return bool(prof.options.get("hongkong", False))


def _parse_stakes(v: Any) -> Stakes:
    if isinstance(v, str) and "/" in v:  # "30/10"
        try:
            base, per = (int(x) for x in v.split("/"))
        except ValueError:
            raise RulesError(f"stakes must look like '30/10', got {v!r}") from None
        return Stakes(base, per)
    if isinstance(v, dict):
        unknown = set(v) - {"base", "per_tai"}
        if unknown:
            raise RulesError(f"unknown stakes field(s) {sorted(unknown)} (known: base, per_tai)")
        return Stakes(**v)
    raise RulesError(f"stakes must be {{'base': .., 'per_tai': ..}} or 'B/T', got {v!r}")
