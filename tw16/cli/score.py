"""``tw16 score``: read cases (CASES.md), print one result per case, optionally check them."""

from __future__ import annotations

import json
import sys
import unicodedata

from envs.scoring.cases import check_result, score_case
from envs.tiles import WIND_NAMES
from tw16.cli.streams import stdin_or_error

WIND_ZH = dict(zip(WIND_NAMES, "東南西北"))
WIN_BY_ZH = {"discard": "放槍", "self_draw": "自摸", "rob_kong": "搶槓", "flowers": "花胡"}


class LineError(ValueError):
    """A line of a cases file that is not a JSON value: its result is ``{"id": null, "error": ...}``."""


def _read_lines(path: str):
    """(line number, bytes) of each line, read as bytes so that one line that is not UTF-8 is one
    bad case, not the end of the file (CASES.md: the other cases are still scored)."""
    if path == "-":
        stream = getattr(
            stdin_or_error("score", "give a cases file, or pipe cases into `tw16 score -`"), "buffer", None
        )
        if stream is None:  # a text stream (tests replace stdin with io.StringIO)
            for n, line in enumerate(sys.stdin, 1):
                yield n, line.encode("utf-8", "surrogatepass")
            return
        yield from enumerate(stream, 1)
        return
    try:
        with open(path, "rb") as f:
            yield from enumerate(f, 1)
    except OSError as e:
        from tw16.cli.usage import UsageError

        raise UsageError(f"cannot read {path!r}: {e.strerror or e}") from None


SKIP = object()  # parse_line's answer for a blank line or a comment


def parse_line(raw: bytes, lineno: int):
    """One line of a cases file -> the JSON value it holds, ``SKIP`` for a blank line or a ``#``
    comment; ``LineError`` naming the line for bytes that are not UTF-8 or text that is not JSON."""
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark
        raw = raw[3:]
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LineError(f"line {lineno}: not valid UTF-8 (byte 0x{raw[e.start]:02x} at column {e.start + 1})") from None
    if not line.strip() or line.lstrip().startswith("#"):
        return SKIP
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise LineError(f"line {lineno}: not valid JSON ({e.msg} at column {e.colno})") from None
    except (ValueError, RecursionError) as e:  # a number past Python's digit limit, nesting past the stack
        raise LineError(f"line {lineno}: not valid JSON ({type(e).__name__}: {str(e)[:120]})") from None


def run_score(path: str, *, check: bool = False, profile: str | None = None, fmt: str = "json") -> int:
    mismatches = []
    n = 0
    for lineno, raw in _read_lines(path):
        try:
            case = parse_line(raw, lineno)
        except LineError as e:
            case, result = None, {"id": None, "error": str(e)}
        else:
            if case is SKIP:
                continue
            result = score_case(case, profile)
        n += 1
        if fmt == "table":
            _print(format_table(case, result))
        else:
            _print(json.dumps(result, ensure_ascii=False), json.dumps(result))
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
                _print(f"MISMATCH line {lineno} id {cid}: {d}", file=sys.stderr)
        print(f"checked {n} cases: {n - len(mismatches)} match, {len(mismatches)} mismatch", file=sys.stderr)
        return 1 if mismatches else 0
    return 0


def _print(text: str, ascii_text: str | None = None, file=None) -> None:
    """Print, falling back to escapes when stdout cannot encode the text (a lone surrogate from a JSON
    ``"\\ud800"``, or a terminal that is not UTF-8): one odd string must not end the run."""
    try:
        print(text, file=file)
    except UnicodeEncodeError:
        print(
            ascii_text if ascii_text is not None else text.encode("ascii", "backslashreplace").decode("ascii"),
            file=file,
        )


def _row(zh: str, key: str, tai: int) -> str:
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in zh)  # CJK take two columns
    pad = " " * max(1, 12 - width)
    return f"    {zh}{pad}{key:<30}{tai:>3} 台"


def format_table(case, result: dict) -> str:
    """The breakdown as a scorer at the table would say it."""
    cid = result.get("id")
    head = f"[{cid}]" if cid is not None else "[case without an id]"
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
    rows.append(
        f"    chips ({st['base']}/{st['per_tai']}): "
        + "  ".join(f"{WIND_ZH[w]} {d:+d}" for w, d in result["deltas"].items())
    )
    return "\n".join(rows) + "\n"
