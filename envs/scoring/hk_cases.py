"""The case fields of the hongkong profile (HONGKONG.md 6): validated, and packed into the flag word.

Plain Python, called by ``envs.scoring.cases`` for a profile with ``[options] hongkong``. A field that
describes something that cannot happen is refused with a ``CaseError`` naming it.
"""

from __future__ import annotations

import numpy as np

from envs._core import special_shape
from envs.hand.analysis import SHAPE_THIRTEEN
from envs.scoring import codes as C
from envs.scoring.errors import CaseError
from envs.tiles import MELD_ADDKONG, MELD_CHI, MELD_KONG, MELD_PON, WIND_NAMES


def _error(msg: str):
    raise CaseError(msg)


def check_hk_flags(flags: int, win_by: int) -> None:
    """Flags hongkong refuses or that lack their cause."""
    for bit, name, why in (
        (C.F_EARTHLY, "earthly", "earthly_win is judged from `discards` (1, on the dealer's discard)"),
        (C.F_HUMAN, "human", "human_win is judged from `discards` (at most 4)"),
        (C.F_HEAVENLY_READY, "heavenly_ready", "hongkong has only declared_ready"),
        (C.F_EARTHLY_READY, "earthly_ready", "hongkong has only declared_ready"),
        (C.F_SHOWN_READY, "shown_ready", "hongkong has only declared_ready"),
    ):
        if flags & bit:
            _error(f"flag {name} is refused by hongkong: {why}")
    if flags & C.F_IPPATSU and not flags & C.F_DECLARED_READY:
        _error("flag ippatsu without declared_ready (一發 follows a ready declaration)")
    if flags & C.F_HEAVENLY and flags & C.F_DECLARED_READY:
        _error("heavenly with declared_ready (a ready declaration needs a discard before the win)")
    if flags & C.F_ROB_KONG_CHAIN and win_by != C.WIN_ROB_KONG:
        _error("flag rob_kong_chain on a win that is not rob_kong")
    if flags & C.F_ROBBED_ANKONG and win_by != C.WIN_ROB_KONG:
        _error("flag robbed_ankong on a win that is not rob_kong")


def _count(case: dict, name: str, lo: int, hi: int) -> int | None:
    v = case.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _error(f"{name} must be an integer in {lo}..{hi}, got {v!r}")
    return v


def hk_case_context(
    case: dict, flags: int, chain: int, win_by: int, winner: int, payer: int, melds, concealed: np.ndarray
) -> tuple[int, int]:
    """``(context bits for the flag word, liable seat or -1)`` of a hongkong case."""
    discarded = win_by in (C.WIN_DISCARD, C.WIN_ROB_KONG)
    co = _count(case, "co_winners", 1, 3)
    if co is not None and co > 1 and not discarded:
        _error(f"co_winners {co}: several winners only share a discard or a robbed kong")
    maxc = C.COUNT_MASK - 1
    discards = _count(case, "discards", 0, maxc)
    floor = _count(case, "floor", 0, maxc)
    if discards is not None:
        if win_by == C.WIN_DISCARD and discards == 0:
            _error("discards 0 on a win on a discard (the winning discard is counted)")
        if discards == 0 and winner != 0 and win_by != C.WIN_FLOWERS:
            _error("discards 0 for a non-dealer's win: the dealer discards before anyone else draws")
        if discards == 1 and win_by == C.WIN_DISCARD and payer != 0:
            _error("discards 1 on a discard that is not the dealer's (E makes the first discard)")
        if flags & C.F_HEAVENLY and discards > 0:
            _error("heavenly after a discard")
        claimed = sum(m.type in (MELD_CHI, MELD_PON, MELD_KONG, MELD_ADDKONG) for m in melds)
        need = claimed + (win_by == C.WIN_DISCARD)
        if discards < need:
            _error(
                f"discards {discards}: the hand shows {claimed} claimed meld(s), each taking a discard"
                + (", and wins on one more" if win_by == C.WIN_DISCARD else "")
            )
    if floor is not None:
        if discards is not None and floor > discards:
            _error(f"floor {floor} is more than the {discards} discards made")
        if win_by == C.WIN_DISCARD and floor == 0:
            _error("floor 0 on a win on a discard (the winning discard lies in the pools)")
    if flags & C.F_ROBBED_ANKONG:
        if melds or not special_shape(concealed, SHAPE_THIRTEEN):
            _error("robbed_ankong: only a hand that the robbed tile completes as 十三么 may rob an ankong")
    if chain == 1 and flags & C.F_KONG_REPLACEMENT and flags & C.F_FLOWER_REPLACEMENT:
        _error("kong_replacement and flower_replacement with replacement_chain 1 (one replacement draw)")
    liable = -1
    if "liable" in case:
        v = case["liable"]
        if not isinstance(v, str) or v not in WIND_NAMES or len(v) != 1:
            _error(f"liable must be one of E S W N, got {v!r}")
        liable = WIND_NAMES.index(v)
        if liable == winner:
            _error("liable is the winner")
        if win_by != C.WIN_SELF_DRAW or not flags & C.F_KONG_REPLACEMENT:
            _error("liable (全包) is only for a self-drawn win on a kong replacement (flag kong_replacement)")
        if not any(m.type == MELD_KONG for m in melds):
            _error("liable (全包) needs the chain to begin with a `kong` claimed on a discard; the hand has none")
    return C.hk_context_flags(discards, floor, co if co is not None else 1), liable
