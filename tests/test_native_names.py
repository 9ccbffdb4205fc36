"""C++ names (issue 28) stay as names_pass made them: one alias per py:: namespace and one namespace per
alias, no Python-style leading underscore on a C++ function, and the river / meld columns read by
name (RV_* / MC_* of envs/engine/state.py), never by a bare number."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATED = {"constants.hpp"}
# comments, string literals (with a user-defined suffix such as "x"_a) and character literals
_NOT_CODE = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"(?:_\w+)?|'(?:\\.|[^'\\\n])+'", re.S)


def _sources() -> dict[str, str]:
    files = sorted(p for p in (ROOT / "native").rglob("*") if p.suffix in (".cpp", ".hpp", ".h"))
    return {
        str(p.relative_to(ROOT)): _NOT_CODE.sub(" ", p.read_text(encoding="utf-8"))
        for p in files
        if p.name not in GENERATED
    }


def test_one_alias_per_namespace():
    pairs: dict[tuple[str, str], list[str]] = {}
    for path, code in _sources().items():
        for alias, ns in re.findall(r"\bnamespace\s+(\w+)\s*=\s*(?:::)?(?:tw16::)?py::([\w:]+)\s*;", code):
            pairs.setdefault((alias, ns), []).append(path)
    assert pairs, "no py:: namespace alias found: has the layout moved?"
    by_ns: dict[str, set[str]] = {}
    by_alias: dict[str, set[str]] = {}
    for alias, ns in pairs:
        by_ns.setdefault(ns, set()).add(alias)
        by_alias.setdefault(alias, set()).add(ns)
    many_aliases = {ns: sorted(a) for ns, a in by_ns.items() if len(a) > 1}
    many_ns = {a: sorted(ns) for a, ns in by_alias.items() if len(ns) > 1}
    assert not many_aliases, f"a py:: namespace with more than one alias: {many_aliases}"
    assert not many_ns, f"an alias naming more than one py:: namespace: {many_ns}"


def test_no_leading_underscore_functions():
    found = {
        f"{path}: {name}"
        for path, code in _sources().items()
        for name in re.findall(r"(?<![\w.])(_[a-z]\w*)\s*\(", code)
    }
    assert not found, f"C++ functions named Python-style: {sorted(found)}"


_BARE_COLUMN = re.compile(
    r"\b(?:river|melds)\s*\((?:[^()]|\([^()]*\))*,\s*\d+\s*\)"  # S.river(b, i, 2), melds(s, i, 0)
    r"|\bms\s*\([^(),]+,\s*\d+\s*\)"  # a seat's meld rows: ms(i, 1)
    r"|(?<!int8_t )\bms(?:\s*\[[^]]+\]){2}\s*\[\s*\d+\s*\]"  # a copy of the melds: ms[s][i][0]
)


def test_columns_by_name():
    found = [f"{path}: {m.group()}" for path, code in _sources().items() for m in _BARE_COLUMN.finditer(code)]
    assert not found, f"river / meld columns by number (use St::RV_* / St::MC_*): {found}"


def test_the_column_names_exist():
    from envs.engine import state as st

    assert (st.RV_KIND, st.RV_SEAT, st.RV_CLAIMED_BY, st.RV_BITS) == (0, 1, 2, 3)
    assert (st.MC_TYPE, st.MC_KIND, st.MC_FROM) == (0, 1, 2)
    assert st.alloc(1).river.shape[-1] == 4 and st.alloc(1).melds.shape[-1] == 3
