"""Scoring cases (CASES.md): parse and validate one JSON case, score it, format the result.

``score_case(dict) -> dict`` never raises for a bad case: it answers ``{"id", "error"}`` naming the
problem, so that one bad line in a file does not stop the others.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from envs._core import score_hand, settle
from envs.engine.mask import native_rules
from envs.rules import MAX_STREAK, OPT_BASE, OPT_PER_TAI, Rules, RulesError
from envs.scoring import codes as C
from envs.scoring.errors import CaseError
from envs.scoring.hk_cases import check_hk_flags, hk_case_context
from envs.scoring.profile import ProfileError
from envs.tiles import (
    FLOWER0,
    MELD_ANKONG,
    N_KINDS,
    WIND_NAMES,
    Meld,
    NotationError,
    format_counts,
    kind_name,
    parse_flowers,
    parse_meld,
    parse_tiles,
)

CASE_FIELDS = {
    "id",
    "profile",
    "hand",
    "melds",
    "flowers",
    "win_tile",
    "win_by",
    "discarder",
    "seat",
    "dealer",
    "round",
    "streak",
    "flags",
    "rules",
    "stakes",
    "expected",
    "note",
    "replacement_chain",
    "liable",
    "co_winners",
    "discards",
    "floor",
}
HK_FIELDS = ("liable", "co_winners", "discards", "floor")  # HONGKONG.md 6


@dataclass
class Case:
    """A validated case in array form, ready for ``envs._core.score_hand``."""

    id: object
    rules: Rules
    concealed: np.ndarray  # int8[34], winning tile included
    meld_type: np.ndarray
    meld_kind: np.ndarray
    n_melds: int
    flowers: int  # bit mask
    win_tile: int
    win_by: int
    winner: int  # seat wind index; the dealer is E = 0
    payer: int  # -1: all three pay
    round_wind: int
    streak: int
    flags: int
    liable: int = -1  # hongkong 全包: the seat paying all three legs, or -1


def _wind(value, field: str) -> int:
    if not isinstance(value, str) or value not in WIND_NAMES or len(value) != 1:
        raise CaseError(f"{field} must be one of E S W N, got {value!r}")
    return WIND_NAMES.index(value)


def _rules(case: dict, profile_override: str | None) -> Rules:
    profile = profile_override or case.get("profile", "standard")
    if not isinstance(case.get("rules", {}), dict):
        raise CaseError("rules must be an object of rule options")
    opts = dict(case.get("rules") or {})
    if "stakes" in case:
        opts["stakes"] = case["stakes"]
    try:
        return Rules.make(profile, **opts)
    except (RulesError, ProfileError) as e:
        raise CaseError(str(e)) from None


def parse_case(case: dict, profile_override: str | None = None) -> Case:
    if not isinstance(case, dict):
        raise CaseError(f"a case must be a JSON object, got {type(case).__name__}")
    unknown = sorted(set(case) - CASE_FIELDS)
    if unknown:
        raise CaseError(f"unknown field(s) {unknown}")
    rules = _rules(case, profile_override)
    prof = rules.profile_data
    if case.get("dealer", "E") != "E":
        raise CaseError(f"dealer must be 'E' (seats are winds, the dealer is East), got {case['dealer']!r}")
    win_by_name = case.get("win_by")
    if win_by_name not in C.WIN_BY_NAMES:
        raise CaseError(f"win_by must be one of {', '.join(C.WIN_BY_NAMES)}, got {win_by_name!r}")
    win_by = C.WIN_BY_NAMES.index(win_by_name)
    winner = _wind(case.get("seat"), "seat")
    round_wind = _wind(case.get("round", "E"), "round")
    streak = case.get("streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= MAX_STREAK:
        raise CaseError(f"streak must be an integer in 0..{MAX_STREAK}, got {streak!r}")

    flags = 0
    raw_flags = case.get("flags") or []
    if not isinstance(raw_flags, list):
        raise CaseError("flags must be a list")
    for f in raw_flags:
        if f not in C.FLAG_NAMES:
            raise CaseError(f"unknown flag {f!r} (known: {', '.join(C.FLAG_NAMES)})")
        flags |= C.flag_bit(f)

    raw_melds = case.get("melds") or []
    if not isinstance(raw_melds, list):
        raise CaseError(f'melds must be a list like ["pon EEE"], got {raw_melds!r}')
    try:
        hand_kinds = parse_tiles(case.get("hand", ""))
        melds = [parse_meld(m) for m in raw_melds]
        flower_kinds = parse_flowers(case.get("flowers") or "")
        win_kinds = parse_tiles(case["win_tile"]) if case.get("win_tile") else []
    except NotationError as e:
        raise CaseError(str(e)) from None
    for k in hand_kinds:
        if k >= FLOWER0:
            raise CaseError(f"flower {kind_name(k)!r} in hand (flowers go in the flowers field)")
    if len(win_kinds) > 1 or any(k >= FLOWER0 for k in win_kinds):
        raise CaseError(f"win_tile must be one playing tile, got {case.get('win_tile')!r}")
    if len(melds) > 5:
        raise CaseError(f"{len(melds)} melds: a hand has at most five sets")
    win_tile = win_kinds[0] if win_kinds else -1

    concealed = np.zeros(N_KINDS, dtype=np.int8)
    for k in hand_kinds + win_kinds:
        concealed[k] += 1
    total = concealed.astype(np.int16)
    for m in melds:
        for k in m.kinds:
            total[k] += 1
    for k in range(N_KINDS):
        if total[k] > 4:
            raise CaseError(f"fifth copy of {kind_name(k)!r} (hand, melds and winning tile together)")

    n_sets = 5 - len(melds)
    n = len(hand_kinds) + len(win_kinds)
    heavenly = bool(flags & C.F_HEAVENLY)
    if win_by == C.WIN_FLOWERS:
        if win_tile >= 0:
            raise CaseError("a flower win has no win_tile")
        if n not in (3 * n_sets + 1, 3 * n_sets + 2):
            raise CaseError(
                f"{n} tiles in hand do not fit {len(melds)} meld(s): a flower win shows {3 * n_sets + 1} (or a complete {3 * n_sets + 2})"
            )
    else:
        if win_tile < 0 and not heavenly:
            raise CaseError("win_tile is missing (only heavenly and flower wins have none)")
        if n != 3 * n_sets + 2:
            raise CaseError(
                f"{n} tiles with the winning tile do not fit {len(melds)} meld(s): expected {3 * n_sets + 2}"
            )

    payer = -1
    disc = case.get("discarder")
    nf = len(flower_kinds)
    if win_by in (C.WIN_DISCARD, C.WIN_ROB_KONG) or (win_by == C.WIN_FLOWERS and nf == 7):
        if disc is None:
            raise CaseError(
                f"discarder is missing (needed for win_by {win_by_name}{' with seven flowers' if nf == 7 else ''})"
            )
        payer = _wind(disc, "discarder")
        if payer == winner:
            raise CaseError("discarder is the winner")
    if win_by == C.WIN_FLOWERS and nf < 7:
        raise CaseError(f"a flower win needs seven or eight flowers, got {nf}")

    hongkong = bool(prof.options.get("hongkong", False))
    if win_by != C.WIN_FLOWERS and nf == 8 and not hongkong:
        raise CaseError("eight flowers win at once (八仙過海): an ordinary win cannot hold all eight")
    if win_by == C.WIN_FLOWERS and nf == 7 and not rules.seven_flower_win:
        raise CaseError("seven flowers win (七搶一) but rule option seven_flower_win is false")
    _check_flags(flags, win_by, winner, melds, flower_kinds, prof)
    _check_timing(flags, win_by, winner, payer, melds, rules)
    chain = _replacement_chain(case, flags, melds, flower_kinds)
    flags |= chain << C.CHAIN_SHIFT
    liable = -1
    if hongkong:
        ctx, liable = hk_case_context(case, flags, chain, win_by, winner, payer, melds, concealed)
        flags |= ctx
    else:
        given = [f for f in HK_FIELDS if f in case]
        if given:
            raise CaseError(f"field(s) {given} are for the hongkong profile (HONGKONG.md 6), not {prof.name!r}")

    mt = np.zeros(5, dtype=np.int8)
    mk = np.zeros(5, dtype=np.int8)
    for i, m in enumerate(melds):
        mt[i], mk[i] = m.type, m.kind
    fmask = 0
    for k in flower_kinds:
        fmask |= 1 << (k - FLOWER0)
    return Case(
        case.get("id"),
        rules,
        concealed,
        mt,
        mk,
        len(melds),
        fmask,
        win_tile,
        win_by,
        winner,
        payer,
        round_wind,
        streak,
        flags,
        liable,
    )


def _replacement_chain(case: dict, flags: int, melds, flower_kinds) -> int:
    """EXTRAS.md 2.2 `replacement_chain`: consecutive replacement draws ending with the winning tile,
    each after a kong or a flower; 0 when absent (1 if a replacement flag is set)."""
    chain = case.get("replacement_chain")
    if chain is None:
        return 0
    if isinstance(chain, bool) or not isinstance(chain, int) or not 1 <= chain <= C.CHAIN_MASK:
        raise CaseError(f"replacement_chain must be an integer in 1..{C.CHAIN_MASK}, got {chain!r}")
    if not flags & (C.F_KONG_REPLACEMENT | C.F_FLOWER_REPLACEMENT):
        raise CaseError("replacement_chain without a kong_replacement or flower_replacement flag")
    links = sum(m.is_kong for m in melds) + len(flower_kinds)
    if chain > links:
        raise CaseError(f"replacement_chain {chain}: each link needs a kong or a flower, the hand shows {links}")
    return chain


def _check_flags(flags, win_by, winner, melds, flower_kinds, prof) -> None:
    """Refuse flags that cannot happen (CASES.md, last paragraph)."""
    self_drawn = win_by == C.WIN_SELF_DRAW
    if flags & C.F_KONG_REPLACEMENT and not any(m.is_kong for m in melds):
        raise CaseError("flag kong_replacement without a kong")
    if flags & C.F_FLOWER_REPLACEMENT and not flower_kinds:
        raise CaseError("flag flower_replacement without a flower")
    # CASES.md: a flower win (八仙過海 / 七搶一) counts as self-drawn for the replacement flags (seed 000
    # Ⅸ-29/30: the replacement may complete the hand, 槓上開花); they score only with a complete hand.
    if flags & (C.F_KONG_REPLACEMENT | C.F_FLOWER_REPLACEMENT) and not (self_drawn or win_by == C.WIN_FLOWERS):
        raise CaseError("a replacement flag on a win that was not self-drawn (nor a flower win)")
    if prof.options.get("hongkong", False):
        check_hk_flags(flags, win_by)
    else:
        for bit, name in (
            (C.F_IPPATSU, "ippatsu"),
            (C.F_ROB_KONG_CHAIN, "rob_kong_chain"),
            (C.F_ROBBED_ANKONG, "robbed_ankong"),
        ):
            if flags & bit:
                raise CaseError(f"flag {name} is for the hongkong profile (HONGKONG.md 6), not {prof.name!r}")
    if flags & C.F_LAST_TILE and win_by == C.WIN_ROB_KONG:
        raise CaseError("last_tile with rob_kong (no kong can be declared on the last tile)")
    if flags & C.F_LAST_TILE and win_by == C.WIN_FLOWERS:
        raise CaseError("last_tile with a flower win")
    for bit, key in (
        (C.F_HEAVENLY_READY, "heavenly_ready"),
        (C.F_EARTHLY_READY, "earthly_ready"),
        (C.F_DECLARED_READY, "declared_ready"),
        (C.F_SHOWN_READY, "shown_ready"),
    ):
        if flags & bit:
            if key not in prof.keys:
                raise CaseError(f"flag {key} but profile {prof.name!r} has no such item")
            concealed_only = key in ("heavenly_ready", "earthly_ready") or prof.name == "strict16"
            if concealed_only and any(m.type != MELD_ANKONG for m in melds):
                raise CaseError(
                    f"flag {key} with a chi, pon or kong meld (a declared 天聽 / 地聽 hand stays concealed)"
                )


def _check_timing(flags, win_by, winner, payer, melds, rules) -> None:
    """heavenly / earthly / human and heavenly_ready as the rule options time them (PROFILES.md,
    PLATFORMS.md 3.3 and 6); a case shows only the winner's tiles, so a meld of its own that would have
    ended the window is the cause a case can show, and it is refused."""
    self_drawn = win_by == C.WIN_SELF_DRAW
    special = [f for f in (C.F_HEAVENLY, C.F_EARTHLY, C.F_HUMAN) if flags & f]
    if len(special) > 1:
        raise CaseError("at most one of heavenly / earthly / human")
    if flags & C.F_HEAVENLY and (winner != 0 or not self_drawn or melds):
        raise CaseError("heavenly is only the dealer's (E) self-drawn hand with no meld")
    early = rules.early_wins
    claimed = any(m.type != MELD_ANKONG for m in melds)
    if early == "first_round":  # the first go-around: concealed kongs do not end it
        if flags & C.F_EARTHLY and (winner == 0 or claimed or not self_drawn):
            raise CaseError("earthly (early_wins first_round) is a non-dealer's self-draw with no chi, pon or kong")
        if flags & C.F_HUMAN and (claimed or win_by != C.WIN_DISCARD):
            raise CaseError("human (early_wins first_round) is a win on a discard with no chi, pon or kong")
    elif early == "dealer_discard":
        if flags & C.F_EARTHLY and (winner == 0 or melds or win_by != C.WIN_DISCARD or payer != 0):
            raise CaseError(
                "earthly (early_wins dealer_discard) is a non-dealer's win on the dealer's (E) first "
                "discard with no meld"
            )
        if flags & C.F_HUMAN and (winner == 0 or melds or win_by != C.WIN_DISCARD or payer == 0):
            raise CaseError(
                "human (early_wins dealer_discard) is a non-dealer's win on a discard not the dealer's, with no meld"
            )
    else:
        # PROFILES.md: earthly / human need that no seat has claimed or declared a kong (concealed ones
        # too) before the win.
        if flags & C.F_EARTHLY and (winner == 0 or melds or not self_drawn):
            raise CaseError("earthly is a non-dealer's self-drawn win with no meld")
        if flags & C.F_HUMAN and (winner == 0 or melds or win_by != C.WIN_DISCARD):
            raise CaseError("human is a non-dealer's win on a discard with no meld")
    if flags & C.F_HEAVENLY_READY and winner == 0 and rules.heavenly_ready_window == "deal":
        raise CaseError(
            "heavenly_ready is a non-dealer's declaration (the dealer's needs heavenly_ready_window "
            "dealer_first or migi)"
        )


def score_parsed(c: Case) -> dict:
    """Items, names, hand tai, dealer tai per leg and chip deltas of a validated case."""
    prof = c.rules.profile_data
    native = native_rules(c.rules)  # (built once per rules object)
    out = np.zeros(C.N_ITEMS, dtype=np.int32)
    hand_tai = score_hand(
        c.concealed,
        c.meld_type,
        c.meld_kind,
        c.n_melds,
        c.flowers,
        c.win_tile,
        c.win_by,
        c.winner,
        c.round_wind,
        c.flags,
        native,
        out,
    )
    if hand_tai < 0:
        kind = "a winning hand" if c.win_by != C.WIN_FLOWERS else "a complete hand or a 16-tile flower hand"
        raise CaseError(f"not {kind}: {describe_hand(c)}")
    opts = c.rules.as_array()
    deltas = np.zeros(4, dtype=np.int64)
    dealer_tai = np.zeros(4, dtype=np.int64)
    # The engine's own settlement (native/src/settle.cpp): the legs paid in full (HONGKONG.md 5.1), and
    # the dealer tai on each seat's leg. The case's seats are winds: the dealer is E (0).
    settle(
        hand_tai, c.win_by, c.winner, c.payer, 0, c.streak, native, deltas, liable=c.liable, out_dealer_tai=dealer_tai
    )
    order = {k: i for i, k in enumerate(prof.keys)}
    # A 0-tai item changes no payment and is not reported (as 屁胡 reports no item).
    held = sorted((k for i, k in enumerate(C.ITEM_KEYS) if out[i] != 0), key=order.get)
    return {
        "id": c.id,
        "profile": prof.name,
        "items": {k: int(out[C.ITEM_KEYS.index(k)]) for k in held},
        "names": {k: prof.zh(k) for k in held},
        "hand_tai": int(hand_tai),
        "dealer_tai": {WIND_NAMES[p]: int(dealer_tai[p]) for p in range(4)},
        "deltas": {WIND_NAMES[p]: int(deltas[p]) for p in range(4)},
        "stakes": {"base": int(opts[OPT_BASE]), "per_tai": int(opts[OPT_PER_TAI])},
    }


def score_case(case: dict, profile_override: str | None = None) -> dict:
    """Score one case; a bad case answers ``{"id": ..., "error": "..."}``."""
    cid = case.get("id") if isinstance(case, dict) else None
    try:
        return score_parsed(parse_case(case, profile_override))
    except (CaseError, RulesError, ProfileError, NotationError) as e:
        return {"id": cid, "error": str(e)}
    except (ValueError, TypeError, LookupError, ArithmeticError, OSError, RecursionError) as e:
        # a check this module missed: still one bad case, not the end of the file (CASES.md)
        return {"id": cid, "error": f"cannot score this case ({type(e).__name__}: {str(e)[:200]})"}


def check_result(result: dict, expected: dict) -> list[str]:
    """Differences between a result and a case's ``expected`` (empty list: it matches)."""
    if not isinstance(expected, dict):
        return [
            f'`expected` must be an object like {{"hand_tai": 3}}, got {json.dumps(expected, ensure_ascii=False)[:80]}'
        ]
    if expected.get("error"):
        return [] if "error" in result else [f"expected an error, got hand_tai {result.get('hand_tai')}"]
    if "error" in result:
        return [f"unexpected error: {result['error']}"]
    diffs = []
    for key in ("items", "hand_tai", "deltas"):
        if key in expected and expected[key] != result.get(key):
            diffs.append(
                f"{key}: expected {json.dumps(expected[key], ensure_ascii=False)}, got {json.dumps(result.get(key), ensure_ascii=False)}"
            )
    return diffs


def describe_hand(c: Case) -> str:
    parts = [format_counts(c.concealed)]
    parts += [str(Meld(int(c.meld_type[i]), int(c.meld_kind[i]))) for i in range(c.n_melds)]
    return " | ".join(p for p in parts if p)


__all__ = ["Case", "CaseError", "parse_case", "score_parsed", "score_case", "check_result", "describe_hand"]
