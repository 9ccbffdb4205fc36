"""The documentation tables, generated from the code that defines them.

The action layout (``envs.engine.actions.LAYOUT``), the channel tables of every encoding in
``ENCODINGS`` (their ``CHANNELS`` blocks, ``envs.obs.channels``), the rule options
(``envs.rules.DEFAULTS`` with each built-in profile's ``[rules]`` defaults) and the env options (the
signature of ``envs.tw16_v0.raw_env``) are written into marked regions:

- markdown: ``<!-- BEGIN generated: NAME -->`` ... ``<!-- END generated: NAME -->``
- docstrings: ``.. BEGIN generated: NAME`` ... ``.. END generated: NAME`` (reST comments)

``python -m envs.doc_tables --write`` rewrites every region; ``--check`` (and tests/test_doc_tables.py)
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

from envs.engine.actions import LAYOUT
from envs.obs.channels import VALUES, starts
from envs.rules import DEFAULTS, Stakes
from envs.scoring.profile import BUILTIN, load_profile

ROOT = Path(__file__).resolve().parent.parent
# the encodings whose channel tables are documented: adding one is one line here (and a region
# "channels: NAME" in docs/environment.md and in the module's docstring)
ENCODINGS = ("envs.obs.planes_v0", "envs.obs.oracle_v0", "envs.obs.planes_v1")
CARD = "envs/tw16_v0.py"
DOC = "docs/environment.md"
WIDTH = 100

# What each rule option does (names and defaults come from envs.rules; the test requires one line
# per option and no other).
OPTION_HELP = {
    "profile": "the tai table: a built-in profile or a path to a `.toml` (docs/profiles.md)",
    "flowers": "play with the 8 flowers (144 tiles); `False`: 136 tiles, no flower items",
    "dead_wall": "tiles never drawn (八墩, 0..60); when a draw would cut into them the hand is drawn (流局) after "
                 "the last discard was offered for a win",
    "dead_wall_per_kong": "the dead wall grows by one per kong",
    "multi_win": "several seats may win on one discard (一炮多響); off: only the nearest counter-clockwise wins (截胡)",
    "strict_pass": "過水 also blocks the seat's self-drawn wins until its next discard (off: only wins on discards "
                   "until its next draw)",
    "no_calls_last3": "with 3 or fewer drawable tiles no chi, pon or exposed kong (wins and self kongs still allowed)",
    "no_kong_after_claim": "after a chi or pon the seat must discard: no kong in that turn",
    "kong_replacement_self_draw": "a seat may win by self-draw on the replacement tile drawn after its exposed kong "
                                  "(明槓); `False` forbids that win (concealed and added kongs are not affected)",
    "swap_call": "食替 allowed; `False` forbids discarding, after a chi, a tile the claimed set could have been made "
                 "with (Hong Kong style)",
    "declare_ready": "enables the `READY` action (報聽) in profiles with ready items (天聽 / 地聽, 宣告聽牌); an error "
                     "with a profile that has none",
    "west_draw": "一路歸西: the first four discards all 西 make the hand drawn",
    "streak_cap": "caps N in the dealer tai 1 + 2N (`None`: no cap)",
    "stakes": "base / per_tai chips (`{\"base\": 30, \"per_tai\": 10}` or `\"B/T\"`); rewards in tai units divide by "
              "per_tai",
    "episode": "`\"hand\"`: one hand per episode; `\"game\"`: a whole 一將 (four prevailing winds, dealer rotation, "
               "streaks, cumulative chips)",
    "extras": "append the 特殊牌型 pack (EXTRAS.md) to the profile (not with `hongkong`)",
    "extras_off": "pack item keys left out (needs `extras`)",
    "unrelated_gap": "十六不搭: least distance of two tiles of one suit (2 or 3; EXTRAS.md 6.1)",
    "count_method": "hongkong only: 計法1 (a set serves one occurrence of an item or family) or 計法2 (occurrences "
                    "of one item may share sets) (HONGKONG.md 2.2)",
    "dual_reading": "hongkong only: n n n (n+1)×3 (n+2)×3 concealed counts as three pons and three identical chows "
                    "at once (HONGKONG.md 2.3)",
    "dealer_pays_on_self_draw": "hongkong only: dealer tai also on the dealer's leg of a non-dealer's self-draw "
                                "(HONGKONG.md 1)",
    "settlement": "`\"la\"`: in a game (`episode=\"game\"`) legs enter the 拉 ledger (HONGKONG.md 5.2: 拉, 踢半, full "
                  "payment, new debt) and the reward is the chips actually paid; every open debt is paid at the end "
                  "of the game. With `episode=\"hand\"` legs are paid at once",
    "la_cut": "三局斬拉: a debt may be paid in full when its k reaches 3, 6, ...; `\"none\"`: never (無限拉)",
    "la_cut_policy": "`\"ask\"`: the debtor answers in `PH_LA_CUT` (`WIN` cut / `PASS` keep)",
    "la_draw": "`\"settle\"`: a drawn hand pays every open debt in full",
    "flower_win": "`\"offer\"`: 八仙過海 / 七搶一 are asked in `PH_FLOWER`, not forced",
    "dice_payments": "hongkong only: the dealer's three dice each hand (圍骰 each pays the dealer 1 底, 1-2-3 the "
                     "dealer pays each 1 底)",
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
        rows.append([f"{base}{_span(at, b.n)} `{b.const}`", str(b.n)] + ([b.values] if with_values else [])
                    + [content])  # fmt: skip
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
        d = load_profile(p).rule_defaults
        if name in d and d[name] != DEFAULTS[name]:
            out[p] = d[name]
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
    choices = {"render_mode": tw16_v0.raw_env.metadata["render_modes"], "reward": tw16_v0.REWARDS,
               "illegal_action": tw16_v0.ILLEGAL_ACTIONS}  # fmt: skip
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
    text = ("Rule options (``envs.rules.Rules``, RULES.md 5; [default; profiles that change it]): " + ", ".join(rule)
            + ". Env options: " + ", ".join(_env_options()) + ".")
    return textwrap.fill(text, WIDTH, break_on_hyphens=False, break_long_words=False)


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
    ap = argparse.ArgumentParser(prog="python -m envs.doc_tables", description=__doc__.split("\n")[0])
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
        print(f"stale: {p} (run: python -m envs.doc_tables --write)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
