"""docs/architecture.md's table "Rule -> files" stays true: every path it names exists, and every
`name` written after a path (a function, constant, option or item key) occurs in that file as a word."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TICKS = re.compile(r"`([^`]+)`")
PATH = re.compile(r"^[\w.-]+(/[\w.-]+)+$")  # folder/.../file: one slash at least


def table_rows(text: str) -> list[list[str]]:
    """The cells of the table under "## Rule -> files" (header and rule line left out)."""
    section = text.split("## Rule -> files", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[2:]]


def claims(cell: str) -> list[tuple[str, list[str]]]:
    """(path, names) for each path of a cell: the backticked tokens after it that are not paths."""
    out: list[tuple[str, list[str]]] = []
    for token in TICKS.findall(cell):
        if PATH.match(token):
            out.append((token, []))
        elif out:
            out[-1][1].append(token)
        else:
            raise AssertionError(f"`{token}` comes before any path in: {cell}")
    return out


def problems(text: str, root: Path = ROOT) -> list[str]:
    found = []
    for row in table_rows(text):
        for cell in row[1:]:
            for path, names in claims(cell):
                f = root / path
                if not f.is_file():
                    found.append(f"{row[0]}: {path} does not exist")
                    continue
                body = f.read_text(encoding="utf-8")
                found += [
                    f"{row[0]}: `{n}` not in {path}"
                    for n in names
                    if not re.search(rf"(?<!\w){re.escape(n)}(?!\w)", body)
                ]
    return found


def test_the_table_covers_the_rules():
    rows = table_rows(DOC.read_text(encoding="utf-8"))
    text = " ".join(r[0] for r in rows)
    for rule in ("過水", "搶槓", "拉", "flowers", "claims", "streak", "ready", "multi-win", "platform", "tai items"):
        assert rule in text, f"no row for {rule}"
    assert all(len(r) == 4 and all(r) for r in rows), "every row: rule | Python | C++ | tests, none empty"


def test_every_path_and_name_exists():
    assert problems(DOC.read_text(encoding="utf-8")) == []


def test_the_check_can_fail():
    doc = (
        "## Rule -> files\n\n| rule | Python | C++ | tests |\n|---|---|---|---|\n"
        "| x | `envs/options.py` `strict_pass` `no_such_name` | `native/src/nope.cpp` | `tests/test_rules.py` |\n"
    )
    assert problems(doc) == ["x: `no_such_name` not in envs/options.py", "x: native/src/nope.cpp does not exist"]
