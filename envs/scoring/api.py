"""Python front of the scoring core (``envs._core``): score a parsed case, or a hand given in notation.

    >>> from envs.scoring.api import score
    >>> r = score("456m 789m 234p 567s N", melds=["chi 123m"], win_tile="N", win_by="discard",
    ...           discarder="W", seat="S")
    >>> r["items"], r["deltas"]
    ({'single_wait': 1}, {'E': 0, 'S': 40, 'W': -40, 'N': 0})
"""

from __future__ import annotations

import numpy as np

from envs._core import score_hand, settle
from envs.rules import OPT_BASE, OPT_PER_TAI
from envs.scoring.cases import Case, CaseError, describe_hand, parse_case
from envs.scoring.codes import ITEM_KEYS, N_ITEMS, WIN_FLOWERS
from envs.tiles import WIND_NAMES


def score_parsed(c: Case) -> dict:
    """Items, names, hand tai, dealer tai per leg and chip deltas of a validated case."""
    prof = c.rules.profile_data
    p_tai, p_repl, p_opts = prof.compiled()
    out = np.zeros(N_ITEMS, dtype=np.int32)
    hand_tai = score_hand(c.concealed, c.meld_type, c.meld_kind, c.n_melds, c.flowers, c.win_tile, c.win_by,
                          c.winner, c.round_wind, c.flags, p_tai, p_repl, p_opts, out)  # fmt: skip
    if hand_tai < 0:
        kind = "a winning hand" if c.win_by != WIN_FLOWERS else "a complete hand or a 16-tile flower hand"
        raise CaseError(f"not {kind}: {describe_hand(c)}")
    opts = c.rules.as_array()
    deltas = np.zeros(4, dtype=np.int64)
    dealer_tai = np.zeros(4, dtype=np.int64)
    # The engine's own settlement (native/src/settle.cpp): the legs paid in full (HONGKONG.md 5.1), and
    # the dealer tai on each seat's leg. The case's seats are winds: the dealer is E (0).
    settle(hand_tai, c.win_by, c.winner, c.payer, 0, c.streak, opts, deltas, liable=c.liable, out_dealer_tai=dealer_tai)
    order = {k: i for i, k in enumerate(prof.keys)}
    # A 0-tai item changes no payment and is not reported (as 屁胡 reports no item).
    held = sorted((k for i, k in enumerate(ITEM_KEYS) if out[i] != 0), key=order.get)
    return {
        "id": c.id,
        "profile": prof.name,
        "items": {k: int(out[ITEM_KEYS.index(k)]) for k in held},
        "names": {k: prof.zh(k) for k in held},
        "hand_tai": int(hand_tai),
        "dealer_tai": {WIND_NAMES[p]: int(dealer_tai[p]) for p in range(4)},
        "deltas": {WIND_NAMES[p]: int(deltas[p]) for p in range(4)},
        "stakes": {"base": int(opts[OPT_BASE]), "per_tai": int(opts[OPT_PER_TAI])},
    }


def score(hand: str, *, melds=(), flowers: str = "", win_tile: str | None = None, win_by: str = "discard",
          discarder: str | None = None, seat: str = "E", round: str = "E", streak: int = 0, flags=(),
          profile: str = "standard", rules: dict | None = None, stakes: dict | None = None, **fields) -> dict:  # fmt: skip
    """Score a hand given in notation (the fields of CASES.md, and ``fields`` such as hongkong's
    ``discards`` or ``liable``); raises ``CaseError`` naming a problem."""
    case = {"id": None, "profile": profile, "hand": hand, "melds": list(melds), "flowers": flowers,
            "win_tile": win_tile, "win_by": win_by, "seat": seat, "round": round, "streak": streak,
            "flags": list(flags), "rules": rules or {}}  # fmt: skip
    if discarder is not None:
        case["discarder"] = discarder
    if stakes is not None:
        case["stakes"] = stakes
    case.update(fields)
    return score_parsed(parse_case(case))
