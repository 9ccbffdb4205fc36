"""The documentation tables, generated from the code that defines them.

The action layout (``envs.engine.actions.LAYOUT``), the channel tables of every encoding in
``ENCODINGS`` (their ``CHANNELS`` blocks, ``envs.obs.channels``), the rule options
(``envs.rules.DEFAULTS`` with each built-in profile's ``[rules]`` defaults), the env options (the
signature of ``envs.tw16_v0.raw_env``), the platform profiles side by side (``envs.scoring.compare``,
docs/profiles.md) and the state arrays (``envs.engine.state.FIELDS``, in that module's docstring) are
written into marked regions:

- markdown: ``<!-- BEGIN generated: NAME -->`` ... ``<!-- END generated: NAME -->``
- docstrings: ``.. BEGIN generated: NAME`` ... ``.. END generated: NAME`` (reST comments)

``python tools/doc_tables.py --write`` rewrites every region; ``--check`` (and tests/test_doc_tables.py)
fails on a stale one.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
import textwrap
import unicodedata
from itertools import accumulate
from pathlib import Path

from envs.engine import state
from envs.engine.actions import LAYOUT
from envs.obs.channels import VALUES, starts
from envs.options import OPTIONS
from envs.rules import DEFAULTS, Rules, Stakes
from envs.scoring import compare
from envs.scoring.profile import BUILTIN, load_profile

ROOT = Path(__file__).resolve().parent.parent
# the encodings whose channel tables are documented: adding one is one line here (and a region
# "channels: NAME" in docs/environment.md and in the module's docstring)
ENCODINGS = ("envs.obs.planes_v0", "envs.obs.oracle_v0", "envs.obs.planes_v1")
CARD = "envs/tw16_v0.py"
DOC = "docs/environment.md"
PROFILES_DOC = "docs/profiles.md"  # the platform profiles side by side (envs.scoring.compare)
STATE = "envs/engine/state.py"  # the state arrays (envs.engine.state.FIELDS)
WIDTH = 100

# What each rule option does: the doc of its row in envs.options.OPTIONS (one home); `profile` is the
# Rules field that is not an option of the table.
OPTION_HELP = {
    "profile": "the tai table: a built-in profile or a path to a `.toml` (docs/profiles.md)",
    **{o.name: o.doc for o in OPTIONS},
}


# -- table rendering ----------------------------------------------------------------------------
def markdown(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _cols(s: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def rst(header, rows) -> str:
    """A reST simple table (plain text in ``help()``), the last column wrapped to ``WIDTH``;
    markdown code spans lose their backticks."""
    rows = [[str(c).replace("`", "") for c in r] for r in rows]
    w = [max(_cols(x) for x in col) for col in zip(header[:-1], *(r[:-1] for r in rows))]
    last = WIDTH - sum(n + 2 for n in w)
    lines = []
    for r in rows:
        for i, part in enumerate(textwrap.wrap(r[-1], last, break_on_hyphens=False) or [""]):
            lines.append([*(r[:-1] if i == 0 else [""] * len(w)), part])
    w.append(max(_cols(x) for x in [header[-1]] + [ln[-1] for ln in lines]))

    def fmt(r):
        return "  ".join(c + " " * (n - _cols(c)) for c, n in zip(r, w)).rstrip()

    rule = "  ".join("=" * n for n in w)
    return "\n".join([rule, fmt(header), rule, *map(fmt, lines), rule])


def _span(a: int, n: int) -> str:
    return str(a) if n == 1 else f"{a}-{a + n - 1}"


# -- actions ------------------------------------------------------------------------------------
def action_rows(legal: bool = True) -> list[list[str]]:
    rows = []
    for b, at in zip(LAYOUT, accumulate((b.size for b in LAYOUT), initial=0)):
        const = f"`{b.const} + {b.arg}`" if b.arg else f"`{b.const}`"
        rows.append([_span(at, b.size), const, b.zh, b.what] + ([b.legal] if legal else []))
    return rows


def actions_md() -> str:
    return markdown(["index", "action", "中文", "what", "legal when"], action_rows())


def actions_rst() -> str:
    return rst(["index", "action", "中文", "what"], action_rows(legal=False))


# -- channels -----------------------------------------------------------------------------------
def encoding(name: str):
    return importlib.import_module(name)


def own_blocks(mod) -> tuple:
    """The blocks an encoding module adds: ``CHANNELS`` (offsets from the channels it extends, if any),
    then ``DERIVED_CHANNELS`` if it has them."""
    return mod.CHANNELS + getattr(mod, "DERIVED_CHANNELS", ())


def channel_rows(mod, with_values: bool = True) -> list[list[str]]:
    """One row per block; an encoding that ``EXTENDS`` another counts from P, the number of the other's
    channels (the text around the table says so)."""
    blocks = own_blocks(mod)
    base = "P + " if hasattr(mod, "EXTENDS") else ""
    rows = []
    for b, at in zip(blocks, starts(blocks)):
        content = ("*derived*: " if b.derived else "") + b.content
        rows.append([f"{base}{_span(at, b.n)} `{b.const}`", str(b.n)] + ([b.values] if with_values else []) + [content])
    return rows


def channels_md(mod) -> str:
    return markdown(["channels", "n", "values", "content"], channel_rows(mod))


def channels_rst(mod) -> str:
    return rst(["channels", "n", "content"], channel_rows(mod, with_values=False))


def scalars_md(mod) -> str:
    rows = [[_span(at, b.n), f"`{b.const}`", b.values, b.content] for b, at in zip(mod.SCALARS, starts(mod.SCALARS))]
    return markdown(["column", "scalar", "values", "content"], rows)


def scalars_rst(mod) -> str:
    rows = [[_span(at, b.n), b.const, b.content] for b, at in zip(mod.SCALARS, starts(mod.SCALARS))]
    return rst(["column", "scalar", "content"], rows)


def values_md() -> str:
    return markdown(["values", "meaning"], [[k, v] for k, v in VALUES.items()])


# -- options ------------------------------------------------------------------------------------
def show(v) -> str:
    if isinstance(v, Stakes):
        return f'"{v.base}/{v.per_tai}"'
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


def profile_defaults(name: str) -> dict[str, object]:
    """Built-in profiles whose ``[rules]`` table changes the default of option ``name``."""
    out = {}
    for p in BUILTIN:
        if name in load_profile(p).rule_defaults:
            v = getattr(Rules(profile=p), name)  # as Rules builds it (stakes "0/1" -> Stakes(0, 1))
            if v != DEFAULTS[name]:
                out[p] = v
    return out


def option_names() -> list[str]:
    return ["profile", *DEFAULTS]


def _default(name: str) -> tuple[str, str]:
    """(default, profiles that change it) as text."""
    if name == "profile":
        return show("standard"), ""
    return show(DEFAULTS[name]), ", ".join(f"{p} `{show(v)}`" for p, v in profile_defaults(name).items())


def options_md() -> str:
    rows = []
    for name in option_names():
        d, by = _default(name)
        rows.append([f"`{name}`", f"`{d}`" + (f" ({by})" if by else ""), OPTION_HELP[name]])
    return markdown(["option", "default (profiles that change it)", "what it does"], rows)


def _env_options() -> list[str]:
    from envs import tw16_v0

    out = []
    choices = {
        "render_mode": tw16_v0.raw_env.metadata["render_modes"],
        "reward": tw16_v0.REWARDS,
        "illegal_action": tw16_v0.ILLEGAL_ACTIONS,
    }
    for p in inspect.signature(tw16_v0.raw_env.__init__).parameters.values():
        if p.name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):  # not **rule_options
            ch = " | ".join(map(show, choices[p.name])) + "; " if p.name in choices else ""
            out.append(f"{p.name} [{ch}{show(p.default)}]")
    return out


def options_rst() -> str:
    """The card's option list: every rule option with its default (and the profiles that change it),
    then the env's own keywords."""
    rule = []
    for name in option_names():
        d, by = _default(name)
        if name == "profile":
            by = " | ".join(BUILTIN) + " | a .toml path"
        rule.append(f"{name} [{d}{'; ' + by.replace('`', '') if by else ''}]")
    text = (
        "Rule options (``envs.rules.Rules``, RULES.md 5; [default; profiles that change it]): "
        + ", ".join(rule)
        + ". Env options: "
        + ", ".join(_env_options())
        + "."
    )
    return textwrap.fill(text, WIDTH, break_on_hyphens=False, break_long_words=False)


