"""The legal action mask of the seat to decide (one game).

The functions run in the native core (native/src/mask.cpp; ``mask_rows`` is bound in ``envs._core``,
the per-seat helpers, which only the tests call, in ``envs._core._testing``), on one game's rows (``hands = S.hands[b]``,
``melds = S.melds[b]``, ``g = S.g[b]``, ``p = S.p[b]``) or one seat's (``h``, ``ms``, ``ps``), under
``rules``, the rules compiled once (``native_rules(rules)`` below, ``Engine.native``):

    mask_rows(mask, g, p, hands, melds, terminated, rules)   the legal actions of each game's seat to
                                 decide into mask (B, 76), for a batch of games
    held_all(h, ms, nm, k)       tiles of kind k a seat holds, in hand and in its nm melds
    is_ready_hand(h, ms, nm, rules)   does the (16 - 3 nm)-tile hand wait on some kind the seat
                                 does not hold all four of?
    ready_after_discard(h, ms, nm, d, rules)   is_ready_hand after discarding d
    is_concealed(ms, nm)         only concealed kongs among the melds
    can_declare_ready(g, ps, h, ms, rules, claimed=False)   READY on the seat's turn:
                                 天聽 / 地聽 while a ready window admits it (PLATFORMS.md 3.2; claimed:
                                 some seat has made a chi, pon or exposed kong this hand), 宣告聽牌
                                 (casual, concealed) or 報聽 (hongkong, any hand); never in the turn of
                                 a chi or pon
    turn_win_ok(g, ps, h, rules)   a self-drawn win is legal now
"""

from __future__ import annotations

import atexit
import functools
import weakref

import numpy as np

from envs.rules import Rules, is_hongkong

__all__ = ["engine_config", "native_rules"]

# The engine settings derived from the profile (cfg, int64 (N_CFG,)): engine_config builds them.
# cfg[CFG_READY_MODE]: which ready declarations the profile scores.
CFG_READY_MODE = 0
READY_NONE = 0
READY_HEAVEN_EARTH = 1  # 天聽 (PH_READY0) and 地聽 (with the seat's first discard): strict16
READY_DECLARED = 2  # 宣告聽牌 at any turn while concealed: casual
READY_HK = 3  # 報聽 at any turn, concealed or not; then the drawn tile is discarded unless it wins (hongkong)
CFG_HEAVENLY_ROW = 1  # the profile has the heavenly_ready row (PLATFORMS.md 3.2: which flag a declaration earns)
CFG_EARTHLY_ROW = 2  # the profile has the earthly_ready row
N_CFG = 3


def engine_config(rules: Rules) -> np.ndarray:
    """Engine settings derived from the profile (which ready declarations it scores)."""
    cfg = np.zeros(N_CFG, np.int64)
    keys = set(rules.profile_data.keys)
    if {"heavenly_ready", "earthly_ready"} & keys:
        cfg[CFG_READY_MODE] = READY_HEAVEN_EARTH
    elif {"declared_ready", "shown_ready"} & keys:
        cfg[CFG_READY_MODE] = READY_HK if is_hongkong(rules.profile_data) else READY_DECLARED
    else:
        cfg[CFG_READY_MODE] = READY_NONE
    cfg[CFG_HEAVENLY_ROW] = "heavenly_ready" in keys
    cfg[CFG_EARTHLY_ROW] = "earthly_ready" in keys
    return cfg


def native_rules(rules: Rules):
    """The rules compiled once for the core (``envs._core.Rules``: the options, engine_config and the
    compiled profile, copied and checked when built; native/include/tw16/rules.hpp): every binding
    that needs the rules takes it (the engine, search, encoders, scoring, settlement, mask and
    claims). Built once per rules value and kept on the rules object (Rules drops it when pickled: the
    native object stays in its process), so a call in a loop never builds it again, nor does a new
    but equal rules object (``tw16 score`` makes one per case). It is never written after it is
    built, so equal rules may share it."""
    native = rules.__dict__.get("_native")
    if native is None:
        try:
            hash(rules)
        except TypeError:  # (an option value that cannot be a key: built for this object alone)
            native = _build_native(rules)
        else:
            native = _native_of_value(rules)
        object.__setattr__(rules, "_native", native)
        _WITH_NATIVE[id(rules)] = rules
    return native


def _build_native(rules: Rules):
    p_tai, p_repl, p_opts = rules.profile_data.compiled()
    from envs._core import Rules as NativeRules  # (deferred: gen_constants reads this module before a build)

    return NativeRules(rules.as_array(), engine_config(rules), p_tai, p_repl, p_opts)


# The native rules of the last rules values (as envs.scoring.profile caches the compiled profiles).
_native_of_value = functools.lru_cache(maxsize=64)(_build_native)


# The rules objects that hold a native one: at exit they let it go, so that no native object is
# left for the interpreter's last teardown (nanobind reports those as leaks), whatever still holds
# the rules then (a cache, a test framework's records).
_WITH_NATIVE: weakref.WeakValueDictionary[int, Rules] = weakref.WeakValueDictionary()


@atexit.register
def _drop_natives() -> None:
    for rules in list(_WITH_NATIVE.values()):
        rules.__dict__.pop("_native", None)
    _native_of_value.cache_clear()
