"""The rules object: a profile plus the rule options of RULES.md section 5, validated and frozen.

A ``Rules`` is part of every log, replay and benchmark record (``to_dict`` / ``from_dict``). Compiled
code reads the options as an int64 array (``as_array``) indexed by the ``OPT_*`` constants, generated
with the defaults and value checks from the option table of ``envs.options``.
Options a profile sets in its ``[rules]`` table (for example ``declare_ready`` in ``strict16``) become
that profile's defaults; options given explicitly win.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

# The option table and what it generates (OPT_* slots, N_OPTS, DEFAULTS, HK_OPTIONS, RulesError, Stakes):
# re-exported here, where the engine, the scorer and tools/gen_constants.py read them.
from envs.options import *  # noqa: F403
from envs.options import DEFAULTS, HK_OPTIONS, N_OPTS, OPT_HK, OPTIONS, RulesError, Stakes


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
    rob_kong: bool | None = None  # 搶槓 (RULES.md 2.6); the olympiad profile turns it off
    special_wins: bool | None = None  # shapes beyond five sets and a pair; off in the olympiad profile
    seven_flower_win: bool | None = None
    heavenly_ready_window: str | None = None
    earthly_ready_window: str | None = None
    early_wins: str | None = None

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
        for opt in OPTIONS:
            v = getattr(self, opt.name)
            if opt.values is not None and not opt.values.ok(v):
                raise RulesError(f"rule option {opt.name!r} must be {opt.values.text}, got {v!r}")
        self._check_extras(prof, explicit_off)
        self._check_hongkong(prof)
        if self.settlement == "win_lose" and is_hongkong(prof):
            raise RulesError(
                "rule option 'settlement' = 'win_lose' is not for the hongkong profile (its side payments "
                "and 全包 are settlements of their own)"
            )
        prof = self.profile_data
        if self.declare_ready and not prof.has_ready_items:
            raise RulesError(f"rule option 'declare_ready' needs a profile with ready items; {prof.name!r} has none")
        self._check_windows(prof)

    def _check_windows(self, prof) -> None:
        """A ready window other than its default needs declare_ready and the profile's row (PLATFORMS.md 3)."""
        for name, row in (("heavenly_ready_window", "heavenly_ready"), ("earthly_ready_window", "earthly_ready")):
            if getattr(self, name) == DEFAULTS[name]:
                continue
            if not self.declare_ready:
                raise RulesError(f"rule option {name!r} needs declare_ready = true")
            if row not in prof.keys:
                raise RulesError(f"rule option {name!r} needs a profile with the {row} row; {prof.name!r} has none")

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

    def _check_hongkong(self, prof) -> None:
        if not prof.options.get("hongkong", False):
            for name in HK_OPTIONS:
                if getattr(self, name) != DEFAULTS[name]:
                    raise RulesError(f"rule option {name!r} is for the hongkong profile; {prof.name!r} does not use it")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def make(cls, profile: str = "standard", **options: Any) -> Rules:
        """Build from plain values, naming any unknown option (``Rules(...)`` raises TypeError)."""
        for name in options:
            if name not in DEFAULTS:
                raise RulesError(f"unknown rule option {name!r} (known: {', '.join(sorted(DEFAULTS))})")
        return cls(profile=profile, **options)

    @classmethod
    def from_dict(cls, d: dict) -> Rules:
        if not isinstance(d, dict):
            raise RulesError(f"rules must be a JSON object, got {d!r}")
        d = dict(d)
        return cls.make(d.pop("profile", "standard"), **d)

    def replace(self, **options: Any) -> Rules:
        d = self.to_dict()
        d.update(options)
        return Rules.from_dict(d)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["stakes"] = {"base": self.stakes.base, "per_tai": self.stakes.per_tai}
        d["extras_off"] = list(self.extras_off)
        # options marked omit_at_default are left out at the value the profile gives them (from_dict
        # restores it), so records written before they existed read the same
        prof = None
        for opt in OPTIONS:
            if opt.omit_at_default:
                if prof is None:
                    from envs.scoring.profile import load_profile

                    prof = load_profile(self.profile)
                if d[opt.name] == prof.rule_defaults.get(opt.name, DEFAULTS[opt.name]):
                    del d[opt.name]
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    def __getstate__(self):
        # (without the native rules envs.engine.mask.native_rules keeps on it: a native object
        # stays in the process that built it)
        return {k: v for k, v in self.__dict__.items() if k != "_native"}

    # -- compiled views -----------------------------------------------------------------------
    @property
    def profile_data(self):
        """The effective profile: the base profile with the extras pack when ``extras`` is on, without
        its special winning shapes when ``special_wins`` is off (cached, so its compiled arrays are
        built once per setting)."""
        from envs.scoring.profile import effective_profile

        return effective_profile(
            self.profile,
            self.extras,
            self.extras_off,
            self.unrelated_gap,
            self.count_method,
            self.dual_reading,
            self.special_wins,
        )

    def as_array(self) -> np.ndarray:
        """The options as int64 (N_OPTS,), slot OPT_* of each (the table of envs.options)."""
        a = np.zeros(N_OPTS, dtype=np.int64)
        for opt in OPTIONS:
            v = getattr(self, opt.name)
            for slot in opt.slots:
                a[slot.index] = slot.encode(v)
        a[OPT_HK] = is_hongkong(self.profile_data)
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