# -- the state arrays -----------------------------------------------------------------------------
def state_shape(f) -> str:
    """``(B, dims) dtype`` of a field of ``envs.engine.state.FIELDS``: each dim as its number, but K
    (scripted walls per game, chosen at alloc)."""
    dims = [d if d == "K" else str(state.dim_value(d)) for d in f.dims]
    return f"({', '.join(['B', *dims]) if dims else 'B,'}) {f.dtype}"


def state_rows() -> list[list[str]]:
    return [[f.name, state_shape(f), f.doc] for f in state.FIELDS]


def state_rst() -> str:
    return rst(["name", "shape, dtype", "meaning"], state_rows())


# -- the regions ----------------------------------------------------------------------------------
def _module_path(name: str) -> str:
    return name.replace(".", "/") + ".py"


def regions() -> dict[tuple[str, str], str]:
    """(file relative to the repository root, region name) -> its generated text. Each table goes into
    docs/environment.md and into one docstring: the card (``help(env)``) takes the actions, the options
    and the env's own encoding; every other encoding module takes its own channels, and planes_v0 its
    scalars."""
    out = {
        (DOC, "actions"): actions_md(),
        (DOC, "channel values"): values_md(),
        (DOC, "options"): options_md(),
        (CARD, "actions"): actions_rst(),
        (CARD, "options"): options_rst(),
        (CARD, "channels"): channels_rst(encoding(ENCODINGS[0])),  # the env's observation
        (PROFILES_DOC, "platforms: tai"): compare.platforms_tai_md(),
        (PROFILES_DOC, "platforms: replaces"): compare.platforms_replaces_md(),
        (PROFILES_DOC, "platforms: rules"): compare.platforms_rules_md(),
        (STATE, "arrays"): state_rst(),
    }
    for name in ENCODINGS:
        mod = encoding(name)
        ver = mod.OBS_VERSION
        out[DOC, f"channels: {ver}"] = channels_md(mod)
        if name != ENCODINGS[0]:
            out[_module_path(name), "channels"] = channels_rst(mod)
        if hasattr(mod, "SCALARS"):
            out[DOC, f"scalars: {ver}"] = scalars_md(mod)
            out[_module_path(name), "scalars"] = scalars_rst(mod)
    return out


