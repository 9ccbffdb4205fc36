"""``tw16 score``: read cases (CASES.md), print one result per case, optionally check them."""

from __future__ import annotations

import json
import sys
import unicodedata

from envs.scoring.cases import check_result, score_case
from envs.tiles import WIND_NAMES

WIND_ZH = dict(zip(WIND_NAMES, "東南西北"))
WIN_BY_ZH = {"discard": "放槍", "self_draw": "自摸", "rob_kong": "搶槓", "flowers": "花胡"}


def _read_lines(path: str):
    if path == "-":
        yield from enumerate(sys.stdin, 1)
        return
    try:
        with open(path, encoding="utf-8") as f:
            yield from enumerate(f, 1)
    except OSError as e:
        raise SystemExit(f"tw16 score: cannot read {path!r}: {e.strerror}") from None


def run_score(path: str, *, check: bool = False, profile: str | None = None, fmt: str = "json") -> int:
    mismatches = []
    n = 0
    for lineno, line in _read_lines(path):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        n += 1
        try:
            case = json.loads(line)
        except json.JSONDecodeError as e:
            case, result = None, {"id": None, "error": f"line {lineno}: not valid JSON ({e.msg} at column {e.colno})"}
        else:
            result = score_case(case, profile)
        if fmt == "table":
            print(format_table(case, result))
        else:
            print(json.dumps(result, ensure_ascii=False))
        if check:
            expected = case.get("expected") if isinstance(case, dict) else None
            if expected is None:
                diffs = ["no `expected` field to check against"] if case is not None else [result["error"]]
            else:
                diffs = check_result(result, expected)
            if diffs:
                mismatches.append((lineno, result.get("id"), diffs))
    if check:
        for lineno, cid, diffs in mismatches:
            for d in diffs:
                print(f"MISMATCH line {lineno} id {cid}: {d}", file=sys.stderr)
        print(f"checked {n} cases: {n - len(mismatches)} match, {len(mismatches)} mismatch", file=sys.stderr)
        return 1 if mismatches else 0
    return 0


def _row(zh: str, key: str, tai: int) -> str:
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in zh)  # CJK take two columns
    pad = " " * max(1, 12 - width)
    return f"    {zh}{pad}{key:<30}{tai:>3} 台"


def format_table(case, result: dict) -> str:
    """The breakdown as a scorer at the table would say it."""
    head = f"[{result.get('id')}]"
    if "error" in result:
        return f"{head} error: {result['error']}\n"
    c = case or {}
    who = c.get("seat", "?")
    how = c.get("win_by", "?")
    payer = c.get("discarder")
    line = f"{head} {WIND_ZH.get(who, who)}家 {WIN_BY_ZH.get(how, how)}"
    if payer and how != "self_draw":
        line += f" ({WIND_ZH.get(payer, payer)}家付)"
    if c.get("liable") in WIND_ZH:  # hongkong 全包
        line += f" (全包: {WIND_ZH[c['liable']]}家付)"
    hand = " ".join(x for x in [c.get("hand", ""), *(c.get("melds") or []), c.get("flowers") or ""] if x)
    tile = f"  胡 {c['win_tile']}" if c.get("win_tile") else ""
    rows = [line, f"  {hand}{tile}   profile {result['profile']}"]
    for key, tai in result["items"].items():
        rows.append(_row(result["names"][key], key, tai))
    if not result["items"]:
        rows.append(_row("屁胡", "(no item)", 0))
    rows.append(_row("合計", "hand tai", result["hand_tai"]))
    legs = {w: t for w, t in result["dealer_tai"].items() if t}
    if legs:
        rows.append("    莊家/連莊 on legs: " + ", ".join(f"{WIND_ZH[w]} +{t} 台" for w, t in legs.items()))
    st = result["stakes"]
    rows.append(f"    chips ({st['base']}/{st['per_tai']}): " + "  ".join(f"{WIND_ZH[w]} {d:+d}" for w, d in result["deltas"].items()))
    return "\n".join(rows) + "\n"
