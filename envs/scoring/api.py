"""Python front of the scoring core (``envs._core``): score a hand given in notation (``score``), or a
parsed case (``score_parsed``, from ``envs.scoring.cases``).

    >>> from envs.scoring.api import score
    >>> r = score("456m 789m 234p 567s N", melds=["chi 123m"], win_tile="N", win_by="discard",
    ...           discarder="W", seat="S")
    >>> r["items"], r["deltas"]
    ({'single_wait': 1}, {'E': 0, 'S': 40, 'W': -40, 'N': 0})
"""

from __future__ import annotations

from envs.scoring.cases import parse_case, score_parsed

__all__ = ["score", "score_parsed"]


def score(
    hand: str,
    *,
    melds=(),
    flowers: str = "",
    win_tile: str | None = None,
    win_by: str = "discard",
    discarder: str | None = None,
    seat: str = "E",
    round: str = "E",
    streak: int = 0,
    flags=(),
    profile: str = "standard",
    rules: dict | None = None,
    stakes: dict | None = None,
    **fields,
) -> dict:
    """Score a hand given in notation (the fields of CASES.md, and ``fields`` such as hongkong's
    ``discards`` or ``liable``); raises ``CaseError`` naming a problem."""
    case = {
        "id": None,
        "profile": profile,
        "hand": hand,
        "melds": list(melds),
        "flowers": flowers,
        "win_tile": win_tile,
        "win_by": win_by,
        "seat": seat,
        "round": round,
        "streak": streak,
        "flags": list(flags),
        "rules": rules or {},
    }
    if discarder is not None:
        case["discarder"] = discarder
    if stakes is not None:
        case["stakes"] = stakes
    case.update(fields)
    return score_parsed(parse_case(case))