def _markers(path: str, name: str) -> tuple[str, str]:
    if path.endswith(".md"):
        return f"<!-- BEGIN generated: {name} -->", f"<!-- END generated: {name} -->"
    return f".. BEGIN generated: {name}", f".. END generated: {name}"


def replace_region(text: str, path: str, name: str, body: str) -> str:
    begin, end = _markers(path, name)
    pat = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.S)
    found = pat.findall(text)
    if len(found) != 1:
        raise ValueError(f"{path}: {len(found)} regions {name!r} (need exactly one: {begin} ... {end})")
    if path.endswith(".py") and ('"""' in body or "\\" in body):
        raise ValueError(f"{path}: region {name!r} would break its docstring")
    return pat.sub(lambda _: f"{begin}\n{body}\n{end}", text)


def rendered(root: Path = ROOT) -> dict[str, tuple[str, str]]:
    """file -> (current text, text with every region regenerated)."""
    by_file: dict[str, list[tuple[str, str]]] = {}
    for (path, name), body in regions().items():
        by_file.setdefault(path, []).append((name, body))
    out = {}
    for path, parts in by_file.items():
        old = (root / path).read_text(encoding="utf-8")
        new = old
        for name, body in parts:
            new = replace_region(new, path, name, body)
        out[path] = (old, new)
    return out


def stale(root: Path = ROOT) -> list[str]:
    return [p for p, (old, new) in rendered(root).items() if old != new]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python tools/doc_tables.py", description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the generated regions in place")
    ap.add_argument("--check", action="store_true", help="exit 1 when a region is stale")
    ap.add_argument("--print", dest="name", help="print the regions of that name, e.g. 'options'")
    a = ap.parse_args(argv)
    if a.name:
        found = [(p, body) for (p, n), body in regions().items() if n == a.name]
        if not found:
            ap.error(f"no region {a.name!r} (known: {sorted({n for _, n in regions()})})")
        for path, body in found:
            print(f"{path}:\n{body}\n")
        return 0
    if a.write:
        for path, (old, new) in rendered().items():
            if old != new:
                (ROOT / path).write_text(new, encoding="utf-8")
                print(f"wrote {path}")
        return 0
    bad = stale()
    for p in bad:
        print(f"stale: {p} (run: python tools/doc_tables.py --write)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
