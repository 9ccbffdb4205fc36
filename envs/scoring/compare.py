"""Profiles compared: one line per profile, the differences of two, the platforms side by side.

``tw16 profiles`` and ``tw16 profiles diff A B`` print these (tw16/cli/profiles.py); docs/profiles.md's
side-by-side tables are generated from them (tools/doc_tables.py), so the docs are the TOML files.
An item "differs" when one profile lacks it or its tai, ``replaces`` or ``reduced`` differ; a rule
option differs when ``Rules(profile=A)`` and ``Rules(profile=B)`` give it different values (the
profile's ``[rules]`` defaults, RULES.md 5 otherwise).
"""

from __future__ import annotations

import unicodedata

from envs.options import DEFAULTS
from envs.scoring.profile import BUILTIN, PLATFORMS, Item, Profile, extends_of, load_profile

RULE_NAMES = tuple(n for n in DEFAULTS if n != "stakes")  # stakes are not part of a table


def item_fields(it: Item | None) -> dict | None:
    """An item row as plain data (None: not in the profile)."""
    if it is None:
        return None
    red = {"tai": it.reduced_tai, "when": list(it.reduced_when)} if it.reduced_tai is not None else None
    return {"tai": it.tai, "replaces": list(it.replaces), "reduced": red}


def _rows(p: Profile) -> dict[str, Item]:
    return {it.key: it for it in p.items}


def rule_values(name: str) -> dict:
    """The rule options a game under profile ``name`` gets by default (its [rules], else RULES.md 5)."""
    from envs.rules import Rules

    r = Rules(profile=name)
    return {n: _plain(getattr(r, n)) for n in RULE_NAMES}


def _plain(v):
    return list(v) if isinstance(v, tuple) else v


def diff_profiles(a: str, b: str) -> dict:
    """``{"a", "b", "items": [{key, zh, a, b}], "rules": [{option, a, b}]}``: the rows where they differ,
    items in the order of ``a``'s table, then ``b``'s new keys."""
    pa, pb = load_profile(a), load_profile(b)
    ra, rb = _rows(pa), _rows(pb)
    keys = list(ra) + [k for k in rb if k not in ra]
    items = []
    for k in keys:
        fa, fb = item_fields(ra.get(k)), item_fields(rb.get(k))
        if fa != fb:
            items.append({"key": k, "zh": (ra.get(k) or rb.get(k)).zh, "a": fa, "b": fb})
    va, vb = rule_values(a), rule_values(b)
    rules = [{"option": n, "a": va[n], "b": vb[n]} for n in RULE_NAMES if va[n] != vb[n]]
    return {"a": pa.name, "b": pb.name, "items": items, "rules": rules}


def _cell(f: dict | None) -> str:
    if f is None:
        return "–"
    s = f"{f['tai']} replaces [{', '.join(f['replaces'])}]"
    if f["reduced"]:
        s += f" reduced {f['reduced']['tai']} when [{', '.join(f['reduced']['when'])}]"
    return s


def _show(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def diff_table(d: dict) -> str:
    """The diff as aligned text: one line per item, then one per rule option."""
    rows = [("item", "中文", d["a"], d["b"])]
    rows += [(x["key"], x["zh"], _cell(x["a"]), _cell(x["b"])) for x in d["items"]]
    out = _align(rows)
    if d["rules"]:
        out += "\n\n" + _align(
            [("rule option", d["a"], d["b"])] + [(x["option"], _show(x["a"]), _show(x["b"])) for x in d["rules"]]
        )
    if not d["items"] and not d["rules"]:
        out = f"{d['a']} and {d['b']} have the same items and rule options"
    return out


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _align(rows) -> str:
    w = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c + " " * (w[i] - _width(c)) for i, c in enumerate(r)).rstrip() for r in rows)


def summary_line(name: str) -> str:
    """One line: name, title, what it extends, item count and the rule options it changes."""
    p = load_profile(name)
    parent = extends_of(name)
    changed = [f"{k}={_show(v)}" for k, v in rule_values(name).items() if v != _plain(DEFAULTS[k])]
    ext = f"extends {parent}, " if parent else ""
    return f"{name:<11} {p.title} ({ext}{len(p.items)} items{'; ' + ' '.join(changed) if changed else ''})"


def list_lines() -> list[str]:
    return [summary_line(n) for n in BUILTIN]


# -- the platforms side by side (docs/profiles.md) ------------------------------------------------
def _md(header, rows) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def platforms_tai_md(base: str = "standard", names=PLATFORMS) -> str:
    """Item rows of ``base`` and of the platforms: `·` as ``base``, `–` not in the table, a number the
    tai, with `*` when its replaces or reduced differ from ``base``'s (listed in the next table)."""
    pb = _rows(load_profile(base))
    rows_of = {n: _rows(load_profile(n)) for n in names}
    keys = list(pb) + [k for n in names for k in rows_of[n] if k not in pb]
    keys = list(dict.fromkeys(keys))
    rows = []
    for k in keys:
        zh = (pb.get(k) or next(rows_of[n][k] for n in names if k in rows_of[n])).zh
        cells = [f"`{k}`", zh, str(pb[k].tai) if k in pb else "–"]
        for n in names:
            it = rows_of[n].get(k)
            fb, fn = item_fields(pb.get(k)), item_fields(it)
            if fn is None:
                cells.append("–")
            elif fb == fn:
                cells.append("·")
            else:
                same_rest = fb is not None and (fb["replaces"], fb["reduced"]) == (fn["replaces"], fn["reduced"])
                cells.append(f"{fn['tai']}" + ("" if same_rest else "*"))
        rows.append(cells)
    return _md(["key", "中文", base, *names], rows)


def platforms_replaces_md(base: str = "standard", names=PLATFORMS) -> str:
    """The rows marked `*`: their replaces and reduced in each platform."""
    pb = _rows(load_profile(base))
    rows = []
    for n in names:
        for it in load_profile(n).items:
            fb, fn = item_fields(pb.get(it.key)), item_fields(it)
            if fb is None or (fb["replaces"], fb["reduced"]) != (fn["replaces"], fn["reduced"]):
                red = f"{fn['reduced']['tai']} when {', '.join(fn['reduced']['when'])}" if fn["reduced"] else ""
                rows.append([n, f"`{it.key}`", ", ".join(fn["replaces"]) or "(none)", red])
    return _md(["profile", "item", "replaces", "reduced"], rows)


def platforms_rules_md(names=PLATFORMS) -> str:
    """The rule options each platform changes from RULES.md 5."""
    vals = {n: rule_values(n) for n in names}
    opts = [o for o in RULE_NAMES if any(vals[n][o] != _plain(DEFAULTS[o]) for n in names)]
    rows = []
    for o in opts:
        d = _plain(DEFAULTS[o])
        rows.append([f"`{o}`", f"`{_show(d)}`"] + [f"`{_show(vals[n][o])}`" if vals[n][o] != d else "·" for n in names])
    return _md(["option", "default", *names], rows)
