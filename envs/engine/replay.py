"""Replays: a game is (rules, seed, actions). Export a JSON-lines event log and replay it exactly.

Line 1: ``{"rules": {...}, "seed": s, "action_layout": 0, "deal": {...}}``; then one line per step:
``{"i": n, "seat": s, "action": "discard 5m", "drew": [...], "meld": ..., "result": ...}`` where
``drew`` lists the tiles taken from the wall during the step, in order, as ``"S 5m"`` (seat and tile;
flowers included), ``meld`` a claim or kong made in the step, ``deal`` a new hand dealt in the
step (episode "game") and ``result`` the hand's end (winners, items, tai, chip deltas).

``replay(lines)`` re-runs the actions on the rules and seed and checks that every line comes out
identical. Golden playthroughs live in tests/data/golden/; regenerate them (after a deliberate rule
or scoring change) with::

    python -m envs.engine.replay --golden tests/data/golden
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from envs._core import discard_shanten
from envs.engine.actions import (
    ACTION_LAYOUT_VERSION,
    CHI,
    KONG,
    PASS,
    PON,
    READY,
    SELF_KONG,
    WIN,
    action_from_name,
    action_name,
)
from envs.engine.api import Engine
from envs.engine.record import HandRecord
from envs.engine.state import MC_KIND, MC_TYPE
from envs.rules import Rules
from envs.tiles import FLOWER0, FLOWER_ID0, MELD_NAMES, Meld, format_counts, format_tiles, kind_name

SEATS = "ESWN"


def _tile(t: int) -> str:
    return kind_name(t >> 2 if t < FLOWER_ID0 else FLOWER0 + t - FLOWER_ID0)


def _deal_info(eng: Engine, hand: int) -> dict:
    """The hand just dealt, the ``hand``-th of the episode (0-based)."""
    return {
        "hand": hand,
        "dealer": SEATS[int(eng.dealer[0])],
        "streak": int(eng.streak[0]),
        "wind": SEATS[int(eng.round_wind[0])],
        "hands": [format_counts(eng.hands[0, p]) for p in range(4)],
        "flowers": [
            format_tiles([FLOWER0 + f for f in range(8) if (int(eng.flowers[0, p]) >> f) & 1]) for p in range(4)
        ],
    }


def _result(r: HandRecord) -> dict:
    out: dict = {"kind": "drawn" if r.drawn else "win"}
    if not r.drawn:
        out["win_by"] = r.win_by
        out["payer"] = SEATS[r.payer] if r.payer is not None else None
        out["winners"] = {SEATS[w]: {"tai": r.tai[w], "items": dict(r.items[w])} for w in r.winners}
    out["deltas"] = list(r.deltas)
    return out


class _Snap:
    def __init__(self, eng: Engine):
        self.head = int(eng.wall_head[0])
        self.tail = int(eng.wall_tail[0])
        self.nm = eng.n_melds[0].copy()
        self.melds = eng.melds[0].copy()
        self.wall = eng.wall[0].copy()


def _event(eng: Engine, i: int, seat: int, a: int, before: _Snap, ended: list[HandRecord], hands_done: int) -> dict:
    """The log line of step ``i``: ``ended`` the hands it finished, ``hands_done`` those finished before."""
    ev: dict = {"i": i, "seat": SEATS[seat], "action": action_name(a)}
    if ended:
        ev["result"] = _result(ended[-1])
    if not ended or eng.terminated[0]:
        # Tiles taken from the wall in this step (the wall of this hand).
        head, tail = int(eng.wall_head[0]), int(eng.wall_tail[0])
        drew = [_tile(int(t)) for t in before.wall[before.head : head]]
        drew += [_tile(int(t)) for t in before.wall[tail + 1 : before.tail + 1][::-1]]
        if drew:
            ev["drew"] = drew
        for p in range(4):
            for j in range(int(eng.n_melds[0, p])):
                m = eng.melds[0, p, j]
                if j >= before.nm[p] or m[MC_TYPE] != before.melds[p, j, MC_TYPE]:
                    ev["meld"] = (
                        f"{SEATS[p]} {MELD_NAMES[m[MC_TYPE]]} {format_tiles(Meld(int(m[MC_TYPE]), int(m[MC_KIND])).kinds)}"
                    )
    elif not eng.terminated[0]:
        ev["deal"] = _deal_info(eng, hands_done + len(ended))
    return ev


def greedy_action(eng: Engine, rng: np.random.Generator) -> int:
    """A cheap deterministic-given-rng policy that wins often: win whenever legal, discard to the
    lowest shanten, kong always, pon half the time, chi a third of the time, declare ready."""
    m = eng.legal_action_mask[0]
    for a in (WIN, READY):
        if m[a]:
            return a
    if m[KONG]:
        return KONG
    if m[PON] and rng.random() < 0.5:
        return PON
    chis = [a for a in range(CHI, CHI + 3) if m[a]]
    if chis and rng.random() < 0.33:
        return int(rng.choice(chis))
    if m[PASS]:
        return PASS
    selfk = [a for a in range(SELF_KONG, WIN) if m[a]]
    if selfk:
        return selfk[0]
    seat = int(eng.current_player[0])
    h = eng.hands[0, seat].copy()
    out = np.zeros(34, np.int64)
    discard_shanten(h, 5 - int(eng.n_melds[0, seat]), out)
    legal = [k for k in range(34) if m[k]]
    best = min(out[k] for k in legal)
    cands = [k for k in legal if out[k] == best]
    return int(rng.choice(cands))


def record(
    rules: Rules, seed: int, actions=None, policy_seed: int | None = None, max_steps: int = 100_000
) -> list[dict]:
    """Play one game (batch 1) and return its log: the given ``actions`` (names or ids), or a greedy
    policy seeded with ``policy_seed`` (default: ``seed``) until the episode ends."""
    eng = Engine(rules, 1, record_hands=True)
    eng.reset(np.array([seed], np.uint64))
    ended = eng.take_hands(0)  # (hands that ended in their deal)
    hands_done = len(ended)
    lines: list[dict] = [
        {
            "rules": rules.to_dict(),
            "seed": int(seed),
            "action_layout": ACTION_LAYOUT_VERSION,
            "deal": _deal_info(eng, hands_done),
        }
    ]
    if eng.terminated[0]:
        lines[0]["result"] = _result(ended[-1])
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    todo = list(actions) if actions is not None else None
    i = 0
    while not eng.terminated[0] and i < max_steps:
        if todo is not None:
            if not todo:
                break
            a = todo.pop(0)
            a = action_from_name(a) if isinstance(a, str) else int(a)
        else:
            a = greedy_action(eng, rng)
        seat = int(eng.current_player[0])
        before = _Snap(eng)
        eng.step(np.array([a]))
        ended = eng.take_hands(0)
        lines.append(_event(eng, i, seat, a, before, ended, hands_done))
        hands_done += len(ended)
        i += 1
    return lines


def dumps(lines: list[dict]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n" for x in lines)


class LogError(ValueError):
    """A log that is not a replay log: not JSON, not objects, or a field of the wrong type; the
    message names the line."""


class ReplayMismatch(AssertionError, ValueError):
    """The log does not reproduce: a line differs from the replay, or the action layout is another.
    An AssertionError as replays always raised, and a ValueError like every refusal of bad input."""


def parse_log(text) -> list[dict]:
    """JSON-lines text (str or bytes) -> the list of line objects (blank lines skipped), or
    ``LogError`` naming the first line that is not UTF-8 or not JSON."""
    if isinstance(text, (bytes, bytearray)):
        raw_lines = bytes(text).splitlines()
    elif isinstance(text, str):
        raw_lines = text.splitlines()
    else:
        raise TypeError(f"a log is text or bytes, got {type(text).__name__}")
    lines = []
    for n, raw in enumerate(raw_lines, 1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as e:
                raise LogError(
                    f"line {n} is not UTF-8 text (byte 0x{raw[e.start]:02x} at column {e.start + 1})"
                ) from None
        if raw.strip():
            try:
                lines.append(json.loads(raw))
            except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
                raise LogError(f"line {n} is not valid JSON ({getattr(e, 'msg', e)})") from None
    return lines


def check_log(lines) -> None:
    """The shape of a log, before anything is replayed: a non-empty list of objects; line 1 holds the
    rules (an object), the seed (an integer 0..2**64-1) and the action layout; each later line an
    ``action`` name (a string). ``LogError`` names the first problem."""
    if not isinstance(lines, list) or not lines:
        raise LogError("a log is a non-empty list of JSON objects, one per line")
    for n, x in enumerate(lines, 1):
        if not isinstance(x, dict):
            raise LogError(f"line {n} must be a JSON object, got {json.dumps(x)[:60]}")
    head = lines[0]
    for key in ("rules", "seed"):
        if key not in head:
            raise LogError(f"line 1 must hold the rules and the seed (no {key!r})")
    if not isinstance(head["rules"], dict):
        raise LogError(f"line 1: rules must be an object, got {json.dumps(head['rules'])[:60]}")
    seed = head["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise LogError(f"line 1: seed must be an integer in 0..2**64-1, got {json.dumps(seed)[:60]}")
    for n, x in enumerate(lines[1:], 2):
        if not isinstance(x.get("action"), str):
            raise LogError(
                f"line {n}: action must be an action name like 'discard 5m', got {json.dumps(x.get('action'))[:60]}"
            )


def replay(lines) -> list[dict]:
    """Re-run a log (list of dicts, or JSON-lines text) and check it reproduces; returns the log.
    Raises ``ReplayMismatch`` (an AssertionError) naming the first line that differs, ``LogError`` (a ValueError) for a
    log of the wrong shape, ``RulesError`` / ``ProfileError`` for its rules and ``ValueError`` for an
    action that is unknown or illegal where the log puts it."""
    if isinstance(lines, (str, bytes, bytearray)):
        lines = parse_log(lines)
    check_log(lines)
    head = lines[0]
    if head.get("action_layout") != ACTION_LAYOUT_VERSION:
        raise ReplayMismatch(f"log uses action layout {head.get('action_layout')}, engine has {ACTION_LAYOUT_VERSION}")
    rules = Rules.from_dict(head["rules"])
    again = record(rules, head["seed"], [x["action"] for x in lines[1:]])
    # A log written before an option existed names no value for it: it played the default, which
    # Rules.from_dict fills in, so line 1 is compared with its rules as they load.
    lines = [dict(head, rules=rules.to_dict()), *lines[1:]]
    for n, (a, b) in enumerate(zip(lines, again)):
        if json.loads(json.dumps(a)) != json.loads(json.dumps(b)):
            raise ReplayMismatch(f"replay differs at line {n + 1}:\n  log:    {a}\n  replay: {b}")
    if len(again) != len(lines):
        raise ReplayMismatch(f"replay has {len(again)} lines, log has {len(lines)}")
    return again


# Golden playthroughs: (file name, rules options, seed).
GOLDEN = (
    ("standard_s1.jsonl", {}, 1),
    ("standard_s7.jsonl", {}, 7),
    ("multiwin_strictpass_s3.jsonl", {"multi_win": True, "strict_pass": True, "swap_call": False}, 3),
    ("strict16_s5.jsonl", {"profile": "strict16"}, 5),
    ("casual_noflowers_s11.jsonl", {"profile": "casual", "flowers": False}, 11),
)


def golden_text(name: str) -> str:
    for fname, opts, seed in GOLDEN:
        if fname == name:
            opts = dict(opts)
            return dumps(record(Rules.make(opts.pop("profile", "standard"), **opts), seed))
    raise KeyError(name)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="tw16 replays: regenerate golden playthroughs, or check a log")
    ap.add_argument("--golden", metavar="DIR", help="write every golden playthrough into DIR")
    ap.add_argument("--check", metavar="FILE", help="replay a .jsonl log and verify it")
    args = ap.parse_args(argv)
    if args.golden:
        d = Path(args.golden)
        d.mkdir(parents=True, exist_ok=True)
        for fname, _, _ in GOLDEN:
            (d / fname).write_text(golden_text(fname), encoding="utf-8")
            print("wrote", d / fname)
    if args.check:
        replay(Path(args.check).read_bytes())
        print("ok", args.check)


if __name__ == "__main__":
    main()
